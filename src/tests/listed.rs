//! What importers bring in verbatim is listed to MCP as written: each tool of
//! `tests/fixtures/codegen/imported.yaml` (open and closed `prefixItems`, `dependentRequired`,
//! OpenAPI's `discriminator` and `nullable`, nested open maps, local `$defs`) has the MCP input
//! and output schemas its manifest writes, compared as JSON with the manifest read by the YAML
//! library alone, as tests/realworld.rs compares a server's list with what toolc lists. The
//! other providers' forms of the same constructs are in `dialect_transforms.rs`.

use crate::{Dialect, ResolveOptions};
use serde_json::Value;
use std::path::PathBuf;

const FIXTURE: &str = "tests/fixtures/codegen/imported.yaml";

/// The fixture's tools as written: name → the tool's mapping.
fn written() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(super::repo().join(FIXTURE)).expect("the fixture");
    let doc: Value = serde_saphyr::from_str(&text).expect("the fixture is YAML");
    doc["toolboxes"]["imported"]["tools"]
        .as_object()
        .expect("the fixture's tools")
        .clone()
}

#[test]
fn every_schema_importers_bring_in_is_listed_to_mcp_as_written() {
    let written = written();
    let analysis = crate::analyze(&[PathBuf::from(FIXTURE)], &ResolveOptions::default());
    assert!(!analysis.has_errors(), "{FIXTURE} does not check");
    let tools = analysis.tools();
    assert_eq!(tools.len(), written.len());
    for tool in tools {
        let entry = tool.form(Dialect::Mcp).entry;
        let source = &written[tool.name()];
        assert_eq!(
            entry["inputSchema"],
            source["parameters"],
            "{}: the input schema",
            tool.name()
        );
        match source.get("returns") {
            Some(returns) => assert_eq!(
                &entry["outputSchema"],
                returns,
                "{}: the output schema",
                tool.name()
            ),
            None => assert!(entry.get("outputSchema").is_none(), "{}", tool.name()),
        }
    }
}
