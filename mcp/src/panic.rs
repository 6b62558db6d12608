//! Panics contained: a panic in a call (a handler, a hand-written toolbox, the caller hook, an
//! authenticator) fails that call or request, never the server.

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures_util::FutureExt;
use futures_util::future::CatchUnwind;
use toolc_runtime::{ErrorKind, OperationKind, ToolError};

use crate::truncated::Truncated;

/// Polls `future`, a panic inside any poll answered as `Err(payload)`.
pub(crate) fn catch_panic<F: Future>(future: F) -> CatchUnwind<AssertUnwindSafe<F>> {
    AssertUnwindSafe(future).catch_unwind()
}

/// A panic's payload as text for a message, truncated.
pub(crate) fn panic_text(payload: &(dyn Any + Send)) -> String {
    let text = if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else {
        "a non-string payload"
    };
    Truncated(text).to_string()
}

/// `panicked`: the tool or play `name` panicked with `payload`, in the words the runtime's
/// dispatcher uses for a handler's panic.
pub(crate) fn panicked(kind: OperationKind, name: &str, payload: &(dyn Any + Send)) -> ToolError {
    ToolError::new(
        ErrorKind::Panicked,
        name,
        format!(
            "{} '{name}' panicked: {}",
            kind.as_str(),
            panic_text(payload)
        ),
    )
}
