//! A full `run_tool` call (argument text → typed parameters → handler → result value → text),
//! with validation on and off, against the floor: `serde_json::from_str` of the parameters
//! plus `serde_json::to_string` of the result.
//!
//! And the lookup a generated dispatcher makes first: the operation a call names, among the
//! 1,000 of a large toolbox, by `codegen::NameIndex` against comparing the name with each
//! descriptor's in turn, as dispatchers did before runtime API 8.
//!
//! Run with `cargo bench -p toolc-runtime --bench dispatch`.

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};
use toolc_runtime::codegen::schema::{Additional, Format, Json, Num, Schema, Types};
use toolc_runtime::{
    CallContext, HandlerError, OperationKind, ToolDescriptor,
    codegen::{Guard, NameIndex, run_tool},
};

static ID: Schema = Schema {
    types: Types::STRING,
    format: Some(Format::Uuid),
    ..Schema::ANY
};
static STATUS: Schema = Schema {
    types: Types::STRING,
    enum_values: &[
        Json::Str("open"),
        Json::Str("pending"),
        Json::Str("resolved"),
        Json::Str("closed"),
    ],
    ..Schema::ANY
};
static PRIORITY: Schema = Schema {
    types: Types::STRING,
    enum_values: &[
        Json::Str("low"),
        Json::Str("medium"),
        Json::Str("high"),
        Json::Str("urgent"),
    ],
    ..Schema::ANY
};
static LIMIT: Schema = Schema {
    types: Types::INTEGER,
    minimum: Some(Num::Int(1)),
    maximum: Some(Num::Int(100)),
    ..Schema::ANY
};
static TAG: Schema = Schema {
    types: Types::STRING,
    min_length: Some(1),
    max_length: Some(32),
    ..Schema::ANY
};
static TAGS: Schema = Schema {
    types: Types::ARRAY,
    items: Some(&TAG),
    max_items: Some(10),
    ..Schema::ANY
};
static PARAMS: Schema = Schema {
    types: Types::OBJECT,
    properties: &[
        ("customer_id", &ID),
        ("status", &STATUS),
        ("limit", &LIMIT),
        ("tags", &TAGS),
    ],
    required: &["customer_id"],
    additional_properties: Additional::Forbidden,
    ..Schema::ANY
};
static SUBJECT: Schema = Schema {
    types: Types::STRING,
    max_length: Some(200),
    ..Schema::ANY
};
static TICKET: Schema = Schema {
    types: Types::OBJECT,
    properties: &[
        ("id", &ID),
        ("subject", &SUBJECT),
        ("status", &STATUS),
        ("priority", &PRIORITY),
    ],
    required: &["id", "subject", "status", "priority"],
    additional_properties: Additional::Forbidden,
    ..Schema::ANY
};
static TICKETS: Schema = Schema {
    types: Types::ARRAY,
    items: Some(&TICKET),
    ..Schema::ANY
};
static RETURNS: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("tickets", &TICKETS)],
    required: &["tickets"],
    ..Schema::ANY
};
static ANY_OBJECT: Schema = Schema {
    types: Types::OBJECT,
    ..Schema::ANY
};

const fn descriptor(parameters: &'static Schema, validate_returns: bool) -> ToolDescriptor {
    ToolDescriptor {
        input_schema: "{}",
        returns: Some(&RETURNS),
        validate_returns,
        ..ToolDescriptor::new(
            "list_tickets",
            OperationKind::Tool,
            "Return open support tickets for a customer",
            parameters,
        )
    }
}

static VALIDATED: ToolDescriptor = descriptor(&PARAMS, true);
static UNVALIDATED: ToolDescriptor = descriptor(&ANY_OBJECT, false);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    customer_id: String,
    status: Option<String>,
    limit: Option<u32>,
    #[serde(default)]
    tags: Vec<String>,
}

#[derive(Serialize)]
struct Ticket {
    id: String,
    subject: String,
    status: &'static str,
    priority: &'static str,
}

#[derive(Serialize)]
struct Tickets {
    tickets: Vec<Ticket>,
}

