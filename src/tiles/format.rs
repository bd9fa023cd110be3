//! The seeds' output formats, exactly: the 15-puzzle assignment's IDA* block, the 8-puzzle assignment's BFS/DFS result,
//! the two-blank puzzle assignment's `print_succ` and `solve` lines; and thousands separators.

use super::board::{Board, Dir, MoveOrder};
use super::ida::IdaResult;
use super::solve::Problem;

pub use crate::util::numfmt::thousands;

/// The 15-puzzle assignment's output block for an IDA* run.
pub fn ida_block(start: &Board, r: &IdaResult) -> String {
    let mut s = String::new();
    s.push_str("Initial State:\n");
    s.push_str(&start.grid());
    s.push('\n');
    s.push_str(&format!("Initial Estimate = {}\n", r.h0));
    s.push_str(&format!("Threshold = {}\n", r.thresholds_text()));
    match r.solution_length() {
        Some(len) => s.push_str(&format!("Solution = {len}\n")),
        None => s.push_str("Solution = not found (expansion limit reached)\n"),
    }
    s.push_str(&format!("Generated = {}\n", thousands(r.generated)));
    s.push_str(&format!("Expanded = {}\n", thousands(r.expanded)));
    s.push_str(&format!("Time (seconds) = {:.2}\n", r.seconds));
    s.push_str(&format!(
        "Expanded/Second = {}\n",
        thousands(per_second(r.expanded, r.seconds))
    ));
    s
}

/// Nodes per second, rounded; 0 for an unmeasurably short run.
pub fn per_second(nodes: u64, seconds: f64) -> u64 {
    if seconds > 0.0 {
        (nodes as f64 / seconds).round() as u64
    } else {
        0
    }
}

/// `{ u, l, d, r, d, r }`: the 8-puzzle assignment's solution list.
pub fn move_list(moves: &[Dir]) -> String {
    if moves.is_empty() {
        return "{ }".to_string();
    }
    let items: Vec<String> = moves.iter().map(|d| d.letter().to_string()).collect();
    format!("{{ {} }}", items.join(", "))
}

/// The 8-puzzle assignment's three lines: `expands = …`, `depth = …`, `solution = …`. `depth` is the
/// solution's depth, or when nothing was found the depth of the last node expanded.
pub fn gsa_result(expanded: u64, depth: u64, moves: Option<&[Dir]>) -> String {
    let solution = match moves {
        Some(m) => move_list(m),
        None => "not found".to_string(),
    };
    format!("expands = {expanded}\ndepth = {depth}\nsolution = {solution}\n")
}

/// The two-blank puzzle assignment's `print_succ`: every successor with its h, in ascending state order.
pub fn successor_lines(p: &Problem) -> String {
    let mut succ: Vec<Board> = p
        .start
        .successors(MoveOrder::default())
        .map(|(b, _, _)| b)
        .collect();
    succ.sort();
    succ.iter()
        .map(|b| format!("{} h={}\n", b.list(), p.h(b)))
        .collect()
}

/// The two-blank puzzle assignment's `solve` transcript: each state of the path with its h and move count,
/// then the largest queue length.
pub fn astar_transcript(p: &Problem, path: &[Board], max_queue: u64) -> String {
    let mut s = String::new();
    for (i, b) in path.iter().enumerate() {
        s.push_str(&format!("{} h={} moves: {i}\n", b.list(), p.h(b)));
    }
    s.push_str(&format!("Max queue length: {max_queue}\n"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lists() {
        assert_eq!(move_list(&[Dir::Up, Dir::Left]), "{ u, l }");
    }
}
