//! The `toolc` command line.

mod build;
mod check;
mod diff;
mod dump;
mod init;
mod lint;
mod output;
mod schema;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// A build allocates and frees millions of small nodes (tokens, syntax trees, JSON values);
/// mimalloc does that in about half the time of the system allocator (see BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
}

/// mimalloc's `mi_option_purge_delay` (`mimalloc.h`, `mi_option_e`, the same in its
/// versions 2 and 3); the crate exports no constant for it.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> ExitCode {
    // Never hand freed pages back to the kernel: a run is short, and purging them (10 ms
    // after they are freed, by default) only to fault them in again took the kernel about
    // as long as the time mimalloc saved (`toolc build` of 1,000 tools: 0.2-0.5 s of
    // system time against 0.05 s).
    // SAFETY: sets a process-wide option of mimalloc, which it reads when it purges.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) };
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
    }
}
