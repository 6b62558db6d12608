//! The values a manifest writes (a default, an example, a tool's example arguments and result)
//! judged by the one validator, toolc-schema's, against the very schema the generated dispatcher
//! checks a call against: the schema's table keywords with its Rust types' integer bounds
//! ([`JsonOptions::DISPATCH`]). So `toolc check` refuses exactly the values a call would refuse,
//! with the messages a call would give.
//!
//! toolc-schema builds a schema's tree once and keeps it for the life of the program, as generated
//! statics live. The trees built here are kept by the text of the schema they were built from, for
//! the whole process: a schema is built once however many tools, builds or `toolc::check` calls
//! ask for it, and what is kept grows with the distinct schemas a process judges values against,
//! not with the number of times it does.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use serde_json::Value;
use toolc_schema::{Schema, Violation};

use super::Schemas;
use super::json::JsonOptions;
use super::node::SchemaId;

/// A schema as the generated dispatcher holds it, ready to judge values.
#[derive(Clone, Copy)]
pub struct Validator(&'static Schema);

impl Validator {
    /// Every violation of `value`, as a call's result or a default would be judged.
    pub fn violations(&self, value: &Value) -> Vec<Violation> {
        self.0.validate(value)
    }

    /// Every violation of `value` as a call's arguments would be judged: its text parsed as the
    /// dispatcher parses argument text (an object, nested no deeper than its limit), read as the
    /// schema means it (an integral float for an integer, `null` for an absent optional property
    /// that refuses `null`), then validated.
    pub fn argument_violations(&self, value: &Value) -> Vec<Violation> {
        let mut read = match toolc_schema::parse_arguments(&value.to_string()) {
            Ok(read) => read,
            Err(refused) => return vec![refused],
        };
        self.0.normalize_arguments(&mut read);
        self.0.validate(&read)
    }

    /// Whether `value` is valid.
    pub fn accepts(&self, value: &Value) -> bool {
        self.0.is_valid(value)
    }
}

/// The trees built so far, by the text of their schema (`None`: toolc-schema refused it).
fn built() -> &'static Mutex<HashMap<String, Option<&'static Schema>>> {
    static BUILT: OnceLock<Mutex<HashMap<String, Option<&'static Schema>>>> = OnceLock::new();
    BUILT.get_or_init(Default::default)
}

impl Schemas {
    /// The validator of the schema at `id`, as the generated dispatcher validates against it;
    /// `None` for a schema toolc-schema refuses, which resolve has already reported (a schema
    /// that resolves without an error always builds: `every_resolved_schema_builds` holds it).
    pub fn validator(&self, id: SchemaId) -> Option<Validator> {
        let schema = self.bundle_with(id, JsonOptions::DISPATCH);
        let text = schema.to_string();
        let mut cache = built().lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tree) = cache.get(&text) {
            return tree.map(Validator);
        }
        let tree = toolc_schema::compile(&schema).ok();
        cache.insert(text, tree);
        tree.map(Validator)
    }
}
