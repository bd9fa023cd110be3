//! Experiment configs: one TOML file per experiment, read into a checked [`Config`].
//!
//! A config names the domain and algorithm, fixed parameters, a sweep (a grid of lists
//! or ranges), optional variants (each its own parameters and sweep, for comparing
//! families such as annealing schedules), replicate seeds, and the tables and plots
//! the experiment produces. `--set KEY=VALUE` overrides any key. Every value keeps where
//! it came from, so an error names the file and line, or the `--set` that gave it.
//!
//! ```toml
//! [experiment]
//! domain = "rjm"
//! algorithm = "anneal"
//! [params]
//! iterations = 10000
//! [sweep]
//! initial_temperature = [0.5, 1, 2]
//! decay = { start = 0.99, stop = 0.9999, num = 3, scale = "log" }
//! [replicates]
//! count = 100
//! base_seed = 1
//! ```

use crate::pipeline::params::Value;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

/// Where a value came from, for error messages.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    File { path: String, line: usize },
    Set(String),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::File { path, line } => write!(f, "{path}:{line}"),
            Origin::Set(s) => write!(f, "--set {s}"),
        }
    }
}

/// A config value and its origin.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    pub value: T,
    pub origin: Origin,
}

/// One sweep axis: the values a parameter takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub name: String,
    pub values: Vec<Located<Value>>,
}

/// Parameters and sweep of one variant (an experiment without variants has one, "").
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub name: String,
    pub params: BTreeMap<String, Located<Value>>,
    pub sweep: Vec<Axis>,
}

/// A summary table: per group, count, median, quartiles, mean and a 95% interval.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    pub name: String,
    pub group_by: Vec<String>,
    pub metrics: Vec<String>,
    /// Keep only the rows whose columns take these values (as a study's `where`).
    #[serde(rename = "where", default)]
    pub filter: BTreeMap<String, toml::Value>,
    /// The line it starts on, set on loading.
    #[serde(skip)]
    pub line: usize,
}

/// A figure of the experiment's own: the same kinds and code as a study's figure blocks.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotSpec {
    pub name: String,
    pub kind: crate::present::figure::FigureKind,
    #[serde(default)]
    pub x: Option<String>,
    pub y: String,
    #[serde(default)]
    pub group: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub log_x: bool,
    #[serde(default)]
    pub log_y: bool,
    /// Keep only the rows whose columns take these values.
    #[serde(rename = "where", default)]
    pub filter: BTreeMap<String, toml::Value>,
    /// The line it starts on, set on loading.
    #[serde(skip)]
    pub line: usize,
}

impl PlotSpec {
    /// The figure spec this plot draws.
    pub fn figure(&self) -> crate::present::figure::FigureSpec {
        crate::present::figure::FigureSpec {
            kind: self.kind,
            x: self.x.clone(),
            metric: self.y.clone(),
            group: self.group.clone(),
            title: self
                .title
                .clone()
                .unwrap_or_else(|| self.name.replace('_', " ")),
            x_label: None,
            y_label: None,
            log_x: self.log_x,
            log_y: self.log_y,
            better: crate::present::figure::Better::Higher,
            missing: None,
        }
    }
}

