//! Stage 3, lint: what each provider would reject or degrade in the
//! model-facing schemas and tool lists of a toolset.
//!
//! The rules are data, in one table ([`rules::RULES`]): id, the dialects each
//! applies to with its severity there, a message, a help line, the public
//! source of the provider behaviour, and the pure function that checks it.
//! Re-grading a rule is one edit in that table; `toolc.toml` can raise a rule
//! to an error (`deny`) or silence it (`allow`) without touching the code.
//!
//! The pipeline lints what toolc *emits*: the lower stage
//! ([`crate::lower`]) has made each tool's form in each dialect, rewriting
//! the manifest's schema where the rewrite keeps its meaning (an optional
//! property made nullable for OpenAI strict mode, a `$ref` inlined for
//! Gemini); the rules run on those forms. A construct no rewrite can express
//! is still there, and its rule fires at the manifest line it came from.

pub(crate) mod checks;
pub(crate) mod list;
mod rule_id;
pub mod rules;
mod run;
pub mod similar;
mod spot;
pub(crate) mod walk;

use crate::lower::{Dialect, Role};
pub use list::ToolFacts;
#[cfg(feature = "cli")]
pub use rules::named;
pub use rules::{Check, RULES, Rule, RuleId, rule};
pub use spot::Hit;

use crate::diag::{Code, Diagnostic, Label, Severity, Span};
use crate::lower::{Form, Lowered, Outlines, RefusalKind};
use crate::model::{SchemaId, Tool, Toolset};
use serde_json::Value;
use std::collections::BTreeSet;

/// One lint finding, graded and located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule, such as `optional-without-nullable`.
    pub rule: RuleId,
    /// How it is graded under the settings.
    pub severity: Severity,
    /// The dialect it was found for; `None` for dialect-independent rules
    /// (`missing-description`).
    pub dialect: Option<Dialect>,
    /// The tool or play it is about, when there is one.
    pub tool: Option<String>,
    /// Which schema of the tool, for schema findings.
    pub role: Option<Role>,
    /// JSON pointer into the tool's canonical schema with named types under
    /// `$defs` (as [`Tool::parameters`](crate::Tool::parameters) gives it); empty for the root or for
    /// tool-level findings.
    pub pointer: String,
    /// Where in the manifests, when the place is known.
    pub span: Option<Span>,
    /// Other places the finding is about, each with its label (the other tool of a pair).
    pub related: Vec<Label>,
    /// One line on what the provider does not accept.
    pub message: String,
    /// How to fix it.
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
    pub deny: BTreeSet<RuleId>,
    /// Rules silenced.
    pub allow: BTreeSet<RuleId>,
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
        if self.allow.contains(&rule.id) {
            return None;
        }
        let base = rule.grade(dialect)?;
        let denied = self.deny.contains(&rule.id);
        let on = rule.default_on
            || denied
            || (rule.id == RuleId::MissingDescription && self.require_describe);
        if !on {
            return None;
        }
        Some(if denied { Severity::Error } else { base })
    }
}

/// Runs every schema rule graded for `dialect` on one schema, as given (no
/// transform). Pure: for table tests and for schemas written by hand.
pub fn check_schema(schema: &Value, dialect: Dialect, role: Role) -> Vec<Hit> {
    run::schema(schema, dialect, role, &|_| true)
}

/// Runs every list rule graded for `dialect` on an emitted tool list (the
/// shape of [`ToolList::list`](crate::ToolList::list)). `targets` are all the
/// dialects being linted (for `tool-name-portable`); `facts` runs parallel
/// to the list's tools and may be empty.
pub fn check_tool_list(
    list: &Value,
    dialect: Dialect,
    targets: &[Dialect],
    facts: &[ToolFacts],
) -> Vec<Hit> {
    let cx = list::ListCx {
        dialect,
        targets,
        entries: list::entries(list, dialect),
        inputs: None,
        facts,
    };
    run::list(&cx, &|_| true)
}

