//! The checked-in JSON Schema of the manifest format (`toolc schema`) agrees with the loader's
//! keys. The rest of what is tested of it is in tests/toolchain/schema.rs.

use crate::manifest::decode;
use serde_json::{Value, json};

fn schema() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/schemas/manifest.schema.json");
    let text = std::fs::read_to_string(path).expect("the schema is checked in");
    serde_json::from_str(&text).expect("the checked-in schema is JSON")
}

/// Every key the schema describes has a description, and every definition
/// with a closed set of keys lists exactly the loader's keys.
#[test]
fn the_schema_lists_the_loaders_keys_with_descriptions() {
    let s = schema();
    let defs = &s["$defs"];
    let tables: &[(&Value, &[&str])] = &[
        (&s, decode::TOP_KEYS),
        (&defs["Toolbox"], decode::TOOLBOX_KEYS),
        (&defs["Tool"], decode::TOOL_KEYS),
        (&defs["Playbook"], decode::PLAYBOOK_KEYS),
        (&defs["Play"], decode::PLAY_KEYS),
        (&defs["Example"], decode::EXAMPLE_KEYS),
        (&defs["Manual"], decode::MANUAL_KEYS),
        (&defs["Capability"], decode::CAPABILITY_KEYS),
        (&defs["Agent"], decode::AGENT_KEYS),
        (&defs["Delegate"], decode::DELEGATE_KEYS),
        (&defs["HttpBackend"], decode::backend::HTTP_KEYS),
    ];
    for (def, keys) in tables {
        let props = def["properties"].as_object().expect("properties");
        let mut listed: Vec<&str> = props.keys().map(String::as_str).collect();
        let mut expected = keys.to_vec();
        listed.sort_unstable();
        expected.sort_unstable();
        assert_eq!(listed, expected, "{}", def["description"]);
        assert_eq!(def["additionalProperties"], json!(false));
        for (k, v) in props {
            assert!(
                v["description"].as_str().is_some_and(|d| !d.is_empty()),
                "`{k}` has no description"
            );
        }
    }
    for (k, v) in defs["Schema"]["properties"].as_object().unwrap() {
        assert!(
            v["description"].is_string(),
            "schema keyword `{k}` has no description"
        );
    }
    // Closed sets are enums, so editors offer them.
    assert_eq!(
        defs["Tool"]["properties"]["auth"]["enum"],
        json!(["none", "user", "admin"])
    );
}
