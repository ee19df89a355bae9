"""Open tables in the page: one player makes a table with a seat open to anyone, another, in
another browser, finds it in the lobby's open tables, takes the seat under their own name,
and the two play the game to its end. Headless Chromium against `cardtable serve`
(tests/browser_pieces.py)."""

from __future__ import annotations

import random

import httpx
from playwright.sync_api import Browser, Page, expect

from browser_pieces import EXPECT_MS, context, english, last_seq, open_page, to_move, wait_past

expect.set_options(timeout=EXPECT_MS)


def click_a_move(page: Page, rng: random.Random) -> None:
    """A random legal card, else a random action button (a trump to name)."""
    legal = page.locator("#hand .card-btn.legal")
    if legal.count():
        legal.nth(rng.randrange(legal.count())).click()
        return
    actions = page.locator("#actions button[data-action]")
    assert actions.count(), "the page says it is this seat's turn but offers nothing to do"
    actions.nth(rng.randrange(actions.count())).click()


def test_two_strangers_find_each_other_through_the_open_tables_and_play_to_the_end(
    web_base: str, chromium: Browser
) -> None:
    words = english()
    rng = random.Random(3)
    with context(chromium) as anas, context(chromium) as bos:
        # Ana makes a table of Knockout Whist for two, the other seat open to anyone.
        lobby = open_page(anas, web_base)
        lobby.select_option("#game", "knockout-whist")
        lobby.select_option("#players", "2")
        lobby.fill("#seat-rows .seat-row[data-seat='0'] input.name", "Ana")
        lobby.select_option("#seat-rows .seat-row[data-seat='1'] select.kind", "open")
        expect(lobby.locator("#seat-rows .seat-row[data-seat='1'] input.name")).to_be_hidden()
        lobby.click("#create-table")
        expect(lobby.locator("#created")).to_be_visible()
        listed = lobby.locator("#invites .open-seat[data-seat='1']")
        expect(listed).to_have_text(words["lobby"]["open_seat_listed"].replace("{n}", "2"))
        expect(lobby.locator("#invites .invite[data-seat='1'] input.link")).to_have_count(0)
        lobby.click("#go-seat")
        ana = lobby
        expect(ana.locator("#seats .seat.me[data-seat='0']")).to_be_visible()
        table = ana.url.split("/t/")[1].split("#")[0]
        waiting = words["waiting"]["open"].replace("{n}", "2")
        if to_move(ana) == 1:  # the open seat is to play first: the page says whom it waits for
            expect(ana.locator("#waiting-text")).to_have_text(waiting)

        # Bo, in another browser, finds the table among the open tables and takes the seat.
        bo = open_page(bos, web_base)
        entry = bo.locator(f"#open-list .open-table[data-table='{table}']")
        expect(entry).to_be_visible()
        expect(entry.locator(".open-game")).to_have_text("Knockout Whist")
        expect(entry.locator(".open-who")).to_have_text(f"Ana, {words['lobby']['open_seat_short']}")
        bo.fill("#open-name", "Bo")
        entry.locator("button.take[data-seat='1']").click()
        expect(bo.locator("#seats .seat.me[data-seat='1']")).to_be_visible()
        expect(ana.locator("#seats .seat[data-seat='1']")).to_contain_text("Bo")
        assert httpx.get(f"{web_base}/api/open-tables").json() == []  # no longer listed

        # They play the game to its end, each in their own page.
        play_between({0: ana, 1: bo}, rng)
        described = httpx.get(f"{web_base}/api/tables/{table}").json()
        [result] = described["results"]
        assert [s["name"] for s in described["seats"]] == ["Ana", "Bo"]
        assert len(result["winners"]) == 1


def play_between(pages: dict[int, Page], rng: random.Random) -> None:
    """Two people, each in their own page, play random legal moves to the game's end,
    which both pages then show."""
    anyone = pages[0]
    moves = 0
    while (mover := to_move(anyone)) is not None:
        page = pages[mover]
        expect(page.locator("#turn.mine")).to_be_visible()
        seq = last_seq(page)
        click_a_move(page, rng)
        wait_past(page, seq)
        wait_past(pages[1 - mover], seq)
        moves += 1
        assert moves < 400, "the game did not end"
    for page in pages.values():
        expect(page.locator("#results")).to_be_visible()


def quick_match(page: Page, game: str, players: int, wait: int, level: str = "easy") -> None:
    page.select_option("#quick-game", game)
    page.select_option("#quick-players", str(players))
    page.select_option("#quick-wait", str(wait))
    page.select_option("#quick-level", level)
    page.click("#quick-go")


def test_a_quick_match_seats_two_strangers_together_or_fills_with_bots_after_its_wait(
    web_base: str, chromium: Browser
) -> None:
    """Cy asks for a quick match of Knockout Whist for two and waits a minute; Di, asking
    the same, is seated at Cy's table, and the two play the game to its end. Ed asks for
    Kryt'-navalivat' for two, with nobody else about: after the wait (15 s), an easy bot
    takes the other seat and the game goes on."""
    words = english()
    with context(chromium) as cys, context(chromium) as dis, context(chromium) as eds:
        cy = open_page(cys, web_base)
        cy.fill("#open-name", "Cy")
        quick_match(cy, "knockout-whist", 2, 60)
        expect(cy.locator("#seats .seat.me[data-seat='0']")).to_be_visible()
        table = cy.url.split("/t/")[1].split("#")[0]
        di = open_page(dis, web_base)
        di.fill("#open-name", "Di")
        quick_match(di, "knockout-whist", 2, 60)
        expect(di.locator("#seats .seat.me[data-seat='1']")).to_be_visible()
        assert di.url.split("/t/")[1].split("#")[0] == table
        expect(cy.locator("#seats .seat[data-seat='1']")).to_contain_text("Di")
        play_between({0: cy, 1: di}, random.Random(8))
        described = httpx.get(f"{web_base}/api/tables/{table}").json()
        assert [s["name"] for s in described["seats"]] == ["Cy", "Di"]
        assert len(described["results"]) == 1

        ed = open_page(eds, web_base)
        ed.fill("#open-name", "Ed")
        quick_match(ed, "kryt-navalivat", 2, 15)
        expect(ed.locator("#seats .seat.me[data-seat='0']")).to_be_visible()
        alone = ed.url.split("/t/")[1].split("#")[0]
        if to_move(ed) == 1:  # the open seat is to play: the page says until when it waits
            expect(ed.locator("#waiting-text")).to_contain_text(
                words["waiting"]["open_until"].split(";")[0].replace("{n}", "2")
            )
        expect(ed.locator("#seats .seat[data-seat='1']")).to_contain_text(
            words["bot_name"].replace("{n}", "2"), timeout=30_000
        )
        seats = httpx.get(f"{web_base}/api/tables/{alone}").json()["seats"]
        assert (seats[1]["kind"], seats[1]["level"]) == ("bot", "easy")
