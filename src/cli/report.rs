//! `searchlab report`: runs every experiment (and tuning) the chosen studies read, then
//! has the report render them; with `--shard`, runs one shard of each and renders
//! nothing. The default studies go to `report.md`; `--study NAME` writes `NAME.md`;
//! `--summary` writes the study `summary` as a short document, `summary.md`. Each
//! markdown file gets its HTML page and its PDF (A4) beside it.

use super::ExecArgs;
use crate::domain::Domain;
use crate::pipeline::execute::{Options, run_experiment, run_shard};
use crate::pipeline::progress::Progress;
use crate::report::blocks::Tables;
use crate::report::pdf::Setting;
use crate::report::plan::Work;
use crate::report::{Ran, document};
use crate::study::Source;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Runs the command.
pub fn run(
    domains: &[Domain],
    base: &Path,
    exec: &ExecArgs,
    names: &[String],
    summary: bool,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let summary_name = [SUMMARY.to_string()];
    let names = if summary { &summary_name[..] } else { names };
    let runners = crate::domain::runners(domains);
    let functions = crate::domain::functions(domains);
    let (studies, work) = crate::report::plan::plan_studies(base, &runners, &functions, names)?;
    let opts = exec.options(domains);
    let observer = crate::util::observe::stderr(exec.quiet);
    let progress = Progress::new(&*observer, to_compute(&work, &opts, exec)?);
    if let Some(shard) = exec.shard {
        for w in work.iter().filter(|w| w.runs) {
            let done = run_shard(&w.config, &w.plan, &opts, shard, &progress)?;
            super::experiment::print_shard(&done)?;
        }
        progress.finish();
        return Ok(());
    }
    let (tables, ran) = compute(&work, &opts, &progress)?;
    progress.finish();
    let report_dir = opts.out.join("report");
    let figures = report_dir.join("figures");
    let mut out = std::io::stdout().lock();
    if summary {
        return write_summary(&studies, &tables, &functions, &report_dir, &opts);
    }
    let files: Vec<(String, Vec<crate::study::Study>)> = if names.is_empty() {
        vec![("report".to_string(), studies)]
    } else {
        studies
            .into_iter()
            .map(|s| (s.name.clone(), vec![s]))
            .collect()
    };
    for (name, studies) in files {
        let md = document(
            &studies, &tables, &functions, &figures, &ran, &opts.out, started,
        )?;
        // A stop request while the report renders: no report file is written.
        if opts.env.cancel.is_cancelled() {
            return Err(crate::util::cancel::Interrupted(format!(
                "every run is kept; {name}.md was not written (the same command writes it without running anything)"
            ))
            .into());
        }
        let path = report_dir.join(format!("{name}.md"));
        crate::util::atomic::write(&path, md.as_bytes())?;
        let title = match (name.as_str(), studies.first()) {
            ("report", _) | (_, None) => "searchlab report",
            (_, Some(s)) => s.title.as_str(),
        };
        let html = crate::report::html::page(&md, title, &figures)?;
        crate::util::atomic::write(&report_dir.join(format!("{name}.html")), html.as_bytes())?;
        let pdf = crate::report::pdf::document(&md, title, &figures, &Setting::report())?;
        crate::util::atomic::write(&report_dir.join(format!("{name}.pdf")), &pdf)?;
        writeln!(
            out,
            "report: {} (and {name}.html, {name}.pdf)",
            path.display()
        )?;
    }
    Ok(())
}

/// The study of the assignment's short report.
pub const SUMMARY: &str = "summary";

