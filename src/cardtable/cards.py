"""Cards, suits, ranks, bitmask card sets and the canonical notation (SPEC §0.2).

A card is an index ``0 … 51``: ``suit * 13 + (rank - 2)``, suits in the order
clubs, diamonds, hearts, spades. A :class:`CardSet` is an integer whose bit ``i``
says whether card ``i`` is in the set, so set algebra is one machine operation and
the rules engines can keep hands as plain ``int`` on their hot paths.

>>> Card.parse("TS")
Card('10S')
>>> str(Card.parse("q♥")), Card.parse("10S").symbol
('QH', '10♠')
>>> hand = CardSet.parse("AH 7D 10S")
>>> [str(c) for c in hand], len(hand)
(['7D', 'AH', '10S'], 3)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from cardtable.errors import InvalidCardError

__all__ = [
    "DECK_36",
    "DECK_52",
    "RANK_NAMES",
    "SUIT_NAMES",
    "Card",
    "CardSet",
    "Rank",
    "Suit",
    "parse_cards",
]


class Suit(enum.IntEnum):
    """The four suits, in the order the card index uses. No game here ranks them."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def mask(self) -> int:
        """The bitmask of all thirteen cards of this suit."""
        return 0x1FFF << (13 * self)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read ``C``/``D``/``H``/``S`` (any case) or a suit symbol."""
        suit = _SUIT_BY_TEXT.get(text.strip().upper())
        if suit is None:
            raise InvalidCardError(
                f"unknown suit {text!r}: expected one of C, D, H, S (or ♣ ♦ ♥ ♠)"
            )
        return suit

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


class Rank(enum.IntEnum):
    """Ranks 2 … 14 (ace high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def notation(self) -> str:
        """Canonical text: ``2``–``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_TEXT[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read ``2``–``10``, ``T``, ``J``, ``Q``, ``K``, ``A`` (any case)."""
        rank = _RANK_BY_TEXT.get(text.strip().upper())
        if rank is None:
            raise InvalidCardError(f"unknown rank {text!r}: expected 2-10, T, J, Q, K or A")
        return rank

    def __str__(self) -> str:
        return self.notation


_RANK_TEXT: Final = {r: (str(int(r)) if r <= 10 else "JQKA"[r - 11]) for r in Rank}
_RANK_BY_TEXT: Final = {text: r for r, text in _RANK_TEXT.items()} | {"T": Rank.TEN}
_SUIT_BY_TEXT: Final = (
    {s.letter: s for s in Suit}
    | {s.symbol: s for s in Suit}
    | {
        "♧": Suit.CLUBS,
        "♢": Suit.DIAMONDS,
        "♡": Suit.HEARTS,
        "♤": Suit.SPADES,
    }
)


@dataclass(frozen=True, slots=True, init=False)
class Card:
    """One playing card, a small value type ordered by its index (suit, then rank).

    ``Card("10S")`` (any notation :meth:`parse` reads) or ``Card(47)``; also
    :meth:`parse` and :meth:`of`. ``repr`` pastes back.
    """

    index: int

    def __init__(self, card: int | str) -> None:
        index = Card.parse(card).index if isinstance(card, str) else card
        if type(index) is not int or not 0 <= index < 52:
            raise InvalidCardError(f"card index {index!r} is outside 0-51")
        object.__setattr__(self, "index", index)

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        if not (2 <= int(rank) <= 14 and 0 <= int(suit) <= 3):
            raise InvalidCardError(f"no card has rank {rank!r} and suit {suit!r}")
        return _CARDS[int(suit) * 13 + int(rank) - 2]

    @classmethod
    def from_index(cls, index: int) -> Card:
        return _CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``10S``, ``TS``, ``ts``, ``10♠`` and the like (SPEC §0.2)."""
        if not isinstance(text, str):
            raise InvalidCardError(f"a card must be text like '10S', not {text!r}")
        cleaned = text.strip()
        card = _CARD_BY_TEXT.get(cleaned.upper())
        if card is not None:
            return card
        if cleaned.upper() in _RANK_BY_TEXT:
            raise InvalidCardError(f"invalid card {text!r}: the suit is missing (C, D, H or S)")
        if len(cleaned) < 2:
            raise InvalidCardError(
                f"invalid card {text!r}: write rank then suit, like 7D, 10S or QH"
            )
        # Not a known spelling: say which half is wrong.
        Rank.parse(cleaned[:-1])
        Suit.parse(cleaned[-1])
        raise InvalidCardError(f"invalid card {text!r}")  # pragma: no cover

    @property
    def suit(self) -> Suit:
        return _SUITS[self.index // 13]

    @property
    def rank(self) -> Rank:
        return _RANKS[self.index % 13]

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def symbol(self) -> str:
        """Unicode display, ``10♠``."""
        return self.rank.notation + self.suit.symbol

    def name(self, language: str = "en") -> str:
        """The card's full name in ``en``, ``fa``, ``fr`` or ``ru``."""
        template = _CARD_NAME_TEMPLATE[language]
        return template.format(
            rank=RANK_NAMES[language][self.rank], suit=SUIT_NAMES[language][self.suit]
        )

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __str__(self) -> str:
        return _TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self.index]!r})"


