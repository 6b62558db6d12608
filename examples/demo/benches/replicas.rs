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

mod load;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
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
use load::{CALLS_PER_CLIENT, CLIENTS, Children, Client, ms, text, throughput};
use serde_json::{Value, json};
use tokio::net::TcpListener;

const LIMIT_CALLS: usize = 40;
const RESOURCE: &str = "https://mcp.bench.example/mcp";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
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
    command.args(["support-desk", "--http", "127.0.0.1:0"]);
    for (name, value) in env {
        command.env(name, value);
    }
    load::start(children, command).await
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
    // The example's lookup_order answers each order id as `placed`.
    let right: load::Check =
        Arc::new(|order, answer| *answer == json!({"order_id": order, "status": "placed"}));
    let baseline = throughput(single, &vec![None; CLIENTS], Arc::clone(&right)).await;

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
    let replicated = throughput(front, &tokens, Arc::clone(&right)).await;
    // Where the difference goes: tokens alone (one replica, direct), the proxy alone (two
    // replicas without tokens).
    let tokens_only = throughput(first, &tokens, Arc::clone(&right)).await;
    // The same with every request's signature checked (no token cache).
    let mut uncached = remote.clone();
    uncached.push(("TOOLC_JWT_TOKEN_CACHE", "0".to_owned()));
    let every_request = replica(&mut children, &uncached).await;
    let tokens_uncached = throughput(every_request, &tokens, Arc::clone(&right)).await;
    let plain_second = replica(&mut children, &plain).await;
    let plain_front = proxy(vec![single, plain_second]).await;
    let proxy_only = throughput(plain_front, &vec![None; CLIENTS], right).await;
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
