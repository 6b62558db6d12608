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
//!   annotations as hints.
//! - `tools/call`: through the agent's dispatch, so the execution contract holds. A result is
//!   its JSON as text, plus `structuredContent` (the same JSON) when the tool lists an output
//!   schema. A failure of the contract, and a play's error envelope, is an `isError` result
//!   whose text is `{"kind", "message", "retryable", …}`, also as `structuredContent` when no
//!   output schema forbids it. An unknown tool is a protocol error (`-32602`).
//!
//! A panic anywhere in a call (a handler, a hand-written toolbox, the caller hook) fails that
//! call with kind `panicked`; the server keeps serving.
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
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

pub use rmcp;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
    Implementation, JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncRead, AsyncWrite};

#[cfg(feature = "mcp-http")]
#[path = "mcp_http.rs"]
pub mod http;

#[cfg(feature = "mcp-http")]
pub use self::http::HttpConfig;

use crate::agent::Agent;
use crate::context::CallContext;
use crate::descriptor::{OperationKind, ToolDescriptor};
use crate::errors::{ErrorKind, ToolError, Truncated, Violation};
use crate::store::PolicyStore;

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
}

/// An MCP server for one [`Agent`]: build it, set the caller hook, then serve.
///
/// Cloning is cheap; clones share the agent (and so its rate limits) and the policy store.
#[derive(Clone)]
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

    /// The tools as `tools/list` lists them.
    pub fn tools(&self) -> Vec<Tool> {
        self.tools.iter().map(|l| l.tool.clone()).collect()
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
        let running = match ServiceExt::serve(self, (reader, writer)).await {
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
    ) -> Result<CallToolResult, ErrorData> {
        let name = request.name.as_ref();
        let Some(listed) = self.by_name.get(name).map(|&i| &self.tools[i]) else {
            return Err(unknown_tool(name));
        };
        let arguments = match &request.arguments {
            Some(map) => serde_json::to_string(map).map_err(|e| {
                ErrorData::invalid_params(format!("the arguments are not JSON: {e}"), None)
            })?,
            None => "{}".to_owned(),
        };
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
            return Ok(error_result(listed, ErrorKind::RateLimited, &message, None));
        };
        let ctx = match catch_unwind(AssertUnwindSafe(|| (self.caller)(&info))) {
            Ok(ctx) => match (&self.store, ctx.store()) {
                (Some(store), None) => ctx.with_store(Arc::clone(store)),
                _ => ctx,
            },
            Err(payload) => {
                let message = format!(
                    "the MCP caller hook panicked on tool '{}': {}",
                    listed.desc.name,
                    panic_text(&*payload)
                );
                return Ok(error_result(listed, ErrorKind::Panicked, &message, None));
            }
        };
        let call = catch_panic(self.agent.call(listed.desc.name, &arguments, &ctx));
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
        Ok(match outcome {
            Ok(Ok(value)) => success_result(listed, value),
            Ok(Err(e)) if e.kind() == ErrorKind::UnknownTool => return Err(unknown_tool(name)),
            Ok(Err(e)) => error_result(listed, e.kind(), e.message(), Some(&e)),
            Err(payload) => {
                let message = format!(
                    "{} '{}' panicked: {}",
                    noun(listed.desc),
                    listed.desc.name,
                    panic_text(&*payload)
                );
                error_result(listed, ErrorKind::Panicked, &message, None)
            }
        })
    }
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
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(server);
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
        self.by_name.get(name).map(|&i| self.tools[i].tool.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, &context)
            .await
            .map(CallToolResponse::from)
    }
}

/// Why serving ended with an error: the session never started (the first message was no
/// `initialize`, or the transport failed), or its task failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeError(String);

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}

