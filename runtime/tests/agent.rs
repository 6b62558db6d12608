//! Agents: tools then plays in capability order, dispatch by name, envelopes, manuals.

mod common;

use std::sync::Arc;

use common::{DemoToolbox, PLAYS, Recipes, TOOLS};
use serde_json::json;
use toolc_runtime::{Agent, CallContext, Capability, ErrorKind, Playbook, Toolbox};

fn agent() -> Agent {
    let demo: Arc<dyn Toolbox> = Arc::new(DemoToolbox::new());
    let recipes: Arc<dyn Playbook> = Arc::new(Recipes);
    Agent::new(
        "helper",
        "helps",
        vec![
            Capability {
                name: "cooking",
                description: "recipes",
                manual: Some("Use slug for titles.\n"),
                toolbox: None,
                playbook: Some(recipes),
            },
            Capability {
                name: "demo",
                description: "demo tools",
                manual: Some("Greet people with greet."),
                toolbox: Some(Arc::clone(&demo)),
                playbook: None,
            },
            // The same toolbox shared by a second capability is listed once.
            Capability {
                name: "demo-again",
                description: "the same tools",
                manual: None,
                toolbox: Some(demo),
                playbook: None,
            },
        ],
    )
}

#[test]
fn tools_come_before_plays_each_name_once() {
    let a = agent();
    let names: Vec<&str> = a.tools().iter().map(|d| d.name).collect();
    let expected: Vec<&str> = TOOLS.iter().chain(PLAYS.iter()).map(|d| d.name).collect();
    assert_eq!(names, expected);
    assert_eq!(a.descriptor("slug").map(|d| d.name), Some("slug"));
    assert_eq!(a.name(), "helper");
    assert_eq!(a.description(), "helps");
}

#[test]
fn instructions_join_the_manuals() {
    assert_eq!(
        agent().instructions(),
        "Use slug for titles.\n\nGreet people with greet."
    );
}

#[tokio::test]
async fn calls_dispatch_by_name() {
    let a = agent();
    let ctx = CallContext::new("c");
    assert_eq!(
        a.call("greet", r#"{"name":"Ada"}"#, &ctx).await.unwrap(),
        json!({ "greeting": "hello Ada" })
    );
    // Plays answer Ok, with their value or their envelope.
    assert_eq!(
        a.call("slug", r#"{"title":"A B"}"#, &ctx).await.unwrap(),
        json!({ "slug": "a-b" })
    );
    let envelope = a.call("slug", "{}", &ctx).await.unwrap();
    assert_eq!(envelope["kind"], json!("arguments_invalid"));
    let e = a.call("nope", "{}", &ctx).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownTool);
    assert_eq!(e.message(), "unknown tool 'nope'");

    let r = a.call_result("greet", "[]", &ctx).await;
    assert!(!r.ok);
    assert_eq!(r.cause.unwrap().kind, "arguments_invalid");
    let r = a.call_result("greet", r#"{"name":"Bo"}"#, &ctx).await;
    assert!(r.ok);
    assert_eq!(r.value, Some(json!({ "greeting": "hello Bo" })));
}
