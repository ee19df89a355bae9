"""What the table shows that a click depends on: Neuf's spare on the felt (NEUF-2.3, NEUF-3)
and a hint's panel and badges (docs/server.md, "Hints"), in a real browser against
`cardtable serve`.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_pieces import (
    BOXES,
    EXPECT_MS,
    WEB,
    Box,
    Seat,
    bots,
    context,
    invite,
    open_table,
    overlap,
    seated_page,
    token_of,
)

expect.set_options(timeout=EXPECT_MS)

SIZES = [(1280, 800), (375, 667), (320, 568)]

# "Spare: 13 cards" in each language: 13 is Russian's "many" form, the others' "other".
SPARE_13 = {
    lang: json.loads((WEB / "locales" / f"{lang}.json").read_text(encoding="utf-8"))["neuf"][
        "spare_n"
    ]["many" if lang == "ru" else "other"].replace("{count}", "۱۳" if lang == "fa" else "13")
    for lang in ("en", "fr", "ru", "fa")
}

# The felt, the spare's pieces and what they must keep clear of, in page coordinates.
SPARE_BOXES = """
() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    const name = el.id || el.dataset.card || el.dataset.seat || el.className;
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height, name };
  };
  const shown = (e) => e.getClientRects().length > 0;
  const all = (sel) => [...document.querySelectorAll(sel)].filter(shown).map(box);
  return {
    felt: box(document.querySelector('#table-area .felt')),
    spare: all('#center .spare .card, #center .spare-label'),
    seats: all('#seats .seat'),
    hand: all('#hand .card-btn'),
    trick: all('#center .trick .card'),
  };
}
"""


def inside_felt(piece: Box, felt: Box) -> bool:
    """Whether `piece` lies on the felt: each of its corners inside the ellipse the felt's
    box holds (the felt's rounded shape contains that ellipse)."""
    cx, cy = felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] / 2
    a, b = felt["width"] / 2, felt["height"] / 2
    corners = [
        (piece["x"] + dx, piece["y"] + dy)
        for dx in (0, piece["width"])
        for dy in (0, piece["height"])
    ]
    return all(((x - cx) / a) ** 2 + ((y - cy) / b) ** 2 <= 1.0 for x, y in corners)


def spare_problems(page: Page, size: tuple[int, int]) -> list[str]:
    """What is wrong with where the spare lies: off the felt, on a seat, on the hand or on a
    trick's card."""
    boxes: dict[str, Any] = page.evaluate(SPARE_BOXES)
    problems = []
    assert boxes["spare"], "no spare on the felt"
    for piece in boxes["spare"]:
        if not inside_felt(piece, boxes["felt"]):
            problems.append(f"{size}: {piece['name']} is off the felt: {piece}")
        for group in ("seats", "hand", "trick"):
            for other in boxes[group]:
                if overlap(piece, other) > 4.0:
                    problems.append(f"{size}: {piece['name']} overlaps {group} {other['name']}")
    # The side seats' columns, down to the table's bottom, stay clear of the middle too
    # (test_web_browser.py, column_problems): BOXES counts the spare in the middle.
    middle = page.evaluate(BOXES)["middle"]
    assert any("spare-label" in str(m["name"]) for m in middle), middle
    return problems


def check_spare(page: Page, size: tuple[int, int], *, aside: bool, lang: str = "en") -> list[str]:
    """NEUF-2.3: the spare is 13 cards, face down; its count written beside it."""
    spare = page.locator("#center .spare")
    expect(spare).to_have_count(1)
    expect(spare).to_be_visible()
    expect(spare).to_have_attribute("data-count", "13")
    expect(spare.locator(".card.back")).to_have_count(13)
    # Face down: not one face shows (NEUF-3.5: no one may look at it).
    expect(spare.locator("[data-card]")).to_have_count(0)
    expect(spare.locator(".spare-count")).to_have_text(SPARE_13[lang])
    expect(spare).to_have_class(re.compile(r"\baside\b") if aside else re.compile(r"^spare$"))
    return spare_problems(page, size)


def view_of(page: Page) -> dict[str, Any]:
    view: dict[str, Any] = page.evaluate("import('/static/table_state.js').then((m) => m.st.view)")
    return view


