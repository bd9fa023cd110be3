//! `--set KEY=VALUE`: one override of a config key, checked and recorded in the
//! resolved config for the manifest.

use super::ranges::{axis, to_value};
use super::{Config, Located, Origin, Variant, check_name};

/// Parses the value of a `--set`: one TOML value if it parses, else a bare string. A
/// value that starts like a list, table or quoted string must be valid TOML: `[0.9,` is
/// an error, not the string "[0.9,". Nothing else may follow the value (`100\nsize = 9`
/// would inject a key), and a number is written plainly (`16`, `-2.5`, `1e-3`: not
/// `0x10`, `1_0_0` or `+100`).
fn parse_override_value(text: &str) -> Result<toml::Value, String> {
    let shown = crate::util::input::excerpt(text);
    let mut table = match toml::from_str::<toml::Table>(&format!("v = {text}")) {
        Ok(t) => t,
        Err(e) if text.starts_with(['[', '{', '"', '\'']) => {
            return Err(format!(
                "the value {shown} is not valid TOML: {}",
                e.message().trim().replace('\n', " ")
            ));
        }
        Err(_) if text.contains(['\n', '\r']) => {
            return Err(format!("the value {shown} is more than one line"));
        }
        // Digits that TOML refuses are a whole number past the 64-bit range.
        Err(_) if plain_number(text) => {
            return Err(format!(
                "the number {shown} is out of range (a whole number is at most {})",
                i64::MAX
            ));
        }
        Err(_) => return Ok(toml::Value::String(text.to_string())),
    };
    if table.len() != 1 || text.contains(['\n', '\r']) {
        return Err(format!(
            "the value {shown} is more than one value: give one value of the key's type"
        ));
    }
    let value = table
        .remove("v")
        .unwrap_or(toml::Value::String(String::new()));
    if matches!(value, toml::Value::Integer(_) | toml::Value::Float(_)) && !plain_number(text) {
        return Err(format!(
            "the number {shown} is not written plainly (digits, an optional minus sign, decimal point and exponent: 16, -2.5, 1e-3)"
        ));
    }
    Ok(value)
}

/// `-?digits(.digits)?(e[+-]?digits)?`: a number as a person writes it, so that `0x10`,
/// `0o7`, `1_0_0` and `+100` (valid TOML) are not silently read as other numbers.
fn plain_number(text: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let t = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, frac)) => digits(whole) && digits(frac),
        None => digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

pub fn apply_override(
    config: &mut Config,
    base: &mut Variant,
    variants: &mut [Variant],
    resolved: &mut toml::Table,
    o: &str,
) -> anyhow::Result<()> {
    let shown = crate::util::input::clip(o);
    let shown = shown.as_str();
    let Some((key, text)) = o.split_once('=') else {
        crate::user_bail!("--set {shown}: expected KEY=VALUE");
    };
    let key = key.trim();
    let bad = |msg: &str| crate::user_error!("--set {shown}: {msg}");
    let value = parse_override_value(text.trim()).map_err(|e| bad(&e))?;
    let path: Vec<&str> = key.split('.').collect();
    let set = Set {
        value: &value,
        origin: Origin::Set(shown.to_string()),
        shown,
    };
    match path.as_slice() {
        ["experiment" | "replicates", _] => set.config_key(config, &path)?,
        ["params", name] => set_param(base, name, &value, set.origin).map_err(|e| bad(&e))?,
        ["sweep", name] => set_axis(base, name, &value, &set.origin)?,
        ["variant", vname, rest @ ..] => {
            let Some(v) = variants.iter_mut().find(|v| v.name == *vname) else {
                return Err(bad(&format!(
                    "no variant named {}",
                    crate::util::input::excerpt(vname)
                )));
            };
            set.variant_key(v, rest)?;
        }
        _ => return Err(set.unknown(key)),
    }
    set_path(resolved, &path, value);
    Ok(())
}

/// One `--set`: its value, its origin, and how messages quote it.
struct Set<'a> {
    value: &'a toml::Value,
    origin: Origin,
    shown: &'a str,
}

impl Set<'_> {
    fn bad(&self, msg: &str) -> anyhow::Error {
        crate::user_error!("--set {}: {msg}", self.shown)
    }

    fn unknown(&self, key: &str) -> anyhow::Error {
        self.bad(&format!(
            "unknown key {} (expected experiment.name, experiment.description, experiment.domain, experiment.algorithm, experiment.threads_per_run, replicates.count, replicates.base_seed, params.KEY, sweep.KEY, variant.NAME.algorithm or variant.NAME.params|sweep.KEY)",
            crate::util::input::excerpt(key)
        ))
    }

    fn string(&self) -> anyhow::Result<String> {
        match self.value {
            toml::Value::String(s) => Ok(s.clone()),
            _ => Err(self.bad("expected a string")),
        }
    }

    fn located(&self) -> anyhow::Result<Located<String>> {
        Ok(Located {
            value: self.string()?,
            origin: self.origin.clone(),
        })
    }

    fn count(&self) -> anyhow::Result<u64> {
        match self.value {
            toml::Value::Integer(i) if *i >= 0 => Ok(*i as u64),
            _ => Err(self.bad("expected a non-negative integer")),
        }
    }

    /// `experiment.*` and `replicates.*`.
    fn config_key(&self, config: &mut Config, path: &[&str]) -> anyhow::Result<()> {
        match path {
            ["experiment", "name"] => {
                let name = self.string()?;
                check_name("experiment", &name, &format!("--set {}", self.shown))?;
                config.name = name;
            }
            ["experiment", "description"] => config.description = self.string()?,
            ["experiment", "domain"] => config.domain = self.located()?,
            ["experiment", "algorithm"] => config.algorithm = Some(self.located()?),
            ["experiment", "threads_per_run"] => {
                config.threads_per_run = match self.value {
                    toml::Value::Integer(t) => super::check_threads_per_run(*t),
                    _ => Err("expected an integer".to_string()),
                }
                .map_err(|e| self.bad(&e))?
            }
            ["replicates", "count"] => config.replicates = self.count()?,
            ["replicates", "base_seed"] => config.base_seed = self.count()?,
            _ => return Err(self.unknown(&path.join("."))),
        }
        Ok(())
    }

    /// `variant.NAME.algorithm`, `variant.NAME.params.KEY`, `variant.NAME.sweep.KEY`.
    fn variant_key(&self, v: &mut Variant, rest: &[&str]) -> anyhow::Result<()> {
        match rest {
            ["algorithm"] => v.algorithm = Some(self.located()?),
            ["params", name] => {
                set_param(v, name, self.value, self.origin.clone()).map_err(|e| self.bad(&e))?
            }
            ["sweep", name] => set_axis(v, name, self.value, &self.origin)?,
            _ => {
                return Err(self.bad(
                    "expected variant.NAME.algorithm, variant.NAME.params.KEY or variant.NAME.sweep.KEY",
                ));
            }
        }
        Ok(())
    }
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
