//! Golden tests: the assignment's figures, reproduced by `searchlab pegsol solve`.

mod common;

fn searchlab(args: &[&str]) -> (i32, String, String) {
    let out = common::run(args, "");
    (out.code, out.stdout, out.stderr)
}

/// The STATS block without its two timing lines.
fn stats_without_timing(stdout: &str) -> String {
    let start = stdout.find("STATS:").expect("a STATS block");
    stdout[start..]
        .lines()
        .filter(|l| !l.starts_with("Expanded/seconds:") && !l.starts_with("Time (seconds):"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn level_5_with_budget_1_200_000_gives_the_seed_figures() {
    let (code, stdout, stderr) =
        searchlab(&["pegsol", "solve", "--level", "5", "--budget", "1200000"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stats_without_timing(&stdout),
        "STATS:\nExpanded nodes: 1090275\nGenerated nodes: 4898609\nSolution Length: 35\nNumber of Pegs Left: 1"
    );
}

#[test]
fn the_whole_stats_block_has_the_seed_layout() {
    let (code, stdout, _) = searchlab(&["pegsol", "solve", "--level", "4", "--budget", "1,000"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{stdout}");
    assert_eq!(lines[0], "STATS:");
    // Budget 1000 runs out before the English board is solved (the seed needs 1065).
    assert_eq!(lines[1], "Expanded nodes: 1000");
    assert!(lines[2].starts_with("Generated nodes: "));
    let generated: u64 = lines[2]["Generated nodes: ".len()..].parse().unwrap();
    assert!(generated > 1000 && generated < 1000 * 30, "{generated}");
    assert!(lines[3].starts_with("Solution Length: "));
    let pegs_left: u32 = lines[4]
        .strip_prefix("Number of Pegs Left: ")
        .unwrap()
        .parse()
        .unwrap();
    let length: u32 = lines[3]
        .strip_prefix("Solution Length: ")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(pegs_left + length, 32, "each jump removes one peg");
    assert!(
        lines[5]
            .strip_prefix("Expanded/seconds: ")
            .unwrap()
            .parse::<u64>()
            .unwrap()
            > 0
    );
    let t: f64 = lines[6]
        .strip_prefix("Time (seconds): ")
        .unwrap()
        .parse()
        .unwrap();
    assert!(t > 0.0 && t < 10.0);
    // With the default budget the English board is solved after 1065 expansions.
    let (_, stdout, _) = searchlab(&["pegsol", "solve", "--level", "4"]);
    assert_eq!(
        stats_without_timing(&stdout),
        "STATS:\nExpanded nodes: 1065\nGenerated nodes: 2418\nSolution Length: 31\nNumber of Pegs Left: 1"
    );
}
