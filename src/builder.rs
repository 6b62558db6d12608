//! The build.rs API: compile manifests into Rust in `OUT_DIR`, the way
//! `tonic-build` and `prost-build` work.

use crate::emit::rust::{AttrRule, RustOptions};
use crate::lower::Dialect;
use crate::model::ResolveOptions;
use crate::model::rust::TypedFormat;
use crate::pipeline::{ConfigSource, analyze};
use std::fmt;
use std::path::{Path, PathBuf};

/// The name of the generated file in the output folder.
pub const DEFAULT_FILE_NAME: &str = "toolset.rs";

/// Why a compile failed: the rendered diagnostics, ready to print. Its
/// `Debug` is the same text, so `fn main() -> Result<(), Box<dyn Error>>`
/// in a build script prints the diagnostics, not a struct.
#[derive(Clone)]
pub struct Error {
    message: String,
}

impl Error {
    fn new(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// What a successful compile did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The generated Rust file.
    pub output: PathBuf,
    /// Whether the output's bytes changed (and so were written).
    pub written: bool,
    /// Every file and folder read, as printed in `cargo:rerun-if-changed`.
    pub inputs: Vec<PathBuf>,
    /// Warnings found (also printed as `cargo:warning=`).
    pub warnings: Vec<String>,
    /// The `cargo:` lines printed to stdout (none when cargo instructions
    /// are off).
    pub cargo_lines: Vec<String>,
}

/// Configures a compile. Start with [`configure`].
#[derive(Debug, Clone)]
pub struct Builder {
    manifests: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    file_name: String,
    rust: RustOptions,
    name: Option<String>,
    cargo_instructions: Option<bool>,
    /// Lint options set in code; they win over `toolc.toml`'s.
    lint: crate::config::Options,
    /// Dialect names that did not parse, reported by `compile`.
    bad_dialects: Vec<String>,
}

/// A builder with the defaults: no manifests yet, output to `OUT_DIR`.
pub fn configure() -> Builder {
    Builder {
        manifests: Vec::new(),
        out_dir: None,
        file_name: DEFAULT_FILE_NAME.to_string(),
        rust: RustOptions::default(),
        name: None,
        cargo_instructions: None,
        lint: Default::default(),
        bad_dialects: Vec::new(),
    }
}

/// Compiles the manifests under `path` (a file or folder) into
/// `$OUT_DIR/toolset.rs`, for `toolc_runtime::include_toolset!()`.
pub fn compile(path: impl AsRef<Path>) -> Result<Report, Error> {
    configure().manifest(path).compile()
}

impl Builder {
    /// Adds a manifest file or folder.
    pub fn manifest(mut self, path: impl AsRef<Path>) -> Self {
        self.manifests.push(path.as_ref().to_path_buf());
        self
    }

    /// Adds several manifest files or folders.
    pub fn manifests<P: AsRef<Path>>(mut self, paths: impl IntoIterator<Item = P>) -> Self {
        self.manifests
            .extend(paths.into_iter().map(|p| p.as_ref().to_path_buf()));
        self
    }

    /// Where to write (default: the `OUT_DIR` cargo gives build scripts).
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The generated file's name (default `toolset.rs`).
    pub fn file_name(mut self, name: impl Into<String>) -> Self {
        self.file_name = name.into();
        self
    }

    /// The toolset's name, which an implicit agent takes (default: the
    /// manifest folder's name).
    pub fn toolset_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Whether handler futures must be `Send` (default true). Without it no
    /// dispatchers or agents are generated: the runtime serves `Send` futures.
    pub fn send(mut self, send: bool) -> Self {
        self.rust.send = send;
        self
    }

    /// Whether every generated type derives both `Serialize` and
    /// `Deserialize` (default false: parameter types derive `Deserialize`
    /// and result types `Serialize`, the way the dispatcher moves them, and
    /// both only for what delegates call, scope types and named types no tool
    /// uses). Turn it on to write parameters or read results as JSON yourself.
    pub fn serde_both_ways(mut self, both: bool) -> Self {
        self.rust.serde_both_ways = both;
        self
    }

