//! YAML and TOML describe the same data model: the same toolset written in
//! each (tests/formats/toolset.yaml and .toml) resolves to equal IR. The IR
//! serializes without its spans, so the JSON dumps compare what the
//! manifests mean, not where they say it.

use crate::ResolveOptions;
use std::path::PathBuf;

/// The resolved toolset of one manifest as pretty JSON, without the list of
/// files read (which names the manifest itself).
fn dump(file: &str) -> (String, Vec<PathBuf>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/formats")
        .join(file);
    let checked = crate::check(
        &[path],
        &ResolveOptions {
            name: Some("support".into()),
            ..Default::default()
        },
    );
    let problems: Vec<String> = checked
        .diagnostics
        .iter()
        .map(|d| crate::render_plain(&checked.sources, d))
        .collect();
    assert!(problems.is_empty(), "{file}:\n{}", problems.join("\n"));
    let mut json = serde_json::to_value(&checked.toolset).unwrap();
    json.as_object_mut().unwrap().remove("inputs");
    (
        serde_json::to_string_pretty(&json).unwrap(),
        checked.toolset.inputs,
    )
}

#[test]
fn yaml_and_toml_resolve_to_equal_ir() {
    let (yaml, yaml_inputs) = dump("toolset.yaml");
    let (toml, toml_inputs) = dump("toolset.toml");
    assert_eq!(yaml, toml);

    // Not two empty toolsets: everything the manifests define is there.
    let ir: serde_json::Value = serde_json::from_str(&yaml).unwrap();
    assert_eq!(ir["types"].as_object().unwrap().len(), 3);
    assert_eq!(ir["toolboxes"][0]["tools"].as_array().unwrap().len(), 2);
    let list = &ir["toolboxes"][0]["tools"][0];
    assert_eq!(list["policy"]["rate_limit"]["period_secs"], 60);
    assert_eq!(list["examples"][0]["arguments"]["limit"], 5);
    assert_eq!(ir["playbooks"][0]["plays"][0]["name"], "weekly_summary");
    // Two named manuals, and the inline one of `support-lite`.
    assert_eq!(ir["manuals"].as_array().unwrap().len(), 3);
    assert_eq!(ir["agents"].as_array().unwrap().len(), 2);

    // Both read the manual file, after their own manifest.
    let manual = |inputs: &[PathBuf]| inputs[1..].to_vec();
    assert_eq!(manual(&yaml_inputs), manual(&toml_inputs));
    assert!(yaml_inputs[1].ends_with("manuals/support.md"));
}

#[test]
fn key_order_inside_schemas_is_kept() {
    // Property order becomes field order in generated code, so the dumps are
    // compared as text: a reordered `properties` must not compare equal.
    let (yaml, _) = dump("toolset.yaml");
    let id = yaml.find("\"id\": {").unwrap();
    let subject = yaml.find("\"subject\": {").unwrap();
    let status = yaml.find("\"status\": {").unwrap();
    assert!(id < subject && subject < status);
}

#[test]
fn a_changed_value_makes_the_dumps_differ() {
    // The comparison can fail: the same TOML with one policy changed.
    let dir = tempfile::tempdir().unwrap();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/formats");
    let text = std::fs::read_to_string(src.join("toolset.toml")).unwrap();
    std::fs::write(
        dir.path().join("toolset.toml"),
        text.replace("\"30/min\"", "\"31/min\""),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("manuals")).unwrap();
    std::fs::copy(
        src.join("manuals/support.md"),
        dir.path().join("manuals/support.md"),
    )
    .unwrap();
    let changed = crate::check(
        &[dir.path().join("toolset.toml")],
        &ResolveOptions {
            name: Some("support".into()),
            ..Default::default()
        },
    );
    assert!(changed.diagnostics.is_empty());
    let mut json = serde_json::to_value(&changed.toolset).unwrap();
    json.as_object_mut().unwrap().remove("inputs");
    let (yaml, _) = dump("toolset.yaml");
    assert_ne!(serde_json::to_string_pretty(&json).unwrap(), yaml);
}

#[test]
fn the_examples_of_the_manifest_reference_are_clean() {
    let docs = include_str!("../../docs/manifest.md");
    let mut checked = 0;
    for (i, block) in docs.split("```").enumerate().filter(|(i, _)| i % 2 == 1) {
        let Some((lang, text)) = block.split_once('\n') else {
            continue;
        };
        // A block marked `yaml fragment` shows one key's forms side by side (not a manifest).
        if lang != "yaml" && lang != "toml" {
            continue;
        }
        let mut loaded = crate::manifest::Loaded::default();
        crate::manifest::load_str(
            &mut loaded,
            std::path::Path::new("manifests"),
            std::path::Path::new(&format!("manifests/example.{lang}")),
            text.to_string(),
        );
        let toolset = crate::model::resolve(&mut loaded, &ResolveOptions::default());
        let problems: Vec<String> = loaded
            .diagnostics
            .iter()
            .map(|d| crate::render_plain(&loaded.sources, d))
            .collect();
        assert!(problems.is_empty(), "block {i}:\n{}", problems.join("\n"));
        assert!(!toolset.toolboxes.is_empty(), "block {i} defines a toolbox");
        checked += 1;
    }
    assert_eq!(
        checked, 3,
        "docs/manifest.md has a YAML and a TOML example, and the delegate's"
    );
}
