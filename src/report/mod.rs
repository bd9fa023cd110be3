//! The report: the studies (`experiments/*.toml`, built in or the working folder's;
//! [`crate::study`]) rendered block by block ([`blocks`]; tables in `tables`, the
//! anytime views in `anytime`) into markdown, with each study's figures in
//! `figures/STUDY/` (so no study's report shows another's figure), and into one HTML
//! page ([`html`]) and a PDF ([`pdf`], written natively). What a report needs before anything runs is planned in [`plan`].
//!
//! The `report` command runs the experiments the chosen studies read and gives the
//! tables to [`render`], which is all the report knows of them: it never runs an
//! experiment and never names a schedule, a heuristic or a level. Questions, blocks and
//! answers are the studies'; numbers are computed from the tables or read from the
//! configs (`{config.<experiment>.<key>}`).

mod anytime;
pub mod blocks;
pub mod html;
pub mod pdf;
pub mod plan;
pub(crate) mod tables;

use crate::domain::Functions;
use crate::pipeline::plan::Plan;
use crate::present::facts::{Facts, fill};
use crate::util::catalog::{CONFIGS, STUDIES};

use crate::study::{Known, Source, Study};
use blocks::{Renderer, Tables};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every study (built in, or of the working folder `base`), checked against the configs
/// and the domains' functions, in report order; the first broken one is an error.
pub fn load_studies(base: &Path, functions: &Functions) -> anyhow::Result<Vec<Study>> {
    let mut studies = load_each(base, functions)
        .into_iter()
        .map(|(_, s)| s)
        .collect::<anyhow::Result<Vec<_>>>()?;
    studies.sort_by(|a, b| (a.order, &a.name).cmp(&(b.order, &b.name)));
    Ok(studies)
}

/// Every study by name, each checked on its own: a broken file is an error of its own
/// and breaks no other study.
pub fn load_each(base: &Path, functions: &Functions) -> Vec<(String, anyhow::Result<Study>)> {
    let experiments: BTreeSet<String> = CONFIGS.entries(base).into_keys().collect();
    let checked = Checked::new(functions, experiments);
    STUDIES
        .entries(base)
        .values()
        .map(|e| {
            let source = e.source(STUDIES.folder);
            let study = e
                .text("study")
                .and_then(|text| crate::study::parse(&text, &source, &e.name, &checked.known()));
            (e.name.clone(), study)
        })
        .collect()
}

/// A study file outside the catalog (`--study path/to/x.toml`), checked as the others.
pub fn load_file(base: &Path, path: &Path, functions: &Functions) -> anyhow::Result<Study> {
    let experiments: BTreeSet<String> = CONFIGS.entries(base).into_keys().collect();
    let checked = Checked::new(functions, experiments);
    let text = crate::util::input::read_file(path, "study")?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Its name names its report and figures' folder (`NAME.md`, `figures/NAME/`).
    let shown = path.display().to_string();
    if name == "report" {
        crate::user_bail!(
            "{shown}: a study file may not be named report.toml (report.md is the whole report's); rename it"
        );
    }
    crate::study::parse(&text, &path.display().to_string(), &name, &checked.known())
}

/// What studies are checked against: the configs and the domains' functions.
struct Checked {
    experiments: BTreeSet<String>,
    fact_functions: BTreeMap<String, Vec<String>>,
    board_functions: BTreeSet<String>,
    reference_functions: BTreeSet<String>,
}

impl Checked {
    fn new(functions: &Functions, experiments: BTreeSet<String>) -> Checked {
        let names =
            |n: Vec<&str>| -> BTreeSet<String> { n.into_iter().map(String::from).collect() };
        Checked {
            experiments,
            fact_functions: functions
                .facts
                .iter()
                .map(|f| {
                    let facts = f.facts.iter().map(|s| s.to_string()).collect();
                    (f.name.to_string(), facts)
                })
                .collect(),
            board_functions: names(functions.boards.iter().map(|f| f.name).collect()),
            reference_functions: names(functions.references.iter().map(|f| f.name).collect()),
        }
    }

    fn known(&self) -> Known<'_> {
        Known {
            experiments: &self.experiments,
            fact_functions: &self.fact_functions,
            board_functions: &self.board_functions,
            reference_functions: &self.reference_functions,
        }
    }
}

