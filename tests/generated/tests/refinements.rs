//! Refinements: the `refine_<tool>` methods of a generated trait check the typed parameters
//! after the schema and before the handler; what they refuse fails the call with
//! `arguments_invalid`, with their pointers, exactly as a schema violation does
//! (tests/fixtures/codegen/secrets.yaml).

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use toolc_generated_tests::secrets::agents;
use toolc_generated_tests::secrets::playbooks::planning::{
    self, PlanTripParams, PlanTripReturns, Planning, PlanningPlaybook,
};
use toolc_generated_tests::secrets::toolboxes::calendar::{
    self, BookRoomParams, BookRoomReturns, Calendar, CalendarToolbox, LoginParams, LoginReturns,
    Scope, WhoamiReturns,
};
use toolc_runtime::{
    CallContext, CauseKind, ErrorKind, HandlerError, Playbook, ToolContext, ToolError, Violation,
    Violations,
};

/// Counts what ran.
#[derive(Default)]
struct Rooms {
    refined: AtomicUsize,
    handled: AtomicUsize,
    /// What the refinement does: refuse as usual, refuse with no reason, or panic.
    mode: Mode,
}

#[derive(Default, Clone, Copy, PartialEq)]
enum Mode {
    #[default]
    Check,
    NoReason,
    Panic,
}

