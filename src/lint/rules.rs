//! The rule table: every lint rule, its dialects and severities, what it
//! says, where the provider behaviour was observed, and its check.
//!
//! Re-grade a rule here, in one edit: change its severity for a dialect,
//! or add or drop a dialect. docs/lint-rules.md shows each rule with its
//! sources and a failing example.

use super::checks::{self, Cx};
use super::list::{self, ListCx};
pub use super::rule_id::RuleId;
use super::spot::Spot;
use super::walk::Node;
use crate::diag::Severity::{self, Error as E, Note as N, Warning as W};
use crate::lower::Dialect::{self, *};

/// How a rule is graded.
#[derive(Debug, Clone, Copy)]
pub enum Grades {
    /// Per dialect; a dialect not listed is not checked.
    Each(&'static [(Dialect, Severity)]),
    /// One severity whatever the dialect (dialect-independent rules).
    Any(Severity),
}

/// What a rule's check looks at.
#[derive(Clone, Copy)]
pub enum Check {
    /// Every subschema of an emitted schema.
    Node(fn(&Cx<'_>, &Node<'_>, &mut Vec<Spot>)),
    /// An emitted schema as a whole.
    Schema(fn(&Cx<'_>, &mut Vec<Spot>)),
    /// An emitted tool list.
    List(fn(&ListCx<'_>, &mut Vec<Spot>)),
    /// The manifest's own schema (the typed model), whatever the dialect:
    /// the nodes it is about, each with a message.
    Model(
        fn(&crate::model::Schemas, crate::model::SchemaId) -> Vec<(crate::model::SchemaId, String)>,
    ),
    /// Reported by the emitter itself, while it makes a dialect's form.
    Emitter,
    /// An agent's tools compared with each other through its search index.
    Agent,
}

impl std::fmt::Debug for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Check::Node(_) => "Node",
            Check::Schema(_) => "Schema",
            Check::List(_) => "List",
            Check::Model(_) => "Model",
            Check::Emitter => "Emitter",
            Check::Agent => "Agent",
        })
    }
}

/// One lint rule.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// Its id (kebab-case as text; never changes once released).
    pub id: RuleId,
    pub grades: Grades,
    /// One line on what the provider does not accept.
    pub message: &'static str,
    /// How to fix it, when the finding has no more precise help.
    pub help: &'static str,
    /// Where the provider behaviour was observed.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub source: &'static str,
    /// Off unless turned on (`deny`, or `require_describe` for
    /// `missing-description`).
    pub default_on: bool,
    pub check: Check,
}

impl Rule {
    /// The rule's table severity for a dialect (`None`: not checked there).
    /// For dialect-independent rules any dialect, and `None`, give the one
    /// severity.
    pub fn grade(&self, dialect: Option<Dialect>) -> Option<Severity> {
        match (self.grades, dialect) {
            (Grades::Any(s), _) => Some(s),
            (Grades::Each(g), Some(d)) => g.iter().find(|(x, _)| *x == d).map(|(_, s)| *s),
            (Grades::Each(_), None) => None,
        }
    }

    /// The dialects the rule is checked for.
    #[cfg(feature = "cli")]
    pub fn dialects(&self) -> Vec<Dialect> {
        match self.grades {
            Grades::Any(_) => Dialect::ALL.to_vec(),
            Grades::Each(g) => g.iter().map(|(d, _)| *d).collect(),
        }
    }
}

/// The rule of an id.
pub fn rule(id: RuleId) -> &'static Rule {
    &RULES[id as usize]
}

/// The rule a user names (`allow`, `deny`, a SARIF id); `None` for no rule.
#[cfg(feature = "cli")]
pub fn named(text: &str) -> Option<&'static Rule> {
    RuleId::parse(text).map(rule)
}

/// "unknown rule" with a did-you-mean, for config and CLI errors.
pub fn unknown_message(id: &str) -> (String, String) {
    let msg = format!("there is no lint rule named `{id}`");
    let help = match crate::diag::did_you_mean(id, RULES.iter().map(|r| r.id.as_str())) {
        Some(m) => format!("did you mean `{m}`?"),
        None => "docs/lint-rules.md lists every rule".to_string(),
    };
    (msg, help)
}

