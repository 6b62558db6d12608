//! A hand-written toolbox and playbook shaped like generated code: static schemas and
//! descriptors, and `Toolbox::call` / `Playbook::call` matching on the name and calling
//! `run_tool` / `run_play`.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolc_runtime::codegen::schema::{Additional, Format, Num, Schema, Types};
use toolc_runtime::{
    AuthLevel, BoxFuture, CallContext, HandlerError, OperationKind, Playbook, Policy, RateLimit,
    ToolContext, ToolDescriptor, ToolError, Toolbox,
    codegen::{Guard, NoParams, run_play, run_tool, unknown_play},
};

pub static STRING: Schema = Schema {
    types: Types::STRING,
    ..Schema::ANY
};
pub static NAME: Schema = Schema {
    types: Types::STRING,
    min_length: Some(1),
    max_length: Some(20),
    ..Schema::ANY
};
pub static COUNT: Schema = Schema {
    types: Types::INTEGER,
    minimum: Some(Num::Int(0)),
    maximum: Some(Num::Int(10)),
    ..Schema::ANY
};
pub static GREET_PARAMS: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("name", &NAME), ("count", &COUNT)],
    required: &["name"],
    additional_properties: Additional::Forbidden,
    ..Schema::ANY
};
pub static GREETING: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("greeting", &STRING)],
    required: &["greeting"],
    additional_properties: Additional::Forbidden,
    ..Schema::ANY
};
pub static EMPTY_PARAMS: Schema = Schema {
    types: Types::OBJECT,
    ..Schema::ANY
};
/// Permissive on purpose: the Rust type (`u8`) is stricter than the schema.
pub static LOOSE_PARAMS: Schema = Schema {
    types: Types::OBJECT,
    ..Schema::ANY
};
pub static DAY: Schema = Schema {
    types: Types::STRING,
    format: Some(Format::Date),
    ..Schema::ANY
};
pub static OPERATOR: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("operator", &STRING)],
    required: &["operator"],
    ..Schema::ANY
};

const fn tool(
    name: &'static str,
    parameters: &'static Schema,
    returns: Option<&'static Schema>,
) -> ToolDescriptor {
    ToolDescriptor {
        returns,
        ..ToolDescriptor::new(name, OperationKind::Tool, "a test tool", parameters)
    }
}

const fn with_policy(mut d: ToolDescriptor, policy: Policy) -> ToolDescriptor {
    d.policy = policy;
    d
}

const fn unchecked(mut d: ToolDescriptor) -> ToolDescriptor {
    d.validate_returns = false;
    d
}

const fn play(mut d: ToolDescriptor) -> ToolDescriptor {
    d.kind = OperationKind::Play;
    d
}

pub static TOOLS: [ToolDescriptor; 15] = [
    tool("greet", &GREET_PARAMS, Some(&GREETING)),
    tool("fail", &EMPTY_PARAMS, None),
    tool("boom", &EMPTY_PARAMS, None),
    tool("bad_output", &EMPTY_PARAMS, Some(&GREETING)),
    unchecked(tool("unchecked_output", &EMPTY_PARAMS, Some(&GREETING))),
    with_policy(
        tool("admin_only", &EMPTY_PARAMS, None),
        Policy {
            auth: AuthLevel::Admin,
            ..Policy::NONE
        },
    ),
    with_policy(
        tool("support_only", &EMPTY_PARAMS, None),
        Policy {
            auth: AuthLevel::User,
            roles: &["support", "billing"],
            ..Policy::NONE
        },
    ),
    with_policy(
        tool("limited", &EMPTY_PARAMS, None),
        Policy {
            rate_limit: Some(RateLimit {
                count: 2,
                period_secs: 3600,
            }),
            ..Policy::NONE
        },
    ),
    with_policy(
        tool("slow", &EMPTY_PARAMS, None),
        Policy {
            timeout_ms: Some(50),
            ..Policy::NONE
        },
    ),
    tool("whoami", &EMPTY_PARAMS, Some(&OPERATOR)),
    tool("day", &EMPTY_PARAMS, Some(&DAY)),
    tool("small", &LOOSE_PARAMS, None),
    tool("big", &EMPTY_PARAMS, None),
    with_policy(
        tool("limited_admin", &EMPTY_PARAMS, None),
        Policy {
            auth: AuthLevel::Admin,
            rate_limit: Some(RateLimit {
                count: 1,
                period_secs: 3600,
            }),
            ..Policy::NONE
        },
    ),
    with_policy(
        tool("held", &EMPTY_PARAMS, None),
        Policy {
            approval: true,
            ..Policy::NONE
        },
    ),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GreetParams {
    pub name: String,
    pub count: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct Greeting {
    pub greeting: String,
}

#[derive(Debug, Deserialize)]
pub struct FailParams {
    #[serde(default)]
    pub how: String,
}

#[derive(Debug, Deserialize)]
pub struct SmallParams {
    pub n: u8,
    #[serde(default)]
    pub list: Vec<u8>,
}

#[derive(Debug, Deserialize)]
pub struct DayParams {
    pub year: u32,
    pub month: u32,
    pub day: u32,
}

/// Serializes as `"YYYY-MM-DD"` without checking that the date exists.
pub struct Day(pub u32, pub u32, pub u32);

impl Serialize for Day {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:04}-{:02}-{:02}", self.0, self.1, self.2))
    }
}

