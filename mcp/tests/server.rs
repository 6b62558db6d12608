//! The MCP server, driven with raw JSON-RPC lines over an in-process duplex stream: what it
//! lists, what calls answer, and that it keeps serving after panics and garbage input.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use toolc_mcp::{McpServer, mcp_tool, mcp_tool_json};
use toolc_runtime::codegen::schema::{Additional, Num, Schema, Types};
use toolc_runtime::{
    Agent, AuthLevel, BoxFuture, CallContext, Caller, Capability, HandlerError, OperationKind,
    Playbook, Policy, ToolDescriptor, ToolError, Toolbox,
    codegen::{Guard, NoParams, run_play, run_tool, unknown_play},
};

static STRING: Schema = Schema {
    types: Types::STRING,
    ..Schema::ANY
};
static INTEGER: Schema = Schema {
    types: Types::INTEGER,
    ..Schema::ANY
};
static NUMBER: Schema = Schema {
    types: Types::NUMBER,
    ..Schema::ANY
};
static TEXT_OBJECT: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("text", &STRING)],
    required: &["text"],
    additional_properties: Additional::Forbidden,
    ..Schema::ANY
};
static EMPTY: Schema = Schema {
    types: Types::OBJECT,
    ..Schema::ANY
};
static NUMBERS: Schema = Schema {
    types: Types::ARRAY,
    items: Some(&INTEGER),
    ..Schema::ANY
};
static N_PARAMS: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("n", &INTEGER)],
    required: &["n"],
    additional_properties: Additional::Forbidden,
    ..Schema::ANY
};
static PIN: Schema = Schema {
    types: Types::INTEGER,
    minimum: Some(Num::Int(1000)),
    maximum: Some(Num::Int(9999)),
    sensitive: true,
    ..Schema::ANY
};
static PASSWORD: Schema = Schema {
    types: Types::STRING,
    min_length: Some(12),
    sensitive: true,
    ..Schema::ANY
};
/// `unlock`'s parameters: two sensitive values, as toolc writes `sensitive: true`.
static UNLOCK: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("pin", &PIN), ("password", &PASSWORD)],
    required: &["pin"],
    ..Schema::ANY
};
static HALF: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("half", &NUMBER)],
    required: &["half"],
    additional_properties: Additional::Forbidden,
    ..Schema::ANY
};

const TEXT_SCHEMA: &str = r#"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}"#;

const fn tool(
    name: &'static str,
    input_schema: &'static str,
    parameters: &'static Schema,
    output: Option<(&'static str, &'static Schema)>,
) -> ToolDescriptor {
    ToolDescriptor {
        input_schema,
        output_schema: match output {
            Some((text, _)) => Some(text),
            None => None,
        },
        returns: match output {
            Some((_, schema)) => Some(schema),
            None => None,
        },
        ..ToolDescriptor::new(name, OperationKind::Tool, "a test tool", parameters)
    }
}

