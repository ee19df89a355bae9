"""The conformance suite every cardtable game must pass (DESIGN.md "Testing"; SPEC §0.4, §5).

It sees a game only through the protocol of :mod:`cardtable.core`, so it runs unchanged
over every game, variant and player count::

    import cardtable
    from cardtable.testing import run_conformance

    report = run_conformance(cardtable.make("knockout-whist", players=5), games=300)
    print(report)

Each random game is played to its end with random legal actions drawn from
``random.Random(seed)``; the checks draw from a generator of their own, so the game
played depends on the seed alone, whatever is checked along the way.

**Two kinds of game.** :func:`check_random_game` plays a game under every check below;
:func:`check_fast_game` plays one under the *fast* checks only, for games too long or too
many to check in full (SPEC §5 asks for hundreds of games per variant; a Kryt'-navalivat'
random game runs to a thousand actions). :func:`run_conformance` mixes them: with
``full_every=k``, the games at seed offsets 0, k, 2k, … get every check and the others
the fast ones; the default ``full_every=1`` checks every game in full.

The **fast** checks, after every action: the game's own invariants
(``game.check_transition(before, number, after)``); a seat is to move exactly when the
game is not over, and it has a legal action; the chosen action is applied through the
checked :meth:`~cardtable.core.State.apply`, which must accept it; one probe number a step
(the probes walk through every action number in turn) gets the same answer from
:meth:`~cardtable.core.State.is_legal` as from the legal list; and every 16th step the
legal list gets :func:`check_legal_actions` without the sweep over every number. At the
start, the game is a function of its seed and its legal list gets the full check; at the
end, :func:`check_result` and one action refused with :class:`~cardtable.GameOverError`.

**Every check**, in three tiers. After **every** action:

- the game's own invariants, ``game.check_transition(before, number, after)``;
- the legal actions: ascending and unique action numbers, each one converting to an
  :class:`~cardtable.core.Action` and back, and each action's text parsing back to it;
  ``to_move``, ``is_over``, ``result``, the legal list and ``is_legal`` agree (SPEC
  §0.4 (2));
- a sample of illegal actions (``illegal_per_step`` numbers not in the legal list, sent
  as a number, an Action or text in turn) and one legal action sent for the wrong seat are
  refused with :class:`~cardtable.IllegalActionError` and :class:`~cardtable.OutOfTurnError`,
  leaving the turn and the legal actions as they were;
- the action is applied through the checked :meth:`~cardtable.core.State.apply` (as an
  Action, as text or as a number in turn), and a copy taken before it keeps its turn and
  legal actions.

At **snapshot** steps (probability ``snapshot_rate``, and every deep step), the refusals
and the action are also checked against whole positions: ``position()`` is unchanged by
the refusals, and so is the copy's by the action.

At **deep** steps (the first state, the last one, and each other state with probability
``deep_rate``), the expensive checks as well:

- ``is_legal`` is asked about every action number; every illegal action number is
  refused, and ``position()`` and every seat's view are unchanged afterwards;
- every view (each seat's and the spectator's) is JSON: ``json.loads(json.dumps(v)) == v``,
  and a view taken before an action does not change when the state moves on;
- the checked and unchecked applies (:meth:`~cardtable.core.State.apply_id`) agree;
- :meth:`~cardtable.core.State.copy` independence both ways;
- the view re-deal test of SPEC §0.4 (4): ``state.resample_hidden(seat, rng).view(seat)``
  equals ``state.view(seat)`` for the spectator, the seat to move and a random seat (the
  spectator and a random seat at the end); a re-dealt state reads back from its position
  and plays on; and, so that the test has teeth, at the first state re-dealing must
  change what some other seat sees, for each of those observers (every game here deals
  face-down hands);
- ``game.state_from_position(state.position())`` gives the same position, turn, legal
  actions, result and views, the same position again after one more action, and that
  state's own record (which starts from the position) replays;
- except at the first state, whose record holds no action yet:
  ``cardtable.replay(Record.from_json(state.record().to_json()))`` gives the same
  position, legal actions and views, and the same record text (SPEC §0.4 (3)).

At the end: there are no legal actions, a :class:`~cardtable.core.Result` that places every
seat once with zero-sum returns (SPEC §0.4 (5)), and every action number is refused with
:class:`~cardtable.GameOverError`.

**The cap** (SPEC §5 termination; KRYT-7.7 and K-14 for a game with no move limit). A game
that has not ended after ``max_actions`` actions raises :class:`CappedGameError`, an
``AssertionError`` naming the seed and the position reached, so a single game that does
not end fails. :func:`run_conformance` catches it, lists the seed in
:attr:`ConformanceReport.capped` (which the report's text prints) and plays on; once every
game has been played it fails, listing the capped seeds, unless ``allow_capped=True`` asks
for the report instead (to count the capped games, or to test the cap itself). Every
check up to the cap has been made on a capped game; its end checks are not.

**Watching.** ``watch(before, number, after)``, given to any of the three, is called after
each action's checks, with a copy of the state before the action and the state itself
(read it there and then: it moves on), so that a test can count what the random games
reached (a rare rule, a kind of ending) without playing them again.

Every failure is an ``AssertionError`` that names the game, the seed, the action and the
position the failing step began from, so ``game.state_from_position`` rebuilds it. The
checks raise explicitly rather than using ``assert`` so that they also run under
``python -O``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from cardtable.core import Action, Game, Record, Result, State, View
from cardtable.errors import GameOverError, IllegalActionError, OutOfTurnError

__all__ = [
    "DEFAULT_MAX_ACTIONS",
    "CappedGameError",
    "ConformanceReport",
    "GameReport",
    "Watch",
    "check_copy_independent",
    "check_fast_game",
    "check_game_over",
    "check_illegal_actions_rejected",
    "check_legal_actions",
    "check_new_game",
    "check_out_of_turn_rejected",
    "check_position_round_trip",
    "check_random_game",
    "check_redeal",
    "check_replay",
    "check_result",
    "check_views_json",
    "perft",
    "run_conformance",
]

DEFAULT_MAX_ACTIONS = 10_000
"""The default bound on a random game's length; every game here ends far sooner."""

