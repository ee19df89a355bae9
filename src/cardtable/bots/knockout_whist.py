"""A heuristic Knockout Whist bot (the "easy" level).

In Knockout Whist a hand is survived by taking a single trick (KOW-5.1), and the player
who takes the most tricks names the next trump (KOW-3.2). The bot plays for both, in
this order of priority, from its seat's view alone (KOW-9):

* **Naming trumps** (KOW-3.2): the suit with the best length-and-honours score,
  ``2 x cards + A 4, K 3, Q 2, J 1``.
* **Leading**: a trump that no unseen card can beat while it still needs a trick;
  otherwise the highest side-suit card that no unseen card of its suit beats (a "boss");
  otherwise a safe boss trump; otherwise the lowest card of its longest side suit,
  keeping trumps for ruffing.
* **Following**: the cheapest card that beats the trick so far (KOW-4.3). While it
  still needs a trick and others are yet to play, it prefers the cheapest beating card
  that is a boss. It ruffs a side-suit lead only when the trick is worth a trump: it
  has no trick yet, it plays last, or it holds more than one trump. Otherwise it
  throws its lowest card, side suits before trumps.
* **On a dog's life** (KOW-6.3): it knocks, keeping the card, unless playing it now is
  likely to win: the card beats the trick so far and either nobody plays after it or no
  unseen card of its suit is higher. On the last trick the rules force the play (W-3).

"Unseen" cards are those the seat has not seen this hand: not in its hand, not played,
not the turned card and not a cut card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.bots.reading import card_index, rank_of, suit_of
from cardtable.cards import Card, Suit
from cardtable.core import Action, View

__all__ = ["EXPERT", "HEURISTIC", "KnockoutWhistHeuristic", "suit_strength"]

_HONOURS = {12: 4, 11: 3, 10: 2, 9: 1}  # rank offsets (rank - 2) of A, K, Q, J


def suit_strength(hand: Sequence[int], suit: int) -> int:
    """Length and honours of ``suit`` in ``hand``: ``2 x cards + A 4, K 3, Q 2, J 1``.

    >>> suit_strength([card_index(c) for c in ("AH", "7H", "KS")], 2)
    8
    """
    cards = [c for c in hand if suit_of(c) == suit]
    return 2 * len(cards) + sum(_HONOURS.get(rank_of(c), 0) for c in cards)


@dataclass(frozen=True, slots=True)
class _Table:
    """The facts of the seat's view the bot reasons with, as card indices."""

    seat: int
    hand: tuple[int, ...]
    trump: int
    plays: tuple[tuple[int, int], ...]  # cards in the trick so far, knocks left out
    unseen: frozenset[int]
    still_to_play: int  # seats holding cards that act after this one in the trick
    tricks_won: int

    @classmethod
    def read(cls, view: View) -> _Table:
        seat = int(view["seat"])
        hand = tuple(card_index(c) for c in view["hand"])
        trump = "CDHS".index(view["trump"])
        plays = tuple((int(s), card_index(c)) for s, c in view["trick"] if c != "knock")
        seen = set(hand)
        for trick in view["tricks"]:
            seen.update(card_index(c) for _, c in trick["plays"] if c != "knock")
        seen.update(c for _, c in plays)
        if view["turned"] is not None:
            seen.add(card_index(view["turned"]))
        for round_ in view["cuts"]:
            seen.update(card_index(c) for _, c in round_)
        acted = {int(s) for s, _ in view["trick"]}
        still = sum(
            1
            for s, size in enumerate(view["hand_sizes"])
            if s != seat and size > 0 and s not in acted
        )
        return cls(
            seat=seat,
            hand=hand,
            trump=trump,
            plays=plays,
            unseen=frozenset(range(52)) - seen,
            still_to_play=still,
            tricks_won=int(view["tricks_won"][seat]),
        )

    def beats(self, card: int, best: int) -> bool:
        """KOW-4.3: would ``card`` take the trick from ``best``?"""
        if suit_of(card) == suit_of(best):
            return card > best
        return suit_of(card) == self.trump

    def best(self) -> int | None:
        """The card winning the trick so far."""
        winner: int | None = None
        for _, card in self.plays:
            if winner is None or self.beats(card, winner):
                winner = card
        return winner

    def is_boss(self, card: int) -> bool:
        """No unseen card of the same suit ranks higher."""
        top = (suit_of(card) + 1) * 13
        return not any(c in self.unseen for c in range(card + 1, top))


