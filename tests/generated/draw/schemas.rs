//! Schemas drawn at random for the one-validator test (`tests/one_validator.rs`): build.rs draws
//! a toolset of them, generates its dispatcher, and the test holds `toolc check` and that
//! dispatcher to one verdict on drawn values.
//!
//! Every keyword of the schema vocabulary that validates is drawn (types and `nullable`, `enum`
//! and `const`, every bound, lengths, patterns, the asserted formats and an unknown one, arrays
//! with `items`, `prefixItems`, the draft-07 tuple, counts and `uniqueItems`, objects with
//! `properties`, `required`, `additionalProperties`, `propertyNames`, `dependentRequired` and
//! `dependentSchemas`, `anyOf`, `oneOf`, `allOf`, `not`, and `$ref`s to named types, one of them
//! recursive), nested a few levels deep. Each tool's one parameter `value` is kept free-form in Rust (`x-rust-type: json`), so
//! any schema has a Rust type and what is compared is validation alone. Shared by build.rs and
//! the test with `#[path]`.

use serde_json::{Map, Value, json};

/// A seeded xorshift generator: the same schemas for the same seed.
pub struct Draw(u64);

impl Draw {
    pub fn new(seed: u64) -> Draw {
        Draw(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<T: Clone>(&mut self, from: &[T]) -> T {
        from[self.below(from.len())].clone()
    }
}

/// The named types every drawn toolset has: a recursive tree, and a small record.
pub fn types() -> Value {
    json!({
        "Tree": {
            "x-rust-type": "json",
            "type": "object",
            "properties": {
                "label": {"type": "string", "maxLength": 3},
                "children": {"type": "array", "items": {"$ref": "#/types/Tree"}, "maxItems": 2}
            },
            "required": ["label"],
            "additionalProperties": false
        },
        "Point": {
            "x-rust-type": "json",
            "type": "object",
            "properties": {"x": {"type": "integer", "format": "int32"}, "y": {"type": "number"}},
            "required": ["x"]
        }
    })
}

const FORMATS: &[&str] = &[
    "date",
    "date-time",
    "time",
    "uuid",
    "email",
    "uri",
    "ipv4",
    "ipv6",
    "hostname",
    "color",
];
const PATTERNS: &[&str] = &["^[a-z]+$", "[0-9]", "^(ab)*$", "^.{2,}$", "é"];
const WORDS: &[&str] = &["a", "b", "ab", "zz", "é", "1", ""];

/// One schema, `depth` levels down.
pub fn schema(d: &mut Draw, depth: usize) -> Value {
    let leaf = depth >= 3;
    let s = match d.below(if leaf { 7 } else { 13 }) {
        0 => string(d),
        1 => integer(d),
        2 => number(d),
        3 => json!({"type": d.pick(&["boolean", "null"])}),
        4 => {
            let n = 1 + d.below(3);
            json!({"enum": literals(d, n)})
        }
        5 => json!({"const": literal(d)}),
        6 => json!({"$ref": d.pick(&["#/types/Tree", "#/types/Point"])}),
        7 | 8 => array(d, depth),
        9 | 10 => object(d, depth),
        _ => {
            let key = d.pick(&["anyOf", "oneOf", "allOf", "not"]);
            if key == "not" {
                json!({"not": schema(d, depth + 1)})
            } else {
                let branches: Vec<Value> =
                    (0..2 + d.below(2)).map(|_| schema(d, depth + 1)).collect();
                json!({ key: branches })
            }
        }
    };
    nullable(d, s)
}

/// Now and then, `null` allowed as well: in `type`, or OpenAPI's `nullable: true`.
fn nullable(d: &mut Draw, mut s: Value) -> Value {
    if !d.chance(6) {
        return s;
    }
    let Some(map) = s.as_object_mut() else {
        return s;
    };
    match map.get("type").cloned() {
        Some(Value::String(t)) if t != "null" => {
            if d.chance(2) {
                map.insert("type".into(), json!([t, "null"]));
            } else {
                map.insert("nullable".into(), json!(true));
            }
        }
        _ => {}
    }
    s
}

fn string(d: &mut Draw) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("string"));
    if d.chance(2) {
        m.insert("format".into(), json!(d.pick(FORMATS)));
    } else {
        if d.chance(2) {
            m.insert("minLength".into(), json!(d.below(3)));
        }
        if d.chance(2) {
            m.insert("maxLength".into(), json!(1 + d.below(4)));
        }
        if d.chance(3) {
            m.insert("pattern".into(), json!(d.pick(PATTERNS)));
        }
    }
    Value::Object(m)
}

