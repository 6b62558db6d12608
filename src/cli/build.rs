//! `toolc build`: write the generated Rust and every other output, or check
//! that checked-in outputs are fresh.

use super::output::{OutputArgs, Reporter, Stdout, Summary, plural};
use crate::lint;
use crate::pipeline::{ConfigSource, OWNED_DIRS, build};
use crate::write::{Stale, Written, check_all, write_all};
use crate::{Code, Diagnostic, Severity};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct BuildArgs {
    /// Manifest files or folders.
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    /// The output folder. Default: `[emit] out_dir` of toolc.toml, else `generated`.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The config file. Default: toolc.toml in the manifest root, or beside it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Write nothing; exit 1 naming each output that is missing or stale.
    #[arg(long)]
    check: bool,
}

pub fn run(args: BuildArgs, output: OutputArgs) -> ExitCode {
    let reporter = Reporter::new(output, Stdout::Report);
    let source = args
        .config
        .clone()
        .map_or(ConfigSource::Discover, ConfigSource::File);
    let (analyzed, made) = build(&args.paths, &source, &Default::default());
    // Never freed: the process ends when the command does, and freeing the model and every
    // lowered form node by node took longer than anything the command does after the outputs
    // are written.
    let analyzed = std::mem::ManuallyDrop::new(analyzed);
    let groups = lint::group(&analyzed.findings);
    let mut diags = analyzed.diagnostics.clone();
    let lint_diags: Vec<Diagnostic> = groups.iter().map(|g| g.to_diagnostic()).collect();
    let count = |diags: &[Diagnostic], s: Severity| {
        diags
            .iter()
            .chain(&lint_diags)
            .filter(|d| d.severity == s)
            .count()
    };
    let sources = &analyzed.sources;
    if diags.iter().any(|d| d.code == Code::Io) || !analyzed.config_ok {
        let summary = Summary::failed(
            "error: nothing built",
            serde_json::json!({ "written": [], "stale": [] }),
        );
        reporter.report(sources, &diags, &groups, Some(&summary));
        return ExitCode::from(2);
    }
    let errors = count(&diags, Severity::Error);
    if errors > 0 {
        let summary = nothing_written(errors, "the manifests or their lint");
        reporter.report(sources, &diags, &groups, Some(&summary));
        return ExitCode::from(1);
    }
    let outputs = match made {
        Some(Ok(o)) => o,
        // Nothing is made when something before lint failed, which returned above.
        None => {
            let summary = Summary::failed(
                "internal error: nothing was built",
                serde_json::json!({ "written": [], "stale": [] }),
            );
            reporter.report(sources, &diags, &groups, Some(&summary));
            return ExitCode::from(2);
        }
        Some(Err(emit_diags)) => {
            diags.extend(emit_diags);
            let errors = count(&diags, Severity::Error);
            let summary = nothing_written(errors, "code generation");
            reporter.report(sources, &diags, &groups, Some(&summary));
            return ExitCode::from(1);
        }
    };
    let warnings = count(&diags, Severity::Warning);
    let out = args.out.unwrap_or_else(|| {
        if analyzed.config.path.is_some() {
            analyzed.config.out_dir()
        } else {
            PathBuf::from(crate::config::DEFAULT_OUT_DIR)
        }
    });
    let owned: Vec<PathBuf> = OWNED_DIRS.iter().map(PathBuf::from).collect();
    // A file that cannot be read, written or removed stops the build (exit 2).
    let io_failed = |mut diags: Vec<Diagnostic>, e: std::io::Error, what: &str| {
        let (diag, summary) = io_failure(&out, &e, what);
        diags.push(diag);
        reporter.report(sources, &diags, &groups, Some(&summary));
        ExitCode::from(2)
    };
    if args.check {
        let stale = match check_all(&out, &outputs, &owned) {
            Ok(stale) => stale,
            Err(e) => return io_failed(diags, e, "read"),
        };
        let summary = checked(&out, outputs.len(), warnings, &stale);
        reporter.report(sources, &diags, &groups, Some(&summary));
        return if stale.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
    }
    match write_all(&out, &outputs, &owned) {
        Ok(done) => {
            crate::stages::done("write");
            let summary = wrote(&out, outputs.len(), warnings, &done);
            reporter.report(sources, &diags, &groups, Some(&summary));
            ExitCode::SUCCESS
        }
        Err(e) => io_failed(diags, e, "write"),
    }
}

fn stale_json(s: &Stale) -> serde_json::Value {
    let (why, p) = match s {
        Stale::Missing(p) => ("missing", p),
        Stale::Differs(p) => ("differs", p),
        Stale::Extra(p) => ("no longer generated", p),
    };
    serde_json::json!({ "path": slashed(p), "why": why })
}

/// A path as the JSON output shows it, with `/` between its parts.
fn slashed(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// The summary of `--check`: every output up to date, or the stale ones and what to run.
fn checked(out: &Path, outputs: usize, warnings: usize, stale: &[Stale]) -> Summary {
    let json = serde_json::json!({
        "out_dir": slashed(out),
        "outputs": outputs,
        "warnings": warnings,
        "written": [],
        "stale": stale.iter().map(stale_json).collect::<Vec<_>>(),
    });
    if stale.is_empty() {
        return Summary::ok(
            format!(
                "{} in {} are up to date",
                plural(outputs, "output", "outputs"),
                out.display()
            ),
            json,
        );
    }
    let mut text: String = stale.iter().map(|s| format!("stale: {s}\n")).collect();
    text.push_str(&format!(
        "error: run `toolc build` to regenerate {}",
        out.display()
    ));
    Summary::failed(text, json)
}

/// The summary of a build: what was written, left as it was, and removed.
fn wrote(out: &Path, outputs: usize, warnings: usize, done: &Written) -> Summary {
    let mut text = format!(
        "wrote {} of {} to {} ({} unchanged)",
        done.written.len(),
        plural(outputs, "output", "outputs"),
        out.display(),
        outputs - done.written.len()
    );
    if !done.removed.is_empty() {
        text.push_str(&format!(
            "; removed {} no input produces any more",
            plural(done.removed.len(), "file", "files")
        ));
    }
    Summary::ok(
        text,
        serde_json::json!({
            "out_dir": slashed(out),
            "outputs": outputs,
            "warnings": warnings,
            "written": done.written.iter().map(|p| slashed(p)).collect::<Vec<_>>(),
            "removed": done.removed.iter().map(|p| slashed(p)).collect::<Vec<_>>(),
            "stale": [],
        }),
    )
}

/// The summary of a build stopped by `errors` found in `stage`.
fn nothing_written(errors: usize, stage: &str) -> Summary {
    Summary::failed(
        format!(
            "error: {} in {stage}; nothing written",
            plural(errors, "error", "errors")
        ),
        serde_json::json!({ "errors": errors, "written": [], "stale": [] }),
    )
}

/// The error, and the summary, of an output folder that could not be read or written.
fn io_failure(out: &Path, e: &std::io::Error, what: &str) -> (Diagnostic, Summary) {
    let diag = Diagnostic::new(
        Code::Io,
        format!("cannot {what} the outputs in `{}`: {e}", out.display()),
    )
    .path(out)
    .help("check the folder's permissions, or pass another folder with `--out`");
    let summary = Summary::failed(
        "error: the outputs were not all handled",
        serde_json::json!({ "out_dir": slashed(out), "written": [], "removed": [], "stale": [] }),
    );
    (diag, summary)
}