/// A checked experiment config.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub name: String,
    pub description: String,
    pub domain: Located<String>,
    pub algorithm: Located<String>,
    pub variants: Vec<Variant>,
    pub replicates: u64,
    pub base_seed: u64,
    pub tables: Vec<TableSpec>,
    pub plots: Vec<PlotSpec>,
    /// How `searchlab tune` races its settings (the `[tune]` section), if it says.
    pub tune: Option<crate::tune::spec::TuneSpec>,
    /// Where it was read from.
    pub source: String,
    /// The file's text with overrides applied, as TOML, for the manifest.
    pub resolved: toml::Table,
    /// The file's text and the `--set` overrides as given: [`parse`] of these (with
    /// `source`) gives this config again, which is how `merge` rebuilds a shard's plan.
    pub text: String,
    pub overrides: Vec<String>,
}

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
    tune: Option<Spanned<crate::tune::spec::RawTune>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExperiment {
    #[serde(default)]
    name: Option<Spanned<String>>,
    #[serde(default)]
    description: Option<String>,
    domain: Spanned<String>,
    algorithm: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: Spanned<String>,
    #[serde(default)]
    params: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    sweep: BTreeMap<String, Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReplicates {
    #[serde(default = "one")]
    count: u64,
    #[serde(default)]
    base_seed: u64,
}

fn one() -> u64 {
    1
}

/// The largest replicate count a config may ask for.
pub const MAX_REPLICATES: u64 = 1_000_000;

/// The most runs one experiment may plan (variants × sweep points × replicates). The
/// plan is counted before it is built, so a larger one is refused at once. A planned
/// run holds about 0.8 KB (its parameters, key and seed), so this plan takes under 1 GB
/// before anything runs (10 million, measured, took over 7 GB).
pub const MAX_RUNS: u64 = 1_000_000;

/// The most values one sweep axis may take, as a list or as a range.
pub const MAX_AXIS_VALUES: usize = 100_000;

/// The longest name of an experiment, plot, table, variant or study.
pub const MAX_NAME_CHARS: usize = 100;

/// Checks the name of an experiment, plot, table, variant or study (`kind`), which
/// becomes a file or folder name: 1 to [`MAX_NAME_CHARS`] letters, digits, `_`, `-` and
/// `.`, not starting with `.`. So no name can reach outside the output folder, be empty,
/// be hidden or be too long for the file system. `origin` is where it was given.
pub fn check_name(kind: &str, name: &str, origin: &str) -> anyhow::Result<()> {
    let problem = if name.is_empty() {
        Some("is empty")
    } else if name.chars().count() > MAX_NAME_CHARS {
        Some("is too long")
    } else if name.starts_with('.') {
        Some("starts with a dot")
    } else if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
    {
        Some("has a character other than letters, digits, _, - and .")
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(p) => crate::user_bail!(
            "{origin}: the {kind} name {} {p} (a name is 1 to {MAX_NAME_CHARS} letters, digits, _, - or ., not starting with .)",
            crate::util::input::excerpt(name)
        ),
    }
}

/// Reads and checks a config file, applying `--set` overrides (`KEY=VALUE`, TOML values;
/// a bare word is a string).
pub fn load(path: &Path, overrides: &[String]) -> anyhow::Result<Config> {
    let source = path.display().to_string();
    let text = crate::util::input::read_file(path, "config")?;
    parse(&text, &source, overrides)
}

/// [`load`] for a config already in memory.
pub fn parse(text: &str, source: &str, overrides: &[String]) -> anyhow::Result<Config> {
    let lines = LineIndex::new(text);
    let raw: RawConfig = toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map_or(String::new(), |s| format!(":{}", lines.line(s.start)));
        crate::user_error!("{source}{at}: {}", e.message().trim().replace('\n', " "))
    })?;
    let mut resolved: toml::Table =
        toml::from_str(text).map_err(|e| crate::user_error!("{source}: {}", e.message()))?;
    let here = |span: std::ops::Range<usize>| Origin::File {
        path: source.to_string(),
        line: lines.line(span.start),
    };

    let name = match &raw.experiment.name {
        Some(n) => {
            check_name("experiment", n.get_ref(), &here(n.span()).to_string())?;
            n.get_ref().clone()
        }
        None => {
            let stem = Path::new(source).file_stem().map_or_else(
                || "experiment".to_string(),
                |s| s.to_string_lossy().into_owned(),
            );
            check_name(
                "experiment",
                &stem,
                &format!("{source} (the file's name; set experiment.name)"),
            )?;
            stem
        }
    };
    let mut tables = Vec::new();
    for t in &raw.table {
        let at = here(t.span()).to_string();
        check_name("table", &t.get_ref().name, &at)?;
        if tables
            .iter()
            .any(|x: &TableSpec| x.name == t.get_ref().name)
        {
            crate::user_bail!("{at}: a second table is named {:?}", t.get_ref().name);
        }
        crate::present::view::Filter::from_toml(&t.get_ref().filter)
            .map_err(|e| crate::user_error!("{at}: table {:?}: {e}", t.get_ref().name))?;
        let mut spec = t.get_ref().clone();
        spec.line = lines.line(t.span().start);
        tables.push(spec);
    }
    let mut plots = Vec::new();
    for p in &raw.plot {
        let at = here(p.span()).to_string();
        check_name("plot", &p.get_ref().name, &at)?;
        if plots.iter().any(|x: &PlotSpec| x.name == p.get_ref().name) {
            crate::user_bail!("{at}: a second plot is named {:?}", p.get_ref().name);
        }
        let mut spec = p.get_ref().clone();
        crate::present::view::Filter::from_toml(&spec.filter)
            .map(|_| ())
            .and_then(|()| spec.figure().check())
            .map_err(|e| crate::user_error!("{at}: plot {:?}: {e}", spec.name))?;
        spec.line = lines.line(p.span().start);
        plots.push(spec);
    }
    let mut config = Config {
        name,
        description: raw.experiment.description.clone().unwrap_or_default(),
        domain: Located {
            origin: here(raw.experiment.domain.span()),
            value: raw.experiment.domain.get_ref().clone(),
        },
        algorithm: Located {
            origin: here(raw.experiment.algorithm.span()),
            value: raw.experiment.algorithm.get_ref().clone(),
        },
        variants: Vec::new(),
        replicates: raw.replicates.as_ref().map_or(1, |r| r.count),
        base_seed: raw.replicates.as_ref().map_or(0, |r| r.base_seed),
        tables,
        plots,
        tune: None,
        source: source.to_string(),
        resolved: toml::Table::new(),
        text: text.to_string(),
        overrides: overrides.to_vec(),
    };
    let base = Variant {
        name: String::new(),
        params: located_map(&raw.params, &here)?,
        sweep: axes(&raw.sweep, &here)?,
    };
    let mut variants = Vec::new();
    for v in &raw.variant {
        check_name(
            "variant",
            v.name.get_ref(),
            &here(v.name.span()).to_string(),
        )?;
        variants.push(Variant {
            name: v.name.get_ref().clone(),
            params: located_map(&v.params, &here)?,
            sweep: axes(&v.sweep, &here)?,
        });
    }
    let mut base = base;
    for o in overrides {
        apply_override(&mut config, &mut base, &mut variants, &mut resolved, o)?;
    }
    check_no_overlap(&base, source)?;
    config.variants = if variants.is_empty() {
        vec![base]
    } else {
        let mut names = std::collections::BTreeSet::new();
        variants
            .into_iter()
            .map(|v| {
                if !names.insert(v.name.clone()) {
                    crate::user_bail!("{source}: two variants are named {:?}", v.name);
                }
                check_no_overlap(&v, source)?;
                Ok(merge(&base, v))
            })
            .collect::<anyhow::Result<Vec<_>>>()?
    };
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
    if let Some(t) = &raw.tune {
        let line = lines.line(t.span().start);
        let names: Vec<String> = config.variants.iter().map(|v| v.name.clone()).collect();
        config.tune = Some(
            t.get_ref()
                .clone()
                .check(&format!("{source}:{line}"), line, &names)?,
        );
    }
    config.resolved = resolved;
    Ok(config)
}

