"""Whole random games under the checks: one with every check, one with the fast ones, and
a run of many that sums them up (the package's docstring says which checks when)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import partial

from cardtable.core import Action, Game, State
from cardtable.errors import GameOverError
from cardtable.testing.checks import (
    _fail,
    _guard,
    _refuse_illegal,
    _refuse_out_of_turn,
    _seats,
    check_copy_independent,
    check_game_over,
    check_illegal_actions_rejected,
    check_legal_actions,
    check_new_game,
    check_out_of_turn_rejected,
    check_position_round_trip,
    check_redeal,
    check_replay,
    check_result,
    check_views_json,
)
from cardtable.testing.reports import (
    DEFAULT_MAX_ACTIONS,
    CappedGameError,
    ConformanceReport,
    GameReport,
    Watch,
    _position_of,
)

_LEGAL_EVERY = 16  # the fast tier's full look at the legal list, every this many steps
_PROBE_STRIDE = 7919  # a prime: the fast tier's is_legal probes walk through every number


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
    (``random.Random(seed)``), checking everything listed in the package's docstring.

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
    under the fast checks of the package's docstring only: the game's invariants after every
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
