//! Text measured as the figures set it: plotters writes a style of size `px` into the SVG
//! as `font-size = px / 1.24` and puts a line's baseline 0.76 em below a top anchor, half
//! an ex (usvg: a quarter em) below a centre one and above a bottom one; resvg (PNG) and
//! svg2pdf (PDF) then draw the bundled DejaVu Sans. Widths here are that font's advances
//! and heights its glyphs' ink, so a box computed here is where the glyphs land.

use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::sync::OnceLock;
use ttf_parser::Face;

/// A rectangle in pixels, y down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    /// The rectangle spanned by two corners in any order.
    pub fn spanning(a: (f64, f64), b: (f64, f64)) -> Rect {
        Rect {
            x0: a.0.min(b.0),
            y0: a.1.min(b.1),
            x1: a.0.max(b.0),
            y1: a.1.max(b.1),
        }
    }

    /// The smallest rectangle holding every point (an empty list gives a point at 0).
    pub fn around(points: &[(f64, f64)]) -> Rect {
        let first = points.first().copied().unwrap_or((0.0, 0.0));
        points
            .iter()
            .fold(Rect::spanning(first, first), |r, p| Rect {
                x0: r.x0.min(p.0),
                y0: r.y0.min(p.1),
                x1: r.x1.max(p.0),
                y1: r.y1.max(p.1),
            })
    }

    /// True when the two share more than an edge.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// Grown by `d` on every side.
    pub fn grown(self, d: f64) -> Rect {
        Rect {
            x0: self.x0 - d,
            y0: self.y0 - d,
            x1: self.x1 + d,
            y1: self.y1 + d,
        }
    }

    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }
}

fn face() -> &'static Face<'static> {
    static FACE: OnceLock<Face<'static>> = OnceLock::new();
    // The bundled DejaVu Sans is a valid TrueType file: parsing it cannot fail.
    FACE.get_or_init(|| Face::parse(dejavu::sans::regular(), 0).expect("DejaVu Sans parses"))
}

/// The em, in pixels, of text of style size `px` as the SVG sets it.
pub fn em(px: f64) -> f64 {
    px / 1.24
}

/// From one line's top to the next one's, in whole pixels, for text of style size `px`
/// (1.2 em: titles, axis titles and category labels alike).
pub fn line_height(px: f64) -> f64 {
    (em(px) * 1.2).ceil()
}

/// The advance width of `text` at style size `px`, in pixels.
pub fn width(text: &str, px: f64) -> f64 {
    let f = face();
    let units: u32 = text
        .chars()
        .map(|c| {
            f.glyph_index(c)
                .and_then(|g| f.glyph_hor_advance(g))
                .map_or(u32::from(f.units_per_em()) / 2, u32::from)
        })
        .sum();
    f64::from(units) / f64::from(f.units_per_em()) * em(px)
}

/// How far the ink of `text` reaches above and below its baseline, in ems.
fn ink_heights(text: &str) -> (f64, f64) {
    let f = face();
    let per_em = f64::from(f.units_per_em());
    let (mut above, mut below) = (0f64, 0f64);
    for c in text.chars() {
        if let Some(b) = f.glyph_index(c).and_then(|g| f.glyph_bounding_box(g)) {
            above = above.max(f64::from(b.y_max) / per_em);
            below = below.max(-f64::from(b.y_min) / per_em);
        }
    }
    (above, below)
}

/// The ink box of `text` of style size `px` anchored at `at` as `pos` says: the advance
/// width across, the glyphs' ink from top to bottom.
pub fn ink_box(text: &str, px: f64, at: (f64, f64), pos: Pos) -> Rect {
    let (w, em) = (width(text, px), em(px));
    let x0 = match pos.h_pos {
        HPos::Left => at.0,
        HPos::Center => at.0 - w / 2.0,
        HPos::Right => at.0 - w,
    };
    let baseline = at.1
        + em * match pos.v_pos {
            VPos::Top => 0.76,
            VPos::Center => 0.25,
            VPos::Bottom => -0.25,
        };
    let (above, below) = ink_heights(text);
    Rect {
        x0,
        y0: baseline - above * em,
        x1: x0 + w,
        y1: baseline + below * em,
    }
}

/// Where to anchor centred text so its ink is centred on `at` (a centre anchor puts the
/// baseline a quarter em below it, so digits sit high).
pub fn ink_centred(text: &str, px: f64, at: (f64, f64)) -> (f64, f64) {
    let centre = Pos::new(HPos::Center, VPos::Center);
    let b = ink_box(text, px, at, centre);
    (at.0, at.1 - ((b.y0 + b.y1) / 2.0 - at.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_the_fonts_advances_at_the_svg_size() {
        // DejaVu Sans digits advance 1303/2048 em; at style size 124 the em is 100 px.
        assert!((width("8", 124.0) - 63.62).abs() < 0.01);
        assert!((width("88", 124.0) - 2.0 * width("8", 124.0)).abs() < 1e-9);
        assert!(width("mm", 20.0) > width("ii", 20.0));
        let b = ink_box("8", 124.0, (0.0, 0.0), Pos::new(HPos::Left, VPos::Top));
        assert!((b.y0 - (76.0 - 73.5)).abs() < 2.0, "{b:?}");
        let at = ink_centred("7", 124.0, (50.0, 50.0));
        let b = ink_box("7", 124.0, at, Pos::new(HPos::Center, VPos::Center));
        assert!(((b.y0 + b.y1) / 2.0 - 50.0).abs() < 1e-9);
        assert!(((b.x0 + b.x1) / 2.0 - 50.0).abs() < 1e-9);
    }

    #[test]
    fn rectangles_overlap_only_when_they_share_area() {
        let a = Rect::spanning((0.0, 0.0), (2.0, 2.0));
        assert!(a.overlaps(&Rect::spanning((1.0, 1.0), (3.0, 3.0))));
        assert!(!a.overlaps(&Rect::spanning((2.0, 0.0), (3.0, 2.0))));
        assert_eq!(Rect::around(&[(1.0, 5.0), (-1.0, 2.0)]).width(), 2.0);
    }
}