impl Config {
    /// The number of runs the plan will have (every variant's sweep points × replicates),
    /// counted without building it.
    pub fn run_count(&self) -> u128 {
        self.variants
            .iter()
            .map(|v| {
                v.sweep
                    .iter()
                    .fold(1u128, |n, a| n.saturating_mul(a.values.len() as u128))
            })
            .fold(0u128, |n, p| n.saturating_add(p))
            .saturating_mul(u128::from(self.replicates))
    }
}

/// A variant on top of the base: its parameters and axes replace the base's.
fn merge(base: &Variant, v: Variant) -> Variant {
    let mut params = base.params.clone();
    let mut sweep: Vec<Axis> = base
        .sweep
        .iter()
        .filter(|a| !v.params.contains_key(&a.name))
        .cloned()
        .collect();
    for axis in v.sweep {
        params.remove(&axis.name);
        sweep.retain(|a| a.name != axis.name);
        sweep.push(axis);
    }
    for (k, val) in v.params {
        params.insert(k, val);
    }
    Variant {
        name: v.name,
        params,
        sweep,
    }
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
    here: &impl Fn(std::ops::Range<usize>) -> Origin,
) -> anyhow::Result<BTreeMap<String, Located<Value>>> {
    raw.iter()
        .map(|(k, v)| {
            let origin = here(v.span());
            let value =
                to_value(v.get_ref()).map_err(|e| crate::user_error!("{origin}: {k}: {e}"))?;
            Ok((k.clone(), Located { value, origin }))
        })
        .collect()
}

fn axes(
    raw: &BTreeMap<String, Spanned<toml::Value>>,
    here: &impl Fn(std::ops::Range<usize>) -> Origin,
) -> anyhow::Result<Vec<Axis>> {
    raw.iter()
        .map(|(k, v)| axis(k, v.get_ref(), &here(v.span())))
        .collect()
}

