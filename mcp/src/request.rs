//! What the caller hook sees of a call ([`McpRequest`]), and the context a call gets without a
//! hook.

use std::fmt;
#[cfg(feature = "http")]
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::service::RequestContext;
use toolc_runtime::CallContext;

/// What the caller hook sees of one `tools/call` request (or `tools/list`, see [`McpRequest::tool`]).
pub struct McpRequest<'a> {
    pub(crate) tool: &'a str,
    pub(crate) call_id: &'a str,
    pub(crate) context: &'a RequestContext<RoleServer>,
}

impl<'a> McpRequest<'a> {
    /// The tool or play called; empty when the hook makes the context of a `tools/list`, which
    /// the server asks for when the agent decides its tools per call
    /// ([`Agent::with_tool_filter`](toolc_runtime::Agent::with_tool_filter)).
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
    /// ([`HttpConfig::authenticator`](crate::HttpConfig::authenticator)).
    #[cfg(feature = "http")]
    pub fn identity(&self) -> Option<&'a crate::auth::Identity> {
        self.http_parts()?.extensions.get::<crate::auth::Identity>()
    }

    /// The HTTP request's parts, when the call came over HTTP.
    #[cfg(feature = "http")]
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

/// The hook that makes each call's context ([`McpServer::with_caller`](crate::McpServer::with_caller)).
pub(crate) type CallerHook = dyn Fn(&McpRequest<'_>) -> CallContext + Send + Sync;

/// The context of a call when no hook is set: the authenticated caller, else anonymous.
pub(crate) fn default_context(request: &McpRequest<'_>) -> CallContext {
    let ctx = CallContext::new(request.call_id());
    #[cfg(feature = "http")]
    if let Some(identity) = request.identity() {
        return ctx.with_caller(identity.caller.clone());
    }
    ctx
}

/// Per-connection call slots: how many calls of one connection (an MCP session, or a TCP
/// connection for requests outside a session) may run at once. The HTTP transport puts them in
/// each request's extensions.
#[cfg(feature = "http")]
#[derive(Clone)]
pub(crate) struct CallSlots(pub(crate) Arc<tokio::sync::Semaphore>);
