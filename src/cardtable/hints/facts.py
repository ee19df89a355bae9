"""The facts a hint's reason may state, each a predicate on the seat's own view.

A reason (``hints.why.<key>``) says some facts in words: "no card still in play can beat
the queen of spades", "Bot 3 already wins this trick". The rules of thumb
(:mod:`.tricks`, :mod:`.kryt_navalivat`, :mod:`.neuf`, :mod:`.knockout_whist`) list for
each key the facts it states, and give the key only when every one of them holds here:
a sentence is chosen after its facts are checked, never the other way round.

The facts read nothing the seat may not see (SPEC §0.4 (4)): its hand and legal actions,
the cards played this hand, the trick or the pile, trumps and hand sizes. A card the seat
cannot see (another hand, the undealt cards, the spare, the stock) may be anywhere: a fact
about the other seats' cards holds only when the seat's own cards and the cards played
leave no room for the contrary.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from cardtable.core import View
from cardtable.hints.reasons import RANKS, rank_of, suit_of

__all__ = ["KRYT_PACK", "Pile", "TrickTable", "kryt_beaters", "kryt_beats", "trick_beats"]

SUITS = "CDHS"

KRYT_PACK = tuple(f"{r}{s}" for s in SUITS for r in RANKS[RANKS.index("6") :])
"""Kryt'-navalivat's 36-card pack (KRYT-1.2)."""


def trick_beats(card: str, other: str, trump: str | None) -> bool:
    """Whether ``card``, played after ``other`` (the card taking the trick so far), takes the
    trick from it: a higher card of its suit, or a trump on a card that is not one
    (KOW-4.3, NEUF-4.3)."""
    if suit_of(card) == suit_of(other):
        return rank_of(card) > rank_of(other)
    return suit_of(card) == trump


def kryt_beats(card: str, top: str, trump: str, anti_trump: str | None) -> bool:
    """Whether ``card`` beats ``top`` (KRYT-3.1; with anti-trumps, KRYT-8.2: only a higher
    card of its suit beats an anti-trump, and an anti-trump beats nothing of another suit)."""
    if suit_of(card) == suit_of(top):
        return rank_of(card) > rank_of(top)
    return suit_of(card) == trump and suit_of(top) not in (trump, anti_trump)


@cache
def kryt_beaters(card: str, trump: str, anti_trump: str | None) -> tuple[str, ...]:
    """Every card of Kryt'-navalivat's pack that beats ``card``."""
    return tuple(c for c in KRYT_PACK if kryt_beats(c, card, trump, anti_trump))


class TrickTable:
    """The seat's turn in a trick of Knockout Whist or Neuf (KOW-4, NEUF-4): its hand, the
    cards it may play, the trick so far, the cards played this hand, trumps.

    ``friendly(seat)``: whether that seat's trick is the seat's own side's (Neuf's partner,
    NEUF-8.4).

    A card's *cost* orders the cards a seat gives up: every trump above every other card,
    then by rank (a trump takes any card of another suit, KOW-1.2)."""

    def __init__(self, view: View, friendly: Callable[[int], bool] = lambda seat: False) -> None:
        self.seat: int = view["seat"]
        trump = view["trump"]
        self.trump: str | None = trump if trump in ("C", "D", "H", "S") else None
        self.hand: list[str] = list(view["hand"])
        self.playable = [a.split()[1] for a in view["legal_actions"] if a.startswith("play ")]
        self.plays: list[tuple[int, str]] = [
            (int(s), str(c)) for s, c in view["trick"] if c != "knock"
        ]
        self.played = {c for t in view["tricks"] for _, c in t["plays"] if c != "knock"}
        self.played |= {c for _, c in self.plays}
        self.led: str | None = suit_of(self.plays[0][1]) if self.plays else None
        # The seats still to act in this trick after the seat to move: those holding cards
        # that have not played or knocked in it (KOW-4.5, NEUF-4.2).
        acted = {int(s) for s, _ in view["trick"]} | {self.seat}
        self.after = [s for s, size in enumerate(view["hand_sizes"]) if size and s not in acted]
        self.friendly = friendly
        self.winning: tuple[int, str] | None = None
        for seat, card in self.plays:
            if self.winning is None or self.beats(card, self.winning[1]):
                self.winning = (seat, card)

    # ------------------------------------------------------------ the card arithmetic

    def beats(self, card: str, other: str) -> bool:
        """Whether ``card``, played after ``other``, takes the trick from it."""
        return trick_beats(card, other, self.trump)

    def cost(self, card: str) -> tuple[bool, int]:
        """What playing ``card`` gives up: a trump more than any other card, then a higher
        rank more than a lower."""
        return suit_of(card) == self.trump, rank_of(card)

    def beaters(self, card: str) -> list[str]:
        """Every card of the pack that, played after ``card``, would take the trick from it:
        the higher cards of its suit, and every trump if it is not one."""
        higher = [f"{r}{suit_of(card)}" for r in RANKS[rank_of(card) + 1 :]]
        if self.trump is None or suit_of(card) == self.trump:
            return higher
        return higher + [f"{r}{self.trump}" for r in RANKS]

    def higher_of_suit(self, card: str) -> list[str]:
        """The cards of ``card``'s suit above it."""
        return [f"{r}{suit_of(card)}" for r in RANKS[rank_of(card) + 1 :]]

    def unseen(self, card: str) -> bool:
        """Whether ``card`` may be in another seat's hand: neither the seat's nor played."""
        return card not in self.hand and card not in self.played

    # ------------------------------------------------------------ facts of the trick

    def leads(self, card: str) -> bool:
        """The seat leads to this trick."""
        return self.winning is None

    def follows(self, card: str) -> bool:
        """The trick already holds a card: the seat follows."""
        return self.winning is not None

    def takes_so_far(self, card: str) -> bool:
        """``card`` would take the trick as it stands: it leads, or beats the card taking it."""
        return self.winning is None or self.beats(card, self.winning[1])

    def does_not_take(self, card: str) -> bool:
        """``card`` follows and does not beat the card taking the trick so far."""
        return self.winning is not None and not self.beats(card, self.winning[1])

    def plays_last(self, card: str) -> bool:
        """No seat acts in this trick after the seat."""
        return not self.after

    def others_to_play(self, card: str) -> bool:
        """At least one seat still acts in this trick after the seat."""
        return bool(self.after)

    def nothing_in_play_beats(self, card: str) -> bool:
        """Every card that would take the trick from ``card`` has been played: none is in
        any hand, the seat's own included."""
        return all(c in self.played for c in self.beaters(card))

    def only_own_cards_beat(self, card: str) -> bool:
        """Every card that would take the trick from ``card`` is in the seat's hand or
        played, and at least one is in its hand: nobody else holds one."""
        beaters = self.beaters(card)
        return all(not self.unseen(c) for c in beaters) and any(c in self.hand for c in beaters)

    def highest_of_suit_in_play(self, card: str) -> bool:
        """Every higher card of ``card``'s suit has been played."""
        return all(c in self.played for c in self.higher_of_suit(card))

    def higher_of_suit_all_own(self, card: str) -> bool:
        """Every higher card of ``card``'s suit is in the seat's hand or played, and at
        least one is in its hand."""
        higher = self.higher_of_suit(card)
        return all(not self.unseen(c) for c in higher) and any(c in self.hand for c in higher)

    def not_trump_in_trump_deal(self, card: str) -> bool:
        """The deal has trumps and ``card`` is not one."""
        return self.trump is not None and suit_of(card) != self.trump

    def is_trump(self, card: str) -> bool:
        """``card`` is a trump."""
        return self.trump is not None and suit_of(card) == self.trump

    def trumps_unseen(self, card: str) -> bool:
        """Some trump is neither in the seat's hand nor played: another seat may hold it."""
        return self.trump is not None and any(self.unseen(f"{r}{self.trump}") for r in RANKS)

    def holds_non_trump(self, card: str) -> bool:
        """The seat holds a card that is not a trump."""
        return any(suit_of(c) != self.trump for c in self.hand)

    def void_in_led(self, card: str) -> bool:
        """The seat follows and holds no card of the suit led."""
        return self.led is not None and all(suit_of(c) != self.led for c in self.hand)

    def led_not_trumps(self, card: str) -> bool:
        """The suit led is not trumps."""
        return self.led is not None and self.led != self.trump

    def holds_trump(self, card: str) -> bool:
        """The seat holds a trump."""
        return self.trump is not None and any(suit_of(c) == self.trump for c in self.hand)

    def lowest_in_hand(self, card: str) -> bool:
        """No card in the seat's hand costs less than ``card``."""
        return all(self.cost(c) >= self.cost(card) for c in self.hand)

    def holds_higher(self, card: str) -> bool:
        """The seat holds a card that costs more than ``card``."""
        return any(self.cost(c) > self.cost(card) for c in self.hand)

    def lowest_of_suit(self, card: str) -> bool:
        """No card of ``card``'s suit in the seat's hand is lower."""
        return all(rank_of(c) >= rank_of(card) for c in self.hand if suit_of(c) == suit_of(card))

    def holds_higher_of_suit(self, card: str) -> bool:
        """The seat holds a higher card of ``card``'s suit."""
        return any(suit_of(c) == suit_of(card) and rank_of(c) > rank_of(card) for c in self.hand)

    def lowest_playable(self, card: str) -> bool:
        """No card the seat may play costs less than ``card``."""
        return all(self.cost(c) >= self.cost(card) for c in self.playable)

    def cheapest_winner(self, card: str) -> bool:
        """``card`` beats the card taking the trick, and no card the seat may play beats it
        at a lower cost."""
        if self.winning is None or not self.beats(card, self.winning[1]):
            return False
        top = self.winning[1]
        return all(self.cost(c) >= self.cost(card) for c in self.playable if self.beats(c, top))

    def cannot_beat(self, card: str) -> bool:
        """The seat follows and no card it may play beats the card taking the trick."""
        if self.winning is None:
            return False
        top = self.winning[1]
        return not any(self.beats(c, top) for c in self.playable)

    def could_beat(self, card: str) -> bool:
        """The seat follows and some card it may play beats the card taking the trick."""
        return self.winning is not None and not self.cannot_beat(card)

    def winner_safe(self, card: str) -> bool:
        """The seat follows, and no seat still to play can beat the card taking the trick:
        none is left to play after the seat, or every card that would beat it is in the
        seat's hand or played."""
        if self.winning is None:
            return False
        return not self.after or all(not self.unseen(c) for c in self.beaters(self.winning[1]))

    def winner_partner(self, card: str) -> bool:
        """The seat taking the trick so far is the seat's partner."""
        return self.winning is not None and self.friendly(self.winning[0])

    def winner_opponent(self, card: str) -> bool:
        """The seat taking the trick so far is not the seat's partner."""
        return self.winning is not None and not self.friendly(self.winning[0])


