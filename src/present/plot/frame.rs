//! A chart's frame: its title, margin and label areas ([`frame`]), and axis titles set
//! to fit their axis, as the chart titles are: a title longer than its axis wraps onto a
//! second (and third) line (after spaces, underscores, commas or slashes, as the
//! category labels do) rather than running off the figure, so a short figure can carry
//! a long title such as `runtime to the target (evaluations per cell)`. The chart's
//! label areas grow by the lines added; the titles are drawn where plotters draws its
//! own (`x_desc`, `y_desc`): the y title rotated at the left edge of its label area,
//! the x title at the bottom of its.

use super::axis::{CategoryLabels, wrap};
use super::style::style;
use super::text;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The style size of axis titles (tick labels are 14).
pub const TITLE_PX: u32 = 16;
/// The most lines an axis title takes.
const MOST_LINES: usize = 3;

/// Both axis titles of a chart, each as its lines.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AxisTitles {
    pub x: Vec<String>,
    pub y: Vec<String>,
}

impl AxisTitles {
    /// `x` and `y` set for a plot about `plot` (width, height) pixels large: each on
    /// one line when it fits the plot's side, else wrapped.
    pub fn fit(x: &str, y: &str, plot: (f64, f64)) -> AxisTitles {
        let px = f64::from(TITLE_PX);
        let lines = |title: &str, room: f64| -> Vec<String> {
            match title.is_empty() {
                true => Vec::new(),
                false if text::width(title, px) <= room => vec![title.to_string()],
                false => wrap(title, room.max(1.0), px, MOST_LINES),
            }
        };
        AxisTitles {
            x: lines(x, plot.0),
            y: lines(y, plot.1),
        }
    }

    /// From one line's top to the next one's.
    pub fn line_height() -> u32 {
        text::line_height(f64::from(TITLE_PX)) as u32
    }

    /// The pixels the lines past the first add to the x and the y label area.
    pub fn extra(&self) -> (u32, u32) {
        let more = |lines: &[String]| lines.len().saturating_sub(1) as u32 * Self::line_height();
        (more(&self.x), more(&self.y))
    }

    /// Draws the titles beside `chart`'s plot, whose label areas are `x_area` high and
    /// `y_area` wide.
    pub fn draw<DB: DrawingBackend, CT: CoordTranslate>(
        &self,
        chart: &ChartContext<'_, DB, CT>,
        (x_area, y_area): (u32, u32),
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let area = chart.plotting_area().strip_coord_spec();
        let (w, h) = area.dim_in_pixel();
        let (w, h, lh) = (w as i32, h as i32, Self::line_height() as i32);
        let left = style(TITLE_PX)
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Top));
        for (k, line) in self.y.iter().enumerate() {
            let at = (-(y_area as i32) + k as i32 * lh, h / 2);
            area.draw_text(line, &left, at).map_err(super::err)?;
        }
        let below = style(TITLE_PX).pos(Pos::new(HPos::Center, VPos::Bottom));
        let n = self.x.len() as i32;
        for (k, line) in self.x.iter().enumerate() {
            let at = (w / 2, h + x_area as i32 - (n - 1 - k as i32) * lh);
            area.draw_text(line, &below, at).map_err(super::err)?;
        }
        Ok(())
    }
}

/// Frames a chart drawn on `area`: its title above (none when empty, as in a panel of
/// small multiples, whose grid titles it; see [`ChartTitle`]), its margin, and label
/// areas for ticks and axis titles (narrower where the axis title is empty, deeper
/// where it wraps). The axis titles are drawn with [`Frame::titles`] once the mesh is.
pub(super) fn frame<DB: DrawingBackend>(
    b: &mut ChartBuilder<'_, '_, DB>,
    (area, title): (&DrawingArea<DB, Shift>, &str),
    x_label: &str,
    y_label: &str,
    y_area: u32,
) -> anyhow::Result<Frame>
where
    DB::ErrorType: 'static,
{
    let (w, h) = area.dim_in_pixel();
    let heading = ChartTitle::fit(title, w);
    heading.draw(area, MARGIN as i32)?;
    let y_area = match y_label.is_empty() {
        true => y_area.saturating_sub(24),
        false => y_area,
    };
    // The plot's size once margins, title and label areas are taken.
    let top = MARGIN + heading.height();
    let plot = (
        f64::from(w.saturating_sub(2 * MARGIN + y_area)),
        f64::from(h.saturating_sub(MARGIN + top + x_area(x_label))),
    );
    let titles = AxisTitles::fit(x_label, y_label, plot);
    let (more_x, more_y) = titles.extra();
    let f = Frame {
        titles,
        areas: (x_area(x_label) + more_x, y_area + more_y),
        y_fit: (y_label.to_string(), plot.1, y_area),
    };
    b.margin(MARGIN)
        .margin_top(top)
        .x_label_area_size(f.areas.0)
        .y_label_area_size(f.areas.1);
    Ok(f)
}

/// A chart's title set to fit its width: on one line at the largest size from 18 down
/// to the ticks' 14 at which it fits, else on two lines at 14 (wrapped between words,
/// the rest shortened with `…`), never cut at the figure's edges. (The caption under
/// the figure carries its full description; the title stays a heading.)
pub(super) struct ChartTitle {
    lines: Vec<String>,
    size: u32,
}

impl ChartTitle {
    /// `title` over a drawing `width` pixels wide.
    pub fn fit(title: &str, width: u32) -> ChartTitle {
        let room = f64::from(width.saturating_sub(2 * MARGIN));
        if title.is_empty() {
            return ChartTitle {
                lines: Vec::new(),
                size: 18,
            };
        }
        match (14..=18)
            .rev()
            .find(|&s| text::width(title, f64::from(s)) <= room)
        {
            Some(size) => ChartTitle {
                lines: vec![title.to_string()],
                size,
            },
            None => ChartTitle {
                lines: wrap(title, room.max(1.0), 14.0, 2),
                size: 14,
            },
        }
    }

