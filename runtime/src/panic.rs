//! Panics contained: the one place that catches a panic inside a future and words its
//! payload, for the dispatcher and the MCP server.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::errors::ToolError;
use crate::vocabulary::{ErrorKind, OperationKind, Truncated};

/// Polls `future`, turning a panic inside any poll into `Err(payload)`.
pub(crate) fn catch_panic<F: Future>(future: F) -> CatchPanic<F> {
    CatchPanic { future }
}

pin_project_lite::pin_project! {
    /// What [`catch_panic`] answers: the future itself, with nothing beside it, so a future
    /// awaiting it grows by no more than the future it guards.
    pub(crate) struct CatchPanic<F> {
        #[pin]
        future: F,
    }
}

impl<F: Future> Future for CatchPanic<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let future = self.project().future;
        match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(Poll::Ready(out)) => Poll::Ready(Ok(out)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
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

/// `panicked`: the tool or play `name` panicked with `payload`.
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
