//! Bearer JWT access tokens validated against an authorization server's keys (feature
//! `auth-jwt`).
//!
//! A [`JwtValidator`] checks, for every request: the token's signature against the key its
//! header names (`kid`) in the authorization server's JSON Web Key Set, fetched over HTTPS and
//! cached, and fetched again when a token names a key the cache does not hold (keys rotate);
//! the issuer (`iss`); the audience (`aud`: the server's resource URL, so that a token minted
//! for another server is refused); the expiry and not-before times (`exp`, `nbf`) with a small
//! leeway; and the scopes the server requires. Only asymmetric algorithms are accepted (RS*,
//! PS*, ES256, ES384, EdDSA), each only with a key of its own family.
//!
//! A token verified once is remembered until its `exp` (see [`JwtConfig::token_cache`]), so
//! that one signature check serves every request that carries it: the remembered token is
//! refused as soon as the key set the validator holds no longer has the key that signed it (a
//! rotated-out or revoked key), on the same terms as a token seen for the first time.
//!
//! The caller comes from the claims through a [`ClaimMapping`]: which claim names the caller,
//! which claims hold roles, and which roles make an administrator. Configuration is data
//! ([`JwtConfig`] deserializes from JSON, TOML or anything serde reads):
//!
//! ```json
//! {
//!   "issuer": "https://auth.example.com/realms/tools",
//!   "resource": "https://mcp.example.com/mcp",
//!   "jwks_url": "https://auth.example.com/realms/tools/protocol/openid-connect/certs",
//!   "claims": { "id": "sub", "roles": ["/realm_access/roles", "scope"], "admin_roles": ["ops"] }
//! }
//! ```

use std::fmt;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use jsonwebtoken::errors::ErrorKind as JwtErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::cache::{KeyId, TokenCache};
use super::{
    AuthError, AuthRequest, Authenticator, Identity, ProtectedResource, check_resource_url,
};
use toolc_runtime::{AuthLevel, BoxFuture, Caller};

use crate::truncated::Truncated;

/// The algorithms a token may be signed with: asymmetric only.
const ACCEPTED: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// The largest key set or discovery document read.
const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;

/// How a [`JwtValidator`] checks tokens and reads callers from them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JwtConfig {
    /// The authorization server that issues the tokens: their `iss` must equal it, and the
    /// protected-resource metadata names it.
    pub issuer: String,
    /// The server's canonical URL (`https://mcp.example.com/mcp`): what clients ask tokens
    /// for (RFC 8707), and the audience tokens must carry unless `audiences` says otherwise.
    pub resource: String,
    /// The audiences accepted (a token's `aud` must hold one of them). Default: `resource`.
    #[serde(default)]
    pub audiences: Vec<String>,
    /// Where the authorization server publishes its keys. Default: the `jwks_uri` of the
    /// issuer's metadata (`/.well-known/oauth-authorization-server`, then
    /// `/.well-known/openid-configuration`). Must be `https`, except on a loopback host.
    #[serde(default)]
    pub jwks_url: Option<String>,
    /// Seconds of clock skew tolerated on `exp` and `nbf` (default 30).
    #[serde(default = "default_leeway")]
    pub leeway_secs: u64,
    /// Scopes every token must hold (in `scope` or `scp`); a token without them is answered
    /// `403 insufficient_scope`. Default: none.
    #[serde(default)]
    pub required_scopes: Vec<String>,
    /// Scopes listed in the protected-resource metadata. Default: `required_scopes`.
    #[serde(default)]
    pub scopes_supported: Vec<String>,
    /// How claims become the caller.
    #[serde(default)]
    pub claims: ClaimMapping,
    /// Seconds a fetched key set is used before it is fetched again (default 600).
    #[serde(default = "default_max_age")]
    pub jwks_max_age_secs: u64,
    /// The fewest seconds between two fetches of the key set, however many unknown key ids
    /// arrive (default 10); bounds what forged tokens can make the server fetch.
    #[serde(default = "default_min_refresh")]
    pub jwks_min_refresh_secs: u64,
    /// A name for the resource in its metadata.
    #[serde(default)]
    pub resource_name: Option<String>,
    /// How many verified tokens are remembered, each until its `exp` and only while the key
    /// set holds the key that signed it (default 10,000; 0 verifies the signature of every
    /// request). A token's scopes and caller are read once, when it is verified.
    #[serde(default = "default_token_cache")]
    pub token_cache: usize,
}

