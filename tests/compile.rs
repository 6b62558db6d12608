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

/// The generated files each crate includes: (module, manifest path, with typed formats).
const SETS: &[(&str, &str, bool)] = &[
    ("manifests", "manifests", false),
    (
        "constructs",
        "tests/fixtures/codegen/constructs.yaml",
        false,
    ),
    ("hostile", "tests/fixtures/codegen/hostile.yaml", false),
    ("imported", "tests/fixtures/codegen/imported.yaml", false),
    ("formats", "tests/fixtures/codegen/formats.yaml", true),
    ("secrets", "tests/fixtures/codegen/secrets.yaml", false),
    ("search", "tests/fixtures/codegen/search.yaml", false),
    (
        "delegation",
        "tests/fixtures/codegen/delegation.yaml",
        false,
    ),
    ("names", "tests/fixtures/codegen/names", false),
];

pub(crate) fn write(path: &Path, text: &str) {
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
toolc-runtime = {{ path = {runtime:?}, features = ["uuid", "chrono"] }}

[build-dependencies]
toolc = {{ path = {repo:?}, default-features = false }}
"#,
            runtime = repo.join("runtime"),
        ),
    );
    let mut build = String::from("fn main() -> Result<(), toolc::Error> {\n");
    for (module, path, typed) in SETS {
        build.push_str(&format!(
            "    toolc::configure().manifest({:?}).file_name(\"{module}.rs\").typed_formats({typed}).compile()?;\n",
            repo.join(path)
        ));
    }
    build.push_str("    Ok(())\n}\n");
    write(&dir.join("build.rs"), &build);
    let mut lib = String::from("//! Generated code under test.\n#![deny(warnings)]\n\n");
    for (module, _, _) in SETS {
        lib.push_str(&format!(
            "/// Generated from a manifest set.\npub mod {module} {{\n    toolc_runtime::include_toolset!(\"{module}\");\n}}\n"
        ));
    }
    write(&dir.join("src/lib.rs"), &lib);
}

pub(crate) fn cargo(dir: &Path, target: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        // As tests/support/scratch_crate.rs builds, so that toolc-runtime's
        // build is shared; incremental state of a scratch crate is waste.
        .env("CARGO_INCREMENTAL", "0")
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
    let code = generated(&repo().join("manifests"), false, &root.join("generated"));
    // The file's first line names the runtime API it needs and this toolc's version.
    let version = env!("CARGO_PKG_VERSION");
    let line = code
        .lines()
        .find(|l| {
            l.starts_with("::toolc_runtime::__toolc_require_api!(")
                && l.ends_with(&format!(", \"{version}\");"))
        })
        .unwrap_or_else(|| panic!("the generated file does not check its API:\n{code}"))
        .to_string();
    let api: u32 = line["::toolc_runtime::__toolc_require_api!(".len()..]
        .split(',')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .expect("the API is a number");
    // A file from a newer toolc: upgrade the runtime.
    let newer = format!(
        "::toolc_runtime::__toolc_require_api!({}, \"9.9.9\");",
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
        )) && log.contains("upgrade toolc-runtime to 9.9.9 in [dependencies]"),
        "{log}"
    );
    assert!(!log.contains("error[E"), "more errors than the one:\n{log}");
    // A file from an older toolc, which checked its API through `__private`: generate it again.
    let older = "::toolc_runtime::__private::require_api!(3, \"0.0.9\");";
    write(
        &root.join("src/lib.rs"),
        &format!("pub mod toolset {{\n{}\n}}\n", code.replace(&line, older)),
    );
    let (ok, log) = cargo(&root, &target, &["build"]);
    assert!(!ok, "a file for an older API built:\n{log}");
    assert!(
        log.contains(&format!(
            "error: this toolset was generated by toolc 0.0.9 for toolc-runtime API 3, and the \
             toolc-runtime this crate depends on serves API {api} only: generate it again with the \
             toolc of the same version as toolc-runtime"
        )),
        "{log}"
    );
    assert!(!log.contains("error[E"), "more errors than the one:\n{log}");
}

/// The Rust generated from the manifests at `manifest` (every typed format on, or none), as
/// `build.rs` generates it, written into `out`.
pub(crate) fn generated(manifest: &Path, typed_formats: bool, out: &Path) -> String {
    let report = toolc::configure()
        .manifest(manifest)
        .out_dir(out)
        .typed_formats(typed_formats)
        .cargo_instructions(false)
        .compile()
        .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    std::fs::read_to_string(&report.output).expect("the generated file")
}

