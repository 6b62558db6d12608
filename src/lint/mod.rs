//! Stage 3, lint: what each provider would reject or degrade in the
//! model-facing schemas and tool lists of a toolset.
//!
//! The rules are data, in one table ([`rules::RULES`]): id, the dialects each
//! applies to with its severity there, a message, a help line, the public
//! source of the provider behaviour, and the pure function that checks it.
//! Re-grading a rule is one edit in that table; `toolc.toml` can raise a rule
//! to an error (`deny`) or silence it (`allow`) without touching the code.
//!
//! The pipeline lints what toolc *emits*: each dialect's transform
//! ([`crate::emit::dialect`]) rewrites the canonical schema into the
//! provider's form where the rewrite keeps its meaning (an optional property
//! made nullable for OpenAI strict mode, a `$ref` inlined for Gemini), then
//! the rules run on the result. A construct no rewrite can express is still
//! there, and its rule fires at the manifest line it came from.

pub(crate) mod checks;
pub(crate) mod list;
pub mod rules;
pub mod sarif;
pub(crate) mod walk;

pub use rules::{Check, Grades, RULES, Rule, rule};

use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::model::{Tool, Toolset};
use serde_json::Value;
use std::collections::BTreeSet;

/// A provider schema surface. See `spec/dialects.md` for what each one is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dialect {
    /// OpenAI function calling, `strict: false`.
    OpenAi,
    /// OpenAI Structured Outputs: `strict: true` function tools.
    OpenAiStrict,
    /// The same strict mode on Azure OpenAI, with older, tighter limits.
    AzureOpenAiStrict,
    /// Gemini Developer API `FunctionDeclaration.parameters` (the OpenAPI 3.0 subset).
    Gemini,
    /// Vertex AI `FunctionDeclaration.parameters` / `response`.
    GeminiVertex,
    /// Gemini `parametersJsonSchema` / `responseJsonSchema`.
    GeminiJsonSchema,
    /// Anthropic Messages API `tools[].input_schema`.
    Anthropic,
    /// Anthropic `strict: true` tools.
    AnthropicStrict,
    /// An MCP server's `tools/list`.
    Mcp,
}

impl Dialect {
    /// Every dialect, in documentation order.
    pub const ALL: [Dialect; 9] = [
        Dialect::OpenAi,
        Dialect::OpenAiStrict,
        Dialect::AzureOpenAiStrict,
        Dialect::Gemini,
        Dialect::GeminiVertex,
        Dialect::GeminiJsonSchema,
        Dialect::Anthropic,
        Dialect::AnthropicStrict,
        Dialect::Mcp,
    ];

    /// The dialects linted when neither `toolc.toml` nor code names any.
    pub const DEFAULT: [Dialect; 4] = [
        Dialect::OpenAiStrict,
        Dialect::Gemini,
        Dialect::Anthropic,
        Dialect::Mcp,
    ];

