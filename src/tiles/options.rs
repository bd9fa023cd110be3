//! The options of the fast IDA* beyond its heuristic and move order, each described once
//! ([`SPECS`]: name, values, default, help, and the option it applies under). That one
//! description feeds the pipeline's parameters of `tiles/ida` ([`param_specs`]), the flags
//! of `tiles solve` and `tiles batch` ([`Flags`], a clap argument group built from it),
//! and the batch's config ([`Flags::given`]); [`Options::from_params`] is the one place
//! their values become the search's. An option is added here: a field of [`Options`], its
//! spec, and its line in [`Options::from_params`].

use crate::pipeline::params::{ParamSpec, Params, Value};
use crate::tiles::board::Shape;
use crate::tiles::fsm::{self, Fsm, Pruning};
use crate::util::memo::Memo;
use std::sync::Arc;

/// What an option's values are, and its default.
pub enum Kind {
    /// One of `values`.
    Choice {
        values: &'static [&'static str],
        default: &'static str,
    },
    /// An integer from `min` to `max`.
    Int { min: i64, max: i64, default: i64 },
}

/// One option of the search.
pub struct Spec {
    /// Its name in configs and the results' column (`fsm_depth`).
    pub name: &'static str,
    /// Its command-line flag, without the dashes (`fsm-depth`), and the flag's value in
    /// `--help` (`DEPTH`).
    pub flag: &'static str,
    pub value_name: &'static str,
    pub kind: Kind,
    /// What it does, for `searchlab list` and `--help`.
    pub help: &'static str,
    /// The option and values under which it applies, if not always.
    pub when: Option<(&'static str, &'static [&'static str])>,
}

/// Every option of the search, in the order of the results' columns.
pub const SPECS: &[Spec] = &[
    Spec {
        name: "pruning",
        flag: "pruning",
        value_name: "PRUNING",
        kind: Kind::Choice {
            values: Pruning::NAMES,
            default: "parent",
        },
        help: "duplicate move sequences pruned: parent (the move undoing the last one, as Korf and Felner) or fsm (every duplicate sequence up to the machine's depth, Taylor and Korf's finite-state machine); with the manhattan and pdb: heuristics",
        when: None,
    },
    Spec {
        name: "fsm_depth",
        flag: "fsm-depth",
        value_name: "DEPTH",
        kind: Kind::Int {
            min: 2,
            max: fsm::DEEPEST as i64,
            default: fsm::DEFAULT_DEPTH as i64,
        },
        help: "with pruning fsm, the machine's depth: the longest duplicate move sequences it prunes; deeper prunes more nodes, but the machine is larger, slower to read and to build",
        when: Some(("pruning", &["fsm"])),
    },
];

/// The spec of option `name`.
fn spec(name: &str) -> &'static Spec {
    (SPECS.iter().find(|s| s.name == name)).expect("a search option")
}

impl Spec {
    /// Its default value.
    pub fn default_value(&self) -> Value {
        match self.kind {
            Kind::Choice { default, .. } => Value::Str(default.to_string()),
            Kind::Int { default, .. } => Value::Int(default),
        }
    }

    /// Its parameter for the pipeline.
    pub fn param(&self) -> ParamSpec {
        let p = match self.kind {
            Kind::Choice { values, default } => {
                ParamSpec::choice(self.name, values, Some(default), self.help)
            }
            Kind::Int { min, max, default } => {
                ParamSpec::int(self.name, min, max, Some(default), self.help)
            }
        };
        match self.when {
            Some((param, values)) => p.only_when(param, values),
            None => p,
        }
    }

    /// The value of a flag's text, or what is wrong with it.
    fn parse(&self, text: &str) -> Result<Value, String> {
        let text = text.trim();
        match self.kind {
            Kind::Choice { values, .. } if values.contains(&text) => {
                Ok(Value::Str(text.to_string()))
            }
            Kind::Choice { values, .. } => Err(format!(
                "{text:?} is not a {}: {}",
                self.name.replace('_', " "),
                values.join(", ")
            )),
            Kind::Int { min, max, .. } => match text.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(Value::Int(n)),
                Ok(n) => Err(format!("{n} is not in {min}..={max}")),
                Err(_) => Err(format!("{text:?} is not an integer")),
            },
        }
    }

    /// Its command-line flag.
    fn arg(&'static self) -> clap::Arg {
        let default = match self.default_value() {
            Value::Str(s) => s,
            v => v.to_string(),
        };
        let mut help = self.help.to_string();
        help[..1].make_ascii_uppercase();
        clap::Arg::new(self.name)
            .long(self.flag)
            .value_name(self.value_name)
            .help(format!("{help} [default: {default}]"))
            .value_parser(clap::builder::ValueParser::new(move |t: &str| {
                self.parse(t)
            }))
    }
}

/// The pipeline's parameters of the options, in [`SPECS`]' order.
pub fn param_specs() -> Vec<ParamSpec> {
    SPECS.iter().map(Spec::param).collect()
}

/// The options of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Which duplicate move sequences are pruned.
    pub pruning: Pruning,
    /// With [`Pruning::Fsm`], the longest duplicate sequences the machine prunes (2 to
    /// [`fsm::DEEPEST`]).
    pub fsm_depth: usize,
}

impl Default for Options {
    /// Korf & Felner's search: only the undoing move pruned.
    fn default() -> Options {
        Options {
            pruning: Pruning::Parent,
            fsm_depth: fsm::DEFAULT_DEPTH,
        }
    }
}

