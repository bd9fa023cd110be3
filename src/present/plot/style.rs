//! How figures look: the embedded font, text styles, the qualitative series palette
//! (Okabe–Ito, readable by colour-blind readers) with line dashes and marker shapes
//! once series outnumber colours, the registry that gives a series name the same style
//! in every figure of a run, and the sequential colour ramp of heatmaps.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;
use std::sync::{Mutex, Once};

pub(super) const FONT: &str = "sans-serif";

/// Registers the bundled DejaVu Sans with plotters, once.
pub(super) fn register_fonts() {
    // plotters keeps its fonts in a registry of its own; the process only adds the same
    // two fonts to it, once, and changes nothing after.
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled fonts are valid TrueType files: registration cannot fail.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// Text of `size` pixels in the figures' font.
pub(super) fn style(size: u32) -> TextStyle<'static> {
    (FONT, size).into_font().into()
}

/// Text of `size` pixels centred on its position.
pub(super) fn centred(size: u32) -> TextStyle<'static> {
    style(size).pos(Pos::new(HPos::Center, VPos::Center))
}

/// The Okabe–Ito palette, most distinct first (black last; its yellow darkened so it
/// reads on white).
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(181, 168, 20),
];

/// Line patterns, used in turn once every colour is taken: (dash, gap) in pixels,
/// `None` for solid.
const DASHES: [Option<(u32, u32)>; 3] = [None, Some((9, 5)), Some((2, 4))];

/// Marker shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Marker {
    Circle,
    Triangle,
    Square,
    Cross,
    Diamond,
}

const MARKERS: [Marker; 5] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Cross,
    Marker::Diamond,
];

/// How one series is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeriesStyle {
    pub colour: RGBColor,
    /// (dash, gap) in pixels; `None` is a solid line.
    pub dash: Option<(u32, u32)>,
    pub marker: Marker,
}

/// How many series can be told apart by colour and dash alone.
pub const DISTINCT: usize = PALETTE.len() * DASHES.len();

/// The style of the `i`-th style slot: colours first, then dashes; markers cycle with
/// their own period, so a marker also separates series of one colour.
pub fn series_style(i: usize) -> SeriesStyle {
    let i = i % DISTINCT;
    SeriesStyle {
        colour: PALETTE[i % PALETTE.len()],
        dash: DASHES[i / PALETTE.len()],
        marker: MARKERS[i % MARKERS.len()],
    }
}

/// The palette's colours by the names a study writes, in [`PALETTE`]'s order.
pub const COLOUR_NAMES: [&str; 8] = [
    "blue",
    "vermillion",
    "green",
    "pink",
    "orange",
    "sky",
    "black",
    "yellow",
];

/// The line patterns by name, in `DASHES`' order.
pub const DASH_NAMES: [&str; 3] = ["solid", "dashed", "dotted"];

/// The marker shapes by name, in `MARKERS`' order.
pub const MARKER_NAMES: [&str; 5] = ["circle", "triangle", "square", "cross", "diamond"];

impl SeriesStyle {
    /// A style from a study's words: a palette colour by name (`blue`) or `#rrggbb`, a
    /// dash (`solid` when none) and a marker (`circle` when none); an error names what
    /// is not known and what is.
    pub fn from_words(
        colour: &str,
        dash: Option<&str>,
        marker: Option<&str>,
    ) -> Result<SeriesStyle, String> {
        let colour = match COLOUR_NAMES.iter().position(|c| *c == colour) {
            Some(i) => PALETTE[i],
            None => hex(colour).ok_or_else(|| {
                format!(
                    "colour {colour:?}: a palette colour ({}) or #rrggbb",
                    COLOUR_NAMES.join(", ")
                )
            })?,
        };
        let pick = |v: Option<&str>, names: &[&str], what: &str| match v {
            None => Ok(0),
            Some(v) => names
                .iter()
                .position(|n| *n == v)
                .ok_or_else(|| format!("{what} {v:?}: one of {}", names.join(", "))),
        };
        Ok(SeriesStyle {
            colour,
            dash: DASHES[pick(dash, &DASH_NAMES, "dash")?],
            marker: MARKERS[pick(marker, &MARKER_NAMES, "marker")?],
        })
    }

    /// Whether two styles look alike: the same colour and line.
    pub fn looks_like(&self, other: &SeriesStyle) -> bool {
        self.colour == other.colour && self.dash == other.dash
    }
}

