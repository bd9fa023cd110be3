//! Friedman's test of k treatments over blocks, and Conover's post-hoc comparisons
//! against the best-ranked treatment as irace computes them (F-race's elimination).

use super::distributions::{chi2_sf, student_t_sf};
use super::rank_tests::midranks;

/// The result of [`friedman`].
#[derive(Debug, Clone, PartialEq)]
pub struct FriedmanResult {
    /// The tie-corrected Friedman chi-square statistic.
    pub statistic: f64,
    /// P(χ²_{k−1} > statistic).
    pub p_value: f64,
    /// Degrees of freedom, k − 1.
    pub df: usize,
    /// The number of blocks n.
    pub blocks: usize,
    /// Rⱼ, the sum over blocks of treatment j's within-block rank.
    pub rank_sums: Vec<f64>,
    /// Rⱼ/n.
    pub mean_ranks: Vec<f64>,
}

/// Within-block midranks of a blocks × treatments table: (rank sums Rⱼ, Σ of squared
/// ranks A, Σ over blocks and tie groups of t(t² − 1)).
fn block_ranks(blocks: &[Vec<f64>]) -> (Vec<f64>, f64, f64) {
    let k = blocks.first().map_or(0, Vec::len);
    let mut rank_sums = vec![0.0; k];
    let mut ranks = vec![0.0; k];
    let mut order = Vec::with_capacity(k);
    let (mut squares, mut ties) = (0.0, 0.0);
    for (i, row) in blocks.iter().enumerate() {
        assert_eq!(
            row.len(),
            k,
            "Friedman test: block {i} has {} treatments, block 0 has {k}",
            row.len()
        );
        ties += midranks(row, &mut order, &mut ranks);
        for (s, r) in rank_sums.iter_mut().zip(&ranks) {
            *s += r;
            squares += r * r;
        }
    }
    (rank_sums, squares, ties)
}

/// The Friedman test for k treatments (columns) measured on n blocks (rows), as
/// `scipy.stats.friedmanchisquare(*columns)` computes it.
///
/// Each block is ranked on its own (lowest value rank 1, midranks for ties); with Rⱼ the
/// rank sum of treatment j,
/// χ²_F = (12/(nk(k + 1))·ΣRⱼ² − 3n(k + 1)) / C, C = 1 − Σ t(t² − 1)/(nk(k² − 1)),
/// the sum running over the tie groups of every block; p = P(χ²_{k−1} > χ²_F) by
/// [`chi2_sf`]. This equals irace's 12Σ(Rⱼ − n(k + 1)/2)²/(nk(k + 1) − Σ(t³ − t)/(k − 1)).
/// SciPy requires k ≥ 3; here k = 2 is allowed too. Statistic and p-value are NaN when
/// n = 0, k < 2, a value is NaN, or every block is entirely tied (SciPy: 0/0).
///
/// # Panics
///
/// If the blocks do not all have the same length.
///
/// ```
/// use searchlab::stats::friedman;
/// // Three blocks that all rank treatment 0 best and 2 worst.
/// let r = friedman(&[vec![1.0, 2.0, 3.0], vec![1.5, 2.5, 9.0], vec![0.1, 0.2, 0.3]]);
/// assert_eq!(r.rank_sums, vec![3.0, 6.0, 9.0]);
/// assert!((r.statistic - 6.0).abs() < 1e-12);
/// assert!((r.p_value - (-3.0f64).exp()).abs() < 1e-15); // χ² with 2 df: e^(−x/2)
/// ```
pub fn friedman(blocks: &[Vec<f64>]) -> FriedmanResult {
    let (rank_sums, _, ties) = block_ranks(blocks);
    let (n, k) = (blocks.len(), rank_sums.len());
    let nan = blocks.iter().flatten().any(|v| v.is_nan());
    let (nf, kf) = (n as f64, k as f64);
    let mean_ranks = rank_sums.iter().map(|r| r / nf).collect();
    let c = 1.0 - ties / (kf * (kf * kf - 1.0) * nf);
    let (statistic, p_value) = if n == 0 || k < 2 || nan || c <= 0.0 {
        (f64::NAN, f64::NAN)
    } else {
        let ssbn: f64 = rank_sums.iter().map(|r| r * r).sum();
        let chisq = (12.0 / (kf * nf * (kf + 1.0)) * ssbn - 3.0 * nf * (kf + 1.0)) / c;
        (chisq, chi2_sf(chisq, kf - 1.0))
    };
    FriedmanResult {
        statistic,
        p_value,
        df: k.saturating_sub(1),
        blocks: n,
        rank_sums,
        mean_ranks,
    }
}

