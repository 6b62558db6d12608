//! The schema tree: the types generated code writes as `static`s (and [`compile`](crate::compile)
//! builds from JSON), with nothing of how a value is checked against them. Validation
//! (`validate.rs`), masking (`redact.rs`), equality (`equal.rs`) and the reading of arguments
//! (`normalize.rs`) add their methods to these types where they are implemented.

use std::fmt;

use crate::format::Format;
use crate::pattern::Pattern;

/// A set of JSON types: the `type` keyword. `INTEGER` is the integers (`1.0` included),
/// `NUMBER` every number.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Types(u8);

impl Types {
    /// No type at all: no value is valid (the `false` schema).
    pub const NONE: Types = Types(0);
    /// `null`.
    pub const NULL: Types = Types(1);
    /// `true` and `false`.
    pub const BOOLEAN: Types = Types(1 << 1);
    /// Numbers without a fractional part.
    pub const INTEGER: Types = Types(1 << 2);
    /// All numbers.
    pub const NUMBER: Types = Types(1 << 3);
    /// Strings.
    pub const STRING: Types = Types(1 << 4);
    /// Arrays.
    pub const ARRAY: Types = Types(1 << 5);
    /// Objects.
    pub const OBJECT: Types = Types(1 << 6);
    /// Every type: no `type` keyword.
    pub const ANY: Types = Types(0x7f);

    /// Both sets.
    pub const fn union(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    /// Whether every type of `other` is in `self`.
    pub const fn contains(self, other: Types) -> bool {
        self.0 & other.0 == other.0
    }

    /// The raw bits.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set with these bits (unknown bits dropped).
    pub const fn from_bits(bits: u8) -> Types {
        Types(bits & 0x7f)
    }

    pub(crate) fn names(self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (t, n) in [
            (Types::NULL, "null"),
            (Types::BOOLEAN, "boolean"),
            (Types::INTEGER, "integer"),
            (Types::NUMBER, "number"),
            (Types::STRING, "string"),
            (Types::ARRAY, "array"),
            (Types::OBJECT, "object"),
        ] {
            if self.contains(t) {
                out.push(n);
            }
        }
        out
    }
}

impl std::ops::BitOr for Types {
    type Output = Types;
    fn bitor(self, rhs: Types) -> Types {
        self.union(rhs)
    }
}

impl fmt::Debug for Types {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Types::ANY {
            return f.write_str("Types::ANY");
        }
        write!(f, "Types({})", self.names().join(" | "))
    }
}

/// A JSON value known at compile time (`enum` and `const`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer above `i64::MAX`.
    UInt(u64),
    /// A number with a fractional part or exponent.
    Float(f64),
    /// A string.
    Str(&'static str),
    /// An array or object, as JSON text.
    Raw(&'static str),
}

impl Json {
    /// This constant as a JSON value (`null` if raw text does not parse).
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match *self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(b),
            Json::Int(i) => Value::from(i),
            Json::UInt(u) => Value::from(u),
            Json::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
            Json::Str(s) => Value::String(s.to_owned()),
            Json::Raw(text) => serde_json::from_str(text).unwrap_or(Value::Null),
        }
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Int(i) => write!(f, "{i}"),
            Json::UInt(u) => write!(f, "{u}"),
            Json::Float(x) => write!(f, "{x}"),
            Json::Str(s) => write!(f, "{}", serde_json::Value::String(s.to_owned())),
            Json::Raw(text) => f.write_str(text),
        }
    }
}

/// A number of a schema bound, kept exactly as written: an integer bound such as
/// `9223372036854775807` is not rounded to the nearest `f64`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A signed integer.
    Int(i64),
    /// An unsigned integer above `i64::MAX`.
    UInt(u64),
    /// A number with a fractional part or exponent.
    Float(f64),
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Num::Int(i) => write!(f, "{i}"),
            Num::UInt(u) => write!(f, "{u}"),
            Num::Float(x) => write!(f, "{x}"),
        }
    }
}

