//! Approvals across replicas: a call held on one replica is approved on another through the
//! Redis both share, once, by its caller only, and not after its token expired.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use toolc_runtime::store::{RedisConfig, RedisStore};
use toolc_runtime::{
    Agent, ApprovalRequest, CallContext, Caller, ErrorKind, HandlerError, PolicyStore,
    RegisteredTool, ToolResult,
};

use crate::remote::redis::{redis_url, unique_prefix};

/// One replica: its own agent and its own connection to the shared Redis.
struct Replica {
    agent: Agent,
    store: Arc<dyn PolicyStore>,
}

fn replica(url: &str, prefix: &str, runs: &Arc<AtomicUsize>) -> Replica {
    let runs = Arc::clone(runs);
    let mut agent = Agent::new("ops", "Operations.", Vec::new()).expect("an empty agent");
    agent
        .register(
            RegisteredTool::new(
                "drop_table",
                "Drop a table.",
                json!({"type": "object", "properties": {"table": {"type": "string"}}, "required": ["table"]}),
                move |args: Value, _ctx: CallContext| {
                    let runs = Arc::clone(&runs);
                    async move {
                        runs.fetch_add(1, Ordering::SeqCst);
                        Ok::<_, HandlerError>(json!({"dropped": args["table"]}))
                    }
                },
            )
            .approval(true),
        )
        .expect("registers");
    let store = RedisStore::new(RedisConfig::new(url).prefix(prefix)).expect("a valid Redis URL");
    Replica {
        agent,
        store: Arc::new(store),
    }
}

impl Replica {
    fn ctx(&self, caller: &str) -> CallContext {
        CallContext::new("call")
            .with_caller(Caller::new(caller))
            .with_store(Arc::clone(&self.store))
    }

    async fn hold(&self, caller: &str, table: &str, ttl: Duration) -> ApprovalRequest {
        let ctx = self.ctx(caller).with_approval_ttl(ttl);
        let arguments = json!({ "table": table }).to_string();
        let result = self.agent.call_result("drop_table", &arguments, &ctx).await;
        assert!(result.cause.is_none(), "{result:?}");
        result.approval.expect("held")
    }
}

#[track_caller]
fn forbidden(result: &ToolResult) {
    assert_eq!(
        result.cause.as_ref().map(|c| c.code),
        Some(ErrorKind::Forbidden),
        "{result:?}"
    );
}

#[tokio::test]
async fn approvals_are_shared_single_use_and_bound_across_replicas() {
    let Some(url) = redis_url() else { return };
    let prefix = unique_prefix("approvals");
    let runs = Arc::new(AtomicUsize::new(0));
    let one = replica(&url, &prefix, &runs);
    let two = replica(&url, &prefix, &runs);
    let minute = Duration::from_secs(60);

    // Held on one, approved on the other: once.
    let request = one.hold("ada", "orders", minute).await;
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    let approved = two.agent.approve(&request, &two.ctx("ada")).await;
    assert_eq!(
        approved.value,
        Some(json!({"dropped": "orders"})),
        "{approved:?}"
    );
    forbidden(&one.agent.approve(&request, &one.ctx("ada")).await);
    assert_eq!(runs.load(Ordering::SeqCst), 1);

    // Another caller's attempt redeems nothing, and leaves the token for its owner.
    let request = one.hold("ada", "users", minute).await;
    forbidden(&two.agent.approve(&request, &two.ctx("mallory")).await);
    assert!(one.agent.approve(&request, &one.ctx("ada")).await.ok);
    assert_eq!(runs.load(Ordering::SeqCst), 2);

    // Denied on one replica: gone on both.
    let request = one.hold("ada", "carts", minute).await;
    forbidden(&two.agent.deny(&request, &two.ctx("ada")).await);
    forbidden(&one.agent.approve(&request, &one.ctx("ada")).await);

    // Of concurrent approvals on both replicas, exactly one runs.
    let request = one.hold("ada", "sessions", minute).await;
    let (ctx_one, ctx_two) = (one.ctx("ada"), two.ctx("ada"));
    let (a, b) = tokio::join!(
        one.agent.approve(&request, &ctx_one),
        two.agent.approve(&request, &ctx_two)
    );
    assert_eq!(u8::from(a.ok) + u8::from(b.ok), 1, "{a:?} {b:?}");
    assert_eq!(runs.load(Ordering::SeqCst), 3);

    // Other arguments redeem nothing.
    let request = one.hold("ada", "logs", minute).await;
    let other = ApprovalRequest {
        arguments: json!({"table": "everything"}),
        ..request
    };
    forbidden(&two.agent.approve(&other, &two.ctx("ada")).await);
    assert_eq!(runs.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn an_approval_expires_in_redis() {
    let Some(url) = redis_url() else { return };
    let runs = Arc::new(AtomicUsize::new(0));
    let one = replica(&url, &unique_prefix("approval-ttl"), &runs);
    // Redis keeps the token for its TTL (1 ms) by Redis's own clock; the wait below is
    // many times that, so the token is gone whenever the test resumes.
    let request = one.hold("ada", "orders", Duration::from_millis(1)).await;
    assert_eq!(request.expires_in_ms, 1);
    tokio::time::sleep(Duration::from_millis(50)).await;
    forbidden(&one.agent.approve(&request, &one.ctx("ada")).await);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}
