//! MCP's streamable HTTP transport (feature `http`), on loopback for a desktop client or
//! on any address behind an [`Authenticator`](crate::auth::Authenticator) for a remote one.
//!
//! Besides MCP (served at every path but the ones below), the server answers:
//!
//! | path | answer |
//! |---|---|
//! | `GET /healthz` | `200 {"status":"ok"}` while the process serves (liveness) |
//! | `GET /readyz` | `200 {"status":"ready"}` when the policy store answers, the authenticator is ready and the server is not shutting down; else `503` with the reasons |
//! | `GET /.well-known/oauth-protected-resource[/<path>]` | the authenticator's protected-resource metadata (RFC 9728), or `404` when it has none |
//!
//! With an authenticator, every request is authenticated before MCP sees it (a session never
//! stands for a caller), and an MCP session is served only to the caller who began it: another
//! caller naming its id is answered `404`, as for a session that does not exist.
//!
//! Every HTTP request is logged once, when its response ends, as an `INFO` event of target
//! `toolc_mcp::access` with the fields `method`, `path`, `status`, `duration_us`, `peer`,
//! `caller`, `session`, `rpc` (the JSON-RPC method), `tool`, `bytes_in` and `auth` (the
//! authentication outcome). Argument values are logged only with
//! [`HttpConfig::log_arguments`].

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::{
    CACHE_CONTROL, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HeaderValue, RETRY_AFTER,
    WWW_AUTHENTICATE,
};
use http::{Method, Request, Response, StatusCode};
use http_body::{Body, Frame, SizeHint};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};
use tokio::task::JoinSet;

use crate::auth::{AuthError, AuthRequest, Authenticator, Identity};
use crate::panic::catch_panic;
use crate::request::CallSlots;
use crate::server::{McpServer, ServeError};
use crate::truncated::Truncated;

/// How a streamable HTTP server authenticates, limits and logs requests.
#[derive(Clone)]
pub struct HttpConfig {
    authenticator: Option<Arc<dyn Authenticator>>,
    allowed_hosts: Option<Vec<String>>,
    max_body_bytes: usize,
    shutdown_grace: Duration,
    stateless: bool,
    log_arguments: bool,
}

impl Default for HttpConfig {
    fn default() -> HttpConfig {
        HttpConfig::new()
    }
}

impl std::fmt::Debug for HttpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpConfig")
            .field("authenticator", &self.authenticator.is_some())
            .field("allowed_hosts", &self.allowed_hosts)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("shutdown_grace", &self.shutdown_grace)
            .field("stateless", &self.stateless)
            .field("log_arguments", &self.log_arguments)
            .finish()
    }
}

impl HttpConfig {
    /// No authenticator (loopback only), request bodies up to 4 MiB, 10 s to finish calls on
    /// shutdown, MCP sessions, no argument values in the access log.
    pub fn new() -> HttpConfig {
        HttpConfig {
            authenticator: None,
            allowed_hosts: None,
            max_body_bytes: 4 * 1024 * 1024,
            shutdown_grace: Duration::from_secs(10),
            stateless: false,
            log_arguments: false,
        }
    }

    /// Authenticates every MCP request with `authenticator` (required on a non-loopback
    /// address). Its caller becomes each call's caller unless the server's caller hook says
    /// otherwise (`McpRequest::identity`).
    pub fn authenticator(self, authenticator: impl Authenticator) -> HttpConfig {
        self.shared_authenticator(Arc::new(authenticator))
    }

    /// [`HttpConfig::authenticator`] with an authenticator already behind an `Arc`.
    pub fn shared_authenticator(mut self, authenticator: Arc<dyn Authenticator>) -> HttpConfig {
        self.authenticator = Some(authenticator);
        self
    }

