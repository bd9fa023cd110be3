//! Property tests of every parser a user reaches: experiment configs (and their plans),
//! `--set` values, study files (and their blocks checked against the configs' plans),
//! tile instances, maze files, peg boards, prompt answers and flags, journal lines.
//! Each gets random bytes, soups of the format's own tokens and mutations of a valid
//! file; none may panic, every error is a user error (exit code 2) on one line, and an
//! error about a file or a `--set` names it.
//!
//! By default each property runs 3,000 cases (`PROPTEST_CASES` changes that). The
//! standing fuzz run gives the whole run a time instead, shared equally by the
//! properties, each running batches of cases until its share is spent and printing how
//! many it tried:
//!
//! ```sh
//! SEARCHLAB_FUZZ_SECONDS=600 cargo test --release --test fuzz -- --nocapture --test-threads 1
//! ```

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use searchlab::util::error::is_user_error;
use std::time::{Duration, Instant};

/// How many properties share `SEARCHLAB_FUZZ_SECONDS`.
const PROPERTIES: u32 = 12;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Runs `property` on values of `strategy`: 3,000 cases (or `PROPTEST_CASES`), or with
/// `SEARCHLAB_FUZZ_SECONDS` set, batches of cases until this property's share of that
/// time is spent. Prints the number of cases tried; a failure panics with the smallest
/// failing input proptest found.
fn fuzz<S: Strategy>(
    name: &str,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let timed = env("SEARCHLAB_FUZZ_SECONDS");
    let cases = env("PROPTEST_CASES").map_or(3000, |c| c.min(u64::from(u32::MAX)) as u32);
    let batch = if timed.is_some() { 500 } else { cases };
    let started = Instant::now();
    let share = Duration::from_secs(timed.unwrap_or(0)) / PROPERTIES;
    let mut tried = 0u64;
    loop {
        // A runner counts its cases: each batch has its own (and its own random seed).
        let mut runner = TestRunner::new(config(batch));
        if let Err(e) = runner.run(&strategy, &property) {
            panic!("{name}: {e}");
        }
        tried += u64::from(batch);
        if timed.is_none() || started.elapsed() >= share {
            break;
        }
    }
    eprintln!(
        "fuzz {name}: {tried} cases in {:.0} s",
        started.elapsed().as_secs_f64()
    );
}

/// Accepts or a one-line user error; anything else (a panic, an internal error) fails.
fn check<T>(result: anyhow::Result<T>, input: &str) {
    if let Err(e) = result {
        assert!(is_user_error(&e), "not a user error: {e:#} for {input:?}");
        let line = searchlab::util::error::one_line(&e);
        assert!(!line.contains('\n'), "{line:?}");
        assert!(
            line.len() < 2000,
            "a long message for {input:?}: {}",
            line.len()
        );
    }
}

/// [`check`], and an error names where: it starts with one of `places` (the file's
/// name as given, or the `--set`).
fn check_at<T>(result: anyhow::Result<T>, input: &str, places: &[&str]) {
    if let Err(e) = &result {
        let line = searchlab::util::error::one_line(e);
        assert!(
            places.iter().any(|p| line.starts_with(p)),
            "no location in {line:?} for {input:?}"
        );
    }
    check(result, input);
}

/// Random bytes as text (lossily, as a file would be if it were read as UTF-8).
fn bytes() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<u8>(), 0..400).prop_map(|b| String::from_utf8_lossy(&b).into())
}

/// A soup of `tokens` joined by nothing, spaces or newlines.
fn soup(tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::sample::select(tokens),
            prop::sample::select(&["", " ", "\n", "\t"][..]),
        ),
        0..60,
    )
    .prop_map(|parts| parts.into_iter().flat_map(|(t, s)| [t, s]).collect())
}

/// Mutations of `valid`: byte ranges deleted, duplicated or replaced with tokens.
fn mutate(valid: &'static str, tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            0..4u8,
            any::<prop::sample::Index>(),
            0..40usize,
            prop::sample::select(tokens),
        ),
        1..6,
    )
    .prop_map(move |edits| {
        let mut s: Vec<u8> = valid.as_bytes().to_vec();
        for (op, at, len, token) in edits {
            let i = at.index(s.len() + 1);
            let j = (i + len).min(s.len());
            match op {
                0 => {
                    s.drain(i..j);
                }
                1 => {
                    let piece = s[i..j].to_vec();
                    s.splice(i..i, piece);
                }
                2 => {
                    s.splice(i..j, token.bytes());
                }
                _ => {
                    s.splice(i..i, token.bytes());
                }
            }
        }
        String::from_utf8_lossy(&s).into_owned()
    })
}

