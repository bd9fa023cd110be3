//! A figure's printed size: its width and height in centimetres and the size of its
//! smallest text (the tick labels) in points, as a paper's author sets them. The figure
//! is drawn on a canvas whose units make that text come out at that size when the
//! figure is printed at that width; its SVG states the size at [`PX_PER_CM`] pixels a
//! centimetre, with a `viewBox` of the canvas, so every renderer scales it alike.

/// The SVG's pixels per printed centimetre: 16 cm are 900 pixels (1,800 in the PNG).
pub const PX_PER_CM: f64 = 56.25;

/// Points per centimetre.
const PT_PER_CM: f64 = 72.0 / 2.54;

/// The SVG font size of the figures' tick labels on their canvas: plotters writes a
/// text style of 14 units as `font-size` 14 / 1.24.
const TICK_UNITS: f64 = 14.0 / 1.24;

/// The printed size of a figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Print {
    /// Width and height in centimetres.
    pub width_cm: f64,
    pub height_cm: f64,
    /// The tick labels' size in points when printed at `width_cm` (other text is
    /// larger).
    pub font_pt: f64,
}

impl Default for Print {
    /// A figure at a 16 cm text width, 7 cm high (so a figure and its caption take at
    /// most a third of a printed page), its ticks at 8 pt.
    fn default() -> Print {
        Print {
            width_cm: 16.0,
            height_cm: 7.0,
            font_pt: 8.0,
        }
    }
}

impl Print {
    /// The canvas the figure is drawn on, in its units: as wide as makes the tick
    /// labels `font_pt` at the printed width (rounded down, so never smaller).
    pub fn canvas(&self) -> (u32, u32) {
        let width = (TICK_UNITS * self.width_cm * PT_PER_CM / self.font_pt).floor();
        let height = (width * self.height_cm / self.width_cm).round();
        (width.max(1.0) as u32, height.max(1.0) as u32)
    }

    /// The SVG's width and height in pixels, at [`PX_PER_CM`].
    pub fn outer(&self) -> (u32, u32) {
        let px = |cm: f64| (cm * PX_PER_CM).round().max(1.0) as u32;
        (px(self.width_cm), px(self.height_cm))
    }

    /// An SVG drawn on [`Print::canvas`] made `outer` pixels large: its width and
    /// height replaced, its `viewBox` (the canvas) kept.
    pub fn apply(&self, svg: &str, outer: (u32, u32)) -> String {
        let (w, h) = self.canvas();
        svg.replacen(
            &format!("width=\"{w}\" height=\"{h}\""),
            &format!("width=\"{}\" height=\"{}\"", outer.0, outer.1),
            1,
        )
    }

    /// The size in points at which text of SVG `font-size` `size` prints, in an SVG of
    /// `view_width` units set at `text_cm` centimetres wide.
    pub fn printed_pt(size: f64, view_width: f64, text_cm: f64) -> f64 {
        size * text_cm * PT_PER_CM / view_width
    }

    /// Checks the keys as a study gives them: positive, and sizes a page can hold.
    pub fn check(&self) -> Result<(), String> {
        let within = |v: f64, lo: f64, hi: f64| v.is_finite() && (lo..=hi).contains(&v);
        if !within(self.width_cm, 3.0, 40.0) || !within(self.height_cm, 2.0, 40.0) {
            return Err(format!(
                "width = {}, height = {}: a figure is 3 to 40 cm wide and 2 to 40 cm high",
                self.width_cm, self.height_cm
            ));
        }
        if !within(self.font_pt, 5.0, 24.0) {
            return Err(format!(
                "font_size = {}: tick labels are 5 to 24 pt",
                self.font_pt
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_ticks_print_at_eight_points_at_sixteen_centimetres() {
        let p = Print::default();
        let (w, h) = p.canvas();
        let pt = Print::printed_pt(TICK_UNITS, f64::from(w), 16.0);
        assert!((8.0..8.05).contains(&pt), "{pt}");
        assert_eq!(p.outer(), (900, 394));
        assert!((f64::from(h) / f64::from(w) - 7.0 / 16.0).abs() < 0.01);
        let svg = format!("<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">");
        let out = p.apply(&svg, p.outer());
        assert_eq!(
            out,
            format!("<svg width=\"900\" height=\"394\" viewBox=\"0 0 {w} {h}\">")
        );
        assert!(Print { font_pt: 2.0, ..p }.check().is_err());
    }
}
