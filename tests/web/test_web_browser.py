"""The web table in a real browser: headless Chromium (Playwright) against `cardtable serve`.

One server and one browser serve the whole module; each test opens its own tables and its
own browser profiles. The pages are driven the way people use them: clicks on cards and
buttons, or the keyboard alone; what is checked is what the page shows (docs/server.md is the
protocol, the hooks are listed at the top of web/table.js and web/lobby.js).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from browser_pieces import (
    BOXES,
    CHROME,
    EXPECT_MS,
    WEB,
    Box,
    Seat,
    bots,
    card_words,
    chrome_problems,
    context,
    english,
    hand_of,
    invite,
    last_seq,
    open_page,
    open_table,
    overlap,
    seated_page,
    to_move,
    token_of,
    wait_past,
)
from scripts_loader import load_script

NAMES = ["Ana", "Bo", "Cy"]

# Playwright's own default would be 5 s; the two-core machine needs the same slack as the
# pages' own waits.
expect.set_options(timeout=EXPECT_MS)

# The screenshots' positions and photographs, shared with the layout test below.
screenshots = load_script("scripts/screenshots.py")


def click_a_move(page: Page, rng: random.Random) -> str:
    """Clicks a random legal card, or else a random action button; returns the action's
    card or the button's action."""
    legal = page.locator("#hand .card-btn.legal")
    count = legal.count()
    if count:
        button = legal.nth(rng.randrange(count))
        card = button.get_attribute("data-card")
        assert card is not None
        button.click()
        menu = page.locator("#card-menu:not([hidden]) button[data-action]")
        # A card with several actions (Kryt'-navalivat' beat and lead) opens a menu; take its first.
        if menu.count():
            menu.first.click()
        return card
    actions = page.locator("#actions button[data-action]")
    assert actions.count(), "the page says it is this seat's turn but offers nothing to do"
    chosen = actions.nth(rng.randrange(actions.count()))
    action = chosen.get_attribute("data-action")
    assert action is not None
    chosen.click()
    return action


# ---------------------------------------------------------------- the lobby


def test_lobby_offers_neufs_three_player_rules_only_to_three_players(
    web_base: str, chromium: Browser
) -> None:
    """NEUF-8.4: the partnership game has no exchange and cannot tie, and the server refuses
    those flags with four players; the lobby hides them there and still creates the table."""
    with context(chromium) as made:
        page = open_page(made, f"{web_base}/?game=neuf")
        flags = ["dealer_exchanges_first", "tie_avoidance"]
        for flag in flags:
            expect(page.locator(f"#options [data-option='{flag}']")).to_be_visible()
        page.locator("#options [data-option='tie_avoidance']").check()
        page.select_option("#players", "4")
        for flag in flags:
            expect(page.locator(f"#options [data-option='{flag}']")).to_be_hidden()
        page.click("#create-table")
        expect(page.locator("#created")).to_be_visible()
        expect(page.locator("#banner")).to_be_hidden()
        link = page.locator("#invites .invite[data-seat='0'] input.link").input_value()
        table = link.split("/t/")[1].split("#")[0]
        described = httpx.get(f"{web_base}/api/tables/{table}").json()
        assert len(described["seats"]) == 4
        assert described["options"].get("tie_avoidance") in (None, False)
        page.select_option("#players", "3")
        for flag in flags:
            expect(page.locator(f"#options [data-option='{flag}']")).to_be_visible()


# ---------------------------------------------------------------- three people play Neuf


def create_neuf_in_the_lobby(page: Page) -> list[str]:
    """Fills the lobby's form for three people and returns their invitation links."""
    page.select_option("#game", "neuf")
    page.select_option("#players", "3")
    for seat, name in enumerate(NAMES):
        row = page.locator(f"#seat-rows .seat-row[data-seat='{seat}']")
        row.locator("select.kind").select_option("human")
        row.locator("input.name").fill(name)
    page.click("#create-table")
    expect(page.locator("#created")).to_be_visible()
    links = [
        page.locator(f"#invites .invite[data-seat='{seat}'] input.link").input_value()
        for seat in range(3)
    ]
    assert all(f"#seat={seat}&token=" in link for seat, link in enumerate(links)), links
    expect(page.locator("#invites .invite[data-spectate]")).to_have_count(1)
    return links


def hands_are_private(pages: dict[int, Page], played: set[str]) -> dict[int, list[str]]:
    """Each page's hand: its own cards only (no card twice across pages, none already played,
    as many as the other pages say that seat holds) and no other seat's cards on show."""
    hands = {seat: hand_of(page) for seat, page in pages.items()}
    for (a, ha), (b, hb) in itertools.combinations(hands.items(), 2):
        assert not set(ha) & set(hb), f"seats {a} and {b} both show {set(ha) & set(hb)}"
    for seat, hand in hands.items():
        assert not set(hand) & played, f"seat {seat} still shows played {set(hand) & played}"
        page = pages[seat]
        assert page.locator("#seats .seat-hand").count() == 0, "another seat's cards are on show"
        for other in pages.values():
            if other is not page:
                count = other.locator(f"#seats .seat[data-seat='{seat}'] .seat-count")
                assert count.inner_text().strip() == str(len(hand))
    return hands


def test_three_browsers_play_a_neuf_deal_created_in_the_lobby(
    web_base: str, chromium: Browser
) -> None:
    """Three people at three browsers: one creates the table in the lobby and shares the
    links; they exchange (one by keyboard) and play the 13 tricks by clicking legal cards.
    Each page shows only its own hand, announces every play in #live, and at the end of the
    deal the score sheet has its row with the total down by one (NEUF-5.4)."""
    rng = random.Random(7)
    errors: list[str] = []
    with (
        context(chromium) as first,
        context(chromium) as second,
        context(chromium) as third,
    ):
        lobby = open_page(first, f"{web_base}/", errors)
        links = create_neuf_in_the_lobby(lobby)
        pages = {
            0: seated_page(first, links[0], errors),
            1: seated_page(second, links[1], errors),
            2: seated_page(third, links[2], errors),
        }
        for page in pages.values():
            expect(page.locator("#live")).to_have_attribute("aria-live", "polite")
            expect(page.locator("#title")).to_have_text("Neuf")
        mover = to_move(pages[0])
        assert mover is not None
        played: set[str] = set()
        shown: dict[int, set[str]] = {seat: set() for seat in pages}
        cards_played: dict[int, list[str]] = {seat: [] for seat in pages}
        decisions = 0
        while len(played) < 39:
            page = pages[mover]
            expect(page.locator("#turn.mine")).to_be_visible()
            hands = hands_are_private(pages, played)
            if decisions == 3:
                for seat, hand in hands.items():
                    shown[seat].update(hand)
            seq = last_seq(page)
            if page.locator("#hand .card-btn.legal").count() == 0:
                # The exchange (NEUF-3): the first to decide uses the keyboard alone.
                expect(page.locator("#actions button[data-action='exchange']")).to_be_visible()
                before = hand_of(page)
                if decisions == 0:
                    for _ in range(30):
                        if page.evaluate("document.activeElement.dataset.action === 'exchange'"):
                            break
                        page.keyboard.press("Tab")
                    page.keyboard.press("Enter")
                    wait_past(page, seq)
                    assert not set(hand_of(page)) & set(before), "the exchange kept cards"
                else:
                    page.click("#actions button[data-action='keep']")
                    wait_past(page, seq)
                    assert hand_of(page) == before
                decisions += 1
            else:
                card = click_a_move(page, rng)
                played.add(card)
                cards_played[mover].append(card)
                wait_past(page, seq)
                said = f"{NAMES[mover]} plays {card_words(card)}."
                for other in pages.values():
                    expect(other.locator("#live")).to_contain_text(said)
                    expect(other.locator("#log")).to_contain_text(said)
            mover = to_move(page)
            assert mover is not None
        assert decisions == 3
        for seat, page in pages.items():
            # What a page ever showed in its hand is what that seat itself played.
            assert shown[seat] == set(cards_played[seat])
            assert len(cards_played[seat]) == 13
            expect(page.locator("#ledger")).to_be_attached()
            expect(page.locator("#ledger tbody tr")).to_have_count(1)
            scores = [int(x) for x in page.locator("#scores td").all_inner_texts()]
            assert sum(scores) == 26, scores
            expect(page.locator("#verify li[data-hand='1'].ok")).to_have_count(1)
    assert errors == []


