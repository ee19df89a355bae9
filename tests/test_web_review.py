"""The table page's "Review my game" in Chromium (docs/server.md, "Game reviews"): once the
game is over a seated player asks for the review; the replay opens with each of the seat's
decisions listed the costliest first and marked fine, inaccuracy or mistake, the better
choice said, and the chart drawn; a spectator is offered no review."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from browser_pieces import (
    EXPECT_MS,
    Seat,
    bots,
    context,
    invite,
    open_table,
    seated_page,
    served,
    token_of,
)
from cardtable.core import Record
from cardtable.review import review
from cardtable.server.reviews import _seed

LEVEL = "pimc:deals=8"

expect.set_options(timeout=EXPECT_MS)


@pytest.fixture(scope="module")
def web_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose reviews search 8 deals a decision."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDTABLE_REVIEW_LEVEL", LEVEL)
        with served(tmp_path_factory.mktemp("server")) as base:
            yield base


def test_review_my_game_marks_each_decision_beside_the_replay(
    web_base: str, chromium: Browser, tmp_path: Path
) -> None:
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    table = opened["table"]
    link = invite(web_base, opened, 0)
    seat = Seat(web_base, table, token_of(link))
    seat.play_to_end(random.Random(5))
    seat.close()
    replayed = httpx.get(f"{web_base}/api/tables/{table}/replay/1", timeout=10).json()
    frames = len(replayed["frames"])
    expected = review(
        Record.from_dict(replayed["record"]), 0, level=LEVEL, rng_seed=_seed(table, 1, 0)
    )
    worst = expected.worst()
    errors: list[str] = []
    with context(chromium) as made:
        watching = seated_page(made, f"{web_base}/t/{table}")
        expect(watching.locator("#results")).to_be_visible()
        expect(watching.locator("#review-open")).to_be_hidden()
        watching.close()

        page = seated_page(made, link, errors)
        expect(page.locator("#results")).to_be_visible()
        page.click("#review-open")
        expect(page.locator("#review-status")).to_have_attribute("data-state", "done")
        expect(page.locator("#replay-bar")).to_be_visible()
        items = page.locator("#review-list li")
        expect(items).to_have_count(len(worst))
        for i, decision in enumerate(worst[:5]):
            expect(items.nth(i)).to_have_attribute("data-index", str(decision.index))
            expect(items.nth(i)).to_have_attribute("data-verdict", decision.verdict)
        dots = page.locator("#review-chart svg circle")
        expect(dots).to_have_count(len([d for d in worst if d.loss is not None]))
        counts = expected.counts()
        expect(page.locator("#review-status")).to_contain_text(
            f"{len(worst)} decisions: {counts['fine']} fine"
        )
        # The costliest decision, chosen from the list: the replay goes to the frame after
        # it, which says what was played, the verdict and (unless it was fine) the better.
        first = worst[0]
        items.nth(0).locator("button").click()
        expect(page.locator("#replay-pos")).to_have_text(f"{first.index + 2} / {frames}")
        step = page.locator("#review-step")
        expect(step).to_have_attribute("data-verdict", first.verdict)
        expect(step).to_contain_text("You played")
        if first.verdict != "fine":
            expect(step).to_contain_text("Better:")
        expect(page.locator(f"#review-chart circle[data-index='{first.index}']")).to_have_class(
            f"verdict-{first.verdict} current"
        )
        # A frame that is not the seat's decision says so.
        page.click("#replay-first")
        expect(step).to_have_text("Step to one of your decisions to see its verdict.")
    assert errors == []