impl Options {
    /// The options of a run's parameters; an option absent (or null) takes its default.
    pub fn from_params(p: &Params) -> anyhow::Result<Options> {
        let value = |name: &str| match p.get(name) {
            Some(v) if *v != Value::Null => v.clone(),
            _ => spec(name).default_value(),
        };
        let pruning = value("pruning");
        let pruning = (pruning.as_str().and_then(Pruning::from_name))
            .ok_or_else(|| crate::user_error!("unknown pruning {pruning}"))?;
        let depth = value("fsm_depth").as_i64().unwrap_or(0);
        if pruning == Pruning::Fsm && !(2..=fsm::DEEPEST as i64).contains(&depth) {
            crate::user_bail!(
                "the pruning machine's depth must be 2 to {}, not {depth}",
                fsm::DEEPEST
            );
        }
        Ok(Options {
            pruning,
            fsm_depth: usize::try_from(depth).unwrap_or(fsm::DEFAULT_DEPTH),
        })
    }

    /// The pruning machine these options ask for on boards of `shape`, shared through
    /// `memo` ([`Fsm::shared`]); `None` when only the undoing move is pruned.
    pub fn machine(&self, shape: Shape, memo: &Memo) -> Option<Arc<Fsm>> {
        (self.pruning == Pruning::Fsm).then(|| Fsm::shared(shape, self.fsm_depth, memo))
    }
}

/// The first option of `p` set away from its default, as a config writes it
/// (`pruning = "fsm"`): what asks for the search only Manhattan distance and pattern
/// databases have.
pub fn first_set(p: &Params) -> Option<String> {
    SPECS.iter().find_map(|s| {
        let v = p.get(s.name).filter(|v| **v != Value::Null)?;
        (*v != s.default_value()).then(|| format!("{} = {}", s.name, v.canonical()))
    })
}

/// The options given on the command line, as the flags of [`SPECS`] (clap's arguments,
/// flattened into `tiles solve` and `tiles batch`).
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// The options given, by name.
    pub given: Params,
}

impl Flags {
    /// The search's options: those given, the others at their defaults; an option given
    /// where it does not apply is an error naming both flags.
    pub fn options(&self) -> anyhow::Result<Options> {
        for s in SPECS {
            let Some((param, values)) = s.when else {
                continue;
            };
            if self.given.get(s.name).is_none() {
                continue;
            }
            let under = self.given.get(param).cloned();
            let under = under.unwrap_or_else(|| spec(param).default_value());
            if !values.iter().any(|v| under.as_str() == Some(*v)) {
                let flag = spec(param).flag;
                let wanted: Vec<String> = values.iter().map(|v| format!("--{flag} {v}")).collect();
                crate::user_bail!("--{} works with {}", s.flag, wanted.join(" or "));
            }
        }
        Options::from_params(&self.given)
    }

    /// The first flag given with a value other than its default (`--pruning fsm`): what
    /// asks for the search only Manhattan distance and pattern databases have.
    pub fn first_set(&self) -> Option<String> {
        SPECS.iter().find_map(|s| {
            let v = self.given.get(s.name)?;
            (*v != s.default_value()).then(|| format!("--{} {v}", s.flag))
        })
    }
}

impl clap::FromArgMatches for Flags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Params::default();
        for s in SPECS {
            if let Some(v) = m.get_one::<Value>(s.name) {
                given.set(s.name, v.clone());
            }
        }
        Ok(Flags { given })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Flags::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for Flags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.args(SPECS.iter().map(Spec::arg))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Flags::augment_args(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_specs_are_the_pipelines_parameters_and_the_flags() {
        let names: Vec<&str> = param_specs().iter().map(|p| p.name).collect();
        assert_eq!(names, ["pruning", "fsm_depth"]);
        let cmd = <Flags as clap::Args>::augment_args(clap::Command::new("t"));
        let m = cmd
            .clone()
            .try_get_matches_from(["t", "--pruning", "fsm", "--fsm-depth", "8"])
            .unwrap();
        let flags = <Flags as clap::FromArgMatches>::from_arg_matches(&m).unwrap();
        let options = flags.options().unwrap();
        assert_eq!(options.pruning, Pruning::Fsm);
        assert_eq!(options.fsm_depth, 8);
        assert_eq!(flags.first_set().as_deref(), Some("--pruning fsm"));
        assert_eq!(
            first_set(&flags.given).as_deref(),
            Some("pruning = \"fsm\"")
        );
        // The same values as parameters give the same options.
        assert_eq!(Options::from_params(&flags.given).unwrap(), options);
        assert_eq!(
            Options::from_params(&Params::default()).unwrap(),
            Options::default()
        );
        let err = cmd
            .clone()
            .try_get_matches_from(["t", "--fsm-depth", "19"])
            .unwrap_err();
        assert!(err.to_string().contains("19 is not in 2..=18"), "{err}");
        let err = cmd
            .try_get_matches_from(["t", "--pruning", "all"])
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("\"all\" is not a pruning: parent, fsm")
        );
    }

    #[test]
    fn an_option_given_where_it_does_not_apply_is_an_error() {
        let mut given = Params::default();
        given.set("fsm_depth", Value::Int(8));
        let err = Flags { given }.options().unwrap_err();
        assert_eq!(err.to_string(), "--fsm-depth works with --pruning fsm");
        assert!(crate::util::error::is_user_error(&err));
        assert_eq!(Flags::default().first_set(), None);
    }
}
