//! `toolc lint` and `toolc dump` from the outside: exit codes, output and
//! hints.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn toolc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn manifests() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/manifests").to_string()
}

const RECURSIVE: &str = r##"version: 1
types:
  Node:
    type: object
    properties:
      next: { $ref: "#/types/Node" }
toolboxes:
  t:
    description: T
    tools:
      walk:
        description: Walk.
        parameters:
          type: object
          properties:
            start: { $ref: "#/types/Node" }
capabilities:
  t:
    description: T
    toolbox: t
"##;

fn fixture(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        std::fs::write(dir.path().join(name), body).unwrap();
    }
    dir
}

fn p(d: &Path) -> &str {
    d.to_str().unwrap()
}

#[test]
fn the_example_manifests_lint_clean_of_errors() {
    let out = toolc(&["lint", &manifests(), "--format", "plain"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains(": 0 errors"), "{stdout}");
    // The repository config's dialects are the ones linted.
    assert!(
        stdout.contains("openai-strict")
            && stdout.contains("gemini-vertex")
            && stdout.contains("mcp"),
        "{stdout}"
    );
}

#[test]
fn lint_errors_exit_1_with_the_rule_id_and_place() {
    let dir = fixture(&[("tools.yaml", RECURSIVE)]);
    let out = toolc(&[
        "lint",
        p(dir.path()),
        "--dialect",
        "gemini",
        "--format",
        "plain",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("tools.yaml:6:21: error[recursive-lazy]: gemini: "),
        "{err}"
    );
    let out = toolc(&["lint", p(dir.path()), "--dialect", "openai-strict,mcp"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The seed's dialect name works on the command line too.
    let out = toolc(&[
        "lint",
        p(dir.path()),
        "--dialect",
        "gemini-bifrost",
        "--format",
        "plain",
    ]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn allow_on_the_command_line_silences_and_deny_raises() {
    let yaml = RECURSIVE.replace(
        "start: { $ref: \"#/types/Node\" }",
        "start: { type: string, format: date }",
    );
    let dir = fixture(&[("tools.yaml", &yaml)]);
    let base = toolc(&[
        "lint",
        p(dir.path()),
        "--dialect",
        "gemini",
        "--format",
        "plain",
    ]);
    assert_eq!(base.status.code(), Some(0));
    assert!(text(&base.stderr).contains("warning[gemini-string-format]"));
    let allowed = toolc(&[
        "lint",
        p(dir.path()),
        "--dialect",
        "gemini",
        "--allow",
        "gemini-string-format",
        "--format",
        "plain",
    ]);
    assert!(!text(&allowed.stderr).contains("gemini-string-format"));
    let denied = toolc(&[
        "lint",
        p(dir.path()),
        "--dialect",
        "gemini",
        "--deny",
        "gemini-string-format",
        "--format",
        "plain",
    ]);
    assert_eq!(denied.status.code(), Some(1));
    assert!(text(&denied.stderr).contains("error[gemini-string-format]"));
}

#[test]
fn unknown_dialects_and_rules_are_usage_errors_with_hints() {
    let out = toolc(&["lint", &manifests(), "--dialect", "gemnii"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `gemini`?"),
        "{}",
        text(&out.stderr)
    );
    let out = toolc(&["lint", &manifests(), "--deny", "tupel", "--format", "plain"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("error[unknown-rule]") && err.contains("did you mean `tuple`?"),
        "{err}"
    );
}

#[test]
fn a_bad_config_is_reported_at_its_line() {
    let dir = fixture(&[
        ("tools.yaml", RECURSIVE),
        (
            "toolc.toml",
            "[lint]\ndialects = [\"gemini\"]\ndeny = [\"tuple\"]\nallwo = []\n",
        ),
    ]);
    let out = toolc(&["lint", p(dir.path()), "--format", "plain"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("toolc.toml:4:1: error[unknown-key]"), "{err}");
    assert!(err.contains("did you mean `allow`?"), "{err}");
    // Fixed, the config's dialects apply.
    std::fs::write(
        dir.path().join("toolc.toml"),
        "[lint]\ndialects = [\"gemini\"]\n",
    )
    .unwrap();
    let out = toolc(&["lint", p(dir.path()), "--format", "plain"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("for gemini:"));
    // The command line wins over the file.
    let out = toolc(&[
        "lint",
        p(dir.path()),
        "--dialect",
        "mcp",
        "--format",
        "plain",
    ]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn json_output_carries_dialects_pointers_and_tools() {
    let dir = fixture(&[("tools.yaml", RECURSIVE)]);
    let out = toolc(&[
        "lint",
        p(dir.path()),
        "--dialect",
        "gemini,gemini-vertex",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "recursive-lazy")
        .unwrap();
    assert_eq!(
        d["dialects"],
        serde_json::json!(["gemini", "gemini-vertex"])
    );
    assert_eq!(d["tool"], "walk");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["location"]["line"], 6);
    assert_eq!(v["summary"]["errors"], 1);
}

#[test]
fn dump_prints_one_tool_list() {
    let out = toolc(&[
        "dump",
        &manifests(),
        "--agent",
        "assistant",
        "--dialect",
        "gemini",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["list_meetings", "whoami", "slug_and_span"]);
    let out = toolc(&[
        "dump",
        &manifests(),
        "--agent",
        "support-desk",
        "--dialect",
        "mcp",
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tools"].as_array().unwrap().len(), 4);
    let out = toolc(&["dump", &manifests(), "--list-agents"]);
    assert_eq!(text(&out.stdout), "assistant\nsupport-desk\n");
}

#[test]
fn dump_refuses_a_list_the_provider_would_reject() {
    let dir = fixture(&[("tools.yaml", RECURSIVE)]);
    let out = toolc(&[
        "dump",
        p(dir.path()),
        "--dialect",
        "gemini",
        "--format",
        "plain",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("error[recursive-lazy]"));
    // One agent: --agent may be left out.
    let out = toolc(&["dump", p(dir.path()), "--dialect", "openai-strict"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["function"]["strict"], true);
}

#[test]
fn dump_names_a_missing_agent_with_a_hint() {
    let out = toolc(&[
        "dump",
        &manifests(),
        "--agent",
        "asistant",
        "--dialect",
        "mcp",
        "--format",
        "plain",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `assistant`?"),
        "{}",
        text(&out.stderr)
    );
    let out = toolc(&[
        "dump",
        &manifests(),
        "--dialect",
        "mcp",
        "--format",
        "plain",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--agent"));
}
