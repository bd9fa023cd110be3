//! Board pictures: a square board of labelled cells with one path over it. Each cell's
//! label sits in its middle; the path runs beneath as thin arrows in lanes beside the
//! lines through the centres, so no arrow crosses a label; each jump's number sits in a
//! corner of the cell it leaves, clear of every lane and arrowhead. The start and goal
//! cells are tinted, and shaded cells (e.g. those no move reaches) are explained in a key
//! under the board. [`BoardPicture::layout`] computes every position once, for the
//! drawing and for the tests that check nothing covers anything.

use super::style::{PALETTE, style};
use super::text::{self, Rect};
use super::{Figure, err};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A square board of labelled cells with a path through cell centres.
#[derive(Debug, Clone, Default)]
pub struct BoardPicture {
    pub title: String,
    pub size: usize,
    /// Row-major cell labels.
    pub labels: Vec<String>,
    /// Cells visited, in order: each step is drawn as an arrow, numbered in the cell it
    /// leaves.
    pub path: Vec<usize>,
    pub start: Option<usize>,
    pub goal: Option<usize>,
    /// Cells drawn shaded, and what the shading means (the key's words).
    pub shaded: Vec<usize>,
    pub shaded_means: String,
}

const SIDE: u32 = 620;
const TITLE: u32 = 40;
const KEY: u32 = 64;
const MARGIN: f64 = 12.0;
const SHADE: RGBColor = RGBColor(200, 200, 200);
const ARROW: RGBColor = PALETTE[0];

/// A colour mixed with white: `share` of the colour.
fn tint(c: RGBColor, share: f64) -> RGBColor {
    let mix = |v: u8| (255.0 - (255.0 - f64::from(v)) * share).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

fn start_tint() -> RGBColor {
    tint(PALETTE[2], 0.35)
}

fn goal_tint() -> RGBColor {
    tint(PALETTE[1], 0.35)
}

/// Points in cell coordinates (or pixels, once laid out).
pub type Polyline = Vec<(f64, f64)>;

/// How far the lanes run beside the line through the centres (a fraction of a cell), to
/// the right of the jump, so jumps in opposite directions along one row do not overlap
/// and no lane crosses a cell's label.
const LANE: f64 = 0.19;
/// An arrow's tip stops this far before the centre it points at.
const SHORT: f64 = 0.24;
/// An arrowhead's length and half width.
const HEAD: (f64, f64) = (0.14, 0.07);
/// A step number's distance from the corner of its cell.
const INSET: f64 = 0.04;

/// An arrow from `a` to `b` (cell coordinates, y down), stopping [`SHORT`] of `b`'s
/// centre and shifted [`LANE`] to its right: the shaft and the filled head.
pub fn arrow(a: (f64, f64), b: (f64, f64)) -> (Polyline, Polyline) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let (sx, sy) = (-uy * LANE, ux * LANE);
    let (a, b) = ((a.0 + sx, a.1 + sy), (b.0 + sx, b.1 + sy));
    let tip = (b.0 - ux * SHORT, b.1 - uy * SHORT);
    let base = (tip.0 - ux * HEAD.0, tip.1 - uy * HEAD.0);
    let (px, py) = (-uy * HEAD.1, ux * HEAD.1);
    (
        vec![(a.0 + ux * 0.2, a.1 + uy * 0.2), base],
        vec![tip, (base.0 + px, base.1 + py), (base.0 - px, base.1 - py)],
    )
}

/// One jump as drawn, in pixels.
#[derive(Debug, Clone)]
pub struct Jump {
    pub shaft: Polyline,
    pub head: Polyline,
    /// Its number, where its top-left (top-right when `right`) is anchored and its ink
    /// box.
    pub number: String,
    pub at: (f64, f64),
    pub right: bool,
    pub number_box: Rect,
}

/// Where everything on a board goes, in pixels of the figure.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The board's top-left corner and a cell's side.
    pub origin: (f64, f64),
    pub cell: f64,
    /// Style sizes of the labels and of the step numbers; the arrows' stroke width.
    pub label_px: u32,
    pub step_px: u32,
    pub stroke: u32,
    /// Each label's anchor (centred) and ink box.
    pub labels: Vec<((f64, f64), Rect)>,
    pub jumps: Vec<Jump>,
}