_T = TypeVar("_T")

Watch = Callable[[State, int, State], None]
"""``watch(before, number, after)``: told of each action once its checks have passed."""

_LEGAL_EVERY = 16  # the fast tier's full look at the legal list, every this many steps
_PROBE_STRIDE = 7919  # a prime: the fast tier's is_legal probes walk through every number


@dataclass(frozen=True, slots=True)
class GameReport:
    """What :func:`check_random_game` played and checked in one game."""

    seed: int
    actions: int
    deep_steps: int
    redeals: int
    result: Result
    full: bool = True
    """Every check ran (:func:`check_random_game`), not the fast ones only."""


@dataclass(frozen=True, slots=True)
class ConformanceReport:
    """What :func:`run_conformance` played and checked over many games."""

    game: str
    games: int
    actions: int
    longest: int
    deep_steps: int
    redeals: int
    wins: tuple[int, ...]
    full_games: int = 0
    """How many of the games got every check; the others got the fast ones."""
    max_actions: int = DEFAULT_MAX_ACTIONS
    capped: tuple[int, ...] = ()
    """The seeds of the games stopped at ``max_actions`` without ending."""

    def __str__(self) -> str:
        text = (
            f"{self.game}: {self.games} games ({self.full_games} with every check), "
            f"{self.actions} actions (longest {self.longest}), {self.deep_steps} deep steps, "
            f"{self.redeals} re-deals; wins by seat {list(self.wins)}"
        )
        if self.capped:
            seeds = ", ".join(map(str, self.capped))
            text += (
                f"; {len(self.capped)} games reached the cap of {self.max_actions} actions "
                f"without ending: seeds {seeds}"
            )
        return text


class CappedGameError(AssertionError):
    """A random game reached ``max_actions`` actions without ending (SPEC §5; KRYT-7.7 and
    K-14 for a game with no move limit). An ``AssertionError``, so a single game that does
    not end fails; :func:`run_conformance` catches it, lists the seed and plays on."""

    def __init__(self, game: Game, seed: int, actions: int, state: State) -> None:
        super().__init__(
            f"{game!r}, seed {seed}: the game did not end within {actions} actions "
            f"(SPEC §5), at position {_position_of(state)}"
        )
        self.seed = seed
        self.actions = actions


def _fail(message: str) -> AssertionError:
    return AssertionError(message)


def _guard(what: str, call: Callable[[], _T]) -> _T:
    """Run ``call``; a ``ValueError`` where none is allowed is a conformance failure."""
    try:
        return call()
    except ValueError as exc:
        raise _fail(f"{what} raised {type(exc).__name__}: {exc}") from exc


def _seats(state: State) -> list[int | None]:
    return [None, *range(state.game.num_players)]


def _views_text(state: State) -> list[str]:
    return [json.dumps(state.view(seat), sort_keys=True) for seat in _seats(state)]


def _diff(want: View, got: View) -> str:
    keys = sorted({*want, *got})
    changed = [k for k in keys if want.get(k, "<absent>") != got.get(k, "<absent>")]
    return ", ".join(
        f"{k}: {want.get(k, '<absent>')!r} -> {got.get(k, '<absent>')!r}" for k in changed
    )


# Checks on one state ------------------------------------------------------------------------


