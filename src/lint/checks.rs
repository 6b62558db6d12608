//! The schema rule functions: pure, from one schema (and the dialect it is
//! meant for) to hits. Each is named in the rule table.

use super::rules::{Check, RULES, Rule, RuleId};
use super::walk::{self, Node, accepts_null, esc, is_array, is_object, required, types};
use super::{Dialect, Hit, Role, Spot};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// What every schema check sees besides the node.
pub struct Cx<'a> {
    pub root: &'a Value,
    pub dialect: Dialect,
    pub role: Role,
}

/// Runs the node and schema checks of every rule graded for `dialect` and
/// `enabled`, in table order.
pub fn run_schema(
    schema: &Value,
    dialect: Dialect,
    role: Role,
    enabled: &dyn Fn(&Rule) -> bool,
) -> Vec<Hit> {
    let cx = Cx {
        root: schema,
        dialect,
        role,
    };
    let rules: Vec<&Rule> = RULES
        .iter()
        .filter(|r| r.grade(Some(dialect)).is_some() && enabled(r))
        .collect();
    let mut out = Vec::new();
    let mut node_rules = Vec::new();
    for r in &rules {
        match r.check {
            Check::Node(f) => node_rules.push((r.id, f)),
            Check::Schema(f) => {
                let mut hits = Vec::new();
                f(&cx, &mut hits);
                out.extend(stamp(r.id, hits));
            }
            Check::List(_) | Check::Model(_) | Check::Emitter | Check::Agent => {}
        }
    }
    if !node_rules.is_empty() {
        walk::each(schema, &mut |n| {
            for (id, f) in &node_rules {
                let mut hits = Vec::new();
                f(&cx, n, &mut hits);
                out.extend(stamp(*id, hits));
            }
        });
    }
    out
}

pub(super) fn stamp(id: RuleId, spots: Vec<Spot>) -> impl Iterator<Item = Hit> {
    spots.into_iter().map(move |s| s.hit(id))
}

fn at(n: &Node<'_>, key: &str) -> String {
    format!("{}/{}", n.pointer, esc(key))
}

fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        let mut end = 57;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    } else {
        s
    }
}

/// `$defs` and `definitions` hold named schemas, not a schema node of their
/// own; node checks about shape skip the container's direct entries only
/// through the walk (they are visited as schemas, which they are).
fn is_schema_node(n: &Node<'_>) -> bool {
    n.value.is_object()
}

// ---------------------------------------------------------------------------
// OpenAI strict structure

pub fn optional_without_nullable(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    let Some(Value::Object(props)) = m.get("properties") else {
        return;
    };
    let req = required(m);
    for k in props.keys() {
        if !req.contains(&k.as_str()) {
            out.push(
                Spot::at(
                    format!("{}/properties/{}", n.pointer, esc(k)),
                    format!("property `{k}` is optional, but strict mode needs every property listed in `required`"),
                )
                .with_help(format!(
                    "add `{k}` to `required` and let it be null (`type: [..., \"null\"]`) to keep it optional"
                )),
            );
        }
    }
}

pub fn additional_properties_not_false(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if !is_object(m) {
        return;
    }
    match m.get("additionalProperties") {
        Some(Value::Bool(false)) => {}
        None if m.contains_key("properties") => out.push(Spot::at(
            n.pointer,
            "this object does not set `additionalProperties: false`",
        )),
        None => out.push(
            Spot::at(
                n.pointer,
                "this object has no `properties`, so it accepts any keys; strict mode needs a closed object",
            )
            .with_help("list its `properties`, or use a dialect without strict mode for free-form objects"),
        ),
        Some(v) => out.push(
            Spot::at(
                at(n, "additionalProperties"),
                format!("`additionalProperties: {}` makes an open map; strict mode needs `false`", show(v)),
            )
            .with_help("replace the map with an array of `{key, value}` objects, or use a non-strict dialect"),
        ),
    }
}

const STRICT_UNSUPPORTED: &[&str] = &[
    "allOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "uniqueItems",
];

pub fn strict_unsupported_keyword(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    for k in m.keys() {
        if STRICT_UNSUPPORTED.contains(&k.as_str()) {
            let help = if k == "oneOf" {
                "use `anyOf` (toolc rewrites `oneOf` itself when every branch has a distinct `const` tag)"
                    .to_string()
            } else {
                format!(
                    "remove `{k}`; say it in the description, and let the generated validation enforce it"
                )
            };
            out.push(
                Spot::at(at(n, k), format!("`{k}` is not permitted in strict mode"))
                    .with_help(help),
            );
        }
    }
}

