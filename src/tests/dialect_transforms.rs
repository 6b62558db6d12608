//! The per-dialect rewrites, the tool-list shapes, and how lint findings
//! point back at the manifest.

use crate::lint::{LintSettings, lint_toolset, to_diagnostics};
use crate::lower::schema_for;
use crate::pipeline::tool_list;
use crate::{Dialect, Finding};
use crate::{Severity, render_plain};
use serde_json::{Value, json};

/// Lowers a toolset for the settings' dialects and lints it.
fn lint_with(toolset: &crate::model::Toolset, settings: &LintSettings) -> Vec<Finding> {
    let lowered = crate::lower::lower(toolset, &settings.dialects, Default::default());
    lint_toolset(toolset, &lowered, settings)
}

struct Fixture {
    _dir: tempfile::TempDir,
    checked: crate::Checked,
}

/// Loads a one-file toolset; a capability holding its first toolbox is
/// added so that the implicit agent sees its tools.
fn load(yaml: &str) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tools.yaml");
    let toolbox = yaml
        .split("toolboxes:\n  ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .unwrap();
    let text =
        format!("{yaml}capabilities:\n  all:\n    description: All\n    toolbox: {toolbox}\n");
    std::fs::write(&path, text).unwrap();
    let checked = crate::check(&[path], &Default::default());
    let errs: Vec<String> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| render_plain(&checked.sources, d))
        .collect();
    assert!(
        errs.is_empty(),
        "fixture does not check:\n{}",
        errs.join("\n")
    );
    Fixture { _dir: dir, checked }
}

impl Fixture {
    fn toolset(&self) -> &crate::model::Toolset {
        &self.checked.toolset
    }

    fn tool(&self, name: &str) -> &crate::model::Tool {
        self.toolset()
            .toolboxes
            .iter()
            .flat_map(|t| &t.tools)
            .chain(self.toolset().playbooks.iter().flat_map(|p| &p.plays))
            .find(|t| t.name == name)
            .unwrap()
    }

    fn params(&self, tool: &str, d: Dialect) -> Value {
        let t = self.tool(tool);
        let form = schema_for(self.toolset(), t.parameters, d);
        assert!(form.refusals.is_empty(), "{:?}", form.refusals);
        form.json
    }

    fn returns(&self, tool: &str, d: Dialect) -> Value {
        let t = self.tool(tool);
        schema_for(self.toolset(), t.returns.unwrap(), d).json
    }

    fn list(&self, d: Dialect) -> Result<Value, Vec<Finding>> {
        let e = tool_list(
            self.toolset(),
            &self.toolset().agents[0],
            d,
            &LintSettings::for_dialects(&[d]),
            Default::default(),
        );
        if e.has_errors() {
            Err(e.findings)
        } else {
            Ok(e.list)
        }
    }

    fn lint(&self, dialects: &[Dialect]) -> Vec<Finding> {
        let lowered = crate::lower::lower(self.toolset(), dialects, Default::default());
        lint_toolset(
            self.toolset(),
            &lowered,
            &LintSettings::for_dialects(dialects),
        )
    }

    /// `path:line:col: severity[rule]: ...` lines of the findings.
    fn rendered(&self, findings: &[Finding]) -> Vec<String> {
        to_diagnostics(findings)
            .iter()
            .map(|d| render_plain(&self.checked.sources, d))
            .collect()
    }

    fn line_of(&self, needle: &str) -> usize {
        let (_, f) = self.checked.sources.files().next().unwrap();
        f.text.lines().position(|l| l.contains(needle)).unwrap() + 1
    }
}

fn errors_of<'a>(f: &'a [Finding], rule: &str) -> Vec<&'a Finding> {
    f.iter().filter(|x| x.rule == rule).collect()
}

const TICKETS: &str = r##"
version: 1
types:
  Status:
    type: string
    enum: [open, closed]
    description: Where a ticket is.
  Ticket:
    type: object
    properties:
      id: { type: string, description: The id. }
      status: { $ref: "#/types/Status" }
    required: [id, status]
toolboxes:
  tickets:
    description: Ticket tools
    tools:
      list:
        description: List tickets.
        parameters:
          type: object
          properties:
            status: { $ref: "#/types/Status", description: Only this status. }
            limit: { type: integer, minimum: 1, default: 20, description: At most this many. }
            page: { type: integer, format: int32 }
            label: { type: string, enum: [a, b] }
          required: []
        returns: { type: array, items: { $ref: "#/types/Ticket" } }
        annotations: { read_only: true, open_world: false, x-audience: staff }
      get:
        title: Get a ticket
        description: Get one ticket.
        parameters: { $ref: "#/types/Ticket" }
        returns: { $ref: "#/types/Ticket" }
      whoami:
        description: Who am I.
"##;

