//! A JSON Schema given as JSON, compiled into the same [`Schema`] tree generated code holds as
//! statics: the one place where a validation tree is built from a `serde_json::Value` (for tools
//! registered with the runtime at run time, and for the values `toolc check` judges).
//!
//! The tree is leaked, as generated statics live for the whole program: compile a schema once
//! (when its tool is registered), never per call.
//!
//! Every assertion keyword of JSON Schema 2020-12 that the validator checks is compiled (plus
//! OpenAPI's `nullable: true` and toolc's `sensitive: true`). Keywords that assert what it cannot check (`$dynamicRef`,
//! `unevaluatedProperties`, draft-7 `dependencies` and `additionalItems`,
//! references outside the schema, a reference that loops back without entering a part of the
//! value, …) are refused with the keyword and
//! its pointer; a `$ref` may point back into the schema that holds it, through a property or an
//! item. Other keywords are annotations, ignored as JSON Schema says (`title`,
//! `description`, `default`, `examples`, `x-…`).

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use super::{Additional, Format, Json, LateRef, Num, Pattern, Schema, Types};
use crate::pointer::push_pointer;

/// How deep a schema given at run time may nest (subschemas and `$ref` hops together).
pub const MAX_SCHEMA_DEPTH: usize = 64;

/// Why a JSON Schema given at run time was refused: the keyword, where it stands (a JSON
/// pointer into the schema, `""` for the root), and what to do instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The keyword refused (`"$dynamicRef"`, `"minimum"`, …), or `""` for the schema itself.
    pub keyword: String,
    /// Where: the JSON pointer of the schema object that holds the keyword.
    pub pointer: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "the root".to_owned()
        } else {
            format!("`{}`", self.pointer)
        };
        if self.keyword.is_empty() {
            write!(f, "is refused at {at}: {}", self.message)
        } else {
            write!(
                f,
                "is refused at {at}, keyword `{}`: {}",
                self.keyword, self.message
            )
        }
    }
}

impl std::error::Error for SchemaError {}

static ANY: Schema = Schema::ANY;
static NOTHING: Schema = Schema::NOTHING;

/// JSON Schema keywords that assert something the validator does not check: refused, since
/// accepting them would let through what the schema shown to the model forbids.
const UNSUPPORTED: &[(&str, &str)] = &[
    (
        "$dynamicRef",
        "dynamic references are not supported; use a `$ref` to `#/$defs/…`",
    ),
    (
        "$dynamicAnchor",
        "dynamic references are not supported; use a `$ref` to `#/$defs/…`",
    ),
    (
        "$recursiveRef",
        "recursive references are not supported; use a `$ref` to `#/$defs/…`",
    ),
    (
        "$recursiveAnchor",
        "recursive references are not supported; use a `$ref` to `#/$defs/…`",
    ),
    (
        "unevaluatedProperties",
        "not supported; list the properties and use `additionalProperties`",
    ),
    (
        "unevaluatedItems",
        "not supported; use `items` after `prefixItems`",
    ),
    (
        "dependencies",
        "(draft 7) is not supported; use `dependentRequired`",
    ),
    (
        "additionalItems",
        "(draft 7) is not supported; use `prefixItems` with `items`",
    ),
    ("contentSchema", "not supported"),
    ("$vocabulary", "custom vocabularies are not supported"),
];

/// Compiles `schema` into a leaked [`Schema`] tree, refusing what the validator cannot
/// check with the keyword and its pointer.
///
/// A `$ref` may point back into a schema that contains it (a tree whose children are trees): the
/// reference is then kept as a [`LateRef`], filled once its target is built. A reference that
/// comes back to its own schema without going into a property, an item or a property name
/// first (`{"$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}}`) is refused: it would
/// check a value against itself for ever.
pub fn compile(schema: &Value) -> Result<&'static Schema, SchemaError> {
    let mut c = Compiler {
        root: schema,
        refs: HashMap::new(),
        resolving: Vec::new(),
        late: HashMap::new(),
        descents: 0,
    };
    match c.target("", "", 0)? {
        Target::Built(root) => Ok(root),
        // The root is never being resolved before it is asked for.
        Target::Late(_) => Err(err("", "", "the schema refers to itself before it exists")),
    }
}

