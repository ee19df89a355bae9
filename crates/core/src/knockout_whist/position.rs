//! The Knockout Whist position notation (`kow/1 …`), written and read exactly as
//! `cardtable.rules.knockout_whist.position` does: the same fields in the same order, the
//! same checks in the same order, and errors that name the same field.

use std::fmt::Write;

use crate::cards::{bit, card_text, cards, suit, Card, CardSet, FULL_PACK, SUIT_LETTERS};
use crate::game::MAX_PLAYERS;
use crate::notation::{is_count, push_cards, push_plays, push_tricks, Fields, PositionError};

use super::options::{Options, MAX_PLAYERS as MOST, MIN_PLAYERS as FEWEST};
use super::plays::{Play, Rounds, KNOCKED};
use super::state::{first_clockwise, takes_over, KnockoutWhist, Phase, Status, HANDS, NONE};

const HEADER: &str = "kow/1";
const FIELDS: [&str; 18] = [
    "players", "hand", "dealer", "phase", "trump", "turned", "dog", "status", "out", "won", "cuts",
    "chooser", "hands", "stock", "done", "trick", "seed", "chance",
];
const OPTIONAL_FIELDS: [&str; 2] = ["previous", "stacked"];
const STATUS_LETTERS: [char; 3] = ['A', 'D', 'O'];
const SEED_LIMIT: i128 = 1 << 63;

type Plays = Vec<(u8, Option<Card>)>;

fn as_play((seat, card): (u8, Option<Card>)) -> Play {
    Play {
        seat,
        card: card.unwrap_or(KNOCKED),
    }
}

fn as_pair(play: Play) -> (u8, Option<Card>) {
    (play.seat, play.card())
}

/// `format_position`: one line holding the whole state.
pub fn format(state: &KnockoutWhist) -> String {
    let mut out = String::with_capacity(480);
    let n = state.n();
    let _ = write!(
        out,
        "{HEADER} players={} hand={} dealer={} phase={} trump=",
        state.players,
        state.hand_no,
        state.dealer,
        state.phase.text()
    );
    push_suit(&mut out, state.trump);
    out.push_str(" turned=");
    push_cards(&mut out, (state.turned != NONE).then_some(state.turned));
    out.push_str(if state.dog_used {
        " dog=used"
    } else {
        " dog=unused"
    });
    out.push_str(" status=");
    out.extend(state.status[..n].iter().map(|s| s.letter()));
    out.push_str(" out=");
    if state.eliminated().is_empty() {
        out.push('-');
    }
    for (i, (seat, hand)) in state.eliminated().iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(out, "{comma}{seat}@{hand}");
    }
    out.push_str(" won=");
    for (i, w) in state.tricks_won[..n].iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(out, "{comma}{w}");
    }
    out.push_str(" cuts=");
    push_tricks(
        &mut out,
        state.cuts.groups().map(|g| g.plays().map(as_pair)),
    );
    out.push_str(" chooser=");
    push_seat(&mut out, state.chooser);
    out.push_str(" hands=");
    for (s, &hand) in state.hands[..n].iter().enumerate() {
        if s > 0 {
            out.push('/');
        }
        push_cards(&mut out, cards(hand));
    }
    out.push_str(" stock=");
    push_cards(&mut out, state.stock().iter().copied());
    out.push_str(" done=");
    push_tricks(
        &mut out,
        state
            .plays
            .groups_before(state.trick_start)
            .map(|g| g.plays().map(as_pair)),
    );
    out.push_str(" trick=");
    push_plays(&mut out, state.trick().map(as_pair));
    let _ = write!(
        out,
        " seed={} chance={},{}",
        state.seed, state.decks_drawn, state.reshuffles_drawn
    );
    if state.previous_trump != NONE {
        out.push_str(" previous=");
        push_suit(&mut out, state.previous_trump);
        out.push(':');
        push_tricks(
            &mut out,
            state.previous.groups().map(|g| g.plays().map(as_pair)),
        );
    }
    let stacked = state.stacked_decks();
    if !stacked.is_empty() {
        out.push_str(" stacked=");
        for (i, deck) in stacked.iter().enumerate() {
            if i > 0 {
                out.push('/');
            }
            push_cards(&mut out, deck.iter().copied());
        }
    }
    out
}

