//! Decks stacked while a game is played (`Game::stack_deck`, a web table's fair deals): a
//! step that needs a deck the stacks lack is left undone and names it (`apply_stacked`), and
//! a deck stacked before the step that deals it deals as the same deck stacked at the start,
//! the chance counters say what was drawn and what is still stacked, and a deck that is not
//! the pack is refused with nothing changed.

use cardtable_core::chance::shuffled;
use cardtable_core::game::{apply_stacked, Game, Missing, PlayoutRng, Stacked};
use cardtable_core::{KnockoutWhist, KrytNavalivat, Neuf, OptionValue};
use rand::SeedableRng;

fn deck(seed: i128, label: &str) -> Vec<u8> {
    shuffled(seed, label, &(0..52).collect::<Vec<u8>>(), None)
}

/// A position without its seed and its stacked decks, which the two states below differ in.
fn played(position: &str) -> String {
    position
        .split(' ')
        .filter(|field| !field.starts_with("seed=") && !field.starts_with("stacked="))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays `G` from two states, one given every deck at the start and one given each deck
/// just before the step that deals it, the same actions in both: they stay equal, step for
/// step, and the late one never deals from its seed.
fn stacked_late_is_stacked_early<G: Game>(options: &G::Options) {
    let decks: Vec<Vec<u8>> = (0..8).map(|i| deck(7, &format!("hand {i}"))).collect();
    let early_stack = Stacked {
        decks: decks.clone(),
        reshuffles: Vec::new(),
    };
    let late_stack = Stacked {
        decks: decks[..1].to_vec(),
        reshuffles: Vec::new(),
    };
    let mut early = G::begin(options, 1, 0, early_stack).expect("stacked decks are packs");
    // Another seed: any deck dealt from it would differ.
    let mut late = G::begin(options, 2, 0, late_stack).expect("stacked decks are packs");
    let mut given = 1;
    let mut rng = PlayoutRng::seed_from_u64(5);
    while early.to_move().is_some() {
        let action = early.random_action(&mut rng);
        early.apply(action);
        if let Some(missing) = apply_stacked(&mut late, action) {
            // Left as it was, naming the deck it lacks: stacked, the step deals it.
            assert_eq!(missing, Missing::Deck(given as u64));
            late.stack_deck(decks[given].clone()).expect("a pack");
            given += 1;
            assert_eq!(apply_stacked(&mut late, action), None);
        }
        assert_eq!(played(&early.position()), played(&late.position()));
        assert_eq!(early.chances_drawn(), late.chances_drawn());
    }
    assert!(given > 1, "a later deck was stacked while playing");
}

#[test]
fn knockout_whist_deals_a_deck_stacked_late_as_one_stacked_at_the_start() {
    let options = KnockoutWhist::options(&[("players".into(), OptionValue::Int(4))]).unwrap();
    stacked_late_is_stacked_early::<KnockoutWhist>(&options);
}

#[test]
fn neuf_deals_a_deck_stacked_late_as_one_stacked_at_the_start() {
    let options = Neuf::options(&[("players".into(), OptionValue::Int(3))]).unwrap();
    stacked_late_is_stacked_early::<Neuf>(&options);
}

#[test]
fn a_deck_that_is_not_the_pack_is_refused_and_changes_nothing() {
    let options = Neuf::options(&[("players".into(), OptionValue::Int(3))]).unwrap();
    let mut state = Neuf::begin(&options, 3, 0, Stacked::default()).unwrap();
    let before = state.position();
    let mut short = deck(3, "x");
    short.pop();
    let error = state.stack_deck(short).unwrap_err();
    assert!(error.0.contains("has 51 cards, not 52"), "{}", error.0);
    let mut repeated = deck(3, "x");
    repeated[1] = repeated[0];
    assert!(state
        .stack_deck(repeated)
        .unwrap_err()
        .0
        .contains("repeats"));
    assert_eq!(state.position(), before);
    assert_eq!(state.chances_stacked(), (0, 0));
}

#[test]
fn kryt_navalivat_deals_once_and_refuses_a_later_deck() {
    let options = KrytNavalivat::options(&[]).unwrap();
    let mut state = KrytNavalivat::begin(&options, 3, 0, Stacked::default()).unwrap();
    assert_eq!(state.chances_drawn(), (1, 0));
    let error = state.stack_deck(deck(3, "x")).unwrap_err();
    assert!(error.0.contains("deals once"), "{}", error.0);
}
