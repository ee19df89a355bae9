//! The `neuf/1` position notation in the core (docs/neuf.md; SPEC §0.4 (1): any state can
//! be written down and read back; NEUF-10), mirroring `tests/rules/test_neuf_notation.py`:
//! round trips on states reached by random play, and the positions the Python reader
//! refuses, refused here too.

mod neuf_common;

use cardtable_core::game::{new_game, Game, PlayoutRng};
use cardtable_core::neuf::Neuf;
use neuf_common::*;
use proptest::prelude::*;
use rand::SeedableRng;

fn assert_same(a: &Neuf, b: &Neuf) {
    assert_eq!(a.position(), b.position());
    assert_eq!(a.to_move(), b.to_move());
    assert_eq!(a.legal_mask(), b.legal_mask());
    assert_eq!(a.returns(), b.returns());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// SPEC §0.4 (1): at a random point of a random game the position reads back to the
    /// same text, seat to move and legal actions; both copies, given the same actions,
    /// stay equal through later deals (the seed and the chance count fix them).
    #[test]
    fn positions_read_back_to_the_same_state(
        variant in 0usize..25,
        seed in any::<i64>(),
        steps in 0usize..900,
        follow in any::<u64>(),
    ) {
        let opts = &rule_sets()[variant];
        let mut state: Neuf = new_game(opts, i128::from(seed));
        let mut rng = PlayoutRng::seed_from_u64(follow);
        for _ in 0..steps {
            if state.to_move().is_none() {
                break;
            }
            state.apply(state.random_action(&mut rng));
        }
        let mut again = Neuf::from_position(opts, &state.position()).unwrap();
        assert_same(&state, &again);
        for _ in 0..60 {
            if state.to_move().is_none() {
                break;
            }
            let action = state.random_action(&mut rng);
            state.apply(action);
            again.apply(action);
            assert_same(&state, &again);
        }
    }
}

#[test]
fn a_fresh_deal_and_a_finished_game_read_back() {
    // A fresh deal and a finished game both round-trip; the finished one is over.
    let opts = options(&[("dealer", int(2))]);
    let mut state: Neuf = new_game(&opts, 9);
    assert!(state
        .position()
        .starts_with("neuf/1 players=3 sequence=HDCS-NT first=2 ledger=- "));
    assert_same(&state, &from_position(&opts, &state.position()));
    cardtable_core::game::playout(&mut state, &mut PlayoutRng::seed_from_u64(9));
    let again = from_position(&opts, &state.position());
    assert_same(&state, &again);
    assert_eq!(again.to_move(), None);
}

#[test]
fn stacked_decks_are_written_until_they_are_dealt() {
    // Decks stacked for later deals are part of the state (`stacked=`), dealt before the
    // seed's, and gone from the position once dealt.
    let opts = options(&[("dealer", int(0))]);
    let in_order: Vec<u8> = (0..52).collect();
    let reversed: Vec<u8> = (0..52).rev().collect();
    let stacked = cardtable_core::game::Stacked {
        decks: vec![in_order, reversed],
        reshuffles: vec![],
    };
    let mut state = Neuf::begin(&opts, 3, 0, stacked).unwrap();
    let written = field(&state.position(), "stacked").unwrap().to_string();
    assert_eq!(
        written,
        pack().into_iter().rev().collect::<Vec<_>>().join(",")
    );
    let mut again = from_position(&opts, &state.position());
    let mut rng = PlayoutRng::seed_from_u64(1);
    while state.deal_number() == 1 && state.to_move().is_some() {
        let a = state.random_action(&mut rng);
        state.apply(a);
        again.apply(a);
    }
    if state.to_move().is_some() {
        assert_eq!(field(&state.position(), "stacked"), None);
        // Deal 2 is dealt by seat 1, so seat 1 receives cards 2, 6, … of the second deck.
        let third: Vec<String> = pack().into_iter().rev().skip(2).step_by(4).collect();
        assert_eq!(state.pile(1), set(&third.join(" ")));
        assert_same(&state, &again);
    }
}