fn any_of(valid: &'static str, tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![bytes(), soup(tokens), mutate(valid, tokens)]
}

const CONFIG: &str = include_str!("../configs/quickstart.toml");
const CONFIG_VARIANTS: &str = include_str!("../configs/rjm_schedules.toml");
const TOML_TOKENS: &[&str] = &[
    "[experiment]",
    "[params]",
    "[sweep]",
    "[replicates]",
    "[[table]]",
    "[[plot]]",
    "[[variant]]",
    "name",
    "domain",
    "algorithm",
    "=",
    "\"rjm\"",
    "\"tiles\"",
    "\"pegsol\"",
    "\"anneal\"",
    "\"hill_descent\"",
    "evaluations",
    "size",
    "count",
    "base_seed",
    "{",
    "}",
    "[",
    "]",
    ",",
    ".",
    "\"",
    "start",
    "stop",
    "step",
    "num",
    "scale",
    "\"log\"",
    "nan",
    "inf",
    "-inf",
    "1e308",
    "-9223372036854775808",
    "9223372036854775807",
    "0",
    "1",
    "-1",
    "0.5",
    "1e-300",
    "true",
    "\"../x\"",
    "\"\"",
    "kind",
    "\"line\"",
    "y",
    "x",
    "#",
    "'''",
    "\\u0000",
    "\"none\"",
    "decay",
    "initial_temperature",
    "replicates",
    "sweep.decay",
    "params.size",
    "0x10",
    "1_0_0",
    "+100",
    "0.990",
    "0.99",
    "\nsize = 9",
];

const STUDY: &str = include_str!("../experiments/rjm.toml");
const STUDY_TOKENS: &[&str] = &[
    "title",
    "order",
    "intro",
    "default",
    "[[question]]",
    "[[question.block]]",
    "kind",
    "\"compare\"",
    "experiment",
    "\"rjm_sideways\"",
    "metric",
    "group",
    "where",
    "answer",
    "{sideways.best.group}",
    "{config.rjm_sideways.evaluations:.1}",
    "{sideways.best.median:.65536}",
    "{sideways.best.median:~70000}",
    ":.18",
    "digits",
    "65536",
    "columns",
    "\"facts\"",
    "\"table\"",
    "\"line\"",
    "source",
    "\"tuned\"",
    "\"rjm_schedules/tuned\"",
    "=",
    "\"",
    "\"\"\"",
    "[",
    "]",
    ",",
    "\"rjm_sideways\"",
    "\"rjm_no_sideways\"",
    "1",
    "-1",
    "true",
    "\"x\"",
    "#",
    "name",
    "\\",
    "{",
    "}",
];

const STUDY_KINDS: &str = include_str!("../experiments/tiles.toml");

const FORMAT_TOKENS: &[&str] = &[
    ".",
    "~",
    ",",
    "p",
    "%",
    "0",
    "1",
    "17",
    "18",
    "65535",
    "65536",
    "70000",
    "-",
    "+",
    " ",
    "99999999999999999999",
    "e",
];

const TILES: &str = "8 1 3\n4 0 2\n7 6 5\n";
const TILES_TOKENS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "8",
    "15",
    "24",
    "25",
    "255",
    "256",
    "-1",
    "+2",
    "4294967296",
    "99999999999999999999",
    "x",
    "\n",
    " ",
    "\t",
    "\u{0663}",
    "1.5",
];

const MAZE: &str = "3 1 4 3 4\n2 2 1 3 1\n3 2 2 3 1\n4 1 3 1 4\n1 2 3 1 0\n";
const MAZE_TOKENS: &[&str] = &[
    "0", "1", "2", "3", "4", "9", "10", "255", "256", "-1", "x", "\n", " ", "\r\n", "+1",
];

const BOARD: &str = "--ooo--\n--ooo--\nooooooo\nooo.ooo\nooooooo\n--ooo--\n--ooo--\n";
const BOARD_TOKENS: &[&str] = &[
    "o",
    ".",
    "-",
    " ",
    "\n",
    "#",
    "x",
    "level 4: 32 pegs",
    " o ",
    " . ",
    "   ",
    "\r\n",
    "oooooooooo",
];

const ANSWER_TOKENS: &[&str] = &[
    "0",
    "1",
    "250",
    "-3",
    "1e20",
    "1e12",
    "0.5",
    "nan",
    "inf",
    "99999999999999999999",
    "18446744073709551615",
    " ",
    "\n",
    "x",
    "+",
    ".",
    "e",
    "\u{00ff}",
];

