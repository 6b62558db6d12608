//! A tool's `backend` key: its shape (a kind, and the request or command of that kind), with
//! the span of every value. What the values mean (placeholders, methods, URLs, environment
//! variable names) is checked when the tool is resolved (`model::backend`).

use super::{Obj, missing, string, wrong_type};
use crate::diag::{Code, Diagnostic, Span, did_you_mean};
use crate::manifest::node::{Entry, Node, Value};
use crate::manifest::raw::{RawBackend, RawBody, RawHttp, RawSource, Sp};

/// The kinds of backend.
pub const BACKEND_KINDS: &[&str] = &["mock", "http", "command"];
/// The keys of an `http` backend.
pub const HTTP_KEYS: &[&str] = &["method", "url", "query", "headers", "body"];
/// The keys of a value read from the environment.
pub const ENV_KEYS: &[&str] = &["env", "prefix"];

/// The `backend` entry of `owner` (`tool `x``).
pub(super) fn backend(
    e: &Entry,
    owner: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Sp<RawBackend>> {
    let what = format!("the backend of {owner}");
    let node = &e.value;
    let raw = match &node.value {
        Value::String(kind) if kind == "mock" => RawBackend::Mock,
        Value::String(kind) if kind == "http" || kind == "command" => {
            diags.push(
                Diagnostic::new(
                    Code::InvalidBackend,
                    format!("{what} is `{kind}` without its settings"),
                )
                .at(node.span)
                .help(match kind.as_str() {
                    "http" => "write the request: `backend: {http: {method: GET, url: \"https://api.example.com/items/{id}\"}}`",
                    _ => "write the program and its arguments: `backend: {command: [python3, tools/answer.py]}`",
                }),
            );
            return None;
        }
        Value::String(kind) => {
            diags.push(unknown_kind(kind, node.span, &what));
            return None;
        }
        Value::Map(_) => return kind_of_map(node, owner, diags),
        other => {
            diags.push(wrong_type(
                node.span,
                &what,
                "`mock` or a mapping with one of `http` and `command`",
                other,
            ));
            return None;
        }
    };
    Some(Sp::new(raw, node.span))
}

fn unknown_kind(kind: &str, span: Span, what: &str) -> Diagnostic {
    let d = Diagnostic::new(
        Code::UnknownBackend,
        format!("{what} is `{kind}`, which is not a kind of backend"),
    )
    .at(span);
    match did_you_mean(kind, BACKEND_KINDS.iter().copied()) {
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => d.help(
            "a backend is `mock`, `{http: {...}}` (an HTTP request) or `{command: [...]}` (a program)",
        ),
    }
}

/// `{mock: ...}`, `{http: {...}}` or `{command: [...]}`.
fn kind_of_map(node: &Node, owner: &str, diags: &mut Vec<Diagnostic>) -> Option<Sp<RawBackend>> {
    let what = &format!("the backend of {owner}");
    let entries = node.as_map().unwrap_or_default();
    let mut kinds = Vec::new();
    for e in entries {
        if e.key.starts_with("x-") {
            continue;
        }
        if BACKEND_KINDS.contains(&e.key.as_str()) {
            kinds.push(e);
        } else {
            diags.push(unknown_kind(&e.key, e.key_span, what));
        }
    }
    let kind = match kinds.as_slice() {
        [] => {
            if entries.iter().all(|e| e.key.starts_with("x-")) {
                diags.push(
                    Diagnostic::new(Code::InvalidBackend, format!("{what} names no backend"))
                        .at(node.span)
                        .help("write `backend: mock`, `backend: {http: {...}}` or `backend: {command: [...]}`"),
                );
            }
            return None;
        }
        [one] => *one,
        [first, second, ..] => {
            diags.push(
                Diagnostic::new(
                    Code::InvalidBackend,
                    format!(
                        "{what} names two backends, `{}` and `{}`",
                        first.key, second.key
                    ),
                )
                .at(second.key_span)
                .help("a tool has one backend: keep one of them"),
            );
            return None;
        }
    };
    let raw = match kind.key.as_str() {
        "mock" => match &kind.value.value {
            Value::Null => RawBackend::Mock,
            Value::Map(m) if m.is_empty() => RawBackend::Mock,
            other => {
                diags.push(wrong_type(
                    kind.value.span,
                    &format!("`mock` of {what}"),
                    "empty (`backend: mock`)",
                    other,
                ));
                return None;
            }
        },
        "command" => RawBackend::Command(command(kind, what, diags)?),
        _ => RawBackend::Http(http(&kind.value, owner, diags)?),
    };
    Some(Sp::new(raw, node.span))
}

/// The program and its arguments: a list of strings, or one string (a program without
/// arguments).
fn command(e: &Entry, what: &str, diags: &mut Vec<Diagnostic>) -> Option<Vec<Sp<String>>> {
    let field = format!("`command` of {what}");
    let words = match &e.value.value {
        Value::String(s) => vec![Sp::new(s.clone(), e.value.span)],
        Value::Seq(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                match &item.value {
                    Value::String(s) => out.push(Sp::new(s.clone(), item.span)),
                    other => {
                        diags.push(wrong_type(
                            item.span,
                            &format!("each item of {field}"),
                            "a string",
                            other,
                        ));
                        return None;
                    }
                }
            }
            out
        }
        other => {
            diags.push(wrong_type(
                e.value.span,
                &field,
                "a list: the program, then its arguments",
                other,
            ));
            return None;
        }
    };
    if words.first().is_none_or(|w| w.value.trim().is_empty()) {
        diags.push(
            Diagnostic::new(Code::InvalidBackend, format!("{field} names no program"))
                .at(e.value.span)
                .help(
                    "write the program, then its arguments: `command: [python3, tools/answer.py]`",
                ),
        );
        return None;
    }
    Some(words)
}

