//! The toolset IR: the toolset with its toolboxes, playbooks, tools and plays, their policies
//! and examples, manuals, capabilities, agents and their delegates, as resolve builds them.

use super::manual::ManualRef;
use super::mcp::{Annotations, Icon};
use super::names;
use super::policy::{Approval, AuthLevel, RateLimit};
use super::rust::RustPlan;
use super::schema::{SchemaId, Schemas};
use crate::diag::Span;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The whole toolset: every manifest file merged.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Toolset {
    /// The toolset's name, which the implicit agent takes.
    pub name: String,
    /// Named types by name (their Rust type name is the same PascalCase name).
    pub types: BTreeMap<String, NamedType>,
    /// Every schema of the toolset, typed.
    pub schemas: Schemas,
    /// The Rust types every schema becomes.
    #[serde(skip)]
    pub rust: RustPlan,
    pub toolboxes: Vec<Toolbox>,
    pub playbooks: Vec<Playbook>,
    pub manuals: Vec<Manual>,
    pub capabilities: Vec<Capability>,
    pub agents: Vec<Agent>,
    /// Every file read (manifests and manual files), for build scripts'
    /// `rerun-if-changed`.
    pub inputs: Vec<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NamedType {
    pub name: String,
    /// The type's schema.
    pub root: SchemaId,
    /// The type name as written.
    #[serde(skip)]
    pub span: Span,
}

/// Rust identifiers for a named thing, assigned once.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Idents {
    /// snake_case: a module or function name.
    pub snake: names::RustIdent,
    /// PascalCase: a type or trait name.
    pub pascal: String,
}

impl Idents {
    pub fn of(name: &str) -> Self {
        Idents {
            snake: names::snake_ident(name),
            pascal: names::pascal_ident(name),
        }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Toolbox {
    pub name: String,
    pub idents: Idents,
    pub description: String,
    /// The named type of the session scope its tools read.
    pub scope: Option<String>,
    /// Where `scope:` names it.
    #[serde(skip)]
    pub scope_span: Option<Span>,
    pub tools: Vec<Tool>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Playbook {
    pub name: String,
    pub idents: Idents,
    pub description: String,
    /// Plays are tools without policies, `terminal` or context; their
    /// `returns` is always present.
    pub plays: Vec<Tool>,
    #[serde(skip)]
    pub span: Span,
}

/// Why a tool or play is deprecated.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Deprecation {
    pub note: Option<String>,
}

/// Policies enforced before a tool's handler runs.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct Policy {
    pub auth: AuthLevel,
    pub roles: Vec<String>,
    pub rate_limit: Option<RateLimit>,
    pub timeout_ms: Option<u64>,
    /// Whether a person approves each call before the handler runs: `approval: required`, or
    /// `toolc.toml`'s `[policy] approve_destructive` for a tool annotated `destructive: true`
    /// that does not say `approval: none` ([`Toolset::apply_policy_defaults`]).
    pub approval: bool,
    /// `approval` as written.
    #[serde(skip)]
    pub approval_written: Option<Approval>,
}

/// The policy defaults of `toolc.toml`'s `[policy]` section.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PolicyDefaults {
    /// `approve_destructive`: tools annotated `destructive: true` need approval unless they
    /// say `approval: none`.
    pub approve_destructive: bool,
}

impl Toolset {
    /// Applies the config's policy defaults to every tool: a tool's own `approval` wins, and
    /// without one a tool annotated `destructive: true` needs approval when
    /// `approve_destructive` is on.
    pub fn apply_policy_defaults(&mut self, defaults: PolicyDefaults) {
        let delegates = self
            .agents
            .iter_mut()
            .flat_map(|a| a.delegates.iter_mut().map(|d| &mut d.tool));
        for tool in self
            .toolboxes
            .iter_mut()
            .flat_map(|t| t.tools.iter_mut())
            .chain(delegates)
        {
            tool.policy.approval = match tool.policy.approval_written {
                Some(written) => written == Approval::Required,
                None => {
                    defaults.approve_destructive && tool.annotations.hints.destructive == Some(true)
                }
            };
        }
    }
}

