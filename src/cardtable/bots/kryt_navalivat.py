"""A heuristic Kryt'-navalivat' bot (the "easy" level).

The aim is to shed every card; the last player holding cards is the fool (KRYT-7.2). The
bot reads its seat's view alone (KRYT-9) and scores each legal action by what it does to
its own hand and what it leaves the next player facing, one turn deep:

* **Its own hand.** A card is worth its *power*, the share of the pack it beats less the
  share that beats it (:func:`card_power`): the ace of trumps is worth most, plain sixes
  least, so trumps, and the ace above all, are kept for the endgame (KRYT-12). Every card
  held costs a fixed amount, small while the stock refills hands (KRYT-4.4) and large
  once it is empty, when only shedding counts. So early a low plain card is cheap to
  take, and late every beat that sheds two cards is worth a lot. Beating costs the power
  of the beating card, so it beats with its cheapest beater, a card of the same suit
  before a trump.
* **The next player.** A cover or a lead is a card the next player must beat or take
  (KRYT-4.2). Its worth is the chance they cannot beat it times the cards a pick-up of it
  takes (KRYT-5: one for a plain card, three for a trump, the whole pile for the ace of
  trumps). The chance comes from the cards the next player is known to hold (K-10) and
  otherwise from the unseen cards, which their unknown cards are drawn from. If they do
  take, the card below comes up for the player after them: a gain when that is a
  third player who cannot beat it, a cost when that is this seat (with two players the
  bot then faces its own beating card: covering an ace of trumps with a card the
  opponent must take hands the bot the whole pile).
* **Taking.** A pick-up adds the cards taken and leaves the next player facing the card
  below. That is KRYT-12's three-player tactic: when the player on the right has beaten
  with the ace of trumps and covered with a plain card, taking the cover leaves the
  player on the left the ace, and the whole pile.
* **Leading** (KRYT-4.1, and the free card of KRYT-4.3): the same reckoning, plus a
  small preference, while the stock lasts, for the low cards of a long side suit
  (KRYT-12).
* **The endgame** (stock empty): going out is worth more than anything else; when going
  out ends the hand, it prefers a finish that leaves a fool to one that gives the draw of
  KRYT-7.3 (beating with the last card, or a last card the other cannot beat). Giving the
  next player a card that they can beat with their last cards is heavily penalised when
  that would leave this seat alone holding cards.
* **The six of trumps** (KRYT-6): it always swaps, as the turned card is a higher trump.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from cardtable.bots.reading import card_index, rank_of, suit_of
from cardtable.cards import Card
from cardtable.core import Action, View

__all__ = ["EXPERT", "HEURISTIC", "KrytNavalivatHeuristic", "card_power"]

SUITS = "CDHS"
_SIX, _ACE = 4, 12  # rank offsets (rank - 2) of the 36-card pack's lowest and highest
PACK = tuple(13 * s + r for s in range(4) for r in range(_SIX, _ACE + 1))

# The weights, in units of card power (0 … 1).
_HOLD_EARLY = 1.0  # a card held while the stock lasts
_HOLD_LATE = 2.0  # a card held once the stock is empty
_HOLD_CLIMB = 0.2  # more per card held beyond three, while the stock lasts
_OUT = 100.0  # going out: safe whatever happens next (KRYT-7.1)
_DRAW_SHORTFALL = 5.0  # a draw instead of a fool, when this seat goes out last but one
_LEFT_ALONE = 80.0  # the next player goes out and leaves this seat the last holder
_ANOTHER_OUT = 3.0  # the next player goes out while others still hold cards
_LONG_SUIT = 0.05  # per other card of the suit, for an early lead (KRYT-12)
_UNBEATABLE = 0.5  # the bonus power of a card nothing beats (KRYT-3.2, KRYT-8.2)
_DEPTH = 3  # pick-ups in a row that the bot looks ahead
# Once the stock is empty, this share of choices is made at random. Two players who each
# always choose the same way can pass the same cards back and forth for ever (the rules
# have no move limit, K-14); a little variety ends such a hand.
_VARIETY = 0.05


def beats(card: int, top: int, trump: int, anti: int) -> bool:
    """KRYT-3.1, KRYT-8.2: a higher card of the suit, or a trump on a card that is neither
    a trump nor an anti-trump."""
    if suit_of(card) == suit_of(top):
        return card > top
    return suit_of(card) == trump and suit_of(top) != anti


def take_count(pile: int, top: int, trump: int) -> int:
    """KRYT-5, KRYT-8.3: the cards a pick-up takes from a pile of ``pile`` cards."""
    if suit_of(top) != trump:
        return 1
    return pile if rank_of(top) == _ACE else min(3, pile)


@cache
def beaten_by(top: int, trump: int, anti: int) -> frozenset[int]:
    """The cards of the pack that beat ``top``."""
    return frozenset(c for c in PACK if beats(c, top, trump, anti))


@cache
def card_power(card: int, trump: int, anti: int = -1) -> float:
    """What ``card`` is worth to hold: cards of the pack it beats less cards that beat it,
    scaled to 0 … 1 (the ace of trumps in the turned-trump game is 1), plus a bonus for
    a card nothing beats.

    >>> ace, six = card_index("AD"), card_index("6H")
    >>> card_power(ace, 1)
    1.5
    >>> card_power(six, 1) < card_power(card_index("6D"), 1) < card_power(ace, 1)
    True
    """
    beaten = sum(1 for c in PACK if beats(card, c, trump, anti))
    beaten_by = sum(1 for c in PACK if beats(c, card, trump, anti))
    # An unbeatable card is a sure shed at the end, worth more than its count says.
    return (beaten - beaten_by + 35) / 70 + (_UNBEATABLE if beaten_by == 0 else 0.0)


@dataclass(slots=True)
class _Table:
    """The facts of the seat's view the bot reasons with, as card indices."""

    seat: int
    players: int
    hand: tuple[int, ...]
    trump: int
    anti: int
    pile: tuple[int, ...]
    stock: int
    sizes: tuple[int, ...]
    known: tuple[frozenset[int], ...]
    unseen: frozenset[int]  # in the stock or in another hand, not known to be there
    average_power: float = 0.0  # the expected power of a card drawn from the stock
    _chances: dict[tuple[int, int], float] = field(default_factory=dict)
    _orders: dict[tuple[int, int | None], list[int]] = field(default_factory=dict)

    @classmethod
    def read(cls, view: View) -> _Table:
        seat = int(view["seat"])
        hand = tuple(card_index(c) for c in view["hand"])
        pile = tuple(card_index(c) for c in view["pile"])
        known = tuple(frozenset(card_index(c) for c in cards) for cards in view["known"])
        seen = set(hand) | set(pile)
        for s, cards in enumerate(known):
            if s != seat:
                seen |= cards
        if view.get("trump_card"):
            seen.add(card_index(str(view["trump_card"])))
        anti = view.get("anti_trump")
        table = cls(
            seat=seat,
            players=int(view["players"]),
            hand=hand,
            trump=SUITS.index(str(view["trump"])),
            anti=SUITS.index(str(anti)) if anti else -1,
            pile=pile,
            stock=int(view["stock"]),
            sizes=tuple(int(n) for n in view["hand_sizes"]),
            known=known,
            unseen=frozenset(PACK) - seen,
        )
        if table.unseen:
            powers = [table.power(c) for c in table.unseen]
            table.average_power = sum(powers) / len(powers)
        return table

    # Rules facts ----------------------------------------------------------------------------

    def beats(self, card: int, top: int) -> bool:
        return card in beaten_by(top, self.trump, self.anti)

    def power(self, card: int) -> float:
        return card_power(card, self.trump, self.anti)

    def holders_after(self, seat: int, gone: int | None = None) -> list[int]:
        """The seats holding cards, clockwise from the one after ``seat``; ``gone`` is a
        seat that will have gone out by then."""
        order = self._orders.get((seat, gone))
        if order is None:
            turns = [(seat + k) % self.players for k in range(1, self.players + 1)]
            order = [s for s in turns if self.sizes[s] > 0 and s != gone]
            self._orders[seat, gone] = order
        return order

    # Reading the other hands ----------------------------------------------------------------

    def chance_to_beat(self, seat: int, top: int) -> float:
        """The chance ``seat`` holds a card that beats ``top``: certain when a card it is
        known to hold does; otherwise its unknown cards are a random draw of the unseen."""
        chance = self._chances.get((seat, top))
        if chance is None:
            chance = self._chances[seat, top] = self._chance_to_beat(seat, top)
        return chance

    def _chance_to_beat(self, seat: int, top: int) -> float:
        beaters = beaten_by(top, self.trump, self.anti)
        if seat == self.seat:
            return 1.0 if beaters.intersection(self.hand) else 0.0
        if beaters & self.known[seat]:
            return 1.0
        unknown = self.sizes[seat] - len(self.known[seat])
        pool = len(self.unseen)
        good = len(beaters & self.unseen)
        none = 1.0
        for i in range(min(unknown, pool)):
            none *= max(0, pool - good - i) / (pool - i)
        return 1.0 - none

    # Scoring ---------------------------------------------------------------------------------

    def hold_cost(self) -> float:
        """What one more card in hand costs. While the stock refills a short hand, a card
        over three costs little; but each one beyond that is a card the stock will never
        replace and that must be shed, so the cost climbs with the hand to the late one."""
        if self.stock == 0:
            return _HOLD_LATE
        extra = max(0, len(self.hand) - 3)
        return min(_HOLD_LATE, _HOLD_EARLY + _HOLD_CLIMB * extra)

    def own_hand(self, shed: Sequence[int], gained: Sequence[int]) -> tuple[float, int]:
        """The change in this seat's hand: its worth, and the cards it then holds."""
        now = len(self.hand)
        after = now - len(shed) + len(gained)
        drawn = max(0, min(3 - after, self.stock)) if self.stock else 0
        worth = sum(self.power(c) for c in gained) - sum(self.power(c) for c in shed)
        worth += drawn * self.average_power
        worth -= self.hold_cost() * (after + drawn - now)
        return worth, after + drawn

    def share(self) -> float:
        """What a card another player takes is worth to this seat, against one it takes
        itself: nearly as much with one opponent left, less when the fool may be a third."""
        return 0.8 if len(self.holders_after(self.seat)) <= 2 else 0.5

    def facing(
        self, seat: int, pile: tuple[int, ...], gone: int | None, spent: Sequence[int], depth: int
    ) -> float:
        """What it is worth to this seat that ``seat`` must now beat the top of ``pile``
        or take (KRYT-4.2). A pick-up shows the card below to the next holder, so the
        reckoning goes on down the pile for a few turns (KRYT-4.5)."""
        if depth == 0 or not pile:
            return 0.0
        top = pile[-1]
        if seat == self.seat:
            kept = [c for c in self.hand if c not in spent]
            beat = 1.0 if any(self.beats(c, top) for c in kept) else 0.0
        else:
            beat = self.chance_to_beat(seat, top)
        if beat == 1.0:
            return 0.0
        taken = take_count(len(pile), top, self.trump)
        hold = self.hold_cost()
        if seat == self.seat:
            worth = -sum(hold - self.power(c) for c in pile[-taken:])
        else:
            # A strong card handed over is one the taker can later shed: with one opponent
            # left, back onto this seat (weighed heavily, or the two trade it for ever).
            weight = 2.0 if len(self.holders_after(self.seat)) <= 2 else 0.5
            worth = self.share() * sum(hold - weight * self.power(c) for c in pile[-taken:])
        rest = pile[:-taken]
        if rest:
            after = [s for s in self.holders_after(seat, gone) if s != gone]
            if after and after[0] != seat:
                worth += self.facing(after[0], rest, gone, spent, depth - 1)
        return (1 - beat) * worth

    def put_to_beat(
        self, card: int, pile: tuple[int, ...], going_out: bool, spent: Sequence[int] = ()
    ) -> float:
        """What a card led or covered with, on top of ``pile``, is worth: the next player
        beats it or takes it (KRYT-4.2), and a pick-up shows the card below it."""
        me = self.seat
        gone = me if going_out else None
        others = [s for s in self.holders_after(me, gone) if s != me]
        if not others:
            return 0.0
        nxt = others[0]
        score = self.facing(nxt, (*pile, card), gone, (*spent, card), _DEPTH)
        if self.stock == 0 and self.sizes[nxt] <= 2:
            # The next player may go out by beating this card (KRYT-7.1).
            alone = len(others) == 1 and not going_out
            beat = self.chance_to_beat(nxt, card)
            score -= beat * (_LEFT_ALONE if alone else _ANOTHER_OUT)
        return score

    def finish(self, last_card: int | None) -> float:
        """Going out (KRYT-7.1). When one other player is left, the hand ends: a draw if
        this seat's last card was one to beat and their single card beats it (KRYT-7.3)."""
        others = [s for s in self.holders_after(self.seat) if s != self.seat]
        score = _OUT
        if last_card is not None and len(others) == 1 and self.sizes[others[0]] == 1:
            score -= _DRAW_SHORTFALL * self.chance_to_beat(others[0], last_card)
        return score

    def lead(self, card: int) -> float:
        worth, left = self.own_hand([card], [])
        out = self.stock == 0 and left == 0
        score = worth + self.put_to_beat(card, self.pile, out)
        if out:
            score += self.finish(card)
        if self.stock and suit_of(card) != self.trump:
            mates = sum(1 for c in self.hand if suit_of(c) == suit_of(card)) - 1
            score += _LONG_SUIT * mates
        return score

    def beat(self, card: int, cover: int | None) -> float:
        """Beating with ``card`` and covering with ``cover`` (None: the last card)."""
        shed = [card] if cover is None else [card, cover]
        worth, left = self.own_hand(shed, [])
        out = self.stock == 0 and left == 0
        score = worth
        if cover is not None:
            score += self.put_to_beat(cover, (*self.pile, card), out, spent=(card,))
        if out:
            score += self.finish(cover)
        return score

    def cover(self, card: int) -> float:
        worth, left = self.own_hand([card], [])
        out = self.stock == 0 and left == 0
        score = worth + self.put_to_beat(card, self.pile, out)
        if out:
            score += self.finish(card)
        return score

    def take(self) -> float:
        k = take_count(len(self.pile), self.pile[-1], self.trump)
        worth, _ = self.own_hand([], self.pile[-k:])
        rest = self.pile[:-k]
        if not rest:
            return worth
        nxt = next(s for s in self.holders_after(self.seat) if s != self.seat)
        return worth + self.facing(nxt, rest, None, (), _DEPTH)


