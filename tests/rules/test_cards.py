"""Cards, suits, ranks and card sets: the notation of SPEC §0.2 and the set algebra."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import DECK_36, DECK_52, Card, CardSet, InvalidCardError, Rank, Suit
from cardtable.cards import RANK_NAMES, SUIT_NAMES, parse_cards

RANK_TEXTS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_WHITE_SYMBOLS = "♧♢♡♤"

cards = st.integers(min_value=0, max_value=51).map(Card.from_index)
card_sets = st.sets(st.integers(min_value=0, max_value=51)).map(
    lambda indices: CardSet(Card.from_index(i) for i in indices)
)


# Notation (SPEC §0.2) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10S", "10S"),
        ("TS", "10S"),
        ("ts", "10S"),
        ("tS", "10S"),
        ("7d", "7D"),
        ("qh", "QH"),
        ("Ac", "AC"),
        ("10♠", "10S"),
        ("T♤", "10S"),
        ("Q♥", "QH"),
        ("q♡", "QH"),
        ("7♦", "7D"),
        ("7♢", "7D"),
        ("A♣", "AC"),
        ("A♧", "AC"),
        ("  9C\t", "9C"),
        ("\n2d ", "2D"),
    ],
)
def test_card_text_is_read_in_every_accepted_spelling(text: str, expected: str) -> None:
    """SPEC §0.2: `T` means ten, case is free, suit symbols are accepted; `10` is printed."""
    assert str(Card.parse(text)) == expected


def test_every_card_prints_rank_then_suit_with_10_for_ten() -> None:
    """SPEC §0.2: printers emit `10`, never `T`; rank then suit letter."""
    printed = [str(c) for c in DECK_52]
    expected = [rank + suit for suit in SUIT_LETTERS for rank in RANK_TEXTS]
    assert printed == expected
    assert not any("T" in text for text in printed)


def test_card_index_is_suit_times_13_plus_rank_minus_2() -> None:
    """The documented index: 0 = 2C, 12 = AC, 13 = 2D, 51 = AS; suits in the order C D H S."""
    assert Card.parse("2C").index == 0
    assert Card.parse("AC").index == 12
    assert Card.parse("2D").index == 13
    assert Card.parse("10H").index == 2 * 13 + 10 - 2
    assert Card.parse("AS").index == 51
    for card in DECK_52:
        assert card.index == int(card.suit) * 13 + int(card.rank) - 2
        assert Card.of(card.rank, card.suit) == card
        assert Card.from_index(card.index) == card
        assert Card(card.index) == card


def test_cards_order_by_index_suit_first() -> None:
    """Cards sort by index: every club before every diamond, ranks low to high within a suit."""
    shuffled = [Card.parse(t) for t in ("AS", "2D", "AC", "10H", "2C", "KD")]
    assert [str(c) for c in sorted(shuffled)] == ["2C", "AC", "2D", "KD", "10H", "AS"]
    assert Card.parse("AC") < Card.parse("2D")
    assert Card.parse("AC") <= Card.parse("AC")
    assert Card.parse("3H") > Card.parse("2H")
    assert Card.parse("3H") >= Card.parse("3H")


def test_card_rank_and_suit_properties() -> None:
    """A card knows its rank (2 … 14, ace high, SPEC §0.2) and suit."""
    ten = Card.parse("10S")
    assert ten.rank is Rank.TEN and int(ten.rank) == 10
    assert ten.suit is Suit.SPADES
    ace = Card.parse("AH")
    assert ace.rank is Rank.ACE and int(ace.rank) == 14
    assert ace.suit is Suit.HEARTS
    assert Card.parse("2C").bit == 1
    assert Card.parse("AS").bit == 1 << 51


def test_repr_pastes_back() -> None:
    """STYLE: `repr` shows something that can be pasted back: evaluating the repr of a card
    or a card set gives an equal value."""
    namespace = {"Card": Card, "CardSet": CardSet}
    for card in DECK_52:
        assert str(card) in repr(card)
        assert eval(repr(card), namespace) == card
    hand = CardSet.parse("AH 7D 10S")
    assert eval(repr(hand), namespace) == hand
    assert eval(repr(CardSet()), namespace) == CardSet()


def test_unicode_display_uses_suit_symbols() -> None:
    """SPEC §0.2 notation with the suit drawn as its symbol, for the table: `10♠`."""
    assert Card.parse("10S").symbol == "10♠"
    assert Card.parse("QH").symbol == "Q♥"
    assert Card.parse("7D").symbol == "7♦"
    assert Card.parse("AC").symbol == "A♣"
    for card in DECK_52:
        assert Card.parse(card.symbol) == card


def test_suits_letters_symbols_and_colours() -> None:
    """The four suits C D H S in index order; no suit ranks above another (SPEC §0.2)."""
    assert [s.letter for s in Suit] == list(SUIT_LETTERS)
    assert [s.symbol for s in Suit] == list(SUIT_SYMBOLS)
    assert [str(s) for s in Suit] == list(SUIT_LETTERS)
    assert [s.is_red for s in Suit] == [False, True, True, False]
    for suit, white in zip(Suit, SUIT_WHITE_SYMBOLS, strict=True):
        assert Suit.parse(suit.letter) is suit
        assert Suit.parse(suit.letter.lower()) is suit
        assert Suit.parse(suit.symbol) is suit
        assert Suit.parse(white) is suit
        assert CardSet(suit.mask) == CardSet(c for c in DECK_52 if c.suit is suit)


def test_ranks_notation_and_parse() -> None:
    """Ranks 2 … A print as `2`–`10`, `J`, `Q`, `K`, `A`; `T` is read as ten (SPEC §0.2)."""
    assert [r.notation for r in Rank] == RANK_TEXTS
    assert [str(r) for r in Rank] == RANK_TEXTS
    assert Rank.parse("T") is Rank.TEN
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("q") is Rank.QUEEN
    assert max(Rank) is Rank.ACE and min(Rank) is Rank.TWO


# Bad card text ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "blamed"),
    [
        ("11S", "'11'"),
        ("1S", "'1'"),
        ("AX", "'X'"),
        ("ZZ", "'Z'"),
        ("", "rank then suit"),
        ("S", "rank then suit"),
        ("10 S", "'10 S'"),
    ],
)
def test_invalid_card_text_names_what_is_wrong(text: str, blamed: str) -> None:
    """Bad card text raises InvalidCardError (a ValueError) naming the wrong part."""
    with pytest.raises(InvalidCardError) as caught:
        Card.parse(text)
    assert isinstance(caught.value, ValueError)
    assert blamed in str(caught.value)


def test_card_text_without_a_suit_says_the_suit_is_missing() -> None:
    """`10` is a rank alone: the message must say a suit is missing, not blame rank `1`."""
    with pytest.raises(InvalidCardError) as caught:
        Card.parse("10")
    message = str(caught.value)
    assert "suit" in message, message
    assert "'1'" not in message, message


@pytest.mark.parametrize("value", [None, 10, 3.5, b"AS"])
def test_card_parse_rejects_non_text(value: object) -> None:
    """A card is read from text only; anything else is an InvalidCardError, not a TypeError."""
    with pytest.raises(InvalidCardError):
        Card.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_card_index_outside_the_pack_is_rejected(index: int) -> None:
    """Card indices are 0 … 51."""
    with pytest.raises(InvalidCardError, match=str(index)):
        Card(index)


@pytest.mark.parametrize(("rank", "suit"), [(1, 0), (15, 0), (14, 4)])
def test_card_of_rejects_a_rank_or_suit_outside_the_pack(rank: int, suit: int) -> None:
    """SPEC §0.2: ranks 2-A, suits C D H S. `Card.of(15, 0)` is no card: it must not wrap
    round to another suit's card (2D)."""
    with pytest.raises(InvalidCardError):
        Card.of(rank, suit)


