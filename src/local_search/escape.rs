//! Local minima and escapes from them, for the question "is the probability of taking
//! an uphill step the probability of escaping a local minimum?" (the Rook Jumping Maze assignment, part 7).
//!
//! A state is a *local minimum* when no neighbour has a lower energy; this is checked
//! exhaustively, by evaluating every neighbour. A walk started at a local minimum of
//! energy E* *escapes* when, within a window of W iterations of hill descent with
//! uphill probability p (sideways moves allowed), it reaches a state of energy below E*.

use super::Landscape;
use crate::util::rng::SearchRng;
use rand::RngExt;

/// What the exhaustive check found around a local minimum.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalMinimum {
    pub energy: f64,
    /// Neighbours with the same energy (a plateau that sideways moves can walk).
    pub sideways_neighbours: usize,
    /// Neighbours with a higher energy.
    pub uphill_neighbours: usize,
    /// Improving moves taken to reach it.
    pub descent_steps: u64,
}

/// Counts a state's neighbours by sign of energy change; returns the improving ones.
fn classify<L: Landscape>(land: &mut L, energy: f64) -> (Vec<L::Move>, usize, usize) {
    let mut improving = Vec::new();
    let (mut sideways, mut uphill) = (0, 0);
    for mv in land.neighbours() {
        land.apply(mv);
        let e = land.energy();
        land.undo(mv);
        if e < energy {
            improving.push(mv);
        } else if e == energy {
            sideways += 1;
        } else {
            uphill += 1;
        }
    }
    (improving, sideways, uphill)
}

/// Descends from the current state, each step to a uniformly random improving
/// neighbour, until none is left: a verified local minimum. The undo of a listed move
/// must be given the move itself, so landscapes list moves that carry their old value.
///
/// ```
/// use searchlab::local_search::escape::descend_to_local_minimum;
/// use searchlab::local_search::Landscape;
/// use searchlab::rjm::{Maze, MazeLandscape};
/// use searchlab::util::rng::rng_from_seed;
/// let mut rng = rng_from_seed(3);
/// let mut land = MazeLandscape::<u32>::new(&Maze::random(5, &mut rng));
/// let start = land.energy();
/// let min = descend_to_local_minimum(&mut land, &mut rng);
/// assert!(min.energy <= start);
/// // No neighbour is lower: every one is sideways or uphill.
/// assert_eq!(min.sideways_neighbours + min.uphill_neighbours, land.neighbours().len());
/// ```
pub fn descend_to_local_minimum<L: Landscape>(land: &mut L, rng: &mut SearchRng) -> LocalMinimum {
    let mut energy = land.energy();
    let mut steps = 0;
    loop {
        let (improving, sideways, uphill) = classify(land, energy);
        if improving.is_empty() {
            return LocalMinimum {
                energy,
                sideways_neighbours: sideways,
                uphill_neighbours: uphill,
                descent_steps: steps,
            };
        }
        let mv = improving[rng.random_range(0..improving.len())];
        land.apply(mv);
        energy = land.energy();
        steps += 1;
    }
}

/// One escape attempt from a local minimum of energy `minimum`.
#[derive(Debug, Clone, PartialEq)]
pub struct EscapeTrial {
    pub escaped: bool,
    /// The iteration at which the walk first went below the minimum (None: not within the window).
    pub iterations_to_escape: Option<u64>,
    /// Uphill steps taken before escaping (or within the window).
    pub uphill_steps: u64,
    /// Uphill proposals (accepted or not) before escaping (or within the window).
    pub uphill_proposals: u64,
}

/// Runs hill descent with uphill probability `p` from the current state (a local minimum
/// of energy `minimum`) for at most `window` iterations, stopping at the first state
/// whose energy is below `minimum`.
///
/// ```
/// use searchlab::local_search::escape::{descend_to_local_minimum, escape_trial};
/// use searchlab::rjm::{Maze, MazeLandscape};
/// use searchlab::util::rng::rng_from_seed;
/// let mut rng = rng_from_seed(5);
/// let mut land = MazeLandscape::<u32>::new(&Maze::random(5, &mut rng));
/// let min = descend_to_local_minimum(&mut land, &mut rng);
/// let trial = escape_trial(&mut land, &mut rng, 0.1, 1000, min.energy);
/// // An escape is reported with the iteration it happened at, and only then.
/// assert_eq!(trial.escaped, trial.iterations_to_escape.is_some());
/// assert!(trial.iterations_to_escape.is_none_or(|i| i <= 1000));
/// ```
pub fn escape_trial<L: Landscape>(
    land: &mut L,
    rng: &mut SearchRng,
    p: f64,
    window: u64,
    minimum: f64,
) -> EscapeTrial {
    let mut current = minimum;
    let mut trial = EscapeTrial {
        escaped: false,
        iterations_to_escape: None,
        uphill_steps: 0,
        uphill_proposals: 0,
    };
    for i in 1..=window {
        let mv = land.step(rng);
        let e = land.energy();
        if e < minimum {
            trial.escaped = true;
            trial.iterations_to_escape = Some(i);
            return trial;
        }
        let accept = if e <= current {
            true
        } else {
            trial.uphill_proposals += 1;
            let ok = p > 0.0 && rng.random::<f64>() < p;
            trial.uphill_steps += u64::from(ok);
            ok
        };
        if accept {
            current = e;
        } else {
            land.undo(mv);
        }
    }
    trial
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local_search::tests::Line;
    use crate::util::rng::rng_from_seed;

    #[test]
    fn descent_stops_at_a_verified_local_minimum() {
        let energies = vec![5.0, 4.0, 3.0, 2.0, 3.0, 9.0, 3.0, 1.0, 4.0];
        let mut land = Line {
            energies,
            pos: 0,
            evaluations: 0,
        };
        let m = descend_to_local_minimum(&mut land, &mut rng_from_seed(1));
        assert_eq!(land.pos, 3);
        assert_eq!(m.energy, 2.0);
        assert_eq!(
            (m.sideways_neighbours, m.uphill_neighbours, m.descent_steps),
            (0, 2, 3)
        );
    }

    #[test]
    fn no_escape_without_uphill_steps_from_a_strict_minimum() {
        let energies = vec![5.0, 4.0, 3.0, 2.0, 3.0, 9.0, 3.0, 1.0, 4.0];
        let mut land = Line {
            energies: energies.clone(),
            pos: 3,
            evaluations: 0,
        };
        let t = escape_trial(&mut land, &mut rng_from_seed(1), 0.0, 1000, 2.0);
        assert!(!t.escaped);
        assert_eq!(t.uphill_steps, 0);
        assert_eq!(t.uphill_proposals, 1000);
        // With p = 1 (a random walk) the wall is crossed.
        let mut land = Line {
            energies,
            pos: 3,
            evaluations: 0,
        };
        let t = escape_trial(&mut land, &mut rng_from_seed(1), 1.0, 100_000, 2.0);
        assert!(t.escaped);
        assert_eq!(land.pos, 7);
        assert!(t.uphill_steps >= 2);
    }
}
