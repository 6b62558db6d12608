//! The MCP server's handling of what clients send (toolc-mcp over newline-delimited
//! JSON-RPC, the stdio transport, in-process): two clients of one agent each open a session
//! and then send frames the input picks (calls of a quick, a slow, a failing and a panicking
//! tool; `tools/list`, `ping`, unknown methods, notifications; malformed JSON, frames that are
//! not JSON-RPC, frames over a megabyte; requests before their session is initialized again;
//! cancellations of calls in flight, its own or the other client's ids). Asserted: nothing
//! panics but the `panics` tool, which the server must contain (libFuzzer's hook aborts on any
//! other panic in any task); every request the client did not cancel gets a response with its
//! id, a result or a JSON-RPC error; a client's cancellation never stops the other client's
//! call of the same id. The clock is Tokio's paused clock, so
//! the slow tool and the waits cost no real time. See fuzz/README.md.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolc_mcp::McpServer;
use toolc_runtime::{Agent, CallContext, HandlerError, RegisteredTool};

/// The agent every input's server serves, built once: a tool registered at run time keeps its
/// descriptor for the life of the process, so building one per input would grow the heap with
/// every input (and LeakSanitizer would say so).
fn agent() -> Arc<Agent> {
    static AGENT: std::sync::OnceLock<Arc<Agent>> = std::sync::OnceLock::new();
    Arc::clone(AGENT.get_or_init(build_agent))
}

fn build_agent() -> Arc<Agent> {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    let mut agent = Agent::new("fuzz", "A fuzzed agent.", Vec::new()).expect("an agent");
    let tool = |name: &'static str, f: fn(i64) -> Result<Value, String>| {
        RegisteredTool::new(
            name,
            "A tool.",
            schema.clone(),
            move |args: Value, _: CallContext| async move {
                let n = args["n"].as_i64().unwrap_or(0);
                if name == "slow" {
                    tokio::time::sleep(Duration::from_millis(
                        u64::try_from(n.rem_euclid(5_000)).unwrap_or(0),
                    ))
                    .await;
                }
                f(n).map_err(|e| HandlerError::from(std::io::Error::other(e)))
            },
        )
    };
    let tools = [
        tool("quick", |n| Ok(json!({"n": n}))),
        tool("slow", |n| Ok(json!({"slept": n}))),
        tool("fails", |_| Err("it always fails".to_owned())),
        tool("panics", |n| {
            if n >= 0 {
                panic!("{HANDLER_PANIC}")
            }
            Ok(Value::Null)
        }),
    ];
    for t in tools {
        agent
            .register(t.timeout(Duration::from_secs(2)))
            .expect("registers");
    }
    Arc::new(agent)
}

/// One client's end: its writer, the lines it reads, and what it expects.
struct Client {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    /// Request ids sent and not cancelled: each needs a response.
    waiting: BTreeSet<i64>,
    /// Ids this client cancelled (a response may or may not come).
    cancelled: BTreeSet<i64>,
    /// Answers seen, by id.
    answered: BTreeMap<i64, Value>,
    /// Whether it sent a frame that is not JSON-RPC, after which the server may close.
    sent_junk: bool,
}

impl Client {
    async fn send(&mut self, line: &[u8]) {
        // A server that has closed the stream (after a frame it refuses) reads no more.
        let _ = self.write.write_all(line).await;
        let _ = self.write.write_all(b"\n").await;
        let _ = self.write.flush().await;
    }

    async fn request(&mut self, id: i64, method: &str, params: Value) {
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.waiting.insert(id);
        self.send(line.to_string().as_bytes()).await;
    }

    /// Reads what the server wrote until every request is answered or the stream ends.
    async fn drain(&mut self) -> bool {
        while !self.waiting.is_empty() {
            let line =
                match tokio::time::timeout(Duration::from_secs(60), self.lines.next_line()).await {
                    Ok(Ok(Some(line))) => line,
                    Ok(Ok(None)) | Ok(Err(_)) => return false,
                    Err(_) => panic!("no answer within 60 s for {:?}", self.waiting),
                };
            let message: Value = serde_json::from_str(&line).expect("the server writes JSON");
            // Requests of the server (elicitation, pings) and notifications carry a method.
            if message.get("method").is_some() {
                continue;
            }
            assert!(
                message.get("result").is_some() ^ message.get("error").is_some(),
                "a response is a result or an error: {message}"
            );
            if let Some(id) = message.get("id").and_then(Value::as_i64) {
                self.waiting.remove(&id);
                self.answered.insert(id, message);
            }
        }
        true
    }
}