    /// Puts an attribute such as `#[derive(Hash)]` on the generated types a
    /// selector matches: `*`, a type name, or `module::Name` (`types`, or a
    /// toolbox or playbook name). A selector that matches nothing is an error.
    pub fn type_attribute(
        mut self,
        selector: impl Into<String>,
        attribute: impl Into<String>,
    ) -> Self {
        self.rust.attributes.push(AttrRule {
            selector: selector.into(),
            attribute: attribute.into(),
        });
        self
    }

    /// Adds derives (`"Hash, Eq"`) to the types a selector matches.
    pub fn derive(self, selector: impl Into<String>, derives: &str) -> Self {
        self.type_attribute(selector, format!("#[derive({derives})]"))
    }

    /// The provider dialects to lint for (`openai-strict`, `gemini`, …;
    /// default: `toolc.toml`'s, else openai-strict, gemini, anthropic, mcp).
    /// A lint error fails the compile unless the rule is allowed.
    pub fn dialects<S: AsRef<str>>(mut self, dialects: impl IntoIterator<Item = S>) -> Self {
        let mut list = Vec::new();
        for d in dialects {
            match Dialect::parse(d.as_ref()) {
                Some(d) => list.push(d),
                None => self.bad_dialects.push(d.as_ref().to_string()),
            }
        }
        self.lint.dialects = Some(list);
        self
    }

    /// Which of Gemini's forms the `gemini` dialect stands for: `parameters` (the default) or
    /// `parametersJsonSchema`, under which `gemini` is linted and listed as
    /// `gemini-jsonschema`; `[lint] gemini_form` of `toolc.toml`.
    pub fn gemini_form(mut self, form: crate::GeminiForm) -> Self {
        self.lint.gemini_form = Some(form);
        self
    }

    /// Lists objects that declare properties and take other keys closed where the dialect has
    /// no such object (a loss: the model can send only the declared properties);
    /// `[lower] close_objects` of `toolc.toml`.
    pub fn close_objects(mut self, on: bool) -> Self {
        self.lint.close_objects = Some(on);
        self
    }

    /// Says the keywords a dialect cannot state in the description instead of leaving them
    /// for the lint to refuse (a loss: the provider no longer holds the model to them);
    /// `[lower] describe_unsupported` of `toolc.toml`.
    pub fn describe_unsupported(mut self, on: bool) -> Self {
        self.lint.describe_unsupported = Some(on);
        self
    }

    /// Warn about tools and properties without a description.
    pub fn require_describe(mut self, on: bool) -> Self {
        self.lint.require_describe = Some(on);
        self
    }

    /// Keeps the `x-` extension keys of schemas in the model-facing forms
    /// (the MCP listing the generated descriptors carry); `[emit] extensions`
    /// of `toolc.toml`.
    pub fn extensions(mut self, keep: bool) -> Self {
        self.lint.extensions = Some(keep);
        self
    }

    /// Reads every typed format (`uuid`, `date-time`, `date`, `email`,
    /// `uri`) into its own Rust type instead of `String`, or none (`false`);
    /// `[emit] typed_formats` of `toolc.toml`. The generated file then needs
    /// the `toolc-runtime` features of those types (`uuid`, `chrono`) and
    /// says so when one is off.
    pub fn typed_formats(mut self, on: bool) -> Self {
        self.lint.typed_formats = Some(if on {
            TypedFormat::ALL.into_iter().collect()
        } else {
            Default::default()
        });
        self
    }

    /// Reads these formats into their own Rust types, and the others as
    /// `String`: `.typed_formats_only([TypedFormat::Uuid])`.
    pub fn typed_formats_only(mut self, formats: impl IntoIterator<Item = TypedFormat>) -> Self {
        self.lint.typed_formats = Some(formats.into_iter().collect());
        self
    }

