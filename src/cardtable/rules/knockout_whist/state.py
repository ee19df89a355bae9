"""Knockout Whist: the state machine of SPEC §3 (KOW-1 … KOW-11, decisions W-1 … W-11).

Cards are indices ``0 … 51`` (``cardtable.cards``) and hands are bitmasks, so a
playout touches only ints and small lists. Automatic steps of KOW-10 (deal, turn
the trump, cut, end of hand) run inside :meth:`KnockoutWhistState.apply_id`; the
only phases a player ever sees are ``trump`` (the chooser names trumps), ``play``
and ``over``.

Action numbers (``docs/knockout-whist.md``)::

     0 … 51   play <card>     card index: suit * 13 + rank - 2, suits C D H S
    52 … 55   trump <suit>    C, D, H, S
    56        knock           a dog keeps its card for a later trick (KOW-6.3)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, NamedTuple, Self

from cardtable.cards import Card, Suit, card_text
from cardtable.chance import shuffled
from cardtable.core import Action, Game, Record, Result, State, View
from cardtable.errors import InvalidRecordError
from cardtable.rules.tricks import (
    BIT,
    CLOCKWISE,
    PACK,
    SLICES,
    bits,
    follows,
    playable,
    played_by_seat,
    taken_between,
    trick_winner,
)

if TYPE_CHECKING:
    from cardtable.refusals import Refusal

TRUMP_BASE = 52
KNOCK = 56
NUM_ACTIONS = 57
HANDS = 7  # hands 1 … 7 of 7 … 1 cards (KOW-2.2)

ACTIVE, DOG, OUT = 0, 1, 2
STATUS_NAMES = ("active", "dog", "out")

TRUMP, PLAY, OVER = "trump", "play", "over"

KNOCKED = -1  # stands for a knock in a trick's list of plays

ACTIONS: tuple[Action, ...] = (
    *(Action("play", Card.from_index(i)) for i in range(52)),
    *(Action("trump", s) for s in Suit),
    Action("knock"),
)
_TRUMP_IDS = [TRUMP_BASE, TRUMP_BASE + 1, TRUMP_BASE + 2, TRUMP_BASE + 3]


PHASES = (TRUMP, PLAY, OVER)


class Facts(NamedTuple):
    """What one seat's view says, as numbers (:meth:`KnockoutWhistState.facts`): card sets
    are bitmasks of card indices, seats are absolute, ``-1`` stands for "none"."""

    seat: int
    hand: int
    trick: tuple[tuple[int, int], ...]
    """The trick in progress: (seat, card index, or ``KNOCKED``) in the order played."""
    played: tuple[int, ...]
    """Per seat, the cards it played in this hand's finished tricks."""
    turned: int
    trump: int
    phase: int
    """An index into ``PHASES``."""
    to_move: int
    dealer: int
    chooser: int
    statuses: tuple[int, ...]
    """Per seat, an index into ``STATUS_NAMES``."""
    dog_used: bool
    hand_number: int
    hand_sizes: tuple[int, ...]
    tricks_won: tuple[int, ...]


