"""A table's tally of finished games (docs/server.md: the description's ``results``): a
Kryt'-navalivat' session counts its fools (KRYT-7.3), the other games their winners."""

from __future__ import annotations

import random

import pytest

from cardtable.core import State
from cardtable.server.table import Table


def _play_games(game: str, players: int, count: int, seed: int) -> tuple[Table, list[State]]:
    """A table at which ``count`` games were played; each game's final state."""
    seats = [{"kind": "human"} for _ in range(players)]
    table, _tokens, change = Table.open(game, {}, seats)
    table.commit(change)
    rng = random.Random(seed)
    finals = []
    for number in range(count):
        if number:
            table.commit(table.next_game())
        while not table.state.is_over:
            mover = table.state.to_move
            assert mover is not None
            action = rng.choice(table.state.legal_actions())
            table.commit(table.act(mover, str(action), "human", table.seq))
        finals.append(table.state)
    return table, finals


@pytest.mark.parametrize(("game", "players"), [("kryt-navalivat", 3), ("knockout-whist", 3)])
def test_the_description_tallies_every_finished_game(game: str, players: int) -> None:
    table, finals = _play_games(game, players, 2, seed=11)
    results = table.describe()["results"]
    assert [r["game"] for r in results] == [1, 2]
    for state, result in zip(finals, results, strict=True):
        finished = state.result
        assert finished is not None
        assert result["winners"] == list(finished.winners)
        assert result["places"] == [list(place) for place in finished.places]
        if game == "kryt-navalivat" and finished.winners:
            # The fool alone takes the last place; everyone else shares the first.
            assert result["places"][-1] == [state.loser]  # type: ignore[attr-defined]


def test_a_game_in_progress_is_not_in_the_tally() -> None:
    table, _finals = _play_games("knockout-whist", 3, 1, seed=3)
    table.commit(table.next_game())
    assert [r["game"] for r in table.describe()["results"]] == [1]
