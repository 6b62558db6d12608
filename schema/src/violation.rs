//! Schema violations: where in a checked value and what is wrong there.

use std::error::Error;
use std::fmt;

/// One schema violation: where in the instance (a JSON pointer, `""` for the root) and what.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Violation {
    /// JSON pointer (RFC 6901) into the checked instance.
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
}

impl Violation {
    /// A violation at `pointer`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Violation {
        Violation {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "(root): {}", self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

/// A list of violations as an error: the `source()` of `output_invalid` and
/// `arguments_invalid` tool errors, and what a refinement (a generated trait's
/// `refine_<tool>` method) returns when it refuses arguments the schema accepted.
///
/// ```
/// use toolc_schema::Violations;
///
/// fn refine(start: u32, end: u32, guests: &[String]) -> Result<(), Violations> {
///     let mut refused = Violations::new();
///     if start >= end {
///         refused.push("/end", "must be after `start`");
///     }
///     if guests.is_empty() {
///         refused.push("/guests", "must name at least one guest");
///     }
///     refused.into_result()
/// }
///
/// let err = refine(10, 9, &[]).unwrap_err();
/// assert_eq!(err.len(), 2);
/// assert_eq!(err.to_string(), "/end: must be after `start`; /guests: must name at least one guest");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Violations(pub Vec<Violation>);

impl Violations {
    /// No violations yet.
    pub fn new() -> Violations {
        Violations(Vec::new())
    }

    /// Adds a violation at `pointer` (a JSON pointer into the checked value, such as
    /// `/end` or `/guests/0`; `""` for the whole value).
    pub fn push(
        &mut self,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> &mut Violations {
        self.0.push(Violation::new(pointer, message));
        self
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The violations, in the order they were added.
    pub fn iter(&self) -> std::slice::Iter<'_, Violation> {
        self.0.iter()
    }

    /// `Ok(())` when there are none, else `Err(self)`: the end of a refinement.
    pub fn into_result(self) -> Result<(), Violations> {
        if self.is_empty() { Ok(()) } else { Err(self) }
    }
}

impl From<Violation> for Violations {
    fn from(v: Violation) -> Violations {
        Violations(vec![v])
    }
}

impl From<Vec<Violation>> for Violations {
    fn from(v: Vec<Violation>) -> Violations {
        Violations(v)
    }
}

impl FromIterator<Violation> for Violations {
    fn from_iter<I: IntoIterator<Item = Violation>>(iter: I) -> Violations {
        Violations(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a Violations {
    type Item = &'a Violation;
    type IntoIter = std::slice::Iter<'a, Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Violations {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl Error for Violations {}
