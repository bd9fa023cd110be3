//! The facts every study template can quote about an experiment's config
//! (`{config.<experiment>.<key>}`): part of the study language, so that numbers a
//! config fixes are read from it, never written into a study's prose.

use crate::pipeline::config::Config;
use crate::pipeline::params::Value;
use crate::present::facts::{Fact, Facts};
use crate::tune::spec::TuneSpec;
use std::collections::BTreeMap;

/// The facts every template can quote about an experiment's config:
/// `config.<experiment>.<parameter>` (a fixed value, or the swept values joined by
/// ", "), `.replicates`, `.base_seed`, `.variants`, `.threads_per_run` (the number, or
/// "all" for 0: how many of the worker threads each run searches on), and its `[tune]` section's
/// `.tune.budget`, `.tune.train_seeds`, `.tune.test_seeds`, `.tune.first_test`,
/// `.tune.samples`, `.tune.seed`, `.tune.alpha` and `.tune.metric`.
pub fn config_facts(name: &str, config: &Config, tune: Option<&TuneSpec>) -> Facts {
    let mut f = Facts::default();
    let mut values: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for v in &config.variants {
        for (k, l) in &v.params {
            values.entry(k.clone()).or_default().push(l.value.clone());
        }
        for a in &v.sweep {
            let e = values.entry(a.name.clone()).or_default();
            e.extend(a.values.iter().map(|l| l.value.clone()));
        }
    }
    for (k, mut vs) in values {
        let mut seen = Vec::new();
        vs.retain(|v| {
            let new = !seen.contains(v);
            if new {
                seen.push(v.clone());
            }
            new
        });
        let fact = match vs.as_slice() {
            [Value::Int(i)] => Fact::Int(*i),
            [Value::Float(x)] => Fact::Text(x.to_string()),
            _ => {
                let texts: Vec<String> = vs
                    .iter()
                    .map(|v| match v {
                        Value::Int(i) => crate::present::format::number(*i as f64, 0),
                        other => other.to_string(),
                    })
                    .collect();
                Fact::Text(crate::present::format::value_list(&texts, "values"))
            }
        };
        f.set(format!("{name}.{k}"), fact);
    }
    if let Some(t) = tune {
        for (key, value) in [
            ("budget", t.budget),
            ("train_seeds", t.train_seeds),
            ("test_seeds", t.test_seeds),
            ("first_test", t.first_test),
            ("samples", t.samples),
            ("seed", t.seed),
        ] {
            f.set(format!("{name}.tune.{key}"), value);
        }
        f.set(
            format!("{name}.tune.alpha"),
            Fact::Text(t.alpha.to_string()),
        );
        f.set(format!("{name}.tune.metric"), t.metric.clone());
    }
    f.set(format!("{name}.replicates"), config.replicates);
    f.set(
        format!("{name}.threads_per_run"),
        match config.threads_per_run {
            0 => Fact::Text("all".into()),
            n => Fact::Int(n as i64),
        },
    );
    f.set(format!("{name}.base_seed"), config.base_seed);
    f.set(
        format!("{name}.variants"),
        config
            .variants
            .iter()
            .map(|v| v.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    );
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configs_parameters_and_threads_per_run_are_facts() {
        let text = "[experiment]\ndomain = \"tiles\"\nalgorithm = \"ida\"\nthreads_per_run = 0\n\
                    [params]\nexpand_limit = 500\n[sweep]\ninstance = [3, 1]\n";
        let config = crate::pipeline::config::parse(text, "k.toml", &[]).unwrap();
        let f = config_facts("k", &config, None);
        assert_eq!(f.get("k.threads_per_run"), Some(&Fact::Text("all".into())));
        assert_eq!(f.get("k.expand_limit"), Some(&Fact::Int(500)));
        assert_eq!(f.get("k.instance"), Some(&Fact::Text("3, 1".into())));
        let set = ["experiment.threads_per_run=2".to_string()];
        let two = crate::pipeline::config::parse(text, "k.toml", &set).unwrap();
        let f = config_facts("k", &two, None);
        assert_eq!(f.get("k.threads_per_run"), Some(&Fact::Int(2)));
    }
}
