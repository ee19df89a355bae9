"""Fuzzing a live ``cardtable serve`` (DESIGN "Server and web": bad input never costs a
connection, a table or the server).

Hypothesis makes websocket messages and HTTP bodies of every shape: JSON values of any kind,
protocol messages with fields of the wrong kind, text with lone surrogates (JSON's
``\\ud800``), NUL and other control characters, binary frames that are not UTF-8, nesting
thousands deep, numbers of thousands of digits, NaN and Infinity. Each message must get one
answer of the protocol (an ``error`` with a documented code, never ``server_error``; or what
a valid message gets), the connection must stay open and the table must not change. Each body
must create a table (when it is a valid request) or get the documented ``{"error",
"message"}`` with a 4xx status and create nothing.

Bounded and reproducible: a fixed number of examples, derandomized, no example database.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.cards import DECK_52
from cardtable.server.transport import MAX_FRAME
from live_pieces import (
    DATABASES,
    DOCUMENTED_CODES,
    LiveSocket,
    describe,
    live_server,
    live_server_on,
    open_live_table,
    table_total,
    tokens,
)
from served import ServerProcess

FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# ---------------------------------------------------------------- what is sent


@dataclass(frozen=True)
class Raw:
    """JSON text put into a message as it is: what ``json.dumps`` would not write."""

    text: str


def dump(value: object, ascii_only: bool) -> str:
    """``value`` as JSON text, :class:`Raw` leaves as they are. Strings are escaped to ASCII
    when asked, or when they hold a lone surrogate (which only an escape can carry)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, list):
        return "[" + ",".join(dump(item, ascii_only) for item in value) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ",".join(f"{dump(k, ascii_only)}:{dump(v, ascii_only)}" for k, v in value.items())
            + "}"
        )
    text = json.dumps(value, ensure_ascii=ascii_only)
    try:
        text.encode()
    except UnicodeEncodeError:
        text = json.dumps(value)
    return text


CHARACTERS = st.one_of(
    st.characters(),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),  # lone surrogates
    st.sampled_from("\x00\x01\x1b\x7f\u200c\u2028\ufeff\uffff\U0001f0a1"),
)
TEXT = st.text(CHARACTERS, max_size=24)
HUGE = st.one_of(
    st.integers(20, 400).map(lambda digits: Raw("9" * digits)),
    st.integers(4000, 6000).map(lambda digits: Raw("-1" + "0" * digits)),
    st.sampled_from(
        [Raw(t) for t in ["1e99999", "-1e400", "1E400", "-0", "0e-99999", "NaN", "-Infinity"]]
    ),
)
DEEP = st.one_of(
    st.integers(1, 40).map(lambda n: Raw("[" * n + "]" * n)),
    st.integers(900, 2000).map(lambda n: Raw("[" * n + "]" * n)),
    st.integers(1, 1500).map(lambda n: Raw('{"a":' * n + "1" + "}" * n)),
    st.integers(1, 3000).map(lambda n: Raw("[" * n)),  # never closed
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
)
VALUES = st.recursive(
    st.one_of(SCALARS, HUGE),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=8,
)
ANYTHING = st.one_of(VALUES, DEEP)

VERBS = ["play", "trump", "knock", "lead", "beat", "cover", "take", "swap", "exchange", "keep"]
CARDS = [str(card) for card in DECK_52]
ACTIONS = st.one_of(
    TEXT,
    st.builds(
        lambda verb, card, case: f"{verb} {card}".upper() if case else f"{verb} {card}",
        st.sampled_from([*VERBS, "PLAY", "", "play play"]),
        st.one_of(st.sampled_from([*CARDS, "TS", "1X", "7d", "", "H", "10"]), TEXT),
        st.booleans(),
    ),
)

CURRENT = Raw("CURRENT-SEQ")  # the table's event number, put in when the message is sent


