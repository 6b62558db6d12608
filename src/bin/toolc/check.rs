//! `toolc check`: load and resolve manifests, report every problem.

use crate::output::{OutputArgs, Reporter, Stdout, Summary, plural};
use std::path::PathBuf;
use std::process::ExitCode;
use toolc::diag::Code;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Manifest files or folders (folders are searched for .yaml, .yml and .toml).
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
}

pub fn run(args: CheckArgs, output: OutputArgs) -> ExitCode {
    let checked = toolc::check(&args.paths, &Default::default());
    let t = &checked.toolset;
    let errors = checked.diagnostics.error_count();
    let warnings = checked.diagnostics.warning_count();
    let mut text = format!(
        "checked {}: {}, {}, {}, {}, {}",
        plural(checked.manifest_count, "file", "files"),
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
            "files": checked.manifest_count,
            "toolboxes": t.toolboxes.len(),
            "tools": t.tool_count(),
            "playbooks": t.playbooks.len(),
            "plays": t.play_count(),
            "errors": errors,
            "warnings": warnings,
        }),
    );
    let diags = checked.diagnostics.into_vec();
    Reporter::new(output, Stdout::Report).report(&checked.sources, &diags, &[], Some(&summary));
    if diags.iter().any(|d| d.code == Code::Io) {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