struct Compiler<'r> {
    root: &'r Value,
    /// `$ref` targets compiled so far, so a shared definition is compiled once.
    refs: HashMap<String, &'static Schema>,
    /// `$ref` targets being compiled, innermost last, each with the count of descents into
    /// a value's parts (`descents`) when it was entered: meeting one again is a cycle, and a
    /// cycle that made no descent since is a loop.
    resolving: Vec<(String, usize)>,
    /// The references to targets being compiled, filled when each target is built.
    late: HashMap<String, &'static LateRef>,
    /// How many keywords that apply to a part of the value (a property, an item, a property
    /// name) the compiler is inside.
    descents: usize,
}

/// What a `$ref` resolves to: a schema already built, or one being built around it.
enum Target {
    Built(&'static Schema),
    Late(&'static LateRef),
}

fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn leak_slice<T>(items: Vec<T>) -> &'static [T] {
    if items.is_empty() {
        return &[];
    }
    Box::leak(items.into_boxed_slice())
}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

fn child(pointer: &str, segment: &str) -> String {
    let mut p = pointer.to_owned();
    push_pointer(&mut p, segment);
    p
}

fn err(keyword: &str, pointer: &str, message: impl Into<String>) -> SchemaError {
    SchemaError {
        keyword: keyword.to_owned(),
        pointer: pointer.to_owned(),
        message: message.into(),
    }
}

fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Compiler<'_> {
    fn node(
        &mut self,
        v: &Value,
        pointer: &str,
        depth: usize,
    ) -> Result<&'static Schema, SchemaError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(err(
                "",
                pointer,
                format!("the schema nests deeper than {MAX_SCHEMA_DEPTH} levels"),
            ));
        }
        match v {
            Value::Bool(true) => Ok(&ANY),
            Value::Bool(false) => Ok(&NOTHING),
            Value::Object(map) => Ok(leak(self.object(map, pointer, depth)?)),
            other => Err(err(
                "",
                pointer,
                format!(
                    "a schema is an object or a boolean, not {}",
                    describe(other)
                ),
            )),
        }
    }

    fn sub(
        &mut self,
        map: &Map<String, Value>,
        key: &str,
        pointer: &str,
        depth: usize,
    ) -> Result<Option<&'static Schema>, SchemaError> {
        match map.get(key) {
            Some(v) => Ok(Some(self.node(v, &child(pointer, key), depth + 1)?)),
            None => Ok(None),
        }
    }

    fn list(
        &mut self,
        map: &Map<String, Value>,
        key: &str,
        pointer: &str,
        depth: usize,
    ) -> Result<&'static [&'static Schema], SchemaError> {
        let Some(v) = map.get(key) else {
            return Ok(&[]);
        };
        let Value::Array(items) = v else {
            return Err(err(
                key,
                pointer,
                format!("must be an array of schemas, not {}", describe(v)),
            ));
        };
        if items.is_empty() && key != "prefixItems" {
            return Err(err(key, pointer, "must list at least one schema"));
        }
        let at = child(pointer, key);
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(self.node(item, &child(&at, &i.to_string()), depth + 1)?);
        }
        Ok(leak_slice(out))
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        depth: usize,
    ) -> Result<Schema, SchemaError> {
        // The keywords without subschemas are read apart, keeping this recursive frame small.
        let mut s = assertions(map, pointer)?;
        if let Some(Value::Array(_)) = map.get("items") {
            return Err(err(
                "items",
                pointer,
                "an array of schemas (draft 7 tuples) is not supported; list them in `prefixItems`",
            ));
        }
        // Keywords that apply to a part of the value (an item, a property, a property name).
        self.descents += 1;
        let parts = self.parts(map, &mut s, pointer, depth);
        self.descents -= 1;
        parts?;
        s.not = self.sub(map, "not", pointer, depth)?;
        s.if_ = self.sub(map, "if", pointer, depth)?;
        s.then = self.sub(map, "then", pointer, depth)?;
        s.else_ = self.sub(map, "else", pointer, depth)?;
        s.any_of = self.list(map, "anyOf", pointer, depth)?;
        s.one_of = self.list(map, "oneOf", pointer, depth)?;
        s.all_of = self.list(map, "allOf", pointer, depth)?;
        // Each applies to the object itself, as `allOf` does.
        if let Some(v) = map.get("dependentSchemas") {
            let Value::Object(deps) = v else {
                return Err(err(
                    "dependentSchemas",
                    pointer,
                    format!("must be an object of schemas, not {}", describe(v)),
                ));
            };
            let at = child(pointer, "dependentSchemas");
            let mut out = Vec::with_capacity(deps.len());
            for (name, dep) in deps {
                out.push((
                    leak_str(name),
                    self.node(dep, &child(&at, name), depth + 1)?,
                ));
            }
            s.dependent_schemas = leak_slice(out);
        }
        if let Some(v) = map.get("required") {
            s.required = leak_slice(strings(v, "required", pointer)?);
        }
        if let Some(v) = map.get("dependentRequired") {
            let Value::Object(deps) = v else {
                return Err(err(
                    "dependentRequired",
                    pointer,
                    format!("must be an object of arrays of names, not {}", describe(v)),
                ));
            };
            let mut out = Vec::with_capacity(deps.len());
            for (name, names) in deps {
                let names = strings(names, "dependentRequired", pointer)?;
                out.push((leak_str(name), leak_slice(names)));
            }
            s.dependent_required = leak_slice(out);
        }
        if let Some(v) = map.get("$ref") {
            match self.reference(v, pointer, depth)? {
                Target::Built(target) => s.reference = Some(target),
                Target::Late(late) => s.recursive_reference = Some(late),
            }
        }
        Ok(s)
    }

    /// The subschemas of `map` that apply to parts of the value: `prefixItems`, `items`,
    /// `contains`, `propertyNames`, `properties`, `patternProperties` and
    /// `additionalProperties`, set on `s`.
    fn parts(
        &mut self,
        map: &Map<String, Value>,
        s: &mut Schema,
        pointer: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        s.prefix_items = self.list(map, "prefixItems", pointer, depth)?;
        s.items = self.sub(map, "items", pointer, depth)?;
        s.contains = self.sub(map, "contains", pointer, depth)?;
        s.property_names = self.sub(map, "propertyNames", pointer, depth)?;
        if let Some(v) = map.get("properties") {
            let Value::Object(props) = v else {
                return Err(err(
                    "properties",
                    pointer,
                    format!("must be an object of schemas, not {}", describe(v)),
                ));
            };
            let at = child(pointer, "properties");
            let mut out = Vec::with_capacity(props.len());
            for (name, prop) in props {
                let schema = self.node(prop, &child(&at, name), depth + 1)?;
                out.push((leak_str(name), schema));
            }
            s.properties = leak_slice(out);
        }
        if let Some(v) = map.get("patternProperties") {
            let Value::Object(props) = v else {
                return Err(err(
                    "patternProperties",
                    pointer,
                    format!("must be an object of schemas, not {}", describe(v)),
                ));
            };
            let at = child(pointer, "patternProperties");
            let mut out = Vec::with_capacity(props.len());
            for (source, prop) in props {
                let p = pattern(&Value::String(source.clone()), "patternProperties", pointer)?;
                out.push((p, self.node(prop, &child(&at, source), depth + 1)?));
            }
            s.pattern_properties = leak_slice(out);
        }
        match map.get("additionalProperties") {
            None => {}
            Some(Value::Bool(true)) => s.additional_properties = Additional::Allowed,
            Some(Value::Bool(false)) => s.additional_properties = Additional::Forbidden,
            Some(v) => {
                let at = child(pointer, "additionalProperties");
                s.additional_properties = Additional::Schema(self.node(v, &at, depth + 1)?);
            }
        }
        Ok(())
    }

    /// Resolves a local `$ref` (`#`, `#/$defs/Name`, any JSON pointer into this schema).
    fn reference(&mut self, v: &Value, pointer: &str, depth: usize) -> Result<Target, SchemaError> {
        let Value::String(target) = v else {
            return Err(err(
                "$ref",
                pointer,
                format!("must be a string, not {}", describe(v)),
            ));
        };
        let Some(path) = target.strip_prefix('#') else {
            return Err(err(
                "$ref",
                pointer,
                format!(
                    "`{target}` refers outside this schema; only references into it (`#/$defs/…`) are supported: inline the schema instead"
                ),
            ));
        };
        if !path.is_empty() && !path.starts_with('/') {
            return Err(err(
                "$ref",
                pointer,
                format!(
                    "`{target}` names an anchor; only JSON pointers (`#/$defs/…`) are supported"
                ),
            ));
        }
        self.target(path, pointer, depth)
    }

    /// The schema at `path` (a JSON pointer into the root), built once; a target being built
    /// around this reference is a [`Target::Late`], refused when no descent was made since.
    fn target(&mut self, path: &str, pointer: &str, depth: usize) -> Result<Target, SchemaError> {
        if let Some(done) = self.refs.get(path) {
            return Ok(Target::Built(done));
        }
        if let Some(&(_, entered)) = self.resolving.iter().find(|(p, _)| p == path) {
            if entered == self.descents {
                return Err(err(
                    "$ref",
                    pointer,
                    format!(
                        "`#{path}` refers back to a schema that contains it without going into a property or an item first, so a value would be checked against it for ever; put the reference under `properties`, `items` or `additionalProperties`"
                    ),
                ));
            }
            let late = *self
                .late
                .entry(path.to_owned())
                .or_insert_with(|| leak(LateRef::new()));
            return Ok(Target::Late(late));
        }
        let Some(resolved) = self.root.pointer(path) else {
            return Err(err(
                "$ref",
                pointer,
                format!("`#{path}` points at nothing in this schema"),
            ));
        };
        self.resolving.push((path.to_owned(), self.descents));
        let built = self.node(resolved, path, depth + 1);
        self.resolving.pop();
        let schema = built?;
        if let Some(late) = self.late.remove(path) {
            late.set(schema);
        }
        self.refs.insert(path.to_owned(), schema);
        Ok(Target::Built(schema))
    }
}

