//! `toolc import` through the real binary: OpenAPI documents (real ones and a fixture of each
//! rule) held to the manifests checked in beside them, Notion's document against the list
//! Notion's own converter made of it, saved tools/list results in each accepted shape, MCP
//! servers over stdio and streamable HTTP (the example crate's `mcp-server`, fake servers that
//! stop, answer garbage, hang or page their tools, a fake HTTP server that checks the session
//! headers), the files it writes or refuses to overwrite, and bad input.
//!
//! The corpus of tests/realworld is held to `toolc import tools-list` in tests/realworld.rs.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn data() -> PathBuf {
    repo().join("tests/import")
}

/// `toolc ARGS` (the report's options first: what follows `--` is a server's command).
fn toolc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(["--format", "plain", "--color", "never"])
        .args(args)
        .output()
        .expect("toolc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `toolc import ARGS --format json`: the exit code and the document.
fn import_json(args: &[&str]) -> (Option<i32>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(["--format", "json", "import"])
        .args(args)
        .output()
        .expect("toolc runs");
    let doc = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {}\n{}",
            text(&out.stdout),
            text(&out.stderr)
        )
    });
    (out.status.code(), doc)
}

/// The messages of the report's diagnostics with this code.
fn messages(report: &Value, code: &str) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| d["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `toolc check DIR` passes without an error.
#[track_caller]
fn assert_checks(dir: &Path) {
    let out = toolc(&["check", dir.to_str().unwrap()]);
    assert!(
        out.status.success() && !text(&out.stderr).contains("error["),
        "toolc check {}:\n{}",
        dir.display(),
        text(&out.stderr)
    );
}

/// The agent's MCP tool list, as `toolc dump` prints it.
fn dumped(dir: &Path, agent: &str) -> Vec<Value> {
    let out = toolc(&[
        "dump",
        "--agent",
        agent,
        "--dialect",
        "mcp",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    list["tools"].as_array().unwrap().clone()
}

// ------------------------------------------------------------ OpenAPI

/// The documents imported in the tests, each with the folder its import is held to.
const DOCUMENTS: [(&str, &str); 5] = [
    ("notion-openapi.json", "notion"),
    ("petstore.yaml", "petstore"),
    ("uspto.yaml", "uspto"),
    ("rules.yaml", "rules"),
    ("discriminator.yaml", "discriminator"),
];

/// Imports `document` into its folder with `--check` (or writes it, with `TOOLC_BLESS=1`) and
/// holds its notes to `notes.txt` there; the report.
fn import_document(document: &str, folder: &str) -> Value {
    let openapi = data().join("openapi");
    let spec = openapi.join(document);
    let out = openapi.join(folder);
    let bless = std::env::var_os("TOOLC_BLESS").is_some();
    let mut args = vec![
        "openapi",
        spec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    if !bless {
        args.push("--check");
    }
    let (code, report) = import_json(&args);
    assert_eq!(
        code,
        Some(0),
        "{document}: not what toolc import writes (TOOLC_BLESS=1 writes it): {report:#}"
    );
    let notes = messages(&report, "import-change").join("\n") + "\n";
    let notes_file = out.join("notes.txt");
    if bless {
        std::fs::write(&notes_file, &notes).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(&notes_file).unwrap_or_default(),
        notes,
        "{document}: the notes (TOOLC_BLESS=1 writes them)"
    );
    report
}

/// Each document's import is the manifest checked in beside it, and names the same changes.
#[test]
fn openapi_documents_import_as_checked_in() {
    for (document, folder) in DOCUMENTS {
        import_document(document, folder);
    }
}

/// What was imported checks and builds.
#[test]
fn openapi_imports_check_and_build() {
    let scratch = tempfile::tempdir().unwrap();
    for (_, folder) in DOCUMENTS {
        let dir = data().join("openapi").join(folder);
        assert_checks(&dir);
        let out = toolc(&[
            "build",
            dir.to_str().unwrap(),
            "--out",
            scratch.path().join(folder).to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{folder}: {}", text(&out.stderr));
    }
}

/// Notion's MCP server lists tools its own converter makes from the same document
/// (tests/realworld/notion): toolc's import has the same operations, each with the same
/// parameters and required ones, but for the header parameter `Notion-Version`, which that
/// converter leaves out. Their schemas differ on purpose: that converter wraps each object in
/// `anyOf: [object, string]` and prefixes names with `API-`.
#[test]
fn notion_matches_what_notions_converter_lists() {
    let mine = dumped(&data().join("openapi/notion"), "notion");
    let theirs = read_json(&repo().join("tests/realworld/notion/tools.json"));
    let theirs = theirs["tools"].as_array().unwrap();
    let names = |tools: &[Value], prefix: &str| -> Vec<String> {
        tools
            .iter()
            .map(|t| format!("{prefix}{}", t["name"].as_str().unwrap()))
            .collect()
    };
    assert_eq!(names(&mine, "API-"), names(theirs, ""));
    let mut with_version = 0;
    for (m, t) in mine.iter().zip(theirs) {
        let keys = |tool: &Value, key: &str| -> Vec<String> {
            let mut v: Vec<String> = match &tool["inputSchema"][key] {
                Value::Object(props) => props.keys().cloned().collect(),
                Value::Array(items) => items
                    .iter()
                    .map(|i| i.as_str().unwrap().to_string())
                    .collect(),
                _ => Vec::new(),
            };
            v.retain(|k| k != "Notion-Version");
            v.sort();
            v
        };
        let name = m["name"].as_str().unwrap();
        assert_eq!(keys(m, "properties"), keys(t, "properties"), "{name}");
        assert_eq!(keys(m, "required"), keys(t, "required"), "{name}");
        if m["inputSchema"]["properties"]
            .get("Notion-Version")
            .is_some()
        {
            with_version += 1;
        }
        // GET operations are read-only, as Notion's converter says too.
        assert_eq!(
            m["annotations"]["readOnlyHint"].as_bool(),
            t["annotations"]["readOnlyHint"].as_bool().filter(|r| *r),
            "{name}"
        );
    }
    // Every operation but `create-a-comment` takes the header.
    assert_eq!((mine.len(), with_version), (24, 23));
}

/// OpenAPI 3.0's spellings in the petstore (3.0.0) and the rules fixture (3.0.3) are written as
/// JSON Schema 2020-12 spells them, and how each operation is called is what the document says.
#[test]
fn openapi_30_conversions() {
    let petstore =
        std::fs::read_to_string(data().join("openapi/petstore/swagger-petstore.yaml")).unwrap();
    assert!(!petstore.contains("example:"), "`example` is `examples`");
    assert!(!petstore.contains("xml:"), "`xml` is left out");
    let rules = dumped(&data().join("openapi/rules"), "rules");
    let tool = |name: &str| {
        rules
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("no tool {name}"))
            .clone()
    };
    let added = &tool("pets_get_2")["outputSchema"]["properties"]["added"];
    assert_eq!(added["exclusiveMinimum"], json!(0));
    assert!(added.get("minimum").is_none());
    assert_eq!(added["examples"], json!([3]));
    let rate = &tool("pets_get_2")["outputSchema"]["properties"]["rate"];
    assert!(rate.get("exclusiveMaximum").is_none());
    let get = tool("pets_get");
    assert_eq!(get["title"], "Get a pet");
    assert_eq!(get["annotations"]["readOnlyHint"], true);
    let params = get["inputSchema"]["properties"].as_object().unwrap();
    let keys: Vec<&str> = params.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "id",
            "verbose",
            "query_id",
            "X-Trace",
            "session",
            "theme",
            "page-size",
            "query_page_size",
            "filter"
        ]
    );
    assert_eq!(params["verbose"]["description"], "Say more");
    assert_eq!(params["X-Trace"]["deprecated"], true);
    assert_eq!(get["inputSchema"]["required"], json!(["id"]));
    let delete = tool("delete_pets_id");
    assert_eq!(delete["annotations"]["destructiveHint"], true);
    assert_eq!(delete["annotations"]["idempotentHint"], true);
}

// ------------------------------------------------------------ saved tools/list results

fn tool_list() -> Value {
    json!({"tools": [
        {"name": "look_up", "title": "Look up", "description": "Looks a word up.",
         "inputSchema": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]},
         "annotations": {"readOnlyHint": true, "title": "Look up"}},
    ]})
}

/// Annotations as a server sends them: the hints in the manifest's spelling, `annotations.title`
/// written only where it is not the tool's `title` (toolc lists that there too), any other key
/// as sent; and toolc lists them as the server did. (`toolc check` takes `annotations.title` and
/// keys of the server's own once the manifest's annotations do: MANIFEST-DECISIONS.md, 1.)
#[test]
fn annotations_are_written_as_sent() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tools.json");
    let list = json!({"tools": [
        {"name": "same", "title": "Same", "description": "A title in both places.",
         "inputSchema": {"type": "object"}, "annotations": {"title": "Same", "readOnlyHint": true}},
        {"name": "differ", "title": "Differ", "description": "Two titles.",
         "inputSchema": {"type": "object"}, "annotations": {"title": "Other", "openWorldHint": false}},
        {"name": "only_annotation", "description": "A title in annotations alone.",
         "inputSchema": {"type": "object"}, "annotations": {"title": "Only", "category": "words", "rank": [1, 2]}},
    ]});
    std::fs::write(&file, list.to_string()).unwrap();
    let out = dir.path().join("out");
    let run = toolc(&[
        "import",
        "tools-list",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let manifest = std::fs::read_to_string(out.join("tools.yaml")).unwrap();
    for written in [
        "      same:\n        title: Same\n        description: A title in both places.\n        parameters: {type: object}\n        annotations: {read_only: true}\n",
        "        annotations: {title: Other, open_world: false}\n",
        "      only_annotation:\n        description: A title in annotations alone.\n        parameters: {type: object}\n        annotations:\n          title: Only\n          category: words\n          rank: [1, 2]\n",
    ] {
        assert!(manifest.contains(written), "{written}\nnot in\n{manifest}");
    }
    assert_checks(&out);
    let mine = dumped(&out, "out");
    let theirs = list["tools"].as_array().unwrap();
    // `same` is listed with its title in both places, as the server did.
    assert_eq!(&mine[..], &theirs[..]);
}

/// OpenAPI 3.0's `example` in a server's schemas (FastMCP's OpenAPI tools copy it; toolc would
/// refuse it as an unknown keyword) is written as `examples: [v]` in its place, and left out
/// beside an `examples` of the schema's own, in `inputSchema` and `outputSchema` alike; a
/// property named `example`, and `example` inside a value, are data and stay. A value the schema
/// then refuses (an example of the wrong type, or a `default`) is left out; each change is a
/// note, and the manifest checks.
#[test]
fn example_is_written_as_examples_and_refused_values_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tools.json");
    let list = json!({"tools": [
        {"name": "page", "description": "Pages someone.",
         "inputSchema": {"type": "object", "properties": {
             "level": {"type": "integer", "minimum": 1, "description": "The level.", "example": 1},
             "phones": {"type": "array", "items": {"type": "string", "example": ["14150001111"]}},
             "mode": {"type": "string", "example": "sms", "examples": ["voice"]},
             "example": {"type": "object", "properties": {"example": {"type": "string"}},
                         "default": {"example": "x"}},
             "min_bytes": {"type": ["integer", "null"], "default": "1"}}},
         "outputSchema": {"type": "object", "properties": {
             "id": {"anyOf": [{"type": "string", "example": "P1"}, {"type": "null"}]}}}},
    ]});
    std::fs::write(&file, list.to_string()).unwrap();
    let out = dir.path().join("out");
    let (code, report) = import_json(&[
        "tools-list",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--name",
        "pager",
    ]);
    assert_eq!(code, Some(0), "{report:#}");
    let notes = messages(&report, "import-change");
    let expected = [
        "tool `page`: `inputSchema/properties/level/example`: written as `examples: [...]`",
        "tool `page`: `inputSchema/properties/phones/items/example`: written as `examples: [...]`",
        "tool `page`: `inputSchema/properties/mode/example`: left out: OpenAPI 3.0's `example` is not a JSON Schema keyword, and the schema has `examples` too",
        "tool `page`: `outputSchema/properties/id/anyOf/0/example`: written as `examples: [...]`",
        "tool `page`: `parameters/properties/phones/items/examples`: left out, since toolc would refuse it: example 1 of `examples`",
        "tool `page`: `parameters/properties/min_bytes/default`: left out, since toolc would refuse it: the default `\"1\"` does not match its schema",
    ];
    for note in expected {
        assert!(
            notes.iter().any(|n| n.starts_with(note)),
            "no note `{note}…` in {notes:#?}"
        );
    }
    assert_eq!(notes.len(), expected.len(), "{notes:#?}");
    assert_checks(&out);
    let listed = &dumped(&out, "out")[0];
    let params = &listed["inputSchema"]["properties"];
    assert_eq!(params["level"]["examples"], json!([1]));
    assert_eq!(params["level"].get("example"), None);
    // In its place: after `description`, as the server had it.
    let keys: Vec<&String> = params["level"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["type", "minimum", "description", "examples", "maximum"]
    );
    assert_eq!(params["phones"]["items"], json!({"type": "string"}));
    assert_eq!(params["mode"]["examples"], json!(["voice"]));
    assert_eq!(params["mode"].get("example"), None);
    assert_eq!(
        params["example"],
        json!({"type": "object", "properties": {"example": {"type": "string"}},
               "default": {"example": "x"}})
    );
    assert_eq!(params["min_bytes"].get("default"), None);
    assert_eq!(
        listed["outputSchema"]["properties"]["id"]["anyOf"][0],
        json!({"type": "string", "examples": ["P1"]})
    );
}

/// The three shapes a saved result may have give the same manifest, and stdin is read for `-`.
#[test]
fn tools_list_shapes_give_one_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let shapes = [
        tool_list(),
        tool_list()["tools"].clone(),
        json!({"jsonrpc": "2.0", "id": 2, "result": tool_list()}),
    ];
    let mut manifests = Vec::new();
    for (i, shape) in shapes.iter().enumerate() {
        let file = dir.path().join(format!("list{i}.json"));
        std::fs::write(&file, shape.to_string()).unwrap();
        let out = dir.path().join(format!("out{i}"));
        let run = toolc(&[
            "import",
            "tools-list",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--name",
            "words",
        ]);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let manifest = std::fs::read_to_string(out.join("words.yaml")).unwrap();
        // The header names the file; the rest is the same.
        manifests.push(manifest.split_once('\n').unwrap().1.to_string());
    }
    assert!(manifests.windows(2).all(|w| w[0] == w[1]), "{manifests:#?}");
    let stdin_out = dir.path().join("stdin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(["--format", "plain", "import", "tools-list", "-", "--out"])
        .arg(&stdin_out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(tool_list().to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("from stdin"),
        "{}",
        text(&out.stdout)
    );
    // No name given and none in the source: the toolbox is `tools`.
    let manifest = std::fs::read_to_string(stdin_out.join("tools.yaml")).unwrap();
    assert!(manifest.starts_with("# Generated by toolc import from the tools/list result stdin."));
    assert_eq!(
        manifest.split_once('\n').unwrap().1,
        manifests[0].replace("words", "tools")
    );
}

/// `--check` writes nothing and exits 1 naming what differs; a file toolc import did not write
/// is never written over without `--force`; `toolc.toml` is removed once no longer needed.
#[test]
fn files_are_checked_refused_forced_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tools.json");
    let out = dir.path().join("out");
    let list = tool_list();
    std::fs::write(&file, list.to_string()).unwrap();
    let import = |extra: &[&str]| {
        let mut args = vec![
            "import",
            "tools-list",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        toolc(&args)
    };
    // Nothing there yet: --check names both files and writes nothing.
    let run = import(&["--check"]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains("tools.yaml (missing)") && stderr.contains("toolc.toml (missing)"),
        "{stderr}"
    );
    assert!(!out.exists());
    assert!(import(&[]).status.success());
    assert!(import(&["--check"]).status.success());
    // A file someone edited: --check names it, the import refuses it, --force replaces it.
    let manifest = out.join("tools.yaml");
    let written = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, written.replacen("# Generated", "# Edited", 1)).unwrap();
    assert_eq!(import(&["--check"]).status.code(), Some(1));
    let run = import(&[]);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(
        text(&run.stderr).contains("exists and was not written by toolc import"),
        "{}",
        text(&run.stderr)
    );
    assert!(
        std::fs::read_to_string(&manifest)
            .unwrap()
            .starts_with("# Edited")
    );
    assert!(import(&["--force"]).status.success());
    assert_eq!(std::fs::read_to_string(&manifest).unwrap(), written);
    // A source whose schemas have `x-` keys keeps them listed; toolc.toml says so, and goes back
    // to linting alone when they are gone.
    let mut with_x = list.clone();
    with_x["tools"][0]["inputSchema"]["x-origin"] = json!("test");
    std::fs::write(&file, with_x.to_string()).unwrap();
    assert!(import(&[]).status.success());
    let config = std::fs::read_to_string(out.join("toolc.toml")).unwrap();
    assert!(config.contains("[emit]\nextensions = true"), "{config}");
    std::fs::write(&file, list.to_string()).unwrap();
    assert!(import(&["--dialect", "mcp,openai"]).status.success());
    let config = std::fs::read_to_string(out.join("toolc.toml")).unwrap();
    assert!(
        config.ends_with("[lint]\ndialects = [\"mcp\", \"openai\"]\n"),
        "{config}"
    );
    assert_checks(&out);
    // toolc's own default dialects need no toolc.toml: the one written before is removed.
    let run = import(&["--dialect", "mcp,anthropic,gemini,openai-strict"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(
        text(&run.stdout).contains("removed 1"),
        "{}",
        text(&run.stdout)
    );
    assert!(!out.join("toolc.toml").exists());
    assert_checks(&out);
}

/// Names and dialects that cannot be used are usage errors.
#[test]
fn bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tools.json");
    std::fs::write(&file, tool_list().to_string()).unwrap();
    for (flag, value, says) in [
        ("--name", "Bad Name", "--name: name `Bad Name`"),
        (
            "--dialect",
            "opanai",
            "--dialect: `opanai` is not a dialect",
        ),
    ] {
        let run = toolc(&["import", "tools-list", file.to_str().unwrap(), flag, value]);
        assert_eq!(run.status.code(), Some(2));
        assert!(text(&run.stderr).contains(says), "{}", text(&run.stderr));
    }
    let run = toolc(&["import", "mcp", "--timeout", "0"]);
    assert_eq!(run.status.code(), Some(2));
    let run = toolc(&["import", "mcp"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("needs a server"),
        "{}",
        text(&run.stderr)
    );
}

/// Input that cannot be imported: each is reported with its code and exit status, never a
/// panic.
#[test]
fn bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, content: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_string()
    };
    let missing = dir.path().join("missing.json");
    let cases: Vec<(Vec<String>, i32, &str, &str)> = vec![
        (
            vec!["tools-list".into(), missing.to_str().unwrap().into()],
            2,
            "io",
            "cannot read",
        ),
        (
            vec!["openapi".into(), missing.to_str().unwrap().into()],
            2,
            "io",
            "cannot read",
        ),
        (
            vec!["tools-list".into(), write("a.json", "{\"tools\": [")],
            1,
            "import-source",
            "is not JSON",
        ),
        (
            vec!["tools-list".into(), write("b.json", "{\"tool\": []}")],
            1,
            "import-source",
            "this is not a tools/list result",
        ),
        (
            vec!["tools-list".into(), write("c.json", "[{\"name\": 3}]")],
            1,
            "import-source",
            "tools[0] has no `name` string",
        ),
        (
            vec![
                "tools-list".into(),
                write(
                    "d.json",
                    "[{\"name\": \"a\", \"inputSchema\": {}}, {\"name\": \"a\", \"inputSchema\": {}}]",
                ),
            ],
            1,
            "import-source",
            "the tool `a` is listed twice",
        ),
        (
            vec![
                "tools-list".into(),
                write(
                    "e.json",
                    "{\"jsonrpc\": \"2.0\", \"id\": 1, \"error\": {\"code\": -1}}",
                ),
            ],
            1,
            "import-source",
            "this is a JSON-RPC error",
        ),
        (
            vec!["openapi".into(), write("f.yaml", "name: not an api\n")],
            1,
            "import-source",
            "this is not an OpenAPI document",
        ),
        (
            vec![
                "openapi".into(),
                write("g.yaml", "swagger: '2.0'\npaths: {}\n"),
            ],
            1,
            "import-source",
            "Swagger 2.0",
        ),
        (
            vec![
                "openapi".into(),
                write(
                    "h.yaml",
                    "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: x\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Nope'}\n",
                ),
            ],
            1,
            "import-source",
            "points at nothing in the document",
        ),
        (
            vec![
                "openapi".into(),
                write(
                    "i.yaml",
                    "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters: [{$ref: 'common.yaml#/p'}]\n",
                ),
            ],
            1,
            "import-source",
            "points into another document",
        ),
        (
            vec![
                "openapi".into(),
                write("j.yaml", "openapi: 3.0.0\npaths: {}\n"),
            ],
            1,
            "import-source",
            "no operations",
        ),
        (
            vec!["openapi".into(), write("k.yaml", "openapi: [3\n")],
            1,
            "import-source",
            "neither JSON nor YAML",
        ),
        (
            vec!["openapi".into(), write("l.json", "\u{0}\u{1}binary")],
            1,
            "import-source",
            "",
        ),
    ];
    for (args, code, diag, says) in cases {
        let out = dir.path().join("out");
        let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
        all.extend(["--out", out.to_str().unwrap()]);
        let (status, report) = import_json(&all);
        assert_eq!(status, Some(code), "{args:?}: {report:#}");
        let found = messages(&report, diag);
        assert!(
            found.iter().any(|m| m.contains(says)),
            "{args:?}: no {diag} saying {says:?}: {report:#}"
        );
        assert!(!out.exists(), "{args:?}: nothing is written");
    }
}

// ------------------------------------------------------------ MCP servers

/// The example crate's MCP server: `$TOOLC_MCP_SERVER`, else beside the `toolc` binary, built
/// there when missing.
fn example_server() -> &'static Path {
    static SERVER: OnceLock<PathBuf> = OnceLock::new();
    SERVER.get_or_init(|| {
        if let Some(path) = std::env::var_os("TOOLC_MCP_SERVER") {
            return PathBuf::from(path);
        }
        let beside = Path::new(env!("CARGO_BIN_EXE_toolc")).with_file_name("mcp-server");
        if !beside.is_file() {
            let target = beside.parent().and_then(Path::parent).unwrap();
            let built = Command::new(env!("CARGO"))
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    "toolc-example",
                    "--bin",
                    "mcp-server",
                ])
                .env("CARGO_TARGET_DIR", target)
                .current_dir(repo())
                .status()
                .expect("cargo runs");
            assert!(built.success(), "cannot build the example mcp-server");
        }
        beside
    })
}

