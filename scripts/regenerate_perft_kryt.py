"""Regenerate ``tests/fixtures/perft_kryt_navalivat.json``: perft counts for Kryt'-navalivat'.

``perft(state, d)`` is the number of distinct sequences of exactly ``d`` actions that can
be played from ``state`` (STYLE.md: python-chess keeps such counts for its move generator).
A beat is two actions, ``beat <card>`` then ``cover <card>`` (KRYT-4.6), and the swap of
the six of trumps is an action of its own (KRYT-6); a sequence that ends the hand before
depth ``d`` does not count at depth ``d``. A change in the generation of legal actions
(beating KRYT-3 and KRYT-8.2, the turn modes KRYT-4, picking up KRYT-5 and KRYT-8.3, the
swap KRYT-6, going out and the end of the hand KRYT-7) shows up as a changed number;
``tests/test_kryt_perft.py`` recomputes every count and checks the small depths against a
plain move generator written from the SPEC.

Run ``python scripts/regenerate_perft_kryt.py`` after a deliberate change to the rules,
and explain in the commit why the counts moved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardtable.testing import write_perft_fixture

FIXTURE = (
    Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "perft_kryt_navalivat.json"
)

# Shuffled packs, top first (the decks seeds 1-4 deal, kept as text so that the fixture
# does not hang on the shuffle). The last dealer's left leads: seat 0 in every entry.
TWO_TURNED_DECK = (
    "10S 7S 9C JS 6S JC QD 6D 6C 7C 9S 8H 10H KH KS 7D 8C KD 7H 10C JH 9D AH 8D 9H AD AC "
    "QH 8S QC QS KC JD AS 10D 6H"
)
THREE_TURNED_DECK = (
    "JD 10S JC 8D 7S AC 9S 9C AD KC QS 8H QD JS JH 7H KH AS 10D KS 7C QC 9H QH 7D 6D 6S 6C "
    "8S 10C 10H AH 9D 8C KD 6H"
)
TWO_PERMANENT_DECK = (
    "KS 9D QD 7H KC AS AC JH QC 8C JD 10H 6C 6H JS 8H 9H JC 10S QS 8S AD 10C 6D QH 8D 6S 7S "
    "AH 9S 7C 7D KD 9C KH 10D"
)
THREE_PERMANENT_DECK = (
    "8D KC JH 8S AH QC 10H QD AS KS 7S 6S 9D QS 8C 9S 6C 10C JS KD 10D 7D 8H JD KH 7H AC 9C "
    "7C JC 6D QH 10S 6H 9H AD"
)

# Two players, hearts trumps, QH turned: seat 0 faces 8S holding 6H 9S KD, so it may beat
# with 9S or with the trump 6H, pick up the 8S, or first swap its 6H for the QH (KRYT-6).
# Two face-down cards are left (8D on top, then JS); seat 1 holds 7C 10C AS.
SWAP_POSITION = (
    "kryt/1 players=2 trumps=H dealer=1 hands=6H,9S,KD/7C,10C,AS known=-/- "
    "pile=6C,8C,9C,JC,QC,KC,AC,6D,7D,9D,10D,JD,QD,AD,7H,8H,9H,10H,JH,KH,AH,6S,7S,10S,QS,"
    "KS,8S faceup=QH stock=8D,JS turn=respond to_move=0 result=- seed=0"
)

# Three players, clubs trumps, the stock gone: seat 0 has just beaten with its last card
# (QD on JD), leaving seats 1 (7H KC 8S) and 2 (9D AH) holding cards, so seat 1 has the
# free turn of KRYT-4.3: lead any card, beat the QD (with KC) and cover, or pick it up.
FREE_POSITION = (
    "kryt/1 players=3 trumps=C dealer=2 hands=-/7H,KC,8S/9D,AH known=-/-/- "
    "pile=6C,7C,8C,9C,10C,JC,QC,AC,6D,7D,8D,10D,KD,AD,6H,8H,9H,10H,JH,QH,KH,6S,7S,9S,10S,"
    "JS,QS,KS,AS,JD,QD faceup=- stock=- turn=free to_move=1 result=- seed=0"
)

POSITIONS: list[dict[str, Any]] = [
    {
        "name": "two-players-turned-deal",
        "about": "A shuffled deal to 2 players, dealer seat 1, trumps turned (QD).",
        "options": {"players": 2, "dealer": 1},
        "deck": TWO_TURNED_DECK,
        "depth": 12,
    },
    {
        "name": "three-players-turned-deal",
        "about": "A shuffled deal to 3 players, dealer seat 2, trumps turned (KC).",
        "options": {"players": 3, "dealer": 2},
        "deck": THREE_TURNED_DECK,
        "depth": 12,
    },
    {
        "name": "two-players-permanent-deal",
        "about": "A shuffled deal to 2 players, dealer seat 1, permanent trumps (KRYT-8).",
        "options": {"players": 2, "dealer": 1, "trump_mode": "permanent"},
        "deck": TWO_PERMANENT_DECK,
        "depth": 12,
    },
    {
        "name": "three-players-permanent-deal",
        "about": "A shuffled deal to 3 players, dealer seat 2, permanent trumps (KRYT-8).",
        "options": {"players": 3, "dealer": 2, "trump_mode": "permanent"},
        "deck": THREE_PERMANENT_DECK,
        "depth": 12,
    },
    {
        "name": "two-players-swap-available",
        "about": "Seat 0 may swap its 6H for the turned QH before beating or picking up "
        "(KRYT-6, K-9); the stock runs out within the first turns.",
        "options": {"players": 2, "dealer": 1},
        "position": SWAP_POSITION,
        "depth": 12,
    },
    {
        "name": "three-players-free-turn-endgame",
        "about": "The stock is empty and seat 0 has just gone out by beating: seat 1's free "
        "turn (KRYT-4.3, K-6), then the end of the hand with its draws (KRYT-7.3).",
        "options": {"players": 3, "dealer": 2},
        "position": FREE_POSITION,
        "depth": 14,
    },
]


def main() -> None:
    write_perft_fixture(
        FIXTURE,
        "kryt-navalivat",
        "Kryt'-navalivat' perft counts: the number of action sequences of exactly each "
        "depth from each start (scripts/regenerate_perft_kryt.py).",
        POSITIONS,
        echo=print,
    )


if __name__ == "__main__":
    main()
