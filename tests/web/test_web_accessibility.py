"""An accessibility audit of the web table with axe-core (the copy that the PyPI package
axe-playwright-python ships) in a real Chromium: every page a person meets, in each of the
four languages, has no violation of axe's rules (WCAG 2 A and AA and axe's best practices).

The pages: the lobby, and the lobby once it has made a table; a table waiting for a person
who has not joined; each game's table in the middle of a hand at the person's turn, at a
desktop's and at a phone's size, and with a hint shown; each game's tutorial; each game's
results once it is over; the replay and the review of a finished game (both on the table
page); each game's rules; a player's page and a leaderboard; the page a mistyped link
shows. A failure lists every violation as
page, language, rule, element and what axe says of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_pieces import EXPECT_MS, context, last_seq, served, wait_past
from scripts_loader import load_script

screenshots = load_script("scripts/screenshots.py")

LANGS = ["en", "fr", "ru", "fa"]
GAMES = ["knockout-whist", "neuf", "kryt-navalivat"]
# The review judges each decision with a small analysis (as tests/web/test_web_review.py does).
REVIEW_LEVEL = "analysis:deals=8,iterations=300"
AXE = (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
# All of axe's rules but its experimental ones (axe's own default), violations alone.
AXE_RUN = "async () => await axe.run(document, { resultTypes: ['violations'] })"

expect.set_options(timeout=EXPECT_MS)


@dataclass(frozen=True)
class Place:
    """A page to audit: where it is, and what to do there before the audit."""

    name: str
    url: str
    prepare: Callable[[Page], None]
    # Console errors the page is meant to log (a page whose address is not found).
    allowed: tuple[str, ...] = ()
    # The window: a desktop's, or a phone's (where the table's layout changes).
    size: tuple[int, int] = (1280, 800)


@pytest.fixture(scope="module")
def web_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDTABLE_REVIEW_LEVEL", REVIEW_LEVEL)
        # The positions are played once and opened again in each language: no stand-in may
        # play on for the person in the meantime.
        with served(tmp_path_factory.mktemp("server"), grace=3600) as base:
            yield base


def at_turn(page: Page) -> None:
    page.wait_for_selector("#conn[data-state='connected']")
    expect(page.locator("#turn.mine")).to_be_visible()


def hinted(page: Page) -> None:
    """At the person's turn, the hint asked for: a chance (or "forced") on the cards."""
    at_turn(page)
    page.click("#hint")
    expect(page.locator("#hand .chance").first).to_be_visible(timeout=30_000)


def in_lesson(page: Page) -> None:
    page.wait_for_selector("#lesson[data-expect]:not([data-expect=''])", state="attached")
    expect(page.locator("#hand .card-btn").first).to_be_visible()


def over(page: Page) -> None:
    page.wait_for_selector("#conn[data-state='connected']")
    expect(page.locator("#results")).to_be_visible()


def replaying(page: Page) -> None:
    over(page)
    page.click("#replay-open")
    expect(page.locator("#replay-bar")).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).not_to_be_empty()


def reviewed(page: Page) -> None:
    over(page)
    page.click("#review-open")
    # The first language to ask waits for the review itself (a search per decision, on a
    # busy machine); the others find it stored.
    expect(page.locator("#review-status")).to_have_attribute("data-state", "done", timeout=120_000)
    page.locator("#review-list li button").first.click()
    expect(page.locator("#review-step")).not_to_be_empty()


def drawn(page: Page) -> None:
    expect(page.locator("main h2").first).to_be_visible()


def created(page: Page) -> None:
    """The lobby once it has made a table for two people and a bot: the invitations."""
    drawn(page)
    page.select_option("#game", "knockout-whist")
    page.select_option("#players", "3")
    for seat, kind in enumerate(["human", "human", "bot"]):
        row = page.locator(f"#seat-rows .seat-row[data-seat='{seat}']")
        row.locator("select.kind").select_option(kind)
    page.click("#create-table")
    expect(page.locator("#created")).to_be_visible()


