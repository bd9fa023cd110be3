//! Board pictures: a square board of labelled cells with one path drawn as numbered
//! arrows from cell centre to cell centre, the start and goal ringed, and shaded cells
//! (e.g. those no move reaches) explained in a key under the board.

use super::style::{PALETTE, centred, style};
use super::{Figure, err};
use plotters::coord::Shift;
use plotters::prelude::*;

/// A square board of labelled cells with a path through cell centres.
#[derive(Debug, Clone, Default)]
pub struct BoardPicture {
    pub title: String,
    pub size: usize,
    /// Row-major cell labels.
    pub labels: Vec<String>,
    /// Cells visited, in order: each step is drawn as a numbered arrow.
    pub path: Vec<usize>,
    pub start: Option<usize>,
    pub goal: Option<usize>,
    /// Cells drawn shaded, and what the shading means (the key's words).
    pub shaded: Vec<usize>,
    pub shaded_means: String,
}

const SIDE: u32 = 620;
const KEY: u32 = 60;
const SHADE: RGBColor = RGBColor(190, 190, 190);
const START: RGBColor = PALETTE[2];
const GOAL: RGBColor = PALETTE[1];
const ARROW: RGBColor = PALETTE[0];

/// Points in cell coordinates.
pub type Polyline = Vec<(f64, f64)>;

/// How far arrows run beside the line through the centres (a fraction of a cell), to
/// their right, so jumps in opposite directions along one row do not overlap.
const SIDE_STEP: f64 = 0.12;

/// An arrow from `a` to `b` (cell coordinates, y down), stopping short of `b`'s centre
/// so its label stays readable and shifted [`SIDE_STEP`] to its right: the shaft and
/// the filled head.
pub fn arrow(a: (f64, f64), b: (f64, f64)) -> (Polyline, Polyline) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let (sx, sy) = (-uy * SIDE_STEP, ux * SIDE_STEP);
    let (a, b) = ((a.0 + sx, a.1 + sy), (b.0 + sx, b.1 + sy));
    let tip = (b.0 - ux * 0.24, b.1 - uy * 0.24);
    let base = (tip.0 - ux * 0.16, tip.1 - uy * 0.16);
    let (px, py) = (-uy * 0.09, ux * 0.09);
    (
        vec![(a.0 + ux * 0.2, a.1 + uy * 0.2), base],
        vec![tip, (base.0 + px, base.1 + py), (base.0 - px, base.1 - py)],
    )
}

impl BoardPicture {
    fn centre(&self, c: usize) -> (f64, f64) {
        let n = self.size.max(1);
        ((c % n) as f64 + 0.5, (c / n) as f64 + 0.5)
    }

    fn draw_key<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let y = 22;
        let mut x = 14;
        let ring = |c: RGBColor, x: i32| Circle::new((x + 8, y), 8, c.stroke_width(3));
        let text = |t: &str, x: i32| Text::new(t.to_string(), (x + 22, y - 8), style(14));
        area.draw(&ring(START, x)).map_err(err)?;
        area.draw(&text("start", x)).map_err(err)?;
        x += 80;
        area.draw(&ring(GOAL, x)).map_err(err)?;
        area.draw(&text("goal", x)).map_err(err)?;
        x += 76;
        if self.path.len() > 1 {
            area.draw(&PathElement::new(
                vec![(x, y), (x + 16, y)],
                ARROW.stroke_width(3),
            ))
            .map_err(err)?;
            area.draw(&text("jumps of a shortest path, in order", x))
                .map_err(err)?;
            x += 290;
        }
        if !self.shaded.is_empty() {
            area.draw(&Rectangle::new(
                [(x, y - 8), (x + 16, y + 8)],
                SHADE.filled(),
            ))
            .map_err(err)?;
            area.draw(&text(&self.shaded_means, x)).map_err(err)?;
        }
        Ok(())
    }
}

