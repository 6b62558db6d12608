//! The server: an agent, its tools as listed, the caller hook, and how calls are bounded. How it
//! answers is in `handler.rs` (the MCP methods), `call.rs` (a `tools/call`), `deferred.rs`
//! (deferred loading); how it is reached, in `stdio.rs` and `http.rs`.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, RwLock};

use rmcp::RoleServer;
use rmcp::model::Tool;
use rmcp::service::{Peer, SubscriptionSink};
use toolc_runtime::{Agent, AgentError, CallContext, PolicyStore};

use crate::listing::{Listed, mcp_tool, own_annotations};
use crate::request::{CallerHook, McpRequest, default_context};

/// What the server serves now: the agent and its tools as listed. [`McpServer::update`] puts a
/// new one in its place; a call keeps the one it started with.
pub(crate) struct Current {
    pub(crate) agent: Arc<Agent>,
    pub(crate) tools: Vec<Listed>,
    pub(crate) by_name: HashMap<&'static str, usize>,
}

impl Current {
    fn new(agent: Arc<Agent>) -> Current {
        let tools: Vec<Listed> = agent
            .tools()
            .into_iter()
            .map(|desc| Listed {
                tool: mcp_tool(desc),
                desc,
                own_annotations: own_annotations(desc),
            })
            .collect();
        let by_name = tools
            .iter()
            .enumerate()
            .map(|(i, l)| (l.desc.name, i))
            .collect();
        Current {
            agent,
            tools,
            by_name,
        }
    }

    /// The listed tool called `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&Listed> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }
}

/// Who to tell that the tool list changed: every session's peer (protocol 2025-11-25 and
/// before) and every `subscriptions/listen` stream that asked (2026-07-28), of every clone.
#[derive(Default)]
pub(crate) struct Audience {
    pub(crate) peers: Mutex<Vec<Peer<RoleServer>>>,
    pub(crate) sinks: Mutex<Vec<SubscriptionSink>>,
    /// How many times [`McpServer::update`] has changed the list.
    pub(crate) changes: AtomicU64,
}

/// Deferred loading, as configured: which tools are listed from the start.
pub(crate) struct Deferred {
    /// The names of the pinned tools.
    pub(crate) pinned: BTreeSet<&'static str>,
    /// The search tool, as listed.
    pub(crate) search: Tool,
    /// Its parameters, as a validation schema.
    pub(crate) parameters: &'static toolc_schema::Schema,
}

/// What one session of a server with deferred loading has found, and where to say so.
#[derive(Default)]
pub(crate) struct Session {
    /// The names of the tools a search has made listed and callable.
    pub(crate) found: Mutex<BTreeSet<&'static str>>,
    /// `subscriptions/listen` streams (protocol 2026-07-28) that asked for list changes.
    pub(crate) sinks: Mutex<Vec<SubscriptionSink>>,
    /// How many times a search has changed this session's list.
    pub(crate) changes: AtomicU64,
    /// The `subscriptions/listen` requests accepted but not yet listening.
    pub(crate) pending: Mutex<PendingListens>,
}

/// `subscriptions/listen` requests between their acknowledgment and their stream's
/// registration, a window in which a change would reach no stream of theirs.
#[derive(Default)]
pub(crate) struct PendingListens {
    /// How many there are.
    pub(crate) count: usize,
    /// The list's generation when the oldest of them was accepted.
    pub(crate) since: u64,
}

