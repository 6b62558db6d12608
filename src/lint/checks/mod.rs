//! The schema rule functions: pure, from one schema (and the dialect it is
//! meant for) to hits. Each is named in the rule table; the functions are
//! in one file per provider (`common` for rules of several), and what they
//! all see and share is in `cx`.

mod anthropic;
mod common;
mod cx;
mod gemini;
mod mcp;
mod openai;

pub use anthropic::*;
pub use common::*;
pub use cx::Cx;
pub use gemini::*;
pub use mcp::*;
pub use openai::*;
