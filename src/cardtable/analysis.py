"""One analysis of a position, from one seat's view: what each legal action is worth in the
game's unit, how sure that is, and which action a good player would make. The table's
hints, the review of a finished game and :func:`cardtable.advice.advise` all read it.

The unit is the game's descriptor's ``hint_unit``: the seat's expected tricks this hand
(Knockout Whist), its side's tricks over the quota this deal (Neuf, NEUF-5.2) or its chance
of not being the fool (Kryt'-navalivat', KRYT-7.2).

- Knockout Whist is valued by PIMC over the core's exact solver: deals sampled from what
  the seat knows, each solved with every card in view. Every action is valued on the same
  deals, so a gap between two actions has the standard error of the deals' paired
  differences (the core's ``judge``), much smaller than either mean's own.
- Neuf and Kryt'-navalivat' are valued by the ``hard`` level's search (ISMCTS). An
  action's value is the mean outcome of the iterations that tried it; an action tried
  fewer than :data:`MIN_VISITS` times is *not rated*: its mean would be noise. The search
  spends its iterations on the actions near the top, and while the best two are within
  their noise of each other it searches again (up to ``Budget.rounds`` times), adding the
  searches' counts. In Neuf each iteration plays to the end of the deal and counts the
  side's tricks over the quota (``rollout=deal``; the error is that of a mean of those
  counts, from their spread); in Kryt'-navalivat' an outcome is the chance of a good end,
  between 0 and 1 (the error that of such a mean). PIMC's perfect-information deals played
  Neuf worse than ``hard``: a seat that followed its hints lost 0.28 points a deal more
  than ``hard`` (docs/hints.md).
- Kryt'-navalivat' between two players with the stock empty is a game of open cards
  (KRYT-9): the actions the exact solver proves within its horizon are worth exactly 1 or
  0, without error, and the search values only the rest (none, where it proves them all).

An action whose gap to the highest value is within its noise (two standard errors) or
within the unit's margin (:data:`MARGINS`, too small to matter at the table) is *as good*
as the highest: a tie. A tie between cards goes to the card a good player keeps least
(plain before trump, then the lowest rank: :func:`keep_order`), so that the hint never
throws a high trump away for nothing; but a card given to the next player to beat
(Kryt'-navalivat''s cover and lead, the descriptor's ``hint_given_to_beat``) does no
other card's job, a higher one being harder to beat, and a tie among those goes to the
highest value (unless every action does about as well: then the card kept least).
Nothing but the seat's own view goes in (SPEC §0.4).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import Card
from cardtable.core import Game, View
from cardtable.errors import InvalidBudgetError, InvalidCardError
from cardtable.rules.catalog import descriptor

__all__ = [
    "HINT_BUDGET",
    "MARGINS",
    "MIN_DEALS",
    "MIN_VISITS",
    "Analysis",
    "Appraisal",
    "Budget",
    "alike",
    "analyse",
    "decide",
    "keep_order",
    "pool",
    "search_appraisals",
]

MARGINS = {"tricks": 0.15, "points": 0.05, "not_fool": 0.03}
"""How far below the best an action may be and still do "about as well", in each unit: a
difference that small changes nothing a player would notice."""

MIN_VISITS = 30
"""The search's fewest visits for an action to be rated (below it, its mean is noise)."""

MIN_DEALS = 4
"""PIMC's fewest deals for any action to be rated (below it, the gaps' errors mean nothing):
a clock that allows fewer is overrun until there are this many."""

NOISE = 2.0
"""A gap within this many standard errors of zero is not told apart from it."""


