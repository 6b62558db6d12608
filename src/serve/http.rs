//! The `http` backend: each call made into one HTTP request (the URL's placeholders filled and
//! percent-encoded, the query, the headers from the environment or the arguments, a JSON
//! body), and the answer read as the tool's result, which the contract then validates. What
//! the API answers instead of a result is mapped onto the runtime's error taxonomy:
//!
//! | the API | the call |
//! |---|---|
//! | 2xx | its body as JSON (text that is not JSON as a string; no body as `null`) |
//! | 429 | `rate_limited`, with the `Retry-After` it gives |
//! | 408 | `timeout` |
//! | 5xx, no connection, a TLS failure | `unavailable` (with the `Retry-After` of a 503) |
//! | 404 and every other status | `handler`: the status and the start of the body |
//!
//! The runtime's taxonomy has no `not_found`: a 404 is the handler's failure, its message
//! saying so. Every message has the values of the environment variables removed.

use super::secrets::Secrets;
use crate::model::backend::{Body, Http, Piece, Source, Template};
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::{Request, StatusCode, header};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;
use toolc_runtime::{BoxFuture, CallContext, ErrorKind, HandlerError, ToolError, ToolHandler};

/// What is left unencoded in a placeholder's value: RFC 3986's unreserved characters.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The largest answer read.
const MAX_BODY: usize = 16 << 20;

/// How long a request may take when the tool sets no `timeout_ms` (which, when set, ends the
/// call first).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The HTTP client every `http` backend of a server shares.
#[derive(Clone)]
pub struct HttpClient {
    client: Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>,
    /// Why `https` cannot be reached, when the system's trusted roots could not be loaded.
    no_tls: Option<String>,
}

impl HttpClient {
    /// A client over HTTP/1.1, `https` trusting the system's roots.
    pub fn new() -> HttpClient {
        let native = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_native_roots(rustls::crypto::ring::default_provider());
        let (builder, no_tls) = match native {
            Ok(b) => (b, None),
            Err(e) => {
                let empty = rustls::ClientConfig::builder_with_provider(Arc::new(
                    rustls::crypto::ring::default_provider(),
                ))
                .with_safe_default_protocol_versions()
                .map(|c| {
                    c.with_root_certificates(rustls::RootCertStore::empty())
                        .with_no_client_auth()
                });
                match empty {
                    Ok(config) => (
                        hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(config),
                        Some(format!(
                            "no trusted root certificates could be loaded ({e}): install the system's CA certificates (ca-certificates)"
                        )),
                    ),
                    // ring supports the default versions: this does not happen.
                    Err(_) => (
                        hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(
                            rustls::ClientConfig::builder()
                                .with_root_certificates(rustls::RootCertStore::empty())
                                .with_no_client_auth(),
                        ),
                        Some(format!("no TLS configuration: {e}")),
                    ),
                }
            }
        };
        let connector = builder.https_or_http().enable_http1().build();
        HttpClient {
            client: Client::builder(TokioExecutor::new()).build(connector),
            no_tls,
        }
    }
}

/// One tool's request template, with its environment values read.
#[derive(Clone)]
pub struct HttpBackend(Arc<Inner>);

struct Inner {
    http: Http,
    /// The value of each `{env: NAME}` of the query and headers, by name, with its prefix.
    env: Vec<(String, String)>,
    client: HttpClient,
    secrets: Secrets,
    /// The tool's own timeout: the default client timeout is not applied under it.
    timeout: Option<Duration>,
}

impl HttpBackend {
    /// The backend of a tool whose request is `http`; `env` holds the value of every
    /// environment variable it names.
    pub fn new(
        http: &Http,
        env: Vec<(String, String)>,
        client: HttpClient,
        secrets: Secrets,
        timeout: Option<Duration>,
    ) -> HttpBackend {
        HttpBackend(Arc::new(Inner {
            http: http.clone(),
            env,
            client,
            secrets,
            timeout,
        }))
    }
}

