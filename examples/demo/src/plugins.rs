//! Tools a host adds at run time, next to the generated ones: the example server's
//! `--plugins FILE`, a JSON list of tools that each answer a fixed value (a status page, an
//! FAQ entry). The server reads the file again on SIGHUP, and the tools it serves follow it:
//! new ones registered, changed ones replaced, removed ones unregistered. Each version of a
//! tool stays allocated for the program's life, as a registered tool's schema does: reload
//! when the file changes, not in a loop.
//!
//! ```json
//! [{ "name": "shipping_status", "description": "Whether parcels ship today.",
//!    "parameters": { "type": "object" }, "answer": { "shipping": true } }]
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use toolc_runtime::{Agent, AgentError, CallContext, HandlerError, RegisteredTool};

/// One tool of a plugins file.
#[derive(Debug, Clone, PartialEq)]
pub struct Plugin {
    name: String,
    description: String,
    parameters: Value,
    answer: Value,
}

impl Plugin {
    /// The tool the agent registers: `parameters` as its arguments' schema, `answer` as every
    /// call's result.
    fn tool(&self) -> RegisteredTool {
        let answer = self.answer.clone();
        RegisteredTool::new(
            self.name.clone(),
            self.description.clone(),
            self.parameters.clone(),
            move |_: Value, _: CallContext| {
                let answer = answer.clone();
                async move { Ok::<_, HandlerError>(answer) }
            },
        )
    }
}

/// Reads a plugins file: a JSON array of objects with `name`, `description`, `parameters` (a
/// JSON Schema, default `{"type": "object"}`) and `answer` (any JSON). The error says what is
/// wrong and where.
pub fn read(path: &Path) -> Result<Vec<Plugin>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("it is not JSON: {e}"))?;
    let Value::Array(entries) = value else {
        return Err("it is not a JSON array of tools".to_owned());
    };
    let mut plugins: Vec<Plugin> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.into_iter().enumerate() {
        let Value::Object(mut entry) = entry else {
            return Err(format!("entry {i} is not an object"));
        };
        let mut text = |key: &str| match entry.remove(key) {
            Some(Value::String(s)) => Ok(s),
            Some(_) => Err(format!("entry {i}: `{key}` is not a string")),
            None => Err(format!("entry {i} has no `{key}`")),
        };
        let (name, description) = (text("name")?, text("description")?);
        if plugins.iter().any(|p| p.name == name) {
            return Err(format!("entry {i}: a tool named '{name}' comes twice"));
        }
        plugins.push(Plugin {
            name,
            description,
            parameters: entry
                .remove("parameters")
                .unwrap_or_else(|| serde_json::json!({ "type": "object" })),
            answer: entry
                .remove("answer")
                .ok_or_else(|| format!("entry {i} has no `answer`"))?,
        });
        if let Some(key) = entry.keys().next() {
            return Err(format!(
                "entry {i}: unknown key `{key}` (the keys are name, description, parameters and answer)"
            ));
        }
    }
    Ok(plugins)
}

/// The plugin tools an agent serves now, by name.
#[derive(Debug, Default)]
pub struct Plugins {
    served: BTreeMap<String, Plugin>,
}

impl Plugins {
    /// Makes the plugin tools of `agent` those of `wanted`: registers the new ones, replaces
    /// those whose description, parameters or answer changed, and unregisters those no longer
    /// wanted. Answers what is served then, for [`Plugins::keep`] once the change is in
    /// place; on an error `agent` is half changed, so change a copy (`McpServer::update`
    /// does).
    pub fn apply(
        &self,
        agent: &mut Agent,
        wanted: Vec<Plugin>,
    ) -> Result<BTreeMap<String, Plugin>, AgentError> {
        let wanted: BTreeMap<String, Plugin> =
            wanted.into_iter().map(|p| (p.name.clone(), p)).collect();
        for name in self.served.keys().filter(|n| !wanted.contains_key(*n)) {
            agent.unregister(name)?;
        }
        for (name, plugin) in &wanted {
            match self.served.get(name) {
                None => agent.register(plugin.tool())?,
                Some(old) if old != plugin => agent.replace(plugin.tool())?,
                Some(_) => {}
            }
        }
        Ok(wanted)
    }

    /// Records what [`Plugins::apply`] answered, once the agent it changed is served.
    pub fn keep(&mut self, served: BTreeMap<String, Plugin>) {
        self.served = served;
    }

    /// The names of the plugin tools served, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.served.keys().map(String::as_str)
    }
}
