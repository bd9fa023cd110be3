//! Box plots: median, quartiles, whiskers at 1.5 IQR and outliers, one box per category
//! on a categorical axis in the data's order.

use super::axis::{TickAxis, number, span};
use super::style::{PALETTE, style};
use super::{Figure, err};
use crate::stats::Summary;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Box plots (median, quartiles, whiskers at 1.5 IQR) of samples, one box per label.
#[derive(Debug, Clone, Default)]
pub struct BoxPlot {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub groups: Vec<(String, Vec<f64>)>,
}

/// The whisker ends: the most extreme values within 1.5 IQR of the box.
fn whiskers(xs: &[f64], s: &Summary) -> (f64, f64) {
    let lo = xs
        .iter()
        .copied()
        .filter(|&v| v >= s.q1 - 1.5 * s.iqr())
        .fold(f64::INFINITY, f64::min);
    let hi = xs
        .iter()
        .copied()
        .filter(|&v| v <= s.q3 + 1.5 * s.iqr())
        .fold(f64::NEG_INFINITY, f64::max);
    (lo, hi)
}

impl Figure for BoxPlot {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let ys = span(self.groups.iter().flat_map(|g| g.1.iter().copied()), false);
        let labels: Vec<String> = self.groups.iter().map(|g| g.0.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, style(22))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(TickAxis::categories(&labels), ys.0..ys.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .y_label_formatter(&|v| number(*v))
            .label_style(style(13))
            .axis_desc_style(style(16))
            .bold_line_style(BLACK.mix(0.08))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        let (colour, median_colour) = (PALETTE[0], PALETTE[1]);
        for (i, (_, xs)) in self.groups.iter().enumerate() {
            let Some(s) = Summary::of(xs) else {
                continue;
            };
            let x = i as f64;
            let (lo_w, hi_w) = whiskers(xs, &s);
            let w = 0.3;
            let mut parts: Vec<PathElement<(f64, f64)>> = vec![
                PathElement::new(vec![(x, lo_w), (x, s.q1)], BLACK.stroke_width(1)),
                PathElement::new(vec![(x, s.q3), (x, hi_w)], BLACK.stroke_width(1)),
            ];
            for v in [lo_w, hi_w] {
                parts.push(PathElement::new(
                    vec![(x - w / 2.0, v), (x + w / 2.0, v)],
                    BLACK.stroke_width(1),
                ));
            }
            chart.draw_series(parts).map_err(err)?;
            chart
                .draw_series([
                    Rectangle::new([(x - w, s.q1), (x + w, s.q3)], colour.mix(0.25).filled()),
                    Rectangle::new([(x - w, s.q1), (x + w, s.q3)], colour.stroke_width(1)),
                ])
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x - w, s.median), (x + w, s.median)],
                    median_colour.stroke_width(3),
                )))
                .map_err(err)?;
            let outliers = xs.iter().copied().filter(|&v| v < lo_w || v > hi_w);
            chart
                .draw_series(outliers.map(|v| Circle::new((x, v), 2, BLACK.mix(0.5))))
                .map_err(err)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whiskers_stop_at_the_last_value_within_reach() {
        let xs = [1.0, 2.0, 3.0, 4.0, 100.0];
        let s = Summary::of(&xs).unwrap();
        assert_eq!(whiskers(&xs, &s), (1.0, 4.0));
    }
}
