//! One MCP client session, over a server process's stdio or over stateless streamable HTTP on
//! its own keep-alive connection: `initialize`, then `tools/call`s, each answer parsed whole.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpStream;
use tokio::process::{ChildStdin, ChildStdout};

/// The protocol version every session negotiates: one all four servers speak.
const PROTOCOL: &str = "2025-06-18";

/// The longest one answer may take before the run fails.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

/// The longest `initialize` may take: 32 Python servers starting at once on two cores take a
/// while.
const START_TIMEOUT: Duration = Duration::from_secs(300);

pub enum Session {
    Stdio {
        input: ChildStdin,
        output: Lines<BufReader<ChildStdout>>,
        next_id: u64,
    },
    Http {
        sender: SendRequest<Full<Bytes>>,
        host: String,
        next_id: u64,
        initialized: bool,
    },
}

impl Session {
    pub fn stdio(input: ChildStdin, output: ChildStdout) -> Session {
        Session::Stdio {
            input,
            output: BufReader::new(output).lines(),
            next_id: 0,
        }
    }

    pub async fn http(port: u16) -> Result<Session, String> {
        let stream = TcpStream::connect(("127.0.0.1", port))
            .await
            .map_err(|e| format!("cannot connect to 127.0.0.1:{port}: {e}"))?;
        let _ = stream.set_nodelay(true);
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("HTTP handshake with 127.0.0.1:{port}: {e}"))?;
        tokio::spawn(connection);
        Ok(Session::Http {
            sender,
            host: format!("127.0.0.1:{port}"),
            next_id: 0,
            initialized: false,
        })
    }

    /// `initialize`, then `notifications/initialized`.
    pub async fn initialize(&mut self) -> Result<(), String> {
        let answer = self
            .request(
                "initialize",
                json!({
                    "protocolVersion": PROTOCOL,
                    "capabilities": {},
                    "clientInfo": {"name": "serving-load", "version": "0"},
                }),
            )
            .await?;
        if answer.pointer("/result/protocolVersion").is_none() {
            return Err(format!("initialize was not answered: {}", cut(&answer)));
        }
        self.notify("notifications/initialized").await
    }

    /// One `tools/call`: the whole JSON-RPC answer.
    pub async fn call(&mut self, tool: &str, arguments: &Value) -> Result<Value, String> {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }

    async fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = match self {
            Session::Stdio { next_id, .. } | Session::Http { next_id, .. } => {
                *next_id += 1;
                *next_id
            }
        };
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let timeout = if method == "initialize" {
            START_TIMEOUT
        } else {
            ANSWER_TIMEOUT
        };
        let answer = tokio::time::timeout(timeout, self.exchange(message, id))
            .await
            .map_err(|_| format!("no answer to {method} within {timeout:?}"))??;
        if let Session::Http { initialized, .. } = self {
            *initialized = true;
        }
        Ok(answer)
    }

    async fn notify(&mut self, method: &str) -> Result<(), String> {
        let message = json!({"jsonrpc": "2.0", "method": method});
        match self {
            Session::Stdio { input, .. } => write_line(input, &message).await,
            Session::Http { .. } => {
                let (status, _, _) = self.post(&message).await?;
                if status.is_success() {
                    Ok(())
                } else {
                    Err(format!("{method} was answered {status}"))
                }
            }
        }
    }

    /// Sends `message` and reads until the answer with `id` (skipping notifications).
    async fn exchange(&mut self, message: Value, id: u64) -> Result<Value, String> {
        match self {
            Session::Stdio { input, output, .. } => {
                write_line(input, &message).await?;
                loop {
                    let line = output
                        .next_line()
                        .await
                        .map_err(|e| format!("reading the server's stdout: {e}"))?
                        .ok_or("the server closed its stdout")?;
                    if line.trim().is_empty() {
                        continue;
                    }
                    let value: Value = serde_json::from_str(&line).map_err(|e| {
                        format!(
                            "the server wrote a line that is not JSON ({e}): {}",
                            cut_str(&line)
                        )
                    })?;
                    if value.get("id").and_then(Value::as_u64) == Some(id) {
                        return Ok(value);
                    }
                }
            }
            Session::Http { .. } => {
                let (status, event_stream, body) = self.post(&message).await?;
                if !status.is_success() {
                    return Err(format!(
                        "answered {status}: {}",
                        cut_str(&String::from_utf8_lossy(&body))
                    ));
                }
                if !event_stream {
                    return serde_json::from_slice(&body)
                        .map_err(|e| format!("the answer is not JSON ({e})"));
                }
                // An SSE stream: the answer is the `data:` of the event whose message has our id.
                let text = std::str::from_utf8(&body).map_err(|e| format!("SSE not UTF-8: {e}"))?;
                for line in text.lines() {
                    let Some(data) = line.strip_prefix("data:") else {
                        continue;
                    };
                    if let Ok(value) = serde_json::from_str::<Value>(data.trim_start())
                        && value.get("id").and_then(Value::as_u64) == Some(id)
                    {
                        return Ok(value);
                    }
                }
                Err(format!("the event stream holds no answer to request {id}"))
            }
        }
    }

    async fn post(&mut self, message: &Value) -> Result<(http::StatusCode, bool, Bytes), String> {
        let Session::Http {
            sender,
            host,
            initialized,
            ..
        } = self
        else {
            return Err("not an HTTP session".to_owned());
        };
        let body = serde_json::to_vec(message).map_err(|e| e.to_string())?;
        let mut request = http::Request::post("/mcp")
            .header(http::header::HOST, host.as_str())
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json, text/event-stream");
        if *initialized {
            request = request.header("mcp-protocol-version", PROTOCOL);
        }
        let request = request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| e.to_string())?;
        sender
            .ready()
            .await
            .map_err(|e| format!("the connection closed: {e}"))?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| format!("the request failed: {e}"))?;
        let status = response.status();
        let event_stream = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(|e| format!("reading the answer: {e}"))?
            .to_bytes();
        Ok((status, event_stream, body))
    }
}

async fn write_line(input: &mut ChildStdin, message: &Value) -> Result<(), String> {
    let mut line = serde_json::to_vec(message).map_err(|e| e.to_string())?;
    line.push(b'\n');
    input
        .write_all(&line)
        .await
        .map_err(|e| format!("writing to the server's stdin: {e}"))?;
    input
        .flush()
        .await
        .map_err(|e| format!("writing to the server's stdin: {e}"))
}

/// The start of a JSON value, for an error message.
pub fn cut(value: &Value) -> String {
    cut_str(&value.to_string())
}

fn cut_str(text: &str) -> String {
    match text.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}