# ---------------------------------------------------------------- reconnecting


def test_a_page_that_lost_its_connection_catches_up_and_plays_on(
    web_base: str, chromium: Browser
) -> None:
    """The page's socket drops and the network stays down while another seat and a bot
    play; back online, it reconnects with `since`, logs every missed play, shows the table
    as it is, and its next click is accepted."""
    rng = random.Random(3)
    opened = open_table(
        web_base,
        "knockout-whist",
        [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}, *bots(1)],
    )
    link = invite(web_base, opened, 0)
    bo = Seat(web_base, opened["table"], token_of(invite(web_base, opened, 1)))
    errors: list[str] = []
    try:
        with context(chromium, sockets=True) as made:
            page = seated_page(made, link, errors)
            # The page logs what happens from its joining on. Should Bo be first to act, Bo
            # plays up to Ana's turn, so that the page has logged a play before it goes away.
            bo.settle_on({0, 1})
            if bo.view["to_move"] == 1:
                bo.play_until(0, rng)
            # Play until it is Bo's turn, so that there is something to miss.
            for _ in range(10):
                bo.settle_on({0, 1})
                if bo.view["to_move"] == 1:
                    break
                expect(page.locator("#turn.mine")).to_be_visible()
                click_a_move(page, rng)
                bo.action_of(0)
            assert bo.my_turn()
            page.wait_for_function(
                "seq => [...document.querySelectorAll('#log li[data-seq]')]"
                ".some(li => Number(li.dataset.seq) === seq)",
                arg=bo.seq,
            )
            before = bo.seq
            made.set_offline(True)
            page.evaluate("window.__sockets.forEach(s => s.close())")
            expect(page.locator("#conn")).to_have_attribute("data-state", "reconnecting")
            missed = bo.play_until(0, rng)
            assert missed, "Bo made no move while the page was away"
            assert bo.view["to_move"] == 0
            after = bo.seq
            expect(page.locator("#conn")).to_have_attribute("data-state", "reconnecting")
            assert last_seq(page) == before
            made.set_offline(False)
            expect(page.locator("#conn")).to_have_attribute(
                "data-state", "connected", timeout=20_000
            )
            for seq in range(before + 1, after + 1):
                expect(page.locator(f"#log li[data-seq='{seq}']")).to_have_count(1)
            log = page.locator("#log").inner_text()
            for action in missed:
                assert f"Bo plays {card_words(action.split()[1])}." in log
            expect(page.locator("#turn.mine")).to_be_visible()
            on_table = page.eval_on_selector_all(
                "#trick [data-card]", "els => els.map(e => e.dataset.card)"
            )
            # The trick in progress; between tricks, the one just finished, faded.
            shown = bo.view["trick"] or (
                bo.view["tricks"][-1]["plays"] if bo.view["tricks"] else []
            )
            assert sorted(on_table) == sorted(card for _, card in shown)
            expect(page.locator("#seats .seat[data-seat='1'] .seat-count")).to_have_text(
                str(bo.view["hand_sizes"][1])
            )
            card = click_a_move(page, rng)
            assert bo.action_of(0)["action"].split()[-1] == card
            expect(page.locator("#banner")).to_be_hidden()
    finally:
        bo.close()
    assert errors == []


# ---------------------------------------------------------------- the keyboard alone


def press_until(page: Page, check: str, key: str = "Tab", limit: int = 30) -> None:
    """Presses `key` until the script `check` holds of the focused element."""
    for _ in range(limit):
        if page.evaluate(f"(el => Boolean({check}))(document.activeElement)"):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {check}")


def keyboard_move(page: Page, rng: random.Random) -> str:
    """One move with the keyboard: Tab into the hand, arrows to a legal card, Enter; or Tab to
    an action button and Enter."""
    legal = page.eval_on_selector_all(
        "#hand .card-btn", "els => els.map(e => e.classList.contains('legal'))"
    )
    if any(legal):
        press_until(page, "el.closest('#hand')")
        cards = hand_of(page)
        target = rng.choice([i for i, ok in enumerate(legal) if ok])
        here = cards.index(page.evaluate("document.activeElement.dataset.card"))
        for _ in range(abs(target - here)):
            page.keyboard.press("ArrowRight" if target > here else "ArrowLeft")
        focused = page.evaluate("document.activeElement.dataset.card")
        assert focused == cards[target]
        page.keyboard.press("Enter")
        return cards[target]
    press_until(page, "el.closest('#actions') && el.dataset.action")
    action: str = page.evaluate("document.activeElement.dataset.action")
    page.keyboard.press("Enter")
    return action


def test_knockout_whist_against_bots_with_the_keyboard_alone(
    web_base: str, chromium: Browser
) -> None:
    """A whole game of Knockout Whist against two bots with Tab, arrows and Enter: the first
    hand's seven cards, the trump choices that come the player's way, to the end of the game.
    No pointer event ever reaches the page."""
    rng = random.Random(11)
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(2)])
    errors: list[str] = []
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0), errors)
        page.evaluate(
            "window.__pointers = 0;"
            "addEventListener('pointerdown', () => window.__pointers++, true);"
            "addEventListener('click', e => { if (e.detail) window.__pointers++; }, true);"
        )
        first_hand = 0
        moves = []
        while True:
            page.wait_for_selector("#turn.mine, #results:not([hidden])")
            if page.locator("#results").is_visible():
                break
            hand_number = page.locator("#info").inner_text()
            seq = last_seq(page)
            held = len(hand_of(page))
            move = keyboard_move(page, rng)
            moves.append(move)
            wait_past(page, seq)
            if "Hand 1 of 7" in hand_number:
                first_hand += 1
                # The hand's last card brings the next hand's deal.
                assert len(hand_of(page)) == held - 1 or held == 1
        assert first_hand == 7, moves
        expect(page.locator("#results-lines li").first).to_be_visible()
        assert page.evaluate("window.__pointers") == 0
    assert errors == []


