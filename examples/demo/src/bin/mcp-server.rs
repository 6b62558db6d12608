//! Serves one of the example agents to MCP clients over stdio.
//!
//! ```text
//! mcp-server <assistant|support-desk> [--http 127.0.0.1:PORT]
//! ```
//!
//! Without `--http` it serves stdio. With it, MCP's streamable HTTP on that loopback address
//! (port 0 picks a free one); the first line on stderr says where:
//! `mcp-server: serving support-desk at http://127.0.0.1:PORT/mcp`.
//!
//! The caller of every call comes from the environment, so a client configuration (or a
//! test) can exercise the policies:
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `TOOLC_CALLER` | the caller's id (rate limits are kept per id) | `anonymous` |
//! | `TOOLC_AUTH` | `none`, `user` or `admin` | `none` |
//! | `TOOLC_ROLES` | comma-separated roles | none |
//! | `TOOLC_OPERATOR`, `TOOLC_TIER` | bind an `OperatorScope` (the assistant's scope); the tier is `free`, `pro` or `enterprise` | no scope |

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use toolc_example::toolset::agents;
use toolc_example::toolset::types::{OperatorScope, OperatorScopeTier};
use toolc_example::{Meetings, Orders, Recipes, Support};
use toolc_runtime::mcp::McpServer;
use toolc_runtime::{Agent, AuthLevel, CallContext, Caller};

const USAGE: &str = "usage: mcp-server <assistant|support-desk> [--http 127.0.0.1:PORT]\n\
    environment: TOOLC_CALLER, TOOLC_AUTH (none|user|admin), TOOLC_ROLES (a,b), \
    TOOLC_OPERATOR and TOOLC_TIER (free|pro|enterprise)";

/// Who calls, as read from the environment once at start.
struct Identity {
    caller: Caller,
    scope: Option<Arc<OperatorScope>>,
}

fn var(name: &str) -> Result<Option<String>, String> {
    match std::env::var(name) {
        Ok(v) if v.trim().is_empty() => Ok(None),
        Ok(v) => Ok(Some(v.trim().to_owned())),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(format!("{name} is not valid UTF-8")),
    }
}

fn identity() -> Result<Identity, String> {
    let mut caller = match var("TOOLC_CALLER")? {
        Some(id) => Caller::new(id),
        None => Caller::anonymous(),
    };
    caller = caller.with_auth(match var("TOOLC_AUTH")?.as_deref() {
        None | Some("none") => AuthLevel::None,
        Some("user") => AuthLevel::User,
        Some("admin") => AuthLevel::Admin,
        Some(other) => {
            return Err(format!(
                "TOOLC_AUTH must be none, user or admin, got {other:?}"
            ));
        }
    });
    if let Some(roles) = var("TOOLC_ROLES")? {
        caller = caller.with_roles(
            roles
                .split(',')
                .map(str::trim)
                .filter(|r| !r.is_empty())
                .map(str::to_owned),
        );
    }
    let scope = match (var("TOOLC_OPERATOR")?, var("TOOLC_TIER")?) {
        (None, None) => None,
        (Some(operator), tier) => {
            let tier = match tier.as_deref() {
                None | Some("free") => OperatorScopeTier::Free,
                Some("pro") => OperatorScopeTier::Pro,
                Some("enterprise") => OperatorScopeTier::Enterprise,
                Some(other) => {
                    return Err(format!(
                        "TOOLC_TIER must be free, pro or enterprise, got {other:?}"
                    ));
                }
            };
            Some(Arc::new(OperatorScope { operator, tier }))
        }
        (None, Some(_)) => return Err("TOOLC_TIER needs TOOLC_OPERATOR".to_owned()),
    };
    Ok(Identity { caller, scope })
}

/// The agent called `name`, each of its toolboxes and playbooks served by the example's
/// in-memory implementation, named field by field.
fn agent(name: &str) -> Option<Agent> {
    match name {
        "assistant" => Some(
            agents::Assistant {
                meetings: Meetings::default(),
                recipes: Recipes,
            }
            .build(),
        ),
        "support-desk" => Some(
            agents::SupportDesk {
                support: Support::default(),
                orders: Orders,
            }
            .build(),
        ),
        _ => None,
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, http) = match args.as_slice() {
        [name] => (name, None),
        [name, flag, addr] if flag == "--http" => match addr.parse::<SocketAddr>() {
            Ok(addr) => (name, Some(addr)),
            Err(e) => {
                eprintln!(
                    "mcp-server: --http wants an address such as 127.0.0.1:8080: {e}\n{USAGE}"
                );
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let Some(agent) = agent(name) else {
        eprintln!("mcp-server: no agent named {name:?}\n{USAGE}");
        return ExitCode::from(2);
    };
    let identity = match identity() {
        Ok(identity) => identity,
        Err(message) => {
            eprintln!("mcp-server: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let server = McpServer::new(agent).with_caller(move |request| {
        let ctx = CallContext::new(request.call_id()).with_caller(identity.caller.clone());
        match &identity.scope {
            Some(scope) => ctx.with_shared_scope(Arc::clone(scope)),
            None => ctx,
        }
    });
    let served = match http {
        None => server.serve_stdio().await,
        Some(addr) if !addr.ip().is_loopback() => {
            eprintln!(
                "mcp-server: refusing {addr}: serve HTTP on a loopback address (127.0.0.1 or ::1)"
            );
            return ExitCode::from(2);
        }
        Some(addr) => {
            let listener = match tokio::net::TcpListener::bind(addr).await {
                Ok(listener) => listener,
                Err(e) => {
                    eprintln!("mcp-server: cannot listen on {addr}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            if let Ok(bound) = listener.local_addr() {
                eprintln!("mcp-server: serving {name} at http://{bound}/mcp");
            }
            // Serves until the process is stopped.
            server
                .serve_http(listener, std::future::pending::<()>())
                .await
        }
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-server: {e}");
            ExitCode::FAILURE
        }
    }
}
