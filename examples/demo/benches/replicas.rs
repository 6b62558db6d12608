//! Two `mcp-server` replicas behind one address, as a deployment runs them: bearer tokens
//! checked on every request, rate limits kept in one Redis, no MCP sessions, and a small
//! round-robin HTTP proxy in front. 32 clients call through the proxy at once.
//!
//! It measures calls per second and latency (p50, p99) against a baseline in the same run
//! (one replica, reached directly, no tokens, state in memory), checks every answer (each call
//! asks for its own order id), and checks that 32 callers each calling the `30/min`
//! `update_ticket` 40 times across both replicas are granted exactly 30 calls each.
//!
//! ```sh
//! cargo bench -p toolc-example --bench replicas
//! ```
//!
//! It starts its own `redis-server` (on a private socket) and skips, saying so, when there is
//! none on PATH.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::{Request, Response, StatusCode, Uri};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::client::legacy::Client as PoolClient;
use hyper_util::rt::{TokioExecutor, TokioIo};
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use tokio::net::TcpListener;

const CLIENTS: usize = 32;
const CALLS_PER_CLIENT: usize = 250;
const LIMIT_CALLS: usize = 40;
const RESOURCE: &str = "https://mcp.bench.example/mcp";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The processes this bench started, stopped (by their handles) when it ends.
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Serves `jwks` at `/jwks` on a free loopback port; returns the issuer URL.
async fn issuer(jwks: Value) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let body = Bytes::from(jwks.to_string());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let body = body.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |_: Request<Incoming>| {
                    let body = body.clone();
                    async move { Ok::<_, Infallible>(Response::new(Full::new(body))) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    url
}

/// Starts `mcp-server support-desk` on a free port with `env`; returns its address.
async fn replica(children: &mut Children, env: &[(&str, String)]) -> SocketAddr {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-server"));
    command
        .args(["support-desk", "--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("start mcp-server");
    let stderr = child.stderr.take().expect("stderr");
    children.0.push(child);
    let (first, read) = tokio::sync::oneshot::channel();
    // Read the first line, then keep draining stderr so the replica never blocks on a pipe.
    std::thread::spawn(move || {
        let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
        let _ = first.send(lines.next().and_then(Result::ok).unwrap_or_default());
        for _ in lines {}
    });
    let line = read.await.expect("a first line");
    let url = line
        .rsplit(' ')
        .next()
        .and_then(|u| u.strip_prefix("http://"))
        .and_then(|u| u.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("unexpected first line: {line}"));
    url.parse().expect("an address")
}

type ProxyError = Box<dyn std::error::Error + Send + Sync>;

/// A round-robin HTTP proxy: each request goes to the next replica.
async fn proxy(replicas: Vec<SocketAddr>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let pool: PoolClient<_, Incoming> = PoolClient::builder(TokioExecutor::new())
        .pool_max_idle_per_host(64)
        .build_http();
    let next = Arc::new(AtomicUsize::new(0));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (pool, next, replicas) = (pool.clone(), Arc::clone(&next), replicas.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
                    let (pool, replicas) = (pool.clone(), replicas.clone());
                    let target = replicas[next.fetch_add(1, Ordering::Relaxed) % replicas.len()];
                    async move {
                        let path = request.uri().path_and_query().map_or("/", |p| p.as_str());
                        *request.uri_mut() = format!("http://{target}{path}")
                            .parse::<Uri>()
                            .expect("uri");
                        Ok::<_, Infallible>(match pool.request(request).await {
                            Ok(response) => response.map(|b| b.map_err(ProxyError::from).boxed()),
                            Err(e) => {
                                let body = Full::new(Bytes::from(e.to_string()));
                                let mut r = Response::new(body.map_err(|n| match n {}).boxed());
                                *r.status_mut() = StatusCode::BAD_GATEWAY;
                                r
                            }
                        })
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    addr
}

/// One client: a keep-alive connection and its token.
struct Client {
    sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    addr: SocketAddr,
    token: Option<String>,
}

impl Client {
    async fn connect(addr: SocketAddr, token: Option<String>) -> Client {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .expect("handshake");
        tokio::spawn(connection);
        Client {
            sender,
            addr,
            token,
        }
    }

    /// One `tools/call`; the result, or the JSON-RPC error.
    async fn call(&mut self, id: usize, tool: &str, arguments: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}});
        let mut request = Request::post("/mcp")
            .header("host", self.addr.to_string())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18");
        if let Some(token) = &self.token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let request = request
            .body(Full::new(Bytes::from(body.to_string())))
            .expect("request");
        self.sender.ready().await.expect("ready");
        let response = self.sender.send_request(request).await.expect("a response");
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes();
        assert_eq!(
            status,
            StatusCode::OK,
            "{}",
            String::from_utf8_lossy(&bytes)
        );
        let message: Value = serde_json::from_slice(&bytes).expect("JSON");
        message.get("result").cloned().unwrap_or(message)
    }
}

fn text(result: &Value) -> Value {
    result["content"][0]["text"]
        .as_str()
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(Value::Null)
}

struct Measured {
    calls: usize,
    wrong: usize,
    per_second: f64,
    p50: Duration,
    p99: Duration,
}

/// `CLIENTS` clients call `lookup_order` `CALLS_PER_CLIENT` times each, at once.
async fn throughput(addr: SocketAddr, tokens: &[Option<String>]) -> Measured {
    let wrong = Arc::new(AtomicUsize::new(0));
    let mut clients = Vec::new();
    for token in tokens {
        clients.push(Client::connect(addr, token.clone()).await);
    }
    let start = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (c, mut client) in clients.into_iter().enumerate() {
        let wrong = Arc::clone(&wrong);
        tasks.spawn(async move {
            let mut latencies = Vec::with_capacity(CALLS_PER_CLIENT);
            for n in 0..CALLS_PER_CLIENT {
                let order = format!("B-{}", c * 100_000 + n);
                let sent = Instant::now();
                let result = client
                    .call(n, "lookup_order", json!({"order_id": order}))
                    .await;
                latencies.push(sent.elapsed());
                if text(&result) != json!({"order_id": order, "status": "placed"}) {
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

/// Each caller calls the `30/min` tool `LIMIT_CALLS` times through the proxy (so across both
/// replicas); returns, per caller, the calls granted and the most a GCRA may grant in the time
/// the calls took (30, plus one per 2 s elapsed).
async fn limits(addr: SocketAddr, tokens: &[Option<String>]) -> Vec<(usize, usize)> {
    let mut tasks = tokio::task::JoinSet::new();
    for token in tokens {
        let token = token.clone();
        tasks.spawn(async move {
            let mut client = Client::connect(addr, token).await;
            let start = Instant::now();
            let mut granted = 0;
            for n in 0..LIMIT_CALLS {
                let result = client
                    .call(n, "update_ticket", json!({"id": "T-1", "priority": "low"}))
                    .await;
                if result["isError"] != json!(true) {
                    granted += 1;
                } else {
                    assert_eq!(text(&result)["kind"], "rate_limited", "{result}");
                }
            }
            (granted, 30 + (start.elapsed().as_secs() / 2) as usize)
        });
    }
    let mut out = Vec::new();
    while let Some(done) = tasks.join_next().await {
        out.push(done.expect("caller"));
    }
    out
}

fn token(key: &EncodingKey, issuer: &str, sub: &str) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let claims = json!({"iss": issuer, "aud": RESOURCE, "sub": sub, "roles": ["support"],
        "iat": now, "exp": now + 3600});
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some("k1".to_owned());
    jsonwebtoken::encode(&header, &claims, key).expect("a token")
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    // `cargo bench` passes `--bench` (and any filter); this bench has one case and reads none.
    if !on_path("redis-server") {
        println!(
            "replicas: skipped: redis-server is not on PATH (Debian: apt-get install redis-server)"
        );
        return;
    }
    let work = std::env::temp_dir().join(format!("toolc-bench-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a work directory");
    let socket = work.join("redis.sock");
    let mut children = Children(Vec::new());
    children.0.push(
        Command::new("redis-server")
            .args([
                "--port",
                "0",
                "--save",
                "",
                "--appendonly",
                "no",
                "--unixsocket",
            ])
            .arg(&socket)
            .arg("--dir")
            .arg(&work)
            .stdout(Stdio::null())
            .spawn()
            .expect("start redis-server"),
    );
    let until = Instant::now() + Duration::from_secs(10);
    while !socket.exists() {
        assert!(Instant::now() < until, "redis-server did not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let pem = std::fs::read(root().join("tests/auth/rsa-1.pem")).expect("the test key");
    let key = EncodingKey::from_rsa_pem(&pem).expect("an RSA key");
    let mut jwk = Jwk::from_encoding_key(&key, Algorithm::RS256).expect("a JWK");
    jwk.common.key_id = Some("k1".to_owned());
    let issuer = issuer(json!({"keys": [jwk]})).await;

    // Baseline: one replica, directly, no tokens, state in memory.
    let plain = vec![
        ("TOOLC_CALLER", "bench".to_owned()),
        ("TOOLC_AUTH", "user".to_owned()),
        ("TOOLC_ROLES", "support".to_owned()),
        ("TOOLC_STATELESS", "true".to_owned()),
        ("TOOLC_MAX_CONCURRENT_CALLS", "64".to_owned()),
    ];
    let single = replica(&mut children, &plain).await;
    let baseline = throughput(single, &vec![None; CLIENTS]).await;

    // Two replicas behind the proxy, with tokens and Redis.
    let remote = vec![
        ("TOOLC_JWT_ISSUER", issuer.clone()),
        ("TOOLC_JWKS_URL", format!("{issuer}/jwks")),
        ("TOOLC_RESOURCE_URL", RESOURCE.to_owned()),
        ("TOOLC_REDIS_URL", format!("unix://{}", socket.display())),
        (
            "TOOLC_REDIS_PREFIX",
            format!("toolc-bench:{}:", std::process::id()),
        ),
        ("TOOLC_STATELESS", "true".to_owned()),
        ("TOOLC_MAX_CONCURRENT_CALLS", "64".to_owned()),
    ];
    let first = replica(&mut children, &remote).await;
    let second = replica(&mut children, &remote).await;
    let front = proxy(vec![first, second]).await;
    let tokens: Vec<Option<String>> = (0..CLIENTS)
        .map(|c| Some(token(&key, &issuer, &format!("client-{c}"))))
        .collect();
    let replicated = throughput(front, &tokens).await;
    // Where the difference goes: tokens alone (one replica, direct), the proxy alone (two
    // replicas without tokens).
    let tokens_only = throughput(first, &tokens).await;
    // The same with every request's signature checked (no token cache).
    let mut uncached = remote.clone();
    uncached.push(("TOOLC_JWT_TOKEN_CACHE", "0".to_owned()));
    let every_request = replica(&mut children, &uncached).await;
    let tokens_uncached = throughput(every_request, &tokens).await;
    let plain_second = replica(&mut children, &plain).await;
    let plain_front = proxy(vec![single, plain_second]).await;
    let proxy_only = throughput(plain_front, &vec![None; CLIENTS]).await;
    let limit_tokens: Vec<Option<String>> = (0..CLIENTS)
        .map(|c| Some(token(&key, &issuer, &format!("limited-{c}"))))
        .collect();
    let granted = limits(front, &limit_tokens).await;

    println!("replicas: {CLIENTS} clients, {CALLS_PER_CLIENT} calls each of lookup_order");
    println!("| setup | calls | wrong answers | calls/s | p50 | p99 |");
    println!("|---|---|---|---|---|---|");
    for (name, m) in [
        (
            "one replica, direct, no tokens, memory (baseline)",
            &baseline,
        ),
        ("two replicas behind a proxy, JWT, Redis", &replicated),
        ("one replica, direct, JWT", &tokens_only),
        (
            "one replica, direct, JWT, every signature checked (no token cache)",
            &tokens_uncached,
        ),
        ("two replicas behind a proxy, no tokens", &proxy_only),
    ] {
        println!(
            "| {name} | {} | {} | {:.0} | {} | {} |",
            m.calls,
            m.wrong,
            m.per_second,
            ms(m.p50),
            ms(m.p99)
        );
    }
    let exact = granted.iter().filter(|(g, _)| *g == 30).count();
    let within = granted.iter().all(|(g, most)| (30..=*most).contains(g));
    println!(
        "limits: {CLIENTS} callers × {LIMIT_CALLS} calls of update_ticket (30/min) across both replicas: \
         {exact} callers granted exactly 30; all within [30, 30 + refills]: {within}; granted: {:?}",
        granted.iter().map(|(g, _)| *g).collect::<Vec<_>>()
    );
    let wrong: usize = [
        &baseline,
        &replicated,
        &tokens_only,
        &tokens_uncached,
        &proxy_only,
    ]
    .iter()
    .map(|m| m.wrong)
    .sum();
    assert_eq!(wrong, 0, "wrong answers");
    assert!(
        within,
        "a caller was granted more than its allowance: {granted:?}"
    );
    drop(children);
    let _ = std::fs::remove_dir_all(&work);
}
