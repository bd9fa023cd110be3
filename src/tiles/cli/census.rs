//! `tiles census`: the number of states at each distance from the goal, by
//! breadth-first search.

use crate::tiles::board::Board;
use crate::tiles::census;
use crate::tiles::format::thousands;
use crate::user_bail;

#[derive(clap::Args, Debug)]
pub struct CensusArgs {
    #[arg(long, default_value_t = 3)]
    pub width: usize,
    #[arg(long, default_value_t = 3)]
    pub height: usize,
    /// Number of blanks.
    #[arg(long, default_value_t = 1)]
    pub blanks: usize,
    /// Goal, as numbers (default: as for `solve`).
    #[arg(long)]
    pub goal: Option<String>,
    /// Print `depth,states` CSV.
    #[arg(long)]
    pub csv: bool,
}

/// `tiles census`'s output.
pub(super) fn census(a: &CensusArgs) -> anyhow::Result<String> {
    let shape = crate::tiles::Shape::new(a.width, a.height)?;
    if a.blanks == 0 || a.blanks >= shape.cells() {
        user_bail!(
            "--blanks {} must be from 1 to {} on a {shape} board",
            a.blanks,
            shape.cells() - 1
        );
    }
    let goal = match &a.goal {
        Some(g) => {
            let goal = Board::parse(g, Some(a.width), Some(a.height), "--goal")?;
            if goal.blanks() != a.blanks {
                user_bail!(
                    "--goal has {} blank(s) but --blanks is {}",
                    goal.blanks(),
                    a.blanks
                );
            }
            goal
        }
        None => Board::default_goal(shape, a.blanks),
    };
    let counts = census::census(&goal)?;
    let mut s = String::new();
    if a.csv {
        s.push_str("depth,states\n");
        for (d, c) in counts.iter().enumerate() {
            s.push_str(&format!("{d},{c}\n"));
        }
    } else {
        s.push_str(&format!(
            "{shape} board, {} blank(s), goal {}\n",
            a.blanks,
            goal.list()
        ));
        s.push_str("depth        states\n");
        for (d, c) in counts.iter().enumerate() {
            s.push_str(&format!("{d:>5} {:>13}\n", thousands(*c)));
        }
        let total: u64 = counts.iter().sum();
        s.push_str(&format!(
            "total {:>13}  (largest distance {})\n",
            thousands(total),
            counts.len().saturating_sub(1)
        ));
    }
    Ok(s)
}