const JOURNAL_TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"key\"",
    "\"metrics\"",
    "\"anytime\"",
    "\"a\"",
    "1",
    "-1",
    "1e400",
    "null",
    "true",
    "\"x\"",
    "\n",
    "1.5",
    "18446744073709551616",
];

fn journal_line() -> &'static str {
    static LINE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LINE.get_or_init(|| {
        use searchlab::pipeline::journal::{RunRecord, encode};
        use searchlab::pipeline::params::Value;
        let o = RunRecord {
            metrics: vec![
                ("best_path_length".into(), Value::Int(18)),
                (
                    "final_temperature".into(),
                    Value::Float(7.4979578049897895e-22),
                ),
                ("best_maze".into(), Value::Str("3 1/2 2".into())),
                ("solved".into(), Value::Bool(true)),
            ],
            anytime: vec![(1, -3.0), (10, -7.5)],
        };
        format!("{}\n{}\n", encode("k1", &o), encode("k2", &o))
    })
}

fn config_and_plan(text: &str, sets: &[String]) {
    let domains = searchlab::registry::domains();
    let runners = searchlab::domain::runners(&domains);
    let parsed = searchlab::pipeline::config::parse(text, "f.toml", sets);
    if let Ok(c) = &parsed
        && c.run_count() <= 10_000
    {
        check_at(
            searchlab::pipeline::plan::plan(c, &runners).map(|_| ()),
            text,
            &["f.toml", "--set"],
        );
    }
    check_at(parsed, text, &["f.toml", "--set"]);
}

/// A study checked as `report` checks it: parsed against the built-in configs and the
/// domains' functions, then each block against the plans of the configs it reads.
fn study(text: &str) {
    let domains = searchlab::registry::domains();
    let runners = searchlab::domain::runners(&domains);
    let functions = searchlab::domain::functions(&domains);
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let experiments: std::collections::BTreeSet<String> = searchlab::util::catalog::CONFIGS
        .entries(base)
        .into_keys()
        .collect();
    let facts: std::collections::BTreeMap<String, Vec<String>> = functions
        .facts
        .iter()
        .map(|f| {
            (
                f.name.to_string(),
                f.facts.iter().map(|s| s.to_string()).collect(),
            )
        })
        .collect();
    let names = |n: Vec<&str>| n.into_iter().map(String::from).collect();
    let boards = names(functions.boards.iter().map(|f| f.name).collect());
    let references = names(functions.references.iter().map(|f| f.name).collect());
    let known = searchlab::study::Known {
        experiments: &experiments,
        fact_functions: &facts,
        board_functions: &boards,
        reference_functions: &references,
    };
    let parsed = searchlab::study::parse(text, "s.toml", "s", &known);
    if let Ok(s) = &parsed {
        let mut plans = Vec::new();
        for name in s.experiments() {
            let config = searchlab::pipeline::config::load_named(base, &name, &[]).unwrap();
            let plan = searchlab::pipeline::plan::plan(&config, &runners).unwrap();
            plans.push((name, plan));
        }
        let plan_of = |e: &str| plans.iter().find(|(n, _)| n == e).map(|(_, p)| p);
        check_at(
            searchlab::report::check_columns(s, &plan_of),
            text,
            &["s.toml:"],
        );
    }
    check_at(parsed, text, &["s.toml"]);
}

fn journal(text: &[u8]) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.jsonl");
    std::fs::write(&path, text).unwrap();
    let shown = String::from_utf8_lossy(text);
    // Two records of one run that disagree are an error naming the lines.
    let read = searchlab::pipeline::journal::read_records(&path);
    let Ok((records, damaged)) = read else {
        check_at(read, &shown, &[path.to_str().unwrap()]);
        return Ok(());
    };
    let lines = text.split(|&b| b == b'\n').count();
    prop_assert!(records.len() + damaged.len() <= lines);
    let mut j = searchlab::pipeline::journal::Journal::open(&path).unwrap();
    j.append(
        "k9",
        &searchlab::pipeline::journal::RunRecord {
            metrics: vec![],
            anytime: vec![],
        },
    )
    .unwrap();
    let (again, _) = searchlab::pipeline::journal::read_records(&path).unwrap();
    prop_assert!(again.contains_key("k9"));
    // Nothing that was read is lost by opening the journal to append.
    for key in records.keys() {
        prop_assert!(again.contains_key(key), "{key} lost");
    }
    Ok(())
}

#[test]
fn experiment_configs() {
    fuzz("experiment_configs", any_of(CONFIG, TOML_TOKENS), |text| {
        config_and_plan(&text, &[]);
        Ok(())
    });
}