impl Figure for BoardPicture {
    fn size(&self) -> (u32, u32) {
        (SIDE, SIDE + KEY)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let n = self.size.max(1) as f64;
        let root = root.titled(&self.title, style(20)).map_err(err)?;
        let (board, key) = root.split_vertically(root.dim_in_pixel().1.saturating_sub(KEY));
        let area = board.margin(6, 6, 30, 30);
        let mut chart = ChartBuilder::on(&area)
            .build_cartesian_2d(0f64..n, n..0f64)
            .map_err(err)?;
        let cell_px = f64::from(area.dim_in_pixel().1) / n;
        for c in 0..self.size * self.size {
            let (x, y) = ((c % self.size) as f64, (c / self.size) as f64);
            let fill = if self.shaded.contains(&c) {
                SHADE
            } else {
                WHITE
            };
            chart
                .draw_series([
                    Rectangle::new([(x, y), (x + 1.0, y + 1.0)], fill.filled()),
                    Rectangle::new([(x, y), (x + 1.0, y + 1.0)], BLACK.stroke_width(1)),
                ])
                .map_err(err)?;
        }
        for w in self.path.windows(2) {
            let (shaft, head) = arrow(self.centre(w[0]), self.centre(w[1]));
            chart
                .draw_series(std::iter::once(PathElement::new(
                    shaft,
                    ARROW.stroke_width(3),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Polygon::new(head, ARROW.filled())))
                .map_err(err)?;
        }
        let ring = ((cell_px * 0.3) as u32).max(6);
        for (cell, colour) in [(self.start, START), (self.goal, GOAL)] {
            if let Some(c) = cell {
                chart
                    .draw_series(std::iter::once(Circle::new(
                        self.centre(c),
                        ring,
                        colour.stroke_width(3),
                    )))
                    .map_err(err)?;
            }
        }
        let label_px = ((cell_px / 3.0) as u32).clamp(10, 28);
        for (c, label) in self.labels.iter().enumerate() {
            chart
                .draw_series(std::iter::once(Text::new(
                    label.clone(),
                    self.centre(c),
                    centred(label_px),
                )))
                .map_err(err)?;
        }
        self.draw_steps(&mut chart, cell_px)?;
        self.draw_key(&key)
    }
}

impl BoardPicture {
    /// Each jump's number in a small disc on its arrow, half a cell from the centre it
    /// leaves.
    fn draw_steps<DB: DrawingBackend>(
        &self,
        chart: &mut super::legend::Chart<
            '_,
            DB,
            plotters::coord::types::RangedCoordf64,
            plotters::coord::types::RangedCoordf64,
        >,
        cell_px: f64,
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let r = ((cell_px * 0.13) as u32).clamp(7, 13);
        let text_px = (r * 3 / 2).clamp(9, 16);
        for (k, w) in self.path.windows(2).enumerate() {
            let (shaft, _) = arrow(self.centre(w[0]), self.centre(w[1]));
            let (a, b) = (shaft[0], shaft[1]);
            let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt().max(1e-9);
            let at = (a.0 + (b.0 - a.0) / len * 0.3, a.1 + (b.1 - a.1) / len * 0.3);
            chart
                .draw_series(std::iter::once(Circle::new(at, r, ARROW.filled())))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    (k + 1).to_string(),
                    at,
                    centred(text_px).color(&WHITE),
                )))
                .map_err(err)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_run_between_centres_and_stop_short_of_the_label() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        let (shaft, head) = arrow((0.5, 0.5), (2.5, 0.5));
        assert!(close(shaft[0].0, 0.7) && close(shaft[0].1, 0.5 + SIDE_STEP));
        assert!(close(head[0].0, 2.26), "the tip stops before the centre");
        assert!(close(shaft[1].0, head[1].0), "the shaft ends at the head");
        let (back, _) = arrow((2.5, 0.5), (0.5, 0.5));
        assert!(
            close(back[0].1, 0.5 - SIDE_STEP),
            "the way back runs on the other side"
        );
        let (_, down) = arrow((0.5, 0.5), (0.5, 1.5));
        assert!(close(down[0].1, 1.26) && close(down[0].0, 0.5 - SIDE_STEP));
    }
}