static TOOLS: [ToolDescriptor; 7] = [
    ToolDescriptor {
        title: Some("Echo"),
        annotations: r#"{"title":"Echo it back","readOnlyHint":true,"openWorldHint":false,"category":"text","limits":{"per_minute":30}}"#,
        icons: Some(
            r#"[{"src":"https://example.com/echo.png","mimeType":"image/png","sizes":["48x48"]}]"#,
        ),
        meta: Some(r#"{"com.example/owner":"platform"}"#),
        ..tool(
            "echo",
            TEXT_SCHEMA,
            &TEXT_OBJECT,
            Some((
                r#"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"#,
                &TEXT_OBJECT,
            )),
        )
    },
    tool("boom", "{\"type\":\"object\"}", &EMPTY, None),
    tool("raw_boom", "{\"type\":\"object\"}", &EMPTY, None),
    ToolDescriptor {
        policy: Policy {
            auth: AuthLevel::Admin,
            ..Policy::NONE
        },
        annotations: r#"{"destructiveHint":true,"idempotentHint":false}"#,
        ..tool("secret", "{\"type\":\"object\"}", &EMPTY, None)
    },
    // An array result: validated, but MCP lists no output schema for it.
    ToolDescriptor {
        output_schema: None,
        ..tool(
            "numbers",
            "{\"type\":\"object\"}",
            &EMPTY,
            Some((r#"{"type":"array","items":{"type":"integer"}}"#, &NUMBERS)),
        )
    },
    tool(
        "echo_boom",
        TEXT_SCHEMA,
        &TEXT_OBJECT,
        Some((TEXT_SCHEMA, &TEXT_OBJECT)),
    ),
    tool(
        "unlock",
        r#"{"type":"object","properties":{"pin":{"type":"integer"},"password":{"type":"string"}},"required":["pin"]}"#,
        &UNLOCK,
        None,
    ),
];

static PLAYS: [ToolDescriptor; 2] = [
    ToolDescriptor {
        kind: OperationKind::Play,
        ..tool(
            "halve",
            r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#,
            &N_PARAMS,
            Some((
                r#"{"type":"object","properties":{"half":{"type":"number"}},"required":["half"]}"#,
                &HALF,
            )),
        )
    },
    // Its `returns` accepts any object, the error envelope's shape included.
    ToolDescriptor {
        kind: OperationKind::Play,
        ..tool(
            "loose",
            r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#,
            &N_PARAMS,
            Some((r#"{"type":"object"}"#, &EMPTY)),
        )
    },
];

#[derive(Deserialize, Serialize)]
struct Text {
    text: String,
}

#[derive(Deserialize)]
struct N {
    n: i64,
}

#[derive(Serialize)]
struct Half {
    half: f64,
}

/// Counts the calls that reached a handler.
#[derive(Default)]
struct Lab {
    guard: Guard,
    handled: AtomicUsize,
}

impl Toolbox for Lab {
    fn name(&self) -> &'static str {
        "lab"
    }

    fn descriptors(&self) -> &'static [ToolDescriptor] {
        &TOOLS
    }

    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: &'a str,
        ctx: &'a CallContext,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        // A hand-written toolbox that panics outside the contract's own guard.
        if tool == "raw_boom" {
            panic!("the toolbox itself fell over");
        }
        Box::pin(async move {
            self.handled.fetch_add(1, Ordering::SeqCst);
            match tool {
                "echo" => {
                    run_tool(
                        &TOOLS[0],
                        &self.guard,
                        ctx,
                        arguments,
                        |p: Text| async move { Ok::<_, HandlerError>(p) },
                    )
                    .await
                }
                "boom" => {
                    run_tool(
                        &TOOLS[1],
                        &self.guard,
                        ctx,
                        arguments,
                        |_: NoParams| async move {
                            if tool == "boom" {
                                panic!("handler panicked on purpose");
                            }
                            Ok::<Value, HandlerError>(Value::Null)
                        },
                    )
                    .await
                }
                "secret" => {
                    run_tool(
                        &TOOLS[3],
                        &self.guard,
                        ctx,
                        arguments,
                        |_: NoParams| async move { Ok::<_, HandlerError>(json!({"secret": 42})) },
                    )
                    .await
                }
                "numbers" => {
                    run_tool(
                        &TOOLS[4],
                        &self.guard,
                        ctx,
                        arguments,
                        |_: NoParams| async move { Ok::<_, HandlerError>(vec![1, 2, 3]) },
                    )
                    .await
                }
                "echo_boom" => {
                    run_tool(
                        &TOOLS[5],
                        &self.guard,
                        ctx,
                        arguments,
                        |p: Text| async move {
                            if p.text == "boom" {
                                panic!("echo_boom panicked");
                            }
                            Ok::<_, HandlerError>(p)
                        },
                    )
                    .await
                }
                "unlock" => run_tool(
                    &TOOLS[6],
                    &self.guard,
                    ctx,
                    arguments,
                    |_: NoParams| async move { Ok::<_, HandlerError>(json!({"unlocked": true})) },
                )
                .await,
                other => Err(ToolError::unknown_tool(other)),
            }
        })
    }
}

struct Plays;

impl Playbook for Plays {
    fn name(&self) -> &'static str {
        "plays"
    }

    fn descriptors(&self) -> &'static [ToolDescriptor] {
        &PLAYS
    }

    fn call<'a>(
        &'a self,
        play: &'a str,
        arguments: &'a str,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            match play {
                "halve" => {
                    run_play(&PLAYS[0], arguments, |p: N| async move {
                        if p.n % 2 != 0 {
                            return Err(HandlerError::msg(format!("{} is odd", p.n)));
                        }
                        Ok(Half {
                            half: p.n as f64 / 2.0,
                        })
                    })
                    .await
                }
                "loose" => {
                    run_play(&PLAYS[1], arguments, |p: N| async move {
                        if p.n < 0 {
                            return Err(HandlerError::msg("negative"));
                        }
                        Ok(json!({ "n": p.n }))
                    })
                    .await
                }
                other => Err(unknown_play(other)),
            }
        })
    }
}

fn agent(lab: Arc<Lab>) -> Agent {
    Agent::new(
        "lab-agent",
        "A laboratory agent.",
        vec![Capability {
            name: "lab",
            description: "Lab tools",
            manual: Some("Use echo to repeat text."),
            toolbox: Some(lab),
            playbook: Some(Arc::new(Plays)),
        }],
    )
    .expect("names are unique")
}

/// A JSON-RPC client over one end of a duplex stream.
struct Client {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: i64,
}

impl Client {
    async fn send_line(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.expect("write");
        self.write.write_all(b"\n").await.expect("write");
        self.write.flush().await.expect("flush");
    }

    async fn next_message(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
            .await
            .expect("the server answers within 10 s")
            .expect("read")
            .expect("the server keeps the stream open");
        serde_json::from_str(&line).expect("the server writes JSON")
    }

    /// Sends a request and waits for the response with its id.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_line(&line.to_string()).await;
        self.response(id).await
    }

    async fn response(&mut self, id: i64) -> Value {
        loop {
            let message = self.next_message().await;
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
        }
    }

    async fn call(&mut self, name: &str, arguments: Value) -> Value {
        let response = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await;
        match response.get("result") {
            Some(result) => result.clone(),
            None => panic!("tools/call {name} failed: {response}"),
        }
    }
}

/// Serves `server` over a duplex stream in a task of its own: the client end, and the task.
fn serve(
    server: McpServer,
) -> (
    Client,
    tokio::task::JoinHandle<Result<(), toolc_mcp::ServeError>>,
) {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    let task = tokio::spawn(server.serve(server_read, server_write));
    let (read, write) = tokio::io::split(client_end);
    let client = Client {
        write,
        lines: BufReader::new(read).lines(),
        next_id: 0,
    };
    (client, task)
}

