"""Game review: every decision of one seat in a finished game, judged from what that seat
knew when it decided (``docs/review.md``).

The record is replayed; at each turn of the seat with two or more legal actions the
seat's view, and nothing else, goes to the analysis the hints use
(:func:`cardtable.analysis.analyse`), at the review's own budget: each legal action's value
in the game's unit (tricks this hand, tricks over the quota this deal, the chance of not
being the fool) and the error of its gap to the best. The chosen action's *loss* is the
best value less its own; a loss within its noise (two standard errors) or below the unit's
inaccuracy threshold is no fault found, else an inaccuracy or, from the mistake threshold
on, a mistake (:data:`THRESHOLDS`). An action the analysis tied with the best is fine.

    review = cardtable.review.review(record, seat=0)
    for decision in review.worst(3):
        print(decision.index, decision.chosen, decision.best, decision.loss)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import cardtable
from cardtable.analysis import HINT_BUDGET, NOISE, Analysis, Budget, analyse, pool
from cardtable.core import Game, Record, State, View
from cardtable.errors import CardtableError, InvalidBudgetError, InvalidRecordError
from cardtable.rules.catalog import descriptor

__all__ = [
    "FLAGGED",
    "LEVELS",
    "REVIEW_FORMAT",
    "REVIEW_VERSION",
    "THRESHOLDS",
    "VERDICTS",
    "ActionValue",
    "Decision",
    "Review",
    "ReviewError",
    "budget_of",
    "decision_seed",
    "judge",
    "moments",
    "review",
    "review_views",
    "verdict",
    "with_hint",
    "write_chart",
]

REVIEW_FORMAT = "cardtable-review"

REVIEW_VERSION = 2
"""Version 2: values and losses in the game's unit, by the hints' analysis (version 1's were
expected returns of the whole game, by a searching bot)."""

THRESHOLDS: dict[str, tuple[float, float]] = {
    "tricks": (0.3, 0.75),
    "points": (0.3, 0.75),
    "not_fool": (0.05, 0.15),
}
"""Each unit's losses from which a decision is an inaccuracy, then a mistake: a third of a
trick this hand (Knockout Whist) or of a point this deal (Neuf, a trick over the quota) is
what a player notices over a few hands, three quarters of one is a trick thrown away; in
Kryt'-navalivat' 5 and 15 points of the chance of not being the fool."""

LEVELS: dict[str, Budget] = {
    "expert": HINT_BUDGET,
    "quick": Budget(seconds=0.2, deals=100, rounds=2),
}
"""The budget of one of the review's looks at a decision (:func:`judge`), by name:
``expert`` (the default) the table's hint's own, so that a fault is found by twice the
hint's budget; ``quick`` about a fifth of it, for a busy server.
``analysis:deals=…,iterations=…,seconds=…,rounds=…`` sets one whole (:func:`budget_of`)."""

GLANCES = (1 / 15, 1 / 5)
"""The shares of a look's budget each decision is glanced at with first, one after the
other, each in one round of the search (:func:`glance_budget`): a decision that a glance
finds surely fine (short of the best by less than an inaccuracy even at the far end of its
noise) stands, and only the others are glanced at again, then looked at, so that the
budget goes where a verdict depends on it. The first glance settles the decisions whose
action is plainly the best; the second most of the rest where nothing is yet decided (a
long stock ahead in Kryt'-navalivat', where every action's chance lies near the others'
and the first glance's noise alone is more than an inaccuracy)."""


def glance_budget(budget: Budget, share: float) -> Budget:
    """A glance's budget: ``share`` of ``budget``, in one round. Two rounds of a glance's
    few iterations disagree by their noise alone, and where the rounds' disagreement is
    the error (Kryt'-navalivat') almost nothing would pass as surely fine: a game's review
    took twice as long."""
    return replace(budget.scaled(share), rounds=1)


VERDICTS = ("fine", "inaccuracy", "mistake", "unrated")
"""The verdicts, mildest first; ``unrated``: the analysis did not rate the chosen action."""

Progress = Callable[[int, int], None]
"""Called with (decisions judged, decisions in all) after each one."""


class ReviewError(CardtableError):
    """A review that cannot be made: a seat the game has not, an unfinished game, a level
    that does not search."""


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action with its value in the game's unit for the seat (None: not rated),
    the samples behind it (PIMC: deals; the search: visits) and the standard error of its
    gap to the highest value."""

    action: str
    value: float | None
    visits: int
    error: float = 0.0


@dataclass(frozen=True, slots=True)
class Decision:
    """A turn of the seat with a choice: ``index`` is the action's place in the record;
    ``hand`` and ``trick`` say where the game stood (None where the game has none)."""

    index: int
    hand: int | None
    trick: int | None
    actions: list[ActionValue]
    chosen: str
    best: str
    loss: float | None
    noise: float
    verdict: str
    hint: str | None = None
    """The table's hint's best action here: the same view analysed at the hint's budget
    (:func:`with_hint`), for a decision found an inaccuracy or a mistake; None for the
    others, and in a review stored before it was asked."""
    hint_agrees: bool | None = None
    """Whether the chosen action was the hint's best, or as good as it at the hint's budget
    (None where ``hint`` is)."""

    def value_of(self, action: str) -> float | None:
        return next((a.value for a in self.actions if a.action == action), None)

    @property
    def best_value(self) -> float | None:
        return self.value_of(self.best)

    @property
    def chosen_value(self) -> float | None:
        return self.value_of(self.chosen)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        return cls(
            index=int(data["index"]),
            hand=data["hand"],
            trick=data["trick"],
            actions=[
                ActionValue(a["action"], a["value"], int(a["visits"]), float(a.get("error", 0.0)))
                for a in data["actions"]
            ],
            chosen=data["chosen"],
            best=data["best"],
            loss=data["loss"],
            noise=float(data["noise"]),
            verdict=data["verdict"],
            hint=data.get("hint"),
            hint_agrees=data.get("hint_agrees"),
        )


@dataclass(slots=True)
class Review:
    """A seat's decisions in one game, in game order, with the thresholds they were judged
    by; JSON by :meth:`to_dict` (``docs/review.md``)."""

    game: str
    options: dict[str, Any]
    seat: int
    level: str
    rng_seed: int
    returns: list[float]
    decisions: list[Decision] = field(default_factory=list)

    @property
    def unit(self) -> str:
        """What values and losses count: the game's hint unit."""
        return descriptor(self.game).hint_unit

    def worst(self, k: int | None = None) -> list[Decision]:
        """The ``k`` decisions that cost most (all, when None), the costliest first; among
        equal losses the earlier first. Unrated decisions come last."""
        ranked = sorted(
            self.decisions,
            key=lambda d: (d.loss is None, -(d.loss or 0.0), d.index),
        )
        return ranked if k is None else ranked[:k]

    def counts(self) -> dict[str, int]:
        """How many decisions got each verdict."""
        return {name: sum(d.verdict == name for d in self.decisions) for name in VERDICTS}

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": REVIEW_FORMAT,
            "version": REVIEW_VERSION,
            "game": self.game,
            "options": dict(self.options),
            "seat": self.seat,
            "level": self.level,
            "rng_seed": self.rng_seed,
            "unit": self.unit,
            "thresholds": dict(zip(("inaccuracy", "mistake"), THRESHOLDS[self.unit], strict=True)),
            "returns": list(self.returns),
            "counts": self.counts(),
            "decisions": [asdict(d) for d in self.decisions],
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        if data.get("format") != REVIEW_FORMAT:
            raise ReviewError(f"not a cardtable review (format {data.get('format')!r})")
        if data.get("version") != REVIEW_VERSION:
            raise ReviewError(
                f"a review of version {data.get('version')!r}; this is version {REVIEW_VERSION}"
            )
        return cls(
            game=data["game"],
            options=dict(data["options"]),
            seat=int(data["seat"]),
            level=data["level"],
            rng_seed=int(data["rng_seed"]),
            returns=[float(r) for r in data["returns"]],
            decisions=[Decision.from_dict(d) for d in data["decisions"]],
        )


def verdict(loss: float | None, unit: str, noise: float = 0.0) -> str:
    """The verdict on a loss in ``unit``: a loss within the analysis's ``noise`` is no
    fault found."""
    if loss is None:
        return "unrated"
    inaccuracy, mistake = THRESHOLDS[unit]
    if loss <= noise or loss < inaccuracy:
        return "fine"
    return "mistake" if loss >= mistake else "inaccuracy"


def budget_of(level: str) -> Budget:
    """The budget a review level names (:data:`LEVELS`), or that
    ``analysis:deals=…,iterations=…,seconds=…,rounds=…`` sets (unnamed parts as the
    ``expert`` level's); :class:`ReviewError` for anything else."""
    known = LEVELS.get(level)
    if known is not None:
        return known
    name, _, spec = level.partition(":")
    if name != "analysis" or not spec:
        raise ReviewError(
            f"a review's level is {', '.join(LEVELS)} or analysis:deals=…,iterations=…,"
            f"seconds=…,rounds=…; not {level!r}"
        )
    try:
        return Budget.parse(spec, LEVELS["expert"])
    except InvalidBudgetError as exc:
        raise ReviewError(str(exc)) from None


def moments(record: Record, seat: int) -> tuple[State, list[tuple[int, State, str]]]:
    """The game's end and each turn of ``seat`` with two or more legal actions: (the
    action's index in the record, the state before it, the action played). Checks that
    the record replays, the seat exists and the game is over."""
    game = cardtable.make(record.game, **record.options)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise ReviewError(f"seat {seat!r} is not at this game: seats are 0-{game.num_players - 1}")
    state = game.replay(replace(record, actions=[]))
    turns: list[tuple[int, State, str]] = []
    for index, text in enumerate(record.actions):
        mover = state.to_move
        if mover == seat and len(state.legal_action_ids()) > 1:
            turns.append((index, state.copy(), text))
        try:
            state.apply(text)
        except ValueError as exc:
            raise InvalidRecordError(f"action {index} ({text!r}) does not replay: {exc}") from exc
    if not state.is_over:
        raise ReviewError(
            f"the game is not over after its {len(record.actions)} actions; "
            "a review is of a finished game"
        )
    return state, turns


def judge(
    game: Game,
    view: View,
    chosen: str,
    index: int,
    budget: Budget,
    rng: random.Random,
) -> Decision:
    """One decision judged from ``view`` alone: the seat's view when it chose ``chosen``,
    the ``index``-th action of the record. Glanced at with each of :data:`GLANCES` of
    ``budget`` in turn; unless a glance found it surely fine, it is judged by looks at
    ``budget``, pooled (:func:`_look`): the first is the table's hint (at ``expert``, the
    hint's own budget, with a seed of its own drawn from ``rng`` as it came), so that a
    move the hint chose is found at fault only by more than the hint's budget, and a
    fault's decision says what that hint said (:func:`with_hint`)."""
    hint_rng = _seed_beside(rng)
    for share in GLANCES:
        glanced = _glance(game, view, chosen, index, budget, rng, share)
        if glanced is not None:
            return glanced
    return _look(game, view, chosen, index, budget, rng, hint_rng)


def _glance(
    game: Game,
    view: View,
    chosen: str,
    index: int,
    budget: Budget,
    rng: random.Random,
    share: float,
) -> Decision | None:
    """A glance of :func:`judge` at ``share`` of ``budget``: the decision where it is
    surely fine, else None."""
    seen = analyse(game, view, budget=glance_budget(budget, share), rng=rng)
    if _surely_fine(seen, game, chosen):
        return decision_of(seen, view, chosen, index, game)
    return None


def _look(
    game: Game,
    view: View,
    chosen: str,
    index: int,
    budget: Budget,
    rng: random.Random,
    hint_rng: random.Random,
) -> Decision:
    """The looks of :func:`judge` at a decision no glance settled, one after another, each
    at ``budget``: the first is the hint's (drawing from ``hint_rng``); the others draw
    from ``rng`` and are pooled with it (:func:`cardtable.analysis.pool`). The first alone
    settles a decision it finds surely fine or at fault beyond its noise; otherwise the
    looks go on while the verdict is unclear (:func:`unclear`), :data:`LOOKS` at most."""
    hinted = analyse(game, view, budget=budget, rng=hint_rng)
    looks = [hinted]
    seen = hinted
    while len(looks) < LOOKS:
        if len(looks) == 1 and (
            _surely_fine(seen, game, chosen) or _surely_at_fault(seen, game, chosen)
        ):
            break
        if len(looks) > 1 and not unclear(seen, game, chosen):
            break
        looks.append(analyse(game, view, budget=budget, rng=random.Random(rng.getrandbits(64))))
        seen = pool(looks, view)
    return with_hint(decision_of(seen, view, chosen, index, game), hinted)


LOOKS = 6
"""The most looks a decision gets. Two looks of the hint's budget, pooled, disagree in
Kryt'-navalivat''s middle game with big hands by more than a mistake costs: there a move
the judge at ten times the budget finds 15 to 30 points of chance worse was called fine
for want of more looks."""


def unclear(analysis: Analysis, game: Game, chosen: str) -> bool:
    """Whether ``chosen`` falls short of the highest value by an inaccuracy or more, but
    within the analysis's noise: no fault is found, and none is ruled out."""
    gap, noise = _shortfall(analysis, game, chosen)
    return gap is not None and THRESHOLDS[analysis.unit][0] <= gap <= noise


def _surely_at_fault(analysis: Analysis, game: Game, chosen: str) -> bool:
    """Whether ``chosen`` falls short of the highest value by an inaccuracy or more, and
    by more than the analysis's noise."""
    gap, noise = _shortfall(analysis, game, chosen)
    return gap is not None and gap >= THRESHOLDS[analysis.unit][0] and gap > noise


def _shortfall(analysis: Analysis, game: Game, chosen: str) -> tuple[float | None, float]:
    """How far ``chosen`` falls short of the highest value (None: either not rated), and
    the noise of that gap."""
    mine = analysis.appraisal(str(game.actions[game.number_of(chosen)]))
    top = analysis.appraisal(analysis.top)
    if mine.value is None or top.value is None:
        return None, 0.0
    return top.value - mine.value, NOISE * mine.error


FLAGGED = ("inaccuracy", "mistake")
"""The verdicts that find a fault: the decisions the hint's analysis is asked about."""


def with_hint(decision: Decision, hinted: Analysis) -> Decision:
    """``decision``, found an inaccuracy or a mistake, with what the hint's analysis
    ``hinted`` of the same view says: its best action, and whether the chosen one was that
    or tied with it. Any other verdict is returned as it is: the hint is asked only about a
    fault. A hint that rated nothing agrees only where its (first) action was the one
    chosen."""
    if decision.verdict not in FLAGGED:
        return decision
    chosen = decision.chosen
    agrees = chosen == hinted.best or (hinted.value(chosen) is not None and hinted.tied(chosen))
    return replace(decision, hint=hinted.best, hint_agrees=agrees)


def _seed_beside(rng: random.Random) -> random.Random:
    """A generator of its own, seeded from ``rng``'s next draw without drawing from it."""
    fork = random.Random()
    fork.setstate(rng.getstate())
    return random.Random(fork.getrandbits(64))


def decision_of(analysis: Analysis, view: View, chosen: str, index: int, game: Game) -> Decision:
    """The verdict on ``chosen`` by ``analysis`` of its position."""
    chosen = str(game.actions[game.number_of(chosen)])  # canonical text, as the view lists
    valued = [ActionValue(a.action, a.value, a.samples, a.error) for a in analysis.actions]
    mine = analysis.appraisal(chosen)
    best = analysis.appraisal(analysis.best)
    if mine.value is None or best.value is None:
        return Decision(index, *_where(view), valued, chosen, chosen, None, 0.0, "unrated")
    if analysis.tied(chosen):  # as good as the best, as far as the analysis can tell
        return Decision(index, *_where(view), valued, chosen, chosen, 0.0, 0.0, "fine")
    loss = max(0.0, best.value - mine.value)
    # The error of the chosen action's gap to the highest value: the best's own is the
    # highest's, or tied with it.
    noise = NOISE * mine.error
    return Decision(
        index,
        *_where(view),
        valued,
        chosen,
        best.action,
        loss,
        noise,
        verdict(loss, analysis.unit, noise),
    )


def _surely_fine(analysis: Analysis, game: Game, chosen: str) -> bool:
    """Whether ``chosen`` is short of the highest value by less than an inaccuracy even at
    the far end of the analysis's noise (the highest itself, surely)."""
    gap, noise = _shortfall(analysis, game, chosen)
    return gap is not None and gap + noise < THRESHOLDS[analysis.unit][0]


def _where(view: View) -> tuple[int | None, int | None]:
    """The hand (or deal) number and the trick the view stands at, where the game has them
    (no trick before the first one is led: Neuf's exchange, Knockout Whist's trumps)."""
    hand = view.get("hand_number", view.get("deal_number"))
    tricks = view.get("tricks")
    playing = view.get("phase", "play") == "play"
    return (
        hand if isinstance(hand, int) else None,
        len(tricks) + 1 if isinstance(tricks, list) and playing else None,
    )


def decision_seed(rng_seed: int, index: int) -> int:
    """Each decision's own seed: a decision's judgement depends on its view and this alone,
    so any one can be judged again on its own."""
    return rng_seed * 1_000_003 + index


def review(
    record: Record,
    seat: int,
    *,
    level: str = "expert",
    rng_seed: int = 0,
    progress: Progress | None = None,
) -> Review:
    """Every decision of ``seat`` in the finished game ``record`` holds, judged by the
    analysis at the budget ``level`` names (:func:`budget_of`) from the seat's view at the
    time. :class:`ReviewError` for a seat not at the game, an unfinished game or an
    unknown level; :class:`InvalidRecordError` for a record that does not replay."""
    budget_of(level)  # a level that cannot review fails before any replay work
    end, turns = moments(record, seat)
    final = end.result
    assert final is not None  # moments() checked the game is over
    views = [(index, state.view(seat), chosen) for index, state, chosen in turns]
    return review_views(
        record.game,
        dict(record.options),
        seat,
        views,
        list(final.returns),
        level=level,
        rng_seed=rng_seed,
        progress=progress,
    )


def review_views(
    game_name: str,
    options: dict[str, Any],
    seat: int,
    turns: list[tuple[int, View, str]],
    returns: list[float],
    *,
    level: str = "expert",
    rng_seed: int = 0,
    progress: Progress | None = None,
) -> Review:
    """The review of a seat's decisions given as (index in the record, the seat's view
    then, the action played): what :func:`review` judges, and all it judges."""
    game = cardtable.make(game_name, **options)
    budget = budget_of(level)
    done = Review(game_name, dict(options), seat, level, rng_seed, list(returns))
    total, count = len(turns), 0
    if progress is not None:
        progress(0, total)
    rngs = [random.Random(decision_seed(rng_seed, index)) for index, _, _ in turns]
    hint_rngs = [_seed_beside(rng) for rng in rngs]
    # Every decision's first glance, two at a time (a glance is one search, on one core),
    # then the next glance of those it did not find surely fine, then the looks of those
    # still open, two decisions at a time (each decision's looks one after another, each
    # look deciding whether another is needed). Each decision draws from its own
    # generator alone, in the order judge() draws, so the verdicts are those of judge()
    # one decision after another.
    decided: list[Decision | None] = [None] * len(turns)
    with ThreadPoolExecutor(max_workers=CORES) as side_by_side:
        for stage in [*GLANCES, None]:
            open_ = {
                at: side_by_side.submit(
                    _judged_at, stage, game, view, chosen, index, budget, rng, hint_rng
                )
                for at, ((index, view, chosen), rng, hint_rng) in enumerate(
                    zip(turns, rngs, hint_rngs, strict=True)
                )
                if decided[at] is None
            }
            for at, future in open_.items():
                decided[at] = future.result()
                if decided[at] is not None and progress is not None:
                    count += 1
                    progress(count, total)
    done.decisions.extend(d for d in decided if d is not None)
    return done


def _judged_at(
    stage: float | None,
    game: Game,
    view: View,
    chosen: str,
    index: int,
    budget: Budget,
    rng: random.Random,
    hint_rng: random.Random,
) -> Decision | None:
    """A stage of :func:`judge`: the glance at the share ``stage`` of ``budget`` (the
    decision if it settles it), or with None the looks."""
    if stage is None:
        return _look(game, view, chosen, index, budget, rng, hint_rng)
    return _glance(game, view, chosen, index, budget, rng, stage)


CORES = 2
"""The searches a review runs side by side, glances or decisions' looks: one a core (on a
machine of two cores, more would share them, and a search bounded by the clock would
search less)."""


CHART_UNITS = {
    "tricks": "expected tricks this hand",
    "points": "expected tricks over the quota this deal",
    "not_fool": "chance of not being the fool",
}


def write_chart(done: Review, path: Path) -> bool:
    """The value of each decision in the game's unit over the game, as a PNG: the best
    action's and the chosen one's, mistakes and inaccuracies marked; False when matplotlib is
    not installed (``pip install 'cardtable[arena]'``)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return False
    figure = Figure(figsize=(10, 4), layout="constrained")
    FigureCanvasAgg(figure)  # draw off-screen, whatever backend pyplot would pick
    axes = figure.subplots()
    rated = [
        (d, d.best_value, d.chosen_value)
        for d in done.decisions
        if d.best_value is not None and d.chosen_value is not None
    ]
    steps = list(range(1, len(rated) + 1))
    axes.plot(steps, [best for _, best, _ in rated], label="best action", color="#2b7a3d")
    axes.plot(steps, [chosen for _, _, chosen in rated], label="chosen action", color="#1f4e9c")
    for name, colour in (("inaccuracy", "#d08a00"), ("mistake", "#c0392b")):
        points = [(s, chosen) for s, (d, _, chosen) in zip(steps, rated, strict=True)]
        marked = [p for p, (d, _, _) in zip(points, rated, strict=True) if d.verdict == name]
        if marked:
            axes.scatter(
                [s for s, _ in marked], [v for _, v in marked], label=name, color=colour, zorder=3
            )
    if done.unit == "not_fool":
        axes.set_ylim(-0.05, 1.05)
    axes.set_xlabel("decision")
    axes.set_ylabel(CHART_UNITS[done.unit])
    axes.legend(loc="best")
    figure.suptitle(f"{done.game}, seat {done.seat}: {CHART_UNITS[done.unit]} ({done.level})")
    figure.savefig(path, format="png", dpi=100)
    return True
