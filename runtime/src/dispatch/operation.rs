//! The typed half of a call: what differs from one tool or play to the next (its parameters
//! type, its refinement, its handler and its result type), behind one object-safe trait,
//! [`Operation`], so that the contract itself ([`super::contract`]) is compiled once for every
//! tool instead of once per tool.
//!
//! Per tool, generated code instantiates only [`Op`]: the parameters read from argument text
//! (the validating deserializer, and serde_json's own for the rare fallback), the handler's
//! future, and the result written (the validating serializer, and serde_json's own for the
//! fallback). Everything around them (policies, approvals, the timeout, panics, events, the
//! full validation walk) takes `dyn Operation`.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use super::answer::{Answer, Encoding};
use crate::descriptor::ToolDescriptor;
use crate::errors::{HandlerError, ToolError};
use crate::panic::panicked;
use crate::vocabulary::ErrorKind;
use toolc_schema::parse_arguments;
use toolc_schema::stream;
use toolc_schema::{Schema, json_pointer};
use toolc_schema::{Violation, Violations};

/// One tool or play bound to its handler, ready to serve one call: what a generated
/// dispatcher's arm makes, and what [`super::contract`] serves.
#[doc(hidden)]
pub struct Bound<'a> {
    pub(crate) desc: &'static ToolDescriptor,
    pub(crate) op: Pin<Box<dyn Operation + 'a>>,
}

impl Bound<'_> {
    /// Checks argument text as a call of this operation would, without its policies and
    /// without running it: read as the schema means it, validated, read into the parameters
    /// type and refined. The arguments as read, or the error the call would fail with.
    pub fn check(mut self, arguments: &str) -> Result<Value, ToolError> {
        self.op.as_mut().check(self.desc, arguments)
    }
}

impl std::fmt::Debug for Bound<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bound")
            .field("tool", &self.desc.name)
            .finish_non_exhaustive()
    }
}

/// Binds the operation `desc` describes to the checks compiled for its parameters and result
/// types (see [`crate::conforms`]), its refinement and its handler, for one call. `admit`:
/// the check of the parameters type, when arguments its own `Deserialize` reads in full may be
/// vouched for by it (`None` when they may not); `vouch`: the check of the result type
/// ([`crate::conforms::unvouched`] when there is none).
///
/// Nothing runs here: the arguments are read when the contract says so, and the handler is
/// called (its future made) only on the first poll, after the policies and any approval.
#[doc(hidden)]
pub fn bind<'a, P, R, C, F, Fut>(
    desc: &'static ToolDescriptor,
    admit: Option<fn(&P) -> bool>,
    refine: C,
    handler: F,
    vouch: fn(&R) -> bool,
) -> Bound<'a>
where
    P: DeserializeOwned + Send + 'a,
    R: Serialize + Send + 'a,
    C: FnOnce(&P) -> Result<(), Violations> + Send + 'a,
    F: FnOnce(P) -> Fut + Send + 'a,
    Fut: Future<Output = Result<R, HandlerError>> + Send + 'a,
{
    Bound {
        desc,
        op: Box::pin(Op {
            admit,
            refine: Some(refine),
            handler: Some(handler),
            params: None,
            running: None,
            result: None,
            vouch,
        }),
    }
}

/// The typed steps of one call, in the order the contract takes them.
pub(crate) trait Operation: Send {
    /// Reads the arguments into the parameters type, validated against `desc.parameters`, and
    /// runs the refinement on them; keeps the parameters for [`Operation::poll_run`].
    fn prepare(
        self: Pin<&mut Self>,
        desc: &'static ToolDescriptor,
        arguments: &str,
    ) -> Result<(), ToolError>;

    /// What [`Bound::check`] answers: the arguments read, validated and refined as
    /// [`Operation::prepare`] does, kept nowhere.
    fn check(
        self: Pin<&mut Self>,
        desc: &'static ToolDescriptor,
        arguments: &str,
    ) -> Result<Value, ToolError>;

    /// Runs the handler on the kept parameters (its future made on the first poll) until it
    /// answers; keeps its result for [`Operation::write`].
    fn poll_run(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), HandlerError>>;

    /// The kept result in the encoding asked for, validated against `desc.returns` when the
    /// tool validates its results.
    fn write(
        self: Pin<&mut Self>,
        desc: &'static ToolDescriptor,
        encoding: Encoding,
    ) -> Result<Answer, ToolError>;
}

