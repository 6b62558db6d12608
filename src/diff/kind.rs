//! The closed table of change kinds `toolc diff` reports, each with who it
//! breaks. docs/diff.md documents every kind, and src/tests/diff.rs
//! triggers every one.

use crate::lower::Role;

/// Who a change breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Calls that worked before can fail now, or results callers read can
    /// hold what they did not before.
    BreakingCallers,
    /// What the model is shown changed (names, descriptions, instructions,
    /// how many tools), so prompts tuned against it may behave differently.
    BreakingModel,
    /// Neither.
    Compatible,
}

impl Class {
    /// Every class, most severe first.
    pub const ALL: [Class; 3] = [
        Class::BreakingCallers,
        Class::BreakingModel,
        Class::Compatible,
    ];

    /// The id `--allow` takes: `breaking-callers`.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::BreakingCallers => "breaking-callers",
            Class::BreakingModel => "breaking-model",
            Class::Compatible => "compatible",
        }
    }

    /// How output words it: `breaking for callers`.
    pub fn describe(self) -> &'static str {
        match self {
            Class::BreakingCallers => "breaking for callers",
            Class::BreakingModel => "breaking for the model",
            Class::Compatible => "compatible",
        }
    }

    pub fn parse(s: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.as_str() == s)
    }

    pub fn is_breaking(self) -> bool {
        self != Class::Compatible
    }
}

use Class::{BreakingCallers as C, BreakingModel as M, Compatible as K};

macro_rules! kinds {
    ($($variant:ident => $id:literal, $params:expr, $returns:expr, $summary:literal;)*) => {
        /// What changed. A kind's class can depend on whether it is in a
        /// tool's parameters (what callers send) or its result (what they
        /// read): narrowing what a tool takes breaks callers, narrowing what
        /// it returns does not, and widening is the other way round.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum ChangeKind {
            $(#[doc = $summary] $variant,)*
        }

        impl ChangeKind {
            /// Every kind, in documentation order.
            pub const ALL: &'static [ChangeKind] = &[$(ChangeKind::$variant,)*];

            /// The kind as it is printed and allowed: `tool-removed`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ChangeKind::$variant => $id,)*
                }
            }

            /// One line on what the kind means.
            pub fn summary(self) -> &'static str {
                match self {
                    $(ChangeKind::$variant => $summary,)*
                }
            }

            /// Who the change breaks, in a tool's parameters (or outside
            /// any schema) and in its result.
            pub fn classes(self) -> (Class, Class) {
                match self {
                    $(ChangeKind::$variant => ($params, $returns),)*
                }
            }
        }
    };
}

kinds! {
    AgentRemoved => "agent-removed", C, C, "An agent is gone.";
    AgentAdded => "agent-added", K, K, "A new agent.";
    ToolRemoved => "tool-removed", C, C, "A tool or play the agent had is gone from it.";
    ToolAdded => "tool-added", K, K, "The agent has a new tool or play.";
    ToolKindChanged => "tool-kind-changed", C, C, "A tool became a play or a play a tool: its failures come back in another shape.";
    PolicyTightened => "policy-tightened", C, C, "A tool's `auth`, `roles`, `rate_limit`, `timeout_ms` or `approval` now refuses, holds or cuts short calls it let through.";
    PolicyLoosened => "policy-loosened", K, K, "A tool's policies let through calls they refused.";
    TypeNarrowed => "type-narrowed", C, K, "A value takes fewer JSON types (`null` dropped, `number` to `integer`).";
    TypeWidened => "type-widened", K, C, "A value takes more JSON types (`null` added, `integer` to `number`).";
    TypeChanged => "type-changed", C, C, "A value's JSON type changed to one that is neither wider nor narrower.";
    EnumNarrowed => "enum-narrowed", C, K, "Values an `enum` or `const` allowed are no longer allowed, or a value is newly limited to a list.";
    EnumWidened => "enum-widened", K, C, "An `enum` allows values it did not, or no longer limits the value.";
    BoundTightened => "bound-tightened", C, K, "A bound refuses values it took: `minimum`, `maximum` and their exclusive forms, `multipleOf`, `minLength`, `maxLength`, `pattern`, `format`, `minItems`, `maxItems`, `uniqueItems`, `dependentRequired`, `dependentSchemas`, `allOf`, `not`, an integer `format`.";
    BoundLoosened => "bound-loosened", K, C, "A bound takes values it refused.";
    BoundChanged => "bound-changed", C, C, "A `pattern`, `format`, `not` or `dependentSchemas` schema was replaced by one that is neither wider nor narrower.";
    PropertyAdded => "property-added", K, K, "An optional parameter or a result field was added.";
    PropertyRemoved => "property-removed", C, C, "A parameter or a result field was removed.";
    PropertyNowRequired => "property-now-required", C, K, "A parameter was added as required or became required; a result field is now always present.";
    PropertyNowOptional => "property-now-optional", K, C, "A parameter became optional; a result field may now be absent.";
    ExtraPropertiesRefused => "extra-properties-refused", C, K, "An object refuses properties beyond those it declares (`additionalProperties: false`), which it took.";
    ExtraPropertiesAllowed => "extra-properties-allowed", K, K, "An object takes properties beyond those it declares, which it refused.";
    VariantRemoved => "variant-removed", C, K, "A branch of a `oneOf` or `anyOf` is gone.";
    VariantAdded => "variant-added", K, C, "A `oneOf` or `anyOf` has a new branch.";
    DefaultChanged => "default-changed", C, K, "A parameter's `default` changed, was added or was removed: calls that leave it out behave differently.";
    Deprecated => "deprecated", K, K, "A tool, play or property is newly deprecated.";
    DescriptionChanged => "description-changed", M, M, "The description of an agent, a tool or play, or a schema changed.";
    TitleChanged => "title-changed", M, M, "The title of a tool, play or schema changed.";
    ManualChanged => "manual-changed", M, M, "The instructions an agent gives the model (its capabilities' manuals) changed.";
    ToolCountOverLimit => "tool-count-over-limit", M, M, "An agent now has more tools than a provider it is linted for takes in one request.";
}

impl ChangeKind {
    /// Who the change breaks where it was found.
    pub fn class(self, role: Option<Role>) -> Class {
        let (params, returns) = self.classes();
        match role {
            Some(Role::Returns) => returns,
            _ => params,
        }
    }

    /// The kind an id names.
    pub fn parse(s: &str) -> Option<ChangeKind> {
        ChangeKind::ALL.iter().copied().find(|k| k.as_str() == s)
    }
}
