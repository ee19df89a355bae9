"""Kryt'-navalivat''s tutorial: two players, the learner against one bot, one hand to the end.

Built from KRYT-EX-7 (the six of trumps swapped for the turned card), KRYT-EX-5 (how many
cards a pick-up takes) and KRYT-EX-2 (the draw). The bot deals (dealer seat 1), so the
learner is dealt first and moves first (KRYT-2.3, KRYT-4); card 6 of the deck is turned
for trumps (H) and lies under the stock, drawn last (KRYT-2.4, KRYT-2.5).

The learner holds the six of trumps and swaps it at once; beats and covers; picks up the
whole pile when the bot covers with the ace of trumps, then one card and three; and ends
the hand by covering with the last card, which the bot's last card beats: a draw
(KRYT-7.3). Every learner move is one a good player makes: it beats with the lowest card
that does, a plain card before a trump, and it covers and picks up as the hints' analysis
rates best or within its margin (tests/web/test_tutorial_advice.py). Every learner step
says why (``tutorial.kryt.why.*``); the lesson ends with four ideas of good play
(``tutorial.kryt.tips.*``): when to pick up, keeping trumps and the six swap, covering with
a card the other player cannot beat, and what the ace of trumps is for.
"""

from __future__ import annotations

from cardtable.tutorial import Step, Tutorial

LEARNER, BOT = 0, 1


def why(name: str) -> str:
    return f"tutorial.kryt.why.{name}"


DECK = (
    "6H",
    "QC",
    "9C",
    "7C",
    "AD",
    "6D",
    "8H",
    "7S",
    "9H",
    "AH",
    "10C",
    "10S",
    "8S",
    "9S",
    "KC",
    "KH",
    "KS",
    "8C",
    "JC",
    "10H",
    "QS",
    "7D",
    "6C",
    "AC",
    "9D",
    "10D",
    "JD",
    "8D",
    "KD",
    "6S",
    "QH",
    "AS",
    "QD",
    "7H",
    "JH",
    "JS",
)

STEPS = (
    Step(
        LEARNER,
        "swap",
        why("swap"),
        lesson="tutorial.kryt.swap_six",
        topics=("swap_six",),
        rules=("KRYT-2.4", "KRYT-2.5", "KRYT-6.1", "KRYT-6.2", "KRYT-6.3"),
    ),
    Step(LEARNER, "lead 9C", why("lead_plain")),
    Step(BOT, "beat QC"),
    Step(BOT, "cover 7C"),
    Step(
        LEARNER,
        "beat 8H",
        why("beat_trump"),
        lesson="tutorial.kryt.beat",
        topics=("beat",),
        rules=("KRYT-3.1", "KRYT-3.2", "KRYT-4.2"),
    ),
    Step(
        LEARNER,
        "cover AD",
        why("cover_ace"),
        lesson="tutorial.kryt.cover",
        topics=("cover",),
        rules=("KRYT-4.2", "KRYT-4.4"),
    ),
    Step(BOT, "beat 9H"),
    # The bot covers with the ace of trumps: the learner must take the whole pile.
    Step(BOT, "cover AH"),
    Step(
        LEARNER,
        "take",
        why("take_all"),
        lesson="tutorial.kryt.pick_up_all",
        topics=("pick_up_all",),
        rules=("KRYT-3.2", "KRYT-5"),
    ),
    Step(BOT, "lead 6D"),
    Step(LEARNER, "beat AD", why("beat_suit")),
    Step(LEARNER, "cover 7S", why("cover_low")),
    Step(BOT, "beat 9S"),
    Step(BOT, "cover 8S"),
    Step(LEARNER, "beat 10S", why("beat_ten")),
    Step(LEARNER, "cover 7C", why("cover_seven")),
    Step(BOT, "beat KC"),
    Step(BOT, "cover KH"),
    Step(LEARNER, "beat AH", why("beat_ace")),
    Step(LEARNER, "cover 9C", why("cover_buried")),
    Step(BOT, "beat JC"),
    Step(BOT, "cover 8C"),
    Step(LEARNER, "beat 10C", why("beat_ten_clubs")),
    Step(LEARNER, "cover 8H", why("cover_trump")),
    Step(BOT, "beat 10H"),
    Step(BOT, "cover QS"),
    Step(
        LEARNER,
        "take",
        why("take_one"),
        lesson="tutorial.kryt.pick_up_one",
        topics=("pick_up_one",),
        rules=("KRYT-4.2", "KRYT-5"),
    ),
    # The bot has no trump above its own ten of hearts: it takes three cards.
    Step(BOT, "take"),
    Step(LEARNER, "beat QC", why("beat_queen")),
    Step(LEARNER, "cover 7D", why("cover_seven_diamonds")),
    Step(BOT, "beat 8H"),
    Step(BOT, "cover 10H"),
    Step(
        LEARNER,
        "take",
        why("take_three"),
        lesson="tutorial.kryt.pick_up_three",
        topics=("pick_up_three",),
        rules=("KRYT-5",),
    ),
    Step(BOT, "beat AC"),
    Step(BOT, "cover 6C"),
    Step(LEARNER, "beat 8H", why("beat_low_trump")),
    Step(LEARNER, "cover 7D", why("cover_seven_again")),
    # The bot picks up the cover, and the learner faces their own eight of hearts.
    Step(BOT, "take"),
    Step(LEARNER, "beat 9H", why("beat_own")),
    Step(LEARNER, "cover 9D", why("cover_nine_diamonds")),
    Step(BOT, "beat 10D"),
    Step(BOT, "cover 7D"),
    Step(LEARNER, "beat JD", why("beat_jack")),
    Step(LEARNER, "cover QS", why("cover_queen_spades")),
    Step(BOT, "beat KS"),
    Step(BOT, "cover 10C"),
    Step(LEARNER, "beat 10H", why("beat_ten_hearts")),
    Step(LEARNER, "cover 6S", why("cover_six")),
    Step(BOT, "beat AS"),
    Step(BOT, "cover 8D"),
    Step(LEARNER, "beat QD", why("beat_queen_diamonds")),
    Step(LEARNER, "cover KD", why("cover_king")),
    Step(BOT, "beat JH"),
    Step(BOT, "cover JS"),
    Step(LEARNER, "beat 6H", why("beat_six")),
    Step(
        LEARNER,
        "cover 7H",
        why("last_card"),
        lesson="tutorial.kryt.draw",
        topics=("draw",),
        rules=("KRYT-7.1", "KRYT-7.2", "KRYT-7.3"),
    ),
)

TUTORIAL = Tutorial(
    game="kryt-navalivat",
    options={"players": 2, "dealer": BOT},
    learner=LEARNER,
    decks=(DECK,),
    steps=STEPS,
    topics=("swap_six", "beat", "cover", "pick_up_one", "pick_up_three", "pick_up_all", "draw"),
    intro="tutorial.kryt.intro",
    done="tutorial.kryt.done",
    tips=tuple(f"tutorial.kryt.tips.{t}" for t in ("pick_up", "trumps", "cover", "ace")),
)
