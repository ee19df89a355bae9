//! The `neuf/1` position notation, written and read as `cardtable.rules.neuf.position`
//! does (docs/neuf.md): the reader accepts exactly what Python's accepts, makes the same
//! checks in the same order, and names the field at fault.

use std::fmt::Write;
use std::sync::Arc;

use super::ledger::{Sheet, TRICKS};
use super::options::Trump;
use super::rules::SPARE;
use super::tricks::trick_winner;
use super::{GivenPrevious, Neuf, Options, Phase, Plays, Previous, NOBODY, NO_SUIT};
use crate::cards::{bit, card_text, cards, suit, Card, CardSet, FULL_PACK, SUIT_MASKS};
use crate::notation::{push_cards, push_plays, Fields, PositionError};
use crate::options::repr_str;

const HEADER: &str = "neuf/1";
const FIELDS: [&str; 11] = [
    "players",
    "sequence",
    "first",
    "ledger",
    "phase",
    "exchanges",
    "piles",
    "done",
    "trick",
    "seed",
    "chance",
];
const OPTIONAL_FIELDS: [&str; 2] = ["previous", "stacked"];
const TRUMP_NAMES: [&str; 5] = ["C", "D", "H", "S", "NT"];

type Play = (u8, Option<Card>);

// Writing ------------------------------------------------------------------------------------

/// `state.position()`, byte for byte.
pub(super) fn format(state: &Neuf) -> String {
    let mut out = String::with_capacity(640);
    let sheet = &state.sheet;
    let n = sheet.players();
    let _ = write!(
        out,
        "{HEADER} players={n} sequence={} first={} ledger=",
        super::SEQUENCE_NAMES[sheet.sequence() as usize],
        sheet.first_dealer()
    );
    push_ledger(&mut out, sheet);
    out.push_str(" phase=");
    out.push_str(state.phase.name());
    out.push_str(" exchanges=");
    push_exchanges(&mut out, state);
    out.push_str(" piles=");
    for (i, &pile) in state.piles.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        push_cards(&mut out, cards(pile));
    }
    out.push_str(" done=");
    push_done(&mut out, &state.plays, n);
    out.push_str(" trick=");
    let current = state.plays.current_cards(n);
    let leader = state.plays.leader(state.plays.done());
    push_plays(&mut out, seated(current, leader, n));
    let _ = write!(out, " seed={} chance={}", state.seed, state.decks_drawn);
    push_previous(&mut out, &state.previous, n);
    if let Some(decks) = &state.stacked {
        let rest = &decks[state.stacked_next as usize..];
        if !rest.is_empty() {
            out.push_str(" stacked=");
            for (i, deck) in rest.iter().enumerate() {
                if i > 0 {
                    out.push('/');
                }
                push_cards(&mut out, deck.iter().copied());
            }
        }
    }
    out
}

fn seated(cards: &[Card], leader: u8, players: u8) -> impl Iterator<Item = Play> + '_ {
    Plays::seated(cards, leader, players).map(|(s, c)| (s, Some(c)))
}

fn push_ledger(out: &mut String, sheet: &Sheet) {
    if sheet.row_count() == 0 {
        out.push('-');
        return;
    }
    for (r, row) in sheet.rows().enumerate() {
        if r > 0 {
            out.push('/');
        }
        for (i, t) in row.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{t}");
        }
    }
}

fn push_exchanges(out: &mut String, state: &Neuf) {
    if state.decided == 0 {
        out.push('-');
        return;
    }
    let (order, _) = state.exchange_order();
    for (k, seat) in order.iter().take(state.decided as usize).enumerate() {
        if k > 0 {
            out.push(',');
        }
        let choice = if state.exchanged >> k & 1 == 1 {
            'e'
        } else {
            'k'
        };
        let _ = write!(out, "{seat}:{choice}");
    }
}

/// Finished tricks, `/` between them, `-` for none.
fn push_done(out: &mut String, plays: &Plays, players: u8) {
    if plays.done() == 0 {
        out.push('-');
        return;
    }
    for t in 0..plays.done() {
        if t > 0 {
            out.push('/');
        }
        push_plays(
            out,
            seated(plays.trick_cards(t, players), plays.leader(t), players),
        );
    }
}

