"""Neuf's tutorial: the standard three-player game, the learner against two bots.

Built from NEUF-EX-6 (the exchange chain) and NEUF-EX-1 (the score sheet, one deal). Seat
2 deals, so the learner (seat 0, the dealer's left) decides first whether to exchange, and
leads (NEUF-3.1, NEUF-4.1); hearts are trumps in the first deal (NEUF-2.1). The deck is
dealt one card at a time to the learner, seat 1, the dealer and the spare (NEUF-2.3).

The learner's hand is weak and the spare strong: the learner exchanges blind, seat 1
keeps, and the dealer takes the hand the learner put down. The learner cashes its black
aces and kings first and keeps its lone ace of diamonds, which wins seat 1's diamond lead
without spending a trump (the hints' analysis finds leading it first worse by some 0.3
tricks: tests/web/test_tutorial_advice.py), draws trumps, cashes its sure tricks and loses
its last card, a club. It takes eleven tricks, four of them the quota, and ends the deal
at 2. Every learner step says why (``tutorial.neuf.why.*``); the lesson ends with four
ideas of good play (``tutorial.neuf.tips.*``): the spare's value, counting to the quota,
drawing trumps, and leading to a partner in the four-player game.
"""

from __future__ import annotations

from typing import Any

from cardtable.tutorial import Step, Tutorial

LEARNER = 0

# The four piles, in the order dealt: the learner, seat 1, the dealer (seat 2), the spare.
_LEARNER_HAND = "2C 4C 7C 9C 3D 5D 8D 2S 3S 6S 8S 10S JD".split()
_SEAT_1_HAND = "2H 5H 8H 10H 3C 8C JC QC 4D 7D 10D KD 9S".split()
_DEALER_HAND = "3H 6H 7H 5C 10C 2D 6D 9D QD 4S 7S JS QS".split()
_SPARE = "AH KH QH JH 9H 4H AS KS AC KC AD 6C 5S".split()
DECK = tuple(
    card
    for row in zip(_LEARNER_HAND, _SEAT_1_HAND, _DEALER_HAND, _SPARE, strict=True)
    for card in row
)

# Every action of the first deal; the lessons are placed on the learner's steps below.
_PLAY = [
    (0, "exchange"), (1, "keep"), (2, "exchange"),
    (0, "play AS"), (1, "play 9S"), (2, "play 2S"),
    (0, "play AC"), (1, "play 3C"), (2, "play 2C"),
    (0, "play KC"), (1, "play 8C"), (2, "play 4C"),
    (0, "play KS"), (1, "play 2H"), (2, "play 3S"),
    (1, "play KD"), (2, "play 3D"), (0, "play AD"),
    (0, "play JH"), (1, "play 5H"), (2, "play 6S"),
    (0, "play QH"), (1, "play 8H"), (2, "play 8S"),
    (0, "play KH"), (1, "play 10H"), (2, "play 10S"),
    (0, "play 9H"), (1, "play 7D"), (2, "play 5D"),
    (0, "play 5S"), (1, "play 4D"), (2, "play 8D"),
    (0, "play AH"), (1, "play 10D"), (2, "play JD"),
    (0, "play 4H"), (1, "play QC"), (2, "play 7C"),
    (0, "play 6C"), (1, "play JC"), (2, "play 9C"),
]  # fmt: skip

# Why each of the learner's moves is the one to make (tutorial.neuf.why.*).
_WHY = {
    0: "weak_hand",
    3: "keep_ace",
    6: "ace_clubs",
    9: "king_clubs",
    12: "king_spades",
    17: "ace_follows",
    18: "draw_trumps",
    21: "draw_more",
    24: "last_trump",
    27: "nine_wins",
    30: "winners_first",
    33: "ace_trumps",
    36: "low_trump",
    39: "last_card",
}

# The rules each lesson explains, at the step where they first matter.
_LESSONS: dict[int, dict[str, Any]] = {
    0: {
        "lesson": "tutorial.neuf.exchange",
        "topics": ("exchange",),
        "rules": ("NEUF-2.3", "NEUF-3.1", "NEUF-3.2", "NEUF-3.5"),
    },
    3: {
        "lesson": "tutorial.neuf.spare",
        "topics": ("spare",),
        "rules": ("NEUF-3.3", "NEUF-3.4", "NEUF-4.1", "NEUF-4.2", "NEUF-5.2"),
    },
    17: {
        "lesson": "tutorial.neuf.trumps",
        "topics": ("trumps",),
        "rules": ("NEUF-4.2", "NEUF-4.3"),
    },
    18: {
        "lesson": "tutorial.neuf.quota",
        "topics": ("quota",),
        "rules": ("NEUF-5.1", "NEUF-5.2", "NEUF-6.1"),
    },
}

STEPS = tuple(
    Step(seat, action, f"tutorial.neuf.why.{_WHY[i]}", **_LESSONS.get(i, {}))
    if seat == LEARNER
    else Step(seat, action)
    for i, (seat, action) in enumerate(_PLAY)
)

TUTORIAL = Tutorial(
    game="neuf",
    options={"players": 3, "dealer": 2},
    learner=LEARNER,
    decks=(DECK,),
    steps=STEPS,
    topics=("exchange", "spare", "quota", "trumps"),
    intro="tutorial.neuf.intro",
    done="tutorial.neuf.done",
    tips=tuple(f"tutorial.neuf.tips.{t}" for t in ("spare", "quota", "trumps", "partners")),
)
