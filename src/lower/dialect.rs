//! The provider dialects: the schema surfaces toolc lowers to, and which
//! schema of a tool each one is shown.

/// A provider schema surface. docs/lint-rules.md says what each one is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dialect {
    /// OpenAI function calling, `strict: false`.
    OpenAi,
    /// OpenAI Structured Outputs: `strict: true` function tools.
    OpenAiStrict,
    /// The same strict mode on Azure OpenAI, with older, tighter limits.
    AzureOpenAiStrict,
    /// Gemini Developer API `FunctionDeclaration.parameters` (the OpenAPI 3.0 subset).
    Gemini,
    /// Vertex AI `FunctionDeclaration.parameters` / `response`.
    GeminiVertex,
    /// Gemini `parametersJsonSchema` / `responseJsonSchema`.
    GeminiJsonSchema,
    /// Anthropic Messages API `tools[].input_schema`.
    Anthropic,
    /// Anthropic `strict: true` tools.
    AnthropicStrict,
    /// An MCP server's `tools/list`.
    Mcp,
}

impl Dialect {
    /// Every dialect, in documentation order.
    pub const ALL: [Dialect; 9] = [
        Dialect::OpenAi,
        Dialect::OpenAiStrict,
        Dialect::AzureOpenAiStrict,
        Dialect::Gemini,
        Dialect::GeminiVertex,
        Dialect::GeminiJsonSchema,
        Dialect::Anthropic,
        Dialect::AnthropicStrict,
        Dialect::Mcp,
    ];

    /// The dialects linted when neither `toolc.toml` nor code names any.
    pub const DEFAULT: [Dialect; 4] = [
        Dialect::OpenAiStrict,
        Dialect::Gemini,
        Dialect::Anthropic,
        Dialect::Mcp,
    ];