/// `#rrggbb` as a colour.
fn hex(s: &str) -> Option<RGBColor> {
    let h = s.strip_prefix('#').filter(|h| h.len() == 6)?;
    let byte = |i: usize| u8::from_str_radix(h.get(i..i + 2)?, 16).ok();
    Some(RGBColor(byte(0)?, byte(2)?, byte(4)?))
}

/// The style slots of series by name for one report (or one experiment's plots), so a
/// group keeps its colour and line across the figures drawn with it, and the styles
/// studies declare for some names. Owned by whoever renders: no figure's style depends
/// on figures drawn for anything else.
#[derive(Debug, Default)]
pub struct StyleBook {
    slots: Mutex<HashMap<String, usize>>,
    declared: Mutex<HashMap<String, SeriesStyle>>,
}

impl StyleBook {
    /// Gives the series named `name` (a legend entry, `annealing` or `decay = 0.999`, or
    /// the value alone, `0.999`) this style in every figure; the first declaration of a
    /// name stands.
    pub fn declare(&self, name: &str, style: SeriesStyle) {
        let mut d = self.declared.lock().unwrap_or_else(|e| e.into_inner());
        d.entry(name.to_string()).or_insert(style);
    }

    /// The declared style of a series name: its own, else its value's when it names one
    /// column's value (`decay = 0.999`).
    fn declared_for(&self, name: &str) -> Option<SeriesStyle> {
        let d = self.declared.lock().unwrap_or_else(|e| e.into_inner());
        d.get(name).copied().or_else(|| {
            let (_, value) = name.split_once(" = ").filter(|_| !name.contains(", "))?;
            d.get(value).copied()
        })
    }

    /// The styles of a figure's series, by name: a declared name takes its declared
    /// style; a name seen before keeps its slot; a new one takes the first solid colour
    /// no name of the book has yet, else the first solid colour free in this figure,
    /// else the first free slot (dashed). Slots that look like a declared style of the
    /// figure are not free. So colours mean one thing across the report for as long as
    /// there are colours, and within a figure no two series share a colour and line (up
    /// to `DISTINCT`, 24, series, and declarations that differ).
    pub fn styles_for(&self, names: &[&str]) -> Vec<SeriesStyle> {
        let fixed: Vec<Option<SeriesStyle>> = names.iter().map(|n| self.declared_for(n)).collect();
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let mut used = [false; DISTINCT];
        for (s, u) in used.iter_mut().enumerate() {
            *u = fixed
                .iter()
                .flatten()
                .any(|f| f.looks_like(&series_style(s)));
        }
        let mut out: Vec<SeriesStyle> =
            fixed.iter().map(|f| f.unwrap_or(series_style(0))).collect();
        let mut pending = Vec::new();
        for (k, name) in names.iter().enumerate() {
            if fixed[k].is_some() {
                continue;
            }
            match slots.get(*name) {
                Some(&s) if !used[s % DISTINCT] => {
                    used[s % DISTINCT] = true;
                    out[k] = series_style(s);
                }
                _ => pending.push(k),
            }
        }
        let mut taken = [false; DISTINCT];
        for &s in slots.values() {
            taken[s % DISTINCT] = true;
        }
        for k in pending {
            let solid = 0..PALETTE.len();
            let s = solid
                .clone()
                .find(|&s| !used[s] && !taken[s])
                .or_else(|| solid.clone().find(|&s| !used[s]))
                .or_else(|| (0..DISTINCT).find(|&s| !used[s]))
                .unwrap_or(k);
            taken[s % DISTINCT] = true;
            used[s % DISTINCT] = true;
            slots.entry(names[k].to_string()).or_insert(s);
            out[k] = series_style(s);
        }
        out
    }
}

/// The styles of `n` series drawn with no book: the first `n` slots.
pub fn in_order(n: usize) -> Vec<SeriesStyle> {
    (0..n).map(series_style).collect()
}

/// A light-to-dark colour ramp (pale yellow, teal, dark blue) for heatmaps.
pub fn ramp(t: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 3] = [
        (255.0, 247.0, 188.0),
        (65.0, 182.0, 196.0),
        (8.0, 29.0, 88.0),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    } * 2.0;
    let i = (t.floor() as usize).min(1);
    let f = t - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The relative luminance of a colour (WCAG).
fn luminance(c: RGBColor) -> f64 {
    let lin = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.03928 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2)
}

