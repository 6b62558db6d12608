//! Differential tests: the runtime validator against the `jsonschema` crate (the oracle),
//! format validation on, on 10,000 generated instances per fixture schema.
//!
//! Each fixture's static [`Schema`] is built from its JSON text here, field by field as generated
//! code writes it (leaking is fine in a test); the recursive fixture's named definition is a
//! hand-written `static`. Each fixture is also compiled from its JSON with
//! [`toolc_schema::compile`], whose tree must report exactly the same violations. Instances come from a generator guided by the schema (values around every
//! bound, formats valid and broken, required properties mostly present, stray keys, duplicate
//! items, numbers written as `1` and `1.0`) mixed with arbitrary noise, so both outcomes are
//! common; each fixture asserts that at least 15% of its instances land on each side.

use std::cell::Cell;
use std::collections::HashMap;

use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value, json};
use toolc_schema::{Additional, Format, Json, Num, Pattern, Schema, Types};

const CASES: u32 = 10_000;

// ---------------------------------------------------------------------------------------
// Building a static Schema from JSON.

fn leak<T>(t: T) -> &'static T {
    Box::leak(Box::new(t))
}

fn leak_slice<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

fn json_const(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Json::Int(i)
            } else if let Some(u) = n.as_u64() {
                Json::UInt(u)
            } else {
                Json::Float(n.as_f64().unwrap())
            }
        }
        Value::String(s) => Json::Str(leak_str(s)),
        other => Json::Raw(leak_str(&other.to_string())),
    }
}

struct Builder<'a> {
    root: &'a Value,
    /// `$ref`s resolved to hand-written statics (the recursive ones).
    statics: HashMap<&'static str, &'static Schema>,
}

impl Builder<'_> {
    fn resolve(&self, r: &str) -> &Value {
        if r == "#" {
            return self.root;
        }
        let name = r.strip_prefix("#/$defs/").expect("a #/$defs/ reference");
        &self.root["$defs"][name]
    }

    fn build(&self, v: &Value) -> &'static Schema {
        let o = match v {
            Value::Bool(true) => return leak(Schema::ANY),
            Value::Bool(false) => return leak(Schema::NOTHING),
            Value::Object(o) => o,
            _ => panic!("not a schema: {v}"),
        };
        let bound = |k: &str| {
            let n = o.get(k)?.as_number()?;
            Some(match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Num::Int(i),
                (None, Some(u)) => Num::UInt(u),
                _ => Num::Float(n.as_f64()?),
            })
        };
        let num = |k: &str| o.get(k).and_then(Value::as_f64);
        let count = |k: &str| o.get(k).and_then(Value::as_u64);
        let sub = |k: &str| o.get(k).map(|s| self.build(s));
        let list = |k: &str| -> &'static [&'static Schema] {
            match o.get(k) {
                Some(Value::Array(a)) => leak_slice(a.iter().map(|s| self.build(s)).collect()),
                _ => &[],
            }
        };
        let types = match o.get("type") {
            None => Types::ANY,
            Some(t) => {
                let names: Vec<&str> = match t {
                    Value::String(s) => vec![s.as_str()],
                    Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                    _ => vec![],
                };
                names.iter().fold(Types::NONE, |acc, n| {
                    acc.union(match *n {
                        "null" => Types::NULL,
                        "boolean" => Types::BOOLEAN,
                        "integer" => Types::INTEGER,
                        "number" => Types::NUMBER,
                        "string" => Types::STRING,
                        "array" => Types::ARRAY,
                        "object" => Types::OBJECT,
                        other => panic!("type {other}"),
                    })
                })
            }
        };
        let reference = o.get("$ref").and_then(Value::as_str).map(|r| {
            self.statics
                .get(r)
                .copied()
                .unwrap_or_else(|| self.build(self.resolve(r)))
        });
        let schema = Schema {
            types,
            enum_values: match o.get("enum") {
                Some(Value::Array(a)) => leak_slice(a.iter().map(json_const).collect()),
                _ => &[],
            },
            const_value: o.get("const").map(json_const),
            minimum: bound("minimum"),
            maximum: bound("maximum"),
            exclusive_minimum: bound("exclusiveMinimum"),
            exclusive_maximum: bound("exclusiveMaximum"),
            multiple_of: num("multipleOf"),
            min_length: count("minLength"),
            max_length: count("maxLength"),
            pattern: o
                .get("pattern")
                .and_then(Value::as_str)
                .map(|p| leak(Pattern::new(leak_str(p)))),
            format: o
                .get("format")
                .and_then(Value::as_str)
                .map(Format::from_name),
            prefix_items: list("prefixItems"),
            items: sub("items"),
            min_items: count("minItems"),
            max_items: count("maxItems"),
            unique_items: o.get("uniqueItems") == Some(&Value::Bool(true)),
            contains: sub("contains"),
            min_contains: count("minContains"),
            max_contains: count("maxContains"),
            properties: match o.get("properties") {
                Some(Value::Object(p)) => leak_slice(
                    p.iter()
                        .map(|(k, s)| (leak_str(k), self.build(s)))
                        .collect(),
                ),
                _ => &[],
            },
            pattern_properties: match o.get("patternProperties") {
                Some(Value::Object(p)) => leak_slice(
                    p.iter()
                        .map(|(k, s)| (leak(Pattern::new(leak_str(k))), self.build(s)))
                        .collect(),
                ),
                _ => &[],
            },
            required: match o.get("required") {
                Some(Value::Array(a)) => {
                    leak_slice(a.iter().filter_map(Value::as_str).map(leak_str).collect())
                }
                _ => &[],
            },
            additional_properties: match o.get("additionalProperties") {
                None | Some(Value::Bool(true)) => Additional::Allowed,
                Some(Value::Bool(false)) => Additional::Forbidden,
                Some(s) => Additional::Schema(self.build(s)),
            },
            property_names: sub("propertyNames"),
            min_properties: count("minProperties"),
            max_properties: count("maxProperties"),
            dependent_required: match o.get("dependentRequired") {
                Some(Value::Object(d)) => leak_slice(
                    d.iter()
                        .map(|(k, v)| {
                            let deps: Vec<&'static str> = v
                                .as_array()
                                .unwrap()
                                .iter()
                                .filter_map(Value::as_str)
                                .map(leak_str)
                                .collect();
                            (leak_str(k), leak_slice(deps))
                        })
                        .collect(),
                ),
                _ => &[],
            },
            dependent_schemas: match o.get("dependentSchemas") {
                Some(Value::Object(d)) => leak_slice(
                    d.iter()
                        .map(|(k, s)| (leak_str(k), self.build(s)))
                        .collect(),
                ),
                _ => &[],
            },
            any_of: list("anyOf"),
            one_of: list("oneOf"),
            all_of: list("allOf"),
            not: sub("not"),
            if_: sub("if"),
            then: sub("then"),
            else_: sub("else"),
            reference,
            recursive_reference: None,
            // toolc's own annotation: it must not change which values are valid.
            sensitive: o.get("sensitive") == Some(&Value::Bool(true)),
        };
        leak(schema)
    }
}