/// Imports the example server's agents over stdio, saving their lists, and checks that what
/// toolc lists from the manifest is what the server listed, tool for tool.
#[test]
fn mcp_over_stdio_lists_the_example_server_as_it_lists_itself() {
    let server = example_server();
    for agent in ["support-desk", "assistant"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let saved = dir.path().join("tools.json");
        let run = toolc(&[
            "import",
            "mcp",
            "--out",
            out.to_str().unwrap(),
            "--save-list",
            saved.to_str().unwrap(),
            "--",
            server.to_str().unwrap(),
            agent,
        ]);
        assert!(run.status.success(), "{agent}: {}", text(&run.stderr));
        // The toolbox is named after the server's serverInfo.name.
        let manifest = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "yaml"))
            .expect("a manifest");
        let header = std::fs::read_to_string(&manifest).unwrap();
        assert!(
            header.starts_with("# Generated by toolc import from the MCP server "),
            "{header}"
        );
        assert_checks(&out);
        let listed = read_json(&saved);
        let mine = dumped(&out, "out");
        assert_eq!(listed["tools"].as_array().unwrap().len(), mine.len());
        for (server_tool, ours) in listed["tools"].as_array().unwrap().iter().zip(&mine) {
            // The server's list is toolc's own, so nothing is normalized away: the same bytes.
            assert_eq!(
                ours, server_tool,
                "{agent}: the tool as toolc lists it and as the server did"
            );
        }
    }
}

