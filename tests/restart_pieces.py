"""The killed-server tests' clients (``test_server_restart.py``, ``test_server_cluster.py``,
``test_server_database_failures.py`` and ``failure_pieces.py``): seats that play a live
``cardtable serve`` as fast as it answers, reconnect with ``since`` after a restart, and
check that what they were told is the table's record."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import random
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

import cardtable
from cardtable.core import Record
from served import ServerProcess

MESSAGE_TIMEOUT = 20.0  # seconds a client waits for the server's next message


@dataclass
class Client:
    """One seat's (or a spectator's) side of the table, kept across reconnections."""

    seat: int | None
    token: str | None
    rng: random.Random
    seq: int = 0  # the last event number this client has seen
    events: dict[int, dict[str, Any]] = field(default_factory=dict)
    views: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (table seq, view)
    sent: list[tuple[int, str]] = field(default_factory=list)  # (seq sent with, action)
    acknowledged: list[tuple[int, int, str]] = field(default_factory=list)  # (seq, seat, action)
    errors: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    socket: ClientConnection | None = None

    async def connect(self, server: ServerProcess, table: str) -> dict[str, Any]:
        """Join (again) with ``since`` = the last event seen; the snapshot, checked."""
        self.socket = await websockets.connect(server.ws(table))
        since = self.seq
        await self.socket.send(json.dumps({"type": "join", "token": self.token, "since": since}))
        snapshot = await self.receive()
        assert snapshot["type"] == "snapshot", snapshot
        assert snapshot["seat"] == self.seat
        assert snapshot["seq"] == snapshot["table"]["seq"] >= since
        # The missed events are exactly those after ``since``: the numbering has no gap.
        assert [item["seq"] for item in snapshot["missed"]] == list(
            range(since + 1, snapshot["seq"] + 1)
        )
        for item in snapshot["missed"]:
            self.see(item)
        self.views.append((snapshot["seq"], snapshot["view"]))
        return snapshot

    async def receive(self) -> dict[str, Any]:
        assert self.socket is not None
        raw = await asyncio.wait_for(self.socket.recv(), MESSAGE_TIMEOUT)
        message: dict[str, Any] = json.loads(raw)
        return message

    def see(self, item: dict[str, Any]) -> None:
        seq = item["seq"]
        # Events arrive in order, each once; one seen before a restart is never rewritten.
        assert seq == self.seq + 1, f"event {seq} after {self.seq}"
        self.events[seq] = item
        self.seq = seq
        if item["kind"] == "over":
            self.over = True

    def take(self, message: dict[str, Any]) -> bool:
        """Note a server message; whether this seat should act on it now."""
        kind = message["type"]
        if kind == "error":
            self.errors.append(message)
            return False
        if kind == "snapshot":
            return True
        if kind != "event":
            return False
        item = message["event"]
        assert message["seq"] == item["seq"]
        self.see(item)
        self.views.append((message["table"]["seq"], message["view"]))
        if (
            item["kind"] == "action"
            and item["seat"] == self.seat
            and item["by"] == "human"
            and self.sent
            and self.sent[-1] == (item["seq"] - 1, item["action"])
        ):
            self.acknowledged.append((item["seq"], item["seat"], item["action"]))
        # A change may be several events, each carrying the view after all of them; act
        # once, on its last event.
        return bool(message["seq"] == message["table"]["seq"])

    def choice(self, view: dict[str, Any]) -> str | None:
        legal: list[str] = view.get("legal_actions") or []
        if self.seat is None or view.get("to_move") != self.seat or not legal:
            return None
        return self.rng.choice(legal)

    async def send_action(self, action: str) -> None:
        assert self.socket is not None
        self.sent.append((self.seq, action))
        await self.socket.send(json.dumps({"type": "action", "action": action, "seq": self.seq}))

    async def play(self) -> None:
        """Act whenever it is this seat's turn, until the game is over or the server goes."""
        assert self.socket is not None
        with contextlib.suppress(websockets.ConnectionClosed):
            if self.views and (action := self.choice(self.views[-1][1])):
                await self.send_action(action)
            while not self.over:
                message = await self.receive()
                if self.take(message) and (action := self.choice(self.views[-1][1])):
                    await self.send_action(action)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
            self.socket = None


