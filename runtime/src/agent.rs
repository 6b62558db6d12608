//! Agents: the capabilities one model sees at once, served by name.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use crate::context::CallContext;
use crate::descriptor::ToolDescriptor;
use crate::dispatch::{Answer, Encoding, Playbook, Toolbox, error_envelope};
use crate::errors::ToolError;
use crate::policy::check_access;
use crate::registered::{Registered, RegisteredTool};
use crate::result::{Metadata, ToolResult};
use crate::search::{SearchHit, Searcher};
use crate::vocabulary::{ApprovalDecision, ApprovalRequest, OperationKind};
use toolc_schema::SchemaError;

/// A toolbox and/or playbook with the manual that explains them to the model.
#[derive(Clone)]
pub struct Capability {
    /// The capability's name.
    pub name: &'static str,
    /// What it is for.
    pub description: &'static str,
    /// Model-facing instructions.
    pub manual: Option<&'static str>,
    /// Its tools.
    pub toolbox: Option<Arc<dyn Toolbox>>,
    /// Its plays.
    pub playbook: Option<Arc<dyn Playbook>>,
}

impl Capability {
    /// A capability with neither tools nor plays nor manual yet; add them with
    /// [`Capability::with_toolbox`], [`Capability::with_playbook`] and
    /// [`Capability::with_manual`].
    pub fn new(name: &'static str, description: &'static str) -> Capability {
        Capability {
            name,
            description,
            manual: None,
            toolbox: None,
            playbook: None,
        }
    }

    /// The capability with `manual` as its model-facing instructions.
    pub fn with_manual(mut self, manual: &'static str) -> Capability {
        self.manual = Some(manual);
        self
    }

    /// The capability with `toolbox` serving its tools.
    pub fn with_toolbox(mut self, toolbox: Arc<dyn Toolbox>) -> Capability {
        self.toolbox = Some(toolbox);
        self
    }

    /// The capability with `playbook` serving its plays.
    pub fn with_playbook(mut self, playbook: Arc<dyn Playbook>) -> Capability {
        self.playbook = Some(playbook);
        self
    }
}

impl fmt::Debug for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Capability")
            .field("name", &self.name)
            .field("toolbox", &self.toolbox.as_ref().map(|t| t.name()))
            .field("playbook", &self.playbook.as_ref().map(|p| p.name()))
            .finish()
    }
}

/// What serves a name.
#[derive(Clone, Copy)]
enum Target {
    Tool(usize),
    Play(usize),
    Registered(usize),
}

/// Where a name came from, for collision messages.
#[derive(Clone)]
struct Origin {
    target: Target,
    /// The toolbox or playbook instance (the address of its data, only compared), so that
    /// one shared by two capabilities is not a collision with itself; 0 for none.
    instance: usize,
    what: String,
}

/// The address of the value behind `arc`, to tell instances apart.
fn instance_of<T: ?Sized>(arc: &Arc<T>) -> usize {
    Arc::as_ptr(arc).cast::<()>() as usize
}

