//! Tool search for toolc: the one tokenizer, document definition, index format and BM25
//! ranking that the compiler (which builds an agent's index at build time and writes it into
//! the generated code as `static` tables) and `toolc-runtime` (which tokenizes queries, and
//! indexes tools registered at run time) share, so both sides make the same words.
//!
//! ```
//! use toolc_search::{Builder, Document};
//!
//! let mut b = Builder::new();
//! b.add(&Document::tool("list_meetings", None, "List meetings for a day", r#"{"type":"object","properties":{"day":{"type":"string","description":"ISO date"}}}"#));
//! b.add(&Document::tool("lookup_order", None, "Look up an order by id", "{}"));
//! let index = b.finish();
//! let hits = index.as_ref().search("what meetings do I have today", 5);
//! assert_eq!(index.as_ref().name(hits[0].0), Some("list_meetings"));
//! ```

mod index;
mod text;

pub use index::{Builder, Document, Field, Index, IndexError, IndexRef, VERSION, scores, search};
pub use text::{for_each_word, stem, words};