    /// Other names accepted for a dialect: the seed's `gemini-bifrost`.
    pub const ALIASES: &'static [(&'static str, Dialect)] = &[("gemini-bifrost", Dialect::Gemini)];

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::OpenAi => "openai",
            Dialect::OpenAiStrict => "openai-strict",
            Dialect::AzureOpenAiStrict => "azure-openai-strict",
            Dialect::Gemini => "gemini",
            Dialect::GeminiVertex => "gemini-vertex",
            Dialect::GeminiJsonSchema => "gemini-jsonschema",
            Dialect::Anthropic => "anthropic",
            Dialect::AnthropicStrict => "anthropic-strict",
            Dialect::Mcp => "mcp",
        }
    }

    /// Parses a dialect id or alias.
    pub fn parse(s: &str) -> Option<Dialect> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .or_else(|| {
                Dialect::ALIASES
                    .iter()
                    .find(|(a, _)| *a == s)
                    .map(|(_, d)| *d)
            })
    }

    /// Every accepted name, for "did you mean" hints.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Dialect::ALL
            .into_iter()
            .map(Dialect::as_str)
            .chain(Dialect::ALIASES.iter().map(|(a, _)| *a))
    }

    /// "unknown dialect" with a did-you-mean, for config and CLI errors.
    pub fn unknown_message(s: &str) -> (String, String) {
        let msg = format!("there is no dialect named `{s}`");
        let help = match crate::diag::did_you_mean(s, Dialect::names()) {
            Some(m) => format!("did you mean `{m}`?"),
            None => format!(
                "the dialects are {}",
                Dialect::ALL.map(Dialect::as_str).join(", ")
            ),
        };
        (msg, help)
    }

    /// OpenAI strict mode, on OpenAI or on Azure.
    pub fn is_openai_strict(self) -> bool {
        matches!(self, Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict)
    }

    /// The OpenAPI-subset Gemini surfaces (not `parametersJsonSchema`).
    pub fn is_gemini_openapi(self) -> bool {
        matches!(self, Dialect::Gemini | Dialect::GeminiVertex)
    }

    /// The OpenAI surfaces, strict or not.
    pub fn is_openai(self) -> bool {
        matches!(
            self,
            Dialect::OpenAi | Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict
        )
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::parse(s).ok_or_else(|| {
            let (m, h) = Dialect::unknown_message(s);
            format!("{m}; {h}")
        })
    }
}

/// Which schema of a tool a check looks at: the arguments or the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    Parameters,
    Returns,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Parameters => "parameters",
            Role::Returns => "returns",
        }
    }
}

/// What a rule function reports: where (a JSON pointer into the schema it
/// was given, or the index of a tool in a tool list) and what, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub rule: &'static str,
    /// The tool in a tool list, by position, for list-level rules.
    pub tool: Option<usize>,
    pub pointer: String,
    pub message: String,
    /// A help line more precise than the rule's own, when there is one.
    pub help: Option<String>,
}

impl Hit {
    /// A hit at a JSON pointer; the runner fills in the rule id.
    pub(crate) fn at(pointer: impl Into<String>, message: impl Into<String>) -> Hit {
        Hit {
            rule: "",
            tool: None,
            pointer: pointer.into(),
            message: message.into(),
            help: None,
        }
    }

    /// A hit on the tool at `index` of a tool list.
    pub(crate) fn tool(index: usize, message: impl Into<String>) -> Hit {
        Hit {
            rule: "",
            tool: Some(index),
            pointer: String::new(),
            message: message.into(),
            help: None,
        }
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Hit {
        self.help = Some(help.into());
        self
    }
}

/// One lint finding, graded and located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule id, such as `optional-without-nullable`.
    pub rule: &'static str,
    pub severity: Severity,
    /// The dialect it was found for; `None` for dialect-independent rules
    /// (`missing-description`).
    pub dialect: Option<Dialect>,
    /// The tool or play it is about, when there is one.
    pub tool: Option<String>,
    /// Which schema of the tool, for schema findings.
    pub role: Option<Role>,
    /// JSON pointer into the tool's canonical schema with named types under
    /// `$defs` (as [`Toolset::bundle`] gives it); empty for the root or for
    /// tool-level findings.
    pub pointer: String,
    pub span: Option<Span>,
    pub message: String,
    pub help: String,
}

/// How the rules are graded and which dialects are linted: the `[lint]`
/// section of `toolc.toml`, or the same options set in code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintSettings {
    pub dialects: Vec<Dialect>,
    /// Turns on `missing-description`.
    pub require_describe: bool,
    /// Rules raised to errors (and turned on, for rules that are off by default).
    pub deny: BTreeSet<&'static str>,
    /// Rules silenced.
    pub allow: BTreeSet<&'static str>,
}

impl Default for LintSettings {
    fn default() -> Self {
        LintSettings {
            dialects: Dialect::DEFAULT.to_vec(),
            require_describe: false,
            deny: BTreeSet::new(),
            allow: BTreeSet::new(),
        }
    }
}

