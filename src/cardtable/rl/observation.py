"""A seat's view as a fixed-size vector, and its legal actions as a mask.

The observation is built from ``state.view(seat)`` alone, never from the state, so it
holds nothing the seat may not know (DESIGN.md, "Views"): two states the seat cannot tell
apart encode identically. Seats are counted relative to the observer: index 0 of every
per-seat block is the observer, index 1 the seat on its left (the next to play), and so
on, so one policy serves every seat.

The vector is a concatenation of named blocks; :func:`layout` gives each block's slice
in this order. ``P`` is the size of the game's pack (52, or 36 for Kryt'-navalivat'),
cards are numbered within it in card-index order (``2C … AS``; ``6C … AS``), ``n`` is the
number of seats, and "per seat" blocks hold ``n`` rows, observer first. Every value lies in
``[0, 1]`` except Neuf's ``scores`` (score / 9, in ``[-1, 4]``): see :attr:`Layout.low`
and :attr:`Layout.high`.

Knockout Whist (KOW-9):

=============== ======= ============================================================
block           width   meaning
=============== ======= ============================================================
hand            P       the observer's cards
trick           n·P     per seat, the card it played to the trick in progress
trick_knocks    n       per seat, 1 if it knocked in the trick in progress
trick_leader    n       who led the trick in progress (one-hot; zeros when empty)
played          n·P     per seat, the cards it played in this hand's finished tricks
turned          P       hand 1's turned card
trump           4       trump suit C D H S (zeros while being chosen)
phase           3       ``trump``, ``play``, ``over``
to_move         n       the seat to act (zeros once over)
dealer          n       this hand's dealer
chooser         n       this hand's trump chooser (zeros in hand 1)
statuses        3·n     per seat, ``active``, ``dog``, ``out``
dog_used        1       whether the dog's life is spent
hand_number     1       hand number / 7
hand_sizes      n       cards held / 7
tricks_won      n       tricks won this hand / 7
=============== ======= ============================================================

Neuf (NEUF-9); a "side" is a player, or with 4 players a team (the observer's first):

=============== ======= ============================================================
block           width   meaning
=============== ======= ============================================================
hand            P       the observer's cards
held            2·P     the hands it has held this deal: dealt, then taken by
                        exchanging (3 players; zeros otherwise)
trick           n·P     per seat, the card it played to the trick in progress
trick_leader    n       who led the trick in progress
played          n·P     per seat, the cards it played in this deal's finished tricks
trump           5       trump C D H S NT
phase           3       ``exchange``, ``play``, ``over``
exchanges       2·n     per seat, 1 in column 0 if it exchanged, column 1 if it kept
to_move         n       the seat to act
dealer          n       this deal's dealer
scores          sides   score / 9 per side (the ledger's running totals)
last_deal       sides   tricks per side in the ledger's last row / 13
quota           1       the quota (4 or 6) / 13
deal_number     1       deal number / 25
hand_sizes      n       cards held / 13
tricks_won      n       tricks won this deal / 13
=============== ======= ============================================================

Kryt'-navalivat' (KRYT-9):

=============== ======= ============================================================
block           width   meaning
=============== ======= ============================================================
hand            P       the observer's cards
known           n·P     per seat, the cards everybody knows it holds
pile            P       every card in the pile
pile_top        P       the top card of the pile
would_take      P       the cards a pick-up would take now
pile_beneath    P       the card just beneath those (what the next player would face)
trump_card      P       the turned card while it lies under the stock
trump           4       trump suit C D H S
anti_trump      4       anti-trump suit (spades with permanent trumps, else zeros)
mode            5       ``lead``, ``respond``, ``cover``, ``free``, ``over``
to_move         n       the seat to act
dealer          n       the dealer
out             n       the seats that have gone out
loser           n       the fool, once the hand is over
draw            1       1 once the hand is over drawn
stock           1       cards in the stock / 36
pile_size       1       cards in the pile / 36
hand_sizes      n       cards held / 36
=============== ======= ============================================================

The layout depends on the game and its number of players only; its other options change
values, never the shape.

>>> import cardtable
>>> from cardtable.rl.observation import action_mask, encode, layout
>>> game = cardtable.make("knockout-whist", players=3, dealer=0)
>>> state = game.new_state(seed=7)
>>> view = state.view(state.to_move)
>>> layout(game).size, encode(game, view).shape, int(encode(game, view)[:52].sum())
(455, (455,), 7)
>>> int(action_mask(game, view).sum()) == len(state.legal_actions())
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.cards import Card
from cardtable.core import Game, State, View
from cardtable.engines import CoreBacked
from cardtable.errors import InvalidActionError
from cardtable.rules.catalog import DESCRIPTORS
from cardtable.rules.knockout_whist.state import Facts as KnockoutWhistFacts
from cardtable.rules.kryt_navalivat.state import NUMBER as NUMBER_36
from cardtable.rules.kryt_navalivat.state import Facts as KrytNavalivatFacts
from cardtable.rules.neuf.state import Facts as NeufFacts

__all__ = ["Layout", "action_mask", "action_number", "encode", "encode_facts", "layout"]

Vector = npt.NDArray[np.float32]
Plays = tuple[tuple[int, int], ...]
# A game's layout, its encoder of views and its encoder of facts.
_Builders = tuple[Callable[[int, int], "Layout"], Callable[[View], Vector], Callable[[Any], Vector]]
Mask = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Layout:
    """Where each named block lies in the observation vector, in the documented order."""

    size: int
    fields: dict[str, slice] = field(default_factory=dict)
    low: float = 0.0
    """The least value any entry takes."""
    high: float = 1.0
    """The greatest value any entry takes."""
    divisors: dict[str, int] = field(default_factory=dict)
    """The blocks that hold a count over a divisor (``hand_sizes``: cards held / 7), by
    name; every other entry is 0 or 1."""

    def describe(self) -> list[tuple[str, int, int]]:
        """``(name, start, width)`` per block, in order: the table docs/research.md shows."""
        return [(name, s.start, s.stop - s.start) for name, s in self.fields.items()]

    def column_divisors(self) -> npt.NDArray[np.float32]:
        """Each entry's divisor (1 where it is 0 or 1): an observation times these is a
        vector of small whole numbers, the int8 form of the batch environments
        (``cardtable.rl.vector``), and those numbers over these are the observation again."""
        out = np.ones(self.size, dtype=np.float32)
        for name, divisor in self.divisors.items():
            out[self.fields[name]] = divisor
        return out


def _build(
    blocks: list[tuple[str, int] | tuple[str, int, int]], low: float = 0.0, high: float = 1.0
) -> Layout:
    """A layout of ``(name, width)`` blocks in order; ``(name, width, divisor)`` for a block
    of counts over ``divisor``."""
    fields: dict[str, slice] = {}
    divisors: dict[str, int] = {}
    start = 0
    for name, width, *divisor in blocks:
        fields[name] = slice(start, start + width)
        if divisor:
            divisors[name] = divisor[0]
        start += width
    return Layout(start, fields, low, high, divisors)


SUITS = "CDHS"
NEUF_TRUMPS = ("C", "D", "H", "S", "NT")
KOW_PHASES = ("trump", "play", "over")
KOW_STATUSES = ("active", "dog", "out")
NEUF_PHASES = ("exchange", "play", "over")
KRYT_NAVALIVAT_MODES = ("lead", "respond", "cover", "free", "over")


def _pack_36(mask: int) -> int:
    """A bitmask of card indices as one of places in Kryt'-navalivat's 36-card pack: each
    suit's ranks 6 … A (bits 4-12 of its 13) become 9 bits."""
    return (
        mask >> 4 & 511
        | (mask >> 17 & 511) << 9
        | (mask >> 30 & 511) << 18
        | (mask >> 43 & 511) << 27
    )


