//! The `kryt/1` position notation in the core (docs/kryt-navalivat.md, SPEC §0.4 (1)):
//! round trips on states reached by random play (proptest), the documented field order,
//! and positions that describe no reachable state refused naming their field, as
//! `tests/rules/test_kryt_navalivat_notation.py` checks the Python engine.

mod kryt_navalivat_common;

use cardtable_core::game::{new_game, playout, Game, PlayoutRng};
use cardtable_core::kryt_navalivat::TrumpMode;
use cardtable_core::KrytNavalivat;
use kryt_navalivat_common::*;
use proptest::prelude::*;
use rand::SeedableRng;

fn mode_of(permanent: bool) -> TrumpMode {
    if permanent {
        TrumpMode::Permanent
    } else {
        TrumpMode::Turned
    }
}

/// A state `steps` uniformly random actions into the game of `seed` (or its end).
fn reached(players: usize, permanent: bool, seed: i64, steps: usize) -> KrytNavalivat {
    let options = options(players, mode_of(permanent));
    let mut state: KrytNavalivat = new_game(&options, i128::from(seed));
    let mut rng = PlayoutRng::seed_from_u64(seed as u64);
    for _ in 0..steps {
        if state.to_move().is_none() {
            break;
        }
        let action = state.random_action(&mut rng);
        state.apply(action);
    }
    state
}

fn assert_same(a: &KrytNavalivat, b: &KrytNavalivat) {
    assert_eq!(a.position(), b.position());
    assert_eq!(a.legal_mask(), b.legal_mask());
    assert_eq!(a.to_move(), b.to_move());
    assert_eq!(a.returns(), b.returns());
    assert_eq!(a, b);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// SPEC §0.4 (1): a position read back is the same state: the same text, legal
    /// actions and seat to move; both copies stay equal under the same actions.
    #[test]
    fn kryt_navalivat_position_round_trips_at_random_points(
        players in 2usize..=6,
        permanent: bool,
        seed in any::<i64>(),
        steps in 0usize..3000,
        more in any::<u64>(),
    ) {
        let state = reached(players, permanent, seed, steps);
        let options = options(players, mode_of(permanent));
        let again = KrytNavalivat::from_position(&options, &state.position()).unwrap();
        assert_same(&state, &again);
        let (mut mirror, mut copy) = (state.clone(), again);
        let mut rng = PlayoutRng::seed_from_u64(more);
        for _ in 0..8 {
            if mirror.to_move().is_none() {
                break;
            }
            let action = mirror.random_action(&mut rng);
            mirror.apply(action);
            copy.apply(action);
            assert_same(&mirror, &copy);
        }
    }
}

#[test]
fn kryt_navalivat_position_round_trips_at_the_end_of_random_games() {
    // KRYT-7.2 / KRYT-7.3: ended hands (a fool or a draw) read back too.
    for (players, mode, seed) in games() {
        let mut state: KrytNavalivat = new_game(&options(players, mode), i128::from(seed));
        playout(&mut state, &mut PlayoutRng::seed_from_u64(seed));
        let text = state.position();
        assert!(!text.ends_with(&format!("result=- seed={seed}")));
        let again = KrytNavalivat::from_position(&options(players, mode), &text).unwrap();
        assert_same(&state, &again);
    }
}

fn ex_1_after_lead() -> String {
    let mut state = dealt(3, C, TrumpMode::Turned, &ex_1_deck(), 1);
    play(&mut state, "lead 7D");
    state.position()
}

#[test]
fn kryt_navalivat_position_names_every_field_of_ex_1_after_a_lead() {
    // The documented field order and values for KRYT-EX-1 after A's lead (A drew QS).
    let text = ex_1_after_lead();
    assert!(text.starts_with("kryt/1 "));
    let got: Vec<(String, String)> = text
        .split_whitespace()
        .skip(1)
        .map(|w| {
            let (k, v) = w.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect();
    let keys: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "players", "trumps", "dealer", "hands", "known", "pile", "faceup", "stock", "turn",
            "to_move", "result", "seed"
        ]
    );
    let value = |k: &str| got.iter().find(|(key, _)| key == k).unwrap().1.clone();
    assert_eq!(value("hands"), "10D,9S,QS/KD,6H,10S/9C,KC,8S"); // each hand in index order
    assert_eq!(
        [
            value("trumps"),
            value("faceup"),
            value("pile"),
            value("known")
        ],
        ["C", "8C", "7D", "-/-/-"]
    );
    assert!(value("stock").starts_with("7H,8H,9H,") && value("stock").ends_with("KS,AS"));
    assert_eq!(
        [
            value("turn"),
            value("to_move"),
            value("result"),
            value("seed")
        ],
        ["respond", "1", "-", "1"]
    );
}

fn replace(text: &str, key: &str, value: &str) -> String {
    let prefix = format!("{key}=");
    let out: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            if w.starts_with(&prefix) {
                format!("{key}={value}")
            } else {
                w.to_string()
            }
        })
        .collect();
    let joined = out.join(" ");
    assert_ne!(joined, text, "{key} not replaced");
    joined
}

