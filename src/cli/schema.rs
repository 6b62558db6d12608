//! `toolc schema`: the JSON Schema (2020-12) of the manifest format, for
//! editors: completion, hover text and errors as manifests are typed.
//!
//! The schema describes every key with its type, its closed set of values
//! where it has one, and a description. It checks the structure (unknown
//! keys, wrong types, missing keys, name patterns); what needs the whole
//! toolset (references, collisions, schema meaning) stays with `toolc check`.
//! `schemas/manifest.schema.json` is its checked-in output.

use super::output::{OutputArgs, Reporter, Stdout};
use crate::model::schema::{Keyword, Takes};
use crate::{Code, Diagnostic, SourceMap};
use serde_json::{Map, Value, json};
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct SchemaArgs {}

pub fn run(_args: SchemaArgs, output: OutputArgs) -> ExitCode {
    let mut text = serde_json::to_string_pretty(&manifest_schema()).unwrap_or_default();
    text.push('\n');
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let d = Diagnostic::new(Code::Io, format!("cannot write the schema: {e}"))
                .help("redirect it to a file: `toolc schema > manifest.schema.json`");
            Reporter::new(output, Stdout::Product).diagnostics(&SourceMap::new(), &[d]);
            ExitCode::from(2)
        }
    }
}

/// The `format` values offered for completion (any string is accepted).
const FORMATS: &[&str] = &[
    "date",
    "date-time",
    "time",
    "duration",
    "uuid",
    "email",
    "uri",
    "uri-reference",
    "ipv4",
    "ipv6",
    "hostname",
    "regex",
    "int32",
    "int64",
    "uint32",
    "uint64",
    "float",
    "double",
    "byte",
    "binary",
    "password",
];

const JSON_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// The names of sections (toolboxes, manuals, …): `^[a-z][a-z0-9_-]*$`.
const NAME_PATTERN: &str = "^[a-z][a-z0-9_-]*$";
/// The names of tools and plays, as MCP takes them, with a letter or digit among them.
const TOOL_NAME_PATTERN: &str = "^[A-Za-z0-9_.-]*[A-Za-z0-9][A-Za-z0-9_.-]*$";
/// The names of types: `^[A-Z][A-Za-z0-9]*$`.
const TYPE_NAME_PATTERN: &str = "^[A-Z][A-Za-z0-9]*$";
/// `N/unit`, with spaces allowed around N and the unit.
const RATE_LIMIT_PATTERN: &str =
    r"^\s*0*[1-9][0-9]*\s*/\s*(s|sec|second|min|minute|h|hour|d|day)\s*$";

fn reference(def: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{def}") })
}

/// `schema` with a description (first, so it reads well in the file).
fn described(description: &str, schema: Value) -> Value {
    let mut out = Map::new();
    out.insert("description".into(), description.into());
    if let Value::Object(m) = schema {
        out.extend(m);
    }
    Value::Object(out)
}

/// A pattern matching the keys toolc reads in `annotations` in any case, with or without
/// separators and MCP's `Hint` suffix (what toolc refuses as near-misses, typos aside).
fn annotation_near_misses() -> String {
    let any_case = |word: &str| -> String {
        word.chars()
            .map(|c| format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase()))
            .collect()
    };
    let words: [&[&str]; 5] = [
        &["read", "only"],
        &["destructive"],
        &["idempotent"],
        &["open", "world"],
        &["title"],
    ];
    let keys: Vec<String> = words
        .iter()
        .map(|parts| {
            let parts: Vec<String> = parts.iter().map(|p| any_case(p)).collect();
            parts.join("[-_. ]?")
        })
        .collect();
    format!(
        "^[-_. ]*({})[-_. ]*({})?$",
        keys.join("|"),
        any_case("hint")
    )
}

/// A mapping with exactly these `properties`, and `x-` extension keys.
fn closed(
    description: &str,
    properties: Vec<(&str, Value)>,
    required: &[&str],
    extra: Value,
) -> Value {
    let mut p = Map::new();
    for (k, v) in properties {
        p.insert(k.to_string(), v);
    }
    let mut out = json!({
        "description": description,
        "type": "object",
        "properties": p,
        "patternProperties": { "^x-": extension() },
        "additionalProperties": false,
    });
    if !required.is_empty() {
        out["required"] = json!(required);
    }
    if let Value::Object(m) = extra {
        out.as_object_mut().unwrap().extend(m);
    }
    out
}