/// Checks, before anything runs, what a study's blocks need of their experiments'
/// plans: every column a block names is one of every table it reads (a metric one of
/// them lacks is an error), the tables of one block come from one domain, and the
/// metrics of rankings have a direction (declared, or the block's `better`).
pub fn check_columns<'p>(
    s: &Study,
    plan_of: &dyn Fn(&str) -> Option<&'p Plan<'p>>,
) -> anyhow::Result<()> {
    for b in s.questions.iter().flat_map(|q| &q.blocks) {
        check_block_plans(b, plan_of)
            .map_err(|e| crate::user_error!("{}:{}: {e}", s.source, b.line))?;
    }
    Ok(())
}

fn check_block_plans<'p>(
    b: &crate::study::Block,
    plan_of: &dyn Fn(&str) -> Option<&'p Plan<'p>>,
) -> Result<(), String> {
    let mut domain: Option<&str> = None;
    let derived = derivations(b)?;
    for (config, source, key) in b.tables() {
        let Some(plan) = plan_of(&config) else {
            continue;
        };
        match domain {
            Some(d) if d != plan.runner.domain => {
                return Err(format!(
                    "the experiments of one block are of one domain ({key} is {}, not {d})",
                    plan.runner.domain
                ));
            }
            _ => domain = Some(plan.runner.domain),
        }
        let mut known: Vec<&str> = match (source, b.reads_anytime()) {
            (Source::Runs | Source::Tuned, true) => plan.anytime_columns(),
            (Source::Runs | Source::Tuned, false) => plan.columns(),
            (Source::Race, _) => crate::tune::race_columns(plan),
            (Source::RaceSteps, _) => crate::tune::STEP_COLUMNS.to_vec(),
        };
        if !known.contains(&"experiment") {
            known.push("experiment");
        }
        for d in &derived {
            crate::present::derive::check_columns(d, &known)
                .map_err(|e| format!("experiment {key}: {e}"))?;
        }
        known.extend(derived.iter().map(|d| d.name.as_str()));
        if let Some(c) = b.columns().iter().find(|c| !known.contains(&c.as_str())) {
            let near = crate::util::suggest::did_you_mean(c, known.iter().copied());
            let algorithms: Vec<String> = plan
                .used()
                .map(|a| format!("{}/{}", plan.runner.domain, a.name))
                .collect();
            return Err(format!(
                "unknown column {} for experiment {key}{}",
                crate::util::input::excerpt(c),
                match near.is_empty() {
                    true => format!(
                        " (its columns: the run's, its parameters and metrics; see searchlab list {})",
                        algorithms.join(", ")
                    ),
                    false => near,
                }
            ));
        }
        // A figure or a statistic of text is empty or meaningless: refused here.
        for (what, c) in b.numeric_columns() {
            if plan.column_is_text(&c) {
                return Err(format!(
                    "{what} {c:?} of experiment {key} is text, not a number: a {} block needs a number there",
                    b.kind_name()
                ));
            }
        }
        if let (true, None, Some(m)) = (b.ranks(), b.better(), b.metric())
            && plan.metric(m).is_some_and(|spec| spec.better.is_none())
        {
            return Err(format!(
                "{m} declares no direction: say better = \"higher\" or \"lower\""
            ));
        }
    }
    Ok(())
}

/// The derived columns a block computes (its own and the study's it names), parsed.
pub(crate) fn derivations(
    b: &crate::study::Block,
) -> Result<Vec<crate::present::derive::Derived>, String> {
    b.read
        .derivations()
        .iter()
        .map(|(name, sql)| crate::present::derive::Derived::parse(name, sql))
        .collect()
}

/// The studies as markdown: contents, then each study's intro and questions, each
/// question's blocks in order and its answer. Each study's figures are saved in
/// `figures/STUDY/`.
pub fn render(
    studies: &[Study],
    tables: &Tables,
    functions: &Functions,
    figures: &Path,
) -> anyhow::Result<String> {
    let base = config_facts(tables);
    let mut md = String::from("## Contents\n\n");
    for s in studies {
        md.push_str(&format!(
            "- [{}](#{})\n",
            s.title,
            html::anchor_of(&s.title)
        ));
        for (i, q) in s.questions.iter().enumerate() {
            let heading = question_heading(i, &q.title);
            // As a heading, so that `1.` is not read as a list.
            let anchor = html::anchor_of(&format!("# {heading}"));
            md.push_str(&format!("  - [{heading}](#{anchor})\n"));
        }
    }
    md.push('\n');
    let styles = crate::present::plot::StyleBook::default();
    for (name, style) in studies.iter().flat_map(|s| &s.styles) {
        styles.declare(name, *style);
    }
    for s in studies {
        let renderer = Renderer {
            tables,
            functions,
            figures: figures.join(&s.name),
            link: format!("figures/{}", s.name),
            styles: &styles,
        };
        md.push_str(&render_study(s, &renderer, &base)?);
    }
    Ok(md)
}

