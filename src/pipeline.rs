//! The whole front half of a compile in one call: load, resolve, the config,
//! lower, lint. The command line and the build.rs API both start here, so
//! they report the same problems for the same input; then [`outputs`] emits
//! every file `toolc build` writes from what was lowered, lowering nothing
//! again.

use crate::config::{self, Config, Options};
use crate::diag::{Diagnostic, Diagnostics, SourceMap};
#[cfg(feature = "cli")]
use crate::emit::rust::RustOptions;
use crate::lint::{Finding, LintSettings};
use crate::lower::{Dialect, Lowered};
use crate::model::{ResolveOptions, Toolset};
#[cfg(feature = "cli")]
use crate::write::Output;
use std::path::{Path, PathBuf};

/// The result of checking manifests: the sources read (for rendering
/// diagnostics) and the diagnostics.
#[derive(Debug)]
pub struct Checked {
    /// The files read, by [`Span`]: what [`render_human`] and friends quote.
    pub sources: SourceMap,
    /// The resolved toolset (the intermediate representation).
    pub(crate) toolset: crate::model::Toolset,
    /// Every problem found, sorted by file and position.
    pub diagnostics: Diagnostics,
    /// How many manifest files were read.
    pub manifest_count: usize,
}

/// Loads and resolves the manifests under `paths` (files or folders).
pub fn check(paths: &[PathBuf], options: &ResolveOptions) -> Checked {
    checked(crate::manifest::load(paths), options)
}

/// Loads and resolves one manifest given as text, as [`check`] does a file: `path` names it in
/// diagnostics and its extension picks the format (`.toml` is TOML, anything else YAML), and
/// manual files are read under `root`. For editors and fuzzers that hold the text.
pub fn check_text(root: &Path, path: &Path, text: String, options: &ResolveOptions) -> Checked {
    let mut loaded = crate::manifest::Loaded::default();
    crate::manifest::load_str(&mut loaded, root, path, text);
    checked(loaded, options)
}

fn checked(mut loaded: crate::manifest::Loaded, options: &ResolveOptions) -> Checked {
    let manifest_count = loaded.sources.files().count();
    let toolset = crate::model::resolve(&mut loaded, options);
    let mut diagnostics = std::mem::take(&mut loaded.diagnostics);
    diagnostics.sort();
    Checked {
        sources: loaded.sources,
        toolset,
        diagnostics,
        manifest_count,
    }
}

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
    /// Every tool in each linted dialect's form, and MCP's (without their origins after
    /// [`analyze`], which only lint reads).
    pub lowered: Lowered,
    pub findings: Vec<Finding>,
    pub config: Config,
    /// Whether the config and the options are usable (no error in them).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub config_ok: bool,
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
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
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    File(PathBuf),
}

/// Loads, resolves and lints the manifests under `paths`. `code` holds
/// options set in code or on the command line; they win over the file's.
/// The typed formats of these options (code, else the file) replace those
/// of `resolve`.
pub fn analyze(
    paths: &[PathBuf],
    resolve: &ResolveOptions,
    config_source: &ConfigSource,
    code: &Options,
) -> Analyzed {
    let mut prepared = prepare(paths, resolve, config_source, code);
    let findings = prepared.lint();
    // Only lint locates through the origins, and it has run: what is emitted from this
    // analysis is made with less memory.
    prepared.lowered.forget_origins();
    prepared.finish(findings)
}

/// What the emitters read: the toolset, its lowered forms and the lint settings.
#[cfg(feature = "cli")]
#[derive(Clone, Copy)]
pub struct Front<'a> {
    pub toolset: &'a Toolset,
    pub lowered: &'a Lowered,
    pub settings: Option<&'a LintSettings>,
}

impl Analyzed {
    /// What the emitters read of this analysis.
    #[cfg(all(test, feature = "cli"))]
    pub fn front(&self) -> Front<'_> {
        Front {
            toolset: &self.toolset,
            lowered: &self.lowered,
            settings: self.settings.as_ref(),
        }
    }
}

/// Everything known before lint: the manifests loaded and resolved, the config read, every
/// tool lowered.
struct Prepared {
    sources: SourceMap,
    toolset: Toolset,
    /// Load and resolve problems, then config problems.
    diagnostics: Vec<Diagnostic>,
    settings: Option<LintSettings>,
    lowered: Lowered,
    config: Config,
    config_failed: bool,
    manifest_count: usize,
}

