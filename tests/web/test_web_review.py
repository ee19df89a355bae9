"""The table page's "Review my game" in Chromium (docs/server.md, "Game reviews"): once the
game is over a seated player asks for the review; the replay opens with each of the seat's
decisions listed the costliest first and marked fine, inaccuracy or mistake, the better
choice said, and the chart drawn; a spectator is offered no review. A review the database
could not store in time is said in the panel, and asked for again with its button."""

from __future__ import annotations

import random
import re
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
from server_pieces import locked

LEVEL = "pimc:deals=8"

# Russian counts: the forms of "mistake" and "decision" after 1, 2 and 5.
RUSSIAN = {"ошиб": ("ошибка", "ошибки", "ошибок"), "реше": ("решение", "решения", "решений")}


def russian_form(n: int) -> int:
    """Which form follows ``n``: 0 after 1 (21, 31…), 1 after 2-4 (22…), 2 after the rest."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


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
        for name, one, many in [
            ("inaccuracy", "inaccuracy", "inaccuracies"),
            ("mistake", "mistake", "mistakes"),
        ]:
            said = f"{counts[name]} {one if counts[name] == 1 else many}"
            expect(page.locator("#review-status")).to_contain_text(said)
        # The chart's axes and key, in words; the list's lines say what was done.
        chart = page.locator("#review-chart svg")
        expect(chart.locator("text.axis-label")).to_have_text(["Your decisions", "Chance to win"])
        expect(chart.locator("text.tick").first).to_have_text("0%")
        expect(page.locator("#review-legend li")).to_have_text(
            ["Best choice", "Your choice", "inaccuracy", "mistake"]
        )
        expect(items.first).to_contain_text(re.compile(r"^Move \d+ \(hand \d+, trick \d+\): You "))
        # Each number of the list on its first line: the line is a block, not an inline box
        # that would carry the number down to its last line.
        assert items.first.locator("button").evaluate("b => getComputedStyle(b).display") == "block"
        # The costliest decision, chosen from the list: the replay goes to the frame after
        # it, which says what was played, the verdict and (unless it was fine) the better.
        first = worst[0]
        items.nth(0).locator("button").click()
        expect(page.locator("#replay-pos")).to_have_text(f"{first.index + 2} / {frames}")
        step = page.locator("#review-step")
        expect(step).to_have_attribute("data-verdict", first.verdict)
        # What was done as a sentence ("You knocked", not "You played Knock").
        did = {
            "play": "You played the \\w+ of \\w+",
            "knock": "You knocked",
            "trump": "You named \\w+ trumps",
        }
        do = {"play": "play the \\w+ of \\w+", "knock": "knock", "trump": "name \\w+ trumps"}
        verb = first.chosen.split()[0]
        expect(step).to_contain_text(re.compile(rf"^{did[verb]}: {first.verdict}\."))
        if first.verdict != "fine":
            # The better choice, and what the choice made cost in the player's terms: the
            # chance to win (two players: half the loss in return), not a bare number.
            assert first.loss is not None
            lost = first.loss * 0.5
            chance = f"{lost * 100:.2g}" if lost < 0.1 else f"{lost * 100:.0f}"
            better = do[first.best.split()[0]]
            expect(step).to_contain_text(
                re.compile(rf"Better: {better}, about {re.escape(chance)}% more likely to win\.$")
            )
        expect(page.locator(f"#review-chart circle[data-index='{first.index}']")).to_have_class(
            f"verdict-{first.verdict} current"
        )
        # A frame that is not the seat's decision says so.
        page.click("#replay-first")
        expect(step).to_have_text("Step to one of your decisions to see its verdict.")
    assert errors == []


def test_a_neuf_review_says_deal_and_each_action_as_a_sentence_in_each_language(
    chromium: Browser, tmp_path: Path
) -> None:
    """Neuf's hands are deals at the table, and in its review; the exchange is said as what
    the player did ("You kept your hand"), not as the button's label ("Keep my hand"); the
    chart's axes and key, the counts and every number in the reader's language (Persian
    digits, Russian plural forms). A quick search judges: the words are under test."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDTABLE_REVIEW_LEVEL", "ismcts:iterations=60")
        with served(tmp_path) as base:
            opened = open_table(base, "neuf", [{"kind": "human", "name": "Ana"}, *bots(2)])
            link = invite(base, opened, 0)
            seat = Seat(base, opened["table"], token_of(link))
            seat.play_to_end(random.Random(3))
            seat.close()
            sentences = {
                "en": (
                    r"^Move \d+ \(deal \d+, trick \d+\): ",
                    "You (kept your hand|exchanged your hand for the spare)",
                    "Keep my hand",
                ),
                "ru": (
                    r"^Ход \d+ \(сдача \d+, взятка \d+\): ",
                    "Вы (оставили свои карты|обменяли карты на прикуп)",
                    "Оставить свои карты",
                ),
                "fa": (
                    r"^حرکت [۰-۹]+ \(دور [۰-۹]+، دست [۰-۹]+\): ",
                    "شما کارت‌هایتان را",
                    "نگه داشتن کارت‌هایم",
                ),
            }
            for lang, (where, exchange, button) in sentences.items():
                with context(chromium, lang=lang) as made:
                    page = seated_page(made, link)
                    expect(page.locator("#results")).to_be_visible()
                    page.click("#review-open")
                    status = page.locator("#review-status")
                    expect(status).to_have_attribute("data-state", "done", timeout=60_000)
                    items = page.locator("#review-list li")
                    expect(items.first).to_contain_text(re.compile(where))
                    texts = items.all_inner_texts()
                    assert any(re.search(exchange, text) for text in texts), texts[:3]
                    assert not any(button in text for text in texts)
                    assert not re.search(r"\d\.\d\d\)", " ".join(texts))  # no bare "costs 0.43"
                    ticks = page.locator("#review-chart svg text.tick").all_text_contents()
                    legend = page.locator("#review-legend li").all_inner_texts()
                    assert len(legend) == 4 and all(legend)
                    if lang == "fa":
                        assert not re.search(
                            r"[0-9]", status.inner_text() + "".join(texts) + "".join(ticks)
                        )
                        assert "۱۰۰٪" in ticks
                    if lang == "ru":
                        said = status.inner_text()
                        found = re.findall(r"(\d+) (ошиб\w+|решени\w+)", said)
                        assert found, said
                        for count, word in found:
                            assert word == RUSSIAN[word[:4]][russian_form(int(count))], said


