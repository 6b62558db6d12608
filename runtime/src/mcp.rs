//! Serving an [`Agent`] to MCP clients (feature `mcp`), on `rmcp`, the official Rust SDK.
//!
//! ```no_run
//! # async fn demo(agent: toolc_runtime::Agent) -> Result<(), toolc_runtime::mcp::ServeError> {
//! use toolc_runtime::{AuthLevel, CallContext, Caller};
//! use toolc_runtime::mcp::McpServer;
//!
//! McpServer::new(agent)
//!     // Who calls, as the host knows it: policies (auth, roles, rate limits) hold over MCP too.
//!     .with_caller(|request| {
//!         CallContext::new(request.call_id())
//!             .with_caller(Caller::new("ada").with_auth(AuthLevel::User).with_role("support"))
//!     })
//!     .serve_stdio()
//!     .await
//! # }
//! ```
//!
//! What the server says:
//!
//! - `initialize`: the agent's name and description as the server info, its manuals as the
//!   instructions, and the `tools` capability.
//! - `tools/list`: every tool and play of the agent, converted by [`mcp_tool`]: the input
//!   schema with an object root, the output schema only when the result is a plain object
//!   (MCP up to 2025-11-25 accepts no other output schema), the title, and the manifest's
//!   annotations: the hints under MCP's names, `annotations.title`, and the manifest's own keys
//!   ([`mcp_tool_json`]; over HTTP, rmcp's typed listing has no place for the manifest's own
//!   keys, so they are left out there).
//! - `tools/call`: through the agent's dispatch, so the execution contract holds. A result is
//!   its JSON as text, plus `structuredContent` (the same JSON) when the tool lists an output
//!   schema. A failure of the contract, a play's included (told from the dispatcher's outcome,
//!   never from the JSON), is an `isError` result whose text is
//!   `{"kind", "message", "retryable", …}`, also as `structuredContent` when no output schema
//!   forbids it. Every result's `_meta` has `toolc/terminal` (a terminal tool succeeded: end
//!   the turn) and `toolc/metadata` (call id, duration, attempt, tool kind and the handler's
//!   entries, as in [`ToolResult`]). An unknown tool is a protocol error (`-32602`).
//!
//! A tool that needs approval ([`crate::approval`]) is held, and the server asks the person
//! through the client's form elicitation: an `elicitation/create` request inside the call
//! (protocol 2025-11-25 and before), or an `InputRequiredResult` the client retries with the
//! answer (2026-07-28). Accept runs the tool; decline, cancel or no answer within the token's time
//! to live end the call, not run (`isError`, kind `forbidden`). A client without elicitation gets
//! an `isError` result of kind `approval_required` that says how a host grants it: the same call
//! again with the request `_meta` [`APPROVAL_META`] `{"token", "decision": "approve"}`, the
//! token being in that result's `_meta` (never in its text).
//!
//! A panic anywhere in a call (a handler, a hand-written toolbox, the caller hook) fails that
//! call with kind `panicked`; the server keeps serving.
//!
//! Deferred loading ([`McpServer::with_deferred_loading`]) lists only [`SEARCH_TOOL`] and the
//! pinned tools; the tools a search finds become listed and callable, and the server sends
//! `notifications/tools/list_changed`.
//!
//! Transports: stdio ([`McpServer::serve_stdio`]), any byte stream ([`McpServer::serve`]), and
//! with the `mcp-http` feature MCP's streamable HTTP (`McpServer::serve_http_with`): on a
//! loopback address, or on any address behind an authenticator (`toolc_runtime::auth`).
//!
//! Rate limits are kept in each toolbox's own memory unless [`McpServer::with_store`] names a
//! [`PolicyStore`] (a Redis shared by every replica, say). At most
//! [`McpServer::with_max_concurrent_calls`] calls of one connection run at once; the next one
//! fails with `rate_limited` until one finishes.

use std::any::Any;
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

pub use rmcp;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientNotification, ClientRequest,
    ClientResult, ContentBlock, CustomResult, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationSchema, ErrorCode, ErrorData, Icon, Implementation, InputRequest,
    InputRequests, InputRequiredResult, ListToolsResult, MetaObject, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, ServerNotification, ServerRequest, ServerResult,
    SubscriptionFilter, Tool, ToolAnnotations,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncRead, AsyncWrite};

#[cfg(feature = "mcp-http")]
#[path = "mcp_http.rs"]
pub mod http;

#[cfg(feature = "mcp-http")]
pub use self::http::HttpConfig;

use crate::agent::Agent;
use crate::approval::{ApprovalDecision, ApprovalRequest};
use crate::context::CallContext;
use crate::descriptor::ToolDescriptor;
use crate::errors::{ErrorKind, Truncated};
use crate::panic::{catch_panic, panic_text, panicked};
use crate::result::{Cause, ToolResult};
use crate::store::PolicyStore;
use toolc_schema::Violation;

