//! One test (or a few) per numbered rule of the execution contract (docs/generated-code.md), through a
//! hand-written toolbox and playbook that call `run_tool` / `run_play` as generated code does.

use crate::common;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use common::{DemoToolbox, DownStore, Operator, OutOfStock, Recipes};
use serde_json::{Value, json};
use toolc_runtime::{
    AuthLevel, CallContext, Caller, CauseKind, ErrorKind, MemoryStore, Playbook, PolicyStore,
    ToolContext, ToolError, ToolResult, Toolbox, Violations, error_envelope,
};

fn ctx() -> CallContext {
    CallContext::new("call-1")
}

fn pointers(e: &ToolError) -> BTreeSet<&str> {
    e.violations().iter().map(|v| v.pointer.as_str()).collect()
}

async fn call(tb: &DemoToolbox, tool: &str, args: &str) -> Result<Value, ToolError> {
    tb.call(tool, args, &ctx()).await
}

// Rule 1: arguments are parsed once at the boundary; bad ones never reach the handler.

#[tokio::test]
async fn rule1_valid_arguments_reach_the_handler_typed() {
    let tb = DemoToolbox::new();
    let v = call(&tb, "greet", r#"{"name":"Ada","count":2}"#)
        .await
        .unwrap();
    assert_eq!(v, json!({ "greeting": "hello Adahello Ada" }));
    assert_eq!(tb.inner.invocations.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn rule1_invalid_arguments_list_every_violation_and_skip_the_handler() {
    let tb = DemoToolbox::new();
    let e = call(&tb, "greet", r#"{"name":"","count":11,"extra":1}"#)
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
    assert_eq!(pointers(&e), BTreeSet::from(["/name", "/count", "/extra"]));
    assert!(
        e.message()
            .starts_with("tool 'greet' arguments are invalid: "),
        "{e}"
    );
    assert!(e.message().contains("/count: must be <= 10, got 11"), "{e}");

    let e = call(&tb, "greet", r#"{"count":1.5}"#).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
    assert!(
        e.message().contains("missing required property 'name'"),
        "{e}"
    );
    assert!(
        e.message().contains("/count: expected integer, got number"),
        "{e}"
    );
    assert_eq!(
        tb.inner.invocations.load(Ordering::SeqCst),
        0,
        "the handler ran"
    );
}

#[tokio::test]
async fn rule1_malformed_or_non_object_arguments_are_never_coerced_to_empty() {
    let tb = DemoToolbox::new();
    // `fail` accepts `{}` and would run its handler if anything were coerced to it.
    for text in [
        "",
        "   ",
        "null",
        "[]",
        "\"{}\"",
        "42",
        "{",
        r#"{"how":"x",}"#,
        r#"{"how":"x"} trailing"#,
        r#"{"how":"x","how":"y"}"#,
        r#"{"how":1e400}"#,
        r#"{"how":"\ud800"}"#,
    ] {
        let e = call(&tb, "fail", text).await.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{text:?}: {e}");
        assert_eq!(e.violations().len(), 1, "{text:?}");
    }
    assert_eq!(
        tb.inner.invocations.load(Ordering::SeqCst),
        0,
        "the handler ran"
    );
}

#[tokio::test]
async fn rule1_type_errors_past_the_schema_carry_their_pointer() {
    let tb = DemoToolbox::new();
    let e = call(&tb, "small", r#"{"n":300}"#).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
    assert_eq!(pointers(&e), BTreeSet::from(["/n"]));
    let e = call(&tb, "small", r#"{"n":1,"list":[1,2,999]}"#)
        .await
        .unwrap_err();
    assert_eq!(pointers(&e), BTreeSet::from(["/list/2"]));
    assert_eq!(
        call(&tb, "small", r#"{"n":1,"list":[1,2]}"#).await.unwrap(),
        json!(3)
    );
}

// Rule 2: results are validated after serialization.

#[tokio::test]
async fn rule2_output_violations_fail_with_output_invalid() {
    let tb = DemoToolbox::new();
    let e = call(&tb, "bad_output", "{}").await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutputInvalid);
    assert!(
        e.message()
            .starts_with("tool 'bad_output' output violated its returns schema: "),
        "{e}"
    );
    assert_eq!(pointers(&e), BTreeSet::from(["/greeting", "/extra"]));
    let source = std::error::Error::source(&e).expect("violations as the source");
    let list = source
        .downcast_ref::<Violations>()
        .expect("a Violations source");
    assert_eq!(list.0, e.violations());
}

#[tokio::test]
async fn rule2_validation_sees_the_serialized_value() {
    let tb = DemoToolbox::new();
    // `Day` serializes to "2024-02-30", which is not a date: only the serialized form shows it.
    let e = call(&tb, "day", r#"{"year":2024,"month":2,"day":30}"#)
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutputInvalid);
    assert_eq!(e.violations()[0].message, "is not a valid date");
    let v = call(&tb, "day", r#"{"year":2024,"month":2,"day":29}"#)
        .await
        .unwrap();
    assert_eq!(v, json!("2024-02-29"));
}

#[tokio::test]
async fn rule2_validate_returns_false_passes_the_value_verbatim() {
    let tb = DemoToolbox::new();
    let v = call(&tb, "unchecked_output", "{}").await.unwrap();
    assert_eq!(v, json!({ "greeting": 5, "extra": true }));
}

/// A typed result of a tool with `validate_returns: false` (`Verbatim`, what generated code
/// has such a tool return): keys the schema does not declare reach the caller, after the typed
/// value's keys and in the order they were added, and a raw value is sent as it is. A key the
/// typed value writes too, or keys on a value that is no object, fail the call as
/// `output_invalid`, saying why.
#[tokio::test]
async fn rule2_a_verbatim_result_carries_keys_the_schema_does_not_declare() {
    use toolc_runtime::codegen::{Guard, NoParams, run_tool};
    use toolc_runtime::{HandlerError, OperationKind, ToolDescriptor, Verbatim};

    #[derive(serde::Serialize)]
    struct Greeting {
        greeting: String,
    }
    // `GREETING` forbids other keys: nothing checks the result against it.
    static UNCHECKED: ToolDescriptor = ToolDescriptor {
        returns: Some(&common::GREETING),
        validate_returns: false,
        ..ToolDescriptor::new(
            "unchecked",
            OperationKind::Tool,
            "a test tool",
            &common::EMPTY_PARAMS,
        )
    };
    let hi = || Greeting {
        greeting: "hi".into(),
    };
    let with_keys = Verbatim::new(hi())
        .with_key("mood", "sunny")
        .with_key("count", 2)
        .with_key("mood", "bright");
    assert_eq!(
        serde_json::to_string(&with_keys).unwrap(),
        r#"{"greeting":"hi","mood":"bright","count":2}"#
    );
    let (guard, ctx) = (Guard::new(), ctx());
    let run = |result: Verbatim<Greeting>| {
        run_tool(
            &UNCHECKED,
            &guard,
            &ctx,
            "{}",
            move |_: NoParams| async move { Ok::<_, HandlerError>(result) },
        )
    };
    let v = run(with_keys).await.unwrap();
    assert_eq!(v, json!({ "greeting": "hi", "mood": "bright", "count": 2 }));
    let v = run(hi().into()).await.unwrap();
    assert_eq!(v, json!({ "greeting": "hi" }));
    let v = run(Verbatim::raw(json!([{ "greeting": 5 }])))
        .await
        .unwrap();
    assert_eq!(v, json!([{ "greeting": 5 }]));

    let e = run(Verbatim::new(hi()).with_key("greeting", "again"))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutputInvalid);
    assert!(
        e.violations()[0]
            .message
            .contains("the added key 'greeting' is one the typed value writes too"),
        "{e}"
    );
    let scalar = Verbatim::new("hi").with_key("mood", "sunny");
    let e = serde_json::to_string(&scalar).unwrap_err();
    assert!(
        e.to_string()
            .contains("keys were added to a value written as a string, not an object"),
        "{e}"
    );
}

// Rule 3: handler errors pass through untouched; panics are contained.

#[tokio::test]
async fn rule3_the_original_handler_error_downcasts() {
    let tb = DemoToolbox::new();
    let e = call(&tb, "fail", "{}").await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Handler);
    assert_eq!(
        e.downcast_ref::<OutOfStock>(),
        Some(&OutOfStock { sku: "A-1".into() })
    );
    let source = std::error::Error::source(&e).expect("the handler error as the source");
    assert!(source.downcast_ref::<OutOfStock>().is_some());
    assert!(e.handler_error().is_some());
    assert_eq!(e.message(), "tool 'fail' failed: A-1 is out of stock");

    let e = call(&tb, "fail", r#"{"how":"io"}"#).await.unwrap_err();
    let io = e.downcast_ref::<std::io::Error>().expect("the io::Error");
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);

    let e = call(&tb, "fail", r#"{"how":"msg"}"#).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Handler);
    assert_eq!(e.message(), "tool 'fail' failed: plain message");
    assert_eq!(e.cause_name(), "HandlerError");
}

/// The handler's own error comes back to the host by value: the very value it returned (its
/// heap buffer at the same address), typed by the host's own error type, with no downcast
/// written; any other failure comes back unchanged.
#[tokio::test]
async fn rule3_the_handler_error_is_handed_back_by_identity() {
    use std::sync::atomic::AtomicUsize;
    use toolc_runtime::{Agent, HandlerError, RegisteredTool};

    #[derive(Debug)]
    struct Conflict {
        holder: String,
    }
    impl std::fmt::Display for Conflict {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "held by {}", self.holder)
        }
    }
    impl std::error::Error for Conflict {}

    let made_at = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&made_at);
    let mut agent = Agent::new("desk", "A desk.", Vec::new()).unwrap();
    agent
        .register(RegisteredTool::new(
            "lock",
            "Locks a ticket.",
            json!({"type": "object", "properties": {"fail": {"type": "boolean"}}}),
            move |args: Value, _ctx: CallContext| {
                let seen = Arc::clone(&seen);
                async move {
                    if args["fail"] == json!(true) {
                        let conflict = Conflict {
                            holder: String::from("ada"),
                        };
                        seen.store(conflict.holder.as_ptr() as usize, Ordering::SeqCst);
                        return Err(HandlerError::from(conflict));
                    }
                    Err(HandlerError::msg("plain"))
                }
            },
        ))
        .unwrap();

    let e = agent
        .call("lock", r#"{"fail": true}"#, &ctx())
        .await
        .unwrap_err();
    let conflict: Conflict = e.into_handler().expect("the handler's own Conflict");
    assert_eq!(conflict.holder, "ada");
    assert_eq!(
        conflict.holder.as_ptr() as usize,
        made_at.load(Ordering::SeqCst),
        "the value the handler made, not a copy"
    );

    // Another error type: the ToolError comes back whole, the original still inside.
    let e = agent
        .call("lock", r#"{"fail": true}"#, &ctx())
        .await
        .unwrap_err();
    let e = e.into_handler::<std::io::Error>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Handler);
    assert_eq!(e.message(), "tool 'lock' failed: held by ada");
    assert_eq!(e.cause_name(), std::any::type_name::<Conflict>());
    assert!(e.into_handler::<Conflict>().is_ok());

    // Not a handler error at all: unchanged.
    let e = agent
        .call("lock", r#"{"fail": 3}"#, &ctx())
        .await
        .unwrap_err();
    let e = e.into_handler::<Conflict>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
}

#[tokio::test]
async fn rule3_a_panicking_handler_fails_only_its_call() {
    let tb = DemoToolbox::new();
    for _ in 0..3 {
        let e = call(&tb, "boom", "{}").await.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Panicked);
        assert_eq!(e.message(), "tool 'boom' panicked: handler blew up");
    }
    // Calls in flight at the same time go on.
    let c = ctx();
    let (boom, greet) = tokio::join!(
        tb.call("boom", "{}", &c),
        tb.call("greet", r#"{"name":"Bo"}"#, &c)
    );
    assert_eq!(boom.unwrap_err().kind(), ErrorKind::Panicked);
    assert_eq!(greet.unwrap(), json!({ "greeting": "hello Bo" }));
    // And the toolbox keeps serving.
    assert!(call(&tb, "greet", r#"{"name":"Cy"}"#).await.is_ok());
    assert_eq!(tb.inner.invocations.load(Ordering::SeqCst), 4 + 2);
}

// Rule 4: policies are enforced before the handler runs.

fn as_caller(caller: Caller) -> CallContext {
    CallContext::new("call-2").with_caller(caller)
}

#[tokio::test]
async fn rule4_an_auth_level_below_the_policy_is_forbidden() {
    let tb = DemoToolbox::new();
    for caller in [
        Caller::anonymous(),
        Caller::new("u").with_auth(AuthLevel::User),
    ] {
        let e = tb
            .call("admin_only", "{}", &as_caller(caller))
            .await
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Forbidden);
        assert!(e.message().contains("requires auth level 'admin'"), "{e}");
    }
    assert_eq!(tb.inner.invocations.load(Ordering::SeqCst), 0);
    let admin = Caller::new("root").with_auth(AuthLevel::Admin);
    assert_eq!(
        tb.call("admin_only", "{}", &as_caller(admin))
            .await
            .unwrap(),
        json!("ok")
    );
    assert_eq!(tb.inner.invocations.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn rule4_a_caller_without_one_of_the_roles_is_forbidden() {
    let tb = DemoToolbox::new();
    let user = || Caller::new("u").with_auth(AuthLevel::User);
    let e = tb
        .call("support_only", "{}", &as_caller(user()))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    assert!(e.message().contains("'support', 'billing'"), "{e}");
    let e = tb
        .call("support_only", "{}", &as_caller(user().with_role("sales")))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    // One of the roles is enough.
    let ok = tb
        .call(
            "support_only",
            "{}",
            &as_caller(user().with_role("billing")),
        )
        .await;
    assert_eq!(ok.unwrap(), json!("ok"));
    // Roles do not replace the auth level.
    let e = tb
        .call(
            "support_only",
            "{}",
            &as_caller(Caller::new("a").with_role("support")),
        )
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    assert_eq!(tb.inner.invocations.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn rule4_rate_limits_are_per_caller_and_tool_with_a_retry_after() {
    let tb = DemoToolbox::new();
    let alice = || as_caller(Caller::new("alice"));
    assert!(tb.call("limited", "{}", &alice()).await.is_ok());
    assert!(tb.call("limited", "{}", &alice()).await.is_ok());
    let e = tb.call("limited", "{}", &alice()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    assert!(e.retryable());
    let after = e.retry_after().expect("a retry-after");
    // 2 per hour replenishes one call every 30 minutes.
    assert!(
        after > Duration::from_secs(1790) && after <= Duration::from_secs(1800),
        "{after:?}"
    );
    assert_eq!(
        tb.inner.invocations.load(Ordering::SeqCst),
        2,
        "the limited call ran"
    );
    // Another caller has their own allowance, and so does another toolbox instance.
    assert!(
        tb.call("limited", "{}", &as_caller(Caller::new("bob")))
            .await
            .is_ok()
    );
    assert!(
        DemoToolbox::new()
            .call("limited", "{}", &alice())
            .await
            .is_ok()
    );
    // Another tool is not limited by this one.
    assert!(tb.call("greet", r#"{"name":"x"}"#, &alice()).await.is_ok());
}

#[tokio::test]
async fn rule4_a_store_bound_to_the_context_is_shared_across_toolboxes() {
    let store: Arc<dyn PolicyStore> = Arc::new(MemoryStore::new());
    let alice = || as_caller(Caller::new("alice")).with_store(Arc::clone(&store));
    let (first, second) = (DemoToolbox::new(), DemoToolbox::new());
    assert!(first.call("limited", "{}", &alice()).await.is_ok());
    assert!(second.call("limited", "{}", &alice()).await.is_ok());
    // Two per hour across both instances: their own guards are not consulted.
    let e = first.call("limited", "{}", &alice()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    let e = second.call("limited", "{}", &alice()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    // Without the shared store, each instance's own allowance is untouched.
    assert!(
        first
            .call("limited", "{}", &as_caller(Caller::new("alice")))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn rule4_a_store_that_does_not_answer_fails_closed_and_retryable() {
    let tb = DemoToolbox::new();
    let down = || as_caller(Caller::new("alice")).with_store(Arc::new(DownStore));
    let e = tb.call("limited", "{}", &down()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unavailable);
    assert!(e.retryable());
    assert_eq!(e.retry_after(), Some(Duration::from_secs(1)));
    assert!(
        e.message().contains("did not answer") && !e.message().contains("10.9.8.7"),
        "the message names the failure, not the store's address: {e}"
    );
    assert_eq!(
        tb.inner.invocations.load(Ordering::SeqCst),
        0,
        "the handler never ran"
    );
    // Tools without a rate limit never ask the store and keep being served.
    assert!(tb.call("greet", r#"{"name":"x"}"#, &down()).await.is_ok());
    // A forbidden caller is refused before the store is asked.
    let e = tb.call("limited_admin", "{}", &down()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden);
}

#[tokio::test]
async fn rule4_a_forbidden_call_spends_no_rate_limit() {
    let tb = DemoToolbox::new();
    let anon = || as_caller(Caller::new("mallory"));
    let admin = || as_caller(Caller::new("mallory").with_auth(AuthLevel::Admin));
    for _ in 0..3 {
        let e = tb.call("limited_admin", "{}", &anon()).await.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Forbidden);
    }
    assert!(tb.call("limited_admin", "{}", &admin()).await.is_ok());
    let e = tb.call("limited_admin", "{}", &admin()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::RateLimited);
}

#[tokio::test]
async fn rule4_a_timeout_fails_the_call_and_drops_the_handler_future() {
    let tb = DemoToolbox::new();
    let started = std::time::Instant::now();
    let e = call(&tb, "slow", "{}").await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Timeout);
    assert_eq!(e.message(), "tool 'slow' timed out after 50 ms");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        tb.inner.slow_dropped.load(Ordering::SeqCst),
        "the handler future was not dropped"
    );
    assert!(!tb.inner.slow_finished.load(Ordering::SeqCst));
}

// Rule 5: the scope is typed; `require_scope` says how to bind one.

#[tokio::test]
async fn rule5_the_scope_is_read_typed_or_reported_unavailable() {
    let tb = DemoToolbox::new();
    let with = CallContext::new("c").with_scope(Operator {
        operator: "ada".into(),
    });
    assert_eq!(
        tb.call("whoami", "{}", &with).await.unwrap(),
        json!({ "operator": "ada" })
    );

    let e = call(&tb, "whoami", "{}").await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ScopeUnavailable);
    assert_eq!(e.tool(), "whoami");
    assert!(
        e.message()
            .starts_with("tool 'whoami' needs a scope of type `"),
        "{e}"
    );
    assert!(e.message().contains("common::Operator"), "{e}");
    assert!(e.message().contains("CallContext::with_scope"), "{e}");

    let wrong = CallContext::new("c").with_scope(42u32);
    let e = tb.call("whoami", "{}", &wrong).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ScopeUnavailable);
    assert!(e.message().contains("the call's scope is a `u32`"), "{e}");

    let cx = ToolContext::<Operator>::new(&wrong);
    assert!(cx.scope().is_none());
    assert_eq!(ToolContext::<u32>::new(&wrong).scope(), Some(&42));
}

// Rule 6: plays never fail past the playbook: every failure is a typed outcome, made into
// an envelope where JSON is wanted.

#[tokio::test]
async fn rule6_plays_answer_every_failure_with_an_envelope() {
    let pb = Recipes;
    assert_eq!(
        pb.call("slug", r#"{"title":"A B"}"#).await.unwrap(),
        json!({ "slug": "a-b" })
    );
    let cases = [
        ("nope", "{}", "unknown_tool", "unknown play 'nope'"),
        (
            "slug",
            "{}",
            "arguments_invalid",
            "play 'slug' arguments are invalid: (root): missing required property 'title'",
        ),
        (
            "slug",
            "not json",
            "arguments_invalid",
            "play 'slug' arguments are invalid: (root): arguments are not valid JSON",
        ),
        (
            "slug_fails",
            r#"{"title":"x"}"#,
            "handler",
            "play 'slug_fails' failed: slug is out of stock",
        ),
        (
            "slug_panics",
            r#"{"title":"x"}"#,
            "panicked",
            "play 'slug_panics' panicked: play blew up",
        ),
        (
            "slug_broken",
            r#"{"title":"x"}"#,
            "output_invalid",
            "play 'slug_broken' output violated its returns schema: /slug: expected string, got integer",
        ),
    ];
    for (play, args, kind, message) in cases {
        let e = pb.call(play, args).await.expect_err("a failure");
        assert_eq!(e.kind().as_str(), kind);
        let v = error_envelope(&e);
        let obj = v.as_object().expect("an envelope object");
        assert_eq!(obj.len(), 2, "{v}");
        assert_eq!(obj["kind"], json!(kind), "{v}");
        let error = obj["error"].as_str().expect("an error message");
        assert!(error.starts_with(message), "{error}");
    }
}

// Rule 7: one closed taxonomy; each kind says whether a retry helps; no backtraces.

#[tokio::test]
async fn rule7_every_kind_is_reachable_closed_and_backtrace_free() {
    let names: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "unknown_tool",
            "arguments_invalid",
            "output_invalid",
            "forbidden",
            "scope_unavailable",
            "rate_limited",
            "timeout",
            "unavailable",
            "panicked",
            "handler",
            "approval_required"
        ]
    );
    for k in ErrorKind::ALL {
        assert_eq!(ErrorKind::from_name(k.as_str()), Some(k));
        assert_eq!(
            k.retryable(),
            matches!(
                k,
                ErrorKind::RateLimited | ErrorKind::Timeout | ErrorKind::Unavailable
            ),
            "{k}"
        );
    }

    let tb = DemoToolbox::new();
    let mut seen = BTreeSet::new();
    let calls = [
        ("nope", "{}"),
        ("greet", "{}"),
        ("bad_output", "{}"),
        ("admin_only", "{}"),
        ("whoami", "{}"),
        ("limited", "{}"),
        ("limited", "{}"),
        ("limited", "{}"),
        ("slow", "{}"),
        ("boom", "{}"),
        ("fail", "{}"),
        ("held", "{}"),
    ];
    for (tool, args) in calls {
        if let Err(e) = call(&tb, tool, args).await {
            assert!(!e.message().contains('\n'), "{e}");
            assert!(!e.message().contains("backtrace"), "{e}");
            assert!(!e.message().contains(".rs:"), "{e}");
            if e.kind() == ErrorKind::ApprovalRequired {
                // Held, not failed: the result says so with `approval`, and has no cause.
                let result = ToolResult::from(Err::<Value, _>(e));
                assert!(!result.ok && result.cause.is_none() && result.error.is_none());
                assert_eq!(result.approval.map(|a| a.tool), Some("held".to_owned()));
                seen.insert("approval_required".to_owned());
                continue;
            }
            let result = ToolResult::from(Err::<Value, _>(e));
            let cause = result.cause.expect("a cause");
            assert_eq!(cause.kind, cause.code.cause_kind());
            assert_eq!(cause.retryable, cause.code.retryable());
            seen.insert(cause.code.as_str().to_owned());
        }
    }
    let down = ctx().with_store(Arc::new(DownStore));
    let e = tb.call("limited", "{}", &down).await.unwrap_err();
    seen.insert(
        ToolResult::from(Err::<Value, _>(e))
            .cause
            .expect("a cause")
            .code
            .as_str()
            .to_owned(),
    );
    let all: BTreeSet<String> = names.iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, all);
    // Only what the model sent wrong is `validation`; the rest is `runtime`.
    let validation: Vec<&str> = ErrorKind::ALL
        .iter()
        .filter(|k| k.cause_kind() == CauseKind::Validation)
        .map(|k| k.as_str())
        .collect();
    assert_eq!(validation, ["unknown_tool", "arguments_invalid"]);
}

// Rule 8: every call yields a ToolResult (events are tested in tests/tracing.rs).

#[tokio::test]
async fn rule8_every_call_yields_a_tool_result() {
    let tb = DemoToolbox::new();
    let ok = ToolResult::from(call(&tb, "greet", r#"{"name":"Ada"}"#).await);
    assert_eq!(
        serde_json::to_value(&ok).unwrap(),
        json!({ "ok": true, "value": { "greeting": "hello Ada" } })
    );
    let failed = ToolResult::from(call(&tb, "fail", "{}").await);
    let v = serde_json::to_value(&failed).unwrap();
    assert_eq!(v["ok"], json!(false));
    assert_eq!(v["error"], json!("tool 'fail' failed: A-1 is out of stock"));
    assert_eq!(v["cause"]["kind"], json!("runtime"));
    assert_eq!(v["cause"]["code"], json!("handler"));
    assert_eq!(v["cause"]["retryable"], json!(false));
    assert_eq!(v["cause"]["message"], json!("A-1 is out of stock"));
    assert!(
        v["cause"]["name"].as_str().unwrap().ends_with("OutOfStock"),
        "{v}"
    );
    assert!(v.get("value").is_none());
    assert_eq!(failed.to_value(), v);
    let back: ToolResult = serde_json::from_value(v).unwrap();
    assert_eq!(back, failed);

    let invalid = ToolResult::from(call(&tb, "greet", "[]").await);
    let cause = invalid.cause.unwrap();
    assert_eq!(cause.kind, CauseKind::Validation);
    assert_eq!(cause.code, ErrorKind::ArgumentsInvalid);
    assert_eq!(cause.name, "ArgumentsInvalid");
    assert_eq!(cause.violations.len(), 1);
    assert_eq!(
        cause.message,
        "(root): arguments must be a JSON object, got an array"
    );
}

#[test]
fn rule4_a_timeout_without_a_tokio_timer_fails_the_call_instead_of_panicking() {
    // Polled by a bare executor: tokio's timer panics, and the panic stays inside the call.
    let tb = DemoToolbox::new();
    let c = ctx();
    let mut fut = std::pin::pin!(tb.call("slow", "{}", &c));
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    let result = loop {
        if let std::task::Poll::Ready(r) = fut.as_mut().poll(&mut cx) {
            break r;
        }
    };
    let e = result.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Panicked);
    assert!(e.message().starts_with("tool 'slow' panicked: "), "{e}");
}
