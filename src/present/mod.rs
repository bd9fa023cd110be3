//! Presentation: the statistics the report states ([`stats`]), figures computed from
//! tables ([`charts`]) and the figure types drawn with plotters ([`plot`]). Plotters
//! types never leave this folder.

pub mod charts;
pub mod plot;
pub mod stats;