/// The keywords of `map` that hold no subschema.
#[inline(never)]
fn assertions(map: &Map<String, Value>, pointer: &str) -> Result<Schema, SchemaError> {
    for key in map.keys() {
        if let Some((_, why)) = UNSUPPORTED.iter().find(|(k, _)| k == key) {
            return Err(err(key, pointer, *why));
        }
    }
    let mut s = Schema::ANY;
    if let Some(t) = map.get("type") {
        s.types = types(t, pointer)?;
    }
    if map.get("nullable") == Some(&Value::Bool(true)) && s.types != Types::ANY {
        s.types = s.types.union(Types::NULL);
    }
    if let Some(v) = map.get("enum") {
        let Value::Array(values) = v else {
            return Err(err(
                "enum",
                pointer,
                format!("must be an array, not {}", describe(v)),
            ));
        };
        if values.is_empty() {
            return Err(err("enum", pointer, "must list at least one value"));
        }
        s.enum_values = leak_slice(values.iter().map(constant).collect());
    }
    if let Some(v) = map.get("const") {
        s.const_value = Some(constant(v));
    }
    s.minimum = bound(map, "minimum", pointer)?;
    s.maximum = bound(map, "maximum", pointer)?;
    s.exclusive_minimum = bound(map, "exclusiveMinimum", pointer)?;
    s.exclusive_maximum = bound(map, "exclusiveMaximum", pointer)?;
    s.multiple_of = number(map, "multipleOf", pointer)?;
    if s.multiple_of.is_some_and(|m| m <= 0.0) {
        return Err(err("multipleOf", pointer, "must be greater than 0"));
    }
    s.min_length = count(map, "minLength", pointer)?;
    s.max_length = count(map, "maxLength", pointer)?;
    s.min_items = count(map, "minItems", pointer)?;
    s.max_items = count(map, "maxItems", pointer)?;
    s.min_contains = count(map, "minContains", pointer)?;
    s.max_contains = count(map, "maxContains", pointer)?;
    s.min_properties = count(map, "minProperties", pointer)?;
    s.max_properties = count(map, "maxProperties", pointer)?;
    if let Some(v) = map.get("pattern") {
        s.pattern = Some(pattern(v, "pattern", pointer)?);
    }
    if let Some(v) = map.get("format") {
        let Value::String(name) = v else {
            return Err(err(
                "format",
                pointer,
                format!("must be a string, not {}", describe(v)),
            ));
        };
        s.format = Some(Format::from_name(name));
    }
    if let Some(v) = map.get("uniqueItems") {
        let Value::Bool(b) = v else {
            return Err(err(
                "uniqueItems",
                pointer,
                format!("must be a boolean, not {}", describe(v)),
            ));
        };
        s.unique_items = *b;
    }
    // toolc's own keyword: the value is a secret, never quoted in messages, masked in logs.
    if map.get("sensitive") == Some(&Value::Bool(true)) {
        s.sensitive = true;
    }
    Ok(s)
}

