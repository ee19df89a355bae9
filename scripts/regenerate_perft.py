"""Regenerate ``tests/fixtures/perft_knockout_whist.json``: perft counts for Knockout Whist.

``perft(state, d)`` is the number of distinct sequences of exactly ``d`` actions that can
be played from ``state`` (STYLE.md: python-chess keeps such counts for its move generator).
Chance steps (deals, the turned trump, cuts) happen inside the actions and are not counted;
a sequence that ends the game before depth ``d`` does not count at depth ``d``. A change in
the generation of legal actions (follow-suit, knocks, leads, trump choices, the order of
play) shows up as a changed number; ``tests/test_perft.py`` recomputes every count.

Run ``python scripts/regenerate_perft.py`` after a deliberate change to the rules, and
explain in the commit why the counts moved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardtable.cards import DECK_52
from cardtable.testing import write_perft_fixture

FIXTURE = (
    Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "perft_knockout_whist.json"
)
ALL_CARDS = [str(card) for card in DECK_52]


def rest_of_pack(*used: str) -> str:
    """The cards not in ``used`` (space-separated texts), comma-separated in index order."""
    taken = {card for text in used for card in text.replace(",", " ").replace("/", " ").split()}
    return ",".join(card for card in ALL_CARDS if card not in taken)


# A shuffled pack, top first; dealt to seats 1, 2, 0 in turn, then 4C is turned.
THREE_PLAYER_DECK = (
    "2D 4H 5C 8D 5H 2H AS JD QH QC 8H 8C KC 6D 9H JS KD 7H 3C 7D 7C 4C 10D 7S 10S 6S 4S 3H "
    "5S 9D 9C JC AD QS 2S AC 3D JH 5D 8S 2C 9S 6C KS 3S 6H AH QD 10C 10H KH 4D"
)

# KOW-EX-1's stacked deck (rules/EXAMPLES.md): dealt to P2, P3, P4, P5, P1 in turn.
KOW_EX_1_DECK = (
    "7C 9C 4C JD 10C 3H 8D 4H KH 2H 6S AS 3S 4S 5S 10S KS 7S 8S 9S QC 5C 6C 5H 8C 6H 2S AH "
    "7H 8H 3C QS 2C 9H KC 3D JC AC 2D 4D 5D 6D 7D 9D 10D QD KD AD 10H JH QH JS"
)

# KOW-EX-3's hand 3 at the trump choice: P1 and P2 (seats 0, 1) are dogs holding JC and 2D,
# so knocks are generated at every trick but the last (KOW-6.3, W-3).
KOW_EX_3_HANDS = "JC/2D/5C,3H,6H,KS,AS/AC,KH,AH,3S,5S/7D,4H,JH,4S,6S"
KOW_EX_3_START = " ".join(
    [
        "kow/1 players=5 hand=3 dealer=2 phase=trump trump=- turned=- dog=used",
        "status=DDAAA out=- won=0,0,0,0,0 cuts=- chooser=3",
        f"hands={KOW_EX_3_HANDS} stock={rest_of_pack(KOW_EX_3_HANDS)}",
        "done=- trick=- seed=5 chance=3,0",
    ]
)

# KOW-EX-9's hand 6 of three players: X (seat 0) is a dog holding AD, clubs are trumps;
# hand 7 is stacked, so the counts run through the end of hand 6 (X knocked out or back),
# the deal of hand 7 with its cut, the trump choice, and the game's last trick.
KOW_EX_9_HANDS = "AD/2C,3C/KC,4H"
KOW_EX_9_HAND_7 = "AS,KD,QC,2H," + rest_of_pack("AS KD QC 2H")
KOW_EX_9_START = " ".join(
    [
        "kow/1 players=3 hand=6 dealer=2 phase=play trump=C turned=- dog=used",
        "status=DAA out=- won=0,0,0 cuts=- chooser=1",
        f"hands={KOW_EX_9_HANDS} stock={rest_of_pack(KOW_EX_9_HANDS)}",
        f"done=- trick=- seed=5 chance=6,0 stacked={KOW_EX_9_HAND_7}",
    ]
)

POSITIONS: list[dict[str, Any]] = [
    {
        "name": "three-players-hand-1",
        "about": "A shuffled deal to three players, dealer seat 0; 4C is turned (clubs trump).",
        "options": {"players": 3, "dealer": 0},
        "deck": THREE_PLAYER_DECK,
        "depth": 8,
    },
    {
        "name": "five-players-hand-1-kow-ex-1",
        "about": "KOW-EX-1's deal: five players, dealer P1 (seat 0), 3D turned.",
        "options": {"players": 5, "dealer": 0},
        "deck": KOW_EX_1_DECK,
        "depth": 10,
    },
    {
        "name": "five-players-hand-3-two-dogs-kow-ex-3",
        "about": "KOW-EX-3's hand 3 before P4 names trumps; P1 and P2 are dogs.",
        "options": {"players": 5, "dealer": 2},
        "position": KOW_EX_3_START,
        "depth": 13,
    },
    {
        "name": "three-players-hand-6-dog-to-game-end-kow-ex-9",
        "about": "KOW-EX-9's hand 6 (X a dog with AD), then a stacked hand 7, to the end.",
        "options": {"players": 3, "dealer": 2},
        "position": KOW_EX_9_START,
        "depth": 10,
    },
]


def main() -> None:
    write_perft_fixture(
        FIXTURE,
        "knockout-whist",
        "Knockout Whist perft counts: the number of action sequences of exactly "
        "each depth from each start (scripts/regenerate_perft.py).",
        POSITIONS,
        echo=print,
    )


if __name__ == "__main__":
    main()