@dataclass(frozen=True, slots=True)
class Budget:
    """What an analysis may spend. PIMC: at most ``deals`` deals and ``seconds`` seconds.
    Search: ``seconds`` in all, in up to ``rounds`` equal rounds (the next only while the
    top is undecided); ``iterations`` (when given) bounds each round instead of the clock,
    for a result that depends on the seed alone."""

    seconds: float = 0.9
    deals: int = 400
    rounds: int = 2
    iterations: int | None = None

    @classmethod
    def parse(cls, text: str, base: Budget | None = None) -> Budget:
        """``deals=…,iterations=…,seconds=…,rounds=…`` as a budget, the parts it does not
        name as ``base``'s (by default the hint's); :class:`InvalidBudgetError` for an
        unknown part or a value that is not a finite number above 0."""
        base = base or cls()
        parts: dict[str, Any] = {
            "seconds": base.seconds,
            "deals": base.deals,
            "rounds": base.rounds,
            "iterations": base.iterations,
        }
        for item in text.split(","):
            key, _, value = item.partition("=")
            key = key.strip()
            if key not in parts:
                raise InvalidBudgetError(
                    f"{key!r} is not part of an analysis's budget: {', '.join(parts)}"
                )
            try:
                number = float(value) if key == "seconds" else int(value)
            except ValueError:
                raise InvalidBudgetError(f"{key}={value!r} is not a number") from None
            if not number > 0:  # nan too
                raise InvalidBudgetError(f"{key} must be above 0, not {value}")
            if number == math.inf:
                raise InvalidBudgetError(f"{key} must be finite, not {value}")
            parts[key] = number
        return cls(**parts)

    def scaled(self, factor: float) -> Budget:
        """This budget ``factor`` times over (a stronger judge's)."""
        return Budget(
            seconds=self.seconds * factor,
            deals=max(1, round(self.deals * factor)),
            rounds=self.rounds,
            iterations=None if self.iterations is None else max(1, round(self.iterations * factor)),
        )


HINT_BUDGET = Budget()
"""What the table's hint may spend (the defaults of :class:`Budget`): PIMC 400 deals within
0.9 s (Knockout Whist), the search 0.9 s in two rounds (Neuf, Kryt'-navalivat'). The
review's ``expert`` looks and Neuf's ``expert`` level spend the same."""


@dataclass(frozen=True, slots=True)
class Appraisal:
    """One legal action: its ``value`` in the unit (None: not rated), the standard
    ``error`` of its gap to the highest value (0 for the highest itself), and the
    ``samples`` behind it (deals, or the search's visits)."""

    action: str
    value: float | None
    error: float
    samples: int

    @property
    def rated(self) -> bool:
        return self.value is not None


@dataclass(frozen=True, slots=True)
class Analysis:
    """The actions of one position, valued: ``best`` is the action to make, ``top`` the
    highest value's (they differ when a cheaper card ties with it), ``ties`` every action
    as good as ``top`` within its noise or the unit's margin (``best`` among them)."""

    game: str
    unit: str
    seat: int
    actions: tuple[Appraisal, ...]
    best: str
    top: str
    ties: tuple[str, ...]
    samples: int
    seconds: float
    method: str

    @property
    def margin(self) -> float:
        """The unit's margin (:data:`MARGINS`)."""
        return MARGINS[self.unit]

    def appraisal(self, action: str) -> Appraisal:
        for appraisal in self.actions:
            if appraisal.action == action:
                return appraisal
        raise KeyError(f"{action!r} is not a legal action here")

    def value(self, action: str) -> float | None:
        return self.appraisal(action).value

    def gap(self, action: str) -> float | None:
        """``action``'s value less ``best``'s (None where either is not rated)."""
        mine, best = self.value(action), self.value(self.best)
        return None if mine is None or best is None else mine - best

    def tied(self, action: str) -> bool:
        """Whether ``action`` is as good as the best, as far as the analysis can tell."""
        return action in self.ties

    @property
    def forced(self) -> bool:
        return len(self.actions) == 1

    @property
    def alike(self) -> bool:
        """Whether every action is rated and does about as well as every other."""
        return alike(self.actions, MARGINS[self.unit])

    @property
    def values(self) -> dict[str, float]:
        """The rated actions' values."""
        return {a.action: a.value for a in self.actions if a.value is not None}

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "unit": self.unit,
            "seat": self.seat,
            "best": self.best,
            "top": self.top,
            "ties": list(self.ties),
            "margin": self.margin,
            "samples": self.samples,
            "seconds": round(self.seconds, 3),
            "method": self.method,
            "actions": [
                {
                    "action": a.action,
                    "value": None if a.value is None else round(a.value, 3),
                    "error": round(a.error, 3),
                    "samples": a.samples,
                    "gap": None if (g := self.gap(a.action)) is None else round(g, 3),
                    "tie": a.action in self.ties,
                }
                for a in self.actions
            ],
        }


def keep_order(view: View, action: str) -> tuple[int, int, int]:
    """How much a good player wants to keep what ``action`` gives up, lowest first: an
    action naming no card (0), then a plain card, then a trump, each by rank."""
    try:
        card = Card.parse(action.partition(" ")[2])
    except InvalidCardError:  # no card: take, keep, knock, a suit named trumps
        return (0, 0, 0)
    return (1, int(str(card.suit) == view.get("trump")), int(card.rank))