/// A tool of a toolbox, or a play of a playbook.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Tool {
    /// The name the model sees, never re-cased.
    pub name: String,
    pub idents: Idents,
    pub description: String,
    pub title: Option<String>,
    /// Always an object schema; `{type: object, properties: {},
    /// additionalProperties: false}` when not written.
    pub parameters: SchemaId,
    /// Whether `parameters` was written in the manifest.
    pub has_parameters: bool,
    pub returns: Option<SchemaId>,
    pub validate_returns: bool,
    pub terminal: bool,
    pub policy: Policy,
    pub annotations: Annotations,
    pub icons: Vec<Icon>,
    /// MCP's `_meta` for the tool, as written.
    pub meta: Option<serde_json::Map<String, serde_json::Value>>,
    pub deprecated: Option<Deprecation>,
    pub examples: Vec<Example>,
    /// What answers its calls under `toolc serve`, if the manifest says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<super::backend::Backend>,
    #[serde(skip)]
    pub span: Span,
}

impl Tool {
    /// Whether the result is sent as the handler wrote it, never validated: `validate_returns:
    /// false` on a tool with `returns` (without `returns` the result is any JSON anyway). Its
    /// method returns `toolc_runtime::Verbatim`, which may carry keys the schema does not
    /// declare.
    pub fn sends_verbatim(&self) -> bool {
        !self.validate_returns && self.returns.is_some()
    }

    /// Whether the handler takes a parameters argument: not when the tool
    /// declares no parameters, or declares an object with no properties
    /// (`{type: object, properties: {}}`), which reads the same.
    /// The generated trait's method that refines this tool's arguments
    /// (`refine_<method>`); it exists when the tool takes parameters.
    pub fn refine_method(&self) -> String {
        // `9lives` is `_9lives`; its refinement is `refine_9lives`, which is snake case.
        format!(
            "refine_{}",
            self.idents.snake.word().trim_start_matches('_')
        )
    }