fn types(v: &Value, pointer: &str) -> Result<Types, SchemaError> {
    let one = |name: &str| -> Result<Types, SchemaError> {
        Ok(match name {
            "null" => Types::NULL,
            "boolean" => Types::BOOLEAN,
            "integer" => Types::INTEGER,
            "number" => Types::NUMBER,
            "string" => Types::STRING,
            "array" => Types::ARRAY,
            "object" => Types::OBJECT,
            other => {
                return Err(err(
                    "type",
                    pointer,
                    format!(
                        "{other:?} is not a JSON type; use null, boolean, integer, number, string, array or object"
                    ),
                ));
            }
        })
    };
    match v {
        Value::String(name) => one(name),
        Value::Array(names) if !names.is_empty() => {
            let mut t = Types::NONE;
            for name in names {
                let Value::String(name) = name else {
                    return Err(err("type", pointer, "must list type names (strings)"));
                };
                t = t.union(one(name)?);
            }
            Ok(t)
        }
        other => Err(err(
            "type",
            pointer,
            format!(
                "must be a type name or a non-empty array of them, not {}",
                describe(other)
            ),
        )),
    }
}

fn constant(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Json::Int(i)
            } else if let Some(u) = n.as_u64() {
                Json::UInt(u)
            } else {
                Json::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => Json::Str(leak_str(s)),
        Value::Array(_) | Value::Object(_) => Json::Raw(leak_str(&v.to_string())),
    }
}

