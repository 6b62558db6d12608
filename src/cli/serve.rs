//! `toolc serve`: one agent of the manifests as an MCP server, each tool answered by its
//! backend (or a mock), through the runtime's execution contract. The toolset is checked and
//! linted as `toolc build` checks it before anything is served.

use super::output::{OutputArgs, Reporter, Stdout};
use super::watch::{self, Watched};
use crate::lint;
use crate::pipeline::{Analyzed, ConfigSource, analyze};
use crate::serve::secrets::Secrets;
use crate::serve::{self, Built};
use crate::{Code, Diagnostic, Severity};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use toolc_mcp::auth::jwt::{ClaimMapping, JwtConfig, JwtValidator};
use toolc_mcp::{HttpConfig, McpServer};
use toolc_runtime::store::{RedisConfig, RedisStore};
use toolc_runtime::{AuthLevel, CallContext, Caller, MemoryStore};

/// Which toolset, which agent and how its tools are answered: what `serve` and `call` share.
#[derive(clap::Args, Clone)]
pub struct ToolsetArgs {
    /// The agent to serve. May be left out when the toolset has one agent.
    #[arg(long)]
    pub agent: Option<String>,
    /// The config file. Default: toolc.toml in the manifest root, or beside it.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Answer every tool and play with a mock (its examples' results in turn, else values
    /// generated from `returns`), whatever its `backend`.
    #[arg(long)]
    pub mock: bool,
    /// The seed of the mocks' generated values: the same seed answers the same values.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// The runtime's log on stderr.
#[derive(clap::Args, Clone)]
pub struct LogArgs {
    /// Log the call events (and, over HTTP, the access log) on stderr with this filter
    /// (`info`, `debug`, `toolc_runtime=info`, …). Secrets the backends read are never in it.
    #[arg(long, value_name = "FILTER")]
    pub log: Option<String>,
    /// The log's format: text or json.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub log_format: String,
}

impl LogArgs {
    /// Starts logging, when asked.
    pub fn init(&self) -> Result<(), String> {
        let Some(filter) = &self.log else {
            return Ok(());
        };
        let filter = tracing_subscriber::EnvFilter::try_new(filter)
            .map_err(|e| format!("--log is not a log filter ({e}): try info or warn"))?;
        let builder = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr);
        if self.log_format == "json" {
            builder.json().init();
        } else {
            builder.init();
        }
        Ok(())
    }
}

/// Who calls, where no authenticator says: over stdio, or HTTP on loopback without tokens.
#[derive(clap::Args, Clone)]
pub struct CallerArgs {
    /// The caller's id (rate limits are kept per caller).
    #[arg(long, default_value = "anonymous")]
    pub caller: String,
    /// The caller's auth level: none, user or admin.
    #[arg(long, default_value = "none", value_parser = parse_auth)]
    pub auth: AuthLevel,
    /// A role of the caller (repeatable, or separate with commas).
    #[arg(long = "role", value_name = "ROLE", value_delimiter = ',')]
    pub roles: Vec<String>,
}

fn parse_auth(s: &str) -> Result<AuthLevel, String> {
    s.parse()
}

impl CallerArgs {
    pub fn caller(&self) -> Caller {
        Caller::new(self.caller.clone())
            .with_auth(self.auth)
            .with_roles(self.roles.iter().cloned())
    }
}

#[derive(clap::Args)]
pub struct ServeArgs {
    /// Manifest files or folders.
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    toolset: ToolsetArgs,
    #[command(flatten)]
    caller: CallerArgs,
    #[command(flatten)]
    log: LogArgs,
    /// Serve MCP's streamable HTTP on this address (port 0 picks one; the first line on stderr
    /// says which) instead of stdio. Off loopback, bearer tokens are required (--jwt-issuer).
    #[arg(long, value_name = "ADDR:PORT")]
    http: Option<SocketAddr>,
    /// Check the manifests again when they change: a good edit is served at once (clients are
    /// told the list changed), a bad one is reported and the last good toolset kept.
    #[arg(long)]
    watch: bool,
    #[command(flatten)]
    remote: RemoteArgs,
}

