"""Fair deals on a live ``cardtable serve`` (docs/fairness.md): players join with their own
seeds, the server is killed and restarted mid-game, and the finished game's record still
verifies, every deal after a seed was given derived from it."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx

from cardtable.fairness import commitment_of, verify_record
from live_pieces import LiveSocket, live_server, open_live_table, tokens
from served import ServerProcess

SEEDS = {0: "alpha-seed", 1: "beta_seed"}


class Player:
    """A seat over a live websocket that joined with its seed; keeps its last view."""

    def __init__(self, server: ServerProcess, table: str, token: str, seed: str | None) -> None:
        self.socket = LiveSocket(server, table)
        self.token = token
        join = {"type": "join", "token": token, "since": 0}
        if seed is not None:
            join["seed"] = seed
        self.socket.send(json.dumps(join))
        self.events: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.seq = 0
        self.read_until("snapshot")

    def take(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "snapshot":
            self.events.extend(frame["missed"])
        elif frame["type"] == "event":
            self.events.append(frame["event"])
        if frame["type"] in ("snapshot", "event"):
            self.view, self.seq = frame["view"], frame["seq"]

    def read_until(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.socket.receive()
            self.take(frame)
            if frame["type"] == kind:
                return frame

    def pump(self) -> None:
        """Read everything the server sent before the answer to a ping."""
        self.socket.send(json.dumps({"type": "ping"}))
        self.read_until("pong")

    def over(self) -> bool:
        return bool(self.view.get("phase") == "over")


def _play(players: dict[int, Player], rng: random.Random, moves: int | None) -> None:
    """Random legal play by the human seats (the bot plays itself) for ``moves`` of their
    moves, or to the end of the game."""
    done = 0
    deadline = time.monotonic() + 120
    while moves is None or done < moves:
        assert time.monotonic() < deadline, "the game did not move on"
        for player in players.values():
            player.pump()
        anyone = next(iter(players.values()))
        if anyone.over():
            return
        mover = players.get(anyone.view["to_move"])
        if mover is None or mover.view["to_move"] != anyone.view["to_move"]:
            time.sleep(0.02)  # the bot's turn, or a change still on its way
            continue
        action = rng.choice(mover.view["legal_actions"])
        mover.socket.send(json.dumps({"type": "action", "action": action, "seq": mover.seq}))
        done += 1


def test_a_live_game_with_seeds_and_a_restart_verifies(tmp_path: Path) -> None:
    rng = random.Random(4)
    seats = [
        {"kind": "human", "name": "Ana"},
        {"kind": "bot", "level": "easy"},
        {"kind": "human", "name": "Bo"},
    ]
    with live_server(tmp_path, grace=3600) as server:
        opened = open_live_table(server, "knockout-whist", seats)
        table = opened["table"]
        keys = tokens(opened)
        players = {0: Player(server, table, keys[0], SEEDS[0])}
        players[2] = Player(server, table, keys[2], None)
        # A bad seed is refused with a documented error and changes nothing.
        players[0].socket.send(json.dumps({"type": "join", "token": keys[0], "seed": "a b"}))
        refused = players[0].read_until("error")
        assert refused["code"] == "malformed" and "seed" in refused["message"]
        _play(players, rng, 3)
        # Seat 2 gives its seed mid-hand (joining again): it counts from the next hand on.
        players[2].socket.send(
            json.dumps({"type": "join", "token": keys[2], "since": None, "seed": SEEDS[1]})
        )
        players[2].read_until("snapshot")
        _play(players, rng, 12)
        for player in players.values():
            player.socket.close()
        server.kill()
        server.start()
        players = {s: Player(server, table, keys[s], SEEDS[min(s, 1)]) for s in (0, 2)}
        _play(players, rng, None)
        events = players[0].events
        replay = httpx.get(f"{server.http}/api/tables/{table}/replay/1", timeout=10).json()
    record = replay["record"]
    verified = verify_record(record)
    assert verified.decks == len(record["decks"]) >= 3
    given = [e for e in events if e["kind"] == "seed"]
    # The same seeds again after the restart add no events.
    assert [(e["seat"], e["seed"]) for e in given] == [(0, SEEDS[0]), (2, SEEDS[1])]
    joined_2 = given[1]["seq"]
    deals = [e for e in events if e["kind"] == "deal"]
    for deal in deals[1:]:
        assert deal["seeds"][0] == SEEDS[0]
        assert deal["seeds"][1] is None  # a bot's seat gives nothing
        assert deal["seeds"][2] == (SEEDS[1] if deal["seq"] > joined_2 else None)
    assert any(d["seq"] > joined_2 for d in deals), "no hand was dealt after seat 2 joined"
    started = next(e for e in events if e["kind"] == "game")
    over = next(e for e in events if e["kind"] == "over")
    assert started["commitment"] == commitment_of(over["server_seed"])
    # The server seed was in no event before the game's end.
    assert all(over["server_seed"] not in json.dumps(e) for e in events if e is not over)