/// The same server over streamable HTTP gives the same list.
#[test]
fn mcp_over_http_lists_what_stdio_lists() {
    let server = example_server();
    let mut child = Command::new(server)
        .args(["support-desk", "--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let over_http = dir.path().join("http.json");
    let run = toolc(&[
        "import",
        "mcp",
        "--url",
        &url,
        "--out",
        dir.path().join("http").to_str().unwrap(),
        "--save-list",
        over_http.to_str().unwrap(),
    ]);
    let _ = child.kill();
    let _ = child.wait();
    assert!(run.status.success(), "{}", text(&run.stderr));
    let over_stdio = dir.path().join("stdio.json");
    let run = toolc(&[
        "import",
        "mcp",
        "--out",
        dir.path().join("stdio").to_str().unwrap(),
        "--save-list",
        over_stdio.to_str().unwrap(),
        "--",
        server.to_str().unwrap(),
        "support-desk",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(
        std::fs::read_to_string(&over_http).unwrap(),
        std::fs::read_to_string(&over_stdio).unwrap()
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("http/support-desk.yaml"))
            .unwrap()
            .split_once('\n')
            .unwrap()
            .1,
        std::fs::read_to_string(dir.path().join("stdio/support-desk.yaml"))
            .unwrap()
            .split_once('\n')
            .unwrap()
            .1,
    );
}

fn fake(name: &str) -> String {
    data()
        .join("servers")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// A server that pages its tools, sends a notification and asks a ping: every page is listed
/// in order, the ping answered, the list saved as sent.
#[test]
fn mcp_follows_next_cursor_and_answers_ping() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let saved = dir.path().join("tools.json");
    let script = fake("paged.sh");
    let (code, report) = import_json(&[
        "mcp",
        "--out",
        out.to_str().unwrap(),
        "--save-list",
        saved.to_str().unwrap(),
        "--timeout",
        "10",
        "--",
        "sh",
        &script,
    ]);
    assert_eq!(code, Some(0), "{report:#}");
    let listed = read_json(&saved);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["first_page", "second_page"]);
    // Keys in the server's order, as sent.
    let keys: Vec<&String> = listed["tools"][0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["name", "description", "inputSchema", "annotations"]);
    assert_eq!(report["summary"]["tools"], 2);
    let notes = messages(&report, "import-change");
    assert_eq!(
        notes,
        [
            "tool `second_page`: `execution`: left out: the manifest has no key for a tool's `execution` yet, so toolc will not list it"
        ]
    );
    // Named after the server; its `x-` key listed, so toolc.toml keeps extensions.
    let manifest = std::fs::read_to_string(out.join("fake-paged.yaml")).unwrap();
    assert!(
        manifest
            .starts_with("# Generated by toolc import from the MCP server fake-paged 0.1.0 (`sh ")
    );
    assert!(
        std::fs::read_to_string(out.join("toolc.toml"))
            .unwrap()
            .contains("extensions = true")
    );
    assert_checks(&out);
    let mine = dumped(&out, "out");
    assert_eq!(
        mine[0]["inputSchema"]["properties"]["q"]["x-source"],
        "page 1"
    );
}

/// Servers that fail: each failure says what happened, with the server's stderr, and takes no
/// longer than the step's timeout and the grace period of stopping a server.
#[test]
fn mcp_server_failures() {
    let cases = [
        (
            "exits.sh",
            2,
            "io",
            "exit status: 3",
            "cannot read the configuration file",
        ),
        (
            "garbage.sh",
            2,
            "io",
            "before answering `initialize`",
            "Welcome to the fake server",
        ),
        (
            "hangs.sh",
            2,
            "io",
            "did not answer `initialize` within 1 s",
            "thinking about",
        ),
        (
            "not-mcp.sh",
            1,
            "import-source",
            "has no `protocolVersion`",
            "",
        ),
        (
            "refuses-list.sh",
            1,
            "import-source",
            "answered `tools/list` with the error -32601 Method not found",
            "",
        ),
        (
            "endless.sh",
            1,
            "import-source",
            "gave the cursor `again` twice",
            "",
        ),
    ];
    for (script, code, diag, says, help_says) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let started = Instant::now();
        let (status, report) = import_json(&[
            "mcp",
            "--out",
            out.to_str().unwrap(),
            "--timeout",
            "1",
            "--",
            "sh",
            &fake(script),
        ]);
        let took = started.elapsed();
        assert_eq!(status, Some(code), "{script}: {report:#}");
        let d = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == diag)
            .unwrap_or_else(|| panic!("{script}: no {diag}: {report:#}"));
        let message = d["message"].as_str().unwrap();
        assert!(message.contains(says), "{script}: {message}");
        let help = d["help"].as_str().unwrap_or_default();
        assert!(help.contains(help_says), "{script}: {help}");
        // 1 s for the step, 3 s for the server to stop once its stdin is closed, and slack.
        assert!(took < Duration::from_secs(10), "{script}: took {took:?}");
        assert!(!out.exists(), "{script}: nothing is written");
    }
    // A command that does not exist.
    let (status, report) = import_json(&["mcp", "--", "/no/such/server"]);
    assert_eq!(status, Some(2));
    assert!(messages(&report, "io")[0].contains("cannot start `/no/such/server`"));
}

