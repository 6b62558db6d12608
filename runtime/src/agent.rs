//! Agents: the capabilities one model sees at once, served by name.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::context::CallContext;
use crate::descriptor::ToolDescriptor;
use crate::dispatch::{Playbook, Toolbox};
use crate::errors::ToolError;
use crate::result::ToolResult;

/// A toolbox and/or playbook with the manual that explains them to the model.
#[derive(Clone)]
pub struct Capability {
    /// The capability's name.
    pub name: &'static str,
    /// What it is for.
    pub description: &'static str,
    /// Model-facing instructions.
    pub manual: Option<&'static str>,
    /// Its tools.
    pub toolbox: Option<Arc<dyn Toolbox>>,
    /// Its plays.
    pub playbook: Option<Arc<dyn Playbook>>,
}

impl fmt::Debug for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Capability")
            .field("name", &self.name)
            .field("toolbox", &self.toolbox.as_ref().map(|t| t.name()))
            .field("playbook", &self.playbook.as_ref().map(|p| p.name()))
            .finish()
    }
}

#[derive(Clone, Copy)]
enum Target {
    Tool(usize),
    Play(usize),
}

/// The set of capabilities one model sees, callable by tool or play name.
pub struct Agent {
    name: &'static str,
    description: &'static str,
    capabilities: Vec<Capability>,
    by_name: HashMap<&'static str, (Target, &'static ToolDescriptor)>,
    order: Vec<&'static ToolDescriptor>,
}

impl Agent {
    /// An agent over `capabilities`. Names are resolved once: a tool wins over a play of the
    /// same name, and an earlier capability over a later one (the compiler rejects both
    /// collisions, so this only matters for hand-built agents).
    pub fn new(
        name: &'static str,
        description: &'static str,
        capabilities: Vec<Capability>,
    ) -> Agent {
        let mut by_name = HashMap::new();
        let mut order = Vec::new();
        for (i, cap) in capabilities.iter().enumerate() {
            if let Some(tb) = &cap.toolbox {
                for d in tb.descriptors() {
                    if !by_name.contains_key(d.name) {
                        by_name.insert(d.name, (Target::Tool(i), d));
                        order.push(d);
                    }
                }
            }
        }
        for (i, cap) in capabilities.iter().enumerate() {
            if let Some(pb) = &cap.playbook {
                for d in pb.descriptors() {
                    if !by_name.contains_key(d.name) {
                        by_name.insert(d.name, (Target::Play(i), d));
                        order.push(d);
                    }
                }
            }
        }
        Agent {
            name,
            description,
            capabilities,
            by_name,
            order,
        }
    }

    /// The agent's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// What the agent is for.
    pub fn description(&self) -> &'static str {
        self.description
    }

    /// Its capabilities, in order.
    pub fn capabilities(&self) -> &[Capability] {
        &self.capabilities
    }

    /// Every tool, then every play, in capability order, each name once.
    pub fn tools(&self) -> Vec<&'static ToolDescriptor> {
        self.order.clone()
    }

    /// The descriptor of the tool or play called `name`.
    pub fn descriptor(&self, name: &str) -> Option<&'static ToolDescriptor> {
        self.by_name.get(name).map(|(_, d)| *d)
    }

    /// The capabilities' manuals, joined by blank lines.
    pub fn instructions(&self) -> String {
        let manuals: Vec<&str> = self
            .capabilities
            .iter()
            .filter_map(|c| c.manual)
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .collect();
        manuals.join("\n\n")
    }

    /// Calls the tool or play called `name`. A play answers `Ok` with its value or its error
    /// envelope; an unknown name fails with `unknown_tool`.
    pub async fn call(
        &self,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
    ) -> Result<Value, ToolError> {
        match self.by_name.get(name) {
            Some((Target::Tool(i), _)) => match &self.capabilities[*i].toolbox {
                Some(tb) => tb.call(name, arguments, ctx).await,
                None => Err(ToolError::unknown_tool(name)),
            },
            Some((Target::Play(i), _)) => match &self.capabilities[*i].playbook {
                Some(pb) => Ok(pb.call(name, arguments).await),
                None => Err(ToolError::unknown_tool(name)),
            },
            None => Err(ToolError::unknown_tool(name)),
        }
    }

    /// [`Agent::call`] as the envelope the model sees.
    pub async fn call_result(&self, name: &str, arguments: &str, ctx: &CallContext) -> ToolResult {
        ToolResult::from(self.call(name, arguments, ctx).await)
    }
}

impl fmt::Debug for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Agent")
            .field("name", &self.name)
            .field("capabilities", &self.capabilities)
            .finish()
    }
}
