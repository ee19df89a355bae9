"""The games as OpenSpiel Python games: ``pyspiel.load_game("python_cardtable_neuf")``.

Importing this module registers three games with ``pyspiel`` (:func:`register` does it
again harmlessly):

=================================== ================ =======================================
OpenSpiel name                      cardtable game   parameters (default)
=================================== ================ =======================================
``python_cardtable_knockout_whist`` knockout-whist   ``players`` (4), ``dealer`` (0)
``python_cardtable_neuf``           neuf             ``players`` (3), ``dealer`` (0),
                                                     ``trump_sequence`` ("HDCS-NT"),
                                                     ``dealer_exchanges_first`` (false),
                                                     ``tie_avoidance`` (false)
``python_cardtable_kryt_navalivat`` kryt-navalivat   ``players`` (2), ``dealer`` (0),
                                                     ``trump_mode`` ("turned")
=================================== ================ =======================================

A player's action number is the game's own dense action number
(``game.action_to_int``, ``state.legal_action_ids()``), so OpenSpiel's ``legal_actions()``
is the engine's list, ascending.

**Chance.** The engine takes whole decks (``new_state(decks=...)``, ``state.stack``);
OpenSpiel wants chance as single outcomes. So every deck is drawn card by card by the
chance player: each outcome is one of the pack's cards not yet drawn, uniformly, numbered
by its place in ``game.pack`` (the card index for the 52-card games, 0-35 for
Kryt'-navalivat''s 36-card pack), and the pack's last card follows without a chance node
of its own. A game starts with the first deck's draws; the engine state is created with
that deck stacked. Knockout Whist and Neuf deal again later (the next hand), and Knockout
Whist may reshuffle the set-aside cut cards under the remainder (W-2). Before a player's
action is applied it is tried on a copy of the engine state: if the copy dealt a new deck
or made a new reshuffle, the action is held back and a chance phase draws that deck (all
the pack) or reshuffle (the cut cards, in a new order) card by card; then the action is
tried again with what was drawn stacked, and so on until it needs nothing more, when its
result becomes the state. So an action that ends a hand is followed by the next deal's
chance nodes, and only then does the next player act. While an action waits for its
chance, every seat's view is the one from before it.

**Observations.** Strings and tensors come from the seat's view (``state.view(seat)``),
never the hidden state. The observation string is the view as compact JSON
(``cardtable.dumps_view``); the information-state string is that plus the seat's own
actions so far, in order (the view shows this hand only). Both tensors are
:func:`cardtable.rl.observation.encode` of the view, its named blocks (``hand``,
``trick``, ...) being the observer's ``dict``. Before the first deal is complete there is
no view: the strings say so and the tensors are zeros. Returns are
``state.result.returns``, 0 for every seat before the end.

**Resampling.** ``resample_from_infostate(player, sampler)`` deals a full state from the
game's determinizer (``game.knowledge(view).sample(rng)``, its generator seeded from
``sampler()``), so the player's information-state string is unchanged. The new state's
``history()`` is empty: a sampled deal has no dealing history. While a deal is being
drawn the drawn cards are hidden from everyone, so a resampled state starts that draw
again; during the chance phase of an action only the seat that acted can be resampled
for (another seat's sampled hand might not hold the card it played).

**Bots.** OpenSpiel's Python bots (``open_spiel.python.algorithms.ismcts.ISMCTSBot``,
``mcts.MCTSBot``) play these games. Never call the ``step`` of one of OpenSpiel's C++ bots
(``pyspiel.make_uniform_random_bot``, ``pyspiel.ISMCTSBot``, ``pyspiel.MCTSBot``) on a
Python game: the process crashes.

Serialization (``pyspiel.serialize_game_and_state``) keeps the engine state as its
position text (``state.position()``).

>>> import pyspiel
>>> import cardtable.rl.openspiel
>>> game = pyspiel.load_game("python_cardtable_knockout_whist(players=3)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
>>> for card in range(51):
...     state.apply_action(card)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()][:2]
(1, ['play 2C', 'play 5C'])
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

import cardtable
from cardtable.cards import Card
from cardtable.core import Game, Knowledge, State, View
from cardtable.errors import GameOverError, IllegalActionError, InvalidOptionError
from cardtable.rl.observation import encode, layout

__all__ = [
    "GAME_NAMES",
    "CardtableGame",
    "CardtableObserver",
    "CardtableState",
    "register",
]

Tensor = npt.NDArray[np.float32]


@dataclass(frozen=True)
class _Spec:
    """One cardtable game as OpenSpiel sees it."""

    short_name: str
    long_name: str
    engine_name: str
    parameters: dict[str, Any]
    """Every OpenSpiel parameter with its default; each is the engine option of that name."""
    deals_again: bool
    """Whether an action can deal (a new hand) or reshuffle; Kryt'-navalivat' is one hand."""
    utility: Callable[[int], tuple[float, float]]
    """The least and greatest return a seat can get, by player count."""
    max_game_length: Callable[[int], int]
    max_chance_nodes: Callable[[int], int]


def _neuf_utility(n: int) -> tuple[float, float]:
    # Two winners sharing a 3-player game leave the third -2 (the returns sum to 0).
    return (-2.0 if n == 3 else -1.0), 1.0


_SPECS = (
    _Spec(
        short_name="python_cardtable_knockout_whist",
        long_name="cardtable Knockout Whist",
        engine_name="knockout-whist",
        parameters={"players": 4, "dealer": 0},
        deals_again=True,
        utility=lambda n: (-1.0 / (n - 1), 1.0),
        # Seven hands of 7 … 1 tricks, one action a seat a trick, and at most six trump
        # choices (hands 2-7).
        max_game_length=lambda n: 28 * n + 6,
        # A deck a hand; the cut's reshuffles (W-2) are rare and short: 6 · 52 is a bound
        # no game comes near.
        max_chance_nodes=lambda n: 7 * 51 + 6 * 52,
    ),
    _Spec(
        short_name="python_cardtable_neuf",
        long_name="cardtable Neuf",
        engine_name="neuf",
        parameters={
            "players": 3,
            "dealer": 0,
            "trump_sequence": "HDCS-NT",
            "dealer_exchanges_first": False,
            "tie_avoidance": False,
        },
        deals_again=True,
        utility=_neuf_utility,
        # At most 25 deals with 3 players, 17 with 4 (NEUF-6.5, NEUF-8.4), each 13 tricks
        # plus the exchange decisions of the 3-player game.
        max_game_length=lambda n: 25 * (13 * 3 + 3) if n == 3 else 17 * 13 * 4,
        max_chance_nodes=lambda n: (25 if n == 3 else 17) * 51,
    ),
    _Spec(
        short_name="python_cardtable_kryt_navalivat",
        long_name="cardtable Kryt'-navalivat'",
        engine_name="kryt-navalivat",
        parameters={"players": 2, "dealer": 0, "trump_mode": "turned"},
        deals_again=False,
        utility=lambda n: (-1.0, 1.0 / (n - 1)),
        # The rules set no limit (KRYT-7.7, K-14); OpenSpiel needs one. Random play ends
        # within about 1,100 decisions; a longer game is still played out, but
        # random_sim_test would report it.
        max_game_length=lambda n: 10_000,
        max_chance_nodes=lambda n: 35,
    ),
)

GAME_NAMES: tuple[str, ...] = tuple(spec.short_name for spec in _SPECS)
"""The names the games are registered under, for ``pyspiel.load_game``."""
_BY_NAME = {spec.short_name: spec for spec in _SPECS}
_BY_ENGINE = {spec.engine_name: spec for spec in _SPECS}


def _game_type(spec: _Spec) -> Any:
    engine = cardtable.game_class(spec.engine_name)
    return pyspiel.GameType(
        short_name=spec.short_name,
        long_name=spec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=engine.max_players,
        min_num_players=engine.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=dict(spec.parameters),
    )


def register() -> None:
    """Register the three games with ``pyspiel`` (done at import; calling again is harmless)."""
    registered = set(pyspiel.registered_names())
    for spec in _SPECS:
        if spec.short_name not in registered:
            pyspiel.register_game(_game_type(spec), _CLASSES[spec.short_name])


# The engine state and its tables ----------------------------------------------------------


@functools.cache
def _engine_game(name: str, options: str) -> Game:
    return cardtable.make(name, **json.loads(options))


def _thaw(name: str, options: str, position: str | None) -> _Table:
    game = _engine_game(name, options)
    return _Table(game, None if position is None else game.state_from_position(position))


class _Table:
    """The engine state behind a pyspiel state.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by
    pickling them: this holder copies with the engine's cheap ``copy()`` and pickles as
    the position text, never as the engine's object graph (whose action tables are keyed
    by object identity). It also keeps each seat's determinizer, which search asks for
    again and again at one state."""

    __slots__ = ("engine", "game", "knowledge")

    def __init__(self, game: Game, engine: State | None) -> None:
        self.game = game
        self.engine = engine
        self.knowledge: dict[int, Knowledge] = {}

    def replace(self, engine: State) -> None:
        self.engine = engine
        self.knowledge = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(self.game, None if self.engine is None else self.engine.copy())

    def __reduce__(self) -> tuple[Any, ...]:
        options = json.dumps(self.game.options, sort_keys=True)
        position = None if self.engine is None else self.engine.position()
        return (_thaw, (self.game.name, options, position))


@functools.cache
def _places(pack: tuple[int, ...]) -> dict[int, int]:
    """Each card's place in the pack: the chance outcome that draws it."""
    return {card: place for place, card in enumerate(pack)}


