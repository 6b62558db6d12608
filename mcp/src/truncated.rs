//! Text that came from outside (a tool name, a session id, a caller id), cut for messages and
//! logs.

use std::fmt;

/// Displays at most 200 bytes of a name that came from outside (a model may send anything).
pub(crate) struct Truncated<'a>(pub &'a str);

impl fmt::Display for Truncated<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MAX: usize = 200;
        if self.0.len() <= MAX {
            return f.write_str(self.0);
        }
        let mut end = MAX;
        while !self.0.is_char_boundary(end) {
            end -= 1;
        }
        write!(f, "{}…", &self.0[..end])
    }
}