impl Calendar for Rooms {
    async fn book_room(
        &self,
        params: BookRoomParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<BookRoomReturns, HandlerError> {
        self.handled.fetch_add(1, Ordering::SeqCst);
        Ok(BookRoomReturns {
            booking: format!("{} {}-{}", params.room, params.start, params.end),
        })
    }

    /// A room that is closed, a span that ends before it starts, a guest listed twice.
    fn refine_book_room(&self, params: &BookRoomParams) -> Result<(), Violations> {
        self.refined.fetch_add(1, Ordering::SeqCst);
        match self.mode {
            Mode::Check => {}
            Mode::NoReason => return Err(Violations::new()),
            Mode::Panic => panic!("the refinement broke"),
        }
        let mut refused = Violations::new();
        if params.room == "attic" {
            refused.push("/room", "the attic is closed; pick another room");
        }
        if params.start >= params.end {
            refused.push("/end", "must be after `start`");
        }
        let guests = params.guests.as_deref().unwrap_or_default();
        for (i, g) in guests.iter().enumerate() {
            if guests[..i].contains(g) {
                refused.push(format!("/guests/{i}"), "is listed twice");
            }
        }
        refused.into_result()
    }

    async fn login(
        &self,
        params: LoginParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<LoginReturns, HandlerError> {
        self.handled.fetch_add(1, Ordering::SeqCst);
        Ok(LoginReturns {
            user: params.user,
            token: "tok_1".into(),
            key: None,
            session: None,
            recovery: None,
            headers: None,
            grant: None,
            level: None,
            r#type: None,
            #[allow(deprecated)]
            legacy: None,
            vault: None,
            either: None,
            extra: None,
        })
    }

    async fn whoami(&self, _ctx: &ToolContext<'_, Scope>) -> Result<WhoamiReturns, HandlerError> {
        Ok(WhoamiReturns { user: "ada".into() })
    }
}

struct Trips;

impl Planning for Trips {
    async fn plan_trip(&self, params: PlanTripParams) -> Result<PlanTripReturns, HandlerError> {
        Ok(PlanTripReturns {
            days: i64::from(params.from != params.to),
        })
    }

    fn refine_plan_trip(&self, params: &PlanTripParams) -> Result<(), Violations> {
        // ISO dates compare as text.
        if params.to < params.from {
            return Err(Violation::new("/to", "must not be before `from`").into());
        }
        Ok(())
    }
}

fn book(toolbox: &CalendarToolbox<Rooms>, arguments: &str) -> Result<Value, ToolError> {
    super::call(toolbox, "book_room", arguments)
}

const TWO_PROBLEMS: &str = r#"{"room": "attic", "start": 10, "end": 9}"#;

#[test]
fn a_refinement_failure_lists_every_violation_with_its_pointer_and_the_handler_does_not_run() {
    let toolbox = CalendarToolbox::new(Rooms::default());
    let err = book(&toolbox, TWO_PROBLEMS).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ArgumentsInvalid);
    assert_eq!(
        err.violations(),
        [
            Violation::new("/room", "the attic is closed; pick another room"),
            Violation::new("/end", "must be after `start`"),
        ]
    );
    // The same words a schema violation gets.
    assert_eq!(
        err.message(),
        "tool 'book_room' arguments are invalid: /room: the attic is closed; pick another room; \
         /end: must be after `start`"
    );
    assert_eq!(toolbox.inner().refined.load(Ordering::SeqCst), 1);
    assert_eq!(toolbox.inner().handled.load(Ordering::SeqCst), 0);

    // Arguments it accepts reach the handler.
    let ok = book(
        &toolbox,
        r#"{"room": "hall", "start": 9, "end": 10, "guests": ["ada"]}"#,
    );
    assert_eq!(ok.unwrap(), json!({"booking": "hall 9-10"}));
    assert_eq!(toolbox.inner().handled.load(Ordering::SeqCst), 1);

    let err = book(
        &toolbox,
        r#"{"room": "hall", "start": 9, "end": 10, "guests": ["ada", "bob", "ada"]}"#,
    )
    .unwrap_err();
    assert_eq!(err.violations()[0].pointer, "/guests/2");
}

#[test]
fn a_refinement_failure_is_the_same_tool_result_as_a_schema_violation() {
    let agent = agents::Secrets {
        calendar: Rooms::default(),
        planning: Trips,
    }
    .build();
    let ctx = CallContext::new("call-1");
    let refined = super::block_on(agent.call_result("book_room", TWO_PROBLEMS, &ctx));
    let schema = super::block_on(agent.call_result(
        "book_room",
        r#"{"room": "", "start": 10, "end": 25}"#,
        &ctx,
    ));
    for result in [&refined, &schema] {
        assert!(!result.ok);
        let cause = result.cause.as_ref().expect("a cause");
        assert_eq!(cause.code, ErrorKind::ArgumentsInvalid);
        assert_eq!(cause.kind, CauseKind::Validation);
        assert_eq!(cause.name, "ArgumentsInvalid");
        assert!(!cause.retryable);
        assert_eq!(cause.violations.len(), 2, "{result:?}");
        assert_eq!(
            result.error.as_deref(),
            Some(format!("tool 'book_room' arguments are invalid: {}", cause.message).as_str())
        );
    }
    let cause = refined.cause.as_ref().unwrap();
    let pointers: Vec<&str> = cause
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/room", "/end"]);
    assert_eq!(
        refined.to_value()["cause"]["violations"],
        json!([
            {"pointer": "/room", "message": "the attic is closed; pick another room"},
            {"pointer": "/end", "message": "must be after `start`"},
        ])
    );
}

#[test]
fn the_refinement_runs_only_on_arguments_the_schema_accepts() {
    let toolbox = CalendarToolbox::new(Rooms::default());
    // `end` out of range and the span backwards: only the schema speaks.
    let err = book(&toolbox, r#"{"room": "attic", "start": 10, "end": 25}"#).unwrap_err();
    assert_eq!(err.violations().len(), 1, "{err:?}");
    assert_eq!(err.violations()[0].pointer, "/end");
    assert!(err.violations()[0].message.starts_with("must be <= 24"));
    assert_eq!(toolbox.inner().refined.load(Ordering::SeqCst), 0);
}

#[test]
fn check_arguments_of_the_server_agrees_with_the_dispatcher() {
    let toolbox = CalendarToolbox::new(Rooms::default());
    let cases = [
        ("book_room", TWO_PROBLEMS),
        ("book_room", r#"{"room": "hall", "start": 9, "end": 10}"#),
        (
            "book_room",
            r#"{"room": "hall", "start": 9, "end": 9, "guests": ["a", "a"]}"#,
        ),
        ("book_room", r#"{"room": "hall", "start": 9}"#),
        (
            "book_room",
            r#"{"room": "hall", "start": 9, "end": 10, "floor": 2}"#,
        ),
        ("book_room", "not json"),
        (
            "login",
            r#"{"user": "ada", "password": "correct-horse-battery"}"#,
        ),
        ("whoami", "{}"),
        ("nope", "{}"),
    ];
    for (tool, arguments) in cases {
        let checked = toolbox.check_arguments(tool, arguments);
        let called = super::call(&toolbox, tool, arguments);
        match (&checked, &called) {
            (Ok(_), Ok(_)) => {}
            (Err(c), Err(d)) => {
                assert_eq!(c.kind(), d.kind(), "{tool} {arguments}");
                assert_eq!(c.message(), d.message(), "{tool} {arguments}");
                assert_eq!(c.violations(), d.violations(), "{tool} {arguments}");
            }
            _ => panic!("{tool} {arguments}: check says {checked:?}, the call {called:?}"),
        }
    }
    // The module's `check_arguments` knows no implementation: the schema alone.
    assert!(calendar::check_arguments("book_room", TWO_PROBLEMS).is_ok());
    assert_eq!(
        toolbox
            .check_arguments("book_room", TWO_PROBLEMS)
            .unwrap_err()
            .violations()
            .len(),
        2
    );
}

#[test]
fn a_refusal_without_a_reason_still_fails_and_a_panic_is_contained() {
    let toolbox = CalendarToolbox::new(Rooms {
        mode: Mode::NoReason,
        ..Rooms::default()
    });
    let good = r#"{"room": "hall", "start": 9, "end": 10}"#;
    let err = book(&toolbox, good).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ArgumentsInvalid);
    assert_eq!(err.violations().len(), 1);
    assert_eq!(err.violations()[0].pointer, "");

    let toolbox = CalendarToolbox::new(Rooms {
        mode: Mode::Panic,
        ..Rooms::default()
    });
    let err = book(&toolbox, good).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Panicked);
    assert!(err.message().contains("the refinement broke"), "{err}");
    let checked = toolbox.check_arguments("book_room", good).unwrap_err();
    assert_eq!(checked.kind(), ErrorKind::Panicked);
    assert_eq!(toolbox.inner().handled.load(Ordering::SeqCst), 0);
}

#[test]
fn the_default_refinement_accepts_everything_the_schema_does() {
    // `Rooms` does not implement `refine_login`.
    let toolbox = CalendarToolbox::new(Rooms::default());
    let got = super::call(
        &toolbox,
        "login",
        r#"{"user": "ada", "password": "correct-horse-battery"}"#,
    );
    assert_eq!(got.unwrap()["user"], "ada");
}

#[test]
fn plays_are_refined_too_and_fail_as_an_envelope() {
    let playbook = PlanningPlaybook::new(Trips);
    let backwards = r#"{"from": "2025-06-10", "to": "2025-06-01"}"#;
    let err = super::block_on(playbook.call("plan_trip", backwards)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ArgumentsInvalid);
    assert_eq!(
        err.message(),
        "play 'plan_trip' arguments are invalid: /to: must not be before `from`"
    );
    let checked = playbook
        .check_arguments("plan_trip", backwards)
        .unwrap_err();
    assert_eq!(checked.message(), err.message());
    assert!(planning::check_arguments("plan_trip", backwards).is_ok());

    let agent = agents::Secrets {
        calendar: Rooms::default(),
        planning: Trips,
    }
    .build();
    let envelope = super::block_on(agent.call("plan_trip", backwards, &CallContext::new("c")))
        .expect("plays answer failures as a value");
    assert_eq!(envelope["kind"], "arguments_invalid");
    let ok = super::block_on(
        playbook.call("plan_trip", r#"{"from": "2025-06-01", "to": "2025-06-10"}"#),
    );
    assert_eq!(ok.unwrap(), json!({"days": 1}));
}
