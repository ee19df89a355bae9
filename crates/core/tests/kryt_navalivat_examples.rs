//! Kryt'-navalivat' worked examples (EXAMPLES.md, Part 2: KRYT-EX-1 … KRYT-EX-9) replayed
//! through the core, as `tests/rules/test_kryt_navalivat_examples.py` replays them through
//! the Python engine: KRYT-EX-1 from its stacked deck, the others from constructed `kryt/1`
//! positions in which the cards a scenario leaves unplaced fill the place marked `…`, in pack
//! order. Expected facts come from EXAMPLES.md and SPEC.md §2. A beat is two actions
//! (KRYT-4.6): `BEAT(b, c)` is `beat b` then `cover c` by the same player.
//!
//! Not here: the session parts of KRYT-EX-2 and KRYT-EX-3 (who deals the next hand,
//! KRYT-2.1, KRYT-7.5), since a session stays in Python; and KRYT-EX-4's completion with a
//! pile of exactly `[9H]`, which no `kryt/1` position holds (the pack must be there once).

mod kryt_navalivat_common;

use cardtable_core::cards::parse_card;
use cardtable_core::game::Game;
use cardtable_core::kryt_navalivat::beating::{beats, PERMANENT_ANTI, PERMANENT_TRUMP};
use cardtable_core::kryt_navalivat::{Mode, TrumpMode};
use cardtable_core::KrytNavalivat;
use kryt_navalivat_common::*;

type Step = (
    &'static [&'static str],
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    usize,
    usize,
    Mode,
);

/// KRYT-EX-1's table: (actions, A, B, C, pile bottom first, stock count, next, mode).
const EX_1_STEPS: [Step; 10] = [
    (
        &[],
        "7D 9S 10D",
        "KD 10S 6H",
        "9C 8S KC",
        "",
        27,
        A,
        Mode::Lead,
    ),
    (
        &["lead 7D"],
        "9S 10D QS",
        "KD 10S 6H",
        "9C 8S KC",
        "7D",
        26,
        B,
        Mode::Respond,
    ),
    (
        &["beat KD", "cover 10S"],
        "9S 10D QS",
        "6H 7H 8H",
        "9C 8S KC",
        "7D KD 10S",
        24,
        C,
        Mode::Respond,
    ),
    (
        &["beat 9C", "cover 8S"],
        "9S 10D QS",
        "6H 7H 8H",
        "KC 9H 10H",
        "7D KD 10S 9C 8S",
        22,
        A,
        Mode::Respond,
    ),
    (
        &["beat 9S", "cover 10D"],
        "QS 7C JH",
        "6H 7H 8H",
        "KC 9H 10H",
        "7D KD 10S 9C 8S 9S 10D",
        20,
        B,
        Mode::Respond,
    ),
    (
        &["take"],
        "QS 7C JH",
        "6H 7H 8H 10D",
        "KC 9H 10H",
        "7D KD 10S 9C 8S 9S",
        20,
        C,
        Mode::Respond,
    ),
    (
        &["take"],
        "QS 7C JH",
        "6H 7H 8H 10D",
        "KC 9H 10H 9S",
        "7D KD 10S 9C 8S",
        20,
        A,
        Mode::Respond,
    ),
    (
        &["beat QS", "cover 7C"],
        "JH QH KH",
        "6H 7H 8H 10D",
        "KC 9H 10H 9S",
        "7D KD 10S 9C 8S QS 7C",
        18,
        B,
        Mode::Respond,
    ),
    (
        &["take"],
        "JH QH KH",
        "6H 7H 8H 10D 8S QS 7C",
        "KC 9H 10H 9S",
        "7D KD 10S 9C",
        18,
        C,
        Mode::Respond,
    ),
    (
        &["beat KC", "cover 9S"],
        "JH QH KH",
        "6H 7H 8H 10D 8S QS 7C",
        "9H 10H AH",
        "7D KD 10S 9C KC 9S",
        17,
        A,
        Mode::Respond,
    ),
];

/// The legal actions the scenario lists before the step of that number.
fn ex_1_legal(step: usize) -> Option<&'static str> {
    match step {
        1 => Some("lead 7D, lead 9S, lead 10D"), // KRYT-4.1: any card on an empty pile
        5 => Some("take"),
        6 => Some("beat KC, take"),
        8 => Some("take"),
        9 => Some("beat KC, take"),
        _ => None,
    }
}

fn texts(list: &str) -> std::collections::BTreeSet<String> {
    list.split(", ").map(String::from).collect()
}

