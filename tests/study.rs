//! Study files are checked when they load: every error names the file and line, and a
//! block that reads several experiments, a tuning's tables or targets relative to a
//! reference declares what it needs.

use searchlab::study::{Known, Study, parse};
use std::collections::{BTreeMap, BTreeSet};

const STUDY: &str = r#"title = "T"
intro = "Runs of {config.e1.iterations} iterations."

[[question]]
title = "Q"
answer = "{cmp.best.group} and {f.count} with {config.e1.iterations}"

[[question.block]]
kind = "compare"
name = "cmp"
experiment = "e1"
group = "variant"
metric = "y"

[[question.block]]
kind = "facts"
name = "f"
experiment = "e1"
function = "d.f"
"#;

fn load(text: &str) -> anyhow::Result<Study> {
    let experiments: BTreeSet<String> = ["e1", "e2"].iter().map(|s| s.to_string()).collect();
    let facts: BTreeMap<String, Vec<String>> = [("d.f".to_string(), vec!["count".to_string()])]
        .into_iter()
        .collect();
    let references: BTreeSet<String> = ["d.best".to_string()].into_iter().collect();
    let known = Known {
        experiments: &experiments,
        fact_functions: &facts,
        board_functions: &BTreeSet::new(),
        reference_functions: &references,
    };
    parse(text, "s.toml", "s", &known)
}

fn err(text: &str) -> String {
    let e = load(text).unwrap_err();
    assert!(searchlab::util::error::is_user_error(&e), "{e}");
    let e = e.to_string();
    assert!(!e.contains('\n'), "{e}");
    e
}

#[test]
fn a_study_loads_with_its_blocks_and_lines() {
    let s = load(STUDY).unwrap();
    assert_eq!(s.name, "s");
    assert_eq!(s.questions[0].blocks.len(), 2);
    assert_eq!(s.questions[0].blocks[0].line, 8);
    assert_eq!(s.experiments(), vec!["e1"]);
}

#[test]
fn errors_name_the_line() {
    let e = err(&STUDY.replace("\"e1\"\ngroup", "\"e3\"\ngroup"));
    assert!(e.starts_with("s.toml:8: unknown experiment \"e3\""), "{e}");
    assert!(err(&STUDY.replace("{f.count}", "{f.total}")).starts_with("s.toml:6: answer:"));
    assert!(
        err(&STUDY.replace("{cmp.best.group}", "{nope.x}")).contains("nothing before it computes")
    );
    let e = err(&STUDY.replace("metric = \"y\"", "metric = \"y\"\ncolour = 1"));
    assert!(e.starts_with("s.toml:"), "{e}");
    assert!(err(&STUDY.replace("kind = \"compare\"", "kind = \"pie\"")).contains("pie"));
    assert!(err(&STUDY.replace("metric = \"y\"\n", "")).contains("needs metric"));
    assert!(err(&STUDY.replace("\"d.f\"", "\"d.g\"")).contains("unknown fact function"));
    // An intro quoting a fact nothing computes: the intro's line.
    let e = err(&STUDY.replace("{config.e1.iterations} iterations.", "{x.y}."));
    assert!(e.starts_with("s.toml:2: intro:"), "{e}");
}

#[test]
fn block_names_are_unique() {
    let twice = format!(
        "{STUDY}\n[[question.block]]\nkind = \"table\"\nname = \"cmp\"\nexperiment = \"e1\"\ngroup = \"variant\"\nmetric = \"y\"\n"
    );
    let e = err(&twice);
    assert!(
        e.starts_with("s.toml:21: a second block is named \"cmp\" (the first is at s.toml:8)"),
        "{e}"
    );
}

#[test]
fn blocks_read_several_experiments_and_tunings() {
    let both = STUDY.replace(
        "name = \"cmp\"\nexperiment = \"e1\"",
        "name = \"cmp\"\nexperiment = [\"e1\", \"e2/tuned\"]",
    );
    let s = load(&both).unwrap();
    assert_eq!(s.experiments(), vec!["e1", "e2"]);
    assert_eq!(s.runs(), vec!["e1"]);
    assert_eq!(s.tunes(), vec!["e2"]);
    let e = err(&STUDY.replace(
        "experiment = \"e1\"\ngroup",
        "experiment = [\"e1\", \"e2/raced\"]\ngroup",
    ));
    assert!(e.contains("\"raced\" is not a tuning's tables"), "{e}");
    let e = err(&STUDY.replace(
        "experiment = \"e1\"\ngroup",
        "experiment = [\"e1\", 3]\ngroup",
    ));
    assert!(e.starts_with("s.toml:"), "{e}");
}

