//! Presentation, knowing no domain: views of a table (filters, groups, samples, tables
//! read together: [`view`]), rankings with tests against the best ([`compare`]), columns derived by SQL
//! expressions ([`mod@derive`]), anytime
//! views (runtime distributions, fixed budgets: [`anytime`]), named facts and answer
//! templates ([`facts`]), numbers and tables formatted the report's one way ([`mod@format`]),
//! an experiment's own summaries and plots ([`outputs`]), figure
//! specs ([`figure`]), small multiples of them ([`facets`]), computed from tables ([`charts`], [`runtime`]) and the figure types
//! drawn with plotters ([`plot`]), titled in the declarations' words ([`words`]). Plotters types never leave this folder.

pub mod anytime;
pub mod charts;
pub mod compare;
pub mod derive;
pub mod facets;
pub mod facts;
pub mod figure;
pub mod format;
pub mod outputs;
pub mod plot;
pub mod runtime;
pub mod view;
pub mod words;
