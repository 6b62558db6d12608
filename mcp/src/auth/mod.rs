//! Who calls over HTTP (feature `http`): the [`Authenticator`] hook that turns a request's
//! credentials into a [`Caller`], and the OAuth 2.0 protected-resource metadata an MCP server
//! publishes.
//!
//! The MCP authorization specification makes a remote MCP server an OAuth 2.1 resource
//! server: it validates the bearer access token of every request and never issues tokens.
//! With feature `auth-jwt`, [`JwtValidator`](jwt::JwtValidator) does that for JWT access tokens
//! signed by an authorization server's keys (a JWKS). Any other scheme (API keys, a client
//! certificate identity forwarded by a TLS-terminating proxy) is an [`Authenticator`] of your
//! own, or a closure through [`from_fn`].
//!
//! An authenticator answers each request with an [`Identity`] (the caller whose policies
//! apply) or an [`AuthError`], which the server turns into the HTTP answer the specification
//! asks for: `401` with a `WWW-Authenticate` challenge naming the resource metadata, `403`
//! for insufficient scope, `400` for a malformed request, `503` when the authenticator cannot
//! decide now.

use std::fmt;
use std::net::SocketAddr;

use serde::Serialize;
use serde_json::{Map, Value};

use toolc_runtime::{BoxFuture, Caller};

use crate::truncated::Truncated;

#[cfg(feature = "auth-jwt")]
mod cache;
#[cfg(feature = "auth-jwt")]
pub mod jwt;

/// What an authenticator sees of one HTTP request: its method, URI and headers, and the
/// address of the peer (the reverse proxy, when there is one).
pub struct AuthRequest<'a> {
    parts: &'a http::request::Parts,
    peer: SocketAddr,
}

impl<'a> AuthRequest<'a> {
    /// A request made of these parts, from `peer`.
    pub fn new(parts: &'a http::request::Parts, peer: SocketAddr) -> AuthRequest<'a> {
        AuthRequest { parts, peer }
    }

    /// The request's headers.
    pub fn headers(&self) -> &'a http::HeaderMap {
        &self.parts.headers
    }

    /// The request's method.
    pub fn method(&self) -> &'a http::Method {
        &self.parts.method
    }

    /// The request's URI (its path and query).
    pub fn uri(&self) -> &'a http::Uri {
        &self.parts.uri
    }

    /// The address of the connection's peer.
    pub fn peer(&self) -> SocketAddr {
        self.peer
    }

    /// The bearer token of the `Authorization` header (RFC 6750 §2.1): `Ok(None)` when there
    /// is no `Authorization` header, an error when there are several, or one that is not a
    /// well-formed `Bearer` credential.
    pub fn bearer_token(&self) -> Result<Option<&'a str>, AuthError> {
        let mut values = self
            .parts
            .headers
            .get_all(http::header::AUTHORIZATION)
            .iter();
        let Some(value) = values.next() else {
            return Ok(None);
        };
        if values.next().is_some() {
            return Err(AuthError::BadRequest(
                "the request has more than one Authorization header".to_owned(),
            ));
        }
        let text = value.to_str().map_err(|_| {
            AuthError::InvalidToken("the Authorization header is not visible ASCII".to_owned())
        })?;
        let Some((scheme, token)) = text.split_once(' ') else {
            return Err(AuthError::InvalidToken(
                "the Authorization header must be `Bearer <token>`".to_owned(),
            ));
        };
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Err(AuthError::InvalidToken(format!(
                "the Authorization scheme must be Bearer, not {}",
                Truncated(scheme)
            )));
        }
        let token = token.trim_matches(' ');
        // b64token (RFC 6750 §2.1): token characters, then any `=` padding.
        let body = token.trim_end_matches('=');
        let well_formed = !body.is_empty()
            && body.bytes().all(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/')
            });
        if !well_formed {
            return Err(AuthError::InvalidToken(
                "the bearer token is empty or holds characters a token cannot hold".to_owned(),
            ));
        }
        Ok(Some(token))
    }
}

impl fmt::Debug for AuthRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Headers hold credentials: never print them.
        f.debug_struct("AuthRequest")
            .field("method", &self.parts.method)
            .field("path", &self.parts.uri.path())
            .field("peer", &self.peer)
            .finish()
    }
}

/// Who a request was authenticated as: the caller whose policies apply, and the claims
/// behind it (a token's payload; empty for schemes without claims). The caller hook of an
/// `McpServer` reads it with `McpRequest::identity`.
#[derive(Debug, Clone, PartialEq)]
pub struct Identity {
    /// The caller: its id (rate limits are kept per id), auth level and roles.
    pub caller: Caller,
    /// The claims the caller was read from.
    pub claims: Map<String, Value>,
}

impl Identity {
    /// An identity with no claims.
    pub fn new(caller: Caller) -> Identity {
        Identity {
            caller,
            claims: Map::new(),
        }
    }
}

