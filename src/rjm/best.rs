//! The best Rook Jumping Mazes ever found, one per size, kept as data in the repository
//! (`src/rjm/data/best_mazes.toml`, compiled into the binary): each maze with its path
//! length, the method and the seed that found it. `searchlab rjm best` anneals a size
//! with a budget and replaces the maze of a store file (by default that data file, in a
//! checkout) when it finds a longer path; the report draws the built-in mazes.
//!
//! The file is checked when it is read: every maze must be legal for its size and have
//! exactly the stated length, so a hand-edited or damaged record is refused, never drawn.

use crate::rjm::evaluate::objective;
use crate::rjm::runner::{maze_code, parse_maze_code};
use crate::rjm::{Maze, UNREACHABLE};
use crate::util::observe::{Observer, Work};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub size: usize,
    /// Moves on a shortest path from the start to the goal.
    pub length: i64,
    /// The maze, rows separated by '/'.
    pub maze: String,
    /// How it was found: the algorithm and its parameters.
    pub method: String,
    /// The seed of the run that found it (replaying the method with it finds it again).
    pub seed: u64,
    /// Iterations of that run.
    pub iterations: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    maze: Vec<Record>,
}

/// Reference values per maze size, for targets relative to the best known maze.
pub const REFERENCES: &[crate::present::facts::ReferenceFunction] = &[
    crate::present::facts::ReferenceFunction {
        name: "rjm.best_objective",
        what: "the objective (−moves) of the best known maze of the size",
        value: best_objective,
    },
    crate::present::facts::ReferenceFunction {
        name: "rjm.best_length",
        what: "the moves of the best known maze of the size",
        value: |size| best_objective(size).map(|o| -o),
    },
];

/// The objective of the best built-in maze of a size (`"7"`).
fn best_objective(size: &str) -> Option<f64> {
    let size: usize = size.trim().parse().ok()?;
    let records = built_in().ok()?;
    let r = records.iter().find(|r| r.size == size)?;
    Some(-(r.length as f64))
}

/// The records compiled into the binary.
const BUILT_IN: &str = include_str!("data/best_mazes.toml");

/// Where `rjm best` keeps its records unless told: the project's data file, relative to
/// the working folder (the root of a checkout).
pub const DEFAULT_STORE: &str = "src/rjm/data/best_mazes.toml";

/// The built-in records, checked, sorted by size.
pub fn built_in() -> anyhow::Result<Vec<Record>> {
    parse(BUILT_IN, "the built-in best mazes")
}

/// The records of a store file, or the built-in ones when it does not exist yet.
pub fn load_store(path: &Path) -> anyhow::Result<Vec<Record>> {
    if path.exists() {
        load(path)
    } else {
        built_in()
    }
}

/// Reads and checks the records, sorted by size.
pub fn load(path: &Path) -> anyhow::Result<Vec<Record>> {
    let text = crate::util::input::read_file(path, "best-maze store")?;
    parse(&text, &path.display().to_string())
}

/// Parses and checks records; `source` names them in errors.
pub fn parse(text: &str, source: &str) -> anyhow::Result<Vec<Record>> {
    let file: File =
        toml::from_str(text).map_err(|e| crate::user_error!("{source}: {}", e.message().trim()))?;
    let mut records = file.maze;
    for r in &records {
        check(r).map_err(|e| crate::user_error!("{source}: the {0}×{0} record: {e}", r.size))?;
    }
    records.sort_by_key(|r| r.size);
    if let Some(w) = records.windows(2).find(|w| w[0].size == w[1].size) {
        crate::user_bail!("{source}: two records of size {}", w[0].size);
    }
    Ok(records)
}

/// The length of a maze's shortest path, if its goal is reachable.
pub fn path_length(maze: &Maze) -> Option<i64> {
    let o = objective(maze);
    (o != UNREACHABLE).then_some(-o)
}

