"""What a player meets at the edges of a seat, in Chromium: a garbled invite link, a seat
taken up in a second window, the skip link, whom the table waits for, and the results on a
phone. Each was a defect a new player met; each test fails on the page as it was."""

from __future__ import annotations

import random
import re

import httpx
from playwright.sync_api import Browser, expect

from browser_pieces import (
    EXPECT_MS,
    bots,
    context,
    english,
    invite,
    open_page,
    open_table,
    seated_page,
)
from test_web_results import finished

expect.set_options(timeout=EXPECT_MS)


def test_a_garbled_invite_says_so_and_offers_to_watch(web_base: str, chromium: Browser) -> None:
    """A token that holds no seat: not an empty page titled "Loading…", but what is wrong
    and a way to watch the table instead, which works."""
    opened = open_table(web_base, "neuf", [{"kind": "human", "name": "Ana"}, *bots(2)])
    link = invite(web_base, opened, 0)
    garbled = link[:-6]  # cut short when it was copied
    words = english()["invite_invalid"]
    with context(chromium, allowed=("bad_token",)) as made:
        page = open_page(made, garbled)
        expect(page.locator("#invalid")).to_be_visible()
        expect(page.locator("#invalid h2")).to_have_text(words["title"])
        expect(page).to_have_title(re.compile(words["title"]))
        expect(page.locator("#banner")).to_be_hidden()
        page.click("#watch-instead")
        page.wait_for_selector("#seats .seat")
        expect(page.locator("#hand-wrap")).to_be_hidden()
        assert page.url == f"{web_base}/t/{opened['table']}"
    with context(chromium, lang="fa", allowed=("bad_token",)) as made:
        page = open_page(made, garbled)
        expect(page.locator("#invalid h2")).to_have_text("این پیوند دعوت معتبر نیست")


def test_a_window_whose_seat_was_taken_up_elsewhere_stops_offering_moves(
    web_base: str, chromium: Browser
) -> None:
    """The first window says once, in the reader's words, that it has stopped; it no longer
    says "Your turn." nor offers a card, a button or a hint."""
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(2)])
    link = invite(web_base, opened, 0)
    replaced = english()["error"]["replaced"]
    with context(chromium) as made:
        first = seated_page(made, link)
        # Ana leads the first trick unless a bot is first: wait for her turn either way.
        first.wait_for_selector("#turn.mine")
        expect(first.locator("#hand .card-btn.legal").first).to_be_visible()
        second = seated_page(made, link)
        second.wait_for_selector("#turn.mine")
        expect(first.locator("#banner")).to_have_attribute("data-code", "replaced")
        expect(first.locator("#banner-text")).to_have_text(replaced)
        expect(first.locator("#turn")).not_to_have_class(re.compile("mine"))
        expect(first.locator("#turn")).not_to_contain_text("Your turn")
        expect(first.locator("#hand .card-btn.legal")).to_have_count(0)
        expect(first.locator("#actions button")).to_have_count(0)
        expect(first.locator("#hint")).to_be_hidden()
        # The window that took the seat over plays on.
        expect(second.locator("#hand .card-btn.legal").first).to_be_visible()


def test_skip_to_your_hand_lands_on_the_hand_and_keeps_the_link(
    web_base: str, chromium: Browser
) -> None:
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(2)])
    link = invite(web_base, opened, 0)
    with context(chromium) as made:
        page = seated_page(made, link)
        page.wait_for_selector("#hand .card-btn")
        page.keyboard.press("Tab")
        expect(page.locator(".skip")).to_be_focused()
        page.keyboard.press("Enter")
        assert page.evaluate("document.getElementById('hand').contains(document.activeElement)")
        assert page.url == link  # the token stays in the address
    with context(chromium) as made:
        page = seated_page(made, f"{web_base}/t/{opened['table']}")
        expect(page.locator(".skip")).to_be_hidden()  # a watcher has no hand


def test_whom_the_table_waits_for_is_said_once(web_base: str, chromium: Browser) -> None:
    """The waiting box says "Waiting for Bob to join."; the turn line does not say it again."""
    opened = open_table(
        web_base,
        "kryt-navalivat",
        [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bob"}],
    )
    waiting = english()["waiting"]["join"].replace("{name}", "Bob")
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        # Whoever moves first, the table waits for Bob at some point of his first turn.
        if page.locator("#turn.mine").count():
            page.locator("#hand .card-btn.legal").first.click()
        expect(page.locator("#waiting")).to_be_visible()
        expect(page.locator("#waiting-text")).to_have_text(waiting)
        body = page.locator("main").inner_text()
        assert body.count("Waiting for Bob") == 1, body


def test_the_tricks_of_each_hand_fit_a_phone(web_base: str, chromium: Browser) -> None:
    """375x667: the tricks table needs no sideways scrolling, with seven players (the hands
    as numbered columns) and in Neuf (a row a deal, however many deals)."""
    for game, players, seed in (("knockout-whist", 7, 3), ("neuf", 3, 4)):
        _opened, link = finished(web_base, game, players, seed)
        with context(chromium, width=375, height=667) as made:
            page = seated_page(made, link)
            expect(page.locator("#results-tricks")).to_be_visible()
            wide = page.evaluate(
                "(() => { const box = document.querySelector('.results-scroll');"
                " return [box.scrollWidth, box.clientWidth]; })()"
            )
            assert wide[0] <= wide[1] + 1, (game, wide)


def test_the_end_of_a_game_is_named_in_the_middle_of_the_table(
    web_base: str, chromium: Browser
) -> None:
    """KOW-5.2: the page that played the game to its end names the winner over the table
    (no sparks with motion off), above the results sheet; a click puts it away."""
    from test_web_fairness import play_to_the_end

    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    words = english()["celebrate"]
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        # Each hand's end is shown for a moment: every such box is kept as it appears.
        page.evaluate(
            "window.__hands = []; new MutationObserver(() => document.querySelectorAll("
            "'.celebration.hand').forEach((b) => window.__hands.includes(b.textContent) ||"
            " window.__hands.push(b.textContent))).observe(document.getElementById("
            "'table-area'), { childList: true })"
        )
        play_to_the_end(page, random.Random(4))
        hands = page.evaluate("window.__hands")
        assert hands and all(re.match(r"Hand \d+ to ", h) or "tie with" in h for h in hands), hands
        box = page.locator("#table-area .celebration")
        expect(box).to_be_visible()
        [result] = httpx.get(f"{web_base}/api/tables/{opened['table']}").json()["results"]
        won = result["winners"] == [0]
        expected = words["you_win"] if won else words["wins"].replace("{name}", "Bot 2")
        expect(box).to_have_text(expected)
        expect(box).to_have_class(re.compile("mine") if won else re.compile("^celebration$"))
        expect(box.locator(".spark")).to_have_count(0)
        expect(page.locator("#results")).to_be_visible()
        box.click()
        expect(box).to_have_count(0)