fn ex_1_state() -> KrytNavalivat {
    dealt(3, C, TrumpMode::Turned, &ex_1_deck(), 1)
}

fn assert_step(state: &KrytNavalivat, step: usize) {
    let (_, a, b, c, pile_text, stock, seat, mode) = EX_1_STEPS[step];
    for (s, cards) in [(A, a), (B, b), (C, c)] {
        assert_eq!(hand(state, s), set(cards), "step {step} seat {s}");
    }
    assert_eq!(pile(state), cards(pile_text), "step {step}");
    assert_eq!(state.stock_count(), stock, "step {step}");
    assert_eq!(
        (state.to_move(), state.mode()),
        (Some(seat), mode),
        "step {step}"
    );
    assert_conserved(state);
}

fn ex_1_after(steps: usize) -> KrytNavalivat {
    let mut state = ex_1_state();
    for (actions, ..) in &EX_1_STEPS[1..=steps] {
        for action in *actions {
            play(&mut state, action);
        }
    }
    state
}

#[test]
fn kryt_navalivat_ex_1_the_deal_gives_the_listed_hands_trump_card_and_stock() {
    // KRYT-EX-1 step 0, KRYT-2.3-2.5, K-15: dealer C deals A, B, C three rounds; 8C is
    // turned, so clubs are trumps; the stock is 27 with the turned card; A moves first.
    let state = ex_1_state();
    assert_step(&state, 0);
    assert_eq!(state.faceup(), Some(parse_card("8C").unwrap()));
    assert_eq!((state.trump(), state.dealer()), (0, C));
    assert_eq!(legal(&state), texts(ex_1_legal(1).unwrap()));
}

#[test]
fn kryt_navalivat_ex_1_the_three_player_example_step_by_step() {
    // KRYT-EX-1 steps 1-9: hands, pile, stock count and next player after every turn; the
    // legal actions the scenario lists; no draw between a beat and its cover (K-1).
    let mut state = ex_1_state();
    for (step, row) in EX_1_STEPS.iter().enumerate().skip(1) {
        if let Some(listed) = ex_1_legal(step) {
            assert_eq!(legal(&state), texts(listed), "step {step}");
        }
        let stock_before = state.stock_count();
        for action in row.0 {
            let mover = state.to_move();
            play(&mut state, action);
            if action.starts_with("beat") {
                assert_eq!((state.to_move(), state.mode()), (mover, Mode::Cover));
                assert_eq!(state.stock_count(), stock_before);
            }
        }
        assert_step(&state, step);
    }
}

#[test]
fn kryt_navalivat_ex_1_step_6_c_may_beat_with_kc_and_any_cover_but_picks_up() {
    // KRYT-EX-1 step 6, K-5: C could BEAT(KC, x) for each of his other cards, and picking
    // up the beatable 9S is legal too.
    let mut state = ex_1_after(5);
    assert_eq!(hand(&state, C), set("KC 9H 10H"));
    assert_eq!(pile(&state).last().unwrap(), "9S");
    let mut beaten = state.clone();
    play(&mut beaten, "beat KC");
    assert_eq!(legal(&beaten), texts("cover 9H, cover 10H"));
    play(&mut state, "take");
    assert_eq!(hand(&state, C), set("KC 9H 10H 9S"));
}

#[test]
fn kryt_navalivat_ex_1_step_8_three_cards_move_and_step_9_draws_one() {
    // KRYT-EX-1 steps 8-9: the non-ace trump 7C on top makes B take exactly 3 cards
    // (KRYT-5); C, holding four, plays two and draws only one (KRYT-4.4).
    let mut state = ex_1_after(7);
    assert_eq!(state.would_take(), &cards_of("8S QS 7C")[..]);
    let sizes: Vec<u32> = (0..3).map(|s| state.hand(s).count_ones()).collect();
    play(&mut state, "take");
    assert_eq!(state.hand(B).count_ones(), sizes[B] + 3);
    assert_eq!(state.hand(A).count_ones(), sizes[A]);
    assert_eq!(hand(&state, C).len(), 4);
    let stock = state.stock_count();
    play(&mut state, "beat KC");
    play(&mut state, "cover 9S");
    assert_eq!(stock - state.stock_count(), 1);
    assert_eq!(hand(&state, C).len(), 3);
}

