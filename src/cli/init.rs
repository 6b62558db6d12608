//! `toolc init [DIR]`: scaffold a crate that generates its toolset from
//! `build.rs`: manifests with a toolbox, a playbook, a capability and an
//! agent, the implementations of the generated traits, and a test that calls
//! a tool. It builds and its tests pass as written; it never overwrites a file.

use super::output::{OutputArgs, Reporter, Stdout, Summary};
use crate::{Code, Diagnostic, SourceMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct InitArgs {
    /// The folder of the new crate; created when missing.
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// The package name. Default: the folder's name.
    #[arg(long)]
    name: Option<String>,
    /// Take toolc and toolc-runtime from a local checkout of toolc (the
    /// folder of its Cargo.toml) instead of crates.io.
    #[arg(long, value_name = "CHECKOUT", conflicts_with = "git")]
    path: Option<PathBuf>,
    /// Take toolc and toolc-runtime from this git repository instead of
    /// crates.io.
    #[arg(long, value_name = "URL")]
    git: Option<String>,
}

/// The scaffold: each file's path in the crate and its template. `@key@`
/// placeholders are filled in by [`render`].
const FILES: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        include_str!("../../templates/init/Cargo.toml.in"),
    ),
    ("build.rs", include_str!("../../templates/init/build.rs.in")),
    (
        "manifests/notes.yaml",
        include_str!("../../templates/init/notes.yaml"),
    ),
    (
        "manifests/assistant.yaml",
        include_str!("../../templates/init/assistant.yaml"),
    ),
    ("src/lib.rs", include_str!("../../templates/init/lib.rs.in")),
    (
        "tests/tools.rs",
        include_str!("../../templates/init/tests.rs.in"),
    ),
    (
        ".gitignore",
        include_str!("../../templates/init/gitignore.in"),
    ),
];

/// Where the manifests' `$schema` modelines point.
const SCHEMA_FILE: &str = "schemas/manifest.schema.json";

fn fail(output: OutputArgs, diags: Vec<Diagnostic>) -> ExitCode {
    Reporter::new(output, Stdout::Report).diagnostics(&SourceMap::new(), &diags);
    ExitCode::from(2)
}

/// The package name for `dir`: `--name`, else the folder's name.
fn package_name(dir: &Path, given: Option<&str>) -> Result<String, Box<Diagnostic>> {
    let name = match given {
        Some(n) => n.to_string(),
        None => {
            let full = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
            full.file_name()
                .map(|n| n.to_string_lossy().to_lowercase().replace([' ', '.'], "-"))
                .unwrap_or_default()
        }
    };
    let valid = name.len() <= 64
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !crate::model::names::KEYWORDS.contains(&name.replace('-', "_").as_str());
    if valid {
        return Ok(name);
    }
    let d = Diagnostic::new(Code::Io, format!("`{name}` cannot name a Rust package"));
    Err(Box::new(match given {
        Some(_) => d.help("a package name is ASCII letters, digits, `-` and `_`, starts with a letter, and is not a Rust keyword"),
        None => d
            .path(dir)
            .help("name the package with `--name`, such as `--name my-tools`"),
    }))
}

/// A TOML string literal (a JSON string is one).
fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The `toolc-runtime` and `toolc` dependency lines.
fn dependencies(args: &InitArgs) -> Result<(String, String), Box<Diagnostic>> {
    if let Some(checkout) = &args.path {
        let root =
            std::fs::canonicalize(checkout).map_err(|e| {
                Box::new(Diagnostic::new(
                Code::Io,
                format!("cannot read `{}`: {e}", checkout.display()),
            )
            .path(checkout)
            .help("`--path` takes the folder of a toolc checkout, the one holding its Cargo.toml"))
            })?;
        let runtime = root.join("runtime");
        let is_toolc = std::fs::read_to_string(root.join("Cargo.toml"))
            .is_ok_and(|t| t.contains("name = \"toolc\""))
            && runtime.join("Cargo.toml").is_file();
        if !is_toolc {
            return Err(Box::new(Diagnostic::new(
                Code::Io,
                format!("`{}` is not a toolc checkout", checkout.display()),
            )
            .path(checkout)
            .help("`--path` takes the folder of a toolc checkout: its Cargo.toml names the package `toolc`, and `runtime/` holds toolc-runtime")));
        }
        return Ok((
            format!(
                "toolc-runtime = {{ path = {} }}",
                toml_string(&runtime.to_string_lossy())
            ),
            format!(
                "toolc = {{ path = {}, default-features = false }}",
                toml_string(&root.to_string_lossy())
            ),
        ));
    }
    if let Some(url) = &args.git {
        let url = toml_string(url);
        return Ok((
            format!("toolc-runtime = {{ git = {url} }}"),
            format!("toolc = {{ git = {url}, default-features = false }}"),
        ));
    }
    let version = toml_string(env!("CARGO_PKG_VERSION"));
    Ok((
        format!("toolc-runtime = {version}"),
        format!("toolc = {{ version = {version}, default-features = false }}"),
    ))
}

