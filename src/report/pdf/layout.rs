//! The report's blocks set onto pages: headings kept with what follows (a study's
//! heading opening a page in the full report), paragraphs broken into lines, contents
//! lines with their page numbers, tables with numbers right-aligned (a row never split,
//! the header repeated on a new page) and numbered captions above them, and figures at
//! the text width with their numbered captions below. The result is a list of drawing
//! operations per page, in PDF coordinates (points, origin at the bottom left).

use super::fonts::{Fonts, Style};
use super::parse::{Block, Span, Spans};
use super::text::{self, Line, Word};
use std::collections::BTreeMap;

/// How a document is set: the page, its margins and the body's type size.
pub struct Setting {
    /// Width and height in points.
    pub page: (f32, f32),
    pub margin: f32,
    pub top: f32,
    pub bottom: f32,
    /// The body text's size in points.
    pub body: f32,
    /// Whether a study (a section with questions) opens a new page.
    pub study_pages: bool,
    /// The tallest a figure is set, as a share of the text height (figures are set at
    /// the size they were drawn for, at most the text width).
    pub figure_height: f32,
}

/// A4 in points.
pub const A4: (f32, f32) = (595.28, 841.89);

impl Setting {
    /// The full report: 10 pt text, a page per study.
    pub fn report() -> Setting {
        Setting {
            page: A4,
            margin: 62.0,
            top: 56.0,
            bottom: 56.0,
            body: 9.5,
            study_pages: true,
            figure_height: 0.42,
        }
    }

    /// A short report (at most a few pages): tighter margins, figures at most 30% of
    /// the text height (its study declares their printed size).
    pub fn summary() -> Setting {
        Setting {
            page: A4,
            margin: 50.0,
            top: 42.0,
            bottom: 44.0,
            body: 8.8,
            study_pages: false,
            figure_height: 0.3,
        }
    }
}

/// A drawing operation on a page.
#[derive(Debug)]
pub enum Op {
    Text {
        x: f32,
        y: f32,
        size: f32,
        style: Style,
        text: String,
    },
    /// A horizontal rule from `x` over `w`, `weight` thick.
    Rule { x: f32, y: f32, w: f32, weight: f32 },
    /// The `index`th figure with its lower left corner at (`x`, `y`).
    Figure {
        index: usize,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
    },
    /// The page number of an anchor, right-aligned at `x`.
    PageOf {
        anchor: String,
        x: f32,
        y: f32,
        size: f32,
    },
}

/// Where a link goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Anchor(String),
    Uri(String),
}

#[derive(Default, Debug)]
pub struct Page {
    pub ops: Vec<Op>,
    /// Link areas `[x0, y0, x1, y1]` and their targets.
    pub links: Vec<([f32; 4], Target)>,
}

/// The pages, where each anchor is (page index, top), and the headings for bookmarks.
pub struct Laid {
    pub pages: Vec<Page>,
    pub anchors: BTreeMap<String, (usize, f32)>,
    pub outline: Vec<(usize, String, String)>,
}

/// Sets `blocks` on pages; `sizes` are the figures' sizes in the order they appear.
pub fn lay_out(fonts: &Fonts, blocks: &[Block], sizes: &[(f32, f32)], s: &Setting) -> Laid {
    let mut l = Layout {
        fonts,
        s,
        sizes,
        pages: vec![Page::default()],
        y: s.page.1 - s.top,
        anchors: BTreeMap::new(),
        outline: Vec::new(),
        figures: 0,
        tables: 0,
        sections: 0,
    };
    let mut i = 0;
    while i < blocks.len() {
        let caption = match blocks.get(i + 1) {
            Some(Block::Caption(c)) => Some(c),
            _ => None,
        };
        match &blocks[i] {
            Block::Heading {
                level,
                spans,
                anchor,
            } => l.heading(*level, spans, anchor, opens_study(blocks, i)),
            Block::Para(spans) => l.paragraph(spans, 0.0, Style::Regular),
            Block::Caption(spans) => l.paragraph(spans, 0.0, Style::Italic),
            Block::Item { depth, spans } => l.item(*depth, spans),
            Block::Figure { .. } => l.figure(caption),
            Block::Table { head, rows } => l.table(head, rows, caption),
        }
        let consumed = matches!(blocks[i], Block::Figure { .. } | Block::Table { .. });
        i += if consumed && caption.is_some() { 2 } else { 1 };
    }
    Laid {
        pages: l.pages,
        anchors: l.anchors,
        outline: l.outline,
    }
}

