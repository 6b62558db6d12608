//! MCP calls over streamable HTTP under load, shared by the benches that measure a served
//! agent (`replicas.rs`, `serve.rs`, `soak.rs`): servers started as child processes, keep-alive
//! clients (without MCP sessions, or in one), calls per second with their latency, and what a
//! server process holds (its resident memory and open file descriptors).

// Each bench uses a part of it.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

/// Clients calling at once.
pub const CLIENTS: usize = 32;
/// Calls each client makes, one after the other.
pub const CALLS_PER_CLIENT: usize = 250;

/// The processes a bench started, stopped (by their handles) when it ends.
pub struct Children(pub Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts `command`, a server that says on stderr where it listens (a line ending in
/// `http://ADDR/mcp`, after any other lines), and returns that address. Its stderr is read to
/// the end, so the server never blocks on a full pipe.
pub async fn start(children: &mut Children, mut command: Command) -> SocketAddr {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("start {:?}: {e}", command.get_program()));
    let stderr = child.stderr.take().expect("stderr");
    children.0.push(child);
    let (first, read) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
        let mut seen = Vec::new();
        let address = loop {
            match lines.next() {
                Some(Ok(line)) => {
                    let address = line
                        .rsplit(' ')
                        .next()
                        .and_then(|u| u.strip_prefix("http://"))
                        .and_then(|u| u.strip_suffix("/mcp"))
                        .and_then(|u| u.parse::<SocketAddr>().ok());
                    if let Some(address) = address {
                        break Ok(address);
                    }
                    seen.push(line);
                }
                _ => break Err(seen.join("\n")),
            }
        };
        let _ = first.send(address);
        for _ in lines {}
    });
    match read.await.expect("the server's stderr") {
        Ok(address) => address,
        Err(said) => panic!("the server said no address it listens on:\n{said}"),
    }
}

/// The protocol version the clients speak.
const PROTOCOL: &str = "2025-06-18";

/// One client: a keep-alive connection, its token, and the MCP session it calls in, if any.
pub struct Client {
    sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    addr: SocketAddr,
    token: Option<String>,
    session: Option<String>,
}

impl Client {
    /// A new connection, calling without an MCP session.
    pub async fn connect(addr: SocketAddr, token: Option<String>) -> Client {
        Client::join(addr, token, None).await
    }

    /// A new connection calling in `session` (none: without one).
    pub async fn join(addr: SocketAddr, token: Option<String>, session: Option<String>) -> Client {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .expect("handshake");
        tokio::spawn(connection);
        Client {
            sender,
            addr,
            token,
            session,
        }
    }

    /// A new connection and a new MCP session on it: `initialize`, then
    /// `notifications/initialized`.
    pub async fn session(addr: SocketAddr, token: Option<String>) -> Client {
        let mut client = Client::connect(addr, token).await;
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                "clientInfo": {"name": "toolc-bench", "version": "0"}}});
        let response = client.send(&initialize).await;
        client.session = Some(
            response
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .expect("an mcp-session-id")
                .to_owned(),
        );
        let answer = answer(response).await.expect("an initialize result");
        assert!(answer.get("result").is_some(), "initialize: {answer}");
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(client.post(&initialized).await, None);
        client
    }

    /// The MCP session this client calls in.
    pub fn session_id(&self) -> Option<&str> {
        self.session.as_deref()
    }

    fn request(&self, method: Method, body: Bytes) -> Request<Full<Bytes>> {
        let mut request = Request::builder()
            .method(method)
            .uri("/mcp")
            .header("host", self.addr.to_string())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", PROTOCOL);
        if let Some(token) = &self.token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session.as_str());
        }
        request.body(Full::new(body)).expect("request")
    }

    /// Posts one JSON-RPC message; the response, its body not read yet (see [`answer`]).
    pub async fn send(&mut self, message: &Value) -> Response<Incoming> {
        let request = self.request(Method::POST, Bytes::from(message.to_string()));
        self.sender.ready().await.expect("ready");
        self.sender.send_request(request).await.expect("a response")
    }

    /// Posts one JSON-RPC message and reads the message answering it: `None` for a
    /// notification's `202 Accepted`.
    pub async fn post(&mut self, message: &Value) -> Option<Value> {
        let response = self.send(message).await;
        answer(response).await
    }

    /// One `tools/call`; the result, or the JSON-RPC error.
    pub async fn call(&mut self, id: usize, tool: &str, arguments: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}});
        let message = self.post(&body).await.expect("an answer");
        message.get("result").cloned().unwrap_or(message)
    }

    /// Ends the MCP session (`DELETE`), if the client is in one, and the connection.
    pub async fn end(mut self) {
        if self.session.is_none() {
            return;
        }
        let request = self.request(Method::DELETE, Bytes::new());
        self.sender.ready().await.expect("ready");
        let response = self.sender.send_request(request).await.expect("a response");
        let status = response.status();
        let _ = response.into_body().collect().await;
        assert!(status.is_success(), "DELETE of a session: {status}");
    }
}