/// The scope a host binds.
#[derive(Debug, Clone, Serialize)]
pub struct Operator {
    pub operator: String,
}

/// A handler error of its own type.
#[derive(Debug, PartialEq)]
pub struct OutOfStock {
    pub sku: String,
}

impl std::fmt::Display for OutOfStock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is out of stock", self.sku)
    }
}

impl std::error::Error for OutOfStock {}

/// Sets its flag when dropped.
pub struct DropFlag(pub Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[derive(Default)]
pub struct Demo {
    pub invocations: AtomicUsize,
    pub slow_dropped: Arc<AtomicBool>,
    pub slow_finished: Arc<AtomicBool>,
}

impl Demo {
    async fn greet(
        &self,
        p: GreetParams,
        _cx: &ToolContext<'_, Operator>,
    ) -> Result<Greeting, HandlerError> {
        self.invocations.fetch_add(1, Ordering::SeqCst);
        let n = p.count.unwrap_or(1) as usize;
        Ok(Greeting {
            greeting: format!("hello {}", p.name).repeat(n),
        })
    }

    async fn fail(&self, p: FailParams) -> Result<Value, HandlerError> {
        self.invocations.fetch_add(1, Ordering::SeqCst);
        match p.how.as_str() {
            "msg" => Err(HandlerError::msg("plain message")),
            "io" => {
                let read: Result<Value, std::io::Error> = Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such file",
                ));
                Ok(read?)
            }
            _ => {
                let stock: Result<Value, OutOfStock> = Err(OutOfStock { sku: "A-1".into() });
                Ok(stock?)
            }
        }
    }

    async fn boom(&self) -> Result<Value, HandlerError> {
        self.invocations.fetch_add(1, Ordering::SeqCst);
        panic!("handler blew up")
    }

    async fn slow(&self) -> Result<Value, HandlerError> {
        let _flag = DropFlag(Arc::clone(&self.slow_dropped));
        tokio::time::sleep(Duration::from_secs(10)).await;
        self.slow_finished.store(true, Ordering::SeqCst);
        Ok(json!("finished"))
    }

    async fn whoami(&self, cx: &ToolContext<'_, Operator>) -> Result<Operator, HandlerError> {
        let scope = cx.require_scope()?;
        Ok(scope.clone())
    }
}

pub struct DemoToolbox {
    pub inner: Demo,
    pub guard: Guard,
}

impl DemoToolbox {
    pub fn new() -> DemoToolbox {
        DemoToolbox {
            inner: Demo::default(),
            guard: Guard::new(),
        }
    }
}

impl Toolbox for DemoToolbox {
    fn name(&self) -> &'static str {
        "demo"
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
            let cx = ToolContext::<Operator>::new(ctx);
            let g = &self.guard;
            match tool {
                "greet" => run_tool(&TOOLS[0], g, ctx, arguments, move |p: GreetParams| async move {
                    self.inner.greet(p, &cx).await
                })
                .await,
                "fail" => run_tool(&TOOLS[1], g, ctx, arguments, move |p: FailParams| async move {
                    self.inner.fail(p).await
                })
                .await,
                "boom" => run_tool(&TOOLS[2], g, ctx, arguments, move |_: NoParams| async move {
                    self.inner.boom().await
                })
                .await,
                "bad_output" => run_tool(&TOOLS[3], g, ctx, arguments, move |_: NoParams| async move {
                    Ok::<_, HandlerError>(json!({ "greeting": 5, "extra": true }))
                })
                .await,
                "unchecked_output" => run_tool(&TOOLS[4], g, ctx, arguments, move |_: NoParams| async move {
                    Ok::<_, HandlerError>(json!({ "greeting": 5, "extra": true }))
                })
                .await,
                "admin_only" | "support_only" | "limited" | "limited_admin" | "held" => {
                    let i = TOOLS.iter().position(|d| d.name == tool).unwrap_or(0);
                    run_tool(&TOOLS[i], g, ctx, arguments, move |_: NoParams| async move {
                        self.inner.invocations.fetch_add(1, Ordering::SeqCst);
                        Ok::<_, HandlerError>(json!("ok"))
                    })
                    .await
                }
                "slow" => run_tool(&TOOLS[8], g, ctx, arguments, move |_: NoParams| async move {
                    self.inner.slow().await
                })
                .await,
                "whoami" => run_tool(&TOOLS[9], g, ctx, arguments, move |_: NoParams| async move {
                    self.inner.whoami(&cx).await
                })
                .await,
                "day" => run_tool(&TOOLS[10], g, ctx, arguments, move |p: DayParams| async move {
                    Ok::<_, HandlerError>(Day(p.year, p.month, p.day))
                })
                .await,
                "small" => run_tool(&TOOLS[11], g, ctx, arguments, move |p: SmallParams| async move {
                    Ok::<_, HandlerError>(json!(p.n as usize + p.list.len()))
                })
                .await,
                "big" => run_tool(&TOOLS[12], g, ctx, arguments, move |_: NoParams| async move {
                    Ok::<_, HandlerError>(json!({ "blob": "x".repeat(1 << 20), "items": (0..5000).collect::<Vec<_>>() }))
                })
                .await,
                _ => Err(ToolError::unknown_tool(tool)),
            }
        })
    }
}