pin_project_lite::pin_project! {
    /// [`Operation`] for one parameters type `P`, result type `R`, refinement and handler.
    struct Op<P, R, C, F, Fut> {
        admit: Option<fn(&P) -> bool>,
        refine: Option<C>,
        handler: Option<F>,
        params: Option<P>,
        #[pin]
        running: Option<Fut>,
        result: Option<R>,
        vouch: fn(&R) -> bool,
    }
}

impl<P, R, C, F, Fut> Operation for Op<P, R, C, F, Fut>
where
    P: DeserializeOwned + Send,
    R: Serialize + Send,
    C: FnOnce(&P) -> Result<(), Violations> + Send,
    F: FnOnce(P) -> Fut + Send,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    fn prepare(
        self: Pin<&mut Self>,
        desc: &'static ToolDescriptor,
        arguments: &str,
    ) -> Result<(), ToolError> {
        let this = self.project();
        let params = read::<P>(desc, arguments, *this.admit)?;
        if let Some(refine) = this.refine.take() {
            refined(desc, &mut Some(|| refine(&params)))?;
        }
        *this.params = Some(params);
        Ok(())
    }

    fn check(
        self: Pin<&mut Self>,
        desc: &'static ToolDescriptor,
        arguments: &str,
    ) -> Result<Value, ToolError> {
        let refine = self.project().refine.take();
        checked::<P>(desc, arguments, |params| {
            refine.map_or(Ok(()), |r| r(params))
        })
    }

    fn poll_run(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), HandlerError>> {
        let mut this = self.project();
        if this.running.is_none() {
            match (this.handler.take(), this.params.take()) {
                (Some(handler), Some(params)) => this.running.set(Some(handler(params))),
                // The contract runs an operation once, after `prepare`.
                _ => return Poll::Ready(Err(HandlerError::msg("the operation ran twice"))),
            }
        }
        let Some(future) = this.running.as_mut().as_pin_mut() else {
            return Poll::Ready(Err(HandlerError::msg("the operation ran twice")));
        };
        match future.poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(outcome) => {
                this.running.set(None);
                Poll::Ready(outcome.map(|result| *this.result = Some(result)))
            }
        }
    }

    fn write(
        self: Pin<&mut Self>,
        desc: &'static ToolDescriptor,
        encoding: Encoding,
    ) -> Result<Answer, ToolError> {
        let this = self.project();
        let Some(result) = this.result.as_ref() else {
            return Err(ToolError::new(
                ErrorKind::Panicked,
                desc.name,
                "the operation has no result to write".to_owned(),
            ));
        };
        // Only a tool that validates its results asks the check compiled for its type.
        let vouched = desc.validate_returns && (this.vouch)(result);
        encode(
            desc,
            (encoding, vouched),
            &|schema| {
                stream::checked(schema, result)
                    .and_then(|checked| crate::json_text::to_raw_value(&checked).ok())
            },
            &|| crate::json_text::to_raw_value(result),
            &|| serde_json::to_value(result),
        )
    }
}

/// Reads argument text into `P`. When `admit` (the check compiled for `P`) vouches for what
/// `P`'s own `Deserialize` read of the whole text, that is the reading; otherwise validated
/// while it is deserialized; and, when that cannot vouch for the text either, the full way
/// ([`read_value`]: parsed, normalized, validated, every violation listed) and then read from
/// the normalized value. Debug builds validate admitted arguments the full way as well, and
/// fail the call as `panicked` on a disagreement.
pub(crate) fn read<P: DeserializeOwned>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    admit: Option<fn(&P) -> bool>,
) -> Result<P, ToolError> {
    if let Some(admit) = admit
        && let Some(params) = crate::struct_fields::read_whole::<P>(arguments)
        && admit(&params)
    {
        if cfg!(debug_assertions) && read_value(desc, arguments).is_err() {
            return Err(ToolError::new(
                ErrorKind::Panicked,
                desc.name,
                "the check compiled for these parameters admitted arguments their schema \
                 refuses (a toolc bug; please report it with the manifest)"
                    .to_owned(),
            ));
        }
        return Ok(params);
    }
    match stream::from_str::<P>(desc.parameters, arguments) {
        Some(params) => Ok(params),
        None => from_value(desc, &read_value(desc, arguments)?),
    }
}

