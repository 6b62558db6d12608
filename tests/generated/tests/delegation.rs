//! Delegation: an agent or a capability exposed as one tool of another agent
//! (tests/fixtures/codegen/delegation.yaml). The delegate's own contract runs around its
//! method, and every inner call runs the inner tool's contract with the original caller.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use toolc_generated_tests::delegation::agents;
use toolc_generated_tests::delegation::delegates::concierge::{
    ConciergeDelegates, FrontDeskParams,
};
use toolc_generated_tests::delegation::delegates::front_desk::{
    self, AskOrdersParams, AskOrdersReturns, FrontDeskDelegates, RefundParams, RefundReturns,
};
use toolc_generated_tests::delegation::toolboxes::notes::{self, AddNoteParams, AddNoteReturns};
use toolc_generated_tests::delegation::toolboxes::orders::{
    self, CancelOrderParams, CancelOrderReturns, LookupOrderParams, LookupOrderReturns,
    LookupOrderReturnsStatus, RefundOrderParams, RefundOrderReturns,
};
use toolc_generated_tests::delegation::types::Session;
use toolc_mcp::McpServer;
use toolc_runtime::{
    Agent, AuthLevel, CallContext, Caller, CauseKind, Delegation, ErrorKind, HandlerError,
    ToolContext, ToolError, ToolResult,
};

/// The order tools: count refunds and cancellations, and report the desk of the scope they
/// were called with.
#[derive(Default)]
struct Orders {
    refunds: Arc<AtomicUsize>,
    cancels: Arc<AtomicUsize>,
}

impl orders::Orders for Orders {
    async fn lookup_order(
        &self,
        params: LookupOrderParams,
        ctx: &ToolContext<'_, orders::Scope>,
    ) -> Result<LookupOrderReturns, HandlerError> {
        let session = ctx.require_scope()?;
        ctx.set_metadata("looked_up_at", session.desk.clone());
        Ok(LookupOrderReturns {
            order_id: params.order_id,
            status: LookupOrderReturnsStatus::Shipped,
        })
    }

    async fn refund_order(
        &self,
        _params: RefundOrderParams,
        _ctx: &ToolContext<'_, orders::Scope>,
    ) -> Result<RefundOrderReturns, HandlerError> {
        self.refunds.fetch_add(1, Ordering::SeqCst);
        Ok(RefundOrderReturns { refunded: true })
    }

    async fn cancel_order(
        &self,
        _params: CancelOrderParams,
        _ctx: &ToolContext<'_, orders::Scope>,
    ) -> Result<CancelOrderReturns, HandlerError> {
        self.cancels.fetch_add(1, Ordering::SeqCst);
        Ok(CancelOrderReturns { cancelled: true })
    }
}

struct Notes;

impl notes::Notes for Notes {
    async fn add_note(
        &self,
        params: AddNoteParams,
        _ctx: &ToolContext<'_, notes::Scope>,
    ) -> Result<AddNoteReturns, HandlerError> {
        Ok(AddNoteReturns {
            id: format!("note-{}", params.text.len()),
        })
    }
}

/// The front desk's delegates. toolc has no model loop: the implementation decides how a task
/// becomes inner calls. Here a task is `<verb> <order id>`.
#[derive(Default)]
struct FrontDesk {
    handled: Arc<AtomicUsize>,
}

impl FrontDeskDelegates for FrontDesk {
    async fn ask_orders(
        &self,
        params: AskOrdersParams,
        target: &Delegation<'_>,
        _ctx: &ToolContext<'_, front_desk::Scope>,
    ) -> Result<AskOrdersReturns, HandlerError> {
        self.handled.fetch_add(1, Ordering::SeqCst);
        let mut words = params.task.split_whitespace();
        let verb = words.next().unwrap_or_default();
        let id = words.next_back().unwrap_or_default().to_owned();
        let answer = match verb {
            "sleep" => {
                tokio::time::sleep(Duration::from_secs(5)).await;
                "woke up".to_owned()
            }
            "panic" => panic!("the delegate broke"),
            "cancel" => {
                let done: CancelOrderReturns = target
                    .call_as(
                        "cancel_order",
                        &CancelOrderParams {
                            order_id: id.clone(),
                        },
                    )
                    .await?;
                format!("{id} cancelled: {}", done.cancelled)
            }
            "refund" => {
                let done: RefundOrderReturns = target
                    .call_as(
                        "refund_order",
                        &RefundOrderParams {
                            order_id: id.clone(),
                        },
                    )
                    .await?;
                format!("{id} refunded: {}", done.refunded)
            }
            _ => {
                let found: LookupOrderReturns = target
                    .call_as("lookup_order", &LookupOrderParams { order_id: id })
                    .await?;
                format!("{} is {:?}", found.order_id, found.status)
            }
        };
        Ok(AskOrdersReturns { answer })
    }

