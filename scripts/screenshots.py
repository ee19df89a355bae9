"""Regenerate docs/screenshots/: the web table as people see it, at 1280x800 and 375x667, in
English and in Persian (right to left), its hints and reviews also in French and Russian.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--only table-neuf]

It starts ``cardtable serve`` on a fresh SQLite file in a temporary folder, plays each game
from Python (one person against bots) to a position in the middle of a hand and to its end,
and photographs, in headless Chromium: the lobby (``lobby``), its open tables
(``open-tables``: a table with a seat left to anyone and a quick match waiting for
people), a player's page (``player``: a player's ratings and finished games) and a game's
leaderboard (``leaderboard``: players rated from games against bots, beside the bots'
levels), each game's table mid-game at the person's turn (``table-<game>``), a turn in the
middle of a hand with a choice of three moves or more, the "Hint" button pressed and the
hint shown (``hint-<game>``: its sentence and the best move's value in the panel beside the
table, under the controls on a phone,
scrolled into view; each legal card's or button's badge: the best's value, "≈ best" for a
move as good, the others' gap to it), the moment a hand ends, the page having played its
last card (``hand-end-<game>``, in Knockout Whist and Neuf: a game of Kryt'-navalivat' is
one hand, whose end is its results), its "Learn to play" tutorial (``tutorial-<game>``),
its results once the game is over (``results-<game>``, scrolled down to them) and the
person's "Review my game" beside the replay (``review-<game>``: every decision judged at the
``expert`` level, said and charted in the game's unit). The hints and the reviews, the
pages that say the most in words and numbers, are photographed in each of the page's four
languages (``en``, ``fa``, ``fr``, ``ru``); the other pages in English and Persian. Files
are named ``<page>-<game>-<lang>-<w>x<h>.png`` (the lobby's ``lobby-<lang>-<w>x<h>.png``)
and are exactly the window's size.

Each picture of a hint asks the server for it anew: its values may differ by a tenth from
one language's picture to another's, and a move near the best may read "≈ best" in one and
a small gap in another.

The browser tests share this module: their layout test photographs the same positions with
the same code (tests/web/test_web_browser.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The browser tests' pieces: the server in a subprocess, Chromium, a seat played from Python.
sys.path.insert(0, str(ROOT / "tests"))

import httpx  # noqa: E402
from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_pieces import (  # noqa: E402
    Seat,
    bots,
    context,
    invite,
    launched,
    open_table,
    served,
    token_of,
)

__all__ = [
    "EVERY_LANG",
    "GAMES",
    "LANGS",
    "PAGES",
    "SIZES",
    "SPOKEN",
    "Shot",
    "finished",
    "hinted",
    "mid_game",
    "photograph",
    "shots",
    "take",
]

OUT = ROOT / "docs" / "screenshots"
SIZES: tuple[tuple[int, int], ...] = ((1280, 800), (375, 667))
LANGS: tuple[str, ...] = ("en", "fa")
# Every language the page speaks, and the pages photographed in each of them: the hint's and
# the review's sentences and numbers say the most in words.
EVERY_LANG: tuple[str, ...] = ("en", "fa", "fr", "ru")
SPOKEN = ("hint", "review")
PAGES: tuple[str, ...] = (
    "lobby",
    "open-tables",
    "player",
    "leaderboard",
    "table",
    "hint",
    "hand-end",
    "tutorial",
    "results",
    "review",
)
# The games whose review is photographed: it takes a search of every decision, minutes for
# a long Kryt'-navalivat' game.
REVIEWED = ("knockout-whist", "neuf", "kryt-navalivat")
# The lobby is one page for every game. The end of a hand is photographed in the games of
# several hands; Kryt'-navalivat's game is one hand, whose end is its results.
LOBBY = "knockout-whist"
LOBBY_PAGES = ("lobby", "open-tables", "player", "leaderboard")
# The players whose games fill a player's page and a leaderboard: each plays Knockout Whist
# for two against bots of these levels, this many games each.
PEOPLE: dict[str, tuple[str, ...]] = {
    "Ana": ("easy", "medium", "hard", "easy"),
    "Boris": ("medium", "hard", "expert"),
    "Chloé": ("easy", "easy", "medium"),
    "Darius": ("hard", "expert"),
}
HANDS = ("knockout-whist", "neuf")
# Each game with the number of players its pictures show.
GAMES: dict[str, int] = {"knockout-whist": 4, "neuf": 3, "kryt-navalivat": 3}
# A hand of Kryt'-navalivat' played by random moves runs long; a game of it this many
# actions at most.
LONGEST = 2000
# A hint's picture: a turn of this many legal moves at least, and the turns whose hint is
# worked out beforehand in search of one whose badges show both "≈ best" and gaps.
CHOICES = 3
HINT_TRIES = 8
# The tables a position (the middle of a hand, a hint's) is looked for at, one after
# another, each game to its end; the times a page asks for its hint until it has the best
# move's value.
TABLES = 4
HINT_ASKS = 3


@dataclass(frozen=True)
class Shot:
    """One picture: which page, of which game, in which language, at which window size."""

    page: str
    game: str
    lang: str
    width: int
    height: int

    @property
    def key(self) -> str:
        """What ``--only`` names it by: a page of no one game (``lobby``, ``open-tables``,
        ``player``, ``leaderboard``), else the page and the game."""
        return self.page if self.page in LOBBY_PAGES else f"{self.page}-{self.game}"

    @property
    def name(self) -> str:
        return f"{self.key}-{self.lang}-{self.width}x{self.height}.png"


def shots(
    pages: Sequence[str] = PAGES,
    games: Sequence[str] = tuple(GAMES),
    langs: Sequence[str] | None = None,
    sizes: Sequence[tuple[int, int]] = SIZES,
) -> list[Shot]:
    """The pictures of ``pages`` of ``games`` at ``sizes``: in ``langs``, or where none are
    given each page's own (:data:`EVERY_LANG` for the :data:`SPOKEN` pages, else
    :data:`LANGS`)."""
    return [
        Shot(page, game, lang, width, height)
        for page in pages
        for game in games
        for lang in (langs or (EVERY_LANG if page in SPOKEN else LANGS))
        for width, height in sizes
        if (page != "review" or game in REVIEWED)
        and (page not in LOBBY_PAGES or game == LOBBY)
        and (page != "hand-end" or game in HANDS)
    ]


# ---------------------------------------------------------------- positions, played from Python


def _seated(base: str, game: str, players: int) -> tuple[Seat, str]:
    """A table of one person ("Ana") and bots; the person's seat and invite link."""
    opened = open_table(base, game, [{"kind": "human", "name": "Ana"}, *bots(players - 1)])
    link = invite(base, opened, 0)
    return Seat(base, opened["table"], token_of(link)), link


