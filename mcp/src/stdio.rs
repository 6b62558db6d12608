//! Serving over stdio or any byte stream of newline-delimited JSON-RPC, and the listing that
//! carries the manifest's own annotation keys there.

use std::sync::Arc;

use rmcp::model::{
    ClientNotification, ClientRequest, CustomResult, ErrorData, ListToolsResult, ServerConfig,
    ServerResult,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{RoleServer, ServiceExt};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};
use toolc_runtime::Agent;

use crate::server::{McpServer, ServeError};

/// Serves `agent` over stdin and stdout until the client closes the connection, with every
/// call made by an anonymous caller. See [`McpServer`] to set the caller.
pub async fn serve_stdio(agent: Agent) -> Result<(), ServeError> {
    McpServer::new(agent).serve_stdio().await
}

impl McpServer {
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
}

/// The server as [`McpServer::serve`] runs it: [`McpServer`]'s handler, but for a `tools/list`
/// answer that holds annotation keys of the manifest's own, which it sends as the compiler
/// wrote them (rmcp's typed `Tool` has no place for them). rmcp's HTTP server takes a
/// `ServerHandler` only, so over HTTP those keys are not listed.
struct Served(McpServer);

impl Served {
    /// The listing `list` with each tool's own annotation keys, when a tool has some.
    fn listing(&self, list: ListToolsResult) -> ServerResult {
        let served = self.0.served();
        if served.tools.iter().all(|l| l.own_annotations.is_none()) {
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
                    .and_then(|n| served.get(n));
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
