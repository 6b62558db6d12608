//! The lint rules' ids: one closed enum, so a misspelt id is a compile error, and the text users
//! write for each (`allow`, `deny`, SARIF, the docs).

/// A lint rule's id: one variant per row of the rule table (`rules::RULES`), in its order, so a
/// misspelt id is a compile error. Its kebab-case text ([`RuleId::as_str`])
/// is what users write in `allow`/`deny` and what SARIF and the docs show;
/// it never changes once released.
macro_rules! rule_ids {
    ($($variant:ident = $id:literal,)*) => {
        /// A lint rule, by id (docs/lint-rules.md).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum RuleId {
            $(#[doc = concat!("`", $id, "`")] $variant,)*
        }

        impl RuleId {
            /// Every id, in table order.
            pub const ALL: &[RuleId] = &[$(RuleId::$variant,)*];

            /// The id as users write it (`optional-without-nullable`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $id,)*
                }
            }
        }
    };
}

rule_ids! {
    ToolNamePattern = "tool-name-pattern",
    ToolNameLength = "tool-name-length",
    ToolNameSep986 = "tool-name-sep986",
    ToolNamePortable = "tool-name-portable",
    ToolNameDuplicate = "tool-name-duplicate",
    ToolDescriptionLength = "tool-description-length",
    ToolCount = "tool-count",
    StrictToolCount = "strict-tool-count",
    MissingDescription = "missing-description",
    IndistinguishableTools = "indistinguishable-tools",
    ResponsesImplicitStrict = "responses-implicit-strict",
    RootNotObject = "root-not-object",
    RootComposition = "root-composition",
    RootAnyof = "root-anyof",
    EmptyParamsObject = "empty-params-object",
    McpInputSchemaNull = "mcp-input-schema-null",
    McpOutputSchemaRoot = "mcp-output-schema-root",
    McpOutputSchemaOmitted = "mcp-output-schema-omitted",
    OptionalWithoutNullable = "optional-without-nullable",
    AdditionalPropertiesNotFalse = "additional-properties-not-false",
    StrictUnsupportedKeyword = "strict-unsupported-keyword",
    StrictStringLength = "strict-string-length",
    StrictFormat = "strict-format",
    StrictPatternLookaround = "strict-pattern-lookaround",
    StrictDefault = "strict-default",
    RefWithSiblings = "ref-with-siblings",
    RefNotToplevel = "ref-not-toplevel",
    StrictFineTunedConstraints = "strict-fine-tuned-constraints",
    StrictUntypedArrayItems = "strict-untyped-array-items",
    ArrayMissingItems = "array-missing-items",
    ExclusiveBoundBoolean = "exclusive-bound-boolean",
    ExclusiveNumericBound = "exclusive-numeric-bound",
    RequiredUndeclared = "required-undeclared",
    RequiredOnNonObject = "required-on-non-object",
    InvalidJsonSchema = "invalid-json-schema",
    GeminiUnknownField = "gemini-unknown-field",
    GeminiAdditionalProperties = "gemini-additional-properties",
    GeminiConst = "gemini-const",
    GeminiRefDefs = "gemini-ref-defs",
    RefDangling = "ref-dangling",
    RecursiveLazy = "recursive-lazy",
    RecursiveRequiredCycle = "recursive-required-cycle",
    Tuple = "tuple",
    GeminiTypeArray = "gemini-type-array",
    GeminiTypeMissing = "gemini-type-missing",
    GeminiEnumNonString = "gemini-enum-non-string",
    GeminiItemsOnNonArray = "gemini-items-on-non-array",
    GeminiStringFormat = "gemini-string-format",
    GeminiNestingDepth = "gemini-nesting-depth",
    GeminiComplexity = "gemini-complexity",
    GeminiTitleInJsonschema = "gemini-title-in-jsonschema",
    GeminiParamsMutuallyExclusive = "gemini-params-mutually-exclusive",
    GeminiLiveNoJsonschema = "gemini-live-no-jsonschema",
    AnthropicStrictNumericBounds = "anthropic-strict-numeric-bounds",
    AnthropicStrictStringLength = "anthropic-strict-string-length",
    AnthropicStrictMinItems = "anthropic-strict-min-items",
    AnthropicStrictFormat = "anthropic-strict-format",
    AnthropicStrictPattern = "anthropic-strict-pattern",
    AnthropicStrictEnumComplex = "anthropic-strict-enum-complex",
    AnthropicStrictOptionalBudget = "anthropic-strict-optional-budget",
    AnthropicStrictUnionBudget = "anthropic-strict-union-budget",
    AnthropicStrictGrammarSize = "anthropic-strict-grammar-size",
    NestingDepth = "nesting-depth",
    PropertyCount = "property-count",
    EnumValueCount = "enum-value-count",
    EnumStringSize = "enum-string-size",
    SchemaStringSize = "schema-string-size",
    McpStructuredContentRequired = "mcp-structured-content-required",
    McpStructuredContentConformance = "mcp-structured-content-conformance",
    McpStructuredContentObject = "mcp-structured-content-object",
    McpAnnotationContradiction = "mcp-annotation-contradiction",
    McpAnnotationTitleShadow = "mcp-annotation-title-shadow",
    McpXMcpHeader = "mcp-x-mcp-header",
}

impl RuleId {
    /// The id named `text`, as a user writes it; `None` for no rule.
    pub fn parse(text: &str) -> Option<RuleId> {
        RuleId::ALL.iter().copied().find(|id| id.as_str() == text)
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