def test_neufs_spare_lies_face_down_on_the_felt_through_the_exchange_and_the_deal(
    web_base: str, chromium: Browser
) -> None:
    """NEUF-2.3, NEUF-3.2, NEUF-3.4, NEUF-3.5: at the person's decision the 13 cards of the
    spare lie face down in the middle of the felt, counted, at 1280x800 and on a phone
    (375x667, 320x568), inside the felt and clear of the seats and the hand. Once everyone
    has decided, the final spare is set aside face down, still 13, clear of the trick's
    cards; it says whose old hand it is (who exchanged, in order, is public: NEUF-9)."""
    opened = open_table(web_base, "neuf", [{"kind": "human", "name": "Ana"}, *bots(2)])
    link = invite(web_base, opened, 0)
    problems: list[str] = []
    exchange = [
        *((size, "en") for size in SIZES),
        *((SIZES[2], lang) for lang in ("fr", "ru", "fa")),
    ]
    for (width, height), lang in exchange:
        with context(chromium, lang=lang, width=width, height=height) as made:
            page = seated_page(made, link)
            expect(page.locator("#actions button[data-action='exchange']")).to_be_visible()
            problems += [
                f"{lang}: {p}" for p in check_spare(page, (width, height), aside=False, lang=lang)
            ]
    with context(chromium) as made:
        page = seated_page(made, link)
        page.click("#actions button[data-action='exchange']")
        expect(page.locator("#center .spare.aside")).to_be_visible()
        # The play has begun: the person leads or follows (NEUF-4.1), a trick's card is down.
        expect(page.locator("#hand .card-btn.legal").first).to_be_visible()
        if not page.locator("#center .trick .card").count():
            page.locator("#hand .card-btn.legal").first.click()
        expect(page.locator("#center .trick .card").first).to_be_visible()
        problems += check_spare(page, (1280, 800), aside=True)
        view = view_of(page)
        assert view["phase"] == "play", view["phase"]
        exchanged = [seat for seat, choice in view["exchanges"] if choice == "exchange"]
        assert exchanged and 0 in exchanged, view["exchanges"]
        spare = page.locator("#center .spare")
        expect(spare).to_have_attribute("data-from", str(exchanged[-1]))
        if exchanged[-1] == 0:
            expect(spare).to_contain_text("your old hand")
        else:
            expect(spare).to_contain_text(f"Bot {exchanged[-1] + 1}’s old hand")
    # On a phone, in each language: the longest words, beside a trick's cards.
    for (width, height), lang in [(SIZES[1], "en"), *((SIZES[2], lang) for lang in SPARE_13)]:
        with context(chromium, lang=lang, width=width, height=height) as made:
            page = seated_page(made, link)
            expect(page.locator("#center .trick .card").first).to_be_visible()
            problems += [
                f"{lang}: {p}" for p in check_spare(page, (width, height), aside=True, lang=lang)
            ]
    assert problems == []


def test_neufs_four_player_game_has_no_spare_on_the_felt(web_base: str, chromium: Browser) -> None:
    """NEUF-8.4: with four players there is no spare and no exchange: nothing of one is drawn."""
    opened = open_table(
        web_base, "neuf", [{"kind": "human", "name": "Ana"}, *bots(3)], {"players": 4}
    )
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        expect(page.locator("#center .trick")).to_have_count(1)
        expect(page.locator("#center .spare")).to_have_count(0)


# ---------------------------------------------------------------- hints

# A badge's text that is a zero however it is signed or written: "0", "-0", "−0", "-0.0",
# "0%", "۰", "‎−۰٫۰", "+0".
ZERO = re.compile(r"^[+\-−‐–]?\s*[0۰]([.,٫][0۰]*)?\s*[%٪]?$")
MARKS = re.compile(r"[\u200e\u200f\u061c\u00a0\u202f\s]")


def zero_like(text: str) -> bool:
    return bool(ZERO.match(MARKS.sub("", text)))


def test_zero_like_reads_every_way_of_writing_zero() -> None:
    for text in ("0", "-0", "−0", "-0.0", "0.0", "+0", "0%", "-0 %", "۰", "\u200e−۰", "−۰٫۰"):
        assert zero_like(text), text
    for text in ("-0.1", "−1", "≈ best", "2.4 points", "-5%", "\u200e−۰٫۳"):
        assert not zero_like(text), text


