//! What answers a tool's calls when `toolc serve` serves the manifest (`backend:`): a mock, an
//! HTTP request, or a program. Resolved from the raw key, every placeholder checked against
//! the tool's parameters, every secret named by the environment variable that holds it.

use crate::diag::{Code, Diagnostic, Span};
use crate::manifest::raw::{RawBackend, RawBody, RawHttp, RawSource, Sp};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// A tool's backend.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Backend {
    /// Answers the tool's examples in turn, else a value generated from `returns`.
    Mock,
    /// A program that reads the arguments as JSON on stdin and answers JSON on stdout.
    Command(Command),
    /// An HTTP request made of the arguments.
    Http(Http),
}

/// A `command` backend.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Command {
    /// The program: found on `PATH` when it names no folder, else relative to `dir`.
    pub program: String,
    pub args: Vec<String>,
    /// The folder of the manifest that names it: where it runs.
    pub dir: PathBuf,
}

/// An `http` backend: the request template.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Http {
    /// `GET`, `POST`, … (upper case).
    pub method: String,
    /// The URL, its placeholders (in the path and query only) filled from required parameters.
    pub url: Template,
    /// Query parameters added to the URL's own, in order.
    pub query: Vec<(String, Source)>,
    /// Headers, in order.
    pub headers: Vec<(String, Source)>,
    /// The body, when written; otherwise the arguments no placeholder names go into a JSON
    /// body (POST, PUT, PATCH) or the query (other methods).
    pub body: Option<Body>,
}

impl Http {
    /// Whether the arguments no placeholder names are sent as a JSON body (else as query
    /// parameters): for a method that has one, unless `body` says what the body is.
    pub fn rest_in_body(&self) -> bool {
        self.body.is_none() && matches!(self.method.as_str(), "POST" | "PUT" | "PATCH")
    }

    /// Every parameter a placeholder names.
    pub fn placed(&self) -> BTreeSet<&str> {
        let mut out: BTreeSet<&str> = self.url.params().collect();
        for (_, s) in self.query.iter().chain(&self.headers) {
            if let Source::Template(t) = s {
                out.extend(t.params());
            }
        }
        match &self.body {
            Some(Body::Whole(p)) => {
                out.insert(p);
            }
            Some(Body::Fields(fields)) => out.extend(fields.iter().map(|(_, p)| p.as_str())),
            None => {}
        }
        out
    }

    /// The environment variables the request reads, each once, in order.
    pub fn env_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for (_, s) in self.query.iter().chain(&self.headers) {
            if let Source::Env { name, .. } = s
                && !out.contains(&name.as_str())
            {
                out.push(name);
            }
        }
        out
    }
}

/// Text with `{param}` placeholders.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Template(pub Vec<Piece>);

/// A part of a [`Template`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Piece {
    Text(String),
    Param(String),
}

impl Template {
    /// The parameters it names, in order.
    pub fn params(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter_map(|p| match p {
            Piece::Param(p) => Some(p.as_str()),
            Piece::Text(_) => None,
        })
    }

    /// The one parameter of a template that is a placeholder and nothing else.
    pub fn single(&self) -> Option<&str> {
        match self.0.as_slice() {
            [Piece::Param(p)] => Some(p),
            _ => None,
        }
    }
}

/// Where a query parameter's or a header's value comes from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Source {
    /// Text, with the arguments' values in its placeholders.
    Template(Template),
    /// An environment variable's value (read once, when the server starts), after `prefix`.
    Env { name: String, prefix: String },
}

/// An `http` backend's `body`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Body {
    /// One argument's value, whole.
    Whole(String),
    /// An object: each key with an argument's value (left out when the argument is absent).
    Fields(Vec<(String, String)>),
}

/// The methods an `http` backend sends.
pub const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// What a backend's placeholders may name: the tool's parameters, and which are required.
pub struct Parameters {
    pub names: Vec<String>,
    pub required: BTreeSet<String>,
}

/// Resolves `raw`, the backend of `what` (`tool `x``), written in a manifest in `dir`.
pub fn resolve(
    raw: &Sp<RawBackend>,
    what: &str,
    params: &Parameters,
    dir: PathBuf,
    diags: &mut Vec<Diagnostic>,
) -> Option<Backend> {
    match &raw.value {
        RawBackend::Mock => Some(Backend::Mock),
        RawBackend::Command(words) => {
            let (program, args) = words.split_first()?;
            Some(Backend::Command(Command {
                program: program.value.clone(),
                args: args.iter().map(|a| a.value.clone()).collect(),
                dir,
            }))
        }
        RawBackend::Http(http) => {
            let before = diags.len();
            let resolved = Checker {
                what: format!("the `http` backend of {what}"),
                params,
                diags,
            }
            .http(http);
            let failed = diags[before..].iter().any(Diagnostic::is_error);
            resolved.filter(|_| !failed).map(Backend::Http)
        }
    }
}

