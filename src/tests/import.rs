//! `toolc import`'s parts: the YAML it writes reads back as the value it was given.

use crate::diag::SourceMap;
use crate::import::yaml::to_yaml;
use crate::manifest::parse_yaml;
use proptest::prelude::*;
use serde_json::Value;
use std::path::Path;

/// What the manifest loader reads from `text`, as JSON.
fn read_back(text: &str) -> Result<Value, String> {
    let mut sources = SourceMap::new();
    let id = sources.add(Path::new("t.yaml"), text.to_string());
    let node = parse_yaml::parse(sources.file(id), id).map_err(|d| format!("{d:?}"))?;
    Ok(node.to_json("", &mut Default::default()))
}

/// Strings a YAML writer can get wrong: indicators, spaces at the ends, line breaks,
/// look-alikes of other types, non-ASCII.
fn tricky_string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            " ",
            "yes",
            "No",
            "on",
            "null",
            "~",
            "Null",
            "true",
            "False",
            "1",
            "-1",
            "1.0",
            "1e3",
            "0x1F",
            "0o17",
            ".inf",
            "-.inf",
            ".nan",
            "2026-01-01",
            "12:30",
            "- a",
            "a: b",
            "a #b",
            "#c",
            "@x",
            "`x`",
            "!tag",
            "&a",
            "*a",
            "%d",
            "|",
            ">",
            "'",
            "\"",
            "[a]",
            "{a}",
            "a,b",
            "?",
            "? x",
            "x\n",
            "\n",
            "a\n\nb",
            " lead",
            "trail ",
            "tab\tin",
            "\u{feff}bom",
            "é ü ∑ 🚀",
            "a\r\nb",
            "\u{85}next",
            "\u{2028}ls",
            "back\\slash",
            "---",
            "...",
            "- ",
            "a:",
            "=",
            "<<",
        ])
        .prop_map(String::from),
        "[ -~\\n\\t]{0,40}",
        "\\PC{0,20}",
        "([a-z ]{1,30}\\n){1,4}[a-z ]{0,10}",
        // Long enough to be folded (`>`), with runs of spaces, indicators and line breaks.
        "([a-z#:'\"-]{1,12} {1,3}){8,30}",
        "[ -~]{70,160}",
        "(  [a-z]{1,9}\\n|[a-z ]{1,40}\\n){2,6}",
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        prop::sample::select(vec![
            0.001,
            0.75,
            7.5,
            1.0,
            -0.0,
            1e300,
            5e-324,
            1e21,
            123456789.0
        ])
        .prop_map(Value::from),
        tricky_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((tricky_string(), inner), 0..6).prop_map(|entries| {
                let mut map = serde_json::Map::new();
                for (k, v) in entries {
                    map.insert(k, v);
                }
                Value::Object(map)
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any JSON object written as YAML reads back, through the manifest loader, as the same
    /// value: the same strings, the same numbers (integer or float), the keys in order.
    #[test]
    fn yaml_reads_back_as_written(entries in prop::collection::vec((tricky_string(), json_value()), 0..6)) {
        let mut map = serde_json::Map::new();
        for (k, v) in entries {
            map.insert(k, v);
        }
        let value = Value::Object(map);
        let text = to_yaml(&value).map_err(TestCaseError::fail)?;
        let back = read_back(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&value).unwrap(),
            "the text:\n{}", text
        );
    }
}

// ------------------------------------------------------------ tools/list results

use crate::import::openapi;
use crate::import::{Import, client, fixup, tools_list};
use serde_json::json;

fn listed(tools: Value) -> Result<Import, crate::import::Failure> {
    tools_list::import(tools.as_array().unwrap(), "a list".into())
}

#[test]
fn tools_of_takes_the_three_shapes_and_nothing_else() {
    let tools = json!([{"name": "a", "inputSchema": {}}]);
    for shape in [
        json!({"tools": tools}),
        tools.clone(),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools, "nextCursor": null}}),
    ] {
        assert_eq!(
            tools_list::tools_of(&shape).unwrap(),
            tools.as_array().unwrap()
        );
    }
    for (not_a_list, says) in [
        (json!({"tool": []}), "not a tools/list result"),
        (json!("tools"), "not a tools/list result"),
        (json!({"result": {"tools": []}}), "not a tools/list result"),
        (
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601}}),
            "a JSON-RPC error",
        ),
    ] {
        let failure = tools_list::tools_of(&not_a_list).unwrap_err();
        assert!(failure.diagnostic.message.contains(says), "{not_a_list}");
        assert!(!failure.io);
    }
}

