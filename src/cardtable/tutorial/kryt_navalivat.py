"""Kryt'-navalivat''s tutorial: two players, the learner against one bot, one hand to the end.

Built from KRYT-EX-7 (the six of trumps swapped for the turned card), KRYT-EX-5 (how many
cards a pick-up takes) and KRYT-EX-2 (the draw). The bot deals (dealer seat 1), so the
learner is dealt first and moves first (KRYT-2.3, KRYT-4); card 6 of the deck is turned
for trumps (H) and lies under the stock, drawn last (KRYT-2.4, KRYT-2.5).

The learner holds the six of trumps and swaps it at once; beats and covers; picks up one
card, three and the whole pile; and ends the hand by covering with the last card, which
the bot's last card beats: a draw (KRYT-7.3). Every learner step says why
(``tutorial.kryt.why.*``); the lesson ends with four ideas of good play
(``tutorial.kryt.tips.*``): when to pick up, keeping trumps and the six swap, covering with
a card the other player cannot beat, and not burying a high trump under a card that can be
picked up.
"""

from __future__ import annotations

from cardtable.tutorial import Step, Tutorial

LEARNER, BOT = 0, 1


def why(name: str) -> str:
    return f"tutorial.kryt.why.{name}"


DECK = (
    "6H",
    "7C",
    "KH",
    "10S",
    "AD",
    "QC",
    "8H",
    "9C",
    "9D",
    "JS",
    "KS",
    "AH",
    "9S",
    "6D",
    "10C",
    "7S",
    "8S",
    "AC",
    "KC",
    "10D",
    "6C",
    "QS",
    "8C",
    "JC",
    "7H",
    "6S",
    "QH",
    "9H",
    "QD",
    "JH",
    "KD",
    "AS",
    "7D",
    "8D",
    "JD",
    "10H",
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
    Step(LEARNER, "lead KH", why("lead_king")),
    Step(BOT, "take"),
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
    Step(BOT, "beat KH"),
    Step(BOT, "cover 10S"),
    Step(LEARNER, "beat AH", why("beat_ace")),
    Step(LEARNER, "cover KS", why("cover_king")),
    Step(BOT, "take"),
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
    Step(BOT, "beat JS"),
    Step(BOT, "cover 9S"),
    Step(LEARNER, "beat AH", why("beat_buried")),
    Step(LEARNER, "cover 10C", why("cover_long")),
    Step(BOT, "beat AC"),
    Step(BOT, "cover 8S"),
    Step(LEARNER, "beat 10S", why("beat_ten")),
    Step(LEARNER, "cover QC", why("cover_queen")),
    Step(BOT, "beat KC"),
    Step(BOT, "cover 10D"),
    Step(LEARNER, "beat 8H", why("beat_low_trump")),
    Step(LEARNER, "cover KH", why("cover_unbeatable")),
    Step(BOT, "take"),
    Step(
        LEARNER,
        "take",
        why("take_one"),
        lesson="tutorial.kryt.pick_up_one",
        topics=("pick_up_one",),
        rules=("KRYT-4.2", "KRYT-5"),
    ),
    Step(BOT, "beat 8H"),
    Step(BOT, "cover QS"),
    Step(LEARNER, "take", why("take_queen")),
    Step(BOT, "beat KH"),
    Step(BOT, "cover 10D"),
    Step(LEARNER, "take", why("take_ten")),
    Step(BOT, "take"),
    Step(LEARNER, "beat QS", why("beat_picked")),
    Step(LEARNER, "cover 9C", why("cover_nine_clubs")),
    Step(BOT, "beat KH"),
    Step(BOT, "cover 8H"),
    Step(
        LEARNER,
        "take",
        why("take_three"),
        lesson="tutorial.kryt.pick_up_three",
        topics=("pick_up_three",),
        rules=("KRYT-5",),
    ),
    Step(BOT, "beat KS"),
    Step(BOT, "cover 8C"),
    Step(LEARNER, "beat 8H", why("beat_eight")),
    Step(LEARNER, "cover 7C", why("cover_seven")),
    Step(BOT, "beat QC"),
    Step(BOT, "cover 6C"),
    Step(LEARNER, "beat 9C", why("beat_nine")),
    Step(LEARNER, "cover 9D", why("cover_nine_diamonds")),
    Step(BOT, "beat 7H"),
    Step(BOT, "cover JC"),
    Step(LEARNER, "beat KC", why("beat_king")),
    Step(LEARNER, "cover 10D", why("cover_ten")),
    Step(BOT, "beat QH"),
    Step(BOT, "cover 9H"),
    Step(LEARNER, "beat KH", why("beat_trump_nine")),
    Step(LEARNER, "cover QD", why("cover_queen_diamonds")),
    Step(BOT, "beat KD"),
    Step(BOT, "cover AS"),
    Step(LEARNER, "beat JH", why("beat_ace_spades")),
    Step(LEARNER, "cover 8D", why("cover_eight")),
    Step(BOT, "beat JD"),
    Step(BOT, "cover 6S"),
    Step(LEARNER, "beat 6H", why("beat_six")),
    Step(
        LEARNER,
        "cover 7D",
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
    tips=tuple(f"tutorial.kryt.tips.{t}" for t in ("pick_up", "trumps", "cover", "bury")),
)
