"""Knockout Whist's tutorial: two players, the learner against one bot.

Built from KOW-EX-1 (the turned trump of hand 1), KOW-EX-2 (no trick: the dog's life),
KOW-EX-9 (a dog knocks) and KOW-EX-10 (a dog wins a trick and is back in the game). The
bot deals hand 1 (dealer seat 1), so the learner leads; the deck is dealt one card at a
time from the dealer's left (KOW-2.3) and card 14 is turned for trumps (KOW-3.1).

Hand 1: the learner's weak cards take no trick, so the learner gets the dog's life. Hand 2:
the learner holds one card, knocks on a trick it would lose, and wins the next with it.
Every learner step says why (``tutorial.kow.why.*``); the lesson ends with four ideas of
good play (``tutorial.kow.tips.*``): counting trumps, naming trumps, the dog's life, and
keeping a sure trick.
"""

from __future__ import annotations

from cardtable.cards import DECK_52
from cardtable.tutorial import Step, Tutorial

LEARNER, BOT = 0, 1


def _deck(*dealt: str) -> tuple[str, ...]:
    """A 52-card deck: ``dealt`` on top, then every other card in index order."""
    rest = [str(c) for c in DECK_52 if str(c) not in dealt]
    return (*dealt, *rest)


def _interleave(first: list[str], second: list[str]) -> list[str]:
    return [card for pair in zip(first, second, strict=True) for card in pair]


# Hand 1: dealt to the learner (dealer's left) first, then the bot; 5C is turned: clubs.
HAND_1 = _deck(
    *_interleave(
        ["AS", "6S", "9H", "7H", "4H", "2D", "3D"], ["3C", "9C", "AH", "KH", "QH", "AD", "KD"]
    ),
    "5C",
)
# Hand 2: the learner deals; the bot (dealer's left) gets the first card, the learner on a
# dog's life one card only (KOW-6.2), the bot the rest of its six.
HAND_2 = _deck("KC", "2C", "QC", "JC", "8D", "7D", "6D")


def _l(action: str, why: str, **lesson: object) -> Step:
    return Step(LEARNER, action, f"tutorial.kow.why.{why}", **lesson)  # type: ignore[arg-type]


def _b(action: str) -> Step:
    return Step(BOT, action)


STEPS = (
    # Hand 1, trick 1: the learner leads; the bot has no spade and trumps.
    _l(
        "play AS",
        "lead_ace",
        lesson="tutorial.kow.lead",
        topics=("lead",),
        rules=("KOW-3.1", "KOW-4.1", "KOW-4.2"),
    ),
    _b("play 3C"),
    # Trick 2: the bot leads hearts; the learner must follow suit.
    _b("play AH"),
    _l(
        "play 4H",
        "lowest_heart",
        lesson="tutorial.kow.trumps_follow",
        topics=("trumps", "follow_suit"),
        rules=("KOW-1.2", "KOW-4.2", "KOW-4.3"),
    ),
    _b("play KH"),
    _l("play 7H", "lower_heart"),
    _b("play QH"),
    _l("play 9H", "last_heart"),
    # Trick 5: trumps are led and the learner has none: any card.
    _b("play 9C"),
    _l(
        "play 6S",
        "discard",
        lesson="tutorial.kow.no_suit",
        topics=("discard",),
        rules=("KOW-4.2",),
    ),
    _b("play AD"),
    _l("play 2D", "lowest_diamond", lesson="tutorial.kow.last_tricks", rules=("KOW-5.1",)),
    _b("play KD"),
    _l("play 3D", "last_card"),
    # Hand 2: the bot took most tricks and names trumps after the deal (KOW-3.2, KOW-3.3).
    _b("trump C"),
    _b("play KC"),
    _l(
        "knock",
        "knock",
        lesson="tutorial.kow.dogs_life",
        topics=("knock",),
        rules=("KOW-3.2", "KOW-5.1", "KOW-6.1", "KOW-6.2", "KOW-6.3"),
    ),
    _b("play 8D"),
    _l(
        "play 2C",
        "dog_trumps",
        lesson="tutorial.kow.dog_plays",
        topics=("dogs_life",),
        rules=("KOW-6.3", "KOW-6.5"),
    ),
    # The learner has no card left: the bot plays the rest of the hand alone (KOW-4.5).
    _b("play QC"),
    _b("play JC"),
    _b("play 7D"),
    _b("play 6D"),
)

TUTORIAL = Tutorial(
    game="knockout-whist",
    options={"players": 2, "dealer": BOT},
    learner=LEARNER,
    decks=(HAND_1, HAND_2),
    steps=STEPS,
    topics=("lead", "trumps", "follow_suit", "discard", "dogs_life", "knock"),
    intro="tutorial.kow.intro",
    done="tutorial.kow.done",
    tips=tuple(f"tutorial.kow.tips.{t}" for t in ("count", "choose", "dog", "one_trick")),
)
