"""Type stubs of ``cardtable._core``, the compiled core (crates/python). Every game is
bound alike by one macro each (a game, a state, a batch, and the native base of the
run-time engine's state class), so its classes have the same methods; ``_Game``,
``_State``, ``_Batch`` and ``_Public`` hold them once (they exist in these stubs only)."""

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar, final

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

__all__ = [
    "KnockoutWhist",
    "KnockoutWhistBatch",
    "KnockoutWhistPublic",
    "KnockoutWhistState",
    "KrytNavalivat",
    "KrytNavalivatBatch",
    "KrytNavalivatPublic",
    "KrytNavalivatState",
    "Neuf",
    "NeufBatch",
    "NeufPublic",
    "NeufState",
    "broken_rule",
    "check_view",
    "game_seed",
    "learned_prior",
    "learned_values",
    "state_sizes",
    "view_fields",
]

def state_sizes() -> list[tuple[str, int]]:
    """Each game's name and the size in bytes of its state in the core."""

def game_seed(seed: int, index: int) -> int:
    """The generator seed of game ``index`` of a batch reset with base seed ``seed``."""

def broken_rule() -> bool:
    """Whether this build breaks a rule on purpose (the ``broken-rule`` cargo feature)."""

def learned_prior(game: str) -> tuple[str, int] | None:
    """The learned policy prior compiled in for ``game`` (its JSON text) and how many
    numbers it holds; ``None`` for a game without one."""

def learned_values(game: str) -> tuple[str, int] | None:
    """A game's learned evaluation as compiled in: its file's text and the numbers read
    (Knockout Whist's table cells, Neuf's network weights and biases); ``None`` without."""

def view_fields(game: str) -> dict[str, list[str]]:
    """The field names of ``game``'s view struct as serde knows them, by path (``""`` the
    view, ``"tricks[]"`` each trick of its list, ``"previous_hand.tricks[]"``, ...);
    ``InvalidOptionError`` for a name that is no game's."""

def check_view(game: str, view: str) -> None:
    """Reads a view (JSON text) into ``game``'s view struct and no further (its shape, not
    what its values mean); ``InvalidPositionError`` naming what is wrong."""

_A = TypeVar("_A")

class _Public:
    """The native base of a core-backed state class (``cardtable.engines``): the core state,
    the history, the seat to move, and the protocol's hot calls. ``apply`` plays the game's
    own action object for the seat to move here and hands anything else to the subclass's
    ``_apply_checked``; ``apply_id`` hands a state whose chance the reference draws, and a
    step that needs a deck the stacks of a state dealt from stacks lack, to its
    ``_step_drawing``."""

    core: Any
    game: Any
    history: list[int]
    to_move: int | None
    _reference: Any
    _synced: bool
    _stacked: bool
    def __new__(cls, game: Any, core: Any) -> Self: ...
    @property
    def is_over(self) -> bool: ...
    def legal_action_ids(self) -> list[int]: ...
    def is_legal(self, number: int) -> bool: ...
    def legal_actions(self) -> list[Any]: ...
    def apply(self, action: Any, *, seat: int | None = None) -> Any: ...
    def apply_id(self, number: int) -> None: ...

@disjoint_base
class KnockoutWhistPublic(_Public): ...

@disjoint_base
class NeufPublic(_Public): ...

@disjoint_base
class KrytNavalivatPublic(_Public): ...