/// Whether the level-2 heading at `i` opens a study: a section holding questions.
fn opens_study(blocks: &[Block], i: usize) -> bool {
    blocks[i + 1..]
        .iter()
        .take_while(|b| !matches!(b, Block::Heading { level: ..=2, .. }))
        .any(|b| matches!(b, Block::Heading { level: 3, .. }))
}

struct Layout<'a> {
    fonts: &'a Fonts,
    s: &'a Setting,
    sizes: &'a [(f32, f32)],
    pages: Vec<Page>,
    /// The top of what comes next.
    y: f32,
    anchors: BTreeMap<String, (usize, f32)>,
    outline: Vec<(usize, String, String)>,
    figures: usize,
    tables: usize,
    sections: usize,
}

impl Layout<'_> {
    fn width(&self) -> f32 {
        self.s.page.0 - 2.0 * self.s.margin
    }

    fn top(&self) -> f32 {
        self.s.page.1 - self.s.top
    }

    fn room(&self) -> f32 {
        self.y - self.s.bottom
    }

    fn at_top(&self) -> bool {
        self.y >= self.top() - 0.01
    }

    fn new_page(&mut self) {
        self.pages.push(Page::default());
        self.y = self.top();
    }

    /// A new page unless `height` fits on this one (or this one is empty).
    fn ensure(&mut self, height: f32) {
        if height > self.room() && !self.at_top() {
            self.new_page();
        }
    }

    /// Space before a block, unless it starts a page.
    fn gap(&mut self, g: f32) {
        if !self.at_top() {
            self.y -= g;
        }
    }

    fn page(&mut self) -> &mut Page {
        self.pages.last_mut().expect("a page")
    }

    fn leading(size: f32) -> f32 {
        text::leading(size)
    }

    fn heading(&mut self, level: usize, spans: &Spans, anchor: &str, study: bool) {
        let size = self.s.body
            * match level {
                1 => 1.9,
                2 => 1.45,
                3 => 1.15,
                _ => 1.0,
            };
        if level == 2 {
            self.sections += 1;
            if study && self.s.study_pages && self.sections > 1 && !self.at_top() {
                self.new_page();
            }
        }
        let bold: Spans = spans.iter().map(|s| restyle(s, Style::Bold)).collect();
        let words = text::words(self.fonts, &bold, size);
        let lines = text::lines(self.fonts, &words, self.width(), size);
        let height = lines.len() as f32 * Self::leading(size);
        self.gap(size * if level <= 2 { 1.1 } else { 0.9 });
        // Kept with the first lines of what follows.
        self.ensure(height + 4.0 * Self::leading(self.s.body));
        self.anchors
            .insert(anchor.to_string(), (self.pages.len() - 1, self.y + size));
        let title: String = spans.iter().map(|s| s.text.as_str()).collect();
        self.outline.push((level, title, anchor.to_string()));
        self.lines(&lines, self.s.margin, size, None);
        self.y -= size * 0.35;
    }

    /// A paragraph at an indent, its plain text in `base`.
    fn paragraph(&mut self, spans: &Spans, indent: f32, base: Style) {
        self.gap(self.s.body * 0.55);
        self.set(spans, indent, base);
    }

    /// Text from the cursor down at an indent, its plain text in `base` (smaller when
    /// italic: captions).
    fn set(&mut self, spans: &Spans, indent: f32, base: Style) {
        let spans: Spans = match base {
            Style::Regular => spans.clone(),
            _ => spans.iter().map(|s| restyle(s, base)).collect(),
        };
        let size = if base == Style::Italic {
            self.s.body * 0.9
        } else {
            self.s.body
        };
        let words = text::words(self.fonts, &spans, size);
        let lines = text::lines(self.fonts, &words, self.width() - indent, size);
        self.lines(&lines, self.s.margin + indent, size, None);
    }

    /// Lines from the cursor down, each at `x` (or right-aligned in a box of the
    /// given width), breaking the page where needed.
    fn lines(&mut self, lines: &[Line], x: f32, size: f32, right: Option<f32>) {
        let lead = Self::leading(size);
        for line in lines {
            self.ensure(lead);
            let base = self.y - size;
            let at = right.map_or(x, |w| x + w - line.width);
            self.draw_line(line, at, base, size);
            self.y -= lead;
        }
    }

    /// One line's words from `x` on the baseline `y`, with their links.
    fn draw_line(&mut self, line: &Line, mut x: f32, y: f32, size: f32) {
        let gap = text::space(self.fonts, size);
        for (i, w) in line.words.iter().enumerate() {
            if i > 0 {
                x += gap;
            }
            self.draw_word(w, x, y, size);
            x += w.width;
        }
    }

    fn draw_word(&mut self, w: &Word, mut x: f32, y: f32, size: f32) {
        for p in &w.pieces {
            let target = p.link.as_deref().and_then(target);
            let page = self.page();
            if let Some(t) = target {
                page.links
                    .push(([x, y - 0.25 * size, x + p.width, y + 0.85 * size], t));
            }
            page.ops.push(Op::Text {
                x,
                y,
                size,
                style: p.style,
                text: p.text.clone(),
            });
            x += p.width;
        }
    }

    /// A list item; one that is wholly a link inside the report is a contents line,
    /// with its page number.
    fn item(&mut self, depth: usize, spans: &Spans) {
        let link = spans.first().and_then(|s| s.link.clone());
        let whole = link.as_deref().is_some_and(|l| l.starts_with('#'))
            && spans.iter().all(|s| s.link == link);
        let indent = 14.0 * depth as f32;
        if !whole {
            let size = self.s.body;
            self.gap(size * 0.2);
            self.ensure(Self::leading(size));
            let bullet = Line {
                width: 0.0,
                words: text::words(self.fonts, &[plain("•")], size),
            };
            let base = self.y - size;
            self.draw_line(&bullet, self.s.margin + indent - 9.0, base, size);
            self.set(spans, indent, Style::Regular);
            return;
        }
        self.contents_line(depth, spans, link.unwrap_or_default());
    }

    fn contents_line(&mut self, depth: usize, spans: &Spans, link: String) {
        let size = self.s.body;
        let style = if depth == 1 {
            Style::Bold
        } else {
            Style::Regular
        };
        let spans: Spans = spans.iter().map(|s| restyle(s, style)).collect();
        let indent = 14.0 * (depth as f32 - 1.0);
        let number = 28.0;
        let words = text::words(self.fonts, &spans, size);
        let lines = text::lines(self.fonts, &words, self.width() - indent - number, size);
        self.gap(if depth == 1 { size * 0.5 } else { size * 0.1 });
        self.ensure(lines.len() as f32 * Self::leading(size));
        let top = self.y;
        self.lines(&lines, self.s.margin + indent, size, None);
        let right = self.s.margin + self.width();
        let base = self.y + Self::leading(size) - size;
        let anchor = link.trim_start_matches('#').to_string();
        let bottom = self.y;
        let page = self.page();
        page.ops.push(Op::PageOf {
            anchor: anchor.clone(),
            x: right,
            y: base,
            size,
        });
        page.links
            .push(([right - 300.0, bottom, right, top], Target::Anchor(anchor)));
    }

    /// A numbered caption's lines at `size`: `Figure 3.` or `Table 2.` then its text.
    fn caption_lines(&self, label: &str, caption: Option<&Spans>, width: f32) -> Vec<Line> {
        let size = self.s.body * 0.88;
        let mut spans = vec![Span {
            text: format!("{label} "),
            style: Style::Bold,
            link: None,
        }];
        spans.extend(
            caption
                .into_iter()
                .flatten()
                .map(|s| restyle(s, Style::Regular)),
        );
        let words = text::words(self.fonts, &spans, size);
        text::lines(self.fonts, &words, width, size)
    }

    fn figure(&mut self, caption: Option<&Spans>) {
        let index = self.figures;
        self.figures += 1;
        let (w0, h0) = self.sizes.get(index).copied().unwrap_or((1.0, 1.0));
        let size = self.s.body * 0.88;
        // At the size it was drawn for, at most the text width.
        let mut w = self.width().min(w0.max(1.0));
        let lines = self.caption_lines(&format!("Figure {}.", index + 1), caption, self.width());
        let text_h = lines.len() as f32 * Self::leading(size) + 4.0;
        let full = (self.top() - self.s.bottom) * self.s.figure_height;
        if w * h0 / w0 > full {
            w = full * w0 / h0;
        }
        let mut h = w * h0 / w0;
        self.gap(self.s.body * 0.8);
        // A figure may shrink by a fifth rather than leave most of a page empty.
        if h + text_h > self.room() && (h * 0.8 + text_h) <= self.room() {
            h = self.room() - text_h;
            w = h * w0 / h0;
        }
        self.ensure(h + text_h);
        let x = self.s.margin + (self.width() - w) / 2.0;
        self.y -= h;
        let y = self.y;
        self.page().ops.push(Op::Figure { index, x, y, w, h });
        self.y -= 4.0;
        self.lines(&lines, self.s.margin, size, None);
    }

    /// A table under its numbered caption (see `super::table` for its columns).
    fn table(&mut self, head: &[Spans], rows: &[Vec<Spans>], caption: Option<&Spans>) {
        self.tables += 1;
        let t = super::table::Table::set(self.fonts, head, rows, self.width(), self.s.body);
        let lines = self.caption_lines(&format!("Table {}.", self.tables), caption, self.width());
        let cap = lines.len() as f32 * Self::leading(self.s.body * 0.88);
        self.gap(self.s.body * 0.8);
        self.ensure(cap + 3.0 + t.head_height() + t.row_height(0).unwrap_or(0.0));
        self.lines(&lines, self.s.margin, self.s.body * 0.88, None);
        self.y -= 3.0;
        self.table_rows(&t);
    }

    fn table_rows(&mut self, t: &super::table::Table) {
        let x = self.s.margin;
        let heavy = 0.8;
        self.rule(x, t.width(), heavy);
        self.table_head(t);
        for r in 0..t.rows() {
            let h = t.row_height(r).unwrap_or(0.0);
            if h > self.room() && !self.at_top() {
                self.rule(x, t.width(), heavy);
                self.new_page();
                self.rule(x, t.width(), heavy);
                self.table_head(t);
            }
            let (cells, next) = t.row_cells(r, x, self.y);
            self.cells(&cells);
            self.y = next;
        }
        self.rule(x, t.width(), heavy);
    }

    /// A table's header and the rule under it.
    fn table_head(&mut self, t: &super::table::Table) {
        let (cells, next) = t.head_cells(self.s.margin, self.y);
        self.cells(&cells);
        self.y = next;
        self.rule(self.s.margin, t.width(), 0.4);
    }

    fn rule(&mut self, x: f32, w: f32, weight: f32) {
        let y = self.y;
        self.page().ops.push(Op::Rule { x, y, w, weight });
    }

    /// Draws placed cells' lines.
    fn cells(&mut self, cells: &[super::table::Cell]) {
        for c in cells {
            let lead = Self::leading(c.size);
            for (i, line) in c.lines.iter().enumerate() {
                let at = c.right.map_or(c.x, |w| c.x + w - line.width);
                self.draw_line(line, at, c.top - c.size - i as f32 * lead, c.size);
            }
        }
    }
}

/// A link's target on paper: a place in the report or a web address; a relative link
/// (a file beside the report) is only text on paper.
fn target(link: &str) -> Option<Target> {
    if let Some(anchor) = link.strip_prefix('#') {
        return Some(Target::Anchor(anchor.to_string()));
    }
    let web = ["http://", "https://", "mailto:"];
    web.iter()
        .any(|p| link.starts_with(p))
        .then(|| Target::Uri(link.to_string()))
}

fn restyle(s: &Span, base: Style) -> Span {
    let style = match (s.style, base) {
        (Style::Mono, _) | (Style::Bold, _) => s.style,
        (_, b) => b,
    };
    Span { style, ..s.clone() }
}

fn plain(text: &str) -> Span {
    Span {
        text: text.to_string(),
        style: Style::Regular,
        link: None,
    }
}
