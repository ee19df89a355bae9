"""Tutorial tables: a "Learn to play" guided game at a table of the server's own.

A tutorial table is a :class:`Table` whose first game is dealt from the tutorial's stacked
decks, whose bots play the script's moves, and which refuses a learner's legal move that is
not the lesson's (``not_the_lesson``, whose details name the move asked for and the move
made, for the page to say in the reader's words with the step's ``why`` from the ``lesson``
message). Every move still goes through the rules engine, and every seat still gets only
its own view. After the script the game goes on unscripted, against the bots.

A tutorial table lives in memory only: the tutorial is a fixed script, so the page keeps
the learner's progress (the step) and a new table is rebuilt at that step after a reload
or a server restart. The hub drops one idle for its ``evict_after`` seconds, and keeps at
most :data:`MAX_TUTORIAL_TABLES` of them, the oldest nobody is at making room.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from cardtable.options import read_deck
from cardtable.server.deals import publish
from cardtable.server.table import (
    BOT,
    HUMAN,
    Change,
    Run,
    Seat,
    Table,
    TableError,
    seat_token,
    token_hash,
)
from cardtable.tutorial import Tutorial

__all__ = ["LESSON_REASONS", "MAX_TUTORIAL_TABLES", "TutorialTable", "other_move"]

MAX_TUTORIAL_TABLES = 200
BOT_LEVEL = "easy"  # the bots' level once the script is done: a gentle first opponent
CARD_VERBS = ("play", "lead", "beat", "cover")
# The reasons of a ``not_the_lesson`` refusal, said by the page as the rules' refusals are
# (``refusal.<reason>`` in web/locales).
LESSON_REASONS = ("lesson_card", "lesson_move")


def other_move(asked: str, played: str) -> dict[str, Any]:
    """The ``reason`` and ``details`` of a ``not_the_lesson`` refusal, for the page to say in
    its reader's words: ``lesson_card`` when the move played is the one asked for with
    another card (``card``: the card asked for, ``chosen``: the card played), else
    ``lesson_move`` (``asked``, ``played``: the two moves, as action text)."""
    verb, _, card = asked.partition(" ")
    other, _, chosen = played.partition(" ")
    if verb == other and verb in CARD_VERBS and card and chosen:
        return {"reason": "lesson_card", "details": {"card": card, "chosen": chosen}}
    return {"reason": "lesson_move", "details": {"asked": asked, "played": played}}


class TutorialTable(Table):
    """A table playing ``tutorial``; seat ``tutorial.learner`` is the learner's."""

    stored = False

    def __init__(self, table_id: str, tutorial: Tutorial, seats: list[Seat]) -> None:
        game = tutorial.make()
        super().__init__(table_id, tutorial.game, game.rules, seats)
        self.tutorial = tutorial
        # A stored table keeps only its current game in memory and reads the others from
        # the database; a tutorial table has no database, so it keeps its finished games
        # (a learner plays a few) for their replays and for a page that reconnects.
        self.finished: dict[int, Run] = {}
        self.earlier: list[dict[str, Any]] = []

    @classmethod
    def begin(cls, tutorial: Tutorial, step: object = 0) -> tuple[TutorialTable, str]:
        """A new tutorial table with the script played up to ``step``, and the learner's
        token. :class:`TableError` ``bad_step`` if ``step`` is not a step of the script."""
        last = len(tutorial.steps)
        if type(step) is not int or not 0 <= step <= last:
            raise TableError("bad_step", f"step is a whole number from 0 to {last}")
        token = seat_token()
        seats = []
        for number in range(tutorial.options["players"]):
            if number == tutorial.learner:
                seats.append(Seat(number, HUMAN, "", token_hash=token_hash(token)))
            else:
                seats.append(Seat(number, BOT, f"{BOT_LEVEL} bot", BOT_LEVEL))
        table = cls(secrets.token_urlsafe(9), tutorial, seats)
        table.commit(table._start(tutorial.options["dealer"]))
        for item in tutorial.steps[:step]:
            by = "human" if item.seat == tutorial.learner else "bot"
            table.commit(table.act(item.seat, item.action, by))
        return table, token

    @property
    def step(self) -> int:
        """How many of the script's actions have been played (all once it is done)."""
        if self.games > 1:
            return len(self.tutorial.steps)
        return sum(1 for e in self.events if e["kind"] == "action")

    @property
    def scripted(self) -> bool:
        return self.step < len(self.tutorial.steps)

    def _start(self, dealer: int) -> Change:
        if self.current is not None:  # a later game: shuffled, as at any table
            return super()._start(dealer)
        # Only hand 1's deck is stacked in the state; each later deck of the script is drawn
        # when its hand is dealt (the shuffler), so that the table publishes a deck's deal
        # when the hand is dealt and reveals it when the hand is over, as at any table.
        # (Stacked at the start, every deck would be "dealt" at once and none revealed
        # until a deck past the script's was drawn.)
        tutorial = self.tutorial
        game = tutorial.make()
        state = game.new_state(seed=tutorial.seed, decks=[list(tutorial.decks[0])])
        decks = [read_deck(deck, f"deck {i}", game.pack) for i, deck in enumerate(tutorial.decks)]
        chance = random.SystemRandom()

        def deal(label: str, cards: list[int]) -> list[int]:
            # "hand 2" is the second deck drawn; after the script's, a shuffled one.
            kind, _, number = label.partition(" ")
            if kind == "hand" and number.isdigit() and int(number) <= len(decks):
                return list(decks[int(number) - 1])
            return chance.sample(cards, len(cards))

        state.shuffler = deal
        run = Run(1, dealer, state)
        events: list[dict[str, Any]] = [{"kind": "game", "game": 1, "dealer": dealer}]
        deals = publish(self.id, run, events, self.client_seeds)
        return Change(self._numbered(events), deals, run, new_game=True)

    def commit(self, change: Change) -> None:
        if change.new_game and self.current is not None:
            self.finished[self.current.number] = self.current
            self.earlier.extend(self.events)
        super().commit(change)

    def held_since(self, since: int) -> list[dict[str, Any]]:
        if since >= self.first:
            return self.events[since - self.first :]
        return [*self.earlier[since:], *self.events]

    def replay(self, number: int) -> dict[str, Any]:
        run = self.finished.get(number)
        if run is None:
            return super().replay(number)
        return self._replay(run)

    def finished_run(self, number: int) -> Run:
        run = self.finished.get(number)
        return super().finished_run(number) if run is None else run

    def act(self, seat: int, text: str, by: str, seq: int | None = None) -> Change:
        change = super().act(seat, text, by, seq)  # the engine's verdict comes first
        if self.scripted:
            expected = self.tutorial.steps[self.step]
            played = change.events[0]["action"]
            if (seat, played) != (expected.seat, expected.action):
                raise TableError(
                    "not_the_lesson",
                    f"{played!r} is legal, but this lesson asks for {expected.action!r}",
                    **other_move(expected.action, played),
                )
        return change

    def scripted_move(self, seat: int) -> str | None:
        if self.scripted:
            expected = self.tutorial.steps[self.step]
            if expected.seat == seat:
                return expected.action
        return None

    def describe(self) -> dict[str, Any]:
        # Public: which tutorial and how far, never a card of the script.
        return {
            **super().describe(),
            "tutorial": {"game": self.tutorial.game, "step": self.step},
        }

    def notes(self, seat: int | None) -> list[dict[str, Any]]:
        """The ``lesson`` message, for the learner's seat alone: the move it names is a
        card of the learner's own hand."""
        if seat != self.tutorial.learner:
            return []
        step = self.step
        total = len(self.tutorial.steps)
        lesson: dict[str, Any] = {
            "type": "lesson",
            "tutorial": self.tutorial.game,
            "seq": self.seq,
            "step": step,
            "steps": total,
            "done": step >= total,
            "lesson": None,
            "expect": None,
            "why": None,
            "rules": [],
            "tips": list(self.tutorial.tips),
        }
        awaited = self.tutorial.lesson_at(step)
        if awaited is not None:
            lesson.update(
                lesson=awaited.lesson,
                expect=awaited.action,
                why=awaited.why,
                rules=list(awaited.rules),
            )
        return [lesson]
