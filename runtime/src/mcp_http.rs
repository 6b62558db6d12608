//! MCP's streamable HTTP transport on a loopback address (feature `mcp-http`).

use std::future::Future;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use super::{McpServer, ServeError};

impl McpServer {
    /// Serves the agent over MCP's streamable HTTP on `listener` until `shutdown` completes,
    /// then ends every session and connection.
    ///
    /// The listener must be bound to a loopback address (`127.0.0.1`, `::1`): anything else is
    /// refused, since nothing here authenticates a remote peer. Requests whose `Host` is not
    /// `localhost`, `127.0.0.1` or `::1` are refused (against DNS rebinding). MCP is served at
    /// every path; clients conventionally use `http://127.0.0.1:<port>/mcp`.
    ///
    /// The caller hook sees the HTTP request's parts (headers included) in
    /// `request.context().extensions`, as an `http::request::Parts`.
    pub async fn serve_http<F>(self, listener: TcpListener, shutdown: F) -> Result<(), ServeError>
    where
        F: Future<Output = ()> + Send,
    {
        let addr = listener
            .local_addr()
            .map_err(|e| ServeError(format!("the listener has no address: {e}")))?;
        check_loopback(addr)?;
        let config = StreamableHttpServerConfig::default().with_allowed_hosts([
            "localhost",
            "127.0.0.1",
            "::1",
            "[::1]",
        ]);
        let sessions_end = config.cancellation_token.clone();
        let server = self;
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        let mut connections = JoinSet::new();
        let mut shutdown = pin!(shutdown);
        loop {
            let next = std::future::poll_fn(|cx| {
                if shutdown.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(None);
                }
                // Reap finished connections so the set does not grow with every one served.
                while let Poll::Ready(Some(_)) = connections.poll_join_next(cx) {}
                listener.poll_accept(cx).map(Some)
            })
            .await;
            match next {
                None => break,
                Some(Ok((stream, _peer))) => {
                    connections.spawn(serve_connection(stream, service.clone()));
                }
                // A failed accept (out of descriptors, a reset before accept) ends only that
                // connection.
                Some(Err(e)) => tracing::warn!(error = %e, "MCP HTTP accept failed"),
            }
        }
        sessions_end.cancel();
        connections.shutdown().await;
        Ok(())
    }
}

/// Loopback only: the HTTP transport authenticates no one.
fn check_loopback(addr: SocketAddr) -> Result<(), ServeError> {
    if addr.ip().is_loopback() {
        Ok(())
    } else {
        Err(ServeError(format!(
            "refusing to serve MCP over HTTP on {addr}: bind a loopback address (127.0.0.1 or ::1)"
        )))
    }
}

async fn serve_connection(
    stream: TcpStream,
    service: StreamableHttpService<McpServer, LocalSessionManager>,
) {
    let connection = hyper::server::conn::http1::Builder::new()
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
    if let Err(e) = connection.await {
        tracing::debug!(error = %e, "MCP HTTP connection ended with an error");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_served() {
        assert!(check_loopback("127.0.0.1:8080".parse().expect("addr")).is_ok());
        assert!(check_loopback("[::1]:8080".parse().expect("addr")).is_ok());
        let refused = check_loopback("0.0.0.0:8080".parse().expect("addr")).expect_err("any");
        assert!(refused.to_string().contains("loopback"), "{refused}");
        assert!(check_loopback("192.0.2.1:80".parse().expect("addr")).is_err());
    }
}
