//! Rank tests of two samples: Wilcoxon's signed-rank test of paired samples and the
//! Mann–Whitney U test of independent ones (exact where SciPy is exact, else the normal
//! approximation with its tie and continuity corrections), and Holm's step-down
//! adjustment of the p-values of several tests.

use super::distributions::{ln_gamma, normal_sf};

/// Midranks of `xs` written into `ranks` (1-based; tied values share the mean of the
/// positions they occupy), with `order` as scratch space. Returns Σ(t³ − t) over the
/// groups of t tied values, the quantity every tie correction needs.
pub(crate) fn midranks(xs: &[f64], order: &mut Vec<usize>, ranks: &mut [f64]) -> f64 {
    order.clear();
    order.extend(0..xs.len());
    order.sort_by(|&i, &j| xs[i].total_cmp(&xs[j]));
    let n = xs.len();
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && xs[order[j + 1]] == xs[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &o in &order[i..=j] {
            ranks[o] = rank;
        }
        let t = (j - i + 1) as f64;
        tie_term += t * t * t - t;
        i = j + 1;
    }
    tie_term
}

/// How a test's p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PValueMethod {
    /// From the exact null distribution of the statistic (no ties, no zeros).
    Exact,
    /// From the exact null distribution conditional on the observed tied ranks: all
    /// 2ⁿ sign assignments enumerated (SciPy's exhaustive `PermutationMethod`).
    Permutation,
    /// From the normal approximation with tie correction.
    Asymptotic,
}

/// The result of [`wilcoxon_signed_rank`].
#[derive(Debug, Clone, PartialEq)]
pub struct WilcoxonResult {
    /// SciPy's two-sided statistic, min(W⁺, W⁻).
    pub statistic: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// The number of non-zero differences, which are the ones ranked.
    pub n: usize,
    /// W⁺, the sum of the ranks of |x − y| over the pairs with x > y.
    pub w_plus: f64,
    /// How `p_value` was computed.
    pub method: PValueMethod,
}

/// The two-sided Wilcoxon signed-rank test of the paired differences dᵢ = xᵢ − yᵢ, as
/// `scipy.stats.wilcoxon(x, y)` computes it with its defaults (SciPy 1.17:
/// `zero_method="wilcox"`, `correction=False`, `method="auto"`).
///
/// Zero differences are dropped; the n non-zero |dᵢ| are ranked (midranks for ties),
/// W⁺ is the rank sum of the positive differences and W⁻ = n(n + 1)/2 − W⁺. The
/// p-value, with N = `x.len()` the number of pairs including zeros:
///
/// * N ≤ 50, no ties and no zeros: exact, 2·P(W ≤ min(W⁺, W⁻)) under the null
///   distribution of W (all 2ⁿ sign assignments of the ranks 1..n equally likely);
/// * N ≤ 13 with ties or zeros: exact conditional on the tied ranks, 2·min(P(W ≤ W⁺),
///   P(W ≥ W⁺)) over all 2ⁿ sign assignments of the observed midranks (SciPy's
///   exhaustive permutation test; older SciPy releases used the normal approximation);
/// * otherwise: normal approximation without continuity correction,
///   z = (W⁺ − n(n + 1)/4)/σ, σ² = (n(n + 1)(2n + 1) − Σ(t³ − t)/2)/24 over groups of t
///   tied |dᵢ|, p = 2·P(Z > |z|).
///
/// p is capped at 1. Errors when the lengths differ, a difference is NaN, or no
/// difference is non-zero.
///
/// ```
/// use searchlab::stats::{wilcoxon_signed_rank, PValueMethod};
/// let x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30];
/// let y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
/// let r = wilcoxon_signed_rank(&x, &y).unwrap();
/// assert_eq!((r.statistic, r.w_plus, r.n), (5.0, 40.0, 9));
/// assert_eq!(r.method, PValueMethod::Exact);
/// assert!((r.p_value - 0.0390625).abs() < 1e-15); // 2·20/512
/// ```
pub fn wilcoxon_signed_rank(x: &[f64], y: &[f64]) -> Result<WilcoxonResult, String> {
    if x.len() != y.len() {
        return Err(format!(
            "Wilcoxon signed-rank test: the samples are paired but have {} and {} values",
            x.len(),
            y.len()
        ));
    }
    let d: Vec<f64> = x
        .iter()
        .zip(y)
        .map(|(a, b)| a - b)
        .filter(|&v| v != 0.0)
        .collect();
    if d.iter().any(|v| v.is_nan()) {
        return Err("Wilcoxon signed-rank test: a difference is NaN".into());
    }
    let n = d.len();
    if n == 0 {
        return Err("Wilcoxon signed-rank test: no pair has a non-zero difference".into());
    }
    let abs: Vec<f64> = d.iter().map(|v| v.abs()).collect();
    let mut ranks = vec![0.0; n];
    let tie_term = midranks(&abs, &mut Vec::with_capacity(n), &mut ranks);
    let (mut w_plus, mut w_minus) = (0.0, 0.0);
    for (v, r) in d.iter().zip(&ranks) {
        if *v > 0.0 {
            w_plus += r;
        } else {
            w_minus += r;
        }
    }
    let pairs = x.len();
    let method = if pairs > 50 {
        PValueMethod::Asymptotic
    } else if tie_term == 0.0 && n == pairs {
        PValueMethod::Exact
    } else if pairs <= 13 {
        PValueMethod::Permutation
    } else {
        PValueMethod::Asymptotic
    };
    let all_signs = 2f64.powi(n as i32);
    let p_value = match method {
        PValueMethod::Exact => {
            // Ranks are 1..n and W⁺ + W⁻ = n(n+1)/2, so min(W⁺, W⁻) is an integer.
            let t = w_plus.min(w_minus) as usize;
            let counts = subset_sum_counts(1..=n, t);
            2.0 * counts.iter().sum::<f64>() / all_signs
        }
        PValueMethod::Permutation => {
            // Midranks are multiples of ½: work with twice the ranks, which are integers.
            let doubled = ranks.iter().map(|r| (2.0 * r) as usize);
            let counts = subset_sum_counts(doubled, n * (n + 1));
            let obs = (2.0 * w_plus) as usize;
            let le: f64 = counts[..=obs].iter().sum();
            let ge: f64 = counts[obs..].iter().sum();
            2.0 * le.min(ge) / all_signs
        }
        PValueMethod::Asymptotic => {
            let nf = n as f64;
            let mean = nf * (nf + 1.0) * 0.25;
            let sd = ((nf * (nf + 1.0) * (2.0 * nf + 1.0) - tie_term / 2.0) / 24.0).sqrt();
            2.0 * normal_sf(((w_plus - mean) / sd).abs())
        }
    };
    Ok(WilcoxonResult {
        statistic: w_plus.min(w_minus),
        p_value: p_value.min(1.0),
        n,
        w_plus,
        method,
    })
}

