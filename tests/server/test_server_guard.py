"""Two server processes can never both accept an action for one table (docs/hosting.md,
"Many processes"): a change is stored only if its event numbers are still free, whatever
any lease says.

Two real processes, each with its own connection to the database, replay the same table,
make a change from the same event number (each a different action, or the same one under a
different name) and commit it at the same moment, two hundred times: every time exactly one
is stored and the other refused whole, the table's record stays numbered without a gap, and
it replays. On SQLite (one server process, but a script or a second server by mistake may
write) the same guard holds. Then, in the server itself: a process whose copy of a table is
behind loses its change, drops that copy (counted out of the metrics), closes its seats'
sockets with 1012 and serves the table again as stored; a server that stops gives up its
leases before it closes its sockets, and takes no new one for a look at a table; and a
database down while a table is claimed is answered ``unavailable``.
"""

from __future__ import annotations

import multiprocessing
import re
from collections.abc import Iterator
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.server.app import create_app
from cardtable.server.hub import Hub
from cardtable.server.store import Store
from cardtable.server.table import Table
from postgres_server import pg_ctl, postgres_url
from server_pieces import Socket, humans, open_table, tokens_of, until

RACES = 200


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.db'}"
    else:
        with postgres_url() as url:
            yield url


def _racer(url: str, table_id: str, index: int, barrier: Barrier, results: Any) -> None:
    """One process: RACES times, replay the table as stored, make a change from its last
    event, and commit it when the other process does."""
    store = Store(url)
    try:
        for race in range(RACES):
            stored = store.load(table_id)
            assert stored is not None
            table = Table.restore(stored)
            if table.state.is_over:
                change = table.next_game()
            else:
                mover = table.state.to_move
                assert mover is not None
                legal = table.view(mover)["legal_actions"]
                # Different actions where there is a choice; the same one, under each
                # process's name, where there is not.
                change = table.act(mover, legal[index % len(legal)], f"racer-{index}")
            barrier.wait(timeout=30)
            refused = store.append_guarded([(table_id, change.events, change.deals)])
            results.put((race, index, table.seq + 1, not refused, change.events))
            barrier.wait(timeout=30)  # both have committed (or not) before the next look
    finally:
        store.close()


def test_two_processes_racing_for_one_table_never_both_store(database: str) -> None:
    store = Store(database)
    try:
        table, _tokens, change = Table.open("knockout-whist", {}, humans(2))
        store.create_table(table.creation(change))
        context = multiprocessing.get_context("spawn")
        barrier = context.Barrier(2)
        results = context.Queue()
        racers = [
            context.Process(target=_racer, args=(database, table.id, index, barrier, results))
            for index in range(2)
        ]
        for racer in racers:
            racer.start()
        outcomes: dict[int, list[tuple[int, int, bool, list[dict[str, Any]]]]] = {}
        for _ in range(2 * RACES):
            race, index, seq, stored, events = results.get(timeout=60)
            outcomes.setdefault(race, []).append((index, seq, stored, events))
        for racer in racers:
            racer.join(timeout=30)
            assert racer.exitcode == 0
        record = store.load(table.id)
    finally:
        store.close()
    assert record is not None
    # Both started from the same event every time, and exactly one was stored.
    assert sorted(outcomes) == list(range(RACES))
    winners = []
    for race, pair in sorted(outcomes.items()):
        assert pair[0][1] == pair[1][1], f"race {race}: not from the same event"
        stored = [entry for entry in pair if entry[2]]
        assert len(stored) == 1, f"race {race}: {len(stored)} changes stored"
        winners.append(stored[0])
    # The record is the winners' changes, in order, numbered without a gap, and replays.
    assert [item["seq"] for item in record.events] == list(range(1, len(record.events) + 1))
    for _index, seq, _stored, events in winners:
        assert record.events[seq - 1 : seq - 1 + len(events)] == events
    assert sum(len(events) for *_, events in winners) == len(record.events) - winners[0][1] + 1
    games = [item for item in record.events if item["kind"] == "game"]
    assert len(games) >= 2, "no race was over a new game's deal"
    assert {index for index, *_ in winners} == {0, 1}
    Table.restore(record)


def _until_closed(socket: Socket) -> int:
    """Read until the server closes the socket; its close code."""
    try:
        while True:
            socket.receive()
    except WebSocketDisconnect as closed:
        return closed.code


