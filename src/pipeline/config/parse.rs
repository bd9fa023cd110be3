//! Reading a config file: the TOML structure with every value's line, the variants
//! merged over the base, the overrides applied, and the plan's size counted before it
//! is built.

use super::overrides::apply_override;
use super::ranges::{axis, to_value};
use super::{
    Axis, Config, Located, MAX_REPLICATES, MAX_RUNS, Origin, PlotSpec, Section, TableSpec, Variant,
    check_name, merge,
};
use crate::pipeline::params::Value;
use crate::util::input::LineIndex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    experiment: RawExperiment,
    #[serde(default)]
    params: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    sweep: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    variant: Vec<RawVariant>,
    #[serde(default)]
    replicates: Option<RawReplicates>,
    #[serde(default)]
    table: Vec<Spanned<TableSpec>>,
    #[serde(default)]
    plot: Vec<Spanned<PlotSpec>>,
    #[serde(default)]
    tune: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExperiment {
    #[serde(default)]
    name: Option<Spanned<String>>,
    #[serde(default)]
    description: Option<String>,
    domain: Spanned<String>,
    #[serde(default)]
    algorithm: Option<Spanned<String>>,
    #[serde(default)]
    threads_per_run: Option<Spanned<i64>>,
    #[serde(default)]
    variant_label: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: Spanned<String>,
    #[serde(default)]
    algorithm: Option<Spanned<String>>,
    #[serde(default)]
    params: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    sweep: BTreeMap<String, Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReplicates {
    #[serde(default)]
    count: Option<Spanned<i64>>,
    #[serde(default)]
    base_seed: Option<Spanned<i64>>,
}

/// Reads and checks a config file, applying `--set` overrides (`KEY=VALUE`, one TOML
/// value of the key's type; a bare word is a string).
pub fn load(path: &Path, overrides: &[String]) -> anyhow::Result<Config> {
    let source = path.display().to_string();
    let text = crate::util::input::read_file(path, "config")?;
    parse(&text, &source, overrides)
}

/// Where the values of one file come from: its name and its line index.
struct File<'a> {
    source: &'a str,
    lines: LineIndex,
}

impl File<'_> {
    fn here(&self, span: std::ops::Range<usize>) -> Origin {
        Origin::File {
            path: self.source.to_string(),
            line: self.lines.line(span.start),
        }
    }

    fn located<T: Clone>(&self, s: &Spanned<T>) -> Located<T> {
        Located {
            value: s.get_ref().clone(),
            origin: self.here(s.span()),
        }
    }
}

/// [`load`] for a config already in memory.
pub fn parse(text: &str, source: &str, overrides: &[String]) -> anyhow::Result<Config> {
    let file = File {
        source,
        lines: LineIndex::new(text),
    };
    let raw: RawConfig = toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map_or(String::new(), |s| format!(":{}", file.lines.line(s.start)));
        crate::user_error!("{source}{at}: {}", e.message().trim().replace('\n', " "))
    })?;
    let mut resolved: toml::Table =
        toml::from_str(text).map_err(|e| crate::user_error!("{source}: {}", e.message()))?;
    let mut config = Config {
        name: experiment_name(&raw, &file)?,
        description: raw.experiment.description.clone().unwrap_or_default(),
        domain: file.located(&raw.experiment.domain),
        algorithm: raw.experiment.algorithm.as_ref().map(|a| file.located(a)),
        variants: Vec::new(),
        replicates: replicates(&raw, &file)?.0,
        base_seed: replicates(&raw, &file)?.1,
        threads_per_run: threads_per_run(&raw, &file)?,
        variant_label: raw.experiment.variant_label.clone(),
        tables: tables(&raw, &file)?,
        plots: plots(&raw, &file)?,
        tune: raw.tune.as_ref().map(|t| Section {
            value: t.get_ref().clone(),
            line: file.lines.line(t.span().start),
        }),
        source: source.to_string(),
        resolved: toml::Table::new(),
        text: text.to_string(),
        overrides: overrides.to_vec(),
    };
    let mut base = Variant {
        name: String::new(),
        algorithm: None,
        params: located_map(&raw.params, &file)?,
        sweep: axes(&raw.sweep, &file)?,
    };
    let mut variants = raw
        .variant
        .iter()
        .map(|v| variant(v, &file))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if let Some(v) = raw.variant.iter().enumerate().find_map(|(i, v)| {
        raw.variant[..i]
            .iter()
            .any(|w| w.name.get_ref() == v.name.get_ref())
            .then_some(v)
    }) {
        crate::user_bail!(
            "{}: two variants are named {:?}",
            file.here(v.name.span()),
            v.name.get_ref()
        );
    }
    for o in overrides {
        apply_override(&mut config, &mut base, &mut variants, &mut resolved, o)?;
    }
    base.algorithm = config.algorithm.clone();
    config.variants = merge_variants(base, variants, source)?;
    check_size(&config)?;
    config.resolved = resolved;
    Ok(config)
}

