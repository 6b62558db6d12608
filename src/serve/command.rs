//! The `command` backend: a program run once per call, the arguments as JSON on its stdin,
//! its answer as JSON on its stdout. The tool's `timeout_ms` ends the call and kills the
//! program; a non-zero exit is the handler's failure with the tail of stderr, secrets
//! removed.

use super::secrets::Secrets;
use crate::model::backend::Command;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use toolc_runtime::{BoxFuture, CallContext, HandlerError, ToolHandler};

/// The most of stdout read: an answer larger than this is refused.
const MAX_STDOUT: usize = 16 << 20;
/// How much of stderr's end a failure quotes.
const STDERR_TAIL: usize = 2000;

/// A program serving one tool.
#[derive(Clone)]
pub struct Program(Arc<Inner>);

struct Inner {
    tool: String,
    program: PathBuf,
    args: Vec<String>,
    dir: PathBuf,
    /// How the command is named in errors: as the manifest writes it.
    shown: String,
    secrets: Secrets,
}

impl Program {
    pub fn new(tool: &str, command: &Command, secrets: Secrets) -> Program {
        // A program that names a folder is relative to the manifest; one that does not is
        // found on PATH.
        let program = if command.program.contains('/') {
            command.dir.join(&command.program)
        } else {
            PathBuf::from(&command.program)
        };
        let shown = std::iter::once(command.program.as_str())
            .chain(command.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        Program(Arc::new(Inner {
            tool: tool.to_string(),
            program,
            args: command.args.clone(),
            dir: command.dir.clone(),
            shown,
            secrets,
        }))
    }
}

impl ToolHandler for Program {
    fn call(
        &self,
        arguments: Value,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<Value, HandlerError>> {
        let inner = Arc::clone(&self.0);
        Box::pin(async move {
            run(&inner, &arguments, &ctx)
                .await
                .map_err(|message| HandlerError::msg(inner.secrets.redact(&message)))
        })
    }
}

async fn run(inner: &Inner, arguments: &Value, ctx: &CallContext) -> Result<Value, String> {
    let shown = &inner.shown;
    let dir = if inner.dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        inner.dir.clone()
    };
    let mut child = tokio::process::Command::new(&inner.program)
        .args(&inner.args)
        .current_dir(&dir)
        .env("TOOLC_TOOL", &inner.tool)
        .env("TOOLC_CALL_ID", ctx.call_id())
        .env("TOOLC_CALLER", &ctx.caller().id)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // The tool's timeout drops this future: the program is killed with it.
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| {
            format!(
                "the command `{shown}` cannot be started in `{}`: {e}",
                dir.display()
            )
        })?;
    let input = arguments.to_string();
    let mut stdin = child.stdin.take();
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let write = async {
        if let Some(mut s) = stdin.take() {
            // A program that exits without reading its input is not an error of the call.
            let _ = s.write_all(input.as_bytes()).await;
            let _ = s.shutdown().await;
        }
    };
    let read_out = async {
        let mut out = Vec::new();
        if let Some(s) = stdout.as_mut() {
            s.take(MAX_STDOUT as u64 + 1).read_to_end(&mut out).await?;
        }
        Ok::<_, std::io::Error>(out)
    };
    let read_err = async {
        let mut err = Vec::new();
        if let Some(s) = stderr.as_mut() {
            s.read_to_end(&mut err).await?;
        }
        Ok::<_, std::io::Error>(err)
    };
    let ((), out, err) = tokio::join!(write, read_out, read_err);
    let status = child
        .wait()
        .await
        .map_err(|e| format!("the command `{shown}` could not be waited for: {e}"))?;
    let out = out.map_err(|e| format!("the output of `{shown}` could not be read: {e}"))?;
    let err = err.unwrap_or_default();
    if !status.success() {
        let how = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was ended by a signal".to_string(),
        };
        let tail = tail(&err);
        return Err(if tail.is_empty() {
            format!("the command `{shown}` {how}")
        } else {
            format!("the command `{shown}` {how}: {tail}")
        });
    }
    if out.len() > MAX_STDOUT {
        return Err(format!(
            "the command `{shown}` answered more than {} MiB on stdout",
            MAX_STDOUT >> 20
        ));
    }
    let text = String::from_utf8_lossy(&out);
    if text.trim().is_empty() {
        return Err(format!(
            "the command `{shown}` answered nothing on stdout: it must print the result as JSON"
        ));
    }
    serde_json::from_str(&text).map_err(|e| {
        let start: String = text.trim().chars().take(120).collect();
        format!(
            "the command `{shown}` answered what is not JSON ({e}); its output begins `{start}`"
        )
    })
}

/// The last lines of stderr, at most [`STDERR_TAIL`] bytes, on one line.
fn tail(err: &[u8]) -> String {
    let text = String::from_utf8_lossy(err);
    let text = text.trim();
    let mut start = text.len().saturating_sub(STDERR_TAIL);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let cut = if start > 0 { "…" } else { "" };
    format!(
        "{cut}{}",
        text[start..]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    )
}
