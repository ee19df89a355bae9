"""The rules of thumb of the trick games (Knockout Whist, Neuf): what a card does to the
trick on the table, said from the public facts (the cards played this hand, the trick so
far, trumps) and the seat's own hand.

A trick is taken by its highest trump, else by the highest card of the suit led
(KOW-4.3, NEUF-4.3); a player must follow suit if they can (KOW-4.2, NEUF-4.2).
"""

from __future__ import annotations

from collections.abc import Callable

from cardtable.core import View
from cardtable.hints.reasons import RANKS, Reason, rank_of, suit_of

__all__ = ["Trick", "play_reason"]


class Trick:
    """The facts of the seat's turn in a trick: its hand, the cards it may play, the trick
    so far and every card played this hand."""

    def __init__(self, view: View) -> None:
        self.seat: int = view["seat"]
        self.trump: str | None = view["trump"] if view["trump"] in ("C", "D", "H", "S") else None
        self.hand: list[str] = list(view["hand"])
        self.playable = [a.split()[1] for a in view["legal_actions"] if a.startswith("play ")]
        self.plays: list[tuple[int, str]] = [
            (int(s), str(c)) for s, c in view["trick"] if c != "knock"
        ]
        self.played = {c for t in view["tricks"] for _, c in t["plays"] if c != "knock"}
        self.played |= {c for _, c in self.plays}
        self.led: str | None = suit_of(self.plays[0][1]) if self.plays else None
        # The seats still to play in this trick after the seat to move: those holding cards
        # that have not played or knocked in it.
        acted = {int(s) for s, _ in view["trick"]} | {self.seat}
        self.after = [s for s, size in enumerate(view["hand_sizes"]) if size and s not in acted]

    def beats(self, card: str, other: str) -> bool:
        """Whether ``card``, played after ``other``, takes the trick from it."""
        if suit_of(card) == suit_of(other):
            return rank_of(card) > rank_of(other)
        return suit_of(card) == self.trump

    def winning(self) -> tuple[int, str] | None:
        """The play taking the trick so far: (seat, card)."""
        best: tuple[int, str] | None = None
        for seat, card in self.plays:
            if best is None or self.beats(card, best[1]):
                best = (seat, card)
        return best

    def highest_left(self, card: str) -> bool:
        """Whether every higher card of ``card``'s suit has been played this hand or is in
        the seat's own hand: nobody can follow suit above it."""
        suit = suit_of(card)
        higher = [f"{r}{suit}" for r in RANKS[rank_of(card) + 1 :]]
        return all(c in self.played or c in self.hand for c in higher)

    def trumps_out(self) -> bool:
        """Whether every trump is played or in the seat's own hand (or there are none)."""
        if self.trump is None:
            return True
        return all(f"{r}{self.trump}" in self.played | set(self.hand) for r in RANKS)

    def cost(self, card: str) -> tuple[bool, int]:
        """What playing ``card`` gives up, to compare cards: a trump more than any other
        card, then a higher rank more than a lower."""
        return suit_of(card) == self.trump, rank_of(card)

    def lowest_of_suit(self, card: str) -> bool:
        """Whether ``card`` is the seat's lowest card of its suit."""
        suit = suit_of(card)
        return all(rank_of(c) >= rank_of(card) for c in self.hand if suit_of(c) == suit)


def play_reason(
    view: View,
    card: str,
    fallback: Reason,
    friendly: Callable[[int], bool] = lambda seat: False,
) -> Reason:
    """Why ``card`` is the card to play now, in a trick game; ``fallback`` when no rule of
    thumb says it; ``friendly(seat)``: whether that seat's winning the trick is as good as
    the seat's own (Neuf's partner)."""
    trick = Trick(view)
    suit = suit_of(card)
    params = {"card": card, "suit": suit}
    win = trick.winning()
    if win is None:  # leading
        if trick.highest_left(card):
            return Reason("highest_left", params)
        if suit == trick.trump and not trick.trumps_out():
            return Reason("draw_trumps", params)
        if trick.lowest_of_suit(card):
            return Reason("lead_low", params)
        return fallback
    led = trick.led
    assert led is not None
    holds_led = any(suit_of(c) == led for c in trick.hand)
    if trick.beats(card, win[1]):
        if not trick.after:  # the trick's last card
            beaters = [c for c in trick.playable if trick.beats(c, win[1])]
            if min(beaters, key=trick.cost) == card:
                return Reason("win_cheap", params)
            return fallback
        if trick.highest_left(card):
            return Reason("highest_left", params)
        if suit == trick.trump and suit != led:
            return Reason("trump_in", {"card": card, "suit": led})
        return Reason("try_win", params)
    # The card does not take the trick.
    holds_trumps = trick.trump is not None and any(suit_of(c) == trick.trump for c in trick.hand)
    if not holds_led and holds_trumps and suit != trick.trump:
        return Reason("keep_trumps", {"card": card, "suit": trick.trump})
    if trick.lowest_of_suit(card):
        if friendly(win[0]):
            return Reason("partner_wins", {"card": card, "seat": win[0]})
        return Reason("already_wins", {"card": card, "seat": win[0]})
    return fallback