/// Serves `agent` over stdin and stdout until the client closes the connection, with every
/// call made by an anonymous caller. See [`McpServer`] to set the caller.
pub async fn serve_stdio(agent: Agent) -> Result<(), ServeError> {
    McpServer::new(agent).serve_stdio().await
}

/// What the caller hook sees of one `tools/call` request.
pub struct McpRequest<'a> {
    tool: &'a str,
    call_id: &'a str,
    context: &'a RequestContext<RoleServer>,
}

impl<'a> McpRequest<'a> {
    /// The tool or play called.
    pub fn tool(&self) -> &'a str {
        self.tool
    }

    /// A call id made of the JSON-RPC request id (`mcp-<id>`).
    pub fn call_id(&self) -> &'a str {
        self.call_id
    }

    /// The client's name, as it introduced itself.
    pub fn client_name(&self) -> Option<String> {
        self.context.client_info().map(|i| i.name)
    }

    /// The whole request context: the peer, the request's `_meta`, and the transport's
    /// extensions.
    pub fn context(&self) -> &'a RequestContext<RoleServer> {
        self.context
    }

    /// Who the HTTP request was authenticated as, when the server has an authenticator
    /// (`HttpConfig::authenticator`).
    #[cfg(feature = "mcp-http")]
    pub fn identity(&self) -> Option<&'a crate::auth::Identity> {
        self.http_parts()?.extensions.get::<crate::auth::Identity>()
    }

    /// The HTTP request's parts, when the call came over HTTP.
    #[cfg(feature = "mcp-http")]
    pub fn http_parts(&self) -> Option<&'a ::http::request::Parts> {
        self.context.extensions.get::<::http::request::Parts>()
    }
}

impl fmt::Debug for McpRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpRequest")
            .field("tool", &self.tool)
            .field("call_id", &self.call_id)
            .finish()
    }
}

