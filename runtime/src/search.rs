//! Tool search: [`Agent::search_tools`](crate::Agent::search_tools) ranks an agent's tools
//! and plays against a query with BM25 over their names, titles, descriptions and parameter
//! names and descriptions.
//!
//! The words, weights, index format and ranking are `toolc-search`'s, the crate the compiler
//! shares, so an index built at build time and a query tokenized here meet on the same
//! words. An agent indexes its tools once, on its first search (tools registered later are
//! added then, without tokenizing the others again when a prebuilt index covers them).

use std::fmt;
use std::sync::OnceLock;

use toolc_search::{Builder, Document, Index, IndexRef};

use crate::descriptor::ToolDescriptor;

#[doc(hidden)]
pub use toolc_search::{IndexRef as StaticIndex, VERSION as INDEX_VERSION};

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

/// An agent's index, made on its first search.
#[derive(Default)]
pub(crate) struct Searcher {
    /// An index of the agent's own tools built at compile time, in the agent's order.
    prebuilt: Option<&'static IndexRef<'static>>,
    built: OnceLock<Index>,
}

impl Searcher {
    /// Uses `index` for the tools it covers: the first tools of the agent, by name and in
    /// order. An index that does not fit (another version, inconsistent tables, other tools)
    /// is not used; the tools are indexed from their descriptors instead.
    pub(crate) fn set_prebuilt(&mut self, index: &'static IndexRef<'static>) {
        self.prebuilt = index.check().is_ok().then_some(index);
        self.built = OnceLock::new();
    }

    /// Forgets the index: tools were added.
    pub(crate) fn invalidate(&mut self) {
        self.built = OnceLock::new();
    }

    fn index(&self, tools: &[&'static ToolDescriptor]) -> &Index {
        self.built.get_or_init(|| {
            let mut b = Builder::new();
            let mut covered = 0;
            if let Some(pre) = self.prebuilt {
                let fits = pre.len() <= tools.len()
                    && tools
                        .iter()
                        .enumerate()
                        .take(pre.len())
                        .all(|(i, d)| pre.name(i) == Some(d.name));
                if fits {
                    b.add_index(*pre);
                    covered = pre.len();
                }
            }
            for d in &tools[covered..] {
                b.add(&document(d));
            }
            b.finish()
        })
    }

    /// The best `k` of `tools` for `query`.
    pub(crate) fn search(
        &self,
        tools: &[&'static ToolDescriptor],
        query: &str,
        k: usize,
    ) -> Vec<SearchHit> {
        let index = self.index(tools);
        index
            .as_ref()
            .search(query, k)
            .into_iter()
            .filter_map(|(d, score)| {
                Some(SearchHit {
                    tool: tools.get(d)?,
                    score,
                })
            })
            .collect()
    }
}

impl fmt::Debug for Searcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("prebuilt", &self.prebuilt.is_some())
            .field("built", &self.built.get().is_some())
            .finish()
    }
}
