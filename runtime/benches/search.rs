//! `Agent::search_tools` on the synthetic agent of `tests/data/search_purposes.json`: 1,000
//! tools, and 10,000 (the same tools in ten namespaces), queried with its 100 paraphrases; and
//! the index an agent builds at run time on its first search when no prebuilt one covers its
//! tools.
//!
//! Run with `cargo bench -p toolc-runtime --bench search`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use toolc_runtime::{Agent, CallContext, HandlerError, RegisteredTool};

#[path = "../tests/agent/synthetic.rs"]
mod synthetic;

const NAMESPACES: [&str; 10] = [
    "crm", "billing", "support", "hr", "ops", "sales", "retail", "travel", "media", "labs",
];

fn agent(data: &Value, namespaces: &[&str]) -> Agent {
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
    a
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
    let mut group = c.benchmark_group("search_tools");
    for (label, namespaces) in [("1000_tools", &[][..]), ("10000_tools", &NAMESPACES[..])] {
        let a = agent(&data, namespaces);
        let _ = a.search_tools("warm the index", 5);
        // One iteration is all 100 queries: divide by 100 for one query.
        group.bench_function(format!("{label}_100_queries_k5"), |b| {
            b.iter(|| {
                for q in &queries {
                    black_box(a.search_tools(black_box(q), 5));
                }
            })
        });
        // The baseline: no index, each query's words looked for in every tool's lowercased
        // name and description (substring tests), the 5 best counts kept.
        let texts: Vec<String> = a
            .tools()
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
    group.sample_size(10);
    for (label, namespaces) in [("1000_tools", &[][..]), ("10000_tools", &NAMESPACES[..])] {
        // What an agent does on its first search when no index was built at compile time:
        // every tool's document tokenized, then inverted.
        let tools = agent(&data, namespaces).tools();
        group.bench_function(format!("{label}_index_built_at_run_time"), |b| {
            b.iter(|| {
                let mut builder = toolc_search::Builder::new();
                for d in &tools {
                    builder.add(&toolc_search::Document::tool(
                        d.name,
                        d.title,
                        d.description,
                        d.input_schema,
                    ));
                }
                black_box(builder.finish())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