@pytest.mark.parametrize("text", ["X", "", "NT", "CC", "1"])
def test_invalid_suit_text(text: str) -> None:
    """Suits are C, D, H, S or a suit symbol; `NT` is not a suit (SPEC §0.2)."""
    with pytest.raises(InvalidCardError, match="C, D, H, S"):
        Suit.parse(text)


@given(st.text(max_size=6))
def test_any_text_parses_to_a_card_or_raises_invalid_card_error(text: str) -> None:
    """Fuzz: Card.parse never fails with anything but InvalidCardError, and what it
    accepts is a spelling of the card it returns."""
    try:
        card = Card.parse(text)
    except InvalidCardError:
        return
    cleaned = text.strip().upper().replace("T", "10")
    for white, black in zip(SUIT_WHITE_SYMBOLS, SUIT_SYMBOLS, strict=True):
        cleaned = cleaned.replace(white, black)
    assert cleaned in (str(card), card.symbol)


# Round trips ------------------------------------------------------------------------------


def test_every_card_round_trips_through_its_text() -> None:
    """`Card.parse(str(c)) == c` for the whole pack (DESIGN.md, notation round trips)."""
    for card in DECK_52:
        assert Card.parse(str(card)) == card
        assert Card.parse(str(card).lower()) == card


@st.composite
def spellings(draw: st.DrawFn) -> tuple[str, Card]:
    card = draw(cards)
    rank = card.rank.notation
    if card.rank is Rank.TEN:
        rank = draw(st.sampled_from(["10", "T", "t"]))
    elif not rank.isdigit():
        rank = draw(st.sampled_from([rank, rank.lower()]))
    suit = draw(
        st.sampled_from(
            [
                card.suit.letter,
                card.suit.letter.lower(),
                card.suit.symbol,
                SUIT_WHITE_SYMBOLS[card.suit],
            ]
        )
    )
    before = draw(st.sampled_from(["", " ", "\t", "  "]))
    after = draw(st.sampled_from(["", " ", "\n", " \t"]))
    return before + rank + suit + after, card


