"""Batches of games stepped in the compiled core: NumPy arrays in and out, no Python loop
over games.

>>> from cardtable.rl.vector import BatchEnv
>>> batch = BatchEnv("knockout-whist", num_games=256, opponents="random", players=3)
>>> observations, masks = batch.reset(seed=0)
>>> observations.shape, masks.shape
((256, 455), (256, 57))
>>> actions = batch.sample_actions()  # one legal action per game, from the masks
>>> observations, masks, rewards, terminations, truncations = batch.step(actions)

:class:`BatchEnv` holds ``num_games`` games of one game and variant in the core. Each game
has one agent seat (``seat``; ``None`` draws it at every deal); the other seats are
played inside the core, within ``step``, until the agent is to act again or the game is
over: ``opponents="random"`` (uniformly random legal actions), ``"guided"`` (the game's
rollout policy, the core's cheap heuristic player, close to the ``easy`` level), or a
list of one of them per other seat, from the agent's left. ``opponents="self"`` is
self-play: every seat is the agent, each game's action is that of the seat to move
(:attr:`BatchEnv.to_move`), and the observations, masks and rewards gain a seat axis
(``num_games × players × …``: every seat's, one call).

The definitions are :class:`cardtable.rl.gymnasium.CardtableEnv`'s: the observation is
:func:`cardtable.rl.observation.encode` of the agent seat's view (layouts in
docs/research.md), the mask (int8) its legal actions, all zeros when it is not to act;
the reward 0 until the game ends, then the seat's share of ``state.result.returns``;
``terminated`` when the game is over; ``truncated`` once ``max_actions`` actions
(everyone's) have been played. A finished game is dealt again automatically: by default
at its next step (``autoreset="next_step"``, Gymnasium's default: that step's action is
ignored and returns the new game's first observation with reward 0), or with
``"same_step"`` within the step that ended it (the final observation then in
:attr:`BatchEnv.final_observations`, at the rows where ``terminations | truncations``).

**Zero copies.** The arrays returned are the core's own buffers, overwritten in place by
the next ``reset`` or ``step``: copy what you keep. **Seeds.** ``reset(seed=s)`` seeds
game ``i``'s generator from ``s`` and ``i`` alone (:func:`game_seed`): every
deal, drawn seat and opponent's choice in game ``i`` comes from it, so a seed gives the
same games whatever the batch size and the thread count. **Threads.** ``threads`` splits
each step over that many threads, the GIL released; by default, every CPU this process may
use (:func:`default_threads`). A thread takes at least 256 games: a smaller batch uses
fewer. **Compact observations.** ``observation_dtype=np.int8`` writes each observation as
int8, each entry times its column's divisor (``layout(game).column_divisors()``: 1 for
the 0-or-1 entries, 7 for Knockout Whist's hand sizes, …): the same numbers in a quarter
of the bytes, ``observations / divisors`` in float32 being the float32 observation
exactly.

:class:`CardtableVectorEnv` is the same as a Gymnasium ``VectorEnv``, the
``vector_entry_point`` of the ids of :mod:`cardtable.rl.gymnasium` (both need the ``rl``
extra: NumPy and Gymnasium; the core must be built)::

    envs = gymnasium.make_vec("cardtable/KnockoutWhist-v0", num_envs=1024,
                              vectorization_mode="vector_entry_point", players=3)
"""

from __future__ import annotations

import operator
import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import cardtable
from cardtable import compiled
from cardtable.core import Game, State
from cardtable.errors import CardtableError, InvalidActionError
from cardtable.rl.observation import layout

__all__ = [
    "AUTORESETS",
    "OBSERVATION_DTYPES",
    "OPPONENTS",
    "BatchEnv",
    "CardtableVectorEnv",
    "default_threads",
    "game_seed",
]

OPPONENTS = ("random", "guided", "self")
"""The opponent kinds: ``self`` is self-play."""
AUTORESETS = ("next_step", "same_step")
OBSERVATION_DTYPES = (np.dtype(np.float32), np.dtype(np.int8))
"""What a batch writes its observations as: float32, the layout's numbers, or int8, the same
numbers each times its column's divisor (``Layout.column_divisors()``): a quarter of the
bytes, and ``observations / divisors`` in float32 is the float32 observation exactly."""


def game_seed(seed: int, index: int) -> int:
    """The generator seed of game ``index`` of a batch reset with ``seed``."""
    seeded: int = compiled.module().game_seed(seed, index)
    return seeded


Observations = npt.NDArray[np.float32] | npt.NDArray[np.int8]
Masks = npt.NDArray[np.int8]