# ---------------------------------------------------------------- how it looks


def layout_problems(boxes: dict[str, Any]) -> list[str]:
    """What is wrong with the table's layout: key elements on top of one another, or off
    the screen."""
    problems = []
    width = boxes["innerWidth"]
    if boxes["scrollWidth"] > width:
        problems.append(f"scrolls sideways: {boxes['scrollWidth']} > {width}")
    groups = ["cards", "hand", "seats", "center", "middle", "actions", "turn", "info"]
    for group in groups:
        for box in boxes[group]:
            if box["x"] < -0.5 or box["x"] + box["width"] > width + 0.5:
                problems.append(f"{group} {box['name']} is off screen: {box}")
    # Pairs of groups that must not overlap (a seat's corner may touch, no more). The middle
    # is what #center shows (its box spans the felt, seats sit on the felt's rim).
    apart = [
        ("seats", "seats"),
        ("seats", "middle"),
        ("seats", "cards"),
        ("seats", "hand"),
        ("seats", "turn"),
        ("seats", "info"),
        ("seats", "actions"),
        ("cards", "actions"),
        ("cards", "turn"),
        ("cards", "center"),
        ("turn", "center"),
        ("info", "center"),
        ("cards", "middle"),
        ("info", "cards"),
    ]
    for a, b in apart:
        pairs: Any = (
            itertools.combinations(boxes[a], 2) if a == b else itertools.product(boxes[a], boxes[b])
        )
        for x, y in pairs:
            if overlap(x, y) > 4.0:
                problems.append(f"{a} {x['name']} overlaps {b} {y['name']}")
    return problems


def column_problems(boxes: dict[str, Any], area: Box) -> list[str]:
    """A seat at either side grows downward with what is known of its hand (the cards it took
    from Kryt'-navalivat''s pile), as far as the table area's bottom: the middle keeps clear
    of the column under it, whatever the seat shows at the moment of the picture."""
    problems = []
    for seat in boxes["seats"]:
        centre = seat["x"] + seat["width"] / 2
        if abs(centre - (area["x"] + area["width"] / 2)) < area["width"] / 6:
            continue  # the seat at the top or the bottom
        column = {**seat, "height": area["y"] + area["height"] - seat["y"]}
        problems += [
            f"middle {item['name']} reaches under seat {seat['name']}"
            for item in boxes["middle"]
            if overlap(column, item) > 4.0
        ]
    return problems


def relative_seats(boxes: dict[str, Any], area: Box) -> dict[str, tuple[float, float]]:
    """Each seat's centre as a fraction of the table area."""
    return {
        box["name"]: (
            (box["x"] + box["width"] / 2 - area["x"]) / area["width"],
            (box["y"] + box["height"] / 2 - area["y"]) / area["height"],
        )
        for box in boxes["seats"]
    }


def test_screenshots_in_english_and_persian_with_a_sound_layout(
    web_base: str, chromium: Browser, tmp_path: Path
) -> None:
    """Each game's table in the middle of a hand, as scripts/screenshots.py photographs it
    (the same positions and code), at 1280x800 and 375x667, in English and in Persian.
    Nothing of the table overlaps what it must not, nothing is off screen, nothing scrolls
    sideways; Persian mirrors the page's chrome but not the seating."""
    rng = random.Random(5)
    problems: list[str] = []
    for game, players in screenshots.GAMES.items():
        link = screenshots.mid_game(web_base, game, players, rng)
        for width, height in screenshots.SIZES:
            seats: dict[str, dict[str, tuple[float, float]]] = {}
            chrome: dict[str, dict[str, tuple[float, float]]] = {}
            for lang in ("en", "fa"):
                with screenshots.opened(chromium, link, "table", lang, (width, height)) as page:
                    expect(page.locator("html")).to_have_attribute(
                        "dir", "rtl" if lang == "fa" else "ltr"
                    )
                    expect(page.locator("#table-area")).to_have_attribute("dir", "ltr")
                    shot = screenshots.Shot("table", game, lang, width, height)
                    screenshots.take(page, tmp_path, shot)
                    boxes = page.evaluate(BOXES)
                    assert len(boxes["seats"]) == players
                    assert boxes["cards"], "no hand on show"
                    problems += [f"{shot.name}: {p}" for p in layout_problems(boxes)]
                    area = page.locator("#table-area").bounding_box()
                    assert area is not None
                    problems += [
                        f"{shot.name}: {p}"
                        for p in column_problems(
                            boxes, {key: area[key] for key in ("x", "y", "width", "height")}
                        )
                    ]
                    seats[lang] = relative_seats(
                        boxes,
                        {key: area[key] for key in ("x", "y", "width", "height")},
                    )
                    chrome[lang] = {
                        part: (boxes[part][0]["x"], boxes[part][0]["x"] + boxes[part][0]["width"])
                        for part in ("brand", "tools")
                    }
            # The header mirrors: the brand and the tools sit where the other language's are,
            # reflected.
            en, fa = chrome["en"], chrome["fa"]
            assert abs(en["brand"][0] - (width - fa["brand"][1])) < 2, chrome
            # The tools end the header's line, or start the next one on a phone.
            tools = [
                en["tools"][0] - (width - fa["tools"][1]),
                en["tools"][1] - (width - fa["tools"][0]),
            ]
            assert min(abs(d) for d in tools) < 2, chrome
            for seat, (x, y) in seats["en"].items():
                fx, fy = seats["fa"][seat]
                assert abs(x - fx) < 0.01 and abs(y - fy) < 0.01, (seat, seats)
            by_x = {lang: sorted(seats[lang], key=lambda s: seats[lang][s][0]) for lang in seats}
            assert by_x["en"] == by_x["fa"]
    expected = screenshots.shots(pages=["table"], langs=["en", "fa"])
    assert sorted(p.name for p in tmp_path.glob("*.png")) == sorted(s.name for s in expected)
    print(f"screenshots in {tmp_path}")
    assert problems == []


PHONES = ((375, 667), (320, 568))