fn default_leeway() -> u64 {
    30
}

fn default_max_age() -> u64 {
    600
}

fn default_min_refresh() -> u64 {
    10
}

fn default_token_cache() -> usize {
    10_000
}

impl JwtConfig {
    /// Tokens of `issuer` for the server at `resource`, with every other setting at its default.
    pub fn new(issuer: impl Into<String>, resource: impl Into<String>) -> JwtConfig {
        JwtConfig {
            issuer: issuer.into(),
            resource: resource.into(),
            audiences: Vec::new(),
            jwks_url: None,
            leeway_secs: default_leeway(),
            required_scopes: Vec::new(),
            scopes_supported: Vec::new(),
            claims: ClaimMapping::default(),
            jwks_max_age_secs: default_max_age(),
            jwks_min_refresh_secs: default_min_refresh(),
            resource_name: None,
            token_cache: default_token_cache(),
        }
    }

    /// Sets where the keys are fetched from.
    pub fn jwks_url(mut self, url: impl Into<String>) -> JwtConfig {
        self.jwks_url = Some(url.into());
        self
    }

    /// Sets the claim mapping.
    pub fn claims(mut self, claims: ClaimMapping) -> JwtConfig {
        self.claims = claims;
        self
    }
}

/// Which claims make the [`Caller`].
///
/// A claim is named by its top-level name (`sub`, `https://example.com/roles`), or by a JSON
/// pointer when it starts with `/` (`/realm_access/roles`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClaimMapping {
    /// The claim whose string is the caller's id (default `sub`). A token without it is
    /// refused.
    pub id: String,
    /// Claims whose values are roles (default `["roles"]`): an array of strings, or a string
    /// of space-separated names (so `scope` makes each scope a role). Missing claims add none.
    pub roles: Vec<String>,
    /// The auth level of every caller with a valid token (default `user`).
    pub auth: AuthLevel,
    /// Roles that make the caller an administrator (auth level `admin`). Default: none.
    pub admin_roles: Vec<String>,
}

impl Default for ClaimMapping {
    fn default() -> ClaimMapping {
        ClaimMapping {
            id: "sub".to_owned(),
            roles: vec!["roles".to_owned()],
            auth: AuthLevel::User,
            admin_roles: Vec::new(),
        }
    }
}

impl ClaimMapping {
    /// The caller the claims describe, or why they describe none.
    pub fn caller(&self, claims: &Map<String, Value>) -> Result<Caller, AuthError> {
        let id = match claim(claims, &self.id) {
            Some(Value::String(id)) if !id.is_empty() => id.clone(),
            Some(_) => {
                return Err(AuthError::InvalidToken(format!(
                    "the token's `{}` claim, which names the caller, is not a non-empty string",
                    Truncated(&self.id)
                )));
            }
            None => {
                return Err(AuthError::InvalidToken(format!(
                    "the token has no `{}` claim, which names the caller",
                    Truncated(&self.id)
                )));
            }
        };
        let mut roles: Vec<String> = Vec::new();
        for path in &self.roles {
            for role in names(claim(claims, path)) {
                if !roles.iter().any(|r| r == role) {
                    roles.push(role.to_owned());
                }
            }
        }
        let auth = if roles.iter().any(|r| self.admin_roles.contains(r)) {
            AuthLevel::Admin
        } else {
            self.auth
        };
        Ok(Caller::new(id).with_auth(auth).with_roles(roles))
    }
}

/// The claim at `path`: a top-level name, or a JSON pointer when it starts with `/`.
fn claim<'a>(claims: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
    if path.starts_with('/') {
        let mut value: Option<&Value> = None;
        for raw in path.split('/').skip(1) {
            let segment = raw.replace("~1", "/").replace("~0", "~");
            value = match value {
                None => claims.get(&segment),
                Some(Value::Object(map)) => map.get(&segment),
                Some(Value::Array(items)) => {
                    segment.parse::<usize>().ok().and_then(|i| items.get(i))
                }
                Some(_) => None,
            };
            value?;
        }
        value
    } else {
        claims.get(path)
    }
}

