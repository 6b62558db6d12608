//! Embedded JSON Schemas: their JSON with the span of every node, the checks
//! made on them (meta-schema, `$ref`s) and bundling for validation.

use super::NamedType;
use crate::diag::{Code, Diagnostic, Span};
use crate::manifest::node::{Node, PointerSpans};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// How a schema refers to a named type: `$ref: "#/types/Name"`.
pub const TYPE_REF_PREFIX: &str = "#/types/";

/// A JSON Schema from a manifest, with where each of its nodes was written.
/// It serializes as its JSON alone.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Schema {
    pub json: Value,
    /// JSON pointer (relative to this schema) → span.
    #[serde(skip)]
    pub spans: PointerSpans,
    /// The span of the whole schema.
    #[serde(skip)]
    pub span: Span,
}

impl Schema {
    pub fn from_node(node: &Node) -> Schema {
        let mut spans = PointerSpans::new();
        let json = node.to_json("", &mut spans);
        Schema {
            json,
            spans,
            span: node.span,
        }
    }

    /// A schema that was not written (a tool's default parameters): it
    /// points at the tool that lacks it.
    pub fn synthetic(json: Value, span: Span) -> Schema {
        Schema {
            json,
            spans: PointerSpans::new(),
            span,
        }
    }

    /// The span of the node at `pointer`, or of its nearest written parent.
    pub fn span_at(&self, pointer: &str) -> Span {
        let mut p = pointer;
        loop {
            if let Some(s) = self.spans.get(p) {
                return *s;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return self.span,
            }
        }
    }

    /// The named types this schema refers to directly.
    pub fn type_refs(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        collect_refs(&self.json, "", &mut out);
        out
    }
}

/// Keywords whose values are data, not schemas: `$ref`s inside them are not
/// references.
const DATA_KEYWORDS: &[&str] = &["const", "enum", "default", "examples"];

