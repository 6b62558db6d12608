//! The execution contract, rule by rule, through the code generated from
//! `manifests/`. Where a rule needs a handler that misbehaves, the test
//! implements the generated trait itself; dispatch, validation tables and
//! policies are the generated ones.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use toolc_example::toolset::agents;
use toolc_example::toolset::toolboxes::{meetings, support};
use toolc_example::toolset::types::{MeetingList, OperatorScope, OperatorScopeTier, Ticket};
use toolc_runtime::{
    AuthLevel, CallContext, Caller, ErrorKind, HandlerError, ToolContext, ToolResult, Verbatim,
};

const CUSTOMER: &str = "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e";

fn support_ctx(id: &str) -> CallContext {
    CallContext::new("call").with_caller(
        Caller::new(id)
            .with_auth(AuthLevel::User)
            .with_role("support"),
    )
}

fn scope(operator: &str) -> OperatorScope {
    OperatorScope {
        operator: operator.into(),
        tier: OperatorScopeTier::Free,
    }
}

/// A support toolbox whose handlers misbehave on request.
#[derive(Default)]
struct Misbehaving {
    calls: AtomicUsize,
    dropped: Arc<AtomicBool>,
}

struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl support::Support for Misbehaving {
    async fn list_tickets(
        &self,
        params: support::ListTicketsParams,
        _: &ToolContext<'_, support::Scope>,
    ) -> Result<Vec<Ticket>, HandlerError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if params.limit == 13 {
            panic!("unlucky limit");
        }
        Ok(Vec::new())
    }

    async fn update_ticket(
        &self,
        _: support::UpdateTicketParams,
        _: &ToolContext<'_, support::Scope>,
    ) -> Result<Ticket, HandlerError> {
        // Never finishes within `timeout_ms: 5000`.
        let _guard = SetOnDrop(self.dropped.clone());
        tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
        Err(HandlerError::msg("unreachable"))
    }
}

fn misbehaving_desk(tb: Misbehaving) -> toolc_runtime::Agent {
    agents::SupportDesk {
        support: tb,
        orders: toolc_example::Orders,
    }
    .build()
}

/// Meetings whose list holds a blank title, which the returns schema forbids.
struct BlankTitles;

impl meetings::Meetings for BlankTitles {
    async fn list_meetings(
        &self,
        _: meetings::ListMeetingsParams,
        _: &ToolContext<'_, meetings::Scope>,
    ) -> Result<MeetingList, HandlerError> {
        Ok(MeetingList {
            meetings: vec!["Standup".into(), "   ".into()],
        })
    }

    async fn whoami(
        &self,
        ctx: &ToolContext<'_, meetings::Scope>,
    ) -> Result<Verbatim<OperatorScope>, HandlerError> {
        Ok(ctx.require_scope()?.clone().into())
    }
}

/// Meetings whose `whoami` (`validate_returns: false`) adds a key `OperatorScope` does not
/// declare, as a tool does while its schema catches up.
struct SignedIn;

impl meetings::Meetings for SignedIn {
    async fn list_meetings(
        &self,
        _: meetings::ListMeetingsParams,
        _: &ToolContext<'_, meetings::Scope>,
    ) -> Result<MeetingList, HandlerError> {
        Ok(MeetingList { meetings: vec![] })
    }

    async fn whoami(
        &self,
        ctx: &ToolContext<'_, meetings::Scope>,
    ) -> Result<Verbatim<OperatorScope>, HandlerError> {
        Ok(Verbatim::new(ctx.require_scope()?.clone()).with_key("signed_in_via", "sso"))
    }
}

#[tokio::test]
async fn rule_1_arguments_are_parsed_once_and_never_coerced() {
    let tb = Misbehaving::default();
    let agent = misbehaving_desk(tb);
    let ctx = support_ctx("ada");
    for args in [
        "",
        "null",
        "[]",
        "{\"customerId\": 1",
        r#"{"customerId": "x", "customerId": "y"}"#,
        "{}",
    ] {
        let err = agent
            .call("list_tickets", args, &ctx)
            .await
            .expect_err(args);
        assert_eq!(err.kind(), ErrorKind::ArgumentsInvalid, "{args}: {err}");
        assert!(!err.retryable());
    }
    let err = agent
        .call(
            "list_tickets",
            r#"{"customerId": "nope", "status": "lost", "limit": 0}"#,
            &ctx,
        )
        .await
        .expect_err("three violations");
    let pointers: Vec<&str> = err
        .violations()
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(pointers.len(), 3, "{pointers:?}");
    for p in ["/customerId", "/status", "/limit"] {
        assert!(pointers.contains(&p), "{pointers:?}");
    }
}

