//! A soak run of the example's `mcp-server support-desk --soak-tools`: a million calls (by
//! default) over stdio, then as many over streamable HTTP with MCP sessions, from `LANES`
//! callers at once, a mix of calls that answer, calls that fail, panics, timeouts and requests
//! cancelled in flight. Every answer is checked against what it must be; the server's resident
//! memory and open file descriptors are read from `/proc` after a warm-up, every second of the
//! run, and at its end.
//!
//! ```sh
//! cargo bench -p toolc-example --features soak --bench soak
//! TOOLC_SOAK_CALLS=20000 TOOLC_SOAK_TRANSPORT=http cargo bench -p toolc-example --features soak --bench soak
//! ```
//!
//! `TOOLC_SOAK_CALLS` sets the calls per transport (default 1,000,000), and
//! `TOOLC_SOAK_TRANSPORT` (`stdio` or `http`) runs one transport only. Before the measured
//! calls, a warm-up of a twentieth as many (at most 50,000) makes the same mix.
//!
//! The mix, of each 100 calls (in an interleaved order):
//!
//! | calls | what | the right answer |
//! |---|---|---|
//! | 63 | `lookup_order` of an order id of its own | that id, `placed` (`in_transit` for `A-1001`, `delivered` for `A-1002`) |
//! | 15 | `list_tickets`, open ones, limit 1 or 2 | `T-1`, then `T-3`, as the example keeps them |
//! | 6 | `lookup_order` with an id its pattern refuses | `isError`, kind `arguments_invalid` |
//! | 2 | a tool that does not exist | the JSON-RPC error `-32602` naming it |
//! | 5 | `soak_fail`: the handler answers an error | `isError`, kind `handler`, its message |
//! | 5 | `soak_panic`: the handler panics | `isError`, kind `panicked`, the panic's message |
//! | 2 | `soak_sleep` for 10 s, past its 20 ms timeout | `isError`, kind `timeout` |
//! | 2 | `soak_wait`, then `notifications/cancelled` for it | no answer, or a JSON-RPC error |
//!
//! Over HTTP each lane calls in an MCP session of its own and ends it (`DELETE`) every
//! `SESSION_CALLS` calls for a new one; a request to cancel is posted on a connection of its own
//! (in the lane's session), the cancellation on the lane's connection, and the cancelled
//! request's stream must end within `CANCEL_WAIT`. Over stdio the lanes share the one
//! connection, their requests interleaved on it. A lost cancellation would hold one of the
//! connection's or session's 32 call slots for an hour, and the calls after would be refused.
//!
//! It exits non-zero when an answer is wrong, when the server holds more file descriptors at
//! the end than after the warm-up, or when its resident memory at the end exceeds that after
//! the warm-up by more than `RSS_MARGIN_PERCENT` percent or `RSS_MARGIN_KIB`, whichever is
//! larger. Start and end are both read with no call in flight, after `SETTLE`.

mod load;

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use load::{Children, Client, answer, holds};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

/// Callers at once.
const LANES: usize = 16;
/// Calls an HTTP lane makes in one MCP session: fewer than a lane's share of the warm-up, so
/// the warm-up ends sessions as the run does.
const SESSION_CALLS: usize = 2_500;
/// How long a cancelled request's HTTP stream may stay open after the cancellation.
const CANCEL_WAIT: Duration = Duration::from_secs(5);
/// The pause before memory and descriptors are read at the start and the end.
const SETTLE: Duration = Duration::from_secs(1);
/// How much the resident memory at the end may exceed that after the warm-up: this percentage
/// of it, or this many KiB, whichever is larger.
const RSS_MARGIN_PERCENT: u64 = 10;
const RSS_MARGIN_KIB: u64 = 4096;
/// The id of the stdio connection's `initialize` (calls are numbered from 0, the warm-up's
/// from `WARMUP_BASE`).
const INITIALIZE: usize = 999_999_999;
const WARMUP_BASE: usize = 1_000_000_000;
/// The customer `list_tickets` is asked about.
const CUSTOMER: &str = "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Order,
    Tickets,
    BadArguments,
    UnknownTool,
    Failing,
    Panic,
    Timeout,
    Cancelled,
}

