//! The two tools on bare rmcp, as an rmcp user writes them: `#[tool]` handlers on serde and
//! schemars types, no checks beyond what serde does (the floor under toolc-mcp, which adds the
//! contract on top of the same rmcp).
//!
//! ```text
//! rmcp-server DATA.json stdio
//! rmcp-server DATA.json http PORT      # stateless streamable HTTP at /mcp
//! ```

use std::collections::HashMap;
use std::convert::Infallible;
use std::process::ExitCode;
use std::sync::Arc;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{Json, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum OrderStatus {
    Placed,
    InTransit,
    Delivered,
}

/// An order.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
struct Order {
    /// The order id.
    order_id: String,
    /// Where the order is.
    status: OrderStatus,
    /// The customer who placed it.
    customer_id: String,
    /// What it cost, in cents.
    total_cents: u64,
    /// How many items it holds.
    items: u32,
}

#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Tier {
    Free,
    Pro,
    Enterprise,
}

#[derive(Clone, Serialize, Deserialize, JsonSchema)]
struct Customer {
    id: String,
    name: String,
    tier: Tier,
}

#[derive(Clone, Serialize, Deserialize, JsonSchema)]
struct Comment {
    author: String,
    body: String,
    internal: bool,
}

#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum TicketStatus {
    Open,
    Pending,
    Resolved,
    Closed,
}

#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    Medium,
    High,
    Urgent,
}

#[derive(Clone, Serialize, Deserialize, JsonSchema)]
struct Ticket {
    id: String,
    subject: String,
    status: TicketStatus,
    priority: Priority,
    customer: Customer,
    tags: Vec<String>,
    comments: Vec<Comment>,
}

/// A customer's tickets.
#[derive(Serialize, JsonSchema)]
struct TicketList {
    /// The tickets, newest first.
    tickets: Vec<Ticket>,
}

#[derive(Deserialize, JsonSchema)]
struct LookupOrderParams {
    /// The order id, such as `A-1001`.
    order_id: String,
}

fn twenty() -> u32 {
    20
}

#[derive(Deserialize, JsonSchema)]
struct ListTicketsParams {
    /// The customer whose tickets to list.
    #[allow(dead_code)]
    customer_id: String,
    /// How many tickets at most.
    #[serde(default = "twenty")]
    limit: u32,
}

#[derive(Deserialize)]
struct Data {
    orders: Vec<Order>,
    tickets: Vec<Ticket>,
}

struct Store {
    orders: HashMap<String, Order>,
    tickets: Vec<Ticket>,
}

#[derive(Clone)]
struct Desk {
    store: Arc<Store>,
    tool_router: ToolRouter<Desk>,
}

#[tool_router(router = tool_router)]
impl Desk {
    fn new(store: Arc<Store>) -> Desk {
        Desk {
            store,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Look up an order by id.")]
    async fn lookup_order(
        &self,
        Parameters(params): Parameters<LookupOrderParams>,
    ) -> Result<Json<Order>, String> {
        match self.store.orders.get(&params.order_id) {
            Some(order) => Ok(Json(order.clone())),
            None => Err(format!("no order {}", params.order_id)),
        }
    }

    #[tool(description = "List a customer's support tickets.")]
    async fn list_tickets(
        &self,
        Parameters(params): Parameters<ListTicketsParams>,
    ) -> Json<TicketList> {
        Json(TicketList {
            tickets: self
                .store
                .tickets
                .iter()
                .take(params.limit as usize)
                .cloned()
                .collect(),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Desk {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

async fn serve_http(desk: Desk, port: &str) -> Result<(), String> {
    let addr = format!("127.0.0.1:{port}");
    let listener = tokio::net::TcpListener::bind(addr.as_str())
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true);
    let service = Arc::new(StreamableHttpService::new(
        move || Ok(desk.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
    loop {
        let (stream, _) = listener
            .accept()
            .await
            .map_err(|e| format!("accept: {e}"))?;
        let service = Arc::clone(&service);
        tokio::spawn(async move {
            let handler = service_fn(move |request| {
                let service = Arc::clone(&service);
                async move { Ok::<_, Infallible>(service.handle(request).await) }
            });
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handler)
                .await;
        });
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(data), Some(transport)) = (args.first(), args.get(1)) else {
        eprintln!("usage: rmcp-server DATA.json (stdio | http PORT)");
        return ExitCode::from(2);
    };
    let data: Data = match std::fs::read_to_string(data)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(data) => data,
        Err(e) => {
            eprintln!("rmcp-server: cannot read {data}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let store = Arc::new(Store {
        orders: data
            .orders
            .into_iter()
            .map(|o| (o.order_id.clone(), o))
            .collect(),
        tickets: data.tickets,
    });
    let desk = Desk::new(store);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("rmcp-server: no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        match (transport.as_str(), args.get(2)) {
            ("stdio", None) => {
                let running = desk
                    .serve(rmcp::transport::stdio_pipes())
                    .await
                    .map_err(|e| e.to_string())?;
                running
                    .waiting()
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            ("http", Some(port)) => serve_http(desk, port).await,
            _ => Err("usage: rmcp-server DATA.json (stdio | http PORT)".to_owned()),
        }
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rmcp-server: {e}");
            ExitCode::FAILURE
        }
    }
}