fn prepare(
    paths: &[PathBuf],
    resolve: &ResolveOptions,
    config_source: &ConfigSource,
    code: &Options,
) -> Prepared {
    // The Rust type plan, made in resolve, reads the config's typed formats:
    // read the file's options first (its problems are reported below).
    crate::stages::start();
    let mut resolve = resolve.clone();
    let typed = code.typed_formats.clone().or_else(|| {
        load_config(paths, config_source, &mut SourceMap::new())
            .0
            .options
            .typed_formats
    });
    if let Some(typed) = typed {
        resolve.typed_formats = typed;
    }
    let mut checked = check(paths, &resolve);
    let mut sources = checked.sources;
    let (config, config_diagnostics) = load_config(paths, config_source, &mut sources);
    let mut diagnostics = checked.diagnostics.into_vec();
    // Resolve's warnings that `deny` and `allow` grade as they grade lint rules.
    let (denied, allowed) = code.clone().or(config.options.clone()).graded_codes();
    diagnostics.retain(|d| !allowed.contains(&d.code));
    for d in diagnostics.iter_mut().filter(|d| denied.contains(&d.code)) {
        d.severity = crate::diag::Severity::Error;
    }
    let loaded = diagnostics.len();
    diagnostics.extend(config_diagnostics);
    let settings = match code.clone().or(config.options.clone()).lint_settings() {
        Ok(s) => Some(s),
        Err(e) => {
            diagnostics.extend(e);
            None
        }
    };
    let config_failed = diagnostics[loaded..].iter().any(Diagnostic::is_error);
    let options = code.clone().or(config.options.clone());
    checked
        .toolset
        .apply_policy_defaults(options.policy_defaults());
    let dialects: Vec<Dialect> = settings
        .as_ref()
        .map_or_else(|| Dialect::DEFAULT.to_vec(), |s| s.dialects.clone());
    crate::stages::done("load and resolve");
    let lowered = crate::lower::lower(&checked.toolset, &dialects, options.lower_options());
    crate::stages::done("lower");
    Prepared {
        sources,
        toolset: checked.toolset,
        diagnostics,
        settings,
        lowered,
        config,
        config_failed,
        manifest_count: checked.manifest_count,
    }
}

impl Prepared {
    /// Lint's findings (none when the config is wrong).
    fn lint(&self) -> Vec<Finding> {
        let findings = match (&self.settings, self.config_failed) {
            (Some(s), false) => crate::lint::lint_toolset(&self.toolset, &self.lowered, s),
            _ => Vec::new(),
        };
        crate::stages::done("lint");
        findings
    }

    #[cfg(feature = "cli")]
    fn front(&self) -> Front<'_> {
        Front {
            toolset: &self.toolset,
            lowered: &self.lowered,
            settings: self.settings.as_ref(),
        }
    }

    fn finish(self, findings: Vec<Finding>) -> Analyzed {
        Analyzed {
            sources: self.sources,
            toolset: self.toolset,
            diagnostics: self.diagnostics,
            settings: self.settings,
            lowered: self.lowered,
            findings,
            config: self.config,
            config_ok: !self.config_failed,
            manifest_count: self.manifest_count,
        }
    }
}

/// [`analyze`], then every output [`outputs`] makes, when nothing before lint failed (else
/// `None`). Lint runs on a second thread, and then the reference and the tool lists, while
/// this one emits the Rust; what was emitted is for the caller to drop when lint finds an
/// error.
#[cfg(feature = "cli")]
pub fn build(
    paths: &[PathBuf],
    config_source: &ConfigSource,
    rust: &RustOptions,
) -> (Analyzed, Option<Emitted>) {
    let prepared = prepare(
        paths,
        &Default::default(),
        config_source,
        &Default::default(),
    );
    if prepared.config_failed || prepared.diagnostics.iter().any(Diagnostic::is_error) {
        let findings = prepared.lint();
        return (prepared.finish(findings), None);
    }
    let (findings, outputs) = emit_beside(prepared.front(), rust, || prepared.lint(), true);
    (prepared.finish(findings), Some(outputs))
}

fn load_config(
    paths: &[PathBuf],
    source: &ConfigSource,
    sources: &mut SourceMap,
) -> (Config, Vec<Diagnostic>) {
    match source {
        ConfigSource::Discover => config::discover(paths, sources),
        ConfigSource::File(p) => config::load(p, sources),
    }
}

/// Every output, or why the Rust could not be generated.
#[cfg(feature = "cli")]
pub type Emitted = Result<Vec<Output>, Vec<Diagnostic>>;

