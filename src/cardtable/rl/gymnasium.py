"""A single-agent Gymnasium environment: one seat learns, cardtable bots hold the others.

>>> import gymnasium
>>> import cardtable.rl.gymnasium  # registers the environments
>>> env = gymnasium.make("cardtable/KnockoutWhist-v0", players=3, opponents="easy")
>>> observation, info = env.reset(seed=7)
>>> observation.shape, info["action_mask"].shape
((455,), (57,))

Registered ids (``gymnasium.make``; the module path prefix
``"cardtable.rl.gymnasium:cardtable/Neuf-v0"`` imports and registers in one go):
:data:`ENVIRONMENTS`. Keyword arguments are those of :class:`CardtableEnv`.

The observation is :func:`cardtable.rl.observation.encode` of the agent's seat's view, a
``Box`` of float32; ``info["action_mask"]`` (int8, 1 per legal action number) says which
of the ``Discrete(game.num_distinct_actions)`` actions are legal. The reward is 0 until the
game ends, then the agent's share of ``state.result.returns`` (see
:mod:`cardtable.rl.pettingzoo` for each game's). An episode is one game: ``terminated``
when it is over, ``truncated`` when ``max_actions`` actions (everyone's) have been played.

An illegal action raises :class:`~cardtable.errors.IllegalActionError` (the game is
unchanged) unless ``illegal_action="terminate"``: then it ends the episode with reward -1
and ``info["illegal_action"]`` set to it, as PettingZoo's ``TerminateIllegalWrapper`` does.
Gymnasium's ``check_env`` steps with actions sampled without the mask, so it is run with
``"terminate"``.

:meth:`CardtableEnv.action_masks` gives the same mask as booleans: the convention of
``sb3-contrib``'s ``MaskablePPO``, which reads it before every step (see
``examples/maskable_ppo.py``).

Each id's ``vector_entry_point`` is :class:`cardtable.rl.vector.CardtableVectorEnv`, a batch
of games stepped in the compiled core, on every CPU by default. Name the player count: a
game's default is its own (Knockout Whist 4, Neuf 3, Kryt'-navalivat' 2)::

    envs = gymnasium.make_vec("cardtable/KnockoutWhist-v0", num_envs=4096,
                              vectorization_mode="vector_entry_point", players=3)
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded

import cardtable
from cardtable.bots import Bot, make_bot
from cardtable.core import Game, State
from cardtable.errors import GameOverError, IllegalActionError
from cardtable.rl.observation import action_number, encoder, layout
from cardtable.rules.catalog import DESCRIPTORS

__all__ = ["ENVIRONMENTS", "CardtableEnv"]

Observation = npt.NDArray[np.float32]

ENVIRONMENTS: dict[str, str] = {
    f"cardtable/{''.join(map(str.title, known.package.split('_')))}-v0": name
    for name, known in DESCRIPTORS.items()
}
"""Registered id (``cardtable/<the game's package in CamelCase>-v0``:
``cardtable/KnockoutWhist-v0``) -> game name."""

ILLEGAL_ACTIONS = ("raise", "terminate")


class CardtableEnv(gymnasium.Env[Observation, np.int64]):
    """One game of ``game`` (``options`` as for :func:`cardtable.make`) played by the agent
    at ``seat`` (``None``: a seat drawn at each reset) against bots.

    ``opponents`` is one bot spec for every other seat or a list of one per other seat in
    seat order (:func:`cardtable.bots.make_bot`: ``"random"``, ``"easy"``, ``"medium"``,
    ``"hard"``, ``"ismcts:iterations=500"`` …). ``max_actions`` truncates a game after that
    many actions; ``illegal_action`` is ``"raise"`` or ``"terminate"`` (see the module).
    """

    # A class attribute because gymnasium.make reads it before making the environment.
    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str = "knockout-whist",
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        render_mode: str | None = None,
        max_actions: int | None = None,
        illegal_action: str = "raise",
        **options: Any,
    ) -> None:
        self.game: Game = cardtable.make(game, **options)
        players = self.game.num_players
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
        ):
            raise ValueError(f"seat must be None or a seat 0-{players - 1}, not {seat!r}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(
                f"opponents lists {len(specs)} bots; {self.game.name} with {players} players "
                f"needs {players - 1}"
            )
        self.bots: list[Bot] = [make_bot(spec, self.game.name) for spec in specs]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not supported; use None or 'ansi'")
        if max_actions is not None and (
            not isinstance(max_actions, int) or isinstance(max_actions, bool) or max_actions < 1
        ):
            raise ValueError(f"max_actions must be a positive integer or None, not {max_actions!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"illegal_action must be 'raise' or 'terminate', not {illegal_action!r}"
            )
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.illegal_action = illegal_action
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self._encoder = encoder(self.game)
        shape = layout(self.game)
        self.observation_space = spaces.Box(
            low=shape.low, high=shape.high, shape=(shape.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self._state: State | None = None
        self._bot_rng = random.Random(0)
        self._done = False
        self._mask: npt.NDArray[np.int8] = np.zeros(self.game.num_distinct_actions, np.int8)

    @property
    def game_state(self) -> State:
        """The game being played: the whole state, for inspection and tests, not for the
        agent (it observes its seat's view)."""
        if self._state is None:
            raise ResetNeeded("reset() must be called before step() or render()")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game, dealt from ``seed`` (or the environment's generator); the bots play
        until the agent is to act. ``options`` is not used."""
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(2**63 - 1))
        self._bot_rng = random.Random(int(rng.integers(2**63 - 1)))
        if self.fixed_seat is None:
            self.seat = int(rng.integers(self.game.num_players))
        state = self._state = self.game.new_state(seed=game_seed)
        self._done = False
        self._play_bots(state)
        observation, info = self._observe(state)
        return observation, info

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        state = self.game_state
        if self._done:
            raise GameOverError("the episode is over; call reset() to start a new game")
        number = action_number(self.game, action)
        if not state.is_legal(number):
            if self.illegal_action == "raise":
                legal = ", ".join(f"{i} ({self.game.actions[i]})" for i in state.legal_action_ids())
                raise IllegalActionError(
                    f"action {number} ({self.game.actions[number]}) is not legal for seat "
                    f"{self.seat} now; legal: {legal}"
                )
            self._done = True
            observation, info = self._observe(state)
            info["illegal_action"] = number
            return observation, -1.0, True, False, info
        state.apply_id(number)
        self._play_bots(state)
        observation, info = self._observe(state)
        result = state.result
        terminated = result is not None
        truncated = (
            not terminated
            and self.max_actions is not None
            and len(state.history) >= self.max_actions
        )
        self._done = terminated or truncated
        reward = float(result.returns[self.seat]) if result is not None else 0.0
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which action numbers the agent may play now, as booleans (``info["action_mask"]``
        of the last observation): ``sb3-contrib``'s ``MaskablePPO`` asks for it before every
        step. None is legal once the episode is over."""
        if self._state is None:
            raise ResetNeeded("reset() must be called before action_masks()")
        if self._done:
            return np.zeros(self.game.num_distinct_actions, dtype=bool)
        return self._mask.astype(bool)

    def _play_bots(self, state: State) -> None:
        """The other seats act until the agent is to act, the game ends or it is cut short."""
        limit, game = self.max_actions, self.game
        actions, numbers = game.actions, game.numbers_by_id
        while state.to_move is not None and state.to_move != self.seat:
            if limit is not None and len(state.history) >= limit:
                return
            seat = state.to_move
            bot = self.bots[(seat - self.seat - 1) % game.num_players]
            legal = state.legal_action_ids()
            choice = bot.choose(state.view(seat), [actions[i] for i in legal], self._bot_rng)
            number = numbers.get(id(choice))
            if number is not None and number in legal:
                state.apply_id(number)  # one of the legal actions it was given
            else:  # anything else is checked, and refused with the game's own error
                state.apply(choice, seat=seat)

    def _observe(self, state: State) -> tuple[Observation, dict[str, Any]]:
        seat = self.seat
        observations = self._encoder
        # The seat's observation vector (the core's, on the default engine), and the legal
        # actions (the agent's own knowledge: its view lists them) as numbers, spare
        # formatting and parsing card and action texts.
        legal = state.legal_action_ids() if state.to_move == seat else []
        observation = observations.of_state(state, seat)
        self._mask = observations.mask_of(legal)
        return observation, {"action_mask": self._mask}

    def render(self) -> str | None:
        """The table as text from the agent's seat (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        state = self.game_state
        from rich.console import Console

        from cardtable.terminal import screen_for

        screen = screen_for(self.game.name)
        names = [
            "agent" if seat == self.seat else f"bot {seat}" for seat in range(self.game.num_players)
        ]
        console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
        view = state.view(self.seat)
        console.print(screen.table(view, names))
        if state.is_over:
            for line in screen.result(view, names):
                console.print(line)
        text: str = console.file.getvalue()  # type: ignore[attr-defined]
        return text


for _id, _game in ENVIRONMENTS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="cardtable.rl.gymnasium:CardtableEnv",
            vector_entry_point="cardtable.rl.vector:CardtableVectorEnv",
            kwargs={"game": _game},
        )