// ---------------------------------------------------------------------------------------
// A generator guided by the schema.

type Gen = BoxedStrategy<Value>;

/// Small arbitrary JSON of any type.
fn noise() -> Gen {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..=3).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-2.0f64..2.0).prop_map(Value::from),
        "[a-z0-9 é-]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec(("[a-c]", inner), 0..3)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
    .boxed()
}

/// The value, and for integers also the same number written as a float (`1` and `1.0`).
fn spellings(v: &Value) -> Vec<Value> {
    let mut out = vec![v.clone()];
    if let Some(i) = v.as_i64() {
        out.push(Value::from(i as f64));
    }
    out
}

/// Strings in a format: `clean` mostly well-formed ones, otherwise mostly broken ones.
fn format_gen(name: &str, clean: bool) -> Gen {
    let (good, bad) = format_parts(name);
    if clean {
        prop_oneof![17 => good, 3 => bad].boxed()
    } else {
        prop_oneof![1 => good, 3 => bad].boxed()
    }
}

fn format_parts(name: &str) -> (Gen, Gen) {
    let good_date = (1000u32..=2999, 1u32..=12, 1u32..=28)
        .prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"));
    let good_time = (
        0u32..=23,
        0u32..=59,
        0u32..=59,
        prop_oneof![Just(""), Just(".5"), Just(".123")],
        prop_oneof![Just("Z"), Just("z"), Just("+01:00"), Just("-08:00")],
    )
        .prop_map(|(h, m, s, f, o)| format!("{h:02}:{m:02}:{s:02}{f}{o}"));
    let date = (
        prop_oneof![
            0u32..=9999,
            Just(2000u32),
            Just(1900),
            Just(2024),
            Just(2023)
        ],
        0u32..=13,
        prop_oneof![0u32..=32, 28u32..=31],
    )
        .prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"));
    let time = (
        prop_oneof![0u32..=24, Just(23u32), Just(15)],
        prop_oneof![0u32..=60, Just(59u32)],
        prop_oneof![0u32..=61, Just(60u32)],
        prop_oneof![Just(""), Just(""), Just("."), Just(".5"), Just(".123456789"), Just(".x")],
        prop_oneof![
            3 => Just("Z".to_string()),
            1 => Just("z".to_string()),
            1 => Just(String::new()),
            1 => Just("+0100".to_string()),
            1 => Just("Z ".to_string()),
            4 => (prop_oneof![Just('+'), Just('-')], prop_oneof![0u32..=24, Just(8u32)], prop_oneof![0u32..=60, Just(0u32)])
                .prop_map(|(s, h, m)| format!("{s}{h:02}:{m:02}")),
        ],
    )
        .prop_map(|(h, m, s, frac, off)| format!("{h:02}:{m:02}:{s:02}{frac}{off}"));
    let string = |g: BoxedStrategy<String>| g.prop_map(Value::String).boxed();
    let re = |p: &str| {
        string(
            proptest::string::string_regex(p)
                .unwrap_or_else(|e| panic!("{p}: {e}"))
                .boxed(),
        )
    };
    match name {
        "date" => (
            string(good_date.boxed()),
            prop_oneof![
                8 => string(date.boxed()),
                1 => re("[0-9]{4}-[0-9]{1,2}-[0-9]{1,3}"),
                1 => re("[0-9/ -]{8,11}|２０２４-01-01|2024-01-01T00:00:00Z"),
            ]
            .boxed(),
        ),
        "time" => (
            string(good_time.boxed()),
            prop_oneof![8 => string(time.boxed()), 1 => re("[0-9:.Z+-]{6,14}")].boxed(),
        ),
        "date-time" => (
            (good_date, good_time).prop_map(|(d, t)| Value::String(format!("{d}T{t}"))).boxed(),
            prop_oneof![
                8 => (date, prop_oneof![4 => Just("T"), 1 => Just("t"), 1 => Just(" "), 1 => Just("")], time)
                    .prop_map(|(d, sep, t)| Value::String(format!("{d}{sep}{t}"))),
                1 => re("[0-9T:.Z+-]{10,26}"),
            ]
            .boxed(),
        ),
        "uuid" => (
            re("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"),
            prop_oneof![
                1 => re("[0-9a-f]{32}"),
                1 => re("[0-9a-gA-G-]{34,38}"),
                1 => re("\\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\}"),
                1 => re("urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
            ]
            .boxed(),
        ),
        "email" => {
            let local = prop_oneof![
                6 => "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]{1,10}(\\.[a-zA-Z0-9_-]{1,5}){0,2}",
                2 => "\\.?[a-z]{1,5}\\.{1,2}[a-z]{0,3}\\.?",
                2 => "\"[a-z @.\\\\\"]{0,6}\"",
                1 => "[a-z]{60,66}",
                1 => "[a-zé]{1,4}|[a-z]{1,3} [a-z]{1,3}|[a-z]{1,3}\\([a-z]\\)",
            ];
            let at = prop_oneof![9 => Just("@"), 1 => Just(""), 1 => Just("@@"), 1 => Just("@a@")];
            let domain = prop_oneof![
                6 => "[a-z0-9]{1,8}(\\.[a-z0-9-]{1,8}){0,2}",
                2 => "-?[a-z]{1,4}-?\\.com\\.?",
                2 => "\\[(1?[0-9]{1,2}\\.){3}[0-9]{1,3}\\]",
                2 => "\\[(IPv6|ipv6|IPv4):(::1|2001:db8::[0-9a-f]{1,4}|::ffff:1\\.2\\.3\\.4|[0-9a-g:]{2,12})\\]",
                1 => "[a-z]{62,65}\\.com",
                1 => "[a-wyz]{2}--[a-z]{2}\\.org|[a-z]{1,4}_[a-z]{1,3}\\.net|[a-z]{2,5}\\.|é\\.com",
            ];
            (
                re("[a-z0-9]{1,8}(\\.[a-z0-9+_-]{1,5})?@[a-wyz0-9]{1,8}(\\.[a-z]{2,5}){1,2}|\"[a-z ]{1,5}\"@[a-z]{1,5}\\.org|[a-z]{1,4}@\\[127\\.0\\.0\\.1\\]"),
                (local, at, domain).prop_map(|(l, a, d)| Value::String(format!("{l}{a}{d}"))).boxed(),
            )
        }
        "uri" => {
            let scheme = prop_oneof![
                8 => "[a-zA-Z][a-zA-Z0-9+.-]{0,5}",
                1 => "[0-9+.][a-z]{0,3}",
                1 => Just(String::new()),
            ];
            let colon = prop_oneof![9 => Just(":"), 1 => Just("")];
            let host = prop_oneof![
                4 => "[a-z0-9.-]{0,10}",
                1 => "(1?[0-9]{1,2}\\.){3}[0-9]{1,3}",
                2 => "\\[(::1|2001:db8::1|::ffff:1\\.2\\.3\\.4|v1\\.[a-z]{1,3}|v7\\.x:y|[0-9a-g:.]{2,10})\\]",
                1 => "\\[::1|é|[a-z]{1,3}%[0-9a-g]{0,2}",
            ];
            let authority = (
                prop_oneof![3 => Just(String::new()), 1 => "[a-z:%0-9]{0,4}@"],
                host,
                prop_oneof![3 => Just(String::new()), 2 => ":[0-9]{0,5}", 1 => ":[a-z]{1,2}"],
            )
                .prop_map(|(u, h, p)| format!("//{u}{h}{p}"));
            let path = "(/[a-zA-Z0-9%._~!$&'()*+,;=:@ {}\"<>|^`\\\\-]{0,5}){0,3}|[a-z0-9:@.%-]{0,6}(/[a-z]{0,3}){0,2}";
            let hier = prop_oneof![
                3 => (authority, "(/[a-z0-9%._~!$&'()*+,;=:@-]{0,5}){0,3}").prop_map(|(a, p)| format!("{a}{p}")),
                2 => proptest::string::string_regex(path).unwrap(),
            ];
            let query = prop_oneof![2 => Just(String::new()), 1 => "\\?[a-z0-9/?=&%:@ \\[]{0,8}"];
            let fragment = prop_oneof![2 => Just(String::new()), 1 => "#[a-z0-9/?#%]{0,6}"];
            (
                re("(https?|urn|mailto|ftp|x-y\\.z+1):(//([a-z]{1,4}@)?[a-z0-9.-]{1,10}(:[0-9]{1,4})?)?(/[a-z0-9._~%!$&'()*+,;=:@-]{0,5}){0,3}(\\?[a-z0-9=&/?]{0,6})?(#[a-z0-9/?]{0,4})?"),
                (scheme, colon, hier, query, fragment)
                    .prop_map(|(s, c, h, q, f)| Value::String(format!("{s}{c}{h}{q}{f}")))
                    .boxed(),
            )
        }
        "ipv4" => (
            re("(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}"),
            prop_oneof![
                3 => re("(25[0-6]|2[0-4][0-9]|1?[0-9]{1,2}|0[0-9])(\\.(25[0-6]|2[0-4][0-9]|1?[0-9]{1,2}|0[0-9])){3}"),
                1 => re("[0-9.]{5,16}"),
            ]
            .boxed(),
        ),
        "ipv6" => (
            re("([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-f]{1,4}:){1,3}:[0-9a-f]{1,4}|::(ffff:)?1\\.2\\.3\\.4"),
            prop_oneof![
                3 => re("([0-9a-f]{1,4}:){0,3}:([0-9a-f]{1,4}:){0,3}[0-9a-f]{0,4}"),
                2 => re("::(ffff:)?(1?[0-9]{1,2}\\.){3}[0-9]{1,3}"),
                1 => re("[0-9a-g:.]{2,20}"),
            ]
            .boxed(),
        ),
        "hostname" => (
            re("[a-wyz0-9]([a-wyz0-9-]{0,8}[a-z0-9])?(\\.[a-wyz0-9]([a-z0-9-]{0,8}[a-z0-9])?){0,3}"),
            prop_oneof![
                2 => re("-?[a-z0-9-]{0,6}-?(\\.[a-z_]{0,4}){0,2}\\.?"),
                1 => re("[a-z]{60,66}(\\.com)?"),
                1 => re("[a-wyz]{2}--[a-z]{2}|é\\.com"),
            ]
            .boxed(),
        ),
        other => panic!("no generator for format {other}"),
    }
}

/// Whether `instance` is valid against `schema`, per the oracle: used only to steer the
/// clean generator towards valid values.
fn oracle_ok(schema: &Value, instance: &Value) -> bool {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map(|v| v.is_valid(instance))
        .unwrap_or(true)
}

struct Guide<'a> {
    root: &'a Value,
    /// Steer towards valid instances (still with some noise); otherwise towards invalid ones.
    clean: bool,
}