pub fn strict_string_length(cx: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    if cx.dialect == Dialect::OpenAiStrict {
        // Kept in the list (it is what the dispatcher enforces): say what
        // the risk is, not that it is dropped.
        let Some(m) = n.map() else { return };
        for k in ["minLength", "maxLength"] {
            if m.contains_key(k) {
                out.push(Spot::at(
                    at(n, k),
                    format!("`{k}` is kept: OpenAI's strict mode takes it on current models, but fine-tuned models and older API versions refuse it"),
                ));
            }
        }
        return;
    }
    string_length(n, "strict mode", out);
}

fn string_length(n: &Node<'_>, what: &str, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    for k in ["minLength", "maxLength"] {
        if m.contains_key(k) {
            out.push(Spot::at(
                at(n, k),
                format!("`{k}` is not supported in {what}"),
            ));
        }
    }
}

pub const OPENAI_STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

pub const ANTHROPIC_STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

fn format_check(n: &Node<'_>, allowed: &[&str], what: &str, out: &mut Vec<Spot>) {
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
                    "use one of {}, or drop `format` and describe it",
                    allowed.join(", ")
                )),
            );
        }
    }
}

pub fn strict_format(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    format_check(n, OPENAI_STRICT_FORMATS, "OpenAI strict mode", out);
}

fn lookaround(p: &str) -> bool {
    ["(?=", "(?!", "(?<=", "(?<!"].iter().any(|l| p.contains(l))
}

pub fn strict_pattern_lookaround(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(Value::String(p)) = m.get("pattern")
        && lookaround(p)
    {
        out.push(Spot::at(
            at(n, "pattern"),
            "`pattern` uses a lookaround, which strict mode's regex grammar lacks",
        ));
    }
}

