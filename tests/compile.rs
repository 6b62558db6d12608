//! Compiles generated code for real: the example manifests and the codegen
//! fixtures, from build scripts, in an edition-2024 and an edition-2021 crate
//! under `#![deny(warnings)]`, then clippy with `-D warnings`, then rustdoc
//! with `-D warnings`, then a second build that must not rerun the build
//! scripts.
//!
//! This runs cargo on a scratch workspace in its own target folder, so the
//! first run compiles the dependencies once (a few minutes on two cores).

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The generated files each crate includes: (module, manifest path).
const SETS: &[(&str, &str)] = &[
    ("manifests", "manifests"),
    ("constructs", "tests/fixtures/codegen/constructs.yaml"),
    ("hostile", "tests/fixtures/codegen/hostile.yaml"),
];

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // Only when changed, so a rerun of the test does not dirty the crates.
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

fn user_crate(dir: &Path, name: &str, edition: &str) {
    let repo = repo();
    write(
        &dir.join("Cargo.toml"),
        &format!(
            r#"[package]
name = "{name}"
version = "0.0.0"
edition = "{edition}"
publish = false

[dependencies]
toolc-runtime = {{ path = {runtime:?} }}

[build-dependencies]
toolc = {{ path = {repo:?}, default-features = false }}
"#,
            runtime = repo.join("runtime"),
        ),
    );
    let mut build = String::from("fn main() -> Result<(), toolc::Error> {\n");
    for (module, path) in SETS {
        build.push_str(&format!(
            "    toolc::configure().manifest({:?}).file_name(\"{module}.rs\").compile()?;\n",
            repo.join(path)
        ));
    }
    build.push_str("    Ok(())\n}\n");
    write(&dir.join("build.rs"), &build);
    let mut lib = String::from("//! Generated code under test.\n#![deny(warnings)]\n\n");
    for (module, _) in SETS {
        lib.push_str(&format!(
            "/// Generated from a manifest set.\npub mod {module} {{\n    toolc_runtime::include_toolset!(\"{module}\");\n}}\n"
        ));
    }
    write(&dir.join("src/lib.rs"), &lib);
}

fn cargo(dir: &Path, target: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("RUSTDOCFLAGS", "-D warnings")
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .expect("cargo runs");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn generated_code_compiles_cleanly_in_both_editions_and_build_scripts_do_not_rerun() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compile-tests");
    let target = repo().join("target").join("compile-tests");
    write(
        &root.join("Cargo.toml"),
        "[workspace]\nmembers = [\"edition2024\", \"edition2021\"]\nresolver = \"2\"\n",
    );
    // The repository's lock file: the same dependency versions, no resolution.
    if let Ok(lock) = std::fs::read_to_string(repo().join("Cargo.lock"))
        && !root.join("Cargo.lock").exists()
    {
        write(&root.join("Cargo.lock"), &lock);
    }
    user_crate(&root.join("edition2024"), "edition2024", "2024");
    user_crate(&root.join("edition2021"), "edition2021", "2021");

    let (ok, log) = cargo(&root, &target, &["build", "--workspace"]);
    assert!(ok, "generated code does not build:\n{log}");

    let (ok, log) = cargo(
        &root,
        &target,
        &["clippy", "--workspace", "--", "-D", "warnings"],
    );
    assert!(ok, "generated code is not clippy-clean:\n{log}");

    let (ok, log) = cargo(&root, &target, &["doc", "--workspace", "--no-deps"]);
    assert!(ok, "generated docs have rustdoc warnings:\n{log}");

    // Nothing changed: the build scripts must be fresh.
    let (ok, log) = cargo(&root, &target, &["build", "--workspace", "-v"]);
    assert!(ok, "{log}");
    for krate in ["edition2024", "edition2021"] {
        assert!(
            log.contains(&format!("Fresh {krate} ")),
            "{krate} was rebuilt without a change:\n{log}"
        );
    }
    assert!(
        !log.contains("build-script-build`"),
        "a build script ran again without a change:\n{log}"
    );
}

/// A generated file written for a runtime API this toolc-runtime does not serve fails on its
/// first line, with one error naming what to upgrade (not a cascade from whatever changed).
#[test]
fn a_runtime_that_does_not_serve_the_generated_api_fails_with_a_message_naming_the_upgrade() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compile-tests-api");
    let target = repo().join("target").join("compile-tests");
    write(
        &root.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"api-mismatch\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\ntoolc-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            repo().join("runtime")
        ),
    );
    if let Ok(lock) = std::fs::read_to_string(repo().join("Cargo.lock"))
        && !root.join("Cargo.lock").exists()
    {
        write(&root.join("Cargo.lock"), &lock);
    }
    let checked = toolc::check(&[repo().join("manifests")], &Default::default());
    let lowered = toolc::lower::lower(&checked.toolset, &[], Default::default());
    let code =
        toolc::emit::rust::generate(&checked.toolset, &lowered, &Default::default()).unwrap();
    let api = toolc::emit::rust::RUNTIME_API;
    let line = format!(
        "::toolc_runtime::__private::require_api!({api}, \"{}\");",
        env!("CARGO_PKG_VERSION")
    );
    assert!(
        code.contains(&line),
        "the generated file does not check its API:\n{code}"
    );
    let newer = format!(
        "::toolc_runtime::__private::require_api!({}, \"9.9.9\");",
        api + 1
    );
    write(
        &root.join("src/lib.rs"),
        &format!("pub mod toolset {{\n{}\n}}\n", code.replace(&line, &newer)),
    );
    let (ok, log) = cargo(&root, &target, &["build"]);
    assert!(!ok, "a file for another API built:\n{log}");
    assert!(
        log.contains(&format!(
            "error: this toolset was generated by toolc 9.9.9 for toolc-runtime API {}",
            api + 1
        )) && log.contains("depend on toolc-runtime 9.9.9 in [dependencies]"),
        "{log}"
    );
    assert!(!log.contains("error[E"), "more errors than the one:\n{log}");
}