def analyse(
    game: Game,
    view: View,
    *,
    budget: Budget | None = None,
    rng: random.Random | None = None,
) -> Analysis:
    """The analysis of ``view``'s position for its seat, whose turn it must be."""
    budget = budget or HINT_BUDGET
    rng = rng or random.Random(0)
    legal: list[str] = list(view["legal_actions"])
    unit = descriptor(game.name).hint_unit
    seat = int(view["seat"])
    began = time.perf_counter()
    if len(legal) == 1:
        only = (Appraisal(legal[0], None, 0.0, 0),)
        return Analysis(
            game.name, unit, seat, only, legal[0], legal[0], (legal[0],), 0, 0.0, "forced"
        )
    model = descriptor(game.name).hint_judge
    if model is not None:
        appraisals, samples = _pimc(game, view, budget, rng, model)
        method = "pimc"
    else:
        appraisals, samples = _search(game, view, budget, rng)
        method = "search"
    return decide(game.name, unit, view, appraisals, samples, time.perf_counter() - began, method)


def decide(
    game_name: str,
    unit: str,
    view: View,
    appraisals: list[Appraisal],
    samples: int,
    seconds: float,
    method: str,
) -> Analysis:
    """The analysis the appraisals of a position's legal actions make: the top, its ties
    and the best of them."""
    rated = [a for a in appraisals if a.value is not None]
    legal = [a.action for a in appraisals]
    if not rated:  # nothing seen enough to tell: no recommendation beyond the first
        return Analysis(
            game_name, unit, int(view["seat"]), tuple(appraisals), legal[0], legal[0],
            tuple(legal), samples, seconds, method,
        )  # fmt: skip
    top = max(rated, key=lambda a: (a.value, -legal.index(a.action)))
    assert top.value is not None
    margin = MARGINS[unit]
    ties = [
        a.action
        for a in rated
        if a.value is not None and top.value - a.value <= max(margin, NOISE * a.error)
    ]
    best = top.action
    verb = top.action.partition(" ")[0]
    # A card: the tied card kept least, same verb; but a card given to be beaten is not
    # one card doing another's job, and there the lowest was the judge's choice in fewer
    # positions than the highest value (docs/hints.md), unless every action does about as
    # well (within the margin), where nothing is told by the values and a good player
    # gives the card kept least.
    given = verb in descriptor(game_name).hint_given_to_beat
    if keep_order(view, top.action)[0] and (alike(appraisals, margin) or not given):
        cards = [a for a in ties if a.partition(" ")[0] == verb and keep_order(view, a)[0]]
        best = min(cards, key=lambda a: keep_order(view, a))
    return Analysis(
        game_name, unit, int(view["seat"]), tuple(appraisals), best, top.action,
        tuple(ties), samples, seconds, method,
    )  # fmt: skip


def alike(appraisals: Sequence[Appraisal], margin: float) -> bool:
    """Whether every one of ``appraisals`` is rated and all lie within ``margin`` of each
    other: any of the actions does about as well, and the values tell nothing."""
    values = [a.value for a in appraisals if a.value is not None]
    return len(values) == len(appraisals) and max(values) - min(values) <= margin


def pool(looks: Sequence[Analysis], view: View) -> Analysis:
    """One analysis of ``view``'s position from several independent ``looks`` at it (other
    seeds, the same method): each action's value the mean of the looks' weighed by the
    samples behind them, and its error theirs combined as for such a mean (approximately:
    each look's error is of the gap to its own highest value)."""
    first = looks[0]
    appraisals = []
    for action in (a.action for a in first.actions):
        parts = [look.appraisal(action) for look in looks]
        samples = sum(part.samples for part in parts)
        rated = [(max(part.samples, 1), part) for part in parts if part.value is not None]
        if not rated:
            appraisals.append(Appraisal(action, None, 0.0, samples))
            continue
        weight = sum(w for w, _ in rated)
        value = sum(w * (part.value or 0.0) for w, part in rated) / weight
        error = math.sqrt(sum((w * part.error) ** 2 for w, part in rated)) / weight
        appraisals.append(Appraisal(action, value, error, samples))
    return decide(
        first.game,
        first.unit,
        view,
        appraisals,
        sum(look.samples for look in looks),
        sum(look.seconds for look in looks),
        first.method,
    )


