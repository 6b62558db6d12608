//! How generated code behaves, called through its dispatchers: one test
//! binary, a module per area.

mod admitted;
mod coverage;
mod defaults;
mod delegation;
mod formats;
mod imported;
mod instances;
mod many;
mod numbers;
mod one_validator;
mod refinements;
mod search;
mod sensitive;
mod vouched;

use std::future::Future;
use toolc_runtime::{CallContext, ToolError, Toolbox};

/// Calls `tool` of `toolbox` with argument text, as a host would.
fn call(
    toolbox: &dyn Toolbox,
    tool: &str,
    arguments: &str,
) -> Result<serde_json::Value, ToolError> {
    block_on(toolbox.call(tool, arguments, &CallContext::new("test")))
}

fn block_on<F: Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(f)
}