def test_a_phones_table_has_a_one_row_header_and_seats_clear_of_the_middle(
    web_base: str, chromium: Browser
) -> None:
    """Each game's table in the middle of a hand (the screenshots' positions), on a phone of
    375x667 and one of 320x568, in English and in Persian: the header is one row (56 pixels
    at most: the settings are in its menu), no seat's box overlaps what the middle shows (the
    pile's labels included) nor anything else of the layout test's, each seat's name is on one
    line and whole, and the others' seats show a fan of backs for the cards they hold."""
    rng = random.Random(5)
    problems: list[str] = []
    for game, players in screenshots.GAMES.items():
        link = screenshots.mid_game(web_base, game, players, rng)
        for size in PHONES:
            for lang in ("en", "fa"):
                with screenshots.opened(chromium, link, "table", lang, size) as page:
                    where = f"{game} {lang} {size[0]}x{size[1]}"
                    boxes = page.evaluate(BOXES)
                    assert len(boxes["seats"]) == players
                    problems += [f"{where}: {p}" for p in layout_problems(boxes)]
                    problems += [f"{where}: {p}" for p in chrome_problems(page.evaluate(CHROME))]
                    # The settings wait in the menu, the log and the messages are folded.
                    folded = page.evaluate(
                        "() => ['menu-btn', 'log-toggle', 'chat-toggle'].map((id) => {"
                        " const el = document.getElementById(id);"
                        " return el && el.getAttribute('aria-expanded'); })"
                    )
                    if folded != ["false"] * 3:
                        problems.append(f"{where}: menu, log, messages not folded: {folded}")
                    if page.locator("#sound").is_visible():
                        problems.append(f"{where}: the sounds' box is out of its menu")
    assert problems == []


def test_the_screenshot_script_writes_pictures_of_the_windows_size(
    web_base: str, chromium: Browser, tmp_path: Path
) -> None:
    """scripts/screenshots.py's own path, on one page: a tutorial in Persian at both sizes,
    written under the naming scheme, each picture exactly the window's size."""
    wanted = screenshots.shots(pages=["tutorial"], games=["neuf"], langs=["fa"])
    written = screenshots.photograph(
        chromium, web_base, tmp_path, wanted, random.Random(1), log=lambda _: None
    )
    assert [p.name for p in written] == [
        "tutorial-neuf-fa-1280x800.png",
        "tutorial-neuf-fa-375x667.png",
    ]
    for path, shot in zip(written, wanted, strict=True):
        assert png_size(path.read_bytes()) == (shot.width, shot.height)


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# ---------------------------------------------------------------- fair deals and hints


def test_the_first_hands_deck_is_verified_when_it_is_revealed(
    web_base: str, chromium: Browser
) -> None:
    """After the first hand of Knockout Whist the page checks the revealed deck against the
    commitment it was shown at the deal, and marks it .ok; the next hand is .pending."""
    rng = random.Random(13)
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(2)])
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        # The live region keeps its last few lines and quick bots push the check's line out:
        # every line it speaks is kept as it appears.
        page.evaluate(
            "window.__spoken = []; new MutationObserver((changes) => changes.forEach((c) =>"
            " c.addedNodes.forEach((n) => window.__spoken.push(n.textContent))))"
            ".observe(document.getElementById('live'), { childList: true })"
        )
        expect(page.locator("#verify li[data-hand='1'].pending")).to_have_count(1)
        while page.locator("#verify li[data-hand='2']").count() == 0:
            page.wait_for_selector("#turn.mine, #verify li[data-hand='2']")
            if page.locator("#turn.mine").count():
                seq = last_seq(page)
                click_a_move(page, rng)
                wait_past(page, seq)
        expect(page.locator("#verify li[data-hand='1'].ok")).to_have_count(1)
        expect(page.locator("#verify li.bad")).to_have_count(0)
        expect(page.locator("#verify li[data-hand='2'].pending")).to_have_count(1)
        page.wait_for_function(
            "window.__spoken.some((line) => line.includes('Hand 1: deck verified.'))"
        )
        spoken = page.evaluate("window.__spoken")
        assert not any("Hand 2: deck verified." in line for line in spoken), spoken


HINT_GAMES = {"knockout-whist": 1, "neuf": 2, "kryt-navalivat": 1}  # bots beside the person
# The unit's words on the page, in English and in Persian (the locales' hints.value).
HINT_UNITS = {
    "en": {
        "knockout-whist": "this hand",
        "neuf": "quota this deal",
        "kryt-navalivat": "chance of not being the fool",
    },
    "fa": {
        "knockout-whist": "دست در این دور",
        "neuf": "سهمیه‌تان در این دور",
        "kryt-navalivat": "شانس احمق نشدن",
    },
}


@pytest.mark.parametrize("game", sorted(HINT_GAMES))
def test_a_hint_marks_the_best_action_and_says_why_in_its_unit(
    web_base: str, chromium: Browser, game: str
) -> None:
    """A hint lifts and marks one action (data-hint="best": the card in the hand, or the
    action's button), says why in a sentence of the reader's language (#hint-why, the
    server's reason through the locale), and the best action's value in the game's unit
    (#hint-value); each legal card's badge is the best's value or its gap to it. In English
    and in Persian, whose numbers are in Persian digits."""
    opened = open_table(web_base, game, [{"kind": "human", "name": "Ana"}, *bots(HINT_GAMES[game])])
    link = invite(web_base, opened, 0)
    # Played on from Python to a turn with a choice (a forced move is not valued).
    seat = Seat(web_base, opened["table"], token_of(link))
    seat.settle()
    rng = random.Random(31)
    while len(seat.view["legal_actions"]) < 2:
        seat.act(seat.choose(rng))
        seat.settle()
    legal = seat.view["legal_actions"]
    seat.close()
    errors: list[str] = []
    for lang in ("en", "fa"):
        with context(chromium, lang=lang) as made:
            page = seated_page(made, link, errors)
            expect(page.locator("#turn.mine")).to_be_visible()
            expect(page.locator("[data-hint='best']")).to_have_count(0)
            expect(page.locator("#hint-panel")).to_be_hidden()
            page.click("#hint")
            panel = page.locator("#hint-panel")
            expect(panel).to_be_visible(timeout=30_000)
            best = panel.get_attribute("data-best") or ""
            assert best in legal, (best, legal)
            assert (
                panel.get_attribute("data-unit")
                == {
                    "knockout-whist": "tricks",
                    "neuf": "points",
                    "kryt-navalivat": "not_fool",
                }[game]
            )
            verb, _, card = best.partition(" ")
            marked = page.locator("[data-hint='best']")
            expect(marked).to_have_count(1)
            if card and verb in ("play", "lead", "beat", "cover"):
                expect(marked).to_have_attribute("data-card", card)
                assert marked.evaluate("e => e.closest('#hand') !== null")
            else:
                expect(marked).to_have_attribute("data-action", best)
            why = page.locator("#hint-why").inner_text()
            key = (panel.get_attribute("data-reason") or "").removeprefix("hints.why.")
            assert key in english()["hints"]["why"], key
            assert why and "{" not in why and "hints." not in why, why
            value = page.locator("#hint-value").inner_text()
            assert HINT_UNITS[lang][game] in value, value
            badge = marked.locator(".chance.best")
            expect(badge).to_have_count(1)
            assert badge.get_attribute("data-gap") == "0"
            # Every other card is below the best, or tied with it (within the analysis's
            # noise: the best is then the tied card kept least, and may be valued lower).
            others = page.locator("#hand .chance:not(.best)")
            for i in range(others.count()):
                other = others.nth(i)
                if other.get_attribute("data-tie") == "true":
                    expect(other).to_have_text(locale(lang)["hints"]["near_best"])
                else:
                    assert float(other.get_attribute("data-gap") or "1") < 0
            if lang == "fa":
                shown = " ".join([panel.inner_text(), *page.locator(".chance").all_inner_texts()])
                assert not re.search(r"[0-9]", shown), shown
                assert re.search(r"[۰-۹]", page.locator("#hint-value").inner_text())
            else:
                said = english()["hints"]["said"].split("{")[0]
                expect(page.locator("#live")).to_contain_text(said)
    assert errors == [], errors