/// Of each 100 calls, how many of each kind.
const MIX: [(Kind, usize, &str); 8] = [
    (Kind::Order, 63, "lookup_order, answered"),
    (Kind::Tickets, 15, "list_tickets, answered"),
    (Kind::BadArguments, 6, "bad arguments"),
    (Kind::UnknownTool, 2, "unknown tool"),
    (Kind::Failing, 5, "handler error"),
    (Kind::Panic, 5, "handler panic"),
    (Kind::Timeout, 2, "timeout"),
    (Kind::Cancelled, 2, "cancelled in flight"),
];

/// The kind of call number `k`: the mix's slots taken in an interleaved order (37 is prime to
/// 100, so each 100 calls take every slot once).
fn kind(k: usize) -> usize {
    let mut slot = (k * 37 + 11) % 100;
    for (i, (_, share, _)) in MIX.iter().enumerate() {
        if slot < *share {
            return i;
        }
        slot -= share;
    }
    unreachable!("the mix adds up to 100")
}

/// Call number `k`: its kind (an index into `MIX`), the tool and the arguments.
fn plan(k: usize) -> (usize, String, Value) {
    let i = kind(k);
    let (tool, arguments) = match MIX[i].0 {
        Kind::Order => ("lookup_order".to_owned(), json!({"order_id": order(k)})),
        Kind::Tickets => (
            "list_tickets".to_owned(),
            json!({"customerId": CUSTOMER, "status": "open", "limit": 1 + k % 2}),
        ),
        Kind::BadArguments => (
            "lookup_order".to_owned(),
            json!({"order_id": format!("order {k}")}),
        ),
        Kind::UnknownTool => (format!("no_tool_{k}"), json!({})),
        Kind::Failing => ("soak_fail".to_owned(), json!({"n": k})),
        Kind::Panic => ("soak_panic".to_owned(), json!({"n": k})),
        Kind::Timeout => ("soak_sleep".to_owned(), json!({"ms": 10_000})),
        Kind::Cancelled => ("soak_wait".to_owned(), json!({})),
    };
    (i, tool, arguments)
}

fn order(k: usize) -> String {
    match k % 50 {
        0 => "A-1001".to_owned(),
        1 => "A-1002".to_owned(),
        _ => format!("B-{k}"),
    }
}

fn request(id: usize, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
}

fn cancel(id: usize) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "soak"}})
}

/// A tool result's text content, as JSON.
fn text(result: &Value) -> Value {
    result["content"][0]["text"]
        .as_str()
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(Value::Null)
}

/// A failed call's result: `isError`, the kind, and its message holding `says`.
fn failed(result: &Value, kind: &str, says: &str) -> bool {
    let error = text(result);
    result["isError"] == json!(true)
        && error["kind"] == kind
        && error["message"].as_str().is_some_and(|m| m.contains(says))
}

/// Whether `message`, the JSON-RPC answer to call number `k`, is the right one. A cancelled
/// call's answer, when it has one, is an error.
fn right(k: usize, message: &Value) -> bool {
    if message["id"] != json!(k) {
        return false;
    }
    let result = &message["result"];
    let ok = |answer: Value| {
        result.get("isError") != Some(&json!(true))
            && text(result) == answer
            && result
                .get("structuredContent")
                .is_none_or(|s| *s == answer || s["result"] == answer)
    };
    match MIX[kind(k)].0 {
        Kind::Order => {
            let status = match k % 50 {
                0 => "in_transit",
                1 => "delivered",
                _ => "placed",
            };
            ok(json!({"order_id": order(k), "status": status}))
        }
        Kind::Tickets => {
            let all = json!([
                {"id": "T-1", "subject": "Cannot log in", "status": "open", "priority": "high"},
                {"id": "T-3", "subject": "Feature request", "status": "open", "priority": "low"},
            ]);
            let wanted = all.as_array().expect("tickets")[..1 + k % 2].to_vec();
            ok(Value::Array(wanted))
        }
        Kind::BadArguments => failed(result, "arguments_invalid", "/order_id"),
        Kind::UnknownTool => {
            message["error"]["code"] == json!(-32602)
                && message["error"]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains(&format!("no_tool_{k}")))
        }
        Kind::Failing => failed(result, "handler", &format!("failure {k} on purpose")),
        Kind::Panic => failed(result, "panicked", &format!("panic {k} on purpose")),
        Kind::Timeout => failed(result, "timeout", "soak_sleep"),
        Kind::Cancelled => message.get("error").is_some(),
    }
}

