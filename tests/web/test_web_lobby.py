"""The lobby remembers: every table this browser created or joined is listed with its seat's
link (kept in the browser's storage), its players, when it was made and whether its game is
still going on; "rejoin" seats you again after the tab was closed, "forget" drops it, "play
again" opens a new table with the same seats, and "play now" starts a game against bots in
one click. Headless Chromium against `cardtable serve` (tests/browser_pieces.py)."""

from __future__ import annotations

import math
import random
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from browser_pieces import (
    EXPECT_MS,
    Seat,
    bots,
    context,
    english,
    invite,
    open_page,
    open_table,
    seated_page,
    token_of,
)

expect.set_options(timeout=EXPECT_MS)


def row_of(page: Page, table: str) -> str:
    return f"#my-tables-list tr[data-table='{table}']"


def shape(described: dict[str, Any]) -> list[tuple[str, str]]:
    """Each seat's kind, with a person's name or a bot's level."""
    return [
        (s["kind"], s["name"] if s["kind"] == "human" else s["level"]) for s in described["seats"]
    ]


def table_of(url: str) -> str:
    return url.split("/t/")[1].split("#")[0]


def test_a_table_created_then_its_tab_closed_is_listed_and_rejoined(
    web_base: str, chromium: Browser
) -> None:
    words = english()["lobby"]
    with context(chromium) as made:
        lobby = open_page(made, web_base)
        expect(lobby.locator("#my-tables-empty")).to_be_visible()
        expect(lobby.locator("#my-tables-list")).to_be_hidden()
        lobby.select_option("#game", "neuf")
        lobby.fill("#seat-rows .seat-row[data-seat='0'] input.name", "Ana")
        lobby.select_option("#seat-rows .seat-row[data-seat='1'] select.kind", "human")
        lobby.fill("#seat-rows .seat-row[data-seat='1'] input.name", "Bo")
        lobby.click("#create-table")
        expect(lobby.locator("#created")).to_be_visible()
        link = lobby.locator("#invites .invite[data-seat='0'] input.link").input_value()
        table = table_of(link)
        # Listed at once, before the seat was ever taken.
        expect(lobby.locator(row_of(lobby, table))).to_be_visible()
        lobby.close()

        page = seated_page(made, link)
        expect(page.locator("#seats .seat.me[data-seat='0']")).to_be_visible()
        page.close()  # the tab is closed: the seat's link lives on in the browser only

        lobby = open_page(made, web_base)
        row = lobby.locator(row_of(lobby, table))
        expect(row).to_be_visible()
        expect(row.locator("td.game")).to_have_text("Neuf")
        expect(row.locator("td.players")).to_have_text("Ana, Bo, Bot 3, Bot 4")
        expect(row.locator("td.state")).to_have_attribute("data-state", "playing")
        expect(row.locator("td.state")).to_have_text(words["state_playing"])
        created = httpx.get(f"{web_base}/api/tables/{table}").json()["created"]
        assert row.locator("td.created").inner_text().strip()
        assert created > 0
        row.locator("a.rejoin").click()
        lobby.wait_for_url(re.compile(f"/t/{table}#seat=0&token="))
        lobby.wait_for_selector("#conn[data-state='connected']")
        expect(lobby.locator("#seats .seat.me[data-seat='0']")).to_be_visible()
        expect(lobby.locator("#banner")).to_be_hidden()


def test_a_seat_joined_from_an_invitation_is_listed_and_can_be_forgotten(
    web_base: str, chromium: Browser
) -> None:
    """A table created elsewhere, whose invitation this browser opened, is listed with that
    seat; "forget" drops it for good (a reload does not bring it back)."""
    opened = open_table(
        web_base,
        "knockout-whist",
        [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}, *bots(1)],
    )
    table = opened["table"]
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 1))
        expect(page.locator("#seats .seat.me[data-seat='1']")).to_be_visible()
        page.close()
        lobby = open_page(made, web_base)
        row = lobby.locator(row_of(lobby, table))
        expect(row.locator("td.game")).to_have_text("Knockout Whist")
        expect(row.locator("td.players")).to_have_text("Ana, Bo, Bot 3")
        expect(row.locator("a.rejoin")).to_have_attribute("href", re.compile(r"#seat=1&token="))
        row.locator("button.forget").click()
        expect(row).to_have_count(0)
        expect(lobby.locator("#my-tables-empty")).to_be_visible()
        lobby.reload()
        expect(lobby.locator("#my-tables-empty")).to_be_visible()
        expect(lobby.locator(row_of(lobby, table))).to_have_count(0)


