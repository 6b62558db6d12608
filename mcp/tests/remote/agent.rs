//! The agent the HTTP tests serve: tools that show who called, tools with policies, a tool
//! rate limited to 30 a minute, and one that takes as long as it is told.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use toolc_runtime::codegen::schema::{Schema, Types};
use toolc_runtime::{
    Agent, AuthLevel, BoxFuture, CallContext, Capability, HandlerError, OperationKind, Policy,
    RateLimit, ToolDescriptor, ToolError, Toolbox,
    codegen::{Guard, NoParams, run_tool},
};

static OBJECT: Schema = Schema {
    types: Types::OBJECT,
    ..Schema::ANY
};
static PASSWORD: Schema = Schema {
    types: Types::STRING,
    sensitive: true,
    ..Schema::ANY
};
/// `whoami` takes anything, and its `password` is sensitive (masked in the access log).
static WHOAMI: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("password", &PASSWORD)],
    ..Schema::ANY
};

const fn tool(name: &'static str, policy: Policy) -> ToolDescriptor {
    ToolDescriptor {
        name,
        kind: OperationKind::Tool,
        title: None,
        description: "a remote test tool",
        input_schema: "{\"type\":\"object\"}",
        output_schema: None,
        parameters: &OBJECT,
        returns: None,
        validate_returns: true,
        terminal: false,
        deprecated: false,
        policy,
        annotations: "{}",
        icons: None,
        meta: None,
    }
}

pub static TOOLS: [ToolDescriptor; 5] = [
    ToolDescriptor {
        parameters: &WHOAMI,
        ..tool("whoami", Policy::NONE)
    },
    tool(
        "support_only",
        Policy {
            auth: AuthLevel::User,
            roles: &["support"],
            ..Policy::NONE
        },
    ),
    tool(
        "admin_only",
        Policy {
            auth: AuthLevel::Admin,
            ..Policy::NONE
        },
    ),
    tool(
        "limited",
        Policy {
            rate_limit: Some(RateLimit {
                count: 30,
                period_secs: 60,
            }),
            ..Policy::NONE
        },
    ),
    tool("wait", Policy::NONE),
];

#[derive(Deserialize)]
struct WaitParams {
    ms: u64,
}

/// Counts what ran, for tests that check a call reached (or never reached) its handler.
#[derive(Default)]
pub struct Counters {
    pub started: AtomicUsize,
    pub finished: AtomicUsize,
}

pub struct Remote {
    guard: Guard,
    counters: Arc<Counters>,
}

impl Toolbox for Remote {
    fn name(&self) -> &'static str {
        "remote"
    }

    fn descriptors(&self) -> &'static [ToolDescriptor] {
        &TOOLS
    }

    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: &'a str,
        ctx: &'a CallContext,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            let g = &self.guard;
            let Some(i) = TOOLS.iter().position(|d| d.name == tool) else {
                return Err(ToolError::unknown_tool(tool));
            };
            if tool == "wait" {
                let counters = Arc::clone(&self.counters);
                return run_tool(
                    &TOOLS[i],
                    g,
                    ctx,
                    arguments,
                    move |p: WaitParams| async move {
                        counters.started.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(p.ms)).await;
                        counters.finished.fetch_add(1, Ordering::SeqCst);
                        Ok::<_, HandlerError>(json!({"waited_ms": p.ms}))
                    },
                )
                .await;
            }
            let caller = ctx.caller().clone();
            run_tool(
                &TOOLS[i],
                g,
                ctx,
                arguments,
                move |_: NoParams| async move {
                    Ok::<_, HandlerError>(json!({
                        "id": caller.id,
                        "auth": caller.auth.as_str(),
                        "roles": caller.roles,
                    }))
                },
            )
            .await
        })
    }
}

/// The agent, and the counters of its `wait` tool.
pub fn agent() -> (Agent, Arc<Counters>) {
    let counters = Arc::new(Counters::default());
    let toolbox = Remote {
        guard: Guard::new(),
        counters: Arc::clone(&counters),
    };
    let agent = Agent::new(
        "remote",
        "Tools for the remote serving tests",
        vec![Capability {
            name: "remote",
            description: "remote tools",
            manual: None,
            toolbox: Some(Arc::new(toolbox)),
            playbook: None,
        }],
    )
    .expect("the remote test agent has unique tool names");
    (agent, counters)
}