/// What a phase's calls came to.
#[derive(Default)]
struct Tally {
    calls: [AtomicUsize; MIX.len()],
    wrong: [AtomicUsize; MIX.len()],
    /// Cancelled requests answered (with an error) and not.
    cancelled_answered: AtomicUsize,
    /// Answers to no request of ours, and other protocol failures.
    stray: AtomicUsize,
    /// The first wrong answers, to print.
    examples: Mutex<Vec<String>>,
}

impl Tally {
    fn count(&self, k: usize) {
        self.calls[kind(k)].fetch_add(1, Ordering::Relaxed);
    }

    fn check(&self, k: usize, message: &Value) {
        if !right(k, message) {
            self.wrong(kind(k), format!("call {k} ({}): {message}", MIX[kind(k)].2));
        }
    }

    fn wrong(&self, i: usize, example: String) {
        self.wrong[i].fetch_add(1, Ordering::Relaxed);
        let mut examples = self.examples.lock().expect("examples");
        if examples.len() < 5 {
            examples.push(example);
        }
    }

    fn stray(&self, example: String) {
        self.stray.fetch_add(1, Ordering::Relaxed);
        let mut examples = self.examples.lock().expect("examples");
        if examples.len() < 5 {
            examples.push(example);
        }
    }

    fn calls(&self) -> usize {
        self.calls.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }

    fn wrong_total(&self) -> usize {
        self.wrong
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum::<usize>()
            + self.stray.load(Ordering::Relaxed)
    }
}

/// The calls of one phase, `calls` of them numbered from `base`, dealt to the lanes in turn.
fn lane_calls(base: usize, calls: usize, lane: usize) -> impl Iterator<Item = usize> {
    (lane..calls).step_by(LANES).map(move |k| base + k)
}

/// The server's memory and descriptors, read every second until `stop`.
struct Sampler {
    peak_rss: Arc<AtomicU64>,
    max_fds: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    task: tokio::task::JoinHandle<()>,
}