/// The HTTP transport's authentication, limits and shared state, as the runtime offers them.
#[derive(clap::Args)]
struct RemoteArgs {
    /// Require bearer JWTs from this issuer (`iss`); their claims make the caller.
    #[arg(long, value_name = "URL", requires = "resource_url")]
    jwt_issuer: Option<String>,
    /// This server's public URL, such as https://mcp.example.com/mcp (the tokens' audience).
    #[arg(long, value_name = "URL")]
    resource_url: Option<String>,
    /// Where the issuer's keys are. Default: discovered from the issuer.
    #[arg(long, value_name = "URL")]
    jwks_url: Option<String>,
    /// An audience accepted instead of the resource URL (repeatable).
    #[arg(long = "jwt-audience", value_name = "AUDIENCE")]
    jwt_audiences: Vec<String>,
    /// The claim naming the caller. Default: sub.
    #[arg(long, value_name = "CLAIM")]
    jwt_id_claim: Option<String>,
    /// A claim holding roles (repeatable; `/a/b` is a JSON pointer). Default: roles.
    #[arg(long = "jwt-roles-claim", value_name = "CLAIM")]
    jwt_roles_claims: Vec<String>,
    /// A role that makes a caller `admin` (repeatable).
    #[arg(long = "jwt-admin-role", value_name = "ROLE")]
    jwt_admin_roles: Vec<String>,
    /// A scope every token needs (repeatable).
    #[arg(long = "jwt-required-scope", value_name = "SCOPE")]
    jwt_required_scopes: Vec<String>,
    /// Clock skew allowed on `exp` and `nbf`, in seconds. Default: 30.
    #[arg(long, value_name = "SECS")]
    jwt_leeway_secs: Option<u64>,
    /// Keep rate limits and approval tokens in this Redis (redis://host:6379/0, unix:///path),
    /// shared by replicas. Default: in memory.
    #[arg(long, value_name = "URL")]
    redis_url: Option<String>,
    /// The Redis key prefix; replicas of one deployment share it. Default: toolc:<agent>:.
    #[arg(long, value_name = "PREFIX")]
    redis_prefix: Option<String>,
    /// The most a Redis operation may take, in milliseconds. Default: 500.
    #[arg(long, value_name = "MS")]
    redis_timeout_ms: Option<u64>,
    /// Let rate-limited calls through while Redis is down.
    #[arg(long)]
    redis_fail_open: bool,
    /// Serve without MCP sessions (any replica answers any request).
    #[arg(long)]
    stateless: bool,
    /// The largest request body, in bytes. Default: 4194304.
    #[arg(long, value_name = "BYTES")]
    max_body_bytes: Option<usize>,
    /// Calls one connection may run at once. Default: 32.
    #[arg(long, value_name = "N")]
    max_concurrent_calls: Option<usize>,
    /// How long a call held for approval waits for a person, in seconds. Default: 600.
    #[arg(long, value_name = "SECS")]
    approval_ttl_secs: Option<u64>,
    /// How long calls in flight may finish on shutdown, in seconds. Default: 10.
    #[arg(long, value_name = "SECS")]
    shutdown_grace_secs: Option<u64>,
    /// A `Host` value accepted (repeatable). Default: the loopback names, or any off loopback.
    #[arg(long = "allowed-host", value_name = "HOST")]
    allowed_hosts: Vec<String>,
}

/// Checks and lints the manifests as `toolc build` does, then builds the agent: its
/// diagnostics (and the build's warnings) reported; `Err` with the exit status when nothing
/// can be served.
pub(super) fn load(
    paths: &[PathBuf],
    args: &ToolsetArgs,
    reporter: &Reporter,
) -> Result<(Analyzed, Built), ExitCode> {
    let source = args
        .config
        .clone()
        .map_or(ConfigSource::Discover, ConfigSource::File);
    let analyzed = analyze(paths, &Default::default(), &source, &Default::default());
    // Errors and warnings: a server's stderr is no place for the lint's notes.
    let mut groups = lint::group(&analyzed.findings);
    groups.retain(|g| g.finding.severity != Severity::Note);
    let all = analyzed.all_diagnostics();
    let io = analyzed.diagnostics.iter().any(|d| d.code == Code::Io);
    if io || !analyzed.config_ok || all.iter().any(Diagnostic::is_error) {
        reporter.report(&analyzed.sources, &analyzed.diagnostics, &groups, None);
        return Err(ExitCode::from(if io || !analyzed.config_ok {
            2
        } else {
            1
        }));
    }
    let agent = match serve::find_agent(&analyzed.toolset, args.agent.as_deref()) {
        Ok(a) => a,
        Err(d) => {
            reporter.diagnostics(&analyzed.sources, &[*d]);
            return Err(ExitCode::from(2));
        }
    };
    let options = serve::Options {
        mock: args.mock,
        seed: args.seed,
    };
    match serve::build(&analyzed, agent, options) {
        Ok(built) => {
            // Warnings of the manifests (lint's included) and of the build.
            let mut shown: Vec<Diagnostic> = analyzed
                .diagnostics
                .iter()
                .filter(|d| d.severity != Severity::Note)
                .cloned()
                .collect();
            shown.extend(built.warnings.iter().cloned());
            if !shown.is_empty() || !groups.is_empty() {
                reporter.report(&analyzed.sources, &shown, &groups, None);
            }
            Ok((analyzed, built))
        }
        Err(problems) => {
            let mut shown = analyzed.diagnostics.clone();
            shown.extend(problems);
            reporter.report(&analyzed.sources, &shown, &groups, None);
            let errors = shown
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count();
            Err(ExitCode::from(if errors > 0 { 2 } else { 1 }))
        }
    }
}

