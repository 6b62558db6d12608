//! A scratch crate that compiles generated Rust files together, clippy
//! `-D warnings` and rustdoc `-D warnings`, with its builds in the shared
//! `target/compile-tests` (the folder tests/compile.rs and CI's outside
//! crates use, so toolc-runtime and its dependencies are built once).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles every `(label, toolset.rs)` of `files` as one module of a crate
/// named `name` (under `CARGO_TARGET_TMPDIR`), whose crate docs say `what`.
/// Panics with the compiler's output, saying what `failure` means, when
/// clippy or rustdoc finds anything.
pub fn compile_together(name: &str, what: &str, files: &[(String, PathBuf)], failure: &str) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
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
            .env(
                "CARGO_TARGET_DIR",
                repo.join("target").join("compile-tests"),
            )
            .env_remove("RUSTFLAGS")
            // Built once per run: incremental state would only fill the disk
            // (over a gigabyte for the real-world corpus). tests/compile.rs
            // builds the same way, so the dependencies' builds are shared.
            .env("CARGO_INCREMENTAL", "0")
            .env("RUSTDOCFLAGS", "-D warnings")
            .env("CARGO_TERM_COLOR", "never")
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "{failure} does not {does}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
