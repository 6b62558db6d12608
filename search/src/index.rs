//! The index: documents (one per tool) as weighted word counts, inverted into postings.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::text::for_each_word;

/// The version of the words and weights an index was built with. An index whose version
/// differs from this crate's was built by another tokenizer and must be rebuilt, never
/// queried (its words would not meet the query's).
pub const VERSION: u32 = 1;

/// Where a word stands in a tool, and what it weighs there: a word of the name counts three
/// times, of the title or a parameter's name twice, of a description once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The tool's name.
    Name,
    /// Its human title.
    Title,
    /// Its description.
    Description,
    /// A parameter's name (at any depth of the parameters schema).
    ParameterName,
    /// A parameter's description.
    ParameterDescription,
}

impl Field {
    /// How many times a word of this field counts.
    pub const fn weight(self) -> u32 {
        match self {
            Field::Name => 3,
            Field::Title | Field::ParameterName => 2,
            Field::Description | Field::ParameterDescription => 1,
        }
    }
}

/// One tool's words, weighted by field: what the index holds of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    name: String,
    counts: BTreeMap<String, u32>,
    length: u32,
}

/// How deep [`Document::tool`] looks into a parameters schema for parameter names.
const MAX_PARAMETER_DEPTH: usize = 6;

impl Document {
    /// An empty document for the tool called `name` (its name's words not yet added).
    pub fn new(name: impl Into<String>) -> Document {
        Document {
            name: name.into(),
            counts: BTreeMap::new(),
            length: 0,
        }
    }

    /// The document of a tool, the one definition the compiler (at build time) and the
    /// runtime (for tools registered at run time) both use: the name, the title, the
    /// description, and every property name and description of the parameters schema
    /// (`input_schema`, JSON text; skipped if it does not parse).
    pub fn tool(
        name: &str,
        title: Option<&str>,
        description: &str,
        input_schema: &str,
    ) -> Document {
        let schema = serde_json::from_str::<Value>(input_schema).unwrap_or(Value::Null);
        Document::tool_with_schema(name, title, description, &schema)
    }

    /// [`Document::tool`] with the parameters schema as a JSON value (what the compiler has):
    /// the same document as `tool` makes from the value's text.
    pub fn tool_with_schema(
        name: &str,
        title: Option<&str>,
        description: &str,
        input_schema: &Value,
    ) -> Document {
        let mut doc = Document::new(name);
        doc.add(Field::Name, name);
        if let Some(title) = title {
            doc.add(Field::Title, title);
        }
        doc.add(Field::Description, description);
        doc.add_parameters(input_schema, 0);
        doc
    }

    fn add_parameters(&mut self, schema: &Value, depth: usize) {
        if depth > MAX_PARAMETER_DEPTH {
            return;
        }
        let Value::Object(map) = schema else {
            return;
        };
        if let Some(Value::Object(props)) = map.get("properties") {
            for (name, prop) in props {
                self.add(Field::ParameterName, name);
                if let Some(Value::String(d)) = prop.get("description") {
                    self.add(Field::ParameterDescription, d);
                }
                self.add_parameters(prop, depth + 1);
            }
        }
        if let Some(items) = map.get("items") {
            self.add_parameters(items, depth + 1);
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                for b in branches {
                    self.add_parameters(b, depth + 1);
                }
            }
        }
    }

    /// Adds the words of `text` as words of `field`.
    pub fn add(&mut self, field: Field, text: &str) {
        let weight = field.weight();
        for_each_word(text, |w| {
            match self.counts.get_mut(w) {
                Some(count) => *count = count.saturating_add(weight),
                None => {
                    self.counts.insert(w.to_owned(), weight);
                }
            }
            self.length = self.length.saturating_add(weight);
        });
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its words with their weighted counts, in word order.
    pub fn counts(&self) -> impl Iterator<Item = (&str, u32)> {
        self.counts.iter().map(|(w, c)| (w.as_str(), *c))
    }
}