struct Checker<'a> {
    what: String,
    params: &'a Parameters,
    diags: &'a mut Vec<Diagnostic>,
}

impl Checker<'_> {
    fn invalid(&mut self, span: Span, message: String, help: &str) {
        self.diags.push(
            Diagnostic::new(Code::InvalidBackend, message)
                .at(span)
                .help(help.to_string()),
        );
    }

    fn http(&mut self, raw: &RawHttp) -> Option<Http> {
        let method = raw.method.as_ref().and_then(|m| {
            let upper = m.value.trim().to_ascii_uppercase();
            if METHODS.contains(&upper.as_str()) {
                Some(upper)
            } else {
                let message = format!("{} has the method `{}`", self.what, m.value);
                self.invalid(
                    m.span,
                    message,
                    "use one of GET, POST, PUT, PATCH, DELETE, HEAD and OPTIONS",
                );
                None
            }
        });
        let url = raw.url.as_ref().and_then(|u| self.url(u));
        let query = self.sources(&raw.query, "query parameter");
        let headers = self.sources(&raw.headers, "header");
        let body = raw.body.as_ref().and_then(|b| self.body(b));
        Some(Http {
            method: method?,
            url: url?,
            query,
            headers,
            body,
        })
    }

    /// Parses the text of `s` into a template, reporting a brace that opens no placeholder.
    fn template(&mut self, s: &Sp<String>, field: &str) -> Option<Template> {
        match parse_template(&s.value) {
            Ok(t) => Some(t),
            Err(at) => {
                let message = format!(
                    "{field} of {} has a `{{` that opens no placeholder, at byte {at}",
                    self.what
                );
                self.invalid(
                    s.span,
                    message,
                    "write placeholders as `{param}`, naming a parameter of the tool",
                );
                None
            }
        }
    }

    /// Reports each placeholder that names no parameter (or, with `required`, no required
    /// one).
    fn check_params(&mut self, t: &Template, span: Span, field: &str, required: bool) -> bool {
        let mut ok = true;
        for p in t.params() {
            let known = self.params.names.iter().any(|n| n == p);
            let (message, help) = if !known {
                let help = match crate::diag::did_you_mean(
                    p,
                    self.params.names.iter().map(String::as_str),
                ) {
                    Some(s) => format!("did you mean `{{{s}}}`?"),
                    None if self.params.names.is_empty() => {
                        "the tool takes no parameters: declare it under `parameters`".to_string()
                    }
                    None => format!(
                        "the tool's parameters are {}",
                        self.params
                            .names
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                (
                    format!(
                        "the placeholder `{{{p}}}` in {field} of {} names no parameter",
                        self.what
                    ),
                    help,
                )
            } else if required && !self.params.required.contains(p) {
                (
                    format!(
                        "the placeholder `{{{p}}}` in {field} of {} names a parameter that is not required",
                        self.what
                    ),
                    format!(
                        "a URL needs every part: add `{p}` to the parameters' `required`, or send it as a query parameter"
                    ),
                )
            } else {
                continue;
            };
            ok = false;
            self.diags.push(
                Diagnostic::new(Code::BackendPlaceholder, message)
                    .at(span)
                    .help(help),
            );
        }
        ok
    }

    fn url(&mut self, u: &Sp<String>) -> Option<Template> {
        let t = self.template(u, "the URL")?;
        let text = &u.value;
        let lower = text.to_ascii_lowercase();
        let Some(rest) = lower
            .strip_prefix("https://")
            .or_else(|| lower.strip_prefix("http://"))
        else {
            let message = format!(
                "the URL `{text}` of {} is not an `http://` or `https://` URL",
                self.what
            );
            self.invalid(
                u.span,
                message,
                "write the whole URL, such as `https://api.example.com/v1/items/{id}`",
            );
            return None;
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if authority.contains('{') {
            let message = format!(
                "the host of the URL `{text}` of {} comes from a placeholder",
                self.what
            );
            self.invalid(
                u.span,
                message,
                "a model would choose where the request goes: write the host, and put placeholders in the path or query",
            );
            return None;
        }
        if authority.is_empty() {
            let message = format!("the URL `{text}` of {} has no host", self.what);
            self.invalid(
                u.span,
                message,
                "write the host: `https://api.example.com/...`",
            );
            return None;
        }
        if authority.contains('@') {
            let message = format!("the URL `{text}` of {} holds credentials", self.what);
            self.invalid(
                u.span,
                message,
                "a manifest holds no secrets: send them in a header read from the environment (`headers: {Authorization: {env: API_TOKEN}}`)",
            );
            return None;
        }
        if text.contains('#') {
            let message = format!("the URL `{text}` of {} has a fragment", self.what);
            self.invalid(u.span, message, "a fragment is never sent: leave it out");
            return None;
        }
        self.check_params(&t, u.span, "the URL", true).then_some(t)
    }

    fn sources(&mut self, raw: &[(Sp<String>, RawSource)], noun: &str) -> Vec<(String, Source)> {
        let mut out = Vec::with_capacity(raw.len());
        for (name, source) in raw {
            if noun == "header" && !is_token(&name.value) {
                let message = format!("`{}` of {} is not a header name", name.value, self.what);
                self.invalid(
                    name.span,
                    message,
                    "header names are ASCII letters, digits and `!#$%&'*+-.^_`|~`",
                );
                continue;
            }
            let field = format!("the {noun} `{}`", name.value);
            match source {
                RawSource::Template(s) => {
                    let Some(t) = self.template(s, &field) else {
                        continue;
                    };
                    if noun == "header" && t.params().next().is_none() {
                        self.diags.push(
                            Diagnostic::new(
                                Code::InlineHeader,
                                format!("{field} of {} is written in the manifest", self.what),
                            )
                            .at(s.span)
                            .help(format!(
                                "a manifest holds no secrets: read the value from the environment (`{}: {{env: VARIABLE}}`), or from an argument (`\"{{param}}\"`)",
                                name.value
                            )),
                        );
                        continue;
                    }
                    if self.check_params(&t, s.span, &field, false) {
                        out.push((name.value.clone(), Source::Template(t)));
                    }
                }
                RawSource::Env {
                    name: var, prefix, ..
                } => {
                    if !is_env_name(&var.value) {
                        let message = format!(
                            "`{}` ({field} of {}) is not an environment variable name",
                            var.value, self.what
                        );
                        self.invalid(
                            var.span,
                            message,
                            "name the variable that holds the value, such as `API_TOKEN` (letters, digits and `_`, not starting with a digit); never the value itself",
                        );
                        continue;
                    }
                    out.push((
                        name.value.clone(),
                        Source::Env {
                            name: var.value.clone(),
                            prefix: prefix.as_ref().map(|p| p.value.clone()).unwrap_or_default(),
                        },
                    ));
                }
            }
        }
        out
    }

    /// `"{param}"` and nothing else: the parameter.
    fn whole(&mut self, s: &Sp<String>, field: &str) -> Option<String> {
        let t = self.template(s, field)?;
        let Some(p) = t.single().map(str::to_string) else {
            let message = format!("{field} of {} is not one placeholder", self.what);
            self.invalid(
                s.span,
                message,
                "write `\"{param}\"`: the body sends that argument's value as it is",
            );
            return None;
        };
        self.check_params(&t, s.span, field, false).then_some(p)
    }

    fn body(&mut self, raw: &RawBody) -> Option<Body> {
        match raw {
            RawBody::Whole(s) => self.whole(s, "the body").map(Body::Whole),
            RawBody::Fields(fields) => {
                let mut out = Vec::with_capacity(fields.len());
                for (key, value) in fields {
                    let field = format!("the body's `{}`", key.value);
                    if let Some(p) = self.whole(value, &field) {
                        out.push((key.value.clone(), p));
                    }
                }
                Some(Body::Fields(out))
            }
        }
    }
}

/// Text with `{name}` placeholders; the offset of a `{` that opens none (no `}`, or `{}`).
pub fn parse_template(text: &str) -> Result<Template, usize> {
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(i) = rest.find('{') {
        literal.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let Some(end) = after.find('}') else {
            return Err(offset + i);
        };
        let name = &after[..end];
        if name.is_empty() || name.contains('{') {
            return Err(offset + i);
        }
        if !literal.is_empty() {
            pieces.push(Piece::Text(std::mem::take(&mut literal)));
        }
        pieces.push(Piece::Param(name.to_string()));
        let used = i + 1 + end + 1;
        offset += used;
        rest = &rest[used..];
    }
    literal.push_str(rest);
    if !literal.is_empty() {
        pieces.push(Piece::Text(literal));
    }
    Ok(Template(pieces))
}

/// A header name (RFC 9110's `token`).
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// An environment variable name as shells write them.
fn is_env_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates() {
        let t = parse_template("https://a.example/pets/{id}/x?{q}").unwrap();
        assert_eq!(t.params().collect::<Vec<_>>(), ["id", "q"]);
        assert_eq!(parse_template("{id}").unwrap().single(), Some("id"));
        assert_eq!(parse_template("a {b").unwrap_err(), 2);
        assert_eq!(parse_template("a {}").unwrap_err(), 2);
        assert_eq!(
            parse_template("x}y").unwrap().0,
            [Piece::Text("x}y".into())]
        );
    }

    #[test]
    fn names() {
        assert!(is_env_name("API_TOKEN") && is_env_name("_x1"));
        assert!(!is_env_name("1X") && !is_env_name("Bearer abc") && !is_env_name(""));
        assert!(is_token("X-Request-Id") && !is_token("Bad Header"));
    }
}
