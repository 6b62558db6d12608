//! The `toolc` command line: one module per command. The `toolc` binary is
//! `src/bin/toolc.rs`, a `main` that calls [`main`].

mod build;
mod check;
mod diff;
mod dump;
mod import;
mod init;
mod lint;
mod output;
pub(crate) mod sarif;
mod schema;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "toolc", version, about = "A compiler for LLM-agent toolsets")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    output: output::OutputArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Check manifests and report every problem with its file, line and column.
    Check(check::CheckArgs),
    /// Generate Rust and the other outputs into a folder (default `generated/`).
    Build(build::BuildArgs),
    /// Lint every model-facing schema and tool list for the provider dialects.
    Lint(lint::LintArgs),
    /// Print one agent's tool list in one dialect's request shape.
    Dump(dump::DumpArgs),
    /// Compare the tool surface with another version of the manifests (a git revision or a folder).
    Diff(diff::DiffArgs),
    /// Print the JSON Schema of the manifest format, for editors.
    Schema(schema::SchemaArgs),
    /// Create a crate that generates its toolset from build.rs, ready to build and test.
    Init(init::InitArgs),
    /// Write a manifest of tools that exist elsewhere: an MCP server, a tools/list result, an OpenAPI document.
    ///
    /// The sources: the tools of a running MCP server (over stdio, or streamable HTTP on this
    /// machine), a saved tools/list result, or the operations of an OpenAPI 3.0 or 3.1
    /// document. The manifest NAME.yaml holds one toolbox with every tool and one capability
    /// binding it, so the toolset's implicit agent lists every tool; toolc.toml is written beside
    /// it where the manifest needs one. Every change made to what the source sent is named in a
    /// note. A file is written over only when toolc import wrote it (its first line says so), or
    /// with --force. Exit status: 0 imported (or up to date with --check), 1 a source that cannot
    /// be imported or files that are not what it would write (--check), 2 a usage or I/O error
    /// (a file that cannot be read, a server that cannot be reached, a file it will not write over).
    Import(import::ImportArgs),
}

/// Runs the `toolc` command line on the process's arguments, printing to stdout and stderr,
/// and answers the exit status: 0 when all went well, 1 when problems were found (errors in
/// the manifests or their lint, stale outputs), 2 for usage and I/O errors.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // --help and --version are not errors.
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Check(args) => check::run(args, cli.output),
        Command::Build(args) => build::run(args, cli.output),
        Command::Lint(args) => lint::run(args, cli.output),
        Command::Dump(args) => dump::run(args, cli.output),
        Command::Diff(args) => diff::run(args, cli.output),
        Command::Schema(args) => schema::run(args, cli.output),
        Command::Init(args) => init::run(args, cli.output),
        Command::Import(args) => import::run(args, cli.output),
    }
}
