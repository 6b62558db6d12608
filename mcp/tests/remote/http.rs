//! The HTTP transport's operations: health and readiness, the body-size and per-connection
//! call limits, graceful shutdown, access logs, stateless serving, and rate limits kept in a
//! store shared by two servers.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http::{Method, StatusCode};
use serde_json::json;
use toolc_mcp::{HttpConfig, McpServer};
use toolc_runtime::store::{RedisConfig, RedisStore};
use toolc_runtime::{MemoryStore, PolicyStore, RateDecision, RateLimit, StoreError};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::remote::agent::agent;
use crate::remote::auth::{issuer, token};
use crate::remote::harness::{Client, PATIENCE, call_message, post, request, result_json, serve};

/// A store that does not answer, as a Redis that is down.
struct Down;

impl PolicyStore for Down {
    fn check_rate<'a>(
        &'a self,
        _: &'a str,
        _: RateLimit,
    ) -> toolc_runtime::BoxFuture<'a, Result<RateDecision, StoreError>> {
        Box::pin(std::future::ready(Err(StoreError::new("down"))))
    }
    fn put_if_absent<'a>(
        &'a self,
        _: &'a str,
        _: &'a [u8],
        _: Duration,
    ) -> toolc_runtime::BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(std::future::ready(Err(StoreError::new("down"))))
    }
    fn take<'a>(
        &'a self,
        _: &'a str,
    ) -> toolc_runtime::BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>> {
        Box::pin(std::future::ready(Err(StoreError::new("down"))))
    }
    fn ping(&self) -> toolc_runtime::BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(std::future::ready(Err(StoreError::new("down"))))
    }
    fn describe(&self) -> String {
        "down".to_owned()
    }
}

#[tokio::test]
async fn health_and_readiness_say_what_they_see() {
    let server = serve(McpServer::new(agent().0), HttpConfig::new()).await;
    let health = request(server.addr, Method::GET, "/healthz", &[], "").await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(health.json(), json!({"status": "ok"}));
    let ready = request(server.addr, Method::GET, "/readyz", &[], "").await;
    assert_eq!(ready.status, StatusCode::OK);
    assert_eq!(ready.json(), json!({"status": "ready"}));

    // A store that does not answer: alive, not ready; tools without a rate limit still served,
    // and a rate-limited one fails closed with a retryable error.
    let down = serve(
        McpServer::new(agent().0).with_store(Down),
        HttpConfig::new().stateless(true),
    )
    .await;
    let health = request(down.addr, Method::GET, "/healthz", &[], "").await;
    assert_eq!(health.status, StatusCode::OK);
    let ready = request(down.addr, Method::GET, "/readyz", &[], "").await;
    assert_eq!(ready.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        ready.json(),
        json!({"status": "not_ready", "reasons": ["the policy store does not answer"]})
    );
    let mut client = Client::new(down.addr, None);
    let whoami = client.call("whoami", json!({})).await;
    assert_ne!(whoami["isError"], json!(true), "{whoami}");
    let limited = client.call("limited", json!({})).await;
    assert_eq!(limited["isError"], json!(true));
    let error = result_json(&limited);
    assert_eq!(error["kind"], "unavailable");
    assert_eq!(error["retryable"], true);
    assert_eq!(error["retry_after_ms"], 1000);
}

#[tokio::test]
async fn request_bodies_over_the_limit_get_413() {
    let server = serve(
        McpServer::new(agent().0),
        HttpConfig::new().max_body_bytes(1024).stateless(true),
    )
    .await;
    let padding = "x".repeat(2000);
    let large = call_message(1, "whoami", json!({"padding": padding}));
    let reply = post(server.addr, &[], &large).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(reply.body.contains("exceeds 1024 bytes"), "{}", reply.body);
    // The same without a Content-Length (chunked), caught while reading.
    let body = large.to_string();
    let chunked = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n\
         {:x}\r\n{body}\r\n0\r\n\r\n",
        body.len()
    );
    let answer = crate::remote::auth::raw_exchange(server.addr, chunked.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    // Under the limit, the call is served.
    let mut client = Client::new(server.addr, None);
    let ok = client
        .call("whoami", json!({"padding": "x".repeat(100)}))
        .await;
    assert_ne!(ok["isError"], json!(true), "{ok}");
}

