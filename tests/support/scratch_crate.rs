//! Scratch crates that compile generated Rust files together, clippy
//! `-D warnings` and rustdoc `-D warnings`, with their builds in the shared
//! `target/compile-tests` (the folder tests/compile.rs and CI's outside
//! crates use, so toolc-runtime and its dependencies are built once).
//!
//! What the crate's own builds leave is removed once they have been looked at:
//! its metadata (45 MB for the real-world corpus), its HTML docs (140 MB) and
//! its sources. Nothing reuses them (the sources are written anew each run, so
//! cargo would check the crate again anyway), and a target folder that kept
//! them, a copy for each change of the crate's hash, once filled CI's disk.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles every `(label, toolset.rs)` of `files` as one module of the
/// crates `name-1`, `name-2`, … (a workspace `name` under
/// `CARGO_TARGET_TMPDIR`), whose crate docs say `what`.
/// Panics with the compiler's output, saying what `failure` means, when
/// clippy or rustdoc finds anything. The crates and what their builds wrote are
/// removed when both pass (a failure keeps the sources the output names).
///
/// The files are shared among as many crates as there are cores (`name-1`,
/// `name-2`, … in one workspace): rustc checks and documents a crate on one
/// core, so one crate of the real-world corpus's thousand tools left the other
/// core idle for over a minute.
pub fn compile_together(name: &str, what: &str, files: &[(String, PathBuf)], failure: &str) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = repo.join("target").join("compile-tests");
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&root);
    let parts = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, files.len().max(1));
    let crates: Vec<String> = (1..=parts).map(|i| format!("{name}-{i}")).collect();
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[workspace]\nmembers = {crates:?}\nresolver = \"2\"\n\n[workspace.dependencies]\ntoolc-runtime = {{ path = {:?} }}\n",
            repo.join("runtime")
        ),
    )
    .unwrap();
    if let Ok(lock) = std::fs::read_to_string(repo.join("Cargo.lock")) {
        std::fs::write(root.join("Cargo.lock"), lock).unwrap();
    }
    for (part, krate) in crates.iter().enumerate() {
        let dir = root.join(krate);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"{krate}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\ntoolc-runtime.workspace = true\n"
            ),
        )
        .unwrap();
        let mut lib = format!(
            "//! {what} (part {} of {parts})\n#![deny(warnings)]\n\n",
            part + 1
        );
        // Every `parts`-th file from this part's own: the parts get about as many files each.
        for (i, (label, rust)) in files.iter().enumerate().skip(part).step_by(parts) {
            let file = format!("case{i}.rs");
            std::fs::copy(rust, dir.join("src").join(&file)).unwrap();
            lib.push_str(&format!(
                "/// `{label}`.\npub mod case{i} {{\n    include!(\"{file}\");\n}}\n"
            ));
        }
        std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    }
    let remove_outputs = || {
        for krate in &crates {
            remove_build_outputs(&target, krate);
        }
    };
    for (args, does) in [
        (
            &["clippy", "--quiet", "--workspace", "--", "-D", "warnings"][..],
            "compile clippy-clean",
        ),
        (
            &["doc", "--quiet", "--workspace", "--no-deps"][..],
            "document without warnings",
        ),
    ] {
        let out = Command::new(env!("CARGO"))
            .args(args)
            .current_dir(&root)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS")
            // Built once per run: incremental state would only fill the disk
            // (over a gigabyte for the real-world corpus). tests/compile.rs
            // builds the same way, so the dependencies' builds are shared.
            .env("CARGO_INCREMENTAL", "0")
            .env("RUSTDOCFLAGS", "-D warnings")
            .env("CARGO_TERM_COLOR", "never")
            .output()
            .expect("cargo runs");
        if !out.status.success() {
            remove_outputs();
            panic!(
                "{failure} does not {does}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    remove_outputs();
    std::fs::remove_dir_all(&root).unwrap();
}

/// Removes what cargo wrote for the crate `name` into the target folder
/// `target`: its metadata and dependency lists, its fingerprints, and its HTML
/// docs and source pages. The docs' shared indexes (`search.index`,
/// `trait.impl`) keep the crate's entries; each run replaces them.
fn remove_build_outputs(target: &Path, name: &str) {
    let lib = name.replace('-', "_");
    let doc = target.join("doc");
    for dir in [doc.join(&lib), doc.join("src").join(&lib)] {
        if dir.exists() {
            std::fs::remove_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
    }
    let debug = target.join("debug");
    let ours = |dir: &Path, prefixes: &[String]| -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        entries
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let file = p.file_name().unwrap().to_string_lossy();
                prefixes.iter().any(|prefix| {
                    file.strip_prefix(prefix.as_str())
                        .is_some_and(|hash| hash.split('.').next().is_some_and(is_hash))
                })
            })
            .collect()
    };
    for path in ours(
        &debug.join("deps"),
        &[format!("lib{lib}-"), format!("{lib}-")],
    ) {
        std::fs::remove_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    for path in ours(&debug.join(".fingerprint"), &[format!("{name}-")]) {
        std::fs::remove_dir_all(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// Whether `s` is the hash cargo puts after a crate's name in its file names
/// (16 hexadecimal digits), so that `check-build-…` is not taken for a file of
/// a crate named `check`.
fn is_hash(s: &str) -> bool {
    s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit())
}