fn collect_refs(v: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let p = format!(
                    "{pointer}/{}",
                    crate::manifest::node::escape_pointer_token(k)
                );
                if k == "$ref" {
                    if let Value::String(target) = child {
                        out.push((p, target.clone()));
                    }
                } else if !DATA_KEYWORDS.contains(&k.as_str()) {
                    collect_refs(child, &p, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                collect_refs(child, &format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Every `pattern` string of a schema, with its JSON pointer.
fn patterns(v: &Value) -> Vec<(String, String)> {
    fn walk(v: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
        match v {
            Value::Object(map) => {
                for (k, child) in map {
                    let p = format!(
                        "{pointer}/{}",
                        crate::manifest::node::escape_pointer_token(k)
                    );
                    match (k.as_str(), child) {
                        ("pattern", Value::String(s)) => out.push((p, s.clone())),
                        (k, _) if DATA_KEYWORDS.contains(&k) => {}
                        _ => walk(child, &p, out),
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    walk(child, &format!("{pointer}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, "", &mut out);
    out
}

/// The first construct of a pattern that a finite-automaton regex engine
/// (the generated validators' `regex` crate) has no support for.
pub fn unsupported_regex_construct(pattern: &str) -> Option<&'static str> {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    let mut in_class = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if let Some(&next) = bytes.get(i + 1)
                    && !in_class
                    && ((next.is_ascii_digit() && next != b'0') || next == b'k')
                {
                    return Some("a back-reference");
                }
                i += 2;
                continue;
            }
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            b'(' if !in_class => {
                let rest = &pattern[i..];
                if rest.starts_with("(?=") || rest.starts_with("(?!") {
                    return Some("a look-ahead");
                }
                if rest.starts_with("(?<=") || rest.starts_with("(?<!") {
                    return Some("a look-behind");
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The type name a `$ref` target names, if it is of the `#/types/X` form.
pub fn ref_type_name(target: &str) -> Option<&str> {
    target.strip_prefix(TYPE_REF_PREFIX)
}

/// Checks a schema against the JSON Schema 2020-12 meta-schema and checks
/// its `$ref`s against the named types. `what` names it in messages.
pub fn check(schema: &Schema, what: &str, types: &BTreeSet<String>, diags: &mut Vec<Diagnostic>) {
    let meta = jsonschema::draft202012::meta::validator();
    for e in meta.iter_errors(&schema.json) {
        let pointer = e.instance_path().as_str().to_string();
        let at = if pointer.is_empty() {
            String::new()
        } else {
            format!(" at `{pointer}`")
        };
        diags.push(
            Diagnostic::new(
                Code::InvalidSchema,
                format!("{what} is not valid JSON Schema 2020-12{at}: {e}"),
            )
            .at(schema.span_at(&pointer))
            .help("see https://json-schema.org/draft/2020-12 for the keywords and their types"),
        );
    }
    for (pointer, pattern) in patterns(&schema.json) {
        if let Some(construct) = unsupported_regex_construct(&pattern) {
            diags.push(
                Diagnostic::new(
                    Code::UnsupportedPattern,
                    format!("{what} has a `pattern` with {construct}, which the generated validators cannot run"),
                )
                .at(schema.span_at(&pointer))
                .help("rewrite the pattern without look-around and back-references (the Rust `regex` syntax), or drop it and say the rule in the description"),
            );
        }
    }
    for (pointer, target) in schema.type_refs() {
        let span = schema.span_at(&pointer);
        match ref_type_name(&target) {
            Some(name) if types.contains(name) => {}
            Some(name) => {
                let mut d = Diagnostic::new(
                    Code::UnresolvedRef,
                    format!("{what} refers to type `{name}`, which is not defined"),
                )
                .at(span);
                d = match crate::diag::did_you_mean(name, types.iter().map(String::as_str)) {
                    Some(s) => d.help(format!("did you mean `{TYPE_REF_PREFIX}{s}`?")),
                    None => d.help("define it under `types:`, or fix the name"),
                };
                diags.push(d);
            }
            None => diags.push(
                Diagnostic::new(
                    Code::UnresolvedRef,
                    format!("{what} has `$ref: {target:?}`, which is not a named type"),
                )
                .at(span)
                .help(format!(
                    "refer to named types as `{TYPE_REF_PREFIX}Name`, defined under `types:`"
                )),
            ),
        }
    }
}

/// The root object of a schema after following `$ref`s to named types.
pub fn deref_root<'a>(json: &'a Value, types: &'a BTreeMap<String, NamedType>) -> &'a Value {
    let mut cur = json;
    for _ in 0..types.len() + 1 {
        match cur
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(ref_type_name)
            .and_then(|n| types.get(n))
        {
            Some(t) => cur = &t.schema.json,
            None => break,
        }
    }
    cur
}

/// Rewrites `#/types/X` refs to `#/$defs/X` in place.
fn rewrite_refs(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                if k == "$ref" {
                    if let Value::String(s) = child
                        && let Some(name) = ref_type_name(s)
                    {
                        *s = format!("#/$defs/{name}");
                    }
                } else if !DATA_KEYWORDS.contains(&k.as_str()) {
                    rewrite_refs(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite_refs),
        _ => {}
    }
}

/// A self-contained schema: refs rewritten to `#/$defs/X`, and `$defs`
/// holding every named type reachable from the root, in name order.
pub fn bundle(root: &Value, types: &BTreeMap<String, NamedType>) -> Value {
    let mut needed = BTreeSet::new();
    let mut stack = Vec::new();
    let mut refs = Vec::new();
    collect_refs(root, "", &mut refs);
    stack.extend(
        refs.into_iter()
            .filter_map(|(_, t)| ref_type_name(&t).map(str::to_string)),
    );
    while let Some(name) = stack.pop() {
        if let Some(t) = types.get(&name)
            && needed.insert(name)
        {
            let mut more = Vec::new();
            collect_refs(&t.schema.json, "", &mut more);
            stack.extend(
                more.into_iter()
                    .filter_map(|(_, t)| ref_type_name(&t).map(str::to_string)),
            );
        }
    }
    let mut out = root.clone();
    rewrite_refs(&mut out);
    if needed.is_empty() {
        return out;
    }
    let mut defs = Map::new();
    for name in needed {
        let mut def = types[&name].schema.json.clone();
        rewrite_refs(&mut def);
        defs.insert(name, def);
    }
    match &mut out {
        Value::Object(map) => {
            map.insert("$defs".to_string(), Value::Object(defs));
            out
        }
        // A boolean root schema cannot hold `$defs`; wrap it.
        other => serde_json::json!({ "allOf": [other.clone()], "$defs": defs }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::FileId;
    use serde_json::json;

    fn schema(v: Value) -> Schema {
        Schema::synthetic(v, Span::new(FileId(0), 0, 0))
    }

    fn named(v: Value) -> NamedType {
        NamedType {
            name: String::new(),
            schema: schema(v),
            span: Span::new(FileId(0), 0, 0),
        }
    }

    #[test]
    fn bundle_collects_reachable_types_transitively() {
        let mut types = BTreeMap::new();
        types.insert(
            "A".into(),
            named(json!({"type": "array", "items": {"$ref": "#/types/B"}})),
        );
        types.insert("B".into(), named(json!({"type": "string"})));
        types.insert("C".into(), named(json!({"type": "string"})));
        let b = bundle(&json!({"$ref": "#/types/A"}), &types);
        assert_eq!(
            b,
            json!({"$ref": "#/$defs/A", "$defs": {
                "A": {"type": "array", "items": {"$ref": "#/$defs/B"}},
                "B": {"type": "string"}
            }})
        );
    }

    #[test]
    fn regex_constructs_the_validators_cannot_run() {
        assert_eq!(
            unsupported_regex_construct("^(?=.*[0-9]).+$"),
            Some("a look-ahead")
        );
        assert_eq!(
            unsupported_regex_construct("(?<!x)y"),
            Some("a look-behind")
        );
        assert_eq!(
            unsupported_regex_construct("(a)\\1"),
            Some("a back-reference")
        );
        assert_eq!(unsupported_regex_construct("^[a-z]+\\d\\\\1[(?=]$"), None);
        assert_eq!(unsupported_regex_construct("^(?:a|b)\\0$"), None);
    }

    #[test]
    fn refs_inside_data_are_not_references() {
        let s = schema(json!({"const": {"$ref": "#/types/X"}, "items": {"$ref": "#/types/Y"}}));
        assert_eq!(
            s.type_refs(),
            vec![("/items/$ref".to_string(), "#/types/Y".to_string())]
        );
    }
}
