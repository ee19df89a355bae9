"""Server load benchmark: many tables played at once through real websockets.

Run it from the repository root::

    .venv/bin/python benchmarks/server.py                          # 500 tables, 60 s
    .venv/bin/python benchmarks/server.py --tables 50 --seconds 20
    .venv/bin/python benchmarks/server.py --json server.json
    .venv/bin/python benchmarks/server.py --url http://127.0.0.1:8000 --pid 1234
    .venv/bin/python benchmarks/server.py --processes 2          # 1 and 2 processes, PostgreSQL

It starts ``cardtable serve`` as a subprocess on a fresh SQLite database (or uses the
server at ``--url``), opens ``--tables`` tables over HTTP, each with one human seat and
``--players - 1`` bots of level ``--level``, and drives every table from this process:
the human seat's websocket plays a random legal action after a think time of about
``--think`` seconds whenever its turn comes (and starts the next game when one ends),
and a second websocket watches each table as a spectator.

What is measured, after ``--warmup`` seconds, for ``--seconds`` seconds:

- tables held: tables whose two sockets stayed open and whose human acted in the window;
- actions per second: every action event (human and bot) the spectators were sent;
- action→broadcast latency: from sending a human action to receiving the ``event`` that
  announces it, on the acting socket and on the spectator's (``both``: the later of the
  two). Bots' thinking is not in it: only human actions are timed;
- memory per table: the growth of the server's resident memory from before the tables
  were opened, divided by the tables (``--url`` needs ``--pid`` for it).

The load generator shares the machine with the server (the figures say so): its own
CPU time is reported beside the server's, so one can see who used the cores.

``--processes N`` runs the same load twice in one run, on PostgreSQL (``--database``, else a
private server started as the tests start theirs): against ``cardtable serve --workers 1``
and against ``--workers N`` (N processes behind the one port; a socket that reaches a
process not owning its table is relayed to the owner, docs/hosting.md). The two are shown
side by side. Then it measures how long a table takes to move when a process dies: one
worker, the one holding the most tables, is killed with SIGKILL; a spectator of each of
some of its tables reconnects at once and times how long it takes to be served again
(its table taken over), and the rest of its tables, with nobody connected, are timed until
another process holds their lease (the lease runs out first).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib
import json
import os
import platform
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

TARGET_TABLES = 500
TARGET_P99_MS = 50.0
START_TIMEOUT = 60.0
OPEN_CONCURRENCY = 16  # tables opened (and sockets joined) at once


@dataclass
class Sample:
    """One human action's timings, seconds after it was sent (None: not yet arrived)."""

    sent: float
    acting: float | None = None
    spectator: float | None = None


@dataclass
class Bench:
    """What the load generator counts while it runs."""

    window: tuple[float, float] = (float("inf"), float("inf"))
    samples: list[Sample] = field(default_factory=list)
    actions: int = 0  # action events seen by spectators inside the window
    human_actions: int = 0
    games_over: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    closed: int = 0  # sockets the server closed before the end

    def inside(self, moment: float) -> bool:
        return self.window[0] <= moment < self.window[1]