fn field(text: &str, key: &str) -> String {
    let prefix = format!("{key}=");
    text.split_whitespace()
        .find_map(|w| w.strip_prefix(&prefix))
        .unwrap()
        .to_string()
}

/// (why, trump mode, text, what the message names) for positions of a 3-player game.
fn bad_positions() -> Vec<(&'static str, TrumpMode, String, String)> {
    let good = ex_1_after_lead(); // A 9S,10D,QS; B 6H,KD,10S; C 9C,KC,8S; pile 7D; 8C turned
    let (hands, stock) = (field(&good, "hands"), field(&good, "stock"));
    let with = |changes: &[(&str, &str)]| {
        changes
            .iter()
            .fold(good.clone(), |text, (k, v)| replace(&text, k, v))
    };
    let f = |key: &str| format!("field {key}=");
    let jh = format!("{FILL} JH");
    let empty_stock = Compose::new(&["QH", "7S 8S", "9D 10D"]).pile(&jh).text();
    let one_out = Compose::new(&["QH", "", "7S 8S"]).pile(&jh).text();
    let over_pile = format!("{FILL} JH QH AD");
    let over = Compose::new(&["", "", "7C 8C 9S"])
        .pile(&over_pile)
        .mover(None)
        .turn("over")
        .result("loser:2")
        .text();
    let permanent = Compose::new(&["JD QD KD", "JC QC KC", "JH QH KH"])
        .stock(FILL)
        .trumps("permanent")
        .turn("lead")
        .text();
    let permanent_stock = field(&permanent, "stock").replace(",AD", "");
    let two_hands = hands.rsplit_once('/').unwrap().0.to_string();
    let no_as = stock.strip_suffix(",AS").unwrap().to_string();
    let turned: Vec<(&str, String, String)> = vec![
        (
            "bad header",
            good.replace("kryt/1", "kryt/2"),
            "kryt/1".into(),
        ),
        (
            "other game's header",
            good.replace("kryt/1", "neuf/1"),
            "kryt/1".into(),
        ),
        (
            "wrong player count",
            with(&[("players", "2")]),
            f("players"),
        ),
        ("players 7", with(&[("players", "7")]), f("players")),
        (
            "unknown field",
            format!("{good} colour=red"),
            "unknown: [\"colour\"]".into(),
        ),
        (
            "missing field",
            good.replace(" seed=1", ""),
            "missing: [\"seed\"]".into(),
        ),
        ("repeated field", format!("{good} seed=1"), "seed=1".into()),
        ("trumps not a suit", with(&[("trumps", "X")]), f("trumps")),
        (
            "trumps permanent in a turned game",
            with(&[("trumps", "permanent")]),
            f("trumps"),
        ),
        ("dealer out of range", with(&[("dealer", "3")]), f("dealer")),
        (
            "two hands for three players",
            with(&[("hands", &two_hands)]),
            f("hands"),
        ),
        (
            "bad card",
            with(&[("hands", &hands.replace("QS", "1X"))]),
            f("hands"),
        ),
        (
            "card outside the pack",
            with(&[("hands", &hands.replace("QS", "2C"))]),
            f("hands"),
        ),
        (
            "card twice in a hand",
            with(&[("hands", &hands.replace("QS", "QS,QS"))]),
            f("hands"),
        ),
        (
            "card in a hand and the pile",
            with(&[("pile", "7D,QS")]),
            f("hands"),
        ),
        ("missing card", with(&[("stock", &no_as)]), f("hands")),
        (
            "bad card in the stock",
            with(&[("stock", &stock.replace("AS", "AX"))]),
            f("stock"),
        ),
        ("bad card in the pile", with(&[("pile", "7X")]), f("pile")),
        ("known not held", with(&[("known", "KD/-/-")]), f("known")),
        ("known lists", with(&[("known", "-/-")]), f("known")),
        (
            "turned card not a trump",
            with(&[("faceup", "8H"), ("stock", &stock.replace("8H", "8C"))]),
            f("faceup"),
        ),
        (
            "two turned cards",
            with(&[("faceup", "8C,AS"), ("stock", &no_as)]),
            f("faceup"),
        ),
        ("lead with a pile", with(&[("turn", "lead")]), f("turn")),
        (
            "respond on an empty pile",
            with(&[("pile", "-"), ("hands", &hands.replace("QS", "QS,7D"))]),
            f("turn"),
        ),
        ("unknown turn", with(&[("turn", "attack")]), f("turn")),
        ("free with a stock", with(&[("turn", "free")]), f("turn")),
        (
            "result while playing",
            with(&[("result", "loser:2")]),
            f("result"),
        ),
        (
            "to_move out of range",
            with(&[("to_move", "3")]),
            f("to_move"),
        ),
        (
            "hands below 3 while the stock lasts",
            with(&[("hands", &hands.replace(",QS", "")), ("pile", "7D,QS")]),
            f("hands"),
        ),
        ("seed not a number", with(&[("seed", "x")]), f("seed")),
        (
            "seed past 2**63",
            with(&[("seed", "9223372036854775809")]),
            f("seed"),
        ),
        (
            "mover without cards",
            replace(&one_out, "to_move", "1"),
            f("to_move"),
        ),
        (
            "one holder left but not over",
            replace(&empty_stock, "hands", "QH,7S,8S,9D,10D/-/-"),
            f("turn"),
        ),
        (
            "over without a result",
            replace(&over, "result", "-"),
            f("result"),
        ),
        (
            "over with the wrong loser",
            replace(&over, "result", "loser:0"),
            f("result"),
        ),
        (
            "a draw that is not a draw",
            replace(&over, "result", "draw"),
            f("result"),
        ),
        (
            "over with a mover",
            replace(&over, "to_move", "2"),
            f("to_move"),
        ),
        (
            "over with the stock left",
            with(&[("turn", "over"), ("to_move", "-")]),
            f("turn"),
        ),
        ("empty", String::new(), "kryt/1".into()),
    ];
    let mut out: Vec<(&str, TrumpMode, String, String)> = turned
        .into_iter()
        .map(|(why, text, name)| (why, TrumpMode::Turned, text, name))
        .collect();
    out.push((
        "permanent with a turned card",
        TrumpMode::Permanent,
        replace(
            &replace(&permanent, "faceup", "AD"),
            "stock",
            &permanent_stock,
        ),
        f("faceup"),
    ));
    out.push((
        "a suit in a permanent game",
        TrumpMode::Permanent,
        replace(&permanent, "trumps", "D"),
        f("trumps"),
    ));
    out
}