#[test]
fn anytime_targets_are_absolute_or_relative() {
    let block = |extra: &str| {
        format!(
            "{STUDY}\n[[question.block]]\nkind = \"ecdf\"\nexperiment = \"e1\"\ngroup = \"variant\"\n{extra}\n"
        )
    };
    assert!(load(&block("targets = [-3, -4]")).is_ok());
    assert!(
        load(&block(
            "problem = \"size\"\nreference = \"d.best\"\nfractions = [0.9, 1.0]\nper = \"cells\""
        ))
        .is_ok()
    );
    assert!(err(&block("")).contains("needs targets"));
    assert!(err(&block("targets = [-3]\nfractions = [1.0]")).contains("not both"));
    assert!(err(&block("reference = \"d.best\"\nfractions = [1.0]")).contains("need problem"));
    assert!(
        err(&block(
            "problem = \"size\"\nreference = \"d.nope\"\nfractions = [1.0]"
        ))
        .contains("unknown reference function")
    );
    let fixed = format!(
        "{STUDY}\n[[question.block]]\nkind = \"fixed_budget\"\nexperiment = \"e1\"\ngroup = \"variant\"\nbudgets = [1e4, 1e6]\n"
    );
    assert!(load(&fixed).is_ok());
    assert!(
        err(&fixed.replace("budgets = [1e4, 1e6]", "budgets = [0]")).contains("positive budgets")
    );
    let e = err(&fixed.replace("budgets = [1e4, 1e6]", "budgets = [1e4]\ntargets = [1]"));
    // A key the kind does not take is serde's error, naming the block's line.
    assert!(
        e.starts_with("s.toml:") && e.contains("unknown field `targets`"),
        "{e}"
    );
}

#[test]
fn number_formats_are_checked_on_loading() {
    // Past 65,535 decimals `format!` panics: a format is capped when the study loads.
    let e = err(&STUDY.replace("{f.count}", "{f.count:.65536}"));
    assert!(
        e.starts_with("s.toml:6: answer: {f.count}: format \".65536\" asks for more than 17"),
        "{e}"
    );
    let e = err(&STUDY.replace("{config.e1.iterations} iterations", "{config.e1.x:~70000}"));
    assert!(
        e.starts_with("s.toml:2: intro: {config.e1.x}: format"),
        "{e}"
    );
    let e = err(&STUDY.replace("{f.count}", "{f.count:.+3}"));
    assert!(e.contains("unknown format \".+3\""), "{e}");
    let e = err(&STUDY.replace("metric = \"y\"", "metric = \"y\"\ndigits = 65536"));
    assert!(e.starts_with("s.toml:8: digits = 65536: at most 17"), "{e}");
    assert!(load(&STUDY.replace("{f.count}", "{f.count:.17}")).is_ok());
    assert!(load(&STUDY.replace("metric = \"y\"", "metric = \"y\"\ndigits = 17")).is_ok());
}