@given(spellings())
def test_random_spellings_parse_to_their_card(spelled: tuple[str, Card]) -> None:
    """SPEC §0.2: `T` or `10`, any case, letters or symbols, surrounding spaces."""
    text, card = spelled
    assert Card.parse(text) == card
    assert str(Card.parse(text)) == str(card)


@given(card_sets)
def test_card_set_round_trips_through_its_text(cards_: CardSet) -> None:
    """`CardSet.parse(str(s)) == s`, and the text lists cards in index order."""
    assert CardSet.parse(str(cards_)) == cards_
    assert str(cards_) == " ".join(str(c) for c in sorted(cards_))


@given(card_sets, st.sampled_from([" ", ", ", ",", "  "]))
def test_card_list_text_accepts_commas_and_spaces(cards_: CardSet, separator: str) -> None:
    """Card lists are written with spaces or commas between cards."""
    text = separator.join(str(c) for c in cards_)
    assert CardSet.parse(text) == cards_
    assert parse_cards(text) == list(cards_)


def test_card_set_text_rejects_a_repeated_card() -> None:
    """A set holds each card once: `AH AH` is an error, not a one-card set."""
    with pytest.raises(InvalidCardError, match="repeated"):
        CardSet.parse("AH 7D ah")


def test_card_set_text_rejects_a_bad_card() -> None:
    with pytest.raises(InvalidCardError, match="'11'"):
        CardSet.parse("AH 11S")


# Card sets ---------------------------------------------------------------------------------


def _indices(cards_: CardSet) -> set[int]:
    return {c.index for c in cards_}


@given(card_sets, card_sets)
def test_card_set_algebra_agrees_with_python_sets(a: CardSet, b: CardSet) -> None:
    """|, &, -, ^, <=, ==, len, bool and `in` behave as Python's `set` does."""
    sa, sb = _indices(a), _indices(b)
    assert _indices(a | b) == sa | sb
    assert _indices(a & b) == sa & sb
    assert _indices(a - b) == sa - sb
    assert _indices(a ^ b) == sa ^ sb
    assert (a <= b) == (sa <= sb)
    assert (a == b) == (sa == sb)
    assert (hash(a) == hash(b)) or a != b
    assert len(a) == len(sa)
    assert bool(a) == bool(sa)
    for card in DECK_52:
        assert (card in a) == (card.index in sa)


@given(card_sets)
def test_card_set_iterates_in_index_order(cards_: CardSet) -> None:
    """Iteration is stable: clubs, diamonds, hearts, spades, each low to high."""
    listed = list(cards_)
    assert [c.index for c in listed] == sorted(_indices(cards_))
    assert list(cards_) == listed