/// Each row of the table in src/import/tools_list.rs.
#[test]
fn an_mcp_tool_becomes_the_manifest_tool_toolc_lists_as_it() {
    let import = listed(json!([{
        "name": "API-get-user",
        "title": "Get user",
        "description": "Gets a user.",
        "inputSchema": {"type": "object", "x-origin": "openapi"},
        "outputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true,
                        "openWorldHint": false, "title": "Get user", "category": "users"},
        "icons": [{"src": "data:image/png;base64,AA", "mimeType": "image/png", "sizes": ["16x16"],
                   "theme": "dark", "label": "a user"}],
        "_meta": {"ui": {"hidden": false}},
        "execution": {"taskSupport": "optional"},
    }]))
    .unwrap();
    let tool = &import.tools[0];
    assert_eq!(tool.name, "API-get-user");
    assert_eq!(tool.title.as_deref(), Some("Get user"));
    assert_eq!(tool.description, "Gets a user.");
    assert_eq!(
        tool.parameters,
        json!({"type": "object", "x-origin": "openapi"})
    );
    assert_eq!(tool.returns, Some(json!({"type": "object"})));
    // The hints in the manifest's spelling, the title left to `title`, other keys as sent.
    assert_eq!(
        Value::Object(tool.annotations.clone()),
        json!({"read_only": true, "destructive": false, "idempotent": true, "open_world": false,
               "category": "users"})
    );
    assert_eq!(
        tool.icons,
        Some(vec![
            json!({"src": "data:image/png;base64,AA", "mime_type": "image/png",
                         "sizes": ["16x16"], "theme": "dark"})
        ])
    );
    assert_eq!(tool.meta, Some(json!({"ui": {"hidden": false}})));
    assert!(import.extensions, "an `x-` key in a schema is listed");
    let notes: Vec<(&str, &str)> = import
        .notes
        .iter()
        .map(|n| (n.at.as_str(), n.message.as_str()))
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(notes[0].0, "icons/0/label");
    assert_eq!(notes[1].0, "execution");
    // A title that differs from the tool's is written under annotations too.
    let import = listed(
        json!([{"name": "a", "title": "A", "description": "d", "inputSchema": {},
                                 "annotations": {"title": "Another"}}]),
    )
    .unwrap();
    assert_eq!(import.tools[0].annotations["title"], "Another");
}

#[test]
fn what_an_mcp_tool_lacks_is_named() {
    let import = listed(json!([
        {"name": "no_description", "inputSchema": {}},
        {"name": "blank", "title": "Blank", "description": "  ", "inputSchema": {}},
        {"name": "odd", "description": "d", "inputSchema": {},
         "annotations": {"readOnlyHint": "yes"}, "icons": "none", "title": 3},
    ]))
    .unwrap();
    assert_eq!(import.tools[0].description, "no_description");
    assert_eq!(import.tools[1].description, "Blank");
    assert!(import.tools[2].annotations.is_empty());
    let at: Vec<(Option<&str>, &str)> = import
        .notes
        .iter()
        .map(|n| (n.tool.as_deref(), n.at.as_str()))
        .collect();
    assert_eq!(
        at,
        [
            (Some("no_description"), "description"),
            (Some("blank"), "description"),
            (Some("odd"), "title"),
            (Some("odd"), "annotations/readOnlyHint"),
            (Some("odd"), "icons"),
        ]
    );
    assert!(!import.extensions);
}

#[test]
fn malformed_and_repeated_tools_are_refused() {
    for (tools, says) in [
        (json!([3]), "tools[0] is not an object"),
        (
            json!([{"inputSchema": {}}]),
            "tools[0] has no `name` string",
        ),
        (
            json!([{"name": "a"}]),
            "tools[0] (`a`) has no `inputSchema` object",
        ),
        (
            json!([{"name": "a", "inputSchema": {}}, {"name": "a", "inputSchema": {}}]),
            "the tool `a` is listed twice (tools[1])",
        ),
    ] {
        let failure = listed(tools).unwrap_err();
        assert_eq!(failure.diagnostic.message, says);
        assert_eq!(failure.diagnostic.code, crate::Code::ImportSource);
    }
}