# ---------------------------------------------------------------- rules and replays


def test_the_rules_page_lists_the_games_sections(web_base: str, chromium: Browser) -> None:
    rules = english()["rules"]
    with context(chromium) as made:
        for name in ("knockout-whist", "neuf", "kryt-navalivat"):
            page = open_page(made, f"{web_base}/rules/{name}")
            headings = page.locator("#rules section h2")
            expect(headings).to_have_count(len(rules[name]["sections"]))
            expect(headings).to_have_text([s["title"] for s in rules[name]["sections"]])
            expect(page.locator(f"#games-nav a[href='/rules/{name}']")).to_have_attribute(
                "aria-current", "page"
            )
            expect(page.locator("#play-link")).to_have_attribute("href", f"/?game={name}")
            page.close()


def test_the_replay_of_a_finished_game_steps_with_the_arrow_keys(
    web_base: str, chromium: Browser
) -> None:
    """A finished game's replay opens from the results, and the arrow keys (Home and End
    too) step through its frames, each drawn with every hand shown."""
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    link = invite(web_base, opened, 0)
    seat = Seat(web_base, opened["table"], token_of(link))
    seat.play_to_end(random.Random(17))
    seat.close()
    replay = httpx.get(f"{web_base}/api/tables/{opened['table']}/replay/1").json()
    frames = replay["frames"]
    assert len(frames) > 3
    winner = httpx.get(f"{web_base}/api/tables/{opened['table']}").json()["results"][0]["winners"]
    with context(chromium) as made:
        page = seated_page(made, link)
        expect(page.locator("#results")).to_be_visible()
        # The table's tally: one game finished, one win to its winner and none to the other.
        session = page.locator("#session")
        expect(session).to_contain_text("Games finished1")
        for s in (0, 1):
            expect(session.locator(f"dd[data-seat='{s}']")).to_have_text(
                "1" if [s] == winner else "0"
            )
        page.click("#replay-open")
        expect(page.locator("#replay-bar")).to_be_visible()
        position = page.locator("#replay-pos")
        expect(position).to_have_text(f"1 / {len(frames)}")

        def shows(index: int) -> None:
            expect(position).to_have_text(f"{index + 1} / {len(frames)}")
            hands = frames[index]["view"]["hands"]
            for s, hand in enumerate(hands):
                chips = page.locator(f"#seats .seat[data-seat='{s}'] .seat-hand .chip")
                expect(chips).to_have_count(len(hand))

        shows(0)
        page.keyboard.press("ArrowRight")
        shows(1)
        page.keyboard.press("ArrowRight")
        shows(2)
        step = frames[2]
        if step["action"].startswith("play "):
            name = "Ana" if step["seat"] == 0 else "Bot 2"
            expect(page.locator("#replay-step")).to_contain_text(
                f"{name} plays {card_words(step['action'].split()[1])}."
            )
        page.keyboard.press("ArrowLeft")
        shows(1)
        page.keyboard.press("End")
        shows(len(frames) - 1)
        page.keyboard.press("ArrowRight")
        shows(len(frames) - 1)
        page.keyboard.press("Home")
        shows(0)
        page.keyboard.press("Escape")
        expect(page.locator("#replay-bar")).to_be_hidden()
        expect(page.locator("#results")).to_be_visible()


# ---------------------------------------------------------------- security headers


def test_every_page_works_within_its_content_security_policy(
    web_base: str, chromium: Browser
) -> None:
    """The server sends a Content-Security-Policy without 'unsafe-inline' (docs/server.md,
    "Security headers"): the lobby, a table (its websocket, its SVG cards, seats placed by
    script) and the rules page draw with nothing refused; a page that frames the table is
    refused by the policy's frame-ancestors."""
    violations = """
    window.__refused = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__refused.push(`${e.violatedDirective} ${e.blockedURI}`));
    """
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    link = invite(web_base, opened, 0)
    errors: list[str] = []
    # The page that frames the table is refused, and says so in its console.
    with context(chromium, allowed=("frame-ancestors",)) as made:
        made.add_init_script(violations)
        lobby = open_page(made, f"{web_base}/", errors)
        expect(lobby.locator("#game option")).to_have_count(3)
        rules = open_page(made, f"{web_base}/rules/neuf", errors)
        expect(rules.locator("#rules section h2").first).to_be_visible()
        page = seated_page(made, link, errors)
        expect(page.locator("#hand .card-btn svg").first).to_be_visible()
        # The seats are placed by script (element.style), which the policy allows.
        assert page.locator("#seats .seat").first.evaluate("e => e.style.left") != ""
        for shown in (lobby, rules, page):
            assert shown.evaluate("window.__refused") == [], shown.url
        framing = made.new_page()
        with framing.expect_console_message(lambda m: "frame-ancestors" in m.text):
            framing.set_content(f'<iframe src="{link}"></iframe>')
    assert errors == [], errors


# ---------------------------------------------------------------- what a new player met


def locale(lang: str) -> dict[str, Any]:
    strings: dict[str, Any] = json.loads((WEB / "locales" / f"{lang}.json").read_text())
    return strings


