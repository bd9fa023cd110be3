//! Line figures: the median of each series against x with its interquartile band, or,
//! when x is categorical (instances, names, levels), each series' median as a marker
//! with interquartile whiskers at each category, in the data's order, with no line
//! suggesting values between categories. A metric that changes in steps is drawn as a
//! step function.

use super::axis::{CategoryLabels, TickAxis, span, ticks};
use super::frame::{Frame, frame};
use super::legend::{self, Swatch};
use super::style::{SeriesStyle, in_order, style};
use super::{Figure, err};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::prelude::*;

/// One line of a [`LinePlot`]: (x, median, lower quartile, upper quartile) points.
#[derive(Debug, Clone, Default)]
pub struct Band {
    pub name: String,
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// Medians against x with shaded interquartile bands, one line per series.
#[derive(Debug, Clone, Default)]
pub struct LinePlot {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Band>,
    pub log_x: bool,
    pub log_y: bool,
    /// Categorical x: the labels in order; a point's x is its label's index.
    pub categories: Option<Vec<String>>,
    /// A fixed y range (a fraction's 0 to 1, or one shared by small multiples),
    /// instead of one fitted to the data.
    pub y_range: Option<(f64, f64)>,
    /// A fixed x range (shared by small multiples).
    pub x_range: Option<(f64, f64)>,
    /// Leave the legend out (small multiples share one).
    pub hide_legend: bool,
    /// What the series' names are values of (the legend's heading).
    pub legend_title: Option<String>,
    /// Each series' style (see [`super::StyleBook`]); empty: the first styles in order.
    pub styles: Vec<SeriesStyle>,
    /// Draw each series as a step function (a value that holds until the next x, such
    /// as pegs left against an expansion budget), not as straight lines between points.
    pub steps: bool,
}

/// Points of a step function through `points`: each value held until the next x.
pub fn stepped<T: Copy>(points: &[(f64, T)]) -> Vec<(f64, T)> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            out.push((x, points[i - 1].1));
        }
        out.push((x, y));
    }
    out
}

macro_rules! chart_axes {
    ($area:expr, $plot:expr, $x:expr, $y:expr, $log_x:expr, $log_y:expr, |$chart:ident| $body:block) => {{
        let mut builder = ChartBuilder::on($area);
        let framed = frame(
            &mut builder,
            ($area, &$plot.title),
            &$plot.x_label,
            &$plot.y_label,
            72,
        )?;
        match ($log_x, $log_y) {
            (false, false) => {
                let mut $chart = builder
                    .build_cartesian_2d($x.0..$x.1, $y.0..$y.1)
                    .map_err(err)?;
                $body
                framed.titles(&$chart)?;
            }
            (true, false) => {
                let mut $chart = builder
                    .build_cartesian_2d(($x.0..$x.1).log_scale(), $y.0..$y.1)
                    .map_err(err)?;
                $body
                framed.titles(&$chart)?;
            }
            (false, true) => {
                let mut $chart = builder
                    .build_cartesian_2d($x.0..$x.1, ($y.0..$y.1).log_scale())
                    .map_err(err)?;
                $body
                framed.titles(&$chart)?;
            }
            (true, true) => {
                let mut $chart = builder
                    .build_cartesian_2d(($x.0..$x.1).log_scale(), ($y.0..$y.1).log_scale())
                    .map_err(err)?;
                $body
                framed.titles(&$chart)?;
            }
        }
    }};
}

impl LinePlot {
    /// The x range drawn: the fixed one, else fitted to the points.
    pub fn x_span(&self) -> (f64, f64) {
        self.x_range.unwrap_or_else(|| {
            span(
                self.series
                    .iter()
                    .flat_map(|s| s.points.iter().map(|p| p.0)),
                self.log_x,
            )
        })
    }

    /// The legend's entries: each series' name, style and swatch (none for one
    /// unnamed series).
    pub fn legend_entries(&self) -> Vec<(String, SeriesStyle, Swatch)> {
        let swatch = match self.categories.is_some() {
            true => Swatch::Marker,
            false => Swatch::Line,
        };
        self.legend_names()
            .into_iter()
            .zip(self.styles_or_default())
            .map(|(n, s)| (n, s, swatch))
            .collect()
    }

    fn styles_or_default(&self) -> Vec<SeriesStyle> {
        match self.styles.len() == self.series.len() {
            true => self.styles.clone(),
            false => in_order(self.series.len()),
        }
    }

    /// The y range drawn: the fixed one, else fitted to the points and bands.
    pub fn y_span(&self) -> (f64, f64) {
        self.y_range.unwrap_or_else(|| {
            span(
                self.series
                    .iter()
                    .flat_map(|s| s.points.iter().flat_map(|p| [p.1, p.2, p.3])),
                self.log_y,
            )
        })
    }

    /// True when every series is short enough to mark its points.
    fn marked(&self) -> bool {
        self.series
            .iter()
            .all(|s| s.points.len() <= legend::MARKED_POINTS)
    }

    /// The names the legend lists (none for one unnamed series).
    fn legend_names(&self) -> Vec<String> {
        if self.series.iter().all(|s| s.name.is_empty()) {
            return Vec::new();
        }
        self.series.iter().map(|s| s.name.clone()).collect()
    }

