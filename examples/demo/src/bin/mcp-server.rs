//! Serves one of the example agents to MCP clients, over stdio or streamable HTTP.
//!
//! ```text
//! mcp-server <assistant|support-desk> [--http ADDR:PORT] [--deferred] [--pin TOOL]… [--plugins FILE]
//! ```
//!
//! Without `--http` it serves stdio. With it, MCP's streamable HTTP on that address (port 0
//! picks a free one); the first line on stderr says where:
//! `mcp-server: serving support-desk at http://127.0.0.1:PORT/mcp`. SIGTERM or Ctrl-C shuts
//! it down gracefully: calls in flight finish (within `TOOLC_SHUTDOWN_GRACE_SECS`), then it
//! exits 0.
//!
//! `--deferred` turns on deferred loading: `tools/list` lists `search_tools` and the tools
//! given with `--pin` (which implies `--deferred`); the others are listed once a search finds
//! them.
//!
//! `--plugins FILE` serves the tools of a JSON file beside the agent's own, each answering a
//! fixed value (`toolc_example::plugins`). On SIGHUP the server reads the file again and serves
//! what it says now, telling every session `notifications/tools/list_changed`; a file that does
//! not read leaves the tools as they were, with a line on stderr.
//!
//! `--soak-tools` serves the soak run's tools beside the agent's (`benches/soak/tools.rs`: a
//! handler that fails, one that panics, one that sleeps past its timeout, one that waits to be
//! cancelled); only a build with the `soak` feature has it.
//!
//! Everything else comes from the environment. Who calls, without an authenticator (stdio, or
//! HTTP on loopback):
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `TOOLC_CALLER` | the caller's id (rate limits are kept per id) | `anonymous` |
//! | `TOOLC_AUTH` | `none`, `user` or `admin` | `none` |
//! | `TOOLC_ROLES` | comma-separated roles | none |
//! | `TOOLC_OPERATOR`, `TOOLC_TIER` | bind an `OperatorScope` (the assistant's scope); the tier is `free`, `pro` or `enterprise` | no scope |
//!
//! Bearer tokens (required off loopback): setting `TOOLC_JWT_ISSUER` turns them on, and then
//! every HTTP request needs a valid access token and its claims make the caller.
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `TOOLC_JWT_ISSUER` | the authorization server's issuer URL (`iss`) | off |
//! | `TOOLC_RESOURCE_URL` | this server's public URL, such as `https://mcp.example.com/mcp` (the audience) | required with the issuer |
//! | `TOOLC_JWKS_URL` | where the issuer's keys are | discovered from the issuer |
//! | `TOOLC_JWT_AUDIENCES` | comma-separated audiences accepted instead of the resource URL | the resource URL |
//! | `TOOLC_JWT_ID_CLAIM` | the claim naming the caller | `sub` |
//! | `TOOLC_JWT_ROLES_CLAIMS` | comma-separated claims holding roles (`/a/b` is a JSON pointer) | `roles` |
//! | `TOOLC_JWT_ADMIN_ROLES` | comma-separated roles that make a caller `admin` | none |
//! | `TOOLC_JWT_REQUIRED_SCOPES` | comma-separated scopes every token needs | none |
//! | `TOOLC_JWT_LEEWAY_SECS` | clock skew allowed on `exp` and `nbf` | 30 |
//! | `TOOLC_JWT_TOKEN_CACHE` | verified tokens remembered until their `exp`, while their key is in the key set (0: check every request's signature) | 10000 |
//!
//! Shared policy state and HTTP limits:
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `TOOLC_REDIS_URL` | keep rate limits and approval tokens in this Redis (`redis://host:6379/0`, `unix:///path`) | in memory |
//! | `TOOLC_REDIS_PREFIX` | key prefix; replicas of one deployment share it | `toolc:<agent>:` |
//! | `TOOLC_REDIS_TIMEOUT_MS` | the most a Redis operation may take | 500 |
//! | `TOOLC_REDIS_FAIL_OPEN` | `true`: let rate-limited calls through while Redis is down | `false` |
//! | `TOOLC_STATELESS` | `true`: serve without MCP sessions (any replica answers any request) | `false` |
//! | `TOOLC_MAX_BODY_BYTES` | the largest request body | 4194304 |
//! | `TOOLC_MAX_CONCURRENT_CALLS` | calls one connection may run at once | 32 |
//! | `TOOLC_APPROVAL_TTL_SECS` | how long a call held for approval (`cancel_order`) waits for a person | 600 |
//! | `TOOLC_SHUTDOWN_GRACE_SECS` | how long calls in flight may finish on shutdown | 10 |
//! | `TOOLC_ALLOWED_HOSTS` | comma-separated `Host` values accepted (empty: any) | see `HttpConfig::allowed_hosts` |
//! | `TOOLC_LOG` | log filter for stderr, such as `info` (access log and call events) | no log |
//! | `TOOLC_LOG_FORMAT` | `json` for one JSON object per line | text |

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use toolc_example::plugins::{self, Plugins};
use toolc_example::toolset::agents;
use toolc_example::toolset::types::{OperatorScope, OperatorScopeTier};
use toolc_example::{Meetings, Orders, Recipes, Support};
use toolc_mcp::auth::jwt::{ClaimMapping, JwtConfig, JwtValidator};
use toolc_mcp::{HttpConfig, McpServer};
use toolc_runtime::store::{RedisConfig, RedisStore};
use toolc_runtime::{Agent, AuthLevel, CallContext, Caller};

