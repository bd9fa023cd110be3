//! The ranking chart: one row per group, best first, showing its median (a dot), its
//! interquartile range (a thick bar) and the 95% bootstrap interval of its median (a
//! thin line); the groups not significantly worse than the best are drawn filled, the
//! others hollow, and a key beside the chart says so. The axis is fitted to what is
//! drawn, with at least half a unit either side so integer data does not collapse.

use super::axis::{TickAxis, ticks};
use super::frame::frame;
use super::legend::{self, Swatch};
use super::style::{PALETTE, SeriesStyle, series_style, style};
use super::{Figure, err};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One group of an [`IntervalPlot`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IntervalRow {
    pub label: String,
    pub median: f64,
    pub q1: f64,
    pub q3: f64,
    /// The 95% bootstrap interval of the median.
    pub ci_low: f64,
    pub ci_high: f64,
    /// Not significantly worse than the best (the best included).
    pub with_best: bool,
}

/// Medians with their interquartile ranges and intervals, one row per label, best first.
#[derive(Debug, Clone, Default)]
pub struct IntervalPlot {
    pub title: String,
    pub x_label: String,
    pub rows: Vec<IntervalRow>,
    /// How "not significantly worse than the best" was decided: the key's heading.
    pub test: String,
    /// A fixed x range (shared by small multiples), instead of one fitted to the rows.
    pub x_limits: Option<(f64, f64)>,
    /// Leave the key out (small multiples share one).
    pub hide_key: bool,
}

impl IntervalPlot {
    /// The x range: everything drawn, with a margin of 5% of the span and at least 0.5.
    pub fn x_range(&self) -> (f64, f64) {
        let (lo, hi) = self
            .rows
            .iter()
            .flat_map(|r| [r.median, r.q1, r.q3, r.ci_low, r.ci_high])
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            });
        if !lo.is_finite() {
            return (0.0, 1.0);
        }
        let m = ((hi - lo) * 0.05).max(0.5);
        (lo - m, hi + m)
    }

    /// The key: what the marks mean.
    pub fn key(&self) -> Vec<(String, SeriesStyle, Swatch)> {
        let base = series_style(0);
        let hollow = SeriesStyle {
            colour: RGBColor(150, 150, 150),
            ..base
        };
        vec![
            ("median".into(), base, Swatch::Marker),
            ("interquartile range".into(), base, Swatch::Patch),
            ("95% interval of the median".into(), base, Swatch::Rule),
            ("not worse than the best".into(), base, Swatch::Marker),
            ("worse than the best".into(), hollow, Swatch::Marker),
        ]
    }
}

impl Figure for IntervalPlot {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let key = match self.hide_key {
            true => Vec::new(),
            false => self.key(),
        };
        let names: Vec<String> = key.iter().map(|k| k.0.clone()).collect();
        let (plot, strip) = legend::split(root, &names, Some(&self.test));
        let xs = self.x_limits.unwrap_or_else(|| self.x_range());
        let labels: Vec<String> = self.rows.iter().rev().map(|r| r.label.clone()).collect();
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(4);
        let mut builder = ChartBuilder::on(&plot);
        let y_area = (longest as u32 * 8 + 16).clamp(60, 300);
        // No y title: the groups' labels say what they are.
        let framed = frame(
            &mut builder,
            (&plot, &self.title),
            &self.x_label,
            "",
            y_area + 24,
        )?;
        let mut chart = builder
            .build_cartesian_2d(xs.0..xs.1, TickAxis::categories(&labels))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&ticks(xs.0, xs.1, false, 10))
            .label_style(style(14))
            .bold_line_style(BLACK.mix(0.08))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        framed.titles(&chart)?;
        let n = self.rows.len();
        for (i, r) in self.rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let colour = if r.with_best {
                PALETTE[0]
            } else {
                RGBColor(150, 150, 150)
            };
            let ink = if r.with_best {
                colour
            } else {
                RGBColor(110, 110, 110)
            };
            chart
                .draw_series([
                    PathElement::new(
                        vec![(r.q1, y), (r.q3, y)],
                        colour.mix(0.45).stroke_width(11),
                    ),
                    PathElement::new(vec![(r.ci_low, y), (r.ci_high, y)], ink.stroke_width(2)),
                ])
                .map_err(err)?;
            let cap = |x: f64| {
                EmptyElement::at((x, y))
                    + PathElement::new(vec![(0, -7), (0, 7)], ink.stroke_width(2))
            };
            chart
                .draw_series([cap(r.ci_low), cap(r.ci_high)])
                .map_err(err)?;
            let dot = if r.with_best {
                colour.filled()
            } else {
                WHITE.filled()
            };
            chart
                .draw_series([
                    Circle::new((r.median, y), 6, dot),
                    Circle::new((r.median, y), 6, colour.stroke_width(2)),
                ])
                .map_err(err)?;
        }
        if let Some(strip) = strip {
            legend::draw(&strip, Some(&self.test), &key)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_data_gets_a_readable_axis() {
        let row = |m: f64| IntervalRow {
            label: "a".into(),
            median: m,
            q1: m,
            q3: m,
            ci_low: m,
            ci_high: m,
            with_best: true,
        };
        let p = IntervalPlot {
            rows: vec![row(38.0), row(39.0)],
            ..IntervalPlot::default()
        };
        assert_eq!(p.x_range(), (37.5, 39.5));
        let wide = IntervalPlot {
            rows: vec![row(0.0), row(100.0)],
            ..IntervalPlot::default()
        };
        assert_eq!(wide.x_range(), (-5.0, 105.0));
    }
}