    /// The `Host` names (or `host:port`) MCP requests may carry; an empty list allows any.
    /// Default: on loopback, `localhost`, `127.0.0.1` and `::1`, plus the host of the
    /// authenticator's resource URL; on another address, that host, or any host when the
    /// authenticator publishes no resource. Health, readiness and metadata paths answer any
    /// host.
    pub fn allowed_hosts<I, S>(mut self, hosts: I) -> HttpConfig
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.allowed_hosts = Some(hosts.into_iter().map(Into::into).collect());
        self
    }

    /// The largest request body read (default 4 MiB); a larger one is answered `413`.
    pub fn max_body_bytes(mut self, bytes: usize) -> HttpConfig {
        self.max_body_bytes = bytes.max(1);
        self
    }

    /// How long calls in flight may run on once shutdown begins (default 10 s); any still
    /// running then are cancelled.
    pub fn shutdown_grace(mut self, grace: Duration) -> HttpConfig {
        self.shutdown_grace = grace;
        self
    }

    /// Serves without MCP sessions (default `false`): every request stands alone, so any
    /// replica behind a load balancer can answer any request, with no sticky routing.
    /// Clients that negotiate the 2026-07-28 protocol are served this way regardless.
    pub fn stateless(mut self, stateless: bool) -> HttpConfig {
        self.stateless = stateless;
        self
    }

    /// Adds the call's argument values to the access log (default `false`: they may hold
    /// personal data).
    pub fn log_arguments(mut self, log: bool) -> HttpConfig {
        self.log_arguments = log;
        self
    }
}

/// Counts requests whose responses have not ended; shutdown waits for it to reach zero.
#[derive(Default)]
struct InFlight {
    count: AtomicUsize,
    idle: Notify,
}

struct InFlightGuard(Arc<InFlight>);

impl InFlightGuard {
    fn new(in_flight: &Arc<InFlight>) -> InFlightGuard {
        in_flight.count.fetch_add(1, Ordering::SeqCst);
        InFlightGuard(Arc::clone(in_flight))
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// How many session owners are kept before ended sessions are pruned.
const OWNERS_PRUNE_AT: usize = 1024;

/// Everything the request handler shares.
struct State {
    server: McpServer,
    service: StreamableHttpService<McpServer, LocalSessionManager>,
    authenticator: Option<Arc<dyn Authenticator>>,
    metadata_json: Option<(Bytes, String)>,
    challenge_base: Option<String>,
    max_body_bytes: usize,
    log_arguments: bool,
    draining: AtomicBool,
    in_flight: Arc<InFlight>,
    /// Each session's call slots, with how many of its requests are in progress.
    sessions: Mutex<HashMap<String, (Arc<Semaphore>, usize)>>,
    /// The caller each session began with, when requests are authenticated: a session is
    /// served only to the caller who started it.
    owners: Mutex<Owners>,
    session_manager: Arc<LocalSessionManager>,
}

/// Session owners, pruned of ended sessions whenever the table doubles.
struct Owners {
    by_session: HashMap<String, String>,
    prune_at: usize,
}

impl McpServer {
    /// Serves the agent over MCP's streamable HTTP on a loopback `listener` until `shutdown`
    /// completes: [`McpServer::serve_http_with`] with [`HttpConfig::new`].
    pub async fn serve_http<F>(self, listener: TcpListener, shutdown: F) -> Result<(), ServeError>
    where
        F: Future<Output = ()> + Send,
    {
        self.serve_http_with(listener, HttpConfig::new(), shutdown)
            .await
    }

    /// Serves the agent over MCP's streamable HTTP on `listener` until `shutdown` completes,
    /// then finishes the calls in flight (within [`HttpConfig::shutdown_grace`]) and ends
    /// every session and connection.
    ///
    /// On a loopback address (`127.0.0.1`, `::1`) an authenticator is optional, and requests
    /// whose `Host` is not a loopback name are refused (against DNS rebinding). On any other
    /// address the server refuses to start without [`HttpConfig::authenticator`]. TLS is the
    /// job of a reverse proxy in front (see the README's deployment section).
    ///
    /// The caller hook sees the HTTP request's parts (headers included) in
    /// `request.context().extensions`, as an `http::request::Parts`, and the authenticated
    /// caller as `request.identity()`.
    pub async fn serve_http_with<F>(
        self,
        listener: TcpListener,
        config: HttpConfig,
        shutdown: F,
    ) -> Result<(), ServeError>
    where
        F: Future<Output = ()> + Send,
    {
        let addr = listener
            .local_addr()
            .map_err(|e| ServeError(format!("the listener has no address: {e}")))?;
        check_authenticated(addr, config.authenticator.is_some())?;
        let (state, sessions_end) = self.into_http_state(addr, &config);
        // Fetch what the authenticator needs (a key set) before the first request; a failure
        // here is not fatal, the readiness probe reports it.
        if let Some(authenticator) = &state.authenticator
            && let Err(e) = authenticator.ready().await
        {
            tracing::warn!(target: "toolc_mcp::access", error = %e, "the authenticator is not ready yet");
        }

        let stop = tokio_util::sync::CancellationToken::new();
        let connections = accept_until(listener, shutdown, &state, &stop).await;
        // Shutdown: refuse new connections and requests, let calls in flight finish within
        // the grace period, then end the sessions (and their streams) and the connections.
        state.draining.store(true, Ordering::SeqCst);
        stop.cancel();
        drain(&state, config.shutdown_grace).await;
        sessions_end.cancel();
        close(connections).await;
        Ok(())
    }

    /// What every connection of [`McpServer::serve_http_with`] shares, and the token that ends
    /// its MCP sessions.
    fn into_http_state(
        self,
        addr: SocketAddr,
        config: &HttpConfig,
    ) -> (Arc<State>, tokio_util::sync::CancellationToken) {
        let resource = config
            .authenticator
            .as_ref()
            .and_then(|a| a.protected_resource().cloned());
        let hosts = allowed_hosts(addr, config, resource.as_ref());
        let mut rmcp_config = StreamableHttpServerConfig::default()
            .with_max_request_body_bytes(config.max_body_bytes)
            .with_legacy_session_mode(!config.stateless)
            .with_json_response(config.stateless);
        rmcp_config = if hosts.is_empty() {
            rmcp_config.disable_allowed_hosts()
        } else {
            rmcp_config.with_allowed_hosts(hosts)
        };
        let sessions_end = rmcp_config.cancellation_token.clone();
        let factory = self.clone();
        let session_manager = Arc::new(LocalSessionManager::default());
        let service = StreamableHttpService::new(
            move || Ok(factory.clone()),
            Arc::clone(&session_manager),
            rmcp_config,
        );
        let metadata_json = resource.as_ref().map(|r| {
            let body = serde_json::to_vec(r).unwrap_or_default();
            (Bytes::from(body), r.path().trim_end_matches('/').to_owned())
        });
        let state = Arc::new(State {
            server: self,
            service,
            challenge_base: resource
                .as_ref()
                .map(|r| format!("Bearer resource_metadata=\"{}\"", r.metadata_url())),
            authenticator: config.authenticator.clone(),
            metadata_json,
            max_body_bytes: config.max_body_bytes,
            log_arguments: config.log_arguments,
            draining: AtomicBool::new(false),
            in_flight: Arc::new(InFlight::default()),
            sessions: Mutex::new(HashMap::new()),
            owners: Mutex::new(Owners {
                by_session: HashMap::new(),
                prune_at: OWNERS_PRUNE_AT,
            }),
            session_manager,
        });
        (state, sessions_end)
    }
}

/// Completes when the process is asked to stop: on SIGTERM (what a process manager or a
/// container runtime sends) or on Ctrl-C. It is the `shutdown` of
/// [`McpServer::serve_http_with`] for a server run as a service; where no signal can be
/// listened for, it never completes.
pub async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = terminate.recv() => {}
                () = interrupt => {}
            }
            return;
        }
    }
    interrupt.await;
}