    fn line_height(&self) -> u32 {
        text::line_height(f64::from(self.size)) as u32
    }

    /// The height the title takes above the chart, with the gap below it.
    pub fn height(&self) -> u32 {
        match self.lines.len() {
            0 => 0,
            n => n as u32 * self.line_height() + 8,
        }
    }

    /// Draws the title centred across `area`, its top `top` pixels down.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        top: i32,
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let centre = area.dim_in_pixel().0 as i32 / 2;
        let at = style(self.size).pos(Pos::new(HPos::Center, VPos::Top));
        for (k, line) in self.lines.iter().enumerate() {
            let y = top + k as i32 * self.line_height() as i32;
            area.draw_text(line, &at, (centre, y)).map_err(super::err)?;
        }
        Ok(())
    }

    /// Draws the title at the top of `area` and gives the area below it.
    pub fn above<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> anyhow::Result<DrawingArea<DB, Shift>>
    where
        DB::ErrorType: 'static,
    {
        self.draw(area, MARGIN as i32)?;
        Ok(area.margin(MARGIN + self.height(), 0, 0, 0))
    }
}

/// The space around a chart.
const MARGIN: u32 = 12;

/// A framed chart's axis titles and the label areas it was given.
pub(super) struct Frame {
    titles: AxisTitles,
    /// The x label area's height and the y label area's width.
    areas: (u32, u32),
    /// The y title, the plot's height it was set for and the y label area without it.
    y_fit: (String, f64, u32),
}

impl Frame {
    /// Gives the x axis `labels`' area (several lines of category labels) with the
    /// title's lines below them.
    pub fn category_area<DB: DrawingBackend>(
        &mut self,
        b: &mut ChartBuilder<'_, '_, DB>,
        labels: &CategoryLabels,
    ) {
        let deeper = labels.area(self.areas.0) - self.areas.0;
        self.areas.0 += deeper;
        // The plot is lower by as much: the y title is set again for it.
        let (title, height, base) = &self.y_fit;
        let y = AxisTitles::fit("", title, (0.0, height - f64::from(deeper))).y;
        self.titles.y = y;
        self.areas.1 = base + self.titles.extra().1;
        b.x_label_area_size(self.areas.0)
            .y_label_area_size(self.areas.1);
    }

    /// Draws the axis titles beside `chart`.
    pub fn titles<DB: DrawingBackend, CT: CoordTranslate>(
        &self,
        chart: &ChartContext<'_, DB, CT>,
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        self.titles.draw(chart, self.areas)
    }
}

/// The height of the x axis's label area for one line of tick labels: room for the
/// axis title below them, when there is one.
pub(super) fn x_area(x_label: &str) -> u32 {
    if x_label.is_empty() { 30 } else { 48 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_longer_than_its_axis_wraps_and_every_line_fits() {
        let y = "runtime to the target (evaluations per cell)";
        let px = f64::from(TITLE_PX);
        let long = text::width(y, px);
        let t = AxisTitles::fit("evaluations", y, (600.0, long * 0.7));
        assert_eq!(t.x, vec!["evaluations".to_string()]);
        assert_eq!(t.y.len(), 2, "{:?}", t.y);
        assert_eq!(t.y.join(" "), y, "wrapped between words, nothing lost");
        assert!(t.y.iter().all(|l| text::width(l, px) <= long * 0.7));
        assert_eq!(t.extra(), (0, AxisTitles::line_height()));
        // One that fits stays whole; none takes no room.
        let t = AxisTitles::fit("", y, (600.0, long + 1.0));
        assert_eq!((t.x.len(), t.y.len(), t.extra()), (0, 1, (0, 0)));
        // Past three lines the rest is shortened with an ellipsis, still within the axis.
        let t = AxisTitles::fit(y, "", (long * 0.25, 100.0));
        assert_eq!(t.x.len(), 3);
        assert!(t.x[2].ends_with('…'), "{:?}", t.x);
        assert!(t.x.iter().all(|l| text::width(l, px) <= long * 0.25));
        assert_eq!(t.extra(), (2 * AxisTitles::line_height(), 0));
    }

    #[test]
    fn a_chart_title_shrinks_then_wraps_and_never_runs_off() {
        let title = "Tuned schedules on held-out seeds: runtime distribution";
        let room = |w: u32| f64::from(w - 2 * MARGIN);
        let wide = ChartTitle::fit(title, 2000);
        assert_eq!((wide.lines.len(), wide.size), (1, 18));
        // Narrower: a smaller size on one line, while 14 fits.
        let at14 = text::width(title, 14.0);
        let w = (at14 + 1.0) as u32 + 2 * MARGIN;
        let t = ChartTitle::fit(title, w);
        assert_eq!(t.lines.len(), 1);
        assert!((14..18).contains(&t.size) && text::width(title, f64::from(t.size)) <= room(w));
        // Narrower still: two lines at 14, each within the width.
        let t = ChartTitle::fit(title, (at14 * 0.6) as u32 + 2 * MARGIN);
        assert_eq!((t.lines.len(), t.size), (2, 14));
        assert!(t.lines.iter().all(|l| text::width(l, 14.0) <= at14 * 0.6));
        assert_eq!(t.height(), 2 * t.line_height() + 8);
        assert_eq!(ChartTitle::fit("", 500).height(), 0);
    }
}