/// The names a role or scope claim holds: the strings of an array, or the space-separated
/// words of a string.
fn names(value: Option<&Value>) -> Vec<&str> {
    match value {
        Some(Value::String(text)) => text.split_ascii_whitespace().collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .filter(|s| !s.is_empty())
            .collect(),
        _ => Vec::new(),
    }
}

/// Why a validator could not be built from its configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// One verification key of the set, with the algorithms it may verify.
struct Key {
    id: KeyId,
    decoding: DecodingKey,
    algorithms: Vec<Algorithm>,
}

#[derive(Default)]
struct KeySet {
    keys: Vec<Key>,
    fetched: Option<Instant>,
    generation: u64,
}

impl KeySet {
    fn candidates(&self, kid: Option<&str>, alg: Algorithm) -> Vec<&Key> {
        self.keys
            .iter()
            .filter(|k| k.algorithms.contains(&alg))
            .filter(|k| kid.is_none() || k.id.kid.as_deref() == kid)
            .collect()
    }

    /// Whether the set holds the key `id` names, with the same material.
    fn holds(&self, id: &KeyId) -> bool {
        self.keys.iter().any(|k| k.id == *id)
    }
}

type HttpClient = Client<hyper_rustls::HttpsConnector<HttpConnector>, Empty<Bytes>>;

struct Inner {
    issuer: String,
    audiences: Vec<String>,
    leeway: u64,
    required_scopes: Vec<String>,
    claims: ClaimMapping,
    metadata: ProtectedResource,
    jwks_url: Option<String>,
    keys: RwLock<Arc<KeySet>>,
    /// Held while fetching, so one fetch runs at a time; holds when the last one began.
    refresh: tokio::sync::Mutex<Option<Instant>>,
    max_age: Duration,
    min_refresh: Duration,
    fetch_timeout: Duration,
    http: HttpClient,
    cache: TokenCache,
}

/// An [`Authenticator`] for bearer JWT access tokens (see the [module docs](self)).
///
/// Cloning is cheap; clones share the cached key set.
#[derive(Clone)]
pub struct JwtValidator {
    inner: Arc<Inner>,
}

impl fmt::Debug for JwtValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JwtValidator")
            .field("issuer", &self.inner.issuer)
            .field("audiences", &self.inner.audiences)
            .field("jwks_url", &self.inner.jwks_url)
            .finish_non_exhaustive()
    }
}

impl JwtValidator {
    /// A validator for `config`. Checks the URLs; fetches nothing yet (the key set is fetched
    /// on the first token, or by the readiness probe).
    pub fn new(config: JwtConfig) -> Result<JwtValidator, ConfigError> {
        check_resource_url(&config.resource).map_err(ConfigError)?;
        if config.issuer.trim().is_empty() {
            return Err(ConfigError(
                "the JWT issuer is empty: set it to the authorization server's issuer URL"
                    .to_owned(),
            ));
        }
        if let Some(url) = &config.jwks_url {
            check_fetch_url(url, "JWKS URL")?;
        } else {
            check_fetch_url(&config.issuer, "issuer (to discover its jwks_uri)")?;
        }
        for (i, path) in std::iter::once(&config.claims.id)
            .chain(&config.claims.roles)
            .enumerate()
        {
            if path.is_empty() {
                return Err(ConfigError(format!(
                    "claim mapping entry {i} is empty: name a claim (`sub`) or a JSON pointer (`/realm_access/roles`)"
                )));
            }
        }
        // Exactly one provider is compiled in unless another crate enables a second one; then
        // pick ours rather than fail on the first token.
        if jsonwebtoken::crypto::CryptoProvider::try_get_default().is_none() {
            let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        }
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_native_roots(rustls::crypto::ring::default_provider())
            .map_err(|e| {
                ConfigError(format!(
                    "no trusted root certificates could be loaded to fetch the JWKS over https: {e}; install the system's CA certificates (ca-certificates)"
                ))
            })?
            .https_or_http()
            .enable_http1()
            .build();
        let http = Client::builder(TokioExecutor::new()).build(connector);
        let audiences = if config.audiences.is_empty() {
            vec![config.resource.clone()]
        } else {
            config.audiences.clone()
        };
        let mut metadata = ProtectedResource::new(config.resource.clone(), [config.issuer.clone()]);
        metadata.scopes_supported = if config.scopes_supported.is_empty() {
            config.required_scopes.clone()
        } else {
            config.scopes_supported.clone()
        };
        metadata.resource_name = config.resource_name.clone();
        Ok(JwtValidator {
            inner: Arc::new(Inner {
                issuer: config.issuer,
                audiences,
                leeway: config.leeway_secs,
                required_scopes: config.required_scopes,
                claims: config.claims,
                metadata,
                jwks_url: config.jwks_url,
                keys: RwLock::new(Arc::new(KeySet::default())),
                refresh: tokio::sync::Mutex::new(None),
                max_age: Duration::from_secs(config.jwks_max_age_secs),
                min_refresh: Duration::from_secs(config.jwks_min_refresh_secs),
                fetch_timeout: Duration::from_secs(5),
                http,
                cache: TokenCache::new(config.token_cache),
            }),
        })
    }

