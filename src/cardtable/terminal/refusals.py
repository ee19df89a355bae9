"""Why a move is refused, in words, with the screen's card symbols: the rules' reason codes
(``cardtable.refusals``) as the terminal says them, each with the rule it cites."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import Card, Suit
from cardtable.refusals import Refusal
from cardtable.rules.kryt_navalivat.beating import ACE
from cardtable.terminal.cards import card_markup, suit_markup

__all__ = ["refusal_words"]

# Details that name a card, a suit or a seat, and so are drawn as the screen draws them.
CARDS = frozenset({"card", "top", "six"})
SUITS = frozenset({"suit", "trump", "anti_trump"})
SEATS = frozenset({"seat", "to_move"})

WORDS = {
    "not_your_turn": "It is {to_move}'s turn, not yours.",
    "game_over": "The game is over: there are no more moves.",
    "not_legal": "The rules do not allow that move now.",
    "not_in_hand": "You do not hold {card}.",
    "must_follow_suit": "You must follow suit: you hold {suit} (the suit led).",
    "must_decide_exchange": "First decide: exchange your hand for the spare, or keep it "
    "(NEUF-3.1).",
    "exchange_is_over": "The exchange is over: each player decides once, before the play "
    "(NEUF-3.1).",
    "no_exchange_in_partnership": "The four-player game has no spare to exchange with (NEUF-8.4).",
    "must_choose_trumps": "Trumps must be chosen before anyone plays (KOW-3.2).",
    "trumps_already_set": "Trumps are already {trump} in this hand (KOW-3.2).",
    "only_a_dog_knocks": "Only a player on the dog's life may knock; you must play a card "
    "(KOW-6.4).",
    "no_knock_on_the_last_trick": "This is the last trick: you must play your card (W-3).",
    "must_lead": "The pile is empty: lead a card (KRYT-4.1).",
    "nothing_to_pick_up": "The pile is empty: there is nothing to pick up; lead a card.",
    "must_beat_or_pick_up": "{top} is on top: beat it (then cover), or pick up (KRYT-4.2).",
    "must_cover": "Cover your beat {top} first: put any card you hold on it (KRYT-4.2a).",
    "no_pick_up_between_beat_and_cover": "You may not pick up between a beat and its cover: "
    "cover {top} with any card you hold (KRYT-4.2a).",
    "cover_only_on_ones_beat": "A cover goes only on your own beat; {top} is on top: beat it "
    "or pick up (KRYT-4.2a).",
    "no_swap_with_permanent_trumps": "No card is turned with permanent trumps, so there is no "
    "swap (KRYT-8.1).",
    "no_swap_trump_card_drawn": "The turned card has been drawn: there is nothing to swap "
    "(KRYT-6.2).",
    "no_swap_six_turned": "The turned card is the six itself (KRYT-6.2).",
    "no_swap_without_six": "Only the holder of the six of trumps, {six}, may swap.",
}


def refusal_words(refusal: Refusal, names: Sequence[str]) -> str:
    """``refusal`` as one sentence of Rich markup; ``names`` are the seats' labels."""
    details = refusal.details
    if refusal.reason == "cannot_beat":
        return _cannot_beat(details)
    shown: dict[str, str] = {}
    for key, value in details.items():
        if key in CARDS:
            shown[key] = card_markup(str(value))
        elif key in SUITS:
            shown[key] = suit_markup(str(value))
        elif key in SEATS:
            shown[key] = names[int(value)]
        else:
            shown[key] = str(value)
    template = WORDS.get(refusal.reason, WORDS["not_legal"])
    return template.format(**shown)


def _cannot_beat(details: dict[str, str | int]) -> str:
    """KRYT-3 and KRYT-8.2: what would beat the top card, when the card played does not."""
    card, top = str(details["card"]), Card.parse(str(details["top"]))
    trump = Suit.parse(str(details["trump"]))
    anti = Suit.parse(str(details["anti_trump"])) if "anti_trump" in details else None
    suit = top.suit.name.lower().rstrip("s")  # "a higher heart"
    if top.suit in (trump, anti) and int(top.rank) - 2 == ACE:
        what = "nothing beats it (KRYT-3.2, KRYT-8.2)"
    elif top.suit == trump:
        what = f"only a higher {suit} (a trump) beats it (KRYT-3.2)"
    elif top.suit == anti:
        what = f"only a higher {suit} beats an anti-trump (KRYT-8.2)"
    else:
        what = f"a higher {suit} or any trump beats it (KRYT-3.1)"
    return f"{card_markup(card)} does not beat {card_markup(str(top))}: {what}."