class Pile:
    """The seat's turn in Kryt'-navalivat' (KRYT-4): its hand and legal actions, the pile
    and what a pick-up takes, trumps (and anti-trumps, KRYT-8), the stock.

    A card's *cost* orders the cards a seat gives up: every trump above every other card,
    then by rank (KRYT-3.1)."""

    def __init__(self, view: View) -> None:
        self.trump: str = view["trump"]
        self.anti_trump: str | None = view["anti_trump"]
        self.hand: list[str] = list(view["hand"])
        self.legal: list[str] = list(view["legal_actions"])
        self.pile: list[str] = list(view["pile"])
        self.top: str | None = self.pile[-1] if self.pile else None
        self.would_take: list[str] = list(view["would_take"])
        self.stock: int = view["stock"]
        self.trump_card: str | None = view["trump_card"]

    def beats(self, card: str, top: str) -> bool:
        """Whether ``card`` beats ``top`` (KRYT-3.1, KRYT-8.2)."""
        return kryt_beats(card, top, self.trump, self.anti_trump)

    def cost(self, card: str) -> tuple[bool, int]:
        """What giving up ``card`` costs: a trump more than any other card, then by rank."""
        return suit_of(card) == self.trump, rank_of(card)

    def beaters_in_pack(self, card: str) -> tuple[str, ...]:
        """Every card of the pack that beats ``card``."""
        return kryt_beaters(card, self.trump, self.anti_trump)

    def hand_beaters(self) -> list[str]:
        """The seat's cards that beat the top card."""
        top = self.top
        return [] if top is None else [c for c in self.hand if self.beats(c, top)]

    # ------------------------------------------------------------ facts

    def turned_is_higher_trump(self, card: str) -> bool:
        """The turned card is a trump above the six (KRYT-6.1, KRYT-6.2)."""
        turned = self.trump_card
        return (
            turned is not None
            and suit_of(turned) == self.trump
            and rank_of(turned) > rank_of("6" + self.trump)
        )

    def none_beats_top(self, card: str) -> bool:
        """The pile has a top card and no card in the seat's hand beats it."""
        return self.top is not None and not self.hand_beaters()

    def only_trumps_beat_top(self, card: str) -> bool:
        """Some card in the seat's hand beats the top card, and every one that does is a
        trump."""
        beaters = self.hand_beaters()
        return bool(beaters) and all(suit_of(c) == self.trump for c in beaters)

    def takes_few(self, card: str) -> bool:
        """A pick-up takes one or two cards (KRYT-5, KRYT-8.3)."""
        return 1 <= len(self.would_take) <= 2

    def last_card(self, card: str) -> bool:
        """``card`` is the seat's only card and the stock is empty: playing it, the seat is
        out (KRYT-7.1)."""
        return self.hand == [card] and self.stock == 0

    def lowest_beater(self, card: str) -> bool:
        """``card`` beats the top card and no card in the seat's hand that beats it costs
        less."""
        beaters = self.hand_beaters()
        return card in beaters and all(self.cost(c) >= self.cost(card) for c in beaters)

    def keeps_lower_beater(self, card: str) -> bool:
        """``card`` beats the top card and the seat holds another that beats it and costs
        less."""
        beaters = self.hand_beaters()
        return card in beaters and any(self.cost(c) < self.cost(card) for c in beaters)

    def unbeatable(self, card: str) -> bool:
        """No card of the pack beats ``card`` (KRYT-3.2, KRYT-8.2)."""
        return not self.beaters_in_pack(card)

    def next_must_respond(self, card: str) -> bool:
        """The seat holds another card, so after this lead or cover the game goes on and
        the next player must beat the card or pick up (KRYT-4.5)."""
        return len(self.hand) >= 2

    def is_trump(self, card: str) -> bool:
        """``card`` is a trump."""
        return suit_of(card) == self.trump

    def not_trump(self, card: str) -> bool:
        """``card`` is not a trump."""
        return suit_of(card) != self.trump

    def is_anti_trump(self, card: str) -> bool:
        """``card`` is an anti-trump (KRYT-8.1): only a higher card of its suit beats it."""
        return suit_of(card) == self.anti_trump

    def beatable(self, card: str) -> bool:
        """Some card of the pack beats ``card``."""
        return bool(self.beaters_in_pack(card))

    def holds_trump(self, card: str) -> bool:
        """The seat holds a trump."""
        return any(suit_of(c) == self.trump for c in self.hand)

    def lowest_in_hand(self, card: str) -> bool:
        """No card in the seat's hand costs less than ``card``."""
        return all(self.cost(c) >= self.cost(card) for c in self.hand)

    def holds_higher(self, card: str) -> bool:
        """The seat holds a card that costs more than ``card``."""
        return any(self.cost(c) > self.cost(card) for c in self.hand)

    def harder_to_beat_than_lower(self, card: str) -> bool:
        """The seat holds a card that costs less than ``card``, and fewer cards of the pack
        beat ``card`` than beat any of those."""
        lower = [c for c in self.hand if self.cost(c) < self.cost(card)]
        count = len(self.beaters_in_pack(card))
        return bool(lower) and all(len(self.beaters_in_pack(c)) > count for c in lower)
