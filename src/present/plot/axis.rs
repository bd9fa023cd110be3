//! Axes: ranges fitted to the data (log ranges clamped so no range can hang the
//! drawing), tick labels (decades as 10ⁿ on log axes, one number format per linear
//! axis, true minus signs), category positions, an axis with grid lines exactly at
//! chosen ticks, and category labels set so that none overlaps another
//! ([`CategoryLabels`]: wrapped, else shortened, measured with the SVG's font metrics).

use super::text;
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::prelude::{Cartesian2d, ChartContext, DrawingBackend};
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The most decades a log axis spans; wider ranges keep their top decades.
pub const MAX_DECADES: f64 = 300.0;

/// A log range made drawable: both ends finite, positive and normal, at most
/// [`MAX_DECADES`] apart (the bottom is raised), and not degenerate.
pub fn clamp_log(lo: f64, hi: f64) -> (f64, f64) {
    let fix = |v: f64| {
        if v.is_finite() {
            v.clamp(f64::MIN_POSITIVE * 1e10, f64::MAX / 1e10)
        } else {
            1.0
        }
    };
    let (mut lo, mut hi) = (fix(lo), fix(hi));
    if lo > hi {
        std::mem::swap(&mut lo, &mut hi);
    }
    if hi / lo < 1.0 + 1e-9 {
        return (lo / 2.0, hi * 2.0);
    }
    if hi.log10() - lo.log10() > MAX_DECADES {
        lo = 10f64.powf(hi.log10() - MAX_DECADES);
    }
    (lo, hi)
}

/// Axis range with a margin; a degenerate range is widened. On a log axis only
/// positive values count, and the range is clamped by [`clamp_log`].
pub fn span(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return if log { (1.0, 10.0) } else { (0.0, 1.0) };
    }
    if log {
        return clamp_log(lo / 1.5, hi * 1.5);
    }
    if hi - lo < 1e-12 {
        let m = lo.abs().max(1.0) * 0.1;
        return (lo - m, hi + m);
    }
    let m = (hi - lo) * 0.05;
    (lo - m, hi + m)
}

/// An axis tick: no trailing zeros, and large numbers as `2.5e6`, so log axes stay
/// narrow; a true minus sign.
pub fn number(v: f64) -> String {
    if v.abs() >= 1e5 || (v != 0.0 && v.abs() < 1e-3) {
        let exp = v.abs().log10().floor();
        let mantissa = v / 10f64.powf(exp);
        let m = format!("{mantissa:.1}");
        let m = m.trim_end_matches('0').trim_end_matches('.');
        minus(format!("{m}×10{}", superscript(exp as i32)))
    } else {
        let s = format!("{v:.3}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" {
            "0".to_string()
        } else {
            minus(s.to_string())
        }
    }
}

/// A leading hyphen made a true minus sign (U+2212).
pub fn minus(s: String) -> String {
    match s.strip_prefix('-') {
        Some(rest) => format!("\u{2212}{rest}"),
        None => s,
    }
}

/// An exponent in superscript digits (`⁻³`).
fn superscript(n: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut out = String::new();
    if n < 0 {
        out.push('⁻');
    }
    for c in n.unsigned_abs().to_string().bytes() {
        out.push(DIGITS[usize::from(c - b'0')]);
    }
    out
}

/// A tick of a log axis: a decade as 10ⁿ, any other value as a plain number.
pub fn log_tick(v: f64) -> String {
    let e = v.log10();
    if v > 0.0 && (e - e.round()).abs() < 1e-9 {
        format!("10{}", superscript(e.round() as i32))
    } else {
        number(v)
    }
}

/// One format for every tick of a linear axis: as many decimals as the finest of its
/// ticks needs (the ticks plotters draws for that range and count), and thousands
/// separators on all its numbers when the largest has five digits or more.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearTicks {
    decimals: usize,
    thousands: bool,
}

impl LinearTicks {
    /// The format of the (at most) `count` ticks plotters puts on `lo..hi`.
    pub fn new(lo: f64, hi: f64, count: usize) -> LinearTicks {
        use plotters::coord::types::RangedCoordf64;
        let ticks = match lo.is_finite() && hi.is_finite() && lo < hi {
            true => RangedCoordf64::from(lo..hi).key_points(count.max(2)),
            false => Vec::new(),
        };
        let decimals = ticks
            .iter()
            .map(|&t| {
                (0..6)
                    .find(|&d| {
                        let p = 10f64.powi(d as i32);
                        ((t * p).round() - t * p).abs() < 1e-6 * p.max(1.0)
                    })
                    .unwrap_or(6)
            })
            .max()
            .unwrap_or(0);
        let top = ticks.iter().fold(0f64, |m, t| m.max(t.abs()));
        LinearTicks {
            decimals,
            thousands: decimals == 0 && top >= 1e4,
        }
    }