pub fn run(args: ServeArgs, output: OutputArgs) -> ExitCode {
    // stdout is the MCP stream (over stdio): every report goes to stderr.
    let reporter = Reporter::new(output, Stdout::Product);
    if let Err(message) = args.log.init() {
        return usage(&message);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return usage(&format!("cannot start the async runtime: {e}")),
    };
    runtime.block_on(serve_async(args, reporter, output))
}

fn usage(message: &str) -> ExitCode {
    eprintln!("toolc serve: {message}");
    ExitCode::from(2)
}

async fn serve_async(args: ServeArgs, reporter: Reporter, output: OutputArgs) -> ExitCode {
    let (analyzed, built) = match load(&args.paths, &args.toolset, &reporter) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let agent_name = built.agent.name().to_string();
    let remote = &args.remote;
    let jwt = match jwt(remote) {
        Ok(jwt) => jwt,
        Err(message) => return usage(&message),
    };
    let authenticated = jwt.is_some();
    let caller = args.caller.caller();
    let mut server = McpServer::new(built.agent).with_caller(move |request| {
        // A token's caller when there is one; otherwise the one of the command line.
        let caller = match request.identity() {
            Some(verified) => verified.caller.clone(),
            None => caller.clone(),
        };
        CallContext::new(request.call_id()).with_caller(caller)
    });
    server = match redis(remote, &agent_name) {
        Ok(Some(store)) => server.with_store(store),
        // Kept by the server rather than by each tool, so that rate limits and approvals
        // outlive a reloaded toolset (`--watch`).
        Ok(None) => server.with_store(MemoryStore::new()),
        Err(message) => return usage(&message),
    };
    if let Some(max) = remote.max_concurrent_calls {
        server = server.with_max_concurrent_calls(max);
    }
    if let Some(secs) = remote.approval_ttl_secs {
        server = server.with_approval_ttl(Duration::from_secs(secs));
    }
    let secrets = Arc::new(Mutex::new(built.secrets.clone()));
    if args.watch {
        let mut roots = args.paths.clone();
        roots.extend(args.toolset.config.clone());
        let watched = Watched::new(roots, analyzed.toolset.inputs.clone());
        tokio::spawn(watch(
            watched,
            args.paths.clone(),
            args.toolset.clone(),
            output,
            // A clone serves what the server serves: an update of one is an update of all.
            server.clone(),
            Arc::clone(&secrets),
        ));
    }
    drop(analyzed);
    let served = match args.http {
        None => server.serve_stdio().await,
        Some(addr) if !addr.ip().is_loopback() && !authenticated => {
            return usage(&format!(
                "refusing {addr}: off loopback every request must be authenticated; give \
                 --jwt-issuer and --resource-url (and --jwks-url), or serve on a loopback \
                 address (127.0.0.1 or ::1)"
            ));
        }
        Some(addr) => {
            let listener = match tokio::net::TcpListener::bind(addr).await {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("toolc serve: cannot listen on {addr}: {e}");
                    return ExitCode::from(2);
                }
            };
            if let Ok(bound) = listener.local_addr() {
                eprintln!("toolc serve: serving {agent_name} at http://{bound}/mcp");
            }
            let mut config = HttpConfig::new().stateless(remote.stateless);
            if let Some(bytes) = remote.max_body_bytes {
                config = config.max_body_bytes(bytes);
            }
            if let Some(secs) = remote.shutdown_grace_secs {
                config = config.shutdown_grace(Duration::from_secs(secs));
            }
            if !remote.allowed_hosts.is_empty() {
                config = config.allowed_hosts(remote.allowed_hosts.clone());
            }
            if let Some(validator) = jwt {
                config = config.authenticator(validator);
            }
            server
                .serve_http_with(listener, config, toolc_mcp::shutdown_signal())
                .await
        }
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let secrets = secrets.lock().unwrap_or_else(|p| p.into_inner());
            eprintln!("toolc serve: {}", secrets.redact(&e.to_string()));
            ExitCode::FAILURE
        }
    }
}