/// Writes a scratch crate under the target folder whose `src/lib.rs` holds the code generated
/// from `manifest` (a YAML text) followed by `user`, builds it, and returns whether it built
/// and cargo's output. `features` are toolc-runtime's.
fn build_scratch(
    name: &str,
    manifest: &str,
    typed_formats: bool,
    features: &[&str],
    user: &str,
) -> (bool, String) {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let target = repo().join("target").join("compile-tests");
    write(
        &root.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\ntoolc-runtime = {{ path = {:?}, features = {features:?} }}\n\n[workspace]\n",
            repo().join("runtime")
        ),
    );
    if let Ok(lock) = std::fs::read_to_string(repo().join("Cargo.lock"))
        && !root.join("Cargo.lock").exists()
    {
        write(&root.join("Cargo.lock"), &lock);
    }
    let file = root.join("manifests/toolset.yaml");
    write(&file, manifest);
    let code = generated(&file, typed_formats, &root.join("generated"));
    write(
        &root.join("src/lib.rs"),
        &format!("pub mod toolset {{\n{code}\n}}\n{user}"),
    );
    cargo(&root, &target, &["build"])
}

const TWO_TOOLBOXES: &str = "version: 1
toolboxes:
  notes:
    description: Notes.
    tools:
      count:
        description: Counts the notes.
        returns: { type: integer }
  clock:
    description: Time.
    tools:
      now:
        description: The time.
        returns: { type: string }
capabilities:
  notes: { description: Notes., toolbox: notes }
  clock: { description: Time., toolbox: clock }
agents:
  desk: { description: A desk., capabilities: [notes, clock] }
";

/// An agent is built by naming each implementation; leaving one out fails to compile with an
/// error that names the missing toolbox, and nothing else.
#[test]
fn an_agent_missing_an_implementation_fails_naming_it() {
    let user = "
use toolc_runtime::{HandlerError, ToolContext};
use toolset::toolboxes::notes;

pub struct MyNotes;

impl notes::Notes for MyNotes {
    async fn count(&self, _: &ToolContext<'_, notes::Scope>) -> Result<i64, HandlerError> {
        Ok(0)
    }
}

pub fn desk() -> toolc_runtime::Agent {
    toolset::agents::Desk { notes: MyNotes }.build()
}
";
    let (ok, log) = build_scratch("wiring-missing", TWO_TOOLBOXES, false, &[], user);
    assert!(!ok, "an agent without its `clock` built:\n{log}");
    assert!(
        log.contains("error[E0063]: missing field `clock` in initializer of `Desk<_, _>`"),
        "{log}"
    );
    assert_eq!(
        log.matches("error[E").count(),
        1,
        "more than one error:\n{log}"
    );
}

/// A toolset generated with typed formats, built against a runtime without the features their
/// types need, fails with one error per feature naming it and the formats that need it.
#[test]
fn typed_formats_without_their_runtime_feature_fail_naming_it() {
    let manifest = "version: 1
toolboxes:
  t:
    description: Tools.
    tools:
      when:
        description: When and which.
        parameters:
          type: object
          properties:
            at: { type: string, format: date-time }
            day: { type: string, format: date }
            id: { type: string, format: uuid }
            email: { type: string, format: email }
          required: [at, day, id, email]
";
    let (ok, log) = build_scratch("typed-formats-off", manifest, true, &[], "");
    assert!(!ok, "typed formats built without their features:\n{log}");
    assert!(
        log.contains(
            "error: this toolset was generated with typed formats and reads `format: uuid` as \
             `uuid::Uuid`, which needs the `uuid` feature of toolc-runtime"
        ),
        "{log}"
    );
    assert!(
        log.contains(
            "error: this toolset was generated with typed formats and reads `format: date-time` \
             and `format: date` as chrono types, which needs the `chrono` feature of toolc-runtime"
        ),
        "{log}"
    );
    assert_eq!(log.matches("error: this toolset").count(), 2, "{log}");
    assert!(!log.contains("error[E"), "more errors than the two:\n{log}");
    // With the features on, the same file builds.
    let (ok, log) = build_scratch("typed-formats-on", manifest, true, &["uuid", "chrono"], "");
    assert!(ok, "{log}");
}
