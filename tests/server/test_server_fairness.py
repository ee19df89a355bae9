"""Fair deals on a live ``cardtable serve`` (docs/fairness.md): players join with their own
seeds, the server is killed and restarted mid-game, and the finished game's record still
verifies, every deal after a seed was given derived from it."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from cardtable.cards import Card
from cardtable.fairness import commitment_of, fair_shuffle, verify_record
from cardtable.server.app import create_app
from cardtable.server.bots import move_seed
from cardtable.server.hub import Hub
from cardtable.server.limits import Limits
from cardtable.server.store import Store
from cardtable.server.table import Change, Table
from live_pieces import LiveSocket, live_server, open_live_table, tokens
from served import ServerProcess
from server_pieces import Frame, Socket, humans, open_table, play_to_end, play_turn, tokens_of

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
    # Every deck verifies; the server's secret decides how many hands the game lasts, and
    # two (the second dealt after seat 2's seed) are what the checks below need.
    assert verified.decks == len(record["decks"]) >= 2
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


# Fair deals beside lazy loading, eviction, the quarantine and the tutorials -----------------


def _lasting(replay: dict[str, Any]) -> dict[str, Any]:
    """A replay without its record's seed: a record whose decks are all listed never reads
    it, and a game replayed from the database is given a fresh one."""
    record = {k: v for k, v in replay["record"].items() if k != "seed"}
    return {**replay, "record": record}


def _stored_commit(store: Store, table: Table, change: Change) -> None:
    """What the hub does with a change: stored first, then installed."""
    store.append(table.id, change.events, change.deals)
    table.commit(change)


def _fair_facts(table: Table) -> dict[str, Any]:
    """Everything of a table's current game that its fair deals fix: the decks' cards, the
    seeds each was derived from, the commitment and seed, the seats' seeds, and a bot's
    randomness at the next few events."""
    return {
        "secret": table.secret,
        "fair": table.fairness(),
        "seeds": table.client_seeds(),
        "chances": [(c.kind, c.hand, c.cards, c.seeds) for c in table.run.chances],
        "bots": [move_seed(table, table.seq + n) for n in range(3)],
    }


def test_a_table_reloaded_from_the_database_deals_exactly_what_it_would_have(
    tmp_path: Path,
) -> None:
    """A table that leaves memory is replayed from its record when it comes back: the seeds
    its seats gave (in an earlier game too), its secret and so its server seeds, and so
    every deck it draws from then on, are those it would have had."""
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}")
    try:
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]
        table, _tokens, change = Table.open("knockout-whist", {}, seats)
        store.create_table(table.creation(change))
        table.commit(change)
        rng = random.Random(11)

        def move(at: Table, action: str | None = None) -> str:
            mover = at.state.to_move
            assert mover is not None
            legal = [str(a) for a in at.state.legal_actions()]
            chosen = action or rng.choice(legal)
            change = at.act(mover, chosen, "human", at.seq)
            if at is table:  # the reloaded twin's changes are the same events: not stored
                _stored_commit(store, at, change)
            else:
                at.commit(change)
            return chosen

        seed = table.seed_change(0, SEEDS[0])
        assert seed is not None
        _stored_commit(store, table, seed)
        while not table.state.is_over:
            move(table)
        _stored_commit(store, table, table.next_game())
        for _ in range(5):
            move(table)
        # Seat 1's seed comes in game 2, between its moves: a seed event among the game's.
        seed = table.seed_change(1, SEEDS[1])
        assert seed is not None
        _stored_commit(store, table, seed)
        stored = store.load(table.id)
        assert stored is not None and stored.secret == table.secret
        again = Table.restore(stored)
        assert _fair_facts(again) == _fair_facts(table)
        # Both play on with the same moves: every deck drawn from here on is the same.
        while not table.state.is_over:
            played = move(table)
            move(again, played)
            assert _fair_facts(again) == _fair_facts(table)
        # A deck was drawn after the reload: game 2's first came before it, and a game lasts
        # at least two hands (KOW-5.1: a first hand's trickless players get the dog's life).
        assert len(table.run.chances) >= 2
        document = again.replay(2)["record"]
        assert document["fair"] == table.replay(2)["record"]["fair"]
        assert verify_record(document).decks == len(document["decks"])
        assert {SEEDS[0], SEEDS[1]} <= {s for d in document["fair"]["decks"] for s in d["seeds"]}
        # And the game over, the archived replay (read from the database) is the same too.
        number = table.games
        stored_game = store.load_game(table.id, number)
        assert stored_game is not None
        assert _lasting(Table.replay_stored(stored_game)) == _lasting(table.replay(number))
    finally:
        store.close()


def test_a_game_dealt_before_construction_2_goes_on_under_construction_1(
    tmp_path: Path,
) -> None:
    """A game whose ``game`` event names no construction was opened by a server from before
    the decks named their dealer: restored, its later decks are derived as its first were
    (construction 1), and its fair block says so by naming none; a new game is of 2."""
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}")
    try:
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]
        table, _tokens, change = Table.open("knockout-whist", {}, seats)
        assert change.events[0]["construction"] == 2
        store.create_table(table.creation(change))
        table.commit(change)
        stored = store.load(table.id)
        assert stored is not None
        del stored.events[0]["construction"]
        again = Table.restore(stored)
        assert again.run.construction == 1 and table.run.construction == 2
        rng = random.Random(5)
        while len(again.run.chances) < 2:
            mover = again.state.to_move
            assert mover is not None
            again.commit(again.act(mover, str(rng.choice(again.state.legal_actions())), "h"))
        run = again.run
        assert run.server_seed is not None
        seeds = run.chances[1].seeds
        assert seeds is not None
        pack = list(range(52))
        derived = fair_shuffle(run.server_seed, again.id, 1, "hand 2", seeds, pack, None)
        assert [Card.parse(c).index for c in run.chances[1].cards] == derived
        while not again.state.is_over:
            mover = again.state.to_move
            assert mover is not None
            again.commit(again.act(mover, str(rng.choice(again.state.legal_actions())), "h"))
        assert "construction" not in again.replay(1)["record"]["fair"]
        again.commit(again.next_game())
        assert again.run.construction == 2 and again.events[0]["construction"] == 2
    finally:
        store.close()


def _join_with(socket: Socket, token: str, seed: str | None, since: int | None = 0) -> Frame:
    message: dict[str, Any] = {"type": "join", "token": token, "since": since}
    if seed is not None:
        message["seed"] = seed
    socket.send(message)
    snapshot = socket.until(lambda f: f["type"] in ("snapshot", "error"))[-1]
    assert snapshot["type"] == "snapshot", snapshot
    socket.seat = snapshot["seat"]
    socket.until(lambda f: f["type"] == "presence")
    return snapshot


@contextmanager
def _seated_with_seeds(
    client: TestClient, opened: dict[str, Any], seeds: dict[int, str]
) -> Iterator[dict[int, Socket]]:
    """A socket for every human seat, each joined with its page's seed."""
    table = opened["table"]
    with ExitStack() as stack:
        sockets: dict[int, Socket] = {}
        for seat, token in tokens_of(opened).items():
            session = stack.enter_context(client.websocket_connect(f"/ws/{table}"))
            sockets[seat] = Socket(session, f"seat {seat}")
            _join_with(sockets[seat], token, seeds[seat])
        for socket in sockets.values():
            socket.barrier()
        yield sockets