def test_a_review_the_database_could_not_store_is_said_and_asked_for_again(
    chromium: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_REVIEW_LEVEL", LEVEL)
    with served(tmp_path) as base:
        opened = open_table(base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
        link = invite(base, opened, 0)
        seat = Seat(base, opened["table"], token_of(link))
        seat.play_to_end(random.Random(5))
        seat.close()
        errors: list[str] = []
        with context(chromium) as made:
            page = seated_page(made, link, errors)
            expect(page.locator("#results")).to_be_visible()
            status = page.locator("#review-status")
            # Held past the server's patience (5 s) until the page has said so.
            with locked(tmp_path / "table.db", 60.0) as holder:
                page.click("#review-open")
                expect(status).to_have_attribute("data-state", "failed", timeout=50_000)
                holder.release.set()
            expect(status).to_contain_text(
                "The review of game 1 is ready, but the server could not save it just now."
            )
            expect(page.locator("#review")).to_be_visible()
            page.click("#review-again")
            expect(status).to_have_attribute("data-state", "done")
            expect(page.locator("#review-list li").first).to_be_visible()
            expect(page.locator("#review-again")).to_have_count(0)
        assert errors == []


def test_in_persian_the_replay_says_its_game_in_persian_digits_and_opens_clear(
    web_base: str, chromium: Browser
) -> None:
    """The game's end is shown over the table ("Bot 2 wins!") to a page that watched it
    end; opening the replay puts it away (frame 1 is the deal, not the end), and the replay's
    game is named in Persian digits ("بازی ۱", not "بازی 1")."""
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    link = invite(web_base, opened, 0)
    seat = Seat(web_base, opened["table"], token_of(link))
    with context(chromium, lang="fa") as made:
        page = seated_page(made, f"{web_base}{opened['spectate']}")
        seat.play_to_end(random.Random(4))
        seat.close()
        expect(page.locator("#table-area .celebration")).to_be_visible()
        expect(page.locator("#replay-game option")).to_have_text(["بازی ۱"])
        page.click("#replay-open")
        expect(page.locator("#replay-pos")).to_have_text(re.compile("^۱ / "))
        expect(page.locator("#table-area .celebration")).to_have_count(0)


CHART = """async ([of]) => {
  const i18n = await import("/static/i18n.js");
  await i18n.initI18n();
  const { chart } = await import("/static/review.js");
  const decisions = [0, 1, 2].map((index) => ({
    index, loss: 0, verdict: "fine", best: "a", chosen: "a", actions: [{ action: "a", value: 0 }],
  }));
  const svg = chart({ decisions, stake: { chance_of: of, per_return: 0.5, lowest_return: -1 } });
  document.body.append(svg);
  const box = svg.getBoundingClientRect();
  const side = [...svg.querySelectorAll("text.axis-label")].at(-1).getBoundingClientRect();
  const ticks = [...svg.querySelectorAll("text.tick")].map((t) => t.getBoundingClientRect().left);
  return {
    inside: side.top >= box.top && side.bottom <= box.bottom && side.left >= box.left,
    clear: side.right <= Math.min(...ticks),
    label: [...svg.querySelectorAll("text.axis-label")].at(-1).textContent,
  };
}"""


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "fa"])
def test_the_review_charts_side_label_fits_in_every_language(
    web_base: str, chromium: Browser, lang: str
) -> None:
    """The chart's side label ("Шанс не остаться в дураках", Kryt'-navalivat's) lies
    inside the chart, clear of the percentages beside it, in every language."""
    with context(chromium, lang=lang) as made:
        page = made.new_page()
        page.goto(f"{web_base}/")
        for of in ("win", "fool"):
            fit = page.evaluate(CHART, [of])
            assert fit["inside"] and fit["clear"], (of, fit)
