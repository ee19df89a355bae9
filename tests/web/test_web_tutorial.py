"""The "Learn to play" tutorials in a real Chromium: each game's tutorial opened from the
lobby and played through to its end by clicking the real cards and buttons, with one wrong
move that is refused with the lesson's reason and then retried; progress kept over a reload;
a wrong move said in Persian and Russian; the hand in view at every step on a phone.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_pieces import BOXES, CHROME, chrome_problems, context, open_page, overlap

GAMES = ["knockout-whist", "neuf", "kryt-navalivat"]
CARD_VERBS = {"play", "lead", "beat", "cover"}
LOCALES = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "web" / "locales"


def words(lang: str, key: str) -> Any:
    data: Any = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    for part in key.split("."):
        data = data[part]
    return data


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
        # Every step says why its move is the one to make.
        why = page.locator("#lesson-reason").inner_text()
        assert why and why != page.locator("#lesson-move").inner_text()
        if game == "knockout-whist":
            # One deck dealt so far: hand 2's is dealt with hand 2, not at the first move.
            assert "Hand 2" not in page.locator("#log").inner_text()
            assert page.locator("#verify li[data-hand='2']").count() == 0
        # A legal move that is not the lesson's: refused with the lesson's reason, then retried.
        wrong_move(page, first)
        expect(page.locator("#lesson-why")).to_be_visible()
        expect(page.locator("#lesson-why")).to_contain_text(why)
        expect(page.locator("#banner")).to_have_attribute("data-code", "not_the_lesson")
        assert "is legal" not in page.locator("#banner-text").inner_text()
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
        # The lesson ends with ideas of good play, one at a time.
        expect(page.locator("#lesson-tips")).to_be_visible()
        first_tip = page.locator("#lesson-tip").inner_text()
        page.click("#lesson-next-tip")
        expect(page.locator("#lesson-tips")).to_have_attribute("data-tip", "1")
        assert page.locator("#lesson-tip").inner_text() not in ("", first_tip)
        if game == "knockout-whist":
            # Both scripted decks are revealed once their hands are over, and checked.
            for hand in ("1", "2"):
                page.wait_for_selector(f"#verify li.ok[data-hand='{hand}']", state="attached")
        stored = page.evaluate("JSON.parse(localStorage.getItem('cardtable.tutorials'))")
        assert stored[game]["done"] is True
        # Not a fair table (docs/fairness.md): its decks are the script's. The page gives no
        # seed and shows no fair-deal proof, and the decks' commitments it checks hold.
        assert page.locator("#fair").count() == 0
        expect(page.locator("#fair-badge")).to_be_hidden()  # no badge where nothing is proven
        assert page.get_attribute("#verify", "data-state") != "bad"
        assert page.locator("#verify li.bad").count() == 0
        keys = page.evaluate("Object.keys(localStorage)")
        assert not [k for k in keys if k.startswith("cardtable.seed.")]
        assert errors == []


def test_the_rules_pages_links_lead_on_before_its_words_arrive(
    chromium: Browser, web_base: str
) -> None:
    """A reader who clicks "Learn to play" while the page's words are still on their way
    reaches the lesson, not the lobby."""
    with context(chromium) as made:
        page = made.new_page()
        held: list[Route] = []
        page.route("**/static/locales/*.json", lambda route: held.append(route))  # after the click
        page.goto(f"{web_base}/rules/knockout-whist")
        page.click("#learn-link")
        page.wait_for_url("**/learn/knockout-whist")
        for route in held:
            route.continue_()


def test_progress_resumes_after_reload(chromium: Browser, web_base: str, tmp_path: Path) -> None:
    with context(chromium) as made:
        page = open_page(made, f"{web_base}/rules/knockout-whist")
        page.click("#learn-link")
        page.wait_for_url("**/learn/knockout-whist")
        for _ in range(2):
            move = awaited_move(page)
            before = page.get_attribute("#lesson", "data-step")
            make(page, move)
            # The lesson moves on past this step (or ends): only then is the next move
            # the one it asks for (a slow server answers after the click returns).
            page.wait_for_function(
                "before => document.getElementById('lesson').dataset.expect === ''"
                " || document.getElementById('lesson').dataset.step !== before",
                arg=before,
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


@pytest.mark.parametrize("lang", ["fa", "ru"])
@pytest.mark.parametrize(
    ("game", "wrong", "said"),
    [
        ("knockout-whist", "play 6S", "refusal.lesson_card"),
        ("neuf", "keep", "refusal.lesson_move"),
    ],
)
def test_a_wrong_move_is_said_in_the_readers_language(
    chromium: Browser, web_base: str, lang: str, game: str, wrong: str, said: str
) -> None:
    """The refusal comes as a code with the move asked for and the move made, and the page
    says it in its reader's words (a Russian card in the accusative), then the step's why."""
    expected = {
        ("fa", "knockout-whist"): "این درس اینجا آس پیک را می‌خواهد، نه شش پیک را.",
        ("ru", "knockout-whist"): "Здесь урок просит туза пик, а не шестёрку пик.",
        ("fa", "neuf"): (
            "این درس اینجا حرکت دیگری می‌خواهد: عوض کردن کارت‌هایتان با کارت‌های اضافه، "
            "نه نگه داشتن کارت‌هایتان."
        ),
        ("ru", "neuf"): "Здесь урок просит обменять руку на запасную, а не оставить свою руку.",
    }[(lang, game)]
    why = {"knockout-whist": "tutorial.kow.why.lead_ace", "neuf": "tutorial.neuf.why.weak_hand"}
    with context(chromium, lang=lang) as made:
        page = open_page(made, f"{web_base}/learn/{game}")
        awaited_move(page)
        make(page, wrong)
        expect(page.locator("#lesson-why")).to_have_text(f"{expected} {words(lang, why[game])}")
        expect(page.locator("#banner")).to_have_attribute("data-code", "not_the_lesson")
        expect(page.locator("#banner")).to_have_attribute("data-reason", said.split(".")[1])
        expect(page.locator("#banner-text")).to_have_text(expected)
        expect(page.locator("#lesson")).to_have_attribute("data-step", "0")


# The cards in the middle of the table that the lesson's words name ("the king of clubs" in
# "Your two of clubs would lose to the king of clubs"), with where they are and where the
# dock at the window's foot begins.
NAMED = """() => {
  const words = document.getElementById('lesson').textContent.toLowerCase();
  const dock = document.getElementById('lesson-dock').getBoundingClientRect();
  return [...document.querySelectorAll('#center .card')].flatMap((card) => {
    const face = card.querySelector('[aria-label]');
    const name = face ? face.getAttribute('aria-label').toLowerCase() : '';
    if (!name || !words.includes(name)) return [];
    const r = card.getBoundingClientRect();
    const seen = r.width > 0 && r.top >= 0 && r.bottom <= Math.min(innerHeight, dock.top + 1);
    return [{ card: card.dataset.card, name, top: r.top, bottom: r.bottom, dock: dock.top, seen }];
  });
}"""


def named_cards_out_of_view(page: Page) -> list[dict[str, Any]]:
    """The middle's cards the lesson names that are not in the window above the dock, once
    the page has drawn the step (and scrolled the middle into view, where it must)."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"() => ({NAMED})().every((c) => c.seen)", timeout=3000)
    hidden: list[dict[str, Any]] = [c for c in page.evaluate(NAMED) if not c["seen"]]
    return hidden


