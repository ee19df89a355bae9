"""Regenerate ``tests/fixtures/perft_neuf.json``: perft counts for Neuf.

``perft(state, d)`` is the number of distinct sequences of exactly ``d`` actions that can
be played from ``state`` (STYLE.md: python-chess keeps such counts for its move generator).
Deals are chance steps inside the actions and are not counted; a sequence that ends the
game before depth ``d`` does not count at depth ``d``. A change in the generation of legal
actions (the exchange decisions NEUF-3, follow-suit NEUF-4.2, the leader NEUF-4.1 and
NEUF-4.4, the end of the game NEUF-6 and NEUF-8.3) shows up as a changed number;
``tests/test_neuf_perft.py`` recomputes every count.

Run ``python scripts/regenerate_perft_neuf.py`` after a deliberate change to the rules, and
explain in the commit why the counts moved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardtable.testing import write_perft_fixture

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "perft_neuf.json"

# NEUF-EX-5's stacked deck (rules/EXAMPLES.md), top first; dealer C (seat 2) deals to
# A, B, C and the spare in turn, so A holds all 13 hearts (trumps on deal 1).
EX_5_DECK = (
    "2H 2C 3C 4C 3H 5C 6C 7C 4H 8C 9C 10C 5H JC QC KC 6H AC 2D 3D 7H 4D 5D 6D "
    "8H 7D 8D 9D 9H 10D JD QD 10H KD AD 2S JH 3S 4S 5S QH 6S 7S 8S KH 9S 10S JS "
    "AH QS KS AS"
)

# NEUF-EX-4's trick 10: deal 23 (trump S in H, D, S, C, NT), scores A 3, B 1, C 1, tricks
# won 1/4/4, C to lead holding AS 2D 3D 4D; A holds 4C 5C 2H 3H, B 2S 3S 2C 3C. Nine
# followed-in-suit tricks lead there; the spare holds the rest.
EX_4_TAKERS = [0, 1, 2] * 6 + [1, 2, 1, 2]
EX_4_LEDGER = "/".join(",".join("5" if s == t else "4" for s in range(3)) for t in EX_4_TAKERS)
EX_4_DONE = (
    "0:AH,1:6H,2:7H/0:6C,1:AC,2:7C/1:AD,2:6D,0:7D/1:8H,2:KH,0:9H/2:KC,0:8C,1:9C"
    "/2:8D,0:9D,1:KD/1:QH,2:10H,0:JH/1:10C,2:QC,0:JC/2:QD,0:10D,1:JD"
)
EX_4_PILES = (
    "4C,5C,2H,3H,AH,6C,7D,9H,8C,9D,JH,JC,10D"
    "/2S,3S,2C,3C,6H,AC,AD,8H,9C,KD,QH,10C,JD"
    "/AS,2D,3D,4D,7H,7C,6D,KH,KC,8D,10H,QC,QD"
    "/4S,5S,6S,7S,8S,9S,10S,JS,QS,KS,4H,5H,5D"
)
EX_4_POSITION = (
    f"neuf/1 players=3 sequence=HDSC-NT first=1 ledger={EX_4_LEDGER} phase=play "
    f"exchanges=0:k,1:k,2:k piles={EX_4_PILES} done={EX_4_DONE} trick=- seed=0 chance=23"
)

# A shuffled pack for the partnership game, top first; dealer seat 3, so seat 0 leads.
FOUR_PLAYER_DECK = (
    "2D 4H 5C 8D 5H 2H AS JD QH QC 8H 8C KC 6D 9H JS KD 7H 3C 7D 7C 4C 10D 7S 10S 6S 4S 3H "
    "5S 9D 9C JC AD QS 2S AC 3D JH 5D 8S 2C 9S 6C KS 3S 6H AH QD 10C 10H KH 4D"
)

POSITIONS: list[dict[str, Any]] = [
    {
        "name": "three-players-exchange-neuf-ex-5",
        "about": "NEUF-EX-5's deal before the exchange: dealer C (seat 2), hearts trump.",
        "options": {"players": 3, "dealer": 2},
        "deck": EX_5_DECK,
        "depth": 6,
    },
    {
        "name": "three-players-trick-10-neuf-ex-4",
        "about": "NEUF-EX-4's trick 10 (house rule off) to the end of deal 23, where "
        "every line ends the game: B or C takes a fifth trick (NEUF-6).",
        "options": {"players": 3, "trump_sequence": "HDSC-NT"},
        "position": EX_4_POSITION,
        "depth": 13,
    },
    {
        "name": "three-players-trick-10-neuf-ex-4-tie-avoidance",
        "about": "NEUF-EX-4's trick 10 with the house rule on (NEUF-8.3): a fifth trick "
        "for B or C ends the game at once.",
        "options": {"players": 3, "trump_sequence": "HDSC-NT", "tie_avoidance": True},
        "position": EX_4_POSITION,
        "depth": 4,
    },
    {
        "name": "four-players-deal-1",
        "about": "A shuffled deal to four players in partnership, dealer seat 3.",
        "options": {"players": 4, "dealer": 3},
        "deck": FOUR_PLAYER_DECK,
        "depth": 5,
    },
]


def main() -> None:
    write_perft_fixture(
        FIXTURE,
        "neuf",
        "Neuf perft counts: the number of action sequences of exactly each depth "
        "from each start (scripts/regenerate_perft_neuf.py).",
        POSITIONS,
        echo=print,
    )


if __name__ == "__main__":
    main()
