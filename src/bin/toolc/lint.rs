//! `toolc lint`: check manifests, then lint every model-facing schema and
//! tool list for the configured provider dialects.

use clap::ValueEnum;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use toolc::config::{self, Config, Options};
use toolc::diag::{Code, Diagnostic, Severity, SourceMap, render_human, render_json, render_plain};
use toolc::lint::{self, Dialect, Group};
use toolc::pipeline::{ConfigSource, analyze};

#[derive(clap::Args)]
pub struct LintArgs {
    /// Manifest files or folders (folders are searched for .yaml, .yml and .toml).
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    /// Lint for this dialect (repeat, or separate with commas). Default: the
    /// `[lint] dialects` of toolc.toml, else openai-strict, gemini, anthropic, mcp.
    #[arg(long = "dialect", value_name = "DIALECT", value_delimiter = ',', value_parser = parse_dialect)]
    dialects: Vec<Dialect>,
    /// How to print: `human` (with source excerpts), `plain` (one line
    /// each), `json`, or `sarif` (SARIF 2.1.0, for code scanning).
    /// Default: human on a terminal, plain otherwise.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// When to color human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
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

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Plain,
    Json,
    Sarif,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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

/// Prints diagnostics to stderr in a human or plain format.
pub fn print_diagnostics(sources: &SourceMap, diags: &[Diagnostic], human: bool, color: bool) {
    let mut stderr = std::io::stderr().lock();
    for d in diags {
        let text = if human {
            render_human(sources, d, color)
        } else {
            render_plain(sources, d)
        };
        let _ = writeln!(stderr, "{text}");
        if human {
            let _ = writeln!(stderr);
        }
    }
}

/// `(human, color)` for a format choice and a color choice, on stderr.
pub fn human_and_color(format: Option<Format>, color: Color) -> (Format, bool) {
    let tty = std::io::stderr().is_terminal();
    let format = format.unwrap_or(if tty { Format::Human } else { Format::Plain });
    let color = match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => tty && std::env::var_os("NO_COLOR").is_none(),
    };
    (format, color)
}

fn group_json(sources: &SourceMap, g: &Group) -> serde_json::Value {
    let mut v = render_json(sources, &g.to_diagnostic());
    v["dialects"] = g.dialects.iter().map(|d| d.as_str()).collect();
    v["pointer"] = g.finding.pointer.clone().into();
    if let Some(t) = &g.finding.tool {
        v["tool"] = t.clone().into();
    }
    if let Some(r) = g.finding.role {
        v["schema"] = r.as_str().into();
    }
    v
}

pub fn run(args: LintArgs) -> ExitCode {
    let cli = Options {
        dialects: (!args.dialects.is_empty()).then(|| args.dialects.clone()),
        require_describe: args.require_describe.then_some(true),
        deny: (!args.deny.is_empty()).then(|| args.deny.clone()),
        allow: (!args.allow.is_empty()).then(|| args.allow.clone()),
        out_dir: None,
        extensions: None,
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

    let (format, color) = human_and_color(args.format, args.color);
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
    let mut stdout = std::io::stdout().lock();
    match format {
        Format::Sarif => {
            let log = lint::sarif::log(sources, diags, &groups);
            let _ = writeln!(stdout, "{log:#}");
        }
        Format::Json => {
            let out = serde_json::json!({
                "diagnostics": diags.iter().map(|d| render_json(sources, d))
                    .chain(groups.iter().map(|g| group_json(sources, g)))
                    .collect::<Vec<_>>(),
                "summary": {
                    "dialects": settings.as_ref().map(|s| s.dialects.iter().map(|d| d.as_str()).collect::<Vec<_>>()),
                    "tools": t.tool_count(),
                    "plays": t.play_count(),
                    "errors": errors,
                    "warnings": warnings,
                }
            });
            let _ = writeln!(stdout, "{out:#}");
        }
        Format::Human | Format::Plain => {
            print_diagnostics(sources, &all, format == Format::Human, color);
            let _ = writeln!(stdout, "{summary}");
        }
    }
    if io_error || !analyzed.config_ok {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
