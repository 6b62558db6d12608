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
//! with the `mcp-http` feature MCP's streamable HTTP on a loopback address
//! (`McpServer::serve_http`).

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
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite};

#[cfg(feature = "mcp-http")]
#[path = "mcp_http.rs"]
mod http;

use crate::agent::Agent;
use crate::context::CallContext;
use crate::descriptor::{OperationKind, ToolDescriptor};
use crate::errors::{ErrorKind, ToolError, Truncated, Violation};

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
/// Cloning is cheap; clones share the agent (and so its rate limits).
#[derive(Clone)]
pub struct McpServer {
    agent: Arc<Agent>,
    tools: Arc<[Listed]>,
    by_name: Arc<HashMap<&'static str, usize>>,
    caller: Arc<CallerHook>,
    version: String,
}

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
            caller: Arc::new(|request: &McpRequest<'_>| CallContext::new(request.call_id())),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }

    /// Sets the hook that makes each call's context: its caller (id, auth level, roles) and
    /// scope. It runs once per `tools/call`, before the policies are checked.
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
    pub async fn serve<R, W>(self, reader: R, writer: W) -> Result<(), ServeError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
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
        let ctx = match catch_unwind(AssertUnwindSafe(|| (self.caller)(&info))) {
            Ok(ctx) => ctx,
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

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("agent", &self.agent.name())
            .field("tools", &self.tools.len())
            .field("version", &self.version)
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

/// The MCP `Tool` of a descriptor, as the compiler made it: name, title, description, input
/// schema, output schema (listed only for a plain-object result that the runtime validates)
/// and annotations. Nothing is recomputed here: `toolc dump --dialect mcp` lists the same.
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
    tool
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
