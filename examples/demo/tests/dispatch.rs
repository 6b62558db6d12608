//! Calls every example tool and play through the generated dispatch.

use serde_json::{Value, json};
use toolc_example::toolset::types::{OperatorScope, OperatorScopeTier};
use toolc_runtime::{AuthLevel, CallContext, Caller, ErrorKind};

fn support_caller() -> CallContext {
    CallContext::new("test-call").with_caller(
        Caller::new("ada")
            .with_auth(AuthLevel::User)
            .with_role("support"),
    )
}

async fn ok(agent: &toolc_runtime::Agent, tool: &str, args: Value, ctx: &CallContext) -> Value {
    match agent.call(tool, &args.to_string(), ctx).await {
        Ok(v) => v,
        Err(e) => panic!("{tool}: {e}"),
    }
}

#[tokio::test]
async fn meetings_tools_and_play() {
    let agent = toolc_example::assistant();
    let scope = OperatorScope {
        operator: "ada".into(),
        tier: OperatorScopeTier::Pro,
    };
    let ctx = CallContext::new("c1").with_scope(scope);
    assert_eq!(
        ok(&agent, "list_meetings", json!({"day": "2026-03-02"}), &ctx).await,
        json!({"meetings": ["Standup", "Planning"]})
    );
    assert_eq!(
        ok(&agent, "list_meetings", json!({"day": "2026-03-03"}), &ctx).await,
        json!({"meetings": []})
    );
    assert_eq!(
        ok(&agent, "whoami", json!({}), &ctx).await,
        json!({"operator": "ada", "tier": "pro"})
    );
    // The play answers through the same agent.
    assert_eq!(
        ok(
            &agent,
            "slug_and_span",
            json!({"title": "Launch Plan", "from": "2026-03-01", "to": "2026-03-15"}),
            &ctx
        )
        .await,
        json!({"slug": "launch-plan", "days": 14.0})
    );
}

#[tokio::test]
async fn whoami_without_a_scope_says_how_to_bind_one() {
    let agent = toolc_example::assistant();
    let err = agent
        .call("whoami", "{}", &CallContext::new("c2"))
        .await
        .expect_err("no scope bound");
    // `require_scope()?` keeps its kind through the handler.
    assert_eq!(err.kind(), ErrorKind::ScopeUnavailable);
    assert!(err.to_string().contains("with_scope"), "{err}");
}