    /// Gives every tool annotated `destructive: true` the policy `approval: required`, unless
    /// the tool says `approval: none`; `[policy] approve_destructive` of `toolc.toml`.
    pub fn approve_destructive(mut self, on: bool) -> Self {
        self.lint.approve_destructive = Some(on);
        self
    }

    /// Raises a lint rule to an error.
    pub fn deny(mut self, rule: impl Into<String>) -> Self {
        self.lint
            .deny
            .get_or_insert_with(Vec::new)
            .push(rule.into());
        self
    }

    /// Silences a lint rule.
    pub fn allow(mut self, rule: impl Into<String>) -> Self {
        self.lint
            .allow
            .get_or_insert_with(Vec::new)
            .push(rule.into());
        self
    }

    /// Whether to print `cargo:` instructions (default: when run by cargo as
    /// a build script).
    pub fn cargo_instructions(mut self, on: bool) -> Self {
        self.cargo_instructions = Some(on);
        self
    }

    /// Checks the manifests and writes the Rust file. Never panics: every
    /// problem comes back in the error, rendered.
    pub fn compile(self) -> Result<Report, Error> {
        let cargo = self.cargo_instructions.unwrap_or_else(|| {
            std::env::var_os("OUT_DIR").is_some()
                && std::env::var_os("CARGO_MANIFEST_DIR").is_some()
        });
        if self.manifests.is_empty() {
            return Err(Error::new(
                "no manifests given: call `.manifest(\"manifests\")`",
            ));
        }
        let out_dir = match self
            .out_dir
            .clone()
            .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from))
        {
            Some(d) => d,
            None => {
                return Err(Error::new(
                    "OUT_DIR is not set: run from a build script, or call `.out_dir(…)`",
                ));
            }
        };
        if let Some(bad) = self.bad_dialects.first() {
            let (msg, help) = Dialect::unknown_message(bad);
            return Err(Error::new(format!("{msg}\n    help: {help}")));
        }
        let analyzed = analyze(
            &self.manifests,
            &ResolveOptions {
                name: self.name.clone(),
                ..Default::default()
            },
            &ConfigSource::Discover,
            &self.lint,
        );
        // Everything read, so a change to any of it reruns the build script.
        let mut inputs: Vec<PathBuf> = self
            .manifests
            .iter()
            .filter(|p| p.is_dir())
            .cloned()
            .collect();
        inputs.extend(analyzed.toolset.inputs.iter().cloned());
        inputs.extend(analyzed.config.path.iter().cloned());
        let mut cargo_lines = Vec::new();
        let mut emit = |line: String| {
            if cargo {
                println!("{line}");
                cargo_lines.push(line);
            }
        };
        for p in &inputs {
            emit(format!("cargo:rerun-if-changed={}", p.display()));
        }
        let render = |diags: &[crate::diag::Diagnostic]| {
            diags
                .iter()
                .map(|d| crate::diag::render_plain(&analyzed.sources, d))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let all = analyzed.all_diagnostics();
        let warnings: Vec<String> = all
            .iter()
            .filter(|d| d.severity == crate::diag::Severity::Warning)
            .map(|d| crate::diag::render_plain(&analyzed.sources, d))
            .collect();
        for w in &warnings {
            for line in w.lines() {
                emit(format!("cargo:warning={line}"));
            }
        }
        if all.iter().any(crate::diag::Diagnostic::is_error) {
            return Err(Error::new(render(&all)));
        }
        let code = crate::emit::rust::generate(&analyzed.toolset, &analyzed.lowered, &self.rust)
            .map_err(|d| Error::new(render(&d)))?;
        let output = out_dir.join(&self.file_name);
        let written = crate::write::write_if_changed(&output, &code)
            .map_err(|e| Error::new(format!("cannot write {}: {e}", output.display())))?;
        Ok(Report {
            output,
            written,
            inputs,
            warnings,
            cargo_lines,
        })
    }
}
