"""What one Neuf seat knows, as a sampler of full states (the determinizer of search,
DESIGN.md "Bots"), built from the seat's view alone (NEUF-9).

The seat sees the public record (scores and ledger, dealer, trump, who exchanged or kept
and in what order, every card played this deal, the last deal's spare, N-5) and every
13-card hand it has held this deal. The exchanges move whole hands (NEUF-3.2), so each
pile as dealt has a place it ended up in, known to everyone: a seat's hand or the spare.
A pile the seat has held is known card for card wherever it went: if a later player took
it, that player's hand is the pile less the cards that player has played since (NEUF-3.3);
if it is the final spare, the spare is known. The cards of the piles the seat never held,
less those played, are dealt at random among the places those piles went, in their sizes,
giving no seat a card of a suit it has shown it lacks by not following (NEUF-4.2).

The deal is uniform over every consistent layout. Void constraints are met exactly: the
suits some place cannot take are split among the places by counts drawn with weights that
count the layouts each split allows (a small dynamic programme over those suits, worked
out once per view), so sampling never retries and never favours a layout.

Each sample gets a fresh seed (the deals to come are new chance), no stacked decks, an
empty history and, as its ``start``, its own position, so its record replays.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterator
from itertools import starmap
from math import factorial
from typing import Any

from cardtable.cards import Card
from cardtable.core import Game, View
from cardtable.errors import InvalidPositionError
from cardtable.rules.neuf.ledger import Ledger
from cardtable.rules.neuf.state import (
    EXCHANGING,
    OVER,
    PLAY,
    SPARE,
    NeufState,
    trump_index,
)
from cardtable.rules.notation import cards_field
from cardtable.rules.tricks import BIT, CLOCKWISE, SUIT_MASKS, bits

__all__ = ["NeufKnowledge"]

_FULL = (1 << 52) - 1
_BIT_OF = BIT.__getitem__
_NO_ARGS = ((),) * 52  # one random sort key per card
_SPARE_PLACE = -1  # the spare among the places unseen cards go (a seat otherwise)

Plays = list[tuple[int, int]]
# Per split class and room left in each place: the count vectors the class may take,
# their cumulative layout counts, and the total.
Table = dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int], int]]


def _card(text: Any) -> int:
    if not isinstance(text, str):
        raise InvalidPositionError(f"expected a card, not {text!r}")
    return Card.parse(text).index


def _mask(cards: Any) -> int:
    mask = 0
    for text in cards:
        bit = BIT[_card(text)]
        if mask & bit:
            raise InvalidPositionError(f"card {text} is listed twice")
        mask |= bit
    return mask


def _plays(items: Any, players: int) -> Plays:
    plays = []
    for seat, text in items:
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidPositionError(f"no seat {seat!r} plays neuf with {players}")
        plays.append((seat, _card(text)))
    return plays


def _multinomial(counts: tuple[int, ...]) -> int:
    ways = factorial(sum(counts))
    for c in counts:
        ways //= factorial(c)
    return ways


def _splits(
    cards: int, room: tuple[int, ...], allowed: tuple[bool, ...]
) -> Iterator[tuple[int, ...]]:
    """Every way to put ``cards`` cards into the places, within their room, only where
    allowed."""
    if not room:
        if cards == 0:
            yield ()
        return
    top = min(cards, room[0]) if allowed[0] else 0
    for here in range(top + 1):
        for rest in _splits(cards - here, room[1:], allowed[1:]):
            yield (here, *rest)


class _SuitTexts(dict[int, str]):
    """Memoised text of one suit's cards from their 13-bit slice of a mask: the pile
    notation built four slices at a time (``cards_field`` card by card costs more than
    all the rest of a sample)."""

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.suit = suit

    def __missing__(self, slice_: int) -> str:
        text = cards_field(bits(slice_ << 13 * self.suit)) if slice_ else ""
        self[slice_] = text
        return text


_C, _D, _H, _S = (_SuitTexts(s) for s in range(4))


def _pile_text(pile: int) -> str:
    """``cards_field(bits(pile))`` for a pile that is not empty, faster."""
    parts = (_C[pile & 0x1FFF], _D[pile >> 13 & 0x1FFF], _H[pile >> 26 & 0x1FFF], _S[pile >> 39])
    return ",".join(filter(None, parts))


class NeufKnowledge:
    """A Neuf seat's knowledge from its view: :meth:`sample` deals what it cannot see.

    :class:`InvalidPositionError` when ``view`` is not a seat's view of ``game``, or
    cannot be one (its cards do not add up, or no layout meets its revealed voids)."""

    __slots__ = (
        "_classes",
        "_free",
        "_pile_of",
        "_pile_texts",
        "_position_parts",
        "_room",
        "_table",
        "_template",
        "_where",
        "seat",
    )

    seat: int

    def __init__(self, game: Game, view: View) -> None:
        if not isinstance(view, dict) or view.get("game") != game.name:
            raise InvalidPositionError("not a view of a neuf game")
        seat = view.get("seat")
        if type(seat) is not int or not 0 <= seat < game.num_players:
            raise InvalidPositionError(f"a seat's view is needed, not seat {seat!r}'s")
        self.seat = seat
        try:
            self._read(game, view)
        except InvalidPositionError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise InvalidPositionError(f"not a neuf seat's view: {exc!r}") from exc
        # Whatever the view says must come back from a sample of it, word for word: this
        # catches a view whose parts disagree (scores against the ledger, the hand against
        # the legal actions, a trick winner, an option of another table) once, here.
        if self.sample(random.Random(0)).view(seat) != view:
            raise InvalidPositionError("the view is not one that a neuf state shows")

    # Reading the view, once ---------------------------------------------------------------

    def _read(self, game: Game, view: View) -> None:
        n = game.num_players
        seat = self.seat
        if view["players"] != n or view["trump_sequence"] != game.options["trump_sequence"]:
            raise InvalidPositionError("the view is of a neuf table with other options")
        state = self._public_state(game, view)

        # Each dealt pile's place now (a seat, or SPARE), through the exchanges, and the
        # piles this seat has held, in order (NEUF-3.2, NEUF-9).
        holder = list(range(4)) if n == 3 else list(range(n))
        held_ids = [seat]
        for s, exchanged in state.acted_exchange:
            if exchanged:
                holder[s], holder[SPARE] = holder[SPARE], holder[s]
                if s == seat:
                    held_ids.append(holder[s])
        played = [0] * n
        for s, c in [p for t in state.done for p in t] + state.trick:
            if played[s] & BIT[c]:
                raise InvalidPositionError("a card is played twice")
            played[s] |= BIT[c]
        hand = _mask(view["hand"])
        known: dict[int, int] = {}  # pile id -> its cards
        if n == 4:
            known[seat] = hand | played[seat]
        else:
            held = [_mask(h) for h in view["held"]]
            if len(held) != len(held_ids):
                raise InvalidPositionError("the held hands do not match the exchanges")
            known = dict(zip(held_ids, held, strict=True))
            if state.phase == OVER and state.ledger.is_over:
                # The game ended with this deal complete: its final spare is shown (N-5).
                assert state.previous is not None
                known[holder[SPARE]] = state.previous[2]
        seen = 0
        for cards in known.values():
            if cards.bit_count() != 13 or seen & cards:
                raise InvalidPositionError("the hands held are not 13 distinct cards each")
            seen |= cards

        sizes = view["hand_sizes"]
        places = [*range(n), SPARE] if n == 3 else list(range(n))
        voids = state.voids()
        all_played = 0
        piles = [0] * len(places)
        state.hands = [0] * n
        state.spare = 0
        where: list[int] = []
        room: list[int] = []
        barred: list[int] = []
        for place in places:
            pile = holder[place]
            gone = played[place] if place < n else 0
            all_played |= gone
            if pile in known:
                if gone & ~known[pile]:
                    raise InvalidPositionError(f"seat {place} played a card it did not hold")
                piles[pile] = known[pile]
                now = known[pile] & ~gone
                if place >= n:  # the spare, in the 3-player game
                    state.spare = now
                else:
                    state.hands[place] = now
            else:
                if gone & seen:
                    raise InvalidPositionError(f"seat {place} played a card held elsewhere")
                piles[pile] = gone
                where.append(place if place < n else _SPARE_PLACE)
                room.append(13 - gone.bit_count())
                barred.append(voids[place] if place < n else 0)
            if place < n and sizes[place] != 13 - gone.bit_count():
                raise InvalidPositionError(f"seat {place}'s hand size does not add up")
        if state.hands[seat] != hand:
            raise InvalidPositionError("the hand is not the last hand held less its plays")
        state.piles = piles
        pool = _FULL & ~seen & ~all_played
        if pool.bit_count() != sum(room):
            raise InvalidPositionError("the cards do not add up to the pack")
        self._where = tuple(where)
        self._pile_of = tuple(holder[p] for p in places if holder[p] not in known)
        self._room = tuple(room)
        self._plan(pool, barred)

        self._template = state
        # The position with the piles and the seed cut out (fields are separated by single
        # spaces and hold none, docs/neuf.md), and the text of the piles no sample changes.
        text = state.position()
        piles_at = text.index(" piles=") + len(" piles=")
        seed_at = text.index(" seed=", piles_at) + len(" seed=")
        seed_end = text.find(" ", seed_at)
        self._position_parts = (
            text[:piles_at],
            text[text.index(" ", piles_at) : seed_at],
            text[seed_end:] if seed_end >= 0 else "",
        )
        self._pile_texts = [_pile_text(p) if p else "" for p in piles]

    def _public_state(self, game: Game, view: View) -> NeufState:
        """A state holding everything public; hands, spare and piles are filled in later."""
        n = game.num_players
        state = NeufState.__new__(NeufState)
        state.game = game
        state.players = n
        state.clockwise = CLOCKWISE[n]
        deal = view["deal_number"]
        dealer = view["dealer"]
        if type(deal) is not int or type(dealer) is not int or deal < 1:
            raise InvalidPositionError("the deal number and dealer must be whole numbers")
        state.ledger = Ledger(n, (dealer - deal + 1) % n, game.options["trump_sequence"])
        for row in view["ledger"]:
            state.ledger.record(row["tricks"])
        phase = view["phase"]
        if phase not in (EXCHANGING, PLAY, OVER):
            raise InvalidPositionError(f"no phase {phase!r} in neuf")
        state.phase = phase
        state.trump = trump_index(view["trump"])
        choices = {"exchange": True, "keep": False}
        state.acted_exchange = [(s, choices[e]) for s, e in view["exchanges"]]
        state.done = [_plays(t["plays"], n) for t in view["tricks"]]
        state.trick = _plays(view["trick"], n)
        state.led_suit = state.trick[0][1] // 13 if state.trick else -1
        state.tricks_won = [int(t) for t in view["tricks_won"]]
        state.to_move = view["to_move"]
        previous = view["previous_deal"]
        state.previous = None
        if previous is not None:
            if not state.ledger.rows:
                raise InvalidPositionError("a previous deal with no ledger row")
            # The deal before is the ledger's last row (the very deal, once it ended the game).
            last_trump = trump_index(state.ledger.rows[-1].trump)
            tricks = [_plays(t["plays"], n) for t in previous["tricks"]]
            spare = _mask(previous["spare"]) if n == 3 else 0
            state.previous = (last_trump, tricks, spare)
        state.seed = 0
        state.decks_drawn = len(state.ledger.rows) + (not state.ledger.is_over)
        state.stacked_decks = []
        state.used_decks = []
        state.history = []
        state.start = None
        return state

    def _plan(self, pool: int, barred: list[int]) -> None:
        """Split the pool: suits some place cannot take are dealt class by class, by count
        vectors weighted with the layouts each leaves; the other cards are dealt freely."""
        classes: list[list[int]] = []
        allowed_by_class: list[tuple[bool, ...]] = []
        free = pool
        for suit_mask in SUIT_MASKS:
            cards = pool & suit_mask
            allowed = tuple(not b & suit_mask for b in barred)
            if cards and not all(allowed):
                if not any(allowed):
                    raise InvalidPositionError("no place can hold a card of a void suit")
                classes.append(bits(cards))
                allowed_by_class.append(allowed)
                free &= ~suit_mask
        self._classes = classes
        self._free = bits(free)
        table: Table = {}

        def layouts(i: int, room: tuple[int, ...]) -> int:
            """The layouts of classes ``i`` on and the free cards into ``room``."""
            if i == len(classes):
                return _multinomial(room)
            if (i, room) in table:
                return table[i, room][2]
            options: list[tuple[int, ...]] = []
            cumulative: list[int] = []
            total = 0
            for split in _splits(len(classes[i]), room, allowed_by_class[i]):
                left = tuple(r - c for r, c in zip(room, split, strict=True))
                ways = _multinomial(split) * layouts(i + 1, left)
                if ways:
                    total += ways
                    options.append(split)
                    cumulative.append(total)
            table[i, room] = (options, cumulative, total)
            return total

        if layouts(0, self._room) == 0:
            raise InvalidPositionError("no layout of the unseen cards meets the voids shown")
        self._table = table

    # Sampling, many times -----------------------------------------------------------------

    def sample(self, rng: random.Random) -> NeufState:
        """A state this seat could not tell from the real one (its view is the same), the
        unseen cards dealt uniformly among the layouts the view allows."""
        # A shuffle by sorting on random keys drawn in one C-level sweep: a few times
        # faster than ``rng.shuffle``, which matters at one sample per search iteration.
        key = list(starmap(rng.random, _NO_ARGS)).__getitem__
        room = self._room
        dealt = [0] * len(room)
        for i, cards in enumerate(self._classes):
            options, cumulative, total = self._table[i, room]
            split = options[bisect_right(cumulative, rng.randrange(total))]
            order = sorted(cards, key=key)
            at = 0
            for place, count in enumerate(split):
                if count:
                    dealt[place] |= sum(map(_BIT_OF, order[at : at + count]))
                    at += count
            room = tuple(r - c for r, c in zip(room, split, strict=True))
        order = sorted(self._free, key=key)
        at = 0
        for place, count in enumerate(room):
            dealt[place] |= sum(map(_BIT_OF, order[at : at + count]))
            at += count

        state = self._template.copy()
        hands = state.hands
        piles = state.piles
        texts = self._pile_texts[:]
        for place, pile, mask in zip(self._where, self._pile_of, dealt, strict=True):
            if place == _SPARE_PLACE:
                state.spare |= mask
            else:
                hands[place] |= mask
            piles[pile] |= mask
            texts[pile] = _pile_text(piles[pile])
        state.seed = seed = rng.getrandbits(63)
        # The position differs from the template's only in the piles and the seed.
        head, middle, tail = self._position_parts
        state.start = f"{head}{'/'.join(texts)}{middle}{seed}{tail}"
        return state
