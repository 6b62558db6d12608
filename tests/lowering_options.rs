//! The `toolc.toml` keys that choose a provider's form or allow a lowering with a loss
//! (`[lint] gemini_form`, `[lower] close_objects`, `[lower] describe_unsupported`): each changes
//! what `toolc dump` lists, and without it the construct stays the lint error it was.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn toolc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A manifest folder with one tool taking `properties` (YAML flow mappings, one a line), and
/// `toolc.toml` when `config` is not empty.
fn fixture(properties: &[&str], config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let props: String = properties
        .iter()
        .map(|p| format!("            {p}\n"))
        .collect();
    let manifest = format!(
        "version: 1\ntoolboxes:\n  t:\n    description: T\n    tools:\n      fetch:\n        description: Fetch a page.\n        parameters:\n          type: object\n          properties:\n{props}capabilities:\n  t:\n    description: T\n    toolbox: t\n"
    );
    std::fs::write(dir.path().join("tools.yaml"), manifest).unwrap();
    if !config.is_empty() {
        std::fs::write(dir.path().join("toolc.toml"), config).unwrap();
    }
    dir
}

/// `toolc dump` of the fixture's agent in `dialect`: the list, or the exit code and stderr.
fn dump(dir: &Path, dialect: &str) -> Result<Value, (Option<i32>, String)> {
    let out = toolc(&[
        "dump",
        dir.to_str().unwrap(),
        "--dialect",
        dialect,
        "--format",
        "plain",
    ]);
    if out.status.success() {
        Ok(serde_json::from_slice(&out.stdout).expect("dump prints JSON"))
    } else {
        Err((out.status.code(), text(&out.stderr)))
    }
}

const ANY_VALUE: &str = "payload: { description: Any JSON value. }";
const OPEN_OBJECT: &str = "headers: { type: object, properties: { accept: { type: string } }, additionalProperties: { type: string } }";
const URI: &str = "url: { type: string, format: uri, description: The page. }";
const UNIQUE: &str = "tags: { type: array, items: { type: string }, uniqueItems: true }";

#[test]
fn gemini_form_lists_the_gemini_dialect_as_json_schema() {
    let plain = fixture(&[ANY_VALUE, OPEN_OBJECT], "");
    let (code, err) = dump(plain.path(), "gemini").unwrap_err();
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("error[gemini-type-missing]"), "{err}");
    assert!(err.contains("gemini_form"), "the help names the key: {err}");

    let json = fixture(
        &[ANY_VALUE, OPEN_OBJECT],
        "[lint]\ngemini_form = \"parametersJsonSchema\"\n",
    );
    let list = dump(json.path(), "gemini").unwrap_or_else(|e| panic!("{e:?}"));
    let decl = &list["functionDeclarations"][0];
    assert!(decl.get("parameters").is_none(), "{decl:#}");
    let schema = &decl["parametersJsonSchema"];
    assert_eq!(
        schema["properties"]["payload"],
        serde_json::json!({"description": "Any JSON value."})
    );
    assert_eq!(
        schema["properties"]["headers"]["additionalProperties"],
        serde_json::json!({"type": "string"})
    );

    // `toolc lint` of the default dialects says `gemini-jsonschema` where it said `gemini`.
    let out = toolc(&["lint", json.path().to_str().unwrap(), "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let dialects = report["summary"]["dialects"].to_string();
    assert!(dialects.contains("gemini-jsonschema"), "{report:#}");
    assert!(!dialects.contains("\"gemini\""), "{report:#}");

    // A value that is neither form is refused with a did-you-mean.
    let bad = fixture(
        &[ANY_VALUE],
        "[lint]\ngemini_form = \"parametersJSONSchema\"\n",
    );
    let (code, err) = dump(bad.path(), "gemini").unwrap_err();
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("did you mean `parametersJsonSchema`?"),
        "{err}"
    );
}

