"""Cards, suits, hands and tricks as Rich markup, for every game's screen.

Everything here reads the text a view holds (``"10H"``, ``[[seat, "7C"], …]``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import Card, Suit
from cardtable.rules import tricks

__all__ = ["card_markup", "hand_markup", "plays_markup", "suit_markup", "trick_winner"]


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


def hand_markup(cards: Sequence[str], trump: str | None = None) -> str:
    """A hand grouped by suit, low to high; the trump suit first when one is given."""
    groups: dict[Suit, list[Card]] = {}
    for card in sorted(Card.parse(c) for c in cards):
        groups.setdefault(card.suit, []).append(card)
    first = None if trump in (None, "NT") else Suit.parse(trump)
    order = sorted(groups, key=lambda s: (s != first, s))
    return "   ".join(" ".join(card_markup(str(c)) for c in groups[s]) for s in order)


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
