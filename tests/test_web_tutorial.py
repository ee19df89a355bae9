"""The "Learn to play" tutorials in a real Chromium: each game's tutorial opened from the
lobby and played through to its end by clicking the real cards and buttons, with one wrong
move that is refused with the lesson's reason and then retried; progress kept over a reload.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_pieces import context, open_page

GAMES = ["knockout-whist", "neuf", "kryt-navalivat"]
CARD_VERBS = {"play", "lead", "beat", "cover"}


def awaited_move(page: Page) -> str:
    """The move the lesson asks for, once the learner's hand or buttons show it; "" once
    the script is done (the bots may play its last steps after the learner's last move)."""
    page.wait_for_selector(
        "#lesson[data-expect]:not([data-expect='']), #lesson[data-done='true']", state="attached"
    )
    expected = page.get_attribute("#lesson", "data-expect") or ""
    if not expected:
        return ""
    verb, _, card = expected.partition(" ")
    if card and verb in CARD_VERBS:
        page.wait_for_selector(f"#hand .card-btn.legal.lesson-move[data-card='{card}']")
    else:
        page.wait_for_selector(f"#actions .lesson-move[data-action='{expected}']")
    return expected


def make(page: Page, action: str) -> None:
    """Click the move as a player would: its card (and the card's menu), or its button."""
    verb, _, card = action.partition(" ")
    if card and verb in CARD_VERBS:
        page.click(f"#hand .card-btn[data-card='{card}']")
        if page.is_visible("#card-menu"):
            page.click(f"#card-menu button[data-action='{action}']")
    else:
        page.click(f"#actions button[data-action='{action}']")


def wrong_move(page: Page, expected: str) -> None:
    """A legal move that is not the lesson's: another playable card or another button."""
    other = page.locator("#hand .card-btn.legal:not(.lesson-move)")
    if other.count():
        other.first.click()
        if page.is_visible("#card-menu"):
            page.locator(
                f"#card-menu button[data-action]:not([data-action='{expected}'])"
            ).first.click()
    else:
        page.locator("#actions button[data-action]:not(.lesson-move)").first.click()


@pytest.mark.parametrize("game", GAMES)
def test_tutorial_played_through(chromium: Browser, web_base: str, game: str) -> None:
    errors: list[str] = []
    with context(chromium) as made:
        page = open_page(made, f"{web_base}/", errors)
        page.click(f"#learn a[data-learn='{game}']")
        page.wait_for_url(f"**/learn/{game}")
        expect(page.locator("#lesson-intro")).not_to_be_empty()
        first = awaited_move(page)
        # A legal move that is not the lesson's: refused with the lesson's reason, then retried.
        wrong_move(page, first)
        expect(page.locator("#lesson-why")).to_be_visible()
        expect(page.locator("#banner")).to_have_attribute("data-code", "not_the_lesson")
        expect(page.locator("#lesson")).to_have_attribute("data-step", "0")
        moves = 0
        while page.get_attribute("#lesson", "data-done") != "true":
            step = page.get_attribute("#lesson", "data-step")
            expected = awaited_move(page)
            if not expected:
                break
            make(page, expected)
            moves += 1
            page.wait_for_function(
                "(step) => { const l = document.getElementById('lesson');"
                " return l.dataset.step !== step || l.dataset.done === 'true'; }",
                arg=step,
            )
            assert moves < 80, "the tutorial did not end"
        expect(page.locator("#lesson-text")).not_to_be_empty()
        expect(page.locator("#lesson-play")).to_be_visible()
        stored = page.evaluate("JSON.parse(localStorage.getItem('cardtable.tutorials'))")
        assert stored[game]["done"] is True
        # Not a fair table (docs/fairness.md): its decks are the script's. The page gives no
        # seed and shows no fair-deal proof, and the decks' commitments it checks hold.
        assert page.locator("#fair").count() == 0
        assert page.get_attribute("#verify", "data-state") != "bad"
        assert page.locator("#verify li.bad").count() == 0
        keys = page.evaluate("Object.keys(localStorage)")
        assert not [k for k in keys if k.startswith("cardtable.seed.")]
        assert errors == []


def test_progress_resumes_after_reload(chromium: Browser, web_base: str, tmp_path: Path) -> None:
    with context(chromium) as made:
        page = open_page(made, f"{web_base}/rules/knockout-whist")
        page.click("#learn-link")
        page.wait_for_url("**/learn/knockout-whist")
        for _ in range(2):
            make(page, awaited_move(page))
            page.wait_for_function(
                "() => document.getElementById('lesson').dataset.expect === ''"
                " || document.getElementById('lesson').dataset.step !== '0'"
            )
        awaited_move(page)
        step = page.get_attribute("#lesson", "data-step")
        assert step is not None and int(step) > 0
        hand = sorted(
            page.locator("#hand .card-btn").evaluate_all("bs => bs.map(b => b.dataset.card)")
        )
        page.reload()
        expect(page.locator("#lesson")).to_have_attribute("data-step", step)
        awaited_move(page)
        again = sorted(
            page.locator("#hand .card-btn").evaluate_all("bs => bs.map(b => b.dataset.card)")
        )
        assert again == hand
        # Starting again goes back to the first move.
        page.click("#lesson-restart")
        expect(page.locator("#lesson")).to_have_attribute("data-step", "0")