fn extension() -> Value {
    json!({ "description": "An extension key: toolc ignores it." })
}

/// A section: names (of the `name` definition) mapped to definitions.
fn section(description: &str, name: &str, body: &str, nullable: bool) -> Value {
    json!({
        "description": description,
        "type": if nullable { json!(["object", "null"]) } else { json!("object") },
        "propertyNames": reference(name),
        "additionalProperties": reference(body),
    })
}

fn keyword_schema(takes: Takes) -> Value {
    match takes {
        Takes::Schema => reference("Schema"),
        Takes::SchemaMap => {
            json!({ "type": "object", "additionalProperties": reference("Schema") })
        }
        Takes::SchemaOrList => json!({
            "anyOf": [
                reference("Schema"),
                { "type": "array", "minItems": 1, "items": reference("Schema") }
            ]
        }),
        Takes::SchemaList => {
            json!({ "type": "array", "minItems": 1, "items": reference("Schema") })
        }
        Takes::Types => json!({
            "anyOf": [
                reference("JsonType"),
                { "type": "array", "items": reference("JsonType"), "minItems": 1, "uniqueItems": true }
            ]
        }),
        Takes::String => json!({ "type": "string" }),
        Takes::Regex => json!({ "type": "string", "format": "regex" }),
        Takes::Bool => json!({ "type": "boolean" }),
        Takes::Number => json!({ "type": "number" }),
        Takes::Count => json!({ "type": "integer", "minimum": 0 }),
        Takes::Any => json!({}),
        Takes::List => json!({ "type": "array" }),
        Takes::Strings => {
            json!({ "type": "array", "items": { "type": "string" }, "uniqueItems": true })
        }
        Takes::Format => json!({ "anyOf": [{ "enum": FORMATS }, { "type": "string" }] }),
        Takes::Ref => json!({
            "type": "string",
            "pattern": "^#/(types/[A-Z][A-Za-z0-9]*|\\$defs/[^/]+|definitions/[^/]+)$"
        }),
        Takes::RustType => json!({ "enum": ["json"] }),
        Takes::Dependencies => json!({
            "type": "object",
            "additionalProperties": {
                "type": "array", "items": { "type": "string" }, "uniqueItems": true
            }
        }),
        Takes::Discriminator => json!({
            "type": "object",
            "properties": {
                "propertyName": { "type": "string" },
                "mapping": { "type": "object", "additionalProperties": { "type": "string" } },
                "defaultMapping": { "type": "string" }
            },
            "required": ["propertyName"],
            "patternProperties": { "^x-": extension() },
            "additionalProperties": false
        }),
    }
}

fn schema_definition() -> Value {
    let mut properties = Map::new();
    // The compiler's own keyword table: what `toolc check` accepts is what
    // editors offer.
    for k in Keyword::ALL.iter().filter(|k| k.is_supported()) {
        properties.insert(
            k.as_str().to_string(),
            described(k.summary(), keyword_schema(k.takes())),
        );
    }
    json!({
        "description": "A JSON Schema (2020-12) in toolc's vocabulary. A named type is referred to as `$ref: \"#/types/Name\"`; keys starting with `x-` are extensions.",
        "type": ["object", "boolean"],
        "properties": properties,
        "patternProperties": { "^x-": { "description": "An extension keyword: kept, and dropped from what providers are shown." } },
        "additionalProperties": false,
    })
}