def test_a_forced_moves_hint_says_the_move_is_forced(web_base: str, chromium: Browser) -> None:
    """With one legal action the hint showed "0%" (the server rates a
    forced move with chance null). The Hint button says the move is forced, in each of the
    four languages, and the hint marks the card "forced", not with a percentage."""
    rng = random.Random(29)
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(2)])
    link = invite(web_base, opened, 0)
    seat = Seat(web_base, opened["table"], token_of(link))
    seat.settle()
    # The first hand's last trick at the latest, each holds one card.
    while len(seat.view["legal_actions"]) != 1:
        seat.act(seat.choose(rng))
        seat.settle()
    [only] = seat.view["legal_actions"]
    seat.close()
    card = only.split()[1]
    errors: list[str] = []
    for lang in ("fr", "ru", "fa", "en"):
        words = locale(lang)
        with context(chromium, lang=lang) as made:
            page = seated_page(made, link, errors)
            expect(page.locator("#turn.mine")).to_be_visible()
            expect(page.locator("#hint")).to_have_text(words["hint_forced"])
            expect(page.locator("#hint")).to_have_attribute("title", words["hint_forced_title"])
            if lang != "en":
                continue
            page.click("#hint")
            badge = page.locator(f"#hand .card-btn[data-card='{card}'] .chance")
            expect(badge).to_have_text(words["forced"])
            expect(badge).to_have_class(re.compile(r"\bforced\b"))
            expect(page.locator("#hand .chance")).to_have_count(1)
            assert "%" not in page.locator("#hand").inner_text()
            said = words["hint_forced_said"].replace("{action}", card_words(card))
            expect(page.locator("#live")).to_contain_text(said)
    assert errors == []


def table_events(base: str, table: str) -> list[dict[str, Any]]:
    """Every event of a table, as a watcher joining from event 0 is sent them."""
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    with connect(url, open_timeout=10) as socket:
        socket.send(json.dumps({"type": "join", "token": None, "since": 0}))
        while True:
            message = json.loads(socket.recv(timeout=10))
            if message["type"] == "snapshot":
                events: list[dict[str, Any]] = message["missed"]
                return events


def logged(page: Page) -> dict[int, str]:
    """The page's log, event by event."""
    entries: list[list[Any]] = page.eval_on_selector_all(
        "#log li[data-seq]", "els => els.map(li => [Number(li.dataset.seq), li.textContent])"
    )
    return {seq: text for seq, text in entries}


def tricks_taken(frames: list[dict[str, Any]]) -> dict[int, int]:
    """Event number -> the seat that took the trick the action completed, for every action of
    `frames` (a seat's event messages, in order) that completed one (KOW-4.3): read from the
    views before and after it, as the hand's done tricks grow, not from the events' `won`."""
    taken: dict[int, int] = {}
    for before, after in itertools.pairwise(frames):
        event, view, previous = after["event"], after["view"], before["view"]
        if event["kind"] != "action":
            continue
        tricks = view["tricks"]
        if view["hand_number"] != previous["hand_number"]:
            tricks = (view["previous_hand"] or {}).get("tricks") or []
        if len(tricks) > len(previous["tricks"]):
            taken[after["seq"]] = tricks[-1]["winner"]
    return taken


@pytest.mark.parametrize(
    ("game", "hand"), [(1, 2), (1, 3), (2, 1)], ids=["hand-2", "hand-3-or-later", "next-game"]
)
def test_a_reopened_tab_rebuilds_its_log_with_what_a_stand_in_did(
    web_base: str, chromium: Browser, game: int, hand: int
) -> None:
    """A reopened tab showed an empty log. Ana plays, closes her tab, a
    stand-in plays for her into hand `hand` of game `game` (or, should the deal end the game
    sooner, into the next game); her tab opened again logs every event of the table, word for
    word as a page watching all along logged them: who won each trick of every hand
    (KOW-4.3), of hand 1 too when the view holds only hands 2 and 3 or another game, how an
    earlier game ended, the stand-in's plays marked as its own, and no card but those played:
    the events are public, and the log says nothing a seat may not know. The deal is random;
    whatever it is, the table is played on until the case is met."""
    rng = random.Random(31)
    opened = open_table(
        web_base,
        "knockout-whist",
        [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}, *bots(1)],
    )
    link = invite(web_base, opened, 0)
    bo = Seat(web_base, opened["table"], token_of(invite(web_base, opened, 1)))
    frames: list[dict[str, Any]] = []
    read = bo.read

    def recorded(kind: str | None = None) -> dict[str, Any]:
        # Every event message Bo gets, whatever waits for it: the trick winners' source.
        while True:
            message = read()
            if message["type"] == "event":
                frames.append(message)
            if kind is None or message["type"] == kind:
                return message

    bo.read = recorded  # type: ignore[method-assign]
    errors: list[str] = []
    words = english()
    won = words["won_trick"].split("}")[-1]  # " won the trick", whoever won it
    try:
        with context(chromium) as watching:
            watcher = seated_page(watching, f"{web_base}{opened['spectate']}", errors)
            with context(chromium) as first:
                page = seated_page(first, link, errors)
                for _ in range(3):
                    bo.settle_on({0, 1})
                    if bo.view["to_move"] == 1:
                        bo.act(bo.choose(rng))
                        continue
                    expect(page.locator("#turn.mine")).to_be_visible()
                    click_a_move(page, rng)
                    bo.action_of(0)
            # Ana's tab is closed: Bo asks for a stand-in, who plays for her from now on.
            while bo.read("presence")["table"]["seats"][0]["connected"]:
                pass
            bo.socket.send(json.dumps({"type": "stand_in", "seat": 0}))
            while not bo.read("presence")["table"]["seats"][0]["stand_in"]:
                pass
            games = 1

            def stand_in() -> list[int]:
                return [
                    f["seq"]
                    for f in frames
                    if f["event"]["kind"] == "action" and f["event"]["by"] == "stand-in"
                ]

            # On until hand `hand` of game `game` (or later) has a trick done, and one of the tricks
            # the stand-in completed; Bo plays his turns (if he is still in), and starts the
            # next game should this one end first.
            while not (
                bo.whole
                and (games, bo.view["hand_number"]) >= (game, hand)
                and bo.view["tricks"]
                and set(stand_in()) & set(tricks_taken(frames))
            ):
                if bo.whole and bo.over():
                    bo.socket.send(json.dumps({"type": "next"}))
                    games += bo.read("event")["event"]["kind"] == "game"
                elif bo.whole and bo.my_turn():
                    bo.act(bo.choose(rng))
                else:
                    bo.read("event")
            taken = tricks_taken(frames)
            first_hand = next(i for i, f in enumerate(frames) if f["view"]["hand_number"] > 1)
            if (game, hand) >= (1, 3):
                # The case the view alone cannot tell: tricks of a hand it no longer holds.
                assert any(seq in taken for seq in (f["seq"] for f in frames[:first_hand]))
            last = bo.seq
            expect(watcher.locator(f"#log li[data-seq='{last}']")).to_have_count(1)
            with context(chromium) as again:
                page = seated_page(again, link, errors)
                expect(page.locator(f"#log li[data-seq='{last}']")).to_have_count(1)
                mine, theirs = logged(page), logged(watcher)
            # The reopened log is the live one, line for line (the fair deals' seeds and
            # reveals have no line in either: they are behind the badge).
            assert set(mine) == set(theirs), set(mine) ^ set(theirs)
            for seq in mine:
                assert mine[seq] == theirs[seq], (seq, mine[seq], theirs[seq])
            assert last in mine
            names = ["Ana", "Bo", words["bot_name"].replace("{n}", "3")]
            for seq, seat in taken.items():
                said = words["won_trick"].replace("{name}", names[seat])
                assert mine[seq].endswith(f"{said}."), (seq, mine[seq], seat)
            # And no other event says who won a trick (the table may have gone on since).
            told_won = sorted(seq for seq in mine if seq <= last and won in mine[seq])
            assert told_won == sorted(taken), (told_won, sorted(taken))
            for seq in stand_in():
                assert mine[seq].startswith("Ana "), mine[seq]
                assert words["log"]["by_stand_in"] in mine[seq], mine[seq]
            assert any(won in mine[s] for s in stand_in())
            # The log names the cards played, and no other.
            told = " ".join(mine.values())
            played = {
                event["action"].split()[1]
                for event in table_events(web_base, opened["table"])
                if event["kind"] == "action" and event["action"].startswith("play ")
            }
            named = {
                card
                for card in (r + s for r in words["ranks"] for s in "CDHS")
                if card_words(card) in told
            }
            assert named and named <= played, named - played
    finally:
        bo.close()
    assert errors == []


