"""Game review: every decision of one seat in a finished game, judged by search from what
that seat knew when it decided (``docs/review.md``).

The record is replayed; at each turn of the seat with two or more legal actions the
seat's view, and nothing else, goes to a searching bot's ``analyse``: at the ``expert``
level PIMC over the exact solver where the level plays it (the end of a Kryt'-navalivat'
hand), ISMCTS elsewhere (in Knockout Whist with the estimate learnt by self-play). Each
legal action gets its expected return; the chosen action's *loss* is the best value less
its own, and the loss sets the verdict: ``fine``, ``inaccuracy`` or ``mistake``
(:data:`INACCURACY`, :data:`MISTAKE`).

    review = cardtable.review.review(record, seat=0, level="expert")
    for decision in review.worst(3):
        print(decision.index, decision.chosen, decision.best, decision.loss)
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.ismcts import SearchResult
from cardtable.bots.pimc import PimcBot
from cardtable.core import Game, Record, State, View
from cardtable.errors import CardtableError, InvalidRecordError
from cardtable.rules.catalog import descriptor

__all__ = [
    "INACCURACY",
    "MIN_VISITS",
    "MISTAKE",
    "REVIEW_FORMAT",
    "VERDICTS",
    "ActionValue",
    "Analyst",
    "Decision",
    "Review",
    "ReviewError",
    "analyst",
    "chance_per_return",
    "decision_seed",
    "judge",
    "moments",
    "review",
    "review_views",
    "verdict",
    "write_chart",
]

REVIEW_FORMAT = "cardtable-review"

# Losses are in the game's returns (``core.Result``: +1 to the winners' side, zero-sum). In
# Knockout Whist a return lies in [-1/(n-1), 1], so a loss of 0.15 is, at two players, 7.5%
# of the chance to win thrown away, and 12% at five. Below 0.05 a loss is within what a
# trick more or less (the solver's bonus, 0.001 a trick) and the spread of sampled deals
# move an estimate: no fault is found.
INACCURACY = 0.05
MISTAKE = 0.15

VERDICTS = ("fine", "inaccuracy", "mistake", "unrated")
"""The verdicts, mildest first; ``unrated``: the search never tried the chosen action."""

MIN_VISITS = 30
"""ISMCTS: the fewest visits an action needs to be taken as the best (its mean is noise
below that)."""

Progress = Callable[[int, int], None]
"""Called with (decisions judged, decisions in all) after each one."""


class ReviewError(CardtableError):
    """A review that cannot be made: a seat the game has not, an unfinished game, a level
    that does not search."""


class Analyst(Protocol):
    """A bot that values every legal action of a view: PIMC's or ISMCTS's ``analyse``."""

    name: str

    def analyse(
        self, game: Game, view: View, rng: random.Random, *, stop_early: bool
    ) -> SearchResult: ...


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action with its expected return for the seat (None: never searched) and
    the samples behind it (PIMC: deals; ISMCTS: visits)."""

    action: str
    value: float | None
    visits: int


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
                ActionValue(a["action"], a["value"], int(a["visits"])) for a in data["actions"]
            ],
            chosen=data["chosen"],
            best=data["best"],
            loss=data["loss"],
            noise=float(data["noise"]),
            verdict=data["verdict"],
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

    def stake(self) -> dict[str, Any]:
        """What a loss is in the player's words: ``chance_of`` ``"win"`` (Knockout Whist,
        Neuf: the chance to win the game) or ``"fool"`` (Kryt'-navalivat': the chance of
        being the fool), and ``per_return``, that chance (0 to 1) a unit of return stands
        for (:func:`chance_per_return`), and ``lowest_return``, the return of that chance
        at 0 (a loss; being the fool). A decision's ``loss`` times ``per_return`` is the
        chance it gave away; an action's value ``v`` stands for a chance of
        ``(v - lowest_return) * per_return``."""
        players = cardtable.make(self.game, **self.options).num_players
        return {
            "chance_of": descriptor(self.game).stake,
            "per_return": chance_per_return(self.game, players),
            "lowest_return": descriptor(self.game).return_range(players)[0],
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": REVIEW_FORMAT,
            "version": 1,
            "game": self.game,
            "options": dict(self.options),
            "seat": self.seat,
            "level": self.level,
            "rng_seed": self.rng_seed,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE},
            "returns": list(self.returns),
            "stake": self.stake(),
            "counts": self.counts(),
            "decisions": [asdict(d) for d in self.decisions],
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        if data.get("format") != REVIEW_FORMAT:
            raise ReviewError(f"not a cardtable review (format {data.get('format')!r})")
        return cls(
            game=data["game"],
            options=dict(data["options"]),
            seat=int(data["seat"]),
            level=data["level"],
            rng_seed=int(data["rng_seed"]),
            returns=[float(r) for r in data["returns"]],
            decisions=[Decision.from_dict(d) for d in data["decisions"]],
        )


def chance_per_return(game_name: str, players: int) -> float:
    """The chance (0 to 1) of the game's outcome that one unit of return stands for. A return
    runs from a loss's to a win's (its descriptor's
    :meth:`~cardtable.rules.descriptor.Descriptor.return_range`), and the expected return of a game
    that is won or lost is ``low + p * (high - low)`` for a chance ``p`` to win (not to be
    the fool, in Kryt'-navalivat'): a loss ``L`` in return is ``L / (high - low)`` of that
    chance. At two players of Knockout Whist 0.5 (a loss of 0.15 is 7.5% of the chance to
    win), at five 0.8. Where the outcome may be shared (Neuf's tied winners, a drawn hand of
    Kryt'-navalivat') it is about that."""
    low, high = descriptor(game_name).return_range(players)
    return 1.0 / (high - low)


