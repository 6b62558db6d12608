//! `toolc build`: write the generated Rust and every other output, or check
//! that checked-in outputs are fresh.

use std::path::PathBuf;
use std::process::ExitCode;
use toolc::diag::{Code, render_plain};
use toolc::pipeline::{ConfigSource, OWNED_DIRS, analyze, outputs};
use toolc::write::{check_all, write_all};

#[derive(clap::Args)]
pub struct BuildArgs {
    /// Manifest files or folders.
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    /// The output folder. Default: `[emit] out_dir` of toolc.toml, else `generated`.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The config file. Default: toolc.toml in the manifest root, or beside it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Write nothing; exit 1 naming each output that is missing or stale.
    #[arg(long)]
    check: bool,
}

pub fn run(args: BuildArgs) -> ExitCode {
    let source = args
        .config
        .clone()
        .map_or(ConfigSource::Discover, ConfigSource::File);
    let analyzed = analyze(
        &args.paths,
        &Default::default(),
        &source,
        &Default::default(),
    );
    let diags = analyzed.all_diagnostics();
    for d in &diags {
        eprintln!("{}", render_plain(&analyzed.sources, d));
    }
    if diags.iter().any(|d| d.code == Code::Io) {
        return ExitCode::from(2);
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    if errors > 0 {
        eprintln!("error: {errors} error(s) in the manifests or their lint; nothing written");
        return ExitCode::from(1);
    }
    let outputs = match outputs(&analyzed, &Default::default()) {
        Ok(o) => o,
        Err(diags) => {
            for d in &diags {
                eprintln!("{}", render_plain(&analyzed.sources, d));
            }
            return ExitCode::from(1);
        }
    };
    let out = args.out.unwrap_or_else(|| {
        if analyzed.config.path.is_some() {
            analyzed.config.out_dir()
        } else {
            PathBuf::from(toolc::config::DEFAULT_OUT_DIR)
        }
    });
    if args.check {
        let owned: Vec<PathBuf> = OWNED_DIRS.iter().map(PathBuf::from).collect();
        let stale = check_all(&out, &outputs, &owned);
        if stale.is_empty() {
            println!(
                "{} outputs in {} are up to date",
                outputs.len(),
                out.display()
            );
            return ExitCode::SUCCESS;
        }
        for s in &stale {
            eprintln!("stale: {s}");
        }
        eprintln!("error: run `toolc build` to regenerate {}", out.display());
        return ExitCode::from(1);
    }
    match write_all(&out, &outputs) {
        Ok(written) => {
            println!(
                "wrote {} of {} outputs to {} ({} unchanged)",
                written.len(),
                outputs.len(),
                out.display(),
                outputs.len() - written.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write to {}: {e}", out.display());
            ExitCode::from(2)
        }
    }
}