/// The MCP `Tool` of a descriptor: name, title, description, input schema (object root),
/// output schema (only for a plain-object result that the runtime validates), annotations.
///
/// A root `$ref` into the schema's `$defs` is inlined, keeping `$defs` at the top, as the
/// compiler's `mcp` dialect does. A result that is not a plain object (another type, a
/// nullable object, a root `anyOf`/`oneOf`) lists no output schema and is answered as text
/// only; so is a result with `validate_returns: false`, which the runtime does not check.
pub fn mcp_tool(desc: &ToolDescriptor) -> Tool {
    let input = object_root(desc.input_schema_json()).unwrap_or_else(|| {
        let mut m = match desc.input_schema_json() {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        m.insert("type".into(), Value::String("object".into()));
        m
    });
    let mut tool = Tool::new(desc.name, desc.description, Arc::new(input));
    if desc.validate_returns
        && let Some(output) = desc.output_schema_json().and_then(object_root)
        && is_plain_object(&output)
    {
        tool = tool.with_raw_output_schema(Arc::new(output));
    }
    let mut annotations = match desc.title {
        Some(title) => {
            tool = tool.with_title(title);
            ToolAnnotations::with_title(title)
        }
        None => ToolAnnotations::new(),
    };
    let mut any = desc.title.is_some();
    for (key, value) in desc.annotations_json().as_object().into_iter().flatten() {
        let Some(flag) = value.as_bool() else {
            continue;
        };
        annotations = match key.as_str() {
            "read_only" => annotations.read_only(flag),
            "destructive" => annotations.destructive(flag),
            "idempotent" => annotations.idempotent(flag),
            "open_world" => annotations.open_world(flag),
            _ => continue,
        };
        any = true;
    }
    if any {
        tool = tool.with_annotations(annotations);
    }
    tool
}

/// The schema with a root `$ref` into `$defs` inlined, if its root is then `type: object`.
fn object_root(schema: Value) -> Option<JsonObject> {
    let Value::Object(mut root) = schema else {
        return None;
    };
    // An alias may point at an alias; a cycle of them ends here.
    for _ in 0..16 {
        let Some(Value::String(reference)) = root.get("$ref") else {
            break;
        };
        let target = reference
            .strip_prefix("#/$defs/")
            .map(|name| name.replace("~1", "/").replace("~0", "~"))
            .and_then(|name| root.get("$defs")?.get(&name)?.as_object().cloned())?;
        root.remove("$ref");
        for (k, v) in target {
            if k != "$defs" {
                root.entry(k).or_insert(v);
            }
        }
    }
    let is_object =
        !root.contains_key("$ref") && root.get("type") == Some(&Value::String("object".into()));
    if !is_object {
        return None;
    }
    prune_defs(&mut root);
    Some(root)
}

/// Drops the `$defs` nothing refers to any more (the one a root `$ref` pointed at, once
/// inlined), and `$defs` itself when it ends up empty.
fn prune_defs(root: &mut JsonObject) {
    let Some(Value::Object(defs)) = root.remove("$defs") else {
        return;
    };
    let mut pending = Vec::new();
    let mut complete = root.values().all(|v| refs_into(v, &mut pending, 0));
    let mut used = std::collections::BTreeSet::new();
    while let Some(name) = pending.pop() {
        if let Some(def) = defs.get(&name)
            && used.insert(name)
        {
            complete &= refs_into(def, &mut pending, 0);
        }
    }
    // A schema too deep to walk keeps every definition.
    let kept: JsonObject = defs
        .into_iter()
        .filter(|(name, _)| !complete || used.contains(name))
        .collect();
    if !kept.is_empty() {
        root.insert("$defs".into(), Value::Object(kept));
    }
}

/// Pushes the `$defs` names that `value` refers to; `false` if it was too deep to finish.
fn refs_into(value: &Value, out: &mut Vec<String>, depth: usize) -> bool {
    if depth > 128 {
        return false;
    }
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref")
                && let Some(name) = r.strip_prefix("#/$defs/")
            {
                let name = name.split('/').next().unwrap_or(name);
                out.push(name.replace("~1", "/").replace("~0", "~"));
            }
            map.values().all(|v| refs_into(v, out, depth + 1))
        }
        Value::Array(items) => items.iter().all(|v| refs_into(v, out, depth + 1)),
        _ => true,
    }
}

/// An object schema that accepts nothing but objects, and not through a root `anyOf`/`oneOf`
/// (the schemas the compiler's `mcp` dialect lists without wrapping).
fn is_plain_object(schema: &JsonObject) -> bool {
    schema.get("nullable") != Some(&Value::Bool(true))
        && !schema.contains_key("anyOf")
        && !schema.contains_key("oneOf")
}

/// A successful call: the JSON as text, and as `structuredContent` when an output schema is
/// listed. A play's error envelope becomes an error result.
fn success_result(listed: &Listed, value: Value) -> CallToolResult {
    if let Some((kind, message)) = play_failure(listed.desc, &value) {
        return error_result(listed, kind, &message, None);
    }
    if listed.tool.output_schema.is_none() {
        return CallToolResult::success(vec![ContentBlock::text(value.to_string())]);
    }
    if value.is_object() {
        return CallToolResult::structured(value);
    }
    // Unreachable while the runtime validates results; said plainly if it ever is not.
    let message = format!(
        "{} '{}' output violated its returns schema: (root): expected an object",
        noun(listed.desc),
        listed.desc.name
    );
    error_result(listed, ErrorKind::OutputInvalid, &message, None)
}

