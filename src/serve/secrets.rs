//! The secrets a served toolset reads from the environment, and their removal from every
//! text that leaves the server: errors, log lines, the tail of a command's stderr.

use std::sync::Arc;

/// What stands where a secret was.
pub const REDACTED: &str = "<redacted>";

/// Values shorter than this are not looked for: a one-letter "secret" would blank every
/// message, and no credential is that short.
const SHORTEST: usize = 4;

/// The values of the environment variables the backends read.
#[derive(Debug, Clone, Default)]
pub struct Secrets(Arc<Vec<String>>);

impl Secrets {
    /// The secrets `values`, each looked for on its own.
    pub fn new(values: impl IntoIterator<Item = String>) -> Secrets {
        let mut values: Vec<String> = values.into_iter().filter(|v| v.len() >= SHORTEST).collect();
        // The longest first, so a secret that holds another is removed whole.
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        values.dedup();
        Secrets(Arc::new(values))
    }

    /// These secrets and `other`'s: what a reloaded toolset reads beside what the last one
    /// read.
    pub fn with(&self, other: &Secrets) -> Secrets {
        Secrets::new(self.0.iter().chain(other.0.iter()).cloned())
    }

    /// `text` with every secret replaced by [`REDACTED`].
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in self.0.iter() {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), REDACTED);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_secret_is_removed_and_short_values_are_left() {
        let s = Secrets::new([
            "sk-live-123".to_string(),
            "sk-live-123-and-more".into(),
            "ab".into(),
        ]);
        assert_eq!(
            s.redact("a sk-live-123-and-more b sk-live-123 ab"),
            "a <redacted> b <redacted> ab"
        );
    }
}
