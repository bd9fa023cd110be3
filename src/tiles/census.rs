//! The census of a state space: breadth-first search from the goal over every reachable
//! state, counting the states at each distance (the teaching table of how a state space
//! grows), and sampling states at a given optimal distance for experiments.

use super::board::{Board, MoveOrder, Shape};
use crate::user_bail;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The largest state space a census explores.
pub const MAX_STATES: u64 = 20_000_000;

/// The number of states reachable from a goal: n!/b! arrangements, halved for one blank
/// (permutation parity).
pub fn reachable_states(shape: Shape, blanks: usize) -> u128 {
    let n = shape.cells() as u128;
    let mut count: u128 = (1..=n).product();
    count /= (1..=blanks as u128).product::<u128>();
    if blanks == 1 { count / 2 } else { count }
}

/// Packs a board of at most 16 cells into 4 bits per cell.
pub(crate) fn pack(b: &Board) -> u64 {
    b.tiles()
        .iter()
        .fold(0u64, |acc, &t| (acc << 4) | u64::from(t))
}

pub(crate) fn unpack(code: u64, shape: Shape) -> Board {
    let n = shape.cells();
    let mut cells = [0u8; super::board::MAX_CELLS];
    for (i, c) in cells.iter_mut().take(n).enumerate() {
        *c = ((code >> (4 * (n - 1 - i))) & 0xF) as u8;
    }
    Board {
        cells,
        width: shape.width as u8,
        height: shape.height as u8,
    }
}

/// Every state reachable from `goal`, layer by layer (layer d: the states at distance d).
pub fn layers(goal: &Board) -> anyhow::Result<Vec<Vec<u64>>> {
    let shape = goal.shape();
    let count = reachable_states(shape, goal.blanks());
    if shape.cells() > 16 {
        user_bail!(
            "a census covers boards of at most 16 cells; the {shape} board has {}",
            shape.cells()
        );
    }
    if count > u128::from(MAX_STATES) {
        user_bail!(
            "a census of the {shape} board with {} blank(s) would visit {count} states; the limit is {MAX_STATES}",
            goal.blanks()
        );
    }
    let mut seen: HashSet<u64> = HashSet::with_capacity(count as usize);
    let start = pack(goal);
    seen.insert(start);
    let mut layers = vec![vec![start]];
    loop {
        let mut next = Vec::new();
        for &code in layers.last().map(Vec::as_slice).unwrap_or(&[]) {
            let b = unpack(code, shape);
            for (n, _, _) in b.successors(MoveOrder::default()) {
                let c = pack(&n);
                if seen.insert(c) {
                    next.push(c);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        next.sort_unstable();
        layers.push(next);
    }
    Ok(layers)
}

/// The number of states at each distance from `goal`.
pub fn census(goal: &Board) -> anyhow::Result<Vec<u64>> {
    Ok(layers(goal)?.iter().map(|l| l.len() as u64).collect())
}

/// The 8-puzzle's layers towards the standard goal `1 … 8 0`, computed once.
pub fn eight_puzzle_layers() -> &'static Vec<Vec<u64>> {
    // Process-wide but immutable once computed: a cache of a fixed table, the same for
    // every caller, not state that anything changes.
    static LAYERS: OnceLock<Vec<Vec<u64>>> = OnceLock::new();
    LAYERS.get_or_init(|| {
        let shape = Shape {
            width: 3,
            height: 3,
        };
        layers(&Board::default_goal(shape, 1)).expect("the 8-puzzle census fits")
    })
}

/// An 8-puzzle state at optimal distance `depth` from the standard goal, picked by index.
pub fn eight_puzzle_at(depth: usize, index: usize) -> Option<Board> {
    let layer = eight_puzzle_layers().get(depth)?;
    let code = *layer.get(index % layer.len().max(1))?;
    Some(unpack(
        code,
        Shape {
            width: 3,
            height: 3,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        let b = Board::parse("2 4 3 1 0 6 7 5 8", None, None, "t").unwrap();
        assert_eq!(unpack(pack(&b), b.shape()), b);
    }

    #[test]
    fn small_boards() {
        let s = Shape::new(2, 2).unwrap();
        assert_eq!(
            census(&Board::default_goal(s, 1))
                .unwrap()
                .iter()
                .sum::<u64>(),
            12
        );
        assert!(census(&Board::default_goal(Shape::new(4, 4).unwrap(), 1)).is_err());
    }
}