/// Waits (bounded) until `check` holds.
async fn eventually(what: &str, check: impl Fn() -> bool) {
    let until = Instant::now() + PATIENCE;
    while !check() {
        assert!(Instant::now() < until, "never: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_beyond_the_per_connection_limit_are_refused_until_one_finishes() {
    let (agent, counters) = agent();
    let server = serve(
        McpServer::new(agent).with_max_concurrent_calls(1),
        HttpConfig::new(),
    )
    .await;
    let mut first = Client::new(server.addr, None);
    first.initialize().await;
    let mut same_session = Client::new(server.addr, None);
    same_session.session = first.session.clone();
    let slow = tokio::spawn(async move { first.call("wait", json!({"ms": 1500})).await });
    eventually("the slow call started", || {
        counters.started.load(Ordering::SeqCst) == 1
    })
    .await;

    // Same session, other TCP connection: refused while the slow call runs.
    let refused = same_session.call("whoami", json!({})).await;
    assert_eq!(refused["isError"], json!(true), "{refused}");
    let error = result_json(&refused);
    assert_eq!(error["kind"], "rate_limited");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("at most 1 run concurrently")),
        "{error}"
    );
    // Another session has its own slots.
    let mut other = Client::new(server.addr, None);
    other.initialize().await;
    let ok = other.call("whoami", json!({})).await;
    assert_ne!(ok["isError"], json!(true), "{ok}");

    let done = tokio::time::timeout(PATIENCE, slow)
        .await
        .expect("in time")
        .expect("task");
    assert_eq!(result_json(&done), json!({"waited_ms": 1500}));
    let again = same_session.call("whoami", json!({})).await;
    assert_ne!(again["isError"], json!(true), "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_calls_in_flight_and_refuses_new_connections() {
    let (agent, counters) = agent();
    let mut server = serve(
        McpServer::new(agent),
        HttpConfig::new().shutdown_grace(PATIENCE),
    )
    .await;
    let addr = server.addr;
    let mut client = Client::new(addr, None);
    client.initialize().await;
    let in_flight = tokio::spawn(async move { client.call("wait", json!({"ms": 800})).await });
    eventually("the call started", || {
        counters.started.load(Ordering::SeqCst) == 1
    })
    .await;

    server.stop();
    // The call in flight gets its whole answer.
    let result = tokio::time::timeout(PATIENCE, in_flight)
        .await
        .expect("in time")
        .expect("task");
    assert_eq!(result_json(&result), json!({"waited_ms": 800}));
    assert_eq!(counters.finished.load(Ordering::SeqCst), 1);
    tokio::time::timeout(PATIENCE, &mut server.served)
        .await
        .expect("serving ends")
        .expect("task")
        .expect("a clean end");
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "no new connection after shutdown"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_still_running_when_the_grace_period_ends_are_cancelled() {
    let (agent, counters) = agent();
    let mut server = serve(
        McpServer::new(agent),
        HttpConfig::new().shutdown_grace(Duration::from_millis(200)),
    )
    .await;
    let mut client = Client::new(server.addr, None);
    client.initialize().await;
    // A call that would take ten minutes.
    let in_flight =
        tokio::spawn(async move { client.call_reply("wait", json!({"ms": 600_000})).await });
    eventually("the call started", || {
        counters.started.load(Ordering::SeqCst) == 1
    })
    .await;
    server.stop();
    tokio::time::timeout(PATIENCE, &mut server.served)
        .await
        .expect("serving ends within the grace period, not when the call would")
        .expect("task")
        .expect("a clean end");
    let reply = tokio::time::timeout(PATIENCE, in_flight)
        .await
        .expect("the client is let go")
        .expect("task");
    assert!(
        !reply.body.contains("waited_ms"),
        "the call cannot have finished: {}",
        reply.body
    );
    assert_eq!(counters.finished.load(Ordering::SeqCst), 0);
}

type Fields = BTreeMap<String, String>;

/// Records the access-log events.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Fields>>>);

struct Collect<'a>(&'a mut Fields);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        if event.metadata().target() != "toolc_mcp::access" {
            return;
        }
        let mut fields = Fields::new();
        event.record(&mut Collect(&mut fields));
        fields.insert("level".into(), event.metadata().level().to_string());
        self.0.lock().expect("events").push(fields);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// Serves with `config` on a current-thread runtime under a recorder, makes the requests of
/// `scenario`, and returns the access-log events.
fn access_log(config: HttpConfig) -> Vec<Fields> {
    let recorder = Recorder::default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    tracing::subscriber::with_default(recorder.clone(), || {
        runtime.block_on(async {
            let issuer = issuer().await;
            let validator =
                toolc_mcp::auth::jwt::JwtValidator::new(issuer.config()).expect("config");
            let server = serve(
                McpServer::new(agent().0),
                config.authenticator(validator).stateless(true),
            )
            .await;
            let ada = token(&issuer, "ada", json!({"roles": ["support"]}));
            let mut client = Client::new(server.addr, Some(&ada));
            let result = client
                .call(
                    "whoami",
                    json!({"note": "hunter2-secret", "password": "Zebra7f3Q"}),
                )
                .await;
            assert_ne!(result["isError"], json!(true), "{result}");
            let anonymous = Client::new(server.addr, None)
                .call_reply("whoami", json!({}))
                .await;
            assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
            request(server.addr, Method::GET, "/healthz", &[], "").await;
            server.finish().await.expect("served");
        });
    });
    recorder.0.lock().expect("events").clone()
}

#[test]
fn every_request_is_logged_once_without_argument_values() {
    let events = access_log(HttpConfig::new());
    assert_eq!(events.len(), 3, "{events:#?}");
    let call = &events[0];
    for (field, value) in [
        ("level", "INFO"),
        ("method", "POST"),
        ("path", "/mcp"),
        ("status", "200"),
        ("caller", "ada"),
        ("rpc", "tools/call"),
        ("tool", "whoami"),
        ("auth", "ok"),
        ("session", "-"),
    ] {
        assert_eq!(
            call.get(field).map(String::as_str),
            Some(value),
            "{field}: {call:?}"
        );
    }
    assert!(call["duration_us"].parse::<u64>().is_ok(), "{call:?}");
    assert!(
        call["bytes_in"].parse::<u64>().is_ok_and(|n| n > 0),
        "{call:?}"
    );
    assert!(call["peer"].starts_with("127.0.0.1:"), "{call:?}");
    assert!(!call.contains_key("arguments"), "{call:?}");
    let denied = &events[1];
    assert_eq!(denied["status"], "401");
    assert_eq!(denied["auth"], "missing");
    assert_eq!(denied["caller"], "-");
    assert_eq!(events[2]["path"], "/healthz");
    let everything = format!("{events:?}");
    assert!(
        !everything.contains("hunter2"),
        "argument values were logged"
    );
    assert!(!everything.contains("Bearer"), "credentials were logged");
}

#[test]
fn argument_values_are_logged_only_when_asked_and_never_sensitive_ones() {
    let events = access_log(HttpConfig::new().log_arguments(true));
    assert_eq!(
        events[0]["arguments"],
        r#"{"note":"hunter2-secret","password":"<redacted>"}"#
    );
    assert!(!format!("{events:?}").contains("Zebra7f3Q"));
}

#[tokio::test]
async fn a_stateless_server_answers_each_request_on_its_own() {
    let server = serve(McpServer::new(agent().0), HttpConfig::new().stateless(true)).await;
    let reply = post(
        server.addr,
        &[("mcp-protocol-version", "2025-06-18")],
        &call_message(7, "whoami", json!({})),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert!(reply.header("mcp-session-id").is_none());
    let message = reply.json();
    assert_eq!(message["id"], 7);
    assert_eq!(result_json(&message["result"])["id"], "anonymous");
}

/// Two servers, as two replicas, share one allowance through one store: 60 calls of a tool
/// limited to 30 a minute, split between them, are granted exactly 30 times.
async fn replicas_share_one_allowance(store: Arc<dyn PolicyStore>) {
    let issuer = issuer().await;
    let mut replicas = Vec::new();
    for _ in 0..2 {
        let validator = toolc_mcp::auth::jwt::JwtValidator::new(issuer.config()).expect("config");
        replicas.push(
            serve(
                McpServer::new(agent().0).with_shared_store(Arc::clone(&store)),
                HttpConfig::new().authenticator(validator).stateless(true),
            )
            .await,
        );
    }
    let ada = token(&issuer, "ada", json!({}));
    let start = Instant::now();
    let mut calls = tokio::task::JoinSet::new();
    for i in 0..60 {
        let mut client = Client::new(replicas[i % 2].addr, Some(&ada));
        calls.spawn(async move { client.call("limited", json!({})).await });
    }
    let mut granted = 0;
    let mut limited = 0;
    while let Some(result) = calls.join_next().await {
        let result = result.expect("task");
        if result["isError"] == json!(true) {
            assert_eq!(result_json(&result)["kind"], "rate_limited", "{result}");
            limited += 1;
        } else {
            granted += 1;
        }
    }
    // One call is replenished every 2 s: a slow machine may earn a few more.
    let refills = start.elapsed().as_secs() / 2;
    assert!(
        granted >= 30 && granted <= 30 + refills,
        "granted {granted} of 60 in {:?}",
        start.elapsed()
    );
    assert_eq!(granted + limited, 60);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_one_memory_store() {
    replicas_share_one_allowance(Arc::new(MemoryStore::new())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_one_redis() {
    let Some(url) = crate::remote::redis::redis_url() else {
        return;
    };
    let store = RedisStore::new(
        RedisConfig::new(url).prefix(crate::remote::redis::unique_prefix("replicas")),
    )
    .expect("url");
    replicas_share_one_allowance(Arc::new(store)).await;
}
