"""Hidden cards never reach a socket that may not see them.

Whole games are played through the websocket with every seat human (each seat its own
socket, playing from its own view) and a spectator watching. Afterwards every frame each
socket received is checked against the library: the table's record, replayed with
``cardtable.make(...).replay``, gives each seat's view at each event, and

(a) no frame names a card outside what its receiver may know then: its view, and the card
    of the action it is told of (every action is public);
(b) every frame's ``view`` is the library's view for that seat at that event;
(c) a hand's deck is revealed only once the hand is over, and every deck is revealed by the
    end of the game;
(d) no frame holds a token (or its hash), and none holds a salt before its reveal.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.core import Record
from server_pieces import (
    Frame,
    Socket,
    card_strings,
    events_of,
    humans,
    open_table,
    play_to_end,
    seated,
    serving,
    start_next,
    tokens_of,
)

GAMES_PER_TABLE = 2


@dataclass
class Timeline:
    """A table's events and, for each game, every seat's library view after each action."""

    events: list[dict[str, Any]]
    views: dict[int, list[dict[int | None, Any]]] = field(default_factory=dict)
    action_seqs: dict[int, list[int]] = field(default_factory=dict)

    def game_at(self, seq: int) -> int:
        started = 0
        for item in self.events:
            if item["seq"] > seq:
                break
            if item["kind"] == "game":
                started = item["game"]
        assert started, f"no game had begun at event {seq}"
        return started

    def view_at(self, seq: int, seat: int | None) -> Any:
        number = self.game_at(seq)
        done = sum(1 for s in self.action_seqs[number] if s <= seq)
        return self.views[number][done][seat]


def library_timeline(client: TestClient, table: str, events: list[dict[str, Any]]) -> Timeline:
    """Replay each game's record in the library, one action at a time."""
    timeline = Timeline(events)
    for number in sorted({e["game"] for e in events if e["kind"] == "game"}):
        answer = client.get(f"/api/tables/{table}/replay/{number}")
        assert answer.status_code == 200, answer.text
        record = Record.from_dict(answer.json()["record"])
        played = [e for e in events if e["kind"] == "action" and e["game"] == number]
        assert record.actions == [e["action"] for e in played]
        dealer = next(e["dealer"] for e in events if e["kind"] == "game" and e["game"] == number)
        assert record.options["dealer"] == dealer
        game = cardtable.make(record.game, **record.options)
        state = game.replay(
            Record(record.game, record.options, 0, [], record.decks, record.reshuffles)
        )
        seats: list[int | None] = [*range(game.num_players), None]
        # Through JSON, as a frame carries them (tuples become lists).
        views = [{seat: json.loads(json.dumps(state.view(seat))) for seat in seats}]
        for item in played:
            assert state.to_move == item["seat"], item
            state.apply(item["action"], seat=item["seat"])
            views.append({seat: json.loads(json.dumps(state.view(seat))) for seat in seats})
        assert state.is_over, f"game {number}'s record does not reach the end"
        timeline.views[number] = views
        timeline.action_seqs[number] = [e["seq"] for e in played]
    return timeline


def point_of(frame: Frame, last: int) -> int:
    """The event number a frame speaks of."""
    if "seq" in frame:
        return int(frame["seq"])
    if "table" in frame:
        return int(frame["table"]["seq"])
    return last


def public_part(item: dict[str, Any], allowed: set[str]) -> dict[str, Any]:
    """An event (or a snapshot's deal) without its revealed deck, which (c) checks; the card
    of an action it reports is added to ``allowed``: every seat sees it played."""
    if item.get("kind") == "action":
        allowed |= card_strings(item["action"])
    return {
        key: value
        for key, value in item.items()
        if not (key == "action" and item.get("kind") == "action")
        and not (key in ("deck", "cards") and "commitment" in item)
    }


def shown_cards(frame: Frame, allowed: set[str]) -> set[str]:
    """The cards a frame names outside its view (compared whole) and its revealed decks."""
    rest = {key: value for key, value in frame.items() if key != "view"}
    if "event" in rest:
        rest["event"] = public_part(rest["event"], allowed)
    if frame["type"] == "snapshot":
        rest["missed"] = [public_part(item, allowed) for item in rest["missed"]]
        rest["deals"] = [public_part(item, allowed) for item in rest["deals"]]
    return card_strings(rest)


