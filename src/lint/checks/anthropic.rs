//! Anthropic's strict tool use: the keywords and values it refuses.

use super::common::*;
use super::cx::*;
use serde_json::Value;

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
                .with_help(format!("remove `{k}`, {OR_DESCRIBE}")),
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
        out.push(
            Spot::at(
                at(n, "minItems"),
                format!(
                    "`minItems: {}`; Anthropic strict tools accept only 0 or 1",
                    show(v)
                ),
            )
            .with_help(format!("remove `minItems`, {OR_DESCRIBE}")),
        );
    }
    for k in ["maxItems", "uniqueItems", "contains"] {
        if m.contains_key(k) {
            let help = if k == "contains" {
                "remove `contains`; the generated validation still enforces it".to_string()
            } else {
                format!("remove `{k}`, {OR_DESCRIBE}")
            };
            out.push(
                Spot::at(
                    at(n, k),
                    format!("`{k}` is not supported by Anthropic strict tools"),
                )
                .with_help(help),
            );
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