/// Lints every tool and play of a toolset in its lowered forms, and every
/// agent's tool list, for each of the settings' dialects (which `lowered`
/// must hold). Findings are sorted by place and deduplicated (a named type
/// used by several tools is reported once).
pub fn lint_toolset(toolset: &Toolset, lowered: &Lowered, settings: &LintSettings) -> Vec<Finding> {
    let mut out = Vec::new();
    model_findings(toolset, settings, &mut out);
    let r = rule(RuleId::IndistinguishableTools);
    if let Some(severity) = settings.severity(r, None) {
        indistinguishable(toolset, lowered, r, severity, &mut out);
    }
    for &dialect in &settings.dialects {
        form_findings(toolset, lowered, dialect, settings, &mut out);
        list_findings(toolset, lowered, dialect, settings, &mut out);
    }
    sort_dedup(&mut out);
    out
}

/// The rules that read the manifest's schemas rather than a dialect's form of them.
fn model_findings(toolset: &Toolset, settings: &LintSettings, out: &mut Vec<Finding>) {
    for rule in RULES {
        let (Check::Model(check), Some(severity)) = (rule.check, settings.severity(rule, None))
        else {
            continue;
        };
        for tool in toolset.operations() {
            let parts = std::iter::once((Role::Parameters, tool.parameters))
                .chain(tool.returns.map(|r| (Role::Returns, r)));
            for (role, schema) in parts {
                for (at, message) in check(&toolset.schemas, schema) {
                    out.push(Finding {
                        rule: rule.id,
                        severity,
                        dialect: None,
                        tool: Some(tool.name.clone()),
                        role: Some(role),
                        pointer: toolset.schemas.pointer(at),
                        span: Some(property_span(toolset, at)),
                        message,
                        help: rule.help.to_string(),
                        related: Vec::new(),
                    });
                }
            }
        }
    }
}

/// The findings of each tool's and play's form for `dialect`: its parameters, its returns, and
/// an MCP output schema left out.
fn form_findings(
    toolset: &Toolset,
    lowered: &Lowered,
    dialect: Dialect,
    settings: &LintSettings,
    out: &mut Vec<Finding>,
) {
    for (op, tool) in toolset.operations().enumerate() {
        let Some(form) = lowered.form(op, dialect) else {
            continue;
        };
        if let Some(p) = &form.parameters {
            schema_findings(toolset, tool, (p, Role::Parameters), dialect, settings, out);
        }
        if let Some(r) = &form.returns {
            schema_findings(toolset, tool, (r, Role::Returns), dialect, settings, out);
        }
        let r = rule(RuleId::McpOutputSchemaOmitted);
        if let Some(why) = &form.output_omitted
            && let Some(severity) = settings.severity(r, Some(dialect))
        {
            out.push(Finding {
                rule: r.id,
                severity,
                dialect: Some(dialect),
                tool: Some(tool.name.clone()),
                role: Some(Role::Returns),
                pointer: String::new(),
                span: Some(
                    tool.returns
                        .map_or(tool.span, |r| toolset.schemas.get(r).span),
                ),
                message: format!(
                    "`{}` {why}, so its MCP listing has no `outputSchema`: clients get the result as text",
                    tool.name
                ),
                help: r.help.to_string(),
                related: Vec::new(),
            });
        }
    }
}

/// The findings of each agent's tool list for `dialect`.
fn list_findings(
    toolset: &Toolset,
    lowered: &Lowered,
    dialect: Dialect,
    settings: &LintSettings,
    out: &mut Vec<Finding>,
) {
    for agent in &toolset.agents {
        let outlines = lowered.outlines(toolset, agent, dialect);
        let ops = toolset.agent_operations(agent);
        let all: Vec<&Tool> = toolset.operations().collect();
        let tools: Vec<&Tool> = ops.iter().map(|&i| all[i]).collect();
        let facts: Vec<ToolFacts> = tools.iter().map(|t| ToolFacts::of(t)).collect();
        let enabled = |r: &Rule| settings.severity(r, Some(dialect)).is_some();
        let targets = if settings.dialects.is_empty() {
            vec![dialect]
        } else {
            settings.dialects.clone()
        };
        for h in check_outlined(outlines, dialect, &targets, &facts, &enabled) {
            out.extend(list_finding(&tools, agent, dialect, settings, h));
        }
    }
}