def default_threads() -> int:
    """The threads a batch steps on by default: every CPU this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _observation_dtype(given: npt.DTypeLike) -> np.dtype[Any]:
    try:
        dtype = np.dtype(given)
    except TypeError:
        dtype = None
    if dtype not in OBSERVATION_DTYPES:
        raise ValueError(f"observation_dtype is float32 or int8, not {given!r}")
    return dtype


def _core_game(game: Game) -> Any:
    twin = compiled.core_game(game, always=True)
    if twin is None:
        raise CardtableError(f"the compiled core has no {game.name}")
    return twin


class BatchEnv:
    """``num_games`` games of ``game`` (``options`` as for :func:`cardtable.make`) held in
    the compiled core; see the module."""

    def __init__(
        self,
        game: str = "knockout-whist",
        num_games: int = 1,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        max_actions: int | None = None,
        autoreset: str = "next_step",
        threads: int | None = None,
        observation_dtype: npt.DTypeLike = np.float32,
        **options: Any,
    ) -> None:
        self.game: Game = cardtable.make(game, **options)
        dtype = _observation_dtype(observation_dtype)
        if threads is None:
            threads = default_threads()
        players = self.game.num_players
        for name, value, least in (("num_games", num_games, 1), ("threads", threads, 1)):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
        ):
            raise ValueError(f"seat must be None or a seat 0-{players - 1}, not {seat!r}")
        if max_actions is not None and (
            not isinstance(max_actions, int) or isinstance(max_actions, bool) or max_actions < 1
        ):
            raise ValueError(f"max_actions must be a positive integer or None, not {max_actions!r}")
        kinds = [opponents] if isinstance(opponents, str) else list(opponents)
        for kind in kinds:
            if kind not in OPPONENTS or (kind == "self" and not isinstance(opponents, str)):
                raise ValueError(
                    f"opponents is 'random', 'guided', 'self' or a list of 'random' and "
                    f"'guided' (one per other seat), not {opponents!r}"
                )
        if autoreset not in AUTORESETS:
            raise ValueError(f"autoreset is 'next_step' or 'same_step', not {autoreset!r}")
        twin = _core_game(self.game)
        self.core = twin.batch(
            num_games,
            opponents=opponents if isinstance(opponents, str) else list(opponents),
            seat=seat,
            max_actions=max_actions,
            autoreset=autoreset,
            threads=threads,
            divisors=None if dtype == np.float32 else layout(self.game).column_divisors().tolist(),
        )
        self.num_games = num_games
        self.num_actions: int = self.game.num_distinct_actions
        self.observation_size: int = self.core.observation_size
        self.self_play: bool = self.core.self_play
        # The core's arrays, fetched once: every reset and step overwrites them in place.
        self.observations: Observations = self.core.observations
        self.masks: Masks = self.core.masks
        self.rewards: npt.NDArray[np.float32] = self.core.rewards
        self.terminations: npt.NDArray[np.bool_] = self.core.terminations
        self.truncations: npt.NDArray[np.bool_] = self.core.truncations
        self.to_move: npt.NDArray[np.int64] = self.core.to_move
        """The seat to act in each game (-1 once it is over)."""
        self.seats: npt.NDArray[np.int64] = self.core.seats
        """The agent's seat in each game (-1 in self-play)."""
        self.final_observations: Observations = self.core.final_observations
        self._seeded = False

    @property
    def threads(self) -> int:
        return int(self.core.threads)

    @threads.setter
    def threads(self, threads: int) -> None:
        self.core.threads = threads

    def reset(self, seed: int | Iterable[int] | None = None) -> tuple[Observations, Masks]:
        """Deals every game: game ``i`` from ``seed`` and ``i`` (an int), or from ``seed[i]``
        (one generator seed per game), or, with ``None``, each game carrying on from its own
        generator (seeded from fresh entropy the first time)."""
        if seed is None and not self._seeded:
            seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
        if seed is None:
            self.core.reset()
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer, Iterable)):
            raise ValueError(f"a seed is an integer, a list of one per game or None, not {seed!r}")
        elif isinstance(seed, (int, np.integer)):
            if not 0 <= seed < 2**64:
                raise ValueError(f"a seed is an integer 0 to 2**64 - 1, not {seed}")
            self.core.reset(seed=int(seed))
        else:
            try:
                given = [operator.index(s) for s in seed]
            except TypeError:
                raise ValueError(
                    f"seeds must be {self.num_games} integers (one per game), not {seed!r}"
                ) from None
            if len(given) != self.num_games or not all(0 <= s < 2**64 for s in given):
                raise ValueError(
                    f"seeds must be {self.num_games} integers 0 to 2**64 - 1 (one per game), "
                    f"not {seed!r}"
                )
            self.core.reset(seeds=np.array(given, dtype=np.uint64))
        self._seeded = True
        return self.observations, self.masks

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations, Masks, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_]
    ]:
        """One action number per game (the agent's; in self-play the seat to move's), all
        checked before any is played: an illegal one raises ``IllegalActionError`` naming
        the game, a number outside the actions ``InvalidActionError``, and no game moves.
        Returns the (reused) observations, masks, rewards, terminations and truncations."""
        self.core.step(self._actions(actions))
        return self.observations, self.masks, self.rewards, self.terminations, self.truncations

    def _actions(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        array = np.asarray(actions)
        if array.shape != (self.num_games,):
            raise ValueError(
                f"actions must be an array of shape ({self.num_games},), one per game, "
                f"not of shape {array.shape}"
            )
        if array.dtype != np.int64:
            if not np.issubdtype(array.dtype, np.integer):
                raise InvalidActionError(
                    f"actions must be integer action numbers, not an array of {array.dtype}"
                )
            array = array.astype(np.int64)
        return np.ascontiguousarray(array)

    def sample_actions(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game (0 where none is legal): by default
        drawn in the core, from each game's own pick generator (seeded by ``reset`` from the
        game's seed, apart from the game's chance, so the same whatever the batch size and
        the threads); from ``rng`` when one is given, in NumPy."""
        if rng is None:
            drawn: npt.NDArray[np.int64] = self.core.sample_actions()
            return drawn
        masks = self.acting_masks()
        draws = rng.random(masks.shape) * masks
        chosen: npt.NDArray[np.int64] = np.argmax(draws, axis=1).astype(np.int64)
        return chosen

    def acting_masks(self) -> Masks:
        """Each game's mask of the seat that acts (``num_games × actions``): the masks
        themselves, or in self-play the rows of the seats to move (a new array)."""
        if not self.self_play:
            return self.masks
        return self.masks[np.arange(self.num_games), np.maximum(self.to_move, 0)]

    def position(self, index: int) -> str:
        """Game ``index``'s position text."""
        return str(self.core.position(index))

    def state(self, index: int) -> State:
        """Game ``index`` as a Python state, from its position (for inspection and tests)."""
        return self.game.state_from_position(self.position(index))

    def __len__(self) -> int:
        return self.num_games

    def __repr__(self) -> str:
        return f"<BatchEnv {self.game.name} {self.num_games} games {self.core!r}>"


_MODES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
}


