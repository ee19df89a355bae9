"""The table page proves a game's deals in a real Chromium (docs/fairness.md): it gives its own
seed with its join, checks the revealed server seed against the commitment, derives every deck
with its own implementation of the construction (``web/fair.js``), checks the cards it saw
dealt and turned, and flags any of it that a server (here: a tampering proxy inside the page)
got wrong."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from browser_pieces import (
    EXPECT_MS,
    bots,
    context,
    invite,
    last_seq,
    open_page,
    open_table,
    seated_page,
    served,
    wait_past,
)
from cardtable.fairness import fair_shuffle, verify_record
from server_pieces import locked

expect.set_options(timeout=EXPECT_MS)

# Rewrites what the page's websockets receive with window.__tamper (text in, text out).
TAMPERING = """
(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    set onmessage(fn) { super.onmessage = (e) => fn({ data: window.__tamper(e.data) }); }
    get onmessage() { return super.onmessage; }
  };
  window.__tamper = (text) => {
    const message = JSON.parse(text);
    const events = message.type === "snapshot" ? message.missed
      : message.type === "event" ? [message.event] : [];
    for (const ev of events) (%s)(ev, message);
    return JSON.stringify(message);
  };
})();
"""


SHUFFLES = """async (cases) => {
  const m = await import("/static/fair.js");
  return cases.map(([seed, table, game, label, seeds, cards, dealer]) =>
    m.fairShuffle(seed, table, game, label, seeds, cards, dealer));
}"""


def test_the_pages_construction_is_the_servers_with_and_without_the_dealer(
    web_base: str, chromium: Browser
) -> None:
    """fair.js derives what fairness.py derives, for construction 2 (every first dealer) and
    construction 1 (no dealer), decks and reshuffles: the page proves what the server did."""
    rng = random.Random(12)
    cases: list[list[Any]] = []
    for n in range(24):
        players = rng.randint(2, 7)
        seeds = [
            rng.choice([None, "", "alice-seed", rng.randbytes(6).hex()]) for _ in range(players)
        ]
        cards = rng.sample(range(52), rng.randint(2, 52)) if n % 4 == 3 else list(range(52))
        label = "reshuffle 0" if n % 4 == 3 else f"hand {1 + n % 3}"
        dealer = None if n % 3 == 0 else rng.randrange(players)
        cases.append([rng.randbytes(32).hex(), "Tb_1-x", 1 + n, label, seeds, cards, dealer])
    with context(chromium) as made:
        page = made.new_page()
        page.goto(f"{web_base}/")
        derived = page.evaluate(SHUFFLES, cases)
    assert derived == [fair_shuffle(*case) for case in cases]
    # The dealer matters: the same inputs under another dealer, or none, give other decks.
    assert len({str(d) for d in derived}) == len(derived)


def events_of(base: str, table: str) -> list[dict[str, Any]]:
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    with connect(url, open_timeout=10) as socket:
        socket.send(json.dumps({"type": "join", "token": None, "since": 0}))
        while True:
            message = json.loads(socket.recv(timeout=10))
            if message["type"] == "snapshot":
                events: list[dict[str, Any]] = message["missed"]
                return events


def play_to_the_end(page: Page, rng: random.Random) -> None:
    """Clicks random legal cards (or action buttons) until the game is over."""
    while True:
        page.wait_for_selector("#turn.mine, #results:not([hidden])")
        if page.locator("#results").is_visible():
            return
        seq = last_seq(page)
        legal = page.locator("#hand .card-btn.legal")
        if legal.count():
            legal.nth(rng.randrange(legal.count())).click()
        else:
            buttons = page.locator("#actions button[data-action]")
            buttons.nth(rng.randrange(buttons.count())).click()
        wait_past(page, seq)


def play_a_game(
    web_base: str, chromium: Browser, tamper: str | None, seed: int
) -> tuple[dict[str, Any], Page, Any]:
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    made = context(chromium)
    browser_context = made.__enter__()
    if tamper is not None:
        browser_context.add_init_script(TAMPERING % tamper)
    page = seated_page(browser_context, invite(web_base, opened, 0))
    play_to_the_end(page, random.Random(seed))
    return opened, page, made


@pytest.fixture(scope="module")
def finished(web_base: str, chromium: Browser) -> Iterator[tuple[dict[str, Any], Page]]:
    """A game of Knockout Whist the page played to the end against a bot."""
    opened, page, made = play_a_game(web_base, chromium, None, 5)
    try:
        yield opened, page
    finally:
        made.__exit__(None, None, None)


def test_a_page_that_played_a_game_proves_its_deals(
    web_base: str, finished: tuple[dict[str, Any], Page]
) -> None:
    opened, page = finished
    table = opened["table"]
    fair = page.locator("#fair")
    expect(fair).to_have_attribute("data-state", "ok")
    expect(fair).to_have_attribute("data-game", "1")
    expect(fair.locator("li[data-problem]")).to_have_count(0)
    expect(fair).to_contain_text("Fair deals proven")
    expect(page.locator("#live")).to_contain_text("Game 1: fair deals proven.")
    # The page gave its seed, and every hand dealt after it joined was derived from it.
    seed = page.evaluate(f"localStorage.getItem('cardtable.seed.{table}.0')")
    assert isinstance(seed, str) and len(seed) >= 16
    events = events_of(web_base, table)
    given = [e for e in events if e["kind"] == "seed"]
    assert given == [{"seq": given[0]["seq"], "kind": "seed", "seat": 0, "seed": seed}]
    deals = [e for e in events if e["kind"] == "deal"]
    assert deals[0]["seeds"] == [None, None]  # dealt when the table opened
    assert len(deals) > 1
    for deal in deals[1:]:
        assert deal["seeds"] == [seed, None]
    # The page saw every deal after the first live, and checked the hands it was dealt.
    seen = page.evaluate("document.querySelector('#fair p').textContent")
    assert f"all {len(deals)} decks are the ones derived" in seen
    # The checks are behind one badge, off the play area, which opens them.
    badge = page.locator("#fair-badge")
    expect(badge).to_have_attribute("data-state", "ok")
    expect(badge).to_have_attribute("aria-label", "Fair deals: verified")
    expect(badge.locator(".long")).to_have_text("Fair deals: verified")
    expect(fair).to_be_hidden()
    badge.click()
    expect(fair).to_be_visible()
    page.click("#fair-close")
    expect(fair).to_be_hidden()
    # The record of the game verifies by the command's code as well.
    replay = httpx.get(f"{web_base}/api/tables/{table}/replay/1", timeout=10).json()
    assert verify_record(replay["record"]).decks == len(deals)


def test_a_seat_opened_after_its_game_ended_proves_its_deals(
    web_base: str, chromium: Browser, finished: tuple[dict[str, Any], Page]
) -> None:
    """The seat's link opened in a fresh browser once the game is over (another device, or
    a cleared storage): none of the game's deals came after this page's seed, so none is
    expected to hold it, and the page proves them rather than crying foul."""
    opened, _page = finished
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        expect(page.locator("#results")).to_be_visible()
        fair = page.locator("#fair")
        expect(fair).to_have_attribute("data-state", "ok")
        expect(fair.locator("li[data-problem]")).to_have_count(0)


# What a dishonest server could send, as JS run on each event: (event, message) => void.
TAMPERS = {
    "server seed": (
        "ev => { if (ev.kind === 'over') ev.server_seed = '0'.repeat(64); }",
        "commitment",
    ),
    "commitment": (
        "ev => { if (ev.kind === 'game') ev.commitment = 'f'.repeat(64); }",
        "commitment",
    ),
    "deck": (
        "ev => { if (ev.kind === 'reveal' && ev.hand === 2) "
        "[ev.deck[0], ev.deck[1]] = [ev.deck[1], ev.deck[0]]; }",
        "deck",
    ),
    "client seed": (
        "ev => { if (ev.kind === 'deal' && ev.hand === 2) ev.seeds = ['forged', null]; }",
        "deck",
    ),
}


@pytest.mark.parametrize("kind", sorted(TAMPERS))
def test_a_page_flags_a_tampered_game(
    web_base: str, chromium: Browser, finished: tuple[dict[str, Any], Page], kind: str
) -> None:
    """A page opened on the finished game, its events rewritten on the way in, says the
    deals do not check out and which check failed."""
    opened, _page = finished
    script, problem = TAMPERS[kind]
    with context(chromium) as made:
        made.add_init_script(TAMPERING % script)
        page = seated_page(made, f"{web_base}/t/{opened['table']}")
        fair = page.locator("#fair")
        expect(fair).to_have_attribute("data-state", "bad")
        expect(fair).to_contain_text("NOT what the server committed to")
        expect(page.locator("#fair-badge")).to_have_attribute("data-state", "bad")
        page.click("#fair-badge")
        expect(fair.locator(f"li[data-problem='{problem}']").first).to_be_visible()


def test_a_page_flags_a_turned_card_that_is_not_the_decks(web_base: str, chromium: Browser) -> None:
    """The first hand's turned card, as the page was shown it when it joined, is not the one
    the derived deck turns: the page plays on, and at the end flags that hand alone."""
    swap = (
        "(ev, message) => { if (message.type === 'snapshot' && message.view.turned && "
        "!message.__done) { message.__done = true; const v = message.view; "
        "v.turned = v.turned === '2C' ? '3C' : '2C'; } }"
    )
    _opened, page, made = play_a_game(web_base, chromium, swap, 9)
    try:
        fair = page.locator("#fair")
        expect(fair).to_have_attribute("data-state", "bad")
        expect(fair.locator("li[data-problem]")).to_have_count(1)
        expect(fair.locator("li[data-problem='turned'][data-hand='1']")).to_have_count(1)
    finally:
        made.__exit__(None, None, None)


def test_a_page_whose_seed_cannot_be_stored_yet_joins_once_it_can(
    chromium: Browser, tmp_path: Path
) -> None:
    """A join whose new seed a busy database refuses (``unavailable``) joins nothing; the
    page sends it again until the seed is stored, then plays on with it."""
    with served(tmp_path) as base:
        opened = open_table(base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
        with context(chromium) as made:
            # Held past the server's patience with a commit (5 s, docs/server.md) until the
            # page has been refused, however slowly the browser starts.
            with locked(tmp_path / "table.db", 60.0) as holder:
                page = open_page(made, invite(base, opened, 0))
                expect(page.locator("#banner")).to_have_attribute(
                    "data-code", "unavailable", timeout=50_000
                )
                assert page.get_attribute("#conn", "data-state") != "connected"
                holder.release.set()
            page.wait_for_selector("#conn[data-state='connected']")
            page.wait_for_selector("#seats .seat")
            seed = page.evaluate(
                "Object.entries(localStorage).find(([k]) => k.startsWith('cardtable.seed.'))[1]"
            )
        given = [e for e in events_of(base, opened["table"]) if e["kind"] == "seed"]
    assert [(e["seat"], e["seed"]) for e in given] == [(0, seed)]


# The table page fed a recorded page's messages (tests/fair_games.py) in place of the server's:
# its websocket answers the join with them.
RECORDED = """
(() => {
  const texts = %s;
  window.WebSocket = class {
    static OPEN = 1;
    constructor() {
      this.readyState = 0;
      setTimeout(() => { this.readyState = 1; this.onopen(); });
    }
    send(text) {
      if (JSON.parse(text).type !== "join") return;
      for (const t of texts) setTimeout(() => this.onmessage({ data: t }));
    }
    close() {}
  };
})();
"""


def reshuffled_game() -> Any:
    """A game of seven-player Knockout Whist whose cut cards were reshuffled (KOW-5.3), with
    a spectator's page opened once it was over."""
    from fair_games import play_fair_game

    rng = random.Random(4)
    for _ in range(20):  # about half of them do
        game = play_fair_game("knockout-whist", {"players": 7}, rng, reshuffle=True, late=True)
        if game is not None and game.reshuffles == 1:
            return game
    pytest.fail("no game of 20 reshuffled its cut cards once")


