//! Figures, drawn with plotters as PNG and SVG: median lines with interquartile bands,
//! box plots, heatmaps, histograms, interval (ranking) plots, labelled grids with a
//! path, and point charts with chosen ticks (one point per run). They take plain
//! numbers and labels, nothing of any domain.
//!
//! Text uses DejaVu Sans, embedded through the `dejavu` crate, so figures render the same
//! on a machine without any font package.

use anyhow::Context;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;

const WIDTH: u32 = 900;
const HEIGHT: u32 = 560;
const FONT: &str = "sans-serif";

/// Colours for series, distinguishable and printable.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled fonts are valid TrueType files: registration cannot fail.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// Something that can be drawn on any backend.
pub trait Figure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static;
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }
}

/// Renders `fig` to `<stem>.png` and `<stem>.svg`, each written atomically. Returns the
/// PNG's path.
pub fn save(fig: &impl Figure, stem: &Path) -> anyhow::Result<PathBuf> {
    register_fonts();
    let dir = stem.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = stem
        .file_name()
        .map_or_else(|| "figure".into(), |n| n.to_string_lossy().into_owned());
    let png = dir.join(format!("{name}.png"));
    let tmp = dir.join(format!(".{name}.{}.tmp.png", std::process::id()));
    let drawn = (|| -> anyhow::Result<()> {
        let root = BitMapBackend::new(&tmp, fig.size()).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
        fig.draw(&root)?;
        root.present()
            .map_err(|e| anyhow::anyhow!("writing {}: {e}", png.display()))?;
        drop(root);
        std::fs::rename(&tmp, &png).with_context(|| format!("writing {}", png.display()))
    })();
    if let Err(e) = drawn {
        // No temporary file is left behind, whatever failed.
        let _ = std::fs::remove_file(&tmp);
        return Err(crate::util::error::environment_error(
            e,
            &png.display().to_string(),
        ));
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, fig.size()).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
        fig.draw(&root)?;
        root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    crate::util::atomic::write(&dir.join(format!("{name}.svg")), svg.as_bytes())?;
    Ok(png)
}

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing: {e}")
}

/// Axis range with a margin; a degenerate range is widened.
fn span(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return if log { (1.0, 10.0) } else { (0.0, 1.0) };
    }
    if log {
        return (lo / 1.5, hi * 1.5);
    }
    if hi - lo < 1e-12 {
        return (lo - 1.0, hi + 1.0);
    }
    let m = (hi - lo) * 0.05;
    (lo - m, hi + m)
}

fn style(size: u32) -> TextStyle<'static> {
    (FONT, size).into_font().into()
}

/// One line of a [`LinePlot`]: (x, median, lower quartile, upper quartile) points.
#[derive(Debug, Clone)]
pub struct Band {
    pub name: String,
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// Medians against x with shaded interquartile bands, one line per series.
pub struct LinePlot {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Band>,
    pub log_x: bool,
    pub log_y: bool,
}

macro_rules! chart_axes {
    ($root:expr, $title:expr, $x:expr, $y:expr, $log_x:expr, $log_y:expr, |$chart:ident| $body:block) => {{
        let mut builder = ChartBuilder::on($root);
        builder
            .caption($title, style(22))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72);
        match ($log_x, $log_y) {
            (false, false) => {
                let mut $chart = builder
                    .build_cartesian_2d($x.0..$x.1, $y.0..$y.1)
                    .map_err(err)?;
                $body
            }
            (true, false) => {
                let mut $chart = builder
                    .build_cartesian_2d(($x.0..$x.1).log_scale(), $y.0..$y.1)
                    .map_err(err)?;
                $body
            }
            (false, true) => {
                let mut $chart = builder
                    .build_cartesian_2d($x.0..$x.1, ($y.0..$y.1).log_scale())
                    .map_err(err)?;
                $body
            }
            (true, true) => {
                let mut $chart = builder
                    .build_cartesian_2d(($x.0..$x.1).log_scale(), ($y.0..$y.1).log_scale())
                    .map_err(err)?;
                $body
            }
        }
    }};
}

