"""The games as PettingZoo AEC environments (turn-based, one agent per seat).

>>> from cardtable.rl.pettingzoo import env
>>> table = env(game="knockout-whist", players=3)
>>> table.reset(seed=7)
>>> table.agent_selection, table.possible_agents
('player_1', ['player_0', 'player_1', 'player_2'])
>>> observation, reward, terminated, truncated, info = table.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((455,), 7)

Agents are ``player_0 … player_{n-1}``, seat ``i`` being ``player_i``. An agent observes
``{"observation": encode(view), "action_mask": action_mask(view)}`` from its own seat's
view (:mod:`cardtable.rl.observation`); the mask is all zeros when it is not to act.
Actions are the game's dense action numbers (``Discrete(game.num_distinct_actions)``;
the tables are on each game's docs page). Rewards are 0 until the game ends, then
``state.result.returns``: knockout-whist +1 to the winner and -1/(n-1) to the others;
neuf +1 to each winner and -w/(n-w) to the others (w winners of n); kryt-navalivat -1
to the fool and +1/(n-1) to the others, 0 to all for a draw. They sum to zero.

:func:`env` wraps :class:`raw_env` as PettingZoo's classic games are: an illegal action
ends the game with -1 to the agent that tried it and 0 to the others
(``TerminateIllegalWrapper``); :class:`raw_env` instead raises
:class:`~cardtable.errors.IllegalActionError` naming the action and leaves the game as it
was. ``reset(seed=s)`` deals the game ``game.new_state(seed=s)`` (the dealer too is drawn
from the seed unless the ``dealer`` option names one); a reset without a seed draws the
next game's seed from the last seed given, so a sequence of games is reproducible.

Kryt'-navalivat' sets no move limit (KRYT-7.7) and random play takes hundreds or thousands
of actions; ``max_actions`` truncates a game after that many actions (every agent then
``truncated`` with reward 0).
"""

from __future__ import annotations

import io
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

import cardtable
from cardtable.core import Game, State
from cardtable.errors import GameOverError, IllegalActionError, UnknownGameError
from cardtable.rl.observation import action_number, encoder, layout
from cardtable.rules.catalog import DESCRIPTORS

__all__ = ["ENVIRONMENTS", "RENDER_MODES", "env", "make_env", "raw_env"]

ENVIRONMENTS: dict[str, str] = {
    f"cardtable/{known.package}_v0": name for name, known in DESCRIPTORS.items()
}
"""Registered name (``cardtable/<the game's package>_v0``: ``cardtable/knockout_whist_v0``)
-> game name. The version changes whenever observations, actions or rewards change
meaning."""

RENDER_MODES = ("human", "ansi")

_NAMES = {game: name for name, game in ENVIRONMENTS.items()}