/// Serves each connection `listener` accepts until `shutdown` completes, then closes the
/// listener; the connections still open are returned.
async fn accept_until<F: Future<Output = ()> + Send>(
    listener: TcpListener,
    shutdown: F,
    state: &Arc<State>,
    stop: &tokio_util::sync::CancellationToken,
) -> JoinSet<()> {
    let mut connections = JoinSet::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let next = std::future::poll_fn(|cx| {
            if shutdown.as_mut().poll(cx).is_ready() {
                return Poll::Ready(None);
            }
            // Reap finished connections so the set does not grow with every one served.
            while let Poll::Ready(Some(_)) = connections.poll_join_next(cx) {}
            listener.poll_accept(cx).map(Some)
        })
        .await;
        match next {
            None => break,
            Some(Ok((stream, peer))) => {
                connections.spawn(serve_connection(
                    stream,
                    peer,
                    Arc::clone(state),
                    stop.clone(),
                ));
            }
            // A failed accept (out of descriptors, a reset before accept) ends only that
            // connection.
            Some(Err(e)) => tracing::warn!(error = %e, "MCP HTTP accept failed"),
        }
    }
    connections
}

/// Waits, at most `grace`, for the calls in flight to finish.
async fn drain(state: &State, grace: Duration) {
    let deadline = tokio::time::Instant::now() + grace;
    loop {
        let idle = state.in_flight.idle.notified();
        if state.in_flight.count.load(Ordering::SeqCst) == 0 {
            break;
        }
        if tokio::time::timeout_at(deadline, idle).await.is_err() {
            tracing::warn!(
                target: "toolc_mcp::access",
                in_flight = state.in_flight.count.load(Ordering::SeqCst),
                "shutdown grace period over; cancelling the calls still running"
            );
            break;
        }
    }
}