impl ToolHandler for HttpBackend {
    fn call(
        &self,
        arguments: Value,
        _ctx: CallContext,
    ) -> BoxFuture<'static, Result<Value, HandlerError>> {
        let inner = Arc::clone(&self.0);
        Box::pin(async move {
            let args = match arguments {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            let request = inner.request(&args).map_err(|e| inner.failure(e))?;
            let shown = request.shown.clone();
            let call = inner.send(request);
            let outcome = match inner.timeout {
                Some(_) => call.await,
                None => match tokio::time::timeout(DEFAULT_TIMEOUT, call).await {
                    Ok(outcome) => outcome,
                    Err(_) => Err(Failure::Kind(
                        ErrorKind::Timeout,
                        format!(
                            "this tool got no answer from {shown} within {} s",
                            DEFAULT_TIMEOUT.as_secs()
                        ),
                        None,
                    )),
                },
            };
            outcome.map_err(|e| inner.failure(e))
        })
    }
}

/// Why a call produced no value.
enum Failure {
    /// The handler's failure, with this message.
    Handler(String),
    /// A failure of the taxonomy the handler reports: kind, message, retry-after.
    Kind(ErrorKind, String, Option<Duration>),
}

/// A request ready to send, and how errors name it.
struct Prepared {
    request: Request<Full<Bytes>>,
    /// `GET https://host/path` (no query, which may hold a secret).
    shown: String,
    https: bool,
}

impl Inner {
    /// The failure as the handler's error, secrets removed.
    fn failure(&self, f: Failure) -> HandlerError {
        match f {
            Failure::Handler(m) => HandlerError::msg(self.secrets.redact(&m)),
            Failure::Kind(kind, m, retry) => {
                let e = ToolError::new(kind, "", self.secrets.redact(&m));
                match retry {
                    Some(after) => e.with_retry_after(after).into(),
                    None => e.into(),
                }
            }
        }
    }

