//! The `toolc` command line: one module per command. The `toolc` binary is
//! `src/bin/toolc.rs`, a `main` that calls [`main`].

mod build;
#[cfg(feature = "serve")]
mod call;
mod check;
mod diff;
mod dump;
mod import;
mod init;
mod lint;
mod output;
pub(crate) mod sarif;
mod schema;
#[cfg(feature = "serve")]
mod serve;
#[cfg(feature = "serve")]
mod watch;

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
    /// Serve one agent of the manifests as an MCP server, each tool answered by its backend.
    ///
    /// The manifests are checked and linted as `toolc build` checks them; the agent's tools
    /// are listed as `toolc dump --dialect mcp` prints them, their arguments validated as the
    /// generated dispatcher validates them, and their policies (auth, roles, rate limits,
    /// timeouts, approvals) enforced by the runtime. Each tool is answered by its `backend`
    /// (a mock, an HTTP request, a program), or every one by a mock with --mock. Over stdio by
    /// default; --http serves MCP's streamable HTTP. Exit status: 0 served until the client
    /// left (or SIGTERM), 1 manifests with errors, 2 a usage error or nothing to serve.
    #[cfg(feature = "serve")]
    Serve(Box<serve::ServeArgs>),
    /// Call one tool of the manifests, answered by its backend, and print its ToolResult.
    ///
    /// The call takes the path `toolc serve` serves it by: the manifests checked, the tool's
    /// policies and validation the runtime's, its backend (or a mock with --mock) answering.
    /// The ToolResult is printed on stdout (indented for --format human). Exit status: 0 the
    /// call succeeded, 1 it failed or was held for approval (the result says why), 2 nothing
    /// was called (manifests with errors, an unknown agent, a usage error).
    #[cfg(feature = "serve")]
    Call(call::CallArgs),
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
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(*args, cli.output),
        #[cfg(feature = "serve")]
        Command::Call(args) => call::run(args, cli.output),
    }
}
