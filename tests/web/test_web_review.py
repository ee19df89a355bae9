"""The table page's "Review my game" in Chromium (docs/server.md, "Game reviews"): once the
game is over a seated player asks for the review; the replay opens with each of the seat's
decisions listed the costliest first and marked fine, inaccuracy or mistake, the better
choice said with what it would have kept in the game's unit (tricks this hand, tricks toward
the quota this deal, the chance of not being the fool), and the chart drawn in that unit; a
spectator is offered no review. A review the database could not store in time is said in
the panel, and asked for again with its button."""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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

LEVEL = "analysis:deals=8,iterations=300"
LOCALES = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "web" / "locales"

# Russian counts: the forms of "mistake" and "decision" after 1, 2 and 5.
RUSSIAN = {"ошиб": ("ошибка", "ошибки", "ошибок"), "реше": ("решение", "решения", "решений")}


def russian_form(n: int) -> int:
    """Which form follows ``n``: 0 after 1 (21, 31…), 1 after 2-4 (22…), 2 after the rest."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


expect.set_options(timeout=EXPECT_MS)


def strings(lang: str) -> Any:
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


def tenths(x: float) -> str:
    """``x`` to a tenth as the page writes it in English (JavaScript's ``Math.round``, which
    rounds a half up): "0.9", "1", "2.3"."""
    return f"{math.floor(x * 10 + 0.5) / 10:g}"


@pytest.fixture(scope="module")
def web_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose reviews solve 8 deals a decision."""
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
        # The chart's axes and key, in words, its values in tricks this hand over their
        # own range, rounded out to whole tricks; the list's lines say what was done.
        chart = page.locator("#review-chart svg")
        labels = chart.locator("text.axis-label")
        expect(labels.first).to_have_text("Your decisions")
        # The side label on two lines, one under the other.
        expect(labels.last.locator("tspan")).to_have_text(["Tricks expected", "this hand"])
        values = [
            v
            for d in worst
            if d.loss is not None
            for v in (d.best_value, d.chosen_value)
            if v is not None
        ]
        side = chart.locator("text.tick[text-anchor='end']")
        expect(side.first).to_have_text(str(math.floor(min(values))))
        ticks = [int(tick) for tick in side.all_text_contents()]
        assert ticks == sorted(ticks) and ticks[-1] >= max(values), ticks
        expect(page.locator("#review-legend li")).to_have_text(
            ["Best choice", "Your choice", "inaccuracy", "mistake"]
        )
        expect(items.first).to_contain_text(
            re.compile(r"^Move \d+ \(hand \d+, (trick \d+|before the first trick)\): You ")
        )
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
        expect(page.locator(f"#review-chart circle[data-index='{first.index}']")).to_have_class(
            f"verdict-{first.verdict} current"
        )
        flagged = [
            d for d in worst if d.verdict in ("inaccuracy", "mistake") and d.best != d.chosen
        ]
        if flagged:  # a seat playing at random is nearly always found at fault
            # The better choice, and what the choice made cost in the game's unit: the tricks
            # it would have taken this hand, to a tenth, not a bare "costs 0.43".
            costliest = flagged[0]
            at = next(i for i, d in enumerate(worst) if d is costliest)
            items.nth(at).locator("button").click()
            expect(step).to_have_attribute("data-verdict", costliest.verdict)
            assert costliest.loss is not None
            tricks = tenths(costliest.loss)
            better = do[costliest.best.split()[0]]
            noun = "trick" if tricks == "1" else "tricks"
            done = did[costliest.chosen.split()[0]]
            # Where the hint would have suggested the move played, a line says so.
            hinted = (
                " The hint would have rated this move as good as any; the review's analysis "
                rf"finds it better to {better}, by about {re.escape(tricks)} {noun}\."
                if costliest.hint_agrees
                else ""
            )
            expect(step).to_contain_text(
                re.compile(
                    rf"^{done}: {costliest.verdict}\. Better: {better}, which would have taken "
                    rf"about {re.escape(tricks)} more {noun} this hand\.{hinted}$"
                )
            )
            expect(step.locator(".review-hint")).to_have_count(int(bool(costliest.hint_agrees)))
        # A frame that is not the seat's decision says so.
        page.click("#replay-first")
        expect(step).to_have_text("Step to one of your decisions to see its verdict.")
    assert errors == []