fn start(server: McpServer) -> Client {
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(async move {
        let _ = server.serve(read, write).await;
    });
    let (read, write) = tokio::io::split(client_end);
    Client {
        write,
        lines: BufReader::new(read).lines(),
        waiting: BTreeSet::new(),
        cancelled: BTreeSet::new(),
        answered: BTreeMap::new(),
        sent_junk: false,
    }
}

async fn session(data: &[u8]) {
    let agent = agent();
    let mut clients = [
        start(McpServer::new(Arc::clone(&agent))),
        start(McpServer::new(Arc::clone(&agent))),
    ];
    for c in clients.iter_mut() {
        c.request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "0"}}),
        )
        .await;
        assert!(c.drain().await, "the session starts");
        c.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
    }
    // Both clients use the same ids, so a cancellation by one names the other's calls too.
    let mut next_id = [1i64, 1];
    let mut ops = data.chunks(3);
    while let Some(op) = ops.next() {
        let (who, what, arg) = match *op {
            [a, b, c] => (usize::from(a & 1), a >> 1, i64::from(b) * 40 + i64::from(c)),
            _ => break,
        };
        let c = &mut clients[who];
        let id = next_id[who];
        match what % 12 {
            0..=3 => {
                let tool = ["quick", "slow", "fails", "panics"][usize::from(what % 4)];
                next_id[who] += 1;
                c.request(
                    id,
                    "tools/call",
                    json!({"name": tool, "arguments": {"n": arg}}),
                )
                .await;
            }
            4 => {
                next_id[who] += 1;
                c.request(id, "tools/list", json!({})).await;
            }
            5 => {
                next_id[who] += 1;
                c.request(
                    id,
                    ["ping", "no/such/method", "resources/list", "prompts/get"]
                        [usize::try_from(arg % 4).unwrap_or(0)],
                    json!({}),
                )
                .await;
            }
            6 => {
                // Cancels one of its own earlier ids: the server may answer it or not.
                let target = arg.rem_euclid(id.max(1));
                c.waiting.remove(&target);
                c.cancelled.insert(target);
                let line = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": target, "reason": "fuzz"}});
                c.send(line.to_string().as_bytes()).await;
            }
            7 => {
                // A call with arguments of the wrong shape, or a tool no one serves.
                next_id[who] += 1;
                let params = if arg % 2 == 0 {
                    json!({"name": "quick", "arguments": [arg]})
                } else {
                    json!({"name": format!("nope{arg}"), "arguments": {}})
                };
                c.request(id, "tools/call", params).await;
            }
            8 => {
                // Not JSON, or not JSON-RPC: at most an error with a null id.
                c.sent_junk = true;
                let junk: &[&[u8]] = &[
                    b"{",
                    b"[]",
                    b"null",
                    br#"{"jsonrpc":"2.0"}"#,
                    br#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
                    b"\xff\xfe",
                ];
                c.send(junk[usize::try_from(arg).unwrap_or(0) % junk.len()])
                    .await;
            }
            9 => {
                // An oversized frame: a call whose arguments hold over a megabyte.
                next_id[who] += 1;
                let big = "x".repeat(1 << 20);
                c.request(
                    id,
                    "tools/call",
                    json!({"name": "quick", "arguments": {"n": 1, "pad": big}}),
                )
                .await;
            }
            10 => {
                // Out of order: initialize again in an open session.
                next_id[who] += 1;
                c.request(id, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "again", "version": "0"}})).await;
            }
            _ => {
                // Lets the server run a while (the slow calls sleep on the paused clock).
                tokio::time::sleep(Duration::from_millis(u64::try_from(arg).unwrap_or(0))).await;
            }
        }
    }
    // Every request a client did not cancel itself is answered: the other client's
    // cancellations of the same ids stopped nothing. Only a frame that is not JSON-RPC may
    // end a session before.
    for c in clients.iter_mut() {
        let open = c.drain().await;
        assert!(
            open || c.sent_junk,
            "the server closed a session with {:?} unanswered",
            c.waiting
        );
    }
}

/// The panic the `panics` tool raises on purpose, which the server must contain.
const HANDLER_PANIC: &str = "the handler panicked";

/// libFuzzer's hook aborts on every panic, and the server catches a handler's panic only after
/// the hook has run: the hook installed here lets the `panics` tool's own panic through to the
/// server and hands every other panic to libFuzzer's hook, so those still count as crashes.
fn let_the_handler_panic_through() {
    let fuzzer_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info.payload_as_str() != Some(HANDLER_PANIC) {
            fuzzer_hook(info);
        }
    }));
}

fuzz_target!(init: let_the_handler_panic_through(), |data: &[u8]| {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("a runtime");
    runtime.block_on(session(data));
});