def hand_number(view: dict[str, Any]) -> int:
    """The hand being played: Knockout Whist's hands and Neuf's deals are numbered; a game of
    Kryt'-navalivat' is one hand."""
    return int(view.get("hand_number", view.get("deal_number", 1)))


def check_reveals(timeline: Timeline) -> dict[str, int]:
    """(c) for the table's events; each salt with the event number of its reveal."""
    revealed: dict[str, int] = {}
    deals = [e for e in timeline.events if e["kind"] == "deal"]
    for item in timeline.events:
        if item["kind"] != "reveal":
            continue
        seq = item["seq"]
        view = timeline.view_at(seq, None)
        assert view["to_move"] is None or hand_number(view) > item["hand"], (
            f"event {seq} reveals hand {item['hand']} of game {item['game']} while it is "
            f"still being played"
        )
        assert any(d["commitment"] == item["commitment"] for d in deals)
        revealed[item["salt"]] = seq
    for item in deals:
        assert any(
            e["kind"] == "reveal" and e["commitment"] == item["commitment"] for e in timeline.events
        ), f"the deal of event {item['seq']} was never revealed"
    return revealed


def check_frames(
    socket: Socket, timeline: Timeline, secrets: list[str], salts: dict[str, int]
) -> int:
    """(a), (b) and (d) for every frame one socket received; the frames checked."""
    last = 0
    for index, frame in enumerate(socket.frames):
        where = f"{socket.name}, frame {index} ({frame['type']})"
        text = json.dumps(frame)
        for secret in secrets:
            assert secret not in text, f"{where} holds a token"
        seq = point_of(frame, last)
        last = seq
        for salt, shown in salts.items():
            assert seq >= shown or salt not in text, f"{where} holds a salt before event {shown}"
        if frame["type"] not in ("snapshot", "event", "presence"):
            assert not card_strings(frame), f"{where} names cards"
            continue
        view = timeline.view_at(seq, socket.seat)
        if frame["type"] != "presence":
            assert frame["view"] == view, f"{where}: the view differs from the library's"
        allowed = card_strings(view)
        shown_now = shown_cards(frame, allowed)
        assert shown_now <= allowed, f"{where} shows {sorted(shown_now - allowed)}"
        if frame["type"] == "snapshot":
            for deal in frame["deals"]:
                if deal.get("salt") is not None:
                    assert salts.get(deal["salt"], seq + 1) <= seq, f"{where}: unrevealed deck"
    return len(socket.frames)


VARIANTS = [
    ("knockout-whist", 3),
    ("neuf", 3),
    ("neuf", 4),
    ("kryt-navalivat", 2),
    ("kryt-navalivat", 3),
]


@pytest.mark.parametrize(("game", "players"), VARIANTS, ids=[f"{g}-{n}p" for g, n in VARIANTS])
def test_no_frame_shows_a_card_its_seat_may_not_know(
    tmp_path: Path, game: str, players: int
) -> None:
    rng = random.Random(f"{game}{players}")
    with serving(tmp_path / "leak.db") as client:
        opened = open_table(client, game, humans(players))
        table = opened["table"]
        tokens = list(tokens_of(opened).values())
        assert len(tokens) == players
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            everyone = [*sockets.values(), spectator]
            for number in range(1, GAMES_PER_TABLE + 1):
                if number > 1:
                    start_next(sockets[0], everyone, number)
                play_to_end(sockets, [spectator], rng)
            events = events_of(spectator.frames)
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
            for socket in sockets.values():
                told = {e["seq"]: e for e in events_of(socket.frames)}
                assert all(events[seq - 1] == item for seq, item in told.items())
            timeline = library_timeline(client, table, events)
        assert len(timeline.views) == GAMES_PER_TABLE
        salts = check_reveals(timeline)
        assert len(salts) >= GAMES_PER_TABLE
        secrets = tokens + [hashlib.sha256(t.encode()).hexdigest() for t in tokens]
        checked = sum(check_frames(s, timeline, secrets, salts) for s in everyone)
        assert checked > len(events)
