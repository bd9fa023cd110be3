//! The report: the studies (`experiments/*.toml`, built in or the working folder's;
//! [`crate::study`]) rendered block by block ([`blocks`]; tables in `tables`, the
//! anytime views in `anytime`) into markdown, with each study's figures in
//! `figures/STUDY/` (so no study's report shows another's figure), and into one HTML
//! page ([`html`]). What a report needs before anything runs is planned in [`plan`].
//!
//! The `report` command runs the experiments the chosen studies read and gives the
//! tables to [`render`], which is all the report knows of them: it never runs an
//! experiment and never names a schedule, a heuristic or a level. Questions, blocks and
//! answers are the studies'; numbers are computed from the tables or read from the
//! configs (`{config.<experiment>.<key>}`).

mod anytime;
pub mod blocks;
pub mod html;
pub mod plan;
mod tables;

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
        let mut known = match (source, b.reads_anytime()) {
            (Source::Runs | Source::Tuned, true) => plan.anytime_columns(),
            (Source::Runs | Source::Tuned, false) => plan.columns(),
            (Source::Race, _) => crate::tune::race_columns(plan),
            (Source::RaceSteps, _) => crate::tune::STEP_COLUMNS.to_vec(),
        };
        if !known.contains(&"experiment") {
            known.push("experiment");
        }
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

/// The studies as markdown: contents, then each study's intro and questions, each
/// question's blocks in order and its answer. Each study's figures are saved in
/// `figures/STUDY/`.
pub fn render(
    studies: &[Study],
    tables: &Tables,
    functions: &Functions,
    figures: &Path,
) -> anyhow::Result<String> {
    let mut base = Facts::default();
    for (name, config) in &tables.configs {
        base.extend_prefixed(
            "config",
            crate::study::config_facts::config_facts(name, config, tables.tunes.get(name)),
        );
    }
    let mut md = String::from("## Contents\n\n");
    for s in studies {
        md.push_str(&format!(
            "- [{}](#{})\n",
            s.title,
            html::anchor_of(&s.title)
        ));
    }
    md.push('\n');
    let styles = crate::present::plot::StyleBook::default();
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
        md.push_str(&format!("### {}. {}\n\n", i + 1, q.title));
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
    md.push_str(&crate::present::format::markdown_table(&head, &rows));
    md.push_str(&format!(
        "\nReport built in {:.1} s.\n",
        started.elapsed().as_secs_f64()
    ));
    Ok(md)
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
