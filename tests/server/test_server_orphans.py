"""The server's worker processes die with it: ``cardtable serve`` as a real process, killed
with SIGKILL alone (not its process group), leaves no process behind.

The bot and hint pools run in processes started by a forkserver, and a resource tracker
watches them; none of them is the server's child in a way the kernel ends with it. Each
worker watches the server and exits when it is gone; the forkserver and the tracker then
read the end of their pipes and exit too (docs/server.md, "Running a server").
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # psutil ships no types

from live_pieces import LiveSocket, open_live_table, tokens
from served import ServerProcess

GONE_SECONDS = 10.0


def _gone(process: psutil.Process) -> bool:
    """Whether a process has exited; a zombie has (nobody may be left to reap it)."""
    try:
        return bool(process.status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


def _start_both_pools(server: ServerProcess) -> None:
    """A table where the human asks for a hint (the hint pool) and medium bots move (the
    bot pool), so that every kind of worker process is running."""
    seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "medium"}] * 3
    opened = open_live_table(server, "knockout-whist", seats)
    with LiveSocket(server, opened["table"]) as ana:
        view = ana.join(tokens(opened)[0])["view"]
        while view["to_move"] != 0:
            view = ana.until("event")["view"]
        hint = ana.ask(json.dumps({"type": "hint"}))
        assert hint["type"] == "hint", hint
        action = {"type": "action", "action": hint["actions"][0]["action"], "seq": hint["seq"]}
        ana.send(json.dumps(action))
        bot_moved = False
        while not bot_moved:
            # The bots' worker processes start now, from nothing: on a machine busy with
            # the rest of the test run that may take more than the usual read's 10 s.
            frame = ana.until("event", seconds=60)
            bot_moved = frame["event"]["kind"] == "action" and frame["event"]["seat"] != 0


def test_a_killed_server_leaves_no_worker_process(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "tables.db", tmp_path / "server.log")
    server.start()
    try:
        assert server.process is not None
        _start_both_pools(server)
        children = psutil.Process(server.process.pid).children(recursive=True)
        # The forkserver, a bot worker, a hint worker and the resource tracker at least.
        assert len(children) >= 4, [c.cmdline() for c in children]
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=10)
        deadline = time.monotonic() + GONE_SECONDS
        while time.monotonic() < deadline and not all(_gone(c) for c in children):
            time.sleep(0.1)
        left = [c.cmdline() for c in children if not _gone(c)]
        assert not left, f"still running {GONE_SECONDS} s after the server was killed: {left}"
    finally:
        server.kill()  # the process group: whatever a failure left behind