/// `experiment.threads_per_run`, 1 when absent.
fn threads_per_run(raw: &RawConfig, file: &File) -> anyhow::Result<usize> {
    let Some(t) = &raw.experiment.threads_per_run else {
        return Ok(1);
    };
    super::check_threads_per_run(*t.get_ref())
        .map_err(|e| crate::user_error!("{}: experiment.threads_per_run: {e}", file.here(t.span())))
}

fn experiment_name(raw: &RawConfig, file: &File) -> anyhow::Result<String> {
    if let Some(n) = &raw.experiment.name {
        check_name("experiment", n.get_ref(), &file.here(n.span()).to_string())?;
        return Ok(n.get_ref().clone());
    }
    let stem = Path::new(file.source).file_stem().map_or_else(
        || "experiment".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    check_name(
        "experiment",
        &stem,
        &format!("{} (the file's name; set experiment.name)", file.source),
    )?;
    Ok(stem)
}

fn tables(raw: &RawConfig, file: &File) -> anyhow::Result<Vec<TableSpec>> {
    let mut out: Vec<TableSpec> = Vec::new();
    for t in &raw.table {
        let at = file.here(t.span()).to_string();
        check_name("table", &t.get_ref().name, &at)?;
        if out.iter().any(|x| x.name == t.get_ref().name) {
            crate::user_bail!("{at}: a second table is named {:?}", t.get_ref().name);
        }
        let mut spec = t.get_ref().clone();
        spec.line = file.lines.line(t.span().start);
        out.push(spec);
    }
    Ok(out)
}

fn plots(raw: &RawConfig, file: &File) -> anyhow::Result<Vec<PlotSpec>> {
    let mut out: Vec<PlotSpec> = Vec::new();
    for p in &raw.plot {
        let at = file.here(p.span()).to_string();
        check_name("plot", &p.get_ref().name, &at)?;
        if out.iter().any(|x| x.name == p.get_ref().name) {
            crate::user_bail!("{at}: a second plot is named {:?}", p.get_ref().name);
        }
        let mut spec = p.get_ref().clone();
        spec.line = file.lines.line(p.span().start);
        out.push(spec);
    }
    Ok(out)
}

/// `[replicates]`: the count (1 when absent) and the base seed (0), each checked where
/// it is written.
fn replicates(raw: &RawConfig, file: &File) -> anyhow::Result<(u64, u64)> {
    let Some(r) = &raw.replicates else {
        return Ok((1, 0));
    };
    let count = match &r.count {
        Some(c) if !(1..=MAX_REPLICATES as i64).contains(c.get_ref()) => crate::user_bail!(
            "{}: replicates.count = {} is out of range (expected 1 to {})",
            file.here(c.span()),
            c.get_ref(),
            MAX_REPLICATES
        ),
        Some(c) => *c.get_ref() as u64,
        None => 1,
    };
    let base_seed = match &r.base_seed {
        Some(s) if *s.get_ref() < 0 => crate::user_bail!(
            "{}: replicates.base_seed = {} is negative (a seed is 0 or more)",
            file.here(s.span()),
            s.get_ref()
        ),
        Some(s) => *s.get_ref() as u64,
        None => 0,
    };
    Ok((count, base_seed))
}

fn variant(v: &RawVariant, file: &File) -> anyhow::Result<Variant> {
    check_name(
        "variant",
        v.name.get_ref(),
        &file.here(v.name.span()).to_string(),
    )?;
    Ok(Variant {
        name: v.name.get_ref().clone(),
        algorithm: v.algorithm.as_ref().map(|a| file.located(a)),
        params: located_map(&v.params, file)?,
        sweep: axes(&v.sweep, file)?,
    })
}

/// The variants over the base (or the base alone), each with an algorithm.
fn merge_variants(
    base: Variant,
    variants: Vec<Variant>,
    source: &str,
) -> anyhow::Result<Vec<Variant>> {
    check_no_overlap(&base, source)?;
    let merged = if variants.is_empty() {
        vec![base]
    } else {
        // Names are unique: parse refused a second variant of a name, with its line.
        variants
            .into_iter()
            .map(|v| {
                check_no_overlap(&v, source)?;
                Ok(merge(&base, v))
            })
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    if let Some(v) = merged.iter().find(|v| v.algorithm.is_none()) {
        let which = if v.name.is_empty() {
            String::new()
        } else {
            format!(" (variant {:?} names none)", v.name)
        };
        crate::user_bail!(
            "{source}: no algorithm: set experiment.algorithm, or algorithm in every variant{which}"
        );
    }
    Ok(merged)
}

/// Refuses replicate counts out of range and plans larger than [`MAX_RUNS`], counted
/// without building them.
fn check_size(config: &Config) -> anyhow::Result<()> {
    let source = &config.source;
    if config.replicates == 0 || config.replicates > MAX_REPLICATES {
        crate::user_bail!(
            "{source}: replicates.count = {} is out of range (expected 1 to {MAX_REPLICATES})",
            config.replicates
        );
    }
    let runs = config.run_count();
    if runs > u128::from(MAX_RUNS) {
        crate::user_bail!(
            "{source}: the plan has {runs} runs (variants × sweep points × {} replicates), more than the {MAX_RUNS} one experiment may have",
            config.replicates
        );
    }
    Ok(())
}

fn check_no_overlap(v: &Variant, source: &str) -> anyhow::Result<()> {
    for axis in &v.sweep {
        if let Some(p) = v.params.get(&axis.name) {
            crate::user_bail!(
                "{}: {} is both a fixed parameter ({}) and a sweep axis",
                source,
                axis.name,
                p.origin
            );
        }
    }
    Ok(())
}

fn located_map(
    raw: &BTreeMap<String, Spanned<toml::Value>>,
    file: &File,
) -> anyhow::Result<BTreeMap<String, Located<Value>>> {
    raw.iter()
        .map(|(k, v)| {
            let origin = file.here(v.span());
            let value =
                to_value(v.get_ref()).map_err(|e| crate::user_error!("{origin}: {k}: {e}"))?;
            Ok((k.clone(), Located { value, origin }))
        })
        .collect()
}

fn axes(raw: &BTreeMap<String, Spanned<toml::Value>>, file: &File) -> anyhow::Result<Vec<Axis>> {
    raw.iter()
        .map(|(k, v)| axis(k, v.get_ref(), &file.here(v.span())))
        .collect()
}

/// Reads the config a command names: an existing file, else a config of the catalog by
/// name (`NAME`, or `configs/NAME.toml` when no such file exists): the working folder's
/// (`base`) or a built-in one.
pub fn resolve(base: &Path, arg: &Path, overrides: &[String]) -> anyhow::Result<Config> {
    if arg.is_file() {
        return load(arg, overrides);
    }
    let stem = arg.file_stem().map(|s| s.to_string_lossy().into_owned());
    let by_name = arg.extension().is_none() && arg.components().count() == 1
        || arg.parent().is_some_and(|p| p == Path::new("configs"));
    match (by_name, stem) {
        (true, Some(name)) => load_named(base, &name, overrides),
        _ => load(arg, overrides),
    }
}

/// Reads the config `name` of the catalog: `base/configs/NAME.toml`, else the built-in
/// one; an unknown name is an error listing the known ones.
pub fn load_named(base: &Path, name: &str, overrides: &[String]) -> anyhow::Result<Config> {
    let catalog = crate::util::catalog::CONFIGS;
    let entries = catalog.entries(base);
    let Some(entry) = entries.get(name) else {
        let known: Vec<&str> = entries.keys().map(String::as_str).collect();
        crate::user_bail!(
            "no config named {} (a file, or one of: {})",
            crate::util::input::excerpt(name),
            known.join(", ")
        );
    };
    let text = entry.text("config")?;
    parse(&text, &entry.source(catalog.folder), overrides)
}
