//! Diagnostics: one type for every problem toolc reports, with a stable code,
//! a primary location, secondary locations and a help line.

mod code;
mod render;
mod source;

pub use code::Code;
pub use render::{render_human, render_json, render_plain};
pub use source::{FileId, SourceFile, SourceMap, Span};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Fails the check or build.
    Error,
    /// Reported; fails only what is run with warnings denied.
    Warning,
    /// Information, never a failure.
    Note,
}

impl Severity {
    /// `"error"`, `"warning"` or `"note"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A secondary location with its own label ("first defined here").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is there.
    pub message: String,
}

/// One problem found in the manifests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable code (docs/diagnostics.md).
    pub code: Code,
    /// How bad it is.
    pub severity: Severity,
    /// One line on what is wrong.
    pub message: String,
    /// Where the problem is. `None` only for problems with no place in a file
    /// (an unreadable path, say).
    pub span: Option<Span>,
    /// Short text under the primary caret.
    pub label: Option<String>,
    /// Other places the problem involves, each with its label.
    pub secondary: Vec<Label>,
    /// How to fix it, when toolc knows.
    pub help: Option<String>,
    /// The path a span-less diagnostic is about, when there is one.
    pub path: Option<std::path::PathBuf>,
    /// The lint rule a [`Code::Lint`] diagnostic comes from; it is printed
    /// where the code goes.
    pub rule: Option<&'static str>,
}

impl Diagnostic {
    /// An error; [`Diagnostic::severity`] makes it a warning or a note.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span: None,
            label: None,
            secondary: Vec::new(),
            help: None,
            path: None,
            rule: None,
        }
    }

    /// Located at `span`.
    pub fn at(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    /// With `label` under the primary caret.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// With another place and its label.
    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// With a help line.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// With `severity` instead of an error's.
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// About `path`, for a diagnostic with no span.
    pub fn path(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets the lint rule id, printed in place of the code.
    pub fn rule(mut self, rule: &'static str) -> Self {
        self.rule = Some(rule);
        self
    }

    /// What is printed as the diagnostic's id: the lint rule, or the code.
    pub fn id(&self) -> &'static str {
        self.rule.unwrap_or(self.code.as_str())
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The diagnostics of a run, in the order they were found.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// None yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    /// Adds all of `other`.
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    /// Whether any is an error.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }

    /// How many are errors.
    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count()
    }

    /// How many are warnings.
    pub fn warning_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    /// Each, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.items.iter()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Sorts by file, then position, keeping the order of equal places, so
    /// output is the same whatever order the stages found things in.
    pub fn sort(&mut self) {
        self.items
            .sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
    }

    /// The diagnostics, in order.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.items
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

/// "did you mean `x`?" for a misspelt name, when one candidate is close.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        let score = strsim::jaro_winkler(name, c);
        if score >= 0.8 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_picks_the_closest() {
        assert_eq!(
            did_you_mean("descripton", ["description", "title"]),
            Some("description")
        );
        assert_eq!(did_you_mean("zzz", ["description", "title"]), None);
    }
}
