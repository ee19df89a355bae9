"""The conformance checks on one state (the package's docstring lists them): its legal
actions and refusals, its views, copies, re-deals, positions and replays, its end."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TypeVar

from cardtable.core import Action, Game, Record, Result, State, View
from cardtable.errors import GameOverError, IllegalActionError, OutOfTurnError

_T = TypeVar("_T")


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
