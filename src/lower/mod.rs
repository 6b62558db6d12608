//! Stage 3, lower: every tool and play of the toolset in each dialect's form,
//! made once from the typed schema model. Lint reads these forms, emit writes
//! them, and the generated descriptors carry the MCP form to the runtime, so
//! what a provider is shown is made in one place.
//!
//! Each tool is lowered once per dialect (whichever agents reach it), and
//! always for MCP, which the runtime serves whatever the config lints.

#[cfg(test)]
pub mod arguments;
pub mod dialect;
mod entry;
mod mcp_entry;
pub mod schema;
pub mod search;

pub use dialect::{Dialect, Role};
pub use entry::is_empty_object;
pub use mcp_entry::{DEFAULT_INPUT_SCHEMA, McpEntry, McpTexts};
pub use schema::{Form, Options, RefusalKind};
pub use search::AgentIndex;

use crate::model::{Agent, Tool, Toolset};
use serde_json::{Value, json};
use std::cell::Cell;

thread_local! {
    static LOWERED_SCHEMAS: Cell<usize> = const { Cell::new(0) };
}

#[cfg(test)]
/// How many schemas the calls of [`lower`] on this thread have lowered so far (on whichever
/// threads they spread the work): tests compare it with [`Lowered::schema_count`] to show that
/// a build lowers each schema once.
pub fn schemas_lowered_on_this_thread() -> usize {
    LOWERED_SCHEMAS.with(Cell::get)
}

/// One tool's form in one dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolForm {
    pub dialect: Dialect,
    /// The parameters; `None` where the entry leaves them out (Gemini takes
    /// no `parameters` for a tool without arguments).
    pub parameters: Option<Form>,
    /// The result's schema, for dialects that send one.
    pub returns: Option<Form>,
    /// Why the MCP entry has no `outputSchema` although the tool has `returns`.
    pub output_omitted: Option<String>,
}

impl ToolForm {
    /// The tool's entry in the dialect's tool list (`tool` is the operation this form is
    /// of). Made when asked, from the forms, rather than kept beside them: an entry holds
    /// its own copy of the parameters and returns, and kept for every tool in every
    /// dialect those copies were a fifth of the memory of a large build.
    pub fn entry(&self, tool: &Tool) -> Value {
        self.entry_with(tool, Value::clone)
    }

    /// The tool's MCP entry, typed; `None` for a form of another dialect.
    pub fn mcp_entry<'a>(&'a self, tool: &'a Tool) -> Option<McpEntry<'a>> {
        (self.dialect == Dialect::Mcp)
            .then(|| McpEntry::new(tool, self.parameters.as_ref(), self.returns.as_ref()))
    }

    /// The tool's entry with each schema stood in for by an empty object (by the schema
    /// itself where it is not an object): what lint's list rules read of an entry besides its
    /// input schema, which they read in the form ([`Lowered::outlines`]). Copying every
    /// schema of an agent's list was most of lint's memory.
    pub fn outline(&self, tool: &Tool) -> Value {
        self.entry_with(tool, |v| match v {
            Value::Object(_) => Value::Object(serde_json::Map::new()),
            other => other.clone(),
        })
    }

    /// The tool's entry, each schema as `schema` gives it.
    fn entry_with(&self, tool: &Tool, schema: fn(&Value) -> Value) -> Value {
        entry::entry(
            tool,
            self.dialect,
            self.parameters.as_ref(),
            self.returns.as_ref(),
            schema,
        )
    }
}

/// An agent's tool list in a dialect, outlined: each entry's [`ToolForm::outline`] and the
/// input schema that entry carries, if any.
pub struct Outlines<'s> {
    pub entries: Vec<Value>,
    pub inputs: Vec<Option<&'s Value>>,
}

/// Every tool and play of a toolset in the dialects lowered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lowered {
    /// The dialects asked for, in order (MCP is lowered besides, always).
    pub dialects: Vec<Dialect>,
    /// Per operation (see [`Toolset::operations`]): its forms, one per
    /// dialect lowered.
    pub tools: Vec<Vec<ToolForm>>,
    /// How many schemas were lowered.
    pub schema_count: usize,
    /// Per agent (see [`Toolset::agents`]): its tool-search index.
    pub search: Vec<AgentIndex>,
}

impl Lowered {
    /// The form of operation `op` in `dialect`, if it was lowered.
    pub fn form(&self, op: usize, dialect: Dialect) -> Option<&ToolForm> {
        self.tools.get(op)?.iter().find(|f| f.dialect == dialect)
    }

    /// Frees the origin of every output node, which only lint reads to locate its findings:
    /// once lint has run, the emitters need the forms alone, and the origins (a pointer
    /// string per node of every form) were a large part of a build's peak memory.
    /// Findings of a later lint of these forms would lose their places.
    pub fn forget_origins(&mut self) {
        let forms = self.tools.iter_mut().flatten();
        for form in forms {
            for f in form.parameters.iter_mut().chain(form.returns.iter_mut()) {
                f.forget_origins();
            }
        }
    }

