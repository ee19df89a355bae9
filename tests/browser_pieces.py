"""What the real-browser tests share: `cardtable serve` in a subprocess on a free port with a
fresh SQLite file, one headless Chromium driven by Playwright, tables opened over HTTP, a seat
played from Python over the websocket, and reading the table page's DOM.

The browser is Debian's Chromium headless shell (the package ``chromium-headless-shell``):
Chromium's own engine without the desktop browser around it, as Playwright itself runs
headless tests, for about 70% of the full browser's CPU. Playwright downloads nothing.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from websockets.sync.client import ClientConnection, connect

from served import ServerProcess

CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WEB = Path(__file__).resolve().parent.parent / "src" / "cardtable" / "web"
STARTUP_SECONDS = 30.0
# Playwright's expectations wait this long (ms) before failing; a bot's move or a reconnect
# takes well under a second, the slack is for a busy two-core machine.
EXPECT_MS = 10_000


@contextmanager
def served(folder: Path, grace: float = 60.0) -> Iterator[str]:
    """A running server; yields its base URL and stops it afterwards. ``grace``: how long an
    absent person's seat waits before a stand-in plays for it."""
    server = ServerProcess(folder / "table.db", folder / "server.log", grace=grace)
    server.start()
    try:
        yield server.http
    finally:
        server.stop()


@contextmanager
def launched() -> Iterator[Browser]:
    """One headless Chromium, closed afterwards."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


# A page's websockets, kept where a test can reach them: the table page holds its socket in
# module scope (table_state.js), and closing it from outside is how a dropped connection is made.
KEEP_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
})();
"""


def watch_errors(page: Page, errors: list[str]) -> None:
    """Collects in `errors` what `page` throws uncaught and every error its console logs
    (scripts, refused Content-Security-Policy, failed loads)."""
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    page.on(
        "console",
        lambda message: (
            errors.append(f"{page.url}: {message.text}") if message.type == "error" else None
        ),
    )


@contextmanager
def context(
    browser: Browser,
    *,
    lang: str = "en",
    width: int = 1280,
    height: int = 800,
    sockets: bool = False,
    allowed: tuple[str, ...] = (),
    motion: bool = False,
) -> Iterator[BrowserContext]:
    """A fresh browser profile in `lang`, animations off (they only pace the test) unless
    `motion` (the system's prefers-reduced-motion is then "no-preference").

    No page opened in it may throw or log an error: the profile fails the test when it
    closes if one did, unless the error holds one of the `allowed` texts (a page the test
    expects to fail loading)."""
    made = browser.new_context(
        viewport={"width": width, "height": height},
        locale=lang,
        reduced_motion="no-preference" if motion else "reduce",
    )
    made.set_default_timeout(EXPECT_MS)
    # Pages of the server only: about:blank, where a tab starts, has no storage.
    made.add_init_script(
        "if (location.protocol.startsWith('http')) "
        f"localStorage.setItem('cardtable.lang', {json.dumps(lang)});"
    )
    if sockets:
        made.add_init_script(KEEP_SOCKETS)
    errors: list[str] = []
    made.on("page", lambda page: watch_errors(page, errors))
    try:
        yield made
    except BaseException:
        made.close()
        raise
    made.close()
    unexpected = [e for e in errors if not any(text in e for text in allowed)]
    assert unexpected == [], unexpected


def open_page(made: BrowserContext, url: str, errors: list[str] | None = None) -> Page:
    """The page at `url`, its uncaught errors and whatever its Content-Security-Policy
    refused collected in `errors`."""
    page = made.new_page()
    if errors is not None:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on(
            "console",
            lambda message: (
                errors.append(message.text)
                if message.type == "error" and "Content Security Policy" in message.text
                else None
            ),
        )
    page.goto(url)
    return page


def seated_page(made: BrowserContext, url: str, errors: list[str] | None = None) -> Page:
    """A table page that has joined: its snapshot is drawn."""
    page = open_page(made, url, errors)
    page.wait_for_selector("#conn[data-state='connected']")
    page.wait_for_selector("#seats .seat")
    return page


# ---------------------------------------------------------------- tables over HTTP