#[tokio::test]
async fn support_and_orders_tools() {
    let agent = toolc_example::support_desk();
    let ctx = support_caller();
    let tickets = ok(
        &agent,
        "list_tickets",
        json!({"customerId": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e", "status": "open", "limit": 1}),
        &ctx,
    )
    .await;
    assert_eq!(
        tickets,
        json!([{"id": "T-1", "subject": "Cannot log in", "status": "open", "priority": "high"}])
    );
    // `limit` defaults to 20: every ticket comes back.
    let all = ok(
        &agent,
        "list_tickets",
        json!({"customerId": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e"}),
        &ctx,
    )
    .await;
    assert_eq!(all.as_array().map(Vec::len), Some(3));
    let updated = ok(
        &agent,
        "update_ticket",
        json!({"id": "T-2", "status": "resolved", "priority": "urgent"}),
        &ctx,
    )
    .await;
    assert_eq!(updated["status"], "resolved");
    assert_eq!(updated["priority"], "urgent");
    assert_eq!(
        ok(&agent, "lookup_order", json!({"order_id": "A-1001"}), &ctx).await,
        json!({"order_id": "A-1001", "status": "in_transit"})
    );
}

#[tokio::test]
async fn the_contract_holds_through_generated_code() {
    let agent = toolc_example::support_desk();
    let ctx = support_caller();
    // Invalid arguments never reach the handler: every violation is listed.
    let err = agent
        .call(
            "list_tickets",
            r#"{"customerId": "not-a-uuid", "limit": 500}"#,
            &ctx,
        )
        .await
        .expect_err("invalid");
    assert_eq!(err.kind(), ErrorKind::ArgumentsInvalid);
    let pointers: Vec<&str> = err
        .violations()
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert!(
        pointers.contains(&"/customerId") && pointers.contains(&"/limit"),
        "{pointers:?}"
    );
    // The pattern in the TOML manifest is enforced too.
    let err = agent
        .call("lookup_order", r#"{"order_id": "nope"}"#, &ctx)
        .await
        .expect_err("pattern");
    assert_eq!(err.kind(), ErrorKind::ArgumentsInvalid);
    // Policies: an anonymous caller is forbidden, a caller without the role too.
    let err = agent
        .call(
            "list_tickets",
            r#"{"customerId": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e"}"#,
            &CallContext::new("anon"),
        )
        .await
        .expect_err("forbidden");
    assert_eq!(err.kind(), ErrorKind::Forbidden);
    let no_role = CallContext::new("x").with_caller(Caller::new("bob").with_auth(AuthLevel::User));
    let err = agent
        .call("update_ticket", r#"{"id": "T-1"}"#, &no_role)
        .await
        .expect_err("forbidden by role");
    assert_eq!(err.kind(), ErrorKind::Forbidden);
    // A handler's own error passes through and downcasts.
    let err = agent
        .call("update_ticket", r#"{"id": "T-404"}"#, &ctx)
        .await
        .expect_err("not found");
    assert_eq!(err.kind(), ErrorKind::Handler);
    assert_eq!(
        err.downcast_ref::<toolc_example::TicketNotFound>(),
        Some(&toolc_example::TicketNotFound("T-404".into()))
    );
    // Unknown tools are their own kind.
    let err = agent
        .call("no_such_tool", "{}", &ctx)
        .await
        .expect_err("unknown");
    assert_eq!(err.kind(), ErrorKind::UnknownTool);
}

#[tokio::test]
async fn plays_answer_with_an_envelope_never_an_error() {
    let agent = toolc_example::assistant();
    let ctx = CallContext::new("p");
    let envelope = ok(&agent, "slug_and_span", json!({"title": "x"}), &ctx).await;
    assert_eq!(envelope["kind"], "arguments_invalid", "{envelope}");
    assert!(envelope["error"].is_string());
    let envelope = ok(
        &agent,
        "slug_and_span",
        json!({"title": "x", "from": "2026-13-01", "to": "2026-01-01"}),
        &ctx,
    )
    .await;
    assert_eq!(envelope["kind"], "arguments_invalid", "{envelope}");
}

#[test]
fn the_agents_list_their_tools_and_manuals() {
    let names: Vec<&str> = toolc_example::support_desk()
        .tools()
        .iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(names, ["list_tickets", "update_ticket", "lookup_order"]);
    let assistant = toolc_example::assistant();
    let names: Vec<&str> = assistant.tools().iter().map(|d| d.name).collect();
    assert_eq!(names, ["list_meetings", "whoami", "slug_and_span"]);
    assert!(
        assistant
            .instructions()
            .contains("Use list_meetings to see the day's schedule")
    );
}

#[test]
fn search_finds_generated_tools_by_what_they_do() {
    let agent = toolc_example::support_desk();
    let top = |q: &str| agent.search_tools(q, 3).first().map(|h| h.tool.name);
    assert_eq!(top("where is my order"), Some("lookup_order"));
    assert_eq!(top("open tickets of a customer"), Some("list_tickets"));
    assert_eq!(
        top("change the priority of a ticket"),
        Some("update_ticket")
    );
    assert_eq!(top("lookupOrder"), Some("lookup_order"));
    assert!(agent.search_tools("", 3).is_empty());
}

#[tokio::test]
async fn a_generated_agent_takes_registered_tools_under_the_same_contract() {
    use toolc_runtime::{AgentError, HandlerError, RegisteredTool};

    let mut agent = toolc_example::support_desk();
    let handler = |args: Value, _: CallContext| async move {
        Ok::<_, HandlerError>(json!({"order_id": args["order_id"], "eta_days": 2}))
    };
    let schema = json!({
        "type": "object",
        "properties": {"order_id": {"type": "string", "pattern": "^A-[0-9]+$"}},
        "required": ["order_id"]
    });
    // A generated tool's name is taken: never shadowed.
    let taken = agent
        .register(RegisteredTool::new(
            "lookup_order",
            "",
            schema.clone(),
            handler,
        ))
        .expect_err("taken");
    assert!(
        matches!(taken, AgentError::NameTaken { ref existing, .. } if existing.contains("toolbox 'orders'")),
        "{taken}"
    );
    agent
        .register(
            RegisteredTool::new("order_eta", "Days until an order arrives.", schema, handler)
                .auth(AuthLevel::User),
        )
        .expect("registers");
    let ctx = support_caller();
    assert_eq!(
        ok(&agent, "order_eta", json!({"order_id": "A-1001"}), &ctx).await,
        json!({"order_id": "A-1001", "eta_days": 2})
    );
    let err = agent
        .call("order_eta", r#"{"order_id": "B-1"}"#, &ctx)
        .await
        .expect_err("pattern");
    assert_eq!(err.kind(), ErrorKind::ArgumentsInvalid);
    let err = agent
        .call(
            "order_eta",
            r#"{"order_id": "A-1"}"#,
            &CallContext::new("anon"),
        )
        .await
        .expect_err("auth");
    assert_eq!(err.kind(), ErrorKind::Forbidden);
    assert_eq!(
        agent.search_tools("when will my order arrive", 1)[0]
            .tool
            .name,
        "order_eta"
    );
}