def check_legal_actions(
    state: State, known: set[int] | None = None, *, every_number: bool = True
) -> list[int]:
    """SPEC §0.4 (2): the legal action numbers, ascending and unique, each converting to
    an action and back and each action's text parsing back to it; the turn, ``is_over``,
    ``result``, the legal list and :meth:`State.is_legal` agree. Returns the legal numbers.

    Conversions depend on the game alone, so numbers in ``known`` are taken as already
    checked, and the numbers checked now are added to it. ``is_legal`` is asked about
    every action number, or with ``every_number=False`` only about the legal ones."""
    game = state.game
    ids = state.legal_action_ids()
    if not isinstance(ids, list) or not all(type(i) is int for i in ids):
        raise _fail(f"legal_action_ids() must be a list of ints, got {ids!r}")
    if any(a >= b for a, b in itertools.pairwise(ids)):
        raise _fail(f"legal action numbers are not strictly ascending: {ids}")
    if ids and not 0 <= ids[0] <= ids[-1] < game.num_distinct_actions:
        raise _fail(f"legal action numbers {ids} outside 0-{game.num_distinct_actions - 1}")
    asked = range(game.num_distinct_actions) if every_number else ids
    wrong = [i for i in asked if state.is_legal(i) != (i in ids)]
    if wrong:
        raise _fail(f"is_legal() disagrees with legal_action_ids() {ids} about {wrong}")
    actions = state.legal_actions()
    if actions != [game.actions[i] for i in ids]:
        raise _fail(f"legal_actions() {actions} disagrees with legal_action_ids() {ids}")
    for number, action in zip(ids, actions, strict=True):
        if known is not None:
            if number in known:
                continue
            known.add(number)
        if not isinstance(action, Action):
            raise _fail(f"action {number} is {action!r}, not an Action")
        if game.action_from_int(number) != action:
            raise _fail(f"action_from_int({number}) is not {action}")
        if game.action_to_int(action) != number:
            raise _fail(f"action_to_int({action}) is {game.action_to_int(action)}, not {number}")
        text = str(action)
        parsed = _guard(f"parse_action({text!r})", partial(game.parse_action, text))
        if parsed != action:
            raise _fail(f"{text!r} parses to {parsed}, not back to itself")
    mover = state.to_move
    if state.is_over != (mover is None):
        raise _fail(f"is_over is {state.is_over} but to_move is {mover}")
    if mover is None:
        if ids:
            raise _fail(f"the game is over but actions {ids} are legal")
        if not isinstance(state.result, Result):
            raise _fail(f"the game is over but result is {state.result!r}")
    else:
        if type(mover) is not int or not 0 <= mover < game.num_players:
            raise _fail(f"to_move is {mover!r}, not a seat 0-{game.num_players - 1}")
        if not ids:
            raise _fail(f"seat {mover} is to move but has no legal action")
        if state.result is not None:
            raise _fail(f"the game is not over but result is {state.result!r}")
    return ids


def _refuse_illegal(state: State, numbers: Iterable[int]) -> None:
    game = state.game
    for i, number in enumerate(numbers):
        action = game.actions[number]
        # Every form an action may take must be refused, not only the number.
        given: Action | str | int = (number, action, str(action))[i % 3]
        try:
            state.apply(given)
        except (OutOfTurnError, GameOverError) as exc:
            raise _fail(f"illegal {given!r} raised {type(exc).__name__}: {exc}") from exc
        except IllegalActionError:
            pass
        except ValueError as exc:
            raise _fail(
                f"illegal {given!r} raised {type(exc).__name__}, not IllegalActionError: {exc}"
            ) from exc
        else:
            raise _fail(f"illegal action {action} was accepted")


def _refuse_out_of_turn(state: State, rng: random.Random) -> None:
    mover = state.to_move
    if mover is None:
        return
    wrong = rng.choice([s for s in range(state.game.num_players) if s != mover])
    action = state.game.actions[rng.choice(state.legal_action_ids())]
    try:
        state.apply(action, seat=wrong)
    except OutOfTurnError:
        pass
    except ValueError as exc:
        raise _fail(
            f"{action} for seat {wrong} out of turn raised {type(exc).__name__}, "
            f"not OutOfTurnError: {exc}"
        ) from exc
    else:
        raise _fail(f"{action} was accepted for seat {wrong} while seat {mover} is to move")


def _culprit(pristine: State, numbers: Iterable[int], position: str) -> str:
    """Name the refused action that changed a state, retrying each on a fresh copy."""
    for number in numbers:
        trial = pristine.copy()
        with contextlib.suppress(ValueError):
            trial.apply(number)
        if trial.position() != position:
            return f"refusing {pristine.game.actions[number]} changed the position"
    return "refusing an action changed the position"


