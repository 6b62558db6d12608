//! The example server's plugin tools (`toolc_example::plugins`, `mcp-server --plugins FILE`):
//! the file read, and an agent made to serve what it says (registered, replaced, removed).

use std::path::PathBuf;

use serde_json::json;
use toolc_example::plugins::{self, Plugins};
use toolc_runtime::{AgentError, CallContext, ErrorKind};

/// A plugins file holding `text`, in a folder of the test's own.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("plugins");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_plugins_file_that_does_not_read_says_what_and_where() {
    for (text, expected) in [
        ("[{", "it is not JSON"),
        (r#"{"name": "x"}"#, "not a JSON array of tools"),
        ("[1]", "entry 0 is not an object"),
        (
            r#"[{"description": "d", "answer": 1}]"#,
            "entry 0 has no `name`",
        ),
        (
            r#"[{"name": 5, "description": "d", "answer": 1}]"#,
            "entry 0: `name` is not a string",
        ),
        (
            r#"[{"name": "a", "description": "d"}]"#,
            "entry 0 has no `answer`",
        ),
        (
            r#"[{"name": "a", "description": "d", "answer": 1}, {"name": "a", "description": "e", "answer": 2}]"#,
            "entry 1: a tool named 'a' comes twice",
        ),
        (
            r#"[{"name": "a", "description": "d", "answer": 1, "handler": "x"}]"#,
            "entry 0: unknown key `handler`",
        ),
    ] {
        let e = plugins::read(&file("bad.json", text)).expect_err(text);
        assert!(e.contains(expected), "{text}: {e}");
    }
    let e = plugins::read(&file("gone.json", "").with_extension("missing")).unwrap_err();
    assert!(e.starts_with("cannot read it"), "{e}");
}

#[tokio::test]
async fn an_agent_serves_what_the_file_says_now() {
    let mut agent = toolc_example::support_desk();
    let own = agent.tools().len();
    let mut loaded = Plugins::default();
    let ctx = CallContext::new("c");
    let names = |agent: &toolc_runtime::Agent| -> Vec<&str> {
        agent.tools()[own..].iter().map(|d| d.name).collect()
    };

    let first = file(
        "first.json",
        r#"[{"name": "shipping_status", "description": "Whether parcels ship today.", "answer": {"shipping": true}},
            {"name": "faq", "description": "Answers questions.", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}, "answer": "Ask us."}]"#,
    );
    let served = loaded
        .apply(&mut agent, plugins::read(&first).unwrap())
        .unwrap();
    loaded.keep(served);
    assert_eq!(names(&agent), ["faq", "shipping_status"]);
    assert_eq!(
        agent.call("shipping_status", "{}", &ctx).await.unwrap(),
        json!({"shipping": true})
    );
    let refused = agent.call("faq", r#"{"q": 1}"#, &ctx).await.unwrap_err();
    assert_eq!(
        refused.kind(),
        ErrorKind::ArgumentsInvalid,
        "its schema holds"
    );

    let second = file(
        "second.json",
        r#"[{"name": "faq", "description": "Answers questions.", "answer": "Write to us."},
            {"name": "opening_hours", "description": "When the desk is open.", "answer": "9-17"}]"#,
    );
    let served = loaded
        .apply(&mut agent, plugins::read(&second).unwrap())
        .unwrap();
    loaded.keep(served);
    assert_eq!(names(&agent), ["faq", "opening_hours"]);
    assert_eq!(
        agent.call("faq", "{}", &ctx).await.unwrap(),
        json!("Write to us.")
    );
    let gone = agent.call("shipping_status", "{}", &ctx).await.unwrap_err();
    assert_eq!(gone.kind(), ErrorKind::UnknownTool);
    assert_eq!(loaded.names().collect::<Vec<_>>(), ["faq", "opening_hours"]);

    // A plugin cannot take a generated tool's name.
    let clash = file(
        "clash.json",
        r#"[{"name": "lookup_order", "description": "Shadows.", "answer": null}]"#,
    );
    let mut copy = agent.clone();
    let e = loaded
        .apply(&mut copy, plugins::read(&clash).unwrap())
        .unwrap_err();
    assert!(matches!(e, AgentError::NameTaken { .. }), "{e}");
}
