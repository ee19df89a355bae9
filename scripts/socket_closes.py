#!/usr/bin/env python3
"""How a live ``cardtable serve`` ends the sockets of clients sending everything at once: the
long run of tests/server/test_server_closes.py.

    .venv/bin/python scripts/socket_closes.py --sockets 1875

Each socket sends one to thirty random messages without reading the answers (valid and
invalid joins and actions, JSON-like junk, binary frames, text that is not UTF-8, messages
over 65,536 bytes), then a ``ping``, and reads until its ``pong`` or the server's close.
Prints how the sockets ended (``open``: the pong came; a number: the close code received;
1006: the connection broke without a close frame) and the error lines of the server's log;
exits 1 if any socket saw 1006 or the log holds an error.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from live_pieces import live_server, open_live_table, tokens  # noqa: E402

JUNK = '{}[]",:0123456789abc'


def send_some(socket: ClientConnection, token: str, rng: random.Random) -> None:
    for _ in range(rng.randint(1, 30)):
        draw = rng.random()
        if draw < 0.03:
            socket.send("x" * rng.randint(65537, 300000))
        elif draw < 0.06:
            socket.send(b"\xc3\x28" * rng.randint(1, 2000), text=True)
        elif draw < 0.2:
            socket.send(rng.randbytes(rng.randint(1, 5000)))
        elif draw < 0.4:
            join = {"type": "join", "token": rng.choice([token, None, "bad"]), "since": None}
            socket.send(json.dumps(join))
        elif draw < 0.6:
            action = rng.choice(["AS", "x", 3])
            socket.send(json.dumps({"type": "action", "action": action, "seq": rng.randint(0, 9)}))
        else:
            socket.send("".join(rng.choice(JUNK) for _ in range(rng.randint(1, 4000))))
    socket.send(json.dumps({"type": "ping"}))
    while json.loads(socket.recv(timeout=10)).get("type") != "pong":
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1875)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    ended: collections.Counter[str] = collections.Counter()
    with tempfile.TemporaryDirectory() as folder, live_server(Path(folder)) as server:
        seats = [{"kind": "human", "name": "A"}, {"kind": "bot", "level": "easy"}]
        opened = open_live_table(server, "knockout-whist", seats)
        token = tokens(opened)[0]
        for _ in range(arguments.sockets):
            with connect(server.ws(opened["table"]), max_size=None) as socket:
                try:
                    send_some(socket, token, rng)
                    ended["open"] += 1
                except ConnectionClosed as closed:
                    ended[str(closed.rcvd.code if closed.rcvd else 1006)] += 1
                except TimeoutError:
                    ended["no answer in 10 s"] += 1
        log = server.log.read_text().splitlines()
        errors = [line for line in log if '"level": "error"' in line]
    print(json.dumps({"sockets": arguments.sockets, "ended": dict(ended)}))
    for line in errors:
        print(line[:400])
    return 1 if ended["1006"] or ended["no answer in 10 s"] or errors else 0


if __name__ == "__main__":
    sys.exit(main())
