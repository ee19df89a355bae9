//! The `kryt/1` position notation, written and read as
//! `cardtable.rules.kryt_navalivat.position` does, every check in the same order so that a
//! text both engines refuse is refused for the same reason:
//!
//! ```text
//! kryt/1 players=3 trumps=C dealer=2 hands=9S,10D,QS/6H,7H,8H/KC,9H,10H known=-/-/-
//! pile=7D faceup=8C stock=7H,8H,9H turn=respond to_move=1 result=- seed=0
//! ```

use super::beating::{beaters_for, NO_SUIT, PACK_36_SET, PERMANENT_ANTI, PERMANENT_TRUMP};
use super::{KrytNavalivat, Mode, Options, TrumpMode, HAND_SIZE, MAX_SEATS, NONE};
use crate::cards::{bit, card_text, cards, push_card, Card, CardSet, SUIT_LETTERS};
use crate::chance::Seed;
use crate::notation::{push_cards, Fields, PositionError};

const HEADER: &str = "kryt/1";
const FIELDS: [&str; 12] = [
    "players", "trumps", "dealer", "hands", "known", "pile", "faceup", "stock", "turn", "to_move",
    "result", "seed",
];

/// The position text, byte for byte as `format_position` writes it.
pub(super) fn format(state: &KrytNavalivat) -> String {
    let n = state.players as usize;
    let mut out = String::with_capacity(256);
    out.push_str(HEADER);
    out.push_str(" players=");
    out.push_str(&n.to_string());
    out.push_str(" trumps=");
    if state.permanent() {
        out.push_str("permanent");
    } else {
        out.push(SUIT_LETTERS[state.trump as usize]);
    }
    out.push_str(" dealer=");
    out.push_str(&state.dealer.to_string());
    push_seats(&mut out, " hands=", &state.hands[..n]);
    push_seats(&mut out, " known=", &state.known[..n]);
    out.push_str(" pile=");
    push_cards(&mut out, state.pile().iter().copied());
    out.push_str(" faceup=");
    match state.faceup() {
        Some(card) => push_card(&mut out, card),
        None => out.push('-'),
    }
    out.push_str(" stock=");
    push_cards(&mut out, state.stock().iter().copied());
    out.push_str(" turn=");
    out.push_str(state.mode.name());
    out.push_str(" to_move=");
    match state.to_move {
        NONE => out.push('-'),
        seat => out.push_str(&seat.to_string()),
    }
    out.push_str(" result=");
    match (state.mode, state.loser) {
        (Mode::Over, NONE) => out.push_str("draw"),
        (Mode::Over, loser) => {
            out.push_str("loser:");
            out.push_str(&loser.to_string());
        }
        _ => out.push('-'),
    }
    out.push_str(" seed=");
    out.push_str(&state.seed.to_string());
    out
}

fn push_seats(out: &mut String, key: &str, sets: &[CardSet]) {
    out.push_str(key);
    for (seat, &set) in sets.iter().enumerate() {
        if seat > 0 {
            out.push('/');
        }
        push_cards(out, cards(set));
    }
}

/// Reads a position as `parse_position` does.
pub(super) fn parse(options: &Options, text: &str) -> Result<KrytNavalivat, PositionError> {
    let r = Fields::new(text, HEADER, "kryt-navalivat", &FIELDS, &[])?;
    let n = r.small("players", 2, 6)?;
    if n != options.players {
        return Err(r.fail(
            "players",
            format!("this game has {} players", options.players),
        ));
    }
    let (trump, anti) = read_trumps(&r, options.trump_mode)?;
    let dealer = r.small("dealer", 0, n - 1)?;

    let hands = read_masks(&r, "hands", n)?;
    let known = read_masks(&r, "known", n)?;
    for (seat, (hand, known)) in hands.iter().zip(&known).enumerate() {
        if known & !hand != 0 {
            return Err(r.fail(
                "known",
                format!("seat {seat} is said to hold cards it has not"),
            ));
        }
    }
    let pile = r.cards("pile")?;
    let stock = r.cards("stock")?;
    let faceup = read_faceup(&r, options.trump_mode, trump, &stock)?;
    check_pack(&r, &hands[..n], &pile, &stock, faceup)?;

    let mode = Mode::ALL
        .into_iter()
        .find(|m| m.name() == r.get("turn"))
        .ok_or_else(|| r.fail("turn", "expected one of lead, respond, cover, free, over"))?;

    let mut state = KrytNavalivat {
        hands,
        known,
        seed: 0,
        table: [0; 36],
        pile_len: pile.len() as u8,
        stock_len: stock.len() as u8,
        faceup: faceup.unwrap_or(NONE),
        players: n as u8,
        dealer: dealer as u8,
        trump,
        anti,
        mode,
        to_move: NONE,
        loser: NONE,
    };
    state.table[..pile.len()].copy_from_slice(&pile);
    state.table[36 - stock.len()..].copy_from_slice(&stock);
    check_turn(&mut state, &r)?;
    let limit: Seed = 1 << 63;
    state.seed = r.number("seed", -limit, limit)?;
    Ok(state)
}

fn read_trumps(r: &Fields, mode: TrumpMode) -> Result<(u8, u8), PositionError> {
    let text = r.get("trumps");
    if mode == TrumpMode::Permanent {
        if text != "permanent" {
            return Err(r.fail("trumps", "this game plays permanent trumps (KRYT-8)"));
        }
        return Ok((PERMANENT_TRUMP, PERMANENT_ANTI));
    }
    match text {
        "C" => Ok((0, NO_SUIT)),
        "D" => Ok((1, NO_SUIT)),
        "H" => Ok((2, NO_SUIT)),
        "S" => Ok((3, NO_SUIT)),
        _ => Err(r.fail("trumps", "expected the trump suit: C, D, H or S")),
    }
}

