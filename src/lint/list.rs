//! The tool-list rule functions: names, counts and budgets over one emitted
//! tool list (the request a provider receives, or an MCP `tools/list`).

use super::spot::Spot;
use super::walk::{self, required, types};
use crate::lower::Dialect;
use crate::model::Tool;
use serde_json::Value;
use std::collections::BTreeMap;

/// Facts about a listed tool that its emitted JSON does not show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolFacts {
    /// The manifest gives a `returns` schema.
    pub has_returns: bool,
    /// The result is validated against it before it leaves the handler.
    pub validate_returns: bool,
}

impl Default for ToolFacts {
    fn default() -> Self {
        ToolFacts {
            has_returns: false,
            validate_returns: true,
        }
    }
}

impl ToolFacts {
    /// The facts of a resolved tool.
    pub fn of(tool: &Tool) -> Self {
        ToolFacts {
            has_returns: tool.returns.is_some(),
            validate_returns: tool.validate_returns,
        }
    }
}

/// What every list check sees.
pub struct ListCx<'a> {
    pub dialect: Dialect,
    /// Every dialect being linted.
    pub targets: &'a [Dialect],
    pub entries: Vec<&'a Value>,
    /// Each entry's input schema, when the entries are outlines (their schemas stood in for,
    /// see `ToolForm::outline`); `None` when they are the entries as sent.
    pub inputs: Option<Vec<Option<&'a Value>>>,
    pub facts: &'a [ToolFacts],
}

impl<'a> ListCx<'a> {
    /// The object holding a tool's name and description.
    fn body(&self, e: &'a Value) -> &'a Value {
        if self.dialect.is_openai() {
            e.get("function").unwrap_or(e)
        } else {
            e
        }
    }

    pub fn name(&self, i: usize) -> &'a str {
        self.entries
            .get(i)
            .and_then(|e| self.body(e).get("name"))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    pub fn description(&self, i: usize) -> &'a str {
        self.entries
            .get(i)
            .and_then(|e| self.body(e).get("description"))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// The input schema, under whatever key the dialect uses.
    pub fn input_schema(&self, i: usize) -> Option<&'a Value> {
        if let Some(inputs) = &self.inputs {
            return inputs.get(i).copied().flatten();
        }
        let e = self.entries.get(i)?;
        let key = match self.dialect {
            Dialect::OpenAi | Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict => "parameters",
            Dialect::Gemini | Dialect::GeminiVertex => "parameters",
            Dialect::GeminiJsonSchema => "parametersJsonSchema",
            Dialect::Anthropic | Dialect::AnthropicStrict => "input_schema",
            Dialect::Mcp => "inputSchema",
        };
        self.body(e).get(key)
    }

    pub fn is_strict(&self, i: usize) -> bool {
        self.entries.get(i).and_then(|e| self.body(e).get("strict")) == Some(&Value::Bool(true))
    }

    fn indexes(&self) -> std::ops::Range<usize> {
        0..self.entries.len()
    }
}

/// The tool entries of an emitted list.
pub fn entries(list: &Value, dialect: Dialect) -> Vec<&Value> {
    let arr = match dialect {
        Dialect::Gemini | Dialect::GeminiVertex | Dialect::GeminiJsonSchema => {
            list.get("functionDeclarations")
        }
        Dialect::Mcp => list.get("tools"),
        _ => Some(list),
    };
    arr.and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

fn word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// A name like `name`, of characters every provider takes (`.`, `:` and others as `_`), for
/// the help lines of the name rules.
fn plain_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| if word(c) { c } else { '_' })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 't');
        out.insert(1, '_');
    }
    out.chars().take(64).collect()
}

pub fn tool_name_pattern(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        let name = cx.name(i);
        if !cx.dialect.name_chars_ok(name) {
            out.push(
                Spot::tool(
                    i,
                    format!(
                        "tool name `{name}` does not match `{}`",
                        cx.dialect.name_pattern()
                    ),
                )
                .with_help(format!(
                    "rename the tool to a name of `{}`, such as `{}` (the manifest's name is the one every dialect lists)",
                    cx.dialect.name_pattern(),
                    plain_name(name)
                )),
            );
        }
    }
}

pub fn tool_name_length(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    let limit = cx.dialect.max_name_len();
    for i in cx.indexes() {
        let name = cx.name(i);
        if name.len() > limit {
            out.push(
                Spot::tool(
                    i,
                    format!(
                        "tool name `{name}` is {} characters; {} takes at most {limit}",
                        name.len(),
                        cx.dialect
                    ),
                )
                .with_help(format!(
                    "shorten the tool name to {limit} characters at most"
                )),
            );
        }
    }
}

