"""Regenerate the perft fixtures ``tests/fixtures/perft_<game>.json``: perft counts for
Knockout Whist, Neuf and Kryt'-navalivat'.

``perft(state, d)`` is the number of distinct sequences of exactly ``d`` actions that can
be played from ``state`` (STYLE.md: python-chess keeps such counts for its move generator).
Chance steps (deals, the turned trump, cuts) happen inside the actions and are not counted;
a sequence that ends the game before depth ``d`` does not count at depth ``d``. A change in
the generation of legal actions shows up as a changed number:

* Knockout Whist (``tests/rules/test_perft.py``): follow-suit, knocks, leads, trump choices, the
  order of play.
* Neuf (``tests/rules/test_neuf_perft.py``): the exchange decisions NEUF-3, follow-suit
  NEUF-4.2, the leader NEUF-4.1 and NEUF-4.4, the end of the game NEUF-6 and NEUF-8.3.
* Kryt'-navalivat' (``tests/rules/test_kryt_navalivat_perft.py``, which also checks the small
  depths against a plain move generator written from the SPEC): a beat is two actions,
  ``beat <card>`` then ``cover <card>`` (KRYT-4.6), and the swap of the six of trumps is an
  action of its own (KRYT-6); beating KRYT-3 and KRYT-8.2, the turn modes KRYT-4, picking up
  KRYT-5 and KRYT-8.3, the swap KRYT-6, going out and the end of the hand KRYT-7.

Each test recomputes every count of its fixture. Run ``python scripts/regenerate_perft.py``
(every game) or ``python scripts/regenerate_perft.py neuf`` (the games named) after a
deliberate change to the rules, and explain in the commit why the counts moved.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.cards import DECK_52
from cardtable.testing import write_perft_fixture

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"

# Knockout Whist ---------------------------------------------------------------------------

ALL_CARDS = [str(card) for card in DECK_52]


def rest_of_pack(*used: str) -> str:
    """The cards not in ``used`` (space-separated texts), comma-separated in index order."""
    taken = {card for text in used for card in text.replace(",", " ").replace("/", " ").split()}
    return ",".join(card for card in ALL_CARDS if card not in taken)


# A shuffled pack, top first; dealt to seats 1, 2, 0 in turn, then 4C is turned.
KOW_THREE_PLAYER_DECK = (
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

KNOCKOUT_WHIST_POSITIONS: list[dict[str, Any]] = [
    {
        "name": "three-players-hand-1",
        "about": "A shuffled deal to three players, dealer seat 0; 4C is turned (clubs trump).",
        "options": {"players": 3, "dealer": 0},
        "deck": KOW_THREE_PLAYER_DECK,
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


# Neuf ------------------------------------------------------------------------------------

# NEUF-EX-5's stacked deck (rules/EXAMPLES.md), top first; dealer C (seat 2) deals to
# A, B, C and the spare in turn, so A holds all 13 hearts (trumps on deal 1).
NEUF_EX_5_DECK = (
    "2H 2C 3C 4C 3H 5C 6C 7C 4H 8C 9C 10C 5H JC QC KC 6H AC 2D 3D 7H 4D 5D 6D "
    "8H 7D 8D 9D 9H 10D JD QD 10H KD AD 2S JH 3S 4S 5S QH 6S 7S 8S KH 9S 10S JS "
    "AH QS KS AS"
)

# NEUF-EX-4's trick 10: deal 23 (trump S in H, D, S, C, NT), scores A 3, B 1, C 1, tricks
# won 1/4/4, C to lead holding AS 2D 3D 4D; A holds 4C 5C 2H 3H, B 2S 3S 2C 3C. Nine
# followed-in-suit tricks lead there; the spare holds the rest.
NEUF_EX_4_TAKERS = [0, 1, 2] * 6 + [1, 2, 1, 2]
NEUF_EX_4_LEDGER = "/".join(
    ",".join("5" if s == t else "4" for s in range(3)) for t in NEUF_EX_4_TAKERS
)
NEUF_EX_4_DONE = (
    "0:AH,1:6H,2:7H/0:6C,1:AC,2:7C/1:AD,2:6D,0:7D/1:8H,2:KH,0:9H/2:KC,0:8C,1:9C"
    "/2:8D,0:9D,1:KD/1:QH,2:10H,0:JH/1:10C,2:QC,0:JC/2:QD,0:10D,1:JD"
)
NEUF_EX_4_PILES = (
    "4C,5C,2H,3H,AH,6C,7D,9H,8C,9D,JH,JC,10D"
    "/2S,3S,2C,3C,6H,AC,AD,8H,9C,KD,QH,10C,JD"
    "/AS,2D,3D,4D,7H,7C,6D,KH,KC,8D,10H,QC,QD"
    "/4S,5S,6S,7S,8S,9S,10S,JS,QS,KS,4H,5H,5D"
)
NEUF_EX_4_POSITION = (
    f"neuf/1 players=3 sequence=HDSC-NT first=1 ledger={NEUF_EX_4_LEDGER} phase=play "
    f"exchanges=0:k,1:k,2:k piles={NEUF_EX_4_PILES} done={NEUF_EX_4_DONE} trick=- seed=0 chance=23"
)

# A shuffled pack for the partnership game, top first; dealer seat 3, so seat 0 leads.
NEUF_FOUR_PLAYER_DECK = (
    "2D 4H 5C 8D 5H 2H AS JD QH QC 8H 8C KC 6D 9H JS KD 7H 3C 7D 7C 4C 10D 7S 10S 6S 4S 3H "
    "5S 9D 9C JC AD QS 2S AC 3D JH 5D 8S 2C 9S 6C KS 3S 6H AH QD 10C 10H KH 4D"
)

NEUF_POSITIONS: list[dict[str, Any]] = [
    {
        "name": "three-players-exchange-neuf-ex-5",
        "about": "NEUF-EX-5's deal before the exchange: dealer C (seat 2), hearts trump.",
        "options": {"players": 3, "dealer": 2},
        "deck": NEUF_EX_5_DECK,
        "depth": 6,
    },
    {
        "name": "three-players-trick-10-neuf-ex-4",
        "about": "NEUF-EX-4's trick 10 (house rule off) to the end of deal 23, where "
        "every line ends the game: B or C takes a fifth trick (NEUF-6).",
        "options": {"players": 3, "trump_sequence": "HDSC-NT"},
        "position": NEUF_EX_4_POSITION,
        "depth": 13,
    },
    {
        "name": "three-players-trick-10-neuf-ex-4-tie-avoidance",
        "about": "NEUF-EX-4's trick 10 with the house rule on (NEUF-8.3): a fifth trick "
        "for B or C ends the game at once.",
        "options": {"players": 3, "trump_sequence": "HDSC-NT", "tie_avoidance": True},
        "position": NEUF_EX_4_POSITION,
        "depth": 4,
    },
    {
        "name": "four-players-deal-1",
        "about": "A shuffled deal to four players in partnership, dealer seat 3.",
        "options": {"players": 4, "dealer": 3},
        "deck": NEUF_FOUR_PLAYER_DECK,
        "depth": 5,
    },
]


# Kryt'-navalivat' ------------------------------------------------------------------------

# Shuffled packs, top first (the decks seeds 1-4 deal, kept as text so that the fixture
# does not hang on the shuffle). The last dealer's left leads: seat 0 in every entry.
KRYT_NAVALIVAT_TWO_TURNED_DECK = (
    "10S 7S 9C JS 6S JC QD 6D 6C 7C 9S 8H 10H KH KS 7D 8C KD 7H 10C JH 9D AH 8D 9H AD AC "
    "QH 8S QC QS KC JD AS 10D 6H"
)
KRYT_NAVALIVAT_THREE_TURNED_DECK = (
    "JD 10S JC 8D 7S AC 9S 9C AD KC QS 8H QD JS JH 7H KH AS 10D KS 7C QC 9H QH 7D 6D 6S 6C "
    "8S 10C 10H AH 9D 8C KD 6H"
)
KRYT_NAVALIVAT_TWO_PERMANENT_DECK = (
    "KS 9D QD 7H KC AS AC JH QC 8C JD 10H 6C 6H JS 8H 9H JC 10S QS 8S AD 10C 6D QH 8D 6S 7S "
    "AH 9S 7C 7D KD 9C KH 10D"
)
KRYT_NAVALIVAT_THREE_PERMANENT_DECK = (
    "8D KC JH 8S AH QC 10H QD AS KS 7S 6S 9D QS 8C 9S 6C 10C JS KD 10D 7D 8H JD KH 7H AC 9C "
    "7C JC 6D QH 10S 6H 9H AD"
)

# Two players, hearts trumps, QH turned: seat 0 faces 8S holding 6H 9S KD, so it may beat
# with 9S or with the trump 6H, pick up the 8S, or first swap its 6H for the QH (KRYT-6).
# Two face-down cards are left (8D on top, then JS); seat 1 holds 7C 10C AS.
KRYT_NAVALIVAT_SWAP_POSITION = (
    "kryt/1 players=2 trumps=H dealer=1 hands=6H,9S,KD/7C,10C,AS known=-/- "
    "pile=6C,8C,9C,JC,QC,KC,AC,6D,7D,9D,10D,JD,QD,AD,7H,8H,9H,10H,JH,KH,AH,6S,7S,10S,QS,"
    "KS,8S faceup=QH stock=8D,JS turn=respond to_move=0 result=- seed=0"
)

# Three players, clubs trumps, the stock gone: seat 0 has just beaten with its last card
# (QD on JD), leaving seats 1 (7H KC 8S) and 2 (9D AH) holding cards, so seat 1 has the
# free turn of KRYT-4.3: lead any card, beat the QD (with KC) and cover, or pick it up.
KRYT_NAVALIVAT_FREE_POSITION = (
    "kryt/1 players=3 trumps=C dealer=2 hands=-/7H,KC,8S/9D,AH known=-/-/- "
    "pile=6C,7C,8C,9C,10C,JC,QC,AC,6D,7D,8D,10D,KD,AD,6H,8H,9H,10H,JH,QH,KH,6S,7S,9S,10S,"
    "JS,QS,KS,AS,JD,QD faceup=- stock=- turn=free to_move=1 result=- seed=0"
)

KRYT_NAVALIVAT_POSITIONS: list[dict[str, Any]] = [
    {
        "name": "two-players-turned-deal",
        "about": "A shuffled deal to 2 players, dealer seat 1, trumps turned (QD).",
        "options": {"players": 2, "dealer": 1},
        "deck": KRYT_NAVALIVAT_TWO_TURNED_DECK,
        "depth": 12,
    },
    {
        "name": "three-players-turned-deal",
        "about": "A shuffled deal to 3 players, dealer seat 2, trumps turned (KC).",
        "options": {"players": 3, "dealer": 2},
        "deck": KRYT_NAVALIVAT_THREE_TURNED_DECK,
        "depth": 12,
    },
    {
        "name": "two-players-permanent-deal",
        "about": "A shuffled deal to 2 players, dealer seat 1, permanent trumps (KRYT-8).",
        "options": {"players": 2, "dealer": 1, "trump_mode": "permanent"},
        "deck": KRYT_NAVALIVAT_TWO_PERMANENT_DECK,
        "depth": 12,
    },
    {
        "name": "three-players-permanent-deal",
        "about": "A shuffled deal to 3 players, dealer seat 2, permanent trumps (KRYT-8).",
        "options": {"players": 3, "dealer": 2, "trump_mode": "permanent"},
        "deck": KRYT_NAVALIVAT_THREE_PERMANENT_DECK,
        "depth": 12,
    },
    {
        "name": "two-players-swap-available",
        "about": "Seat 0 may swap its 6H for the turned QH before beating or picking up "
        "(KRYT-6, K-9); the stock runs out within the first turns.",
        "options": {"players": 2, "dealer": 1},
        "position": KRYT_NAVALIVAT_SWAP_POSITION,
        "depth": 12,
    },
    {
        "name": "three-players-free-turn-endgame",
        "about": "The stock is empty and seat 0 has just gone out by beating: seat 1's free "
        "turn (KRYT-4.3, K-6), then the end of the hand with its draws (KRYT-7.3).",
        "options": {"players": 3, "dealer": 2},
        "position": KRYT_NAVALIVAT_FREE_POSITION,
        "depth": 14,
    },
]


@dataclass(frozen=True)
class Fixture:
    """One game's perft fixture: where it is written, its description and its starts."""

    path: Path
    title: str
    positions: list[dict[str, Any]]