fn push_suit(out: &mut String, suit: u8) {
    out.push(SUIT_LETTERS.get(usize::from(suit)).copied().unwrap_or('-'));
}

fn push_seat(out: &mut String, seat: u8) {
    if seat == NONE {
        out.push('-');
    } else {
        let _ = write!(out, "{seat}");
    }
}

/// Everything read from the text, before the checks that relate fields to each other.
struct Read {
    n: usize,
    hand_no: u8,
    phase: Phase,
    trump: Option<u8>,
    turned: Option<Card>,
    status: [Status; MAX_PLAYERS],
    eliminated: Vec<(u8, u8)>,
    tricks_won: Vec<u128>,
    cuts: Vec<Plays>,
    chooser: Option<usize>,
    hands: [CardSet; MAX_PLAYERS],
    stock: Vec<Card>,
    done: Vec<Plays>,
    trick: Plays,
}

/// `parse_position`: a state from its text, with every check the Python parser makes.
pub fn parse(options: &Options, text: &str) -> Result<KnockoutWhist, PositionError> {
    let r = Fields::new(text, HEADER, "knockout-whist", &FIELDS, &OPTIONAL_FIELDS)?;
    let n = r.small("players", FEWEST, MOST)?;
    if n != options.players {
        return Err(r.fail(
            "players",
            format!("this game has {} players", options.players),
        ));
    }
    let seed_placeholder = 0;
    let mut state = KnockoutWhist::blank(n as u8, seed_placeholder);
    let read = read_fields(&r, &mut state, n)?;
    check_consistency(&r, &read)?;
    fill(&mut state, read);
    state.to_move = derive_turn(&r, &state)?;
    Ok(state)
}

fn read_fields(r: &Fields<'_>, state: &mut KnockoutWhist, n: usize) -> Result<Read, PositionError> {
    let hand_no = r.small("hand", 1, usize::from(HANDS))? as u8;
    state.dealer = r.small("dealer", 0, n - 1)? as u8;
    let phase = match r.get("phase") {
        "trump" => Phase::Trump,
        "play" => Phase::Play,
        "over" => Phase::Over,
        _ => return Err(r.fail("phase", "expected trump, play or over")),
    };
    let trump = match r.get("trump") {
        "-" => None,
        "C" => Some(0),
        "D" => Some(1),
        "H" => Some(2),
        "S" => Some(3),
        _ => return Err(r.fail("trump", "expected C, D, H, S or -")),
    };
    let turned = r.cards("turned")?.first().copied();
    state.dog_used = match r.get("dog") {
        "used" => true,
        "unused" => false,
        _ => return Err(r.fail("dog", "expected used or unused")),
    };
    let status = read_status(r, n)?;
    let eliminated = read_out(r, n)?;
    let tricks_won = read_won(r, n)?;
    let cuts = r.tricks("cuts", n, true)?;
    let chooser = r.optional_small("chooser", 0, n - 1)?;
    let hands = read_hands(r, n)?;
    let stock = r.cards("stock")?;
    let done = r.tricks("done", n, true)?;
    let trick = r.plays_in("trick", r.get("trick"), n, true)?;
    state.seed = r.number("seed", -SEED_LIMIT, SEED_LIMIT)?;
    (state.decks_drawn, state.reshuffles_drawn) = read_chance(r)?;
    if let Some(text) = r.optional("stacked").filter(|t| !t.is_empty()) {
        let decks = text
            .split('/')
            .map(|d| r.cards_in("stacked", d))
            .collect::<Result<Vec<_>, _>>()?;
        state.set_stacked(decks, Vec::new());
    }
    if let Some(text) = r.optional("previous") {
        read_previous(r, state, text, hand_no, n)?;
    }
    Ok(Read {
        n,
        hand_no,
        phase,
        trump,
        turned,
        status,
        eliminated,
        tricks_won,
        cuts,
        chooser,
        hands,
        stock,
        done,
        trick,
    })
}