type CallerHook = dyn Fn(&McpRequest<'_>) -> CallContext + Send + Sync;

/// One tool as listed, with its descriptor.
struct Listed {
    tool: Tool,
    desc: &'static ToolDescriptor,
    /// The annotations as the compiler wrote them, when they hold keys `ToolAnnotations` has no
    /// field for (keys of the manifest's own): the listing sends these instead.
    own_annotations: Option<Map<String, Value>>,
}

impl Listed {
    /// The tool as `tools/list` sends it.
    fn json(&self) -> Map<String, Value> {
        let mut tool = match serde_json::to_value(&self.tool) {
            Ok(Value::Object(tool)) => tool,
            _ => Map::new(),
        };
        if let Some(a) = &self.own_annotations {
            tool.insert("annotations".into(), Value::Object(a.clone()));
        }
        tool
    }
}

/// The annotation keys rmcp's [`ToolAnnotations`] carries.
const TYPED_ANNOTATIONS: [&str; 5] = [
    "title",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// A descriptor's annotations, when they hold a key [`ToolAnnotations`] has no field for.
fn own_annotations(desc: &ToolDescriptor) -> Option<Map<String, Value>> {
    match desc.annotations_json() {
        Value::Object(m) if m.keys().any(|k| !TYPED_ANNOTATIONS.contains(&k.as_str())) => Some(m),
        _ => None,
    }
}

/// The tool a server with deferred loading lists first: it finds the agent's other tools.
pub const SEARCH_TOOL: &str = "search_tools";

/// How many tools one `search_tools` call answers at most.
pub const MAX_SEARCH_LIMIT: u64 = 50;

/// Deferred loading, as configured: which tools are listed from the start.
struct Deferred {
    /// Indexes into `tools` of the pinned tools.
    pinned: BTreeSet<usize>,
    search: Tool,
    parameters: &'static toolc_schema::Schema,
}

/// What one session of a server with deferred loading has found, and where to say so.
#[derive(Default)]
struct Session {
    found: Mutex<BTreeSet<usize>>,
    /// `subscriptions/listen` streams (protocol 2026-07-28) that asked for list changes.
    sinks: Mutex<Vec<SubscriptionSink>>,
}

/// An MCP server for one [`Agent`]: build it, set the caller hook, then serve.
///
/// Cloning is cheap; clones share the agent (and so its rate limits) and the policy store. With deferred loading
/// ([`McpServer::with_deferred_loading`]) each clone, as each HTTP session is, keeps its own
/// set of found tools.
pub struct McpServer {
    agent: Arc<Agent>,
    tools: Arc<[Listed]>,
    by_name: Arc<HashMap<&'static str, usize>>,
    caller: Arc<CallerHook>,
    version: String,
    store: Option<Arc<dyn PolicyStore>>,
    max_calls: usize,
    /// The call slots of a byte-stream connection ([`McpServer::serve`]).
    slots: Arc<tokio::sync::Semaphore>,
    deferred: Option<Arc<Deferred>>,
    session: Arc<Session>,
    approval_ttl: Option<std::time::Duration>,
}

impl Clone for McpServer {
    fn clone(&self) -> McpServer {
        McpServer {
            agent: Arc::clone(&self.agent),
            tools: Arc::clone(&self.tools),
            by_name: Arc::clone(&self.by_name),
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
        let agent = agent.into();
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
        McpServer {
            agent,
            tools: tools.into(),
            by_name: Arc::new(by_name),
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

    /// Turns on deferred loading: `tools/list` lists only [`SEARCH_TOOL`] and the `pinned`
    /// tools; a search answers the matching tools' descriptions (name, title, description,
    /// schemas, score) and makes them listed and callable for the rest of the session, and the
    /// server then sends `notifications/tools/list_changed` (through `subscriptions/listen`
    /// under protocol 2026-07-28). A tool not yet found is not callable: calling it is an
    /// unknown-tool error that says to search first.
    ///
    /// Fails when a pinned name is no tool or play of the agent, or when the agent has a tool
    /// called `search_tools` itself.
    pub fn with_deferred_loading<I, S>(mut self, pinned: I) -> Result<McpServer, ServeError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        if self.by_name.contains_key(SEARCH_TOOL) {
            return Err(ServeError(format!(
                "agent '{}' has a tool named '{SEARCH_TOOL}', the name deferred loading lists its \
                 search under: rename that tool",
                self.agent.name()
            )));
        }
        let mut indexes = BTreeSet::new();
        for name in pinned {
            let name = name.as_ref();
            match self.by_name.get(name) {
                Some(&i) => {
                    indexes.insert(i);
                }
                None => {
                    return Err(ServeError(format!(
                        "cannot pin '{}': agent '{}' serves no tool or play of that name",
                        Truncated(name),
                        self.agent.name()
                    )));
                }
            }
        }
        let input = search_input_schema();
        let parameters = toolc_schema::compile(&input)
            .map_err(|e| ServeError(format!("the {SEARCH_TOOL} schema does not compile: {e}")))?;
        let Value::Object(input) = input else {
            return Err(ServeError(format!(
                "the {SEARCH_TOOL} schema is not an object"
            )));
        };
        let Value::Object(output) = search_output_schema() else {
            return Err(ServeError(format!(
                "the {SEARCH_TOOL} schema is not an object"
            )));
        };
        let search = Tool::new(
            SEARCH_TOOL,
            format!(
                "Search the tools of '{}' by what you need done, in plain words; the tools \
                 found become callable. Call it before any tool you do not see listed.",
                self.agent.name()
            ),
            Arc::new(input),
        )
        .with_raw_output_schema(Arc::new(output))
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false));
        self.deferred = Some(Arc::new(Deferred {
            pinned: indexes,
            search,
            parameters,
        }));
        Ok(self)
    }

    /// Whether tool `i` is listed and callable now.
    fn visible(&self, i: usize) -> bool {
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
    /// [`DEFAULT_APPROVAL_TTL`](crate::approval::DEFAULT_APPROVAL_TTL), 10 minutes): the time to
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

    /// The agent served.
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The tools as `tools/list` lists them now: every tool and play, or with deferred
    /// loading [`SEARCH_TOOL`], the pinned tools and those found so far.
    pub fn tools(&self) -> Vec<Tool> {
        let search = self.deferred.as_ref().map(|d| d.search.clone());
        search
            .into_iter()
            .chain(
                self.tools
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| self.visible(*i))
                    .map(|(_, l)| l.tool.clone()),
            )
            .collect()
    }

    /// Serves over stdin and stdout until the client closes the connection.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        let (reader, writer) = rmcp::transport::stdio_pipes();
        self.serve(reader, writer).await
    }

    /// Serves one client over a byte stream of newline-delimited JSON-RPC (stdio, a socket, an
    /// in-process `tokio::io::duplex`) until it closes.
    ///
    /// A client that closes the stream, even before it starts a session, ends serving with
    /// `Ok`. A session that cannot start (its first message is neither `initialize`, `ping`,
    /// `server/discover` nor a request carrying 2026-07-28 metadata) is an error.
    pub async fn serve<R, W>(mut self, reader: R, writer: W) -> Result<(), ServeError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        // This connection's own call slots.
        self.slots = Arc::new(tokio::sync::Semaphore::new(self.max_calls));
        let running = match ServiceExt::serve(Served(self), (reader, writer)).await {
            Ok(running) => running,
            // The client left before a session began (or after only `server/discover`).
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(ServeError(format!("the MCP session did not start: {e}"))),
        };
        match running.waiting().await {
            Ok(rmcp::service::QuitReason::JoinError(e)) | Err(e) => {
                Err(ServeError(format!("the MCP session failed: {e}")))
            }
            Ok(_) => Ok(()),
        }
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.as_ref();
        if let Some(deferred) = &self.deferred
            && name == SEARCH_TOOL
        {
            return Ok(self.search(deferred, &request, context).await.into());
        }
        let Some(&index) = self.by_name.get(name) else {
            return Err(unknown_tool(name));
        };
        if !self.visible(index) {
            return Err(ErrorData::invalid_params(
                format!(
                    "tool '{}' is not loaded: call {SEARCH_TOOL} with what it does to load it",
                    Truncated(name)
                ),
                Some(json!({ "kind": ErrorKind::UnknownTool.as_str() })),
            ));
        }
        let listed = &self.tools[index];
        let arguments = match &request.arguments {
            Some(map) => serde_json::to_string(map).map_err(|e| {
                ErrorData::invalid_params(format!("the arguments are not JSON: {e}"), None)
            })?,
            None => "{}".to_owned(),
        };
        let decision = approval_decision(&request, context)?;
        let call_id = format!("mcp-{}", Truncated(&context.id.to_string()));
        let info = McpRequest {
            tool: listed.desc.name,
            call_id: &call_id,
            context,
        };
        let slots = self.slots_of(context);
        let Ok(_permit) = slots.try_acquire_owned() else {
            let message = format!(
                "too many calls at once on this connection: at most {} run concurrently; retry '{}' when one finishes",
                self.max_calls, listed.desc.name
            );
            return Ok(error_result(listed, ErrorKind::RateLimited, &message, None).into());
        };
        let mut ctx = match catch_unwind(AssertUnwindSafe(|| (self.caller)(&info))) {
            Ok(ctx) => match (&self.store, ctx.store()) {
                (Some(store), None) => ctx.with_store(Arc::clone(store)),
                _ => ctx,
            },
            Err(payload) => {
                let message = format!(
                    "the MCP caller hook panicked on {} '{}': {}",
                    listed.desc.kind.as_str(),
                    listed.desc.name,
                    panic_text(&*payload)
                );
                return Ok(error_result(listed, ErrorKind::Panicked, &message, None).into());
            }
        };
        if let Some(ttl) = self.approval_ttl
            && !ctx.has_approval_ttl()
        {
            ctx = ctx.with_approval_ttl(ttl);
        }
        ctx = match decision {
            Some((token, ApprovalDecision::Approve)) => ctx.with_approval(token),
            Some((token, ApprovalDecision::Deny)) => ctx.with_denial(token),
            None => ctx,
        };
        let result = self.run(listed, &arguments, &ctx, context).await?;
        let Some(held) = result.approval.clone() else {
            return Ok(mcp_result(listed, result).into());
        };
        self.ask(listed, held, &ctx, context).await
    }

    /// One call through the agent, a panic contained and cancellation honoured.
    async fn run(
        &self,
        listed: &Listed,
        arguments: &str,
        ctx: &CallContext,
        context: &RequestContext<RoleServer>,
    ) -> Result<ToolResult, ErrorData> {
        let call = catch_panic(self.agent.call_result(listed.desc.name, arguments, ctx));
        self.finish(listed, call, context).await
    }

    /// The outcome of a call (or a resumption) as a result, or the protocol errors of a
    /// cancelled request and an unknown tool.
    async fn finish<F>(
        &self,
        listed: &Listed,
        call: F,
        context: &RequestContext<RoleServer>,
    ) -> Result<ToolResult, ErrorData>
    where
        F: Future<Output = Result<ToolResult, Box<dyn Any + Send>>>,
    {
        let outcome = match context.ct.run_until_cancelled(call).await {
            Some(outcome) => outcome,
            None => {
                return Err(ErrorData::new(
                    ErrorCode::INTERNAL_ERROR,
                    "the request was cancelled",
                    None,
                ));
            }
        };
        let result = match outcome {
            Ok(result) => result,
            Err(payload) => {
                let error = panicked(listed.desc.kind, listed.desc.name, &*payload);
                return Ok(ToolResult::failure(&error));
            }
        };
        if result.cause.as_ref().map(|c| c.code) == Some(ErrorKind::UnknownTool) {
            return Err(unknown_tool(listed.desc.name));
        }
        Ok(result)
    }

    /// A call held for approval: asks the person through the client's elicitation (in the
    /// request under protocol 2025-11-25 and before; as an `InputRequiredResult` the client
    /// retries under 2026-07-28), or, when the client cannot ask, refuses it with `isError` and
    /// the token in `_meta` for a host that asks by other means.
    async fn ask(
        &self,
        listed: &Listed,
        held: ApprovalRequest,
        ctx: &CallContext,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !elicits_forms(context) {
            return Ok(approval_refused(listed, &held).into());
        }
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: approval_question(listed.desc, &held),
            requested_schema: ElicitationSchema::new(Default::default()),
        };
        let per_request = context
            .protocol_version()
            .is_some_and(|v| !v.has_initialize());
        if per_request {
            let mut requests = InputRequests::new();
            requests.insert(
                APPROVAL_INPUT.to_owned(),
                InputRequest::Elicitation(ElicitRequest::new(params)),
            );
            let state = format!("{APPROVAL_STATE}{}", held.token);
            return Ok(InputRequiredResult::new(Some(requests), Some(state)).into());
        }
        let wait = std::time::Duration::from_millis(held.expires_in_ms);
        let asked = context
            .peer
            .send_request(ServerRequest::ElicitRequest(ElicitRequest::new(params)));
        let answer = match tokio::time::timeout(wait, asked).await {
            Ok(Ok(ClientResult::ElicitResult(answer))) => Ok(answer.action),
            Ok(Ok(_)) => {
                Err("the client answered something other than an elicitation result".to_owned())
            }
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {} ms", held.expires_in_ms)),
        };
        match answer {
            Ok(ElicitationAction::Accept) => {
                let call = catch_panic(self.agent.approve(&held, ctx));
                let result = self.finish(listed, call, context).await?;
                Ok(mcp_result(listed, result).into())
            }
            Ok(_) => {
                let call = catch_panic(self.agent.deny(&held, ctx));
                let result = self.finish(listed, call, context).await?;
                Ok(mcp_result(listed, result).into())
            }
            Err(why) => {
                // Withdraw the token: the call is answered now, and it was not run.
                let call = catch_panic(self.agent.deny(&held, ctx));
                let _ = self.finish(listed, call, context).await?;
                let message = format!(
                    "{} '{}' was not run: it needs a person's approval, and the client's elicitation got no answer ({}); call it again to ask again",
                    listed.desc.kind.as_str(),
                    listed.desc.name,
                    Truncated(&why)
                );
                Ok(error_result(listed, ErrorKind::Forbidden, &message, None).into())
            }
        }
    }
}