impl RuleId {
    /// One line on what the provider does not accept (the rule's message).
    pub fn message(self) -> &'static str {
        rule(self).message
    }
}

impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Ordered by the text, as the ids sort in output.
impl Ord for RuleId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for RuleId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<RuleId> for &str {
    fn eq(&self, other: &RuleId) -> bool {
        *self == other.as_str()
    }
}

const OAI: Dialect = OpenAi;
const OAI_S: Dialect = OpenAiStrict;
const AZ_S: Dialect = AzureOpenAiStrict;
const GEM: Dialect = Gemini;
const VTX: Dialect = GeminiVertex;
const GJS: Dialect = GeminiJsonSchema;
const ANT: Dialect = Anthropic;
const ANT_S: Dialect = AnthropicStrict;
const MCP: Dialect = Mcp;

macro_rules! rule {
    ($id:ident, [$($d:ident: $s:ident),* $(,)?], $check:expr, $msg:literal, $help:literal, $src:literal, off) => {
        Rule {
            id: RuleId::$id,
            grades: Grades::Each(&[$(($d, $s)),*]),
            message: $msg,
            help: $help,
            source: $src,
            default_on: false,
            check: $check,
        }
    };
    ($id:ident, [$($d:ident: $s:ident),* $(,)?], $check:expr, $msg:literal, $help:literal, $src:literal) => {
        Rule {
            id: RuleId::$id,
            grades: Grades::Each(&[$(($d, $s)),*]),
            message: $msg,
            help: $help,
            source: $src,
            default_on: true,
            check: $check,
        }
    };
}

/// Every rule, grouped as docs/lint-rules.md groups them.
pub static RULES: &[Rule] = &TABLE;

// Row `i` is the rule of the `i`th id, so [`rule`] indexes the table.
const _: () = {
    assert!(TABLE.len() == RuleId::ALL.len());
    let mut i = 0;
    while i < TABLE.len() {
        assert!(
            TABLE[i].id as usize == i,
            "RULES and RuleId are in different orders"
        );
        i += 1;
    }
};