    pub fn takes_parameters(&self, schemas: &Schemas) -> bool {
        if !self.has_parameters {
            return false;
        }
        let root = schemas.resolved(self.parameters);
        let composite = root.any_of.is_some() || root.one_of.is_some() || root.all_of.is_some();
        let extra_schema = root
            .additional_properties
            .is_some_and(|a| schemas.get(a).boolean.is_none());
        !(root.properties.as_ref().is_some_and(Vec::is_empty) && !composite && !extra_schema)
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Example {
    pub arguments: serde_json::Value,
    pub result: Option<serde_json::Value>,
    pub description: Option<String>,
    #[serde(skip)]
    pub span: Span,
}

/// Where a manual's text came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum ManualSource {
    Inline,
    /// The file, as a path relative to where toolc was run.
    File(PathBuf),
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Manual {
    pub name: String,
    pub description: Option<String>,
    /// The text with references rendered as plain names.
    pub text: String,
    pub refs: Vec<ManualRef>,
    pub source: ManualSource,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Capability {
    pub name: String,
    pub idents: Idents,
    pub description: String,
    /// Index into [`Toolset::toolboxes`].
    pub toolbox: Option<usize>,
    /// Index into [`Toolset::playbooks`].
    pub playbook: Option<usize>,
    /// Index into [`Toolset::manuals`] (inline manuals are added there, named
    /// after their capability).
    pub manual: Option<usize>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Agent {
    pub name: String,
    pub idents: Idents,
    pub description: String,
    /// Indexes into [`Toolset::capabilities`].
    pub capabilities: Vec<usize>,
    pub scope: Option<String>,
    /// Where `scope:` names the agent's scope; `None` when the manifest gives none.
    #[serde(skip)]
    pub scope_span: Option<Span>,
    /// Other agents and capabilities exposed to this agent as one tool each,
    /// in manifest order.
    pub delegates: Vec<Delegate>,
    /// True for the agent made when the manifests define none.
    pub implicit: bool,
    /// Where the agent is defined; `None` for the implicit agent.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// What a delegate hands its task to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum DelegateTarget {
    /// Index into [`Toolset::agents`].
    Agent(usize),
    /// Index into [`Toolset::capabilities`].
    Capability(usize),
}

/// An agent or capability exposed as one tool of another agent: the tool
/// the outer agent's model sees (its name, description, parameters, returns
/// and policies), and what serves it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Delegate {
    /// The delegate as a tool: it is linted, listed, indexed and dispatched
    /// like one. Its parameters are `{task: string}` unless written.
    pub tool: Tool,
    pub target: DelegateTarget,
    /// Where the target is named.
    #[serde(skip)]
    pub target_span: Span,
}

impl Toolset {
    /// The agents a delegate of `agent` calls, directly or through other
    /// delegates, each once, innermost first (an agent after every agent its
    /// own delegates call). Resolve refuses cycles, so this ends.
    pub fn delegated_agents(&self, agent: &Agent) -> Vec<usize> {
        // A post-order walk, iterative so a long chain cannot overflow the stack.
        let mut out: Vec<usize> = Vec::new();
        let mut seen = vec![false; self.agents.len()];
        let mut stack: Vec<(&Agent, usize, Option<usize>)> = vec![(agent, 0, None)];
        while let Some((a, k, index)) = stack.pop() {
            match a.delegates.get(k) {
                Some(d) => {
                    stack.push((a, k + 1, index));
                    if let DelegateTarget::Agent(j) = d.target
                        && !seen[j]
                    {
                        seen[j] = true;
                        stack.push((&self.agents[j], 0, Some(j)));
                    }
                }
                None => {
                    if let Some(j) = index {
                        out.push(j);
                    }
                }
            }
        }
        out
    }

    /// Every tool and play: the toolboxes' tools, then the playbooks' plays,
    /// in manifest order, then the agents' delegates, agent by agent. An
    /// operation's position here is its index.
    pub fn operations(&self) -> impl Iterator<Item = &Tool> {
        self.toolboxes
            .iter()
            .flat_map(|t| &t.tools)
            .chain(self.playbooks.iter().flat_map(|p| &p.plays))
            .chain(
                self.agents
                    .iter()
                    .flat_map(|a| a.delegates.iter().map(|d| &d.tool)),
            )
    }

    /// The index (in [`Toolset::operations`]) of agent `agent`'s first
    /// delegate.
    pub fn delegate_offset(&self, agent: usize) -> usize {
        let mut n = self.tool_count() + self.play_count();
        for a in self.agents.iter().take(agent) {
            n += a.delegates.len();
        }
        n
    }

    /// The index (in [`Toolset::operations`]) of the first tool of each
    /// toolbox, then of the first play of each playbook.
    fn offsets(&self) -> (Vec<usize>, Vec<usize>) {
        let mut n = 0;
        let mut tb = Vec::new();
        for t in &self.toolboxes {
            tb.push(n);
            n += t.tools.len();
        }
        let mut pb = Vec::new();
        for p in &self.playbooks {
            pb.push(n);
            n += p.plays.len();
        }
        (tb, pb)
    }

    /// The operations an agent sees, as indexes into
    /// [`Toolset::operations`], in capability order.
    pub fn agent_operations(&self, agent: &Agent) -> Vec<usize> {
        let (tb, pb) = self.offsets();
        let mut out = Vec::new();
        for &c in &agent.capabilities {
            let cap = &self.capabilities[c];
            if let Some(t) = cap.toolbox {
                out.extend(tb[t]..tb[t] + self.toolboxes[t].tools.len());
            }
            if let Some(p) = cap.playbook {
                out.extend(pb[p]..pb[p] + self.playbooks[p].plays.len());
            }
        }
        if let Some(i) = self.agents.iter().position(|a| a.name == agent.name) {
            let first = self.delegate_offset(i);
            out.extend(first..first + self.agents[i].delegates.len());
        }
        out
    }

    /// The index of the `i`-th tool of toolbox `t` (or play of playbook `t`).
    pub fn operation_index(&self, playbook: bool, group: usize, i: usize) -> usize {
        let (tb, pb) = self.offsets();
        if playbook {
            pb[group] + i
        } else {
            tb[group] + i
        }
    }

    /// A self-contained copy of a schema, named types under `$defs`.
    pub fn bundle(&self, schema: SchemaId) -> serde_json::Value {
        self.schemas.bundle(schema)
    }

    pub fn tool_count(&self) -> usize {
        self.toolboxes.iter().map(|t| t.tools.len()).sum()
    }

    pub fn play_count(&self) -> usize {
        self.playbooks.iter().map(|p| p.plays.len()).sum()
    }
}
