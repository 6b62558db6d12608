//! Rust variant names for enum values and union tags: distinct and readable
//! for any set of values, never refused. The wire value is kept by
//! `#[serde(rename)]`, so the name is free to differ from it.

use crate::model::names::pascal_ident;

/// The readable name of one value: its words in PascalCase (`in-transit` →
/// `InTransit`), `V` before a leading digit, `Empty` for the empty string.
fn plain(value: &str) -> String {
    let cleaned: String = value
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect();
    named(&pascal_ident(cleaned.trim()))
}

/// The spelled-out name of one value: punctuation that is not a separator
/// between two words becomes a word of its own (`+1` → `Plus1`, `-1` →
/// `Minus1`), and a character beyond ASCII its code point (`é` → `Ue9`).
fn spelled(value: &str) -> String {
    let chars: Vec<char> = value.chars().collect();
    let mut words = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            words.push(c);
            continue;
        }
        let between_words = i > 0
            && chars[i - 1].is_ascii_alphanumeric()
            && chars.get(i + 1).is_some_and(char::is_ascii_alphanumeric);
        if between_words && matches!(c, '-' | '_' | ' ' | '.' | '/' | ':') {
            words.push(' ');
            continue;
        }
        let word = match c {
            '+' => "plus".to_string(),
            '-' => "minus".to_string(),
            '.' => "dot".to_string(),
            '_' => "underscore".to_string(),
            ' ' => "space".to_string(),
            '/' => "slash".to_string(),
            '\\' => "backslash".to_string(),
            ':' => "colon".to_string(),
            '*' => "star".to_string(),
            '@' => "at".to_string(),
            '#' => "hash".to_string(),
            '&' => "and".to_string(),
            '%' => "percent".to_string(),
            '!' => "bang".to_string(),
            '?' => "question".to_string(),
            '=' => "eq".to_string(),
            '<' => "lt".to_string(),
            '>' => "gt".to_string(),
            '~' => "tilde".to_string(),
            '$' => "dollar".to_string(),
            '^' => "caret".to_string(),
            '|' => "pipe".to_string(),
            ',' => "comma".to_string(),
            ';' => "semicolon".to_string(),
            '\'' | '"' | '`' => "quote".to_string(),
            '(' | '[' | '{' => "open".to_string(),
            ')' | ']' | '}' => "close".to_string(),
            c => format!("u{:x}", c as u32),
        };
        words.push(' ');
        words.push_str(&word);
        words.push(' ');
    }
    named(&pascal_ident(words.trim()))
}

/// An identifier usable as a variant: no leading digit,
/// not `Self`, never empty.
fn named(p: &str) -> String {
    let p = p.trim_start_matches('_');
    if p.is_empty() {
        "Empty".to_string()
    } else if p.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{p}")
    } else if p == "Self_" || p == "Self" {
        "SelfValue".to_string()
    } else {
        p.to_string()
    }
}

/// A variant name for each value, in order: the readable name where it is
/// distinct, the spelled-out name where readable names collide, and a
/// number after it as the last resort. The same values give the same names.
pub fn variant_idents<S: AsRef<str>>(values: &[S]) -> Vec<String> {
    let plain: Vec<String> = values.iter().map(|v| plain(v.as_ref())).collect();
    let mut names: Vec<String> = plain
        .iter()
        .zip(values)
        .map(|(p, v)| {
            if plain.iter().filter(|q| *q == p).count() > 1 {
                spelled(v.as_ref())
            } else {
                p.clone()
            }
        })
        .collect();
    let mut taken = std::collections::BTreeSet::new();
    for name in names.iter_mut() {
        if !taken.insert(name.clone()) {
            let base = name.clone();
            let mut n = 2;
            while taken.contains(&format!("{base}{n}")) {
                n += 1;
            }
            *name = format!("{base}{n}");
            taken.insert(name.clone());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::variant_idents;

    #[test]
    fn readable_where_distinct() {
        assert_eq!(
            variant_idents(&["open", "in-transit", "2x", "", "self", "type"]),
            ["Open", "InTransit", "V2x", "Empty", "SelfValue", "Type"]
        );
    }

    #[test]
    fn punctuation_is_spelled_where_names_collide() {
        assert_eq!(variant_idents(&["+1", "-1"]), ["Plus1", "Minus1"]);
        assert_eq!(
            variant_idents(&["reactions-+1", "reactions--1", "reactions-heart"]),
            [
                "ReactionsMinusPlus1",
                "ReactionsMinusMinus1",
                "ReactionsHeart"
            ]
        );
        assert_eq!(variant_idents(&["a.b", "a_b", "ab"]), ["AB", "AB2", "Ab"]);
    }

    #[test]
    fn case_only_and_unicode_differences_stay_distinct() {
        let names = variant_idents(&["on", "ON", "On", "é", "è", "ü", "", "  "]);
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{names:?}");
        assert_eq!(names[3], "Ue9");
        // Deterministic.
        assert_eq!(
            names,
            variant_idents(&["on", "ON", "On", "é", "è", "ü", "", "  "])
        );
    }
}