def _events(engine: State) -> tuple[int, int]:
    """How many decks and reshuffles the engine has drawn so far."""
    # Knockout Whist and Neuf count their chance streams; reading the counters saves
    # writing the whole record after every action.
    decks = getattr(engine, "decks_drawn", None)
    if isinstance(decks, int):
        return decks, int(getattr(engine, "reshuffles_drawn", 0))
    record = engine.record()
    return len(record.decks), len(record.reshuffles)


# The game ----------------------------------------------------------------------------------


class CardtableGame(pyspiel.Game):  # type: ignore[misc]
    """One cardtable game with its parameters fixed, as a ``pyspiel.Game``."""

    def __init__(self, spec: _Spec, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(spec.parameters))
        if unknown:
            raise InvalidOptionError(
                f"{spec.short_name} has no parameter {', '.join(map(repr, unknown))}; "
                f"its parameters are {', '.join(sorted(spec.parameters))}"
            )
        options = {**spec.parameters, **given}
        # OpenSpiel hands integers over as int; a bool parameter given as 0/1 is refused
        # by the engine, which names the option.
        self.engine = cardtable.make(spec.engine_name, **options)
        self.spec = spec
        n = self.engine.num_players
        low, high = spec.utility(n)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_distinct_actions,
            max_chance_outcomes=len(self.engine.pack),
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=spec.max_game_length(n),
        )
        super().__init__(_game_type(spec), info, options)
        self.pack: tuple[int, ...] = tuple(self.engine.pack)
        self.layout = layout(self.engine)

    def new_initial_state(self) -> CardtableState:
        """The state before the first deal: the chance player draws its first card."""
        return CardtableState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.spec.max_chance_nodes(self.engine.num_players)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CardtableObserver:
        """The observer of seats' views; ``perfect_recall`` gives the information state."""
        if params:
            raise ValueError(f"{self.spec.short_name} observers take no parameters, not {params}")
        if iig_obs_type is None:
            return CardtableObserver(self, perfect_recall=False)
        if (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                f"{self.spec.short_name} observes for one seat, public and private "
                "information together (a seat's view); other observation types are not given"
            )
        return CardtableObserver(self, perfect_recall=bool(iig_obs_type.perfect_recall))


