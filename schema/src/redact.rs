//! [`Schema::redact`]: a value with its sensitive parts masked.

use serde_json::{Map, Value};

use crate::tree::{Additional, MAX_VALIDATION_DEPTH, REDACTED, Schema};

fn masked() -> Value {
    Value::String(REDACTED.to_owned())
}

/// The value with what `s` marks sensitive masked, or `None` when nothing is.
///
/// Subschemas that apply to the same value (`$ref`, `allOf`, `anyOf`, `oneOf`, `if`/`then`/
/// `else`, `dependentSchemas`) are applied one after another, each to the output of the last,
/// so a part any of them marks is masked. `depth` counts values and subschemas entered; past
/// [`MAX_VALIDATION_DEPTH`] the value is masked whole rather than followed further.
impl Schema {
    /// `value` with every part that this schema marks `sensitive` replaced by the string
    /// [`REDACTED`]; borrowed when nothing is masked.
    ///
    /// A part is masked when any subschema that can apply to it is sensitive: both branches
    /// of `if`, every branch of `anyOf`/`oneOf`/`allOf`, whether or not the value matches it.
    /// A value nested deeper than [`MAX_VALIDATION_DEPTH`] is masked whole.
    pub fn redact<'v>(
        &self,
        value: &'v serde_json::Value,
    ) -> std::borrow::Cow<'v, serde_json::Value> {
        match redact(self, value, 0) {
            Some(masked) => std::borrow::Cow::Owned(masked),
            None => std::borrow::Cow::Borrowed(value),
        }
    }
}

fn redact(s: &Schema, value: &Value, depth: usize) -> Option<Value> {
    if s.sensitive || depth >= MAX_VALIDATION_DEPTH {
        return Some(masked());
    }
    let same_value = s
        .target()
        .into_iter()
        .chain(s.all_of.iter().copied())
        .chain(s.any_of.iter().copied())
        .chain(s.one_of.iter().copied())
        .chain(s.if_)
        .chain(s.then)
        .chain(s.else_)
        .chain(s.dependent_schemas.iter().map(|(_, sub)| *sub));
    let mut out: Option<Value> = None;
    for sub in same_value {
        let current = out.as_ref().unwrap_or(value);
        if let Some(v) = redact(sub, current, depth + 1) {
            out = Some(v);
        }
    }
    let current = out.as_ref().unwrap_or(value);
    let inner = match current {
        Value::Array(items) => array(s, items, depth),
        Value::Object(map) => object(s, map, depth),
        _ => None,
    };
    inner.or(out)
}

fn array(s: &Schema, items: &[Value], depth: usize) -> Option<Value> {
    let mut out: Option<Vec<Value>> = None;
    for (i, item) in items.iter().enumerate() {
        let mut masked_item: Option<Value> = None;
        let subs = s
            .prefix_items
            .get(i)
            .copied()
            .or(if i >= s.prefix_items.len() {
                s.items
            } else {
                None
            })
            .into_iter()
            .chain(s.contains);
        for sub in subs {
            let current = masked_item.as_ref().unwrap_or(item);
            if let Some(v) = redact(sub, current, depth + 1) {
                masked_item = Some(v);
            }
        }
        if let Some(v) = masked_item {
            out.get_or_insert_with(|| items.iter().map(|x| copy(x, depth + 1)).collect())[i] = v;
        }
    }
    out.map(Value::Array)
}

fn object(s: &Schema, map: &Map<String, Value>, depth: usize) -> Option<Value> {
    let mut out: Option<Map<String, Value>> = None;
    for (key, item) in map {
        let mut masked_item: Option<Value> = None;
        let apply = |sub: &Schema, masked_item: &mut Option<Value>| {
            let current = masked_item.as_ref().unwrap_or(item);
            if let Some(v) = redact(sub, current, depth + 1) {
                *masked_item = Some(v);
            }
        };
        let mut matched = false;
        for (name, sub) in s.properties {
            if name == key {
                matched = true;
                apply(sub, &mut masked_item);
            }
        }
        for (pattern, sub) in s.pattern_properties {
            // A pattern that does not compile may match: mask rather than show.
            if pattern.is_match(key).unwrap_or(true) {
                matched = true;
                apply(sub, &mut masked_item);
            }
        }
        if !matched && let Additional::Schema(sub) = s.additional_properties {
            apply(sub, &mut masked_item);
        }
        if let Some(v) = masked_item {
            out.get_or_insert_with(|| {
                map.iter()
                    .map(|(k, x)| (k.clone(), copy(x, depth + 1)))
                    .collect()
            })
            .insert(key.clone(), v);
        }
    }
    out.map(Value::Object)
}

/// A copy of `value`, which stands `depth` deep, with what lies past [`MAX_VALIDATION_DEPTH`]
/// masked as [`redact`] masks it: a value too deep to follow is never copied whole, so the copy
/// takes a bounded stack however deep the value nests.
fn copy(value: &Value, depth: usize) -> Value {
    if depth >= MAX_VALIDATION_DEPTH {
        return masked();
    }
    match value {
        Value::Array(items) => Value::Array(items.iter().map(|x| copy(x, depth + 1)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, x)| (k.clone(), copy(x, depth + 1)))
                .collect(),
        ),
        scalar => scalar.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Types;
    use super::*;
    use serde_json::json;

    static SECRET: Schema = Schema {
        types: Types::STRING,
        sensitive: true,
        ..Schema::ANY
    };
    static PLAIN: Schema = Schema {
        types: Types::STRING,
        ..Schema::ANY
    };
    static PAIR: Schema = Schema {
        properties: &[("user", &PLAIN), ("token", &SECRET)],
        ..Schema::ANY
    };
    static LIST: Schema = Schema {
        items: Some(&PAIR),
        ..Schema::ANY
    };
    static REF: Schema = Schema {
        reference: Some(&PAIR),
        ..Schema::ANY
    };
    static EITHER: Schema = Schema {
        any_of: &[&PLAIN, &PAIR],
        ..Schema::ANY
    };
    static MAP: Schema = Schema {
        properties: &[("id", &PLAIN)],
        additional_properties: Additional::Schema(&SECRET),
        ..Schema::ANY
    };

    #[test]
    fn masks_sensitive_parts_only() {
        let v = json!([{"user": "ada", "token": "s3cret"}, {"user": "bob"}]);
        assert_eq!(
            LIST.redact(&v).into_owned(),
            json!([{"user": "ada", "token": REDACTED}, {"user": "bob"}])
        );
        let v = json!({"user": "ada", "token": {"nested": "s3cret"}});
        assert_eq!(
            REF.redact(&v).into_owned(),
            json!({"user": "ada", "token": REDACTED})
        );
        assert_eq!(
            EITHER.redact(&json!({"token": 1})).into_owned(),
            json!({"token": REDACTED})
        );
        assert_eq!(
            MAP.redact(&json!({"id": "a", "x": "s3cret"})).into_owned(),
            json!({"id": "a", "x": REDACTED})
        );
    }

    #[test]
    fn borrows_when_nothing_is_sensitive() {
        let v = json!({"user": "ada"});
        assert!(matches!(PAIR.redact(&v), std::borrow::Cow::Borrowed(_)));
        assert!(matches!(
            Schema::ANY.redact(&v),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