    async fn refund(
        &self,
        params: RefundParams,
        target: &Delegation<'_>,
        _ctx: &ToolContext<'_, front_desk::Scope>,
    ) -> Result<RefundReturns, HandlerError> {
        self.handled.fetch_add(1, Ordering::SeqCst);
        let value = target
            .call("refund_order", &json!({ "order_id": params.order_id }))
            .await?;
        Ok(RefundReturns {
            refunded: value["refunded"] == json!(true),
        })
    }
}

/// The concierge passes the task on to the front desk's `ask_orders` delegate.
struct Concierge;

impl ConciergeDelegates for Concierge {
    async fn front_desk(
        &self,
        params: FrontDeskParams,
        target: &Delegation<'_>,
        _ctx: &ToolContext<'_, front_desk::Scope>,
    ) -> Result<Value, HandlerError> {
        Ok(target
            .call("ask_orders", &json!({ "task": params.task }))
            .await?)
    }
}

struct Desk {
    agent: Agent,
    refunds: Arc<AtomicUsize>,
    cancels: Arc<AtomicUsize>,
    handled: Arc<AtomicUsize>,
}

fn front_desk() -> Desk {
    let orders = Orders::default();
    let desk = FrontDesk::default();
    let (refunds, handled) = (Arc::clone(&orders.refunds), Arc::clone(&desk.handled));
    let cancels = Arc::clone(&orders.cancels);
    let agent = agents::FrontDesk {
        notes: Notes,
        orders,
        delegates: desk,
    }
    .build();
    Desk {
        agent,
        refunds,
        cancels,
        handled,
    }
}

fn session() -> Session {
    Session {
        desk: "lobby".into(),
    }
}

fn ctx(caller: Caller) -> CallContext {
    CallContext::new("call-1")
        .with_caller(caller)
        .with_scope(session())
}

fn user(roles: &[&str]) -> Caller {
    Caller::new("ada")
        .with_auth(AuthLevel::User)
        .with_roles(roles.iter().copied())
}

/// Runs `f` on a runtime with a clock, which the delegate's timeout needs.
fn run<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime")
        .block_on(f)
}

fn call(agent: &Agent, tool: &str, arguments: Value, ctx: &CallContext) -> ToolResult {
    run(agent.call_result(tool, &arguments.to_string(), ctx))
}

/// The inner error a delegate passed on with `?`.
fn inner_error(
    agent: &Agent,
    tool: &str,
    arguments: Value,
    ctx: &CallContext,
) -> (ToolError, ErrorKind) {
    let error = run(agent.call(tool, &arguments.to_string(), ctx)).expect_err("the call fails");
    let inner = error
        .downcast_ref::<ToolError>()
        .map(ToolError::kind)
        .expect("the inner error is reachable");
    (error, inner)
}

