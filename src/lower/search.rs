//! Each agent's tool-search index, made once from its tools as the generated descriptors
//! carry them (name, title, description, MCP input schema): emit writes it into the
//! generated code as static tables, and lint measures how far apart the agent's tools are
//! with it.

use super::{Dialect, ToolForm};
use crate::model::{Agent, Tool, Toolset};
use toolc_search::{Builder, Document, Index};

/// One agent's search index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentIndex {
    /// The agent's tools and plays as indexes into [`Toolset::operations`], in the order the
    /// runtime's `Agent::new` serves them (document `d` of the index is `operations[d]`).
    pub operations: Vec<usize>,
    pub index: Index,
}

/// An agent's tools and plays in the order `toolc_runtime::Agent::new` lists them, which the
/// index must follow to be used: every capability's toolbox tools, in capability order, then
/// the agent's delegates, then every capability's playbook plays; a toolbox or playbook bound
/// twice is served once.
pub fn runtime_order(toolset: &Toolset, agent: &Agent) -> Vec<usize> {
    let mut out = Vec::new();
    for playbooks in [false, true] {
        let mut seen = Vec::new();
        for &c in &agent.capabilities {
            let cap = &toolset.capabilities[c];
            let (group, len) = if playbooks {
                match cap.playbook {
                    Some(p) => (p, toolset.playbooks[p].plays.len()),
                    None => continue,
                }
            } else {
                match cap.toolbox {
                    Some(t) => (t, toolset.toolboxes[t].tools.len()),
                    None => continue,
                }
            };
            if seen.contains(&group) {
                continue;
            }
            seen.push(group);
            let first = toolset.operation_index(playbooks, group, 0);
            out.extend(first..first + len);
        }
        // The delegates are served as one more toolbox, after the capabilities'.
        if !playbooks && let Some(i) = toolset.agents.iter().position(|a| a.name == agent.name) {
            let first = toolset.delegate_offset(i);
            out.extend(first..first + toolset.agents[i].delegates.len());
        }
    }
    out
}

/// The document of a tool with its lowered forms: the one `toolc_runtime` makes of the
/// tool's descriptor (the input schema is the MCP form's, which the descriptor carries).
pub fn document(tool: &Tool, forms: &[ToolForm]) -> Document {
    let schema = forms
        .iter()
        .find(|f| f.dialect == Dialect::Mcp)
        .and_then(|f| f.parameters.as_ref())
        .map(|p| &p.json);
    Document::tool_with_schema(
        &tool.name,
        tool.title.as_deref(),
        &tool.description,
        schema.unwrap_or(&serde_json::Value::Null),
    )
}

/// The index of `agent`'s tools, from their lowered forms (`forms`, per operation).
pub fn agent_index(toolset: &Toolset, forms: &[Vec<ToolForm>], agent: &Agent) -> AgentIndex {
    let tools: Vec<&Tool> = toolset.operations().collect();
    let operations = runtime_order(toolset, agent);
    let mut b = Builder::new();
    for &op in &operations {
        if let Some(tool) = tools.get(op) {
            b.add(&document(tool, forms.get(op).map_or(&[], Vec::as_slice)));
        }
    }
    AgentIndex {
        operations,
        index: b.finish(),
    }
}