impl Figure for LinePlot {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let xs = span(
            self.series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.0)),
            self.log_x,
        );
        let ys = span(
            self.series
                .iter()
                .flat_map(|s| s.points.iter().flat_map(|p| [p.1, p.2, p.3])),
            self.log_y,
        );
        // A few integer x values (categories such as instances): one tick per integer.
        let integer_x = !self.log_x
            && xs.1 - xs.0 <= 12.0
            && self
                .series
                .iter()
                .flat_map(|s| s.points.iter())
                .all(|p| p.0.fract() == 0.0);
        let x_ticks = if integer_x {
            (xs.1.floor() - xs.0.ceil()) as usize + 1
        } else {
            10
        };
        chart_axes!(root, &self.title, xs, ys, self.log_x, self.log_y, |chart| {
            chart
                .configure_mesh()
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .x_labels(x_ticks)
                .x_label_formatter(&|x| number(*x))
                .y_label_formatter(&|y| number(*y))
                .label_style(style(14))
                .axis_desc_style(style(16))
                .light_line_style(WHITE.mix(0.0))
                .draw()
                .map_err(err)?;
            for (i, s) in self.series.iter().enumerate() {
                let colour = PALETTE[i % PALETTE.len()];
                let mut band: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, p.3)).collect();
                band.extend(s.points.iter().rev().map(|p| (p.0, p.2)));
                if band.len() > 2 {
                    chart
                        .draw_series(std::iter::once(Polygon::new(band, colour.mix(0.18))))
                        .map_err(err)?;
                }
                let line = chart
                    .draw_series(LineSeries::new(
                        s.points.iter().map(|p| (p.0, p.1)),
                        colour.stroke_width(2),
                    ))
                    .map_err(err)?;
                if self.series.len() > 1 || !s.name.is_empty() {
                    line.label(s.name.clone()).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(3))
                    });
                }
                chart
                    .draw_series(
                        s.points
                            .iter()
                            .map(|p| Circle::new((p.0, p.1), 3, colour.filled())),
                    )
                    .map_err(err)?;
            }
            if self.series.len() > 1 || self.series.iter().any(|s| !s.name.is_empty()) {
                chart
                    .configure_series_labels()
                    .label_font(style(14))
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK.mix(0.3))
                    .position(legend_corner(&self.series, xs, ys, self.log_x, self.log_y))
                    .draw()
                    .map_err(err)?;
            }
        });
        Ok(())
    }
}