def env(game: str = "knockout-whist", render_mode: str | None = None, **options: Any) -> Any:
    """A wrapped environment: illegal actions end the game (-1 to the offender), actions
    outside the space and calls out of order are caught. Options as for :class:`raw_env`."""
    wrapped = raw_env(game, render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def make_env(name: str, **options: Any) -> Any:
    """The wrapped environment registered as ``name`` (a key of :data:`ENVIRONMENTS`)."""
    game = ENVIRONMENTS.get(name)
    if game is None:
        raise UnknownGameError(
            f"unknown environment {name!r}; registered: {', '.join(sorted(ENVIRONMENTS))}"
        )
    return env(game, **options)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801  (PettingZoo's own name)
    """One game of ``game`` with ``options`` (``players``, ``trump_sequence``, …, checked
    by :func:`cardtable.make`: :class:`~cardtable.errors.UnknownGameError` or
    :class:`~cardtable.errors.InvalidOptionError`), as an AEC environment.

    ``render_mode`` is ``None``, ``"ansi"`` (:meth:`render` returns the table as text,
    drawn from the view of the agent to act) or ``"human"`` (each step prints it);
    ``max_actions`` truncates a game after that many actions (``None``: never).
    """

    def __init__(
        self,
        game: str = "knockout-whist",
        render_mode: str | None = None,
        max_actions: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; use None, "
                + " or ".join(map(repr, RENDER_MODES))
            )
        if max_actions is not None and (
            not isinstance(max_actions, int) or isinstance(max_actions, bool) or max_actions < 1
        ):
            raise ValueError(f"max_actions must be a positive integer or None, not {max_actions!r}")
        self.game: Game = cardtable.make(game, **options)
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": _NAMES[self.game.name],
            "is_parallelizable": False,
        }
        players = self.game.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._encoder = encoder(self.game)
        self._num_actions = self.game.num_distinct_actions
        self._spaces: tuple[dict[str, spaces.Dict], dict[str, spaces.Discrete]] | None = None
        self._state: State | None = None
        self._seeds: random.Random | None = None
        self.agents: list[str] = []

    # Spaces -----------------------------------------------------------------------------

    def _made_spaces(self) -> tuple[dict[str, spaces.Dict], dict[str, spaces.Discrete]]:
        # Made on first use: building the Boxes costs more than dealing a game, and a
        # training loop that makes an environment per game never reads them.
        if self._spaces is None:
            shape = layout(self.game)
            count = self._num_actions
            observation_spaces = {
                agent: spaces.Dict(
                    {
                        "observation": spaces.Box(
                            low=shape.low, high=shape.high, shape=(shape.size,), dtype=np.float32
                        ),
                        "action_mask": spaces.Box(low=0, high=1, shape=(count,), dtype=np.int8),
                    }
                )
                for agent in self.possible_agents
            }
            action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
            self._spaces = (observation_spaces, action_spaces)
        return self._spaces

    @property
    def observation_spaces(self) -> dict[str, spaces.Dict]:
        return self._made_spaces()[0]

    @property
    def action_spaces(self) -> dict[str, spaces.Discrete]:
        return self._made_spaces()[1]

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._made_spaces()[0][agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._made_spaces()[1][agent]

    @property
    def game_state(self) -> State:
        """The game being played: the whole state, for inspection and tests, not for agents
        (they observe their views)."""
        if self._state is None:
            raise RuntimeError("reset() must be called before step(), observe() or render()")
        return self._state

    # The AEC cycle ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. ``options`` is accepted for the API's sake and not used: the
        game's options are fixed when the environment is made."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            if self._seeds is None:
                self._seeds = random.Random(Game.fresh_seed())
            game_seed = self._seeds.getrandbits(63)
        self._state = self.game.new_state(seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent_to_move(self._state)

    def _agent_to_move(self, state: State) -> str:
        seat = state.to_move
        if seat is None:  # only a game that ends before anyone acts, which none does
            raise GameOverError("the game ended before anyone acted")
        return self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._state
        if state is None:
            raise RuntimeError("reset() must be called before step(), observe() or render()")
        seat = self._seats[agent]
        observations = self._encoder
        # The seat's observation vector (the core's, on the default engine), and the legal
        # actions (the mover's own knowledge: its view lists them) as numbers, spare
        # formatting and parsing card and action texts.
        legal = state.legal_action_ids() if state.to_move == seat else []
        return {
            "observation": observations.of_state(state, seat),
            "action_mask": observations.mask_of(legal),
        }

    def step(self, action: Any) -> None:
        state = self.game_state
        if not self.agents:
            raise GameOverError("the game is over and every agent has left it; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = action_number(self.game, action)
        if not state.is_legal(number):
            legal = ", ".join(f"{i} ({self.game.actions[i]})" for i in state.legal_action_ids())
            raise IllegalActionError(
                f"action {number} ({self.game.actions[number]}) is not legal for {agent} now; "
                f"legal: {legal}"
            )
        state.apply_id(number)
        seat = state.to_move
        if seat is None:
            result = state.result
            assert result is not None  # the game is over exactly when nobody is to move
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            for agent_name, value in zip(self.possible_agents, result.returns, strict=True):
                self.rewards[agent_name] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
            # The dead agents are then stepped with None in seat order, starting on the left.
            self.agent_selection = self.possible_agents[
                (self._seats[agent] + 1) % len(self.possible_agents)
            ]
            self._accumulate_rewards()
        else:
            # Rewards stay 0 until the game ends (every agent is then dead and stepped by
            # _was_dead_step), so mid-game there is nothing to clear or add.
            if self.max_actions is not None and len(state.history) >= self.max_actions:
                self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[seat]
        if self.render_mode == "human":
            self.render()

    # Rendering --------------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as text, from the view of the agent to act (a spectator's view once
        the game is over, with the result)."""
        if self.render_mode is None:
            return None
        text = self._table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _table_text(self) -> str:
        from rich.console import Console

        from cardtable.terminal import screen_for

        state = self.game_state
        screen = screen_for(self.game.name)
        console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
        seat = state.to_move
        view = state.view(seat)
        if seat is not None:
            console.print(f"{self.possible_agents[seat]} to act")
        console.print(screen.table(view, self.possible_agents))
        if state.is_over:
            for line in screen.result(view, self.possible_agents):
                console.print(line)
        text: str = console.file.getvalue()  # type: ignore[attr-defined]
        return text

    def close(self) -> None:
        """Nothing to release: rendering draws text only."""