/// One treatment compared with the best in [`friedman_posthoc`].
#[derive(Debug, Clone, PartialEq)]
pub struct PosthocComparison {
    /// Rⱼ − R_best ≥ 0.
    pub rank_sum_diff: f64,
    /// (Rⱼ − R_best)/SE (0 for the best itself and for ties with it).
    pub t: f64,
    /// Two-sided p-value 2·P(T_df > t) of the pairwise comparison alone.
    pub p_value: f64,
    /// Significantly worse than the best: the Friedman test rejects at α and so does the
    /// pairwise comparison.
    pub worse: bool,
}

/// The result of [`friedman_posthoc`].
#[derive(Debug, Clone, PartialEq)]
pub struct FriedmanPosthoc {
    /// The omnibus test.
    pub friedman: FriedmanResult,
    /// The treatment with the lowest rank sum (the first one on ties).
    pub best: usize,
    /// Degrees of freedom of the pairwise t tests, (n − 1)(k − 1).
    pub df: usize,
    /// SE = √(2(nA − ΣRⱼ²)/((n − 1)(k − 1))), the scale of rank-sum differences.
    pub se: f64,
    /// One per treatment, in column order (the best compared with itself included).
    pub comparisons: Vec<PosthocComparison>,
}

/// Which treatments are significantly worse than the best one, by the Friedman test
/// followed by Conover's multiple comparisons, as irace's `aux.friedman` eliminates
/// candidates in a race (López-Ibáñez et al., irace `R/race.R`).
///
/// Conover (1999, *Practical Nonparametric Statistics*, 3rd ed., pp. 369–371): with n
/// blocks, k treatments, within-block midranks r_ij, A = Σ r_ij² and rank sums Rⱼ, two
/// treatments differ at level α when
/// |Rⱼ − Rᵢ| > t_{1−α/2; (n−1)(k−1)} · √(2(nA − ΣRⱼ²)/((n − 1)(k − 1))).
/// (This equals Conover's √(2n(A − C)/((n−1)(k−1))·(1 − T/(n(k−1)))) with
/// C = nk(k + 1)²/4 and T the Friedman statistic.) irace compares every candidate with
/// the best (lowest rank sum) only, and only when the Friedman p-value is below α; the
/// same is done here, with the comparison expressed as a p-value, 2·P(T > |Rⱼ − R_best|/SE)
/// < α, which is the same condition as irace's critical difference. When SE = 0 (every
/// block ranks the treatments identically) any positive difference is significant;
/// with n < 2 or k < 2 nothing is.
///
/// # Panics
///
/// If the blocks do not all have the same length.
///
/// ```
/// use searchlab::stats::friedman_posthoc;
/// // Treatment 0 is best on every block, 2 is always worst, 1 in between but noisy.
/// let blocks: Vec<Vec<f64>> = (0..12)
///     .map(|i| vec![1.0, if i % 4 == 0 { 0.5 } else { 2.0 }, 3.0])
///     .collect();
/// let r = friedman_posthoc(&blocks, 0.05);
/// assert_eq!(r.best, 0);
/// let worse: Vec<bool> = r.comparisons.iter().map(|c| c.worse).collect();
/// assert_eq!(worse, vec![false, true, true]);
/// ```
pub fn friedman_posthoc(blocks: &[Vec<f64>], alpha: f64) -> FriedmanPosthoc {
    let friedman = friedman(blocks);
    let (_, squares, _) = block_ranks(blocks);
    let rank_sums = &friedman.rank_sums;
    let (n, k) = (blocks.len(), rank_sums.len());
    let best = (0..k).fold(0, |b, j| if rank_sums[j] < rank_sums[b] { j } else { b });
    let df = n.saturating_sub(1) * k.saturating_sub(1);
    let ssr: f64 = rank_sums.iter().map(|r| r * r).sum();
    let se = if df > 0 {
        (2.0 * (n as f64 * squares - ssr).max(0.0) / df as f64).sqrt()
    } else {
        f64::NAN
    };
    let omnibus = friedman.p_value < alpha;
    let comparisons = rank_sums
        .iter()
        .map(|&r| {
            let diff = r - rank_sums[best];
            let (t, p_value) = if df == 0 {
                (f64::NAN, f64::NAN)
            } else if diff == 0.0 {
                (0.0, 1.0)
            } else {
                let t = diff / se; // +∞ when se = 0
                (t, (2.0 * student_t_sf(t, df as f64)).min(1.0))
            };
            PosthocComparison {
                rank_sum_diff: diff,
                t,
                p_value,
                worse: omnibus && p_value < alpha,
            }
        })
        .collect();
    FriedmanPosthoc {
        friedman,
        best,
        df,
        se,
        comparisons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::testing::{int_sample, real_sample, rel_err};
    use crate::util::rng::rng_from_seed;
    use rand::RngExt;

    #[test]
    fn friedman_matches_scipy() {
        // scipy.stats.friedmanchisquare(*columns): (name, blocks, statistic, pvalue)
        let cases: Vec<(&str, Vec<Vec<f64>>, f64, f64)> = vec![
            (
                "no_ties_5x3",
                vec![
                    vec![1.0, 2.0, 3.0],
                    vec![2.0, 1.0, 3.0],
                    vec![1.0, 3.0, 2.0],
                    vec![1.5, 2.5, 3.5],
                    vec![3.0, 1.0, 2.0],
                ],
                2.8000000000000043,
                0.24659696394160596,
            ),
            (
                "ties_6x4",
                vec![
                    vec![1.0, 1.0, 2.0, 3.0],
                    vec![2.0, 2.0, 2.0, 1.0],
                    vec![1.0, 2.0, 3.0, 4.0],
                    vec![4.0, 3.0, 3.0, 1.0],
                    vec![1.0, 1.0, 1.0, 2.0],
                    vec![2.0, 3.0, 4.0, 4.0],
                ],
                2.510204081632667,
                0.4734497995777863,
            ),
            (
                "int_12x5",
                vec![
                    vec![0.0, 4.0, 3.0, 1.0, 5.0],
                    vec![5.0, 1.0, 0.0, 3.0, 5.0],
                    vec![5.0, 0.0, 3.0, 3.0, 1.0],
                    vec![4.0, 3.0, 4.0, 1.0, 3.0],
                    vec![4.0, 5.0, 2.0, 1.0, 0.0],
                    vec![4.0, 2.0, 4.0, 3.0, 1.0],
                    vec![5.0, 2.0, 0.0, 0.0, 5.0],
                    vec![5.0, 0.0, 5.0, 1.0, 0.0],
                    vec![3.0, 1.0, 3.0, 2.0, 3.0],
                    vec![3.0, 4.0, 2.0, 0.0, 5.0],
                    vec![1.0, 1.0, 0.0, 0.0, 1.0],
                    vec![0.0, 5.0, 1.0, 4.0, 3.0],
                ],
                5.423423423423407,
                0.24654307269259274,
            ),
            (
                "shift_20x4",
                vec![
                    vec![0.099, -1.064, 2.465, 1.329],
                    vec![-0.815, 0.379, 0.81, 1.059],
                    vec![1.805, -0.772, 0.918, 2.212],
                    vec![0.172, -0.569, 0.495, 1.013],
                    vec![2.036, 0.141, 1.646, 2.142],
                    vec![0.117, 0.692, -0.168, 2.241],
                    vec![1.064, 0.789, 0.39, -0.282],
                    vec![0.305, -0.139, 1.272, 2.266],
                    vec![0.244, 0.532, 0.864, 0.184],
                    vec![-0.589, 0.951, 0.694, 1.465],
                    vec![-0.497, 0.605, 0.828, 0.774],
                    vec![2.04, -2.359, 0.856, 2.038],
                    vec![-1.757, 0.111, 0.988, 0.881],
                    vec![0.665, 0.579, 1.902, 0.047],
                    vec![0.953, 0.642, -0.139, 1.201],
                    vec![0.381, 1.203, 0.392, 0.595],
                    vec![-2.17, 1.072, 2.242, 1.098],
                    vec![-0.412, 1.268, 1.34, 0.032],
                    vec![1.671, -1.858, -0.301, 0.498],
                    vec![-0.572, 2.051, 0.637, 2.486],
                ],
                9.420000000000016,
                0.024197833820529716,
            ),
        ];
        for (name, blocks, stat, p) in &cases {
            let r = friedman(blocks);
            assert!(
                rel_err(r.statistic, *stat) < 1e-12,
                "{name}: {}",
                r.statistic
            );
            assert!(
                rel_err(r.p_value, *p) < 1e-12,
                "{name}: {} vs {p}",
                r.p_value
            );
            let (n, k) = (blocks.len() as f64, blocks[0].len() as f64);
            assert_eq!((r.blocks, r.df), (blocks.len(), blocks[0].len() - 1));
            assert_eq!(r.rank_sums.iter().sum::<f64>(), n * k * (k + 1.0) / 2.0);
            for (s, m) in r.rank_sums.iter().zip(&r.mean_ranks) {
                assert_eq!(s / n, *m);
            }
        }
        // By hand for the first table: ranks (1,2,3) (2,1,3) (1,3,2) (1,2,3) (3,1,2).
        assert_eq!(friedman(&cases[0].1).rank_sums, vec![8.0, 9.0, 13.0]);

        // scikit_posthocs.posthoc_conover_friedman(blocks, p_adjust=None), the row of the
        // best treatment: (name, best, p-values against every treatment)
        let conover: &[(&str, usize, &[f64])] = &[
            (
                "no_ties_5x3",
                0,
                &[1.0, 0.7474509841694694, 0.13414064107417606],
            ),
            (
                "ties_6x4",
                0,
                &[
                    1.0,
                    0.9047160649255521,
                    0.29048455971032666,
                    0.24223537312669166,
                ],
            ),
            (
                "int_12x5",
                3,
                &[
                    0.025056080507349403,
                    0.3117012943656511,
                    0.3117012943656511,
                    1.0,
                    0.1589838845926428,
                ],
            ),
            (
                "shift_20x4",
                1,
                &[
                    0.8970122597327654,
                    1.0,
                    0.07397854847465253,
                    0.008403834726451315,
                ],
            ),
        ];
        for ((name, blocks, _, _), &(name2, best, ps)) in cases.iter().zip(conover) {
            assert_eq!(name, &name2);
            let r = friedman_posthoc(blocks, 0.05);
            assert_eq!(r.best, best, "{name}");
            for (c, p) in r.comparisons.iter().zip(ps) {
                assert!(
                    rel_err(c.p_value, *p) < 1e-10,
                    "{name}: {} vs {p}",
                    c.p_value
                );
                assert_eq!(c.worse, r.friedman.p_value < 0.05 && c.p_value < 0.05);
            }
        }
    }

    #[test]
    fn friedman_properties() {
        let mut rng = rng_from_seed(61);
        for trial in 0..100 {
            let (n, k) = (2 + trial % 9, 2 + trial % 5);
            let blocks: Vec<Vec<f64>> = (0..n).map(|_| int_sample(&mut rng, k, 4)).collect();
            let r = friedman(&blocks);
            // Invariant under reordering blocks and monotone transformations of a block.
            let mut moved: Vec<Vec<f64>> = blocks.iter().rev().cloned().collect();
            moved[0] = moved[0].iter().map(|v| (v * 0.7).exp() - 3.0).collect();
            let s = friedman(&moved);
            assert_eq!(r.rank_sums, s.rank_sums);
            assert!(r.statistic.is_nan() && s.statistic.is_nan() || r.statistic == s.statistic);
            assert!(r.p_value.is_nan() || (0.0..=1.0).contains(&r.p_value));
        }
        // Two treatments without ties: the sign test's (n⁺ − n⁻)²/n.
        for _ in 0..50 {
            let blocks: Vec<Vec<f64>> = (0..12).map(|_| real_sample(&mut rng, 2, 0.0)).collect();
            let plus = blocks.iter().filter(|b| b[0] > b[1]).count() as f64;
            let want = (2.0 * plus - 12.0).powi(2) / 12.0;
            assert!((friedman(&blocks).statistic - want).abs() < 1e-12);
        }
        // Every block tied: 0/0, as SciPy.
        let tied = friedman(&[vec![1.0, 1.0, 1.0], vec![2.0, 2.0, 2.0]]);
        assert!(tied.statistic.is_nan() && tied.p_value.is_nan());
        assert!(friedman(&[]).statistic.is_nan());
    }

    #[test]
    #[should_panic(expected = "block 1 has 2 treatments")]
    fn friedman_rejects_ragged_tables() {
        friedman(&[vec![1.0, 2.0, 3.0], vec![1.0, 2.0]]);
    }

    #[test]
    fn posthoc_is_irace_critical_difference() {
        // irace eliminates j when |R_j − R_best| > qt(1 − α/2, df)·SE; with the quantile
        // found by bisection on `student_t_sf`, that is the same decision as p < α.
        let mut rng = rng_from_seed(71);
        let alpha = 0.05;
        let mut eliminated = 0;
        for trial in 0..100 {
            let (n, k) = (3 + trial % 12, 3 + trial % 6);
            let blocks: Vec<Vec<f64>> = (0..n)
                .map(|_| {
                    (0..k)
                        .map(|j| rng.random::<f64>() + 0.15 * j as f64)
                        .collect()
                })
                .collect();
            let r = friedman_posthoc(&blocks, alpha);
            let (mut lo, mut hi) = (0.0, 1e3);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if student_t_sf(mid, r.df as f64) > alpha / 2.0 {
                    lo = mid
                } else {
                    hi = mid
                }
            }
            let critical = hi * r.se;
            let best_sum = r.friedman.rank_sums[r.best];
            for (j, c) in r.comparisons.iter().enumerate() {
                let diff = r.friedman.rank_sums[j] - best_sum;
                assert_eq!(diff, c.rank_sum_diff);
                if (diff - critical).abs() > 1e-9 {
                    let irace = r.friedman.p_value < alpha && diff > critical;
                    assert_eq!(c.worse, irace, "trial {trial} treatment {j}");
                }
                eliminated += usize::from(c.worse);
            }
            assert!(!r.comparisons[r.best].worse);
        }
        assert!(
            eliminated > 20,
            "the test exercises eliminations ({eliminated})"
        );
    }

    #[test]
    fn posthoc_edge_cases() {
        // Every block ranks the treatments the same way: SE = 0, all but the best worse.
        let same: Vec<Vec<f64>> = (0..6)
            .map(|i| vec![3.0, 1.0, 2.0, 4.0 + i as f64])
            .collect();
        let r = friedman_posthoc(&same, 0.05);
        assert_eq!((r.best, r.se), (1, 0.0));
        assert!((r.friedman.statistic - 18.0).abs() < 1e-12);
        let worse: Vec<bool> = r.comparisons.iter().map(|c| c.worse).collect();
        assert_eq!(worse, vec![true, false, true, true]);
        // One block: no degrees of freedom, nothing significant.
        let one = friedman_posthoc(&[vec![1.0, 2.0, 3.0]], 0.05);
        assert_eq!(one.df, 0);
        assert!(one.comparisons.iter().all(|c| !c.worse));
        // All tied: the Friedman test is undefined, nothing significant.
        let tied = friedman_posthoc(&[vec![1.0, 1.0, 1.0], vec![2.0, 2.0, 2.0]], 0.05);
        assert!(tied.comparisons.iter().all(|c| !c.worse));
        // Not significant overall: nothing eliminated even if a pair alone would be.
        let weak = friedman_posthoc(&[vec![1.0, 2.0, 3.0], vec![2.0, 1.0, 3.0]], 0.05);
        assert!(weak.friedman.p_value > 0.05);
        assert!(weak.comparisons.iter().all(|c| !c.worse));
    }
}
