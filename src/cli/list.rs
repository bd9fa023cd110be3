//! `searchlab list` and `searchlab init`: what the binary can run (the configs and
//! studies, built in or the working folder's, and each domain's algorithms with every
//! parameter and metric explained from the declarations the checks use), and writing
//! the built-in configs and studies out for editing.

use crate::domain::Domain;
use crate::pipeline::params::{ParamKind, ParamSpec};
use crate::pipeline::runner::Algorithm;
use crate::util::catalog::{CONFIGS, Entry, Origin, STUDIES};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// Where an entry comes from, for the listing.
fn origin(e: &Entry) -> &'static str {
    match e.origin {
        Origin::BuiltIn => "built-in",
        Origin::Local {
            overrides: true, ..
        } => "local, overrides the built-in one",
        Origin::Local {
            overrides: false, ..
        } if e.is_built_in() => "built-in, also in the working folder",
        Origin::Local {
            overrides: false, ..
        } => "local",
    }
}

/// Runs `list` (everything, one domain, or one algorithm).
pub fn list(domains: &[Domain], base: &Path, what: Option<&str>) -> anyhow::Result<()> {
    let text = match what {
        None => everything(domains, base),
        Some("facts" | "functions") => crate::report::facts_reference(domains),
        Some(w) => one(domains, w)?,
    };
    // Descriptions and titles come from files anyone may have written.
    let text = crate::util::input::printable(&text);
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

fn everything(domains: &[Domain], base: &Path) -> String {
    let mut out = String::new();
    let runners = crate::domain::runners(domains);
    let _ = writeln!(out, "Experiments (configs/):");
    for e in CONFIGS.entries(base).values() {
        let line = match e
            .text("config")
            .and_then(|t| crate::pipeline::config::parse(&t, &e.source(CONFIGS.folder), &[]))
        {
            Ok(config) => {
                let runs = crate::pipeline::plan::plan(&config, &runners)
                    .map(|p| format!("{} runs", p.runs.len()))
                    .unwrap_or_else(|e| format!("invalid: {}", crate::util::error::one_line(&e)));
                let tune = if config.tune.is_some() { " [tune]" } else { "" };
                format!(
                    "{}, {runs}{tune}  {}",
                    config.domain.value, config.description
                )
            }
            Err(err) => format!("invalid: {}", crate::util::error::one_line(&err)),
        };
        let _ = writeln!(out, "  {:<22} ({}) {line}", e.name, origin(e));
    }
    let _ = writeln!(out, "\nStudies of the report (experiments/):");
    let functions = crate::domain::functions(domains);
    let studies = crate::report::load_each(base, &functions);
    for e in STUDIES.entries(base).values() {
        let line = match studies.iter().find(|(name, _)| *name == e.name) {
            Some((_, Ok(s))) if s.default => crate::report::describe(s),
            Some((_, Ok(s))) => format!(
                "{}  [not in the default report: searchlab report --study {}]",
                crate::report::describe(s),
                s.name
            ),
            Some((_, Err(err))) => format!("invalid: {}", crate::util::error::one_line(err)),
            None => "invalid".to_string(),
        };
        let _ = writeln!(out, "  {:<22} ({}) {line}", e.name, origin(e));
    }
    let _ = writeln!(
        out,
        "\nDomains and algorithms (searchlab list DOMAIN/ALGORITHM explains one):"
    );
    for d in domains {
        for a in &d.runner.algorithms {
            let params: Vec<&str> = a.params.iter().map(|p| p.name).collect();
            let name = format!("{}/{}", d.name(), a.name);
            let _ = writeln!(
                out,
                "  {name:<22} {} [{}]",
                a.description,
                params.join(", ")
            );
        }
    }
    out
}

/// One domain's algorithms, or one algorithm, explained.
fn one(domains: &[Domain], what: &str) -> anyhow::Result<String> {
    let (domain, algorithm) = match what.split_once('/') {
        Some((d, a)) => (d, Some(a)),
        None => (what, None),
    };
    let Some(d) = domains.iter().find(|d| d.name() == domain) else {
        let mut known: Vec<&str> = domains.iter().map(Domain::name).collect();
        known.extend(["facts", "functions"]);
        crate::user_bail!(
            "no domain {} (known: {}){}",
            crate::util::input::excerpt(domain),
            known.join(", "),
            crate::util::suggest::did_you_mean(domain, known.iter().copied())
        );
    };
    let chosen: Vec<&Algorithm> = match algorithm {
        None => d.runner.algorithms.iter().collect(),
        Some(a) => match d.runner.algorithm(a) {
            Some(x) => vec![x],
            None => {
                let known: Vec<&str> = d.runner.algorithms.iter().map(|a| a.name).collect();
                crate::user_bail!(
                    "{} has no algorithm {} (known: {})",
                    d.name(),
                    crate::util::input::excerpt(a),
                    known.join(", ")
                );
            }
        },
    };
    Ok(chosen
        .iter()
        .map(|a| explain(d.name(), a))
        .collect::<Vec<_>>()
        .join("\n"))
}

/// An algorithm: its parameters (meaning, type and range, default, the choice it
/// belongs to) and its metrics (meaning, unit, direction).
pub fn explain(domain: &str, a: &Algorithm) -> String {
    let mut out = format!(
        "{domain}/{} (version {}): {}\n\nParameters:\n",
        a.name, a.version, a.description
    );
    for p in &a.params {
        let _ = writeln!(out, "  {:<22} {}", p.name, p.help);
        let _ = writeln!(out, "  {:<22} {}", "", param_facts(p));
    }
    out.push_str("\nMetrics (columns of the results table):\n");
    for m in a.metrics.specs {
        let direction = match m.better {
            Some(b) => format!("{} is better", b.name()),
            None => "not compared".to_string(),
        };
        let unit = if m.unit.is_empty() { "no unit" } else { m.unit };
        let _ = writeln!(out, "  {:<22} {}", m.name, m.meaning);
        let _ = writeln!(out, "  {:<22} {unit}; {direction}", "");
    }
    out
}

/// A parameter's type and range, default, and the choice it belongs to.
fn param_facts(p: &ParamSpec) -> String {
    let mut facts = vec![p.kind.describe()];
    facts.push(match (&p.default, &p.kind) {
        (None, _) => "required".to_string(),
        (Some(crate::pipeline::params::Value::Null), ParamKind::OptionalInt { .. }) => {
            "default none".to_string()
        }
        (Some(v), _) => format!("default {v}"),
    });
    if let Some(w) = p.when {
        facts.push(format!("only when {}", w.describe()));
    }
    if p.instance {
        facts.push("part of the problem instance".to_string());
    }
    facts.join("; ")
}

/// Runs `init`: the built-in configs and studies written into `dir`.
pub fn init(dir: &Path) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for catalog in [CONFIGS, STUDIES] {
        let (written, skipped) = catalog.write_out(dir)?;
        writeln!(
            out,
            "{}: {} files written{}",
            dir.join(catalog.folder).display(),
            written.len(),
            if skipped.is_empty() {
                String::new()
            } else {
                format!(", {} left as they were (they exist)", skipped.len())
            }
        )?;
    }
    Ok(())
}
