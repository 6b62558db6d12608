//! MCP's streamable HTTP transport, to a server on this machine: each message is POSTed to the
//! server's URL accepting `application/json` and `text/event-stream`; the response is read from
//! a JSON body or from the events of a stream; the session the server names in
//! `Mcp-Session-Id` is carried on every later request, with `MCP-Protocol-Version`, and ended
//! with a DELETE.
//!
//! Only `http://` URLs whose host is a loopback address (`127.0.0.0/8`, `[::1]`, `localhost`)
//! are reached: toolc speaks neither TLS nor any authorization, so a server elsewhere would be
//! reached in the clear and without credentials. Proxies from the environment are not used,
//! and redirects are not followed (a redirect could lead off this machine).

use super::{Incoming, Transport, excerpt, incoming, notification_text, request_text, seconds};
use crate::import::Failure;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv6Addr};
use std::time::Duration;
use ureq::http::{Response, Uri};

/// The largest response body read (a tools/list of thousands of tools is a few megabytes).
const MAX_BODY: u64 = 256 * 1024 * 1024;

/// An MCP server reached over streamable HTTP.
pub struct HttpServer {
    agent: ureq::Agent,
    url: String,
    timeout: Duration,
    session: Option<String>,
    protocol: Option<String>,
    closed: bool,
}

/// Why `url` may not be reached, if it may not: not `http://`, or not a loopback host.
pub fn refuse(url: &str) -> Option<Failure> {
    let help_remote = "toolc import reaches only a server on this machine: it has no TLS and sends no credentials, so a remote server would be reached unencrypted and unauthenticated. Save the server's tools/list result with a client you trust and import the file with `toolc import tools-list FILE`";
    let uri: Uri = match url.parse() {
        Ok(u) => u,
        Err(e) => {
            return Some(Failure::io(
                format!("`{url}` is not a URL: {e}"),
                "give the server's MCP endpoint, such as `http://127.0.0.1:8080/mcp`",
            ));
        }
    };
    match uri.scheme_str() {
        Some("http") => {}
        Some("https") => {
            return Some(Failure::io(
                format!("`{url}` is https, which toolc import does not speak"),
                format!(
                    "{help_remote}; a server on this machine is reached over plain `http://` (127.0.0.1, [::1] or localhost)"
                ),
            ));
        }
        _ => {
            return Some(Failure::io(
                format!("`{url}` is not an http:// URL"),
                "give the server's MCP endpoint, such as `http://127.0.0.1:8080/mcp`",
            ));
        }
    }
    let host = uri.host().unwrap_or("");
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
        || bare
            .parse::<Ipv6Addr>()
            .ok()
            .and_then(|ip| ip.to_ipv4_mapped())
            .is_some_and(|ip| ip.is_loopback());
    (!loopback).then(|| {
        Failure::io(
            format!("`{host}` is not this machine (a loopback address)"),
            help_remote,
        )
    })
}

impl HttpServer {
    /// A client of the server at `url`, which [`refuse`] must have let through.
    pub fn new(url: &str, timeout: Duration) -> Self {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .proxy(None)
            .build();
        HttpServer {
            agent: config.into(),
            url: url.to_string(),
            timeout,
            session: None,
            protocol: None,
            closed: false,
        }
    }