impl Sampler {
    fn start(pid: u32, name: &'static str, tally: Arc<Tally>) -> Sampler {
        let peak_rss = Arc::new(AtomicU64::new(0));
        let max_fds = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (peak, max, stopped) = (
            Arc::clone(&peak_rss),
            Arc::clone(&max_fds),
            Arc::clone(&stop),
        );
        let task = tokio::spawn(async move {
            let started = Instant::now();
            let mut seconds = 0u64;
            while !stopped.load(Ordering::Relaxed) {
                let (rss, fds) = holds(pid);
                peak.fetch_max(rss, Ordering::Relaxed);
                max.fetch_max(fds, Ordering::Relaxed);
                if seconds.is_multiple_of(20) {
                    println!(
                        "soak: {name}: {:>4} s, {:>9} calls, RSS {} KiB, {fds} fds",
                        started.elapsed().as_secs(),
                        tally.calls(),
                        rss
                    );
                }
                seconds += 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
        Sampler {
            peak_rss,
            max_fds,
            stop,
            task,
        }
    }

    async fn stop(self) -> (u64, usize) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.task.await;
        (
            self.peak_rss.load(Ordering::Relaxed),
            self.max_fds.load(Ordering::Relaxed),
        )
    }
}

/// One transport's figures.
struct Report {
    transport: &'static str,
    warmup: usize,
    warmup_wrong: usize,
    tally: Arc<Tally>,
    seconds: f64,
    rss: (u64, u64, u64),
    fds: (usize, usize, usize),
    cancelled_unanswered: usize,
    server_panics_logged: Option<usize>,
}

impl Report {
    fn rss_margin(&self) -> u64 {
        (self.rss.0 * RSS_MARGIN_PERCENT / 100).max(RSS_MARGIN_KIB)
    }

    /// What is wrong with the run, if anything.
    fn faults(&self) -> Vec<String> {
        let mut faults = Vec::new();
        let wrong = self.tally.wrong_total() + self.warmup_wrong;
        if wrong > 0 {
            faults.push(format!("{}: {wrong} wrong answers", self.transport));
        }
        if self.fds.2 > self.fds.0 {
            faults.push(format!(
                "{}: {} file descriptors at the end, {} after the warm-up",
                self.transport, self.fds.2, self.fds.0
            ));
        }
        if self.rss.2 > self.rss.0 + self.rss_margin() {
            faults.push(format!(
                "{}: RSS {} KiB at the end, {} KiB after the warm-up (margin {} KiB)",
                self.transport,
                self.rss.2,
                self.rss.0,
                self.rss_margin()
            ));
        }
        faults
    }
}

/// Waits `SETTLE`, then reads what `pid` holds; the descriptors are read again (for up to 10
/// s) until they are no more than `at_most`, as a server closes connections a little after
/// its clients do.
async fn settled(pid: u32, at_most: Option<usize>) -> (u64, usize) {
    tokio::time::sleep(SETTLE).await;
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let (rss, fds) = holds(pid);
        if at_most.is_none_or(|most| fds <= most) || Instant::now() > until {
            return (rss, fds);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn mcp_server() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-server"));
    command
        .args(["support-desk", "--soak-tools"])
        .env("TOOLC_CALLER", "soak")
        .env("TOOLC_AUTH", "user")
        .env("TOOLC_ROLES", "support")
        .env_remove("TOOLC_LOG")
        // A panic's message on stderr, as by default, without a backtrace.
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .env_remove("TOOLC_MAX_CONCURRENT_CALLS");
    command
}

/// Counts the lines of a server's stderr that tell of a panic, reading it to its end.
fn count_panics(stderr: impl std::io::Read + Send + 'static) -> Arc<AtomicUsize> {
    let panics = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&panics);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if line.contains("panicked at") {
                counted.fetch_add(1, Ordering::Relaxed);
            }
        }
    });
    panics
}

/// The stdio connection: lines out through a writer thread, answers routed to their
/// requests by a reader thread.
struct StdioClient {
    out: mpsc::UnboundedSender<String>,
    pending: Arc<Mutex<HashMap<usize, oneshot::Sender<Value>>>>,
    /// Cancelled requests not answered yet.
    cancelled: Arc<Mutex<HashSet<usize>>>,
}

