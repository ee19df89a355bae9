"""Perft counts for Kryt'-navalivat' (STYLE.md, DESIGN.md "Testing").

``perft(state, d)`` is the number of action sequences of exactly ``d`` actions from
``state``; a beat is two actions (``beat``, then the same player's ``cover``, KRYT-4.6).
The counts live in ``tests/fixtures/perft_kryt_navalivat.json``, written by
``scripts/regenerate_perft.py``; a change in the generation of legal actions (KRYT-3,
KRYT-4, KRYT-5, KRYT-6, KRYT-7, KRYT-8) changes a number here. So that the fixture is not
merely the engine's own output, the small depths are recounted below by a plain move
generator written from the SPEC (KRYT-2.3 … KRYT-10), sharing no code with the engine,
and the first depths of the two constructed positions are derived by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from cardtable.core import State
from cardtable.testing import checked_perft, perft, perft_start

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "perft_kryt_navalivat.json"
ENTRIES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["positions"]
BY_NAME = {entry["name"]: entry for entry in ENTRIES}
GAME = "kryt-navalivat"


def start(entry: dict[str, Any]) -> State:
    return perft_start(GAME, entry)


def stored(name: str, depth: int) -> list[int]:
    counts = BY_NAME[name]["counts"]
    return [counts[str(d)] for d in range(1, depth + 1)]


# A plain move generator, straight from the SPEC -----------------------------------------------

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")  # KRYT-1.2, 6 low


@dataclass(frozen=True)
class Plain:
    """A hand of Kryt'-navalivat' as the SPEC tells it: cards as text, hands as sets."""

    hands: tuple[frozenset[str], ...]
    pile: tuple[str, ...]  # bottom first
    stock: tuple[str, ...]  # face down, top first
    faceup: str | None  # the turned trump card, the stock's last card (KRYT-2.5)
    trump: str
    anti: str | None  # spades in the permanent mode (KRYT-8.1)
    mode: str  # lead, respond, cover, free or over
    to_move: int | None


def beats(b: str, t: str, trump: str, anti: str | None) -> bool:
    """KRYT-3.1 and KRYT-8.2: a higher card of the same suit, or a trump on a card that is
    neither a trump nor an anti-trump."""
    if b[-1] == t[-1]:
        return RANKS.index(b[:-1]) > RANKS.index(t[:-1])
    return b[-1] == trump and t[-1] != trump and t[-1] != anti


def taken(pile: tuple[str, ...], trump: str) -> int:
    """KRYT-5 and KRYT-8.3: how many cards from the top a pick-up takes."""
    top = pile[-1]
    if top[-1] != trump:
        return 1
    return len(pile) if top[:-1] == "A" else min(3, len(pile))


def plain_deal(deck: list[str], players: int, dealer: int, permanent: bool) -> Plain:
    """KRYT-2.3 (K-15): three rounds, one card at a time, clockwise from the dealer's left;
    then the turned card (KRYT-2.4) and the stock, or no turned card (KRYT-8.1)."""
    hands: list[set[str]] = [set() for _ in range(players)]
    for i in range(3 * players):
        hands[(dealer + 1 + i) % players].add(deck[i])
    rest = deck[3 * players :]
    faceup = None if permanent else rest.pop(0)
    return Plain(
        hands=tuple(frozenset(h) for h in hands),
        pile=(),
        stock=tuple(rest),
        faceup=faceup,
        trump="D" if faceup is None else faceup[-1],
        anti="S" if permanent else None,
        mode="lead",
        to_move=(dealer + 1) % players,
    )


def plain_position(text: str) -> Plain:
    """The fields of a ``kryt/1`` line (docs/kryt-navalivat.md), read without the engine."""
    fields = dict(word.split("=", 1) for word in text.split()[1:])

    def cards(value: str) -> tuple[str, ...]:
        return () if value == "-" else tuple(value.split(","))

    permanent = fields["trumps"] == "permanent"
    return Plain(
        hands=tuple(frozenset(cards(h)) for h in fields["hands"].split("/")),
        pile=cards(fields["pile"]),
        stock=cards(fields["stock"]),
        faceup=None if fields["faceup"] == "-" else fields["faceup"],
        trump="D" if permanent else fields["trumps"],
        anti="S" if permanent else None,
        mode=fields["turn"],
        to_move=int(fields["to_move"]),
    )


def plain_moves(s: Plain) -> list[Plain]:
    """Every state one action away (KRYT-10's table, two-step beats)."""
    p = s.to_move
    if p is None:
        return []
    hand = s.hands[p]
    out: list[Plain] = []

    def play(card: str) -> tuple[tuple[frozenset[str], ...], tuple[str, ...]]:
        hands = list(s.hands)
        hands[p] = hand - {card}
        return tuple(hands), (*s.pile, card)

    if s.mode in ("lead", "free"):  # KRYT-4.1, KRYT-4.3: any card
        for card in hand:
            hands, pile = play(card)
            out.append(end_turn(replace(s, hands=hands, pile=pile), p, "put"))
    if s.mode in ("respond", "free"):  # KRYT-4.2 (a), (b)
        for card in hand:
            if beats(card, s.pile[-1], s.trump, s.anti):
                hands, pile = play(card)
                beaten = replace(s, hands=hands, pile=pile)
                if hands[p]:
                    out.append(replace(beaten, mode="cover"))  # K-4: a cover must follow
                else:
                    out.append(end_turn(beaten, p, "beat last"))
        k = taken(s.pile, s.trump)
        hands_list = list(s.hands)
        hands_list[p] = hand | frozenset(s.pile[-k:])
        out.append(end_turn(replace(s, hands=tuple(hands_list), pile=s.pile[:-k]), p, "take"))
    if s.mode == "cover":  # KRYT-4.2 (a): any card on one's own beat
        for card in hand:
            hands, pile = play(card)
            out.append(end_turn(replace(s, hands=hands, pile=pile), p, "put"))
    six = "6" + s.trump
    if s.mode in ("lead", "respond") and s.faceup not in (None, six) and six in hand:
        # KRYT-6, K-9: the six for the turned card, before the main action; the turn goes on.
        hands_list = list(s.hands)
        hands_list[p] = (hand - {six}) | {s.faceup}
        out.append(replace(s, hands=tuple(hands_list), faceup=six))
    return out


def end_turn(s: Plain, p: int, how: str) -> Plain:
    """KRYT-10's end of turn: draw (KRYT-4.4), go out (KRYT-7.1), the end of the hand
    (KRYT-7.2, KRYT-7.3), then the next player and mode (KRYT-4.5)."""
    hand, stock, faceup = set(s.hands[p]), list(s.stock), s.faceup
    while len(hand) < 3 and (stock or faceup is not None):
        if stock:
            hand.add(stock.pop(0))
        else:
            hand.add(faceup)  # type: ignore[arg-type]  # the loop's condition says it is set
            faceup = None
    hands = list(s.hands)
    hands[p] = frozenset(hand)
    s = replace(s, hands=tuple(hands), stock=tuple(stock), faceup=faceup)
    n = len(hands)
    if not hand and not stock and faceup is None:
        others = [q for q in range(n) if q != p and hands[q]]
        if len(others) == 1:
            return replace(s, mode="over", to_move=None)
    nxt = next(q % n for q in range(p + 1, p + n + 1) if hands[q % n])
    if how == "beat last":
        return replace(s, mode="free", to_move=nxt)
    if how == "put":
        return replace(s, mode="respond", to_move=nxt)
    return replace(s, mode="respond" if s.pile else "lead", to_move=nxt)


def plain_perft(state: Plain, depth: int) -> list[int]:
    counts = [0] * depth
    frontier = [state]
    for ply in range(depth):
        frontier = [child for node in frontier for child in plain_moves(node)]
        counts[ply] = len(frontier)
    return counts


def plain_start(entry: dict[str, Any]) -> Plain:
    if "position" in entry:
        return plain_position(entry["position"])
    options = entry["options"]
    return plain_deal(
        entry["deck"].split(),
        options["players"],
        options["dealer"],
        options.get("trump_mode") == "permanent",
    )


# The tests -----------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["name"] for entry in ENTRIES])
def test_kryt_navalivat_perft_counts_match_the_fixture(entry: dict[str, Any]) -> None:
    """Every stored count, recomputed (KRYT-3, KRYT-4, KRYT-5, KRYT-6, KRYT-10)."""
    counts = perft(start(entry), len(entry["counts"]))
    assert {str(d): n for d, n in enumerate(counts, 1)} == entry["counts"]


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["name"] for entry in ENTRIES])
def test_kryt_navalivat_perft_small_depths_match_a_plain_move_generator(
    entry: dict[str, Any],
) -> None:
    """KRYT-2.3 to KRYT-10, recounted by the generator above: the deal, beating with both
    trump modes, the cover, pick-up sizes, the swap, draws after the whole turn (K-1),
    going out, the free turn and the end of the hand."""
    depth = 9
    assert plain_perft(plain_start(entry), depth) == stored(entry["name"], depth)


