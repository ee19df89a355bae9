"""The table's finished look in a real browser (headless Chromium against `cardtable serve`):
the drawn court cards and card back (web/art.js), motion that explains play and stops with
"No animations" or prefers-reduced-motion (web/motion.js), optional sounds (web/sound.js),
and the hand on a phone: cards a finger can tap, nothing on top of anything else."""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from browser_pieces import (
    EXPECT_MS,
    WEB,
    Box,
    Seat,
    bots,
    card_words,
    context,
    invite,
    last_seq,
    open_table,
    overlap,
    seated_page,
    token_of,
    wait_past,
)

expect.set_options(timeout=EXPECT_MS)

SUITS = "CDHS"
COURTS = {"K": "king", "Q": "queen", "J": "jack"}

# Every court card and a back, drawn by the page's own modules.
DRAW_PACK = """
async () => {
  const cards = await import('/static/cards.js');
  const out = {};
  for (const rank of ['J', 'Q', 'K', 'A', '7', '10']) {
    for (const suit of ['C', 'D', 'H', 'S']) {
      const svg = cards.cardFace(rank + suit);
      out[rank + suit] = {
        label: svg.getAttribute('aria-label'),
        role: svg.getAttribute('role'),
        figures: [...svg.querySelectorAll('.court')].map(
          (g) => [g.getAttribute('class'), g.dataset.court, g.dataset.suit]),
        robe: [...svg.querySelectorAll('.court .robe path')]
          .map((p) => p.getAttribute('fill'))[0] || null,
        pips: svg.querySelectorAll('.pips .pip').length,
        markup: svg.innerHTML,
      };
    }
  }
  const back = cards.cardBack();
  const other = cards.cardBack();
  out.back = {
    kind: back.dataset.back,
    hidden: back.getAttribute('aria-hidden'),
    pattern: back.querySelector('pattern') ? back.querySelector('pattern').id : null,
    other: other.querySelector('pattern') ? other.querySelector('pattern').id : null,
    medallion: back.querySelectorAll('.medallion .back-pip').length,
  };
  return out;
}
"""


def test_court_cards_have_figures_of_their_suit_and_keep_their_names(
    web_base: str, chromium: Browser
) -> None:
    """Each King, Queen and Jack is a double-headed figure (two halves) in its suit's colours,
    distinct from the same rank in another suit; pip cards carry their number of pips, the
    ace one; every face keeps its spoken name; the back is the drawn one, each with its own
    pattern id. On the table, the hand's cards are buttons named by their cards."""
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(2)])
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        drawn: dict[str, Any] = page.evaluate(DRAW_PACK)
        for rank, figure in COURTS.items():
            markups = set()
            robes = set()
            for suit in SUITS:
                card = drawn[rank + suit]
                assert card["label"] == card_words(rank + suit)
                assert card["role"] == "img"
                assert card["figures"] == [[f"court {figure}", rank, suit]] * 2, card["figures"]
                markups.add(card["markup"])
                robes.add(card["robe"])
            assert len(markups) == 4 and len(robes) == 4, (rank, robes)
        for suit in SUITS:
            assert drawn[f"A{suit}"]["pips"] == 1
            assert drawn[f"7{suit}"]["pips"] == 7
            assert drawn[f"10{suit}"]["pips"] == 10
            assert drawn[f"7{suit}"]["figures"] == []
        back = drawn["back"]
        assert back["kind"] == "stars" and back["hidden"] == "true" and back["medallion"] == 4
        assert back["pattern"] and back["other"] and back["pattern"] != back["other"]
        # The hand: buttons named by their cards, which a keyboard reaches and plays.
        expect(page.locator("#turn.mine")).to_be_visible()
        cards = page.eval_on_selector_all("#hand .card-btn", "els => els.map(e => e.dataset.card)")
        assert len(cards) == 7
        for card in cards:
            button = page.locator(f"#hand .card-btn[data-card='{card}']")
            assert (button.get_attribute("aria-label") or "").startswith(card_words(card))
            expect(button.locator("svg.face")).to_have_attribute("aria-label", card_words(card))
            courts = button.locator("svg .court")
            expect(courts).to_have_count(2 if card[:-1] in COURTS else 0)
        seq = last_seq(page)
        page.locator("#hand .card-btn[tabindex='0']").focus()
        page.keyboard.press("End")
        page.keyboard.press("Home")
        while not page.evaluate("document.activeElement.classList.contains('legal')"):
            page.keyboard.press("ArrowRight")
        played = page.evaluate("document.activeElement.dataset.card")
        page.keyboard.press("Enter")
        wait_past(page, seq)
        expect(page.locator(f"#hand .card-btn[data-card='{played}']")).to_have_count(0)
        expect(page.locator("#log")).to_contain_text(f"Ana plays {card_words(played)}")