/// The list rules `enabled` over an agent's list as lint reads it, outlined (see
/// [`Lowered::outlines`]): what [`check_tool_list`] finds in the list as sent.
pub(crate) fn check_outlined(
    outlines: Outlines<'_>,
    dialect: Dialect,
    targets: &[Dialect],
    facts: &[ToolFacts],
    enabled: &dyn Fn(&Rule) -> bool,
) -> Vec<Hit> {
    let cx = list::ListCx {
        dialect,
        targets,
        entries: outlines.entries.iter().collect(),
        inputs: Some(outlines.inputs),
        facts,
    };
    run::list(&cx, enabled)
}

/// `indistinguishable-tools`: each agent's tools compared through its search index. A pair
/// two agents share is reported once.
fn indistinguishable(
    toolset: &Toolset,
    lowered: &Lowered,
    r: &Rule,
    severity: Severity,
    out: &mut Vec<Finding>,
) {
    let all: Vec<&Tool> = toolset.operations().collect();
    let mut reported = BTreeSet::new();
    for (agent, index) in toolset.agents.iter().zip(&lowered.search) {
        let tools: Vec<&Tool> = index
            .operations
            .iter()
            .filter_map(|&op| all.get(op).copied())
            .collect();
        if tools.len() != index.operations.len() {
            continue;
        }
        let texts: Vec<(&str, &str)> = tools
            .iter()
            .map(|t| (t.name.as_str(), t.description.as_str()))
            .collect();
        for pair in similar::alike(&texts, &index.index.as_ref()) {
            // The earlier in the manifests is the related place, whatever the agent's order.
            let (mut a, mut b) = (pair.first, pair.second);
            if index.operations[a] > index.operations[b] {
                std::mem::swap(&mut a, &mut b);
            }
            let (first, second) = (tools[a], tools[b]);
            if !reported.insert((index.operations[a], index.operations[b])) {
                continue;
            }
            const SAME_WORDS: &str = "names made of the same words (they differ only in \
                case, separators, plural or verb endings, or words such as `of`)";
            let how = match (pair.same_name, pair.descriptions) {
                (true, Some(s)) => format!(
                    "have {SAME_WORDS} and near-identical descriptions ({:.0}% alike)",
                    s * 100.0
                ),
                (true, None) => format!("have {SAME_WORDS}"),
                (false, Some(s)) => format!(
                    "have near-identical descriptions ({:.0}% alike by the weight of their words)",
                    s * 100.0
                ),
                (false, None) => continue,
            };
            out.push(Finding {
                rule: r.id,
                severity,
                dialect: None,
                tool: Some(second.name.clone()),
                role: None,
                pointer: String::new(),
                span: Some(second.span),
                related: vec![Label {
                    span: first.span,
                    message: format!("`{}` is defined here", first.name),
                }],
                message: format!(
                    "`{}` and `{}` of agent `{}` {how}: a model choosing between them may call one for the other",
                    first.name, second.name, agent.name
                ),
                help: r.help.to_string(),
            });
        }
    }
}

/// Where a property is named, for findings about the property itself.
fn property_span(toolset: &Toolset, id: SchemaId) -> Span {
    let schemas = &toolset.schemas;
    match &schemas.get(id).parent {
        Some((parent, step)) => match &step.entry {
            crate::model::schema::Entry::Name(name) => schemas
                .get(*parent)
                .property(name)
                .map_or(schemas.get(id).span, |p| p.span),
            _ => schemas.get(id).span,
        },
        None => schemas.get(id).span,
    }
}

/// The rule that reports what a dialect's form could not express.
fn refusal_rule(kind: RefusalKind) -> RuleId {
    match kind {
        RefusalKind::Recursive => RuleId::RecursiveLazy,
        RefusalKind::RefSiblings => RuleId::RefWithSiblings,
        RefusalKind::TooDeep => RuleId::NestingDepth,
    }
}