/// Lets the connections close within a second, then ends those still open.
async fn close(mut connections: JoinSet<()>) {
    let closing = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(Duration::from_secs(1), closing)
        .await
        .is_err()
    {
        connections.shutdown().await;
    }
}

/// A non-loopback address needs an authenticator: nothing else says who a remote peer is.
fn check_authenticated(addr: SocketAddr, authenticated: bool) -> Result<(), ServeError> {
    if addr.ip().is_loopback() || authenticated {
        Ok(())
    } else {
        Err(ServeError(format!(
            "refusing to serve MCP over HTTP on {addr} without an authenticator: anyone who can \
             reach that address could call every tool; set one with \
             `HttpConfig::authenticator` (a `JwtValidator` for OAuth bearer tokens, or your own \
             `Authenticator`), or bind a loopback address (127.0.0.1 or ::1)"
        )))
    }
}

fn allowed_hosts(
    addr: SocketAddr,
    config: &HttpConfig,
    resource: Option<&crate::auth::ProtectedResource>,
) -> Vec<String> {
    if let Some(hosts) = &config.allowed_hosts {
        return hosts.clone();
    }
    let mut hosts = Vec::new();
    if addr.ip().is_loopback() {
        hosts.extend(["localhost", "127.0.0.1", "::1", "[::1]"].map(String::from));
    }
    if let Some(resource) = resource {
        let origin = resource.origin();
        let authority = origin.split_once("://").map_or(origin, |(_, a)| a);
        let host = match authority.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or(v6),
            None => authority.split(':').next().unwrap_or(authority),
        };
        if !host.is_empty() && !hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
            hosts.push(host.to_ascii_lowercase());
        }
    }
    hosts
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    state: Arc<State>,
    stop: tokio_util::sync::CancellationToken,
) {
    // An event stream is written in several small writes (its headers, each event, its end):
    // with Nagle's algorithm on, a write waits for the peer's (delayed) ACK of the one before,
    // some 40 ms on Linux, for every answer in a session.
    if let Err(e) = stream.set_nodelay(true) {
        tracing::debug!(error = %e, "MCP HTTP connection: TCP_NODELAY not set");
    }
    let slots = CallSlots(Arc::new(Semaphore::new(state.server.max_calls)));
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let state = Arc::clone(&state);
        let slots = slots.clone();
        async move { Ok::<_, Infallible>(handle(state, request, peer, slots).await) }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(30));
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    let mut connection = pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        () = stop.cancelled() => {
            // Finish the response in progress (if any), then close.
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(e) = result {
        tracing::debug!(error = %e, "MCP HTTP connection ended with an error");
    }
}

type HttpBody = BoxBody<Bytes, Infallible>;

/// What the access log records of one request.
struct Record {
    start: Instant,
    method: Method,
    path: String,
    peer: SocketAddr,
    status: u16,
    caller: Option<String>,
    session: Option<String>,
    rpc: Option<String>,
    tool: Option<String>,
    arguments: Option<String>,
    bytes_in: usize,
    auth: &'static str,
}

impl Record {
    fn emit(&self) {
        let dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".to_owned());
        match &self.arguments {
            None => tracing::info!(
                target: "toolc_mcp::access",
                method = %self.method,
                path = %self.path,
                status = self.status,
                duration_us = u64::try_from(self.start.elapsed().as_micros()).unwrap_or(u64::MAX),
                peer = %self.peer,
                caller = %dash(&self.caller),
                session = %dash(&self.session),
                rpc = %dash(&self.rpc),
                tool = %dash(&self.tool),
                bytes_in = self.bytes_in,
                auth = %self.auth,
                "mcp http request"
            ),
            Some(arguments) => tracing::info!(
                target: "toolc_mcp::access",
                method = %self.method,
                path = %self.path,
                status = self.status,
                duration_us = u64::try_from(self.start.elapsed().as_micros()).unwrap_or(u64::MAX),
                peer = %self.peer,
                caller = %dash(&self.caller),
                session = %dash(&self.session),
                rpc = %dash(&self.rpc),
                tool = %dash(&self.tool),
                bytes_in = self.bytes_in,
                auth = %self.auth,
                arguments = %arguments,
                "mcp http request"
            ),
        }
    }
}