pub fn strict_default(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(d) = m.get("default")
        && !d.is_null()
    {
        out.push(
            Spot::at(
                at(n, "default"),
                format!("`default: {}` is not permitted in strict mode", show(d)),
            )
            .with_help("say the default in the description"),
        );
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

pub fn ref_not_toplevel(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(Value::String(t)) = m.get("$ref") {
        let ok = t == "#"
            || ["#/$defs/", "#/definitions/"].iter().any(|p| {
                t.strip_prefix(p)
                    .is_some_and(|name| !name.is_empty() && !name.contains('/'))
            });
        if !ok {
            out.push(Spot::at(
                at(n, "$ref"),
                format!(
                    "`$ref: {t}` does not point at a definition at the top level of the schema"
                ),
            ));
        }
    }
}

fn constrains_nothing(v: &Value) -> bool {
    match v {
        Value::Bool(true) => true,
        Value::Object(m) => m.keys().all(|k| walk::is_annotation(k)),
        _ => false,
    }
}

pub fn strict_untyped_array_items(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(items) = m.get("items")
        && constrains_nothing(items)
    {
        out.push(
            Spot::at(
                at(n, "items"),
                "array `items` has no type; strict mode needs typed items",
            )
            .with_help("give the items a `type`, or a `$ref` to a named type"),
        );
    }
}

pub fn strict_fine_tuned_constraints(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    const KEYS: &[&str] = &[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minItems",
        "maxItems",
    ];
    let mut first = None;
    walk::each(cx.root, &mut |n| {
        if first.is_some() {
            return;
        }
        if let Some(m) = n.map()
            && let Some(k) = m.keys().find(|k| KEYS.contains(&k.as_str()))
        {
            first = Some(at(n, k));
        }
    });
    if let Some(p) = first {
        out.push(Spot::at(
            p,
            "this schema uses constraint keywords, which fine-tuned models do not support in strict mode",
        ));
    }
}

// ---------------------------------------------------------------------------
// Structural validity

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
                format!(
                    "for a number, use an inclusive `{inclusive}` and say the strict bound in the description"
                )
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

pub fn required_undeclared(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
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
    if m.contains_key("required") && !is_object(m) {
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

// ---------------------------------------------------------------------------
// Root shape

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

// ---------------------------------------------------------------------------
// Gemini (OpenAPI subset)

/// The 22 fields of the Gemini Developer API `Schema`.
pub const GEMINI_FIELDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// Fields Vertex AI adds.
pub const VERTEX_EXTRA_FIELDS: &[&str] = &["additionalProperties", "$ref", "$defs"];

/// Keys with a rule of their own, so `gemini-unknown-field` leaves them out.
const GEMINI_OWN_RULES: &[&str] = &[
    "additionalProperties",
    "const",
    "$ref",
    "$defs",
    "definitions",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "prefixItems",
];

pub fn gemini_unknown_field(cx: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    for k in m.keys() {
        let k = k.as_str();
        let known = GEMINI_FIELDS.contains(&k)
            || (cx.dialect == Dialect::GeminiVertex && VERTEX_EXTRA_FIELDS.contains(&k))
            || GEMINI_OWN_RULES.contains(&k);
        if !known {
            out.push(
                Spot::at(at(n, k), format!("`{k}` is not a field of the Gemini schema"))
                    .with_help("Gemini's schema is a closed set of fields; remove it or say it in the description"),
            );
        }
    }
}

pub fn gemini_additional_properties(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(v) = m.get("additionalProperties") {
        out.push(
            Spot::at(
                at(n, "additionalProperties"),
                format!("`additionalProperties: {}` is not a field of the Gemini Developer API schema", show(v)),
            )
            .with_help("toolc drops `additionalProperties: false` itself; an open map has no Gemini form: use an array of `{key, value}` objects"),
        );
    }
}

pub fn gemini_const(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(c) = m.get("const") {
        out.push(
            Spot::at(at(n, "const"), format!("`const: {}` is not a Gemini schema field", show(c)))
                .with_help("toolc rewrites a string `const` as a one-value `enum`; other constants have no Gemini form"),
        );
    }
}

pub fn gemini_ref_defs(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    for k in ["$ref", "$defs", "definitions"] {
        if m.contains_key(k) {
            out.push(Spot::at(
                at(n, k),
                format!("`{k}` is not a Gemini schema field; references must be inlined"),
            ));
        }
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

pub fn gemini_type_array(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(Value::Array(ts)) = m.get("type") {
        out.push(
            Spot::at(at(n, "type"), format!("`type: {}` is a list; Gemini's `type` is one value", show(&Value::Array(ts.clone()))))
                .with_help("toolc rewrites `[T, \"null\"]` as `type: T, nullable: true`; for other unions use `anyOf`"),
        );
    }
}

pub fn gemini_type_missing(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    if !is_schema_node(n) {
        if n.value == &Value::Bool(true) {
            out.push(Spot::at(
                n.pointer,
                "`true` (any value) has no Gemini form: Gemini needs a `type`",
            ));
        }
        return;
    }
    let Some(m) = n.map() else { return };
    if !m.contains_key("type") && !m.contains_key("anyOf") {
        out.push(
            Spot::at(
                n.pointer,
                "this node has no `type` (it accepts any JSON value); Gemini needs one",
            )
            .with_help(
                "give it a `type`; for free-form data use `type: string` and pass JSON text",
            ),
        );
    }
}

pub fn gemini_enum_non_string(cx: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    let Some(Value::Array(vals)) = m.get("enum") else {
        return;
    };
    if let Some((i, v)) = vals
        .iter()
        .enumerate()
        .find(|(_, v)| !v.is_string() && !v.is_null())
    {
        out.push(
            Spot::at(
                format!("{}/enum/{i}", n.pointer),
                format!(
                    "enum value {} is not a string; Gemini enums are strings",
                    show(v)
                ),
            )
            .with_help("make the values strings (`type: string`)"),
        );
        return;
    }
    let t = types(m);
    if cx.dialect == Dialect::Gemini && !t.is_empty() && !t.contains(&"string") {
        out.push(Spot::at(
            at(n, "enum"),
            format!(
                "`enum` on `type: {}`; Gemini allows `enum` only for STRING",
                t.join(", ")
            ),
        ));
    }
}

pub fn gemini_items_on_non_array(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    let t = types(m);
    if m.contains_key("items") && !t.is_empty() && !t.contains(&"array") {
        out.push(Spot::at(
            at(n, "items"),
            format!(
                "`items` on `type: {}`; Gemini allows it only for ARRAY",
                t.join(", ")
            ),
        ));
    }
}

pub fn gemini_string_format(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if !types(m).contains(&"string") {
        return;
    }
    if let Some(f) = m.get("format")
        && !matches!(f.as_str(), Some("enum" | "date-time"))
    {
        out.push(
            Spot::at(at(n, "format"), format!("Gemini has long accepted only `enum` and `date-time` as string formats, not {}", show(f)))
                .with_help("if your Gemini model version rejects it, drop `format` and say it in the description"),
        );
    }
}

/// Object and array levels Gemini is known to take without complaint.
pub const GEMINI_MAX_NESTING: usize = 8;

/// Object/array levels on the deepest path, following `$ref`s (a cycle adds nothing).
fn nesting(
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

pub fn gemini_nesting_depth(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    let d = nesting(cx.root, cx.root, &mut Vec::new(), 0, &|m| {
        is_object(m) || is_array(m)
    });
    if d > GEMINI_MAX_NESTING {
        out.push(Spot::at(
            "",
            format!("{d} levels of objects and arrays; Gemini has refused declarations nested deeper than about {GEMINI_MAX_NESTING}"),
        ));
    }
}

/// Thresholds of `gemini-complexity`.
pub const GEMINI_MAX_ENUM_VALUES: usize = 128;
pub const GEMINI_MAX_BOUNDS: usize = 32;

pub fn gemini_complexity(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    let mut enums = 0;
    let mut bounds = 0;
    let mut nested_sized_arrays = None;
    walk::each(cx.root, &mut |n| {
        let Some(m) = n.map() else { return };
        enums += m.get("enum").and_then(Value::as_array).map_or(0, Vec::len);
        bounds += [
            "minimum",
            "maximum",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
        ]
        .iter()
        .filter(|k| m.contains_key(**k))
        .count();
        let sized =
            |m: &Map<String, Value>| m.contains_key("minItems") || m.contains_key("maxItems");
        if nested_sized_arrays.is_none()
            && sized(m)
            && let Some(Value::Object(items)) = m.get("items")
            && sized(items)
        {
            nested_sized_arrays = Some(format!("{}/items", n.pointer));
        }
    });
    if enums > GEMINI_MAX_ENUM_VALUES {
        out.push(Spot::at(
            "",
            format!(
                "{enums} enum values in one schema; Gemini may refuse it as having too many states"
            ),
        ));
    }
    if bounds > GEMINI_MAX_BOUNDS {
        out.push(Spot::at("", format!("{bounds} size and range bounds in one schema; Gemini may refuse it as having too many states")));
    }
    if let Some(p) = nested_sized_arrays {
        out.push(Spot::at(p, "an array with `minItems`/`maxItems` inside another; Gemini may refuse it as having too many states"));
    }
}

pub fn gemini_title_in_jsonschema(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if m.get("title").is_some_and(Value::is_string) {
        out.push(
            Spot::at(at(n, "title"), "`title` in `parametersJsonSchema` has led Gemini 2.5 Flash to malformed function calls")
                .with_help("say it in the description instead"),
        );
    }
}

// ---------------------------------------------------------------------------
// Anthropic strict

pub fn anthropic_strict_numeric_bounds(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    for k in [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ] {
        if m.contains_key(k) {
            out.push(
                Spot::at(
                    at(n, k),
                    format!("`{k}` is not supported by Anthropic strict tools"),
                )
                .with_help(
                    "say the range in the description; the generated validation still enforces it",
                ),
            );
        }
    }
}

pub fn anthropic_strict_string_length(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    string_length(n, "Anthropic strict tools", out);
}

pub fn anthropic_strict_min_items(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(v) = m.get("minItems")
        && !matches!(v.as_u64(), Some(0 | 1))
    {
        out.push(Spot::at(
            at(n, "minItems"),
            format!(
                "`minItems: {}`; Anthropic strict tools accept only 0 or 1",
                show(v)
            ),
        ));
    }
    for k in ["maxItems", "uniqueItems", "contains"] {
        if m.contains_key(k) {
            out.push(Spot::at(
                at(n, k),
                format!("`{k}` is not supported by Anthropic strict tools"),
            ));
        }
    }
}

pub fn anthropic_strict_format(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    format_check(n, ANTHROPIC_STRICT_FORMATS, "Anthropic strict mode", out);
}

pub fn anthropic_strict_pattern(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    let Some(Value::String(p)) = m.get("pattern") else {
        return;
    };
    let mut what = None;
    if lookaround(p) {
        what = Some("a lookaround");
    }
    let b = p.as_bytes();
    let mut i = 0;
    while what.is_none() && i + 1 < b.len() {
        if b[i] == b'\\' {
            match b[i + 1] {
                b'1'..=b'9' | b'k' => what = Some("a backreference"),
                b'b' | b'B' => what = Some("a word boundary (`\\b`)"),
                _ => {}
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    if let Some(w) = what {
        out.push(Spot::at(
            at(n, "pattern"),
            format!("`pattern` uses {w}, which Anthropic strict tools do not support"),
        ));
    }
}

pub fn anthropic_strict_enum_complex(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(Value::Array(vals)) = m.get("enum")
        && let Some(i) = vals.iter().position(|v| v.is_object() || v.is_array())
    {
        out.push(Spot::at(
            format!("{}/enum/{i}", n.pointer),
            "an enum value that is an object or array",
        ));
    }
}

// ---------------------------------------------------------------------------
// OpenAI strict limits

/// OpenAI strict-mode limits, and Azure's older ones.
pub struct StrictLimits {
    pub nesting: usize,
    pub properties: usize,
    pub enum_values: usize,
    pub enum_string_chars: usize,
    pub schema_string_chars: usize,
}

pub fn strict_limits(d: Dialect) -> StrictLimits {
    if d == Dialect::AzureOpenAiStrict {
        StrictLimits {
            nesting: 5,
            properties: 100,
            enum_values: 500,
            enum_string_chars: 7_500,
            schema_string_chars: 15_000,
        }
    } else {
        StrictLimits {
            nesting: 10,
            properties: 5_000,
            enum_values: 1_000,
            enum_string_chars: 15_000,
            schema_string_chars: 120_000,
        }
    }
}

pub fn nesting_depth(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    let limit = strict_limits(cx.dialect).nesting;
    let d = nesting(cx.root, cx.root, &mut Vec::new(), 0, &is_object);
    if d > limit {
        out.push(Spot::at(
            "",
            format!("{d} levels of object nesting exceeds the limit of {limit}"),
        ));
    }
}

/// How many entries the `key` keyword holds across every node of the schema.
fn total_entries(cx: &Cx<'_>, key: &str) -> usize {
    let mut n = 0;
    walk::each(cx.root, &mut |node| {
        n += node.map().and_then(|m| m.get(key)).map_or(0, |v| match v {
            Value::Object(o) => o.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        });
    });
    n
}

pub fn property_count(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    let limit = strict_limits(cx.dialect).properties;
    let n = total_entries(cx, "properties");
    if n > limit {
        out.push(Spot::at(
            "",
            format!("{n} object properties in total exceeds the limit of {limit}"),
        ));
    }
}

pub fn enum_value_count(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    let limit = strict_limits(cx.dialect).enum_values;
    let n = total_entries(cx, "enum");
    if n > limit {
        out.push(Spot::at(
            "",
            format!("{n} enum values in total exceeds the limit of {limit}"),
        ));
    }
}

pub fn enum_string_size(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    let limit = strict_limits(cx.dialect).enum_string_chars;
    walk::each(cx.root, &mut |node| {
        if let Some(Value::Array(vals)) = node.map().and_then(|m| m.get("enum"))
            && vals.len() > 250
        {
            let chars: usize = vals
                .iter()
                .filter_map(Value::as_str)
                .map(|s| s.chars().count())
                .sum();
            if chars > limit {
                out.push(Spot::at(
                    at(node, "enum"),
                    format!("an enum of {} strings totalling {chars} characters exceeds the limit of {limit}", vals.len()),
                ));
            }
        }
    });
}

pub fn schema_string_size(cx: &Cx<'_>, out: &mut Vec<Spot>) {
    let limit = strict_limits(cx.dialect).schema_string_chars;
    fn value_chars(v: &Value) -> usize {
        match v {
            Value::String(s) => s.chars().count(),
            Value::Array(a) => a.iter().map(value_chars).sum(),
            Value::Object(m) => m
                .iter()
                .map(|(k, v)| k.chars().count() + value_chars(v))
                .sum(),
            other => other.to_string().len(),
        }
    }
    let mut n = 0;
    walk::each(cx.root, &mut |node| {
        let Some(m) = node.map() else { return };
        for key in ["properties", "$defs", "definitions"] {
            if let Some(Value::Object(p)) = m.get(key) {
                n += p.keys().map(|k| k.chars().count()).sum::<usize>();
            }
        }
        if let Some(e) = m.get("enum") {
            n += value_chars(e);
        }
        if let Some(c) = m.get("const") {
            n += value_chars(c);
        }
    });
    if n > limit {
        out.push(Spot::at(
            "",
            format!("{n} characters of names, enum and const values exceeds the limit of {limit}"),
        ));
    }
}

// ---------------------------------------------------------------------------
// MCP

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

// ---------------------------------------------------------------------------
// Dialect-independent

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
