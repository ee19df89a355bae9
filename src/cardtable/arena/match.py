"""One game of a tournament: :func:`play_game` turns a :class:`GameTask` into a
:class:`GameOutcome`, the same on any machine and any backend.

A bot sees only its seat's view, the legal actions and its own seeded generator. A bot
that raises, or returns anything but one of the legal actions, ends the game as failed:
the outcome names the seat, the entry, the spec and the error, and keeps the record up
to that point so the failure can be replayed.

A task with ``per_deal`` (Neuf) is played to the end of its first deal only: its outcome's
results are the deal's (:func:`cardtable.arena.metrics.deal_result`) and its record is
the game so far, which replays to the state after the first deal (the next deal's cards
already dealt, nobody having acted on them).
"""

from __future__ import annotations

import random
import time
import traceback
from dataclasses import dataclass
from typing import Any

import cardtable
from cardtable.arena.metrics import deal_result, deal_scored, seat_values
from cardtable.arena.schedule import GameTask
from cardtable.bots import Bot, make_bot
from cardtable.core import State
from cardtable.rules.neuf.state import NeufState

__all__ = ["CAPPED", "FAILED", "OK", "Failure", "GameOutcome", "play_game"]

OK = "ok"
FAILED = "failed"
CAPPED = "capped"
"""A game stopped at its task's ``max_actions`` (KRYT-7.7): a result, scored a draw."""


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a game could not finish. ``kind``: ``raised`` (the bot raised), ``illegal`` (it
    returned something not legal), ``error`` (the game could not be set up or went wrong
    outside any bot; ``seat`` is then None unless a bot failed to be built)."""

    kind: str
    seat: int | None
    entry: str | None
    spec: str | None
    error: str
    traceback: str = ""
    record_file: str | None = None

    def describe(self) -> str:
        who = "the game" if self.seat is None else f"{self.entry} ({self.spec}) at seat {self.seat}"
        what = {"raised": "raised", "illegal": "chose an illegal action:", "error": "failed:"}
        return f"{who} {what.get(self.kind, 'failed:')} {self.error}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "entry": self.entry,
            "spec": self.spec,
            "error": self.error,
            "traceback": self.traceback,
            "record_file": self.record_file,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Failure:
        return cls(
            kind=data["kind"],
            seat=data["seat"],
            entry=data["entry"],
            spec=data["spec"],
            error=data["error"],
            traceback=data.get("traceback", ""),
            record_file=data.get("record_file"),
        )


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A played game: where it sits in the schedule, who sat where, how it ended and the
    per-seat metric; ``record`` replays it (:func:`cardtable.replay`)."""

    index: int
    deal: int
    rotation: int
    deal_seed: int
    seats: tuple[str, ...]
    specs: tuple[str, ...]
    rng_seeds: tuple[str, ...]
    status: str
    winners: tuple[int, ...]
    places: tuple[tuple[int, ...], ...]
    returns: tuple[float, ...]
    summary: str
    seat_metrics: tuple[float, ...]
    actions: int
    duration: float
    record: dict[str, Any]
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        """Whether the game has a result: played to its end, or capped and drawn."""
        return self.status in (OK, CAPPED)

    @property
    def capped(self) -> bool:
        """Whether the game was stopped at the cap on actions and scored a draw."""
        return self.status == CAPPED

    def metrics(self) -> dict[str, float]:
        """Each entry's metric: the mean over the seats it held."""
        held: dict[str, list[float]] = {}
        for entry, value in zip(self.seats, self.seat_metrics, strict=True):
            held.setdefault(entry, []).append(value)
        return {entry: sum(values) / len(values) for entry, values in held.items()}

    def entry_places(self) -> dict[str, float]:
        """Each entry's place, 0 best: its seat's place, or the mean over its seats."""
        place_of = {seat: rank for rank, group in enumerate(self.places) for seat in group}
        held: dict[str, list[int]] = {}
        for seat, entry in enumerate(self.seats):
            held.setdefault(entry, []).append(place_of[seat])
        return {entry: sum(p) / len(p) for entry, p in held.items()}

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.index,
            "deal": self.deal,
            "rotation": self.rotation,
            "deal_seed": self.deal_seed,
            "seats": list(self.seats),
            "specs": list(self.specs),
            "rng_seeds": list(self.rng_seeds),
            "status": self.status,
            "winners": list(self.winners),
            "places": [list(p) for p in self.places],
            "returns": list(self.returns),
            "summary": self.summary,
            "metrics": self.metrics() if self.ok else {},
            "seat_metrics": list(self.seat_metrics),
            "actions": self.actions,
            "duration": self.duration,
            "failure": None if self.failure is None else self.failure.to_dict(),
            "record": self.record,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameOutcome:
        failure = data.get("failure")
        return cls(
            index=data["game"],
            deal=data["deal"],
            rotation=data["rotation"],
            deal_seed=data["deal_seed"],
            seats=tuple(data["seats"]),
            specs=tuple(data["specs"]),
            rng_seeds=tuple(data["rng_seeds"]),
            status=data["status"],
            winners=tuple(data["winners"]),
            places=tuple(tuple(p) for p in data["places"]),
            returns=tuple(data["returns"]),
            summary=data["summary"],
            seat_metrics=tuple(data["seat_metrics"]),
            actions=data["actions"],
            duration=data["duration"],
            record=data["record"],
            failure=None if failure is None else Failure.from_dict(failure),
        )


