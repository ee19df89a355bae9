"""What a player sees when the database cannot store their move (docs/hosting.md, "When the
database fails"): the page says so in the reader's words, the move is offered again, and the
same move played again once the database is back is stored, once. The page does not send it
again by itself: the player plays it again."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from browser_pieces import (
    bots,
    context,
    english,
    invite,
    last_seq,
    open_table,
    seated_page,
    served,
    wait_past,
)
from server_pieces import locked
from test_web_fairness import events_of


def test_a_move_the_database_refused_is_said_and_may_be_played_again(
    chromium: Browser, tmp_path: Path
) -> None:
    with served(tmp_path) as base:
        opened = open_table(base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
        table = opened["table"]
        with context(chromium) as made:
            page = seated_page(made, invite(base, opened, 0))
            legal = page.locator("#hand .card-btn.legal")
            expect(legal.first).to_be_visible()  # this seat's turn (the bot led, or not)
            card = legal.first.get_attribute("data-card")
            again = page.locator(f"#hand .card-btn.legal[data-card='{card}']")
            before = last_seq(page)
            # Held past the server's patience with a commit (5 s) until the page was told.
            with locked(tmp_path / "table.db", 60.0) as holder:
                again.click()
                banner = page.locator("#banner")
                expect(banner).to_have_attribute("data-code", "unavailable", timeout=30_000)
                expect(page.locator("#banner-text")).to_have_text(english()["error"]["unavailable"])
                # Nothing moved, and the same card may be played again.
                assert last_seq(page) == before
                expect(again).to_be_enabled()
                holder.release.set()
            again.click()
            wait_past(page, before)
            expect(banner).to_be_hidden()
        played = [e for e in events_of(base, table) if e["kind"] == "action" and e["seat"] == 0]
        assert [e["action"] for e in played] == [f"play {card}"]
