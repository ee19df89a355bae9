"""What a seat knows of a Kryt'-navalivat' hand, as a sampler of full states (DESIGN.md
"Bots": the determinizer of search).

By KRYT-9 and K-10 a seat sees its own hand, the whole pile, the turned trump card while it
lies under the stock, every count, and the cards each seat is publicly known to hold:
those it picked up from the pile and the turned card it took by the six swap (KRYT-6) or
drew last (KRYT-2.5). Nothing else is revealed: a pick-up is always allowed (KRYT-4.2b),
so a seat that takes instead of beating shows no void. Every other card, the *unseen*
ones, may lie in any other hand's unknown places or anywhere in the face-down stock, and
:meth:`KrytNavalivatKnowledge.sample` deals them there uniformly at random.

The view is read once, into a *template* state holding everything fixed; a sample copies
it, shuffles the unseen cards and fills the hands and the stock with them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from cardtable.cards import Card, card_text
from cardtable.core import Game, View
from cardtable.errors import CardtableError, InvalidPositionError
from cardtable.rules.kryt_navalivat.beating import (
    NO_SUIT,
    PACK_36,
    PERMANENT_ANTI,
    PERMANENT_TRUMP,
)
from cardtable.rules.kryt_navalivat.position import format_position, parse_position
from cardtable.rules.kryt_navalivat.state import MODES, NUMBER, KrytNavalivatState, beaters_for
from cardtable.rules.tricks import BIT, CLOCKWISE

__all__ = ["KrytNavalivatKnowledge"]

_TEXT = tuple(card_text(c) for c in range(52))
_BIT = BIT.__getitem__
# _SUIT_TEXT[s][m]: the notation of the cards of suit s whose ranks 6 … A make the 9-bit
# mask m, ascending, so that writing a hand is four look-ups (cards_field(bits(hand))).
_SUIT_TEXT = tuple(
    tuple(",".join(_TEXT[13 * s + 4 + i] for i in range(9) if m >> i & 1) for m in range(512))
    for s in range(4)
)
_C, _D, _H, _S = _SUIT_TEXT
# Extra random bits beyond log2(n!) when one big random number picks a permutation: the
# permutations then differ in probability by less than 2**-64 (uniform for every purpose).
_SLACK_BITS = 64


def _cards(value: Any, what: str) -> list[int]:
    """Card indices of the 36-card pack from a view's list of card texts."""
    if not isinstance(value, list):
        raise InvalidPositionError(f"the view's {what} should be a list of cards")
    cards = []
    for text in value:
        try:
            card = Card.parse(text).index
        except (CardtableError, TypeError, AttributeError) as exc:
            raise InvalidPositionError(f"the view's {what}: {exc}") from exc
        if NUMBER[card] < 0:
            raise InvalidPositionError(f"the view's {what}: {text} is not in the 36-card pack")
        cards.append(card)
    return cards


def _mask(cards: list[int], what: str) -> int:
    mask = 0
    for card in cards:
        if mask & BIT[card]:
            raise InvalidPositionError(f"the view's {what} lists {_TEXT[card]} twice")
        mask |= BIT[card]
    return mask


def _hand_text(hand: int) -> str:
    """``cards_field(bits(hand))`` of the position notation, fast."""
    parts = (_C[hand >> 4 & 511], _D[hand >> 17 & 511], _H[hand >> 30 & 511], _S[hand >> 43 & 511])
    return ",".join([p for p in parts if p]) or "-"


def _count(value: Any, what: str) -> int:
    if type(value) is not int or value < 0:
        raise InvalidPositionError(f"the view's {what} should be a count, not {value!r}")
    return value


