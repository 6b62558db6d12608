//! `indistinguishable-tools`: tools of one agent that a model reading their names and
//! descriptions cannot tell apart, measured with the agent's search index (its words, and
//! the weight each word has in it).
//!
//! Two measures, each on the index's words (`toolc-search`: case and `_`/`-`/camelCase
//! folded, plurals and verb forms stemmed, common English words dropped):
//!
//! - **names**: two tools whose names are the same words in the same order (`list_ticket`
//!   and `list_tickets`);
//! - **descriptions**: the weighted Jaccard similarity of the two descriptions' word sets,
//!   each word weighing its inverse document frequency in the agent's index (the idf BM25
//!   ranks with): the weight of the words both descriptions use over the weight of the words
//!   either uses. Two descriptions are near-identical at [`THRESHOLD`] or above.
//!
//! Why not "each tool's description as a query ranks the other nearly as high as itself":
//! a tool's self-score also counts its name and parameters, so on the calibration sets
//! (docs/lint-rules.md) two tools with the very same description scored as little as 0.80
//! of each other, while distinct tools of one template reached 0.79; comparing descriptions
//! with descriptions and names with names separates them.

use toolc_search::IndexRef;

/// The similarity from which two descriptions are near-identical: nine tenths of the
/// weight of their words shared. Distinct tools stay well below it (at most 0.68 among the
/// 1,000 synthetic tools of one template, 0.07 in `manifests/`); what reaches it differs
/// by about one word in ten, weighed by how rare the words are in the agent.
pub const THRESHOLD: f64 = 0.9;

/// How two tools are alike.
#[derive(Debug, Clone, PartialEq)]
pub struct Alike {
    /// The earlier tool, by position in the agent (the index's document order).
    pub first: usize,
    /// The later one.
    pub second: usize,
    /// Whether the names are the same words.
    pub same_name: bool,
    /// The descriptions' similarity, when at or above [`THRESHOLD`].
    pub descriptions: Option<f64>,
}

/// The BM25 idf of `word` in `index` (a word it does not hold weighs as a word of one tool).
fn idf(index: &IndexRef<'_>, word: &str) -> f64 {
    let n = index.len() as f64;
    let df = index
        .find(word)
        .map_or(1, |t| index.postings(t).count().max(1)) as f64;
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln().max(0.0)
}

/// A description as weighted words, heaviest first.
struct Words {
    words: Vec<(String, f64)>,
    total: f64,
}

impl Words {
    fn of(text: &str, index: &IndexRef<'_>) -> Words {
        let mut words: Vec<String> = toolc_search::words(text);
        words.sort();
        words.dedup();
        let mut words: Vec<(String, f64)> = words
            .into_iter()
            .map(|w| {
                let weight = idf(index, &w);
                (w, weight)
            })
            .collect();
        words.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let total = words.iter().map(|(_, w)| w).sum();
        Words { words, total }
    }

    fn weight_of(&self, word: &str) -> Option<f64> {
        self.words.iter().find(|(w, _)| w == word).map(|(_, x)| *x)
    }

    /// The weighted Jaccard similarity with `other`.
    fn similarity(&self, other: &Words) -> f64 {
        let shared: f64 = self
            .words
            .iter()
            .filter(|(w, _)| other.weight_of(w).is_some())
            .map(|(_, x)| x)
            .sum();
        let union = self.total + other.total - shared;
        if union <= 0.0 { 0.0 } else { shared / union }
    }

    /// The heaviest words whose weight is more than what a description at [`THRESHOLD`] may
    /// lack: any description that near-identical has one of them. (The budget is shaved by a
    /// millionth, so rounding cannot leave out a word that decides.)
    fn prefix(&self) -> &[(String, f64)] {
        let budget = (1.0 - THRESHOLD) * self.total * (1.0 - 1e-6);
        let mut sum = 0.0;
        for (i, (_, w)) in self.words.iter().enumerate() {
            sum += w;
            if sum > budget {
                return &self.words[..=i];
            }
        }
        &self.words
    }
}