/// Starts a server for the lab agent, runs `initialize`, and returns the client, the
/// `initialize` result, and the server task.
async fn start(
    server: McpServer,
) -> (
    Client,
    Value,
    tokio::task::JoinHandle<Result<(), toolc_mcp::ServeError>>,
) {
    start_with(server, json!({})).await
}

/// [`start`] for a client that declares `capabilities`.
async fn start_with(
    server: McpServer,
    capabilities: Value,
) -> (
    Client,
    Value,
    tokio::task::JoinHandle<Result<(), toolc_mcp::ServeError>>,
) {
    let (mut client, task) = serve(server);
    let init = client
        .request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": capabilities,
                "clientInfo": {"name": "duplex-test", "version": "0"}
            }),
        )
        .await;
    client
        .send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    let init = init.get("result").cloned().expect("initialize result");
    (client, init, task)
}

/// The text content of a result, parsed as JSON.
fn text_json(result: &Value) -> Value {
    let text = result["content"][0]["text"].as_str().expect("a text block");
    serde_json::from_str(text).expect("the text is JSON")
}

fn is_error(result: &Value) -> bool {
    result.get("isError") == Some(&Value::Bool(true))
}

#[tokio::test]
async fn initialize_says_who_the_agent_is() {
    let (_client, init, _task) = start(McpServer::new(agent(Arc::default()))).await;
    assert_eq!(init["protocolVersion"], "2025-11-25");
    assert_eq!(init["serverInfo"]["name"], "lab-agent");
    assert_eq!(init["serverInfo"]["description"], "A laboratory agent.");
    assert_eq!(init["instructions"], "Use echo to repeat text.");
    assert!(init["capabilities"]["tools"].is_object(), "{init}");
}

#[tokio::test]
async fn tools_list_converts_every_descriptor() {
    let (mut client, _, _task) = start(McpServer::new(agent(Arc::default()))).await;
    let list = client.request("tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().expect("tools").clone();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "echo",
            "boom",
            "raw_boom",
            "secret",
            "numbers",
            "echo_boom",
            "unlock",
            "halve",
            "loose"
        ]
    );
    let echo = &tools[0];
    assert_eq!(echo["title"], "Echo");
    assert_eq!(echo["inputSchema"]["type"], "object");
    // The descriptor's MCP form is listed as it is.
    assert_eq!(echo["outputSchema"]["type"], "object");
    // The annotations as the compiler wrote them: `annotations.title` apart from `title`, and
    // the manifest's own keys beside the hints.
    assert_eq!(
        echo["annotations"],
        json!({"title": "Echo it back", "readOnlyHint": true, "openWorldHint": false, "category": "text", "limits": {"per_minute": 30}})
    );
    // Icons and `_meta` pass through as the compiler wrote them.
    assert_eq!(
        echo["icons"],
        json!([{"src": "https://example.com/echo.png", "mimeType": "image/png", "sizes": ["48x48"]}])
    );
    assert_eq!(echo["_meta"], json!({"com.example/owner": "platform"}));
    let secret = &tools[3];
    assert!(secret.get("icons").is_none() && secret.get("_meta").is_none());
    assert_eq!(
        secret["annotations"],
        json!({"destructiveHint": true, "idempotentHint": false})
    );
    assert!(tools[1].get("annotations").is_none());
    // An array result lists no output schema.
    assert!(tools[4].get("outputSchema").is_none(), "{}", tools[4]);
    assert_eq!(tools[7]["outputSchema"]["type"], "object");
    // What `mcp_tool_json` lists, one descriptor at a time; `mcp_tool`, rmcp's typed `Tool`,
    // has all but the manifest's own annotation keys.
    for (listed, desc) in tools.iter().zip(TOOLS.iter().chain(PLAYS.iter())) {
        assert_eq!(*listed, mcp_tool_json(desc));
    }
    let typed = serde_json::to_value(mcp_tool(&TOOLS[0])).expect("json");
    assert_eq!(
        typed["annotations"],
        json!({"title": "Echo it back", "readOnlyHint": true, "openWorldHint": false})
    );
}

#[tokio::test]
async fn results_are_structured_when_an_object_schema_is_listed() {
    let (mut client, _, _task) = start(McpServer::new(agent(Arc::default()))).await;
    let r = client.call("echo", json!({"text": "hi"})).await;
    assert!(!is_error(&r), "{r}");
    assert_eq!(r["structuredContent"], json!({"text": "hi"}));
    assert_eq!(text_json(&r), r["structuredContent"]);

    let r = client.call("numbers", json!({})).await;
    assert!(!is_error(&r), "{r}");
    assert!(r.get("structuredContent").is_none(), "{r}");
    assert_eq!(text_json(&r), json!([1, 2, 3]));

    // A play answers like a tool.
    let r = client.call("halve", json!({"n": 8})).await;
    assert!(!is_error(&r), "{r}");
    assert_eq!(r["structuredContent"], json!({"half": 4.0}));
    assert_eq!(text_json(&r), r["structuredContent"]);
}