#[test]
fn close_objects_lists_an_object_with_other_keys_closed() {
    let plain = fixture(&[OPEN_OBJECT], "");
    for dialect in ["openai-strict", "gemini"] {
        let (code, err) = dump(plain.path(), dialect).unwrap_err();
        assert_eq!(code, Some(1), "{dialect}: {err}");
        assert!(err.contains("close_objects"), "{dialect}: {err}");
    }
    let anthropic = dump(plain.path(), "anthropic").unwrap();
    assert_eq!(
        anthropic[0]["input_schema"]["properties"]["headers"]["additionalProperties"],
        serde_json::json!({"type": "string"}),
        "dialects that take open objects keep them"
    );

    let closed = fixture(&[OPEN_OBJECT], "[lower]\nclose_objects = true\n");
    let strict = dump(closed.path(), "openai-strict").unwrap_or_else(|e| panic!("{e:?}"));
    let headers = &strict[0]["function"]["parameters"]["properties"]["headers"];
    assert_eq!(
        headers["additionalProperties"],
        Value::Bool(false),
        "{headers:#}"
    );
    let gemini = dump(closed.path(), "gemini").unwrap_or_else(|e| panic!("{e:?}"));
    let headers = &gemini["functionDeclarations"][0]["parameters"]["properties"]["headers"];
    assert!(headers.get("additionalProperties").is_none(), "{headers:#}");
    assert_eq!(headers["properties"]["accept"]["type"], "string");
    // MCP lists the manifest's schema, whatever the lowering options.
    let mcp = dump(closed.path(), "mcp").unwrap();
    assert_eq!(
        mcp["tools"][0]["inputSchema"]["properties"]["headers"]["additionalProperties"],
        serde_json::json!({"type": "string"})
    );
}

#[test]
fn describe_unsupported_says_what_the_dialect_cannot() {
    let plain = fixture(&[URI, UNIQUE], "");
    let (code, err) = dump(plain.path(), "openai-strict").unwrap_err();
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("error[strict-format]"), "{err}");
    assert!(err.contains("error[strict-unsupported-keyword]"), "{err}");
    assert!(err.contains("describe_unsupported"), "{err}");

    let described = fixture(&[URI, UNIQUE], "[lower]\ndescribe_unsupported = true\n");
    let strict = dump(described.path(), "openai-strict").unwrap_or_else(|e| panic!("{e:?}"));
    let props = &strict[0]["function"]["parameters"]["properties"];
    assert!(props["url"].get("format").is_none(), "{props:#}");
    assert_eq!(
        props["url"]["description"],
        "The page. Must also hold: `format: \"uri\"`."
    );
    assert!(props["tags"].get("uniqueItems").is_none(), "{props:#}");
    assert_eq!(
        props["tags"]["description"],
        "Must also hold: `uniqueItems: true`."
    );
    // Anthropic's non-strict form states both: nothing moves there.
    let anthropic = dump(described.path(), "anthropic").unwrap();
    let props = &anthropic[0]["input_schema"]["properties"];
    assert_eq!(props["url"]["format"], "uri");
    assert_eq!(props["tags"]["uniqueItems"], true);
}

#[test]
fn a_format_toolc_does_not_check_is_said_in_the_description_without_a_key() {
    // `format: json` is an annotation (toolc validates date, date-time, time, uuid, email, uri,
    // ipv4, ipv6 and hostname), so strict forms say it in the description: nothing is lost.
    let dir = fixture(&["query: { type: string, format: json }"], "");
    let strict = dump(dir.path(), "openai-strict").unwrap_or_else(|e| panic!("{e:?}"));
    let query = &strict[0]["function"]["parameters"]["properties"]["query"];
    assert!(query.get("format").is_none(), "{query:#}");
    assert_eq!(query["description"], "Format: json.");
    let mcp = dump(dir.path(), "mcp").unwrap();
    assert_eq!(
        mcp["tools"][0]["inputSchema"]["properties"]["query"]["format"],
        "json"
    );
}