fn push_previous(out: &mut String, previous: &Previous, players: u8) {
    match previous {
        Previous::None => {}
        Previous::Deal {
            trump,
            plays,
            spare,
        } => {
            let _ = write!(out, " previous={}:", TRUMP_NAMES[*trump as usize]);
            push_done(out, plays, players);
            out.push(':');
            push_cards(out, cards(*spare));
        }
        Previous::Given(given) => {
            let _ = write!(out, " previous={}:", TRUMP_NAMES[given.trump as usize]);
            if given.tricks.is_empty() {
                out.push('-');
            }
            for (t, trick) in given.tricks.iter().enumerate() {
                if t > 0 {
                    out.push('/');
                }
                push_plays(out, trick.iter().map(|&(s, c)| (s, Some(c))));
            }
            out.push(':');
            push_cards(out, cards(given.spare));
        }
    }
}

// Reading ------------------------------------------------------------------------------------

/// `game.state_from_position(text)`.
pub(super) fn parse(options: &Options, text: &str) -> Result<Neuf, PositionError> {
    let r = Fields::new(text, HEADER, "neuf", &FIELDS, &OPTIONAL_FIELDS)?;
    let n = r.small("players", 3, 4)?;
    if n != options.players {
        return Err(r.fail(
            "players",
            format!("this game has {} players", options.players),
        ));
    }
    let name = options.sequence_name();
    if r.get("sequence") != name {
        return Err(r.fail("sequence", format!("this game plays {name}")));
    }
    let n = n as u8;
    let first = r.small("first", 0, n as usize - 1)? as u8;
    let mut sheet = Sheet::new(n, first, options.trump_sequence);
    read_ledger(&r, &mut sheet)?;
    let phase = match r.get("phase") {
        "exchange" => Phase::Exchange,
        "play" => Phase::Play,
        "over" => Phase::Over,
        _ => return Err(r.fail("phase", "expected exchange, play or over")),
    };
    let mut state = Neuf::empty(sheet, options, 0);
    state.phase = phase;
    state.trump = sheet.trump_of(state.deal_number());
    state.piles = read_piles(&r)?;
    read_exchanges(&r, &mut state)?;

    let mut hands = state.piles;
    let mut spare = if n == 3 { state.piles[SPARE] } else { 0 };
    if n == 3 {
        hands[SPARE] = 0;
    }
    let (order, _) = state.exchange_order();
    for k in 0..state.decided as usize {
        if state.exchanged >> k & 1 == 1 {
            std::mem::swap(&mut hands[order[k] as usize], &mut spare);
        }
    }

    let done = r.tricks("done", n as usize, false)?;
    let trick = r.plays_in("trick", r.get("trick"), n as usize, false)?;
    if done.iter().any(|t| t.len() != n as usize) {
        return Err(r.fail("done", format!("a finished trick has {n} cards")));
    }
    replay_tricks(&r, &mut state, &mut hands, &done, &trick)?;
    state.hands = hands;
    state.spare = spare;
    state.led = match trick.first() {
        Some(&(_, Some(c))) => suit(c),
        _ => NO_SUIT,
    };
    state.seed = r.number("seed", -(1i128 << 63), 1i128 << 63)?;
    state.decks_drawn = r.number("chance", 0, 1_000_000)? as u32;
    if let Some(stacked) = r.optional("stacked") {
        let decks = stacked
            .split('/')
            .map(|d| r.cards_in("stacked", d))
            .collect::<Result<Vec<_>, _>>()?;
        state.stacked = Some(decks.into());
    }
    if let Some(previous) = r.optional("previous") {
        state.previous = read_previous(&r, previous, n)?;
    }
    state.to_move = derive_turn(&r, &state, done.last(), &trick)?;
    Ok(state)
}

