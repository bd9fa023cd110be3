//! One race (F-race, as in irace): candidates are evaluated instance by instance; after
//! a first block of instances, a Friedman test over the instances seen so far, followed
//! by Conover's post-hoc comparisons with the best-ranked candidate, drops every
//! candidate significantly worse than it. The race ends when one candidate is left, the
//! instances run out, or the next instance would overspend the budget.
//!
//! The race only decides; it never runs anything. Its caller asks [`Race::next`] which
//! candidates to evaluate on the next instance, evaluates them however it likes (in
//! parallel, from a journal), and gives the values to [`Race::record`]. Decisions depend
//! on the values alone, so a race is reproducible whatever evaluates it.
//!
//! ```
//! use searchlab::tune::race::Race;
//! // Three candidates whose values (lower is better) are 0, 1 and 2 plus the instance.
//! let mut race = Race::new(3, 100, 50, 5, 0.05);
//! while let Some(alive) = race.next() {
//!     let i = race.instances() as f64;
//!     let values: Vec<f64> = alive.iter().map(|&c| c as f64 + (i * 7.0) % 3.0).collect();
//!     race.record(&values);
//! }
//! assert_eq!(race.elite(), 0);
//! assert_eq!(race.alive(), vec![0]);
//! assert!(race.used() <= 100);
//! ```

use crate::stats::friedman_posthoc;

/// The state of one race.
#[derive(Debug, Clone)]
pub struct Race {
    budget: u64,
    max_instances: u64,
    first_test: u64,
    alpha: f64,
    /// The instance count after which each candidate was dropped (None: alive).
    dropped_after: Vec<Option<u64>>,
    /// Per instance, each candidate's value (NaN where it did not run).
    values: Vec<Vec<f64>>,
    used: u64,
    /// (instances done, candidates alive) after each instance.
    steps: Vec<(u64, usize)>,
}

impl Race {
    /// A race of `candidates` with a budget of evaluations, at most `max_instances`
    /// instances, the first test after `first_test` instances, and level `alpha`.
    pub fn new(
        candidates: usize,
        budget: u64,
        max_instances: u64,
        first_test: u64,
        alpha: f64,
    ) -> Race {
        Race {
            budget,
            max_instances,
            first_test: first_test.max(2),
            alpha,
            dropped_after: vec![None; candidates],
            values: Vec::new(),
            used: 0,
            steps: Vec::new(),
        }
    }

    /// The candidates still in the race.
    pub fn alive(&self) -> Vec<usize> {
        (0..self.dropped_after.len())
            .filter(|&c| self.dropped_after[c].is_none())
            .collect()
    }

    /// The candidates to evaluate on the next instance, or None when the race is over.
    pub fn next(&self) -> Option<Vec<usize>> {
        let alive = self.alive();
        let over = alive.len() <= 1
            || self.instances() >= self.max_instances
            || self.used + alive.len() as u64 > self.budget;
        (!over).then_some(alive)
    }

    /// Records the values (lower is better) of the candidates [`Race::next`] returned,
    /// in its order, and eliminates.
    pub fn record(&mut self, values: &[f64]) {
        let alive = self.alive();
        assert_eq!(values.len(), alive.len(), "one value per candidate alive");
        let mut row = vec![f64::NAN; self.dropped_after.len()];
        for (&c, &v) in alive.iter().zip(values) {
            row[c] = v;
        }
        self.values.push(row);
        self.used += alive.len() as u64;
        let n = self.instances();
        if n >= self.first_test && alive.len() > 1 {
            let blocks = self.blocks(&alive);
            let test = friedman_posthoc(&blocks, self.alpha);
            for (k, cmp) in test.comparisons.iter().enumerate() {
                if cmp.worse {
                    self.dropped_after[alive[k]] = Some(n);
                }
            }
        }
        self.steps.push((n, self.alive().len()));
    }

    /// The instances evaluated so far.
    pub fn instances(&self) -> u64 {
        self.values.len() as u64
    }

    /// Evaluations spent.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// (instances done, candidates alive) after each instance.
    pub fn steps(&self) -> &[(u64, usize)] {
        &self.steps
    }

    /// The instance count after which `candidate` was dropped (None: never).
    pub fn dropped_after(&self, candidate: usize) -> Option<u64> {
        self.dropped_after[candidate]
    }

    /// The values `candidate` got, instance by instance.
    pub fn values_of(&self, candidate: usize) -> Vec<f64> {
        self.values
            .iter()
            .map(|row| row[candidate])
            .take_while(|v| !v.is_nan())
            .collect()
    }

    /// The instances × `candidates` matrix (every one of them ran every instance so far).
    fn blocks(&self, candidates: &[usize]) -> Vec<Vec<f64>> {
        self.values
            .iter()
            .map(|row| candidates.iter().map(|&c| row[c]).collect())
            .collect()
    }