/// Parses, normalizes and validates argument text: the arguments as the schema means them
/// (`null` for an absent optional, as strict dialects send it; `5.0` read as `5` for an
/// integer), or the `arguments_invalid` error listing every violation.
pub(crate) fn read_value(
    desc: &'static ToolDescriptor,
    arguments: &str,
) -> Result<Value, ToolError> {
    let mut value = parse_arguments(arguments).map_err(|v| invalid(desc, vec![v]))?;
    desc.parameters.normalize_arguments(&mut value);
    if !desc.parameters.is_valid(&value) {
        return Err(invalid(desc, desc.parameters.validate(&value)));
    }
    Ok(value)
}

/// Checks argument text as a call would, running nothing but `refine`: read as the schema
/// means it ([`read_value`]), read into `P` and refined. The arguments as read, or the
/// `arguments_invalid` error (`panicked` when the refinement panics).
pub(crate) fn checked<P: DeserializeOwned>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    refine: impl FnOnce(&P) -> Result<(), Violations>,
) -> Result<Value, ToolError> {
    let value = read_value(desc, arguments)?;
    let params = from_value::<P>(desc, &value)?;
    refined(desc, &mut Some(|| refine(&params)))?;
    Ok(value)
}

/// Reads validated arguments into `P`, through their text, so that `P` is read by
/// serde_json's own deserializer of text (the one the validating one wraps) and by no other.
pub(crate) fn from_value<P: DeserializeOwned>(
    desc: &'static ToolDescriptor,
    value: &Value,
) -> Result<P, ToolError> {
    let text = value.to_string();
    serde_json::from_str(&text).map_err(|e| unreadable(desc, value, &e))
}

/// The arguments matched the schema but not the type (a hand-written toolbox whose type is
/// narrower than its schema; the compiler rules this out for generated ones): the violation
/// points at the value serde_json stopped at, and speaks of the value, not of Rust types.
#[cold]
fn unreadable(
    desc: &'static ToolDescriptor,
    value: &Value,
    error: &serde_json::Error,
) -> ToolError {
    let mut path = Vec::new();
    // The text is one line, and serde_json's column counts the bytes read when it stopped.
    locate(value, 0, error.column(), &mut path);
    invalid(
        desc,
        vec![Violation::new(
            json_pointer(path.iter().map(String::as_str)),
            "this value matches the parameters schema but cannot be read as its generated type \
             describes; please report it with the manifest"
                .to_owned(),
        )],
    )
}

/// Pushes onto `path` the segments down to the deepest value of `v` (whose compact text starts
/// at byte `start`) that was being read when `read` bytes were: its text spans them.
fn locate(v: &Value, start: usize, read: usize, path: &mut Vec<String>) {
    let mut at = start + 1;
    let child = |segment: String, item: &Value, at: &mut usize, path: &mut Vec<String>| {
        let len = item.to_string().len();
        let found = *at < read && read <= *at + len;
        if found {
            path.push(segment);
            locate(item, *at, read, path);
        }
        *at += len + 1;
        found
    };
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if child(i.to_string(), item, &mut at, path) {
                    return;
                }
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                // The key's text and its colon.
                at += Value::String(key.clone()).to_string().len() + 1;
                if child(key.clone(), item, &mut at, path) {
                    return;
                }
            }
        }
        _ => {}
    }
}

fn invalid(desc: &'static ToolDescriptor, violations: Vec<Violation>) -> ToolError {
    ToolError::with_violations(
        ErrorKind::ArgumentsInvalid,
        desc.kind,
        desc.name,
        violations,
    )
}

/// Runs a refinement (taken from `refine`, once): its violations fail the call with
/// `arguments_invalid`, its panic with `panicked`.
pub(crate) fn refined(
    desc: &'static ToolDescriptor,
    refine: &mut dyn RefineOnce,
) -> Result<(), ToolError> {
    let kind = desc.kind;
    // The refinement is the implementer's code: a panic there fails this call only.
    match catch_unwind(AssertUnwindSafe(|| refine.run())) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(Violations(mut violations))) => {
            if violations.is_empty() {
                violations.push(Violation::new(
                    "",
                    "refused by the tool's own check of its arguments, which gave no reason",
                ));
            }
            Err(invalid(desc, violations))
        }
        Err(payload) => Err(panicked(kind, desc.name, &*payload)),
    }
}

/// A refinement bound to its parameters, run at most once.
pub(crate) trait RefineOnce {
    fn run(&mut self) -> Result<(), Violations>;
}