#[test]
fn kryt_navalivat_ex_1_after_step_9_a_can_only_pick_up_the_9s() {
    // KRYT-EX-1 final check: A (JH QH KH) faces 9S with trumps clubs: PICK_UP only.
    let state = ex_1_after(9);
    assert_eq!(state.to_move(), Some(A));
    assert_eq!(pile(&state).last().unwrap(), "9S");
    assert_eq!(legal(&state), texts("take"));
}

fn cards_of(text: &str) -> Vec<u8> {
    cards(text).iter().map(|c| parse_card(c).unwrap()).collect()
}

#[test]
fn kryt_navalivat_ex_2_beat_and_cover_with_the_last_cards_is_a_draw_for_any_trump() {
    // KRYT-EX-2, KRYT-7.3, K-7: A beats 9H with JH and covers with 8C; B's only card KC
    // beats 8C, so the hand is drawn at once, with no action from B.
    for trumps in ["C", "D", "H", "S"] {
        let pile_text = format!("{FILL} 9H");
        let mut state = Compose::new(&["JH 8C", "KC"])
            .pile(&pile_text)
            .trumps(trumps)
            .state();
        let mut expected = texts("beat JH, take");
        if trumps == "C" {
            expected.insert("beat 8C".into()); // a trump on a plain card (KRYT-3.1)
        }
        assert_eq!(legal(&state), expected);
        play(&mut state, "beat JH");
        assert_eq!(legal(&state), texts("cover 8C"));
        play(&mut state, "cover 8C");
        assert!(state.is_out(A));
        assert_eq!((state.to_move(), state.mode()), (None, Mode::Over));
        assert_eq!(state.legal_mask(), 0);
        assert!(state.drawn() && state.loser().is_none());
        assert_eq!(state.returns().unwrap()[..2], [0.0, 0.0]);
        assert_eq!(hand(&state, B), set("KC"));
    }
}

fn ex_3_state() -> KrytNavalivat {
    let pile_text = format!("{FILL} 9H");
    Compose::new(&["JH 8C AC", "KC"])
        .pile(&pile_text)
        .trumps("D")
        .state()
}

#[test]
fn kryt_navalivat_ex_3_a_beats_with_the_last_card_so_a_loses_though_ac_beats_kc() {
    // KRYT-EX-3, KRYT-7.3: A BEAT(JH, 8C); B's legal actions are BEAT(KC) with no cover
    // and PICK_UP; B beats with his last card and is out; A is the fool, although AC
    // beats KC.
    let mut state = ex_3_state();
    play(&mut state, "beat JH");
    play(&mut state, "cover 8C");
    assert_eq!(pile(&state)[pile(&state).len() - 3..], cards("9H JH 8C"));
    assert_eq!((state.to_move(), state.mode()), (Some(B), Mode::Respond));
    assert_eq!(legal(&state), texts("beat KC, take"));
    play(&mut state, "beat KC"); // B's last card: no cover is due (KRYT-4.2a)
    assert!(state.is_out(B));
    assert_eq!(state.mode(), Mode::Over);
    assert_eq!((state.loser(), state.drawn()), (Some(A), false));
    assert_eq!(hand(&state, A), set("AC"));
    assert_eq!(pile(&state).last().unwrap(), "KC");
    let (ac, kc) = (parse_card("AC").unwrap(), parse_card("KC").unwrap());
    assert!(beats(ac, kc, 1, 4)); // diamonds trumps: AC is higher
    assert_eq!(state.returns().unwrap()[..2], [-1.0, 1.0]);
}

#[test]
fn kryt_navalivat_ex_4_determinate_part_for_any_cards_below_9h() {
    // KRYT-EX-4 steps 1-2 (K-12), which hold whatever lies below 9H: A BEAT(JH, AC); B
    // can only pick up (KC is lower, no diamond); B takes 1 card; A faces his own JH and
    // can only pick up (8C is neither a higher heart nor a trump).
    let mut state = ex_3_state();
    play(&mut state, "beat JH");
    play(&mut state, "cover AC");
    assert_eq!(legal(&state), texts("take"));
    play(&mut state, "take");
    assert_eq!(hand(&state, B), set("KC AC"));
    assert_eq!(hand(&state, A), set("8C"));
    assert_eq!(pile(&state)[pile(&state).len() - 2..], cards("9H JH"));
    assert_eq!((state.to_move(), state.mode()), (Some(A), Mode::Respond));
    assert_eq!(legal(&state), texts("take"));
}

