//! Packaging: every crate of the workspace that would be published carries what crates.io
//! shows and needs, and its package holds its sources, README and licenses and nothing of
//! the repository's tests. (`.ci/run` packages them and builds the README's crate from the
//! packages.)

use super::{repo, text};
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

fn cargo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(repo())
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} failed:\n{}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// The workspace's packages that would be published, by name.
fn publishable() -> BTreeMap<String, Value> {
    let doc: Value =
        serde_json::from_str(&cargo(&["metadata", "--format-version", "1", "--no-deps"])).unwrap();
    doc["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["publish"] != serde_json::json!([]))
        .map(|p| (p["name"].as_str().unwrap().to_string(), p.clone()))
        .collect()
}

#[test]
fn the_published_crates_are_toolc_the_runtime_its_mcp_server_and_what_they_depend_on() {
    let names: Vec<String> = publishable().into_keys().collect();
    assert_eq!(
        names,
        [
            "toolc",
            "toolc-mcp",
            "toolc-runtime",
            "toolc-schema",
            "toolc-search"
        ]
    );
}

#[test]
fn every_published_crate_has_its_metadata_and_versioned_workspace_dependencies() {
    let crates = publishable();
    for (name, p) in &crates {
        for key in [
            "description",
            "license",
            "repository",
            "readme",
            "rust_version",
        ] {
            assert!(
                p[key].as_str().is_some_and(|s| !s.trim().is_empty()),
                "{name} has no {key}"
            );
        }
        for key in ["keywords", "categories"] {
            let n = p[key].as_array().map_or(0, Vec::len);
            assert!(
                (1..=5).contains(&n),
                "{name}: {n} {key} (crates.io takes 1 to 5)"
            );
        }
        let dir = std::path::Path::new(p["manifest_path"].as_str().unwrap())
            .parent()
            .unwrap();
        assert!(
            dir.join(p["readme"].as_str().unwrap()).is_file(),
            "{name}: its readme is missing"
        );
        // A workspace crate it links needs a version (a path alone is dropped on packaging)
        // and must itself be published.
        for d in p["dependencies"].as_array().unwrap() {
            if d["path"].is_null() || d["kind"] == "dev" {
                continue;
            }
            let dep = d["name"].as_str().unwrap();
            assert_ne!(
                d["req"], "*",
                "{name} depends on the workspace crate {dep} by path alone"
            );
            assert!(
                crates.contains_key(dep),
                "{name} depends on {dep}, which is not published"
            );
        }
    }
}

#[test]
fn every_package_holds_its_sources_readme_and_licenses_and_no_tests() {
    for name in publishable().keys() {
        let list = cargo(&["package", "--list", "--allow-dirty", "--quiet", "-p", name]);
        let files: Vec<&str> = list.lines().collect();
        for needed in [
            "Cargo.toml",
            "README.md",
            "LICENSE-MIT",
            "LICENSE-APACHE",
            "src/lib.rs",
        ] {
            assert!(
                files.contains(&needed),
                "{name}'s package lacks {needed}: {files:?}"
            );
        }
        for f in &files {
            assert!(
                !f.starts_with("tests/")
                    && !f.starts_with("src/tests/")
                    && !f.starts_with("benches/")
                    && !f.starts_with("target/"),
                "{name}'s package holds {f}"
            );
        }
    }
    // The CLI's templates and the editor schema, which it includes with include_str!.
    let toolc = cargo(&[
        "package",
        "--list",
        "--allow-dirty",
        "--quiet",
        "-p",
        "toolc",
    ]);
    for needed in ["schemas/manifest.schema.json", "templates/init/lib.rs.in"] {
        assert!(
            toolc.lines().any(|l| l == needed),
            "toolc's package lacks {needed}"
        );
    }
}

/// Every line of the docs that makes a crate depend on toolc, toolc-runtime or toolc-mcp works in a crate
/// outside this repository: a version of this release, the repository's git URL, or a path to
/// a checkout beside the crate (`../toolc`), never a path inside the repository.
#[test]
fn documented_dependency_lines_work_outside_the_repository() {
    let version = env!("CARGO_PKG_VERSION");
    let release = version.rsplit_once('.').map_or(version, |(mm, _)| mm);
    let mut docs = vec![
        repo().join("README.md"),
        repo().join("runtime/README.md"),
        repo().join("mcp/README.md"),
    ];
    for entry in std::fs::read_dir(repo().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            docs.push(path);
        }
    }
    let mut seen = 0;
    for doc in docs {
        let body = std::fs::read_to_string(&doc).unwrap();
        for (start, _) in body.match_indices("toolc") {
            // A dependency line starts a line (TOML) or an inline code span.
            let before = body[..start].trim_end_matches([' ', '\t']);
            if !(before.is_empty() || before.ends_with(['\n', '`'])) {
                continue;
            }
            let rest = &body[start..];
            let Some(value) = rest
                .strip_prefix("toolc = ")
                .or_else(|| rest.strip_prefix("toolc-runtime = "))
                .or_else(|| rest.strip_prefix("toolc-mcp = "))
            else {
                continue;
            };
            // The value, `"…"` or `{ … }`, which may run over a line break.
            let end = match value.chars().next() {
                Some('{') => value.find('}').map(|i| i + 1),
                Some('"') => value[1..].find('"').map(|i| i + 2),
                _ => None,
            };
            let value = value[..end.unwrap_or(value.len())]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            seen += 1;
            let line = body[..start].lines().count() + 1;
            let at = format!("{}:{line}: {value}", doc.display());
            let ok = value == format!("\"{release}\"")
                || value.contains(&format!("version = \"{release}\""))
                || value.contains("version = \"…\"")
                || value.contains("git = \"")
                || value.contains("path = \"../toolc");
            assert!(
                ok,
                "{at}: not a dependency a crate outside the repository can use"
            );
        }
    }
    assert!(
        seen >= 8,
        "only {seen} dependency lines found: has their form changed?"
    );
}