/// An index, borrowed: what generated code holds as `static` tables (see
/// [`IndexRef::from_static`]) and what an [`Index`] built at run time lends.
///
/// Document `d` is the tool named `names[name_ends[d-1]..name_ends[d]]` (0 for `d-1` when
/// `d == 0`), of weighted length `doc_lengths[d]`. Term `t` is
/// `terms[term_ends[t-1]..term_ends[t]]`, terms sorted by their bytes; its postings are
/// `posting_docs[i]` / `posting_counts[i]` for `i` in `posting_ends[t-1]..posting_ends[t]`,
/// by ascending document.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct IndexRef<'a> {
    version: u32,
    names: &'a str,
    name_ends: &'a [u32],
    doc_lengths: &'a [u32],
    terms: &'a str,
    term_ends: &'a [u32],
    posting_ends: &'a [u32],
    posting_docs: &'a [u32],
    posting_counts: &'a [u32],
}

/// Why an index's tables do not fit together (a hand-made or corrupted index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexError(String);

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the search index is inconsistent: {}", self.0)
    }
}

impl std::error::Error for IndexError {}

/// Splits `text` at `ends`: piece `i` or `None` when the tables do not fit.
fn piece<'a>(text: &'a str, ends: &[u32], i: usize) -> Option<&'a str> {
    let start = if i == 0 {
        0
    } else {
        *ends.get(i - 1)? as usize
    };
    let end = *ends.get(i)? as usize;
    text.get(start..end)
}

fn range(ends: &[u32], i: usize) -> Option<std::ops::Range<usize>> {
    let start = if i == 0 {
        0
    } else {
        *ends.get(i - 1)? as usize
    };
    let end = *ends.get(i)? as usize;
    (start <= end).then_some(start..end)
}

