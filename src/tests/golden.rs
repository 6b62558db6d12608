//! Golden tests of the generated Rust: the example manifests and fixtures
//! that exercise every supported schema construct. Bless changes with
//! `INSTA_UPDATE=always cargo test -p toolc --lib tests::golden::` (or `cargo insta review`).
//! The golden of the example manifests is the checked-in
//! `generated/rust/toolset.rs` itself, which `toolc build` writes.

use crate::ResolveOptions;
use crate::pipeline::{ConfigSource, analyze};
use std::path::PathBuf;

/// The Rust `toolc build` writes for `path`, its `toolc.toml` (if any) applied.
fn generate(path: &str, options: &crate::emit::rust::RustOptions) -> String {
    let analyzed = analyze(
        &[PathBuf::from(path)],
        &ResolveOptions::default(),
        &ConfigSource::Discover,
        &Default::default(),
    );
    let errors: Vec<String> = analyzed
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| crate::render_plain(&analyzed.sources, d))
        .collect();
    assert!(errors.is_empty(), "{path}: {errors:#?}");
    match crate::emit::rust::generate(&analyzed.toolset, &analyzed.lowered, options) {
        Ok(code) => code,
        Err(diags) => panic!(
            "{path}: {:#?}",
            diags
                .iter()
                .map(|d| crate::render_plain(&analyzed.sources, d))
                .collect::<Vec<_>>()
        ),
    }
}

#[test]
fn every_construct() {
    insta::assert_snapshot!(
        "constructs",
        generate(
            "tests/fixtures/codegen/constructs.yaml",
            &Default::default()
        )
    );
}

/// What importers bring in verbatim: structs read by position for open tuples and tuples
/// whose last items may be missing, a Rust enum tagged by OpenAPI's `discriminator`,
/// `dependentRequired` in the validation tables, `nullable` in the MCP texts, and `pub type`
/// aliases for nested maps too complex to write out.
#[test]
fn imported_constructs() {
    insta::assert_snapshot!(
        "imported",
        generate("tests/fixtures/codegen/imported.yaml", &Default::default())
    );
}

/// Delegates: the `delegates` module (types, the `<Agent>Delegates` trait, its toolbox) and
/// the wiring of agents whose delegates reach other agents and capabilities.
#[test]
fn delegation() {
    insta::assert_snapshot!(
        "delegation",
        generate(
            "tests/fixtures/codegen/delegation.yaml",
            &Default::default()
        )
    );
}

/// Refinement methods, and the hand-written `Debug` of every kind of item that holds a
/// sensitive value.
#[test]
fn refinements_and_sensitive_values() {
    insta::assert_snapshot!(
        "secrets",
        generate("tests/fixtures/codegen/secrets.yaml", &Default::default())
    );
}

#[test]
fn hostile_descriptions() {
    let code = generate("tests/fixtures/codegen/hostile.yaml", &Default::default());
    // The text survives only as documentation and string literals: no
    // direction control is left raw, and every fence is inert.
    for c in ['\u{202E}', '\u{2066}', '\u{2069}', '\r'] {
        assert!(!code.contains(c), "raw {c:?} in output");
    }
    for line in code.lines().filter(|l| l.trim_start().starts_with("///")) {
        let text = line.trim_start().trim_start_matches("///").trim();
        if text.starts_with("```") || text.starts_with("~~~") {
            assert!(
                text == "```" || text == "~~~" || text.ends_with("text"),
                "fence that rustdoc would compile: {line}"
            );
        }
    }
    insta::assert_snapshot!("hostile", code);
}

#[test]
fn output_is_byte_identical_across_runs() {
    for path in ["manifests", "tests/fixtures/codegen/constructs.yaml"] {
        let a = generate(path, &Default::default());
        let b = generate(path, &Default::default());
        assert_eq!(a, b, "{path}");
    }
}

/// The golden of the example manifests: `generated/rust/toolset.rs`, as
/// `toolc build` writes it.
#[test]
fn checked_in_output_is_fresh() {
    let generated = std::fs::read_to_string("generated/rust/toolset.rs")
        .expect("generated/rust/toolset.rs exists: run `toolc build`");
    assert!(
        generated == generate("manifests", &Default::default()),
        "generated/ is stale: run `cargo run --bin toolc -- build`"
    );
}

#[test]
fn docs_reference() {
    let checked = analyze(
        &[PathBuf::from("manifests")],
        &ResolveOptions::default(),
        &ConfigSource::Discover,
        &Default::default(),
    );
    let docs = crate::emit::docs::reference(&checked.toolset).expect("renders");
    // Every tool and play of the toolset is documented; toolc.toml's policy applied.
    assert!(docs.contains("Policies: needs a person's approval."));
    for t in checked.toolset.toolboxes.iter().flat_map(|t| &t.tools) {
        assert!(docs.contains(&format!("### `{}`", t.name)), "{}", t.name);
    }
    assert!(docs.contains("| `limit` | integer, 1 to 100, default `20` | no |"));
    insta::assert_snapshot!("docs_reference", docs);
}
