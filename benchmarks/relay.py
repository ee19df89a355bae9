"""What a relayed socket costs, beside what PostgreSQL's LISTEN/NOTIFY would.

Run it from the repository root::

    .venv/bin/python benchmarks/relay.py --rounds 500

Several server processes share one database, and a table lives in one of them (its owner);
a page that reaches another process is relayed there (docs/hosting.md, "Many processes").
The other way would be for every process to hold the table's sockets and hear its events
through PostgreSQL's ``LISTEN/NOTIFY``. This measures both hops on this machine, on a
private PostgreSQL server (as the tests start theirs):

- relay: a ``ping`` round trip (the server answers ``pong``) on a socket joined to the
  owner directly, and on one joined through the other process;
- notify: the time from a ``NOTIFY`` committed on one connection to its arrival on another
  connection that listens (what each event would cost on its way to the other processes).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import psycopg
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
served = importlib.import_module("served")
postgres_server = importlib.import_module("postgres_server")


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50": ordered[len(ordered) // 2] * 1000,
        "p99": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000,
        "mean": statistics.fmean(ordered) * 1000,
    }


async def _pings(address: str, rounds: int) -> list[float]:
    times = []
    async with websockets.connect(address, compression=None) as socket:
        await socket.send(json.dumps({"type": "join", "token": None, "since": None}))
        while json.loads(await socket.recv())["type"] != "snapshot":
            pass
        for _ in range(rounds):
            sent = time.perf_counter()
            await socket.send('{"type":"ping"}')
            while json.loads(await socket.recv())["type"] != "pong":
                pass
            times.append(time.perf_counter() - sent)
            await asyncio.sleep(0.06)  # under the flood limit: 20 messages a second
    return times


def _notify(url: str, rounds: int) -> list[float]:
    conninfo = url.replace("postgresql+psycopg://", "postgresql://")
    times = []
    with (
        psycopg.connect(conninfo, autocommit=True) as listener,
        psycopg.connect(conninfo, autocommit=True) as sender,
    ):
        listener.execute("LISTEN cardtable")
        for number in range(rounds):
            sent = time.perf_counter()
            sender.execute("SELECT pg_notify('cardtable', %s)", (str(number),))
            for _ in listener.notifies(timeout=5, stop_after=1):
                times.append(time.perf_counter() - sent)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=500)
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"benchmark": "relay", "rounds": args.rounds}
    with postgres_server.postgres_url() as url, tempfile.TemporaryDirectory() as folder:
        servers = [served.ServerProcess(url, Path(folder) / f"{n}.log") for n in range(2)]
        try:
            for server in servers:
                server.start()
            opened = httpx.post(
                f"{servers[0].http}/api/tables",
                json={"game": "knockout-whist", "seats": [{"kind": "human"}] * 2},
            ).json()
            table = opened["table"]
            direct = asyncio.run(_pings(servers[0].ws(table), args.rounds))
            relayed = asyncio.run(_pings(servers[1].ws(table), args.rounds))
        finally:
            for server in servers:
                server.stop()
        notify = _notify(url, args.rounds)
    report["direct_ms"] = _ms(direct)
    report["relayed_ms"] = _ms(relayed)
    report["notify_ms"] = _ms(notify)
    print(f"{'round trip (ms)':<34}{'p50':>8}{'p99':>8}{'mean':>8}")
    for key, words in (
        ("direct_ms", "ping, socket on the owner"),
        ("relayed_ms", "ping, socket relayed to the owner"),
        ("notify_ms", "NOTIFY to a listener (one way)"),
    ):
        figures = report[key]
        print(f"{words:<34}" + "".join(f"{figures[k]:>8.2f}" for k in ("p50", "p99", "mean")))
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