/// Logs its record, and ends its in-flight count, when the response body ends or is dropped.
struct Completion {
    record: Record,
    _in_flight: Option<InFlightGuard>,
    _session_slots: Option<SessionSlotsGuard>,
}

impl Drop for Completion {
    fn drop(&mut self) {
        self.record.emit();
    }
}

/// A response body that completes its request when it ends.
struct Tracked {
    inner: HttpBody,
    completion: Option<Completion>,
}

impl Body for Tracked {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(None) = polled {
            self.completion = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Drops the session's slots from the table once no request of it is left.
struct SessionSlotsGuard {
    state: Arc<State>,
    session: String,
}

impl Drop for SessionSlotsGuard {
    fn drop(&mut self) {
        let mut sessions = self
            .state
            .sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some((_, users)) = sessions.get_mut(&self.session) {
            *users -= 1;
            if *users == 0 {
                sessions.remove(&self.session);
            }
        }
    }
}

fn text_response(status: StatusCode, text: impl Into<String>) -> Response<HttpBody> {
    let mut response = Response::new(Full::new(Bytes::from(text.into())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

fn json_response(status: StatusCode, body: Bytes) -> Response<HttpBody> {
    let mut response = Response::new(Full::new(body).boxed());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// A quoted-string parameter value (RFC 9110 §5.6.4): printable ASCII, `"` and `\` escaped.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in Truncated(text).to_string().chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => out.push('?'),
        }
    }
    out.push('"');
    out
}

/// The answer to a request that did not authenticate, as RFC 6750 §3 and the MCP
/// authorization specification ask: the status, and a `WWW-Authenticate` challenge naming
/// the resource metadata.
fn auth_failure(state: &State, error: &AuthError) -> Response<HttpBody> {
    let (status, params) = match error {
        AuthError::Missing => (StatusCode::UNAUTHORIZED, Vec::new()),
        AuthError::InvalidToken(m) => (
            StatusCode::UNAUTHORIZED,
            vec![
                ("error", quoted("invalid_token")),
                ("error_description", quoted(m)),
            ],
        ),
        AuthError::InsufficientScope { scope, description } => (
            StatusCode::FORBIDDEN,
            vec![
                ("error", quoted("insufficient_scope")),
                ("scope", quoted(scope)),
                ("error_description", quoted(description)),
            ],
        ),
        AuthError::BadRequest(m) => (
            StatusCode::BAD_REQUEST,
            vec![
                ("error", quoted("invalid_request")),
                ("error_description", quoted(m)),
            ],
        ),
        AuthError::Unavailable(m) => {
            let mut response = text_response(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("Service Unavailable: {m}"),
            );
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from_static("5"));
            return response;
        }
    };
    let mut challenge = state
        .challenge_base
        .clone()
        .unwrap_or_else(|| "Bearer".to_owned());
    for (i, (name, value)) in params.iter().enumerate() {
        let separator = if i == 0 && state.challenge_base.is_none() {
            " "
        } else {
            ", "
        };
        challenge.push_str(separator);
        challenge.push_str(name);
        challenge.push('=');
        challenge.push_str(value);
    }
    let body = json!({
        "error": match status {
            StatusCode::FORBIDDEN => "insufficient_scope",
            StatusCode::BAD_REQUEST => "invalid_request",
            _ if matches!(error, AuthError::Missing) => "unauthorized",
            _ => "invalid_token",
        },
        "error_description": error.to_string(),
    });
    let mut response = json_response(status, Bytes::from(body.to_string()));
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

/// What the access log reads of a JSON-RPC message: its method and, for `tools/call`, the
/// tool's name (and the arguments, only when asked to log them).
#[derive(Deserialize)]
struct Peek {
    method: Option<String>,
    params: Option<PeekParams>,
}

#[derive(Deserialize)]
struct PeekParams {
    name: Option<String>,
    arguments: Option<Value>,
}

async fn handle(
    state: Arc<State>,
    request: Request<Incoming>,
    peer: SocketAddr,
    connection_slots: CallSlots,
) -> Response<HttpBody> {
    let start = Instant::now();
    let (parts, body) = request.into_parts();
    let mut record = Record {
        start,
        method: parts.method.clone(),
        path: Truncated(parts.uri.path()).to_string(),
        peer,
        status: 0,
        caller: None,
        session: parts
            .headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(|s| Truncated(s).to_string()),
        rpc: None,
        tool: None,
        arguments: None,
        bytes_in: 0,
        auth: "none",
    };
    let in_flight = (parts.method != Method::GET).then(|| InFlightGuard::new(&state.in_flight));
    let mut session_slots = None;
    let response = route(
        &state,
        parts,
        body,
        peer,
        connection_slots,
        &mut record,
        &mut session_slots,
    )
    .await;
    record.status = response.status().as_u16();
    if record.session.is_none() {
        // The session an `initialize` just began.
        record.session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(|s| Truncated(s).to_string());
    }
    let (head, inner) = response.into_parts();
    let body = Tracked {
        inner,
        completion: Some(Completion {
            record,
            _in_flight: in_flight,
            _session_slots: session_slots,
        }),
    };
    Response::from_parts(head, body.boxed())
}

async fn route(
    state: &Arc<State>,
    mut parts: http::request::Parts,
    body: Incoming,
    peer: SocketAddr,
    connection_slots: CallSlots,
    record: &mut Record,
    session_slots: &mut Option<SessionSlotsGuard>,
) -> Response<HttpBody> {
    if let Some(response) = answered_without_mcp(state, &parts).await {
        return response;
    }
    let owner = match authenticate(state, &mut parts, peer, record).await {
        Ok(owner) => owner,
        Err(response) => return response,
    };
    let bytes = match read_body(state, &parts, body).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    record.bytes_in = bytes.len();
    if parts.method == Method::POST {
        record_call(state, &bytes, record);
    }
    // Calls of one session count together wherever they arrive; others per connection.
    let slots = match &record.session {
        Some(session) => session_call_slots(state, session, session_slots),
        None => connection_slots,
    };
    parts.extensions.insert(slots);

    let method = parts.method.clone();
    let asked_session = session_header(&parts).map(str::to_owned);
    let request = Request::from_parts(parts, Full::new(bytes));
    let response = state.service.handle(request).await;
    if let Some(owner) = owner {
        let began = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok());
        match (asked_session, began) {
            (None, Some(session)) => state.record_owner(session, owner).await,
            (Some(session), _) if method == Method::DELETE && response.status().is_success() => {
                state.lock_owners().by_session.remove(&session);
            }
            _ => {}
        }
    }
    response
}

/// The answers that need no MCP: health, readiness, the protected-resource metadata, and
/// refusal while draining.
async fn answered_without_mcp(
    state: &Arc<State>,
    parts: &http::request::Parts,
) -> Option<Response<HttpBody>> {
    let path = parts.uri.path();
    if parts.method == Method::GET {
        match path {
            "/healthz" => {
                return Some(json_response(
                    StatusCode::OK,
                    Bytes::from_static(b"{\"status\":\"ok\"}"),
                ));
            }
            "/readyz" => return Some(readiness(state).await),
            _ => {}
        }
        if let Some(rest) = path.strip_prefix("/.well-known/oauth-protected-resource") {
            return Some(match &state.metadata_json {
                Some((json, resource_path)) if rest.is_empty() || rest == resource_path => {
                    let mut response = json_response(StatusCode::OK, json.clone());
                    let headers = response.headers_mut();
                    headers.insert("access-control-allow-origin", HeaderValue::from_static("*"));
                    headers.insert(CACHE_CONTROL, HeaderValue::from_static("max-age=3600"));
                    response
                }
                _ => text_response(StatusCode::NOT_FOUND, "Not Found"),
            });
        }
    }
    if state.draining.load(Ordering::SeqCst) {
        let mut response = text_response(
            StatusCode::SERVICE_UNAVAILABLE,
            "Service Unavailable: the server is shutting down; retry on another replica",
        );
        let headers = response.headers_mut();
        headers.insert(RETRY_AFTER, HeaderValue::from_static("1"));
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
        return Some(response);
    }
    None
}

/// Runs the authenticator, if there is one: the caller's id (the owner of any session the
/// request begins), or the response that refuses the request. The identity goes into the
/// request's extensions for the caller hook.
async fn authenticate(
    state: &Arc<State>,
    parts: &mut http::request::Parts,
    peer: SocketAddr,
    record: &mut Record,
) -> Result<Option<String>, Response<HttpBody>> {
    let Some(authenticator) = &state.authenticator else {
        return Ok(None);
    };
    let outcome = {
        let request = AuthRequest::new(parts, peer);
        // A panicking authenticator fails this request only.
        catch_panic(authenticator.authenticate(&request)).await
    };
    match outcome {
        Ok(Ok(identity)) => {
            record.auth = "ok";
            record.caller = Some(Truncated(&identity.caller.id).to_string());
            if let Some(session) = session_header(parts)
                && !state.owned_by(session, &identity.caller.id)
            {
                // Another caller's session: answered as if it did not exist.
                record.auth = "not_session_owner";
                return Err(text_response(
                    StatusCode::NOT_FOUND,
                    "Not Found: Session not found",
                ));
            }
            let owner = identity.caller.id.clone();
            parts.extensions.insert::<Identity>(identity);
            Ok(Some(owner))
        }
        Ok(Err(error)) => {
            record.auth = match error {
                AuthError::Missing => "missing",
                AuthError::InvalidToken(_) => "invalid_token",
                AuthError::InsufficientScope { .. } => "insufficient_scope",
                AuthError::BadRequest(_) => "invalid_request",
                AuthError::Unavailable(_) => "unavailable",
            };
            Err(auth_failure(state, &error))
        }
        Err(_) => {
            record.auth = "panicked";
            Err(text_response(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Internal Server Error: the authenticator failed",
            ))
        }
    }
}

/// The body, read whole (up to the limit) so that its size is checked before MCP sees it.
async fn read_body(
    state: &State,
    parts: &http::request::Parts,
    body: Incoming,
) -> Result<Bytes, Response<HttpBody>> {
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let too_large = || {
        text_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "Payload Too Large: the request body exceeds {} bytes",
                state.max_body_bytes
            ),
        )
    };
    if declared.is_some_and(|n| n > state.max_body_bytes as u64) {
        return Err(too_large());
    }
    let read = tokio::time::timeout(
        Duration::from_secs(30),
        Limited::new(body, state.max_body_bytes).collect(),
    )
    .await;
    match read {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(e)) => Err(text_response(
            StatusCode::BAD_REQUEST,
            format!("Bad Request: the request body could not be read: {e}"),
        )),
        Err(_) => Err(text_response(
            StatusCode::REQUEST_TIMEOUT,
            "Request Timeout: the request body did not arrive within 30 s",
        )),
    }
}