/// One study's section: its title, intro, and each question's blocks and answer.
fn render_study(s: &Study, renderer: &Renderer, base: &Facts) -> anyhow::Result<String> {
    let mut md = format!("## {}\n\n", s.title);
    if !s.intro.trim().is_empty() {
        let intro = fill(s.intro.trim(), base)
            .map_err(|e| crate::user_error!("{}:{}: intro: {e}", s.source, s.intro_line))?;
        md.push_str(&intro);
        md.push_str("\n\n");
    }
    let mut facts = base.clone();
    for (i, q) in s.questions.iter().enumerate() {
        md.push_str(&format!("### {}\n\n", question_heading(i, &q.title)));
        if let Some(intro) = &q.intro {
            md.push_str(
                &fill(intro.trim(), &facts)
                    .map_err(|e| crate::user_error!("{}:{}: intro: {e}", s.source, q.intro_line))?,
            );
            md.push_str("\n\n");
        }
        for (j, b) in q.blocks.iter().enumerate() {
            let id = format!("{}_q{}_{}", s.name, i + 1, j + 1);
            let text = renderer.block(b, &id, &mut facts).map_err(|e| {
                let e = crate::util::error::one_line(&e);
                crate::user_error!("{}:{}: {e}", s.source, b.line)
            })?;
            if !text.trim().is_empty() {
                md.push_str(text.trim_end());
                md.push_str("\n\n");
            }
        }
        if let Some(answer) = &q.answer {
            let text = fill(answer.trim(), &facts)
                .map_err(|e| crate::user_error!("{}:{}: answer: {e}", s.source, q.answer_line))?;
            md.push_str(&format!("**Answer.** {text}\n\n"));
        }
    }
    Ok(md)
}

/// The facts every study may use: each config's, as `config.<experiment>.<key>`.
fn config_facts(tables: &Tables) -> Facts {
    let mut base = Facts::default();
    for (name, config) in &tables.configs {
        base.extend_prefixed(
            "config",
            crate::study::config_facts::config_facts(name, config, tables.tunes.get(name)),
        );
    }
    base
}

/// The heading of a study's `i`th question (from 0), as the contents list it.
fn question_heading(i: usize, title: &str) -> String {
    format!("{}. {title}", i + 1)
}

/// A short report of one study (the assignment's summary): its title as the document's,
/// its intro and questions, and no contents or table of runs. Its figures are saved in
/// `figures/STUDY/`.
pub fn short_document(
    study: &Study,
    tables: &Tables,
    functions: &Functions,
    figures: &Path,
) -> anyhow::Result<String> {
    let base = config_facts(tables);
    let styles = crate::present::plot::StyleBook::default();
    for (name, style) in &study.styles {
        styles.declare(name, *style);
    }
    let renderer = Renderer {
        tables,
        functions,
        figures: figures.join(&study.name),
        link: format!("figures/{}", study.name),
        styles: &styles,
    };
    let md = render_study(study, &renderer, &base)?;
    // The study's heading is the document's title.
    Ok(match md.strip_prefix("## ") {
        Some(rest) => format!("# {rest}"),
        None => md,
    })
}

/// An experiment or a tuning the report's command ran, for the table at its end.
pub struct Ran {
    pub name: String,
    pub runs: usize,
    pub computed: usize,
    pub seconds: f64,
    pub dir: std::path::PathBuf,
}

/// A whole report: its heading, the studies, and the table of what ran.
pub fn document(
    studies: &[Study],
    tables: &Tables,
    functions: &Functions,
    figures: &Path,
    ran: &[Ran],
    out: &Path,
    started: std::time::Instant,
) -> anyhow::Result<String> {
    let mut md = String::from("# searchlab report\n\n");
    md.push_str(&format!(
        "Generated by searchlab {} (commit {}). Every number below is computed from the result tables in {} \
         or read from the experiments' configs; rerunning `searchlab report` reuses finished runs and reproduces \
         the same tables (timing columns aside).\n\n",
        env!("CARGO_PKG_VERSION"),
        env!("SEARCHLAB_COMMIT"),
        code(&out.display().to_string())
    ));
    md.push_str(&render(studies, tables, functions, figures)?);
    md.push_str("## Experiments\n\n");
    let rows: Vec<Vec<String>> = ran
        .iter()
        .map(|r| {
            vec![
                code(&r.name),
                crate::util::numfmt::thousands(r.runs as u64),
                crate::util::numfmt::thousands(r.computed as u64),
                format!("{:.1}", r.seconds),
                code(&r.dir.display().to_string()),
            ]
        })
        .collect();
    let head = ["experiment", "runs", "computed now", "seconds", "tables"].map(String::from);
    md.push_str(&tables::table(&head, rows));
    md.push_str(&format!(
        "\nReport built in {:.1} s.\n",
        started.elapsed().as_secs_f64()
    ));
    // Study text and table values come from files anyone may have written: no control
    // character reaches the file (and a terminal that shows it).
    Ok(crate::util::input::printable(&md).into_owned())
}