/// The request and result `_meta` key of approvals: a held call's result carries
/// `{"token", "tool", "arguments", "expires_in_ms", "message"}` under it, and a host resumes the
/// call by sending the same tool and arguments with `{"token": …, "decision": "approve"}` (or
/// `"deny"`) under it.
pub const APPROVAL_META: &str = "toolc/approval";

/// The key of the approval's elicitation in an `InputRequiredResult` (protocol 2026-07-28).
const APPROVAL_INPUT: &str = "toolc/approval";

/// The `requestState` of a held call is this prefix and its token: an opaque handle, the
/// state itself stays in the policy store.
const APPROVAL_STATE: &str = "toolc-approval:";

/// The host's decision on a held call that this request resumes, if any: from the retry of an
/// `InputRequiredResult` (its `requestState` and the elicitation's answer), or from the
/// request's `_meta` ([`APPROVAL_META`]).
fn approval_decision(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<Option<(String, ApprovalDecision)>, ErrorData> {
    if let Some(token) = request
        .request_state
        .as_deref()
        .and_then(|s| s.strip_prefix(APPROVAL_STATE))
    {
        let action = request
            .input_responses
            .as_ref()
            .and_then(|r| r.get(APPROVAL_INPUT))
            .and_then(|answer| serde_json::from_value::<ElicitResult>(answer.clone()).ok())
            .map(|answer| answer.action);
        let decision = match action {
            Some(ElicitationAction::Accept) => ApprovalDecision::Approve,
            // Declined, dismissed, or no answer: the call does not run.
            _ => ApprovalDecision::Deny,
        };
        return Ok(Some((token.to_owned(), decision)));
    }
    let meta = context
        .meta
        .0
        .get(APPROVAL_META)
        .or_else(|| request.meta.as_ref().and_then(|m| m.0.get(APPROVAL_META)));
    let Some(meta) = meta else {
        return Ok(None);
    };
    let token = meta.get("token").and_then(Value::as_str);
    let decision = match meta.get("decision").and_then(Value::as_str) {
        Some("approve") => Some(ApprovalDecision::Approve),
        Some("deny") => Some(ApprovalDecision::Deny),
        _ => None,
    };
    match (token, decision) {
        (Some(token), Some(decision)) => Ok(Some((token.to_owned(), decision))),
        _ => Err(ErrorData::invalid_params(
            format!(
                "`_meta` \"{APPROVAL_META}\" must be {{\"token\": \"<the token of the held call's result>\", \"decision\": \"approve\" or \"deny\"}}"
            ),
            None,
        )),
    }
}

/// Whether the client of this request takes form elicitations (a client that declares
/// `elicitation` with neither `form` nor `url` takes forms).
fn elicits_forms(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .and_then(|c| c.elicitation)
        .is_some_and(|e| e.form.is_some() || e.url.is_none())
}

/// What the person is asked: the tool, what it does, and the arguments it will run with.
fn approval_question(desc: &ToolDescriptor, held: &ApprovalRequest) -> String {
    let arguments = crate::trace::preview_with_limit(&held.arguments, 2048);
    let description = desc.description.trim();
    let title = desc.title.unwrap_or(desc.name);
    format!("Allow the tool '{title}' to run with these arguments?\n\n{arguments}\n\n{description}")
}

/// A held call the client cannot ask about: `isError`, saying how a host grants it, with the
/// token in `_meta` (never in the text the model reads).
fn approval_refused(listed: &Listed, held: &ApprovalRequest) -> CallToolResult {
    let name = listed.desc.name;
    let message = format!(
        "{} '{name}' was not run: it needs a person's approval, and this client cannot ask one (it did not declare the elicitation capability). \
         A host grants it by asking the person, then calling '{name}' again with the same arguments and the request `_meta` \
         {{\"{APPROVAL_META}\": {{\"token\": <the token under \"{APPROVAL_META}\" in this result's `_meta`>, \"decision\": \"approve\"}}}} \
         within {} s (\"deny\" withdraws it); a client that declares elicitation is asked directly.",
        listed.desc.kind.as_str(),
        held.expires_in_ms.div_ceil(1000)
    );
    let mut result = error_result(listed, ErrorKind::ApprovalRequired, &message, None);
    let mut meta = Map::new();
    if let Ok(value) = serde_json::to_value(held) {
        meta.insert(APPROVAL_META.into(), value);
    }
    meta.insert("toolc/terminal".into(), Value::Bool(false));
    result.meta = Some(MetaObject(meta));
    result
}

impl McpServer {
    /// The call slots of the connection `context` came from.
    fn slots_of(&self, context: &RequestContext<RoleServer>) -> Arc<tokio::sync::Semaphore> {
        #[cfg(feature = "mcp-http")]
        if let Some(slots) = context
            .extensions
            .get::<::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<self::http::CallSlots>())
        {
            return Arc::clone(&slots.0);
        }
        let _ = context;
        Arc::clone(&self.slots)
    }

    /// One `search_tools` call: the best matches, each made listed and callable.
    async fn search(
        &self,
        deferred: &Deferred,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let violations = deferred.parameters.validate(&arguments);
        if !violations.is_empty() {
            let message = format!(
                "tool '{SEARCH_TOOL}' arguments are invalid: {}",
                toolc_schema::Violations(violations.clone())
            );
            let payload = error_payload(ErrorKind::ArgumentsInvalid, &message, &violations, None);
            return CallToolResult::error(vec![ContentBlock::text(payload.to_string())]);
        }
        let query = arguments["query"].as_str().unwrap_or_default();
        let limit = arguments
            .get("limit")
            .and_then(Value::as_u64)
            .unwrap_or(5)
            .clamp(1, MAX_SEARCH_LIMIT);
        let hits = self
            .agent
            .search_tools(query, usize::try_from(limit).unwrap_or(5));
        let mut found = Vec::new();
        let mut newly = false;
        for hit in hits {
            let Some(&i) = self.by_name.get(hit.tool.name) else {
                continue;
            };
            if !self.visible(i) {
                lock(&self.session.found).insert(i);
                newly = true;
            }
            let mut tool = self.tools[i].json();
            tool.insert("score".into(), json!(hit.score));
            found.push(Value::Object(tool));
        }
        if newly {
            self.announce_list_changed(context).await;
        }
        CallToolResult::structured(json!({ "tools": found }))
    }

    /// Sends `notifications/tools/list_changed`: on the session (protocol 2025-11-25 and
    /// before), or on each `subscriptions/listen` stream that asked for it (2026-07-28). A
    /// client that left is not an error.
    async fn announce_list_changed(&self, context: &RequestContext<RoleServer>) {
        let per_request = context
            .protocol_version()
            .is_some_and(|v| !v.has_initialize());
        if !per_request {
            let _ = context.peer.notify_tool_list_changed().await;
            return;
        }
        let sinks: Vec<SubscriptionSink> = lock(&self.session.sinks).clone();
        for sink in sinks {
            let notification = ServerNotification::ToolListChangedNotification(Default::default());
            if sink.send(notification).await.is_err() {
                lock(&self.session.sinks).retain(|s| s.id() != sink.id());
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The parameters of [`SEARCH_TOOL`].
fn search_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "minLength": 1,
                "description": "What you need a tool for, in plain words (e.g. \"refund an order\")."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_SEARCH_LIMIT,
                "description": "How many tools to answer at most (default 5)."
            }
        },
        "required": ["query"],
        "additionalProperties": false
    })
}