@dataclass
class TableDriver:
    """One table: the human seat's socket and a spectator's, and the human's pending action."""

    table: str
    token: str
    seat: int
    bench: Bench
    think: float
    rng: random.Random
    player: ClientConnection | None = None
    watcher: ClientConnection | None = None
    pending: dict[int, Sample] = field(default_factory=dict)  # event seq -> its timings
    acted_in_window: bool = False
    alive: bool = True
    stop: bool = False

    async def join(self, base: str) -> None:
        url = f"{base.replace('http', 'ws', 1)}/ws/{self.table}"
        self.player = await websockets.connect(url, max_size=2**20, compression=None)
        self.watcher = await websockets.connect(url, max_size=2**20, compression=None)
        await self.watcher.send(json.dumps({"type": "join", "token": None, "since": None}))
        await self.player.send(json.dumps({"type": "join", "token": self.token, "since": None}))

    async def play(self) -> None:
        assert self.player is not None
        acting: asyncio.Task[None] | None = None
        finished = False  # the game is over and the next one not yet begun
        try:
            async for raw in self.player:
                now = time.perf_counter()
                message = json.loads(raw)
                kind = message["type"]
                if kind == "error":
                    self.bench.errors[message["code"]] += 1
                    continue
                if kind == "snapshot":
                    seq, view = message["seq"], message["view"]
                elif kind == "event":
                    item = message["event"]
                    seq = message["seq"]
                    sample = self.pending.get(seq)
                    if sample is not None and item["kind"] == "action":
                        sample.acting = now - sample.sent
                        self._settle(seq, sample)
                    if item["kind"] == "over":
                        self.bench.games_over += 1
                        finished = True
                    elif item["kind"] == "game":
                        finished = False
                    if seq != message["table"]["seq"]:
                        continue  # not the change's last event; its view is the final one
                    view = message["view"]
                else:
                    continue
                if self.stop:
                    continue
                if view.get("to_move") == self.seat and view.get("legal_actions"):
                    action = self.rng.choice(view["legal_actions"])
                    acting = asyncio.create_task(
                        self._act({"type": "action", "action": action, "seq": seq}, seq + 1)
                    )
                elif finished:
                    finished = False
                    acting = asyncio.create_task(self._act({"type": "next"}, None))
        except websockets.ConnectionClosed:
            if not self.stop:
                self.bench.closed += 1
                self.alive = False
        finally:
            if acting is not None:
                acting.cancel()

    async def _act(self, message: dict[str, Any], expect: int | None) -> None:
        assert self.player is not None
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        if self.stop:
            return
        sent = time.perf_counter()
        if expect is not None:
            self.pending[expect] = Sample(sent)
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.player.send(json.dumps(message))
        if expect is not None and self.bench.inside(sent):
            self.acted_in_window = True

    async def watch(self) -> None:
        assert self.watcher is not None
        try:
            async for raw in self.watcher:
                now = time.perf_counter()
                message = json.loads(raw)
                if message["type"] != "event":
                    continue
                item = message["event"]
                if item["kind"] != "action":
                    continue
                inside = self.bench.inside(now)
                if inside:
                    self.bench.actions += 1
                sample = self.pending.get(message["seq"])
                if sample is not None:
                    if inside and item["by"] == "human":
                        self.bench.human_actions += 1
                    sample.spectator = now - sample.sent
                    self._settle(message["seq"], sample)
        except websockets.ConnectionClosed:
            if not self.stop:
                self.bench.closed += 1
                self.alive = False

    def _settle(self, seq: int, sample: Sample) -> None:
        if sample.acting is None or sample.spectator is None:
            return
        del self.pending[seq]
        if self.bench.inside(sample.sent):
            self.bench.samples.append(sample)

    async def close(self) -> None:
        self.stop = True
        for connection in (self.player, self.watcher):
            if connection is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(connection.close(), 5)


# The server --------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served:
    """``cardtable serve`` started for the benchmark, in its own process group: on a fresh
    SQLite file in ``folder``, or on ``database`` with ``processes`` server processes."""

    def __init__(
        self,
        folder: Path,
        workers: int | None,
        bot_delay: float,
        database: str | None = None,
        processes: int = 1,
    ) -> None:
        self.port = _free_port()
        self.log = folder / f"server-{processes}.log"
        command = [
            sys.executable,
            "-m",
            "cardtable",
            "serve",
            "--port",
            str(self.port),
            "--workers",
            str(processes),
            "--database",
            database or f"sqlite:///{folder / 'tables.db'}",
            "--bot-delay",
            str(bot_delay),
            "--grace",
            "3600",
            # One client opens every table of the benchmark, and holds all its sockets.
            "--tables-per-minute",
            "0",
            "--connections-per-client",
            "0",
        ]
        if workers is not None:
            command += ["--bot-workers", str(workers)]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, start_new_session=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


