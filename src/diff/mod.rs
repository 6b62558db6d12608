//! `toolc diff`: two versions of a toolset's tool surface compared, agent by
//! agent, over the resolved model (never the manifests' JSON), and each
//! change classified by who it breaks ([`Class`]): callers (calls that worked
//! can fail, results can hold what they did not), the model (what it is
//! shown changed) or nobody.
//!
//! - [`kind`]: the closed table of change kinds and their classes;
//! - [`schema`]: two schemas compared by meaning.
//!
//! [`diff`] returns the changes with where each is, in the old manifests, the
//! new ones, or both; [`Joined`] puts both sides' sources in one map so a
//! change renders as a diagnostic with excerpts of either.

pub mod kind;
pub mod schema;

pub use kind::{ChangeKind, Class};

use crate::diag::{Code, Diagnostic, FileId, Severity, SourceMap, Span};
use crate::lower::{Dialect, Role};
use crate::model::policy::RateLimit;
use crate::model::{Tool, Toolset};
use std::path::{Path, PathBuf};

/// What a comparison needs beyond the two toolsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffOptions {
    /// The dialects whose limit on tools per request an agent may cross
    /// (those the new version is linted for).
    pub dialects: Vec<Dialect>,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            dialects: Dialect::DEFAULT.to_vec(),
        }
    }
}

/// One change of the tool surface.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub kind: ChangeKind,
    /// Who it breaks, where it is ([`ChangeKind::class`]).
    pub class: Class,
    /// The agent whose surface changed.
    pub agent: String,
    /// The tool or play, for changes of one.
    pub tool: Option<String>,
    /// The schema the change is in, for changes of a schema.
    pub role: Option<Role>,
    /// The JSON pointer of the changed value in that schema, `$ref`s read as
    /// if inlined (`/properties/ticket/properties/status`).
    pub pointer: Option<String>,
    /// What changed, for people: `parameter `status` no longer allows `closed``.
    pub message: String,
    /// Where it is in the old manifests (spans of the old sources).
    pub old: Option<Span>,
    /// Where it is in the new manifests (spans of the new sources).
    pub new: Option<Span>,
}

impl Change {
    fn new(kind: ChangeKind, agent: &str, message: String) -> Change {
        Change {
            kind,
            class: kind.class(None),
            agent: agent.to_string(),
            tool: None,
            role: None,
            pointer: None,
            message,
            old: None,
            new: None,
        }
    }

    fn tool(mut self, name: &str) -> Change {
        self.tool = Some(name.to_string());
        self
    }

    fn at(mut self, old: Option<Span>, new: Option<Span>) -> Change {
        self.old = old;
        self.new = new;
        self
    }

    /// Whether the change breaks someone.
    pub fn is_breaking(&self) -> bool {
        self.class.is_breaking()
    }

    /// The change as a diagnostic under the code `change`, printed under the
    /// kind's id: an error when it breaks someone and is not `allowed`, a
    /// warning when it is allowed, a note when it is compatible. Its place is
    /// in the new manifests when there is one, with the old place beside it.
    pub fn to_diagnostic(&self, joined: &Joined, allowed: bool) -> Diagnostic {
        let severity = match (self.is_breaking(), allowed) {
            (false, _) => Severity::Note,
            (true, true) => Severity::Warning,
            (true, false) => Severity::Error,
        };
        let mut d = Diagnostic::new(
            Code::Change,
            format!(
                "{}: {} ({})",
                self.agent,
                self.message,
                self.class.describe()
            ),
        )
        .rule(self.kind.as_str())
        .severity(severity);
        let old = self.old.map(|s| joined.old_span(s));
        match (self.new, old) {
            (Some(new), Some(old)) => d = d.at(new).secondary(old, "before"),
            (Some(new), None) => d = d.at(new),
            (None, Some(old)) => d = d.at(old).label("before"),
            (None, None) => {}
        }
        if self.is_breaking() && !allowed {
            d = d.help(format!(
                "{}; if that is intended, pass `--allow {}` (or `--allow {}` for this kind only)",
                match self.class {
                    Class::BreakingCallers =>
                        "calls that worked can fail now, or results hold what callers did not expect",
                    _ => "the model is shown something else now, so it may call the tools differently",
                },
                self.class.as_str(),
                self.kind.as_str()
            ));
        }
        d
    }
}