    /// Each candidate's mean rank (1 = best, ties averaged) over the instances it ran,
    /// ranked on each instance among the candidates that ran it.
    pub fn mean_ranks(&self) -> Vec<f64> {
        let k = self.dropped_after.len();
        let (mut sums, mut counts) = (vec![0.0; k], vec![0u64; k]);
        for row in &self.values {
            let ran: Vec<usize> = (0..k).filter(|&c| !row[c].is_nan()).collect();
            for &c in &ran {
                let below = ran.iter().filter(|&&d| row[d] < row[c]).count() as f64;
                let equal = ran.iter().filter(|&&d| row[d] == row[c]).count() as f64;
                sums[c] += below + (equal + 1.0) / 2.0;
                counts[c] += 1;
            }
        }
        sums.iter()
            .zip(&counts)
            .map(|(s, &n)| if n == 0 { f64::NAN } else { s / n as f64 })
            .collect()
    }

    /// The mean rank of each survivor over every instance, as the survivors' Friedman
    /// ranks (1 = best), in the order of [`Race::alive`].
    pub fn survivor_ranks(&self) -> Vec<f64> {
        let alive = self.alive();
        if self.values.is_empty() {
            return vec![f64::NAN; alive.len()];
        }
        crate::stats::friedman(&self.blocks(&alive)).mean_ranks
    }

    /// The elite: the survivor with the best mean rank; ties go to the better mean
    /// value, then to the lower index.
    pub fn elite(&self) -> usize {
        let alive = self.alive();
        let ranks = self.survivor_ranks();
        let mean = |c: usize| {
            let v = self.values_of(c);
            v.iter().sum::<f64>() / v.len().max(1) as f64
        };
        let mut best = 0;
        for k in 1..alive.len() {
            let o = ranks[k]
                .total_cmp(&ranks[best])
                .then(mean(alive[k]).total_cmp(&mean(alive[best])));
            if o.is_lt() {
                best = k;
            }
        }
        alive[best]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// Candidates with means 0, 0.1, …, noise N(0,1)-ish (sum of uniforms).
    fn noisy_race(k: usize, budget: u64, seed: u64) -> Race {
        let mut rng = crate::util::rng::rng_from_seed(seed);
        let mut race = Race::new(k, budget, 1000, 5, 0.05);
        while let Some(alive) = race.next() {
            let shared: f64 = rng.random::<f64>() * 4.0; // an instance's difficulty
            let values: Vec<f64> = alive
                .iter()
                .map(|&c| {
                    let noise: f64 = (0..4).map(|_| rng.random::<f64>()).sum::<f64>() - 2.0;
                    shared + 0.3 * c as f64 + noise
                })
                .collect();
            race.record(&values);
        }
        race
    }

    #[test]
    fn racing_keeps_the_best_and_respects_the_budget() {
        let mut elites = 0;
        for seed in 0..20 {
            let race = noisy_race(8, 400, seed);
            assert!(race.used() <= 400);
            // Nothing is dropped before the first test.
            assert!(race.steps().iter().take(4).all(|&(_, alive)| alive == 8));
            // Alive counts never grow.
            assert!(race.steps().windows(2).all(|w| w[1].1 <= w[0].1));
            if race.elite() <= 1 {
                elites += 1;
            }
            // The worst candidate (mean 2.1 above the best) is always dropped.
            assert!(race.dropped_after(7).is_some(), "seed {seed}");
            // Mean ranks lie in 1..=k and, on the first instances that all ran,
            // average (k + 1)/2.
            let ranks = race.mean_ranks();
            assert!(ranks.iter().all(|r| (1.0..=8.0).contains(r)), "{ranks:?}");
        }
        assert!(
            elites >= 18,
            "the elite is one of the two best in {elites}/20 races"
        );
    }

    #[test]
    fn a_race_spends_its_budget_on_more_instances_when_it_can() {
        // Identical candidates: nothing is ever significantly worse, so the race runs
        // until the budget cannot pay for the next instance.
        let mut race = Race::new(4, 30, 1000, 5, 0.05);
        while let Some(alive) = race.next() {
            let i = race.instances() as f64;
            race.record(&vec![i; alive.len()]);
        }
        assert_eq!((race.instances(), race.used()), (7, 28));
        assert_eq!(race.alive().len(), 4);
        assert_eq!(race.elite(), 0);
        assert_eq!(race.mean_ranks(), vec![2.5; 4]);
    }

    #[test]
    fn one_candidate_is_no_race() {
        let race = Race::new(1, 100, 10, 5, 0.05);
        assert!(race.next().is_none());
        assert_eq!(race.elite(), 0);
    }
}
