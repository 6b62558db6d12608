//! Stage 5, emit: Rust code, provider tool lists and docs from the toolset IR
//! and its lowered forms. Emission cannot fail on user input: everything that
//! could go wrong was reported by resolve, lower or lint.

pub mod docs;
#[cfg(feature = "cli")]
pub mod lists;
pub mod rust;
