"""What one seat knows of a Knockout Whist game, as a sampler of full states (KOW-9).

:class:`KnockoutWhistKnowledge` reads a seat's view once and keeps a template of
everything public: statuses, trumps, the turned card (hand 1), the cut cards (W-2),
every card played and every knock, this hand's tricks and the previous hand's, hand
sizes, and the seat's own hand. :meth:`~KnockoutWhistKnowledge.sample` then deals only
what the seat cannot see: the other hands and the undealt remainder (the stock).

Play reveals voids and nothing more: an ``ACTIVE`` player who did not follow the led
suit in the current hand holds none of it (KOW-4.2). A dog's knock reveals nothing
(KOW-6.3 lets a dog knock while holding the led suit), and a dog's card, once played,
was its only one. Voids of earlier hands say nothing, because every hand is a fresh
deal (KOW-5.5).

The stock's order never matters once a hand is dealt: the cut of W-2 happens right
after the deal, and the next hand is dealt from a new deck. So the sampler picks which
unseen cards the other hands hold and lists the rest as the stock in index order.

Seats with voids are dealt first, the one with the least slack first, each taking a
uniformly random set of the cards it may still hold; the other seats then draw from
what is left, and the stock takes the rest. With no void, or one seat with voids, every
deal consistent with the view is equally likely; with several such seats the deal is
close to that, not exactly.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from cardtable.cards import Card
from cardtable.core import Game, View
from cardtable.errors import InvalidCardError, InvalidPositionError
from cardtable.rules.knockout_whist.state import (
    ACTIVE,
    DOG,
    HANDS,
    KNOCKED,
    OUT,
    OVER,
    PLAY,
    STATUS_NAMES,
    TRUMP,
    KnockoutWhistState,
)
from cardtable.rules.tricks import BIT, CLOCKWISE, SUIT_MASKS, bits

__all__ = ["KnockoutWhistKnowledge"]

Plays = list[tuple[int, int]]

# A sample whose void-respecting deal reaches a dead end starts again; the view is
# checked to be dealable (Hall's condition) up front, so this only bounds bad luck.
_ATTEMPTS = 10_000


class KnockoutWhistKnowledge:
    """A seat's knowledge of a Knockout Whist game, built from its view alone.

    ``sample(rng)`` returns a state whose ``view(seat)`` equals the view it was built
    from, with the unseen cards dealt at random, a fresh seed for the hands to come, no
    stacked decks and an empty history. Its ``start`` is ``None``: writing the position
    would cost twice the sample itself, and search never records a sampled game; set
    ``state.start = state.position()`` for a record that replays.
    """

    __slots__ = (
        "_acted",
        "_chooser",
        "_cuts",
        "_dealer",
        "_dealt_in",
        "_dog_used",
        "_done",
        "_eliminated",
        "_free",
        "_game",
        "_hand_no",
        "_hands",
        "_led_suit",
        "_phase",
        "_pool",
        "_pool_mask",
        "_previous",
        "_public_stock",
        "_reshuffles",
        "_status",
        "_to_move",
        "_trick",
        "_tricks_won",
        "_trump",
        "_turned",
        "_voided",
        "seat",
    )

    seat: int

    def __init__(self, game: Game, view: View) -> None:
        try:
            self._read(game, view)
        except InvalidPositionError:
            raise
        except InvalidCardError as exc:
            raise InvalidPositionError(f"a knockout-whist view with a bad card: {exc}") from exc
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidPositionError(f"not a knockout-whist seat's view: {exc!r}") from exc

    # Reading the view ---------------------------------------------------------------------

    def _read(self, game: Game, view: View) -> None:
        n = game.num_players
        seat = view.get("seat")
        if view.get("game") != game.name or view.get("players") != n:
            raise InvalidPositionError(f"not a view of {game.name} for {n} players")
        if view["options"] != game.rules:
            raise InvalidPositionError(f"a view of {view['options']}, not of {game.rules}")
        if type(seat) is not int or not 0 <= seat < n or "hand" not in view:
            raise InvalidPositionError("a determinizer needs a seat's view, not a spectator's")
        self.seat = seat
        self._game = game
        status = [STATUS_NAMES.index(s) for s in view["statuses"]]
        sizes = [int(x) for x in view["hand_sizes"]]
        if len(status) != n or len(sizes) != n or view["phase"] not in (TRUMP, PLAY, OVER):
            raise InvalidPositionError("statuses, hand sizes or phase do not fit the game")
        hand_no = int(view["hand_number"])
        if not 1 <= hand_no <= HANDS:
            raise InvalidPositionError(f"there is no hand {hand_no} (KOW-2.2)")
        self._hand_no = hand_no
        self._dealer = _seat(view["dealer"], n)
        self._phase = view["phase"]
        self._to_move = None if view["to_move"] is None else _seat(view["to_move"], n)
        self._chooser = None if view["chooser"] is None else _seat(view["chooser"], n)
        self._dog_used = bool(view["dog_used"])
        self._trump = None if view["trump"] is None else "CDHS".index(view["trump"])
        self._status = status
        self._eliminated = [(int(s), int(h)) for s, h in view["eliminated"]]
        self._dealt_in = [status[s] != OUT or (s, hand_no) in self._eliminated for s in range(n)]
        self._tricks_won = [int(w) for w in view["tricks_won"]]
        self._cuts = [[(int(s), _card(c)) for s, c in round_] for round_ in view["cuts"]]
        self._done = [_plays(t["plays"]) for t in view["tricks"]]
        self._trick = _plays(view["trick"])
        self._led_suit = next((c // 13 for _, c in self._trick if c != KNOCKED), -1)
        self._acted = sum(1 << s for s, _ in self._trick)
        previous = view["previous_hand"]
        self._previous = (
            None
            if previous is None
            else ("CDHS".index(previous["trump"]), [_plays(t["plays"]) for t in previous["tricks"]])
        )
        own = _mask(view["hand"])
        if own.bit_count() != len(view["hand"]) or own.bit_count() != sizes[seat]:
            raise InvalidPositionError(f"seat {seat}'s hand does not match its hand size")
        self._hands = [0] * n
        self._hands[seat] = own

        played = 0
        count = 0
        per_seat = [0] * n
        for t in [*self._done, self._trick]:
            for s, c in t:
                if c != KNOCKED:
                    played |= BIT[c]
                    count += 1
                    per_seat[s] += 1
        turned = None if view["turned"] is None else _card(view["turned"])
        self._turned = turned
        seen = own | played | (BIT[turned] if turned is not None else 0)
        cut_cards = 0
        for round_ in self._cuts:
            for _, c in round_:
                cut_cards |= BIT[c]
        if seen.bit_count() != own.bit_count() + count + (turned is not None) or seen & cut_cards:
            raise InvalidPositionError("a card is shown in two places")
        if self._phase != OVER:
            # KOW-2.2: what a seat holds and has played this hand is its share of the deal.
            share = {ACTIVE: HANDS + 1 - hand_no, DOG: 1, OUT: 0}
            for s in range(n):
                if sizes[s] + per_seat[s] != share[status[s]]:
                    raise InvalidPositionError(f"seat {s}'s hand size does not fit KOW-2.2")
        self._read_cuts(sizes, count, turned is not None, cut_cards)
        unseen = ((1 << 52) - 1) & ~seen & ~cut_cards
        self._pool = bits(unseen)
        self._pool_mask = unseen
        self._read_voids(n, sizes)
        if sum(sizes) - sizes[seat] > len(self._pool):
            raise InvalidPositionError("the view's card counts do not add up to the pack")

    def _read_cuts(self, sizes: list[int], played: int, turned: bool, cut_cards: int) -> None:
        """Follow the cut of W-2 to learn which cut cards went back into the stock: when the
        remainder ran out, the cards set aside so far were shuffled in as the new remainder,
        and those not cut again stay there, known to everyone."""
        remainder = 52 - sum(sizes) - played - turned
        aside: list[int] = []
        reshuffles = 0
        for round_ in self._cuts:
            if remainder < len(round_):
                remainder += len(aside)
                aside = []
                reshuffles += 1
            remainder -= len(round_)
            aside.extend(c for _, c in round_)
        if remainder < 0 or len(set(aside)) != len(aside):
            raise InvalidPositionError("the cut cards do not fit the remainder (W-2)")
        for c in aside:
            cut_cards &= ~BIT[c]
        self._public_stock = bits(cut_cards)
        self._reshuffles = reshuffles

    def _read_voids(self, n: int, sizes: list[int]) -> None:
        """KOW-4.2: a seat that played another suit to a trick of this hand is void in the
        suit led. Seats with voids are dealt first, the most constrained first."""
        barred = [0] * n
        for t in [*self._done, self._trick]:
            led = next((c // 13 for _, c in t if c != KNOCKED), -1)
            for s, c in t:
                if c != KNOCKED and c // 13 != led:
                    barred[s] |= SUIT_MASKS[led]
        voided: list[tuple[int, int, list[int]]] = []
        free: list[tuple[int, int]] = []
        may_hold: dict[int, int] = {}
        for s in range(n):
            if s == self.seat or not sizes[s]:
                continue
            if barred[s] & self._pool_mask:
                may_hold[s] = self._pool_mask & ~barred[s]
                voided.append((s, sizes[s], bits(may_hold[s])))
            else:
                free.append((s, sizes[s]))
        voided.sort(key=lambda v: len(v[2]) - v[1])
        # Hall's condition: every group of void seats can be filled from the cards some
        # of them may hold (the stock and the other seats take anything). Then a deal
        # always exists, and sample() finds one however its random choices fall.
        for k in range(1, len(voided) + 1):
            for group in combinations(voided, k):
                room = 0
                for s, _, _ in group:
                    room |= may_hold[s]
                if room.bit_count() < sum(size for _, size, _ in group):
                    raise InvalidPositionError("no deal fits the voids the view shows (KOW-4.2)")
        self._voided = voided
        self._free = free

    # Sampling -----------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> KnockoutWhistState:
        """A full state the seat could not tell from the real one (KOW-9)."""
        hands = self._hands[:]
        rand = rng.random
        taken = 0
        for _ in range(_ATTEMPTS):
            taken = 0
            for s, size, allowed in self._voided:
                cards = [c for c in allowed if not taken >> c & 1]
                m = len(cards)
                if m < size:
                    break
                mask = 0
                for i in range(size):
                    j = i + int(rand() * (m - i))
                    cards[i], cards[j] = cards[j], cards[i]
                    mask |= BIT[cards[i]]
                hands[s] = mask
                taken |= mask
            else:
                break
        else:  # pragma: no cover - Hall's condition makes a dead end ever rarer
            raise InvalidPositionError("no deal found for the voids the view shows")
        if self._free:
            # A partial Fisher-Yates shuffle: only the cards the free seats get are drawn.
            cards = [c for c in self._pool if not taken >> c & 1] if taken else self._pool[:]
            m = len(cards)
            end = 0
            for s, size in self._free:
                mask = 0
                start, end = end, end + size
                for i in range(start, end):
                    j = i + int(rand() * (m - i))
                    card = cards[j]
                    cards[j] = cards[i]
                    cards[i] = card
                    mask |= BIT[card]
                hands[s] = mask
                taken |= mask
        return self._state(hands, bits(self._pool_mask & ~taken) + self._public_stock, rng)

    def _state(self, hands: list[int], stock: list[int], rng: random.Random) -> KnockoutWhistState:
        state = KnockoutWhistState.__new__(KnockoutWhistState)
        game = self._game
        n = len(hands)
        state.game = game
        state.players = n
        state.clockwise = CLOCKWISE[n]
        state.hand_no = self._hand_no
        state.dealer = self._dealer
        state.status = self._status[:]
        state.dog_used = self._dog_used
        state.hands = hands
        state.dealt_in = self._dealt_in[:]
        state.stock = stock
        state.turned = self._turned
        state.cuts = self._cuts[:]
        state.trump = self._trump
        state.chooser = self._chooser
        state.phase = self._phase
        state.tricks_won = self._tricks_won[:]
        state.trick = self._trick[:]
        state.led_suit = self._led_suit
        state.acted = self._acted
        state.to_move = self._to_move
        state.done = self._done[:]
        state.previous = self._previous
        state.eliminated = self._eliminated[:]
        state.seed = rng.getrandbits(63)
        # One deck a hand so far; the counters only name the seed's chance streams, and
        # the seed is new, but a reshuffle this hand must be counted (KOW-11.1).
        state.decks_drawn = state.hand_no
        state.reshuffles_drawn = self._reshuffles
        state.stacked_decks = []
        state.stacked_reshuffles = []
        state.used_decks = []
        state.used_reshuffles = []
        state.history = []
        state.start = None
        state.first_dealer = None  # the view does not say who dealt first
        return state


def _seat(value: Any, n: int) -> int:
    if type(value) is not int or not 0 <= value < n:
        raise InvalidPositionError(f"expected a seat 0-{n - 1}, not {value!r}")
    return value


def _card(text: Any) -> int:
    if not isinstance(text, str):
        raise InvalidPositionError(f"expected a card, not {text!r}")
    return Card.parse(text).index


def _mask(cards: list[str]) -> int:
    mask = 0
    for text in cards:
        mask |= BIT[_card(text)]
    return mask


def _plays(plays: list[list[Any]]) -> Plays:
    """A trick as the view writes it (``[[seat, "7D"], [seat, "knock"]]``) as the state
    keeps it (``(seat, card or KNOCKED)``)."""
    return [(int(s), KNOCKED if c == "knock" else _card(c)) for s, c in plays]