#[test]
fn openai_strict_requires_everything_and_makes_optionals_nullable() {
    let f = load(TICKETS);
    let p = f.params("list", Dialect::OpenAiStrict);
    assert_eq!(p["required"], json!(["status", "limit", "page", "label"]));
    assert_eq!(p["additionalProperties"], json!(false));
    // A $ref with a sibling description: wrapped, and made nullable.
    assert_eq!(
        p["properties"]["status"],
        json!({"anyOf": [{"$ref": "#/$defs/Status"}, {"type": "null"}], "description": "Only this status."})
    );
    // A simple type: a type list; an enum gains null.
    assert_eq!(
        p["properties"]["label"],
        json!({"type": ["string", "null"], "enum": ["a", "b", null]})
    );
    // `default` said in the description; int32 as bounds; an integer with
    // no upper bound gets the one of its Rust type.
    assert_eq!(
        p["properties"]["limit"],
        json!({"type": ["integer", "null"], "minimum": 1, "maximum": 9223372036854775807i64, "description": "At most this many. Default: 20."})
    );
    assert_eq!(
        p["properties"]["page"],
        json!({"type": ["integer", "null"], "minimum": i32::MIN, "maximum": i32::MAX})
    );
    assert_eq!(
        p["$defs"],
        json!({"Status": {"type": "string", "enum": ["open", "closed"], "description": "Where a ticket is."}})
    );
    // And it lints clean for strict mode.
    let findings = f.lint(&[Dialect::OpenAiStrict, Dialect::AzureOpenAiStrict]);
    let errs: Vec<_> = findings
        .iter()
        .filter(|x| x.severity == Severity::Error)
        .collect();
    assert!(errs.is_empty(), "{:?}", f.rendered(&findings));
}

#[test]
fn the_canonical_form_keeps_optionals_optional_outside_strict_mode() {
    let f = load(TICKETS);
    for d in [
        Dialect::OpenAi,
        Dialect::Anthropic,
        Dialect::Mcp,
        Dialect::GeminiJsonSchema,
    ] {
        let p = f.params("list", d);
        assert_eq!(p["required"], json!([]), "{d}");
        assert_eq!(p["properties"]["limit"]["default"], json!(20), "{d}");
        assert!(p.get("additionalProperties").is_none(), "{d}");
    }
}

#[test]
fn a_root_ref_is_inlined_so_the_root_is_an_object() {
    let f = load(TICKETS);
    for d in Dialect::ALL {
        let p = f.params("get", d);
        assert_eq!(p["type"], json!("object"), "{d}: {p}");
        assert!(p.get("$ref").is_none(), "{d}");
    }
    // Unused definitions are dropped: Ticket was only the root.
    let p = f.params("get", Dialect::OpenAiStrict);
    assert_eq!(
        p["$defs"].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["Status"]
    );
}

#[test]
fn gemini_inlines_references_and_uses_nullable() {
    let f = load(TICKETS);
    let p = f.params("list", Dialect::Gemini);
    assert!(p.get("$defs").is_none());
    assert_eq!(
        p["properties"]["status"],
        json!({"type": "string", "enum": ["open", "closed"], "description": "Only this status."})
    );
    let r = f.returns("list", Dialect::GeminiVertex);
    assert_eq!(
        r["items"]["properties"]["status"]["enum"],
        json!(["open", "closed"])
    );
}

