"""The moments between hands in a real browser (headless Chromium against `cardtable serve`),
with motion on as a player has it: a move the page offers as a hand ends is taken however
quickly it is made, by mouse or by keyboard; a finished trick rests long enough to be read;
the keyboard's focus follows the play.

Each table here is played from Python over the websocket (every seat a person), and the
page is opened, just before a hand's last card, on the seats that may move first in the next
hand (but the one playing that card, from Python): the hand's end (that card, its deck
revealed, the next hand dealt: one change) then reaches the page live, as a player sees it."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from browser_pieces import (
    EXPECT_MS,
    Seat,
    bots,
    context,
    invite,
    last_seq,
    open_table,
    seated_page,
    token_of,
    wait_past,
)

expect.set_options(timeout=EXPECT_MS)

# Every refusal the page is told of (table_state.js notifies "refused" with the error).
WATCH_REFUSALS = """
window.__refused = [];
document.addEventListener('cardtable:refused', (e) => window.__refused.push(e.detail));
"""

# The moves of the test below: how long after the move's buttons appear it is made, and how.
MOMENTS = [(delay, how) for how in ("mouse", "keyboard") for delay in (0, 100, 300, 600)]


class Players:
    """Every seat of one table, each a person played from Python (random legal moves, kept
    in step: each seat has read every event before anyone moves)."""

    def __init__(self, base: str, opened: dict[str, object], count: int) -> None:
        self.base = base
        self.table = str(opened["table"])
        self.tokens = [token_of(invite(base, opened, seat)) for seat in range(count)]
        self.seats: dict[int, Seat] = {
            s: Seat(base, self.table, t) for s, t in enumerate(self.tokens)
        }

    def any(self) -> Seat:
        return next(iter(self.seats.values()))

    def step(self, rng: random.Random) -> None:
        """The seat to move plays; every other seat reads to the end of that change."""
        view = self.any().view
        mover = self.seats[view["to_move"]]
        mover.act(mover.choose(rng))
        self.catch_up(mover.seq)

    def catch_up(self, seq: int) -> None:
        for seat in self.seats.values():
            while seat.seq < seq or not seat.whole:
                seat.read("event")

    @contextmanager
    def away(self, seats: list[int]) -> Iterator[None]:
        """`seats` leave Python for a while (a page takes each: a second window would
        replace the first), and come back after."""
        for seat in seats:
            self.seats.pop(seat).close()
        try:
            yield
        finally:
            for seat in seats:
                self.seats[seat] = Seat(self.base, self.table, self.tokens[seat])
            self.catch_up(max(s.seq for s in self.seats.values()))

    def close(self) -> None:
        for seat in self.seats.values():
            seat.close()


def cards_left(view: dict[str, object]) -> int:
    sizes = view["hand_sizes"]
    assert isinstance(sizes, list)
    return sum(sizes)


def first_to_move(view: dict[str, object]) -> list[int]:
    """The seats that may make the next hand's first move: Neuf's first to exchange, the
    next dealer's left (NEUF-7, NEUF-3.1); in Knockout Whist the hand's chooser, any seat
    (KOW-3.2) until its last card is played."""
    players = view["players"]
    assert isinstance(players, int)
    if view["game"] == "neuf":
        dealer = view["dealer"]
        assert isinstance(dealer, int)
        return [(dealer + 2) % players]
    return list(range(players))


def make_move(page: Page, verb: str, delay: int, how: str) -> str:
    """Waits for the buttons of `verb` to appear, then after `delay` ms makes the first of
    them by mouse or by keyboard; the action made."""
    buttons = page.locator(f"#actions button[data-action^='{verb}']")
    buttons.first.wait_for(state="visible")
    time.sleep(delay / 1000)
    button = buttons.first
    action = button.get_attribute("data-action")
    assert action is not None
    if how == "mouse":
        button.click()
    else:
        button.focus()
        page.keyboard.press("Enter")
    return action


@pytest.mark.parametrize(
    ("game", "verb"),
    [("knockout-whist", "trump"), ("neuf", "exchange")],
    ids=["knockout-whist-trumps", "neuf-exchange"],
)
def test_a_move_offered_as_a_hand_ends_is_never_refused(
    web_base: str, chromium: Browser, game: str, verb: str
) -> None:
    """Knockout Whist's trumps named by the hand's chooser (KOW-3.2) and Neuf's first
    exchange decision of a deal (NEUF-3.1), made 0, 100, 300 and 600 ms after their buttons
    appear, by mouse and by keyboard, while the page still shows the last trick being
    gathered and the new hand dealt: each is taken, none refused."""
    rng = random.Random(4)
    todo = list(MOMENTS)
    made_moves: list[tuple[int, str, str]] = []
    with context(chromium, motion=True) as made:
        made.add_init_script(WATCH_REFUSALS)
        for _ in range(12):  # tables, until every moment has been tried
            if not todo:
                break
            players = Players(web_base, open_table(web_base, game, people(3)), 3)
            try:
                play_moments(made, players, verb, todo, made_moves, rng)
            finally:
                players.close()
    assert todo == [], f"moments never reached: {todo}"
    assert len(made_moves) == len(MOMENTS)


def people(count: int) -> list[dict[str, object]]:
    return [{"kind": "human", "name": f"P{seat}"} for seat in range(count)]


def play_moments(
    made: BrowserContext,
    players: Players,
    verb: str,
    todo: list[tuple[int, str]],
    made_moves: list[tuple[int, str, str]],
    rng: random.Random,
) -> None:
    """Plays the table to its end, trying a moment of `todo` at each hand's end."""
    while todo:
        view = players.any().view
        if view["phase"] == "over":
            return
        if view["phase"] != "play" or cards_left(view) != 1:
            players.step(rng)
            continue
        last = view["to_move"]
        watching = [seat for seat in first_to_move(view) if seat != last]
        with players.away(watching):
            pages = {seat: seated_page(made, invite_of(players, seat)) for seat in watching}
            mover = players.seats[last]
            mover.act(mover.view["legal_actions"][0])
            after = mover.view
            chooser = after["to_move"]
            page = pages.get(chooser)
            if page is not None and after["phase"] != "over":
                delay, how = todo.pop(0)
                action = make_move(page, verb, delay, how)
                # The page's move, taken and told, or refused.
                page.wait_for_function(
                    "seq => window.__refused.length > 0 || [...document.querySelectorAll("
                    "'#log li[data-seq]')].some((li) => Number(li.dataset.seq) > seq)",
                    arg=mover.seq,
                )
                refused = page.evaluate("window.__refused")
                assert refused == [], (delay, how, refused)
                expect(page.locator(f"#actions button[data-action='{action}']")).to_have_count(0)
                made_moves.append((delay, how, action))
            for open_page in pages.values():
                open_page.close()