impl Layout {
    /// Everything that covers something else: a step number over a label, an arrow or
    /// another number; an arrow over a label. Empty when the picture reads cleanly.
    pub fn collisions(&self) -> Vec<String> {
        let half = f64::from(self.stroke) / 2.0;
        let ink: Vec<(String, Rect)> = self
            .jumps
            .iter()
            .flat_map(|j| {
                [
                    (
                        format!("the shaft of jump {}", j.number),
                        Rect::around(&j.shaft).grown(half),
                    ),
                    (
                        format!("the head of jump {}", j.number),
                        Rect::around(&j.head),
                    ),
                ]
            })
            .collect();
        let mut out = Vec::new();
        for (k, (_, label)) in self.labels.iter().enumerate() {
            for (what, r) in &ink {
                if label.overlaps(r) {
                    out.push(format!("{what} covers the label of cell {k}"));
                }
            }
        }
        for (i, j) in self.jumps.iter().enumerate() {
            let b = j.number_box;
            for (k, (_, label)) in self.labels.iter().enumerate() {
                if b.overlaps(label) {
                    out.push(format!("step {} covers the label of cell {k}", j.number));
                }
            }
            for (what, r) in &ink {
                if b.overlaps(r) {
                    out.push(format!("{what} covers step {}", j.number));
                }
            }
            for other in &self.jumps[..i] {
                if b.overlaps(&other.number_box) {
                    out.push(format!("steps {} and {} overlap", j.number, other.number));
                }
            }
        }
        out
    }
}

impl BoardPicture {
    fn centre(&self, c: usize) -> (f64, f64) {
        let n = self.size.max(1);
        ((c % n) as f64 + 0.5, (c / n) as f64 + 0.5)
    }

    /// The board's top-left corner and side in the figure: a square under the title,
    /// above the key.
    fn square(&self) -> ((f64, f64), f64) {
        let (w, h) = self.size();
        let side = (f64::from(w) - 2.0 * MARGIN).min(f64::from(h - TITLE - KEY));
        (((f64::from(w) - side) / 2.0, f64::from(TITLE)), side)
    }

    /// Every position of the picture (see the module doc).
    pub fn layout(&self) -> Layout {
        let ((ox, oy), side) = self.square();
        let cell = side / self.size.max(1) as f64;
        let px = |p: (f64, f64)| ((ox + p.0 * cell).round(), (oy + p.1 * cell).round());
        let label_px = (cell * 0.28 * 1.24).round().clamp(10.0, 36.0) as u32;
        let labels = self
            .labels
            .iter()
            .enumerate()
            .map(|(c, l)| {
                let centre = px(self.centre(c));
                let at = text::ink_centred(l, f64::from(label_px), centre);
                let at = (at.0.round(), at.1.round());
                let centred = Pos::new(HPos::Center, VPos::Center);
                (at, text::ink_box(l, f64::from(label_px), at, centred))
            })
            .collect();
        // Step numbers as large as the widest fits in a corner, up to a label's size.
        let widest = self.path.len().saturating_sub(1).max(1).to_string();
        let room = (0.5 - LANE - 2.0 * INSET) * cell - 2.0;
        let step_px = (room / text::width(&widest, 1.0))
            .min(cell * 0.24 * 1.24)
            .floor()
            .clamp(8.0, f64::from(label_px)) as u32;
        let jumps = self
            .path
            .windows(2)
            .enumerate()
            .map(|(k, w)| self.jump(k, w, step_px, &px))
            .collect();
        Layout {
            origin: (ox, oy),
            cell,
            label_px,
            step_px,
            stroke: (cell * 0.035).round().clamp(2.0, 3.0) as u32,
            labels,
            jumps,
        }
    }

