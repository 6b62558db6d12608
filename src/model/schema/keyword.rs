//! The schema vocabulary: every keyword toolc knows, what its value holds, and
//! whether toolc supports it. This table is the one keyword list of the
//! compiler: the reader, the lint walker over provider forms and the docs all
//! consult it.

use std::fmt;

/// What a keyword's value holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One subschema (`items`, `not`, `additionalProperties`…).
    Schema,
    /// Names mapped to subschemas (`properties`, `$defs`…).
    SchemaMap,
    /// A list of subschemas (`anyOf`, `prefixItems`…).
    SchemaList,
    /// Data that is not a schema (`enum`, `const`, `default`, `examples`):
    /// a `$ref` inside it is not a reference.
    Data,
    /// A scalar or a list of scalars (`minimum`, `type`, `required`…).
    Scalar,
}

/// Whether toolc accepts a keyword in a manifest schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Part of toolc's schema language: typed, validated, lowered.
    Supported,
    /// A JSON Schema keyword toolc does not support: a located error.
    Unsupported,
}

/// What a keyword's value is, in more detail than [`Shape`]: for the editor
/// schema of the manifest format (`toolc schema`) and for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// A schema.
    Schema,
    /// A mapping of names to schemas.
    SchemaMap,
    /// A non-empty list of schemas.
    SchemaList,
    /// A schema, or (the draft-07 tuple) a list of them.
    SchemaOrList,
    /// A JSON type name, or a list of them.
    Types,
    String,
    /// A regular expression.
    Regex,
    Bool,
    Number,
    /// A whole number, 0 or more.
    Count,
    /// Any JSON value.
    Any,
    /// A list of JSON values.
    List,
    /// A list of distinct strings.
    Strings,
    /// A `format` name.
    Format,
    /// `#/types/Name`.
    Ref,
    /// `json`: the values `x-rust-type` takes.
    RustType,
    /// Property names mapped to lists of distinct property names (`dependentRequired`).
    Dependencies,
    /// OpenAPI's discriminator object: `propertyName`, and `mapping` of values to `$ref`s.
    Discriminator,
}

macro_rules! keywords {
    ($($variant:ident => $name:literal, $shape:ident, $takes:ident, $support:ident, $annotation:literal, $doc:literal;)*) => {
        /// A schema keyword of JSON Schema 2020-12 (plus OpenAPI's `nullable`,
        /// draft-07 spellings toolc recognises, and toolc's own keywords).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Keyword {
            $(#[doc = $doc] $variant,)*
        }

        impl Keyword {
            /// Every keyword, in documentation order.
            pub const ALL: &'static [Keyword] = &[$(Keyword::$variant,)*];

            /// The keyword as written in a schema.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Keyword::$variant => $name,)*
                }
            }

            /// What its value holds.
            pub fn shape(self) -> Shape {
                match self {
                    $(Keyword::$variant => Shape::$shape,)*
                }
            }

            /// What its value is.
            pub fn takes(self) -> Takes {
                match self {
                    $(Keyword::$variant => Takes::$takes,)*
                }
            }

            /// Whether toolc supports it.
            pub fn support(self) -> Support {
                match self {
                    $(Keyword::$variant => Support::$support,)*
                }
            }

            /// A pure annotation: it never changes which values a schema accepts.
            pub fn is_annotation(self) -> bool {
                match self {
                    $(Keyword::$variant => $annotation,)*
                }
            }

            /// What the keyword does, in a sentence or two.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Keyword::$variant => $doc,)*
                }
            }
        }
    };
}

