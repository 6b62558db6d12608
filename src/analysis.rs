//! A toolset as the command line sees it, for tools built on toolc: what `toolc lint` reports,
//! what `toolc dump` prints and what each provider is shown of each tool.

use crate::diag::{Diagnostic, SourceMap};
use crate::lint::{Finding, LintSettings};
use crate::lower::{Dialect, Lowered, McpTexts};
use crate::model::{self, ResolveOptions};
use crate::pipeline::{self, Analyzed, ConfigSource, ToolList};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A toolset checked, configured by the `toolc.toml` found beside its manifests, lowered into
/// the form of each dialect it lints and linted: what `toolc lint` reports and `toolc build`
/// writes. Made by [`analyze`].
#[derive(Debug)]
pub struct Analysis {
    analyzed: Analyzed,
    /// Every dialect's forms and findings, made the first time [`Tool::form`] asks.
    every: OnceLock<(Lowered, Vec<Finding>)>,
}

/// Checks the manifests under `paths` (files or folders) as [`check`](crate::check) does, reads
/// the `toolc.toml` found beside them, and lowers and lints every tool for the dialects it names
/// (the default dialects without one).
pub fn analyze(paths: &[PathBuf], options: &ResolveOptions) -> Analysis {
    Analysis {
        analyzed: pipeline::analyze(paths, options, &ConfigSource::Discover, &Default::default()),
        every: OnceLock::new(),
    }
}

/// What a tool is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolKind {
    /// A tool of a toolbox.
    Tool,
    /// A play of a playbook.
    Play,
    /// An agent's delegate: another agent or capability, served as one tool.
    Delegate,
}

/// One tool, play or delegate of an [`Analysis`].
#[derive(Clone, Copy)]
pub struct Tool<'a> {
    analysis: &'a Analysis,
    /// Its index in the toolset's operations.
    op: usize,
    tool: &'a model::Tool,
    kind: ToolKind,
    /// The toolbox or playbook it is in.
    group: Option<&'a model::Idents>,
    group_name: Option<&'a str>,
}

/// How one dialect advertises one tool.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolForm {
    /// The tool's entry in the dialect's tool list.
    pub entry: Value,
    /// Its parameters' schema as the dialect is sent it; `None` where the entry leaves them out
    /// (Gemini takes no `parameters` for a tool without arguments).
    pub parameters: Option<Value>,
    /// The lint findings about the tool in this dialect, dialect-independent ones included.
    pub findings: Vec<Finding>,
}

impl Analysis {
    /// The files read (the manifests and `toolc.toml`), by [`Span`](crate::Span): what
    /// [`render_human`](crate::render_human) and friends quote.
    pub fn sources(&self) -> &SourceMap {
        &self.analyzed.sources
    }

    /// Every problem found: those of loading, resolving and the config, then the lint findings
    /// (a finding of several dialects once).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.analyzed.all_diagnostics()
    }

    /// Whether any problem is an error: `toolc lint` and `toolc build` would fail.
    pub fn has_errors(&self) -> bool {
        self.analyzed.has_errors()
    }

    /// The lint findings, one per dialect it is found in.
    pub fn findings(&self) -> &[Finding] {
        &self.analyzed.findings
    }

    /// The agents' names, in manifest order.
    pub fn agents(&self) -> Vec<&str> {
        let set = &self.analyzed.toolset;
        set.agents.iter().map(|a| a.name.as_str()).collect()
    }

    /// One agent's tool list in one dialect's request shape, lowered and linted on its own, with
    /// the findings about its tools and the list: what `toolc dump` prints. `None` when there is
    /// no agent of that name.
    pub fn tool_list(&self, agent: &str, dialect: Dialect) -> Option<ToolList> {
        let set = &self.analyzed.toolset;
        let agent = set.agents.iter().find(|a| a.name == agent)?;
        Some(pipeline::tool_list(
            set,
            agent,
            dialect,
            &self.settings(),
            self.analyzed.config.options.lower_options(),
        ))
    }

    /// Every tool, play and delegate, in the order of the generated code: toolboxes' tools,
    /// then playbooks' plays, then agents' delegates.
    pub fn tools(&self) -> Vec<Tool<'_>> {
        let set = &self.analyzed.toolset;
        let tools = set.toolboxes.iter().flat_map(|t| {
            t.tools
                .iter()
                .map(move |tool| (tool, ToolKind::Tool, Some((&t.idents, t.name.as_str()))))
        });
        let plays = set.playbooks.iter().flat_map(|p| {
            p.plays
                .iter()
                .map(move |tool| (tool, ToolKind::Play, Some((&p.idents, p.name.as_str()))))
        });
        let delegates = set.agents.iter().flat_map(|a| {
            a.delegates
                .iter()
                .map(|d| (&d.tool, ToolKind::Delegate, None))
        });
        tools
            .chain(plays)
            .chain(delegates)
            .enumerate()
            .map(|(op, (tool, kind, group))| Tool {
                analysis: self,
                op,
                tool,
                kind,
                group: group.map(|g| g.0),
                group_name: group.map(|g| g.1),
            })
            .collect()
    }

    /// The Rust `toolc build` writes (`rust/toolset.rs`), or the diagnostics of why it cannot.
    pub fn rust(&self) -> Result<String, Vec<Diagnostic>> {
        let a = &self.analyzed;
        crate::emit::rust::generate(&a.toolset, &a.lowered, &Default::default())
    }

    /// The Markdown reference `toolc build` writes (`docs/reference.md`), or why it cannot.
    pub fn reference(&self) -> Result<String, String> {
        crate::emit::docs::reference(&self.analyzed.toolset)
    }

    /// The lint settings: the config's, or the defaults where the config is wrong.
    fn settings(&self) -> LintSettings {
        self.analyzed
            .settings
            .clone()
            .unwrap_or_else(|| LintSettings::for_dialects(&Dialect::DEFAULT))
    }

    /// Every tool lowered into every dialect, and linted in every dialect.
    fn every(&self) -> &(Lowered, Vec<Finding>) {
        self.every.get_or_init(|| {
            let set = &self.analyzed.toolset;
            let lowered = crate::lower::lower(
                set,
                &Dialect::ALL,
                self.analyzed.config.options.lower_options(),
            );
            let settings = LintSettings {
                dialects: Dialect::ALL.to_vec(),
                ..self.settings()
            };
            let findings = crate::lint::lint_toolset(set, &lowered, &settings);
            (lowered, findings)
        })
    }
}

