//! Box plots: median, quartiles, whiskers at 1.5 IQR and outliers, one box per category
//! on a categorical axis in the data's order; a category of few distinct values (where
//! a box collapses to a line) is drawn as its mean with a 95% interval, and a note
//! says so.

use super::axis::{CategoryLabels, TickAxis, span, ticks};
use super::frame::frame;
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
    /// A fixed y range (shared by small multiples), instead of one fitted to the data.
    pub y_range: Option<(f64, f64)>,
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

/// The most distinct values a sample may have to be drawn as a point with an interval
/// rather than a box.
const FEW: usize = 4;

/// True when the sample has at most [`FEW`] distinct values.
fn few_values(xs: &[f64]) -> bool {
    let mut v: Vec<f64> = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v.dedup();
    v.len() <= FEW
}

/// The mean and the half-width of its normal 95% interval (1.96 standard errors).
fn mean_interval(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

impl BoxPlot {
    /// The y range fitted to every value.
    pub fn y_span(&self) -> (f64, f64) {
        span(self.groups.iter().flat_map(|g| g.1.iter().copied()), false)
    }

    /// The key's words, when some group is drawn as a point.
    fn note(&self) -> Option<&'static str> {
        self.groups
            .iter()
            .any(|g| !g.1.is_empty() && few_values(&g.1))
            .then_some("● mean and its 95% interval (groups of few distinct values)")
    }
}

impl Figure for BoxPlot {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let ys = self.y_range.unwrap_or_else(|| self.y_span());
        let labels: Vec<String> = self.groups.iter().map(|g| g.0.clone()).collect();
        let axis_px = f64::from(root.dim_in_pixel().0) - 2.0 * 12.0 - 72.0;
        let fitted = CategoryLabels::fit(&labels, axis_px, 14);
        let mut builder = ChartBuilder::on(root);
        let mut framed = frame(
            &mut builder,
            (root, &self.title),
            &self.x_label,
            &self.y_label,
            72,
        )?;
        framed.category_area(&mut builder, &fitted);
        let mut chart = builder
            .build_cartesian_2d(TickAxis::categories(&labels), ys.0..ys.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|_| String::new())
            .y_label_formatter(&ticks(ys.0, ys.1, false, 10))
            .label_style(style(14))
            .bold_line_style(BLACK.mix(0.08))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        fitted.draw(&chart)?;
        framed.titles(&chart)?;
        let (colour, median_colour) = (PALETTE[0], PALETTE[1]);
        if let Some(note) = self.note() {
            let (w, _) = root.dim_in_pixel();
            root.draw(&Text::new(
                note,
                (w as i32 - 12, 40),
                style(14).pos(plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Right,
                    plotters::style::text_anchor::VPos::Top,
                )),
            ))
            .map_err(err)?;
        }
        for (i, (_, xs)) in self.groups.iter().enumerate() {
            let Some(s) = Summary::of(xs) else {
                continue;
            };
            let x = i as f64;
            if few_values(xs) {
                // A box of three distinct values is a flat line: show the mean with its
                // 95% interval instead, which moves with the share of each value.
                let ink = median_colour;
                let (mean, half) = mean_interval(xs);
                let s = Summary {
                    median: mean,
                    ci_low: mean - half,
                    ci_high: mean + half,
                    ..s
                };
                chart
                    .draw_series([
                        PathElement::new(vec![(x, s.ci_low), (x, s.ci_high)], ink.stroke_width(2)),
                        PathElement::new(
                            vec![(x - 0.08, s.ci_low), (x + 0.08, s.ci_low)],
                            ink.stroke_width(2),
                        ),
                        PathElement::new(
                            vec![(x - 0.08, s.ci_high), (x + 0.08, s.ci_high)],
                            ink.stroke_width(2),
                        ),
                    ])
                    .map_err(err)?;
                chart
                    .draw_series(std::iter::once(Circle::new((x, s.median), 6, ink.filled())))
                    .map_err(err)?;
                continue;
            }
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
    fn few_distinct_values_make_a_point_not_a_box() {
        assert!(few_values(&[17.0, 18.0, 18.0, 19.0, 18.0]));
        assert!(!few_values(&[1.0, 2.0, 3.0, 4.0, 5.0]));
        let (mean, half) = mean_interval(&[17.0, 18.0, 19.0, 18.0]);
        assert_eq!(mean, 18.0);
        assert!((half - 1.96 * (2.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
        let b = BoxPlot {
            groups: vec![("a".into(), vec![1.0, 2.0, 3.0, 4.0, 9.0])],
            ..BoxPlot::default()
        };
        assert_eq!(b.note(), None);
    }

    #[test]
    fn whiskers_stop_at_the_last_value_within_reach() {
        let xs = [1.0, 2.0, 3.0, 4.0, 100.0];
        let s = Summary::of(&xs).unwrap();
        assert_eq!(whiskers(&xs, &s), (1.0, 4.0));
    }
}
