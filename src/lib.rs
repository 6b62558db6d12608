//! toolc: a compiler for LLM-agent toolsets.
//!
//! Manifests (YAML or TOML) describe tools, playbooks, manuals, capabilities
//! and agents. The pipeline runs one way:
//!
//! ```text
//! manifest files ──load──▶ raw structs ──resolve──▶ Toolset (the IR) ──lower──▶ provider forms
//!     ──lint──▶ findings ──emit──▶ outputs
//! ```
//!
//! The API is what a `build.rs` calls ([`compile`], [`configure`] and the [`Builder`], failing
//! with an [`Error`]) and a small set for tools built on toolc: [`check`] loads and resolves
//! manifests into a [`Checked`], whose [`Diagnostic`]s render with [`render_human`],
//! [`render_plain`] or [`render_json`]; lint results are [`Finding`]s of a [`RuleId`] for a
//! [`Dialect`], and [`check_schema`] and [`check_tool_list`] lint a schema or a provider tool
//! list written outside toolc.
//!
//! The diagnostics are defined in a private module and exported here. The stages' modules are
//! internal: they are reachable (hidden from the documentation) for
//! the `toolc` command line, the benches, the fuzz target and the repository's tests only, and
//! change without notice.

#![warn(missing_docs)]

mod builder;
#[doc(hidden)]
pub mod config;
mod diag;
#[doc(hidden)]
pub mod diff;
#[doc(hidden)]
pub mod emit;
#[doc(hidden)]
pub mod lint;
#[doc(hidden)]
pub mod lower;
#[doc(hidden)]
pub mod manifest;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod pipeline;
#[doc(hidden)]
pub mod write;

pub use builder::{Builder, DEFAULT_FILE_NAME, Error, Report, compile, configure};
pub use diag::{
    Code, Diagnostic, Diagnostics, FileId, Label, Severity, SourceFile, SourceMap, Span,
};
pub use diag::{did_you_mean, render_human, render_json, render_plain};
pub use lint::{Finding, Hit, RuleId, ToolFacts, check_schema, check_tool_list};
pub use lower::{Dialect, Role};
pub use model::ResolveOptions;
pub use model::rust::TypedFormat;

use std::path::PathBuf;

/// The result of checking manifests: the sources read (for rendering
/// diagnostics), the toolset, and the diagnostics.
#[derive(Debug)]
pub struct Checked {
    /// The files read, by [`Span`]: what [`render_human`] and friends quote.
    pub sources: SourceMap,
    /// The resolved toolset (the intermediate representation, internal).
    pub toolset: model::Toolset,
    /// Every problem found, sorted by file and position.
    pub diagnostics: Diagnostics,
    /// How many manifest files were read.
    pub manifest_count: usize,
}

/// Loads and resolves the manifests under `paths` (files or folders).
pub fn check(paths: &[PathBuf], options: &ResolveOptions) -> Checked {
    let mut loaded = manifest::load(paths);
    let manifest_count = loaded.sources.files().count();
    let toolset = model::resolve(&mut loaded, options);
    let mut diagnostics = std::mem::take(&mut loaded.diagnostics);
    diagnostics.sort();
    Checked {
        sources: loaded.sources,
        toolset,
        diagnostics,
        manifest_count,
    }
}
