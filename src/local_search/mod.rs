//! Stochastic local search, generic over the problem: hill descent with sideways moves
//! (capped or not), random restarts, fixed-probability uphill steps and simulated
//! annealing under several temperature schedules, all as one loop (the Rook Jumping Maze assignment, parts 3–6).
//!
//! A problem is a [`Landscape`]: it owns its current state, proposes a random neighbour
//! in place, and can undo it. The loop never allocates; the best state is copied into a
//! snapshot buffer made once.

pub mod escape;
pub mod schedule;

use crate::util::rng::SearchRng;
use rand::RngExt;
pub use schedule::Schedule;

/// A search space with an energy to minimise, seen from its current state.
pub trait Landscape {
    /// A change that [`Landscape::undo`] reverts.
    type Move: Copy;
    /// A copy of a state, for keeping the best one.
    type Snapshot: Clone;

    /// The energy of the current state (evaluating it: counted as an evaluation).
    fn energy(&mut self) -> f64;
    /// Moves to a uniformly random neighbour and returns the move.
    fn step(&mut self, rng: &mut SearchRng) -> Self::Move;
    /// Reverts a move returned by `step` or listed by `neighbours`.
    fn undo(&mut self, mv: Self::Move);
    /// Applies a move listed by `neighbours`.
    fn apply(&mut self, mv: Self::Move);
    /// Replaces the current state by a fresh random one.
    fn restart(&mut self, rng: &mut SearchRng);
    fn snapshot(&self) -> Self::Snapshot;
    /// Copies the current state into `into` without allocating.
    fn save(&self, into: &mut Self::Snapshot);
    /// Every neighbour of the current state (for exhaustive local-minimum checks).
    fn neighbours(&self) -> Vec<Self::Move>;
}

/// When a non-improving neighbour is accepted.
#[derive(Debug, Clone, PartialEq)]
pub enum Acceptance {
    /// Uphill steps are taken with a fixed probability (0: pure hill descent; part 5).
    Uphill { probability: f64 },
    /// Simulated annealing: uphill by Δ with probability e^(−Δ/T) (part 6).
    Anneal(Schedule),
}

/// One search: how it accepts, how long it runs, and where it reports progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub acceptance: Acceptance,
    /// Sideways moves are accepted only while fewer than this many have been accepted in
    /// a row (a row ends at any accepted improving or uphill move, and at a restart).
    /// `None`: always accepted, as in the assignment. `Some(0)`: never.
    pub sideways_cap: Option<u64>,
    /// The run's iterations, in all.
    pub iterations: u64,
    /// Descents sharing the iterations as evenly as possible (the first
    /// `iterations % descents` get one more); more than one means random restarts
    /// between them (part 4).
    pub descents: u64,
    /// Iteration counts at which to record the best energy so far (sorted).
    pub checkpoints: Vec<u64>,
}

impl Settings {
    /// The iterations of descent `i`.
    pub fn descent_length(&self, i: u64) -> u64 {
        let d = self.descents.max(1);
        self.iterations / d + u64::from(i < self.iterations % d)
    }
}

/// What a search found and how it got there.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalSearchResult<S> {
    pub best: S,
    pub best_energy: f64,
    /// The first iteration at which `best_energy` was reached (0: the initial state).
    pub best_iteration: u64,
    pub iterations: u64,
    pub evaluations: u64,
    pub accepted_improving: u64,
    pub accepted_sideways: u64,
    pub accepted_uphill: u64,
    pub restarts: u64,
    /// The temperature after the last iteration (annealing only).
    pub final_temperature: Option<f64>,
    /// (iteration, best energy so far) at each checkpoint reached.
    pub anytime: Vec<(u64, f64)>,
}

impl<S> LocalSearchResult<S> {
    /// The same outcome with the best state converted.
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> LocalSearchResult<T> {
        LocalSearchResult {
            best: f(self.best),
            best_energy: self.best_energy,
            best_iteration: self.best_iteration,
            iterations: self.iterations,
            evaluations: self.evaluations,
            accepted_improving: self.accepted_improving,
            accepted_sideways: self.accepted_sideways,
            accepted_uphill: self.accepted_uphill,
            restarts: self.restarts,
            final_temperature: self.final_temperature,
            anytime: self.anytime,
        }
    }
}

