//! `toolc call`: one call of one tool through the path `toolc serve` serves it by (the
//! manifests checked, the agent built with its backends, the call run through the runtime's
//! contract), its `ToolResult` printed on stdout.

use super::output::{Format, OutputArgs, Reporter, Stdout};
use super::serve::{CallerArgs, LogArgs, ToolsetArgs, load};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use toolc_runtime::CallContext;

#[derive(clap::Args)]
pub struct CallArgs {
    /// Manifest files or folders (default `manifests`), then the tool or play, then its
    /// arguments as JSON text (`-` reads them from stdin).
    #[arg(value_name = "ARG", required = true)]
    words: Vec<String>,
    #[command(flatten)]
    toolset: ToolsetArgs,
    #[command(flatten)]
    caller: CallerArgs,
    #[command(flatten)]
    log: LogArgs,
    /// A call held for a person's approval is approved at once and run (for scripts and
    /// tests); without it the held call is printed, with its token.
    #[arg(long)]
    approve: bool,
}

pub fn run(args: CallArgs, output: OutputArgs) -> ExitCode {
    // stdout is the result: every report goes to stderr.
    let reporter = Reporter::new(output, Stdout::Product);
    if let Err(message) = args.log.init() {
        return usage(&message);
    }
    let mut words = args.words.clone();
    let (Some(arguments), Some(tool)) = (words.pop(), words.pop()) else {
        return usage("give the tool and its arguments: toolc call [PATHS]... TOOL 'JSON'");
    };
    let arguments = if arguments == "-" {
        let mut text = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut text) {
            return usage(&format!("cannot read the arguments from stdin: {e}"));
        }
        text
    } else {
        arguments
    };
    let paths: Vec<PathBuf> = if words.is_empty() {
        vec![PathBuf::from("manifests")]
    } else {
        words.into_iter().map(PathBuf::from).collect()
    };
    let (_analyzed, built) = match load(&paths, &args.toolset, &reporter) {
        Ok(loaded) => loaded,
        // Nothing was called.
        Err(_) => return ExitCode::from(2),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return usage(&format!("cannot start the async runtime: {e}")),
    };
    let ctx = CallContext::new("toolc-call").with_caller(args.caller.caller());
    let agent = &built.agent;
    let result = runtime.block_on(async {
        let held = agent.call_result(&tool, &arguments, &ctx).await;
        match &held.approval {
            Some(request) if args.approve => agent.approve(request, &ctx).await,
            _ => held,
        }
    });
    let text = match output.format {
        Some(Format::Human) | None => serde_json::to_string_pretty(&result),
        Some(_) => serde_json::to_string(&result),
    }
    .unwrap_or_default();
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{text}");
    if result.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn usage(message: &str) -> ExitCode {
    eprintln!("toolc call: {message}");
    ExitCode::from(2)
}
