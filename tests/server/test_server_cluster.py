"""Two server processes on one PostgreSQL database, one killed again and again: nothing a
player was told is lost (docs/hosting.md, "Many processes").

Two real ``cardtable serve`` processes, each on its own port, share a private PostgreSQL
server. Four tables are opened on the first; each has three seats played by scripted
websocket clients, a bot, and a seat whose player never comes and for whom a stand-in
plays. Every client connects to either process at random (the one that does not own its
table relays it to the owner) and plays as fast as a person clicking. The owner of the
tables is killed with SIGKILL four times, at random moments, and started again each time:
its tables' seats reconnect to whichever process answers, which takes the tables over;
their bots and stand-ins play on. At the end every table's game is over, every client has
seen exactly the events the database holds, in order and each once, every action the server
acknowledged is there at the number it was announced with, and each record replays (an
action accepted twice would break the numbering or the replay).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, text

from failure_pieces import keep_playing
from postgres_server import postgres_url, stored_events
from restart_pieces import (
    MESSAGE_TIMEOUT,
    Client,
    _clients,
    _open_table,
    _seed,
    _verify_game,
)
from served import ServerProcess, free_port

TABLES = 4
KILLS = 4
FINISH_WITHIN = 90.0  # seconds for every table to finish after the last restart


class Player(Client):
    """A scripted seat that thinks a moment before each move, as a quick person would, so
    that the games are still being played through the kills; ``absent``: a seat it asks a
    stand-in for whenever it joins (a stand-in asked for that has not played yet is not
    carried over to a process that takes the table over, as over a restart)."""

    absent: int | None = None

    async def connect(self, server: ServerProcess, table: str) -> dict[str, Any]:
        snapshot = await super().connect(server, table)
        if self.absent is not None and self.socket is not None:
            await self.socket.send(json.dumps({"type": "stand_in", "seat": self.absent}))
        return snapshot

    async def send_action(self, action: str) -> None:
        await asyncio.sleep(self.rng.uniform(0.1, 0.3))
        await super().send_action(action)


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_url() as url:
        yield url


async def _keep_playing(
    client: Client, servers: list[ServerProcess], table: str, rng: random.Random
) -> int:
    """:func:`failure_pieces.keep_playing`, connecting again at once after a refusal (the
    other process is up), with this file's patience for a silent socket."""
    return await keep_playing(client, servers, table, rng, pause=0.05, silence=MESSAGE_TIMEOUT)


def test_two_processes_lose_nothing_when_one_is_killed_again_and_again(
    database: str, tmp_path: Path
) -> None:
    seed = _seed()
    rng = random.Random(seed)
    # No stand-in may play for a scripted seat while it reconnects: only for the absent one.
    servers = [ServerProcess(database, tmp_path / f"server-{n}.log", grace=3600) for n in range(2)]
    seats = [
        {"kind": "human", "name": "Ana"},
        {"kind": "bot", "level": "easy"},
        {"kind": "human", "name": "Bo"},
        {"kind": "human", "name": "absent"},
    ]

    async def scenario() -> None:
        for server in servers:  # one after the other: the first creates the schema
            await asyncio.to_thread(server.start)
        tables: dict[str, list[Client]] = {}
        for number in range(TABLES):
            opened = await _open_table(servers[0], "knockout-whist", seats)
            absent = opened["seats"][3]
            clients = [c for c in _clients(opened, seed + number) if c.seat != absent["seat"]]
            players = [
                Player(c.seat, c.token, random.Random(seed + 10 * number + i))
                for i, c in enumerate(clients)
            ]
            # A stand-in plays for the absent seat from the start.
            players[0].absent = absent["seat"]
            watcher = Client(None, None, random.Random(number))
            tables[opened["table"]] = [*players, watcher]
        playing = {
            table: [
                asyncio.create_task(_keep_playing(client, servers, table, rng))
                for client in clients
            ]
            for table, clients in tables.items()
        }
        # The first process owns every table, then the second: killing each in turn kills
        # the owner of whatever tables are not over. Each starts again while the other
        # plays on, and is up again before it is killed next.
        starting: dict[int, asyncio.Task[None]] = {}
        for kill in range(KILLS):
            await asyncio.sleep(rng.uniform(0.3, 1.5))
            if (index := kill % 2) in starting:
                await starting.pop(index)
            assert not all(c.over for cs in tables.values() for c in cs), (
                f"every game ended before kill {kill + 1}; nothing was tested"
            )
            servers[index].kill()
            starting[index] = asyncio.create_task(asyncio.to_thread(servers[index].start))
        await asyncio.gather(*starting.values())
        connections = await asyncio.wait_for(
            asyncio.gather(*(task for tasks in playing.values() for task in tasks)),
            FINISH_WITHIN,
        )
        # Every client had to reconnect at least once: its table moved under it.
        assert sum(connections) >= len(connections) * 2
        for table, clients in tables.items():
            events = await _verify_game(servers[rng.randrange(2)], table, clients)
            stored = stored_events(database, table)
            assert stored == events
            for client in clients:
                assert client.events == {item["seq"]: item for item in stored}
            by = {item["by"] for item in events if item["kind"] == "action"}
            assert by == {"human", "bot", "stand-in"}, by
        logs = "".join(server.log.read_text() for server in servers)
        assert "owner not answering" in logs or "table taken over" in logs

    try:
        asyncio.run(scenario())
    finally:
        for server in servers:
            if server.process is not None:
                server.kill()