def mid_game(base: str, game: str, players: int, rng: random.Random) -> str:
    """The link of a person's seat at a table in the middle of a hand, at the person's turn:
    a trick under way (Knockout Whist, Neuf, past Neuf's exchange) or a pile of ten cards or
    more that the person would take (Kryt'-navalivat', the hardest case for the layout: the
    pile and what taking it means must stay clear of the seats)."""

    def far_enough(seat: Seat) -> bool:
        view = seat.view
        if game == "kryt-navalivat":
            return len(view["pile"]) >= 10 and bool(view["would_take"])
        return bool(view.get("trick")) and view.get("phase") in (None, "play")

    # A game may end before such a position (a short Kryt'-navalivat' game, where nobody's
    # pile grew): another table is opened then.
    for _ in range(TABLES):
        seat, link = _seated(base, game, players)
        seat.settle()
        for _ in range(LONGEST):
            if far_enough(seat) or seat.over():
                break
            seat.act(seat.choose(rng))
            seat.settle()
        found = not seat.over() and far_enough(seat)
        seat.close()
        if found:
            return link
    raise AssertionError(f"{game}: no position in the middle of a hand at {TABLES} tables")


def hinted(base: str, game: str, players: int, rng: random.Random) -> str:
    """The link of a person's seat at the person's turn in the middle of a hand (a trick or
    a pile under way), with a choice of :data:`CHOICES` moves or more. The hint of each such
    turn is worked out here (as the server does, with another seed), to stop at one whose
    badges show a move as good as the best ("≈ best") and one with a gap to it, and whose
    reason is a rule of the position's own (not a close call, which each window's hint,
    worked out again, may settle otherwise); after :data:`HINT_TRIES` such turns, at one
    with a gap; after as many again, at the next turn with the choice. A game that ends
    first (the person knocked out) gives way to another."""
    # The server's own hint, from the seat's view; imported here: it brings the server.
    from cardtable.server.thinking import advise

    tried = 0
    for _ in range(TABLES):
        seat, link = _seated(base, game, players)
        seat.settle()
        for _ in range(LONGEST):
            view = seat.view
            if seat.over():
                break
            if seat.my_turn() and _mid_hand(view) and len(view["legal_actions"]) >= CHOICES:
                tried += 1
                if tried > 2 * HINT_TRIES or _telling(
                    advise(game, view, rng.getrandbits(32)), tried > HINT_TRIES
                ):
                    seat.close()
                    return link
            seat.act(seat.choose(rng))
            seat.settle()
        seat.close()
    raise AssertionError(f"{game}: no choice of {CHOICES} moves at the person's turn")


