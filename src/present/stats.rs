//! The statistics the report states: quantiles, interquartile ranges, bootstrap
//! confidence intervals, the Mann–Whitney U test and Wilson intervals for proportions.
//! Written out because they are short and their exact definitions matter.

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

/// A percentile bootstrap interval for the mean.
pub fn bootstrap_mean_ci(xs: &[f64], level: f64, resamples: usize, seed: u64) -> (f64, f64) {
    bootstrap_ci(xs, level, resamples, seed, |s| {
        s.iter().sum::<f64>() / s.len() as f64
    })
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

/// The two-sided Mann–Whitney U test (normal approximation with tie correction and
/// continuity correction). Returns (U of the first sample, p-value).
pub fn mann_whitney(a: &[f64], b: &[f64]) -> (f64, f64) {
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    if a.is_empty() || b.is_empty() {
        return (f64::NAN, 1.0);
    }
    let mut all: Vec<(f64, usize)> = a
        .iter()
        .map(|&x| (x, 0))
        .chain(b.iter().map(|&x| (x, 1)))
        .collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    let n = all.len();
    let mut ranks = vec![0.0; n];
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && all[j + 1].0 == all[i].0 {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for r in &mut ranks[i..=j] {
            *r = rank;
        }
        let t = (j - i + 1) as f64;
        tie_term += t * t * t - t;
        i = j + 1;
    }
    let r1: f64 = all
        .iter()
        .zip(&ranks)
        .filter(|(x, _)| x.1 == 0)
        .map(|(_, r)| r)
        .sum();
    let u1 = r1 - n1 * (n1 + 1.0) / 2.0;
    let mu = n1 * n2 / 2.0;
    let nn = n1 + n2;
    let var = n1 * n2 / 12.0 * ((nn + 1.0) - tie_term / (nn * (nn - 1.0)));
    if var <= 0.0 {
        return (u1, 1.0);
    }
    let z = ((u1 - mu).abs() - 0.5).max(0.0) / var.sqrt();
    (u1, (2.0 * normal_sf(z)).min(1.0))
}

/// The standard normal upper tail P(Z > z), via erfc (W. J. Cody's rational
/// approximation through `erfc`, accurate to about 1e-7 here).
pub fn normal_sf(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// Complementary error function (Numerical Recipes' erfcc, fractional error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
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
    fn normal_tail_is_accurate() {
        assert!((normal_sf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_sf(1.959_964) - 0.025).abs() < 1e-6);
        assert!((normal_sf(-1.0) - 0.841_344_746).abs() < 1e-6);
    }

    #[test]
    fn mann_whitney_matches_scipy() {
        // By hand: ranks of a are 1,2,3,4,6,7 so U = 23 - 21 = 2; mu = 18, var = 39,
        // z = (16 - 0.5)/sqrt(39) = 2.4820, p = 2*P(Z > z) = 0.01307 (scipy's
        // mannwhitneyu with method='asymptotic', use_continuity=True agrees).
        let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let b = [4.5, 7.0, 8.0, 9.0, 10.0, 11.0];
        let (u, p) = mann_whitney(&a, &b);
        assert_eq!(u, 2.0);
        assert!((p - 0.013_07).abs() < 1e-4, "{p}");
        let (_, same) = mann_whitney(&[1.0; 10], &[1.0; 10]);
        assert_eq!(same, 1.0);
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
        let m = bootstrap_mean_ci(&xs, 0.95, 1000, 2);
        assert!(m.0 < 50.0 && m.1 > 50.0);
    }
}