def _pimc(
    game: Game, view: View, budget: Budget, rng: random.Random, model: str
) -> tuple[list[Appraisal], int]:
    from cardtable._core import KnockoutWhist, Neuf
    from cardtable.bots.pimc import solved_twin

    twin = solved_twin(game)
    assert isinstance(twin, KnockoutWhist | Neuf)
    text = json.dumps(view)
    _, deals, means, solved, _, errors = twin.judge(
        text, deals=budget.deals, seconds=budget.seconds, model=model, seed=rng.getrandbits(64)
    )
    if solved < min(MIN_DEALS, budget.deals):
        # Deals too slow for the clock (Neuf's exchange solves the deal that follows each
        # sampled spare; a busy machine): the fewest that rate the actions, whatever the time.
        _, deals, means, solved, _, errors = twin.judge(
            text, deals=MIN_DEALS, model=model, seed=rng.getrandbits(64)
        )
    appraisals = []
    for text in view["legal_actions"]:
        number = game.number_of(text)
        value = means.get(number) if solved >= MIN_DEALS else None
        appraisals.append(Appraisal(text, value, errors.get(number, 0.0), deals.get(number, 0)))
    return appraisals, solved


def _search(
    game: Game, view: View, budget: Budget, rng: random.Random
) -> tuple[list[Appraisal], int]:
    """The ``hard`` search's value of each action, in rounds while the top two are within
    their noise of each other: in a game scored deal by deal (Neuf), the side's points from
    this deal (the search's ``deal`` rollout); elsewhere the chance of a good end."""
    from cardtable.bots.pimc import MIN_SEARCH_SECONDS, hard_search

    bot = hard_search(None)  # a bot of its own: its budget is set below
    rounds = max(1, budget.rounds)
    # The clock alone, or the iterations alone: not hard's cap of iterations, which a
    # stronger judge's clock would never reach.
    bot.seconds = budget.seconds / rounds if budget.iterations is None else None
    bot.iterations = budget.iterations
    by_deal = descriptor(game.name).per_deal
    low, high = descriptor(game.name).return_range(game.num_players)
    if by_deal:
        # Outcomes in tricks, 13 a deal between the best and the worst, where the game's
        # returns lie between ``low`` and ``high``: exploration in proportion, as hard's.
        bot.rollout = "deal"
        bot.exploration *= TRICKS_A_DEAL / (high - low)
    began = time.perf_counter()
    proven = _proven_endgame(game, view, rng)
    if proven is not None:
        # The solver's time comes out of the clock; what it proved needs no search.
        if len(proven) == len(view["legal_actions"]):
            return search_appraisals(game, view, {}, {}, proven=proven), 0
        if bot.seconds is not None:
            spent = time.perf_counter() - began
            bot.seconds = max(MIN_SEARCH_SECONDS, (budget.seconds - spent) / rounds)
    visits: dict[int, int] = {}
    totals: dict[int, float] = {}
    squares: dict[int, float] | None = {} if by_deal else None
    iterations = 0
    appraisals: list[Appraisal] = []
    rounds_means: list[dict[int, float]] = []
    for _ in range(rounds):
        # A hint shows every action's value, not just the best one's: no stopping early.
        found = bot.analyse(game, view, rng, stop_early=False)
        iterations += found.iterations
        means: dict[int, float] = {}
        for number, count in found.visits.items():
            visits[number] = visits.get(number, 0) + count
            if squares is not None:  # points: the values and their spreads as they are
                mean, spread = found.values[number], found.deviations.get(number, 0.0)
                squares[number] = squares.get(number, 0.0) + count * (spread**2 + mean**2)
            else:
                chance = (found.values.get(number, low) - low) / (high - low)
                mean = min(1.0, max(0.0, chance))
            totals[number] = totals.get(number, 0.0) + count * mean
            means[number] = mean
        rounds_means.append(means)
        if squares is not None:  # points: a second round only while the top is undecided
            appraisals = search_appraisals(game, view, visits, totals, squares, proven)
            if _decided(appraisals):
                break
        else:
            # A chance of a good end is searched in every round: the rounds' disagreement
            # is the only measure of how far the search has yet to go (below).
            appraisals = search_appraisals(
                game, view, visits, totals, None, proven, _disagreement(rounds_means)
            )
    return appraisals, iterations


