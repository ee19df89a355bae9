"""The web table's websocket (docs/server.md, "The websocket"): joining, every refusal (which
changes nothing and reaches no one else), taking a seat over, catching up, hints, the next
game, stand-ins, fair deals and a restart in the middle of a game."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import cardtable
from cardtable.cards import DECK_36, DECK_52
from server_pieces import (
    Frame,
    Socket,
    events_of,
    humans,
    last_of_change,
    open_table,
    play_to_end,
    play_turn,
    seated,
    serving,
    start_next,
    tokens_of,
)


@dataclass
class Seated:
    """A Knockout Whist table for three, every seat joined, and a spectator."""

    client: TestClient
    table: str
    tokens: dict[int, str]
    sockets: dict[int, Socket]
    spectator: Socket

    @property
    def seq(self) -> int:
        return int(self.client.get(f"/api/tables/{self.table}").json()["seq"])

    @property
    def mover(self) -> Socket:
        return self.sockets[self.spectator.view["to_move"]]

    @property
    def waiting(self) -> Socket:
        """A seat that is not to move."""
        to_move = self.spectator.view["to_move"]
        return next(s for seat, s in self.sockets.items() if seat != to_move)

    def everyone_but(self, socket: Socket) -> list[Socket]:
        return [s for s in [*self.sockets.values(), self.spectator] if s is not socket]

    def refused(self, socket: Socket, message: object, code: str) -> Frame:
        """Send ``message`` (text as it is, anything else as JSON); the one error it gets
        back, after checking that nothing changed and no one else heard of it."""
        before = self.seq
        socket.send_text(message if isinstance(message, str) else json.dumps(message))
        answer = socket.until(lambda f: f["type"] in ("error", "event", "snapshot"))
        assert answer[-1]["type"] == "error", f"{message!r} was answered {answer[-1]}"
        assert answer[-1]["code"] == code, f"{message!r} was answered {answer[-1]}"
        assert answer[-1]["message"]
        assert socket.barrier() == [], f"{message!r} sent more than its refusal"
        for other in self.everyone_but(socket):
            assert other.barrier() == [], f"{message!r} reached {other.name}"
        assert self.seq == before
        return answer[-1]


@pytest.fixture
def three(tmp_path: Path) -> Iterator[Seated]:
    with serving(tmp_path / "ws.db") as client:
        opened = open_table(client, "knockout-whist", humans(3))
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            yield Seated(client, opened["table"], tokens_of(opened), sockets, spectator)


def test_a_seat_and_a_spectator_get_their_snapshots(tmp_path: Path) -> None:
    with serving(tmp_path / "ws.db") as client:
        opened = open_table(client, "neuf", [*humans(2), {"kind": "human", "name": "Zoe"}])
        table, tokens = opened["table"], tokens_of(opened)
        public = client.get(f"/api/tables/{table}").json()
        with (
            client.websocket_connect(f"/ws/{table}") as a,
            client.websocket_connect(f"/ws/{table}") as b,
        ):
            seat, spectator = Socket(a, "seat 2"), Socket(b, "spectator")
            mine = seat.join(tokens[2])
            theirs = spectator.join(None)
        assert mine["type"] == "snapshot" and mine["seat"] == 2 and theirs["seat"] is None
        for snapshot in (mine, theirs):
            assert snapshot["seq"] == public["seq"] == snapshot["table"]["seq"]
            assert snapshot["game"] == 1 and snapshot["missed"] == []
            assert snapshot["table"]["seats"][2]["name"] == "Zoe"
            [deal] = snapshot["deals"]
            assert deal["game"] == 1 and deal["hand"] == 1 and len(deal["commitment"]) == 64
            assert deal["deck"] is None and deal["salt"] is None
            assert snapshot["view"]["game"] == "neuf" and snapshot["view"]["players"] == 3
        assert len(mine["view"]["hand"]) == 13 and mine["view"]["seat"] == 2
        assert "hand" not in theirs["view"] and theirs["view"]["seat"] is None
        assert mine["table"]["seats"][2]["connected"] is True
        assert theirs["table"]["seats"][2]["connected"] is True  # the seat joined first


def test_a_bad_token_is_refused_and_the_socket_can_join_after(three: Seated) -> None:
    with three.client.websocket_connect(f"/ws/{three.table}") as session:
        socket = Socket(session, "late")
        three.refused(socket, {"type": "join", "token": "not-a-token", "since": None}, "bad_token")
        three.refused(socket, {"type": "action", "action": "play 7D", "seq": 1}, "not_joined")
        three.refused(socket, {"type": "hint"}, "not_joined")
        snapshot = socket.join(None)
        assert snapshot["seat"] is None and snapshot["seq"] == three.seq
        # A spectator may still take a seat on the same socket: it is replaced elsewhere.
        snapshot = socket.join(three.tokens[1])
        assert snapshot["seat"] == 1 and "hand" in snapshot["view"]
        replaced = three.sockets[1].until(lambda f: f["type"] == "error")[-1]
        assert replaced["code"] == "replaced"


def test_an_unknown_table_is_answered_and_closed(three: Seated) -> None:
    with three.client.websocket_connect("/ws/nosuchtable") as session:
        socket = Socket(session, "lost")
        assert socket.receive()["code"] == "no_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive()
        assert closed.value.code == 4404


def malformed_messages(seq: int, legal: str) -> list[str]:
    """Each way a message can be malformed, for the seat to move (so that a misread action
    would be played)."""
    return [
        "not json",
        "{'type': 'ping'}",
        "[]",
        json.dumps([{"type": "ping"}]),
        '"ping"',
        "7",
        "null",
        "{}",
        json.dumps({"type": "dance"}),
        json.dumps({"type": None}),
        json.dumps({"type": ["action"]}),
        json.dumps({"type": "action"}),
        json.dumps({"type": "action", "action": legal}),
        json.dumps({"type": "action", "seq": seq}),
        json.dumps({"type": "action", "action": 7, "seq": seq}),
        json.dumps({"type": "action", "action": [legal], "seq": seq}),
        json.dumps({"type": "action", "action": legal, "seq": str(seq)}),
        json.dumps({"type": "action", "action": legal, "seq": float(seq)}),
        json.dumps({"type": "action", "action": legal, "seq": None}),
        json.dumps({"type": "join", "token": 5}),
        json.dumps({"type": "join", "token": ["x"]}),
        json.dumps({"type": "join", "token": None, "since": "3"}),
        json.dumps({"type": "join", "token": None, "since": -1}),
        json.dumps({"type": "join", "token": None, "since": True}),
    ]


def test_every_malformed_message_is_refused(three: Seated) -> None:
    mover = three.mover
    legal = mover.view["legal_actions"][0]
    for message in malformed_messages(three.seq, legal):
        three.refused(mover, message, "malformed")
    seat = mover.seat
    assert seat is not None
    assert mover.join(three.tokens[seat])["seat"] == seat


def test_a_message_over_4096_bytes_is_refused(three: Seated) -> None:
    mover = three.mover
    big = {"type": "action", "action": mover.view["legal_actions"][0], "seq": three.seq}
    big["pad"] = ""
    big["pad"] = "x" * (5000 - len(json.dumps(big)))
    text = json.dumps(big)
    assert len(text.encode()) == 5000
    three.refused(mover, text, "too_large")


def test_a_flood_is_refused_and_the_socket_survives(three: Seated) -> None:
    mover = three.mover
    before = three.seq
    # Stale actions (seen before the game began): each would be refused anyway, so only the
    # flood limit is at work.
    stale = json.dumps({"type": "action", "action": mover.view["legal_actions"][0], "seq": 0})
    for _ in range(100):
        mover.blast(stale)
    answers = [mover.receive() for _ in range(100)]
    codes = [a.get("code") for a in answers]
    assert all(a["type"] == "error" for a in answers)
    assert set(codes) == {"stale", "flood"}, codes
    # A burst of 40 is let through, less what joining and settling the table spent.
    assert codes.count("stale") >= 30 and codes.count("flood") >= 20
    time.sleep(0.2)  # the bucket refills at 20 a second
    assert mover.barrier() == []
    for other in three.everyone_but(mover):
        assert other.barrier() == []
    assert three.seq == before
    frames = mover.act(mover.view["legal_actions"][0])
    assert frames[-1]["type"] == "event" and three.seq > before


def test_each_refused_action_changes_nothing(three: Seated) -> None:
    mover, waiting = three.mover, three.waiting
    seq = three.seq
    legal = mover.view["legal_actions"]
    spectator = three.spectator
    three.refused(spectator, {"type": "action", "action": legal[0], "seq": seq}, "spectator")
    three.refused(spectator, {"type": "next"}, "spectator")
    three.refused(spectator, {"type": "hint"}, "spectator")
    three.refused(waiting, {"type": "action", "action": legal[0], "seq": seq}, "not_your_turn")
    # Seen before the last change (the game's start and its deal, events 1 and 2): stale.
    three.refused(mover, {"type": "action", "action": legal[0], "seq": 0}, "stale")
    three.refused(mover, {"type": "action", "action": legal[0], "seq": seq + 1}, "stale")
    held = set(mover.view["hand"])
    outside = next(str(c) for c in DECK_52 if str(c) not in held)
    refusal = three.refused(
        mover, {"type": "action", "action": f"play {outside}", "seq": seq}, "illegal"
    )
    assert all(text in refusal["message"] for text in legal), refusal
    for text in ["dance", "play 1X", "play", "", "play 7D 8D", "beat 7D"]:
        three.refused(mover, {"type": "action", "action": text, "seq": seq}, "invalid_action")
    three.refused(mover, {"type": "next"}, "not_over")
    # After all that, the seat to move still plays.
    frames = mover.act(legal[0])
    assert frames[0]["event"] == {
        "seq": seq + 1,
        "kind": "action",
        "game": 1,
        "seat": mover.seat,
        "action": legal[0],
        "by": "human",
    }


def test_a_second_connection_takes_the_seat_over(three: Seated) -> None:
    mover = three.mover
    seat = mover.seat
    assert seat is not None
    with three.client.websocket_connect(f"/ws/{three.table}") as session:
        again = Socket(session, f"seat {seat} again")
        snapshot = again.join(three.tokens[seat])
        assert snapshot["seat"] == seat and snapshot["view"] == mover.view
        replaced = mover.until(lambda f: f["type"] == "error")[-1]
        assert replaced["code"] == "replaced"
        with pytest.raises(WebSocketDisconnect):
            mover.until(lambda f: False)
        public = three.client.get(f"/api/tables/{three.table}").json()
        assert public["seats"][seat]["connected"] is True
        frames = again.act(again.view["legal_actions"][0])
        assert frames[-1]["type"] == "event" and frames[0]["event"]["seat"] == seat


def test_a_reconnection_is_sent_exactly_what_it_missed(three: Seated) -> None:
    rng = random.Random(3)
    away = three.waiting
    seat = away.seat
    assert seat is not None
    seen = away.seq
    away.close()
    present = {s: x for s, x in three.sockets.items() if s != seat}
    while three.spectator.view["to_move"] != seat:
        play_turn(present, [three.spectator], rng)
    told = [f["event"] for f in three.spectator.frames if f["type"] == "event"]
    expected = [e for e in told if e["seq"] > seen]
    assert expected, "nothing happened while the seat was away"
    with three.client.websocket_connect(f"/ws/{three.table}") as session:
        back = Socket(session, "back")
        snapshot = back.join(three.tokens[seat], since=seen)
        assert snapshot["missed"] == expected
        assert snapshot["seq"] == expected[-1]["seq"] == three.seq
        assert snapshot["view"]["to_move"] == seat and snapshot["view"]["legal_actions"]
        fresh = back.join(three.tokens[seat], since=snapshot["seq"])
        assert fresh["missed"] == []
        everything = back.join(three.tokens[seat], since=0)
        assert everything["missed"] == events_of(three.spectator.frames)


def test_a_hint_rates_each_legal_action_on_ones_own_turn(three: Seated) -> None:
    mover, waiting = three.mover, three.waiting
    legal = mover.view["legal_actions"]
    assert len(legal) > 1
    three.refused(waiting, {"type": "hint"}, "not_your_turn")
    mover.send({"type": "hint"})
    hint = mover.until(lambda f: f["type"] == "hint", seconds=30)[-1]
    assert hint["seq"] == three.seq
    assert [a["action"] for a in hint["actions"]] == legal
    for advice in hint["actions"]:
        assert advice["value"] is None or isinstance(advice["value"], float), advice
        assert isinstance(advice["visits"], int) and advice["visits"] >= 0
    assert sum(a["visits"] for a in hint["actions"]) > len(legal)
    for other in three.everyone_but(mover):
        assert other.barrier() == []


NEXT_GAMES = [("knockout-whist", 3), ("neuf", 4), ("kryt-navalivat", 2)]


@pytest.mark.parametrize(("game", "players"), NEXT_GAMES, ids=[g for g, _ in NEXT_GAMES])
def test_the_next_game_is_dealt_by_the_right_seat(tmp_path: Path, game: str, players: int) -> None:
    rng = random.Random(game)
    with serving(tmp_path / "next.db") as client:
        opened = open_table(client, game, humans(players))
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            everyone = [*sockets.values(), spectator]
            first = spectator.frames[0]["missed"][0]
            assert first["kind"] == "game" and first["game"] == 1
            sockets[0].send({"type": "next"})
            assert sockets[0].until(lambda f: f["type"] == "error")[-1]["code"] == "not_over"
            play_to_end(sockets, [spectator], rng)
            over = events_of(spectator.frames)[-1]
            assert over["kind"] == "over" and over["game"] == 1
            sockets[1].send({"type": "action", "action": "keep", "seq": sockets[1].seq})
            assert sockets[1].until(lambda f: f["type"] == "error")[-1]["code"] == "game_over"
            frames = start_next(sockets[1], everyone, 2)
            opening = [f["event"] for f in frames]
            assert opening[0]["kind"] == "game" and opening[0]["game"] == 2
            assert opening[1]["kind"] == "deal" and opening[1]["game"] == 2
            if game == "kryt-navalivat":
                # K-8, KRYT-7.5: the fool deals; after a draw, the same dealer again.
                fool = spectator.frames[-len(frames) - 1]["view"]["loser"]
                expected = first["dealer"] if fool is None else fool
            else:
                expected = (first["dealer"] + 1) % players
            assert opening[0]["dealer"] == expected
            assert spectator.view["dealer"] == expected
            assert client.get(f"/api/tables/{opened['table']}").json()["games"] == 2
            sockets[0].send({"type": "next"})
            assert sockets[0].until(lambda f: f["type"] == "error")[-1]["code"] == "not_over"


def absent_seats_moves(
    home: Socket, spectator: Socket, rng: random.Random, count: int
) -> list[dict[str, Any]]:
    """Play seat 0's turns (2 players) until seat 1, whose player is away, has made
    ``count`` moves or the game ends; seat 1's action events."""
    moves: list[dict[str, Any]] = []
    while len(moves) < count and spectator.view["to_move"] is not None:
        if spectator.view["to_move"] == 0:
            play_turn({0: home}, [spectator], rng)
            continue
        frame = spectator.until(lambda f: f["type"] == "event", seconds=20)[-1]
        home.catch_up(spectator.seq)
        if frame["event"]["kind"] == "action":
            assert frame["event"]["seat"] == 1
            moves.append(frame["event"])
    return moves