/// Why a request was not authenticated, and so how the server answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    /// No credentials: `401` with a bare challenge, so a client starts authorization.
    Missing,
    /// Credentials that do not hold (expired, wrong audience or issuer, bad signature,
    /// unknown key): `401` with `error="invalid_token"` and this description.
    InvalidToken(String),
    /// Valid credentials without the scopes the server requires: `403` with
    /// `error="insufficient_scope"` and the scopes needed.
    InsufficientScope {
        /// The scopes needed, space-separated.
        scope: String,
        /// What is missing.
        description: String,
    },
    /// A malformed request (two `Authorization` headers): `400` with
    /// `error="invalid_request"`.
    BadRequest(String),
    /// The authenticator cannot decide now (its key set cannot be fetched): `503` with a
    /// `Retry-After`; the client may retry with the same credentials.
    Unavailable(String),
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthError::Missing => f.write_str("the request carries no credentials"),
            AuthError::InvalidToken(m) | AuthError::BadRequest(m) => f.write_str(m),
            AuthError::InsufficientScope { description, .. } => f.write_str(description),
            AuthError::Unavailable(m) => write!(f, "authentication is unavailable: {m}"),
        }
    }
}

impl std::error::Error for AuthError {}

/// Turns an HTTP request's credentials into an [`Identity`].
///
/// Runs once per HTTP request, before MCP sees it. Implementations must not panic (a panic
/// fails the request with `500`) and should answer promptly.
pub trait Authenticator: Send + Sync + 'static {
    /// Authenticates one request.
    fn authenticate<'a>(
        &'a self,
        request: &'a AuthRequest<'a>,
    ) -> BoxFuture<'a, Result<Identity, AuthError>>;

    /// The protected-resource metadata to publish, if this authenticator follows the MCP
    /// authorization specification. When present, the server serves it at
    /// `/.well-known/oauth-protected-resource` (and under the resource's path) and names it in
    /// every `WWW-Authenticate` challenge.
    fn protected_resource(&self) -> Option<&ProtectedResource> {
        None
    }

    /// Whether the authenticator can authenticate now (readiness probes ask this): a JWT
    /// validator is ready once it holds a key set.
    fn ready(&self) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(std::future::ready(Ok(())))
    }
}

/// An [`Authenticator`] made of a synchronous function, for schemes that need no I/O: API
/// keys compared against a table, or a client-certificate identity that a TLS-terminating
/// proxy forwards in a header it sets itself.
///
/// ```
/// use toolc_mcp::auth::{AuthError, Identity, from_fn};
/// use toolc_runtime::{AuthLevel, Caller};
///
/// let api_keys = from_fn(|request| {
///     let key = request.headers().get("x-api-key").ok_or(AuthError::Missing)?;
///     match key.as_bytes() {
///         b"k-ada-7c1f" => Ok(Identity::new(
///             Caller::new("ada").with_auth(AuthLevel::User).with_role("support"),
///         )),
///         _ => Err(AuthError::InvalidToken("unknown API key".into())),
///     }
/// });
/// # let _ = api_keys;
/// ```
pub fn from_fn<F>(f: F) -> FnAuthenticator<F>
where
    F: Fn(&AuthRequest<'_>) -> Result<Identity, AuthError> + Send + Sync + 'static,
{
    FnAuthenticator(f)
}

/// The [`Authenticator`] of [`from_fn`].
pub struct FnAuthenticator<F>(F);

impl<F> fmt::Debug for FnAuthenticator<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FnAuthenticator")
    }
}

impl<F> Authenticator for FnAuthenticator<F>
where
    F: Fn(&AuthRequest<'_>) -> Result<Identity, AuthError> + Send + Sync + 'static,
{
    fn authenticate<'a>(
        &'a self,
        request: &'a AuthRequest<'a>,
    ) -> BoxFuture<'a, Result<Identity, AuthError>> {
        Box::pin(std::future::ready((self.0)(request)))
    }
}

/// OAuth 2.0 Protected Resource Metadata (RFC 9728) of an MCP server: its canonical URL and
/// the authorization servers whose tokens it accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProtectedResource {
    /// The server's canonical URL, as clients name it in the `resource` parameter of their
    /// token requests (RFC 8707), such as `https://mcp.example.com/mcp`.
    pub resource: String,
    /// The issuers of the tokens the server accepts.
    pub authorization_servers: Vec<String>,
    /// The scopes a client may request; omitted when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes_supported: Vec<String>,
    /// How tokens are sent: always `["header"]` (never in a query string).
    pub bearer_methods_supported: Vec<String>,
    /// A human-readable name of the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_name: Option<String>,
}

