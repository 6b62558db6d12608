//! Schema texts put together at compile time from parts, so that a `$defs` entry several
//! descriptors' texts carry is written once in a generated file: `codegen::join_str!(…)`.

/// The length of `parts` joined.
pub const fn joined_len(parts: &[&str]) -> usize {
    let mut len = 0;
    let mut i = 0;
    while i < parts.len() {
        len += parts[i].len();
        i += 1;
    }
    len
}

/// The bytes of `parts` joined; `N` is their [`joined_len`] (a shorter `N` fails the build).
pub const fn joined<const N: usize>(parts: &[&str]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut at = 0;
    let mut i = 0;
    while i < parts.len() {
        let part = parts[i].as_bytes();
        let mut j = 0;
        while j < part.len() {
            out[at] = part[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(at == N, "the parts are not as long as the text");
    out
}

/// Joined parts as the text they are (they were `str`s, so this never fails).
pub const fn utf8(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("joined parts of `str`s are UTF-8"),
    }
}

/// `&'static str` constants and literals joined into one `&'static str`, in a constant: what a
/// generated file writes for a schema text made of shared `$defs` entries
/// (`pub const LIST_TICKETS_INPUT_SCHEMA: &str = codegen::join_str!("{…\"$defs\":{\"TicketStatus\":",
/// DEF_TICKET_STATUS, "}}");`). Each part must be a constant expression.
#[doc(hidden)]
#[macro_export]
macro_rules! __toolc_join_str {
    ($($part:expr),+ $(,)?) => {{
        const PARTS: &[&str] = &[$($part),+];
        const BYTES: [u8; $crate::codegen::joined_len(PARTS)] = $crate::codegen::joined(PARTS);
        $crate::codegen::utf8(&BYTES)
    }};
}

#[cfg(test)]
mod tests {
    const DEF: &str = r#"{"type":"string"}"#;
    const TEXT: &str = crate::codegen::join_str!(r#"{"$defs":{"S":"#, DEF, "}}");

    #[test]
    fn joined_at_compile_time_as_written() {
        assert_eq!(TEXT, r#"{"$defs":{"S":{"type":"string"}}}"#);
        assert_eq!(crate::codegen::join_str!("é", "", "ü"), "éü");
    }
}
