"""Neuf: the state machine of SPEC §1 (NEUF-1 … NEUF-11, decisions N-1 … N-9).

Three players each for themselves with a spare hand, or four in two partnerships
(NEUF-8.4). Hands are bitmasks (``cardtable.rules.tricks``); the deal and the scoring of a
finished deal run inside :meth:`NeufState.apply_id`, so a player only ever sees the
phases ``exchange``, ``play`` and ``over``.

Action numbers (``docs/neuf.md``)::

     0 … 51   play <card>   card index: suit * 13 + rank - 2, suits C D H S
    52        exchange      take the spare, put this hand down in its place (NEUF-3.2)
    53        keep          keep this hand
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, NamedTuple, Self

from cardtable.cards import Card, card_text
from cardtable.chance import shuffled
from cardtable.core import Action, Game, Record, Result, State, View
from cardtable.errors import InvalidRecordError
from cardtable.rules.neuf.ledger import NO_TRUMP, TRICKS, Ledger, quota, trump_of
from cardtable.rules.tricks import (
    BIT,
    CLOCKWISE,
    PACK,
    SLICES,
    SUIT_MASKS,
    bits,
    cards_text,
    follows,
    playable,
    played_by_seat,
    taken_between,
    trick_winner,
)

if TYPE_CHECKING:
    from cardtable.refusals import Refusal

EXCHANGE = 52
KEEP = 53
NUM_ACTIONS = 54
SPARE = 3  # the spare's index among the 3-player game's four piles

EXCHANGING, PLAY, OVER = "exchange", "play", "over"

ACTIONS: tuple[Action, ...] = (
    *(Action("play", Card.from_index(i)) for i in range(52)),
    Action("exchange"),
    Action("keep"),
)
_DECISIONS = [EXCHANGE, KEEP]


def trump_index(trump: str) -> int:
    """A trump letter as a suit index, ``-1`` for no trump."""
    return -1 if trump == NO_TRUMP else "CDHS".index(trump)


PHASES = (EXCHANGING, PLAY, OVER)
TRUMPS = ("C", "D", "H", "S", NO_TRUMP)


class Facts(NamedTuple):
    """What one seat's view says, as numbers (:meth:`NeufState.facts`): card sets are
    bitmasks of card indices, seats are absolute, ``-1`` stands for "none"."""

    seat: int
    hand: int
    held: tuple[int, ...]
    """The hands the seat has held this deal, in order (3 players; empty with 4)."""
    trick: tuple[tuple[int, int], ...]
    """The trick in progress: (seat, card index) in the order played."""
    played: tuple[int, ...]
    """Per seat, the cards it played in this deal's finished tricks."""
    trump: int
    """An index into ``TRUMPS``."""
    phase: int
    """An index into ``PHASES``."""
    exchanges: tuple[tuple[int, bool], ...]
    """(seat, whether it exchanged) in the order decided."""
    to_move: int
    dealer: int
    scores: tuple[int, ...]
    last_deal: tuple[int, ...]
    """Tricks per side in the ledger's last row (empty before the first)."""
    quota: int
    deal_number: int
    hand_sizes: tuple[int, ...]
    tricks_won: tuple[int, ...]