/// Notes in the access log what a POST asks for: the JSON-RPC method, the tool of a
/// `tools/call`, and its arguments when the server logs them (sensitive ones masked).
fn record_call(state: &State, bytes: &[u8], record: &mut Record) {
    let Ok(peek) = serde_json::from_slice::<Peek>(bytes) else {
        return;
    };
    record.rpc = peek.method.map(|m| Truncated(&m).to_string());
    if record.rpc.as_deref() == Some("tools/call")
        && let Some(params) = peek.params
    {
        record.tool = params.name.map(|n| Truncated(&n).to_string());
        if state.log_arguments {
            // What the tool's parameters schema marks sensitive is masked; arguments for
            // a name the server does not serve are logged as sent.
            let schema = record
                .tool
                .as_deref()
                .and_then(|name| state.server.agent().descriptor(name))
                .map(|d| d.parameters);
            record.arguments = params.arguments.map(|a| match schema {
                Some(s) => toolc_runtime::preview_with_limit(&s.redact(&a), 4096),
                None => toolc_runtime::preview_with_limit(&a, 4096),
            });
        }
    }
}

/// The call slots of `session`, shared by its requests wherever they arrive; the guard left in
/// `session_slots` gives them back when the request ends.
fn session_call_slots(
    state: &Arc<State>,
    session: &str,
    session_slots: &mut Option<SessionSlotsGuard>,
) -> CallSlots {
    let mut sessions = state.sessions.lock().unwrap_or_else(|p| p.into_inner());
    let (slots, users) = sessions
        .entry(session.to_owned())
        .or_insert_with(|| (Arc::new(Semaphore::new(state.server.max_calls)), 0));
    *users += 1;
    let slots = Arc::clone(slots);
    drop(sessions);
    *session_slots = Some(SessionSlotsGuard {
        state: Arc::clone(state),
        session: session.to_owned(),
    });
    CallSlots(slots)
}