/// An MCP server for one [`Agent`] (shared: `McpServer::new` takes an `Arc<Agent>` as well as
/// an `Agent`): build it, set the caller hook, then serve.
///
/// Cloning is cheap; clones share the agent (and so its rate limits) and the policy store. With deferred loading
/// ([`McpServer::with_deferred_loading`]) each clone, as each HTTP session is, keeps its own
/// set of found tools.
pub struct McpServer {
    pub(crate) served: Arc<RwLock<Arc<Current>>>,
    pub(crate) audience: Arc<Audience>,
    pub(crate) caller: Arc<CallerHook>,
    pub(crate) version: String,
    pub(crate) store: Option<Arc<dyn PolicyStore>>,
    pub(crate) max_calls: usize,
    /// The call slots of a byte-stream connection ([`McpServer::serve`]).
    pub(crate) slots: Arc<tokio::sync::Semaphore>,
    pub(crate) deferred: Option<Arc<Deferred>>,
    pub(crate) session: Arc<Session>,
    pub(crate) approval_ttl: Option<std::time::Duration>,
}

impl Clone for McpServer {
    fn clone(&self) -> McpServer {
        McpServer {
            served: Arc::clone(&self.served),
            audience: Arc::clone(&self.audience),
            caller: Arc::clone(&self.caller),
            version: self.version.clone(),
            deferred: self.deferred.clone(),
            session: Arc::default(),
            store: self.store.clone(),
            max_calls: self.max_calls,
            slots: Arc::clone(&self.slots),
            approval_ttl: self.approval_ttl,
        }
    }
}

/// The default of [`McpServer::with_max_concurrent_calls`].
const DEFAULT_MAX_CALLS: usize = 32;

impl McpServer {
    /// A server for `agent`. Every call is made by an anonymous caller until
    /// [`McpServer::with_caller`] says otherwise.
    pub fn new(agent: impl Into<Arc<Agent>>) -> McpServer {
        McpServer {
            served: Arc::new(RwLock::new(Arc::new(Current::new(agent.into())))),
            audience: Arc::default(),
            caller: Arc::new(default_context),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            store: None,
            max_calls: DEFAULT_MAX_CALLS,
            slots: Arc::new(tokio::sync::Semaphore::new(DEFAULT_MAX_CALLS)),
            deferred: None,
            session: Arc::default(),
            approval_ttl: None,
        }
    }