def _disagreement(rounds_means: list[dict[int, float]]) -> dict[int, float]:
    """The variance of each action's pooled mean that the rounds' disagreement shows, by
    action number, for the actions every round tried (a round that tried an action a few
    times only disagrees by its noise: so it should, having hardly looked at it). Each
    round is a search of its own,
    and a search that went deep into one line values that line by its own better play and
    the others by the rollout's worse: in Kryt'-navalivat''s big endgames two searches of
    0.45 s each put a third of the chance between a different pair of actions, while the
    spread of their outcomes claims an error of a hundredth. Two rounds' means ``a`` and
    ``b`` estimate their mean's variance as ((a - b) / 2)^2."""
    if len(rounds_means) < 2:
        return {}
    shared = set.intersection(*(set(means) for means in rounds_means))
    count = len(rounds_means)
    found = {}
    for number in shared:
        values = [means[number] for means in rounds_means]
        centre = sum(values) / count
        found[number] = sum((v - centre) ** 2 for v in values) / (count - 1) / count
    return found


def _proven_endgame(game: Game, view: View, rng: random.Random) -> dict[int, float] | None:
    """Kryt'-navalivat' between two players with the stock empty, where every card is known
    (KRYT-9): the chance of not being the fool of each action the exact solver proves a win
    (1) or a loss (0) within its horizon, by action number; None where the position is not
    such an endgame or too big to solve in time (``cardtable.bots.pimc.solve_endgame``)."""
    if not (
        descriptor(game.name).solves_endgame_only
        and game.num_players == 2
        and view.get("stock") == 0
    ):
        return None
    from cardtable._core import KrytNavalivat
    from cardtable.bots.pimc import model_for, solve_endgame, solved_twin

    twin = solved_twin(game)
    assert isinstance(twin, KrytNavalivat)
    [position] = twin.sample_positions(json.dumps(view), 1, rng.getrandbits(64))
    solution = solve_endgame(twin.state_from_position(position), model_for(game, None))
    if solution is None:
        return None
    # The solver's 0 is a draw or no end within its horizon: only the search can say which.
    return {number: 1.0 if value > 0 else 0.0 for number, value in solution if value != 0}


TRICKS_A_DEAL = 13
"""The tricks of a Neuf deal (NEUF-4): the width of the range of its points."""

POINTS_FLOOR = 0.25
"""The least variance a search's mean of trick counts is taken to have, a visit (a spread
of half a trick): a mean of counts all alike must not claim certainty."""


def search_appraisals(
    game: Game,
    view: View,
    visits: dict[int, int],
    totals: dict[int, float],
    squares: dict[int, float] | None = None,
    proven: dict[int, float] | None = None,
    disagreement: dict[int, float] | None = None,
) -> list[Appraisal]:
    """Each legal action's appraisal from the search's ``visits`` and ``totals`` (the sum
    of its visits' outcomes), by action number: not rated below MIN_VISITS. Without
    ``squares`` an outcome is a chance, 0 to 1; with them (the sums of the outcomes'
    squares) outcomes are counts whose spread is measured. ``proven`` values, by action
    number, are exact (an endgame solved): rated however few visits, without error. An
    action's ``disagreement`` (the variance of its mean that independent rounds of the
    search show, :func:`_disagreement`) stands for its mean's variance where it is the
    larger."""
    proven = proven or {}
    disagreement = disagreement or {}
    means = {n: totals[n] / count for n, count in visits.items() if count >= MIN_VISITS}
    means.update(proven)
    if not means:
        return [
            Appraisal(text, None, 0.0, visits.get(game.number_of(text), 0))
            for text in view["legal_actions"]
        ]
    top = max(means, key=lambda n: means[n])

    def spread(number: int) -> float:
        if number in proven:
            return 0.0
        return max(sampling(number), disagreement.get(number, 0.0))

    def sampling(number: int) -> float:
        mean = means[number]
        if squares is not None:
            variance = squares[number] / visits[number] - mean * mean
            return max(variance, POINTS_FLOOR) / visits[number]
        # A mean of outcomes in [0, 1] varies at most as p(1 - p) a visit; a floor keeps a
        # mean of all wins or all losses from claiming certainty.
        return max(mean * (1 - mean), 0.01) / visits[number]

    appraisals = []
    for text in view["legal_actions"]:
        number = game.number_of(text)
        value = means.get(number)
        error = 0.0
        if value is not None and number != top:
            error = math.sqrt(spread(number) + spread(top))
        appraisals.append(Appraisal(text, value, error, visits.get(number, 0)))
    return appraisals


def _decided(appraisals: list[Appraisal]) -> bool:
    """Whether the highest value stands clear of every other rated one's noise."""
    rated = sorted((a for a in appraisals if a.value is not None), key=lambda a: -(a.value or 0.0))
    if len(rated) < 2:
        return len(rated) == len(appraisals)
    top, second = rated[0], rated[1]
    assert top.value is not None and second.value is not None
    return top.value - second.value > NOISE * second.error