/// `Some((kind, message))` when a play answered with its error envelope
/// `{"error": message, "kind": kind}` rather than a value its returns schema accepts.
fn play_failure(desc: &ToolDescriptor, value: &Value) -> Option<(ErrorKind, String)> {
    if desc.kind != OperationKind::Play {
        return None;
    }
    let map = value.as_object().filter(|m| m.len() == 2)?;
    let message = map.get("error")?.as_str()?;
    let kind = ErrorKind::from_name(map.get("kind")?.as_str()?)?;
    if desc.returns.is_some_and(|schema| schema.is_valid(value)) {
        return None;
    }
    Some((kind, message.to_owned()))
}

/// A failed call: `isError`, the error as JSON text, and the same JSON as `structuredContent`
/// unless the tool lists an output schema (clients check `structuredContent` against it).
fn error_result(
    listed: &Listed,
    kind: ErrorKind,
    message: &str,
    error: Option<&ToolError>,
) -> CallToolResult {
    let payload = error_payload(
        kind,
        message,
        error.map(ToolError::violations).unwrap_or_default(),
        error.and_then(ToolError::retry_after),
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
    retry_after: Option<Duration>,
) -> Value {
    let mut payload = json!({
        "kind": kind.as_str(),
        "message": message,
        "retryable": kind.retryable(),
    });
    if !violations.is_empty() {
        payload["violations"] = json!(violations);
    }
    if let Some(after) = retry_after {
        payload["retry_after_ms"] = json!(u64::try_from(after.as_millis()).unwrap_or(u64::MAX));
    }
    payload
}

fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool '{}'", Truncated(name)),
        Some(json!({ "kind": ErrorKind::UnknownTool.as_str() })),
    )
}

fn noun(desc: &ToolDescriptor) -> &'static str {
    match desc.kind {
        OperationKind::Tool => "tool",
        OperationKind::Play => "play",
    }
}

fn panic_text(payload: &(dyn Any + Send)) -> String {
    let text = if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else {
        "a non-string payload"
    };
    Truncated(text).to_string()
}

/// Polls `future`, turning a panic into `Err(payload)`.
async fn catch_panic<F: Future>(future: F) -> Result<F::Output, Box<dyn Any + Send>> {
    let mut future = std::pin::pin!(future);
    std::future::poll_fn(move |cx| {
        match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(Poll::Ready(out)) => Poll::Ready(Ok(out)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(payload)),
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_ref_is_inlined_and_defs_stay() {
        let schema = json!({
            "$ref": "#/$defs/Ticket",
            "$defs": {
                "Ticket": {"type": "object", "properties": {"s": {"$ref": "#/$defs/S"}}},
                "S": {"type": "string"}
            }
        });
        let root = object_root(schema).expect("object");
        assert_eq!(root["type"], "object");
        assert!(!root.contains_key("$ref"));
        assert_eq!(root["$defs"]["S"]["type"], "string");
        assert_eq!(root["properties"]["s"]["$ref"], "#/$defs/S");
    }

    #[test]
    fn definitions_nothing_uses_are_dropped() {
        let root = object_root(json!({
            "$ref": "#/$defs/List",
            "$defs": {
                "List": {"type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/Item"}}}},
                "Item": {"type": "object", "properties": {"tag": {"$ref": "#/$defs/Tag"}}},
                "Tag": {"type": "string"},
                "Unused": {"type": "null"}
            }
        }))
        .expect("object");
        let defs: Vec<&str> = root["$defs"]
            .as_object()
            .expect("defs")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(defs.len(), 2);
        assert!(defs.contains(&"Item") && defs.contains(&"Tag"), "{defs:?}");
        let flat = object_root(json!({"$ref": "#/$defs/A", "$defs": {"A": {"type": "object"}}}))
            .expect("object");
        assert_eq!(Value::Object(flat), json!({"type": "object"}));
    }

    #[test]
    fn non_object_roots_are_refused() {
        assert!(object_root(json!({"type": "array"})).is_none());
        assert!(object_root(json!({"$ref": "#/$defs/Missing"})).is_none());
        assert!(
            object_root(json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}}))
                .is_none()
        );
        assert!(object_root(json!(true)).is_none());
        let nullable = object_root(json!({"type": "object", "nullable": true})).expect("object");
        assert!(!is_plain_object(&nullable));
    }

    #[test]
    fn error_payloads_say_kind_message_and_retry() {
        let p = error_payload(
            ErrorKind::RateLimited,
            "slow down",
            &[],
            Some(Duration::from_millis(1500)),
        );
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