class CardtableVectorEnv(VectorEnv[Observations, npt.NDArray[np.int64], Any]):
    """``num_envs`` games as a Gymnasium ``VectorEnv``: :class:`BatchEnv` behind the
    Gymnasium API, with the single environment's spaces batched and the masks in
    ``info["action_mask"]`` (``num_envs × actions``, int8). ``copy`` (default True, as
    ``SyncVectorEnv``) returns copies; ``copy=False`` returns the core's buffers, which
    the next call overwrites. ``autoreset_mode`` is Gymnasium's ``NEXT_STEP``
    (default) or ``SAME_STEP`` (the final observations in ``info["final_obs"]``).
    ``observation_dtype=np.int8`` gives :data:`OBSERVATION_DTYPES`' compact form, its
    ``Box`` bounds the layout's times each column's divisor. Self-play (several agents a
    game) is :class:`BatchEnv`'s alone."""

    def __init__(
        self,
        game: str = "knockout-whist",
        num_envs: int = 1,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        max_actions: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        threads: int | None = None,
        observation_dtype: npt.DTypeLike = np.float32,
        copy: bool = True,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if opponents == "self":
            raise ValueError(
                "self-play gives several agents a game: use cardtable.rl.vector.BatchEnv"
            )
        if render_mode is not None:
            raise ValueError("the vector environment does not render; use CardtableEnv")
        mode = AutoresetMode(autoreset_mode)
        if mode not in _MODES:
            raise ValueError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, not {mode}")
        self.batch = BatchEnv(
            game,
            num_games=num_envs,
            opponents=opponents,
            seat=seat,
            max_actions=max_actions,
            autoreset=_MODES[mode],
            threads=threads,
            observation_dtype=observation_dtype,
            **options,
        )
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.render_mode = None
        self.num_envs = num_envs
        self.copy = copy
        shape = layout(self.batch.game)
        if self.batch.observations.dtype == np.int8:
            divisors = shape.column_divisors()
            self.single_observation_space = spaces.Box(
                low=np.round(shape.low * divisors).astype(np.int8),
                high=np.round(shape.high * divisors).astype(np.int8),
                dtype=np.int8,
            )
        else:
            self.single_observation_space = spaces.Box(
                low=shape.low, high=shape.high, shape=(shape.size,), dtype=np.float32
            )
        self.single_action_space = spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._all = np.ones(num_envs, dtype=np.bool_)

    def reset(
        self,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observations, dict[str, Any]]:
        """Every game dealt anew (``seed``: an int, one per game, or ``None``; see
        :meth:`BatchEnv.reset`). ``options`` is not used."""
        if seed is not None and not isinstance(seed, (int, np.integer)):
            seed = list(seed)
        self.batch.reset(seed)
        observations, masks = self.batch.observations, self.batch.masks
        return self._out(observations), self._info(masks)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        batch = self.batch
        observations, masks, rewards, terminations, truncations = batch.step(actions)
        info = self._info(masks)
        if batch.core.autoreset == "same_step":
            ended = terminations | truncations
            if ended.any():
                final = np.full(self.num_envs, None, dtype=object)
                final_info = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(ended):
                    final[i] = batch.final_observations[i].copy()
                    final_info[i] = {}
                info.update(
                    final_obs=final, _final_obs=ended, final_info=final_info, _final_info=ended
                )
        return (
            self._out(observations),
            self._out(rewards),
            self._out(terminations),
            self._out(truncations),
            info,
        )

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _info(self, masks: Masks) -> dict[str, Any]:
        return {"action_mask": self._out(masks), "_action_mask": self._all}

    def __repr__(self) -> str:
        return f"CardtableVectorEnv({self.batch.game.name}, num_envs={self.num_envs})"
