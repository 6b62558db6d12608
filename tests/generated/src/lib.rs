//! Toolsets generated from the codegen fixtures, for tests of how generated
//! code behaves.

/// `tests/fixtures/codegen/defaults.yaml`: a default of every kind.
pub mod defaults {
    toolc_runtime::include_toolset!("defaults");
}

/// `tests/fixtures/codegen/formats.yaml` with typed formats: `uuid::Uuid`,
/// chrono's `DateTime<FixedOffset>` and `NaiveDate`, `Email`, `Uri`.
pub mod typed_formats {
    toolc_runtime::include_toolset!("typed_formats");
}

/// The same toolset without typed formats: every format a `String`.
pub mod string_formats {
    toolc_runtime::include_toolset!("string_formats");
}

/// `tests/fixtures/codegen/imported.yaml`: what importers bring in (open tuples,
/// `dependentRequired`, OpenAPI's `discriminator` and `nullable`, nested maps), types readable
/// and writable both ways.
pub mod imported {
    toolc_runtime::include_toolset!("imported");
}

/// `tests/fixtures/codegen/coverage.yaml`: the wider JSON Schema vocabulary.
pub mod coverage {
    toolc_runtime::include_toolset!("coverage");
}

/// `tests/fixtures/codegen/vouched.yaml`: results the checks compiled per type vouch for,
/// their types readable too.
pub mod vouched {
    toolc_runtime::include_toolset!("vouched");
}

/// `tests/fixtures/codegen/secrets.yaml`: refinements and sensitive values.
pub mod secrets {
    toolc_runtime::include_toolset!("secrets");
}

/// `tests/fixtures/codegen/search.yaml`: agents with their search indexes.
pub mod search {
    toolc_runtime::include_toolset!("search");
}

/// `tests/fixtures/codegen/delegation.yaml`: agents and a capability exposed as one tool of
/// another agent.
pub mod delegation {
    toolc_runtime::include_toolset!("delegation");
}

/// `tests/fixtures/codegen/many.yaml`: more operations in a toolbox and a playbook than a
/// dispatcher's `bind` holds in one function.
pub mod many {
    toolc_runtime::include_toolset!("many");
}

/// Schemas drawn at random by build.rs (`draw/schemas.rs`): the dispatcher the one-validator
/// test holds `toolc check` to.
pub mod drawn {
    toolc_runtime::include_toolset!("drawn");
}
