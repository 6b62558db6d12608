//! Markdown reference of a toolset, rendered from `templates/` with minijinja.

use crate::model::schema::ref_type_name;
use crate::model::{AuthLevel, Tool, Toolset};
use serde_json::{Value, json};

const REFERENCE: &str = include_str!("../../templates/reference.md.j2");

/// A short human description of a schema's type, for tables.
fn describe(v: &Value) -> String {
    if let Some(name) = v
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_type_name)
    {
        return format!("`{name}`");
    }
    if let Some(values) = v.get("enum").and_then(Value::as_array) {
        let vs: Vec<String> = values.iter().map(|x| format!("`{x}`")).collect();
        return format!("one of {}", vs.join(", "));
    }
    if let Some(c) = v.get("const") {
        return format!("`{c}`");
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(bs) = v.get(key).and_then(Value::as_array) {
            let vs: Vec<String> = bs.iter().map(describe).collect();
            return vs.join(" or ");
        }
    }
    let mut out = match v.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "any JSON".to_string(),
    };
    if out == "array"
        && let Some(items) = v.get("items")
    {
        out = format!("list of {}", describe(items));
    }
    if let Some(f) = v.get("format").and_then(Value::as_str) {
        out.push_str(&format!(" ({f})"));
    }
    let bound = |k: &str| v.get(k).map(|n| n.to_string());
    match (bound("minimum"), bound("maximum")) {
        (Some(a), Some(b)) => out.push_str(&format!(", {a} to {b}")),
        (Some(a), None) => out.push_str(&format!(", at least {a}")),
        (None, Some(b)) => out.push_str(&format!(", at most {b}")),
        _ => {}
    }
    if let Some(d) = v.get("default") {
        out.push_str(&format!(", default `{d}`"));
    }
    out
}

fn tool_context(t: &Tool) -> Value {
    let props = t
        .parameters
        .json
        .get("properties")
        .and_then(Value::as_object);
    let required: Vec<&str> = t
        .parameters
        .json
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let params: Vec<Value> = props
        .map(|p| {
            p.iter()
                .map(|(name, s)| {
                    json!({
                        "name": name,
                        "type": describe(s),
                        "required": required.contains(&name.as_str()),
                        "description": s.get("description").and_then(Value::as_str).unwrap_or(""),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let mut policies = Vec::new();
    if t.policy.auth != AuthLevel::None {
        policies.push(format!("auth `{}`", t.policy.auth.as_str()));
    }
    if !t.policy.roles.is_empty() {
        policies.push(format!("roles `{}`", t.policy.roles.join("`, `")));
    }
    if let Some(r) = t.policy.rate_limit {
        policies.push(format!("at most {} calls per {} s", r.count, r.period_secs));
    }
    if let Some(ms) = t.policy.timeout_ms {
        policies.push(format!("timeout {ms} ms"));
    }
    if t.terminal {
        policies.push("ends the turn".to_string());
    }
    json!({
        "name": t.name,
        "description": t.description,
        "deprecated": t.deprecated.as_ref().map(|d| d.note.clone().map_or(Value::Bool(true), Value::String)),
        "policies": policies,
        "params": params,
        "returns": t.returns.as_ref().map_or("any JSON".to_string(), |r| describe(&r.json)),
    })
}

fn context(set: &Toolset) -> Value {
    let agents: Vec<Value> = set
        .agents
        .iter()
        .map(|a| {
            let caps: Vec<Value> = a
                .capabilities
                .iter()
                .map(|&c| {
                    let c = &set.capabilities[c];
                    json!({
                        "name": c.name,
                        "description": c.description,
                        "toolbox": c.toolbox.map(|t| set.toolboxes[t].name.clone()),
                        "playbook": c.playbook.map(|p| set.playbooks[p].name.clone()),
                        "manual": c.manual.map(|m| set.manuals[m].text.clone()),
                    })
                })
                .collect();
            json!({"name": a.name, "description": a.description, "scope": a.scope, "capabilities": caps})
        })
        .collect();
    let toolboxes: Vec<Value> = set
        .toolboxes
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "scope": t.scope, "tools": t.tools.iter().map(tool_context).collect::<Vec<_>>()}))
        .collect();
    let playbooks: Vec<Value> = set
        .playbooks
        .iter()
        .map(|p| json!({"name": p.name, "description": p.description, "tools": p.plays.iter().map(tool_context).collect::<Vec<_>>()}))
        .collect();
    let types: Vec<Value> = set
        .types
        .values()
        .map(|t| {
            json!({
                "name": t.name,
                "description": t.schema.json.get("description").and_then(Value::as_str),
                "schema": serde_json::to_string_pretty(&t.schema.json).unwrap_or_default(),
            })
        })
        .collect();
    json!({
        "name": set.name,
        "agents": agents,
        "groups": [
            {"kind": "toolbox", "items": toolboxes},
            {"kind": "playbook", "items": playbooks},
        ],
        "types": types,
    })
}

/// Renders the Markdown reference of a toolset.
pub fn reference(set: &Toolset) -> Result<String, String> {
    let mut env = minijinja::Environment::new();
    env.add_filter("cell", |s: String| s.replace('|', "\\|").replace('\n', " "));
    env.add_filter("quote", |s: String| {
        s.lines()
            .map(|l| format!("> {l}").trim_end().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    });
    env.add_template("reference.md", REFERENCE)
        .map_err(|e| format!("template error: {e}"))?;
    let tmpl = env
        .get_template("reference.md")
        .map_err(|e| e.to_string())?;
    let text = tmpl
        .render(minijinja::value::Serde(context(set)))
        .map_err(|e| format!("cannot render the reference: {e}"))?;
    // Collapse runs of blank lines the template's branches leave.
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines() {
        if line.trim().is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Ok(out.trim_start().to_string())
}
