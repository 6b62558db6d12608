//! `toolc lint --format sarif` output validates against the SARIF 2.1.0
//! JSON schema (vendored in tests/data, see its README).

use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

/// The `pattern` of the 2.1.0 schema that is not a valid regex for the
/// validator (a stray `]`; used by `run.language` and
/// `toolComponent.language`), and the pattern it means. Our logs set no
/// `language`, so the fix cannot change a verdict; it lets the schema compile.
const BAD_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
const MEANT_PATTERN: &str = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$";

fn sarif_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sarif-2.1.0-rtm.5.json"
    ))
    .unwrap();
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    let mut fixed = 0;
    for def in ["run", "toolComponent"] {
        let p = schema
            .pointer_mut(&format!("/definitions/{def}/properties/language/pattern"))
            .unwrap();
        assert_eq!(p, BAD_PATTERN, "the vendored schema changed");
        *p = json!(MEANT_PATTERN);
        fixed += 1;
    }
    assert_eq!(fixed, 2);
    assert!(!schema.to_string().contains(BAD_PATTERN));
    jsonschema::draft4::new(&schema).unwrap()
}

fn assert_valid(v: &jsonschema::Validator, log: &Value) {
    let errs: Vec<String> = v
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path().as_str()))
        .collect();
    assert!(errs.is_empty(), "invalid SARIF: {errs:#?}\n{log:#}");
}

fn lint_sarif(dir: &Path, extra: &[&str]) -> (Value, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
        .arg("lint")
        .arg(dir)
        .args(["--format", "sarif"])
        .args(extra)
        .output()
        .unwrap();
    let log: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (log, out.status.code().unwrap_or(-1))
}

const BAD: &str = r##"version: 1
types:
  Folder:
    type: object
    properties:
      name: { type: string }
      children: { type: array, items: { $ref: "#/types/Folder" } }
toolboxes:
  files:
    description: Files
    tools:
      mkdir:
        description: Make folders.
        parameters:
          type: object
          properties:
            tree: { $ref: "#/types/Folder" }
            when: { type: string, format: date }
          required: [tree]
        returns: { type: array, items: { type: string } }
capabilities:
  files:
    description: Files
    toolbox: files
    tolbox: files
"##;

#[test]
fn the_sarif_log_of_a_failing_lint_is_valid_and_locates_every_result() {
    let validator = sarif_validator();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tools.yaml"), BAD).unwrap();
    let (log, code) = lint_sarif(dir.path(), &["--dialect", "gemini,openai-strict,mcp"]);
    assert_eq!(code, 1);
    assert_valid(&validator, &log);
    assert_eq!(log["version"], json!("2.1.0"));
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], json!("toolc"));
    let results = run["results"].as_array().unwrap();
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    // The manifest error and the lint findings, each under its own id.
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"unknown-key"), "{ids:?}");
    assert!(ids.contains(&"recursive-lazy"), "{ids:?}");
    assert!(ids.contains(&"gemini-string-format"), "{ids:?}");
    for r in results {
        let i = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[i]["id"], r["ruleId"], "ruleIndex points at the rule");
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(
            loc["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .ends_with("tools.yaml")
        );
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
    }
    let rec = results
        .iter()
        .find(|r| r["ruleId"] == "recursive-lazy")
        .unwrap();
    assert_eq!(rec["level"], json!("error"));
    // The `$ref` inside Folder is on line 7.
    assert_eq!(
        rec["locations"][0]["physicalLocation"]["region"]["startLine"],
        json!(7)
    );
    assert_eq!(rec["properties"]["dialects"], json!(["gemini"]));
    assert_eq!(rec["properties"]["tool"], json!("mkdir"));
    let fmt = results
        .iter()
        .find(|r| r["ruleId"] == "gemini-string-format")
        .unwrap();
    assert_eq!(fmt["level"], json!("warning"));
    let rule = rules.iter().find(|r| r["id"] == "recursive-lazy").unwrap();
    assert!(
        rule["fullDescription"]["text"]
            .as_str()
            .unwrap()
            .contains("Source:")
    );
}

#[test]
fn the_sarif_log_of_the_example_manifests_is_valid() {
    let validator = sarif_validator();
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/manifests"));
    let (log, code) = lint_sarif(dir, &[]);
    assert_eq!(code, 0);
    assert_valid(&validator, &log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().all(|r| r["level"] != "error"));
}

#[test]
fn a_finding_about_two_tools_gives_the_second_as_a_related_location() {
    let validator = sarif_validator();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tools.yaml"),
        "version: 1\ntoolboxes:\n  t:\n    description: T\n    tools:\n      get_order: { description: Get an order. }\n      get_orders: { description: Get every order of a customer. }\ncapabilities:\n  t: { description: T, toolbox: t }\n",
    )
    .unwrap();
    let (log, code) = lint_sarif(dir.path(), &[]);
    assert_eq!(code, 0);
    assert_valid(&validator, &log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    let r = results
        .iter()
        .find(|r| r["ruleId"] == "indistinguishable-tools")
        .expect("reported");
    assert_eq!(r["level"], json!("warning"));
    assert_eq!(
        r["locations"][0]["physicalLocation"]["region"]["startLine"],
        json!(7)
    );
    let related = &r["relatedLocations"][0];
    assert_eq!(related["physicalLocation"]["region"]["startLine"], json!(6));
    assert_eq!(
        related["message"]["text"],
        json!("`get_order` is defined here")
    );
}

#[test]
fn the_validator_does_reject_a_broken_log() {
    // The vendored schema is strict enough to matter.
    let validator = sarif_validator();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tools.yaml"), BAD).unwrap();
    let (mut log, _) = lint_sarif(dir.path(), &["--dialect", "gemini"]);
    assert_valid(&validator, &log);
    log["runs"][0]["results"][0]["level"] = json!("fatal");
    assert!(!validator.is_valid(&log));
    let mut log2 = log.clone();
    log2["runs"][0]["results"][0]["level"] = json!("error");
    log2["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!validator.is_valid(&log2));
}