fn read_status(r: &Fields<'_>, n: usize) -> Result<[Status; MAX_PLAYERS], PositionError> {
    let text = r.get("status");
    if text.chars().count() != n || text.chars().any(|c| !STATUS_LETTERS.contains(&c)) {
        return Err(r.fail("status", format!("expected {n} letters from A, D, O")));
    }
    let mut status = [Status::Active; MAX_PLAYERS];
    for (s, c) in status.iter_mut().zip(text.chars()) {
        *s = match c {
            'A' => Status::Active,
            'D' => Status::Dog,
            _ => Status::Out,
        };
    }
    Ok(status)
}

fn read_out(r: &Fields<'_>, n: usize) -> Result<Vec<(u8, u8)>, PositionError> {
    let text = r.get("out");
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|item| {
            let (seat, hand) = item.split_once('@').unwrap_or((item, ""));
            let seat = is_count(seat).then(|| seat.parse::<usize>().ok()).flatten();
            // Python reads a hand number of any size; the core keeps hands as bytes.
            let hand = is_count(hand).then(|| hand.parse::<u8>().ok()).flatten();
            match (seat, hand) {
                (Some(seat), Some(hand)) if seat < n => Ok((seat as u8, hand)),
                _ => Err(r.fail("out", format!("'{item}' is not seat@hand"))),
            }
        })
        .collect()
}

fn read_won(r: &Fields<'_>, n: usize) -> Result<Vec<u128>, PositionError> {
    let won: Vec<&str> = r.get("won").split(',').collect();
    let counts: Option<Vec<u128>> = won
        .iter()
        .map(|w| is_count(w).then(|| w.parse::<u128>().ok()).flatten())
        .collect();
    match counts {
        Some(counts) if counts.len() == n => Ok(counts),
        _ => Err(r.fail("won", format!("expected {n} trick counts"))),
    }
}

fn read_hands(r: &Fields<'_>, n: usize) -> Result<[CardSet; MAX_PLAYERS], PositionError> {
    let texts: Vec<&str> = r.get("hands").split('/').collect();
    if texts.len() != n {
        return Err(r.fail("hands", format!("expected {n} hands separated by /")));
    }
    let mut hands = [0; MAX_PLAYERS];
    for (hand, text) in hands.iter_mut().zip(texts) {
        *hand = r
            .cards_in("hands", text)?
            .into_iter()
            .fold(0, |h, c| h | bit(c));
    }
    Ok(hands)
}

fn read_chance(r: &Fields<'_>) -> Result<(u64, u64), PositionError> {
    let parts: Vec<&str> = r.get("chance").split(',').collect();
    // Python reads counters of any size; the core's fit 64 bits.
    let numbers: Option<Vec<u64>> = parts
        .iter()
        .map(|p| is_count(p).then(|| p.parse::<u64>().ok()).flatten())
        .collect();
    match numbers.as_deref() {
        Some(&[decks, reshuffles]) => Ok((decks, reshuffles)),
        _ => Err(r.fail("chance", "expected decks,reshuffles")),
    }
}

fn read_previous(
    r: &Fields<'_>,
    state: &mut KnockoutWhist,
    text: &str,
    hand_no: u8,
    n: usize,
) -> Result<(), PositionError> {
    let (letter, tricks) = text.split_once(':').unwrap_or((text, ""));
    let trump = match letter {
        "C" => 0,
        "D" => 1,
        "H" => 2,
        "S" => 3,
        _ => NONE,
    };
    if trump == NONE || hand_no == 1 {
        return Err(r.fail(
            "previous",
            "expected <trump>:<tricks>, and only after hand 1",
        ));
    }
    state.previous_trump = trump;
    state.previous = rounds(&r.tricks_in("previous", tricks, n, true)?);
    Ok(())
}

fn rounds<const N: usize>(groups: &[Plays]) -> Rounds<N> {
    let mut rounds = Rounds::default();
    for group in groups {
        for &play in group {
            rounds.push(as_play(play));
        }
        rounds.close();
    }
    rounds
}

