"""PostgreSQL failing under two ``cardtable serve`` processes while tables are played: what
``tests/server/test_server_database_failures.py`` and ``scripts/database_failures.py`` share.

A private PostgreSQL server (``postgres_server.py``) and two real server processes on it, on
loopback. For each :class:`Case`, fresh tables are opened (on both processes), each with two
scripted players, a bot, and a seat whose player never comes and for whom a stand-in plays;
every client connects to either process at random and plays as fast as a quick person. A
moment into the games the database fails in the case's way for the case's time, and comes
back. The players do what the page lets a person do: an action refused ``unavailable`` is
sent again a moment later, a socket that closes is opened again, a join refused
``unavailable`` is tried again. A :class:`Probe` at a table of its own sends one move once
the database has failed, and again once it is back: whether an action sent meanwhile is
refused, and when. Meanwhile both processes' ``/ready`` are polled.

Each case is judged on the games played to their end: every client saw exactly the events
the database holds, each once and in order; every action the server acknowledged is stored
at the number it was announced with; each record replays (``test_server_restart``'s
``_verify_game``). Its figures: the events stored, the actions acknowledged and refused,
the acknowledged actions missing (losses: 0), how long after the database was back the first
action and every table's first action were stored, ``/ready``'s answers during the failure,
and the metrics' counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import websockets
from sqlalchemy import create_engine, text

from cardtable.server.commits import COMMIT_PATIENCE
from cardtable.server.outages import CONNECTION, READ_ONLY
from postgres_proxy import PostgresProxy
from postgres_server import pg_ctl, stored_events
from restart_pieces import Client, _clients, _open_table, _verify_game
from served import ServerProcess

__all__ = ["CASES", "Case", "Database", "FailingPlayer", "Probe", "cases", "run_case"]

SEATS = [
    {"kind": "human", "name": "Ana"},
    {"kind": "bot", "level": "easy"},
    {"kind": "human", "name": "Bo"},
    {"kind": "human", "name": "absent"},
]
PROBE_SEATS = [{"kind": "human", "name": "Cy"}, {"kind": "human", "name": "Di"}]
RESEND_AFTER = 0.5  # seconds a player waits before sending a refused action again
SILENCE = 60.0  # seconds a client may hear nothing (a failure, the writer's patience, a move)
FINISH_WITHIN = 90.0  # seconds every game has, after the database is back, to end
POLL_EVERY = 0.2  # seconds between two looks at each process's /ready


class Database:
    """What an operator (or a failure) does to the private PostgreSQL server of ``url``:
    statements run on the server's ``postgres`` database, as its superuser."""

    def __init__(self, url: str, proxy: PostgresProxy | None = None) -> None:
        self.url = url
        self.proxy = proxy  # the one the servers reach the database through, if any
        parts = urlsplit(url)
        self.name = parts.path.lstrip("/")
        self.admin_url = urlunsplit(parts._replace(path="/postgres"))

    def sql(self, *statements: str, reset: bool = True) -> list[Any]:
        """Run the statements (each in a transaction of its own); the first column of
        each one's first row, if any. ``reset``: writable whatever the server's default."""
        engine = create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
        firsts: list[Any] = []
        try:
            with engine.connect() as connection:
                if reset:  # whatever the server's default is now (a read-only case sets it)
                    connection.execute(text("SET default_transaction_read_only = off"))
                for statement in statements:
                    result = connection.execute(text(statement))
                    firsts.append(result.scalar() if result.returns_rows else None)
        finally:
            engine.dispose()
        return firsts

    def terminate(self) -> int:
        """End every connection to the tables' database (the servers'): how many."""
        killed = self.sql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            f"WHERE datname = '{self.name}' AND pid <> pg_backend_pid()"
        )[0]
        return int(killed)

    def stop(self, mode: str = "fast") -> None:
        pg_ctl(self.url, "stop" if mode == "fast" else "stop-immediate")

    def start(self) -> None:
        pg_ctl(self.url, "start")

    def refuse(self) -> None:
        """The database stays up but lets nobody in: new connections are refused, and the
        ones open are ended."""
        self.sql(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS false')
        self.terminate()

    def admit(self) -> None:
        self.sql(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS true')

    def hang(self) -> None:
        """The database answers nothing and closes nothing (a frozen machine, a network
        partition): the servers' proxy forwards nothing either way."""
        assert self.proxy is not None, "a hang needs the servers behind a PostgresProxy"
        self.proxy.hang()

    def heal(self) -> None:
        """The partition heals: the connections that hung are gone, new ones are served."""
        assert self.proxy is not None
        self.proxy.heal()

    def read_only(self, on: bool) -> None:
        """Every transaction read-only from now on, the open connections' too (a reload
        applies the setting to each session at its next statement), as a primary turned
        standby or a maintenance window would make it; or writable again."""
        change = (
            "ALTER SYSTEM SET default_transaction_read_only = on"
            if on
            else "ALTER SYSTEM RESET default_transaction_read_only"
        )
        self.sql(change, "SELECT pg_reload_conf()")
        # The reload is signalled, not awaited: once a new session starts with the setting,
        # the postmaster has read it and signalled every open session, which applies it at
        # its next statement. Until then a write could still be taken.
        wanted = "on" if on else "off"
        deadline = time.monotonic() + 10.0
        while self.sql("SHOW default_transaction_read_only", reset=False)[0] != wanted:
            assert time.monotonic() < deadline, f"the reload never set read-only {wanted}"
            time.sleep(0.01)

    def events(self, tables: list[str]) -> list[tuple[str, int, str, float]]:
        """(table, seq, kind, created) of every event of the tables."""
        engine = create_engine(self.url)
        try:
            with engine.connect() as connection:
                rows = connection.execute(
                    text(
                        "SELECT table_id, seq, kind, created FROM events "
                        "WHERE table_id = ANY(:tables) ORDER BY created"
                    ),
                    {"tables": tables},
                ).all()
        finally:
            engine.dispose()
        return [(str(t), int(s), str(k), float(c)) for t, s, k, c in rows]


@dataclass(frozen=True)
class Case:
    """One way for the database to fail: ``fail`` starts it, ``hold`` seconds later
    ``recover`` ends it. ``refusals``: whether an action sent meanwhile must be refused
    ``unavailable`` (the failure outlasts the writer's patience) and ``/ready`` must say
    503 ``database``; ``kind``: the kind of ``cardtable_database_errors_total`` it is
    counted as (``outages.py``)."""

    name: str
    fail: Callable[[Database], Any]
    recover: Callable[[Database], Any]
    hold: float
    refusals: bool
    kind: str


def _nothing(_database: Database) -> None:
    pass


def cases(
    *,
    restart: float = 6.5,
    unreachable: float = 10.0,
    read_only: float = 10.0,
    hung: float = 10.0,
) -> list[Case]:
    """The failures, each for its seconds: down after a fast stop for ``restart`` seconds,
    then started again; stopped at once (as a crash would) and started again at once
    (recovery); every connection ended; every connection ended and new ones refused for
    ``unreachable`` seconds; read-only for ``read_only`` seconds; silent without closing
    anything for ``hung`` seconds (the servers must be behind the :class:`Database`'s
    proxy). A failure that lasts past the writer's patience (5 s) must refuse the actions
    sent meanwhile."""
    patience = COMMIT_PATIENCE + 1.0
    return [
        Case(
            "restart-fast",
            lambda d: d.stop("fast"),
            lambda d: d.start(),
            restart,
            restart > patience,
            CONNECTION,
        ),
        Case(
            "restart-immediate",
            lambda d: d.stop("immediate"),
            lambda d: d.start(),
            0.0,
            False,
            CONNECTION,
        ),
        Case("terminate", lambda d: d.terminate(), _nothing, 0.0, False, CONNECTION),
        Case(
            "unreachable",
            lambda d: d.refuse(),
            lambda d: d.admit(),
            unreachable,
            unreachable > patience,
            CONNECTION,
        ),
        Case(
            "read-only",
            lambda d: d.read_only(True),
            lambda d: d.read_only(False),
            read_only,
            read_only > patience,
            READ_ONLY,
        ),
        Case("hung", lambda d: d.hang(), lambda d: d.heal(), hung, hung > patience, CONNECTION),
    ]


CASES = [case.name for case in cases()]


class RefusedError(Exception):
    """A join the server could not serve yet (``unavailable``): the client tries again."""


@dataclass
class FailingPlayer(Client):
    """A scripted seat (or spectator) that plays through database failures as the page lets
    a person: an action refused ``unavailable`` is sent again (chosen again from the same
    view) after :data:`RESEND_AFTER`; a join refused so is tried again. ``absent``: a seat
    it asks a stand-in for whenever it joins."""

    absent: int | None = None
    think: tuple[float, float] = (0.02, 0.06)
    refusals: list[tuple[float, int]] = field(default_factory=list)  # (monotonic, seq)
    resend_at: float | None = None

    async def connect(self, server: ServerProcess, table: str) -> dict[str, Any]:
        self.socket = await websockets.connect(server.ws(table))
        since = self.seq
        await self.socket.send(json.dumps({"type": "join", "token": self.token, "since": since}))
        first = await self.receive()
        if first["type"] == "error" and first["code"] == "unavailable":
            self.refusals.append((time.monotonic(), self.seq))
            raise RefusedError(first["message"])
        assert first["type"] == "snapshot", first
        assert first["seat"] == self.seat
        assert first["seq"] == first["table"]["seq"] >= since
        assert [item["seq"] for item in first["missed"]] == list(range(since + 1, first["seq"] + 1))
        for item in first["missed"]:
            self.see(item)
        self.views.append((first["seq"], first["view"]))
        self.resend_at = None
        if self.absent is not None:
            await self.socket.send(json.dumps({"type": "stand_in", "seat": self.absent}))
        return first

    def take(self, message: dict[str, Any]) -> bool:
        if message["type"] == "error" and message["code"] == "unavailable":
            self.refusals.append((time.monotonic(), self.seq))
            self.resend_at = time.monotonic() + RESEND_AFTER
            return False
        if message["type"] == "event":
            self.resend_at = None
        return super().take(message)

    async def send_action(self, action: str) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        await super().send_action(action)

    async def play(self) -> None:
        assert self.socket is not None
        heard = time.monotonic()
        with contextlib.suppress(websockets.ConnectionClosed):
            if self.views and (action := self.choice(self.views[-1][1])):
                await self.send_action(action)
            while not self.over:
                try:
                    raw = await asyncio.wait_for(self.socket.recv(), 0.1)
                except TimeoutError:
                    if self.resend_at is not None and time.monotonic() >= self.resend_at:
                        self.resend_at = None
                        if action := self.choice(self.views[-1][1]):
                            await self.send_action(action)
                    if time.monotonic() - heard > SILENCE:
                        raise
                    continue
                heard = time.monotonic()
                if self.take(json.loads(raw)) and (action := self.choice(self.views[-1][1])):
                    await self.send_action(action)


async def keep_playing(
    client: Client,
    servers: list[ServerProcess],
    table: str,
    rng: random.Random,
    *,
    pause: float = 0.2,
    silence: float = SILENCE,
) -> int:
    """Connect to either server and play until the game is over, connecting again whenever
    a socket closes or a join is refused (``pause`` seconds after a connection that failed);
    the number of connections. ``silence``: the seconds ``client`` may hear nothing, for the
    failure's message."""
    connections = 0
    while not client.over:
        server = rng.choice(servers)
        try:
            await client.connect(server, table)
        except (OSError, TimeoutError, RefusedError, websockets.exceptions.WebSocketException):
            await client.close()
            client.socket = None
            await asyncio.sleep(pause)
            continue
        connections += 1
        try:
            await client.play()
        except TimeoutError:
            raise AssertionError(
                f"seat {client.seat} heard nothing for {silence} s after event "
                f"{client.seq} of table {table}, on port {server.port}"
            ) from None
        await client.close()
    return connections


class ReadyPoller:
    """Looks at each server's ``/ready`` every :data:`POLL_EVERY` seconds, in a thread of
    its own: (monotonic time, server, status, reason) of each answer (status 0: none)."""

    def __init__(self, servers: list[ServerProcess]) -> None:
        self.servers = servers
        self.answers: list[tuple[float, int, int, str | None]] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self) -> ReadyPoller:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        self.thread.join(10)

    def _poll(self) -> None:
        with httpx.Client(timeout=5.0) as client:
            while not self.stopping.is_set():
                for index, server in enumerate(self.servers):
                    status, reason = 0, None
                    with contextlib.suppress(httpx.HTTPError):
                        answer = client.get(f"{server.http}/ready")
                        status = answer.status_code
                        if status == 503:
                            reason = answer.json().get("reason")
                    self.answers.append((time.monotonic(), index, status, reason))
                self.stopping.wait(POLL_EVERY)


METRIC = re.compile(r"^(cardtable_[a-z_]+)(\{[^}]*\})? ([0-9.e+-]+|NaN)$")


def metrics(server: ServerProcess) -> dict[str, float]:
    """The server's counters and gauges of the database, by name and labels."""
    found: dict[str, float] = {}
    answer = httpx.get(f"{server.http}/metrics", timeout=5.0)
    for line in answer.text.splitlines():
        match = METRIC.match(line)
        if match and ("database" in match[1] or "unavailable" in match[1]):
            found[match[1] + (match[2] or "")] = float(match[3])
    return found


def _difference(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {
        name: round(value - before.get(name, 0.0), 3)
        for name, value in sorted(after.items())
        if "_total" in name
        if value != before.get(name, 0.0)
    }


class Probe:
    """One seat of a table of two people, nobody else playing, that sends its move once the
    database has failed: the answer says whether a change sent meanwhile is refused
    ``unavailable``. A refused move is sent again once the database is back, as a person
    would send it again, until it is stored."""

    def __init__(self, server: ServerProcess, opened: dict[str, Any]) -> None:
        self.server = server
        self.table = opened["table"]
        self.tokens = [entry["invite"].split("token=")[1] for entry in opened["seats"]]
        self.socket: websockets.ClientConnection | None = None
        self.token = ""
        self.seq = 0
        self.action = ""
        self.refused_after: float | None = None  # seconds from sending to the refusal
        self.stored_after_back: float | None = None

    async def join(self) -> None:
        """Join as the seat to move."""
        async with websockets.connect(self.server.ws(self.table)) as watching:
            await watching.send(json.dumps({"type": "join", "token": None, "since": None}))
            snapshot = json.loads(await asyncio.wait_for(watching.recv(), 10))
        self.token = self.tokens[snapshot["view"]["to_move"]]
        self.socket = await websockets.connect(self.server.ws(self.table))
        join = {"type": "join", "token": self.token, "since": None}
        await self.socket.send(json.dumps(join))
        snapshot = await self._next("snapshot")
        self.seq, self.action = snapshot["seq"], snapshot["view"]["legal_actions"][0]

    async def _next(self, *kinds: str, within: float = 30.0) -> dict[str, Any]:
        assert self.socket is not None
        deadline = time.monotonic() + within
        while True:
            left = deadline - time.monotonic()
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.socket.recv(), left))
            if message["type"] in kinds:
                return message

    async def _send(self) -> dict[str, Any]:
        """Send the move; the answer: its event, or a refusal. A socket closed meanwhile
        (the table moved to the other process) is opened again, and the events missed say
        whether the move was stored."""
        assert self.socket is not None
        message = {"type": "action", "action": self.action, "seq": self.seq}
        try:
            await self.socket.send(json.dumps(message))
            return await self._next("event", "error")
        except websockets.ConnectionClosed:
            pass
        await self.socket.close()
        self.socket = await websockets.connect(self.server.ws(self.table))
        join = {"type": "join", "token": self.token, "since": self.seq}
        await self.socket.send(json.dumps(join))
        snapshot = await self._next("snapshot", "error")
        if snapshot["type"] == "error":
            return snapshot  # unavailable: not joined, the socket closes
        if snapshot["missed"]:
            return {"type": "event", "seq": self.seq + 1, "event": snapshot["missed"][0]}
        return await self._send()

    async def run(self, failed: asyncio.Event, back: asyncio.Event) -> None:
        await failed.wait()
        sent = time.monotonic()
        answer = await self._send()
        if answer["type"] == "error":
            assert answer["code"] == "unavailable", answer
            self.refused_after = time.monotonic() - sent
            await back.wait()
            returned = time.monotonic()
            answer = await self._send()
            while answer["type"] == "error":
                assert answer["code"] == "unavailable", answer
                await asyncio.sleep(RESEND_AFTER)
                answer = await self._send()
            self.stored_after_back = time.monotonic() - returned
        assert answer["event"]["action"] == self.action and answer["seq"] == self.seq + 1

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


