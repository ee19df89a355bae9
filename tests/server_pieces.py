"""What the web table's tests share: an app on a fresh SQLite file, opening a table, a
websocket that keeps every frame it receives, and playing a game through the sockets.

The sockets are real websocket sessions of ``TestClient``; a read waits at most a few
seconds, so a server that stays silent fails the test instead of hanging it.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from cardtable.server.app import create_app

Frame = dict[str, Any]

CARD = re.compile(r"(?<![\w-])(?:10|[2-9JQKA])[CDHS](?![\w-])")
READ_SECONDS = 10.0
# The client's own pace, a little inside the server's bucket of 40 messages refilled at 20
# a second.
PACE_BURST = 30.0
PACE_RATE = 18.0


def app_at(database: Path, *, grace: float = 60.0) -> FastAPI:
    """The web table on a SQLite file, bots moving at once, one worker process."""
    return create_app(f"sqlite:///{database}", grace=grace, bot_delay=0, workers=1)


@contextmanager
def serving(database: Path, *, grace: float = 60.0) -> Iterator[TestClient]:
    with TestClient(app_at(database, grace=grace)) as client:
        yield client


def handshake(table: str, more: str = "") -> bytes:
    """A websocket's opening handshake for ``table``'s socket; ``more``: header lines."""
    return (
        f"GET /ws/{table} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        f"Sec-WebSocket-Version: 13\r\n{more}\r\n"
    ).encode()


def humans(count: int) -> list[dict[str, Any]]:
    return [{"kind": "human", "name": f"P{n}"} for n in range(count)]


def open_table(
    client: TestClient,
    game: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Open a table; the answer (with the invitations) after checking it was created."""
    answer = client.post(
        "/api/tables", json={"game": game, "options": options or {}, "seats": seats}
    )
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def tokens_of(opened: dict[str, Any]) -> dict[int, str]:
    """Each human seat's token, read from its invitation link's fragment."""
    found = {}
    for seat in opened["seats"]:
        if "invite" in seat:
            fragment = parse_qs(urlsplit(seat["invite"]).fragment)
            assert fragment["seat"] == [str(seat["seat"])]
            found[seat["seat"]] = fragment["token"][0]
    return found


