//! The strict-mode reading of arguments. Strict dialects (OpenAI's
//! `strict: true`) make every property required and the optional ones
//! nullable, so a model says "not given" with `null`. These functions move
//! arguments between that shape and the manifest's, along the typed model;
//! the generated dispatchers apply the same reading at run time
//! (`toolc_runtime` drops such nulls before validating).

use crate::model::schema::{JsonType, SchemaId, Schemas};
use serde_json::{Map, Value};

/// Arguments in the manifest's shape → the shape a strict-mode model sends:
/// every property the schema names is present, absent ones as `null`.
pub fn to_strict(schemas: &Schemas, root: SchemaId, arguments: &Value) -> Value {
    walk(schemas, root, arguments, 0, &fill_nulls)
}

/// Arguments from a strict-mode model → the manifest's shape: a `null` for
/// a property that is optional and does not itself accept null is dropped.
pub fn from_strict(schemas: &Schemas, root: SchemaId, arguments: &Value) -> Value {
    walk(schemas, root, arguments, 0, &drop_nulls)
}

type ObjectRule = dyn Fn(&Schemas, SchemaId, &Map<String, Value>, usize) -> Value;

fn walk(schemas: &Schemas, id: SchemaId, v: &Value, depth: usize, rule: &ObjectRule) -> Value {
    if depth > crate::model::schema::MAX_DEPTH {
        return v.clone();
    }
    let id = schemas.deref(id);
    match v {
        Value::Object(obj) => rule(schemas, id, obj, depth),
        Value::Array(items) => match schemas.get(id).items {
            Some(item) => Value::Array(
                items
                    .iter()
                    .map(|x| walk(schemas, item, x, depth + 1, rule))
                    .collect(),
            ),
            None => v.clone(),
        },
        _ => v.clone(),
    }
}

fn fill_nulls(schemas: &Schemas, id: SchemaId, obj: &Map<String, Value>, depth: usize) -> Value {
    let mut out = obj.clone();
    for p in schemas.get(id).props() {
        let x = match obj.get(&p.name) {
            Some(x) => walk(schemas, p.schema, x, depth + 1, &fill_nulls),
            None => Value::Null,
        };
        out.insert(p.name.clone(), x);
    }
    Value::Object(out)
}

fn drop_nulls(schemas: &Schemas, id: SchemaId, obj: &Map<String, Value>, depth: usize) -> Value {
    let n = schemas.get(id);
    let mut out = Map::new();
    for (k, x) in obj {
        let p = n.property(k);
        if x.is_null()
            && let Some(p) = p
            && !n.is_required(k)
            && !accepts_null(schemas, p.schema, 0)
        {
            continue;
        }
        let x = match p {
            Some(p) => walk(schemas, p.schema, x, depth + 1, &drop_nulls),
            None => x.clone(),
        };
        out.insert(k.clone(), x);
    }
    Value::Object(out)
}

/// Whether the schema at `id` accepts `null`.
pub fn accepts_null(schemas: &Schemas, id: SchemaId, depth: usize) -> bool {
    if depth > crate::model::schema::MAX_DEPTH {
        return false;
    }
    let n = schemas.get(id);
    if let Some(b) = n.boolean {
        return b;
    }
    if let Some(r) = &n.reference
        && let Some(t) = r.target
        && !accepts_null(schemas, t, depth + 1)
    {
        return false;
    }
    let typed_ok = n.types.is_empty() && n.nullable != Some(false)
        || n.types.contains(&JsonType::Null)
        || n.nullable == Some(true);
    let enum_ok = n
        .enum_values
        .as_ref()
        .is_none_or(|e| e.value.as_array().is_some_and(|l| l.contains(&Value::Null)));
    let const_ok = n.const_value.as_ref().is_none_or(|c| c.value.is_null());
    let any_ok = n
        .any_of
        .as_ref()
        .is_none_or(|b| b.iter().any(|b| accepts_null(schemas, *b, depth + 1)));
    let one_ok = n.one_of.as_ref().is_none_or(|b| {
        b.iter()
            .filter(|b| accepts_null(schemas, **b, depth + 1))
            .count()
            == 1
    });
    let all_ok = n
        .all_of
        .as_ref()
        .is_none_or(|b| b.iter().all(|b| accepts_null(schemas, *b, depth + 1)));
    let not_ok = n.not.is_none_or(|x| !accepts_null(schemas, x, depth + 1));
    typed_ok && enum_ok && const_ok && any_ok && one_ok && all_ok && not_ok
}
