//! JSON text for a call's answer, written without the reallocations
//! `serde_json::value::to_raw_value` makes.
//!
//! `to_raw_value` writes into a fresh buffer of 128 bytes that grows by reallocation and is then
//! shrunk to fit, since a `Box<RawValue>` holds exactly its text. For a result of a few hundred
//! bytes those two reallocations (the allocator's slow path, which its per-thread cache does
//! not serve) cost about a twelfth of the whole call. Here the text is written into a buffer
//! the thread keeps between calls; a short text is copied out at its length, and a long one
//! takes the buffer with it, as `to_raw_value`'s would.
#![allow(unsafe_code)]

use std::cell::Cell;

use serde::Serialize;
use serde_json::value::RawValue;

/// The longest text copied out of the thread's buffer; a longer one takes the buffer, which is
/// then shrunk to fit as `to_raw_value`'s is (glibc does that in place, without copying).
const COPIED: usize = 4 * 1024;

/// The largest buffer kept for the thread's next call: one that held a text up to [`COPIED`]
/// bytes long (a write that failed may have grown it further).
const KEPT: usize = COPIED;

thread_local! {
    static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// `value` as JSON text: what `serde_json::value::to_raw_value` answers, with one allocation
/// for a short text.
pub(crate) fn to_raw_value<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Box<RawValue>> {
    // Taken out of the thread's cell for the time of the write: a `Serialize` impl that writes
    // an answer of its own meanwhile gets a buffer of its own. So does a write while the thread
    // is being torn down, when the cell is gone.
    let mut buf = SCRATCH.try_with(Cell::take).unwrap_or_default();
    buf.clear();
    // Room for any text that is copied out: allocated once per thread, and after each long
    // text, which took the buffer with it.
    buf.reserve(COPIED);
    let written = serde_json::to_writer(&mut buf, value).map(|()| {
        if buf.len() <= COPIED {
            buf.clone()
        } else {
            std::mem::take(&mut buf)
        }
    });
    if buf.capacity() <= KEPT {
        // Dropped instead when the cell is gone.
        let _ = SCRATCH.try_with(|cell| cell.set(buf));
    }
    // SAFETY: the bytes are what serde_json's serializer wrote into a `Vec`, which takes every
    // write whole: only `str`s and ASCII, so UTF-8, as `from_utf8_unchecked` asks.
    // `from_string_unchecked` asks for one well-formed JSON value with no whitespace around it.
    // serde_json's serializer writes that for any `Serialize` impl that passes on the errors it
    // is given (derived impls and `Value` do); an impl that swallows one can leave text that is
    // not JSON, and `to_raw_value` makes a `RawValue` of the very same bytes on the very same
    // trust. Debug builds check it: serde_json parses the text again and panics, which the
    // contract answers as `panicked`.
    written
        .map(|text| unsafe { RawValue::from_string_unchecked(String::from_utf8_unchecked(text)) })
}

#[cfg(test)]
mod tests {
    use super::{COPIED, to_raw_value};
    use serde::{Serialize, Serializer};
    use serde_json::{Value, json};
    use std::collections::BTreeMap;

    /// What serde_json itself writes for `value`.
    fn expected<T: Serialize + ?Sized>(value: &T) -> String {
        serde_json::value::to_raw_value(value)
            .expect("serde_json writes it")
            .get()
            .to_owned()
    }

    /// A string value whose text is `len` bytes long (its two quotes included).
    fn text_of(len: usize) -> Value {
        Value::String("x".repeat(len - 2))
    }

    #[test]
    fn writes_what_serde_json_writes_whatever_the_length_and_order() {
        let values = [
            json!({"id": "T-1", "subject": "Cannot log in", "tags": ["a", "é", "\u{1F600}"]}),
            text_of(COPIED),
            text_of(COPIED + 1),
            json!([1, 2.5, null, true, "line\nbreak \"quoted\""]),
            text_of(100 * 1024),
            json!({}),
            text_of(COPIED - 1),
            json!(0),
        ];
        for value in &values {
            let raw = to_raw_value(value).expect("written");
            assert_eq!(raw.get(), expected(value));
        }
    }

    /// A value whose `Serialize` impl panics once it has written part of itself.
    struct Panics;

    impl Serialize for Panics {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = s.serialize_seq(None)?;
            seq.serialize_element("written before the panic")?;
            panic!("a Serialize impl that panics");
        }
    }

    #[test]
    fn a_write_that_panics_leaves_the_next_write_whole() {
        let panicked = std::panic::catch_unwind(|| to_raw_value(&[Panics]));
        assert!(panicked.is_err());
        let after = json!(["after", "a panic"]);
        assert_eq!(
            to_raw_value(&after).expect("written").get(),
            expected(&after)
        );
    }

    /// A value whose `Serialize` impl drops the error of one of its entries and carries on.
    struct SwallowsAnError;

    impl Serialize for SwallowsAnError {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = s.serialize_map(None)?;
            // A key that is not a string fails after the comma before it is written.
            map.serialize_entry("a", &1)?;
            let _ = map.serialize_entry(&[1], &2);
            map.end()
        }
    }

    /// Such an impl can leave text that is not JSON; debug builds refuse to make a `RawValue` of
    /// it (the contract answers that as `panicked`), where release builds trust the serializer
    /// as serde_json's own `to_raw_value` does.
    #[test]
    #[cfg(debug_assertions)]
    fn debug_builds_refuse_text_that_is_not_json() {
        let refused = std::panic::catch_unwind(|| to_raw_value(&SwallowsAnError));
        assert!(refused.is_err());
    }

    #[test]
    fn a_failed_write_answers_the_error_and_the_next_write_is_whole() {
        // A map keyed by something other than strings: serde_json refuses it midway.
        let mut refused = BTreeMap::new();
        refused.insert(vec![1u8], "x".repeat(COPIED * 3));
        let error = to_raw_value(&refused).expect_err("not JSON");
        assert!(
            error.to_string().contains("key must be a string"),
            "{error}"
        );
        let after = json!({"after": "a failure"});
        assert_eq!(
            to_raw_value(&after).expect("written").get(),
            expected(&after)
        );
    }

    /// A value that writes another answer while it is being written.
    struct Nested(Value);

    impl Serialize for Nested {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let inner = to_raw_value(&self.0).map_err(serde::ser::Error::custom)?;
            s.serialize_str(inner.get())
        }
    }

    #[test]
    fn a_write_inside_a_write_gets_a_buffer_of_its_own() {
        let nested = [Nested(json!({"a": [1, 2]})), Nested(text_of(COPIED * 2))];
        let raw = to_raw_value(&nested).expect("written");
        let outer = json!([r#"{"a":[1,2]}"#, expected(&text_of(COPIED * 2))]);
        assert_eq!(raw.get(), expected(&outer));
    }
}