impl StdioClient {
    fn start(
        stdin: std::process::ChildStdin,
        stdout: std::process::ChildStdout,
        tally: Arc<Mutex<Arc<Tally>>>,
    ) -> StdioClient {
        let (out, mut lines) = mpsc::unbounded_channel::<String>();
        std::thread::spawn(move || {
            let mut writer = BufWriter::new(stdin);
            while let Some(line) = lines.blocking_recv() {
                let mut write = |line: String| {
                    writer.write_all(line.as_bytes())?;
                    writer.write_all(b"\n")
                };
                if write(line).is_err() {
                    return;
                }
                while let Ok(more) = lines.try_recv() {
                    if write(more).is_err() {
                        return;
                    }
                }
                if writer.flush().is_err() {
                    return;
                }
            }
        });
        let pending: Arc<Mutex<HashMap<usize, oneshot::Sender<Value>>>> = Arc::default();
        let cancelled: Arc<Mutex<HashSet<usize>>> = Arc::default();
        let (routes, gone) = (Arc::clone(&pending), Arc::clone(&cancelled));
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let tally = Arc::clone(&tally.lock().expect("tally"));
                let Ok(message) = serde_json::from_str::<Value>(&line) else {
                    tally.stray(format!("not JSON: {line}"));
                    continue;
                };
                let Some(id) = message["id"].as_u64().map(|id| id as usize) else {
                    // A notification: none is expected here.
                    tally.stray(format!("a notification: {message}"));
                    continue;
                };
                if let Some(route) = routes.lock().expect("pending").remove(&id) {
                    let _ = route.send(message);
                } else if gone.lock().expect("cancelled").remove(&id) {
                    tally.cancelled_answered.fetch_add(1, Ordering::Relaxed);
                    tally.check(id, &message);
                } else {
                    tally.stray(format!("an answer to nothing asked: {message}"));
                }
            }
        });
        StdioClient {
            out,
            pending,
            cancelled,
        }
    }

    fn send(&self, message: &Value) {
        self.out.send(message.to_string()).expect("the writer");
    }

    /// Sends request `id`; its answer comes on the receiver.
    fn ask(&self, id: usize, message: &Value) -> oneshot::Receiver<Value> {
        let (route, answer) = oneshot::channel();
        self.pending.lock().expect("pending").insert(id, route);
        self.send(message);
        answer
    }
}

/// One stdio lane: its calls one after the other on the shared connection.
async fn stdio_lane(client: Arc<StdioClient>, calls: Vec<usize>, tally: Arc<Tally>) {
    for k in calls {
        let (_, tool, arguments) = plan(k);
        tally.count(k);
        let mut answer = client.ask(k, &request(k, &tool, arguments));
        if MIX[kind(k)].0 == Kind::Cancelled {
            client.send(&cancel(k));
            let waiting = client.pending.lock().expect("pending").remove(&k).is_some();
            if waiting {
                client.cancelled.lock().expect("cancelled").insert(k);
            } else if let Ok(message) = answer.try_recv() {
                tally.cancelled_answered.fetch_add(1, Ordering::Relaxed);
                tally.check(k, &message);
            }
            continue;
        }
        match answer.await {
            Ok(message) => tally.check(k, &message),
            Err(_) => tally.wrong(kind(k), format!("call {k}: the connection ended")),
        }
    }
}

async fn stdio_phase(client: &Arc<StdioClient>, base: usize, calls: usize, tally: &Arc<Tally>) {
    let mut lanes = tokio::task::JoinSet::new();
    for lane in 0..LANES {
        let calls = lane_calls(base, calls, lane).collect();
        lanes.spawn(stdio_lane(Arc::clone(client), calls, Arc::clone(tally)));
    }
    while let Some(done) = lanes.join_next().await {
        done.expect("a lane");
    }
}

async fn soak_stdio(calls: usize, warmup: usize) -> Report {
    let mut command = mcp_server();
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("start mcp-server");
    let pid = child.id();
    let panics = count_panics(child.stderr.take().expect("stderr"));
    let warming = Arc::new(Tally::default());
    let current = Arc::new(Mutex::new(Arc::clone(&warming)));
    let client = Arc::new(StdioClient::start(
        child.stdin.take().expect("stdin"),
        child.stdout.take().expect("stdout"),
        Arc::clone(&current),
    ));
    let initialize = json!({"jsonrpc": "2.0", "id": INITIALIZE, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "toolc-soak", "version": "0"}}});
    let started = client
        .ask(INITIALIZE, &initialize)
        .await
        .expect("initialize");
    assert!(started.get("result").is_some(), "initialize: {started}");
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    stdio_phase(&client, WARMUP_BASE, warmup, &warming).await;
    let (rss_start, fds_start) = settled(pid, None).await;
    // What the warm-up left: its cancellations not answered, its panics.
    let warm_unanswered = client.cancelled.lock().expect("cancelled").len();
    let warm_panics = panics.load(Ordering::Relaxed);
    let tally = Arc::new(Tally::default());
    *current.lock().expect("tally") = Arc::clone(&tally);
    let sampler = Sampler::start(pid, "stdio", Arc::clone(&tally));
    let began = Instant::now();
    stdio_phase(&client, 0, calls, &tally).await;
    let seconds = began.elapsed().as_secs_f64();
    let (rss_end, fds_end) = settled(pid, Some(fds_start)).await;
    let (peak, max_fds) = sampler.stop().await;
    assert!(
        child.try_wait().expect("the server").is_none(),
        "the server exited"
    );
    let cancelled_unanswered = client.cancelled.lock().expect("cancelled").len() - warm_unanswered;
    drop(client);
    let status = child.wait().expect("the server's exit");
    assert!(status.success(), "mcp-server over stdio: {status}");
    Report {
        transport: "stdio",
        warmup,
        warmup_wrong: warming.wrong_total(),
        tally,
        seconds,
        rss: (rss_start, peak.max(rss_end), rss_end),
        fds: (fds_start, max_fds.max(fds_end), fds_end),
        cancelled_unanswered,
        server_panics_logged: Some(panics.load(Ordering::Relaxed) - warm_panics),
    }
}