#[test]
fn gemini_omits_empty_parameters_but_the_others_keep_them() {
    let f = load(TICKETS);
    let gem = f.list(Dialect::Gemini).unwrap();
    let decls = gem["functionDeclarations"].as_array().unwrap();
    let whoami = decls.iter().find(|d| d["name"] == "whoami").unwrap();
    assert!(whoami.get("parameters").is_none(), "{whoami}");
    let vtx = f.list(Dialect::GeminiVertex).unwrap();
    let whoami = vtx["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "whoami")
        .unwrap();
    // A tool without parameters is closed, as the dispatcher enforces it.
    assert_eq!(
        whoami["parameters"],
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
}

#[test]
fn the_list_shapes_follow_each_provider() {
    let f = load(TICKETS);
    let oai = f.list(Dialect::OpenAiStrict).unwrap();
    assert_eq!(oai[0]["type"], json!("function"));
    assert_eq!(oai[0]["function"]["name"], json!("list"));
    assert_eq!(oai[0]["function"]["strict"], json!(true));
    assert_eq!(
        f.list(Dialect::OpenAi).unwrap()[0]["function"]["strict"],
        json!(false)
    );
    let ant = f.list(Dialect::Anthropic).unwrap();
    assert_eq!(ant[1]["name"], json!("get"));
    assert!(ant[1]["input_schema"].is_object());
    assert!(ant[1].get("strict").is_none());
    let gjs = f.list(Dialect::GeminiJsonSchema).unwrap();
    let d0 = &gjs["functionDeclarations"][0];
    assert!(d0["parametersJsonSchema"].is_object() && d0["responseJsonSchema"].is_object());
    assert!(d0.get("parameters").is_none());
    // Gemini declarations carry the result's schema as `response`.
    assert!(f.list(Dialect::Gemini).unwrap()["functionDeclarations"][0]["response"].is_object());
    // Manifest order.
    let names: Vec<&str> = oai
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["list", "get", "whoami"]);
}

#[test]
fn mcp_lists_the_annotation_title_and_keys_of_the_manifest_as_written() {
    let f = load(
        r##"
version: 1
toolboxes:
  nav:
    description: Navigation
    tools:
      go:
        title: Go to a page
        description: Open a page.
        annotations:
          title: Navigate
          read_only: false
          category: navigation
          x-internal: ignored
          limits: { per_minute: 30, regions: [eu, us] }
      back:
        description: Go back.
        annotations: { title: Back }
      stay:
        title: Stay
        description: Stay on the page.
"##,
    );
    let mcp = f.list(Dialect::Mcp).unwrap();
    let tools = mcp["tools"].as_array().unwrap();
    // The tool's `title` is MCP's `title`; `annotations.title` is the manifest's when given,
    // and the keys of the manifest's own follow the hints, as written, `x-` keys left out.
    assert_eq!(tools[0]["title"], json!("Go to a page"));
    assert_eq!(
        serde_json::to_string(&tools[0]["annotations"]).unwrap(),
        r#"{"title":"Navigate","readOnlyHint":false,"category":"navigation","limits":{"per_minute":30,"regions":["eu","us"]}}"#
    );
    // `annotations.title` alone: no top-level `title`.
    assert!(tools[1].get("title").is_none(), "{:#}", tools[1]);
    assert_eq!(tools[1]["annotations"], json!({"title": "Back"}));
    // `title` alone is both, as before.
    assert_eq!(tools[2]["title"], json!("Stay"));
    assert_eq!(tools[2]["annotations"], json!({"title": "Stay"}));
    // Two titles that differ draw the note that clients show `title`.
    let findings = f.lint(&[Dialect::Mcp]);
    assert!(
        findings
            .iter()
            .any(|x| x.rule == "mcp-annotation-title-shadow" && x.tool.as_deref() == Some("go"))
    );
    // Other dialects list no annotations.
    let oai = f.list(Dialect::OpenAi).unwrap();
    assert!(oai[0]["function"].get("annotations").is_none());
}

#[test]
fn mcp_lists_hints_titles_and_object_results() {
    let f = load(TICKETS);
    let mcp = f.list(Dialect::Mcp).unwrap();
    let tools = mcp["tools"].as_array().unwrap();
    // The hints under their MCP names; `x-` keys stay in the manifest.
    assert_eq!(
        tools[0]["annotations"],
        json!({"readOnlyHint": true, "openWorldHint": false})
    );
    // An array result has no outputSchema, and a note says so.
    assert!(tools[0].get("outputSchema").is_none());
    let findings = f.lint(&[Dialect::Mcp]);
    let note = findings
        .iter()
        .find(|x| x.rule == "mcp-output-schema-omitted")
        .unwrap();
    assert_eq!(note.severity, Severity::Note);
    assert_eq!(note.tool.as_deref(), Some("list"));
    assert!(f.rendered(&findings).iter().any(|l| l.contains(&format!(
        "tools.yaml:{}:",
        f.line_of("returns: { type: array")
    ))));
    // An object result does, its root `$ref` inlined.
    assert_eq!(tools[1]["title"], json!("Get a ticket"));
    assert_eq!(tools[1]["outputSchema"]["type"], json!("object"));
    assert_eq!(
        tools[1]["outputSchema"]["properties"]["id"]["type"],
        json!("string")
    );
    assert!(tools[1]["outputSchema"]["$defs"]["Status"].is_object());
    assert!(tools[2].get("outputSchema").is_none());
    assert!(tools[2].get("annotations").is_none());
}

#[test]
fn mcp_lists_no_output_schema_for_an_unvalidated_result() {
    let f = load(&TICKETS.replace(
        "        returns: { $ref: \"#/types/Ticket\" }\n",
        "        returns: { $ref: \"#/types/Ticket\" }\n        validate_returns: false\n",
    ));
    let mcp = f.list(Dialect::Mcp).unwrap();
    assert!(mcp["tools"][1].get("outputSchema").is_none());
    let findings = f.lint(&[Dialect::Mcp]);
    assert!(
        findings
            .iter()
            .any(|x| x.rule == "mcp-output-schema-omitted" && x.tool.as_deref() == Some("get"))
    );
    assert!(
        !findings
            .iter()
            .any(|x| x.rule == "mcp-structured-content-conformance")
    );
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let a = load(TICKETS);
    let b = load(TICKETS);
    for d in Dialect::ALL {
        let settings = LintSettings::for_dialects(&[d]);
        let x = tool_list(
            a.toolset(),
            &a.toolset().agents[0],
            d,
            &settings,
            Default::default(),
        );
        let y = tool_list(
            b.toolset(),
            &b.toolset().agents[0],
            d,
            &settings,
            Default::default(),
        );
        assert_eq!(
            serde_json::to_string(&x.list).unwrap(),
            serde_json::to_string(&y.list).unwrap(),
            "{d}"
        );
        assert_eq!(x.findings.len(), y.findings.len(), "{d}");
    }
}

const RECURSIVE: &str = r##"
version: 1
types:
  Folder:
    type: object
    properties:
      name: { type: string }
      children:
        type: array
        items: { $ref: "#/types/Folder" }
    required: [name]
toolboxes:
  files:
    description: Files
    tools:
      mkdir:
        description: Make folders.
        parameters:
          type: object
          properties:
            tree: { $ref: "#/types/Folder" }
          required: [tree]
"##;

#[test]
fn recursion_is_refused_where_it_cannot_be_expressed_and_kept_where_it_can() {
    let f = load(RECURSIVE);
    let findings = f.lint(&Dialect::ALL);
    let rec = errors_of(&findings, "recursive-lazy");
    let dialects: Vec<Dialect> = rec.iter().filter_map(|x| x.dialect).collect();
    assert!(dialects.contains(&Dialect::Gemini));
    assert!(dialects.contains(&Dialect::GeminiVertex));
    assert!(dialects.contains(&Dialect::AnthropicStrict));
    for ok in [
        Dialect::OpenAiStrict,
        Dialect::OpenAi,
        Dialect::Anthropic,
        Dialect::Mcp,
        Dialect::GeminiJsonSchema,
    ] {
        assert!(!dialects.contains(&ok), "{ok}");
    }
    // It points at the `$ref` inside the type, on its own line.
    let line = f.line_of("items: { $ref");
    let text = f.rendered(&findings);
    let gem = text
        .iter()
        .find(|l| l.contains("[recursive-lazy]") && l.contains("gemini"))
        .unwrap();
    assert!(gem.contains(&format!("tools.yaml:{line}:")), "{gem}");
    // Dialects sharing a finding print once.
    assert!(gem.contains("gemini, gemini-vertex"), "{gem}");
    // No list for Gemini; openai-strict keeps the recursion in `$defs`.
    assert!(f.list(Dialect::Gemini).is_err());
    let oai = f.list(Dialect::OpenAiStrict).unwrap();
    assert_eq!(
        oai[0]["function"]["parameters"]["$defs"]["Folder"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Folder"})
    );
}

const GEMINI_REWRITES: &str = r##"
version: 1
types:
  Kind:
    type: string
    enum: [a, b]
toolboxes:
  t:
    description: T
    tools:
      pick:
        description: Pick.
        parameters:
          type: object
          properties:
            count: { type: integer, exclusiveMinimum: 0, exclusiveMaximum: 10 }
            version: { const: v2 }
            note: { type: [string, "null"] }
            kind:
              anyOf:
                - { $ref: "#/types/Kind" }
                - { type: "null" }
              description: The kind.
            extra: { type: object, properties: { x: { type: string } }, additionalProperties: false }
            old: { type: string, deprecated: true, description: Old. }
            x-rust-hint: { type: string }
          required: [count]
"##;

#[test]
fn gemini_rewrites_keep_the_meaning() {
    let f = load(GEMINI_REWRITES);
    let p = f.params("pick", Dialect::Gemini);
    let props = &p["properties"];
    assert_eq!(
        props["count"],
        json!({"type": "integer", "minimum": 1, "maximum": 9})
    );
    assert_eq!(props["version"], json!({"enum": ["v2"], "type": "string"}));
    assert_eq!(props["note"], json!({"type": "string", "nullable": true}));
    assert_eq!(
        props["kind"],
        json!({"type": "string", "enum": ["a", "b"], "description": "The kind.", "nullable": true})
    );
    assert_eq!(
        props["extra"],
        json!({"type": "object", "properties": {"x": {"type": "string"}}})
    );
    assert_eq!(
        props["old"],
        json!({"type": "string", "description": "Old. Deprecated."})
    );
    // Vertex keeps `additionalProperties`.
    let v = f.params("pick", Dialect::GeminiVertex);
    assert_eq!(
        v["properties"]["extra"]["additionalProperties"],
        json!(false)
    );
    assert!(f.list(Dialect::Gemini).is_ok());
    assert!(f.list(Dialect::GeminiVertex).is_ok());
}

#[test]
fn integer_bounds_made_inclusive_accept_exactly_the_same_integers() {
    let f = load(GEMINI_REWRITES);
    let t = f.tool("pick");
    let canonical = jsonschema::draft202012::new(&f.toolset().bundle(t.parameters)).unwrap();
    let gemini = jsonschema::draft202012::new(&f.params("pick", Dialect::Gemini)).unwrap();
    for n in -3..14 {
        let args = json!({"count": n});
        assert_eq!(canonical.is_valid(&args), gemini.is_valid(&args), "{n}");
    }
}

#[test]
fn what_gemini_cannot_express_is_an_error_at_its_line() {
    let f = load(
        r##"
version: 1
toolboxes:
  t:
    description: T
    tools:
      pay:
        description: Pay.
        parameters:
          type: object
          properties:
            amount: { type: number, exclusiveMinimum: 0 }
            level: { type: integer, enum: [1, 2] }
            labels: { type: object, additionalProperties: { type: string } }
            anything: { description: Any JSON value. }
          required: [amount]
"##,
    );
    let findings = f.lint(&[Dialect::Gemini]);
    let rules: Vec<&str> = findings
        .iter()
        .filter(|x| x.severity == Severity::Error)
        .map(|x| x.rule.as_str())
        .collect();
    for r in [
        "exclusive-numeric-bound",
        "gemini-enum-non-string",
        "gemini-type-missing",
    ] {
        assert!(rules.contains(&r), "{r} missing from {rules:?}");
    }
    // The map has an equivalent Gemini takes: a list of pairs.
    assert!(
        !rules.contains(&"gemini-additional-properties"),
        "{rules:?}"
    );
    let text = f.rendered(&findings);
    let line = f.line_of("amount:");
    let excl = text
        .iter()
        .find(|l| l.contains("[exclusive-numeric-bound]"))
        .unwrap();
    assert!(excl.contains(&format!("tools.yaml:{line}:")), "{excl}");
    assert!(f.list(Dialect::Gemini).is_err());
}

const UNION: &str = r##"
version: 1
toolboxes:
  t:
    description: T
    tools:
      send:
        description: Send.
        parameters:
          type: object
          properties:
            target:
              oneOf:
                - type: object
                  properties:
                    kind: { const: email }
                    address: { type: string }
                  required: [kind, address]
                - type: object
                  properties:
                    kind: { const: sms }
                    number: { type: string }
                  required: [kind, number]
            either:
              oneOf:
                - { type: string, maxLength: 3 }
                - { type: string, minLength: 2 }
          required: [target, either]
"##;

#[test]
fn a_tagged_one_of_becomes_any_of_and_an_overlapping_one_does_not() {
    let f = load(UNION);
    let p = f.params("send", Dialect::OpenAiStrict);
    assert!(p["properties"]["target"].get("anyOf").is_some(), "{p:#}");
    assert!(p["properties"]["target"].get("oneOf").is_none());
    assert!(p["properties"]["either"].get("oneOf").is_some());
    let findings = f.lint(&[Dialect::OpenAiStrict]);
    let bad = errors_of(&findings, "strict-unsupported-keyword");
    assert_eq!(bad.len(), 1, "{:?}", f.rendered(&findings));
    assert_eq!(bad[0].pointer, "/properties/either/oneOf");
    let line = f.line_of("either:");
    let at = f.rendered(&findings);
    let at = at
        .iter()
        .find(|l| l.contains("[strict-unsupported-keyword]"))
        .unwrap();
    let found: usize = at.split(':').nth(1).unwrap().parse().unwrap();
    assert!(
        (line..=line + 2).contains(&found),
        "{at} (either: is line {line})"
    );
    // The rewritten union accepts and rejects what the canonical one does.
    let canonical =
        jsonschema::draft202012::new(&f.toolset().bundle(f.tool("send").parameters)).unwrap();
    let strict = jsonschema::draft202012::new(&p).unwrap();
    for target in [
        json!({"kind": "email", "address": "a@b"}),
        json!({"kind": "sms", "number": "1"}),
        json!({"kind": "sms", "address": "a@b"}),
        json!({"kind": "fax", "number": "1"}),
    ] {
        let args = json!({"target": target, "either": "abcdef"});
        assert_eq!(canonical.is_valid(&args), strict.is_valid(&args), "{args}");
    }
}

#[test]
fn anthropic_strict_closes_objects_and_refuses_bounds() {
    let f = load(TICKETS);
    let p = f.params("get", Dialect::AnthropicStrict);
    assert_eq!(p["additionalProperties"], json!(false));
    assert_eq!(
        f.params("get", Dialect::Anthropic)
            .get("additionalProperties"),
        None
    );
    let e = f.list(Dialect::AnthropicStrict).unwrap_err();
    assert!(
        e.iter()
            .any(|x| x.rule == "anthropic-strict-numeric-bounds"
                && x.tool.as_deref() == Some("list"))
    );
    assert!(
        e.iter().any(|x| x.rule == "anthropic-strict-format"),
        "int32 has no strict form"
    );
}

#[test]
fn nullable_true_becomes_a_type_list_in_json_schema_dialects_and_mcp_lists_it_as_written() {
    let f = load(
        r##"
version: 1
toolboxes:
  t:
    description: T
    tools:
      n:
        description: N.
        parameters:
          type: object
          properties:
            a: { type: string, nullable: true }
            b: { type: integer, enum: [1, 2], nullable: true }
          required: [a, b]
"##,
    );
    for d in [Dialect::OpenAi, Dialect::OpenAiStrict, Dialect::Anthropic] {
        let p = f.params("n", d);
        assert_eq!(
            p["properties"]["a"],
            json!({"type": ["string", "null"]}),
            "{d}"
        );
        assert_eq!(
            p["properties"]["b"],
            json!({"type": ["integer", "null"], "enum": [1, 2, null]}),
            "{d}"
        );
    }
    // MCP lists what the server sent.
    let m = f.params("n", Dialect::Mcp);
    assert_eq!(
        m["properties"]["a"],
        json!({"type": "string", "nullable": true})
    );
    assert_eq!(
        m["properties"]["b"],
        json!({"type": "integer", "enum": [1, 2], "nullable": true})
    );
    let g = f.params("n", Dialect::Gemini);
    assert_eq!(
        g["properties"]["a"],
        json!({"type": "string", "nullable": true})
    );
}

/// OpenAPI's `discriminator` validates nothing: MCP lists it as written, every other form
/// leaves it out. `dependentRequired` and `dependentSchemas` are JSON Schema keywords every
/// form keeps (the lint of a provider that refuses them says so).
#[test]
fn discriminator_is_listed_to_mcp_only_and_dependent_keywords_everywhere() {
    let f = load(
        r##"
version: 1
toolboxes:
  t:
    description: T
    tools:
      n:
        description: N.
        parameters:
          type: object
          properties:
            card: { type: string }
            address: { type: string }
            pet:
              discriminator: { propertyName: kind, mapping: { cat: "#/$defs/Cat" } }
              oneOf:
                - { type: object, properties: { kind: { const: cat } }, required: [kind] }
                - { type: object, properties: { kind: { const: dog } }, required: [kind] }
          dependentRequired: { card: [address] }
          dependentSchemas: { address: { properties: { card: { minLength: 4 } } } }
"##,
    );
    for d in Dialect::ALL {
        let p = f.params("n", d);
        let listed = p["properties"]["pet"].get("discriminator");
        if d == Dialect::Mcp {
            assert_eq!(
                listed,
                Some(&json!({"propertyName": "kind", "mapping": {"cat": "#/$defs/Cat"}}))
            );
        } else {
            assert_eq!(listed, None, "{d}");
        }
        assert_eq!(p["dependentRequired"], json!({"card": ["address"]}), "{d}");
        // Lowered as any schema is (strict modes make its optional `card` nullable).
        assert!(
            p["dependentSchemas"]["address"]["properties"]["card"].is_object(),
            "{d}"
        );
    }
}

#[test]
fn deny_allow_and_require_describe_change_the_findings() {
    let f = load(TICKETS);
    let base = LintSettings::for_dialects(&[Dialect::Gemini]);
    let count = |s: &LintSettings, rule: &str| -> Vec<Severity> {
        lint_with(f.toolset(), s)
            .iter()
            .filter(|x| x.rule == rule)
            .map(|x| x.severity)
            .collect()
    };
    // `format: int32` on an integer is fine for Gemini; no string formats
    // here, so use missing-description: off by default.
    assert!(count(&base, "missing-description").is_empty());
    let mut describe = base.clone();
    describe.require_describe = true;
    let warned = count(&describe, "missing-description");
    assert!(!warned.is_empty() && warned.iter().all(|s| *s == Severity::Warning));
    let mut deny = base.clone();
    deny.deny.insert(crate::RuleId::MissingDescription);
    let denied = count(&deny, "missing-description");
    assert!(!denied.is_empty() && denied.iter().all(|s| *s == Severity::Error));
    let mut allow = describe.clone();
    allow.allow.insert(crate::RuleId::MissingDescription);
    assert!(count(&allow, "missing-description").is_empty());
    // Dialects chosen are the dialects linted.
    let only: Vec<Option<Dialect>> = lint_with(
        f.toolset(),
        &LintSettings::for_dialects(&[Dialect::AnthropicStrict]),
    )
    .iter()
    .map(|x| x.dialect)
    .collect();
    assert!(!only.is_empty() && only.iter().all(|d| *d == Some(Dialect::AnthropicStrict)));
}

#[test]
fn emit_tool_list_reports_warnings_with_a_usable_list() {
    let f = load(
        r##"
version: 1
toolboxes:
  t:
    description: T
    tools:
      when:
        description: When.
        parameters:
          type: object
          properties:
            day: { type: string, format: date, description: A day. }
          required: [day]
"##,
    );
    let agent = &f.toolset().agents[0];
    let e = tool_list(
        f.toolset(),
        agent,
        Dialect::Gemini,
        &LintSettings::for_dialects(&[Dialect::Gemini]),
        Default::default(),
    );
    assert!(!e.has_errors());
    assert!(
        e.findings
            .iter()
            .any(|x| x.rule == "gemini-string-format" && x.severity == Severity::Warning)
    );
    assert_eq!(
        e.list["functionDeclarations"][0]["parameters"]["properties"]["day"]["format"],
        json!("date")
    );
    let mut denied = LintSettings::for_dialects(&[Dialect::Gemini]);
    denied.deny.insert(crate::RuleId::GeminiStringFormat);
    assert!(
        tool_list(
            f.toolset(),
            agent,
            Dialect::Gemini,
            &denied,
            Default::default()
        )
        .has_errors()
    );
}

#[test]
fn lint_findings_render_with_the_rule_id_where_the_code_goes() {
    let f = load(RECURSIVE);
    let findings = f.lint(&[Dialect::Gemini]);
    let diags = to_diagnostics(&findings);
    let d = diags
        .iter()
        .find(|d| d.rule == Some("recursive-lazy"))
        .unwrap();
    assert_eq!(d.code, crate::Code::Lint);
    assert_eq!(d.id(), "recursive-lazy");
    let human = crate::render_human(&f.checked.sources, d, false);
    assert!(
        human.starts_with("error[recursive-lazy]: gemini: "),
        "{human}"
    );
    let json = crate::render_json(&f.checked.sources, d);
    assert_eq!(json["code"], json!("recursive-lazy"));
}

#[test]
fn tools_no_agent_reaches_are_linted_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        r#"version: 1
toolboxes:
  a:
    description: A
    tools:
      ok:
        description: Fine.
  b:
    description: B
    tools:
      unlisted:
        description: In no agent.
        parameters:
          type: object
          properties:
            n: { type: number, exclusiveMinimum: 0 }
capabilities:
  a:
    description: A
    toolbox: a
agents:
  only-a:
    description: Sees a.
    capabilities: [a]
"#,
    )
    .unwrap();
    let checked = crate::check(&[path], &Default::default());
    assert!(!checked.diagnostics.has_errors());
    let findings = lint_with(
        &checked.toolset,
        &LintSettings::for_dialects(&[Dialect::Gemini]),
    );
    let f = findings
        .iter()
        .find(|x| x.rule == "exclusive-numeric-bound")
        .unwrap();
    assert_eq!(f.tool.as_deref(), Some("unlisted"));
    assert_eq!(f.pointer, "/properties/n/exclusiveMinimum");
}