def _mid_hand(view: dict[str, Any]) -> bool:
    """Whether a trick is under way (Knockout Whist, Neuf past its exchange) or a pile
    (Kryt'-navalivat'): cards on the table that the person's move answers."""
    if view.get("game") == "kryt-navalivat":
        return bool(view.get("pile"))
    return bool(view.get("trick")) and view.get("phase") in (None, "play")


# A hint's reasons that name no rule of the position: a close call (whose best move another
# working out may settle otherwise), any move, no simple rule.
VAGUE = ("hints.why.close", "hints.why.close_call", "hints.why.any", "hints.why.no_rule")


def _telling(hint: dict[str, Any], gaps_only: bool) -> bool:
    """Whether a hint's badges show a gap to the best (as the page rounds it: to a tenth of
    a trick, a tenth of a percent) and, unless ``gaps_only``, a move as good as the best and
    a reason that names a rule of the position (:data:`VAGUE`)."""
    places = 3 if hint["unit"] == "not_fool" else 1
    others = [a for a in hint["actions"] if a["action"] != hint["best"] and a["value"] is not None]
    gaps = any(not a["tie"] and round(a["gap"], places) < 0 for a in others)
    ties = any(a["tie"] or round(a["gap"], places) == 0 for a in others)
    ruled = (hint.get("reason") or {}).get("key") not in VAGUE
    return gaps and (gaps_only or (ties and ruled))


def hand_ending(base: str, game: str, players: int, rng: random.Random) -> str:
    """The link of a person's seat at the person's turn with one card left in the hand
    (Neuf: in the deal), so that the page's own play ends it: the moment the page names who
    took the most tricks is then live."""
    seat, link = _seated(base, game, players)
    seat.settle()
    for _ in range(LONGEST):
        view = seat.view
        if seat.my_turn() and len(view.get("hand") or []) == 1 and view.get("phase") == "play":
            break
        seat.act(seat.choose(rng))
        seat.settle()
    else:
        raise AssertionError(f"{game}: no last card of a hand at the person's turn")
    seat.close()
    return link


def finished(base: str, game: str, players: int, rng: random.Random) -> str:
    """The link of a person's seat at a table whose game is over."""
    seat, link = _seated(base, game, players)
    seat.settle()
    for _ in range(LONGEST):
        if seat.over():
            break
        seat.act(seat.choose(rng))
        seat.settle()
    assert seat.over(), f"{game}: the game did not end in {LONGEST} actions"
    seat.close()
    return link


# ---------------------------------------------------------------- photographs