/// The number of subsets of `weights` with each sum s = 0..=max (a sum over subsets
/// counts each index once, so equal weights are distinct items). Counts are integers
/// below 2^53 for the sizes used here (at most 50 weights), hence exact in f64.
fn subset_sum_counts(weights: impl Iterator<Item = usize>, max: usize) -> Vec<f64> {
    let mut counts = vec![0.0; max + 1];
    counts[0] = 1.0;
    for w in weights {
        for s in (w..=max).rev() {
            counts[s] += counts[s - w];
        }
    }
    counts
}

/// The result of [`mann_whitney_u`].
#[derive(Debug, Clone, PartialEq)]
pub struct MannWhitneyResult {
    /// U₁, the Mann–Whitney statistic of the first sample: the number of pairs (a, b)
    /// with a > b plus half the number with a = b.
    pub statistic: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// How `p_value` was computed ([`PValueMethod::Exact`] or
    /// [`PValueMethod::Asymptotic`]).
    pub method: PValueMethod,
}

/// The two-sided Mann–Whitney U test, as `scipy.stats.mannwhitneyu(a, b)` computes it
/// with its defaults (`alternative="two-sided"`, `use_continuity=True`,
/// `method="auto"`).
///
/// U₁ = R₁ − n₁(n₁ + 1)/2 with R₁ the sum of the midranks of `a` in the pooled sample,
/// U₂ = n₁n₂ − U₁. Like SciPy, the p-value is exact when there are no ties and not both
/// samples have more than 8 values (that is, min(n₁, n₂) ≤ 8): p = 2·P(U ≥ max(U₁, U₂))
/// under the null distribution of U (all C(n₁ + n₂, n₁) rank assignments equally likely,
/// counted with the Gaussian binomial coefficient). Otherwise it is the normal
/// approximation with tie and continuity correction, p = 2·P(Z > z),
/// z = (max(U₁, U₂) − n₁n₂/2 − ½)/σ, σ² = n₁n₂/12·((N + 1) − Σ(t³ − t)/(N(N − 1))),
/// N = n₁ + n₂. p is capped at 1. An empty sample or a NaN gives NaN statistic and
/// p-value (SciPy's result too).
///
/// ```
/// use searchlab::stats::{mann_whitney_u, PValueMethod};
/// let r = mann_whitney_u(&[1.0, 2.0, 3.0, 4.0], &[5.0, 6.0, 7.0]);
/// assert_eq!((r.statistic, r.method), (0.0, PValueMethod::Exact));
/// assert!((r.p_value - 2.0 / 35.0).abs() < 1e-15); // one ordering in C(7, 3) = 35
/// ```
pub fn mann_whitney_u(a: &[f64], b: &[f64]) -> MannWhitneyResult {
    let (n1, n2) = (a.len(), b.len());
    if n1 == 0 || n2 == 0 || a.iter().chain(b).any(|v| v.is_nan()) {
        return MannWhitneyResult {
            statistic: f64::NAN,
            p_value: f64::NAN,
            method: PValueMethod::Asymptotic,
        };
    }
    let pooled: Vec<f64> = a.iter().chain(b).copied().collect();
    let mut ranks = vec![0.0; n1 + n2];
    let tie_term = midranks(&pooled, &mut Vec::with_capacity(n1 + n2), &mut ranks);
    let (f1, f2) = (n1 as f64, n2 as f64);
    let r1: f64 = ranks[..n1].iter().sum();
    let u1 = r1 - f1 * (f1 + 1.0) / 2.0;
    let u2 = f1 * f2 - u1;
    if (n1 > 8 && n2 > 8) || tie_term > 0.0 {
        let nn = f1 + f2;
        let sd = (f1 * f2 / 12.0 * ((nn + 1.0) - tie_term / (nn * (nn - 1.0)))).sqrt();
        let z = (u1.max(u2) - f1 * f2 / 2.0 - 0.5) / sd;
        MannWhitneyResult {
            statistic: u1,
            p_value: (2.0 * normal_sf(z)).min(1.0),
            method: PValueMethod::Asymptotic,
        }
    } else {
        // No ties: U₁ is an integer; P(U ≥ max) = P(U ≤ min) by symmetry.
        let k = u1.min(u2) as usize;
        MannWhitneyResult {
            statistic: u1,
            p_value: (2.0 * mann_whitney_cdf(n1, n2, k)).min(1.0),
            method: PValueMethod::Exact,
        }
    }
}