const EQUIVALENTS: &str = r##"
version: 1
toolboxes:
  t:
    description: T
    tools:
      eq:
        description: Constructs some dialects have no place for, but an equivalent.
        parameters:
          type: object
          properties:
            labels: { type: object, additionalProperties: { type: string } }
            pair:
              type: array
              prefixItems: [{ type: string }, { type: integer, minimum: 0 }]
              items: false
              minItems: 2
            id: { type: [string, integer], minLength: 1, minimum: 1 }
            person:
              allOf:
                - { type: object, properties: { name: { type: string } }, required: [name] }
                - { type: object, properties: { age: { type: integer, minimum: 0 } } }
            shape:
              type: object
              oneOf:
                - type: object
                  properties: { radius: { type: number } }
                  required: [radius]
                  additionalProperties: false
                - type: object
                  properties: { side: { type: number } }
                  required: [side]
                  additionalProperties: false
          required: [labels, pair, id, person, shape]
"##;

#[test]
fn maps_become_lists_of_pairs_where_no_open_object_is_allowed() {
    let f = load(EQUIVALENTS);
    let pairs = json!({"type": "array", "description": "Given as a list of `{key, value}` pairs, each key once.",
        "items": {"type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "string"}},
        "required": ["key", "value"], "additionalProperties": false}});
    assert_eq!(
        f.params("eq", Dialect::OpenAiStrict)["properties"]["labels"],
        pairs
    );
    // Dialects that take an open map keep it.
    assert_eq!(
        f.params("eq", Dialect::Anthropic)["properties"]["labels"],
        json!({"type": "object", "additionalProperties": {"type": "string"}})
    );
}