# The state ---------------------------------------------------------------------------------

_DECK, _RESHUFFLE = "deal", "reshuffle"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class CardtableState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: an engine state, or a deal being drawn card by card."""

    def __init__(self, game: CardtableGame) -> None:
        super().__init__(game)
        self._table = _Table(game.engine, None)
        self._own: list[list[int]] = [[] for _ in range(game.engine.num_players)]
        self._pending: int | None = None
        """The player action waiting for its chance; None at the start and between."""
        self._kind = _DECK
        self._pool: list[int] = list(game.pack)
        """The cards of the deck or reshuffle being drawn (card indices); empty if none."""
        self._drawn: list[int] = []
        self._left: list[int] = list(range(len(game.pack)))
        """The outcomes (places in the pack) of the cards not yet drawn."""
        self._decks: list[list[int]] = []
        self._reshuffles: list[list[int]] = []

    # What OpenSpiel asks -------------------------------------------------------------------

    @property
    def engine(self) -> State | None:
        """The engine state (``None`` until the first deal is complete); read it, never
        change it."""
        return self._table.engine

    def current_player(self) -> int:
        engine = self._table.engine
        if self._pool or engine is None:
            return _CHANCE
        if engine.to_move is None:
            return _TERMINAL
        return engine.to_move

    def is_terminal(self) -> bool:
        engine = self._table.engine
        return not self._pool and engine is not None and engine.to_move is None

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._table.engine
        if engine is None or self._pool or engine.to_move != player:
            return []
        return engine.legal_action_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet drawn for the deck or reshuffle in progress, uniformly."""
        left = self._left
        if not left:
            return []
        chance = 1.0 / len(left)
        return [(outcome, chance) for outcome in left]

    def _apply_action(self, action: int) -> None:
        if self._pool:
            self._draw(action)
            return
        engine = self._table.engine
        if engine is None or engine.to_move is None:
            raise GameOverError(f"the game is over; action {action} cannot be applied")
        if not engine.is_legal(action):
            game = engine.game
            legal = ", ".join(f"{i} ({game.actions[i]})" for i in engine.legal_action_ids())
            raise IllegalActionError(
                f"action {action} is not legal for seat {engine.to_move} now; legal: {legal}"
            )
        self._own[engine.to_move].append(action)
        if not _BY_ENGINE[engine.game.name].deals_again:
            engine.apply_id(action)
            self._table.knowledge = {}
            return
        self._pending = action
        self._advance()

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._spiel_game()
        if player == _CHANCE:
            if not 0 <= action < len(game.pack):
                raise ValueError(f"chance outcome {action} is outside 0-{len(game.pack) - 1}")
            return f"{self._kind} {Card.from_index(game.pack[action])}"
        return str(game.engine.action_from_int(action))

    def returns(self) -> list[float]:
        engine = self._table.engine
        result = None if engine is None or self._pool else engine.result
        if result is None:
            return [0.0] * len(self._own)
        return list(result.returns)

    def __str__(self) -> str:
        engine = self._table.engine
        text = "not dealt" if engine is None else engine.position()
        game = self._table.game
        if self._pending is not None:
            text += f" | {game.actions[self._pending]} waits for chance"
        if self._pool:
            drawn = " ".join(str(Card.from_index(c)) for c in self._drawn) or "-"
            text += f" | {self._kind} drawn: {drawn}"
        return text

    # Seats' views ---------------------------------------------------------------------------

    def view(self, seat: int) -> View | None:
        """What ``seat`` sees (``None`` before the first deal is complete)."""
        engine = self._table.engine
        return None if engine is None else engine.view(seat)

    def own_actions(self, seat: int) -> list[int]:
        """The action numbers ``seat`` has played, in order."""
        return list(self._own[seat])

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> CardtableState:
        """A state ``player_id`` cannot tell from this one, its hidden cards dealt by the
        game's determinizer with a generator seeded from ``probability_sampler()``."""
        game = self._spiel_game()
        n = len(self._own)
        if type(player_id) is not int or not 0 <= player_id < n:
            raise ValueError(f"player_id must be a seat 0-{n - 1}, not {player_id!r}")
        fresh = game.new_initial_state()
        table = self._table
        engine = table.engine
        if engine is None:
            # Only the order of a deck not yet complete is unknown: draw it afresh.
            return fresh
        if self._pending is not None and engine.to_move != player_id:
            raise ValueError(
                f"seat {player_id} cannot be resampled for while seat {engine.to_move}'s "
                f"{table.game.actions[self._pending]} waits for its chance: that seat's "
                "sampled hand might not hold the card; resample at a decision node"
            )
        knowledge = table.knowledge.get(player_id)
        if knowledge is None:
            knowledge = table.knowledge[player_id] = table.game.knowledge(engine.view(player_id))
        rng = random.Random(int(float(probability_sampler()) * 2.0**53))
        fresh._table = _Table(table.game, knowledge.sample(rng))
        fresh._own = [own[:] for own in self._own]
        fresh._pool, fresh._left = [], []
        if self._pending is not None:
            fresh._pending = self._pending
            fresh._advance()
        return fresh

    # Chance ---------------------------------------------------------------------------------

    def _spiel_game(self) -> CardtableGame:
        game: CardtableGame = self.get_game()
        return game

    def _draw(self, outcome: int) -> None:
        left = self._left
        if outcome not in left:
            raise IllegalActionError(
                f"chance outcome {outcome} is not a card left to draw; left: {left}"
            )
        left.remove(outcome)
        pack = self._table.game.pack
        self._drawn.append(pack[outcome])
        if len(left) == 1:
            # The last card is whatever is left: no choice, so no chance node.
            self._drawn.append(pack[left[0]])
            (self._decks if self._kind == _DECK else self._reshuffles).append(self._drawn)
            self._pool, self._drawn, self._left = [], [], []
            self._advance()

    def _advance(self) -> None:
        """Try the waiting action (or the first deal) with everything drawn so far
        stacked; draw what it still needs, or make its result the state."""
        table = self._table
        decks, reshuffles = self._decks, self._reshuffles
        while True:
            if table.engine is None:
                before = (0, 0)
                trial = table.game.begin(0, int(table.game.options["dealer"]), decks, reshuffles)
            else:
                assert self._pending is not None
                trial = table.engine.copy()
                before = _events(trial)
                if decks or reshuffles:
                    trial.stack([d[:] for d in decks], [r[:] for r in reshuffles])
                trial.apply_id(self._pending)
            after = _events(trial)
            if after[0] > before[0] + len(decks):
                self._kind, pool = _DECK, list(table.game.pack)
            elif after[1] > before[1] + len(reshuffles):
                # The first reshuffle not stacked holds the cards to shuffle.
                made = trial.record().reshuffles
                first = len(made) - (after[1] - before[1]) + len(reshuffles)
                self._kind, pool = _RESHUFFLE, sorted(Card.parse(c).index for c in made[first])
            else:
                table.replace(trial)
                self._pending, self._decks, self._reshuffles = None, [], []
                return
            if len(pool) > 1:
                place = _places(table.game.pack)
                self._pool, self._drawn, self._left = pool, [], [place[c] for c in pool]
                return
            (decks if self._kind == _DECK else reshuffles).append(pool)


