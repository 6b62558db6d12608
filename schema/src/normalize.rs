//! Arguments as the model sends them → as the schema means them, before validation.
//!
//! - `null` for an absent optional property: strict structured-output dialects (OpenAI's
//!   `strict: true`) make every property required and the optional ones nullable, so a model
//!   says "not given" with `null`. Such a `null` is read as the property's absence, but only
//!   where the schema itself would refuse `null`, so a property nullable in the manifest keeps
//!   its `null`. Inside a union, such a `null` is read by the branch that takes the value once
//!   it is dropped, when no branch takes the value as it is.
//! - An integral float where the schema wants an integer (`5.0`, `1e2`): JSON Schema counts
//!   it as the integer, so it is read as one, and the handler's integer field takes it.
//! - The equivalents the compiler shows dialects that have no place for a construct: a map
//!   given as a list of `{key, value}` pairs, a tuple given as an object keyed by positions
//!   (`{"0": a, "1": b}`), are read back as the object and the array the schema describes.
//!   A key given in two pairs is read as a JSON parser reads a key written twice in an object:
//!   the last value wins. Where the schema wants an object, a list can never be valid, and the
//!   other way round, so the reading cannot change the meaning of arguments that were valid as
//!   sent.

use super::{Schema, Types};
use serde_json::{Number, Value};

impl Schema {
    /// Reads `value` as the schema means it: drops every `null` member of an object (at any
    /// depth the schema describes) whose property is optional and whose schema refuses
    /// `null`, and writes integral floats as integers where the schema wants an integer.
    pub fn normalize_arguments(&self, value: &mut Value) {
        self.normalize(value, 0);
    }

    fn normalize(&self, value: &mut Value, depth: usize) {
        if depth > super::MAX_VALIDATION_DEPTH {
            return;
        }
        let mut schema = self;
        // A `$ref` carries the shape of the named type.
        while schema.properties.is_empty()
            && schema.items.is_none()
            && schema.prefix_items.is_empty()
        {
            match schema.target() {
                Some(r) if !std::ptr::eq(r, schema) => schema = r,
                _ => break,
            }
        }
        read_equivalent(schema, value);
        match value {
            Value::Object(map) => {
                for (name, prop) in schema.properties {
                    let Some(member) = map.get_mut(*name) else {
                        continue;
                    };
                    if member.is_null() {
                        if !schema.required.contains(name) && !prop.is_valid(&Value::Null) {
                            map.remove(*name);
                        }
                    } else {
                        prop.normalize(member, depth + 1);
                    }
                }
                if let super::Additional::Schema(extra) = schema.additional_properties {
                    for (name, member) in map.iter_mut() {
                        if !schema.properties.iter().any(|(p, _)| p == name) {
                            extra.normalize(member, depth + 1);
                        }
                    }
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter_mut().enumerate() {
                    match schema.prefix_items.get(i).copied().or(schema.items) {
                        Some(item) => item.normalize(v, depth + 1),
                        None => break,
                    }
                }
            }
            Value::Number(n) if wants_integer(schema) => {
                if let Some(i) = integral(n) {
                    *n = i;
                }
            }
            _ => {}
        }
        if !value.is_object() && !value.is_array() && !value.is_number() {
            return;
        }
        // `allOf`: the value must be each branch, so each branch reads it (a strict-mode
        // `null` for an optional property of one branch is that branch's to drop, even
        // where another branch already takes the value).
        for branch in schema.all_of {
            branch.normalize(value, depth + 1);
        }
        // `dependentSchemas`: the schema of a property the object has applies to it, as a
        // branch of `allOf` does.
        for (key, dependent) in schema.dependent_schemas {
            if value.as_object().is_some_and(|m| m.contains_key(*key)) {
                dependent.normalize(value, depth + 1);
            }
        }
        // A union: the branches the value matches shape it too. When it matches none, a
        // branch it matches once read as that branch means it (a strict-mode `null` for one
        // of the branch's optional properties) reads it.
        let branches = || schema.any_of.iter().chain(schema.one_of);
        let matched = branches().any(|b| b.is_valid(value));
        for branch in branches() {
            if branch.is_valid(value) {
                branch.normalize(value, depth + 1);
            } else if !matched && !value.is_number() {
                let mut read = value.clone();
                branch.normalize(&mut read, depth + 1);
                if branch.is_valid(&read) {
                    *value = read;
                }
            }
        }
    }
}

/// A map sent as `{key, value}` pairs, or a tuple sent as an object keyed by positions, read
/// back as the object or array the schema describes.
fn read_equivalent(s: &Schema, value: &mut Value) {
    let object = s.types.contains(Types::OBJECT);
    let array = s.types.contains(Types::ARRAY);
    match value {
        Value::Array(items)
            if object
                && !array
                && s.properties.is_empty()
                && !matches!(s.additional_properties, super::Additional::Forbidden) =>
        {
            let mut map = serde_json::Map::new();
            for item in items.iter() {
                let Value::Object(pair) = item else { return };
                let (Some(Value::String(key)), Some(v), 2) =
                    (pair.get("key"), pair.get("value"), pair.len())
                else {
                    return;
                };
                // A key given twice is read as a JSON parser reads an object with that key
                // twice: the last value wins (the form allows it, so it must mean something).
                map.insert(key.clone(), v.clone());
            }
            *value = Value::Object(map);
        }
        Value::Object(map) if array && !object && !s.prefix_items.is_empty() => {
            let n = map.len();
            if n != s.prefix_items.len() || (0..n).any(|i| !map.contains_key(&i.to_string())) {
                return;
            }
            let items = (0..n).filter_map(|i| map.remove(&i.to_string())).collect();
            *value = Value::Array(items);
        }
        _ => {}
    }
}

/// Whether the schema accepts integers but not other numbers.
fn wants_integer(s: &Schema) -> bool {
    s.types.contains(Types::INTEGER) && !s.types.contains(Types::NUMBER)
}

/// An integral float as an integer number (`None` when it is not a float, not integral, or
/// beyond 64 bits).
fn integral(n: &Number) -> Option<Number> {
    if n.is_i64() || n.is_u64() {
        return None;
    }
    let f = n.as_f64()?;
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        #[allow(clippy::cast_possible_truncation)]
        return Some(Number::from(f as i64));
    }
    if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        return Some(Number::from(f as u64));
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::{Schema, Types};
    use serde_json::json;

