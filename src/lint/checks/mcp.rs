//! MCP: the output schema's root and `x-mcp-header`.

use super::cx::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub fn mcp_output_schema_root(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    if cx.role != Role::Returns {
        return;
    }
    let t = cx.root.as_object().map(types).unwrap_or_default();
    if !t.contains(&"object") {
        out.push(
            Spot::at("", "an MCP `outputSchema` must be `type: \"object\"`").with_help(
                "return an object (toolc lists other results without an `outputSchema`)",
            ),
        );
    }
}

pub fn mcp_structured_content_object(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    if cx.role != Role::Returns {
        return;
    }
    let Some(m) = cx.root.as_object() else { return };
    let t = types(m);
    if t.contains(&"object")
        && (t.len() > 1 || accepts_null(m) || m.contains_key("anyOf") || m.contains_key("oneOf"))
    {
        out.push(Spot::at(
            "",
            "this `outputSchema` admits values that are not objects, but `structuredContent` must be an object",
        ));
    }
}

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

pub fn mcp_x_mcp_header(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    if cx.role != Role::Parameters {
        return;
    }
    // Statically reachable: a chain of `properties` from the root.
    let mut reachable = BTreeSet::new();
    fn props(v: &Value, p: &str, depth: usize, acc: &mut BTreeSet<String>) {
        acc.insert(p.to_string());
        if depth > walk::MAX_WALK_DEPTH {
            return;
        }
        if let Some(Value::Object(ps)) = v.get("properties") {
            for (k, sub) in ps {
                props(sub, &format!("{p}/properties/{}", esc(k)), depth + 1, acc);
            }
        }
    }
    props(cx.root, "", 0, &mut reachable);
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    walk::each(cx.root, &mut |n| {
        let Some(m) = n.map() else { return };
        let Some(h) = m.get("x-mcp-header") else {
            return;
        };
        let p = at(n, "x-mcp-header");
        let Some(name) = h.as_str() else {
            out.push(Spot::at(p, "`x-mcp-header` must be a string"));
            return;
        };
        if name.is_empty() || !name.chars().all(is_tchar) {
            out.push(Spot::at(
                p,
                format!("`x-mcp-header: {name:?}` is not an HTTP header token (RFC 9110)"),
            ));
            return;
        }
        let t = types(m);
        if t.len() != 1 || !matches!(t[0], "string" | "integer" | "boolean") {
            out.push(Spot::at(
                p.clone(),
                "`x-mcp-header` is allowed only on a string, integer or boolean property",
            ));
        }
        if !reachable.contains(n.pointer) {
            out.push(Spot::at(
                p.clone(),
                "`x-mcp-header` is not reachable from the root through `properties` alone",
            ));
        }
        let key = name.to_ascii_lowercase();
        if let Some(first) = seen.get(&key) {
            out.push(Spot::at(p, format!("header `{name}` is also named at `{first}`; header names are case-insensitively unique")));
        } else {
            seen.insert(key, n.pointer.to_string());
        }
    });
}