def test_a_server_whose_copy_is_behind_drops_it_and_its_seats_resync(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    # Two servers on one database, each holding the table: as two processes would whose
    # leases went wrong (on SQLite there are none to ask).
    with (
        TestClient(create_app(url, bot_delay=0, workers=1)) as first,
        TestClient(create_app(url, bot_delay=0, workers=1)) as second,
    ):
        opened = open_table(first, "knockout-whist", humans(2))
        table = opened["table"]
        tokens = tokens_of(opened)
        with (
            first.websocket_connect(f"/ws/{table}") as a_session,
            second.websocket_connect(f"/ws/{table}") as b_session,
        ):
            a, b = Socket(a_session, "first"), Socket(b_session, "second")
            a.join(None)
            mover = a.view["to_move"]
            a.join(tokens[mover])
            b.join(tokens[mover])
            seq = a.seq
            assert b.seq == seq
            legal = a.view["legal_actions"]
            a.act(legal[0])
            assert a.seq > seq
            # The second server's copy is behind: its change would take the same number.
            b.send({"type": "action", "action": legal[-1], "seq": seq})
            assert _until_closed(b) == 1012
        # Loaded again, as stored: the second server does so in the background, once the
        # dropped copy's sockets are closed.
        until(lambda: second.get("/health").json()["loaded"] == 1)
        # The dropped copy's socket and seat are counted out of the metrics: the copy
        # loaded again has nobody at it yet.
        text = second.get("/metrics").text
        assert _gauge(text, "cardtable_tables_open") == 1
        assert _gauge(text, "cardtable_sockets_open") == 0
        assert _gauge(text, "cardtable_seats_connected") == 0
        with second.websocket_connect(f"/ws/{table}") as b_session:
            b = Socket(b_session, "second, again")
            snapshot = b.join(tokens[mover], since=seq)
            assert snapshot["seq"] == a.seq
            assert [item["seq"] for item in snapshot["missed"]] == list(range(seq + 1, a.seq + 1))
            assert snapshot["missed"][0]["action"] == legal[0]
            assert snapshot["view"] == a.view


def _gauge(text: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    assert found is not None, name
    return float(found.group(1))


def test_a_stopping_server_gives_up_its_leases_before_its_sockets_close() -> None:
    """A graceful stop (docs/hosting.md, "Graceful shutdown") on a shared database: once
    the changes under way are finished, the stopping process gives up its tables' leases,
    so that the process a reconnecting page reaches takes the table over at once."""
    with postgres_url() as url, TestClient(create_app(url, bot_delay=0, workers=1)) as first:
        hub: Hub = first.app.state.hub  # type: ignore[attr-defined]
        opened = open_table(first, "knockout-whist", humans(2))
        table = opened["table"]
        store = Store(url)
        try:
            owner = store.owner(table)
            assert owner is not None and owner.process == hub.leases.process
            with first.websocket_connect(f"/ws/{table}") as session:
                Socket(session, "seat").join(tokens_of(opened)[0])
                assert first.portal is not None
                assert first.portal.call(hub.drain, 2.0) is True
                assert _until_closed(Socket(session, "seat")) == 1012
            assert store.owner(table) is None
            assert first.get("/ready").status_code == 503
            # A look at a table not in memory reads the database and takes no lease: a
            # stopping server takes no table (its lease would hold the table until it ran
            # out, or until the process was gone).
            hub.evict_after = 0.0
            assert hub.sweep() >= 1 and table not in hub.tables
            looked = first.get(f"/api/tables/{table}")
            assert looked.status_code == 200 and looked.json()["table"] == table
            assert store.owner(table) is None and table not in hub.tables
        finally:
            store.close()


def test_a_database_down_while_a_table_is_claimed_is_unavailable_not_a_crash() -> None:
    """A page that connects to a table not in memory while the database is down hears
    ``unavailable`` and its socket closes (4503: try again); a look at the table answers 503
    with the same code; nothing was changed, and once the database is back the table is
    served. The claim is a write, retried as a commit is, for the server's patience (1 s
    here) before it is refused."""
    with (
        postgres_url() as url,
        TestClient(create_app(url, bot_delay=0, workers=1, commit_patience=1.0)) as client,
    ):
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        opened = open_table(client, "knockout-whist", humans(2))
        table = opened["table"]
        hub.evict_after = 0.0
        assert hub.sweep() >= 1 and table not in hub.tables
        pg_ctl(url, "stop")
        try:
            with client.websocket_connect(f"/ws/{table}") as session:
                refused = session.receive_json()
                assert refused["type"] == "error" and refused["code"] == "unavailable"
                with pytest.raises(WebSocketDisconnect) as closed:
                    session.receive_json()
                assert closed.value.code == 4503
            looked = client.get(f"/api/tables/{table}")
            assert looked.status_code == 503 and looked.json()["error"] == "unavailable"
        finally:
            pg_ctl(url, "start")
        hub.evict_after = 600.0
        with client.websocket_connect(f"/ws/{table}") as session:
            Socket(session, "seat").join(tokens_of(opened)[0])
        assert table in hub.tables


def test_a_lease_is_one_process_s_until_it_runs_out(database: str) -> None:
    """The owners' leases (docs/hosting.md): one process at a time holds a table, a lease
    that runs out or a process found dead lets another take it, a renewal keeps it, and a
    release gives it up."""
    store = Store(database)
    try:
        assert store.claim("t1", "a", "127.0.0.1:1", 30.0) is None
        assert store.claim("t1", "a", "127.0.0.1:1", 30.0) is None  # its own again
        held = store.claim("t1", "b", "127.0.0.1:2", 30.0)
        assert held is not None and (held.process, held.address) == ("a", "127.0.0.1:1")
        assert store.orphans("b", 10) == []
        # A process found not answering: taken over before its lease runs out.
        assert store.claim("t1", "b", "127.0.0.1:2", 30.0, dead="a") is None
        assert store.renew("a", 30.0) == set()  # a's renewal finds it gone
        assert store.renew("b", 30.0) == {"t1"}
        # A lease that ran out is an orphan, and anyone's to take.
        assert store.claim("t2", "a", "127.0.0.1:1", -1.0) is None
        assert store.orphans("b", 10) == ["t2"]
        assert store.orphans("a", 10) == []  # not its own
        assert store.claim("t2", "b", "127.0.0.1:2", 30.0) is None
        assert store.renew("b", 30.0) == {"t1", "t2"}
        store.release(["t1"], "a")  # not a's: nothing happens
        assert store.renew("b", 30.0) == {"t1", "t2"}
        store.release(["t1"], "b")
        assert store.renew("b", 30.0) == {"t2"}
        assert store.claim("t1", "a", None, 30.0) is None
        store.release([], "b")
        assert store.renew("b", 30.0) == set()
        assert store.owner("t1") is not None and store.owner("t2") is None
    finally:
        store.close()
