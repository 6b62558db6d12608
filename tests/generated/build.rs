//! Generates the fixtures' Rust into OUT_DIR, and a toolset of drawn schemas
//! (`draw/schemas.rs`) for the one-validator test.

#[path = "draw/schemas.rs"]
#[allow(dead_code)]
mod schemas;

use std::path::{Path, PathBuf};

/// How many drawn schemas the toolset holds.
const DRAWN: usize = 48;

fn main() -> Result<(), toolc::Error> {
    toolc::configure()
        .manifest("../fixtures/codegen/defaults.yaml")
        .file_name("defaults.rs")
        .toolset_name("defaults")
        // The test's handler answers its parameters as it got them.
        .serde_both_ways(true)
        .compile()?;
    // The same toolset twice: formats read into their own types, and as strings.
    toolc::configure()
        .manifest("../fixtures/codegen/formats.yaml")
        .file_name("typed_formats.rs")
        .toolset_name("formats")
        .typed_formats(true)
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/formats.yaml")
        .file_name("string_formats.rs")
        .toolset_name("formats")
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/coverage.yaml")
        .file_name("coverage.rs")
        .toolset_name("coverage")
        // The test's handler answers its parameters as it got them.
        .serde_both_ways(true)
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/imported.yaml")
        .file_name("imported.rs")
        .toolset_name("imported")
        // The test writes parameters back to compare them with what was read.
        .serde_both_ways(true)
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/vouched.yaml")
        .file_name("vouched.rs")
        .toolset_name("vouched")
        // The test reads results from generated instances.
        .serde_both_ways(true)
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/secrets.yaml")
        .file_name("secrets.rs")
        .toolset_name("secrets")
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/search.yaml")
        .file_name("search.rs")
        .toolset_name("search")
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/delegation.yaml")
        .file_name("delegation.rs")
        .toolset_name("delegation")
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/many.yaml")
        .file_name("many.rs")
        .toolset_name("many")
        .compile()?;
    let drawn = draw();
    toolc::configure()
        .manifest(&drawn)
        .file_name("drawn.rs")
        .toolset_name("drawn")
        .dialects(["mcp"])
        .compile()?;
    Ok(())
}

/// Draws schemas (seeded by `TOOLC_DRAW_SEED`, 1 by default) until `DRAWN` of them resolve
/// without an error, and writes their toolset to `OUT_DIR/drawn.yaml`.
fn draw() -> PathBuf {
    println!("cargo:rerun-if-env-changed=TOOLC_DRAW_SEED");
    println!("cargo:rerun-if-changed=draw/schemas.rs");
    let seed = std::env::var("TOOLC_DRAW_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut d = schemas::Draw::new(seed);
    let mut tools = Vec::new();
    while tools.len() < DRAWN {
        let name = format!("s{}", tools.len());
        let parameters = schemas::parameters(&schemas::schema(&mut d, 0));
        let one = [(name.clone(), parameters.clone(), Vec::new())];
        let text = schemas::manifest(&one).to_string();
        let checked = toolc::check_text(
            Path::new("."),
            Path::new("drawn.yaml"),
            text,
            &toolc::ResolveOptions::default(),
        );
        if !checked.diagnostics.has_errors() {
            tools.push((name, parameters, Vec::new()));
        }
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("drawn.yaml");
    let text = serde_json::to_string_pretty(&schemas::manifest(&tools)).expect("JSON");
    std::fs::write(&out, text).expect("drawn.yaml written");
    out
}