fn read_ledger(r: &Fields, sheet: &mut Sheet) -> Result<(), PositionError> {
    let text = r.get("ledger");
    if text == "-" {
        return Ok(());
    }
    for row in text.split('/') {
        let counts: Vec<&str> = row.split(',').collect();
        if !counts.iter().all(|c| crate::notation::is_count(c)) {
            return Err(r.fail("ledger", format!("{} is not trick counts", repr_str(row))));
        }
        sheet
            .record_counts(&counts)
            .map_err(|why| r.fail("ledger", why))?;
    }
    Ok(())
}

/// Four piles of 13 that make one pack.
fn read_piles(r: &Fields) -> Result<[CardSet; 4], PositionError> {
    let parts: Vec<&str> = r.get("piles").split('/').collect();
    if parts.len() != 4 {
        return Err(r.fail("piles", "expected four piles separated by /"));
    }
    let mut piles = [0 as CardSet; 4];
    for (pile, text) in piles.iter_mut().zip(&parts) {
        let cards = r.cards_in("piles", text)?;
        if cards.len() != 13 {
            return Err(r.fail("piles", "every pile holds 13 cards"));
        }
        // Added up as Python adds them: a repeated card cannot then make up the pack.
        *pile = cards
            .iter()
            .fold(0, |m: CardSet, &c| m.wrapping_add(bit(c)));
    }
    if piles.iter().fold(0, |m, &p| m | p) != FULL_PACK {
        return Err(r.fail("piles", "the piles must hold each card of the pack once"));
    }
    Ok(piles)
}

/// The decisions so far, each by the next seat of the exchange order (NEUF-3.1, 8.2).
fn read_exchanges(r: &Fields, state: &mut Neuf) -> Result<(), PositionError> {
    let text = r.get("exchanges");
    if text == "-" {
        return Ok(());
    }
    let (order, len) = state.exchange_order();
    for (k, item) in text.split(',').enumerate() {
        let (seat, choice) = item.split_once(':').unwrap_or((item, ""));
        if k >= len || seat != order[k].to_string() || !(choice == "e" || choice == "k") {
            let listed: Vec<String> = order[..len].iter().map(|s| s.to_string()).collect();
            return Err(r.fail("exchanges", format!("the order is [{}]", listed.join(", "))));
        }
        if choice == "e" {
            state.exchanged |= 1 << k;
        }
        state.decided += 1;
    }
    Ok(())
}

/// Plays `done` then `trick` from the hands after the exchange, as the rules allow them:
/// the dealer's left leads first and each winner next (NEUF-4.1, 4.4), clockwise, every
/// card held and following suit when it can (NEUF-4.2). Takes the played cards out of
/// `hands`, counts the tricks won, and refuses play after a house-rule win (NEUF-8.3).
fn replay_tricks(
    r: &Fields,
    state: &mut Neuf,
    hands: &mut [CardSet; 4],
    done: &[Vec<Play>],
    trick: &[Play],
) -> Result<(), PositionError> {
    let n = state.sheet.players();
    let mut leader = (state.dealer() + 1) % n;
    let tricks = done
        .iter()
        .map(|t| ("done", t.as_slice()))
        .chain([("trick", trick)]);
    for (number, (key, plays)) in tricks.enumerate() {
        state.plays.set_leader(leader);
        if let Some(&(first, _)) = plays.first() {
            if first != leader {
                return Err(r.fail(key, format!("seat {leader} leads this trick, not {first}")));
            }
        }
        let led = plays.first().and_then(|&(_, c)| c).map(suit);
        for (k, &(seat, card)) in plays.iter().enumerate() {
            let card = card.expect("no knocks in Neuf");
            if seat as usize != (leader as usize + k) % n as usize {
                return Err(r.fail(key, "the cards of a trick go clockwise"));
            }
            let hand = hands[seat as usize];
            if hand & bit(card) == 0 {
                return Err(r.fail(
                    key,
                    format!("seat {seat} does not hold {}", card_text(card)),
                ));
            }
            let led = led.expect("a trick with a card has a led suit");
            if suit(card) != led && hand & SUIT_MASKS[led as usize] != 0 {
                return Err(r.fail(key, format!("seat {seat} revokes with {}", card_text(card))));
            }
            hands[seat as usize] = hand ^ bit(card);
            state.plays.push(card);
        }
        if key == "done" {
            let cards = state.plays.current_cards(n);
            leader = trick_winner(cards, leader, n, state.trump);
            state.tricks_won[leader as usize] += 1;
            state.plays.close_trick(leader);
            let crossed = state.tie_avoidance && state.crosses(leader);
            if crossed && (number + 1 != done.len() || state.phase != Phase::Over) {
                // NEUF-8.3: a crossing ends the game at once; nothing follows it.
                return Err(r.fail(key, format!("seat {leader} had already won (NEUF-8.3)")));
            }
        }
    }
    Ok(())
}

