//! The heuristic names of pattern databases (`pdb:7-8`, `pdb:1,2,3/4,5,6`) as IDA* and
//! the pipeline take them beside the computed heuristics, and their checks.

use super::partition::{CATALOGUES, PARTITION_NAMES, parse_partitions_text};

/// The heuristic names of the built-in partitions and catalogues (`pdb:7-8`,
/// `pdb:6-6-6-6x7`), as the pipeline's `tiles/ida` accepts them beside the classic
/// heuristics.
pub fn heuristic_names() -> Vec<String> {
    let catalogues = CATALOGUES.iter().map(|(name, ..)| *name);
    (PARTITION_NAMES.iter().copied().chain(catalogues))
        .map(|name| format!("pdb:{name}"))
        .collect()
}

/// The pattern-database text of a heuristic name, `pdb:PARTITION` (kept whole: the
/// parsers read the prefix), or `None` for other names.
pub fn heuristic_partition(name: &str) -> Option<&str> {
    let name = name.trim();
    name.starts_with("pdb:").then_some(name)
}

/// Checks a heuristic name as IDA* takes it: a computed heuristic
/// ([`crate::tiles::heuristic::Heuristic::NAMES`]) or `pdb:` and a partition
/// ([`parse_partitions_text`]: one partition, or several separated by `|`; whether its tiles are on the board is checked when its
/// tables are loaded).
pub fn check_ida_heuristic(name: &str) -> Result<(), String> {
    use crate::tiles::heuristic::Heuristic;
    if Heuristic::from_name(name).is_some() {
        return Ok(());
    }
    match heuristic_partition(name) {
        Some(p) => parse_partitions_text(p).map(|_| ()),
        None => Err(format!(
            "not a heuristic (expected {}, {}, or pdb: and groups of tiles like pdb:1,2,3/4,5,6)",
            Heuristic::NAMES.join(", "),
            heuristic_names().join(", ")
        )),
    }
}

/// Splits a comma-separated list of heuristic names, keeping the commas of a custom
/// partition: `manhattan,pdb:1,2/3,4,linear` is three names (an item starting with a
/// digit continues the `pdb:` name before it). Each name is checked.
pub fn split_heuristics(text: &str) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = Vec::new();
    for item in text.split(',').map(str::trim) {
        let continues = item.starts_with(|c: char| c.is_ascii_digit())
            && names
                .last()
                .is_some_and(|n| heuristic_partition(n).is_some());
        match names.last_mut() {
            Some(last) if continues => {
                last.push(',');
                last.push_str(item);
            }
            _ => names.push(item.to_string()),
        }
    }
    for n in &names {
        check_ida_heuristic(n).map_err(|e| format!("{n:?}: {e}"))?;
    }
    Ok(names)
}
