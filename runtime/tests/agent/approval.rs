//! Approvals: a held call runs only once a person approves it, with the token it was issued,
//! for the tool, arguments and caller it was issued for, once, before it expires.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use toolc_runtime::store::{Clock, ManualClock};
use toolc_runtime::{
    Agent, ApprovalDecision, ApprovalRequest, AuthLevel, BoxFuture, CallContext, Caller, ErrorKind,
    HandlerError, MemoryStore, PolicyStore, RateDecision, RateLimit, RegisteredTool, StoreError,
    ToolResult,
};

use super::agent;

/// `cancel` needs approval; it counts the calls that reached it and echoes their arguments.
fn cancel(name: &str, runs: Arc<AtomicUsize>) -> RegisteredTool {
    RegisteredTool::new(
        name,
        "Cancel an order.",
        json!({
            "type": "object",
            "properties": {
                "order": {"type": "string", "pattern": "^A-[0-9]+$"},
                "copies": {"type": "integer", "minimum": 1}
            },
            "required": ["order"],
            "additionalProperties": false
        }),
        move |args: Value, _ctx: CallContext| {
            let runs = Arc::clone(&runs);
            async move {
                runs.fetch_add(1, Ordering::SeqCst);
                Ok::<_, HandlerError>(json!({"cancelled": args}))
            }
        },
    )
    .returns(json!({"type": "object", "required": ["cancelled"]}))
    .auth(AuthLevel::User)
    .approval(true)
}

struct Lab {
    agent: Agent,
    runs: Arc<AtomicUsize>,
    clock: Arc<ManualClock>,
    store: Arc<dyn PolicyStore>,
}

impl Lab {
    fn new() -> Lab {
        let runs = Arc::new(AtomicUsize::new(0));
        let mut agent = agent();
        agent
            .register(cancel("cancel", Arc::clone(&runs)))
            .expect("registers");
        agent
            .register(cancel("cancel_other", Arc::clone(&runs)))
            .expect("registers");
        let clock = Arc::new(ManualClock::new());
        let store: Arc<dyn PolicyStore> = Arc::new(MemoryStore::with_clock(clock.clone()));
        Lab {
            agent,
            runs,
            clock,
            store,
        }
    }

    /// A call of `caller` (a user), keeping its state in the lab's store.
    fn ctx(&self, caller: &str) -> CallContext {
        CallContext::new(format!("call-{caller}"))
            .with_caller(Caller::new(caller).with_auth(AuthLevel::User))
            .with_store(Arc::clone(&self.store))
    }

    fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }

    /// Calls `cancel` as `caller` and returns the held call.
    async fn hold(&self, caller: &str, arguments: &str) -> ApprovalRequest {
        let result = self
            .agent
            .call_result("cancel", arguments, &self.ctx(caller))
            .await;
        held(&result)
    }
}

#[track_caller]
fn held(result: &ToolResult) -> ApprovalRequest {
    assert!(!result.ok, "{result:?}");
    assert_eq!(
        result.error, None,
        "a held call is not a failure: {result:?}"
    );
    assert_eq!(
        result.cause, None,
        "a held call is not a failure: {result:?}"
    );
    result.approval.clone().expect("the call is held")
}

#[track_caller]
fn forbidden(result: &ToolResult, says: &str) {
    assert!(!result.ok, "{result:?}");
    assert_eq!(result.approval, None, "{result:?}");
    let cause = result.cause.as_ref().expect("a failure has a cause");
    assert_eq!(cause.code, ErrorKind::Forbidden, "{result:?}");
    assert!(!cause.retryable);
    let error = result.error.as_deref().unwrap_or_default();
    assert!(error.contains(says), "{error}");
}