impl Guide<'_> {
    fn resolve(&self, r: &str) -> &Value {
        if r == "#" {
            return self.root;
        }
        &self.root["$defs"][r.strip_prefix("#/$defs/").unwrap()]
    }

    fn generate(&self, schema: &Value, depth: u32) -> Gen {
        if self.clean {
            prop_oneof![49 => self.shaped(schema, depth), 1 => noise()].boxed()
        } else {
            prop_oneof![9 => self.shaped(schema, depth), 1 => noise()].boxed()
        }
    }

    fn shaped(&self, schema: &Value, depth: u32) -> Gen {
        let Some(o) = schema.as_object() else {
            return noise();
        };
        if let Some(r) = o.get("$ref").and_then(Value::as_str) {
            if depth > 5 {
                return noise();
            }
            return self.generate(self.resolve(r), depth + 1);
        }
        let mut options: Vec<(u32, Gen)> = Vec::new();
        for key in ["enum", "const"] {
            if let Some(v) = o.get(key) {
                let values: Vec<Value> = match v {
                    Value::Array(a) if key == "enum" => a.iter().flat_map(spellings).collect(),
                    v => spellings(v),
                };
                options.push((8, prop::sample::select(values).boxed()));
            }
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = o.get(key) {
                for b in branches {
                    options.push((3, self.generate(b, depth + 1)));
                }
            }
        }
        let has = |keys: &[&str]| keys.iter().any(|k| o.contains_key(*k));
        let types: Vec<String> = match o.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect(),
            _ => {
                let mut t = Vec::new();
                if has(&[
                    "properties",
                    "required",
                    "additionalProperties",
                    "patternProperties",
                    "propertyNames",
                ]) {
                    t.push("object".into());
                }
                if has(&["items", "prefixItems", "contains", "minItems", "maxItems"]) {
                    t.push("array".into());
                }
                if has(&["minLength", "maxLength", "pattern", "format"]) {
                    t.push("string".into());
                }
                if has(&[
                    "minimum",
                    "maximum",
                    "multipleOf",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                ]) {
                    t.push("number".into());
                }
                t
            }
        };
        for t in &types {
            options.push((10, self.typed(t, o, depth)));
        }
        if options.is_empty() {
            return noise();
        }
        Union::new_weighted(options).boxed()
    }

    fn typed(&self, t: &str, o: &Map<String, Value>, depth: u32) -> Gen {
        match t {
            "null" => Just(Value::Null).boxed(),
            "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
            "integer" | "number" => self.numbers(o, t == "integer"),
            "string" => self.string(o),
            "array" => self.array(o, depth),
            "object" => self.object(o, depth),
            other => panic!("type {other}"),
        }
    }

    fn numbers(&self, o: &Map<String, Value>, integer: bool) -> Gen {
        let mut ints: Vec<i64> = vec![
            0,
            1,
            -1,
            2,
            3,
            5,
            7,
            10,
            100,
            -100,
            9_007_199_254_740_993,
            i64::MIN,
            i64::MAX,
        ];
        let mut floats: Vec<f64> = vec![
            0.5,
            -0.5,
            0.1,
            0.2,
            0.3,
            0.7,
            1e-9,
            1e300,
            -0.0,
            2.5,
            9.223372036854776e18,
        ];
        for k in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if let Some(b) = o.get(k).and_then(Value::as_f64) {
                let f = b.floor() as i64;
                ints.extend([f - 1, f, f + 1, f + 2]);
                floats.extend([
                    b,
                    b - 0.001,
                    b + 0.001,
                    b - 0.5,
                    b + 0.5,
                    b.next_down(),
                    b.next_up(),
                ]);
            }
        }
        if let Some(m) = o.get("multipleOf").and_then(Value::as_f64) {
            for k in -30i32..40 {
                // The decimal a person would write for k × m (0.30000000000000004 → 0.3).
                let text = format!("{:.10}", f64::from(k) * m);
                let v: f64 = text.parse().unwrap();
                floats.push(v);
                floats.push(v + m / 3.0);
                if v.fract() == 0.0 {
                    ints.push(v as i64);
                }
            }
        }
        let mut values: Vec<Value> = ints
            .iter()
            .flat_map(|i| [Value::from(*i), Value::from(*i as f64)])
            .collect();
        if !integer || !self.clean {
            values.extend(floats.iter().map(|f| Value::from(*f)));
        }
        if self.clean {
            let schema = Value::Object(o.clone());
            let ok: Vec<Value> = values
                .iter()
                .filter(|v| oracle_ok(&schema, v))
                .cloned()
                .collect();
            if !ok.is_empty() {
                return prop::sample::select(ok).boxed();
            }
        }
        let mut opts: Vec<(u32, Gen)> = vec![
            (8, prop::sample::select(values).boxed()),
            (3, (-200i64..200).prop_map(Value::from).boxed()),
        ];
        if !integer {
            opts.push((3, (-200.0f64..200.0).prop_map(Value::from).boxed()));
            opts.push((
                2,
                (-2000i64..2000)
                    .prop_map(|c| json!(c as f64 / 100.0))
                    .boxed(),
            ));
        }
        Union::new_weighted(opts).boxed()
    }

    fn string(&self, o: &Map<String, Value>) -> Gen {
        if let Some(f) = o.get("format").and_then(Value::as_str) {
            return format_gen(f, self.clean);
        }
        let min = o.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = o
            .get("maxLength")
            .and_then(Value::as_u64)
            .map_or(min + 6, |m| m as usize);
        let (lo, hi) = if self.clean {
            (min, max.min(min + 8))
        } else {
            (min.saturating_sub(1), (max + 1).min(min + 12))
        };
        let odd = if self.clean { 1 } else { 4 };
        let alphabet = prop_oneof![
            12 => prop::char::range('a', 'z'),
            4 => prop::char::range('A', 'Z'),
            4 => prop::char::range('0', '9'),
            odd => prop::sample::select(vec!['é', '😀', '\u{301}', '٣', '_', '-', ' ', '\u{85}', '\u{feff}', '\u{a0}', 'x']),
        ];
        let free = prop::collection::vec(alphabet, lo..=hi)
            .prop_map(|cs| Value::String(cs.into_iter().collect()))
            .boxed();
        match o.get("pattern").and_then(Value::as_str) {
            Some(p) => {
                let mut body = p
                    .replace(['^', '$'], "")
                    .replace('*', "{0,6}")
                    .replace('+', "{1,6}");
                if self.clean {
                    body = body
                        .replace("\\d", "[0-9]")
                        .replace("\\w", "[A-Za-z0-9_]")
                        .replace("\\s", " ");
                } else {
                    body = body.replace("\\d", "[0-9٣]");
                }
                let matching = proptest::string::string_regex(&body)
                    .unwrap_or_else(|e| panic!("{p}: {e}"))
                    .prop_map(Value::String)
                    .boxed();
                prop_oneof![3 => matching, 2 => free].boxed()
            }
            None => free,
        }
    }

    fn array(&self, o: &Map<String, Value>, depth: u32) -> Gen {
        let min = o.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = o
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(min + 4, |m| m as usize);
        let closed = o.get("items") == Some(&Value::Bool(false));
        let prefix_len = o
            .get("prefixItems")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let (lo, hi) = if self.clean {
            let hi = max.min(min + 4);
            (
                min,
                if closed {
                    hi.min(prefix_len).max(min)
                } else {
                    hi
                },
            )
        } else {
            (min.saturating_sub(1), (max + 1).min(min + 6))
        };
        let prefix: Vec<Gen> = match o.get("prefixItems") {
            Some(Value::Array(p)) => p.iter().map(|s| self.generate(s, depth + 1)).collect(),
            _ => Vec::new(),
        };
        let rest = match o.get("items") {
            Some(s) => self.generate(s, depth + 1),
            None => noise(),
        };
        let contains = o.get("contains").map(|c| self.generate(c, depth + 1));
        let unique = o.get("uniqueItems") == Some(&Value::Bool(true));
        let clean = self.clean;
        (lo..=hi)
            .prop_flat_map(move |n| {
                let items: Vec<Gen> = (0..n)
                    .map(|i| prefix.get(i).cloned().unwrap_or_else(|| rest.clone()))
                    .collect();
                let extra = contains.clone().unwrap_or_else(noise);
                (
                    items,
                    any::<prop::sample::Index>(),
                    any::<prop::sample::Index>(),
                    0u8..10,
                    extra,
                )
            })
            .prop_map(move |(mut items, i, j, roll, extra)| {
                if !items.is_empty() {
                    let (i, j) = (i.index(items.len()), j.index(items.len()));
                    if unique && !clean && roll < 3 && i != j {
                        // A duplicate, possibly spelled differently (1 vs 1.0).
                        let copy = spellings(&items[i]).pop().unwrap();
                        items[j] = copy;
                    } else if roll >= 7 && !clean {
                        items[i] = extra;
                    }
                }
                Value::Array(items)
            })
            .boxed()
    }

    fn object(&self, o: &Map<String, Value>, depth: u32) -> Gen {
        let required: Vec<&str> = o
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let props = o.get("properties").and_then(Value::as_object);
        let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
        if let Some(props) = props {
            for (k, s) in props {
                let p = match (required.contains(&k.as_str()), self.clean) {
                    (true, true) => 0.99,
                    (true, false) => 0.9,
                    (false, _) => 0.5,
                };
                let k = k.clone();
                fields.push(
                    prop::option::weighted(p, self.generate(s, depth + 1))
                        .prop_map(move |v| v.map(|v| (k.clone(), v)))
                        .boxed(),
                );
            }
        }
        for r in &required {
            if !props.is_some_and(|p| p.contains_key(*r)) {
                let k = r.to_string();
                let p = if self.clean { 0.99 } else { 0.85 };
                fields.push(
                    prop::option::weighted(p, noise())
                        .prop_map(move |v| v.map(|v| (k.clone(), v)))
                        .boxed(),
                );
            }
        }
        let additional = match o.get("additionalProperties") {
            Some(s @ Value::Object(_)) => self.generate(s, depth + 1),
            _ => noise(),
        };
        let patterns: Vec<(&String, &Value)> = o
            .get("patternProperties")
            .and_then(Value::as_object)
            .map(|pp| pp.iter().collect())
            .unwrap_or_default();
        let pattern_value = patterns
            .first()
            .map(|(_, s)| self.generate(s, depth + 1))
            .unwrap_or_else(noise);
        let mut keys = vec![
            "a",
            "b",
            "zz",
            "Ab",
            "extra",
            "x-a",
            "x-long-name",
            "q r",
            "",
            "x-",
            "x-b",
            "x-cd",
        ];
        let forbidden = o.get("additionalProperties") == Some(&Value::Bool(false));
        let entries: BoxedStrategy<Vec<(String, Value)>> = if self.clean {
            // Keys the object allows, each with a value for the schema that applies to it.
            let names = o.get("propertyNames").cloned().unwrap_or(Value::Bool(true));
            keys.retain(|k| {
                !props.is_some_and(|p| p.contains_key(*k))
                    && oracle_ok(&names, &Value::String(k.to_string()))
            });
            let matches_pattern = |k: &str| {
                patterns.iter().any(|(p, _)| {
                    !oracle_ok(
                        &json!({ "patternProperties": { (*p).clone(): false } }),
                        &json!({ k: 0 }),
                    )
                })
            };
            let (patterned, plain): (Vec<&str>, Vec<&str>) =
                keys.iter().partition(|k| matches_pattern(k));
            let mut choices: Vec<(u32, BoxedStrategy<(String, Value)>)> = Vec::new();
            if !patterned.is_empty() {
                choices.push((
                    1,
                    (
                        prop::sample::select(patterned).prop_map(str::to_owned),
                        pattern_value,
                    )
                        .boxed(),
                ));
            }
            if !plain.is_empty() && !forbidden {
                choices.push((
                    1,
                    (
                        prop::sample::select(plain).prop_map(str::to_owned),
                        additional,
                    )
                        .boxed(),
                ));
            }
            let min = usize::from(
                o.get("minProperties").and_then(Value::as_u64).unwrap_or(0) > 0 && props.is_none(),
            );
            if choices.is_empty() {
                Just(Vec::new()).boxed()
            } else {
                prop::collection::vec(Union::new_weighted(choices), min..=2).boxed()
            }
        } else {
            let extra = prop::collection::vec(
                (
                    prop::sample::select(keys).prop_map(str::to_owned),
                    prop_oneof![additional, pattern_value],
                ),
                0..=2,
            );
            let weight = if forbidden { 0.25 } else { 0.6 };
            prop::option::weighted(weight, extra)
                .prop_map(Option::unwrap_or_default)
                .boxed()
        };
        (fields, entries)
            .prop_map(|(fields, extra)| {
                let mut m = Map::new();
                for (k, v) in fields.into_iter().flatten() {
                    m.insert(k, v);
                }
                for (k, v) in extra {
                    m.insert(k, v);
                }
                Value::Object(m)
            })
            .boxed()
    }
}