def play_game(task: GameTask) -> GameOutcome:
    """Play ``task``'s game to the end with its bots (``per_deal``: to the end of its first
    deal, every bot choosing, even random ones)."""
    started = time.perf_counter()
    state: State | None = None
    try:
        game = cardtable.make(task.game, **task.options)
        state = game.new_state(seed=task.deal_seed)
    except Exception as exc:
        return _failed(task, state, started, Failure("error", None, None, None, _text(exc)))
    bots: list[Bot] = []
    for place, spec in enumerate(task.specs):
        try:
            bots.append(make_bot(spec, game.name))
        except Exception as exc:
            failure = _bot_failure("error", task, place, f"cannot be built: {_text(exc)}", exc)
            return _failed(task, state, started, failure)
    rngs = [random.Random(seed) for seed in task.rng_seeds]
    per_deal = task.per_deal
    if per_deal and not isinstance(state, NeufState):
        failure = Failure("error", None, None, None, f"{game.name} is not played deal by deal")
        return _failed(task, state, started, failure)
    if not per_deal and all(spec.strip() == "random" for spec in task.specs):
        # Random bots only: every decision is uniform over the legal actions, which is what
        # a playout plays, in the compiled core when it is in use (one call for the game).
        # The game drawn differs from the Python path's, and is as reproducible.
        state.playout(rngs[0])
        if len(state.history) > task.max_actions:
            # Past the cap: played again action by action below, where the cap stops it.
            state = game.new_state(seed=task.deal_seed)
    while (seat := state.to_move) is not None and not (per_deal and deal_scored(state)):
        if len(state.history) >= task.max_actions:
            return _capped(task, state, started)
        legal = state.legal_actions()
        allowed = tuple(legal)  # the bot may change the list it is given
        try:
            bot = bots[seat]
            if getattr(bot, "sees_everything", False):
                # A measuring stick that reads the whole state (bots.pimc.CheaterBot): the
                # arena alone seats one.
                action = bot.choose_seeing(state, legal, rngs[seat])  # type: ignore[attr-defined]
            else:
                action = bot.choose(state.view(seat), legal, rngs[seat])
        except Exception as exc:
            failure = _bot_failure("raised", task, seat, _text(exc), exc)
            return _failed(task, state, started, failure)
        if action not in allowed:
            shown = ", ".join(map(str, allowed))
            error = f"{action!r} is not one of the legal actions ({shown})"
            return _failed(task, state, started, _bot_failure("illegal", task, seat, error))
        try:
            state.apply(action, seat=seat)
        except Exception as exc:
            return _failed(task, state, started, Failure("error", None, None, None, _text(exc)))
    result = deal_result(state) if per_deal else state.result
    assert result is not None
    return _outcome(
        task,
        state,
        started,
        status=OK,
        winners=result.winners,
        places=result.places,
        returns=result.returns,
        summary=result.summary,
        seat_metrics=tuple(seat_values(state, per_deal)),
    )


def _text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _bot_failure(
    kind: str, task: GameTask, seat: int, error: str, exc: BaseException | None = None
) -> Failure:
    trace = "" if exc is None else "".join(traceback.format_exception(exc))
    return Failure(kind, seat, task.seats[seat], task.specs[seat], error, trace)


def _failed(task: GameTask, state: State | None, started: float, failure: Failure) -> GameOutcome:
    return _outcome(
        task, state, started, status=FAILED, summary=failure.describe(), failure=failure
    )


def _capped(task: GameTask, state: State, started: float) -> GameOutcome:
    """A game still going at the cap: a draw, every seat placed alike with a return and a
    metric of 0 (in Kryt'-navalivat', nobody the fool)."""
    players = len(task.seats)
    summary = (
        f"no result after {task.max_actions:,} actions: stopped by the arena's cap "
        "(KRYT-7.7) and scored a draw"
    )
    return _outcome(
        task,
        state,
        started,
        status=CAPPED,
        summary=summary,
        places=(tuple(range(players)),),
        returns=(0.0,) * players,
        seat_metrics=(0.0,) * players,
    )


def _outcome(
    task: GameTask,
    state: State | None,
    started: float,
    *,
    status: str,
    summary: str,
    winners: tuple[int, ...] = (),
    places: tuple[tuple[int, ...], ...] = (),
    returns: tuple[float, ...] = (),
    seat_metrics: tuple[float, ...] = (),
    failure: Failure | None = None,
) -> GameOutcome:
    """The outcome of ``task``: what the task fixed, what was played of it (``state``,
    ``None`` when the game could not even be made) and how it ended."""
    return GameOutcome(
        index=task.index,
        deal=task.deal,
        rotation=task.rotation,
        deal_seed=task.deal_seed,
        seats=task.seats,
        specs=task.specs,
        rng_seeds=task.rng_seeds,
        status=status,
        winners=winners,
        places=places,
        returns=returns,
        summary=summary,
        seat_metrics=seat_metrics,
        actions=0 if state is None else len(state.history),
        duration=round(time.perf_counter() - started, 6),
        record={} if state is None else state.record().to_dict(),
        failure=failure,
    )
