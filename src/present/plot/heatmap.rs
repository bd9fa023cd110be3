//! Heatmaps: a grid of values coloured from low (light) to high (dark), each cell
//! labelled in black or white (whichever contrasts more with that cell), and a colour
//! bar saying which colour is which value.

use super::axis::{CategoryLabels, TickAxis, number, ticks};
use super::frame::frame;
use super::style::{centred, ink_on, ramp, style};
use super::{Figure, err};
use plotters::coord::Shift;
use plotters::prelude::*;

/// A grid of values coloured from low (light) to high (dark), each cell labelled.
#[derive(Debug, Clone, Default)]
pub struct Heatmap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_ticks: Vec<String>,
    pub y_ticks: Vec<String>,
    /// `values[y][x]`.
    pub values: Vec<Vec<Option<f64>>>,
    /// What the colours stand for (the colour bar's label).
    pub value_label: String,
}

/// The width of the colour bar strip, its labels included.
const BAR_STRIP: u32 = 140;

impl Heatmap {
    /// The values the colour ramp spans: the smallest and largest cell (a single value
    /// is widened so the ramp stays defined).
    pub fn colour_range(&self) -> (f64, f64) {
        let (lo, hi) = self
            .values
            .iter()
            .flatten()
            .flatten()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        if !lo.is_finite() {
            (0.0, 1.0)
        } else if hi - lo < 1e-12 {
            (lo - 0.5, hi + 0.5)
        } else {
            (lo, hi)
        }
    }

    fn fill(&self, v: Option<f64>) -> RGBColor {
        let (lo, hi) = self.colour_range();
        match v {
            Some(v) => ramp((v - lo) / (hi - lo)),
            None => RGBColor(225, 225, 225),
        }
    }

    fn draw_bar<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let (lo, hi) = self.colour_range();
        let mut bar = ChartBuilder::on(area)
            .margin_top(46)
            .margin_bottom(60)
            .margin_left(8)
            .margin_right(24)
            .right_y_label_area_size(70)
            .build_cartesian_2d(0f64..1.0, lo..hi)
            .map_err(err)?;
        bar.configure_mesh()
            .disable_x_axis()
            .disable_mesh()
            .y_labels(6)
            .y_label_formatter(&ticks(lo, hi, false, 6))
            .y_desc(&self.value_label)
            .label_style(style(14))
            .axis_desc_style(style(14))
            .draw()
            .map_err(err)?;
        let steps = 100;
        bar.draw_series((0..steps).map(|k| {
            let (a, b) = (
                lo + (hi - lo) * k as f64 / steps as f64,
                lo + (hi - lo) * (k + 1) as f64 / steps as f64,
            );
            Rectangle::new(
                [(0.0, a), (1.0, b)],
                ramp((k as f64 + 0.5) / steps as f64).filled(),
            )
        }))
        .map_err(err)?;
        Ok(())
    }
}

/// A cell's value as written in it.
fn cell_label(v: f64) -> String {
    if v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        number((v * 10.0).round() / 10.0)
    }
}

impl Figure for Heatmap {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let total = root.dim_in_pixel().0;
        let (plot, strip) = root.split_horizontally(total.saturating_sub(BAR_STRIP));
        let axis_px = f64::from(plot.dim_in_pixel().0) - 2.0 * 12.0 - 80.0;
        let fitted = CategoryLabels::fit(&self.x_ticks, axis_px, 14);
        let mut builder = ChartBuilder::on(&plot);
        let mut framed = frame(
            &mut builder,
            (&plot, &self.title),
            &self.x_label,
            &self.y_label,
            80,
        )?;
        framed.category_area(&mut builder, &fitted);
        let mut chart = builder
            .build_cartesian_2d(
                TickAxis::categories(&self.x_ticks),
                TickAxis::categories(&self.y_ticks),
            )
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_label_formatter(&|_| String::new())
            .label_style(style(14))
            .draw()
            .map_err(err)?;
        fitted.draw(&chart)?;
        framed.titles(&chart)?;
        for (yi, row) in self.values.iter().enumerate() {
            for (xi, v) in row.iter().enumerate() {
                let (x, y) = (xi as f64, yi as f64);
                let fill = self.fill(*v);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                        fill.filled(),
                    )))
                    .map_err(err)?;
                if let Some(v) = v {
                    let ink = ink_on(fill);
                    let text = centred(14).color(&ink);
                    chart
                        .draw_series(std::iter::once(Text::new(cell_label(*v), (x, y), text)))
                        .map_err(err)?;
                }
            }
        }
        self.draw_bar(&strip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_colour_bar_spans_the_cells() {
        let h = Heatmap {
            values: vec![vec![Some(3.0), None], vec![Some(-1.5), Some(8.0)]],
            ..Heatmap::default()
        };
        assert_eq!(h.colour_range(), (-1.5, 8.0));
        assert_eq!(h.fill(Some(-1.5)), ramp(0.0));
        assert_eq!(h.fill(Some(8.0)), ramp(1.0));
        let one = Heatmap {
            values: vec![vec![Some(2.0)]],
            ..Heatmap::default()
        };
        assert_eq!(one.colour_range(), (1.5, 2.5));
        assert_eq!(cell_label(2.0), "2");
        assert_eq!(cell_label(2.25), "2.3");
    }
}