def test_a_stand_in_plays_for_an_absent_seat_until_it_returns(tmp_path: Path) -> None:
    rng = random.Random(11)
    with serving(tmp_path / "stand-in.db", grace=0.2) as client:
        opened = open_table(client, "kryt-navalivat", humans(2))
        table, tokens = opened["table"], tokens_of(opened)
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            home, away = sockets[0], sockets[1]
            away.close()
            stand_in = absent_seats_moves(home, spectator, rng, 3)
            assert stand_in and all(e["by"] == "stand-in" for e in stand_in)
            shown = [f["table"]["seats"][1]["stand_in"] for f in home.frames if "table" in f]
            assert True in shown
            assert spectator.view["to_move"] is not None, "the game ended before seat 1 came back"
            with client.websocket_connect(f"/ws/{table}") as session:
                back = Socket(session, "seat 1 back")
                returned = back.join(tokens[1])["seq"]
                described = client.get(f"/api/tables/{table}").json()["seats"][1]
                assert described["stand_in"] is False and described["connected"] is True
                for socket in (home, spectator):
                    socket.catch_up(returned)
                both = {0: home, 1: back}
                while spectator.view["to_move"] != 1:
                    play_turn(both, [spectator], rng)
                seq = spectator.seq
                time.sleep(0.6)  # three grace periods: a stand-in would have played
                for socket in (home, back, spectator):
                    assert socket.barrier() == [], f"{socket.name} was sent more"
                assert client.get(f"/api/tables/{table}").json()["seq"] == seq
                frames = play_turn(both, [spectator], rng)
                assert frames[0]["event"]["seat"] == 1 and frames[0]["event"]["by"] == "human"
            later = [e for e in events_of(spectator.frames) if e["seq"] > returned]
            assert all(e["by"] == "human" for e in later if e["kind"] == "action"), later


