"""A table's tally of finished games (docs/server.md: the description's ``results``): a
Kryt'-navalivat' session counts its fools (KRYT-7.3), the other games their winners."""

from __future__ import annotations

import random

import pytest

from cardtable.core import State
from cardtable.server.table import Table, TableError


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


RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()


def _taker(plays: list[tuple[int, str]], trump: str | None) -> int:
    """KOW-4.3, NEUF-4.3: the highest trump in the trick, else the highest card of the suit
    led (A high); a knock plays no card."""
    cards = [(seat, card[:-1], card[-1]) for seat, card in plays if card != "knock"]
    suit = trump if any(s == trump for _, _, s in cards) else cards[0][2]
    return max((RANKS.index(r), seat) for seat, r, s in cards if s == suit)[1]


@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [("knockout-whist", 3, 5), ("knockout-whist", 5, 6), ("neuf", 4, 7), ("neuf", 3, 8)],
)
def test_an_action_that_completes_a_trick_says_who_took_it(
    game: str, players: int, seed: int
) -> None:
    """docs/server.md, the ``action`` event's ``won``: every action that completes a trick
    names the seat that took it by KOW-4.3 / NEUF-4.3, computed here from the plays of the
    events alone and the trump; no other action has it. The game's ``over`` event holds its
    final view as a spectator sees it."""
    seats = [{"kind": "human"} for _ in range(players)]
    table, _tokens, change = Table.open(game, {}, seats)
    table.commit(change)
    rng = random.Random(seed)
    plays: list[tuple[int, str]] = []
    said = 0
    while not table.state.is_over:
        view = table.state.view(None)
        mover = table.state.to_move
        assert mover is not None
        action = str(rng.choice(table.state.legal_actions()))
        change = table.act(mover, action, "human", table.seq)
        table.commit(change)
        event = change.events[0]
        assert event["action"] == action
        if action.startswith("play "):
            plays.append((mover, action.split()[1]))
        elif action == "knock":
            plays.append((mover, "knock"))  # a dog keeps its card (KOW-6.3): no card
        if "won" not in event:
            # No trick done: the plays so far are still open on the table.
            assert table.state.view(None)["trick"] == [list(p) for p in plays], (
                event,
                plays,
                table.state.view(None),
            )
            continue
        trump = None if view["trump"] in (None, "NT") else view["trump"]
        assert event["won"] == _taker(plays, trump), (event, plays, trump)
        plays = []
        said += 1
    finals = table.state.view(None)
    tricks = (
        sum(8 - k for k in range(1, finals["hand_number"] + 1))
        if game == "knockout-whist"
        else sum(sum(row["tricks"]) for row in finals["ledger"])
    )
    assert said == tricks
    over = next(e for e in table.events if e["kind"] == "over")
    assert over["final"] == finals and "hand" not in over["final"]


def test_kryt_navalivat_actions_take_no_trick() -> None:
    """Kryt'-navalivat' is not played in tricks: none of its actions says who took one."""
    table, _finals = _play_games("kryt-navalivat", 3, 1, seed=4)
    assert not [e for e in table.events if "won" in e]


@pytest.mark.parametrize("game", ["knockout-whist", "neuf"])
def test_an_action_sent_at_any_event_of_the_last_change_stands(game: str) -> None:
    """docs/server.md: every event of one change comes with the view after the whole change,
    so a page that has read only the first of them (an action that ends a hand, then its
    ``reveal`` and the next ``deal``) already shows the next hand and its first move
    (KOW-3.1's trump choice, NEUF-4's exchange): a click made then is on the table as it is,
    and stands. One sent before that change is still refused."""
    seats = [{"kind": "human"} for _ in range(3)]
    rng = random.Random(5)
    for _ in range(20):  # tables until one whose hand ends before the game does
        table, _tokens, change = Table.open(game, {}, seats)
        table.commit(change)
        while not table.state.is_over:
            mover = table.state.to_move
            assert mover is not None
            before = table.seq
            change = table.act(mover, str(rng.choice(table.state.legal_actions())), "human")
            table.commit(change)
            kinds = [e["kind"] for e in change.events]
            if "deal" in kinds and not table.state.is_over:
                break
        else:
            continue
        assert kinds[0] == "action" and len(kinds) >= 2, kinds
        first = change.events[0]["seq"]
        mover = table.state.to_move
        assert mover is not None
        move = str(table.state.legal_actions()[0])
        for seen in (before, table.seq + 1):
            with pytest.raises(TableError) as caught:
                table.act(mover, move, "human", seen)
            assert caught.value.code == "stale"
        for seen in range(first, table.seq + 1):
            assert table.act(mover, move, "human", seen).events[0]["action"] == move
        return
    pytest.fail("no hand ended before its game in 20 tables")


@pytest.mark.parametrize(("game", "players"), [("neuf", 3), ("knockout-whist", 4)])
def test_the_tables_views_are_the_live_states_after_every_step(game: str, players: int) -> None:
    """Each seat's view the table sends is the live state's view after every step, never
    the step before's."""
    seats = [{"kind": "human"} for _ in range(players)]
    table, _tokens, change = Table.open(game, {}, seats)
    table.commit(change)
    rng = random.Random(5)
    for _ in range(60):
        mover = table.state.to_move
        assert mover is not None
        before = table.view(None)
        action = rng.choice(table.state.legal_actions())
        table.commit(table.act(mover, str(action), "human", table.seq))
        for seat in [None, *range(players)]:
            assert table.view(seat) == table.state.view(seat)
        assert table.view(None) != before