def until(test: Callable[[], object], seconds: float = 20.0) -> None:
    """Wait for something the server does in the background (a table loaded again, a bot's
    turn) to be so; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def table_count(database: Path) -> int:
    """Tables stored in the database file, read without the server."""
    with sqlite3.connect(database) as connection:
        (count,) = connection.execute("SELECT count(*) FROM tables").fetchone()
    return int(count)


def card_strings(item: object) -> set[str]:
    """Every card named anywhere in a JSON value, keys included: whole strings and words
    of strings (``"play 7D"``). Table ids, tokens and hashes hold no card: a card stands
    between characters that are not letters, digits, ``-`` or ``_``."""
    return set(CARD.findall(json.dumps(item)))


class Socket:
    """One websocket at a table, keeping every frame it receives, the last view and the
    last event number it has seen."""

    def __init__(self, session: WebSocketTestSession, name: str) -> None:
        self.session = session
        self.name = name
        self.frames: list[Frame] = []
        self.seat: int | None = None
        self.view: dict[str, Any] = {}
        self.seq = 0
        self.allowance = PACE_BURST
        self.checked = time.monotonic()

    def send(self, message: object) -> None:
        self.send_text(json.dumps(message))

    def send_text(self, text: str) -> None:
        """Send text, keeping under the server's flood limit (docs/server.md: 20 a second
        sustained) so that only the flood test ever meets it."""
        now = time.monotonic()
        self.allowance = min(PACE_BURST, self.allowance + (now - self.checked) * PACE_RATE)
        self.checked = now
        if self.allowance < 1.0:
            time.sleep((1.0 - self.allowance) / PACE_RATE)
            self.allowance, self.checked = 1.0, time.monotonic()
        self.allowance -= 1.0
        self.session.send_text(text)

    def blast(self, text: str) -> None:
        """Send text at once, limit or not."""
        self.session.send_text(text)

    def close(self) -> None:
        """Hang up (closing again, as the session's own context does later, is harmless)."""
        self.session.__exit__(None, None, None)

    def receive(self, seconds: float = READ_SECONDS) -> Frame:
        async def timed() -> Any:
            with anyio.fail_after(seconds):
                return await self.session._send_rx.receive()

        message = self.session.portal.call(timed)
        if message["type"] == "websocket.close":
            raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
        frame: Frame = json.loads(message["text"])
        self.frames.append(frame)
        if frame["type"] in ("snapshot", "event"):
            self.view = frame["view"]
            self.seq = frame["seq"]
        return frame

    def until(self, test: Callable[[Frame], bool], seconds: float = READ_SECONDS) -> list[Frame]:
        """Frames up to and including the first that passes ``test``."""
        got = [self.receive(seconds)]
        while not test(got[-1]):
            got.append(self.receive(seconds))
        return got

    def barrier(self) -> list[Frame]:
        """Everything sent to this socket before a ping's answer: the server answers in
        order, so what comes before the pong is all that was pending."""
        self.send({"type": "ping"})
        return self.until(lambda f: f["type"] == "pong")[:-1]

    def join(self, token: str | None = None, since: int | None = None) -> Frame:
        """Join (a seat, or watch) and return the snapshot; a seat's own presence notice,
        which follows it, is read too."""
        self.send({"type": "join", "token": token, "since": since})
        snapshot = self.until(lambda f: f["type"] in ("snapshot", "error"))[-1]
        assert snapshot["type"] == "snapshot", snapshot
        self.seat = snapshot["seat"]
        if token is not None:
            self.until(lambda f: f["type"] == "presence")
        return snapshot

    def act(self, action: str, seq: int | None = None) -> list[Frame]:
        """Send an action (at the last event seen unless ``seq``); the frames up to the
        change's last event, or up to the refusal."""
        self.send({"type": "action", "action": action, "seq": self.seq if seq is None else seq})
        return self.until(lambda f: f["type"] == "error" or last_of_change(f))

    def catch_up(self, seq: int) -> list[Frame]:
        if self.seq >= seq:
            return []
        return self.until(lambda f: f["type"] == "event" and f["seq"] >= seq)


def last_of_change(frame: Frame) -> bool:
    """Whether a frame is the last event of the change it belongs to: every event of a
    change carries the table as it is after the whole change."""
    return bool(frame["type"] == "event" and frame["seq"] == frame["table"]["seq"])


@contextmanager
def seated(
    client: TestClient, opened: dict[str, Any], *, watcher: bool = True
) -> Iterator[tuple[dict[int, Socket], Socket | None]]:
    """A socket for every human seat (joined) and one spectator (joined from event 0, so
    its snapshot lists every event), all closed afterwards."""
    table = opened["table"]
    tokens = tokens_of(opened)
    with ExitStack() as stack:
        sockets: dict[int, Socket] = {}
        for seat, token in tokens.items():
            session = stack.enter_context(client.websocket_connect(f"/ws/{table}"))
            sockets[seat] = Socket(session, f"seat {seat}")
            sockets[seat].join(token)
        spectator = None
        if watcher:
            session = stack.enter_context(client.websocket_connect(f"/ws/{table}"))
            spectator = Socket(session, "spectator")
            spectator.join(None, since=0)
        everyone = [*sockets.values(), *([spectator] if spectator else [])]
        settle(everyone)
        yield sockets, spectator


def settle(sockets: list[Socket]) -> None:
    """Read whatever is pending on each socket (presence notices of later joins)."""
    for socket in sockets:
        socket.barrier()


def choose(legal: list[str], rng: random.Random) -> str:
    """A random legal action, picking up (Kryt'-navalivat's ``take``) only when nothing else
    is legal: uniform play picks up so often that a hand runs to a thousand moves."""
    chosen = [text for text in legal if text != "take"] or legal
    return rng.choice(chosen)


def play_turn(sockets: dict[int, Socket], others: list[Socket], rng: random.Random) -> list[Frame]:
    """The seat to move plays a random legal action from its own view; every socket
    then reads up to the change's last event. The mover's frames."""
    anyone = next(iter(sockets.values()))
    mover = anyone.view["to_move"]
    socket = sockets[mover]
    legal = socket.view["legal_actions"]
    assert legal, f"seat {mover} is to move with no legal action: {socket.view}"
    frames = socket.act(choose(legal, rng))
    assert frames[-1]["type"] == "event", frames[-1]
    for other in [*sockets.values(), *others]:
        other.catch_up(socket.seq)
    return frames


def play_to_end(
    sockets: dict[int, Socket],
    others: list[Socket],
    rng: random.Random,
    limit: int = 5000,
) -> int:
    """Random legal play by every seat until the game is over; the actions played."""
    anyone = next(iter(sockets.values()))
    played = 0
    while anyone.view["to_move"] is not None:
        play_turn(sockets, others, rng)
        played += 1
        assert played < limit, "the game did not end"
    return played


def events_of(frames: list[Frame]) -> list[dict[str, Any]]:
    """The events a socket was told of, in order: its snapshots' missed events and its
    event frames, each once."""
    seen: dict[int, dict[str, Any]] = {}
    for frame in frames:
        if frame["type"] == "snapshot":
            for item in frame["missed"]:
                seen.setdefault(item["seq"], item)
        elif frame["type"] == "event":
            seen.setdefault(frame["seq"], frame["event"])
    return [seen[seq] for seq in sorted(seen)]


def start_next(starter: Socket, everyone: list[Socket], number: int) -> list[Frame]:
    """``starter`` starts game ``number``; every socket reads its opening events. The
    starter's frames."""
    starter.send({"type": "next"})
    mine: list[Frame] = []
    for socket in everyone:
        got = socket.until(lambda f: last_of_change(f) and f["event"]["game"] == number)
        if socket is starter:
            mine = got
    return mine


# SQLite's write lock, held from outside ---------------------------------------------------


class Holder(threading.Thread):
    """The thread holding the lock; ``release`` lets it go before its time is up."""

    def __init__(self, hold: Callable[[], None]) -> None:
        super().__init__(target=hold, name="lock-holder")
        self.release = threading.Event()


@contextmanager
def locked(database: Path, seconds: float) -> Iterator[Holder]:
    """Another connection (of its own, as another process's would be) holds the database's
    write lock for ``seconds`` from when the block begins, or until the block sets the
    holder's ``release``; the block's end waits for the lock to go."""
    taken = threading.Event()

    def hold() -> None:
        connection = sqlite3.connect(database, isolation_level=None, timeout=30)
        try:
            connection.execute("BEGIN EXCLUSIVE")
            taken.set()
            holder.release.wait(seconds)
            connection.execute("COMMIT")
        finally:
            connection.close()

    holder = Holder(hold)
    holder.start()
    assert taken.wait(30), "the lock was not taken"
    try:
        yield holder
    finally:
        holder.join()
