"""The end of a game in the browser: the results screen shows the places, each player's tricks
in each hand (or Neuf's score sheet as a chart), from what every seat may see; "play again"
starts the next game at the table and "replay" opens the finished one. Headless Chromium
against `cardtable serve` (tests/browser_pieces.py)."""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from browser_pieces import (
    EXPECT_MS,
    Seat,
    bots,
    context,
    invite,
    open_table,
    seated_page,
    token_of,
)

expect.set_options(timeout=EXPECT_MS)


def finished(web_base: str, game: str, players: int, seed: int) -> tuple[dict[str, Any], str]:
    """A table of one person (played from Python, at random) and bots, its first game over;
    the table as opened and Ana's link."""
    opened = open_table(web_base, game, [{"kind": "human", "name": "Ana"}, *bots(players - 1)])
    link = invite(web_base, opened, 0)
    seat = Seat(web_base, opened["table"], token_of(link))
    seat.play_to_end(random.Random(seed))
    seat.close()
    return opened, link


def places_shown(page: Page) -> list[tuple[int, int]]:
    """(place, seat) of each row of the places table, in order."""
    rows: list[list[str]] = page.eval_on_selector_all(
        "#results-places tbody tr", "rows => rows.map(r => [r.dataset.place, r.dataset.seat])"
    )
    return [(int(place), int(seat)) for place, seat in rows]


def places_of(result: dict[str, Any]) -> list[tuple[int, int]]:
    return [(i + 1, seat) for i, group in enumerate(result["places"]) for seat in group]


def board(page: Page) -> tuple[str, list[str]]:
    """What the results screen says, and its chart's lines."""
    text = page.locator("#results-board").inner_text()
    lines: list[str] = page.eval_on_selector_all(
        "#results-chart polyline", "lines => lines.map(l => l.getAttribute('points'))"
    )
    return text, lines


def test_a_finished_neuf_shows_places_the_chart_and_plays_again(
    web_base: str, chromium: Browser
) -> None:
    opened, link = finished(web_base, "neuf", 3, seed=8)
    table = opened["table"]
    described = httpx.get(f"{web_base}/api/tables/{table}").json()
    [result] = described["results"]
    frames = httpx.get(f"{web_base}/api/tables/{table}/replay/1").json()["frames"]
    ledger = frames[-1]["view"]["ledger"]
    with context(chromium) as made:
        page = seated_page(made, link)
        expect(page.locator("#results")).to_be_visible()
        expect(page.locator("#results-places tbody tr")).to_have_count(3)
        assert places_shown(page) == places_of(result)
        winner = result["places"][0][0]
        expect(page.locator(f"#results-places tr[data-seat='{winner}']")).to_have_class("won")
        expect(page.locator("#results-places tr.me")).to_have_attribute("data-seat", "0")
        # The final scores, as the score sheet's last line has them.
        for seat in range(3):
            expect(page.locator(f"#results-places tr[data-seat='{seat}'] td").nth(1)).to_have_text(
                str(ledger[-1]["scores"][seat])
            )
        # The chart: one line per player, a point per deal, each at its score.
        chart = page.locator("#results-chart svg")
        expect(chart).to_be_visible()
        expect(chart.locator("polyline")).to_have_count(3)
        for seat in range(3):
            points = chart.locator(f"polyline[data-side='{seat}']").get_attribute("points")
            assert points is not None and len(points.split()) == len(ledger)
            expect(chart.locator(f"circle[data-side='{seat}']")).to_have_count(len(ledger))
        last = ledger[-1]
        expect(
            chart.locator(f"circle[data-side='0'][data-deal='{last['deal']}'] title")
        ).to_have_text(f"Deal {last['deal']}: Ana {last['scores'][0]}")
        expect(page.locator("#results-legend li")).to_have_count(3)
        # Tricks in each deal, from the public plays: every deal's tricks add up to 17.
        for row in ledger:
            cells = page.locator(f"#results-tricks td[data-hand='{row['deal']}']")
            got = [int(x) for x in cells.all_inner_texts()]
            assert got == row["tricks"], (row, got)
        # A watcher's page shows the same board: it is built from what everyone may see.
        shown = board(page)
        with context(chromium) as other:
            watcher = seated_page(other, f"{web_base}{opened['spectate']}")
            expect(watcher.locator("#results-places tbody tr")).to_have_count(3)
            assert board(watcher) == shown
            expect(watcher.locator("#next-game")).to_be_hidden()
        # Play again: the next game at the same table, the same seats.
        page.click("#next-game")
        expect(page.locator("#results")).to_be_hidden()
        expect(page.locator("#log li.ev-game").first).to_contain_text("2")
        again = httpx.get(f"{web_base}/api/tables/{table}").json()
        assert again["games"] == 2
        assert [(s["kind"], s["name"]) for s in again["seats"]] == [
            (s["kind"], s["name"]) for s in described["seats"]
        ]