#[test]
fn derived_columns_are_checked_on_loading() {
    // A study's derived column, on line 3: the blocks that name it compute it.
    let with = |derive: &str| {
        STUDY.replacen(
            "\n\n[[question]]",
            &format!("\n{derive}\n\n[[question]]"),
            1,
        )
    };
    let ok = with("derive = { ratio = \"y / MAX(y) OVER (PARTITION BY instance)\" }");
    let ranked = ok.replace("metric = \"y\"", "metric = \"ratio\"\nbetter = \"lower\"");
    let s = load(&ranked).unwrap();
    assert_eq!(s.derive["ratio"], "y / MAX(y) OVER (PARTITION BY instance)");
    let inherited = |i: usize| {
        s.questions[0].blocks[i]
            .read
            .inherited
            .keys()
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(inherited(0), ["ratio"]);
    assert!(
        inherited(1).is_empty(),
        "the facts block names no derived column"
    );
    // A ranking of a derived metric says which way is better.
    let e = err(&ok.replace("metric = \"y\"", "metric = \"ratio\""));
    assert!(
        e.starts_with("s.toml:9: metric ratio is a derived column, which declares no direction: a compare block ranks it, so say better = \"lower\" or \"higher\""),
        "{e}"
    );
    // An expression polars cannot parse: the study's line, the name and the expression.
    let e = err(&with("derive = { ratio = \"y / (\" }"));
    assert!(
        e.starts_with(
            "s.toml:3: derive.ratio = \"y / (\": polars cannot read it as an SQL expression"
        ),
        "{e}"
    );
    assert!(err(&with("derive = { \"a b\" = \"y\" }")).contains("is not a column name"));
    // A block's own: parsed, not named as the study's, not on the anytime table.
    let own = |derive: &str| {
        STUDY.replace(
            "metric = \"y\"",
            &format!("metric = \"y\"\nderive = {derive}"),
        )
    };
    assert!(load(&own("{ z = \"y * 2\" }")).is_ok());
    let e = err(&own("{ z = \"y +\" }"));
    assert!(
        e.starts_with("s.toml:8: derive.z = \"y +\": polars cannot read it"),
        "{e}"
    );
    let e = err(&ok.replace(
        "metric = \"y\"",
        "metric = \"y\"\nderive = { ratio = \"y * 2\" }",
    ));
    assert!(
        e.contains("derive.ratio: the study derives ratio for every block"),
        "{e}"
    );
    let e = err(&format!(
        "{STUDY}\n[[question.block]]\nkind = \"ecdf\"\nexperiment = \"e1\"\ngroup = \"variant\"\ntargets = [1]\nderive = {{ z = \"y * 2\" }}\n"
    ));
    assert!(
        e.starts_with("s.toml:21: derived columns (z) are computed on the runs' table, one row per run; a ecdf block reads the anytime table"),
        "{e}"
    );
    // A template's ratio of two facts: each checked as a fact.
    assert!(load(&STUDY.replace("{f.count}", "{f.count / cmp.best.median:~1}")).is_ok());
    let e = err(&STUDY.replace("{f.count}", "{f.count / nope.x}"));
    assert!(
        e.contains("{nope.x} names a fact that nothing before it computes"),
        "{e}"
    );
}

#[test]
fn facts_of_the_same_name_are_refused() {
    // A second facts block of the same function, unnamed: its facts would override.
    let twice = format!(
        "{STUDY}\n[[question.block]]\nkind = \"facts\"\nexperiment = \"e2\"\nfunction = \"d.f\"\n"
    );
    let e = err(&twice);
    assert!(
        e.starts_with("s.toml:21: this block's facts would be f."),
        "{e}"
    );
    let named_config = STUDY.replace("name = \"f\"", "name = \"config\"");
    let e = err(&named_config);
    assert!(
        e.starts_with("s.toml:15: this block's facts would be config."),
        "{e}"
    );
}

mod common;
use common::{assert_user_error, run_in, toy_project};

#[test]
fn a_broken_study_breaks_only_itself_and_a_study_may_be_a_path() {
    let p = toy_project();
    let studies = p.path().join("experiments");
    std::fs::write(
        studies.join("broken.toml"),
        "title = \"B\"\n[[question]]\nnope = 1\n",
    )
    .unwrap();
    std::fs::write(
        studies.join("bytes.toml"),
        b"title = \"B\"\nintro = \"\xff\"\n",
    )
    .unwrap();
    let list = run_in(Some(p.path()), &["list"], "");
    assert_eq!(list.code, 0, "{}", list.stderr);
    let studies_part = list.stdout.split("Studies of the report").nth(1).unwrap();
    let line = |name: &str| {
        studies_part
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} in {studies_part}"))
            .to_string()
    };
    assert!(line("broken").contains("invalid: "), "{}", line("broken"));
    assert!(
        line("bytes").contains("bytes.toml:2: the study is not UTF-8 text"),
        "{}",
        line("bytes")
    );
    assert!(line("toy").contains("A toy study"), "{}", line("toy"));
    let out = p.path().join("out");
    let out = out.to_str().unwrap();
    let report = |study: &str| {
        let args = ["report", "--study", study, "--out", out, "--quiet"];
        run_in(Some(p.path()), &args, "")
    };
    let r = report("broken");
    assert_user_error(&r, "broken.toml:3:");
    let r = report("bytes");
    assert_user_error(&r, "bytes.toml:2: the study is not UTF-8 text");
    // A study given as a path, outside experiments/, is read as the others.
    let elsewhere = p.path().join("mine.toml");
    let toy = std::fs::read_to_string(studies.join("toy.toml")).unwrap();
    std::fs::write(
        &elsewhere,
        toy.replace(
            "metric = \"best_path_length\"\ntitle",
            "metric = \"best_maze\"\ntitle",
        ),
    )
    .unwrap();
    let r = report(elsewhere.to_str().unwrap());
    assert_user_error(
        &r,
        "mine.toml:16: metric \"best_maze\" of experiment toy is text",
    );
    let tuned = toy.replace("experiment = \"toy\"\nx", "experiment = \"toy/tuned\"\nx");
    std::fs::write(&elsewhere, tuned).unwrap();
    let r = report(elsewhere.to_str().unwrap());
    assert_user_error(
        &r,
        "mine.toml:16: experiment \"toy/tuned\" reads a tuning, but",
    );
    let r = report("toy");
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn styles_facets_and_printed_sizes_are_checked_on_loading() {
    let with = |top: &str, block: &str| {
        STUDY
            .replacen("title = \"T\"\n", &format!("title = \"T\"\n{top}\n"), 1)
            .replace("metric = \"y\"\n", &format!("metric = \"y\"\n{block}\n"))
    };
    let s = load(&with(
        "styles = { restarts = { colour = \"blue\" }, \"0.999\" = { colour = \"#102030\", dash = \"dotted\", marker = \"cross\" } }",
        "",
    ))
    .unwrap();
    let names: Vec<&str> = s.styles.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, vec!["0.999", "restarts"]);
    for (top, says) in [
        (
            "styles = { restarts = { colour = \"teal\" } }",
            "s.toml:2: styles.restarts: colour \"teal\": a palette colour",
        ),
        (
            "styles = { restarts = { colour = \"blue\", width = 2 } }",
            "unknown field `width`",
        ),
        (
            "styles = { a = { colour = \"blue\" }, b = { colour = \"blue\", marker = \"square\" } }",
            "styles.b has the colour and dash of styles.a",
        ),
    ] {
        let e = err(&with(top, ""));
        assert!(e.contains(says), "{top}: {e}");
    }
    // A compare block is a table: figure keys do not apply to it.
    let e = err(&with("", "facet = \"size\""));
    assert!(e.contains("s.toml:9: x_label, y_label, facet, width, height or font_size does not apply to a compare block"), "{e}");
    let figure = |keys: &str| {
        format!(
            "title = \"T\"\n[[question]]\ntitle = \"Q\"\n[[question.block]]\nkind = \"box\"\nexperiment = \"e1\"\nx = \"size\"\nmetric = \"y\"\n{keys}\n"
        )
    };
    let s = load(&figure(
        "facet = \"instance\"\nwidth = 12\nheight = 7\nfont_size = 9",
    ))
    .unwrap();
    let spec = s.questions[0].blocks[0].figure().unwrap();
    assert_eq!(spec.facet.as_deref(), Some("instance"));
    let p = spec.print(3);
    assert_eq!((p.width_cm, p.height_cm, p.font_pt), (12.0, 7.0, 9.0));
    let e = err(&figure("font_size = 3"));
    assert!(
        e.contains("font_size = 3: tick labels are 5 to 24 pt"),
        "{e}"
    );
    let e = err(&figure("width = 100"));
    assert!(e.contains("a figure is 3 to 40 cm wide"), "{e}");
}

