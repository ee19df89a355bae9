"""What the Kryt'-navalivat' tests share: readable card lists, constructed states (through
``compose_position``, the ``kryt/1`` notation from readable pieces), short looks at a
state, KRYT-EX-1's deck and random games that reach the end of a hand."""

from __future__ import annotations

import random

import pytest

from cardtable.cards import DECK_36, Card
from cardtable.errors import IllegalActionError
from cardtable.rules.kryt_navalivat import KrytNavalivat, KrytNavalivatState
from cardtable.rules.kryt_navalivat.position import FILL, compose_position
from cardtable.rules.kryt_navalivat.state import TAKE

__all__ = ["FILL", "compose_position"]  # re-exported: the tests take them from here


PACK = [str(card) for card in DECK_36]


def cards(text: str) -> list[str]:
    """``"7D 10S, QH"`` -> ``["7D", "10S", "QH"]`` in canonical text; ``…`` stays as it is."""
    return [c if c == FILL else str(Card.parse(c)) for c in text.replace(",", " ").split()]


def position_state(text: str, trump_mode: str = "turned") -> KrytNavalivatState:
    players = int(text.split()[1].removeprefix("players="))
    game = KrytNavalivat(players=players, trump_mode=trump_mode)
    return game.state_from_position(text)


def hand(state: KrytNavalivatState, seat: int) -> set[str]:
    return set(state.view(seat)["hand"])


def pile(state: KrytNavalivatState) -> list[str]:
    return list(state.view(None)["pile"])


def legal(state: KrytNavalivatState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def assert_conserved(state: KrytNavalivatState) -> None:
    """KRYT-11.1: hands + pile + stock (the turned card included) hold the pack once."""
    public = state.view(None)
    assert sum(public["hand_sizes"]) + len(public["pile"]) + public["stock"] == 36
    every = [c for s in range(state.players) for c in state.view(s)["hand"]]
    every += public["pile"] + [str(Card.from_index(c)) for c in state.stock]
    every += [public["trump_card"]] if public["trump_card"] else []
    assert sorted(every) == sorted(PACK)


def refused(
    state: KrytNavalivatState, action: str, error: type[Exception] = IllegalActionError
) -> None:
    """The action raises ``error`` and changes nothing (SPEC §0.4 (2))."""
    before = state.position()
    with pytest.raises(error):
        state.apply(action)
    assert state.position() == before


EX_1_DECK = (
    "7D KD 9C 9S 10S 8S 10D 6H KC | 8C | QS 7H 8H 9H 10H 7C JH QH KH AH 6C 10C JC QC AC "
    "6D 8D 9D JD QD AD 6S 7S JS KS AS"
)


MODE_NAMES = ("turned", "permanent")


def fields(state: KrytNavalivatState) -> dict[str, str]:
    return dict(word.split("=", 1) for word in state.position().split()[1:])


def stock_cards(state: KrytNavalivatState) -> list[str]:
    """The face-down stock, top first, from the position (a test may look at it)."""
    text = fields(state)["stock"]
    return [] if text == "-" else text.split(",")


def random_states(
    players: int, trump_mode: str, seed: int, cap: int = 1000
) -> list[KrytNavalivatState]:
    """Every state of one random game (at most ``cap`` actions), start and end included.
    Nine times in ten the player does anything but pick up, so that games reach the empty
    stock and the end (uniform play piles up and rarely gets there)."""
    game = KrytNavalivat(players=players, trump_mode=trump_mode)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    states = [state.copy()]
    while not state.is_over and len(states) <= cap:
        ids = state.legal_action_ids()
        other = [n for n in ids if n != TAKE]
        state.apply_id(rng.choice(other if other and rng.random() < 0.9 else ids))
        states.append(state.copy())
    return states


# One random game for each player count and trump mode (seed = players, or players + 10).
GAMES = [(n, mode, n + 10 * (mode == "permanent")) for n in range(2, 7) for mode in MODE_NAMES]
