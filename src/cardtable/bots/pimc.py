"""Perfect-information Monte Carlo (PIMC) over the compiled core's exact solvers: any
solved game's ``pimc:...`` bot, and Kryt'-navalivat's ``expert`` (its endgame).

Each decision samples deals consistent with what the seat knows (the core's determinizer,
the same as search's), solves each deal exactly with every card in view
(``crates/core/src/<game>/solver.rs``) and plays the action with the best mean value over
the deals. It is the method of the strongest programs for trick games (GIB in Bridge).

Every game has a solver, but not over a whole game: Knockout Whist's solves a hand in
milliseconds, Neuf's a whole deal in a tenth of a second (over a second now and then), and
Kryt'-navalivat's only the endgame, once the stock is empty. So a PIMC bot may be given
``cards``: it plays ``hard``'s search until at most that many cards are left in all hands
(and, in Kryt'-navalivat', the stock is empty), and PIMC from there; Kryt'-navalivat's
solves are bounded by :data:`ENDGAME_NODES`.

Kryt'-navalivat's solver proves a value within its horizon or returns 0 (a draw, or no end
in sight), so its PIMC keeps ``hard``'s search beside it: a proven win is played, a proven
loss never chosen while another action is not one, and among the rest ``hard``'s choice
stands (:func:`endgame_choice`).

The solver exists only in the core, so a PIMC bot uses the core whatever
``CARDTABLE_CORE`` says, and needs it built.
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable import compiled
from cardtable.bots.base import ISMCTS_PARAMETERS, LEVELS, parameters
from cardtable.bots.ismcts import Analyst, IsmctsBot, SearchResult, check_belief
from cardtable.core import Action, Game, State, View
from cardtable.errors import InvalidBudgetError, SolverBudgetError
from cardtable.rules.catalog import DESCRIPTORS, descriptor

if TYPE_CHECKING:
    from cardtable._core import KnockoutWhist, KrytNavalivat, KrytNavalivatState, Neuf

__all__ = [
    "ENDGAME_HORIZONS",
    "ENDGAME_NODES",
    "MODELS",
    "CheaterBot",
    "PimcBot",
    "endgame_choice",
    "seconds_beside",
    "solve_endgame",
]

ENDGAME_NODES = 100_000
"""The nodes a Kryt'-navalivat' endgame solve may search (about a quarter of a second on one
core, at about 370,000 nodes a second) before it is given up and ``hard``'s search decides
alone: with ``hard``'s own search beside it the decision keeps within about a second. A
pile to pick up puts most of the pack back in play, so endgames of few cards in hand are
not all small: 200 endgames of 6 cards in the hands took 0.06 ms at the median and 0.76 s
(282,316 nodes) at worst."""

MIN_SEARCH_SECONDS = 0.05
"""The least time ``hard``'s search gets beside a Kryt'-navalivat' endgame's solves, however
long they took (the solves themselves stop at :data:`ENDGAME_NODES`)."""

ENDGAME_HORIZONS = (4, 6, 8, 10)
"""The horizons a Kryt'-navalivat' endgame is solved within, in turn, while
:data:`ENDGAME_NODES` last (iterative deepening, :func:`solve_endgame`): a win or a loss
proven within fewer actions is as exact, and the short solves cost little, so an endgame
too big to solve within the solver's own horizon of 10 still gives what the shorter ones
prove. Over 231 two-player endgames of up to 18 cards in the hands, 20 passed the budget at
a horizon of 10; at 8 none did, and 194 had a proven value."""

MODELS = ("max-n", "paranoid")
"""How the solver takes the other seats to play: each for itself, or all against the seat."""


def check_model(model: str | None) -> None:
    """Refuses a model that is not one of :data:`MODELS` (``None``: the game's default)."""
    if model is not None and model not in MODELS:
        raise InvalidBudgetError(f"model must be one of {', '.join(MODELS)}, not {model!r}")


def check_iterations(iterations: int | None) -> None:
    """Refuses a search budget (``iterations``, ``None``: ``hard``'s) that is not a whole
    number, 1 or more."""
    if iterations is not None and (isinstance(iterations, bool) or iterations < 1):
        raise InvalidBudgetError(
            f"iterations must be a whole number, 1 or more, not {iterations!r}"
        )


def model_for(game: Game, model: str | None) -> str:
    """The model to solve ``game``'s deals under: ``model``, else the game's default (its
    descriptor's ``solver_model``: max-n where it is fast enough, and for as many players
    as it is defined for; paranoid otherwise)."""
    if model is not None:
        return model
    return descriptor(game.name).solver_model_for(game.num_players)


def solve_endgame(state: KrytNavalivatState, model: str) -> list[tuple[int, float]] | None:
    """Each legal action's value in a Kryt'-navalivat' endgame (the stock empty), solved
    within the longest of :data:`ENDGAME_HORIZONS` that :data:`ENDGAME_NODES` reach in all;
    None if not even the shortest does."""
    left, found = ENDGAME_NODES, None
    for horizon in ENDGAME_HORIZONS:
        try:
            found, nodes = state.solve(model, horizon=horizon, nodes=left)
        except SolverBudgetError:
            break
        left -= nodes
        if left <= 0:
            break
    return found


def solved_twin(game: Game) -> KnockoutWhist | Neuf | KrytNavalivat:
    """The core's twin of ``game``, which must be one with an exact solver."""
    from cardtable._core import KnockoutWhist, KrytNavalivat, Neuf  # the core is needed here

    twin = compiled.core_game(game, always=True)
    if not isinstance(twin, KnockoutWhist | Neuf | KrytNavalivat):
        raise InvalidBudgetError(f"there is no exact solver for {game.name} yet")
    return twin


class PimcBot(Analyst):
    """A bot that plays by PIMC: ``deals`` and ``seconds`` bound each decision (at least one
    is needed); ``model`` is one of :data:`MODELS` (by default the game's,
    :func:`model_for`); ``belief`` weighs each deal by how well it explains the other
    seats' plays this hand, each seat taken to play the game's guided policy with that
    probability (0: every deal alike; Knockout Whist alone has inference); ``threads`` solve
    deals side by side; ``cards``, when given, leaves every decision with more cards than
    that in all hands (or, in Kryt'-navalivat', any card in the stock) to ``hard``'s
    search; ``iterations`` bounds that search instead of ``hard``'s own budget (a smaller
    one makes the strength tables affordable, and both bots of a table get it)."""

    def __init__(
        self,
        name: str = "pimc",
        *,
        deals: int | None = None,
        seconds: float | None = None,
        model: str | None = None,
        belief: float = 0.0,
        threads: int = 1,
        cards: int | None = None,
        iterations: int | None = None,
    ) -> None:
        if deals is None and seconds is None:
            raise InvalidBudgetError("give a budget: deals, seconds or both")
        if deals is not None and (isinstance(deals, bool) or deals < 1):
            raise InvalidBudgetError(f"deals must be a whole number, 1 or more, not {deals!r}")
        if seconds is not None and not 0 < seconds < float("inf"):
            raise InvalidBudgetError(f"seconds must be a positive number, not {seconds!r}")
        check_model(model)
        check_iterations(iterations)
        check_belief(belief)
        if isinstance(threads, bool) or threads < 1:
            raise InvalidBudgetError(f"threads must be a whole number, 1 or more, not {threads!r}")
        if cards is not None and (isinstance(cards, bool) or cards < 1):
            raise InvalidBudgetError(f"cards must be a whole number, 1 or more, not {cards!r}")
        self.name = name
        self.deals = deals
        self.seconds = seconds
        self.model = model
        self.belief = belief
        self.threads = threads
        self.cards = cards
        self.iterations = iterations
        self.last: SearchResult | None = None
        self._games: dict[str, Game] = {}
        self._search: Analyst | None = None

    def model_for(self, game: Game) -> str:
        """The model this bot solves ``game``'s deals under (:func:`model_for`)."""
        return model_for(game, self.model)

    def solves(self, game: Game, view: View) -> bool:
        """Whether this decision is PIMC's (else ``hard``'s search takes it)."""
        if descriptor(game.name).solves_endgame_only and view.get("stock") != 0:
            return False  # the solver needs the stock empty
        return self.cards is None or sum(view["hand_sizes"]) <= self.cards

    def search(self, game: Game) -> Analyst:
        """``hard``'s search (at ``iterations``, when given), for the decisions before the
        endgame."""
        if self._search is None:
            self._search = hard_search(self.iterations)
        return self._search

    def analyse(
        self, game: Game, view: View, rng: random.Random, *, stop_early: bool = True
    ) -> SearchResult:
        """Every legal action's mean value over the sampled deals (each deal counts as a
        visit of every action); seeded from ``rng``. ``stop_early`` is accepted for the
        hints' sake and changes nothing: every deal values every action. Before the
        endgame (``cards``) it is ``hard``'s search."""
        known = DESCRIPTORS.get(game.name)
        if known is None or known.solver_model is None:
            raise InvalidBudgetError(f"there is no exact solver for {game.name} yet")
        if not self.solves(game, view):
            return self.search(game).analyse(game, view, rng, stop_early=stop_early)
        from cardtable._core import KrytNavalivat

        twin = solved_twin(game)
        if isinstance(twin, KrytNavalivat):
            return self._endgame(twin, game, view, rng, stop_early=stop_early)
        number, visits, values, deals, seconds, _ = twin.judge(
            json.dumps(view),
            deals=self.deals,
            seconds=self.seconds,
            model=self.model_for(game),
            seed=rng.getrandbits(64),
            threads=self.threads,
            belief=self.belief,
        )
        return SearchResult(number, visits, values, deals, seconds)

    def _endgame(
        self,
        twin: KrytNavalivat,
        game: Game,
        view: View,
        rng: random.Random,
        *,
        stop_early: bool,
    ) -> SearchResult:
        """Kryt'-navalivat' with the stock empty: the deals consistent with the view (one,
        with two players: every card is then known) solved within the solver's horizon,
        and ``hard``'s search for what the solver leaves open (:func:`endgame_choice`)."""
        began = time.perf_counter()
        deals = 1 if game.num_players == 2 else (self.deals or 100)
        positions = twin.sample_positions(json.dumps(view), deals, rng.getrandbits(64))
        solved: dict[int, list[float]] = {}
        for position in positions:
            solution = solve_endgame(twin.state_from_position(position), self.model_for(game))
            if solution is None:
                solved.clear()  # a deal too big to solve in time: nothing is proven in all
                break
            for number, value in solution:
                solved.setdefault(number, []).append(value)
            if self.seconds is not None and time.perf_counter() - began > self.seconds:
                break
        search = self.search(game)
        if self.seconds is not None and isinstance(search, IsmctsBot):
            search = copy.copy(search)
            search.seconds = seconds_beside(
                self.seconds, time.perf_counter() - began, search.seconds
            )
        searched = search.analyse(game, view, rng, stop_early=stop_early)
        if not solved:
            return searched
        action, values = endgame_choice(solved, searched)
        return SearchResult(
            action,
            searched.visits,
            values,
            searched.iterations,
            time.perf_counter() - began,
        )


def seconds_beside(budget: float, spent: float, own: float | None) -> float:
    """The time of ``hard``'s search beside an endgame's solves: what they left of the
    decision's ``budget`` after ``spent`` seconds, at most the search's ``own`` and at least
    :data:`MIN_SEARCH_SECONDS` (a slow machine would otherwise spend the search's own 0.9 s
    on top of a quarter second of solving)."""
    left = budget - spent
    return max(MIN_SEARCH_SECONDS, left if own is None else min(own, left))


def endgame_choice(
    solved: dict[int, list[float]], searched: SearchResult
) -> tuple[int, dict[int, float]]:
    """The action to play and each action's value, from the solver's values of each action
    over the deals (``solved``) and a search of the same decision: an action proven, with
    the same nonzero value in every deal, is worth that value (1/(n-1) a win, -1 the fool);
    the others are worth the search's estimate. A proven win is played; otherwise the
    search's choice stands unless it is proven lost while another action is not, and then
    the most visited of those others is played."""
    proven = {
        number: deal_values[0]
        for number, deal_values in solved.items()
        if deal_values[0] != 0 and all(value == deal_values[0] for value in deal_values)
    }
    values = {number: proven.get(number, searched.values.get(number, 0.0)) for number in solved}
    wins = [number for number, value in proven.items() if value > 0]
    if wins:
        return max(wins, key=lambda number: (proven[number], -number)), values
    open_actions = [number for number in solved if proven.get(number, 0.0) == 0]
    if searched.action in open_actions or not open_actions:
        return searched.action, values
    return max(open_actions, key=lambda number: (searched.visits.get(number, 0), -number)), values


def hard_search(iterations: int | None) -> IsmctsBot:
    """``hard``'s search (any game's: each decision hands it the game and the view), at
    ``iterations`` when given (the strength tables give every bot of a table the same
    smaller budget)."""
    spec = LEVELS["hard"]
    kind, _, arguments = spec.partition(":")
    assert kind == "ismcts"
    search = IsmctsBot(spec, **parameters(spec, arguments, ISMCTS_PARAMETERS))
    if iterations is not None:
        search.iterations = iterations
    return search


class CheaterBot:
    """A measuring stick, not a player: every card in view. In Knockout Whist and Neuf, the
    exact solver on the true deal, choosing the action of the best value (ties: the
    lowest). Kryt'-navalivat's solver needs the stock empty, so there the cheater is
    ``hard``'s search on the true state, the stock's order in view
    (``search_seeing``, at ``iterations`` when given), with the exact endgame beside it once
    the stock is empty (:func:`endgame_choice`, as ``expert``'s). It reads the whole state,
    which no seat may see, so only the arena seats it (``sees_everything``: the arena hands
    it the state; ``cardtable.arena.match``); the server and the environments never build
    it. The strength tables report how much of its edge over ``hard`` each level keeps."""

    sees_everything = True

    def __init__(
        self, name: str = "cheater", *, model: str | None = None, iterations: int | None = None
    ) -> None:
        check_model(model)
        check_iterations(iterations)
        self.name = name
        self.model = model
        self.iterations = iterations
        self.last: SearchResult | None = None
        self._hard: IsmctsBot | None = None

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        raise InvalidBudgetError("the cheater sees the whole state: only the arena seats it")

    def choose_seeing(
        self, state: State, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The solver's best action on ``state`` itself (Kryt'-navalivat': the search's on
        it, and the solver's once the stock is empty)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        from cardtable._core import KrytNavalivat

        game = state.game
        twin = solved_twin(game)
        if isinstance(twin, KrytNavalivat):
            number = self._search_seeing(twin, state, rng)
        else:
            values, _ = twin.state_from_position(state.position()).solve(
                model_for(game, self.model)
            )
            best = max(value for _, value in values)
            number = min(action for action, value in values if value == best)
        action = game.actions[number]
        if action not in legal_actions:
            raise ValueError(
                f"the cheater chose {action}, which is not among {list(legal_actions)}"
            )
        return action

    def _search_seeing(self, twin: KrytNavalivat, state: State, rng: random.Random) -> int:
        """Kryt'-navalivat': ``hard``'s search on the true state, and once the stock is
        empty the exact endgame beside it, as ``expert`` combines them."""
        if self._hard is None:
            self._hard = hard_search(self.iterations)
        hard = self._hard
        position = state.position()
        number, visits, values, iterations, seconds, _ = twin.search_seeing(
            position,
            iterations=hard.iterations,
            seconds=hard.seconds,
            exploration=hard.exploration,
            seed=rng.getrandbits(64),
        )
        searched = SearchResult(number, visits, values, iterations, seconds)
        self.last = searched
        if state.view(None).get("stock") != 0:
            return number
        model = model_for(state.game, self.model)
        solution = solve_endgame(twin.state_from_position(position), model)
        if solution is None:
            return number
        number, _ = endgame_choice({n: [value] for n, value in solution}, searched)
        return number