def _layout_knockout_whist(n: int, pack: int) -> Layout:
    return _build(
        [
            ("hand", pack),
            ("trick", n * pack),
            ("trick_knocks", n),
            ("trick_leader", n),
            ("played", n * pack),
            ("turned", pack),
            ("trump", 4),
            ("phase", len(KOW_PHASES)),
            ("to_move", n),
            ("dealer", n),
            ("chooser", n),
            ("statuses", len(KOW_STATUSES) * n),
            ("dog_used", 1),
            ("hand_number", 1, 7),
            ("hand_sizes", n, 7),
            ("tricks_won", n, 7),
        ]
    )


def _neuf_sides(n: int) -> int:
    return 2 if n == 4 else n


def _layout_neuf(n: int, pack: int) -> Layout:
    sides = _neuf_sides(n)
    return _build(
        [
            ("hand", pack),
            ("held", 2 * pack),
            ("trick", n * pack),
            ("trick_leader", n),
            ("played", n * pack),
            ("trump", len(NEUF_TRUMPS)),
            ("phase", len(NEUF_PHASES)),
            ("exchanges", 2 * n),
            ("to_move", n),
            ("dealer", n),
            ("scores", sides, 9),
            ("last_deal", sides, 13),
            ("quota", 1, 13),
            ("deal_number", 1, 25),
            ("hand_sizes", n, 13),
            ("tricks_won", n, 13),
        ],
        # Scores fall from 9 and may end below 0; no score can pass 36 (the total of the
        # three falls by 1 a deal from 27, and one deal adds at most 6).
        low=-1.0,
        high=4.0,
    )


