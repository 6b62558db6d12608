//! The soak run's own tools (`benches/soak.rs`): the ways a call goes wrong that the example's
//! tools never take. `mcp-server --soak-tools` serves them beside the agent's own, and only a
//! build with the `soak` feature has that option; the tools of `manifests/` are untouched.
//!
//! | tool | arguments | answer |
//! |---|---|---|
//! | `soak_fail` | `{"n": integer}` | the handler's error `failure N on purpose` |
//! | `soak_panic` | `{"n": integer}` | the handler panics with `panic N on purpose` |
//! | `soak_sleep` | `{"ms": integer}` | `{"slept": ms}` after `ms` milliseconds; its timeout is [`SLEEP_TIMEOUT`] |
//! | `soak_wait` | `{}` | nothing: it waits until the call is cancelled (an hour at most) |

use std::time::Duration;

use serde_json::{Value, json};
use toolc_runtime::{Agent, AgentError, CallContext, HandlerError, RegisteredTool};

/// `soak_sleep`'s time budget.
pub const SLEEP_TIMEOUT: Duration = Duration::from_millis(20);

fn integer(name: &str) -> Value {
    json!({
        "type": "object",
        "properties": { name: { "type": "integer", "minimum": 0 } },
        "required": [name],
        "additionalProperties": false
    })
}

fn n(arguments: &Value, name: &str) -> u64 {
    arguments[name].as_u64().unwrap_or_default()
}

/// Registers the soak tools on `agent`.
pub fn register(agent: &mut Agent) -> Result<(), AgentError> {
    agent.register(RegisteredTool::new(
        "soak_fail",
        "Fails: the handler answers an error.",
        integer("n"),
        |arguments: Value, _: CallContext| async move {
            Err::<Value, _>(HandlerError::msg(format!(
                "failure {} on purpose",
                n(&arguments, "n")
            )))
        },
    ))?;
    agent.register(RegisteredTool::new(
        "soak_panic",
        "Panics in the handler.",
        integer("n"),
        |arguments: Value, _: CallContext| async move {
            let n = n(&arguments, "n");
            if n < u64::MAX {
                panic!("panic {n} on purpose");
            }
            Ok::<_, HandlerError>(Value::Null)
        },
    ))?;
    agent.register(
        RegisteredTool::new(
            "soak_sleep",
            "Sleeps for `ms` milliseconds, past its timeout when `ms` is large.",
            integer("ms"),
            |arguments: Value, _: CallContext| async move {
                let ms = n(&arguments, "ms");
                tokio::time::sleep(Duration::from_millis(ms)).await;
                Ok::<_, HandlerError>(json!({ "slept": ms }))
            },
        )
        .timeout(SLEEP_TIMEOUT),
    )?;
    agent.register(RegisteredTool::new(
        "soak_wait",
        "Waits until the call is cancelled.",
        json!({ "type": "object", "additionalProperties": false }),
        |_: Value, _: CallContext| async move {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            Ok::<_, HandlerError>(json!({ "waited": true }))
        },
    ))?;
    Ok(())
}