#[tokio::test]
async fn a_held_call_runs_once_approved() {
    let lab = Lab::new();
    let ctx = lab.ctx("ada");
    // `2.0` is the integer 2: the request shows the arguments as the handler will get them.
    let result = lab
        .agent
        .call_result("cancel", r#"{"order": "A-1", "copies": 2.0}"#, &ctx)
        .await;
    let request = held(&result);
    assert_eq!(lab.runs(), 0, "the handler waits for the approval");
    assert_eq!(request.tool, "cancel");
    assert_eq!(request.arguments, json!({"order": "A-1", "copies": 2}));
    assert_eq!(request.expires_in_ms, 600_000);
    assert_eq!(request.token.len(), 64);
    assert!(request.token.bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(
        request
            .message
            .starts_with("tool 'cancel' needs a person's approval before it runs"),
        "{}",
        request.message
    );
    let metadata = result.metadata.as_ref().expect("metadata");
    assert_eq!(metadata.call_id, "call-ada");
    // The JSON a host sees: `ok: false`, `approval`, and neither `error` nor `cause`.
    let value = result.to_value();
    assert_eq!(value["ok"], false);
    assert_eq!(value["approval"]["tool"], "cancel");
    assert!(value.get("error").is_none() && value.get("cause").is_none());

    let approved = lab.agent.approve(&request, &ctx).await;
    assert!(approved.ok, "{approved:?}");
    assert_eq!(
        approved.value,
        Some(json!({"cancelled": {"order": "A-1", "copies": 2}}))
    );
    assert_eq!(lab.runs(), 1);
}

#[tokio::test]
async fn a_denied_call_never_runs_and_its_token_is_gone() {
    let lab = Lab::new();
    let ctx = lab.ctx("ada");
    let request = lab.hold("ada", r#"{"order": "A-2"}"#).await;
    let denied = lab.agent.deny(&request, &ctx).await;
    forbidden(&denied, "a person denied the approval it needs");
    assert_eq!(
        denied.error.as_deref(),
        Some("tool 'cancel' was not run: a person denied the approval it needs")
    );
    let late = lab.agent.approve(&request, &ctx).await;
    forbidden(&late, "its approval token is not valid for this call");
    assert_eq!(lab.runs(), 0);
}

#[tokio::test]
async fn a_token_is_used_once() {
    let lab = Lab::new();
    let ctx = lab.ctx("ada");
    let request = lab.hold("ada", r#"{"order": "A-3"}"#).await;
    assert!(lab.agent.approve(&request, &ctx).await.ok);
    let replayed = lab.agent.approve(&request, &ctx).await;
    forbidden(&replayed, "its approval token is not valid for this call");
    assert_eq!(lab.runs(), 1);

    // Of two approvals at once, one runs.
    let request = lab.hold("ada", r#"{"order": "A-4"}"#).await;
    let (a, b) = tokio::join!(
        lab.agent.approve(&request, &ctx),
        lab.agent.approve(&request, &ctx)
    );
    assert_eq!(u8::from(a.ok) + u8::from(b.ok), 1, "{a:?} {b:?}");
    assert_eq!(lab.runs(), 2);
}

#[tokio::test]
async fn another_callers_token_redeems_nothing_and_stays_valid() {
    let lab = Lab::new();
    let request = lab.hold("ada", r#"{"order": "A-5"}"#).await;
    let stolen = lab.agent.approve(&request, &lab.ctx("mallory")).await;
    forbidden(&stolen, "its approval token is not valid for this call");
    let withdrawn = lab.agent.deny(&request, &lab.ctx("mallory")).await;
    forbidden(&withdrawn, "denied");
    assert_eq!(lab.runs(), 0);
    // Neither attempt spent it: its owner still can.
    let approved = lab.agent.approve(&request, &lab.ctx("ada")).await;
    assert!(approved.ok, "{approved:?}");
    assert_eq!(lab.runs(), 1);
}

#[tokio::test]
async fn a_token_holds_for_its_tool_and_arguments_only() {
    let lab = Lab::new();
    let ctx = lab.ctx("ada");
    let request = lab.hold("ada", r#"{"order": "A-6"}"#).await;

    // Another tool that needs approval: nothing is redeemed, and the token stays.
    let other_tool = ApprovalRequest {
        tool: "cancel_other".to_owned(),
        ..request.clone()
    };
    forbidden(
        &lab.agent.approve(&other_tool, &ctx).await,
        "its approval token is not valid for this call",
    );
    // A tool that needs no approval ignores the token and runs as always.
    let greet = ApprovalRequest {
        tool: "greet".to_owned(),
        arguments: json!({"name": "Ada"}),
        ..request.clone()
    };
    assert!(lab.agent.approve(&greet, &ctx).await.ok);
    assert_eq!(lab.runs(), 0);

    // Other arguments: refused, and the token is used up.
    let other_arguments = ApprovalRequest {
        arguments: json!({"order": "A-7"}),
        ..request.clone()
    };
    forbidden(
        &lab.agent.approve(&other_arguments, &ctx).await,
        "its approval was given for other arguments",
    );
    forbidden(
        &lab.agent.approve(&request, &ctx).await,
        "its approval token is not valid for this call",
    );
    assert_eq!(lab.runs(), 0);

    // Arguments the schema refuses never reach the token.
    let request = lab.hold("ada", r#"{"order": "A-8"}"#).await;
    let invalid = ApprovalRequest {
        arguments: json!({"order": "B-8"}),
        ..request.clone()
    };
    let result = lab.agent.approve(&invalid, &ctx).await;
    assert_eq!(
        result.cause.map(|c| c.code),
        Some(ErrorKind::ArgumentsInvalid)
    );
    assert!(lab.agent.approve(&request, &ctx).await.ok);
    // A token that is not one of ours is refused before the store is asked.
    let forged = ApprovalRequest {
        token: "x".repeat(64),
        ..request
    };
    forbidden(
        &lab.agent.approve(&forged, &ctx).await,
        "its approval token is not valid for this call",
    );
    assert_eq!(lab.runs(), 1);
}

#[tokio::test]
async fn a_token_expires() {
    let lab = Lab::new();
    let ctx = lab.ctx("ada").with_approval_ttl(Duration::from_secs(60));
    let result = lab
        .agent
        .call_result("cancel", r#"{"order": "A-9"}"#, &ctx)
        .await;
    let late = held(&result);
    assert_eq!(late.expires_in_ms, 60_000);
    lab.clock.advance(Duration::from_secs(30));
    let result = lab
        .agent
        .call_result("cancel", r#"{"order": "A-10"}"#, &ctx)
        .await;
    let early = held(&result);
    lab.clock.advance(Duration::from_secs(31));
    assert_eq!(lab.clock.elapsed(), Duration::from_secs(61));
    forbidden(
        &lab.agent.approve(&late, &ctx).await,
        "its approval token is not valid for this call",
    );
    let approved = lab.agent.approve(&early, &ctx).await;
    assert!(approved.ok, "29 s left: {approved:?}");
    assert_eq!(lab.runs(), 1);
}

#[tokio::test]
async fn a_caller_the_policy_forbids_or_bad_arguments_get_no_token() {
    let lab = Lab::new();
    let anonymous = CallContext::new("anon").with_store(Arc::clone(&lab.store));
    let result = lab
        .agent
        .call_result("cancel", r#"{"order": "A-11"}"#, &anonymous)
        .await;
    forbidden(&result, "requires auth level 'user'");
    let result = lab
        .agent
        .call_result("cancel", r#"{"order": 11}"#, &lab.ctx("ada"))
        .await;
    assert_eq!(result.approval, None);
    assert_eq!(
        result.cause.map(|c| c.code),
        Some(ErrorKind::ArgumentsInvalid)
    );
}

#[tokio::test]
async fn the_rate_limit_counts_calls_that_run() {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut lab = Lab::new();
    lab.agent
        .register(
            cancel("cancel_hourly", Arc::clone(&runs)).rate_limit(RateLimit {
                count: 1,
                period_secs: 3600,
            }),
        )
        .expect("registers");
    let ctx = lab.ctx("ada").with_approval_ttl(Duration::from_secs(7200));
    let mut requests = Vec::new();
    for order in ["A-12", "A-13"] {
        let arguments = json!({ "order": order }).to_string();
        let result = lab
            .agent
            .call_result("cancel_hourly", &arguments, &ctx)
            .await;
        requests.push(held(&result));
    }
    assert!(lab.agent.approve(&requests[0], &ctx).await.ok);
    let limited = lab.agent.approve(&requests[1], &ctx).await;
    assert_eq!(
        limited.cause.as_ref().map(|c| c.code),
        Some(ErrorKind::RateLimited),
        "{limited:?}"
    );
    // Refused before the token was redeemed: it still holds once the allowance is back.
    lab.clock.advance(Duration::from_secs(3600));
    assert!(lab.agent.approve(&requests[1], &ctx).await.ok);
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn call_answers_the_held_call_as_an_approval_required_error() {
    let lab = Lab::new();
    let ctx = lab.ctx("ada");
    let error = lab
        .agent
        .call("cancel", r#"{"order": "A-14"}"#, &ctx)
        .await
        .expect_err("held, not run");
    assert_eq!(error.kind(), ErrorKind::ApprovalRequired);
    assert!(!error.retryable());
    let request = error.approval().expect("the held call").clone();
    assert_eq!(error.message(), request.message);
    // The token is the host's: it is not in the error's Debug text.
    assert!(!format!("{error:?}").contains(&request.token));
    // The context carries the decision; the agent's `approve` is that call.
    let resumed = ctx.clone().with_approval(&request.token);
    assert_eq!(
        resumed.approval(),
        Some((request.token.as_str(), ApprovalDecision::Approve))
    );
    assert!(!format!("{resumed:?}").contains(&request.token));
    let value = lab
        .agent
        .call("cancel", &request.arguments.to_string(), &resumed)
        .await
        .expect("approved");
    assert_eq!(value, json!({"cancelled": {"order": "A-14"}}));
}

/// A store that never answers.
struct Down;

impl PolicyStore for Down {
    fn check_rate<'a>(
        &'a self,
        _key: &'a str,
        _limit: RateLimit,
    ) -> BoxFuture<'a, Result<RateDecision, StoreError>> {
        Box::pin(async { Err(StoreError::new("down")) })
    }
    fn put_if_absent<'a>(
        &'a self,
        _key: &'a str,
        _value: &'a [u8],
        _ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async { Err(StoreError::new("down")) })
    }
    fn take<'a>(&'a self, _key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>> {
        Box::pin(async { Err(StoreError::new("down")) })
    }
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async { Err(StoreError::new("down")) })
    }
    fn describe(&self) -> String {
        "down".to_owned()
    }
}

#[tokio::test]
async fn a_store_that_does_not_answer_fails_closed() {
    let lab = Lab::new();
    let ctx = lab.ctx("ada").with_store(Arc::new(Down));
    let result = lab
        .agent
        .call_result("cancel", r#"{"order": "A-15"}"#, &ctx)
        .await;
    assert_eq!(result.approval, None);
    let cause = result.cause.expect("a failure");
    assert_eq!(cause.code, ErrorKind::Unavailable);
    assert!(cause.retryable);
    let request = lab.hold("ada", r#"{"order": "A-15"}"#).await;
    let result = lab.agent.approve(&request, &ctx).await;
    assert_eq!(result.cause.map(|c| c.code), Some(ErrorKind::Unavailable));
    assert_eq!(lab.runs(), 0);
}
