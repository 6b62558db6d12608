//! An OpenAPI document's schemas as manifest schemas: `$ref`s to `components.schemas` become
//! references to the manifest's named types (`#/types/Name`), other local references are
//! inlined, and OpenAPI 3.0's own spellings become JSON Schema 2020-12's where the two differ.
//!
//! | OpenAPI | manifest | why |
//! |---|---|---|
//! | `$ref: '#/components/schemas/Pet'` | `$ref: '#/types/Pet'` | named types are the manifest's components; a name that is not PascalCase is made so |
//! | `$ref` to another place of the document | the schema there, inlined | the manifest refers only to named types |
//! | 3.0 `exclusiveMinimum: true` beside `minimum: 5` | `exclusiveMinimum: 5` | 2020-12's bound is a number; `false` is dropped |
//! | `example: v` | `examples: [v]` | 2020-12 has only the list |
//! | `xml`, `externalDocs` | left out | OpenAPI's own annotations, with no meaning for a tool's arguments |
//! | `nullable`, `discriminator` | as sent (`discriminator.mapping`'s references rewritten) | toolc reads both |
//!
//! Each change but the first is named in a note.

use crate::import::{Failure, Note};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};

/// Keywords whose value is one schema.
const SCHEMA: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "contentSchema",
];

/// Keywords whose value is a list of schemas.
const SCHEMA_LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// Keywords whose value maps names to schemas.
const SCHEMA_MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is data, never a schema.
const DATA: &[&str] = &["const", "enum", "default", "examples"];

/// The schemas of one document being converted: which components are named types (and their
/// names), and the notes made.
pub struct Schemas<'a> {
    pub doc: &'a Value,
    /// Component name → type name, for every component referred to so far, in that order.
    pub named: Vec<(String, String)>,
    /// Type names given out.
    taken: HashSet<String>,
    /// The local references being inlined, outermost first (a cycle among them cannot be).
    inlining: Vec<String>,
    pub notes: Vec<Note>,
}

