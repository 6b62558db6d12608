//! Walking the subschemas of a JSON Schema, with their JSON pointers.

use crate::model::schema::{Keyword, Shape};
use serde_json::{Map, Value};

/// Deeper than this, a walk stops: the model's one depth limit.
pub const MAX_WALK_DEPTH: usize = crate::model::schema::MAX_DEPTH;

/// Whether a key is an annotation keyword (it never changes which values a
/// schema accepts), by the model's keyword table.
pub fn is_annotation(key: &str) -> bool {
    Keyword::parse(key).is_some_and(Keyword::is_annotation)
}

/// Escapes one JSON-pointer reference token (RFC 6901).
pub fn esc(token: &str) -> String {
    crate::manifest::node::escape_pointer_token(token)
}

/// One subschema met on a walk.
pub struct Node<'a> {
    pub value: &'a Value,
    pub pointer: &'a str,
    /// The keyword it sits under (`properties`, `items`, `anyOf`…), `None`
    /// for the root.
    pub keyword: Option<&'a str>,
}

impl<'a> Node<'a> {
    pub fn map(&self) -> Option<&'a Map<String, Value>> {
        self.value.as_object()
    }

    pub fn is_root(&self) -> bool {
        self.keyword.is_none()
    }
}

/// The direct subschemas of a schema object: (keyword, pointer suffix,
/// value), by the shapes of the model's keyword table. A list under `items`
/// (the draft-07 tuple) counts as a list of subschemas.
pub fn children(map: &Map<String, Value>) -> Vec<(&str, String, &Value)> {
    let mut out = Vec::new();
    for (k, v) in map {
        let Some(shape) = Keyword::parse(k).map(Keyword::shape) else {
            continue;
        };
        let k = k.as_str();
        match (shape, v) {
            (Shape::SchemaMap, Value::Object(m)) => {
                for (name, sub) in m {
                    out.push((k, format!("/{}/{}", esc(k), esc(name)), sub));
                }
            }
            (Shape::SchemaList | Shape::Schema, Value::Array(items))
                if shape == Shape::SchemaList || k == "items" =>
            {
                for (i, sub) in items.iter().enumerate() {
                    out.push((k, format!("/{}/{i}", esc(k)), sub));
                }
            }
            (Shape::Schema, Value::Object(_) | Value::Bool(_)) => {
                out.push((k, format!("/{}", esc(k)), v));
            }
            _ => {}
        }
    }
    out
}

/// Calls `f` on the schema and every subschema, parents first.
pub fn each(schema: &Value, f: &mut dyn FnMut(&Node<'_>)) {
    fn go(
        value: &Value,
        pointer: &str,
        keyword: Option<&str>,
        depth: usize,
        f: &mut dyn FnMut(&Node<'_>),
    ) {
        if depth > MAX_WALK_DEPTH {
            return;
        }
        f(&Node {
            value,
            pointer,
            keyword,
        });
        if let Value::Object(map) = value {
            for (k, suffix, sub) in children(map) {
                go(sub, &format!("{pointer}{suffix}"), Some(k), depth + 1, f);
            }
        }
    }
    go(schema, "", None, 0, f);
}

/// The `type` keyword as a list of type names (empty when absent).
pub fn types(map: &Map<String, Value>) -> Vec<&str> {
    match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The node describes objects: `type` says object, or it has `properties`
/// and no `type`.
pub fn is_object(map: &Map<String, Value>) -> bool {
    let t = types(map);
    t.contains(&"object") || (t.is_empty() && map.contains_key("properties"))
}

/// The node describes arrays.
pub fn is_array(map: &Map<String, Value>) -> bool {
    types(map).contains(&"array")
}

/// The names in a `required` list.
pub fn required(map: &Map<String, Value>) -> Vec<&str> {
    map.get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Resolves a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, or any
/// JSON pointer) against the root.
pub fn resolve_ref<'a>(root: &'a Value, target: &str) -> Option<&'a Value> {
    let pointer = target.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    root.pointer(pointer)
}

/// Does this schema accept `null`?
pub fn accepts_null(map: &Map<String, Value>) -> bool {
    if map.get("nullable") == Some(&Value::Bool(true)) {
        return true;
    }
    let t = types(map);
    if t.contains(&"null") {
        return true;
    }
    if map.get("const") == Some(&Value::Null) {
        return true;
    }
    if let Some(Value::Array(e)) = map.get("enum")
        && e.contains(&Value::Null)
        && t.is_empty()
    {
        return true;
    }
    if let Some(Value::Array(branches)) = map.get("anyOf")
        && branches.iter().any(|b| {
            b.as_object()
                .is_some_and(|m| types(m) == ["null"] && m.len() == 1)
        })
        && t.is_empty()
    {
        return true;
    }
    false
}