    /// A tick in this axis's format.
    pub fn format(&self, v: f64) -> String {
        let s = format!("{:.*}", self.decimals, v);
        let s = match s
            .trim_start_matches('-')
            .trim_matches(['0', '.'])
            .is_empty()
        {
            true => s.trim_start_matches('-').to_string(),
            false => s,
        };
        if !self.thousands {
            return minus(s);
        }
        let (sign, digits) = match s.strip_prefix('-') {
            Some(d) => ("-", d),
            None => ("", s.as_str()),
        };
        let grouped = digits
            .parse::<u64>()
            .map_or_else(|_| digits.to_string(), crate::util::numfmt::thousands);
        minus(format!("{sign}{grouped}"))
    }
}

/// The tick format of an axis over `lo..hi`: decades as 10ⁿ on a log axis, one
/// [`LinearTicks`] format on a linear one.
pub fn ticks(lo: f64, hi: f64, log: bool, count: usize) -> impl Fn(&f64) -> String {
    let linear = LinearTicks::new(lo, hi, count);
    move |v: &f64| match log {
        true => log_tick(*v),
        false => linear.format(*v),
    }
}

/// A linear axis (of drawn coordinates) with grid lines and labels exactly at its
/// ticks and nowhere else.
pub struct TickAxis {
    pub lo: f64,
    pub hi: f64,
    /// (position, label).
    pub ticks: Vec<(f64, String)>,
}

impl TickAxis {
    /// One tick per category, at 0, 1, 2, … with half a step of margin each side.
    pub fn categories(labels: &[String]) -> TickAxis {
        TickAxis {
            lo: -0.5,
            hi: labels.len().max(1) as f64 - 0.5,
            ticks: labels
                .iter()
                .enumerate()
                .map(|(i, l)| (i as f64, l.clone()))
                .collect(),
        }
    }
}

impl Ranged for TickAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let f = (value - self.lo) / (self.hi - self.lo);
        limit.0 + (f * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Bold points only: no light grid lines between the ticks.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.iter().map(|t| t.0).collect()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

impl ValueFormatter<f64> for TickAxis {
    fn format_ext(&self, value: &f64) -> String {
        self.ticks
            .iter()
            .find(|t| (t.0 - value).abs() < 1e-9)
            .map(|t| t.1.clone())
            .unwrap_or_default()
    }
}

/// The labels of a categorical x axis, set so no two overlap: each on one line when it
/// fits its slot (the width between its neighbours' ticks, less a gap), else wrapped
/// after spaces, underscores, commas and slashes onto at most [`MAX_LINES`] lines, a line
/// still too wide shortened with `…`. Widths are measured as the SVG sets the text.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryLabels {
    /// Each label's lines, top first.
    pub lines: Vec<Vec<String>>,
    /// The text's style size.
    pub px: u32,
    /// The widest a line may be.
    pub room: f64,
}

/// The most lines a category label takes.
pub const MAX_LINES: usize = 3;
/// The space kept between neighbouring labels, in pixels.
const GAP: f64 = 8.0;

impl CategoryLabels {
    /// `labels` set for an axis `axis_px` wide (one slot each) in text of style size
    /// `px`.
    pub fn fit(labels: &[String], axis_px: f64, px: u32) -> CategoryLabels {
        let room = (axis_px / labels.len().max(1) as f64 - GAP).max(1.0);
        let size = f64::from(px);
        let lines = labels
            .iter()
            .map(|l| match text::width(l, size) <= room {
                true => vec![l.clone()],
                false => wrap(l, room, size, MAX_LINES),
            })
            .collect();
        CategoryLabels { lines, px, room }
    }

    /// How many lines the tallest label takes.
    pub fn rows(&self) -> usize {
        self.lines.iter().map(Vec::len).max().unwrap_or(1).max(1)
    }

    /// The pixels a line adds below the first.
    pub fn line_height(&self) -> f64 {
        text::line_height(f64::from(self.px))
    }

