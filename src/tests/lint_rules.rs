//! One table test per lint rule: for every rule that is an error in some
//! dialect, an input that triggers it (at the expected place) and a close
//! one that does not.

use crate::Dialect::*;
use crate::Severity;
use crate::lint::RULES;
use crate::{Dialect, Role};
use crate::{Hit, ToolFacts, check_schema, check_tool_list};
use serde_json::{Value, json};

/// What a case feeds the rules.
enum Input {
    /// A schema, checked as the given role.
    Schema(Role, Value),
    /// A tool list in the dialect's shape, with facts per tool.
    List(Value, Vec<ToolFacts>),
}

struct Case {
    rule: &'static str,
    dialect: Dialect,
    input: Input,
    /// `Some(pointer)` (or `Some("#N")` for tool N of a list): must fire
    /// there. `None`: must not fire.
    fires_at: Option<&'static str>,
}

fn params(v: Value) -> Input {
    Input::Schema(Role::Parameters, v)
}

fn returns(v: Value) -> Input {
    Input::Schema(Role::Returns, v)
}

fn obj(props: Value) -> Value {
    let names: Vec<String> = props.as_object().unwrap().keys().cloned().collect();
    json!({"type": "object", "properties": props, "required": names, "additionalProperties": false})
}

fn oai(names: &[&str]) -> Input {
    let list: Vec<Value> = names
        .iter()
        .map(|n| json!({"type": "function", "function": {"name": n, "description": "d", "parameters": obj(json!({})), "strict": false}}))
        .collect();
    Input::List(Value::Array(list), vec![])
}

fn ant(names: &[&str], strict: bool, schema: Value) -> Input {
    let list: Vec<Value> = names
        .iter()
        .map(|n| json!({"name": n, "description": "d", "input_schema": schema, "strict": strict}))
        .collect();
    Input::List(Value::Array(list), vec![])
}

fn gem(decls: Vec<Value>) -> Input {
    Input::List(json!({"functionDeclarations": decls}), vec![])
}

fn mcp(tools: Vec<Value>, facts: Vec<ToolFacts>) -> Input {
    Input::List(json!({"tools": tools}), facts)
}

fn many(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("t{i}")).collect()
}

fn hits(case: &Case) -> Vec<Hit> {
    let all = match &case.input {
        Input::Schema(role, v) => check_schema(v, case.dialect, *role),
        Input::List(v, facts) => check_tool_list(v, case.dialect, &[case.dialect], facts),
    };
    all.into_iter().filter(|h| h.rule == case.rule).collect()
}

fn place(h: &Hit) -> String {
    match h.tool {
        Some(i) => format!("#{i}"),
        None => h.pointer.clone(),
    }
}

