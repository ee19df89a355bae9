#!/usr/bin/env python3
"""PostgreSQL failing under two ``cardtable serve`` processes while tables are played: the long
run of tests/server/test_server_database_failures.py's last test, with its figures.

    .venv/bin/python scripts/database_failures.py --rounds 3 --tables 4 --json failures.json

A private PostgreSQL server (Debian's ``postgresql``: scripts/install-test-deps) on a Unix
socket in a temporary folder, and two server processes on it, on loopback. Each round plays
every case of ``tests/failure_pieces.py`` in turn (fresh tables each time: two scripted
players, a bot and a stand-in at each, and a probe's table): PostgreSQL stopped the fast way
and down ``--restart`` seconds; stopped at once (as a crash) and started again; every
connection ended with ``pg_terminate_backend``; unreachable (new connections refused, open
ones ended) for ``--unreachable`` seconds; read-only for ``--read-only`` seconds; hung (the
servers reach it through a proxy, which then forwards nothing and closes nothing) for
``--hung`` seconds. Every check
of the test runs on every case (a failed one stops the run). Each case's figures are printed
as a JSON line as it ends, and the summary at the end; ``--json`` writes them all.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from failure_pieces import CASES, Database, cases, run_case  # noqa: E402
from postgres_proxy import PostgresProxy  # noqa: E402
from postgres_server import postgres_url  # noqa: E402
from served import ServerProcess  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1, help="times each case is played")
    parser.add_argument("--tables", type=int, default=4, help="tables played in each case")
    parser.add_argument("--restart", type=float, default=6.5, help="seconds down, fast stop")
    parser.add_argument("--unreachable", type=float, default=10.0, help="seconds unreachable")
    parser.add_argument("--read-only", type=float, default=10.0, help="seconds read-only")
    parser.add_argument("--hung", type=float, default=10.0, help="seconds silent, nothing closed")
    parser.add_argument("--cases", default=",".join(CASES), help="which, comma-separated")
    parser.add_argument("--seed", type=int, default=random.randrange(1 << 30))
    parser.add_argument("--json", type=Path, help="write every case's figures there")
    args = parser.parse_args()
    chosen = set(args.cases.split(","))
    unknown = chosen - set(CASES)
    if unknown:
        parser.error(f"no such case {sorted(unknown)}: choose among {', '.join(CASES)}")
    failures = [
        case
        for case in cases(
            restart=args.restart,
            unreachable=args.unreachable,
            read_only=args.read_only,
            hung=args.hung,
        )
        if case.name in chosen
    ]
    figures: list[dict[str, Any]] = []
    began = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="cardtable-failures-") as folder,
        postgres_url() as url,
        PostgresProxy(url) as proxy,  # the servers' way to the database, to hang
    ):
        servers = [
            ServerProcess(proxy.url, Path(folder) / f"server-{n}.log", grace=3600) for n in range(2)
        ]

        async def play() -> None:
            for server in servers:
                await asyncio.to_thread(server.start)
            for round_ in range(args.rounds):
                for number, case in enumerate(failures):
                    seed = args.seed + 1000 * round_ + 100 * number
                    found = await run_case(case, servers, Database(url, proxy), args.tables, seed)
                    figures.append({"round": round_ + 1, **found})
                    print(json.dumps(figures[-1]), flush=True)

        try:
            asyncio.run(play())
        finally:
            for server in servers:
                if server.process is not None:
                    server.stop()
    summary = _summary(figures)
    report = {
        "seed": args.seed,
        "rounds": args.rounds,
        "tables": args.tables,
        "seconds": round(time.monotonic() - began, 1),
        "summary": summary,
        "cases": figures,
    }
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({"summary": summary}, indent=1))
    return 1 if any(row["acknowledged_lost"] for row in summary) else 0


def _summary(figures: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per case, over its rounds: the failures, events and actions, the losses, and the
    longest times to resume."""
    rows = []
    for name in dict.fromkeys(found["case"] for found in figures):
        runs = [found for found in figures if found["case"] == name]

        def most(key: str, runs: list[dict[str, Any]] = runs) -> float | None:
            values = [run[key] for run in runs if run[key] is not None]
            return max(values) if values else None

        rows.append(
            {
                "case": name,
                "runs": len(runs),
                "failed_for_s": most("failed_for_s"),
                "events_stored": sum(run["events_stored"] for run in runs),
                "actions_acknowledged": sum(run["actions_acknowledged"] for run in runs),
                "acknowledged_lost": sum(run["acknowledged_lost"] for run in runs),
                "actions_refused_unavailable": sum(
                    run["actions_refused_unavailable"] for run in runs
                ),
                "reconnections": sum(run["reconnections"] for run in runs),
                "probe_refused_after_s_max": most("probe_refused_after_s"),
                "resume_first_s_max": most("resume_first_s"),
                "resume_every_table_s_max": most("resume_every_table_s"),
                "ready_503_while_failed": [
                    sum(run["ready_503_while_failed"][i] for run in runs) for i in range(2)
                ],
            }
        )
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
