//! Results hosts can act on, through generated code (`tests/results.yaml`): metadata with the
//! handler's own entries, `terminal`, and a play's failure reported as one even when its
//! `returns` accepts the shape of the error envelope.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use toolc_runtime::{CallContext, CauseKind, ErrorKind, HandlerError, OperationKind, ToolContext};

mod toolset {
    toolc_runtime::include_toolset!("results_toolset");
}

use toolset::playbooks::loose;
use toolset::toolboxes::answers;

struct Answers;

impl answers::Answers for Answers {
    async fn lookup_fact(
        &self,
        params: answers::LookupFactParams,
        ctx: &ToolContext<'_, answers::Scope>,
    ) -> Result<answers::LookupFactReturns, HandlerError> {
        ctx.set_metadata("source", "encyclopedia");
        ctx.set_metadata("cached", params.topic == "rust");
        Ok(answers::LookupFactReturns {
            fact: format!("{} is a topic", params.topic),
        })
    }

    async fn submit_answer(
        &self,
        _params: answers::SubmitAnswerParams,
        _ctx: &ToolContext<'_, answers::Scope>,
    ) -> Result<answers::SubmitAnswerReturns, HandlerError> {
        Ok(answers::SubmitAnswerReturns { delivered: true })
    }
}

struct Loose;

impl loose::Loose for Loose {
    async fn parse_count(
        &self,
        params: loose::ParseCountParams,
    ) -> Result<BTreeMap<String, Value>, HandlerError> {
        let digits: String = params
            .text
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        let count: u64 = digits
            .parse()
            .map_err(|_| HandlerError::msg("the text has no whole number"))?;
        Ok(BTreeMap::from([("count".to_owned(), json!(count))]))
    }
}

fn agent() -> toolc_runtime::Agent {
    toolset::agents::Answerer {
        answers: Answers,
        loose: Loose,
    }
    .build()
}

#[tokio::test]
async fn a_play_failure_is_a_failure_though_its_returns_accept_the_envelope() {
    let agent = agent();
    let ctx = CallContext::new("p-1");
    let ok = agent
        .call_result("parse_count", r#"{"text": "about 42 cats"}"#, &ctx)
        .await;
    assert!(ok.ok);
    assert_eq!(ok.value, Some(json!({"count": 42})));

    let failed = agent
        .call_result("parse_count", r#"{"text": "no numbers"}"#, &ctx)
        .await;
    assert!(!failed.ok, "{failed:?}");
    assert_eq!(failed.value, None);
    let cause = failed.cause.expect("a cause");
    assert_eq!(cause.code, ErrorKind::Handler);
    assert_eq!(cause.kind, CauseKind::Runtime);
    assert_eq!(cause.message, "the text has no whole number");
    let meta = failed.metadata.expect("metadata");
    assert_eq!(meta.tool_kind, Some(OperationKind::Play));
    // The envelope is still what `Agent::call` answers, and the play's schema accepts it.
    let envelope = agent
        .call("parse_count", r#"{"text": "no numbers"}"#, &ctx)
        .await
        .expect("plays answer Ok");
    assert_eq!(
        envelope,
        json!({"error": "play 'parse_count' failed: the text has no whole number", "kind": "handler"})
    );
    let desc = agent.descriptor("parse_count").expect("listed");
    assert!(desc.returns.expect("returns").is_valid(&envelope));
}

#[tokio::test]
async fn metadata_carries_the_call_and_the_handlers_entries() {
    let agent = agent();
    let ctx = CallContext::new("fact-1").with_attempt(3);
    let r = agent
        .call_result("lookup_fact", r#"{"topic": "rust"}"#, &ctx)
        .await;
    assert!(r.ok);
    assert!(!r.terminal);
    let v = serde_json::to_value(&r).expect("serializes");
    let meta = &v["metadata"];
    assert_eq!(meta["call_id"], "fact-1");
    assert_eq!(meta["attempt"], 3);
    assert_eq!(meta["tool_kind"], "tool");
    assert!(meta["duration_us"].is_u64());
    assert_eq!(
        meta["entries"],
        json!({"source": "encyclopedia", "cached": true})
    );
    // A validation failure never runs the handler: no entries.
    let bad = agent
        .call_result("lookup_fact", r#"{"topic": 7}"#, &ctx)
        .await;
    assert_eq!(bad.cause.expect("cause").kind, CauseKind::Validation);
    assert!(bad.metadata.expect("metadata").entries.is_empty());
}

/// The host loop of docs/generated-code.md: call what the model asks for, stop on a
/// terminal tool's success.
#[tokio::test]
async fn a_host_loop_stops_on_a_terminal_tool() {
    let agent = agent();
    let planned = [
        ("lookup_fact", r#"{"topic": "tides"}"#),
        ("submit_answer", "{}"), // refused (no answer): not terminal, the loop goes on
        ("submit_answer", r#"{"answer": "The moon."}"#),
        ("lookup_fact", r#"{"topic": "never reached"}"#),
    ];
    let mut transcript = Vec::new();
    for (i, (tool, arguments)) in planned.iter().enumerate() {
        let result = agent
            .call_result(tool, arguments, &CallContext::new(format!("turn-{i}")))
            .await;
        transcript.push((*tool, result.ok));
        if result.terminal {
            break;
        }
    }
    assert_eq!(
        transcript,
        [
            ("lookup_fact", true),
            ("submit_answer", false),
            ("submit_answer", true)
        ]
    );
    assert!(agent.descriptor("submit_answer").expect("listed").terminal);
}