    /// Ticks for integer x values over a short range: one per integer.
    fn x_tick_count(&self, xs: (f64, f64)) -> usize {
        let integer_x = !self.log_x
            && xs.1 - xs.0 <= 12.0
            && self
                .series
                .iter()
                .flat_map(|s| s.points.iter())
                .all(|p| p.0.fract() == 0.0);
        if integer_x {
            (xs.1.floor() - xs.0.ceil()) as usize + 1
        } else {
            10
        }
    }

    fn draw_numeric<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        styles: &[SeriesStyle],
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let xs = self.x_span();
        let ys = self.y_span();
        let x_ticks = self.x_tick_count(xs);
        let (fx, fy) = (
            ticks(xs.0, xs.1, self.log_x, x_ticks),
            ticks(ys.0, ys.1, self.log_y, 10),
        );
        chart_axes!(area, self, xs, ys, self.log_x, self.log_y, |chart| {
            chart
                .configure_mesh()
                .x_labels(x_ticks)
                .x_label_formatter(&fx)
                .y_label_formatter(&fy)
                .label_style(style(14))
                .light_line_style(WHITE.mix(0.0))
                .draw()
                .map_err(err)?;
            for (s, st) in self.series.iter().zip(styles) {
                let quartiles: Vec<(f64, (f64, f64))> =
                    s.points.iter().map(|p| (p.0, (p.2, p.3))).collect();
                let quartiles = match self.steps {
                    true => stepped(&quartiles),
                    false => quartiles,
                };
                let mut band: Vec<(f64, f64)> = quartiles.iter().map(|p| (p.0, p.1.1)).collect();
                band.extend(quartiles.iter().rev().map(|p| (p.0, p.1.0)));
                if band.len() > 2 && s.points.iter().any(|p| p.2 != p.3) {
                    chart
                        .draw_series(std::iter::once(Polygon::new(band, st.colour.mix(0.15))))
                        .map_err(err)?;
                }
                let medians: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, p.1)).collect();
                let drawn = match self.steps {
                    true => stepped(&medians),
                    false => medians.clone(),
                };
                legend::line(&mut chart, &drawn, *st)?;
                // Every point marked when few, else the line's end: where each series
                // stops stays told apart where lines run on top of each other.
                let marked = match self.marked() {
                    true => &medians[..],
                    false => &medians[medians.len().saturating_sub(1)..],
                };
                legend::markers(&mut chart, marked, *st)?;
            }
        });
        Ok(())
    }

    fn draw_categorical<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        styles: &[SeriesStyle],
        labels: &[String],
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let ys = self.y_span();
        let axis_px = f64::from(area.dim_in_pixel().0) - 2.0 * 12.0 - 72.0;
        let fitted = CategoryLabels::fit(labels, axis_px, 14);
        let mut builder = ChartBuilder::on(area);
        let mut framed = frame(
            &mut builder,
            (area, &self.title),
            &self.x_label,
            &self.y_label,
            72,
        )?;
        framed.category_area(&mut builder, &fitted);
        let x = TickAxis::categories(labels);
        if self.log_y {
            let chart = builder
                .build_cartesian_2d(x, (ys.0..ys.1).log_scale())
                .map_err(err)?;
            self.categorical_series(chart, styles, (&fitted, &framed))
        } else {
            let chart = builder.build_cartesian_2d(x, ys.0..ys.1).map_err(err)?;
            self.categorical_series(chart, styles, (&fitted, &framed))
        }
    }

    fn categorical_series<DB, Y>(
        &self,
        mut chart: legend::Chart<'_, DB, TickAxis, Y>,
        styles: &[SeriesStyle],
        (fitted, framed): (&CategoryLabels, &Frame),
    ) -> anyhow::Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let ys = self.y_span();
        let fy = ticks(ys.0, ys.1, self.log_y, 10);
        chart
            .configure_mesh()
            .x_label_formatter(&|_| String::new())
            .y_label_formatter(&fy)
            .label_style(style(14))
            .bold_line_style(BLACK.mix(0.08))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        fitted.draw(&chart)?;
        framed.titles(&chart)?;
        let n = self.series.len().max(1) as f64;
        let step = (0.7 / n).min(0.18);
        for (k, (s, st)) in self.series.iter().zip(styles).enumerate() {
            let dx = (k as f64 - (n - 1.0) / 2.0) * step;
            for p in &s.points {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(p.0 + dx, p.2), (p.0 + dx, p.3)],
                        st.colour.stroke_width(2),
                    )))
                    .map_err(err)?;
            }
            let medians: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0 + dx, p.1)).collect();
            legend::markers(&mut chart, &medians, *st)?;
        }
        Ok(())
    }
}

impl Figure for LinePlot {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let styles = self.styles_or_default();
        let entries = match self.hide_legend {
            true => Vec::new(),
            false => self.legend_entries(),
        };
        let shown: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
        let (plot, strip) = legend::split(root, &shown, self.legend_title.as_deref());
        match &self.categories {
            Some(labels) => self.draw_categorical(&plot, &styles, labels)?,
            None => self.draw_numeric(&plot, &styles)?,
        }
        if let Some(strip) = strip {
            legend::draw(&strip, self.legend_title.as_deref(), &entries)?;
        }
        Ok(())
    }
}