#[test]
fn maps_and_tuples_that_may_be_null_keep_the_null_in_their_equivalents() {
    let f = load(
        r##"
version: 1
toolboxes:
  t:
    description: T
    tools:
      eq:
        description: Maps and a tuple that may be null.
        parameters:
          type: object
          properties:
            notes: { type: [object, "null"], additionalProperties: { type: string } }
            tags: { type: object, nullable: true, additionalProperties: { type: integer } }
            window:
              type: [array, "null"]
              prefixItems: [{ type: string }, { type: string }]
              items: false
              minItems: 2
"##,
    );
    for d in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
        let p = f.params("eq", d);
        for map in ["notes", "tags"] {
            assert_eq!(
                p["properties"][map]["type"],
                json!(["array", "null"]),
                "{d}: {map}"
            );
            assert!(p["properties"][map]["items"]["properties"]["key"].is_object());
        }
    }
    let p = f.params("eq", Dialect::Gemini);
    for map in ["notes", "tags"] {
        assert_eq!(p["properties"][map]["type"], json!("array"), "{map}");
        assert_eq!(p["properties"][map]["nullable"], json!(true), "{map}");
    }
    assert_eq!(p["properties"]["window"]["type"], json!("object"));
    assert_eq!(p["properties"]["window"]["nullable"], json!(true));
    assert_eq!(p["properties"]["window"]["required"], json!(["0", "1"]));
}