keywords! {
    Ref => "$ref", Scalar, Ref, Supported, false, "A named type of the toolset: `#/types/Name`.";
    Type => "type", Scalar, Types, Supported, false, "The JSON type of the value: one of string, number, integer, boolean, object, array, null, or a list of them (one type plus \"null\" for an optional value).";
    Nullable => "nullable", Scalar, Bool, Supported, false, "true: null is allowed as well (the OpenAPI 3.0 spelling of `type: [T, \"null\"]`); MCP lists it as written, the other JSON Schema providers as that `type`.";
    Discriminator => "discriminator", Data, Discriminator, Supported, true, "OpenAPI's `{propertyName, mapping}` beside a `oneOf` or `anyOf`: which property tells the branches apart. It validates nothing; MCP lists it as written, other providers' forms leave it out, and when every branch fixes that property to one value, it is the tag of the generated Rust enum.";
    Enum => "enum", Data, List, Supported, false, "The allowed values. Strings become a Rust enum.";
    Const => "const", Data, Any, Supported, false, "The one allowed value.";
    Title => "title", Scalar, String, Supported, true, "A short human name for the value.";
    Description => "description", Scalar, String, Supported, true, "What the value means: shown to the model and written as documentation of the generated type.";
    Default => "default", Data, Any, Supported, true, "The value used when the property is absent; it must itself be valid.";
    Examples => "examples", Data, List, Supported, true, "Example values, each valid against this schema.";
    Deprecated => "deprecated", Scalar, Bool, Supported, true, "true: the value should no longer be used.";
    ReadOnly => "readOnly", Scalar, Bool, Supported, true, "true: the value is managed by the owner and is not meant to be sent.";
    WriteOnly => "writeOnly", Scalar, Bool, Supported, true, "true: the value is sent but never returned (a password, say).";
    Comment => "$comment", Scalar, String, Supported, true, "A note for people reading the manifest; not shown to the model.";
    SchemaDialect => "$schema", Scalar, String, Supported, true, "The JSON Schema dialect; manifests are read as 2020-12.";
    Id => "$id", Scalar, String, Supported, true, "An identifier for the schema.";
    Format => "format", Scalar, Format, Supported, false, "A string format. date, date-time, time, uuid, email, uri, ipv4, ipv6 and hostname are validated at the call boundary; others are annotations.";
    ContentEncoding => "contentEncoding", Scalar, String, Supported, true, "How a string's content is encoded (`base64`…).";
    ContentMediaType => "contentMediaType", Scalar, String, Supported, true, "The media type of a string's content.";
    Minimum => "minimum", Scalar, Number, Supported, false, "The least allowed number.";
    Maximum => "maximum", Scalar, Number, Supported, false, "The greatest allowed number.";
    ExclusiveMinimum => "exclusiveMinimum", Scalar, Number, Supported, false, "Numbers must be greater than this.";
    ExclusiveMaximum => "exclusiveMaximum", Scalar, Number, Supported, false, "Numbers must be less than this.";
    MultipleOf => "multipleOf", Scalar, Number, Supported, false, "Numbers must be a multiple of this (greater than 0).";
    MinLength => "minLength", Scalar, Count, Supported, false, "The least number of characters of a string.";
    MaxLength => "maxLength", Scalar, Count, Supported, false, "The greatest number of characters of a string.";
    Pattern => "pattern", Scalar, Regex, Supported, false, "A regular expression strings must match somewhere (anchor it with ^ and $ to match whole strings). Look-around and back-references are refused.";
    Items => "items", Schema, SchemaOrList, Supported, false, "The schema of every item of an array.";
    MinItems => "minItems", Scalar, Count, Supported, false, "The least number of items of an array.";
    MaxItems => "maxItems", Scalar, Count, Supported, false, "The greatest number of items of an array.";
    UniqueItems => "uniqueItems", Scalar, Bool, Supported, false, "true: the items of an array are all different.";
    Properties => "properties", SchemaMap, SchemaMap, Supported, false, "The properties of an object, each with its schema, in the order of the generated struct's fields.";
    Required => "required", Scalar, Strings, Supported, false, "The properties an object must have; the others are optional.";
    AdditionalProperties => "additionalProperties", Schema, Schema, Supported, false, "Properties not listed in `properties`: false refuses them, a schema makes the object a map of that schema.";
    DependentRequired => "dependentRequired", Scalar, Dependencies, Supported, false, "For each property name, the properties an object must also have when it has that one.";
    DependentSchemas => "dependentSchemas", SchemaMap, SchemaMap, Supported, false, "For each property name, a schema the whole object must also match when it has that property.";
    AnyOf => "anyOf", SchemaList, SchemaList, Supported, false, "The value matches at least one of these schemas.";
    OneOf => "oneOf", SchemaList, SchemaList, Supported, false, "The value matches exactly one of these schemas; with a `const` property telling the branches apart, it becomes a tagged Rust enum.";
    AllOf => "allOf", SchemaList, SchemaList, Supported, false, "The value matches every one of these schemas.";
    Not => "not", Schema, Schema, Supported, false, "The value does not match this schema.";
    RustType => "x-rust-type", Scalar, RustType, Supported, false, "json: keep the value free-form (`serde_json::Value`) in generated Rust instead of a typed field.";
    Sensitive => "sensitive", Scalar, Bool, Supported, true, "true: the value is a secret (toolc's own keyword, never shown to the model): generated `Debug`, tracing events, `result_preview` and error messages mask it; in `parameters` it draws the warning `sensitive-parameter`.";
    Defs => "$defs", SchemaMap, SchemaMap, Supported, false, "Definitions of the schema's own, at its root, referred to as `#/$defs/Name`; each distinct one becomes a named type of the toolset.";
    Definitions => "definitions", SchemaMap, SchemaMap, Supported, false, "The draft-07 spelling of `$defs`, referred to as `#/definitions/Name`.";
    PrefixItems => "prefixItems", SchemaList, SchemaList, Supported, false, "The schemas of the first items of an array, in order (a tuple); `items` is the schema of the items after them (`false`: none, absent: any).";
    PropertyNames => "propertyNames", Schema, Schema, Supported, false, "The schema every property name of an object must match; an `enum` of names makes the object a map keyed by that enum.";
    PatternProperties => "patternProperties", SchemaMap, SchemaMap, Unsupported, false, "Schemas for properties whose names match a pattern.";
    MinProperties => "minProperties", Scalar, Count, Unsupported, false, "The least number of properties of an object.";
    MaxProperties => "maxProperties", Scalar, Count, Unsupported, false, "The greatest number of properties of an object.";
    If => "if", Schema, Schema, Unsupported, false, "A condition.";
    Then => "then", Schema, Schema, Unsupported, false, "Applied when `if` matches.";
    Else => "else", Schema, Schema, Unsupported, false, "Applied when `if` does not match.";
    Contains => "contains", Schema, Schema, Unsupported, false, "Some item matches this.";
    MinContains => "minContains", Scalar, Count, Unsupported, false, "The fewest items matching `contains`.";
    MaxContains => "maxContains", Scalar, Count, Unsupported, false, "The most items matching `contains`.";
    UnevaluatedProperties => "unevaluatedProperties", Schema, Schema, Unsupported, false, "Properties no other keyword evaluated.";
    UnevaluatedItems => "unevaluatedItems", Schema, Schema, Unsupported, false, "Items no other keyword evaluated.";
    AdditionalItems => "additionalItems", Schema, Schema, Supported, false, "With the draft-07 tuple `items: [...]`: the schema of the items after it (`false`: none).";
    Dependencies => "dependencies", SchemaMap, Any, Unsupported, false, "Draft-07's dependencies.";
    Anchor => "$anchor", Scalar, String, Unsupported, false, "A named location in the schema.";
    DynamicRef => "$dynamicRef", Scalar, String, Unsupported, false, "A dynamic reference.";
    DynamicAnchor => "$dynamicAnchor", Scalar, String, Unsupported, false, "A dynamic anchor.";
    Vocabulary => "$vocabulary", Scalar, Any, Unsupported, false, "The vocabularies of a meta-schema.";
    ContentSchema => "contentSchema", Schema, Schema, Unsupported, false, "The schema of a string's decoded content.";
}

