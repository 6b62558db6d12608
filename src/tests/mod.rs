//! The library's tests of its stages, one module per area (one unit-test binary). What can be
//! tested from the outside, through the public API or the `toolc` binary, is in tests/.

mod config_doc;
mod diagnostics;
mod dialect_examples;
mod dialect_transforms;
mod diff;
mod formats;
mod golden;
mod import;
mod lint_config;
mod lint_rules;
mod lint_similar;
mod listed;
mod lowering;
#[path = "../../tests/support/manifest_text.rs"]
mod manifest_text;
mod mutations;
mod one_validator;
mod sarif;
mod schema_keys;

use std::path::Path;

/// The repository's root, where the fixtures are.
fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