#[test]
fn kryt_navalivat_ex_5_how_many_cards_a_pick_up_takes() {
    // KRYT-EX-5, KRYT-5, KRYT-8.3: the cards taken go to the taker's hand, in public; the
    // next player faces the new top card, or leads on an empty pile (KRYT-4.5).
    let rows = [
        ("a", "H", "6S 7S KS", "KS", "6S 7S", Mode::Respond),
        (
            "b",
            "H",
            "6C 7C 8C 9C 10H",
            "8C 9C 10H",
            "6C 7C",
            Mode::Respond,
        ),
        ("c", "H", "9C QH", "9C QH", "", Mode::Lead),
        ("d", "H", "6S 7S 8S 9S AH", "6S 7S 8S 9S AH", "", Mode::Lead),
        ("e", "permanent", "6H 7D AS", "AS", "6H 7D", Mode::Respond),
    ];
    for (case, trumps, before, taken, after, mode) in rows {
        let permanent = trumps == "permanent";
        let mut state = Compose::new(&["JD QD KD", "JC QC KC"])
            .pile(before)
            .stock(FILL)
            .faceup(if permanent { "" } else { "7H" })
            .trumps(trumps)
            .state();
        let stock = state.stock_count();
        assert_eq!(state.would_take(), &cards_of(taken)[..], "{case}");
        play(&mut state, "take");
        let mut expected = set("JD QD KD");
        expected.extend(cards(taken));
        assert_eq!(hand(&state, A), expected, "{case}");
        assert_eq!(known(&state, A), set(taken), "{case}");
        assert_eq!(pile(&state), cards(after), "{case}");
        assert_eq!((state.to_move(), state.mode()), (Some(B), mode), "{case}");
        assert_eq!(
            state.stock_count(),
            stock,
            "{case}: no draw after a pick-up"
        );
    }
}

#[test]
fn kryt_navalivat_ex_6_three_players_the_next_player_gets_the_free_card() {
    // KRYT-EX-6, KRYT-4.3, K-6: A beats the cover JH with his only card QH and is out; B
    // and C remain, so B is not obliged to beat: lead 7S, lead 8S or pick up; C responds.
    let pile_text = format!("{FILL} JH");
    let mut state = Compose::new(&["QH", "7S 8S", "9D 10D"])
        .pile(&pile_text)
        .state();
    play(&mut state, "beat QH");
    assert!(state.is_out(A));
    assert_eq!((state.to_move(), state.mode()), (Some(B), Mode::Free));
    assert_eq!(legal(&state), texts("lead 7S, lead 8S, take"));
    play(&mut state, "lead 7S");
    assert_eq!(pile(&state)[pile(&state).len() - 3..], cards("JH QH 7S"));
    assert_eq!((state.to_move(), state.mode()), (Some(C), Mode::Respond));
    assert_eq!(legal(&state), texts("take"));
}

#[test]
fn kryt_navalivat_ex_6_two_players_no_free_card_b_is_the_fool_at_once() {
    // KRYT-EX-6, KRYT-4.3, KRYT-7.3: with one other player left there is no FREE mode: A
    // goes out by beating, so B loses at once.
    let pile_text = format!("{FILL} JH");
    let mut state = Compose::new(&["QH", "7S 8S"]).pile(&pile_text).state();
    play(&mut state, "beat QH");
    assert_eq!(state.mode(), Mode::Over);
    assert_eq!((state.loser(), state.drawn()), (Some(B), false));
    assert!(state.is_out(A));
    assert_eq!(hand(&state, B), set("7S 8S"));
}

const EX_7_STOCK: &str = "9C 10C JC QC KC";

/// KRYT-EX-7: trumps spades, 10S turned under five face-down cards; A holds 6S 7H 8D and
/// leads; B holds the rest of the pack.
fn ex_7_state(held: &str, faceup: &str, trumps: &str) -> KrytNavalivat {
    Compose::new(&[held, FILL])
        .stock(EX_7_STOCK)
        .faceup(faceup)
        .trumps(trumps)
        .turn("lead")
        .state()
}