def test_a_knockout_whist_results_screen_counts_each_hands_tricks(
    web_base: str, chromium: Browser
) -> None:
    """KOW-5: the hands shrink by one card each; a seat's tricks in a hand come from the
    public plays (each play that takes a trick says so), and every hand's add up to its
    number of cards among the seats still in. The replay opens from the results."""
    opened, link = finished(web_base, "knockout-whist", 3, seed=21)
    [result] = httpx.get(f"{web_base}/api/tables/{opened['table']}").json()["results"]
    with context(chromium) as made:
        page = seated_page(made, link)
        expect(page.locator("#results-places tbody tr")).to_have_count(3)
        assert places_shown(page) == places_of(result)
        first = result["places"][0][0]
        expect(page.locator(f"#results-places tr[data-seat='{first}'] td").last).to_have_text(
            "winner"
        )
        for group in result["places"][1:]:
            for seat in group:
                expect(
                    page.locator(f"#results-places tr[data-seat='{seat}'] td").last
                ).to_contain_text("in hand ")
        hands: list[str] = page.eval_on_selector_all(
            "#results-tricks td[data-seat='0']", "cells => cells.map(c => c.dataset.hand)"
        )
        assert hands[0] == "1"
        for hand in hands:
            cells = page.locator(f"#results-tricks td[data-hand='{hand}']")
            # A seat out before this hand has a dash: it played none of its tricks.
            texts = cells.all_inner_texts()
            assert sum(int(x) for x in texts if x != "—") == 8 - int(hand), (hand, texts)
        expect(page.locator("#results-chart")).to_have_count(0)
        page.click("#replay-open")
        expect(page.locator("#replay-bar")).to_be_visible()


def test_a_kryt_navalivat_results_screen_names_the_fool(web_base: str, chromium: Browser) -> None:
    opened, link = finished(web_base, "kryt-navalivat", 3, seed=2)
    [result] = httpx.get(f"{web_base}/api/tables/{opened['table']}").json()["results"]
    with context(chromium, lang="fa") as made:
        page = seated_page(made, link)
        expect(page.locator("#results-places tbody tr")).to_have_count(3)
        assert places_shown(page) == places_of(result)
        if len(result["places"]) > 1:
            [fool] = result["places"][-1]
            expect(page.locator(f"#results-places tr[data-seat='{fool}'] td").last).to_contain_text(
                "احمق"
            )


def test_counts_and_scores_are_written_in_the_readers_language(
    web_base: str, chromium: Browser
) -> None:
    """A review's counts take each language's plural forms (``review.count.*``: "1
    mistake", "5 ошибок"), and a score its digits and the sign of a negative on the correct
    side (Persian: not "1-")."""
    expected = {
        "en": ["1 mistake", "2 mistakes", "5 mistakes", "21 mistakes"],
        "fr": ["1 erreur", "2 erreurs", "5 erreurs", "21 erreurs"],
        "ru": ["1 ошибка", "2 ошибки", "5 ошибок", "21 ошибка"],
        "fa": ["۱ اشتباه", "۲ اشتباه", "۵ اشتباه", "۲۱ اشتباه"],
    }
    for lang, mistakes in expected.items():
        with context(chromium, lang=lang) as made:
            page = made.new_page()
            page.goto(f"{web_base}/")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            # The page's <html lang> may say "en" before its strings have loaded, and a key
            # with no string comes back as itself: read the counts in the same evaluation
            # that finds the strings loaded (two calls may meet two states of the page).
            counted = page.wait_for_function(
                "key => import('/static/i18n.js').then(m => m.t('review.title') !== 'review.title'"
                " && [1, 2, 5, 21].map(count => m.t(key, {count})))",
                arg="review.count.mistake",
            ).json_value()
            assert counted == mistakes
            minus = page.evaluate("() => import('/static/i18n.js').then(m => m.num(-12))")
            if lang == "fa":
                # Persian digits, the minus sign held left of them by a left-to-right mark.
                assert minus == "\u200e\u2212۱۲"
            else:
                assert minus.endswith("12") and minus[:-2].strip("\u200e") in ("-", "\u2212")
