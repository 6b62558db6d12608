//! SARIF 2.1.0 output, for code-scanning tools.

use crate::diag::{Diagnostic, Severity, SourceMap, Span};
use crate::lint::{Group, named};
use serde_json::{Map, Value, json};
use std::path::Path;

/// The schema a SARIF log names.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// A path as a URI reference: relative paths stay relative (against
/// `%SRCROOT%`), with `/` separators and anything outside the unreserved
/// set percent-encoded.
pub fn path_uri(path: &Path) -> (String, bool) {
    let text = path.to_string_lossy().replace('\\', "/");
    let absolute = text.starts_with('/');
    let mut out = String::new();
    if absolute {
        out.push_str("file://");
    }
    let text = text.strip_prefix("./").unwrap_or(&text);
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    (out, absolute)
}

fn location(sources: &SourceMap, span: Span) -> Value {
    let file = sources.file(span.file);
    let (start_line, start_col) = file.line_col(span.start);
    let (end_line, end_col) = file.line_col(span.end);
    let (uri, absolute) = path_uri(&file.path);
    let mut artifact = json!({ "uri": uri });
    if !absolute {
        artifact["uriBaseId"] = json!("%SRCROOT%");
    }
    json!({
        "physicalLocation": {
            "artifactLocation": artifact,
            "region": {
                "startLine": start_line,
                "startColumn": start_col,
                "endLine": end_line,
                "endColumn": end_col.max(if end_line == start_line { start_col } else { 1 }),
            }
        }
    })
}

struct Rules {
    list: Vec<Value>,
    ids: Vec<&'static str>,
}

impl Rules {
    fn index(&mut self, d: &Diagnostic) -> usize {
        let id = d.id();
        if let Some(i) = self.ids.iter().position(|x| *x == id) {
            return i;
        }
        let descriptor = match d.rule.and_then(named) {
            Some(r) => {
                let dialects: Vec<&str> = r.dialects().iter().map(|d| d.as_str()).collect();
                json!({
                    "id": r.id,
                    "shortDescription": { "text": r.message },
                    "fullDescription": { "text": format!("{} Source: {}.", r.message, r.source) },
                    "help": { "text": r.help },
                    "defaultConfiguration": {
                        "level": level(r.grade(r.dialects().first().copied()).unwrap_or(Severity::Warning)),
                        "enabled": r.default_on,
                    },
                    "properties": { "tags": dialects, "source": r.source },
                })
            }
            // A `toolc diff` change, under the id of its kind.
            None if d.code == crate::diag::Code::Change => json!({
                "id": id,
                "shortDescription": {
                    "text": d.rule.and_then(crate::diff::ChangeKind::parse)
                        .map_or(d.code.summary(), |k| k.summary()),
                },
                "defaultConfiguration": { "level": "error" },
            }),
            None => json!({
                "id": d.code.as_str(),
                "shortDescription": { "text": d.code.summary() },
                "defaultConfiguration": { "level": "error" },
            }),
        };
        self.list.push(descriptor);
        self.ids.push(id);
        self.ids.len() - 1
    }
}

/// A SARIF 2.1.0 log of one run: manifest diagnostics and lint groups.
/// `groups` add their dialects, JSON pointer and tool as result properties.
pub fn log(sources: &SourceMap, diagnostics: &[Diagnostic], groups: &[Group]) -> Value {
    let mut rules = Rules {
        list: Vec::new(),
        ids: Vec::new(),
    };
    let mut results = Vec::new();
    let lint: Vec<(Diagnostic, Option<&Group>)> = diagnostics
        .iter()
        .map(|d| (d.clone(), None))
        .chain(groups.iter().map(|g| (g.to_diagnostic(), Some(g))))
        .collect();
    for (d, g) in &lint {
        let index = rules.index(d);
        let mut text = d.message.clone();
        if let Some(h) = &d.help {
            text.push_str(&format!(" (help: {h})"));
        }
        let mut r = Map::new();
        r.insert("ruleId".into(), json!(d.id()));
        r.insert("ruleIndex".into(), json!(index));
        r.insert("level".into(), json!(level(d.severity)));
        r.insert("message".into(), json!({ "text": text }));
        let mut locations = Vec::new();
        if let Some(span) = d.span {
            locations.push(location(sources, span));
        } else if let Some(p) = &d.path {
            let (uri, absolute) = path_uri(p);
            let mut artifact = json!({ "uri": uri });
            if !absolute {
                artifact["uriBaseId"] = json!("%SRCROOT%");
            }
            locations.push(json!({ "physicalLocation": { "artifactLocation": artifact } }));
        }
        if !locations.is_empty() {
            r.insert("locations".into(), Value::Array(locations));
        }
        let related: Vec<Value> = d
            .secondary
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let mut loc = location(sources, l.span);
                loc["id"] = json!(i);
                loc["message"] = json!({ "text": l.message });
                loc
            })
            .collect();
        if !related.is_empty() {
            r.insert("relatedLocations".into(), Value::Array(related));
        }
        if let Some(g) = g {
            let mut props = Map::new();
            props.insert(
                "dialects".into(),
                json!(g.dialects.iter().map(|d| d.as_str()).collect::<Vec<_>>()),
            );
            props.insert("pointer".into(), json!(g.finding.pointer));
            if let Some(t) = &g.finding.tool {
                props.insert("tool".into(), json!(t));
            }
            if let Some(role) = g.finding.role {
                props.insert("schema".into(), json!(role.as_str()));
            }
            r.insert("properties".into(), Value::Object(props));
        }
        results.push(Value::Object(r));
    }
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "toolc",
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "rules": rules.list,
                }
            },
            "invocations": [{ "executionSuccessful": true }],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}
