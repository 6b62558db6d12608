//! A server on a free port, and a small HTTP/1 client that speaks just enough MCP.

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use toolc_mcp::{HttpConfig, McpServer, ServeError};

/// Everything waits at most this long: generous, never a measure of speed.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub struct Running {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    pub served: JoinHandle<Result<(), ServeError>>,
}

impl Running {
    /// Begins shutdown.
    pub fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Begins shutdown and waits for serving to end.
    pub async fn finish(mut self) -> Result<(), ServeError> {
        self.stop();
        tokio::time::timeout(PATIENCE, &mut self.served)
            .await
            .expect("serving ends after shutdown")
            .expect("the serving task")
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

pub async fn serve_on(listener: TcpListener, server: McpServer, config: HttpConfig) -> Running {
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = oneshot::channel::<()>();
    let served = tokio::spawn(server.serve_http_with(listener, config, async {
        let _ = stopped.await;
    }));
    Running {
        addr,
        stop: Some(stop),
        served,
    }
}

pub async fn serve(server: McpServer, config: HttpConfig) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    serve_on(listener, server, config).await
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    /// The JSON-RPC message of the reply: the body itself, or the last `data:` event of an
    /// event stream.
    pub fn message(&self) -> Value {
        if self
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/event-stream"))
        {
            self.body
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .filter_map(|d| serde_json::from_str::<Value>(d).ok())
                .next_back()
                .unwrap_or_else(|| panic!("no message in the stream: {}", self.body))
        } else {
            self.json()
        }
    }
}

/// One request on a fresh connection.
pub async fn request(
    addr: SocketAddr,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> Reply {
    tokio::time::timeout(
        PATIENCE,
        request_inner(addr, method, path, headers, body.into()),
    )
    .await
    .expect("an answer in time")
    .expect("an answer")
}

async fn request_inner(
    addr: SocketAddr,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Bytes,
) -> Result<Reply, String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(connection);
    let mut builder = Request::builder()
        .method(method)
        .uri(path)
        .header("host", format!("127.0.0.1:{}", addr.port()));
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    let request = builder
        .body(Full::new(body))
        .map_err(|e| format!("request: {e}"))?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| format!("send: {e}"))?;
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("body: {e}"))?
        .to_bytes();
    Ok(Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// Posts one JSON-RPC message to `/mcp` with MCP's headers and `extra` ones.
pub async fn post(addr: SocketAddr, extra: &[(&str, &str)], message: &Value) -> Reply {
    let mut headers = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    headers.extend_from_slice(extra);
    request(addr, Method::POST, "/mcp", &headers, message.to_string()).await
}

pub fn call_message(id: u64, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
}

/// A client of one MCP session (or of none, against a stateless server).
pub struct Client {
    pub addr: SocketAddr,
    pub token: Option<String>,
    pub session: Option<String>,
    next: u64,
}

impl Client {
    pub fn new(addr: SocketAddr, token: Option<&str>) -> Client {
        Client {
            addr,
            token: token.map(str::to_owned),
            session: None,
            next: 1,
        }
    }

    fn headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![("mcp-protocol-version".to_owned(), "2025-06-18".to_owned())];
        if let Some(token) = &self.token {
            headers.push(("authorization".to_owned(), format!("Bearer {token}")));
        }
        if let Some(session) = &self.session {
            headers.push(("mcp-session-id".to_owned(), session.clone()));
        }
        headers
    }

    pub async fn send(&mut self, message: &Value) -> Reply {
        let headers = self.headers();
        let borrowed: Vec<(&str, &str)> = headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        post(self.addr, &borrowed, message).await
    }

    /// Starts a session: `initialize`, then `notifications/initialized`.
    pub async fn initialize(&mut self) -> Reply {
        let id = self.next_id();
        let reply = self
            .send(&json!({
                "jsonrpc": "2.0", "id": id, "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "toolc-remote-test", "version": "0"}
                }
            }))
            .await;
        if reply.status == StatusCode::OK {
            self.session = reply.header("mcp-session-id").map(str::to_owned);
            let ack = self
                .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await;
            assert_eq!(ack.status, StatusCode::ACCEPTED, "{}", ack.body);
        }
        reply
    }

    fn next_id(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// Calls a tool; the reply as received.
    pub async fn call_reply(&mut self, tool: &str, arguments: Value) -> Reply {
        let id = self.next_id();
        self.send(&call_message(id, tool, arguments)).await
    }

    /// Calls a tool; its result (`isError` results included), or the JSON-RPC error.
    pub async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let reply = self.call_reply(tool, arguments).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        let message = reply.message();
        match message.get("result") {
            Some(result) => result.clone(),
            None => message,
        }
    }
}

/// The JSON of a tool result's text block.
pub fn result_json(result: &Value) -> Value {
    let text = result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text block: {result}"));
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}