class KrytNavalivatKnowledge:
    """A seat's knowledge of a Kryt'-navalivat' hand, read from its view alone (KRYT-9).

    :meth:`sample` returns a full state whose ``view(seat)`` is the view given: the seat's
    hand, the pile, the turned card, the counts and every seat's known cards (K-10) as
    they are; the unseen cards dealt uniformly at random into the other hands and the
    face-down stock, in a random order. The state has a fresh ``seed``, no deck, an empty
    history and its own position as ``start``, so that its record replays.

    :class:`InvalidPositionError` for anything but a seat's view of a hand of ``game``, or
    a view whose cards and counts do not make up the pack.
    """

    __slots__ = ("_bits", "_head", "_middle", "_pool", "_slots", "_tail", "_template", "seat")

    seat: int

    def __init__(self, game: Game, view: View) -> None:
        if not isinstance(view, Mapping) or view.get("game") != game.name:
            raise InvalidPositionError(f"not a view of a {game.name} game")
        seat = view.get("seat")
        n = game.num_players
        if type(seat) is not int or not 0 <= seat < n or "hand" not in view:
            raise InvalidPositionError(
                "a determinizer needs a seat's view (KRYT-9): a spectator sees no hand"
            )
        if view.get("players") != n or view.get("trump_mode") != game.options["trump_mode"]:
            raise InvalidPositionError("the view is of a game with other options")
        self.seat = seat
        try:
            self._template = self._read(game, view, seat)
        except InvalidPositionError:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as exc:  # a field missing or odd
            raise InvalidPositionError(f"not a readable {game.name} view: {exc!r}") from exc
        self._prepare_start()
        # One sample, checked whole: the position notation's checks (the turn, the mover,
        # the result against the cards) and the view itself, field by field.
        first = self.sample(random.Random(0))
        parse_position(game, first.position())
        built = first.view(seat)
        for key, value in built.items():
            if view.get(key) != value:
                raise InvalidPositionError(
                    f"the view's {key} ({view.get(key)!r}) does not follow from its cards "
                    f"({value!r})"
                )

    def _read(self, game: Game, view: Mapping[str, Any], seat: int) -> KrytNavalivatState:
        """The template: every fixed part of the state; the other hands hold their known
        cards only and the stock is empty. Also the unseen cards and where they go."""
        n = game.num_players
        state = KrytNavalivatState.__new__(KrytNavalivatState)
        state.game = game
        state.players = n
        state.clockwise = CLOCKWISE[n]
        if game.options["trump_mode"] == "permanent":
            state.trump, state.anti = PERMANENT_TRUMP, PERMANENT_ANTI
        else:
            if view["trump"] not in ("C", "D", "H", "S"):
                raise InvalidPositionError(f"the view's trump {view['trump']!r} is no suit")
            state.trump, state.anti = "CDHS".index(view["trump"]), NO_SUIT
        state.beaters = beaters_for(state.trump, state.anti)
        state.dealer = _count(view["dealer"], "dealer")

        sizes = view["hand_sizes"]
        known_lists = view["known"]
        if not isinstance(sizes, list) or not isinstance(known_lists, list):
            raise InvalidPositionError("the view's hand_sizes and known are per seat")
        if len(sizes) != n or len(known_lists) != n:
            raise InvalidPositionError(f"the view's hand_sizes and known should have {n} seats")
        state.known = [_mask(_cards(k, "known cards"), "known cards") for k in known_lists]
        own = _mask(_cards(view["hand"], "hand"), "hand")
        state.pile = _cards(view["pile"], "pile")
        trump_card = view["trump_card"]
        faceup = _cards([trump_card], "trump card") if trump_card is not None else []
        state.faceup = faceup[0] if faceup else -1

        # Everything the seat sees lies in exactly one place.
        seen = own
        places = [("pile", _mask(state.pile, "pile")), ("trump card", _mask(faceup, "trump"))]
        places += [(f"seat {s}'s known cards", state.known[s]) for s in range(n) if s != seat]
        for what, mask in places:
            if seen & mask:
                raise InvalidPositionError(f"the view shows {what} in two places")
            seen |= mask
        if state.known[seat] & ~own:
            raise InvalidPositionError("the view's known cards of its seat are not in its hand")
        if _count(sizes[seat], "hand size") != own.bit_count():
            raise InvalidPositionError("the view's hand and its hand size differ")

        state.hands = [0] * n
        slots = []
        for s in range(n):
            if s == seat:
                state.hands[s] = own
                continue
            unknown = _count(sizes[s], "hand size") - state.known[s].bit_count()
            if unknown < 0:
                raise InvalidPositionError(f"seat {s} is known to hold more cards than it has")
            state.hands[s] = state.known[s]
            if unknown:
                slots.append((s, unknown))
        pool = [c for c in PACK_36 if not seen & BIT[c]]
        face_down = _count(view["stock"], "stock") - len(faceup)
        if face_down < 0 or sum(k for _, k in slots) + face_down != len(pool):
            raise InvalidPositionError("the view's cards and counts do not make up the pack")
        self._pool = pool
        self._slots = tuple(slots)
        self._bits = math.factorial(len(pool)).bit_length() + _SLACK_BITS

        if view["phase"] not in MODES:
            raise InvalidPositionError(f"the view's phase {view['phase']!r} is not a turn mode")
        state.mode = view["phase"]
        to_move = view["to_move"]
        state.to_move = None if to_move is None else _count(to_move, "to_move")
        loser = view["loser"]
        state.loser = None if loser is None else _count(loser, "loser")
        state.drawn = bool(view["draw"])
        state.stock = []
        state.seed = 0
        state.deck = None
        state.history = []
        state.start = None
        return state

    def _prepare_start(self) -> None:
        """Split the template's position text around the fields a sample changes (the hands,
        the stock and the seed), so that a sample's ``start`` is a few joins, not a full
        :func:`format_position`."""
        fields = format_position(self._template).split(" ")
        names = [f.partition("=")[0] for f in fields]
        hands, stock, seed = names.index("hands"), names.index("stock"), names.index("seed")
        if not hands < stock < seed == len(fields) - 1:
            raise AssertionError("the kryt/1 fields hands, stock, seed are out of order")
        self._head = " ".join(fields[:hands]) + " hands="
        self._middle = " " + " ".join(fields[hands + 1 : stock]) + " stock="
        self._tail = " " + " ".join(fields[stock + 1 : seed]) + " seed="

    def sample(self, rng: random.Random) -> KrytNavalivatState:
        state = self._template.copy()
        pool = self._pool[:]
        # Fisher-Yates with the indices taken from one big random number: a uniform
        # permutation for a fraction of random.shuffle's cost.
        r = rng.getrandbits(self._bits)
        for i in range(len(pool) - 1, 0, -1):
            r, j = divmod(r, i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        hands = state.hands
        at = 0
        for s, count in self._slots:
            hands[s] |= sum(map(_BIT, pool[at : at + count]))  # distinct bits: sum is OR
            at += count
        stock = state.stock = pool[at:]
        seed = state.seed = rng.getrandbits(63)
        state.start = "".join(
            (
                self._head,
                "/".join(map(_hand_text, hands)),
                self._middle,
                ",".join(map(_TEXT.__getitem__, reversed(stock))) or "-",
                self._tail,
                str(seed),
            )
        )
        return state
