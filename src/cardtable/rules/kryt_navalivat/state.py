"""Kryt'-navalivat': the state machine of SPEC §2 (KRYT-1 … KRYT-11, decisions K-1 … K-15).

One hand is one game (SPEC §0.1): it ends with a loser, the fool, or a draw. Hands are
bitmasks (``cardtable.rules.tricks``); the pile is a list, bottom first; the face-down
stock is a list whose *last* element is its top card, so that a draw is ``pop()``; the
turned trump card lies apart (``faceup``) because it is public and drawn last.

A turn is one action, except a beat, which is two: ``beat <card>`` and then, if the
player still holds a card, the same player's ``cover <card>`` (KRYT-4.6). Drawing,
going out and the end of the hand happen after the turn, in KRYT-10's order.

Action numbers (``docs/kryt-navalivat.md``), with a card's number ``suit * 9 + rank - 6``
(suits C D H S, so 0 = 6C, 8 = AC, 9 = 6D, 35 = AS)::

      0 …  35   lead <card>    on an empty pile, or the free card of KRYT-4.3
     36 …  71   beat <card>    beat the top card (KRYT-3)
     72 … 107   cover <card>   the card on top of one's own beat (KRYT-4.2a)
    108         take           pick up from the pile (KRYT-5)
    109         swap           the six of trumps for the turned card (KRYT-6)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, NamedTuple, Self

from cardtable.cards import Card, card_text
from cardtable.chance import shuffled
from cardtable.core import Action, Game, Record, Result, State, View
from cardtable.errors import InvalidRecordError
from cardtable.rules.kryt_navalivat.beating import (
    NO_SUIT,
    PACK_36,
    PERMANENT_ANTI,
    PERMANENT_TRUMP,
    SIX,
    beaters,
    take_count,
)
from cardtable.rules.tricks import BIT, CLOCKWISE, bits, cards_text

if TYPE_CHECKING:
    from cardtable.refusals import Refusal

LEAD, BEAT, COVER = 0, 36, 72
TAKE = 108
SWAP = 109
NUM_ACTIONS = 110
HAND_SIZE = 3  # KRYT-2.3, KRYT-4.4

# Turn modes (KRYT-4, KRYT-10); ``covering`` is the two-step engine's COVER row.
LEADING, RESPONDING, COVERING, FREE, OVER = "lead", "respond", "cover", "free", "over"
MODES = (LEADING, RESPONDING, COVERING, FREE, OVER)

NUMBER = [-1] * 52  # card index -> the card's number in the 36-card pack
for _number, _card in enumerate(PACK_36):
    NUMBER[_card] = _number

ACTIONS: tuple[Action, ...] = (
    *(Action("lead", Card.from_index(c)) for c in PACK_36),
    *(Action("beat", Card.from_index(c)) for c in PACK_36),
    *(Action("cover", Card.from_index(c)) for c in PACK_36),
    Action("take"),
    Action("swap"),
)

# _IDS[base][suit][m]: the action numbers base + suit * 9 + i for the set bits i of the
# 9-bit mask m of a suit's ranks 6 … A, so listing a hand's actions is four look-ups.
_IDS = {
    base: tuple(
        tuple(tuple(base + 9 * s + i for i in range(9) if m >> i & 1) for m in range(512))
        for s in range(4)
    )
    for base in (LEAD, BEAT, COVER)
}


def action_ids(mask: int, base: int) -> list[int]:
    """The numbers ``base + card number`` of the cards in ``mask``, ascending."""
    c, d, h, s = _IDS[base]
    return [*c[mask >> 4 & 511], *d[mask >> 17 & 511], *h[mask >> 30 & 511], *s[mask >> 43 & 511]]


def card_of(number: int) -> int:
    """The card index an action number names (lead, beat or cover)."""
    return PACK_36[number % 36]


_BEATERS: dict[tuple[int, int], tuple[int, ...]] = {}


def beaters_for(trump: int, anti: int) -> tuple[int, ...]:
    table = _BEATERS.get((trump, anti))
    if table is None:
        table = _BEATERS[trump, anti] = beaters(trump, anti)
    return table


class Facts(NamedTuple):
    """What one seat's view says, as numbers (:meth:`KrytNavalivatState.facts`): card sets are
    bitmasks of card indices, seats are absolute, ``-1`` stands for "none"."""

    seat: int
    hand: int
    known: tuple[int, ...]
    """Per seat, the cards everybody knows it holds."""
    pile: int
    pile_size: int
    top: int
    would_take: int
    beneath: int
    """The card under the ones a pick-up would take (-1 when it takes them all or none)."""
    trump_card: int
    trump: int
    anti_trump: int
    mode: int
    """An index into ``MODES``."""
    to_move: int
    dealer: int
    out: tuple[int, ...]
    loser: int
    draw: bool
    stock: int
    hand_sizes: tuple[int, ...]


class KrytNavalivatState(State):
    """A hand of Kryt'-navalivat' in progress. Build it with ``game.new_state()``."""

    # The state's fields. Plain attributes, not __slots__: the run-time engine's state class
    # (cardtable.engines) inherits this class's methods beside the core's native base, and a
    # class with its own slot layout cannot share a base with it.
    FIELDS: ClassVar[tuple[str, ...]] = (
        "anti",
        "beaters",
        "clockwise",
        "dealer",
        "deck",
        "drawn",
        "faceup",
        "game",
        "hands",
        "history",
        "known",
        "loser",
        "mode",
        "pile",
        "players",
        "seed",
        "start",
        "stock",
        "to_move",
        "trump",
    )

    game: Game
    players: int
    clockwise: tuple[tuple[int, ...], ...]
    trump: int  # the trump suit
    anti: int  # the anti-trump suit (spades in the permanent mode), else NO_SUIT
    beaters: tuple[int, ...]  # card -> mask of the cards that beat it
    dealer: int
    hands: list[int]
    known: list[int]  # per seat, the cards everybody knows it holds (K-10)
    pile: list[int]  # bottom first
    stock: list[int]  # face down, top card last
    faceup: int  # the turned trump card while it lies under the stock, else -1
    mode: str
    loser: int | None  # once over: the fool, or None for a draw
    drawn: bool
    seed: int
    deck: list[int] | None  # the deck dealt, for the record (None from a position)
    start: str | None

    @classmethod
    def begin(cls, game: Game, *, seed: int, dealer: int, deck: list[int] | None) -> Self:
        """KRYT-2: deal three cards each, one at a time clockwise from the dealer's left
        (K-15); turn the next card for trumps (K-3); the rest is the stock."""
        if deck is None:
            deck = shuffled(seed, "deck 0", list(PACK_36))
        n = game.num_players
        state = cls.__new__(cls)
        state.game = game
        state.players = n
        state.clockwise = CLOCKWISE[n]
        state.dealer = dealer
        state.hands = [0] * n
        for i in range(HAND_SIZE * n):
            state.hands[(dealer + 1 + i) % n] |= BIT[deck[i]]
        rest = deck[HAND_SIZE * n :]
        if game.options["trump_mode"] == "permanent":
            state.trump, state.anti, state.faceup = PERMANENT_TRUMP, PERMANENT_ANTI, -1
        else:
            state.faceup = rest.pop(0)
            state.trump, state.anti = state.faceup // 13, NO_SUIT
        state.stock = rest[::-1]
        state.beaters = beaters_for(state.trump, state.anti)
        state.known = [0] * n
        state.pile = []
        state.mode = LEADING
        state.to_move = (dealer + 1) % n
        state.loser = None
        state.drawn = False
        state.seed = seed
        state.deck = list(deck)
        state.history = []
        state.start = None
        return state

    def stack(self, decks: list[list[int]], reshuffles: list[list[int]]) -> None:
        if decks or reshuffles:
            raise InvalidRecordError(
                "a kryt-navalivat game is one hand, dealt once: a record that starts from a "
                "position has no decks or reshuffles"
            )

    def copy(self) -> Self:
        other = self.__class__.__new__(self.__class__)
        other.game = self.game
        other.players = self.players
        other.clockwise = self.clockwise
        other.trump = self.trump
        other.anti = self.anti
        other.beaters = self.beaters
        other.dealer = self.dealer
        other.hands = self.hands[:]
        other.known = self.known[:]
        other.pile = self.pile[:]
        other.stock = self.stock[:]
        other.faceup = self.faceup
        other.mode = self.mode
        other.to_move = self.to_move
        other.loser = self.loser
        other.drawn = self.drawn
        other.seed = self.seed
        other.deck = self.deck  # never changed once dealt
        other.history = self.history[:]
        other.start = self.start
        return other

    # Facts ----------------------------------------------------------------------------------

    @property
    def stock_count(self) -> int:
        """Cards in the stock, the turned trump card included (KRYT-2.5)."""
        return len(self.stock) + (self.faceup >= 0)

    @property
    def six_of_trumps(self) -> int:
        return 13 * self.trump + SIX

    def can_swap(self, seat: int) -> bool:
        """KRYT-6.2 and K-9: ``seat`` holds the six of trumps, the turned card is still under
        the stock and is not the six itself (never in the permanent mode: nothing is turned)."""
        six = 13 * self.trump + SIX
        return self.faceup >= 0 and self.faceup != six and bool(self.hands[seat] >> six & 1)

    def holders(self) -> list[int]:
        """The seats still holding cards, in seat order."""
        return [s for s in range(self.players) if self.hands[s]]

    def is_out(self, seat: int) -> bool:
        """KRYT-7.1: no cards once the stock is empty."""
        return not self.hands[seat] and not self.stock and self.faceup < 0

    def would_take(self) -> list[int]:
        """The cards a pick-up would take now, bottom first (KRYT-5): empty when nobody may
        pick up (on an empty pile, and between a beat and its cover)."""
        if not self.pile or self.mode not in (RESPONDING, FREE):
            return []
        return self.pile[-take_count(len(self.pile), self.pile[-1], self.trump) :]

    # The protocol -------------------------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        p = self.to_move
        if p is None:
            return []
        hand = self.hands[p]
        mode = self.mode
        if mode == RESPONDING:
            ids = action_ids(hand & self.beaters[self.pile[-1]], BEAT)
            ids.append(TAKE)
        elif mode == COVERING:
            return action_ids(hand, COVER)
        elif mode == LEADING:
            ids = action_ids(hand, LEAD)
        else:  # FREE: any card as a lead, a beat, or a pick-up (KRYT-4.3, K-6)
            ids = action_ids(hand, LEAD) + action_ids(hand & self.beaters[self.pile[-1]], BEAT)
            ids.append(TAKE)
            return ids
        if self.faceup >= 0 and self.can_swap(p):
            ids.append(SWAP)
        return ids

    def is_legal(self, number: int) -> bool:
        p = self.to_move
        if p is None or not 0 <= number < NUM_ACTIONS:
            return False
        mode = self.mode
        if number == TAKE:
            return mode in (RESPONDING, FREE)
        if number == SWAP:
            return mode in (LEADING, RESPONDING) and self.can_swap(p)
        card = PACK_36[number % 36]
        if not self.hands[p] >> card & 1:
            return False
        if number < BEAT:
            return mode in (LEADING, FREE)
        if number < COVER:
            return mode in (RESPONDING, FREE) and bool(self.beaters[self.pile[-1]] >> card & 1)
        return mode == COVERING

    def refusal(self, number: int) -> Refusal:
        return self.game.refusal_of(self, number)

    def apply_id(self, number: int) -> None:
        p = self.to_move
        assert p is not None
        self.history.append(number)
        if number < TAKE:
            card = PACK_36[number % 36]
            bit = BIT[card]
            self.hands[p] ^= bit
            self.known[p] &= ~bit
            self.pile.append(card)
            if number < BEAT or number >= COVER:
                self._end_turn(p, number < BEAT)
            elif self.hands[p]:
                self.mode = COVERING  # K-1: the cover comes before any draw
            else:
                self._end_turn(p, False, beat_last=True)
            return
        if number == TAKE:
            pile = self.pile
            k = take_count(len(pile), pile[-1], self.trump)
            taken = 0
            for card in pile[-k:]:
                taken |= BIT[card]
            del pile[-k:]
            self.hands[p] |= taken
            self.known[p] |= taken
            self._end_turn(p, False)
            return
        # SWAP (KRYT-6.1): the turned card comes into the hand, in public; the turn goes on.
        six = 13 * self.trump + SIX
        self.hands[p] ^= BIT[six] | BIT[self.faceup]
        self.known[p] = (self.known[p] & ~BIT[six]) | BIT[self.faceup]
        self.faceup = six

    def _end_turn(self, p: int, led: bool, *, beat_last: bool = False) -> None:
        """KRYT-10's end of turn: draw, go out, the end of the hand, the next turn.

        ``led`` says the turn put a card for the next player to beat (a lead, free or not);
        a cover does too, and is told apart from a pick-up by the pile having grown."""
        hand = self.hands[p]
        if hand.bit_count() < HAND_SIZE and (self.stock or self.faceup >= 0):
            stock = self.stock
            for _ in range(HAND_SIZE - hand.bit_count()):
                if stock:
                    hand |= BIT[stock.pop()]
                elif self.faceup >= 0:
                    # The turned card is drawn last, in everybody's sight (KRYT-2.5).
                    hand |= BIT[self.faceup]
                    self.known[p] |= BIT[self.faceup]
                    self.faceup = -1
                    break
                else:
                    break
            self.hands[p] = hand
        if not hand and not self.stock and self.faceup < 0:
            others = [s for s in self.clockwise[p][:-1] if self.hands[s]]
            if len(others) == 1:
                self._finish(others[0], put_to_beat=not beat_last)
                return
        for s in self.clockwise[p]:
            if self.hands[s]:
                self.to_move = s
                break
        if beat_last:
            self.mode = FREE  # KRYT-4.3: at least two others still hold cards
        elif led or self.mode == COVERING:
            self.mode = RESPONDING
        else:  # a pick-up
            self.mode = RESPONDING if self.pile else LEADING

    def _finish(self, last: int, *, put_to_beat: bool) -> None:
        """KRYT-7.2, KRYT-7.3 (K-7): ``last`` is the only player left holding cards. A draw
        when the player who went out put a card for ``last`` to beat, and ``last`` holds one
        card only, which beats it; otherwise ``last`` is the fool."""
        hand = self.hands[last]
        single = hand.bit_count() == 1
        self.drawn = put_to_beat and single and bool(self.beaters[self.pile[-1]] & hand)
        self.loser = None if self.drawn else last
        self.mode = OVER
        self.to_move = None

    # Results ------------------------------------------------------------------------------

    @property
    def result(self) -> Result | None:
        if self.mode != OVER:
            return None
        n = self.players
        if self.loser is None:
            return Result(
                winners=(),
                places=(tuple(range(n)),),
                returns=(0.0,) * n,
                summary="a draw: nobody is the fool",
            )
        loser = self.loser
        others = tuple(s for s in range(n) if s != loser)
        share = 1.0 / (n - 1)
        return Result(
            winners=others,
            places=(others, (loser,)),
            returns=tuple(-1.0 if s == loser else share for s in range(n)),
            summary=f"seat {loser} is the fool: the last one holding cards",
        )

    # Views ----------------------------------------------------------------------------------

    def view(self, seat: int | None) -> View:
        """KRYT-9: public facts (the whole pile, the turned card, the counts, the cards each
        seat is known to hold from pick-ups and the turned card) and ``seat``'s own hand."""
        pile = self.pile
        view: View = {
            "game": self.game.name,
            "options": self.game.rules,  # public: the rules being played
            "seat": seat,
            "players": self.players,
            "dealer": self.dealer,
            "trump_mode": self.game.options["trump_mode"],
            "trump": "CDHS"[self.trump],
            "anti_trump": None if self.anti == NO_SUIT else "CDHS"[self.anti],
            "trump_card": card_text(self.faceup) if self.faceup >= 0 else None,
            "stock": self.stock_count,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "known": [cards_text(k) for k in self.known],
            "out": [s for s in range(self.players) if self.is_out(s)],
            "pile": [card_text(c) for c in pile],
            "would_take": [card_text(c) for c in self.would_take()],
            "phase": self.mode,
            "to_move": self.to_move,
            "loser": self.loser,
            "draw": self.drawn,
        }
        if seat is not None:
            view["hand"] = cards_text(self.hands[seat])
            legal = self.legal_action_ids() if seat == self.to_move else []
            view["legal_actions"] = [str(ACTIONS[i]) for i in legal]
        return view

    def facts(self, seat: int) -> Facts:
        """``view(seat)`` as numbers, for the research interfaces' observation vectors; it
        holds the same facts as the view and nothing more (tests/rl/test_rl_observation.py)."""
        pile = self.pile
        taken = self.would_take()
        hands = self.hands
        stock = self.stock_count
        bit = BIT.__getitem__  # the cards are distinct, so their bits' sum is their union
        return Facts(
            seat,
            hands[seat],
            tuple(self.known),
            sum(map(bit, pile)),
            len(pile),
            pile[-1] if pile else -1,
            sum(map(bit, taken)),
            pile[-len(taken) - 1] if taken and len(pile) > len(taken) else -1,
            self.faceup,
            self.trump,
            -1 if self.anti == NO_SUIT else self.anti,
            MODES.index(self.mode),
            -1 if self.to_move is None else self.to_move,
            self.dealer,
            () if stock else tuple(s for s, hand in enumerate(hands) if not hand),  # KRYT-7.1
            -1 if self.loser is None else self.loser,
            self.drawn,
            stock,
            tuple(map(int.bit_count, hands)),
        )

    def record(self) -> Record:
        return Record(
            game=self.game.name,
            options=self.game.options | {"dealer": self.dealer},
            seed=self.seed,
            actions=[str(ACTIONS[i]) for i in self.history],
            decks=[[card_text(c) for c in d] for d in self.chances()[0]],
            reshuffles=[],
            start=self.start,
        )

    def chances(self) -> tuple[list[list[int]], list[list[int]]]:
        return ([] if self.deck is None else [[*self.deck]]), []

    def position(self) -> str:
        return self.game.position_of(self)

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        """Re-deal what ``seat`` cannot know: the face-down stock and every other seat's
        cards but those it is known to hold (K-10). Hand sizes and public cards stay."""
        other = self.copy()
        places = [s for s in range(self.players) if s != seat]
        unknown = [self.hands[s] & ~self.known[s] for s in places]
        pool = [c for mask in unknown for c in bits(mask)] + self.stock
        rng.shuffle(pool)
        at = 0
        for s, mask in zip(places, unknown, strict=True):
            size = mask.bit_count()
            dealt = 0
            for card in pool[at : at + size]:
                dealt |= BIT[card]
            at += size
            other.hands[s] = (self.hands[s] & self.known[s]) | dealt
        other.stock = pool[at:]
        other.deck = None
        other.start = other.position()
        other.history = []
        other.seed = rng.getrandbits(63)
        return other