    fn current(&self) -> Arc<KeySet> {
        Arc::clone(&self.inner.keys.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// Validates `token` and reads its caller.
    pub async fn validate(&self, token: &str) -> Result<Identity, AuthError> {
        let now = jsonwebtoken::get_current_timestamp();
        if let Some(identity) = self.cached(token, now).await {
            return Ok(identity);
        }
        let header = jsonwebtoken::decode_header(token).map_err(|e| {
            AuthError::InvalidToken(format!("the bearer token is not a readable JWT: {e}"))
        })?;
        if !ACCEPTED.contains(&header.alg) {
            return Err(AuthError::InvalidToken(format!(
                "tokens signed with {:?} are not accepted; the authorization server must sign with RS256, PS256, ES256 or EdDSA",
                header.alg
            )));
        }
        let kid = header.kid.as_deref();
        let mut keys = self.current();
        if self.stale(&keys) || keys.candidates(kid, header.alg).is_empty() {
            keys = self.refresh(keys.generation).await?;
        }
        let candidates = keys.candidates(kid, header.alg);
        if candidates.is_empty() {
            return Err(AuthError::InvalidToken(match kid {
                Some(kid) => format!(
                    "no key of the authorization server's key set has kid '{}' and verifies {:?}",
                    Truncated(kid),
                    header.alg
                ),
                None => format!(
                    "the token names no key (no kid), and no key of the set verifies {:?}",
                    header.alg
                ),
            }));
        }
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.inner.issuer]);
        validation.set_audience(&self.inner.audiences);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.leeway = self.inner.leeway;
        validation.validate_nbf = true;
        let mut last = None;
        for key in candidates {
            match jsonwebtoken::decode::<Map<String, Value>>(token, &key.decoding, &validation) {
                Ok(data) => {
                    let exp = data.claims.get("exp").and_then(Value::as_u64);
                    let identity = self.identity(data.claims)?;
                    if let Some(exp) = exp {
                        self.inner
                            .cache
                            .insert(token, &identity, exp, key.id.clone(), now);
                    }
                    return Ok(identity);
                }
                Err(e) if *e.kind() == JwtErrorKind::InvalidSignature => last = Some(e),
                Err(e) => return Err(AuthError::InvalidToken(self.describe(&e))),
            }
        }
        Err(AuthError::InvalidToken(match last {
            Some(e) => self.describe(&e),
            None => "the token's signature does not verify".to_owned(),
        }))
    }

    /// Whether the key set is due to be fetched again.
    fn stale(&self, keys: &KeySet) -> bool {
        keys.fetched
            .is_none_or(|at| at.elapsed() >= self.inner.max_age)
    }

    /// The identity of a token verified before, while it has not expired and the key set (fetched
    /// again first when due, as for any token) still holds the key that signed it.
    async fn cached(&self, token: &str, now: u64) -> Option<Identity> {
        if !self.inner.cache.may_hold(token) {
            return None;
        }
        let mut keys = self.current();
        if self.stale(&keys) {
            keys = self.refresh(keys.generation).await.ok()?;
        }
        self.inner.cache.get(token, now, |id| keys.holds(id))
    }