    /// The `k`-th jump, from `w[0]` to `w[1]`: its number goes in the top-left corner of
    /// the cell it leaves, or the top-right one when that cell was entered from above
    /// (whose arrowhead takes the top-left).
    fn jump(
        &self,
        k: usize,
        w: &[usize],
        step_px: u32,
        px: &dyn Fn((f64, f64)) -> (f64, f64),
    ) -> Jump {
        let (shaft, head) = arrow(self.centre(w[0]), self.centre(w[1]));
        let entered_from_above = k > 0 && {
            let (from, to) = (self.centre(self.path[k - 1]), self.centre(w[0]));
            (from.0 - to.0).abs() < 1e-9 && from.1 < to.1
        };
        let (col, row) = ((w[0] % self.size) as f64, (w[0] / self.size) as f64);
        let right = entered_from_above;
        let at = match right {
            false => px((col + INSET, row + INSET)),
            true => px((col + 1.0 - INSET, row + INSET)),
        };
        let pos = step_anchor(right);
        let number = (k + 1).to_string();
        Jump {
            shaft: shaft.into_iter().map(px).collect(),
            head: head.into_iter().map(px).collect(),
            number_box: text::ink_box(&number, f64::from(step_px), at, pos),
            number,
            at,
            right,
        }
    }

    fn fill(&self, c: usize) -> RGBColor {
        if self.shaded.contains(&c) {
            SHADE
        } else if self.start == Some(c) {
            start_tint()
        } else if self.goal == Some(c) {
            goal_tint()
        } else {
            WHITE
        }
    }

    /// The key under the board, its entries flowing onto a second row when the first
    /// is full.
    fn draw_key<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let mut entries: Vec<(Option<RGBColor>, &str)> =
            vec![(Some(start_tint()), "start"), (Some(goal_tint()), "goal")];
        if !self.shaded.is_empty() {
            entries.push((Some(SHADE), &self.shaded_means));
        }
        if self.path.len() > 1 {
            entries.push((
                None,
                "jumps of a shortest path (the number k in a cell's corner: jump k leaves it)",
            ));
        }
        let (w, h) = self.size();
        let (mut x, mut y) = (MARGIN as i32, (h - KEY) as i32 + 18);
        for (fill, words) in entries {
            let width = 28 + text::width(words, 14.0).ceil() as i32;
            if x + width > w as i32 - MARGIN as i32 && x > MARGIN as i32 {
                (x, y) = (MARGIN as i32, y + 24);
            }
            let mid = Pos::new(HPos::Left, VPos::Center);
            match fill {
                Some(c) => {
                    root.draw(&Rectangle::new([(x, y - 8), (x + 16, y + 8)], c.filled()))
                        .map_err(err)?;
                    root.draw(&Rectangle::new(
                        [(x, y - 8), (x + 16, y + 8)],
                        BLACK.stroke_width(1),
                    ))
                    .map_err(err)?;
                }
                None => {
                    root.draw(&PathElement::new(
                        vec![(x, y), (x + 12, y)],
                        ARROW.stroke_width(2),
                    ))
                    .map_err(err)?;
                    root.draw(&Polygon::new(
                        vec![(x + 18, y), (x + 11, y - 4), (x + 11, y + 4)],
                        ARROW.filled(),
                    ))
                    .map_err(err)?;
                }
            }
            root.draw(&Text::new(
                words.to_string(),
                (x + 22, y),
                style(14).pos(mid),
            ))
            .map_err(err)?;
            x += width + 18;
        }
        Ok(())
    }
}

/// How a step number is anchored: at its top-left corner, or its top-right one.
fn step_anchor(right: bool) -> Pos {
    let h = if right { HPos::Right } else { HPos::Left };
    Pos::new(h, VPos::Top)
}

/// A point in whole pixels, as the backends take it.
fn at(p: (f64, f64)) -> (i32, i32) {
    (p.0.round() as i32, p.1.round() as i32)
}

