//! Words out of names and prose: split at anything that is not a letter or digit, at `_` and
//! `-`, and at camelCase humps; lowercased; common English words dropped; folded to a stem.

/// Longest word kept, in bytes; longer ones are ids or hashes, not words a query repeats.
const MAX_WORD: usize = 48;

/// English words too common to tell tools apart.
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "all", "an", "and", "any", "are", "as", "at", "be", "been", "before",
    "being", "but", "by", "can", "could", "do", "does", "for", "from", "give", "given", "has",
    "have", "how", "i", "if", "in", "into", "is", "it", "its", "just", "let", "me", "my", "need",
    "of", "on", "one", "or", "our", "please", "should", "so", "some", "that", "the", "their",
    "them", "then", "there", "these", "this", "those", "to", "use", "using", "want", "was", "we",
    "what", "when", "where", "which", "who", "will", "with", "would", "you", "your",
];

/// Calls `f` with every word of `text`, in order, each lowercased and stemmed.
pub fn for_each_word(text: &str, mut f: impl FnMut(&str)) {
    let mut run: Vec<char> = Vec::new();
    let mut word = String::new();
    let mut stemmed = String::new();
    let mut flush = |run: &mut Vec<char>, f: &mut dyn FnMut(&str)| {
        let mut start = 0;
        while start < run.len() {
            let end = next_hump(run, start);
            let piece = &run[start..end];
            start = end;
            word.clear();
            for c in piece {
                word.extend(c.to_lowercase());
            }
            if word.len() > MAX_WORD || (word.len() == 1 && !word.as_bytes()[0].is_ascii_digit()) {
                continue;
            }
            if STOPWORDS.binary_search(&word.as_str()).is_ok() {
                continue;
            }
            stem_into(&word, &mut stemmed);
            f(&stemmed);
        }
        run.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            run.push(c);
        } else if !run.is_empty() {
            flush(&mut run, &mut f);
        }
    }
    if !run.is_empty() {
        flush(&mut run, &mut f);
    }
}

/// The words of `text` (see [`for_each_word`]).
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(text, |w| out.push(w.to_owned()));
    out
}

/// Where the piece of `run` that starts at `start` ends: at the next camelCase hump
/// (`listMeetings` → `list`, `Meetings`; `HTTPServer` → `HTTP`, `Server`; `ipv4Address` →
/// `ipv4`, `Address`) or at the end.
fn next_hump(run: &[char], start: usize) -> usize {
    for i in start + 1..run.len() {
        let (prev, cur) = (run[i - 1], run[i]);
        let next_lower = run.get(i + 1).is_some_and(|c| c.is_lowercase());
        let split = cur.is_uppercase()
            && (prev.is_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_uppercase() && next_lower));
        if split {
            return i;
        }
    }
    run.len()
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// A light English stemmer: plurals, `-ing`, `-ed`, `-ion` after `t`/`s`, and a final `e`,
/// so `creates`, `created`, `creating`, `creation` and `create` all become `creat`. Words
/// that are not ASCII, or of three letters or fewer, are kept as they are.
pub fn stem(word: &str) -> String {
    let mut out = String::new();
    stem_into(word, &mut out);
    out
}

/// [`stem`] into `out` (cleared first), reusing its allocation.
fn stem_into(word: &str, out: &mut String) {
    out.clear();
    if !word.is_ascii() || word.len() <= 3 || word.bytes().any(|b| b.is_ascii_digit()) {
        out.push_str(word);
        return;
    }
    let mut buf = std::mem::take(out).into_bytes();
    buf.extend_from_slice(word.as_bytes());
    let s = &mut buf;
    let ends = |s: &[u8], suffix: &str| s.ends_with(suffix.as_bytes());
    // Plurals and third person.
    if ends(s, "sses") {
        s.truncate(s.len() - 2);
    } else if ends(s, "ies") && s.len() > 4 {
        s.truncate(s.len() - 3);
        s.push(b'y');
    } else if ends(s, "s") && !ends(s, "ss") && !ends(s, "us") && !ends(s, "is") {
        s.pop();
    }
    // Verb forms.
    let has_vowel = |s: &[u8]| s.iter().copied().any(is_vowel);
    if ends(s, "ied") && s.len() > 4 {
        s.truncate(s.len() - 3);
        s.push(b'y');
    } else if ends(s, "ing") && s.len() >= 6 && has_vowel(&s[..s.len() - 3]) {
        s.truncate(s.len() - 3);
        undouble(s);
    } else if ends(s, "ed") && s.len() >= 5 && has_vowel(&s[..s.len() - 2]) {
        s.truncate(s.len() - 2);
        undouble(s);
    } else if (ends(s, "tion") || ends(s, "sion")) && s.len() >= 7 {
        s.truncate(s.len() - 3);
    }
    if s.len() > 4 && s.last() == Some(&b'e') {
        s.pop();
    }
    // Only ASCII bytes were removed from an ASCII word, or `y` pushed.
    *out = String::from_utf8(buf).unwrap_or_else(|_| word.to_owned());
}

/// `runn` → `run`, `stopp` → `stop`; `call`, `pass`, `buzz` and three-letter stems stay.
fn undouble(s: &mut Vec<u8>) {
    let n = s.len();
    if n >= 4
        && s[n - 1] == s[n - 2]
        && !is_vowel(s[n - 1])
        && !matches!(s[n - 1], b'l' | b's' | b'z')
    {
        s.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_are_sorted() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(words("list_meetings"), ["list", "meet"]);
        assert_eq!(words("listMeetings"), ["list", "meet"]);
        assert_eq!(words("get-user-by-id"), ["get", "user", "id"]);
        assert_eq!(words("HTTPServerError"), ["http", "server", "error"]);
        assert_eq!(words("ipv4Address"), ["ipv4", "address"]);
        assert_eq!(words("The tickets of a customer."), ["ticket", "customer"]);
        assert_eq!(words("Ünïcode Straße"), ["ünïcode", "straße"]);
        assert_eq!(words(""), Vec::<String>::new());
        assert_eq!(words("__ -- !!"), Vec::<String>::new());
    }

    #[test]
    fn word_forms_share_a_stem() {
        for group in [
            &["create", "creates", "created", "creating", "creation"][..],
            &["delete", "deletes", "deleted", "deleting", "deletion"],
            &["update", "updates", "updated", "updating"],
            &["run", "runs", "running"],
            &["stop", "stops", "stopped", "stopping"],
            &["query", "queries", "queried"],
            &["meeting", "meetings"],
            &["list", "lists", "listed", "listing"],
            &["call", "calls", "called"],
            &["pass", "passes", "passed"],
            &["add", "adds", "added", "adding"],
            &["invoice", "invoices"],
        ] {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            assert!(
                stems.iter().all(|s| *s == stems[0]),
                "{group:?} → {stems:?}"
            );
        }
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("analysis"), "analysis");
    }

    #[test]
    fn long_runs_and_odd_text_never_panic() {
        let long = "a".repeat(10_000);
        assert!(words(&long).is_empty());
        let odd = "İ\u{0307}ǅ\u{10FFFF}ÆaBbCc1D2\u{200B}x";
        let _ = words(odd);
        for s in [
            "ied", "ies", "sses", "eds", "ings", "ing", "ed", "ion", "tion",
        ] {
            let _ = stem(s);
        }
    }
}