/// A bound, kept exactly: integers stay integers.
fn bound(map: &Map<String, Value>, key: &str, pointer: &str) -> Result<Option<Num>, SchemaError> {
    let exact = match map.get(key) {
        Some(Value::Number(n)) => n
            .as_i64()
            .map(Num::Int)
            .or_else(|| n.as_u64().map(Num::UInt)),
        _ => None,
    };
    match exact {
        Some(n) => Ok(Some(n)),
        None => Ok(number(map, key, pointer)?.map(Num::Float)),
    }
}

fn number(map: &Map<String, Value>, key: &str, pointer: &str) -> Result<Option<f64>, SchemaError> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(x) if x.is_finite() => Ok(Some(x)),
            _ => Err(err(key, pointer, "must be a finite number")),
        },
        Some(Value::Bool(_)) if key.starts_with("exclusive") => Err(err(
            key,
            pointer,
            "the boolean form (draft 4) is not supported; give the bound itself, such as `\"exclusiveMinimum\": 0`",
        )),
        Some(other) => Err(err(
            key,
            pointer,
            format!("must be a number, not {}", describe(other)),
        )),
    }
}

fn count(map: &Map<String, Value>, key: &str, pointer: &str) -> Result<Option<u64>, SchemaError> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => {
            if let Some(u) = n.as_u64() {
                return Ok(Some(u));
            }
            match n.as_f64() {
                Some(x) if x >= 0.0 && x.fract() == 0.0 && x < 1.8e19 => Ok(Some(x as u64)),
                _ => Err(err(key, pointer, "must be a non-negative integer")),
            }
        }
        Some(other) => Err(err(
            key,
            pointer,
            format!("must be a non-negative integer, not {}", describe(other)),
        )),
    }
}