/// One HTTP lane: its calls one after the other in an MCP session of its own, a new session
/// every `SESSION_CALLS` calls.
async fn http_lane(addr: std::net::SocketAddr, calls: Vec<usize>, tally: Arc<Tally>) -> usize {
    let mut unanswered = 0;
    let mut client = Client::session(addr, None).await;
    for (n, k) in calls.into_iter().enumerate() {
        if n > 0 && n % SESSION_CALLS == 0 {
            client.end().await;
            client = Client::session(addr, None).await;
        }
        let (_, tool, arguments) = plan(k);
        tally.count(k);
        let message = request(k, &tool, arguments);
        if MIX[kind(k)].0 != Kind::Cancelled {
            match client.post(&message).await {
                Some(answer) => tally.check(k, &answer),
                None => tally.wrong(kind(k), format!("call {k}: no answer")),
            }
            continue;
        }
        // The request on a connection of its own; once its response has begun, the
        // cancellation on the lane's.
        let session = client.session_id().map(str::to_owned);
        let mut side = Client::join(addr, None, session).await;
        let response = side.send(&message).await;
        if let Some(accepted) = client.post(&cancel(k)).await {
            tally.stray(format!("cancelling {k} answered {accepted}"));
        }
        match tokio::time::timeout(CANCEL_WAIT, answer(response)).await {
            Ok(None) => unanswered += 1,
            Ok(Some(message)) => {
                tally.cancelled_answered.fetch_add(1, Ordering::Relaxed);
                tally.check(k, &message);
            }
            Err(_) => tally.wrong(
                kind(k),
                format!(
                    "call {k}: its stream still open {} s after the cancellation",
                    CANCEL_WAIT.as_secs()
                ),
            ),
        }
    }
    client.end().await;
    unanswered
}

async fn http_phase(
    addr: std::net::SocketAddr,
    base: usize,
    calls: usize,
    tally: &Arc<Tally>,
) -> usize {
    let mut lanes = tokio::task::JoinSet::new();
    for lane in 0..LANES {
        let calls = lane_calls(base, calls, lane).collect();
        lanes.spawn(http_lane(addr, calls, Arc::clone(tally)));
    }
    let mut unanswered = 0;
    while let Some(done) = lanes.join_next().await {
        unanswered += done.expect("a lane");
    }
    unanswered
}