    /// Every line and where its top centre goes, when label `i` is centred on
    /// `centres[i]` with its first line's top at `top`.
    pub fn placed(&self, centres: &[f64], top: f64) -> Vec<(&str, (f64, f64))> {
        self.lines
            .iter()
            .zip(centres)
            .flat_map(|(lines, x)| {
                lines.iter().enumerate().map(move |(k, line)| {
                    let y = (top + k as f64 * self.line_height()).round();
                    (line.as_str(), (x.round(), y))
                })
            })
            .collect()
    }

    /// The ink boxes of the lines as [`CategoryLabels::placed`] puts them.
    #[cfg(test)]
    pub fn boxes(&self, centres: &[f64], top: f64) -> Vec<text::Rect> {
        let pos = Pos::new(HPos::Center, VPos::Top);
        self.placed(centres, top)
            .into_iter()
            .map(|(line, at)| text::ink_box(line, f64::from(self.px), at, pos))
            .collect()
    }

    /// Draws the labels under a chart whose own x tick labels are blank.
    pub fn draw<DB: DrawingBackend, Y: Ranged>(
        &self,
        chart: &ChartContext<'_, DB, Cartesian2d<TickAxis, Y>>,
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
        Y::ValueType: Clone,
    {
        let area = chart.plotting_area().strip_coord_spec();
        let (base, (_, h)) = (area.get_base_pixel(), area.dim_in_pixel());
        let y0 = chart.plotting_area().get_y_range().start;
        let centres: Vec<f64> = (0..self.lines.len())
            .map(|i| f64::from(chart.backend_coord(&(i as f64, y0.clone())).0 - base.0))
            .collect();
        let style = super::style::style(self.px).pos(Pos::new(HPos::Center, VPos::Top));
        for (line, (x, y)) in self.placed(&centres, f64::from(h) + TICK_GAP) {
            area.draw_text(line, &style, (x as i32, y as i32))
                .map_err(super::err)?;
        }
        Ok(())
    }

    /// The label area a chart needs under its x axis for these labels and an axis
    /// title, given what one line of labels with the title takes.
    pub fn area(&self, one_line: u32) -> u32 {
        one_line + ((self.rows() - 1) as f64 * self.line_height()) as u32
    }
}

/// From the x axis to the labels' top, in pixels (as plotters leaves for its own).
const TICK_GAP: f64 = 10.0;

/// `label` broken after spaces, underscores, commas and slashes into lines of at most
/// `room` pixels (at most `most` lines, the last taking the rest), each line still too
/// wide shortened with `…`.
pub(super) fn wrap(label: &str, room: f64, px: f64, most: usize) -> Vec<String> {
    let mut pieces: Vec<String> = Vec::new();
    let mut piece = String::new();
    for c in label.chars() {
        piece.push(c);
        if matches!(c, ' ' | '_' | ',' | '/') {
            pieces.push(std::mem::take(&mut piece));
        }
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    let mut lines: Vec<String> = Vec::new();
    for p in pieces {
        let full = lines.len() == most;
        match lines.last_mut() {
            Some(last) if full || text::width(format!("{last}{p}").trim_end(), px) <= room => {
                last.push_str(&p)
            }
            _ => lines.push(p),
        }
    }
    lines
        .into_iter()
        .map(|l| shorten(l.trim_end(), room, px))
        .collect()
}

/// `line` if it fits `room` pixels, else as many of its first characters as fit with
/// `…` after them.
fn shorten(line: &str, room: f64, px: f64) -> String {
    if text::width(line, px) <= room {
        return line.to_string();
    }
    let chars: Vec<char> = line.chars().collect();
    (1..chars.len())
        .rev()
        .map(|n| format!("{}…", chars[..n].iter().collect::<String>()))
        .find(|s| text::width(s, px) <= room)
        .unwrap_or_else(|| "…".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(number(5.0), "5");
        assert_eq!(number(0.25), "0.25");
        assert_eq!(number(12500.0), "12500");
        assert_eq!(number(1e9), "1×10⁹");
        assert_eq!(number(2.5e6), "2.5×10⁶");
        assert_eq!(number(1e-6), "1×10⁻⁶");
        assert_eq!(number(-4.0), "\u{2212}4");
    }

    #[test]
    fn log_axes_label_decades_as_powers_of_ten() {
        assert_eq!(log_tick(1.0), "10⁰");
        assert_eq!(log_tick(10000.0), "10⁴");
        assert_eq!(log_tick(0.01), "10⁻²");
        assert_eq!(log_tick(20.0), "20");
    }

    #[test]
    fn a_linear_axis_has_one_format() {
        let t = LinearTicks::new(0.0, 1.0, 10);
        assert_eq!(t.format(0.0), "0.0");
        assert_eq!(t.format(0.5), "0.5");
        assert_eq!(t.format(1.0), "1.0");
        let t = LinearTicks::new(-19.0, -2.0, 10);
        assert_eq!(t.format(-18.0), "\u{2212}18");
        assert_eq!(t.format(0.0), "0");
        let t = LinearTicks::new(0.0, 150_000.0, 10);
        assert_eq!(t.format(100_000.0), "100,000");
        assert_eq!(t.format(5000.0), "5,000");
        let t = LinearTicks::new(0.0, 0.25, 10);
        assert_eq!(t.format(0.05), "0.05");
        assert_eq!(t.format(0.2), "0.20");
    }

    #[test]
    fn log_ranges_are_finite_normal_and_bounded() {
        let (lo, hi) = clamp_log(1e-310, 1.0);
        assert!(lo.is_normal() && hi == 1.0);
        assert!(hi.log10() - lo.log10() <= MAX_DECADES + 1e-9);
        let (lo, hi) = span([1e-300, 1e12].into_iter(), true);
        assert!((hi.log10() - lo.log10() - MAX_DECADES).abs() < 1e-6);
        assert!(hi >= 1e12);
        assert_eq!(clamp_log(5.0, 5.0), (2.5, 10.0));
        assert_eq!(span([f64::NAN, -1.0].into_iter(), true), (1.0, 10.0));
    }

    #[test]
    fn categories_sit_at_integers_in_data_order() {
        let labels: Vec<String> = ["1", "2", "14", "88"].map(String::from).to_vec();
        let axis = TickAxis::categories(&labels);
        assert_eq!((axis.lo, axis.hi), (-0.5, 3.5));
        assert_eq!(axis.format_ext(&2.0), "14");
        assert_eq!(axis.format_ext(&2.5), "");
        assert_eq!(axis.format_ext(&3.0), "88");
    }

    #[test]
    fn long_category_labels_never_overlap() {
        let labels: Vec<String> = [
            "anneal_geometric",
            "anneal_geometric_end",
            "anneal_lundy_mees",
            "restarts",
            "averyveryverylongsinglewordwithoutanybreakpoints",
        ]
        .map(String::from)
        .to_vec();
        // Five slots on a 600 px axis, as the figures set them (13 px labels).
        let (axis, n) = (600.0, labels.len() as f64);
        let fitted = CategoryLabels::fit(&labels, axis, 13);
        let centres: Vec<f64> = (0..labels.len())
            .map(|i| (i as f64 + 0.5) * axis / n)
            .collect();
        let boxes = fitted.boxes(&centres, 0.0);
        for (i, a) in boxes.iter().enumerate() {
            assert!(
                a.width() <= fitted.room + 1e-9,
                "line {i} is {} px wide",
                a.width()
            );
            for (j, b) in boxes[..i].iter().enumerate() {
                assert!(!a.overlaps(b), "lines {j} and {i} overlap: {b:?} {a:?}");
            }
        }
        assert_eq!(
            fitted.lines[1],
            ["anneal_geometric_", "end"].map(String::from)
        );
        assert_eq!(fitted.lines[3], vec!["restarts".to_string()]);
        assert!(fitted.lines[4][0].ends_with('…'), "{:?}", fitted.lines[4]);
        assert_eq!(fitted.rows(), 2);
        // Labels that fit stay on one line each.
        let short = CategoryLabels::fit(&labels[3..4], axis, 13);
        assert_eq!((short.rows(), short.lines[0][0].as_str()), (1, "restarts"));
        // The measure sees the overlap of labels set side by side without fitting.
        let raw: Vec<text::Rect> = labels
            .iter()
            .zip(&centres)
            .map(|(l, x)| {
                let pos = Pos::new(HPos::Center, VPos::Top);
                text::ink_box(l, 13.0, (*x, 0.0), pos)
            })
            .collect();
        assert!(raw[3].overlaps(&raw[4]), "the unfitted labels collide");
    }
}
