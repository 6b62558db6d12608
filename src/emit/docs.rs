//! Markdown reference of a toolset, rendered from `templates/` with minijinja.

use crate::model::schema::{RefStyle, SchemaId, Schemas};
use crate::model::{AuthLevel, DelegateTarget, Tool, Toolset};
use serde_json::{Value, json};

const REFERENCE: &str = include_str!("../../templates/reference.md.j2");

/// A short human description of a schema's type, for tables.
fn describe(schemas: &Schemas, id: SchemaId) -> String {
    let n = schemas.get(id);
    if let Some(r) = &n.reference {
        return format!("`{}`", r.name);
    }
    if let Some(Value::Array(values)) = n.enum_values.as_ref().map(|d| &d.value) {
        let vs: Vec<String> = values.iter().map(|x| format!("`{x}`")).collect();
        return format!("one of {}", vs.join(", "));
    }
    if let Some(c) = &n.const_value {
        return format!("`{}`", c.value);
    }
    if let Some(branches) = n.one_of.as_ref().or(n.any_of.as_ref()) {
        let vs: Vec<String> = branches.iter().map(|b| describe(schemas, *b)).collect();
        return vs.join(" or ");
    }
    let mut out = if n.types.is_empty() {
        "any JSON".to_string()
    } else {
        n.types
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(" or ")
    };
    if out == "array"
        && let Some(items) = n.items
    {
        out = format!("list of {}", describe(schemas, items));
    }
    if let Some(f) = &n.format {
        out.push_str(&format!(" ({f})"));
    }
    match (&n.minimum, &n.maximum) {
        (Some(a), Some(b)) => out.push_str(&format!(", {a} to {b}")),
        (Some(a), None) => out.push_str(&format!(", at least {a}")),
        (None, Some(b)) => out.push_str(&format!(", at most {b}")),
        _ => {}
    }
    if let Some(d) = &n.default {
        out.push_str(&format!(", default `{}`", d.value));
    }
    out
}

fn tool_context(set: &Toolset, t: &Tool) -> Value {
    let schemas = &set.schemas;
    let root = schemas.resolved(t.parameters);
    let params: Vec<Value> = root
        .props()
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "type": describe(schemas, p.schema),
                "required": root.is_required(&p.name),
                "description": schemas.get(p.schema).description.as_deref().unwrap_or(""),
            })
        })
        .collect();
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
    if t.policy.approval {
        policies.push("needs a person's approval".to_string());
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
        "returns": t.returns.map_or("any JSON".to_string(), |r| describe(schemas, r)),
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
            let delegates: Vec<Value> = a
                .delegates
                .iter()
                .map(|d| {
                    let mut t = tool_context(set, &d.tool);
                    t["target"] = json!(match d.target {
                        DelegateTarget::Agent(j) => format!("agent `{}`", set.agents[j].name),
                        DelegateTarget::Capability(c) =>
                            format!("capability `{}`", set.capabilities[c].name),
                    });
                    t
                })
                .collect();
            json!({"name": a.name, "description": a.description, "scope": a.scope, "capabilities": caps, "delegates": delegates})
        })
        .collect();
    let toolboxes: Vec<Value> = set
        .toolboxes
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "scope": t.scope, "tools": t.tools.iter().map(|x| tool_context(set, x)).collect::<Vec<_>>()}))
        .collect();
    let playbooks: Vec<Value> = set
        .playbooks
        .iter()
        .map(|p| json!({"name": p.name, "description": p.description, "tools": p.plays.iter().map(|x| tool_context(set, x)).collect::<Vec<_>>()}))
        .collect();
    let types: Vec<Value> = set
        .types
        .values()
        .map(|t| {
            json!({
                "name": t.name,
                "description": set.schemas.get(t.root).description,
                "schema": serde_json::to_string_pretty(&set.schemas.to_json(t.root, RefStyle::Types)).unwrap_or_default(),
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