def test_after_a_restart_a_stand_in_plays_for_a_player_who_does_not_return(
    tmp_path: Path,
) -> None:
    """Nobody is connected when a server starts: a player who had taken a seat and does not
    come back within the grace period gets a stand-in, as if they had left at the restart."""
    database = tmp_path / "gone.db"
    rng = random.Random(5)
    with serving(database) as client:
        opened = open_table(client, "kryt-navalivat", humans(2))
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            while {e["seat"] for e in events_of(spectator.frames) if e["kind"] == "action"} != {
                0,
                1,
            }:
                play_turn(sockets, [spectator], rng)
    table, tokens = opened["table"], tokens_of(opened)
    with (
        serving(database, grace=0.2) as client,
        client.websocket_connect(f"/ws/{table}") as first,
        client.websocket_connect(f"/ws/{table}") as watching,
    ):
        home, spectator = Socket(first, "seat 0"), Socket(watching, "spectator")
        home.join(tokens[0])
        spectator.join(None)
        stand_in = absent_seats_moves(home, spectator, rng, 2)
        assert stand_in and all(e["by"] == "stand-in" for e in stand_in)


def pack_of(game: str) -> list[str]:
    return [str(c) for c in (DECK_36 if game == "kryt-navalivat" else DECK_52)]


def test_every_deal_is_committed_and_revealed_fairly(tmp_path: Path) -> None:
    rng = random.Random(17)
    with serving(tmp_path / "fair.db") as client:
        opened = open_table(client, "knockout-whist", humans(3))
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            play_to_end(sockets, [spectator], rng)
            frames = {seat: socket.frames for seat, socket in sockets.items()}
    events = events_of(spectator.frames)
    dealer = events[0]["dealer"]
    deals = [e for e in events if e["kind"] == "deal"]
    reveals = {e["commitment"]: e for e in events if e["kind"] == "reveal"}
    assert len([d for d in deals if "reshuffle" not in d]) >= 2
    for deal in deals:
        reveal = reveals[deal["commitment"]]
        assert reveal["seq"] > deal["seq"] and reveal["hand"] == deal["hand"]
        deck, salt = reveal["deck"], reveal["salt"]
        assert len(salt) == 32 and int(salt, 16) >= 0
        digest = hashlib.sha256(f"{salt}:{' '.join(deck)}".encode()).hexdigest()
        assert digest == deal["commitment"]
        if "reshuffle" in deal:
            continue
        assert sorted(deck) == sorted(pack_of("knockout-whist"))
        for seat, received in frames.items():
            # The seat's first view of this hand holds cards of this deck only.
            first = next(
                f["view"]
                for f in received
                if f.get("seq", 0) >= deal["seq"] and f["type"] in ("event", "snapshot")
            )
            assert set(first["hand"]) <= set(deck)
            if deal["hand"] == 1:
                game = cardtable.make("knockout-whist", players=3, dealer=dealer)
                dealt = game.new_state(seed=0, decks=[deck]).view(seat)["hand"]
                assert first["hand"] == dealt