@given(card_sets)
def test_of_suit_keeps_exactly_that_suits_cards(cards_: CardSet) -> None:
    parts = [cards_.of_suit(s) for s in Suit]
    for suit, part in zip(Suit, parts, strict=True):
        assert all(c.suit is suit for c in part)
    assert CardSet(c for part in parts for c in part) == cards_
    assert sum(len(p) for p in parts) == len(cards_)


def test_card_set_basics() -> None:
    """DESIGN.md (cards, CardSet bitmask): built from cards, text or a mask; equality is by
    content; hashable; immutable."""
    hand = CardSet.parse("AH 7D 10S")
    assert hand == CardSet([Card.parse("10S"), Card.parse("AH"), Card.parse("7D")])
    assert hand == CardSet(["7d", "ah", "ts"])
    assert hand == CardSet(hand.mask)
    assert len({hand, CardSet.parse("10S 7D AH")}) == 1
    assert Card.parse("AH") in hand
    assert Card.parse("AS") not in hand
    assert "AH" not in hand  # membership is for cards, not text
    assert len(hand) == 3 and hand
    assert not CardSet() and len(CardSet()) == 0
    assert CardSet() <= hand <= hand
    assert not hand <= CardSet.parse("AH 7D")
    assert hand != {Card.parse("AH"), Card.parse("7D"), Card.parse("10S")}
    with pytest.raises(AttributeError):
        hand.mask = 0


def test_card_set_mask_outside_the_pack_is_rejected() -> None:
    """DESIGN.md (cards): a CardSet mask has bits for cards 0 … 51 only."""
    with pytest.raises(InvalidCardError):
        CardSet(1 << 52)
    with pytest.raises(InvalidCardError):
        CardSet(-1)


# Packs --------------------------------------------------------------------------------------


def test_deck_52_is_the_full_pack_in_index_order() -> None:
    """KOW-1.2 / NEUF-1.2: a standard 52-card pack, A high to 2 low, no jokers."""
    assert len(DECK_52) == 52
    assert [c.index for c in DECK_52] == list(range(52))
    assert {(c.rank, c.suit) for c in DECK_52} == {(r, s) for r in Rank for s in Suit}


def test_deck_36_is_six_to_ace_in_every_suit() -> None:
    """KRYT-1.2: a 36-card pack of A K Q J 10 9 8 7 6 in each suit."""
    assert len(DECK_36) == 36
    assert list(DECK_36) == sorted(DECK_36)
    assert {c.rank for c in DECK_36} == {r for r in Rank if r >= Rank.SIX}
    for suit in Suit:
        assert len([c for c in DECK_36 if c.suit is suit]) == 9
    assert set(DECK_36) <= set(DECK_52)


# Names --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language", "name"),
    [
        ("10S", "en", "ten of spades"),
        ("AH", "en", "ace of hearts"),
        ("2C", "en", "two of clubs"),
        ("QD", "en", "queen of diamonds"),
        ("10S", "fr", "dix de pique"),
        ("QD", "fr", "dame de carreau"),
        ("AH", "fr", "as de cœur"),
        ("JC", "fr", "valet de trèfle"),
        ("AC", "ru", "туз (трефы)"),
        ("QH", "ru", "дама (черви)"),
        ("6S", "ru", "шестёрка (пики)"),
        ("KD", "ru", "король (бубны)"),
        ("10S", "fa", "ده پیک"),
        ("JH", "fa", "سرباز دل"),
        ("KD", "fa", "شاه خشت"),
        ("AC", "fa", "آس گشنیز"),
    ],
)
def test_card_names_in_each_language(text: str, language: str, name: str) -> None:
    """The table speaks English, Persian, French and Russian (DESIGN.md)."""
    assert Card.parse(text).name(language) == name


@pytest.mark.parametrize("language", ["en", "fa", "fr", "ru"])
def test_every_card_has_a_distinct_name_in_each_language(language: str) -> None:
    """DESIGN.md: the table speaks en, fa, fr and ru; no two cards share a name."""
    names = [c.name(language) for c in DECK_52]
    assert len(set(names)) == 52
    assert set(SUIT_NAMES[language]) == set(Suit)
    assert set(RANK_NAMES[language]) == set(Rank)
    assert Card.parse("AS").name() == Card.parse("AS").name("en")