#[test]
fn the_tiles_study_states_the_speed_up_over_manhattan_per_instance() {
    use polars::prelude::{Column, DataFrame};
    use searchlab::present::derive::{Derived, apply, column_is_timing};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/tiles.toml");
    let study: toml::Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let sql = study["derive"]["speedup"].as_str().unwrap();
    let d = Derived::parse("speedup", sql).unwrap();
    assert!(column_is_timing("speedup", std::slice::from_ref(&d)));
    // Two instances, in an order that puts Manhattan neither first nor last.
    let runs = DataFrame::new_infer_height(vec![
        Column::new("instance".into(), [2i64, 1, 2, 1, 2, 1]),
        Column::new(
            "heuristic".into(),
            ["linear", "linear", "manhattan", "manhattan", "all", "all"],
        ),
        Column::new("time_seconds".into(), [0.5f64, 1.0, 2.0, 3.0, 0.25, 0.3]),
    ])
    .unwrap();
    let out = apply(&runs, &[d]).unwrap();
    let got = searchlab::pipeline::table::floats(&out, "speedup").unwrap();
    for (g, want) in got.iter().zip([4.0, 3.0, 1.0, 1.0, 8.0, 10.0]) {
        assert!((g.unwrap() - want).abs() < 1e-12, "{got:?}");
    }
}
