//! What a rule's check reports ([`Spot`]) and what the runner makes of it with the rule's id
//! ([`Hit`]).

use super::rule_id::RuleId;

/// What a rule's check reports: where (a JSON pointer into the schema it
/// was given, or the index of a tool in a tool list) and what, in words.
/// The runner makes it a [`Hit`] of the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spot {
    /// The tool in a tool list, by position, for list-level rules.
    pub tool: Option<usize>,
    pub pointer: String,
    pub message: String,
    /// A help line more precise than the rule's own, when there is one.
    pub help: Option<String>,
}

impl Spot {
    /// A spot at a JSON pointer.
    pub(crate) fn at(pointer: impl Into<String>, message: impl Into<String>) -> Spot {
        Spot {
            tool: None,
            pointer: pointer.into(),
            message: message.into(),
            help: None,
        }
    }

    /// A spot on the tool at `index` of a tool list.
    pub(crate) fn tool(index: usize, message: impl Into<String>) -> Spot {
        Spot {
            tool: Some(index),
            pointer: String::new(),
            message: message.into(),
            help: None,
        }
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Spot {
        self.help = Some(help.into());
        self
    }

    /// The hit of `rule` here.
    pub(crate) fn hit(self, rule: RuleId) -> Hit {
        Hit {
            rule,
            tool: self.tool,
            pointer: self.pointer,
            message: self.message,
            help: self.help,
        }
    }
}

/// What a rule function reports, with its rule: where (a JSON pointer into
/// the schema it was given, or the index of a tool in a tool list) and what,
/// in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The rule that fired.
    pub rule: RuleId,
    /// The tool in a tool list, by position, for list-level rules.
    pub tool: Option<usize>,
    /// JSON pointer into the schema (or the tool's entry) it is about; empty for the root.
    pub pointer: String,
    /// What the provider does not accept, in words.
    pub message: String,
    /// A help line more precise than the rule's own, when there is one.
    pub help: Option<String>,
}

/// The hits of rule `id` at `spots`.
pub(super) fn stamp(id: RuleId, spots: Vec<Spot>) -> impl Iterator<Item = Hit> {
    spots.into_iter().map(move |s| s.hit(id))
}