/// Both versions' sources in one map: the new files as they are, then the
/// old ones under the names `rename` gives them (`HEAD~1:manifests/a.yaml`),
/// so a change renders with excerpts of either side.
#[derive(Debug)]
pub struct Joined {
    pub sources: SourceMap,
    /// The id of the old sources' first file.
    old_offset: u32,
}

impl Joined {
    pub fn new(new: &SourceMap, old: &SourceMap, rename: &dyn Fn(&Path) -> PathBuf) -> Joined {
        let mut sources = SourceMap::new();
        for (_, f) in new.files() {
            sources.add(f.path.clone(), f.text.clone());
        }
        let old_offset = u32::try_from(new.files().count()).unwrap_or(u32::MAX);
        for (_, f) in old.files() {
            sources.add(rename(&f.path), f.text.clone());
        }
        Joined {
            sources,
            old_offset,
        }
    }

    /// A span of the old sources, in the joined map.
    pub fn old_span(&self, span: Span) -> Span {
        Span::new(
            FileId(self.old_offset.saturating_add(span.file.0)),
            span.start,
            span.end,
        )
    }
}

/// What one model is shown: an agent's tools and plays (each with whether
/// it is a play), its description and instructions. A toolset without
/// agents is one surface of every tool and play, named after the toolset.
struct Surface<'a> {
    name: &'a str,
    description: &'a str,
    span: Option<Span>,
    ops: Vec<(&'a Tool, bool)>,
    /// Each manual's text, with where the manual is.
    instructions: Vec<(&'a str, Span)>,
    /// The implicit agent, or the toolset without agents.
    implicit: bool,
}

fn surfaces(set: &Toolset) -> Vec<Surface<'_>> {
    let ops_of = |caps: &[usize]| {
        let mut out = Vec::new();
        for &c in caps {
            let cap = &set.capabilities[c];
            if let Some(t) = cap.toolbox {
                out.extend(set.toolboxes[t].tools.iter().map(|t| (t, false)));
            }
            if let Some(p) = cap.playbook {
                out.extend(set.playbooks[p].plays.iter().map(|p| (p, true)));
            }
        }
        out
    };
    if set.agents.is_empty() {
        let ops = set
            .toolboxes
            .iter()
            .flat_map(|t| t.tools.iter().map(|t| (t, false)))
            .chain(
                set.playbooks
                    .iter()
                    .flat_map(|p| p.plays.iter().map(|p| (p, true))),
            )
            .collect();
        return vec![Surface {
            name: &set.name,
            description: "",
            span: None,
            ops,
            instructions: Vec::new(),
            implicit: true,
        }];
    }
    set.agents
        .iter()
        .map(|a| Surface {
            name: &a.name,
            description: &a.description,
            span: a.span,
            ops: ops_of(&a.capabilities)
                .into_iter()
                .chain(a.delegates.iter().map(|d| (&d.tool, false)))
                .collect(),
            instructions: a
                .capabilities
                .iter()
                .filter_map(|&c| set.capabilities[c].manual)
                .map(|m| (set.manuals[m].text.as_str(), set.manuals[m].span))
                .collect(),
            implicit: a.implicit,
        })
        .collect()
}

fn op_word(play: bool) -> &'static str {
    if play { "play" } else { "tool" }
}

/// Compares two versions of a toolset: every agent of either, by name (two
/// implicit agents are the same agent whatever they are called; a toolset
/// without agents is compared as one, named after it).
pub fn diff(old: &Toolset, new: &Toolset, options: &DiffOptions) -> Vec<Change> {
    let mut out = Vec::new();
    let (a, b) = (surfaces(old), surfaces(new));
    let lone = |s: &[Surface<'_>]| s.len() == 1 && s[0].implicit;
    let both_lone = lone(&a) && lone(&b);
    let partner = |x: &Surface<'_>, other: &[Surface<'_>]| -> Option<usize> {
        if both_lone {
            return Some(0);
        }
        other.iter().position(|y| y.name == x.name)
    };
    for x in &a {
        if partner(x, &b).is_none() {
            out.push(
                Change::new(
                    ChangeKind::AgentRemoved,
                    x.name,
                    format!("agent `{}` was removed", x.name),
                )
                .at(x.span, None),
            );
        }
    }
    for y in &b {
        match partner(y, &a) {
            None => out.push(
                Change::new(
                    ChangeKind::AgentAdded,
                    y.name,
                    format!("agent `{}` was added", y.name),
                )
                .at(None, y.span),
            ),
            Some(i) => agent(old, &a[i], new, y, options, &mut out),
        }
    }
    out
}