def seen_until(page: Page, check: str, arg: Any, failure: str) -> None:
    """Evaluates `check` (a function of `arg`) in the page until it holds, as fast as the
    page answers: a flight is over in a third of a second."""
    deadline = time.monotonic() + EXPECT_MS / 1000
    while not page.evaluate(check, arg):
        assert time.monotonic() < deadline, failure


# Counts every animation a page starts: the Web Animations API ("id: class" of what moves;
# motion.js names its motions play, gather, deal, pick-up, draw) and CSS transitions.
COUNT_MOTION = """
window.__motions = [];
const nativeAnimate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const id = args[1] && typeof args[1] === 'object' && args[1].id ? args[1].id : '';
  window.__motions.push(`${id}: ${this.getAttribute('class') || this.tagName}`);
  return nativeAnimate.apply(this, args);
};
document.addEventListener('transitionrun', (e) => window.__motions.push('transition'), true);
document.addEventListener('animationstart', (e) => window.__motions.push('css'), true);
"""


def play_until_a_trick_is_won(page: Page, rng: random.Random) -> list[str]:
    """Clicks legal cards until the page has a last trick to show; returns the cards."""
    played = []
    while page.locator("#last-trick-btn").is_disabled():
        expect(page.locator("#turn.mine")).to_be_visible()
        seq = last_seq(page)
        legal = page.locator("#hand .card-btn.legal")
        button = legal.nth(rng.randrange(legal.count()))
        card = button.get_attribute("data-card")
        assert card is not None
        button.click()
        wait_past(page, seq)
        played.append(card)
    return played


def motion_table(base: str) -> str:
    opened = open_table(base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    return invite(base, opened, 0)


def click_a_move(page: Page, rng: random.Random) -> None:
    """Clicks a random legal card (its first action when it has several), else a random
    action button, and waits for the page to log what follows."""
    seq = last_seq(page)
    legal = page.locator("#hand .card-btn.legal")
    if legal.count():
        legal.nth(rng.randrange(legal.count())).click()
        menu = page.locator("#card-menu:not([hidden]) button[data-action]")
        if menu.count():
            menu.first.click()
    else:
        actions = page.locator("#actions button[data-action]:not([data-action='take'])")
        if not actions.count():
            actions = page.locator("#actions button[data-action]")
        actions.nth(rng.randrange(actions.count())).click()
    wait_past(page, seq)


def test_a_played_card_travels_a_won_trick_is_gathered_and_a_hand_is_dealt(
    web_base: str, chromium: Browser
) -> None:
    """With motion on, a card played from the hand flies to the middle while the page already
    shows it there (the state is never held back for the motion); a finished trick is
    carried to its winner by copies in an aria-hidden layer that go away afterwards; the
    next hand's cards come from the dealer's seat, and a back goes to each other player."""
    rng = random.Random(3)
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(2)])
    with context(chromium, motion=True) as made:
        made.add_init_script(COUNT_MOTION)
        page = seated_page(made, invite(web_base, opened, 0))
        expect(page.locator("#turn.mine")).to_be_visible()
        card = page.locator("#hand .card-btn.legal").first.get_attribute("data-card")
        page.locator(f"#hand .card-btn[data-card='{card}']").click()
        # In flight and in place at once.
        in_flight = (
            "card => document.getAnimations().some((a) => a.id === 'play')"
            " && document.querySelector(`#center .card[data-card='${card}']`) !== null"
        )
        seen_until(page, in_flight, card, "no card was seen in flight")
        play_until_a_trick_is_won(page, rng)
        gathered = "() => window.__motions.some((m) => m.startsWith('gather: card ghost'))"
        seen_until(page, gathered, None, "no trick gathered")
        assert page.get_attribute("#motion-layer", "aria-hidden") == "true"
        # The copies leave once their flight is over; the trick stays on show.
        expect(page.locator("#motion-layer .ghost")).to_have_count(0)
        expect(page.locator("#center .trick .card").first).to_be_visible()
        # On to the second hand's deal.
        for _ in range(40):
            if page.evaluate("window.__motions.some((m) => m.startsWith('deal: card-btn'))"):
                break
            expect(page.locator("#turn.mine")).to_be_visible()
            click_a_move(page, rng)
        assert page.evaluate("window.__motions.some((m) => m.startsWith('deal: card-btn'))")
        # And a back to each other seat.
        assert page.evaluate("window.__motions.some((m) => m.startsWith('deal: card back ghost'))")