#[test]
fn odd_fields_python_accepts_are_accepted_and_written_as_python_writes_them() {
    // The reader takes any tricks in `previous` and any cards in `stacked` (they are not
    // checked against the play), a partnership ledger row given per seat (added up per
    // team), and `phase=over` anywhere.
    let opts = options(&[("dealer", int(0))]);
    let fresh = new_game::<Neuf>(&opts, 1).position();
    for (extra, written) in [
        ("previous=H:-:-", "previous=H:-:-"),
        (
            "previous=NT:0:AS,1:2S,2:3S:4C",
            "previous=NT:0:AS,1:2S,2:3S:4C",
        ),
        ("previous=S:-/-:2C", "previous=S:-/-:2C"),
        ("previous=C:1:ts,0:qh:-", "previous=C:1:10S,0:QH:-"),
        ("stacked=-", "stacked=-"),
        ("stacked=AS,2C/KD", "stacked=AS,2C/KD"),
    ] {
        let state = from_position(&opts, &format!("{fresh} {extra}"));
        assert!(
            state.position().ends_with(&format!(" {written}")),
            "{extra}"
        );
        assert_same(&state, &from_position(&opts, &state.position()));
    }
    let four = options(&[("players", int(4)), ("dealer", int(0))]);
    let fresh4 = new_game::<Neuf>(&four, 1).position();
    let seats = fresh4.replace("ledger=-", "ledger=4,3,3,3");
    let state = from_position(&four, &seats);
    assert_eq!(field(&state.position(), "ledger"), Some("7,6"));
    let over = from_position(&opts, &fresh.replace("phase=exchange", "phase=over"));
    assert_eq!(over.to_move(), None);
    assert_eq!(over.legal_mask(), 0);
}

fn replace(text: &str, key: &str, value: &str) -> String {
    let out: Vec<String> = text
        .split(' ')
        .map(|w| {
            if w.starts_with(&format!("{key}=")) {
                format!("{key}={value}")
            } else {
                w.to_string()
            }
        })
        .collect();
    let out = out.join(" ");
    assert_ne!(out, text, "{key}");
    out
}

fn bad_positions() -> Vec<(&'static str, String, &'static str)> {
    let fresh = new_game::<Neuf>(&options(&[("dealer", int(0))]), 1).position();
    let piles: Vec<Vec<String>> = field(&fresh, "piles")
        .unwrap()
        .split('/')
        .map(|p| p.split(',').map(String::from).collect())
        .collect();
    let join = |p: &[Vec<String>]| p.iter().map(|x| x.join(",")).collect::<Vec<_>>().join("/");
    let mut moved = piles.clone();
    let last = moved[0].pop().unwrap();
    moved[1].push(last);
    let mut duplicated = piles.clone();
    duplicated[0][12] = piles[1][0].clone();
    // Dealer 0: exchange order 1, 2, 0; seat 1 leads.
    let foreign = &piles[0][0];
    let played = replace(
        &replace(&fresh, "phase", "play"),
        "exchanges",
        "1:k,2:k,0:k",
    );
    vec![
        ("header", fresh.replace("neuf/1", "neuf/2"), ""),
        ("other game", fresh.replace("neuf/1", "kow/1"), ""),
        ("missing field", fresh.replace(" seed=1 ", " "), ""),
        ("unknown field", format!("{fresh} colour=red"), ""),
        ("repeated field", format!("{fresh} seed=1"), ""),
        ("not key=value", format!("{fresh} loose"), ""),
        ("players 5", replace(&fresh, "players", "5"), "players"),
        (
            "players of the other variant",
            replace(&fresh, "players", "4"),
            "players",
        ),
        (
            "players not a number",
            replace(&fresh, "players", "three"),
            "players",
        ),
        (
            "sequence not this game's",
            replace(&fresh, "sequence", "HDCS"),
            "sequence",
        ),
        (
            "first dealer out of range",
            replace(&fresh, "first", "3"),
            "first",
        ),
        (
            "ledger row not 13",
            replace(&fresh, "ledger", "5,4,3"),
            "ledger",
        ),
        (
            "ledger row letters",
            replace(&fresh, "ledger", "5,4,x"),
            "ledger",
        ),
        (
            "ledger after a win",
            replace(&fresh, "ledger", "13,0,0/4,4,5"),
            "ledger",
        ),
        (
            "ledger over but play goes on",
            replace(&fresh, "ledger", "13,0,0"),
            "phase",
        ),
        (
            "phase unknown",
            replace(&fresh, "phase", "bidding"),
            "phase",
        ),
        (
            "three piles",
            replace(&fresh, "piles", &join(&piles[..3])),
            "piles",
        ),
        (
            "pile of 12",
            replace(&fresh, "piles", &join(&moved)),
            "piles",
        ),
        (
            "card twice",
            replace(&fresh, "piles", &join(&duplicated)),
            "piles",
        ),
        (
            "bad card in a pile",
            replace(&fresh, "piles", &format!("1X/{}", join(&piles[1..]))),
            "piles",
        ),
        (
            "exchange out of order",
            replace(&fresh, "exchanges", "2:k"),
            "exchanges",
        ),
        (
            "exchange choice",
            replace(&fresh, "exchanges", "1:x"),
            "exchanges",
        ),
        (
            "four decisions",
            replace(&fresh, "exchanges", "1:k,2:k,0:k,1:e"),
            "exchanges",
        ),
        (
            "play before the exchange ends",
            replace(&fresh, "phase", "play"),
            "exchanges",
        ),
        (
            "trick in the exchange",
            replace(&fresh, "trick", &format!("1:{}", piles[1][0])),
            "phase",
        ),
        (
            "card not held",
            replace(&played, "trick", &format!("1:{foreign}")),
            "trick",
        ),
        (
            "seat out of range",
            replace(&played, "trick", &format!("7:{}", piles[1][0])),
            "trick",
        ),
        (
            "short finished trick",
            replace(&played, "done", &format!("1:{}", piles[1][0])),
            "done",
        ),
        ("seed not a number", replace(&fresh, "seed", "x"), "seed"),
        (
            "seed too large",
            replace(&fresh, "seed", "9223372036854775809"),
            "seed",
        ),
        ("chance negative", replace(&fresh, "chance", "-1"), "chance"),
        (
            "previous trump",
            format!("{fresh} previous=X:-:-"),
            "previous",
        ),
        (
            "previous without tricks",
            format!("{fresh} previous=H"),
            "previous",
        ),
        (
            "previous spare",
            format!("{fresh} previous=H:-:1X"),
            "previous",
        ),
        ("stacked empty", format!("{fresh} stacked="), "stacked"),
        ("empty", String::new(), ""),
    ]
}