/// The keys of a tool (or, with `play`, of a play) with their descriptions. Long because it is
/// data: one entry per key, each the text an editor shows.
fn tool_properties(play: bool) -> Vec<(&'static str, Value)> {
    let what = if play { "play" } else { "tool" };
    let mut p = vec![
        (
            "description",
            described(
                &format!("What the {what} does, for the model: required, not blank."),
                reference("Text"),
            ),
        ),
        (
            "title",
            described(
                "A human display name (MCP `title`).",
                json!({ "type": "string" }),
            ),
        ),
        (
            "parameters",
            json!({
                "description": format!("The JSON Schema of the {what}'s arguments: `type: object` at the root, or a `$ref` to a named object type. Default: no arguments."),
                "$ref": "#/$defs/Schema",
                "type": "object",
                "anyOf": [
                    { "required": ["$ref"] },
                    { "required": ["type"], "properties": { "type": { "const": "object" } } }
                ],
            }),
        ),
        (
            "returns",
            described(
                &if play {
                    "The JSON Schema of the play's result: required for plays.".to_string()
                } else {
                    "The JSON Schema of the tool's result. Default: any JSON value.".to_string()
                },
                reference("Schema"),
            ),
        ),
        (
            "validate_returns",
            described(
                "false: the result is passed on as it is, not validated against `returns`. Default: true.",
                json!({ "type": "boolean", "default": true }),
            ),
        ),
    ];
    if !play {
        p.extend([
            (
                "terminal",
                described(
                    "true: calling the tool ends the agent's turn. Default: false.",
                    json!({ "type": "boolean", "default": false }),
                ),
            ),
            (
                "auth",
                described(
                    "The least caller level allowed. Default: none.",
                    json!({ "enum": ["none", "user", "admin"], "default": "none" }),
                ),
            ),
            (
                "roles",
                described(
                    "When not empty, the caller needs at least one of these roles.",
                    json!({ "type": "array", "items": { "type": "string", "pattern": "\\S" } }),
                ),
            ),
            (
                "rate_limit",
                described(
                    "At most N calls per unit, per caller and tool: `N/unit` with N from 1 and the unit s, sec, second, min, minute, h, hour, d or day (`10/min`).",
                    json!({ "type": "string", "pattern": RATE_LIMIT_PATTERN }),
                ),
            ),
            (
                "timeout_ms",
                described(
                    "The call fails with `timeout` after this many milliseconds: a whole number from 1.",
                    json!({ "type": "integer", "minimum": 1 }),
                ),
            ),
            (
                "approval",
                described(
                    "required: every call is held until a person approves it (the host resumes it with its token). none: calls run without one, even where toolc.toml's `[policy] approve_destructive` asks it of destructive tools. Default: none, or required for a tool annotated `destructive: true` under `approve_destructive`.",
                    json!({ "enum": ["required", "none"] }),
                ),
            ),
        ]);
    }
    p.extend([
        (
            "annotations",
            closed(
                "MCP's annotations of the tool: hints about its behaviour, sent to MCP clients under MCP's names (`read_only` as `readOnlyHint`, and so on; each hint has this one spelling), `title`, and keys of your own, passed as written.",
                vec![
                    ("read_only", json!({ "description": "true: the tool changes nothing (MCP readOnlyHint).", "type": "boolean" })),
                    ("destructive", json!({ "description": "true: the tool may destroy or overwrite data (MCP destructiveHint); read only when `read_only` is not true.", "type": "boolean" })),
                    ("idempotent", json!({ "description": "true: calling it again with the same arguments has no further effect (MCP idempotentHint); read only when `read_only` is not true.", "type": "boolean" })),
                    ("open_world", json!({ "description": "true: the tool reaches outside systems (MCP openWorldHint).", "type": "boolean" })),
                    ("title", json!({ "description": "MCP's annotations.title, when it differs from the tool's `title` (which it is otherwise).", "type": "string" })),
                ],
                &[],
                json!({
                    "additionalProperties": { "description": "A key of your own, passed to MCP clients' annotations as written (not one close to the keys above, which toolc refuses)." },
                    "propertyNames": {
                        "description": "The keys above, or keys of your own that are not those keys in another case or spelling (`readOnlyHint`, `Read-Only`, `TITLE`).",
                        "anyOf": [
                            { "enum": ["read_only", "destructive", "idempotent", "open_world", "title"] },
                            { "not": { "pattern": annotation_near_misses() } },
                        ],
                    },
                }),
            ),
        ),
        (
            "icons",
            described(
                &format!("Icons MCP clients may show for the {what}, listed as MCP's `icons`."),
                json!({
                    "type": "array",
                    "items": closed(
                        "One icon.",
                        vec![
                            ("src", json!({ "description": "An `https://` URL or a `data:image/...` URI.", "type": "string", "pattern": "^(https://|data:image/)" })),
                            ("mime_type", json!({ "description": "The image's media type, such as `image/png` (MCP mimeType).", "type": "string", "pattern": "^[^/ ]+/[^/ ]+$" })),
                            ("sizes", json!({ "description": "Sizes as `WxH`, or `any` for a scalable image.", "type": "array", "items": { "type": "string", "pattern": "^([1-9][0-9]*x[1-9][0-9]*|any)$" } })),
                            ("theme", json!({ "description": "The background the icon is drawn for.", "enum": ["light", "dark"] })),
                        ],
                        &["src"],
                        Value::Null,
                    ),
                }),
            ),
        ),
        (
            "meta",
            described(
                &format!("MCP's `_meta` for the {what}, passed as written. Keys are `name` or `prefix/name` under a prefix of your own (`com.example/owner`); the protocol reserves prefixes whose second label is `mcp` or `modelcontextprotocol`."),
                json!({ "type": "object" }),
            ),
        ),
        (
            "deprecated",
            described(
                &format!("true, or a note saying what to use instead: marks the {what} deprecated in generated Rust and the docs. Default: false."),
                json!({ "type": ["boolean", "string"], "default": false }),
            ),
        ),
        (
            "examples",
            described(
                "Example calls, each checked against the schemas when the manifest is compiled.",
                json!({ "type": "array", "items": reference("Example") }),
            ),
        ),
        (
            "backend",
            described(
                &format!("What answers the {what}'s calls under `toolc serve` and `toolc call` (generated Rust ignores it): `mock`, `{{http: {{...}}}}` or `{{command: [...]}}`."),
                reference("Backend"),
            ),
        ),
    ]);
    p
}