    fn request(&self, args: &Map<String, Value>) -> Result<Prepared, Failure> {
        let http = &self.http;
        let placed = http.placed();
        let mut url = fill(&http.url, args, |v| {
            utf8_percent_encode(v, UNRESERVED).to_string()
        })
        .ok_or_else(|| Failure::Handler("a required argument of the URL is missing".into()))?;
        let shown = format!("{} {}", http.method, url.split('?').next().unwrap_or(&url));
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (key, source) in &http.query {
            match source {
                Source::Env { name, .. } => {
                    if let Some(v) = self.env_value(name) {
                        pairs.push((key.clone(), v));
                    }
                }
                Source::Template(t) => match t.single().and_then(|p| args.get(p)) {
                    // One placeholder holding a list: the key once per item.
                    Some(Value::Array(items)) => {
                        pairs.extend(items.iter().filter_map(|i| Some((key.clone(), text(i)?))));
                    }
                    _ => {
                        if let Some(v) = fill(t, args, str::to_string) {
                            pairs.push((key.clone(), v));
                        }
                    }
                },
            }
        }
        let rest = args.iter().filter(|(k, _)| !placed.contains(k.as_str()));
        let mut body: Option<Vec<u8>> = None;
        if http.rest_in_body() {
            let object: Map<String, Value> = rest.map(|(k, v)| (k.clone(), v.clone())).collect();
            body = Some(Value::Object(object).to_string().into_bytes());
        } else {
            for (k, v) in rest {
                match v {
                    Value::Array(items) => {
                        pairs.extend(items.iter().filter_map(|i| Some((k.clone(), text(i)?))));
                    }
                    other => {
                        if let Some(t) = text(other) {
                            pairs.push((k.clone(), t));
                        }
                    }
                }
            }
        }
        match &http.body {
            Some(Body::Whole(p)) => {
                body = args.get(p).map(|v| v.to_string().into_bytes());
            }
            Some(Body::Fields(fields)) => {
                let object: Map<String, Value> = fields
                    .iter()
                    .filter_map(|(key, p)| Some((key.clone(), args.get(p)?.clone())))
                    .collect();
                body = Some(Value::Object(object).to_string().into_bytes());
            }
            None => {}
        }
        if !pairs.is_empty() {
            let query: Vec<String> = pairs
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}={}",
                        utf8_percent_encode(k, UNRESERVED),
                        utf8_percent_encode(v, UNRESERVED)
                    )
                })
                .collect();
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str(&query.join("&"));
        }
        let https = url
            .get(..8)
            .is_some_and(|s| s.eq_ignore_ascii_case("https://"));
        let mut builder = Request::builder()
            .method(http.method.as_str())
            .uri(url.as_str())
            .header(header::ACCEPT, "application/json")
            .header(
                header::USER_AGENT,
                concat!("toolc/", env!("CARGO_PKG_VERSION")),
            );
        for (name, source) in &http.headers {
            let value = match source {
                Source::Env { name, .. } => self.env_value(name),
                Source::Template(t) => fill(t, args, str::to_string),
            };
            let Some(value) = value else { continue };
            let value = header::HeaderValue::from_str(&value).map_err(|_| {
                Failure::Handler(format!(
                    "the header `{name}` of {shown} cannot hold its value (a line break or a control character)"
                ))
            })?;
            builder = builder.header(name.as_str(), value);
        }
        if body.is_some() {
            builder = builder.header(header::CONTENT_TYPE, "application/json");
        }
        let request = builder
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| {
                Failure::Handler(format!("{shown} is not a request that can be sent: {e}"))
            })?;
        Ok(Prepared {
            request,
            shown,
            https,
        })
    }

    /// The value of environment variable `name` with its prefix.
    fn env_value(&self, name: &str) -> Option<String> {
        self.env
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }

    async fn send(&self, prepared: Prepared) -> Result<Value, Failure> {
        let Prepared {
            request,
            shown,
            https,
        } = prepared;
        if https && let Some(why) = &self.client.no_tls {
            return Err(Failure::Kind(
                ErrorKind::Unavailable,
                format!("this tool cannot reach {shown}: {why}"),
                None,
            ));
        }
        let response = self.client.client.request(request).await.map_err(|e| {
            Failure::Kind(
                ErrorKind::Unavailable,
                format!("this tool could not reach {shown}: {}", chain(&e)),
                None,
            )
        })?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = Limited::new(response.into_body(), MAX_BODY)
            .collect()
            .await
            .map_err(|e| {
                Failure::Kind(
                    ErrorKind::Unavailable,
                    format!("this tool could not read the answer of {shown}: {e}"),
                    None,
                )
            })?
            .to_bytes();
        if status.is_success() {
            return read_answer(&body, &headers, &shown);
        }
        let retry = retry_after(&headers);
        let said = excerpt(&body);
        let what = match status.canonical_reason() {
            Some(reason) => format!("{} {reason}", status.as_u16()),
            None => status.as_u16().to_string(),
        };
        let answered = if said.is_empty() {
            format!("{shown} answered {what}")
        } else {
            format!("{shown} answered {what}: {said}")
        };
        Err(match status {
            StatusCode::TOO_MANY_REQUESTS => Failure::Kind(
                ErrorKind::RateLimited,
                format!("this tool is rate limited: {answered}"),
                retry,
            ),
            StatusCode::REQUEST_TIMEOUT => Failure::Kind(
                ErrorKind::Timeout,
                format!("this tool timed out: {answered}"),
                None,
            ),
            s if s.is_server_error() => Failure::Kind(
                ErrorKind::Unavailable,
                format!("this tool's API is unavailable: {answered}"),
                retry,
            ),
            StatusCode::NOT_FOUND => Failure::Handler(format!("not found: {answered}")),
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
                let names: Vec<&str> = self.env.iter().map(|(n, _)| n.as_str()).collect();
                let hint = if names.is_empty() {
                    String::new()
                } else {
                    format!(" (check the credentials in {})", names.join(", "))
                };
                Failure::Handler(format!("the API refused the request{hint}: {answered}"))
            }
            _ => Failure::Handler(answered),
        })
    }
}

/// A template with the arguments' values in its placeholders, each made text by `encode`;
/// `None` when a placeholder's argument is absent or null.
fn fill(
    t: &Template,
    args: &Map<String, Value>,
    encode: impl Fn(&str) -> String,
) -> Option<String> {
    let mut out = String::new();
    for piece in &t.0 {
        match piece {
            Piece::Text(s) => out.push_str(s),
            Piece::Param(p) => out.push_str(&encode(&text(args.get(p)?)?)),
        }
    }
    Some(out)
}

/// A value as it is written in a URL or a header: a string as it is, a number or boolean as
/// JSON writes it, a list's items joined by commas, an object as JSON text; `None` for null.
fn text(v: &Value) -> Option<String> {
    Some(match v {
        Value::Null => return None,
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().filter_map(text).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    })
}