#[tokio::test]
async fn contract_errors_are_error_results_with_their_kind() {
    let lab = Arc::new(Lab::default());
    let (mut client, _, _task) = start(McpServer::new(agent(Arc::clone(&lab)))).await;

    // Invalid arguments never reach the handler; every violation is listed.
    let r = client.call("echo", json!({"text": 5, "extra": true})).await;
    assert!(is_error(&r), "{r}");
    let e = text_json(&r);
    assert_eq!(e["kind"], "arguments_invalid");
    assert_eq!(e["retryable"], false);
    let pointers: Vec<&str> = e["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .filter_map(|v| v["pointer"].as_str())
        .collect();
    assert!(pointers.contains(&"/text"), "{e}");
    // `echo` lists an output schema, so the error is text only.
    assert!(r.get("structuredContent").is_none(), "{r}");

    // Missing arguments are an empty object, which the schema refuses.
    let response = client.request("tools/call", json!({"name": "echo"})).await;
    assert_eq!(text_json(&response["result"])["kind"], "arguments_invalid");

    // The anonymous default caller is forbidden an admin tool.
    let r = client.call("secret", json!({})).await;
    assert!(is_error(&r), "{r}");
    assert_eq!(r["structuredContent"]["kind"], "forbidden");
    assert_eq!(r["structuredContent"], text_json(&r));
    assert!(
        r["structuredContent"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("secret")),
        "{r}"
    );

    // A play's failure is an error result too, and every result says how it ran in `_meta`.
    let r = client.call("halve", json!({"n": 3})).await;
    assert!(is_error(&r), "{r}");
    assert_eq!(r["_meta"]["toolc/terminal"], false, "{r}");
    assert_eq!(r["_meta"]["toolc/metadata"]["tool_kind"], "play", "{r}");
    assert_eq!(r["_meta"]["toolc/metadata"]["attempt"], 1, "{r}");
    assert!(
        r["_meta"]["toolc/metadata"]["call_id"]
            .as_str()
            .is_some_and(|id| id.starts_with("mcp-")),
        "{r}"
    );
    let e = text_json(&r);
    assert_eq!(e["kind"], "handler");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("3 is odd")),
        "{e}"
    );
    assert!(r.get("structuredContent").is_none(), "{r}");
    // Though the play's `returns` accepts the envelope `{error, kind}`, its failure is one.
    let r = client.call("loose", json!({"n": -1})).await;
    assert!(is_error(&r), "{r}");
    assert_eq!(text_json(&r)["kind"], "handler", "{r}");
    let r = client.call("loose", json!({"n": 1})).await;
    assert!(!is_error(&r), "{r}");
    assert_eq!(r["structuredContent"], json!({"n": 1}));
    let r = client.call("halve", json!({"n": "x"})).await;
    assert_eq!(text_json(&r)["kind"], "arguments_invalid");

    // An unknown tool is a protocol error.
    let response = client
        .request("tools/call", json!({"name": "nope", "arguments": {}}))
        .await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
    assert_eq!(response["error"]["data"]["kind"], "unknown_tool");
    assert!(response.get("result").is_none());
}