/// Runs the assignment's loop: step, evaluate, accept or undo, keep the best (≤, as the
/// assignment does).
///
/// ```
/// use searchlab::local_search::{search, Acceptance, Landscape, Settings};
/// use searchlab::util::rng::{rng_from_seed, SearchRng};
/// use rand::RngExt;
///
/// /// Minimise (x − 7)² over the integers 0..=20, moving ±1.
/// struct Parabola { x: i64 }
/// impl Landscape for Parabola {
///     type Move = i64;
///     type Snapshot = i64;
///     fn energy(&mut self) -> f64 { ((self.x - 7) * (self.x - 7)) as f64 }
///     fn step(&mut self, rng: &mut SearchRng) -> i64 {
///         let d = if self.x == 0 { 1 } else if self.x == 20 { -1 }
///                 else if rng.random_bool(0.5) { 1 } else { -1 };
///         self.x += d;
///         d
///     }
///     fn undo(&mut self, d: i64) { self.x -= d; }
///     fn apply(&mut self, d: i64) { self.x += d; }
///     fn restart(&mut self, rng: &mut SearchRng) { self.x = rng.random_range(0..=20); }
///     fn snapshot(&self) -> i64 { self.x }
///     fn save(&self, into: &mut i64) { *into = self.x; }
///     fn neighbours(&self) -> Vec<i64> {
///         [-1, 1].into_iter().filter(|d| (0..=20).contains(&(self.x + d))).collect()
///     }
/// }
///
/// let settings = Settings {
///     acceptance: Acceptance::Uphill { probability: 0.0 },
///     sideways_cap: None,
///     iterations: 200,
///     descents: 1,
///     checkpoints: vec![200],
/// };
/// let out = search(&mut Parabola { x: 18 }, &settings, &mut rng_from_seed(1));
/// assert_eq!((out.best, out.best_energy), (7, 0.0));
/// assert_eq!(out.accepted_uphill, 0);
/// ```
pub fn search<L: Landscape>(
    land: &mut L,
    settings: &Settings,
    rng: &mut SearchRng,
) -> LocalSearchResult<L::Snapshot> {
    let mut schedule = match &settings.acceptance {
        Acceptance::Anneal(s) => Some(s.start(settings.iterations)),
        Acceptance::Uphill { .. } => None,
    };
    let uphill_probability = match settings.acceptance {
        Acceptance::Uphill { probability } => probability,
        Acceptance::Anneal(_) => 0.0,
    };
    let cap = settings.sideways_cap.unwrap_or(u64::MAX);
    let total = settings.iterations;

    let mut current = land.energy();
    let mut evaluations = 1;
    let mut best = land.snapshot();
    let mut best_energy = current;
    let mut best_iteration = 0;
    let mut out = LocalSearchResult {
        best: land.snapshot(),
        best_energy,
        best_iteration,
        iterations: total,
        evaluations: 0,
        accepted_improving: 0,
        accepted_sideways: 0,
        accepted_uphill: 0,
        restarts: 0,
        final_temperature: None,
        anytime: Vec::with_capacity(settings.checkpoints.len()),
    };
    let mut checkpoints = settings.checkpoints.iter().copied().peekable();
    while checkpoints.peek() == Some(&0) {
        out.anytime.push((0, best_energy));
        checkpoints.next();
    }
    let mut next_checkpoint = checkpoints.next().unwrap_or(u64::MAX);

    let mut iteration = 0u64;
    for descent in 0..settings.descents.max(1) {
        let length = settings.descent_length(descent);
        if descent > 0 {
            land.restart(rng);
            current = land.energy();
            evaluations += 1;
            out.restarts += 1;
        }
        let mut sideways_run = 0u64;
        for _ in 0..length {
            iteration += 1;
            let mv = land.step(rng);
            let candidate = land.energy();
            evaluations += 1;
            let accept = if candidate < current {
                out.accepted_improving += 1;
                sideways_run = 0;
                true
            } else if candidate == current {
                let ok = sideways_run < cap;
                if ok {
                    sideways_run += 1;
                    out.accepted_sideways += 1;
                }
                ok
            } else {
                let ok = match &mut schedule {
                    Some(s) => {
                        // e^x < 1e-304 for x < -700: such a step is never taken, so
                        // no number is drawn for it (and exp's slow underflow path is
                        // never entered).
                        let x = (current - candidate) / s.temperature();
                        let ok = x > -700.0 && rng.random::<f64>() < x.exp();
                        s.uphill(ok);
                        ok
                    }
                    None => uphill_probability > 0.0 && rng.random::<f64>() < uphill_probability,
                };
                if ok {
                    out.accepted_uphill += 1;
                    sideways_run = 0;
                }
                ok
            };
            if accept {
                current = candidate;
                if candidate <= best_energy {
                    if candidate < best_energy {
                        best_iteration = iteration;
                    }
                    best_energy = candidate;
                    land.save(&mut best);
                }
            } else {
                land.undo(mv);
            }
            if let Some(s) = &mut schedule {
                s.advance(iteration, total, best_iteration == iteration);
            }
            if iteration == next_checkpoint {
                out.anytime.push((iteration, best_energy));
                next_checkpoint = checkpoints.next().unwrap_or(u64::MAX);
            }
        }
    }
    out.best = best;
    out.best_energy = best_energy;
    out.best_iteration = best_iteration;
    out.evaluations = evaluations;
    out.final_temperature = schedule.map(|s| s.temperature());
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::util::rng::rng_from_seed;

    /// A one-dimensional landscape for checking the loop's rules by hand: positions
    /// 0..len on a line, energy given per position, a step moves ±1 (clamped).
    pub struct Line {
        pub energies: Vec<f64>,
        pub pos: usize,
        pub evaluations: u64,
    }

    impl Landscape for Line {
        /// (from, to).
        type Move = (usize, usize);
        type Snapshot = usize;
        fn energy(&mut self) -> f64 {
            self.evaluations += 1;
            self.energies[self.pos]
        }
        fn step(&mut self, rng: &mut SearchRng) -> (usize, usize) {
            let old = self.pos;
            let last = self.energies.len() - 1;
            self.pos = if old == 0 {
                1
            } else if old == last || rng.random::<bool>() {
                old - 1
            } else {
                old + 1
            };
            (old, self.pos)
        }
        fn undo(&mut self, mv: (usize, usize)) {
            self.pos = mv.0;
        }
        fn apply(&mut self, mv: (usize, usize)) {
            self.pos = mv.1;
        }
        fn restart(&mut self, rng: &mut SearchRng) {
            self.pos = rng.random_range(0..self.energies.len());
        }
        fn snapshot(&self) -> usize {
            self.pos
        }
        fn save(&self, into: &mut usize) {
            *into = self.pos;
        }
        fn neighbours(&self) -> Vec<(usize, usize)> {
            let p = self.pos;
            [
                p.checked_sub(1),
                (p + 1 < self.energies.len()).then_some(p + 1),
            ]
            .into_iter()
            .flatten()
            .map(|to| (p, to))
            .collect()
        }
    }

    fn settings(acceptance: Acceptance, cap: Option<u64>, descents: (u64, u64)) -> Settings {
        Settings {
            acceptance,
            sideways_cap: cap,
            iterations: descents.0,
            descents: descents.1,
            checkpoints: vec![1, 10, 100],
        }
    }

    #[test]
    fn pure_descent_never_goes_uphill_and_stops_in_the_valley() {
        // A valley at 3 next to a lower valley at 7 behind a wall at 5.
        let energies = vec![5.0, 4.0, 3.0, 2.0, 3.0, 9.0, 3.0, 1.0, 4.0];
        let mut land = Line {
            energies,
            pos: 0,
            evaluations: 0,
        };
        let out = search(
            &mut land,
            &settings(Acceptance::Uphill { probability: 0.0 }, None, (1000, 1)),
            &mut rng_from_seed(1),
        );
        assert_eq!(out.best_energy, 2.0);
        assert_eq!(out.best, 3);
        assert_eq!(out.accepted_uphill, 0);
        assert_eq!(out.evaluations, 1001);
        assert_eq!(land.evaluations, 1001);
        assert_eq!(
            out.anytime.iter().map(|a| a.0).collect::<Vec<_>>(),
            vec![1, 10, 100]
        );
    }

    #[test]
    fn random_walk_with_probability_one_crosses_walls() {
        let energies = vec![5.0, 4.0, 3.0, 2.0, 3.0, 9.0, 3.0, 1.0, 4.0];
        let mut land = Line {
            energies,
            pos: 0,
            evaluations: 0,
        };
        let out = search(
            &mut land,
            &settings(Acceptance::Uphill { probability: 1.0 }, None, (1000, 1)),
            &mut rng_from_seed(1),
        );
        assert_eq!(out.best_energy, 1.0);
        assert!(out.accepted_uphill > 0);
        // Every step is accepted: improving + sideways + uphill = iterations.
        assert_eq!(
            out.accepted_improving + out.accepted_sideways + out.accepted_uphill,
            1000
        );
    }

    /// A flat line of 50 positions, starting in the middle.
    fn plateau() -> Line {
        Line {
            energies: vec![0.0; 50],
            pos: 25,
            evaluations: 0,
        }
    }

    #[test]
    fn sideways_cap_bounds_runs_of_sideways_moves() {
        // A flat plateau: every move is sideways.
        let mut land = plateau();
        let out = search(
            &mut land,
            &settings(Acceptance::Uphill { probability: 0.0 }, Some(0), (500, 1)),
            &mut rng_from_seed(1),
        );
        assert_eq!(out.accepted_sideways, 0);
        assert_eq!(land.pos, 25);
        let mut land = plateau();
        let out = search(
            &mut land,
            &settings(Acceptance::Uphill { probability: 0.0 }, Some(7), (500, 1)),
            &mut rng_from_seed(1),
        );
        assert_eq!(out.accepted_sideways, 7);
        let mut land = plateau();
        let out = search(
            &mut land,
            &settings(Acceptance::Uphill { probability: 0.0 }, Some(7), (300, 3)),
            &mut rng_from_seed(1),
        );
        assert_eq!(out.accepted_sideways, 21, "each restart begins a new row");
        assert_eq!(out.restarts, 2);
        let mut land = plateau();
        let out = search(
            &mut land,
            &settings(Acceptance::Uphill { probability: 0.0 }, None, (500, 1)),
            &mut rng_from_seed(1),
        );
        assert_eq!(out.accepted_sideways, 500);
    }

    #[test]
    fn annealing_acceptance_rate_matches_boltzmann() {
        // Two states, energies 0 and 1: from 0 every step is uphill by 1. At constant
        // T (decay 1), the uphill acceptance rate is e^(-1/T).
        for t in [0.5, 1.0, 3.0] {
            let mut land = Line {
                energies: vec![0.0, 1.0],
                pos: 0,
                evaluations: 0,
            };
            let sched = Schedule::Geometric { t0: t, decay: 1.0 };
            let out = search(
                &mut land,
                &settings(Acceptance::Anneal(sched), None, (200_000, 1)),
                &mut rng_from_seed(4),
            );
            // Steps from state 1 are always improving; from 0 uphill with prob q:
            // uphill / (uphill + rejected) = q. Improving count = uphill count (±1).
            let uphill = out.accepted_uphill as f64;
            let from_zero = 200_000.0 - out.accepted_improving as f64;
            let q = uphill / from_zero;
            let want = (-1.0 / t).exp();
            assert!((q - want).abs() < 0.01, "T={t}: {q} vs {want}");
            assert_eq!(out.final_temperature, Some(t));
        }
    }

    #[test]
    fn descents_share_the_budget_evenly() {
        let s = |iterations, descents| Settings {
            acceptance: Acceptance::Uphill { probability: 0.0 },
            sideways_cap: None,
            iterations,
            descents,
            checkpoints: Vec::new(),
        };
        assert_eq!(
            (0..3)
                .map(|i| s(10, 3).descent_length(i))
                .collect::<Vec<_>>(),
            vec![4, 3, 3]
        );
        assert_eq!(
            (0..100)
                .map(|i| s(10_000, 100).descent_length(i))
                .sum::<u64>(),
            10_000
        );
        assert_eq!(s(5, 0).descent_length(0), 5);
    }
}