/// A sweep axis from a list of values, or a range table `{ start, stop, step }` (stop
/// included when reached) or `{ start, stop, num, scale = "linear" | "log" }`.
fn axis(name: &str, v: &toml::Value, origin: &Origin) -> anyhow::Result<Axis> {
    let err = |msg: String| crate::user_error!("{origin}: sweep.{name}: {msg}");
    let values: Vec<Value> = match v {
        toml::Value::Array(items) if items.len() > MAX_AXIS_VALUES => {
            return Err(err(format!(
                "the list has {} values, more than the {MAX_AXIS_VALUES} an axis may have",
                items.len()
            )));
        }
        toml::Value::Array(items) => items
            .iter()
            .map(to_value)
            .collect::<Result<_, _>>()
            .map_err(err)?,
        toml::Value::Table(t) => range(t).map_err(err)?,
        other => {
            return Err(err(format!(
                "expected a list of values or a range table, not {}",
                other.type_str()
            )));
        }
    };
    if values.is_empty() {
        return Err(err("the list is empty".to_string()));
    }
    Ok(Axis {
        name: name.to_string(),
        values: values
            .into_iter()
            .map(|value| Located {
                value,
                origin: origin.clone(),
            })
            .collect(),
    })
}

fn range(t: &toml::Table) -> Result<Vec<Value>, String> {
    for k in t.keys() {
        if !["start", "stop", "step", "num", "scale"].contains(&k.as_str()) {
            return Err(format!(
                "unknown range key {k:?} (expected start, stop, step or num, scale)"
            ));
        }
    }
    let get = |k: &str| t.get(k).map(to_value).transpose();
    let (start, stop) = match (get("start")?, get("stop")?) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err("a range needs start and stop".to_string()),
    };
    for k in ["start", "stop", "step"] {
        let Some(v) = get(k)? else { continue };
        match v {
            Value::Float(f) if !f.is_finite() => {
                return Err(format!("{k} = {f} is not a finite number"));
            }
            Value::Int(_) | Value::Float(_) => {}
            other => return Err(format!("{k} = {other} is not a number")),
        }
    }
    let scale = match t.get("scale") {
        None => "linear",
        Some(toml::Value::String(s)) if s == "linear" || s == "log" => s.as_str(),
        Some(_) => return Err("scale must be \"linear\" or \"log\"".to_string()),
    };
    match (get("step")?, get("num")?) {
        (Some(step), None) => {
            if scale != "linear" {
                return Err("a range with step is linear; use num for a log scale".to_string());
            }
            if let (Value::Int(a), Value::Int(b), Value::Int(s)) = (&start, &stop, &step) {
                if *s <= 0 || b < a {
                    return Err("step must be positive and stop at least start".to_string());
                }
                let count = (i128::from(*b) - i128::from(*a)) / i128::from(*s) + 1;
                if count > MAX_AXIS_VALUES as i128 {
                    return Err(format!(
                        "the range has {count} values, more than the {MAX_AXIS_VALUES} an axis may have"
                    ));
                }
                return Ok((0..count as i64).map(|i| Value::Int(a + i * s)).collect());
            }
            let (a, b, s) = (num(&start)?, num(&stop)?, num(&step)?);
            if s <= 0.0 || b < a {
                return Err("step must be positive and stop at least start".to_string());
            }
            let count = ((b - a) / s + 1e-9).floor() + 1.0;
            if !count.is_finite() || count > MAX_AXIS_VALUES as f64 {
                return Err(format!(
                    "the range has {count:.3e} values, more than the {MAX_AXIS_VALUES} an axis may have"
                ));
            }
            Ok((0..count as i64)
                .map(|i| Value::Float(a + i as f64 * s))
                .collect())
        }
        (None, Some(Value::Int(n))) if (1..=100_000).contains(&n) => {
            let (a, b) = (num(&start)?, num(&stop)?);
            if (b - a).is_infinite() {
                return Err(format!("the range from {a} to {b} is too wide"));
            }
            if scale == "log" && (a <= 0.0 || b <= 0.0) {
                return Err("a log range needs positive start and stop".to_string());
            }
            let ints = matches!((&start, &stop), (Value::Int(_), Value::Int(_)));
            let mut out = Vec::new();
            for i in 0..n {
                let f = if n == 1 {
                    0.0
                } else {
                    i as f64 / (n - 1) as f64
                };
                let x = if scale == "log" {
                    (a.ln() + f * (b.ln() - a.ln())).exp()
                } else {
                    a + f * (b - a)
                };
                let v = if ints {
                    Value::Int(x.round() as i64)
                } else {
                    Value::Float(x)
                };
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            Ok(out)
        }
        (None, Some(_)) => Err("num must be an integer from 1 to 100000".to_string()),
        _ => Err("a range needs exactly one of step or num".to_string()),
    }
}

