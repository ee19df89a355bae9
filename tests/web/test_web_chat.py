"""Preset messages and seat badges in the browser: a message chosen from the menu in one
browser appears at the others in each reader's language (watchers see it but have no menu);
an unknown message id sent over the page's websocket is refused with its error and the
connection stays open; each seat's box has a round badge, initials or a bot's glyph, in
every language. Headless Chromium against `cardtable serve` (tests/browser_pieces.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from browser_pieces import (
    EXPECT_MS,
    WEB,
    bots,
    context,
    invite,
    open_table,
    seated_page,
)

expect.set_options(timeout=EXPECT_MS)


def words(lang: str) -> dict[str, Any]:
    strings: dict[str, Any] = json.loads(Path(WEB / "locales" / f"{lang}.json").read_text())
    return strings


def said(lang: str, name: str, message: str) -> str:
    chat = words(lang)["chat"]
    text: str = chat["said"].replace("{name}", name)
    return text.replace("{message}", chat["messages"][message])


def send_through_the_page(page: Page, message: dict[str, Any]) -> None:
    """Sends `message` on the page's own websocket (kept by the profile's init script)."""
    page.evaluate(
        "m => window.__sockets.filter(s => s.readyState === 1).at(-1).send(JSON.stringify(m))",
        message,
    )


def test_a_preset_message_appears_at_the_others_in_their_language(
    web_base: str, chromium: Browser
) -> None:
    opened = open_table(
        web_base,
        "knockout-whist",
        [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Бо"}, *bots(1)],
    )
    with (
        context(chromium, lang="en") as en,
        context(chromium, lang="fr") as fr,
        context(chromium, lang="ru") as ru,
        context(chromium, lang="fa") as fa,
    ):
        ana = seated_page(en, invite(web_base, opened, 0))
        bo = seated_page(ru, invite(web_base, opened, 1))
        watcher_fr = seated_page(fr, f"{web_base}{opened['spectate']}")
        watcher_fa = seated_page(fa, f"{web_base}{opened['spectate']}")
        # A watcher sees the messages but has no menu to send one.
        expect(watcher_fa.locator("#chat")).to_be_visible()
        expect(watcher_fa.locator("#chat-open")).to_be_hidden()
        expect(watcher_fa.locator("#chat-empty")).to_have_text(words("fa")["chat"]["empty"])

        ana.click("#chat-open")
        menu = ana.locator("#chat-menu")
        expect(menu).to_be_visible()
        expect(menu.locator("button[data-message]")).to_have_count(10)
        expect(menu.locator("button[data-message='good_game']")).to_have_text("Good game")
        menu.locator("button[data-message='good_game']").click()
        expect(menu).to_be_hidden()

        # For a moment (4 s), by the seat's box too.
        for page, lang in ((watcher_fa, "fa"), (bo, "ru")):
            expect(page.locator("#table-area .chat-bubble[data-seat='0']")).to_have_text(
                words(lang)["chat"]["messages"]["good_game"]
            )
        for page, lang in ((ana, "en"), (bo, "ru"), (watcher_fr, "fr"), (watcher_fa, "fa")):
            item = page.locator("#chat-log li[data-message='good_game'][data-seat='0']")
            expect(item).to_have_count(1)
            expect(item.locator(".words")).to_have_text(said(lang, "Ana", "good_game"))
            expect(page.locator("#chat-empty")).to_be_hidden()
        # The reply, by keyboard: the menu opens on its first item, the arrows move.
        bo.focus("#chat-open")
        bo.keyboard.press("Enter")
        expect(bo.locator("#chat-menu button").first).to_be_focused()
        bo.keyboard.press("ArrowDown")
        bo.keyboard.press("ArrowDown")
        bo.keyboard.press("ArrowDown")
        expect(bo.locator("#chat-menu button[data-message='well_played']")).to_be_focused()
        bo.keyboard.press("Enter")
        for page, lang in ((ana, "en"), (bo, "ru"), (watcher_fr, "fr"), (watcher_fa, "fa")):
            newest = page.locator("#chat-log li").first
            expect(newest).to_have_attribute("data-message", "well_played")
            expect(newest.locator(".words")).to_have_text(said(lang, "Бо", "well_played"))
        assert said("fr", "Бо", "well_played") == "Бо\u00a0: Bien joué"  # a no-break space


def test_an_unknown_message_id_is_refused_and_the_connection_stays_open(
    web_base: str, chromium: Browser
) -> None:
    opened = open_table(web_base, "neuf", [{"kind": "human", "name": "Ana"}, *bots(2)])
    with context(chromium, sockets=True) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        send_through_the_page(page, {"type": "chat", "id": "you are all terrible"})
        banner = page.locator("#banner")
        expect(banner).to_be_visible()
        expect(banner).to_have_attribute("data-code", "unknown_message")
        expect(page.locator("#banner-text")).to_contain_text(
            words("en")["error"]["unknown_message"]
        )
        expect(page.locator("#chat-log li")).to_have_count(0)
        # The same socket still carries messages: nothing reconnected.
        expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
        opened_sockets = page.evaluate("window.__sockets.length")
        page.click("#chat-open")
        page.click("#chat-menu button[data-message='thanks']")
        expect(page.locator("#chat-log li[data-message='thanks'] .words")).to_have_text(
            said("en", "Ana", "thanks")
        )
        assert page.evaluate("window.__sockets.length") == opened_sockets


def test_each_seat_has_a_badge_with_initials_or_a_bots_glyph(
    web_base: str, chromium: Browser
) -> None:
    opened = open_table(
        web_base,
        "kryt-navalivat",
        [
            {"kind": "human", "name": "Ana Lima"},
            {"kind": "human", "name": "سارا"},
            {"kind": "human"},
            *bots(1),
        ],
    )
    for lang in ("en", "fa"):
        with context(chromium, lang=lang) as made:
            page = seated_page(made, invite(web_base, opened, 1))
            badges = [page.locator(f"#seats .seat[data-seat='{s}'] .avatar") for s in range(4)]
            for badge in badges:
                expect(badge).to_have_count(1)
                expect(badge).to_have_attribute("aria-hidden", "true")
            expect(badges[0]).to_have_text("AL")
            expect(badges[1]).to_have_text("س")
            expect(badges[2]).to_have_text("P3")  # "Player 3", the server's name for it
            expect(badges[3]).to_have_text("")
            expect(badges[3].locator("svg.bot-glyph")).to_have_count(1)
            colours = {b.evaluate("e => getComputedStyle(e).backgroundColor") for b in badges}
            assert len(colours) == 4, colours
            # Round, and each badge inside its seat's box in both directions of writing.
            for s, badge in enumerate(badges):
                radius = badge.evaluate("e => getComputedStyle(e).borderRadius")
                assert radius == "50%", radius
                box = page.locator(f"#seats .seat[data-seat='{s}']").bounding_box()
                inner = badge.bounding_box()
                assert box is not None and inner is not None
                assert box["x"] <= inner["x"]
                assert inner["x"] + inner["width"] <= box["x"] + box["width"]


def test_messages_and_the_log_fold_and_count_what_came_while_folded(
    web_base: str, chromium: Browser
) -> None:
    """The messages and the log open on demand, as in a card room: on a phone both start
    folded (their headings' buttons say aria-expanded="false"), their lists still in the page
    (the log keeps every event); a message that comes while the messages are folded is
    counted on their heading ("1 new message" said in words), and opening them, by the
    keyboard, clears the count. On a wide window both start open, and a fold is remembered."""
    opened = open_table(
        web_base,
        "knockout-whist",
        [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}, *bots(1)],
    )
    with context(chromium) as wide, context(chromium, width=375, height=667) as phone:
        ana = seated_page(wide, invite(web_base, opened, 0))
        bo = seated_page(phone, invite(web_base, opened, 1))
        for toggle, body in (("#chat-toggle", "#chat-body"), ("#log-toggle", "#log-body")):
            expect(bo.locator(toggle)).to_have_attribute("aria-expanded", "false")
            expect(bo.locator(body)).to_be_hidden()
            expect(ana.locator(toggle)).to_have_attribute("aria-expanded", "true")
            expect(ana.locator(body)).to_be_visible()
        expect(bo.locator("#log li[data-seq]").first).to_be_attached()
        expect(bo.locator("#log")).to_contain_text("Game 1 begins.")
        expect(bo.locator("#chat-unread")).to_be_hidden()

        ana.click("#chat-open")
        ana.click("#chat-menu button[data-message='hello']")
        unread = bo.locator("#chat-unread")
        expect(unread).to_be_visible()
        expect(unread).to_have_attribute("data-count", "1")
        expect(unread).to_contain_text("1 new message")
        expect(bo.locator("#chat-log li[data-message='hello']")).to_have_count(1)
        # The sender's own panel was open: nothing to count there.
        expect(ana.locator("#chat-unread")).to_be_hidden()

        bo.focus("#chat-toggle")
        bo.keyboard.press("Enter")
        expect(bo.locator("#chat-toggle")).to_have_attribute("aria-expanded", "true")
        expect(bo.locator("#chat-log li[data-message='hello']")).to_be_visible()
        expect(unread).to_be_hidden()
        bo.keyboard.press("Enter")
        expect(bo.locator("#chat-body")).to_be_hidden()

        # A wide window remembers a fold.
        ana.click("#log-toggle")
        expect(ana.locator("#log-body")).to_be_hidden()
        ana.reload()
        ana.wait_for_selector("#conn[data-state='connected']")
        expect(ana.locator("#log-toggle")).to_have_attribute("aria-expanded", "false")
        expect(ana.locator("#chat-toggle")).to_have_attribute("aria-expanded", "true")
