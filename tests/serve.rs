//! `toolc call` and `toolc serve` from the outside: each backend answering through the real
//! binary (an `http` backend against a local HTTP server, a `command` backend running a
//! script, mocks by seed), the taxonomy an API's failures are mapped onto, secrets kept out of
//! every result and log, and the served list against `toolc dump --dialect mcp`. The official
//! MCP clients drive `toolc serve` in tests/mcp and tests/mcp-ts.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn toolc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_toolc"))
}

/// A request the test server read.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the test server answers: a status, headers and a body.
type Answer = (u16, Vec<(&'static str, String)>, String);

/// An HTTP/1.1 server on a free loopback port, answering each request with `answer` and
/// keeping every request it read.
struct TestServer {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl TestServer {
    fn start(answer: impl Fn(&Seen) -> Answer + Send + Sync + 'static) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&seen);
        let answer = Arc::new(answer);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let kept = Arc::clone(&kept);
                let answer = Arc::clone(&answer);
                std::thread::spawn(move || {
                    let _ = serve_one(stream, &kept, &*answer);
                });
            }
        });
        TestServer { port, seen }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn serve_one(
    stream: TcpStream,
    kept: &Mutex<Vec<Seen>>,
    answer: &(dyn Fn(&Seen) -> Answer + Send + Sync),
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, target) = (
        parts.next().unwrap_or_default().to_string(),
        parts.next().unwrap_or_default().to_string(),
    );
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h)?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_string(), v.trim().to_string()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let seen = Seen {
        method,
        target,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    let (status, extra, text) = answer(&seen);
    kept.lock().unwrap().push(seen);
    let mut out = stream;
    let mut head = format!(
        "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n",
        text.len()
    );
    for (n, v) in extra {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    out.write_all(head.as_bytes())?;
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// `text` written as `weather.yaml` in a fresh folder.
fn manifest(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("weather.yaml"), text).unwrap();
    dir
}

/// `toolc call` of `tool` in `dir` with `arguments`, the environment given: the exit status,
/// the `ToolResult` (null when none was printed) and stderr.
fn call(
    dir: &Path,
    env: &[(&str, &str)],
    args: &[&str],
    tool: &str,
    arguments: Value,
) -> (Option<i32>, Value, String) {
    let out = toolc()
        .arg("call")
        .arg(dir)
        .args(args)
        .args(["--format", "plain", tool, &arguments.to_string()])
        .envs(env.iter().copied())
        .output()
        .unwrap();
    result_of(out)
}

fn result_of(out: Output) -> (Option<i32>, Value, String) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let result = serde_json::from_str(stdout.trim()).unwrap_or(Value::Null);
    (out.status.code(), result, stderr)
}

const SECRET: &str = "sk-live-0b5e2a6e3c1f";

/// A toolset of one tool per request shape, sent to `base`.
fn weather_api(base: &str) -> String {
    format!(
        r#"version: 1
toolboxes:
  weather:
    description: Weather tools
    tools:
      forecast:
        description: The forecast for a city.
        parameters:
          type: object
          properties:
            city: {{ type: string }}
            days: {{ type: integer, minimum: 1 }}
            tags: {{ type: array, items: {{ type: string }} }}
            trace: {{ type: string }}
          required: [city]
        returns:
          type: object
          properties: {{ celsius: {{ type: number }} }}
          required: [celsius]
        backend:
          http:
            method: GET
            url: "{base}/v1/forecast/{{city}}"
            query: {{ units: metric, tag: "{{tags}}" }}
            headers:
              Authorization: {{ env: WEATHER_TOKEN, prefix: "Bearer " }}
              X-Trace: "trace-{{trace}}"
      report:
        description: Report the weather seen in a city.
        parameters:
          type: object
          properties:
            city: {{ type: string }}
            seen: {{ type: string }}
          required: [city, seen]
        backend:
          http:
            method: POST
            url: "{base}/v1/reports"
            headers: {{ Authorization: {{ env: WEATHER_TOKEN, prefix: "Bearer " }} }}
capabilities:
  weather: {{ description: Weather, toolbox: weather }}
"#
    )
}

#[test]
fn an_http_backend_sends_the_request_the_manifest_describes() {
    let server = TestServer::start(|seen| match seen.method.as_str() {
        "GET" => (
            200,
            vec![("content-type", "application/json".into())],
            r#"{"celsius": 21.5}"#.into(),
        ),
        _ => (201, vec![], String::new()),
    });
    let dir = manifest(&weather_api(&server.url()));
    let env = [("WEATHER_TOKEN", SECRET)];
    let (code, result, stderr) = call(
        dir.path(),
        &env,
        &[],
        "forecast",
        json!({"city": "São Paulo/Centro", "days": 3, "tags": ["rain", "wind gust"], "trace": "t1"}),
    );
    assert_eq!(code, Some(0), "{result} {stderr}");
    assert_eq!(result["value"], json!({"celsius": 21.5}));
    let (code, result, stderr) = call(
        dir.path(),
        &env,
        &[],
        "report",
        json!({"city": "Oslo", "seen": "snow"}),
    );
    assert_eq!(code, Some(0), "{result} {stderr}");
    // No body is `null`, which a tool without `returns` may answer.
    assert_eq!(result["value"], Value::Null);

    let requests = server.requests();
    let get = &requests[0];
    assert_eq!(get.method, "GET");
    assert_eq!(
        get.target,
        "/v1/forecast/S%C3%A3o%20Paulo%2FCentro?units=metric&tag=rain&tag=wind%20gust&days=3"
    );
    assert_eq!(
        get.header("authorization"),
        Some(format!("Bearer {SECRET}").as_str())
    );
    assert_eq!(get.header("x-trace"), Some("trace-t1"));
    assert_eq!(get.header("accept"), Some("application/json"));
    assert_eq!(get.body, "");
    let post = &requests[1];
    assert_eq!(
        (post.method.as_str(), post.target.as_str()),
        ("POST", "/v1/reports")
    );
    assert_eq!(post.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_str(&post.body).unwrap();
    assert_eq!(body, json!({"city": "Oslo", "seen": "snow"}));

    // The result is validated against `returns` as the dispatcher validates it; a header left
    // out of the call (`trace`) is not sent.
    let server = TestServer::start(|_| (200, vec![], r#"{"celsius": "warm"}"#.into()));
    let dir = manifest(&weather_api(&server.url()));
    let (code, result, _) = call(dir.path(), &env, &[], "forecast", json!({"city": "Oslo"}));
    assert_eq!(code, Some(1));
    assert_eq!(result["cause"]["code"], "output_invalid", "{result}");
    assert_eq!(server.requests()[0].header("x-trace"), None);
}

#[test]
fn an_apis_failures_are_the_runtimes_kinds_and_keep_no_secret() {
    let server = TestServer::start(|seen| {
        let city = seen
            .target
            .split('/')
            .nth(3)
            .unwrap_or_default()
            .split('?')
            .next()
            .unwrap_or_default()
            .to_string();
        match city.as_str() {
            "nowhere" => (404, vec![], "no such city".into()),
            "busy" => (429, vec![("retry-after", "7".into())], "slow down".into()),
            "down" => (503, vec![("retry-after", "2".into())], "maintenance".into()),
            "broken" => (500, vec![], "oops".into()),
            // An API that echoes the credential it refuses.
            _ => (
                401,
                vec![],
                format!(
                    "bad token {}",
                    seen.header("authorization").unwrap_or_default()
                ),
            ),
        }
    });
    let dir = manifest(&weather_api(&server.url()));
    let env = [("WEATHER_TOKEN", SECRET)];
    let cases = [
        ("nowhere", "handler", false, None),
        ("busy", "rate_limited", true, Some(7000)),
        ("down", "unavailable", true, Some(2000)),
        ("broken", "unavailable", true, None),
        ("stranger", "handler", false, None),
    ];
    for (city, kind, retryable, retry_after) in cases {
        let (code, result, stderr) = call(
            dir.path(),
            &env,
            &["--log", "debug"],
            "forecast",
            json!({"city": city}),
        );
        assert_eq!(code, Some(1), "{city}: {result}");
        let cause = &result["cause"];
        assert_eq!(cause["code"], kind, "{city}: {result}");
        assert_eq!(cause["retryable"], retryable, "{city}: {result}");
        assert_eq!(
            cause["retry_after_ms"].as_u64(),
            retry_after,
            "{city}: {result}"
        );
        let text = result.to_string();
        assert!(
            !text.contains(SECRET) && !stderr.contains(SECRET),
            "{city}: a secret leaked: {text}\n{stderr}"
        );
    }
    let (_, result, _) = call(
        dir.path(),
        &env,
        &[],
        "forecast",
        json!({"city": "nowhere"}),
    );
    assert_eq!(
        result["cause"]["message"],
        format!(
            "not found: GET {}/v1/forecast/nowhere answered 404 Not Found: no such city",
            server.url()
        )
    );
    let (_, result, _) = call(
        dir.path(),
        &env,
        &[],
        "forecast",
        json!({"city": "stranger"}),
    );
    let message = result["cause"]["message"].as_str().unwrap();
    assert!(
        message.contains("check the credentials in WEATHER_TOKEN"),
        "{message}"
    );
    assert!(
        message.ends_with("bad token Bearer <redacted>"),
        "{message}"
    );

    // No server at all: `unavailable`.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://127.0.0.1:{}", closed.local_addr().unwrap().port());
    drop(closed);
    let dir = manifest(&weather_api(&url));
    let (_, result, _) = call(dir.path(), &env, &[], "forecast", json!({"city": "Oslo"}));
    assert_eq!(result["cause"]["code"], "unavailable", "{result}");
    assert!(
        result["cause"]["message"]
            .as_str()
            .unwrap()
            .contains("could not reach"),
        "{result}"
    );

    // The variable unset: nothing is called, and the name (not a value) is said.
    let (code, result, stderr) = call(dir.path(), &[], &[], "forecast", json!({"city": "Oslo"}));
    assert_eq!((code, result), (Some(2), Value::Null));
    assert!(
        stderr.contains("error[unset-env]") && stderr.contains("WEATHER_TOKEN"),
        "{stderr}"
    );
}

/// A toolset of a tool answered by `script` (sh), with a timeout.
fn scripted(script: &str) -> tempfile::TempDir {
    let dir = manifest(
        r#"version: 1
toolboxes:
  shell:
    description: Shell tools
    tools:
      echo:
        description: Answer what the script answers.
        parameters:
          type: object
          properties: { n: { type: integer } }
        timeout_ms: 1500
        backend: { command: [sh, ./answer.sh, first arg] }
capabilities:
  shell: { description: Shell, toolbox: shell }
"#,
    );
    std::fs::write(dir.path().join("answer.sh"), script).unwrap();
    dir
}

#[test]
fn a_command_backend_reads_stdin_answers_stdout_and_is_held_to_its_timeout() {
    let dir = scripted(
        "read args\nprintf '{\"args\": %s, \"argv\": \"%s\", \"tool\": \"%s\", \"caller\": \"%s\"}' \"$args\" \"$1\" \"$TOOLC_TOOL\" \"$TOOLC_CALLER\"\n",
    );
    let (code, result, stderr) = call(
        dir.path(),
        &[],
        &["--caller", "ada"],
        "echo",
        json!({"n": 4}),
    );
    assert_eq!(code, Some(0), "{result} {stderr}");
    assert_eq!(
        result["value"],
        json!({"args": {"n": 4}, "argv": "first arg", "tool": "echo", "caller": "ada"})
    );

    // A failure: the exit status and the end of stderr, the environment's secrets removed.
    let dir = scripted("echo \"token was $WEATHER_TOKEN\" >&2\nexit 3\n");
    std::fs::write(
        dir.path().join("weather.yaml"),
        std::fs::read_to_string(dir.path().join("weather.yaml")).unwrap().replace(
            "      echo:\n",
            "      probe:\n        description: Reads a token.\n        backend: { http: { method: GET, url: \"http://127.0.0.1:9/\", headers: { Authorization: { env: WEATHER_TOKEN } } } }\n      echo:\n",
        ),
    )
    .unwrap();
    let (code, result, stderr) = call(
        dir.path(),
        &[("WEATHER_TOKEN", SECRET)],
        &[],
        "echo",
        json!({}),
    );
    assert_eq!(code, Some(1));
    assert_eq!(result["cause"]["code"], "handler");
    assert_eq!(
        result["cause"]["message"],
        "the command `sh ./answer.sh first arg` exited with status 3: token was <redacted>"
    );
    assert!(!stderr.contains(SECRET));

    // What is not JSON, and nothing at all.
    let dir = scripted("echo 'hello'\n");
    let (_, result, _) = call(dir.path(), &[], &[], "echo", json!({}));
    let message = result["cause"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the command `sh ./answer.sh first arg` answered what is not JSON"),
        "{message}"
    );
    let dir = scripted("exit 0\n");
    let (_, result, _) = call(dir.path(), &[], &[], "echo", json!({}));
    assert!(
        result["cause"]["message"]
            .as_str()
            .unwrap()
            .contains("answered nothing on stdout")
    );

    // Past its timeout the call fails with `timeout`, and the program is killed.
    let dir = scripted("echo $$ > pid\nsleep 30\necho '{}'\n");
    let started = Instant::now();
    let (_, result, _) = call(dir.path(), &[], &[], "echo", json!({}));
    assert_eq!(result["cause"]["code"], "timeout", "{result}");
    assert!(started.elapsed() < Duration::from_secs(20));
    let pid = std::fs::read_to_string(dir.path().join("pid")).unwrap();
    // Gone, or a zombie no one has reaped yet (its state `Z` in /proc): either way not running.
    let running = || {
        std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
            .ok()
            .and_then(|stat| {
                stat.rsplit(')')
                    .next()
                    .map(|rest| rest.trim_start().to_string())
            })
            .is_some_and(|rest| !rest.starts_with('Z'))
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while running() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!running(), "the program {} still runs", pid.trim());
}

#[test]
fn mocks_answer_an_example_else_values_fixed_by_the_seed() {
    let dir = manifest(
        r#"version: 1
toolboxes:
  shop:
    description: Shop tools
    tools:
      price:
        description: The price of an item.
        parameters: { type: object, properties: { sku: { type: string } }, required: [sku] }
        returns:
          type: object
          properties:
            sku: { type: string, pattern: "^[A-Z]{3}-[0-9]{4}$" }
            cents: { type: integer, minimum: 1, maximum: 100000 }
            currency: { type: string, enum: [EUR, USD] }
          required: [sku, cents, currency]
          additionalProperties: false
        examples:
          - arguments: { sku: ABC-0001 }
            result: { sku: ABC-0001, cents: 999, currency: EUR }
      stock:
        description: How many of an item are left.
        parameters: { type: object, properties: { sku: { type: string } }, required: [sku] }
        returns:
          type: object
          properties:
            sku: { type: string, pattern: "^[A-Z]{3}-[0-9]{4}$" }
            left: { type: integer, minimum: 0, maximum: 1000 }
            restock: { type: string, format: date }
          required: [sku, left, restock]
capabilities:
  shop: { description: Shop, toolbox: shop }
"#,
    );
    // An example's result, answered as it is.
    let (code, result, _) = call(dir.path(), &[], &["--mock"], "price", json!({"sku": "x"}));
    assert_eq!(code, Some(0));
    assert_eq!(
        result["value"],
        json!({"sku": "ABC-0001", "cents": 999, "currency": "EUR"})
    );
    // None: generated, valid (the contract validated it), and the same for a seed.
    let seeded = |seed: &str| {
        let (code, result, stderr) = call(
            dir.path(),
            &[],
            &["--mock", "--seed", seed],
            "stock",
            json!({"sku": "x"}),
        );
        assert_eq!(code, Some(0), "{result} {stderr}");
        result["value"].clone()
    };
    let a = seeded("1");
    assert!(
        a["sku"].as_str().unwrap().len() == 8 && a["left"].is_u64() && a["restock"].is_string(),
        "{a}"
    );
    assert_eq!(a, seeded("1"));
    let others: std::collections::BTreeSet<String> =
        (2..6).map(|s| seeded(&s.to_string()).to_string()).collect();
    assert!(
        others.len() > 1 && !others.contains(&a.to_string()),
        "{a} {others:?}"
    );
    // `backend: mock` in the manifest answers the same way without --mock.
    let text = std::fs::read_to_string(dir.path().join("weather.yaml")).unwrap();
    std::fs::write(
        dir.path().join("weather.yaml"),
        text.replace(
            "        examples:\n",
            "        backend: mock\n        examples:\n",
        )
        .replace(
            "          required: [sku, left, restock]\n",
            "          required: [sku, left, restock]\n        backend: mock\n",
        ),
    )
    .unwrap();
    let (code, result, stderr) = call(
        dir.path(),
        &[],
        &["--seed", "1"],
        "stock",
        json!({"sku": "x"}),
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(result["value"], a);
}

/// Sends JSON-RPC lines to `toolc serve` and reads an answer per request.
fn jsonrpc(args: &[&str], requests: &[Value]) -> Vec<Value> {
    let mut child = toolc()
        .arg("serve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answers = Vec::new();
    for r in requests {
        writeln!(stdin, "{r}").unwrap();
        stdin.flush().unwrap();
        if r.get("id").is_none() {
            continue;
        }
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        answers.push(serde_json::from_str(&line).unwrap());
    }
    drop(stdin);
    let _ = child.wait();
    answers
}

#[test]
fn the_served_list_is_the_mcp_dump() {
    let manifests = Path::new(env!("CARGO_MANIFEST_DIR")).join("manifests");
    let manifests = manifests.to_str().unwrap();
    for agent in ["assistant", "support-desk"] {
        let answers = jsonrpc(
            &[manifests, "--agent", agent, "--mock"],
            &[
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}),
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
            ],
        );
        let dump = toolc()
            .args(["dump", manifests, "--agent", agent, "--dialect", "mcp"])
            .output()
            .unwrap();
        let dumped: Value = serde_json::from_slice(&dump.stdout).unwrap();
        assert_eq!(answers[1]["result"]["tools"], dumped["tools"], "{agent}");
        assert_eq!(answers[0]["result"]["serverInfo"]["name"], agent);
    }
}
