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
//! with an [`Error`]) and a small set for tools built on toolc: [`check`] (or [`check_text`])
//! loads and resolves manifests into a [`Checked`], whose [`Diagnostic`]s render with
//! [`render_human`], [`render_plain`] or [`render_json`]; [`analyze`] goes on as `toolc lint`
//! does, into an [`Analysis`] with the lint results ([`Finding`]s of a [`RuleId`] for a
//! [`Dialect`]), each agent's [`ToolList`] as `toolc dump` prints it, and each [`Tool`]'s
//! [`ToolForm`] in every dialect and the [`McpTexts`] its generated descriptor carries;
//! [`check_schema`] and [`check_tool_list`] lint a schema or a provider tool list written
//! outside toolc.
//!
//! Checking a manifest held in memory, as an editor would: an example is judged as the
//! generated dispatcher judges a call, so a `format: date` parameter refuses `"tomorrow"`.
//!
//! ```
//! use std::path::Path;
//!
//! let manifest = r#"
//! version: 1
//! toolboxes:
//!   calendar:
//!     description: Days.
//!     tools:
//!       book_day:
//!         description: Books a day.
//!         parameters:
//!           type: object
//!           properties:
//!             day: { type: string, format: date }
//!           required: [day]
//!         examples: [{ arguments: { day: "tomorrow" } }]
//! "#;
//! let checked = toolc::check_text(
//!     Path::new("."),
//!     Path::new("calendar.yaml"),
//!     manifest.to_owned(),
//!     &toolc::ResolveOptions::default(),
//! );
//! assert!(checked.diagnostics.has_errors());
//! let first = checked.diagnostics.iter().next().expect("one diagnostic");
//! assert_eq!(first.code.as_str(), "invalid-example");
//! // Rendered as `toolc check` prints it, file, line and column first.
//! let text = toolc::render_plain(&checked.sources, first);
//! assert!(text.starts_with("calendar.yaml:14:"), "{text}");
//! ```
//!
//! The diagnostics are defined in a private module and exported here; the stages' modules are
//! private. With the `cli` feature (on by default), `cli::main` is the `toolc` command line.

#![warn(missing_docs)]
#![cfg_attr(all(test, not(feature = "cli")), allow(dead_code))]

mod analysis;
mod builder;
#[cfg(feature = "cli")]
pub mod cli;
mod config;
mod diag;
// `toolc diff`, SARIF, the tool-list files and `toolc build`'s output folder are the command
// line's alone: a build script's toolc, built without it, leaves them out.
#[cfg(feature = "cli")]
mod diff;
mod emit;
// `toolc import`: the command line's alone, beside the pipeline (it reads no stage's output).
#[cfg(feature = "cli")]
mod import;
mod lint;
mod lower;
mod manifest;
mod model;
mod parallel;
mod pipeline;
// `toolc serve` and `toolc call`: the command line's alone, and the only part of toolc that
// links the runtime.
#[cfg(feature = "serve")]
mod serve;
mod stages;
// The stages' tests reach the command line's parts too (`toolc diff`, SARIF, the outputs), so
// they need the `cli` feature (on by default); without it the helpers only they call are unused.
#[cfg(all(test, feature = "cli"))]
mod tests;
mod write;

pub use analysis::{Analysis, Tool, ToolForm, ToolKind, analyze};
pub use builder::{Builder, DEFAULT_FILE_NAME, Error, Report, compile, configure};
pub use config::GeminiForm;
pub use diag::{
    Code, Diagnostic, Diagnostics, FileId, Label, Severity, SourceFile, SourceMap, Span,
};
pub use diag::{did_you_mean, render_human, render_json, render_plain};
pub use lint::{Finding, Hit, RuleId, ToolFacts, check_schema, check_tool_list};
pub use lower::{Dialect, McpTexts, Role};
pub use model::ResolveOptions;
pub use model::rust::TypedFormat;
pub use pipeline::{Checked, ToolList, check, check_text};