/// Every rule's cases: each a rule, a dialect, an input and where the rule must fire.
// Over 80 lines: a table, one entry per case; splitting it by rule would only scatter it.
fn cases() -> Vec<Case> {
    let c = |rule, dialect, input, fires_at| Case {
        rule,
        dialect,
        input,
        fires_at,
    };
    let long = "x".repeat(65);
    let long: &'static str = Box::leak(long.into_boxed_str());
    let longer = "x".repeat(129);
    let longer: &'static str = Box::leak(longer.into_boxed_str());
    let oai_many: Vec<String> = many(129);
    let oai_many: Vec<&str> = oai_many
        .iter()
        .map(|s| &*Box::leak(s.clone().into_boxed_str()))
        .collect();
    let ant_21: Vec<&str> = many(21)
        .into_iter()
        .map(|s| &*Box::leak(s.into_boxed_str()))
        .collect();
    let ant_20 = ant_21[..20].to_vec();
    let five_optional = json!({"type": "object", "additionalProperties": false, "properties": {
        "a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}, "d": {"type": "string"}, "e": {"type": "string"}}});
    let three_unions = json!({"type": "object", "additionalProperties": false, "required": ["a", "b", "c"], "properties": {
        "a": {"type": ["string", "null"]}, "b": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "c": {"type": ["integer", "null"]}}});
    let deep = |levels: usize| {
        let mut v = json!({"type": "string"});
        for _ in 0..levels {
            v = obj(json!({"x": v}));
        }
        v
    };
    let props = |n: usize| {
        let mut m = serde_json::Map::new();
        for i in 0..n {
            m.insert(format!("p{i}"), json!({"type": "string"}));
        }
        obj(Value::Object(m))
    };
    let enum_of = |n: usize, len: usize| {
        let vals: Vec<Value> = (0..n).map(|i| json!(format!("{i:0len$}"))).collect();
        obj(json!({"e": {"type": "string", "enum": vals}}))
    };
    let gem_decl = |name: &str| json!({"name": name, "description": "d", "parameters": obj(json!({"a": {"type": "string"}}))});
    let mcp_tool = |name: &str, extra: Value| {
        let mut t = json!({"name": name, "description": "d", "inputSchema": {"type": "object", "properties": {}}});
        for (k, v) in extra.as_object().unwrap() {
            t[k] = v.clone();
        }
        t
    };
    let facts = |has_returns: bool, validate_returns: bool| ToolFacts {
        has_returns,
        validate_returns,
    };
    let recursive = json!({"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}}, "$defs": {
        "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}});
    let acyclic = json!({"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}}, "$defs": {
        "Node": {"type": "object", "properties": {"name": {"type": "string"}}}}});
    let required_cycle = json!({"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}}, "$defs": {
        "Node": {"type": "object", "required": ["next"], "properties": {"next": {"$ref": "#/$defs/Node"}}}}});

    vec![
        // 7.1 names, envelope, counts
        c(
            "tool-name-pattern",
            OpenAi,
            oai(&["admin.tools.list"]),
            Some("#0"),
        ),
        c(
            "tool-name-pattern",
            OpenAi,
            oai(&["list_tickets", "list-tickets"]),
            None,
        ),
        c(
            "tool-name-pattern",
            Anthropic,
            ant(&["a b"], false, obj(json!({}))),
            Some("#0"),
        ),
        c(
            "tool-name-pattern",
            Anthropic,
            ant(&["ok_name"], false, obj(json!({}))),
            None,
        ),
        c(
            "tool-name-pattern",
            Gemini,
            gem(vec![gem_decl("1abc")]),
            Some("#0"),
        ),
        c(
            "tool-name-pattern",
            Gemini,
            gem(vec![gem_decl("ns:tool.v1")]),
            None,
        ),
        c(
            "tool-name-pattern",
            GeminiVertex,
            gem(vec![gem_decl("ns:tool")]),
            Some("#0"),
        ),
        c(
            "tool-name-pattern",
            GeminiVertex,
            gem(vec![gem_decl("ns.tool")]),
            None,
        ),
        c("tool-name-length", OpenAiStrict, oai(&[long]), Some("#0")),
        c("tool-name-length", OpenAiStrict, oai(&[&long[..64]]), None),
        // Gemini's Developer API and Anthropic take 128 characters, Vertex AI 64.
        c(
            "tool-name-length",
            Gemini,
            gem(vec![gem_decl(longer)]),
            Some("#0"),
        ),
        c("tool-name-length", Gemini, gem(vec![gem_decl(long)]), None),
        c(
            "tool-name-length",
            GeminiVertex,
            gem(vec![gem_decl(long)]),
            Some("#0"),
        ),
        c(
            "tool-name-length",
            Anthropic,
            ant(&[longer], false, obj(json!({}))),
            Some("#0"),
        ),
        c(
            "tool-name-length",
            Anthropic,
            ant(&[&longer[..128]], false, obj(json!({}))),
            None,
        ),
        c(
            "tool-name-duplicate",
            Anthropic,
            ant(&["a", "b", "a"], false, obj(json!({}))),
            Some("#2"),
        ),
        c(
            "tool-name-duplicate",
            Anthropic,
            ant(&["a", "b"], false, obj(json!({}))),
            None,
        ),
        c(
            "tool-name-duplicate",
            Mcp,
            mcp(
                vec![mcp_tool("a", json!({})), mcp_tool("a", json!({}))],
                vec![],
            ),
            Some("#1"),
        ),
        c(
            "tool-description-length",
            AzureOpenAiStrict,
            Input::List(
                json!([{"type": "function", "function": {"name": "a", "description": "d".repeat(1025), "parameters": obj(json!({}))}}]),
                vec![],
            ),
            Some("#0"),
        ),
        c(
            "tool-description-length",
            AzureOpenAiStrict,
            Input::List(
                json!([{"type": "function", "function": {"name": "a", "description": "d".repeat(1024), "parameters": obj(json!({}))}}]),
                vec![],
            ),
            None,
        ),
        c(
            "tool-description-length",
            OpenAi,
            Input::List(
                json!([{"type": "function", "function": {"name": "a", "description": "d".repeat(1024), "parameters": obj(json!({}))}}]),
                vec![],
            ),
            None,
        ),
        c("tool-count", OpenAi, oai(&oai_many), Some("#128")),
        c("tool-count", OpenAi, oai(&oai_many[..128]), None),
        c(
            "tool-count",
            Gemini,
            gem((0..513).map(|i| gem_decl(&format!("t{i}"))).collect()),
            Some("#512"),
        ),
        c(
            "tool-count",
            Gemini,
            gem((0..512).map(|i| gem_decl(&format!("t{i}"))).collect()),
            None,
        ),
        c(
            "tool-count",
            GeminiVertex,
            gem((0..129).map(|i| gem_decl(&format!("t{i}"))).collect()),
            Some("#128"),
        ),
        c(
            "tool-count",
            GeminiVertex,
            gem((0..128).map(|i| gem_decl(&format!("t{i}"))).collect()),
            None,
        ),
        c(
            "strict-tool-count",
            AnthropicStrict,
            ant(&ant_21, true, obj(json!({}))),
            Some("#20"),
        ),
        c(
            "strict-tool-count",
            AnthropicStrict,
            ant(&ant_20, true, obj(json!({}))),
            None,
        ),
        c(
            "strict-tool-count",
            AnthropicStrict,
            ant(&ant_21, false, obj(json!({}))),
            None,
        ),
        // 7.2 root shape
        c(
            "root-not-object",
            OpenAi,
            params(json!({"type": "array", "items": {"type": "string"}})),
            Some(""),
        ),
        c(
            "root-not-object",
            Mcp,
            params(json!({"properties": {}})),
            Some(""),
        ),
        c(
            "root-not-object",
            Anthropic,
            params(json!({"type": ["object"]})),
            Some(""),
        ),
        c(
            "root-not-object",
            Anthropic,
            params(json!({"type": "object"})),
            None,
        ),
        c(
            "root-not-object",
            Mcp,
            returns(json!({"type": "array"})),
            None,
        ),
        c(
            "root-composition",
            OpenAi,
            params(json!({"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]})),
            Some("/anyOf"),
        ),
        c(
            "root-composition",
            OpenAi,
            params(json!({"type": "object", "enum": [{}]})),
            Some("/enum"),
        ),
        c(
            "root-composition",
            Anthropic,
            params(json!({"type": "object", "enum": [{}]})),
            None,
        ),
        c(
            "root-composition",
            AnthropicStrict,
            params(json!({"type": "object", "oneOf": [obj(json!({}))]})),
            Some("/oneOf"),
        ),
        c(
            "root-anyof",
            OpenAiStrict,
            returns(json!({"anyOf": [obj(json!({})), {"type": "null"}]})),
            Some("/anyOf"),
        ),
        c(
            "root-anyof",
            OpenAiStrict,
            returns(obj(
                json!({"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}),
            )),
            None,
        ),
        c(
            "empty-params-object",
            Gemini,
            params(json!({"type": "object", "properties": {}})),
            Some(""),
        ),
        c(
            "empty-params-object",
            Gemini,
            params(json!({"type": "object", "properties": {"a": {"type": "string"}}})),
            None,
        ),
        c(
            "mcp-input-schema-null",
            Mcp,
            mcp(
                vec![json!({"name": "a", "description": "d", "inputSchema": null})],
                vec![],
            ),
            Some("#0"),
        ),
        c(
            "mcp-input-schema-null",
            Mcp,
            mcp(vec![mcp_tool("a", json!({}))], vec![]),
            None,
        ),
        c(
            "mcp-output-schema-root",
            Mcp,
            returns(json!({"type": "array", "items": {"type": "string"}})),
            Some(""),
        ),
        c(
            "mcp-output-schema-root",
            Mcp,
            returns(obj(json!({"a": {"type": "string"}}))),
            None,
        ),
        // 7.3 OpenAI strict structure
        c(
            "optional-without-nullable",
            OpenAiStrict,
            params(
                json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}}),
            ),
            Some("/properties/a"),
        ),
        c(
            "optional-without-nullable",
            AzureOpenAiStrict,
            params(obj(json!({"a": {"type": ["string", "null"]}}))),
            None,
        ),
        // Optional but nullable: clean, as `.optional().nullable()` is for the SDKs' lint.
        c(
            "optional-without-nullable",
            OpenAiStrict,
            params(
                json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": ["string", "null"]}, "b": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}),
            ),
            None,
        ),
        c(
            "additional-properties-not-false",
            OpenAiStrict,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            ),
            Some(""),
        ),
        c(
            "additional-properties-not-false",
            OpenAiStrict,
            params(obj(
                json!({"m": {"type": "object", "additionalProperties": {"type": "string"}}}),
            )),
            Some("/properties/m/additionalProperties"),
        ),
        c(
            "additional-properties-not-false",
            AnthropicStrict,
            params(obj(json!({"n": obj(json!({"a": {"type": "string"}}))}))),
            None,
        ),
        c(
            "strict-unsupported-keyword",
            OpenAiStrict,
            params(obj(
                json!({"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}),
            )),
            Some("/properties/tags/uniqueItems"),
        ),
        c(
            "strict-unsupported-keyword",
            OpenAiStrict,
            params(obj(
                json!({"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}),
            )),
            Some("/properties/v/oneOf"),
        ),
        c(
            "strict-unsupported-keyword",
            OpenAiStrict,
            params(obj(
                json!({"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}),
            )),
            None,
        ),
        c(
            "strict-string-length",
            AzureOpenAiStrict,
            params(obj(json!({"s": {"type": "string", "maxLength": 5}}))),
            Some("/properties/s/maxLength"),
        ),
        c(
            "strict-string-length",
            AzureOpenAiStrict,
            params(obj(json!({"s": {"type": "string"}}))),
            None,
        ),
        c(
            "strict-format",
            OpenAiStrict,
            params(obj(json!({"u": {"type": "string", "format": "uri"}}))),
            Some("/properties/u/format"),
        ),
        c(
            "strict-format",
            OpenAiStrict,
            params(obj(json!({"u": {"type": "string", "format": "uuid"}}))),
            None,
        ),
        c(
            "strict-default",
            AzureOpenAiStrict,
            params(obj(json!({"n": {"type": "integer", "default": 20}}))),
            Some("/properties/n/default"),
        ),
        c(
            "strict-default",
            AzureOpenAiStrict,
            params(obj(
                json!({"n": {"type": ["integer", "null"], "default": null}}),
            )),
            None,
        ),
        c(
            "ref-with-siblings",
            OpenAiStrict,
            params(
                json!({"type": "object", "additionalProperties": false, "required": ["s"], "properties": {"s": {"$ref": "#/$defs/S", "description": "d"}}, "$defs": {"S": {"type": "string"}}}),
            ),
            Some("/properties/s/$ref"),
        ),
        c(
            "ref-with-siblings",
            OpenAiStrict,
            params(
                json!({"type": "object", "additionalProperties": false, "required": ["s"], "properties": {"s": {"anyOf": [{"$ref": "#/$defs/S"}], "description": "d"}}, "$defs": {"S": {"type": "string"}}}),
            ),
            None,
        ),
        c(
            "ref-with-siblings",
            GeminiVertex,
            params(
                json!({"type": "object", "properties": {"s": {"$ref": "#/$defs/S", "description": "d"}}, "$defs": {"S": {"type": "string"}}}),
            ),
            None,
        ),
        c(
            "ref-with-siblings",
            GeminiVertex,
            params(
                json!({"type": "object", "properties": {"s": {"$ref": "#/$defs/S", "title": "t"}}, "$defs": {"S": {"type": "string"}}}),
            ),
            Some("/properties/s/$ref"),
        ),
        c(
            "ref-with-siblings",
            GeminiJsonSchema,
            params(
                json!({"type": "object", "properties": {"s": {"$ref": "#/$defs/S", "$comment": "c"}}, "$defs": {"S": {"type": "string"}}}),
            ),
            None,
        ),
        c(
            "ref-not-toplevel",
            OpenAiStrict,
            params(obj(
                json!({"a": obj(json!({"b": {"type": "string"}})), "c": {"$ref": "#/properties/a"}}),
            )),
            Some("/properties/c/$ref"),
        ),
        c(
            "ref-not-toplevel",
            OpenAiStrict,
            params(
                json!({"type": "object", "properties": {"c": {"$ref": "#/$defs/C"}}, "$defs": {"C": {"type": "string"}}}),
            ),
            None,
        ),
        c(
            "strict-untyped-array-items",
            OpenAiStrict,
            params(obj(
                json!({"xs": {"type": "array", "items": {"description": "anything"}}}),
            )),
            Some("/properties/xs/items"),
        ),
        c(
            "strict-untyped-array-items",
            OpenAiStrict,
            params(obj(
                json!({"xs": {"type": "array", "items": {"type": "number"}}}),
            )),
            None,
        ),
        // 7.4 structural validity
        c(
            "array-missing-items",
            Gemini,
            params(obj(json!({"xs": {"type": "array"}}))),
            Some("/properties/xs"),
        ),
        c(
            "array-missing-items",
            OpenAi,
            params(obj(
                json!({"xs": {"type": "array", "prefixItems": [{"type": "string"}]}}),
            )),
            None,
        ),
        c(
            "array-missing-items",
            Gemini,
            params(obj(
                json!({"xs": {"type": "array", "prefixItems": [{"type": "string"}]}}),
            )),
            Some("/properties/xs"),
        ),
        c(
            "exclusive-bound-boolean",
            Anthropic,
            params(obj(
                json!({"n": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}),
            )),
            Some("/properties/n/exclusiveMinimum"),
        ),
        c(
            "exclusive-bound-boolean",
            Anthropic,
            params(obj(json!({"n": {"type": "number", "exclusiveMinimum": 0}}))),
            None,
        ),
        c(
            "exclusive-numeric-bound",
            Gemini,
            params(obj(json!({"n": {"type": "number", "exclusiveMinimum": 0}}))),
            Some("/properties/n/exclusiveMinimum"),
        ),
        c(
            "exclusive-numeric-bound",
            GeminiVertex,
            params(obj(
                json!({"n": {"type": "integer", "exclusiveMaximum": true}}),
            )),
            Some("/properties/n/exclusiveMaximum"),
        ),
        c(
            "exclusive-numeric-bound",
            Gemini,
            params(obj(json!({"n": {"type": "number", "minimum": 0}}))),
            None,
        ),
        c(
            "required-undeclared",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}),
            ),
            Some("/required/1"),
        ),
        c(
            "required-undeclared",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            ),
            None,
        ),
        c(
            "required-on-non-object",
            GeminiVertex,
            params(obj(
                json!({"v": {"anyOf": [{"type": "string", "required": ["x"]}]}}),
            )),
            Some("/properties/v/anyOf/0/required"),
        ),
        c(
            "required-on-non-object",
            GeminiVertex,
            params(obj(json!({"v": obj(json!({"x": {"type": "string"}}))}))),
            None,
        ),
        c(
            "invalid-json-schema",
            Anthropic,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": true}),
            ),
            Some("/required"),
        ),
        c(
            "invalid-json-schema",
            Mcp,
            params(json!({"type": "object", "properties": {"a": {"type": 5}}})),
            Some("/properties/a/type"),
        ),
        c(
            "invalid-json-schema",
            Mcp,
            params(obj(json!({"a": {"type": "string"}}))),
            None,
        ),
        // 7.5 Gemini OpenAPI subset
        c(
            "gemini-unknown-field",
            Gemini,
            params(
                json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"a": {"type": "string"}}}),
            ),
            Some("/$schema"),
        ),
        c(
            "gemini-unknown-field",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"type": "integer", "multipleOf": 2}}}),
            ),
            Some("/properties/a/multipleOf"),
        ),
        c(
            "gemini-unknown-field",
            GeminiVertex,
            params(
                json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}}),
            ),
            None,
        ),
        c(
            "gemini-unknown-field",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true, "title": "A", "example": "x"}}, "propertyOrdering": ["a"]}),
            ),
            None,
        ),
        c(
            "gemini-additional-properties",
            Gemini,
            params(
                json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}}),
            ),
            Some("/additionalProperties"),
        ),
        c(
            "gemini-additional-properties",
            GeminiVertex,
            params(
                json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}}),
            ),
            None,
        ),
        c(
            "gemini-const",
            Gemini,
            params(json!({"type": "object", "properties": {"k": {"const": "x"}}})),
            Some("/properties/k/const"),
        ),
        c(
            "gemini-const",
            Gemini,
            params(
                json!({"type": "object", "properties": {"k": {"type": "string", "enum": ["x"]}}}),
            ),
            None,
        ),
        c(
            "gemini-ref-defs",
            Gemini,
            params(acyclic.clone()),
            Some("/$defs"),
        ),
        c(
            "gemini-ref-defs",
            Gemini,
            params(
                json!({"type": "object", "properties": {"node": obj(json!({"name": {"type": "string"}}))}}),
            ),
            None,
        ),
        c(
            "ref-dangling",
            GeminiJsonSchema,
            params(json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}})),
            Some("/properties/a/$ref"),
        ),
        c(
            "ref-dangling",
            GeminiJsonSchema,
            params(acyclic.clone()),
            None,
        ),
        c(
            "recursive-lazy",
            AnthropicStrict,
            params(recursive.clone()),
            Some("/$defs/Node/properties/next/$ref"),
        ),
        c(
            "recursive-lazy",
            AnthropicStrict,
            params(acyclic.clone()),
            None,
        ),
        c(
            "recursive-lazy",
            Gemini,
            params(json!({"type": "object", "properties": {"child": {"$ref": "#"}}})),
            Some("/properties/child/$ref"),
        ),
        c(
            "recursive-required-cycle",
            GeminiJsonSchema,
            params(required_cycle.clone()),
            Some("/$defs/Node/properties/next/$ref"),
        ),
        c(
            "recursive-required-cycle",
            GeminiJsonSchema,
            params(recursive.clone()),
            None,
        ),
        c(
            "tuple",
            Gemini,
            params(obj(
                json!({"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}}),
            )),
            Some("/properties/pair/prefixItems"),
        ),
        c(
            "tuple",
            GeminiJsonSchema,
            params(obj(
                json!({"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}}),
            )),
            None,
        ),
        c(
            "tuple",
            GeminiJsonSchema,
            params(obj(
                json!({"pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}}),
            )),
            Some("/properties/pair/items"),
        ),
        c(
            "gemini-type-array",
            Gemini,
            params(json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}})),
            Some("/properties/a/type"),
        ),
        c(
            "gemini-type-array",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}}),
            ),
            None,
        ),
        c(
            "gemini-type-missing",
            Gemini,
            params(json!({"type": "object", "properties": {"a": {"description": "anything"}}})),
            Some("/properties/a"),
        ),
        c(
            "gemini-type-missing",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}),
            ),
            None,
        ),
        c(
            "gemini-enum-non-string",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"type": "integer", "enum": [1, 2]}}}),
            ),
            Some("/properties/a/enum/0"),
        ),
        c(
            "gemini-enum-non-string",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["1", "2"]}}}),
            ),
            None,
        ),
        c(
            "gemini-items-on-non-array",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string", "items": {"type": "string"}}}}),
            ),
            Some("/properties/a/items"),
        ),
        c(
            "gemini-items-on-non-array",
            Gemini,
            params(
                json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}}),
            ),
            None,
        ),
        c(
            "gemini-params-mutually-exclusive",
            GeminiJsonSchema,
            gem(vec![
                json!({"name": "a", "description": "d", "parameters": {"type": "object"}, "parametersJsonSchema": {"type": "object"}}),
            ]),
            Some("#0"),
        ),
        c(
            "gemini-params-mutually-exclusive",
            GeminiJsonSchema,
            gem(vec![
                json!({"name": "a", "description": "d", "parametersJsonSchema": {"type": "object"}, "responseJsonSchema": {"type": "string"}}),
            ]),
            None,
        ),
        // 7.6 Anthropic strict
        c(
            "anthropic-strict-numeric-bounds",
            AnthropicStrict,
            params(obj(json!({"n": {"type": "integer", "minimum": 1}}))),
            Some("/properties/n/minimum"),
        ),
        c(
            "anthropic-strict-numeric-bounds",
            AnthropicStrict,
            params(obj(json!({"n": {"type": "integer"}}))),
            None,
        ),
        c(
            "anthropic-strict-string-length",
            AnthropicStrict,
            params(obj(json!({"s": {"type": "string", "minLength": 1}}))),
            Some("/properties/s/minLength"),
        ),
        c(
            "anthropic-strict-string-length",
            AnthropicStrict,
            params(obj(json!({"s": {"type": "string"}}))),
            None,
        ),
        c(
            "anthropic-strict-min-items",
            AnthropicStrict,
            params(obj(
                json!({"xs": {"type": "array", "items": {"type": "string"}, "minItems": 2}}),
            )),
            Some("/properties/xs/minItems"),
        ),
        c(
            "anthropic-strict-min-items",
            AnthropicStrict,
            params(obj(
                json!({"xs": {"type": "array", "items": {"type": "string"}, "maxItems": 3}}),
            )),
            Some("/properties/xs/maxItems"),
        ),
        c(
            "anthropic-strict-min-items",
            AnthropicStrict,
            params(obj(
                json!({"xs": {"type": "array", "items": {"type": "string"}, "minItems": 1}}),
            )),
            None,
        ),
        c(
            "anthropic-strict-format",
            AnthropicStrict,
            params(obj(json!({"s": {"type": "string", "format": "int32"}}))),
            Some("/properties/s/format"),
        ),
        c(
            "anthropic-strict-format",
            AnthropicStrict,
            params(obj(json!({"s": {"type": "string", "format": "uri"}}))),
            None,
        ),
        c(
            "anthropic-strict-pattern",
            AnthropicStrict,
            params(obj(json!({"s": {"type": "string", "pattern": "^(a)\\1$"}}))),
            Some("/properties/s/pattern"),
        ),
        c(
            "anthropic-strict-pattern",
            AnthropicStrict,
            params(obj(json!({"s": {"type": "string", "pattern": "\\bword"}}))),
            Some("/properties/s/pattern"),
        ),
        c(
            "anthropic-strict-pattern",
            AnthropicStrict,
            params(obj(
                json!({"s": {"type": "string", "pattern": "^[A-Z]-[0-9]+$"}}),
            )),
            None,
        ),
        c(
            "anthropic-strict-enum-complex",
            AnthropicStrict,
            params(obj(json!({"e": {"enum": ["a", {"b": 1}]}}))),
            Some("/properties/e/enum/1"),
        ),
        c(
            "anthropic-strict-enum-complex",
            AnthropicStrict,
            params(obj(json!({"e": {"enum": ["a", 1, null]}}))),
            None,
        ),
        c(
            "anthropic-strict-optional-budget",
            AnthropicStrict,
            ant(&["a", "b", "c", "d", "e"], true, five_optional.clone()),
            Some("#4"),
        ),
        c(
            "anthropic-strict-optional-budget",
            AnthropicStrict,
            ant(&["a", "b", "c", "d"], true, five_optional.clone()),
            None,
        ),
        c(
            "anthropic-strict-optional-budget",
            AnthropicStrict,
            ant(&["a", "b", "c", "d", "e"], false, five_optional.clone()),
            None,
        ),
        c(
            "anthropic-strict-union-budget",
            AnthropicStrict,
            ant(&["a", "b", "c", "d", "e", "f"], true, three_unions.clone()),
            Some("#5"),
        ),
        c(
            "anthropic-strict-union-budget",
            AnthropicStrict,
            ant(&["a", "b", "c", "d", "e"], true, three_unions.clone()),
            None,
        ),
        // 7.7 OpenAI strict limits
        c("nesting-depth", OpenAiStrict, params(deep(11)), Some("")),
        c("nesting-depth", OpenAiStrict, params(deep(10)), None),
        c(
            "nesting-depth",
            AzureOpenAiStrict,
            params(deep(6)),
            Some(""),
        ),
        c("nesting-depth", AzureOpenAiStrict, params(deep(5)), None),
        c(
            "property-count",
            AzureOpenAiStrict,
            params(props(101)),
            Some(""),
        ),
        c(
            "property-count",
            AzureOpenAiStrict,
            params(props(100)),
            None,
        ),
        c(
            "enum-value-count",
            AzureOpenAiStrict,
            params(enum_of(501, 3)),
            Some(""),
        ),
        c(
            "enum-value-count",
            AzureOpenAiStrict,
            params(enum_of(500, 3)),
            None,
        ),
        c(
            "enum-string-size",
            OpenAiStrict,
            params(enum_of(251, 60)),
            Some("/properties/e/enum"),
        ),
        c(
            "enum-string-size",
            OpenAiStrict,
            params(enum_of(251, 59)),
            None,
        ),
        c(
            "enum-string-size",
            OpenAiStrict,
            params(enum_of(250, 70)),
            None,
        ),
        c(
            "schema-string-size",
            AzureOpenAiStrict,
            params(enum_of(300, 51)),
            Some(""),
        ),
        c(
            "schema-string-size",
            AzureOpenAiStrict,
            params(enum_of(300, 49)),
            None,
        ),
        // 7.8 MCP
        c(
            "mcp-structured-content-required",
            Mcp,
            mcp(
                vec![mcp_tool("a", json!({"outputSchema": {"type": "object"}}))],
                vec![facts(false, true)],
            ),
            Some("#0"),
        ),
        c(
            "mcp-structured-content-required",
            Mcp,
            mcp(
                vec![mcp_tool("a", json!({"outputSchema": {"type": "object"}}))],
                vec![facts(true, true)],
            ),
            None,
        ),
        c(
            "mcp-structured-content-conformance",
            Mcp,
            mcp(
                vec![mcp_tool("a", json!({"outputSchema": {"type": "object"}}))],
                vec![facts(true, false)],
            ),
            Some("#0"),
        ),
        c(
            "mcp-structured-content-conformance",
            Mcp,
            mcp(vec![mcp_tool("a", json!({}))], vec![facts(true, false)]),
            None,
        ),
        c(
            "mcp-structured-content-object",
            Mcp,
            returns(json!({"type": ["object", "null"], "properties": {}})),
            Some(""),
        ),
        c(
            "mcp-structured-content-object",
            Mcp,
            returns(json!({"type": "object", "properties": {}})),
            None,
        ),
        c(
            "mcp-x-mcp-header",
            Mcp,
            params(
                json!({"type": "object", "properties": {"region": {"type": "number", "x-mcp-header": "Region"}}}),
            ),
            Some("/properties/region/x-mcp-header"),
        ),
        c(
            "mcp-x-mcp-header",
            Mcp,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "X-A"}, "b": {"type": "string", "x-mcp-header": "x-a"}}}),
            ),
            Some("/properties/b/x-mcp-header"),
        ),
        c(
            "mcp-x-mcp-header",
            Mcp,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "bad header"}}}),
            ),
            Some("/properties/a/x-mcp-header"),
        ),
        c(
            "mcp-x-mcp-header",
            Mcp,
            params(
                json!({"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "string", "x-mcp-header": "X-Item"}}}}),
            ),
            Some("/properties/xs/items/x-mcp-header"),
        ),
        c(
            "mcp-x-mcp-header",
            Mcp,
            params(
                json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "X-Tenant"}}}),
            ),
            None,
        ),
    ]
}

