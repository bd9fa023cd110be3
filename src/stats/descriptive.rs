//! Descriptive statistics: quantiles (R's type 7), the median, the mean, a group's
//! [`Summary`] with a seeded 95% bootstrap interval of its median, and Wilson's interval
//! for a proportion.

use crate::util::rng::rng_from_seed;
use rand::RngExt;

/// The q-quantile by linear interpolation between order statistics (R's type 7, numpy's
/// default). `None` for an empty sample.
pub fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    Some(sorted_quantile(&v, q))
}

fn sorted_quantile(v: &[f64], q: f64) -> f64 {
    let h = (v.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    v[lo] + (h - lo as f64) * (v[hi] - v[lo])
}

pub fn median(xs: &[f64]) -> Option<f64> {
    quantile(xs, 0.5)
}

pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Count, median, quartiles and mean of a sample, with a 95% bootstrap interval for the median.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub n: usize,
    pub median: f64,
    pub q1: f64,
    pub q3: f64,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

impl Summary {
    pub fn of(xs: &[f64]) -> Option<Summary> {
        if xs.is_empty() {
            return None;
        }
        let mut v = xs.to_vec();
        v.sort_by(f64::total_cmp);
        let (ci_low, ci_high) = bootstrap_median_ci(&v, 0.95, 2000, 0x5EED);
        Some(Summary {
            n: v.len(),
            median: sorted_quantile(&v, 0.5),
            q1: sorted_quantile(&v, 0.25),
            q3: sorted_quantile(&v, 0.75),
            mean: v.iter().sum::<f64>() / v.len() as f64,
            min: v[0],
            max: v[v.len() - 1],
            ci_low,
            ci_high,
        })
    }

    pub fn iqr(&self) -> f64 {
        self.q3 - self.q1
    }
}

/// A percentile bootstrap interval for the median, from a seeded generator (so the
/// report's numbers are reproducible).
pub fn bootstrap_median_ci(xs: &[f64], level: f64, resamples: usize, seed: u64) -> (f64, f64) {
    bootstrap_ci(xs, level, resamples, seed, |s| sorted_quantile(s, 0.5))
}

fn bootstrap_ci(
    xs: &[f64],
    level: f64,
    resamples: usize,
    seed: u64,
    stat: impl Fn(&[f64]) -> f64,
) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mut rng = rng_from_seed(seed);
    let mut sample = vec![0.0; xs.len()];
    let mut stats: Vec<f64> = (0..resamples)
        .map(|_| {
            for s in sample.iter_mut() {
                *s = xs[rng.random_range(0..xs.len())];
            }
            sample.sort_by(f64::total_cmp);
            stat(&sample)
        })
        .collect();
    stats.sort_by(f64::total_cmp);
    let alpha = (1.0 - level) / 2.0;
    (
        sorted_quantile(&stats, alpha),
        sorted_quantile(&stats, 1.0 - alpha),
    )
}

/// The expected running time to a target (Auger & Hansen; COCO, IOHanalyzer): the
/// evaluations every run spent (up to its first hit, or its whole budget when it missed)
/// divided by the runs that hit. Infinite when no run hit; NaN for no runs.
pub fn expected_running_time(spent: &[f64], hit: &[bool]) -> f64 {
    let successes = hit.iter().filter(|h| **h).count();
    match (spent.is_empty(), successes) {
        (true, _) => f64::NAN,
        (false, 0) => f64::INFINITY,
        (false, k) => spent.iter().sum::<f64>() / k as f64,
    }
}

/// A percentile bootstrap interval of [`expected_running_time`], resampling whole runs
/// with replacement from a seeded generator, as IOHanalyzer gives it. A resample without
/// a hit has an infinite ERT, so the high end is infinite when more than a
/// (1 − level)/2 share of the resamples miss.
pub fn bootstrap_ert_ci(
    spent: &[f64],
    hit: &[bool],
    level: f64,
    resamples: usize,
    seed: u64,
) -> (f64, f64) {
    let n = spent.len().min(hit.len());
    if n == 0 || resamples == 0 {
        return (f64::NAN, f64::NAN);
    }
    let mut rng = rng_from_seed(seed);
    let mut stats: Vec<f64> = (0..resamples)
        .map(|_| {
            let (mut total, mut successes) = (0.0, 0usize);
            for _ in 0..n {
                let i = rng.random_range(0..n);
                total += spent[i];
                successes += usize::from(hit[i]);
            }
            match successes {
                0 => f64::INFINITY,
                k => total / k as f64,
            }
        })
        .collect();
    stats.sort_by(f64::total_cmp);
    let alpha = (1.0 - level) / 2.0;
    let at = |q: f64| match stats[((resamples - 1) as f64 * q).round() as usize] {
        x if x.is_finite() => sorted_quantile(&stats, q),
        x => x,
    };
    (at(alpha), at(1.0 - alpha))
}