#[test]
fn delegates_are_listed_searched_and_served_like_tools() {
    let desk = front_desk();
    let names: Vec<&str> = desk.agent.tools().iter().map(|d| d.name).collect();
    assert_eq!(names, ["add_note", "ask_orders", "refund"]);

    // The default parameters: a required task, nothing else.
    let ask = desk.agent.descriptor("ask_orders").expect("listed");
    let input: Value = serde_json::from_str(ask.input_schema).expect("JSON");
    assert_eq!(input["required"], json!(["task"]));
    assert_eq!(input["properties"]["task"]["type"], "string");
    assert_eq!(input["additionalProperties"], false);
    assert_eq!(ask.policy.timeout_ms, Some(200));

    // MCP lists the delegate with the schema the dispatcher enforces.
    let server = McpServer::new(front_desk().agent);
    let listed = server
        .tools()
        .into_iter()
        .find(|t| t.name == "ask_orders")
        .expect("MCP lists the delegate");
    assert_eq!(Value::Object((*listed.input_schema).clone()), input);
    assert_eq!(
        listed.description.as_deref(),
        Some("Hand a question about orders to the orders desk, in plain words.")
    );
    assert!(listed.output_schema.is_some());

    // The compiled search index covers the delegates, in the order the agent serves them.
    assert_eq!(desk.agent.search_index_parts(), (3, 0));
    let hits = desk.agent.search_tools("refund an order", 1);
    assert_eq!(hits[0].tool.name, "refund");
}