def _layout_kryt_navalivat(n: int, pack: int) -> Layout:
    return _build(
        [
            ("hand", pack),
            ("known", n * pack),
            ("pile", pack),
            ("pile_top", pack),
            ("would_take", pack),
            ("pile_beneath", pack),
            ("trump_card", pack),
            ("trump", 4),
            ("anti_trump", 4),
            ("mode", len(KRYT_NAVALIVAT_MODES)),
            ("to_move", n),
            ("dealer", n),
            ("out", n),
            ("loser", n),
            ("draw", 1),
            ("stock", 1, 36),
            ("pile_size", 1, 36),
            ("hand_sizes", n, 36),
        ]
    )


class _Encoder:
    """One game's layout with the lookup tables that encoding reads on every step."""

    def __init__(self, game: Game) -> None:
        self.name = game.name
        self.players = game.num_players
        pack = game.pack
        self.card = {str(Card.from_index(index)): at for at, index in enumerate(pack)}
        self.pack_size = len(pack)
        self.actions = {str(action): number for number, action in enumerate(game.actions)}
        self.num_actions = len(game.actions)
        # Each layout by the name of its game's rules package (the descriptor's ``package``).
        builders: dict[str, _Builders] = {  # layouts' names, not games'
            "knockout_whist": (
                _layout_knockout_whist,
                self._knockout_whist,
                self._knockout_whist_facts,
            ),
            "neuf": (_layout_neuf, self._neuf, self._neuf_facts),
            "kryt_navalivat": (
                _layout_kryt_navalivat,
                self._kryt_navalivat,
                self._kryt_navalivat_facts,
            ),
        }
        known = DESCRIPTORS.get(game.name)
        if known is None or known.package not in builders:
            raise ValueError(f"no observation layout for the game {game.name!r}")
        make_layout, self.fill, self.of_facts = builders[known.package]
        self.layout = make_layout(self.players, self.pack_size)
        self.at = at = {name: s.start for name, s in self.layout.fields.items()}
        self.nbytes = (self.layout.size + 7) // 8
        # rel[block][observer][seat]: the entry of ``seat`` in a block of one entry a seat.
        n = self.players
        self.rel = {
            name: [[at[name] + (seat - me) % n for seat in range(n)] for me in range(n)]
            for name, s in self.layout.fields.items()
            if s.stop - s.start == n
        }

    # Shared pieces ----------------------------------------------------------------------

    def _observer(self, view: View) -> int:
        seat = view.get("seat")
        if view.get("game") != self.name or view.get("players") != self.players:
            raise ValueError(
                f"a view of {view.get('game')!r} with {view.get('players')!r} players is not "
                f"a view of {self.name} with {self.players} players"
            )
        if not isinstance(seat, int):
            raise ValueError("an observation is a seat's view: this is a spectator's view")
        return seat

    def _cards(self, out: Vector, start: int, cards: list[str]) -> None:
        card = self.card
        for text in cards:
            out[start + card[text]] = 1.0

    def _seat(self, out: Vector, block: str, seat: int | None, observer: int) -> None:
        """One-hot of ``seat`` counted from the observer; nothing for ``None``."""
        if seat is not None:
            out[self.at[block] + (seat - observer) % self.players] = 1.0

    def _per_seat(
        self, out: Vector, block: str, values: list[int], observer: int, scale: float
    ) -> None:
        """``values`` per seat, divided by ``scale``, rotated so that the observer is first."""
        start, n = self.at[block], self.players
        for seat, value in enumerate(values):
            out[start + (seat - observer) % n] = value / scale

    def _tricks(self, out: Vector, view: View, observer: int) -> None:
        """The trick in progress per seat, its leader, and the finished tricks' cards."""
        n, pack, card = self.players, self.pack_size, self.card
        trick_at, played_at = self.at["trick"], self.at["played"]
        knocks_at = self.at.get("trick_knocks")
        trick = view["trick"]
        if trick:
            self._seat(out, "trick_leader", trick[0][0], observer)
        for seat, text in trick:
            rel = (seat - observer) % n
            if text == "knock":
                if knocks_at is not None:
                    out[knocks_at + rel] = 1.0
            else:
                out[trick_at + rel * pack + card[text]] = 1.0
        for done in view["tricks"]:
            for seat, text in done["plays"]:
                if text != "knock":
                    out[played_at + ((seat - observer) % n) * pack + card[text]] = 1.0

    # Games ------------------------------------------------------------------------------

    def _knockout_whist(self, view: View) -> Vector:
        me = self._observer(view)
        out = np.zeros(self.layout.size, dtype=np.float32)
        at = self.at
        self._cards(out, at["hand"], view["hand"])
        self._tricks(out, view, me)
        if view["turned"] is not None:
            out[at["turned"] + self.card[view["turned"]]] = 1.0
        if view["trump"] is not None:
            out[at["trump"] + SUITS.index(view["trump"])] = 1.0
        out[at["phase"] + KOW_PHASES.index(view["phase"])] = 1.0
        self._seat(out, "to_move", view["to_move"], me)
        self._seat(out, "dealer", view["dealer"], me)
        self._seat(out, "chooser", view["chooser"], me)
        n = self.players
        for seat, status in enumerate(view["statuses"]):
            rel = (seat - me) % n
            out[at["statuses"] + rel * len(KOW_STATUSES) + KOW_STATUSES.index(status)] = 1.0
        out[at["dog_used"]] = float(view["dog_used"])
        out[at["hand_number"]] = view["hand_number"] / 7
        self._per_seat(out, "hand_sizes", view["hand_sizes"], me, 7)
        self._per_seat(out, "tricks_won", view["tricks_won"], me, 7)
        return out

    def _neuf(self, view: View) -> Vector:
        me = self._observer(view)
        out = np.zeros(self.layout.size, dtype=np.float32)
        at, n, pack = self.at, self.players, self.pack_size
        self._cards(out, at["hand"], view["hand"])
        for number, held in enumerate(view.get("held", [])[:2]):
            self._cards(out, at["held"] + number * pack, held)
        self._tricks(out, view, me)
        out[at["trump"] + NEUF_TRUMPS.index(view["trump"])] = 1.0
        out[at["phase"] + NEUF_PHASES.index(view["phase"])] = 1.0
        for seat, decision in view["exchanges"]:
            column = 0 if decision == "exchange" else 1
            out[at["exchanges"] + ((seat - me) % n) * 2 + column] = 1.0
        self._seat(out, "to_move", view["to_move"], me)
        self._seat(out, "dealer", view["dealer"], me)
        # Sides: the players counted from the observer, or its team (seat % 2) first.
        sides = _neuf_sides(n)
        first = me % 2 if n == 4 else me
        for side, score in enumerate(view["scores"]):
            out[at["scores"] + (side - first) % sides] = score / 9
        if view["ledger"]:
            for side, tricks in enumerate(view["ledger"][-1]["tricks"]):
                out[at["last_deal"] + (side - first) % sides] = tricks / 13
        out[at["quota"]] = view["quota"] / 13
        out[at["deal_number"]] = view["deal_number"] / 25
        self._per_seat(out, "hand_sizes", view["hand_sizes"], me, 13)
        self._per_seat(out, "tricks_won", view["tricks_won"], me, 13)
        return out

    def _kryt_navalivat(self, view: View) -> Vector:
        me = self._observer(view)
        out = np.zeros(self.layout.size, dtype=np.float32)
        at, n, pack, card = self.at, self.players, self.pack_size, self.card
        self._cards(out, at["hand"], view["hand"])
        for seat, known in enumerate(view["known"]):
            self._cards(out, at["known"] + ((seat - me) % n) * pack, known)
        pile = view["pile"]
        self._cards(out, at["pile"], pile)
        if pile:
            out[at["pile_top"] + card[pile[-1]]] = 1.0
        taken = view["would_take"]
        self._cards(out, at["would_take"], taken)
        if taken and len(pile) > len(taken):
            out[at["pile_beneath"] + card[pile[-len(taken) - 1]]] = 1.0
        if view["trump_card"] is not None:
            out[at["trump_card"] + card[view["trump_card"]]] = 1.0
        out[at["trump"] + SUITS.index(view["trump"])] = 1.0
        if view["anti_trump"] is not None:
            out[at["anti_trump"] + SUITS.index(view["anti_trump"])] = 1.0
        out[at["mode"] + KRYT_NAVALIVAT_MODES.index(view["phase"])] = 1.0
        self._seat(out, "to_move", view["to_move"], me)
        self._seat(out, "dealer", view["dealer"], me)
        for seat in view["out"]:
            self._seat(out, "out", seat, me)
        self._seat(out, "loser", view["loser"], me)
        out[at["draw"]] = float(view["draw"])
        out[at["stock"]] = view["stock"] / 36
        out[at["pile_size"]] = len(pile) / 36
        self._per_seat(out, "hand_sizes", view["hand_sizes"], me, 36)
        return out

    # From a state's facts ---------------------------------------------------------------
    #
    # The environments encode ``state.facts(seat)``, the view's facts as numbers, which the
    # rules layer gives without formatting a card: one-hot entries become the bits of one
    # integer, unpacked by NumPy at once. They give the same vector as the view (tested).

    def _unpack(self, ones: int) -> Vector:
        """The vector whose entry ``i`` is 1 where bit ``i`` of ``ones`` is set."""
        packed = np.frombuffer(ones.to_bytes(self.nbytes, "little"), dtype=np.uint8)
        bits = np.unpackbits(packed, count=self.layout.size, bitorder="little")
        return bits.astype(np.float32)

    def _tricks_facts(self, ones: int, trick: Plays, played: tuple[int, ...], me: int) -> int:
        """``ones`` with the trick in progress, its leader and the finished tricks' cards."""
        n, at, rel = self.players, self.at, self.rel
        if trick:
            ones |= 1 << rel["trick_leader"][me][trick[0][0]]
            trick_at, knocks = at["trick"], rel.get("trick_knocks")
            for seat, card in trick:
                if card >= 0:
                    ones |= 1 << trick_at + ((seat - me) % n) * 52 + card
                elif knocks is not None:
                    ones |= 1 << knocks[me][seat]
        played_at = at["played"]
        for seat, cards in enumerate(played):
            ones |= cards << played_at + ((seat - me) % n) * 52
        return ones

    def _counts(
        self, out: Vector, me: int, sizes: tuple[int, ...], won: tuple[int, ...], scale: float
    ) -> None:
        """The per-seat ``hand_sizes`` and ``tricks_won`` blocks (the second follows the
        first), each count over ``scale``."""
        n = self.players
        for entry, size, tricks in zip(self.rel["hand_sizes"][me], sizes, won, strict=True):
            out[entry] = size / scale
            out[entry + n] = tricks / scale

    def _knockout_whist_facts(self, facts: KnockoutWhistFacts) -> Vector:
        me, n, at, rel = facts.seat, self.players, self.at, self.rel
        ones = self._tricks_facts(facts.hand << at["hand"], facts.trick, facts.played, me)
        if facts.turned >= 0:
            ones |= 1 << at["turned"] + facts.turned
        if facts.trump >= 0:
            ones |= 1 << at["trump"] + facts.trump
        ones |= 1 << at["phase"] + facts.phase | 1 << rel["dealer"][me][facts.dealer]
        if facts.to_move >= 0:
            ones |= 1 << rel["to_move"][me][facts.to_move]
        if facts.chooser >= 0:
            ones |= 1 << rel["chooser"][me][facts.chooser]
        statuses = at["statuses"]
        for seat, status in enumerate(facts.statuses):
            ones |= 1 << statuses + ((seat - me) % n) * len(KOW_STATUSES) + status
        if facts.dog_used:
            ones |= 1 << at["dog_used"]
        out = self._unpack(ones)
        out[at["hand_number"]] = facts.hand_number / 7
        self._counts(out, me, facts.hand_sizes, facts.tricks_won, 7)
        return out

    def _neuf_facts(self, facts: NeufFacts) -> Vector:
        me, n, at, rel = facts.seat, self.players, self.at, self.rel
        ones = self._tricks_facts(facts.hand << at["hand"], facts.trick, facts.played, me)
        held_at = at["held"]
        for number, held in enumerate(facts.held[:2]):
            ones |= held << held_at + number * 52
        ones |= 1 << at["trump"] + facts.trump | 1 << at["phase"] + facts.phase
        exchanges = at["exchanges"]
        for seat, exchanged in facts.exchanges:
            ones |= 1 << exchanges + ((seat - me) % n) * 2 + (not exchanged)
        if facts.to_move >= 0:
            ones |= 1 << rel["to_move"][me][facts.to_move]
        ones |= 1 << rel["dealer"][me][facts.dealer]
        out = self._unpack(ones)
        sides = _neuf_sides(n)
        first = me % 2 if n == 4 else me
        scores, last_deal = at["scores"], at["last_deal"]
        for side, score in enumerate(facts.scores):
            out[scores + (side - first) % sides] = score / 9
        for side, tricks in enumerate(facts.last_deal):
            out[last_deal + (side - first) % sides] = tricks / 13
        out[at["quota"]] = facts.quota / 13
        out[at["deal_number"]] = facts.deal_number / 25
        self._counts(out, me, facts.hand_sizes, facts.tricks_won, 13)
        return out

    def _kryt_navalivat_facts(self, facts: KrytNavalivatFacts) -> Vector:
        # One unpacking, not nineteen attribute look-ups: this runs at every agent step.
        (me, hand, known_rows, pile, pile_size, top, take, beneath, turned, trump, anti, mode,
         to_move, dealer, out_seats, loser, draw, stock, hand_sizes) = facts  # fmt: skip
        n, at, rel, number = self.players, self.at, self.rel, NUMBER_36
        ones = _pack_36(hand) << at["hand"]
        known_at = at["known"]
        for seat, known in enumerate(known_rows):
            if known:
                ones |= _pack_36(known) << known_at + ((seat - me) % n) * 36
        if pile_size:
            ones |= _pack_36(pile) << at["pile"] | 1 << at["pile_top"] + number[top]
            if take:
                ones |= _pack_36(take) << at["would_take"]
                if beneath >= 0:
                    ones |= 1 << at["pile_beneath"] + number[beneath]
        if turned >= 0:
            ones |= 1 << at["trump_card"] + number[turned]
        ones |= 1 << at["trump"] + trump | 1 << at["mode"] + mode
        if anti >= 0:
            ones |= 1 << at["anti_trump"] + anti
        if to_move >= 0:
            ones |= 1 << rel["to_move"][me][to_move]
        ones |= 1 << rel["dealer"][me][dealer]
        for seat in out_seats:
            ones |= 1 << rel["out"][me][seat]
        if loser >= 0:
            ones |= 1 << rel["loser"][me][loser]
        if draw:
            ones |= 1 << at["draw"]
        out = self._unpack(ones)
        out[at["stock"]] = stock / 36
        out[at["pile_size"]] = pile_size / 36
        for entry, size in zip(rel["hand_sizes"][me], hand_sizes, strict=True):
            out[entry] = size / 36
        return out

    def of_state(self, state: State, seat: int) -> Vector:
        """``seat``'s observation of ``state``: written by the compiled core where the
        state lives there (the same bytes as the encoder's, tests/core/test_core_observation.py),
        so that observing reads nothing of the Python rules; else encoded from its facts."""
        if isinstance(state, CoreBacked):
            return state.observation(seat)
        return self.of_facts(state.facts(seat))

    def mask(self, view: View) -> Mask:
        self._observer(view)
        return self.mask_of(list(map(self.actions.__getitem__, view["legal_actions"])))

    def mask_of(self, numbers: list[int]) -> Mask:
        """The mask of these action numbers (a state's ``legal_action_ids()``)."""
        # Byte writes to a bytearray cost a fraction of NumPy's item writes.
        mask = bytearray(self.num_actions)
        for number in numbers:
            mask[number] = 1
        return np.frombuffer(mask, dtype=np.int8)


