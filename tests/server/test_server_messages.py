"""A client's websocket messages read at the edge (``cardtable.server.messages``, docs/server.md
"Client to server"): each type into its own value, anything else refused ``malformed`` with
what was wrong, before the table is looked at."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.messages import (
    Act,
    Chat,
    Hint,
    Join,
    Next,
    Ping,
    Review,
    StandIn,
    parse_message,
)
from cardtable.server.table import TableError
from server_pieces import Socket, humans, open_table


@pytest.mark.parametrize(
    ("message", "read"),
    [
        ({"type": "join", "token": "t", "since": 3, "seed": "ab-_9"}, Join("t", 3, "ab-_9")),
        ({"type": "join"}, Join(None, None, None)),
        ({"type": "action", "action": "play 7C", "seq": 0}, Act("play 7C", 0)),
        ({"type": "hint"}, Hint()),
        ({"type": "next", "extra": 1}, Next()),
        ({"type": "stand_in", "seat": 2}, StandIn(2)),
        ({"type": "review", "game": 1}, Review(1)),
        ({"type": "chat", "id": "gg"}, Chat("gg")),
        ({"type": "ping"}, Ping()),
    ],
)
def test_each_message_is_read_into_its_type(message: dict[str, Any], read: object) -> None:
    assert parse_message(json.dumps(message)) == read
    assert parse_message(json.dumps(message).encode()) == read  # a binary frame of UTF-8


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ([1, 2], "a message is a JSON object"),
        ({"kind": "join"}, "unknown message type;"),
        ({"type": "dance"}, "unknown message type 'dance'"),
        ({"type": "x" * 41}, "unknown message type;"),
        ({"type": 7}, "unknown message type;"),
        ({"type": "join", "token": 5}, "token is text, or null to watch"),
        ({"type": "join", "since": -1}, "since is an event number, or null"),
        ({"type": "join", "since": True}, "since is an event number, or null"),
        ({"type": "join", "seed": "no spaces"}, "a seed is 1-64 characters"),
        ({"type": "action", "action": "play 7C"}, "an action is {type, action: text"),
        ({"type": "action", "action": 3, "seq": 0}, "an action is {type, action: text"),
        ({"type": "action", "action": "knock", "seq": 1.0}, "an action is {type, action: text"),
        ({"type": "stand_in", "seat": "1"}, "a stand-in is {type, seat: a seat number}"),
        ({"type": "review", "game": None}, "a review is {type, game: the game's number}"),
        ({"type": "chat", "id": ["gg"]}, "a preset message is {type: 'chat', id: text}"),
    ],
)
def test_any_other_message_is_refused_malformed(message: object, says: str) -> None:
    with pytest.raises(TableError) as refused:
        parse_message(json.dumps(message))
    assert refused.value.code == "malformed"
    assert says in str(refused.value)


def test_a_malformed_message_is_refused_before_the_table_is_looked_at(tmp_path: Any) -> None:
    """A spectator's stand-in with a seat that is not a number hears ``malformed`` (what it
    sent is not a message), not ``spectator`` (what it may not do); a well-formed one hears
    the table's answer; the socket stays open through both."""
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", bot_delay=0, workers=1)
    with TestClient(app) as client:
        opened = open_table(client, "knockout-whist", humans(2))
        with client.websocket_connect(f"/ws/{opened['table']}") as session:
            watcher = Socket(session, "watcher")
            watcher.join(None)
            for seat, code in (("0", "malformed"), (0, "spectator")):
                watcher.send({"type": "stand_in", "seat": seat})
                answer = watcher.until(lambda f: f["type"] == "error")[-1]
                assert answer["code"] == code, answer
            watcher.send({"type": "ping"})
            assert watcher.until(lambda f: f["type"] == "pong")