fn integer(d: &mut Draw) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("integer"));
    if d.chance(3) {
        m.insert(
            "format".into(),
            json!(d.pick(&["int32", "uint32", "uint64", "int64"])),
        );
    }
    let lo = d.below(5) as i64 - 2;
    if d.chance(2) {
        let key = d.pick(&["minimum", "exclusiveMinimum"]);
        m.insert(key.into(), json!(lo));
    }
    if d.chance(2) {
        let key = d.pick(&["maximum", "exclusiveMaximum"]);
        m.insert(key.into(), json!(lo + 3 + d.below(5) as i64));
    }
    if d.chance(4) {
        m.insert("multipleOf".into(), json!(d.pick(&[2, 3, 5])));
    }
    Value::Object(m)
}

fn number(d: &mut Draw) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("number"));
    if d.chance(2) {
        m.insert("minimum".into(), json!(d.pick(&[-1.5, 0.0, 0.1])));
    }
    if d.chance(2) {
        m.insert("exclusiveMaximum".into(), json!(d.pick(&[1.0, 2.5, 100.0])));
    }
    if d.chance(4) {
        m.insert("multipleOf".into(), json!(d.pick(&[0.1, 0.5, 0.25])));
    }
    Value::Object(m)
}

fn array(d: &mut Draw, depth: usize) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("array"));
    match d.below(3) {
        0 => {
            m.insert("items".into(), schema(d, depth + 1));
        }
        1 => {
            let prefix: Vec<Value> = (0..1 + d.below(2)).map(|_| schema(d, depth + 1)).collect();
            if d.chance(3) {
                // The draft-07 spelling of a tuple.
                m.insert("minItems".into(), json!(prefix.len()));
                m.insert("items".into(), Value::Array(prefix));
                m.insert("additionalItems".into(), json!(false));
            } else {
                m.insert("prefixItems".into(), Value::Array(prefix));
                if d.chance(2) {
                    m.insert("items".into(), json!(false));
                }
            }
        }
        _ => {}
    }
    if d.chance(3) {
        m.insert("minItems".into(), json!(d.below(2)));
    }
    if d.chance(3) {
        m.insert("maxItems".into(), json!(1 + d.below(3)));
    }
    if d.chance(4) {
        m.insert("uniqueItems".into(), json!(true));
    }
    Value::Object(m)
}

fn object(d: &mut Draw, depth: usize) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    let names = ["a", "b", "c~/"];
    let count = d.below(4);
    let mut props = Map::new();
    for name in names.iter().take(count) {
        props.insert((*name).into(), schema(d, depth + 1));
    }
    let required: Vec<&str> = names
        .iter()
        .take(count)
        .copied()
        .filter(|_| d.chance(2))
        .collect();
    if !props.is_empty() {
        m.insert("properties".into(), Value::Object(props));
    }
    if !required.is_empty() {
        m.insert("required".into(), json!(required));
    }
    match d.below(4) {
        0 => {
            m.insert("additionalProperties".into(), json!(false));
        }
        1 => {
            m.insert("additionalProperties".into(), schema(d, depth + 1));
        }
        _ => {}
    }
    if d.chance(5) {
        m.insert("propertyNames".into(), json!({"maxLength": 1}));
    }
    if d.chance(6) {
        m.insert("dependentRequired".into(), json!({"a": ["b"]}));
    }
    if d.chance(6) {
        let applied = schema(d, depth + 1);
        m.insert("dependentSchemas".into(), json!({"b": applied}));
    }
    Value::Object(m)
}

fn literal(d: &mut Draw) -> Value {
    match d.below(6) {
        0 => Value::Null,
        1 => json!(d.chance(2)),
        2 => json!(d.below(7) as i64 - 3),
        3 => json!(d.pick(&[0.5, 1.0, -2.25])),
        4 => json!(d.pick(WORDS)),
        _ => json!([d.pick(WORDS)]),
    }
}

fn literals(d: &mut Draw, n: usize) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    while out.len() < n {
        let v = literal(d);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The parameters of a drawn tool: an object whose one required property `value` has `s` as its
/// schema, free-form in Rust.
pub fn parameters(s: &Value) -> Value {
    let mut value = s.as_object().cloned().unwrap_or_default();
    value.insert("x-rust-type".into(), json!("json"));
    json!({
        "type": "object",
        "properties": {"value": value},
        "required": ["value"],
        "additionalProperties": false
    })
}

/// A manifest (JSON, which is YAML too) of the named types and one toolbox `drawn` holding a
/// tool `s<i>` for each of `tools` (its parameters, and examples of their arguments).
pub fn manifest(tools: &[(String, Value, Vec<Value>)]) -> Value {
    let mut map = Map::new();
    for (name, params, examples) in tools {
        let mut tool = Map::new();
        tool.insert(
            "description".into(),
            json!(format!("The drawn schema {name}.")),
        );
        tool.insert("parameters".into(), params.clone());
        if !examples.is_empty() {
            let examples: Vec<Value> = examples.iter().map(|a| json!({"arguments": a})).collect();
            tool.insert("examples".into(), Value::Array(examples));
        }
        map.insert(name.clone(), Value::Object(tool));
    }
    json!({
        "version": 1,
        "types": types(),
        "toolboxes": {"drawn": {"description": "Drawn schemas.", "tools": map}}
    })
}
