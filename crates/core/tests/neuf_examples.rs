//! EXAMPLES.md Part 1 replayed through the core: NEUF-EX-4, 5, 6, 7 and 8, with stacked
//! decks, positions and actions as `tests/rules/test_neuf_examples.py` gives them. The
//! ledger-level scenarios (NEUF-EX-1, 2, 3 and 7's sheet) are the score sheet's unit
//! tests (`src/neuf/ledger.rs`). Seats A, B, C are 0, 1, 2 (B is A's left).

mod neuf_common;

use cardtable_core::cards::{Card, CardSet};
use cardtable_core::game::{new_game, Game, PlayoutRng};
use cardtable_core::neuf::{Neuf, Phase, NO_TRUMP};
use neuf_common::*;
use rand::{Rng, SeedableRng};

/// NEUF-EX-5's stacked deck, top first, dealt to A, B, C, spare in turn (dealer C).
const EX_5_DECK: &str = "2H 2C 3C 4C 3H 5C 6C 7C 4H 8C 9C 10C 5H JC QC KC 6H AC 2D 3D \
    7H 4D 5D 6D 8H 7D 8D 9D 9H 10D JD QD 10H KD AD 2S JH 3S 4S 5S QH 6S 7S 8S KH 9S 10S JS \
    AH QS KS AS";
const HEARTS: &str = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH";
const B_DEALT: &str = "2C 5C 8C JC AC 4D 7D 10D KD 3S 6S 9S QS";
const C_DEALT: &str = "3C 6C 9C QC 2D 5D 8D JD AD 4S 7S 10S KS";
const SPARE_DEALT: &str = "4C 7C 10C KC 3D 6D 9D QD 2S 5S 8S JS AS";

fn ex_5_state(dealer_first: bool) -> Neuf {
    let opts = options(&[
        ("players", int(3)),
        ("dealer", int(C as i64)),
        ("dealer_exchanges_first", flag(dealer_first)),
    ]);
    stacked_deal(&opts, C, deck(EX_5_DECK))
}

fn pick(state: &Neuf, rng: &mut PlayoutRng) -> String {
    let choices = legal(state);
    choices[rng.random_range(0..choices.len())].clone()
}

// NEUF-EX-4 ------------------------------------------------------------------------------

/// NEUF-EX-4's trick 10 as a position: deal 23 of HDSC-NT (trump S), first dealer B so C
/// deals deal 23; scores A 3, B 1, C 1; nine followed-in-suit tricks won A 1, B 4, C 4,
/// C last; every player kept.
const EX_4_POSITION: &str = "neuf/1 players=3 sequence=HDSC-NT first=1 \
    ledger=5,4,4/4,5,4/4,4,5/5,4,4/4,5,4/4,4,5/5,4,4/4,5,4/4,4,5/5,4,4/4,5,4/4,4,5/5,4,4/\
    4,5,4/4,4,5/5,4,4/4,5,4/4,4,5/4,5,4/4,4,5/4,5,4/4,4,5 phase=play exchanges=0:k,1:k,2:k \
    piles=4C,5C,2H,3H,AH,6C,7D,9H,8C,9D,JH,JC,10D/2S,3S,2C,3C,6H,AC,AD,8H,9C,KD,QH,10C,JD/\
    AS,2D,3D,4D,7H,7C,6D,KH,KC,8D,10H,QC,QD/4S,5S,6S,7S,8S,9S,10S,JS,QS,KS,4H,5H,5D \
    done=0:AH,1:6H,2:7H/0:6C,1:AC,2:7C/1:AD,2:6D,0:7D/1:8H,2:KH,0:9H/2:KC,0:8C,1:9C/\
    2:8D,0:9D,1:KD/1:QH,2:10H,0:JH/1:10C,2:QC,0:JC/2:QD,0:10D,1:JD trick=- seed=0 chance=23";

fn ex_4_state(tie_avoidance: bool) -> Neuf {
    let opts = options(&[
        ("trump_sequence", text("HDSC-NT")),
        ("tie_avoidance", flag(tie_avoidance)),
    ]);
    from_position(&opts, EX_4_POSITION)
}

