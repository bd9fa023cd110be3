//! Lines of text: styled spans cut into words (a word may change style, as in
//! `**bold**,`, and is never broken inside) and set greedily into lines of a width.

use super::fonts::{Fonts, Style};
use super::parse::Span;

/// A piece of a word in one style.
#[derive(Clone, Debug)]
pub struct Piece {
    pub text: String,
    pub style: Style,
    pub link: Option<String>,
    pub width: f32,
}

/// A word: its pieces, whether a space comes before it, its width.
#[derive(Clone, Debug)]
pub struct Word {
    pub pieces: Vec<Piece>,
    pub space: bool,
    pub width: f32,
}

/// A set line: its words and its width.
#[derive(Clone, Debug, Default)]
pub struct Line {
    pub words: Vec<Word>,
    pub width: f32,
}

/// The words of `spans` at `size` points.
pub fn words(fonts: &Fonts, spans: &[Span], size: f32) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::new();
    let mut space = false;
    for s in spans {
        for (i, part) in s.text.split(' ').enumerate() {
            if i > 0 {
                space = true;
            }
            if part.is_empty() {
                continue;
            }
            let piece = Piece {
                text: part.to_string(),
                style: s.style,
                link: s.link.clone(),
                width: fonts.width(s.style, part, size),
            };
            match words.last_mut() {
                Some(w) if !space => {
                    w.width += piece.width;
                    w.pieces.push(piece);
                }
                _ => words.push(Word {
                    width: piece.width,
                    pieces: vec![piece],
                    space: space && !words.is_empty(),
                }),
            }
            space = false;
        }
    }
    words
}

/// The width of a space at `size`.
pub fn space(fonts: &Fonts, size: f32) -> f32 {
    fonts.width(Style::Regular, " ", size)
}

/// `words` set into lines no wider than `width` (a word wider than a line gets a line
/// of its own, cut between characters).
pub fn lines(fonts: &Fonts, words: &[Word], width: f32, size: f32) -> Vec<Line> {
    let gap = space(fonts, size);
    let mut lines = vec![Line::default()];
    for w in words {
        let line = lines.last_mut().expect("one line at least");
        let add = if line.words.is_empty() { 0.0 } else { gap };
        if line.width + add + w.width <= width + 0.01 {
            line.width += add + w.width;
            line.words.push(w.clone());
            continue;
        }
        for part in cut(fonts, w, width, size) {
            if !lines.last().is_some_and(|l| l.words.is_empty()) {
                lines.push(Line::default());
            }
            let line = lines.last_mut().expect("a line");
            line.width = part.width;
            line.words.push(part);
        }
    }
    lines.retain(|l| !l.words.is_empty());
    lines
}

/// A word cut into parts no wider than `width` (one part if it fits).
fn cut(fonts: &Fonts, w: &Word, width: f32, size: f32) -> Vec<Word> {
    if w.width <= width {
        return vec![w.clone()];
    }
    let mut parts = vec![Word {
        pieces: Vec::new(),
        space: w.space,
        width: 0.0,
    }];
    for p in &w.pieces {
        for c in p.text.chars() {
            let cw = fonts.width(p.style, c.encode_utf8(&mut [0; 4]), size);
            if parts
                .last()
                .is_some_and(|l| l.width + cw > width && l.width > 0.0)
            {
                parts.push(Word {
                    pieces: Vec::new(),
                    space: false,
                    width: 0.0,
                });
            }
            let part = parts.last_mut().expect("a part");
            match part.pieces.last_mut() {
                Some(last) if last.style == p.style && last.link == p.link => {
                    last.text.push(c);
                    last.width += cw;
                }
                _ => part.pieces.push(Piece {
                    text: c.to_string(),
                    style: p.style,
                    link: p.link.clone(),
                    width: cw,
                }),
            }
            part.width += cw;
        }
    }
    parts
}

/// The widest word of `words` (the narrowest a column of them can be).
pub fn widest(words: &[Word]) -> f32 {
    words.iter().map(|w| w.width).fold(0.0, f32::max)
}

/// The width of `words` on one line.
pub fn natural(fonts: &Fonts, words: &[Word], size: f32) -> f32 {
    let gaps = words.len().saturating_sub(1) as f32 * space(fonts, size);
    words.iter().map(|w| w.width).sum::<f32>() + gaps
}

/// The line height of text at `size`.
pub fn leading(size: f32) -> f32 {
    size * 1.36
}