const TABLE: [Rule; 73] = [
    // 7.1 Names, envelope, counts
    rule!(ToolNamePattern,
        [OAI: E, OAI_S: E, AZ_S: E, ANT: E, ANT_S: E, GEM: E, GJS: E, VTX: E],
        Check::List(list::tool_name_pattern),
        "The tool name has characters the provider does not accept.",
        "rename the tool to letters, digits, `_` and `-`, starting with a letter",
        "openai-python types/shared/function_definition.py (`a-z, A-Z, 0-9, ... underscores and dashes`); ailoy#109; Anthropic's API (`^[a-zA-Z0-9_-]{1,128}$`, home-assistant/core#147760); python-genai types.py FunctionDeclaration.name (letter or `_` first, then `a-z A-Z 0-9 _ . : -`); gemini-cli#9535; Vertex AI FunctionDeclaration (no `:`)"),
    rule!(ToolNameLength,
        [OAI: E, OAI_S: E, AZ_S: E, GEM: E, GJS: E, VTX: E, ANT: E, ANT_S: E],
        Check::List(list::tool_name_length),
        "The tool name is longer than the provider takes (OpenAI, Azure OpenAI and Vertex AI 64 characters; the Gemini Developer API and Anthropic 128).",
        "shorten the tool name to the dialect's limit",
        "openai-python types/shared/function_definition.py (64); home-assistant/core#121325 (`string_above_max_length`); python-genai types.py FunctionDeclaration.name (128); Vertex AI FunctionDeclaration (64); Anthropic's API (`{1,128}`, home-assistant/core#147760)"),
    rule!(ToolNameSep986,
        [MCP: W],
        Check::List(list::tool_name_sep986),
        "The MCP tool name breaks SEP-986 (1-128 characters of A-Z a-z 0-9 _ - .).",
        "rename the tool to letters, digits, `_`, `-` and `.`",
        "MCP tools.mdx 2025-11-25 (SEP-986)"),
    rule!(ToolNamePortable,
        [OAI: W, OAI_S: W, AZ_S: W, GEM: W, VTX: W, GJS: W, ANT: W, ANT_S: W, MCP: W],
        Check::List(list::tool_name_portable),
        "The tool name is legal for this dialect but refused by another dialect linted.",
        "rename the tool to one every dialect takes: a letter, then letters, digits, `_` and `-`, 64 characters at most",
        "the name rules of the dialects linted (tool-name-pattern, tool-name-length, tool-name-sep986)"),
    rule!(ToolNameDuplicate,
        [OAI: E, OAI_S: E, AZ_S: E, GEM: E, VTX: E, GJS: E, ANT: E, ANT_S: E, MCP: E],
        Check::List(list::tool_name_duplicate),
        "Two tools in one request or server share a name.",
        "rename one of them",
        "claude-code#10687 (`tools: Tool names must be unique.`)"),
    rule!(ToolDescriptionLength,
        [OAI: W, OAI_S: W, AZ_S: E],
        Check::List(list::tool_description_length),
        "The tool description is longer than 1024 characters: Azure OpenAI refuses it; OpenAI refused it until 2025 and accepts it now.",
        "shorten the description; move the details into the capability's manual",
        "OpenHands#4838 (Azure, `string_above_max_length`); sentry-mcp#106 (OpenAI, 2025-04); accepted since 2025-05: llama_index#18784, OpenHands#10184, flashcards-open-source-app#1752; openai-python FunctionDefinition.description has no limit"),
    rule!(ToolCount,
        [OAI: E, OAI_S: E, AZ_S: E, GEM: E, VTX: E, GJS: E],
        Check::List(list::tool_count),
        "More tools in one request than the provider takes (OpenAI 128, the Gemini Developer API 512, Vertex AI 128).",
        "split the agent's capabilities across agents, or send each request only the tools tool search finds for it",
        "zed#32946, zed#42393 (OpenAI, 2025-11); gemini-cli#19083 (Gemini 512); Vertex AI tool.proto (128, google-cloud-go aiplatform CHANGELOG)"),
    rule!(StrictToolCount,
        [ANT_S: E],
        Check::List(list::strict_tool_count),
        "More than 20 strict tools in one Anthropic request.",
        "split the agent, or use the non-strict `anthropic` dialect for some tools",
        "Anthropic strict tool use docs; langchain4j#5128"),
    Rule {
        id: RuleId::MissingDescription,
        grades: Grades::Any(W),
        message: "A property without a description (on with `require_describe`).",
        help: "add `description:`: the model reads it to fill the argument in",
        source: "toolc convention: the model fills an argument in from its description (`[lint] require_describe`)",
        default_on: false,
        check: Check::Model(checks::missing_descriptions),
    },
    Rule {
        id: RuleId::IndistinguishableTools,
        grades: Grades::Any(W),
        message: "Two tools of one agent named with the same words, or with near-identical descriptions (90% alike by the weight of their words in the agent's search index): a model may call one for the other.",
        help: "say in the name and description of each what sets it apart from the other (what it takes, returns or changes), or merge them into one tool",
        source: "Anthropic, \"Writing effective tools for AI agents\" (tools with overlapping purposes confuse agents); toolc-search's words and idf",
        default_on: true,
        check: Check::Agent,
    },
    rule!(ResponsesImplicitStrict,
        [OAI: W],
        Check::List(list::responses_implicit_strict),
        "An OpenAI tool without an explicit `strict`: the Responses API normalises it to strict.",
        "set `strict` explicitly (toolc always does)",
        "neurolink#1691; langchain#39309"),
    // 7.2 Root shape
    rule!(RootNotObject,
        [OAI: E, OAI_S: E, AZ_S: E, ANT: E, ANT_S: E, VTX: E, GJS: E, MCP: E],
        Check::Schema(checks::root_not_object),
        "The parameters schema's root is not `type: \"object\"`.",
        "tool arguments are a JSON object: write `type: object` with `properties:`",
        "GPT_API_free#403; opencodex#75; OmniRoute#3360; MCP schema.ts"),
    rule!(RootComposition,
        [OAI: E, OAI_S: E, AZ_S: E, ANT: E, ANT_S: E],
        Check::Schema(checks::root_composition),
        "`anyOf`/`oneOf`/`allOf` (OpenAI: also `enum`, `const`, `not`) at the top of the parameters schema.",
        "make the root a plain object and move the alternatives into a property",
        "langchainjs#9804; claude-code#5973; huly-mcp#66"),
    rule!(RootAnyof,
        [OAI_S: E, AZ_S: E],
        Check::Schema(checks::root_anyof),
        "A structured-output schema whose root is `anyOf`.",
        "wrap the union in an object property",
        "OpenAI Structured Outputs guide (\"Root objects must not be anyOf\")"),
    rule!(EmptyParamsObject,
        [GEM: E],
        Check::Schema(checks::empty_params_object),
        "Gemini `parameters` that are an object without properties.",
        "omit `parameters` for a tool without arguments (toolc does)",
        "agno#2112; brainlid/langchain#183"),
    rule!(McpInputSchemaNull,
        [MCP: E],
        Check::List(list::mcp_input_schema_null),
        "An MCP tool without an `inputSchema` object.",
        "give every tool an input schema (toolc does: `{type: object}` at least)",
        "MCP tools.mdx (inputSchema MUST be a valid JSON Schema object)"),
    rule!(McpOutputSchemaRoot,
        [MCP: E],
        Check::Schema(checks::mcp_output_schema_root),
        "An MCP `outputSchema` whose root is not `type: \"object\"` (2025-06-18, 2025-11-25).",
        "return an object (toolc lists other results without an `outputSchema`)",
        "MCP schema.ts 2025-06-18 / 2025-11-25"),
    rule!(McpOutputSchemaOmitted,
        [MCP: N],
        Check::Emitter,
        "A result listed without an `outputSchema` (not always an object, or not validated): clients get it as text.",
        "to give clients structured content, return an object and keep `validate_returns`",
        "MCP schema.ts (outputSchema is an object schema; structuredContent an object); toolc-runtime's MCP server"),
    // 7.3 OpenAI strict structure
    rule!(OptionalWithoutNullable,
        [OAI_S: E, AZ_S: E],
        Check::Node(checks::optional_without_nullable),
        "An optional property that does not accept `null`: strict mode needs every property in `required`.",
        "list it in `required` and make it nullable (toolc does this for you in the openai-strict form)",
        "OpenAI Structured Outputs guide; mysql-mcp#5"),
    rule!(AdditionalPropertiesNotFalse,
        [OAI_S: E, AZ_S: E, ANT_S: E],
        Check::Node(checks::additional_properties_not_false),
        "An object without `additionalProperties: false` (or an open map).",
        "close the object with `additionalProperties: false` (toolc does for objects with `properties`)",
        "xsai#202; vercel/ai#20681; OpenAI and Anthropic strict docs"),
    rule!(StrictUnsupportedKeyword,
        [OAI_S: E, AZ_S: E],
        Check::Node(checks::strict_unsupported_keyword),
        "A keyword strict mode does not permit (`allOf`, `oneOf`, `not`, `if`, `uniqueItems`, ...).",
        "remove it; say it in the description, and let the generated validation enforce it",
        "OpenAI Structured Outputs guide; oh-my-pi#209, #920; notion-mcp#102"),
    rule!(StrictStringLength,
        [OAI_S: W, AZ_S: E],
        Check::Node(checks::strict_string_length),
        "`minLength`/`maxLength` in strict mode: kept for OpenAI, where fine-tuned models and older API versions refuse them; refused on Azure.",
        "if a target refuses it, say the length in the description instead",
        "node-DeepResearch#79; pydantic-ai openai.py"),
    rule!(StrictFormat,
        [OAI_S: E, AZ_S: E],
        Check::Node(checks::strict_format),
        "A `format` strict mode does not know (it knows date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid).",
        "use a supported format, or drop it and say it in the description",
        "oh-my-pi#206"),
    rule!(StrictPatternLookaround,
        [OAI_S: W],
        Check::Node(checks::strict_pattern_lookaround),
        "A `pattern` with a lookaround, outside strict mode's regex grammar.",
        "rewrite the pattern without `(?=`, `(?!`, `(?<=`, `(?<!`",
        "pydantic-ai openai.py"),
    rule!(StrictDefault,
        [OAI_S: W, AZ_S: E],
        Check::Node(checks::strict_default),
        "A non-null `default` in strict mode.",
        "say the default in the description (toolc does this for you)",
        "instructor#1074; openai-agents-python#4390"),
    rule!(RefWithSiblings,
        [OAI_S: E, AZ_S: E, VTX: E, GJS: E],
        Check::Node(checks::ref_with_siblings),
        "A `$ref` beside other keywords (Vertex allows only `description` and `default`; parametersJsonSchema only `$`-keywords).",
        "wrap the reference: `anyOf: [{$ref: ...}]` beside the other keywords (toolc does)",
        "camel#3001; defog#244; opencode#12295; gcli2api#374; generative_service.proto"),
    rule!(RefNotToplevel,
        [OAI_S: E, AZ_S: E],
        Check::Node(checks::ref_not_toplevel),
        "A `$ref` that does not point at `#`, `#/$defs/X` or `#/definitions/X`.",
        "move the referenced schema under `$defs` (toolc's named types always are)",
        "dotnet/extensions#6918"),
    rule!(StrictFineTunedConstraints,
        [OAI_S: N],
        Check::Schema(checks::strict_fine_tuned_constraints),
        "Constraint keywords (bounds, lengths, `pattern`, `format`) are not supported for fine-tuned models in strict mode (off unless denied: toolc cannot know the model).",
        "if the target is a fine-tuned model, say the constraints in the descriptions",
        "OpenAI Structured Outputs guide",
        off),
    rule!(StrictUntypedArrayItems,
        [OAI_S: E, AZ_S: E],
        Check::Node(checks::strict_untyped_array_items),
        "Array `items` without a type (`{}`, `true`, or annotations only).",
        "give the items a `type`",
        "pydantic-ai openai.py (#4425)"),
    // 7.4 Structural validity
    rule!(ArrayMissingItems,
        [OAI: E, OAI_S: E, AZ_S: E, GEM: E, VTX: E],
        Check::Node(checks::array_missing_items),
        "`type: array` without `items`.",
        "say what the items are: `items: {type: string}`, say",
        "aichat#1049; cline#7926"),
    rule!(ExclusiveBoundBoolean,
        [ANT: E, ANT_S: E, MCP: E, OAI: E, OAI_S: E, AZ_S: E, GJS: E],
        Check::Node(checks::exclusive_bound_boolean),
        "A boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04 / OpenAPI 3.0), invalid in 2020-12.",
        "write the bound as a number: `exclusiveMinimum: 0`",
        "Dokploy/mcp#74; ha-mcp#2361; zod number.ts"),
    rule!(ExclusiveNumericBound,
        [GEM: E, VTX: E],
        Check::Node(checks::exclusive_numeric_bound),
        "`exclusiveMinimum`/`exclusiveMaximum` are not Gemini schema fields.",
        "integers: toolc rewrites `exclusiveMinimum: n` as `minimum: n+1`; numbers: use an inclusive bound and say the strict one in the description",
        "modelcontextprotocol/servers#1624; nakama#292; pizza-bot#62; pydantic-ai#1341"),
    rule!(RequiredUndeclared,
        [GEM: E, VTX: E, OAI: W, OAI_S: W, AZ_S: W, GJS: W, ANT: W, ANT_S: W, MCP: W],
        Check::Node(checks::required_undeclared),
        "`required` names a property that is not in that node's `properties`.",
        "declare the property in the same node, or drop it from `required`",
        "AIStudioToAPI#154; home-generative-agent#525; vercel/ai 166b6d7"),
    rule!(RequiredOnNonObject,
        [GEM: E, VTX: E],
        Check::Node(checks::required_on_non_object),
        "`required` on a node that is not `type: object`.",
        "move `required` to the object node",
        "home-generative-agent#525; mastra#22489"),
    rule!(InvalidJsonSchema,
        [ANT: E, ANT_S: E, MCP: E],
        Check::Schema(checks::invalid_json_schema),
        "The schema fails the JSON Schema 2020-12 meta-schema.",
        "fix the keyword the message names",
        "claude-code#63673"),
    // 7.5 Gemini OpenAPI subset
    rule!(GeminiUnknownField,
        [GEM: E, VTX: E],
        Check::Node(checks::gemini_unknown_field),
        "A key outside the Gemini schema's 22 fields (Vertex: + additionalProperties, $ref, $defs).",
        "remove it, or say it in the description",
        "content.proto; openswarm#24; 9router#3018, #2317; OmniRoute#245"),
    rule!(GeminiAdditionalProperties,
        [GEM: E],
        Check::Node(checks::gemini_additional_properties),
        "`additionalProperties` (even `false`) in the Gemini Developer API schema.",
        "toolc drops `false` itself; an open map has no Gemini form",
        "claude-code-router#187; 5ire#42; google-genai _transformers.py"),
    rule!(GeminiConst,
        [GEM: E, VTX: E],
        Check::Node(checks::gemini_const),
        "`const` in a Gemini schema.",
        "toolc rewrites a string `const` as `enum: [v]`; other constants have no Gemini form",
        "zed#44875"),
    rule!(GeminiRefDefs,
        [GEM: E],
        Check::Node(checks::gemini_ref_defs),
        "`$ref`/`$defs`/`definitions` in a Gemini Developer API schema.",
        "inline the references (toolc does, unless they are recursive)",
        "pydantic-ai#1598"),
    rule!(RefDangling,
        [VTX: E, GJS: E],
        Check::Node(checks::ref_dangling),
        "A `$ref` to a definition that is not there.",
        "point it at a definition under the root's `$defs`",
        "gemini-cli#13326"),
    rule!(RecursiveLazy,
        [GEM: E, VTX: E, ANT_S: E],
        Check::Schema(checks::recursive_lazy),
        "A recursive schema (a reference cycle), which the dialect cannot express.",
        "bound the depth with distinct types, or pass the nested part as a JSON string; for `gemini`, `[lint] gemini_form = \"parametersJsonSchema\"` keeps the recursion as `$ref`s",
        "vercel/ai convert-json-schema; pydantic-ai#1598; google-genai _transformers.py"),
    rule!(RecursiveRequiredCycle,
        [GJS: E, VTX: E],
        Check::Schema(checks::recursive_required_cycle),
        "A reference cycle through required properties only: no finite value satisfies it.",
        "make one property on the cycle optional or nullable",
        "generative_service.proto"),
    rule!(Tuple,
        [GEM: E, VTX: E, GJS: E],
        Check::Node(checks::tuple),
        "A tuple: `prefixItems` (Gemini) or a list-valued `items` (draft-07).",
        "use an object with one named property per position",
        "content.proto; fazer-ai gemini-tools.ts"),
    rule!(GeminiTypeArray,
        [GEM: E, VTX: E],
        Check::Node(checks::gemini_type_array),
        "A list-valued `type`; Gemini's `type` is one value.",
        "toolc rewrites `[T, \"null\"]` as `nullable: true`; for other unions use `anyOf`",
        "zed#53919; tuxevil-rotator#10"),
    rule!(GeminiTypeMissing,
        [GEM: E, VTX: E],
        Check::Node(checks::gemini_type_missing),
        "A node without `type` or `anyOf` (any JSON value).",
        "give it a `type`; for free-form data use `type: string` and pass JSON text",
        "LibreChat#6971; Ombre-Brain#119; hermes-agent#89673"),
    rule!(GeminiEnumNonString,
        [GEM: E, VTX: E],
        Check::Node(checks::gemini_enum_non_string),
        "An `enum` with non-string values, or on a non-string type.",
        "make the enum values strings, with `type: string`",
        "azure-devops-mcp#145; claude-code-router#475; OmniRoute#760"),
    rule!(GeminiItemsOnNonArray,
        [GEM: E, VTX: E],
        Check::Node(checks::gemini_items_on_non_array),
        "`items` on a node whose type is not array.",
        "move `items` to the array node",
        "systemprompt-models gemini_invariants.rs"),
    rule!(GeminiStringFormat,
        [GEM: W],
        Check::Node(checks::gemini_string_format),
        "A string `format` other than `enum` and `date-time` (rejected through 2025).",
        "drop `format` and say it in the description, if your model version rejects it",
        "gemini-cli#3178; mcp-confluent#20"),
    rule!(GeminiNestingDepth,
        [GEM: W, VTX: W, GJS: W],
        Check::Schema(checks::gemini_nesting_depth),
        "Deeply nested objects and arrays (the limit is undocumented).",
        "flatten the arguments",
        "gemini-cli#6031; js-genai#882"),
    rule!(GeminiComplexity,
        [GEM: W, VTX: W, GJS: W],
        Check::Schema(checks::gemini_complexity),
        "Many enum values or bounds, or sized arrays in sized arrays: \"too many states for serving\".",
        "shorten the enums, drop bounds the model does not need",
        "cline#7897; ghidra-mcp#440; flutter/genui#428"),
    rule!(GeminiTitleInJsonschema,
        [GJS: W],
        Check::Node(checks::gemini_title_in_jsonschema),
        "`title` fields in `parametersJsonSchema`.",
        "say it in the description instead",
        "fastmcp#3860; python-genai#1732"),
    rule!(GeminiParamsMutuallyExclusive,
        [GJS: E],
        Check::List(list::gemini_params_mutually_exclusive),
        "Both `parameters` and `parametersJsonSchema` (or `response` and `responseJsonSchema`) set.",
        "set one of them",
        "content.proto"),
    rule!(GeminiLiveNoJsonschema,
        [GJS: W],
        Check::List(list::gemini_live_no_jsonschema),
        "The Live API reads only `parameters` (off unless denied: toolc cannot know the API used).",
        "use the `gemini` dialect for the Live API",
        "pydantic-ai profiles/google.py",
        off),
    // 7.6 Anthropic strict
    rule!(AnthropicStrictNumericBounds,
        [ANT_S: E],
        Check::Node(checks::anthropic_strict_numeric_bounds),
        "`minimum`, `maximum`, `exclusive*` or `multipleOf` in an Anthropic strict schema.",
        "say the range in the description; the generated validation still enforces it",
        "Anthropic structured outputs docs; anthropic-sdk-python _transform.py"),
    rule!(AnthropicStrictStringLength,
        [ANT_S: E],
        Check::Node(checks::anthropic_strict_string_length),
        "`minLength`/`maxLength` in an Anthropic strict schema.",
        "say the length in the description",
        "Anthropic structured outputs docs"),
    rule!(AnthropicStrictMinItems,
        [ANT_S: E],
        Check::Node(checks::anthropic_strict_min_items),
        "`minItems` other than 0 or 1, or `maxItems`/`uniqueItems`/`contains`, in an Anthropic strict schema.",
        "say the size in the description",
        "memorize-everything#93"),
    rule!(AnthropicStrictFormat,
        [ANT_S: E],
        Check::Node(checks::anthropic_strict_format),
        "A `format` Anthropic strict mode does not know.",
        "use date-time, time, date, duration, email, hostname, uri, ipv4, ipv6 or uuid",
        "anthropic-sdk-python _transform.py SupportedStringFormats"),
    rule!(AnthropicStrictPattern,
        [ANT_S: E],
        Check::Node(checks::anthropic_strict_pattern),
        "A `pattern` with a backreference, lookaround or `\\b`.",
        "rewrite the pattern without them",
        "Anthropic structured outputs docs (via GoModel#963)"),
    rule!(AnthropicStrictEnumComplex,
        [ANT_S: E],
        Check::Node(checks::anthropic_strict_enum_complex),
        "An `enum` holding objects or arrays.",
        "use scalar enum values",
        "Anthropic structured outputs docs"),
    rule!(AnthropicStrictOptionalBudget,
        [ANT_S: E],
        Check::List(list::anthropic_strict_optional_budget),
        "More than 24 optional properties across the strict tools of one request.",
        "make properties required, or use the non-strict `anthropic` dialect for some tools",
        "inbox-zero#2323; eliza#16499"),
    rule!(AnthropicStrictUnionBudget,
        [ANT_S: E],
        Check::List(list::anthropic_strict_union_budget),
        "More than 16 union-typed schemas across the strict tools of one request.",
        "use fewer `anyOf` and nullable properties",
        "mozilla/bugbug#6129"),
    rule!(AnthropicStrictGrammarSize,
        [ANT_S: W],
        Check::List(list::anthropic_strict_grammar_size),
        "Large strict schemas: \"the compiled grammar is too large\".",
        "shrink the schemas, or split the agent",
        "anthropic-sdk-typescript#885; alphaXiv/agents#49"),
    // 7.7 OpenAI strict limits
    rule!(NestingDepth,
        [OAI_S: E, AZ_S: E],
        Check::Schema(checks::nesting_depth),
        "Objects nested deeper than strict mode allows (OpenAI 10, Azure 5).",
        "flatten the arguments",
        "ellmer#671; OpenAI Structured Outputs guide"),
    rule!(PropertyCount,
        [OAI_S: E, AZ_S: E],
        Check::Schema(checks::property_count),
        "More object properties than strict mode allows (OpenAI 5000, Azure 100).",
        "split the tool",
        "OpenAI Structured Outputs guide"),
    rule!(EnumValueCount,
        [OAI_S: E, AZ_S: E],
        Check::Schema(checks::enum_value_count),
        "More enum values than strict mode allows (OpenAI 1000, Azure 500).",
        "shorten the enums, or take a free string",
        "OpenAI Structured Outputs guide"),
    rule!(EnumStringSize,
        [OAI_S: E, AZ_S: E],
        Check::Schema(checks::enum_string_size),
        "One string enum of more than 250 values, longer in total than strict mode allows.",
        "shorten the enum, or take a free string",
        "OpenAI Structured Outputs guide"),
    rule!(SchemaStringSize,
        [OAI_S: E, AZ_S: E],
        Check::Schema(checks::schema_string_size),
        "Property names, definition names and enum/const values longer in total than strict mode allows.",
        "shorten names and enums, or split the tool",
        "OpenAI Structured Outputs guide"),
    // 7.8 MCP
    rule!(McpStructuredContentRequired,
        [MCP: E],
        Check::List(list::mcp_structured_content_required),
        "An `outputSchema` for a tool whose handler gives no structured content.",
        "declare `returns` in the manifest, or do not emit an `outputSchema`",
        "MCP TS/Python SDK clients; tools.mdx (MUST)"),
    rule!(McpStructuredContentConformance,
        [MCP: E],
        Check::List(list::mcp_structured_content_conformance),
        "A result not checked against the `outputSchema` that MCP clients validate it with.",
        "validate the result (`validate_returns: true`), or drop `returns`",
        "MCP TS/Python SDK clients"),
    rule!(McpStructuredContentObject,
        [MCP: E],
        Check::Schema(checks::mcp_structured_content_object),
        "An `outputSchema` admitting non-object values, while `structuredContent` must be an object.",
        "make the result a plain object (toolc lists other results without an `outputSchema`)",
        "MCP schema.ts 2025-06-18 / 2025-11-25"),
    rule!(McpAnnotationContradiction,
        [MCP: N],
        Check::List(list::mcp_annotation_contradiction),
        "A tool marked both read-only and destructive: clients ignore `destructive` for a read-only tool. Hints equal to their defaults or to what read-only implies draw nothing.",
        "drop the hint that does not hold",
        "MCP schema.ts ToolAnnotations"),
    rule!(McpAnnotationTitleShadow,
        [MCP: N],
        Check::List(list::mcp_annotation_title_shadow),
        "Both `title` and `annotations.title`, differing: clients show `title`.",
        "keep one title",
        "MCP schema.ts"),
    rule!(McpXMcpHeader,
        [MCP: E],
        Check::Schema(checks::mcp_x_mcp_header),
        "An invalid `x-mcp-header` (not a token, duplicate, on a number or object, or not reachable): clients drop the tool.",
        "name a unique header token on a string, integer or boolean property reached through `properties`",
        "MCP tools.mdx 2026-07-28"),
];
