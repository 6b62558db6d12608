//! `toolc check`: everything `toolc build` checks (load, resolve, the config,
//! lower, lint), with nothing written: every problem a build would report.

use super::output::{OutputArgs, Reporter, Stdout, Summary, plural};
use crate::lint;
use crate::pipeline::{ConfigSource, analyze};
use crate::{Code, Diagnostic, Severity};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Manifest files or folders (folders are searched for .yaml, .yml and .toml).
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    /// The config file. Default: toolc.toml in the manifest root, or beside it.
    #[arg(long)]
    config: Option<PathBuf>,
}

pub fn run(args: CheckArgs, output: OutputArgs) -> ExitCode {
    let source = args
        .config
        .map_or(ConfigSource::Discover, ConfigSource::File);
    // Never freed, as in `toolc build`: the process ends with the command.
    let analyzed = std::mem::ManuallyDrop::new(analyze(
        &args.paths,
        &Default::default(),
        &source,
        &Default::default(),
    ));
    let groups = lint::group(&analyzed.findings);
    let lint_diags: Vec<Diagnostic> = groups.iter().map(|g| g.to_diagnostic()).collect();
    let count = |s: Severity| {
        analyzed
            .diagnostics
            .iter()
            .chain(&lint_diags)
            .filter(|d| d.severity == s)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let t = &analyzed.toolset;
    let mut text = format!(
        "checked {}: {}, {}, {}, {}, {}",
        plural(analyzed.manifest_count, "file", "files"),
        plural(t.toolboxes.len(), "toolbox", "toolboxes"),
        plural(t.tool_count(), "tool", "tools"),
        plural(t.playbooks.len(), "playbook", "playbooks"),
        plural(t.play_count(), "play", "plays"),
        plural(errors, "error", "errors"),
    );
    if warnings > 0 {
        text.push_str(&format!(", {}", plural(warnings, "warning", "warnings")));
    }
    let summary = Summary::ok(
        text,
        serde_json::json!({
            "files": analyzed.manifest_count,
            "toolboxes": t.toolboxes.len(),
            "tools": t.tool_count(),
            "playbooks": t.playbooks.len(),
            "plays": t.play_count(),
            "errors": errors,
            "warnings": warnings,
        }),
    );
    Reporter::new(output, Stdout::Report).report(
        &analyzed.sources,
        &analyzed.diagnostics,
        &groups,
        Some(&summary),
    );
    if analyzed.diagnostics.iter().any(|d| d.code == Code::Io) || !analyzed.config_ok {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