/// The result of [`SEARCH_TOOL`]: the tools found, as `tools/list` would list them, each with
/// its score.
fn search_output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "tools": {
                "type": "array",
                "description": "Best first: each tool as tools/list lists it, plus its score.",
                "items": {"type": "object"}
            }
        },
        "required": ["tools"]
    })
}

/// The context of a call when no hook is set: the authenticated caller, else anonymous.
fn default_context(request: &McpRequest<'_>) -> CallContext {
    let ctx = CallContext::new(request.call_id());
    #[cfg(feature = "mcp-http")]
    if let Some(identity) = request.identity() {
        return ctx.with_caller(identity.caller.clone());
    }
    ctx
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("agent", &self.agent.name())
            .field("tools", &self.tools.len())
            .field("version", &self.version)
            .field("store", &self.store.as_ref().map(|s| s.describe()))
            .field("max_concurrent_calls", &self.max_calls)
            .finish()
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let mut server = Implementation::new(self.agent.name(), self.version.clone());
        let description = self.agent.description().trim();
        if !description.is_empty() {
            server.description = Some(description.to_owned());
        }
        let capabilities = if self.deferred.is_some() {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build()
        } else {
            ServerCapabilities::builder().enable_tools().build()
        };
        let mut info = ServerConfig::new(capabilities).with_server_info(server);
        let instructions = self.agent.instructions();
        if !instructions.is_empty() {
            info = info.with_instructions(instructions);
        }
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        if let Some(d) = &self.deferred
            && name == SEARCH_TOOL
        {
            return Some(d.search.clone());
        }
        let i = *self.by_name.get(name)?;
        self.visible(i).then(|| self.tools[i].tool.clone())
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.deferred
            .as_ref()
            .map(|_| SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let sink = context.sink().clone();
        let id = sink.id().clone();
        lock(&self.session.sinks).push(sink);
        context.cancelled().await;
        lock(&self.session.sinks).retain(|s| *s.id() != id);
        Ok(())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, &context).await
    }
}