/// A value its schema marks sensitive is not in the error result of a call whose validation
/// fails on it: neither the text nor the structured content quote it.
#[tokio::test]
async fn error_results_never_quote_a_sensitive_value() {
    let lab = Arc::new(Lab::default());
    let (mut client, _, _task) = start(McpServer::new(agent(Arc::clone(&lab)))).await;
    let r = client
        .call("unlock", json!({"pin": 9_876_543, "password": "Zebra7f3Q"}))
        .await;
    assert!(is_error(&r), "{r}");
    let text = r.to_string();
    for secret in ["9876543", "Zebra7f3Q"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    let e = text_json(&r);
    assert_eq!(e["kind"], "arguments_invalid");
    let violations = e["violations"].as_array().expect("violations");
    let mut found: Vec<(&str, &str)> = violations
        .iter()
        .map(|v| {
            (
                v["pointer"].as_str().unwrap(),
                v["message"].as_str().unwrap(),
            )
        })
        .collect();
    // Sorted: the order of an object's keys depends on serde_json's `preserve_order`.
    found.sort_unstable();
    assert_eq!(
        found,
        [
            ("/password", "must be at least 12 characters long"),
            ("/pin", "must be <= 9999"),
        ]
    );
    let r = client.call("unlock", json!({"pin": 1234})).await;
    assert!(!is_error(&r), "{r}");
}

#[tokio::test]
async fn the_caller_hook_decides_who_calls() {
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let server = McpServer::new(agent(Arc::default())).with_caller(move |request| {
        if let Ok(mut log) = log.lock() {
            log.push((request.tool().to_owned(), request.client_name()));
        }
        CallContext::new(request.call_id())
            .with_caller(Caller::new("root").with_auth(AuthLevel::Admin))
    });
    let (mut client, _, _task) = start(server).await;
    let r = client.call("secret", json!({})).await;
    assert!(!is_error(&r), "{r}");
    assert_eq!(text_json(&r), json!({"secret": 42}));
    let seen = seen.lock().expect("log").clone();
    assert_eq!(
        seen,
        [("secret".to_owned(), Some("duplex-test".to_owned()))]
    );
}

#[tokio::test]
async fn the_server_keeps_serving_after_panics() {
    let lab = Arc::new(Lab::default());
    let server = McpServer::new(agent(Arc::clone(&lab)));
    let (mut client, _, _task) = start(server).await;
    for _ in 0..3 {
        // Inside the contract: the handler panics, `run_tool` contains it.
        let r = client.call("boom", json!({})).await;
        assert!(is_error(&r), "{r}");
        assert_eq!(r["structuredContent"]["kind"], "panicked");
        assert_eq!(r["structuredContent"]["retryable"], false);
        // Outside it: the toolbox itself panics; the server contains it.
        let r = client.call("raw_boom", json!({})).await;
        assert!(is_error(&r), "{r}");
        let e = text_json(&r);
        assert_eq!(e["kind"], "panicked");
        assert!(
            e["message"]
                .as_str()
                .is_some_and(|m| m.contains("the toolbox itself fell over")),
            "{e}"
        );
        // A tool with an output schema: the panic is text only.
        let r = client.call("echo_boom", json!({"text": "boom"})).await;
        assert!(is_error(&r), "{r}");
        assert!(r.get("structuredContent").is_none());
        assert_eq!(text_json(&r)["kind"], "panicked");
        // And the next call is served.
        let r = client.call("echo_boom", json!({"text": "fine"})).await;
        assert_eq!(r["structuredContent"], json!({"text": "fine"}));
    }
    // A panicking caller hook fails the call, not the server.
    let server = McpServer::new(agent(Arc::default())).with_caller(|request| {
        if request.tool() == "secret" || request.tool() == "halve" {
            panic!("no caller for {}", request.tool());
        }
        CallContext::new(request.call_id())
    });
    let (mut client, _, _task) = start(server).await;
    // The message names what was called by its kind.
    for (name, arguments, said) in [
        (
            "secret",
            json!({}),
            "the MCP caller hook panicked on tool 'secret'",
        ),
        (
            "halve",
            json!({"n": 8}),
            "the MCP caller hook panicked on play 'halve'",
        ),
    ] {
        let e = text_json(&client.call(name, arguments).await);
        assert_eq!(e["kind"], "panicked");
        assert!(
            e["message"].as_str().is_some_and(|m| m.starts_with(said)),
            "{e}"
        );
    }
    let r = client.call("echo", json!({"text": "after"})).await;
    assert_eq!(r["structuredContent"], json!({"text": "after"}));
}

#[tokio::test]
async fn garbage_input_never_stops_the_server() {
    let (mut client, _, task) = start(McpServer::new(agent(Arc::default()))).await;
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let lines = [
        "not json at all".to_owned(),
        "{}".to_owned(),
        "[]".to_owned(),
        r#"{"jsonrpc":"2.0","id":"x1","method":"tools/call","params":{"name":5}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"x2","method":"tools/call","params":{"name":"echo","arguments":[1]}}"#
            .to_owned(),
        r#"{"jsonrpc":"2.0","id":"x3","method":"no/such/method","params":{}}"#.to_owned(),
        format!(
            r#"{{"jsonrpc":"2.0","id":"x4","method":"tools/call","params":{{"name":"echo","arguments":{{"text":{deep}}}}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":"x5","method":"tools/call","params":{{"name":"{}","arguments":{{}}}}}}"#,
            "n".repeat(100_000)
        ),
        "\u{0}\u{1}\u{7f}".to_owned(),
    ];
    for line in &lines {
        client.send_line(line).await;
    }
    // Whatever those got (errors, or nothing), the server still answers.
    client
        .send_line(r#"{"jsonrpc":"2.0","id":"probe","method":"tools/list"}"#)
        .await;
    let mut answered = Vec::new();
    loop {
        let m = client.next_message().await;
        if m["id"] == "probe" {
            assert!(m["result"]["tools"].is_array(), "{m}");
            break;
        }
        // Each bad request is answered with an error, never a result.
        assert!(m["error"]["code"].is_i64(), "{m}");
        assert!(m.get("result").is_none(), "{m}");
        if let Some(id) = m["id"].as_str() {
            answered.push(id.to_owned());
        }
    }
    // The deep line (x4) is past the parser's depth limit: dropped, like unparsable text.
    assert_eq!(answered, ["x1", "x2", "x3", "x5"]);
    let r = client.call("echo", json!({"text": "still here"})).await;
    assert_eq!(r["structuredContent"], json!({"text": "still here"}));
    assert!(!task.is_finished());
    // Closing the stream ends the session cleanly.
    drop(client);
    let ended = tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .expect("the server stops when the client goes")
        .expect("the server task did not panic");
    assert!(ended.is_ok(), "{ended:?}");
}

#[tokio::test]
async fn many_sessions_share_the_agent() {
    let lab = Arc::new(Lab::default());
    let server = McpServer::new(agent(Arc::clone(&lab)));
    let (mut a, _, _ta) = start(server.clone()).await;
    let (mut b, _, _tb) = start(server).await;
    a.call("echo", json!({"text": "a"})).await;
    b.call("echo", json!({"text": "b"})).await;
    assert_eq!(lab.handled.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_client_that_leaves_early_ends_serving_cleanly() {
    let (client_end, server_end) = tokio::io::duplex(1 << 12);
    let (r, w) = tokio::io::split(server_end);
    let task = tokio::spawn(McpServer::new(agent(Arc::default())).serve(r, w));
    drop(client_end);
    let ended = tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .expect("ends")
        .expect("no panic");
    assert_eq!(ended, Ok(()));
}

#[tokio::test]
async fn a_session_that_cannot_start_is_an_error() {
    let (client_end, server_end) = tokio::io::duplex(1 << 12);
    let (r, w) = tokio::io::split(server_end);
    let task = tokio::spawn(McpServer::new(agent(Arc::default())).serve(r, w));
    let (_read, mut write) = tokio::io::split(client_end);
    write
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .expect("write");
    let ended = tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .expect("ends")
        .expect("no panic");
    let error = ended.expect_err("no session");
    assert!(error.to_string().contains("did not start"), "{error}");
}

#[cfg(feature = "http")]
#[tokio::test]
async fn streamable_http_serves_until_shutdown() {
    use tokio::io::AsyncReadExt;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(
        McpServer::new(agent(Arc::default())).serve_http(listener, async {
            let _ = stopped.await;
        }),
    );
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "raw-http", "version": "0"}}
    })
    .to_string();
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        addr.port(),
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = String::new();
    tokio::time::timeout(
        Duration::from_secs(10),
        stream.read_to_string(&mut response),
    )
    .await
    .expect("the response ends")
    .expect("read");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains(r#""name":"lab-agent""#), "{response}");
    stop.send(()).expect("the server is running");
    let ended = tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .expect("shutdown ends serving")
        .expect("no panic");
    assert_eq!(ended, Ok(()));
}

#[tokio::test]
async fn deferred_loading_lists_the_search_tool_and_refuses_unknown_pins() {
    let server = McpServer::new(agent(Arc::default()))
        .with_deferred_loading(["echo"])
        .expect("echo is a tool");
    let names: Vec<String> = server.tools().iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, ["search_tools", "echo"]);
    // Each clone (each HTTP session) finds tools on its own.
    let (mut client, _, _task) = start(server.clone()).await;
    let r = client
        .call("search_tools", json!({"query": "halve", "limit": 1}))
        .await;
    assert!(!is_error(&r), "{r}");
    assert_eq!(r["structuredContent"]["tools"][0]["name"], "halve", "{r}");
    let r = client.call("halve", json!({"n": 4})).await;
    assert_eq!(r["structuredContent"], json!({"half": 2.0}), "{r}");
    assert_eq!(server.tools().len(), 2, "the original server found nothing");
    let refused = client
        .request(
            "tools/call",
            json!({"name": "loose", "arguments": {"n": 1}}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");

    let e = McpServer::new(agent(Arc::default()))
        .with_deferred_loading(["nope"])
        .expect_err("no such tool");
    assert_eq!(
        e.to_string(),
        "cannot pin 'nope': agent 'lab-agent' serves no tool or play of that name"
    );
}

/// Under 2026-07-28 a `subscriptions/listen` stream hears a change a search makes while its
/// request is being acknowledged: the stream is registered only after the acknowledgment is
/// written, and a search sent at once (here without waiting for it) changes the list first.
#[tokio::test]
async fn a_listen_stream_hears_a_change_made_while_it_was_acknowledged() {
    let server = McpServer::new(agent(Arc::default()))
        .with_deferred_loading(["echo"])
        .expect("echo is a tool");
    let (mut client, _task) = serve(server);
    // No `initialize`: each request says its protocol version.
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let listen = json!({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
        "params": {"notifications": {"toolsListChanged": true}, "_meta": meta}});
    let search = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "search_tools", "arguments": {"query": "halve", "limit": 1}, "_meta": meta}});
    client.send_line(&listen.to_string()).await;
    client.send_line(&search.to_string()).await;
    let (mut acknowledged, mut found, mut changed) = (false, false, false);
    while !(acknowledged && found && changed) {
        let message = client.next_message().await;
        match message["method"].as_str() {
            Some("notifications/subscriptions/acknowledged") => acknowledged = true,
            Some("notifications/tools/list_changed") => changed = true,
            _ if message["id"] == 2 => {
                assert_eq!(
                    message["result"]["structuredContent"]["tools"][0]["name"], "halve",
                    "{message}"
                );
                found = true;
            }
            _ => panic!("unexpected: {message}"),
        }
    }
}