/// Checks that a record's maze is legal for its size and has its stated length.
pub fn check(r: &Record) -> Result<(), String> {
    let maze = parse_maze_code(&r.maze).ok_or("the maze is not a legal maze")?;
    if maze.size() != r.size {
        return Err(format!("the maze is {0}×{0}", maze.size()));
    }
    match path_length(&maze) {
        Some(l) if l == r.length => Ok(()),
        Some(l) => Err(format!(
            "the stated length is {} but the maze's is {l}",
            r.length
        )),
        None => Err("the goal is unreachable".into()),
    }
}

/// Replaces the record of `candidate`'s size when `candidate` is longer (or there is
/// none); returns whether it did. The file is rewritten atomically.
pub fn offer(path: &Path, candidate: Record) -> anyhow::Result<bool> {
    check(&candidate).map_err(anyhow::Error::msg)?;
    let mut records = load_store(path)?;
    match records.iter_mut().find(|r| r.size == candidate.size) {
        Some(r) if r.length >= candidate.length => return Ok(false),
        Some(r) => *r = candidate,
        None => records.push(candidate),
    }
    records.sort_by_key(|r| r.size);
    let text = format!(
        "# The best Rook Jumping Maze of each size found so far (`searchlab rjm best`).\n\
         # Every maze is checked when read: legal for its size, with exactly its length.\n\n{}",
        toml::to_string(&File { maze: records })?
    );
    crate::util::atomic::write(path, text.as_bytes())?;
    Ok(true)
}

/// A record of a maze found by a run.
pub fn record(maze: &Maze, method: String, seed: u64, iterations: u64) -> Option<Record> {
    Some(Record {
        size: maze.size(),
        length: path_length(maze)?,
        maze: maze_code(maze),
        method,
        seed,
        iterations,
    })
}

/// How `searchlab rjm best` anneals: geometric cooling between two end temperatures.
#[derive(Debug, Clone, PartialEq)]
pub struct Method {
    pub size: usize,
    pub runs: u64,
    pub iterations: u64,
    pub t0: f64,
    pub t_end: f64,
    pub seed: u64,
}

impl Method {
    /// The method as a record states it.
    pub fn describe(&self) -> String {
        format!(
            "anneal, schedule geometric_end, T0 = {}, T_end = {}, {} iterations (best of {} runs)",
            self.t0, self.t_end, self.iterations, self.runs
        )
    }

    /// The seed of run `i`.
    pub fn run_seed(&self, i: u64) -> u64 {
        crate::util::rng::derive_seed(self.seed, &format!("rjm best|{}", self.size), i) >> 1
    }

    /// The best maze of run `seed`: a random maze and the annealing from it, both
    /// drawn from one generator seeded with `seed` (as the assignment's part 6 does).
    pub fn run(&self, seed: u64) -> Maze {
        use crate::local_search::{Acceptance, Schedule, Settings};
        let mut rng = crate::util::rng::rng_from_seed(seed);
        let start = Maze::random(self.size, &mut rng);
        let settings = Settings {
            acceptance: Acceptance::Anneal(Schedule::GeometricEnd {
                t0: self.t0,
                t_end: self.t_end,
            }),
            sideways_cap: None,
            budget: self.iterations,
            unit: crate::local_search::Unit::Iterations,
            descents: 1,
            checkpoints: Vec::new(),
        };
        crate::rjm::landscape::optimize(&start, &settings, &mut rng).best
    }