#[test]
fn neuf_ex_4_constructed_state_matches_the_example() {
    // NEUF-EX-4's starting facts: scores 3/1/1, deal 23, trump S, dealer C, tricks A 1,
    // B 4, C 4, C to lead trick 10, the four-card hands as listed.
    for tie_avoidance in [false, true] {
        let state = ex_4_state(tie_avoidance);
        assert_eq!(state.scores(), [3, 1, 1]);
        assert_eq!(
            (state.deal_number(), state.trump(), state.dealer_seat()),
            (23, 3, C)
        );
        assert_eq!(state.tricks_won(), [1, 4, 4]);
        assert_eq!(state.to_move(), Some(C));
        assert!(state.current_trick().is_empty());
        assert_eq!(state.hand(A), set("4C 5C 2H 3H"));
        assert_eq!(state.hand(B), set("2S 3S 2C 3C"));
        assert_eq!(state.hand(C), set("AS 2D 3D 4D"));
        // The piles are written back in card order; everything else as given.
        let given: Vec<&str> = EX_4_POSITION.split_whitespace().collect();
        let written = state.position();
        let written: Vec<&str> = written.split(' ').collect();
        assert_eq!(given.len(), written.len());
        for (g, w) in given.iter().zip(&written) {
            if !g.starts_with("piles=") {
                assert_eq!(g, w);
            }
        }
    }
}

fn play_ex_4_trick_10(state: &mut Neuf) {
    // Trick 10: C AS, A 2H (no spades), B 2S (must follow).
    act(state, C, "play AS");
    assert_eq!(legal(state), ["play 4C", "play 5C", "play 2H", "play 3H"]);
    act(state, A, "play 2H");
    assert_eq!(legal(state), ["play 2S", "play 3S"]);
    assert!(!is_legal(state, "play 2C"));
    act(state, B, "play 2S");
}

#[test]
fn neuf_ex_4_house_rule_on_c_wins_after_trick_10() {
    // NEUF-EX-4, NEUF-8.3 ON, N-7: C's fifth trick takes C from 1 to 0, so C wins at once;
    // A and B keep 3 and 1; no ledger row; tricks 11-13 are not played.
    let mut state = ex_4_state(true);
    play_ex_4_trick_10(&mut state);
    assert_eq!(state.to_move(), None);
    assert_eq!(state.winning_seats(), [C]);
    assert_eq!(state.scores(), [3, 1, 0]);
    assert_eq!(state.sheet().row_count(), 22);
    assert_eq!(state.legal_mask(), 0);
    assert_eq!(state.returns().unwrap()[..3], [-0.5, -0.5, 1.0]);
}

#[test]
fn neuf_ex_4_house_rule_off_all_tricks_and_a_shared_win() {
    // NEUF-EX-4 with NEUF-8.3 OFF: all four tricks are played; tricks A 3, B 5, C 5,
    // scores 4/0/0, total 4: B and C share the win (NEUF-6.3, N-6).
    let mut state = ex_4_state(false);
    play_ex_4_trick_10(&mut state);
    assert_eq!(state.to_move(), Some(C));
    // Trick 11: C 2D, A 3H (no diamonds), B 3S (no diamonds: trumps) -> B.
    act(&mut state, C, "play 2D");
    assert_eq!(legal(&state), ["play 4C", "play 5C", "play 3H"]);
    act(&mut state, A, "play 3H");
    assert_eq!(legal(&state), ["play 2C", "play 3C", "play 3S"]);
    act(&mut state, B, "play 3S");
    assert_eq!(state.to_move(), Some(B));
    // Trick 12: B 2C, C 3D (no clubs), A 4C -> A. Trick 13: A 5C, B 3C, C 4D -> A.
    play(&mut state, &["1 2C", "2 3D", "0 4C"]);
    assert_eq!(state.to_move(), Some(A));
    play(&mut state, &["0 5C", "1 3C", "2 4D"]);
    assert_eq!(state.to_move(), None);
    assert_eq!(state.sheet().row_count(), 23);
    assert_eq!(state.sheet().rows().last().unwrap(), [3, 5, 5]);
    assert_eq!(state.scores(), [4, 0, 0]);
    assert_eq!(state.sheet().scores().iter().sum::<i16>(), 4);
    assert_eq!(state.winning_seats(), [B, C]);
    assert_eq!(state.returns().unwrap()[..3], [-2.0, 1.0, 1.0]);
}

