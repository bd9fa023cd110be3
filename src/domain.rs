//! What a puzzle domain is to the rest of the program: one [`Domain`] value that says
//! everything: its name and algorithms ([`Runner`], with each algorithm's parameters,
//! metrics and run function), the fact functions and board pictures studies can name,
//! and its command-line program. The registry ([`crate::registry`]) is a list of these;
//! the command line builds its subcommands from them and the report finds the functions
//! there. A domain folder (`rjm`, `tiles`, `pegsol`) exports one `domain()` function
//! returning its descriptor and uses nothing of the other domains.

use crate::pipeline::runner::Runner;
use crate::present::facts::{CanonicalFunction, FactFunction, ReferenceFunction};
use crate::present::figure::BoardFunction;

/// A domain's command-line program: `searchlab <domain> …`.
#[derive(Clone, Copy)]
pub struct Program {
    /// The subcommand's arguments (clap), named by the caller after the domain.
    pub command: fn() -> clap::Command,
    /// Runs it with the parsed arguments, in the environment the command line read.
    pub run: fn(&clap::ArgMatches, &ProgramEnv) -> anyhow::Result<()>,
}

/// What the command line read of the environment for a domain's program, once, so that
/// no program reads the environment itself, and how the program's long work reports
/// itself.
pub struct ProgramEnv {
    /// The domain's cache folder when its environment variable names one
    /// ([`crate::pipeline::runner::CacheSpec::env`]).
    pub cache: Option<std::path::PathBuf>,
    /// The machine's name, for the manifests the program writes.
    pub host: String,
    /// The observer of the program's long work (a table built, runs done): the command
    /// line's choice for stderr ([`crate::util::observe::stderr`]).
    pub observer: Box<dyn crate::util::observe::Observer>,
}

impl ProgramEnv {
    /// The observer of the program's long work.
    pub fn observer(&self) -> &dyn crate::util::observe::Observer {
        &*self.observer
    }
}

/// What a domain concludes from an experiment's results table, printed by `run` and
/// `merge` after writing the tables (a proof's result); `None` when it has nothing to say
/// of these runs.
pub type Conclude = fn(&polars::prelude::DataFrame) -> anyhow::Result<Option<String>>;

/// A puzzle domain (see the module's doc).
#[derive(Clone)]
pub struct Domain {
    pub runner: Runner,
    /// What `searchlab <domain>` is, in a line for `--help`.
    pub about: &'static str,
    pub facts: Vec<FactFunction>,
    pub boards: Vec<BoardFunction>,
    /// Reference values per problem, for targets relative to them.
    pub references: Vec<ReferenceFunction>,
    /// Canonical forms of its algorithms' parameters (runs that are one algorithm under
    /// two names).
    pub canonical: Vec<CanonicalFunction>,
    pub program: Program,
    pub conclude: Option<Conclude>,
}

impl Domain {
    /// The name configs use in `domain = "…"` and the command line as a subcommand.
    pub fn name(&self) -> &'static str {
        self.runner.domain
    }
}

/// The runners of `domains`, for the pipeline.
pub fn runners(domains: &[Domain]) -> Vec<&Runner> {
    domains.iter().map(|d| &d.runner).collect()
}

/// Every domain's fact and board functions, for the report.
pub fn functions(domains: &[Domain]) -> Functions {
    Functions {
        facts: domains
            .iter()
            .flat_map(|d| d.facts.iter().copied())
            .collect(),
        boards: domains
            .iter()
            .flat_map(|d| d.boards.iter().copied())
            .collect(),
        references: domains
            .iter()
            .flat_map(|d| d.references.iter().copied())
            .collect(),
        canonical: domains
            .iter()
            .flat_map(|d| d.canonical.iter().copied())
            .collect(),
    }
}

/// The domains' functions a study can name.
#[derive(Clone, Default)]
pub struct Functions {
    pub facts: Vec<FactFunction>,
    pub boards: Vec<BoardFunction>,
    pub references: Vec<ReferenceFunction>,
    pub canonical: Vec<CanonicalFunction>,
}