pub static SLUG_PARAMS: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("title", &NAME)],
    required: &["title"],
    ..Schema::ANY
};
pub static SLUG_RETURNS: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("slug", &STRING)],
    required: &["slug"],
    ..Schema::ANY
};

pub static PLAYS: [ToolDescriptor; 4] = [
    play(tool("slug", &SLUG_PARAMS, Some(&SLUG_RETURNS))),
    play(tool("slug_broken", &SLUG_PARAMS, Some(&SLUG_RETURNS))),
    play(tool("slug_fails", &SLUG_PARAMS, Some(&SLUG_RETURNS))),
    play(tool("slug_panics", &SLUG_PARAMS, Some(&SLUG_RETURNS))),
];

#[derive(Debug, Deserialize)]
pub struct SlugParams {
    pub title: String,
}

pub struct Recipes;

impl Playbook for Recipes {
    fn name(&self) -> &'static str {
        "recipes"
    }

    fn descriptors(&self) -> &'static [ToolDescriptor] {
        &PLAYS
    }

    fn call<'a>(
        &'a self,
        play: &'a str,
        arguments: &'a str,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            match play {
                "slug" => {
                    run_play(&PLAYS[0], arguments, |p: SlugParams| async move {
                        Ok::<_, HandlerError>(
                            json!({ "slug": p.title.to_lowercase().replace(' ', "-") }),
                        )
                    })
                    .await
                }
                "slug_broken" => {
                    run_play(&PLAYS[1], arguments, |p: SlugParams| async move {
                        Ok::<_, HandlerError>(json!({ "slug": p.title.len() }))
                    })
                    .await
                }
                "slug_fails" => {
                    run_play(&PLAYS[2], arguments, |_: SlugParams| async move {
                        Err::<Value, _>(HandlerError::from(OutOfStock { sku: "slug".into() }))
                    })
                    .await
                }
                "slug_panics" => {
                    run_play(&PLAYS[3], arguments, |_: SlugParams| async move {
                        if true {
                            panic!("play blew up");
                        }
                        Ok::<Value, HandlerError>(Value::Null)
                    })
                    .await
                }
                _ => Err(unknown_play(play)),
            }
        })
    }
}

/// A current-thread Tokio runtime with timers, as hosts have.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a tokio runtime")
}

/// A policy store that never answers, as a Redis that is down.
pub struct DownStore;

impl toolc_runtime::PolicyStore for DownStore {
    fn check_rate<'a>(
        &'a self,
        _key: &'a str,
        _limit: RateLimit,
    ) -> BoxFuture<'a, Result<toolc_runtime::RateDecision, toolc_runtime::StoreError>> {
        Box::pin(std::future::ready(Err(self.error())))
    }

    fn put_if_absent<'a>(
        &'a self,
        _key: &'a str,
        _value: &'a [u8],
        _ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, toolc_runtime::StoreError>> {
        Box::pin(std::future::ready(Err(self.error())))
    }

    fn take<'a>(
        &'a self,
        _key: &'a str,
    ) -> BoxFuture<'a, Result<Option<Vec<u8>>, toolc_runtime::StoreError>> {
        Box::pin(std::future::ready(Err(self.error())))
    }

    fn ping(&self) -> BoxFuture<'_, Result<(), toolc_runtime::StoreError>> {
        Box::pin(std::future::ready(Err(self.error())))
    }

    fn describe(&self) -> String {
        "redis at 10.9.8.7:6379".to_owned()
    }
}

impl DownStore {
    fn error(&self) -> toolc_runtime::StoreError {
        toolc_runtime::StoreError::new("redis at 10.9.8.7:6379 did not answer within 500 ms")
    }
}