async def _wait_healthy(
    url: str, process: subprocess.Popen[bytes] | None, log: Path | None
) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    async with httpx.AsyncClient(base_url=url) as client:
        while time.monotonic() < deadline:
            if process is not None and process.poll() is not None:
                tail = log.read_text()[-2000:] if log else ""
                raise RuntimeError(f"the server exited:\n{tail}")
            with contextlib.suppress(httpx.TransportError):
                if (await client.get("/health")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise RuntimeError(f"no answer from {url}/health in {START_TIMEOUT:.0f} s")


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (the bot workers and their fork server), from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended while we looked
        # The command name may hold spaces and parentheses; the fields after it do not.
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


def _rss(pid: int) -> float:
    """Resident memory of a process in MiB (0 if it has ended)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (0 if it has ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are the 14th and 15th fields of stat, counted from the pid.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _memory(pid: int | None) -> dict[str, float] | None:
    """Resident memory (MiB) of the server process and of its children (the bot workers)."""
    if pid is None:
        return None
    return {"server": _rss(pid), "workers": sum(_rss(child) for child in _descendants(pid))}


def _cpu(pid: int | None) -> dict[str, float] | None:
    """CPU seconds so far of the server process and of its bot workers."""
    if pid is None:
        return None
    return {
        "server": _cpu_seconds(pid),
        "workers": sum(_cpu_seconds(child) for child in _descendants(pid)),
    }


def _server_pid(served: Served | None, pid: int | None) -> int | None:
    """The process that holds the tables: uvicorn's, below ``python -m cardtable``."""
    if served is not None:
        return served.process.pid
    return pid


# The run -----------------------------------------------------------------------------------


async def _open(
    client: httpx.AsyncClient, game: str, players: int, level: str
) -> tuple[str, str, int]:
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Bench"}]
    seats += [{"kind": "bot", "level": level} for _ in range(players - 1)]
    answer = await client.post("/api/tables", json={"game": game, "seats": seats})
    if answer.status_code != 201:
        raise RuntimeError(f"opening a table failed: {answer.status_code} {answer.text}")
    opened = answer.json()
    human = opened["seats"][0]
    return opened["table"], human["invite"].split("token=")[1], human["seat"]


async def run(
    args: argparse.Namespace, database: str | None = None, processes: int = 1
) -> dict[str, Any]:
    _raise_fd_limit(4 * args.tables + 256)
    bench = Bench()
    rng = random.Random(args.seed)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-") as folder:
        served = (
            None
            if args.url
            else Served(Path(folder), args.bot_workers, args.bot_delay, database, processes)
        )
        url = args.url or (served.url if served else "")
        try:
            await _wait_healthy(
                url, served.process if served else None, served.log if served else None
            )
            pid = _server_pid(served, args.pid)
            await asyncio.sleep(0.5)
            before = _memory(pid)
            drivers = await _open_all(url, args, bench, rng)
            await asyncio.sleep(0.5)
            opened = _memory(pid)
            tasks = [asyncio.create_task(d.play()) for d in drivers]
            tasks += [asyncio.create_task(d.watch()) for d in drivers]
            client_before = resource.getrusage(resource.RUSAGE_SELF)
            start = time.perf_counter() + args.warmup
            bench.window = (start, start + args.seconds)
            await asyncio.sleep(args.warmup)
            cpu_before = _cpu(pid)
            lag = await _loop_lag(args.seconds)
            cpu_after = _cpu(pid)
            client_after = resource.getrusage(resource.RUSAGE_SELF)
            end = _memory(pid)
            for driver in drivers:
                driver.stop = True
            await asyncio.gather(*(d.close() for d in drivers))
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            health = await _health(url)
            takeover = None
            if served is not None and database is not None and processes > 1:
                takeover = await _takeover(url, served.process.pid, database, args.tables)
        finally:
            if served is not None:
                served.stop()
    held = sum(1 for d in drivers if d.alive and d.acted_in_window)
    report = _report(
        args,
        bench,
        held,
        health,
        before,
        opened,
        end,
        cpu_before,
        cpu_after,
        client_before,
        client_after,
        lag,
        load,
    )
    report["settings"]["processes"] = processes
    if takeover is not None:
        report["takeover"] = takeover
    return report


async def _open_all(
    url: str, args: argparse.Namespace, bench: Bench, rng: random.Random
) -> list[TableDriver]:
    gate = asyncio.Semaphore(OPEN_CONCURRENCY)
    # A new connection for each table, so that with several server processes behind the
    # port each opens (and so owns) its share.
    fresh = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=fresh) as client:

        async def one(index: int) -> TableDriver:
            async with gate:
                table, token, seat = await _open(client, args.game, args.players, args.level)
                driver = TableDriver(
                    table, token, seat, bench, args.think, random.Random(rng.random() + index)
                )
                await driver.join(url)
                return driver

        return list(await asyncio.gather(*(one(i) for i in range(args.tables))))


