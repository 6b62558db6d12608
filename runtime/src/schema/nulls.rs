//! `null` for an absent optional property.
//!
//! Strict structured-output dialects (OpenAI's `strict: true`) make every
//! property required and the optional ones nullable, so a model says "not
//! given" with `null`. Before validation, such a `null` is read as the
//! property's absence — but only where the schema itself would refuse `null`,
//! so a property that is nullable in the manifest keeps its `null`.

use super::Schema;
use serde_json::Value;

impl Schema {
    /// Removes every `null` member of an object (at any depth the schema
    /// describes) whose property is optional and whose schema refuses `null`.
    pub fn drop_null_optionals(&self, value: &mut Value) {
        let mut schema = self;
        // A `$ref` carries the shape of the named type.
        while schema.properties.is_empty() && schema.items.is_none() {
            match schema.reference {
                Some(r) if !std::ptr::eq(r, schema) => schema = r,
                _ => break,
            }
        }
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
                        prop.drop_null_optionals(member);
                    }
                }
            }
            Value::Array(items) => {
                if let Some(item) = schema.items {
                    for v in items {
                        item.drop_null_optionals(v);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::schema::{Schema, Types};
    use serde_json::json;

    static NAME: Schema = Schema {
        types: Types::STRING,
        ..Schema::ANY
    };
    static NULLABLE: Schema = Schema {
        types: Types::STRING.union(Types::NULL),
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
        ROOT.drop_null_optionals(&mut v);
        // `nick` is nullable and `must` required: both keep their null.
        assert_eq!(
            v,
            json!({"nick": null, "must": null, "list": [{}, {"tag": "x"}]})
        );
    }
}