def test_a_kryt_navalivat_pick_up_goes_from_the_pile_to_the_hand(
    web_base: str, chromium: Browser
) -> None:
    """Kryt'-navalivat' with motion on: the cards a pick-up takes fly from the pile into the
    hand that takes them."""
    rng = random.Random(11)
    opened = open_table(web_base, "kryt-navalivat", [{"kind": "human", "name": "Ana"}, *bots(2)])
    with context(chromium, motion=True) as made:
        made.add_init_script(COUNT_MOTION)
        page = seated_page(made, invite(web_base, opened, 0))
        took = False
        for _ in range(60):
            expect(page.locator("#turn.mine, #results:not([hidden])").first).to_be_visible()
            if page.locator("#results:not([hidden])").count():
                break
            take = page.locator("#actions button[data-action='take']")
            if take.count() and page.locator("#center .pile .card.would-take").count():
                seq = last_seq(page)
                take.click()
                wait_past(page, seq)
                took = True
                break
            click_a_move(page, rng)
        assert took, "no pick-up came"
        moved = "() => window.__motions.some((m) => m.startsWith('pick-up: card-btn'))"
        seen_until(page, moved, None, "the picked-up cards did not fly to the hand")


def motions_of_a_trick(made: BrowserContext, link: str) -> list[str]:
    """What moved while the page played a trick through (its clicks on cards, the bot's
    replies), once it was the page's turn again."""
    made.add_init_script(COUNT_MOTION)
    page = seated_page(made, link)
    expect(page.locator("#turn.mine")).to_be_visible()
    play_until_a_trick_is_won(page, random.Random(4))
    expect(page.locator("#turn.mine")).to_be_visible()
    expect(page.locator("#motion-layer .ghost")).to_have_count(0)
    if page.evaluate("window.__motions.length") == 0:
        assert page.evaluate("document.getAnimations().length") == 0
    motions: list[str] = page.evaluate("window.__motions")
    return motions


def test_no_animations_and_reduced_motion_start_none(web_base: str, chromium: Browser) -> None:
    """The same trick played three times: with motion on, cards fly and the trick is gathered;
    with the "No animations" setting, or the system's prefers-reduced-motion, no animation
    or transition starts at all."""
    with context(chromium, motion=True) as made:
        moved = motions_of_a_trick(made, motion_table(web_base))
        assert any("ghost" in m for m in moved) and any("placed" in m for m in moved), moved
    with context(chromium, motion=True) as made:
        made.add_init_script(
            "if (location.protocol.startsWith('http'))"
            " localStorage.setItem('cardtable.noanim', '1');"
        )
        assert motions_of_a_trick(made, motion_table(web_base)) == []
    with context(chromium) as made:  # prefers-reduced-motion: reduce
        assert motions_of_a_trick(made, motion_table(web_base)) == []


def test_the_readme_says_sounds_are_on_until_muted() -> None:
    """web/README.md, "Sounds", says what the page does (the test below): on by default,
    the box mutes them; never that they are off until the box is ticked."""
    readme = (WEB / "README.md").read_text(encoding="utf-8")
    sounds = readme.split("## Sounds", 1)[1].split("\n## ", 1)[0]
    assert sounds.strip().startswith("On by default"), sounds
    assert "Off until" not in sounds and "mutes" in sounds, sounds


