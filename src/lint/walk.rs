//! Walking the subschemas of a JSON Schema, with their JSON pointers.

use serde_json::{Map, Value};

/// Deeper than this, a walk stops: no real schema nests so far, and no input
/// can run a walk out of stack.
pub const MAX_WALK_DEPTH: usize = 256;

/// Keywords whose value is one subschema.
pub const SINGLE: &[&str] = &[
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "contains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "items",
];

/// Keywords whose value maps names to subschemas.
pub const MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is a list of subschemas.
pub const LISTS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems", "items"];

/// Keywords that are pure annotations: they never change which values a
/// schema accepts.
pub const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];

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
    /// How many subschemas lie between it and the root.
    pub depth: usize,
}

impl<'a> Node<'a> {
    pub fn map(&self) -> Option<&'a Map<String, Value>> {
        self.value.as_object()
    }

    pub fn is_root(&self) -> bool {
        self.keyword.is_none()
    }
}

/// The direct subschemas of a schema object: (keyword, pointer suffix, value).
pub fn children(map: &Map<String, Value>) -> Vec<(&str, String, &Value)> {
    let mut out = Vec::new();
    for (k, v) in map {
        let k = k.as_str();
        match v {
            Value::Object(m) if MAPS.contains(&k) => {
                for (name, sub) in m {
                    out.push((k, format!("/{}/{}", esc(k), esc(name)), sub));
                }
            }
            Value::Array(items) if LISTS.contains(&k) => {
                for (i, sub) in items.iter().enumerate() {
                    out.push((k, format!("/{}/{i}", esc(k)), sub));
                }
            }
            Value::Object(_) | Value::Bool(_) if SINGLE.contains(&k) => {
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
            depth,
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