// ---------------------------------------------------------------------------------------
// The fixtures and the runner.

fn run(
    name: &str,
    schema_json: Value,
    statics: HashMap<&'static str, &'static Schema>,
) -> (u32, u32) {
    let oracle = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&schema_json)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let ours = Builder {
        root: &schema_json,
        statics,
    }
    .build(&schema_json);
    // The same schema compiled from its JSON, as a registered tool's and `toolc check`'s are.
    let compiled =
        toolc_schema::compile(&schema_json).unwrap_or_else(|e| panic!("{name}: compile {e}"));
    let strategy = prop_oneof![
        Guide {
            root: &schema_json,
            clean: true
        }
        .generate(&schema_json, 0),
        Guide {
            root: &schema_json,
            clean: false
        }
        .generate(&schema_json, 0),
    ];
    let valid = Cell::new(0u32);
    let invalid = Cell::new(0u32);
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&strategy, |instance| {
        let expected = oracle.is_valid(&instance);
        let violations = ours.validate(&instance);
        prop_assert_eq!(
            violations.is_empty(),
            expected,
            "{}: {} — jsonschema says {}, the runtime reports {:?}",
            name,
            instance,
            if expected { "valid" } else { "invalid" },
            violations
        );
        prop_assert_eq!(ours.is_valid(&instance), expected);
        prop_assert_eq!(
            compiled.validate(&instance),
            violations,
            "{}: {} — compiled from JSON and built as a static disagree",
            name,
            instance
        );
        if expected {
            valid.set(valid.get() + 1);
        } else {
            invalid.set(invalid.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    let (v, i) = (valid.get(), invalid.get());
    println!("{name}: {} instances, {v} valid, {i} invalid", v + i);
    assert!(v + i >= CASES, "{name}: only {} cases ran", v + i);
    assert!(
        v * 100 >= (v + i) * 15,
        "{name}: too few valid instances ({v} of {})",
        v + i
    );
    assert!(
        i * 100 >= (v + i) * 15,
        "{name}: too few invalid instances ({i} of {})",
        v + i
    );
    (v, i)
}

#[test]
fn person_objects_required_additional_false_strings_email() {
    run(
        "person",
        json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "minLength": 1, "maxLength": 8, "pattern": "^[A-Z][a-z]*$", "sensitive": true },
                "age": { "type": "integer", "minimum": 0, "maximum": 150 },
                "email": { "type": "string", "format": "email" },
                "tags": { "type": "array", "items": { "type": "string", "maxLength": 3 }, "uniqueItems": true, "maxItems": 4 }
            },
            "required": ["name", "age"],
            "additionalProperties": false
        }),
        HashMap::new(),
    );
}