#[test]
fn every_case_behaves() {
    let mut failures = Vec::new();
    for (i, case) in cases().iter().enumerate() {
        let found = hits(case);
        let places: Vec<String> = found.iter().map(place).collect();
        match case.fires_at {
            Some(at) if !places.iter().any(|p| p == at) => failures.push(format!(
                "case {i}: `{}` ({}) should fire at {at:?}, fired at {places:?}",
                case.rule, case.dialect
            )),
            None if !found.is_empty() => failures.push(format!(
                "case {i}: `{}` ({}) should not fire, fired at {places:?}: {}",
                case.rule, case.dialect, found[0].message
            )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_error_rule_has_a_triggering_and_a_passing_case() {
    let cases = cases();
    let mut missing = Vec::new();
    for r in RULES {
        let is_error = r
            .dialects()
            .iter()
            .any(|d| r.grade(Some(*d)) == Some(Severity::Error));
        if !is_error {
            continue;
        }
        let pos = cases.iter().any(|c| c.rule == r.id && c.fires_at.is_some());
        let neg = cases.iter().any(|c| c.rule == r.id && c.fires_at.is_none());
        if !pos || !neg {
            missing.push(format!("{} (triggering: {pos}, passing: {neg})", r.id));
        }
    }
    assert!(
        missing.is_empty(),
        "error rules without a table test: {missing:?}"
    );
}

#[test]
fn every_triggering_case_names_a_rule_graded_for_its_dialect() {
    for case in cases() {
        let r = crate::lint::named(case.rule).unwrap_or_else(|| panic!("no rule `{}`", case.rule));
        if case.fires_at.is_some() {
            assert!(
                r.grade(Some(case.dialect)).is_some(),
                "`{}` is not graded for {}",
                r.id,
                case.dialect
            );
        }
    }
}

#[test]
fn a_rule_does_not_fire_for_dialects_it_is_not_graded_for() {
    // `gemini-additional-properties` is Gemini Developer API only.
    let s = json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}});
    for d in Dialect::ALL {
        let fired = check_schema(&s, d, Role::Parameters)
            .iter()
            .any(|h| h.rule == "gemini-additional-properties");
        assert_eq!(fired, d == Gemini, "{d}");
    }
}

#[test]
fn rule_ids_are_unique_kebab_case_and_documented() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/lint-rules.md"))
        .expect("docs/lint-rules.md");
    let mut seen = std::collections::BTreeSet::new();
    for r in RULES {
        assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
        assert!(
            r.id.as_str()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{}",
            r.id
        );
        assert!(
            !r.message.is_empty() && !r.help.is_empty() && !r.source.is_empty(),
            "{}",
            r.id
        );
        assert!(
            docs.contains(&format!("### `{}`", r.id)),
            "docs/lint-rules.md lacks `{}`",
            r.id
        );
        assert!(!r.dialects().is_empty(), "{}", r.id);
    }
}