/// Every file `toolc build` writes, relative to the output folder: the Rust
/// (`rust/toolset.rs`), the reference (`docs/reference.md`), and each
/// agent's tool list per linted dialect (`tools/<agent>/<dialect>.json`).
/// Made on this thread alone, so that a test counting what this thread lowers would see any
/// lowering the emitters did (they do none).
#[cfg(all(test, feature = "cli"))]
pub fn outputs(front: Front<'_>, rust: &RustOptions) -> Emitted {
    emit_beside(front, rust, || (), false).1
}

/// Every output, as [`outputs`] lists them, and what `first` gives: with `threads`, `first`
/// runs on a second thread, then the reference and the tool lists are made there, while this
/// thread makes the Rust (the longest of them), which that thread then helps with
/// ([`generate_beside`](crate::emit::rust::generate_beside)). A machine with one core runs
/// them in turn.
#[cfg(feature = "cli")]
fn emit_beside<T: Send>(
    front: Front<'_>,
    rust: &RustOptions,
    first: impl Fn() -> T + Sync,
    threads: bool,
) -> (T, Emitted) {
    let second = || {
        crate::stages::start();
        let t = first();
        (t, docs_and_lists(front))
    };
    let ((t, rest), code) =
        crate::emit::rust::generate_beside(front.toolset, front.lowered, rust, second, threads);
    crate::stages::done("emit the Rust");
    let outputs = code.and_then(|code| {
        let mut out = vec![Output {
            path: PathBuf::from("rust").join(crate::DEFAULT_FILE_NAME),
            contents: code,
        }];
        out.extend(rest?);
        Ok(out)
    });
    (t, outputs)
}

/// The reference and each agent's tool list in each linted dialect.
#[cfg(feature = "cli")]
fn docs_and_lists(front: Front<'_>) -> Emitted {
    let set = front.toolset;
    let docs = crate::emit::docs::reference(set)
        .map_err(|e| vec![Diagnostic::new(crate::diag::Code::Io, e)])?;
    crate::stages::done("emit the reference");
    let mut out = vec![Output {
        path: PathBuf::from("docs/reference.md"),
        contents: docs,
    }];
    if let Some(settings) = front.settings {
        for agent in &set.agents {
            for &dialect in &settings.dialects {
                let text = crate::emit::lists::list_text(front.lowered, set, agent, dialect);
                out.push(Output {
                    path: PathBuf::from("tools")
                        .join(&agent.name)
                        .join(format!("{}.json", dialect.as_str())),
                    contents: text,
                });
            }
        }
    }
    crate::stages::done("emit the tool lists");
    Ok(out)
}

/// One agent's tool list in one dialect, with what linting it found: made by
/// [`Analysis::tool_list`](crate::Analysis::tool_list).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolList {
    /// The list in the dialect's request shape: the OpenAI `tools` array,
    /// `{"functionDeclarations": [...]}` for Gemini, the Anthropic `tools`
    /// array, or an MCP `tools/list` result `{"tools": [...]}`.
    pub list: serde_json::Value,
    /// The findings about the agent's tools and the list, in this dialect.
    pub findings: Vec<Finding>,
}

impl ToolList {
    /// Whether a provider would reject the list.
    pub fn has_errors(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.severity == crate::diag::Severity::Error)
    }
}

/// One agent's tool list in one dialect, lowered and linted on its own: what
/// `toolc dump` prints, and a convenience for tools built on toolc. The
/// findings are those of the agent's tools and list.
pub fn tool_list(
    toolset: &Toolset,
    agent: &crate::model::Agent,
    dialect: Dialect,
    settings: &LintSettings,
    options: crate::lower::Options,
) -> ToolList {
    let lowered = crate::lower::lower(toolset, &[dialect], options);
    let settings = LintSettings {
        dialects: vec![dialect],
        ..settings.clone()
    };
    let agent_ops = toolset.agent_operations(agent);
    let names: Vec<&str> = toolset
        .operations()
        .enumerate()
        .filter(|(i, _)| agent_ops.contains(i))
        .map(|(_, t)| t.name.as_str())
        .collect();
    let findings = crate::lint::lint_toolset(toolset, &lowered, &settings)
        .into_iter()
        .filter(|f| f.tool.as_deref().is_none_or(|t| names.contains(&t)))
        .collect();
    ToolList {
        list: lowered.list(toolset, agent, dialect),
        findings,
    }
}

/// The folders of the output folder whose every file `toolc build` writes:
/// a file there that no output produces is stale, and `toolc build` removes it.
#[cfg(feature = "cli")]
pub const OWNED_DIRS: &[&str] = &["rust", "docs", "tools"];
