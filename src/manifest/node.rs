//! The spanned document tree both YAML and TOML files are read into.
//!
//! Every value and every mapping key carries the span it came from, so a
//! problem found anywhere later, deep inside an embedded schema too, points at
//! its own line and column.

use crate::diag::{Code, Diagnostic, Span};
use std::collections::BTreeMap;

/// Files larger than this are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// How deep a manifest may nest. Deep enough for any real schema, shallow
/// enough that no stage can run out of stack.
pub const MAX_DEPTH: usize = 128;

/// How many nodes (keys, values, lists and mappings; in YAML every alias
/// expansion counts again) one manifest file may hold. Far above any real
/// toolset, low enough that no input can make loading slow or large.
pub const MAX_NODES: usize = 250_000;

/// A value with the span it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Span,
    pub value: Value,
}

/// A mapping entry: the key, where the key is, and the value.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Seq(Vec<Node>),
    /// Entries in the order they were written.
    Map(Vec<Entry>),
}

impl Value {
    /// The name of the value's type, as used in "expected …, found …".
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(n) if n.is_f64() => "a number",
            Value::Number(_) => "an integer",
            Value::String(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
}

/// JSON pointer → span of every node of a converted tree.
pub type PointerSpans = BTreeMap<String, Span>;

/// Escapes one JSON-pointer reference token (RFC 6901).
pub fn escape_pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

impl Node {
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// Converts to JSON, recording the span of every node under `pointer`.
    pub fn to_json(&self, pointer: &str, spans: &mut PointerSpans) -> serde_json::Value {
        spans.insert(pointer.to_string(), self.span);
        match &self.value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(n.clone()),
            Value::String(s) => serde_json::Value::String(s.clone()),
            Value::Seq(items) => items
                .iter()
                .enumerate()
                .map(|(i, n)| n.to_json(&format!("{pointer}/{i}"), spans))
                .collect(),
            Value::Map(entries) => {
                let mut map = serde_json::Map::with_capacity(entries.len());
                for e in entries {
                    let p = format!("{pointer}/{}", escape_pointer_token(&e.key));
                    let v = e.value.to_json(&p, spans);
                    map.insert(e.key.clone(), v);
                }
                serde_json::Value::Object(map)
            }
        }
    }
}

impl Node {
    /// A tree from JSON, every node at `span`: for schemas toolc writes
    /// itself and for tests.
    pub fn from_json(v: &serde_json::Value, span: Span) -> Node {
        let value = match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.clone()),
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(items) => {
                Value::Seq(items.iter().map(|i| Node::from_json(i, span)).collect())
            }
            serde_json::Value::Object(map) => Value::Map(
                map.iter()
                    .map(|(k, v)| Entry {
                        key: k.clone(),
                        key_span: span,
                        value: Node::from_json(v, span),
                    })
                    .collect(),
            ),
        };
        Node { span, value }
    }
}

/// The problem of a manifest nesting deeper than [`MAX_DEPTH`], at `span`.
pub(super) fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::TooLarge,
        format!("the manifest nests deeper than {MAX_DEPTH} levels"),
    )
    .at(span)
    .help(
        "flatten the structure, or move nested schemas into `types` and refer to them with `$ref`",
    )
}
