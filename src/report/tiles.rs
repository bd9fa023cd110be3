//! The tiles studies of the report: one analysis per question.

use super::Analysis;

pub const ANALYSES: &[(&str, Analysis)] = &[];