/// The pairs of `tools` (name, description), in the index's document order, that are alike:
/// for each tool, at most one pair, with the earliest tool it is alike to.
pub fn alike(tools: &[(&str, &str)], index: &IndexRef<'_>) -> Vec<Alike> {
    use std::collections::{BTreeMap, HashMap};
    let mut out = Vec::new();
    let mut by_name: HashMap<Vec<String>, usize> = HashMap::new();
    let mut by_word: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let described: Vec<Words> = tools.iter().map(|(_, d)| Words::of(d, index)).collect();
    for (i, (name, _)) in tools.iter().enumerate() {
        let words = toolc_search::words(name);
        let same_name = if words.is_empty() {
            None
        } else {
            match by_name.get(&words) {
                Some(&j) => Some(j),
                None => {
                    by_name.insert(words.clone(), i);
                    None
                }
            }
        };
        let mine = &described[i];
        let mut candidates: Vec<usize> = Vec::new();
        if mine.total > 0.0 {
            for (w, _) in mine.prefix() {
                if let Some(list) = by_word.get(w.as_str()) {
                    candidates.extend(list);
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let same_description = candidates.into_iter().find_map(|j| {
            let s = mine.similarity(&described[j]);
            (s >= THRESHOLD).then_some((j, s))
        });
        for (w, _) in &mine.words {
            by_word.entry(w.as_str()).or_default().push(i);
        }
        let first = match (same_name, same_description) {
            (Some(a), Some((b, _))) => a.min(b),
            (Some(a), None) => a,
            (None, Some((b, _))) => b,
            (None, None) => continue,
        };
        out.push(Alike {
            first,
            second: i,
            same_name: same_name == Some(first),
            descriptions: same_description
                .filter(|&(j, _)| j == first)
                .map(|(_, s)| s)
                .or_else(|| {
                    let s = mine.similarity(&described[first]);
                    (s >= THRESHOLD).then_some(s)
                }),
        });
    }
    out
}

#[cfg(test)]
/// The two tools of `tools` whose descriptions are most alike, and how alike (every pair
/// compared): for calibrating [`THRESHOLD`] and for tests that distinct tools stay below it.
pub fn closest_descriptions(
    tools: &[(&str, &str)],
    index: &IndexRef<'_>,
) -> Option<(f64, usize, usize)> {
    let words: Vec<Words> = tools.iter().map(|(_, d)| Words::of(d, index)).collect();
    let mut best: Option<(f64, usize, usize)> = None;
    for i in 0..words.len() {
        for j in 0..i {
            let s = words[i].similarity(&words[j]);
            if best.is_none_or(|(b, _, _)| s > b) {
                best = Some((s, j, i));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use toolc_search::{Builder, Document, Index};

    fn index(tools: &[(&str, &str)]) -> Index {
        let mut b = Builder::new();
        for (name, description) in tools {
            b.add(&Document::tool(name, None, description, "{}"));
        }
        b.finish()
    }

    /// Every pair compared, for each tool the earliest alike: what the pruned search must find.
    fn brute_force(tools: &[(&str, &str)], index: &IndexRef<'_>) -> Vec<Alike> {
        let words: Vec<Words> = tools.iter().map(|(_, d)| Words::of(d, index)).collect();
        let names: Vec<Vec<String>> = tools.iter().map(|(n, _)| toolc_search::words(n)).collect();
        let mut out = Vec::new();
        for i in 0..tools.len() {
            for j in 0..i {
                let same_name = !names[i].is_empty() && names[i] == names[j];
                let s = words[i].similarity(&words[j]);
                let descriptions = (words[i].total > 0.0 && s >= THRESHOLD).then_some(s);
                if same_name || descriptions.is_some() {
                    out.push(Alike {
                        first: j,
                        second: i,
                        same_name,
                        descriptions,
                    });
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn same_words_and_near_identical_descriptions() {
        let tools = [
            ("list_tickets", "List the open tickets of a customer."),
            ("close_ticket", "Close a ticket."),
            ("list_ticket", "Show one ticket with its replies."),
            ("find_tickets", "List the open tickets of the customer"),
            ("list_of_tickets", "List the open tickets of a customer."),
        ];
        let index = index(&tools);
        let found = alike(&tools, &index.as_ref());
        assert_eq!(found, brute_force(&tools, &index.as_ref()));
        let pairs: Vec<(usize, usize, bool, bool)> = found
            .iter()
            .map(|a| (a.first, a.second, a.same_name, a.descriptions.is_some()))
            .collect();
        assert_eq!(
            pairs,
            [(0, 2, true, false), (0, 3, false, true), (0, 4, true, true)]
        );
        assert_eq!(found[1].descriptions, Some(1.0));
    }

    #[test]
    fn wordless_names_and_descriptions_are_never_alike() {
        let tools = [("x", "..."), ("y", "..."), ("z", "")];
        let index = index(&tools);
        assert_eq!(alike(&tools, &index.as_ref()), vec![]);
    }

    proptest! {
        /// The candidates found through the heaviest words are all there are.
        #[test]
        fn pruning_finds_what_comparing_every_pair_finds(
            tools in proptest::collection::vec(
                (
                    proptest::sample::select(vec!["get_order", "get_orders", "list_order", "ship", "order_get"]),
                    proptest::collection::vec(
                        proptest::sample::select(vec![
                            "order", "orders", "ship", "shipped", "customer", "the", "of",
                            "refund", "carrier", "parcel", "today", "invoice", "zebra",
                        ]),
                        0..12,
                    ),
                ),
                0..14,
            )
        ) {
            let texts: Vec<(String, String)> =
                tools.iter().map(|(n, w)| (n.to_string(), w.join(" "))).collect();
            let tools: Vec<(&str, &str)> =
                texts.iter().map(|(n, d)| (n.as_str(), d.as_str())).collect();
            let index = index(&tools);
            prop_assert_eq!(alike(&tools, &index.as_ref()), brute_force(&tools, &index.as_ref()));
        }
    }
}
