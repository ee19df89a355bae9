"""A killed server loses nothing it acknowledged: ``cardtable serve`` as a real process.

The server runs as a subprocess on a temporary SQLite database and is killed with SIGKILL
(its whole process group, bot workers included) in the middle of a game while the human
seats play as fast as the server answers them; then it is started again on the same
database. Each seat reconnects with ``since`` = the last event it saw, and the test checks
what docs/server.md promises: every action the server acknowledged is still there, at
the number it was announced with; the missed events fill the gap exactly and the numbering
goes on; every view a seat was ever sent is the view its seat has in the game's record;
and the game plays on to its end. An action sent just before a kill is either wholly
stored or wholly absent.

Nothing is mocked: the clients speak HTTP (httpx) and websockets to the real server.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx

from restart_pieces import MESSAGE_TIMEOUT, Client, _clients, _open_table, _seed, _verify_game
from served import ServerProcess


async def health_of(server: ServerProcess) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as client:
        answer = await client.get("/health")
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result


def test_a_killed_server_keeps_every_acknowledged_action(tmp_path: Path) -> None:
    seed = _seed()
    rng = random.Random(seed)
    # No stand-in may play for a seat while it reconnects: every action is the test's.
    server = ServerProcess(tmp_path / "tables.db", tmp_path / "server.log", grace=3600)

    async def scenario() -> None:
        server.start()
        opened = await _open_table(
            server,
            "knockout-whist",
            [
                {"kind": "human", "name": "Ana"},
                {"kind": "human", "name": "Bo"},
                {"kind": "bot", "level": "easy"},
                {"kind": "human", "name": "Cy"},
            ],
        )
        table = opened["table"]
        clients = _clients(opened, seed)
        watcher = Client(None, None, rng)
        everyone = [*clients, watcher]
        kills = 0
        while True:
            for client in everyone:
                await client.connect(server, table)
            if kills == 3:
                break
            # Kill after a few more acknowledged actions, at a moment a few milliseconds on,
            # while the seats send the next actions as fast as the server announces turns.
            target = sum(len(c.acknowledged) for c in clients) + rng.randint(2, 6)
            players = [asyncio.create_task(client.play()) for client in everyone]
            while sum(len(c.acknowledged) for c in clients) < target:
                assert not any(p.done() for p in players), "a client stopped before the kill"
                await asyncio.sleep(0.001)
            await asyncio.sleep(rng.uniform(0.0, 0.01))
            server.kill()
            kills += 1
            await asyncio.wait_for(asyncio.gather(*players), MESSAGE_TIMEOUT)
            for client in everyone:
                await client.close()
            assert not watcher.over, "the game ended before the kill; nothing was tested"
            server.start()
            assert (await health_of(server))["tables"] == 1
        # Played on to its end after the last restart.
        await asyncio.wait_for(
            asyncio.gather(*(client.play() for client in everyone)), 4 * MESSAGE_TIMEOUT
        )
        for client in everyone:
            await client.close()
        events = await _verify_game(server, table, everyone)
        assert sum(len(c.acknowledged) for c in clients) >= 3 * 2
        assert any(item["kind"] == "action" and item["by"] == "bot" for item in events)
        health = await health_of(server)
        assert health["status"] == "ok" and health["database"] == "sqlite"
        assert health["tables"] == 1 and health["quarantined"] == 0

    try:
        asyncio.run(scenario())
    finally:
        if server.process is not None:
            server.kill()


def test_an_unacknowledged_action_is_stored_whole_or_not_at_all(tmp_path: Path) -> None:
    seed = _seed()
    rng = random.Random(seed)
    # No stand-in may play for a seat while it reconnects: every action is the test's.
    server = ServerProcess(tmp_path / "tables.db", tmp_path / "server.log", grace=3600)
    outcomes: list[str] = []

    async def scenario() -> None:
        server.start()
        opened = await _open_table(server, "knockout-whist", [{"kind": "human"}, {"kind": "human"}])
        table = opened["table"]
        clients = _clients(opened, seed)
        # The kill comes before the server can have read the action, while it may be
        # committing it, and after it has certainly answered; the client reads nothing.
        for delay in (0.0, rng.uniform(0.0005, 0.004), 0.1):
            for client in clients:
                await client.connect(server, table)
            mover = next(c for c in clients if c.choice(c.views[-1][1]) is not None)
            before = mover.seq
            action = mover.choice(mover.views[-1][1])
            assert action is not None
            legal_before = mover.views[-1][1]["legal_actions"]
            await mover.send_action(action)
            mover.sent.pop()  # never acknowledged: the client is gone before any answer
            await asyncio.sleep(delay)
            server.kill()
            for client in clients:
                await client.close()
            server.start()
            snapshot = await mover.connect(server, table)
            after = snapshot["missed"]
            if after:
                # Stored: the action is the very next event, as sent, and the seat's view
                # has moved on past it.
                outcomes.append("stored")
                first = after[0]
                assert (first["kind"], first["seat"], first["action"], first["by"]) == (
                    "action",
                    mover.seat,
                    action,
                    "human",
                )
                assert all(item["kind"] != "action" for item in after[1:])
                assert snapshot["view"].get("to_move") != mover.seat or (
                    snapshot["view"]["legal_actions"] != legal_before
                )
            else:
                # Absent: nothing happened, and the same action is still the seat's to play.
                outcomes.append("absent")
                assert snapshot["seq"] == before
                assert snapshot["view"]["legal_actions"] == legal_before
            await mover.close()
        for client in clients:
            await client.connect(server, table)
        await asyncio.wait_for(
            asyncio.gather(*(client.play() for client in clients)), 4 * MESSAGE_TIMEOUT
        )
        for client in clients:
            await client.close()
        # Each stored action is in the record exactly once, the game replays and every
        # view sent matches it (an action stored twice or half would break the replay).
        events = await _verify_game(server, table, clients)
        assert len([item for item in events if item["kind"] == "action"]) >= len(outcomes)

    try:
        asyncio.run(scenario())
    finally:
        if server.process is not None:
            server.kill()
    assert len(outcomes) == 3