impl<'a> IndexRef<'a> {
    /// The index made of these tables (see the type's documentation for their layout);
    /// `const`, for generated `static`s. [`IndexRef::check`] says whether they fit together.
    #[allow(clippy::too_many_arguments)]
    pub const fn from_static(
        version: u32,
        names: &'a str,
        name_ends: &'a [u32],
        doc_lengths: &'a [u32],
        terms: &'a str,
        term_ends: &'a [u32],
        posting_ends: &'a [u32],
        posting_docs: &'a [u32],
        posting_counts: &'a [u32],
    ) -> IndexRef<'a> {
        IndexRef {
            version,
            names,
            name_ends,
            doc_lengths,
            terms,
            term_ends,
            posting_ends,
            posting_docs,
            posting_counts,
        }
    }

    /// The [`VERSION`] it was built with.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// How many documents (tools) it holds.
    pub fn len(&self) -> usize {
        self.name_ends.len()
    }

    /// Whether it holds no documents.
    pub fn is_empty(&self) -> bool {
        self.name_ends.is_empty()
    }

    /// The name of document `d`.
    pub fn name(&self, d: usize) -> Option<&'a str> {
        piece(self.names, self.name_ends, d)
    }

    /// How many distinct terms it holds.
    pub fn term_count(&self) -> usize {
        self.term_ends.len()
    }

    /// Term `t`.
    pub fn term(&self, t: usize) -> Option<&'a str> {
        piece(self.terms, self.term_ends, t)
    }

    /// The postings of term `t`: (document, weighted count).
    pub fn postings(&self, t: usize) -> impl Iterator<Item = (u32, u32)> + 'a {
        let r = range(self.posting_ends, t).unwrap_or(0..0);
        let docs = self.posting_docs.get(r.clone()).unwrap_or(&[]);
        let counts = self.posting_counts.get(r).unwrap_or(&[]);
        docs.iter().copied().zip(counts.iter().copied())
    }

    /// The index of `term`, if it holds it.
    pub fn find(&self, term: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.term_ends.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let t = self.term(mid)?;
            match t.as_bytes().cmp(term.as_bytes()) {
                std::cmp::Ordering::Equal => return Some(mid),
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
            }
        }
        None
    }

    /// Whether the tables fit together: same version, every offset in bounds and on a
    /// character boundary, terms sorted and distinct, postings by ascending document. Search
    /// never panics on an index that fails this; it just finds less.
    pub fn check(&self) -> Result<(), IndexError> {
        let bad = |what: String| Err(IndexError(what));
        if self.version != VERSION {
            return bad(format!(
                "it was built by tokenizer version {}, this one is {VERSION}",
                self.version
            ));
        }
        let n = self.len();
        if self.doc_lengths.len() != n {
            return bad(format!("{n} names but {} lengths", self.doc_lengths.len()));
        }
        for d in 0..n {
            if self.name(d).is_none() {
                return bad(format!("name {d} is out of bounds"));
            }
        }
        if self.posting_ends.len() != self.term_ends.len() {
            return bad("as many posting lists as terms are needed".to_owned());
        }
        if self.posting_docs.len() != self.posting_counts.len() {
            return bad("posting documents and counts differ in number".to_owned());
        }
        let mut previous: Option<&str> = None;
        for t in 0..self.term_count() {
            let Some(term) = self.term(t) else {
                return bad(format!("term {t} is out of bounds"));
            };
            if previous.is_some_and(|p| p.as_bytes() >= term.as_bytes()) {
                return bad(format!("terms are not sorted at {term:?}"));
            }
            previous = Some(term);
            let Some(r) = range(self.posting_ends, t) else {
                return bad(format!("the postings of {term:?} are out of order"));
            };
            if r.end > self.posting_docs.len() {
                return bad(format!("the postings of {term:?} are out of bounds"));
            }
            let docs = &self.posting_docs[r];
            if docs.iter().any(|&d| d as usize >= n) || docs.windows(2).any(|w| w[0] >= w[1]) {
                return bad(format!(
                    "the postings of {term:?} are not ascending documents"
                ));
            }
        }
        Ok(())
    }

    /// The documents matching `query`, best first, at most `k`: (document, score). The same as
    /// [`search`] over this index alone.
    pub fn search(&self, query: &str, k: usize) -> Vec<(usize, f64)> {
        search(&[*self], query, k)
    }

    /// The weighted length of document `d`.
    pub fn doc_length(&self, d: usize) -> Option<u32> {
        self.doc_lengths.get(d).copied()
    }
}

/// Distinct query words looked up at most: a query longer than that is truncated.
const MAX_QUERY_WORDS: usize = 256;

/// The distinct words of `query`, in order, at most [`MAX_QUERY_WORDS`].
fn query_words(query: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for_each_word(query, |w| {
        if words.len() < MAX_QUERY_WORDS && !words.iter().any(|x| x == w) {
            words.push(w.to_owned());
        }
    });
    words
}

