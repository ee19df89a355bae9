"""The tutorial scripts (cardtable.tutorial) and the server's tutorial tables.

Each script is checked against the rules engine: every scripted move is legal for the seat
to move at that point, every lesson's rule really matters at its step (the predicates
below, citing SPEC), every locale has every key, and the server refuses a move that is not
the lesson's while the rules engine refuses an illegal one.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.core import State
from cardtable.server.app import create_app
from cardtable.server.table import TableError
from cardtable.server.tutorial import TutorialTable, other_move
from cardtable.tutorial import Tutorial, tutorial_of

WEB = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "web"
LOCALES = WEB / "locales"
GAMES = ["knockout-whist", "neuf", "kryt-navalivat"]


def lookup(data: dict[str, Any], key: str) -> Any:
    for part in key.split("."):
        data = data[part]
    return data


# What each topic means at its step, read off the learner's view before the move.
def _led_suit(v: dict[str, Any]) -> str | None:
    return v["trick"][0][1][-1] if v["trick"] else None


def _last_trick_trumped(v: dict[str, Any]) -> bool:
    last = v["tricks"][-1]["plays"]
    winner_card = dict(last)[v["tricks"][-1]["winner"]]
    return bool(winner_card[-1] == v["trump"] and last[0][1][-1] != v["trump"])


PREDICATES: dict[str, Callable[[dict[str, Any], str], bool]] = {
    # KOW-4.1, NEUF-4.1: the learner leads to an empty trick.
    "lead": lambda v, a: not v["trick"],
    # KOW-4.2: the learner holds the led suit and must play it.
    "follow_suit": lambda v, a: (
        all(x.split()[1][-1] == _led_suit(v) for x in v["legal_actions"])
        and any(c[-1] != _led_suit(v) for c in v["hand"])
    ),
    # KOW-4.3, NEUF-4.3: the last trick went to a trump over a card of another suit led.
    "trumps": lambda v, a: bool(v["tricks"]) and _last_trick_trumped(v),
    # KOW-4.2: no card of the led suit: every card may be played.
    "discard": lambda v, a: (
        all(c[-1] != _led_suit(v) for c in v["hand"]) and len(v["legal_actions"]) == len(v["hand"])
    ),
    # KOW-5.1, KOW-6.3: the learner is on a dog's life and may knock.
    "knock": lambda v, a: a == "knock" and v["statuses"][v["seat"]] == "dog",
    # KOW-6.5: the dog plays its card and wins with a trump.
    "dogs_life": lambda v, a: (
        v["statuses"][v["seat"]] == "dog" and a.endswith(v["trump"]) and _led_suit(v) != v["trump"]
    ),
    # NEUF-3.2: the exchange decision.
    "exchange": lambda v, a: a == "exchange" and v["phase"] == "exchange",
    # NEUF-3.3, NEUF-9: the learner exchanged, and knows both hands held this deal.
    "spare": lambda v, a: v["phase"] == "play" and len(v["held"]) == 2,
    # NEUF-5.2: the quota of 4 tricks is made.
    "quota": lambda v, a: v["tricks_won"][v["seat"]] == v["quota"],
    # KRYT-6: the six of trumps swapped while the turned card is in the stock.
    "swap_six": lambda v, a: a == "swap" and "6" + v["trump"] in v["hand"],
    # KRYT-3.1: a beat by a trump of a card that is not one, or a higher card of its suit.
    "beat": lambda v, a: a.startswith("beat ") and v["phase"] == "respond",
    # KRYT-4.2: the cover after a beat.
    "cover": lambda v, a: a.startswith("cover ") and v["phase"] == "cover",
    # KRYT-5: a pick-up of one card (a non-trump on top).
    "pick_up_one": lambda v, a: (
        a == "take" and v["pile"][-1][-1] != v["trump"] and len(v["would_take"]) == 1
    ),
    # KRYT-5: three cards (a trump but the ace on top, a pile of more than three).
    "pick_up_three": lambda v, a: (
        a == "take"
        and v["pile"][-1][-1] == v["trump"]
        and len(v["would_take"]) == 3
        and len(v["pile"]) > 3
    ),
    # KRYT-5: the ace of trumps on top: the whole pile.
    "pick_up_all": lambda v, a: (
        a == "take" and v["pile"][-1] == "A" + v["trump"] and v["would_take"] == v["pile"]
    ),
    # KRYT-7.3: the last card covered, stock empty.
    "draw": lambda v, a: v["stock"] == 0 and len(v["hand"]) == 1 and a.startswith("cover "),
}


def walk(tutorial: Tutorial) -> Iterator[tuple[int, State]]:
    state = tutorial.new_state()
    for index, step in enumerate(tutorial.steps):
        yield index, state
        state.apply(step.action, seat=step.seat)


@pytest.mark.parametrize("game", GAMES)
def test_every_scripted_move_is_legal_for_the_seat_to_move(game: str) -> None:
    tutorial = tutorial_of(game)
    for index, state in walk(tutorial):
        step = tutorial.steps[index]
        assert state.to_move == step.seat, (game, index)
        assert step.action in [str(a) for a in state.legal_actions()], (game, index)


@pytest.mark.parametrize("game", GAMES)
def test_every_topic_is_taught_where_it_matters(game: str) -> None:
    tutorial = tutorial_of(game)
    taught: set[str] = set()
    for index, state in walk(tutorial):
        step = tutorial.steps[index]
        if step.lesson is None:
            continue
        assert step.seat == tutorial.learner
        assert step.rules, f"{game} step {index} cites no SPEC rule"
        view = state.view(step.seat)
        for topic in step.topics:
            assert PREDICATES[topic](view, step.action), (game, index, topic)
            taught.add(topic)
    assert taught == set(tutorial.topics)


def test_the_course_covers_the_rules_asked_for() -> None:
    assert {"follow_suit", "trumps", "dogs_life", "knock"} <= set(
        tutorial_of("knockout-whist").topics
    )
    assert {"exchange", "spare", "quota"} <= set(tutorial_of("neuf").topics)
    assert {
        "beat", "cover", "pick_up_one", "pick_up_three", "pick_up_all", "swap_six", "draw"
    } <= set(tutorial_of("kryt-navalivat").topics)  # fmt: skip


def test_kryt_navalivat_tutorial_ends_in_a_draw_and_kow_learner_is_back() -> None:
    # KRYT-7.3: the learner's last card covered and beaten by the bot's only card.
    kryt_navalivat = tutorial_of("kryt-navalivat").state_at(
        len(tutorial_of("kryt-navalivat").steps)
    )
    assert kryt_navalivat.is_over and kryt_navalivat.view(None)["draw"] is True
    # KOW-6.5: the dog who won a trick is active in hand 3.
    kow = tutorial_of("knockout-whist")
    assert kow.state_at(len(kow.steps)).view(0)["statuses"] == ["active", "active"]
    # NEUF-5.2: 11 tricks, 7 over the quota: 9 - 7 = 2.
    neuf = tutorial_of("neuf")
    assert neuf.state_at(len(neuf.steps)).view(0)["scores"][0] == 2


def test_kryt_navalivat_learner_beats_with_the_card_it_needs_least() -> None:
    """KRYT-3.1 (what beats what) and the lesson's own advice
    (``tutorial.kryt.tips.trumps``): beat a plain card with a higher card of its suit rather
    than a trump, and with the lowest card that beats, keeping the higher ones. (Whether to
    beat at all, and what to cover with, the hints' analysis judges:
    tests/web/test_tutorial_advice.py.)"""
    tutorial = tutorial_of("kryt-navalivat")
    ranks = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    beats = 0
    for index, state in walk(tutorial):
        step = tutorial.steps[index]
        if step.seat != tutorial.learner or not step.action.startswith("beat "):
            continue
        view = state.view(step.seat)
        beaters = [a.split()[1] for a in view["legal_actions"] if a.startswith("beat ")]
        cheapest = min(beaters, key=lambda c: (c[-1] == view["trump"], ranks.index(c[:-1])))
        assert step.action == f"beat {cheapest}", (index, step.action, beaters)
        beats += 1
    assert beats >= 10


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "fa"])
def test_every_lesson_key_is_in_every_locale(lang: str) -> None:
    strings = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    for game in GAMES:
        tutorial = tutorial_of(game)
        keys = {tutorial.intro, tutorial.done, *tutorial.tips}
        for step in tutorial.steps:
            keys |= {k for k in (step.lesson, step.why) if k}
        for key in keys:
            assert isinstance(lookup(strings, key), str), (lang, key)
    for verb in ("play", "lead", "beat", "cover", "knock", "exchange", "keep", "take", "swap"):
        assert isinstance(lookup(strings, f"tutorial.verb.{verb}"), str), (lang, verb)


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "fa"])
@pytest.mark.parametrize("game", GAMES)
def test_no_step_is_a_bare_instruction(lang: str, game: str) -> None:
    """Every learner step says why its move is the one to make (the rule it shows, or what
    makes it good): a text of its own in every language, not the instruction again."""
    strings = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    tutorial = tutorial_of(game)
    move = re.compile(r"\{\w+(?::\w+)?\}")
    instructions = {
        move.sub("", text).strip(" .:").casefold()
        for text in (lookup(strings, "tutorial.your_move"), *strings["tutorial"]["verb"].values())
    }
    for index, step in enumerate(tutorial.steps):
        if step.seat != tutorial.learner:
            assert step.why is None and step.lesson is None, (game, index)
            continue
        assert step.why is not None, f"{game} step {index} ({step.action}) says no why"
        why = lookup(strings, step.why)
        assert isinstance(why, str) and len(why.split()) >= 5, (lang, step.why, why)
        assert why.strip(" .:").casefold() not in instructions, (lang, step.why)
        if step.lesson:
            assert why != lookup(strings, step.lesson), (lang, step.why)


@pytest.mark.parametrize("game", GAMES)
def test_each_lesson_ends_with_ideas_of_good_play(game: str) -> None:
    tutorial = tutorial_of(game)
    assert 3 <= len(tutorial.tips) <= 4
    assert tutorial.describe()["tips"] == list(tutorial.tips)
    english = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))
    short = {"knockout-whist": "kow", "neuf": "neuf", "kryt-navalivat": "kryt"}[game]
    # The locale holds no idea the lesson does not show, and no step's reason unused.
    assert {f"tutorial.{short}.tips.{k}" for k in english["tutorial"][short]["tips"]} == set(
        tutorial.tips
    )
    used = {s.why for s in tutorial.steps if s.why}
    assert {f"tutorial.{short}.why.{k}" for k in english["tutorial"][short]["why"]} == used


def element_ids(page: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', (WEB / page).read_text(encoding="utf-8")))


def test_the_tutorial_page_has_every_element_of_the_table_page() -> None:
    # tutorial.html runs table.js (and the table_*.js modules it imports), which reach the
    # table page's elements by id and stop drawing (no "rendered" event, so no lesson mark) at
    # the first one that is missing.
    missing = element_ids("table.html") - element_ids("tutorial.html")
    assert missing == set()
    scripts = sorted(WEB.glob("table*.js"))
    assert WEB / "table_hand.js" in scripts
    source = "".join(path.read_text(encoding="utf-8") for path in scripts)
    used = set(re.findall(r'\$\("([\w-]+)"\)', source))
    assert "hand-key" in used
    assert used - element_ids("table.html") == set()


def test_state_at_refuses_a_step_outside_the_script() -> None:
    tutorial = tutorial_of("neuf")
    with pytest.raises(ValueError, match="0 to 42"):
        tutorial.state_at(43)


# The server ---------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", bot_delay=0, executor=ThreadPoolExecutor(1))
    with TestClient(app) as made:
        yield made


def join(client: TestClient, opened: dict[str, Any]) -> Any:
    return client.websocket_connect(f"/ws/{opened['table']}")


def until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def test_a_wrong_move_is_refused_with_its_lesson_and_nothing_changes(client: TestClient) -> None:
    opened = client.post("/api/tutorials/knockout-whist", json={}).json()
    token = opened["invite"].split("token=")[1]
    with join(client, opened) as ws:
        ws.send_json({"type": "join", "token": token, "since": 0})
        snapshot = until(ws, "snapshot")
        lesson = until(ws, "lesson")
        assert lesson["expect"] == "play AS" and lesson["why"] == "tutorial.kow.why.lead_ace"
        assert lesson["tips"] == list(tutorial_of("knockout-whist").tips)
        assert "AS" in snapshot["view"]["hand"]
        seq = snapshot["seq"]
        ws.send_json({"type": "action", "action": "play 6S", "seq": seq})
        # A code with what the page needs to say it in its reader's words: the card the
        # lesson asks for and the card played.
        refused = until(ws, "error")
        assert refused["code"] == "not_the_lesson" and refused["reason"] == "lesson_card"
        assert refused["details"] == {"card": "AS", "chosen": "6S"}
        ws.send_json({"type": "action", "action": "play KD", "seq": seq})  # not in the hand
        assert until(ws, "error")["code"] == "illegal"
        assert client.get(f"/api/tables/{opened['table']}").json()["seq"] == seq
        ws.send_json({"type": "action", "action": "play AS", "seq": seq})
        # The bot answers with the script's move, and the lesson moves on to the next one.
        assert until(ws, "event")["event"]["action"] == "play AS"
        while (lesson := until(ws, "lesson"))["expect"] is None:
            pass
        assert lesson["step"] == 3 and lesson["expect"] == "play 4H"
    described = client.get(f"/api/tables/{opened['table']}").json()
    actions = [e for e in described.get("events", [])]
    assert actions == []  # the public description holds no script and no card
    assert described["tutorial"] == {"game": "knockout-whist", "step": 3}


def test_a_spectator_gets_no_lesson(client: TestClient) -> None:
    opened = client.post("/api/tutorials/neuf", json={"step": 3}).json()
    with join(client, opened) as ws:
        ws.send_json({"type": "join", "token": None, "since": 0})
        snapshot = until(ws, "snapshot")
        assert "hand" not in snapshot["view"]
        ws.send_json({"type": "ping"})
        seen = []
        while (message := ws.receive_json())["type"] != "pong":
            seen.append(message["type"])
        assert "lesson" not in seen


def test_a_tutorial_opens_at_a_stored_step_and_is_not_stored(
    client: TestClient, tmp_path: Path
) -> None:
    opened = client.post("/api/tutorials/neuf", json={"step": 15}).json()
    assert opened["step"] == 15 and opened["tutorial"]["steps"] == 42
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("select count(*) from tables").fetchone() == (0,)
    listed = client.get("/api/tutorials").json()
    assert [t["game"] for t in listed] == cardtable.games()


@pytest.mark.parametrize(
    ("game", "body", "status", "code"),
    [
        ("neuf", {"step": 43}, 400, "bad_step"),
        ("neuf", {"step": -1}, 400, "bad_step"),
        ("neuf", {"step": "3"}, 400, "bad_step"),
        ("neuf", [], 400, "malformed"),
        ("chess", {}, 404, "unknown_game"),
    ],
)
def test_bad_tutorial_requests(
    client: TestClient, game: str, body: Any, status: int, code: str
) -> None:
    before = client.get("/health").json()["tables"]
    answer = client.post(f"/api/tutorials/{game}", json=body)
    assert answer.status_code == status and answer.json()["error"] == code
    assert client.get("/health").json()["tables"] == before


def test_a_refusal_names_the_card_or_the_move_the_lesson_wants() -> None:
    assert other_move("play 4H", "play 9H") == {
        "reason": "lesson_card",
        "details": {"card": "4H", "chosen": "9H"},
    }
    assert other_move("beat 8H", "take") == {
        "reason": "lesson_move",
        "details": {"asked": "beat 8H", "played": "take"},
    }
    assert other_move("knock", "play 2C")["reason"] == "lesson_move"
    table, _ = TutorialTable.begin(tutorial_of("neuf"))
    with pytest.raises(TableError) as refused:
        table.act(0, "keep", "human")
    message = refused.value.as_message()
    assert message["code"] == "not_the_lesson" and message["reason"] == "lesson_move"
    assert message["details"] == {"asked": "exchange", "played": "keep"}


def deals_and_reveals(events: list[dict[str, Any]]) -> tuple[list[int], list[int]]:
    return (
        [e["hand"] for e in events if e["kind"] == "deal"],
        [e["hand"] for e in events if e["kind"] == "reveal"],
    )


def test_each_deck_of_the_script_is_dealt_with_its_hand_and_revealed_after_it() -> None:
    """A deck's deal is published when its hand is dealt, not all at the start (the log's
    "Hand 2 dealt" at the first move), and revealed when its hand is over, so that no deck
    of a finished hand stays "awaiting reveal"."""
    tutorial = tutorial_of("knockout-whist")
    table, _ = TutorialTable.begin(tutorial, 1)
    assert deals_and_reveals(table.events) == ([1], [])
    # Hand 1 ends with the learner's last card (step 13): hand 2 is dealt, hand 1 shown.
    last_of_hand_1 = 13
    table, _ = TutorialTable.begin(tutorial, last_of_hand_1)
    assert deals_and_reveals(table.events) == ([1], [])
    table.commit(table.act(0, tutorial.steps[last_of_hand_1].action, "human"))
    assert deals_and_reveals(table.events) == ([1, 2], [1])
    assert table.state.view(0)["hand"] == ["2C"]  # the script's hand 2, as stacked
    # The script's last move ends hand 2: hand 3, shuffled, is dealt and hand 2 shown.
    table, _ = TutorialTable.begin(tutorial, len(tutorial.steps))
    assert deals_and_reveals(table.events) == ([1, 2, 3], [1, 2])
    revealed = {e["commitment"]: e["deck"] for e in table.events if e["kind"] == "reveal"}
    dealt = [e["commitment"] for e in table.events if e["kind"] == "deal"][:2]
    assert [revealed[c] for c in dealt] == [list(d) for d in tutorial.decks]
    # Neuf's one deal is revealed when the next is dealt, after the script's last move;
    # Kryt'-navalivat''s when its only hand ends with the script.
    for game in ("neuf", "kryt-navalivat"):
        script = tutorial_of(game)
        table, _ = TutorialTable.begin(script, len(script.steps))
        assert deals_and_reveals(table.events)[1] == [1], game
