//! `toolc lint`: check manifests, then lint every model-facing schema and
//! tool list for the configured provider dialects.

use super::output::{OutputArgs, Reporter, Stdout, Summary, plural};
use crate::Dialect;
use crate::config::{self, Config, Options};
use crate::lint;
use crate::pipeline::{ConfigSource, analyze};
use crate::{Code, Diagnostic, Severity, SourceMap};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct LintArgs {
    /// Manifest files or folders (folders are searched for .yaml, .yml and .toml).
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    /// Lint for this dialect (repeat, or separate with commas). Default: the
    /// `[lint] dialects` of toolc.toml, else openai-strict, gemini, anthropic, mcp.
    /// `openai` is tool calling without strict mode; strict mode (Structured
    /// Outputs, what other schema linters call `openai`) is `openai-strict`.
    #[arg(long = "dialect", value_name = "DIALECT", value_delimiter = ',', value_parser = parse_dialect)]
    dialects: Vec<Dialect>,
    /// Warn about properties without a description.
    #[arg(long)]
    require_describe: bool,
    /// Raise a rule to an error (repeatable); replaces toolc.toml's `deny`.
    #[arg(long = "deny", value_name = "RULE", value_delimiter = ',')]
    deny: Vec<String>,
    /// Silence a rule (repeatable); replaces toolc.toml's `allow`.
    #[arg(long = "allow", value_name = "RULE", value_delimiter = ',')]
    allow: Vec<String>,
    /// The config file. Default: toolc.toml in the manifest root, or beside it.
    #[arg(long)]
    config: Option<PathBuf>,
}

pub fn parse_dialect(s: &str) -> Result<Dialect, String> {
    s.parse()
}

/// Loads the config (the one given, or the one found), adding it to `sources`.
pub fn load_config(
    explicit: Option<&PathBuf>,
    paths: &[PathBuf],
    sources: &mut SourceMap,
) -> (Config, Vec<Diagnostic>) {
    match explicit {
        Some(p) => config::load(p, sources),
        None => config::discover(paths, sources),
    }
}

pub fn run(args: LintArgs, output: OutputArgs) -> ExitCode {
    let cli = Options {
        dialects: (!args.dialects.is_empty()).then(|| args.dialects.clone()),
        require_describe: args.require_describe.then_some(true),
        deny: (!args.deny.is_empty()).then(|| args.deny.clone()),
        allow: (!args.allow.is_empty()).then(|| args.allow.clone()),
        ..Default::default()
    };
    let source = args
        .config
        .clone()
        .map_or(ConfigSource::Discover, ConfigSource::File);
    let analyzed = analyze(&args.paths, &Default::default(), &source, &cli);
    let all = analyzed.all_diagnostics();
    let groups = lint::group(&analyzed.findings);
    let (sources, settings, diags) = (&analyzed.sources, &analyzed.settings, &analyzed.diagnostics);
    let count = |s: Severity| all.iter().filter(|d| d.severity == s).count();
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let io_error = diags.iter().any(|d| d.code == Code::Io);

    let dialects = settings
        .as_ref()
        .map(|s| {
            s.dialects
                .iter()
                .map(|d| d.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    let t = &analyzed.toolset;
    let mut summary = format!(
        "linted {} and {} for {}: {}",
        plural(t.tool_count(), "tool", "tools"),
        plural(t.play_count(), "play", "plays"),
        if dialects.is_empty() {
            "no dialect"
        } else {
            &dialects
        },
        plural(errors, "error", "errors"),
    );
    if warnings > 0 {
        summary.push_str(&format!(", {}", plural(warnings, "warning", "warnings")));
    }
    let summary = Summary::ok(
        summary,
        serde_json::json!({
            "dialects": settings.as_ref().map(|s| s.dialects.iter().map(|d| d.as_str()).collect::<Vec<_>>()),
            "tools": t.tool_count(),
            "plays": t.play_count(),
            "errors": errors,
            "warnings": warnings,
        }),
    );
    Reporter::new(output, Stdout::Report).report(sources, diags, &groups, Some(&summary));
    if io_error || !analyzed.config_ok {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