impl<'a> Schemas<'a> {
    pub fn new(doc: &'a Value) -> Self {
        Schemas {
            doc,
            named: Vec::new(),
            taken: HashSet::new(),
            inlining: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The type name of the component `name`, given out on its first use.
    pub fn type_name(&mut self, component: &str) -> String {
        if let Some((_, t)) = self.named.iter().find(|(c, _)| c == component) {
            return t.clone();
        }
        let base = pascal(component);
        let mut name = base.clone();
        let mut n = 2;
        while self.taken.contains(&name) {
            let suffix = n.to_string();
            let keep = base.len().min(64 - suffix.len());
            name = format!("{}{suffix}", &base[..keep]);
            n += 1;
        }
        if name != component {
            self.notes.push(Note::new(
                None,
                format!("/components/schemas/{}", escape(component)),
                format!(
                    "the schema `{component}` is the named type `{name}`: type names are PascalCase ASCII letters and digits, at most 64 characters"
                ),
            ));
        }
        self.taken.insert(name.clone());
        self.named.push((component.to_string(), name.clone()));
        name
    }

    /// The schema at `schema` (a JSON pointer into the document, for messages) as a manifest
    /// schema; `tool` names the tool notes are about.
    pub fn convert(
        &mut self,
        schema: &Value,
        at: &str,
        tool: Option<&str>,
    ) -> Result<Value, Failure> {
        let Value::Object(map) = schema else {
            // `true`, `false` (3.1) and anything else are kept as they are.
            return Ok(schema.clone());
        };
        if let Some(Value::String(reference)) = map.get("$ref") {
            if let Some(component) = component_of(reference) {
                if self.resolve(reference).is_none() {
                    return Err(nothing_at(reference, at));
                }
                let name = self.type_name(&component);
                let mut out = Map::new();
                for (k, v) in map {
                    if k == "$ref" {
                        out.insert(k.clone(), Value::String(format!("#/types/{name}")));
                    } else {
                        out.insert(k.clone(), self.keyword(k, v, at, tool)?);
                    }
                }
                return Ok(Value::Object(out));
            }
            return self.inline(reference, map, at, tool);
        }
        let mut out = Map::new();
        for (key, value) in map {
            match key.as_str() {
                "example" => {
                    if map.contains_key("examples") {
                        self.note(tool, at, "example", "left out: the schema has `examples` too, which JSON Schema 2020-12 keeps".into());
                    } else {
                        out.insert("examples".into(), Value::Array(vec![value.clone()]));
                        self.note(tool, at, "example", "written as `examples: [...]`, the JSON Schema 2020-12 spelling".into());
                    }
                }
                "exclusiveMinimum" | "exclusiveMaximum" if value.is_boolean() => {
                    let bound = if key == "exclusiveMinimum" { "minimum" } else { "maximum" };
                    match (value.as_bool(), map.get(bound)) {
                        (Some(true), Some(limit)) => {
                            out.insert(key.clone(), limit.clone());
                            out.shift_remove(bound);
                            self.note(tool, at, key, format!("`{key}: true` beside `{bound}: {limit}` written as `{key}: {limit}`, the JSON Schema 2020-12 spelling"));
                        }
                        (Some(true), None) => self.note(tool, at, key, format!("left out: `{key}: true` has no `{bound}` to make exclusive")),
                        _ => self.note(tool, at, key, format!("left out: `{key}: false` says what `{bound}` says alone")),
                    }
                }
                "minimum" | "maximum"
                    if map
                        .get(if key == "minimum" { "exclusiveMinimum" } else { "exclusiveMaximum" })
                        == Some(&Value::Bool(true)) => {}
                "xml" | "externalDocs" => self.note(
                    tool,
                    at,
                    key,
                    format!("left out: `{key}` is OpenAPI's own annotation, with no meaning for a tool's values"),
                ),
                _ => {
                    let converted = self.keyword(key, value, at, tool)?;
                    out.insert(key.clone(), converted);
                }
            }
        }
        Ok(Value::Object(out))
    }

    /// One keyword's value, converted where it holds schemas.
    fn keyword(
        &mut self,
        key: &str,
        value: &Value,
        at: &str,
        tool: Option<&str>,
    ) -> Result<Value, Failure> {
        let here = format!("{at}/{}", escape(key));
        if key.starts_with("x-") || DATA.contains(&key) {
            return Ok(value.clone());
        }
        if SCHEMA.contains(&key) {
            // 3.0's `items` is one schema; a list (draft-07's tuple) is converted item by item.
            if let Value::Array(items) = value {
                return self.list(items, &here, tool);
            }
            return self.convert(value, &here, tool);
        }
        if SCHEMA_LIST.contains(&key)
            && let Value::Array(items) = value
        {
            return self.list(items, &here, tool);
        }
        if SCHEMA_MAP.contains(&key)
            && let Value::Object(named) = value
        {
            let mut out = Map::new();
            for (name, schema) in named {
                let converted = self.convert(schema, &format!("{here}/{}", escape(name)), tool)?;
                out.insert(name.clone(), converted);
            }
            return Ok(Value::Object(out));
        }
        if key == "discriminator"
            && let Value::Object(d) = value
        {
            return self.discriminator(d, &here);
        }
        Ok(value.clone())
    }

    fn list(&mut self, items: &[Value], at: &str, tool: Option<&str>) -> Result<Value, Failure> {
        items
            .iter()
            .enumerate()
            .map(|(i, s)| self.convert(s, &format!("{at}/{i}"), tool))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array)
    }

    /// `discriminator` as sent, its mapping's references to components made references to
    /// their named types.
    fn discriminator(&mut self, d: &Map<String, Value>, at: &str) -> Result<Value, Failure> {
        let mut out = d.clone();
        if let Some(Value::Object(mapping)) = d.get("mapping") {
            let mut rewritten = Map::new();
            for (tag, target) in mapping {
                let target = match target.as_str().and_then(component_of) {
                    Some(component) => {
                        let reference = target.as_str().unwrap_or_default();
                        if self.resolve(reference).is_none() {
                            return Err(nothing_at(
                                reference,
                                &format!("{at}/mapping/{}", escape(tag)),
                            ));
                        }
                        Value::String(format!("#/types/{}", self.type_name(&component)))
                    }
                    None => target.clone(),
                };
                rewritten.insert(tag.clone(), target);
            }
            out.insert("mapping".into(), Value::Object(rewritten));
        }
        Ok(Value::Object(out))
    }

    /// A local reference that is not a component schema: the schema it points at, inlined
    /// (converted in turn), with the referring schema's other keywords beside it.
    fn inline(
        &mut self,
        reference: &str,
        map: &Map<String, Value>,
        at: &str,
        tool: Option<&str>,
    ) -> Result<Value, Failure> {
        if !reference.starts_with('#') {
            return Err(Failure::source(
                format!("`$ref: {reference}` at `{at}` points into another document"),
                "bundle the document into one file first (for example with `redocly bundle` or `swagger-cli bundle`), then import that",
            ));
        }
        let Some(target) = self.resolve(reference) else {
            return Err(nothing_at(reference, at));
        };
        if self.inlining.iter().any(|r| r == reference) {
            return Err(Failure::source(
                format!(
                    "`$ref: {reference}` at `{at}` refers to itself through schemas that are not under `components.schemas`"
                ),
                "move the schema under `components.schemas`, where a schema may refer to itself",
            ));
        }
        self.inlining.push(reference.to_string());
        let converted = self.convert(&target.clone(), reference.trim_start_matches('#'), tool);
        self.inlining.pop();
        let mut converted = converted?;
        if let Value::Object(out) = &mut converted {
            for (k, v) in map.iter().filter(|(k, _)| *k != "$ref") {
                let v = self.keyword(k, v, at, tool)?;
                out.insert(k.clone(), v);
            }
        }
        self.note(
            tool,
            at,
            "$ref",
            format!("`{reference}` is inlined: the manifest refers only to named types (`components.schemas`)"),
        );
        Ok(converted)
    }

    fn note(&mut self, tool: Option<&str>, at: &str, key: &str, message: String) {
        self.notes
            .push(Note::new(tool, format!("{at}/{}", escape(key)), message));
    }

    /// What a local reference (`#/a/b`) points at.
    pub fn resolve(&self, reference: &str) -> Option<&'a Value> {
        resolve(self.doc, reference)
    }
}

