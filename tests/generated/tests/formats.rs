//! Typed formats (tests/fixtures/codegen/formats.yaml, generated twice): a
//! handler gets `Uuid`, chrono's `DateTime<FixedOffset>` and `NaiveDate`,
//! `Email` and `Uri` instead of strings, and a call is refused with the same
//! error, word for word, as when they are strings. The same holds inside the
//! wider vocabulary (`shapes`): a format in a type list, a tuple, a schema's own
//! `$defs` and `allOf` of objects.

use serde_json::{Value, json};
use toolc_generated_tests::{string_formats, typed_formats};
use toolc_runtime::chrono::{DateTime, Datelike, FixedOffset, NaiveDate, Timelike};
use toolc_runtime::formats::{Email, Uri};
use toolc_runtime::uuid::Uuid;
use toolc_runtime::{HandlerError, ToolContext, ToolError};

mod typed {
    use super::*;
    use typed_formats::toolboxes::formats::{
        DefaultsParams, DefaultsParamsKey, EchoParams, Formats, Scope, ShapesParams,
        ShapesParamsKey, StampParams, StampReturns,
    };

    /// Reads each value through its type's own API, so a `String` would not compile.
    pub struct Typed;

    impl Formats for Typed {
        async fn echo(
            &self,
            p: EchoParams,
            _: &ToolContext<'_, Scope>,
        ) -> Result<Value, HandlerError> {
            let (id, at, day, email, site): (Uuid, DateTime<FixedOffset>, NaiveDate, Email, Uri) =
                (p.id, p.at, p.day, p.email, p.site);
            let ids: Vec<Uuid> = p.ids.unwrap_or_default();
            // Optional and nullable: absent and `null` are both `None`.
            let until: Option<NaiveDate> = p.until;
            // Formats the build does not type stay strings.
            let host: Option<String> = p.host;
            Ok(json!({
                "id_version": id.get_version_num(),
                "offset_minutes": at.offset().local_minus_utc() / 60,
                "utc": at.naive_utc().to_string(),
                "year": day.year(),
                "domain": email.domain(),
                "scheme": site.scheme(),
                "ids": ids.len(),
                "contact_domain": p.contact.map(|c| c.email.domain().to_string()),
                "until": until,
                "host": host,
                // Serialized back as the types write them.
                "echo": { "id": id, "at": at, "day": day, "email": email, "site": site },
            }))
        }

        async fn defaults(
            &self,
            p: DefaultsParams,
            _: &ToolContext<'_, Scope>,
        ) -> Result<Value, HandlerError> {
            let (id, at, day, email, site): (Uuid, DateTime<FixedOffset>, NaiveDate, Email, Uri) =
                (p.id, p.at, p.day, p.email, p.site);
            Ok(json!({
                "id": id,
                "at": at,
                "leap_second": at.nanosecond() >= 1_000_000_000,
                "day": day,
                "email": email,
                "site": site,
                "contact": p.contact.email,
                "key": match p.key {
                    DefaultsParamsKey::String(id) => id.get_version_num(),
                    DefaultsParamsKey::Integer(_) => 0,
                },
                "span_days": (p.span.1 - p.span.0).num_days(),
            }))
        }

        async fn shapes(
            &self,
            p: ShapesParams,
            _: &ToolContext<'_, Scope>,
        ) -> Result<Value, HandlerError> {
            let key = match p.key {
                ShapesParamsKey::String(id) => {
                    let id: Uuid = id;
                    json!({ "uuid_version": id.get_version_num() })
                }
                ShapesParamsKey::Integer(n) => json!({ "integer": n }),
            };
            let (from, to): (NaiveDate, NaiveDate) = p.span;
            let since: DateTime<FixedOffset> = p.since.0;
            let (owner, email): (Uuid, Option<Email>) = (p.owner.id, p.owner.email);
            Ok(json!({
                "key": key,
                "days": (to - from).num_days(),
                "offset_minutes": since.offset().local_minus_utc() / 60,
                "owner": owner,
                "owner_domain": email.map(|e| e.domain().to_string()),
            }))
        }