pub fn tool_name_sep986(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        let name = cx.name(i);
        if !Dialect::Mcp.takes_name(name) {
            out.push(Spot::tool(
                i,
                format!("MCP tool names should be 1-128 characters of `A-Z a-z 0-9 _ - .`; `{name}` is not"),
            ));
        }
    }
}

/// Warns, in each dialect that takes a name, about the other dialects linted that refuse it
/// (those report it themselves, as `tool-name-pattern` or `tool-name-length`).
pub fn tool_name_portable(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        let name = cx.name(i);
        if !cx.dialect.takes_name(name) {
            continue;
        }
        let refusing: Vec<String> = cx
            .targets
            .iter()
            .filter(|t| !t.takes_name(name))
            .map(|t| format!("`{t}`"))
            .collect();
        if !refusing.is_empty() {
            out.push(
                Spot::tool(
                    i,
                    format!(
                        "tool name `{name}` is refused by {}, also linted",
                        refusing.join(", ")
                    ),
                )
                .with_help(format!(
                    "rename the tool to one every dialect takes (`^[A-Za-z][A-Za-z0-9_-]{{0,63}}$`), such as `{}`",
                    plain_name(name)
                )),
            );
        }
    }
}

pub fn tool_name_duplicate(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for i in cx.indexes() {
        let name = cx.name(i);
        if let Some(first) = seen.get(name) {
            out.push(Spot::tool(
                i,
                format!(
                    "tool name `{name}` is listed twice (also tool {} of the list)",
                    first + 1
                ),
            ));
        } else {
            seen.insert(name, i);
        }
    }
}

/// The description length OpenAI's API refused above until 2025, and Azure OpenAI still does.
pub const OPENAI_DESCRIPTION_CHARS: usize = 1024;

pub fn tool_description_length(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    let limit = OPENAI_DESCRIPTION_CHARS;
    for i in cx.indexes() {
        let n = cx.description(i).chars().count();
        if n > limit {
            let message = if cx.dialect == Dialect::AzureOpenAiStrict {
                format!(
                    "the description of `{}` is {n} characters; Azure OpenAI takes at most {limit}",
                    cx.name(i)
                )
            } else {
                format!(
                    "the description of `{}` is {n} characters; OpenAI refused more than {limit} until 2025, and OpenAI-compatible servers may still",
                    cx.name(i)
                )
            };
            out.push(Spot::tool(i, message).with_help(format!(
                "shorten the description to {limit} characters (it has {} too many); move the details into the capability's manual",
                n - limit
            )));
        }
    }
}

pub fn tool_count(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    let Some(limit) = cx.dialect.max_tools() else {
        return;
    };
    let n = cx.entries.len();
    if n > limit {
        out.push(
            Spot::tool(
                limit,
                format!("{n} tools in one request; {} takes at most {limit}", cx.dialect),
            )
            .with_help(format!(
                "split the agent's capabilities across agents of at most {limit} tools each, or send each request only the tools `agent.search_tools` finds for it (`McpServer::with_deferred_loading` does so over MCP)"
            )),
        );
    }
}

pub fn strict_tool_count(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    let strict: Vec<usize> = cx.indexes().filter(|&i| cx.is_strict(i)).collect();
    if strict.len() > 20 {
        out.push(Spot::tool(
            strict[20],
            format!(
                "{} strict tools in one request; the limit is 20",
                strict.len()
            ),
        ));
    }
}

pub fn responses_implicit_strict(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        if cx.entries[i]
            .get("function")
            .and_then(|f| f.get("strict"))
            .is_none()
            && cx.entries[i].get("strict").is_none()
        {
            out.push(Spot::tool(
                i,
                format!(
                    "tool `{}` does not say `strict`; the Responses API then treats it as strict",
                    cx.name(i)
                ),
            ));
        }
    }
}

pub fn mcp_input_schema_null(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        if !cx.entries[i]
            .get("inputSchema")
            .is_some_and(Value::is_object)
        {
            out.push(Spot::tool(
                i,
                format!("tool `{}` has no `inputSchema` object", cx.name(i)),
            ));
        }
    }
}

pub fn gemini_params_mutually_exclusive(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        let e = cx.entries[i];
        for (a, b) in [
            ("parameters", "parametersJsonSchema"),
            ("response", "responseJsonSchema"),
        ] {
            if e.get(a).is_some() && e.get(b).is_some() {
                out.push(Spot::tool(
                    i,
                    format!("tool `{}` sets both `{a}` and `{b}`", cx.name(i)),
                ));
            }
        }
    }
}