/// URLs that are not loopback HTTP are refused, saying why; a port where nothing listens is an
/// I/O error.
#[test]
fn mcp_urls_off_this_machine_are_refused() {
    for (url, says) in [
        ("https://127.0.0.1:8443/mcp", "is https"),
        ("http://example.com/mcp", "is not this machine"),
        ("http://10.0.0.5:8080/mcp", "is not this machine"),
        ("ftp://127.0.0.1/mcp", "is not an http:// URL"),
    ] {
        let (status, report) = import_json(&["mcp", "--url", url]);
        assert_eq!(status, Some(2), "{url}");
        let io = &report["diagnostics"][0];
        assert!(
            io["message"].as_str().unwrap().contains(says),
            "{url}: {io}"
        );
        assert!(
            url.starts_with("ftp")
                || io["help"]
                    .as_str()
                    .unwrap()
                    .contains("no TLS and sends no credentials"),
            "{url}: {io}"
        );
    }
    let free = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let (status, report) = import_json(&["mcp", "--url", &format!("http://127.0.0.1:{port}/mcp")]);
    assert_eq!(status, Some(2), "{report:#}");
    assert!(messages(&report, "io")[0].contains("cannot send `initialize`"));
}

/// One request a fake HTTP server received.
#[derive(Debug, Clone)]
struct Received {
    method: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a fake HTTP server answers: the status, the content type, extra headers, the body.
type Answer = (u16, &'static str, Vec<(&'static str, &'static str)>, String);

/// A fake MCP server over HTTP on loopback, answering with `answer(request)`: the status, the
/// content type, extra headers and the body (a body starting with `HANG` is announced longer than
/// it is, so the client waits for the rest). It records every request.
fn fake_http(answer: fn(&Received) -> Answer) -> (String, Arc<Mutex<Vec<Received>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let received = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&received);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut writer = stream;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let method = line.split_whitespace().next().unwrap_or("").to_string();
                    let mut headers = Vec::new();
                    loop {
                        let mut h = String::new();
                        reader.read_line(&mut h).unwrap();
                        let h = h.trim_end();
                        if h.is_empty() {
                            break;
                        }
                        let (n, v) = h.split_once(':').unwrap();
                        headers.push((n.trim().to_string(), v.trim().to_string()));
                    }
                    let length: usize = headers
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
                        .map_or(0, |(_, v)| v.parse().unwrap());
                    let mut body = vec![0; length];
                    reader.read_exact(&mut body).unwrap();
                    let request = Received {
                        method,
                        headers,
                        body: String::from_utf8(body).unwrap(),
                    };
                    let (status, content_type, extra, body) = answer(&request);
                    log.lock().unwrap().push(request);
                    let declared = body.len() + if body.starts_with("HANG") { 100 } else { 0 };
                    let mut response = format!(
                        "HTTP/1.1 {status} X\r\ncontent-type: {content_type}\r\ncontent-length: {declared}\r\n"
                    );
                    for (n, v) in extra {
                        response.push_str(&format!("{n}: {v}\r\n"));
                    }
                    response.push_str("\r\n");
                    response.push_str(&body);
                    if writer.write_all(response.as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (url, received)
}

/// Over HTTP, the session the server names is carried on every later request with the protocol
/// version, an answer may be a JSON body or an event stream, and the session ends with a DELETE.
#[test]
fn mcp_over_http_carries_the_session_and_ends_it() {
    fn answer(r: &Received) -> Answer {
        if r.method == "DELETE" {
            return (200, "text/plain", vec![], String::new());
        }
        let request: Value = serde_json::from_str(&r.body).unwrap();
        match request["method"].as_str().unwrap() {
            "initialize" => (
                200,
                "application/json",
                vec![("Mcp-Session-Id", "session-7")],
                json!({"jsonrpc": "2.0", "id": request["id"], "result": {
                    "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                    "serverInfo": {"name": "fake-http", "version": "2"}}})
                .to_string(),
            ),
            "notifications/initialized" => (202, "text/plain", vec![], String::new()),
            _ => (
                200,
                "text/event-stream",
                vec![],
                format!(
                    ": a comment\nevent: message\ndata: {}\n\nid: 2\ndata: {}\n\n",
                    json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}),
                    json!({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": [
                        {"name": "over_http", "description": "Listed in an event.",
                         "inputSchema": {"type": "object"}}]}})
                ),
            ),
        }
    }
    let (url, received) = fake_http(answer);
    let dir = tempfile::tempdir().unwrap();
    let (code, report) =
        import_json(&["mcp", "--url", &url, "--out", dir.path().to_str().unwrap()]);
    assert_eq!(code, Some(0), "{report:#}");
    assert!(dir.path().join("fake-http.yaml").is_file());
    // The DELETE may still be on its way when the command has returned.
    let deadline = Instant::now() + Duration::from_secs(5);
    while received.lock().unwrap().len() < 4 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let received = received.lock().unwrap().clone();
    let seen: Vec<(&str, Option<&str>, Option<&str>)> = received
        .iter()
        .map(|r| {
            (
                r.method.as_str(),
                r.header("mcp-session-id"),
                r.header("mcp-protocol-version"),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("POST", None, None),
            ("POST", Some("session-7"), Some("2025-06-18")),
            ("POST", Some("session-7"), Some("2025-06-18")),
            ("DELETE", Some("session-7"), Some("2025-06-18")),
        ]
    );
    for r in &received[..3] {
        assert_eq!(
            r.header("accept"),
            Some("application/json, text/event-stream")
        );
        assert_eq!(r.header("content-type"), Some("application/json"));
    }
}

/// HTTP answers that are not MCP's: a refusal for want of credentials, a page that is not JSON.
#[test]
fn mcp_over_http_failures() {
    fn unauthorized(_: &Received) -> Answer {
        (
            401,
            "text/plain",
            vec![("WWW-Authenticate", "Bearer")],
            "no token".into(),
        )
    }
    fn html(_: &Received) -> Answer {
        (200, "text/html", vec![], "<html>hello</html>".into())
    }
    let (url, _) = fake_http(unauthorized);
    let (code, report) = import_json(&["mcp", "--url", &url]);
    assert_eq!(code, Some(2));
    let d = &report["diagnostics"][0];
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("HTTP 401 Unauthorized: no token"),
        "{d}"
    );
    assert!(d["help"].as_str().unwrap().contains("credentials"), "{d}");
    let (url, _) = fake_http(html);
    let (code, report) = import_json(&["mcp", "--url", &url]);
    assert_eq!(code, Some(1));
    assert!(
        messages(&report, "import-source")[0].contains("`text/html`"),
        "{report:#}"
    );
    // An answer that never ends, as JSON and as events: the step's timeout.
    fn slow_json(_: &Received) -> Answer {
        (200, "application/json", vec![], "HANG {".into())
    }
    fn slow_events(_: &Received) -> Answer {
        (200, "text/event-stream", vec![], "HANG: a comment\n".into())
    }
    for answer in [slow_json as fn(&Received) -> Answer, slow_events] {
        let (url, _) = fake_http(answer);
        let started = Instant::now();
        let (code, report) = import_json(&["mcp", "--url", &url, "--timeout", "1"]);
        assert_eq!(code, Some(2), "{report:#}");
        assert!(
            messages(&report, "io")[0].contains("did not answer `initialize` within 1 s"),
            "{report:#}"
        );
        assert!(started.elapsed() < Duration::from_secs(8));
    }
}