impl std::fmt::Debug for Tool<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.tool.name)
            .field("kind", &self.kind)
            .field("group", &self.group_name)
            .finish()
    }
}

impl<'a> Tool<'a> {
    /// Its name, as models call it.
    pub fn name(&self) -> &'a str {
        &self.tool.name
    }

    /// Its title, when the manifest gives one.
    pub fn title(&self) -> Option<&'a str> {
        self.tool.title.as_deref()
    }

    /// Its description.
    pub fn description(&self) -> &'a str {
        &self.tool.description
    }

    /// Whether it is a tool, a play or a delegate.
    pub fn kind(&self) -> ToolKind {
        self.kind
    }

    /// The toolbox or playbook it is in (`None` for a delegate).
    pub fn group(&self) -> Option<&'a str> {
        self.group_name
    }

    /// The generated module that serves it, under the toolset's module: `toolboxes::<name>` or
    /// `playbooks::<name>` (`None` for a delegate).
    pub fn module(&self) -> Option<String> {
        let parent = match self.kind {
            ToolKind::Tool => "toolboxes",
            ToolKind::Play => "playbooks",
            ToolKind::Delegate => return None,
        };
        Some(format!("{parent}::{}", self.group?.snake))
    }

    /// Its parameters' JSON Schema as the manifest writes it, with the named types it
    /// references under `$defs`.
    pub fn parameters(&self) -> Value {
        self.analysis.analyzed.toolset.bundle(self.tool.parameters)
    }

    /// The agents whose tool lists hold it, in manifest order.
    pub fn agents(&self) -> Vec<&'a str> {
        let set = &self.analysis.analyzed.toolset;
        set.agents
            .iter()
            .filter(|a| set.agent_operations(a).contains(&self.op))
            .map(|a| a.name.as_str())
            .collect()
    }

    /// The MCP fields its generated descriptor carries, as the texts emit writes into it (the
    /// runtime's MCP server lists them as they are).
    pub fn mcp_texts(&self) -> McpTexts {
        let lowered = &self.analysis.every().0;
        lowered
            .form(self.op, Dialect::Mcp)
            .and_then(|f| f.mcp_entry(self.tool))
            .map(|e| McpTexts::of(&e))
            .unwrap_or_default()
    }

    /// How `dialect` advertises it, with the findings about it there. Every dialect is lowered
    /// and linted (the config's lint options, for every dialect) the first time this is asked.
    pub fn form(&self, dialect: Dialect) -> ToolForm {
        let (lowered, findings) = self.analysis.every();
        let form = lowered
            .form(self.op, dialect)
            .expect("every dialect is lowered");
        ToolForm {
            entry: form.entry(self.tool),
            parameters: form.parameters.as_ref().map(|p| p.json.clone()),
            findings: findings
                .iter()
                .filter(|f| {
                    f.tool.as_deref() == Some(self.name()) && f.dialect.is_none_or(|d| d == dialect)
                })
                .cloned()
                .collect(),
        }
    }
}