def take(page: Page, folder: Path, shot: Shot) -> Path:
    """The window as it is, photographed into ``folder`` under the shot's name."""
    path = folder / shot.name
    page.screenshot(path=str(path))
    return path


def ready(page: Page, what: str) -> None:
    """Waits until the page shows what its picture is of: the person's turn, the hint
    asked for at it, the lesson's first move, the results, or the person's review beside
    the replay."""
    if what in ("player", "leaderboard"):
        rows = "#history-list tbody tr" if what == "player" else "#board tr.person"
        expect(page.locator(rows).first).to_be_visible()
        page.evaluate("document.fonts.ready")
        page.wait_for_timeout(200)
        return
    if what in LOBBY_PAGES:
        page.wait_for_selector("#game option", state="attached")
        if what == "open-tables":
            expect(page.locator("#open-list .open-table").first).to_be_visible()
            page.locator("#open-tables").evaluate("e => e.scrollIntoView({ block: 'start' })")
        page.evaluate("document.fonts.ready")
        page.wait_for_timeout(200)
        return
    page.wait_for_selector("#conn[data-state='connected']")
    page.wait_for_selector("#seats .seat")
    if what == "table":
        expect(page.locator("#turn.mine")).to_be_visible()
    elif what == "hint":
        expect(page.locator("#turn.mine")).to_be_visible()
        for _ in range(HINT_ASKS):
            page.click("#hint")
            # The server works the hint out (about a second, more on a busy machine).
            expect(page.locator("#hint-panel")).to_be_visible(timeout=60_000)
            expect(page.locator("#hint-why")).not_to_be_empty()
            # A hint starved of time on a busy machine may leave the best move unrated (no
            # value to say): asked again.
            if page.locator("#hint-value").inner_text().strip():
                break
            page.wait_for_timeout(1000)
        expect(page.locator("#hint-value")).not_to_be_empty()
        expect(page.locator(".chance").first).to_be_visible()
        # On a phone the panel is under the hand and the controls: scrolled up into view.
        page.locator("#hint-panel").evaluate("e => e.scrollIntoView({ block: 'nearest' })")
    elif what == "hand-end":
        # The last card played; the hand's end is named over the table for a moment.
        expect(page.locator("#turn.mine")).to_be_visible()
        page.locator("#hand .card-btn.legal").first.click()
        expect(page.locator("#table-area .celebration.hand")).to_be_visible()
        return
    elif what == "tutorial":
        page.wait_for_selector("#lesson[data-expect]:not([data-expect=''])", state="attached")
        expect(page.locator("#hand .card-btn").first).to_be_visible()
    elif what == "results":
        expect(page.locator("#results")).to_be_visible()
        # Scrolled as a player would, to the results' last line if it is below the window.
        page.locator("#results").evaluate("e => e.scrollIntoView({ block: 'nearest' })")
    elif what == "review":
        page.click("#review-open")
        # The server searches every decision the first time (stored with the table after).
        expect(page.locator("#review-status")).to_have_attribute(
            "data-state", "done", timeout=300_000
        )
        page.locator("#review").evaluate("e => e.scrollIntoView({ block: 'start' })")
    # Fonts and card faces drawn; the felt's layout settled after the last change.
    page.evaluate("document.fonts.ready")
    page.wait_for_timeout(200)


@contextmanager
def opened(
    browser: Browser, url: str, what: str, lang: str, size: tuple[int, int]
) -> Iterator[Page]:
    """``url`` in a fresh profile in ``lang`` at ``size``, ready to be photographed."""
    width, height = size
    with context(browser, lang=lang, width=width, height=height) as made:
        page = made.new_page()
        page.goto(url)
        ready(page, what)
        yield page


