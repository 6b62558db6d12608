//! The MCP client of `toolc import mcp`: just enough of the protocol to list a server's tools.
//! It sends `initialize` (with [`PROTOCOL_VERSION`]), `notifications/initialized` and
//! `tools/list`, following `nextCursor` to the last page, and nothing else; it answers a
//! server's `ping` and refuses any other request the server makes. Each request waits at most
//! the step timeout. The transports are [`stdio`] (a server it starts) and [`http`]
//! (streamable HTTP to a server on this machine).

pub(crate) mod http;
pub(crate) mod stdio;

use super::Failure;
use serde_json::{Value, json};
use std::time::Duration;

/// The protocol version `initialize` asks for: MCP's current one. A server may answer with an
/// older one it speaks; `tools/list` is the same in all of them.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// Most pages a server may give before the listing stops: a server whose cursor never ends
/// would otherwise be asked forever.
const MAX_PAGES: usize = 10_000;

/// How a transport carries JSON-RPC messages to a server and back.
pub trait Transport {
    /// Sends the request and waits, at most the step timeout, for the response with its id:
    /// the whole response object (`result` or `error`).
    fn request(&mut self, id: u64, method: &str, params: Value) -> Result<Value, Failure>;
    /// Sends a notification.
    fn notify(&mut self, method: &str) -> Result<(), Failure>;
    /// The protocol version the server chose (HTTP sends it on every later request).
    fn negotiated(&mut self, _version: &str) {}
    /// Ends the session; never fails (a server that will not stop is killed).
    fn close(&mut self);
}

/// What a server listed.
#[derive(Debug)]
pub struct Listed {
    /// `serverInfo.name`, if the server gave one.
    pub name: Option<String>,
    /// `serverInfo.version`, if the server gave one.
    pub version: Option<String>,
    /// The protocol version the server chose.
    pub protocol: String,
    /// Every tool of every page, in the order received, each as the server wrote it.
    pub tools: Vec<Value>,
}

/// Lists the tools of the server behind `transport`, then ends the session (also on failure).
pub fn list(transport: &mut dyn Transport) -> Result<Listed, Failure> {
    let listed = session(transport);
    transport.close();
    listed
}

fn session(transport: &mut dyn Transport) -> Result<Listed, Failure> {
    let init = call(
        transport,
        1,
        "initialize",
        json!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": { "name": "toolc", "version": env!("CARGO_PKG_VERSION") },
        }),
    )?;
    let Some(protocol) = init.get("protocolVersion").and_then(Value::as_str) else {
        return Err(not_mcp(format!(
            "its answer to `initialize` has no `protocolVersion`: {}",
            excerpt(&init.to_string())
        )));
    };
    let protocol = protocol.to_string();
    transport.negotiated(&protocol);
    let info = init.get("serverInfo");
    let text = |key: &str| {
        info.and_then(|i| i.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    transport.notify("notifications/initialized")?;
    let mut tools = Vec::new();
    let mut cursors: Vec<String> = Vec::new();
    for page in 0..MAX_PAGES {
        let params = match cursors.last() {
            Some(c) => json!({ "cursor": c }),
            None => json!({}),
        };
        let result = call(transport, 2 + page as u64, "tools/list", params)?;
        let Some(Value::Array(listed)) = result.get("tools") else {
            return Err(not_mcp(format!(
                "its answer to `tools/list` has no `tools` list: {}",
                excerpt(&result.to_string())
            )));
        };
        tools.extend(listed.iter().cloned());
        match result.get("nextCursor") {
            None | Some(Value::Null) => {
                return Ok(Listed {
                    name: text("name"),
                    version: text("version"),
                    protocol,
                    tools,
                });
            }
            Some(Value::String(next)) if cursors.contains(next) => {
                return Err(Failure::source(
                    format!("the server gave the cursor `{next}` twice, so its pages never end"),
                    "a server's `nextCursor` leads to the next page and is absent on the last",
                ));
            }
            Some(Value::String(next)) => cursors.push(next.clone()),
            Some(other) => {
                return Err(not_mcp(format!(
                    "its `nextCursor` is {other}, not a string"
                )));
            }
        }
    }
    Err(Failure::source(
        format!("the server's tools/list goes on past {MAX_PAGES} pages"),
        "a server's `nextCursor` leads to the next page and is absent on the last",
    ))
}

/// Sends one request and answers its `result`, or the server's error as a failure.
fn call(
    transport: &mut dyn Transport,
    id: u64,
    method: &str,
    params: Value,
) -> Result<Value, Failure> {
    let response = transport.request(id, method, params)?;
    if let Some(error) = response.get("error") {
        let code = error.get("code").map(Value::to_string).unwrap_or_default();
        let message = error.get("message").and_then(Value::as_str).unwrap_or("");
        return Err(Failure::source(
            format!("the server answered `{method}` with the error {code} {message}")
                .trim_end()
                .to_string(),
            if method == "tools/list" {
                "the server may not serve tools (its `initialize` answer lists its capabilities)"
            } else {
                "check the server's own output (its stderr) for why"
            },
        ));
    }
    match response.get("result") {
        Some(result @ Value::Object(_)) => Ok(result.clone()),
        _ => Err(not_mcp(format!(
            "its answer to `{method}` has no `result` object: {}",
            excerpt(&response.to_string())
        ))),
    }
}

/// A server that does not speak MCP as it should.
pub(crate) fn not_mcp(why: String) -> Failure {
    Failure::source(
        format!("the server does not answer as an MCP server: {why}"),
        "toolc import mcp speaks MCP (JSON-RPC 2.0); check that the command starts an MCP server",
    )
}

/// At most 200 characters of `text`, with `…` when cut.
pub(crate) fn excerpt(text: &str) -> String {
    const MAX: usize = 200;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// What a server sent that is not for the request being waited on.
pub(crate) enum Incoming {
    /// The response to this request.
    Response(Value),
    /// A request of the server's own, to be answered with this message.
    Answer(Value),
    /// A notification, or a response to something else: nothing to do.
    Ignore,
}

/// Sorts one JSON-RPC message from the server while `id` is awaited.
pub(crate) fn incoming(message: Value, id: u64) -> Incoming {
    let is_request = message.get("method").is_some();
    match message.get("id") {
        Some(got) if !is_request && got.as_u64() == Some(id) => Incoming::Response(message),
        Some(request_id) if is_request => {
            let request_id = request_id.clone();
            if message.get("method").and_then(Value::as_str) == Some("ping") {
                Incoming::Answer(json!({ "jsonrpc": "2.0", "id": request_id, "result": {} }))
            } else {
                Incoming::Answer(json!({
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "error": { "code": -32601, "message": "toolc import only lists tools" },
                }))
            }
        }
        _ => Incoming::Ignore,
    }
}

/// The JSON text of a request.
pub(crate) fn request_text(id: u64, method: &str, params: &Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string()
}

/// The JSON text of a notification.
pub(crate) fn notification_text(method: &str) -> String {
    json!({ "jsonrpc": "2.0", "method": method }).to_string()
}

/// `30 s`, `1.5 s`.
pub(crate) fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}