fn session_header(parts: &http::request::Parts) -> Option<&str> {
    parts
        .headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
}

impl State {
    fn lock_owners(&self) -> std::sync::MutexGuard<'_, Owners> {
        self.owners.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `caller` may use `session`: it began it, or nobody is recorded for it (an
    /// unknown session, which MCP answers itself).
    fn owned_by(&self, session: &str, caller: &str) -> bool {
        self.lock_owners()
            .by_session
            .get(session)
            .is_none_or(|owner| owner == caller)
    }

    async fn record_owner(&self, session: &str, caller: String) {
        let due = {
            let mut owners = self.lock_owners();
            owners.by_session.insert(session.to_owned(), caller);
            owners.by_session.len() >= owners.prune_at
        };
        if !due {
            return;
        }
        // Forget the owners of sessions that have ended (closed, expired, or cut by shutdown).
        let known: Vec<String> = self.lock_owners().by_session.keys().cloned().collect();
        let mut ended = Vec::new();
        for id in known {
            let live =
                rmcp::transport::streamable_http_server::session::SessionManager::has_session(
                    &*self.session_manager,
                    &Arc::from(id.as_str()),
                )
                .await
                .unwrap_or(true);
            if !live {
                ended.push(id);
            }
        }
        let mut owners = self.lock_owners();
        for id in ended {
            owners.by_session.remove(&id);
        }
        owners.prune_at = (owners.by_session.len() * 2).max(OWNERS_PRUNE_AT);
    }
}

async fn readiness(state: &State) -> Response<HttpBody> {
    let mut reasons = Vec::new();
    if state.draining.load(Ordering::SeqCst) {
        reasons.push("the server is shutting down".to_owned());
    }
    if let Some(store) = &state.server.store
        && let Err(e) = store.ping().await
    {
        tracing::warn!(target: "toolc_mcp::access", error = %e, "readiness: the policy store does not answer");
        reasons.push("the policy store does not answer".to_owned());
    }
    if let Some(authenticator) = &state.authenticator
        && let Err(e) = authenticator.ready().await
    {
        tracing::warn!(target: "toolc_mcp::access", error = %e, "readiness: the authenticator is not ready");
        reasons.push("the authenticator is not ready".to_owned());
    }
    if reasons.is_empty() {
        json_response(
            StatusCode::OK,
            Bytes::from_static(b"{\"status\":\"ready\"}"),
        )
    } else {
        let body = json!({"status": "not_ready", "reasons": reasons});
        json_response(
            StatusCode::SERVICE_UNAVAILABLE,
            Bytes::from(body.to_string()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_addresses_need_an_authenticator() {
        assert!(check_authenticated("127.0.0.1:8080".parse().expect("addr"), false).is_ok());
        assert!(check_authenticated("[::1]:8080".parse().expect("addr"), false).is_ok());
        let refused =
            check_authenticated("0.0.0.0:8080".parse().expect("addr"), false).expect_err("any");
        assert!(
            refused.to_string().contains("HttpConfig::authenticator"),
            "{refused}"
        );
        assert!(check_authenticated("192.0.2.1:80".parse().expect("addr"), false).is_err());
        assert!(check_authenticated("0.0.0.0:8080".parse().expect("addr"), true).is_ok());
    }

    #[test]
    fn allowed_hosts_follow_the_address_and_resource() {
        let resource = crate::auth::ProtectedResource::new(
            "https://MCP.example.com:8443/mcp",
            ["https://auth.example.com"],
        );
        let loopback: SocketAddr = "127.0.0.1:1".parse().expect("addr");
        let remote: SocketAddr = "0.0.0.0:1".parse().expect("addr");
        let config = HttpConfig::new();
        assert_eq!(
            allowed_hosts(loopback, &config, None),
            ["localhost", "127.0.0.1", "::1", "[::1]"]
        );
        assert_eq!(
            allowed_hosts(remote, &config, Some(&resource)),
            ["mcp.example.com"]
        );
        assert!(allowed_hosts(remote, &config, None).is_empty());
        let listed = config.allowed_hosts(["a.example"]);
        assert_eq!(
            allowed_hosts(remote, &listed, Some(&resource)),
            ["a.example"]
        );
    }

    #[test]
    fn challenge_values_are_quoted_and_printable() {
        assert_eq!(quoted("a \"b\" \\ c"), r#""a \"b\" \\ c""#);
        assert_eq!(quoted("tab\there é"), "\"tab?here ?\"");
    }
}
