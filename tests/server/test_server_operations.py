"""What a host watches a server by (docs/hosting.md): ``/health`` (the process is alive),
``/ready`` (it serves players now: its database answers a real query) and the Prometheus
metrics at ``/metrics``, read from a live ``cardtable serve`` after real play."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from cardtable.server import create_app
from live_pieces import DATABASES, LiveSocket, live_server, open_live_table, tokens
from postgres_server import pg_ctl, postgres_url
from served import ServerProcess

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(server: ServerProcess) -> Samples:
    """Every sample of the server's ``/metrics``, by name and labels."""
    answer = httpx.get(f"{server.http}/metrics", timeout=10.0)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_metrics_move_with_real_play(tmp_path: Path) -> None:
    """A human plays against a bot that thinks in a worker (medium) and one that plays in
    the server (easy), asks for a hint and sends a message the server refuses: each
    metric counts what happened, and the gauges fall back once the socket is gone."""
    rng = random.Random(3)
    with live_server(tmp_path) as server:
        before = scrape(server)
        assert value(before, "cardtable_tables_open") == 0
        assert value(before, "cardtable_actions_total", by="human") == 0
        opened = open_live_table(
            server,
            "kryt-navalivat",
            [
                {"kind": "human", "name": "Ana"},
                {"kind": "bot", "level": "medium"},
                {"kind": "bot", "level": "easy"},
            ],
        )
        table = opened["table"]
        played = 0
        bots = 0
        with LiveSocket(server, table) as socket:
            snapshot = socket.join(tokens(opened)[0])
            view, seq = snapshot["view"], snapshot["seq"]
            assert socket.ask('{"type": "nonsense"}')["code"] == "malformed"
            assert socket.ask('{"type": "hint"}')["type"] in ("hint", "error")
            while played < 8 and view.get("to_move") is not None:
                if view["to_move"] == 0:
                    action = rng.choice(view["legal_actions"])
                    socket.send(json.dumps({"type": "action", "action": action, "seq": seq}))
                    played += 1
                while True:  # up to the seat's next turn, or the game's end
                    frame = socket.receive(30.0)
                    if frame["type"] != "event":
                        continue
                    view, seq = frame["view"], frame["seq"]
                    if frame["event"]["kind"] == "action" and frame["event"]["by"] == "bot":
                        bots += 1
                    if view.get("to_move") in (0, None):
                        break
            during = scrape(server)
            # The seat taken up in another window: still one seat, one socket.
            with LiveSocket(server, table) as window:
                window.join(tokens(opened)[0])
                assert socket.until("error")["code"] == "replaced"
                replaced = _until(server, lambda s: value(s, "cardtable_sockets_open") == 1)
                assert value(replaced, "cardtable_seats_connected") == 1
        assert played >= 1 and bots >= 2
        assert value(during, "cardtable_tables_open") == 1
        assert value(during, "cardtable_sockets_open") == 1
        assert value(during, "cardtable_seats_connected") == 1
        assert value(during, "cardtable_actions_total", by="human") == played
        assert value(during, "cardtable_actions_total", by="bot") >= bots
        # Every stored action's commit was timed (and the table's opening is not one).
        commits = value(during, "cardtable_commit_seconds_count")
        assert commits >= played + bots
        assert value(during, "cardtable_commit_seconds_sum") > 0
        assert value(during, "cardtable_bot_think_seconds_count", level="medium") >= 1
        assert value(during, "cardtable_bot_think_seconds_count", level="easy") >= 1
        assert value(during, "cardtable_websocket_errors_total", code="malformed") == 1
        assert value(during, "cardtable_hints_pending") == 0
        # The sockets are gone: the gauges say so (the table stays in memory, idle).
        after = _until(server, lambda s: value(s, "cardtable_sockets_open") == 0)
        assert value(after, "cardtable_seats_connected") == 0
        assert value(after, "cardtable_actions_total", by="human") == played


def _until(
    server: ServerProcess, done: Callable[[Samples], bool], seconds: float = 10.0
) -> Samples:
    deadline = time.monotonic() + seconds
    while True:
        samples = scrape(server)
        if done(samples) or time.monotonic() > deadline:
            return samples
        time.sleep(0.05)


@pytest.mark.parametrize("kind", DATABASES)
def test_health_and_ready_answer_on_a_serving_server(kind: str, tmp_path: Path) -> None:
    @contextmanager
    def url() -> Iterator[str]:
        if kind == "sqlite":
            yield f"sqlite:///{tmp_path / 'tables.db'}"
        else:
            with postgres_url() as found:
                yield found

    with url() as database, TestClient(create_app(database, bot_delay=0, workers=1)) as client:
        ready = client.get("/ready")
        assert ready.status_code == 200
        assert ready.json() == {"status": "ready", "tables": 0, "loaded": 0, "database": kind}
        assert client.head("/ready").status_code == 200
        health = client.get("/health")
        assert health.status_code == 200 and health.json()["status"] == "ok"


def test_ready_says_503_while_the_database_is_down_and_health_stays_up() -> None:
    with (
        postgres_url() as database,
        TestClient(create_app(database, bot_delay=0, workers=1)) as client,
    ):
        assert client.get("/ready").status_code == 200
        pg_ctl(database, "stop")
        try:
            ready = client.get("/ready")
            assert ready.status_code == 503
            body = ready.json()
            assert body["status"] == "unready" and body["reason"] == "database"
            assert body["message"].startswith("the database is unreachable: ")
            # Alive all the same: restarting the process would not bring the database back.
            health = client.get("/health")
            assert health.status_code == 200
            assert health.json()["status"] == "ok" and health.json()["tables"] is None
            # No table is opened meanwhile; the refusal is the documented one.
            refused = client.post(
                "/api/tables",
                json={"game": "kryt-navalivat", "seats": [{"kind": "human", "name": "A"}] * 2},
            )
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"] == "unavailable"
        finally:
            pg_ctl(database, "start")
        # The database is back: so is the server, without a restart.
        for _ in range(50):
            if client.get("/ready").status_code == 200:
                break
        assert client.get("/ready").json()["status"] == "ready"


def test_invitation_tokens_never_reach_the_metrics(tmp_path: Path) -> None:
    """The metrics name no table and no seat: nothing of a table leaves through them."""
    with live_server(tmp_path) as server:
        opened = open_live_table(
            server,
            "kryt-navalivat",
            [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}],
        )
        text = httpx.get(f"{server.http}/metrics", timeout=10.0).text
        assert opened["table"] not in text
        for seat in opened["seats"]:
            token = parse_qs(urlsplit(seat["invite"]).fragment)["token"][0]
            assert token not in text