        async fn stamp(
            &self,
            p: StampParams,
            _: &ToolContext<'_, Scope>,
        ) -> Result<StampReturns, HandlerError> {
            let offset = FixedOffset::east_opt(p.offset_minutes as i32 * 60)
                .ok_or_else(|| HandlerError::msg("no such offset"))?;
            let at = NaiveDate::from_ymd_opt(2026, 3, 2)
                .and_then(|d| d.and_hms_opt(9, 30, 0))
                .ok_or_else(|| HandlerError::msg("no such time"))?
                .and_utc()
                .with_timezone(&offset);
            Ok(StampReturns {
                at,
                id: Uuid::from_u128(0x0b5e2a6e_3c1f_4f6a_9d7e_2f1c8a9b4d3e),
            })
        }
    }
}

mod untyped {
    use super::*;
    use string_formats::toolboxes::formats::{
        DefaultsParams, EchoParams, Formats, Scope, ShapesParams, ShapesParamsKey, StampParams,
        StampReturns,
    };

    /// The same toolset with strings.
    pub struct Strings;

    impl Formats for Strings {
        async fn echo(
            &self,
            p: EchoParams,
            _: &ToolContext<'_, Scope>,
        ) -> Result<Value, HandlerError> {
            let _: (String, String, String, String, String) = (p.id, p.at, p.day, p.email, p.site);
            Ok(Value::Null)
        }

        async fn defaults(
            &self,
            p: DefaultsParams,
            _: &ToolContext<'_, Scope>,
        ) -> Result<Value, HandlerError> {
            Ok(json!({ "id": p.id, "at": p.at }))
        }

        async fn shapes(
            &self,
            p: ShapesParams,
            _: &ToolContext<'_, Scope>,
        ) -> Result<Value, HandlerError> {
            let _: (String, String, String, String) = (p.span.0, p.span.1, p.since.0, p.owner.id);
            let _: Option<String> = match p.key {
                ShapesParamsKey::String(s) => Some(s),
                ShapesParamsKey::Integer(_) => None,
            };
            Ok(Value::Null)
        }

        async fn stamp(
            &self,
            _: StampParams,
            _: &ToolContext<'_, Scope>,
        ) -> Result<StampReturns, HandlerError> {
            Ok(StampReturns {
                at: "2026-03-02T09:30:00Z".into(),
                id: "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e".into(),
            })
        }
    }
}

fn typed(tool: &str, arguments: &Value) -> Result<Value, ToolError> {
    super::call(
        &typed_formats::toolboxes::formats::FormatsToolbox::new(typed::Typed),
        tool,
        &arguments.to_string(),
    )
}

fn strings(tool: &str, arguments: &Value) -> Result<Value, ToolError> {
    super::call(
        &string_formats::toolboxes::formats::FormatsToolbox::new(untyped::Strings),
        tool,
        &arguments.to_string(),
    )
}

fn valid() -> Value {
    json!({
        "id": "123E4567-E89B-12D3-A456-426614174000",
        "at": "2024-02-29t12:00:00.5+01:30",
        "day": "2024-02-29",
        "email": "ada@example.com",
        "site": "urn:isbn:0451450523",
    })
}

#[test]
fn a_handler_gets_typed_values() {
    let mut args = valid();
    args["ids"] = json!(["0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e"]);
    args["contact"] = json!({ "email": "grace@[IPv6:::1]" });
    args["until"] = Value::Null;
    args["host"] = json!("example.com");
    let got = typed("echo", &args).expect("the call succeeds");
    assert_eq!(got["id_version"], json!(1));
    assert_eq!(got["offset_minutes"], json!(90));
    assert_eq!(got["utc"], json!("2024-02-29 10:30:00.500"));
    assert_eq!(got["year"], json!(2024));
    assert_eq!(got["domain"], json!("example.com"));
    assert_eq!(got["scheme"], json!("urn"));
    assert_eq!(got["ids"], json!(1));
    assert_eq!(got["contact_domain"], json!("[IPv6:::1]"));
    assert_eq!(got["until"], Value::Null);
    assert_eq!(got["host"], json!("example.com"));
    // The instant and its offset are kept; the types write their own forms back.
    assert_eq!(
        got["echo"],
        json!({
            "id": "123e4567-e89b-12d3-a456-426614174000",
            "at": "2024-02-29T12:00:00.500+01:30",
            "day": "2024-02-29",
            "email": "ada@example.com",
            "site": "urn:isbn:0451450523",
        })
    );
}

