//! toolc's integration tests, one binary (linking is the slow part on a small machine): each
//! module is one area, named after what it tests.

mod support {
    pub mod scratch_crate;
}

mod builder;
mod check_build;
mod compile;
mod corpus;
mod diagnostics;
mod dialect_examples;
mod dialect_transforms;
mod formats;
mod golden;
mod lint_cli;
mod lint_config;
mod lint_rules;
mod lint_sarif;
mod lint_similar;
mod lowering;
mod mutations;
mod realworld;
mod toolchain;
