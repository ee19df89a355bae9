"""Hints (docs/server.md, the ``hint`` message, and "Hints and their limits").

A hint names one best action, values every legal action in the game's unit with its gap
to the best, and says why, from the seat's own view alone: swapping cards the seat cannot
see changes nothing in it (SPEC §0.4, item 4).

Hints cannot starve the tables' bots: they are worked out in a pool of their own, and with
every hint worker busy, the bots of other tables go on moving in theirs. A seat has one
hint under way at a time, whatever windows it asks from (``hint_busy``), and a number of
hints a minute (``hint_limit``).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.analysis import Budget
from cardtable.server import thinking
from cardtable.server.app import create_app
from cardtable.server.hub import Hub
from cardtable.server.thinking import pool
from server_pieces import Socket, humans, open_table, tokens_of

PLAYERS = {"knockout-whist": 2, "neuf": 3, "kryt-navalivat": 2}
UNITS = {"knockout-whist": "tricks", "neuf": "points", "kryt-navalivat": "not_fool"}
ENGLISH = json.loads(
    (Path(__file__).resolve().parents[2] / "src/cardtable/web/locales/en.json").read_text()
)

HOLD = 8.0  # seconds the only hint worker is kept busy
BOT_MOVES = 6  # bot moves that must be made meanwhile (each takes milliseconds)


@contextmanager
def busy_hint_pool(tmp_path: Path) -> Iterator[tuple[TestClient, Future[None]]]:
    """A server whose one hint worker is asleep for :data:`HOLD` seconds from the start
    (as if working out a long hint), bots moving at once and stand-ins playing at once."""
    hints: ProcessPoolExecutor = pool(1)
    try:
        app = create_app(
            f"sqlite:///{tmp_path / 't.db'}",
            grace=0,
            bot_delay=0,
            workers=1,
            hint_executor=hints,
        )
        with TestClient(app) as client:
            busy: Future[None] = hints.submit(time.sleep, HOLD)
            yield client, busy
    finally:
        hints.shutdown(wait=True, cancel_futures=True)


def test_bots_move_while_every_hint_worker_is_busy(tmp_path: Path) -> None:
    with busy_hint_pool(tmp_path) as (client, busy):
        asking = open_table(client, "knockout-whist", humans(2))
        seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "medium"}] * 3
        bots = open_table(client, "knockout-whist", seats)
        with (
            client.websocket_connect(f"/ws/{asking['table']}") as first,
            client.websocket_connect(f"/ws/{asking['table']}") as second,
            client.websocket_connect(f"/ws/{bots['table']}") as watching,
        ):
            players = [Socket(first, "P0"), Socket(second, "P1")]
            for seat, player in enumerate(players):
                player.join(tokens_of(asking)[seat])
            players[0].barrier()
            mover = players[players[0].view["to_move"]]
            mover.send({"type": "hint"})  # waits behind the sleeping hint worker
            watcher = Socket(watching, "watcher")
            watcher.join(None)
            # Ana comes and goes: her stand-in (on the server) and the medium bots (in the
            # bot pool) play the table.
            with client.websocket_connect(f"/ws/{bots['table']}") as ana_session:
                Socket(ana_session, "Ana").join(tokens_of(bots)[0])
            moved = 0
            while moved < BOT_MOVES:
                frame = watcher.until(lambda f: f["type"] == "event")[-1]
                if frame["event"]["kind"] == "action" and frame["event"]["by"] == "bot":
                    moved += 1
            assert not busy.done(), "the bots' moves waited for the hint worker"
            hint = mover.until(lambda f: f["type"] == "hint", seconds=HOLD + 30)[-1]
            assert busy.done()
            assert hint["actions"], hint


def test_a_seat_has_one_hint_under_way_whatever_window_asks(tmp_path: Path) -> None:
    with busy_hint_pool(tmp_path) as (client, busy):
        opened = open_table(client, "knockout-whist", humans(2))
        table = opened["table"]
        with (
            client.websocket_connect(f"/ws/{table}") as first,
            client.websocket_connect(f"/ws/{table}") as second,
        ):
            watcher = Socket(first, "watcher")
            watcher.join(None)
            seat = watcher.view["to_move"]
            token = tokens_of(opened)[seat]
            with client.websocket_connect(f"/ws/{table}") as window:
                asker = Socket(window, "first window")
                asker.join(token)
                asker.send({"type": "hint"})  # under way: the hint worker is asleep
                # The same seat in another window takes the seat over, and asks again.
                again = Socket(second, "second window")
                again.join(token)
                again.send({"type": "hint"})
                refused = again.until(lambda f: f["type"] in ("hint", "error"))[-1]
                assert refused["type"] == "error" and refused["code"] == "hint_busy", refused
                assert not busy.done()
                # Once the first hint is answered, the seat may ask again.
                busy.result(timeout=HOLD + 30)
                deadline = time.monotonic() + 30
                while True:
                    again.send({"type": "hint"})
                    answer = again.until(lambda f: f["type"] in ("hint", "error"), 30)[-1]
                    if answer["type"] == "hint":
                        break
                    assert answer["code"] == "hint_busy", answer
                    assert time.monotonic() < deadline, "the first hint never ended"
                    time.sleep(0.1)


def test_a_seat_may_ask_for_so_many_hints_a_minute(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 't.db'}", bot_delay=0, workers=1, hint_workers=1, hints_per_minute=2
    )
    with TestClient(app) as client:
        opened = open_table(client, "knockout-whist", humans(2))
        with (
            client.websocket_connect(f"/ws/{opened['table']}") as first,
            client.websocket_connect(f"/ws/{opened['table']}") as second,
        ):
            players = [Socket(first, "P0"), Socket(second, "P1")]
            for seat, player in enumerate(players):
                player.join(tokens_of(opened)[seat])
            players[0].barrier()
            mover = players[players[0].view["to_move"]]
            other = players[1 - players.index(mover)]
            for _ in range(2):
                mover.send({"type": "hint"})
                assert (
                    mover.until(lambda f: f["type"] in ("hint", "error"), 30)[-1]["type"] == "hint"
                )
            mover.send({"type": "hint"})
            refused = mover.until(lambda f: f["type"] in ("hint", "error"), 30)[-1]
            assert refused["type"] == "error" and refused["code"] == "hint_limit", refused
            assert "2 hints a minute" in refused["message"]
            # The limit is the seat's: the table and the other seat are untouched.
            assert mover.act(mover.view["legal_actions"][0])[-1]["type"] == "event"
            other.catch_up(mover.seq)
            assert _ask_hint(other)["type"] == "hint"


def _ask_hint(socket: Socket) -> dict[str, Any]:
    """Ask for a hint; its answer, or the refusal."""
    socket.send({"type": "hint"})
    return socket.until(lambda f: f["type"] in ("hint", "error"), 30)[-1]


# ---------------------------------------------------------------- what a hint says


def to_a_choice(players: list[Socket], rng: random.Random) -> Socket:
    """Play on (each seat from its own view) until the seat to move has a choice; that
    seat's socket."""
    while True:
        players[0].barrier()
        seq = max(p.seq for p in players)
        for p in players:
            p.catch_up(seq)
        mover = next(p for p in players if p.seat == players[0].view["to_move"])
        if len(mover.view["legal_actions"]) > 1:
            return mover
        mover.act(rng.choice(mover.view["legal_actions"]))


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_hint_names_one_best_action_in_the_games_unit(tmp_path: Path, game: str) -> None:
    """The hint's ``best`` is a legal action; every action keeps ``chance`` and ``visits``
    (old pages read them) and has its ``value`` in the game's unit and its ``gap`` to the
    best (0 for the best, never above it); the reason is a text of the page."""
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", bot_delay=0, workers=1, hint_workers=1)
    with TestClient(app) as client:
        opened = open_table(client, game, humans(PLAYERS[game]))
        sessions = [
            client.websocket_connect(f"/ws/{opened['table']}") for _ in range(PLAYERS[game])
        ]
        players = []
        for seat, session in enumerate(sessions):
            socket = Socket(session.__enter__(), f"P{seat}")
            socket.join(tokens_of(opened)[seat])
            players.append(socket)
        try:
            mover = to_a_choice(players, random.Random(5))
            hint = _ask_hint(mover)
        finally:
            for session in sessions:
                session.__exit__(None, None, None)
    assert hint["type"] == "hint", hint
    legal = mover.view["legal_actions"]
    assert hint["unit"] == UNITS[game]
    assert hint["best"] in legal
    assert [a["action"] for a in hint["actions"]] == legal
    values = {a["action"]: a["value"] for a in hint["actions"]}
    for action in hint["actions"]:
        assert {"action", "chance", "visits", "value", "gap", "error", "tie"} <= set(action)
        if action["value"] is None:  # searched too little to be rated: no gap, no tie
            assert action["gap"] is None and action["tie"] is False
            continue
        assert action["gap"] == pytest.approx(action["value"] - values[hint["best"]], abs=2e-3)
        # Below the best unless the analysis cannot tell it from the best.
        assert action["tie"] or action["gap"] < 0
        assert action["error"] >= 0 and action["visits"] > 0
        # The chance of a good end is the value where the unit is that chance.
        assert action["chance"] == (action["value"] if game == "kryt-navalivat" else None)
    best = next(a for a in hint["actions"] if a["action"] == hint["best"])
    if best["value"] is None:  # too few deals to rate any action: a close call, said so
        assert all(a["value"] is None for a in hint["actions"])
        assert hint["reason"]["key"] == "hints.why.close"
    else:
        assert best["gap"] == 0 and best["tie"]
    reason = hint["reason"]
    assert reason["key"].startswith("hints.why.")
    assert reason["key"].removeprefix("hints.why.") in ENGLISH["hints"]["why"]


