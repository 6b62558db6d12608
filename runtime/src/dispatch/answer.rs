//! What a call answers: a `serde_json::Value` or JSON text, as the method that called asks
//! ([`Encoding`]), so that one contract serves [`Toolbox::call`](crate::Toolbox::call) and
//! [`Toolbox::call_json`](crate::Toolbox::call_json).

use serde_json::Value;
use serde_json::value::RawValue;

/// What a call answers in: a `serde_json::Value` ([`Toolbox::call`](crate::Toolbox::call)) or JSON text
/// ([`Toolbox::call_json`](crate::Toolbox::call_json)). Generated dispatchers pass it through to the runtime, so each tool
/// is dispatched by one function whichever is asked.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// A `serde_json::Value`.
    Value,
    /// JSON text.
    Json,
}

/// A call's result in the [`Encoding`] asked for.
#[doc(hidden)]
#[derive(Debug)]
pub enum Answer {
    /// A `serde_json::Value`.
    Value(Value),
    /// JSON text.
    Json(Box<RawValue>),
}

impl Answer {
    /// The result as a `Value` (read from the text when it is text).
    pub fn into_value(self) -> Value {
        match self {
            Answer::Value(v) => v,
            // The text was written by serde_json: it reads back.
            Answer::Json(raw) => serde_json::from_str(raw.get()).unwrap_or(Value::Null),
        }
    }

    /// The result as JSON text (written from the value when it is a value).
    pub fn into_json(self) -> Box<RawValue> {
        match self {
            Answer::Json(raw) => raw,
            // A `Value` always serializes.
            Answer::Value(v) => {
                crate::json_text::to_raw_value(&v).unwrap_or_else(|_| RawValue::NULL.to_owned())
            }
        }
    }

    /// The result as a `Value` for a preview, without consuming it.
    pub(crate) fn to_value(&self) -> std::borrow::Cow<'_, Value> {
        match self {
            Answer::Value(v) => std::borrow::Cow::Borrowed(v),
            Answer::Json(raw) => {
                std::borrow::Cow::Owned(serde_json::from_str(raw.get()).unwrap_or(Value::Null))
            }
        }
    }
}

/// What a generated dispatcher's method answers: a `Value` ([`Toolbox::call`](crate::Toolbox::call)) or JSON text
/// ([`Toolbox::call_json`](crate::Toolbox::call_json)), and the [`Encoding`] the contract writes the result in for it.
#[doc(hidden)]
pub trait Answered: Sized + Send {
    /// The encoding the contract writes the result in.
    const ENCODING: Encoding;
    /// The contract's answer in this form.
    fn from_answer(answer: Answer) -> Self;
}

impl Answered for Value {
    const ENCODING: Encoding = Encoding::Value;
    fn from_answer(answer: Answer) -> Value {
        answer.into_value()
    }
}

impl Answered for Box<RawValue> {
    const ENCODING: Encoding = Encoding::Json;
    fn from_answer(answer: Answer) -> Box<RawValue> {
        answer.into_json()
    }
}