/// Why serving ended with an error (the session never started: the first message was no
/// `initialize`, or the transport failed; or its task failed), or why the server could not be
/// configured as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeError(String);

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}

/// The MCP `Tool` of a descriptor, as the compiler made it: name, title, description, input
/// schema, output schema (listed only for a result that is always an object and that the
/// runtime validates), annotations, icons and `_meta`. Nothing is recomputed here: `toolc dump
/// --dialect mcp` lists the same, but for annotation keys of the manifest's own
/// (`category: navigation`), which rmcp's `ToolAnnotations` cannot hold: [`mcp_tool_json`]
/// has them, as `tools/list` sends them.
pub fn mcp_tool(desc: &ToolDescriptor) -> Tool {
    let object = |v: Value| match v {
        Value::Object(m) => Some(m),
        _ => None,
    };
    let input = object(desc.input_schema_json()).unwrap_or_default();
    let mut tool = Tool::new(desc.name, desc.description, Arc::new(input));
    if let Some(output) = desc.output_schema_json().and_then(object) {
        tool = tool.with_raw_output_schema(Arc::new(output));
    }
    if let Some(title) = desc.title {
        tool = tool.with_title(title);
    }
    if let Ok(annotations) = serde_json::from_value::<ToolAnnotations>(desc.annotations_json())
        && annotations != ToolAnnotations::default()
    {
        tool = tool.with_annotations(annotations);
    }
    tool.icons = desc
        .icons
        .and_then(|text| serde_json::from_str::<Vec<Icon>>(text).ok());
    tool.meta = desc
        .meta
        .and_then(|text| serde_json::from_str::<Map<String, Value>>(text).ok())
        .map(MetaObject);
    tool
}