// NEUF-EX-5 ------------------------------------------------------------------------------

#[test]
fn neuf_ex_5_the_deal() {
    // NEUF-EX-5 (NEUF-2.3): dealer C, so card i goes to [A, B, C, spare][i mod 4]; trump H
    // on deal 1 (N-2); the exchange is offered to A, B, then C (NEUF-3.1).
    let state = ex_5_state(false);
    assert_eq!(state.hand(A), set(HEARTS));
    assert_eq!(state.hand(B), set(B_DEALT));
    assert_eq!(state.hand(C), set(C_DEALT));
    assert_eq!(state.spare(), set(SPARE_DEALT));
    assert_eq!(
        (state.deal_number(), state.dealer_seat(), state.trump()),
        (1, C, 2)
    );
    assert_eq!(state.deciding_order(), [A, B, C]);
    assert_eq!(state.phase(), Phase::Exchange);
    assert_eq!(state.to_move(), Some(A));
}

#[test]
fn neuf_ex_5_a_takes_all_13_tricks_whatever_b_and_c_play() {
    // NEUF-EX-5 (NEUF-4, NEUF-5.2, NEUF-6.5): all keep; A holds all 13 trumps and takes
    // every trick whatever B and C play; A 0, B 13, C 13, total 26; A wins after one deal.
    // B and C, holding no hearts, may play any card (NEUF-4.2); A may lead any card.
    for seed in 0..4 {
        let mut rng = PlayoutRng::seed_from_u64(seed);
        let mut state = ex_5_state(false);
        for seat in [A, B, C] {
            act(&mut state, seat, "keep");
        }
        for trick in 0..13 {
            assert_eq!(state.to_move(), Some(A), "A leads trick {}", trick + 1);
            assert_eq!(state.legal_mask(), u128::from(state.hand(A)));
            let lead = pick(&state, &mut rng);
            act(&mut state, A, &lead);
            for seat in [B, C] {
                let held = state.hand(seat);
                assert!(held != 0 && held & set(HEARTS) == 0);
                assert_eq!(state.legal_mask(), u128::from(held));
                let reply = pick(&state, &mut rng);
                act(&mut state, seat, &reply);
            }
            assert_eq!(state.tricks_won()[A] as usize, trick + 1);
        }
        assert_eq!(state.to_move(), None);
        assert_eq!(state.sheet().rows().collect::<Vec<_>>(), [[13, 0, 0]]);
        assert_eq!(state.scores(), [0, 13, 13]);
        assert_eq!(state.sheet().scores().iter().sum::<i16>(), 26);
        assert_eq!(state.winning_seats(), [A]);
        assert_eq!(state.returns().unwrap()[..3], [1.0, -0.5, -0.5]);
    }
}

// NEUF-EX-6 ------------------------------------------------------------------------------

fn exchange_chain(dealer_first: bool) -> Neuf {
    // NEUF-EX-6's decisions: A and B exchange, C keeps, in either order (NEUF-8.2).
    let mut state = ex_5_state(dealer_first);
    let script: [(usize, &str); 3] = if dealer_first {
        [(C, "keep"), (A, "exchange"), (B, "exchange")]
    } else {
        [(A, "exchange"), (B, "exchange"), (C, "keep")]
    };
    for (seat, decision) in script {
        act(&mut state, seat, decision);
    }
    state
}

