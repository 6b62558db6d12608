//! The server: an agent, its tools as listed, the caller hook, and how calls are bounded. How it
//! answers is in `handler.rs` (the MCP methods), `call.rs` (a `tools/call`), `deferred.rs`
//! (deferred loading); how it is reached, in `stdio.rs` and `http.rs`.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex, RwLock};

use rmcp::RoleServer;
use rmcp::model::Tool;
use rmcp::service::{Peer, SubscriptionSink};
use toolc_runtime::{Agent, CallContext, PolicyStore};

use crate::listing::{Listed, mcp_tool, own_annotations};
use crate::request::{CallerHook, McpRequest, default_context};

/// Deferred loading, as configured: which tools are listed from the start.
pub(crate) struct Deferred {
    /// Indexes into `tools` of the pinned tools.
    pub(crate) pinned: BTreeSet<usize>,
    /// The search tool, as listed.
    pub(crate) search: Tool,
    /// Its parameters, as a validation schema.
    pub(crate) parameters: &'static toolc_schema::Schema,
}

/// One agent as served: the agent, its tools as listed, and each tool's index by name.
pub(crate) struct Served {
    pub(crate) agent: Arc<Agent>,
    pub(crate) tools: Vec<Listed>,
    pub(crate) by_name: HashMap<&'static str, usize>,
}

impl Served {
    pub(crate) fn of(agent: Arc<Agent>) -> Served {
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
        Served {
            agent,
            tools,
            by_name,
        }
    }
}

/// The clients of a reloadable server, each told when the served agent is replaced: the peers
/// of sessions that sent `notifications/initialized` (protocol 2025-11-25 and before), and the
/// `subscriptions/listen` streams that asked for list changes (2026-07-28).
#[derive(Default)]
pub(crate) struct Listeners {
    pub(crate) peers: Mutex<Vec<Peer<RoleServer>>>,
    pub(crate) sinks: Mutex<Vec<SubscriptionSink>>,
}

/// What one session of a server with deferred loading has found, and where to say so.
#[derive(Default)]
pub(crate) struct Session {
    /// The tools a search has made listed and callable.
    pub(crate) found: Mutex<BTreeSet<usize>>,
    /// `subscriptions/listen` streams (protocol 2026-07-28) that asked for list changes.
    pub(crate) sinks: Mutex<Vec<SubscriptionSink>>,
}

/// An MCP server for one [`Agent`] (shared: `McpServer::new` takes an `Arc<Agent>` as well as
/// an `Agent`): build it, set the caller hook, then serve.
///
/// Cloning is cheap; clones share the agent (and so its rate limits) and the policy store. With deferred loading
/// ([`McpServer::with_deferred_loading`]) each clone, as each HTTP session is, keeps its own
/// set of found tools.
pub struct McpServer {
    /// What is served now: replaced whole by a [`Reloader`](crate::Reloader), shared by every
    /// clone.
    pub(crate) served: Arc<RwLock<Arc<Served>>>,
    /// The clients to tell when the served agent is replaced; `None` unless
    /// [`McpServer::reloadable`] made it so.
    pub(crate) listeners: Option<Arc<Listeners>>,
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
            listeners: self.listeners.clone(),
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
            served: Arc::new(RwLock::new(Arc::new(Served::of(agent.into())))),
            listeners: None,
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

    /// What is served now: one agent and its tools as listed, the same for the whole of a
    /// request even when a [`Reloader`](crate::Reloader) replaces it meanwhile.
    pub(crate) fn served(&self) -> Arc<Served> {
        Arc::clone(&read(&self.served))
    }

    /// Whether tool `i` is listed and callable now.
    pub(crate) fn visible(&self, i: usize) -> bool {
        match &self.deferred {
            None => true,
            Some(d) => d.pinned.contains(&i) || lock(&self.session.found).contains(&i),
        }
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

    /// The agent served now (the last one a [`Reloader`](crate::Reloader) gave, if any).
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
                    .enumerate()
                    .filter(|(i, _)| self.visible(*i))
                    .map(|(_, l)| l.tool.clone()),
            )
            .collect()
    }
}

/// The value behind `m`, whether or not a thread panicked holding it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The value behind `m` to read, whether or not a thread panicked writing it.
pub(crate) fn read<T>(m: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    m.read().unwrap_or_else(|p| p.into_inner())
}

/// The value behind `m` to replace, whether or not a thread panicked writing it.
pub(crate) fn write<T>(m: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    m.write().unwrap_or_else(|p| p.into_inner())
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