def check_illegal_actions_rejected(
    state: State, numbers: Iterable[int] | None = None, *, views: bool = True
) -> int:
    """SPEC §0.4 (2): each action number in ``numbers`` that is not legal (all of them by
    default) is refused with :class:`IllegalActionError` and the state is unchanged
    (``position()``, and every seat's view when ``views``). Returns how many were tried."""
    game = state.game
    if state.is_over:
        return check_game_over(state)
    legal = set(state.legal_action_ids())
    candidates = range(game.num_distinct_actions) if numbers is None else numbers
    illegal = [i for i in candidates if i not in legal]
    position = state.position()
    seen = _views_text(state) if views else []
    pristine = state.copy()
    _refuse_illegal(state, illegal)
    if state.position() != position:
        raise _fail(_culprit(pristine, illegal, position))
    if views and _views_text(state) != seen:
        raise _fail("refusing illegal actions changed a view")
    return len(illegal)


def check_out_of_turn_rejected(state: State, rng: random.Random) -> None:
    """A legal action sent for a seat that is not to move is refused with
    :class:`OutOfTurnError`, and the state is unchanged."""
    position = state.position()
    _refuse_out_of_turn(state, rng)
    if state.position() != position:
        raise _fail("refusing an action sent out of turn changed the position")


def check_game_over(state: State) -> int:
    """SPEC §0.4 (5): a finished game has no legal actions and a consistent
    :class:`Result`; every action number is refused with :class:`GameOverError` and the
    state is unchanged. Returns how many actions were tried."""
    game = state.game
    n = game.num_players
    check_result(state)
    position = state.position()
    seen = _views_text(state)
    for number in range(game.num_distinct_actions):
        action = game.actions[number]
        for given in (number, str(action)):
            try:
                state.apply(given, seat=number % n)
            except GameOverError:
                pass
            except ValueError as exc:
                raise _fail(
                    f"{action} after the end raised {type(exc).__name__}, not GameOverError: {exc}"
                ) from exc
            else:
                raise _fail(f"{action} was accepted after the game ended")
    if state.position() != position or _views_text(state) != seen:
        raise _fail("refusing actions after the end changed the state")
    return game.num_distinct_actions


def check_result(state: State) -> Result:
    """SPEC §0.4 (5), without the refusals of :func:`check_game_over`: a finished game has
    no seat to move, no legal actions and a :class:`Result` that places every seat once,
    with its winners first and zero-sum returns. Returns the result."""
    n = state.game.num_players
    if state.to_move is not None or not state.is_over:
        raise _fail(f"the game should be over; seat {state.to_move} is to move")
    if state.legal_action_ids() != [] or state.legal_actions() != []:
        raise _fail(f"a finished game lists legal actions {state.legal_action_ids()}")
    result = state.result
    if not isinstance(result, Result):
        raise _fail(f"a finished game has result {result!r}")
    placed = sorted(s for place in result.places for s in place)
    if placed != list(range(n)):
        raise _fail(f"result places {result.places} do not list each of the {n} seats once")
    if result.winners and set(result.winners) != set(result.places[0]):
        raise _fail(f"winners {result.winners} are not the first place {result.places[0]}")
    if len(result.returns) != n or abs(sum(result.returns)) > 1e-9:
        raise _fail(f"returns {result.returns} are not one zero-sum number per seat")
    if not result.summary:
        raise _fail("a result needs a summary")
    return result