def photograph(
    browser: Browser,
    base: str,
    folder: Path,
    wanted: Sequence[Shot],
    rng: random.Random,
    log: Callable[[str], None] = print,
) -> list[Path]:
    """Plays the positions the ``wanted`` shots need on the server at ``base`` and takes
    them into ``folder``; the paths written."""
    links: dict[tuple[str, str], str] = {}
    written = []
    for shot in wanted:
        # The results and the review are of one finished game.
        key = ("over" if shot.page in ("results", "review") else shot.page, shot.game)
        players = GAMES[shot.game]
        if shot.page == "hand-end":
            # Each picture plays the hand's last card itself: a table of its own.
            links[key] = hand_ending(base, shot.game, players, rng)
        elif key not in links:
            if shot.page == "table":
                links[key] = mid_game(base, shot.game, players, rng)
            elif shot.page == "hint":
                links[key] = hinted(base, shot.game, players, rng)
            elif key[0] == "over":
                links[key] = finished(base, shot.game, players, rng)
            elif shot.page == "lobby":
                links[key] = f"{base}/"
            elif shot.page == "open-tables":
                links[key] = open_tables(base)
            elif shot.page in ("player", "leaderboard"):
                first = rated_players(base, rng)
                links[("player", shot.game)] = f"{base}/players/{first}"
                links[("leaderboard", shot.game)] = f"{base}/leaderboard/{LOBBY}"
            else:
                links[key] = f"{base}/learn/{shot.game}"
        with opened(browser, links[key], shot.page, shot.lang, (shot.width, shot.height)) as page:
            written.append(take(page, folder, shot))
        log(f"wrote {written[-1]}")
    return written


def open_tables(base: str) -> str:
    """The lobby, with tables waiting for players: one opened with a seat left to anyone,
    and a quick match waiting for people."""
    seats = [
        {"kind": "human", "name": "Ana"},
        {"kind": "human", "open": True},
        {"kind": "bot", "level": "hard"},
    ]
    made = httpx.post(f"{base}/api/tables", json={"game": "neuf", "seats": seats}, timeout=30)
    made.raise_for_status()
    asked = {"game": "kryt-navalivat", "players": 3, "wait": 600, "name": "Boris"}
    httpx.post(f"{base}/api/quick-match", json=asked, timeout=30).raise_for_status()
    return f"{base}/"


def rated_players(
    base: str, rng: random.Random, people: dict[str, tuple[str, ...]] = PEOPLE
) -> str:
    """Players (``people``: each one's name and the bots' levels of their games) with
    finished, rated games of Knockout Whist for two: the first one's id."""
    ids = []
    for name, levels in people.items():
        made = httpx.post(f"{base}/api/players", json={"name": name}, timeout=30)
        made.raise_for_status()
        ids.append(str(made.json()["player"]))
        auth = {"Authorization": f"Bearer {made.json()['key']}"}
        for level in levels:
            opened = open_table(base, LOBBY, [{"kind": "human", "name": name}, *bots(1, level)])
            token = token_of(invite(base, opened, 0))
            httpx.post(
                f"{base}/api/tables/{opened['table']}/seats/0/player",
                json={"token": token},
                headers=auth,
                timeout=30,
            ).raise_for_status()
            seat = Seat(base, opened["table"], token)
            seat.play_to_end(rng)
            seat.close()
    return ids[0]


@contextmanager
def server_and_browser() -> Iterator[tuple[str, Browser]]:
    """A fresh server on a temporary SQLite file, and a headless Chromium."""
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        # Each position is photographed several times: no stand-in may play on meanwhile.
        base = stack.enter_context(served(folder, grace=3600))
        browser = stack.enter_context(launched())
        yield base, browser


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the pictures")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PAGE-GAME",
        help="only these (e.g. table-neuf, hint-kryt-navalivat, lobby); may be repeated",
    )
    parser.add_argument("--seed", type=int, default=5, help="the random moves' seed")
    args = parser.parse_args(argv)
    wanted = shots()
    if args.only:
        unknown = set(args.only) - {s.key for s in wanted}
        if unknown:
            parser.error(f"unknown --only: {', '.join(sorted(unknown))}")
        wanted = [s for s in wanted if s.key in args.only]
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    with server_and_browser() as (base, browser):
        photograph(browser, base, out, wanted, random.Random(args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