/// An axis tick: no trailing zeros, and large numbers as `2.5e6`, so log axes stay
/// narrow.
fn number(v: f64) -> String {
    if v.abs() >= 1e5 {
        let exp = v.abs().log10().floor();
        let mantissa = v / 10f64.powf(exp);
        let m = format!("{mantissa:.1}");
        let m = m.trim_end_matches('0').trim_end_matches('.');
        format!("{m}e{exp}")
    } else {
        let s = format!("{v:.3}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" {
            "0".to_string()
        } else {
            s.to_string()
        }
    }
}

/// The corner of the plot where the fewest medians lie, for the legend.
fn legend_corner(
    series: &[Band],
    xs: (f64, f64),
    ys: (f64, f64),
    log_x: bool,
    log_y: bool,
) -> SeriesLabelPosition {
    let unit = |v: f64, (lo, hi): (f64, f64), log: bool| {
        if log {
            (v.ln() - lo.ln()) / (hi.ln() - lo.ln())
        } else {
            (v - lo) / (hi - lo)
        }
    };
    let mut counts = [0usize; 4];
    for p in series.iter().flat_map(|s| s.points.iter()) {
        let (x, y) = (unit(p.0, xs, log_x), unit(p.1, ys, log_y));
        let (right, top) = (x > 0.55, y > 0.6);
        let (left, bottom) = (x < 0.45, y < 0.4);
        counts[0] += usize::from(right && top);
        counts[1] += usize::from(left && top);
        counts[2] += usize::from(right && bottom);
        counts[3] += usize::from(left && bottom);
    }
    let corners = [
        SeriesLabelPosition::UpperRight,
        SeriesLabelPosition::UpperLeft,
        SeriesLabelPosition::LowerRight,
        SeriesLabelPosition::LowerLeft,
    ];
    let best = (0..4).min_by_key(|&i| counts[i]).unwrap_or(0);
    corners[best].clone()
}

/// Box plots (median, quartiles, whiskers at 1.5 IQR) of samples, one box per label.
pub struct BoxPlot {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub groups: Vec<(String, Vec<f64>)>,
}

impl Figure for BoxPlot {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let ys = span(self.groups.iter().flat_map(|g| g.1.iter().copied()), false);
        let n = self.groups.len().max(1);
        let labels: Vec<String> = self.groups.iter().map(|g| g.0.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, style(22))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), ys.0..ys.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .y_label_formatter(&|v| number(*v))
            .x_labels(n)
            .x_label_formatter(&|x| category(&labels, *x))
            .label_style(style(13))
            .axis_desc_style(style(16))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        for (i, (_, xs)) in self.groups.iter().enumerate() {
            let Some(s) = crate::stats::Summary::of(xs) else {
                continue;
            };
            let x = i as f64;
            let colour = PALETTE[0];
            let lo_w = xs
                .iter()
                .copied()
                .filter(|&v| v >= s.q1 - 1.5 * s.iqr())
                .fold(f64::INFINITY, f64::min);
            let hi_w = xs
                .iter()
                .copied()
                .filter(|&v| v <= s.q3 + 1.5 * s.iqr())
                .fold(f64::NEG_INFINITY, f64::max);
            let w = 0.3;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - w, s.q1), (x + w, s.q3)],
                    colour.mix(0.25).filled(),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - w, s.q1), (x + w, s.q3)],
                    colour.stroke_width(1),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x - w, s.median), (x + w, s.median)],
                    RED.stroke_width(2),
                )))
                .map_err(err)?;
            for (a, b) in [(lo_w, s.q1), (s.q3, hi_w)] {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x, a), (x, b)],
                        BLACK.stroke_width(1),
                    )))
                    .map_err(err)?;
            }
            for v in [lo_w, hi_w] {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x - w / 2.0, v), (x + w / 2.0, v)],
                        BLACK.stroke_width(1),
                    )))
                    .map_err(err)?;
            }
            let outliers = xs.iter().copied().filter(|&v| v < lo_w || v > hi_w);
            chart
                .draw_series(outliers.map(|v| Circle::new((x, v), 2, BLACK.mix(0.5))))
                .map_err(err)?;
        }
        Ok(())
    }
}

/// A grid of values coloured from low (light) to high (dark), each cell labelled.
pub struct Heatmap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_ticks: Vec<String>,
    pub y_ticks: Vec<String>,
    /// `values[y][x]`.
    pub values: Vec<Vec<Option<f64>>>,
}

impl Figure for Heatmap {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let (nx, ny) = (self.x_ticks.len().max(1), self.y_ticks.len().max(1));
        let (lo, hi) = span(self.values.iter().flatten().flatten().copied(), false);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, style(22))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..nx as f64, 0f64..ny as f64)
            .map_err(err)?;
        let xt = self.x_ticks.clone();
        let yt = self.y_ticks.clone();
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_labels(nx * 2 + 1)
            .y_labels(ny * 2 + 1)
            .x_label_formatter(&move |x| category(&xt, *x - 0.5))
            .y_label_formatter(&move |y| category(&yt, *y - 0.5))
            .label_style(style(13))
            .axis_desc_style(style(16))
            .draw()
            .map_err(err)?;
        for (yi, row) in self.values.iter().enumerate() {
            for (xi, v) in row.iter().enumerate() {
                let (x, y) = (xi as f64, yi as f64);
                let fill = match v {
                    Some(v) => {
                        let t = ((v - lo) / (hi - lo)).clamp(0.0, 1.0);
                        ramp(t)
                    }
                    None => RGBColor(220, 220, 220),
                };
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x, y), (x + 1.0, y + 1.0)],
                        fill.filled(),
                    )))
                    .map_err(err)?;
                if let Some(v) = v {
                    let t = ((v - lo) / (hi - lo)).clamp(0.0, 1.0);
                    let ink = if t > 0.6 { WHITE } else { BLACK };
                    let label = if v.fract().abs() < 1e-9 {
                        format!("{v:.0}")
                    } else {
                        format!("{v:.1}")
                    };
                    let text_style =
                        style(12)
                            .color(&ink)
                            .pos(plotters::style::text_anchor::Pos::new(
                                plotters::style::text_anchor::HPos::Center,
                                plotters::style::text_anchor::VPos::Center,
                            ));
                    chart
                        .draw_series(std::iter::once(Text::new(
                            label,
                            (x + 0.5, y + 0.5),
                            text_style,
                        )))
                        .map_err(err)?;
                }
            }
        }
        Ok(())
    }
}