/// P(U ≤ k) under the null hypothesis for samples of sizes m and n without ties: the
/// number of rank assignments with U = u is the coefficient of qᵘ in the Gaussian
/// binomial [m + n choose m]_q, built as Π_{i=1..m} (1 − q^{n+i})/(1 − q^i) truncated
/// at degree k. Exact integer arithmetic (i128) when C(m + n, m) < 1e36, which covers
/// every case with min(m, n) ≤ 8 and max(m, n) < 25 000; f64 beyond.
fn mann_whitney_cdf(m: usize, n: usize, k: usize) -> f64 {
    let (m, n) = (m.min(n), m.max(n));
    let ln_total =
        ln_gamma((m + n + 1) as f64) - ln_gamma((m + 1) as f64) - ln_gamma((n + 1) as f64);
    if ln_total < 36.0 * std::f64::consts::LN_10 {
        let low: i128 = gaussian_binomial_low::<i128>(m, n, k).into_iter().sum();
        let mut total: i128 = 1;
        for i in 1..=m {
            total = total * (n + i) as i128 / i as i128; // exact: this is C(n + i, i)
        }
        low as f64 / total as f64
    } else {
        let low: f64 = gaussian_binomial_low::<f64>(m, n, k).into_iter().sum();
        (low.ln() - ln_total).exp()
    }
}

/// The coefficients of q⁰..q^k of the Gaussian binomial [m + n choose m]_q, from
/// [n + i choose i]_q = [n + i − 1 choose i − 1]_q · (1 − q^{n+i})/(1 − q^i).
fn gaussian_binomial_low<T>(m: usize, n: usize, k: usize) -> Vec<T>
where
    T: Copy + From<u8> + std::ops::Add<Output = T> + std::ops::Sub<Output = T>,
{
    let mut c = vec![T::from(0); k + 1];
    c[0] = T::from(1);
    for i in 1..=m {
        let up = n + i;
        for j in (up..=k).rev() {
            c[j] = c[j] - c[j - up];
        }
        for j in i..=k {
            c[j] = c[j] + c[j - i];
        }
    }
    c
}