def open_table(
    base: str, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    answer = httpx.post(
        f"{base}/api/tables",
        json={"game": game, "options": options or {}, "seats": seats},
        timeout=10.0,
    )
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def invite(base: str, opened: dict[str, Any], seat: int) -> str:
    link: str = opened["seats"][seat]["invite"]
    return f"{base}{link}"


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).fragment)["token"][0]


def bots(count: int, level: str = "easy") -> list[dict[str, Any]]:
    return [{"kind": "bot", "level": level} for _ in range(count)]


# ---------------------------------------------------------------- a seat played from Python


# The least time between a test seat's messages: under the server's 20 a second.
MESSAGE_GAP = 0.06


class Seat:
    """One seat over the websocket, the protocol of docs/server.md, without a browser. It acts
    only at the end of a change (an action that ends a hand brings its reveal and the next
    deal with it), on the change's last event number."""

    def __init__(self, base: str, table: str, token: str) -> None:
        url = base.replace("http://", "ws://") + f"/ws/{table}"
        self.opened = ExitStack()
        self.socket: ClientConnection = self.opened.enter_context(connect(url, open_timeout=10))
        self.socket.send(json.dumps({"type": "join", "token": token, "since": None}))
        self.sent = time.monotonic()
        snapshot = self.read("snapshot")
        self.seat: int = snapshot["seat"]
        self.seq: int = snapshot["seq"]
        self.view: dict[str, Any] = snapshot["view"]
        self.whole = True

    def read(self, kind: str | None = None) -> dict[str, Any]:
        """The next message (of `kind`), updating the seat's view and last event number."""
        while True:
            message: dict[str, Any] = json.loads(self.socket.recv(timeout=10))
            assert message["type"] != "error", message
            if message["type"] == "event":
                self.seq = message["seq"]
                self.view = message["view"]
                # Every event of a change carries the table as it is after the whole change.
                self.whole = message["seq"] == message["table"]["seq"]
            if kind is None or message["type"] == kind:
                return message

    def over(self) -> bool:
        return self.view.get("phase") == "over" or self.view.get("mode") == "over"

    def my_turn(self) -> bool:
        return self.view.get("to_move") == self.seat and not self.over()

    def settle_on(self, seats: set[int]) -> None:
        """Reads to the end of a change where one of `seats` is to move, or the game is over."""
        while not (self.whole and (self.view.get("to_move") in seats or self.over())):
            self.read("event")

    def settle(self) -> None:
        self.settle_on({self.seat})

    def act(self, action: str) -> None:
        """Plays `action` and reads to the end of the change it makes, no faster than the
        server's flood limit allows (20 messages a second, docs/server.md): on a fast
        machine a seat playing against instant bots would otherwise be refused."""
        assert action in self.view["legal_actions"], (action, self.view["legal_actions"])
        time.sleep(max(0.0, self.sent + MESSAGE_GAP - time.monotonic()))
        self.socket.send(json.dumps({"type": "action", "action": action, "seq": self.seq}))
        self.sent = time.monotonic()
        self.action_of(self.seat)

    def action_of(self, seat: int) -> dict[str, Any]:
        """Reads up to `seat`'s next action and to the end of its change; the action event."""
        while True:
            event: dict[str, Any] = self.read("event")["event"]
            if event.get("kind") == "action" and event["seat"] == seat:
                break
        while not self.whole:
            self.read("event")
        return event

    def choose(self, rng: random.Random) -> str:
        """A random legal action; picking up (Kryt'-navalivat') only when nothing else is
        legal, or a hand runs long."""
        legal: list[str] = self.view["legal_actions"]
        return rng.choice([a for a in legal if a != "take"] or legal)

    def play_until(self, stop: int, rng: random.Random) -> list[str]:
        """Plays random legal actions until seat `stop` is to move (or the game is over);
        returns them."""
        done = []
        self.settle_on({self.seat, stop})
        while self.my_turn():
            done.append(self.choose(rng))
            self.act(done[-1])
            self.settle_on({self.seat, stop})
        return done

    def play_to_end(self, rng: random.Random) -> None:
        self.settle()
        while not self.over():
            self.act(self.choose(rng))
            self.settle()

    def close(self) -> None:
        self.opened.close()


# ---------------------------------------------------------------- reading the page


def english() -> dict[str, Any]:
    strings: dict[str, Any] = json.loads((WEB / "locales" / "en.json").read_text())
    return strings


