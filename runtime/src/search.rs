//! Tool search: [`Agent::search_tools`](crate::Agent::search_tools) ranks an agent's tools
//! and plays against a query with BM25 over their names, titles, descriptions and parameter
//! names and descriptions.
//!
//! The words, weights, index format and ranking are `toolc-search`'s, the crate the compiler
//! shares, so an index built at build time and a query tokenized here meet on the same
//! words. A generated agent carries the index of its own tools as static tables written by
//! the compiler and searches them as they are: nothing is tokenized or built at run time.
//! The tools the index does not cover (tools registered at run time, or every tool of an
//! agent built by hand) are indexed here, each tokenized once, on the first search after it
//! was added, into a second index searched together with the static one (scores are those
//! of one index holding both).

use std::fmt;
use std::sync::RwLock;

use toolc_search::{Builder, Document, Index, IndexRef};

use crate::descriptor::ToolDescriptor;

/// One tool found by a search.
#[derive(Debug, Clone, Copy)]
pub struct SearchHit {
    /// The tool or play.
    pub tool: &'static ToolDescriptor,
    /// Its BM25 score for the query: higher is better, always above 0. Comparable between the
    /// hits of one search, not between searches.
    pub score: f64,
}

/// The document of a descriptor: the definition the compiler uses too.
pub(crate) fn document(d: &ToolDescriptor) -> Document {
    Document::tool(d.name, d.title, d.description, d.input_schema)
}

/// The part of an agent's index made at run time.
#[derive(Default)]
struct Built {
    /// The documents of the agent's tools after those the static index covers, in order.
    index: Index,
    /// How many tools it holds.
    len: usize,
}

/// An agent's index: the static tables of its own tools, when its generated constructor
/// passed them, and an index made here of the tools after them.
#[derive(Default)]
pub(crate) struct Searcher {
    /// An index of the agent's first tools built at compile time, in the agent's order.
    prebuilt: Option<&'static IndexRef<'static>>,
    built: RwLock<Built>,
}

impl Searcher {
    /// Uses `index` for the tools it covers, which must be the first of `tools`, by name and
    /// in order. An index that does not fit (another tokenizer version, inconsistent tables,
    /// other tools) is not used, and the tools are indexed from their descriptors instead.
    pub(crate) fn set_prebuilt(
        &mut self,
        index: &'static IndexRef<'static>,
        tools: &[&'static ToolDescriptor],
    ) {
        let fits = index.check().is_ok()
            && index.len() <= tools.len()
            && tools
                .iter()
                .enumerate()
                .take(index.len())
                .all(|(i, d)| index.name(i) == Some(d.name));
        self.prebuilt = fits.then_some(index);
        self.built = RwLock::default();
    }

    /// Drops the index made at run time, after the agent's tools after the static index changed
    /// (a tool removed or replaced): the next search makes it again.
    pub(crate) fn forget_built(&mut self) {
        self.built = RwLock::default();
    }

    /// How many of the agent's first tools the static index covers.
    fn covered(&self) -> usize {
        self.prebuilt.map_or(0, |p| p.len())
    }

    /// Brings the run-time index up to `tools`: the tools it lacks are tokenized and merged
    /// with the documents it holds (which are not tokenized again).
    fn extend(&self, tools: &[&'static ToolDescriptor]) {
        let covered = self.covered();
        let missing = |b: &Built| covered + b.len < tools.len();
        if !missing(&self.built.read().unwrap_or_else(|e| e.into_inner())) {
            return;
        }
        let mut built = self.built.write().unwrap_or_else(|e| e.into_inner());
        if !missing(&built) {
            return;
        }
        let mut b = Builder::new();
        b.add_index(built.index.as_ref());
        for d in &tools[covered + built.len..] {
            b.add(&document(d));
        }
        *built = Built {
            index: b.finish(),
            len: tools.len() - covered,
        };
    }

    /// The best `k` of `tools` for `query`. `tools` are the agent's, in order; tools are only
    /// ever added after the others, or the run-time index is forgotten ([`Searcher::forget_built`]).
    pub(crate) fn search(
        &self,
        tools: &[&'static ToolDescriptor],
        query: &str,
        k: usize,
    ) -> Vec<SearchHit> {
        self.extend(tools);
        let built = self.built.read().unwrap_or_else(|e| e.into_inner());
        let hits = match self.prebuilt {
            Some(pre) if built.len == 0 => pre.search(query, k),
            Some(pre) => toolc_search::search(&[*pre, built.index.as_ref()], query, k),
            None => built.index.as_ref().search(query, k),
        };
        hits.into_iter()
            .filter_map(|(d, score)| {
                Some(SearchHit {
                    tool: tools.get(d)?,
                    score,
                })
            })
            .collect()
    }

    /// How many tools the static index covers, and how many were tokenized at run time.
    pub(crate) fn parts(&self) -> (usize, usize) {
        let built = self.built.read().unwrap_or_else(|e| e.into_inner()).len;
        (self.covered(), built)
    }
}

impl fmt::Debug for Searcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("parts", &self.parts())
            .finish()
    }
}

/// A clone of an agent's index keeps the static tables and makes its run-time part again on
/// its first search: the clone's run-time tools may change apart from the original's.
impl Clone for Searcher {
    fn clone(&self) -> Searcher {
        Searcher {
            prebuilt: self.prebuilt,
            built: RwLock::default(),
        }
    }
}
