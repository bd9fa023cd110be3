//! What long work prints through the plain-line observer (stderr that is not a
//! terminal), byte for byte as the program printed it before its progress went through
//! one observer: a run's progress lines, and a table build's quarters. The observer's
//! clock is frozen, so that the elapsed times read as they did for these short runs.

use searchlab::pipeline::execute::{Options, run_experiment};
use searchlab::pipeline::progress::Progress;
use searchlab::tiles::board::{Board, Shape};
use searchlab::util::observe::Plain;
use std::time::Duration;

/// A plain-line observer into memory, its clock frozen at zero.
fn frozen() -> Plain<Vec<u8>> {
    Plain::new(Vec::new()).with_clock(|| Duration::ZERO)
}

#[test]
fn a_run_prints_its_progress_lines_as_before() {
    // `searchlab run quickstart --set replicates.count=1 --jobs 1 2> err`, before.
    let before = "\
searchlab: quickstart: 0/12 runs (0%); all: 0/12 (0%), 0.0s elapsed
searchlab: quickstart: 12/12 runs (100%); all: 12/12 (100%), 0.0s elapsed
";
    let dir = tempfile::tempdir().unwrap();
    let overrides = ["replicates.count=1".to_string()];
    let config =
        searchlab::pipeline::config::load_named(dir.path(), "quickstart", &overrides).unwrap();
    let runner = searchlab::rjm::runner::runner();
    let plan = searchlab::pipeline::plan::plan(&config, &[&runner]).unwrap();
    let mut opts = Options::new(&dir.path().join("out"), "test-host");
    opts.jobs = 1;
    let plain = frozen();
    let progress = Progress::new(&plain, plan.runs.len() as u64);
    let done = run_experiment(&config, &plan, &opts, &progress).unwrap();
    progress.finish();
    assert_eq!(done.computed, 12);
    assert_eq!(String::from_utf8(plain.into_inner()).unwrap(), before);
    // The host passed in is the manifest's.
    let manifest = std::fs::read_to_string(done.dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"host\": \"test-host\""), "{manifest}");
}

#[test]
fn a_table_build_prints_its_quarters_as_before() {
    // `searchlab tiles pdb build --partition 1,2,3/4,5,6,7 2> err`, before.
    let quarters = |tiles: &str, total: u64| -> String {
        (0..=4)
            .map(|q| {
                format!(
                    "searchlab: building the pattern database of tiles {tiles}: {}% of {total} placements\n",
                    q * 25
                )
            })
            .collect()
    };
    let before = quarters("[1, 2, 3]", 504) + &quarters("[4, 5, 6, 7]", 3024);
    let dir = tempfile::tempdir().unwrap();
    let goal = Board::default_goal(Shape::new(3, 3).unwrap(), 1);
    let (name, partitions) =
        searchlab::tiles::pdb::parse_partitions("1,2,3/4,5,6,7", &goal).unwrap();
    let plain = frozen();
    searchlab::tiles::pdb::load_heuristic(&goal, name, partitions, dir.path(), &plain).unwrap();
    assert_eq!(String::from_utf8(plain.into_inner()).unwrap(), before);
}