#[test]
fn seed_rule_ids_and_the_seed_dialect_alias_are_kept() {
    for id in [
        "exclusive-numeric-bound",
        "recursive-lazy",
        "tuple",
        "optional-without-nullable",
        "missing-description",
    ] {
        assert!(crate::lint::named(id).is_some(), "{id}");
    }
    assert_eq!(Dialect::parse("gemini-bifrost"), Some(Gemini));
    for d in Dialect::ALL {
        assert_eq!(Dialect::parse(d.as_str()), Some(d));
    }
    // The seed's gemini-bifrost error rules are errors for gemini here too.
    for id in ["exclusive-numeric-bound", "recursive-lazy", "tuple"] {
        assert_eq!(
            crate::lint::named(id).unwrap().grade(Some(Gemini)),
            Some(Severity::Error),
            "{id}"
        );
    }
}

#[test]
fn missing_description_is_dialect_independent_and_follows_refs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "version: 1\ntypes:\n  C: { type: string, description: a C }\ntoolboxes:\n  t:\n    description: T\n    tools:\n      x:\n        description: X\n        parameters:\n          type: object\n          properties:\n            a: { type: string }\n            b: { type: string, description: B }\n            c: { $ref: \"#/types/C\" }\n",
    )
    .unwrap();
    let checked = crate::check(&[path], &Default::default());
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let settings = crate::lint::LintSettings {
        dialects: vec![],
        require_describe: true,
        ..Default::default()
    };
    let lowered = crate::lower::lower(&checked.toolset, &[], Default::default());
    let findings = crate::lint::lint_toolset(&checked.toolset, &lowered, &settings);
    let at: Vec<(&str, Option<crate::Dialect>)> = findings
        .iter()
        .map(|f| (f.pointer.as_str(), f.dialect))
        .collect();
    assert_eq!(at, [("/properties/a", None)]);
    assert!(findings.iter().all(|f| f.rule == "missing-description"));
}

