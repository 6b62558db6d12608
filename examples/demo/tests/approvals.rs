//! Approvals through generated code: `cancel_order` is annotated `destructive: true` and
//! manifests/toolc.toml says `[policy] approve_destructive = true`, so every call waits for a
//! person; `update_ticket`, destructive too, opts out with `approval: none`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolc_example::Orders;
use toolc_example::toolset::toolboxes::orders::{self, OrdersToolbox};
use toolc_runtime::store::ManualClock;
use toolc_runtime::{
    ApprovalRequest, AuthLevel, CallContext, Caller, ErrorKind, MemoryStore, PolicyStore,
    ToolResult, Toolbox,
};

const CANCEL: &str = r#"{"order_id": "A-1001", "reason": "Ordered twice"}"#;

fn caller(id: &str) -> CallContext {
    CallContext::new(format!("call-{id}")).with_caller(
        Caller::new(id)
            .with_auth(AuthLevel::User)
            .with_role("support"),
    )
}

#[track_caller]
fn held(result: &ToolResult) -> ApprovalRequest {
    assert!(!result.ok, "{result:?}");
    assert!(
        result.cause.is_none() && result.error.is_none(),
        "{result:?}"
    );
    result.approval.clone().expect("held for approval")
}

#[track_caller]
fn forbidden(result: &ToolResult, says: &str) {
    assert_eq!(
        result.cause.as_ref().map(|c| c.code),
        Some(ErrorKind::Forbidden),
        "{result:?}"
    );
    let error = result.error.as_deref().unwrap_or_default();
    assert!(error.contains(says), "{error}");
}

#[test]
fn the_config_switch_reaches_the_descriptors() {
    assert!(orders::DESCRIPTORS[1].policy.approval, "cancel_order");
    assert!(!orders::DESCRIPTORS[0].policy.approval, "lookup_order");
    let agent = toolc_example::support_desk();
    let update = agent.descriptor("update_ticket").expect("listed");
    assert!(
        update.annotations_json()["destructiveHint"] == json!(true) && !update.policy.approval,
        "update_ticket says `approval: none`"
    );
}

#[tokio::test]
async fn a_cancellation_runs_once_a_person_approves_it() {
    let agent = toolc_example::support_desk();
    let ctx = caller("ada");
    let result = agent.call_result("cancel_order", CANCEL, &ctx).await;
    let request = held(&result);
    assert_eq!(request.tool, "cancel_order");
    assert_eq!(
        request.arguments,
        json!({"order_id": "A-1001", "reason": "Ordered twice"})
    );
    let approved = agent.approve(&request, &ctx).await;
    assert!(approved.ok, "{approved:?}");
    assert_eq!(
        approved.value,
        Some(json!({"order_id": "A-1001", "cancelled": true}))
    );
    // The handler ran: its metadata entry is in the result.
    let entries = &approved.metadata.as_ref().expect("metadata").entries;
    assert_eq!(entries.get("reason"), Some(&json!("Ordered twice")));
    // Used once.
    forbidden(
        &agent.approve(&request, &ctx).await,
        "its approval token is not valid for this call",
    );
    // A destructive tool that opts out runs at once.
    let updated = agent
        .call_result(
            "update_ticket",
            r#"{"id": "T-1", "status": "resolved"}"#,
            &ctx,
        )
        .await;
    assert!(updated.ok, "{updated:?}");
}

#[tokio::test]
async fn denied_foreign_and_altered_approvals_run_nothing() {
    let agent = toolc_example::support_desk();
    let ada = caller("ada");

    let request = held(&agent.call_result("cancel_order", CANCEL, &ada).await);
    forbidden(
        &agent.deny(&request, &ada).await,
        "a person denied the approval it needs",
    );
    forbidden(
        &agent.approve(&request, &ada).await,
        "its approval token is not valid for this call",
    );

    // Another caller's token redeems nothing, and stays its owner's.
    let request = held(&agent.call_result("cancel_order", CANCEL, &ada).await);
    forbidden(
        &agent.approve(&request, &caller("mallory")).await,
        "its approval token is not valid for this call",
    );
    assert!(agent.approve(&request, &ada).await.ok);

    // Another order: refused.
    let request = held(&agent.call_result("cancel_order", CANCEL, &ada).await);
    let altered = ApprovalRequest {
        arguments: json!({"order_id": "A-1002"}),
        ..request.clone()
    };
    forbidden(
        &agent.approve(&altered, &ada).await,
        "its approval was given for other arguments",
    );

    // Another tool: a tool that needs no approval ignores the token; it is still the
    // cancellation's until redeemed.
    let request = held(&agent.call_result("cancel_order", CANCEL, &ada).await);
    let elsewhere = ApprovalRequest {
        tool: "lookup_order".to_owned(),
        arguments: json!({"order_id": "A-1001"}),
        ..request.clone()
    };
    let looked_up = agent.approve(&elsewhere, &ada).await;
    assert_eq!(
        looked_up.value,
        Some(json!({"order_id": "A-1001", "status": "in_transit"}))
    );
    assert!(agent.approve(&request, &ada).await.ok);
}

#[tokio::test]
async fn an_approval_expires() {
    let clock = Arc::new(ManualClock::new());
    let store: Arc<dyn PolicyStore> = Arc::new(MemoryStore::with_clock(clock.clone()));
    let agent = toolc_example::support_desk();
    let ctx = caller("ada")
        .with_store(store)
        .with_approval_ttl(Duration::from_secs(300));
    let request = held(&agent.call_result("cancel_order", CANCEL, &ctx).await);
    assert_eq!(request.expires_in_ms, 300_000);
    clock.advance(Duration::from_secs(301));
    forbidden(
        &agent.approve(&request, &ctx).await,
        "its approval token is not valid for this call",
    );
}

#[tokio::test]
async fn the_generated_toolbox_holds_and_resumes_without_an_agent() {
    let toolbox = OrdersToolbox::new(Orders);
    let ctx = caller("ada");
    let error = toolbox
        .call("cancel_order", r#"{"order_id": "A-1002"}"#, &ctx)
        .await
        .expect_err("held");
    assert_eq!(error.kind(), ErrorKind::ApprovalRequired);
    let request = error.approval().expect("the held call");
    let resumed = ctx.clone().with_approval(&request.token);
    let value = toolbox
        .call("cancel_order", &request.arguments.to_string(), &resumed)
        .await
        .expect("approved");
    // A-1002 was delivered: nothing to cancel.
    assert_eq!(value, json!({"order_id": "A-1002", "cancelled": false}));
    let again = toolbox
        .call("cancel_order", &request.arguments.to_string(), &resumed)
        .await
        .expect_err("used");
    assert_eq!(again.kind(), ErrorKind::Forbidden);
}
