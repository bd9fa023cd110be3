//! `--set KEY=VALUE`: one override of a config key, checked and recorded in the
//! resolved config for the manifest.

use super::ranges::{axis, to_value};
use super::{Config, Located, Origin, Variant, check_name};

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

pub fn apply_override(
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
            config.algorithm = Some(Located {
                value: as_string(&value)?,
                origin,
            })
        }
        ["replicates", "count"] => config.replicates = as_u64(&value)?,
        ["replicates", "base_seed"] => config.base_seed = as_u64(&value)?,
        ["params", name] => set_param(base, name, &value, origin).map_err(|e| bad(&e))?,
        ["sweep", name] => set_axis(base, name, &value, &origin)?,
        ["variant", vname, "algorithm"] => {
            let Some(v) = variants.iter_mut().find(|v| v.name == *vname) else {
                return Err(bad(&format!("no variant named {vname:?}")));
            };
            v.algorithm = Some(Located {
                value: as_string(&value)?,
                origin,
            });
        }
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
                "unknown key {key:?} (expected experiment.name, experiment.description, experiment.domain, experiment.algorithm, replicates.count, replicates.base_seed, params.KEY, sweep.KEY, variant.NAME.algorithm or variant.NAME.params|sweep.KEY)"
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