#[test]
fn numbers_bounds_and_float_multiples() {
    run(
        "numbers",
        json!({
            "type": "object",
            "properties": {
                "price": { "type": "number", "exclusiveMinimum": 0, "maximum": 1000, "multipleOf": 0.01, "sensitive": true },
                "qty": { "type": "integer", "minimum": 0, "multipleOf": 5 },
                "ratio": { "type": "number", "minimum": 0, "exclusiveMaximum": 1 },
                "step": { "type": "number", "multipleOf": 0.1, "minimum": -2.5, "maximum": 2.5 }
            },
            "required": ["price"]
        }),
        HashMap::new(),
    );
}

#[test]
fn formats_dates_uuid_uri_and_additional_schema() {
    run(
        "formats",
        json!({
            "type": "object",
            "properties": {
                "date": { "type": "string", "format": "date" },
                "at": { "type": "string", "format": "date-time" },
                "time": { "type": "string", "format": "time" },
                "id": { "type": "string", "format": "uuid" },
                "link": { "type": "string", "format": "uri" }
            },
            "required": ["date", "at", "id", "link"],
            "additionalProperties": { "type": "string", "maxLength": 5 }
        }),
        HashMap::new(),
    );
}

#[test]
fn network_formats_email_hostname_ip() {
    run(
        "network",
        json!({
            "type": "object",
            "properties": {
                "email": { "format": "email" },
                "host": { "format": "hostname" },
                "v4": { "format": "ipv4" },
                "v6": { "format": "ipv6" }
            },
            "required": ["email", "host", "v4", "v6"]
        }),
        HashMap::new(),
    );
}