#[test]
fn kryt_navalivat_ex_7_swap_the_six_lead_and_the_six_is_drawn_last() {
    // KRYT-EX-7 steps 1-3, KRYT-6.1, K-9, KRYT-2.5: the swap puts 10S in A's hand and 6S
    // under the stock, stock count and trumps unchanged, still A's turn; the lead draws one
    // face-down card; the last card drawn from the stock is the 6S.
    let mut state = ex_7_state("6S 7H 8D", "10S", "S");
    assert!(is_legal(&state, "swap") && state.can_swap(A));
    play(&mut state, "swap");
    assert_eq!(hand(&state, A), set("10S 7H 8D"));
    assert_eq!(state.faceup(), Some(parse_card("6S").unwrap()));
    assert_eq!((state.stock_count(), state.trump()), (6, 3));
    assert_eq!(known(&state, A), set("10S"));
    assert_eq!((state.to_move(), state.mode()), (Some(A), Mode::Lead));
    assert!(!is_legal(&state, "swap"));
    play(&mut state, "lead 7H");
    assert_eq!(hand(&state, A), set("10S 8D 9C"));
    assert_eq!(state.stock_count(), 5);
    let mut drawn = Vec::new();
    while state.stock_count() > 0 {
        assert_eq!(state.to_move(), Some(B));
        play(&mut state, "take"); // B takes the single card led; A leads on an empty pile
        assert_eq!((state.to_move(), state.mode()), (Some(A), Mode::Lead));
        let before = hand(&state, A);
        let first = legal(&state).into_iter().next().unwrap();
        play(&mut state, &first);
        drawn.extend(hand(&state, A).difference(&before).cloned());
    }
    assert_eq!(drawn, cards("10C JC QC KC 6S"));
    assert!(known(&state, A).contains("6S")); // drawn in everybody's sight
}

#[test]
fn kryt_navalivat_ex_7_i_no_swap_for_a_player_without_the_six() {
    // KRYT-EX-7 (i): B holds no 6S, so SWAP6 is not legal on his turn.
    let mut state = ex_7_state("6S 7H 8D", "10S", "S");
    play(&mut state, "lead 7H");
    assert_eq!(state.to_move(), Some(B));
    assert!(!hand(&state, B).contains("6S"));
    assert!(!is_legal(&state, "swap") && !state.can_swap(B));
}

#[test]
fn kryt_navalivat_ex_7_ii_no_swap_once_the_turned_card_is_drawn() {
    // KRYT-EX-7 (ii), KRYT-6.2, K-9: A keeps the 6S while drawing the stock; the swap
    // stays legal while the turned card is there, even as the stock's only card, and is
    // gone once A has drawn it.
    let mut state = ex_7_state("6S 7H 8D", "10S", "S");
    while state.stock_count() > 0 {
        if state.to_move() == Some(B) {
            play(&mut state, "take");
            continue;
        }
        assert!(is_legal(&state, "swap"));
        let lead = legal(&state)
            .into_iter()
            .find(|a| a.starts_with("lead") && a != "lead 6S")
            .unwrap();
        play(&mut state, &lead);
    }
    assert_eq!(state.faceup(), None);
    assert!(hand(&state, A).contains("10S"));
    play(&mut state, "take");
    assert_eq!(state.to_move(), Some(A));
    assert!(hand(&state, A).contains("6S"));
    assert!(!is_legal(&state, "swap") && !state.can_swap(A));
}

#[test]
fn kryt_navalivat_ex_7_iii_no_swap_when_the_turned_card_is_the_six() {
    // KRYT-EX-7 (iii), KRYT-6.2: with the 6S itself turned, no swap is legal for anyone.
    let state = ex_7_state("10S 7H 8D", "6S", "S");
    assert!(!is_legal(&state, "swap"));
    assert!(!state.can_swap(A) && !state.can_swap(B));
}

#[test]
fn kryt_navalivat_ex_7_iv_no_swap_in_the_permanent_trump_variant() {
    // KRYT-EX-7 (iv), KRYT-8.1: nothing is turned, so the 6D has nothing to be swapped for.
    let state = ex_7_state("6D 7H 8D", "", "permanent");
    assert_eq!(state.stock_count(), 5);
    assert!(hand(&state, A).contains("6D"));
    assert!(!is_legal(&state, "swap") && !state.can_swap(A));
}

#[test]
fn kryt_navalivat_ex_7_v_no_swap_between_beat_and_cover() {
    // KRYT-EX-7 (v), K-9, KRYT-4.6: the swap comes before the main action; between the
    // beating card and its cover only a cover is legal.
    let mut state = Compose::new(&["6S 8H 8D", FILL])
        .pile("7H")
        .stock(EX_7_STOCK)
        .faceup("10S")
        .trumps("S")
        .state();
    assert!(is_legal(&state, "swap"));
    play(&mut state, "beat 8H");
    assert_eq!(state.mode(), Mode::Cover);
    assert_eq!(legal(&state), texts("cover 6S, cover 8D"));
}

