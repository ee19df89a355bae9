"""Perfect-information Monte Carlo (PIMC): the ``expert`` level where a game has an exact
solver in the compiled core.

Each decision samples deals consistent with what the seat knows (the core's determinizer,
the same as search's), solves each deal exactly with every card in view
(``crates/core/src/<game>/solver.rs``) and plays the action with the best mean value over
the deals. It is the method of the strongest programs for trick games (GIB in Bridge).
Knockout Whist and Neuf have solvers so far. ``expert`` is PIMC only where a decision fits
its time (:data:`EXPERT_GAMES`); elsewhere it is ``hard``'s search.

The solver exists only in the core, so a PIMC bot uses the core whatever
``CARDTABLE_CORE`` says, and needs it built.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable import compiled
from cardtable.bots.ismcts import Analyst, SearchResult
from cardtable.core import Action, Game, State, View
from cardtable.errors import InvalidBudgetError

if TYPE_CHECKING:
    from cardtable._core import KnockoutWhist, Neuf

__all__ = ["DEFAULT_MODELS", "EXPERT_GAMES", "MODELS", "SOLVED_GAMES", "CheaterBot", "PimcBot"]

SOLVED_GAMES = frozenset({"knockout-whist", "neuf"})
"""The games with an exact solver in the core."""

EXPERT_GAMES = frozenset({"knockout-whist"})
"""The games whose ``expert`` level is PIMC. A whole Neuf deal takes the solver about a
tenth of a second with three players (over a second now and then) and seconds with four
(``benchmarks/solver.py``), so PIMC cannot keep to the level's 0.9 s early in a deal:
Neuf's ``expert`` stays ``hard`` until the solver is faster."""

MODELS = ("max-n", "paranoid")
"""How the solver takes the other seats to play: each for itself, or all against the seat."""

DEFAULT_MODELS = {"knockout-whist": "max-n", "neuf": "paranoid"}
"""Each solved game's model when none is given: max-n where it is fast enough; Neuf's
max-n cannot prune, and takes far too long over more than the last few tricks of a deal."""


def check_model(model: str | None) -> None:
    """Refuses a model that is not one of :data:`MODELS` (``None``: the game's default)."""
    if model is not None and model not in MODELS:
        raise InvalidBudgetError(f"model must be one of {', '.join(MODELS)}, not {model!r}")


def solved_twin(game: Game) -> KnockoutWhist | Neuf:
    """The core's twin of ``game``, which must be one with an exact solver."""
    from cardtable._core import KnockoutWhist, Neuf  # the core is needed here alone

    twin = compiled.core_game(game, always=True)
    if not isinstance(twin, KnockoutWhist | Neuf):
        raise InvalidBudgetError(f"there is no exact solver for {game.name} yet")
    return twin


class PimcBot(Analyst):
    """A bot that plays by PIMC: ``deals`` and ``seconds`` bound each decision (at least one
    is needed); ``model`` is one of :data:`MODELS` (by default the game's,
    :data:`DEFAULT_MODELS`); ``belief`` weighs each deal by how well it explains the other
    seats' plays this hand, each seat taken to play the game's guided policy with that
    probability (0: every deal alike; Neuf has no inference yet); ``threads`` solve deals
    side by side."""

    def __init__(
        self,
        name: str = "pimc",
        *,
        deals: int | None = None,
        seconds: float | None = None,
        model: str | None = None,
        belief: float = 0.0,
        threads: int = 1,
    ) -> None:
        if deals is None and seconds is None:
            raise InvalidBudgetError("give a budget: deals, seconds or both")
        if deals is not None and (isinstance(deals, bool) or deals < 1):
            raise InvalidBudgetError(f"deals must be a whole number, 1 or more, not {deals!r}")
        if seconds is not None and not 0 < seconds < float("inf"):
            raise InvalidBudgetError(f"seconds must be a positive number, not {seconds!r}")
        check_model(model)
        if not 0 <= belief < 1:
            raise InvalidBudgetError(f"belief must be at least 0 and below 1, not {belief!r}")
        if isinstance(threads, bool) or threads < 1:
            raise InvalidBudgetError(f"threads must be a whole number, 1 or more, not {threads!r}")
        self.name = name
        self.deals = deals
        self.seconds = seconds
        self.model = model
        self.belief = belief
        self.threads = threads
        self.last: SearchResult | None = None
        self._games: dict[str, Game] = {}

    def analyse(
        self, game: Game, view: View, rng: random.Random, *, stop_early: bool = True
    ) -> SearchResult:
        """Every legal action's mean value over the sampled deals (each deal counts as a
        visit of every action); seeded from ``rng``. ``stop_early`` is accepted for the
        hints' sake and changes nothing: every deal values every action."""
        if game.name not in SOLVED_GAMES:
            raise InvalidBudgetError(f"there is no exact solver for {game.name} yet")
        twin = solved_twin(game)
        number, visits, values, deals, seconds = twin.judge(
            json.dumps(view),
            deals=self.deals,
            seconds=self.seconds,
            model=self.model or DEFAULT_MODELS[game.name],
            seed=rng.getrandbits(64),
            threads=self.threads,
            belief=self.belief,
        )
        return SearchResult(number, visits, values, deals, seconds)


class CheaterBot:
    """A measuring stick, not a player: the exact solver on the true deal, every card in
    view, choosing the action of the best value (ties: the lowest). It reads the whole
    state, which no seat may see, so only the arena seats it (``sees_everything``: the
    arena hands it the state; ``cardtable.arena.match``); the server and the
    environments never build it. The strength tables report how much of its edge over
    ``hard`` each level keeps."""

    sees_everything = True

    def __init__(self, name: str = "cheater", *, model: str | None = None) -> None:
        check_model(model)
        self.name = name
        self.model = model

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        raise InvalidBudgetError("the cheater sees the whole state: only the arena seats it")

    def choose_seeing(
        self, state: State, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The solver's best action on ``state`` itself."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        twin = solved_twin(state.game)
        values, _ = twin.state_from_position(state.position()).solve(
            self.model or DEFAULT_MODELS[state.game.name]
        )
        best = max(value for _, value in values)
        number = min(action for action, value in values if value == best)
        action = state.game.actions[number]
        if action not in legal_actions:
            raise ValueError(f"the solver chose {action}, which is not among {list(legal_actions)}")
        return action
