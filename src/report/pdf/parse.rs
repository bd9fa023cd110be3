//! The report's markdown read into the blocks the PDF lays out: headings (with the
//! anchors the HTML page gives them), paragraphs and list items of styled spans, tables,
//! figures and their captions. The markdown is made safe first exactly as for the HTML
//! page ([`super::super::html::sanitize`]), so both show the same text and links.

use super::fonts::Style;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// A run of text in one style, perhaps a link (`#anchor` inside the report).
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub text: String,
    pub style: Style,
    pub link: Option<String>,
}

/// A cell's or a paragraph's text.
pub type Spans = Vec<Span>;

#[derive(Debug, PartialEq)]
pub enum Block {
    Heading {
        level: usize,
        spans: Spans,
        anchor: String,
    },
    Para(Spans),
    Item {
        depth: usize,
        spans: Spans,
    },
    Table {
        head: Vec<Spans>,
        rows: Vec<Vec<Spans>>,
    },
    /// A report figure, `figures/STUDY/NAME.png` in the markdown.
    Figure {
        study: String,
        name: String,
    },
    /// The caption of the figure or table just before it (its emphasised text).
    Caption(Spans),
}

/// The blocks of a report's markdown.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let events =
        super::super::html::sanitize(Parser::new_ext(markdown, Options::ENABLE_TABLES).collect());
    let mut r = Reader::default();
    for e in events {
        r.event(e);
    }
    r.blocks
}

/// A table being read: its head, its rows, and the row being read.
type Reading = (Vec<Spans>, Vec<Vec<Spans>>, Vec<Spans>);

#[derive(Default)]
struct Reader {
    blocks: Vec<Block>,
    spans: Spans,
    strong: usize,
    emphasis: usize,
    link: Option<String>,
    depth: usize,
    heading: Option<usize>,
    /// Inside a table: its head, rows and the row being read.
    table: Option<Reading>,
    in_image: bool,
}

impl Reader {
    fn event(&mut self, e: Event) {
        match e {
            Event::Text(t) if !self.in_image => self.text(&t, None),
            Event::Code(t) => self.text(&t, Some(Style::Mono)),
            Event::SoftBreak | Event::HardBreak => self.text(" ", None),
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            _ => {}
        }
    }

