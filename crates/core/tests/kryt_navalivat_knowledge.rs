//! The Kryt'-navalivat' determinizer (`Knowledge`, the port of `KrytNavalivatKnowledge`): a seat's
//! view read into what it knows (KRYT-9), and full states sampled from it that the seat
//! cannot tell from the real one. What a seat sees, by KRYT-9 and K-10: its own hand, the
//! whole pile, the turned card while it lies under the stock (KRYT-2.5), every count, and
//! the cards each seat is known to hold (picked up, KRYT-5, or the turned card taken by the
//! swap, KRYT-6, or drawn last). A pick-up is always allowed (KRYT-4.2b), so no void is
//! ever revealed: every unseen card may lie in any other hand's unknown places or in the
//! face-down stock.

use cardtable_core::cards::{bit, cards, CardSet};
use cardtable_core::game::{new_game, Determinize, Game, OptionValue, PlayoutRng};
use cardtable_core::kryt_navalivat::beating::PACK_36_SET;
use cardtable_core::kryt_navalivat::{Knowledge, Options, TrumpMode};
use cardtable_core::KrytNavalivat;
use rand::{Rng, SeedableRng};
use serde_json::Value;

/// A view the core wrote, as JSON.
fn written<T: serde::Serialize>(view: &T) -> serde_json::Value {
    serde_json::to_value(view).expect("a view is JSON")
}

struct Case {
    players: usize,
    permanent: bool,
    position: &'static str,
    view: &'static str,
}

