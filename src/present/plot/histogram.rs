//! Histograms: counts in shared bins (integer data in bins centred on the integers),
//! one translucent layer per series, the legend beside the plot, a count axis of whole
//! numbers fitted to the tallest bar.

use super::axis::{span, ticks};
use super::frame::frame;
use super::legend::{self, Swatch};
use super::style::{in_order, style};
use super::{Figure, err};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Overlaid histograms with shared bins.
#[derive(Debug, Clone, Default)]
pub struct Histogram {
    pub title: String,
    pub x_label: String,
    pub series: Vec<(String, Vec<f64>)>,
    /// Bin width; integer data reads best with width 1.
    pub bin_width: f64,
    /// Integer data: bins of width 1 centred on the integers, so each bar stands over
    /// its value's tick.
    pub integers: bool,
    /// What the series' names are values of (the legend's heading).
    pub legend_title: Option<String>,
    /// Each series' style (see [`super::StyleBook`]); empty: the first styles in order.
    pub styles: Vec<super::SeriesStyle>,
    /// The values' range the bins cover, instead of the series' own (small multiples
    /// share their bins).
    pub value_range: Option<(f64, f64)>,
    /// The count axis's top, instead of the tallest bar's (shared by small multiples).
    pub count_max: Option<usize>,
    /// Leave the legend out (small multiples share one).
    pub hide_legend: bool,
}

impl Histogram {
    /// The first bin's left edge, the bin width and each series' count per bin.
    fn bins(&self) -> (f64, f64, Vec<Vec<usize>>) {
        let w = if self.bin_width > 0.0 {
            self.bin_width
        } else {
            1.0
        };
        let all: Vec<f64> = match self.value_range {
            Some((a, b)) => vec![a, b],
            None => self
                .series
                .iter()
                .flat_map(|s| s.1.iter().copied())
                .collect(),
        };
        let values = || all.iter().copied();
        let (lo, hi) = match self.integers {
            // The bins hold the values exactly: no margin, half a bin either side.
            true => {
                let (lo, hi) = span(values(), false);
                let (a, b) = values()
                    .filter(|v| v.is_finite())
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                        (a.min(v), b.max(v))
                    });
                if a.is_finite() {
                    (a, b + 0.5)
                } else {
                    (lo, hi)
                }
            }
            false => span(values(), false),
        };
        let first = match self.integers {
            true => lo.round() - 0.5,
            false => (lo / w).floor() * w,
        };
        let nbins = (((hi - first) / w).ceil() as usize).clamp(1, 10_000);
        let counts = self
            .series
            .iter()
            .map(|(_, xs)| {
                let mut c = vec![0; nbins];
                for x in xs.iter().filter(|x| x.is_finite()) {
                    let b = (((x - first) / w).floor().max(0.0) as usize).min(nbins - 1);
                    c[b] += 1;
                }
                c
            })
            .collect();
        (first, w, counts)
    }

    /// The tallest bar's count.
    pub fn tallest(&self) -> usize {
        self.bins().2.iter().flatten().copied().max().unwrap_or(0)
    }

    fn styles_or_default(&self) -> Vec<super::SeriesStyle> {
        match self.styles.len() == self.series.len() {
            true => self.styles.clone(),
            false => in_order(self.series.len()),
        }
    }

    /// The legend's entries: each series' name and style as a patch (none for one
    /// series).
    pub fn legend_entries(&self) -> Vec<(String, super::SeriesStyle, Swatch)> {
        if self.series.len() < 2 && self.series.iter().all(|s| s.0.is_empty()) {
            return Vec::new();
        }
        self.series
            .iter()
            .zip(self.styles_or_default())
            .map(|(s, st)| (s.0.clone(), st, Swatch::Patch))
            .collect()
    }
}

impl Figure for Histogram {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let (first, w, counts) = self.bins();
        let nbins = counts.first().map_or(1, Vec::len);
        let tallest = counts.iter().flatten().copied().max().unwrap_or(1);
        let top = self.count_max.unwrap_or(tallest).max(tallest) as f64 * 1.1;
        let styles = self.styles_or_default();
        let entries = match self.hide_legend || self.series.len() < 2 {
            true => Vec::new(),
            false => self.legend_entries(),
        };
        let shown: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
        let (plot, strip) = legend::split(root, &shown, self.legend_title.as_deref());
        let mut builder = ChartBuilder::on(&plot);
        let framed = frame(
            &mut builder,
            (&plot, &self.title),
            &self.x_label,
            "runs",
            72,
        )?;
        let mut chart = builder
            .build_cartesian_2d(first..(first + nbins as f64 * w), 0f64..top.max(1.0))
            .map_err(err)?;
        let x_end = first + nbins as f64 * w;
        let fx = ticks(first, x_end, false, 10);
        let y_ticks = (top.max(1.0) as usize + 1).clamp(2, 10);
        let fy = ticks(0.0, top.max(1.0), false, y_ticks);
        chart
            .configure_mesh()
            .y_labels(y_ticks)
            .x_label_formatter(&fx)
            .y_label_formatter(&fy)
            .label_style(style(14))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        framed.titles(&chart)?;
        for (c, st) in counts.iter().zip(&styles) {
            let colour = st.colour;
            let bars = c.iter().enumerate().map(|(b, &n)| {
                let x0 = first + b as f64 * w;
                Rectangle::new([(x0, 0.0), (x0 + w, n as f64)], colour.mix(0.45).filled())
            });
            chart.draw_series(bars).map_err(err)?;
        }
        if let Some(strip) = strip {
            legend::draw(&strip, self.legend_title.as_deref(), &entries)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_bins_are_centred_on_their_values() {
        let h = Histogram {
            series: vec![("a".into(), vec![17.0, 18.0, 18.0, 20.0])],
            bin_width: 1.0,
            integers: true,
            ..Histogram::default()
        };
        let (first, w, counts) = h.bins();
        // The bar of 18 spans 17.5 to 18.5: first + w * (index + 0.5) is the value.
        let at = |v: f64| ((v - first) / w - 0.5).round() as usize;
        assert_eq!(first + w * (at(18.0) as f64 + 0.5), 18.0);
        assert_eq!(counts[0][at(18.0)], 2);
        assert_eq!(counts[0][at(17.0)], 1);
        assert_eq!(counts[0][at(19.0)], 0);
        assert_eq!(counts[0][at(20.0)], 1);
    }

    #[test]
    fn integer_data_falls_in_unit_bins() {
        let h = Histogram {
            series: vec![("a".into(), vec![1.0, 1.0, 2.0]), ("b".into(), vec![3.0])],
            bin_width: 1.0,
            ..Histogram::default()
        };
        let (first, w, counts) = h.bins();
        assert_eq!((first, w), (0.0, 1.0));
        assert_eq!(counts[0][1..4], [2, 1, 0]);
        assert_eq!(counts[1][3], 1);
    }
}