/// A light-to-dark colour ramp (pale yellow, teal, dark blue) for heatmaps.
fn ramp(t: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 3] = [
        (255.0, 247.0, 188.0),
        (65.0, 182.0, 196.0),
        (8.0, 29.0, 88.0),
    ];
    let t = t.clamp(0.0, 1.0) * 2.0;
    let i = (t.floor() as usize).min(1);
    let f = t - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The label of a category axis at position `x`: the label whose index `x` is, or
/// nothing between categories.
fn category(labels: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 {
        labels.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// Overlaid histograms with shared bins.
pub struct Histogram {
    pub title: String,
    pub x_label: String,
    pub series: Vec<(String, Vec<f64>)>,
    /// Bin width; integer data reads best with width 1.
    pub bin_width: f64,
}

impl Figure for Histogram {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let w = if self.bin_width > 0.0 {
            self.bin_width
        } else {
            1.0
        };
        let (lo, hi) = span(self.series.iter().flat_map(|s| s.1.iter().copied()), false);
        let first = (lo / w).floor() * w;
        let nbins = (((hi - first) / w).ceil() as usize).max(1);
        let counts: Vec<Vec<usize>> = self
            .series
            .iter()
            .map(|(_, xs)| {
                let mut c = vec![0; nbins];
                for x in xs {
                    let b = (((x - first) / w).floor() as usize).min(nbins - 1);
                    c[b] += 1;
                }
                c
            })
            .collect();
        let top = counts.iter().flatten().copied().max().unwrap_or(1) as f64 * 1.1;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, style(22))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(first..(first + nbins as f64 * w), 0f64..top.max(1.0))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc("runs")
            .x_label_formatter(&|v| number(*v))
            .y_label_formatter(&|v| number(*v))
            .label_style(style(14))
            .axis_desc_style(style(16))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        for (si, c) in counts.iter().enumerate() {
            let colour = PALETTE[si % PALETTE.len()];
            let bars = c.iter().enumerate().map(|(b, &n)| {
                let x0 = first + b as f64 * w;
                Rectangle::new([(x0, 0.0), (x0 + w, n as f64)], colour.mix(0.45).filled())
            });
            let drawn = chart.draw_series(bars).map_err(err)?;
            if self.series.len() > 1 {
                drawn
                    .label(self.series[si].0.clone())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.mix(0.6).filled())
                    });
            }
        }
        if self.series.len() > 1 {
            chart
                .configure_series_labels()
                .label_font(style(14))
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.3))
                .draw()
                .map_err(err)?;
        }
        Ok(())
    }
}

/// Point estimates with confidence intervals, one row per label, best first (a ranking).
pub struct IntervalPlot {
    pub title: String,
    pub x_label: String,
    /// (label, estimate, low, high).
    pub rows: Vec<(String, f64, f64, f64)>,
}