def _workers_of(parent: int) -> list[int]:
    """The processes ``parent`` forked (Linux's own list of them)."""
    with open(f"/proc/{parent}/task/{parent}/children", encoding="ascii") as listed:
        return [int(pid) for pid in listed.read().split()]


def _until(test: Any, what: str, seconds: float = 40.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.TransportError, OSError, ValueError):
            if found := test():
                return found
        time.sleep(0.1)
    raise AssertionError(f"no {what} within {seconds} s")


def test_serve_workers_runs_processes_behind_one_port(database: str, tmp_path: Path) -> None:
    """``cardtable serve --workers 2``: two processes answer on the one port, a table
    plays through both, and a worker killed with SIGKILL is started again while the other
    takes its table over."""
    seed = _seed()
    rng = random.Random(seed)
    port = free_port()
    log = tmp_path / "workers.log"
    command = [
        *(sys.executable, "-m", "cardtable", "serve", "--port", str(port), "--workers", "2"),
        *("--database", database, "--bot-workers", "1", "--bot-delay", "0", "--grace", "3600"),
        *("--tables-per-minute", "0"),
    ]
    with log.open("wb") as errors, log.with_suffix(".out").open("wb") as out:
        parent = subprocess.Popen(command, stdout=out, stderr=errors, start_new_session=True)
    # One address for both: ServerProcess only names it here (the test starts the command).
    front = ServerProcess(database, log)
    front.port = port
    health = f"{front.http}/health"
    try:
        workers = _until(lambda: len(w := _workers_of(parent.pid)) == 2 and w, "two workers")
        _until(lambda: httpx.get(health, timeout=2).status_code == 200, "answer")

        async def scenario() -> None:
            opened = await _open_table(front, "knockout-whist", [*(2 * [{"kind": "human"}])])
            table = opened["table"]
            clients: list[Client] = [
                Player(c.seat, c.token, random.Random(seed + (c.seat or 0)))
                for c in _clients(opened, seed)
            ]
            playing = [asyncio.create_task(_keep_playing(c, [front], table, rng)) for c in clients]
            # Both processes answer on the port: the table is in one's memory only.
            loaded = set()
            for _ in range(60):
                async with httpx.AsyncClient() as fresh:  # a new connection each time
                    loaded.add((await fresh.get(health)).json()["loaded"])
                if loaded == {0, 1}:
                    break
            assert loaded == {0, 1}, loaded
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            assert not any(c.over for c in clients), "the game ended before the kill"
            victim = rng.choice(workers)
            with contextlib.suppress(ProcessLookupError):
                os.kill(victim, signal.SIGKILL)
            connections = await asyncio.wait_for(asyncio.gather(*playing), FINISH_WITHIN)
            assert sum(connections) >= len(clients)
            events = await _verify_game(front, table, clients)
            assert stored_events(database, table) == events

        asyncio.run(scenario())
        # The supervisor started the killed worker again.
        again = _until(lambda: len(w := _workers_of(parent.pid)) == 2 and w, "a new worker")
        assert len(set(again) - set(workers)) == 1
        assert "worker died; starting it again" in log.read_text()
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(timeout=40) == 0
        assert _all_gone(workers + again)
        # The log (JSON: stderr is a file) is one JSON object a line, what the processes
        # of the killed worker printed (multiprocessing's warning on its semaphores) too.
        lines = log.read_text().splitlines()
        for line in lines:
            assert isinstance(json.loads(line), dict), line
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)


