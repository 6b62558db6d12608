//! OpenAI's strict mode: what it refuses in a schema, and its size limits.

use super::common::*;
use super::cx::*;
use serde_json::Value;

pub fn optional_without_nullable(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    let Some(m) = n.map() else { return };
    let Some(Value::Object(props)) = m.get("properties") else {
        return;
    };
    let req = required(m);
    for (k, schema) in props {
        // A property that already takes `null` keeps its meaning when it is listed in
        // `required` (the model sends `null` for "absent"): that is a rewrite, which toolc's
        // openai-strict form makes, not a construct strict mode cannot take.
        let nullable = schema.as_object().is_some_and(accepts_null);
        if !req.contains(&k.as_str()) && !nullable {
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
        Some(v) if m.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty()) => out.push(
            Spot::at(
                at(n, "additionalProperties"),
                format!("`additionalProperties: {}` beside `properties` lets the object take other keys; strict mode needs `false`", show(v)),
            )
            .with_help(format!("declare the other keys as properties and write `additionalProperties: false`, {OR_CLOSE}")),
        ),
        Some(v) => out.push(
            Spot::at(
                at(n, "additionalProperties"),
                format!("`additionalProperties: {}` makes an open map; strict mode needs `false`", show(v)),
            )
            .with_help("replace the map with an array of `{key, value}` objects (toolc does, below the root), or use a non-strict dialect"),
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
                format!(
                    "make the branches exclude each other (a distinct `const` tag on one required property, say), and toolc writes `anyOf`; {OR_DESCRIBE} (as `anyOf`)"
                )
            } else if k == "uniqueItems" {
                format!("remove `{k}`, {OR_DESCRIBE}")
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

pub fn strict_format(_: &Cx<'_>, n: &Node<'_>, out: &mut Vec<Spot>) {
    format_check(n, OPENAI_STRICT_FORMATS, "OpenAI strict mode", out);
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
