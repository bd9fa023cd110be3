//! The runtime-distribution figure: the ECDF of hitting times ([`crate::present::anytime`])
//! of each group, one line per group.

use crate::present::anytime::{Hits, ecdf};
use crate::present::charts::label;
use crate::present::plot::{Band, LinePlot};

/// The ECDF figure: one line per group; `x_label` names the budget.
pub fn ecdf_plot(all: &[Hits], by: &[String], title: &str, x_label: &str) -> LinePlot {
    let series = all
        .iter()
        .map(|h| Band {
            name: by
                .iter()
                .zip(&h.group)
                .map(|(c, v)| format!("{c} = {}", label(v)))
                .collect::<Vec<_>>()
                .join(", "),
            points: ecdf(h).into_iter().map(|(x, y)| (x, y, y, y)).collect(),
        })
        .collect();
    LinePlot {
        title: title.to_string(),
        x_label: format!("{x_label} (log scale)"),
        y_label: "fraction of (run, target) pairs reached".into(),
        series,
        log_x: true,
        log_y: false,
    }
}