fn num(v: &Value) -> Result<f64, String> {
    v.as_f64().ok_or_else(|| format!("{v} is not a number"))
}

/// A TOML scalar as a [`Value`].
fn to_value(v: &toml::Value) -> Result<Value, String> {
    match v {
        toml::Value::String(s) => Ok(Value::Str(s.clone())),
        toml::Value::Integer(i) => Ok(Value::Int(*i)),
        toml::Value::Float(f) => Ok(Value::Float(*f)),
        toml::Value::Boolean(b) => Ok(Value::Bool(*b)),
        other => Err(format!("expected a single value, not {}", other.type_str())),
    }
}

/// Parses the value of a `--set`: TOML if it parses, else a bare string. A value that
/// starts like a list, table or quoted string must be valid TOML: `[0.9,` is an error,
/// not the string "[0.9,".
fn parse_override_value(text: &str) -> Result<toml::Value, String> {
    match toml::from_str::<toml::Table>(&format!("v = {text}")) {
        Ok(mut t) => Ok(t.remove("v").unwrap_or(toml::Value::String(String::new()))),
        Err(e) if text.starts_with(['[', '{', '"', '\'']) => Err(format!(
            "the value {} is not valid TOML: {}",
            crate::util::input::excerpt(text),
            e.message().trim().replace('\n', " ")
        )),
        Err(_) => Ok(toml::Value::String(text.to_string())),
    }
}

fn apply_override(
    config: &mut Config,
    base: &mut Variant,
    variants: &mut [Variant],
    resolved: &mut toml::Table,
    o: &str,
) -> anyhow::Result<()> {
    let Some((key, text)) = o.split_once('=') else {
        crate::user_bail!(
            "--set {}: expected KEY=VALUE",
            crate::util::input::excerpt(o).trim_matches('"')
        );
    };
    let key = key.trim();
    let shown = crate::util::input::excerpt(o);
    let shown = shown.trim_matches('"');
    let origin = Origin::Set(shown.to_string());
    let bad = |msg: &str| crate::user_error!("--set {shown}: {msg}");
    let value = parse_override_value(text.trim()).map_err(|e| bad(&e))?;
    let path: Vec<&str> = key.split('.').collect();
    let as_u64 = |v: &toml::Value| match v {
        toml::Value::Integer(i) if *i >= 0 => Ok(*i as u64),
        _ => Err(bad("expected a non-negative integer")),
    };
    let as_string = |v: &toml::Value| match v {
        toml::Value::String(s) => Ok(s.clone()),
        _ => Err(bad("expected a string")),
    };
    match path.as_slice() {
        ["experiment", "name"] => {
            let name = as_string(&value)?;
            check_name("experiment", &name, &format!("--set {shown}"))?;
            config.name = name;
        }
        ["experiment", "description"] => config.description = as_string(&value)?,
        ["experiment", "domain"] => {
            config.domain = Located {
                value: as_string(&value)?,
                origin,
            }
        }
        ["experiment", "algorithm"] => {
            config.algorithm = Located {
                value: as_string(&value)?,
                origin,
            }
        }
        ["replicates", "count"] => config.replicates = as_u64(&value)?,
        ["replicates", "base_seed"] => config.base_seed = as_u64(&value)?,
        ["params", name] => set_param(base, name, &value, origin).map_err(|e| bad(&e))?,
        ["sweep", name] => set_axis(base, name, &value, &origin)?,
        ["variant", vname, section, name] => {
            let Some(v) = variants.iter_mut().find(|v| v.name == *vname) else {
                return Err(bad(&format!("no variant named {vname:?}")));
            };
            match *section {
                "params" => set_param(v, name, &value, origin).map_err(|e| bad(&e))?,
                "sweep" => set_axis(v, name, &value, &origin)?,
                _ => {
                    return Err(bad(
                        "expected variant.NAME.params.KEY or variant.NAME.sweep.KEY",
                    ));
                }
            }
        }
        _ => {
            return Err(bad(&format!(
                "unknown key {key:?} (expected experiment.name, experiment.description, experiment.domain, experiment.algorithm, replicates.count, replicates.base_seed, params.KEY, sweep.KEY or variant.NAME.params|sweep.KEY)"
            )));
        }
    }
    set_path(resolved, &path, value);
    Ok(())
}

