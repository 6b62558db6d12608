//! Tool search: ranking, tokenization of names, prebuilt indexes, and the quality bar on a
//! synthetic agent of 1,000 tools with 100 paraphrase queries (`tests/data/search_purposes.json`).

use serde_json::{Value, json};
use toolc_runtime::{Agent, CallContext, HandlerError, RegisteredTool};

use super::agent;

#[path = "synthetic.rs"]
mod synthetic;
use synthetic::synthetic_tools;

fn synthetic_agent(data: &Value) -> Agent {
    let mut a = Agent::new("synthetic", "1,000 tools", Vec::new()).expect("empty agent");
    for (name, description, schema) in synthetic_tools(data, &[]) {
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

#[test]
fn paraphrases_find_their_tool_in_the_top_five() {
    let data: Value =
        serde_json::from_str(include_str!("../data/search_purposes.json")).expect("data");
    let a = synthetic_agent(&data);
    assert_eq!(a.tools().len(), 1000);
    let queries = data["queries"].as_array().expect("queries");
    assert_eq!(queries.len(), 100);
    let (mut top1, mut top5) = (0, 0);
    let mut misses = Vec::new();
    for q in queries {
        let (query, expected) = (q[0].as_str().expect("q"), q[1].as_str().expect("tool"));
        assert!(a.descriptor(expected).is_some(), "{expected} is a tool");
        let hits = a.search_tools(query, 5);
        let rank = hits.iter().position(|h| h.tool.name == expected);
        match rank {
            Some(0) => {
                top1 += 1;
                top5 += 1;
            }
            Some(_) => top5 += 1,
            None => misses.push(format!(
                "{query:?} → {:?}, wanted {expected}",
                hits.iter().map(|h| h.tool.name).collect::<Vec<_>>()
            )),
        }
    }
    println!("search quality on 1,000 tools: top-1 {top1}/100, top-5 {top5}/100");
    for m in &misses {
        println!("  miss: {m}");
    }
    assert!(
        top5 >= 90,
        "top-5 {top5}/100 (top-1 {top1}):\n{}",
        misses.join("\n")
    );
}

#[test]
fn names_split_and_scores_rank() {
    let a = agent();
    // `greet` by its name; scores descend.
    let hits = a.search_tools("greet someone", 3);
    assert_eq!(hits.first().map(|h| h.tool.name), Some("greet"));
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(hits.iter().all(|h| h.score > 0.0));
    // camelCase and snake_case queries meet snake_case names.
    assert_eq!(
        a.search_tools("adminOnly", 1).first().map(|h| h.tool.name),
        Some("admin_only")
    );
    assert_eq!(
        a.search_tools("UNCHECKED-output", 1)
            .first()
            .map(|h| h.tool.name),
        Some("unchecked_output")
    );
    // k bounds the hits; nothing matches nothing.
    assert!(a.search_tools("greet", 0).is_empty());
    assert!(a.search_tools("", 5).is_empty());
    assert!(a.search_tools("the of and", 5).is_empty());
    assert!(a.search_tools("zebra xylophone", 5).is_empty());
    // Hostile queries answer without panicking.
    for q in [
        "\u{0}\u{FFFF}",
        &"ab".repeat(100_000),
        "İ̇ǅ",
        &"word ".repeat(10_000),
    ] {
        let _ = a.search_tools(q, usize::MAX);
    }
}

#[test]
fn registered_tools_are_found_and_the_index_follows_registration() {
    let mut a = agent();
    assert!(a.search_tools("weather forecast", 5).is_empty());
    a.register(RegisteredTool::new(
        "weatherForecast",
        "Tomorrow's weather for a city.",
        json!({"type": "object", "properties": {"city": {"type": "string", "description": "Where."}}}),
        |_: Value, _: CallContext| async { Ok::<_, HandlerError>(Value::Null) },
    ))
    .expect("registers");
    let hits = a.search_tools("forecast for my city", 5);
    assert_eq!(hits.first().map(|h| h.tool.name), Some("weatherForecast"));
}

#[test]
fn a_prebuilt_index_ranks_exactly_as_one_built_at_run_time() {
    let data: Value =
        serde_json::from_str(include_str!("../data/search_purposes.json")).expect("data");
    let a = synthetic_agent(&data);
    // What the compiler will write into generated code: the same documents, built ahead.
    let mut b = toolc_search::Builder::new();
    for d in a.tools() {
        b.add(&toolc_search::Document::tool(
            d.name,
            d.title,
            d.description,
            d.input_schema,
        ));
    }
    let built: &'static toolc_search::Index = Box::leak(Box::new(b.finish()));
    let (names, name_ends, lengths, terms, term_ends, posting_ends, docs, counts) = built.tables();
    let prebuilt: &'static toolc_search::IndexRef<'static> =
        Box::leak(Box::new(toolc_search::IndexRef::from_static(
            toolc_search::VERSION,
            names,
            name_ends,
            lengths,
            terms,
            term_ends,
            posting_ends,
            docs,
            counts,
        )));
    assert_eq!(prebuilt.check(), Ok(()));
    let with = synthetic_agent(&data).with_search_index(prebuilt);
    for q in data["queries"].as_array().expect("queries").iter().take(20) {
        let q = q[0].as_str().expect("query");
        let x: Vec<(&str, f64)> = a
            .search_tools(q, 10)
            .iter()
            .map(|h| (h.tool.name, h.score))
            .collect();
        let y: Vec<(&str, f64)> = with
            .search_tools(q, 10)
            .iter()
            .map(|h| (h.tool.name, h.score))
            .collect();
        assert_eq!(x, y, "{q}");
    }
    // Searching read the prebuilt tables as they are: nothing was tokenized.
    assert_eq!(with.search_index_parts(), (1000, 0));
    assert_eq!(a.search_index_parts(), (0, 1000));
    // A tool registered later is tokenized alone and ranked with the others as if one index
    // held them all.
    let (mut a, mut with) = (a, with);
    for agent in [&mut a, &mut with] {
        agent
            .register(RegisteredTool::new(
                "forecast_rain",
                "Tell whether it will rain in a city tomorrow.",
                json!({"type": "object", "properties": {"city": {"type": "string"}}}),
                |_: Value, _: CallContext| async { Ok::<_, HandlerError>(Value::Null) },
            ))
            .expect("registers");
    }
    for q in ["will it rain in the city", "archive a bill", "city"] {
        let x: Vec<(&str, u64)> = a
            .search_tools(q, 10)
            .iter()
            .map(|h| (h.tool.name, h.score.to_bits()))
            .collect();
        let y: Vec<(&str, u64)> = with
            .search_tools(q, 10)
            .iter()
            .map(|h| (h.tool.name, h.score.to_bits()))
            .collect();
        assert_eq!(x, y, "{q}");
    }
    assert_eq!(with.search_index_parts(), (1000, 1));
    assert_eq!(a.search_index_parts(), (0, 1001));
    // An index that does not cover the agent's first tools, in order, is not used.
    let reordered = Agent::new("other", "", Vec::new())
        .expect("empty agent")
        .with_search_index(prebuilt);
    assert_eq!(reordered.search_index_parts(), (0, 0));
    // An index from another tokenizer version is not used (the agent indexes its tools itself).
    let stale: &'static toolc_search::IndexRef<'static> =
        Box::leak(Box::new(toolc_search::IndexRef::from_static(
            toolc_search::VERSION + 1,
            names,
            name_ends,
            lengths,
            terms,
            term_ends,
            posting_ends,
            docs,
            counts,
        )));
    assert!(stale.check().is_err());
    let with_stale = synthetic_agent(&data).with_search_index(stale);
    assert_eq!(
        with_stale.search_tools("archive a bill", 1)[0].tool.name,
        a.search_tools("archive a bill", 1)[0].tool.name
    );
    assert_eq!(with_stale.search_index_parts(), (0, 1000));
}