    /// What the server serves now.
    pub(crate) fn served(&self) -> Arc<Current> {
        Arc::clone(&self.served.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// Whether the tool called `name` is listed and callable now, under deferred loading.
    pub(crate) fn visible(&self, name: &str) -> bool {
        match &self.deferred {
            None => true,
            Some(d) => d.pinned.contains(name) || lock(&self.session.found).contains(name),
        }
    }

    /// Changes the agent this server serves while it serves it: `change` gets a clone of the
    /// agent (which shares its toolboxes, handlers and rate limits) to register, replace or
    /// remove run-time tools on ([`Agent::register`], [`Agent::replace`],
    /// [`Agent::unregister`]). When it succeeds the clone is served from the next request on
    /// (calls in flight finish on the agent they started with), and when the tool list changed
    /// every session is sent `notifications/tools/list_changed`; when it fails nothing changes.
    ///
    /// With deferred loading, a tool named [`SEARCH_TOOL`](crate::SEARCH_TOOL) is refused, and
    /// a replaced tool that a session had found stays found.
    ///
    /// Updates are made one at a time: `change` runs while no other update can, so it must not
    /// call back into the server ([`McpServer::agent`] would wait for the update to end): it
    /// reads and changes the agent it is given.
    pub async fn update<T, F>(&self, change: F) -> Result<T, AgentError>
    where
        F: FnOnce(&mut Agent) -> Result<T, AgentError>,
    {
        let (out, changed) = {
            let mut served = self.served.write().unwrap_or_else(|p| p.into_inner());
            let mut agent = Agent::clone(&served.agent);
            let out = change(&mut agent)?;
            if self.deferred.is_some() && agent.descriptor(crate::SEARCH_TOOL).is_some() {
                return Err(AgentError::NameTaken {
                    name: crate::SEARCH_TOOL.to_owned(),
                    existing: "the search tool of deferred loading".to_owned(),
                    new: format!("registered tool '{}'", crate::SEARCH_TOOL),
                });
            }
            let before: Vec<_> = served.agent.tools();
            let after: Vec<_> = agent.tools();
            let changed = before.len() != after.len()
                || before
                    .iter()
                    .zip(&after)
                    .any(|(a, b)| !std::ptr::eq(*a, *b));
            *served = Arc::new(Current::new(Arc::new(agent)));
            (out, changed)
        };
        if changed {
            self.announce_everywhere().await;
        }
        Ok(out)
    }

    /// Keeps every call's policy state (rate-limit allowances) in `store` rather than in each
    /// toolbox's memory: replicas that share a store (a `RedisStore`) share their limits. The
    /// readiness endpoint of the HTTP transport pings it.
    pub fn with_store(self, store: impl PolicyStore) -> McpServer {
        self.with_shared_store(Arc::new(store))
    }

    /// [`McpServer::with_store`] with a store already behind an `Arc`.
    pub fn with_shared_store(mut self, store: Arc<dyn PolicyStore>) -> McpServer {
        self.store = Some(store);
        self
    }

    /// How long a call held for approval may wait for its answer (default
    /// [`DEFAULT_APPROVAL_TTL`](toolc_runtime::approval::DEFAULT_APPROVAL_TTL), 10 minutes): the time to
    /// live of its token, and the longest the server waits for an elicitation's answer. A
    /// context the caller hook made with [`CallContext::with_approval_ttl`] keeps its own.
    pub fn with_approval_ttl(mut self, ttl: std::time::Duration) -> McpServer {
        self.approval_ttl = Some(ttl);
        self
    }

    /// How many calls of one connection may run at once (default 32, at least 1): of one
    /// stdio stream, one MCP session over HTTP, or one HTTP connection for requests outside a
    /// session. A call beyond it fails at once with `rate_limited` (retryable).
    pub fn with_max_concurrent_calls(mut self, max: usize) -> McpServer {
        self.max_calls = max.clamp(1, tokio::sync::Semaphore::MAX_PERMITS);
        self.slots = Arc::new(tokio::sync::Semaphore::new(self.max_calls));
        self
    }

    /// Sets the hook that makes each call's context: its caller (id, auth level, roles) and
    /// scope. It runs once per `tools/call`, before the policies are checked. Without one,
    /// the caller is the authenticated identity's (over HTTP with an authenticator), else
    /// anonymous.
    pub fn with_caller<F>(mut self, hook: F) -> McpServer
    where
        F: Fn(&McpRequest<'_>) -> CallContext + Send + Sync + 'static,
    {
        self.caller = Arc::new(hook);
        self
    }

    /// Sets the version announced in the server info (default: this crate's version).
    pub fn with_version(mut self, version: impl Into<String>) -> McpServer {
        self.version = version.into();
        self
    }

    /// The agent served now ([`McpServer::update`] changes it).
    pub fn agent(&self) -> Arc<Agent> {
        Arc::clone(&self.served().agent)
    }

    /// The tools as `tools/list` lists them now: every tool and play, or with deferred
    /// loading [`SEARCH_TOOL`](crate::SEARCH_TOOL), the pinned tools and those found so far.
    pub fn tools(&self) -> Vec<Tool> {
        let search = self.deferred.as_ref().map(|d| d.search.clone());
        let served = self.served();
        search
            .into_iter()
            .chain(
                served
                    .tools
                    .iter()
                    .filter(|l| self.visible(l.desc.name))
                    .map(|l| l.tool.clone()),
            )
            .collect()
    }
}

/// The value behind `m`, whether or not a thread panicked holding it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let served = self.served();
        f.debug_struct("McpServer")
            .field("agent", &served.agent.name())
            .field("tools", &served.tools.len())
            .field("version", &self.version)
            .field("store", &self.store.as_ref().map(|s| s.describe()))
            .field("max_concurrent_calls", &self.max_calls)
            .finish()
    }
}

/// Why serving ended with an error (the session never started: the first message was no
/// `initialize`, or the transport failed; or its task failed), or why the server could not be
/// configured as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeError(pub(crate) String);

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}