/// The deal before: `<trump>:<tricks>:<spare>`, its tricks taken as they are written.
fn read_previous(r: &Fields, text: &str, players: u8) -> Result<Previous, PositionError> {
    let (trump_text, rest) = text.split_once(':').unwrap_or((text, ""));
    let (tricks_text, spare_text) = rest.rsplit_once(':').unwrap_or(("", rest));
    let trump = TRUMP_NAMES.iter().position(|&t| t == trump_text);
    let Some(trump) = trump.filter(|_| text.contains(':')) else {
        return Err(r.fail("previous", "expected <trump>:<tricks>:<spare>"));
    };
    let spare = r
        .cards_in("previous", spare_text)?
        .iter()
        .fold(0, |m: CardSet, &c| m.wrapping_add(bit(c)));
    let tricks = r.tricks_in("previous", tricks_text, players as usize, false)?;
    let trump = trump as Trump;
    Ok(match compact(&tricks, players) {
        Some(plays) => Previous::Deal {
            trump,
            plays,
            spare,
        },
        None => Previous::Given(Arc::new(GivenPrevious {
            trump,
            tricks: tricks
                .iter()
                .map(|t| t.iter().map(|&(s, c)| (s, c.expect("no knocks"))).collect())
                .collect(),
            spare,
        })),
    })
}

/// Tricks as [`Plays`] when they fit: at most 13, each of one card per seat, clockwise.
fn compact(tricks: &[Vec<Play>], players: u8) -> Option<Plays> {
    if tricks.len() > TRICKS as usize {
        return None;
    }
    let mut plays = Plays::EMPTY;
    for trick in tricks {
        let leader = trick.first()?.0;
        if trick.len() != players as usize {
            return None;
        }
        plays.set_leader(leader);
        for (k, &(seat, card)) in trick.iter().enumerate() {
            if seat as usize != (leader as usize + k) % players as usize {
                return None;
            }
            plays.push(card?);
        }
        plays.close_trick(0);
    }
    Some(plays)
}

/// Whose turn it is, which the notation leaves to follow from the rest (NEUF-10).
fn derive_turn(
    r: &Fields,
    state: &Neuf,
    last_done: Option<&Vec<Play>>,
    trick: &[Play],
) -> Result<u8, PositionError> {
    let n = state.sheet.players();
    if state.phase == Phase::Over {
        return Ok(NOBODY);
    }
    if state.sheet.is_over() {
        return Err(r.fail("phase", "the ledger has a winner: the game is over"));
    }
    let (order, len) = state.exchange_order();
    let decided = state.decided as usize;
    if state.phase == Phase::Exchange {
        if last_done.is_some() || !trick.is_empty() || decided >= len {
            return Err(r.fail("phase", "the exchange comes before any trick"));
        }
        return Ok(order[decided]);
    }
    if decided != len {
        return Err(r.fail("exchanges", "every player decides before the play"));
    }
    if state.plays.done() >= TRICKS as usize {
        return Err(r.fail("done", "a deal has 13 tricks"));
    }
    if let Some(&(last, _)) = trick.last() {
        if trick.len() >= n as usize {
            return Err(r.fail("trick", "a full trick should have been taken"));
        }
        return Ok((last + 1) % n);
    }
    Ok(state.plays.leader(state.plays.done()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuf::NO_TRUMP;

    #[test]
    fn trump_names_follow_suit_indices() {
        assert_eq!(TRUMP_NAMES[NO_TRUMP as usize], "NT");
        assert_eq!(TRUMP_NAMES[2], "H");
    }
}