impl Keyword {
    /// The keyword spelled `name`, if toolc knows it.
    pub fn parse(name: &str) -> Option<Keyword> {
        Keyword::ALL.iter().copied().find(|k| k.as_str() == name)
    }

    /// Whether toolc supports it.
    pub fn is_supported(self) -> bool {
        self.support() == Support::Supported
    }

    /// The keywords a manifest may use, for "did you mean" hints.
    pub fn supported_names() -> impl Iterator<Item = &'static str> {
        Keyword::ALL
            .iter()
            .filter(|k| k.is_supported())
            .map(|k| k.as_str())
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Keys starting with this are extensions: kept in the model, left out of
/// model-facing lists unless the config says otherwise.
pub const EXTENSION_PREFIX: &str = "x-";

/// Whether `key` is an extension key (`x-…`) rather than a keyword. toolc's
/// own `x-rust-type` is a keyword, not an extension.
pub fn is_extension(key: &str) -> bool {
    key.starts_with(EXTENSION_PREFIX) && Keyword::parse(key).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for k in Keyword::ALL {
            assert!(seen.insert(k.as_str()), "{k} listed twice");
            assert_eq!(Keyword::parse(k.as_str()), Some(*k));
        }
    }

    /// docs/manifest.md lists the vocabulary: every keyword toolc supports in
    /// its table, with this table's text, and every one it refuses by name.
    #[test]
    fn the_manifest_docs_list_the_vocabulary() {
        let docs = include_str!("../../../docs/manifest.md");
        for k in Keyword::ALL {
            let name = format!("`{}`", k.as_str());
            if k.is_supported() {
                let row = format!("| {name} | {} |", k.summary().replace('|', "\\|"));
                assert!(docs.contains(&row), "docs/manifest.md lacks the row {row}");
            } else {
                let list = docs
                    .lines()
                    .find(|l| l.contains("toolc does not support"))
                    .expect("the list of keywords toolc does not support");
                assert!(list.contains(&name), "{name} is not listed as unsupported");
            }
        }
    }

    #[test]
    fn extensions_are_not_keywords() {
        assert!(is_extension("x-internal"));
        assert!(!is_extension("x-rust-type"));
        assert!(!is_extension("description"));
    }
}