impl<G: FnOnce() -> Result<(), Violations>> RefineOnce for Option<G> {
    fn run(&mut self) -> Result<(), Violations> {
        self.take().map_or(Ok(()), |g| g())
    }
}

/// A result in the encoding asked for. `vouched`: the check compiled for the result's type
/// vouched for it, so `plain` writes it (or `value` makes it, when a `Value` is asked for:
/// serde_json's `Value` of a value is the one it reads from its text); debug builds validate
/// it as well, and a disagreement fails the call as `panicked`. Otherwise written and
/// validated at once by `checked` (given the returns schema) when the tool validates its
/// results and that can vouch for it; otherwise written by `plain` and, when validated,
/// checked by the full walk, which lists every violation. A `Value` is then read from the
/// text, so it is what the host would receive.
fn encode(
    desc: &'static ToolDescriptor,
    (encoding, vouched): (Encoding, bool),
    checked: &dyn Fn(&'static Schema) -> Option<Box<RawValue>>,
    plain: &dyn Fn() -> Result<Box<RawValue>, serde_json::Error>,
    value: &dyn Fn() -> Result<Value, serde_json::Error>,
) -> Result<Answer, ToolError> {
    let kind = desc.kind;
    if vouched && encoding == Encoding::Value {
        // The `Value` serde_json makes of the result is the one it would read from its text.
        return match catch_unwind(AssertUnwindSafe(|| {
            let made = value();
            if cfg!(debug_assertions)
                && let (Ok(made), Some(returns)) = (&made, desc.returns)
            {
                agrees(returns, made);
            }
            made
        })) {
            Ok(Ok(made)) => Ok(Answer::Value(made)),
            Ok(Err(e)) => Err(unserializable(desc, &e)),
            Err(payload) => Err(panicked(kind, desc.name, &*payload)),
        };
    }
    let schema = if desc.validate_returns && !vouched {
        desc.returns
    } else {
        None
    };
    if let Some(schema) = schema {
        match catch_unwind(AssertUnwindSafe(|| checked(schema))) {
            Ok(Some(raw)) => return Ok(answer(raw, encoding)),
            Ok(None) => {}
            Err(payload) => return Err(panicked(kind, desc.name, &*payload)),
        }
    }
    let raw = match catch_unwind(AssertUnwindSafe(|| {
        let raw = plain();
        if cfg!(debug_assertions)
            && vouched
            && let (Ok(raw), Some(returns)) = (&raw, desc.returns)
        {
            agrees(
                returns,
                &serde_json::from_str(raw.get()).unwrap_or(Value::Null),
            );
        }
        raw
    })) {
        Ok(Ok(raw)) => raw,
        Ok(Err(e)) => return Err(unserializable(desc, &e)),
        Err(payload) => return Err(panicked(kind, desc.name, &*payload)),
    };
    if let Some(returns) = schema {
        // The text was written by serde_json: it reads back.
        let value: Value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
        if !returns.is_valid(&value) {
            return Err(ToolError::with_violations(
                ErrorKind::OutputInvalid,
                kind,
                desc.name,
                returns.validate(&value),
            ));
        }
        return Ok(match encoding {
            Encoding::Value => Answer::Value(value),
            Encoding::Json => Answer::Json(raw),
        });
    }
    Ok(answer(raw, encoding))
}

/// Debug builds: a result the check compiled for its type vouched for is valid against the
/// returns schema, as the full walk sees it; panics (failing the call) when it is not.
fn agrees(returns: &'static Schema, value: &Value) {
    let violations = returns.validate(value);
    assert!(
        violations.is_empty(),
        "the check compiled for this result's type vouched for a result its schema refuses \
         (a toolc bug; please report it with the manifest): {violations:?}"
    );
}

/// A result serde_json could not write (a map keyed by something other than strings, a
/// `Serialize` impl that fails).
fn unserializable(desc: &'static ToolDescriptor, e: &serde_json::Error) -> ToolError {
    ToolError::with_violations(
        ErrorKind::OutputInvalid,
        desc.kind,
        desc.name,
        vec![Violation::new(
            "",
            format!("the result cannot be serialized to JSON: {e}"),
        )],
    )
}

/// JSON text in the encoding asked for.
fn answer(raw: Box<RawValue>, encoding: Encoding) -> Answer {
    match encoding {
        Encoding::Json => Answer::Json(raw),
        Encoding::Value => Answer::Value(Answer::Json(raw).into_value()),
    }
}