/// One card set per seat, `/` between seats, no card twice in a set.
fn read_masks(r: &Fields, key: &str, n: usize) -> Result<[CardSet; MAX_SEATS], PositionError> {
    let parts: Vec<&str> = r.get(key).split('/').collect();
    if parts.len() != n {
        return Err(r.fail(key, format!("expected {n} card lists separated by /")));
    }
    let mut masks = [0; MAX_SEATS];
    for (mask, part) in masks.iter_mut().zip(parts) {
        for card in r.cards_in(key, part)? {
            if *mask & bit(card) != 0 {
                return Err(r.fail(key, format!("{} is listed twice", card_text(card))));
            }
            *mask |= bit(card);
        }
    }
    Ok(masks)
}

/// The turned card: at most one, a trump, none in the permanent mode (KRYT-8.1), and
/// there while face-down cards remain (KRYT-2.5).
fn read_faceup(
    r: &Fields,
    mode: TrumpMode,
    trump: u8,
    stock: &[Card],
) -> Result<Option<Card>, PositionError> {
    let faceup = r.cards("faceup")?;
    if faceup.len() > 1 {
        return Err(r.fail("faceup", "one turned card at most"));
    }
    let card = faceup.first().copied();
    let permanent = mode == TrumpMode::Permanent;
    if card.is_some_and(|c| permanent || c / 13 != trump) {
        return Err(r.fail(
            "faceup",
            "the turned card names trumps; the permanent mode turns none (KRYT-8.1)",
        ));
    }
    if !permanent && !stock.is_empty() && card.is_none() {
        return Err(r.fail(
            "faceup",
            "the turned card lies under the stock until it is drawn last (KRYT-2.5)",
        ));
    }
    Ok(card)
}

/// KRYT-11.1: hands, pile, stock and the turned card hold the 36-card pack once each.
fn check_pack(
    r: &Fields,
    hands: &[CardSet],
    pile: &[Card],
    stock: &[Card],
    faceup: Option<Card>,
) -> Result<(), PositionError> {
    let mut seen: CardSet = 0;
    let mut count = 0;
    let mut add = |card: Card| {
        seen |= bit(card);
        count += 1;
    };
    for &hand in hands {
        cards(hand).for_each(&mut add);
    }
    pile.iter()
        .chain(stock)
        .copied()
        .chain(faceup)
        .for_each(add);
    if count != 36 || seen != PACK_36_SET {
        return Err(r.fail(
            "hands",
            "hands, pile, stock and turned card hold the 36-card pack once each",
        ));
    }
    Ok(())
}

/// The turn, the mover and the result agree with the cards (KRYT-4, KRYT-7, KRYT-10):
/// `_check_turn`, which also sets the mover and the result.
fn check_turn(state: &mut KrytNavalivat, r: &Fields) -> Result<(), PositionError> {
    let n = state.players as usize;
    let stock_left = state.stock_count() > 0;
    let mode = state.mode;
    if stock_left {
        for seat in 0..n {
            let size = state.hands[seat].count_ones();
            let covering = mode == Mode::Cover && r.get("to_move") == seat.to_string();
            let least = if covering { HAND_SIZE - 1 } else { HAND_SIZE };
            if size < least {
                return Err(r.fail(
                    "hands",
                    format!("seat {seat} holds {size} cards while the stock lasts (KRYT-11.3)"),
                ));
            }
        }
    }
    let holders: Vec<usize> = (0..n).filter(|&s| state.hands[s] != 0).collect();
    if mode == Mode::Over {
        return check_over(state, r, stock_left, &holders);
    }
    if r.get("result") != "-" {
        return Err(r.fail("result", "the hand is not over"));
    }
    let mover = r.small("to_move", 0, n - 1)?;
    state.to_move = mover as u8;
    if state.hands[mover] == 0 {
        return Err(r.fail(
            "to_move",
            format!("seat {mover} holds no cards (KRYT-11.6)"),
        ));
    }
    if !stock_left && holders.len() < 2 {
        return Err(r.fail(
            "turn",
            "with the stock empty and one player holding cards, it is over",
        ));
    }
    if (mode == Mode::Lead) != (state.pile_len == 0) {
        return Err(r.fail(
            "turn",
            "a lead is made on an empty pile, every other turn on a pile",
        ));
    }
    if mode == Mode::Free && stock_left {
        return Err(r.fail(
            "turn",
            "the free card of KRYT-4.3 comes only once the stock is empty",
        ));
    }
    Ok(())
}

/// KRYT-7.2, KRYT-7.3: an ended hand has the stock empty, one holder, and that holder is
/// the fool unless the draw pattern is there.
fn check_over(
    state: &mut KrytNavalivat,
    r: &Fields,
    stock_left: bool,
    holders: &[usize],
) -> Result<(), PositionError> {
    if r.get("to_move") != "-" {
        return Err(r.fail("to_move", "nobody moves once the hand is over"));
    }
    if stock_left || holders.len() != 1 {
        return Err(r.fail(
            "turn",
            "a hand ends with the stock empty and one player holding cards",
        ));
    }
    let last = holders[0];
    let result = r.get("result");
    if result == "draw" {
        let hand = state.hands[last];
        let beaten = state
            .pile()
            .last()
            .is_some_and(|&top| beaters_for(state.trump, state.anti)[top as usize] & hand != 0);
        if hand.count_ones() != 1 || !beaten {
            return Err(r.fail(
                "result",
                "a draw leaves one card, which beats the top (KRYT-7.3)",
            ));
        }
        state.loser = NONE;
    } else if result == format!("loser:{last}") {
        state.loser = last as u8;
    } else {
        return Err(r.fail("result", format!("expected draw or loser:{last}")));
    }
    Ok(())
}