def _all_gone(pids: list[int]) -> bool:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 0)
            return False
    return True


def _last_event(url: str, table: str) -> tuple[int, str]:
    """The number and kind of the table's last stored event."""
    events = stored_events(url, table)
    return events[-1]["seq"], events[-1]["kind"]


def test_the_bots_of_a_table_nobody_is_at_play_on_in_another_process(
    database: str, tmp_path: Path
) -> None:
    """A table nobody is at, played by a bot and by a stand-in for the player who left, whose
    process is killed: once its lease runs out the other process takes it over on its own,
    and the bot and the stand-in play the game to its end."""
    slow = ("--tables-per-minute", "0", "--bot-delay", "0.2")
    servers = [
        ServerProcess(database, tmp_path / f"bots-{n}.log", grace=0.5, options=slow)
        for n in range(2)
    ]
    try:
        for server in servers:
            server.start()
        opened = httpx.post(
            f"{servers[0].http}/api/tables",
            json={"game": "knockout-whist", "seats": [{"kind": "human"}, {"kind": "bot"}]},
        )
        assert opened.status_code == 201, opened.text
        table = opened.json()["table"]
        token = opened.json()["seats"][0]["invite"].split("token=")[1]

        async def visit() -> None:  # the player comes and goes: a stand-in plays for them
            async with websockets.connect(servers[0].ws(table)) as socket:
                await socket.send(json.dumps({"type": "join", "token": token, "since": None}))
                await socket.recv()

        asyncio.run(visit())

        def stand_in() -> bool:
            return any(item.get("by") == "stand-in" for item in stored_events(database, table))

        _until(lambda: stand_in() and _last_event(database, table)[0] >= 8, "moves")
        servers[0].kill()
        killed = time.monotonic()
        before = _last_event(database, table)
        assert before[1] != "over", "the game ended before the kill; nothing was tested"
        _until(lambda: _last_event(database, table)[0] > before[0], "a move after the kill")
        took = time.monotonic() - killed
        # The lease (6 s) runs out, and the next look (every 2 s) takes the table over.
        assert took < 12.0, took
        _until(lambda: _last_event(database, table)[1] == "over", "the game's end", 60.0)
        assert "table taken over" in servers[1].log.read_text()
        events = stored_events(database, table)
        assert [item["seq"] for item in events] == list(range(1, len(events) + 1))
        after = [item["by"] for item in events[before[0] :] if item["kind"] == "action"]
        assert {"bot", "stand-in"} <= set(after), after
    finally:
        for server in servers:
            if server.process is not None:
                server.kill()


def test_one_clients_allowance_of_tables_holds_across_processes(
    database: str, tmp_path: Path
) -> None:
    """``--tables-per-minute 5`` on two processes sharing the database: one client asking
    each in turn (20 requests, sent at once) opens 5 tables in all, not 5 at each, and is
    told when to come back at both."""
    options = ("--tables-per-minute", "5")
    servers = [
        ServerProcess(database, tmp_path / f"limit-{n}.log", options=options) for n in range(2)
    ]
    request = {"game": "kryt-navalivat", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    try:
        for server in servers:
            server.start()
        before = _table_count(database)

        async def ask(server: ServerProcess) -> int:
            async with httpx.AsyncClient(base_url=server.http, timeout=30.0) as http:
                answer = await http.post("/api/tables", json=request)
                if answer.status_code == 429:
                    assert 1 <= int(answer.headers["Retry-After"]) <= 12
                return answer.status_code

        async def burst() -> list[int]:
            asks = [ask(servers[n % 2]) for n in range(20)]
            return await asyncio.gather(*asks)

        statuses = asyncio.run(burst())
        assert sorted(statuses) == [201] * 5 + [429] * 15, statuses
        assert _table_count(database) == before + 5
    finally:
        for server in servers:
            server.stop()


def _table_count(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.execute(text("SELECT count(*) FROM tables")).scalar_one())
    finally:
        engine.dispose()