class KrytNavalivatHeuristic:
    """Sheds cheaply, keeps trumps for the end, and covers with what the next player
    cannot beat; see the module notes."""

    name = "heuristic"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError(f"seat {view.get('seat')} has no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        for action in legal_actions:
            if action.verb == "swap":
                return action  # KRYT-6: the turned card is a higher trump than the six
        if view["stock"] == 0 and rng.random() < _VARIETY:
            return legal_actions[int(rng.random() * len(legal_actions))]
        table = _Table.read(view)
        best: tuple[float, int] | None = None
        chosen = legal_actions[0]
        for order, action in enumerate(legal_actions):
            score = self._score(table, action)
            # Ties go to the first legal action, so the choice is deterministic.
            if best is None or (score, -order) > best:
                best, chosen = (score, -order), action
        return chosen

    @staticmethod
    def _score(table: _Table, action: Action) -> float:
        if action.verb == "take":
            return table.take()
        assert isinstance(action.arg, Card)
        card = action.arg.index
        if action.verb == "lead":
            return table.lead(card)
        if action.verb == "cover":
            return table.cover(card)
        # A beat is scored with its best cover, chosen on the next call (KRYT-4.6).
        covers = [c for c in table.hand if c != card]
        if not covers:
            return table.beat(card, None)
        return max(table.beat(card, c) for c in covers)


HEURISTIC = KrytNavalivatHeuristic
"""The ``heuristic`` bot, the ``easy`` level (:mod:`cardtable.parts`)."""
EXPERT: str | None = "pimc:deals=100,seconds=0.9,model=paranoid,iterations=250000"
"""The ``expert`` level: ``hard``'s search at five times its iterations, the exact endgame
beside it."""
