//! toolc's integration tests, one binary (linking is the slow part on a small machine): each
//! module is one area, named after what it tests. They use the public API and the `toolc`
//! binary; the tests of the stages themselves are in the library (`src/tests/`).

mod support {
    pub mod manifest_gen;
    pub mod manifest_text;
    pub mod scratch_crate;
}

mod analysis;
mod builder;
mod check_build;
mod compile;
mod corpus;
mod diagnostics;
mod generated_toolsets;
mod import;
mod lint_cli;
mod lint_sarif;
mod lowering_options;
mod migrating;
mod realworld;
mod serve;
mod toolchain;