@pytest.mark.parametrize("game", ["knockout-whist", "neuf", "kryt-navalivat"])
def test_play_now_starts_a_game_against_bots(web_base: str, chromium: Browser, game: str) -> None:
    games = {g["name"]: g for g in httpx.get(f"{web_base}/api/games").json()}
    players = games[game]["players"]["default"]
    with context(chromium) as made:
        page = open_page(made, web_base)
        page.click(f"#play-now-buttons button[data-play-now='{game}']")
        page.wait_for_url(re.compile(r"/t/[^#]+#seat=0&token="))
        page.wait_for_selector("#conn[data-state='connected']")
        table = table_of(page.url)
        described = httpx.get(f"{web_base}/api/tables/{table}").json()
        assert described["game"] == game
        kinds = [(s["kind"], s["level"]) for s in described["seats"]]
        assert kinds == [("human", None), *[("bot", "medium")] * (players - 1)]
        expect(page.locator("#seats .seat.me[data-seat='0']")).to_be_visible()
        expect(page.locator("#seats .seat .avatar.bot")).to_have_count(players - 1)
        # The game is under way: the bots play up to this seat's turn, and it can move.
        expect(page.locator("#turn.mine")).to_be_visible()
        page.goto(web_base)
        row = page.locator(row_of(page, table))
        expect(row.locator("td.state")).to_have_attribute("data-state", "playing")


def test_a_finished_table_says_so_and_play_again_opens_one_with_the_same_seats(
    web_base: str, chromium: Browser
) -> None:
    options = {"trump_mode": "permanent"}
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "hard"}, *bots(1)]
    opened = open_table(web_base, "kryt-navalivat", seats, options)
    link = invite(web_base, opened, 0)
    with context(chromium) as made:
        page = seated_page(made, link)
        page.close()
        seat = Seat(web_base, opened["table"], token_of(link))
        seat.play_to_end(random.Random(5))
        seat.close()
        lobby = open_page(made, web_base)
        row = lobby.locator(row_of(lobby, opened["table"]))
        expect(row.locator("td.state")).to_have_attribute("data-state", "finished")
        expect(row.locator("td.state")).to_have_text(english()["lobby"]["state_finished"])
        row.locator("button.again").click()
        expect(lobby.locator("#created")).to_be_visible()
        new_link = lobby.locator("#invites .invite[data-seat='0'] input.link").input_value()
        new_table = table_of(new_link)
        assert new_table != opened["table"]
        old = httpx.get(f"{web_base}/api/tables/{opened['table']}").json()
        new = httpx.get(f"{web_base}/api/tables/{new_table}").json()
        assert new["game"] == old["game"] == "kryt-navalivat"
        assert new["options"] == old["options"] and new["options"]["trump_mode"] == "permanent"
        assert shape(new) == shape(old) == [("human", "Ana"), ("bot", "hard"), ("bot", "easy")]
        # The new table is listed too, and "Take my seat" goes to the same seat as before.
        expect(lobby.locator(row_of(lobby, new_table))).to_be_visible()
        expect(lobby.locator("#go-seat")).to_have_attribute(
            "href", re.compile(f"/t/{new_table}#seat=0&token=")
        )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_each_bot_level_shows_its_rating_on_one_scale(
    web_base: str, chromium: Browser, lang: str
) -> None:
    """A bot seat's levels read "expert ≈ 31": the round robin's rating (docs/bots.md), its
    95% interval and the games behind it in the option's title, in the page's language."""
    games = {g["name"]: g for g in httpx.get(f"{web_base}/api/games").json()}
    ratings = dict(games["neuf"]["ratings"])
    random_player = ratings.pop("random")
    assert set(ratings) == {"easy", "medium", "hard", "expert"}
    with context(chromium, lang=lang) as made:
        page = open_page(made, web_base)
        page.select_option("#game", "neuf")
        row = page.locator("#seat-rows .seat-row[data-seat='1']")
        row.locator("select.kind").select_option("bot")
        for level, rating in ratings.items():
            option = row.locator(f"select.level option[value='{level}']")
            shown = math.floor(rating["mu"] + 0.5)  # JavaScript's Math.round
            text = option.inner_text()
            assert re.fullmatch(rf".+ ≈ {shown}", text), text
            title = option.get_attribute("title") or ""
            # The interval's ends to a tenth, as Intl writes them (a decimal comma in Russian).
            for end in (rating["low"], rating["high"]):
                written = f"{math.floor(end * 10 + 0.5) / 10:g}"
                assert (written if lang == "en" else written.replace(".", ",")) in title, title
            games_written = f"{rating['games']:,}"  # 1,200; in Russian 1 200
            if lang == "ru":
                games_written = games_written.replace(",", "\xa0")
            assert games_written in title, title
        # What the numbers are, with a random player's for scale.
        note = page.locator("#ratings-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text(f"≈ {math.floor(random_player['mu'] + 0.5)}")
        if lang == "en":
            expect(note).to_contain_text(f"games of {games['neuf']['ratings_players']} players")
        if lang == "en":
            expect(row.locator("select.level option[value='expert']")).to_have_attribute(
                "title",
                re.compile(
                    r"^expert: rating [\d.]+ \(95% interval [\d.]+ to [\d.]+\), from [\d,]+ games"
                ),
            )
