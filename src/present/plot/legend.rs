//! Drawing series in their style (solid, dashed or dotted lines; marker shapes) and the
//! legend, which sits in a strip right of the plot so it never covers data.

use super::style::{Marker, SeriesStyle, style};
use plotters::coord::Shift;
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::ranged1d::Ranged;
use plotters::prelude::*;

/// How a legend entry shows its series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Swatch {
    /// A line sample with the series' marker.
    Line,
    /// A filled patch (bars).
    Patch,
    /// The marker alone (points with whiskers, no line).
    Marker,
    /// A line sample without a marker.
    Rule,
}

/// The width of the legend strip for these names (none when there is nothing to tell).
pub fn width(names: &[String]) -> u32 {
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    if longest == 0 {
        return 0;
    }
    (48 + longest as u32 * 7).min(320)
}

/// Splits off the legend strip on the right of `root` (when `names` say anything),
/// wide enough for the names and the `heading`: (plot area, legend area).
pub fn split<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    names: &[String],
    heading: Option<&str>,
) -> (DrawingArea<DB, Shift>, Option<DrawingArea<DB, Shift>>) {
    let w = width(names);
    let heading = heading.map_or(0, |h| h.chars().count() as u32 * 7 + 16);
    let w = if w == 0 { 0 } else { w.max(heading).min(320) };
    if w == 0 {
        return (root.clone(), None);
    }
    let total = root.dim_in_pixel().0;
    let (plot, legend) = root.split_horizontally(total.saturating_sub(w));
    (plot, Some(legend))
}

/// Draws the legend entries from the top of `area`, below a `heading` if there is one.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    heading: Option<&str>,
    entries: &[(String, SeriesStyle, Swatch)],
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let mut y = 52;
    if let Some(h) = heading.filter(|h| !h.is_empty()) {
        area.draw(&Text::new(h.to_string(), (6, y - 8), style(14)))
            .map_err(super::err)?;
        y += 20;
    }
    // Rows 22 pixels apart, closer (down to 17: the text's em and a half) when that
    // keeps every entry inside a short figure.
    let room = area.dim_in_pixel().1 as i32 - y - 8;
    let step = (room / entries.len().max(1) as i32).clamp(17, 22);
    for (name, s, swatch) in entries {
        let c = s.colour;
        match swatch {
            Swatch::Line => {
                dashed_pixels(area, (6, y), 30, *s)?;
                marker_at(area, (21, y), *s)?;
            }
            Swatch::Marker => marker_at(area, (21, y), *s)?,
            Swatch::Rule => dashed_pixels(area, (6, y), 30, *s)?,
            Swatch::Patch => {
                area.draw(&Rectangle::new(
                    [(8, y - 6), (32, y + 6)],
                    c.mix(0.55).filled(),
                ))
                .map_err(super::err)?;
            }
        }
        area.draw(&Text::new(name.clone(), (40, y - 8), style(14)))
            .map_err(super::err)?;
        y += step;
    }
    Ok(())
}

/// A horizontal line sample `len` pixels long in the series' dash.
fn dashed_pixels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    len: i32,
    s: SeriesStyle,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let stroke = s.colour.stroke_width(2);
    let Some((dash, gap)) = s.dash else {
        area.draw(&PathElement::new(vec![(x, y), (x + len, y)], stroke))
            .map_err(super::err)?;
        return Ok(());
    };
    let mut at = 0;
    while at < len {
        let end = (at + dash as i32).min(len);
        area.draw(&PathElement::new(vec![(x + at, y), (x + end, y)], stroke))
            .map_err(super::err)?;
        at = end + gap as i32;
    }
    Ok(())
}

/// The series' marker centred on a pixel of `area`.
fn marker_at<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: (i32, i32),
    s: SeriesStyle,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    for e in marker_parts(s) {
        area.draw(&(EmptyElement::at(p) + e)).map_err(super::err)?;
    }
    Ok(())
}

/// A marker as polygons in pixel offsets from its centre (crosses as two thin bars),
/// so every shape draws through one element type.
fn marker_parts(s: SeriesStyle) -> Vec<Polygon<(i32, i32)>> {
    let fill = s.colour.filled();
    let poly = |pts: Vec<(i32, i32)>| Polygon::new(pts, fill);
    match s.marker {
        Marker::Circle => {
            let pts = (0..12)
                .map(|k| {
                    let a = f64::from(k) * std::f64::consts::PI / 6.0;
                    (
                        (4.5 * a.cos()).round() as i32,
                        (4.5 * a.sin()).round() as i32,
                    )
                })
                .collect();
            vec![poly(pts)]
        }
        Marker::Triangle => vec![poly(vec![(0, -6), (5, 4), (-5, 4)])],
        Marker::Square => vec![poly(vec![(-4, -4), (4, -4), (4, 4), (-4, 4)])],
        Marker::Diamond => vec![poly(vec![(0, -6), (5, 0), (0, 6), (-5, 0)])],
        Marker::Cross => vec![
            poly(vec![(-5, -4), (-4, -5), (5, 4), (4, 5)]),
            poly(vec![(4, -5), (5, -4), (-4, 5), (-5, 4)]),
        ],
    }
}

/// The chart type every figure draws series on.
pub type Chart<'a, DB, X, Y> = ChartContext<'a, DB, Cartesian2d<X, Y>>;

/// The most points a series may have for its markers to be drawn: past it they
/// would pile up into a smear, and colour and dash tell the series apart.
pub const MARKED_POINTS: usize = 30;

/// Draws the series' markers at `points` (chart coordinates).
pub fn markers<DB, X, Y>(
    chart: &mut Chart<'_, DB, X, Y>,
    points: &[(f64, f64)],
    s: SeriesStyle,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    chart
        .draw_series(points.iter().flat_map(|&p| {
            marker_parts(s)
                .into_iter()
                .map(move |e| EmptyElement::at(p) + e)
        }))
        .map_err(super::err)?;
    Ok(())
}

/// Draws a polyline through `points` in the series' colour and dash.
pub fn line<DB, X, Y>(
    chart: &mut Chart<'_, DB, X, Y>,
    points: &[(f64, f64)],
    s: SeriesStyle,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let stroke = s.colour.stroke_width(2);
    match s.dash {
        None => chart
            .draw_series(LineSeries::new(points.iter().copied(), stroke))
            .map(|_| ()),
        Some((dash, gap)) => chart
            .draw_series(DashedLineSeries::new(
                points.iter().copied(),
                dash,
                gap,
                stroke,
            ))
            .map(|_| ()),
    }
    .map_err(super::err)
}
