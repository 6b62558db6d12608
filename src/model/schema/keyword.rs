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

macro_rules! keywords {
    ($($variant:ident => $name:literal, $shape:ident, $support:ident, $annotation:literal, $doc:literal;)*) => {
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

            /// One line on what the keyword does.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Keyword::$variant => $doc,)*
                }
            }
        }
    };
}

keywords! {
    Ref => "$ref", Scalar, Supported, false, "Refers to a named type: `#/types/Name`.";
    Type => "type", Scalar, Supported, false, "The JSON type, or a list of types.";
    Nullable => "nullable", Scalar, Supported, false, "OpenAPI's `nullable: true`: `null` is accepted too.";
    Enum => "enum", Data, Supported, false, "The value is one of these.";
    Const => "const", Data, Supported, false, "The value is exactly this.";
    Title => "title", Scalar, Supported, true, "A short human name.";
    Description => "description", Scalar, Supported, true, "What the value means; shown to the model.";
    Default => "default", Data, Supported, true, "The value used when the property is absent; applied before the handler runs.";
    Examples => "examples", Data, Supported, true, "Example values.";
    Deprecated => "deprecated", Scalar, Supported, true, "The property should no longer be used.";
    ReadOnly => "readOnly", Scalar, Supported, true, "Set by the server only.";
    WriteOnly => "writeOnly", Scalar, Supported, true, "Sent, never returned.";
    Comment => "$comment", Scalar, Supported, true, "A comment for schema authors.";
    SchemaDialect => "$schema", Scalar, Supported, true, "The JSON Schema dialect the schema is written in.";
    Id => "$id", Scalar, Supported, true, "The schema's identifier.";
    Format => "format", Scalar, Supported, false, "A string or integer format (`date`, `uuid`, `int32`…).";
    ContentEncoding => "contentEncoding", Scalar, Supported, true, "How a string's content is encoded (`base64`…).";
    ContentMediaType => "contentMediaType", Scalar, Supported, true, "The media type of a string's content.";
    Minimum => "minimum", Scalar, Supported, false, "The least number allowed.";
    Maximum => "maximum", Scalar, Supported, false, "The greatest number allowed.";
    ExclusiveMinimum => "exclusiveMinimum", Scalar, Supported, false, "Numbers must be greater than this.";
    ExclusiveMaximum => "exclusiveMaximum", Scalar, Supported, false, "Numbers must be less than this.";
    MultipleOf => "multipleOf", Scalar, Supported, false, "Numbers must be a multiple of this.";
    MinLength => "minLength", Scalar, Supported, false, "The fewest characters a string may have.";
    MaxLength => "maxLength", Scalar, Supported, false, "The most characters a string may have.";
    Pattern => "pattern", Scalar, Supported, false, "A regular expression strings must match.";
    Items => "items", Schema, Supported, false, "The schema of every array item.";
    MinItems => "minItems", Scalar, Supported, false, "The fewest items an array may have.";
    MaxItems => "maxItems", Scalar, Supported, false, "The most items an array may have.";
    UniqueItems => "uniqueItems", Scalar, Supported, false, "No two items may be equal.";
    Properties => "properties", SchemaMap, Supported, false, "The named properties of an object.";
    Required => "required", Scalar, Supported, false, "The properties that must be present.";
    AdditionalProperties => "additionalProperties", Schema, Supported, false, "What properties beyond the named ones may hold (`false`: none).";
    AnyOf => "anyOf", SchemaList, Supported, false, "The value matches at least one of these.";
    OneOf => "oneOf", SchemaList, Supported, false, "The value matches exactly one of these.";
    AllOf => "allOf", SchemaList, Supported, false, "The value matches all of these.";
    Not => "not", Schema, Supported, false, "The value does not match this.";
    RustType => "x-rust-type", Scalar, Supported, false, "toolc's own: `json` keeps the value as free-form JSON in Rust.";
    Defs => "$defs", SchemaMap, Unsupported, false, "Local definitions.";
    Definitions => "definitions", SchemaMap, Unsupported, false, "Local definitions, the draft-07 spelling.";
    PrefixItems => "prefixItems", SchemaList, Unsupported, false, "The schemas of the first items of a tuple.";
    PropertyNames => "propertyNames", Schema, Unsupported, false, "The schema every property name matches.";
    PatternProperties => "patternProperties", SchemaMap, Unsupported, false, "Schemas for properties whose names match a pattern.";
    MinProperties => "minProperties", Scalar, Unsupported, false, "The fewest properties an object may have.";
    MaxProperties => "maxProperties", Scalar, Unsupported, false, "The most properties an object may have.";
    DependentRequired => "dependentRequired", Scalar, Unsupported, false, "Properties required when another is present.";
    DependentSchemas => "dependentSchemas", SchemaMap, Unsupported, false, "Schemas applied when a property is present.";
    If => "if", Schema, Unsupported, false, "A condition.";
    Then => "then", Schema, Unsupported, false, "Applied when `if` matches.";
    Else => "else", Schema, Unsupported, false, "Applied when `if` does not match.";
    Contains => "contains", Schema, Unsupported, false, "Some item matches this.";
    MinContains => "minContains", Scalar, Unsupported, false, "The fewest items matching `contains`.";
    MaxContains => "maxContains", Scalar, Unsupported, false, "The most items matching `contains`.";
    UnevaluatedProperties => "unevaluatedProperties", Schema, Unsupported, false, "Properties no other keyword evaluated.";
    UnevaluatedItems => "unevaluatedItems", Schema, Unsupported, false, "Items no other keyword evaluated.";
    AdditionalItems => "additionalItems", Schema, Unsupported, false, "Items after a tuple, in draft-07.";
    Dependencies => "dependencies", SchemaMap, Unsupported, false, "Draft-07's dependencies.";
    Anchor => "$anchor", Scalar, Unsupported, false, "A named location in the schema.";
    DynamicRef => "$dynamicRef", Scalar, Unsupported, false, "A dynamic reference.";
    DynamicAnchor => "$dynamicAnchor", Scalar, Unsupported, false, "A dynamic anchor.";
    Vocabulary => "$vocabulary", Scalar, Unsupported, false, "The vocabularies of a meta-schema.";
    ContentSchema => "contentSchema", Schema, Unsupported, false, "The schema of a string's decoded content.";
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

    #[test]
    fn extensions_are_not_keywords() {
        assert!(is_extension("x-internal"));
        assert!(!is_extension("x-rust-type"));
        assert!(!is_extension("description"));
    }
}