impl Figure for IntervalPlot {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let n = self.rows.len().max(1);
        let xs = span(self.rows.iter().flat_map(|r| [r.1, r.2, r.3]), false);
        let labels: Vec<String> = self.rows.iter().rev().map(|r| r.0.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, style(22))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(260)
            .build_cartesian_2d(xs.0..xs.1, -0.5f64..(n as f64 - 0.5))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .x_label_formatter(&|v| number(*v))
            .y_labels(n)
            .y_label_formatter(&|y| category(&labels, *y))
            .label_style(style(13))
            .axis_desc_style(style(16))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        for (i, r) in self.rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(r.2, y), (r.3, y)],
                    PALETTE[0].stroke_width(3),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Circle::new(
                    (r.1, y),
                    5,
                    PALETTE[3].filled(),
                )))
                .map_err(err)?;
        }
        Ok(())
    }
}

/// A square board of labelled cells with a path drawn through cell centres (start
/// circled, goal marked), e.g. a maze and its shortest solution.
pub struct BoardPicture {
    pub title: String,
    pub size: usize,
    /// Row-major cell labels.
    pub labels: Vec<String>,
    /// Cells visited, in order.
    pub path: Vec<usize>,
}

impl Figure for BoardPicture {
    fn size(&self) -> (u32, u32) {
        (620, 660)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let n = self.size.max(1) as f64;
        let root = root.titled(&self.title, style(22)).map_err(err)?;
        let area = root.margin(10, 10, 10, 10);
        let mut chart = ChartBuilder::on(&area)
            .build_cartesian_2d(0f64..n, n..0f64)
            .map_err(err)?;
        let centre = |c: usize| ((c % self.size) as f64 + 0.5, (c / self.size) as f64 + 0.5);
        let on_path: std::collections::HashSet<usize> = self.path.iter().copied().collect();
        for c in 0..self.size * self.size {
            let (x, y) = ((c % self.size) as f64, (c / self.size) as f64);
            let fill = if on_path.contains(&c) {
                RGBColor(255, 243, 205)
            } else {
                WHITE
            };
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x, y), (x + 1.0, y + 1.0)],
                    fill.filled(),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x, y), (x + 1.0, y + 1.0)],
                    BLACK.stroke_width(1),
                )))
                .map_err(err)?;
        }
        if self.path.len() > 1 {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    self.path.iter().map(|&c| centre(c)).collect::<Vec<_>>(),
                    PALETTE[3].mix(0.7).stroke_width(3),
                )))
                .map_err(err)?;
        }
        let centred = |size: u32| {
            style(size).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Center,
            ))
        };
        let cell_px = (560.0 / n) as u32;
        for (c, label) in self.labels.iter().enumerate() {
            let (x, y) = centre(c);
            chart
                .draw_series(std::iter::once(Text::new(
                    label.clone(),
                    (x, y),
                    centred((cell_px / 3).clamp(10, 28)),
                )))
                .map_err(err)?;
        }
        if let Some(&start) = self.path.first() {
            let (x, y) = centre(start);
            chart
                .draw_series(std::iter::once(Circle::new(
                    (x, y),
                    (cell_px / 3).max(6),
                    PALETTE[0].stroke_width(3),
                )))
                .map_err(err)?;
        }
        Ok(())
    }
}

/// Lines through points with chosen tick marks, distinct markers per series, notes
/// above points and dashed reference lines: the study's figures (each run is one point,
/// so there is no spread to draw). Log axes are drawn as log10 of the values.
pub struct PointChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<(String, Vec<(f64, f64)>)>,
    pub x_ticks: Vec<(f64, String)>,
    pub y_ticks: Vec<(f64, String)>,
    pub log_x: bool,
    pub log_y: bool,
    pub legend: SeriesLabelPosition,
    /// Text centred just above a point: (x, y, text).
    pub notes: Vec<(f64, f64, String)>,
    /// Dashed vertical lines: (x, label).
    pub marks: Vec<(f64, String)>,
}

/// The range of `values` with margins below and above (fractions of the span).
fn padded(values: impl Iterator<Item = f64>, below: f64, above: f64) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let span = (hi - lo).max(1.0);
    (lo - span * below, hi + span * above)
}

impl PointChart {
    fn tx(&self, x: f64) -> f64 {
        if self.log_x { x.log10() } else { x }
    }

