//! `--format` and `--color` mean the same on every command, before or after
//! the command's name.

use super::{text, toolc_in};
use serde_json::Value;

/// A toolset with one unknown key (line 7) and one agent.
const BROKEN: &str = "version: 1
toolboxes:
  desk:
    description: The desk.
    tools:
      ping:
        descripton: Ping.
capabilities:
  desk:
    description: The desk.
    toolbox: desk
agents:
  one:
    description: One agent.
    capabilities: [desk]
";

/// Every command that reads manifests, with the arguments it needs.
fn commands(out: &str) -> Vec<(&'static str, Vec<String>)> {
    vec![
        ("check", vec!["check".into(), "m".into()]),
        ("lint", vec!["lint".into(), "m".into()]),
        (
            "build",
            vec!["build".into(), "m".into(), "--out".into(), out.into()],
        ),
        (
            "dump",
            vec![
                "dump".into(),
                "m".into(),
                "--agent".into(),
                "one".into(),
                "--dialect".into(),
                "openai".into(),
            ],
        ),
        // Against the same folder: both versions are read, and checked.
        (
            "diff",
            vec!["diff".into(), "m".into(), "--against".into(), ".".into()],
        ),
    ]
}

fn broken() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("m")).unwrap();
    std::fs::write(dir.path().join("m/tools.yaml"), BROKEN).unwrap();
    dir
}

fn with(args: &[String], extra: &[&str], before: bool) -> Vec<String> {
    let extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    if before {
        extra.into_iter().chain(args.iter().cloned()).collect()
    } else {
        args.iter().cloned().chain(extra).collect()
    }
}

fn run(dir: &std::path::Path, args: &[String]) -> std::process::Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    toolc_in(dir, &args)
}

#[test]
fn json_reports_the_same_diagnostic_on_every_command() {
    let dir = broken();
    for (name, args) in commands("out") {
        for before in [false, true] {
            let out = run(dir.path(), &with(&args, &["--format", "json"], before));
            assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stderr));
            // dump's stdout is the tool list: its report is on stderr.
            let stream = if name == "dump" {
                &out.stderr
            } else {
                &out.stdout
            };
            let doc: Value = serde_json::from_slice(stream).unwrap_or_else(|e| {
                panic!("{name}: not one JSON document ({e}): {}", text(stream))
            });
            let diags = doc["diagnostics"].as_array().expect("a diagnostics array");
            assert!(
                diags.iter().any(|d| d["code"] == "unknown-key"
                    && d["location"]["line"] == 7
                    && d["location"]["column"] == 9),
                "{name}: {doc:#}"
            );
            if name == "dump" {
                assert!(
                    out.stdout.is_empty(),
                    "dump printed a list: {}",
                    text(&out.stdout)
                );
            } else {
                assert!(doc["summary"].is_object(), "{name}: no summary: {doc:#}");
            }
        }
    }
    assert!(
        !dir.path().join("out").exists(),
        "a failed build wrote files"
    );
}

#[test]
fn plain_and_human_with_and_without_color_on_every_command() {
    let dir = broken();
    for (name, args) in commands("out") {
        let plain = run(dir.path(), &with(&args, &["--format", "plain"], false));
        assert_eq!(plain.status.code(), Some(1), "{name}");
        let err = text(&plain.stderr);
        assert!(
            err.contains("tools.yaml:7:9: error[unknown-key]: unknown key `descripton`"),
            "{name}: {err}"
        );

        let never = run(
            dir.path(),
            &with(&args, &["--format", "human", "--color", "never"], true),
        );
        let err = text(&never.stderr);
        assert!(err.contains("error[unknown-key]"), "{name}: {err}");
        assert!(err.contains(" --> "), "{name}: no source excerpt: {err}");
        assert!(
            !err.contains('\u{1b}'),
            "{name}: colored with --color never"
        );

        let always = run(
            dir.path(),
            &with(&args, &["--format", "human", "--color", "always"], false),
        );
        assert!(
            text(&always.stderr).contains('\u{1b}'),
            "{name}: not colored with --color always: {}",
            text(&always.stderr)
        );
    }
}

#[test]
fn sarif_on_every_command() {
    let dir = broken();
    for (name, args) in commands("out") {
        let out = run(dir.path(), &with(&args, &["--format", "sarif"], false));
        let stream = if name == "dump" {
            &out.stderr
        } else {
            &out.stdout
        };
        let log: Value = serde_json::from_slice(stream)
            .unwrap_or_else(|e| panic!("{name}: not SARIF ({e}): {}", text(stream)));
        assert_eq!(log["version"], "2.1.0", "{name}");
        let results = log["runs"][0]["results"].as_array().unwrap();
        assert!(
            results.iter().any(|r| r["ruleId"] == "unknown-key"
                && r["locations"][0]["physicalLocation"]["region"]["startLine"] == 7),
            "{name}: {log:#}"
        );
    }
}

#[test]
fn a_bad_value_is_refused_alike_everywhere() {
    let dir = broken();
    for (name, args) in commands("out") {
        for flag in ["--format", "--color"] {
            let out = run(dir.path(), &with(&args, &[flag, "purple"], false));
            assert_eq!(out.status.code(), Some(2), "{name} {flag}");
            assert!(
                text(&out.stderr).contains("invalid value 'purple'"),
                "{name}: {}",
                text(&out.stderr)
            );
        }
    }
}

#[test]
fn build_reports_what_it_wrote_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let manifests = super::repo().join("manifests");
    let out = dir.path().join("gen");
    let args = [
        "build",
        manifests.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ];
    let first = toolc_in(dir.path(), &args);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let doc: Value = serde_json::from_slice(&first.stdout).unwrap();
    let written = doc["summary"]["written"].as_array().unwrap();
    assert_eq!(
        written.len() as u64,
        doc["summary"]["outputs"].as_u64().unwrap()
    );
    assert!(
        written
            .iter()
            .any(|p| p.as_str().unwrap().ends_with("rust/toolset.rs"))
    );

    // Nothing changed: nothing written, and --check agrees.
    let again: Value = serde_json::from_slice(&toolc_in(dir.path(), &args).stdout).unwrap();
    assert_eq!(again["summary"]["written"], serde_json::json!([]));
    std::fs::write(out.join("rust/toolset.rs"), "// edited\n").unwrap();
    let mut check = args.to_vec();
    check.push("--check");
    let stale = toolc_in(dir.path(), &check);
    assert_eq!(stale.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&stale.stdout).unwrap();
    assert_eq!(doc["summary"]["stale"][0]["why"], "differs", "{doc:#}");
}

#[test]
fn a_broken_config_is_a_usage_error_for_every_command_that_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("m")).unwrap();
    let good = BROKEN.replace("descripton", "description");
    std::fs::write(dir.path().join("m/tools.yaml"), good).unwrap();
    std::fs::write(
        dir.path().join("m/toolc.toml"),
        "[lint]\ndialect = [\"mcp\"]\n",
    )
    .unwrap();
    for (name, args) in commands("out") {
        let out = run(dir.path(), &with(&args, &["--format", "plain"], false));
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("toolc.toml:2:1: error[unknown-key]: unknown key `dialect`"),
            "{name}: {}",
            text(&out.stderr)
        );
    }
}
