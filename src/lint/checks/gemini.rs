//! Gemini's OpenAPI-subset schema: its closed set of fields, types and limits.

use super::common::*;
use super::cx::*;
use serde_json::{Map, Value};

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
            let help = if matches!(k, "multipleOf" | "uniqueItems" | "oneOf") {
                format!("Gemini's schema is a closed set of fields: remove `{k}`, {OR_DESCRIBE}")
            } else {
                format!("Gemini's schema is a closed set of fields: remove `{k}`, {OR_GEMINI_JSON}")
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

pub fn gemini_additional_properties(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(v) = m.get("additionalProperties") {
        let declares = m
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        let help = if declares {
            format!("declare the other keys as properties, {OR_CLOSE}, {OR_GEMINI_JSON}")
        } else {
            format!(
                "use an array of `{{key, value}}` objects (toolc does, below the root), {OR_GEMINI_JSON}"
            )
        };
        out.push(
            Spot::at(
                at(n, "additionalProperties"),
                format!(
                    "`additionalProperties: {}` is not a field of the Gemini Developer API schema",
                    show(v)
                ),
            )
            .with_help(help),
        );
    }
}

pub fn gemini_const(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    if let Some(c) = m.get("const") {
        out.push(
            Spot::at(at(n, "const"), format!("`const: {}` is not a Gemini schema field", show(c)))
                .with_help(format!("toolc rewrites a string `const` as a one-value `enum` and a number as equal bounds; this one has no Gemini form: remove it, {OR_DESCRIBE}")),
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
            out.push(
                Spot::at(
                    n.pointer,
                    "`true` (any value) has no Gemini form: Gemini needs a `type`",
                )
                .with_help(format!(
                    "say what the value is with a `type`, {OR_GEMINI_JSON}"
                )),
            );
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
            .with_help(format!(
                "give it a `type` (for free-form data, `type: string` holding JSON text), {OR_GEMINI_JSON}"
            )),
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
