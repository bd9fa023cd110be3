//! Partitions of the tiles into disjoint groups, one pattern database each: the named
//! ones (`7-8`, `6-6-6-6`) and catalogues of several (`6-6-6-6x4`), groups written out
//! (`1,2,3/4,5,6`), several separated by `|`, and their checks against a board.

use super::rank::Pattern;
use crate::tiles::board::Board;
use crate::user_bail;

/// The largest table built: 2^30 entries (the 8-tile pattern of the 15-puzzle has 0.52 G).
pub const MAX_ENTRIES: u64 = 1 << 30;

/// The most partitions a heuristic maximises over.
pub const MAX_PARTS: usize = 16;

/// The named partitions: (name, board side, groups).
const NAMED: &[(&str, usize, &[&[u8]])] = &[
    // Korf & Felner 2002 / Felner, Korf & Hanan 2004, 15-puzzle, blank top-left.
    (
        "5-5-5",
        4,
        &[&[1, 2, 3, 6, 7], &[4, 5, 8, 9, 12], &[10, 11, 13, 14, 15]],
    ),
    (
        "6-6-3",
        4,
        &[&[1, 2, 3], &[4, 5, 8, 9, 12, 13], &[6, 7, 10, 11, 14, 15]],
    ),
    (
        "7-8",
        4,
        &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    ),
    // Korf & Felner 2002, 24-puzzle: four blocks of six tiles.
    (
        "6-6-6-6",
        5,
        &[
            &[1, 5, 6, 10, 11, 12],
            &[2, 3, 4, 7, 8, 9],
            &[13, 14, 18, 19, 23, 24],
            &[15, 16, 17, 20, 21, 22],
        ],
    ),
];

/// The names of the built-in partitions.
pub const PARTITION_NAMES: &[&str] = &["5-5-5", "6-6-3", "7-8", "6-6-6-6"];

/// Clausecker & Reinefeld's (2021) "small" catalogue of seven 6-6-6-6 partitions of the
/// 24-puzzle, the first Korf & Felner's (their tables are plain additive ones here; with
/// the reflection, fourteen sums): 14 tables.
const SMALL_24: &[&str] = &[
    "6-6-6-6",
    "1,2,5,6,10,11/3,4,7,8,9,12/13,14,18,19,23,24/15,16,17,20,21,22",
    "1,5,6,10,11,12/2,3,4,7,8,9/13,14,15,16,17,18/19,20,21,22,23,24",
    "1,2,5,6,10,11/3,4,7,8,9,12/13,14,15,16,17,18/19,20,21,22,23,24",
    "1,5,6,10,15,20/2,3,4,7,8,9/11,12,16,17,21,22/13,14,18,19,23,24",
    "1,2,5,6,10,11/3,4,9,14,19,24/7,8,12,13,18,23/15,16,17,20,21,22",
    "1,5,6,10,15,20/2,3,4,7,8,9/11,12,13,16,17,18/14,19,21,22,23,24",
];

/// The seven partitions their "improved" catalogue adds to the small one (fourteen in
/// all, twenty-eight sums with the reflection): 20 tables with the small one's.
const IMPROVED_24: &[&str] = &[
    "1,5,6,10,15,20/2,3,7,8,13,18/4,9,14,19,23,24/11,12,16,17,21,22",
    "1,5,6,10,11,12/2,3,7,8,13,18/4,9,14,19,23,24/15,16,17,20,21,22",
    "1,2,5,6,10,15/3,4,7,8,9,14/11,12,13,16,17,18/19,20,21,22,23,24",
    "1,2,5,6,10,15/3,4,9,14,19,24/7,8,12,13,18,23/11,16,17,20,21,22",
    "1,2,5,6,10,15/3,4,7,8,9,12/11,16,17,20,21,22/13,14,18,19,23,24",
    "1,2,5,6,10,11/3,4,7,8,9,14/12,13,18,19,23,24/15,16,17,20,21,22",
    "1,2,5,6,10,15/3,4,7,8,9,14/11,16,17,20,21,22/12,13,18,19,23,24",
];

/// Four of the small catalogue's seven (its first, second, sixth and seventh): 11
/// tables. Chosen by measured time: each child that is not pruned reads eight sums
/// instead of fourteen, which more than pays for the nodes the other three would save
/// (`docs/24-puzzle.md` has the measurements).
const FOUR_24: &[&str] = &[SMALL_24[0], SMALL_24[1], SMALL_24[5], SMALL_24[6]];

/// The named maxima over several partitions: (name, board side, the lists whose
/// partitions' texts it maximises over, one after the other).
pub const CATALOGUES: &[(&str, usize, &[&[&str]])] = &[
    ("6-6-6-6x4", 5, &[FOUR_24]),
    ("6-6-6-6x7", 5, &[SMALL_24]),
    ("6-6-6-6x14", 5, &[SMALL_24, IMPROVED_24]),
];

/// The board side a named partition or catalogue is for (`6-6-6-6`: 5), else `None`.
pub fn named_side(text: &str) -> Option<usize> {
    let text = strip_prefix(text);
    (NAMED.iter().map(|(n, side, _)| (*n, *side)))
        .chain(CATALOGUES.iter().map(|(n, side, _)| (*n, *side)))
        .find(|(n, _)| *n == text)
        .map(|(_, side)| side)
}