/// The MCP `Tool` of a descriptor as `tools/list` sends it: [`mcp_tool`], with the annotations
/// as the compiler wrote them when they hold keys of the manifest's own.
pub fn mcp_tool_json(desc: &ToolDescriptor) -> Value {
    let mut tool = serde_json::to_value(mcp_tool(desc)).unwrap_or(Value::Null);
    if let (Value::Object(t), Some(a)) = (&mut tool, own_annotations(desc)) {
        t.insert("annotations".into(), Value::Object(a));
    }
    tool
}

/// The server as [`McpServer::serve`] runs it: [`McpServer`]'s handler, but for a `tools/list`
/// answer that holds annotation keys of the manifest's own, which it sends as the compiler
/// wrote them (rmcp's typed `Tool` has no place for them). rmcp's HTTP server takes a
/// `ServerHandler` only, so over HTTP those keys are not listed.
struct Served(McpServer);

impl Served {
    /// The listing `list` with each tool's own annotation keys, when a tool has some.
    fn listing(&self, list: ListToolsResult) -> ServerResult {
        if self.0.tools.iter().all(|l| l.own_annotations.is_none()) {
            return ServerResult::ListToolsResult(list);
        }
        let Ok(Value::Object(mut out)) = serde_json::to_value(&list) else {
            return ServerResult::ListToolsResult(list);
        };
        if let Some(Value::Array(tools)) = out.get_mut("tools") {
            for tool in tools {
                let listed = tool
                    .get("name")
                    .and_then(Value::as_str)
                    .and_then(|n| self.0.by_name.get(n))
                    .and_then(|&i| self.0.tools.get(i));
                if let (Value::Object(t), Some(a)) =
                    (tool, listed.and_then(|l| l.own_annotations.as_ref()))
                {
                    t.insert("annotations".into(), Value::Object(a.clone()));
                }
            }
        }
        ServerResult::CustomResult(CustomResult::new(Value::Object(out)))
    }
}