fn handler(p: Params) -> Result<Tickets, HandlerError> {
    let n = p.limit.unwrap_or(3).min(3) as usize + p.tags.len().min(1);
    Ok(Tickets {
        tickets: (0..n)
            .map(|i| Ticket {
                id: p.customer_id.clone(),
                subject: format!("Ticket {i}: printer on fire"),
                status: if p.status.is_some() {
                    "pending"
                } else {
                    "open"
                },
                priority: "high",
            })
            .collect(),
    })
}

const ARGS: &str = r#"{"customer_id":"123e4567-e89b-12d3-a456-426614174000","status":"open","limit":3,"tags":["printer","urgent"]}"#;

/// Polls a future that never waits (no timeout is set) to completion.
fn ready<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = f.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

fn full_call(
    desc: &'static ToolDescriptor,
    guard: &Guard,
    ctx: &CallContext,
    args: &str,
) -> String {
    let value = ready(run_tool(desc, guard, ctx, args, |p: Params| async move {
        handler(p)
    }))
    .unwrap_or_else(|e| panic!("{e}"));
    serde_json::to_string(&value).unwrap()
}

fn bench(c: &mut Criterion) {
    let guard = Guard::new();
    let ctx = CallContext::new("bench");
    // The three produce the same JSON (key order aside).
    let floor =
        serde_json::to_string(&handler(serde_json::from_str::<Params>(ARGS).unwrap()).unwrap())
            .unwrap();
    let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
    assert_eq!(
        parse(&full_call(&VALIDATED, &guard, &ctx, ARGS)),
        parse(&floor)
    );
    assert_eq!(
        parse(&full_call(&UNVALIDATED, &guard, &ctx, ARGS)),
        parse(&floor)
    );

    let mut group = c.benchmark_group("dispatch");
    group.bench_function("floor: from_str + handler + to_string", |b| {
        b.iter(|| {
            let p: Params = serde_json::from_str(black_box(ARGS)).unwrap();
            let r = handler(p).unwrap_or_else(|_| unreachable!());
            black_box(serde_json::to_string(&r).unwrap())
        })
    });
    group.bench_function(
        "floor through Value: from_str::<Value> + deserialize + handler + to_value + to_string",
        |b| {
            b.iter(|| {
                let v: serde_json::Value = serde_json::from_str(black_box(ARGS)).unwrap();
                let p = Params::deserialize(&v).unwrap();
                let r = handler(p).unwrap_or_else(|_| unreachable!());
                let out = serde_json::to_value(&r).unwrap();
                black_box(serde_json::to_string(&out).unwrap())
            })
        },
    );
    group.bench_function("run_tool, validation on", |b| {
        b.iter(|| black_box(full_call(&VALIDATED, &guard, &ctx, black_box(ARGS))))
    });
    group.bench_function("run_tool, validation off", |b| {
        b.iter(|| black_box(full_call(&UNVALIDATED, &guard, &ctx, black_box(ARGS))))
    });
    group.finish();
}

/// A group of `n` tools named as the synthetic toolsets name theirs.
fn group(n: usize) -> &'static [ToolDescriptor] {
    let all: Vec<ToolDescriptor> = (0..n)
        .map(|i| {
            let name: &'static str = Box::leak(format!("tool_{}_{}", i % 7, i).into_boxed_str());
            ToolDescriptor::new(name, OperationKind::Tool, "", &Schema::ANY)
        })
        .collect();
    Box::leak(all.into_boxed_slice())
}

fn find_operation(c: &mut Criterion) {
    let tools = group(1000);
    let index = NameIndex::new();
    let mut group = c.benchmark_group("find_operation_of_1000");
    for (what, name) in [("middle", tools[500].name), ("last", tools[999].name)] {
        group.bench_function(format!("in order, {what}"), |b| {
            b.iter(|| black_box(tools.iter().position(|d| d.name == black_box(name))))
        });
        group.bench_function(format!("NameIndex, {what}"), |b| {
            b.iter(|| black_box(index.find(tools, black_box(name))))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench, find_operation
}
criterion_main!(benches);