async fn soak_http(calls: usize, warmup: usize) -> Report {
    let mut children = Children(Vec::new());
    let mut command = mcp_server();
    command.args(["--http", "127.0.0.1:0"]);
    // `load::start` reads the server's stderr to its end; this one counts its panics too.
    let addr = load::start(&mut children, command).await;
    let pid = children.0[0].id();
    let warming = Arc::new(Tally::default());
    http_phase(addr, WARMUP_BASE, warmup, &warming).await;
    let (rss_start, fds_start) = settled(pid, None).await;
    let tally = Arc::new(Tally::default());
    let sampler = Sampler::start(pid, "http", Arc::clone(&tally));
    let began = Instant::now();
    let cancelled_unanswered = http_phase(addr, 0, calls, &tally).await;
    let seconds = began.elapsed().as_secs_f64();
    let (rss_end, fds_end) = settled(pid, Some(fds_start)).await;
    let (peak, max_fds) = sampler.stop().await;
    assert!(
        children.0[0].try_wait().expect("the server").is_none(),
        "the server exited"
    );
    Report {
        transport: "streamable HTTP",
        warmup,
        warmup_wrong: warming.wrong_total(),
        tally,
        seconds,
        rss: (rss_start, peak.max(rss_end), rss_end),
        fds: (fds_start, max_fds.max(fds_end), fds_end),
        cancelled_unanswered,
        server_panics_logged: None,
    }
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    // `cargo bench` passes `--bench` (and any filter); this bench reads none.
    let calls: usize = std::env::var("TOOLC_SOAK_CALLS")
        .ok()
        .map(|n| {
            n.replace(['_', ','], "")
                .parse()
                .expect("TOOLC_SOAK_CALLS: a number")
        })
        .unwrap_or(1_000_000);
    let warmup = (calls / 20).clamp(LANES, 50_000);
    let only = std::env::var("TOOLC_SOAK_TRANSPORT").ok();
    let mut reports = Vec::new();
    if only.as_deref().is_none_or(|t| t == "stdio") {
        reports.push(soak_stdio(calls, warmup).await);
    }
    if only.as_deref().is_none_or(|t| t == "http") {
        reports.push(soak_http(calls, warmup).await);
    }

    println!(
        "soak: {} calls per transport after a warm-up of {}, {LANES} lanes",
        thousands(calls),
        thousands(warmup)
    );
    println!(
        "| transport | calls | calls/s | RSS after warm-up | RSS peak | RSS at the end | fds after warm-up | fds most | fds at the end | wrong answers |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for r in &reports {
        println!(
            "| {} | {} | {:.0} | {} | {} | {} | {} | {} | {} | {} |",
            r.transport,
            thousands(r.tally.calls()),
            r.tally.calls() as f64 / r.seconds,
            mib(r.rss.0),
            mib(r.rss.1),
            mib(r.rss.2),
            r.fds.0,
            r.fds.1,
            r.fds.2,
            r.tally.wrong_total()
        );
    }
    println!();
    print!("| call | ");
    println!(
        "{} |",
        reports
            .iter()
            .map(|r| format!("{} (wrong)", r.transport))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}", "---|".repeat(reports.len()));
    for (i, (_, share, name)) in MIX.iter().enumerate() {
        print!("| {name} ({share}%) |");
        for r in &reports {
            print!(
                " {} ({}) |",
                thousands(r.tally.calls[i].load(Ordering::Relaxed)),
                r.tally.wrong[i].load(Ordering::Relaxed)
            );
        }
        println!();
    }
    for r in &reports {
        println!(
            "soak: {}: {} s; cancelled requests answered with an error {}, not answered {}; \
             stray messages {}; panics the server logged {}; warm-up {} calls, {} wrong",
            r.transport,
            r.seconds.round(),
            r.tally.cancelled_answered.load(Ordering::Relaxed),
            r.cancelled_unanswered,
            r.tally.stray.load(Ordering::Relaxed),
            r.server_panics_logged
                .map_or("(not counted)".to_owned(), |n| n.to_string()),
            r.warmup,
            r.warmup_wrong
        );
        for example in r.tally.examples.lock().expect("examples").iter() {
            println!("soak: {}: wrong: {example}", r.transport);
        }
    }
    let faults: Vec<String> = reports.iter().flat_map(Report::faults).collect();
    if !faults.is_empty() {
        for fault in &faults {
            eprintln!("soak: FAILED: {fault}");
        }
        std::process::exit(1);
    }
}
