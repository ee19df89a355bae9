"""The run-time engine: the games of :func:`cardtable.make` with their states in the compiled
core, the Python rules layer kept whole as the reference.

A game's Python classes (``cardtable.rules.<game>``) are the readable, executable form of
SPEC.md and the other side of every differential test. At run time ``make`` returns the same
game class with its states held in the core (``cardtable._core``): each step is one call
into the core, and the public protocol is unchanged (:class:`cardtable.core.State`).

A core-backed state keeps of its own only what a position does not hold: how the game began
(its seed, first dealer, stacked decks and reshuffles, or its start position), its history,
and its chance events once they are asked for. The core writes each seat's view and
observation. Everything else a caller reads (facts, the result, a refusal's reason, the
chances drawn, a game's own fields such as ``hands``) is read from a *reference*: the
Python state rebuilt from the core's position when first read, then kept in step by the
Python engine (each step plays there too) until a step draws a chance event in the core.
A game's own fields are read-only on a core-backed state.

Chance has one authority at a time. A state that deals from its seed and stacked decks
lets the core deal; the decks it dealt are worked out again by the Python engine only when
a record asks for them (replaying the history). A state whose decks come from somewhere
else (a ``shuffler``: the web table's fair deals) lets the core deal too, from stacked
decks alone: a step that would deal a deck the stacks lack is left undone, the shuffler
draws that deck, which is stacked, and the step is played again; the decks drawn so are
the state's chances, with no second engine. A reshuffle the stacks lack (a Knockout Whist
cut that runs the remainder out, KOW-5.3) is stacked the same way, the reference saying
which cards it shuffles. Only a game whose reshuffles were recorded is dealt in the Python
engine: the reference plays each step that draws, and the core takes over its position.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Self, cast

from cardtable import compiled
from cardtable.chance import Shuffler
from cardtable.core import Action, Game, Record, Result, State, View
from cardtable.errors import CardtableError, IllegalActionError
from cardtable.rules.catalog import descriptor

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from cardtable.compiled import CoreGame, CoreState
    from cardtable.refusals import Refusal

__all__ = ["ENGINES", "CoreBacked", "EngineMismatchError", "engine_of", "on_core", "reference"]

ENGINES = ("core", "python")
"""The engines :func:`cardtable.make` runs a game on: ``core`` (the compiled core) or
``python`` (the reference)."""

# What a core-backed state keeps in its own slots: what a position does not hold.
_OWN = frozenset(
    {
        "game",
        "history",
        "start",
        "first_dealer",
        "used_decks",
        "used_reshuffles",
        "stacked_reshuffles",
        "deck",
        "to_move",
    }
)


_UNSET = object()


class EngineMismatchError(CardtableError):
    """The compiled core and the Python reference disagree about a game: a bug in one of
    them, never a user's mistake. The message names the two positions."""


class _Origin:
    """How a game that began from a seed began, to replay it in the reference."""

    __slots__ = ("dealer", "decks", "reshuffles", "seed")

    def __init__(
        self, seed: int, dealer: int, decks: list[list[int]], reshuffles: list[list[int]]
    ) -> None:
        self.seed = seed
        self.dealer = dealer
        self.decks = decks
        self.reshuffles = reshuffles