    /// Other names accepted for a dialect: `gemini-bifrost`, the name some toolsets use for the Gemini form.
    pub const ALIASES: &'static [(&'static str, Dialect)] = &[("gemini-bifrost", Dialect::Gemini)];

    /// The dialect's name, as `toolc.toml` and `--dialect` take it.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::OpenAi => "openai",
            Dialect::OpenAiStrict => "openai-strict",
            Dialect::AzureOpenAiStrict => "azure-openai-strict",
            Dialect::Gemini => "gemini",
            Dialect::GeminiVertex => "gemini-vertex",
            Dialect::GeminiJsonSchema => "gemini-jsonschema",
            Dialect::Anthropic => "anthropic",
            Dialect::AnthropicStrict => "anthropic-strict",
            Dialect::Mcp => "mcp",
        }
    }

    /// Parses a dialect id or alias.
    pub fn parse(s: &str) -> Option<Dialect> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .or_else(|| {
                Dialect::ALIASES
                    .iter()
                    .find(|(a, _)| *a == s)
                    .map(|(_, d)| *d)
            })
    }

    /// Every accepted name, for "did you mean" hints.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Dialect::ALL
            .into_iter()
            .map(Dialect::as_str)
            .chain(Dialect::ALIASES.iter().map(|(a, _)| *a))
    }

    /// "unknown dialect" with a did-you-mean, for config and CLI errors.
    pub fn unknown_message(s: &str) -> (String, String) {
        let msg = format!("there is no dialect named `{s}`");
        let help = match crate::diag::did_you_mean(s, Dialect::names()) {
            Some(m) => format!("did you mean `{m}`?"),
            None => format!(
                "the dialects are {}",
                Dialect::ALL.map(Dialect::as_str).join(", ")
            ),
        };
        (msg, help)
    }

    /// OpenAI strict mode, on OpenAI or on Azure.
    pub fn is_openai_strict(self) -> bool {
        matches!(self, Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict)
    }

    /// The OpenAPI-subset Gemini surfaces (not `parametersJsonSchema`).
    pub fn is_gemini_openapi(self) -> bool {
        matches!(self, Dialect::Gemini | Dialect::GeminiVertex)
    }

    /// How many tools one request may hold, where the provider says: OpenAI 128, the Gemini
    /// Developer API 512, Vertex AI 128 (docs/lint-rules.md, `tool-count`).
    pub fn max_tools(self) -> Option<usize> {
        match self {
            Dialect::OpenAi | Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict => Some(128),
            Dialect::Gemini | Dialect::GeminiJsonSchema => Some(512),
            Dialect::GeminiVertex => Some(128),
            Dialect::Anthropic | Dialect::AnthropicStrict | Dialect::Mcp => None,
        }
    }

    /// The longest tool name the provider takes: OpenAI, Azure and Vertex AI 64; the Gemini
    /// Developer API, Anthropic and MCP 128 (docs/lint-rules.md, `tool-name-length`).
    pub fn max_name_len(self) -> usize {
        match self {
            Dialect::OpenAi
            | Dialect::OpenAiStrict
            | Dialect::AzureOpenAiStrict
            | Dialect::GeminiVertex => 64,
            Dialect::Gemini
            | Dialect::GeminiJsonSchema
            | Dialect::Anthropic
            | Dialect::AnthropicStrict
            | Dialect::Mcp => 128,
        }
    }

    /// Whether the provider takes `name` as a tool name: its characters (`tool-name-pattern`,
    /// or MCP's set) and its length (`tool-name-length`).
    pub fn takes_name(self, name: &str) -> bool {
        name.len() <= self.max_name_len() && self.name_chars_ok(name)
    }

    /// Whether the characters of `name` are ones the provider takes in a tool name (at least
    /// one, the first among those it allows first).
    pub fn name_chars_ok(self, name: &str) -> bool {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        let mut chars = name.chars();
        let Some(first) = chars.next() else {
            return false;
        };
        let lead = first.is_ascii_alphabetic() || first == '_';
        match self {
            Dialect::OpenAi
            | Dialect::OpenAiStrict
            | Dialect::AzureOpenAiStrict
            | Dialect::Anthropic
            | Dialect::AnthropicStrict => word(first) && chars.all(word),
            Dialect::Gemini | Dialect::GeminiJsonSchema => {
                lead && chars.all(|c| word(c) || c == '.' || c == ':')
            }
            Dialect::GeminiVertex => lead && chars.all(|c| word(c) || c == '.'),
            Dialect::Mcp => (word(first) || first == '.') && chars.all(|c| word(c) || c == '.'),
        }
    }

    /// The characters of a tool name the provider takes, as a pattern (for messages).
    pub fn name_pattern(self) -> &'static str {
        match self {
            Dialect::OpenAi
            | Dialect::OpenAiStrict
            | Dialect::AzureOpenAiStrict
            | Dialect::Anthropic
            | Dialect::AnthropicStrict => "^[a-zA-Z0-9_-]+$",
            Dialect::Gemini | Dialect::GeminiJsonSchema => "^[A-Za-z_][A-Za-z0-9_.:-]*$",
            Dialect::GeminiVertex => "^[A-Za-z_][A-Za-z0-9_.-]*$",
            Dialect::Mcp => "^[A-Za-z0-9_.-]+$",
        }
    }

    /// The OpenAI surfaces, strict or not.
    pub fn is_openai(self) -> bool {
        matches!(
            self,
            Dialect::OpenAi | Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict
        )
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::parse(s).ok_or_else(|| {
            let (m, h) = Dialect::unknown_message(s);
            format!("{m}; {h}")
        })
    }
}

/// Which schema of a tool a check looks at: the arguments or the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// The parameters: what the model writes.
    Parameters,
    /// The result: what the model reads.
    Returns,
}

impl Role {
    /// `"parameters"` or `"returns"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Parameters => "parameters",
            Role::Returns => "returns",
        }
    }
}

impl Dialect {
    /// Whether the dialect's tool entries carry the result's schema (and so
    /// whether `returns` is lowered and linted for it): MCP's
    /// `outputSchema`, Gemini's `response` / `responseJsonSchema`. OpenAI's
    /// and Anthropic's tools have no place for it.
    pub fn sends_returns(self) -> bool {
        matches!(
            self,
            Dialect::Mcp | Dialect::Gemini | Dialect::GeminiVertex | Dialect::GeminiJsonSchema
        )
    }

    /// Whether the dialect's schemas are JSON Schema (not the OpenAPI 3.0
    /// subset of the Gemini `parameters` surfaces).
    pub fn is_json_schema(self) -> bool {
        !self.is_gemini_openapi()
    }

    /// Whether the dialect can state numeric bounds (`minimum`, `maximum`).
    pub fn states_bounds(self) -> bool {
        self != Dialect::AnthropicStrict
    }
}