fn agent(
    old: &Toolset,
    a: &Surface<'_>,
    new: &Toolset,
    b: &Surface<'_>,
    options: &DiffOptions,
    out: &mut Vec<Change>,
) {
    let name = b.name;
    if a.description != b.description && !(a.implicit && b.implicit) {
        out.push(
            Change::new(
                ChangeKind::DescriptionChanged,
                name,
                "the agent has a new description".to_string(),
            )
            .at(a.span, b.span),
        );
    }
    let same_text = a.instructions.len() == b.instructions.len()
        && a.instructions
            .iter()
            .zip(&b.instructions)
            .all(|(x, y)| x.0 == y.0);
    if !same_text {
        // Located at the first manual that differs.
        let i = a
            .instructions
            .iter()
            .zip(&b.instructions)
            .position(|(x, y)| x.0 != y.0)
            .unwrap_or(a.instructions.len().min(b.instructions.len()));
        let at = |s: &Surface<'_>| s.instructions.get(i).map(|(_, sp)| *sp).or(s.span);
        out.push(
            Change::new(
                ChangeKind::ManualChanged,
                name,
                "the agent gives the model new instructions (its capabilities' manuals changed)"
                    .to_string(),
            )
            .at(at(a), at(b)),
        );
    }
    let (ops_a, ops_b) = (&a.ops, &b.ops);
    for d in &options.dialects {
        if let Some(limit) = d.max_tools()
            && ops_a.len() <= limit
            && ops_b.len() > limit
        {
            out.push(
                Change::new(
                    ChangeKind::ToolCountOverLimit,
                    name,
                    format!(
                        "the agent has {} tools and plays, more than the {limit} `{d}` takes in one request (it had {})",
                        ops_b.len(),
                        ops_a.len()
                    ),
                )
                .at(a.span, b.span),
            );
        }
    }
    for (t, play) in ops_a {
        if !ops_b.iter().any(|(u, _)| u.name == t.name) {
            out.push(
                Change::new(
                    ChangeKind::ToolRemoved,
                    name,
                    format!("{} `{}` was removed", op_word(*play), t.name),
                )
                .tool(&t.name)
                .at(Some(t.span), b.span),
            );
        }
    }
    for (u, play) in ops_b {
        match ops_a.iter().find(|(t, _)| t.name == u.name) {
            None => out.push(
                Change::new(
                    ChangeKind::ToolAdded,
                    name,
                    format!("{} `{}` was added", op_word(*play), u.name),
                )
                .tool(&u.name)
                .at(None, Some(u.span)),
            ),
            Some((t, was_play)) => tool(old, t, *was_play, new, u, *play, name, out),
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn tool(
    old: &Toolset,
    t: &Tool,
    was_play: bool,
    new: &Toolset,
    u: &Tool,
    play: bool,
    agent: &str,
    out: &mut Vec<Change>,
) {
    let what = format!("{} `{}`", op_word(play), u.name);
    let at = (Some(t.span), Some(u.span));
    let mut push = |kind: ChangeKind, message: String| {
        out.push(
            Change::new(kind, agent, message)
                .tool(&u.name)
                .at(at.0, at.1),
        );
    };
    if was_play != play {
        push(
            ChangeKind::ToolKindChanged,
            format!(
                "`{}` was a {} and is a {}: {}",
                u.name,
                op_word(was_play),
                op_word(play),
                if play {
                    "its failures now come back as an error envelope in the result"
                } else {
                    "its failures now come back as errors, not in the result"
                }
            ),
        );
    }
    if t.description != u.description {
        push(
            ChangeKind::DescriptionChanged,
            format!("{what} has a new description"),
        );
    }
    if t.title != u.title || t.annotations.title != u.annotations.title {
        push(ChangeKind::TitleChanged, format!("{what} has a new title"));
    }
    if t.deprecated.is_none() && u.deprecated.is_some() {
        push(ChangeKind::Deprecated, format!("{what} is now deprecated"));
    }
    policies(t, u, &what, &mut push);
    for (role, a, b) in [
        (Role::Parameters, Some(t.parameters), Some(u.parameters)),
        (Role::Returns, t.returns, u.returns),
    ] {
        for f in schema::compare(&old.schemas, a, &new.schemas, b) {
            let subject = match (role, f.path.is_empty()) {
                (Role::Parameters, true) => format!("{what}: its parameters"),
                (Role::Returns, true) => format!("{what}: its result"),
                (Role::Parameters, false) => {
                    format!("{what}: parameter `{}`", schema::path_text(&f.path))
                }
                (Role::Returns, false) => {
                    format!("{what}: result field `{}`", schema::path_text(&f.path))
                }
            };
            out.push(Change {
                kind: f.kind,
                class: f.kind.class(Some(role)),
                agent: agent.to_string(),
                tool: Some(u.name.clone()),
                role: Some(role),
                pointer: Some(schema::pointer(&f.path)),
                message: format!("{subject} {}", f.message),
                old: f.old,
                new: f.new,
            });
        }
    }
}

fn rate_text(r: Option<RateLimit>) -> String {
    match r {
        None => "no limit".to_string(),
        Some(r) => {
            let unit = match r.period_secs {
                1 => "s".to_string(),
                60 => "min".to_string(),
                3600 => "h".to_string(),
                86_400 => "day".to_string(),
                n => format!("{n}s"),
            };
            format!("{}/{unit}", r.count)
        }
    }
}

/// Whether a change of `roles` lets fewer callers in (`Some(true)`), more (`Some(false)`), or
/// the same ones (`None`, such as a reordered list). Any role of the list lets a caller in; an
/// empty list lets everyone in.
fn roles_tightened(before: &[String], after: &[String]) -> Option<bool> {
    let lets_in = |roles: &[String], other: &[String]| {
        roles.is_empty() || (!other.is_empty() && other.iter().all(|r| roles.contains(r)))
    };
    let wider = lets_in(after, before);
    let narrower = lets_in(before, after);
    (!(wider && narrower)).then_some(!wider)
}

/// A list of roles as a sentence shows it.
fn roles_text(roles: &[String]) -> String {
    if roles.is_empty() {
        "any caller".to_string()
    } else {
        roles
            .iter()
            .map(|x| format!("`{x}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Whether a change of rate limit allows fewer calls per second (`Some(true)`), more
/// (`Some(false)`), or the same rate (`None`). Compared without division: a/b < c/d ⇔ a·d < c·b.
fn rate_tightened(before: Option<RateLimit>, after: Option<RateLimit>) -> Option<bool> {
    match (before, after) {
        (None, Some(_)) => Some(true),
        (Some(_), None) => Some(false),
        (Some(a), Some(b)) => {
            let before = u128::from(a.count) * u128::from(b.period_secs);
            let after = u128::from(b.count) * u128::from(a.period_secs);
            (before != after).then_some(after < before)
        }
        (None, None) => None,
    }
}

/// Policy changes: tightened when a call that got through before may not.
fn policies(t: &Tool, u: &Tool, what: &str, push: &mut dyn FnMut(ChangeKind, String)) {
    let (p, q) = (&t.policy, &u.policy);
    let way = |tighter: bool| {
        if tighter {
            ChangeKind::PolicyTightened
        } else {
            ChangeKind::PolicyLoosened
        }
    };
    if p.auth != q.auth {
        push(
            way(q.auth > p.auth),
            format!(
                "{what}: `auth` went from {} to {}",
                p.auth.as_str(),
                q.auth.as_str()
            ),
        );
    }
    if let Some(tighter) = roles_tightened(&p.roles, &q.roles) {
        push(
            way(tighter),
            format!(
                "{what}: `roles` went from {} to {}",
                roles_text(&p.roles),
                roles_text(&q.roles)
            ),
        );
    }
    if let Some(tighter) = rate_tightened(p.rate_limit, q.rate_limit) {
        push(
            way(tighter),
            format!(
                "{what}: `rate_limit` went from {} to {}",
                rate_text(p.rate_limit),
                rate_text(q.rate_limit)
            ),
        );
    }
    if p.timeout_ms != q.timeout_ms {
        let tighter = match (p.timeout_ms, q.timeout_ms) {
            (None, Some(_)) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => b < a,
            (None, None) => false,
        };
        let ms = |x: Option<u64>| x.map_or("no timeout".to_string(), |x| format!("{x} ms"));
        push(
            way(tighter),
            format!(
                "{what}: `timeout_ms` went from {} to {}",
                ms(p.timeout_ms),
                ms(q.timeout_ms)
            ),
        );
    }
    // A call that ran at once now waits for a person (and answers `approval_required`).
    if p.approval != q.approval {
        let word = |a: bool| if a { "required" } else { "none" };
        push(
            way(q.approval),
            format!(
                "{what}: `approval` went from {} to {}",
                word(p.approval),
                word(q.approval)
            ),
        );
    }
}
