//! The statistics the report states, each checked against SciPy, statsmodels or irace
//! by its unit tests: descriptive statistics and intervals ([`descriptive`]), the tail
//! probabilities of the normal, chi-square and t distributions ([`distributions`]), rank
//! tests and Holm's adjustment ([`rank_tests`]), Friedman's test with Conover's
//! post-hoc comparisons ([`mod@friedman`]) and effect sizes ([`effect`]).
//!
//! Written out because they are short and their exact definitions matter: each function
//! names the definition it implements and the computation it reproduces. Pure `std`
//! apart from the seeded generator of the bootstrap. It sits below the pipeline's users
//! (presentation, tuning) and uses nothing of the project but `util`.

pub mod descriptive;
pub mod distributions;
pub mod effect;
pub mod friedman;
pub mod rank_tests;

pub use descriptive::*;
pub use distributions::*;
pub use effect::*;
pub use friedman::*;
pub use rank_tests::*;

/// Helpers of the tests: relative errors and random samples.
#[cfg(test)]
pub(crate) mod testing {
    use rand::RngExt;

    pub fn rel_err(got: f64, want: f64) -> f64 {
        if got == want {
            0.0
        } else {
            ((got - want) / want).abs()
        }
    }

    /// A sample of n integers in 0..levels (few levels: many ties).
    pub fn int_sample(rng: &mut crate::util::rng::SearchRng, n: usize, levels: u32) -> Vec<f64> {
        (0..n)
            .map(|_| f64::from(rng.random_range(0..levels)))
            .collect()
    }

    /// A sample of n distinct-with-probability-one values.
    pub fn real_sample(rng: &mut crate::util::rng::SearchRng, n: usize, shift: f64) -> Vec<f64> {
        (0..n).map(|_| rng.random::<f64>() + shift).collect()
    }
}