/// The BM25 score of every document of `parts` for `query`, documents numbered across the
/// parts in order (the first part's, then the second's, ...), as if the parts were one index
/// holding all their documents: the document count, each word's document frequency and the
/// average length are taken over all parts.
///
/// Okapi BM25 (k1 = 1.2, b = 0.75) over the field-weighted counts, with the smoothed idf
/// `ln(1 + (N - df + 0.5) / (df + 0.5))`, so scores are never negative. Each distinct query
/// word counts once.
pub fn scores(parts: &[IndexRef<'_>], query: &str) -> Vec<f64> {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;
    let n: usize = parts.iter().map(IndexRef::len).sum();
    let mut scores = vec![0.0f64; n];
    if n == 0 {
        return scores;
    }
    let total: u64 = parts
        .iter()
        .flat_map(|p| p.doc_lengths.iter())
        .map(|&l| u64::from(l))
        .sum();
    let avgdl = (total as f64 / n as f64).max(1.0);
    for word in query_words(query) {
        let found: Vec<Option<usize>> = parts.iter().map(|p| p.find(&word)).collect();
        let df: usize = parts
            .iter()
            .zip(&found)
            .filter_map(|(p, t)| t.map(|t| p.postings(t).count()))
            .sum();
        if df == 0 {
            continue;
        }
        let df = df as f64;
        let idf = (1.0 + (n as f64 - df + 0.5) / (df + 0.5)).ln();
        let mut base = 0;
        for (p, t) in parts.iter().zip(&found) {
            if let Some(t) = *t {
                for (d, tf) in p.postings(t) {
                    let d = d as usize;
                    // A posting past the part's own documents (an inconsistent index) would
                    // land on the next part's: it is skipped.
                    if d >= p.len() {
                        continue;
                    }
                    let (Some(score), Some(&dl)) = (scores.get_mut(base + d), p.doc_lengths.get(d))
                    else {
                        continue;
                    };
                    let tf = f64::from(tf);
                    let norm = K1 * (1.0 - B + B * f64::from(dl) / avgdl);
                    *score += idf * tf * (K1 + 1.0) / (tf + norm);
                }
            }
            base += p.len();
        }
    }
    scores
}

/// The documents of `parts` matching `query`, best first, at most `k`: (document, score),
/// documents numbered across the parts in order. Scores are [`scores`]'s, so searching an
/// index built at compile time and one built at run time together ranks exactly as one
/// index built of both would; ties go to the earlier document.
pub fn search(parts: &[IndexRef<'_>], query: &str, k: usize) -> Vec<(usize, f64)> {
    if k == 0 || parts.iter().all(IndexRef::is_empty) {
        return Vec::new();
    }
    let mut hits: Vec<(usize, f64)> = scores(parts, query)
        .into_iter()
        .enumerate()
        .filter(|(_, s)| *s > 0.0)
        .collect();
    let by_rank = |a: &(usize, f64), b: &(usize, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if hits.len() > k {
        hits.select_nth_unstable_by(k - 1, by_rank);
        hits.truncate(k);
    }
    hits.sort_by(by_rank);
    hits
}

impl fmt::Debug for IndexRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexRef")
            .field("version", &self.version)
            .field("documents", &self.len())
            .field("terms", &self.term_count())
            .field("postings", &self.posting_docs.len())
            .finish()
    }
}

/// An index built at run time (or by the compiler, which then writes its tables out as
/// `static`s): the owner of the tables an [`IndexRef`] lends.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Index {
    names: String,
    name_ends: Vec<u32>,
    doc_lengths: Vec<u32>,
    terms: String,
    term_ends: Vec<u32>,
    posting_ends: Vec<u32>,
    posting_docs: Vec<u32>,
    posting_counts: Vec<u32>,
}

impl Index {
    /// The tables, borrowed.
    pub fn as_ref(&self) -> IndexRef<'_> {
        IndexRef {
            version: VERSION,
            names: &self.names,
            name_ends: &self.name_ends,
            doc_lengths: &self.doc_lengths,
            terms: &self.terms,
            term_ends: &self.term_ends,
            posting_ends: &self.posting_ends,
            posting_docs: &self.posting_docs,
            posting_counts: &self.posting_counts,
        }
    }

    /// The tables, in the order [`IndexRef::from_static`] takes them after the version:
    /// names, name ends, document lengths, terms, term ends, posting ends, posting documents,
    /// posting counts. What the compiler writes out.
    #[allow(clippy::type_complexity)]
    pub fn tables(&self) -> (&str, &[u32], &[u32], &str, &[u32], &[u32], &[u32], &[u32]) {
        (
            &self.names,
            &self.name_ends,
            &self.doc_lengths,
            &self.terms,
            &self.term_ends,
            &self.posting_ends,
            &self.posting_docs,
            &self.posting_counts,
        )
    }
}

impl fmt::Debug for Index {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_ref(), f)
    }
}

/// Builds an [`Index`] from documents, and from other indexes without tokenizing their
/// tools again (an agent's generated index plus the tools registered at run time).
#[derive(Debug, Default)]
pub struct Builder {
    names: Vec<String>,
    lengths: Vec<u32>,
    postings: BTreeMap<String, Vec<(u32, u32)>>,
}

