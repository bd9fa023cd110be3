//! The korf24 study against the papers: for each of Korf & Felner's fifty
//! 24-puzzle instances, our generated and expanded nodes beside the published figures
//! (compiled in from `data/korf24_published.txt`, never read at run time), seconds and
//! nodes per second; and a projection of the time all fifty would take, from the
//! instances solved. An instance not solved is shown as such and never counted as solved:
//! the projection is stated as one.
//!
//! **Projection.** Over the instances solved, our generated nodes are a ratio r of Korf &
//! Felner's (2002) generated nodes (the same search: r is 1 when every count matches),
//! and our search ran at v generated nodes per second. An instance not solved is
//! projected to take r · (its 2002 count) / v seconds; the projected total is the
//! seconds measured plus those projected.

use crate::pipeline::table::floats;
use crate::present::facts::{FactInput, Facts};

const PUBLISHED: &str = include_str!("data/korf24_published.txt");

/// One instance's published figures (`None`: not reported).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Published {
    pub id: u32,
    pub optimal: u32,
    /// Korf & Felner (2002), 6-6-6-6 with the reflection: nodes generated.
    pub korf2002_generated: u64,
    /// Döbbelin, Schütt & Reinefeld (2013): expansions with 6-6-6-6, and with the
    /// maximum of their three larger partitions.
    pub dsr_6666_expanded: u64,
    pub dsr_maxof_expanded: u64,
    /// Clausecker & Reinefeld (2021), improved and small catalogues: expansions.
    pub cr_expanded: Option<u64>,
    pub cr_small_expanded: Option<u64>,
}

/// The published table, instance by instance.
pub fn published() -> Vec<Published> {
    parse(PUBLISHED)
}

/// Parses lines `id optimal korf2002 dsr_6666 dsr_888 dsr_987 dsr_996 dsr_maxof
/// cr_improved cr_small` (`#` comments; -1 for not reported).
fn parse(text: &str) -> Vec<Published> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .filter_map(|l| {
            let v: Vec<i64> = l
                .split_whitespace()
                .map(|w| w.parse().ok())
                .collect::<Option<_>>()?;
            let count = |i: usize| v.get(i).and_then(|&x| u64::try_from(x).ok());
            Some(Published {
                id: u32::try_from(*v.first()?).ok()?,
                optimal: u32::try_from(*v.get(1)?).ok()?,
                korf2002_generated: count(2)?,
                dsr_6666_expanded: count(3)?,
                dsr_maxof_expanded: count(7)?,
                cr_expanded: count(8),
                cr_small_expanded: count(9),
            })
        })
        .collect()
}

/// Our run of one instance, when there is one.
struct Ours {
    solved: bool,
    generated: f64,
    expanded: f64,
    seconds: f64,
}

/// The korf24 facts from the block's rows (one row per instance: an instance twice is an
/// error, since the counts of two options are not one search's) and the published
/// table: per instance its published figures, its status and, when solved, our counts;
/// overall the counts of instances solved, not solved and not run, and the projection.
pub fn korf24(input: &FactInput) -> anyhow::Result<Facts> {
    let ids = floats(input.results, "instance")?;
    let length = floats(input.results, "solution_length")?;
    let generated = floats(input.results, "generated")?;
    let expanded = floats(input.results, "expanded")?;
    let seconds = floats(input.results, "time_seconds")?;
    for (i, id) in ids.iter().enumerate() {
        if ids[..i].contains(id) {
            anyhow::bail!(
                "instance {} has several rows (one per option): give the block one option, e.g. where = {{ heuristic = \"pdb:6-6-6-6x7\", pruning = \"fsm\" }}",
                id.unwrap_or(f64::NAN)
            );
        }
    }
    let runs = |id: u32| {
        (0..ids.len())
            .find(|&i| ids[i] == Some(f64::from(id)))
            .map(|i| Ours {
                solved: length[i].is_some(),
                generated: generated[i].unwrap_or(f64::NAN),
                expanded: expanded[i].unwrap_or(f64::NAN),
                seconds: seconds[i].unwrap_or(f64::NAN),
            })
    };
    Ok(table(&published(), runs))
}

