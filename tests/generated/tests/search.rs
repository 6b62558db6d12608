//! Tool search through generated code (tests/fixtures/codegen/search.yaml): a generated
//! agent searches the index toolc wrote into its code, tokenizing nothing at run time, and
//! ranks exactly as an index built at run time from the same descriptors; tools registered
//! later are indexed at run time and searched together with it.

use serde_json::{Value, json};
use toolc_generated_tests::search::__search;
use toolc_generated_tests::search::agents;
use toolc_generated_tests::search::playbooks::recipes::Recipes;
use toolc_generated_tests::search::toolboxes::billing::{
    self, Billing, ListInvoicesParams, RefundPaymentParams,
};
use toolc_generated_tests::search::toolboxes::desk::{
    self, Desk, EscalateTicketParams, ListTicketsParams, ReplyToTicketParams,
};
use toolc_runtime::{Agent, CallContext, HandlerError, RegisteredTool, ToolContext};

struct Impl;

impl Desk for Impl {
    async fn list_tickets(
        &self,
        _: ListTicketsParams,
        _: &ToolContext<'_, desk::Scope>,
    ) -> Result<Value, HandlerError> {
        Ok(Value::Null)
    }
    async fn reply_to_ticket(
        &self,
        _: ReplyToTicketParams,
        _: &ToolContext<'_, desk::Scope>,
    ) -> Result<Value, HandlerError> {
        Ok(Value::Null)
    }
    async fn escalate_ticket(
        &self,
        _: EscalateTicketParams,
        _: &ToolContext<'_, desk::Scope>,
    ) -> Result<Value, HandlerError> {
        Ok(Value::Null)
    }
    async fn whoami(&self, _: &ToolContext<'_, desk::Scope>) -> Result<Value, HandlerError> {
        Ok(Value::Null)
    }
}

impl Billing for Impl {
    async fn refund_payment(
        &self,
        _: RefundPaymentParams,
        _: &ToolContext<'_, billing::Scope>,
    ) -> Result<Value, HandlerError> {
        Ok(Value::Null)
    }
    async fn list_invoices(
        &self,
        _: ListInvoicesParams,
        _: &ToolContext<'_, billing::Scope>,
    ) -> Result<Value, HandlerError> {
        Ok(Value::Null)
    }
}

impl Recipes for Impl {
    async fn summarize_week(
        &self,
        _: toolc_generated_tests::search::playbooks::recipes::SummarizeWeekParams,
    ) -> Result<String, HandlerError> {
        Ok(String::new())
    }
}

const QUERIES: &[&str] = &[
    "what tickets does this customer have open",
    "answer the customer",
    "this is urgent, get an engineer",
    "give the money back",
    "unpaid bills of a customer",
    "weekly summary for the lead",
    "who am I acting for",
    "listTickets",
    "customer_id",
    "",
    "zebra",
];

/// The same agent built at run time: its tools indexed from their descriptors.
fn built_at_run_time(generated: &Agent) -> Agent {
    Agent::new(
        generated.name(),
        generated.description(),
        generated.capabilities().to_vec(),
    )
    .expect("the generated agent's capabilities")
}

/// Each query's hits as (name, score bits): equal only when the ranking and every score are.
fn rankings(agent: &Agent) -> Vec<Vec<(&'static str, u64)>> {
    QUERIES
        .iter()
        .map(|q| {
            agent
                .search_tools(q, 10)
                .iter()
                .map(|h| (h.tool.name, h.score.to_bits()))
                .collect()
        })
        .collect()
}

#[test]
fn a_generated_agent_searches_its_compiled_index_and_tokenizes_nothing() {
    let agent = agents::Helpdesk {
        desk: Impl,
        recipes: Impl,
        billing: Impl,
    }
    .build();
    assert_eq!(agent.tools().len(), 7);
    let hits = agent.search_tools("refund this payment to the card", 3);
    assert_eq!(hits[0].tool.name, "refund_payment");
    let _ = rankings(&agent);
    assert_eq!(agent.search_index_parts(), (7, 0));
    let accounts = agents::Accounts { billing: Impl }.build();
    assert_eq!(
        accounts.search_tools("invoices", 1)[0].tool.name,
        "list_invoices"
    );
    assert_eq!(accounts.search_index_parts(), (2, 0));
}

#[test]
fn it_ranks_exactly_as_an_index_built_at_run_time() {
    for generated in [
        agents::Helpdesk {
            desk: Impl,
            recipes: Impl,
            billing: Impl,
        }
        .build(),
        agents::Accounts { billing: Impl }.build(),
    ] {
        let runtime = built_at_run_time(&generated);
        assert_eq!(
            rankings(&generated),
            rankings(&runtime),
            "{}",
            generated.name()
        );
        let n = generated.tools().len();
        assert_eq!(generated.search_index_parts(), (n, 0));
        assert_eq!(runtime.search_index_parts(), (0, n));
    }
}

#[test]
fn its_tables_are_the_index_of_the_runtime_documents_in_the_agents_order() {
    for (generated, index) in [
        (
            agents::Helpdesk {
                desk: Impl,
                recipes: Impl,
                billing: Impl,
            }
            .build(),
            &__search::HELPDESK,
        ),
        (
            agents::Accounts { billing: Impl }.build(),
            &__search::ACCOUNTS,
        ),
    ] {
        let mut b = toolc_search::Builder::new();
        for d in generated.tools() {
            b.add(&toolc_search::Document::tool(
                d.name,
                d.title,
                d.description,
                d.input_schema,
            ));
        }
        let built = b.finish();
        assert_eq!(*index, built.as_ref(), "{}", generated.name());
        assert_eq!(index.check(), Ok(()));
    }
}

#[test]
fn tools_registered_later_are_indexed_at_run_time_and_ranked_with_the_others() {
    let register = |agent: &mut Agent| {
        agent
            .register(RegisteredTool::new(
                "chargeback_status",
                "Tell whether a customer's bank disputed a payment, and where the dispute stands.",
                json!({"type": "object", "properties": {"payment_id": {"type": "string", "description": "The disputed payment"}}}),
                |_: Value, _: CallContext| async { Ok::<_, HandlerError>(Value::Null) },
            ))
            .expect("registers");
    };
    let mut generated = agents::Helpdesk {
        desk: Impl,
        recipes: Impl,
        billing: Impl,
    }
    .build();
    // Searched before and after: the compiled part is kept, the new tool added.
    let _ = generated.search_tools("refund", 3);
    register(&mut generated);
    let mut runtime = built_at_run_time(&generated);
    register(&mut runtime);
    assert_eq!(rankings(&generated), rankings(&runtime));
    assert_eq!(
        generated.search_tools("the bank disputed a payment", 1)[0]
            .tool
            .name,
        "chargeback_status"
    );
    assert_eq!(generated.search_index_parts(), (7, 1));
    assert_eq!(runtime.search_index_parts(), (0, 8));
}