/// The lab agent plus `erase`, a tool that needs a person's approval; `runs` counts its calls.
fn agent_with_approval(runs: Arc<AtomicUsize>) -> Agent {
    let mut agent = agent(Arc::default());
    agent
        .register(
            toolc_runtime::RegisteredTool::new(
                "erase",
                "Erase a file.",
                json!({
                    "type": "object",
                    "properties": {"path": {"type": "string"}},
                    "required": ["path"]
                }),
                move |args: Value, _ctx: CallContext| {
                    let runs = Arc::clone(&runs);
                    async move {
                        runs.fetch_add(1, Ordering::SeqCst);
                        Ok::<_, HandlerError>(json!({"erased": args["path"]}))
                    }
                },
            )
            .approval(true),
        )
        .expect("registers");
    agent
}

#[tokio::test]
async fn a_client_without_elicitation_is_told_how_to_grant_an_approval() {
    let runs = Arc::new(AtomicUsize::new(0));
    let server = McpServer::new(agent_with_approval(Arc::clone(&runs)))
        .with_approval_ttl(Duration::from_secs(90));
    let (mut client, _, _task) = start(server).await;
    let r = client.call("erase", json!({"path": "/tmp/a"})).await;
    assert!(is_error(&r), "{r}");
    let e = text_json(&r);
    assert_eq!(e["kind"], "approval_required");
    assert_eq!(e["retryable"], false);
    let message = e["message"].as_str().expect("a message");
    assert!(
        message.starts_with(
            "tool 'erase' was not run: it needs a person's approval, and this client cannot ask \
             one (it did not declare the elicitation capability)."
        ),
        "{message}"
    );
    assert!(message.contains(r#""decision": "approve""#), "{message}");
    assert!(message.contains("within 90 s"), "{message}");
    let held = &r["_meta"]["toolc/approval"];
    let token = held["token"]
        .as_str()
        .expect("the token, in _meta")
        .to_owned();
    assert_eq!(held["tool"], "erase");
    assert_eq!(held["arguments"], json!({"path": "/tmp/a"}));
    assert_eq!(held["expires_in_ms"], 90_000);
    assert!(
        !r["content"].to_string().contains(&token),
        "the token stays out of what the model reads"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    // The host grants it through the request's `_meta`.
    let grant = |decision: &str| {
        json!({
            "name": "erase",
            "arguments": {"path": "/tmp/a"},
            "_meta": {"toolc/approval": {"token": token, "decision": decision}}
        })
    };
    let response = client.request("tools/call", grant("approve")).await;
    let r = &response["result"];
    assert!(!is_error(r), "{response}");
    assert_eq!(text_json(r), json!({"erased": "/tmp/a"}));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // Once.
    let response = client.request("tools/call", grant("approve")).await;
    let e = text_json(&response["result"]);
    assert_eq!(e["kind"], "forbidden", "{response}");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // A malformed grant is the request's fault.
    let response = client
        .request(
            "tools/call",
            json!({
                "name": "erase",
                "arguments": {"path": "/tmp/a"},
                "_meta": {"toolc/approval": {"token": token, "decision": "maybe"}}
            }),
        )
        .await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
}

/// Calls `erase` from a client that declares elicitation, answers the server's
/// `elicitation/create` with `action`, and returns the elicitation's params and the result.
async fn elicited(client: &mut Client, action: &str) -> (Value, Value) {
    client.next_id += 1;
    let id = client.next_id;
    let call = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "erase", "arguments": {"path": "/tmp/b"}}
    });
    client.send_line(&call.to_string()).await;
    let asked = loop {
        let message = client.next_message().await;
        if message["method"] == "elicitation/create" {
            break message;
        }
        assert_ne!(
            message["id"],
            json!(id),
            "answered without asking: {message}"
        );
    };
    let answer = json!({
        "jsonrpc": "2.0", "id": asked["id"],
        "result": {"action": action, "content": {}}
    });
    client.send_line(&answer.to_string()).await;
    let response = client.response(id).await;
    (asked["params"].clone(), response["result"].clone())
}

