//! Annealing temperature schedules: the assignment's geometric cooling and the families the
//! report compares it with.

/// How the temperature T falls over a run of N iterations (i counts from 0).
#[derive(Debug, Clone, PartialEq)]
pub enum Schedule {
    /// T ← T·d after every iteration (the assignment's schedule).
    Geometric { t0: f64, decay: f64 },
    /// T_i = T0·(1 − i/N): straight down to zero at the end of the run.
    Linear { t0: f64 },
    /// T_i = T0·ln 2 / ln(i + 2): Boltzmann (logarithmic) cooling, T_0 = T0.
    Logarithmic { t0: f64 },
    /// T ← T / (1 + βT) (Lundy & Mees 1986).
    LundyMees { t0: f64, beta: f64 },
    /// Geometric cooling, reheated to T0 whenever `patience` iterations pass without a
    /// new best.
    Reheating { t0: f64, decay: f64, patience: u64 },
}

/// The names configs use, in the order the report lists them.
pub const SCHEDULE_NAMES: &[&str] = &[
    "geometric",
    "linear",
    "logarithmic",
    "lundy_mees",
    "reheating",
];

/// A schedule in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Cooling {
    schedule: Schedule,
    t: f64,
    since_best: u64,
}

impl Schedule {
    pub fn name(&self) -> &'static str {
        match self {
            Schedule::Geometric { .. } => "geometric",
            Schedule::Linear { .. } => "linear",
            Schedule::Logarithmic { .. } => "logarithmic",
            Schedule::LundyMees { .. } => "lundy_mees",
            Schedule::Reheating { .. } => "reheating",
        }
    }

    fn t0(&self) -> f64 {
        match *self {
            Schedule::Geometric { t0, .. }
            | Schedule::Linear { t0 }
            | Schedule::Logarithmic { t0 }
            | Schedule::LundyMees { t0, .. }
            | Schedule::Reheating { t0, .. } => t0,
        }
    }

    /// The schedule at its first iteration.
    ///
    /// ```
    /// use searchlab::local_search::Schedule;
    /// let mut c = Schedule::Geometric { t0: 2.0, decay: 0.5 }.start();
    /// assert_eq!(c.temperature(), 2.0);
    /// c.advance(1, 10, false);
    /// assert_eq!(c.temperature(), 1.0);
    /// let mut l = Schedule::Linear { t0: 4.0 }.start();
    /// l.advance(5, 10, false);
    /// assert_eq!(l.temperature(), 2.0);
    /// ```
    pub fn start(&self) -> Cooling {
        Cooling {
            schedule: self.clone(),
            t: self.t0(),
            since_best: 0,
        }
    }
}

impl Cooling {
    #[inline]
    pub fn temperature(&self) -> f64 {
        self.t
    }

    /// Moves to the temperature for the iteration after `iteration` (1-based) of `total`.
    #[inline]
    pub fn advance(&mut self, iteration: u64, total: u64, new_best: bool) {
        self.t = match self.schedule {
            Schedule::Geometric { decay, .. } => self.t * decay,
            Schedule::Linear { t0 } => t0 * (1.0 - iteration as f64 / total.max(1) as f64).max(0.0),
            Schedule::Logarithmic { t0 } => {
                t0 * std::f64::consts::LN_2 / ((iteration + 2) as f64).ln()
            }
            Schedule::LundyMees { beta, .. } => self.t / (1.0 + beta * self.t),
            Schedule::Reheating {
                t0,
                decay,
                patience,
            } => {
                self.since_best = if new_best { 0 } else { self.since_best + 1 };
                if self.since_best >= patience {
                    self.since_best = 0;
                    t0
                } else {
                    self.t * decay
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: Schedule, total: u64) -> Vec<f64> {
        let mut c = s.start();
        let mut ts = vec![c.temperature()];
        for i in 1..=total {
            c.advance(i, total, false);
            ts.push(c.temperature());
        }
        ts
    }

    #[test]
    fn geometric_multiplies_by_decay() {
        let ts = run(
            Schedule::Geometric {
                t0: 100.0,
                decay: 0.5,
            },
            3,
        );
        assert_eq!(ts, vec![100.0, 50.0, 25.0, 12.5]);
    }

    #[test]
    fn linear_reaches_zero_at_the_end() {
        let ts = run(Schedule::Linear { t0: 10.0 }, 4);
        assert_eq!(ts, vec![10.0, 7.5, 5.0, 2.5, 0.0]);
    }

    #[test]
    fn logarithmic_starts_at_t0_and_falls_slowly() {
        let ts = run(Schedule::Logarithmic { t0: 1.0 }, 10_000);
        assert_eq!(ts[0], 1.0);
        assert!((ts[1] - std::f64::consts::LN_2 / 3f64.ln()).abs() < 1e-12);
        assert!(ts.windows(2).all(|w| w[1] < w[0]));
        assert!(
            ts[10_000] > 0.07,
            "Boltzmann cooling is slow: {}",
            ts[10_000]
        );
    }

    #[test]
    fn lundy_mees_has_closed_form() {
        // T_k = T0 / (1 + k·β·T0).
        let ts = run(
            Schedule::LundyMees {
                t0: 4.0,
                beta: 0.01,
            },
            100,
        );
        for (k, t) in ts.iter().enumerate() {
            let want = 4.0 / (1.0 + k as f64 * 0.01 * 4.0);
            assert!((t - want).abs() < 1e-9, "k={k}");
        }
    }

    #[test]
    fn reheating_returns_to_t0_after_patience() {
        let mut c = Schedule::Reheating {
            t0: 8.0,
            decay: 0.5,
            patience: 3,
        }
        .start();
        c.advance(1, 100, false);
        assert_eq!(c.temperature(), 4.0);
        c.advance(2, 100, false);
        assert_eq!(c.temperature(), 2.0);
        c.advance(3, 100, false);
        assert_eq!(c.temperature(), 8.0);
        c.advance(4, 100, true);
        assert_eq!(c.temperature(), 4.0);
    }
}
