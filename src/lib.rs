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
//! [`check`] runs load and resolve over manifest paths and returns the IR
//! with every diagnostic found.

mod builder;
pub mod config;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod lint;
pub mod lower;
pub mod manifest;
pub mod model;
pub mod pipeline;
pub mod write;

pub use builder::{Builder, DEFAULT_FILE_NAME, Error, Report, compile, configure};
pub use model::rust::TypedFormat;

use diag::{Diagnostics, SourceMap};
use model::{ResolveOptions, Toolset};
use std::path::PathBuf;

/// The result of checking manifests: the sources read (for rendering
/// diagnostics), the toolset, and the diagnostics.
#[derive(Debug)]
pub struct Checked {
    pub sources: SourceMap,
    pub toolset: Toolset,
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
