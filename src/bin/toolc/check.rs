//! `toolc check`: load and resolve manifests, report every problem.

use clap::ValueEnum;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use toolc::diag::{Code, render_human, render_json, render_plain};

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Manifest files or folders (folders are searched for .yaml, .yml and .toml).
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    /// How to print diagnostics: `human` (with source excerpts), `plain`
    /// (one line each) or `json`. Default: human on a terminal, plain otherwise.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// When to color human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Human,
    Plain,
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn run(args: CheckArgs) -> ExitCode {
    let checked = toolc::check(&args.paths, &Default::default());
    let stderr_tty = std::io::stderr().is_terminal();
    let format = args.format.unwrap_or(if stderr_tty {
        Format::Human
    } else {
        Format::Plain
    });
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => stderr_tty && std::env::var_os("NO_COLOR").is_none(),
    };
    let t = &checked.toolset;
    let errors = checked.diagnostics.error_count();
    let warnings = checked.diagnostics.warning_count();
    let mut summary = format!(
        "checked {}: {}, {}, {}, {}, {}",
        plural(checked.manifest_count, "file", "files"),
        plural(t.toolboxes.len(), "toolbox", "toolboxes"),
        plural(t.tool_count(), "tool", "tools"),
        plural(t.playbooks.len(), "playbook", "playbooks"),
        plural(t.play_count(), "play", "plays"),
        plural(errors, "error", "errors"),
    );
    if warnings > 0 {
        summary.push_str(&format!(", {}", plural(warnings, "warning", "warnings")));
    }
    let io_error = checked.diagnostics.iter().any(|d| d.code == Code::Io);
    if format == Format::Json {
        let out = serde_json::json!({
            "diagnostics": checked.diagnostics.iter().map(|d| render_json(&checked.sources, d)).collect::<Vec<_>>(),
            "summary": {
                "files": checked.manifest_count,
                "toolboxes": t.toolboxes.len(),
                "tools": t.tool_count(),
                "playbooks": t.playbooks.len(),
                "plays": t.play_count(),
                "errors": errors,
                "warnings": warnings,
            }
        });
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{out:#}");
    } else {
        let mut stderr = std::io::stderr().lock();
        for d in &checked.diagnostics {
            let text = match format {
                Format::Human => render_human(&checked.sources, d, color),
                _ => render_plain(&checked.sources, d),
            };
            let _ = writeln!(stderr, "{text}");
            if format == Format::Human {
                let _ = writeln!(stderr);
            }
        }
        println!("{summary}");
    }
    if io_error {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
