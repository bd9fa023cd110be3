//! Exact counts of mazes at every size: [`Big`], an unsigned integer of 320 bits (every
//! count up to 10×10, whose 2^292 mazes need 292), and the search's cheap form of a
//! count, the prime exponents of a product of numbers of legal jumps ([`Exps`]).
//!
//! A crate was weighed and not taken: `num-bigint` turns on a feature of `num-traits`
//! that polars also uses (a rebuild of polars in every build folder), and `ruint` brings
//! some sixty optional packages into `Cargo.lock`. Counts need only addition,
//! multiplication by a small number, comparison and decimal text, which fit here.

use std::fmt;

const LIMBS: usize = 5;

/// An unsigned integer below 2^320, little-endian 64-bit limbs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Big([u64; LIMBS]);

impl Big {
    pub const ZERO: Big = Big([0; LIMBS]);

    pub fn from_u128(x: u128) -> Big {
        let mut b = Big::ZERO;
        b.0[0] = x as u64;
        b.0[1] = (x >> 64) as u64;
        b
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// `self + other`; counts never come near 2^320, so an overflow is a bug.
    fn sum_of(self, other: Big) -> Big {
        let mut out = Big::ZERO;
        let mut carry = false;
        for i in 0..LIMBS {
            let (s, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            out.0[i] = s;
            carry = c1 || c2;
        }
        assert!(!carry, "a count passed 2^320");
        out
    }

    /// `self × m`.
    pub fn mul_small(self, m: u64) -> Big {
        let mut out = Big::ZERO;
        let mut carry = 0u128;
        for i in 0..LIMBS {
            let p = u128::from(self.0[i]) * u128::from(m) + carry;
            out.0[i] = p as u64;
            carry = p >> 64;
        }
        assert!(carry == 0, "a count passed 2^320");
        out
    }

    /// `(self / d, self % d)` for a small `d > 0`.
    fn div_small(self, d: u64) -> (Big, u64) {
        let mut out = Big::ZERO;
        let mut rem = 0u128;
        for i in (0..LIMBS).rev() {
            let cur = (rem << 64) | u128::from(self.0[i]);
            out.0[i] = (cur / u128::from(d)) as u64;
            rem = cur % u128::from(d);
        }
        (out, rem as u64)
    }

    /// The nearest double (for a reader's rounded figure, never for a count).
    pub fn to_f64(&self) -> f64 {
        self.0
            .iter()
            .rev()
            .fold(0.0, |acc, &l| acc * 18_446_744_073_709_551_616.0 + l as f64)
    }

    /// The number a decimal text (digits only) stands for, if it is below 2^320.
    pub fn parse(text: &str) -> Option<Big> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut b = Big::ZERO;
        for d in text.bytes() {
            b = b.checked_mul_add(10, u64::from(d - b'0'))?;
        }
        Some(b)
    }

    fn checked_mul_add(self, m: u64, a: u64) -> Option<Big> {
        let mut out = Big::ZERO;
        let mut carry = u128::from(a);
        for i in 0..LIMBS {
            let p = u128::from(self.0[i]) * u128::from(m) + carry;
            out.0[i] = p as u64;
            carry = p >> 64;
        }
        (carry == 0).then_some(out)
    }

    /// Decimal digits grouped by thousands: `38,472`.
    pub fn grouped(&self) -> String {
        let digits = self.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    }
}

impl std::ops::Add for Big {
    type Output = Big;
    fn add(self, other: Big) -> Big {
        self.sum_of(other)
    }
}

impl std::iter::Sum for Big {
    fn sum<I: Iterator<Item = Big>>(iter: I) -> Big {
        iter.fold(Big::ZERO, |a, b| a + b)
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl fmt::Display for Big {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19
        let mut chunks = Vec::new();
        let mut rest = *self;
        loop {
            let (q, r) = rest.div_small(CHUNK);
            chunks.push(r);
            if q.is_zero() {
                break;
            }
            rest = q;
        }
        let mut text = chunks.pop().unwrap_or(0).to_string();
        for c in chunks.iter().rev() {
            text.push_str(&format!("{c:019}"));
        }
        f.write_str(&text)
    }
}

/// The primes of every number of legal jumps (1 to 9).
const PRIMES: [u64; 4] = [2, 3, 5, 7];

/// A product of numbers from 1 to 9 as its exponents of 2, 3, 5 and 7, 16 bits each:
/// multiplying is adding, so the search keeps the product of the assigned cells' legal
/// jumps in one register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Exps(pub u64);

impl Exps {
    /// The exponents of `n` (1 to 9).
    pub fn of(n: u8) -> Exps {
        let mut e = 0u64;
        let mut n = u64::from(n);
        for (k, p) in PRIMES.iter().enumerate() {
            while n > 1 && n.is_multiple_of(*p) {
                e += 1 << (16 * k);
                n /= p;
            }
        }
        assert!(n == 1, "only numbers 1 to 9 are legal jump counts");
        Exps(e)
    }

    /// The number itself.
    pub fn value(self) -> Big {
        let mut b = Big::from_u128(1);
        for (k, p) in PRIMES.iter().enumerate() {
            for _ in 0..(self.0 >> (16 * k)) & 0xffff {
                b = b.mul_small(*p);
            }
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_numbers_print_and_parse_in_decimal() {
        let mut b = Big::from_u128(1);
        for _ in 0..300 {
            b = b.mul_small(2);
        }
        // 2^300, as Python prints it.
        let text = "2037035976334486086268445688409378161051468393665936250636140449354381299763336706183397376";
        assert_eq!(b.to_string(), text);
        assert_eq!(Big::parse(text), Some(b));
        assert_eq!(Big::parse(&"9".repeat(97)), None, "above 2^320");
        assert_eq!(Big::parse("12a"), None);
        assert_eq!(Big::from_u128(38_472).grouped(), "38,472");
        assert_eq!(Big::from_u128(7).grouped(), "7");
        assert_eq!(Big::ZERO.to_string(), "0");
        assert!((b.to_f64() / 2f64.powi(300) - 1.0).abs() < 1e-15);
        assert!(Big::from_u128(u128::MAX) + Big::from_u128(1) > Big::from_u128(u128::MAX));
    }

    #[test]
    fn exponents_multiply_by_adding() {
        let mut e = Exps::default();
        let mut want = 1u128;
        for n in 1..=9u8 {
            e = Exps(e.0 + Exps::of(n).0);
            want *= u128::from(n);
        }
        assert_eq!(e.value(), Big::from_u128(want));
    }
}