async def run_case(
    case: Case,
    servers: list[ServerProcess],
    database: Database,
    tables: int,
    seed: int,
) -> dict[str, Any]:
    """Open ``tables`` tables (owned by the processes in turn) and a :class:`Probe`'s, play
    them, fail the database ``case``'s way a moment into the games, and play every game to
    its end; the case's figures, once every check passed."""
    rng = random.Random(seed)
    opened: dict[str, list[FailingPlayer]] = {}
    for number in range(tables):
        made = await _open_table(servers[number % len(servers)], "knockout-whist", SEATS)
        absent = made["seats"][3]
        players = [
            FailingPlayer(c.seat, c.token, random.Random(seed + 10 * number + i))
            for i, c in enumerate(_clients(made, seed + number))
            if c.seat != absent["seat"]
        ]
        players[0].absent = absent["seat"]
        watcher = FailingPlayer(None, None, random.Random(seed + number))
        opened[made["table"]] = [*players, watcher]
    owner = rng.randrange(len(servers))
    probed = await _open_table(servers[owner], "knockout-whist", PROBE_SEATS)
    probe = Probe(servers[owner], probed)
    await probe.join()
    before = [await asyncio.to_thread(metrics, server) for server in servers]
    failed, back = asyncio.Event(), asyncio.Event()
    with ReadyPoller(servers) as poller:
        probing = asyncio.create_task(probe.run(failed, back))
        playing = [
            asyncio.create_task(keep_playing(client, servers, table, rng))
            for table, clients in opened.items()
            for client in clients
        ]
        # A moment into the games: every table has moved on from its deal.
        await asyncio.sleep(0.8)
        assert not any(task.done() for task in playing), "a game ended before the failure"
        failing = time.monotonic()
        killed = await asyncio.to_thread(case.fail, database)
        failed.set()
        failed_at, failed_wall = time.monotonic(), time.time()
        await asyncio.sleep(case.hold)
        await asyncio.to_thread(case.recover, database)
        back.set()
        back_at, back_wall = time.monotonic(), time.time()
        connections = await asyncio.wait_for(asyncio.gather(*playing), FINISH_WITHIN)
        await asyncio.wait_for(probing, FINISH_WITHIN)
        ended = time.monotonic()
        await asyncio.sleep(2 * POLL_EVERY)  # a look at /ready after the end
    await probe.close()
    after = [await asyncio.to_thread(metrics, server) for server in servers]

    # Losses first, from the database itself: every action a client was told of.
    records = {
        table: await asyncio.to_thread(stored_events, database.url, table) for table in opened
    }
    acknowledged = lost = 0
    for table, clients in opened.items():
        for client in clients:
            for seq, seat, action in client.acknowledged:
                acknowledged += 1
                found = records[table][seq - 1] if seq <= len(records[table]) else {}
                if (found.get("kind"), found.get("seat"), found.get("action")) != (
                    "action",
                    seat,
                    action,
                ):
                    lost += 1
    probe_record = await asyncio.to_thread(stored_events, database.url, probe.table)
    assert [item.get("action") for item in probe_record[probe.seq :]] == [probe.action]
    for table, clients in opened.items():
        events = await _verify_game(servers[rng.randrange(len(servers))], table, list(clients))
        assert events == records[table]

    stored = await asyncio.to_thread(database.events, list(opened))
    # The first action stored after the database was back, on any table and on each.
    firsts: dict[str, float] = {}
    for table, _seq, kind, created in stored:
        if kind == "action" and created >= back_wall and table not in firsts:
            firsts[table] = created - back_wall
    during = [row for row in stored if failed_wall <= row[3] < back_wall - 0.5]
    refusals = sum(len(client.refusals) for clients in opened.values() for client in clients)
    looks = poller.answers
    meanwhile = [look for look in looks if failed_at + 0.5 <= look[0] <= back_at]
    figures: dict[str, Any] = {
        "case": case.name,
        "failed_for_s": round(back_at - failing, 2),
        "connections_ended": killed if isinstance(killed, int) else None,
        "tables": len(opened),
        "events_stored": sum(len(record) for record in records.values()),
        "events_stored_while_failed": len(during),
        "actions_acknowledged": acknowledged,
        "acknowledged_lost": lost,
        "actions_refused_unavailable": refusals + (probe.refused_after is not None),
        "reconnections": sum(connections) - len(connections),
        "probe_refused_after_s": _rounded(probe.refused_after),
        "probe_stored_after_back_s": _rounded(probe.stored_after_back),
        "resume_first_s": _rounded(min(firsts.values(), default=None)),
        "resume_every_table_s": _rounded(
            max(firsts.values()) if len(firsts) == len(opened) else None
        ),
        "finished_after_back_s": _rounded(ended - back_at),
        "ready_looks_while_failed": len(meanwhile),
        "ready_503_while_failed": [
            sum(1 for _, i, status, _ in meanwhile if i == index and status == 503)
            for index in range(len(servers))
        ],
        "ready_reasons": sorted({r for *_, status, r in meanwhile if status == 503 and r}),
        "ready_again_after_back_s": [
            _rounded(
                min(
                    (
                        at - back_at
                        for at, i, status, _ in looks
                        if i == index and at >= back_at and status == 200
                    ),
                    default=None,
                )
            )
            for index in range(len(servers))
        ],
        "metrics": [_difference(a, b) for a, b in zip(after, before, strict=True)],
        "database_up_after": [a.get("cardtable_database_up") for a in after],
    }
    return figures


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