    static NAME: Schema = Schema {
        types: Types::STRING,
        ..Schema::ANY
    };
    static NULLABLE: Schema = Schema {
        types: Types::STRING.union(Types::NULL),
        ..Schema::ANY
    };
    static COUNT: Schema = Schema {
        types: Types::INTEGER,
        ..Schema::ANY
    };
    static INNER: Schema = Schema {
        types: Types::OBJECT,
        properties: &[("tag", &NAME)],
        ..Schema::ANY
    };
    static LIST: Schema = Schema {
        types: Types::ARRAY,
        items: Some(&INNER),
        ..Schema::ANY
    };
    static ROOT: Schema = Schema {
        types: Types::OBJECT,
        properties: &[
            ("name", &NAME),
            ("nick", &NULLABLE),
            ("must", &NAME),
            ("list", &LIST),
        ],
        required: &["must"],
        ..Schema::ANY
    };

    #[test]
    fn drops_only_optional_nulls_the_schema_refuses() {
        let mut v = json!({"name": null, "nick": null, "must": null, "list": [{"tag": null}, {"tag": "x"}]});
        ROOT.normalize_arguments(&mut v);
        // `nick` is nullable and `must` required: both keep their null.
        assert_eq!(
            v,
            json!({"nick": null, "must": null, "list": [{}, {"tag": "x"}]})
        );
    }

    static CLOSED_INNER: Schema = Schema {
        types: Types::OBJECT,
        properties: &[("tag", &NAME), ("note", &NAME)],
        required: &["tag"],
        additional_properties: crate::Additional::Forbidden,
        ..Schema::ANY
    };
    static TAGS: Schema = Schema {
        types: Types::ARRAY,
        items: Some(&NAME),
        ..Schema::ANY
    };
    static EITHER: Schema = Schema {
        any_of: &[&TAGS, &CLOSED_INNER],
        ..Schema::ANY
    };
    static NULLABLE_NOTE: Schema = Schema {
        types: Types::OBJECT,
        properties: &[("tag", &NAME), ("note", &NULLABLE)],
        ..Schema::ANY
    };
    static NULL_TAKER: Schema = Schema {
        any_of: &[&CLOSED_INNER, &NULLABLE_NOTE],
        ..Schema::ANY
    };
    static UNIONS: Schema = Schema {
        types: Types::OBJECT,
        properties: &[("p", &EITHER), ("q", &NULL_TAKER)],
        ..Schema::ANY
    };

    #[test]
    fn a_strict_null_inside_a_union_is_read_by_the_branch_it_leaves_valid() {
        // OpenAI strict mode sends the optional `note` of the object branch as null.
        let mut v = json!({"p": {"tag": "a", "note": null}});
        assert!(!UNIONS.is_valid(&v));
        UNIONS.normalize_arguments(&mut v);
        assert_eq!(v, json!({"p": {"tag": "a"}}));
        assert!(UNIONS.is_valid(&v));
        // A branch that takes the null as it is keeps it.
        let mut v = json!({"q": {"tag": "a", "note": null}});
        UNIONS.normalize_arguments(&mut v);
        assert_eq!(v, json!({"q": {"tag": "a", "note": null}}));
        // A value no branch takes, even read, is left for validation to refuse.
        let mut v = json!({"p": {"note": null}});
        UNIONS.normalize_arguments(&mut v);
        assert_eq!(v, json!({"p": {"note": null}}));
    }