impl ProtectedResource {
    /// Metadata for the resource at `resource`, whose tokens come from `authorization_servers`.
    pub fn new<I, S>(resource: impl Into<String>, authorization_servers: I) -> ProtectedResource
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ProtectedResource {
            resource: resource.into(),
            authorization_servers: authorization_servers.into_iter().map(Into::into).collect(),
            scopes_supported: Vec::new(),
            bearer_methods_supported: vec!["header".to_owned()],
            resource_name: None,
        }
    }

    /// The origin of the resource URL (`https://mcp.example.com`).
    pub fn origin(&self) -> &str {
        let start = self.resource.find("://").map_or(0, |i| i + 3);
        let end = self.resource[start..]
            .find(['/', '?', '#'])
            .map_or(self.resource.len(), |i| start + i);
        &self.resource[..end]
    }

    /// The path of the resource URL (`/mcp` for `https://mcp.example.com/mcp`), `/` if none.
    pub fn path(&self) -> &str {
        let rest = &self.resource[self.origin().len()..];
        let rest = rest.split(['?', '#']).next().unwrap_or(rest);
        if rest.is_empty() { "/" } else { rest }
    }

    /// The URL of this metadata document: `/.well-known/oauth-protected-resource` inserted
    /// before the resource's path (RFC 9728 §3.1).
    pub fn metadata_url(&self) -> String {
        let path = self.path().trim_end_matches('/');
        format!(
            "{}/.well-known/oauth-protected-resource{path}",
            self.origin()
        )
    }
}

/// Checks that `url` is an absolute `http`/`https` URL without a fragment, as a resource
/// identifier must be (RFC 8707 §2); the error says what is wrong.
pub fn check_resource_url(url: &str) -> Result<(), String> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(format!(
            "the resource URL {url:?} has no scheme: write it as https://host/path"
        ));
    };
    if !scheme.eq_ignore_ascii_case("https") && !scheme.eq_ignore_ascii_case("http") {
        return Err(format!(
            "the resource URL {url:?} must use https (or http behind a proxy on one host)"
        ));
    }
    if url.contains('#') {
        return Err(format!(
            "the resource URL {url:?} has a fragment, which a resource identifier cannot have"
        ));
    }
    let host = rest.split(['/', '?']).next().unwrap_or_default();
    if host.is_empty() || host.contains('@') {
        return Err(format!(
            "the resource URL {url:?} must name a host (and no user or password)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_urls_insert_the_well_known_path() {
        let r = ProtectedResource::new("https://mcp.example.com/mcp", ["https://auth.example.com"]);
        assert_eq!(r.path(), "/mcp");
        assert_eq!(r.origin(), "https://mcp.example.com");
        assert_eq!(
            r.metadata_url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        let root = ProtectedResource::new("https://mcp.example.com:8443", ["https://a"]);
        assert_eq!(root.path(), "/");
        assert_eq!(root.origin(), "https://mcp.example.com:8443");
        assert_eq!(
            root.metadata_url(),
            "https://mcp.example.com:8443/.well-known/oauth-protected-resource"
        );
        let slash = ProtectedResource::new("https://mcp.example.com/", ["https://a"]);
        assert_eq!(
            slash.metadata_url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn resource_urls_are_checked() {
        assert!(check_resource_url("https://mcp.example.com/mcp").is_ok());
        assert!(check_resource_url("http://127.0.0.1:8080/mcp").is_ok());
        assert!(check_resource_url("mcp.example.com").is_err());
        assert!(check_resource_url("ftp://mcp.example.com").is_err());
        assert!(check_resource_url("https://mcp.example.com/mcp#x").is_err());
        assert!(check_resource_url("https:///mcp").is_err());
        assert!(check_resource_url("https://user:pw@mcp.example.com/").is_err());
    }

    fn parts(authorization: &[&str]) -> http::request::Parts {
        let mut builder = http::Request::builder().uri("/mcp");
        for value in authorization {
            builder = builder.header(http::header::AUTHORIZATION, *value);
        }
        builder.body(()).expect("request").into_parts().0
    }

    #[test]
    fn bearer_tokens_are_read_strictly() {
        let peer: SocketAddr = "127.0.0.1:1".parse().expect("addr");
        let read = |values: &[&str]| {
            let p = parts(values);
            AuthRequest::new(&p, peer)
                .bearer_token()
                .map(|t| t.map(str::to_owned))
        };
        assert_eq!(read(&[]), Ok(None));
        assert_eq!(
            read(&["Bearer abc.def-ghi_"]),
            Ok(Some("abc.def-ghi_".into()))
        );
        assert_eq!(read(&["bearer x/y+z=="]), Ok(Some("x/y+z==".into())));
        assert!(matches!(
            read(&["Basic dXNlcjpwdw=="]),
            Err(AuthError::InvalidToken(_))
        ));
        assert!(matches!(read(&["Bearer"]), Err(AuthError::InvalidToken(_))));
        assert!(matches!(
            read(&["Bearer "]),
            Err(AuthError::InvalidToken(_))
        ));
        assert!(matches!(
            read(&["Bearer a b"]),
            Err(AuthError::InvalidToken(_))
        ));
        assert!(matches!(
            read(&["Bearer a=b"]),
            Err(AuthError::InvalidToken(_))
        ));
        assert!(matches!(
            read(&["Bearer a", "Bearer b"]),
            Err(AuthError::BadRequest(_))
        ));
    }
}