def to_a_choice_of_cards(web_base: str, choices: int = 2) -> str:
    """A Neuf table where the person (seat 0), after keeping their hand, is to play a card
    with a choice of `choices` or more; its link."""
    opened = open_table(web_base, "neuf", [{"kind": "human", "name": "Ana"}, *bots(2)])
    link = invite(web_base, opened, 0)
    seat = Seat(web_base, opened["table"], token_of(link))
    seat.settle()
    rng = random.Random(7)
    while seat.view["phase"] != "play" or len(seat.view["legal_actions"]) < choices:
        legal = seat.view["legal_actions"]
        seat.act("keep" if "keep" in legal else rng.choice(legal))
        seat.settle()
    seat.close()
    return link


def badges(page: Page) -> list[str]:
    texts: list[str] = page.locator(".chance").all_inner_texts()
    return texts


def test_a_hints_value_line_is_in_view_at_1280_by_800_and_no_gap_reads_zero(
    web_base: str, chromium: Browser
) -> None:
    """At 1280x800, after "Hint" (the server's `hint`, docs/server.md "Hints") on a turn of
    Neuf's play (NEUF-4.2), the hint's value line is inside the window with nothing scrolled,
    and no badge reads a zero ("0", "-0", "−0", "-0.0"): a gap that rounds to nothing says
    "≈ best". The same holds on a phone, with the line under the hand."""
    link = to_a_choice_of_cards(web_base)
    for width, height in ((1280, 800), (375, 667)):
        with context(chromium, width=width, height=height) as made:
            page = seated_page(made, link)
            expect(page.locator("#turn.mine")).to_be_visible()
            page.click("#hint")
            panel = page.locator("#hint-panel")
            expect(panel).to_be_visible(timeout=30_000)
            expect(page.locator("#hint-value")).not_to_be_empty()
            expect(page.locator("#hand .chance").first).to_be_visible()
            shown = badges(page)
            assert not [b for b in shown if zero_like(b)], shown
            if width == 1280:
                page.evaluate("scrollTo(0, 0)")
                rect = page.locator("#hint-value").evaluate(
                    "e => { const r = e.getBoundingClientRect();"
                    " return { top: r.top, bottom: r.bottom, left: r.left, right: r.right,"
                    " scrollY, innerHeight, innerWidth }; }"
                )
                assert rect["scrollY"] == 0, rect
                assert rect["top"] >= 0 and rect["bottom"] <= rect["innerHeight"], rect
                assert rect["left"] >= 0 and rect["right"] <= rect["innerWidth"], rect
            else:
                # On a phone the panel keeps to the window's width.
                box = panel.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


# A hint as the server could send one (docs/server.md, "Hints"): the values of the legal
# actions in turn, the first best. Gaps that round to nothing, below zero or above it.
SYNTHETIC = """
async ([unit, values]) => {
  const state = await import('/static/table_state.js');
  const hints = await import('/static/table_hints.js');
  const legal = state.st.view.legal_actions;
  const best = values[0];
  const actions = legal.map((action, i) => {
    const value = values[i % values.length];
    return { action, value, gap: value - best };
  });
  hints.onHint({ type: 'hint', best: legal[0], unit, reason: null, actions });
  return legal.length;
}
"""

# The badges the gaps above write, in each language: a gap rounding to nothing, the others
# signed in the language's digits ("−1.3" and a "+", never a sign on a zero).
NEAR_BEST = {"en": "≈ best", "fr": "≈\u00a0meilleur", "ru": "≈\u00a0лучший", "fa": "≈\u00a0بهترین"}


