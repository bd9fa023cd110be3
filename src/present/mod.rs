//! Presentation: the statistics the report states ([`stats`]), views of a table (filters,
//! groups, samples: [`view`]), rankings with tests against the best ([`compare`]), named
//! facts and answer templates ([`facts`]), figure specs ([`figure`]) computed from tables
//! ([`charts`]) and the figure types drawn with plotters ([`plot`]). Plotters types never
//! leave this folder.

pub mod charts;
pub mod compare;
pub mod facts;
pub mod figure;
pub mod outputs;
pub mod plot;
pub mod runtime;
pub mod view;
