//! Sensitive values (`sensitive: true`, tests/fixtures/codegen/secrets.yaml) appear in no
//! generated `Debug` output, no tracing event the runtime emits (`result_preview` included),
//! and no error message, `ToolError` or `ToolResult` of a call whose validation fails on them.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolc_generated_tests::secrets::agents;
use toolc_generated_tests::secrets::playbooks::planning::{
    PlanTripParams, PlanTripReturns, Planning,
};
use toolc_generated_tests::secrets::toolboxes::calendar::{
    self, BookRoomParams, BookRoomReturns, Calendar, LoginParams, LoginReturns, LoginReturnsEither,
    LoginReturnsExtra, LoginReturnsVault, Scope, WhoamiReturns,
};
use toolc_generated_tests::secrets::types::{ApiKey, Grant, Level, Session};
use toolc_runtime::codegen::schema::REDACTED;
use toolc_runtime::{CallContext, ErrorKind, HandlerError, ToolContext, ToolResult};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// The secret every test plants; it must never come out.
const MARKER: &str = "Zebra7f3Q";
/// A sensitive number, out of its bounds.
const PIN: &str = "9876543";

fn assert_hidden(what: &str, text: &str) {
    assert!(!text.contains(MARKER), "{what} shows the secret: {text}");
    assert!(!text.contains(PIN), "{what} shows the PIN: {text}");
}

/// Answers `login` with what it is built with: the secret in every sensitive place of the
/// result, valid against the returns schema or not.
struct Vault {
    token: String,
}