    /// Runs every run on `jobs` threads (the same result whatever their number) and
    /// returns the longest maze's record (ties: the lowest run). The runs are a task of
    /// `observer`, advanced as each run ends with the longest path found so far as its
    /// status (0: none yet).
    pub fn search(&self, jobs: usize, observer: &dyn Observer) -> anyhow::Result<Option<Record>> {
        use rayon::prelude::*;
        use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
        let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
        let longest = AtomicI64::new(0);
        let runs = observer.task(&Work::new("", "runs", Some(self.runs)));
        let found: Vec<Option<Record>> = pool.install(|| {
            (0..self.runs)
                .into_par_iter()
                .map(|i| {
                    let seed = self.run_seed(i);
                    let r = record(&self.run(seed), self.describe(), seed, self.iterations);
                    let length = r.as_ref().map_or(0, |r| r.length);
                    let so_far = longest.fetch_max(length, Relaxed).max(length);
                    runs.advance(1, &format!("longest so far: {so_far} moves"));
                    r
                })
                .collect()
        });
        runs.finish();
        let mut best: Option<Record> = None;
        for r in found.into_iter().flatten() {
            if best.as_ref().is_none_or(|b| r.length > b.length) {
                best = Some(r);
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_maze_is_legal_and_has_its_length() {
        let records = built_in().unwrap();
        let sizes: Vec<usize> = records.iter().map(|r| r.size).collect();
        assert_eq!(sizes, vec![5, 6, 7, 8, 9, 10], "one record per size");
        for r in &records {
            let maze = parse_maze_code(&r.maze).unwrap();
            assert_eq!(maze.size(), r.size);
            // Every jump stays on the board in at least one direction; the goal is 0.
            assert_eq!(maze.jumps()[maze.goal()], 0);
            assert_eq!(path_length(&maze), Some(r.length), "{}×{}", r.size, r.size);
        }
    }

    #[test]
    fn a_wrong_length_or_a_bad_maze_is_refused() {
        let good = built_in().unwrap().remove(0);
        let text = |r: &Record| {
            toml::to_string(&File {
                maze: vec![r.clone()],
            })
            .unwrap()
        };
        assert!(parse(&text(&good), "f").is_ok());
        let mut long = good.clone();
        long.length += 1;
        let e = parse(&text(&long), "f").unwrap_err().to_string();
        assert!(e.contains("stated length"), "{e}");
        let mut bad = good.clone();
        bad.maze = "1 2/3".into();
        assert!(parse(&text(&bad), "f").is_err());
    }

    #[test]
    fn offer_keeps_the_longer_maze() {
        let dir = std::env::temp_dir().join(format!("searchlab-best-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("best.toml");
        // A store that does not exist yet starts from the built-in records.
        let _ = std::fs::remove_file(&path);
        assert_eq!(load_store(&path).unwrap(), built_in().unwrap());
        std::fs::write(&path, "").unwrap();
        let mut rng = crate::util::rng::rng_from_seed(1);
        let mut mazes: Vec<Record> = (0..40)
            .filter_map(|s| record(&Maze::random(5, &mut rng), "random".into(), s, 0))
            .collect();
        mazes.sort_by_key(|r| r.length);
        let (short, long) = (mazes[0].clone(), mazes.last().unwrap().clone());
        assert!(short.length < long.length);
        assert!(offer(&path, short.clone()).unwrap());
        assert!(offer(&path, long.clone()).unwrap());
        assert!(!offer(&path, short).unwrap());
        assert_eq!(load(&path).unwrap(), vec![long]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_search_is_reproducible_and_replays_from_its_seed() {
        let m = Method {
            size: 6,
            runs: 3,
            iterations: 20_000,
            t0: 3.0,
            t_end: 0.2,
            seed: 9,
        };
        let a = m.search(1, &crate::util::observe::Quiet).unwrap().unwrap();
        // Told of each run as it ends with the longest so far (on three threads, in any
        // order), the longest of all the best run's.
        let observer = crate::util::observe::Recorder::default();
        assert_eq!(Some(a.clone()), m.search(3, &observer).unwrap());
        let told: Vec<i64> = observer
            .statuses()
            .iter()
            .map(|s| {
                s.strip_prefix("longest so far: ")
                    .and_then(|s| s.strip_suffix(" moves"))
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_eq!(told.len(), 3);
        assert!(told.iter().all(|&l| l > 0), "{told:?}");
        assert_eq!(told.iter().max(), Some(&a.length));
        check(&a).unwrap();
        // The stated seed finds the maze again.
        assert_eq!(maze_code(&m.run(a.seed)), a.maze);
    }
}
