//! A table's columns for the PDF: each column as wide as its widest cell when the
//! table fits the text width, else text columns wrap (never inside a word) while number
//! columns keep their width; numbers are right-aligned, everything else left-aligned;
//! the type gets smaller (down to 6 pt) before a word would have to be cut.

use super::fonts::{Fonts, Style};
use super::parse::{Span, Spans};
use super::text::{self, Line, leading};
use crate::report::tables::is_number;

/// Space at each side of a cell, in points.
const PAD: f32 = 3.5;
/// Space above and below a row's text.
const PAD_V: f32 = 1.6;

pub struct Table {
    size: f32,
    widths: Vec<f32>,
    numeric: Vec<bool>,
    head: Vec<Vec<Line>>,
    rows: Vec<Vec<Vec<Line>>>,
}

fn cell_text(cell: &Spans) -> String {
    cell.iter().map(|s| s.text.as_str()).collect()
}

impl Table {
    /// The table set for a text width `width` with body text at `body` points.
    pub fn set(fonts: &Fonts, head: &[Spans], rows: &[Vec<Spans>], width: f32, body: f32) -> Table {
        let n = head.len().max(rows.iter().map(Vec::len).max().unwrap_or(0));
        let numeric: Vec<bool> = (0..n)
            .map(|c| {
                let cells: Vec<String> = rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(cell_text)
                    .collect();
                cells.iter().all(|t| is_number(t))
                    && cells.iter().any(|t| t.chars().any(|c| c.is_ascii_digit()))
            })
            .collect();
        let bold: Vec<Spans> = head
            .iter()
            .map(|c| {
                c.iter()
                    .map(|s| Span {
                        style: Style::Bold,
                        ..s.clone()
                    })
                    .collect()
            })
            .collect();
        let mut size = body * 0.82;
        loop {
            let (min, natural) = measure(fonts, &bold, rows, &numeric, size);
            let fits = min.iter().sum::<f32>() <= width;
            if fits || size <= 6.0 {
                let widths = fit(&min, &natural, width);
                let set = |cells: &[Spans]| -> Vec<Vec<Line>> {
                    (0..n)
                        .map(|c| {
                            let cell = cells.get(c).map(Vec::as_slice).unwrap_or(&[]);
                            let words = text::words(fonts, cell, size);
                            text::lines(fonts, &words, widths[c] - 2.0 * PAD, size)
                        })
                        .collect()
                };
                return Table {
                    size,
                    numeric,
                    head: set(&bold),
                    rows: rows.iter().map(|r| set(r)).collect(),
                    widths,
                };
            }
            size -= 0.5;
        }
    }

    pub fn width(&self) -> f32 {
        self.widths.iter().sum()
    }

    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    fn height(&self, cells: &[Vec<Line>]) -> f32 {
        let lines = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
        lines as f32 * leading(self.size) + 2.0 * PAD_V
    }

    pub fn head_height(&self) -> f32 {
        self.height(&self.head)
    }

    pub fn row_height(&self, r: usize) -> Option<f32> {
        self.rows.get(r).map(|cells| self.height(cells))
    }

    /// Where the header's cells go from `top` at `x`, and the top of what follows.
    pub fn head_cells(&self, x: f32, top: f32) -> (Vec<Cell<'_>>, f32) {
        self.place(&self.head, x, top)
    }

    /// Where row `r`'s cells go from `top` at `x`, and the top of what follows.
    pub fn row_cells(&self, r: usize, x: f32, top: f32) -> (Vec<Cell<'_>>, f32) {
        self.place(&self.rows[r], x, top)
    }

    fn place<'a>(&'a self, cells: &'a [Vec<Line>], mut x: f32, top: f32) -> (Vec<Cell<'a>>, f32) {
        let mut out = Vec::with_capacity(cells.len());
        for (c, lines) in cells.iter().enumerate() {
            let w = self.widths[c];
            out.push(Cell {
                lines,
                x: x + PAD,
                top: top - PAD_V,
                size: self.size,
                right: self.numeric[c].then_some(w - 2.0 * PAD),
            });
            x += w;
        }
        (out, top - self.height(cells))
    }
}

/// A cell placed: its lines from (`x`, `top`) at `size`, right-aligned in a width if a
/// number.
pub struct Cell<'a> {
    pub lines: &'a [Line],
    pub x: f32,
    pub top: f32,
    pub size: f32,
    pub right: Option<f32>,
}

/// Each column's narrowest and natural width (padding included): a number column's
/// cells are never wrapped, so its narrowest is its natural width.
fn measure(
    fonts: &Fonts,
    head: &[Spans],
    rows: &[Vec<Spans>],
    numeric: &[bool],
    size: f32,
) -> (Vec<f32>, Vec<f32>) {
    let mut min = vec![0.0f32; numeric.len()];
    let mut natural = vec![0.0f32; numeric.len()];
    for (r, row) in std::iter::once(head)
        .chain(rows.iter().map(Vec::as_slice))
        .enumerate()
    {
        for (c, cell) in row.iter().enumerate().take(numeric.len()) {
            let words = text::words(fonts, cell, size);
            let one_line = text::natural(fonts, &words, size);
            let narrow = match numeric[c] && r > 0 {
                true => one_line,
                false => text::widest(&words),
            };
            min[c] = min[c].max(narrow + 2.0 * PAD);
            natural[c] = natural[c].max(one_line + 2.0 * PAD);
        }
    }
    (min, natural)
}

/// Column widths for `width`: natural if they fit, else each column's narrowest plus a
/// share of what is left in proportion to how much wider it would like to be.
fn fit(min: &[f32], natural: &[f32], width: f32) -> Vec<f32> {
    let total: f32 = natural.iter().sum();
    if total <= width {
        return natural.to_vec();
    }
    let least: f32 = min.iter().sum();
    let spare = (width - least).max(0.0);
    let wants = total - least;
    min.iter()
        .zip(natural)
        .map(|(m, n)| {
            m + if wants > 0.0 {
                (n - m) * spare / wants
            } else {
                0.0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_the_width_number_columns_keep_theirs() {
        let w = fit(&[20.0, 50.0], &[100.0, 50.0], 100.0);
        assert_eq!(w, vec![50.0, 50.0]);
        assert_eq!(fit(&[20.0, 30.0], &[40.0, 30.0], 100.0), vec![40.0, 30.0]);
    }
}