def _until_gone(hub: Hub, table: str) -> None:
    deadline = time.monotonic() + 20
    while table in hub.tables:
        assert time.monotonic() < deadline, "the table stayed in memory"
        time.sleep(0.05)


def test_an_evicted_fair_table_comes_back_dealing_the_same_and_its_archive_verifies(
    tmp_path: Path,
) -> None:
    """Seeds given over the websocket are committed by the writer; the table leaves memory
    idle, comes back for the same players with the same seeds (no new seed event), plays
    to the end with decks that verify, and its replay read back from the database once it
    is archived carries the same ``fair`` block."""
    app = create_app(
        f"sqlite:///{tmp_path / 'tables.db'}",
        grace=60,
        bot_delay=0,
        workers=1,
        limits=Limits(evict_after=0.3),
    )
    rng = random.Random(7)
    seeds = {0: "zero-seed", 1: "one_seed", 2: "two-seed"}
    with TestClient(app) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        opened = open_table(client, "knockout-whist", humans(3))
        table = opened["table"]
        with _seated_with_seeds(client, opened, seeds) as sockets:
            for _ in range(30):  # into the second hand
                play_turn(sockets, [], rng)
            before = client.get(f"/api/tables/{table}").json()
        _until_gone(hub, table)
        with _seated_with_seeds(client, opened, seeds) as sockets:
            assert client.get(f"/api/tables/{table}").json()["seq"] == before["seq"]
            play_to_end(sockets, [], rng)
            live = client.get(f"/api/tables/{table}/replay/1").json()
        _until_gone(hub, table)  # archived: finished, and nobody is at it
        archived = client.get(f"/api/tables/{table}/replay/1").json()
        assert table not in hub.tables
    assert _lasting(archived) == _lasting(live)
    verified = verify_record(archived["record"])
    # The table left memory in the second hand, so at least two decks were dealt; a third
    # comes only if nobody took every trick of the second (the server's secret varies).
    assert verified.decks == len(archived["record"]["decks"]) >= 2
    fair = archived["record"]["fair"]
    assert all(d["seeds"] == [seeds[0], seeds[1], seeds[2]] for d in fair["decks"][1:])
    with sqlite3.connect(tmp_path / "tables.db") as db:
        given = db.execute(
            "SELECT count(*) FROM events WHERE table_id = ? AND kind = 'seed'", (table,)
        ).fetchone()
    assert given == (3,)  # the same seeds again after the reload added nothing