/// Positions met along seeded random games of the Python engine, each with
/// `json.dumps(state.view(state.to_move))` as the Python engine writes it: a respond
/// after a pick-up (3 seats), permanent trumps with every seat known to hold cards (4
/// seats), a cover with ten known cards (2 seats), and the free card of KRYT-4.3 with the
/// stock empty and nothing left unseen (3 seats).
const CASES: [Case; 4] = [
    Case {
        players: 3,
        permanent: false,
        position: "kryt/1 players=3 trumps=S dealer=1 hands=10C,6D,9D/7C,KC,AD,9H/QD,6H,KH known=-/AD/- pile=9S,AS,AH,KS faceup=6S stock=8D,6C,10H,7D,8C,10S,8S,10D,7H,JC,QH,9C,JH,JD,AC,KD,7S,QC,JS,QS,8H turn=respond to_move=2 result=- seed=5",
        view: r#"{"game": "kryt-navalivat", "options": {"players": 3, "trump_mode": "turned"}, "seat": 2, "players": 3, "dealer": 1, "trump_mode": "turned", "trump": "S", "anti_trump": null, "trump_card": "6S", "stock": 22, "hand_sizes": [3, 4, 3], "known": [[], ["AD"], []], "out": [], "pile": ["9S", "AS", "AH", "KS"], "would_take": ["AS", "AH", "KS"], "phase": "respond", "to_move": 2, "loser": null, "draw": false, "hand": ["QD", "6H", "KH"], "legal_actions": ["take"]}"#,
    },
    Case {
        players: 4,
        permanent: true,
        position: "kryt/1 players=4 trumps=permanent dealer=1 hands=7C,QC,9D,JH/8C,9C,AC,QH,JS/KC,9H,8S,KS/10D,AH,9S known=QC,9D,JH/9C,AC/8S,KS/10D,9S pile=10H,AD,6H,8D,KD,7H,8H,6D,6S,7S,10S,AS faceup=- stock=JD,JC,KH,10C,6C,QD,QS,7D turn=respond to_move=2 result=- seed=7",
        view: r#"{"game": "kryt-navalivat", "options": {"players": 4, "trump_mode": "permanent"}, "seat": 2, "players": 4, "dealer": 1, "trump_mode": "permanent", "trump": "D", "anti_trump": "S", "trump_card": null, "stock": 8, "hand_sizes": [4, 5, 4, 3], "known": [["QC", "9D", "JH"], ["9C", "AC"], ["8S", "KS"], ["10D", "9S"]], "out": [], "pile": ["10H", "AD", "6H", "8D", "KD", "7H", "8H", "6D", "6S", "7S", "10S", "AS"], "would_take": ["AS"], "phase": "respond", "to_move": 2, "loser": null, "draw": false, "hand": ["KC", "9H", "8S", "KS"], "legal_actions": ["take"]}"#,
    },
    Case {
        players: 2,
        permanent: false,
        position: "kryt/1 players=2 trumps=C dealer=1 hands=8H,9H,JH/8C,QC,KC,AC,9D,JD,QD,6H,7H,10H,AS known=JH/8C,QC,KC,AC,JD,QD,6H,7H,10H,AS pile=JS,KS faceup=6C stock=JC,10S,QS,8S,AD,10C,6D,QH,8D,6S,7S,AH,9S,7C,7D,KD,9C,KH,10D turn=cover to_move=1 result=- seed=3",
        view: r#"{"game": "kryt-navalivat", "options": {"players": 2, "trump_mode": "turned"}, "seat": 1, "players": 2, "dealer": 1, "trump_mode": "turned", "trump": "C", "anti_trump": null, "trump_card": "6C", "stock": 20, "hand_sizes": [3, 11], "known": [["JH"], ["8C", "QC", "KC", "AC", "JD", "QD", "6H", "7H", "10H", "AS"]], "out": [], "pile": ["JS", "KS"], "would_take": [], "phase": "cover", "to_move": 1, "loser": null, "draw": false, "hand": ["8C", "QC", "KC", "AC", "9D", "JD", "QD", "6H", "7H", "10H", "AS"], "legal_actions": ["cover 8C", "cover QC", "cover KC", "cover AC", "cover 9D", "cover JD", "cover QD", "cover 6H", "cover 7H", "cover 10H", "cover AS"]}"#,
    },
    Case {
        players: 3,
        permanent: false,
        position: "kryt/1 players=3 trumps=C dealer=2 hands=6C,8C,9C,10C,QC,KC,AC,6D,7D,8D,9D,10D,JD,KD,AD,6H,7H,9H,JH,QH,AH,6S,8S,JS,AS/7C,JC,QD,8H,10H,KH,9S,QS,KS/- known=6C,8C,9C,10C,QC,KC,AC,6D,7D,8D,9D,10D,JD,KD,AD,6H,7H,9H,JH,QH,AH,6S,8S,JS,AS/7C,JC,QD,8H,10H,KH,9S,QS,KS/- pile=7S,10S faceup=- stock=- turn=free to_move=0 result=- seed=3",
        view: r#"{"game": "kryt-navalivat", "options": {"players": 3, "trump_mode": "turned"}, "seat": 0, "players": 3, "dealer": 2, "trump_mode": "turned", "trump": "C", "anti_trump": null, "trump_card": null, "stock": 0, "hand_sizes": [25, 9, 0], "known": [["6C", "8C", "9C", "10C", "QC", "KC", "AC", "6D", "7D", "8D", "9D", "10D", "JD", "KD", "AD", "6H", "7H", "9H", "JH", "QH", "AH", "6S", "8S", "JS", "AS"], ["7C", "JC", "QD", "8H", "10H", "KH", "9S", "QS", "KS"], []], "out": [2], "pile": ["7S", "10S"], "would_take": ["10S"], "phase": "free", "to_move": 0, "loser": null, "draw": false, "hand": ["6C", "8C", "9C", "10C", "QC", "KC", "AC", "6D", "7D", "8D", "9D", "10D", "JD", "KD", "AD", "6H", "7H", "9H", "JH", "QH", "AH", "6S", "8S", "JS", "AS"], "legal_actions": ["lead 6C", "lead 8C", "lead 9C", "lead 10C", "lead QC", "lead KC", "lead AC", "lead 6D", "lead 7D", "lead 8D", "lead 9D", "lead 10D", "lead JD", "lead KD", "lead AD", "lead 6H", "lead 7H", "lead 9H", "lead JH", "lead QH", "lead AH", "lead 6S", "lead 8S", "lead JS", "lead AS", "beat 6C", "beat 8C", "beat 9C", "beat 10C", "beat QC", "beat KC", "beat AC", "beat JS", "beat AS", "take"]}"#,
    },
];

