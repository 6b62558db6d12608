//! `Agent::search_tools` on the synthetic agent of `tests/data/search_purposes.json`: 1,000
//! tools, and 10,000 (the same tools in ten namespaces), queried with its 100 paraphrases;
//! with the index a generated agent carries (static tables built at compile time, searched as
//! they are) beside the index an agent builds at run time, and what each costs before the
//! first answer.
//!
//! Run with `cargo bench -p toolc-runtime --bench search`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use toolc_runtime::{
    Agent, BoxFuture, CallContext, Capability, HandlerError, RegisteredTool, ToolDescriptor,
    ToolError, Toolbox,
};
use toolc_search::IndexRef;

#[path = "../tests/agent/synthetic.rs"]
mod synthetic;

const NAMESPACES: [&str; 10] = [
    "crm", "billing", "support", "hr", "ops", "sales", "retail", "travel", "media", "labs",
];

/// The synthetic tools' descriptors, made once through registration.
fn descriptors(data: &Value, namespaces: &[&str]) -> &'static [ToolDescriptor] {
    let mut a = Agent::new("synthetic", "", Vec::new()).expect("empty agent");
    for (name, description, schema) in synthetic::synthetic_tools(data, namespaces) {
        a.register(RegisteredTool::new(
            name,
            description,
            schema,
            |_: Value, _: CallContext| async { Ok::<_, HandlerError>(Value::Null) },
        ))
        .expect("registers");
    }
    let copies: Vec<ToolDescriptor> = a.tools().into_iter().copied().collect();
    Box::leak(copies.into_boxed_slice())
}

/// A toolbox of those descriptors, as a generated one is (only searched here).
struct Synthetic(&'static [ToolDescriptor]);

impl Toolbox for Synthetic {
    fn name(&self) -> &'static str {
        "synthetic"
    }
    fn descriptors(&self) -> &'static [ToolDescriptor] {
        self.0
    }
    fn call<'a>(
        &'a self,
        tool: &'a str,
        _: &'a str,
        _: &'a CallContext,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move { Err(ToolError::unknown_tool(tool)) })
    }
}

/// What `toolc build` writes into the generated code for these tools: the index of their
/// documents, as static tables.
fn compiled_index(tools: &[ToolDescriptor]) -> &'static IndexRef<'static> {
    let mut b = toolc_search::Builder::new();
    for d in tools {
        b.add(&toolc_search::Document::tool(
            d.name,
            d.title,
            d.description,
            d.input_schema,
        ));
    }
    let index: &'static toolc_search::Index = Box::leak(Box::new(b.finish()));
    let (names, name_ends, lengths, terms, term_ends, posting_ends, docs, counts) = index.tables();
    Box::leak(Box::new(IndexRef::from_static(
        toolc_search::VERSION,
        names,
        name_ends,
        lengths,
        terms,
        term_ends,
        posting_ends,
        docs,
        counts,
    )))
}

/// The agent a generated constructor makes: its toolbox, and the compiled index or none.
fn agent(toolbox: &Arc<dyn Toolbox>, index: Option<&'static IndexRef<'static>>) -> Agent {
    let agent = Agent::new(
        "synthetic",
        "",
        vec![Capability {
            name: "synthetic",
            description: "",
            manual: None,
            toolbox: Some(Arc::clone(toolbox)),
            playbook: None,
        }],
    )
    .expect("agent");
    match index {
        Some(index) => agent.with_search_index(index),
        None => agent,
    }
}

fn search(c: &mut Criterion) {
    let data: Value =
        serde_json::from_str(include_str!("../tests/data/search_purposes.json")).expect("data");
    let queries: Vec<String> = data["queries"]
        .as_array()
        .expect("queries")
        .iter()
        .map(|q| q[0].as_str().expect("query").to_owned())
        .collect();
    let sets = [("1000_tools", &[][..]), ("10000_tools", &NAMESPACES[..])];
    let mut group = c.benchmark_group("search_tools");
    for (label, namespaces) in sets {
        let tools = descriptors(&data, namespaces);
        let toolbox: Arc<dyn Toolbox> = Arc::new(Synthetic(tools));
        let index = compiled_index(tools);
        let compiled = agent(&toolbox, Some(index));
        let built = agent(&toolbox, None);
        let _ = built.search_tools("warm the index", 5);
        assert_eq!(compiled.search_index_parts(), (tools.len(), 0));
        assert_eq!(built.search_index_parts(), (0, tools.len()));
        // One iteration is all 100 queries: divide by 100 for one query.
        group.bench_function(format!("{label}_100_queries_k5_static_index"), |b| {
            b.iter(|| {
                for q in &queries {
                    black_box(compiled.search_tools(black_box(q), 5));
                }
            })
        });
        group.bench_function(
            format!("{label}_100_queries_k5_index_built_at_run_time"),
            |b| {
                b.iter(|| {
                    for q in &queries {
                        black_box(built.search_tools(black_box(q), 5));
                    }
                })
            },
        );
        // The baseline: no index, each query's words looked for in every tool's lowercased
        // name and description (substring tests), the 5 best counts kept.
        let texts: Vec<String> = tools
            .iter()
            .map(|d| format!("{} {}", d.name, d.description).to_lowercase())
            .collect();
        group.bench_function(format!("{label}_100_queries_linear_scan_baseline"), |b| {
            b.iter(|| {
                for q in &queries {
                    let words: Vec<String> = q.split_whitespace().map(str::to_lowercase).collect();
                    let mut counts: Vec<(usize, usize)> = texts
                        .iter()
                        .map(|t| words.iter().filter(|w| t.contains(w.as_str())).count())
                        .enumerate()
                        .collect();
                    counts.sort_unstable_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
                    counts.truncate(5);
                    black_box(counts);
                }
            })
        });
    }
    group.finish();

    // From a fresh agent to its first answer: what a generated agent pays (constructor,
    // the compiled tables checked, one search) beside an agent that indexes its tools on
    // its first search, and the constructor alone.
    let mut group = c.benchmark_group("first_search");
    group.sample_size(10);
    for (label, namespaces) in sets {
        let tools = descriptors(&data, namespaces);
        let toolbox: Arc<dyn Toolbox> = Arc::new(Synthetic(tools));
        let index = compiled_index(tools);
        let q = "archive a bill";
        group.bench_function(format!("{label}_agent_new_only"), |b| {
            b.iter(|| black_box(agent(&toolbox, None)))
        });
        group.bench_function(format!("{label}_static_index"), |b| {
            b.iter(|| black_box(agent(&toolbox, Some(index)).search_tools(q, 5)))
        });
        group.bench_function(format!("{label}_index_built_at_run_time"), |b| {
            b.iter(|| black_box(agent(&toolbox, None).search_tools(q, 5)))
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
