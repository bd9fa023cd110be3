//! The iterative-deepening driver, counters and move tables shared by the fast IDA*
//! searches of one-blank boards: [`super::ida`] (computed heuristics) and
//! [`super::pdb_ida`] (pattern databases, serial and parallel).
//!
//! A search supplies one iteration ([`Iterate`]: search from the start with a threshold,
//! report a goal's path or the next threshold); the driver ([`deepen`]) owns the rest,
//! once for all of them: the threshold loop and its list, the stop at the expansion limit
//! or past the longest path, the solution's moves, the time, and the checkpoints of long
//! runs. The driver is generic over the search, so each search's iteration is
//! monomorphised into it and the per-node code pays nothing for the sharing.
//!
//! **Counting** (Korf 1985): `generated` is every child generated, summed over all
//! iterations, plus the start node once; `expanded` is every node whose children were
//! generated; the last iteration stops when the goal is generated.
//!
//! **Checkpoints.** After each iteration that found no goal the driver hands the run's
//! observer ([`Control::observer`]) a [`Checkpoint`] (as JSON): the thresholds searched,
//! the counts so far and the next threshold. A
//! search started with it ([`Control::resume`]) skips the iterations already done and
//! ends with the same counts, thresholds and solution as a search never interrupted:
//! every iteration starts from the start node with nothing carried over but the counts.

use super::board::{Dir, MAX_CELLS, MoveOrder, Shape};
use crate::search::{Limits, Stop};
use crate::util::cancel::Cancel;
use crate::util::observe::{Observer, Quiet};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What one IDA* run found.
#[derive(Debug, Clone, PartialEq)]
pub struct IdaResult {
    pub h0: u32,
    pub thresholds: Vec<u32>,
    /// The blank's moves from the start to the goal, if found.
    pub moves: Option<Vec<Dir>>,
    pub generated: u64,
    pub expanded: u64,
    /// Deepest path examined (the memory an IDA* needs).
    pub max_depth: u32,
    /// Why the search ended: solved, exhausted (no path within [`MAX_PATH`]), at its
    /// expansion limit, or interrupted by a stop request in the middle of an iteration
    /// (the last one in `thresholds`; the counts include its part searched). IDA* stores
    /// no states, so never at a memory limit.
    pub stop: Stop,
    pub seconds: f64,
}

impl IdaResult {
    pub fn solution_length(&self) -> Option<usize> {
        self.moves.as_ref().map(Vec::len)
    }

    /// What an interrupted search had done, as the error that ends its run or command.
    pub fn interruption(&self) -> crate::util::cancel::Interrupted {
        let done = self.thresholds.len().saturating_sub(1);
        crate::util::cancel::Interrupted(format!(
            "IDA* stopped in its iteration at threshold {}, after {} iterations completed and {} generated nodes",
            self.thresholds.last().copied().unwrap_or(self.h0),
            done,
            self.generated
        ))
    }

