//! The stable diagnostic codes. Each one is documented in docs/diagnostics.md
//! and has a test that triggers it.

macro_rules! codes {
    ($($variant:ident => $id:literal, $summary:literal;)*) => {
        /// A stable diagnostic code. The string form never changes once released.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $(#[doc = $summary] $variant,)*
        }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as it is printed, in kebab case: `unknown-key`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $id,)*
                }
            }

            /// One line on what the code means.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                }
            }
        }
    };
}

codes! {
    Io => "io", "A manifest path could not be read.";
    NotUtf8 => "not-utf8", "A manifest file is not valid UTF-8.";
    Syntax => "syntax", "A manifest file is not valid YAML or TOML.";
    DuplicateKey => "duplicate-key", "A key appears twice in one mapping or table.";
    TooLarge => "too-large", "A manifest file is too large or too deeply nested, or expands too many aliases.";
    UnknownKey => "unknown-key", "A key the manifest format does not define.";
    WrongType => "wrong-type", "A value has the wrong type (a string where a list was expected, say).";
    MissingKey => "missing-key", "A required key is absent.";
    UnsupportedVersion => "unsupported-version", "The `version` is not one this compiler supports.";
    InvalidName => "invalid-name", "A name is empty, too long, or not of its pattern (snake_case/kebab-case ASCII; tools and plays as MCP names tools: 1 to 128 of A-Z a-z 0-9 _ - .).";
    InvalidTypeName => "invalid-type-name", "A type name is not PascalCase.";
    DuplicateName => "duplicate-name", "A name is defined twice, in one file or across files.";
    IdentCollision => "ident-collision", "Two names map to the same Rust identifier.";
    UnknownReference => "unknown-reference", "A reference names a toolbox, playbook, manual, capability or type that does not exist.";
    AgentNameCollision => "agent-name-collision", "Two tools or plays reachable from one agent share a name.";
    ScopeMismatch => "scope-mismatch", "A toolbox's scope type differs from its agent's scope type, or a delegate's target reads a scope its agent does not bind.";
    DelegationCycle => "delegation-cycle", "An agent delegates to itself, directly or through other agents' delegates.";
    DelegationTooDeep => "delegation-too-deep", "A chain of delegates longer than 8: agent to agent, a delegated call would pass more than 8 delegates.";
    InvalidAuth => "invalid-auth", "An `auth` level other than none, user or admin.";
    InvalidRateLimit => "invalid-rate-limit", "A `rate_limit` that is not `N/unit`.";
    InvalidTimeout => "invalid-timeout", "A `timeout_ms` that is zero or negative.";
    InvalidApproval => "invalid-approval", "An `approval` other than required or none.";
    EmptyDescription => "empty-description", "A required description is empty.";
    EmptySection => "empty-section", "A toolbox without tools, a playbook without plays, a capability without a toolbox or playbook, or an agent without capabilities.";
    PlayMissingReturns => "play-missing-returns", "A play has no `returns` schema.";
    ToolOnlyKey => "tool-only-key", "A play uses a key only tools have (`terminal`, `auth`, `roles`, `rate_limit`, `timeout_ms`, `approval`).";
    ParametersNotObject => "parameters-not-object", "A `parameters` schema whose root is not `type: object`.";
    InvalidSchema => "invalid-schema", "A schema keyword has a value of the wrong shape (a string where a number belongs, an unknown type name, an empty `enum`…).";
    UnknownSchemaKeyword => "unknown-schema-keyword", "A key in a schema that is neither a schema keyword toolc knows nor an `x-` extension.";
    UndeclaredRequired => "undeclared-required", "A name in `required` that the object does not declare under `properties`.";
    InvalidDefault => "invalid-default", "A `default` that its own schema does not accept, or that the generated Rust type cannot hold.";
    UnsupportedPattern => "unsupported-pattern", "A `pattern` uses look-around or a back-reference, which the generated validators cannot run.";
    UnresolvedRef => "unresolved-ref", "A `$ref` that does not point at a named type or at a definition of the schema's own.";
    LegacyKeyword => "legacy-keyword", "A schema keyword in an older draft's spelling (the draft-07 tuple `items: [...]`), read as its 2020-12 equivalent: a note.";
    SensitiveParameter => "sensitive-parameter", "A value marked `sensitive` in a tool's or play's parameters: the model writes it, so the model sees it (a warning).";
    InvalidExample => "invalid-example", "An example's arguments or result do not match the tool's schemas.";
    InvalidMcpField => "invalid-mcp-field", "A tool's `icons` or `meta` that MCP would refuse: an icon source that is not `https:` or `data:`, a malformed size, theme or media type, a `meta` key the protocol reserves or does not allow.";
    UnknownBackend => "unknown-backend", "A tool's `backend` that is not `mock`, `http` or `command`.";
    InvalidBackend => "invalid-backend", "A `backend` that is malformed: two kinds at once, a command without a program, an HTTP method or URL toolc cannot send, an environment variable name that is not one, a placeholder that is not closed or not quoted.";
    BackendPlaceholder => "backend-placeholder", "A `{name}` placeholder of an `http` backend that names no parameter of the tool, or a URL placeholder whose parameter is not required.";
    InlineHeader => "inline-header", "A header of an `http` backend whose value is written in the manifest instead of read from the environment (`{env: NAME}`) or from an argument.";
    ManualPath => "manual-path", "A manual `file` that is absolute or leads outside the manifest root.";
    ManualUnreadable => "manual-unreadable", "A manual `file` that cannot be read.";
    ManualTemplate => "manual-template", "A `{{ ... }}` in a manual that is not `tool(\"name\")` or `play(\"name\")`.";
    UnsupportedSchema => "unsupported-schema", "A schema construct generated Rust cannot represent or validate, or a code-generation option that matches nothing.";
    ManualReference => "manual-reference", "A manual names a tool or play not reachable from the capability that uses it.";
    Lint => "lint", "A model-facing schema or tool list a provider would reject or degrade; printed under the id of its lint rule (docs/lint-rules.md).";
    UnknownRule => "unknown-rule", "A lint rule id in `toolc.toml` or on the command line that does not exist.";
    UnknownDialect => "unknown-dialect", "A provider dialect in `toolc.toml` or on the command line that does not exist.";
    OpenaiNotStrict => "openai-not-strict", "`toolc.toml` lints for `openai`, OpenAI's tool calling without strict mode, and not for `openai-strict`, the form other tools call `openai`: a note.";
    Change => "change", "A change of the tool surface between two versions of the manifests, found by `toolc diff`; printed under the id of its kind (docs/diff.md).";
    ImportSource => "import-source", "A source `toolc import` read but cannot import: not a tools/list result, not an OpenAPI 3.0 or 3.1 document, a `$ref` to nothing, a server that does not answer as an MCP server.";
    ImportChange => "import-change", "A change `toolc import` made to what its source sent, with why: a note.";
    NoBackend => "no-backend", "`toolc serve` or `toolc call`, without `--mock`, for an agent with a tool or play that has no `backend`.";
    NoMockValue => "no-mock-value", "A `mock` finds no value the tool's `returns` schema admits (a warning of `toolc serve` and `toolc call`): its calls fail.";
    UnsetEnv => "unset-env", "An environment variable an `http` backend reads is not set (or is not UTF-8) when `toolc serve` or `toolc call` starts.";
}
