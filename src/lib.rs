//! searchlab: reproducible experiments with search and local-search algorithms on puzzles.
//!
//! Data flows one way: a TOML config becomes a plan of seeded runs, executed in parallel
//! by a domain's algorithms; finished runs are journaled and turned into polars tables,
//! figures and the report. The modules form layers, each using only those below it;
//! [`LAYERS`] lists them, from the bottom, and is the one list a test of the crate's
//! source (`tests/layers.rs`) and the README's table are checked against.

pub mod cli;
pub mod domain;
pub mod local_search;
pub mod pegsol;
pub mod pipeline;
pub mod present;
pub mod registry;
pub mod report;
pub mod rjm;
pub mod search;
pub mod slurm;
pub mod stats;
pub mod study;
pub mod tiles;
pub mod tune;
pub mod util;

/// Every top-level module with its layer and what it owns, from the bottom. A module
/// uses only modules of lower layers; modules of one layer (the domains) never use each
/// other.
pub const LAYERS: &[(&str, u32, &str)] = &[
    (
        "util",
        0,
        "atomic writes, errors, input limits, seeded generators, the observer of long work, the built-in configs and studies",
    ),
    ("search", 1, "generic BFS, DFS, A*, IDA* over small traits"),
    (
        "local_search",
        1,
        "generic hill descent, restarts, annealing schedules, escape trials",
    ),
    (
        "stats",
        2,
        "descriptive statistics, distributions, rank tests, effect sizes",
    ),
    (
        "pipeline",
        3,
        "params, metrics, configs, plans, the runner interface, execution, journals, tables, shards, merge",
    ),
    (
        "present",
        4,
        "views of tables, summaries, comparisons, facts, figure specs and figures",
    ),
    ("domain", 5, "what a domain is: its descriptor"),
    ("rjm", 6, "the Rook Jumping Maze domain"),
    ("tiles", 6, "the sliding-tile domain"),
    ("pegsol", 6, "the peg-solitaire domain"),
    ("tune", 7, "racing a config's settings (irace's F-race)"),
    (
        "study",
        8,
        "studies declared in TOML: questions, blocks, answers, checked on loading",
    ),
    (
        "report",
        9,
        "studies rendered block by block into the report",
    ),
    ("slurm", 10, "an experiment or a study as a Slurm job array"),
    ("registry", 11, "the list of domains"),
    ("cli", 12, "the command line"),
];