# A table moving to another process ----------------------------------------------------------

WATCHED = 50  # the killed process's tables a spectator reconnects to, and times
MOVE_WITHIN = 30.0  # seconds a table may take to move before it counts as not moved


def _listening_ports(pid: int) -> set[int]:
    """The TCP ports a process listens on (from /proc: its sockets' inodes)."""
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def _owners(database: str) -> list[tuple[str, str, str | None]]:
    """(table, process, address) of every lease in the database."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT table_id, process, address FROM owners"))
            return [(row[0], row[1], row[2]) for row in rows]
    finally:
        engine.dispose()


async def _reconnect_time(url: str, table: str, killed: float) -> float | None:
    """A spectator of ``table``: joined, then once its socket closes (its process killed),
    reconnected until it is served a snapshot; seconds from the kill to that snapshot."""
    address = f"{url.replace('http', 'ws', 1)}/ws/{table}"
    join = json.dumps({"type": "join", "token": None, "since": None})
    deadline = killed + MOVE_WITHIN
    while time.perf_counter() < deadline:
        try:
            async with websockets.connect(address, compression=None) as socket:
                await socket.send(join)
                async for raw in socket:
                    if json.loads(raw)["type"] == "snapshot" and time.perf_counter() > killed:
                        return time.perf_counter() - killed
        except (OSError, websockets.WebSocketException):
            pass
        await asyncio.sleep(0.02)
    return None


async def _takeover(url: str, parent: int, database: str, tables: int) -> dict[str, Any]:
    """Kill the worker holding the most tables; how long its tables take to move."""
    workers = [p for p in _descendants(parent) if _listening_ports(p)]
    ports = {pid: _listening_ports(pid) for pid in workers}
    leases = await asyncio.to_thread(_owners, database)
    held: dict[int, list[tuple[str, str]]] = {pid: [] for pid in workers}
    for table, process, address in leases:
        port = int(address.rsplit(":", 1)[1]) if address else -1
        for pid in workers:
            if port in ports[pid]:
                held[pid].append((table, process))
    victim = max(workers, key=lambda pid: len(held[pid]))
    lost = held[victim]
    if not lost:
        return {"tables_moved": 0, "note": "no worker held a table"}
    process = lost[0][1]
    # Half of them (WATCHED at most) with a spectator, the rest with nobody.
    split = min(WATCHED, len(lost) // 2)
    watched = [table for table, _ in lost[:split]]
    unwatched = {table for table, _ in lost[split:]}
    # The spectators join first, then the kill; each reconnects once its socket closes.
    killed = float("inf")
    spectators = [
        asyncio.create_task(_watch_then_time(url, table, lambda: killed)) for table in watched
    ]
    await asyncio.sleep(2.0)
    killed = time.perf_counter()
    os.kill(victim, signal.SIGKILL)
    quiet: dict[str, float] = {}
    while unwatched - set(quiet) and time.perf_counter() - killed < MOVE_WITHIN:
        await asyncio.sleep(0.1)
        now = time.perf_counter() - killed
        owners = {table: owner for table, owner, _ in await asyncio.to_thread(_owners, database)}
        for table in unwatched - set(quiet):
            # Moved once its lease no longer names the dead process: taken by another, or
            # taken and already given up (a finished table leaves memory, and its lease).
            if owners.get(table) != process:
                quiet[table] = now
    reconnected = [t for t in await asyncio.gather(*spectators) if t is not None]
    return {
        "tables_on_killed_process": len(lost),
        "with_a_seat_reconnecting": {
            "tables": len(watched),
            "moved": len(reconnected),
            "seconds": _seconds(reconnected),
        },
        "with_nobody_connected": {
            "tables": len(unwatched),
            "moved": len(quiet),
            "seconds": _seconds(list(quiet.values())),
        },
    }


async def _watch_then_time(url: str, table: str, killed: Any) -> float | None:
    """Watch ``table`` until the socket closes after the kill; then time the move."""
    address = f"{url.replace('http', 'ws', 1)}/ws/{table}"
    with contextlib.suppress(OSError, websockets.WebSocketException):
        async with websockets.connect(address, compression=None) as socket:
            await socket.send(json.dumps({"type": "join", "token": None, "since": None}))
            async for _ in socket:
                pass
    while killed() == float("inf"):  # closed before the kill (it should not be)
        await asyncio.sleep(0.05)
    return await _reconnect_time(url, table, killed())


def _seconds(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)
    return {
        "p50": ordered[len(ordered) // 2],
        "max": ordered[-1],
        "mean": statistics.fmean(ordered),
    }


async def _side_by_side(args: argparse.Namespace) -> dict[str, Any]:
    """The load against one process and against ``--processes``, on PostgreSQL."""
    reports = []
    for processes in (1, args.processes):
        with contextlib.ExitStack() as stack:
            database = args.database or stack.enter_context(_private_postgres())
            reports.append(await run(args, database, processes))
    return {"benchmark": "server-processes", "runs": reports}


def _private_postgres() -> Any:
    """A throwaway PostgreSQL server, as the tests start theirs (tests/postgres_server.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    return importlib.import_module("postgres_server").postgres_url()


def render_side_by_side(report: dict[str, Any]) -> str:
    runs = report["runs"]
    first = runs[0]
    lines = [
        f"cardtable server load on PostgreSQL: {first['settings']['game']}, "
        f"{first['tables']} tables, {first['settings']['seconds']:g} s measured; "
        f"{first['machine']['cpus']} cores shared with the load generator",
        "",
        f"{'processes':<28}" + "".join(f"{r['settings']['processes']:>12}" for r in runs),
    ]
    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("tables held", lambda r: f"{r['tables_held']}"),
        ("actions per second", lambda r: f"{r['actions_per_second']:.1f}"),
        ("p50 action->broadcast ms", lambda r: _ms(r, "p50")),
        ("p99 action->broadcast ms", lambda r: _ms(r, "p99")),
        ("max action->broadcast ms", lambda r: _ms(r, "max")),
        ("cores busy (servers)", _server_cores),
        ("cores busy (load generator)", lambda r: f"{r['cores_busy']['client']:.2f}"),
        ("errors", lambda r: f"{sum(r['errors'].values())}"),
    ]
    for name, value in rows:
        lines.append(f"{name:<28}" + "".join(f"{value(r):>12}" for r in runs))
    takeover = runs[-1].get("takeover")
    if takeover:
        lines.append("")
        lines.append(
            f"a process killed (SIGKILL) holding {takeover.get('tables_on_killed_process', 0)} "
            "tables; seconds until each is served by another:"
        )
        for key, words in (
            ("with_a_seat_reconnecting", "a spectator reconnecting at once"),
            ("with_nobody_connected", "nobody connected (the lease runs out)"),
        ):
            part = takeover.get(key)
            if not part:
                continue
            figures = part["seconds"]
            shown = (
                "-" if figures is None else f"p50 {figures['p50']:.2f}, max {figures['max']:.2f}"
            )
            lines.append(f"  {words}: {part['moved']}/{part['tables']} moved; {shown}")
    return "\n".join(lines)