/// `text` as a markdown code span, whatever backticks it holds: fenced by one more
/// backtick than its longest run, so a path cannot end the span and start markup.
pub fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let text = text.replace(['\n', '\r'], " ");
    match longest {
        0 => format!("{fence}{text}{fence}"),
        _ => format!("{fence} {text} {fence}"),
    }
}

/// Everything a named study needs, for `searchlab list`: its experiments.
pub fn describe(s: &Study) -> String {
    let n = s.questions.len();
    format!(
        "{} ({n} question{}: {})",
        s.title,
        if n == 1 { "" } else { "s" },
        s.experiments().join(", ")
    )
}

/// The facts blocks give templates and the functions studies may name, for `searchlab
/// list facts`: each block kind's facts (under the block's `name`, or its kind) and
/// each domain's fact, board, reference and canonical-form functions with what they
/// give.
pub fn facts_reference(domains: &[crate::domain::Domain]) -> String {
    use std::fmt::Write;
    let mut out = String::from(
        "Facts of blocks (quoted as {NAME.FACT}; NAME is the block's name, else its kind):\n",
    );
    for (kind, facts) in BLOCK_FACTS {
        let _ = writeln!(out, "  {kind:<13} {facts}");
    }
    let _ = writeln!(
        out,
        "  every block   where.COLUMN: the value its filter selected\n  config        config.EXPERIMENT.KEY: a config's value\n\nFormats: {{x:.2}} decimals, {{x:~2}} at most 2 decimals, {{x:.3g}} significant digits, {{x:,}} thousands, {{x:p}} a p-value, {{x:%}} a percentage; {{a / b:~1}} and {{a - b}} the ratio and difference of two facts"
    );
    for d in domains {
        let _ = writeln!(out, "\nDomain {}:", d.name());
        for f in &d.facts {
            let facts: Vec<String> = f
                .facts
                .iter()
                .map(|n| match n.strip_suffix('[') {
                    Some(family) => format!("{family}[KEY].…"),
                    None => n.to_string(),
                })
                .collect();
            let _ = writeln!(
                out,
                "  fact function {:<22} gives {}",
                f.name,
                facts.join(", ")
            );
        }
        for f in &d.boards {
            let _ = writeln!(out, "  board function {:<21} draws pictures", f.name);
        }
        for r in &d.references {
            let _ = writeln!(out, "  reference {:<26} {}", r.name, r.what);
        }
        for c in &d.canonical {
            let _ = writeln!(
                out,
                "  canonical form of {:<18} tells runs that are one algorithm under two names",
                c.algorithm
            );
        }
    }
    out
}

/// What each block kind adds to the facts (see the blocks' documentation).
const BLOCK_FACTS: &[(&str, &str)] = &[
    (
        "compare",
        "best.*, second.*, worst.*, [GROUP].* (group, n, median, q1, q3, mean, min, max, ci_low, ci_high, rank; p, p_holm, a12, effect but for the best); leaders, best.tied, best.tied_count, tied, tied_count, worse_count, groups, runs; aliases, aliases_count, best.same_as, [GROUP].same_as",
    ),
    (
        "table",
        "[GROUP].* (group, n, median, q1, q3, mean, min, max, ci_low, ci_high)",
    ),
    (
        "ert",
        "[GROUP].ert, .ert_low, .ert_high, .status, .success, .successes, .runs; target, budget, reference[PROBLEM]; best, best_ert, best_ert_low, best_ert_high, best_status, best_success, best_tied, best_tied_count, leaders",
    ),
    (
        "fixed_budget",
        "[GROUP][BUDGET].median, .q1, .q3; [BUDGET].best, [BUDGET].leaders, [BUDGET].best.tied",
    ),
    (
        "ecdf",
        "none (a figure; the reference values of relative targets are printed under it)",
    ),
    ("aggregate", "[GROUP].METRIC, all.METRIC"),
    ("pivot", "[ROW][COLUMN]"),
    ("facts", "the facts its function gives (below)"),
];