def test_a_fair_table_whose_secret_no_longer_matches_is_quarantined_for_good(
    tmp_path: Path,
) -> None:
    """A table whose stored secret is not the one its games committed to could deal no
    deck it promised: it is quarantined when it is loaded, and stays so after a restart."""
    database = tmp_path / "tables.db"

    def serve() -> TestClient:
        return TestClient(create_app(f"sqlite:///{database}", bot_delay=0, workers=1))

    with serve() as client:
        opened = open_table(client, "neuf", humans(3))
        sound = open_table(client, "neuf", humans(3))
    with sqlite3.connect(database) as db:
        db.execute("UPDATE tables SET secret = ? WHERE id = ?", ("ab" * 32, opened["table"]))
    for _ in range(2):
        with serve() as client:
            answer = client.get(f"/api/tables/{opened['table']}")
            assert (answer.status_code, answer.json()["error"]) == (503, "quarantined")
            assert client.get(f"/api/tables/{sound['table']}").status_code == 200
            assert client.get("/health").json()["quarantined"] == 1
    with sqlite3.connect(database) as db:
        (reason,) = db.execute(
            "SELECT quarantined FROM tables WHERE id = ?", (opened["table"],)
        ).fetchone()
    assert "commitment" in reason


def test_a_tutorial_table_takes_no_seed_and_shows_no_fair_deal(tmp_path: Path) -> None:
    """A tutorial's decks are its script's: not derived from seeds, so a seed a page sends
    is checked and nothing is stored or announced, and the snapshot has no ``fair``."""
    database = tmp_path / "tables.db"
    with TestClient(create_app(f"sqlite:///{database}", bot_delay=0, workers=1)) as client:
        opened = client.post("/api/tutorials/knockout-whist", json={}).json()
        token = opened["invite"].split("token=")[1]
        with client.websocket_connect(f"/ws/{opened['table']}") as session:
            socket = Socket(session, "learner")
            socket.send({"type": "join", "token": token, "since": 0, "seed": "bad seed"})
            assert socket.until(lambda f: f["type"] == "error")[-1]["code"] == "malformed"
            snapshot = _join_with(socket, token, "learner-seed")
            assert snapshot["fair"] is None
            assert not [e for e in snapshot["missed"] if e["kind"] == "seed"]
            assert "commitment" not in snapshot["missed"][0]
            assert all("seeds" not in d for d in snapshot["deals"])
            frames = socket.barrier()
            assert not [f for f in frames if f.get("event", {}).get("kind") == "seed"]
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM events").fetchone() == (0,)


def test_a_reshuffles_deal_and_reveal_carry_its_number_in_the_record() -> None:
    """KOW-5.3: the cut cards reshuffled when the remainder runs out. The ``deal`` and
    ``reveal`` events (and the join's ``deals``) number a reshuffle as the game's record
    does, from 0 among its reshuffles (docs/fairness.md, ``reshuffle N``), not among all
    the game's decks and reshuffles."""
    from fair_games import VARIANTS, play_scheduled

    seven = next(
        n for n, (name, o) in enumerate(VARIANTS) if name == "knockout-whist" and o["players"] == 7
    )
    game = play_scheduled(seven, seed=1)
    assert game is not None and game.reshuffles >= 1
    record = game.record
    numbered = [(r["number"], r["hand"]) for r in record["fair"]["reshuffles"]]
    assert [n for n, _ in numbered] == list(range(len(numbered)))
    events = [m["event"] for m in game.pages[0].stream if m["type"] == "event"] + [
        e.get("event", e)
        for m in game.pages[0].stream
        if m["type"] == "snapshot"
        for e in m["missed"]
    ]
    for kind in ("deal", "reveal"):
        shown = sorted(
            (e["reshuffle"], e["hand"]) for e in events if e["kind"] == kind and "reshuffle" in e
        )
        assert shown == numbered, kind
    revealed = {
        e["reshuffle"]: e["deck"] for e in events if e["kind"] == "reveal" and "reshuffle" in e
    }
    assert revealed == {n: record["reshuffles"][n] for n, _ in numbered}
