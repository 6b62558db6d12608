//! The agreement harness: every toolset of the agreement test, compiled, and
//! their generated `check_arguments` behind a line protocol.
//!
//! ```text
//! agreement --describe    # the description build.rs wrote: per toolset, per tool and play,
//!                         # its group, canonical parameters and each dialect's advertised form
//! agreement               # reads {"toolset", "group"?, "tool", "arguments"} lines on stdin
//!                         # and answers {"accepted", "read", "error"} lines on stdout
//! ```
//!
//! `arguments` is the argument object itself (sent to the tool as its JSON text) or a string
//! holding argument text. `read` is the arguments as the call reads them (strict-mode nulls
//! dropped, integral floats as integers); `error` says why they were refused. `group`
//! (`toolboxes/<name>` or `playbooks/<name>`) is needed only when two groups of a toolset
//! have a tool of that name.

use serde_json::{Value, json};
use std::io::{BufRead, Write};

use toolc_agreement::DESCRIPTION;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {}
        [flag] if flag == "--describe" => {
            print!("{DESCRIPTION}");
            return std::process::ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("usage: agreement [--describe] (requests as JSON lines on stdin)");
            return std::process::ExitCode::from(2);
        }
    }
    let description: Value = serde_json::from_str(DESCRIPTION).expect("the embedded description");
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line.expect("stdin");
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Ok(request) => answer(&description, &request),
            Err(e) => {
                json!({"accepted": false, "read": null, "error": format!("not a request: {e}")})
            }
        };
        writeln!(stdout, "{answer}").expect("stdout");
        stdout.flush().expect("stdout");
    }
    std::process::ExitCode::SUCCESS
}

/// One request's answer.
fn answer(description: &Value, request: &Value) -> Value {
    let refuse = |error: String| json!({"accepted": false, "read": null, "error": error});
    let (Some(toolset), Some(tool)) = (request["toolset"].as_str(), request["tool"].as_str())
    else {
        return refuse("a request names a `toolset` and a `tool`".into());
    };
    let group = match request["group"].as_str() {
        Some(g) => g.to_owned(),
        None => match group_of(description, toolset, tool) {
            Ok(g) => g,
            Err(e) => return refuse(e),
        },
    };
    let text = match &request["arguments"] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match toolc_agreement::check(toolset, &group, tool, &text) {
        None => refuse(format!("toolset `{toolset}` has no group `{group}`")),
        Some(Ok(read)) => json!({"accepted": true, "read": read, "error": null}),
        Some(Err(e)) => json!({
            "accepted": false,
            "read": null,
            "kind": e.kind().as_str(),
            "error": e.to_string(),
            "violations": e
                .violations()
                .iter()
                .map(|v| json!({"pointer": v.pointer, "message": v.message}))
                .collect::<Vec<_>>(),
        }),
    }
}

/// The group of the one tool or play of `toolset` named `tool`.
fn group_of(description: &Value, toolset: &str, tool: &str) -> Result<String, String> {
    let set = description["toolsets"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["toolset"] == toolset)
        .ok_or_else(|| format!("no toolset `{toolset}`"))?;
    let groups: Vec<&str> = set["operations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|op| op["name"] == tool)
        .filter_map(|op| op["group"].as_str())
        .collect();
    match groups.as_slice() {
        [one] => Ok((*one).to_owned()),
        [] => Err(format!("toolset `{toolset}` has no tool or play `{tool}`")),
        _ => Err(format!(
            "toolset `{toolset}` has `{tool}` in {}: name the `group`",
            groups.join(", ")
        )),
    }
}