#[test]
fn every_string_the_validator_accepts_is_read() {
    // Leap seconds, lower-case separators, extreme offsets and years, and more
    // fraction digits than a nanosecond holds (the extra ones are dropped).
    for at in [
        "2024-02-29T23:59:60Z",
        "1990-12-31T15:59:60-08:00",
        "2024-02-29t12:00:00z",
        "0000-01-01T00:00:00+23:59",
        "9999-12-31T23:59:59.999999999-23:59",
        "2024-02-29T12:00:00.1234567891234Z",
    ] {
        let mut args = valid();
        args["at"] = json!(at);
        typed("echo", &args).unwrap_or_else(|e| panic!("{at}: {e}"));
    }
    for day in ["0000-01-01", "9999-12-31", "2000-02-29"] {
        let mut args = valid();
        args["day"] = json!(day);
        typed("echo", &args).unwrap_or_else(|e| panic!("{day}: {e}"));
    }
}

/// Each argument that breaks the schema, alone.
fn broken() -> Vec<(&'static str, Value)> {
    let with = |key: &str, v: Value| {
        let mut a = valid();
        a[key] = v;
        a
    };
    let without = |key: &str| {
        let mut a = valid();
        a.as_object_mut().unwrap().remove(key);
        a
    };
    vec![
        (
            "uuid",
            with("id", json!("123e4567e89b12d3a456426614174000")),
        ),
        ("uuid type", with("id", json!(42))),
        ("date-time", with("at", json!("2024-02-29 12:00:00Z"))),
        ("date-time offset", with("at", json!("2024-02-29T12:00:00"))),
        (
            "leap second",
            with("at", json!("1990-12-31T15:59:60+08:00")),
        ),
        ("date", with("day", json!("2023-02-29"))),
        ("email", with("email", json!("a..b@example.com"))),
        ("uri", with("site", json!("/relative"))),
        ("item", with("ids", json!(["nope"]))),
        (
            "too many",
            with("ids", json!([Uuid::nil(), Uuid::nil(), Uuid::nil()])),
        ),
        (
            "nested",
            with("contact", json!({ "email": "@example.com" })),
        ),
        ("nullable", with("until", json!("tomorrow"))),
        ("missing", without("id")),
        (
            "several",
            with("id", json!("x")).tap(|a| a["day"] = json!("y")),
        ),
    ]
}

trait Tap: Sized {
    fn tap(self, f: impl FnOnce(&mut Self)) -> Self;
}

impl Tap for Value {
    fn tap(mut self, f: impl FnOnce(&mut Self)) -> Self {
        f(&mut self);
        self
    }
}

#[test]
fn refusals_are_word_for_word_those_of_strings() {
    for (what, args) in broken() {
        let t = typed("echo", &args).expect_err(what);
        let s = strings("echo", &args).expect_err(what);
        assert_eq!(t.kind(), s.kind(), "{what}");
        assert_eq!(t.to_string(), s.to_string(), "{what}");
        assert_eq!(t.violations(), s.violations(), "{what}");
        assert!(!t.violations().is_empty(), "{what}: {t}");
    }
    // The messages speak of the schema, never of a Rust type.
    let e = typed("echo", &broken()[0].1).unwrap_err();
    assert_eq!(e.violations()[0].pointer, "/id");
    assert!(e.to_string().contains("uuid"), "{e}");
    assert!(!e.to_string().contains("Uuid"), "{e}");
    // `check_arguments` agrees with the call.
    for (what, args) in broken() {
        let t = typed_formats::toolboxes::formats::check_arguments("echo", &args.to_string())
            .expect_err(what);
        let s = string_formats::toolboxes::formats::check_arguments("echo", &args.to_string())
            .expect_err(what);
        assert_eq!(t.to_string(), s.to_string(), "{what}");
    }
}

