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

from cardtable.testing.checks import (
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
from cardtable.testing.games import check_fast_game, check_random_game, run_conformance
from cardtable.testing.perft_counts import checked_perft as checked_perft
from cardtable.testing.perft_counts import perft
from cardtable.testing.perft_counts import perft_fixture as perft_fixture
from cardtable.testing.perft_counts import perft_start as perft_start
from cardtable.testing.perft_counts import write_perft_fixture as write_perft_fixture
from cardtable.testing.reports import (
    DEFAULT_MAX_ACTIONS,
    CappedGameError,
    ConformanceReport,
    GameReport,
    Watch,
)

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