def test_sounds_are_on_at_a_gentle_volume_and_a_mute_is_remembered(
    web_base: str, chromium: Browser
) -> None:
    """Sounds are on by default: once the page has had a click, a card played, a trick won
    and one's turn each play through a running AudioContext at a gentle volume. The
    "Sounds" box mutes them, and the choice is remembered."""
    rng = random.Random(6)
    with context(chromium) as made:
        page = seated_page(made, motion_table(web_base))
        expect(page.locator("#sound")).to_be_checked()
        expect(page.locator("label:has(#sound)")).to_have_text("Sounds")
        assert page.evaluate("window.cardtableSounds") == []  # nothing before a gesture
        play_until_a_trick_is_won(page, rng)
        expect(page.locator("#turn.mine")).to_be_visible()
        seen_until(
            page,
            "() => ['card', 'trick', 'turn'].every((n) => window.cardtableSounds.some("
            "(s) => s.name === n && s.state === 'running'))",
            None,
            "the sounds did not all play",
        )
        volumes = page.evaluate("window.cardtableSounds.map((s) => s.volume)")
        assert volumes and all(0 < v <= 0.5 for v in volumes), volumes
        # The box is in the header's menu.
        page.click("#menu-btn")
        page.locator("#sound").click()
        assert page.evaluate("localStorage.getItem('cardtable.sound')") == "0"
        played = page.evaluate("window.cardtableSounds.length")
        seq = last_seq(page)
        page.locator("#hand .card-btn.legal").first.click()
        wait_past(page, seq)
        assert page.evaluate("window.cardtableSounds.length") == played
        page.reload()
        page.wait_for_selector("#conn[data-state='connected']")
        expect(page.locator("#sound")).not_to_be_checked()


def test_the_settings_are_in_one_menu_opened_by_its_button(
    web_base: str, chromium: Browser
) -> None:
    """The table's settings (the rules, no animations, sounds, the language) wait behind one
    button of the header, a disclosure: closed at first (aria-expanded="false", its controls
    hidden, still labelled), opened by a click or the keyboard, closed by Escape (the focus
    back on the button) or a click elsewhere; a setting changed in it holds. The tutorial's
    page has the same header."""
    with context(chromium) as made:
        page = seated_page(made, motion_table(web_base))
        button = page.locator("#menu-btn")
        expect(button).to_have_attribute("aria-expanded", "false")
        expect(button).to_have_accessible_name("Menu")
        for control in ("#rules-link", "#no-anim", "#sound", "#lang"):
            expect(page.locator(control)).to_be_hidden()
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
        for control in ("#rules-link", "#no-anim", "#sound", "#lang"):
            expect(page.locator(control)).to_be_visible()
        expect(page.locator("#no-anim")).to_have_accessible_name("No animations")
        expect(page.locator("#sound")).to_have_accessible_name("Sounds")
        expect(page.locator("#lang")).to_have_accessible_name("Language")
        expect(page.locator("#rules-link")).to_have_attribute("href", "/rules/knockout-whist")
        page.locator("#no-anim").check()
        assert page.evaluate("localStorage.getItem('cardtable.noanim')") == "1"
        page.keyboard.press("Escape")
        expect(page.locator("#menu")).to_be_hidden()
        expect(button).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#menu")).to_be_visible()
        page.locator("#turn").click()
        expect(page.locator("#menu")).to_be_hidden()
        expect(button).to_have_attribute("aria-expanded", "false")
        page.close()
        lesson = made.new_page()
        lesson.goto(f"{web_base}/learn/neuf")
        expect(lesson.locator("#menu-btn")).to_have_attribute("aria-expanded", "false")
        lesson.click("#menu-btn")
        expect(lesson.locator("#no-anim")).to_be_checked()
        lesson.close()


