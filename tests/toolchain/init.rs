//! `toolc init`: what it writes, the dependency forms, and that it never
//! overwrites a file. (`.ci/run` builds and tests a scaffold with cargo.)

use super::{repo, text, toolc_in};
use serde_json::Value;
use std::path::Path;

const FILES: &[&str] = &[
    "Cargo.toml",
    "build.rs",
    "manifests/notes.yaml",
    "manifests/assistant.yaml",
    "src/lib.rs",
    "tests/tools.rs",
    ".gitignore",
    "schemas/manifest.schema.json",
];

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn init_writes_a_crate_whose_manifests_lint_clean() {
    let tmp = tempfile::tempdir().unwrap();
    let out = toolc_in(tmp.path(), &["init", "my-tools", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["name"], "my-tools");
    let created: Vec<&str> = doc["summary"]["created"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(created, FILES);

    let dir = tmp.path().join("my-tools");
    for f in FILES {
        let body = read(&dir, f);
        for key in [
            "@crate_name@",
            "@crate_ident@",
            "@toolc@",
            "@toolc_runtime@",
        ] {
            assert!(!body.contains(key), "{f} still holds {key}");
        }
    }
    // crates.io by default, at this toolc's version; the CLI stays out.
    let cargo = read(&dir, "Cargo.toml");
    let version = env!("CARGO_PKG_VERSION");
    assert!(cargo.contains("name = \"my-tools\""), "{cargo}");
    assert!(
        cargo.contains(&format!("toolc-runtime = \"{version}\"")),
        "{cargo}"
    );
    assert!(
        cargo.contains(&format!(
            "toolc = {{ version = \"{version}\", default-features = false }}"
        )),
        "{cargo}"
    );
    assert!(read(&dir, "tests/tools.rs").contains("my_tools::assistant()"));
    assert_eq!(
        read(&dir, "schemas/manifest.schema.json"),
        read(repo(), "schemas/manifest.schema.json")
    );
    // Editors find the schema from the manifests' modelines.
    for f in ["manifests/notes.yaml", "manifests/assistant.yaml"] {
        let body = read(&dir, f);
        let target = body
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# yaml-language-server: $schema="))
            .unwrap_or_else(|| panic!("{f} has no modeline"));
        assert!(
            dir.join("manifests").join(target).is_file(),
            "{f}: {target}"
        );
    }

    // The manifests are what `init` promises: a toolbox, a playbook, a
    // capability and an agent, clean under every default dialect.
    let lint = toolc_in(&dir, &["lint", "manifests", "--format", "json"]);
    assert_eq!(lint.status.code(), Some(0), "{}", text(&lint.stdout));
    let doc: Value = serde_json::from_slice(&lint.stdout).unwrap();
    assert_eq!(doc["diagnostics"], serde_json::json!([]), "{doc:#}");
    let check = toolc_in(&dir, &["check", "manifests", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(doc["summary"]["toolboxes"], 1);
    assert_eq!(doc["summary"]["playbooks"], 1);
    let agents = toolc_in(&dir, &["dump", "manifests", "--list-agents"]);
    assert_eq!(text(&agents.stdout), "assistant\n");
}

#[test]
fn init_takes_toolc_from_a_checkout_or_git() {
    let tmp = tempfile::tempdir().unwrap();
    let checkout = repo().to_str().unwrap();
    let out = toolc_in(tmp.path(), &["init", "local", "--path", checkout]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let cargo = read(&tmp.path().join("local"), "Cargo.toml");
    let root = std::fs::canonicalize(repo()).unwrap();
    let line = format!(
        "toolc = {{ path = {}, default-features = false }}",
        serde_json::to_string(root.to_str().unwrap()).unwrap()
    );
    assert!(cargo.contains(&line), "{cargo}");
    assert!(cargo.contains("/runtime\" }"), "{cargo}");

    let url = "https://git.example/toolc";
    let out = toolc_in(tmp.path(), &["init", "remote", "--git", url]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let cargo = read(&tmp.path().join("remote"), "Cargo.toml");
    assert!(
        cargo.contains(&format!("toolc-runtime = {{ git = \"{url}\" }}")),
        "{cargo}"
    );

    // A folder that is not a toolc checkout is refused before anything is written.
    let out = toolc_in(
        tmp.path(),
        &["init", "wrong", "--path", tmp.path().to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is not a toolc checkout"),
        "{}",
        text(&out.stderr)
    );
    assert!(!tmp.path().join("wrong").exists());
}

#[test]
fn init_never_overwrites_a_file_and_writes_nothing_then() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mine");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "// my own code\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "unrelated\n").unwrap();

    let out = toolc_in(tmp.path(), &["init", "mine", "--format", "plain"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("lib.rs: error[io]: this file exists, and toolc init never overwrites one"),
        "{err}"
    );
    assert_eq!(read(&dir, "src/lib.rs"), "// my own code\n");
    for f in FILES.iter().filter(|f| **f != "src/lib.rs") {
        assert!(!dir.join(f).exists(), "{f} was written");
    }

    // A second run over a scaffold names every file in the way.
    let fresh = toolc_in(tmp.path(), &["init", "fresh"]);
    assert_eq!(fresh.status.code(), Some(0), "{}", text(&fresh.stderr));
    let again = toolc_in(tmp.path(), &["init", "fresh", "--format", "json"]);
    assert_eq!(again.status.code(), Some(2));
    let doc: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(doc["diagnostics"].as_array().unwrap().len(), FILES.len());
}

#[test]
fn init_refuses_a_name_cargo_would_refuse() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["9lives", "has space", "self", ""] {
        let out = toolc_in(
            tmp.path(),
            &["init", "x", "--name", name, "--format", "plain"],
        );
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(
            text(&out.stderr).contains("cannot name a Rust package"),
            "{}",
            text(&out.stderr)
        );
    }
    assert!(!tmp.path().join("x").exists());
    // A folder whose name is no package name asks for --name.
    let out = toolc_in(tmp.path(), &["init", "1st try", "--format", "plain"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--name"),
        "{}",
        text(&out.stderr)
    );
}