pub fn gemini_live_no_jsonschema(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    if let Some(i) = cx
        .indexes()
        .find(|&i| cx.entries[i].get("parametersJsonSchema").is_some())
    {
        out.push(Spot::tool(
            i,
            "the Live API (BidiGenerateContent) reads only `parameters`, not `parametersJsonSchema`",
        ));
    }
}

/// Optional properties (not in `required`) anywhere in a schema.
fn optional_count(schema: &Value) -> usize {
    let mut n = 0;
    walk::each(schema, &mut |node| {
        if let Some(m) = node.map()
            && let Some(Value::Object(props)) = m.get("properties")
        {
            let req = required(m);
            n += props.keys().filter(|k| !req.contains(&k.as_str())).count();
        }
    });
    n
}

/// Union-typed nodes: `anyOf`/`oneOf`, or a `type` list.
fn union_count(schema: &Value) -> usize {
    let mut n = 0;
    walk::each(schema, &mut |node| {
        if let Some(m) = node.map()
            && (m.contains_key("anyOf") || m.contains_key("oneOf") || types(m).len() > 1)
        {
            n += 1;
        }
    });
    n
}

fn strict_budget(
    cx: &ListCx<'_>,
    out: &mut Vec<Spot>,
    limit: usize,
    count: fn(&Value) -> usize,
    what: &str,
) {
    let mut total = 0;
    let mut over = None;
    for i in cx.indexes().filter(|&i| cx.is_strict(i)) {
        total += cx.input_schema(i).map_or(0, count);
        if total > limit && over.is_none() {
            over = Some(i);
        }
    }
    if let Some(i) = over {
        out.push(Spot::tool(
            i,
            format!("{total} {what} across the strict tools of one request; the limit is {limit}"),
        ));
    }
}

pub fn anthropic_strict_optional_budget(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    strict_budget(cx, out, 24, optional_count, "optional properties");
}

pub fn anthropic_strict_union_budget(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    strict_budget(cx, out, 16, union_count, "union-typed schemas");
}

/// Bytes of strict input schemas above which Anthropic's grammar compiler
/// has been seen to complain.
pub const ANTHROPIC_GRAMMAR_BYTES: usize = 32 * 1024;

pub fn anthropic_strict_grammar_size(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    strict_budget(
        cx,
        out,
        ANTHROPIC_GRAMMAR_BYTES,
        |s| s.to_string().len(),
        "bytes of schema",
    );
}

pub fn mcp_structured_content_required(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        if cx.entries[i].get("outputSchema").is_some()
            && cx.facts.get(i).is_some_and(|f| !f.has_returns)
        {
            out.push(Spot::tool(
                i,
                format!("tool `{}` declares an `outputSchema` but its handler has no `returns` to give `structuredContent`", cx.name(i)),
            ));
        }
    }
}

pub fn mcp_structured_content_conformance(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        if cx.entries[i].get("outputSchema").is_some()
            && cx.facts.get(i).is_some_and(|f| !f.validate_returns)
        {
            out.push(
                Spot::tool(
                    i,
                    format!("tool `{}` has `validate_returns: false`, so its result may not match the `outputSchema` MCP clients check it against", cx.name(i)),
                )
                .with_help("validate the result (`validate_returns: true`), or drop `returns`"),
            );
        }
    }
}

pub fn mcp_annotation_contradiction(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        let Some(a) = cx.entries[i].get("annotations") else {
            continue;
        };
        // Clients read `destructiveHint` and `idempotentHint` only for tools
        // that are not read-only, so for a read-only tool only a
        // destructive claim says something the other hint denies.
        if a.get("readOnlyHint") == Some(&Value::Bool(true))
            && a.get("destructiveHint") == Some(&Value::Bool(true))
        {
            out.push(Spot::tool(
                i,
                format!(
                    "tool `{}` is marked both read-only and destructive; clients take it as read-only",
                    cx.name(i)
                ),
            ));
        }
    }
}

pub fn mcp_annotation_title_shadow(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        let e = cx.entries[i];
        if let (Some(t), Some(a)) = (
            e.get("title"),
            e.get("annotations").and_then(|a| a.get("title")),
        ) && t != a
        {
            out.push(Spot::tool(
                i,
                format!(
                    "tool `{}` has `title` {t} and `annotations.title` {a}; clients show `title`",
                    cx.name(i)
                ),
            ));
        }
    }
}
