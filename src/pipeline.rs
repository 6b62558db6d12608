//! The whole front half of a compile in one call: load, resolve, the config,
//! lint. The command line and the build.rs API both start here, so they
//! report the same problems for the same input; then [`outputs`] emits every
//! file `toolc build` writes.

use crate::config::{self, Config, Options};
use crate::diag::{Diagnostic, SourceMap};
use crate::emit::rust::RustOptions;
use crate::lint::{Finding, LintSettings};
use crate::model::{ResolveOptions, Toolset};
use crate::write::Output;
use std::path::PathBuf;

/// Everything known about a toolset before anything is emitted.
#[derive(Debug)]
pub struct Analyzed {
    pub sources: SourceMap,
    pub toolset: Toolset,
    /// Load, resolve and config problems (lint findings are in `findings`).
    pub diagnostics: Vec<Diagnostic>,
    /// The lint settings: code options over `toolc.toml` over defaults;
    /// `None` when the options themselves are wrong.
    pub settings: Option<LintSettings>,
    pub findings: Vec<Finding>,
    pub config: Config,
    /// Whether the config and the options are usable (no error in them).
    pub config_ok: bool,
    pub manifest_count: usize,
}

impl Analyzed {
    /// Every diagnostic, lint findings included (grouped across dialects).
    pub fn all_diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics
            .iter()
            .cloned()
            .chain(
                crate::lint::group(&self.findings)
                    .iter()
                    .map(|g| g.to_diagnostic()),
            )
            .collect()
    }

    pub fn has_errors(&self) -> bool {
        self.all_diagnostics().iter().any(Diagnostic::is_error)
    }
}

/// Where `toolc.toml` comes from: found beside the manifests, or a given file.
#[derive(Debug, Clone, Default)]
pub enum ConfigSource {
    #[default]
    Discover,
    File(PathBuf),
}

/// Loads, resolves and lints the manifests under `paths`. `code` holds
/// options set in code or on the command line; they win over the file's.
pub fn analyze(
    paths: &[PathBuf],
    resolve: &ResolveOptions,
    config_source: &ConfigSource,
    code: &Options,
) -> Analyzed {
    let checked = crate::check(paths, resolve);
    let mut sources = checked.sources;
    let (config, mut diagnostics) = match config_source {
        ConfigSource::Discover => config::discover(paths, &mut sources),
        ConfigSource::File(p) => config::load(p, &mut sources),
    };
    let settings = match code.clone().or(config.options.clone()).lint_settings() {
        Ok(s) => Some(s),
        Err(e) => {
            diagnostics.extend(e);
            None
        }
    };
    let config_failed = diagnostics.iter().any(Diagnostic::is_error);
    let findings = match (&settings, config_failed) {
        (Some(s), false) => crate::lint::lint_toolset(&checked.toolset, s),
        _ => Vec::new(),
    };
    let mut all = checked.diagnostics.into_vec();
    all.extend(diagnostics);
    Analyzed {
        sources,
        toolset: checked.toolset,
        diagnostics: all,
        settings,
        findings,
        config,
        config_ok: !config_failed,
        manifest_count: checked.manifest_count,
    }
}

/// Every file `toolc build` writes, relative to the output folder: the Rust
/// (`rust/toolset.rs`), the reference (`docs/reference.md`), and each
/// agent's tool list per linted dialect (`tools/<agent>/<dialect>.json`).
pub fn outputs(analyzed: &Analyzed, rust: &RustOptions) -> Result<Vec<Output>, Vec<Diagnostic>> {
    let set = &analyzed.toolset;
    let code = crate::emit::rust::generate(set, rust)?;
    let docs = crate::emit::docs::reference(set)
        .map_err(|e| vec![Diagnostic::new(crate::diag::Code::Io, e)])?;
    let mut out = vec![
        Output {
            path: PathBuf::from("rust").join(crate::DEFAULT_FILE_NAME),
            contents: code,
        },
        Output {
            path: PathBuf::from("docs/reference.md"),
            contents: docs,
        },
    ];
    if let Some(settings) = &analyzed.settings {
        for agent in &set.agents {
            for &dialect in &settings.dialects {
                let emitted = crate::emit::dialect::emit_tool_list(set, agent, dialect, settings);
                let mut text = serde_json::to_string_pretty(&emitted.list).unwrap_or_default();
                text.push('\n');
                out.push(Output {
                    path: PathBuf::from("tools")
                        .join(&agent.name)
                        .join(format!("{}.json", dialect.as_str())),
                    contents: text,
                });
            }
        }
    }
    Ok(out)
}

/// The folders of the output folder whose every file `toolc build` writes:
/// a file there that no output produces is stale.
pub const OWNED_DIRS: &[&str] = &["rust", "docs", "tools"];