def awaiting(page: Page) -> None:
    """The table that lobby made, played by its creator until it waits for the second
    person, who never joins: whom it awaits, the invitation, a bot offered in their place."""
    created(page)
    link = page.locator("#invites .invite[data-seat='0'] input.link").input_value()
    page.goto(link)
    page.wait_for_selector("#conn[data-state='connected']")
    for _ in range(20):
        page.wait_for_selector("#turn.mine, #waiting:not([hidden])")
        if page.locator("#waiting").is_visible():
            break
        seq = last_seq(page)
        page.locator("#hand .card-btn.legal").first.click()
        wait_past(page, seq)
    expect(page.locator("#stand-in-btn")).to_be_visible()


def listed(page: Page) -> None:
    """A player's page, or a leaderboard: its rows drawn."""
    expect(page.locator("tbody tr").first).to_be_visible()


def not_found(page: Page) -> None:
    expect(page.locator("#notfound-text")).to_have_attribute("data-kind", "table")


@pytest.fixture(scope="module")
def places(web_base: str) -> list[Place]:
    """Every page to audit, its games played from Python once for all the languages."""
    rng = random.Random(3)
    players = screenshots.GAMES
    found = [
        Place("lobby", f"{web_base}/", drawn),
        Place("lobby, a table created", f"{web_base}/", created),
        Place("table awaiting a player", f"{web_base}/", awaiting),
    ]
    for game in GAMES:
        link = screenshots.mid_game(web_base, game, players[game], rng)
        found.append(Place(f"table {game}", link, at_turn))
        found.append(Place(f"table {game} 375x667", link, at_turn, size=(375, 667)))
        if game != "kryt-navalivat":  # where a card is always playable
            found.append(Place(f"table {game}, a hint", link, hinted))
    for game in GAMES:
        found.append(Place(f"tutorial {game}", f"{web_base}/learn/{game}", in_lesson))
    for game in GAMES:
        link = screenshots.finished(web_base, game, players[game], rng)
        found.append(Place(f"results {game}", link, over))
        if game == "knockout-whist":
            found.append(Place(f"replay {game}", link, replaying))
            found.append(Place(f"review {game}", link, reviewed))
    for game in GAMES:
        found.append(Place(f"rules {game}", f"{web_base}/rules/{game}", drawn))
    player = screenshots.rated_players(web_base, rng, {"Ana": ("easy",), "Boris": ("hard",)})
    found.append(Place("a player's page", f"{web_base}/players/{player}", listed))
    found.append(Place("a leaderboard", f"{web_base}/leaderboard/knockout-whist", listed))
    found.append(Place("not found", f"{web_base}/t/no-such-table", not_found, ("status of 404",)))
    return found


def audit(page: Page) -> list[dict[str, Any]]:
    page.evaluate(AXE)
    results: dict[str, Any] = page.evaluate(AXE_RUN)
    violations: list[dict[str, Any]] = results["violations"]
    return violations


def described(place: str, lang: str, violation: dict[str, Any]) -> list[str]:
    """One line for each element that breaks the rule."""
    return [
        f"{place} [{lang}] {violation['id']} ({violation['impact']}, {violation['help']}): "
        f"{' '.join(map(str, node['target']))}: {node['failureSummary']!r} "
        f"in {node['html'][:160]!r}"
        for node in violation["nodes"]
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_breaks_an_axe_rule(chromium: Browser, places: list[Place], lang: str) -> None:
    found: list[str] = []
    for place in places:
        width, height = place.size
        with context(
            chromium, lang=lang, width=width, height=height, allowed=place.allowed
        ) as made:
            page = made.new_page()
            page.goto(place.url)
            place.prepare(page)
            # The page speaks the reader's language, and says so (Persian right to left).
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
            for violation in audit(page):
                found += described(place.name, lang, violation)
    assert not found, f"{len(found)} accessibility violations:\n" + "\n".join(found)