#[test]
fn shapes_one_of_any_of_const() {
    run(
        "shapes",
        json!({
            "oneOf": [
                { "type": "object", "properties": { "kind": { "const": "circle" }, "r": { "type": "number", "exclusiveMinimum": 0 } }, "required": ["kind", "r"] },
                { "type": "object", "properties": { "kind": { "const": "rect" }, "w": { "type": "number" }, "h": { "type": "number" } }, "required": ["kind", "w", "h"] },
                { "type": "object", "properties": { "w": { "type": "integer", "maximum": 10 } }, "required": ["w"] }
            ]
        }),
        HashMap::new(),
    );
}

#[test]
fn matrix_nested_arrays_unique_contains() {
    run(
        "matrix",
        json!({
            "type": "array",
            "minItems": 1,
            "maxItems": 3,
            "uniqueItems": true,
            "items": {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "items": { "type": ["integer", "null"], "minimum": -5, "maximum": 5 }
            },
            "contains": { "type": "array", "contains": { "type": "null" } },
            "maxContains": 2
        }),
        HashMap::new(),
    );
}

#[test]
fn enums_const_any_of_not() {
    run(
        "enums",
        json!({
            "type": "object",
            "properties": {
                "color": { "enum": ["red", "green", 1, 1.5, null, [1, 2], { "a": 1 }] },
                "level": { "const": 3 },
                "mode": { "type": "string", "enum": ["a", "b"] }
            },
            "anyOf": [ { "required": ["color"] }, { "required": ["level"] } ],
            "not": { "required": ["extra"] }
        }),
        HashMap::new(),
    );
}