/// Why an agent could not be built, or a tool not registered.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentError {
    /// Two tools or plays of the agent share a name (an agent serves each name once).
    NameTaken {
        /// The name.
        name: String,
        /// What already has it, e.g. `tool 'x' of toolbox 'support' (capability 'support')`.
        existing: String,
        /// What wanted it too.
        new: String,
    },
    /// A registered tool's name is empty, too long or has characters MCP refuses.
    InvalidName {
        /// The name given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A tool registered as a play ([`RegisteredTool::play`]) has a policy or is terminal:
    /// plays have neither.
    PlayPolicy {
        /// The play.
        play: String,
    },
    /// A registered tool's schema uses something the runtime's validator does not support,
    /// or is not a JSON Schema.
    Schema {
        /// The tool.
        tool: String,
        /// `"parameters"` or `"returns"`.
        which: &'static str,
        /// The keyword, where, and why.
        error: SchemaError,
    },
    /// [`Agent::unregister`] or [`Agent::replace`] named no tool registered at run time: nothing
    /// of that name, or a tool or play of the toolset, which the agent serves for its lifetime.
    NotRegistered {
        /// The name given.
        name: String,
        /// What has the name, when something has: `tool 'x' of toolbox 'support' (capability
        /// 'support')`.
        existing: Option<String>,
    },
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::NameTaken {
                name,
                existing,
                new,
            } => write!(
                f,
                "{new} cannot be added: {existing} already has the name '{name}'; an agent serves \
                 each name once, so rename one of them"
            ),
            AgentError::InvalidName { name, reason } => {
                write!(f, "cannot register a tool named {name:?}: {reason}")
            }
            AgentError::PlayPolicy { play } => write!(
                f,
                "cannot register play '{play}': plays have no policies (auth, roles, rate \
                 limit, timeout, approval) and are not terminal; register it as a tool to give it \
                 one"
            ),
            AgentError::Schema { tool, which, error } => {
                write!(
                    f,
                    "cannot register tool '{tool}': its {which} schema {error}"
                )
            }
            AgentError::NotRegistered {
                name,
                existing: Some(existing),
            } => write!(
                f,
                "cannot remove or replace '{name}': it is the {existing}, which the agent serves \
                 for its lifetime; only tools registered at run time come and go"
            ),
            AgentError::NotRegistered {
                name,
                existing: None,
            } => write!(
                f,
                "cannot remove or replace '{name}': the agent has no tool of that name"
            ),
        }
    }
}

impl std::error::Error for AgentError {}

/// Which tools the host lets one call see and call ([`Agent::with_tool_filter`]): `true` keeps
/// the tool for that call.
pub type ToolFilter = dyn Fn(&ToolDescriptor, &CallContext) -> bool + Send + Sync;

/// The set of capabilities one model sees, callable by tool or play name, plus the tools the
/// host registered at run time.
///
/// Cloning is cheap and shares what serves the calls (toolbox and playbook instances, handlers
/// of registered tools, policy state such as rate limits); a clone registers, replaces and
/// removes its run-time tools apart from the original, which is how a server that serves an
/// agent changes it while calls run on the one before.
#[derive(Clone)]
pub struct Agent {
    name: &'static str,
    description: &'static str,
    capabilities: Vec<Capability>,
    registered: Vec<Registered>,
    by_name: HashMap<&'static str, (Origin, &'static ToolDescriptor)>,
    order: Vec<&'static ToolDescriptor>,
    searcher: Searcher,
    filter: Option<Arc<ToolFilter>>,
}

impl Agent {
    /// An agent over `capabilities`: every tool, then every play, in capability order.
    ///
    /// Two tools or plays of one name are an error ([`AgentError::NameTaken`]), whether in one
    /// capability or two, tool against play or tool against tool; the same toolbox or playbook
    /// instance (one `Arc`) bound by two capabilities is served once.
    pub fn new(
        name: &'static str,
        description: &'static str,
        capabilities: Vec<Capability>,
    ) -> Result<Agent, AgentError> {
        let mut agent = Agent {
            name,
            description,
            capabilities: Vec::new(),
            registered: Vec::new(),
            by_name: HashMap::new(),
            order: Vec::new(),
            searcher: Searcher::default(),
            filter: None,
        };
        for (i, cap) in capabilities.iter().enumerate() {
            if let Some(tb) = &cap.toolbox {
                let instance = instance_of(tb);
                for d in tb.descriptors() {
                    let what = format!(
                        "tool '{}' of toolbox '{}' (capability '{}')",
                        d.name,
                        tb.name(),
                        cap.name
                    );
                    agent.claim(d, Target::Tool(i), instance, what)?;
                }
            }
        }
        for (i, cap) in capabilities.iter().enumerate() {
            if let Some(pb) = &cap.playbook {
                let instance = instance_of(pb);
                for d in pb.descriptors() {
                    let what = format!(
                        "play '{}' of playbook '{}' (capability '{}')",
                        d.name,
                        pb.name(),
                        cap.name
                    );
                    agent.claim(d, Target::Play(i), instance, what)?;
                }
            }
        }
        agent.capabilities = capabilities;
        Ok(agent)
    }

