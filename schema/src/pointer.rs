//! JSON pointers (RFC 6901), as violations name the place of a value.

/// The JSON pointer (RFC 6901) made of these reference tokens: `["a/b", "0"]` → `/a~1b/0`.
pub fn json_pointer<'a, I: IntoIterator<Item = &'a str>>(segments: I) -> String {
    let mut p = String::new();
    for s in segments {
        push_pointer(&mut p, s);
    }
    p
}

/// Appends `segment` to `pointer`, escaped per RFC 6901.
pub(crate) fn push_pointer(pointer: &mut String, segment: &str) {
    pointer.push('/');
    for c in segment.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}
