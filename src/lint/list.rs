//! The tool-list rule functions: names, counts and budgets over one emitted
//! tool list (the request a provider receives, or an MCP `tools/list`).

use super::checks::stamp;
use super::rules::{Check, RULES, Rule};
use super::walk::{self, required, types};
use super::{Dialect, Hit, Spot, ToolFacts};
use serde_json::Value;
use std::collections::BTreeMap;

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

/// The list rules enabled, over `cx`'s entries.
pub fn run(cx: &ListCx<'_>, enabled: &dyn Fn(&Rule) -> bool) -> Vec<Hit> {
    let dialect = cx.dialect;
    let mut out = Vec::new();
    for r in RULES {
        if let Check::List(f) = r.check
            && r.grade(Some(dialect)).is_some()
            && enabled(r)
        {
            let mut hits = Vec::new();
            f(cx, &mut hits);
            out.extend(stamp(r.id, hits));
        }
    }
    out
}

fn chars_ok(name: &str, first: impl Fn(char) -> bool, rest: impl Fn(char) -> bool) -> bool {
    let mut cs = name.chars();
    match cs.next() {
        Some(c) if first(c) => cs.all(rest),
        _ => false,
    }
}

fn word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

pub fn tool_name_pattern(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    let lead = |c: char| c.is_ascii_alphabetic() || c == '_';
    for i in cx.indexes() {
        let name = cx.name(i);
        let (ok, pattern) = match cx.dialect {
            Dialect::OpenAi | Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict => {
                (chars_ok(name, word, word), "^[a-zA-Z0-9_-]+$")
            }
            Dialect::Anthropic | Dialect::AnthropicStrict => (
                chars_ok(name, word, word) && name.len() <= 128,
                "^[a-zA-Z0-9_-]{1,128}$",
            ),
            Dialect::Gemini | Dialect::GeminiJsonSchema => (
                chars_ok(name, lead, |c| word(c) || c == '.' || c == ':'),
                "^[A-Za-z_][A-Za-z0-9_.:-]*$",
            ),
            Dialect::GeminiVertex => (
                chars_ok(name, lead, |c| word(c) || c == '.'),
                "^[A-Za-z_][A-Za-z0-9_.-]*$",
            ),
            Dialect::Mcp => continue,
        };
        if !ok {
            out.push(Spot::tool(
                i,
                format!("tool name `{name}` does not match `{pattern}`"),
            ));
        }
    }
}

pub fn tool_name_length(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        let name = cx.name(i);
        if name.len() > 64 {
            out.push(Spot::tool(
                i,
                format!(
                    "tool name `{name}` is {} characters; the limit is 64",
                    name.len()
                ),
            ));
        }
    }
}

pub fn tool_name_sep986(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        let name = cx.name(i);
        let ok = !name.is_empty() && name.len() <= 128 && name.chars().all(|c| word(c) || c == '.');
        if !ok {
            out.push(Spot::tool(
                i,
                format!("MCP tool names should be 1-128 characters of `A-Z a-z 0-9 _ - .`; `{name}` is not"),
            ));
        }
    }
}

pub fn tool_name_portable(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    if cx.targets.len() < 2 {
        return;
    }
    for i in cx.indexes() {
        let name = cx.name(i);
        let ok = chars_ok(name, |c| c.is_ascii_alphabetic() || c == '_', word) && name.len() <= 64;
        if !ok {
            out.push(Spot::tool(
                i,
                format!("tool name `{name}` is not portable across providers (`^[A-Za-z_][A-Za-z0-9_-]{{0,63}}$`)"),
            ));
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

pub fn tool_description_length(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    for i in cx.indexes() {
        let n = cx.description(i).chars().count();
        if n > 1024 {
            out.push(Spot::tool(
                i,
                format!(
                    "the description of `{}` is {n} characters; the limit is 1024",
                    cx.name(i)
                ),
            ));
        }
    }
}

pub fn tool_count(cx: &ListCx<'_>, out: &mut Vec<Spot>) {
    let Some(limit) = cx.dialect.max_tools() else {
        return;
    };
    let n = cx.entries.len();
    if n > limit {
        out.push(Spot::tool(
            limit,
            format!("{n} tools in one request; the limit is {limit}"),
        ));
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
