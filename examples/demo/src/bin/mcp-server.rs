//! Serves one of the example agents to MCP clients over stdio.
//!
//! ```text
//! mcp-server <assistant|support-desk> [--http 127.0.0.1:PORT] [--deferred] [--pin TOOL]…
//! ```
//!
//! Without `--http` it serves stdio. With it, MCP's streamable HTTP on that loopback address
//! (port 0 picks a free one); the first line on stderr says where:
//! `mcp-server: serving support-desk at http://127.0.0.1:PORT/mcp`.
//!
//! `--deferred` turns on deferred loading: `tools/list` lists `search_tools` and the tools
//! given with `--pin` (which implies `--deferred`); the others are listed once a search finds
//! them.
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

use toolc_example::toolset::types::{OperatorScope, OperatorScopeTier};
use toolc_runtime::mcp::McpServer;
use toolc_runtime::{Agent, AuthLevel, CallContext, Caller};

const USAGE: &str = "usage: mcp-server <assistant|support-desk> [--http 127.0.0.1:PORT] [--deferred] [--pin TOOL]...\n\
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

fn agent(name: &str) -> Option<Agent> {
    match name {
        "assistant" => Some(toolc_example::assistant()),
        "support-desk" => Some(toolc_example::support_desk()),
        _ => None,
    }
}

/// The command line.
struct Options {
    agent: String,
    http: Option<SocketAddr>,
    deferred: bool,
    pinned: Vec<String>,
}

impl Options {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
        let agent = args.next().ok_or("name an agent")?;
        let mut options = Options {
            agent,
            http: None,
            deferred: false,
            pinned: Vec::new(),
        };
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--http" => {
                    let addr = args.next().ok_or("--http wants an address")?;
                    let addr = addr.parse::<SocketAddr>().map_err(|e| {
                        format!("--http wants an address such as 127.0.0.1:8080: {e}")
                    })?;
                    options.http = Some(addr);
                }
                "--deferred" => options.deferred = true,
                "--pin" => {
                    options
                        .pinned
                        .push(args.next().ok_or("--pin wants a tool name")?);
                    options.deferred = true;
                }
                other => return Err(format!("unexpected argument {other:?}")),
            }
        }
        Ok(options)
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("mcp-server: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (name, http) = (&options.agent, options.http);
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
    let mut server = McpServer::new(agent);
    if options.deferred {
        server = match server.with_deferred_loading(&options.pinned) {
            Ok(server) => server,
            Err(e) => {
                eprintln!("mcp-server: {e}\n{USAGE}");
                return ExitCode::from(2);
            }
        };
    }
    let server = server.with_caller(move |request| {
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