def protocol_message(types: list[str]) -> st.SearchStrategy[dict[str, object]]:
    """Messages shaped like the protocol's: each field of its own kind with odd content, or
    of any kind, or missing; and fields of no message."""
    since = st.one_of(st.none(), st.integers(-3, 10**30), HUGE)
    seq = st.one_of(st.just(CURRENT), st.just(CURRENT), st.integers(-3, 10**30), HUGE)
    well_typed = st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("join"), "token": st.one_of(st.none(), TEXT), "since": since}
        ),
        st.fixed_dictionaries({"type": st.just("action"), "action": ACTIONS, "seq": seq}),
        st.fixed_dictionaries({"type": st.sampled_from(types)}, optional={"pad": ANYTHING}),
    )
    any_typed = st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(types), ANYTHING)},
        optional={
            "token": st.one_of(st.none(), TEXT, ANYTHING),
            "since": st.one_of(since, ANYTHING),
            "action": st.one_of(ACTIONS, ANYTHING),
            "seq": st.one_of(seq, ANYTHING),
            "pad": ANYTHING,
        },
    )
    return st.one_of(well_typed, any_typed)


@dataclass(frozen=True)
class Message:
    data: str | bytes
    text: bool | None = None  # send bytes as a binary frame (None) or as they are


def messages(types: list[str]) -> st.SearchStrategy[tuple[object, Message]]:
    """(what was meant, what is sent): JSON text of any value or of a protocol-shaped
    message; binary frames of UTF-8 JSON, of bytes that are not UTF-8, or of anything."""
    protocol_json = st.builds(
        lambda value, ascii_only: (value, Message(dump(value, ascii_only))),
        protocol_message(types),
        st.booleans(),
    )
    anything_json = st.builds(
        lambda value, ascii_only: (value, Message(dump(value, ascii_only))),
        ANYTHING,
        st.booleans(),
    )
    as_binary = st.builds(
        lambda value: (value, Message(dump(value, True).encode())),
        protocol_message(types),
    )
    not_utf8 = st.builds(
        lambda head, tail: (None, Message(head + tail)),
        st.sampled_from([b"\xff", b"\xc3(", b"\xed\xa0\x80", b'{"type": "ping", "x": "\xfe"}']),
        st.binary(max_size=40),
    )
    noise = st.one_of(
        st.binary(max_size=60).map(lambda b: (None, Message(b))),
        st.text(max_size=60).map(lambda t: (None, Message(t))),
    )
    # Most messages look like the protocol's, to reach past the parser.
    return st.one_of(
        protocol_json, protocol_json, protocol_json, as_binary, anything_json, not_utf8, noise
    )


# ---------------------------------------------------------------- the websocket


@dataclass
class Tables:
    """Two Knockout Whist tables on a live server: on one, a socket that never holds a seat
    (it may come to watch); on the other, a socket holding the seat to move. A socket the
    server dropped (a failure) is opened again for the next example, so that Hypothesis
    can tell the failing example from those that follow it."""

    server: ServerProcess
    stranger_table: str
    stranger_seq: int
    seated_table: str
    token: str
    legal: list[str]
    seq: int
    game: cardtable.core.Game
    sockets: dict[str, LiveSocket]

    def stranger(self) -> LiveSocket:
        socket = self.sockets.get("stranger")
        if socket is None or not socket.is_open:
            socket = self.sockets["stranger"] = LiveSocket(self.server, self.stranger_table)
        return socket

    def seated(self) -> LiveSocket:
        socket = self.sockets.get("seated")
        if socket is None or not socket.is_open:
            socket = self.sockets["seated"] = LiveSocket(self.server, self.seated_table)
            socket.join(self.token)
        return socket


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    with live_server(tmp_path_factory.mktemp("fuzz-ws")) as server:
        seats = [{"kind": "human"}] * 3
        stranger_table = open_live_table(server, "knockout-whist", seats)["table"]
        opened = open_live_table(server, "knockout-whist", seats)
        with LiveSocket(server, opened["table"]) as watcher:
            view = watcher.join(None)["view"]
        mover = view["to_move"]
        made = Tables(
            server,
            stranger_table,
            describe(server, stranger_table)["seq"],
            opened["table"],
            tokens(opened)[mover],
            [],
            describe(server, opened["table"])["seq"],
            cardtable.make("knockout-whist", **view["options"]),
            {},
        )
        try:
            seated = made.sockets["seated"] = LiveSocket(server, opened["table"])
            made.legal = seated.join(made.token)["view"]["legal_actions"]
            seated.quiet()
            yield made
        finally:
            for socket in made.sockets.values():
                socket.close()


