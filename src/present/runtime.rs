//! The runtime-distribution figure: the ECDF of hitting times ([`crate::present::anytime`])
//! of each group, one line per group named by its values (the legend's heading names
//! the grouping), on a y axis from 0 to 1, from a decade before the first hit; the x
//! label names the targets.

use crate::present::anytime::{Hits, ecdf};
use crate::present::plot::{Band, LinePlot};
use crate::present::words::entries;

/// The ECDF figure: one line per group; `x_label` names the budget.
pub fn ecdf_plot(all: &[Hits], by: &[String], title: &str, x_label: &str) -> LinePlot {
    let curves: Vec<Vec<(f64, f64)>> = all.iter().map(ecdf).collect();
    let from = first_hit(&curves) / 10.0;
    let series = all
        .iter()
        .zip(curves)
        .map(|(h, curve)| Band {
            name: entries(by, &h.group),
            points: from_budget(&curve, from)
                .into_iter()
                .map(|(x, y)| (x, y, y, y))
                .collect(),
        })
        .collect();
    LinePlot {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: "fraction of (run, target) pairs reached".into(),
        series,
        log_x: true,
        log_y: false,
        categories: None,
        y_range: Some((0.0, 1.0)),
        legend_title: Some(by.join(", ")),
        ..LinePlot::default()
    }
}

/// The smallest budget at which any curve has reached a pair (infinity if none has).
fn first_hit(curves: &[Vec<(f64, f64)>]) -> f64 {
    curves
        .iter()
        .flat_map(|c| c.iter().find(|p| p.1 > 0.0).map(|p| p.0))
        .fold(f64::INFINITY, f64::min)
}

/// The curve from budget `from` on: earlier points dropped, the fraction reached at
/// `from` put first. The axis begins a decade before the first hit, not at the first
/// checkpoint, which can lie several empty decades earlier.
fn from_budget(curve: &[(f64, f64)], from: f64) -> Vec<(f64, f64)> {
    if !from.is_finite() || curve.first().is_none_or(|p| p.0 >= from) {
        return curve.to_vec();
    }
    let before = curve
        .iter()
        .take_while(|p| p.0 <= from)
        .last()
        .map_or(0.0, |p| p.1);
    let mut out = vec![(from, before)];
    out.extend(curve.iter().copied().filter(|p| p.0 > from));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_axis_starts_a_decade_before_the_first_hit() {
        let a = vec![(0.01, 0.0), (40.0, 0.0), (40.0, 0.5), (900.0, 0.5)];
        let b = vec![(0.01, 0.0), (300.0, 0.0), (300.0, 0.2), (900.0, 0.2)];
        let curves = vec![a.clone(), b];
        assert_eq!(first_hit(&curves), 40.0);
        let cut = from_budget(&a, 4.0);
        assert_eq!(
            cut,
            vec![(4.0, 0.0), (40.0, 0.0), (40.0, 0.5), (900.0, 0.5)]
        );
        assert_eq!(from_budget(&a, f64::INFINITY), a);
    }
}
