//! The runtime-distribution figure: the ECDF of hitting times ([`crate::present::anytime`])
//! of each group, one line per group named by its values (the legend's heading names
//! the grouping), on a y axis from 0 to 1; the x label names the targets.

use crate::present::anytime::{Hits, ecdf};
use crate::present::charts::label;
use crate::present::plot::{Band, LinePlot};

/// The ECDF figure: one line per group; `x_label` names the budget.
pub fn ecdf_plot(all: &[Hits], by: &[String], title: &str, x_label: &str) -> LinePlot {
    let series = all
        .iter()
        .map(|h| Band {
            name: h
                .group
                .iter()
                .map(|v| label(v))
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
        categories: None,
        y_range: Some((0.0, 1.0)),
        legend_title: Some(by.join(", ")),
        styles: Vec::new(),
    }
}