#[test]
fn names_and_extension_keys() {
    use crate::import::{has_extension_keys, toolbox_name};
    for (raw, name) in [
        ("Notion API", Some("notion-api")),
        ("mcp-servers/everything", Some("mcp-servers-everything")),
        ("2048 Game!", Some("game")),
        ("über", Some("ber")),
        ("---", None),
        ("", None),
    ] {
        assert_eq!(toolbox_name(raw).as_deref(), name, "{raw}");
    }
    assert_eq!(toolbox_name(&"a".repeat(100)).unwrap().len(), 64);
    assert!(has_extension_keys(&json!({"items": {"x-a": 1}})));
    assert!(!has_extension_keys(
        &json!({"properties": {"x-not-a-key": {"type": "string"}}})
    ));
    assert!(has_extension_keys(
        &json!({"properties": {"a": {"x-a": 1}}})
    ));
    assert!(!has_extension_keys(
        &json!({"const": {"x-data": 1}, "enum": [{"x-data": 2}]})
    ));
}

// ------------------------------------------------------------ OpenAPI

#[test]
fn tool_and_type_names() {
    for (raw, name) in [
        ("pets.list", "pets_list"),
        ("list-pets", "list-pets"),
        ("2fa", "op_2fa"),
        ("get /pets", "get__pets"),
        ("_x", "op__x"),
    ] {
        assert_eq!(openapi::tool_name(raw), name, "{raw}");
        assert!(crate::model::names::is_tool_name(name));
    }
    assert_eq!(openapi::tool_name(&"a".repeat(80)).len(), 64);
    for (raw, name) in [
        ("pet-record", "PetRecord"),
        ("richTextRequest", "RichTextRequest"),
        ("Pet.v2_final", "PetV2Final"),
        ("3d-model", "T3dModel"),
        ("%%", "Type"),
    ] {
        assert_eq!(openapi::schema::pascal(raw), name, "{raw}");
        assert!(crate::model::names::is_type_name(name));
    }
}

/// Converts one schema of a document whose components are `components`.
fn convert(schema: Value, components: Value) -> (Result<Value, String>, Vec<String>) {
    let doc = json!({"openapi": "3.0.3", "components": {"schemas": components}});
    let mut schemas = openapi::schema::Schemas::new(&doc);
    let converted = schemas
        .convert(&schema, "/s", Some("t"))
        .map_err(|f| f.diagnostic.message);
    let notes = schemas.notes.iter().map(|n| n.message.clone()).collect();
    (converted, notes)
}

#[test]
fn openapi_30_schemas_in_2020_12_spellings() {
    let (out, notes) = convert(
        json!({"type": "object", "xml": {"name": "x"}, "properties": {
            "a": {"type": "integer", "minimum": 1, "exclusiveMinimum": true, "maximum": 9,
                  "exclusiveMaximum": false, "example": 5},
            "b": {"type": "number", "exclusiveMaximum": true},
            "c": {"type": "string", "example": "x", "examples": ["y"], "nullable": true,
                  "externalDocs": {"url": "https://example.test"}},
            "d": {"type": "integer", "exclusiveMinimum": 3},
        }}),
        json!({}),
    );
    assert_eq!(
        out.unwrap(),
        json!({"type": "object", "properties": {
            "a": {"type": "integer", "exclusiveMinimum": 1, "maximum": 9, "examples": [5]},
            "b": {"type": "number"},
            "c": {"type": "string", "examples": ["y"], "nullable": true},
            "d": {"type": "integer", "exclusiveMinimum": 3},
        }})
    );
    assert_eq!(notes.len(), 7, "{notes:#?}");
}

#[test]
fn openapi_references() {
    // To a component: its named type, given out once, in PascalCase.
    let components = json!({
        "pet-record": {"type": "object", "properties": {"owner": {"$ref": "#/components/schemas/Person"}}},
        "Person": {"type": "string"},
        "Loop": {"$ref": "#/components/schemas/Loop/properties/next"},
    });
    let (out, notes) = convert(
        json!({"items": {"$ref": "#/components/schemas/pet-record", "description": "kept"}}),
        components.clone(),
    );
    assert_eq!(
        out.unwrap(),
        json!({"items": {"$ref": "#/types/PetRecord", "description": "kept"}})
    );
    assert_eq!(notes.len(), 1, "the rename: {notes:?}");
    // Elsewhere: inlined, converted in turn.
    let (out, _) = convert(
        json!({"$ref": "#/components/schemas/pet-record/properties/owner"}),
        components.clone(),
    );
    assert_eq!(out.unwrap(), json!({"$ref": "#/types/Person"}));
    // `~1` and `%25` in a component's name.
    let (out, _) = convert(
        json!({"$ref": "#/components/schemas/a~1b%25"}),
        json!({"a/b%": {"type": "string"}}),
    );
    assert_eq!(out.unwrap(), json!({"$ref": "#/types/AB"}));
    for (schema, says) in [
        (
            json!({"$ref": "#/components/schemas/Nope"}),
            "points at nothing",
        ),
        (
            json!({"$ref": "other.yaml#/Pet"}),
            "points into another document",
        ),
        (
            json!({"$ref": "#/components/schemas/Loop/properties/next"}),
            "points at nothing",
        ),
        (
            json!({"$ref": "#/components/schemas/Cycle/items"}),
            "refers to itself",
        ),
    ] {
        let (out, _) = convert(
            schema.clone(),
            json!({"Loop": {}, "Cycle": {"items": {"$ref": "#/components/schemas/Cycle/items"}}}),
        );
        let message = out.unwrap_err();
        assert!(message.contains(says), "{schema}: {message}");
    }
}