/// An `http` backend's request.
fn http(node: &Node, owner: &str, diags: &mut Vec<Diagnostic>) -> Option<RawHttp> {
    let what = format!("the `http` request of {owner}");
    let mut o = Obj::new(node, &what, diags)?;
    let method = o.get("method").and_then(|d| string(d, &what, diags));
    if o.get("method").is_none() {
        diags.push(missing(node.span, "method", &what));
    }
    let url = o.get("url").and_then(|d| string(d, &what, diags));
    if o.get("url").is_none() {
        diags.push(missing(node.span, "url", &what));
    }
    let query = o
        .get("query")
        .map(|e| sources(e, &what, diags))
        .unwrap_or_default();
    let headers = o
        .get("headers")
        .map(|e| sources(e, &what, diags))
        .unwrap_or_default();
    let body = o.get("body").and_then(|e| body(e, &what, diags));
    o.finish(&what, HTTP_KEYS, diags);
    Some(RawHttp {
        span: node.span,
        method,
        url,
        query,
        headers,
        body,
    })
}

/// `{name}` written without quotes in YAML is a mapping of `name` to nothing: the placeholder
/// it was meant to be, if it is one.
fn unquoted_placeholder(node: &Node) -> Option<&str> {
    match node.as_map()? {
        [one] if one.value.value == Value::Null => Some(&one.key),
        _ => None,
    }
}

fn quote_it(name: &str, span: Span, field: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidBackend,
        format!("{field} is the mapping `{{{name}: null}}`: YAML reads `{{{name}}}` without quotes as a mapping"),
    )
    .at(span)
    .help(format!("quote the placeholder: `\"{{{name}}}\"`"))
}

/// The entries of `query` or `headers`: each a template or `{env: NAME}`.
fn sources(e: &Entry, what: &str, diags: &mut Vec<Diagnostic>) -> Vec<(Sp<String>, RawSource)> {
    let field = format!("`{}` of {what}", e.key);
    let entries = match &e.value.value {
        Value::Map(entries) => entries,
        other => {
            diags.push(wrong_type(
                e.value.span,
                &field,
                "a mapping of names to values",
                other,
            ));
            return Vec::new();
        }
    };
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let name = Sp::new(entry.key.clone(), entry.key_span);
        let at = format!("`{}` in {field}", entry.key);
        match &entry.value.value {
            Value::String(s) => {
                out.push((
                    name,
                    RawSource::Template(Sp::new(s.clone(), entry.value.span)),
                ));
            }
            Value::Number(n) => {
                out.push((
                    name,
                    RawSource::Template(Sp::new(n.to_string(), entry.value.span)),
                ));
            }
            Value::Map(_) => {
                if let Some(p) = unquoted_placeholder(&entry.value) {
                    diags.push(quote_it(p, entry.value.span, &at));
                    continue;
                }
                if let Some(source) = env(&entry.value, &at, diags) {
                    out.push((name, source));
                }
            }
            other => diags.push(wrong_type(
                entry.value.span,
                &at,
                "text with `{param}` placeholders, or `{env: NAME}`",
                other,
            )),
        }
    }
    out
}

/// `{env: NAME, prefix: "Bearer "}`.
fn env(node: &Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<RawSource> {
    let mut o = Obj::new(node, what, diags)?;
    let name = o.get("env").and_then(|d| string(d, what, diags));
    if o.get("env").is_none() {
        diags.push(missing(node.span, "env", what));
    }
    let prefix = o.get("prefix").and_then(|d| string(d, what, diags));
    o.finish(what, ENV_KEYS, diags);
    Some(RawSource::Env {
        span: node.span,
        name: name?,
        prefix,
    })
}

/// `body: "{param}"`, or a mapping of keys to `"{param}"`s.
fn body(e: &Entry, what: &str, diags: &mut Vec<Diagnostic>) -> Option<RawBody> {
    let field = format!("`body` of {what}");
    let wanted = "`\"{param}\"` or a mapping of keys to `\"{param}\"`s";
    match &e.value.value {
        Value::String(s) => Some(RawBody::Whole(Sp::new(s.clone(), e.value.span))),
        Value::Map(entries) => {
            if let Some(p) = unquoted_placeholder(&e.value) {
                diags.push(quote_it(p, e.value.span, &field));
                return None;
            }
            let mut fields = Vec::with_capacity(entries.len());
            for entry in entries {
                let at = format!("`{}` in {field}", entry.key);
                match &entry.value.value {
                    Value::String(s) => fields.push((
                        Sp::new(entry.key.clone(), entry.key_span),
                        Sp::new(s.clone(), entry.value.span),
                    )),
                    Value::Map(_) if unquoted_placeholder(&entry.value).is_some() => {
                        let p = unquoted_placeholder(&entry.value).unwrap_or_default();
                        diags.push(quote_it(p, entry.value.span, &at));
                    }
                    other => diags.push(wrong_type(entry.value.span, &at, "`\"{param}\"`", other)),
                }
            }
            Some(RawBody::Fields(fields))
        }
        other => {
            diags.push(wrong_type(e.value.span, &field, wanted, other));
            None
        }
    }
}
