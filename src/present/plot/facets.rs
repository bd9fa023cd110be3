//! Small multiples: one panel per value of a column, side by side (in rows of at most
//! three beyond three panels), each under its own small title, under one title, with
//! one x axis title below the grid, one y axis title left of it and one legend for all
//! of them beside it. The panels are figures of one kind on shared axes (the caller
//! fits them) with no titles of their own.

use super::frame::ChartTitle;
use super::legend::{self, Swatch};
use super::style::{SeriesStyle, style};
use super::{Figure, err};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Panels drawn in a grid with one legend.
#[derive(Debug, Clone, Default)]
pub struct Facets<F> {
    pub title: String,
    pub panels: Vec<F>,
    /// Each panel's title (`size = 7`).
    pub panel_titles: Vec<String>,
    /// The axis titles shared by the panels.
    pub x_label: String,
    pub y_label: String,
    /// The shared legend's entries (empty: none).
    pub legend: Vec<(String, SeriesStyle, Swatch)>,
    pub legend_title: Option<String>,
}

/// The grid of `n` panels: (rows, columns); one row up to three panels, then rows of
/// two (four panels) or three.
pub fn grid(n: usize) -> (usize, usize) {
    let cols = match n {
        0..=3 => n.max(1),
        4 => 2,
        _ => 3,
    };
    (n.div_ceil(cols).max(1), cols)
}

impl<F: Figure> Figure for Facets<F> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let root = match self.title.is_empty() {
            true => root.clone(),
            false => ChartTitle::fit(&self.title, root.dim_in_pixel().0).above(root)?,
        };
        let names: Vec<String> = self.legend.iter().map(|e| e.0.clone()).collect();
        let (plot, strip) = legend::split(&root, &names, self.legend_title.as_deref());
        let (w, h) = plot.dim_in_pixel();
        let (left, bottom) = (
            if self.y_label.is_empty() { 0 } else { 30 },
            if self.x_label.is_empty() { 0 } else { 34 },
        );
        let (grid_area, below) = plot.split_vertically(h.saturating_sub(bottom));
        let (beside, grid_area) = grid_area.split_horizontally(left);
        let axis = style(16).pos(Pos::new(HPos::Center, VPos::Center));
        if !self.x_label.is_empty() {
            let x = (left + (w - left) / 2) as i32;
            below
                .draw(&Text::new(self.x_label.clone(), (x, 14), axis.clone()))
                .map_err(err)?;
        }
        if !self.y_label.is_empty() {
            let (_, gh) = beside.dim_in_pixel();
            let turned = axis.transform(FontTransform::Rotate270);
            beside
                .draw(&Text::new(
                    self.y_label.clone(),
                    (14, gh as i32 / 2),
                    turned,
                ))
                .map_err(err)?;
        }
        let (rows, cols) = grid(self.panels.len());
        let cells = grid_area.split_evenly((rows, cols));
        let heading = style(17).pos(Pos::new(HPos::Center, VPos::Top));
        for (i, (panel, cell)) in self.panels.iter().zip(&cells).enumerate() {
            let (cw, _) = cell.dim_in_pixel();
            let title = self.panel_titles.get(i).cloned().unwrap_or_default();
            cell.draw(&Text::new(title, (cw as i32 / 2, 8), heading.clone()))
                .map_err(err)?;
            let (_, body) = cell.split_vertically(30);
            panel.draw(&body)?;
        }
        if let Some(strip) = strip {
            legend::draw(&strip, self.legend_title.as_deref(), &self.legend)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_wrap_into_rows_of_at_most_three() {
        assert_eq!(grid(1), (1, 1));
        assert_eq!(grid(3), (1, 3));
        assert_eq!(grid(4), (2, 2));
        assert_eq!(grid(5), (2, 3));
        assert_eq!(grid(7), (3, 3));
    }
}