    /// Adds `d` under its name, unless the same instance already serves it.
    fn claim(
        &mut self,
        d: &'static ToolDescriptor,
        target: Target,
        instance: usize,
        what: String,
    ) -> Result<(), AgentError> {
        if let Some((existing, _)) = self.by_name.get(d.name) {
            let same_instance = instance != 0
                && existing.instance == instance
                && std::mem::discriminant(&existing.target) == std::mem::discriminant(&target);
            if same_instance {
                return Ok(());
            }
            return Err(AgentError::NameTaken {
                name: d.name.to_owned(),
                existing: existing.what.clone(),
                new: what,
            });
        }
        self.by_name.insert(
            d.name,
            (
                Origin {
                    target,
                    instance,
                    what,
                },
                d,
            ),
        );
        self.order.push(d);
        Ok(())
    }

    /// Adds a tool the host made at run time (a plugin, a tool of another MCP server): it is
    /// listed after the agent's own tools and plays and called through the same contract
    /// (its parameters validated against the schema compiled here, its policies, timeout,
    /// panic containment and tracing).
    ///
    /// Fails, adding nothing, when the name is taken by any tool or play of the agent (never
    /// shadowing), when the name is not one providers accept, or when a schema uses something
    /// the validator does not support ([`AgentError::Schema`] names the keyword and where).
    pub fn register(&mut self, tool: RegisteredTool) -> Result<(), AgentError> {
        if let Some((existing, _)) = self.by_name.get(tool.name()) {
            return Err(AgentError::NameTaken {
                name: tool.name().to_owned(),
                existing: existing.what.clone(),
                new: format!("registered tool '{}'", tool.name()),
            });
        }
        let registered = tool.build()?;
        let d = registered.descriptor();
        let what = format!("registered tool '{}'", d.name);
        let index = self.registered.len();
        self.claim(d, Target::Registered(index), 0, what)?;
        self.registered.push(registered);
        Ok(())
    }

    /// Removes the tool registered at run time as `name` ([`Agent::register`]): it is no longer
    /// listed, found by search, or callable (a call names an unknown tool). The tools and plays
    /// of the toolset cannot be removed ([`AgentError::NotRegistered`] says which one has the
    /// name). An MCP server made of the agent before lists what the agent had then.
    ///
    /// Its compiled schema and descriptor stay allocated for the program's life, as a
    /// registered tool's do (`'static`, like generated statics): remove and replace tools when
    /// their source changes, not per call.
    pub fn unregister(&mut self, name: &str) -> Result<(), AgentError> {
        let i = self.registered_index(name)?;
        self.registered.remove(i);
        self.by_name.remove(name);
        self.order.retain(|d| d.name != name);
        for (origin, _) in self.by_name.values_mut() {
            if let Target::Registered(j) = &mut origin.target
                && *j > i
            {
                *j -= 1;
            }
        }
        // Registered tools are indexed at run time, after the compiled index: index them again.
        self.searcher.forget_built();
        Ok(())
    }

    /// Puts `tool` in the place of the tool registered at run time under the same name: its
    /// description, schemas, policies and handler are `tool`'s from the next call on (calls in
    /// flight finish with the old one), and it keeps its place in the list. Fails, changing
    /// nothing, when no tool registered at run time has that name ([`AgentError::NotRegistered`])
    /// or when `tool` could not be registered ([`Agent::register`]'s errors).
    pub fn replace(&mut self, tool: RegisteredTool) -> Result<(), AgentError> {
        let i = self.registered_index(tool.name())?;
        let registered = tool.build()?;
        let d = registered.descriptor();
        let slot = self
            .order
            .iter()
            .position(|o| o.name == d.name)
            .unwrap_or(self.order.len());
        if slot < self.order.len() {
            self.order[slot] = d;
        } else {
            self.order.push(d);
        }
        if let Some(entry) = self.by_name.get_mut(d.name) {
            entry.1 = d;
        }
        self.registered[i] = registered;
        self.searcher.forget_built();
        Ok(())
    }