/// The short report: `summary.md`, `.html` and `.pdf` (set as [`Setting::summary`]).
fn write_summary(
    studies: &[crate::study::Study],
    tables: &Tables,
    functions: &crate::domain::Functions,
    report_dir: &Path,
    opts: &Options,
) -> anyhow::Result<()> {
    let figures = report_dir.join("figures");
    let Some(study) = studies.first() else {
        return Ok(());
    };
    let md = crate::report::short_document(study, tables, functions, &figures)?;
    if opts.env.cancel.is_cancelled() {
        return Err(crate::util::cancel::Interrupted(
            "every run is kept; summary.md was not written (the same command writes it without running anything)".into(),
        )
        .into());
    }
    let path = report_dir.join(format!("{SUMMARY}.md"));
    crate::util::atomic::write(&path, md.as_bytes())?;
    let html = crate::report::html::page(&md, &study.title, &figures)?;
    crate::util::atomic::write(&report_dir.join(format!("{SUMMARY}.html")), html.as_bytes())?;
    let pdf = crate::report::pdf::document(&md, &study.title, &figures, &Setting::summary())?;
    let pages = crate::report::pdf::page_count(&pdf);
    crate::util::atomic::write(&report_dir.join(format!("{SUMMARY}.pdf")), &pdf)?;
    writeln!(
        std::io::stdout().lock(),
        "report: {} (and {SUMMARY}.html, {SUMMARY}.pdf: {pages} page{})",
        path.display(),
        if pages == 1 { "" } else { "s" }
    )?;
    Ok(())
}

/// The runs and evaluations still to compute, for the progress display.
fn to_compute(work: &[Work], opts: &Options, exec: &ExecArgs) -> anyhow::Result<u64> {
    let mut total = 0;
    for w in work {
        if w.runs {
            let dir = crate::pipeline::execute::experiment_dir(&opts.out, &w.config.name);
            total +=
                crate::pipeline::recorded::missing_in_shard(&w.plan, &dir, opts.force, exec.shard)?
                    as u64;
        }
        if let (Some(spec), true, None) = (&w.tune, w.tuned, exec.shard) {
            total += crate::tune::to_evaluate(&w.config, &w.plan, spec, &opts.out, opts.force)?;
        }
    }
    Ok(total)
}

/// Runs every experiment and tuning the studies read (writing each experiment's own
/// summaries and figures); returns their tables, and what ran.
fn compute(
    work: &[Work],
    opts: &Options,
    progress: &Progress,
) -> anyhow::Result<(Tables, Vec<Ran>)> {
    let mut tables = Tables::default();
    let mut ran = Vec::new();
    for w in work {
        let name = &w.name;
        tables.configs.insert(name.clone(), w.config.clone());
        if let Some(spec) = &w.tune {
            tables.tunes.insert(name.clone(), spec.clone());
        }
        tables.metrics.insert(
            name.clone(),
            w.plan
                .metric_names()
                .iter()
                .filter_map(|m| w.plan.metric(m))
                .collect(),
        );
        tables
            .words
            .insert(name.clone(), crate::present::words::Words::of_plan(&w.plan));
        if w.runs {
            let f = run_experiment(&w.config, &w.plan, opts, progress)?;
            crate::present::outputs::write(&w.config, &w.plan, &f.results, &f.anytime, &f.dir)?;
            tables.results.insert(name.clone(), f.results.clone());
            tables.anytime.insert(name.clone(), f.anytime.clone());
            let exact = crate::pipeline::table::read_parquet(&f.dir.join("improvements.parquet"))?;
            tables.improvements.insert(name.clone(), exact);
            ran.push(Ran {
                name: name.clone(),
                runs: f.runs,
                computed: f.computed,
                seconds: f.seconds,
                dir: f.dir.clone(),
            });
        }
        if let (Some(spec), true) = (&w.tune, w.tuned) {
            let t = crate::tune::tune(&w.config, &w.plan, spec, opts, progress)?;
            let key = |s: Source| s.key(name);
            tables.results.insert(key(Source::Tuned), t.heldout.clone());
            tables
                .anytime
                .insert(key(Source::Tuned), t.heldout_anytime.clone());
            let exact =
                crate::pipeline::table::read_parquet(&t.dir.join("heldout_improvements.parquet"))?;
            tables.improvements.insert(key(Source::Tuned), exact);
            tables.results.insert(key(Source::Race), t.race.clone());
            tables
                .results
                .insert(key(Source::RaceSteps), t.steps.clone());
            ran.push(Ran {
                name: format!("{name} (tuning)"),
                runs: t.evaluations,
                computed: t.computed,
                seconds: t.seconds,
                dir: t.dir.clone(),
            });
        }
    }
    Ok((tables, ran))
}
