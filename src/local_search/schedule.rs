//! Annealing temperature schedules: the assignment's geometric cooling and the families the
//! report compares it with.
//!
//! Two ways to say how fast a schedule cools: by a rate (`decay`, `beta`), whose meaning
//! depends on the run's length (d = 0.999 ends 10,000 iterations at T0·4.5e-5 but spends
//! 99% of 1,000,000 iterations below T0·1e-4), or by the temperatures at both ends
//! (`geometric_end`, `linear_end`: T0 and T_end), which describe the same shape of
//! schedule whatever the number of iterations.

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
    /// Metropolis at a constant temperature T0 (geometric with d = 1).
    Constant { t0: f64 },
    /// Geometric from T0 to `t_end` over the run: d = (T_end/T0)^(1/N).
    GeometricEnd { t0: f64, t_end: f64 },
    /// Linear from T0 to `t_end` over the run: T_i = T0 − (T0 − T_end)·i/N.
    LinearEnd { t0: f64, t_end: f64 },
    /// Steers the share of uphill proposals accepted toward `target`: after each uphill
    /// proposal ln T moves by [`ADAPTIVE_GAIN`]·(target − accepted), a Robbins–Monro
    /// step whose fixed point is the acceptance rate `target` (Lam & Delosme's ideal
    /// rate is 0.44).
    Adaptive { t0: f64, target: f64 },
}

/// The step of the adaptive schedule's ln T per uphill proposal.
pub const ADAPTIVE_GAIN: f64 = 0.02;

/// The names configs use, in the order the report lists them.
pub const SCHEDULE_NAMES: &[&str] = &[
    "geometric",
    "linear",
    "logarithmic",
    "lundy_mees",
    "reheating",
    "constant",
    "geometric_end",
    "linear_end",
    "adaptive",
];

/// d = (T_end/T0)^(1/N), in log space when the ratio itself overflows (or underflows)
/// an f64, as T_end/T0 = 1e300/1e-300 does; the ratio's power otherwise, as always.
fn geometric_end_factor(t0: f64, t_end: f64, total: u64) -> f64 {
    let n = total.max(1) as f64;
    let ratio = t_end / t0;
    if ratio.is_finite() && ratio > 0.0 {
        ratio.powf(1.0 / n)
    } else {
        ((t_end.ln() - t0.ln()) / n).exp()
    }
}

/// A schedule in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Cooling {
    schedule: Schedule,
    t: f64,
    since_best: u64,
    /// The per-iteration factor of the geometric schedules.
    factor: f64,
}