/// `--watch`: each change to the manifests is checked as at the start; a good toolset is served
/// at once in place of the last ([`McpServer::update`]: calls in flight finish on the agent they
/// began with, and every client is told the list changed), a bad one reported with its
/// diagnostics while the last good one keeps serving.
async fn watch(
    mut watched: Watched,
    paths: Vec<PathBuf>,
    toolset: ToolsetArgs,
    output: OutputArgs,
    server: McpServer,
    secrets: Arc<Mutex<Secrets>>,
) {
    let reporter = Reporter::new(output, Stdout::Product);
    loop {
        tokio::time::sleep(watch::INTERVAL).await;
        if !watched.changed() {
            continue;
        }
        // An editor writes a file in steps: wait until it has been still for one look.
        while {
            tokio::time::sleep(watch::INTERVAL).await;
            watched.changed()
        } {}
        let loaded = tokio::task::block_in_place(|| load(&paths, &toolset, &reporter));
        match loaded {
            Ok((analyzed, built)) => {
                watched.set_inputs(analyzed.toolset.inputs.clone());
                {
                    let mut kept = secrets.lock().unwrap_or_else(|p| p.into_inner());
                    *kept = kept.with(&built.secrets);
                }
                let name = built.agent.name().to_string();
                let tools = built.agent.tools().len();
                let agent = built.agent;
                let replaced = server
                    .update(move |served| {
                        *served = agent;
                        Ok(())
                    })
                    .await;
                match replaced {
                    Ok(()) => eprintln!(
                        "toolc serve: the manifests changed; serving {name} again ({tools} tools \
                         and plays), the clients told the list changed"
                    ),
                    Err(e) => eprintln!(
                        "toolc serve: the manifests changed but cannot be served ({e}): still \
                         serving the last good toolset"
                    ),
                }
            }
            Err(_) => eprintln!(
                "toolc serve: the manifests changed and have errors (above): still serving the \
                 last good toolset; fix them and save again"
            ),
        }
    }
}

fn jwt(remote: &RemoteArgs) -> Result<Option<JwtValidator>, String> {
    let Some(issuer) = &remote.jwt_issuer else {
        return Ok(None);
    };
    let resource = remote.resource_url.clone().ok_or(
        "--jwt-issuer needs --resource-url: this server's public URL, such as https://mcp.example.com/mcp",
    )?;
    let mut config = JwtConfig::new(issuer.clone(), resource);
    config.jwks_url = remote.jwks_url.clone();
    config.audiences = remote.jwt_audiences.clone();
    config.required_scopes = remote.jwt_required_scopes.clone();
    if let Some(leeway) = remote.jwt_leeway_secs {
        config.leeway_secs = leeway;
    }
    let mut claims = ClaimMapping::default();
    if let Some(id) = &remote.jwt_id_claim {
        claims.id = id.clone();
    }
    if !remote.jwt_roles_claims.is_empty() {
        claims.roles = remote.jwt_roles_claims.clone();
    }
    claims.admin_roles = remote.jwt_admin_roles.clone();
    config.claims = claims;
    JwtValidator::new(config)
        .map(Some)
        .map_err(|e| format!("the --jwt-* settings are not usable: {e}"))
}

fn redis(remote: &RemoteArgs, agent: &str) -> Result<Option<RedisStore>, String> {
    let Some(url) = &remote.redis_url else {
        return Ok(None);
    };
    let mut config = RedisConfig::new(url.clone())
        .prefix(
            remote
                .redis_prefix
                .clone()
                .unwrap_or_else(|| format!("toolc:{agent}:")),
        )
        .fail_open(remote.redis_fail_open);
    if let Some(ms) = remote.redis_timeout_ms {
        config = config.timeout(Duration::from_millis(ms));
    }
    RedisStore::new(config)
        .map(Some)
        .map_err(|e| format!("--redis-url: {e}"))
}