    pub fn thresholds_text(&self) -> String {
        self.thresholds
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The longest path an IDA* search examines (its path buffers' length).
pub const MAX_PATH: usize = 512;
/// No cell (a move off the board).
pub const NONE: u8 = u8::MAX;

/// The counts of a search, updated by its hot loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counters {
    pub generated: u64,
    pub expanded: u64,
    /// Deepest path examined.
    pub max_depth: u32,
    /// The search calls [`Self::at_limit`] when about to expand node number `limit + 1`:
    /// at the expansion limit or, with a stop request, sooner, to look at it (the one
    /// test an expansion pays for both).
    pub limit: u64,
    /// The search gives up when about to expand node number `expand_limit + 1`.
    pub expand_limit: u64,
    /// The search stopped: at its expansion limit, or at a stop request (`interrupted`).
    pub limit_reached: bool,
    pub interrupted: bool,
}

/// Expansions between two looks at a stop request: a fraction of a second.
pub const POLL_EVERY: u64 = 1 << 20;

impl Counters {
    /// The counts before the start node is searched: the start counts as generated.
    pub fn new(expand_limit: Option<u64>) -> Counters {
        let limit = expand_limit.unwrap_or(u64::MAX);
        Counters {
            generated: 1,
            expanded: 0,
            max_depth: 0,
            limit,
            expand_limit: limit,
            limit_reached: false,
            interrupted: false,
        }
    }

    /// Sets where the search next calls [`Self::at_limit`]: [`POLL_EVERY`] expansions
    /// ahead when it has a stop request to look at (`polled`), else at the limit.
    pub fn schedule(&mut self, polled: bool) {
        self.limit = match polled {
            true => self
                .expand_limit
                .min(self.expanded.saturating_add(POLL_EVERY)),
            false => self.expand_limit,
        };
    }

    /// Whether the search stops here, where `expanded` has reached `limit`: at the
    /// expansion limit, or when `stop` was requested (both set `limit_reached`, which the
    /// searches unwind on; the second also `interrupted`). Otherwise the next look is
    /// scheduled.
    #[cold]
    #[inline(never)]
    pub fn at_limit(&mut self, stop: Option<&Cancel>) -> bool {
        if self.expanded < self.expand_limit && !stop.is_some_and(Cancel::is_cancelled) {
            self.schedule(stop.is_some());
            return false;
        }
        self.interrupted = self.expanded < self.expand_limit;
        self.limit_reached = true;
        true
    }
}

/// The blank's moves in a move order, as tables the hot loops index.
#[derive(Debug, Clone, Copy)]
pub struct Moves {
    /// `nbr[cell][k]`: the cell the blank reaches from `cell` with the k-th move of the
    /// order, or [`NONE`].
    pub nbr: [[u8; 4]; MAX_CELLS],
    /// `inverse[k]`: the index in the order of the k-th move's inverse.
    pub inverse: [usize; 4],
    /// True when the k-th move of the order is vertical (changes the tile's row).
    pub vertical: [bool; 4],
    /// `dir[k]`: the k-th move of the order as an index of [`Dir::ALL`].
    pub dir: [usize; 4],
    pub order: MoveOrder,
}

impl Moves {
    pub fn new(shape: Shape, order: MoveOrder) -> Moves {
        let mut nbr = [[NONE; 4]; MAX_CELLS];
        for (c, row) in nbr.iter_mut().enumerate().take(shape.cells()) {
            for (k, d) in order.0.into_iter().enumerate() {
                if let Some(q) = shape.neighbour(c, d) {
                    row[k] = q as u8;
                }
            }
        }
        let mut inverse = [0; 4];
        let mut vertical = [false; 4];
        let mut dir = [0; 4];
        for (k, d) in order.0.into_iter().enumerate() {
            inverse[k] = order.0.iter().position(|&e| e == d.inverse()).unwrap_or(0);
            vertical[k] = matches!(d, Dir::Up | Dir::Down);
            dir[k] = Dir::ALL.iter().position(|&e| e == d).unwrap_or(0);
        }
        Moves {
            nbr,
            inverse,
            vertical,
            dir,
            order,
        }
    }

    /// The moves of a path of move indices.
    pub fn path(&self, path: &[u8]) -> Vec<Dir> {
        path.iter().map(|&k| self.order.0[usize::from(k)]).collect()
    }
}

/// What one iteration found.
pub struct Iteration {
    /// The move indices from the start to a goal, when one was generated.
    pub found: Option<Vec<u8>>,
    /// The least f above the threshold among the children pruned (u32::MAX: none).
    pub next_bound: u32,
}

/// One IDA* iteration of a search, from the start node with threshold `bound`.
pub trait Iterate {
    fn iterate(&mut self, bound: u32) -> Iteration;
    /// The counts so far (all iterations).
    fn counters(&mut self) -> &mut Counters;
}

/// The state of a search between two iterations, from which it resumes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The thresholds of the iterations completed.
    pub thresholds: Vec<u32>,
    /// The threshold of the next iteration.
    pub next: u32,
    pub generated: u64,
    pub expanded: u64,
    pub max_depth: u32,
}

impl Checkpoint {
    /// The checkpoint as an observer is told it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a checkpoint is plain numbers")
    }

    /// A checkpoint an observer was told, or why it is not one.
    pub fn from_json(state: &serde_json::Value) -> Result<Checkpoint, String> {
        serde_json::from_value(state.clone()).map_err(|e| e.to_string())
    }