#[test]
fn kryt_navalivat_ex_8_permanent_trump_beat_table() {
    // KRYT-EX-8, KRYT-8.2: diamonds trump plain suits, never spades; only a higher spade
    // beats a spade; AS and AD are beaten by nothing. Checked on the beat relation and on
    // the legal actions of a constructed permanent-mode state.
    let table = [
        ("9S", "10S", true),
        ("9S", "AD", false),
        ("9H", "6D", true),
        ("9H", "AS", false),
        ("9H", "10H", true),
        ("AS", "any", false),
        ("AD", "any", false),
        ("7D", "8D", true),
    ];
    for (top, candidate, expected) in table {
        let others: Vec<String> = if candidate == "any" {
            pack().into_iter().filter(|c| c != top).collect()
        } else {
            vec![candidate.to_string()]
        };
        let t = parse_card(top).unwrap();
        for card in &others {
            let b = parse_card(card).unwrap();
            assert_eq!(
                beats(b, t, PERMANENT_TRUMP, PERMANENT_ANTI),
                expected,
                "{card} on {top}"
            );
        }
        let held: Vec<String> = if candidate == "any" {
            others[..others.len() - 1].to_vec()
        } else {
            others.clone()
        };
        let held_text = held.join(" ");
        let state = Compose::new(&[&held_text, FILL])
            .pile(top)
            .trumps("permanent")
            .state();
        let beating: Vec<String> = legal(&state)
            .into_iter()
            .filter(|a| a.starts_with("beat"))
            .collect();
        let mut wanted: Vec<String> = if expected {
            held.iter().map(|c| format!("beat {c}")).collect()
        } else {
            vec![]
        };
        wanted.sort();
        assert_eq!(beating, wanted, "{top}");
    }
}

#[test]
fn kryt_navalivat_ex_8_deal_check_three_each_nothing_turned_stock_of_30() {
    // KRYT-EX-8 deal check, KRYT-8.1: 2 players get 3 cards each, no card is turned, the
    // stock is the other 30 cards and the first draw takes the 7th card of the deck.
    let mut deck = pack();
    deck.reverse(); // AS KS QS ... : dealt A, B, A, B, A, B from the top
    let mut state = dealt(2, B, TrumpMode::Permanent, &deck, 2);
    assert_eq!(hand(&state, A), set("AS QS 10S"));
    assert_eq!(hand(&state, B), set("KS JS 9S"));
    assert_eq!((state.faceup(), state.stock_count()), (None, 30));
    assert!(state.permanent() && state.trump() == 1);
    assert!(!is_legal(&state, "swap"));
    play(&mut state, "lead AS");
    let mut expected = set("QS 10S");
    expected.insert(deck[6].clone());
    assert_eq!(hand(&state, A), expected);
}

#[test]
fn kryt_navalivat_ex_8_picking_up_the_ace_of_diamonds_empties_the_pile() {
    // KRYT-EX-8, KRYT-8.3: AD on top, the pick-up takes the whole pile.
    let mut state = Compose::new(&["JC QC KC", "JH QH KH"])
        .pile("6H 7S 9S 8D AD")
        .stock(FILL)
        .trumps("permanent")
        .state();
    play(&mut state, "take");
    assert!(pile(&state).is_empty());
    assert_eq!((state.to_move(), state.mode()), (Some(B), Mode::Lead));
    assert_eq!(hand(&state, A), set("JC QC KC 6H 7S 9S 8D AD"));
}

#[test]
fn kryt_navalivat_ex_9_the_honourable_win_ace_of_trumps_as_the_last_card() {
    // KRYT-EX-9, KRYT-7.6, K-13: A beats B's cover JH with QH and covers with AD, his last
    // card; B holds 3 cards and is the fool at once, with no ceremonial pick-up; the pile
    // holds the other 33 cards, so B's 3 + the pile = 36 (KRYT-11.1).
    let pile_text = format!("{FILL} JH");
    let mut state = Compose::new(&["QH AD", "7C 8C 9S"])
        .pile(&pile_text)
        .trumps("D")
        .state();
    assert_eq!(pile(&state).len(), 31);
    play(&mut state, "beat QH");
    play(&mut state, "cover AD");
    assert!(state.is_out(A));
    assert_eq!((state.loser(), state.drawn()), (Some(B), false));
    assert_eq!((state.legal_mask(), state.to_move()), (0, None));
    assert_eq!(pile(&state).len(), 33);
    assert_eq!(pile(&state)[31..], cards("QH AD"));
    assert_eq!(hand(&state, B).len(), 3);
    assert_conserved(&state);
}