class CoreBacked(State):
    """What every core-backed state does in Python. Each game's class (:func:`_state_class`)
    derives from the core's native base for the game (``_core.<Game>Public``: the core
    state, the history, the seat to move, and the hot calls ``legal_actions``, ``apply``,
    ``apply_id``, ``legal_action_ids``, ``is_legal`` and ``is_over``), from this class, and
    from the game's Python state class, whose fields it reads from the reference."""

    __slots__ = ()

    # Kept by the native base.
    core: CoreState
    _reference: State | None
    _synced: bool  # the reference is kept in step and draws the chance events
    _stacked: bool  # the core deals from stacks alone, which the shuffler fills
    # Kept by each state.
    start: str | None
    _origin: _Origin | None
    _shuffler: Shuffler | None
    _reference_class: type[State]

    if TYPE_CHECKING:

        def __new__(cls, game: Game, core: CoreState) -> Self: ...

    # Construction ---------------------------------------------------------------------------

    @classmethod
    def _made(cls, game: Game, core: CoreState) -> Self:
        state = cls.__new__(cls, game, core)
        state._origin = None
        state._shuffler = None
        return state

    @classmethod
    def begun(
        cls,
        game: Game,
        core: CoreState,
        seed: int,
        dealer: int,
        decks: list[list[int]],
        reshuffles: list[list[int]],
    ) -> Self:
        state = cls._made(game, core)
        state._origin = _Origin(seed, dealer, decks, reshuffles)
        state.start = None
        if "first_dealer" in cls._own_names():
            setattr(state, "first_dealer", dealer)  # noqa: B010
        if reshuffles:
            # The core cannot carry recorded reshuffles through a position: the reference
            # deals every chance event of this game.
            state._sync()
        return state

    @classmethod
    def adopting(cls, reference: State, core: CoreState | None = None) -> Self:
        """The core-backed twin of a reference state, which it keeps as its reference."""
        game = reference.game
        if core is None:
            core = _core_game(game).state_from_position(reference.position())
        state = cls._made(game, core)
        state._adopt(reference)
        return state

    def _adopt(self, reference: State) -> None:
        for name in self._own_names():
            if name not in ("game", "to_move"):
                # Lists copied: the reference is kept and stepped beside this state.
                value = getattr(reference, name)
                setattr(self, name, [*value] if isinstance(value, list) else value)
        self._synced = True
        self._stacked = False
        self._reference = reference

    @classmethod
    @functools.cache
    def _own_names(cls) -> tuple[str, ...]:
        return tuple(name for name in _fields(cls._reference_class) if name in _OWN)

    # The reference ----------------------------------------------------------------------------

    @property
    def reference(self) -> State:
        """The Python engine's state equal to this one (kept in step once read; read it,
        don't change it)."""
        ref = self._reference
        if ref is None:
            ref = self._rebuilt(self.core)
            self._reference = ref
        return ref

    def _rebuilt(self, core: CoreState) -> State:
        """The reference state of ``core``'s position, with this state's own fields."""
        ref = _reference_game_call(self.game, "state_from_position", core.position())
        for name in self._own_names():
            if name == "game" or name == "to_move":
                continue
            # Chance events are unset until the state keeps them (_sync): the position's
            # own defaults stand in for reading.
            value = self.__dict__.get(name, _UNSET)
            if value is not _UNSET:
                setattr(ref, name, [*value] if isinstance(value, list) else value)
        if self._shuffler is not None:
            ref.shuffler = self._shuffler
        return ref

    def _sync(self) -> None:
        """Make this state keep its chance events: replay its history in the reference once;
        from now on the reference draws every chance event."""
        if self._synced:
            return
        self._adopt(self._replayed())
        if self._shuffler is not None:
            self.reference.shuffler = self._shuffler

    def _replayed(self) -> State:
        """The reference state of this game, replayed from how it began, checked to reach
        the core's position."""
        origin = self._origin
        assert origin is not None  # a state from a position or a reference starts synced
        ref = _reference_game_call(
            self.game,
            "begin",
            origin.seed,
            origin.dealer,
            [list(d) for d in origin.decks],
            [list(r) for r in origin.reshuffles],
        )
        for number in self.history:
            ref.apply_id(number)
        mine, theirs = self.core.position(), ref.position()
        if mine != theirs:
            raise EngineMismatchError(
                f"the compiled core reached {mine!r} where the Python engine reached {theirs!r}"
            )
        return ref

    def _stacked_chances(self) -> tuple[list[list[int]], list[list[int]]] | None:
        """:meth:`chances` when every chance event drawn so far was stacked (given as the
        game began or drawn from the shuffler since): the stacks, used and to come. None
        when the seed dealt some."""
        origin = self._origin
        if origin is None or self._synced:
            return None
        decks, reshuffles = self.core.chances_drawn()
        if decks > len(origin.decks) or reshuffles > len(origin.reshuffles):
            return None
        return [[*d] for d in origin.decks], [[*r] for r in origin.reshuffles]

    if not TYPE_CHECKING:  # (typed, it would make every name an attribute to mypy)

        def __getattr__(self, name: str) -> Any:
            # Only for what is not set: a chance field (``used_decks``, …) of a state that
            # does not keep its chance events is read from the reference, replayed once.
            if name in type(self)._chance_names():
                self._sync()
                return self.__dict__[name]
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # Chance from elsewhere -------------------------------------------------------------------

    @property
    def shuffler(self) -> Shuffler | None:
        return self._shuffler

    @shuffler.setter
    def shuffler(self, shuffler: Shuffler | None) -> None:
        self._shuffler = shuffler
        if not self._synced:
            if shuffler is not None and self._stacked_chances() is None:
                # Some chance was the seed's: the reference, replayed, knows what it drew.
                self._sync()
            else:
                self._stacked = shuffler is not None
        if self._reference is not None:
            self._reference.shuffler = shuffler

    def stack(self, decks: list[list[int]], reshuffles: list[list[int]]) -> None:
        self._sync()
        ref = self.reference
        ref.stack(decks, reshuffles)
        self._adopt(ref)
        self.core = _core_game(self.game).state_from_position(ref.position())

    # Steps the native base hands over ------------------------------------------------------

    def _apply_checked(self, action: Action | str | int, seat: int | None) -> Action:
        """``apply`` for all but the native base's plain case: an action given as text or
        number, a seat named, a refused action (raised in the reference's words) or a state
        whose chance the Python side draws."""
        game = self.game
        number = game.numbers_by_id.get(id(action))
        if number is None:
            number = game.number_of(action)
        if self.to_move is None or (seat is not None and seat != self.to_move):
            return State.apply(self, number, seat=seat)
        try:
            # The native step: the core checks and plays it (or the reference draws its
            # chance, _step_drawing), and a read reference is kept in step.
            self.apply_id(number)
        except IllegalActionError:
            return State.apply(self, number, seat=seat)
        return game.actions[number]

    def _step_drawing(self, number: int) -> None:
        """A step the native base hands over: of a state whose reference draws its chance
        events, or of a state dealt from stacks that needs a deck (or reshuffle) they lack."""
        if self._synced:
            self._step_in_reference(number)
        else:
            self._step_shuffled(number)

    def _step_shuffled(self, number: int) -> None:
        """A step of a state dealt from stacks that needs a chance event they lack (the
        native base plays the others): each is drawn from the shuffler and stacked, and
        the core plays the step."""
        core = self.core
        while (missing := core.step_stacked(number)) is not None:
            kind, index = missing
            origin = self._origin
            shuffler = self._shuffler
            assert origin is not None and shuffler is not None  # else the core would deal
            decks, reshuffles = origin.decks, origin.reshuffles
            if kind == "deck":
                assert len(decks) == index  # the stacks held every deck dealt so far
                deck = shuffler(f"hand {index + 1}", list(self.game.pack))
                core.stack_deck(deck)
                decks = [*decks, deck]
            else:
                assert len(reshuffles) == index
                order = self._reshuffle_drawn(number)
                core.stack_reshuffle(order)
                reshuffles = [*reshuffles, order]
            self._origin = _Origin(origin.seed, origin.dealer, decks, reshuffles)
        self.history.append(number)
        self.to_move = core.to_move
        self._reference = None  # the step dealt: rebuilt from the position when next read

    def _reshuffle_drawn(self, number: int) -> list[int]:
        """The order of the reshuffle step ``number`` draws (a Knockout Whist cut that runs
        the remainder out, KOW-5.3), drawn from the shuffler: which cards it shuffles, and
        so what the shuffler is asked, is the reference's to say, stepped from this
        position (every deck the step deals is stacked by now)."""
        ref = _reference_game_call(self.game, "state_from_position", self.core.position())
        ref.shuffler = self._shuffler
        ref.apply_id(number)
        # From a position, the reference's reshuffles are those this step drew.
        return ref.chances()[1][0]

    def _step_in_reference(self, number: int) -> None:
        """A step of a state whose reference keeps its chance events: one the step draws
        (the core answers its state before the step) is drawn by the reference, from the
        shuffler, the recorded reshuffles or the seed, and recorded."""
        ref = self._reference
        after = self.core.step_drawing(number)
        if after is None or isinstance(after, int):
            self.history.append(number)
            self.to_move = after
            if ref is not None:
                # Kept in step by a Python step rather than rebuilt from the next position
                # when next read (a parse of the whole position): a table reads its views
                # after every step.
                ref.apply_id(number)
            return
        if ref is None:
            ref = self._rebuilt(after)
        before = ref.copy()
        ref.apply_id(number)
        self._adopt(ref)
        self.core = _core_game(self.game).state_from_position(ref.position())
        self.to_move = self.core.to_move
        # A position does not hold the tricks taken: they go on from the state before.
        count, taker = after.tricks_taken()
        won = ref.trick_taken(before)
        if won is not None:
            count, taker = count + 1, (None if won < 0 else won)
        self.core.set_tricks_taken(count, taker)

    def playout(self, rng: random.Random) -> None:
        if (self._synced or self._stacked) and (
            self._shuffler is not None or self._pending_chance()
        ):
            self.playout_python(rng)
            return
        actions = self.core.playout(rng.getrandbits(64))
        self.history.extend(actions)
        self._reference = None
        self.to_move = self.core.to_move

    def _pending_chance(self) -> bool:
        """Whether chance events stacked in this state are still to be dealt, which a
        native playout would deal without recording."""
        return bool(self.__dict__.get("stacked_reshuffles")) or bool(
            getattr(self.reference, "stacked_decks", None)
        )

    def copy(self) -> Self:
        other = self.__class__.__new__(self.__class__, self.game, self.core.copy())
        other.history = self.history[:]
        other.start = self.start
        for name in self._chance_names():
            value = self.__dict__.get(name, _UNSET)
            if value is not _UNSET:
                setattr(other, name, [*value] if isinstance(value, list) else value)
        other._origin = self._origin  # never changed in place: a new one when chance is drawn
        other._synced = self._synced  # a copy has no shuffler until one is set
        if self._synced and self._reference is not None:
            # A copy that keeps its chance steps its reference too (_step_drawing).
            other._reference = self._reference.copy()
        other._shuffler = None  # as a Python state's copy: whoever sets it sets it again
        return other

    @classmethod
    @functools.cache
    def _chance_names(cls) -> tuple[str, ...]:
        """The own fields besides the game, the seat to move, the history and the start."""
        common = ("game", "to_move", "history", "start")
        return tuple(name for name in cls._own_names() if name not in common)

    def position(self) -> str:
        return self.core.position()

    def playouts(self, count: int, seed: int) -> tuple[npt.NDArray[np.float64], int]:
        """``count`` uniformly random playouts from this state, leaving it as it is: one
        row of returns per playout and the decisions played in all."""
        return self.core.playouts(count, seed)

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation vector (``cardtable.rl.observation``'s layout), written
        by the core."""
        return self.core.observation(seat)

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know, written by the core (equal to the reference's view, which
        is neither built nor stepped for it: tests/core/test_core_views.py)."""
        return self.core.view(seat)

    def view_text(self, seat: int | None) -> str:
        return self.core.view_text(seat)

    def trick_taken(self, before: State) -> int | None:
        """Counted by the core as it plays (its trick count moved), with no view written."""
        if not isinstance(before, CoreBacked):
            return super().trick_taken(before)
        count, taker = self.core.tricks_taken()
        if count == before.core.tricks_taken()[0]:
            return None
        return -1 if taker is None else taker

    # Read from the reference ------------------------------------------------------------------

    def facts(self, seat: int) -> tuple[Any, ...]:
        return self.reference.facts(seat)

    @property
    def result(self) -> Result | None:
        return None if self.to_move is not None else self.reference.result

    def refusal(self, number: int) -> Refusal:
        return self.reference.refusal(number)

    def record(self) -> Record:
        if not self._synced:
            # Replayed aside: the state goes on without a second engine stepped beside it.
            return self._replayed().record()
        return self.reference.record()

    def chances(self) -> tuple[list[list[int]], list[list[int]]]:
        stacked = self._stacked_chances()
        if stacked is not None:
            return stacked
        self._sync()
        return self.reference.chances()

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        return self.adopting(self.reference.resample_hidden(seat, rng))

    def __reduce__(self) -> tuple[Any, ...]:
        # A core state does not pickle; its record does, and replays to this state.
        return (_replayed, (self.record().to_dict(),))


def _fields(cls: type[State]) -> tuple[str, ...]:
    """A game's Python state class's fields (its ``FIELDS``)."""
    fields: tuple[str, ...] = getattr(cls, "FIELDS", ())
    return fields


def _read_from_reference(name: str) -> property:
    def read(self: CoreBacked) -> Any:
        return getattr(self.reference, name)

    read.__name__ = name
    return property(read, doc=f"The reference state's ``{name}`` (read-only here).")


@functools.cache
def _state_class(reference_class: type[State], public: type) -> type[CoreBacked]:
    """The core-backed class of a game's Python state class: a subclass of the core's native
    base ``public`` (the hot calls, with no Python frame) and of the Python class (so that
    ``isinstance`` and the game's typed fields still hold, and its methods are the game's),
    every field a position holds read from the reference."""
    namespace: dict[str, Any] = {
        "__module__": __name__,
        "__qualname__": f"{reference_class.__name__}OnCore",
        "_reference_class": reference_class,
    }
    for name in _fields(reference_class):
        if name not in _OWN:
            namespace[name] = _read_from_reference(name)
    bases = (public, CoreBacked, reference_class)
    cls = type(f"{reference_class.__name__}OnCore", bases, namespace)
    return cast(type[CoreBacked], cls)


def _core_game(game: Game) -> Any:
    return cast(_OnCore, game).twin


def _reference_game_call(game: Game, method: str, *args: Any) -> State:
    """Calls the Python engine's ``method`` of ``game`` (not its core-backed override)."""
    reference_class = cast(_OnCore, game).reference_class
    bound: Callable[..., State] = getattr(reference_class, method).__get__(game)
    return bound(*args)


def _replayed(record: dict[str, Any]) -> State:
    game = _remade(record["game"], record["options"])
    return game.replay(Record.from_dict(record))


def _remade(name: str, options: dict[str, Any]) -> Game:
    return on_core(descriptor(name).game_class())(**options)


class _OnCore(Game):
    """What every core-backed game class overrides: where its states are made."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_remade, (self.name, dict(self.options)))

    reference_class: type[Game]
    """The game's Python class, whose methods are the reference engine's."""

    def begin(
        self, seed: int, dealer: int, decks: list[list[int]], reshuffles: list[list[int]]
    ) -> State:
        if len(decks) > 1 or reshuffles:
            # Checked (and refused, by the games that deal once) in the reference's words.
            _reference_game_call(self, "begin", seed, dealer, [*decks], [*reshuffles])
        # Recorded reshuffles are the reference's to deal and check (CoreBacked.begun).
        core = _core_game(self).new_state(seed, dealer, decks, [])
        cls = _state_class(self.reference_class.state_class, type(core).public)
        return cls.begun(self, core, seed, dealer, decks, reshuffles)

    def state_from_position(self, text: str) -> State:
        ref = _reference_game_call(self, "state_from_position", text)
        core = _core_game(self).state_from_position(ref.position())
        return _state_class(type(ref), type(core).public).adopting(ref, core)

    # The batch calls: many games in one call into the core -----------------------------------

    @functools.cached_property
    def twin(self) -> CoreGame:
        """The game in the compiled core (typed by ``_core.pyi``)."""
        twin = compiled.core_game(self, always=True)
        assert twin is not None  # every game of the package has its twin in the core
        return twin

    def random_games(self, seeds: Sequence[int]) -> tuple[npt.NDArray[np.float64], int]:
        """Whole games of uniformly random legal actions, game ``i`` dealt as
        ``new_state(seed=seeds[i])`` deals it: one row of returns per game and the decisions
        played in all, in one call that releases the GIL."""
        return self.twin.random_games(seeds)

    def search(
        self, view: View, **budget: Any
    ) -> tuple[int, dict[int, int], dict[int, float], int, float, dict[int, float]]:
        """SO-ISMCTS in the core for the seat whose ``view`` this is (``docs/core.md``,
        "Search"): the chosen action, each action's visits and mean value, iterations run,
        seconds taken and each action's spread of returns (standard deviation).
        ``budget`` as ``_core.pyi``'s ``search``."""
        return self.twin.search(json.dumps(view), **budget)


@functools.cache
def on_core(reference_class: type[Game]) -> type[Game]:
    """The core-backed class of a game's Python class: a subclass of it whose states live
    in the compiled core."""
    name = reference_class.__name__
    namespace = {
        "__module__": __name__,
        "__qualname__": f"{name}OnCore",
        "reference_class": reference_class,
    }
    return type(name, (_OnCore, reference_class), namespace)


def engine_of(game: Game) -> str:
    """``"core"`` for a game whose states live in the compiled core, else ``"python"``."""
    return "core" if isinstance(game, _OnCore) else "python"


def reference(state: State) -> State:
    """The Python engine's state equal to ``state``: ``state`` itself on the Python engine."""
    return state.reference if isinstance(state, CoreBacked) else state
