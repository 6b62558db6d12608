//! One validator: the values `toolc check` judges (examples, defaults) are judged by
//! toolc-schema against the schema the generated dispatcher holds. Every schema the repository's
//! manifests resolve to builds in it, so no value goes unjudged because its schema could not be
//! built; and the schema built for a value is the dispatcher's, Rust integer bounds included.

use super::repo;
use crate::ResolveOptions;
use serde_json::json;
use std::path::PathBuf;

/// Every manifest root of the repository: the examples, the fixtures, the real-world corpus.
fn roots() -> Vec<PathBuf> {
    let mut roots = vec![
        repo().join("manifests"),
        repo().join("tests/formats/toolset.yaml"),
    ];
    for dir in ["tests/fixtures/codegen", "tests/realworld"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(repo().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                // A real-world folder holds its manifest as `<folder>.yaml`.
                let holds_yaml = |dir: &std::path::Path| {
                    std::fs::read_dir(dir).is_ok_and(|mut entries| {
                        entries.any(|e| {
                            e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "yaml"))
                        })
                    })
                };
                p.is_dir() && holds_yaml(p) || p.extension().is_some_and(|e| e == "yaml")
            })
            .collect();
        found.sort();
        roots.extend(found);
    }
    roots
}

#[test]
fn every_resolved_schema_builds() {
    let mut schemas_built = 0;
    for root in roots() {
        let checked = crate::check(std::slice::from_ref(&root), &ResolveOptions::default());
        let set = &checked.toolset;
        let ids = set
            .operations()
            .flat_map(|op| std::iter::once(op.parameters).chain(op.returns))
            .chain(set.schemas.named_types().map(|(_, id)| id));
        for id in ids {
            assert!(
                set.schemas.validator(id).is_some(),
                "{}: a schema resolved without an error does not build: {}",
                root.display(),
                set.schemas.bundle(id)
            );
            schemas_built += 1;
        }
    }
    // Not a vacuous pass: the corpus alone has hundreds of tools.
    assert!(schemas_built > 500, "only {schemas_built} schemas");
}

#[test]
fn a_value_is_judged_against_the_dispatchers_schema() {
    let checked = crate::check_text(
        std::path::Path::new("."),
        std::path::Path::new("tools.yaml"),
        r##"
version: 1
types:
  Node:
    type: object
    properties:
      label: { type: string, maxLength: 3 }
      children: { type: array, items: { $ref: "#/types/Node" } }
    required: [label]
toolboxes:
  t:
    description: Tools.
    tools:
      a:
        description: A tool.
        parameters:
          type: object
          properties:
            small: { type: integer, format: int32 }
            any: { type: integer }
            tuple: { type: array, items: [{ type: string }], additionalItems: false, minItems: 1 }
            tree: { $ref: "#/types/Node" }
"##
        .to_string(),
        &ResolveOptions::default(),
    );
    // A note says the draft-07 tuple is read as 2020-12's; nothing is refused.
    assert!(
        checked
            .diagnostics
            .iter()
            .all(|d| d.severity != crate::Severity::Error),
        "{:?}",
        checked.diagnostics
    );
    let set = &checked.toolset;
    let op = set.operations().next().unwrap();
    let v = set.schemas.validator(op.parameters).unwrap();
    // The Rust types' ranges: `format: int32` holds i32, an integer without bounds i64.
    assert!(v.accepts(&json!({"small": 2_147_483_647, "any": i64::MAX})));
    let refused = v.violations(&json!({"small": 2_147_483_648_i64, "any": u64::MAX}));
    let pointers: Vec<&str> = refused.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/small", "/any"], "{refused:?}");
    // A draft-07 tuple, read as the 2020-12 one it is.
    assert!(v.accepts(&json!({"tuple": ["a"]})));
    assert!(!v.accepts(&json!({"tuple": ["a", "b"]})));
    // A recursive named type, at every depth.
    assert!(v.accepts(&json!({"tree": {"label": "a", "children": [{"label": "b"}]}})));
    let deep = v.violations(&json!({"tree": {"label": "a", "children": [{"label": "long"}]}}));
    assert_eq!(deep.len(), 1, "{deep:?}");
    assert_eq!(deep[0].pointer, "/tree/children/0/label");
    // Arguments are read as the dispatcher reads them before they are judged.
    assert!(!v.accepts(&json!({"small": null})));
    assert!(v.argument_violations(&json!({"small": null})).is_empty());
}

#[test]
fn a_draft07_tuples_items_are_walked() {
    // Found by the drawn-schema test: the item schemas of `items: [...]` were not children of
    // their node, so a named type reached only through them was missing from the bundle (and
    // from the MCP list), and the dispatcher's schema could not be built to judge a value.
    let text = r##"{"version": 1,
      "types": {"Point": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}},
      "toolboxes": {"t": {"description": "T", "tools": {"a": {"description": "A", "parameters": {
        "type": "object",
        "properties": {"pair": {"type": "array", "items": [{"$ref": "#/types/Point"}, {"type": "string", "default": 3}],
                                "additionalItems": {"type": "boolean", "default": "no"}, "minItems": 2, "x-rust-type": "json"}},
        "required": ["pair"]}}}}}}"##;
    let checked = crate::check_text(
        std::path::Path::new("."),
        std::path::Path::new("tools.yaml"),
        text.to_string(),
        &ResolveOptions::default(),
    );
    // The defaults inside the tuple are checked.
    let refused: Vec<&str> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(
        refused,
        ["invalid-default", "invalid-default"],
        "{:?}",
        checked.diagnostics
    );
    let set = &checked.toolset;
    let op = set.operations().next().unwrap();
    let bundle = set.schemas.bundle(op.parameters);
    assert!(bundle["$defs"]["Point"].is_object(), "{bundle}");
    let v = set.schemas.validator(op.parameters).expect("it builds");
    assert!(v.accepts(&json!({"pair": [{"x": 1}, "a", true]})));
    assert!(!v.accepts(&json!({"pair": [{"x": "1"}, "a"]})));
}
