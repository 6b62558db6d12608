//! Rule 8: `started` / `completed` / `failed` (and `approval_required`) events with the call id,
//! the tool, the duration and a `result_preview` capped at 16 KiB of valid JSON text.

use crate::common;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use common::DemoToolbox;
use serde_json::Value;
use toolc_runtime::{CallContext, RESULT_PREVIEW_LIMIT, Toolbox};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

type Fields = BTreeMap<String, String>;

/// Records every event's fields as strings.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Fields>>>);

struct Collect<'a>(&'a mut Fields);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = Fields::new();
        event.record(&mut Collect(&mut fields));
        fields.insert("level".into(), event.metadata().level().to_string());
        fields.insert("target".into(), event.metadata().target().to_owned());
        self.0.lock().unwrap().push(fields);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn record(tool: &str, args: &str) -> Vec<Fields> {
    let recorder = Recorder::default();
    let tb = DemoToolbox::new();
    let ctx = CallContext::new(format!("id-{tool}"));
    tracing::subscriber::with_default(recorder.clone(), || {
        let _ = common::runtime().block_on(tb.call(tool, args, &ctx));
    });
    let events = recorder.0.lock().unwrap();
    events.clone()
}

#[test]
fn a_successful_call_emits_started_then_completed() {
    let events = record("greet", r#"{"name":"Ada"}"#);
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["event"], "started");
    assert_eq!(events[1]["event"], "completed");
    for e in &events {
        assert_eq!(e["call_id"], "id-greet");
        assert_eq!(e["tool"], "greet");
        assert_eq!(e["target"], "toolc_runtime");
    }
    assert!(events[1]["duration_us"].parse::<u64>().is_ok());
    assert_eq!(events[1]["result_preview"], r#"{"greeting":"hello Ada"}"#);
}

#[test]
fn a_failed_call_emits_failed_with_its_kind() {
    let events = record("greet", "[]");
    assert_eq!(events.len(), 2, "{events:?}");
    let failed = &events[1];
    assert_eq!(failed["event"], "failed");
    assert_eq!(failed["kind"], "arguments_invalid");
    assert_eq!(failed["level"], "WARN");
    assert!(failed["error"].starts_with("tool 'greet' arguments are invalid"));
    let preview: Value = serde_json::from_str(&failed["result_preview"]).unwrap();
    assert_eq!(preview["ok"], Value::Bool(false));
    assert_eq!(preview["cause"]["kind"], "validation");
    assert_eq!(preview["cause"]["code"], "arguments_invalid");
}

#[test]
fn the_result_preview_is_capped_valid_json() {
    // `big` returns more than a megabyte.
    let events = record("big", "{}");
    let preview = &events[1]["result_preview"];
    assert!(preview.len() <= RESULT_PREVIEW_LIMIT, "{}", preview.len());
    assert!(
        preview.len() > RESULT_PREVIEW_LIMIT - 64,
        "{}",
        preview.len()
    );
    let v: Value = serde_json::from_str(preview).expect("valid JSON");
    assert!(v["blob"].as_str().unwrap().ends_with('…'));
}

#[test]
fn a_registered_tool_emits_the_same_events() {
    use serde_json::json;
    use toolc_runtime::{Agent, HandlerError, RegisteredTool};

    let mut agent = Agent::new("a", "", Vec::new()).expect("empty agent");
    agent
        .register(RegisteredTool::new(
            "plugin_echo",
            "Echoes.",
            json!({"type": "object", "properties": {"x": {"type": "integer"}}}),
            |args: Value, _: CallContext| async move { Ok::<_, HandlerError>(args) },
        ))
        .expect("registers");
    let recorder = Recorder::default();
    let ctx = CallContext::new("id-plugin");
    tracing::subscriber::with_default(recorder.clone(), || {
        let rt = common::runtime();
        let _ = rt.block_on(agent.call("plugin_echo", r#"{"x": 1}"#, &ctx));
        let _ = rt.block_on(agent.call("plugin_echo", r#"{"x": "one"}"#, &ctx));
    });
    let events = recorder.0.lock().unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e["event"].as_str()).collect();
    assert_eq!(kinds, ["started", "completed", "started", "failed"]);
    assert!(
        events
            .iter()
            .all(|e| e["call_id"] == "id-plugin" && e["tool"] == "plugin_echo")
    );
    assert_eq!(events[1]["result_preview"], r#"{"x":1}"#);
    assert_eq!(events[3]["kind"], "arguments_invalid");
}

#[test]
fn a_held_call_emits_approval_required_without_its_token() {
    let events = record("held", "{}");
    assert_eq!(events.len(), 2, "{events:?}");
    let held = &events[1];
    assert_eq!(held["event"], "approval_required");
    assert_eq!(held["level"], "INFO", "a held call is not a failure");
    assert_eq!(held["tool"], "held");
    assert!(held["duration_us"].parse::<u64>().is_ok());
    assert!(!held.contains_key("kind") && !held.contains_key("result_preview"));
    // No field holds anything shaped like a token.
    for value in held.values() {
        assert!(
            !(value.len() >= 64 && value.bytes().all(|b| b.is_ascii_hexdigit())),
            "{held:?}"
        );
    }
}

/// A registered tool whose `password` argument and `token` result are marked sensitive
/// through its builder, as a manifest's `sensitive: true` marks generated fields.
fn login() -> toolc_runtime::Agent {
    use serde_json::json;
    let mut agent =
        toolc_runtime::Agent::new("vault", "keeps secrets", Vec::new()).expect("an empty agent");
    let tool = toolc_runtime::RegisteredTool::new(
        "login",
        "Log in.",
        json!({
            "type": "object",
            "properties": {
                "user": {"type": "string"},
                "password": {"type": "string", "minLength": 12, "pattern": "^[^ ]+$"}
            },
            "required": ["user", "password"]
        }),
        |args: Value, _ctx: CallContext| async move {
            Ok::<_, toolc_runtime::HandlerError>(
                json!({"user": args["user"], "token": format!("tok_{}", args["password"].as_str().unwrap_or_default())}),
            )
        },
    )
    .returns(json!({
        "type": "object",
        "properties": {"user": {"type": "string"}, "token": {"type": "string"}},
        "required": ["user", "token"]
    }))
    .sensitive("/password")
    .sensitive_in_returns("/token");
    agent.register(tool).expect("registers");
    agent
}

const SECRET: &str = "hunter2-SECRET";

#[test]
fn registered_tools_mask_the_fields_they_mark_sensitive() {
    let agent = login();
    let run = |args: String| {
        let recorder = Recorder::default();
        let result = tracing::subscriber::with_default(recorder.clone(), || {
            common::runtime().block_on(agent.call_result("login", &args, &CallContext::new("c1")))
        });
        let events = recorder.0.lock().unwrap().clone();
        (result, events)
    };
    // A sensitive argument that fails validation is quoted nowhere.
    for bad in ["SECRET", "has a space in it, SECRET"] {
        let (result, events) = run(format!(r#"{{"user": "ada", "password": "{bad}"}}"#));
        assert!(!result.ok);
        let text = format!("{} {result:?} {events:?}", result.to_value());
        assert!(!text.contains("SECRET"), "{text}");
        assert_eq!(result.cause.unwrap().violations[0].pointer, "/password");
    }
    // A result's sensitive field reaches the host, but not the events.
    let (result, events) = run(format!(
        r#"{{"user": "ada", "password": "correct-horse-{SECRET}"}}"#
    ));
    assert!(result.ok, "{result:?}");
    assert!(
        result.value.unwrap()["token"]
            .as_str()
            .unwrap()
            .contains(SECRET)
    );
    let completed = events.iter().find(|e| e["event"] == "completed").unwrap();
    let preview: Value = serde_json::from_str(&completed["result_preview"]).unwrap();
    assert_eq!(preview["user"], "ada");
    assert_eq!(preview["token"], toolc_runtime::codegen::schema::REDACTED);
    assert!(!format!("{events:?}").contains("SECRET"), "{events:?}");
    // The model's view of the schema does not carry toolc's own keyword.
    let desc = agent.descriptor("login").expect("listed");
    assert!(
        !desc.input_schema.contains("sensitive"),
        "{}",
        desc.input_schema
    );
    assert!(
        !desc.output_schema.unwrap_or_default().contains("sensitive"),
        "{:?}",
        desc.output_schema
    );
}

#[test]
fn a_sensitive_mark_must_name_a_declared_property() {
    use serde_json::json;
    let mut agent = toolc_runtime::Agent::new("vault", "keeps secrets", Vec::new()).unwrap();
    let tool = toolc_runtime::RegisteredTool::new(
        "login",
        "Log in.",
        json!({"type": "object", "properties": {"password": {"type": "string"}}}),
        |_args: Value, _ctx: CallContext| async move {
            Ok::<_, toolc_runtime::HandlerError>(Value::Null)
        },
    )
    .sensitive("/pasword");
    let error = agent.register(tool).unwrap_err().to_string();
    assert!(
        error.contains("/pasword") && error.contains("sensitive"),
        "{error}"
    );
}
