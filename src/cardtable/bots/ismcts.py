"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012).

The tree belongs to one seat, the searcher. Its nodes are sequences of action numbers, so
one tree gathers what every deal consistent with the searcher's view teaches. Each
iteration:

1. **determinizes**: ``knowledge.sample(rng)`` deals everything the searcher cannot see
   at random, consistently with what play has revealed (the game's ``knowledge`` module);
2. **selects** down the tree among the children whose actions are legal in that deal, by
   UCB1 with *availability* counts: a child's exploration term counts the iterations in
   which it could have been chosen, not its parent's visits;
3. **expands** one untried legal action;
4. **plays out** the rest through the unchecked path (``apply_id``): uniformly at random,
   or with a game's guided rollout policy;
5. **backs up** the result: each node adds the return of the seat that chose its action.

It chooses the most visited action at the root, and stops before its iteration budget is
spent once the leader's lead in visits exceeds the iterations left: none of them could
change the choice: the same move, sooner (``benchmarks/search.py`` counts what ``hard``
spends).

The search sees no hidden card: it starts from a seat's view, and every deal it searches
is one that seat could not tell from the truth.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cardtable import compiled
from cardtable.core import Action, Game, Knowledge, State, View
from cardtable.errors import CardtableError, InvalidBudgetError, InvalidPositionError
from cardtable.parts import part

__all__ = [
    "InvalidBudgetError",
    "IsmctsBot",
    "Node",
    "Rollout",
    "SearchResult",
    "check_budget",
    "guided_rollout",
    "search",
    "uniform_rollout",
]

Rollout = Callable[[State, random.Random], Sequence[float]]
"""Plays a state on and returns every seat's expected return: the game's result if it
plays to the end (:func:`uniform_rollout`), or an estimate where a game's rollout stops
early (at the end of a hand, for the games of many hands)."""


@dataclass(slots=True, eq=False)
class Node:
    """An action in the tree, chosen by ``mover``; ``total`` sums that seat's returns over
    the ``visits`` through it, ``avail`` counts the iterations it was legal in."""

    mover: int
    visits: int = 0
    avail: int = 1
    total: float = 0.0
    children: dict[int, Node] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The root's statistics: per action number searched, visits and mean return, and
    (the core's search) the standard deviation of the returns behind each mean."""

    action: int
    visits: dict[int, int]
    values: dict[int, float]
    iterations: int
    seconds: float
    deviations: dict[int, float] = field(default_factory=dict)


def check_belief(belief: float) -> None:
    """:class:`InvalidBudgetError` unless ``belief`` (inference: the chance a seat plays the
    guided policy's card) is at least 0 and below 1, as the core's inference needs it."""
    if not 0 <= belief < 1:
        raise InvalidBudgetError(f"belief must be at least 0 and below 1, not {belief!r}")


def check_budget(iterations: int | None, seconds: float | None) -> None:
    """:class:`InvalidBudgetError` unless at least one budget is given and each given one is
    positive."""
    if iterations is None and seconds is None:
        raise InvalidBudgetError("give a search budget: iterations, seconds or both")
    if iterations is not None and (
        isinstance(iterations, bool) or not isinstance(iterations, int) or iterations <= 0
    ):
        raise InvalidBudgetError(f"iterations must be a positive whole number, not {iterations!r}")
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not math.isfinite(seconds)
        or seconds <= 0
    ):
        raise InvalidBudgetError(f"seconds must be a positive number, not {seconds!r}")


def search(
    knowledge: Knowledge,
    rng: random.Random,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    exploration: float = 0.7,
    rollout: Rollout | None = None,
    stop_early: bool = True,
) -> SearchResult:
    """Search for ``knowledge.seat``, whose turn it must be, within a budget of
    ``iterations`` or ``seconds`` (whichever runs out first when both are given).

    The chosen action is the most visited at the root (ties: the better mean). With a time
    budget the result depends on the machine's speed; with iterations alone it is a
    function of the view and ``rng``. With ``stop_early`` an iteration budget is not spent
    once no iteration left could change the choice: the action is the one the whole budget
    would give from the same ``rng``, only sooner."""
    check_budget(iterations, seconds)
    seat = knowledge.seat
    began = time.perf_counter()
    deadline = math.inf if seconds is None else began + seconds
    limit = math.inf if iterations is None else iterations
    first = knowledge.sample(rng)
    if first.to_move != seat:
        raise CardtableError(f"seat {seat} searches only on its own turn")
    legal = first.legal_action_ids()
    if len(legal) == 1:
        return SearchResult(legal[0], {}, {}, 0, time.perf_counter() - began)
    play_out = rollout or uniform_rollout
    root = Node(mover=seat)
    log, sqrt, draw = math.log, math.sqrt, rng.random
    done = 0
    state = first
    while done < limit and (done & 15 or time.perf_counter() < deadline):
        if done:
            state = knowledge.sample(rng)
        node = root
        path = [root]
        while state.to_move is not None:
            actions = state.legal_action_ids()
            children = node.children
            untried = [a for a in actions if a not in children]
            if untried:
                action = untried[int(draw() * len(untried))]
                for a in actions:
                    child = children.get(a)
                    if child is not None:
                        child.avail += 1
                child = children[action] = Node(mover=state.to_move)
                state.apply_id(action)
                path.append(child)
                break
            best, best_score = actions[0], -math.inf
            for a in actions:
                child = children[a]
                child.avail += 1
                score = child.total / child.visits + exploration * sqrt(
                    log(child.avail) / child.visits
                )
                if score > best_score:
                    best, best_score = a, score
            state.apply_id(best)
            node = children[best]
            path.append(node)
        returns: Sequence[float]
        if state.to_move is None:
            result = state.result
            assert result is not None  # a game with nobody to move is over
            returns = result.returns
        else:
            returns = play_out(state, rng)
        for node in path:
            node.visits += 1
            node.total += returns[node.mover]
        done += 1
        if stop_early and not done & 15 and _settled(root, limit - done):
            break
    searched = {a: root.children[a] for a in legal if a in root.children}
    elapsed = time.perf_counter() - began
    if not searched:  # no iteration ran (a tiny time budget): the first legal action
        return SearchResult(legal[0], {}, {}, done, elapsed)
    means = {a: n.total / n.visits for a, n in searched.items()}
    action = max(searched, key=lambda a: (searched[a].visits, means[a]))
    return SearchResult(
        action=action,
        visits={a: n.visits for a, n in searched.items()},
        values=means,
        iterations=done,
        seconds=elapsed,
    )


def _settled(root: Node, remaining: float) -> bool:
    """Whether the most visited action leads every other by more than ``remaining``
    visits: then no iteration left can change the choice, and searching on is waste."""
    first = second = 0
    for child in root.children.values():
        visits = child.visits
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > remaining


def uniform_rollout(state: State, rng: random.Random) -> Sequence[float]:
    """Uniformly random legal actions to the end of the game; the result's returns. The
    compiled core plays it when it is in use (the sampled state is thrown away after)."""
    returns = compiled.playout_returns(state, rng)
    if returns is not None:
        return returns
    state.playout(rng)
    result = state.result
    assert result is not None  # a playout ends the game
    return result.returns


def guided_rollout(game_name: str) -> Rollout:
    """The game's guided rollout (the ``rollout`` of its rollout module,
    ``cardtable.bots.<game>_rollout``), imported when a search first needs it."""
    policy: Rollout = part("bots", game_name, "_rollout").rollout
    return policy


class Analyst:
    """A bot that chooses by analysing the seat's view: each legal action valued
    (:meth:`analyse`, a subclass's), the best played. The analysis of the last choice is
    kept in ``last``; hints and game reviews call :meth:`analyse` themselves."""

    name: str
    last: SearchResult | None
    _games: dict[str, Game]

    def game_of(self, view: View) -> Game:
        """The game a view belongs to, rebuilt from its name and options (kept for reuse)."""
        from cardtable import make

        key = json.dumps([view.get("game"), view.get("options")], sort_keys=True)
        game = self._games.get(key)
        if game is None:
            options = view.get("options")
            if not isinstance(view.get("game"), str) or not isinstance(options, dict):
                raise InvalidPositionError("a view names its game and options")
            game = self._games[key] = make(view["game"], **options)
        return game

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError(f"seat {view.get('seat')} has no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        game = self.game_of(view)
        self.last = self.analyse(game, view, rng, stop_early=True)
        action = game.actions[self.last.action]
        if action not in legal_actions:  # the view and the legal list disagree: a caller's bug
            raise ValueError(
                f"{self.name} chose {action}, which is not among {list(legal_actions)}"
            )
        return action

    def analyse(
        self, game: Game, view: View, rng: random.Random, *, stop_early: bool
    ) -> SearchResult:
        raise NotImplementedError


class IsmctsBot(Analyst):
    """A bot that searches with ISMCTS from the seat's view (see :func:`search`).

    ``iterations`` and ``seconds`` bound each decision (at least one is needed);
    ``rollout`` is ``"guided"`` (the game's rollout policy, to the end of the hand and its
    estimate there), ``"learned"`` (with an evaluation learnt by self-play, in a game that
    has one: Knockout Whist's estimate between hands, ``benchmarks/knockout_whist_values.py``;
    Neuf's network at the end of a trick, ``benchmarks/neuf_value_net.py``; the core's
    search has it, so ``engine="python"`` refuses it, and where the core is not in use the
    search rolls out as ``"guided"``) or ``"random"`` (uniform to
    the end of the game). ``engine`` is
    ``"core"`` (the default: the compiled core's search, one call a decision that releases
    the GIL, when the core is in use, see ``CARDTABLE_CORE``) or ``"python"`` (this
    module's :func:`search`, kept to compare the two). ``threads`` grows that many trees
    side by side in the core (root parallel), one per core a machine lends it. ``solve``
    (cards, in a game with an exact solver: Knockout Whist) evaluates a sampled hand
    exactly instead of rolling it out once at most that many cards are left in all hands
    (each seat for itself, every card of the sample in view).

    ``belief`` and ``choice`` weigh the deals the core's search samples by what the other
    seats did (policy-based inference, ``docs/bots.md``): it draws ``deals`` deals a
    decision, weighs each by how well it explains the others' plays in this hand (a seat
    plays the guided policy's card with chance ``belief``, else any legal card alike) and
    the trumps a seat named (``choice``: how sharply it names the suit the guided policy
    likes best), and each iteration takes one by its weight. Both 0 (the default): every
    deal alike. In a game without a model of its players (Neuf, Kryt'-navalivat') the
    weights are all alike.

    ``prior`` > 0 (the core's search) adds the game's learned policy prior to the tree:
    a node's score gains ``prior`` times the chance the prior gives its action over one
    more than its visits, and a node's untried actions are tried in the prior's order.
    Knockout Whist of three players has one (``benchmarks/knockout_whist_prior.py``);
    elsewhere the search runs as without it."""

    def __init__(
        self,
        name: str = "ismcts",
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout: str = "guided",
        engine: str = "core",
        threads: int = 1,
        solve: int = 0,
        belief: float = 0.0,
        choice: float = 0.0,
        deals: int = 1000,
        prior: float = 0.0,
    ) -> None:
        check_budget(iterations, seconds)
        if rollout not in ("guided", "learned", "deal", "random"):
            raise InvalidBudgetError(
                f"rollout must be 'guided', 'learned', 'deal' or 'random', not {rollout!r}"
            )
        if rollout in ("learned", "deal") and engine != "core":
            raise InvalidBudgetError(f"the {rollout} rollout goes with the core's search")
        if engine not in ("core", "python"):
            raise InvalidBudgetError(f"engine must be 'core' or 'python', not {engine!r}")
        if not exploration >= 0:
            raise InvalidBudgetError(f"exploration must be 0 or more, not {exploration!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise InvalidBudgetError(f"threads must be a whole number, 1 or more, not {threads!r}")
        if isinstance(solve, bool) or not isinstance(solve, int) or solve < 0:
            raise InvalidBudgetError(f"solve must be a whole number of cards, not {solve!r}")
        if solve and (engine != "core" or rollout != "guided"):
            raise InvalidBudgetError("solve goes with the core's search and guided rollouts")
        check_belief(belief)
        if not 0 <= choice < math.inf:
            raise InvalidBudgetError(f"choice must be 0 or more, not {choice!r}")
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise InvalidBudgetError(f"deals must be a whole number, 1 or more, not {deals!r}")
        if (belief or choice) and engine != "core":
            raise InvalidBudgetError("belief and choice go with the core's search")
        if not 0 <= prior < math.inf:
            raise InvalidBudgetError(f"prior must be 0 or more, not {prior!r}")
        if prior and engine != "core":
            raise InvalidBudgetError("the prior goes with the core's search")
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout
        self.engine = engine
        self.threads = threads
        self.solve = solve
        self.belief = belief
        self.choice = choice
        self.deals = deals
        self.prior = prior
        self.last: SearchResult | None = None
        self._games: dict[str, Game] = {}

    def analyse(
        self, game: Game, view: View, rng: random.Random, *, stop_early: bool
    ) -> SearchResult:
        """The search of ``view`` (whose seat must be to move) with this bot's settings,
        in the core when it is in use and ``engine`` is ``"core"``, else in Python; seeded
        from ``rng``. A hint asks for it without ``stop_early``, to see every action."""
        twin = compiled.core_game(game) if self.engine == "core" else None
        if twin is not None:
            number, visits, values, iterations, seconds, deviations = twin.search(
                json.dumps(view),
                iterations=self.iterations,
                seconds=self.seconds,
                exploration=self.exploration,
                seed=rng.getrandbits(64),
                stop_early=stop_early,
                rollout=self.rollout,
                threads=self.threads,
                solve=self.solve,
                belief=self.belief,
                choice=self.choice,
                deals=self.deals,
                prior=self.prior,
            )
            return SearchResult(number, visits, values, iterations, seconds, deviations)
        return search(
            game.knowledge(view),
            rng,
            iterations=self.iterations,
            seconds=self.seconds,
            exploration=self.exploration,
            rollout=guided_rollout(game.name) if self.rollout != "random" else None,
            stop_early=stop_early,
        )