def invite_of(players: Players, seat: int) -> str:
    return f"{players.base}/t/{players.table}#seat={seat}&token={players.tokens[seat]}"


def trick_cards_shown(page: Page) -> None:
    """Counts, at every frame, the cards of the trick in the middle that are fully shown."""
    page.evaluate(
        """() => {
          window.__full = [];
          const tick = () => {
            const cards = [...document.querySelectorAll('#center .trick .card[data-card]')];
            const full = cards.filter((c) => Number(getComputedStyle(c).opacity) > 0.95).length;
            window.__full.push([performance.now(), full]);
            if (window.__full.length < 2000) requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }"""
    )


def test_a_finished_two_player_trick_rests_long_enough_to_be_read(
    web_base: str, chromium: Browser
) -> None:
    """With two players the bot's reply comes at once; the trick it finishes stays where it
    lies, every card in full view, for about a second before it is gathered (motion on),
    and stays on show, faded, until the next card."""
    opened = open_table(
        web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)], {"players": 2}
    )
    with context(chromium, motion=True) as made:
        page = seated_page(made, invite(web_base, opened, 0))
        expect(page.locator("#turn.mine")).to_be_visible()
        trick_cards_shown(page)
        page.locator("#hand .card-btn.legal").first.click()
        # The trick is won (drawn faded at once, the motion over it), then gathered.
        expect(page.locator("#center .trick .trick-cards.faded .card")).to_have_count(2)
        page.wait_for_timeout(2500)
        samples = page.evaluate("window.__full")
    longest = 0.0
    start = None
    for moment, full in samples:
        if full == 2:
            start = moment if start is None else start
            longest = max(longest, moment - start)
        else:
            start = None
    # The rest is 1.1 s after the card's flight; a busy machine's frames come further apart.
    assert longest >= 900, f"both cards in full view for {longest:.0f} ms only"