#[tokio::test]
async fn a_client_with_elicitation_asks_the_person() {
    let runs = Arc::new(AtomicUsize::new(0));
    let server = McpServer::new(agent_with_approval(Arc::clone(&runs)));
    let (mut client, _, _task) = start_with(server, json!({"elicitation": {}})).await;

    let (asked, r) = elicited(&mut client, "accept").await;
    let question = asked["message"].as_str().expect("a message");
    assert!(
        question.starts_with("Allow the tool 'erase' to run with these arguments?"),
        "{question}"
    );
    assert!(question.contains(r#"{"path":"/tmp/b"}"#), "{question}");
    assert!(question.contains("Erase a file."), "{question}");
    assert_eq!(asked["requestedSchema"]["type"], "object", "{asked}");
    assert!(!is_error(&r), "{r}");
    assert_eq!(text_json(&r), json!({"erased": "/tmp/b"}));
    assert_eq!(runs.load(Ordering::SeqCst), 1);

    for action in ["decline", "cancel"] {
        let (_, r) = elicited(&mut client, action).await;
        assert!(is_error(&r), "{r}");
        let e = text_json(&r);
        assert_eq!(e["kind"], "forbidden", "{r}");
        assert_eq!(
            e["message"],
            "tool 'erase' was not run: a person denied the approval it needs"
        );
    }
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_elicitation_ends_the_call_when_its_token_expires() {
    // Time is paused: it moves only while every task waits, so the token's 5 s pass at once
    // while the server waits for an answer that never comes (before the client's own 10 s
    // timeout for a message would).
    let runs = Arc::new(AtomicUsize::new(0));
    let server = McpServer::new(agent_with_approval(Arc::clone(&runs)))
        .with_approval_ttl(Duration::from_secs(5));
    let (mut client, _, _task) = start_with(server, json!({"elicitation": {}})).await;
    client.next_id += 1;
    let id = client.next_id;
    let call = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "erase", "arguments": {"path": "/tmp/c"}}
    });
    client.send_line(&call.to_string()).await;
    let asked = client.next_message().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    let response = client.response(id).await;
    let r = &response["result"];
    assert!(is_error(r), "{response}");
    let e = text_json(r);
    assert_eq!(e["kind"], "forbidden");
    let message = e["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(
            "tool 'erase' was not run: it needs a person's approval, and the client's elicitation got no answer (no answer within 5000 ms)"
        ),
        "{message}"
    );
    // A late answer changes nothing: the call is over and its token withdrawn.
    let late = json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept"}});
    client.send_line(&late.to_string()).await;
    let r = client.call("echo", json!({"text": "still here"})).await;
    assert!(!is_error(&r), "the server serves on: {r}");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// A tool registered at run time is listed as a generated one is: its annotations under the