    /// Where the tool registered at run time as `name` is kept.
    fn registered_index(&self, name: &str) -> Result<usize, AgentError> {
        match self.by_name.get(name) {
            Some((
                Origin {
                    target: Target::Registered(i),
                    ..
                },
                _,
            )) => Ok(*i),
            Some((origin, _)) => Err(AgentError::NotRegistered {
                name: name.chars().take(80).collect(),
                existing: Some(origin.what.clone()),
            }),
            None => Err(AgentError::NotRegistered {
                name: name.chars().take(80).collect(),
                existing: None,
            }),
        }
    }

    /// Uses a search index built at compile time for the agent's first tools (what generated
    /// agent constructors pass): searches read its tables as they are, and only the tools
    /// after them (registered at run time) are tokenized here. An index that does not fit
    /// the tools (another tokenizer version, inconsistent tables, other tools or another
    /// order) is ignored, and the agent indexes its tools from their descriptors.
    #[doc(hidden)]
    pub fn with_search_index(mut self, index: &'static toolc_search::IndexRef<'static>) -> Agent {
        self.searcher.set_prebuilt(index, &self.order);
        self
    }

    /// How many of the agent's tools its search reads from an index built at compile time,
    /// and how many it has tokenized at run time so far (tools registered, or an agent built
    /// without a compiled index): for tests that a generated agent tokenizes nothing.
    #[doc(hidden)]
    pub fn search_index_parts(&self) -> (usize, usize) {
        self.searcher.parts()
    }