/// The WCAG contrast ratio of two colours (1 to 21).
pub fn contrast(a: RGBColor, b: RGBColor) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// Black or white, whichever contrasts more with `fill`: text on a cell.
pub fn ink_on(fill: RGBColor) -> RGBColor {
    if contrast(fill, BLACK) >= contrast(fill, WHITE) {
        BLACK
    } else {
        WHITE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_stay_distinct_past_the_palette() {
        let all: Vec<SeriesStyle> = (0..DISTINCT).map(series_style).collect();
        for i in 0..all.len() {
            for j in 0..i {
                assert!(
                    all[i].colour != all[j].colour || all[i].dash != all[j].dash,
                    "slots {i} and {j} look alike"
                );
            }
        }
        const { assert!(DISTINCT >= 12) };
    }

    /// CIE L*a*b* of an sRGB colour (D65).
    fn lab(c: RGBColor) -> (f64, f64, f64) {
        let lin = |v: u8| {
            let s = f64::from(v) / 255.0;
            if s <= 0.04045 {
                s / 12.92
            } else {
                ((s + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (lin(c.0), lin(c.1), lin(c.2));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        (
            116.0 * f(y) - 16.0,
            500.0 * (f(x) - f(y)),
            200.0 * (f(y) - f(z)),
        )
    }

    #[test]
    fn palette_colours_are_far_apart() {
        for (i, a) in PALETTE.iter().enumerate() {
            for b in &PALETTE[..i] {
                let (p, q) = (lab(*a), lab(*b));
                let d = ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2) + (p.2 - q.2).powi(2)).sqrt();
                assert!(d > 25.0, "{a:?} and {b:?} are too close (ΔE {d:.1})");
            }
            assert!(contrast(*a, WHITE) > 1.8, "{a:?} fades on white");
        }
    }

    #[test]
    fn a_name_keeps_its_style_and_a_figure_never_repeats_one() {
        let names: Vec<String> = (0..14).map(|i| format!("style-test-{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let book = StyleBook::default();
        let first = book.styles_for(&refs);
        for i in 0..first.len() {
            for j in 0..i {
                assert_ne!(first[i], first[j], "series {i} and {j} share a style");
            }
        }
        let again = book.styles_for(&[refs[5], refs[2]]);
        assert_eq!(again, vec![first[5], first[2]]);
        // A new name beside them takes a colour of its own while one is left.
        let book = StyleBook::default();
        let a = book.styles_for(&["descent", "restarts"]);
        let b = book.styles_for(&["cap 0", "cap ∞", "restarts"]);
        assert_eq!(b[2], a[1], "restarts keeps its style");
        for s in &b[..2] {
            assert!(
                a.iter().all(|t| t.colour != s.colour),
                "{s:?} means something else"
            );
        }
        // Another book (another report) knows none of these names.
        let other = StyleBook::default().styles_for(&[refs[5], refs[2]]);
        assert_eq!(other, in_order(2));
    }

    #[test]
    fn declared_styles_stand_and_no_other_series_looks_like_them() {
        let book = StyleBook::default();
        let orange = SeriesStyle::from_words("vermillion", Some("dashed"), Some("square")).unwrap();
        book.declare("restarts", orange);
        let first = SeriesStyle::from_words("blue", None, None).unwrap();
        book.declare("0.999", first);
        let got = book.styles_for(&["descent", "restarts", "decay = 0.999", "x", "y"]);
        assert_eq!(got[1], orange);
        assert_eq!(got[2], first, "a value's style holds for its legend entry");
        for i in 0..got.len() {
            for j in 0..i {
                assert!(!got[i].looks_like(&got[j]), "{i} and {j}: {got:?}");
            }
        }
        assert_eq!(
            SeriesStyle::from_words("#102030", None, None)
                .unwrap()
                .colour,
            RGBColor(16, 32, 48)
        );
        for (c, d, m, says) in [
            ("teal", None, None, "colour \"teal\""),
            ("#12", None, None, "#rrggbb"),
            ("blue", Some("wavy"), None, "dash \"wavy\": one of solid"),
            ("blue", None, Some("star"), "marker \"star\""),
        ] {
            let e = SeriesStyle::from_words(c, d, m).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn cell_text_contrasts_with_every_cell() {
        for k in 0..=20 {
            let fill = ramp(f64::from(k) / 20.0);
            assert!(contrast(fill, ink_on(fill)) >= 4.5, "{fill:?}");
        }
    }
}