def would_be_played(tables: Tables, meant: object) -> bool:
    """Whether the seated socket's message is an action the table would accept."""
    if not isinstance(meant, dict) or meant.get("type") != "action":
        return False
    action, seq = meant.get("action"), meant.get("seq")
    if not isinstance(action, str) or seq is not CURRENT:
        return False
    try:
        return str(tables.game.parse_action(action)) in tables.legal
    except Exception:
        return False


def answer_of(socket: LiveSocket, message: Message, meant: object) -> dict[str, Any]:
    """The one answer to ``message``: an error of the protocol, a snapshot (a valid join),
    or a pong (a ping). What comes next is the answer to a ping: the connection is open."""
    answer = socket.ask(message.data, text=message.text)
    assert answer["type"] in ("error", "snapshot", "pong"), (meant, answer)
    if answer["type"] == "error":
        assert answer["code"] in DOCUMENTED_CODES - {"server_error"}, (meant, answer)
        assert isinstance(answer["message"], str) and answer["message"], (meant, answer)
    return answer


def sendable(tables: Tables, message: Message) -> Message:
    """The message with the table's event number put in, if it is small enough to be read
    (a larger one closes the connection, by design: test_server_input.py)."""
    data = message.data
    if isinstance(data, str):
        data = data.replace(CURRENT.text, str(tables.seq))
    else:
        data = data.replace(CURRENT.text.encode(), str(tables.seq).encode())
    assume(len(data if isinstance(data, bytes) else data.encode()) <= MAX_FRAME)
    return Message(data, message.text)


def test_a_stranger_gets_an_answer_and_changes_nothing(tables: Tables) -> None:
    @FUZZ
    @given(sent=messages(["join", "action", "hint", "next", "ping", "pong", "JOIN", ""]))
    def fuzz(sent: tuple[object, Message]) -> None:
        meant, message = sent
        answer = answer_of(tables.stranger(), sendable(tables, message), meant)
        if answer["type"] == "snapshot":  # a join to watch
            assert answer["seat"] is None
        assert describe(tables.server, tables.stranger_table)["seq"] == tables.stranger_seq

    fuzz()
    tables.stranger().quiet()
    assert tables.stranger().join(None)["seq"] == tables.stranger_seq


def test_the_seat_to_move_gets_an_answer_and_changes_nothing(tables: Tables) -> None:
    @FUZZ
    @given(sent=messages(["join", "action", "next", "ping", "Action", ""]))
    def fuzz(sent: tuple[object, Message]) -> None:
        meant, message = sent
        # Not what would take the seat away (a join to watch) or ask for the search (a
        # hint), nor an action the table would play.
        assume(not would_be_played(tables, meant))
        if isinstance(meant, dict) and meant.get("type") == "join":
            assume(isinstance(meant.get("token"), str))
        answer = answer_of(tables.seated(), sendable(tables, message), meant)
        assert answer["type"] != "snapshot", (meant, answer)
        assert describe(tables.server, tables.seated_table)["seq"] == tables.seq

    fuzz()
    # The seat still plays.
    tables.seated().quiet()
    played = tables.seated().ask(
        json.dumps({"type": "action", "action": tables.legal[0], "seq": tables.seq})
    )
    assert played["type"] == "event" and played["event"]["action"] == tables.legal[0]


