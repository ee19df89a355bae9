"""The rules of thumb of the trick games (Knockout Whist, Neuf): what a card does to the
trick on the table, said from the public facts (the cards played this hand, the trick so
far, trumps) and the seat's own hand (:class:`~cardtable.hints.facts.TrickTable`).

A trick is taken by its highest trump, else by the highest card of the suit led
(KOW-4.3, NEUF-4.3); a player must follow suit if they can (KOW-4.2, NEUF-4.2). Each
rule names the facts its sentence states; the first rule whose facts all hold gives the
reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cardtable.core import View
from cardtable.hints.facts import TrickTable
from cardtable.hints.reasons import Reason, Rule, first_true, no_rule, suit_of

__all__ = ["LEAD", "TAKE", "YIELD", "play_reason"]

# The rules for a card that leads or takes the trick so far with seats still to play
# after it: what can still take the trick from it, whether it leads or follows.
SURE: tuple[Rule[TrickTable], ...] = (
    Rule(
        "highest_left",
        "Win this trick: no card still in play can beat {card}.",
        (TrickTable.takes_so_far, TrickTable.others_to_play, TrickTable.nothing_in_play_beats),
    ),
    Rule(
        "sure_win",
        "Win this trick: every card that could beat {card} is in your hand or already played.",
        (TrickTable.takes_so_far, TrickTable.others_to_play, TrickTable.only_own_cards_beat),
    ),
    Rule(
        "only_trump_beats",
        "Only a trump can take this trick from {card}: it is the highest card of its suit "
        "still in play.",
        (
            TrickTable.takes_so_far,
            TrickTable.others_to_play,
            TrickTable.not_trump_in_trump_deal,
            TrickTable.highest_of_suit_in_play,
        ),
    ),
    Rule(
        "as_good_as_higher",
        "Play {card}: only a trump can beat it, so it takes this trick as surely as your "
        "higher {suit} would.",
        (
            TrickTable.takes_so_far,
            TrickTable.others_to_play,
            TrickTable.not_trump_in_trump_deal,
            TrickTable.higher_of_suit_all_own,
        ),
    ),
)

LEAD: tuple[Rule[TrickTable], ...] = (
    *SURE,
    Rule(
        "draw_trumps",
        "Lead a trump: draw out any trumps the others hold before they can trump your other cards.",
        (
            TrickTable.leads,
            TrickTable.is_trump,
            TrickTable.trumps_unseen,
            TrickTable.holds_non_trump,
        ),
    ),
    Rule(
        "lead_low",
        "Lead low: none of your cards is lower than {card}; keep the higher ones for the "
        "tricks they can win.",
        (TrickTable.leads, TrickTable.lowest_in_hand, TrickTable.holds_higher),
    ),
    Rule(
        "lead_low_suit",
        "Lead {card}, the lowest of your {suit}: keep the higher ones for the tricks they can win.",
        (TrickTable.leads, TrickTable.lowest_of_suit, TrickTable.holds_higher_of_suit),
    ),
)
"""The rules for a lead."""

TAKE: tuple[Rule[TrickTable], ...] = (
    Rule(
        "win_cheap",
        "Win this trick with your lowest card that takes it.",
        (TrickTable.plays_last, TrickTable.cheapest_winner),
    ),
    *SURE,
    Rule(
        "trump_in",
        "Trump it: you have no {suit} left.",
        (
            TrickTable.takes_so_far,
            TrickTable.is_trump,
            TrickTable.led_not_trumps,
            TrickTable.void_in_led,
        ),
    ),
    Rule(
        "try_win",
        "Go for this trick: {card} takes it for now.",
        (TrickTable.takes_so_far, TrickTable.others_to_play),
    ),
)
"""The rules for a card that follows and beats the card taking the trick so far."""

YIELD: tuple[Rule[TrickTable], ...] = (
    Rule(
        "keep_trumps",
        "Keep your trumps for later: throw away a card you need less.",
        (
            TrickTable.does_not_take,
            TrickTable.void_in_led,
            TrickTable.holds_trump,
            TrickTable.not_trump_in_trump_deal,
        ),
    ),
    Rule(
        "partner_wins",
        "Play low: your partner already wins this trick.",
        (
            TrickTable.does_not_take,
            TrickTable.lowest_playable,
            TrickTable.winner_partner,
            TrickTable.winner_safe,
        ),
    ),
    Rule(
        "already_wins",
        "Play low: {name} already wins this trick.",
        (
            TrickTable.does_not_take,
            TrickTable.lowest_playable,
            TrickTable.winner_opponent,
            TrickTable.winner_safe,
        ),
    ),
    Rule(
        "partner_winning",
        "Play low: your partner is winning this trick so far.",
        (TrickTable.does_not_take, TrickTable.lowest_playable, TrickTable.winner_partner),
    ),
    Rule(
        "cannot_beat",
        "Play low: you cannot beat the card that is winning this trick.",
        (TrickTable.does_not_take, TrickTable.lowest_playable, TrickTable.cannot_beat),
    ),
    Rule(
        "duck",
        "Let this trick go: play low and keep your higher cards for later.",
        (TrickTable.does_not_take, TrickTable.lowest_playable, TrickTable.could_beat),
    ),
    Rule(
        "discard",
        "Discard {card}: you have no {suit} to follow with.",
        (TrickTable.does_not_take, TrickTable.void_in_led),
    ),
)
"""The rules for a card that follows and does not take the trick."""


def play_reason(
    view: View,
    card: str,
    values: Mapping[str, float],
    unit: str,
    friendly: Callable[[int], bool] = lambda seat: False,
) -> Reason:
    """Why ``card`` is the card to play now, in a trick game; ``friendly(seat)``: whether
    that seat's winning the trick is as good as the seat's own (Neuf's partner). Where no
    rule's facts hold, a close call or no rule (:func:`~cardtable.hints.reasons.no_rule`)."""
    table = TrickTable(view, friendly)
    params: dict[str, object] = {"card": card, "suit": suit_of(card)}
    if table.winning is None:
        rules = LEAD
    elif table.beats(card, table.winning[1]):
        rules = TAKE
    else:
        rules = YIELD
    reason = first_true(rules, table, card, params)
    if reason is None:
        return no_rule(f"play {card}", values, unit)
    if reason.key == "trump_in":
        assert table.led is not None
        return Reason("trump_in", {"card": card, "suit": table.led})
    if reason.key == "discard":
        assert table.led is not None
        return Reason("discard", {"card": card, "suit": table.led})
    if reason.key == "keep_trumps":
        return Reason("keep_trumps", {"card": card, "suit": table.trump})
    if reason.key in ("already_wins", "partner_wins", "partner_winning"):
        assert table.winning is not None
        return Reason(reason.key, {"card": card, "seat": table.winning[0]})
    return reason