impl Calendar for Vault {
    async fn book_room(
        &self,
        _params: BookRoomParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<BookRoomReturns, HandlerError> {
        Ok(BookRoomReturns {
            booking: "b".into(),
        })
    }

    async fn login(
        &self,
        params: LoginParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<LoginReturns, HandlerError> {
        Ok(returns(params.user, self.token.clone()))
    }

    async fn whoami(&self, _ctx: &ToolContext<'_, Scope>) -> Result<WhoamiReturns, HandlerError> {
        Ok(WhoamiReturns { user: "ada".into() })
    }
}

struct Trips;

impl Planning for Trips {
    async fn plan_trip(&self, _params: PlanTripParams) -> Result<PlanTripReturns, HandlerError> {
        Ok(PlanTripReturns { days: 1 })
    }
}

/// A result with the secret in every sensitive place, and `user` in plain sight.
fn returns(user: String, token: String) -> LoginReturns {
    LoginReturns {
        user,
        token,
        key: Some(ApiKey(format!("key-{MARKER}"))),
        session: Some(Session {
            user: "bob".into(),
            token: MARKER.into(),
        }),
        recovery: Some(vec![format!("r1-{MARKER}")]),
        headers: Some(BTreeMap::from([("x-api-key".into(), MARKER.into())])),
        grant: Some(Grant::Password {
            secret: MARKER.into(),
        }),
        level: Some(Level::High),
        r#type: Some("plain".into()),
        #[allow(deprecated)]
        legacy: Some(MARKER.into()),
        vault: Some(LoginReturnsVault {
            note: Some(MARKER.into()),
        }),
        either: Some(LoginReturnsEither::String(MARKER.into())),
        extra: Some(LoginReturnsExtra {
            id: Some("e1".into()),
            additional_properties: BTreeMap::from([("k".into(), MARKER.into())]),
        }),
    }
}

#[test]
fn generated_debug_masks_sensitive_fields_and_types() {
    let session = Session {
        user: "ada".into(),
        token: MARKER.into(),
    };
    let params = LoginParams {
        user: "ada".into(),
        password: MARKER.into(),
        pin: Some(9_876_543),
    };
    let result = returns("ada".into(), format!("tok_{MARKER}"));
    for text in [
        format!("{session:?}"),
        format!("{session:#?}"),
        format!("{params:?}"),
        format!("{params:#?}"),
        format!("{result:?}"),
        format!("{result:#?}"),
    ] {
        assert_hidden("Debug", &text);
        assert!(text.contains(REDACTED), "{text}");
        assert!(
            text.contains("ada"),
            "what is not sensitive still shows: {text}"
        );
    }
    assert_eq!(
        format!("{session:?}"),
        r#"Session { user: "ada", token: <redacted> }"#
    );
    assert_eq!(
        format!("{params:?}"),
        r#"LoginParams { user: "ada", password: <redacted>, pin: <redacted> }"#
    );
    // Types sensitive as a whole, and a tagged union with one sensitive field.
    assert_eq!(format!("{:?}", ApiKey(MARKER.into())), "ApiKey(<redacted>)");
    assert_eq!(format!("{:?}", Level::Low), "Level(<redacted>)");
    assert_eq!(
        format!(
            "{:?}",
            Grant::Password {
                secret: MARKER.into()
            }
        ),
        "Password { secret: <redacted> }"
    );
    assert_eq!(format!("{:?}", Grant::Anonymous {}), "Anonymous");
    let debug = format!("{result:?}");
    assert!(debug.contains(r#"type: Some("plain")"#), "{debug}");
    assert!(debug.contains("LoginReturnsExtra(<redacted>)"), "{debug}");
}

/// Records every event's fields as text.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<BTreeMap<String, String>>>>);

struct Collect<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Collect(&mut fields));
        self.0.lock().unwrap().push(fields);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// Calls `tool` through the agent with `token` as what `login` answers: the result, and
/// every event the call emitted.
fn call(token: &str, tool: &str, arguments: &str) -> (ToolResult, Vec<BTreeMap<String, String>>) {
    let recorder = Recorder::default();
    let agent = agents::Secrets {
        calendar: Vault {
            token: token.into(),
        },
        planning: Trips,
    }
    .build();
    let result = tracing::subscriber::with_default(recorder.clone(), || {
        super::block_on(agent.call_result(tool, arguments, &CallContext::new("call-1")))
    });
    let events = recorder.0.lock().unwrap().clone();
    (result, events)
}

#[test]
fn failed_validation_of_a_sensitive_parameter_quotes_it_nowhere() {
    let cases = [
        // Too short (`minLength: 12`): no length either.
        (
            json!({"user": "ada", "password": MARKER}),
            "/password",
            "at least 12 characters long",
        ),
        // A space, against `pattern`.
        (
            json!({"user": "ada", "password": format!("{MARKER} and more words")}),
            "/password",
            "does not match the pattern",
        ),
        // Out of bounds: `must be <= 9999`, without the number.
        (
            json!({"user": "ada", "password": "correct-horse-battery", "pin": 9_876_543}),
            "/pin",
            "must be <= 9999",
        ),
        // Of the wrong type.
        (
            json!({"user": "ada", "password": 9_876_543}),
            "/password",
            "expected string, got integer",
        ),
    ];
    for (arguments, pointer, says) in cases {
        let arguments = arguments.to_string();
        let (result, events) = call("tok_1", "login", &arguments);
        assert!(!result.ok);
        let cause = result.cause.as_ref().unwrap();
        assert_eq!(cause.code, ErrorKind::ArgumentsInvalid);
        assert_eq!(cause.violations.len(), 1, "{result:?}");
        let v = &cause.violations[0];
        assert_eq!(v.pointer, pointer);
        assert!(v.message.contains(says), "{}", v.message);
        assert!(!v.message.contains(", got 9"), "{}", v.message);
        assert_hidden("the ToolResult", &result.to_value().to_string());
        assert_hidden("the ToolResult's Debug", &format!("{result:?}"));
        assert_hidden("the events", &format!("{events:?}"));
        let failed = events.iter().find(|e| e["event"] == "failed").unwrap();
        assert!(failed["result_preview"].contains(pointer), "{failed:?}");

        // The ToolError itself, from the dispatcher and from check_arguments.
        let err = calendar::check_arguments("login", &arguments).unwrap_err();
        assert_hidden("the ToolError", &format!("{err} {err:?}"));
        assert_hidden("the violations", &format!("{:?}", err.violations()));
    }
}

#[test]
fn results_with_sensitive_values_are_masked_in_result_preview() {
    let (result, events) = call(
        &format!("tok_{MARKER}"),
        "login",
        r#"{"user": "ada", "password": "correct-horse-battery"}"#,
    );
    assert!(result.ok, "{result:?}");
    // The host gets the value: masking is for logs, not for the result.
    assert_eq!(
        result.value.as_ref().unwrap()["token"],
        format!("tok_{MARKER}")
    );
    let completed = events.iter().find(|e| e["event"] == "completed").unwrap();
    let preview: Value = serde_json::from_str(&completed["result_preview"]).unwrap();
    assert_hidden("result_preview", &completed["result_preview"]);
    assert_hidden("the events", &format!("{events:?}"));
    assert_eq!(preview["user"], "ada");
    assert_eq!(preview["type"], "plain");
    for masked in [
        &preview["token"],
        &preview["key"],
        &preview["session"],
        &preview["recovery"][0],
        &preview["headers"]["x-api-key"],
        &preview["grant"]["secret"],
        &preview["level"],
        &preview["legacy"],
        &preview["vault"],
        &preview["either"],
        &preview["extra"]["k"],
    ] {
        assert_eq!(masked, REDACTED, "{preview}");
    }
    assert_eq!(preview["grant"]["kind"], "password");
    assert_eq!(preview["extra"]["id"], "e1");
}

#[test]
fn output_violations_of_sensitive_values_quote_them_nowhere() {
    // `token` must start with `tok_`.
    let (result, events) = call(
        MARKER,
        "login",
        r#"{"user": "ada", "password": "correct-horse-battery"}"#,
    );
    assert!(!result.ok);
    let cause = result.cause.as_ref().unwrap();
    assert_eq!(cause.code, ErrorKind::OutputInvalid);
    assert_eq!(cause.violations[0].pointer, "/token");
    assert_hidden("the ToolResult", &result.to_value().to_string());
    assert_hidden("the events", &format!("{events:?}"));
}
