//! `toolc dump`: print one agent's tool list in one dialect's request shape.

use super::lint::{load_config, parse_dialect};
use super::output::{OutputArgs, Reporter, Stdout};
use crate::Dialect;
use crate::config::Options;
use crate::did_you_mean;
use crate::lint;
use crate::{Code, Diagnostic};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct DumpArgs {
    /// Manifest files or folders.
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    /// The agent whose tools to list. May be left out when there is one agent.
    #[arg(long)]
    agent: Option<String>,
    /// The dialect: openai, openai-strict, azure-openai-strict, gemini,
    /// gemini-vertex, gemini-jsonschema, anthropic, anthropic-strict or mcp.
    #[arg(long, value_parser = parse_dialect, required_unless_present = "list_agents")]
    dialect: Option<Dialect>,
    /// Print the agents' names, one a line, instead.
    #[arg(long)]
    list_agents: bool,
    /// The config file. Default: toolc.toml in the manifest root, or beside it.
    #[arg(long)]
    config: Option<PathBuf>,
}

pub fn run(args: DumpArgs, output: OutputArgs) -> ExitCode {
    let checked = crate::check(&args.paths, &Default::default());
    let mut sources = checked.sources;
    // stdout is the tool list: every report goes to stderr.
    let reporter = Reporter::new(output, Stdout::Product);
    let mut diags = checked.diagnostics.into_vec();
    let (config, config_diags) = load_config(args.config.as_ref(), &args.paths, &mut sources);
    // A config that cannot be used is a usage error, as for lint and build.
    let config_failed = config_diags.iter().any(Diagnostic::is_error);
    diags.extend(config_diags);
    if diags.iter().any(Diagnostic::is_error) {
        reporter.diagnostics(&sources, &diags);
        let io = diags.iter().any(|d| d.code == Code::Io);
        return ExitCode::from(if io || config_failed { 2 } else { 1 });
    }
    let toolset = &checked.toolset;
    let mut stdout = std::io::stdout().lock();
    if args.list_agents {
        for a in &toolset.agents {
            let _ = writeln!(stdout, "{}", a.name);
        }
        return ExitCode::SUCCESS;
    }
    let Some(dialect) = args.dialect else {
        return ExitCode::from(2);
    };
    let agent = match &args.agent {
        Some(name) => toolset.agents.iter().find(|a| &a.name == name),
        None if toolset.agents.len() == 1 => toolset.agents.first(),
        None => None,
    };
    let Some(agent) = agent else {
        let names = toolset.agents.iter().map(|a| a.name.as_str());
        let mut d = match &args.agent {
            Some(name) => {
                let d = Diagnostic::new(
                    Code::UnknownReference,
                    format!("there is no agent named `{name}`"),
                );
                match did_you_mean(name, names.clone()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d,
                }
            }
            None => Diagnostic::new(
                Code::MissingKey,
                "this toolset has several agents: say which with `--agent`",
            ),
        };
        let all: Vec<&str> = names.collect();
        if d.help.is_none() {
            d = d.help(format!("the agents are {}", all.join(", ")));
        }
        reporter.diagnostics(&sources, &[d]);
        return ExitCode::from(2);
    };
    // The config's grading applies; the dialect is the one asked for (`gemini` being
    // `gemini-jsonschema` when `[lint] gemini_form` says so).
    let dialect = config.options.dialect(dialect);
    let options = Options {
        dialects: Some(vec![dialect]),
        ..Default::default()
    }
    .or(config.options.clone());
    let settings = match options.lint_settings() {
        Ok(s) => s,
        Err(e) => {
            reporter.diagnostics(&sources, &e);
            return ExitCode::from(2);
        }
    };
    let emitted =
        crate::pipeline::tool_list(toolset, agent, dialect, &settings, options_lower(&config));
    reporter.report(&sources, &[], &lint::group(&emitted.findings), None);
    if emitted.has_errors() {
        return ExitCode::from(1);
    }
    let _ = writeln!(stdout, "{:#}", emitted.list);
    ExitCode::SUCCESS
}

/// The lowering options of the config (`[emit] extensions`).
fn options_lower(config: &crate::config::Config) -> crate::lower::Options {
    config.options.lower_options()
}