#[test]
fn a_property_that_may_never_be_sent_is_left_out_of_closed_forms() {
    let f = load(
        r##"
version: 1
toolboxes:
  t:
    description: T
    tools:
      eq:
        description: Has a property no value may take.
        parameters:
          type: object
          properties:
            name: { type: string }
            retired: false
"##,
    );
    // Strict modes make every property required: `retired: false` kept would
    // leave no object that matches.
    for d in [
        Dialect::OpenAiStrict,
        Dialect::AzureOpenAiStrict,
        Dialect::AnthropicStrict,
        Dialect::Gemini,
        Dialect::GeminiVertex,
    ] {
        let p = f.params("eq", d);
        assert!(p["properties"].get("retired").is_none(), "{d}: {p}");
        assert!(p["properties"].get("name").is_some(), "{d}: {p}");
        if d.is_openai_strict() {
            assert_eq!(p["required"], json!(["name"]), "{d}");
        }
    }
    // Open JSON Schema forms say it as the manifest does.
    assert_eq!(
        f.params("eq", Dialect::Mcp)["properties"]["retired"],
        json!(false)
    );
}

#[test]
fn tuples_become_objects_keyed_by_position_for_gemini() {
    let f = load(EQUIVALENTS);
    let p = f.params("eq", Dialect::Gemini);
    assert_eq!(p["properties"]["pair"]["type"], json!("object"));
    assert_eq!(p["properties"]["pair"]["required"], json!(["0", "1"]));
    assert_eq!(
        p["properties"]["pair"]["properties"]["1"]["minimum"],
        json!(0)
    );
    // JSON Schema dialects keep the tuple.
    assert!(f.params("eq", Dialect::Mcp)["properties"]["pair"]["prefixItems"].is_array());
    // An open tuple is shown its positions, each required (arrays of them all are valid); one
    // whose `maxItems` leaves no room for all its positions has no such object, and stays.
    let f = load(
        r##"
version: 1
toolboxes:
  t:
    description: T
    tools:
      n:
        description: N.
        parameters:
          type: object
          properties:
            open: { type: array, prefixItems: [{ type: string }, { type: number }] }
            short: { type: array, prefixItems: [{ type: string }, { type: number }], maxItems: 1 }
"##,
    );
    let p = f.params("n", Dialect::Gemini);
    assert_eq!(p["properties"]["open"]["required"], json!(["0", "1"]));
    assert!(p["properties"]["short"]["prefixItems"].is_array());
}

