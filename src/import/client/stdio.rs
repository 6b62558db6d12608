//! MCP over stdio: the server is a process toolc starts, messages are lines of JSON on its
//! stdin and stdout (MCP's stdio transport). Its stderr is kept (the last lines) for the
//! error message when something goes wrong. To stop it, toolc closes its stdin and waits
//! [`GRACE`]; a server still running then is killed.

use super::{Incoming, Transport, excerpt, incoming, notification_text, request_text, seconds};
use crate::import::Failure;
use serde_json::Value;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a server may take to exit once its stdin is closed.
pub const GRACE: Duration = Duration::from_secs(3);

/// How much of the server's stderr is kept: its last lines, up to this many bytes.
const STDERR_KEPT: usize = 4096;

/// How many lines of stdout that are not JSON-RPC are kept, for the error message.
const STRAY_KEPT: usize = 3;

/// A server started as a process, spoken to over its stdin and stdout.
pub struct StdioServer {
    /// `command args…`, for messages.
    shown: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<String>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Lines of stdout that were not JSON-RPC messages.
    stray: Vec<String>,
    timeout: Duration,
    closed: bool,
}

impl StdioServer {
    /// Starts `command` with `args`, its stdin and stdout piped to toolc.
    pub fn start(command: &str, args: &[String], timeout: Duration) -> Result<Self, Failure> {
        let shown = std::iter::once(command)
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let mut child = Command::new(command)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                Failure::io(
                    format!("cannot start `{shown}`: {e}"),
                    "give the server's command and arguments after `--`, as an MCP client's configuration names them (`command`, `args`)",
                )
            })?;
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            return Err(Failure::io(
                format!("cannot read the output of `{shown}`"),
                "this is a fault of the system's pipes; try again",
            ));
        };
        let (send, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => {
                        let _ = send.send(None);
                        return;
                    }
                    Ok(_) => {
                        if send
                            .send(Some(String::from_utf8_lossy(&line).into_owned()))
                            .is_err()
                        {
                            return;
                        }
                    }
                }
            }
        });
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        let writer = Arc::clone(&kept);
        std::thread::spawn(move || {
            let mut stderr = stderr;
            let mut chunk = [0u8; 1024];
            while let Ok(n @ 1..) = stderr.read(&mut chunk) {
                if let Ok(mut kept) = writer.lock() {
                    kept.extend(&chunk[..n]);
                    while kept.len() > STDERR_KEPT {
                        kept.pop_front();
                    }
                }
            }
        });
        Ok(StdioServer {
            shown,
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: kept,
            stray: Vec::new(),
            timeout,
            closed: false,
        })
    }

    /// The help of a failure: what to do, then what the server wrote that may say why.
    fn help(&self, what_to_do: &str) -> String {
        let mut help = what_to_do.to_string();
        if !self.stray.is_empty() {
            help.push_str(&format!(
                "; it wrote on stdout what is not JSON-RPC (an MCP server writes only its messages there, its logs on stderr): {}",
                self.stray
                    .iter()
                    .map(|l| format!("`{}`", excerpt(l.trim_end())))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let stderr = self.stderr_tail();
        if !stderr.is_empty() {
            help.push_str("; the server's stderr ends with:\n");
            for line in stderr.lines() {
                help.push_str(&format!("        | {line}\n"));
            }
            help.truncate(help.trim_end().len());
        }
        help
    }

    /// The last lines of the server's stderr (whole lines only, at most [`STDERR_KEPT`] bytes).
    fn stderr_tail(&self) -> String {
        // The thread that reads stderr may still be taking in the last of it.
        std::thread::sleep(Duration::from_millis(50));
        let bytes: Vec<u8> = match self.stderr.lock() {
            Ok(kept) => kept.iter().copied().collect(),
            Err(_) => return String::new(),
        };
        let text = String::from_utf8_lossy(&bytes);
        let text = if bytes.len() >= STDERR_KEPT {
            text.split_once('\n').map_or("", |(_, rest)| rest)
        } else {
            &text
        };
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }

    fn send(&mut self, text: &str, what: &str) -> Result<(), Failure> {
        let written = match &mut self.stdin {
            Some(stdin) => stdin
                .write_all(text.as_bytes())
                .and_then(|()| stdin.write_all(b"\n"))
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|e| {
            let status = self.exited();
            Failure::io(
                format!("cannot send `{what}` to `{}`: {e}{status}", self.shown),
                self.help("the server stopped reading its stdin; check that the command starts an MCP server over stdio"),
            )
        })
    }

    /// `` (the server runs) or `; it exited with exit status: 1`.
    fn exited(&mut self) -> String {
        std::thread::sleep(Duration::from_millis(20));
        match self.child.try_wait() {
            Ok(Some(status)) => format!("; it exited ({status})"),
            _ => String::new(),
        }
    }
}

impl Transport for StdioServer {
    fn request(&mut self, id: u64, method: &str, params: Value) -> Result<Value, Failure> {
        self.send(&request_text(id, method, &params), method)?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Some(line)) => {
                    let message = serde_json::from_str::<Value>(&line)
                        .ok()
                        .filter(|m| m.get("jsonrpc").is_some());
                    let Some(message) = message else {
                        if !line.trim().is_empty() && self.stray.len() < STRAY_KEPT {
                            self.stray.push(line);
                        }
                        continue;
                    };
                    match incoming(message, id) {
                        Incoming::Response(r) => return Ok(r),
                        Incoming::Answer(a) => self.send(&a.to_string(), "an answer")?,
                        Incoming::Ignore => {}
                    }
                }
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    let status = match self.child.wait_timeout(Duration::from_millis(500)) {
                        Some(status) => format!("exited ({status})"),
                        None => "closed its stdout".to_string(),
                    };
                    return Err(Failure::io(
                        format!("`{}` {status} before answering `{method}`", self.shown),
                        self.help("run the command by hand to see why it stops; toolc import mcp starts it with no arguments but those after `--`"),
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::io(
                        format!(
                            "`{}` did not answer `{method}` within {}",
                            self.shown,
                            seconds(self.timeout)
                        ),
                        self.help("a server that needs longer (to install itself, say) is given more with `--timeout SECONDS`"),
                    ));
                }
            }
        }
    }

    fn notify(&mut self, method: &str) -> Result<(), Failure> {
        self.send(&notification_text(method), method)
    }

    fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        // Closing stdin is how MCP's stdio transport asks a server to stop.
        drop(self.stdin.take());
        if self.child.wait_timeout(GRACE).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        self.close();
    }
}

/// Waiting for a child with a limit.
trait WaitTimeout {
    /// Its exit status, if it exits within `limit`.
    fn wait_timeout(&mut self, limit: Duration) -> Option<std::process::ExitStatus>;
}

impl WaitTimeout for Child {
    fn wait_timeout(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            match self.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => return None,
            }
        }
    }
}