/// A 2xx answer as the tool's result.
fn read_answer(body: &[u8], headers: &header::HeaderMap, shown: &str) -> Result<Value, Failure> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    let json_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| {
            let t = t.to_ascii_lowercase();
            t.starts_with("application/json") || t.contains("+json")
        });
    match serde_json::from_slice(body) {
        Ok(v) => Ok(v),
        Err(e) if json_type => Err(Failure::Handler(format!(
            "{shown} answered JSON that does not parse ({e})"
        ))),
        Err(_) => Ok(Value::String(String::from_utf8_lossy(body).into_owned())),
    }
}

/// `Retry-After` as seconds or as an HTTP date.
fn retry_after(headers: &header::HeaderMap) -> Option<Duration> {
    let v = headers.get(header::RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = httpdate::parse_http_date(v).ok()?;
    Some(
        when.duration_since(std::time::SystemTime::now())
            .unwrap_or_default(),
    )
}

/// The start of an error body, on one line.
fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 300 {
        format!("{}…", one_line.chars().take(300).collect::<String>())
    } else {
        one_line
    }
}

/// An error and its sources, as one line.
fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = s.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::backend::parse_template;
    use serde_json::json;

    fn backend(http: Http) -> Inner {
        Inner {
            http,
            env: vec![("TOKEN".into(), "Bearer sk-secret-1".into())],
            client: HttpClient::new(),
            secrets: Secrets::new(["sk-secret-1".to_string()]),
            timeout: None,
        }
    }

    fn get(url: &str) -> Http {
        Http {
            method: "GET".into(),
            url: parse_template(url).unwrap(),
            query: Vec::new(),
            headers: Vec::new(),
            body: None,
        }
    }

    #[test]
    fn placeholders_are_encoded_and_the_rest_goes_to_the_query_or_the_body() {
        let mut http = get("https://api.example.com/v1/pets/{id}");
        http.query.push((
            "tag".into(),
            Source::Template(parse_template("{tags}").unwrap()),
        ));
        http.headers.push((
            "Authorization".into(),
            Source::Env {
                name: "TOKEN".into(),
                prefix: String::new(),
            },
        ));
        let b = backend(http);
        let args = json!({"id": "a b/c", "tags": ["x", "y z"], "limit": 5, "note": null});
        let p = b.request(args.as_object().unwrap()).ok().unwrap();
        assert_eq!(
            p.request.uri().to_string(),
            "https://api.example.com/v1/pets/a%20b%2Fc?tag=x&tag=y%20z&limit=5"
        );
        assert_eq!(p.shown, "GET https://api.example.com/v1/pets/a%20b%2Fc");
        assert_eq!(p.request.headers()["authorization"], "Bearer sk-secret-1");

        let mut post = get("https://api.example.com/pets");
        post.method = "POST".into();
        let b = backend(post);
        let p = b
            .request(json!({"name": "Rex", "age": 3}).as_object().unwrap())
            .ok()
            .unwrap();
        assert_eq!(p.request.uri().to_string(), "https://api.example.com/pets");
        assert_eq!(p.request.headers()["content-type"], "application/json");

        let mut whole = get("https://api.example.com/pets/{id}");
        whole.method = "PUT".into();
        whole.body = Some(Body::Fields(vec![("id".into(), "body_id".into())]));
        let b = backend(whole);
        let p = b
            .request(
                json!({"id": "7", "body_id": 9, "dry": true})
                    .as_object()
                    .unwrap(),
            )
            .ok()
            .unwrap();
        assert_eq!(
            p.request.uri().to_string(),
            "https://api.example.com/pets/7?dry=true"
        );
    }

    #[test]
    fn failures_keep_no_secret() {
        let b = backend(get("https://api.example.com/x"));
        let e = b.failure(Failure::Handler("denied for Bearer sk-secret-1".into()));
        assert_eq!(e.to_string(), "denied for Bearer <redacted>");
        let e = b.failure(Failure::Kind(
            ErrorKind::RateLimited,
            "slow sk-secret-1".into(),
            Some(Duration::from_secs(3)),
        ));
        let tool_error = e.downcast_ref::<ToolError>().unwrap();
        assert_eq!(tool_error.kind(), ErrorKind::RateLimited);
        assert_eq!(tool_error.message(), "slow <redacted>");
        assert_eq!(tool_error.retry_after(), Some(Duration::from_secs(3)));
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let mut h = header::HeaderMap::new();
        h.insert(header::RETRY_AFTER, "12".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(12)));
        h.insert(
            header::RETRY_AFTER,
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&h), Some(Duration::ZERO));
    }
}