# Every visible thing one can click or tap, in page coordinates.
INTERACTIVE = """
() => {
  const sel = 'button, a[href], input, select, textarea, [role="button"], [role="menuitem"]';
  const shown = (el) => el.getClientRects().length > 0 && !el.closest('[hidden]')
    && !el.matches('.skip') && getComputedStyle(el).visibility !== 'hidden';
  return [...document.querySelectorAll(sel)].filter(shown).map((el) => {
    const r = el.getBoundingClientRect();
    const name = el.id || el.dataset.card || el.dataset.action || el.tagName;
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height, name };
  });
}
"""


def kryt_navalivat_with_a_long_hand(base: str, rng: random.Random) -> str:
    """A Kryt'-navalivat' table for three whose first seat has picked up until it holds at
    least 12 cards (played from Python, then left for the page)."""
    opened = open_table(base, "kryt-navalivat", [{"kind": "human", "name": "Ana"}, *bots(2)])
    link = invite(base, opened, 0)
    seat = Seat(base, opened["table"], token_of(link))
    seat.settle()
    for _ in range(80):
        if seat.over() or len(seat.view["hand"]) >= 12:
            break
        legal = seat.view["legal_actions"]
        seat.act("take" if "take" in legal else rng.choice(legal))
        seat.settle()
    assert len(seat.view["hand"]) >= 12 and not seat.over(), seat.view
    seat.close()
    return link


def phone_problems(page: Page) -> list[str]:
    problems = []
    width = page.evaluate("innerWidth")
    if page.evaluate("document.documentElement.scrollWidth") > width:
        problems.append("the page scrolls sideways")
    cards: list[Box] = page.evaluate(
        "() => [...document.querySelectorAll('#hand .card-btn')].map((el) => {"
        " const r = el.getBoundingClientRect(); return { width: r.width, height: r.height,"
        " name: el.dataset.card }; })"
    )
    assert cards, "no hand on show"
    for card in cards:
        if card["width"] < 44 or card["height"] < 44:
            problems.append(f"card {card['name']} is smaller than a tap target: {card}")
    boxes: list[Box] = page.evaluate(INTERACTIVE)
    for box in boxes:
        if box["x"] < -0.5 or box["x"] + box["width"] > width + 0.5:
            problems.append(f"{box['name']} is cut: {box}")
    for a, b in itertools.combinations(boxes, 2):
        if overlap(a, b) > 1.0:
            problems.append(f"{a['name']} overlaps {b['name']}")
    return problems


def test_a_phone_shows_cards_a_finger_can_tap_in_english_and_persian(
    web_base: str, chromium: Browser
) -> None:
    """At 375x667, in English and Persian: Knockout Whist's seven cards, Neuf's thirteen and a
    long Kryt'-navalivat' hand are each at least 44 pixels wide and high as buttons, no two
    things one can tap overlap, nothing is cut at the sides; seven cards, which fit, do not
    overlap at all (the fan is only for hands that need it)."""
    rng = random.Random(9)
    kow = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(3)])
    neuf = open_table(web_base, "neuf", [{"kind": "human", "name": "Ana"}, *bots(2)])
    tables = {
        "knockout-whist": invite(web_base, kow, 0),
        "neuf": invite(web_base, neuf, 0),
        "kryt-navalivat": kryt_navalivat_with_a_long_hand(web_base, rng),
    }
    problems: list[str] = []
    for lang in ("en", "fa"):
        with context(chromium, lang=lang, width=375, height=667) as made:
            for name, link in tables.items():
                page = seated_page(made, link)
                expect(page.locator("#hand .card-btn").first).to_be_visible()
                expect(page.locator("html")).to_have_attribute(
                    "dir", "rtl" if lang == "fa" else "ltr"
                )
                problems += [f"{name} {lang}: {p}" for p in phone_problems(page)]
                visual = page.evaluate(
                    "() => [...document.querySelectorAll('#hand .card-btn svg')].map((s) => {"
                    " const r = s.getBoundingClientRect();"
                    " return { x: r.left, y: r.top, width: r.width, height: r.height }; })"
                )
                if name == "knockout-whist":
                    assert len(visual) == 7
                    for left, right in itertools.pairwise(visual):
                        assert overlap(left, right) == 0, (lang, left, right)
                page.close()
    assert problems == []