async def _open_table(
    server: ServerProcess, game: str, seats: list[dict[str, Any]]
) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as client:
        answer = await client.post("/api/tables", json={"game": game, "seats": seats})
        assert answer.status_code == 201, answer.text
        opened: dict[str, Any] = answer.json()
        return opened


def _clients(opened: dict[str, Any], seed: int) -> list[Client]:
    clients = []
    for entry in opened["seats"]:
        if entry["kind"] == "human":
            token = entry["invite"].split("token=")[1]
            clients.append(Client(entry["seat"], token, random.Random(seed * 100 + entry["seat"])))
    return clients


async def _all_events(server: ServerProcess, table: str) -> list[dict[str, Any]]:
    """Every event of the table, as a spectator joining afresh is sent them."""
    watcher = Client(None, None, random.Random(0))
    snapshot = await watcher.connect(server, table)
    await watcher.close()
    events: list[dict[str, Any]] = snapshot["missed"]
    return events


async def _verify_game(
    server: ServerProcess, table: str, clients: list[Client]
) -> list[dict[str, Any]]:
    """Check every client's record of game 1 against the server's replay of it."""
    events = await _all_events(server, table)
    assert [item["seq"] for item in events] == list(range(1, len(events) + 1))
    assert events[-1]["kind"] == "over"
    for client in clients:
        # What each client saw, before and after every restart, is the table's record.
        assert client.events == {item["seq"]: item for item in events}
        for seq, seat, action in client.acknowledged:
            assert events[seq - 1]["kind"] == "action"
            assert (events[seq - 1]["seat"], events[seq - 1]["action"]) == (seat, action)
        assert client.errors == [], client.errors
    async with httpx.AsyncClient(base_url=server.http) as http:
        answer = await http.get(f"/api/tables/{table}/replay/1")
        assert answer.status_code == 200, answer.text
    record = Record.from_dict(answer.json()["record"])
    actions = [item for item in events if item["kind"] == "action"]
    assert [item["action"] for item in actions] == record.actions
    # Each deal's commitment is the hash of the deck revealed for it, and that deck is the
    # one the record replays.
    committed = [item for item in events if item["kind"] == "deal" and "reshuffle" not in item]
    revealed = {item["commitment"]: item for item in events if item["kind"] == "reveal"}
    assert len(committed) == len(record.decks)
    for deal, deck in zip(committed, record.decks, strict=True):
        shown = revealed[deal["commitment"]]
        assert shown["deck"] == deck
        text = f"{shown['salt']}:{' '.join(deck)}"
        assert hashlib.sha256(text.encode()).hexdigest() == deal["commitment"]
    # Every view any seat was sent is that seat's view of the recorded game at that moment.
    state = cardtable.make(record.game, **record.options).replay(
        Record(record.game, record.options, record.seed, [], record.decks, record.reshuffles)
    )
    done = 0
    views_at: dict[int, dict[int | None, Any]] = {}
    for item in events:
        if item["kind"] == "action":
            assert state.to_move == item["seat"]
            state.apply(item["action"])
            done += 1
        views_at[item["seq"]] = {
            seat: _plain(state.view(seat)) for seat in [None, *range(state.game.num_players)]
        }
    for client in clients:
        for seq, view in client.views:
            assert view == views_at[seq][client.seat], f"seat {client.seat} at event {seq}"
    assert done == len(record.actions) and state.is_over
    return events


def _plain(view: Any) -> Any:
    return json.loads(json.dumps(view))


def _seed() -> int:
    # A failing run's seed is among the test's locals (pytest -l); CARDTABLE_RESTART_SEED
    # replays its choices, though the timing of a kill is never exactly repeatable.
    return int(os.environ.get("CARDTABLE_RESTART_SEED", random.randrange(1 << 30)))