#[test]
fn neuf_ex_6_the_exchange_chain() {
    // NEUF-EX-6 (NEUF-3.2, NEUF-3.3): A takes the spare and puts the hearts down; B takes
    // the hearts; C keeps. Final spare: B's dealt hand.
    let mut state = ex_5_state(false);
    act(&mut state, A, "exchange");
    assert_eq!(state.hand(A), set(SPARE_DEALT));
    assert_eq!(state.spare(), set(HEARTS));
    // NEUF-3.1: one decision each: it is B's turn now, not A's.
    assert_eq!(state.to_move(), Some(B));
    act(&mut state, B, "exchange");
    assert_eq!(state.hand(B), set(HEARTS));
    assert_eq!(state.spare(), set(B_DEALT));
    act(&mut state, C, "keep");
    assert_eq!(state.hand(A), set(SPARE_DEALT));
    assert_eq!(state.hand(C), set(C_DEALT));
    assert_eq!(state.spare(), set(B_DEALT));
    assert_eq!(state.phase(), Phase::Play);
    assert_eq!(state.to_move(), Some(A), "NEUF-4.1: dealer C, so A leads");
    assert!(!is_legal(&state, "exchange"));
    assert_eq!(state.decisions(), [(A, true), (B, true), (C, false)]);
    assert_eq!(field(&state.position(), "exchanges"), Some("0:e,1:e,2:k"));
}

#[test]
fn neuf_ex_6_b_takes_every_trick_and_wins() {
    // NEUF-EX-6's play: A leads trick 1; B holds all 13 trumps and takes every trick:
    // A 13, B 0, C 13; B wins. The final spare is shown once the deal is over (N-5).
    for seed in 0..2 {
        let mut rng = PlayoutRng::seed_from_u64(seed);
        let mut state = exchange_chain(false);
        assert_eq!(state.to_move(), Some(A));
        while let Some(seat) = state.to_move() {
            let choice = pick(&state, &mut rng);
            act(&mut state, seat, &choice);
        }
        assert_eq!(state.sheet().rows().collect::<Vec<_>>(), [[0, 13, 0]]);
        assert_eq!(state.scores(), [13, 0, 13]);
        assert_eq!(state.winning_seats(), [B]);
        let position = state.position();
        let previous = field(&position, "previous").unwrap();
        let spare = previous.rsplit(':').next().unwrap();
        assert_eq!(spare, cards_text(set(B_DEALT)));
    }
}

fn cards_text(set: CardSet) -> String {
    texts(set).join(",")
}

#[test]
fn neuf_ex_6_dealer_first_variant_same_final_position() {
    // NEUF-EX-6 with NEUF-8.2: the order is C, A, B; the first prompt goes to C; C keeps,
    // A and B exchange, and the hands and spare end as in the default order.
    let state = ex_5_state(true);
    assert_eq!(state.to_move(), Some(C));
    assert_eq!(state.deciding_order(), [C, A, B]);
    assert_eq!(legal(&state), ["exchange", "keep"]);
    let first = exchange_chain(true);
    let default = exchange_chain(false);
    for seat in [A, B, C] {
        assert_eq!(first.hand(seat), default.hand(seat));
    }
    assert_eq!(first.spare(), set(B_DEALT));
    assert_eq!(default.spare(), set(B_DEALT));
    assert_eq!(first.to_move(), Some(A));
    assert_eq!(default.to_move(), Some(A));
    assert_eq!(first.decisions(), [(C, false), (A, true), (B, true)]);
}

// NEUF-EX-7 ------------------------------------------------------------------------------

#[test]
fn neuf_ex_7_partnership_deal_has_no_exchange() {
    // NEUF-EX-7 (NEUF-8.4): four hands of 13, no spare and no exchange; the first action
    // after the deal is a card played by the dealer's left; EXCHANGE and KEEP are illegal.
    for dealer in 0..4 {
        let opts = options(&[("players", int(4)), ("dealer", int(dealer))]);
        let state: Neuf = new_game(&opts, dealer as i128);
        assert_eq!(state.phase(), Phase::Play);
        assert!((0..4).all(|s| state.hand(s).count_ones() == 13));
        assert!(state.deciding_order().is_empty());
        assert_eq!(state.scores(), [9, 9]);
        let leader = (dealer as usize + 1) % 4;
        assert_eq!(state.to_move(), Some(leader));
        assert_eq!(state.legal_mask(), u128::from(state.hand(leader)));
        assert!(!is_legal(&state, "exchange") && !is_legal(&state, "keep"));
    }
}

// NEUF-EX-8 ------------------------------------------------------------------------------