impl Builder {
    /// An empty builder.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// How many documents it holds so far.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether it holds no documents yet.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Appends a document.
    pub fn add(&mut self, doc: &Document) {
        let d = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.push(doc.name.clone());
        self.lengths.push(doc.length);
        for (word, count) in &doc.counts {
            match self.postings.get_mut(word) {
                Some(list) => list.push((d, *count)),
                None => {
                    self.postings.insert(word.clone(), vec![(d, *count)]);
                }
            }
        }
    }

    /// Appends every document of `index`, in its order, with its words as they are.
    pub fn add_index(&mut self, index: IndexRef<'_>) {
        let base = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        for d in 0..index.len() {
            self.names
                .push(index.name(d).unwrap_or_default().to_owned());
            self.lengths
                .push(index.doc_lengths.get(d).copied().unwrap_or_default());
        }
        let n = index.len();
        for t in 0..index.term_count() {
            let Some(term) = index.term(t) else { continue };
            let list = self.postings.entry(term.to_owned()).or_default();
            for (d, count) in index.postings(t) {
                if (d as usize) < n {
                    list.push((base.saturating_add(d), count));
                }
            }
        }
    }

    /// The index of everything added, documents in the order added.
    pub fn finish(self) -> Index {
        let mut index = Index::default();
        for name in &self.names {
            index.names.push_str(name);
            index.name_ends.push(len_u32(&index.names));
        }
        index.doc_lengths = self.lengths;
        for (term, mut list) in self.postings {
            list.sort_unstable_by_key(|&(d, _)| d);
            list.dedup_by_key(|&mut (d, _)| d);
            index.terms.push_str(&term);
            index.term_ends.push(len_u32(&index.terms));
            for (d, c) in list {
                index.posting_docs.push(d);
                index.posting_counts.push(c);
            }
            index
                .posting_ends
                .push(u32::try_from(index.posting_docs.len()).unwrap_or(u32::MAX));
        }
        index
    }
}

