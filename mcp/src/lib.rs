//! Serving an [`Agent`](toolc_runtime::Agent) of `toolc-runtime` to MCP clients, on `rmcp`, the
//! official Rust SDK: over stdio, any byte stream, and (feature `http`) MCP's streamable HTTP.
//!
//! ```no_run
//! # async fn demo(agent: toolc_runtime::Agent) -> Result<(), toolc_mcp::ServeError> {
//! use toolc_mcp::McpServer;
//! use toolc_runtime::{AuthLevel, CallContext, Caller};
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
//!   instructions, and the `tools` capability with `listChanged`.
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
//!   entries, as in [`ToolResult`](toolc_runtime::ToolResult)). An unknown tool is a protocol
//!   error (`-32602`).
//!
//! A tool that needs approval ([`toolc_runtime::approval`]) is held, and the server asks the
//! person through the client's form elicitation: an `elicitation/create` request inside the call
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
//! The served agent's run-time tools can change while it is served ([`McpServer::update`]:
//! register, replace, unregister); every session is then sent
//! `notifications/tools/list_changed`. An agent with a tool filter
//! ([`Agent::with_tool_filter`](toolc_runtime::Agent::with_tool_filter)) answers each
//! `tools/list` with what the caller hook's caller may see, and a hidden tool is an unknown
//! tool to that caller.
//!
//! Transports: stdio ([`McpServer::serve_stdio`]), any byte stream ([`McpServer::serve`]), and
//! with the `http` feature MCP's streamable HTTP (`McpServer::serve_http_with`): on a loopback
//! address, or on any address behind an authenticator (`toolc_mcp::auth`; feature `auth-jwt` for
//! OAuth bearer JWTs).
//!
//! Rate limits are kept in each toolbox's own memory unless [`McpServer::with_store`] names a
//! [`PolicyStore`](toolc_runtime::PolicyStore) (a Redis shared by every replica, say). At most
//! [`McpServer::with_max_concurrent_calls`] calls of one connection run at once; the next one
//! fails with `rate_limited` until one finishes.
//!
//! The server reaches the agent through `toolc-runtime`'s public API only, as any host would.

#![warn(missing_docs)]
#![deny(unsafe_code)]

mod approval;
#[cfg(feature = "http")]
pub mod auth;
mod call;
mod changes;
mod deferred;
mod handler;
#[cfg(feature = "http")]
mod http;
mod listing;
mod panic;
mod request;
mod results;
mod server;
mod stdio;
mod truncated;

/// The `rmcp` crate this server is built on: the types of [`McpRequest::context`] and
/// [`McpServer::tools`].
pub use rmcp;

pub use approval::APPROVAL_META;
pub use deferred::{MAX_SEARCH_LIMIT, SEARCH_TOOL};
#[cfg(feature = "http")]
pub use http::{HttpConfig, shutdown_signal};
pub use listing::{mcp_tool, mcp_tool_json};
pub use request::McpRequest;
pub use server::{McpServer, ServeError};
pub use stdio::serve_stdio;