#[test]
fn config_pattern_properties_property_names_dependencies() {
    run(
        "config",
        json!({
            "type": "object",
            "patternProperties": { "^x-": { "type": "string" } },
            "additionalProperties": { "type": "integer" },
            "propertyNames": { "maxLength": 6, "pattern": "^[a-z-]+$" },
            "minProperties": 1,
            "maxProperties": 4,
            "dependentRequired": { "a": ["b"] }
        }),
        HashMap::new(),
    );
}

/// `dependentSchemas` (with `dependentRequired` beside it, as OpenAPI generators write both):
/// a schema the whole object must match when it has a property, a required one among them.
#[test]
fn payment_dependent_schemas_and_required() {
    run(
        "payment",
        json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "maxLength": 4 },
                "card": { "type": "string", "pattern": "^[0-9]{2,4}$" },
                "address": { "type": "string" },
                "zip": { "type": "integer", "minimum": 0 }
            },
            "required": ["name"],
            "dependentRequired": { "card": ["address"] },
            "dependentSchemas": {
                "card": {
                    "properties": { "address": { "minLength": 2 }, "zip": { "maximum": 99 } },
                    "required": ["zip"]
                },
                "zip": { "not": { "required": ["name", "a"] }, "maxProperties": 4 }
            }
        }),
        HashMap::new(),
    );
}