/// The exact (Garwood) 95% interval of a Poisson rate: `events` in `exposure` units of
/// time at risk (escapes per iteration). Low χ²(0.025; 2k)/(2T), high
/// χ²(0.975; 2k + 2)/(2T) (SciPy: `chi2.ppf(q, df) / 2 / T`), the low end 0 for k = 0.
pub fn poisson_rate_ci(events: u64, exposure: f64) -> (f64, f64) {
    if exposure <= 0.0 || !exposure.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    let k = events as f64;
    let low = match events {
        0 => 0.0,
        _ => chi2_quantile(0.025, 2.0 * k) / 2.0 / exposure,
    };
    (low, chi2_quantile(0.975, 2.0 * k + 2.0) / 2.0 / exposure)
}

/// The q-quantile of the chi-square distribution with `df` degrees of freedom, by
/// bisection on [`super::chi2_sf`] (to the precision of an f64).
fn chi2_quantile(q: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, df.max(1.0));
    while 1.0 - super::chi2_sf(hi, df) < q {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if 1.0 - super::chi2_sf(mid, df) < q {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= f64::EPSILON * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// The Wilson score interval for a proportion of `successes` in `n` trials (95%).
pub fn wilson(successes: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054;
    let (k, n) = (successes as f64, n as f64);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_numpy() {
        let xs = [7.0, 1.0, 3.0, 5.0];
        assert_eq!(median(&xs), Some(4.0));
        assert_eq!(quantile(&xs, 0.25), Some(2.5));
        assert_eq!(quantile(&xs, 0.75), Some(5.5));
        assert_eq!(quantile(&[], 0.5), None);
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0, 100.0]).unwrap();
        assert_eq!(
            (s.median, s.q1, s.q3, s.mean, s.iqr()),
            (3.0, 2.0, 4.0, 22.0, 2.0)
        );
        assert!(s.ci_low <= 3.0 && s.ci_high >= 3.0);
    }

    #[test]
    fn wilson_interval_contains_the_estimate() {
        let (lo, hi) = wilson(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 10).0, 0.0);
    }

    #[test]
    fn bootstrap_is_reproducible_and_covers() {
        let xs: Vec<f64> = (0..101).map(f64::from).collect();
        let a = bootstrap_median_ci(&xs, 0.95, 1000, 1);
        assert_eq!(a, bootstrap_median_ci(&xs, 0.95, 1000, 1));
        assert!(a.0 < 50.0 && a.1 > 50.0 && a.1 - a.0 < 30.0);
    }

    // -----------------------------------------------------------------------------------
    // Reference values. Every table below was printed by `stats_reference.py` (SciPy
    // 1.17.1, statsmodels 0.15.0, scikit-posthocs 0.17.1) or, for the 40-digit values of
    // the distribution tails, by mpmath 1.3 (`mpmath_reference.py`); the call that
    // produced each table is named above it.
    // -----------------------------------------------------------------------------------
    #[test]
    fn expected_running_times_and_their_intervals() {
        // Three of four runs hit: (100 + 200 + 300 + 1000) / 3.
        let spent = [100.0, 200.0, 300.0, 1000.0];
        let hit = [true, true, true, false];
        assert_eq!(expected_running_time(&spent, &hit), 1600.0 / 3.0);
        assert_eq!(expected_running_time(&spent, &[false; 4]), f64::INFINITY);
        assert!(expected_running_time(&[], &[]).is_nan());
        // Every run hits at 10: every resample's ERT is 10.
        assert_eq!(
            bootstrap_ert_ci(&[10.0; 30], &[true; 30], 0.95, 500, 3),
            (10.0, 10.0)
        );
        // One hit in 100 runs: most resamples miss it, so the interval is unbounded above.
        let mut hit = [false; 100];
        hit[0] = true;
        let (low, high) = bootstrap_ert_ci(&[1000.0; 100], &hit, 0.95, 500, 3);
        assert!(low >= 100_000.0 / 3.0 && high.is_infinite(), "{low} {high}");
        // Seeded: the same interval again, and it holds the point estimate.
        let a = bootstrap_ert_ci(&spent, &hit[..4], 0.95, 1000, 7);
        assert_eq!(a, bootstrap_ert_ci(&spent, &hit[..4], 0.95, 1000, 7));
        let spent: Vec<f64> = (1..=40).map(|i| (i * 50) as f64).collect();
        let hit: Vec<bool> = (1..=40).map(|i| i % 3 != 0).collect();
        let e = expected_running_time(&spent, &hit);
        let (low, high) = bootstrap_ert_ci(&spent, &hit, 0.95, 2000, 7);
        assert!(low < e && e < high && high < 2.0 * e, "{low} {e} {high}");
    }
    #[test]
    fn poisson_rate_intervals_are_scipys() {
        // SciPy 1.16: chi2.ppf(0.025, 2k) / 2 / T and chi2.ppf(0.975, 2k + 2) / 2 / T.
        for (k, t, low, high) in [
            (3, 1000.0, 0.0006186721228956014, 0.008767273069742324),
            (0, 500.0, 0.0, 0.00737775890822787),
            (171, 9612.0, 0.015223682256344016, 0.02066566231819553),
        ] {
            let (l, h) = poisson_rate_ci(k, t);
            assert!((l - low).abs() <= 1e-12 * low.max(1e-300), "{k}: {l} {low}");
            assert!((h - high).abs() <= 1e-12 * high, "{k}: {h} {high}");
        }
    }
}
