//! Tools registered at run time: the same contract as generated tools.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use toolc_runtime::{
    AgentError, AuthLevel, CallContext, Caller, CauseKind, ErrorKind, HandlerError, OperationKind,
    RateLimit, RegisteredTool,
};

use super::agent;

fn weather_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 1, "description": "The city's name."},
            "unit": {"enum": ["c", "f"]}
        },
        "required": ["city"],
        "additionalProperties": false
    })
}

fn weather(calls: Arc<AtomicUsize>) -> RegisteredTool {
    RegisteredTool::new(
        "weather",
        "Current weather for a city.",
        weather_schema(),
        move |args: Value, ctx: CallContext| {
            let calls = Arc::clone(&calls);
            async move {
                calls.fetch_add(1, Ordering::SeqCst);
                ctx.set_metadata("source", "station-7");
                ctx.set_metadata("cached", false);
                Ok::<_, HandlerError>(json!({"city": args["city"], "celsius": 21}))
            }
        },
    )
    .returns(json!({
        "type": "object",
        "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
        "required": ["city", "celsius"]
    }))
}

#[tokio::test]
async fn a_registered_tool_is_called_through_the_contract() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut a = agent();
    a.register(weather(Arc::clone(&calls))).expect("registers");
    assert_eq!(a.tools().last().map(|d| d.name), Some("weather"));
    let d = a.descriptor("weather").expect("listed");
    assert_eq!(d.kind, OperationKind::Tool);
    assert_eq!(d.input_schema_json(), weather_schema());

    let ctx = CallContext::new("w-1");
    let r = a.call_result("weather", r#"{"city": "Oslo"}"#, &ctx).await;
    assert!(r.ok, "{r:?}");
    assert_eq!(r.value, Some(json!({"city": "Oslo", "celsius": 21})));
    let meta = r.metadata.expect("metadata");
    assert_eq!(meta.call_id, "w-1");
    assert_eq!(meta.attempt, 1);
    assert_eq!(meta.tool_kind, Some(OperationKind::Tool));
    assert_eq!(
        Value::Object(meta.entries),
        json!({"source": "station-7", "cached": false})
    );

    // Bad arguments never reach the handler, and every violation has its pointer.
    let r = a
        .call_result("weather", r#"{"city": "", "unit": "k", "x": 1}"#, &ctx)
        .await;
    let cause = r.cause.expect("a cause");
    assert_eq!(cause.code, ErrorKind::ArgumentsInvalid);
    assert_eq!(cause.kind, CauseKind::Validation);
    let pointers: Vec<&str> = cause
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/city", "/unit", "/x"], "{:?}", cause.violations);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    // Entries of one call stay out of the next.
    assert!(r.metadata.expect("metadata").entries.is_empty());
    // Outside an agent's recording, nothing is recorded.
    assert!(!ctx.set_metadata("k", 1));
}

#[tokio::test]
async fn policies_timeouts_panics_and_results_hold_for_registered_tools() {
    let mut a = agent();
    let ok = |_: Value, _: CallContext| async { Ok::<_, HandlerError>(json!("ok")) };
    let object = json!({"type": "object"});
    a.register(
        RegisteredTool::new("admin_tool", "For admins.", object.clone(), ok)
            .auth(AuthLevel::Admin)
            .role("ops"),
    )
    .expect("registers");
    a.register(
        RegisteredTool::new("once", "Once an hour.", object.clone(), ok).rate_limit(RateLimit {
            count: 1,
            period_secs: 3600,
        }),
    )
    .expect("registers");
    a.register(
        RegisteredTool::new(
            "sleepy",
            "Too slow.",
            object.clone(),
            |_: Value, _: CallContext| async {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok::<_, HandlerError>(Value::Null)
            },
        )
        .timeout(Duration::from_millis(20)),
    )
    .expect("registers");
    a.register(RegisteredTool::new(
        "plugin_boom",
        "Panics.",
        object.clone(),
        |_: Value, _: CallContext| async {
            if true {
                panic!("plugin blew up");
            }
            Ok::<_, HandlerError>(Value::Null)
        },
    ))
    .expect("registers");
    a.register(
        RegisteredTool::new(
            "liar",
            "Breaks its returns schema.",
            object.clone(),
            |_: Value, _: CallContext| async { Ok::<_, HandlerError>(json!({"n": "three"})) },
        )
        .returns(json!({"type": "object", "properties": {"n": {"type": "integer"}}})),
    )
    .expect("registers");
    a.register(RegisteredTool::new("finish", "Ends the turn.", object, ok).terminal(true))
        .expect("registers");

    let anon = CallContext::new("c");
    let kind = |r: toolc_runtime::ToolResult| r.cause.map(|c| c.code);
    assert_eq!(
        kind(a.call_result("admin_tool", "{}", &anon).await),
        Some(ErrorKind::Forbidden)
    );
    let admin = CallContext::new("c").with_caller(
        Caller::new("root")
            .with_auth(AuthLevel::Admin)
            .with_role("ops"),
    );
    assert!(a.call_result("admin_tool", "{}", &admin).await.ok);
    assert!(a.call_result("once", "{}", &anon).await.ok);
    let limited = a.call_result("once", "{}", &anon).await;
    let cause = limited.cause.expect("rate limited");
    assert_eq!(cause.code, ErrorKind::RateLimited);
    assert!(cause.retryable && cause.retry_after_ms.is_some());
    assert_eq!(
        kind(a.call_result("sleepy", "{}", &anon).await),
        Some(ErrorKind::Timeout)
    );
    let boom = a.call_result("plugin_boom", "{}", &anon).await;
    assert_eq!(
        boom.error.as_deref(),
        Some("tool 'plugin_boom' panicked: plugin blew up")
    );
    assert_eq!(
        kind(a.call_result("liar", "{}", &anon).await),
        Some(ErrorKind::OutputInvalid)
    );
    let fin = a.call_result("finish", "{}", &anon).await;
    assert!(fin.ok && fin.terminal);
    let fin_bad = a.call_result("finish", "[]", &anon).await;
    assert!(!fin_bad.ok && !fin_bad.terminal);
}

#[test]
fn a_name_taken_by_any_tool_or_play_is_refused() {
    let mut a = agent();
    let ok = |_: Value, _: CallContext| async { Ok::<_, HandlerError>(Value::Null) };
    for taken in ["greet", "slug"] {
        let e = a
            .register(RegisteredTool::new(
                taken,
                "",
                json!({"type": "object"}),
                ok,
            ))
            .expect_err("taken");
        assert!(
            matches!(e, AgentError::NameTaken { ref name, .. } if name == taken),
            "{e}"
        );
        assert!(e.to_string().contains("registered tool"), "{e}");
    }
    a.register(RegisteredTool::new(
        "mine",
        "",
        json!({"type": "object"}),
        ok,
    ))
    .expect("free");
    let e = a
        .register(RegisteredTool::new(
            "mine",
            "",
            json!({"type": "object"}),
            ok,
        ))
        .expect_err("registered twice");
    assert!(
        e.to_string().contains("registered tool 'mine' already has"),
        "{e}"
    );
    // The first one still answers.
    assert_eq!(a.tools().iter().filter(|d| d.name == "mine").count(), 1);
}

#[tokio::test]
async fn a_recursive_schema_registers_and_validates_at_every_depth() {
    let mut a = agent();
    let echo =
        |args: Value, _: CallContext| async move { Ok::<_, HandlerError>(args["tree"].clone()) };
    let node = json!({
        "type": "object",
        "properties": {
            "label": {"type": "string", "maxLength": 4},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
        },
        "required": ["label"],
        "additionalProperties": false
    });
    let schema = json!({
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "required": ["tree"],
        "$defs": {"Node": node}
    });
    let returns = json!({"$ref": "#/$defs/Node", "$defs": {"Node": node}});
    a.register(RegisteredTool::new("echo_tree", "Echoes a tree.", schema, echo).returns(returns))
        .expect("a recursive schema registers");
    let ctx = CallContext::new("t-1");
    let good =
        r#"{"tree": {"label": "a", "children": [{"label": "b", "children": [{"label": "c"}]}]}}"#;
    let r = a.call_result("echo_tree", good, &ctx).await;
    assert!(r.ok, "{r:?}");
    let bad = r#"{"tree": {"label": "a", "children": [{"label": "b", "children": [{"label": "toolong"}]}]}}"#;
    let e = a.call("echo_tree", bad, &ctx).await.expect_err("refused");
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
    assert_eq!(
        e.violations()[0].pointer,
        "/tree/children/0/children/0/label"
    );
}

#[test]
fn bad_names_and_unsupported_schemas_are_refused_with_where_and_why() {
    let mut a = agent();
    let ok = |_: Value, _: CallContext| async { Ok::<_, HandlerError>(Value::Null) };
    // Names as MCP and manifests name tools: `.` and 128 characters are fine.
    for name in ["dots.are.ok", &"x".repeat(128)] {
        a.register(RegisteredTool::new(name, "", json!({"type": "object"}), ok))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    for name in ["", "has space", "...", &"x".repeat(129)] {
        let e = a
            .register(RegisteredTool::new(name, "", json!({"type": "object"}), ok))
            .expect_err("bad name");
        assert!(matches!(e, AgentError::InvalidName { .. }), "{name}: {e}");
    }
    let cases = [
        (
            json!({"type": "object", "properties": {"q": {"$dynamicRef": "#meta"}}}),
            "parameters",
            "$dynamicRef",
            "/properties/q",
        ),
        (json!({"type": "array"}), "parameters", "type", ""),
        (
            json!({"type": "object", "properties": {"p": {"type": "string", "pattern": "(?!x)"}}}),
            "parameters",
            "pattern",
            "/properties/p",
        ),
        (
            json!({"type": "object", "$defs": {"N": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/N"}]}}, "properties": {"n": {"$ref": "#/$defs/N"}}}),
            "parameters",
            "$ref",
            "/$defs/N/anyOf/1",
        ),
    ];
    for (schema, which, keyword, pointer) in cases {
        let e = a
            .register(RegisteredTool::new("t", "", schema.clone(), ok))
            .expect_err("refused");
        match &e {
            AgentError::Schema {
                tool,
                which: w,
                error,
            } => {
                assert_eq!(tool, "t");
                assert_eq!(*w, which);
                assert_eq!(
                    (error.keyword.as_str(), error.pointer.as_str()),
                    (keyword, pointer),
                    "{e}"
                );
            }
            other => panic!("{schema}: {other}"),
        }
        assert!(
            e.to_string().starts_with("cannot register tool 't': its "),
            "{e}"
        );
    }
    let e = a
        .register(
            RegisteredTool::new("t", "", json!({"type": "object"}), ok)
                .returns(json!({"unevaluatedProperties": false})),
        )
        .expect_err("refused");
    assert_eq!(
        e.to_string(),
        "cannot register tool 't': its returns schema is refused at the root, keyword \
         `unevaluatedProperties`: not supported; list the properties and use `additionalProperties`"
    );
    // Nothing half-registered.
    assert!(a.descriptor("t").is_none());
}

#[tokio::test]
async fn a_registered_play_answers_its_envelope_and_takes_no_policy() {
    let mut a = agent();
    let play = |args: Value, _: CallContext| async move {
        match args["n"].as_i64() {
            Some(0) => Err(HandlerError::msg("zero")),
            _ => Ok::<_, HandlerError>(json!({"n": args["n"]})),
        }
    };
    let schema =
        json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    a.register(
        RegisteredTool::new("halve", "Halves n.", schema.clone(), play)
            .returns(json!({"type": "object"}))
            .play(),
    )
    .expect("registers");
    assert_eq!(a.descriptor("halve").unwrap().kind, OperationKind::Play);
    let ctx = CallContext::new("p-1");
    assert_eq!(
        a.call("halve", r#"{"n": 4}"#, &ctx).await.unwrap(),
        json!({"n": 4})
    );
    // A failure is the play's envelope, and `ok: false` in its result.
    let envelope = a
        .call("halve", r#"{"n": 0}"#, &ctx)
        .await
        .expect("an envelope");
    assert_eq!(envelope["kind"], "handler");
    assert_eq!(envelope["error"], "play 'halve' failed: zero");
    let bad = a.call("halve", r#"{}"#, &ctx).await.expect("an envelope");
    assert_eq!(bad["kind"], "arguments_invalid");
    let r = a.call_result("halve", r#"{"n": 0}"#, &ctx).await;
    assert!(!r.ok && r.cause.is_some(), "{r:?}");
    assert_eq!(r.metadata.unwrap().tool_kind, Some(OperationKind::Play));

    let e = a
        .register(
            RegisteredTool::new("slow_play", "", schema, play)
                .timeout(Duration::from_secs(1))
                .play(),
        )
        .expect_err("a play with a policy");
    assert_eq!(
        e,
        AgentError::PlayPolicy {
            play: "slow_play".into()
        }
    );
    assert!(e.to_string().contains("plays have no policies"), "{e}");
}

#[test]
fn listed_schemas_icons_meta_and_an_annotations_title_are_listed_as_given() {
    let mut a = agent();
    let ok = |_: Value, _: CallContext| async { Ok::<_, HandlerError>(json!({"n": 1})) };
    let validated = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": -9223372036854775808_i64}}});
    let listed = json!({"type": "object", "properties": {"n": {"type": "integer", "description": "A number."}}});
    a.register(
        RegisteredTool::new("count", "Counts.", validated.clone(), ok)
            .returns(json!({"type": "object"}))
            .listed_schemas(
                listed.clone(),
                Some(json!({"type": "object", "title": "Count"})),
            )
            .title("Count")
            .annotation("title", "Count things")
            .annotation("category", "numbers")
            .icons(json!([{"src": "https://example.com/n.png"}]))
            .meta(json!({"com.example/owner": "team-n"})),
    )
    .expect("registers");
    let d = a.descriptor("count").unwrap();
    assert_eq!(d.input_schema_json(), listed);
    assert_eq!(
        d.output_schema_json(),
        Some(json!({"type": "object", "title": "Count"}))
    );
    assert_eq!(
        d.annotations_json(),
        json!({"title": "Count things", "category": "numbers"})
    );
    assert_eq!(d.icons, Some(r#"[{"src":"https://example.com/n.png"}]"#));
    assert_eq!(d.meta, Some(r#"{"com.example/owner":"team-n"}"#));
    // What is validated is the schema given, not the one listed.
    assert!(d.parameters.validate(&json!({"n": 1})).is_empty());

    a.register(
        RegisteredTool::new("untitled", "", validated, ok)
            .listed_schemas(listed, None)
            .returns(json!({"type": "object"}))
            .title("Untitled"),
    )
    .expect("registers");
    let d = a.descriptor("untitled").unwrap();
    assert_eq!(d.output_schema, None, "None lists no output schema");
    assert_eq!(d.annotations_json(), json!({"title": "Untitled"}));
}

#[tokio::test]
async fn a_handler_reports_the_kinds_a_service_it_calls_answers() {
    use toolc_runtime::ToolError;
    let mut a = agent();
    let upstream = |args: Value, _: CallContext| async move {
        let kind = ErrorKind::from_name(args["kind"].as_str().unwrap_or_default()).unwrap();
        Err::<Value, _>(HandlerError::from(
            ToolError::new(kind, "", "this tool got no answer from its API")
                .with_retry_after(Duration::from_secs(7)),
        ))
    };
    let schema = json!({"type": "object", "properties": {"kind": {"type": "string"}}});
    a.register(RegisteredTool::new("api", "", schema, upstream))
        .unwrap();
    let ctx = CallContext::new("k");
    for kind in [
        ErrorKind::RateLimited,
        ErrorKind::Unavailable,
        ErrorKind::Timeout,
    ] {
        let args = json!({"kind": kind.as_str()}).to_string();
        let e = a.call("api", &args, &ctx).await.expect_err("fails");
        assert_eq!(e.kind(), kind);
        assert_eq!(e.message(), "tool 'api' got no answer from its API");
        assert_eq!(e.retry_after(), Some(Duration::from_secs(7)));
    }
    // A kind that is the contract's own to decide is the handler's failure.
    let e = a
        .call("api", r#"{"kind": "forbidden"}"#, &ctx)
        .await
        .expect_err("fails");
    assert_eq!(e.kind(), ErrorKind::Handler);
    assert!(e.downcast_ref::<ToolError>().is_some());
}

fn echo(name: &str, reply: &'static str) -> RegisteredTool {
    RegisteredTool::new(
        name.to_owned(),
        format!("Answers {reply}."),
        json!({"type": "object"}),
        move |_: Value, _: CallContext| async move { Ok::<_, HandlerError>(json!(reply)) },
    )
}

/// A tool registered at run time can be removed and replaced; the toolset's own tools cannot.
#[tokio::test]
async fn registered_tools_are_removed_and_replaced_at_run_time() {
    let mut a = agent();
    let own: Vec<&str> = a.tools().iter().map(|d| d.name).collect();
    a.register(echo("first", "one")).unwrap();
    a.register(echo("second", "two")).unwrap();
    a.register(echo("third", "three")).unwrap();
    assert_eq!(a.search_tools("answers two", 1)[0].tool.name, "second");
    let ctx = CallContext::new("r-1");

    a.unregister("second").unwrap();
    let names: Vec<&str> = a.tools().iter().map(|d| d.name).collect();
    assert_eq!(names[..own.len()], own[..]);
    assert_eq!(names[own.len()..], ["first", "third"]);
    assert!(a.descriptor("second").is_none());
    let e = a.call("second", "{}", &ctx).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownTool);
    assert!(
        a.search_tools("answers two", 5)
            .iter()
            .all(|h| h.tool.name != "second")
    );
    // The tools after it are still called through their own handlers.
    assert_eq!(a.call("third", "{}", &ctx).await.unwrap(), json!("three"));
    assert_eq!(a.call("first", "{}", &ctx).await.unwrap(), json!("one"));

    // Replaced in place: the new description, schema and handler, the same place in the list.
    a.replace(echo("first", "uno")).unwrap();
    assert_eq!(a.call("first", "{}", &ctx).await.unwrap(), json!("uno"));
    assert_eq!(a.descriptor("first").unwrap().description, "Answers uno.");
    let names: Vec<&str> = a.tools().iter().map(|d| d.name).collect();
    assert_eq!(names[own.len()..], ["first", "third"]);
    assert_eq!(a.search_tools("uno", 1)[0].tool.name, "first");
    // The name is free again once removed.
    a.register(echo("second", "again")).unwrap();
    assert_eq!(a.call("second", "{}", &ctx).await.unwrap(), json!("again"));

    // Nothing of that name, or a tool of the toolset: refused, nothing changed.
    let e = a.unregister("nope").unwrap_err();
    assert!(
        matches!(e, AgentError::NotRegistered { existing: None, .. }),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "cannot remove or replace 'nope': the agent has no tool of that name"
    );
    let e = a.unregister(own[0]).unwrap_err();
    assert!(
        e.to_string().starts_with(&format!(
            "cannot remove or replace '{}': it is the tool '{}' of toolbox",
            own[0], own[0]
        )),
        "{e}"
    );
    assert!(a.replace(echo(own[0], "x")).is_err());
    assert!(a.replace(echo("nope", "x")).is_err());
    // A replacement the agent cannot compile leaves the old tool.
    let bad = RegisteredTool::new(
        "third",
        "Bad.",
        json!({"type": "object", "unevaluatedProperties": false}),
        |_: Value, _: CallContext| async { Ok::<_, HandlerError>(json!(null)) },
    );
    assert!(matches!(a.replace(bad), Err(AgentError::Schema { .. })));
    assert_eq!(a.call("third", "{}", &ctx).await.unwrap(), json!("three"));
    assert_eq!(a.tools().len(), own.len() + 3);
}

/// The list one call sees: the tools whose auth and roles admit its caller, less those the
/// host's filter hides, which cannot be called by name either.
#[tokio::test]
async fn each_call_sees_the_tools_its_caller_and_the_host_filter_allow() {
    let mut a = agent();
    a.register(echo("public", "anyone")).unwrap();
    a.register(echo("staff", "staff").role("staff")).unwrap();
    a.register(echo("beta", "testers")).unwrap();
    let a = a.with_tool_filter(|d, ctx| d.name != "beta" || ctx.caller().has_role("tester"));
    let names = |ctx: &CallContext| -> Vec<&str> {
        a.tools_for(ctx)
            .iter()
            .map(|d| d.name)
            .filter(|n| ["public", "staff", "beta"].contains(n))
            .collect()
    };
    let anonymous = CallContext::new("p-1");
    let staff = CallContext::new("p-2").with_caller(Caller::new("bo").with_role("staff"));
    let tester = CallContext::new("p-3").with_caller(Caller::new("cy").with_role("tester"));
    assert_eq!(names(&anonymous), ["public"]);
    assert_eq!(names(&staff), ["public", "staff"]);
    assert_eq!(names(&tester), ["public", "beta"]);
    // Every tool is still listed where no call is asked about.
    assert!(a.tools().iter().any(|d| d.name == "beta"));
    // Hidden is not there: unknown, whatever its policies.
    let e = a.call("beta", "{}", &anonymous).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownTool);
    assert_eq!(
        a.call("beta", "{}", &tester).await.unwrap(),
        json!("testers")
    );
    // Left in the list is not the same as allowed: a policy still answers `forbidden`.
    let e = a.call("staff", "{}", &anonymous).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden);
}

/// A clone of an agent changes its run-time tools apart from the original and shares what
/// serves the calls.
#[tokio::test]
async fn a_clone_changes_its_tools_apart_from_the_original() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut a = agent();
    a.register(weather(Arc::clone(&calls))).unwrap();
    let mut b = a.clone();
    b.unregister("weather").unwrap();
    b.register(echo("extra", "more")).unwrap();
    assert!(a.descriptor("weather").is_some() && a.descriptor("extra").is_none());
    assert!(b.descriptor("weather").is_none() && b.descriptor("extra").is_some());
    assert_eq!(a.search_tools("weather city", 1)[0].tool.name, "weather");
    assert_eq!(b.search_tools("answers more", 1)[0].tool.name, "extra");
    let c = a.clone();
    let ctx = CallContext::new("c-1");
    a.call("weather", r#"{"city": "Oslo"}"#, &ctx)
        .await
        .unwrap();
    c.call("weather", r#"{"city": "Oslo"}"#, &ctx)
        .await
        .unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 2, "one handler behind both");
}
