//! The two tools served by toolc: the code generated from `serving.yaml` (build.rs), the
//! handlers below, and `toolc-mcp` with its whole contract on (arguments and results
//! validated, the caller hook, call slots, panics contained).
//!
//! ```text
//! toolc-server DATA.json stdio
//! toolc-server DATA.json http PORT      # stateless streamable HTTP at /mcp
//! ```

mod serving {
    toolc_runtime::include_toolset!("serving_toolset");
}

use std::collections::HashMap;
use std::process::ExitCode;

use serde::Deserialize;
use serving::agents;
use serving::toolboxes::desk;
use serving::types::{Order, Ticket, TicketList};
use toolc_mcp::{HttpConfig, McpServer};
use toolc_runtime::{HandlerError, ToolContext};

#[derive(Deserialize)]
struct Data {
    orders: Vec<Order>,
    tickets: Vec<Ticket>,
}

/// The orders and tickets, in memory; each call clones what it returns, as a handler serving
/// from memory does.
struct Desk {
    orders: HashMap<String, Order>,
    tickets: Vec<Ticket>,
}

impl desk::Desk for Desk {
    async fn lookup_order(
        &self,
        params: desk::LookupOrderParams,
        _ctx: &ToolContext<'_, desk::Scope>,
    ) -> Result<Order, HandlerError> {
        match self.orders.get(&params.order_id) {
            Some(order) => Ok(order.clone()),
            None => Err(HandlerError::msg(format!("no order {}", params.order_id))),
        }
    }

    async fn list_tickets(
        &self,
        params: desk::ListTicketsParams,
        _ctx: &ToolContext<'_, desk::Scope>,
    ) -> Result<TicketList, HandlerError> {
        let limit = usize::try_from(params.limit).unwrap_or(usize::MAX);
        Ok(TicketList {
            tickets: self.tickets.iter().take(limit).cloned().collect(),
        })
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(data), Some(transport)) = (args.first(), args.get(1)) else {
        eprintln!("usage: toolc-server DATA.json (stdio | http PORT)");
        return ExitCode::from(2);
    };
    let data: Data = match std::fs::read_to_string(data)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(data) => data,
        Err(e) => {
            eprintln!("toolc-server: cannot read {data}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let desk = Desk {
        orders: data
            .orders
            .into_iter()
            .map(|o| (o.order_id.clone(), o))
            .collect(),
        tickets: data.tickets,
    };
    let server = McpServer::new(agents::Desk { desk }.build());
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("toolc-server: no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        match (transport.as_str(), args.get(2)) {
            ("stdio", None) => server.serve_stdio().await.map_err(|e| e.to_string()),
            ("http", Some(port)) => {
                let addr = format!("127.0.0.1:{port}");
                let listener = tokio::net::TcpListener::bind(addr.as_str())
                    .await
                    .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
                let config = HttpConfig::new().stateless(true);
                server
                    .serve_http_with(listener, config, async {
                        let _ = tokio::signal::ctrl_c().await;
                    })
                    .await
                    .map_err(|e| e.to_string())
            }
            _ => Err("usage: toolc-server DATA.json (stdio | http PORT)".to_owned()),
        }
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("toolc-server: {e}");
            ExitCode::FAILURE
        }
    }
}