def test_the_table_says_whom_it_awaits_and_a_bot_can_play_for_them(
    web_base: str, chromium: Browser
) -> None:
    """A seat nobody had joined stalled the table with "Bo to play." and
    no more. Ana creates a table for Ana, Bo and a bot in the lobby and takes her seat; Bo
    never comes. On Bo's turn the page says the table waits for Bo to join, shows Ana (this
    browser created the table) Bo's invitation link, and offers a bot for Bo; a watcher in
    another browser is told whom the table waits for, and gets neither. Ana's click seats a
    stand-in, which plays Bo's turn."""
    rng = random.Random(37)
    words = english()
    errors: list[str] = []
    with context(chromium) as mine, context(chromium) as theirs:
        lobby = open_page(mine, f"{web_base}/", errors)
        lobby.select_option("#game", "knockout-whist")
        lobby.select_option("#players", "3")
        for seat, (kind, name) in enumerate([("human", "Ana"), ("human", "Bo"), ("bot", "")]):
            row = lobby.locator(f"#seat-rows .seat-row[data-seat='{seat}']")
            row.locator("select.kind").select_option(kind)
            if name:
                row.locator("input.name").fill(name)
        lobby.click("#create-table")
        expect(lobby.locator("#created")).to_be_visible()
        links = [
            lobby.locator(f"#invites .invite[data-seat='{seat}'] input.link").input_value()
            for seat in (0, 1)
        ]
        spectate = lobby.locator("#invites .invite[data-spectate] input.link").input_value()
        page = seated_page(mine, links[0], errors)
        watcher = seated_page(theirs, spectate, errors)
        while True:
            page.wait_for_selector("#turn.mine, #waiting:not([hidden])")
            if not page.locator("#turn.mine").count():
                break
            seq = last_seq(page)
            click_a_move(page, rng)
            wait_past(page, seq)
        waiting = words["waiting"]["join"].replace("{name}", "Bo")
        for shown in (page, watcher):
            # Said once, in the waiting box; the turn line says whose turn it is.
            expect(shown.locator("#turn")).not_to_contain_text(waiting)
            expect(shown.locator("#waiting")).to_have_attribute("data-seat", "1")
            expect(shown.locator("#waiting")).to_have_attribute("data-awaited", "true")
            expect(shown.locator("#waiting-text")).to_have_text(waiting)
        expect(page.locator("#waiting-invite input.link")).to_have_value(links[1])
        expect(page.locator("#waiting-invite button.copy")).to_be_visible()
        expect(watcher.locator("#waiting-invite")).to_have_count(0)
        expect(watcher.locator("#stand-in-btn")).to_have_count(0)
        button = page.locator("#stand-in-btn")
        expect(button).to_have_text(words["waiting"]["stand_in"].replace("{name}", "Bo"))
        seq = last_seq(page)
        button.click()
        expect(page.locator("#seats .seat[data-seat='1'].stand-in")).to_be_visible()
        wait_past(page, seq)
        # The stand-in's play is logged (a seed given meanwhile has no line of its own).
        played = page.locator("#log li", has_text=words["log"]["by_stand_in"]).first
        expect(played).to_contain_text("Bo ")
        assert int(played.get_attribute("data-seq") or 0) > seq
        for shown in (page, watcher):
            expect(shown.locator("#turn")).not_to_have_text(waiting)
        expect(page.locator("#banner")).to_be_hidden()
    assert errors == []


def test_a_mistyped_link_shows_a_page_in_the_readers_language(
    web_base: str, chromium: Browser
) -> None:
    """A mistyped table link showed the API's raw JSON. It shows a page
    that says there is no table there, in each of the four languages (Persian right to
    left), with the way back to the lobby; a game with no rules and any other address too."""
    errors: list[str] = []
    for lang in ("en", "fr", "ru", "fa"):
        words = locale(lang)["notfound"]
        with context(chromium, lang=lang, allowed=("status of 404",)) as made:
            page = open_page(made, f"{web_base}/t/no-such-table", errors)
            expect(page.locator("#notfound-text")).to_have_text(words["table"])
            expect(page.locator("#notfound-text")).to_have_attribute("data-kind", "table")
            expect(page.locator("#title")).to_have_text(words["title"])
            expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
            assert "{" not in page.locator("body").inner_text()
            back = page.locator("#lobby-link")
            expect(back).to_have_text(words["lobby"])
            expect(back).to_have_attribute("href", "/")
            if lang == "en":
                for path, kind in (
                    ("/rules/bridge", "rules"),
                    ("/t/abc/def", "table"),
                    ("/x", "page"),
                ):
                    other = open_page(made, f"{web_base}{path}", errors)
                    expect(other.locator("#notfound-text")).to_have_text(words[kind])
                    other.close()
                back.click()
                expect(page.locator("#game option")).to_have_count(3)
    assert errors == []


# ---------------------------------------------------------------- refusals in words