class KnockoutWhistHeuristic:
    """Plays to take a trick every hand, then to take the most; see the module notes."""

    name = "heuristic"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError(f"seat {view.get('seat')} has no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if legal_actions[0].verb == "trump":
            return self._name_trumps(view, legal_actions)
        table = _Table.read(view)
        by_card = {
            a.arg.index: a for a in legal_actions if a.verb == "play" and isinstance(a.arg, Card)
        }
        knock = next((a for a in legal_actions if a.verb == "knock"), None)
        if knock is not None:
            (card,) = by_card
            return by_card[card] if self._dog_plays(table, card) else knock
        cards = sorted(by_card)
        best = table.best()
        chosen = self._lead(table, cards) if best is None else self._follow(table, cards, best)
        return by_card[chosen]

    @staticmethod
    def _name_trumps(view: View, legal_actions: Sequence[Action]) -> Action:
        hand = [card_index(c) for c in view["hand"]]
        # max() keeps the first of equal scores, so ties go to the lower suit: deterministic.
        return max(
            legal_actions,
            key=lambda a: suit_strength(hand, a.arg) if isinstance(a.arg, Suit) else -1,
        )

    @staticmethod
    def _dog_plays(table: _Table, card: int) -> bool:
        best = table.best()
        if best is None:
            return table.is_boss(card)
        if not table.beats(card, best):
            return False
        return table.still_to_play == 0 or table.is_boss(card)

    @staticmethod
    def _lead(table: _Table, cards: list[int]) -> int:
        trumps = [c for c in cards if suit_of(c) == table.trump]
        side = [c for c in cards if suit_of(c) != table.trump]
        boss_trumps = [c for c in trumps if table.is_boss(c)]
        if table.tricks_won == 0 and boss_trumps:
            return boss_trumps[0]
        side_bosses = [c for c in side if table.is_boss(c)]
        if side_bosses:
            # The suit with the most unseen cards is the one least likely to be ruffed.
            return max(
                side_bosses,
                key=lambda c: (
                    sum(1 for u in table.unseen if suit_of(u) == suit_of(c)),
                    rank_of(c),
                ),
            )
        if boss_trumps:
            return boss_trumps[0]
        if not side:
            return trumps[0]
        longest = max(
            {suit_of(c) for c in side},
            key=lambda s: (sum(1 for c in side if suit_of(c) == s), suit_strength(side, s)),
        )
        return min(c for c in side if suit_of(c) == longest)

    @staticmethod
    def _follow(table: _Table, cards: list[int], best: int) -> int:
        beaters = [c for c in cards if table.beats(c, best)]
        led = suit_of(table.plays[0][1])
        ruffing = bool(beaters) and suit_of(beaters[0]) == table.trump != led
        if ruffing:
            trumps_held = sum(1 for c in table.hand if suit_of(c) == table.trump)
            worth = table.tricks_won == 0 or table.still_to_play == 0 or trumps_held > 1
            if not worth:
                beaters = []
        if beaters:
            cheapest = min(beaters, key=rank_of)
            if table.tricks_won == 0 and table.still_to_play > 0:
                bosses = [c for c in beaters if table.is_boss(c)]
                if bosses:
                    return min(bosses, key=rank_of)
            return cheapest
        side = [c for c in cards if suit_of(c) != table.trump]
        return min(side or cards, key=rank_of)


HEURISTIC = KnockoutWhistHeuristic
"""The ``heuristic`` bot, the ``easy`` level (:mod:`cardtable.parts`)."""
EXPERT: str | None = None
"""The ``expert`` level: the common one (PIMC over the learned rollout's search)."""