/// Seats dealt cards this hand: those not OUT, and those knocked out in it.
fn dealt_in(read: &Read) -> u8 {
    (0..read.n)
        .filter(|&s| {
            read.status[s] != Status::Out || read.eliminated.contains(&(s as u8, read.hand_no))
        })
        .fold(0, |m, s| m | 1 << s)
}

fn this_hand_plays(read: &Read) -> impl Iterator<Item = (u8, Option<Card>)> + '_ {
    read.done.iter().flatten().chain(&read.trick).copied()
}

fn check_consistency(r: &Fields<'_>, read: &Read) -> Result<(), PositionError> {
    let n = read.n;
    if read.hand_no == 1
        && read.phase != Phase::Over
        && (read.turned.is_none() || read.trump != read.turned.map(suit))
    {
        return Err(r.fail(
            "trump",
            "hand 1's trump is the suit of the turned card (KOW-3.1)",
        ));
    }
    let mut listed: Vec<u8> = read.eliminated.iter().map(|&(s, _)| s).collect();
    listed.sort_unstable();
    let out: Vec<u8> = (0..n as u8)
        .filter(|&s| read.status[usize::from(s)] == Status::Out)
        .collect();
    if listed != out {
        return Err(r.fail("out", "must list each seat whose status is O, once"));
    }
    for (seat, card) in this_hand_plays(read) {
        if card.is_none()
            && read.status[usize::from(seat)] != Status::Dog
            && read.phase == Phase::Play
        {
            return Err(r.fail(
                "trick",
                format!("seat {seat} knocks but is not a dog (KOW-6.3)"),
            ));
        }
    }
    check_cards(r, read)?;
    check_counts(r, read)
}

/// Every card once among hands, stock, played and turned; the cut cards fill the rest.
fn check_cards(r: &Fields<'_>, read: &Read) -> Result<(), PositionError> {
    let mut placed = 0u64;
    let mut twice = false;
    let played = this_hand_plays(read).filter_map(|(_, c)| c);
    let held = read.hands[..read.n].iter().flat_map(|&h| cards(h));
    for c in held
        .chain(read.stock.iter().copied())
        .chain(played)
        .chain(read.turned)
    {
        twice |= placed & bit(c) != 0;
        placed |= bit(c);
    }
    if twice {
        return Err(r.fail(
            "hands",
            "a card appears twice among hands, stock, tricks and turned card",
        ));
    }
    let cut_plays = || read.cuts.iter().flatten();
    let cut = cut_plays()
        .filter_map(|&(_, c)| c)
        .fold(0, |m, c| m | bit(c));
    // A knock among the cuts is Python's -1, which no pack holds.
    let knock_cut = cut_plays().any(|(_, c)| c.is_none());
    if placed | cut != FULL_PACK || knock_cut {
        let missing: Vec<String> = cards(FULL_PACK & !(placed | cut)).map(card_text).collect();
        return Err(r.fail("stock", format!("cards are missing: {}", missing.join(" "))));
    }
    Ok(())
}

fn check_counts(r: &Fields<'_>, read: &Read) -> Result<(), PositionError> {
    let size = usize::from(HANDS + 1 - read.hand_no);
    let total: u128 = read.tricks_won.iter().sum();
    if total != read.done.len() as u128 {
        return Err(r.fail(
            "won",
            format!("trick counts add up to {total}, not {}", read.done.len()),
        ));
    }
    if read.done.len() >= size && read.phase != Phase::Over {
        return Err(r.fail(
            "done",
            format!("hand {} has only {size} tricks", read.hand_no),
        ));
    }
    if read.phase == Phase::Trump
        && (read.hand_no == 1 || read.trump.is_some() || read.chooser.is_none())
    {
        return Err(r.fail(
            "phase",
            "trumps are chosen only in hands 2-7, by a chooser, once",
        ));
    }
    if read.phase == Phase::Play && read.trump.is_none() {
        return Err(r.fail("trump", "play needs a trump suit"));
    }
    if read.phase == Phase::Over {
        return Ok(());
    }
    let dealt_in = dealt_in(read);
    for s in 0..read.n {
        let held = read.hands[s].count_ones() as usize;
        let played = this_hand_plays(read)
            .filter(|&(seat, c)| usize::from(seat) == s && c.is_some())
            .count();
        let expected = match read.status[s] {
            Status::Active => size,
            Status::Dog => 1,
            Status::Out if dealt_in >> s & 1 == 1 => size,
            Status::Out => 0,
        };
        if held + played != expected {
            return Err(r.fail(
                "hands",
                format!(
                    "seat {s} holds {held} cards and played {played}; expected {expected} in all"
                ),
            ));
        }
    }
    Ok(())
}

