//! Effect sizes: the Vargha–Delaney A12 (the probability that a value of one sample
//! beats one of the other, ties counting half) and its conventional reading.

/// The Vargha–Delaney A measure of stochastic superiority (Vargha & Delaney 2000,
/// J. Educ. Behav. Stat. 25(2)): A₁₂ = P(A > B) + ½·P(A = B) for A drawn from `a`
/// and B from `b`, counted over all n₁n₂ pairs. Equal to U₁/(n₁n₂) of the Mann–Whitney
/// test. 0.5 means no difference; A₁₂(a, b) = 1 − A₁₂(b, a). NaN for an empty sample
/// or a NaN value. O((n₁ + n₂) log(n₁ + n₂)).
///
/// ```
/// use searchlab::stats::{a12, a12_magnitude};
/// // Pairs (a, b): 3>1, 3>2, 3=3, 5>1, 5>2, 5>3; 1=1, 1<2, 1<3.
/// let a = a12(&[1.0, 3.0, 5.0], &[1.0, 2.0, 3.0]);
/// assert_eq!(a, (5.0 + 0.5 * 2.0) / 9.0);
/// assert_eq!(a12_magnitude(a), "medium");
/// ```
pub fn a12(a: &[f64], b: &[f64]) -> f64 {
    if a.is_empty() || b.is_empty() || a.iter().chain(b).any(|v| v.is_nan()) {
        return f64::NAN;
    }
    let mut sa = a.to_vec();
    let mut sb = b.to_vec();
    sa.sort_by(f64::total_cmp);
    sb.sort_by(f64::total_cmp);
    // For each value of a in ascending order: b values below it (lt) and not above it (le).
    let (mut lt, mut le) = (0usize, 0usize);
    let (mut greater, mut equal) = (0u128, 0u128);
    for &x in &sa {
        while lt < sb.len() && sb[lt] < x {
            lt += 1;
        }
        le = le.max(lt);
        while le < sb.len() && sb[le] <= x {
            le += 1;
        }
        greater += lt as u128;
        equal += (le - lt) as u128;
    }
    (2 * greater + equal) as f64 / (2 * sa.len() as u128 * sb.len() as u128) as f64
}

/// Vargha & Delaney's (2000) verbal label for an A₁₂ value, symmetric about 0.5:
/// "large" if A ≥ 0.71 or A ≤ 0.29, else "medium" if A ≥ 0.64 or A ≤ 0.36, else
/// "small" if A ≥ 0.56 or A ≤ 0.44, else "negligible"; "undefined" for NaN.
pub fn a12_magnitude(a12: f64) -> &'static str {
    if a12.is_nan() {
        "undefined"
    } else if a12 >= 0.71 || a12 <= 0.29 {
        "large"
    } else if a12 >= 0.64 || a12 <= 0.36 {
        "medium"
    } else if a12 >= 0.56 || a12 <= 0.44 {
        "small"
    } else {
        "negligible"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::testing::int_sample;
    use crate::util::rng::rng_from_seed;

    #[test]
    fn a12_counts_pairs() {
        let mut rng = rng_from_seed(51);
        for trial in 0..300 {
            let (m, n) = (1 + trial % 11, 1 + trial % 7);
            let (a, b) = (int_sample(&mut rng, m, 6), int_sample(&mut rng, n, 6));
            let (mut gt, mut eq) = (0.0, 0.0);
            for x in &a {
                for y in &b {
                    gt += f64::from(u8::from(x > y));
                    eq += f64::from(u8::from(x == y));
                }
            }
            let want = (gt + 0.5 * eq) / (m * n) as f64;
            assert!((a12(&a, &b) - want).abs() < 1e-15);
            assert!((a12(&a, &b) + a12(&b, &a) - 1.0).abs() < 1e-15);
            assert_eq!(a12_magnitude(a12(&a, &b)), a12_magnitude(a12(&b, &a)));
        }
        assert_eq!(a12(&[5.0, 6.0], &[1.0, 2.0, 3.0]), 1.0);
        assert_eq!(a12(&[1.0, 2.0], &[1.0, 2.0]), 0.5);
        assert!(a12(&[], &[1.0]).is_nan());
        assert!(a12(&[f64::NAN], &[1.0]).is_nan());
    }

    #[test]
    fn a12_magnitude_thresholds() {
        // Vargha & Delaney (2000): 0.56, 0.64 and 0.71 (and 0.44, 0.36, 0.29 below 0.5)
        // are the smallest A values called small, medium and large.
        let cases = [
            (0.5, "negligible"),
            (0.559, "negligible"),
            (0.441, "negligible"),
            (0.56, "small"),
            (0.44, "small"),
            (0.639, "small"),
            (0.361, "small"),
            (0.64, "medium"),
            (0.36, "medium"),
            (0.709, "medium"),
            (0.291, "medium"),
            (0.71, "large"),
            (0.29, "large"),
            (1.0, "large"),
            (0.0, "large"),
        ];
        for (a, label) in cases {
            assert_eq!(a12_magnitude(a), label, "{a}");
        }
        assert_eq!(a12_magnitude(f64::NAN), "undefined");
        // Exact boundary ratios from counts, in both directions: one value of a above
        // 56 (resp. 71) of the 100 values of b.
        let b: Vec<f64> = (0..100).map(f64::from).collect();
        for (x, up, down, label) in [(55.5, 0.56, 0.44, "small"), (70.5, 0.71, 0.29, "large")] {
            assert_eq!((a12(&[x], &b), a12(&b, &[x])), (up, down));
            assert_eq!(a12_magnitude(up), label);
            assert_eq!(a12_magnitude(down), label);
        }
    }
}
