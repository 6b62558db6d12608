//! The servers under load: each a command to which `stdio` or `http PORT` is appended, started
//! fresh for every measurement; and what `/proc` says of their processes.

use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};

use crate::session::Session;

/// A server as given on the command line: `NAME=PROGRAM ARG…`.
#[derive(Clone)]
pub struct Spec {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
}

impl Spec {
    pub fn parse(text: &str) -> Result<Spec, String> {
        let (name, command) = text
            .split_once('=')
            .ok_or_else(|| format!("--server wants NAME=COMMAND, got {text:?}"))?;
        let mut words = command.split_whitespace().map(str::to_owned);
        let program = words
            .next()
            .ok_or_else(|| format!("--server {name}= names no command"))?;
        Ok(Spec {
            name: name.to_owned(),
            program,
            args: words.collect(),
        })
    }

    fn command(&self, verbose: bool) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if verbose {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .kill_on_drop(true);
        command
    }

    /// `n` processes serving stdio, each with its session (not yet initialized).
    pub fn spawn_stdio(
        &self,
        n: usize,
        verbose: bool,
    ) -> Result<(Vec<Child>, Vec<Session>), String> {
        let mut children = Vec::with_capacity(n);
        let mut sessions = Vec::with_capacity(n);
        for _ in 0..n {
            let mut child = self
                .command(verbose)
                .arg("stdio")
                .spawn()
                .map_err(|e| format!("cannot start {}: {e}", self.program))?;
            let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
                return Err("the child has no pipes".to_owned());
            };
            sessions.push(Session::stdio(input, output));
            children.push(child);
        }
        Ok((children, sessions))
    }

    /// One process serving HTTP on a free loopback port, once it accepts connections.
    pub async fn spawn_http(&self, verbose: bool) -> Result<(Child, u16), String> {
        let port = free_port()?;
        let mut child = self
            .command(verbose)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .arg("http")
            .arg(port.to_string())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.program))?;
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("{} exited before it served: {status}", self.name));
            }
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return Ok((child, port));
            }
            if start.elapsed() > Duration::from_secs(60) {
                return Err(format!(
                    "{} did not listen on port {port} within 60 s",
                    self.name
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Ends a server: SIGTERM (so that a profiler wrapping it writes its output), then SIGKILL if it
/// has not exited within 10 s.
pub async fn stop(child: &mut Child) {
    if let Some(pid) = child.id() {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(pid.to_string())
            .status()
            .await;
        if tokio::time::timeout(Duration::from_secs(10), child.wait())
            .await
            .is_ok()
        {
            return;
        }
    }
    let _ = child.kill().await;
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

/// The peak resident set of a process (`VmHWM`), in KiB.
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// The CPU time (user and system) a process and its threads, ended ones included, have run,
/// in clock ticks of 10 ms (`/proc/PID/stat`).
pub fn cpu_ticks(pid: u32) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    // The fields after the command's closing parenthesis, from the state (field 3) on.
    let Some((_, rest)) = stat.rsplit_once(") ") else {
        return 0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |n: usize| {
        fields
            .get(n - 3)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(14) + field(15)
}