/// What `additionalProperties` allows: properties matched neither by `properties` nor by
/// `pattern_properties`.
#[derive(Debug, Clone, Copy)]
pub enum Additional {
    /// Anything (the default).
    Allowed,
    /// Nothing (`additionalProperties: false`).
    Forbidden,
    /// Values valid against this schema.
    Schema(&'static Schema),
}

/// One JSON Schema (2020-12) as a static tree. Write it as
/// `Schema { types: Types::OBJECT, properties: &[...], ..Schema::ANY }`.
///
/// Every keyword applies only to instances of its own type, as in JSON Schema: `minimum`
/// ignores strings, `properties` ignores arrays, and so on.
#[derive(Debug, Clone, Copy)]
pub struct Schema {
    /// `type` ([`Types::ANY`] when absent).
    pub types: Types,
    /// `enum`: the instance equals one of these (when non-empty).
    pub enum_values: &'static [Json],
    /// `const`.
    pub const_value: Option<Json>,
    /// `minimum`.
    pub minimum: Option<Num>,
    /// `maximum`.
    pub maximum: Option<Num>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<Num>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<Num>,
    /// `multipleOf` (exact in the decimal reading: `0.3` is a multiple of `0.1`).
    pub multiple_of: Option<f64>,
    /// `minLength`, in Unicode code points.
    pub min_length: Option<u64>,
    /// `maxLength`, in Unicode code points.
    pub max_length: Option<u64>,
    /// `pattern` (ECMA-262 syntax, unanchored).
    pub pattern: Option<&'static Pattern>,
    /// `format`; the listed formats are asserted, [`Format::Other`] is an annotation.
    pub format: Option<Format>,
    /// `prefixItems`.
    pub prefix_items: &'static [&'static Schema],
    /// `items`: every item after the `prefix_items`.
    pub items: Option<&'static Schema>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `contains`.
    pub contains: Option<&'static Schema>,
    /// `minContains` (1 when absent and `contains` is set).
    pub min_contains: Option<u64>,
    /// `maxContains`.
    pub max_contains: Option<u64>,
    /// `properties`.
    pub properties: &'static [(&'static str, &'static Schema)],
    /// `patternProperties`.
    pub pattern_properties: &'static [(&'static Pattern, &'static Schema)],
    /// `required`.
    pub required: &'static [&'static str],
    /// `additionalProperties`.
    pub additional_properties: Additional,
    /// `propertyNames`.
    pub property_names: Option<&'static Schema>,
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
    /// `dependentRequired`.
    pub dependent_required: &'static [(&'static str, &'static [&'static str])],
    /// `dependentSchemas`: for each property name, a schema the whole object must match when
    /// it has that property.
    pub dependent_schemas: &'static [(&'static str, &'static Schema)],
    /// `anyOf`.
    pub any_of: &'static [&'static Schema],
    /// `oneOf`.
    pub one_of: &'static [&'static Schema],
    /// `allOf`.
    pub all_of: &'static [&'static Schema],
    /// `not`.
    pub not: Option<&'static Schema>,
    /// `if`.
    pub if_: Option<&'static Schema>,
    /// `then`.
    pub then: Option<&'static Schema>,
    /// `else`.
    pub else_: Option<&'static Schema>,
    /// `$ref`: checked in addition to the sibling keywords; may point back up the tree.
    pub reference: Option<&'static Schema>,
    /// A `$ref` [`compile`](crate::compile)d from JSON that points back up the tree it stands in, whose target
    /// did not exist yet when the reference was made. Generated tables never need it: their
    /// statics name each other, so a recursive reference is a plain [`reference`](Self::reference).
    pub recursive_reference: Option<&'static LateRef>,
    /// toolc's `sensitive: true`: the value here (and everything in it) is a secret. It never
    /// changes which values are valid; violation messages inside it do not quote the value,
    /// and [`Schema::redact`] masks it, as `result_preview` and the access log do.
    pub sensitive: bool,
}

impl Schema {
    /// The empty schema (`true`): every value is valid.
    pub const ANY: Schema = Schema {
        types: Types::ANY,
        enum_values: &[],
        const_value: None,
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
        min_length: None,
        max_length: None,
        pattern: None,
        format: None,
        prefix_items: &[],
        items: None,
        min_items: None,
        max_items: None,
        unique_items: false,
        contains: None,
        min_contains: None,
        max_contains: None,
        properties: &[],
        pattern_properties: &[],
        required: &[],
        additional_properties: Additional::Allowed,
        property_names: None,
        min_properties: None,
        max_properties: None,
        dependent_required: &[],
        dependent_schemas: &[],
        any_of: &[],
        one_of: &[],
        all_of: &[],
        not: None,
        if_: None,
        then: None,
        else_: None,
        reference: None,
        recursive_reference: None,
        sensitive: false,
    };

    /// The `false` schema: no value is valid.
    pub const NOTHING: Schema = Schema {
        types: Types::NONE,
        ..Schema::ANY
    };

    /// The schema its `$ref` points at, whether it was known when this schema was built
    /// ([`reference`](Self::reference)) or filled in later
    /// ([`recursive_reference`](Self::recursive_reference)).
    pub fn target(&self) -> Option<&'static Schema> {
        self.reference
            .or_else(|| self.recursive_reference.and_then(LateRef::get))
    }
}

/// A reference to a schema that is filled in once, after the tree holding the reference is
/// built: how [`compile`](crate::compile) closes a `$ref` cycle (a tree whose children are trees) without
/// `unsafe`. It reads as no reference until it is set.
pub struct LateRef(std::sync::OnceLock<&'static Schema>);

impl LateRef {
    /// A reference not set yet.
    pub const fn new() -> LateRef {
        LateRef(std::sync::OnceLock::new())
    }

    /// The schema it refers to, once set.
    pub fn get(&self) -> Option<&'static Schema> {
        self.0.get().copied()
    }

    /// Points it at `schema`; a reference already set keeps its target.
    pub fn set(&self, schema: &'static Schema) {
        let _ = self.0.set(schema);
    }
}

impl Default for LateRef {
    fn default() -> LateRef {
        LateRef::new()
    }
}

impl fmt::Debug for LateRef {
    // The target is not printed: it holds this reference, and would print for ever.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.get().is_some() {
            "LateRef(set)"
        } else {
            "LateRef(unset)"
        })
    }
}

/// What stands for a masked value: in [`Schema::redact`]'s output, in generated `Debug`
/// output and in messages.
pub const REDACTED: &str = "<redacted>";

/// How deep the validator follows the instance and `$ref`s before it reports a violation
/// instead of recursing further (keeps deep instances and reference cycles off the stack).
pub const MAX_VALIDATION_DEPTH: usize = 512;