def test_a_neuf_review_says_deal_and_each_action_as_a_sentence_in_each_language(
    chromium: Browser, tmp_path: Path
) -> None:
    """Neuf's hands are deals at the table, and in its review; the exchange is said as what
    the player did ("You kept your hand"), not as the button's label ("Keep my hand"); a loss
    in tricks toward the quota this deal; the chart's axes (its side in tricks over the
    quota, whole numbers) and key, the counts and every number in the reader's language
    (Persian digits, Russian plural forms). A quick analysis judges: the words are under
    test."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDTABLE_REVIEW_LEVEL", "analysis:iterations=60,deals=4")
        with served(tmp_path) as base:
            opened = open_table(base, "neuf", [{"kind": "human", "name": "Ana"}, *bots(2)])
            link = invite(base, opened, 0)
            seat = Seat(base, opened["table"], token_of(link))
            seat.play_to_end(random.Random(3))
            seat.close()
            sentences = {
                "en": (
                    r"^Move \d+ \(deal \d+, (trick \d+|before the first trick)\): ",
                    r"\(deal \d+, before the first trick\): You (kept your hand|exchanged your "
                    "hand for the spare)",
                    "Keep my hand",
                    r"\. Better: .+, about \d+(\.\d)? more tricks? toward your quota this deal\.$",
                ),
                "ru": (
                    r"^Ход \d+ \(сдача \d+, (взятка \d+|до первой взятки)\): ",
                    r"\(сдача \d+, до первой взятки\): Вы (оставили свои карты|обменяли карты на "
                    "прикуп)",
                    "Оставить свои карты",
                    r"\. Лучше: .+ — примерно на \d+(,\d)? взят(ку|ки|ок) больше в счёт нормы",
                ),
                "fa": (
                    r"^حرکت [۰-۹]+ \(دور [۰-۹]+، (دست [۰-۹]+|پیش از نخستین دست)\): ",
                    r"\(دور [۰-۹]+، پیش از نخستین دست\): شما کارت‌هایتان را",
                    "نگه داشتن کارت‌هایم",
                    r"\. بهتر: .+؛ حدود [۰-۹]+(٫[۰-۹])? دست بیشتر به حساب سهمیه‌تان در این دور\.$",
                ),
            }
            for lang, (where, exchange, button, better) in sentences.items():
                with context(chromium, lang=lang) as made:
                    page = seated_page(made, link)
                    expect(page.locator("#results")).to_be_visible()
                    page.click("#review-open")
                    status = page.locator("#review-status")
                    expect(status).to_have_attribute("data-state", "done", timeout=60_000)
                    items = page.locator("#review-list li")
                    expect(items.first).to_contain_text(re.compile(where))
                    # Each item's line (a note of the hint's under it aside: below).
                    texts = items.locator("button").all_inner_texts()
                    notes = page.locator("#review-list .review-hint").all_inner_texts()
                    assert any(re.search(exchange, text) for text in texts), texts[:3]
                    assert not any(button in text for text in texts)
                    assert not re.search(r"\d\.\d\d\)", " ".join(texts))  # no bare "costs 0.43"
                    # Every decision found at fault says the better choice and its tricks.
                    verdicts = items.evaluate_all("(li) => li.map((i) => i.dataset.verdict)")
                    faults = [
                        text
                        for text, verdict in zip(texts, verdicts, strict=True)
                        if verdict in ("inaccuracy", "mistake")
                    ]
                    # (A seat playing at random over a whole game: always some.)
                    assert faults and all(re.search(better, text) for text in faults), texts[:3]
                    ticks = page.locator("#review-chart svg text.tick").all_text_contents()
                    side = page.locator("#review-chart svg text.axis-label").last
                    lines = side.locator("tspan").all_text_contents()
                    assert " ".join(lines) == strings(lang)["review"]["axis_points"], lines
                    legend = page.locator("#review-legend li").all_inner_texts()
                    assert len(legend) == 4 and all(legend)
                    # Tricks, not a chance: whole numbers, no percent sign.
                    assert ticks and not any("%" in tick or "٪" in tick for tick in ticks)
                    if lang == "fa":
                        assert not re.search(
                            r"[0-9]",
                            status.inner_text() + "".join(texts + notes) + "".join(ticks),
                        )
                        assert all(re.search(r"[۰-۹]", tick) for tick in ticks), ticks
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


CHART = """async ([unit, values]) => {
  const i18n = await import("/static/i18n.js");
  await i18n.initI18n();
  const { chart } = await import("/static/review.js");
  const decisions = values.map((value, index) => ({
    index, loss: 0, verdict: "fine", best: "a", chosen: "a", actions: [{ action: "a", value }],
  }));
  const svg = chart({ unit, decisions });
  document.body.append(svg);
  const box = svg.getBoundingClientRect();
  const side = [...svg.querySelectorAll("text.axis-label")].at(-1).getBoundingClientRect();
  const ticks = [...svg.querySelectorAll("text.tick")].map((t) => t.getBoundingClientRect().left);
  const label = [...svg.querySelectorAll("text.axis-label")].at(-1);
  return {
    inside: side.top >= box.top && side.bottom <= box.bottom && side.left >= box.left,
    clear: side.right <= Math.min(...ticks),
    label: [...label.querySelectorAll("tspan")].map((t) => t.textContent).join(" "),
    ticks: [...svg.querySelectorAll("text.tick[text-anchor='end']")].map((t) => t.textContent),
    dots: [...svg.querySelectorAll("circle")].map((c) => Number(c.getAttribute("cy"))),
  };
}"""

# Each unit's values and the side of the chart they make: a chance from 0 to 100%; tricks
# over their own range rounded out to whole tricks (Neuf's below the quota too).
SCALES = {
    "not_fool": ([0.2, 0.9, 0.55], ["0%", "50%", "100%"], "axis_fool"),
    "tricks": ([1.4, 2.6, 0.3], ["0", "1", "2", "3"], "axis_tricks"),
    "points": ([-1.5, 0.25, -0.5], ["-2", "-1", "0", "1"], "axis_points"),
}


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "fa"])
def test_the_review_charts_side_label_fits_in_every_language(
    web_base: str, chromium: Browser, lang: str
) -> None:
    """The chart's side label ("Шанс не остаться в дураках", Kryt'-navalivat's; the tricks
    of the trick games) lies inside the chart, clear of the numbers beside it, in every
    language; the side's scale is the unit's."""
    with context(chromium, lang=lang) as made:
        page = made.new_page()
        page.goto(f"{web_base}/")
        for unit, (values, ticks, key) in SCALES.items():
            fit = page.evaluate(CHART, [unit, values])
            assert fit["inside"] and fit["clear"], (unit, fit)
            assert fit["label"] == strings(lang)["review"][key], (unit, fit)
            if lang == "en":
                assert fit["ticks"] == ticks, (unit, fit)
                # Higher values higher up: the dots in the order of the values.
                order = sorted(range(len(values)), key=lambda i: values[i])
                assert sorted(range(len(values)), key=lambda i: -fit["dots"][i]) == order, fit


# A review sent to the page as the server would, its losses in each unit: what the page says.
SEND = """async ([review]) => {
  const m = await import("/static/review.js");
  document.getElementById("review").dataset.game = "";  // drawn again, for another review
  m.onReviewMessage({ type: "review", game: 1, review });
}"""


def sent_review(game: str, unit: str, losses: list[float]) -> dict[str, Any]:
    """A review of ``game`` in ``unit`` whose decisions each threw ``play 2C`` away for
    ``play AS`` at one of ``losses``, the first the costliest."""
    decisions = [
        {
            "index": index,
            "hand": 1,
            "trick": index + 1,
            "actions": [
                {"action": "play AS", "value": 3.0, "visits": 8, "error": 0.0},
                {"action": "play 2C", "value": 3.0 - loss, "visits": 8, "error": 0.01},
            ],
            "chosen": "play 2C",
            "best": "play AS",
            "loss": loss,
            "noise": 0.02,
            "verdict": "mistake",
        }
        for index, loss in enumerate(losses)
    ]
    counts = {"fine": 0, "inaccuracy": 0, "mistake": len(losses), "unrated": 0}
    return {
        "game": game,
        "unit": unit,
        "version": 2,
        "seat": 0,
        "counts": counts,
        "decisions": decisions,
    }


def test_a_loss_is_said_in_the_games_unit_in_its_plural(web_base: str, chromium: Browser) -> None:
    """The better choice and what it would have kept: tricks this hand (Knockout Whist),
    tricks toward the quota this deal (Neuf), to a tenth and in the plural their number
    takes ("1 more trick", "взяли бы на 5 взяток больше", "на 1,5 взятки"); the chance of not
    being the fool as a percentage (Kryt'-navalivat')."""
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    link = invite(web_base, opened, 0)
    seat = Seat(web_base, opened["table"], token_of(link))
    seat.play_to_end(random.Random(6))
    seat.close()
    played = "You played the two of clubs: mistake. Better: play the ace of spades, "
    took = played + "which would have taken about {} this hand."
    quota = played + "about {} toward your quota this deal."
    cases = {
        "en": [
            ("knockout-whist", "tricks", 1.0, took.format("1 more trick")),
            ("knockout-whist", "tricks", 2.34, took.format("2.3 more tricks")),
            ("neuf", "points", 0.5, quota.format("0.5 more tricks")),
            ("neuf", "points", 1.04, quota.format("1 more trick")),
            ("kryt-navalivat", "not_fool", 0.12, played + "about 12% less likely to be the fool."),
        ],
        "ru": [
            ("knockout-whist", "tricks", 1.0, "взяли бы примерно на 1 взятку больше в этой сдаче."),
            ("knockout-whist", "tricks", 2.0, "взяли бы примерно на 2 взятки больше в этой сдаче."),
            ("knockout-whist", "tricks", 5.0, "взяли бы примерно на 5 взяток больше в этой сдаче."),
            ("neuf", "points", 1.5, "примерно на 1,5 взятки больше в счёт нормы в этой сдаче."),
        ],
    }
    for lang, said in cases.items():
        with context(chromium, lang=lang) as made:
            page = seated_page(made, link)
            expect(page.locator("#results")).to_be_visible()
            for game, unit, loss, words in said:
                page.evaluate(SEND, [sent_review(game, unit, [loss])])
                item = page.locator("#review-list li")
                expect(item).to_have_count(1)
                expect(item).to_contain_text(words)


# The note under a fault on the move the hint would have suggested, in each language: the
# review's better move (the ace of spades, in the case the sentence needs) and its gap.
HINT_NOTES = {
    "en": (
        "The hint would have rated this move as good as any; the review's analysis finds it "
        "better to play the ace of spades, by about 1.2 tricks."
    ),
    "fr": (
        "Le conseil aurait jugé ce coup aussi bon que le meilleur\u202f; l’analyse trouve "
        "qu’il valait mieux jouer l’as de pique\u00a0: environ 1,2 pli de plus."
    ),
    "ru": (
        "Подсказка сочла бы этот ход не хуже лучшего; разбор находит, что лучше было "
        "положить туза пик — примерно на 1,2 взятки больше."
    ),
    "fa": (
        "از نظر راهنمایی این حرکت به خوبی بهترین حرکت بود؛ اما بررسی، بازی کردن آس پیک را "
        "حدود ۱٫۲ دست بهتر می\u200cداند."
    ),
}


def test_a_fault_on_the_move_the_hint_suggests_says_the_two_disagree(
    web_base: str, chromium: Browser
) -> None:
    """A decision the review finds at fault where the hint would have suggested the move
    played (``hint_agrees``) says so under it, in the list and beside the replay, with the
    review's better move and what it would have kept; a fault where the hint suggested
    another move, and one of a review stored before the hint was asked, say nothing of it."""
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    link = invite(web_base, opened, 0)
    seat = Seat(web_base, opened["table"], token_of(link))
    seat.play_to_end(random.Random(7))
    seat.close()
    sent = sent_review("knockout-whist", "tricks", [1.24, 0.9, 0.8])
    agreed, apart, old = sent["decisions"]
    agreed |= {"hint": "play 2C", "hint_agrees": True}
    apart |= {"hint": "play AS", "hint_agrees": False}
    assert "hint" not in old  # stored before decisions carried the hint's word
    for lang, note in HINT_NOTES.items():
        errors: list[str] = []
        with context(chromium, lang=lang) as made:
            page = seated_page(made, link, errors)
            expect(page.locator("#results")).to_be_visible()
            page.evaluate(SEND, [sent])
            items = page.locator("#review-list li")
            expect(items).to_have_count(3)
            hints = page.locator("#review-list .review-hint")
            expect(hints).to_have_count(1)
            expect(items.nth(0).locator(".review-hint")).to_have_count(1)
            assert items.nth(0).locator(".review-hint").text_content() == note
            # Under the item's own line, not in it.
            assert note not in (items.nth(0).locator("button").text_content() or "")
            items.nth(0).locator("button").click()
            step = page.locator("#review-step")
            expect(step.locator(".review-hint")).to_have_count(1)
            assert step.locator(".review-hint").text_content() == note
            items.nth(1).locator("button").click()
            expect(step).to_have_attribute("data-verdict", "mistake")
            expect(step.locator(".review-hint")).to_have_count(0)
            items.nth(2).locator("button").click()
            expect(step.locator(".review-hint")).to_have_count(0)
        assert errors == [], (lang, errors)
    # Kryt'-navalivat': the gap as the chance of not being the fool.
    fool = sent_review("kryt-navalivat", "not_fool", [0.12])
    fool["decisions"][0] |= {"hint": "play 2C", "hint_agrees": True}
    with context(chromium) as made:
        page = seated_page(made, link)
        expect(page.locator("#results")).to_be_visible()
        page.evaluate(SEND, [fool])
        hint = page.locator("#review-list .review-hint")
        expect(hint).to_have_text(
            "The hint would have rated this move as good as any; the review's analysis finds "
            "it better to play the ace of spades: about 12% less likely to be the fool."
        )