def test_a_restarted_server_carries_on_where_it_stopped(tmp_path: Path) -> None:
    database = tmp_path / "restore.db"
    rng = random.Random(23)
    with serving(database) as client:
        opened = open_table(client, "knockout-whist", humans(3))
        table = opened["table"]
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            # Past the first hand (7 tricks of 3 cards), so a deck has been revealed.
            for _ in range(25):
                play_turn(sockets, [spectator], rng)
            seq = spectator.seq
            views: dict[int | None, Any] = {s: x.view for s, x in sockets.items()}
            views[None] = spectator.view
            told = events_of(spectator.frames)
    with serving(database) as client:
        public = client.get(f"/api/tables/{table}").json()
        assert public["seq"] == seq
        assert client.get("/health").json()["tables"] == 1
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            for seat, socket in sockets.items():
                assert socket.frames[0]["view"] == views[seat]
                assert socket.frames[0]["seq"] == seq
            assert spectator.frames[0]["view"] == views[None]
            assert spectator.frames[0]["missed"] == told
            play_to_end(sockets, [spectator], rng)
            assert events_of(spectator.frames)[-1]["kind"] == "over"


def test_a_stand_in_can_be_asked_for_a_player_who_has_not_come(tmp_path: Path) -> None:
    """A human seat nobody has joined stalled the table for ever (no
    stand-in plays before its player has come). The table says the seat is awaited, and a
    seated player may ask for a stand-in: it plays at once, and stops when the player
    joins. Asking for a bot's seat, a seat someone is at, or as a watcher is refused."""
    rng = random.Random(23)
    seats = [*humans(2), {"kind": "bot", "level": "easy"}]
    with serving(tmp_path / "awaited.db") as client:
        opened = open_table(client, "kryt-navalivat", seats)
        table, tokens = opened["table"], tokens_of(opened)
        with (
            client.websocket_connect(f"/ws/{table}") as first,
            client.websocket_connect(f"/ws/{table}") as watching,
        ):
            home, spectator = Socket(first, "seat 0"), Socket(watching, "spectator")
            home.join(tokens[0])
            spectator.join(None, since=0)
            described = client.get(f"/api/tables/{table}").json()["seats"]
            assert [s["awaited"] for s in described] == [False, True, False]
            # Seat 0 and the bot play until the table waits on seat 1, and there it stays.
            while spectator.view["to_move"] != 1:
                if spectator.view["to_move"] == 0:
                    play_turn({0: home}, [spectator], rng)
                else:
                    spectator.until(last_of_change)
                    home.catch_up(spectator.seq)
            seq = spectator.seq
            for socket in (home, spectator):
                assert socket.barrier() == []
            assert client.get(f"/api/tables/{table}").json()["seq"] == seq
            for asker, message, code in [
                (spectator, {"type": "stand_in", "seat": 1}, "spectator"),
                (home, {"type": "stand_in", "seat": 0}, "not_absent"),
                (home, {"type": "stand_in", "seat": 2}, "not_absent"),
                (home, {"type": "stand_in", "seat": 3}, "malformed"),
                (home, {"type": "stand_in", "seat": "1"}, "malformed"),
                (home, {"type": "stand_in"}, "malformed"),
            ]:
                asker.send(message)
                answer = asker.until(lambda f: f["type"] in ("error", "presence", "event"))[-1]
                assert answer["type"] == "error" and answer["code"] == code, (message, answer)
            assert client.get(f"/api/tables/{table}").json()["seq"] == seq
            home.send({"type": "stand_in", "seat": 1})
            for socket in (home, spectator):
                presence = socket.until(lambda f: f["type"] == "presence")[-1]
                assert presence["table"]["seats"][1]["stand_in"] is True
                assert presence["table"]["seats"][1]["awaited"] is False
            moves = absent_seats_moves_of(1, home, spectator, rng, 2)
            assert moves and all(e["by"] == "stand-in" for e in moves)
            with client.websocket_connect(f"/ws/{table}") as later:
                back = Socket(later, "seat 1 at last")
                back.join(tokens[1])
                described = client.get(f"/api/tables/{table}").json()["seats"][1]
                assert described["stand_in"] is False and described["connected"] is True
                assert described["awaited"] is False
                home.send({"type": "stand_in", "seat": 1})
                answer = home.until(lambda f: f["type"] == "error")[-1]
                assert answer["code"] == "not_absent"


def absent_seats_moves_of(
    absent: int, home: Socket, spectator: Socket, rng: random.Random, count: int
) -> list[dict[str, Any]]:
    """Play seat 0's turns (the others are bots or stand-ins) until seat ``absent`` has made
    ``count`` moves or the game ends; its action events."""
    moves: list[dict[str, Any]] = []
    while len(moves) < count and spectator.view["to_move"] is not None:
        if spectator.view["to_move"] == 0:
            play_turn({0: home}, [spectator], rng)
            continue
        frame = spectator.until(lambda f: f["type"] == "event", seconds=20)[-1]
        home.catch_up(spectator.seq)
        if frame["event"]["kind"] == "action" and frame["event"]["seat"] == absent:
            moves.append(frame["event"])
    return moves