_SUITS: Final = tuple(Suit)
_RANKS: Final = tuple(Rank)
_CARDS: Final = tuple(Card(i) for i in range(52))
_TEXT: Final = tuple(_RANK_TEXT[_RANKS[i % 13]] + "CDHS"[i // 13] for i in range(52))
_CARD_BY_TEXT: Final[dict[str, Card]] = {}
for _card in _CARDS:
    for _rank_text in [k for k, v in _RANK_BY_TEXT.items() if v == _card.rank]:
        for _suit_text in [k for k, v in _SUIT_BY_TEXT.items() if v == _card.suit]:
            _CARD_BY_TEXT[_rank_text + _suit_text] = _card


def card_text(index: int) -> str:
    """Canonical text of card ``index``; the engines' fast path to notation."""
    return _TEXT[index]


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Read cards from ``"7D 10S QH"`` (spaces or commas) or from an iterable."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [item if isinstance(item, Card) else Card.parse(item) for item in items]


class CardSet:
    """An immutable set of cards held as an integer bitmask.

    Iteration is in index order (clubs, diamonds, hearts, spades; low to high).
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card | str] | int = 0) -> None:
        if isinstance(cards, str):
            cards = parse_cards(cards)
        if isinstance(cards, int):
            if cards < 0 or cards >> 52:
                raise InvalidCardError(f"card-set mask {cards:#x} has bits outside 0-51")
            mask = cards
        else:
            mask = 0
            for card in cards:
                mask |= (card if isinstance(card, Card) else Card.parse(card)).bit
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read ``"7D 10S QH"``; repeated cards are an error."""
        cards = parse_cards(text)
        result = cls(cards)
        if len(result) != len(cards):
            raise InvalidCardError(f"repeated card in {text!r}")
        return result

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield _CARDS[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self.mask == other.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def of_suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & suit.mask)

    def __str__(self) -> str:
        return " ".join(_TEXT[c.index] for c in self)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"


def _deck(lowest: Rank) -> tuple[Card, ...]:
    return tuple(c for c in _CARDS if c.rank >= lowest)


DECK_52: Final = _deck(Rank.TWO)
"""The full pack in index order."""
DECK_36: Final = _deck(Rank.SIX)
"""The 36-card pack (6 … A) in index order."""

# Names for localisation; the web table and terminal pick the language.
SUIT_NAMES: Final[dict[str, dict[Suit, str]]] = {
    language: dict(zip(Suit, names.split(), strict=True))
    for language, names in {
        "en": "clubs diamonds hearts spades",
        "fa": "گشنیز خشت دل پیک",
        "fr": "trèfle carreau cœur pique",
        "ru": "трефы бубны черви пики",
    }.items()
}
RANK_NAMES: Final[dict[str, dict[Rank, str]]] = {
    language: dict(zip(Rank, names.split(), strict=True))
    for language, names in {
        "en": "two three four five six seven eight nine ten jack queen king ace",
        "fa": "دو سه چهار پنج شش هفت هشت نه ده سرباز بی‌بی شاه آس",
        "fr": "deux trois quatre cinq six sept huit neuf dix valet dame roi as",
        "ru": "двойка тройка четвёрка пятёрка шестёрка семёрка восьмёрка девятка десятка валет "
        "дама король туз",
    }.items()
}
_CARD_NAME_TEMPLATE: Final = {
    "en": "{rank} of {suit}",
    "fa": "{rank} {suit}",
    "fr": "{rank} de {suit}",
    "ru": "{rank} ({suit})",
}