#[test]
fn a_delegate_reaches_its_target_with_the_callers_context() {
    let desk = front_desk();
    let result = call(
        &desk.agent,
        "ask_orders",
        json!({"task": "where is A-1001"}),
        &ctx(Caller::anonymous()),
    );
    assert!(result.ok, "{result:?}");
    assert_eq!(result.value, Some(json!({"answer": "A-1001 is Shipped"})));
    // The inner tool read the scope bound to the outer call, and its metadata entry
    // reached the outer result.
    let entries = &result.metadata.expect("metadata").entries;
    assert_eq!(entries["looked_up_at"], "lobby");

    // Without a scope, the inner tool cannot read one, and the delegate call fails as a call
    // without its scope does.
    let bare = CallContext::new("call-2");
    let error = run(desk
        .agent
        .call("ask_orders", r#"{"task": "where is A-1"}"#, &bare))
    .expect_err("no scope");
    assert_eq!(error.kind(), ErrorKind::ScopeUnavailable);
}

#[test]
fn inner_policies_apply_to_the_original_caller() {
    let desk = front_desk();
    // `refund_order` needs auth `user` and role `billing`; the delegate `ask_orders` needs
    // neither, but the inner call is made as the original caller.
    for caller in [Caller::anonymous(), user(&["support"])] {
        let (error, inner) = inner_error(
            &desk.agent,
            "ask_orders",
            json!({"task": "refund A-1001"}),
            &ctx(caller),
        );
        assert_eq!(inner, ErrorKind::Forbidden);
        assert_eq!(error.kind(), ErrorKind::Handler);
        assert!(
            error.message().contains("refund_order"),
            "{}",
            error.message()
        );
    }
    assert_eq!(desk.refunds.load(Ordering::SeqCst), 0);

    let result = call(
        &desk.agent,
        "ask_orders",
        json!({"task": "refund A-1001"}),
        &ctx(user(&["billing"])),
    );
    assert!(result.ok, "{result:?}");
    assert_eq!(desk.refunds.load(Ordering::SeqCst), 1);

    // Through a capability too: the `refund` delegate calls the `orders` capability.
    let (_, inner) = inner_error(
        &desk.agent,
        "refund",
        json!({"order_id": "A-1001"}),
        &ctx(user(&[])),
    );
    assert_eq!(inner, ErrorKind::Forbidden);
    assert_eq!(desk.refunds.load(Ordering::SeqCst), 1);
}

#[test]
fn the_delegates_own_policies_run_before_its_method() {
    let desk = front_desk();
    // `refund` needs auth `user`: an anonymous caller never reaches the method.
    let result = call(
        &desk.agent,
        "refund",
        json!({"order_id": "A-1001"}),
        &ctx(Caller::anonymous()),
    );
    let cause = result.cause.expect("refused");
    assert_eq!(cause.code, ErrorKind::Forbidden);
    assert_eq!(desk.handled.load(Ordering::SeqCst), 0);

    // `rate_limit: 2/min`, per caller: the third call is refused.
    let billing = ctx(user(&["billing"]));
    for _ in 0..2 {
        let result = call(
            &desk.agent,
            "refund",
            json!({"order_id": "A-1001"}),
            &billing,
        );
        assert!(result.ok, "{result:?}");
    }
    let result = call(
        &desk.agent,
        "refund",
        json!({"order_id": "A-1001"}),
        &billing,
    );
    assert_eq!(result.cause.expect("limited").code, ErrorKind::RateLimited);
    assert_eq!(desk.refunds.load(Ordering::SeqCst), 2);
}

#[test]
fn the_delegates_parameters_are_validated() {
    let desk = front_desk();
    let anyone = ctx(Caller::anonymous());
    for arguments in [
        json!({}),
        json!({"task": 5}),
        json!({"task": "where is A-1", "extra": true}),
    ] {
        let result = call(&desk.agent, "ask_orders", arguments.clone(), &anyone);
        let cause = result.cause.expect("refused");
        assert_eq!(cause.code, ErrorKind::ArgumentsInvalid, "{arguments}");
        assert_eq!(cause.kind, CauseKind::Validation);
    }
    // A declared schema: `refund`'s order id has a pattern.
    let result = call(
        &desk.agent,
        "refund",
        json!({"order_id": "not an id"}),
        &ctx(user(&["billing"])),
    );
    let cause = result.cause.expect("refused");
    assert_eq!(cause.code, ErrorKind::ArgumentsInvalid);
    assert_eq!(cause.violations[0].pointer, "/order_id");
    assert_eq!(desk.handled.load(Ordering::SeqCst), 0);
}

#[test]
fn inner_arguments_are_validated_and_blamed_on_the_delegate() {
    let desk = front_desk();
    // The delegate was called correctly; the order id it passed on breaks the inner pattern.
    let result = call(
        &desk.agent,
        "ask_orders",
        json!({"task": "where is a-1"}),
        &ctx(Caller::anonymous()),
    );
    let cause = result.cause.expect("failed");
    assert_eq!(cause.code, ErrorKind::Handler);
    assert_eq!(cause.kind, CauseKind::Runtime);
    assert!(cause.message.contains("/order_id"), "{}", cause.message);
    let (_, inner) = inner_error(
        &desk.agent,
        "ask_orders",
        json!({"task": "where is a-1"}),
        &ctx(Caller::anonymous()),
    );
    assert_eq!(inner, ErrorKind::ArgumentsInvalid);
}

#[test]
fn the_delegate_times_out_and_contains_panics() {
    let desk = front_desk();
    let anyone = ctx(Caller::anonymous());
    let result = call(
        &desk.agent,
        "ask_orders",
        json!({"task": "sleep now"}),
        &anyone,
    );
    let cause = result.cause.expect("timed out");
    assert_eq!(cause.code, ErrorKind::Timeout);
    assert!(cause.message.contains("200 ms"), "{}", cause.message);

    let result = call(
        &desk.agent,
        "ask_orders",
        json!({"task": "panic now"}),
        &anyone,
    );
    assert_eq!(result.cause.expect("panicked").code, ErrorKind::Panicked);
    // The agent lives on.
    let result = call(
        &desk.agent,
        "ask_orders",
        json!({"task": "where is A-7"}),
        &anyone,
    );
    assert!(result.ok, "{result:?}");
}

#[test]
fn delegation_nests_and_shares_one_implementation_per_trait() {
    let orders = Orders::default();
    let refunds = Arc::clone(&orders.refunds);
    let agent = agents::Concierge {
        notes: Notes,
        orders,
        delegates: Concierge,
        front_desk_delegates: FrontDesk::default(),
    }
    .build();
    let names: Vec<&str> = agent.tools().iter().map(|d| d.name).collect();
    assert_eq!(names, ["add_note", "front_desk"]);

    // concierge → front desk (`ask_orders`) → orders desk (`lookup_order`).
    let result = call(
        &agent,
        "front_desk",
        json!({"task": "where is A-9"}),
        &ctx(Caller::anonymous()),
    );
    assert!(result.ok, "{result:?}");
    assert_eq!(result.value, Some(json!({"answer": "A-9 is Shipped"})));

    // Two levels down, the inner tool still sees the original caller.
    let result = call(
        &agent,
        "front_desk",
        json!({"task": "refund A-9"}),
        &ctx(user(&[])),
    );
    assert!(!result.ok);
    assert_eq!(refunds.load(Ordering::SeqCst), 0);
    let result = call(
        &agent,
        "front_desk",
        json!({"task": "refund A-9"}),
        &ctx(user(&["billing"])),
    );
    assert!(result.ok, "{result:?}");
    assert_eq!(refunds.load(Ordering::SeqCst), 1);
}

#[test]
fn an_inner_tool_that_needs_approval_is_held_through_its_delegate() {
    let desk = front_desk();
    let ctx = ctx(user(&[]));
    let cancel = json!({"task": "cancel A-1001"});
    // The delegate call is held, not failed: the request names the inner tool, its arguments
    // and the delegate the host called.
    let held = call(&desk.agent, "ask_orders", cancel.clone(), &ctx);
    assert!(!held.ok);
    let request = held.approval.clone().expect("the delegate call is held");
    assert_eq!(request.tool, "cancel_order");
    assert_eq!(request.arguments, json!({"order_id": "A-1001"}));
    assert_eq!(request.delegates, ["ask_orders"]);
    assert_eq!(request.delegate_arguments, Some(cancel.clone()));
    assert!(
        request.message.contains("'cancel_order'") && request.message.contains("'ask_orders'"),
        "{}",
        request.message
    );
    assert_eq!(desk.cancels.load(Ordering::SeqCst), 0);
    let error = run(desk.agent.call("ask_orders", &cancel.to_string(), &ctx)).expect_err("held");
    assert_eq!(error.kind(), ErrorKind::ApprovalRequired);
    assert_eq!(
        error.approval().map(|r| r.delegates.as_slice()),
        Some(["ask_orders".to_owned()].as_slice())
    );

    // Approved: the delegate runs again and the inner tool redeems the token, once.
    let done = run(desk.agent.approve(&request, &ctx));
    assert!(done.ok, "{done:?}");
    assert_eq!(
        done.value,
        Some(json!({"answer": "A-1001 cancelled: true"}))
    );
    assert_eq!(desk.cancels.load(Ordering::SeqCst), 1);
    let again = run(desk.agent.approve(&request, &ctx));
    assert!(again.approval.is_none() && !again.ok, "{again:?}");
    assert_eq!(desk.cancels.load(Ordering::SeqCst), 1);

    // Another caller's token redeems nothing.
    let held = call(&desk.agent, "ask_orders", cancel.clone(), &ctx);
    let request = held.approval.expect("held");
    let other = CallContext::new("call-9")
        .with_caller(Caller::new("bob").with_auth(AuthLevel::User))
        .with_scope(session());
    let stolen = run(desk.agent.approve(&request, &other));
    assert!(!stolen.ok && stolen.approval.is_none(), "{stolen:?}");
    assert_eq!(desk.cancels.load(Ordering::SeqCst), 1);

    // Denied: the inner tool never runs.
    let denied = run(desk.agent.deny(&request, &ctx));
    assert!(!denied.ok && denied.approval.is_none(), "{denied:?}");
    assert_eq!(desk.cancels.load(Ordering::SeqCst), 1);
}

#[test]
fn approval_is_reachable_through_two_delegates() {
    let orders = Orders::default();
    let cancels = Arc::clone(&orders.cancels);
    let agent = agents::Concierge {
        notes: Notes,
        orders,
        delegates: Concierge,
        front_desk_delegates: FrontDesk::default(),
    }
    .build();
    let ctx = ctx(user(&[]));
    // concierge → front desk (`ask_orders`) → orders desk (`cancel_order`): the host called
    // `front_desk`, so that is the delegate it resumes.
    let held = call(&agent, "front_desk", json!({"task": "cancel A-9"}), &ctx);
    let request = held.approval.expect("held through both delegates");
    assert_eq!(request.tool, "cancel_order");
    assert_eq!(request.delegates, ["front_desk", "ask_orders"]);
    assert!(
        request.message.contains("'front_desk'") && request.message.contains("'ask_orders'"),
        "{}",
        request.message
    );
    assert_eq!(cancels.load(Ordering::SeqCst), 0);
    let done = run(agent.approve(&request, &ctx));
    assert!(done.ok, "{done:?}");
    assert_eq!(cancels.load(Ordering::SeqCst), 1);
}
