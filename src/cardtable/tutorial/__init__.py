"""The "Learn to play" tutorials: one guided game per game, from stacked decks.

A tutorial is a script over a real game: the options and the stacked deck of each hand it
deals, and every action in order, the learner's and the bots'. The rules engine judges
every move: a learner's move that the rules refuse is refused with the engine's reason, and
a legal move that is not the one the lesson asks for is refused naming the move asked for,
with the step's reason (``why``); the learner then tries again. Every learner step says why
its move is asked for: the rule it shows or what makes it a good move (``why``, a locale key
under ``tutorial.`` in ``web/locales``); the step where a rule first matters also explains
that rule (``lesson``) and cites it in the SPEC. Each tutorial ends with a few ideas a good
player uses (``tips``), shown once the script is done. When the script is done the game
goes on unscripted, against the bots.

The server plays a tutorial at a table of its own (``cardtable.server.tutorial``); this
package knows nothing of the server and only reads the rules through the core protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cardtable
from cardtable.core import Game, State
from cardtable.parts import has_part, part
from cardtable.rules.catalog import DESCRIPTORS

__all__ = ["TUTORIALS", "Step", "Tutorial", "tutorial_of"]


@dataclass(frozen=True, slots=True)
class Step:
    """One action of the script. A learner's step says ``why`` (a locale key) its move is
    the one to make, shown with the move while it is awaited and again if another legal move
    is tried. It may carry a lesson: ``lesson`` (a locale key) explains the rules the step is
    the first to show, ``topics`` are the rules of the course it is the first to matter for,
    and ``rules`` the SPEC IDs it explains."""

    seat: int
    action: str
    why: str | None = None
    lesson: str | None = None
    topics: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tutorial:
    """A guided game: ``game`` with ``options`` (players and dealer fixed), the stacked
    ``decks`` of the hands it deals in order (hands after them are shuffled from ``seed``),
    the ``learner``'s seat, the ``steps``, the ``topics`` the course must cover, and the
    ``tips`` (locale keys): the ideas of good play the lesson ends with."""

    game: str
    options: dict[str, Any]
    learner: int
    decks: tuple[tuple[str, ...], ...]
    steps: tuple[Step, ...]
    topics: tuple[str, ...]
    seed: int = 1
    intro: str = ""
    done: str = ""
    tips: tuple[str, ...] = ()

    def make(self) -> Game:
        return cardtable.make(self.game, **self.options)

    def new_state(self) -> State:
        """The game before its first action, the stacked decks in place."""
        return self.make().new_state(seed=self.seed, decks=[list(d) for d in self.decks])

    def state_at(self, step: int) -> State:
        """The game after the script's first ``step`` actions."""
        if not 0 <= step <= len(self.steps):
            raise ValueError(f"a step of the {self.game} tutorial is 0 to {len(self.steps)}")
        state = self.new_state()
        for item in self.steps[:step]:
            state.apply(item.action, seat=item.seat)
        return state

    def lesson_at(self, step: int) -> Step | None:
        """The learner's step awaited after ``step`` actions, if the script has one there."""
        if step < len(self.steps) and self.steps[step].seat == self.learner:
            return self.steps[step]
        return None

    def describe(self) -> dict[str, Any]:
        """What a page may know of the tutorial before playing it (no card of any step)."""
        return {
            "game": self.game,
            "players": self.options["players"],
            "learner": self.learner,
            "steps": len(self.steps),
            "moves": sum(1 for s in self.steps if s.seat == self.learner),
            "topics": list(self.topics),
            "intro": self.intro,
            "done": self.done,
            "tips": list(self.tips),
        }


def _registry() -> dict[str, Tutorial]:
    # Loaded when first asked for: each game's script imports this module's Step and Tutorial.
    found = {}
    for name in DESCRIPTORS:
        if has_part("tutorial", name):
            tutorial: Tutorial = part("tutorial", name).TUTORIAL
            found[tutorial.game] = tutorial
    return found


TUTORIALS: dict[str, Tutorial] = {}


def tutorial_of(game: str) -> Tutorial:
    """The tutorial of ``game``; ``KeyError`` when there is none."""
    if not TUTORIALS:
        TUTORIALS.update(_registry())
    return TUTORIALS[game]