#[test]
fn experiment_configs_with_variants() {
    fuzz(
        "experiment_configs_with_variants",
        mutate(CONFIG_VARIANTS, TOML_TOKENS),
        |text| {
            config_and_plan(&text, &[]);
            Ok(())
        },
    );
}

#[test]
fn set_values() {
    fuzz(
        "set_values",
        any_of("sweep.decay=[0.9, 0.99]", TOML_TOKENS),
        |set| {
            config_and_plan(CONFIG, &[set]);
            Ok(())
        },
    );
}

#[test]
fn study_files() {
    fuzz("study_files", any_of(STUDY, STUDY_TOKENS), |text| {
        study(&text);
        Ok(())
    });
}

#[test]
fn study_files_of_every_block_kind() {
    fuzz(
        "study_files_of_every_block_kind",
        mutate(STUDY_KINDS, STUDY_TOKENS),
        |text| {
            study(&text);
            Ok(())
        },
    );
}

#[test]
fn tile_instances() {
    let strategy = (
        any_of(TILES, TILES_TOKENS),
        prop::option::of(0usize..8),
        prop::option::of(0usize..8),
    );
    fuzz("tile_instances", strategy, |(text, width, height)| {
        use searchlab::tiles::board::Board;
        check_at(Board::parse(&text, None, None, "i.txt"), &text, &["i.txt"]);
        let parsed = Board::parse(&text, width, height, "i.txt");
        if let Ok(b) = &parsed {
            let goal = Board::default_goal(b.shape(), b.blanks());
            check(b.check_goal(&goal, "i.txt"), &text);
        }
        check(parsed, &text);
        Ok(())
    });
}

#[test]
fn maze_files() {
    fuzz("maze_files", any_of(MAZE, MAZE_TOKENS), |text| {
        check_at(
            searchlab::rjm::text::parse_maze(&text, "m.txt"),
            &text,
            &["m.txt"],
        );
        Ok(())
    });
}

#[test]
fn peg_boards() {
    fuzz("peg_boards", any_of(BOARD, BOARD_TOKENS), |text| {
        check_at(
            searchlab::pegsol::levels::parse_board(&text, "b.txt"),
            &text,
            &["b.txt"],
        );
        Ok(())
    });
}

#[test]
fn prompt_answers() {
    let strategy = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..100),
        soup(ANSWER_TOKENS).prop_map(String::into_bytes),
    ];
    fuzz("prompt_answers", strategy, |answer| {
        use searchlab::util::prompt::{ask, decay, positive_int, probability, temperature};
        let shown = String::from_utf8_lossy(&answer).into_owned();
        let sink = &mut std::io::sink();
        check(
            ask(&mut &answer[..], sink, "Iterations? ", positive_int),
            &shown,
        );
        check(ask(&mut &answer[..], sink, "Uphill? ", probability), &shown);
        check(ask(&mut &answer[..], sink, "T0? ", temperature), &shown);
        check(ask(&mut &answer[..], sink, "Decay? ", decay), &shown);
        let it =
            searchlab::pipeline::params::ParamSpec::int("iterations", 1, 1_000_000_000, None, "");
        let _ = it.int_from_text(&shown);
        let t = searchlab::pipeline::params::ParamSpec::float("t", 0.0, 1e12, true, None, "");
        let _ = t.float_from_text(&shown);
        Ok(())
    });
}

#[test]
fn flags() {
    fuzz("flags", any_of("1,500,000", ANSWER_TOKENS), |text| {
        check(searchlab::pegsol::cli::parse_budget(&text), &text);
        let _ = searchlab::util::memory::parse_memory_limit(&text);
        check(searchlab::tiles::board::MoveOrder::parse(&text), &text);
        Ok(())
    });
}

#[test]
fn journal_lines() {
    let strategy = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..400),
        soup(JOURNAL_TOKENS).prop_map(String::into_bytes),
        mutate(journal_line(), JOURNAL_TOKENS).prop_map(String::into_bytes),
    ];
    fuzz("journal_lines", strategy, |text| journal(&text));
}

#[test]
fn number_formats() {
    let strategy = (
        soup(FORMAT_TOKENS),
        prop_oneof![any::<f64>(), any::<i64>().prop_map(|i| i as f64)],
    );
    fuzz("number_formats", strategy, |(format, x)| {
        use searchlab::present::facts::{Fact, check_format, format_fact};
        let checked = check_format(&format);
        let formatted = format_fact(&Fact::Num(x), &format);
        // What loading accepts formats every number.
        if checked.is_ok() {
            prop_assert!(formatted.is_ok(), "{format:?}: {formatted:?}");
        }
        Ok(())
    });
}
