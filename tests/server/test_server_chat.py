"""Preset messages between players (docs/server.md, "Preset messages"): a seat's message id
reaches everyone at the table, spectators included; an unknown id, a spectator's message and
one past the seat's allowance are refused to the sender alone and change nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardtable.server.chat import PER_MINUTE, PRESETS
from cardtable.server.limits import CreationLimit
from server_pieces import Frame, Socket, humans, open_table, seated, serving

WEB = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "web"


@dataclass
class Table:
    client: TestClient
    table: str
    sockets: dict[int, Socket]
    spectator: Socket

    @property
    def seq(self) -> int:
        return int(self.client.get(f"/api/tables/{self.table}").json()["seq"])

    @property
    def everyone(self) -> list[Socket]:
        return [*self.sockets.values(), self.spectator]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with serving(tmp_path / "chat.db") as client:
        opened = open_table(client, "knockout-whist", humans(3))
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            yield Table(client, opened["table"], sockets, spectator)


def chats(frames: list[Frame]) -> list[Frame]:
    return [f for f in frames if f["type"] == "chat"]


def refused(table: Table, sender: Socket, message: object, code: str) -> Frame:
    """The one answer `message` gets: an error with `code`; nobody else hears anything and
    the table's record does not move."""
    before = table.seq
    sender.send_text(json.dumps(message))
    answer = sender.until(lambda f: f["type"] in ("error", "chat"))[-1]
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert answer["message"]
    assert sender.barrier() == []
    for other in table.everyone:
        if other is not sender:
            assert other.barrier() == [], f"{message!r} reached {other.name}"
    assert table.seq == before
    return answer


def test_a_preset_message_reaches_every_seat_and_the_spectator(table: Table) -> None:
    before = table.seq
    table.sockets[1].send({"type": "chat", "id": "good_game"})
    for socket in table.everyone:
        said = socket.until(lambda f: f["type"] == "chat")[-1]
        assert said == {"type": "chat", "seat": 1, "id": "good_game"}, socket.name
    # Not an event: nothing is numbered or stored, and no one's view moves.
    assert table.seq == before
    for socket in table.everyone:
        assert socket.barrier() == []


def test_every_preset_id_is_relayed(table: Table) -> None:
    sender = table.sockets[0]
    for message_id in PRESETS[:PER_MINUTE]:
        sender.send({"type": "chat", "id": message_id})
        said = table.sockets[2].until(lambda f: f["type"] == "chat")[-1]
        assert said["id"] == message_id and said["seat"] == 0


def test_an_unknown_id_is_refused_and_the_connection_stays_open(table: Table) -> None:
    sender = table.sockets[0]
    for wrong in ("free text, please", "GOOD_GAME", "good game", "", "x" * 300):
        answer = refused(table, sender, {"type": "chat", "id": wrong}, "unknown_message")
        assert "good_game" in answer["message"]
    # The refusals cost nothing of the seat's allowance, and the socket still speaks.
    for _ in range(PER_MINUTE):
        sender.send({"type": "chat", "id": "thanks"})
        assert sender.until(lambda f: f["type"] == "chat")[-1]["id"] == "thanks"


@pytest.mark.parametrize(
    "message",
    [{"type": "chat"}, {"type": "chat", "id": 3}, {"type": "chat", "id": ["good_game"]}],
)
def test_a_chat_without_a_text_id_is_malformed(table: Table, message: object) -> None:
    refused(table, table.sockets[2], message, "malformed")


def test_a_spectator_hears_but_cannot_send(table: Table) -> None:
    refused(table, table.spectator, {"type": "chat", "id": "hello"}, "spectator")


def test_a_socket_that_has_not_joined_cannot_send(table: Table) -> None:
    with table.client.websocket_connect(f"/ws/{table.table}") as session:
        late = Socket(session, "late")
        refused(table, late, {"type": "chat", "id": "hello"}, "not_joined")


def test_a_seat_past_its_allowance_is_refused_until_it_refills(table: Table) -> None:
    sender, other = table.sockets[0], table.sockets[1]
    for _ in range(PER_MINUTE):
        sender.send({"type": "chat", "id": "hurry_up"})
    for socket in table.everyone:
        while len(chats(socket.frames)) < PER_MINUTE:
            socket.receive()
    answer = refused(table, sender, {"type": "chat", "id": "hurry_up"}, "chat_limit")
    assert "a minute" in answer["message"]
    # Each seat has its own allowance: another seat still speaks.
    other.send({"type": "chat", "id": "sorry"})
    assert sender.until(lambda f: f["type"] == "chat")[-1] == {
        "type": "chat",
        "seat": 1,
        "id": "sorry",
    }


def test_the_allowance_is_a_token_bucket_per_seat() -> None:
    """The limit counts each seat on its own and refills at its rate (limits.py's bucket)."""
    limit = CreationLimit(PER_MINUTE)
    for _ in range(PER_MINUTE):
        assert limit.wait("t:0", now=100.0) == 0.0
    wait = limit.wait("t:0", now=100.0)
    assert wait == pytest.approx(60.0 / PER_MINUTE)
    assert limit.wait("t:1", now=100.0) == 0.0
    assert limit.wait("t:0", now=100.0 + 60.0 / PER_MINUTE) == 0.0


def test_every_locale_words_every_preset() -> None:
    """The pages show each id in their reader's language: every locale has every id."""
    for path in sorted((WEB / "locales").glob("*.json")):
        words = json.loads(path.read_text())["chat"]["messages"]
        assert sorted(words) == sorted(PRESETS), path.name
        assert all(isinstance(w, str) and w for w in words.values()), path.name
