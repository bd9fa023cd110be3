//! Property tests of every parser a user reaches: experiment configs (and their plans),
//! `--set` values, study files, tile instances, maze files, peg boards, prompt answers
//! and flags, journal lines. Each gets random bytes, soups of the format's own tokens
//! and mutations of a valid file; none may panic, and every error is a user error (exit
//! code 2) on one line.
//!
//! Each property runs 3,000 cases by default (drawn from its strategies: random bytes,
//! token soups, mutations of a valid file), so a few thousand per parser. The longer
//! run sets `PROPTEST_CASES`, e.g. `PROPTEST_CASES=100000 cargo test --release --test fuzz`.

use proptest::prelude::*;
use searchlab::util::error::is_user_error;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
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
        check(
            searchlab::pipeline::plan::plan(c, &runners).map(|_| ()),
            text,
        );
    }
    check(parsed, text);
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn experiment_configs(text in any_of(CONFIG, TOML_TOKENS)) {
        config_and_plan(&text, &[]);
    }

    #[test]
    fn experiment_configs_with_variants(text in mutate(CONFIG_VARIANTS, TOML_TOKENS)) {
        config_and_plan(&text, &[]);
    }

    #[test]
    fn set_values(set in any_of("sweep.decay=[0.9, 0.99]", TOML_TOKENS)) {
        config_and_plan(CONFIG, &[set]);
    }

    #[test]
    fn study_files(text in any_of(STUDY, STUDY_TOKENS)) {
        let experiments: std::collections::BTreeSet<String> =
            ["rjm_sideways", "rjm_restarts", "rjm_escape", "rjm_schedules", "rjm_best"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let functions = searchlab::domain::functions(&searchlab::registry::domains());
        let facts: std::collections::BTreeMap<String, Vec<String>> = functions
            .facts
            .iter()
            .map(|f| (f.name.to_string(), f.facts.iter().map(|s| s.to_string()).collect()))
            .collect();
        let boards: std::collections::BTreeSet<String> =
            functions.boards.iter().map(|f| f.name.to_string()).collect();
        let known = searchlab::study::Known {
            experiments: &experiments,
            fact_functions: &facts,
            board_functions: &boards,
            reference_functions: &boards,
        };
        check(searchlab::study::parse(&text, "s.toml", "s", &known), &text);
    }

    #[test]
    fn tile_instances(
        text in any_of(TILES, TILES_TOKENS),
        width in prop::option::of(0usize..8),
        height in prop::option::of(0usize..8),
    ) {
        use searchlab::tiles::board::Board;
        check(Board::parse(&text, None, None, "i.txt"), &text);
        let parsed = Board::parse(&text, width, height, "i.txt");
        if let Ok(b) = &parsed {
            let goal = Board::default_goal(b.shape(), b.blanks());
            check(b.check_goal(&goal, "i.txt"), &text);
        }
        check(parsed, &text);
    }

    #[test]
    fn maze_files(text in any_of(MAZE, MAZE_TOKENS)) {
        check(searchlab::rjm::text::parse_maze(&text, "m.txt"), &text);
    }

    #[test]
    fn peg_boards(text in any_of(BOARD, BOARD_TOKENS)) {
        check(searchlab::pegsol::levels::parse_board(&text, "b.txt"), &text);
    }

    #[test]
    fn prompt_answers(answer in prop_oneof![
        prop::collection::vec(any::<u8>(), 0..100),
        soup(ANSWER_TOKENS).prop_map(String::into_bytes),
    ]) {
        use searchlab::util::prompt::{ask, decay, positive_int, probability, temperature};
        let shown = String::from_utf8_lossy(&answer).into_owned();
        check(ask(&mut &answer[..], &mut std::io::sink(), "Iterations? ", positive_int), &shown);
        check(ask(&mut &answer[..], &mut std::io::sink(), "Uphill? ", probability), &shown);
        check(ask(&mut &answer[..], &mut std::io::sink(), "T0? ", temperature), &shown);
        check(ask(&mut &answer[..], &mut std::io::sink(), "Decay? ", decay), &shown);
        let it = searchlab::pipeline::params::ParamSpec::int("iterations", 1, 1_000_000_000, None, "");
        let _ = it.int_from_text(&shown);
        let t = searchlab::pipeline::params::ParamSpec::float("t", 0.0, 1e12, true, None, "");
        let _ = t.float_from_text(&shown);
    }

    #[test]
    fn flags(text in any_of("1,500,000", ANSWER_TOKENS)) {
        check(searchlab::pegsol::cli::parse_budget(&text), &text);
        let _ = searchlab::util::memory::parse_memory_limit(&text);
        check(searchlab::tiles::board::MoveOrder::parse(&text), &text);
    }

    #[test]
    fn journal_lines(text in prop_oneof![
        prop::collection::vec(any::<u8>(), 0..400),
        soup(JOURNAL_TOKENS).prop_map(String::into_bytes),
        mutate(journal_line(), JOURNAL_TOKENS).prop_map(String::into_bytes),
    ]) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        std::fs::write(&path, &text).unwrap();
        let (records, damaged) = searchlab::pipeline::journal::read_records(&path).unwrap();
        let lines = text.split(|&b| b == b'\n').count();
        prop_assert!(records.len() + damaged.len() <= lines);
        let mut j = searchlab::pipeline::journal::Journal::open(&path).unwrap();
        j.append("k9", &searchlab::pipeline::journal::RunRecord {
            metrics: vec![],
            anytime: vec![],
        }).unwrap();
        let (again, _) = searchlab::pipeline::journal::read_records(&path).unwrap();
        prop_assert!(again.contains_key("k9"));
    }
}