impl Figure for BoardPicture {
    fn size(&self) -> (u32, u32) {
        (SIDE, SIDE + TITLE + KEY - 2 * MARGIN as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let l = self.layout();
        let top = Pos::new(HPos::Center, VPos::Center);
        root.draw(&Text::new(
            self.title.clone(),
            ((SIDE / 2) as i32, (TITLE / 2) as i32),
            style(20).pos(top),
        ))
        .map_err(err)?;
        let n = self.size.max(1);
        for c in 0..n * n {
            let p0 = (
                l.origin.0 + (c % n) as f64 * l.cell,
                l.origin.1 + (c / n) as f64 * l.cell,
            );
            let p1 = (p0.0 + l.cell, p0.1 + l.cell);
            root.draw(&Rectangle::new([at(p0), at(p1)], self.fill(c).filled()))
                .map_err(err)?;
            root.draw(&Rectangle::new([at(p0), at(p1)], BLACK.stroke_width(1)))
                .map_err(err)?;
        }
        for j in &l.jumps {
            let shaft: Vec<(i32, i32)> = j.shaft.iter().copied().map(at).collect();
            root.draw(&PathElement::new(shaft, ARROW.stroke_width(l.stroke)))
                .map_err(err)?;
            let head: Vec<(i32, i32)> = j.head.iter().copied().map(at).collect();
            root.draw(&Polygon::new(head, ARROW.filled()))
                .map_err(err)?;
        }
        let centred = Pos::new(HPos::Center, VPos::Center);
        for (label, (p, _)) in self.labels.iter().zip(&l.labels) {
            root.draw(&Text::new(
                label.clone(),
                at(*p),
                style(l.label_px).pos(centred),
            ))
            .map_err(err)?;
        }
        for j in &l.jumps {
            let s = style(l.step_px).pos(step_anchor(j.right)).color(&ARROW);
            root.draw(&Text::new(j.number.clone(), at(j.at), s))
                .map_err(err)?;
        }
        self.draw_key(root)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_run_between_centres_and_stop_short_of_the_label() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        let (shaft, head) = arrow((0.5, 0.5), (2.5, 0.5));
        assert!(close(shaft[0].0, 0.7) && close(shaft[0].1, 0.5 + LANE));
        assert!(
            close(head[0].0, 2.5 - SHORT),
            "the tip stops before the centre"
        );
        assert!(close(shaft[1].0, head[1].0), "the shaft ends at the head");
        let (back, _) = arrow((2.5, 0.5), (0.5, 0.5));
        assert!(
            close(back[0].1, 0.5 - LANE),
            "the way back runs on the other side"
        );
        let (_, down) = arrow((0.5, 0.5), (0.5, 1.5));
        assert!(close(down[0].1, 1.5 - SHORT) && close(down[0].0, 0.5 - LANE));
    }

    /// A 10×10 board whose path snakes through every cell, row by row: every cell but
    /// the goal is left, entered from the side or from above, and the numbers reach 99.
    fn snake() -> BoardPicture {
        let n = 10;
        let mut path = Vec::new();
        for r in 0..n {
            for c in 0..n {
                path.push(r * n + if r % 2 == 0 { c } else { n - 1 - c });
            }
        }
        BoardPicture {
            size: n,
            labels: (0..n * n).map(|c| ((c * 7) % 9 + 1).to_string()).collect(),
            path,
            start: Some(0),
            goal: Some(n * n - 1),
            ..BoardPicture::default()
        }
    }

    #[test]
    fn at_ten_by_ten_no_step_number_covers_a_label_an_arrow_or_another_number() {
        let pic = snake();
        let l = pic.layout();
        assert_eq!(l.jumps.len(), 99);
        assert!(l.collisions().is_empty(), "{:#?}", l.collisions());
        // Long jumps in every direction over one row and one column, entered from above,
        // below, the left and the right.
        let cross = BoardPicture {
            path: vec![0, 90, 99, 9, 5, 95, 91, 1],
            ..snake()
        };
        let l = cross.layout();
        assert!(l.collisions().is_empty(), "{:#?}", l.collisions());
        // The step numbers are readable: at least 8 px of em in a 620 px figure.
        assert!(text::em(f64::from(l.step_px)) >= 8.0, "{}", l.step_px);
        assert!(l.label_px > l.step_px);
        // The check sees a collision when there is one.
        let mut bad = l.clone();
        bad.jumps[0].number_box = bad.labels[0].1;
        assert!(!bad.collisions().is_empty());
    }
}