/// Moves what was read into the state, now that the checks have passed.
fn fill(state: &mut KnockoutWhist, read: Read) {
    let n = read.n;
    state.hand_no = read.hand_no;
    state.phase = read.phase;
    state.trump = read.trump.unwrap_or(NONE);
    state.turned = read.turned.unwrap_or(NONE);
    state.chooser = read.chooser.map_or(NONE, |c| c as u8);
    state.status = read.status;
    state.dealt_in = dealt_in(&read);
    for (i, &entry) in read.eliminated.iter().enumerate() {
        state.eliminated[i] = entry;
    }
    state.eliminated_len = read.eliminated.len() as u8;
    for (won, &count) in state.tricks_won.iter_mut().zip(&read.tricks_won) {
        // The counts add up to the finished tricks, which the text holds one by one.
        *won = count as u32;
    }
    state.cuts = rounds(&read.cuts);
    state.hands = read.hands;
    state.holders = (0..n)
        .filter(|&s| read.hands[s] != 0)
        .fold(0, |m, s| m | 1 << s);
    state.stock[..read.stock.len()].copy_from_slice(&read.stock);
    state.stock_start = 0;
    state.stock_end = read.stock.len() as u8;
    state.plays = rounds(&read.done);
    state.done = read.done.len() as u32;
    state.trick_start = state.plays.len();
    for &(seat, card) in &read.trick {
        state.plays.push(as_play((seat, card)));
        state.acted |= 1 << seat;
        if let Some(c) = card {
            if state.led_suit == NONE {
                state.led_suit = suit(c);
            }
        }
        state.consider_for_trick(as_play((seat, card)));
    }
}

/// Whose turn it is follows from the rest (`_derive_turn`).
fn derive_turn(r: &Fields<'_>, state: &KnockoutWhist) -> Result<u8, PositionError> {
    match state.phase {
        Phase::Over => {
            if state.alive().count_ones() != 1 {
                return Err(r.fail("status", "a finished game has exactly one player left"));
            }
            return Ok(NONE);
        }
        Phase::Trump => return Ok(state.chooser),
        Phase::Play => {}
    }
    if let Some(last) = state.trick().last() {
        return first_clockwise(state.holders & !state.acted, last.seat).ok_or_else(|| {
            r.fail(
                "trick",
                "every player has acted; the trick should have been taken",
            )
        });
    }
    let Some(last_done) = state.plays.groups_before(state.trick_start).last() else {
        // Python fails an assertion when nobody is left to lead; the dealer's left stands in.
        let leader = first_clockwise(state.alive(), state.dealer);
        return Ok(leader.unwrap_or((state.dealer + 1) % state.players));
    };
    let none = Play {
        seat: NONE,
        card: NONE,
    };
    let best = last_done.plays().fold(none, |best, play| {
        if takes_over(play, best, state.trump) {
            play
        } else {
            best
        }
    });
    // A trick without a card has no winner; Python's -1 then indexes the last seat.
    let winner = if best.card == NONE {
        state.players - 1
    } else {
        best.seat
    };
    if state.hands[usize::from(winner)] != 0 {
        return Ok(winner);
    }
    first_clockwise(state.holders, winner)
        .ok_or_else(|| r.fail("hands", "nobody holds cards to lead the next trick"))
}