def swap_hidden(game: str, position: str, seat: int) -> str:
    """The position with two cards ``seat`` cannot see swapped (SPEC §0.4 item 4): the
    first card of another seat's hand and the top of the stock (Knockout Whist's undealt
    remainder, Kryt'-navalivat's stock), or, in Neuf's exchange, the first cards of the
    two other seats' piles."""
    fields = dict(field.split("=", 1) for field in position.split()[1:])
    if game == "neuf":
        piles = [pile.split(",") for pile in fields["piles"].split("/")]
        a, b = [s for s in range(3) if s != seat]
        piles[a][0], piles[b][0] = piles[b][0], piles[a][0]
        fields["piles"] = "/".join(",".join(pile) for pile in piles)
    else:
        hands = [hand.split(",") for hand in fields["hands"].split("/")]
        stock = fields["stock"].split(",")
        other = next(s for s in range(len(hands)) if s != seat and hands[s] != ["-"])
        hands[other][0], stock[0] = stock[0], hands[other][0]
        fields["hands"] = "/".join(",".join(hand) for hand in hands)
        fields["stock"] = ",".join(stock)
    return " ".join([position.split()[0], *(f"{k}={v}" for k, v in fields.items())])


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_hint_does_not_change_when_hidden_cards_are_swapped(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC §0.4 item 4, for the hint: the table's state is replaced by one with two cards
    the seat cannot see swapped (its view the same), and the hint the server sends the seat
    is the same message. The budget is bounded by deals and iterations, not the clock, so
    that two hints of one view are the same; the hints run in a thread, where that budget
    holds."""
    monkeypatch.setattr(
        thinking,
        "HINT_BUDGET",
        Budget(deals=12, seconds=120.0, iterations=20_000),
    )
    hints = ThreadPoolExecutor(1)
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", bot_delay=0, workers=1, hint_executor=hints)
    try:
        with TestClient(app) as client:
            hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
            opened = open_table(client, game, humans(PLAYERS[game]))
            table = hub.tables[opened["table"]]
            seat = table.state.to_move
            assert seat is not None
            made = cardtable.make(game, **table.state.view(None)["options"])
            position = table.state.position()
            swapped = swap_hidden(game, position, seat)
            assert swapped != position
            states = [made.state_from_position(text) for text in (position, swapped)]
            assert states[0].view(seat) == states[1].view(seat)
            assert states[0].view(None) == states[1].view(None)
            said = []
            with client.websocket_connect(f"/ws/{opened['table']}") as session:
                socket = Socket(session, "mover")
                socket.join(tokens_of(opened)[seat])
                for state in states:
                    table.run.state = state
                    said.append(_ask_hint(socket))
            assert said[0]["type"] == "hint", said[0]
            assert said[0] == said[1]
    finally:
        hints.shutdown(wait=True)