#[test]
fn defaults_in_typed_formats_are_built_as_their_types() {
    let got = typed("defaults", &json!({})).expect("the call succeeds");
    assert_eq!(
        got,
        json!({
            "id": "123e4567-e89b-12d3-a456-426614174000",
            // The leap second and the offset survive.
            "at": "1990-12-31T15:59:60.250-08:00",
            "leap_second": true,
            "day": "2024-02-29",
            "email": "ada@example.com",
            "site": "https://example.com/a?b#c",
            "contact": "grace@example.com",
            // A default in a type list and in a tuple is built as its type too.
            "key": 4,
            "span_days": 2,
        })
    );
    // The strings' build applies the same defaults, as written.
    let s = strings("defaults", &json!({})).unwrap();
    assert_eq!(
        s,
        json!({ "id": "123E4567-E89B-12D3-A456-426614174000", "at": "1990-12-31T15:59:60.25-08:00" })
    );
}

#[test]
fn typed_results_are_validated_as_written() {
    let got = typed("stamp", &json!({ "offset_minutes": -330 })).expect("valid");
    assert_eq!(
        got,
        json!({ "at": "2026-03-02T04:00:00-05:30", "id": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e" })
    );
    // Both builds answer with the same JSON for the same instant in UTC.
    let utc = typed("stamp", &json!({ "offset_minutes": 0 })).unwrap();
    assert_eq!(utc["at"], json!("2026-03-02T09:30:00Z"));
    assert_eq!(
        utc,
        strings("stamp", &json!({ "offset_minutes": 0 })).unwrap()
    );
}

fn shapes() -> Value {
    json!({
        "key": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e",
        "span": ["2024-02-27", "2024-03-01"],
        "since": "2024-02-29T12:00:00-03:30",
        "owner": { "id": "123e4567-e89b-12d3-a456-426614174000", "email": "ada@example.com" },
    })
}

#[test]
fn formats_inside_type_lists_tuples_defs_and_all_of_are_typed() {
    let got = typed("shapes", &shapes()).expect("the call succeeds");
    assert_eq!(
        got,
        json!({
            "key": { "uuid_version": 4 },
            "days": 3,
            "offset_minutes": -210,
            "owner": "123e4567-e89b-12d3-a456-426614174000",
            "owner_domain": "example.com",
        })
    );
    // The other type of the list is read as itself.
    let mut args = shapes();
    args["key"] = json!(7);
    assert_eq!(
        typed("shapes", &args).expect("an integer key")["key"],
        json!({ "integer": 7 })
    );
    strings("shapes", &shapes()).expect("the strings' build takes the same call");
}

#[test]
fn refusals_inside_the_wider_vocabulary_are_those_of_strings() {
    let with = |pointer: &str, v: Value| {
        let mut a = shapes();
        *a.pointer_mut(pointer).expect("a key of shapes()") = v;
        a
    };
    for (what, args) in [
        ("type list", with("/key", json!("not-a-uuid"))),
        ("type list type", with("/key", json!(1.5))),
        ("tuple item", with("/span/1", json!("2023-02-29"))),
        ("tuple length", with("/span", json!(["2024-02-27"]))),
        ("$defs", with("/since", json!("2024-02-29"))),
        ("allOf", with("/owner/id", json!("x"))),
        ("allOf optional", with("/owner/email", json!("nobody"))),
    ] {
        let t = typed("shapes", &args).expect_err(what);
        let s = strings("shapes", &args).expect_err(what);
        assert_eq!(t.kind(), s.kind(), "{what}");
        assert_eq!(t.to_string(), s.to_string(), "{what}");
        assert_eq!(t.violations(), s.violations(), "{what}");
        assert!(!t.violations().is_empty(), "{what}: {t}");
    }
}
