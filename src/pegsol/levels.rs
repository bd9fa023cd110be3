//! The nine levels of the seed (embedded, so searchlab runs anywhere) and the parser for
//! board files in the same format: rows of `o` (peg), `.` (empty hole), `-` (no hole).
//!
//! Bad input — ragged rows, an unknown character, too many rows or columns, no pegs, an
//! unknown level — is a [`crate::util::error::UserError`] whose one line says what and where.

use std::path::Path;

use super::board::{Board, SIZE, Shape, cell};

/// The embedded levels file (a copy of the assignment's nine boards).
pub const LEVELS_TEXT: &str = include_str!("levels.txt");

/// Number of embedded levels.
pub const LEVEL_COUNT: usize = 9;

/// A puzzle: a board shape and its starting position.
#[derive(Debug, Clone)]
pub struct Puzzle {
    pub name: String,
    pub shape: Shape,
    pub start: Board,
}

impl Puzzle {
    pub fn initial_pegs(&self) -> u32 {
        self.start.pegs()
    }
}

/// Parses one board: `lines` are (line number, text) pairs; `origin` names the source in
/// error messages ("board.txt" or "level 3").
fn parse_rows(lines: &[(usize, &str)], origin: &str) -> anyhow::Result<(Shape, Board)> {
    if lines.is_empty() {
        crate::user_bail!("{origin}: no board rows found (expected rows of o, . and -)");
    }
    if lines.len() > SIZE {
        crate::user_bail!(
            "{origin}: line {}: the board has {} rows, more than {SIZE}",
            lines[SIZE].0,
            lines.len()
        );
    }
    let width = lines[0].1.chars().count();
    let (mut holes, mut pegs) = (0u128, 0u128);
    for (y, &(line_no, text)) in lines.iter().enumerate() {
        let n = text.chars().count();
        if n != width {
            crate::user_bail!(
                "{origin}: line {line_no}: row has {n} columns but the first row has {width} (rows must all be the same length)"
            );
        }
        if n > SIZE {
            crate::user_bail!("{origin}: line {line_no}: row has {n} columns, more than {SIZE}");
        }
        for (x, ch) in text.chars().enumerate() {
            let bit = 1u128 << cell(x, y);
            match ch {
                'o' => {
                    holes |= bit;
                    pegs |= bit;
                }
                '.' => holes |= bit,
                '-' => {}
                other => crate::user_bail!(
                    "{origin}: line {line_no}, column {}: unknown character {other:?} (expected o for a peg, . for an empty hole, - for no hole)",
                    x + 1
                ),
            }
        }
    }
    if pegs == 0 {
        crate::user_bail!("{origin}: the board has no pegs");
    }
    Ok((Shape::new(holes), Board(pegs)))
}

/// The board rows of a text: every line that is not blank and not a `#` comment,
/// with trailing whitespace (and `\r`) removed.
fn board_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Parses a board from text (the contents of a board file named `origin`): rows of
/// `o`, `.` and `-`, or the board as `pegsol levels` prints it (each hole three
/// characters wide, ` o ` or ` . `, spaces where there is no hole, an optional
/// `level N: …` line first), so that a printed board reads back.
pub fn parse_board(text: &str, origin: &str) -> anyhow::Result<Puzzle> {
    let mut lines = board_lines(text);
    if lines.first().is_some_and(|(_, l)| l.starts_with("level ")) {
        lines.remove(0);
    }
    if let Some(&(n, _)) = lines.iter().find(|(_, l)| l.starts_with("level ")) {
        crate::user_bail!("{origin}: line {n}: a second board (a file holds one board)");
    }
    let spaced: Vec<(usize, String)>;
    if lines.iter().any(|(_, l)| l.contains(' ')) {
        spaced = lines
            .iter()
            .map(|&(n, l)| unspace(l, n, origin).map(|row| (n, row)))
            .collect::<anyhow::Result<_>>()?;
        let width = spaced.iter().map(|(_, r)| r.len()).max().unwrap_or(0);
        lines = spaced.iter().map(|(n, r)| (*n, r.as_str())).collect();
        // Rows were trimmed on the right: pad them with "no hole".
        let padded: Vec<(usize, String)> = lines
            .iter()
            .map(|&(n, r)| (n, format!("{r:-<width$}")))
            .collect();
        let rows: Vec<(usize, &str)> = padded.iter().map(|(n, r)| (*n, r.as_str())).collect();
        let (shape, start) = parse_rows(&rows, origin)?;
        return Ok(Puzzle {
            name: origin.to_string(),
            shape,
            start,
        });
    }
    let (shape, start) = parse_rows(&lines, origin)?;
    Ok(Puzzle {
        name: origin.to_string(),
        shape,
        start,
    })
}

/// One row in the printed format (` o  .    o`) as a compact row (`o.-o`).
fn unspace(line: &str, line_no: usize, origin: &str) -> anyhow::Result<String> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() > 3 * SIZE {
        crate::user_bail!(
            "{origin}: line {line_no}: row has more than {SIZE} holes' width ({} characters)",
            chars.len()
        );
    }
    let mut row = String::new();
    for (x, cell) in chars.chunks(3).enumerate() {
        let c = |i: usize| cell.get(i).copied().unwrap_or(' ');
        if c(0) != ' ' || c(2) != ' ' {
            crate::user_bail!(
                "{origin}: line {line_no}, column {}: in a spaced board each hole is \" o \" or \" . \" (three characters), and a missing hole is three spaces",
                3 * x + 1
            );
        }
        row.push(match c(1) {
            ' ' => '-',
            other => other,
        });
    }
    Ok(row)
}

