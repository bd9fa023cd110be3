//! The assignment's text formats: a maze as rows of jump numbers (part 1, also the maze file
//! format), and the evaluation block (part 2): the maze, `Moves from start:`, the depth
//! grid and the objective.

use super::evaluate::{distances, objective};
use super::maze::Maze;
use std::fmt::Write;

/// Rows of jump numbers separated by single spaces, one row per line.
pub fn format_maze(maze: &Maze) -> String {
    let n = maze.size();
    let mut out = String::new();
    for row in maze.jumps().chunks(n) {
        let cells: Vec<String> = row.iter().map(u8::to_string).collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

/// The part-2 block: maze, `Moves from start:`, depths right-justified in two
/// characters (`--` when unreachable) separated by one space, then the objective.
pub fn format_evaluation(maze: &Maze) -> String {
    let n = maze.size();
    let mut out = format_maze(maze);
    out.push_str("Moves from start:\n");
    for row in distances(maze).chunks(n) {
        let cells: Vec<String> = row
            .iter()
            .map(|d| d.map_or_else(|| "--".to_string(), |d| format!("{d:>2}")))
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    let _ = writeln!(out, "{}", objective(maze));
    out
}

/// Parses a maze file (what part 1 prints: n lines of n jump numbers). Blank lines are
/// ignored. Errors name the source and the line.
pub fn parse_maze(text: &str, source: &str) -> anyhow::Result<Maze> {
    let rows: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect();
    let n = rows.len();
    if n == 0 {
        crate::user_bail!("{source}: the maze file is empty");
    }
    if !(super::MIN_SIZE..=super::MAX_SIZE).contains(&n) {
        crate::user_bail!(
            "{source}: {n} rows, but a maze has {} to {} rows",
            super::MIN_SIZE,
            super::MAX_SIZE
        );
    }
    let mut jumps = Vec::with_capacity(n * n);
    for &(line, text) in &rows {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != n {
            crate::user_bail!(
                "{source}:{line}: {} jump numbers in this row, but the maze has {n} rows",
                fields.len()
            );
        }
        for f in fields {
            let j: u8 = f
                .parse()
                .map_err(|_| crate::user_error!("{source}:{line}: {f:?} is not a jump number"))?;
            jumps.push(j);
        }
    }
    Maze::from_jumps(n, jumps).map_err(|e| crate::user_error!("{source}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PART2_A: &str = "2 2 2 4 3\n2 2 3 3 3\n3 3 2 3 3\n4 3 2 2 2\n1 2 1 4 0\n";

    #[test]
    fn evaluation_block_matches_the_seed() {
        let maze = parse_maze(PART2_A, "a").unwrap();
        let want = format!(
            "{PART2_A}Moves from start:\n 0  3  1  4  2\n 7  5  5  6  4\n 1  4  2  2  3\n 5  6  4 --  3\n--  4  3  4  5\n-5\n"
        );
        assert_eq!(format_evaluation(&maze), want);
    }

    #[test]
    fn parse_errors_name_the_line() {
        let err = parse_maze("1 2 1 1 1\n1 1 1\n", "m.txt").unwrap_err();
        assert!(crate::util::error::is_user_error(&err));
        assert!(err.to_string().contains("rows"), "{err}");
        let bad_row = "2 2 2 4 3\n2 2 3 3\n3 3 2 3 3\n4 3 2 2 2\n1 2 1 4 0\n";
        assert!(
            parse_maze(bad_row, "m.txt")
                .unwrap_err()
                .to_string()
                .starts_with("m.txt:2:")
        );
        let bad_jump = PART2_A.replace("1 2 1 4 0", "1 2 1 4 1");
        assert!(
            parse_maze(&bad_jump, "m.txt")
                .unwrap_err()
                .to_string()
                .contains("goal")
        );
        let word = PART2_A.replace("3 3 2 3 3", "3 x 2 3 3");
        assert!(
            parse_maze(&word, "m.txt")
                .unwrap_err()
                .to_string()
                .contains("m.txt:3: \"x\"")
        );
        assert!(
            parse_maze("", "m.txt")
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
    }
}