/// manifest's names become MCP's hints, other keys are kept, and its title is in
/// `annotations.title` as well as `title`.
#[test]
fn a_registered_tool_lists_its_hints_under_mcp_names() {
    let mut agent = agent(Arc::default());
    agent
        .register(
            toolc_runtime::RegisteredTool::new(
                "erase_all",
                "Erase every file.",
                json!({"type": "object"}),
                |_: Value, _: CallContext| async { Ok::<_, HandlerError>(json!({})) },
            )
            .title("Erase all")
            .annotation("read_only", false)
            .annotation("destructive", true)
            .annotation("idempotent", true)
            .annotation("open_world", false)
            .annotation("team", "storage"),
        )
        .expect("registers");
    let desc = agent.descriptor("erase_all").expect("registered");
    let listed = serde_json::to_value(mcp_tool(desc)).expect("json");
    assert_eq!(listed["title"], "Erase all");
    let annotations = &listed["annotations"];
    assert_eq!(annotations["title"], "Erase all", "{listed:#}");
    assert_eq!(annotations["readOnlyHint"], false, "{listed:#}");
    assert_eq!(annotations["destructiveHint"], true, "{listed:#}");
    assert_eq!(annotations["idempotentHint"], true, "{listed:#}");
    assert_eq!(annotations["openWorldHint"], false, "{listed:#}");
    assert!(annotations.get("read_only").is_none(), "{listed:#}");
}

/// A tool the server registers at run time, answering `reply`.
fn plugin(name: &str, reply: &'static str) -> toolc_runtime::RegisteredTool {
    toolc_runtime::RegisteredTool::new(
        name.to_owned(),
        format!("Answers {reply}."),
        json!({"type": "object"}),
        move |_: Value, _: CallContext| async move { Ok::<_, HandlerError>(json!(reply)) },
    )
}

/// The names `tools/list` answers.
async fn listed(client: &mut Client) -> Vec<String> {
    let r = client.request("tools/list", json!({})).await;
    r["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Reads messages until `notifications/tools/list_changed` (or fails after 10 s).
async fn hears_list_changed(client: &mut Client) {
    loop {
        if client.next_message().await["method"] == "notifications/tools/list_changed" {
            return;
        }
    }
}

/// Run-time tools added, replaced and removed while the server serves: every session hears
/// `notifications/tools/list_changed`, lists and calls what the agent has now.
#[tokio::test]
async fn updating_the_served_agent_tells_every_session_the_list_changed() {
    let server = McpServer::new(agent(Arc::default()));
    let (_, init, _task) = start(server.clone()).await;
    assert_eq!(init["capabilities"]["tools"]["listChanged"], true, "{init}");
    let (mut one, _, _task1) = start(server.clone()).await;
    let (mut two, _, _task2) = start(server.clone()).await;
    // Both sessions are initialized before the list changes.
    assert!(!listed(&mut one).await.contains(&"plugin".to_owned()));
    assert!(!listed(&mut two).await.contains(&"plugin".to_owned()));

    server
        .update(|agent| agent.register(plugin("plugin", "one")))
        .await
        .unwrap();
    hears_list_changed(&mut one).await;
    hears_list_changed(&mut two).await;
    assert!(listed(&mut one).await.contains(&"plugin".to_owned()));
    assert_eq!(
        one.call("plugin", json!({})).await["content"][0]["text"],
        "\"one\""
    );

    server
        .update(|agent| agent.replace(plugin("plugin", "two")))
        .await
        .unwrap();
    hears_list_changed(&mut two).await;
    let r = two.request("tools/list", json!({})).await;
    let tool = r["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "plugin")
        .cloned()
        .expect("still listed");
    assert_eq!(tool["description"], "Answers two.");
    assert_eq!(
        two.call("plugin", json!({})).await["content"][0]["text"],
        "\"two\""
    );

    server
        .update(|agent| agent.unregister("plugin"))
        .await
        .unwrap();
    hears_list_changed(&mut one).await;
    assert!(!listed(&mut one).await.contains(&"plugin".to_owned()));
    let refused = one
        .request("tools/call", json!({"name": "plugin", "arguments": {}}))
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(server.agent().descriptor("plugin").is_none());

    // A change that fails changes nothing, and nobody is told.
    let e = server
        .update(|agent| agent.unregister("echo"))
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("cannot remove or replace 'echo'"),
        "{e}"
    );
    assert!(listed(&mut one).await.contains(&"echo".to_owned()));
}

/// An agent that decides its tools per call: `tools/list` answers each caller its own list,
/// and a tool hidden from a caller is an unknown tool to it.
#[tokio::test]
async fn an_agent_filter_decides_each_request_list() {
    let agent = agent(Arc::default())
        .with_tool_filter(|d, ctx| d.name != "halve" || ctx.caller().has_role("maths"));
    let hook = |role: &'static str| {
        move |request: &toolc_mcp::McpRequest<'_>| {
            CallContext::new(request.call_id()).with_caller(Caller::new("ada").with_role(role))
        }
    };
    let agent = Arc::new(agent);
    let (mut plain, _, _t1) =
        start(McpServer::new(Arc::clone(&agent)).with_caller(hook("none"))).await;
    let (mut maths, _, _t2) = start(McpServer::new(agent).with_caller(hook("maths"))).await;
    assert!(!listed(&mut plain).await.contains(&"halve".to_owned()));
    assert!(listed(&mut plain).await.contains(&"echo".to_owned()));
    assert!(listed(&mut maths).await.contains(&"halve".to_owned()));
    let refused = plain
        .request(
            "tools/call",
            json!({"name": "halve", "arguments": {"n": 4}}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let r = maths.call("halve", json!({"n": 4})).await;
    assert_eq!(r["structuredContent"], json!({"half": 2.0}), "{r}");
}
