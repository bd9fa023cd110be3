//! The registry of domains: every puzzle the program knows, each one [`Domain`]
//! descriptor (see [`crate::domain`]). Adding a domain is one new folder and one line
//! here: the command line, the pipeline, the report and `list` find it through this list.

use crate::domain::Domain;

/// Every domain, in the order `list` and `--help` show them.
pub fn domains() -> Vec<Domain> {
    vec![
        crate::rjm::domain(),
        crate::tiles::domain(),
        crate::pegsol::domain(),
    ]
}

#[cfg(test)]
mod tests {
    use crate::pipeline::plan::{ANYTIME_COLUMNS, ANYTIME_RUN_COLUMNS, RUN_COLUMNS};

    #[test]
    fn every_domains_columns_are_distinct() {
        // A parameter named like a metric (or a pipeline column) would make two table
        // columns of one name; an experiment may mix a domain's algorithms, so names
        // are distinct across them, unless they are the same column (a parameter of
        // two algorithms, or a metric of two).
        for d in super::domains() {
            let pipeline: Vec<&str> = RUN_COLUMNS
                .iter()
                .chain(&ANYTIME_RUN_COLUMNS)
                .chain(&ANYTIME_COLUMNS)
                .copied()
                .collect();
            let params: Vec<&str> = d
                .runner
                .algorithms
                .iter()
                .flat_map(|a| a.params.iter().map(|p| p.name))
                .collect();
            let metrics: Vec<&str> = d
                .runner
                .algorithms
                .iter()
                .flat_map(|a| a.metrics.names())
                .collect();
            for p in &params {
                assert!(!pipeline.contains(p), "{}: parameter {p}", d.name());
                assert!(
                    !metrics.contains(p),
                    "{}: {p} is a parameter and a metric",
                    d.name()
                );
            }
            for m in &metrics {
                assert!(!pipeline.contains(m), "{}: metric {m}", d.name());
            }
            if let Some(dim) = d.runner.dimension {
                let taken = pipeline.contains(&dim.name)
                    || params.contains(&dim.name)
                    || metrics.contains(&dim.name);
                assert!(!taken, "{}: dimension {}", d.name(), dim.name);
            }
            for a in &d.runner.algorithms {
                let mut seen = std::collections::BTreeSet::new();
                for n in a.params.iter().map(|p| p.name).chain(a.metrics.names()) {
                    assert!(seen.insert(n), "{}/{}: column {n} twice", d.name(), a.name);
                }
            }
        }
    }

    #[test]
    fn every_metric_and_parameter_is_declared_in_words() {
        for d in super::domains() {
            for a in &d.runner.algorithms {
                for m in a.metrics.specs {
                    assert!(!m.meaning.is_empty() && !m.label.is_empty(), "{}", m.name);
                    if m.is_timing() {
                        assert!(m.unit.contains('s'), "{}: a timing has a unit", m.name);
                    }
                }
                for p in &a.params {
                    assert!(!p.help.is_empty(), "{}/{}: {}", d.name(), a.name, p.name);
                }
            }
        }
    }
}