def test_hint_badges_sign_their_gaps_and_say_near_best_for_a_gap_of_nothing_in_every_locale(
    web_base: str, chromium: Browser
) -> None:
    """A hint's gaps to the best action: one of -0.04 (which rounded to "-0") and one of 0
    (which read "0", as if it were a value) both read "≈ best"; -1.26 reads "-1.3" and +0.5
    "+0.5", in each language's digits and signs; the best's value of -0.04 points reads "0
    points", not "-0 points". In English, French, Russian and Persian."""
    link = to_a_choice_of_cards(web_base, choices=5)
    for lang in ("en", "fr", "ru", "fa"):
        with context(chromium, lang=lang) as made:
            page = seated_page(made, link)
            expect(page.locator("#turn.mine")).to_be_visible()
            legal = page.evaluate(SYNTHETIC, ["points", [-0.04, -0.08, -0.04, -1.3, 0.46]])
            assert legal >= 5
            expect(page.locator("#hint-panel")).to_be_visible()
            by_gap: dict[str, set[str]] = {}
            for badge in page.locator("#hand .chance:not(.best)").all():
                by_gap.setdefault(badge.get_attribute("data-gap") or "", set()).add(
                    badge.inner_text()
                )
            shown = [t for texts in by_gap.values() for t in texts]
            assert not [b for b in shown if zero_like(b)], (lang, by_gap)
            value = page.locator("#hint-value").inner_text()
            assert not re.search(r"[-−]\s*[0۰](?![.,٫]?[1-9۱-۹])", MARKS.sub("", value)), value
            best = page.locator("#hand .chance.best").inner_text()
            assert not re.search(r"[-−]", best), best
            assert {round(float(g), 1) for g in by_gap} == {-0.0, -1.3, 0.5}, by_gap
            for gap, texts in by_gap.items():
                g = round(float(gap), 1)
                if g == 0:
                    assert texts == {NEAR_BEST[lang]}, (lang, gap, texts)
                elif g < 0:
                    assert all(re.search(r"[-−]", t) and not t.startswith("+") for t in texts)
                else:
                    assert all("+" in t for t in texts), (lang, gap, texts)
                if lang == "fa":
                    assert not any(re.search(r"[0-9]", t) for t in texts), texts
            # The same for the chance of not being the fool, in percent (Kryt'-navalivat's unit).
            page.evaluate(SYNTHETIC, ["not_fool", [0.5, 0.4996, 0.5, 0.37, 0.52]])
            shown = [b.inner_text() for b in page.locator("#hand .chance:not(.best)").all()]
            assert NEAR_BEST[lang] in shown, shown
            assert not [b for b in shown if zero_like(b)], (lang, shown)


# Neuf's value said as tricks over or short of the quota (NEUF-5.2), in each language: the
# best's value on the panel, and a gap said in words.
QUOTA_WORDS = {
    "en": (
        "1.3 tricks over your quota this deal",
        "0.5 tricks short of your quota this deal",
        "exactly your quota this deal",
        "worse than the best move by 1.3 tricks",
    ),
    "fr": (
        "1,3 pli au-dessus de votre quota dans cette donne",
        "0,5 pli sous votre quota dans cette donne",
        "exactement votre quota dans cette donne",
        "moins bon que le meilleur coup de 1,3 pli",
    ),
    "ru": (
        "на 1,3 взятки больше нормы в этой сдаче",
        "на 0,5 взятки меньше нормы в этой сдаче",
        "ровно норма в этой сдаче",
        "хуже лучшего хода на 1,3 взятки",
    ),
    "fa": (
        "۱٫۳ دست بیش از سهمیه‌تان در این دور",
        "۰٫۵ دست کمتر از سهمیه‌تان در این دور",
        "درست به اندازهٔ سهمیه‌تان در این دور",
        "۱٫۳ دست بدتر از بهترین حرکت",
    ),
}


@pytest.mark.parametrize("lang", sorted(QUOTA_WORDS))
def test_neufs_hint_says_tricks_over_or_short_of_the_quota(
    web_base: str, chromium: Browser, lang: str
) -> None:
    """Neuf's hint values the tricks the seat expects over its quota this deal (NEUF-5.2):
    a best of +1.26 reads "1.3 tricks over your quota", of -0.5 "0.5 tricks short of your
    quota", of 0 "exactly your quota"; never "points", whose minus read as good news in a
    game where the lower score wins. A gap is said as worse than the best by so many tricks."""
    over, under, even, worse = QUOTA_WORDS[lang]
    link = to_a_choice_of_cards(web_base, choices=2)
    with context(chromium, lang=lang) as made:
        page = seated_page(made, link)
        expect(page.locator("#turn.mine")).to_be_visible()
        for best, said in ((1.26, over), (-0.5, under), (0.0, even)):
            page.evaluate(SYNTHETIC, ["points", [best, best - 1.3]])
            expect(page.locator("#hint-value")).to_contain_text(said)
        label = page.locator("#hand .chance:not(.best)").first.get_attribute("aria-label")
        assert label == worse, label