#[cfg(feature = "soak")]
#[path = "../../benches/soak/tools.rs"]
mod soak_tools;

const USAGE: &str = "usage: mcp-server <assistant|support-desk> [--http ADDR:PORT] [--deferred] [--pin TOOL]... [--plugins FILE]\n\
    environment: TOOLC_CALLER, TOOLC_AUTH (none|user|admin), TOOLC_ROLES (a,b), \
    TOOLC_OPERATOR and TOOLC_TIER (free|pro|enterprise); TOOLC_JWT_ISSUER, TOOLC_RESOURCE_URL, \
    TOOLC_JWKS_URL and the other TOOLC_JWT_* settings; TOOLC_REDIS_URL; see the README's \
    deployment section";

/// Who calls when no authenticator says so, and the scope, read from the environment once.
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

/// A comma-separated list; empty when unset.
fn list(name: &str) -> Result<Vec<String>, String> {
    Ok(var(name)?
        .map(|v| {
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default())
}

fn parsed<T: FromStr>(name: &str, what: &str) -> Result<Option<T>, String> {
    match var(name)? {
        None => Ok(None),
        Some(text) => text
            .parse()
            .map(Some)
            .map_err(|_| format!("{name} must be {what}, got {text:?}")),
    }
}

fn flag(name: &str) -> Result<bool, String> {
    match var(name)?.as_deref() {
        None | Some("false" | "0" | "no") => Ok(false),
        Some("true" | "1" | "yes") => Ok(true),
        Some(other) => Err(format!("{name} must be true or false, got {other:?}")),
    }
}

fn identity() -> Result<Identity, String> {
    let mut caller = match var("TOOLC_CALLER")? {
        Some(id) => Caller::new(id),
        None => Caller::anonymous(),
    };
    caller = caller.with_auth(match var("TOOLC_AUTH")? {
        None => AuthLevel::None,
        Some(level) => level
            .parse()
            .map_err(|_| format!("TOOLC_AUTH must be none, user or admin, got {level:?}"))?,
    });
    caller = caller.with_roles(list("TOOLC_ROLES")?);
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

/// The JWT validator the `TOOLC_JWT_*` variables describe, if `TOOLC_JWT_ISSUER` is set.
fn jwt() -> Result<Option<JwtValidator>, String> {
    let Some(issuer) = var("TOOLC_JWT_ISSUER")? else {
        return Ok(None);
    };
    let resource = var("TOOLC_RESOURCE_URL")?.ok_or(
        "TOOLC_JWT_ISSUER needs TOOLC_RESOURCE_URL: this server's public URL, such as https://mcp.example.com/mcp",
    )?;
    let mut config = JwtConfig::new(issuer, resource);
    config.jwks_url = var("TOOLC_JWKS_URL")?;
    config.audiences = list("TOOLC_JWT_AUDIENCES")?;
    config.required_scopes = list("TOOLC_JWT_REQUIRED_SCOPES")?;
    if let Some(leeway) = parsed("TOOLC_JWT_LEEWAY_SECS", "a number of seconds")? {
        config.leeway_secs = leeway;
    }
    if let Some(tokens) = parsed("TOOLC_JWT_TOKEN_CACHE", "a number of tokens")? {
        config.token_cache = tokens;
    }
    let mut claims = ClaimMapping::default();
    if let Some(id) = var("TOOLC_JWT_ID_CLAIM")? {
        claims.id = id;
    }
    let roles = list("TOOLC_JWT_ROLES_CLAIMS")?;
    if !roles.is_empty() {
        claims.roles = roles;
    }
    claims.admin_roles = list("TOOLC_JWT_ADMIN_ROLES")?;
    config.claims = claims;
    JwtValidator::new(config)
        .map(Some)
        .map_err(|e| format!("the TOOLC_JWT_* settings are not usable: {e}"))
}

fn redis(agent: &str) -> Result<Option<RedisStore>, String> {
    let Some(url) = var("TOOLC_REDIS_URL")? else {
        return Ok(None);
    };
    let mut config = RedisConfig::new(url)
        .prefix(var("TOOLC_REDIS_PREFIX")?.unwrap_or_else(|| format!("toolc:{agent}:")))
        .fail_open(flag("TOOLC_REDIS_FAIL_OPEN")?);
    if let Some(ms) = parsed("TOOLC_REDIS_TIMEOUT_MS", "a number of milliseconds")? {
        config = config.timeout(Duration::from_millis(ms));
    }
    RedisStore::new(config)
        .map(Some)
        .map_err(|e| format!("TOOLC_REDIS_URL: {e}"))
}

fn http_config() -> Result<HttpConfig, String> {
    let mut config = HttpConfig::new().stateless(flag("TOOLC_STATELESS")?);
    if let Some(bytes) = parsed("TOOLC_MAX_BODY_BYTES", "a number of bytes")? {
        config = config.max_body_bytes(bytes);
    }
    if let Some(secs) = parsed("TOOLC_SHUTDOWN_GRACE_SECS", "a number of seconds")? {
        config = config.shutdown_grace(Duration::from_secs(secs));
    }
    if std::env::var_os("TOOLC_ALLOWED_HOSTS").is_some() {
        config = config.allowed_hosts(list("TOOLC_ALLOWED_HOSTS")?);
    }
    Ok(config)
}

fn init_logging() -> Result<(), String> {
    let Some(filter) = var("TOOLC_LOG")? else {
        return Ok(());
    };
    let filter = tracing_subscriber::EnvFilter::try_new(&filter)
        .map_err(|e| format!("TOOLC_LOG is not a log filter ({e}): try info or warn"))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match var("TOOLC_LOG_FORMAT")?.as_deref() {
        None | Some("text") => builder.init(),
        Some("json") => builder.json().init(),
        Some(other) => {
            return Err(format!(
                "TOOLC_LOG_FORMAT must be text or json, got {other:?}"
            ));
        }
    }
    Ok(())
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

/// Reads the plugins file at `path` again on each SIGHUP and serves the tools it says, from a
/// task of its own; the hangup handler is in place when this returns.
#[cfg(unix)]
fn reload_on_hangup(server: McpServer, path: PathBuf, mut loaded: Plugins) -> Result<(), String> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut hangups = signal(SignalKind::hangup())
        .map_err(|e| format!("--plugins: cannot listen for SIGHUP: {e}"))?;
    tokio::spawn(async move {
        while hangups.recv().await.is_some() {
            let wanted = match plugins::read(&path) {
                Ok(wanted) => wanted,
                Err(e) => {
                    eprintln!(
                        "mcp-server: {}: {e}; the plugin tools stay as they were",
                        path.display()
                    );
                    continue;
                }
            };
            match server.update(|agent| loaded.apply(agent, wanted)).await {
                Ok(served) => {
                    loaded.keep(served);
                    let names: Vec<&str> = loaded.names().collect();
                    let names = if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    };
                    eprintln!("mcp-server: plugin tools now: {names}");
                }
                Err(e) => eprintln!(
                    "mcp-server: {}: {e}; the plugin tools stay as they were",
                    path.display()
                ),
            }
        }
    });
    Ok(())
}

/// Without SIGHUP the plugins file is read once, at start.
#[cfg(not(unix))]
fn reload_on_hangup(_: McpServer, _: PathBuf, _: Plugins) -> Result<(), String> {
    Ok(())
}

/// The command line.
struct Options {
    agent: String,
    http: Option<SocketAddr>,
    deferred: bool,
    pinned: Vec<String>,
    plugins: Option<PathBuf>,
    #[cfg(feature = "soak")]
    soak_tools: bool,
}

impl Options {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
        let agent = args.next().ok_or("name an agent")?;
        let mut options = Options {
            agent,
            http: None,
            deferred: false,
            pinned: Vec::new(),
            plugins: None,
            #[cfg(feature = "soak")]
            soak_tools: false,
        };
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--http" => {
                    let addr = args.next().ok_or("--http wants an address")?;
                    let addr = addr.parse::<SocketAddr>().map_err(|e| {
                        format!(
                            "--http wants an address such as 127.0.0.1:8080 or 0.0.0.0:8080: {e}"
                        )
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
                "--plugins" => {
                    options.plugins = Some(args.next().ok_or("--plugins wants a file")?.into());
                }
                #[cfg(feature = "soak")]
                "--soak-tools" => options.soak_tools = true,
                other => return Err(format!("unexpected argument {other:?}")),
            }
        }
        Ok(options)
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("mcp-server: {message}\n{USAGE}");
    ExitCode::from(2)
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => return usage_error(&message),
    };
    let (name, http) = (&options.agent, options.http);
    let Some(agent) = agent(name) else {
        return usage_error(&format!("no agent named {name:?}"));
    };
    #[cfg(feature = "soak")]
    let agent = {
        let mut agent = agent;
        if options.soak_tools
            && let Err(e) = soak_tools::register(&mut agent)
        {
            return usage_error(&format!("--soak-tools: {e}"));
        }
        agent
    };
    let settings = (|| Ok::<_, String>((identity()?, jwt()?, redis(name)?, http_config()?)))();
    let (identity, jwt, store, config) = match settings {
        Ok(settings) => settings,
        Err(message) => return usage_error(&message),
    };
    if let Err(message) = init_logging() {
        return usage_error(&message);
    }
    let authenticated = jwt.is_some();
    let mut server = McpServer::new(agent).with_caller(move |request| {
        // A token's caller when there is one; otherwise the one from the environment.
        let caller = match request.identity() {
            Some(verified) => verified.caller.clone(),
            None => identity.caller.clone(),
        };
        let ctx = CallContext::new(request.call_id()).with_caller(caller);
        match &identity.scope {
            Some(scope) => ctx.with_shared_scope(Arc::clone(scope)),
            None => ctx,
        }
    });
    if let Some(store) = store {
        server = server.with_store(store);
    }
    if options.deferred {
        server = match server.with_deferred_loading(&options.pinned) {
            Ok(server) => server,
            Err(e) => return usage_error(&e.to_string()),
        };
    }
    if let Some(max) = match parsed("TOOLC_MAX_CONCURRENT_CALLS", "a number") {
        Ok(max) => max,
        Err(message) => return usage_error(&message),
    } {
        server = server.with_max_concurrent_calls(max);
    }
    if let Some(secs) = match parsed::<u64>("TOOLC_APPROVAL_TTL_SECS", "a number of seconds") {
        Ok(secs) => secs,
        Err(message) => return usage_error(&message),
    } {
        server = server.with_approval_ttl(Duration::from_secs(secs));
    }
    if let Some(path) = &options.plugins {
        let mut loaded = Plugins::default();
        let wanted = match plugins::read(path) {
            Ok(wanted) => wanted,
            Err(e) => return usage_error(&format!("--plugins {}: {e}", path.display())),
        };
        match server.update(|agent| loaded.apply(agent, wanted)).await {
            Ok(served) => loaded.keep(served),
            Err(e) => return usage_error(&format!("--plugins {}: {e}", path.display())),
        }
        if let Err(message) = reload_on_hangup(server.clone(), path.clone(), loaded) {
            return usage_error(&message);
        }
    }
    let served = match http {
        None => server.serve_stdio().await,
        Some(addr) if !addr.ip().is_loopback() && !authenticated => {
            return usage_error(&format!(
                "refusing {addr}: off loopback every request must be authenticated; set \
                 TOOLC_JWT_ISSUER and TOOLC_RESOURCE_URL (and TOOLC_JWKS_URL), or serve on a \
                 loopback address (127.0.0.1 or ::1)"
            ));
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
            let config = match jwt {
                Some(validator) => config.authenticator(validator),
                None => config,
            };
            server
                .serve_http_with(listener, config, toolc_mcp::shutdown_signal())
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