/// The JSON-RPC message a response carries: its JSON body, or the first message with an `id`
/// in its event stream; `None` for `202 Accepted`, or a stream that ends without one. Any
/// other status fails, with the body.
pub async fn answer(response: Response<Incoming>) -> Option<Value> {
    let status = response.status();
    let stream = response
        .headers()
        .get("content-type")
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    if status == StatusCode::ACCEPTED {
        return None;
    }
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    if !stream {
        return Some(serde_json::from_slice(&bytes).expect("JSON"));
    }
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|message| message.get("id").is_some())
}

/// What a process holds now: resident memory (KiB, `VmRSS`) and open file descriptors, read
/// from `/proc` (Linux).
pub fn holds(pid: u32) -> (u64, usize) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .expect("VmRSS");
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("its descriptors")
        .count();
    (rss, fds)
}

/// A call's result as its text content reads, as JSON (`null` when it is not).
pub fn text(result: &Value) -> Value {
    result["content"][0]["text"]
        .as_str()
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(Value::Null)
}

pub struct Measured {
    pub calls: usize,
    pub wrong: usize,
    pub per_second: f64,
    pub p50: Duration,
    pub p99: Duration,
}

/// Whether the answer to `lookup_order` of an order id is right.
pub type Check = Arc<dyn Fn(&str, &Value) -> bool + Send + Sync>;

/// `CLIENTS` clients (one per token) call `lookup_order` `CALLS_PER_CLIENT` times each, at once,
/// each call with an order id of its own; an answer `right` refuses counts as wrong.
pub async fn throughput(addr: SocketAddr, tokens: &[Option<String>], right: Check) -> Measured {
    let wrong = Arc::new(AtomicUsize::new(0));
    let mut clients = Vec::new();
    for token in tokens {
        clients.push(Client::connect(addr, token.clone()).await);
    }
    let start = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (c, mut client) in clients.into_iter().enumerate() {
        let (wrong, right) = (Arc::clone(&wrong), Arc::clone(&right));
        tasks.spawn(async move {
            let mut latencies = Vec::with_capacity(CALLS_PER_CLIENT);
            for n in 0..CALLS_PER_CLIENT {
                let order = format!("B-{}", c * 100_000 + n);
                let sent = Instant::now();
                let result = client
                    .call(n, "lookup_order", json!({"order_id": order}))
                    .await;
                latencies.push(sent.elapsed());
                if !right(&order, &text(&result)) {
                    wrong.fetch_add(1, Ordering::Relaxed);
                }
            }
            latencies
        });
    }
    let mut latencies = Vec::new();
    while let Some(done) = tasks.join_next().await {
        latencies.extend(done.expect("client"));
    }
    let elapsed = start.elapsed();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    Measured {
        calls: latencies.len(),
        wrong: wrong.load(Ordering::Relaxed),
        per_second: latencies.len() as f64 / elapsed.as_secs_f64(),
        p50: at(0.50),
        p99: at(0.99),
    }
}

pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}