    /// Whether a search could have written it: thresholds rising, the next above the
    /// last, at least one node expanded per iteration and no more expanded than
    /// generated, depths within a path's length. A checkpoint that fails is not resumed
    /// from (the run starts again), whatever its checksum says.
    pub fn check(&self) -> Result<(), String> {
        let Some(&last) = self.thresholds.last() else {
            return Err("no iteration completed".into());
        };
        if self.thresholds.windows(2).any(|w| w[1] <= w[0]) {
            return Err("its thresholds do not rise".into());
        }
        if self.next <= last || self.next as usize >= MAX_PATH {
            return Err(format!(
                "its next threshold {} does not follow {last}",
                self.next
            ));
        }
        if self.expanded > self.generated || self.expanded < self.thresholds.len() as u64 {
            return Err("its node counts do not fit its iterations".into());
        }
        if self.max_depth as usize > MAX_PATH || self.max_depth > last + 1 {
            return Err(format!(
                "its depth {} is past its thresholds",
                self.max_depth
            ));
        }
        Ok(())
    }
}

/// How a run is controlled: its limits, where it resumes, and who is told of each
/// iteration completed.
pub struct Control<'a> {
    /// Its expansion limit and its stop request (IDA* stores no states: a memory budget
    /// is not looked at). The stop request is looked at every [`POLL_EVERY`]
    /// expansions: the search then stops in the middle of its iteration
    /// ([`Stop::Interrupted`]), its last checkpoint the one to resume from.
    pub limits: Limits<'a>,
    /// A checkpoint of this same search (same start, heuristic and order); one whose
    /// first threshold is not the start's h is ignored.
    pub resume: Option<Checkpoint>,
    /// Told of each iteration completed without a goal, as a [`Checkpoint`] in JSON.
    pub observer: &'a dyn Observer,
}

impl Default for Control<'_> {
    fn default() -> Self {
        Control {
            limits: Limits::default(),
            resume: None,
            observer: &Quiet,
        }
    }
}

impl<'a> Control<'a> {
    /// A run with an expansion limit, neither resumed nor observed.
    pub fn limited(expand_limit: Option<u64>) -> Control<'static> {
        Control {
            limits: Limits::expansions(expand_limit),
            ..Control::default()
        }
    }

    /// Its stop request, if any.
    pub fn cancel(&self) -> Option<&'a Cancel> {
        self.limits.cancel
    }
}

/// IDA* with the iterations of `search`: thresholds from `h0` (or from the checkpoint to
/// resume) until a goal is found, the limit is reached or no path is left within
/// [`MAX_PATH`]. `at_goal`: the start is the goal (one threshold, no search).
pub fn deepen<S: Iterate>(
    search: &mut S,
    h0: u32,
    at_goal: bool,
    moves: &Moves,
    control: Control,
) -> IdaResult {
    let started = Instant::now();
    let mut thresholds = Vec::new();
    let mut solution = None;
    let mut bound = h0;
    if let Some(c) = control.resume.filter(|c| c.thresholds.first() == Some(&h0))
        && !at_goal
    {
        let counters = search.counters();
        counters.generated = c.generated;
        counters.expanded = c.expanded;
        counters.max_depth = c.max_depth;
        thresholds = c.thresholds;
        bound = c.next;
    }
    search.counters().schedule(control.limits.cancel.is_some());
    if at_goal {
        thresholds.push(h0);
        solution = Some(Vec::new());
    } else {
        loop {
            thresholds.push(bound);
            let it = search.iterate(bound);
            if let Some(path) = it.found {
                solution = Some(moves.path(&path));
                break;
            }
            if search.counters().limit_reached
                || it.next_bound == u32::MAX
                || it.next_bound as usize >= MAX_PATH
            {
                break;
            }
            bound = it.next_bound;
            let c = *search.counters();
            let checkpoint = Checkpoint {
                thresholds: thresholds.clone(),
                next: bound,
                generated: c.generated,
                expanded: c.expanded,
                max_depth: c.max_depth,
            };
            control.observer.checkpoint(&checkpoint.to_json());
        }
    }
    let c = *search.counters();
    let stop = match (&solution, c.limit_reached, c.interrupted) {
        (Some(_), _, _) => Stop::Solved,
        (None, _, true) => Stop::Interrupted,
        (None, true, false) => Stop::ExpansionLimit,
        (None, false, false) => Stop::Exhausted,
    };
    IdaResult {
        h0,
        thresholds,
        moves: solution,
        generated: c.generated,
        expanded: c.expanded,
        max_depth: c.max_depth,
        stop,
        seconds: started.elapsed().as_secs_f64(),
    }
}
