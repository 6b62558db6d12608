//! Strings a `pattern` matches, for the mock's generated values: the pattern parsed by
//! `regex-syntax` (the parser of the `regex` crate the validator matches with) and walked,
//! each piece giving text it matches. The validator still judges the whole value: a pattern
//! with a word boundary, or lengths besides, may need several draws.

use super::rng::Rng;
use regex_syntax::hir::{Class, Hir, HirKind};

/// A string `pattern` matches, drawn from `rng` (`minimal`: the fewest repetitions and the
/// first alternatives); `None` when the pattern does not parse.
pub fn generate(pattern: &str, rng: &mut Rng, minimal: bool) -> Option<String> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    let mut out = String::new();
    walk(&hir, rng, minimal, &mut out, 0)?;
    Some(out)
}

/// Repetitions drawn past a piece's least count, at most.
const EXTRA: u32 = 3;

fn walk(hir: &Hir, rng: &mut Rng, minimal: bool, out: &mut String, depth: usize) -> Option<()> {
    if depth > 64 || out.len() > 4096 {
        return None;
    }
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.push_str(std::str::from_utf8(&lit.0).ok()?),
        HirKind::Class(Class::Unicode(class)) => {
            let ranges: Vec<(char, char)> = class
                .ranges()
                .iter()
                .map(|r| (r.start(), r.end()))
                .collect();
            out.push(pick(&ranges, rng, minimal)?);
        }
        HirKind::Class(Class::Bytes(class)) => {
            let ranges: Vec<(char, char)> = class
                .ranges()
                .iter()
                .filter(|r| r.start() < 0x80)
                .map(|r| (char::from(r.start()), char::from(r.end().min(0x7f))))
                .collect();
            out.push(pick(&ranges, rng, minimal)?);
        }
        HirKind::Repetition(rep) => {
            let most = rep.max.unwrap_or(rep.min.saturating_add(EXTRA));
            let count = if minimal {
                rep.min
            } else {
                let extra = most.saturating_sub(rep.min).min(EXTRA);
                rep.min + rng.below(u64::from(extra) + 1) as u32
            };
            for _ in 0..count {
                walk(&rep.sub, rng, minimal, out, depth + 1)?;
            }
        }
        HirKind::Capture(cap) => walk(&cap.sub, rng, minimal, out, depth + 1)?,
        HirKind::Concat(parts) => {
            for p in parts {
                walk(p, rng, minimal, out, depth + 1)?;
            }
        }
        HirKind::Alternation(branches) => {
            let i = if minimal {
                0
            } else {
                rng.below(branches.len() as u64) as usize
            };
            walk(branches.get(i)?, rng, minimal, out, depth + 1)?;
        }
    }
    Some(())
}

/// A character of the ranges: a printable ASCII one where the ranges have some (`\d`, `\w`
/// and `.` are Unicode classes), else any.
fn pick(ranges: &[(char, char)], rng: &mut Rng, minimal: bool) -> Option<char> {
    let printable: Vec<(char, char)> = ranges
        .iter()
        .filter_map(|&(a, b)| {
            let a = a.max('!');
            let b = b.min('~');
            (a <= b).then_some((a, b))
        })
        .collect();
    let from = if printable.is_empty() {
        ranges
    } else {
        &printable[..]
    };
    let (a, b) = if minimal {
        *from.first()?
    } else {
        from[rng.below(from.len() as u64) as usize]
    };
    let span = u64::from(b) - u64::from(a);
    let offset = if minimal { 0 } else { rng.below(span + 1) };
    // A surrogate in a wide range is no char: its range's start is.
    char::from_u32(u32::from(a) + offset as u32).or(Some(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_strings_match_their_pattern() {
        for pattern in [
            "^[A-Z]{3}-\\d{4}$",
            "^(foo|bar)+baz?$",
            "^\\w+@\\w+\\.(com|org)$",
            "^[^a-z]{2,5}$",
            "^\\p{Greek}+$",
            "x*",
            "^.{3}$",
        ] {
            // Judged as the dispatcher judges a `pattern`.
            let schema = toolc_schema::compile(&serde_json::json!({"pattern": pattern})).unwrap();
            for seed in 0..30 {
                for minimal in [false, true] {
                    let s = generate(pattern, &mut Rng::new(seed), minimal).unwrap();
                    assert!(schema.is_valid(&serde_json::json!(s)), "{pattern}: {s:?}");
                }
            }
        }
        assert_eq!(generate("(", &mut Rng::new(0), false), None);
    }
}