#[test]
fn invalid_positions_are_refused_naming_the_field() {
    // Positions that are not `neuf/1`, or describe no reachable state of this game: cards
    // must make one pack, decisions follow the order (NEUF-3.1), trick cards must be held
    // (NEUF-4.2), the ledger must add up (NEUF-5.2) and have no winner in play (NEUF-6).
    let opts = options(&[("dealer", int(0))]);
    for (why, text, key) in bad_positions() {
        let error = Neuf::from_position(&opts, &text).expect_err(why).0;
        let named = key.is_empty() || error.contains(&format!("position field {key}="));
        assert!(named, "{why}: {error}");
    }
}

#[test]
fn positions_whose_plays_break_the_rules_are_refused() {
    // NEUF-4.1 / 4.2 / 4.4: the first trick is led by the dealer's left, each later trick
    // by the previous winner, play goes clockwise and follows suit.
    let opts = options(&[("dealer", int(2))]);
    let mut state: Neuf = new_game(&opts, 7);
    for a in [
        "exchange", "keep", "keep", "play 2D", "play KD", "play 10D", "play 8C",
    ] {
        state.apply(action(a));
    }
    let text = state.position();
    assert!(text.contains(" done=0:2D,1:KD,2:10D trick=1:8C "));
    assert!(state.hand(2) & set("5D 7C") == set("5D 7C"));
    for (why, bad) in [
        (
            "led by the wrong seat",
            text.replace("done=0:2D,1:KD,2:10D", "done=1:KD,0:2D,2:10D"),
        ),
        (
            "a revoke in a finished trick",
            text.replace("2:10D trick", "2:7C trick"),
        ),
        (
            "trick led by a loser",
            text.replace("trick=1:8C", "trick=0:3C"),
        ),
    ] {
        assert!(Neuf::from_position(&opts, &bad).is_err(), "{why}");
    }
}

#[test]
fn a_position_with_play_after_a_house_rule_win_is_refused() {
    // NEUF-8.3 / N-7: once a trick winner's surplus takes them to zero the game is over,
    // so a position with play going on after that trick is no reachable state.
    let opts = options(&[("dealer", int(0)), ("tie_avoidance", flag(true))]);
    let mut state: Neuf = new_game(&opts, 0);
    cardtable_core::game::playout(&mut state, &mut PlayoutRng::seed_from_u64(0));
    assert!(
        !state.sheet().is_over(),
        "the house rule ended the game mid-deal"
    );
    let text = state.position();
    assert_eq!(from_position(&opts, &text).to_move(), None);
    let error = Neuf::from_position(&opts, &text.replace("phase=over", "phase=play"))
        .expect_err("play after the win")
        .0;
    assert!(error.contains("NEUF-8.3"), "{error}");
}