#[test]
fn kryt_navalivat_invalid_positions_are_refused_naming_the_field() {
    // Positions that are not `kryt/1` or describe no reachable state are refused, the
    // message naming the field (KRYT-11.1 the pack once; KRYT-2.4 the turned card is a
    // trump; KRYT-2.5 it lies under any face-down stock; KRYT-8.1 none turned; KRYT-4.1 a
    // lead on an empty pile; KRYT-4.3 free only with the stock empty; KRYT-7.2 / 7.3 the
    // result; KRYT-11.3 / 11.6 hand sizes and the mover).
    for (why, mode, text, name) in bad_positions() {
        let error = KrytNavalivat::from_position(&options(3, mode), &text)
            .map(|_| ())
            .expect_err(why);
        assert!(error.0.contains(&name), "{why}: {}", error.0);
    }
}

#[test]
fn kryt_navalivat_the_bad_positions_are_one_change_from_good_ones() {
    // The positions the cases above start from are themselves valid, and read back as
    // written.
    let jh = format!("{FILL} JH");
    let over_pile = format!("{FILL} JH QH AD");
    let cases = [
        (ex_1_after_lead(), TrumpMode::Turned),
        (
            Compose::new(&["QH", "", "7S 8S"]).pile(&jh).text(),
            TrumpMode::Turned,
        ),
        (
            Compose::new(&["", "", "7C"])
                .pile(&over_pile)
                .mover(None)
                .turn("over")
                .result("loser:2")
                .text(),
            TrumpMode::Turned,
        ),
        (
            Compose::new(&["JD QD KD", "JC QC KC", "JH QH KH"])
                .stock(FILL)
                .trumps("permanent")
                .turn("lead")
                .text(),
            TrumpMode::Permanent,
        ),
    ];
    for (text, mode) in cases {
        assert_eq!(position_state(&text, mode).position(), text);
    }
}

#[test]
fn kryt_navalivat_2_5_a_turned_mode_stock_without_its_turned_card_is_refused() {
    // KRYT-2.5 / K-3: in the turned mode the turned card is drawn last, so face-down cards
    // never remain once it is gone.
    let text = Compose::new(&["7H 8H 9H", FILL])
        .stock("9C 10C JC")
        .turn("lead")
        .text();
    let error = KrytNavalivat::from_position(&options(2, TrumpMode::Turned), &text)
        .map(|_| ())
        .unwrap_err();
    assert!(error.0.contains("field faceup="), "{}", error.0);
}

#[test]
fn kryt_navalivat_a_permanent_position_needs_a_permanent_game_and_the_other_way_round() {
    // KRYT-8.1: `trumps=permanent` only in a game that plays permanent trumps, a suit
    // only in one that turns its trumps.
    let permanent = Compose::new(&["JD QD KD", "JC QC KC"])
        .stock(FILL)
        .trumps("permanent")
        .turn("lead")
        .text();
    assert!(KrytNavalivat::from_position(&options(2, TrumpMode::Turned), &permanent).is_err());
    assert!(KrytNavalivat::from_position(&options(2, TrumpMode::Permanent), &permanent).is_ok());
}
