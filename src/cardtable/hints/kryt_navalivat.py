"""Kryt'-navalivat's reasons (SPEC §2): what a beat, a cover, a lead, a pick-up or the
swap of the six keeps and spends, from the seat's hand, the pile's top card, trumps and
the stock (:class:`~cardtable.hints.facts.Pile`). The unit is the chance of not being the
fool (KRYT-7.2): the search's own estimate, which no reason restates.

Cards compare as the rules' beating does (KRYT-3.1, KRYT-8.2): any card of another suit
below a trump, and within a suit by rank; the cheapest card to give up is the lowest that
is not a trump. Each rule names the facts its sentence states; the first rule whose facts
all hold gives the reason, else a close call or no rule.
"""

from __future__ import annotations

from collections.abc import Mapping

from cardtable.core import View
from cardtable.hints.facts import Pile
from cardtable.hints.reasons import Reason, Rule, first_true, no_rule

__all__ = ["BEAT", "COVER", "LEAD", "TAKE", "reason"]

UNIT = "not_fool"

GO_OUT: Rule[Pile] = Rule("go_out", "Go out: {card} is your last card.", (Pile.last_card,))

UNBEATABLE: Rule[Pile] = Rule(
    "unbeatable",
    "Nothing can beat {card}: the next player will have to pick up.",
    (Pile.unbeatable, Pile.next_must_respond),
)

ANTI_TRUMP: Rule[Pile] = Rule(
    "anti_trump",
    "Not even a trump beats {card}: only a higher card of its suit does.",
    (Pile.is_anti_trump, Pile.beatable),
)

NOT_A_TRUMP: Rule[Pile] = Rule(
    "not_a_trump",
    "Keep your trumps for later: {card} is not a trump.",
    (Pile.not_trump, Pile.holds_trump),
)

HARDER_TO_BEAT: Rule[Pile] = Rule(
    "harder_to_beat",
    "Fewer cards can beat {card} than can beat your lower ones.",
    (Pile.harder_to_beat_than_lower,),
)

TAKE: tuple[Rule[Pile], ...] = (
    Rule("take_no_beat", "Pick up: none of your cards beats the top card.", (Pile.none_beats_top,)),
    Rule(
        "take_keep_trump", "Pick up: beating would cost you a trump.", (Pile.only_trumps_beat_top,)
    ),
    Rule("take_few", "Pick up: it is only {count} cards.", (Pile.takes_few,)),
)
"""The rules for a pick-up (KRYT-5)."""

BEAT: tuple[Rule[Pile], ...] = (
    GO_OUT,
    Rule("beat_lowest", "Beat with {card}: your lowest card that beats.", (Pile.lowest_beater,)),
    Rule(
        "beat_keeps_lower",
        "Beat with {card}: you keep a lower card that beats for later.",
        (Pile.keeps_lower_beater,),
    ),
)
"""The rules for a beat (KRYT-4.2 (a))."""

COVER: tuple[Rule[Pile], ...] = (
    GO_OUT,
    UNBEATABLE,
    Rule(
        "cover_trump",
        "Cover with {card}: only a higher trump beats it.",
        (Pile.is_trump, Pile.beatable),
    ),
    ANTI_TRUMP,
    Rule(
        "cover_low",
        "Cover with {card}: none of your cards is lower, and the higher ones stay in hand "
        "to beat with.",
        (Pile.lowest_in_hand, Pile.holds_higher),
    ),
    NOT_A_TRUMP,
    HARDER_TO_BEAT,
)
"""The rules for a cover (KRYT-4.2 (a)): any card on the beating card."""

LEAD: tuple[Rule[Pile], ...] = (
    GO_OUT,
    UNBEATABLE,
    Rule(
        "lead_trump",
        "Lead {card}: only a higher trump beats it.",
        (Pile.is_trump, Pile.beatable),
    ),
    ANTI_TRUMP,
    Rule(
        "lead_lowest",
        "Lead {card}: none of your cards is lower, and the higher ones stay in hand to beat with.",
        (Pile.lowest_in_hand, Pile.holds_higher),
    ),
    NOT_A_TRUMP,
    HARDER_TO_BEAT,
)
"""The rules for a lead onto the pile (KRYT-4.1, KRYT-4.3)."""

SWAP: Rule[Pile] = Rule(
    "swap_six",
    "Swap: the turned card, {card}, is a higher trump than your six.",
    (Pile.turned_is_higher_trump,),
)
"""The swap of the six of trumps for the turned card (KRYT-6.1)."""


def reason(view: View, best: str, values: Mapping[str, float]) -> Reason:
    """Why ``best`` is the action to play from ``view``."""
    pile = Pile(view)
    verb, _, card = best.partition(" ")
    found: Reason | None = None
    if verb == "swap":
        turned = view["trump_card"] or ""
        found = first_true((SWAP,), pile, turned, {"card": turned})
    elif verb == "take":
        found = first_true(TAKE, pile, "", {})
        if found is not None and found.key == "take_few":
            found = Reason("take_few", {"count": len(pile.would_take)})
        if found is not None and found.key == "take_keep_trump":
            lowest = min(pile.hand_beaters(), key=pile.cost)
            found = Reason("take_keep_trump", {"card": lowest})
    elif verb in ("beat", "cover", "lead"):
        rules = {"beat": BEAT, "cover": COVER, "lead": LEAD}[verb]
        found = first_true(rules, pile, card, {"card": card})
    return found if found is not None else no_rule(best, values, UNIT)
