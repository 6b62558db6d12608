//! The types of toolc's typed formats: string formats read into Rust types instead of `String`
//! when a build turns them on (`[emit] typed_formats` of `toolc.toml`, or
//! `toolc::configure().typed_formats(true)`).
//!
//! | `format` | Rust type | runtime feature |
//! |---|---|---|
//! | `uuid` | [`uuid::Uuid`](https://docs.rs/uuid) (re-exported as `toolc_runtime::uuid`) | `uuid` |
//! | `date-time` | [`chrono::DateTime<FixedOffset>`](https://docs.rs/chrono) (re-exported as `toolc_runtime::chrono`) | `chrono` |
//! | `date` | [`chrono::NaiveDate`](https://docs.rs/chrono) | `chrono` |
//! | `email` | [`Email`] | none |
//! | `uri` | [`Uri`] | none |
//!
//! The dispatcher validates the JSON string against its format before it reads the value, as it
//! does for `String` fields, so a call gets the same `arguments_invalid` messages with typed
//! formats as without. [`Email`] and [`Uri`] check the same grammar when read on their own.

use std::fmt;
use std::str::FromStr;
use toolc_schema::Format;

/// A string that is not in the format its type holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidFormat {
    format: &'static str,
    value: String,
}

impl InvalidFormat {
    /// The format the value is not in (`"email"`, `"uri"`).
    pub fn format(&self) -> &'static str {
        self.format
    }

    /// The value, as given.
    pub fn value(&self) -> &str {
        &self.value
    }
}

impl fmt::Display for InvalidFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a valid `{}`", self.value, self.format)
    }
}

impl std::error::Error for InvalidFormat {}

fn check(format: Format, value: String) -> Result<String, InvalidFormat> {
    if format.is_valid(&value) {
        Ok(value)
    } else {
        Err(InvalidFormat {
            format: format.name().unwrap_or("format"),
            value,
        })
    }
}

macro_rules! string_type {
    ($name:ident, $format:expr, $what:literal) => {
        impl $name {
            /// Checks `value` and keeps it as it is.
            pub fn parse(value: impl Into<String>) -> Result<Self, InvalidFormat> {
                check($format, value.into()).map($name)
            }

            /// The value as written.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// The value as a `String`.
            pub fn into_string(self) -> String {
                self.0
            }

            /// A default toolc checked against the format when it generated the code.
            #[doc(hidden)]
            pub fn __checked_default(value: &'static str) -> Self {
                $name(value.to_string())
            }
        }

        impl FromStr for $name {
            type Err = InvalidFormat;

            fn from_str(s: &str) -> Result<Self, InvalidFormat> {
                Self::parse(s)
            }
        }

        impl TryFrom<String> for $name {
            type Error = InvalidFormat;

            fn try_from(s: String) -> Result<Self, InvalidFormat> {
                Self::parse(s)
            }
        }

        impl From<$name> for String {
            fn from(v: $name) -> String {
                v.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                Self::parse(s).map_err(|e| {
                    serde::de::Error::custom(format_args!(concat!("{}, expected ", $what), e))
                })
            }
        }
    };
}

/// An email address (`format: email`): an RFC 5321 mailbox such as `ada@example.com`, kept as
/// written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Email(String);

string_type!(Email, Format::Email, "an email address");

impl Email {
    /// The part before the last `@`: `ada` of `ada@example.com` (with its quotes, when quoted).
    pub fn local_part(&self) -> &str {
        self.0.rsplit_once('@').map_or("", |(l, _)| l)
    }

    /// The part after the last `@`: a host name, or an address literal such as `[192.0.2.1]`.
    pub fn domain(&self) -> &str {
        self.0.rsplit_once('@').map_or("", |(_, d)| d)
    }
}

/// An absolute URI (`format: uri`): RFC 3986, such as `https://example.com/a?b#c` or
/// `urn:isbn:0451450523`, kept as written (not normalized).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uri(String);

string_type!(Uri, Format::Uri, "an absolute URI");

impl Uri {
    /// The scheme, before the first `:`: `https`.
    pub fn scheme(&self) -> &str {
        self.0.split_once(':').map_or("", |(s, _)| s)
    }

    /// Everything after `scheme:`, split into its parts: (authority, path, query, fragment).
    fn parts(&self) -> (Option<&str>, &str, Option<&str>, Option<&str>) {
        let rest = self.0.split_once(':').map_or("", |(_, r)| r);
        let (rest, fragment) = match rest.split_once('#') {
            Some((r, f)) => (r, Some(f)),
            None => (rest, None),
        };
        let (rest, query) = match rest.split_once('?') {
            Some((r, q)) => (r, Some(q)),
            None => (rest, None),
        };
        match rest.strip_prefix("//") {
            Some(after) => {
                let end = after.find('/').unwrap_or(after.len());
                (Some(&after[..end]), &after[end..], query, fragment)
            }
            None => (None, rest, query, fragment),
        }
    }

    /// The authority after `//`, when there is one: `user@example.com:8080`.
    pub fn authority(&self) -> Option<&str> {
        self.parts().0
    }

    /// The path: `/a/b` of `https://example.com/a/b?c`, `isbn:0451450523` of a URN.
    pub fn path(&self) -> &str {
        self.parts().1
    }

    /// The query, after `?`, when there is one.
    pub fn query(&self) -> Option<&str> {
        self.parts().2
    }

    /// The fragment, after `#`, when there is one.
    pub fn fragment(&self) -> Option<&str> {
        self.parts().3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_checked_and_split() {
        let e = Email::parse("a.b+c@example.com").unwrap();
        assert_eq!((e.local_part(), e.domain()), ("a.b+c", "example.com"));
        let q: Email = "\"a@b\"@[127.0.0.1]".parse().unwrap();
        assert_eq!((q.local_part(), q.domain()), ("\"a@b\"", "[127.0.0.1]"));
        let err = Email::parse("a..b@example.com").unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"a..b@example.com\" is not a valid `email`"
        );
        let from_json: Result<Email, _> = serde_json::from_str("\"nope\"");
        assert_eq!(
            from_json.unwrap_err().to_string(),
            "\"nope\" is not a valid `email`, expected an email address"
        );
    }

    #[test]
    fn uris_are_checked_and_split() {
        let u = Uri::parse("https://user@example.com:8080/a/b?c=d#e").unwrap();
        assert_eq!(u.scheme(), "https");
        assert_eq!(u.authority(), Some("user@example.com:8080"));
        assert_eq!(u.path(), "/a/b");
        assert_eq!((u.query(), u.fragment()), (Some("c=d"), Some("e")));
        let urn = Uri::parse("urn:isbn:0451450523").unwrap();
        assert_eq!(
            (urn.scheme(), urn.authority(), urn.path()),
            ("urn", None, "isbn:0451450523")
        );
        assert_eq!(Uri::parse("http://a?x#y").unwrap().path(), "");
        assert!(Uri::parse("/relative").is_err());
        assert_eq!(
            serde_json::to_string(&urn).unwrap(),
            "\"urn:isbn:0451450523\""
        );
    }
}
