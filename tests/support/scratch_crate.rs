//! A scratch crate that compiles generated Rust files together, clippy
//! `-D warnings` and rustdoc `-D warnings`, with its builds in the shared
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

/// Compiles every `(label, toolset.rs)` of `files` as one module of a crate
/// named `name` (under `CARGO_TARGET_TMPDIR`), whose crate docs say `what`.
/// Panics with the compiler's output, saying what `failure` means, when
/// clippy or rustdoc finds anything. The crate and what its builds wrote are
/// removed when both pass (a failure keeps the sources the output names).
pub fn compile_together(name: &str, what: &str, files: &[(String, PathBuf)], failure: &str) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = repo.join("target").join("compile-tests");
    let krate = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(krate.join("src"));
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\ntoolc-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            repo.join("runtime")
        ),
    )
    .unwrap();
    if let Ok(lock) = std::fs::read_to_string(repo.join("Cargo.lock")) {
        std::fs::write(krate.join("Cargo.lock"), lock).unwrap();
    }
    let mut lib = format!("//! {what}\n#![deny(warnings)]\n\n");
    for (i, (label, rust)) in files.iter().enumerate() {
        let file = format!("case{i}.rs");
        std::fs::copy(rust, krate.join("src").join(&file)).unwrap();
        lib.push_str(&format!(
            "/// `{label}`.\npub mod case{i} {{\n    include!(\"{file}\");\n}}\n"
        ));
    }
    std::fs::write(krate.join("src/lib.rs"), lib).unwrap();
    for (args, does) in [
        (
            &["clippy", "--quiet", "--", "-D", "warnings"][..],
            "compile clippy-clean",
        ),
        (
            &["doc", "--quiet", "--no-deps"][..],
            "document without warnings",
        ),
    ] {
        let out = Command::new(env!("CARGO"))
            .args(args)
            .current_dir(&krate)
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
            remove_build_outputs(&target, name);
            panic!(
                "{failure} does not {does}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    remove_build_outputs(&target, name);
    std::fs::remove_dir_all(&krate).unwrap();
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