def recorded_page(made: Any, base: str, table: str, texts: list[str]) -> Page:
    made.route(
        f"{base}/t/{table}",
        lambda route: route.fulfill(
            path=Path(__file__).resolve().parents[2] / "src/cardtable/web/table.html"
        ),
    )
    made.add_init_script(RECORDED % json.dumps(texts))
    return seated_page(made, f"{base}/t/{table}")


@pytest.mark.parametrize("stored", ["now", "before"])
def test_the_dialog_counts_decks_and_reshuffles_alike(
    web_base: str, chromium: Browser, stored: str
) -> None:
    """KOW-5.3: a game with six hands and one reshuffle of the cut cards. The summary and the
    proof say the same counts, each thing by its name (never "7 of 7 decks" beside "all 6
    decks"). ``before``: the events were stored when a ``deal`` numbered its reshuffle among
    all the game's decks and reshuffles (docs/server.md), while the join's ``deals`` number it
    as the record does: the page still lists it once, verified."""
    game = reshuffled_game()
    [snapshot] = game.pages[-1].stream
    events = [m.get("event", m) for m in snapshot["missed"]]
    hands = sum(1 for e in events if e["kind"] == "deal" and "reshuffle" not in e)
    assert [e["reshuffle"] for e in events if e["kind"] == "deal" and "reshuffle" in e] == [0]
    if stored == "before":
        for e in events:
            if "reshuffle" in e:
                e["reshuffle"] += e["hand"]
    with context(chromium) as made:
        page = recorded_page(made, web_base, game.table, [json.dumps(snapshot)])
        page.click("#fair-badge")
        expect(page.locator("#fair")).to_have_attribute("data-state", "ok")
        expect(page.locator("#verify li")).to_have_count(hands + 1)
        expect(page.locator("#verify li.ok")).to_have_count(hands + 1)
        # Each line says what it verified: the hands' decks, and the reshuffle as one.
        said = page.locator("#verify li strong").all_inner_texts()
        assert sorted(said) == sorted(["deck verified"] * hands + ["reshuffle verified"]), said
        expect(page.locator("#verify .verify-summary")).to_have_text(
            f"{hands} decks and 1 reshuffle verified."
        )
        proof = page.locator("#fair p").inner_text()
        assert f"all {hands} decks are the ones derived" in proof, proof
        assert proof.endswith(
            " The game's 1 reshuffle of cut cards is derived from the same seeds too."
        ), proof