    fn text(&mut self, text: &str, style: Option<Style>) {
        let style = style.unwrap_or(match (self.strong, self.emphasis) {
            (0, 0) => Style::Regular,
            (0, _) => Style::Italic,
            _ => Style::Bold,
        });
        let link = self.link.clone();
        match self.spans.last_mut() {
            Some(last) if last.style == style && last.link == link => last.text.push_str(text),
            _ => self.spans.push(Span {
                text: text.to_string(),
                style,
                link,
            }),
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Heading { level, .. } => self.heading = Some(level as usize),
            Tag::Strong => self.strong += 1,
            Tag::Emphasis => self.emphasis += 1,
            Tag::Link { dest_url, .. } => self.link = Some(dest_url.to_string()),
            Tag::List(_) => {
                self.flush_item();
                self.depth += 1;
            }
            Tag::Item => self.flush_item(),
            Tag::Table(_) => self.table = Some((Vec::new(), Vec::new(), Vec::new())),
            Tag::Image { dest_url, .. } => {
                self.in_image = true;
                if let Some((study, name)) = super::super::html::figure_name(&dest_url) {
                    self.blocks.push(Block::Figure {
                        study: study.into(),
                        name: name.into(),
                    });
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) => {
                let spans = std::mem::take(&mut self.spans);
                let text: String = spans.iter().map(|s| s.text.as_str()).collect();
                self.blocks.push(Block::Heading {
                    level: self.heading.take().unwrap_or(2),
                    anchor: crate::present::format::anchor(&text),
                    spans,
                });
            }
            TagEnd::Strong => self.strong = self.strong.saturating_sub(1),
            TagEnd::Emphasis => self.emphasis = self.emphasis.saturating_sub(1),
            TagEnd::Link => self.link = None,
            TagEnd::Image => self.in_image = false,
            TagEnd::Paragraph => self.paragraph(),
            TagEnd::Item => self.flush_item(),
            TagEnd::List(_) => self.depth = self.depth.saturating_sub(1),
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.spans);
                if let Some((_, _, row)) = &mut self.table {
                    row.push(cell);
                }
            }
            TagEnd::TableHead | TagEnd::TableRow => {
                if let Some((head, rows, row)) = &mut self.table {
                    let row = std::mem::take(row);
                    match head.is_empty() {
                        true => *head = row,
                        false => rows.push(row),
                    }
                }
            }
            TagEnd::Table => {
                if let Some((head, rows, _)) = self.table.take() {
                    self.blocks.push(Block::Table { head, rows });
                }
            }
            _ => {}
        }
    }

    fn flush_item(&mut self) {
        if self.depth > 0 && !self.spans.is_empty() {
            let spans = std::mem::take(&mut self.spans);
            self.blocks.push(Block::Item {
                depth: self.depth,
                spans,
            });
        }
    }

    /// A paragraph; after a figure or a table, an emphasised one is its caption (the
    /// figure's `Figure:` and its file links dropped: the PDF holds the figure).
    fn paragraph(&mut self) {
        let spans = std::mem::take(&mut self.spans);
        if self.depth > 0 {
            self.spans = spans;
            return;
        }
        if spans.iter().all(|s| s.text.trim().is_empty()) {
            return;
        }
        let after = matches!(
            self.blocks.last(),
            Some(Block::Figure { .. } | Block::Table { .. })
        );
        if after && spans[0].style == Style::Italic {
            let mut caption: Spans = spans
                .into_iter()
                .take_while(|s| s.style == Style::Italic)
                .collect();
            if let Some(first) = caption.first_mut()
                && let Some(rest) = first.text.strip_prefix("Figure: ")
            {
                first.text = rest.to_string();
            }
            self.blocks.push(Block::Caption(caption));
            return;
        }
        self.blocks.push(Block::Para(spans));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> Span {
        Span {
            text: s.into(),
            style: Style::Regular,
            link: None,
        }
    }

    #[test]
    fn headings_paragraphs_tables_figures_and_captions() {
        let md = "## A & b\n\n- [Q one](#q-one)\n  - [sub](#sub)\n\nSome **bold** `x`.\n\n![c](figures/s/f.png)\n\n*Figure: the caption* ([SVG](figures/s/f.svg), [PDF](figures/s/f.pdf))\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n*what the table shows*\n";
        let b = blocks(md);
        assert_eq!(
            b[0],
            Block::Heading {
                level: 2,
                spans: vec![plain("A & b")],
                anchor: "a--b".into()
            }
        );
        assert!(
            matches!(&b[1], Block::Item { depth: 1, spans } if spans[0].link.as_deref() == Some("#q-one"))
        );
        assert!(matches!(&b[2], Block::Item { depth: 2, .. }));
        let Block::Para(p) = &b[3] else {
            panic!("{b:?}")
        };
        assert_eq!(p[1].style, Style::Bold);
        assert_eq!(p[3].style, Style::Mono);
        assert_eq!(
            b[4],
            Block::Figure {
                study: "s".into(),
                name: "f".into()
            }
        );
        let Block::Caption(c) = &b[5] else {
            panic!("{b:?}")
        };
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].text, "the caption");
        let Block::Table { head, rows } = &b[6] else {
            panic!("{b:?}")
        };
        assert_eq!(
            (head.len(), rows.len(), rows[0][1][0].text.as_str()),
            (2, 1, "2")
        );
        assert!(matches!(&b[7], Block::Caption(c) if c[0].text == "what the table shows"));
        assert_eq!(b.len(), 8);
    }
}