    fn identity(&self, claims: Map<String, Value>) -> Result<Identity, AuthError> {
        if !self.inner.required_scopes.is_empty() {
            let mut granted = names(claims.get("scope"));
            granted.extend(names(claims.get("scp")));
            let missing: Vec<&str> = self
                .inner
                .required_scopes
                .iter()
                .map(String::as_str)
                .filter(|s| !granted.contains(s))
                .collect();
            if !missing.is_empty() {
                return Err(AuthError::InsufficientScope {
                    scope: self.inner.required_scopes.join(" "),
                    description: format!("the token lacks the scopes {}", missing.join(", ")),
                });
            }
        }
        let caller = self.inner.claims.caller(&claims)?;
        Ok(Identity { caller, claims })
    }

    /// What was wrong with a token, in words a client developer can act on.
    fn describe(&self, e: &jsonwebtoken::errors::Error) -> String {
        match e.kind() {
            JwtErrorKind::ExpiredSignature => "the token has expired".to_owned(),
            JwtErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".to_owned(),
            JwtErrorKind::InvalidAudience => format!(
                "the token was issued for another resource: its aud must include {}",
                self.inner.audiences.join(" or ")
            ),
            JwtErrorKind::InvalidIssuer => {
                format!("the token's issuer is not {}", self.inner.issuer)
            }
            JwtErrorKind::InvalidSignature => "the token's signature does not verify".to_owned(),
            JwtErrorKind::MissingRequiredClaim(c) => {
                format!("the token has no `{}` claim", Truncated(c))
            }
            JwtErrorKind::InvalidAlgorithm => {
                "the token's algorithm does not match its key".to_owned()
            }
            _ => format!("the token is not valid: {e}"),
        }
    }

    /// Fetches the key set again unless another task did since `seen` was current, or a fetch
    /// began less than `min_refresh` ago. Returns the key set to use.
    async fn refresh(&self, seen: u64) -> Result<Arc<KeySet>, AuthError> {
        let mut last = self.inner.refresh.lock().await;
        let current = self.current();
        if current.generation != seen {
            return Ok(current);
        }
        if let Some(at) = *last
            && at.elapsed() < self.inner.min_refresh
        {
            return if current.keys.is_empty() {
                Err(AuthError::Unavailable(
                    "the authorization server's key set could not be fetched; retry shortly"
                        .to_owned(),
                ))
            } else {
                Ok(current)
            };
        }
        *last = Some(Instant::now());
        match tokio::time::timeout(self.inner.fetch_timeout, self.fetch_keys()).await {
            Ok(Ok(keys)) => {
                let set = Arc::new(KeySet {
                    keys,
                    fetched: Some(Instant::now()),
                    generation: current.generation + 1,
                });
                *self.inner.keys.write().unwrap_or_else(|p| p.into_inner()) = Arc::clone(&set);
                Ok(set)
            }
            outcome => {
                let error = match outcome {
                    Ok(Err(e)) => e,
                    _ => format!("no answer within {} s", self.inner.fetch_timeout.as_secs()),
                };
                tracing::warn!(
                    target: "toolc_mcp::auth",
                    error = %error,
                    "the JWKS could not be fetched"
                );
                if current.keys.is_empty() {
                    Err(AuthError::Unavailable(
                        "the authorization server's key set could not be fetched; retry shortly"
                            .to_owned(),
                    ))
                } else {
                    // Keep verifying with the keys held; try again after `min_refresh`.
                    Ok(current)
                }
            }
        }
    }

    async fn fetch_keys(&self) -> Result<Vec<Key>, String> {
        let url = match &self.inner.jwks_url {
            Some(url) => url.clone(),
            None => self.discover_jwks_url().await?,
        };
        let document = self.fetch_json(&url).await?;
        let Some(Value::Array(entries)) = document.get("keys") else {
            return Err(format!("{url} is not a JWK set: it has no `keys` array"));
        };
        let mut keys = Vec::new();
        for entry in entries {
            // A key this server cannot use (a symmetric or encryption key, an unknown type)
            // is skipped, not fatal.
            let Ok(jwk) = serde_json::from_value::<Jwk>(entry.clone()) else {
                continue;
            };
            if let Some(key) = verification_key(&jwk) {
                keys.push(key);
            }
        }
        if keys.is_empty() {
            return Err(format!(
                "{url} holds no signature verification key this server can use"
            ));
        }
        Ok(keys)
    }

