//! `toolc build`: write the generated Rust and every other output, or check
//! that checked-in outputs are fresh.

use std::path::PathBuf;
use std::process::ExitCode;
use toolc::diag::render_plain;
use toolc::write::{Output, check_all, write_all};

#[derive(clap::Args)]
pub struct BuildArgs {
    /// Manifest files or folders.
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    /// The output folder.
    #[arg(long, default_value = "generated")]
    out: PathBuf,
    /// Write nothing; exit 1 naming each output that is missing or stale.
    #[arg(long)]
    check: bool,
}

/// Every output of a toolset, relative to the output folder.
fn outputs(checked: &toolc::Checked) -> Result<Vec<Output>, Vec<toolc::diag::Diagnostic>> {
    let rust = toolc::emit::rust::generate(&checked.toolset, &Default::default())?;
    let docs = toolc::emit::docs::reference(&checked.toolset)
        .map_err(|e| vec![toolc::diag::Diagnostic::new(toolc::diag::Code::Io, e)])?;
    Ok(vec![
        Output {
            path: PathBuf::from("rust").join(toolc::DEFAULT_FILE_NAME),
            contents: rust,
        },
        Output {
            path: PathBuf::from("docs/reference.md"),
            contents: docs,
        },
    ])
}

/// The folders whose every file `toolc build` writes.
const OWNED: &[&str] = &["rust", "docs"];

pub fn run(args: BuildArgs) -> ExitCode {
    let checked = toolc::check(&args.paths, &Default::default());
    for d in &checked.diagnostics {
        eprintln!("{}", render_plain(&checked.sources, d));
    }
    if checked
        .diagnostics
        .iter()
        .any(|d| d.code == toolc::diag::Code::Io)
    {
        return ExitCode::from(2);
    }
    if checked.diagnostics.has_errors() {
        eprintln!(
            "error: the manifests have {} error(s); nothing written",
            checked.diagnostics.error_count()
        );
        return ExitCode::from(1);
    }
    let outputs = match outputs(&checked) {
        Ok(o) => o,
        Err(diags) => {
            for d in &diags {
                eprintln!("{}", render_plain(&checked.sources, d));
            }
            return ExitCode::from(1);
        }
    };
    if args.check {
        let owned: Vec<PathBuf> = OWNED.iter().map(PathBuf::from).collect();
        let stale = check_all(&args.out, &outputs, &owned);
        if stale.is_empty() {
            println!(
                "{} outputs in {} are up to date",
                outputs.len(),
                args.out.display()
            );
            return ExitCode::SUCCESS;
        }
        for s in &stale {
            eprintln!("stale: {s}");
        }
        eprintln!(
            "error: run `toolc build` to regenerate {}",
            args.out.display()
        );
        return ExitCode::from(1);
    }
    match write_all(&args.out, &outputs) {
        Ok(written) => {
            println!(
                "wrote {} of {} outputs to {} ({} unchanged)",
                written.len(),
                outputs.len(),
                args.out.display(),
                outputs.len() - written.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write to {}: {e}", args.out.display());
            ExitCode::from(2)
        }
    }
}