def refusal_sentence(lang: str, reason: str, **names: str) -> str:
    text: str = locale(lang)["refusal"][reason]
    for key, value in names.items():
        text = text.replace(f"{{{key}}}", value)
    return text[0].upper() + text[1:]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_card_that_cannot_be_played_says_why_in_words(
    web_base: str, chromium: Browser, lang: str
) -> None:
    """NEUF-3.1: every seat decides on the exchange, in turn, before any card is played. On
    seat 0's turn to decide, a card clicked (or chosen with the keyboard and Enter) says why
    it cannot be played, in the reader's language, from the reason the server gives; then
    keeping the hand is played as usual, and the log says where one sits in plain words."""
    opened = open_table(web_base, "neuf", [{"kind": "human", "name": "Ana"}, *bots(2)])
    with context(chromium, lang=lang) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        expect(page.locator("#actions button[data-action='keep']")).to_be_visible()
        expect(page.locator("#hand .card-btn.legal")).to_have_count(0)
        # aria-disabled: the card cannot be played, yet a click on it is heard.
        page.locator("#hand .card-btn").first.click(force=True)
        banner = page.locator("#banner")
        expect(banner).to_be_visible()
        expect(banner).to_have_attribute("data-reason", "must_decide_exchange")
        expect(page.locator("#banner-text")).to_have_text(
            refusal_sentence(lang, "must_decide_exchange")
        )
        expect(banner).to_have_attribute("role", "alert")
        page.click("#banner-close")
        # The keyboard alone: the hand's focused card and Enter say the same.
        page.locator("#hand .card-btn[tabindex='0']").focus()
        page.keyboard.press("End")
        page.keyboard.press("Enter")
        expect(banner).to_have_attribute("data-reason", "must_decide_exchange")
        seq = last_seq(page)
        page.click("#actions button[data-action='keep']")
        expect(banner).to_be_hidden()
        wait_past(page, seq)
        # The log's first line, in French too, says where one sits in plain words.
        seated = locale(lang)["log"]["seated"].replace("{name}", "Ana")
        expect(page.locator("#log")).to_contain_text(seated)
        assert "assis comme" not in page.locator("#log").inner_text()


# ---------------------------------------------------------------- web details (layout)


def played_from_python(web_base: str, game: str, players: int) -> tuple[Seat, str]:
    """A table of bots and one person played from Python (a table needs a person), and the
    link to watch it."""
    opened = open_table(web_base, game, [{"kind": "human", "name": "Ana"}, *bots(players - 1)])
    seat = Seat(web_base, opened["table"], token_of(invite(web_base, opened, 0)))
    return seat, f"{web_base}{opened['spectate']}"


def one_line(page: Page, selector: str) -> bool:
    """Whether the element's text sits on one line: its height is under two lines'."""
    held: bool = page.locator(selector).first.evaluate(
        "e => e.getBoundingClientRect().height < 1.8 * parseFloat(getComputedStyle(e).fontSize)"
    )
    return held


def test_knockout_whists_panels_fit_a_1280_by_800_window(web_base: str, chromium: Browser) -> None:
    """At 1280x800: the last trick opens within the window's 800 pixels, "Hand 1 of 7 (7
    cards)" stays on one line, the turned card is big enough to read (at least 48 pixels
    wide), and the hand's seven cards, with room to spare, do not overlap."""
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(2)])
    rng = random.Random(8)
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        expect(page.locator("#turn.mine")).to_be_visible()
        assert one_line(page, "#info dt.head")
        turned = page.locator("#info .card.thumb").first.bounding_box()
        assert turned is not None and turned["width"] >= 48, turned
        cards = page.evaluate(BOXES)["cards"]
        assert len(cards) == 7
        for left, right in itertools.pairwise(cards):
            assert overlap(left, right) <= 0.05 * left["width"] * left["height"], (left, right)
        # Play on until a trick is over, then open it.
        while page.locator("#last-trick-btn").is_disabled():
            expect(page.locator("#turn.mine")).to_be_visible()
            seq = last_seq(page)
            click_a_move(page, rng)
            wait_past(page, seq)
        page.click("#last-trick-btn")
        panel = page.locator("#last-trick")
        expect(panel).to_be_visible()
        box = page.evaluate(
            "() => { const r = document.getElementById('last-trick').getBoundingClientRect();"
            " return { top: r.top + scrollY, bottom: r.bottom + scrollY }; }"
        )
        assert box["bottom"] <= 800, box


def test_a_finished_knockout_whist_keeps_no_chooser_badge(web_base: str, chromium: Browser) -> None:
    """KOW-3.2: the chooser names the next hand's trumps; once the game is over there is no
    next hand, and no seat keeps the "chooses trumps" badge beside the winner's."""
    ana, link = played_from_python(web_base, "knockout-whist", 3)
    with context(chromium) as made:
        page = seated_page(made, link)
        ana.play_to_end(random.Random(4))
        ana.close()
        expect(page.locator("#results")).to_be_visible()
        expect(page.locator("#seats .badge.win")).to_have_count(1)
        expect(page.locator("#seats .badge.chooser")).to_have_count(0)


def test_neufs_sheet_has_a_key_and_its_deals_are_called_deals(
    web_base: str, chromium: Browser
) -> None:
    """NEUF-5.5: the score sheet's cells, "10 (3)", are explained by a key under it; the deal
    checks call a deal a deal, as the info panel does ("Deal 2", never "Hand 2")."""
    ana, link = played_from_python(web_base, "neuf", 3)
    words = english()
    rng = random.Random(6)
    with context(chromium) as made:
        page = seated_page(made, link)
        ana.settle()
        while ana.view["deal_number"] == 1:
            ana.act(ana.choose(rng))
            ana.settle()
        ana.close()
        expect(page.locator("#ledger")).to_be_attached()
        page.click("#ledger summary")
        expect(page.locator("#ledger .ledger-key")).to_have_text(words["neuf"]["ledger_key"])
        page.click("#fair-badge")
        expect(page.locator("#verify li").first).to_be_visible()
        checks = page.locator("#verify li").all_inner_texts()
        assert all(text.startswith("Deal ") for text in checks), checks


def test_an_offline_seat_is_not_see_through(web_base: str, chromium: Browser) -> None:
    """A seat whose player is away is marked (a dashed border), not faded: the box stays
    opaque over the felt."""
    opened = open_table(
        web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, {"kind": "human"}, *bots(1)]
    )
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        away = page.locator("#seats .seat.offline").first
        expect(away).to_be_visible()
        opacity, background = away.evaluate(
            "e => [getComputedStyle(e).opacity, getComputedStyle(e).backgroundColor]"
        )
        assert float(opacity) == 1.0
        assert background.startswith("rgb(") and not background.startswith("rgba("), background


def test_kryt_navalivat_known_dots_have_a_key(web_base: str, chromium: Browser) -> None:
    """KRYT-9: cards picked up are known to everyone, and the hand marks them with a dot; a
    key under the hand says what the dot means."""
    opened = open_table(web_base, "kryt-navalivat", [{"kind": "human", "name": "Ana"}, *bots(1)])
    rng = random.Random(5)
    words = english()
    with context(chromium) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        key = page.locator("#hand-key")
        for _ in range(40):
            if page.locator("#hand .card-btn.known").count():
                break
            expect(page.locator("#turn.mine")).to_be_visible()
            seq = last_seq(page)
            take = page.locator("#actions button[data-action='take']")
            if take.count():
                take.click()
            else:
                click_a_move(page, rng)
            wait_past(page, seq)
        expect(page.locator("#hand .card-btn.known").first).to_be_visible()
        expect(key).to_be_visible()
        expect(key).to_contain_text(words["kryt"]["known_key"])