def _server_cores(report: dict[str, Any]) -> str:
    cores = report["cores_busy"]
    return f"{sum(cores.values()) - cores['client']:.2f}"


def _ms(report: dict[str, Any], key: str) -> str:
    figures = report["latency_ms"]["both"]
    return "-" if figures is None else f"{figures[key]:.1f}"


async def _health(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        answer: dict[str, Any] = (await client.get("/health")).json()
        return answer


async def _loop_lag(seconds: float) -> list[float]:
    """Sleep through the window in 50 ms steps, noting how late each wake-up was: the load
    generator's own event-loop delay, which is in every latency it measures."""
    lags = []
    deadline = time.perf_counter() + seconds
    while (now := time.perf_counter()) < deadline:
        await asyncio.sleep(0.05)
        lags.append(time.perf_counter() - now - 0.05)
    return lags


def _raise_fd_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        if wanted < needed:
            print(f"warning: only {wanted} file descriptors for {needed} sockets", file=sys.stderr)


def _percentiles(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000.0

    return {
        "p50": at(0.50),
        "p90": at(0.90),
        "p99": at(0.99),
        "max": ordered[-1] * 1000.0,
        "mean": statistics.fmean(ordered) * 1000.0,
    }


def _report(
    args: argparse.Namespace,
    bench: Bench,
    held: int,
    health: dict[str, Any],
    before: dict[str, float] | None,
    opened: dict[str, float] | None,
    end: dict[str, float] | None,
    cpu_before: dict[str, float] | None,
    cpu_after: dict[str, float] | None,
    client_before: resource.struct_rusage,
    client_after: resource.struct_rusage,
    lag: list[float],
    load: tuple[float, float, float],
) -> dict[str, Any]:
    samples = bench.samples
    acting = [s.acting for s in samples if s.acting is not None]
    spectator = [s.spectator for s in samples if s.spectator is not None]
    both = [max(s.acting, s.spectator) for s in samples if s.acting and s.spectator]
    memory: dict[str, Any] | None = None
    if before and opened and end:
        memory = {
            "server_rss_mib": {
                "before": before["server"],
                "opened": opened["server"],
                "end": end["server"],
            },
            "workers_rss_mib": end["workers"],
            "per_table_kib_opened": (opened["server"] - before["server"]) * 1024 / args.tables,
            "per_table_kib_end": (end["server"] - before["server"]) * 1024 / args.tables,
        }
    cpu: dict[str, Any] = {
        "client": (client_after.ru_utime + client_after.ru_stime)
        - (client_before.ru_utime + client_before.ru_stime),
    }
    if cpu_before and cpu_after:
        cpu["server"] = cpu_after["server"] - cpu_before["server"]
        cpu["workers"] = cpu_after["workers"] - cpu_before["workers"]
    cpu = {key: value / args.seconds for key, value in cpu.items()}  # cores busy, on average
    latency = _percentiles(both)
    met = held >= TARGET_TABLES and latency is not None and latency["p99"] < TARGET_P99_MS
    return {
        "benchmark": "server",
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            # Other work on the machine takes cores from both sides; this says how much.
            "load_average_1min": {"start": load[0], "end": os.getloadavg()[0]},
        },
        "note": "the load generator (all websocket clients) runs on the same machine as the "
        "server and shares its cores",
        "settings": {
            "tables": args.tables,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "game": args.game,
            "players": args.players,
            "level": args.level,
            "think": args.think,
            "bot_delay": args.bot_delay if not args.url else None,
            "bot_workers": args.bot_workers if not args.url else None,
            "url": args.url,
            "seed": args.seed,
        },
        "tables": args.tables,
        "tables_held": held,
        "server_tables": health.get("tables"),
        "actions": bench.actions,
        "actions_per_second": bench.actions / args.seconds,
        "human_actions_per_second": bench.human_actions / args.seconds,
        "games_finished": bench.games_over,
        "latency_samples": len(both),
        "latency_ms": {
            "both": latency,
            "acting": _percentiles(acting),
            "spectator": _percentiles(spectator),
        },
        "client_loop_lag_ms": _percentiles(lag),
        "cores_busy": cpu,
        "memory": memory,
        "errors": dict(bench.errors),
        "sockets_closed_by_server": bench.closed,
        "target": {
            "tables": TARGET_TABLES,
            "p99_ms": TARGET_P99_MS,
            "met": met,
        },
    }


def render(report: dict[str, Any]) -> str:
    latency = report["latency_ms"]
    lines = [
        f"cardtable server load: {report['settings']['game']}, {report['tables']} tables "
        f"(1 human + {report['settings']['players'] - 1} {report['settings']['level']} bots "
        f"each), {report['settings']['seconds']:g} s measured",
        f"note: {report['note']} ({report['machine']['cpus']} cores; load average "
        f"{report['machine']['load_average_1min']['start']:.2f} at the start)",
        "",
        f"{'tables held concurrently':<34}{report['tables_held']:>10}",
        f"{'actions per second (all)':<34}{report['actions_per_second']:>10.1f}",
        f"{'human actions per second':<34}{report['human_actions_per_second']:>10.1f}",
        f"{'timed human actions':<34}{report['latency_samples']:>10}",
    ]
    lines.append("")
    lines.append(f"{'action->broadcast (ms)':<24}{'p50':>8}{'p90':>8}{'p99':>8}{'max':>8}")
    for name in ("both", "acting", "spectator"):
        figures = latency[name]
        if figures is None:
            lines.append(f"{name:<24}{'-':>8}")
            continue
        lines.append(
            f"{name:<24}" + "".join(f"{figures[k]:>8.1f}" for k in ("p50", "p90", "p99", "max"))
        )
    lag = report["client_loop_lag_ms"]
    if lag is not None:
        lines.append(
            f"{'client loop lag':<24}"
            + "".join(f"{lag[k]:>8.1f}" for k in ("p50", "p90", "p99", "max"))
        )
    memory = report["memory"]
    lines.append("")
    if memory is not None:
        rss = memory["server_rss_mib"]
        lines.append(
            f"server RSS {rss['before']:.0f} MiB -> {rss['opened']:.0f} (tables open) -> "
            f"{rss['end']:.0f} (end); bot workers {memory['workers_rss_mib']:.0f} MiB"
        )
        lines.append(
            f"memory per table: {memory['per_table_kib_opened']:.0f} KiB when opened, "
            f"{memory['per_table_kib_end']:.0f} KiB at the end"
        )
    else:
        lines.append("memory per table: not measured (give --pid with --url)")
    cores = report["cores_busy"]
    lines.append(
        "cores busy on average: "
        + ", ".join(f"{name} {value:.2f}" for name, value in cores.items())
    )
    if report["errors"] or report["sockets_closed_by_server"]:
        lines.append(
            f"errors: {report['errors']}; sockets closed by the server: "
            f"{report['sockets_closed_by_server']}"
        )
    target = report["target"]
    lines.append(
        f"target: {target['tables']} tables with p99 under {target['p99_ms']:g} ms: "
        + ("met" if target["met"] else "NOT met")
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=TARGET_TABLES)
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before it")
    parser.add_argument("--game", default="knockout-whist")
    parser.add_argument("--players", type=int, default=3, help="one human, the rest bots")
    parser.add_argument("--level", default="easy", help="the bots' level")
    parser.add_argument(
        "--think", type=float, default=1.0, help="the human's mean seconds before acting"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, help="the server's --bot-delay (its default)"
    )
    parser.add_argument(
        "--bot-workers",
        type=int,
        help="the server's bot processes (serve --bot-workers; its default: one per core)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        help="run against 1 server process and against this many (PostgreSQL), side by side",
    )
    parser.add_argument(
        "--database", help="the PostgreSQL URL for --processes (default: a private server)"
    )
    parser.add_argument("--url", help="a running server instead of starting one")
    parser.add_argument("--pid", type=int, help="that server's process, for its memory")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the report here")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.warmup < 0 or args.players < 2:
        parser.error("--tables 1 or more, --seconds above 0, --warmup 0 or more, --players 2+")
    if (
        args.think < 0
        or args.bot_delay < 0
        or (args.bot_workers is not None and args.bot_workers < 1)
    ):
        parser.error("--think and --bot-delay are 0 or more, --bot-workers 1 or more")
    if args.processes is not None and (args.processes < 2 or args.url):
        parser.error("--processes is 2 or more, and starts its own servers (no --url)")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    # The load generator's own full garbage collections would stall every socket it drives
    # and show up as server latency: like the server (cardtable/server/collector.py), it
    # leaves them off while it measures.
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1_000_000)
    if args.processes is not None:
        report = asyncio.run(_side_by_side(args))
        print(render_side_by_side(report))
    else:
        report = asyncio.run(run(args))
        print(render(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