_ENCODERS: dict[tuple[str, int], _Encoder] = {}


def encoder(game: Game) -> _Encoder:
    """The encoder of ``game``'s layout, made once per game and player count; the
    environments keep theirs rather than look it up at every step."""
    key = (game.name, game.num_players)
    encoder = _ENCODERS.get(key)
    if encoder is None:
        encoder = _ENCODERS[key] = _Encoder(game)
    return encoder


def layout(game: Game) -> Layout:
    """The observation layout of ``game`` (it depends on the game and its player count)."""
    return encoder(game).layout


def encode(game: Game, view: View) -> Vector:
    """The observation vector (float32, ``layout(game).size`` long) of a seat's view.

    :class:`ValueError` for a spectator's view or a view of another game or player count."""
    return encoder(game).fill(view)


def encode_facts(game: Game, facts: tuple[Any, ...]) -> Vector:
    """The observation vector of ``state.facts(seat)``: the very vector :func:`encode`
    gives for ``state.view(seat)``, made without formatting and parsing card text (what
    the environments use)."""
    return encoder(game).of_facts(facts)


def action_mask(game: Game, view: View) -> Mask:
    """1 for each action number legal in ``view`` (int8, ``game.num_distinct_actions`` long):
    all zeros unless the view's seat is to move."""
    return encoder(game).mask(view)


def action_number(game: Game, action: Any) -> int:
    """The action number an agent gave (an int or a NumPy integer), checked to be one of
    ``game``'s; :class:`InvalidActionError` for anything else. Whether it is legal now is
    the caller's question."""
    if type(action) is int and 0 <= action < game.num_distinct_actions:
        return action  # the common case, without the checks below
    if action is None or isinstance(action, bool | np.bool_):
        raise InvalidActionError(
            f"{action!r} is not an action: give an action number 0-{game.num_distinct_actions - 1}"
        )
    try:
        number = operator.index(action)
    except TypeError:
        raise InvalidActionError(
            f"{action!r} is not an action number (0-{game.num_distinct_actions - 1})"
        ) from None
    game.action_from_int(number)  # InvalidActionError outside the range
    return number
