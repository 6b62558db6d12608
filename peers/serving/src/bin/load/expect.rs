//! The calls a session makes and the answer each must get, from the data file every server
//! serves.

use serde_json::{Value, json};

use crate::session::cut;

/// Which tools the sessions call.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mix {
    /// `lookup_order` and `list_tickets` in turn.
    Both,
    LookupOrder,
    ListTickets,
}

impl Mix {
    pub fn parse(text: &str) -> Option<Mix> {
        match text {
            "mix" => Some(Mix::Both),
            "lookup_order" => Some(Mix::LookupOrder),
            "list_tickets" => Some(Mix::ListTickets),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mix::Both => "mix",
            Mix::LookupOrder => "lookup_order",
            Mix::ListTickets => "list_tickets",
        }
    }
}

/// How many tickets `list_tickets` asks for (all the data holds).
const TICKETS: usize = 20;

/// One call and its answer's `structuredContent`.
pub struct Call {
    pub tool: &'static str,
    pub arguments: Value,
    pub expected: Value,
}

/// Every call a run makes, precomputed so that the sessions only send and compare.
pub struct Expect {
    orders: Vec<Call>,
    tickets: Call,
    mix: Mix,
}

impl Expect {
    pub fn new(data: &Value, mix: Mix) -> Result<Expect, String> {
        let orders: Vec<Call> = data
            .get("orders")
            .and_then(Value::as_array)
            .ok_or("the data file has no `orders` array")?
            .iter()
            .map(|order| {
                let id = order.get("order_id").cloned().unwrap_or(Value::Null);
                Call {
                    tool: "lookup_order",
                    arguments: json!({"order_id": id}),
                    expected: order.clone(),
                }
            })
            .collect();
        let tickets = data
            .get("tickets")
            .and_then(Value::as_array)
            .ok_or("the data file has no `tickets` array")?;
        if orders.is_empty() || tickets.len() != TICKETS {
            return Err(format!(
                "the data file must hold orders and exactly {TICKETS} tickets"
            ));
        }
        let tickets = Call {
            tool: "list_tickets",
            arguments: json!({"customer_id": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b0000", "limit": TICKETS}),
            expected: json!({"tickets": tickets}),
        };
        Ok(Expect {
            orders,
            tickets,
            mix,
        })
    }

    /// The `i`-th call of session `session`.
    pub fn call(&self, session: usize, i: usize) -> &Call {
        let order = || &self.orders[(session * 31 + i / 2) % self.orders.len()];
        match self.mix {
            Mix::Both if i.is_multiple_of(2) => order(),
            Mix::Both => &self.tickets,
            Mix::LookupOrder => &self.orders[(session * 31 + i) % self.orders.len()],
            Mix::ListTickets => &self.tickets,
        }
    }
}

/// Checks a `tools/call` answer: a result, not an error, with a text content block and the
/// expected `structuredContent`.
pub fn check(call: &Call, answer: &Value) -> Result<(), String> {
    let Some(result) = answer.get("result") else {
        return Err(format!("{} got no result: {}", call.tool, cut(answer)));
    };
    if result.get("isError") == Some(&Value::Bool(true)) {
        return Err(format!("{} failed: {}", call.tool, cut(answer)));
    }
    let text = result.pointer("/content/0/type").and_then(Value::as_str) == Some("text");
    if !text {
        return Err(format!(
            "{} has no text content: {}",
            call.tool,
            cut(answer)
        ));
    }
    match result.get("structuredContent") {
        Some(got) if *got == call.expected => Ok(()),
        Some(got) => Err(format!(
            "{} answered {}, not {}",
            call.tool,
            cut(got),
            cut(&call.expected)
        )),
        None => Err(format!(
            "{} has no structuredContent: {}",
            call.tool,
            cut(answer)
        )),
    }
}