    /// The agent's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// What the agent is for.
    pub fn description(&self) -> &'static str {
        self.description
    }

    /// Its capabilities, in order.
    pub fn capabilities(&self) -> &[Capability] {
        &self.capabilities
    }

    /// Every tool, then every play, in capability order, then the registered tools in the
    /// order they were registered.
    pub fn tools(&self) -> Vec<&'static ToolDescriptor> {
        self.order.clone()
    }

    /// The tools and plays one call may see: those whose `auth` and `roles` admit the context's
    /// caller and that the host's filter ([`Agent::with_tool_filter`]) keeps, in the order of
    /// [`Agent::tools`]. What a host sends the model on a turn when the list depends on who
    /// asks or on the moment.
    pub fn tools_for(&self, ctx: &CallContext) -> Vec<&'static ToolDescriptor> {
        self.order
            .iter()
            .copied()
            .filter(|d| check_access(d, ctx).is_ok() && self.shows(d, ctx))
            .collect()
    }

    /// Decides per call which tools exist for it: `filter` sees each descriptor and the call's
    /// context. A tool it hides is left out of [`Agent::tools_for`] and calling it fails as an
    /// unknown tool would (`unknown_tool`), so a hidden tool cannot be reached by its name; the
    /// MCP server lists and calls through it too. [`Agent::tools`] still lists every tool.
    pub fn with_tool_filter<F>(mut self, filter: F) -> Agent
    where
        F: Fn(&ToolDescriptor, &CallContext) -> bool + Send + Sync + 'static,
    {
        self.filter = Some(Arc::new(filter));
        self
    }

    /// The host's filter ([`Agent::with_tool_filter`]), if it set one: what a server asks to
    /// list per request.
    pub fn tool_filter(&self) -> Option<&ToolFilter> {
        self.filter.as_deref()
    }

    /// Whether the host's filter keeps `d` for `ctx` (no filter keeps everything).
    fn shows(&self, d: &ToolDescriptor, ctx: &CallContext) -> bool {
        self.filter.as_ref().is_none_or(|f| f(d, ctx))
    }

    /// The descriptor of the tool or play called `name`.
    pub fn descriptor(&self, name: &str) -> Option<&'static ToolDescriptor> {
        self.by_name.get(name).map(|(_, d)| *d)
    }

    /// The capabilities' manuals, joined by blank lines.
    pub fn instructions(&self) -> String {
        let manuals: Vec<&str> = self
            .capabilities
            .iter()
            .filter_map(|c| c.manual)
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .collect();
        manuals.join("\n\n")
    }

    /// The `k` tools and plays that best match `query`, best first, each with its score
    /// (BM25 over name, title, description and parameter names and descriptions, as
    /// docs/generated-code.md's "Tool search" says). Names split at `_`, `-` and camelCase humps, and words are folded
    /// to their stems, so "list meetings" finds `listMeetings`. An empty or wordless query
    /// finds nothing.
    pub fn search_tools(&self, query: &str, k: usize) -> Vec<SearchHit> {
        self.searcher.search(&self.order, query, k)
    }

    /// The typed outcome of calling `name`: the descriptor it named, if any, and the result.
    pub(crate) async fn dispatch(
        &self,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
    ) -> (Option<&'static ToolDescriptor>, Result<Value, ToolError>) {
        let (desc, result) = self
            .dispatch_as(name, arguments, ctx, Encoding::Value)
            .await;
        (desc, result.map(Answer::into_value))
    }

    /// [`Agent::dispatch`] in the encoding asked for.
    async fn dispatch_as(
        &self,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
        encoding: Encoding,
    ) -> (Option<&'static ToolDescriptor>, Result<Answer, ToolError>) {
        let Some((origin, desc)) = self.by_name.get(name) else {
            return (None, Err(ToolError::unknown_tool(name)));
        };
        if !self.shows(desc, ctx) {
            return (None, Err(ToolError::unknown_tool(name)));
        }
        let json = encoding == Encoding::Json;
        let result = match origin.target {
            Target::Tool(i) => match &self.capabilities[i].toolbox {
                Some(tb) if json => tb.call_json(name, arguments, ctx).await.map(Answer::Json),
                Some(tb) => tb.call(name, arguments, ctx).await.map(Answer::Value),
                None => Err(ToolError::unknown_tool(name)),
            },
            Target::Play(i) => match &self.capabilities[i].playbook {
                Some(pb) if json => pb.call_json(name, arguments).await.map(Answer::Json),
                Some(pb) => pb.call(name, arguments).await.map(Answer::Value),
                None => Err(ToolError::unknown_tool(name)),
            },
            Target::Registered(i) => self.registered[i]
                .call(arguments, ctx)
                .await
                .map(Answer::Value),
        };
        (Some(*desc), result)
    }

    /// Calls the tool or play called `name`. A tool's failure is `Err`; a play answers `Ok`
    /// with its value or its error envelope `{ "error", "kind" }` (plays never fail past the
    /// playbook); an unknown name fails with `unknown_tool`. A tool that needs approval answers
    /// `Err` of kind `approval_required`, the held call in [`ToolError::approval`].
    ///
    /// [`Agent::call_result`] tells a play's failure apart without looking at the JSON.
    pub async fn call(
        &self,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
    ) -> Result<Value, ToolError> {
        match self.dispatch(name, arguments, ctx).await {
            (Some(desc), Err(error)) if desc.kind == OperationKind::Play => {
                Ok(error_envelope(&error))
            }
            (_, result) => result,
        }
    }

    /// [`Agent::call`], answering the value as the JSON text the host receives: generated
    /// toolboxes and playbooks write it, validated as it is written, with no
    /// `serde_json::Value` on the way ([`Toolbox::call_json`]). A play's failure is its error
    /// envelope, as in [`Agent::call`].
    pub async fn call_json(
        &self,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
    ) -> Result<Box<serde_json::value::RawValue>, ToolError> {
        match self.dispatch_as(name, arguments, ctx, Encoding::Json).await {
            (Some(desc), Err(error)) if desc.kind == OperationKind::Play => {
                Ok(Answer::Value(error_envelope(&error)).into_json())
            }
            (_, result) => result.map(Answer::into_json),
        }
    }

    /// Calls `name` and answers the envelope the model and the host see: `ok: false` for any
    /// failure, a play's included (decided from the dispatcher's outcome, never from the
    /// JSON), `terminal` when a terminal tool succeeded, and the metadata: the call id, the
    /// duration, the attempt, the tool kind and the entries the handler recorded with
    /// [`ToolContext::set_metadata`](crate::ToolContext::set_metadata).
    ///
    /// A tool that needs approval answers `ok: false` with `approval` set instead: the call is
    /// held, not failed. Resume it with [`Agent::approve`] or [`Agent::deny`].
    pub async fn call_result(&self, name: &str, arguments: &str, ctx: &CallContext) -> ToolResult {
        let start = Instant::now();
        let call = ctx.recording();
        let (desc, outcome) = self.dispatch(name, arguments, &call).await;
        let elapsed = start.elapsed();
        let mut result = ToolResult::from(outcome);
        result.terminal = result.ok && desc.is_some_and(|d| d.terminal);
        result.metadata = Some(Metadata {
            call_id: ctx.call_id().to_owned(),
            tool_kind: desc.map(|d| d.kind),
            duration_us: u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
            attempt: ctx.attempt(),
            entries: call.take_entries(),
        });
        result
    }
}