/// Reads and parses a board file.
pub fn load_board_file(path: &Path) -> anyhow::Result<Puzzle> {
    let text = crate::util::input::read_file(path, "board file")?;
    parse_board(&text, &path.display().to_string())
}

/// The embedded level `level` (0..=8).
pub fn level(level: i64) -> anyhow::Result<Puzzle> {
    if !(0..LEVEL_COUNT as i64).contains(&level) {
        crate::user_bail!(
            "unknown level {level} (levels are 0 to {})",
            LEVEL_COUNT - 1
        );
    }
    let header = format!("level {level}");
    let mut rows = Vec::new();
    let mut inside = false;
    for (i, line) in LEVELS_TEXT.lines().enumerate() {
        let t = line.trim_end();
        if t.starts_with("level ") {
            if inside {
                break;
            }
            inside = t.split('#').next().unwrap_or("").trim() == header;
            continue;
        }
        if inside && !t.is_empty() && !t.starts_with('#') {
            rows.push((i + 1, t));
        }
    }
    let (shape, start) = parse_rows(&rows, &format!("embedded levels.txt ({header})"))?;
    Ok(Puzzle {
        name: header,
        shape,
        start,
    })
}

/// A puzzle from `--level` or `--board` (exactly one of them).
pub fn from_choice(level_arg: Option<i64>, board: Option<&Path>) -> anyhow::Result<Puzzle> {
    match (level_arg, board) {
        (Some(l), None) => level(l),
        (None, Some(p)) => load_board_file(p),
        (Some(_), Some(_)) => crate::user_bail!("give either --level or --board, not both"),
        (None, None) => crate::user_bail!("give a board: --level 0..8 or --board FILE"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::error::{exit_code, one_line};

    #[test]
    fn levels_have_the_documented_peg_counts() {
        let pegs: Vec<u32> = (0..9).map(|l| level(l).unwrap().initial_pegs()).collect();
        assert_eq!(pegs, vec![3, 4, 7, 17, 32, 36, 44, 38, 40]);
        let holes: Vec<u32> = (0..9)
            .map(|l| level(l).unwrap().shape.hole_count())
            .collect();
        assert_eq!(&holes[4..], &[33, 37, 45, 39, 41]);
        let syms: Vec<usize> = (0..9)
            .map(|l| level(l).unwrap().shape.symmetry_count())
            .collect();
        assert_eq!(&syms[4..], &[8, 8, 8, 2, 8]);
    }

    #[test]
    fn bad_boards_are_user_errors_with_a_location() {
        let cases = [
            (
                "oo.\no.\n",
                "b.txt: line 2: row has 2 columns but the first row has 3",
            ),
            (
                "oo.\noxo\n",
                "b.txt: line 2, column 2: unknown character 'x'",
            ),
            ("...\n-.-\n", "b.txt: the board has no pegs"),
            ("# only a comment\n\n", "b.txt: no board rows found"),
            (
                "oooooooooo\n",
                "b.txt: line 1: row has 10 columns, more than 9",
            ),
        ];
        for (text, want) in cases {
            let err = parse_board(text, "b.txt").unwrap_err();
            assert_eq!(exit_code(&err), 2, "{text:?}");
            assert!(
                one_line(&err).starts_with(want),
                "{text:?}: {}",
                one_line(&err)
            );
        }
        let err = parse_board(" o  x\n", "b.txt").unwrap_err();
        assert!(
            one_line(&err).contains("unknown character 'x'"),
            "{}",
            one_line(&err)
        );
        let err = parse_board("oo o\n", "b.txt").unwrap_err();
        assert_eq!(exit_code(&err), 2);
        let err = level(9).unwrap_err();
        assert_eq!(exit_code(&err), 2);
        assert_eq!(one_line(&err), "unknown level 9 (levels are 0 to 8)");
        assert_eq!(exit_code(&level(-1).unwrap_err()), 2);
    }

    #[test]
    fn the_printed_levels_read_back() {
        for l in 0..LEVEL_COUNT as i64 {
            let p = level(l).unwrap();
            let printed = format!(
                "level {l}: {} pegs\n{}",
                p.initial_pegs(),
                crate::pegsol::render::board_text(&p.shape, p.start, None)
            );
            let back = parse_board(&printed, "printed").unwrap();
            // The same board, possibly translated (the print starts at its bounding box).
            assert_eq!(back.initial_pegs(), p.initial_pegs(), "level {l}");
            assert_eq!(back.shape.hole_count(), p.shape.hole_count(), "level {l}");
            assert_eq!(
                crate::pegsol::render::board_text(&back.shape, back.start, None),
                crate::pegsol::render::board_text(&p.shape, p.start, None)
            );
        }
    }

    #[test]
    fn comments_blank_lines_and_crlf_are_accepted() {
        let p = parse_board("# a board\r\n\r\n-o-\r\noo.\r\n", "x").unwrap();
        assert_eq!(p.initial_pegs(), 3);
        assert_eq!(p.shape.hole_count(), 4);
        assert!(p.start.has_peg(cell(1, 0)));
        assert!(!p.start.has_peg(cell(2, 1)));
    }
}