def test_kryt_navalivat_perft_plain_deal_agrees_with_the_engines_deal() -> None:
    """KRYT-2.3 / KRYT-2.4 / KRYT-8.1: the plain deal gives the hands, turned card and
    stock the engine shows, so the generator starts where the engine does."""
    for entry in ENTRIES:
        plain, view = plain_start(entry), start(entry).view(None)
        assert [len(h) for h in plain.hands] == view["hand_sizes"]
        assert plain.faceup == view["trump_card"]
        assert plain.trump == view["trump"] and plain.anti == view["anti_trump"]
        assert len(plain.stock) + (plain.faceup is not None) == view["stock"]
        assert list(plain.pile) == view["pile"] and plain.mode == view["phase"]
        for seat, hand in enumerate(plain.hands):
            assert sorted(hand) == sorted(start(entry).view(seat)["hand"])


def test_kryt_navalivat_perft_fixture_covers_both_modes_player_counts_swap_and_free_turn() -> None:
    """The fixture deals to 2 and 3 players in both trump modes (KRYT-8), and starts where
    a swap is open (KRYT-6) and in a free turn (KRYT-4.3); in the endgame some lines end
    the hand (KRYT-7.2), which a plain count of the ends shows."""
    deals = {
        (e["options"]["players"], e["options"].get("trump_mode", "turned"))
        for e in ENTRIES
        if "deck" in e
    }
    assert deals == {(2, "turned"), (3, "turned"), (2, "permanent"), (3, "permanent")}
    assert "swap" in [str(a) for a in start(BY_NAME["two-players-swap-available"]).legal_actions()]
    assert start(BY_NAME["three-players-free-turn-endgame"]).view(None)["phase"] == "free"
    frontier = [plain_start(BY_NAME["three-players-free-turn-endgame"])]
    ended = 0
    for _ in range(8):
        frontier = [child for node in frontier for child in plain_moves(node)]
        ended += sum(1 for node in frontier if node.mode == "over")
    assert ended > 0


