//! docs/migrating.md, checked: every section maps a call of the TypeScript SDKs toolc replaces,
//! its manifests pass `toolc check`, and its Rust compiles against the code generated from
//! them. The Rust of all sections is built as one scratch crate, one module per section, in
//! the folder tests/compile.rs builds in, so toolc-runtime is compiled once for both.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::compile::{cargo, generated, write};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One `## ` section of the page: its title, the manifest files of its YAML and TOML blocks
/// (a first line `# name.ext` names one, else it is `toolset.yaml` or `toolset.toml`), its Rust
/// blocks, and whether it shows the code it replaces (a `ts` block).
struct Section {
    title: String,
    files: Vec<(String, String)>,
    rust: Vec<String>,
    before: bool,
}

impl Section {
    /// The section's module in the scratch crate: its title's letters in snake case.
    fn module(&self) -> String {
        let mut out = String::new();
        for c in self.title.chars() {
            if c.is_ascii_alphanumeric() {
                if c.is_ascii_uppercase() && !out.is_empty() && !out.ends_with('_') {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase());
            } else if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
        }
        out.trim_end_matches('_').to_owned()
    }
}

fn sections() -> Vec<Section> {
    let page =
        std::fs::read_to_string(repo().join("docs/migrating.md")).expect("docs/migrating.md");
    let mut out = Vec::new();
    for part in page.split("\n## ").skip(1) {
        let (title, body) = part.split_once('\n').unwrap_or((part, ""));
        let mut section = Section {
            title: title.trim().to_owned(),
            files: Vec::new(),
            rust: Vec::new(),
            before: false,
        };
        let mut rest = body;
        while let Some(start) = rest.find("```") {
            let after = &rest[start + 3..];
            let Some((lang, after)) = after.split_once('\n') else {
                break;
            };
            let end = after.find("\n```").map_or(after.len(), |e| e + 1);
            let block = &after[..end];
            rest = after[end..].strip_prefix("```").unwrap_or("");
            match lang.trim() {
                ext @ ("yaml" | "toml") => {
                    let name = block
                        .lines()
                        .next()
                        .and_then(|l| l.strip_prefix("# "))
                        .filter(|n| n.ends_with(&format!(".{ext}")) && !n.contains(' '))
                        .map_or(format!("toolset.{ext}"), str::to_owned);
                    assert!(
                        section.files.iter().all(|(n, _)| *n != name),
                        "docs/migrating.md, `{}`: two blocks are {name}",
                        section.title
                    );
                    section.files.push((name, block.to_owned()));
                }
                "rust" => section.rust.push(block.to_owned()),
                "ts" => section.before = true,
                other => panic!(
                    "docs/migrating.md, `{}`: a block in `{other}`, which this test does not check",
                    section.title
                ),
            }
        }
        out.push(section);
    }
    out
}

/// The calls of the TypeScript SDKs a team moving to toolc asks about: each has a section.
const CALLS: &[&str] = &[
    "defineTool",
    "toolbox",
    "capability",
    "definePlay",
    "TextManual",
    "requireScope",
    "readScope",
    "lintModelFacingSchema",
    "tool()",
    "auth",
    "roles",
    "rateLimit",
    "timeoutMs",
    "annotations",
    "BaseToolset",
    "searchTools",
    "asDelegated",
    "ToolResult",
    "validateReturns: false",
];

#[test]
fn every_call_the_sdks_make_has_a_section_with_before_and_after() {
    let sections = sections();
    for call in CALLS {
        assert!(
            sections
                .iter()
                .any(|s| s.title.contains(&format!("`{call}`"))),
            "docs/migrating.md has no section on `{call}`"
        );
    }
    for s in &sections {
        assert!(s.before, "`{}` does not show the code it replaces", s.title);
        assert!(
            !s.files.is_empty() || !s.rust.is_empty(),
            "`{}` shows nothing of toolc",
            s.title
        );
    }
}

/// The folder a section's manifests are written to, under `purpose` (each test its own, since
/// tests run at once).
fn manifests_of(section: &Section, purpose: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("migrating-docs")
        .join(purpose)
        .join(section.module());
    let _ = std::fs::remove_dir_all(&dir);
    for (name, text) in &section.files {
        write(&dir.join(name), text);
    }
    dir
}

#[test]
fn every_manifest_passes_toolc_check_cleanly() {
    let mut checked = 0;
    for section in sections().iter().filter(|s| !s.files.is_empty()) {
        let dir = manifests_of(section, "check");
        let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
            .args(["check", ".", "--format", "plain"])
            .current_dir(&dir)
            .output()
            .expect("toolc runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // Notes are information (a tool listed over MCP without an `outputSchema`, say).
        let files = section
            .files
            .iter()
            .filter(|(n, _)| n != "toolc.toml")
            .count();
        assert!(
            out.status.success()
                && !text.contains(": warning[")
                && !text.contains(": error[")
                && text.contains(&format!("checked {files} file")),
            "docs/migrating.md, `{}`: toolc check says:\n{text}",
            section.title
        );
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} sections have manifests");
}

#[test]
fn every_rust_example_compiles_against_its_generated_code() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("migrating-docs/crate");
    let target = repo().join("target").join("compile-tests");
    write(
        &root.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"migrating-docs\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\ntoolc-runtime = {{ path = {:?} }}\nserde_json = \"1\"\n\n[workspace]\n",
            repo().join("runtime")
        ),
    );
    if let Ok(lock) = std::fs::read_to_string(repo().join("Cargo.lock"))
        && !root.join("Cargo.lock").exists()
    {
        write(&root.join("Cargo.lock"), &lock);
    }
    let mut lib = String::from("//! The Rust of docs/migrating.md, one module per section.\n\n");
    let mut compiled = 0;
    for section in sections().iter().filter(|s| !s.rust.is_empty()) {
        let module = section.module();
        lib.push_str(&format!("/// `{}`.\npub mod {module} {{\n", section.title));
        if section.files.iter().any(|(n, _)| n != "toolc.toml") {
            let dir = manifests_of(section, "compile");
            let code = generated(&dir, false, &root.join("generated").join(&module));
            lib.push_str(&format!("pub mod toolset {{\n{code}\n}}\n"));
        }
        for block in &section.rust {
            lib.push_str(block);
            lib.push('\n');
        }
        lib.push_str("}\n");
        compiled += 1;
    }
    write(&root.join("src/lib.rs"), &lib);
    let (ok, log) = cargo(&root, &target, &["check", "--quiet"]);
    assert!(ok, "docs/migrating.md's Rust does not compile:\n{log}");
    assert!(compiled >= 8, "only {compiled} sections have Rust");
}

/// The docs speak of toolc and its users: the SDKs toolc replaces are named where they help a
/// reader migrating from them, never as "the seeds" or "the SDKs" a reader is assumed to know.
#[test]
fn no_doc_speaks_of_the_seeds_or_of_unnamed_sdks() {
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
    let mut found = Vec::new();
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap().to_lowercase();
        for phrase in [
            "the seeds",
            "the seed's",
            "seeds' wording",
            "the sdks'",
            "in the sdks",
        ] {
            if let Some(at) = text.find(phrase) {
                let line = text[..at].lines().count();
                found.push(format!("{}:{line}: {phrase}", rel(doc)));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

fn rel(path: &Path) -> String {
    path.strip_prefix(repo())
        .unwrap_or(path)
        .display()
        .to_string()
}
