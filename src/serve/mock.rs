//! The `mock` backend: a tool's example results in turn, or values generated from its
//! `returns` (deterministic for a seed: the n-th call of a tool answers the same value in
//! every run with that seed).

use super::generate::{NoValue, generate};
use super::rng::hash;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use toolc_runtime::{BoxFuture, CallContext, HandlerError, ToolHandler};
use toolc_schema::Schema;

/// A mock of one tool.
#[derive(Clone)]
pub struct Mock(Arc<Inner>);

struct Inner {
    tool: String,
    /// The results of the tool's examples that give one, in order.
    results: Vec<Value>,
    /// The result's schema (a bundle) and its validator, when the tool declares one.
    returns: Option<(Value, &'static Schema)>,
    seed: u64,
    calls: AtomicU64,
}

impl Mock {
    /// A mock of `tool` answering `results` in turn, else values of `returns`.
    pub fn new(
        tool: &str,
        results: Vec<Value>,
        returns: Option<(Value, &'static Schema)>,
        seed: u64,
    ) -> Mock {
        Mock(Arc::new(Inner {
            tool: tool.to_string(),
            results,
            returns,
            seed,
            calls: AtomicU64::new(0),
        }))
    }

    /// The answer to the `n`-th call (from 0).
    pub fn answer(&self, n: u64) -> Result<Value, NoValue> {
        let inner = &self.0;
        if !inner.results.is_empty() {
            let i = (n % inner.results.len() as u64) as usize;
            return Ok(inner.results[i].clone());
        }
        match &inner.returns {
            Some((schema, validator)) => generate(schema, validator, self.seed_of(n)),
            // Any JSON value is a valid result: an empty object reads as "done".
            None => Ok(json!({})),
        }
    }

    /// The seed of the `n`-th call: the server's, the tool's name and `n` mixed.
    fn seed_of(&self, n: u64) -> u64 {
        let inner = &self.0;
        inner.seed ^ hash(&inner.tool).rotate_left(17) ^ n.wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }

    /// Whether the mock answers generated values and, if so, whether one is found for its first
    /// call: `Err` says why the returns schema admits nothing the generator finds.
    pub fn check(&self) -> Result<(), NoValue> {
        if self.0.results.is_empty() && self.0.returns.is_some() {
            self.answer(0).map(|_| ())
        } else {
            Ok(())
        }
    }
}

impl ToolHandler for Mock {
    fn call(
        &self,
        _arguments: Value,
        _ctx: CallContext,
    ) -> BoxFuture<'static, Result<Value, HandlerError>> {
        let n = self.0.calls.fetch_add(1, Ordering::Relaxed);
        let answer = self.answer(n).map_err(|e| {
            HandlerError::msg(format!(
                "the mock found no value its returns schema admits ({}): give the tool an example with a `result`",
                e.why
            ))
        });
        Box::pin(async move { answer })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_in_turn_then_generated_values_by_seed() {
        let m = Mock::new("t", vec![json!(1), json!(2)], None, 0);
        let answers: Vec<Value> = (0..3).map(|n| m.answer(n).unwrap()).collect();
        assert_eq!(answers, [json!(1), json!(2), json!(1)]);

        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        let validator = toolc_schema::compile(&schema).unwrap();
        let a = Mock::new("t", vec![], Some((schema.clone(), validator)), 5);
        let b = Mock::new("t", vec![], Some((schema.clone(), validator)), 5);
        let c = Mock::new("t", vec![], Some((schema, validator)), 6);
        let first: Vec<Value> = (0..5).map(|n| a.answer(n).unwrap()).collect();
        assert_eq!(
            first,
            (0..5).map(|n| b.answer(n).unwrap()).collect::<Vec<_>>()
        );
        assert_ne!(
            first,
            (0..5).map(|n| c.answer(n).unwrap()).collect::<Vec<_>>()
        );
        assert!(first.iter().all(|v| validator.is_valid(v)));
        assert_eq!(
            Mock::new("t", vec![], None, 0).answer(0).unwrap(),
            json!({})
        );
    }
}