#[tokio::test]
async fn rule_1_the_handler_is_not_invoked_on_invalid_arguments() {
    let tb = Arc::new(Misbehaving::default());
    struct Shared(Arc<Misbehaving>);
    impl support::Support for Shared {
        async fn list_tickets(
            &self,
            p: support::ListTicketsParams,
            c: &ToolContext<'_, support::Scope>,
        ) -> Result<Vec<Ticket>, HandlerError> {
            self.0.list_tickets(p, c).await
        }
        async fn update_ticket(
            &self,
            p: support::UpdateTicketParams,
            c: &ToolContext<'_, support::Scope>,
        ) -> Result<Ticket, HandlerError> {
            self.0.update_ticket(p, c).await
        }
    }
    let agent = agents::SupportDesk {
        support: Shared(tb.clone()),
        orders: toolc_example::Orders,
    }
    .build();
    let ctx = support_ctx("ada");
    let _ = agent
        .call("list_tickets", r#"{"customerId": "nope"}"#, &ctx)
        .await;
    assert_eq!(tb.calls.load(Ordering::SeqCst), 0);
    agent
        .call(
            "list_tickets",
            &json!({ "customerId": CUSTOMER }).to_string(),
            &ctx,
        )
        .await
        .expect("valid");
    assert_eq!(tb.calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn rule_2_results_are_validated_after_serialization() {
    let agent = agents::Assistant {
        meetings: BlankTitles,
        recipes: toolc_example::Recipes,
    }
    .build();
    let ctx = CallContext::new("c").with_scope(scope("ada"));
    let err = agent
        .call("list_meetings", r#"{"day": "2026-03-02"}"#, &ctx)
        .await
        .expect_err("blank title");
    assert_eq!(err.kind(), ErrorKind::OutputInvalid);
    assert!(
        err.to_string()
            .starts_with("tool 'list_meetings' output violated its returns schema: "),
        "{err}"
    );
    assert_eq!(err.violations()[0].pointer, "/meetings/1");
    assert!(
        std::error::Error::source(&err).is_some(),
        "violations are the source"
    );
}

#[tokio::test]
async fn rule_2_validate_returns_false_passes_the_value_verbatim() {
    // `whoami` has `validate_returns: false`: a scope whose login breaks the
    // schema's pattern comes back as it is.
    let agent = toolc_example::assistant();
    let ctx = CallContext::new("c").with_scope(scope("Not A Login"));
    let v = agent.call("whoami", "{}", &ctx).await.expect("verbatim");
    assert_eq!(v, json!({"operator": "Not A Login", "tier": "free"}));
}

#[tokio::test]
async fn rule_2_keys_the_schema_does_not_declare_reach_the_caller() {
    let agent = agents::Assistant {
        meetings: SignedIn,
        recipes: toolc_example::Recipes,
    }
    .build();
    let ctx = CallContext::new("c").with_scope(scope("ada"));
    let v = agent.call("whoami", "{}", &ctx).await.expect("verbatim");
    assert_eq!(
        v,
        json!({"operator": "ada", "tier": "free", "signed_in_via": "sso"})
    );
    let text = agent
        .call_json("whoami", "{}", &ctx)
        .await
        .expect("verbatim");
    assert_eq!(
        text.get(),
        r#"{"operator":"ada","tier":"free","signed_in_via":"sso"}"#
    );
    // Over MCP it is listed without an `outputSchema`, so its result is sent as text, with no
    // `structuredContent` a client would check against one.
    let server = toolc_mcp::McpServer::new(agent);
    let listed = server.tools();
    let whoami = listed.iter().find(|t| t.name == "whoami").expect("listed");
    assert!(whoami.output_schema.is_none(), "{whoami:?}");
    let list_meetings = listed.iter().find(|t| t.name == "list_meetings").unwrap();
    assert!(list_meetings.output_schema.is_some());
}

#[tokio::test]
async fn rule_3_a_handler_error_passes_through_and_a_panic_is_contained() {
    let agent = toolc_example::support_desk();
    let ctx = support_ctx("ada");
    let err = agent
        .call("update_ticket", r#"{"id": "T-9"}"#, &ctx)
        .await
        .expect_err("no such ticket");
    assert_eq!(err.kind(), ErrorKind::Handler);
    assert_eq!(
        err.downcast_ref::<toolc_example::TicketNotFound>(),
        Some(&toolc_example::TicketNotFound("T-9".into()))
    );

    let agent = misbehaving_desk(Misbehaving::default());
    let args = json!({ "customerId": CUSTOMER, "limit": 13 }).to_string();
    let err = agent
        .call("list_tickets", &args, &ctx)
        .await
        .expect_err("panics");
    assert_eq!(err.kind(), ErrorKind::Panicked);
    assert!(!err.to_string().contains("stack backtrace"));
    // The agent serves on.
    let ok = json!({ "customerId": CUSTOMER }).to_string();
    assert_eq!(
        agent
            .call("list_tickets", &ok, &ctx)
            .await
            .expect("serves on"),
        json!([])
    );
}

#[tokio::test]
async fn rule_4_auth_and_roles_are_checked_before_the_handler() {
    let agent = toolc_example::support_desk();
    let args = json!({ "customerId": CUSTOMER }).to_string();
    for ctx in [
        CallContext::new("anonymous"),
        CallContext::new("no-role").with_caller(Caller::new("bob").with_auth(AuthLevel::User)),
        CallContext::new("role-only").with_caller(Caller::new("eve").with_role("support")),
    ] {
        let err = agent
            .call("list_tickets", &args, &ctx)
            .await
            .expect_err("forbidden");
        assert_eq!(err.kind(), ErrorKind::Forbidden, "{}", ctx.call_id());
        assert!(!err.retryable());
    }
    // An admin holding one of the listed roles passes.
    let admin = CallContext::new("admin").with_caller(
        Caller::new("root")
            .with_auth(AuthLevel::Admin)
            .with_role("admin"),
    );
    agent
        .call("update_ticket", r#"{"id": "T-1"}"#, &admin)
        .await
        .expect("admin may");
}

#[tokio::test]
async fn rule_4_rate_limit_per_caller_and_tool() {
    // update_ticket: 30/min.
    let agent = toolc_example::support_desk();
    let ada = support_ctx("ada");
    for i in 0..30 {
        agent
            .call("update_ticket", r#"{"id": "T-1"}"#, &ada)
            .await
            .unwrap_or_else(|e| panic!("call {i}: {e}"));
    }
    // The allowance refills one call every two seconds: on a slow machine a
    // call or two more may pass before the limit bites.
    let mut limited = None;
    for _ in 0..10 {
        if let Err(e) = agent.call("update_ticket", r#"{"id": "T-1"}"#, &ada).await {
            limited = Some(e);
            break;
        }
    }
    let err = limited.expect("rate limited after the allowance");
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    assert!(err.retryable());
    let wait = err.retry_after().expect("retry-after");
    assert!(
        wait > std::time::Duration::ZERO && wait <= std::time::Duration::from_secs(60),
        "{wait:?}"
    );
    // Another caller, and another tool, have their own allowance.
    agent
        .call("update_ticket", r#"{"id": "T-1"}"#, &support_ctx("bob"))
        .await
        .expect("bob");
    agent
        .call(
            "list_tickets",
            &json!({ "customerId": CUSTOMER }).to_string(),
            &ada,
        )
        .await
        .expect("other tool");
}

#[tokio::test(start_paused = true)]
async fn rule_4_timeout_drops_the_handler() {
    let tb = Misbehaving::default();
    let dropped = tb.dropped.clone();
    let agent = misbehaving_desk(tb);
    let err = agent
        .call("update_ticket", r#"{"id": "T-1"}"#, &support_ctx("ada"))
        .await
        .expect_err("times out");
    assert_eq!(err.kind(), ErrorKind::Timeout);
    assert!(err.retryable());
    assert!(
        dropped.load(Ordering::SeqCst),
        "the handler's future was dropped"
    );
}

#[tokio::test]
async fn rule_5_scope_is_typed_and_its_absence_says_how_to_bind_it() {
    let agent = toolc_example::assistant();
    let v = agent
        .call(
            "whoami",
            "{}",
            &CallContext::new("c").with_scope(scope("ada")),
        )
        .await
        .expect("scoped");
    assert_eq!(v["operator"], "ada");
    let err = agent
        .call("whoami", "{}", &CallContext::new("c"))
        .await
        .expect_err("no scope");
    assert_eq!(err.kind(), ErrorKind::ScopeUnavailable);
    assert!(err.to_string().contains("with_scope"), "{err}");
    assert!(err.to_string().contains("OperatorScope"), "{err}");
}

#[tokio::test]
async fn rule_6_plays_answer_with_envelopes() {
    let agent = toolc_example::assistant();
    let ctx = CallContext::new("p");
    let cases = [
        (json!({"title": 1}), "arguments_invalid"),
        // A title with no letters slugs to "", which the returns pattern refuses.
        (
            json!({"title": "!!!", "from": "2026-03-01", "to": "2026-03-02"}),
            "output_invalid",
        ),
    ];
    for (args, kind) in cases {
        let v = agent
            .call("slug_and_span", &args.to_string(), &ctx)
            .await
            .expect("never an Err");
        assert_eq!(v["kind"], kind, "{v}");
        assert!(
            v["error"]
                .as_str()
                .is_some_and(|m| m.contains("slug_and_span")),
            "{v}"
        );
    }
    let v = agent
        .call("slug_and_span", "not json", &ctx)
        .await
        .expect("never an Err");
    assert_eq!(v["kind"], "arguments_invalid");
}

#[tokio::test]
async fn rule_7_one_closed_taxonomy() {
    assert_eq!(ErrorKind::ALL.len(), 11);
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
    let retryable: Vec<&str> = ErrorKind::ALL
        .iter()
        .filter(|k| k.retryable())
        .map(|k| k.as_str())
        .collect();
    assert_eq!(retryable, ["rate_limited", "timeout", "unavailable"]);
    let err = toolc_example::support_desk()
        .call("nope", "{}", &CallContext::new("c"))
        .await
        .expect_err("unknown");
    assert_eq!(err.kind(), ErrorKind::UnknownTool);
}

/// Captures formatted tracing output.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn rule_8_tool_results_and_call_events() {
    let buffer = Buffer::default();
    let writer = buffer.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::DEBUG)
        .finish();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let (ok, failed) = tracing::subscriber::with_default(subscriber, || {
        rt.block_on(async {
            let agent = toolc_example::support_desk();
            let ctx = support_ctx("ada");
            let ok = agent
                .call_result("lookup_order", r#"{"order_id": "A-1001"}"#, &ctx)
                .await;
            let failed = agent
                .call_result("lookup_order", r#"{"order_id": "bad"}"#, &ctx)
                .await;
            (ok, failed)
        })
    });
    let mut ok: Value = serde_json::to_value(&ok).expect("serializes");
    let duration = ok["metadata"]
        .as_object_mut()
        .and_then(|m| m.remove("duration_us"));
    assert!(duration.is_some_and(|d| d.is_u64()), "{ok}");
    assert_eq!(
        ok,
        json!({
            "ok": true,
            "value": {"order_id": "A-1001", "status": "in_transit"},
            "metadata": {"call_id": "call", "tool_kind": "tool", "attempt": 1}
        })
    );
    let failed_json: Value = serde_json::to_value(&failed).expect("serializes");
    assert_eq!(failed_json["ok"], false);
    assert_eq!(failed_json["cause"]["kind"], "validation");
    assert_eq!(failed_json["cause"]["code"], "arguments_invalid");
    assert!(failed_json["error"].is_string());
    let back: ToolResult = serde_json::from_value(failed_json).expect("round trip");
    assert!(!back.ok);

    let log = String::from_utf8(buffer.0.lock().expect("log").clone()).expect("utf-8");
    for needle in [
        "started",
        "completed",
        "failed",
        "call_id",
        "lookup_order",
        "duration",
        "result_preview",
    ] {
        assert!(log.contains(needle), "no {needle} in:\n{log}");
    }
}

#[tokio::test]
async fn strict_dialect_nulls_read_as_absent_optionals() {
    // Under openai-strict every property is required and optional ones are
    // nullable: the model sends `null` for "not given".
    let agent = toolc_example::support_desk();
    let ctx = support_ctx("ada");
    let args = json!({ "customerId": CUSTOMER, "status": null, "limit": null }).to_string();
    let v = agent
        .call("list_tickets", &args, &ctx)
        .await
        .expect("nulls accepted");
    // `limit` fell back to its default of 20: all three tickets.
    assert_eq!(v.as_array().map(Vec::len), Some(3));
    // A required property's null is still refused.
    let err = agent
        .call("list_tickets", r#"{"customerId": null}"#, &ctx)
        .await
        .expect_err("required");
    assert_eq!(err.kind(), ErrorKind::ArgumentsInvalid);
}