def test_kryt_navalivat_perft_swap_position_by_hand() -> None:
    """Hearts trumps, QH turned, 8D and JS face down; seat 0 (6H 9S KD) faces 8S, seat 1
    holds 7C 10C AS, and the pile below the 8S ends QS KS.

    - depth 1: beat 9S, beat 6H (a trump on a plain card, KRYT-3.1), take, swap: 4.
    - depth 2: after either beat, a cover with one of the two other cards (2 + 2); after
      the take (one card, KRYT-5) seat 1 faces KS: beat AS or take (2); after the swap
      (KRYT-6.1) seat 0 holds QH 9S KD with the turn still its own: beat 9S, beat QH or
      take, and no second swap since the six is now the turned card (3): 9.
    """
    name = "two-players-swap-available"
    assert perft(start(BY_NAME[name]), 2) == [4, 9]
    assert stored(name, 2) == [4, 9]


def test_kryt_navalivat_perft_free_turn_by_hand() -> None:
    """Clubs trumps, the stock empty, seat 0 out after beating JD with QD, its last card;
    seat 1 (7H KC 8S) has the free turn, seat 2 holds 9D AH.

    - depth 1: lead any of 3 (KRYT-4.3), beat the QD with KC, or take it: 5.
    - depth 2: after lead 7H seat 2 beats with AH or takes (2); after lead KC or 8S seat 2,
      with neither a club (trumps) nor a spade, takes (1 + 1); after beat KC a cover, 7H
      or 8S (2); after taking the QD seat 2 faces JD, cannot beat it and takes (1): 7.
    """
    name = "three-players-free-turn-endgame"
    assert perft(start(BY_NAME[name]), 2) == [5, 7]
    assert stored(name, 2) == [5, 7]


@pytest.mark.parametrize(
    ("name", "depth"),
    [
        ("two-players-turned-deal", 7),
        ("three-players-permanent-deal", 7),
        ("two-players-swap-available", 6),
        ("three-players-free-turn-endgame", 8),
    ],
)
def test_kryt_navalivat_perft_checked_path_agrees(name: str, depth: int) -> None:
    """The checked ``legal_actions()``/``apply()`` path counts what the unchecked one does
    (§0.4 (2): the listed actions are exactly those ``apply`` accepts)."""
    assert checked_perft(start(BY_NAME[name]), depth) == BY_NAME[name]["counts"][str(depth)]
