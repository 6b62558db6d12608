//! Stage 4, emit: Rust code, provider tool lists and docs from the toolset IR.

pub mod dialect;
pub mod docs;
pub mod rust;