    /// POSTs one message; the response to `id` when one is awaited.
    fn post(
        &mut self,
        body: String,
        what: &str,
        id: Option<u64>,
    ) -> Result<Option<Value>, Failure> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session);
        }
        if let Some(protocol) = &self.protocol {
            request = request.header("MCP-Protocol-Version", protocol);
        }
        let response = request.send(body).map_err(|e| self.unreachable(what, &e))?;
        let status = response.status().as_u16();
        if what == "initialize"
            && let Some(session) = header(&response, "mcp-session-id")
        {
            self.session = Some(session);
        }
        let Some(id) = id else {
            return match status {
                200..=299 => Ok(None),
                _ => Err(self.status_failure(what, response)),
            };
        };
        if status != 200 {
            return Err(self.status_failure(what, response));
        }
        let content_type = header(&response, "content-type").unwrap_or_default();
        let media = content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let mut body = response.into_body();
        let reader = body.with_config().limit(MAX_BODY).reader();
        match media.as_str() {
            "text/event-stream" => self.read_events(BufReader::new(reader), id, what).map(Some),
            "application/json" => {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut { reader }, &mut bytes)
                    .map_err(|e| self.read_failure(&e, what))?;
                let message: Value = serde_json::from_slice(&bytes).map_err(|e| {
                    super::not_mcp(format!("its answer to `{what}` is not JSON: {e}"))
                })?;
                let messages = match message {
                    Value::Array(batch) => batch,
                    one => vec![one],
                };
                for message in messages {
                    if let Incoming::Response(r) = incoming(message, id) {
                        return Ok(Some(r));
                    }
                }
                Err(super::not_mcp(format!(
                    "its answer to `{what}` does not respond to the request (id {id})"
                )))
            }
            other => Err(super::not_mcp(format!(
                "it answered `{what}` with `{}`, neither `application/json` nor `text/event-stream`",
                if other.is_empty() {
                    "no Content-Type"
                } else {
                    other
                }
            ))),
        }
    }

    /// Reads server-sent events until the response to `id`.
    fn read_events(
        &mut self,
        mut events: impl BufRead,
        id: u64,
        what: &str,
    ) -> Result<Value, Failure> {
        let mut data = String::new();
        let mut line = String::new();
        loop {
            line.clear();
            let read = events
                .read_line(&mut line)
                .map_err(|e| self.read_failure(&e, what))?;
            if read == 0 {
                return Err(super::not_mcp(format!(
                    "its event stream for `{what}` ended without the response"
                )));
            }
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                // The end of an event: its data is one JSON-RPC message.
                if !data.is_empty() {
                    let message = serde_json::from_str::<Value>(&data).map_err(|e| {
                        super::not_mcp(format!(
                            "an event of its answer to `{what}` is not JSON ({e}): {}",
                            excerpt(&data)
                        ))
                    })?;
                    data.clear();
                    match incoming(message, id) {
                        Incoming::Response(r) => return Ok(r),
                        Incoming::Answer(answer) => {
                            self.post(answer.to_string(), "an answer", None)?;
                        }
                        Incoming::Ignore => {}
                    }
                }
            } else if let Some(rest) = line.strip_prefix("data:") {
                if !data.is_empty() {
                    data.push('\n');
                }
                data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            }
            // `event:`, `id:`, `retry:` and comments say nothing toolc needs.
        }
    }

    /// A response body that could not be read: too slow, or cut off.
    fn read_failure(&self, e: &std::io::Error, what: &str) -> Failure {
        let timed_out = e.kind() == std::io::ErrorKind::TimedOut
            || e.to_string().to_ascii_lowercase().contains("timeout");
        if timed_out {
            return self.timed_out(what);
        }
        Failure::io(
            format!(
                "reading the answer to `{what}` from {} failed: {e}",
                self.url
            ),
            "check that the server is still running",
        )
    }

    fn unreachable(&self, what: &str, e: &ureq::Error) -> Failure {
        if matches!(e, ureq::Error::Timeout(_)) {
            return self.timed_out(what);
        }
        Failure::io(
            format!("cannot send `{what}` to {}: {e}", self.url),
            "start the server first: toolc import mcp --url connects to a server that is running",
        )
    }

    fn timed_out(&self, what: &str) -> Failure {
        Failure::io(
            format!(
                "{} did not answer `{what}` within {}",
                self.url,
                seconds(self.timeout)
            ),
            "a server that needs longer is given more with `--timeout SECONDS`",
        )
    }

    fn status_failure(&self, what: &str, response: Response<ureq::Body>) -> Failure {
        let status = response.status();
        let mut body = response.into_body();
        let text = body
            .with_config()
            .limit(64 * 1024)
            .lossy_utf8(true)
            .read_to_string()
            .unwrap_or_default();
        let shown = if text.trim().is_empty() {
            String::new()
        } else {
            format!(": {}", excerpt(text.trim()))
        };
        let help = match status.as_u16() {
            401 | 403 => {
                "the server wants credentials, which toolc import does not send; save its tools/list result with a client that has them and use `toolc import tools-list FILE`"
            }
            404 if self.session.is_some() => {
                "the server no longer knows the session; run the import again"
            }
            404 | 405 => "check the URL: it is the server's MCP endpoint, often ending in `/mcp`",
            _ => "check the server's own output for why",
        };
        Failure::io(
            format!("{} answered `{what}` with HTTP {status}{shown}", self.url),
            help,
        )
    }
}

/// A response header's value as text.
fn header(response: &Response<ureq::Body>, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

impl Transport for HttpServer {
    fn request(&mut self, id: u64, method: &str, params: Value) -> Result<Value, Failure> {
        self.post(request_text(id, method, &params), method, Some(id))
            .map(Option::unwrap_or_default)
    }

    fn notify(&mut self, method: &str) -> Result<(), Failure> {
        self.post(notification_text(method), method, None)
            .map(|_| ())
    }

    fn negotiated(&mut self, version: &str) {
        self.protocol = Some(version.to_string());
    }

    fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        if let Some(session) = self.session.take() {
            // A server that keeps no sessions may answer 405; either way the session is over.
            let mut request = self
                .agent
                .delete(&self.url)
                .header("Mcp-Session-Id", &session);
            if let Some(protocol) = &self.protocol {
                request = request.header("MCP-Protocol-Version", protocol);
            }
            let _ = request.call();
        }
    }
}