#[test]
fn pure_checks_survive_hostile_schemas() {
    let mut deep = json!({"type": "string"});
    for _ in 0..400 {
        deep = json!({"type": "object", "properties": {"x": deep}, "anyOf": [{"$ref": "#"}]});
    }
    let odd = [
        json!(null),
        json!(true),
        json!([1, 2]),
        json!({"type": 5, "properties": [], "required": "x", "enum": 3, "$ref": 7, "items": "no"}),
        json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}}),
        json!({"$ref": "#/$defs/%%"}),
        deep,
    ];
    for s in &odd {
        // Read as a manifest schema would be (problems reported, not fatal),
        // then lowered into every dialect.
        let mut schemas = crate::model::Schemas::new();
        let (id, _) =
            crate::model::schema::read::from_json(&mut schemas, s, crate::Span::default());
        for d in Dialect::ALL {
            for role in [Role::Parameters, Role::Returns] {
                let _ = check_schema(s, d, role);
            }
            let _ = crate::lower::schema::lower(&schemas, id, d, Default::default());
            let _ = check_tool_list(s, d, &Dialect::ALL, &[]);
        }
    }
}

#[test]
fn a_name_one_dialect_takes_and_another_linted_refuses_is_a_portability_warning() {
    let list = json!({"functionDeclarations": [{"name": "admin.tools.list", "description": "d"}]});
    let portable = |targets: &[Dialect]| -> Vec<Hit> {
        check_tool_list(&list, Gemini, targets, &[])
            .into_iter()
            .filter(|h| h.rule == "tool-name-portable")
            .collect()
    };
    // Gemini takes dots; OpenAI, linted beside it, does not.
    let hits = portable(&[Gemini, OpenAiStrict, Mcp]);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(
        hits[0].message.contains("`openai-strict`"),
        "{}",
        hits[0].message
    );
    assert!(!hits[0].message.contains("`mcp`"), "{}", hits[0].message);
    assert!(
        hits[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("`admin_tools_list`")),
        "{:?}",
        hits[0].help
    );
    // Alone, or beside dialects that take it, it draws nothing.
    assert!(portable(&[Gemini]).is_empty());
    assert!(portable(&[Gemini, Mcp, GeminiJsonSchema]).is_empty());
    // A 100-character name is Anthropic's and MCP's, not OpenAI's.
    let long = "a".repeat(100);
    let mcp =
        json!({"tools": [{"name": long, "description": "d", "inputSchema": {"type": "object"}}]});
    let hits: Vec<Hit> = check_tool_list(&mcp, Mcp, &[Mcp, Anthropic, OpenAi], &[])
        .into_iter()
        .filter(|h| h.rule == "tool-name-portable")
        .collect();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(hits[0].message.contains("`openai`") && !hits[0].message.contains("`anthropic`"));
}
