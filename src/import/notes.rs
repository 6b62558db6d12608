//! What an import tells its user besides the manifest: a note for each change it made to
//! what the source sent, and the failure that stopped it.

use crate::{Code, Diagnostic, Severity};
use serde_json::Value;

/// A change `toolc import` made to what the source sent, and why: reported as a note, never
/// made silently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The tool it is about; `None` for a named type or the whole source.
    pub tool: Option<String>,
    /// Where: a key or JSON pointer into the source (for an OpenAPI operation's tool, from the
    /// operation on); for a value the check before writing left out, into the manifest (from the
    /// tool on).
    pub at: String,
    /// What was changed, and why.
    pub message: String,
}

impl Note {
    pub fn new(tool: Option<&str>, at: impl Into<String>, message: impl Into<String>) -> Self {
        Note {
            tool: tool.map(str::to_string),
            at: at.into(),
            message: message.into(),
        }
    }

    /// As a diagnostic (`note[import-change]`), about the file `source` when the source is one.
    pub fn to_diagnostic(&self, source: Option<&std::path::Path>) -> Diagnostic {
        let whose = match &self.tool {
            Some(t) => format!("tool `{t}`: "),
            None => String::new(),
        };
        let at = if self.at.is_empty() {
            String::new()
        } else {
            format!("`{}`: ", self.at)
        };
        let d = Diagnostic::new(Code::ImportChange, format!("{whose}{at}{}", self.message))
            .severity(Severity::Note);
        match source {
            Some(path) => d.path(path),
            None => d,
        }
    }

    /// The note's own fields, for `--format json`.
    pub fn data(&self) -> Value {
        serde_json::json!({ "tool": self.tool, "at": self.at })
    }
}

/// Why a source could not be imported: a diagnostic, and whether it is the source's content
/// (exit 1) or reaching it (an unreadable file, a server that does not start: exit 2).
#[derive(Debug)]
pub struct Failure {
    pub diagnostic: Box<Diagnostic>,
    pub io: bool,
}

impl Failure {
    /// The source could not be read or reached.
    pub fn io(message: impl Into<String>, help: impl Into<String>) -> Self {
        Failure {
            diagnostic: Box::new(Diagnostic::new(Code::Io, message).help(help)),
            io: true,
        }
    }

    /// The source was read, and is not what `toolc import` imports.
    pub fn source(message: impl Into<String>, help: impl Into<String>) -> Self {
        Failure {
            diagnostic: Box::new(Diagnostic::new(Code::ImportSource, message).help(help)),
            io: false,
        }
    }

    /// About `path`.
    pub fn path(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.diagnostic.path = Some(path.into());
        self
    }
}