/// How each operation of the rules fixture is called over HTTP: its `http` backend.
#[test]
fn openapi_http_backends() {
    let text =
        std::fs::read_to_string(super::repo().join("tests/import/openapi/rules.yaml")).unwrap();
    let doc = openapi::parse(&text).unwrap();
    let import = openapi::import(&doc, "rules.yaml").unwrap();
    let backend = |name: &str| {
        import
            .tools
            .iter()
            .find(|t| t.name == name)
            .and_then(|t| t.backend.clone())
            .unwrap_or_else(|| panic!("{name}"))
    };
    let bearer = json!({"env": "BEARER", "prefix": "Bearer "});
    // Path, query, header and cookie parameters as placeholders, each under the property name
    // the parameters schema gives it.
    assert_eq!(
        backend("pets_get"),
        json!({"http": {
            "method": "GET",
            "url": "https://api.example.test/v2/pets/{id}",
            "query": {
                "verbose": "{verbose}",
                "id": "{query_id}",
                "page-size": "{page-size}",
                "page_size": "{query_page_size}",
                "filter": "{filter}",
            },
            "headers": {
                "X-Trace": "{X-Trace}",
                "Cookie": "session={session}; theme={theme}",
                "Authorization": bearer,
            },
        }})
    );
    // A body's properties, each from its own parameter; a whole body from one.
    assert_eq!(
        backend("op_2fa-replace")["http"]["body"],
        json!({"id": "{body_id}", "name": "{name}", "age": "{age}", "owner": "{owner}"})
    );
    assert_eq!(backend("pets_get_2")["http"]["body"], json!("{body}"));
    // A key in the query, read from the environment.
    let search = backend("an_operation_id_that_is_much_longer_than_the_sixty_four_characte");
    assert_eq!(search["http"]["query"]["api_key"], json!({"env": "KEY"}));
    assert_eq!(
        backend("get_health"),
        json!({"http": {"method": "GET", "url": "https://api.example.test/v2/health"}})
    );
}

#[test]
fn openapi_documents_that_are_not_imported() {
    for (doc, says) in [
        (json!({"swagger": "2.0"}), "Swagger 2.0"),
        (json!({"openapi": "2.5"}), "is not a version toolc imports"),
        (json!({"openapi": 3.1}), "is not a version toolc imports"),
        (json!({"info": {}}), "not an OpenAPI document"),
        (json!({"openapi": "3.0.0"}), "has no `paths`"),
        (
            json!({"openapi": "3.0.0", "paths": {"/a": {"get": 3}}}),
            "is not an object",
        ),
        (
            json!({"openapi": "3.0.0", "paths": {"/a": {"get": {"parameters": [{"name": "x"}]}}}}),
            "has no `name` or no `in`",
        ),
        (
            json!({"openapi": "3.0.0", "paths": {"/a": {"get": {"parameters": [{"name": "x", "in": "body"}]}}}}),
            "is `in: body`",
        ),
        (
            json!({"openapi": "3.0.0", "paths": {"/a": {"$ref": "#/paths/~1a"}}}),
            "leads to itself",
        ),
    ] {
        let failure = openapi::import(&doc, "d").unwrap_err();
        assert!(
            failure.diagnostic.message.contains(says),
            "{doc}: {}",
            failure.diagnostic.message
        );
    }
}

// ------------------------------------------------------------ the client

