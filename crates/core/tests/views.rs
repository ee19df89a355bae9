//! Each game's view struct, read with serde: a view `state.view` writes is read, one with a
//! field unknown or missing is refused by name, and the field names serde knows (asked of
//! its derived code by the probe of `views::fields_of`) reach every nested struct.

use cardtable_core::game::{new_game, Game, OptionValue};
use cardtable_core::views::{self, Fields};
use cardtable_core::{knockout_whist, kryt_navalivat, neuf, KnockoutWhist, KrytNavalivat, Neuf};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A view the core wrote, as JSON.
fn written<T: serde::Serialize>(view: &T) -> serde_json::Value {
    serde_json::to_value(view).expect("a view is JSON")
}

fn refusal<V: DeserializeOwned>(view: &Value) -> String {
    match views::check::<V>(view) {
        Err(why) => why,
        Ok(()) => panic!("the view is not refused: {view}"),
    }
}

fn check_struct<V: DeserializeOwned>(view: &Value) {
    assert_eq!(views::check::<V>(view), Ok(()), "{view}");
    let mut unknown = view.clone();
    unknown["bid"] = 1.into();
    assert!(refusal::<V>(&unknown).contains("unknown field `bid`"));
    let mut missing = view.clone();
    missing.as_object_mut().unwrap().remove("dealer");
    assert!(refusal::<V>(&missing).contains("missing field `dealer`"));
    let mut mistyped = view.clone();
    mistyped["players"] = "three".into();
    assert!(refusal::<V>(&mistyped).starts_with("players: invalid type"));
}

#[test]
fn each_games_view_struct_reads_its_views_and_refuses_others() {
    assert!(refusal::<knockout_whist::View>(&Value::Null).contains("invalid type: null"));
    let three = [("players".to_string(), OptionValue::Int(3))];
    let whist = KnockoutWhist::options(&three).unwrap();
    let whist_state: KnockoutWhist = new_game(&whist, 5);
    check_struct::<knockout_whist::View>(&written(&whist_state.view(Some(0))));
    check_struct::<knockout_whist::View>(&written(&whist_state.view(None)));
    let neuf = Neuf::options(&three).unwrap();
    let neuf_state: Neuf = new_game(&neuf, 5);
    check_struct::<neuf::View>(&written(&neuf_state.view(Some(0))));
    check_struct::<neuf::View>(&written(&neuf_state.view(None)));
    let kryt = KrytNavalivat::options(&three).unwrap();
    let kryt_state: KrytNavalivat = new_game(&kryt, 5);
    check_struct::<kryt_navalivat::View>(&written(&kryt_state.view(Some(0))));
    check_struct::<kryt_navalivat::View>(&written(&kryt_state.view(None)));
}

#[test]
fn the_probe_names_every_struct_of_a_view() {
    let kw: Fields = views::fields_of::<knockout_whist::View>();
    assert_eq!(kw[""].first().map(String::as_str), Some("game"));
    assert!(kw[""].contains(&"previous_hand".to_string()));
    assert_eq!(kw["options"], ["players"]);
    assert_eq!(kw["tricks[]"], ["plays", "winner"]);
    assert_eq!(kw["previous_hand.tricks[]"], kw["tricks[]"]);
    let neuf = views::fields_of::<neuf::View>();
    assert_eq!(
        neuf["ledger[]"],
        ["deal", "trump", "dealer", "tricks", "scores", "total"]
    );
    assert_eq!(neuf["previous_deal"], ["tricks", "spare"]);
    let kryt = views::fields_of::<kryt_navalivat::View>();
    assert_eq!(kryt.keys().collect::<Vec<_>>(), ["", "options"]);
}