/// Holm–Bonferroni adjusted p-values, in the input order, as
/// `statsmodels.stats.multitest.multipletests(p, method="holm")[1]` (and R's
/// `p.adjust(p, "holm")`) compute them.
///
/// With the m p-values sorted ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎, the adjusted value of p₍ᵢ₎ is
/// min(1, max_{j ≤ i} (m − j + 1)·p₍ⱼ₎): monotone in the raw p-values, never below them,
/// capped at 1. Rejecting the hypotheses whose adjusted value is ≤ α controls the
/// family-wise error rate at α. NaN entries stay NaN and do not count in m (as R).
///
/// ```
/// use searchlab::stats::holm;
/// assert_eq!(holm(&[0.01, 0.04, 0.03]), vec![0.03, 0.06, 0.06]);
/// ```
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| !p[i].is_nan()).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let m = order.len();
    let mut adjusted = vec![f64::NAN; p.len()];
    let mut running = 0.0f64;
    for (j, &i) in order.iter().enumerate() {
        running = running.max((m - j) as f64 * p[i]);
        adjusted[i] = running.min(1.0);
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::effect::a12;
    use crate::stats::testing::{int_sample, real_sample, rel_err};
    use crate::util::rng::rng_from_seed;
    use rand::RngExt;

    /// (name, first sample, second sample, statistic, p-value).
    type TwoSampleCase<'a> = (&'a str, &'a [f64], &'a [f64], f64, f64);

    #[test]
    #[allow(clippy::approx_constant)] // 3.14 is a measurement in the data, not π
    fn wilcoxon_matches_scipy() {
        use PValueMethod::*;
        // scipy.stats.wilcoxon(x, y) with its defaults: (name, x, y, statistic, pvalue)
        let cases: &[TwoSampleCase] = &[
            (
                "hollander_wolfe",
                &[1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3],
                &[0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29],
                5.0,
                0.0390625,
            ),
            ("n1", &[3.0], &[1.0], 0.0, 1.0),
            (
                "n1_with_zeros",
                &[1.0, 2.0, 3.0],
                &[1.0, 2.0, 1.0],
                0.0,
                1.0,
            ),
            (
                "zeros_small",
                &[5.0, 3.0, 7.0, 2.0, 8.0, 4.0, 6.0, 9.0, 1.0, 10.0],
                &[5.0, 1.0, 7.5, 2.0, 4.0, 3.0, 8.5, 2.5, 1.0, 3.0],
                5.0,
                0.15625,
            ),
            (
                "ties_small",
                &[
                    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0,
                ],
                &[
                    0.0, 0.0, 1.0, 5.0, 3.0, 4.0, 8.0, 6.0, 7.0, 12.0, 10.0, 11.0, 11.5,
                ],
                16.0,
                0.043212890625,
            ),
            (
                "ties_n20",
                &[
                    0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0,
                    15.0, 16.0, 17.0, 18.0, 19.0,
                ],
                &[
                    0.0, 3.0, 1.0, 1.0, 6.0, 2.0, 4.0, 9.0, 10.0, 7.0, 8.0, 14.0, 10.0, 11.0, 16.0,
                    13.0, 17.0, 15.0, 21.0, 18.5,
                ],
                88.5,
                0.7856779537503001,
            ),
            (
                "exact_n20",
                &[
                    -1.446872, 1.551366, 0.354859, 1.762191, 1.824157, 2.619808, 1.937526,
                    -0.788511, -0.569105, -0.182129, 0.548742, 4.818438, 0.097217, 0.733204,
                    0.841282, 1.384217, -1.258987, 2.042733, -2.236708, -0.22259,
                ],
                &[
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0, 0.0, 0.0,
                ],
                59.0,
                0.08969497680664062,
            ),
            (
                "exact_n50",
                &[
                    1.119427, 0.00768, 0.731453, 0.359065, -0.402654, 0.307588, -0.516324,
                    0.972008, 0.74882, -0.079292, 0.963434, -0.224411, -0.194845, 1.477392,
                    1.893024, 1.709518, 1.038076, 1.571207, -1.173853, 0.528195, 1.513418,
                    -0.621591, 0.003315, -0.317139, -0.723572, 0.81941, -2.051204, 0.362894,
                    1.072031, 1.119992, -0.510326, 1.515973, 0.484629, 1.453454, 1.385871,
                    -0.294581, -1.334039, -0.480521, -0.211855, 1.134148, 0.320387, 0.765503,
                    0.402313, 2.074563, 2.190742, -1.660128, 2.390759, 1.146601, 0.450908, 1.08482,
                ],
                &[
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0,
                ],
                308.0,
                0.0011471783973160399,
            ),
            (
                "asym_n60",
                &[
                    0.361049, 1.493984, 0.455012, 1.280154, -0.05969, 2.647531, 0.42752, 1.690766,
                    0.875975, -1.1137, 1.202281, 0.351024, -0.272728, -1.457884, -0.974237,
                    -1.457621, 0.499823, 0.645463, 0.977694, -0.263003, -0.663457, -0.426249,
                    0.265722, 1.497708, 0.102624, 0.587086, -1.318018, 1.665708, 0.360712,
                    0.396224, 1.84402, 0.4524, 1.053944, 0.674892, 0.756446, 0.954451, -0.528617,
                    0.599665, 0.824353, 1.235198, -1.370108, -0.494601, 1.774119, -0.131699,
                    0.692716, -0.41986, 1.239381, 0.148504, -0.520714, 0.199827, -0.737085,
                    -0.687478, -0.947619, 0.786654, 1.812169, -0.187775, 1.340366, -0.682097,
                    -0.555661, -0.367127,
                ],
                &[
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                ],
                602.0,
                0.02121244381192546,
            ),
            (
                "zeros_n51",
                &[
                    -0.021184, -0.356131, 0.298619, 2.124503, 1.288775, 2.046601, 0.333724,
                    1.17672, 1.663052, 0.350613, -1.182936, 0.284672, -0.420922, -1.425659,
                    0.683198, -0.642891, -0.562772, 0.427459, 0.660802, -1.320559, -0.6872,
                    0.766017, 1.291962, 1.163925, -0.643638, -0.842244, 1.35619, 0.930832,
                    -0.350519, -0.858162, 1.162002, -0.291159, 0.330266, 1.1143, 0.293283,
                    0.067414, 3.800032, -1.260487, 0.338884, 1.469599, 1.646188, -0.951644,
                    -1.040722, 1.250173, 0.329748, -1.045141, 2.472147, 0.863601, 0.18288, 0.0,
                    0.0,
                ],
                &[
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                    0.0, 0.0, 0.0,
                ],
                413.0,
                0.04720176769014221,
            ),
        ];
        let methods = [
            Exact,       // hollander_wolfe: R's ?wilcox.test example, n = 9
            Exact,       // n1: a single pair
            Permutation, // n1_with_zeros: one non-zero difference among three pairs
            Permutation, // zeros_small
            Permutation, // ties_small
            Asymptotic,  // ties_n20: ties and more than 13 pairs
            Exact,       // exact_n20
            Exact,       // exact_n50: the largest exact case
            Asymptotic,  // asym_n60: more than 50 pairs
            Asymptotic,  // zeros_n51: 49 non-zero differences but 51 pairs
        ];
        assert_eq!(cases.len(), methods.len());
        for (&(name, x, y, stat, p), method) in cases.iter().zip(methods) {
            let r = wilcoxon_signed_rank(x, y).unwrap();
            assert_eq!(r.method, method, "{name}");
            assert_eq!(r.statistic, stat, "{name}");
            let tol = if method == Asymptotic { 1e-10 } else { 1e-12 };
            assert!(rel_err(r.p_value, p) < tol, "{name}: {} vs {p}", r.p_value);
            let n = x.iter().zip(y.iter()).filter(|(a, b)| a != b).count();
            assert_eq!(r.n, n, "{name}");
            let total = (n * (n + 1)) as f64 / 2.0;
            assert_eq!(r.statistic, r.w_plus.min(total - r.w_plus), "{name}");
        }
    }

    #[test]
    fn wilcoxon_rejects_bad_input() {
        assert!(wilcoxon_signed_rank(&[1.0, 2.0], &[1.0]).is_err());
        assert!(wilcoxon_signed_rank(&[], &[]).is_err());
        assert!(wilcoxon_signed_rank(&[1.0, 2.0], &[1.0, 2.0]).is_err());
        assert!(wilcoxon_signed_rank(&[1.0, f64::NAN], &[0.0, 0.0]).is_err());
    }

    /// The p-value by enumerating all 2ⁿ sign assignments of independently computed
    /// midranks (the definition of the exact and the permutation p-value).
    fn wilcoxon_brute_force(x: &[f64], y: &[f64]) -> (f64, f64) {
        let d: Vec<f64> = x
            .iter()
            .zip(y)
            .map(|(a, b)| a - b)
            .filter(|v| *v != 0.0)
            .collect();
        let rank = |v: f64| {
            let below = d.iter().filter(|w| w.abs() < v.abs()).count() as f64;
            let tied = d.iter().filter(|w| w.abs() == v.abs()).count() as f64;
            below + (tied + 1.0) / 2.0
        };
        let ranks: Vec<f64> = d.iter().map(|&v| rank(v)).collect();
        let obs: f64 = d
            .iter()
            .zip(&ranks)
            .filter(|(v, _)| **v > 0.0)
            .map(|(_, r)| r)
            .sum();
        let (mut le, mut ge) = (0u64, 0u64);
        for mask in 0u64..1 << d.len() {
            let w: f64 = (0..d.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| ranks[i])
                .sum();
            le += u64::from(w <= obs);
            ge += u64::from(w >= obs);
        }
        let p = (2.0 * le.min(ge) as f64 / (1u64 << d.len()) as f64).min(1.0);
        (obs, p)
    }

    #[test]
    fn wilcoxon_small_samples_match_enumeration() {
        let mut rng = rng_from_seed(21);
        let mut seen = [false; 2];
        for trial in 0..300 {
            let n = 1 + trial % 13;
            let (x, y) = if trial % 3 == 0 {
                (real_sample(&mut rng, n, 0.1), real_sample(&mut rng, n, 0.0))
            } else {
                (int_sample(&mut rng, n, 5), int_sample(&mut rng, n, 5))
            };
            let Ok(r) = wilcoxon_signed_rank(&x, &y) else {
                assert!(x == y, "only all-zero differences may fail");
                continue;
            };
            seen[usize::from(r.method == PValueMethod::Exact)] = true;
            assert_ne!(r.method, PValueMethod::Asymptotic);
            let (w_plus, p) = wilcoxon_brute_force(&x, &y);
            assert_eq!(r.w_plus, w_plus);
            assert!(
                rel_err(r.p_value, p) < 1e-12,
                "{x:?} {y:?}: {} vs {p}",
                r.p_value
            );
        }
        assert!(
            seen[0] && seen[1],
            "both exact and permutation cases exercised"
        );
        // Larger exact cases (2¹⁶ assignments).
        for _ in 0..3 {
            let (x, y) = (
                real_sample(&mut rng, 16, 0.2),
                real_sample(&mut rng, 16, 0.0),
            );
            let r = wilcoxon_signed_rank(&x, &y).unwrap();
            assert_eq!(r.method, PValueMethod::Exact);
            assert!(rel_err(r.p_value, wilcoxon_brute_force(&x, &y).1) < 1e-12);
        }
    }

    #[test]
    fn wilcoxon_is_symmetric() {
        let mut rng = rng_from_seed(22);
        for trial in 0..200 {
            let n = 1 + trial % 70;
            let levels = if trial % 2 == 0 { 4 } else { 1000 };
            let (x, y) = (
                int_sample(&mut rng, n, levels),
                int_sample(&mut rng, n, levels),
            );
            let (Ok(a), Ok(b)) = (wilcoxon_signed_rank(&x, &y), wilcoxon_signed_rank(&y, &x))
            else {
                continue;
            };
            assert_eq!(a.statistic, b.statistic);
            assert_eq!(a.n, b.n);
            assert_eq!(a.method, b.method);
            assert_eq!(a.w_plus + b.w_plus, (a.n * (a.n + 1)) as f64 / 2.0);
            assert!((a.p_value - b.p_value).abs() < 1e-15);
            assert!(a.p_value > 0.0 && a.p_value <= 1.0);
        }
    }

    #[test]
    fn mann_whitney_u_matches_scipy() {
        use PValueMethod::*;
        // scipy.stats.mannwhitneyu(a, b) with its defaults: (name, a, b, U1, pvalue)
        let cases: &[TwoSampleCase] = &[
            (
                "exact_6_6",
                &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                &[4.5, 7.0, 8.0, 9.0, 10.0, 11.0],
                2.0,
                0.008658008658008658,
            ),
            ("one_one", &[1.0], &[2.0], 0.0, 1.0),
            (
                "exact_3_20",
                &[2.5, 7.5, 11.5],
                &[
                    0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0,
                    15.0, 16.0, 17.0, 18.0, 19.0,
                ],
                23.0,
                0.5725578769057029,
            ),
            (
                "exact_8_30",
                &[
                    -1.704298, 1.096151, 0.728083, -0.110915, 1.283234, 0.573639, 1.004564,
                    1.329982,
                ],
                &[
                    0.981578, -0.808174, 0.107437, -1.630147, -1.061898, -1.024919, -2.009717,
                    0.3883, -0.013914, 0.03887, -0.089165, 0.432541, -1.557735, -0.005722,
                    -0.75747, 0.465976, 0.425477, -0.108123, 0.177853, 0.089117, 1.577199,
                    0.416943, -0.884186, -0.345328, -0.344583, 1.286658, 0.550141, -0.404123,
                    -0.382683, -1.001014,
                ],
                181.0,
                0.028238556052398056,
            ),
            (
                "asym_9_12",
                &[
                    1.63181, 1.738434, 1.055345, 2.545824, -0.342324, 0.074101, -0.721892,
                    1.658749, 0.968519,
                ],
                &[
                    0.648597, -1.807555, -1.874254, 1.875346, -0.6102, -1.807284, 0.292097,
                    0.345977, -0.559708, 1.185642, 0.324536, 0.160274,
                ],
                78.0,
                0.0949050641750451,
            ),
            (
                "ties_5_9",
                &[1.0, 2.0, 2.0, 3.0, 5.0],
                &[2.0, 3.0, 3.0, 4.0, 5.0, 6.0, 6.0, 7.0, 8.0],
                7.5,
                0.050590684540399423,
            ),
            (
                "all_equal",
                &[1.0, 1.0, 1.0, 1.0],
                &[1.0, 1.0, 1.0],
                6.0,
                1.0,
            ),
            (
                "conover_p218",
                &[
                    14.8, 7.3, 5.6, 6.3, 9.0, 4.2, 10.6, 12.5, 12.9, 16.1, 11.4, 2.7,
                ],
                &[
                    12.7, 14.2, 12.6, 2.1, 17.7, 11.8, 16.9, 7.9, 16.0, 10.6, 5.6, 5.6, 7.6, 11.3,
                    8.3, 6.7, 3.6, 1.0, 2.4, 6.4, 9.1, 6.7, 18.6, 3.2, 6.2, 6.1, 15.3, 10.6, 1.8,
                    5.9, 9.9, 10.6, 14.8, 5.0, 2.6, 4.0,
                ],
                243.0,
                0.5278924180353446,
            ),
        ];
        let methods = [
            Exact,      // exact_6_6: the example of the `mann_whitney` test above
            Exact,      // one_one
            Exact,      // exact_3_20: SciPy is exact when min(n1, n2) <= 8
            Exact,      // exact_8_30
            Asymptotic, // asym_9_12: both samples larger than 8
            Asymptotic, // ties_5_9
            Asymptotic, // all_equal
            Asymptotic, // conover_p218: Conover (1999) p. 218
        ];
        assert_eq!(cases.len(), methods.len());
        for (&(name, a, b, u, p), method) in cases.iter().zip(methods) {
            let r = mann_whitney_u(a, b);
            assert_eq!(r.method, method, "{name}");
            assert_eq!(r.statistic, u, "{name}");
            let tol = if method == Asymptotic { 1e-10 } else { 1e-12 };
            assert!(rel_err(r.p_value, p) < tol, "{name}: {} vs {p}", r.p_value);
        }
        let r = mann_whitney_u(&[], &[1.0]);
        assert!(r.statistic.is_nan() && r.p_value.is_nan());
        assert!(mann_whitney_u(&[f64::NAN], &[1.0]).p_value.is_nan());
    }

    #[test]
    fn mann_whitney_u_exact_matches_enumeration() {
        let mut rng = rng_from_seed(31);
        for trial in 0..60 {
            let (m, n) = (1 + trial % 5, 1 + trial % 7);
            let (a, b) = (real_sample(&mut rng, m, 0.3), real_sample(&mut rng, n, 0.0));
            let r = mann_whitney_u(&a, &b);
            assert_eq!(r.method, PValueMethod::Exact);
            // All C(m + n, m) choices of the ranks of the first sample.
            let u_obs = r.statistic.max((m * n) as f64 - r.statistic);
            let (mut hits, mut total) = (0u64, 0u64);
            for mask in 0u32..1 << (m + n) {
                if mask.count_ones() as usize != m {
                    continue;
                }
                let r1: u32 = (0..m + n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| i as u32 + 1)
                    .sum();
                let u = f64::from(r1) - (m * (m + 1)) as f64 / 2.0;
                total += 1;
                hits += u64::from(u >= u_obs);
            }
            let p = (2.0 * hits as f64 / total as f64).min(1.0);
            assert!(
                rel_err(r.p_value, p) < 1e-12,
                "{a:?} {b:?}: {} vs {p}",
                r.p_value
            );
        }
        // The i128 and f64 versions of the Gaussian binomial agree.
        let exact = gaussian_binomial_low::<i128>(8, 40, 160);
        let float = gaussian_binomial_low::<f64>(8, 40, 160);
        for (e, f) in exact.iter().zip(&float) {
            assert!(rel_err(*f, *e as f64) < 1e-12);
        }
    }

    #[test]
    fn mann_whitney_u_is_symmetric() {
        let mut rng = rng_from_seed(32);
        for trial in 0..200 {
            let (m, n) = (1 + trial % 13, 1 + trial % 17);
            let levels = if trial % 2 == 0 { 5 } else { 100_000 };
            let (a, b) = (
                int_sample(&mut rng, m, levels),
                int_sample(&mut rng, n, levels),
            );
            let (ab, ba) = (mann_whitney_u(&a, &b), mann_whitney_u(&b, &a));
            assert_eq!(ab.statistic + ba.statistic, (m * n) as f64);
            assert!((ab.p_value - ba.p_value).abs() < 1e-15);
            assert!(ab.p_value > 0.0 && ab.p_value <= 1.0);
            assert_eq!(a12(&a, &b), ab.statistic / (m * n) as f64);
        }
    }

    #[test]
    fn holm_matches_statsmodels() {
        // statsmodels.stats.multitest.multipletests(p, method="holm")[1]: (p, adjusted)
        let cases: &[(&[f64], &[f64])] = &[
            (&[0.01, 0.04, 0.03], &[0.03, 0.06, 0.06]),
            (&[0.5], &[0.5]),
            (
                &[0.001, 0.2, 0.2, 0.04, 0.9, 0.0005],
                &[
                    0.005,
                    0.6000000000000001,
                    0.6000000000000001,
                    0.16,
                    0.9,
                    0.003,
                ],
            ),
            (&[0.3, 0.3, 0.3, 0.3], &[1.0, 1.0, 1.0, 1.0]),
            (
                &[0.02, 0.011, 0.03, 0.04, 0.005, 0.5, 0.012, 0.0],
                &[0.08, 0.066, 0.09, 0.09, 0.035, 0.5, 0.066, 0.0],
            ),
            (
                &[
                    0.1415938, 0.10457015, 0.1435125, 0.0714351, 0.04808494, 0.11602586,
                    0.11493291, 0.07518623, 0.19393709, 0.16835136, 0.12707485, 0.15315989,
                    0.01058736, 0.00766833, 0.12630962,
                ],
                &[
                    1.0, 1.0, 1.0, 0.8572212, 0.62510422, 1.0, 1.0, 0.8572212, 1.0, 1.0, 1.0, 1.0,
                    0.14822304, 0.11502495, 1.0,
                ],
            ),
        ];
        for &(p, want) in cases {
            let got = holm(p);
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 1e-15, "{p:?}: {got:?} vs {want:?}");
            }
        }
        assert!(holm(&[]).is_empty());
        let with_nan = holm(&[0.01, f64::NAN, 0.02]);
        assert_eq!((with_nan[0], with_nan[2]), (0.02, 0.02));
        assert!(with_nan[1].is_nan());
    }

    #[test]
    fn holm_properties() {
        let mut rng = rng_from_seed(41);
        for trial in 0..300 {
            let m = 1 + trial % 30;
            let p: Vec<f64> = (0..m)
                .map(|_| {
                    let u = rng.random::<f64>();
                    if trial % 3 == 0 {
                        (u * 10.0).floor() / 100.0
                    } else {
                        u * u * 0.2
                    }
                })
                .collect();
            let adj = holm(&p);
            for i in 0..m {
                assert!(adj[i] >= p[i] && adj[i] <= 1.0);
                // Definition: max over p_j ≤ p_i of (m − #{l: p_l < p_j})·p_j, capped at 1.
                let want = p
                    .iter()
                    .filter(|&&pj| pj <= p[i])
                    .map(|&pj| (m - p.iter().filter(|&&pl| pl < pj).count()) as f64 * pj)
                    .fold(0.0, f64::max)
                    .min(1.0);
                assert!((adj[i] - want).abs() < 1e-15, "{p:?}");
                for j in 0..m {
                    if p[i] <= p[j] {
                        assert!(adj[i] <= adj[j], "not monotone: {p:?} {adj:?}");
                    }
                }
            }
        }
    }
}