FIXTURES_BY_GAME = {
    "knockout-whist": Fixture(
        FIXTURES / "perft_knockout_whist.json", "Knockout Whist", KNOCKOUT_WHIST_POSITIONS
    ),
    "neuf": Fixture(FIXTURES / "perft_neuf.json", "Neuf", NEUF_POSITIONS),
    "kryt-navalivat": Fixture(
        FIXTURES / "perft_kryt_navalivat.json", "Kryt'-navalivat'", KRYT_NAVALIVAT_POSITIONS
    ),
}


def regenerate(game: str) -> None:
    """Write ``game``'s fixture, printing each start's counts."""
    fixture = FIXTURES_BY_GAME[game]
    write_perft_fixture(
        fixture.path,
        game,
        f"{fixture.title} perft counts: the number of action sequences of exactly each depth "
        "from each start (scripts/regenerate_perft.py).",
        fixture.positions,
        echo=print,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Regenerate the perft fixtures tests/fixtures/perft_<game>.json."
    )
    parser.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help=f"the games whose fixtures to write ({', '.join(FIXTURES_BY_GAME)}); all by default",
    )
    games = parser.parse_args(argv).games or list(FIXTURES_BY_GAME)
    unknown = [game for game in games if game not in FIXTURES_BY_GAME]
    if unknown:
        parser.error(
            f"no perft fixture for {', '.join(unknown)}; the games: {', '.join(FIXTURES_BY_GAME)}"
        )
    for game in games:
        regenerate(game)


if __name__ == "__main__":
    main()