impl Agent {
    /// Resumes a call held for approval: calls `request.tool` again with `request.arguments`
    /// (or, for a tool reached through a delegate, the delegate the host called, with
    /// `request.delegate_arguments`: the token travels down to the inner tool)
    /// and the token ([`CallContext::with_approval`]), so the handler runs through the whole
    /// contract (policies and rate limit, the timeout, result validation, tracing) once the
    /// token is redeemed. `ctx` must carry the caller the call was held for; a token that is
    /// used, expired, or was issued for another tool, arguments or caller fails the call with
    /// `forbidden`.
    ///
    /// ```no_run
    /// # async fn demo(agent: toolc_runtime::Agent, ctx: toolc_runtime::CallContext) {
    /// let result = agent.call_result("cancel_order", r#"{"order_id": "A-1001"}"#, &ctx).await;
    /// if let Some(request) = &result.approval {
    ///     println!("{}: {}", request.message, request.arguments);
    ///     let person_says_yes = true; // your UI
    ///     let result = if person_says_yes {
    ///         agent.approve(request, &ctx).await
    ///     } else {
    ///         agent.deny(request, &ctx).await
    ///     };
    ///     assert!(result.approval.is_none());
    /// }
    /// # }
    /// ```
    pub async fn approve(&self, request: &ApprovalRequest, ctx: &CallContext) -> ToolResult {
        self.resume(request, ctx, ApprovalDecision::Approve).await
    }

    /// Answers a call held for approval with no: withdraws its token
    /// ([`CallContext::with_denial`]) and fails with `forbidden`, saying a person denied it (the
    /// result to send back to the model). The handler never runs.
    pub async fn deny(&self, request: &ApprovalRequest, ctx: &CallContext) -> ToolResult {
        self.resume(request, ctx, ApprovalDecision::Deny).await
    }

    async fn resume(
        &self,
        request: &ApprovalRequest,
        ctx: &CallContext,
        decision: ApprovalDecision,
    ) -> ToolResult {
        let (tool, arguments) = request.resumed_call();
        let arguments = arguments.to_string();
        let ctx = ctx.resuming(request, decision);
        self.call_result(tool, &arguments, &ctx).await
    }
}

impl fmt::Debug for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Agent")
            .field("name", &self.name)
            .field("capabilities", &self.capabilities)
            .field("registered", &self.registered.len())
            .finish()
    }
}