    /// An agent's tool list in a dialect's request shape: the OpenAI `tools`
    /// array, `{"functionDeclarations": [...]}` for Gemini, the Anthropic
    /// `tools` array, or an MCP `tools/list` result `{"tools": [...]}`.
    pub fn list(&self, toolset: &Toolset, agent: &Agent, dialect: Dialect) -> Value {
        let entries: Vec<Value> = self.entries(toolset, agent, dialect).collect();
        match list_key(dialect) {
            Some(key) => json!({ key: entries }),
            None => Value::Array(entries),
        }
    }

    /// The entries of an agent's tool list in a dialect, each made as the iterator reaches
    /// it: `emit::lists` serializes them one at a time, so a list is never held whole.
    pub fn entries<'s>(
        &'s self,
        toolset: &'s Toolset,
        agent: &Agent,
        dialect: Dialect,
    ) -> impl Iterator<Item = Value> + 's {
        let tools: Vec<&Tool> = toolset.operations().collect();
        toolset
            .agent_operations(agent)
            .into_iter()
            .filter_map(move |op| Some(self.form(op, dialect)?.entry(tools.get(op)?)))
    }

    /// An agent's tool list in a dialect as lint reads it: each entry outlined, beside the
    /// input schema it carries (see [`ToolForm::outline`]).
    pub fn outlines<'s>(
        &'s self,
        toolset: &Toolset,
        agent: &Agent,
        dialect: Dialect,
    ) -> Outlines<'s> {
        let tools: Vec<&Tool> = toolset.operations().collect();
        let (entries, inputs) = toolset
            .agent_operations(agent)
            .into_iter()
            .filter_map(|op| {
                let form = self.form(op, dialect)?;
                let input = form.parameters.as_ref().map(|f| &f.json);
                Some((form.outline(tools.get(op)?), input))
            })
            .unzip();
        Outlines { entries, inputs }
    }
}

/// The one key of the object a dialect's tool list is wrapped in (`functionDeclarations`
/// for Gemini, `tools` for MCP), or `None` for a bare array.
pub fn list_key(dialect: Dialect) -> Option<&'static str> {
    match dialect {
        Dialect::Gemini | Dialect::GeminiVertex | Dialect::GeminiJsonSchema => {
            Some("functionDeclarations")
        }
        Dialect::Mcp => Some("tools"),
        _ => None,
    }
}

#[cfg(test)]
/// One schema in one dialect's form, with the default options: for tests
/// and for tools built on toolc.
pub fn schema_for(toolset: &Toolset, id: crate::model::SchemaId, dialect: Dialect) -> Form {
    schema::lower(&toolset.schemas, id, dialect, Options::default())
}

/// Lowers every tool and play of `toolset` into each of `dialects`, and MCP.
pub fn lower(toolset: &Toolset, dialects: &[Dialect], options: Options) -> Lowered {
    let mut all: Vec<Dialect> = dialects.to_vec();
    if !all.contains(&Dialect::Mcp) {
        all.push(Dialect::Mcp);
    }
    // Each operation's forms are its own: made a few at a time, one thread per core.
    let operations: Vec<&Tool> = toolset.operations().collect();
    let lowered = crate::parallel::map_ordered(
        &operations,
        "toolc-lower",
        crate::parallel::SCHEMA_STACK_BYTES,
        |tool| {
            let mut count = 0;
            let forms: Vec<ToolForm> = all
                .iter()
                .map(|&d| tool_form(toolset, tool, d, options, &mut count))
                .collect();
            (forms, count)
        },
    );
    let count = lowered.iter().map(|(_, n)| n).sum();
    LOWERED_SCHEMAS.with(|c| c.set(c.get() + count));
    let tools: Vec<Vec<ToolForm>> = lowered.into_iter().map(|(forms, _)| forms).collect();
    let search = toolset
        .agents
        .iter()
        .map(|a| search::agent_index(toolset, &tools, a))
        .collect();
    Lowered {
        dialects: dialects.to_vec(),
        tools,
        schema_count: count,
        search,
    }
}

fn lower_schema(
    toolset: &Toolset,
    id: crate::model::SchemaId,
    dialect: Dialect,
    options: Options,
    count: &mut usize,
) -> Form {
    *count += 1;
    schema::lower(&toolset.schemas, id, dialect, options)
}

fn tool_form(
    toolset: &Toolset,
    tool: &Tool,
    dialect: Dialect,
    options: Options,
    count: &mut usize,
) -> ToolForm {
    let params = lower_schema(toolset, tool.parameters, dialect, options, count);
    let parameters =
        (!(dialect == Dialect::Gemini && is_empty_object(&params.json))).then_some(params);
    let (returns, output_omitted) = match tool.returns {
        Some(r) if dialect.sends_returns() => {
            let mut form = lower_schema(toolset, r, dialect, options, count);
            let omitted = (dialect == Dialect::Mcp)
                .then(|| entry::mcp_output_omitted(&toolset.schemas, tool, r))
                .flatten();
            match omitted {
                Some(why) => (None, Some(why)),
                None => {
                    if dialect == Dialect::Mcp {
                        entry::mcp_output_root(&mut form.json);
                    }
                    (Some(form), None)
                }
            }
        }
        _ => (None, None),
    };
    ToolForm {
        dialect,
        parameters,
        returns,
        output_omitted,
    }
}
