"""Cards, suits, hands and tricks as Rich markup, for every game's screen.

Everything here reads the text a view holds (``"10H"``, ``[[seat, "7C"], …]``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from cardtable.cards import Card, Suit
from cardtable.rules import tricks

__all__ = [
    "card_markup",
    "counted",
    "hand_key",
    "hand_markup",
    "plays_markup",
    "sort_hand",
    "suit_markup",
    "trick_winner",
    "with_symbols",
]

# The web table's order (``web/cards.js``, ``sortHand``): black and red suits alternate, so
# neighbouring suits are easy to tell apart, and the trump suit comes last, at the right.
SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
# A card in the engine's notation (``7D``, ``10S``, ``QH``), as the engine's messages write it.
# Text in single quotes, not counting apostrophes inside words (``seat 1's``).
QUOTED = re.compile(r"((?<!\w)'[^']*'(?!\w))")
NOTATION = re.compile(r"(?<![\w-])(10|[2-9JQKA])([CDHS])(?![\w-])")


def counted(count: int, word: str) -> str:
    """A count and its English noun: ``1 card``, ``3 cards``, ``1 reshuffle``."""
    return f"{count} {word}{'s' * (count != 1)}"


def card_markup(text: str) -> str:
    """A card as Rich markup: rank and suit symbol, red for diamonds and hearts.

    >>> card_markup("10H"), card_markup("7C")
    ('[red]10♥[/red]', '7♣')
    """
    card = Card.parse(text)
    return f"[red]{card.symbol}[/red]" if card.suit.is_red else card.symbol


def suit_markup(letter: str) -> str:
    """A suit as its symbol and name: ``♥ hearts``, in red for the red suits."""
    suit = Suit.parse(letter)
    words = f"{suit.symbol} {suit.name.lower()}"
    return f"[red]{words}[/red]" if suit.is_red else words


def hand_key(card: Card, trump: str | None = None) -> tuple[int, int]:
    """Where ``card`` goes in a hand: by suit (clubs, diamonds, spades, hearts, and the trump
    suit last), then low to high, as the web table sorts a hand. ``trump`` is a suit letter,
    ``NT`` or ``None``."""
    last = None if trump in (None, "NT") else Suit.parse(trump)
    suit = len(SUIT_ORDER) if card.suit == last else SUIT_ORDER.index(card.suit)
    return suit, int(card.rank)


def sort_hand(cards: Iterable[str], trump: str | None = None) -> list[Card]:
    """A hand in the order the screen shows it (:func:`hand_key`).

    >>> [str(c) for c in sort_hand(["AH", "7C", "9S", "2H", "KD"], "C")]
    ['KD', '9S', '2H', 'AH', '7C']
    """
    return sorted((Card.parse(c) for c in cards), key=lambda c: hand_key(c, trump))


def hand_markup(cards: Sequence[str], trump: str | None = None) -> str:
    """A hand grouped by suit, low to high, the trump suit last (:func:`hand_key`)."""
    groups: dict[Suit, list[Card]] = {}
    for card in sort_hand(cards, trump):
        groups.setdefault(card.suit, []).append(card)
    return "   ".join(" ".join(card_markup(str(c)) for c in group) for group in groups.values())


def with_symbols(text: str) -> str:
    """``text`` with each card in the engine's notation written as the screen writes it;
    what stands in quotes (an entry as typed, a form to type) is left as it is.

    >>> with_symbols("play 7D is not legal now; legal: play 10S, play QH")
    'play 7♦ is not legal now; legal: play 10♠, play Q♥'
    >>> with_symbols("cannot read 'play 9C x': seat 1's 9C")
    "cannot read 'play 9C x': seat 1's 9♣"
    """
    pieces = QUOTED.split(text)
    for i in range(0, len(pieces), 2):  # the even pieces stand outside quotes
        pieces[i] = NOTATION.sub(lambda m: Card.parse(m.group(0)).symbol, pieces[i])
    return "".join(pieces)


def plays_markup(plays: Sequence[Sequence[object]], names: Sequence[str]) -> str:
    """A trick's plays in order: ``seat 1 7♣, seat 2 knocks, …``."""
    return ", ".join(
        f"{names[int(str(s))]} knocks"
        if c == "knock"
        else f"{names[int(str(s))]} {card_markup(str(c))}"
        for s, c in plays
    )


def trick_winner(plays: Sequence[Sequence[object]], trump: str) -> int:
    """The seat taking a view's trick (KOW-4.3, NEUF-4.3); ``trump`` is a suit letter or
    ``NT``; knocks are passed over.

    >>> trick_winner([[1, "7C"], [2, "knock"], [0, "2H"], [3, "9C"]], "H")
    0
    >>> trick_winner([[1, "7C"], [2, "2H"], [0, "AC"]], "NT")
    0
    """
    cards = [(int(str(s)), -1 if c == "knock" else Card.parse(str(c)).index) for s, c in plays]
    if all(card < 0 for _, card in cards):
        raise ValueError("a trick holds at least one card")
    return tricks.trick_winner(cards, -1 if trump == "NT" else int(Suit.parse(trump)))