impl LintSettings {
    /// Settings linting just `dialects`, every rule at its table severity.
    pub fn for_dialects(dialects: &[Dialect]) -> Self {
        LintSettings {
            dialects: dialects.to_vec(),
            ..Default::default()
        }
    }

    /// The severity of `rule` for `dialect` under these settings, or `None`
    /// when it does not apply there or is silenced.
    pub fn severity(&self, rule: &Rule, dialect: Option<Dialect>) -> Option<Severity> {
        if self.allow.contains(rule.id) {
            return None;
        }
        let base = rule.grade(dialect)?;
        let denied = self.deny.contains(rule.id);
        let on = rule.default_on
            || denied
            || (rule.id == rules::MISSING_DESCRIPTION && self.require_describe);
        if !on {
            return None;
        }
        Some(if denied { Severity::Error } else { base })
    }
}

/// Runs every schema rule graded for `dialect` on one schema, as given (no
/// transform). Pure: for table tests and for schemas written by hand.
pub fn check_schema(schema: &Value, dialect: Dialect, role: Role) -> Vec<Hit> {
    checks::run_schema(schema, dialect, role, &|_| true)
}

/// Facts about a listed tool that its emitted JSON does not show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolFacts {
    /// The manifest gives a `returns` schema.
    pub has_returns: bool,
    /// The result is validated against it before it leaves the handler.
    pub validate_returns: bool,
}

impl Default for ToolFacts {
    fn default() -> Self {
        ToolFacts {
            has_returns: false,
            validate_returns: true,
        }
    }
}

impl ToolFacts {
    pub fn of(tool: &Tool) -> Self {
        ToolFacts {
            has_returns: tool.returns.is_some(),
            validate_returns: tool.validate_returns,
        }
    }
}

/// Runs every list rule graded for `dialect` on an emitted tool list (the
/// shape [`crate::emit::dialect::tool_list`] returns). `targets` are all the
/// dialects being linted (for `tool-name-portable`); `facts` runs parallel
/// to the list's tools and may be empty.
pub fn check_tool_list(
    list: &Value,
    dialect: Dialect,
    targets: &[Dialect],
    facts: &[ToolFacts],
) -> Vec<Hit> {
    list::run(list, dialect, targets, facts, &|_| true)
}

/// Runs the dialect-independent rules on a canonical schema.
pub fn check_canonical(schema: &Value, role: Role) -> Vec<Hit> {
    checks::run_canonical(schema, role)
}

/// Lints every tool and play of a toolset, and every agent's tool list, for
/// each of the settings' dialects. Findings are sorted by place and
/// deduplicated (a named type used by several tools is reported once).
pub fn lint_toolset(toolset: &Toolset, settings: &LintSettings) -> Vec<Finding> {
    let mut out = Vec::new();
    let all: Vec<&Tool> = toolset
        .toolboxes
        .iter()
        .flat_map(|t| &t.tools)
        .chain(toolset.playbooks.iter().flat_map(|p| &p.plays))
        .collect();
    if let Some(rule) = rule(rules::MISSING_DESCRIPTION)
        && settings.severity(rule, None).is_some()
    {
        for tool in &all {
            canonical_findings(toolset, tool, settings, &mut out);
        }
    }
    let mut reached: BTreeSet<(String, Span)> = BTreeSet::new();
    for &dialect in &settings.dialects {
        for agent in &toolset.agents {
            for t in toolset.agent_tools(agent) {
                reached.insert((t.name.clone(), t.span));
            }
            let (_, findings) = crate::emit::dialect::build_list(toolset, agent, dialect, settings);
            out.extend(findings);
        }
        for tool in &all {
            if !reached.contains(&(tool.name.clone(), tool.span)) {
                let (_, findings) =
                    crate::emit::dialect::build_entry(toolset, tool, dialect, settings);
                out.extend(findings);
            }
        }
    }
    sort_dedup(&mut out);
    out
}