/// The definitions of a tool's `backend`.
fn backend_definitions() -> Vec<(&'static str, Value)> {
    let placeholder_text = "Text with `{param}` placeholders naming parameters of the tool (quote it in YAML: `\"{days}\"`).";
    let env = closed(
        "A value read from the environment when the server starts: the variable's name, never the value.",
        vec![
            (
                "env",
                described(
                    "The environment variable's name.",
                    json!({ "type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$" }),
                ),
            ),
            (
                "prefix",
                described(
                    "Text written before the value, such as `Bearer ` (in the manifest: no place for a secret).",
                    json!({ "type": "string" }),
                ),
            ),
        ],
        &["env"],
        json!({}),
    );
    vec![
        (
            "Backend",
            json!({
                "description": "What answers the calls under `toolc serve`: `mock` (examples' results, else values generated from `returns`), an HTTP request, or a program.",
                "anyOf": [
                    { "const": "mock", "description": "Examples' results in turn, else values generated from `returns`." },
                    closed(
                        "One kind of backend.",
                        vec![
                            ("mock", described("Examples' results in turn, else values generated from `returns`.", json!({ "type": ["null", "object"], "maxProperties": 0 }))),
                            ("http", described("One HTTP request per call.", reference("HttpBackend"))),
                            ("command", described("A program, then its arguments: it reads the arguments as JSON on stdin and answers the result as JSON on stdout.", json!({
                                "anyOf": [
                                    { "type": "string", "pattern": "\\S" },
                                    { "type": "array", "minItems": 1, "items": { "type": "string" }, "prefixItems": [{ "type": "string", "pattern": "\\S" }] },
                                ],
                            }))),
                        ],
                        &[],
                        json!({ "minProperties": 1, "maxProperties": 1 }),
                    ),
                ],
            }),
        ),
        (
            "HttpBackend",
            closed(
                "An HTTP request made of the arguments; the answer is the result. Arguments no placeholder names go into the JSON body (POST, PUT, PATCH, without `body`) or the query.",
                vec![
                    (
                        "method",
                        described(
                            "The HTTP method (in upper or lower case).",
                            json!({ "enum": ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "get", "post", "put", "patch", "delete", "head", "options"] }),
                        ),
                    ),
                    (
                        "url",
                        described(
                            "An `http://` or `https://` URL; `{param}` placeholders (of required parameters) in its path and query, never in its host.",
                            json!({ "type": "string", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^{/?#@]+([/?][^#]*)?$" }),
                        ),
                    ),
                    (
                        "query",
                        described(
                            "Query parameters: text with placeholders, or `{env: NAME}`.",
                            json!({
                                "type": "object",
                                "additionalProperties": { "anyOf": [described(placeholder_text, json!({ "type": ["string", "number"] })), env.clone()] },
                            }),
                        ),
                    ),
                    (
                        "headers",
                        described(
                            "Headers: `{env: NAME}`, or text with at least one placeholder (never a value written in the manifest).",
                            json!({
                                "type": "object",
                                "additionalProperties": { "anyOf": [described(placeholder_text, json!({ "type": "string", "pattern": "\\{[^{}]+\\}" })), env] },
                            }),
                        ),
                    ),
                    (
                        "body",
                        described(
                            "The JSON body: `\"{param}\"` (one argument's value), or an object of keys to `\"{param}\"`s.",
                            json!({
                                "anyOf": [
                                    { "type": "string", "pattern": "^\\{[^{}]+\\}$" },
                                    { "type": "object", "additionalProperties": { "type": "string", "pattern": "^\\{[^{}]+\\}$" } },
                                ],
                            }),
                        ),
                    ),
                ],
                &["method", "url"],
                json!({}),
            ),
        ),
    ]
}

/// A delegate's keys: the target, then a tool's.
fn delegate_properties() -> Vec<(&'static str, Value)> {
    let mut p = vec![
        (
            "agent",
            described(
                "The agent the delegate hands its task to (not this agent, nor one whose delegates lead back here).",
                reference("Name"),
            ),
        ),
        (
            "capability",
            described(
                "The capability the delegate hands its task to.",
                reference("Name"),
            ),
        ),
    ];
    p.extend(tool_properties(false).into_iter().map(|(k, v)| {
        if k == "parameters" {
            (
                k,
                described(
                    "The arguments, a JSON Schema whose root is `type: object`. Default: `{type: object, properties: {task: {type: string}}, required: [task]}`.",
                    reference("Schema"),
                ),
            )
        } else {
            (k, v)
        }
    }));
    p
}

/// The JSON Schema of the manifest format. Long because it is data: one definition per part of
/// the format, each with the text an editor shows.
pub fn manifest_schema() -> Value {
    let defs = json!({
        "Name": {
            "description": "A name in snake_case or kebab-case ASCII, at most 64 characters.",
            "type": "string",
            "pattern": NAME_PATTERN,
            "maxLength": 64,
        },
        "ToolName": {
            "description": "A tool or play name, as MCP takes them: 1 to 128 ASCII letters, digits, `_`, `-` and `.`, with a letter or digit among them. It is exactly what the model sees; each provider dialect's lint says whether that provider takes it (OpenAI: no `.`, 64 at most).",
            "type": "string",
            "pattern": TOOL_NAME_PATTERN,
            "minLength": 1,
            "maxLength": 128,
        },
        "TypeName": {
            "description": "A type name in PascalCase ASCII, at most 64 characters.",
            "type": "string",
            "pattern": TYPE_NAME_PATTERN,
            "maxLength": 64,
        },
        "Text": {
            "description": "Text that is not blank.",
            "type": "string",
            "pattern": "\\S",
        },
        "JsonType": {
            "description": "A JSON type.",
            "enum": JSON_TYPES,
        },
        "Toolbox": closed(
            "A group of tools, implemented by one Rust trait.",
            vec![
                ("description", described("What the toolbox is for: rustdoc of its trait, and the docs. Required, not blank.", reference("Text"))),
                ("scope", described("The named type of the session scope its tools read (`ctx.scope()`).", reference("TypeName"))),
                ("tools", described("The tools, by name: at least one.", json!({
                    "type": "object",
                    "minProperties": 1,
                    "propertyNames": reference("ToolName"),
                    "additionalProperties": reference("Tool"),
                }))),
            ],
            &["description", "tools"],
            json!({}),
        ),
        "Tool": closed(
            "A tool the model may call.",
            tool_properties(false),
            &["description"],
            json!({}),
        ),
        "Playbook": closed(
            "A group of plays, implemented by one Rust trait.",
            vec![
                ("description", described("What the playbook is for. Required, not blank.", reference("Text"))),
                ("plays", described("The plays, by name: at least one.", json!({
                    "type": "object",
                    "minProperties": 1,
                    "propertyNames": reference("ToolName"),
                    "additionalProperties": reference("Play"),
                }))),
            ],
            &["description", "plays"],
            json!({}),
        ),
        "Play": closed(
            "A play: a multi-step recipe that never fails past its playbook and sees no call context, so it takes no policies.",
            tool_properties(true),
            &["description", "returns"],
            json!({}),
        ),
        "Example": closed(
            "An example call.",
            vec![
                ("arguments", described("The arguments, checked against `parameters`.", json!({}))),
                ("result", described("The result, checked against `returns` when there is one.", json!({}))),
                ("description", described("What the example shows.", json!({ "type": "string" }))),
            ],
            &["arguments"],
            json!({}),
        ),
        "Manual": closed(
            "Instructions for the model: `text` or `file`, exactly one. `{{ tool(\"name\") }}` and `{{ play(\"name\") }}` name tools and plays, and are checked.",
            vec![
                ("text", described("The instructions, inline.", json!({ "type": "string" }))),
                ("file", described("A file holding the instructions, relative to this manifest, inside the manifest root.", json!({ "type": "string" }))),
                ("description", described("What the manual is for.", json!({ "type": "string" }))),
            ],
            &[],
            json!({ "oneOf": [{ "required": ["text"] }, { "required": ["file"] }] }),
        ),
        "Capability": closed(
            "A toolbox and/or a playbook, with the manual that goes with them.",
            vec![
                ("description", described("What the capability is for. Required, not blank.", reference("Text"))),
                ("toolbox", described("The toolbox whose tools it brings.", reference("Name"))),
                ("playbook", described("The playbook whose plays it brings.", reference("Name"))),
                ("manual", described(
                    "A manual's name (snake_case or kebab-case), inline text (any other string), or an inline manual.",
                    json!({ "anyOf": [{ "type": "string" }, reference("Manual")] }),
                )),
            ],
            &["description"],
            json!({ "anyOf": [{ "required": ["toolbox"] }, { "required": ["playbook"] }] }),
        ),
        "Agent": closed(
            "The capabilities one model sees at once. Tool, play and delegate names are unique per agent.",
            vec![
                ("description", described("What the agent does. Required, not blank.", reference("Text"))),
                ("capabilities", described("The capabilities, by name: at least one (none for an agent with delegates), each once.", json!({
                    "type": "array",
                    "uniqueItems": true,
                    "items": reference("Name"),
                }))),
                ("scope", described("The named type of the session scope of its toolboxes.", reference("TypeName"))),
                ("delegates", described("Other agents and capabilities exposed to this agent as one tool each, by tool name.", json!({
                    "type": "object",
                    "propertyNames": reference("ToolName"),
                    "additionalProperties": reference("Delegate"),
                }))),
            ],
            &["description", "capabilities"],
            json!({}),
        ),
        "Delegate": closed(
            "An agent or a capability exposed as one tool: the model calls it with a task (or the declared parameters), and the implementation of the agent's `<Agent>Delegates` trait calls the target's tools with the caller's context. It takes a tool's keys; `parameters` defaults to `{task: string}`, required.",
            delegate_properties(),
            &["description"],
            json!({ "oneOf": [{ "required": ["agent"] }, { "required": ["capability"] }] }),
        ),
        "Schema": schema_definition(),
    });
    let mut defs = defs;
    if let Value::Object(d) = &mut defs {
        for (name, def) in backend_definitions() {
            d.insert(name.to_string(), def);
        }
    }
    let mut root = closed(
        "A toolc manifest, format version 1: tools, playbooks, manuals, capabilities and agents, in YAML or TOML. Every section is optional; the files given to toolc form one toolset.",
        vec![
            (
                "version",
                described(
                    "The manifest format version: 1.",
                    json!({ "type": "integer", "const": 1 }),
                ),
            ),
            (
                "types",
                section(
                    "Named JSON Schemas, by PascalCase name: each becomes a Rust type. Refer to one as `$ref: \"#/types/Name\"`.",
                    "TypeName",
                    "Schema",
                    true,
                ),
            ),
            (
                "toolboxes",
                section("Groups of tools, by name.", "Name", "Toolbox", true),
            ),
            (
                "playbooks",
                section("Groups of plays, by name.", "Name", "Playbook", true),
            ),
            (
                "manuals",
                section(
                    "Instructions for the model, by name.",
                    "Name",
                    "Manual",
                    true,
                ),
            ),
            (
                "capabilities",
                section(
                    "Toolboxes and playbooks with their manuals, by name.",
                    "Name",
                    "Capability",
                    true,
                ),
            ),
            (
                "agents",
                section(
                    "The capability sets one model sees, by name. Without agents, the toolset has one agent holding every capability.",
                    "Name",
                    "Agent",
                    true,
                ),
            ),
        ],
        &["version"],
        json!({}),
    );
    let mut out = Map::new();
    out.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    out.insert("title".into(), "toolc manifest".into());
    if let Value::Object(m) = root.take() {
        out.extend(m);
    }
    out.insert("$defs".into(), defs);
    Value::Object(out)
}