class KnockoutWhistState(State):
    """A Knockout Whist game in progress. Build it with ``game.new_state()``."""

    # The state's fields. Plain attributes, not __slots__: the run-time engine's state class
    # (cardtable.engines) inherits this class's methods beside the core's native base, and a
    # class with its own slot layout cannot share a base with it.
    FIELDS: ClassVar[tuple[str, ...]] = (
        "acted",
        "chooser",
        "clockwise",
        "cuts",
        "dealer",
        "dealt_in",
        "decks_drawn",
        "dog_used",
        "done",
        "eliminated",
        "first_dealer",
        "game",
        "hand_no",
        "hands",
        "history",
        "led_suit",
        "phase",
        "players",
        "previous",
        "reshuffles_drawn",
        "seed",
        "stacked_decks",
        "stacked_reshuffles",
        "start",
        "status",
        "stock",
        "to_move",
        "trick",
        "tricks_won",
        "trump",
        "turned",
        "used_decks",
        "used_reshuffles",
    )  # fmt: skip

    game: Game
    players: int
    hand_no: int
    dealer: int
    status: list[int]
    dog_used: bool
    hands: list[int]
    dealt_in: list[bool]  # seats dealt cards this hand (KOW-5.4 counts them)
    stock: list[int]  # the undealt remainder, top first, without the turned or cut cards
    turned: int | None
    cuts: list[list[tuple[int, int]]]  # rounds of (seat, card), public (KOW-5.3)
    trump: int | None
    chooser: int | None
    phase: str
    tricks_won: list[int]
    trick: list[tuple[int, int]]  # (seat, card or KNOCKED) in the order they acted
    led_suit: int  # -1 until someone leads
    acted: int  # bitmask of seats that have played or knocked in this trick
    to_move: int | None
    done: list[list[tuple[int, int]]]  # this hand's finished tricks
    eliminated: list[tuple[int, int]]  # (seat, hand) in the order players went out
    seed: int
    decks_drawn: int
    reshuffles_drawn: int
    stacked_decks: list[list[int]]
    stacked_reshuffles: list[list[int]]
    used_decks: list[list[int]]
    used_reshuffles: list[list[int]]
    history: list[int]
    start: str | None
    first_dealer: int | None  # None for a game begun from a position
    clockwise: tuple[tuple[int, ...], ...]  # CLOCKWISE[players]
    previous: tuple[int, list[list[tuple[int, int]]]] | None  # last hand's trump and tricks

    # Construction -------------------------------------------------------------------------

    @classmethod
    def begin(
        cls,
        game: Game,
        *,
        seed: int,
        dealer: int,
        decks: list[list[int]],
        reshuffles: list[list[int]] | None = None,
    ) -> KnockoutWhistState:
        """A new game: hand 1 dealt, its trump turned (KOW-3.1)."""
        state = cls.__new__(cls)
        n = game.num_players
        state.game = game
        state.players = n
        state.clockwise = CLOCKWISE[n]
        state.hand_no = 1
        state.dealer = dealer
        state.status = [ACTIVE] * n
        state.dog_used = False
        state.eliminated = []
        state.seed = seed
        state.decks_drawn = 0
        state.reshuffles_drawn = 0
        state.stacked_decks = [list(d) for d in decks]
        state.stacked_reshuffles = [list(r) for r in reshuffles or []]
        state.used_decks = []
        state.used_reshuffles = []
        state.history = []
        state.start = None
        state.previous = None
        state.first_dealer = dealer
        state._deal(tied=None)
        return state

    def stack(self, decks: list[list[int]], reshuffles: list[list[int]]) -> None:
        self.stacked_decks = [list(d) for d in decks]
        self.stacked_reshuffles = [list(r) for r in reshuffles]

    def copy(self) -> Self:
        other = self.__class__.__new__(self.__class__)
        other.game = self.game
        other.players = self.players
        other.clockwise = self.clockwise
        other.hand_no = self.hand_no
        other.dealer = self.dealer
        other.status = self.status[:]
        other.dog_used = self.dog_used
        other.hands = self.hands[:]
        other.dealt_in = self.dealt_in[:]
        other.stock = self.stock[:]
        other.turned = self.turned
        other.cuts = self.cuts[:]  # rounds are never changed once made
        other.trump = self.trump
        other.chooser = self.chooser
        other.phase = self.phase
        other.tricks_won = self.tricks_won[:]
        other.trick = self.trick[:]
        other.led_suit = self.led_suit
        other.acted = self.acted
        other.to_move = self.to_move
        other.done = self.done[:]  # finished tricks are never changed
        other.previous = self.previous
        other.eliminated = self.eliminated[:]
        other.seed = self.seed
        other.decks_drawn = self.decks_drawn
        other.reshuffles_drawn = self.reshuffles_drawn
        other.stacked_decks = self.stacked_decks[:]
        other.stacked_reshuffles = self.stacked_reshuffles[:]
        other.used_decks = self.used_decks[:]
        other.used_reshuffles = self.used_reshuffles[:]
        other.history = self.history[:]
        other.start = self.start
        other.first_dealer = self.first_dealer
        return other

    # Chance -------------------------------------------------------------------------------

    def _next_deck(self, settle: int) -> list[int]:
        """The next hand's deck: stacked, else shuffled from the seed. Only the first
        ``settle`` cards need to be random (the rest of a hand's remainder is never seen
        or used), which saves most of the shuffling in the small hands."""
        if self.stacked_decks:
            deck = self.stacked_decks.pop(0)
        elif self.shuffler is not None:
            deck = self.shuffler(f"hand {self.decks_drawn + 1}", list(PACK))
        else:
            deck = shuffled(self.seed, f"deck {self.decks_drawn}", PACK, settle)
        self.decks_drawn += 1
        self.used_decks.append(deck)
        return deck

    def _reshuffle(self, cards: list[int]) -> list[int]:
        if self.stacked_reshuffles:
            order = self.stacked_reshuffles.pop(0)
            if sorted(order) != sorted(cards):
                raise InvalidRecordError(
                    "recorded reshuffle "
                    f"{' '.join(card_text(c) for c in order)} is not the set-aside cut cards "
                    f"{' '.join(card_text(c) for c in cards)}"
                )
        elif self.shuffler is not None:
            order = self.shuffler(f"reshuffle {self.reshuffles_drawn}", cards)
        else:
            order = shuffled(self.seed, f"cut {self.reshuffles_drawn}", cards)
        self.reshuffles_drawn += 1
        self.used_reshuffles.append(order)
        return order

    # The automatic steps of KOW-10 --------------------------------------------------------

    def _deal(self, tied: list[int] | None) -> None:
        """Deal hand ``hand_no`` (KOW-2.3), then turn the trump or settle the chooser."""
        n = self.players
        size = HANDS + 1 - self.hand_no
        status = self.status
        order = [s for s in self.clockwise[self.dealer] if status[s] != OUT]
        dogs = status.count(DOG)
        dealt = dogs + (len(order) - dogs) * size
        # Random cards needed: the hand, then hand 1's turned card; a cut may draw deep
        # into the remainder, so a tie takes a fully shuffled deck.
        deck = self._next_deck(dealt + 1 if tied is None or len(tied) == 1 else 52)
        hands = [0] * n
        if dogs:
            # Dogs take a card in the first round only (KOW-2.3).
            pos = 0
            for round_no in range(size):
                for s in order:
                    if round_no == 0 or status[s] != DOG:
                        hands[s] |= 1 << deck[pos]
                        pos += 1
        else:
            # Everyone gets `size` cards one at a time: seat i of the order takes every m-th card.
            m = len(order)
            pos = size * m
            for i, s in enumerate(order):
                hands[s] = sum(map(BIT.__getitem__, deck[i:pos:m]))
        self.hands = hands
        self.dealt_in = [status[s] != OUT for s in range(n)]
        self.stock = deck[pos:]
        self.cuts = []
        self.tricks_won = [0] * n
        self.done = []
        self.turned = None
        self.trump = None
        self.chooser = None
        if self.hand_no == 1:
            self.turned = self.stock.pop(0)
            self.trump = self.turned // 13
            self.phase = PLAY
            self._open_trick(self._first_leader())
            return
        if tied is None:
            raise AssertionError("hands 2-7 need the previous hand's leaders")  # pragma: no cover
        self.chooser = tied[0] if len(tied) == 1 else self._cut(tied)
        self.phase = TRUMP
        self.trick = []
        self.led_suit = -1
        self.acted = 0
        self.to_move = self.chooser

    def _cut(self, tied: list[int]) -> int:
        """KOW-5.3 / W-2: cut from the remainder, clockwise from the dealer's left,
        ranks only, re-cutting ties; the set-aside cut cards are shuffled in beneath
        the remainder if it would run out."""
        n = self.players
        cutters = sorted(tied, key=lambda s: (s - self.dealer - 1) % n)
        aside: list[int] = []
        while True:
            if len(self.stock) < len(cutters):
                self.stock.extend(self._reshuffle(aside))
                aside = []
            round_ = [(s, self.stock.pop(0)) for s in cutters]
            self.cuts.append(round_)
            aside.extend(card for _, card in round_)
            best = max(card % 13 for _, card in round_)
            cutters = [s for s, card in round_ if card % 13 == best]
            if len(cutters) == 1:
                return cutters[0]

    def _first_leader(self) -> int:
        """KOW-4.1: the first seat clockwise from the dealer still in the game."""
        status = self.status
        for s in self.clockwise[self.dealer]:
            if status[s] != OUT:
                return s
        raise AssertionError("no player left to lead")  # pragma: no cover

    def _next_to_act(self, after: int) -> int | None:
        """The next seat clockwise after ``after`` holding cards and yet to act in this trick."""
        hands = self.hands
        acted = self.acted
        for s in self.clockwise[after]:
            if hands[s] and not acted >> s & 1:
                return s
        return None

    def _open_trick(self, candidate: int) -> None:
        self.trick = []
        self.led_suit = -1
        self.acted = 0
        self.to_move = candidate

    def _finish_trick(self) -> None:
        assert self.trump is not None
        winner = trick_winner(self.trick, self.trump)
        self.tricks_won[winner] += 1
        self.done.append(self.trick)
        self.trick = []
        self.led_suit = -1
        self.acted = 0
        if len(self.done) == HANDS + 1 - self.hand_no:
            self._finish_hand(winner)
            return
        # KOW-4.4 / KOW-6.5: a winner with no cards passes the lead on.
        if self.hands[winner]:
            self._open_trick(winner)
        else:
            nxt = self._next_to_act(winner)
            assert nxt is not None
            self._open_trick(nxt)

    def _finish_hand(self, last_winner: int) -> None:
        """KOW-5: knock-outs and the dog's life, the winner, the chooser, the next dealer."""
        n = self.players
        k = self.hand_no
        status = self.status
        if k == HANDS:
            # W-7: hand 7's single trick decides the game; a dog who takes it is back in
            # (KOW-5.1.1), so the winner always ends ACTIVE (KOW-11.6).
            for s in range(n):
                if s != last_winner and status[s] != OUT:
                    status[s] = OUT
                    self.eliminated.append((s, k))
            status[last_winner] = ACTIVE
            self._game_over()
            return
        won = self.tricks_won
        blanked = [s for s in range(n) if self.dealt_in[s] and won[s] == 0]
        for s in range(n):
            if status[s] == DOG and won[s] > 0:
                status[s] = ACTIVE
        if blanked:
            if not self.dog_used:
                for s in blanked:
                    status[s] = DOG
                self.dog_used = True
            else:
                for s in blanked:
                    status[s] = OUT
                    self.eliminated.append((s, k))
        if sum(1 for s in status if s != OUT) == 1:
            self._game_over()
            return
        most = max(won)
        tied = [s for s in range(n) if won[s] == most]
        # KOW-5.4 / W-5: the next seat clockwise that was dealt cards in this hand.
        self.dealer = next(
            (self.dealer + i) % n for i in range(1, n + 1) if self.dealt_in[(self.dealer + i) % n]
        )
        self.hand_no = k + 1
        # The finished hand stays on view until the next one ends: its last trick and its
        # totals are what players look at while the new hand is dealt.
        assert self.trump is not None
        self.previous = (self.trump, self.done)
        self._deal(tied)

    def _game_over(self) -> None:
        self.phase = OVER
        self.to_move = None

    # The protocol -------------------------------------------------------------------------

    @property
    def last_trick(self) -> bool:
        return len(self.done) == HANDS - self.hand_no

    def legal_action_ids(self) -> list[int]:
        p = self.to_move
        if p is None:
            return []
        if self.phase == TRUMP:
            return _TRUMP_IDS[:]
        hand = self.hands[p]
        if self.status[p] == DOG:
            # KOW-6.3: play the one card or knock, but never knock on the last trick (W-3).
            return [hand.bit_length() - 1] if self.last_trick else [hand.bit_length() - 1, KNOCK]
        return playable(hand, self.led_suit)

    def playout_python(self, rng: random.Random) -> None:
        """Random legal actions to the end of the game, drawn as :meth:`State.playout`
        draws them (uniform over the legal actions) but without building action lists."""
        draw = rng.random
        slices = SLICES
        status = self.status
        while True:
            p = self.to_move
            if p is None:
                return
            if self.phase == TRUMP:
                self.apply_id(TRUMP_BASE + int(draw() * 4))
                continue
            hand = self.hands[p]
            if status[p] == DOG:
                # The card or a knock, each half the time; the last trick forces the card.
                last = len(self.done) == HANDS - self.hand_no
                self.apply_id(hand.bit_length() - 1 if last or draw() < 0.5 else KNOCK)
                continue
            led = self.led_suit
            follow = hand >> 13 * led & 0x1FFF if led >= 0 else 0
            cards = slices[led][follow] if follow else bits(hand)
            self.apply_id(cards[int(draw() * len(cards))])

    def is_legal(self, number: int) -> bool:
        p = self.to_move
        if p is None:
            return False
        if self.phase == TRUMP:
            return TRUMP_BASE <= number < KNOCK
        if number == KNOCK:
            return self.status[p] == DOG and not self.last_trick
        if not 0 <= number < TRUMP_BASE:
            return False
        hand = self.hands[p]
        if not hand >> number & 1:
            return False
        # A dog's single card always satisfies follow-suit (KOW-6.3).
        return follows(hand, self.led_suit, number)

    def refusal(self, number: int) -> Refusal:
        return self.game.refusal_of(self, number)

    def apply_id(self, number: int) -> None:
        p = self.to_move
        assert p is not None
        self.history.append(number)
        hands = self.hands
        if number < TRUMP_BASE:
            hands[p] ^= 1 << number
            self.trick.append((p, number))
            if self.led_suit < 0:
                self.led_suit = number // 13
        elif number == KNOCK:
            self.trick.append((p, KNOCKED))
        else:
            self.trump = number - TRUMP_BASE
            self.phase = PLAY
            self._open_trick(self._first_leader())
            return
        acted = self.acted | 1 << p
        self.acted = acted
        # _next_to_act, inlined: this is the playout hot path.
        for s in self.clockwise[p]:
            if hands[s] and not acted >> s & 1:
                self.to_move = s
                return
        self._finish_trick()

    @property
    def winner(self) -> int | None:
        if self.phase != OVER:
            return None
        return next(s for s in range(self.players) if self.status[s] != OUT)

    @property
    def result(self) -> Result | None:
        winner = self.winner
        if winner is None:
            return None
        n = self.players
        groups: dict[int, list[int]] = {}
        for seat, hand in self.eliminated:
            groups.setdefault(hand, []).append(seat)
        places = ((winner,), *(tuple(groups[h]) for h in sorted(groups, reverse=True)))
        loss = -1.0 / (n - 1)
        returns = tuple(1.0 if s == winner else loss for s in range(n))
        knocked = "; ".join(
            f"hand {h}: " + ", ".join(f"seat {s}" for s in groups[h]) for h in sorted(groups)
        )
        summary = f"seat {winner} wins after hand {self.hand_no}; knocked out: {knocked}"
        return Result(winners=(winner,), places=places, returns=returns, summary=summary)

    def elimination_order(self) -> list[tuple[int, list[int]]]:
        """``[(hand, [seats]), …]`` in the order players went out (KOW-7)."""
        groups: dict[int, list[int]] = {}
        for seat, hand in self.eliminated:
            groups.setdefault(hand, []).append(seat)
        return sorted(groups.items())

    def trick_taken(self, before: State) -> int | None:
        # Read off the public views: the reference's way, which the core's counters match.
        return taken_between(before.view(None), self.view(None), "hand_number", "previous_hand")

    def view(self, seat: int | None) -> View:
        """KOW-9: public facts for everyone, plus ``seat``'s own hand."""
        n = self.players
        trump = -1 if self.trump is None else self.trump
        view: View = {
            "game": self.game.name,
            "options": self.game.rules,  # public: the rules being played
            "seat": seat,
            "players": n,
            "hand_number": self.hand_no,
            "hand_size": HANDS + 1 - self.hand_no,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_move": self.to_move,
            "statuses": [STATUS_NAMES[s] for s in self.status],
            "dog_used": self.dog_used,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "tricks_won": self.tricks_won[:],
            "trump": None if self.trump is None else "CDHS"[self.trump],
            "turned": None if self.turned is None else card_text(self.turned),
            "cuts": [[[s, card_text(c)] for s, c in round_] for round_ in self.cuts],
            "chooser": self.chooser,
            "trick": _plays_view(self.trick),
            "tricks": [
                {"plays": _plays_view(t), "winner": trick_winner(t, trump)} for t in self.done
            ],
            "previous_hand": self._previous_view(),
            "eliminated": [[s, h] for s, h in self.eliminated],
            "winner": self.winner,
        }
        if seat is not None:
            view["hand"] = [card_text(c) for c in bits(self.hands[seat])]
            if seat == self.to_move:
                view["legal_actions"] = [str(self.game.actions[i]) for i in self.legal_action_ids()]
            else:
                view["legal_actions"] = []
        return view

    def facts(self, seat: int) -> Facts:
        """``view(seat)`` as numbers, for the research interfaces' observation vectors; it
        holds the same facts as the view and nothing more (tests/rl/test_rl_observation.py)."""
        return Facts(
            seat,
            self.hands[seat],
            tuple(self.trick),
            played_by_seat(self.done, self.players),
            -1 if self.turned is None else self.turned,
            -1 if self.trump is None else self.trump,
            PHASES.index(self.phase),
            -1 if self.to_move is None else self.to_move,
            self.dealer,
            -1 if self.chooser is None else self.chooser,
            tuple(self.status),
            self.dog_used,
            self.hand_no,
            tuple(map(int.bit_count, self.hands)),
            tuple(self.tricks_won),
        )

    def _previous_view(self) -> View | None:
        if self.previous is None:
            return None
        trump, tricks = self.previous
        winners = [trick_winner(t, trump) for t in tricks]
        return {
            "hand_number": self.hand_no - 1,
            "trump": "CDHS"[trump],
            "tricks": [
                {"plays": _plays_view(t), "winner": w} for t, w in zip(tricks, winners, strict=True)
            ],
            "tricks_won": [winners.count(s) for s in range(self.players)],
        }

    def record(self) -> Record:
        decks, reshuffles = self.chances()
        return Record(
            game=self.game.name,
            options=self.game.options | {"dealer": self.first_dealer},
            seed=self.seed,
            actions=[str(self.game.actions[i]) for i in self.history],
            decks=[[card_text(c) for c in d] for d in decks],
            reshuffles=[[card_text(c) for c in r] for r in reshuffles],
            start=self.start,
        )

    def chances(self) -> tuple[list[list[int]], list[list[int]]]:
        return (
            [[*d] for d in self.used_decks + self.stacked_decks],
            [[*r] for r in self.used_reshuffles + self.stacked_reshuffles],
        )

    def position(self) -> str:
        return self.game.position_of(self)

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        other = self.copy()
        hidden_seats = [s for s in range(self.players) if s != seat]
        pool = [c for s in hidden_seats for c in bits(self.hands[s])] + self.stock
        rng.shuffle(pool)
        pos = 0
        for s in hidden_seats:
            size = self.hands[s].bit_count()
            mask = 0
            for c in pool[pos : pos + size]:
                mask |= 1 << c
            other.hands[s] = mask
            pos += size
        other.stock = pool[pos:]
        # The future is hidden too: a re-dealt state must not replay our stacked decks.
        other.stacked_decks = []
        other.seed = rng.getrandbits(63)
        return other


def _plays_view(plays: list[tuple[int, int]]) -> list[list[int | str]]:
    return [[s, "knock" if c == KNOCKED else card_text(c)] for s, c in plays]
