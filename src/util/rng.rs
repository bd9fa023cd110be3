//! Every random choice in searchlab comes from here: a seeded ChaCha generator, and the
//! derivation of per-run seeds from a base seed and the run's identity.
//!
//! Seeds are derived with a fixed 64-bit mix (SplitMix64 over FNV-1a of the bytes), not
//! with `std`'s hasher, whose output may change between Rust releases.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The generator every algorithm draws from.
pub type SearchRng = ChaCha8Rng;

/// A generator for a 64-bit seed.
pub fn rng_from_seed(seed: u64) -> SearchRng {
    SearchRng::seed_from_u64(seed)
}

/// A seed for a run nobody seeded: drawn from the operating system, so that the caller
/// can print it and the run can be replayed with `--seed`.
pub fn fresh_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom_bytes(&mut bytes) {
        return u64::from_le_bytes(bytes);
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    splitmix64(nanos ^ u64::from(std::process::id()))
}

fn getrandom_bytes(buf: &mut [u8]) -> bool {
    use std::io::Read;
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(buf))
        .is_ok()
}

/// SplitMix64's finaliser: a bijective mix of 64 bits.
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a over bytes: stable across platforms and Rust versions.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The seed of one run: a function of the base seed, the run's canonical identity
/// (algorithm and parameter values) and its replicate index, and of nothing else.
pub fn derive_seed(base_seed: u64, identity: &str, replicate: u64) -> u64 {
    let h = fnv1a(identity.as_bytes());
    splitmix64(splitmix64(base_seed ^ splitmix64(h)) ^ replicate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn derived_seeds_are_pinned() {
        // Changing the derivation silently changes every published result: pin it.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        let a = derive_seed(1, "anneal|size=5", 0);
        assert_ne!(a, derive_seed(1, "anneal|size=5", 1));
        assert_ne!(a, derive_seed(2, "anneal|size=5", 0));
        assert_ne!(a, derive_seed(1, "anneal|size=6", 0));
        assert_eq!(a, derive_seed(1, "anneal|size=5", 0));
    }

    #[test]
    fn same_seed_same_stream() {
        let mut a = rng_from_seed(42);
        let mut b = rng_from_seed(42);
        let xs: Vec<u32> = (0..8).map(|_| a.random()).collect();
        let ys: Vec<u32> = (0..8).map(|_| b.random()).collect();
        assert_eq!(xs, ys);
    }
}