# Each game at both sizes, and in Persian (right to left) at the narrower, where it is
# tightest: a lesson played through is a dozen seconds, so not every pairing.
@pytest.mark.parametrize(
    ("lang", "size"), [("en", (375, 667)), ("fa", (320, 568))], ids=["en-375x667", "fa-320x568"]
)
@pytest.mark.parametrize("game", GAMES)
def test_the_hand_stays_in_view_on_a_phone(
    chromium: Browser, web_base: str, game: str, lang: str, size: tuple[int, int]
) -> None:
    """On a phone (375x667 and 320x568), however long the lesson's text, at every step: the
    cards in the middle that the lesson names are in the window and not under the dock that
    holds the hand (the king of clubs of Knockout Whist's knock), no seat's box overlaps what
    the middle shows (Kryt'-navalivat''s pile and its labels), the header is one row and the
    seats' names are on one line; and, scrolled to the top, the learner's hand and the card or
    button the lesson asks for are inside the window."""
    inside = """(el) => { const r = el.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.left >= 0
        && r.bottom <= innerHeight && r.right <= innerWidth; }"""
    width, height = size
    problems: list[str] = []
    with context(chromium, lang=lang, width=width, height=height) as made:
        page = open_page(made, f"{web_base}/learn/{game}")
        moves = 0
        named = 0
        while (expected := awaited_move(page)) != "":
            at = page.get_attribute("#lesson", "data-step")
            where = f"{game} {lang} {width}x{height} step {at}"
            hidden = named_cards_out_of_view(page)
            problems += [f"{where}: {c['name']} is out of view: {c}" for c in hidden]
            named += len(page.evaluate(NAMED))
            boxes = page.evaluate(BOXES)
            problems += [
                f"{where}: seat {seat['name']} overlaps {item['name']}"
                for seat in boxes["seats"]
                for item in boxes["middle"]
                if overlap(seat, item) > 4.0
            ]
            problems += [f"{where}: {p}" for p in chrome_problems(page.evaluate(CHROME))]
            page.evaluate("window.scrollTo(0, 0)")
            assert page.locator("#hand").evaluate(inside), (game, lang, expected)
            assert page.locator(".lesson-move").evaluate(inside), (
                game,
                lang,
                expected,
                page.locator(".lesson-move").evaluate(
                    "(el) => [el.outerHTML.slice(0, 80),"
                    " JSON.stringify(el.getBoundingClientRect()),"
                    " getComputedStyle(document.getElementById('lesson-dock')).position]"
                ),
            )
            step = page.get_attribute("#lesson", "data-step")
            make(page, expected)
            moves += 1
            page.wait_for_function(
                "(step) => { const l = document.getElementById('lesson');"
                " return l.dataset.step !== step || l.dataset.done === 'true'; }",
                arg=step,
            )
            assert moves < 80, "the tutorial did not end"
    # Neuf's lessons name the learner's own cards alone.
    assert named or game == "neuf", "no lesson named a card in the middle"
    assert problems == []


@pytest.mark.parametrize(
    ("lang", "played", "seat"),
    [
        ("en", "You play the ace of spades.", "You"),
        ("ru", "Вы ходите тузом пик.", "Вы"),
    ],
)
def test_the_learner_is_you_in_the_log(
    chromium: Browser, web_base: str, lang: str, played: str, seat: str
) -> None:
    """A lesson's learner has no name: the seat and the log call them "you", in the second
    person ("You play the ace of spades.", KOW-4.1's lead), never "Seat 1"."""
    with context(chromium, lang=lang) as made:
        page = open_page(made, f"{web_base}/learn/knockout-whist")
        expected = awaited_move(page)
        assert expected == "play AS"
        make(page, expected)
        expect(page.locator("#log")).to_contain_text(played)
        me = page.locator("#seats .seat.me")
        expect(me.locator(".n")).to_have_text(seat)
        expect(me.locator(".you")).to_have_count(0)
        log = page.locator("#log").inner_text()
        assert words(lang, "seat_n").replace("{n}", "1") not in log, log
