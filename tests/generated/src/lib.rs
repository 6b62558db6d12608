//! Toolsets generated from the codegen fixtures, for tests of how generated
//! code behaves.

/// `tests/fixtures/codegen/defaults.yaml`: a default of every kind.
pub mod defaults {
    toolc_runtime::include_toolset!("defaults");
}

/// `tests/fixtures/codegen/coverage.yaml`: the wider JSON Schema vocabulary.
pub mod coverage {
    toolc_runtime::include_toolset!("coverage");
}