def card_words(card: str) -> str:
    """A card's English name as the page says it ("the seven of diamonds")."""
    words = english()
    rank, suit = card[:-1], card[-1]
    template: str = words["card_name"]
    return template.replace("{rank}", words["ranks"][rank]).replace(
        "{suit}", words["suits_of"][suit]
    )


def hand_of(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "#hand .card-btn", "els => els.map(e => e.dataset.card)"
    )
    return cards


def last_seq(page: Page) -> int:
    seq: int = page.evaluate(
        "Math.max(0, ...[...document.querySelectorAll('#log li[data-seq]')]"
        ".map(li => Number(li.dataset.seq)))"
    )
    return seq


def wait_past(page: Page, seq: int) -> None:
    """Waits until the page has logged an event after `seq`."""
    page.wait_for_function(
        "seq => [...document.querySelectorAll('#log li[data-seq]')]"
        ".some(li => Number(li.dataset.seq) > seq)",
        arg=seq,
    )


def to_move(page: Page) -> int | None:
    value = page.get_attribute("#turn", "data-to-move")
    return int(value) if value not in (None, "") else None


Box = dict[str, float]

# The boxes of the table's key elements, in page coordinates, by group.
BOXES = """
() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    const name = el.id || el.dataset.card || el.dataset.seat || el.dataset.action || el.className;
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height, name };
  };
  const visible = (el) => el.getClientRects().length > 0 && !el.closest('[hidden]');
  const all = (sel) => [...document.querySelectorAll(sel)].filter(visible).map(box);
  return {
    cards: all('#hand .card-btn'),
    hand: all('#hand'),
    seats: all('#seats .seat'),
    center: all('#center'),
    middle: all('#center .card, #center .knock-chip, #center .pile-label, ' +
                '#center .would-take-label, #center .stock, #center .more, #center .empty, ' +
                '#center .spare-label'),
    actions: all('#actions button'),
    turn: all('#turn'),
    info: all('#info'),
    brand: all('header.top .brand'),
    tools: all('header.top .tools'),
    innerWidth: innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    dir: document.documentElement.dir,
  };
}
"""


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


# The table page's chrome on a phone: the header's height, and each seat's name (whether it
# sits on one line, whether it is cut short) and its fan of backs against its count.
CHROME = """
() => {
  const header = document.querySelector('header.top').getBoundingClientRect();
  const seats = [...document.querySelectorAll('#seats .seat')].map((seat) => {
    const name = seat.querySelector('.seat-name .n');
    const size = parseFloat(getComputedStyle(name).fontSize);
    const count = seat.querySelector('.seat-count');
    return {
      seat: seat.dataset.seat,
      name: name.textContent,
      lines: name.getBoundingClientRect().height / (1.15 * size),
      cut: name.scrollWidth > name.clientWidth + 1,
      me: seat.classList.contains('me'),
      count: count ? count.getAttribute('aria-label') : null,
      backs: [...seat.querySelectorAll('.seat-backs .mini-back')]
        .filter((b) => b.getClientRects().length > 0 && b.getBoundingClientRect().width > 0).length,
    };
  });
  return { header: header.height, seats };
}
"""


def chrome_problems(found: dict[str, Any]) -> list[str]:
    """What is wrong with a phone's header and seat boxes (`found` is CHROME's answer): a
    header of more than one row (56 pixels), a name on two lines or cut short, a seat of the
    others' without its fan of backs, one for each card it holds (13 at most)."""
    problems = []
    if found["header"] > 56:
        problems.append(f"the header is {found['header']:.0f} pixels high")
    for seat in found["seats"]:
        if seat["lines"] > 1.5:
            problems.append(f"seat {seat['seat']}'s name {seat['name']!r} is on two lines")
        if seat["cut"]:
            problems.append(f"seat {seat['seat']}'s name {seat['name']!r} is cut short")
        # The count as the seat's box names it, in the page's digits ("۷ کارت دارد").
        number = re.search(r"\d+", seat["count"] or "")
        held = int(number.group()) if number else 0
        if not seat["me"] and held and seat["backs"] != min(held, 13):
            problems.append(f"seat {seat['seat']} shows {seat['backs']} backs for {held} cards")
    return problems
