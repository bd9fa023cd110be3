//! What a random table read costs on this machine: the floor under the 24-puzzle's
//! pattern-database search, whose tables (1.3 GB of spread copies for `6-6-6-6x4`) are
//! read at random, about 4.5 reads per generated node with the finite-state machine (a
//! child that is not pruned reads all eight sums' tables).
//!
//! Reads of one byte at random places in an array on huge pages (as the tables are,
//! [`searchlab::util::huge`]), of 16 MB (about the last-level cache) and of 1 GB:
//! `dependent`, each read's place computed from the byte before (the latency a search
//! waits when its next read depends on the last); `independent`, eight streams whose
//! places are known ahead (the throughput when reads overlap). Criterion's "elem/s" is
//! reads per second. Measured on the two-core virtual machines this project runs on
//! (2026-11-27): 16 MB, 70–95 ns a dependent read and 8–10 ns an independent one; 1 GB,
//! 175–185 ns and 17 ns (58 million reads a second; with both cores reading at once, each
//! about as fast). The fifteen easiest 24-puzzles take 5.08·10⁹ generated nodes with
//! `6-6-6-6x4` and the machine, about 2.3·10¹⁰ reads: some 200 s of two cores' reading
//! alone, however well the reads overlap.
//!
//! `translation`: independent reads of the same 4,096 cache lines (256 KB, within the
//! second-level cache), lying within 4 MB or spread over 1 GB of huge pages, so that only
//! the number of pages they lie on differs: what the processor pays to translate an
//! address when the pages read outnumber its translation buffer. On these virtual
//! machines (2026-11-28) the lines within 4 MB cost about 1 ns a read and spread over
//! 1 GB 17 ns, as much as reads at random places of the whole array (`1GB/independent`),
//! so that is what bounds those: translation, not the memory. A standalone test gave the
//! same with 1 GB pages reserved for the array (`hugetlbfs`) as with 2 MB ones, as if the
//! host mapped the guest's memory in 4 KB pages: the translation buffer reaches some 1,000
//! to 1,500 pages, 4–6 MB, whatever the guest's page size (512 lines over 1 GB: 1 ns a read;
//! 2,048: 6.5–7 ns). The search's table reads, traced on instance 25 and put through a
//! model of such a buffer (1,536 pages of 4 KB, least recently used out first), miss it
//! 3.8% of the time: at 6.5 reads a generated node and 17 ns each, about 5% of its time.
//! Run: `cargo bench --bench memory`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use searchlab::util::huge::huge_zeroed;
use std::hint::black_box;

/// The reads each timed iteration makes: eight times fewer in one dependent chain, which
/// takes about ten times as long a read.
const READS: u64 = 1 << 20;
const CHAIN: u64 = READS / 8;

/// One step of Marsaglia's xorshift64. The places come from it rather than from the
/// project's seeded ChaCha generator ([`searchlab::util::rng`]) because the bench times
/// one-byte reads: a generator that costs more than a cached read would be what it timed.
/// The places only spread the reads; no result depends on them.
fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// [`CHAIN`] reads in one chain, each at a place that depends on the byte read before.
fn dependent(data: &[u8], seed: u64) -> u64 {
    let mask = data.len() - 1;
    let (mut x, mut at, mut sum) = (seed, 0usize, 0u64);
    for _ in 0..CHAIN {
        let byte = data[at];
        sum += u64::from(byte);
        at = (xorshift(&mut x) as usize ^ usize::from(byte)) & mask;
    }
    sum
}

/// [`READS`] reads in eight streams whose places do not depend on what is read.
fn independent(data: &[u8], seed: u64) -> u64 {
    let mask = data.len() - 1;
    let mut x: [u64; 8] = std::array::from_fn(|i| seed.wrapping_mul(i as u64 + 1) | 1);
    let mut sum = 0u64;
    for _ in 0..READS / 8 {
        for s in &mut x {
            sum += u64::from(data[xorshift(s) as usize & mask]);
        }
    }
    sum
}

fn random_reads(c: &mut Criterion) {
    let mut group = c.benchmark_group("memory");
    group.sample_size(10);
    for (name, bytes) in [("16MB", 16usize << 20), ("1GB", 1 << 30)] {
        let mut data: Vec<u8> = huge_zeroed(bytes);
        // Touch every page, with bytes that vary, so no read finds an unmapped page.
        for (i, b) in data.iter_mut().enumerate().step_by(4096) {
            *b = (i >> 12) as u8;
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        group.throughput(Throughput::Elements(CHAIN));
        group.bench_function(format!("{name}/dependent"), |b| {
            b.iter(|| {
                seed = seed.wrapping_add(2);
                dependent(black_box(&data), seed)
            })
        });
        group.throughput(Throughput::Elements(READS));
        group.bench_function(format!("{name}/independent"), |b| {
            b.iter(|| {
                seed = seed.wrapping_add(2);
                independent(black_box(&data), seed)
            })
        });
    }
    group.finish();
}

/// The lines [`translation`] reads: `LINES` line-aligned places in the first `span`
/// bytes (spread by xorshift), in the order they are read.
const LINES: usize = 4096;

/// [`READS`] reads at the places `at`, over and over, none depending on what is read.
fn read_places(data: &[u8], at: &[u32]) -> u64 {
    let mut sum = 0u64;
    for _ in 0..READS as usize / at.len() {
        for &a in at {
            sum += u64::from(data[a as usize]);
        }
    }
    sum
}

fn translation(c: &mut Criterion) {
    let mut group = c.benchmark_group("memory");
    group.sample_size(10);
    let bytes = 1usize << 30;
    let mut data: Vec<u8> = huge_zeroed(bytes);
    for (i, b) in data.iter_mut().enumerate().step_by(4096) {
        *b = (i >> 12) as u8;
    }
    group.throughput(Throughput::Elements(READS));
    for (name, span) in [
        ("translation/4MB", 4usize << 20),
        ("translation/1GB", bytes),
    ] {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let at: Vec<u32> = (0..LINES)
            .map(|_| ((xorshift(&mut x) as usize % span) & !63) as u32)
            .collect();
        group.bench_function(name, |b| b.iter(|| read_places(black_box(&data), &at)));
    }
    group.finish();
}

criterion_group!(benches, random_reads, translation);
criterion_main!(benches);