/// Per instance `[id]`: `optimal`, `korf2002_generated`, `dsr_6666_expanded`,
/// `dsr_maxof_expanded`, `cr_expanded`, `cr_small_expanded` (absent when not reported),
/// `status` (solved, not solved, not run) and, when solved, `generated`, `expanded`,
/// `ratio_2002` (ours over the 2002 count), `time_seconds`, `nodes_per_second`. Overall:
/// `instances`, `solved`, `not_solved`, `not_run`, `time_seconds` and `nodes_per_second`
/// of the solved ones,
/// `ratio_2002` (their generated over their 2002 counts), `projected_seconds` (the
/// unsolved ones', see the module documentation), `projected_total_seconds` and
/// `projected_total_hours` (NaN when nothing was solved).
fn table(published: &[Published], ours: impl Fn(u32) -> Option<Ours>) -> Facts {
    let mut f = Facts::default();
    let (mut solved, mut not_solved, mut not_run) = (0usize, 0usize, 0usize);
    let (mut gen_sum, mut paper_sum, mut secs_sum) = (0.0, 0.0, 0.0);
    let mut unsolved_paper = 0.0;
    for p in published {
        let key = |name: &str| format!("[{}].{name}", p.id);
        f.set(key("optimal"), u64::from(p.optimal));
        f.set(key("korf2002_generated"), p.korf2002_generated);
        f.set(key("dsr_6666_expanded"), p.dsr_6666_expanded);
        f.set(key("dsr_maxof_expanded"), p.dsr_maxof_expanded);
        if let Some(c) = p.cr_small_expanded {
            f.set(key("cr_small_expanded"), c);
        }
        if let Some(c) = p.cr_expanded {
            f.set(key("cr_expanded"), c);
        }
        let paper = p.korf2002_generated as f64;
        match ours(p.id) {
            Some(o) if o.solved => {
                solved += 1;
                gen_sum += o.generated;
                paper_sum += paper;
                secs_sum += o.seconds;
                f.set(key("status"), "solved");
                f.set(key("generated"), o.generated as u64);
                f.set(key("expanded"), o.expanded as u64);
                f.set(key("ratio_2002"), o.generated / paper);
                f.set(key("time_seconds"), o.seconds);
                f.set(key("nodes_per_second"), (o.generated / o.seconds).round());
            }
            Some(_) => {
                not_solved += 1;
                unsolved_paper += paper;
                f.set(key("status"), "not solved");
            }
            None => {
                not_run += 1;
                unsolved_paper += paper;
                f.set(key("status"), "not run");
            }
        }
    }
    let speed = gen_sum / secs_sum;
    let ratio = gen_sum / paper_sum;
    let nan_unless = |ok: bool, x: f64| if ok { x } else { f64::NAN };
    let projected = nan_unless(solved > 0, unsolved_paper * ratio / speed);
    f.set("instances", published.len());
    f.set("solved", solved);
    f.set("not_solved", not_solved);
    f.set("not_run", not_run);
    f.set("time_seconds", secs_sum);
    f.set("nodes_per_second", nan_unless(solved > 0, speed.round()));
    f.set("ratio_2002", nan_unless(solved > 0, ratio));
    f.set("projected_seconds", projected);
    f.set("projected_total_seconds", secs_sum + projected);
    f.set("projected_total_hours", (secs_sum + projected) / 3600.0);
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::facts::Fact;

    #[test]
    fn the_published_table_has_all_fifty_instances() {
        let p = published();
        assert_eq!(p.len(), 50);
        assert_eq!(
            p.iter().map(|x| x.id).collect::<Vec<_>>(),
            (1..=50).collect::<Vec<_>>()
        );
        assert_eq!(
            p[0],
            Published {
                id: 1,
                optimal: 95,
                korf2002_generated: 2_031_102_635,
                dsr_6666_expanded: 1_059_622_872,
                dsr_maxof_expanded: 63_948_759,
                cr_expanded: Some(108_703_674),
                cr_small_expanded: Some(117_467_064),
            }
        );
        assert_eq!(p[49].cr_expanded, None, "-1: not reported");
        let ids: Vec<u32> = crate::tiles::InstanceSet::Korf24
            .instances()
            .iter()
            .map(|i| i.optimal)
            .collect();
        let optima: Vec<u32> = p.iter().map(|x| x.optimal).collect();
        assert_eq!(ids, optima, "the optima of the embedded instances");
    }

    #[test]
    fn the_table_shows_the_solved_beside_the_papers_and_projects_the_rest() {
        // Three instances: one solved with twice the 2002 count in 10 s, one stopped at
        // its limit, one never run. Speed 2000 / 10 = 200 nodes/s, ratio 2: the two
        // unsolved ones (3000 and 5000 nodes in 2002) are projected at 2 · 8000 / 200 s.
        let p = parse(
            "# id optimal korf2002 dsr_6666 dsr_888 dsr_987 dsr_996 dsr_maxof cr_improved cr_small\n\
             1 95 1000 500 1 1 1 40 60 70\n\
             2 96 3000 900 1 1 1 80 -1 90\n\
             3 97 5000 999 1 1 1 99 98 97\n",
        );
        let f = table(&p, |id| match id {
            1 => Some(Ours {
                solved: true,
                generated: 2000.0,
                expanded: 900.0,
                seconds: 10.0,
            }),
            2 => Some(Ours {
                solved: false,
                generated: 7000.0,
                expanded: 3000.0,
                seconds: 35.0,
            }),
            _ => None,
        });
        let get = |k: &str| f.get(k).cloned().unwrap_or_else(|| panic!("no {k}"));
        assert_eq!(get("instances"), Fact::Int(3));
        assert_eq!(get("solved"), Fact::Int(1));
        assert_eq!(get("not_solved"), Fact::Int(1));
        assert_eq!(get("not_run"), Fact::Int(1));
        assert_eq!(get("time_seconds"), Fact::Num(10.0));
        assert_eq!(get("nodes_per_second"), Fact::Num(200.0));
        assert_eq!(get("ratio_2002"), Fact::Num(2.0));
        assert_eq!(get("projected_seconds"), Fact::Num(80.0));
        assert_eq!(get("projected_total_seconds"), Fact::Num(90.0));
        assert_eq!(get("projected_total_hours"), Fact::Num(90.0 / 3600.0));
        assert_eq!(get("[1].status"), Fact::Text("solved".into()));
        assert_eq!(get("[1].generated"), Fact::Int(2000));
        assert_eq!(get("[1].expanded"), Fact::Int(900));
        assert_eq!(get("[1].ratio_2002"), Fact::Num(2.0));
        assert_eq!(get("[1].nodes_per_second"), Fact::Num(200.0));
        assert_eq!(get("[1].korf2002_generated"), Fact::Int(1000));
        assert_eq!(get("[1].dsr_6666_expanded"), Fact::Int(500));
        assert_eq!(get("[1].dsr_maxof_expanded"), Fact::Int(40));
        assert_eq!(get("[1].cr_expanded"), Fact::Int(60));
        assert_eq!(get("[1].cr_small_expanded"), Fact::Int(70));
        // Not solved: shown as such, with no counts of ours (never as solved).
        assert_eq!(get("[2].status"), Fact::Text("not solved".into()));
        assert_eq!(get("[3].status"), Fact::Text("not run".into()));
        for id in [2, 3] {
            for k in ["generated", "expanded", "time_seconds", "ratio_2002"] {
                assert_eq!(f.get(&format!("[{id}].{k}")), None, "[{id}].{k}");
            }
        }
        assert_eq!(f.get("[2].cr_expanded"), None, "not reported");
        assert_eq!(get("[3].optimal"), Fact::Int(97));
        // Nothing solved: no speed, no projection.
        let none = table(&p, |_| None);
        assert!(matches!(none.get("projected_seconds"), Some(Fact::Num(x)) if x.is_nan()));
        assert_eq!(none.get("not_run"), Some(&Fact::Int(3)));
    }

    #[test]
    fn an_instance_with_two_options_is_refused_not_mixed() {
        use polars::prelude::{Column, DataFrame};
        let results = DataFrame::new_infer_height(vec![
            Column::new("instance".into(), [38i64, 38]),
            Column::new("pruning".into(), ["parent", "fsm"]),
            Column::new("solution_length".into(), [96i64, 96]),
            Column::new("generated".into(), [38_173_507i64, 24_393_425]),
            Column::new("expanded".into(), [18_000_000i64, 11_791_592]),
            Column::new("time_seconds".into(), [1.5f64, 1.1]),
        ])
        .unwrap();
        let config = crate::pipeline::config::parse(
            &std::fs::read_to_string("configs/korf24.toml").unwrap(),
            "korf24",
            &[],
        )
        .unwrap();
        let input = |df| FactInput {
            results: df,
            anytime: &results,
            config: &config,
        };
        let err = korf24(&input(&results)).unwrap_err().to_string();
        assert!(err.contains("instance 38 has several rows"), "{err}");
        let one = results.slice(1, 1);
        let f = korf24(&input(&one)).unwrap();
        assert_eq!(f.get("solved"), Some(&Fact::Int(1)));
    }
}