class KnockoutWhistGame(CardtableGame):
    """``python_cardtable_knockout_whist``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_BY_NAME["python_cardtable_knockout_whist"], params)


class NeufGame(CardtableGame):
    """``python_cardtable_neuf``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_BY_NAME["python_cardtable_neuf"], params)


class KrytNavalivatGame(CardtableGame):
    """``python_cardtable_kryt_navalivat``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_BY_NAME["python_cardtable_kryt_navalivat"], params)


# A class, not a closure, is what pyspiel keeps as each game's factory: OpenSpiel's registry
# outlives the interpreter, and a class (which refers to itself) is never freed at exit,
# where freeing a closure without the interpreter's lock aborts the process.
_CLASSES: dict[str, type[CardtableGame]] = {
    "python_cardtable_knockout_whist": KnockoutWhistGame,
    "python_cardtable_neuf": NeufGame,
    "python_cardtable_kryt_navalivat": KrytNavalivatGame,
}


# Observations ------------------------------------------------------------------------------


class CardtableObserver:
    """Strings and tensors of a seat's view (the PyObserver interface of OpenSpiel)."""

    def __init__(self, game: CardtableGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor: Tensor = np.zeros(game.layout.size, np.float32)
        self.dict: dict[str, Tensor] = {
            name: self.tensor[block] for name, block in game.layout.fields.items()
        }

    def set_from(self, state: CardtableState, player: int) -> None:
        view = state.view(player)
        if view is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = encode(self.game.engine, view)

    def string_from(self, state: CardtableState, player: int) -> str:
        view = state.view(player)
        text = (
            f"seat {player}: the first deal is being drawn"
            if view is None
            else cardtable.dumps_view(view)
        )
        if self.perfect_recall:
            actions = self.game.engine.actions
            text += "\nown actions: " + ", ".join(
                str(actions[a]) for a in state.own_actions(player)
            )
        return text


register()