fn set_param(
    v: &mut Variant,
    name: &str,
    value: &toml::Value,
    origin: Origin,
) -> Result<(), String> {
    let value = to_value(value)?;
    v.sweep.retain(|a| a.name != name);
    v.params.insert(name.to_string(), Located { value, origin });
    Ok(())
}

fn set_axis(
    v: &mut Variant,
    name: &str,
    value: &toml::Value,
    origin: &Origin,
) -> anyhow::Result<()> {
    let a = axis(name, value, origin)?;
    v.params.remove(name);
    v.sweep.retain(|x| x.name != name);
    v.sweep.push(a);
    Ok(())
}

/// Records an override in the resolved TOML (for the manifest). Variant paths are
/// recorded under `overrides` since variants are an array in the file.
fn set_path(table: &mut toml::Table, path: &[&str], value: toml::Value) {
    if path.first() == Some(&"variant") {
        let overrides = table
            .entry("overrides")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let toml::Value::Table(t) = overrides {
            t.insert(path.join("."), value);
        }
        return;
    }
    let mut t = table;
    for (i, p) in path.iter().enumerate() {
        if i + 1 == path.len() {
            t.insert(p.to_string(), value);
            return;
        }
        let entry = t
            .entry(p.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        match entry {
            toml::Value::Table(inner) => t = inner,
            _ => return,
        }
    }
}

/// Byte offset → 1-based line number.
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &str) -> Self {
        LineIndex(
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        )
    }

    fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASIC: &str = r#"[experiment]
domain = "rjm"
algorithm = "anneal"

[params]
iterations = 1000

[sweep]
initial_temperature = [0.5, 1, 2]
decay = { start = 0.9, stop = 0.99, num = 2 }