#[test]
fn tuples_prefix_items_if_then_else() {
    run(
        "tuple",
        json!({
            "type": "array",
            "prefixItems": [ { "type": "string", "maxLength": 2 }, { "type": "integer" }, { "type": "boolean" } ],
            "items": false,
            "minItems": 2,
            "if": { "prefixItems": [ { "const": "x" } ] },
            "then": { "minItems": 3 },
            "else": { "maxItems": 2 }
        }),
        HashMap::new(),
    );
}

#[test]
fn strings_unicode_lengths_and_ecma_patterns() {
    run(
        "strings",
        json!({
            "type": ["string", "null"],
            "minLength": 2,
            "maxLength": 5,
            "pattern": "\\d|^[\\w-]+\\s?$"
        }),
        HashMap::new(),
    );
}

// The recursive fixture: a tree whose children are trees, through `$ref`.

static INT: Schema = Schema {
    types: Types::INTEGER,
    ..Schema::ANY
};
static NAME: Schema = Schema {
    types: Types::STRING,
    max_length: Some(3),
    ..Schema::ANY
};
static CHILDREN: Schema = Schema {
    types: Types::ARRAY,
    items: Some(&NODE_REF),
    max_items: Some(3),
    ..Schema::ANY
};
static NODE_REF: Schema = Schema {
    reference: Some(&NODE),
    ..Schema::ANY
};
/// What generated code emits for the named type `node`.
static NODE: Schema = Schema {
    types: Types::OBJECT,
    properties: &[("value", &INT), ("name", &NAME), ("children", &CHILDREN)],
    required: &["value"],
    additional_properties: Additional::Forbidden,
    ..Schema::ANY
};

#[test]
fn recursive_trees_through_ref() {
    run(
        "tree",
        json!({
            "$defs": {
                "node": {
                    "type": "object",
                    "properties": {
                        "value": { "type": "integer" },
                        "name": { "type": "string", "maxLength": 3 },
                        "children": { "type": "array", "items": { "$ref": "#/$defs/node" }, "maxItems": 3 }
                    },
                    "required": ["value"],
                    "additionalProperties": false
                }
            },
            "$ref": "#/$defs/node"
        }),
        HashMap::from([("#/$defs/node", &NODE)]),
    );
}

#[test]
fn deep_recursive_instances_do_not_overflow() {
    // A chain 100,000 nodes deep: the validator stops at its depth limit with a violation.
    let mut v = json!({ "value": 0 });
    for i in 0..100_000 {
        // Built by hand: `json!` would serialize `v` again, recursively.
        let mut node = Map::new();
        node.insert("value".into(), Value::from(i));
        node.insert("children".into(), Value::Array(vec![v]));
        v = Value::Object(node);
    }
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            let violations = NODE.validate(&v);
            let valid = NODE.is_valid(&v);
            std::mem::forget(v);
            (violations, valid)
        })
        .unwrap();
    let (violations, valid) = handle.join().unwrap();
    assert!(!valid);
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert!(
        violations[0].message.starts_with("nested too deeply"),
        "{violations:?}"
    );
    // A self-referencing schema that never descends is cut off the same way.
    static LOOP: Schema = Schema {
        reference: Some(&LOOP),
        ..Schema::ANY
    };
    assert!(!LOOP.is_valid(&json!(1)));
}