/// The partitions a heuristic's text names: one partition ([`Partition::parse_text`]), a
/// named catalogue of several, or several separated by `|` (`5-5-5|1,2,5,6/...`), whose
/// maximum is taken. Returns the name the heuristic goes by and the partitions, checked
/// as far as they can be without a board.
pub fn parse_partitions_text(text: &str) -> Result<(String, Vec<Partition>), String> {
    let text = strip_prefix(text);
    let (name, texts): (String, Vec<&str>) = match CATALOGUES.iter().find(|(n, ..)| *n == text) {
        Some((name, _, lists)) => (name.to_string(), lists.concat()),
        None => (String::new(), text.split('|').collect()),
    };
    if texts.len() > 1 && texts.iter().any(|t| t.trim().is_empty()) {
        return Err(format!(
            "pattern database heuristic {text:?} has an empty partition (partitions are separated by |)"
        ));
    }
    let parts = (texts.iter())
        .map(|t| Partition::parse_text(t))
        .collect::<Result<Vec<_>, _>>()?;
    if parts.len() > MAX_PARTS {
        return Err(format!(
            "pattern database heuristic {text:?} has {} partitions; the limit is {MAX_PARTS}",
            parts.len()
        ));
    }
    let name = match name.is_empty() {
        true => parts
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join("|"),
        false => name,
    };
    Ok((name, parts))
}

/// A pattern-database text without its `pdb:` prefix.
pub fn strip_prefix(text: &str) -> &str {
    let text = text.trim();
    text.strip_prefix("pdb:").unwrap_or(text)
}

/// [`parse_partitions_text`], each partition checked against `goal`'s board.
pub fn parse_partitions(text: &str, goal: &Board) -> anyhow::Result<(String, Vec<Partition>)> {
    let (name, parts) = match parse_partitions_text(text) {
        Ok(x) => x,
        Err(e) => user_bail!("{e}"),
    };
    for p in &parts {
        p.check_board(goal)?;
    }
    Ok((name, parts))
}

/// Disjoint groups of tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// The name it was given by (`7-8`) or its groups written out (`1,2,3/4,5,6`).
    pub name: String,
    pub groups: Vec<Vec<u8>>,
}

impl Partition {
    /// A named partition (`5-5-5`, `6-6-3`, `7-8`, `6-6-6-6`) or groups of tile numbers
    /// separated by `/`, tiles by `,` (`1,2,3,4/5,6,7,8`), checked against `goal`'s board.
    pub fn parse(text: &str, goal: &Board) -> anyhow::Result<Partition> {
        let p = match Partition::parse_text(text) {
            Ok(p) => p,
            Err(e) => user_bail!("{e}"),
        };
        p.check_board(goal)?;
        Ok(p)
    }

    /// Checks the partition against `goal`'s board: a named one is for its board size,
    /// every tile is on the board, and no table is over [`MAX_ENTRIES`].
    fn check_board(&self, goal: &Board) -> anyhow::Result<()> {
        let shape = goal.shape();
        if let Some((name, side, _)) = NAMED.iter().find(|(n, _, _)| *n == self.name)
            && (shape.width != *side || shape.height != *side)
        {
            user_bail!("partition {name} is for the {side}x{side} board, not {shape}");
        }
        self.check(goal)
    }

    /// The partition a text names, checked as far as it can be without a board: tile
    /// numbers, no empty group, no tile twice. The error says what is wrong.
    pub fn parse_text(text: &str) -> Result<Partition, String> {
        let text = strip_prefix(text);
        if let Some((name, _, groups)) = NAMED.iter().find(|(n, _, _)| *n == text) {
            return Ok(Partition {
                name: name.to_string(),
                groups: groups.iter().map(|g| g.to_vec()).collect(),
            });
        }
        let mut groups = Vec::new();
        let mut seen = [false; 256];
        for part in text.split('/') {
            let mut g = Vec::new();
            for word in part.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                let t = match word.parse::<u8>() {
                    Ok(t) if t > 0 => t,
                    _ => {
                        return Err(format!(
                            "pattern database partition {text:?}: {word:?} is not a tile number (expected {}, a catalogue of partitions ({}), or groups of tiles like 1,2,3/4,5,6)",
                            PARTITION_NAMES.join(", "),
                            CATALOGUES
                                .iter()
                                .map(|(name, ..)| *name)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                    }
                };
                if std::mem::replace(&mut seen[usize::from(t)], true) {
                    return Err(format!(
                        "pattern database partition {text:?}: tile {t} is in two groups (the groups must be disjoint)"
                    ));
                }
                g.push(t);
            }
            if g.is_empty() {
                return Err(format!(
                    "pattern database partition {text:?} has an empty group"
                ));
            }
            groups.push(g);
        }
        let name = groups
            .iter()
            .map(|g| g.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join("/");
        Ok(Partition { name, groups })
    }

    fn check(&self, goal: &Board) -> anyhow::Result<()> {
        if goal.blanks() != 1 {
            user_bail!("pattern databases need a board with one blank");
        }
        let max = goal.len() - 1;
        for g in &self.groups {
            if let Some(t) = g.iter().find(|&&t| usize::from(t) > max) {
                user_bail!(
                    "pattern database partition {}: tile {t} is not on the {} board (tiles 1 to {max})",
                    self.name,
                    goal.shape()
                );
            }
            let entries = Pattern::entries_for(goal.len(), g.len());
            if entries > MAX_ENTRIES {
                user_bail!(
                    "pattern database partition {}: a group of {} tiles on {} cells has {entries} entries; the limit is {MAX_ENTRIES}",
                    self.name,
                    g.len(),
                    goal.len()
                );
            }
        }
        Ok(())
    }
}