def verdict(loss: float | None, noise: float = 0.0) -> str:
    """The verdict on a loss: a loss within the search's ``noise`` is no fault found."""
    if loss is None:
        return "unrated"
    if loss <= noise or loss < INACCURACY:
        return "fine"
    return "mistake" if loss >= MISTAKE else "inaccuracy"


def analyst(level: str, game_name: str) -> Analyst:
    """The searching bot a level (or a bot spec: ``pimc:deals=8``) names, for a game;
    :class:`ReviewError` for one that does not search (``easy``, ``random``)."""
    bot = make_bot(level, game_name)
    if not callable(getattr(bot, "analyse", None)):
        raise ReviewError(f"the level {level!r} does not search; review with expert or hard")
    return bot  # type: ignore[return-value]  # it has analyse: a PIMC or ISMCTS bot


def moments(record: Record, seat: int) -> tuple[State, list[tuple[int, State, str]]]:
    """The game's end and each turn of ``seat`` with two or more legal actions: (the
    action's index in the record, the state before it, the action played). Checks that
    the record replays, the seat exists and the game is over."""
    game = cardtable.make(record.game, **record.options)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise ReviewError(f"seat {seat!r} is not at this game: seats are 0-{game.num_players - 1}")
    bare = Record(
        record.game, record.options, record.seed, [], record.decks, record.reshuffles, record.start
    )
    state = game.replay(bare)
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
    game: Game, view: View, chosen: str, index: int, bot: Analyst, rng: random.Random
) -> Decision:
    """One decision judged from ``view`` alone: the seat's view when it chose ``chosen``,
    the ``index``-th action of the record."""
    legal: list[str] = view["legal_actions"]
    result = bot.analyse(game, view, rng, stop_early=False)
    valued = [
        ActionValue(text, result.values.get(n), result.visits.get(n, 0))
        for text, n in ((text, game.number_of(text)) for text in legal)
    ]
    chosen = str(game.actions[game.number_of(chosen)])  # canonical text, as the view lists
    searched = [a for a in valued if a.value is not None]
    sampled = not isinstance(bot, PimcBot)
    # ISMCTS's rarely visited actions have means that are mostly noise: only an action
    # searched enough may be the best (PIMC values every action on every deal).
    eligible = [a for a in searched if not sampled or a.visits >= MIN_VISITS] or searched
    choice = next(a for a in valued if a.action == chosen)
    if not eligible or choice.value is None:
        return Decision(index, *_where(view), valued, chosen, chosen, None, 0.0, "unrated")
    best = max(eligible, key=lambda a: (a.value, a.action == chosen))
    assert best.value is not None  # eligible actions were searched
    loss = max(0.0, best.value - choice.value)
    noise = _noise(game, best, choice) if sampled else 0.0
    if best is choice:
        noise = 0.0
    return Decision(
        index, *_where(view), valued, chosen, best.action, loss, noise, verdict(loss, noise)
    )


def _noise(game: Game, best: Any, chosen: Any) -> float:
    """Two standard errors of the difference of two ISMCTS means, bounded: a return's
    standard deviation is at most half its range."""
    low, high = descriptor(game.name).return_range(game.num_players)
    spread = (high - low) / 2
    return 2 * spread * math.sqrt(1 / max(best.visits, 1) + 1 / max(chosen.visits, 1))


def _where(view: View) -> tuple[int | None, int | None]:
    """The hand (or deal) number and the trick the view stands at, where the game has them."""
    hand = view.get("hand_number", view.get("deal_number"))
    tricks = view.get("tricks")
    return (
        hand if isinstance(hand, int) else None,
        len(tricks) + 1 if isinstance(tricks, list) else None,
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
    search of ``level`` (a level, or a bot spec such as ``pimc:deals=8``) from the seat's
    view at the time. :class:`ReviewError` for a seat not at the game, an unfinished
    game or a level that does not search; :class:`InvalidRecordError` for a record that
    does not replay."""
    end, turns = moments(record, seat)
    analyst(level, record.game)  # a level that cannot review fails before any replay work
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
    bot = analyst(level, game_name)
    done = Review(game_name, dict(options), seat, level, rng_seed, list(returns))
    if progress is not None:
        progress(0, len(turns))
    for count, (index, view, chosen) in enumerate(turns, 1):
        rng = random.Random(decision_seed(rng_seed, index))
        done.decisions.append(judge(game, view, chosen, index, bot, rng))
        if progress is not None:
            progress(count, len(turns))
    return done


def write_chart(done: Review, path: Path) -> bool:
    """The expected return over the game, as a PNG: the best action's and the chosen
    one's at each decision, mistakes and inaccuracies marked; False when matplotlib is
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
    low, high = descriptor(done.game).return_range(int(done.options.get("players", 2)))
    axes.set_ylim(low - 0.05, high + 0.05)
    axes.set_xlabel("decision")
    axes.set_ylabel("expected return")
    axes.legend(loc="best")
    figure.suptitle(f"{done.game}, seat {done.seat}: expected return by decision ({done.level})")
    figure.savefig(path, format="png", dpi=100)
    return True