fn canonical_findings(
    toolset: &Toolset,
    tool: &Tool,
    settings: &LintSettings,
    out: &mut Vec<Finding>,
) {
    let parts = std::iter::once((Role::Parameters, tool.parameters))
        .chain(tool.returns.map(|r| (Role::Returns, r)));
    for (role, schema) in parts {
        let bundled = toolset.bundle(schema);
        for hit in check_canonical(&bundled, role) {
            let Some(r) = rule(hit.rule) else { continue };
            let Some(severity) = settings.severity(r, None) else {
                continue;
            };
            out.push(Finding {
                rule: r.id,
                severity,
                dialect: None,
                tool: Some(tool.name.clone()),
                role: Some(role),
                span: Some(locate(toolset, schema, &hit.pointer)),
                pointer: hit.pointer,
                message: hit.message,
                help: hit.help.unwrap_or_else(|| r.help.to_string()),
            });
        }
    }
}

/// The span of a pointer into a bundled schema: `/$defs/Name/...` is in the
/// named type's own schema, anything else in `schema`.
pub fn locate(toolset: &Toolset, schema: crate::model::SchemaId, pointer: &str) -> Span {
    toolset.schemas.span_at_pointer(schema, pointer)
}

/// Sorts findings by place, then rule and dialect, and drops exact repeats.
pub fn sort_dedup(findings: &mut Vec<Finding>) {
    findings.sort_by(|a, b| {
        let ka = (
            a.span.map(|s| (s.file, s.start, s.end)),
            a.rule,
            &a.message,
            a.dialect,
        );
        let kb = (
            b.span.map(|s| (s.file, s.start, s.end)),
            b.rule,
            &b.message,
            b.dialect,
        );
        ka.cmp(&kb)
    });
    findings.dedup_by(|a, b| {
        a.rule == b.rule
            && a.dialect == b.dialect
            && a.span == b.span
            && a.message == b.message
            && a.severity == b.severity
    });
}

/// Findings that differ only in dialect, merged: what is printed once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub finding: Finding,
    /// Every dialect it was found for, in [`Dialect::ALL`] order; empty for
    /// dialect-independent findings.
    pub dialects: Vec<Dialect>,
}

impl Group {
    /// The diagnostic printed for the group: the rule id where the code
    /// goes, and the dialects before the message.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let f = &self.finding;
        let message = if self.dialects.is_empty() {
            f.message.clone()
        } else {
            let names: Vec<&str> = self.dialects.iter().map(|d| d.as_str()).collect();
            format!("{}: {}", names.join(", "), f.message)
        };
        let mut d = Diagnostic::new(Code::Lint, message)
            .rule(f.rule)
            .severity(f.severity)
            .help(f.help.clone());
        if let Some(span) = f.span {
            d = d.at(span);
        }
        d
    }
}

/// Groups sorted findings that differ only in dialect.
pub fn group(findings: &[Finding]) -> Vec<Group> {
    type Key<'a> = (
        &'a str,
        Option<(u32, usize, usize)>,
        &'a str,
        Severity,
        &'a str,
    );
    let mut out: Vec<Group> = Vec::new();
    let mut index: std::collections::BTreeMap<Key<'_>, usize> = Default::default();
    for f in findings {
        let key = (
            f.rule,
            f.span.map(|s| (s.file.0, s.start, s.end)),
            f.message.as_str(),
            f.severity,
            f.pointer.as_str(),
        );
        match index.get(&key) {
            Some(&i) => {
                let g = &mut out[i];
                if let Some(d) = f.dialect
                    && !g.dialects.contains(&d)
                {
                    g.dialects.push(d);
                    g.dialects.sort();
                }
            }
            None => {
                index.insert(key, out.len());
                out.push(Group {
                    finding: f.clone(),
                    dialects: f.dialect.into_iter().collect(),
                });
            }
        }
    }
    out
}

/// The findings as diagnostics, merged across dialects.
pub fn to_diagnostics(findings: &[Finding]) -> Vec<Diagnostic> {
    group(findings).iter().map(Group::to_diagnostic).collect()
}