    static COUNTS: Schema = Schema {
        types: Types::OBJECT,
        properties: &[("n", &COUNT), ("x", &NAME)],
        ..Schema::ANY
    };

    #[test]
    fn integral_floats_become_integers_where_the_schema_wants_one() {
        let mut v = json!({"n": 5.0, "x": "5.0"});
        COUNTS.normalize_arguments(&mut v);
        assert!(v["n"].is_i64(), "{v}");
        assert_eq!(v["n"], json!(5));
        let mut v = json!({"n": 1e2});
        COUNTS.normalize_arguments(&mut v);
        assert_eq!(v["n"], json!(100));
        // Not integral: left for validation to refuse.
        let mut v = json!({"n": 5.5});
        COUNTS.normalize_arguments(&mut v);
        assert_eq!(v["n"], json!(5.5));
    }

    static PAIR_VALUE: Schema = Schema {
        types: Types::INTEGER,
        ..Schema::ANY
    };
    static MAP: Schema = Schema {
        types: Types::OBJECT,
        additional_properties: crate::Additional::Schema(&PAIR_VALUE),
        ..Schema::ANY
    };
    static TUPLE: Schema = Schema {
        types: Types::ARRAY,
        prefix_items: &[&NAME, &COUNT],
        items: Some(&Schema::NOTHING),
        ..Schema::ANY
    };
    static HOLDER: Schema = Schema {
        types: Types::OBJECT,
        properties: &[("map", &MAP), ("tuple", &TUPLE)],
        ..Schema::ANY
    };

    #[test]
    fn equivalent_forms_are_read_back() {
        let mut v = json!({
            "map": [{"key": "a", "value": 1.0}, {"key": "b", "value": 2}],
            "tuple": {"1": 3.0, "0": "x"}
        });
        HOLDER.normalize_arguments(&mut v);
        assert_eq!(v, json!({"map": {"a": 1, "b": 2}, "tuple": ["x", 3]}));
        assert!(HOLDER.is_valid(&v));
        // Not the equivalent form: left as sent, for validation to refuse.
        for odd in [
            json!({"map": [{"key": "a"}]}),
            json!({"map": [{"key": "a", "value": 1, "note": "x"}]}),
            json!({"map": [{"key": 1, "value": 1}]}),
            json!({"tuple": {"0": "x", "2": 1}}),
        ] {
            let mut v = odd.clone();
            HOLDER.normalize_arguments(&mut v);
            assert_eq!(v, odd);
        }
    }

    #[test]
    fn a_key_in_two_pairs_is_read_as_a_json_object_with_that_key_twice() {
        // The pairs form cannot say "each key once", so a model may send a key twice; the
        // value is read as the object `{"a": 1, "a": 3}` would parse: the last one wins.
        let mut v = json!({"map": [
            {"key": "a", "value": 1},
            {"key": "b", "value": 2.0},
            {"key": "a", "value": 3.0}
        ]});
        HOLDER.normalize_arguments(&mut v);
        let parsed: serde_json::Value =
            serde_json::from_str(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap();
        assert_eq!(v["map"], parsed);
        assert_eq!(v, json!({"map": {"a": 3, "b": 2}}));
        assert!(HOLDER.is_valid(&v));
    }

    static AGE: Schema = Schema {
        types: Types::OBJECT,
        properties: &[("age", &COUNT), ("email", &NAME)],
        required: &["age"],
        ..Schema::ANY
    };
    static NAMED: Schema = Schema {
        types: Types::OBJECT,
        properties: &[("name", &NAME)],
        required: &["name"],
        ..Schema::ANY
    };
    static PERSON: Schema = Schema {
        all_of: &[&NAMED, &AGE],
        ..Schema::ANY
    };

    #[test]
    fn each_branch_of_an_all_of_reads_the_value() {
        // openai-strict merges the branches into one object whose optional `email` is
        // nullable: the null is the second branch's "not given", though the first branch
        // takes the value as it is.
        let mut v = json!({"name": "a", "age": 3.0, "email": null});
        assert!(NAMED.is_valid(&v) && !PERSON.is_valid(&v));
        PERSON.normalize_arguments(&mut v);
        assert_eq!(v, json!({"name": "a", "age": 3}));
        assert!(PERSON.is_valid(&v));
    }
}
