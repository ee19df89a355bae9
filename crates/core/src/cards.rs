//! Cards as indices `0 … 51` (`suit * 13 + rank - 2`, suits clubs, diamonds, hearts,
//! spades), card sets as `u64` bitmasks, and the canonical notation of SPEC §0.2, exactly
//! as `cardtable.cards` reads and writes them.

use std::fmt;

/// A card's index: `suit * 13 + rank - 2`.
pub type Card = u8;
/// A set of cards: bit `c` holds card `c`.
pub type CardSet = u64;

/// The thirteen cards of each suit.
pub const SUIT_MASKS: [CardSet; 4] = [0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39];
/// All 52 cards.
pub const FULL_PACK: CardSet = (1 << 52) - 1;
/// Suit letters in index order.
pub const SUIT_LETTERS: [char; 4] = ['C', 'D', 'H', 'S'];

const RANK_TEXT: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];

/// The card's suit, 0 … 3.
#[inline]
pub const fn suit(card: Card) -> u8 {
    card / 13
}

/// The card's rank, 2 … 14 (ace high).
#[inline]
pub const fn rank(card: Card) -> u8 {
    card % 13 + 2
}

/// The single-card set of `card`.
#[inline]
pub const fn bit(card: Card) -> CardSet {
    1 << card
}

/// Canonical text of a card: `2C` … `10S`, `JH`, `AS`.
pub fn card_text(card: Card) -> String {
    let mut s = String::with_capacity(3);
    push_card(&mut s, card);
    s
}

/// Appends the canonical text of `card` to `out` (the notation writers' path, no allocation
/// beyond `out`'s growth).
pub fn push_card(out: &mut String, card: Card) {
    out.push_str(RANK_TEXT[(card % 13) as usize]);
    out.push(SUIT_LETTERS[(card / 13) as usize]);
}

/// Why a card text was refused; the message says which half is wrong, as Python's does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardError(pub String);

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CardError {}

fn parse_rank(text: &str) -> Option<u8> {
    let upper = text.trim().to_uppercase();
    match upper.as_str() {
        "T" | "10" => Some(10),
        "J" => Some(11),
        "Q" => Some(12),
        "K" => Some(13),
        "A" => Some(14),
        _ => match upper.as_bytes() {
            [d] if (b'2'..=b'9').contains(d) => Some(d - b'0'),
            _ => None,
        },
    }
}

/// A suit from `C`/`D`/`H`/`S` (any case) or a suit symbol, black or white.
pub fn parse_suit(text: &str) -> Option<u8> {
    match text.trim().to_uppercase().as_str() {
        "C" | "♣" | "♧" => Some(0),
        "D" | "♦" | "♢" => Some(1),
        "H" | "♥" | "♡" => Some(2),
        "S" | "♠" | "♤" => Some(3),
        _ => None,
    }
}

/// Reads `10S`, `TS`, `ts`, `10♠` and the like, as `Card.parse` does.
pub fn parse_card(text: &str) -> Result<Card, CardError> {
    let cleaned = text.trim();
    let mut chars = cleaned.chars();
    let last = chars.next_back();
    let head = chars.as_str();
    if let Some(last) = last {
        if let (Some(r), Some(s)) = (parse_rank(head), parse_suit(&last.to_string())) {
            if !head.is_empty() && head.trim() == head {
                return Ok(s * 13 + r - 2);
            }
        }
    }
    if parse_rank(cleaned).is_some() {
        return Err(CardError(format!(
            "invalid card {text:?}: the suit is missing (C, D, H or S)"
        )));
    }
    if cleaned.chars().count() < 2 {
        return Err(CardError(format!(
            "invalid card {text:?}: write rank then suit, like 7D, 10S or QH"
        )));
    }
    if parse_rank(head).is_none() {
        return Err(CardError(format!(
            "unknown rank {head:?}: expected 2-10, T, J, Q, K or A"
        )));
    }
    Err(CardError(format!(
        "unknown suit {:?}: expected one of C, D, H, S (or ♣ ♦ ♥ ♠)",
        last.map(String::from).unwrap_or_default()
    )))
}

/// The cards of `set`, ascending.
#[inline]
pub fn cards(set: CardSet) -> Cards {
    Cards(set)
}

/// Iterator over a card set's cards, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct Cards(pub CardSet);

impl Iterator for Cards {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as Card;
        self.0 &= self.0 - 1;
        Some(c)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cards {}

/// The highest card of a non-empty set.
#[inline]
pub fn highest(set: CardSet) -> Card {
    debug_assert!(set != 0);
    (63 - set.leading_zeros()) as Card
}

/// The `k`-th lowest card (0-based) of a set holding more than `k` cards.
#[inline]
pub fn nth_card(mut set: CardSet, k: u32) -> Card {
    for _ in 0..k {
        set &= set - 1;
    }
    set.trailing_zeros() as Card
}

/// The cards that may be played to a trick whose led suit is `led` (`None` when leading):
/// the led suit when the hand holds it, else anything (KOW-4.2, NEUF-4.2).
#[inline]
pub fn playable(hand: CardSet, led: Option<u8>) -> CardSet {
    match led {
        Some(s) if hand & SUIT_MASKS[s as usize] != 0 => hand & SUIT_MASKS[s as usize],
        _ => hand,
    }
}

/// The seat whose card takes a trick: the highest trump, else the highest card of the suit
/// led (KOW-4.3, NEUF-4.3). Plays are `(seat, card)`; a card of `None` (a Knockout Whist
/// knock) is passed over. Returns `None` only when no card was played.
pub fn trick_winner(plays: &[(u8, Option<Card>)], trump: Option<u8>) -> Option<u8> {
    let mut best: Option<(u8, Card)> = None;
    for &(seat, card) in plays {
        let Some(card) = card else { continue };
        let better = match best {
            None => true,
            Some((_, b)) => {
                (suit(card) == suit(b) && card > b)
                    || (Some(suit(card)) == trump && Some(suit(b)) != trump)
            }
        };
        if better {
            best = Some((seat, card));
        }
    }
    best.map(|(s, _)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_spellings() {
        // SPEC §0.2: 10 or T, any case, suit letters or symbols.
        assert_eq!(parse_card("10S"), Ok(47));
        assert_eq!(parse_card("ts"), Ok(47));
        assert_eq!(parse_card("10♠"), Ok(47));
        assert_eq!(parse_card(" q♥ "), Ok(36));
        assert_eq!(parse_card("2C"), Ok(0));
        assert_eq!(card_text(47), "10S");
        assert_eq!(card_text(12), "AC");
        assert!(parse_card("1S").is_err());
        assert!(parse_card("10").unwrap_err().0.contains("suit is missing"));
        assert!(parse_card("10X").unwrap_err().0.contains("unknown suit"));
        assert!(parse_card("").is_err());
    }

    #[test]
    fn every_card_reads_back() {
        for c in 0..52u8 {
            assert_eq!(parse_card(&card_text(c)), Ok(c));
            assert_eq!(parse_card(&card_text(c).to_lowercase()), Ok(c));
        }
    }

    #[test]
    fn trick_winner_trumps_and_led_suit() {
        // KOW-4.3: the highest trump, else the highest card of the suit led.
        let c = |t: &str| Some(parse_card(t).unwrap());
        let plays = [(0, c("7D")), (1, c("AD")), (2, c("2H"))];
        assert_eq!(trick_winner(&plays, Some(2)), Some(2));
        assert_eq!(trick_winner(&plays, Some(0)), Some(1));
        let knocked = [(0, None), (1, c("3C")), (2, c("AS"))];
        assert_eq!(trick_winner(&knocked, None), Some(1));
    }
}
