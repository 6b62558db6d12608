//! Agents: tools then plays in capability order, dispatch by name, envelopes, manuals, name
//! collisions, results with metadata, tools registered at run time, approvals, and tool search.

#[path = "agent/approval.rs"]
mod approval;
use crate::common;
#[path = "agent/registered.rs"]
mod registered;
#[path = "agent/search.rs"]
mod search;

use std::sync::Arc;

use common::{DemoToolbox, PLAYS, Recipes, TOOLS};
use serde_json::json;
use toolc_runtime::{
    Agent, AgentError, BoxFuture, CallContext, Capability, CauseKind, ErrorKind, OperationKind,
    Playbook, ToolDescriptor, ToolError, Toolbox,
};

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
    .expect("names are unique")
}

fn capability(
    name: &'static str,
    toolbox: Option<Arc<dyn Toolbox>>,
    playbook: Option<Arc<dyn Playbook>>,
) -> Capability {
    Capability {
        name,
        description: "",
        manual: None,
        toolbox,
        playbook,
    }
}

/// A playbook with one play named like a tool of `DemoToolbox`.
struct Clash;

static CLASH: [ToolDescriptor; 1] = [ToolDescriptor {
    name: "greet",
    kind: OperationKind::Play,
    title: None,
    description: "a play named like a tool",
    input_schema: "{\"type\":\"object\"}",
    output_schema: None,
    parameters: &common::EMPTY_PARAMS,
    returns: None,
    validate_returns: true,
    terminal: false,
    deprecated: false,
    policy: toolc_runtime::Policy::NONE,
    annotations: "{}",
    icons: None,
    meta: None,
}];

impl Playbook for Clash {
    fn name(&self) -> &'static str {
        "clash"
    }

    fn descriptors(&self) -> &'static [ToolDescriptor] {
        &CLASH
    }

    fn call<'a>(
        &'a self,
        play: &'a str,
        _: &'a str,
    ) -> BoxFuture<'a, Result<serde_json::Value, ToolError>> {
        Box::pin(async move { Err(toolc_runtime::unknown_play(play)) })
    }
}

#[test]
fn a_tool_and_a_play_of_one_name_are_refused() {
    let e = Agent::new(
        "a",
        "",
        vec![
            capability("tools", Some(Arc::new(DemoToolbox::new())), None),
            capability("plays", None, Some(Arc::new(Clash))),
        ],
    )
    .expect_err("a collision");
    assert_eq!(
        e.to_string(),
        "play 'greet' of playbook 'clash' (capability 'plays') cannot be added: tool 'greet' of \
         toolbox 'demo' (capability 'tools') already has the name 'greet'; an agent serves each \
         name once, so rename one of them"
    );
    assert!(matches!(e, AgentError::NameTaken { ref name, .. } if name == "greet"));
}

#[test]
fn two_instances_of_one_toolbox_collide_but_one_shared_instance_does_not() {
    let a: Arc<dyn Toolbox> = Arc::new(DemoToolbox::new());
    let b: Arc<dyn Toolbox> = Arc::new(DemoToolbox::new());
    let e = Agent::new(
        "a",
        "",
        vec![
            capability("one", Some(Arc::clone(&a)), None),
            capability("two", Some(b), None),
        ],
    )
    .expect_err("two instances serve the same names");
    assert!(e.to_string().contains("capability 'two'"), "{e}");
    let shared = Agent::new(
        "a",
        "",
        vec![
            capability("one", Some(Arc::clone(&a)), None),
            capability("two", Some(a), None),
        ],
    )
    .expect("one instance, bound twice");
    assert_eq!(shared.tools().len(), TOOLS.len());
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
    let cause = r.cause.unwrap();
    assert_eq!(cause.kind, CauseKind::Validation);
    assert_eq!(cause.code, ErrorKind::ArgumentsInvalid);
    let r = a.call_result("greet", r#"{"name":"Bo"}"#, &ctx).await;
    assert!(r.ok);
    assert_eq!(r.value, Some(json!({ "greeting": "hello Bo" })));
}

#[tokio::test]
async fn a_play_failure_is_not_ok_in_the_result() {
    let a = agent();
    let ctx = CallContext::new("call-7").with_attempt(2);
    // `Agent::call` keeps the envelope for plays; `call_result` reports the failure.
    let r = a.call_result("slug_fails", r#"{"title":"x"}"#, &ctx).await;
    assert!(!r.ok);
    assert_eq!(r.value, None);
    let cause = r.cause.expect("a cause");
    assert_eq!(cause.code, ErrorKind::Handler);
    assert_eq!(cause.kind, CauseKind::Runtime);
    let meta = r.metadata.expect("metadata");
    assert_eq!(meta.call_id, "call-7");
    assert_eq!(meta.attempt, 2);
    assert_eq!(meta.tool_kind, Some(OperationKind::Play));
    let ok = a.call_result("slug", r#"{"title":"A B"}"#, &ctx).await;
    assert!(ok.ok);
    assert!(!ok.terminal);
    let unknown = a.call_result("nope", "{}", &ctx).await;
    assert_eq!(unknown.metadata.expect("metadata").tool_kind, None);
    assert_eq!(unknown.cause.expect("cause").kind, CauseKind::Validation);
}
