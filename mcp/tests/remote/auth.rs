//! Bearer JWTs as the MCP authorization specification asks: every rejected token gets `401`
//! with a challenge naming the resource metadata, the metadata is where clients look, the key
//! set is fetched, cached and fetched again for an unknown key, and the token's roles decide
//! `forbidden`. Then the custom-authenticator hook, and the rule that a remote address needs
//! an authenticator.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::Full;
use hyper_util::rt::TokioIo;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use toolc_mcp::auth::jwt::{ClaimMapping, JwtConfig, JwtValidator};
use toolc_mcp::auth::{AuthError, Identity, from_fn};
use toolc_mcp::{HttpConfig, McpServer};
use toolc_runtime::{AuthLevel, Caller};

use crate::remote::agent::agent;
use crate::remote::harness::{Client, Reply, post, request, result_json, serve, serve_on};

pub const RESOURCE: &str = "https://mcp.test.example/mcp";
const METADATA_URL: &str = "https://mcp.test.example/.well-known/oauth-protected-resource/mcp";

fn pem(name: &str) -> Vec<u8> {
    let path = format!("{}/../tests/auth/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn rsa(n: u8) -> EncodingKey {
    EncodingKey::from_rsa_pem(&pem(&format!("rsa-{n}.pem"))).expect("an RSA key")
}

fn ec() -> EncodingKey {
    EncodingKey::from_ec_pem(&pem("ec-1.pem")).expect("an EC key")
}

/// The public JWK of `key`, under `kid`.
pub fn jwk(key: &EncodingKey, alg: Algorithm, kid: &str) -> Value {
    let mut jwk = Jwk::from_encoding_key(key, alg).expect("a JWK");
    jwk.common.key_id = Some(kid.to_owned());
    serde_json::to_value(jwk).expect("JSON")
}

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

pub fn sign(key: &EncodingKey, alg: Algorithm, kid: Option<&str>, claims: &Value) -> String {
    let mut header = Header::new(alg);
    header.kid = kid.map(str::to_owned);
    jsonwebtoken::encode(&header, claims, key).expect("a token")
}

/// An authorization server as far as a resource server sees it: a JWKS, an RFC 8414
/// metadata document, and a count of fetches. It answers `500` while `down` is set.
#[derive(Clone)]
pub struct Issuer {
    pub url: String,
    pub keys: Arc<Mutex<Value>>,
    pub fetches: Arc<AtomicUsize>,
    pub down: Arc<AtomicBool>,
}

impl Issuer {
    pub async fn start(keys: Value) -> Issuer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let issuer = Issuer {
            url: format!("http://{addr}"),
            keys: Arc::new(Mutex::new(keys)),
            fetches: Arc::new(AtomicUsize::new(0)),
            down: Arc::new(AtomicBool::new(false)),
        };
        let served = issuer.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let issuer = served.clone();
                tokio::spawn(async move {
                    let service =
                        hyper::service::service_fn(move |r: Request<hyper::body::Incoming>| {
                            let issuer = issuer.clone();
                            async move {
                                Ok::<_, std::convert::Infallible>(issuer.answer(r.uri().path()))
                            }
                        });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        issuer
    }

    fn answer(&self, path: &str) -> Response<Full<Bytes>> {
        let (status, body) = if self.down.load(Ordering::SeqCst) {
            (StatusCode::INTERNAL_SERVER_ERROR, json!({"error": "down"}))
        } else {
            match path {
                "/jwks" => {
                    self.fetches.fetch_add(1, Ordering::SeqCst);
                    (StatusCode::OK, self.keys.lock().expect("keys").clone())
                }
                "/.well-known/oauth-authorization-server" => (
                    StatusCode::OK,
                    json!({"issuer": self.url, "jwks_uri": format!("{}/jwks", self.url)}),
                ),
                _ => (StatusCode::NOT_FOUND, json!({"error": "not found"})),
            }
        };
        let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
        *response.status_mut() = status;
        response
    }

    pub fn jwks_url(&self) -> String {
        format!("{}/jwks", self.url)
    }

    /// Claims of a valid token for `sub`, with `extra` merged in.
    pub fn claims(&self, sub: &str, extra: Value) -> Value {
        let mut claims = json!({
            "iss": self.url,
            "aud": RESOURCE,
            "sub": sub,
            "iat": now(),
            "exp": now() + 600,
        });
        if let (Some(c), Value::Object(extra)) = (claims.as_object_mut(), extra) {
            c.extend(extra);
        }
        claims
    }

    pub fn config(&self) -> JwtConfig {
        let mut config = JwtConfig::new(&self.url, RESOURCE).jwks_url(self.jwks_url());
        config.claims = ClaimMapping {
            admin_roles: vec!["ops".to_owned()],
            ..ClaimMapping::default()
        };
        config
    }
}

/// An issuer serving the public half of `rsa-1.pem` as kid `k1`.
pub async fn issuer() -> Issuer {
    Issuer::start(json!({"keys": [jwk(&rsa(1), Algorithm::RS256, "k1")]})).await
}

pub fn token(issuer: &Issuer, sub: &str, extra: Value) -> String {
    sign(
        &rsa(1),
        Algorithm::RS256,
        Some("k1"),
        &issuer.claims(sub, extra),
    )
}

async fn jwt_server(config: JwtConfig) -> crate::remote::harness::Running {
    let validator = JwtValidator::new(config).expect("a valid configuration");
    serve(
        McpServer::new(agent().0),
        HttpConfig::new().authenticator(validator),
    )
    .await
}

fn kind(result: &Value) -> String {
    assert_eq!(result["isError"], json!(true), "{result}");
    result_json(result)["kind"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn valid_tokens_call_tools_as_their_caller_and_roles_decide_forbidden() {
    let issuer = issuer().await;
    let server = jwt_server(issuer.config()).await;

    let support = token(&issuer, "ada", json!({"roles": ["support"]}));
    let mut ada = Client::new(server.addr, Some(&support));
    let init = ada.initialize().await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.body);
    let whoami = ada.call("whoami", json!({})).await;
    assert_eq!(
        result_json(&whoami),
        json!({"id": "ada", "auth": "user", "roles": ["support"]})
    );
    let ok = ada.call("support_only", json!({})).await;
    assert_ne!(ok["isError"], json!(true), "{ok}");
    assert_eq!(kind(&ada.call("admin_only", json!({})).await), "forbidden");

    // `ops` is an admin role in the mapping: admin, but not support.
    let ops = token(&issuer, "grace", json!({"roles": ["ops"]}));
    let mut grace = Client::new(server.addr, Some(&ops));
    grace.initialize().await;
    assert_eq!(
        result_json(&grace.call("whoami", json!({})).await)["auth"],
        "admin"
    );
    let ok = grace.call("admin_only", json!({})).await;
    assert_ne!(ok["isError"], json!(true), "{ok}");
    assert_eq!(
        kind(&grace.call("support_only", json!({})).await),
        "forbidden"
    );

    // Every request is checked: the session does not carry the caller.
    grace.token = Some(token(&issuer, "grace", json!({"exp": now() - 3600})));
    let expired = grace.call_reply("whoami", json!({})).await;
    assert_eq!(expired.status, StatusCode::UNAUTHORIZED);
    // The key set was fetched once for all of it.
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_session_is_served_only_to_the_caller_who_began_it() {
    let issuer = issuer().await;
    let server = jwt_server(issuer.config()).await;
    let mut ada = Client::new(
        server.addr,
        Some(&token(&issuer, "ada", json!({"roles": ["support"]}))),
    );
    ada.initialize().await;
    let session = ada.session.clone().expect("a session");
    // Grace holds a valid token of her own, and Ada's session id.
    let mut grace = Client::new(server.addr, Some(&token(&issuer, "grace", json!({}))));
    grace.session = Some(session);
    let stolen = grace.call_reply("whoami", json!({})).await;
    assert_eq!(stolen.status, StatusCode::NOT_FOUND, "{}", stolen.body);
    // Ada's session goes on, with a fresh token for the same caller.
    ada.token = Some(token(&issuer, "ada", json!({"roles": ["support"]})));
    assert_eq!(
        result_json(&ada.call("whoami", json!({})).await)["id"],
        "ada"
    );
    // Grace's own session works.
    grace.session = None;
    grace.initialize().await;
    assert_eq!(
        result_json(&grace.call("whoami", json!({})).await)["id"],
        "grace"
    );
}

/// The challenge of a rejected token, checked against the specification's shape.
fn assert_challenge(reply: &Reply, error: Option<&str>, description: &str) {
    let challenge = reply
        .header("www-authenticate")
        .unwrap_or_else(|| panic!("no challenge: {} {}", reply.status, reply.body));
    let base = format!("Bearer resource_metadata=\"{METADATA_URL}\"");
    assert!(challenge.starts_with(&base), "{challenge}");
    match error {
        Some(error) => {
            assert!(
                challenge.contains(&format!("error=\"{error}\"")),
                "{challenge}"
            );
            assert!(
                challenge.contains("error_description=\"") && challenge.contains(description),
                "{challenge} should say {description:?}"
            );
            assert_eq!(reply.json()["error"], error);
        }
        None => assert_eq!(challenge, base),
    }
}

#[tokio::test]
async fn rejected_tokens_get_401_with_a_challenge_naming_the_metadata() {
    let issuer = issuer().await;
    let server = jwt_server(issuer.config()).await;
    let claims = |extra: Value| issuer.claims("ada", extra);
    let rs1 = |c: &Value| sign(&rsa(1), Algorithm::RS256, Some("k1"), c);
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "expired",
            rs1(&claims(json!({"exp": now() - 3600}))),
            "expired",
        ),
        (
            "wrong audience",
            rs1(&claims(json!({"aud": "https://api.elsewhere.example"}))),
            "issued for another resource",
        ),
        (
            "a token for another MCP server",
            rs1(&claims(json!({"aud": ["https://other-mcp.example/mcp"]}))),
            "issued for another resource",
        ),
        (
            "wrong issuer",
            rs1(&claims(json!({"iss": "https://evil.example"}))),
            "issuer is not",
        ),
        (
            "bad signature",
            sign(&rsa(2), Algorithm::RS256, Some("k1"), &claims(json!({}))),
            "signature does not verify",
        ),
        (
            "unknown kid",
            sign(&rsa(2), Algorithm::RS256, Some("k9"), &claims(json!({}))),
            "kid 'k9'",
        ),
        (
            "not yet valid",
            rs1(&claims(json!({"nbf": now() + 3600}))),
            "not valid yet",
        ),
        (
            "no audience",
            rs1(&{
                let mut c = claims(json!({}));
                c.as_object_mut().map(|m| m.remove("aud"));
                c
            }),
            "no `aud` claim",
        ),
        (
            "no subject",
            rs1(&{
                let mut c = claims(json!({}));
                c.as_object_mut().map(|m| m.remove("sub"));
                c
            }),
            "no `sub` claim",
        ),
        (
            "a symmetric algorithm",
            jsonwebtoken::encode(
                &Header::new(Algorithm::HS256),
                &claims(json!({})),
                &EncodingKey::from_secret(b"a shared secret").expect("key"),
            )
            .expect("token"),
            "not accepted",
        ),
        ("not a JWT", "abc".to_owned(), "not a readable JWT"),
    ];
    for (case, token, description) in cases {
        let reply = Client::new(server.addr, Some(&token)).initialize().await;
        assert_eq!(
            reply.status,
            StatusCode::UNAUTHORIZED,
            "{case}: {}",
            reply.body
        );
        assert_challenge(&reply, Some("invalid_token"), description);
    }

    // No credentials: a bare challenge, so the client starts authorization.
    let reply = Client::new(server.addr, None).initialize().await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_challenge(&reply, None, "");
    // Another scheme is an invalid token; two Authorization headers a bad request.
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let basic = post(
        server.addr,
        &[("authorization", "Basic dXNlcjpwdw==")],
        &message,
    )
    .await;
    assert_eq!(basic.status, StatusCode::UNAUTHORIZED);
    assert_challenge(&basic, Some("invalid_token"), "must be Bearer");
    let good = token(&issuer, "ada", json!({}));
    let bearer = format!("Bearer {good}");
    let twice = post(
        server.addr,
        &[("authorization", &bearer), ("authorization", &bearer)],
        &message,
    )
    .await;
    assert_eq!(twice.status, StatusCode::BAD_REQUEST);
    assert_challenge(&twice, Some("invalid_request"), "more than one");
}

#[tokio::test]
async fn malformed_credentials_never_panic_the_server() {
    let issuer = issuer().await;
    let server = jwt_server(issuer.config()).await;
    let segment = |v: &Value| base64url(v.to_string().as_bytes());
    let long = "a".repeat(60_000);
    let odd = [
        "Bearer".to_owned(),
        "Bearer  ".to_owned(),
        "Bearer ...".to_owned(),
        "Bearer a.b.c".to_owned(),
        format!("Bearer {long}"),
        format!("Bearer {long}.{long}.{long}"),
        format!(
            "Bearer {}.{}.",
            segment(&json!({"alg": "none"})),
            segment(&json!({"sub": "x"}))
        ),
        format!(
            "Bearer {}.{}.c2ln",
            segment(&json!({"alg": "RS256", "kid": "k".repeat(5000)})),
            segment(&json!({"sub": "x"}))
        ),
        format!(
            "Bearer {}.{}.c2ln",
            segment(&json!({"alg": "RS256", "kid": ["k1"]})),
            segment(&json!([1, 2]))
        ),
        format!(
            "Bearer {}.bm90IGpzb24.c2ln",
            segment(&json!({"alg": "RS256", "kid": "k1"}))
        ),
        "bEaReR x".to_owned(),
    ];
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    for value in &odd {
        let reply = post(server.addr, &[("authorization", value.as_str())], &message).await;
        assert!(
            matches!(
                reply.status,
                StatusCode::UNAUTHORIZED | StatusCode::BAD_REQUEST
            ),
            "{value:.60}: {} {}",
            reply.status,
            reply.body
        );
    }
    // Bytes that are not UTF-8 in the header.
    let raw = b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer \xff\xfe\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: 2\r\n\r\n{}";
    let answer = raw_exchange(server.addr, raw).await;
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    let health = request(server.addr, Method::GET, "/healthz", &[], "").await;
    assert_eq!(health.status, StatusCode::OK);
}

/// Base64url without padding (RFC 4648 §5), as JWT segments are written.
fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| n << 8 | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// Writes raw bytes and reads the answer's head.
pub async fn raw_exchange(addr: SocketAddr, bytes: &[u8]) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(bytes).await.expect("write");
    let mut buffer = vec![0u8; 4096];
    let n = tokio::time::timeout(crate::remote::harness::PATIENCE, stream.read(&mut buffer))
        .await
        .expect("an answer in time")
        .expect("read");
    String::from_utf8_lossy(&buffer[..n]).into_owned()
}

#[tokio::test]
async fn the_metadata_is_published_where_clients_look() {
    let issuer = issuer().await;
    let mut config = issuer.config();
    config.required_scopes = vec!["tools:call".to_owned()];
    config.resource_name = Some("Remote test tools".to_owned());
    let server = jwt_server(config).await;
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let reply = request(server.addr, Method::GET, path, &[], "").await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert_eq!(
            reply.json(),
            json!({
                "resource": RESOURCE,
                "authorization_servers": [issuer.url],
                "scopes_supported": ["tools:call"],
                "bearer_methods_supported": ["header"],
                "resource_name": "Remote test tools"
            })
        );
        assert_eq!(reply.header("content-type"), Some("application/json"));
    }
    let other = request(
        server.addr,
        Method::GET,
        "/.well-known/oauth-protected-resource/other",
        &[],
        "",
    )
    .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);

    // Without a resource to describe, there is no metadata.
    let plain = serve(McpServer::new(agent().0), HttpConfig::new()).await;
    let none = request(
        plain.addr,
        Method::GET,
        "/.well-known/oauth-protected-resource",
        &[],
        "",
    )
    .await;
    assert_eq!(none.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_token_without_the_required_scopes_gets_403_insufficient_scope() {
    let issuer = issuer().await;
    let mut config = issuer.config();
    config.required_scopes = vec!["tools:call".to_owned(), "tickets".to_owned()];
    let server = jwt_server(config).await;
    let partial = token(&issuer, "ada", json!({"scope": "tools:call openid"}));
    let reply = Client::new(server.addr, Some(&partial)).initialize().await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    assert_challenge(&reply, Some("insufficient_scope"), "tickets");
    let challenge = reply.header("www-authenticate").unwrap_or_default();
    assert!(
        challenge.contains("scope=\"tools:call tickets\""),
        "{challenge}"
    );
    let full = token(&issuer, "ada", json!({"scp": ["tools:call", "tickets"]}));
    let reply = Client::new(server.addr, Some(&full)).initialize().await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

#[tokio::test]
async fn an_unknown_kid_fetches_the_key_set_again_to_pick_up_a_rotation() {
    let issuer = issuer().await;
    let mut config = issuer.config();
    config.jwks_min_refresh_secs = 0;
    let server = jwt_server(config).await;
    let first = token(&issuer, "ada", json!({}));
    assert_eq!(
        Client::new(server.addr, Some(&first))
            .initialize()
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);
    // The authorization server rotates to a new key.
    *issuer.keys.lock().expect("keys") = json!({"keys": [
        jwk(&rsa(1), Algorithm::RS256, "k1"),
        jwk(&rsa(2), Algorithm::RS256, "k2"),
    ]});
    let rotated = sign(
        &rsa(2),
        Algorithm::RS256,
        Some("k2"),
        &issuer.claims("ada", json!({})),
    );
    assert_eq!(
        Client::new(server.addr, Some(&rotated))
            .initialize()
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);
    // Known keys need no fetch.
    assert_eq!(
        Client::new(server.addr, Some(&first))
            .initialize()
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn forged_kids_cannot_make_the_server_fetch_more_than_once_per_interval() {
    let issuer = issuer().await;
    let server = jwt_server(issuer.config()).await; // at most one fetch per 10 s
    let good = token(&issuer, "ada", json!({}));
    assert_eq!(
        Client::new(server.addr, Some(&good))
            .initialize()
            .await
            .status,
        StatusCode::OK
    );
    let before = issuer.fetches.load(Ordering::SeqCst);
    for i in 0..20 {
        let kid = format!("forged-{i}");
        let forged = sign(
            &rsa(2),
            Algorithm::RS256,
            Some(&kid),
            &issuer.claims("x", json!({})),
        );
        let reply = Client::new(server.addr, Some(&forged)).initialize().await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    assert!(
        issuer.fetches.load(Ordering::SeqCst) <= before + 1,
        "{} fetches for 20 forged kids",
        issuer.fetches.load(Ordering::SeqCst) - before
    );
}

#[tokio::test]
async fn an_unreachable_key_set_answers_503_until_it_is_back() {
    let issuer = issuer().await;
    issuer.down.store(true, Ordering::SeqCst);
    let mut config = issuer.config();
    config.jwks_min_refresh_secs = 0;
    let server = jwt_server(config).await;
    let good = token(&issuer, "ada", json!({}));
    let reply = Client::new(server.addr, Some(&good)).initialize().await;
    assert_eq!(
        reply.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        reply.body
    );
    assert!(reply.header("retry-after").is_some());
    let ready = request(server.addr, Method::GET, "/readyz", &[], "").await;
    assert_eq!(ready.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        ready.json()["reasons"],
        json!(["the authenticator is not ready"])
    );
    issuer.down.store(false, Ordering::SeqCst);
    let reply = Client::new(server.addr, Some(&good)).initialize().await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let ready = request(server.addr, Method::GET, "/readyz", &[], "").await;
    assert_eq!(ready.status, StatusCode::OK);
}

#[tokio::test]
async fn the_key_set_is_found_through_the_issuer_metadata() {
    let issuer = issuer().await;
    let mut config = issuer.config();
    config.jwks_url = None;
    let server = jwt_server(config).await;
    let good = token(&issuer, "ada", json!({}));
    assert_eq!(
        Client::new(server.addr, Some(&good))
            .initialize()
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn es256_tokens_verify_with_an_ec_key() {
    let issuer = Issuer::start(json!({"keys": [jwk(&ec(), Algorithm::ES256, "e1")]})).await;
    let server = jwt_server(issuer.config()).await;
    let claims = issuer.claims("ada", json!({}));
    let good = sign(&ec(), Algorithm::ES256, Some("e1"), &claims);
    assert_eq!(
        Client::new(server.addr, Some(&good))
            .initialize()
            .await
            .status,
        StatusCode::OK
    );
    // An RSA signature under the EC key's kid does not verify.
    let wrong = sign(&rsa(1), Algorithm::RS256, Some("e1"), &claims);
    assert_eq!(
        Client::new(server.addr, Some(&wrong))
            .initialize()
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
}

#[test]
fn configurations_are_checked_with_a_reason() {
    let bad = |config: JwtConfig| JwtValidator::new(config).expect_err("refused").to_string();
    let base = || JwtConfig::new("https://auth.example.com", RESOURCE);
    assert!(
        bad(JwtConfig::new(
            "https://auth.example.com",
            "mcp.example.com"
        ))
        .contains("no scheme")
    );
    assert!(bad(base().jwks_url("http://auth.example.com/jwks")).contains("must use https"));
    assert!(bad(JwtConfig::new("", RESOURCE)).contains("issuer is empty"));
    let mut empty_claim = base();
    empty_claim.claims.roles = vec![String::new()];
    assert!(bad(empty_claim).contains("claim mapping entry 1 is empty"));
    // From JSON, as an operator writes it.
    let config: JwtConfig = serde_json::from_value(json!({
        "issuer": "https://auth.example.com",
        "resource": RESOURCE,
        "claims": {"roles": ["/realm_access/roles"], "admin_roles": ["ops"], "auth": "user"}
    }))
    .expect("config");
    assert_eq!(config.leeway_secs, 30);
    assert!(JwtValidator::new(config).is_ok());
    let typo: Result<JwtConfig, _> = serde_json::from_value(json!({
        "issuer": "https://auth.example.com", "resource": RESOURCE, "jwks": "x"
    }));
    assert!(
        typo.expect_err("unknown field")
            .to_string()
            .contains("unknown field `jwks`")
    );
}

/// API keys through the hook: a table lookup, the caller it maps to, `401` without a key.
#[tokio::test]
async fn a_custom_authenticator_maps_api_keys_to_callers() {
    let api_keys = from_fn(|request| {
        let Some(key) = request.headers().get("x-api-key") else {
            return Err(AuthError::Missing);
        };
        match key.as_bytes() {
            b"k-ada" => Ok(Identity::new(
                Caller::new("ada")
                    .with_auth(AuthLevel::User)
                    .with_role("support"),
            )),
            _ => Err(AuthError::InvalidToken("unknown API key".to_owned())),
        }
    });
    let server = serve(
        McpServer::new(agent().0),
        HttpConfig::new().authenticator(api_keys),
    )
    .await;
    let message = crate::remote::harness::call_message(1, "whoami", json!({}));
    let stateless_headers = [("mcp-protocol-version", "2025-06-18")];
    let missing = post(server.addr, &stateless_headers, &message).await;
    assert_eq!(missing.status, StatusCode::UNAUTHORIZED);
    assert_eq!(missing.header("www-authenticate"), Some("Bearer"));
    let wrong = post(
        server.addr,
        &[
            ("x-api-key", "k-eve"),
            ("mcp-protocol-version", "2025-06-18"),
        ],
        &message,
    )
    .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(
        wrong
            .header("www-authenticate")
            .is_some_and(|c| c.contains("unknown API key")),
        "{:?}",
        wrong.headers
    );

    let mut client = Client::new(server.addr, None);
    client.session = None;
    let init = {
        let reply = post(
            server.addr,
            &[("x-api-key", "k-ada")],
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"}}}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        reply
            .header("mcp-session-id")
            .expect("a session")
            .to_owned()
    };
    let headers = [
        ("x-api-key", "k-ada"),
        ("mcp-session-id", init.as_str()),
        ("mcp-protocol-version", "2025-06-18"),
    ];
    let ack = post(
        server.addr,
        &headers,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(ack.status, StatusCode::ACCEPTED);
    let reply = post(
        server.addr,
        &headers,
        &crate::remote::harness::call_message(2, "whoami", json!({})),
    )
    .await;
    assert_eq!(
        result_json(&reply.message()["result"]),
        json!({"id": "ada", "auth": "user", "roles": ["support"]})
    );
}

#[tokio::test]
async fn a_remote_address_needs_an_authenticator() {
    let listener = TcpListener::bind("0.0.0.0:0").await.expect("bind");
    let refused = McpServer::new(agent().0)
        .serve_http_with(listener, HttpConfig::new(), std::future::pending())
        .await
        .expect_err("no authenticator");
    let message = refused.to_string();
    assert!(message.contains("HttpConfig::authenticator"), "{message}");
    assert!(message.contains("without an authenticator"), "{message}");

    // With one it serves, on every interface.
    let listener = TcpListener::bind("0.0.0.0:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let keys = from_fn(|request| match request.headers().get("x-api-key") {
        Some(k) if k == "k-ada" => Ok(Identity::new(Caller::new("ada"))),
        Some(_) => Err(AuthError::InvalidToken("unknown API key".to_owned())),
        None => Err(AuthError::Missing),
    });
    let server = serve_on(
        listener,
        McpServer::new(agent().0),
        HttpConfig::new().authenticator(keys),
    )
    .await;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    let reply = post(
        addr,
        &[("x-api-key", "k-ada")],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    server.finish().await.expect("served");
}