class _State:
    public: ClassVar[type[_Public]]
    """The native base of the run-time engine's states of this game."""
    @property
    def to_move(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def num_players(self) -> int: ...
    def legal_action_ids(self) -> list[int]: ...
    def legal_mask(self) -> int: ...
    def legal_from(self, table: tuple[_A, ...]) -> list[_A]:
        """``[table[a] for a in legal_action_ids()]`` in one call."""
    def is_legal(self, action: int) -> bool: ...
    def apply(self, action: int) -> None: ...
    def step(self, action: int) -> int | None:
        """``apply``, answering the seat to move now (``None`` once the game is over)."""
    def step_drawing(self, action: int) -> int | Self | None:
        """``step``, answering instead the state as it was before the action when the
        action drew a chance event (a deal or a reshuffle)."""
    def step_stacked(self, action: int) -> tuple[str, int] | None:
        """``apply`` dealing from stacked chance events alone; when the action would draw
        one the stacks lack, the state is left as it was and the answer names it:
        ``("deck", n)`` (the game's deck ``n`` from 0, hand ``n + 1``) or
        ``("reshuffle", k)``."""
    def stack_deck(self, deck: Sequence[int]) -> None:
        """Stacks ``deck`` beneath the decks still stacked; ``ValueError`` for a deck that
        is not the game's pack or in a game that deals once."""
    def tricks_taken(self) -> tuple[int, int | None]:
        """Tricks finished since this state was made (across the hands) and the seat that
        took the last (``None`` before the first, or for a trick no one takes)."""
    def set_tricks_taken(self, count: int, taker: int | None) -> None:
        """Sets what ``tricks_taken`` answers (for a state rebuilt from a position)."""
    def stack_reshuffle(self, order: Sequence[int]) -> None:
        """Stacks a reshuffle's order beneath those still stacked; ``ValueError`` in a game
        that never reshuffles."""
    def chances_drawn(self) -> tuple[int, int]:
        """The decks dealt and the reshuffles drawn so far, from the game's start."""
    def position(self) -> str: ...
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (a spectator's view for ``None``): a dict equal to the
        Python engine's ``state.view(seat)``; ``ValueError`` for a seat not of the game."""
    def view_text(self, seat: int | None) -> str:
        """``view(seat)`` as compact JSON text, with no dict between."""
    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation: the float32 vector of ``cardtable.rl.observation``
        (``encode(game, state.view(seat))``); ``ValueError`` for a seat not of the game."""
    def observe_into(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """Writes ``seat``'s observation into ``out`` (writable, C-contiguous float32 of
        shape ``(observation_size,)``) without allocating; ``ValueError`` for a wrong seat
        or buffer."""
    def returns(self) -> list[float] | None: ...
    def copy(self) -> Self: ...
    def __copy__(self) -> Self: ...
    def playout(self, seed: int) -> list[int]: ...
    def playouts(self, count: int, seed: int) -> tuple[npt.NDArray[np.float64], int]: ...
    def guided_action(self, draws: Sequence[float]) -> tuple[int, int]: ...
    def guided_rollout(self, draws: Sequence[float]) -> tuple[list[float], int]: ...

_S = TypeVar("_S", bound=_State)

class _Batch(Generic[_S]):
    """``num_games`` games held in the core (``<Game>.batch``), stepped together; the
    arrays are the batch's own, overwritten in place by every ``reset`` and ``step``. With
    self-play a per-game axis of every seat follows the games' axis in ``observations``,
    ``masks``, ``rewards`` and ``final_observations``."""

    def reset(self, seed: int | None = None, seeds: npt.NDArray[np.uint64] | None = None) -> None:
        """Deals every game: game ``i`` from ``game_seed(seed, i)``, from ``seeds[i]``, or
        with neither from its own generator, carrying on."""
    def step(self, actions: npt.NDArray[np.int64]) -> None:
        """One action per game (int64, C-contiguous), all checked before any is played
        (``IllegalActionError``/``InvalidActionError`` naming the game); the GIL released."""
    def sample_actions(self) -> npt.NDArray[np.int64]:
        """One uniformly random legal action per game for the seat that acts (0 where it
        has none), from each game's pick generator (seeded by ``reset``): a new array."""
    @property
    def observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def masks(self) -> npt.NDArray[np.int8]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def terminations(self) -> npt.NDArray[np.bool_]: ...
    @property
    def truncations(self) -> npt.NDArray[np.bool_]: ...
    @property
    def to_move(self) -> npt.NDArray[np.int64]: ...
    @property
    def seats(self) -> npt.NDArray[np.int64]: ...
    @property
    def final_observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def num_games(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_distinct_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def self_play(self) -> bool: ...
    @property
    def autoreset(self) -> str: ...
    @property
    def max_actions(self) -> int | None: ...
    @property
    def threads(self) -> int: ...
    @threads.setter
    def threads(self, threads: int) -> None: ...
    def position(self, index: int) -> str: ...
    def positions(self) -> list[str]: ...
    def state(self, index: int) -> _S: ...
    def __len__(self) -> int: ...

_B = TypeVar("_B", bound=_Batch[Any])

class _Game(Generic[_S, _B]):
    def __new__(cls, **options: object) -> Self: ...
    @property
    def name(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_distinct_actions(self) -> int: ...
    @property
    def observation_size(self) -> int:
        """The length of a seat's observation (``layout(game).size``)."""
    @property
    def observation_shape(self) -> tuple[int]: ...
    def new_state(
        self,
        seed: int,
        dealer: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
        reshuffles: Sequence[Sequence[int]] | None = None,
    ) -> _S: ...
    def log_likelihoods(
        self, view: str, positions: Sequence[str], belief: float, choice: float
    ) -> list[float]: ...
    def state_from_position(self, text: str) -> _S: ...
    def action_text(self, action: int) -> str: ...
    def parse_action(self, text: str) -> int: ...
    def sample_positions(self, view: str, count: int, seed: int) -> list[str]: ...
    def search(
        self,
        view: str,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        seed: int = 0,
        stop_early: bool = True,
        rollout: str = "guided",
        threads: int = 1,
        solve: int = 0,
        belief: float = 0.0,
        choice: float = 0.0,
        deals: int = 1000,
        prior: float = 0.0,
    ) -> tuple[int, dict[int, int], dict[int, float], int, float, dict[int, float]]: ...
    def search_seeing(
        self,
        position: str,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        seed: int = 0,
        stop_early: bool = True,
        rollout: str = "guided",
        threads: int = 1,
        solve: int = 0,
    ) -> tuple[int, dict[int, int], dict[int, float], int, float, dict[int, float]]: ...
    def replay(
        self,
        seed: int,
        dealer: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
        reshuffles: Sequence[Sequence[int]] | None = None,
        actions: Sequence[str] | None = None,
    ) -> _S: ...
    def random_games(self, seeds: Sequence[int]) -> tuple[npt.NDArray[np.float64], int]: ...
    def batch(
        self,
        num_games: int,
        opponents: str | Sequence[str] | None = None,
        seat: int | None = 0,
        max_actions: int | None = None,
        autoreset: str = "next_step",
        threads: int = 1,
        divisors: Sequence[float] | None = None,
    ) -> _B:
        """A batch of games of this variant (``cardtable.rl.vector``); with ``divisors``
        (one an observation column) its observations are int8, each entry times its
        divisor."""

@final
class KnockoutWhistState(_State):
    def learned_prior(self) -> list[tuple[int, float]] | None:
        """The search's learned policy prior over the legal actions of the seat to move,
        ``(action, chance)``; ``None`` where it does not apply (not three players)."""
    def solve(self, model: str = "max-n") -> tuple[list[tuple[int, float]], int]:
        """The exact solver with every hand as this state holds it: each legal action's
        value for the seat to move at the end of the hand (its return plus a thousandth a
        trick), ascending, and the nodes searched; ``model`` is ``"max-n"`` or
        ``"paranoid"``. ``"tricks"`` values tricks instead: every seat plays for its own
        tricks this hand, and a value is the seat's tricks this hand, taken and to come (a
        whole number; above 26 cards in all hands the seats play the guided policy's cards
        until 26 are left). Neuf's and Kryt'-navalivat's solvers refuse ``"tricks"``."""

@final
class KnockoutWhistBatch(_Batch[KnockoutWhistState]): ...

@final
class KnockoutWhist(_Game[KnockoutWhistState, KnockoutWhistBatch]):
    def judge(
        self,
        view: str,
        deals: int | None = None,
        seconds: float | None = None,
        model: str = "max-n",
        seed: int = 0,
        threads: int = 1,
        belief: float = 0.0,
    ) -> tuple[int, dict[int, int], dict[int, float], int, float, dict[int, float]]:
        """Perfect-information Monte Carlo for the seat whose view (JSON) this is, each deal
        weighed by how well it explains the others' plays this hand (``belief``: how likely
        a seat plays the guided policy's card; 0: every deal alike): the chosen action, each
        legal action's deals and weighted mean value, the deals solved, the seconds taken
        and the standard error of each action's gap to the chosen one's mean (paired over
        the same deals). ``model`` as ``KnockoutWhistState.solve``'s: with ``"tricks"``
        each value is the mean of the seat's tricks this hand over the deals (the hints'
        unit)."""

@final
class NeufState(_State):
    def solve(self, model: str = "paranoid") -> tuple[list[tuple[int, float]], int]:
        """The exact solver with every hand (and the spare) as this state holds them: each
        legal action's value for the seat to move, its side's tricks over its quota this
        deal (NEUF-5.2), ascending, and the nodes searched; ``model`` is ``"paranoid"`` or
        ``"max-n"`` (too slow for more than a deal's last tricks at 3 players; the same as
        paranoid with four). In the exchange, EXCHANGE and KEEP are valued by solving the
        deal that follows, the later seats deciding by rule."""
    def learned_tricks(self) -> tuple[float, float, float] | None:
        """Each seat's expected tricks in the rest of the deal by the learned value that
        ``rollout=learned`` ends its rollouts with, at the start of a trick of a
        three-player game without NEUF-8.3; ``None`` elsewhere."""

@final
class NeufBatch(_Batch[NeufState]): ...

@final
class Neuf(_Game[NeufState, NeufBatch]):
    def judge(
        self,
        view: str,
        deals: int | None = None,
        seconds: float | None = None,
        model: str = "paranoid",
        seed: int = 0,
        threads: int = 1,
        belief: float = 0.0,
    ) -> tuple[int, dict[int, int], dict[int, float], int, float, dict[int, float]]:
        """Perfect-information Monte Carlo for the seat whose view (JSON) this is (paranoid
        by default, as ``solve``), every deal weighing alike (``belief`` is checked, but
        Neuf has no inference yet): the chosen action, each legal action's deals and mean
        value, the deals solved, the seconds taken and each gap's standard error."""
    def value_samples(
        self, games: int, seed: int = 0, rollouts: int = 8
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
        """Training samples for the learned value (three players): at the start of each
        trick of the first deals of ``games`` games dealt from ``seed`` on and played by the
        guided policy, the network's 0/1 inputs (a row a position) and each seat's mean
        share of the tricks left over ``rollouts`` guided playouts (from the seat to lead).
        ``InvalidOptionError`` for four players or ``tie_avoidance``, where the network
        does not apply."""

@final
class KrytNavalivatState(_State):
    def solve(
        self, model: str = "max-n", horizon: int = 10, nodes: int | None = None
    ) -> tuple[list[tuple[int, float]], int]:
        """The exact endgame solver, once the stock is empty, with every hand as this state
        holds it: each legal action's value for the seat to move (its return: -1 the fool,
        ``1/(n-1)`` not, 0 a draw or no end within ``horizon`` actions), ascending, and the
        nodes searched; ``model`` is ``"max-n"`` (two players only, where it is the same
        game) or ``"paranoid"``; past ``nodes`` nodes searched it gives up with
        ``SolverBudgetError``."""

@final
class KrytNavalivatBatch(_Batch[KrytNavalivatState]): ...

@final
class KrytNavalivat(_Game[KrytNavalivatState, KrytNavalivatBatch]): ...