class NeufState(State):
    """A Neuf game in progress. Build it with ``game.new_state()``."""

    # The state's fields. Plain attributes, not __slots__: the run-time engine's state class
    # (cardtable.engines) inherits this class's methods beside the core's native base, and a
    # class with its own slot layout cannot share a base with it.
    FIELDS: ClassVar[tuple[str, ...]] = (
        "acted_exchange",
        "clockwise",
        "decks_drawn",
        "done",
        "game",
        "hands",
        "history",
        "led_suit",
        "ledger",
        "phase",
        "piles",
        "players",
        "previous",
        "seed",
        "spare",
        "stacked_decks",
        "start",
        "to_move",
        "trick",
        "tricks_won",
        "trump",
        "used_decks",
    )

    game: Game
    players: int
    clockwise: tuple[tuple[int, ...], ...]
    ledger: Ledger
    trump: int  # -1 in a no-trump deal
    phase: str
    piles: list[int]  # the piles as dealt: each seat's, then (3 players) the spare's
    acted_exchange: list[tuple[int, bool]]  # (seat, exchanged?) in the order decided
    hands: list[int]
    spare: int  # the current spare; 0 in the 4-player game
    trick: list[tuple[int, int]]
    led_suit: int
    done: list[list[tuple[int, int]]]  # this deal's finished tricks
    tricks_won: list[int]
    previous: tuple[int, list[list[tuple[int, int]]], int] | None  # last deal: trump, tricks, spare
    seed: int
    decks_drawn: int
    stacked_decks: list[list[int]]
    used_decks: list[list[int]]
    start: str | None

    @classmethod
    def begin(cls, game: Game, *, seed: int, dealer: int, decks: list[list[int]]) -> NeufState:
        state = cls.__new__(cls)
        state.game = game
        state.players = game.num_players
        state.clockwise = CLOCKWISE[state.players]
        state.ledger = Ledger(state.players, dealer, game.options["trump_sequence"])
        state.seed = seed
        state.decks_drawn = 0
        state.stacked_decks = [list(d) for d in decks]
        state.used_decks = []
        state.history = []
        state.start = None
        state.previous = None
        state._deal()
        return state

    def stack(self, decks: list[list[int]], reshuffles: list[list[int]]) -> None:
        if reshuffles:
            raise InvalidRecordError("neuf shuffles only whole decks: a record has no reshuffles")
        self.stacked_decks = [list(d) for d in decks]

    def copy(self) -> Self:
        other = self.__class__.__new__(self.__class__)
        other.game = self.game
        other.players = self.players
        other.clockwise = self.clockwise
        other.ledger = self.ledger.copy()
        other.trump = self.trump
        other.phase = self.phase
        other.piles = self.piles[:]
        other.acted_exchange = self.acted_exchange[:]
        other.hands = self.hands[:]
        other.spare = self.spare
        other.trick = self.trick[:]
        other.led_suit = self.led_suit
        other.done = self.done[:]  # finished tricks are never changed
        other.tricks_won = self.tricks_won[:]
        other.previous = self.previous
        other.to_move = self.to_move
        other.history = self.history[:]
        other.seed = self.seed
        other.decks_drawn = self.decks_drawn
        other.stacked_decks = self.stacked_decks[:]
        other.used_decks = self.used_decks[:]
        other.start = self.start
        return other

    # The automatic steps of NEUF-10 -------------------------------------------------------

    @property
    def deal_number(self) -> int:
        """This deal's number; once the ledger has a winner, the deal that ended the game."""
        rows = len(self.ledger.rows)
        return rows if self.ledger.is_over else rows + 1

    @property
    def dealer(self) -> int:
        return (self.ledger.first_dealer + self.deal_number - 1) % self.players

    @property
    def trump_name(self) -> str:
        """This deal's trump: a suit letter or ``NT`` (NEUF-2.1)."""
        return trump_of(self.ledger.trump_sequence, self.deal_number)

    @property
    def exchange_order(self) -> tuple[int, ...]:
        """NEUF-3.1 (left of the dealer first, the dealer last) or NEUF-8.2 (dealer first)."""
        if self.players == 4:
            return ()
        d = self.dealer
        if self.game.options["dealer_exchanges_first"]:
            return (d, (d + 1) % 3, (d + 2) % 3)
        return ((d + 1) % 3, (d + 2) % 3, d)

    def _deal(self) -> None:
        """NEUF-2.3: card i to R[i mod 4], R = [dealer+1, dealer+2, dealer, spare]; or,
        with four players, one card each clockwise from the dealer's left (NEUF-8.4)."""
        if self.stacked_decks:
            deck = self.stacked_decks.pop(0)
        elif self.shuffler is not None:
            deck = self.shuffler(f"hand {self.decks_drawn + 1}", list(PACK))
        else:
            deck = shuffled(self.seed, f"deck {self.decks_drawn}", PACK)
        self.decks_drawn += 1
        self.used_decks.append(deck)
        d = self.dealer
        if self.players == 3:
            receivers = [(d + 1) % 3, (d + 2) % 3, d, SPARE]
        else:
            receivers = [(d + 1 + i) % 4 for i in range(4)]
        piles = [0, 0, 0, 0]
        for i, receiver in enumerate(receivers):
            piles[receiver] = sum(map(BIT.__getitem__, deck[i::4]))
        self.piles = piles
        self.hands = piles[: self.players]
        self.spare = piles[SPARE] if self.players == 3 else 0
        self.acted_exchange = []
        self.trump = trump_index(self.ledger.trump)
        self.trick = []
        self.led_suit = -1
        self.done = []
        self.tricks_won = [0] * self.players
        if self.players == 3:
            self.phase = EXCHANGING
            self.to_move = self.exchange_order[0]
        else:
            self.phase = PLAY
            self.to_move = (d + 1) % 4

    def _finish_trick(self) -> None:
        winner = trick_winner(self.trick, self.trump)
        self.tricks_won[winner] += 1
        self.done.append(self.trick)
        self.trick = []
        self.led_suit = -1
        if self.game.options["tie_avoidance"] and self._crosses(winner):
            # NEUF-8.3 / N-7: the winner is out at once; the hand is abandoned unscored.
            self.phase = OVER
            self.to_move = None
            return
        if len(self.done) < TRICKS:
            self.to_move = winner
            return
        self.previous = (self.trump, self.done, self.spare)
        self.ledger.record(self.tricks_won)
        if self.ledger.is_over:
            self.phase = OVER
            self.to_move = None
            return
        self._deal()

    def _crosses(self, seat: int) -> bool:
        """NEUF-8.3: surplus tricks count the moment they are won; shortfalls wait."""
        surplus = max(0, self.tricks_won[seat] - quota(self.players))
        return self.ledger.scores[seat] - surplus <= 0

    # The protocol -------------------------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        p = self.to_move
        if p is None:
            return []
        if self.phase == EXCHANGING:
            return _DECISIONS[:]
        hand = self.hands[p]
        return playable(hand, self.led_suit)

    def is_legal(self, number: int) -> bool:
        p = self.to_move
        if p is None:
            return False
        if self.phase == EXCHANGING:
            return number in (EXCHANGE, KEEP)
        if not 0 <= number < EXCHANGE:
            return False
        hand = self.hands[p]
        if not hand >> number & 1:
            return False
        return follows(hand, self.led_suit, number)

    def refusal(self, number: int) -> Refusal:
        return self.game.refusal_of(self, number)

    def apply_id(self, number: int) -> None:
        p = self.to_move
        assert p is not None
        self.history.append(number)
        if number >= EXCHANGE:
            exchanged = number == EXCHANGE
            if exchanged:
                self.hands[p], self.spare = self.spare, self.hands[p]
            self.acted_exchange.append((p, exchanged))
            order = self.exchange_order
            if len(self.acted_exchange) < len(order):
                self.to_move = order[len(self.acted_exchange)]
            else:
                self.phase = PLAY
                self.to_move = (self.dealer + 1) % 3  # NEUF-4.1
            return
        self.hands[p] ^= 1 << number
        self.trick.append((p, number))
        if self.led_suit < 0:
            self.led_suit = number // 13
        if len(self.trick) < self.players:
            self.to_move = self.clockwise[p][0]
        else:
            self._finish_trick()

    def playout_python(self, rng: random.Random) -> None:
        """Uniformly random legal actions to the end, without listing them as numbers."""
        draw = rng.random
        while self.to_move is not None:
            if self.phase == EXCHANGING:
                self.apply_id(EXCHANGE if draw() < 0.5 else KEEP)
                continue
            hand = self.hands[self.to_move]
            led = self.led_suit
            follow = hand >> 13 * led & 0x1FFF if led >= 0 else 0
            cards = SLICES[led][follow] if follow else bits(hand)
            self.apply_id(cards[int(draw() * len(cards))])

    # Results ------------------------------------------------------------------------------

    @property
    def final_scores(self) -> tuple[int, ...]:
        """Each side's score: after the last completed deal, or, when the house rule ended
        the game mid-hand, the winner's running score with the others' left as they were."""
        scores = list(self.ledger.scores)
        if self.phase == OVER and not self.ledger.is_over:
            winner = trick_winner(self.done[-1], self.trump)
            surplus = max(0, self.tricks_won[winner] - quota(self.players))
            scores[winner] -= surplus
        return tuple(scores)

    @property
    def winners(self) -> tuple[int, ...]:
        """Winning seats once the game is over (a team's two seats in the 4-player game)."""
        if self.phase != OVER:
            return ()
        scores = self.final_scores
        best = min(scores)
        sides = [side for side, score in enumerate(scores) if score == best and score <= 0]
        if self.players == 3:
            return tuple(sides)
        return tuple(sorted(seat for side in sides for seat in (side, side + 2)))

    @property
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        n = self.players
        scores = self.final_scores
        winners = self.winners
        if n == 3:
            ranks = sorted(set(scores))
            places = tuple(tuple(s for s in range(3) if scores[s] == r) for r in ranks)
        else:
            losers = tuple(s for s in range(4) if s not in winners)
            places = (winners, losers)
        share = -len(winners) / (n - len(winners))
        returns = tuple(1.0 if s in winners else share for s in range(n))
        who = " and ".join(f"seat {s}" for s in winners)
        sides = "team " if n == 4 else ""
        deals = self.deal_number
        summary = (
            f"{who} {'win' if len(winners) > 1 else 'wins'} after deal {deals}"
            f"; {sides}scores {', '.join(map(str, scores))}"
        )
        return Result(winners=winners, places=places, returns=returns, summary=summary)

    # Views ----------------------------------------------------------------------------------

    def held_hands(self, seat: int) -> list[int]:
        """Every 13-card hand ``seat`` has held this deal, in order (NEUF-9)."""
        if self.players == 4:
            return [self.piles[seat]]
        hands = self.piles[:3]
        spare = self.piles[SPARE]
        held = [hands[seat]]
        for s, exchanged in self.acted_exchange:
            if exchanged:
                hands[s], spare = spare, hands[s]
                if s == seat:
                    held.append(hands[s])
        return held

    def trick_taken(self, before: State) -> int | None:
        # Read off the public views: the reference's way, which the core's counters match.
        return taken_between(before.view(None), self.view(None), "deal_number", "previous_deal")

    def view(self, seat: int | None) -> View:
        """NEUF-9: public facts, plus ``seat``'s own hand and the hands it has held."""
        view: View = {
            "game": self.game.name,
            "options": self.game.rules,  # public: the rules being played
            "seat": seat,
            "players": self.players,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "trump": self.trump_name,
            "trump_sequence": self.game.options["trump_sequence"],
            "phase": self.phase,
            "to_move": self.to_move,
            "exchange_order": list(self.exchange_order),
            "exchanges": [[s, "exchange" if e else "keep"] for s, e in self.acted_exchange],
            "quota": quota(self.players),
            "scores": list(self.final_scores if self.phase == OVER else self.ledger.scores),
            "ledger": [
                {
                    "deal": row.deal,
                    "trump": row.trump,
                    "dealer": row.dealer,
                    "tricks": list(row.tricks),
                    "scores": list(row.scores),
                    "total": row.total,
                }
                for row in self.ledger.rows
            ],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "tricks_won": self.tricks_won[:],
            "trick": [[s, card_text(c)] for s, c in self.trick],
            "tricks": [
                {"plays": [[s, card_text(c)] for s, c in t], "winner": trick_winner(t, self.trump)}
                for t in self.done
            ],
            "previous_deal": self._previous_view(),
            "winners": list(self.winners),
        }
        if seat is not None:
            view["hand"] = cards_text(self.hands[seat])
            if self.players == 3:
                view["held"] = [cards_text(h) for h in self.held_hands(seat)]
            legal = self.legal_action_ids() if seat == self.to_move else []
            view["legal_actions"] = [str(ACTIONS[i]) for i in legal]
        return view

    def facts(self, seat: int) -> Facts:
        """``view(seat)`` as numbers, for the research interfaces' observation vectors; it
        holds the same facts as the view and nothing more (tests/rl/test_rl_observation.py)."""
        rows = self.ledger.rows
        return Facts(
            seat,
            self.hands[seat],
            tuple(self.held_hands(seat)) if self.players == 3 else (),
            tuple(self.trick),
            played_by_seat(self.done, self.players),
            TRUMPS.index(self.trump_name),
            PHASES.index(self.phase),
            tuple(self.acted_exchange),
            -1 if self.to_move is None else self.to_move,
            self.dealer,
            tuple(self.final_scores if self.phase == OVER else self.ledger.scores),
            rows[-1].tricks if rows else (),
            quota(self.players),
            self.deal_number,
            tuple(map(int.bit_count, self.hands)),
            tuple(self.tricks_won),
        )

    def _previous_view(self) -> View | None:
        """The deal before, with its final spare shown now that it is over (N-5)."""
        if self.previous is None:
            return None
        trump, tricks, spare = self.previous
        return {
            "tricks": [
                {"plays": [[s, card_text(c)] for s, c in t], "winner": trick_winner(t, trump)}
                for t in tricks
            ],
            "spare": cards_text(spare) if self.players == 3 else None,
        }

    def record(self) -> Record:
        return Record(
            game=self.game.name,
            options=self.game.options | {"dealer": self.ledger.first_dealer},
            seed=self.seed,
            actions=[str(ACTIONS[i]) for i in self.history],
            decks=[[card_text(c) for c in d] for d in self.chances()[0]],
            reshuffles=[],
            start=self.start,
        )

    def chances(self) -> tuple[list[list[int]], list[list[int]]]:
        return [[*d] for d in self.used_decks + self.stacked_decks], []

    def position(self) -> str:
        return self.game.position_of(self)

    def voids(self) -> list[int]:
        """Per seat, a mask of the suits it has shown it lacks this deal (NEUF-4.2): those it
        did not follow when they were led."""
        shown = [0] * self.players
        for trick in [*self.done, self.trick]:
            if trick:
                led = trick[0][1] // 13
                for s, c in trick[1:]:
                    if c // 13 != led:
                        shown[s] |= SUIT_MASKS[led]
        return shown

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        """Re-deal what ``seat`` cannot know: other seats' current cards and the spare,
        less the cards of any hand ``seat`` has held (it knows where those went), giving no
        seat a card of a suit it has shown it lacks. If random dealing fails to meet those
        constraints a few times over, the cards stay where they are."""
        other = self.copy()
        known = 0
        if seat is not None:
            for held in self.held_hands(seat):
                known |= held
        places = [s for s in range(self.players) if s != seat]
        voids = self.voids()
        masks = [self.hands[s] for s in places] + [self.spare]
        barred = [voids[s] for s in places] + [0]
        pool = [c for m in masks for c in bits(m & ~known)]
        sizes = [(m & ~known).bit_count() for m in masks]
        for _ in range(20):
            dealt = _deal_with_voids(pool, sizes, barred, rng)
            if dealt is not None:
                masks = [(m & known) | d for m, d in zip(masks, dealt, strict=True)]
                break
        for s, mask in zip(places, masks, strict=False):
            other.hands[s] = mask
        other.spare = masks[-1]
        other.piles = _piles_consistent_with(other)
        other.stacked_decks = []
        other.seed = rng.getrandbits(63)
        return other


def _deal_with_voids(
    pool: list[int], sizes: list[int], barred: list[int], rng: random.Random
) -> list[int] | None:
    """``pool`` dealt at random into places of the given sizes, no place getting a card in
    its ``barred`` mask; the most constrained cards go first. ``None`` on a dead end."""
    cards = pool[:]
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(1 for b in barred if b >> c & 1), reverse=True)
    room = sizes[:]
    dealt = [0] * len(sizes)
    for card in cards:
        open_places = [i for i, r in enumerate(room) if r and not barred[i] >> card & 1]
        if not open_places:
            return None
        place = rng.choices(open_places, weights=[room[i] for i in open_places])[0]
        dealt[place] |= 1 << card
        room[place] -= 1
    return dealt


def _piles_consistent_with(state: NeufState) -> list[int]:
    """Dealt piles that, through the recorded exchanges, lead to the state's hands and spare
    (with the cards played this deal given back to the hands that played them)."""
    hands = state.hands[:]
    for trick in [*state.done, state.trick]:
        for s, c in trick:
            hands[s] |= 1 << c
    spare = state.spare
    for s, exchanged in reversed(state.acted_exchange):
        if exchanged:
            hands[s], spare = spare, hands[s]
    return [*hands, spare] if state.players == 3 else hands