/// What the local reference `#/a/b` points at in `doc`.
pub fn resolve<'v>(doc: &'v Value, reference: &str) -> Option<&'v Value> {
    let pointer = reference.strip_prefix('#')?;
    let decoded = percent_decode(pointer)?;
    doc.pointer(&decoded)
}

/// The component of `#/components/schemas/Name`, decoded.
fn component_of(reference: &str) -> Option<String> {
    let rest = reference.strip_prefix("#/components/schemas/")?;
    if rest.contains('/') {
        return None;
    }
    let name = percent_decode(rest)?;
    Some(name.replace("~1", "/").replace("~0", "~"))
}

/// A URI fragment's `%XX` escapes decoded.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A JSON pointer's token for `key`.
pub fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The failure of a reference to nothing.
pub fn nothing_at(reference: &str, at: &str) -> Failure {
    Failure::source(
        format!("`$ref: {reference}` at `{at}` points at nothing in the document"),
        "fix the reference, or define what it names (under `components`)",
    )
}

/// A PascalCase type name for a component name: its runs of ASCII letters and digits, each
/// begun with a capital, `T` before a leading digit, at most 64 characters.
pub fn pascal(name: &str) -> String {
    let mut out = String::new();
    for word in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if out.is_empty() {
        out.push_str("Type");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out.truncate(64);
    out
}

/// The named types of `schemas`: every component referred to, converted, in the order of
/// `components.schemas` (converting one may refer to more).
pub fn named_types(schemas: &mut Schemas) -> Result<Vec<(String, Value)>, Failure> {
    let mut converted: BTreeMap<String, (String, Value)> = BTreeMap::new();
    let mut done = 0;
    while done < schemas.named.len() {
        let (component, name) = schemas.named[done].clone();
        done += 1;
        let at = format!("/components/schemas/{}", escape(&component));
        let Some(source) = schemas.resolve(&format!("#{at}")) else {
            return Err(nothing_at(&format!("#{at}"), &at));
        };
        let value = schemas.convert(source, &at, None)?;
        converted.insert(component, (name, value));
    }
    let order: Vec<String> = schemas
        .doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    for component in order {
        if let Some(t) = converted.remove(&component) {
            out.push(t);
        }
    }
    Ok(out)
}