/// The findings of one lowered schema of a tool: the rules' hits, located
/// through the form's origins, and what the form could not express.
fn schema_findings(
    toolset: &Toolset,
    tool: &Tool,
    (form, role): (&Form, Role),
    dialect: Dialect,
    settings: &LintSettings,
    out: &mut Vec<Finding>,
) {
    let schemas = &toolset.schemas;
    let enabled = |r: &Rule| settings.severity(r, Some(dialect)).is_some();
    let hits = run::schema(&form.json, dialect, role, &enabled);
    let root = match role {
        Role::Parameters => tool.parameters,
        Role::Returns => tool.returns.unwrap_or(tool.parameters),
    };
    let located = hits
        .into_iter()
        .filter(|h| !form.is_refused(&h.pointer))
        .map(|h| {
            let (at, rest) = form
                .origin(&h.pointer)
                .map_or((root, h.pointer.as_str()), |(id, rest)| (id, rest));
            let pointer = format!("{}{rest}", schemas.pointer(at));
            let span = schemas.span_at_pointer(at, rest);
            (h.rule, h.message, h.help, pointer, span, false)
        })
        .chain(form.refusals.iter().map(|r| {
            let rest = r.keyword.map_or(String::new(), |k| format!("/{k}"));
            let span = match r.keyword {
                Some(k) => schemas.get(r.at).value_span(k),
                None => schemas.get(r.at).span,
            };
            (
                refusal_rule(r.kind),
                r.message.clone(),
                None,
                format!("{}{rest}", schemas.pointer(r.at)),
                span,
                true,
            )
        }))
        .collect::<Vec<_>>();
    for (rule_id, message, help, pointer, span, refusal) in located {
        let r = rule(rule_id);
        // A refusal under a rule not graded for this dialect (a schema too
        // deep to lower) is still an error: the form could not be made.
        let ungraded_refusal =
            refusal && r.grade(Some(dialect)).is_none() && !settings.allow.contains(&r.id);
        let severity = match settings.severity(r, Some(dialect)) {
            Some(s) => s,
            None if ungraded_refusal => Severity::Error,
            None => continue,
        };
        out.push(Finding {
            rule: r.id,
            severity,
            dialect: Some(dialect),
            tool: Some(tool.name.clone()),
            role: Some(role),
            span: Some(span),
            pointer,
            message,
            help: help.unwrap_or_else(|| r.help.to_string()),
            related: Vec::new(),
        });
    }
}

fn list_finding(
    tools: &[&Tool],
    agent: &crate::model::Agent,
    dialect: Dialect,
    settings: &LintSettings,
    h: Hit,
) -> Option<Finding> {
    let r = rule(h.rule);
    let severity = settings.severity(r, Some(dialect))?;
    let tool = h.tool.and_then(|i| tools.get(i).or(tools.last()));
    Some(Finding {
        rule: r.id,
        severity,
        dialect: Some(dialect),
        tool: tool.map(|t| t.name.clone()),
        role: None,
        pointer: String::new(),
        span: tool.map(|t| t.span).or(agent.span),
        message: h.message,
        help: h.help.unwrap_or_else(|| r.help.to_string()),
        related: Vec::new(),
    })
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
            .rule(f.rule.as_str())
            .severity(f.severity)
            .help(f.help.clone());
        if let Some(span) = f.span {
            d = d.at(span);
        }
        for l in &f.related {
            d = d.secondary(l.span, l.message.clone());
        }
        d
    }
}

/// Groups sorted findings that differ only in dialect.
pub fn group(findings: &[Finding]) -> Vec<Group> {
    type Key<'a> = (
        RuleId,
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

#[cfg(test)]
/// The findings as diagnostics, merged across dialects.
pub fn to_diagnostics(findings: &[Finding]) -> Vec<Diagnostic> {
    group(findings).iter().map(Group::to_diagnostic).collect()
}