fn strings(v: &Value, key: &str, pointer: &str) -> Result<Vec<&'static str>, SchemaError> {
    let Value::Array(items) = v else {
        return Err(err(
            key,
            pointer,
            format!("must be an array of strings, not {}", describe(v)),
        ));
    };
    items
        .iter()
        .map(|item| match item {
            Value::String(s) => Ok(leak_str(s)),
            other => Err(err(
                key,
                pointer,
                format!("must list strings, not {}", describe(other)),
            )),
        })
        .collect()
}

fn pattern(v: &Value, key: &str, pointer: &str) -> Result<&'static Pattern, SchemaError> {
    let Value::String(source) = v else {
        return Err(err(
            key,
            pointer,
            format!("must be a string, not {}", describe(v)),
        ));
    };
    let p: &'static Pattern = leak(Pattern::new(leak_str(source)));
    if let Err(why) = p.regex() {
        return Err(err(
            key,
            pointer,
            format!(
                "the regular expression {source:?} is not supported (look-around and back-references are not): {}",
                why.lines().last().unwrap_or(why)
            ),
        ));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keywords_validate_like_json_schema() {
        let s = compile(&json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "pattern": "^[a-z]+$"},
                "n": {"type": "integer", "minimum": 0, "exclusiveMaximum": 10},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}, "uniqueItems": true}
            },
            "required": ["name"],
            "additionalProperties": false,
            "$defs": {"Tag": {"enum": ["a", "b"]}}
        }))
        .expect("compiles");
        assert!(s.is_valid(&json!({"name": "ada", "n": 3, "tags": ["a", "b"]})));
        let v = s.validate(&json!({"name": "Ada", "n": 10, "tags": ["a", "a", "c"], "x": 1}));
        let pointers: Vec<&str> = v.iter().map(|v| v.pointer.as_str()).collect();
        assert!(pointers.contains(&"/name"), "{v:?}");
        assert!(pointers.contains(&"/n"), "{v:?}");
        assert!(pointers.contains(&"/tags/2"), "{v:?}");
        assert!(pointers.contains(&"/x"), "{v:?}");
    }

    #[test]
    fn refusals_name_the_keyword_and_pointer() {
        let cases = [
            (
                json!({"properties": {"a": {"unevaluatedProperties": false}}}),
                "unevaluatedProperties",
                "/properties/a",
            ),
            (
                json!({"properties": {"t": {"$ref": "#/$defs/T"}}, "$defs": {"T": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/T"}]}}}),
                "$ref",
                "/$defs/T/anyOf/1",
            ),
            (
                json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"not": {"$ref": "#/$defs/A"}}}}),
                "$ref",
                "/$defs/B/not",
            ),
            (json!({"allOf": [{"$ref": "#"}]}), "$ref", "/allOf/0"),
            (json!({"$ref": "https://example.com/s.json"}), "$ref", ""),
            (
                json!({"properties": {"p": {"pattern": "(?<=a)b"}}}),
                "pattern",
                "/properties/p",
            ),
            (json!({"type": "text"}), "type", ""),
            (json!({"items": [{"type": "string"}]}), "items", ""),
            (json!({"minimum": "0"}), "minimum", ""),
            (json!({"exclusiveMinimum": true}), "exclusiveMinimum", ""),
            (json!({"anyOf": []}), "anyOf", ""),
            (json!({"properties": {"a": 3}}), "", "/properties/a"),
            (json!({"$ref": "#/$defs/Missing"}), "$ref", ""),
        ];
        for (schema, keyword, pointer) in cases {
            let e = compile(&schema).expect_err(&schema.to_string());
            assert_eq!(
                (e.keyword.as_str(), e.pointer.as_str()),
                (keyword, pointer),
                "{schema}: {e}"
            );
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn recursive_references_close_the_cycle() {
        // A tree whose children are trees, through `$defs`.
        let tree = compile(&json!({
            "$ref": "#/$defs/Node",
            "$defs": {"Node": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "minLength": 1},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
                },
                "required": ["name"],
                "additionalProperties": false
            }}
        }))
        .expect("compiles");
        let deep = json!({"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]});
        assert!(tree.is_valid(&deep));
        let bad = json!({"name": "a", "children": [{"name": "b", "children": [{"name": ""}]}]});
        let v = tree.validate(&bad);
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].pointer, "/children/0/children/0/name");
        // The root itself, and two definitions that refer to each other.
        let list = compile(&json!({
            "type": "object",
            "properties": {"head": {"type": "integer"}, "tail": {"$ref": "#"}},
            "additionalProperties": false
        }))
        .expect("compiles");
        assert!(list.is_valid(&json!({"head": 1, "tail": {"head": 2, "tail": {}}})));
        assert!(!list.is_valid(&json!({"head": 1, "tail": {"head": "2"}})));
        let mutual = compile(&json!({
            "$ref": "#/$defs/A",
            "$defs": {
                "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                "B": {"type": "array", "items": {"$ref": "#/$defs/A"}}
            }
        }))
        .expect("compiles");
        assert!(mutual.is_valid(&json!({"b": [{"b": []}, {}]})));
        assert!(!mutual.is_valid(&json!({"b": [{"b": {}}]})));
        // Deep instances of a recursive schema are refused at the depth limit, not overflowed.
        let mut v = json!({"name": "leaf"});
        for _ in 0..20_000 {
            // Built by hand: `json!` would serialize `v` again, recursively.
            let mut node = Map::new();
            node.insert("name".into(), Value::from("n"));
            node.insert("children".into(), Value::Array(vec![v]));
            v = Value::Object(node);
        }
        let deep = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || {
                let too_deep = tree
                    .validate(&v)
                    .iter()
                    .any(|v| v.message.starts_with("nested too deeply"));
                let answer = (tree.is_valid(&v), too_deep);
                // Masked whole past the depth limit, nothing deeper copied.
                let masked = tree.redact(&v).into_owned();
                std::mem::forget(masked);
                std::mem::forget(v);
                answer
            })
            .expect("thread")
            .join()
            .expect("no overflow");
        assert_eq!(deep, (false, true));
    }

    #[test]
    fn sensitive_values_are_not_quoted() {
        let s = compile(&json!({
            "type": "object",
            "properties": {"pin": {"type": "string", "pattern": "^[0-9]{4}$", "sensitive": true}}
        }))
        .expect("compiles");
        let v = s.validate(&json!({"pin": "secret-1"}));
        assert_eq!(v.len(), 1);
        assert!(!v[0].message.contains("secret-1"), "{}", v[0].message);
        assert_eq!(
            s.redact(&json!({"pin": "secret-1"})).into_owned(),
            json!({"pin": crate::REDACTED})
        );
    }

    #[test]
    fn deep_schemas_are_refused_not_overflowed() {
        let mut v = json!({"type": "string"});
        for _ in 0..1_000 {
            v = json!({"items": v});
        }
        let e = compile(&v).expect_err("too deep");
        assert!(e.message.contains("deeper"), "{e}");
    }

    #[test]
    fn shared_definitions_compile_once() {
        let s = compile(&json!({
            "properties": {"a": {"$ref": "#/$defs/X"}, "b": {"$ref": "#/$defs/X"}},
            "$defs": {"X": {"type": "integer"}}
        }))
        .expect("compiles");
        let a = s.properties[0].1.reference.expect("ref");
        let b = s.properties[1].1.reference.expect("ref");
        assert!(std::ptr::eq(a, b));
    }
}