impl rmcp::Service<RoleServer> for Served {
    async fn handle_request(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let listing = matches!(request, ClientRequest::ListToolsRequest(_));
        let result =
            <McpServer as rmcp::Service<RoleServer>>::handle_request(&self.0, request, context)
                .await?;
        Ok(match result {
            ServerResult::ListToolsResult(list) if listing => self.listing(list),
            other => other,
        })
    }

    async fn handle_notification(
        &self,
        notification: ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        <McpServer as rmcp::Service<RoleServer>>::handle_notification(
            &self.0,
            notification,
            context,
        )
        .await
    }

    fn get_info(&self) -> ServerConfig {
        <McpServer as rmcp::Service<RoleServer>>::get_info(&self.0)
    }

    fn supported_protocol_versions(
        &self,
    ) -> std::borrow::Cow<'static, [rmcp::model::ProtocolVersion]> {
        <McpServer as rmcp::Service<RoleServer>>::supported_protocol_versions(&self.0)
    }
}

/// The MCP result of a call's [`ToolResult`]: decided by its `ok`, never by the JSON's shape
/// (a play whose `returns` accepts `{"error", "kind"}` still fails as `isError`). `_meta`
/// carries `toolc/terminal` and `toolc/metadata` (call id, duration, attempt, tool kind, the
/// handler's entries).
fn mcp_result(listed: &Listed, result: ToolResult) -> CallToolResult {
    let mut meta = Map::new();
    meta.insert("toolc/terminal".into(), Value::Bool(result.terminal));
    if let Some(metadata) = &result.metadata
        && let Ok(value) = serde_json::to_value(metadata)
    {
        meta.insert("toolc/metadata".into(), value);
    }
    let mut out = match (&result.cause, result.ok) {
        (None, true) => success_result(listed, result.value.unwrap_or(Value::Null)),
        (cause, _) => {
            let message = result.error.as_deref().unwrap_or("the call failed");
            match cause {
                Some(c) => error_result(listed, c.code, message, Some(c)),
                None => error_result(listed, ErrorKind::Handler, message, None),
            }
        }
    };
    out.meta = Some(MetaObject(meta));
    out
}

/// A successful call: the JSON as text, and as `structuredContent` when an output schema is
/// listed.
fn success_result(listed: &Listed, value: Value) -> CallToolResult {
    if listed.tool.output_schema.is_none() {
        return CallToolResult::success(vec![ContentBlock::text(value.to_string())]);
    }
    if value.is_object() {
        return CallToolResult::structured(value);
    }
    // Unreachable while the runtime validates results; said plainly if it ever is not.
    let message = format!(
        "{} '{}' output violated its returns schema: (root): expected an object",
        listed.desc.kind.as_str(),
        listed.desc.name
    );
    error_result(listed, ErrorKind::OutputInvalid, &message, None)
}

/// A failed call: `isError`, the error as JSON text, and the same JSON as `structuredContent`
/// unless the tool lists an output schema (clients check `structuredContent` against it).
fn error_result(
    listed: &Listed,
    kind: ErrorKind,
    message: &str,
    cause: Option<&Cause>,
) -> CallToolResult {
    let payload = error_payload(
        kind,
        message,
        cause.map(|c| c.violations.as_slice()).unwrap_or_default(),
        cause.and_then(|c| c.retry_after_ms),
    );
    let mut result = CallToolResult::error(vec![ContentBlock::text(payload.to_string())]);
    if listed.tool.output_schema.is_none() {
        result.structured_content = Some(payload);
    }
    result
}

/// `{"kind", "message", "retryable"}`, with `violations` and `retry_after_ms` when known.
fn error_payload(
    kind: ErrorKind,
    message: &str,
    violations: &[Violation],
    retry_after_ms: Option<u64>,
) -> Value {
    let mut payload = json!({
        "kind": kind.as_str(),
        "message": message,
        "retryable": kind.retryable(),
    });
    if !violations.is_empty() {
        payload["violations"] = json!(violations);
    }
    if let Some(after) = retry_after_ms {
        payload["retry_after_ms"] = json!(after);
    }
    payload
}

fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool '{}'", Truncated(name)),
        Some(json!({ "kind": ErrorKind::UnknownTool.as_str() })),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_payloads_say_kind_message_and_retry() {
        let p = error_payload(ErrorKind::RateLimited, "slow down", &[], Some(1500));
        assert_eq!(
            p,
            json!({"kind": "rate_limited", "message": "slow down", "retryable": true, "retry_after_ms": 1500})
        );
        let p = error_payload(
            ErrorKind::ArgumentsInvalid,
            "bad",
            &[Violation::new("/a", "missing")],
            None,
        );
        assert_eq!(
            p["violations"],
            json!([{"pointer": "/a", "message": "missing"}])
        );
        assert_eq!(p["retryable"], false);
    }
}