#[test]
fn neuf_ex_8_trick_resolution() {
    // NEUF-EX-8 (NEUF-4.3, NEUF-11 (6)): highest trump, else highest of the suit led; in
    // NT an off-suit card never wins. Played through the core: the trump of deal `n` of
    // HDCS-NT, with each card dealt to its seat and the lead by seat 0.
    let cases = [
        ("H", "KS 2S AS", "AS"),
        ("H", "KS 2H AS", "2H"),
        ("H", "KS 2H 3H", "3H"),
        ("NT", "KS AH 2S", "KS"),
        ("D", "5C AC 2D", "2D"),
    ];
    for (trump, played, winner) in cases {
        let played: Vec<&str> = played.split_whitespace().collect();
        let winner_seat = played.iter().position(|c| *c == winner).unwrap();
        let plays: Vec<(usize, Card)> = played
            .iter()
            .enumerate()
            .map(|(s, c)| (s, card(c)))
            .collect();
        assert_eq!(winner_of(&plays, trump), winner_seat);
        let deal = ["H", "D", "C", "S", "NT"]
            .iter()
            .position(|t| *t == trump)
            .unwrap()
            + 1;
        let state = trick_in_deal(deal, &played);
        assert_eq!(
            state.trump(),
            if trump == "NT" {
                NO_TRUMP
            } else {
                "CDHS".find(trump).unwrap() as u8
            }
        );
        assert_eq!(state.tricks_won()[winner_seat], 1, "{trump} {played:?}");
        assert_eq!(state.to_move(), Some(winner_seat));
    }
}

/// Deal `deal` of HDCS-NT, dealt by seat 2 so that seat 0 leads, with `played` the first
/// trick: each seat's card put into its pile with twelve low cards (none of the suits
/// these cases lead), and played, everyone keeping.
fn trick_in_deal(deal: usize, played: &[&str]) -> Neuf {
    let rows = vec![[5u8, 4, 4]; deal - 1];
    let first = (0..3).find(|f| (f + deal - 1) % 3 == 2).unwrap();
    let mut rest: Vec<Card> = (0..52)
        .filter(|c| !played.iter().any(|p| card(p) == *c))
        .collect();
    let mut piles: Vec<Vec<Card>> = Vec::new();
    for &p in played {
        let mut pile = vec![card(p)];
        pile.extend(rest.drain(..12));
        piles.push(pile);
    }
    piles.push(rest);
    let ledger: Vec<String> = rows
        .iter()
        .map(|r| r.map(|t| t.to_string()).join(","))
        .collect();
    let piles = piles_field(&piles);
    let text = format!(
        "neuf/1 players=3 sequence=HDCS-NT first={first} ledger={} phase=play \
         exchanges=0:k,1:k,2:k piles={piles} done=- trick=- seed=0 chance={deal}",
        if ledger.is_empty() {
            "-".to_string()
        } else {
            ledger.join("/")
        },
    );
    let mut state = from_position(&options(&[]), &text);
    for (seat, c) in played.iter().enumerate() {
        act(&mut state, seat, &format!("play {c}"));
    }
    state
}

#[test]
fn neuf_ex_8_follow_suit_in_a_real_state() {
    // NEUF-EX-8's legality case (NEUF-4.2): B holds 3S, so after the KS lead AH is
    // illegal; C, with no spades, may play AH... or any of its 13 cards.
    let text = "neuf/1 players=3 sequence=HDCS-NT first=2 ledger=- phase=play \
        exchanges=0:k,1:k,2:k piles=KS,2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC\
        /3S,AH,2D,3D,4D,5D,6D,7D,8D,9D,10D,JD,QD/2H,3H,4H,5H,6H,7H,8H,9H,10H,JH,QH,KH,AC\
        /KD,AD,2S,4S,5S,6S,7S,8S,9S,10S,JS,QS,AS done=- trick=0:KS seed=0 chance=1";
    let mut state = from_position(&options(&[]), text);
    assert_eq!(state.to_move(), Some(B));
    assert!(!is_legal(&state, "play AH"));
    assert_eq!(legal(&state), ["play 3S"]);
    act(&mut state, B, "play 3S");
    assert!(is_legal(&state, "play AC"));
    assert_eq!(state.legal_mask().count_ones(), 13);
}