#[test]
fn type_lists_become_any_of_for_gemini_each_branch_with_its_keywords() {
    let f = load(EQUIVALENTS);
    let id = &f.params("eq", Dialect::Gemini)["properties"]["id"];
    assert_eq!(id["anyOf"][0], json!({"type": "string", "minLength": 1}));
    assert_eq!(id["anyOf"][1]["type"], json!("integer"));
    assert_eq!(id["anyOf"][1]["minimum"], json!(1));
    // The integer branch keeps within the Rust type (i64), as a lone integer does.
    assert_eq!(id["anyOf"][1]["maximum"], json!(i64::MAX));
    assert!(id["anyOf"][1].get("minLength").is_none());
}

#[test]
fn all_of_of_open_objects_is_merged_where_all_of_is_refused() {
    let f = load(EQUIVALENTS);
    let person = &f.params("eq", Dialect::OpenAiStrict)["properties"]["person"];
    assert!(person.get("allOf").is_none(), "{person}");
    assert_eq!(person["required"], json!(["name", "age"]));
    // `age` is optional: nullable in strict mode.
    assert_eq!(
        person["properties"]["age"]["type"],
        json!(["integer", "null"])
    );
    // Anthropic's strict mode takes `allOf` but closes every object: branches
    // closed apart would admit nothing together, so they are merged too.
    let person = &f.params("eq", Dialect::AnthropicStrict)["properties"]["person"];
    assert!(person.get("allOf").is_none(), "{person}");
    assert_eq!(person["required"], json!(["name"]));
    assert_eq!(person["additionalProperties"], json!(false));
    assert_eq!(
        person["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["name".to_string(), "age".to_string()])
    );
    // Elsewhere `allOf` stays.
    assert!(f.params("eq", Dialect::Mcp)["properties"]["person"]["allOf"].is_array());
}

#[test]
fn a_union_of_closed_objects_told_apart_by_their_keys_is_any_of_without_a_redundant_type() {
    let f = load(EQUIVALENTS);
    let shape = &f.params("eq", Dialect::OpenAiStrict)["properties"]["shape"];
    assert!(
        shape.get("oneOf").is_none() && shape["anyOf"].is_array(),
        "{shape}"
    );
    assert!(shape.get("type").is_none(), "{shape}");
    // And the strict list has no error left.
    assert!(f.list(Dialect::OpenAiStrict).is_ok());
}
