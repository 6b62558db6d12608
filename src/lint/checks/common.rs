//! Rules of more than one provider: structural validity, the root's shape, `$ref`s
//! and recursion, tuples, and the dialect-independent checks of the manifest's schema.

use super::cx::*;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

pub(super) fn string_length(n: &Node<'_>, what: &str, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    for k in ["minLength", "maxLength"] {
        if m.contains_key(k) {
            out.push(
                Spot::at(at(n, k), format!("`{k}` is not supported in {what}"))
                    .with_help(format!("remove `{k}`, {OR_DESCRIBE}")),
            );
        }
    }
}

pub(super) fn format_check(n: &Node<'_>, allowed: &[&str], what: &str, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(f) = m.get("format") {
        let ok = f.as_str().is_some_and(|f| allowed.contains(&f));
        if !ok {
            out.push(
                Spot::at(
                    at(n, "format"),
                    format!("`format: {}` is not a format {what} accepts", show(f)),
                )
                .with_help(format!(
                    "use one of {}, or drop `format`; {OR_DESCRIBE}",
                    allowed.join(", ")
                )),
            );
        }
    }
}

pub fn ref_with_siblings(cx: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if !m.contains_key("$ref") {
        return;
    }
    let bad: Vec<&str> = m
        .keys()
        .map(String::as_str)
        .filter(|k| *k != "$ref")
        .filter(|k| match cx.dialect {
            Dialect::GeminiVertex => !matches!(*k, "description" | "default"),
            Dialect::GeminiJsonSchema => !k.starts_with('$'),
            // The root may hold `$defs` beside a `$ref`.
            _ => !(n.is_root() && *k == "$defs"),
        })
        .collect();
    if !bad.is_empty() {
        out.push(
            Spot::at(
                at(n, "$ref"),
                format!(
                    "`$ref` has sibling keywords ({}), which this dialect does not accept",
                    bad.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
            .with_help("wrap the reference: `anyOf: [{$ref: ...}]` beside the other keywords"),
        );
    }
}

pub fn array_missing_items(cx: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if !is_array(m) || m.contains_key("items") {
        return;
    }
    if m.contains_key("prefixItems") && !cx.dialect.is_gemini_openapi() {
        return;
    }
    out.push(
        Spot::at(n.pointer, "`type: array` without `items`")
            .with_help("say what the items are: `items: {type: string}`, say"),
    );
}

pub fn exclusive_bound_boolean(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    for k in ["exclusiveMinimum", "exclusiveMaximum"] {
        if let Some(Value::Bool(b)) = m.get(k) {
            out.push(
                Spot::at(at(n, k), format!("`{k}: {b}` is the draft-04 / OpenAPI 3.0 form; JSON Schema 2020-12 wants a number"))
                    .with_help(format!("write the bound itself: `{k}: 0` instead of `minimum: 0` plus `{k}: true`")),
            );
        }
    }
}

pub fn exclusive_numeric_bound(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    for k in ["exclusiveMinimum", "exclusiveMaximum"] {
        if m.contains_key(k) {
            let help = if types(m).contains(&"integer") {
                "toolc rewrites integer bounds itself (`exclusiveMinimum: n` → `minimum: n+1`); a non-numeric bound cannot be rewritten".to_string()
            } else {
                let inclusive = if k == "exclusiveMinimum" {
                    "minimum"
                } else {
                    "maximum"
                };
                format!("for a number, use an inclusive `{inclusive}`, {OR_DESCRIBE}")
            };
            out.push(
                Spot::at(
                    at(n, k),
                    format!("`{k}` is not a field of the Gemini schema"),
                )
                .with_help(help),
            );
        }
    }
}

/// Whether `n` is a schema of `dependentSchemas`: it applies to the object it hangs from, so
/// its `required` may name that object's properties, and only objects meet it.
fn applies_to_its_object(n: &Node<'_>) -> bool {
    n.keyword == Some("dependentSchemas")
}

pub fn required_undeclared(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if applies_to_its_object(n) {
        return;
    }
    let Some(Value::Array(req)) = m.get("required") else {
        return;
    };
    let props = m.get("properties").and_then(Value::as_object);
    for (i, r) in req.iter().enumerate() {
        if let Some(name) = r.as_str()
            && !props.is_some_and(|p| p.contains_key(name))
        {
            out.push(
                Spot::at(
                    format!("{}/required/{i}", n.pointer),
                    format!("`required` names `{name}`, which is not in this node's `properties`"),
                )
                .with_help("declare the property here, or drop it from `required`"),
            );
        }
    }
}

pub fn required_on_non_object(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if m.contains_key("required") && !is_object(m) && !applies_to_its_object(n) {
        out.push(Spot::at(
            at(n, "required"),
            "`required` on a node that is not `type: object`",
        ));
    }
}

/// Is the value nested deeper than `limit`?
pub fn deeper_than(v: &Value, limit: usize) -> bool {
    if limit == 0 {
        return matches!(v, Value::Object(m) if !m.is_empty())
            || matches!(v, Value::Array(a) if !a.is_empty());
    }
    match v {
        Value::Object(m) => m.values().any(|c| deeper_than(c, limit - 1)),
        Value::Array(a) => a.iter().any(|c| deeper_than(c, limit - 1)),
        _ => false,
    }
}

/// Deeper schemas are not handed to the meta-schema validator.
pub const MAX_META_DEPTH: usize = 128;

pub fn invalid_json_schema(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    if deeper_than(cx.root, MAX_META_DEPTH) {
        out.push(Spot::at(
            "",
            format!("the schema nests deeper than {MAX_META_DEPTH} levels"),
        ));
        return;
    }
    let meta = jsonschema::draft202012::meta::validator();
    for e in meta.iter_errors(cx.root) {
        out.push(Spot::at(
            e.instance_path().as_str().to_string(),
            format!("not valid JSON Schema 2020-12: {e}"),
        ));
    }
}

pub fn root_not_object(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    if cx.role != Role::Parameters {
        return;
    }
    let found = match cx.root.as_object().and_then(|m| m.get("type")) {
        Some(Value::String(t)) if t == "object" => return,
        Some(v) => format!("`type: {}`", show(v)),
        None => "no `type`".to_string(),
    };
    out.push(
        Spot::at(
            "",
            format!("the parameters schema must be `type: \"object\"`, found {found}"),
        )
        .with_help("tool arguments are a JSON object: write `type: object` with `properties:`"),
    );
}

pub fn root_composition(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    if cx.role != Role::Parameters {
        return;
    }
    let Some(m) = cx.root.as_object() else { return };
    let mut keys = vec!["anyOf", "oneOf", "allOf"];
    if cx.dialect.is_openai() {
        keys.extend(["enum", "const", "not"]);
    }
    for k in keys {
        if m.contains_key(k) {
            out.push(
                Spot::at(
                    format!("/{k}"),
                    format!("`{k}` at the top level of the parameters schema"),
                )
                .with_help(
                    "make the root a plain object and move the alternatives into a property",
                ),
            );
        }
    }
}

pub fn root_anyof(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    if cx.role != Role::Returns {
        return;
    }
    if cx.root.get("anyOf").is_some() {
        out.push(
            Spot::at(
                "/anyOf",
                "the root of a structured output schema is `anyOf`",
            )
            .with_help("wrap the union in an object property"),
        );
    }
}

pub fn empty_params_object(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    if cx.role != Role::Parameters {
        return;
    }
    let Some(m) = cx.root.as_object() else { return };
    let empty = match m.get("properties") {
        None => true,
        Some(Value::Object(p)) => p.is_empty(),
        Some(_) => false,
    };
    if is_object(m) && empty {
        out.push(
            Spot::at(
                "",
                "an object with no properties; Gemini wants `properties` non-empty for OBJECT",
            )
            .with_help("omit `parameters` from the declaration for a tool without arguments"),
        );
    }
}

pub fn ref_dangling(cx: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(Value::String(t)) = m.get("$ref")
        && walk::resolve_ref(cx.root, t).is_none()
    {
        out.push(Spot::at(
            at(n, "$ref"),
            format!("`$ref: {t}` points at no schema in this document"),
        ));
    }
}

/// `$defs` name → the names its schema refers to, with the pointer of each `$ref`.
fn ref_graph(root: &Value, only_required: bool) -> BTreeMap<String, Vec<(String, String)>> {
    let mut g = BTreeMap::new();
    let mut nodes: Vec<(String, &Value)> = vec![("#".to_string(), root)];
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = root.get(key) {
            for (name, v) in defs {
                nodes.push((format!("#/{key}/{}", esc(name)), v));
            }
        }
    }
    for (name, v) in nodes {
        let mut edges = Vec::new();
        let base = name.trim_start_matches('#').to_string();
        if only_required {
            required_refs(v, &base, 0, &mut edges);
        } else {
            walk::each(v, &mut |n| {
                if let Some(Value::String(t)) = n.map().and_then(|m| m.get("$ref")) {
                    edges.push((t.clone(), format!("{base}{}/$ref", n.pointer)));
                }
            });
            // The root's `$defs` are nodes of their own.
            if name == "#" {
                edges.retain(|(_, p)| !p.starts_with("/$defs/") && !p.starts_with("/definitions/"));
            }
        }
        g.insert(name, edges);
    }
    g
}

/// The refs reached from `v` through required properties only.
fn required_refs(v: &Value, pointer: &str, depth: usize, out: &mut Vec<(String, String)>) {
    if depth > walk::MAX_WALK_DEPTH {
        return;
    }
    let Some(m) = v.as_object() else { return };
    if accepts_null(m) {
        return;
    }
    if let Some(Value::String(t)) = m.get("$ref") {
        out.push((t.clone(), format!("{pointer}/$ref")));
    }
    if let Some(Value::Array(all)) = m.get("allOf") {
        for (i, b) in all.iter().enumerate() {
            required_refs(b, &format!("{pointer}/allOf/{i}"), depth + 1, out);
        }
    }
    if let Some(Value::Object(props)) = m.get("properties") {
        for r in required(m) {
            if let Some(p) = props.get(r) {
                required_refs(
                    p,
                    &format!("{pointer}/properties/{}", esc(r)),
                    depth + 1,
                    out,
                );
            }
        }
    }
    if let Some(items) = m.get("items")
        && m.get("minItems").and_then(Value::as_u64).unwrap_or(0) > 0
    {
        required_refs(items, &format!("{pointer}/items"), depth + 1, out);
    }
}

/// The `$ref`s that lie on a cycle of the graph.
fn cyclic_refs(g: &BTreeMap<String, Vec<(String, String)>>) -> Vec<(String, String)> {
    fn reaches(g: &BTreeMap<String, Vec<(String, String)>>, from: &str, to: &str) -> bool {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(n) = stack.pop() {
            if n == to {
                return true;
            }
            if !seen.insert(n.clone()) {
                continue;
            }
            if let Some(edges) = g.get(&n) {
                stack.extend(edges.iter().map(|(t, _)| t.clone()));
            }
        }
        false
    }
    let mut out = Vec::new();
    for (from, edges) in g {
        for (to, pointer) in edges {
            if g.contains_key(to) && reaches(g, to, from) {
                out.push((to.clone(), pointer.clone()));
            }
        }
    }
    out
}

/// How a message names a `$ref` target: a named type, or the pointer.
pub fn ref_target(t: &str) -> String {
    match t.strip_prefix("#/$defs/") {
        Some(name) if !name.contains('/') => {
            format!("type `{}`", name.replace("~1", "/").replace("~0", "~"))
        }
        _ if t == "#" => "the schema".to_string(),
        _ => format!("`$ref: {t}`"),
    }
}

/// The message of `recursive-lazy`, shared with the Gemini rewriter's
/// refusal so the two merge into one diagnostic.
pub fn recursion_message(target: &str) -> String {
    format!(
        "{} refers to itself: this dialect has no recursive schemas",
        ref_target(target)
    )
}

pub fn recursive_lazy(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    for (to, pointer) in cyclic_refs(&ref_graph(cx.root, false)) {
        out.push(Spot::at(pointer, recursion_message(&to)));
    }
}

pub fn recursive_required_cycle(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    for (to, pointer) in cyclic_refs(&ref_graph(cx.root, true)) {
        out.push(
            Spot::at(
                pointer,
                format!(
                    "{} refers to itself through required properties only: no finite value fits",
                    ref_target(&to)
                ),
            )
            .with_help("make one property on the cycle optional or nullable"),
        );
    }
}

pub fn tuple(cx: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if cx.dialect.is_gemini_openapi() && m.contains_key("prefixItems") {
        out.push(
            Spot::at(
                at(n, "prefixItems"),
                "`prefixItems` (a tuple) is not a Gemini schema field",
            )
            .with_help("use an object with one named property per position"),
        );
    }
    if let Some(Value::Array(_)) = m.get("items") {
        out.push(
            Spot::at(at(n, "items"), "`items` is a list (a draft-07 tuple)")
                .with_help("use an object with one named property per position"),
        );
    }
}

/// Properties without a description (their named type's counts), in the
/// manifest's schema under `root` and the named types it reaches.
pub fn missing_descriptions(
    schemas: &crate::model::Schemas,
    root: crate::model::SchemaId,
) -> Vec<(crate::model::SchemaId, String)> {
    let described = |n: &crate::model::schema::SchemaNode| {
        n.description.as_ref().is_some_and(|d| !d.trim().is_empty())
    };
    let mut out = Vec::new();
    let mut trees = vec![root];
    trees.extend(
        schemas
            .reachable_types(root)
            .into_iter()
            .filter_map(|n| schemas.named(n)),
    );
    for tree in trees {
        schemas.walk(tree, &mut |id, _| {
            for p in schemas.get(id).props() {
                if described(schemas.get(p.schema)) || described(schemas.resolved(p.schema)) {
                    continue;
                }
                out.push((
                    p.schema,
                    format!("property `{}` has no description", p.name),
                ));
            }
        });
    }
    out
}

pub(super) fn lookaround(p: &str) -> bool {
    ["(?=", "(?!", "(?<=", "(?<!"].iter().any(|l| p.contains(l))
}

/// Object/array levels on the deepest path, following `$ref`s (a cycle adds nothing).
pub(super) fn nesting(
    v: &Value,
    root: &Value,
    stack: &mut Vec<String>,
    depth: usize,
    count: &dyn Fn(&Map<String, Value>) -> bool,
) -> usize {
    if depth > walk::MAX_WALK_DEPTH {
        return 0;
    }
    let Some(m) = v.as_object() else { return 0 };
    let mut deepest = 0;
    if let Some(Value::String(t)) = m.get("$ref")
        && !stack.contains(t)
        && let Some(target) = walk::resolve_ref(root, t)
    {
        stack.push(t.clone());
        deepest = nesting(target, root, stack, depth + 1, count);
        stack.pop();
    }
    for (k, _, sub) in walk::children(m) {
        if k == "$defs" || k == "definitions" {
            continue;
        }
        deepest = deepest.max(nesting(sub, root, stack, depth + 1, count));
    }
    deepest + usize::from(count(m))
}