def check_views_json(state: State) -> list[View]:
    """Every seat's view and the spectator's are plain JSON: they survive
    ``json.loads(json.dumps(view))`` unchanged. Returns the views, spectator first."""
    views = []
    for seat in _seats(state):
        view = state.view(seat)
        if not isinstance(view, dict):
            raise _fail(f"view({seat}) is a {type(view).__name__}, not a dict")
        try:
            text = json.dumps(view, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise _fail(f"view({seat}) is not JSON-serialisable: {exc}") from exc
        if json.loads(text) != view:
            raise _fail(
                f"view({seat}) changes through JSON (tuples, non-string keys?): "
                f"{_diff(view, json.loads(text))}"
            )
        views.append(view)
    return views


def check_copy_independent(state: State, rng: random.Random) -> None:
    """:meth:`State.copy` is independent both ways: moves on a copy leave its source
    unchanged, and moves on the source leave the copy unchanged. ``state`` is not moved."""
    if state.is_over:
        return
    position = state.position()
    copy = state.copy()
    if type(copy) is not type(state) or copy is state:
        raise _fail(f"copy() returned {type(copy).__name__}, not a new {type(state).__name__}")
    if copy.position() != position:
        raise _fail("a copy has a different position")
    copy.apply_id(rng.choice(copy.legal_action_ids()))
    if state.position() != position:
        raise _fail("applying an action to a copy changed the original")
    source = state.copy()
    second = source.copy()
    source.apply_id(rng.choice(source.legal_action_ids()))
    if second.position() != position:
        raise _fail("applying an action to a state changed its copy")


def check_redeal(
    state: State, rng: random.Random, seats: Sequence[int | None] | None = None, tries: int = 8
) -> set[int | None]:
    """The view re-deal test of SPEC §0.4 (4).

    For each observer in ``seats`` (the spectator ``None`` and every seat by default), up
    to ``tries`` re-deals of everything it cannot see must leave its view, the seat to
    move and (for the mover) the legal actions unchanged, without touching ``state``;
    the first observer's first re-dealt state must read back from its position and play
    on. Returns the observers for which some re-deal changed what another seat sees,
    which is how a caller knows the re-deal had something to re-deal.
    """
    game = state.game
    observers = _seats(state) if seats is None else list(seats)
    position = state.position()
    others_seen = {s: state.view(s) for s in range(game.num_players)}
    changed: set[int | None] = set()
    for seat in observers:
        want = state.view(seat)
        for attempt in range(tries):
            other = state.resample_hidden(seat, rng)
            if other is state:
                raise _fail("resample_hidden must return a new state")
            got = other.view(seat)
            if got != want:
                who = "the spectator" if seat is None else f"seat {seat}"
                raise _fail(
                    f"re-dealing what {who} cannot see changed its view: {_diff(want, got)}"
                )
            if other.to_move != state.to_move:
                raise _fail(f"re-dealing for {seat} changed the seat to move")
            if (
                seat is not None
                and seat == state.to_move
                and (other.legal_action_ids() != state.legal_action_ids())
            ):
                raise _fail(f"re-dealing for seat {seat} changed its legal actions")
            if attempt == 0 and seat == observers[0]:
                _check_consistent(seat, other, rng)
            if any(other.view(s) != others_seen[s] for s in range(game.num_players) if s != seat):
                changed.add(seat)
                if attempt >= 1:
                    break
    if state.position() != position:
        raise _fail("resample_hidden changed the state it was called on")
    return changed


def _check_consistent(seat: int | None, other: State, rng: random.Random) -> None:
    """A re-dealt state is a state of the game: its position reads back and it plays on.

    Only structure is asked for: the protocol promises equal hand sizes and public
    cards, not that the new hands agree with what play has revealed (a void shown by
    failing to follow suit), so the game's invariants, which may check play history
    against the hands, are not run on it."""
    game = other.game
    text = other.position()
    rebuilt = _guard(
        f"state_from_position of a state re-dealt for {seat}",
        partial(game.state_from_position, text),
    )
    if rebuilt.position() != text:
        raise _fail(f"a state re-dealt for {seat} does not round-trip through its position")
    if not other.is_over:
        ahead = other.copy()
        _guard(
            f"playing on from a state re-dealt for {seat}",
            partial(ahead.apply, rng.choice(ahead.legal_action_ids())),
        )


def check_position_round_trip(state: State, rng: random.Random) -> None:
    """``game.state_from_position(state.position())`` is the same state: same position,
    turn, legal actions, result and views, and the same position after one more action.
    The rebuilt state's record (which starts from the position) replays as well."""
    game = state.game
    text = state.position()
    if "\n" in text:
        raise _fail("a position is one line")
    rebuilt = _guard("state_from_position", lambda: game.state_from_position(text))
    _same_state("the state rebuilt from its position", state, rebuilt)
    if state.is_over:
        return
    number = rng.choice(state.legal_action_ids())
    ahead = state.copy()
    ahead.apply_id(number)
    before = rebuilt.copy()
    _guard(f"applying {game.actions[number]} to the rebuilt state", lambda: rebuilt.apply(number))
    game.check_transition(before, number, rebuilt)
    if rebuilt.position() != ahead.position():
        raise _fail(
            f"after {game.actions[number]}, the state rebuilt from its position went to "
            f"{rebuilt.position()!r}, the original to {ahead.position()!r}"
        )
    check_replay(rebuilt, views=False)


def check_replay(state: State, *, views: bool = True) -> None:
    """SPEC §0.4 (3): the record, through JSON text and :func:`cardtable.replay`, rebuilds
    the same position and legal actions (and views, when ``views``), and records the same
    text again."""
    import cardtable  # the package imports this module's layer, not the other way round

    text = state.record().to_json()
    record = _guard("Record.from_json", lambda: Record.from_json(text))
    replayed = _guard("cardtable.replay", lambda: cardtable.replay(record))
    _same_state("the replayed state", state, replayed, views=views)
    again = replayed.record().to_json()
    if again != text:
        raise _fail(f"the replayed state records {again}, not {text}")


def _same_state(what: str, want: State, got: State, *, views: bool = True) -> None:
    if got.position() != want.position():
        raise _fail(f"{what} has position {got.position()!r}, not {want.position()!r}")
    if got.to_move != want.to_move or got.legal_action_ids() != want.legal_action_ids():
        raise _fail(f"{what} has a different turn or different legal actions")
    if got.result != want.result:
        raise _fail(f"{what} has result {got.result}, not {want.result}")
    for seat in _seats(want) if views else ():
        if got.view(seat) != want.view(seat):
            raise _fail(f"{what} shows seat {seat} {_diff(want.view(seat), got.view(seat))}")


def check_new_game(game: Game, seed: int) -> State:
    """A new game is a function of its seed: two games from one seed are identical.
    Returns one of them."""
    state = _guard(f"new_state(seed={seed})", lambda: game.new_state(seed=seed))
    twin = game.new_state(seed=seed)
    if twin.position() != state.position():
        raise _fail(f"two games from seed {seed} differ")
    if state.record().actions:
        raise _fail("a new game's record already holds actions")
    return state


# Whole games ----------------------------------------------------------------------------------


def _deep_checks(
    state: State,
    rng: random.Random,
    observers: Sequence[int | None],
    *,
    first: bool = False,
    must_hide: bool = False,
) -> int:
    """The sampled tier. Returns how many re-deals were checked. The first state's record
    holds no action yet, so its replay is left to the later states."""
    check_views_json(state)
    check_copy_independent(state, rng)
    # Looking for a change needs several re-deals; checking that views hold needs two.
    changed = check_redeal(state, rng, observers, tries=8 if must_hide else 2)
    if must_hide and set(observers) - changed:
        missing = sorted(set(observers) - changed, key=lambda s: -1 if s is None else s)
        raise _fail(
            f"re-dealing hidden cards never changed what another seat sees, for observers "
            f"{missing}: resample_hidden re-deals nothing, so the view test has no teeth"
        )
    check_position_round_trip(state, rng)
    if not first:
        check_replay(state)
    if state.is_over:
        check_game_over(state)
    else:
        check_illegal_actions_rejected(state)
    return len(observers)


def _explain_change(state: State, rng: random.Random) -> None:
    """The state changed outside ``apply``: find which promise broke, for the message."""
    if not state.is_over:
        check_copy_independent(state, rng)
        check_illegal_actions_rejected(state.copy())
        check_out_of_turn_rejected(state.copy(), rng)
    raise _fail(
        "the state changed outside apply(): a refused action changed it, or applying an "
        "action changed a copy taken before it"
    )


def _explain_refusal(pristine: State, sample: Sequence[int], rng: random.Random) -> None:
    """A refused action changed the state: retry on fresh copies to say which."""
    check_illegal_actions_rejected(pristine.copy(), sample, views=False)
    check_out_of_turn_rejected(pristine.copy(), rng)
    raise _fail("refusing an illegal or out-of-turn action changed the state")


def check_random_game(
    game: Game,
    seed: int,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    deep_rate: float = 0.05,
    snapshot_rate: float = 0.25,
    illegal_per_step: int = 2,
    hidden_at_start: bool = True,
    watch: Watch | None = None,
) -> GameReport:
    """Play one game from ``seed`` to its end with random legal actions
    (``random.Random(seed)``), checking everything listed in the module docstring.

    ``max_actions`` bounds the game's length (termination): a game still going after that
    many actions raises :class:`CappedGameError`; ``watch`` is told of every action (module
    docstring); ``deep_rate`` is the
    probability that a step gets the expensive checks (the first and last states always
    do); ``snapshot_rate`` the probability that a step compares whole positions around
    its refusals and its action (deep steps always do; the others compare the turn and
    the legal actions); ``illegal_per_step`` is how many illegal action numbers are tried
    at each step; ``hidden_at_start`` says that a new game hides cards from every seat,
    so that re-dealing them must change something (true of every cardtable game).
    """
    n = game.num_players
    play = random.Random(seed)
    # Checks draw from their own generator, so the game played depends on the seed alone.
    checks = random.Random(f"cardtable.testing:{seed}")
    known: set[int] = set()
    steps = 0
    deep_steps = 1
    redeals = 0
    at: State | None = None  # the state the failing step began from, for the message
    last = "at the deal"
    try:
        state = check_new_game(game, seed)
        at = state
        check_legal_actions(state, known)
        observers = [None, state.to_move, checks.randrange(n)]
        redeals += _deep_checks(state, checks, observers, first=True, must_hide=hidden_at_start)
        while not state.is_over:
            if steps >= max_actions:
                raise CappedGameError(game, seed, steps, state)
            deep = checks.random() < deep_rate
            ids = check_legal_actions(state, known, every_number=deep)
            mover = state.to_move
            assert mover is not None  # check_legal_actions established it
            last = f"at action {steps + 1}, seat {mover} to move"
            snapshot = deep or checks.random() < snapshot_rate
            before = at = state.copy()
            position = state.position() if snapshot else ""

            illegal = [i for i in range(game.num_distinct_actions) if i not in ids]
            sample = checks.sample(illegal, min(illegal_per_step, len(illegal)))
            _refuse_illegal(state, sample)
            _refuse_out_of_turn(state, checks)
            if (
                state.to_move != mover
                or state.legal_action_ids() != ids
                or (snapshot and state.position() != position)
            ):
                _explain_refusal(before, sample, checks)
            held = [state.view(s) for s in _seats(state)] if deep else []
            held_text = [json.dumps(v, sort_keys=True) for v in held]

            number = play.choice(ids)
            action = game.actions[number]
            last = f"at action {steps + 1}, {action} by seat {mover}"
            given: Action | str | int = (action, str(action), number)[steps % 3]
            applied = _guard(
                f"apply({given!r}) of a legal action", partial(state.apply, given, seat=mover)
            )
            if applied != action:
                raise _fail(f"apply({given!r}) returned {applied!r}, not {action!r}")
            if (
                before.to_move != mover
                or before.legal_action_ids() != ids
                or (snapshot and before.position() != position)
            ):
                _explain_change(state, checks)
            game.check_transition(before, number, state)
            if watch is not None:
                watch(before, number, state)
            steps += 1
            if deep:
                if [json.dumps(v, sort_keys=True) for v in held] != held_text:
                    raise _fail("a view taken earlier changed when the state moved on")
                unchecked = before.copy()
                unchecked.apply_id(number)
                if unchecked.position() != state.position():
                    raise _fail("apply() and apply_id() of the same action disagree")
                if not state.is_over:  # the last state gets the full round below
                    at = state
                    observers = [None, mover, checks.randrange(n)]
                    redeals += _deep_checks(state, checks, observers)
                    deep_steps += 1
        at = state
        last = f"at the end, after {steps} actions"
        check_legal_actions(state)
        redeals += _deep_checks(state, checks, [None, checks.randrange(n)])
        deep_steps += 1
    except CappedGameError:
        raise
    except AssertionError as exc:
        raise AssertionError(
            f"{game!r}, seed {seed}, {last}, from position {_position_of(at)}:\n{exc}"
        ) from exc
    result = state.result
    assert result is not None  # check_game_over established it
    return GameReport(seed, steps, deep_steps, redeals, result)


def check_fast_game(
    game: Game,
    seed: int,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    watch: Watch | None = None,
) -> GameReport:
    """Play the game :func:`check_random_game` plays from ``seed`` (the same actions),
    under the fast checks of the module docstring only: the game's invariants after every
    action, the checked apply, and cheap samples of the legal-action promises.
    ``max_actions`` and ``watch`` are as there."""
    play = random.Random(seed)
    known: set[int] = set()
    actions = game.actions
    count = game.num_distinct_actions
    transition = game.check_transition
    steps = 0
    at: State | None = None
    last = "at the deal"
    try:
        state = at = check_new_game(game, seed)
        check_legal_actions(state, known)
        # The state before each action is a second state kept one action behind, moved on
        # by apply_id: cheaper than a copy a step, which copies the whole action log. It
        # is taken afresh from the state every _LEGAL_EVERY steps.
        before = state.copy()
        while not state.is_over:
            if steps >= max_actions:
                raise CappedGameError(game, seed, steps, state)
            if steps % _LEGAL_EVERY == 0:
                check_legal_actions(state, known, every_number=False)
                before = state.copy()
            ids = state.legal_action_ids()
            mover = state.to_move
            if not ids or mover is None:
                raise _fail(f"seat {mover} is to move with legal actions {ids}")
            probe = steps * _PROBE_STRIDE % count
            if state.is_legal(probe) != (probe in ids):
                raise _fail(f"is_legal({probe}) disagrees with legal_action_ids() {ids}")
            number = play.choice(ids)
            at = before  # where the failing step began, for the message
            action = actions[number]
            last = f"at action {steps + 1}, {action} by seat {mover}"
            try:
                state.apply(action, seat=mover)
            except ValueError as exc:
                raise _fail(
                    f"apply({action}) of a legal action raised {type(exc).__name__}: {exc}"
                ) from exc
            transition(before, number, state)
            if watch is not None:
                watch(before, number, state)
            before.apply_id(number)
            steps += 1
        at = state
        last = f"at the end, after {steps} actions"
        check_legal_actions(state)
        result = check_result(state)
        try:
            state.apply(actions[steps % count], seat=steps % game.num_players)
        except GameOverError:
            pass
        else:
            raise _fail("an action was accepted after the game ended")
    except CappedGameError:
        raise
    except AssertionError as exc:
        raise AssertionError(
            f"{game!r}, seed {seed} (fast checks), {last}, from position {_position_of(at)}:\n{exc}"
        ) from exc
    return GameReport(seed, steps, 0, 0, result, full=False)


def _position_of(state: State | None) -> str:
    if state is None:
        return "(no state yet)"
    try:
        return repr(state.position())
    except Exception as exc:  # the message must survive a state too broken to print
        return f"(position() raised {type(exc).__name__}: {exc})"


def run_conformance(
    game: Game,
    games: int = 300,
    seed: int = 0,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    deep_rate: float = 0.05,
    snapshot_rate: float = 0.25,
    illegal_per_step: int = 2,
    hidden_at_start: bool = True,
    full_every: int = 1,
    allow_capped: bool = False,
    watch: Watch | None = None,
) -> ConformanceReport:
    """Play the games of seeds ``seed … seed + games - 1`` and sum up: the game at offset
    ``i`` gets every check (:func:`check_random_game`) when ``i % full_every == 0``, the
    fast checks (:func:`check_fast_game`) otherwise.

    Raises ``AssertionError`` at the first failure, naming the seed and position. A game
    that reaches ``max_actions`` is stopped there and its seed listed in the report's
    ``capped``; once every game has been played, any capped game is a failure too, unless
    ``allow_capped``, when the report is returned for the caller to judge."""
    if full_every < 1:
        raise ValueError(f"full_every must be 1 or more, not {full_every}")
    actions = longest = deep_steps = redeals = full_games = 0
    wins = [0] * game.num_players
    capped: list[int] = []
    for offset in range(games):
        full = offset % full_every == 0
        full_games += full
        try:
            if full:
                report = check_random_game(
                    game,
                    seed + offset,
                    max_actions=max_actions,
                    deep_rate=deep_rate,
                    snapshot_rate=snapshot_rate,
                    illegal_per_step=illegal_per_step,
                    hidden_at_start=hidden_at_start,
                    watch=watch,
                )
            else:
                report = check_fast_game(game, seed + offset, max_actions=max_actions, watch=watch)
        except CappedGameError as cap:
            capped.append(cap.seed)
            actions += cap.actions
            longest = max(longest, cap.actions)
            continue
        actions += report.actions
        longest = max(longest, report.actions)
        deep_steps += report.deep_steps
        redeals += report.redeals
        for seat in report.result.winners:
            wins[seat] += 1
    summary = ConformanceReport(
        game=repr(game),
        games=games,
        actions=actions,
        longest=longest,
        deep_steps=deep_steps,
        redeals=redeals,
        wins=tuple(wins),
        full_games=full_games,
        max_actions=max_actions,
        capped=tuple(capped),
    )
    if capped and not allow_capped:
        raise AssertionError(
            f"{summary}\nSPEC §5: every game must end; check_random_game(game, seed, "
            f"max_actions={max_actions}) shows where a capped seed stood"
        )
    return summary


def perft(state: State, depth: int) -> list[int]:
    """Perft-style counts: ``[n(1), …, n(depth)]`` where ``n(d)`` is the number of action
    sequences of length ``d`` from ``state`` (sequences that end the game early count at
    their own length only). A change in move generation shows up as a changed count;
    fixtures of these numbers are kept per game (``tests/fixtures/``). Uses the unchecked
    path and ``copy()``; the state itself is not changed."""
    counts = [0] * depth

    def walk(node: State, ply: int) -> None:
        numbers = node.legal_action_ids()
        counts[ply] += len(numbers)
        if ply + 1 < depth:
            for number in numbers:
                child = node.copy()
                child.apply_id(number)
                walk(child, ply + 1)

    walk(state, 0)
    return counts


def checked_perft(state: State, depth: int) -> int:
    """The last of :func:`perft`'s counts through the checked path (``legal_actions()`` and
    ``apply()``), to show both paths generate the same moves."""
    if depth == 0:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        total += checked_perft(child, depth - 1)
    return total


def perft_start(game: str, entry: Mapping[str, Any]) -> State:
    """The start of a perft fixture entry: the game made with ``entry["options"]``, then
    ``entry["position"]``, or a first deal of ``entry["deck"]`` (card text, seed 0)."""
    from cardtable import make

    made = make(game, **entry["options"])
    if "position" in entry:
        return made.state_from_position(entry["position"])
    return made.new_state(seed=0, decks=[entry["deck"].split()])


def perft_fixture(game: str, about: str, entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A perft fixture: each entry (``name``, ``options``, ``position`` or ``deck``,
    ``depth``, …) with its counts at depths 1 … ``depth`` instead of the depth."""
    positions = []
    for entry in entries:
        counts = perft(perft_start(game, entry), entry["depth"])
        record = {k: v for k, v in entry.items() if k != "depth"}
        record["counts"] = {str(d): n for d, n in enumerate(counts, 1)}
        positions.append(record)
    return {"about": about, "positions": positions}


def write_perft_fixture(
    path: Path,
    game: str,
    about: str,
    entries: Sequence[Mapping[str, Any]],
    echo: Callable[[str], object] | None = None,
) -> dict[str, Any]:
    """Compute :func:`perft_fixture` and write it to ``path`` as JSON; returns it too.
    ``echo`` (``print`` in the regeneration scripts) is told each start's counts and the
    time it all took."""
    began = time.perf_counter()
    fixture = perft_fixture(game, about, entries)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(fixture, indent=2) + "\n", encoding="utf-8")
    if echo is not None:
        for entry in fixture["positions"]:
            echo(f"{entry['name']}: {list(entry['counts'].values())}")
        echo(f"wrote {path} in {time.perf_counter() - began:.2f} s")
    return fixture