    /// The `jwks_uri` of the issuer's metadata: RFC 8414 first, then OpenID Connect discovery.
    async fn discover_jwks_url(&self) -> Result<String, String> {
        let issuer = self.inner.issuer.trim_end_matches('/');
        let meta = ProtectedResource::new(issuer, [""; 0]);
        let (origin, path) = (meta.origin(), meta.path().trim_end_matches('/'));
        let candidates = [
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{issuer}/.well-known/openid-configuration"),
        ];
        let mut failures = Vec::new();
        for url in &candidates {
            match self.fetch_json(url).await {
                Ok(document) => {
                    if document.get("issuer").and_then(Value::as_str)
                        != Some(self.inner.issuer.as_str())
                    {
                        failures.push(format!("{url} names another issuer"));
                        continue;
                    }
                    let Some(jwks) = document.get("jwks_uri").and_then(Value::as_str) else {
                        failures.push(format!("{url} has no jwks_uri"));
                        continue;
                    };
                    check_fetch_url(jwks, "jwks_uri").map_err(|e| e.0)?;
                    return Ok(jwks.to_owned());
                }
                Err(e) => failures.push(e),
            }
        }
        Err(format!(
            "the issuer's metadata names no JWKS ({}); set jwks_url",
            failures.join("; ")
        ))
    }

    async fn fetch_json(&self, url: &str) -> Result<Value, String> {
        let uri: http::Uri = url
            .parse()
            .map_err(|e| format!("{url} is not a URL: {e}"))?;
        let request = http::Request::get(uri)
            .header(http::header::ACCEPT, "application/json")
            .body(Empty::<Bytes>::new())
            .map_err(|e| format!("cannot request {url}: {e}"))?;
        let response = self
            .inner
            .http
            .request(request)
            .await
            .map_err(|e| format!("cannot fetch {url}: {e}"))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("{url} answered {status}"));
        }
        let body = Limited::new(response.into_body(), MAX_DOCUMENT_BYTES)
            .collect()
            .await
            .map_err(|e| format!("cannot read {url}: {e}"))?
            .to_bytes();
        serde_json::from_slice(&body).map_err(|e| format!("{url} is not JSON: {e}"))
    }
}

/// A key of the set that verifies signatures, with the algorithms it may verify; `None` for a
/// key that cannot (symmetric, for encryption, of an unsupported curve).
fn verification_key(jwk: &Jwk) -> Option<Key> {
    if matches!(jwk.common.public_key_use, Some(ref u) if *u != PublicKeyUse::Signature) {
        return None;
    }
    let family: Vec<Algorithm> = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => ACCEPTED[..6].to_vec(),
        AlgorithmParameters::EllipticCurve(ec) => match ec.curve {
            EllipticCurve::P256 => vec![Algorithm::ES256],
            EllipticCurve::P384 => vec![Algorithm::ES384],
            _ => return None,
        },
        AlgorithmParameters::OctetKeyPair(okp) if okp.curve == EllipticCurve::Ed25519 => {
            vec![Algorithm::EdDSA]
        }
        _ => return None,
    };
    let algorithms = match jwk.common.key_algorithm {
        Some(alg) => {
            let alg: Algorithm = alg.to_string().parse().ok()?;
            if !family.contains(&alg) {
                return None;
            }
            vec![alg]
        }
        None => family,
    };
    let decoding = DecodingKey::from_jwk(jwk).ok()?;
    // What the key is, to tell it from another key under the same id.
    let material = serde_json::to_string(&jwk.algorithm).ok()?;
    Some(Key {
        id: KeyId {
            kid: jwk.common.key_id.clone(),
            material,
        },
        decoding,
        algorithms,
    })
}