fn len_u32(s: &str) -> u32 {
    u32::try_from(s.len()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs() -> Vec<Document> {
        vec![
            Document::tool(
                "list_meetings",
                Some("Meetings"),
                "List meetings for a day",
                r#"{"type":"object","properties":{"day":{"type":"string","description":"ISO date"}}}"#,
            ),
            Document::tool("lookup_order", None, "Look up an order by its id", "{}"),
            Document::tool(
                "cancel_order",
                None,
                "Cancel an order before it ships",
                "not json",
            ),
        ]
    }

    #[test]
    fn fields_weigh_what_they_say() {
        let d = &docs()[0];
        let counts: BTreeMap<&str, u32> = d.counts().collect();
        // name 3 + title 2 + description 1
        assert_eq!(counts["meet"], 6);
        assert_eq!(counts["list"], 3 + 1);
        // parameter name 2, its description 1
        assert_eq!(counts["day"], 2 + 1);
        assert_eq!(counts["iso"], 1);
    }

    #[test]
    fn merging_indexes_equals_building_at_once() {
        let all = docs();
        let mut at_once = Builder::new();
        all.iter().for_each(|d| at_once.add(d));
        let at_once = at_once.finish();

        let mut first = Builder::new();
        all[..2].iter().for_each(|d| first.add(d));
        let first = first.finish();
        let mut merged = Builder::new();
        merged.add_index(first.as_ref());
        merged.add(&all[2]);
        assert_eq!(merged.finish(), at_once);
        assert_eq!(at_once.as_ref().check(), Ok(()));
    }

    #[test]
    fn searching_parts_ranks_exactly_as_their_merged_index() {
        let mut all = docs();
        all.push(Document::tool(
            "ship_order",
            Some("Ship"),
            "Ship an order to its customer",
            r#"{"properties":{"order_id":{"description":"The order"}}}"#,
        ));
        let mut merged = Builder::new();
        all.iter().for_each(|d| merged.add(d));
        let merged = merged.finish();
        for split in 0..=all.len() {
            let mut first = Builder::new();
            all[..split].iter().for_each(|d| first.add(d));
            let first = first.finish();
            let mut second = Builder::new();
            all[split..].iter().for_each(|d| second.add(d));
            let second = second.finish();
            for q in [
                "order",
                "cancel my order",
                "ship the order to the customer",
                "meetings day",
                "",
            ] {
                for k in [0, 1, 2, 10] {
                    assert_eq!(
                        search(&[first.as_ref(), second.as_ref()], q, k),
                        merged.as_ref().search(q, k),
                        "{q:?} split at {split}, k {k}"
                    );
                }
                assert_eq!(
                    scores(&[first.as_ref(), second.as_ref()], q),
                    scores(&[merged.as_ref()], q)
                );
            }
        }
        assert_eq!(search(&[], "order", 5), vec![]);
        assert_eq!(scores(&[], "order"), Vec::<f64>::new());
    }

    #[test]
    fn ranking_prefers_the_tool_the_words_describe() {
        let mut b = Builder::new();
        docs().iter().for_each(|d| b.add(d));
        let index = b.finish();
        let r = index.as_ref();
        let top = |q: &str| r.search(q, 3).first().and_then(|&(d, _)| r.name(d));
        assert_eq!(top("cancel my order"), Some("cancel_order"));
        assert_eq!(top("lookupOrder"), Some("lookup_order"));
        assert_eq!(top("meetings on a date"), Some("list_meetings"));
        assert_eq!(r.search("", 3), vec![]);
        assert_eq!(r.search("order", 0), vec![]);
        assert_eq!(r.search("order", 10).len(), 2);
    }

    #[test]
    fn inconsistent_tables_are_found_and_never_panic() {
        let mut b = Builder::new();
        docs().iter().for_each(|d| b.add(d));
        let index = b.finish();
        let (names, name_ends, lengths, terms, term_ends, posting_ends, pdocs, counts) =
            index.tables();
        let good = IndexRef::from_static(
            VERSION,
            names,
            name_ends,
            lengths,
            terms,
            term_ends,
            posting_ends,
            pdocs,
            counts,
        );
        assert_eq!(good.check(), Ok(()));
        let bad_docs: Vec<u32> = pdocs.iter().map(|d| d + 100).collect();
        let short_ends = &term_ends[..term_ends.len() - 1];
        let huge_ends: Vec<u32> = posting_ends.iter().map(|e| e + 1000).collect();
        let cases = [
            IndexRef::from_static(
                VERSION + 1,
                names,
                name_ends,
                lengths,
                terms,
                term_ends,
                posting_ends,
                pdocs,
                counts,
            ),
            IndexRef::from_static(
                VERSION,
                names,
                name_ends,
                &lengths[1..],
                terms,
                term_ends,
                posting_ends,
                pdocs,
                counts,
            ),
            IndexRef::from_static(
                VERSION,
                names,
                name_ends,
                lengths,
                terms,
                term_ends,
                posting_ends,
                &bad_docs,
                counts,
            ),
            IndexRef::from_static(
                VERSION,
                names,
                name_ends,
                lengths,
                terms,
                short_ends,
                posting_ends,
                pdocs,
                counts,
            ),
            IndexRef::from_static(
                VERSION, names, name_ends, lengths, terms, term_ends, &huge_ends, pdocs, counts,
            ),
            IndexRef::from_static(
                VERSION,
                "",
                name_ends,
                lengths,
                "",
                term_ends,
                posting_ends,
                pdocs,
                counts,
            ),
        ];
        for bad in cases {
            assert!(bad.check().is_err(), "{bad:?}");
            for q in ["order", "meetings", "cancel lookup list"] {
                let _ = bad.search(q, 5);
            }
            let mut b = Builder::new();
            b.add_index(bad);
            let _ = b.finish().as_ref().search("order", 5);
        }
    }
}
