//! A toolbox and a playbook with more operations than a dispatcher's `bind` holds in one
//! function (tests/fixtures/codegen/many.yaml): every operation of every range answers for
//! itself, and an unknown name is still unknown.

use toolc_generated_tests::many::playbooks::plays::{Plays, PlaysPlaybook};
use toolc_generated_tests::many::toolboxes::many::{self, Many, ManyToolbox};
use toolc_runtime::{ErrorKind, HandlerError, Playbook, ToolContext, Violations};

struct Impl;

/// Each tool adds its number to `amount`.
macro_rules! tools {
    ($($method:ident $params:ident $k:literal)* ; $($refine:item)*) => {
        impl Many for Impl {
            $(
                async fn $method(
                    &self,
                    params: many::$params,
                    _: &ToolContext<'_, many::Scope>,
                ) -> Result<i64, HandlerError> {
                    Ok(params.amount + $k)
                }
            )*
            $($refine)*
        }
    };
}

/// Each play answers its number.
macro_rules! plays {
    ($($method:ident $k:literal)*) => {
        impl Plays for Impl {
            $(
                async fn $method(&self) -> Result<i64, HandlerError> {
                    Ok($k)
                }
            )*
        }
    };
}

tools! {
    add_0 Add0Params 0 add_1 Add1Params 1 add_2 Add2Params 2 add_3 Add3Params 3
    add_4 Add4Params 4 add_5 Add5Params 5 add_6 Add6Params 6 add_7 Add7Params 7
    add_8 Add8Params 8 add_9 Add9Params 9 add_10 Add10Params 10 add_11 Add11Params 11
    add_12 Add12Params 12 add_13 Add13Params 13 add_14 Add14Params 14 add_15 Add15Params 15
    add_16 Add16Params 16 add_17 Add17Params 17 add_18 Add18Params 18 add_19 Add19Params 19
    add_20 Add20Params 20 add_21 Add21Params 21 add_22 Add22Params 22 add_23 Add23Params 23
    add_24 Add24Params 24 add_25 Add25Params 25 add_26 Add26Params 26 add_27 Add27Params 27
    add_28 Add28Params 28 add_29 Add29Params 29 add_30 Add30Params 30 add_31 Add31Params 31
    add_32 Add32Params 32 add_33 Add33Params 33 add_34 Add34Params 34 add_35 Add35Params 35
    add_36 Add36Params 36 add_37 Add37Params 37 add_38 Add38Params 38 add_39 Add39Params 39
    add_40 Add40Params 40 add_41 Add41Params 41 add_42 Add42Params 42 add_43 Add43Params 43
    add_44 Add44Params 44 add_45 Add45Params 45 add_46 Add46Params 46 add_47 Add47Params 47
    add_48 Add48Params 48 add_49 Add49Params 49 add_50 Add50Params 50 add_51 Add51Params 51
    add_52 Add52Params 52 add_53 Add53Params 53 add_54 Add54Params 54 add_55 Add55Params 55
    add_56 Add56Params 56 add_57 Add57Params 57 add_58 Add58Params 58 add_59 Add59Params 59
    add_60 Add60Params 60 add_61 Add61Params 61 add_62 Add62Params 62 add_63 Add63Params 63
    add_64 Add64Params 64 add_65 Add65Params 65 add_66 Add66Params 66 add_67 Add67Params 67
    add_68 Add68Params 68 add_69 Add69Params 69;
    // One refinement in each range: the server's `check_arguments` runs the one of the tool
    // it checks.
    fn refine_add_1(&self, params: &many::Add1Params) -> Result<(), Violations> {
        refuse_seven(params.amount)
    }
    fn refine_add_66(&self, params: &many::Add66Params) -> Result<(), Violations> {
        refuse_seven(params.amount)
    }
}

fn refuse_seven(amount: i64) -> Result<(), Violations> {
    let mut v = Violations::new();
    if amount == 7 {
        v.push("/amount", "seven is refused");
    }
    v.into_result()
}

plays! {
    play_0 0 play_1 1 play_2 2 play_3 3 play_4 4 play_5 5 play_6 6 play_7 7
    play_8 8 play_9 9 play_10 10 play_11 11 play_12 12 play_13 13 play_14 14 play_15 15
    play_16 16 play_17 17 play_18 18 play_19 19 play_20 20 play_21 21 play_22 22 play_23 23
    play_24 24 play_25 25 play_26 26 play_27 27 play_28 28 play_29 29 play_30 30 play_31 31
    play_32 32 play_33 33 play_34 34 play_35 35 play_36 36 play_37 37 play_38 38 play_39 39
    play_40 40 play_41 41 play_42 42 play_43 43 play_44 44 play_45 45 play_46 46 play_47 47
    play_48 48 play_49 49 play_50 50 play_51 51 play_52 52 play_53 53 play_54 54 play_55 55
    play_56 56 play_57 57 play_58 58 play_59 59 play_60 60 play_61 61 play_62 62 play_63 63
    play_64 64 play_65 65
}

#[test]
fn every_tool_of_every_range_answers_for_itself() {
    let toolbox = ManyToolbox::new(Impl);
    for k in 0..70 {
        let answer = crate::call(&toolbox, &format!("add_{k}"), r#"{"amount": 1000}"#);
        assert_eq!(answer.unwrap(), serde_json::json!(1000 + k), "add_{k}");
    }
    let e = crate::call(&toolbox, "add_70", r#"{"amount": 1}"#).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownTool);
    // The second range checks its arguments as the first does.
    let e = crate::call(&toolbox, "add_69", r#"{"amount": -1}"#).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
    assert!(
        toolbox
            .check_arguments("add_64", r#"{"amount": 2}"#)
            .is_ok()
    );
}

#[test]
fn the_servers_check_arguments_checks_every_tool_of_every_range() {
    let toolbox = ManyToolbox::new(Impl);
    for k in 0..70 {
        let tool = format!("add_{k}");
        let read = toolbox.check_arguments(&tool, r#"{"amount": 3}"#);
        assert_eq!(read.unwrap(), serde_json::json!({"amount": 3}), "{tool}");
        let e = toolbox
            .check_arguments(&tool, r#"{"amount": -1}"#)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{tool}");
        // Only the tools that refine their arguments refuse 7, each through its own method.
        let seven = toolbox.check_arguments(&tool, r#"{"amount": 7}"#);
        assert_eq!(seven.is_err(), k == 1 || k == 66, "{tool}");
        // The module's function, which knows no implementation, does not refine.
        assert!(
            many::check_arguments(&tool, r#"{"amount": 7}"#).is_ok(),
            "{tool}"
        );
    }
    let seven = r#"{"amount": 7}"#;
    let e = crate::call(&toolbox, "add_66", seven).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
    assert!(crate::call(&toolbox, "add_65", seven).is_ok());
    for unknown in ["add_70", "", "add_0 "] {
        let e = toolbox.check_arguments(unknown, "{}").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnknownTool, "{unknown:?}");
    }
    let playbook = PlaysPlaybook::new(Impl);
    assert!(playbook.check_arguments("play_65", "{}").is_ok());
    let e = playbook.check_arguments("play_66", "{}").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownTool);
}

#[test]
fn every_play_of_every_range_answers_for_itself() {
    let playbook = PlaysPlaybook::new(Impl);
    for k in 0..66 {
        let answer = crate::block_on(playbook.call(&format!("play_{k}"), "{}"));
        assert_eq!(answer.unwrap(), serde_json::json!(k), "play_{k}");
    }
    let e = crate::block_on(playbook.call("play_66", "{}")).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownTool);
}
