//! The pipeline's algorithm `rjm/exact`: one run searches one part of a maze size
//! ([`super::parts`]) and records what it found, so that a proof is a sweep over the
//! parts, with the journal, resumption, shards, merge and Slurm of any experiment
//! (`configs/rjm_exact_N.toml`; `searchlab rjm exact` runs them).

use super::count::Big;
use super::parts::Part;
use super::search::Bound;
use super::solve::{Outcome, Settings, search_part};
use super::tables::Tables;
use crate::pipeline::metrics::MetricsSpec;
use crate::pipeline::params::{ParamSpec, Params};
use crate::pipeline::runner::{Algorithm, RunContext, RunOutput, Seeds};
use crate::util::cancel::Interrupted;
use std::sync::Arc;
use std::time::Instant;

crate::metrics! {
    /// What the exhaustive search of one part of a maze size found.
    pub struct ExactMetrics {
        /// The part's prefix: the start's jump, the jumps of the two cells it reaches,
        /// then those of the next cells in breadth-first order.
        prefix: String [none, "prefix", ""],
        /// The part's bound before its search: none of its mazes is longer.
        a_priori_bound: i64 [none, "a-priori bound", "moves"],
        /// The longest shortest path of the part's mazes, when one reaches `at_least`.
        longest_path: Option<i64> [higher, "longest path", "moves"],
        /// The part's mazes with that longest path (exact, in decimal; 0 when none).
        mazes: String [none, "mazes of the longest path", "mazes"],
        /// The part's mazes of each length from `at_least` up, `length:mazes` pairs.
        histogram: String [none, "mazes by length", ""],
        /// The first maze of the longest path in the search's order, free cells at 1,
        /// rows separated by '/'.
        example: Option<String> [none, "example maze", ""],
        /// Partial mazes searched (cells popped with a jump chosen).
        nodes: u64 [lower, "nodes", "nodes"],
        /// Wall-clock time of the run.
        time_seconds: f64 [lower, "time", "s"],
        /// Nodes per second of wall-clock time.
        nodes_per_second: f64 [higher, "nodes per second", "nodes/s"],
    }
}

/// The largest maze size the search takes.
const MAX_SIZE: i64 = 10;

/// `rjm/exact`.
pub fn algorithm() -> Algorithm {
    Algorithm {
        name: "exact",
        version: 1,
        description: "one part of the exhaustive search for the longest maze of a size (rjm exact): its mazes of each length from at_least up",
        metrics: MetricsSpec::of::<ExactMetrics>(),
        run: run_part,
        anytime: false,
        retired: &[],
        params: vec![
            ParamSpec::int("size", 3, MAX_SIZE, None, "maze size n (n×n cells)").instance(),
            ParamSpec::int(
                "part",
                0,
                1_000_000,
                None,
                "the part searched: 0 to the size's number of parts - 1, in decreasing order of their a-priori bound",
            ),
            ParamSpec::int(
                "at_least",
                1,
                MAX_SIZE * MAX_SIZE,
                None,
                "the threshold: mazes of each length from this up are counted, shorter ones neither counted nor searched",
            ),
            ParamSpec::choice(
                "bound",
                Bound::NAMES,
                Some("reach"),
                "how a partial maze's longest path is bounded: reach (a layer per unseen cell an unpopped cell can jump to), paths (only cells on a chain of jumps to the goal: fewer nodes, slower per node), layers (paths, and the chain starts a layer lower when the last layer queued cannot begin it)",
            ),
        ],
    }
}

/// A size's tables and parts, made once per process.
pub struct Sized {
    pub tables: Tables,
    pub parts: Vec<Part>,
}

/// The tables and parts of `size`, from the memo of the runs of a process.
pub fn sized(memo: &crate::util::memo::Memo, size: usize) -> anyhow::Result<Arc<Sized>> {
    let key = format!("rjm.exact.parts.{size}");
    let (s, _) = memo.get_or_try_init(&key, || {
        let tables = Tables::new(size);
        let parts = super::parts::parts(&tables);
        Ok(Sized { tables, parts })
    })?;
    Ok(s)
}

fn run_part(params: &Params, _: Seeds, ctx: &RunContext) -> anyhow::Result<RunOutput> {
    let size = params.int("size")? as usize;
    let index = params.int("part")? as usize;
    let at_least = params.int("at_least")? as u32;
    let bound = Bound::named(params.str("bound")?)
        .ok_or_else(|| anyhow::anyhow!("unknown bound {}", params.str("bound").unwrap_or("")))?;
    let s = sized(ctx.memo, size)?;
    let Some(part) = s.parts.get(index) else {
        crate::user_bail!(
            "part = {index} is out of range for {size}x{size} mazes (expected 0 to {})",
            s.parts.len() - 1
        );
    };
    let started = Instant::now();
    let settings = Settings {
        at_least,
        bound,
        threads: ctx.threads,
        cancel: Some(ctx.cancel),
    };
    let Some(outcome) = search_part(&s.tables, part, &settings) else {
        return Err(Interrupted(format!("part {index} of {size}x{size} was stopped")).into());
    };
    let seconds = started.elapsed().as_secs_f64();
    if let Some(note) = super::board::board_note(ctx.memo, size, index, outcome.longest()) {
        ctx.observer.note(&note);
    }
    Ok(RunOutput::of(metrics(&s.tables, part, &outcome, seconds)))
}

/// The metrics of a part's outcome.
fn metrics(t: &Tables, part: &Part, o: &Outcome, seconds: f64) -> ExactMetrics {
    let longest = o.longest();
    ExactMetrics {
        prefix: part.describe(),
        a_priori_bound: i64::from(part.bound),
        longest_path: (longest > 0).then_some(i64::from(longest)),
        mazes: o.count().to_string(),
        histogram: histogram_text(&o.histogram),
        example: o.example.as_ref().map(|j| maze_code(t.size, j)),
        nodes: o.nodes,
        time_seconds: seconds,
        nodes_per_second: o.nodes as f64 / seconds.max(1e-9),
    }
}

/// `45:1024 46:12`.
pub fn histogram_text(h: &std::collections::BTreeMap<u32, Big>) -> String {
    let pairs: Vec<String> = h.iter().map(|(l, n)| format!("{l}:{n}")).collect();
    pairs.join(" ")
}

/// The histogram a [`histogram_text`] stands for.
pub fn parse_histogram(text: &str) -> Option<std::collections::BTreeMap<u32, Big>> {
    text.split_whitespace()
        .map(|pair| {
            let (l, n) = pair.split_once(':')?;
            Some((l.parse().ok()?, Big::parse(n)?))
        })
        .collect()
}

/// Row-major jumps as one string, rows separated by '/'.
pub fn maze_code(size: usize, jumps: &[u8]) -> String {
    let rows: Vec<String> = jumps
        .chunks(size)
        .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    rows.join("/")
}