/// Fills in the `@key@` placeholders of a template.
fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (key, value) in values {
        out = out.replace(&format!("@{key}@"), value);
    }
    out
}

/// The folder of the nearest enclosing workspace's Cargo.toml, if any: a
/// crate created there must join it or say it stands alone.
fn enclosing_workspace(dir: &Path) -> Option<PathBuf> {
    let full = std::fs::canonicalize(dir).ok()?;
    full.ancestors().skip(1).find_map(|a| {
        let manifest = a.join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).ok()?;
        text.lines()
            .any(|l| l.trim() == "[workspace]")
            .then_some(manifest)
    })
}

pub fn run(args: InitArgs, output: OutputArgs) -> ExitCode {
    let name = match package_name(&args.dir, args.name.as_deref()) {
        Ok(n) => n,
        Err(d) => return fail(output, vec![*d]),
    };
    let (runtime_dep, toolc_dep) = match dependencies(&args) {
        Ok(d) => d,
        Err(d) => return fail(output, vec![*d]),
    };
    let ident = name.replace('-', "_");
    let values = [
        ("crate_name", name.as_str()),
        ("crate_ident", ident.as_str()),
        ("toolc_runtime", runtime_dep.as_str()),
        ("toolc", toolc_dep.as_str()),
    ];
    let mut schema =
        serde_json::to_string_pretty(&super::schema::manifest_schema()).unwrap_or_default();
    schema.push('\n');
    let mut files: Vec<(&str, String)> = FILES
        .iter()
        .map(|(path, template)| (*path, render(template, &values)))
        .collect();
    files.push((SCHEMA_FILE, schema));

    // Nothing is written when anything is in the way.
    let existing: Vec<Diagnostic> = files
        .iter()
        .map(|(path, _)| args.dir.join(path))
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
        .map(|p| {
            Diagnostic::new(
                Code::Io,
                "this file exists, and toolc init never overwrites one",
            )
            .path(&p)
            .help("run toolc init in a new or empty folder, or move this file away")
        })
        .collect();
    if !existing.is_empty() {
        return fail(output, existing);
    }
    let created = match write_new(&args.dir, &files) {
        Ok(created) => created,
        Err(d) => return fail(output, vec![*d]),
    };

    let dir = args.dir.display().to_string();
    let workspace = enclosing_workspace(&args.dir);
    let mut text = format!(
        "created the crate `{name}` in {dir}: {}\nnext: `cd {dir} && cargo test`; the manifests are in {dir}/manifests",
        created.join(", ")
    );
    if let Some(ws) = &workspace {
        text.push_str(&format!(
            "\nnote: {dir} is inside the workspace of {}: add it to that workspace's `members`, or give its Cargo.toml an empty `[workspace]` table, before building",
            ws.display()
        ));
    }
    let summary = Summary::ok(
        text,
        serde_json::json!({
            "name": name,
            "dir": dir,
            "created": created,
            "enclosing_workspace": workspace.map(|w| w.display().to_string()),
        }),
    );
    Reporter::new(output, Stdout::Report).report(&SourceMap::new(), &[], &[], Some(&summary));
    ExitCode::SUCCESS
}

/// Writes `files` under `dir`, each as a new file; the paths written, or the error of the first
/// that could not be written (naming those written before it).
fn write_new(dir: &Path, files: &[(&str, String)]) -> Result<Vec<String>, Box<Diagnostic>> {
    let mut created = Vec::new();
    for (path, contents) in files {
        let full = dir.join(path);
        let written = full
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&full)
            })
            .and_then(|mut f| f.write_all(contents.as_bytes()));
        if let Err(e) = written {
            let mut d =
                Diagnostic::new(Code::Io, format!("cannot write `{}`: {e}", full.display()))
                    .path(&full);
            if !created.is_empty() {
                d = d.help(format!(
                    "these were written before it: {}",
                    created.join(", ")
                ));
            }
            return Err(Box::new(d));
        }
        created.push(path.to_string());
    }
    Ok(created)
}