#[test]
fn the_client_sorts_what_a_server_sends() {
    use client::Incoming;
    let sorted = |m: Value| client::incoming(m, 7);
    assert!(matches!(
        sorted(json!({"jsonrpc": "2.0", "id": 7, "result": {}})),
        Incoming::Response(_)
    ));
    assert!(matches!(
        sorted(json!({"jsonrpc": "2.0", "id": 6, "result": {}})),
        Incoming::Ignore
    ));
    assert!(matches!(
        sorted(json!({"jsonrpc": "2.0", "method": "notifications/message"})),
        Incoming::Ignore
    ));
    let Incoming::Answer(pong) = sorted(json!({"jsonrpc": "2.0", "id": 7, "method": "ping"}))
    else {
        panic!("a ping is answered");
    };
    assert_eq!(pong, json!({"jsonrpc": "2.0", "id": 7, "result": {}}));
    let Incoming::Answer(refusal) =
        sorted(json!({"jsonrpc": "2.0", "id": "s", "method": "sampling/createMessage"}))
    else {
        panic!("a request is answered");
    };
    assert_eq!(refusal["error"]["code"], -32601);
    assert_eq!(refusal["id"], "s");
}

#[test]
fn only_loopback_http_is_reached() {
    use client::http::refuse;
    for ok in [
        "http://127.0.0.1:8080/mcp",
        "http://127.3.2.1/mcp",
        "http://localhost:1/",
        "http://LOCALHOST/mcp",
        "http://[::1]:9000/mcp",
        "http://[::ffff:127.0.0.1]:9000/mcp",
    ] {
        assert!(refuse(ok).is_none(), "{ok}");
    }
    for (refused, says) in [
        ("https://127.0.0.1/mcp", "is https"),
        ("http://0.0.0.0:8080/mcp", "is not this machine"),
        ("http://192.168.1.2/mcp", "is not this machine"),
        ("http://localhost.example.com/mcp", "is not this machine"),
        ("http://[::2]/mcp", "is not this machine"),
        ("mcp", "not an http:// URL"),
        ("http://exa mple/", "is not a URL"),
    ] {
        let failure = refuse(refused).unwrap_or_else(|| panic!("{refused} is let through"));
        assert!(
            failure.diagnostic.message.contains(says),
            "{refused}: {}",
            failure.diagnostic.message
        );
        assert!(failure.io);
    }
}

// ------------------------------------------------------------ the check before writing

#[test]
fn examples_and_defaults_toolc_would_refuse_are_left_out() {
    let mut manifest = json!({
        "version": 1,
        "types": {"Age": {"type": "integer", "examples": [1, "old", 2, "older"]}},
        "toolboxes": {"t": {"description": "d", "tools": {"a": {
            "description": "d",
            "parameters": {"type": "object", "properties": {
                "n": {"type": "integer", "default": "many", "examples": ["x"]},
                "m": {"$ref": "#/types/Age"},
            }},
        }}}},
    });
    let mut notes = Vec::new();
    let settled =
        fixup::settle(&mut manifest, std::path::Path::new("m/t.yaml"), &mut notes).unwrap();
    assert!(settled.diagnostics.is_empty(), "{:?}", settled.diagnostics);
    assert_eq!(manifest["types"]["Age"]["examples"], json!([1, 2]));
    assert_eq!(
        manifest["toolboxes"]["t"]["tools"]["a"]["parameters"]["properties"]["n"],
        json!({"type": "integer"})
    );
    let at: Vec<(Option<&str>, &str)> = notes
        .iter()
        .map(|n| (n.tool.as_deref(), n.at.as_str()))
        .collect();
    assert_eq!(
        at,
        [
            (None, "/types/Age/examples"),
            (None, "/types/Age/examples"),
            (Some("a"), "parameters/properties/n/examples"),
            (Some("a"), "parameters/properties/n/default"),
        ]
    );
    assert!(
        notes[2]
            .message
            .starts_with("left out, since toolc would refuse it: example 1 of `examples`")
    );
}

// ------------------------------------------------------------ no panic on any input

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any JSON is imported or refused, never a panic: as a tools/list result and as an
    /// OpenAPI document (of any shape, and with keys an OpenAPI document has).
    #[test]
    fn any_json_is_imported_or_refused(value in json_value(), paths in json_value()) {
        if let Ok(tools) = tools_list::tools_of(&value) {
            let _ = tools_list::import(tools, "x".into());
        }
        let _ = tools_list::import(std::slice::from_ref(&value), "x".into());
        let _ = openapi::import(&value, "x");
        let doc = json!({"openapi": "3.0.0", "paths": {"/a/{b}": {"post": {
            "parameters": [paths.clone()], "requestBody": {"content": {"application/json": {"schema": paths.clone()}}},
            "responses": {"200": {"content": {"application/json": {"schema": value.clone()}}}},
        }}}, "components": {"schemas": {"A": paths}}});
        let _ = openapi::import(&doc, "x");
    }

    /// Any text is read as an OpenAPI document or refused, never a panic.
    #[test]
    fn any_text_is_read_or_refused(text in "\\PC{0,200}") {
        let _ = openapi::parse(&text);
    }
}