impl Schedule {
    pub fn name(&self) -> &'static str {
        match self {
            Schedule::Geometric { .. } => "geometric",
            Schedule::Linear { .. } => "linear",
            Schedule::Logarithmic { .. } => "logarithmic",
            Schedule::LundyMees { .. } => "lundy_mees",
            Schedule::Reheating { .. } => "reheating",
            Schedule::Constant { .. } => "constant",
            Schedule::GeometricEnd { .. } => "geometric_end",
            Schedule::LinearEnd { .. } => "linear_end",
            Schedule::Adaptive { .. } => "adaptive",
        }
    }

    /// The simplest schedule that gives every iteration the same temperature: a
    /// geometric or reheating schedule with d = 1, Lundy–Mees with β = 0, and geometric
    /// or linear cooling between two equal end temperatures are Metropolis at the
    /// constant temperature T0. Two schedules with equal canonical forms are one
    /// algorithm under two names.
    pub fn canonical(&self) -> Schedule {
        match *self {
            Schedule::Geometric { t0, decay } | Schedule::Reheating { t0, decay, .. }
                if decay == 1.0 =>
            {
                Schedule::Constant { t0 }
            }
            Schedule::LundyMees { t0, beta: 0.0 } => Schedule::Constant { t0 },
            Schedule::GeometricEnd { t0, t_end } | Schedule::LinearEnd { t0, t_end }
                if t_end == t0 =>
            {
                Schedule::Constant { t0 }
            }
            ref s => s.clone(),
        }
    }

    fn t0(&self) -> f64 {
        match *self {
            Schedule::Geometric { t0, .. }
            | Schedule::Linear { t0 }
            | Schedule::Logarithmic { t0 }
            | Schedule::LundyMees { t0, .. }
            | Schedule::Reheating { t0, .. }
            | Schedule::Constant { t0 }
            | Schedule::GeometricEnd { t0, .. }
            | Schedule::LinearEnd { t0, .. }
            | Schedule::Adaptive { t0, .. } => t0,
        }
    }

    /// The schedule at the first of `total` iterations.
    ///
    /// ```
    /// use searchlab::local_search::Schedule;
    /// let mut c = Schedule::Geometric { t0: 2.0, decay: 0.5 }.start(10);
    /// assert_eq!(c.temperature(), 2.0);
    /// c.advance(1, 10, false);
    /// assert_eq!(c.temperature(), 1.0);
    /// let mut l = Schedule::Linear { t0: 4.0 }.start(10);
    /// l.advance(5, 10, false);
    /// assert_eq!(l.temperature(), 2.0);
    /// // The same (T0, T_end) describes the same schedule whatever the run's length.
    /// for total in [100, 10_000] {
    ///     let mut g = Schedule::GeometricEnd { t0: 10.0, t_end: 0.1 }.start(total);
    ///     for i in 1..=total / 2 { g.advance(i, total, false); }
    ///     assert!((g.temperature() - 1.0).abs() < 1e-9);
    /// }
    /// ```
    pub fn start(&self, total: u64) -> Cooling {
        let factor = match *self {
            Schedule::Geometric { decay, .. } | Schedule::Reheating { decay, .. } => decay,
            Schedule::GeometricEnd { t0, t_end } => geometric_end_factor(t0, t_end, total),
            _ => 1.0,
        };
        Cooling {
            schedule: self.clone(),
            t: self.t0(),
            since_best: 0,
            factor,
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
            Schedule::Geometric { .. } | Schedule::GeometricEnd { .. } => self.t * self.factor,
            Schedule::Linear { t0 } => t0 * (1.0 - iteration as f64 / total.max(1) as f64).max(0.0),
            Schedule::Logarithmic { t0 } => {
                t0 * std::f64::consts::LN_2 / ((iteration + 2) as f64).ln()
            }
            Schedule::LundyMees { beta, .. } => self.t / (1.0 + beta * self.t),
            Schedule::Reheating { t0, patience, .. } => {
                self.since_best = if new_best { 0 } else { self.since_best + 1 };
                if self.since_best >= patience {
                    self.since_best = 0;
                    t0
                } else {
                    self.t * self.factor
                }
            }
            Schedule::LinearEnd { t0, t_end } => {
                t0 - (t0 - t_end) * (iteration as f64 / total.max(1) as f64).min(1.0)
            }
            Schedule::Constant { .. } | Schedule::Adaptive { .. } => self.t,
        };
    }

    /// Tells the schedule whether an uphill proposal was accepted (only the adaptive
    /// schedule listens).
    #[inline]
    pub fn uphill(&mut self, accepted: bool) {
        if let Schedule::Adaptive { target, .. } = self.schedule {
            let hit = if accepted { 1.0 } else { 0.0 };
            self.t *= (ADAPTIVE_GAIN * (target - hit)).exp();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: Schedule, total: u64) -> Vec<f64> {
        let mut c = s.start(total);
        let mut ts = vec![c.temperature()];
        for i in 1..=total {
            c.advance(i, total, false);
            ts.push(c.temperature());
        }
        ts
    }

    #[test]
    fn schedules_that_keep_their_temperature_are_the_constant_one() {
        let constant = Schedule::Constant { t0: 0.5 };
        for s in [
            Schedule::Geometric {
                t0: 0.5,
                decay: 1.0,
            },
            Schedule::Reheating {
                t0: 0.5,
                decay: 1.0,
                patience: 9,
            },
            Schedule::LundyMees { t0: 0.5, beta: 0.0 },
            Schedule::GeometricEnd {
                t0: 0.5,
                t_end: 0.5,
            },
            Schedule::LinearEnd {
                t0: 0.5,
                t_end: 0.5,
            },
        ] {
            assert_eq!(s.canonical(), constant, "{s:?}");
            // The claim holds: the same temperature at every iteration.
            assert_eq!(run(s, 50), run(constant.clone(), 50));
        }
        let cooling = Schedule::Geometric {
            t0: 0.5,
            decay: 0.99,
        };
        assert_eq!(cooling.canonical(), cooling);
    }

    #[test]
    fn geometric_end_stays_finite_when_the_ratio_overflows() {
        let ts = run(
            Schedule::GeometricEnd {
                t0: 1e-300,
                t_end: 1e300,
            },
            1000,
        );
        assert!(ts.iter().all(|t| t.is_finite() && *t > 0.0), "{ts:?}");
        let last = ts[ts.len() - 1];
        assert!((last / 1e300 - 1.0).abs() < 1e-6, "{last}");
        // An ordinary ratio keeps its value to the bit (tables stay byte-identical).
        let c = Schedule::GeometricEnd {
            t0: 10.0,
            t_end: 0.1,
        }
        .start(100);
        assert_eq!(c.factor, (0.1f64 / 10.0).powf(1.0 / 100.0));
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
        .start(100);
        c.advance(1, 100, false);
        assert_eq!(c.temperature(), 4.0);
        c.advance(2, 100, false);
        assert_eq!(c.temperature(), 2.0);
        c.advance(3, 100, false);
        assert_eq!(c.temperature(), 8.0);
        c.advance(4, 100, true);
        assert_eq!(c.temperature(), 4.0);
    }

    #[test]
    fn constant_keeps_its_temperature() {
        let ts = run(Schedule::Constant { t0: 1.5 }, 50);
        assert!(ts.iter().all(|&t| t == 1.5));
    }

    #[test]
    fn end_point_schedules_reach_t_end_at_the_last_iteration() {
        for total in [10, 1000, 100_000] {
            let g = run(
                Schedule::GeometricEnd {
                    t0: 20.0,
                    t_end: 0.01,
                },
                total,
            );
            assert_eq!(g[0], 20.0);
            assert!(
                (g[total as usize] / 0.01 - 1.0).abs() < 1e-9,
                "{total}: {}",
                g[total as usize]
            );
            let l = run(
                Schedule::LinearEnd {
                    t0: 4.0,
                    t_end: 0.5,
                },
                total,
            );
            assert_eq!(l[0], 4.0);
            assert!((l[total as usize] - 0.5).abs() < 1e-12);
            assert!((l[total as usize / 2] - 2.25).abs() < 1e-12);
        }
    }

    #[test]
    fn adaptive_steers_toward_the_target_acceptance() {
        // A toy model where an uphill step of size 1 is accepted with e^(−1/T): the
        // fixed point is T* = −1/ln(target).
        use rand::RngExt;
        let mut rng = crate::util::rng::rng_from_seed(3);
        for target in [0.05, 0.2, 0.44] {
            let mut c = Schedule::Adaptive { t0: 50.0, target }.start(1);
            let (mut accepted, mut n) = (0u32, 0u32);
            for i in 0..200_000 {
                let ok = rng.random::<f64>() < (-1.0 / c.temperature()).exp();
                c.uphill(ok);
                if i >= 100_000 {
                    accepted += u32::from(ok);
                    n += 1;
                }
            }
            let rate = f64::from(accepted) / f64::from(n);
            assert!((rate - target).abs() < 0.01, "target {target}: rate {rate}");
            let t_star = -1.0 / target.ln();
            assert!(
                (c.temperature() / t_star - 1.0).abs() < 0.3,
                "target {target}: T {}",
                c.temperature()
            );
        }
    }
}
