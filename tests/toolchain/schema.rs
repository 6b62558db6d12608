//! `toolc schema`: the checked-in JSON Schema of the manifest format is
//! fresh, accepts every example and fixture manifest, and refuses the
//! structural errors of the bad-input corpus. That it lists the loader's keys
//! is tested in the library (`src/tests/schema_keys.rs`).

use super::{repo, text, toolc_in};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const CHECKED_IN: &str = "schemas/manifest.schema.json";

fn schema() -> Value {
    let text = std::fs::read_to_string(repo().join(CHECKED_IN)).expect("the schema is checked in");
    serde_json::from_str(&text).expect("the checked-in schema is JSON")
}

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&schema()).expect("the schema compiles")
}

/// A manifest file as JSON, or `None` when it does not parse.
fn as_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    match path.extension()?.to_str()? {
        "toml" => toml::from_str(&text).ok(),
        _ => serde_saphyr::from_str(&text).ok(),
    }
}

fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn the_checked_in_schema_is_what_toolc_schema_prints() {
    let out = toolc_in(repo(), &["schema"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let checked_in = std::fs::read_to_string(repo().join(CHECKED_IN)).unwrap();
    assert!(
        text(&out.stdout) == checked_in,
        "{CHECKED_IN} is stale: run `cargo run --bin toolc -- schema > {CHECKED_IN}`"
    );
}

#[test]
fn the_schema_is_valid_json_schema_2020_12() {
    let s = schema();
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    if let Err(e) = jsonschema::meta::validate(&s) {
        panic!("not a valid 2020-12 schema: {e}");
    }
}

fn manifests_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            manifests_under(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml" | "toml")
        ) && p.file_name().is_some_and(|n| n != "toolc.toml")
        {
            out.push(p);
        }
    }
}

#[test]
fn every_example_and_fixture_manifest_is_valid() {
    let v = validator();
    let mut files = Vec::new();
    for dir in [
        "manifests",
        "tests/fixtures",
        "tests/formats",
        "examples/demo/benches",
        "examples/demo/tests",
        "templates/init",
    ] {
        manifests_under(&repo().join(dir), &mut files);
    }
    assert!(files.len() >= 12, "{files:?}");
    for f in &files {
        let json = as_json(f).unwrap_or_else(|| panic!("{} does not parse", f.display()));
        let errs = errors(&v, &json);
        assert!(errs.is_empty(), "{}:\n{}", f.display(), errs.join("\n"));
    }
}

/// The example manifests name the schema in their first line, in the form
/// yaml-language-server (YAML) or taplo (TOML) reads, by a path that leads
/// to it.
#[test]
fn the_example_manifests_carry_the_schema_modeline() {
    let mut files = Vec::new();
    manifests_under(&repo().join("manifests"), &mut files);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let first = text.lines().next().unwrap_or_default();
        let target = match f.extension().and_then(|e| e.to_str()) {
            Some("toml") => first.strip_prefix("#:schema "),
            _ => first.strip_prefix("# yaml-language-server: $schema="),
        };
        let target = target.unwrap_or_else(|| panic!("{}: no modeline in {first:?}", f.display()));
        let resolved = f.parent().unwrap().join(target.trim());
        assert_eq!(
            std::fs::canonicalize(&resolved).ok(),
            std::fs::canonicalize(repo().join(CHECKED_IN)).ok(),
            "{}: {target} does not lead to {CHECKED_IN}",
            f.display()
        );
    }
}

/// The codes of problems the schema sees on its own: structure, closed
/// values, name patterns.
const STRUCTURAL: &[&str] = &[
    "unknown-key",
    "wrong-type",
    "missing-key",
    "unsupported-version",
    "tool-only-key",
    "play-missing-returns",
    "invalid-name",
    "invalid-type-name",
    "invalid-auth",
    "invalid-rate-limit",
    "invalid-timeout",
    "empty-description",
    "parameters-not-object",
];

#[test]
fn the_schema_refuses_the_structural_errors_of_the_corpus() {
    let v = validator();
    let mut checked = Vec::new();
    let mut unreadable = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for entry in entries {
        let mut files = Vec::new();
        if entry.is_dir() {
            manifests_under(&entry, &mut files);
        } else {
            files.push(entry.clone());
        }
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            let first =
                String::from_utf8_lossy(bytes.split(|&b| b == b'\n').next().unwrap_or_default())
                    .into_owned();
            let Some(code) = first
                .split("# expect:")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
            else {
                continue;
            };
            if !STRUCTURAL.contains(&code) {
                continue;
            }
            // A mapping key that is a list has no JSON form: no editor sees it.
            let Some(json) = as_json(&f) else {
                unreadable.push(f.display().to_string());
                continue;
            };
            assert!(
                !v.is_valid(&json),
                "{} ({code}) is accepted by the schema",
                f.display()
            );
            checked.push(code.to_string());
        }
    }
    assert!(unreadable.len() <= 1, "{unreadable:?}");
    // The corpus has cases of these kinds: the test really ran on them.
    for code in ["unknown-key", "wrong-type", "missing-key", "invalid-name"] {
        assert!(
            checked.iter().any(|c| c == code),
            "no corpus case for {code}: {checked:?}"
        );
    }
}

/// Embedded schemas are read in a closed vocabulary, `x-` extensions aside.
#[test]
fn embedded_schemas_use_the_closed_vocabulary() {
    let v = validator();
    let manifest = |schema: Value| {
        json!({
            "version": 1,
            "types": { "T": schema },
        })
    };
    for ok in [
        json!({ "type": "object", "properties": { "a": { "type": ["string", "null"], "format": "uuid" } }, "required": ["a"] }),
        json!({ "oneOf": [{ "$ref": "#/types/A" }, { "const": 1 }], "x-vendor-note": "kept" }),
        json!({ "type": "array", "items": true, "x-rust-type": "json" }),
        json!(true),
    ] {
        let errs = errors(&v, &manifest(ok.clone()));
        assert!(errs.is_empty(), "{ok}: {errs:?}");
    }
    for bad in [
        json!({ "type": "object", "if": { "type": "object" } }),
        json!({ "type": "integer", "minimun": 1 }),
        json!({ "type": "strnig" }),
        json!({ "type": "object", "properties": { "a": { "patternProperties": {} } } }),
        json!({ "$ref": "#/elsewhere/Local" }),
        json!({ "x-rust-type": "Uuid" }),
        // Known to JSON Schema, not to toolc: the compiler refuses it too.
        json!({ "type": "object", "patternProperties": { "^a": {} } }),
    ] {
        assert!(!v.is_valid(&manifest(bad.clone())), "{bad} is accepted");
    }
}