/// A URL keys or metadata may be fetched from: `https`, or `http` on a loopback host.
fn check_fetch_url(url: &str, what: &str) -> Result<(), ConfigError> {
    let uri: http::Uri = url
        .parse()
        .map_err(|e| ConfigError(format!("the {what} {url:?} is not a URL: {e}")))?;
    let host = uri.host().unwrap_or_default();
    match uri.scheme_str() {
        Some("https") if !host.is_empty() => Ok(()),
        Some("http") if is_loopback(host) => Ok(()),
        Some("http") => Err(ConfigError(format!(
            "the {what} {url:?} must use https (http is allowed only on a loopback host)"
        ))),
        _ => Err(ConfigError(format!(
            "the {what} {url:?} must be an https URL"
        ))),
    }
}

fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl Authenticator for JwtValidator {
    fn authenticate<'a>(
        &'a self,
        request: &'a AuthRequest<'a>,
    ) -> BoxFuture<'a, Result<Identity, AuthError>> {
        Box::pin(async move {
            let token = request.bearer_token()?.ok_or(AuthError::Missing)?;
            self.validate(token).await
        })
    }

    fn protected_resource(&self) -> Option<&ProtectedResource> {
        Some(&self.inner.metadata)
    }

    fn ready(&self) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(async move {
            let keys = self.current();
            if !keys.keys.is_empty() {
                return Ok(());
            }
            match self.refresh(keys.generation).await {
                Ok(set) if !set.keys.is_empty() => Ok(()),
                _ => Err("the authorization server's key set has not been fetched".to_owned()),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn claims_become_callers_through_the_mapping() {
        let claims = map(json!({
            "sub": "ada",
            "roles": ["support", "support", ""],
            "scope": "tickets:read tickets:write",
            "realm_access": {"roles": ["ops"]},
            "https://example.com/groups": ["billing"]
        }));
        let default = ClaimMapping::default().caller(&claims).expect("caller");
        assert_eq!(default.id, "ada");
        assert_eq!(default.auth, AuthLevel::User);
        assert_eq!(default.roles, ["support"]);

        let mapping: ClaimMapping = serde_json::from_value(json!({
            "roles": ["roles", "scope", "/realm_access/roles", "https://example.com/groups", "/missing/x"],
            "admin_roles": ["ops"]
        }))
        .expect("mapping");
        let caller = mapping.caller(&claims).expect("caller");
        assert_eq!(caller.auth, AuthLevel::Admin);
        assert_eq!(
            caller.roles,
            ["support", "tickets:read", "tickets:write", "ops", "billing"]
        );

        let no_sub = ClaimMapping::default().caller(&map(json!({"roles": []})));
        assert!(matches!(no_sub, Err(AuthError::InvalidToken(m)) if m.contains("`sub`")));
        let numeric = ClaimMapping::default().caller(&map(json!({"sub": 7})));
        assert!(matches!(numeric, Err(AuthError::InvalidToken(_))));
    }

    #[test]
    fn mappings_reject_unknown_keys_and_levels() {
        let bad: Result<ClaimMapping, _> = serde_json::from_value(json!({"role": ["x"]}));
        assert!(bad.is_err());
        let bad: Result<ClaimMapping, _> = serde_json::from_value(json!({"auth": "root"}));
        let message = bad.expect_err("level").to_string();
        assert!(message.contains("none, user or admin"), "{message}");
        let none: ClaimMapping = serde_json::from_value(json!({"auth": "none"})).expect("level");
        assert_eq!(none.auth, AuthLevel::None);
    }

    #[test]
    fn fetch_urls_must_be_https_off_loopback() {
        assert!(check_fetch_url("https://auth.example.com/jwks", "x").is_ok());
        assert!(check_fetch_url("http://127.0.0.1:9/jwks", "x").is_ok());
        assert!(check_fetch_url("http://[::1]:9/jwks", "x").is_ok());
        assert!(check_fetch_url("http://localhost/jwks", "x").is_ok());
        assert!(check_fetch_url("http://auth.example.com/jwks", "x").is_err());
        assert!(check_fetch_url("ftp://auth.example.com/jwks", "x").is_err());
        assert!(check_fetch_url("not a url", "x").is_err());
    }
}