[replicates]
count = 3
base_seed = 7
"#;

    #[test]
    fn reads_params_sweeps_and_replicates() {
        let c = parse(BASIC, "configs/x.toml", &[]).unwrap();
        assert_eq!(c.name, "x");
        assert_eq!(c.replicates, 3);
        assert_eq!(c.base_seed, 7);
        let v = &c.variants[0];
        assert_eq!(v.params["iterations"].value, Value::Int(1000));
        assert_eq!(
            v.params["iterations"].origin.to_string(),
            "configs/x.toml:6"
        );
        let decay = v.sweep.iter().find(|a| a.name == "decay").unwrap();
        assert_eq!(
            decay
                .values
                .iter()
                .map(|l| l.value.clone())
                .collect::<Vec<_>>(),
            vec![Value::Float(0.9), Value::Float(0.99)]
        );
    }

    #[test]
    fn unknown_keys_and_wrong_types_name_the_line() {
        let text = BASIC.replace("count = 3", "count = 3\nseeds = 4");
        let err = parse(&text, "c.toml", &[]).unwrap_err().to_string();
        assert!(err.starts_with("c.toml:14:"), "{err}");
        assert!(err.contains("seeds"), "{err}");
        let text = BASIC.replace("count = 3", "count = \"three\"");
        let err = parse(&text, "c.toml", &[]).unwrap_err().to_string();
        assert!(err.starts_with("c.toml:13:"), "{err}");
        let err = parse(
            "[experiment]\ndomain = \"rjm\"\nalgorithm = \n",
            "c.toml",
            &[],
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("c.toml:3:"), "{err}");
        assert!(!err.contains('\n'));
    }

    #[test]
    fn overrides_replace_params_and_axes() {
        let c = parse(
            BASIC,
            "c.toml",
            &[
                "params.initial_temperature=4".into(),
                "sweep.iterations=[10, 20]".into(),
                "replicates.count=5".into(),
            ],
        )
        .unwrap();
        let v = &c.variants[0];
        assert_eq!(v.params["initial_temperature"].value, Value::Int(4));
        assert_eq!(
            v.params["initial_temperature"].origin,
            Origin::Set("params.initial_temperature=4".into())
        );
        assert!(!v.params.contains_key("iterations"));
        assert!(
            v.sweep
                .iter()
                .any(|a| a.name == "iterations" && a.values.len() == 2)
        );
        assert!(!v.sweep.iter().any(|a| a.name == "initial_temperature"));
        assert_eq!(c.replicates, 5);
        assert_eq!(c.resolved["replicates"]["count"].as_integer(), Some(5));
        let bare = parse(BASIC, "c.toml", &["params.schedule=linear".into()]).unwrap();
        assert_eq!(
            bare.variants[0].params["schedule"].value,
            Value::Str("linear".into())
        );
        let err = parse(BASIC, "c.toml", &["parms.x=1".into()])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("--set parms.x=1: unknown key"), "{err}");
        assert!(parse(BASIC, "c.toml", &["replicates.count=0".into()]).is_err());
    }

    #[test]
    fn ranges_expand() {
        let t: toml::Table = toml::from_str("a = { start = 1, stop = 10, step = 3 }\nb = { start = 1, stop = 100, num = 3, scale = \"log\" }\nc = { start = 0.0, stop = 1.0, step = 0.25 }").unwrap();
        let ints = |v: Vec<Value>| v.iter().map(|x| x.as_f64().unwrap()).collect::<Vec<_>>();
        assert_eq!(
            ints(range(t["a"].as_table().unwrap()).unwrap()),
            vec![1.0, 4.0, 7.0, 10.0]
        );
        assert_eq!(
            range(t["b"].as_table().unwrap()).unwrap(),
            vec![Value::Int(1), Value::Int(10), Value::Int(100)]
        );
        assert_eq!(
            ints(range(t["c"].as_table().unwrap()).unwrap()),
            vec![0.0, 0.25, 0.5, 0.75, 1.0]
        );
    }

    #[test]
    fn variants_merge_over_the_base() {
        let text = format!(
            "{BASIC}\n[[variant]]\nname = \"linear\"\nparams = {{ schedule = \"linear\", decay = 1.0 }}\n\n[[variant]]\nname = \"geo\"\nsweep = {{ decay = [0.5] }}\n"
        );
        let c = parse(&text, "c.toml", &[]).unwrap();
        assert_eq!(c.variants.len(), 2);
        let lin = &c.variants[0];
        assert_eq!(lin.params["schedule"].value, Value::Str("linear".into()));
        assert!(!lin.sweep.iter().any(|a| a.name == "decay"));
        let geo = &c.variants[1];
        assert_eq!(
            geo.sweep
                .iter()
                .find(|a| a.name == "decay")
                .unwrap()
                .values
                .len(),
            1
        );
        let over = parse(
            &text,
            "c.toml",
            &["variant.linear.sweep.initial_temperature=[7]".into()],
        )
        .unwrap();
        let lin = &over.variants[0];
        assert_eq!(
            lin.sweep
                .iter()
                .find(|a| a.name == "initial_temperature")
                .unwrap()
                .values[0]
                .value,
            Value::Int(7)
        );
        assert_eq!(
            over.variants[1]
                .sweep
                .iter()
                .find(|a| a.name == "initial_temperature")
                .unwrap()
                .values
                .len(),
            3
        );
        assert!(
            parse(&text, "c.toml", &["variant.cubic.params.x=1".into()])
                .unwrap_err()
                .to_string()
                .contains("no variant named")
        );
        let dup = format!("{BASIC}\n[[variant]]\nname = \"a\"\n[[variant]]\nname = \"a\"\n");
        assert!(
            parse(&dup, "c.toml", &[])
                .unwrap_err()
                .to_string()
                .contains("two variants")
        );
    }

    fn err(text: &str, sets: &[&str]) -> String {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let e = parse(text, "c.toml", &sets).unwrap_err();
        assert!(crate::util::error::is_user_error(&e), "{e}");
        assert!(!e.to_string().contains('\n'));
        e.to_string()
    }

    #[test]
    fn names_are_plain_file_names() {
        for bad in [
            "../../escaped_exp",
            "/tmp/x",
            "",
            ".hidden",
            "a/b",
            "a b",
            "é",
        ] {
            let text = BASIC.replace("[experiment]\n", &format!("[experiment]\nname = {bad:?}\n"));
            let e = err(&text, &[]);
            assert!(
                e.starts_with("c.toml:2: the experiment name"),
                "{bad:?}: {e}"
            );
        }
        let long = "x".repeat(100_000);
        let e = err(BASIC, &[&format!("experiment.name={long}")]);
        assert!(e.contains("is too long") && e.len() < 300, "{e}");
        let e = err(BASIC, &["experiment.name=../../x"]);
        assert!(
            e.starts_with("--set experiment.name=../../x: the experiment name"),
            "{e}"
        );
        let plot =
            format!("{BASIC}\n[[plot]]\nname = \"../../../../tmp/x\"\nkind = \"box\"\ny = \"a\"\n");
        assert!(
            err(&plot, &[]).starts_with("c.toml:16: the plot name"),
            "{}",
            err(&plot, &[])
        );
        let table = format!("{BASIC}\n[[table]]\nname = \"\"\ngroup_by = []\nmetrics = []\n");
        assert!(err(&table, &[]).contains("the table name \"\" is empty"));
        let variant = format!("{BASIC}\n[[variant]]\nname = \"a/b\"\n");
        assert!(err(&variant, &[]).starts_with("c.toml:17: the variant name"));
        assert!(
            parse(
                &BASIC.replace("[experiment]\n", "[experiment]\nname = \"ok-1.v2_x\"\n"),
                "c.toml",
                &[]
            )
            .is_ok()
        );
    }

    #[test]
    fn a_second_table_or_plot_of_the_same_name_is_refused() {
        let t = "\n[[table]]\nname = \"t\"\ngroup_by = []\nmetrics = [\"a\"]\n";
        let e = err(&format!("{BASIC}{t}{t}"), &[]);
        assert!(
            e.starts_with("c.toml:21: a second table is named \"t\""),
            "{e}"
        );
        let p = "\n[[plot]]\nname = \"p\"\nkind = \"box\"\nx = \"b\"\ny = \"a\"\n";
        let e = err(&format!("{BASIC}{p}{p}"), &[]);
        assert!(e.contains("a second plot is named \"p\""), "{e}");
    }

    #[test]
    fn absurd_plans_are_refused_before_they_are_built() {
        let two = "[experiment]\ndomain = \"rjm\"\nalgorithm = \"anneal\"\n[sweep]\na = { start = 1, stop = 100000, step = 1 }\nb = { start = 1, stop = 100000, step = 1 }\n";
        let started = std::time::Instant::now();
        let e = err(two, &[]);
        assert!(e.contains("the plan has 10000000000 runs"), "{e}");
        let e = err(
            "[experiment]\ndomain = \"rjm\"\nalgorithm = \"anneal\"\n[sweep]\na = { start = 1, stop = 100000, step = 1 }\n",
            &["replicates.count=1000000"],
        );
        assert!(e.contains("100000000000 runs"), "{e}");
        let at_limit =
            "[experiment]\ndomain = \"rjm\"\nalgorithm = \"anneal\"\n[sweep]\na = [1, 2]\n";
        assert!(parse(at_limit, "c.toml", &["replicates.count=500000".into()]).is_ok());
        let e = err(at_limit, &["replicates.count=500001"]);
        assert!(e.contains("the plan has 1000002 runs"), "{e}");
        let list = format!(
            "[experiment]\ndomain = \"rjm\"\nalgorithm = \"anneal\"\n[sweep]\na = [{}]\n",
            vec!["1"; 200_000].join(",")
        );
        let e = err(&list, &[]);
        assert!(e.contains("the list has 200000 values"), "{e}");
        assert!(started.elapsed().as_secs() < 10);
    }

    #[test]
    fn ranges_say_what_is_wrong() {
        let with = |r: &str| BASIC.replace("{ start = 0.9, stop = 0.99, num = 2 }", r);
        let e = err(&with("{ start = 0.9, stop = nan, step = 0.01 }"), &[]);
        assert!(e.contains("stop = NaN is not a finite number"), "{e}");
        let e = err(&with("{ start = 0.9, stop = inf, step = 0.01 }"), &[]);
        assert!(e.contains("stop = inf is not a finite number"), "{e}");
        let e = err(&with("{ start = 0.9, stop = 0.99, step = 1e-300 }"), &[]);
        assert!(e.contains("more than the 100000"), "{e}");
        let e = err(
            &with("{ start = -9223372036854775808, stop = 9223372036854775807, step = 1 }"),
            &[],
        );
        assert!(e.contains("18446744073709551616 values"), "{e}");
        let e = err(&with("{ start = -1e308, stop = 1e308, num = 3 }"), &[]);
        assert!(e.contains("too wide"), "{e}");
    }

    #[test]
    fn a_set_value_that_looks_like_toml_must_be_toml() {
        let e = err(BASIC, &["sweep.decay=[0.9,"]);
        assert!(
            e.starts_with("--set sweep.decay=[0.9,: the value \"[0.9,\" is not valid TOML"),
            "{e}"
        );
        let long = format!("params.x=[{}", "1,".repeat(50_000));
        assert!(err(BASIC, &[&long]).len() < 400);
    }
}