    fn ty(&self, y: f64) -> f64 {
        if self.log_y { y.log10() } else { y }
    }
}

/// A linear axis (of drawn coordinates) with grid lines and labels exactly at its
/// ticks and nowhere else.
struct TickAxis {
    lo: f64,
    hi: f64,
    /// (position, label).
    ticks: Vec<(f64, String)>,
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

/// Integer ticks from `lo` to `hi`.
pub fn integer_ticks(lo: u64, hi: u64) -> Vec<(f64, String)> {
    (lo..=hi).map(|v| (v as f64, v.to_string())).collect()
}

/// Ticks at the powers of ten from `lo` to `hi`, labelled 1, 10, 100, 1k, …, 1M, 10M.
pub fn decade_ticks(lo: f64, hi: f64) -> Vec<(f64, String)> {
    let (a, b) = (
        lo.max(1.0).log10().floor() as i32,
        hi.max(1.0).log10().ceil() as i32,
    );
    (a..=b)
        .map(|e| {
            let v = 10f64.powi(e);
            (v, short_number(v))
        })
        .collect()
}

/// 1500000 as "1.5M", 20000 as "20k".
pub fn short_number(v: f64) -> String {
    if v >= 1e6 {
        format!("{}M", number(v / 1e6))
    } else if v >= 1e3 {
        format!("{}k", number(v / 1e3))
    } else {
        number(v)
    }
}

impl Figure for PointChart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.1.iter().map(|p| p.0))
            .chain(self.x_ticks.iter().map(|t| t.0))
            .map(|x| self.tx(x));
        let (x0, x1) = padded(xs, 0.04, 0.04);
        let ys = self
            .series
            .iter()
            .flat_map(|s| s.1.iter().map(|p| p.1))
            .chain(self.y_ticks.iter().map(|t| t.0))
            .map(|y| self.ty(y));
        let (y0, y1) = padded(ys, 0.06, 0.22);
        let x_keys: Vec<(f64, String)> = self
            .x_ticks
            .iter()
            .map(|t| (self.tx(t.0), t.1.clone()))
            .collect();
        let y_keys: Vec<(f64, String)> = self
            .y_ticks
            .iter()
            .map(|t| (self.ty(t.0), t.1.clone()))
            .collect();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, style(22))
            .margin(14)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(
                TickAxis {
                    lo: x0,
                    hi: x1,
                    ticks: x_keys,
                },
                TickAxis {
                    lo: y0,
                    hi: y1,
                    ticks: y_keys,
                },
            )
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(style(14))
            .axis_desc_style(style(16))
            .bold_line_style(BLACK.mix(0.12))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        let grey = RGBColor(90, 90, 90);
        for (x, name) in &self.marks {
            let x = self.tx(*x);
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(x, y0), (x, y1)],
                    6,
                    4,
                    grey.stroke_width(1),
                ))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    name.clone(),
                    (x, y1 - (y1 - y0) * 0.02),
                    style(13).color(&grey),
                )))
                .map_err(err)?;
        }
        for (i, (name, pts)) in self.series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let pts: Vec<(f64, f64)> = pts.iter().map(|&(x, y)| (self.tx(x), self.ty(y))).collect();
            let line = chart
                .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
                .map_err(err)?;
            let line = line.label(name.clone());
            let solid = colour.filled();
            let stroke = colour.stroke_width(2);
            match i % 4 {
                0 => {
                    line.legend(move |(x, y)| {
                        EmptyElement::at((x, y))
                            + PathElement::new(vec![(0, 0), (22, 0)], stroke)
                            + Circle::new((11, 0), 4, solid)
                    });
                    chart
                        .draw_series(pts.iter().map(|&p| Circle::new(p, 4, solid)))
                        .map_err(err)?;
                }
                1 => {
                    line.legend(move |(x, y)| {
                        EmptyElement::at((x, y))
                            + PathElement::new(vec![(0, 0), (22, 0)], stroke)
                            + TriangleMarker::new((11, 0), 6, solid)
                    });
                    chart
                        .draw_series(pts.iter().map(|&p| TriangleMarker::new(p, 6, solid)))
                        .map_err(err)?;
                }
                2 => {
                    line.legend(move |(x, y)| {
                        EmptyElement::at((x, y))
                            + PathElement::new(vec![(0, 0), (22, 0)], stroke)
                            + Rectangle::new([(7, -4), (15, 4)], solid)
                    });
                    chart
                        .draw_series(pts.iter().map(|&p| {
                            EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], solid)
                        }))
                        .map_err(err)?;
                }
                _ => {
                    line.legend(move |(x, y)| {
                        EmptyElement::at((x, y))
                            + PathElement::new(vec![(0, 0), (22, 0)], stroke)
                            + Cross::new((11, 0), 5, stroke)
                    });
                    chart
                        .draw_series(pts.iter().map(|&p| Cross::new(p, 5, stroke)))
                        .map_err(err)?;
                }
            }
        }
        let centred = style(13).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Bottom,
        ));
        for (x, y, t) in &self.notes {
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((self.tx(*x), self.ty(*y)))
                        + Text::new(t.clone(), (0, -9), centred.clone()),
                ))
                .map_err(err)?;
        }
        if self.series.len() > 1 {
            chart
                .configure_series_labels()
                .label_font(style(14))
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK.mix(0.3))
                .position(self.legend.clone())
                .draw()
                .map_err(err)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(number(5.0), "5");
        assert_eq!(number(0.25), "0.25");
        assert_eq!(number(12500.0), "12500");
        assert_eq!(number(1e9), "1e9");
        assert_eq!(number(2.5e6), "2.5e6");
    }

    #[test]
    fn every_figure_renders_png_and_svg_with_text() {
        let dir = tempfile::tempdir().unwrap();
        let line = LinePlot {
            title: "Line".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Band {
                name: "a".into(),
                points: vec![(1.0, 2.0, 1.0, 3.0), (10.0, 4.0, 3.0, 5.0)],
            }],
            log_x: true,
            log_y: false,
        };
        let png = save(&line, &dir.path().join("line")).unwrap();
        assert!(std::fs::metadata(&png).unwrap().len() > 1000);
        let svg = std::fs::read_to_string(dir.path().join("line.svg")).unwrap();
        assert!(
            svg.contains("<svg") && svg.contains("<text") && svg.contains("Line"),
            "the title is drawn as text"
        );
        save(
            &BoxPlot {
                title: "B".into(),
                x_label: "g".into(),
                y_label: "v".into(),
                groups: vec![
                    ("a".into(), vec![1.0, 2.0, 3.0, 9.0]),
                    ("b".into(), vec![2.0]),
                ],
            },
            &dir.path().join("box"),
        )
        .unwrap();
        save(
            &Heatmap {
                title: "H".into(),
                x_label: "x".into(),
                y_label: "y".into(),
                x_ticks: vec!["1".into(), "2".into()],
                y_ticks: vec!["a".into()],
                values: vec![vec![Some(1.0), None]],
            },
            &dir.path().join("heat"),
        )
        .unwrap();
        save(
            &Histogram {
                title: "Hi".into(),
                x_label: "x".into(),
                series: vec![("a".into(), vec![1.0, 1.0, 2.0]), ("b".into(), vec![3.0])],
                bin_width: 1.0,
            },
            &dir.path().join("hist"),
        )
        .unwrap();
        save(
            &IntervalPlot {
                title: "I".into(),
                x_label: "x".into(),
                rows: vec![("a".into(), 1.0, 0.5, 1.5)],
            },
            &dir.path().join("int"),
        )
        .unwrap();
        save(
            &BoardPicture {
                title: "M".into(),
                size: 2,
                labels: vec!["1".into(), "1".into(), "1".into(), "G".into()],
                path: vec![0, 1, 3],
            },
            &dir.path().join("board"),
        )
        .unwrap();
        let names: std::collections::BTreeSet<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 12, "{names:?}");
        assert!(
            names.iter().all(|n| !n.starts_with('.')),
            "no temporary file is left"
        );
    }
}
