//! The board of a proof under way: the unfinished parts' a-priori bounds and the
//! finished parts' longest paths, kept in the memo of the runs of one `rjm exact`, so
//! that each part, as it finishes, can say how many parts remain and the interval the
//! proof has reached (the upper bound falls as parts finish).

use crate::util::memo::Memo;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;

/// Progress of a proof while its parts run: the unfinished parts' bounds and the
/// finished parts' longest paths.
pub struct Board {
    size: usize,
    at_least: u32,
    parts: usize,
    state: Mutex<BoardState>,
}

struct BoardState {
    /// Unfinished parts and their a-priori bounds.
    open: BTreeMap<usize, u32>,
    /// The upper bound of the finished parts, and the longest path found.
    closed_upper: u32,
    lower: u32,
    last_note: Option<Instant>,
    last_upper: u32,
}

fn board_key(size: usize) -> String {
    format!("rjm.exact.board.{size}")
}

/// Where a proof starts from: what the parts finished before prove.
pub struct Start {
    pub size: usize,
    pub at_least: u32,
    /// All the parts of the size.
    pub parts: usize,
    /// The unfinished parts and their a-priori bounds.
    pub open: BTreeMap<usize, u32>,
    /// The longest path known.
    pub lower: u32,
}

/// Puts a board for `start` in `memo`, for the runs to tell their progress by.
pub fn install_board(memo: &Memo, start: Start) -> anyhow::Result<()> {
    let board = Board {
        size: start.size,
        at_least: start.at_least,
        parts: start.parts,
        state: Mutex::new(BoardState {
            open: start.open,
            closed_upper: start.lower,
            lower: start.lower,
            last_note: None,
            last_upper: u32::MAX,
        }),
    };
    let (_, _) = memo.get_or_try_init(&board_key(start.size), || Ok(Some(board)))?;
    Ok(())
}

/// After part `index` of `size` finished with its `longest` path (0: none reaches the
/// threshold): a line saying how many parts
/// remain and the interval now, when a board is installed and the bound moved or a few
/// seconds passed.
pub fn board_note(memo: &Memo, size: usize, index: usize, longest: u32) -> Option<String> {
    let (board, _) = memo
        .get_or_try_init::<Option<Board>>(&board_key(size), || Ok(None))
        .ok()?;
    let board = board.as_ref().as_ref()?;
    let mut st = board.state.lock().ok()?;
    let bound = st.open.remove(&index)?;
    st.lower = st.lower.max(longest);
    st.closed_upper = st.closed_upper.max(match longest {
        0 => bound.min(board.at_least.saturating_sub(1)),
        l => l,
    });
    let upper = st
        .open
        .values()
        .copied()
        .max()
        .unwrap_or(0)
        .max(st.closed_upper);
    let quiet = st.last_note.is_some_and(|t| t.elapsed().as_secs() < 10);
    if upper == st.last_upper && quiet && !st.open.is_empty() {
        return None;
    }
    st.last_note = Some(Instant::now());
    st.last_upper = upper;
    let n = board.size;
    let interval = match st.lower {
        lo if lo == upper => format!("{lo}"),
        lo => format!("{lo} to {upper}"),
    };
    Some(format!(
        "{n}x{n}: {} of the {} parts remain; the longest shortest path is {interval} moves",
        st.open.len(),
        board.parts,
    ))
}