fn options(players: usize, permanent: bool) -> Options {
    let mut pairs = vec![("players".to_string(), OptionValue::Int(players as i64))];
    if permanent {
        pairs.push(("trump_mode".into(), OptionValue::Str("permanent".into())));
    }
    KrytNavalivat::options(&pairs).unwrap()
}

fn case(case: &Case) -> (Options, KrytNavalivat, Value) {
    let options = options(case.players, case.permanent);
    let state = KrytNavalivat::from_position(&options, case.position).unwrap();
    (options, state, serde_json::from_str(case.view).unwrap())
}

/// States met along seeded random games, a seat to move in each (as the Python test's
/// `situations`).
fn situations(options: &Options, count: usize, seed: u64) -> Vec<KrytNavalivat> {
    let mut rng = PlayoutRng::seed_from_u64(seed);
    let mut found = Vec::new();
    let mut game_seed = seed as i128;
    while found.len() < count {
        let mut state: KrytNavalivat = new_game(options, game_seed);
        game_seed += 1;
        while state.to_move().is_some() {
            if rng.random_bool(0.05) {
                found.push(state.clone());
            }
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
    }
    found.truncate(count);
    found
}

fn knowledge(options: &Options, view: &Value) -> Knowledge {
    KrytNavalivat::knowledge(options, view).unwrap()
}

/// Every fact the seat sees is the same in `sample` as in `real` (KRYT-9, K-10).
fn check_sample(options: &Options, real: &KrytNavalivat, sample: &KrytNavalivat, seat: usize) {
    let n = real.players();
    assert_eq!(
        written(&sample.view(Some(seat))),
        written(&real.view(Some(seat)))
    );
    // The seat's own cards never move; the pile and the turned card stay where they lie.
    assert_eq!(sample.hand(seat), real.hand(seat));
    assert_eq!(sample.pile(), real.pile());
    assert_eq!(sample.faceup(), real.faceup());
    assert_eq!(sample.stock_count(), real.stock_count());
    let mut all: CardSet = sample.pile().iter().fold(0, |s, &c| s | bit(c));
    for s in 0..n {
        // K-10: a seat holds the cards it is known to hold, and as many cards as it has.
        assert_eq!(sample.known(s), real.known(s));
        assert_eq!(sample.known(s) & !sample.hand(s), 0);
        assert_eq!(sample.hand(s).count_ones(), real.hand(s).count_ones());
        assert_eq!(all & sample.hand(s), 0);
        all |= sample.hand(s);
    }
    // KRYT-11.1: the pack, once each.
    for &c in sample.stock().iter().chain(sample.faceup().iter()) {
        assert_eq!(all & bit(c), 0);
        all |= bit(c);
    }
    assert_eq!(all, PACK_36_SET);
    assert_eq!(sample.legal_mask(), real.legal_mask());
    assert_eq!(sample.to_move(), Some(seat));
    // A fresh seed of 63 bits, and a position that reads back as the same state.
    assert!((0..1 << 63).contains(&sample.seed()));
    let back = KrytNavalivat::from_position(options, &sample.position()).unwrap();
    assert_eq!(&back, sample);
}

#[test]
fn the_core_writes_the_python_engines_views() {
    // KRYT-9: the view the samples are checked against is the Python engine's.
    for c in &CASES {
        let (_, state, view) = case(c);
        let seat = state.to_move().unwrap();
        assert_eq!(written(&state.view(Some(seat))), view, "{}", c.position);
    }
}

#[test]
fn samples_of_python_views_keep_every_fact_the_seat_sees() {
    // KRYT-9, K-10, KRYT-2.5.
    for c in &CASES {
        let (options, state, view) = case(c);
        let seat = state.to_move().unwrap();
        let knowledge = knowledge(&options, &view);
        assert_eq!(KrytNavalivat::knower(&knowledge), seat);
        let mut rng = PlayoutRng::seed_from_u64(1);
        for _ in 0..200 {
            let sample = KrytNavalivat::sample(&knowledge, &mut rng);
            check_sample(&options, &state, &sample, seat);
        }
    }
}

#[test]
fn samples_along_random_games_keep_every_fact_the_seat_sees() {
    // KRYT-9, K-10, in every turn mode of KRYT-4 and KRYT-10, both trump modes (KRYT-8).
    for (players, permanent) in [(2, false), (3, false), (4, true), (6, false), (5, true)] {
        let options = options(players, permanent);
        for (i, state) in situations(&options, 40, players as u64).iter().enumerate() {
            let seat = state.to_move().unwrap();
            let knowledge = knowledge(&options, &written(&state.view(Some(seat))));
            let mut rng = PlayoutRng::seed_from_u64(i as u64);
            for _ in 0..20 {
                let sample = KrytNavalivat::sample(&knowledge, &mut rng);
                check_sample(&options, state, &sample, seat);
            }
        }
    }
}

#[test]
fn unseen_cards_land_anywhere_the_seat_cannot_see_uniformly() {
    // KRYT-4.2b: no void is revealed, so each unseen card is equally likely in each unknown
    // place. In the first case seat 2 sees 9 cards (its hand, the pile of 4, the turned
    // 6S, seat 1's AD): the other 27 fill seat 0's 3 places, seat 1's 3 unknown places and
    // the 21 face-down cards of the stock.
    let (options, state, view) = case(&CASES[0]);
    let knowledge = knowledge(&options, &view);
    let unseen: Vec<u8> = cards(PACK_36_SET)
        .filter(|&c| {
            state.hand(2) & bit(c) == 0
                && !state.pile().contains(&c)
                && state.faceup() != Some(c)
                && state.known(1) & bit(c) == 0
        })
        .collect();
    assert_eq!(unseen.len(), 27);
    let draws = 5400;
    let mut seat0 = [0u32; 52];
    let mut seat1 = [0u32; 52];
    let mut stock_top = [0u32; 52];
    let mut seeds = std::collections::HashSet::new();
    let mut rng = PlayoutRng::seed_from_u64(7);
    for _ in 0..draws {
        let sample = KrytNavalivat::sample(&knowledge, &mut rng);
        for &c in &unseen {
            seat0[c as usize] += (sample.hand(0) >> c & 1) as u32;
            seat1[c as usize] += (sample.hand(1) >> c & 1) as u32;
        }
        stock_top[sample.stock()[0] as usize] += 1;
        seeds.insert(sample.seed());
    }
    // Each place holds a given card with chance 3/27 (a hand) or 1/27 (the stock's top):
    // 600 and 200 expected, checked within five standard deviations.
    for &c in &unseen {
        let c = c as usize;
        for (got, expected) in [(seat0[c], 600.0), (seat1[c], 600.0), (stock_top[c], 200.0)] {
            let p = expected / draws as f64;
            let sd = (draws as f64 * p * (1.0 - p)).sqrt();
            assert!((got as f64 - expected).abs() < 5.0 * sd, "card {c}: {got}");
        }
    }
    // The seen cards never move, and every sample has its own seed.
    assert_eq!(seat1[*state.pile().first().unwrap() as usize], 0);
    assert_eq!(seeds.len(), draws);
}

#[test]
fn with_nothing_unseen_only_the_seed_changes() {
    // KRYT-9 with the stock empty and every other card known (K-10): nothing to deal.
    let (options, state, view) = case(&CASES[3]);
    let knowledge = knowledge(&options, &view);
    let mut rng = PlayoutRng::seed_from_u64(3);
    for _ in 0..20 {
        let sample = KrytNavalivat::sample(&knowledge, &mut rng);
        for s in 0..3 {
            assert_eq!(sample.hand(s), state.hand(s));
        }
    }
}

fn refusal(options: &Options, view: &Value) -> String {
    KrytNavalivat::knowledge(options, view).unwrap_err().0
}

fn edited(view: &Value, key: &str, value: Value) -> Value {
    let mut view = view.clone();
    view[key] = value;
    view
}

#[test]
fn views_that_are_not_a_seats_view_of_this_game_are_refused() {
    let (options, state, view) = case(&CASES[0]);
    let json = |text: &str| -> Value { serde_json::from_str(text).unwrap() };
    let cases: Vec<(Value, &str)> = vec![
        (json("[1, 2]"), "not a view of a kryt-navalivat game"),
        (
            edited(&view, "game", "neuf".into()),
            "not a view of a kryt-navalivat game",
        ),
        // KRYT-9: a spectator's view holds no hand to keep.
        (written(&state.view(None)), "a spectator sees no hand"),
        (edited(&view, "seat", 3.into()), "a spectator sees no hand"),
        (edited(&view, "players", 4.into()), "other options"),
        (
            edited(&view, "trump_mode", "permanent".into()),
            "other options",
        ),
        (
            edited(&view, "trump", "X".into()),
            "the view's trump 'X' is no suit",
        ),
        (
            edited(&view, "dealer", (-1).into()),
            "the view's dealer should be a count",
        ),
        (
            edited(&view, "known", json("[[], []]")),
            "should have 3 seats",
        ),
        (
            edited(&view, "pile", json(r#"["9S", "2S"]"#)),
            "2S is not in the 36-card pack",
        ),
        (
            edited(&view, "pile", json(r#"["9S", "ZZ"]"#)),
            "the view's pile",
        ),
        (
            edited(&view, "hand", json(r#"["QD", "QD", "KH"]"#)),
            "lists QD twice",
        ),
        // A card in two places: seat 1's known AD also on the pile.
        (
            edited(&view, "pile", json(r#"["9S", "AS", "AH", "AD"]"#)),
            "in two places",
        ),
        (
            edited(&view, "hand_sizes", json("[3, 4, 2]")),
            "hand and its hand size differ",
        ),
        (
            edited(&view, "hand_sizes", json("[3, 0, 3]")),
            "known to hold more cards",
        ),
        (edited(&view, "stock", 21.into()), "do not make up the pack"),
        (edited(&view, "phase", "think".into()), "not a turn mode"),
        // The turn and the actions must follow from the cards (KRYT-4, KRYT-10); the first
        // field that does not is named, with Python's message.
        (
            edited(&view, "to_move", 0.into()),
            "the view's legal_actions (['take']) does not follow from its cards ([])",
        ),
        (
            edited(&view, "would_take", json("[]")),
            "the view's would_take ([]) does not follow from its cards (['AS', 'AH', 'KS'])",
        ),
        // KRYT-7.3: a draw ends the hand. (The Python reader takes this flag as given.)
        (edited(&view, "draw", true.into()), "the view's draw (True)"),
    ];
    for (bad, why) in cases {
        let message = refusal(&options, &bad);
        assert!(message.contains(why), "{message:?} should say {why:?}");
    }
    let mut missing = view.clone();
    missing.as_object_mut().unwrap().remove("dealer");
    assert!(refusal(&options, &missing).contains("missing field `dealer`"));
    // A field no view of this game has is refused too, by name.
    let extra = edited(&view, "bid", 1.into());
    assert!(refusal(&options, &extra).contains("unknown field `bid`"));
    // A view of the permanent game is not one of the turned game with the same seats.
    let permanent = options_permanent(3);
    assert!(refusal(&permanent, &view).contains("other options"));
}

fn options_permanent(players: usize) -> Options {
    let options = options(players, true);
    assert_eq!(options.trump_mode, TrumpMode::Permanent);
    options
}