# ---------------------------------------------------------------- HTTP

GAMES = cardtable.games()
OPTIONS = ["trump_sequence", "dealer_exchanges_first", "tie_avoidance", "trump_mode", "dealer"]
# Bots of the easy level only: they play at once, in the server, and load it least.
LEVELS = st.sampled_from(["easy", "expert", "Easy", ""])
NAMES = st.one_of(TEXT, st.text(st.characters(exclude_categories=["Cc", "Cs"]), max_size=40))
WELL_FORMED = st.fixed_dictionaries(
    {
        "game": st.sampled_from(GAMES),
        "seats": st.lists(
            st.fixed_dictionaries(
                {"kind": st.sampled_from(["human", "bot"])},
                optional={"name": NAMES, "level": LEVELS},
            ),
            min_size=2,
            max_size=4,
        ),
    },
    optional={
        "options": st.dictionaries(
            st.sampled_from(OPTIONS),
            st.one_of(
                st.booleans(),
                st.sampled_from(["HDCS-NT", "SHDC-NT", "HDCS", "turned", "permanent"]),
                st.integers(),
                TEXT,
                ANYTHING,
            ),
            max_size=2,
        )
    },
)
SEAT = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.one_of(st.sampled_from(["human", "bot"]), ANYTHING),
        "name": st.one_of(NAMES, ANYTHING),
        "level": st.one_of(LEVELS, ANYTHING),
    },
)
TABLE_REQUEST = st.fixed_dictionaries(
    {},
    optional={
        "game": st.one_of(st.sampled_from(GAMES), ANYTHING),
        "options": st.one_of(
            st.dictionaries(st.one_of(st.sampled_from(OPTIONS), TEXT), ANYTHING, max_size=3),
            ANYTHING,
        ),
        "seats": st.one_of(st.lists(SEAT, min_size=1, max_size=5), ANYTHING),
        "pad": ANYTHING,
    },
)
as_body = st.builds(lambda value, a: dump(value, a).encode(), WELL_FORMED, st.booleans())
BODIES = st.one_of(
    as_body,
    as_body,
    st.builds(lambda value, a: dump(value, a).encode(), TABLE_REQUEST, st.booleans()),
    st.builds(lambda value, a: dump(value, a).encode(), ANYTHING, st.booleans()),
    st.builds(
        lambda head, tail: head + tail,
        st.sampled_from([b"\xff", b'{"game": "neuf\xc3(', b"\xef\xbb\xbf{}", b"{\x00}"]),
        st.binary(max_size=40),
    ),
    st.binary(max_size=80),
)


@pytest.fixture(
    scope="module",
    params=DATABASES,
)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    with live_server_on(
        request.param, tmp_path_factory.mktemp(f"fuzz-http-{request.param}")
    ) as running:
        yield running


@settings(FUZZ, max_examples=100)
@given(body=BODIES)
def test_a_body_creates_a_table_or_gets_a_documented_error(
    server: ServerProcess, body: bytes
) -> None:
    before = table_total(server)
    answer = httpx.post(
        f"{server.http}/api/tables",
        content=body,
        headers={"content-type": "application/json"},
        timeout=30.0,
    )
    assert answer.headers["content-type"] == "application/json", answer.text
    if answer.status_code == 201:
        opened = answer.json()
        assert table_total(server) == before + 1
        described = describe(server, opened["table"])
        assert len(described["seats"]) == len(opened["seats"])
        request = json.loads(body)
        for seat, asked in zip(described["seats"], request["seats"], strict=True):
            if isinstance(asked.get("name"), str) and asked["name"].strip():
                assert seat["name"] in (asked["name"], asked["name"].strip())
        return
    assert 400 <= answer.status_code < 500, (body, answer.status_code, answer.text)
    refusal = answer.json()
    assert set(refusal) == {"error", "message"}, refusal
    assert isinstance(refusal["error"], str) and isinstance(refusal["message"], str)
    assert table_total(server) == before