def test_the_focus_lands_on_the_next_thing_to_do(web_base: str, chromium: Browser) -> None:
    """Played by keyboard alone: after each card, after a hand's last card and after naming
    trumps (KOW-3.2) the focus is on a move (a card of the hand, an action's button), and
    on "Next game" once the game is over: never left on the page."""
    where = (
        "() => { const el = document.activeElement; return el.closest('#hand') ? 'hand'"
        " : el.closest('#actions') ? 'actions' : el.id || el.tagName; }"
    )
    named = checked_after_naming = False
    with context(chromium) as made:
        for _ in range(6):  # games, until this seat has named trumps
            opened = open_table(
                web_base,
                "knockout-whist",
                [{"kind": "human", "name": "Ana"}, *bots(1)],
                {"players": 2},
            )
            page = seated_page(made, invite(web_base, opened, 0))
            expect(page.locator("#hand .card-btn").first).to_be_visible()
            page.locator(".skip").focus()
            page.keyboard.press("Enter")
            while True:
                page.wait_for_selector("#turn.mine, #results:not([hidden])")
                focused = page.evaluate(where)
                if page.is_visible("#results"):
                    assert focused == "next-game", focused
                    break
                assert focused in ("hand", "actions"), focused
                checked_after_naming = checked_after_naming or named
                if checked_after_naming and focused == "hand":
                    break
                seq = last_seq(page)
                if focused == "actions":
                    named = True
                else:
                    # On to a move (where the focus landed was checked above): a playable
                    # card, or a button (the dog's knock, KOW-6).
                    page.locator("#hand .card-btn.legal, #actions button").first.focus()
                page.keyboard.press("Enter")
                wait_past(page, seq)
            page.close()
            if checked_after_naming:
                break
    assert named and checked_after_naming, "this seat named no trumps in 6 games"


# The highest event number in the page's log each time the lesson moves on.
WATCH_LESSONS = """
window.__lessons = [];
document.addEventListener('cardtable:lesson', (e) => window.__lessons.push([e.detail.seq,
  Math.max(0, ...[...document.querySelectorAll('#log li[data-seq]')]
    .map((li) => Number(li.dataset.seq)))]));
"""


def test_the_lesson_moves_on_with_the_table(web_base: str, chromium: Browser) -> None:
    """A "Learn to play" lesson (motion on) names the next move only once the table shows
    the change that led to it: when the lesson moves on, every event it follows is told."""
    with context(chromium, motion=True) as made:
        made.add_init_script(WATCH_LESSONS)
        page = made.new_page()
        page.goto(f"{web_base}/learn/knockout-whist")
        for _ in range(3):
            page.wait_for_selector("#lesson[data-expect^='play ']", state="attached")
            expected = page.locator("#lesson").get_attribute("data-expect") or ""
            page.wait_for_selector(f"#hand .card-btn.legal.lesson-move[data-card='{expected[5:]}']")
            step = page.get_attribute("#lesson", "data-step")
            page.click(f"#hand .card-btn[data-card='{expected[5:]}']")
            page.wait_for_function(
                "step => document.getElementById('lesson').dataset.step !== step", arg=step
            )
        lessons = page.evaluate("window.__lessons")
    assert len(lessons) >= 4, lessons
    assert all(shown >= seq for seq, shown in lessons), lessons
