"""The protocol every game speaks: :class:`Game`, :class:`State`, :class:`Action`,
:class:`Result` and :class:`Record` (DESIGN.md, "The protocol").

A game numbers its actions densely (``0 … num_distinct_actions - 1``); a state's
legal actions are listed in that order, which is what "sorted" means here. The
checked :meth:`State.apply` validates everything; :meth:`State.apply_id` trusts its
caller and is the path for search and playouts.
"""

from __future__ import annotations

import json
import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

from cardtable.cards import Card, Suit
from cardtable.chance import Shuffler, draw
from cardtable.errors import (
    CardtableError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidPositionError,
    InvalidRecordError,
    OutOfTurnError,
)
from cardtable.options import PACK_52, read_deck
from cardtable.refusals import GAME_OVER, NOT_LEGAL, NOT_YOUR_TURN, Refusal

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["RECORD_VERSION", "Action", "Game", "Knowledge", "Record", "Result", "State", "View"]

View = dict[str, Any]
"""A seat's (or a spectator's) JSON-serialisable picture of the game."""


@dataclass(frozen=True, slots=True)
class Action:
    """A move in canonical notation: a lowercase verb and an optional card or suit."""

    verb: str
    arg: Card | Suit | None = None

    def __str__(self) -> str:
        return self.verb if self.arg is None else f"{self.verb} {self.arg}"

    def __repr__(self) -> str:
        if self.arg is None:
            return f"Action({self.verb!r})"
        return f"Action({self.verb!r}, {self.arg!r})"


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended.

    ``places`` lists seats best first, seats sharing a place grouped together;
    ``returns`` is one number per seat for learning agents (zero-sum, +1 to the
    winners' side); ``summary`` is a sentence for people.
    """

    winners: tuple[int, ...]
    places: tuple[tuple[int, ...], ...]
    returns: tuple[float, ...]
    summary: str


RECORD_VERSION = 1


@dataclass(slots=True)
class Record:
    """Everything needed to rebuild a game: options, chance and actions.

    Schema (JSON, ``docs/record.md``)::

        {"format": "cardtable-record", "version": 1, "game": "knockout-whist",
         "options": {...}, "seed": 17, "start": null,
         "decks": [[52 card strings], ...], "reshuffles": [[card strings], ...],
         "actions": ["play 7C", "knock", ...]}

    ``decks`` holds each hand's deck in the order used (index 0 dealt first) and
    ``reshuffles`` any other shuffles the rules call for, so a replay never depends
    on a random-number generator. ``seed`` only feeds chance events after the last
    recorded action. ``start`` is a position when the game began mid-way.
    """

    game: str
    options: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)
    decks: list[list[str]] = field(default_factory=list)
    reshuffles: list[list[str]] = field(default_factory=list)
    start: str | None = None

    FORMAT: ClassVar[str] = "cardtable-record"

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "start": self.start,
            "decks": [list(d) for d in self.decks],
            "reshuffles": [list(r) for r in self.reshuffles],
            "actions": list(self.actions),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRecordError(f"record is not valid JSON (truncated?): {exc}") from exc
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> Record:
        if not isinstance(data, dict):
            raise InvalidRecordError("a record must be a JSON object")
        if data.get("format") != cls.FORMAT:
            raise InvalidRecordError(f"not a cardtable record (format {data.get('format')!r})")
        if data.get("version") != RECORD_VERSION:
            raise InvalidRecordError(
                f"record version {data.get('version')!r} is not supported; "
                f"this cardtable reads version {RECORD_VERSION}"
            )
        expected = {
            "game": str,
            "options": dict,
            "seed": int,
            "decks": list,
            "reshuffles": list,
            "actions": list,
        }
        for key, kind in expected.items():
            if not isinstance(data.get(key), kind):
                raise InvalidRecordError(
                    f"record field {key!r} is missing or not a {kind.__name__}"
                )
        start = data.get("start")
        if start is not None and not isinstance(start, str):
            raise InvalidRecordError("record field 'start' must be a position string or null")
        for key in ("decks", "reshuffles"):
            for deck in data[key]:
                if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
                    raise InvalidRecordError(
                        f"record field {key!r} must hold lists of card strings"
                    )
        if not all(isinstance(a, str) for a in data["actions"]):
            raise InvalidRecordError("record field 'actions' must hold action strings")
        return cls(
            game=data["game"],
            options=dict(data["options"]),
            seed=data["seed"],
            actions=list(data["actions"]),
            decks=[list(d) for d in data["decks"]],
            reshuffles=[list(r) for r in data["reshuffles"]],
            start=start,
        )


class Game(ABC):
    """A game with its options fixed: metadata, action numbering and state factories."""

    name: ClassVar[str]
    state_class: ClassVar[type[State]]
    """The class of the game's states in the Python engine (the reference)."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    pack: ClassVar[tuple[int, ...]] = PACK_52
    """The card indices of the game's pack: a stacked deck holds each of them once."""
    actions: tuple[Action, ...]
    """Every action of the game, indexed by its number (a plain attribute: hot paths read it)."""

    def __init__(self, options: dict[str, Any], actions: tuple[Action, ...]) -> None:
        self.options = options
        self.actions = actions
        self._numbers = {action: number for number, action in enumerate(actions)}
        # Legal-action lists hand out these very objects: identity finds them without hashing.
        self.numbers_by_id = {id(action): number for number, action in enumerate(actions)}

    @property
    def rules(self) -> dict[str, Any]:
        """The options that say which rules are played: all but ``dealer``, which says only
        who deals first (a view shows who deals now). ``make(name, **rules)`` plays them."""
        return {key: value for key, value in self.options.items() if key != "dealer"}

    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    # Dense action numbering ---------------------------------------------------------------

    @property
    def num_distinct_actions(self) -> int:
        return len(self.actions)

    def action_to_int(self, action: Action) -> int:
        """The action's number; :class:`InvalidActionError` if it is not of this game."""
        number = self.numbers_by_id.get(id(action))
        if number is None:
            number = self._numbers.get(action) if isinstance(action, Action) else None
            if number is None:
                raise InvalidActionError(f"{action!r} is not a {self.name} action")
        return number

    def number_of(self, action: Action | str | int) -> int:
        """The number of an action given as an :class:`Action`, its text or its number."""
        if isinstance(action, str):
            return self.action_to_int(self.parse_action(action))
        if isinstance(action, Action):
            return self.action_to_int(action)
        return self.action_to_int(self.action_from_int(action))

    def action_from_int(self, number: int) -> Action:
        valid = isinstance(number, int) and not isinstance(number, bool)
        if not valid or not 0 <= number < len(self.actions):
            raise InvalidActionError(
                f"action number {number!r} is outside 0-{len(self.actions) - 1} for {self.name}"
            )
        return self.actions[number]

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read action text (``"play 7D"``); :class:`InvalidActionError` if malformed."""

    # States -------------------------------------------------------------------------------

    def new_state(
        self, seed: int | None = None, decks: Sequence[Sequence[str | Card]] | None = None
    ) -> State:
        """A new game. ``decks`` stacks the first hands' decks (index 0 dealt first);
        after them the seeded generator shuffles. Without a seed a fresh one is drawn."""
        if seed is None:
            seed = self.fresh_seed()
        stacked = [read_deck(deck, f"deck {i}", self.pack) for i, deck in enumerate(decks or [])]
        return self.begin(seed, self.resolved_dealer(seed), stacked, [])

    def resolved_dealer(self, seed: int) -> int:
        """The first dealer: the ``dealer`` option, else one drawn from the seed."""
        dealer = self.options.get("dealer")
        return draw(seed, "dealer", self.num_players) if dealer is None else int(dealer)

    @abstractmethod
    def begin(
        self, seed: int, dealer: int, decks: list[list[int]], reshuffles: list[list[int]]
    ) -> State:
        """The state after the first deal, with the chance events given (as card indices)
        stacked for the deals and shuffles to come; the seed deals after them."""

    @abstractmethod
    def state_from_position(self, text: str) -> State:
        """Rebuild a state from :meth:`State.position` text."""

    @abstractmethod
    def position_of(self, state: State) -> str:
        """``state``'s :meth:`State.position` text. The game writes it, not the state: a
        game's notation reads the state's module, so the state reaches its notation
        through the game it holds (typed by this class) and never imports it."""

    def refusal_of(self, state: State, number: int) -> Refusal:
        """Why ``state`` refuses action ``number`` (:meth:`State.refusal`), reached through
        the game for the same reason as :meth:`position_of`. By default only that it is not
        legal; the games name the rule broken."""
        return Refusal(NOT_LEGAL, {})

    def _replay_state(self, record: Record) -> State:
        """The state a record starts from, with its chance events stacked."""
        try:
            decks = [
                read_deck(deck, f"recorded deck {i}", self.pack)
                for i, deck in enumerate(record.decks)
            ]
            reshuffles = [[Card.parse(c).index for c in r] for r in record.reshuffles]
        except (InvalidDeckError, InvalidCardError) as exc:
            raise InvalidRecordError(f"record chance events: {exc}") from exc
        if record.start is None:
            return self.begin(record.seed, self.resolved_dealer(record.seed), decks, reshuffles)
        try:
            state = self.state_from_position(record.start)
        except InvalidPositionError as exc:
            raise InvalidRecordError(f"record start is not a position: {exc}") from exc
        state.stack(decks, reshuffles)
        return state

    def replay(self, record: Record) -> State:
        """Rebuild the state a record describes, checking every action."""
        state = self._replay_state(record)
        for number, text in enumerate(record.actions):
            try:
                state.apply(text)
            except ValueError as exc:
                raise InvalidRecordError(
                    f"action {number} ({text!r}) does not replay: {exc}"
                ) from exc
        return state

    # Many games in one call (docs/core.md, "The fast path") ---------------------------------

    def random_games(self, seeds: Sequence[int]) -> tuple[npt.NDArray[np.float64], int]:
        """Whole games of uniformly random legal actions, game ``i`` dealt as
        ``new_state(seed=seeds[i])`` deals it: a row of returns per game and the decisions
        played in all. The compiled core plays them in one call; the Python engine one by
        one (``playout``, drawing from ``random.Random(seed)``)."""
        import numpy as np

        rows: list[tuple[float, ...]] = []
        decisions = 0
        for seed in seeds:
            state = self.new_state(seed=seed)
            state.playout(random.Random(seed))
            assert state.result is not None  # a playout ends the game
            rows.append(state.result.returns)
            decisions += len(state.history)
        returns = np.array(rows, dtype=np.float64).reshape(len(rows), self.num_players)
        return returns, decisions

    def search(
        self, view: View, **budget: Any
    ) -> tuple[int, dict[int, int], dict[int, float], int, float, dict[int, float]]:
        """SO-ISMCTS for the seat whose ``view`` this is, in the compiled core (docs/core.md,
        "Search"): the chosen action, each action's visits and mean value, the iterations
        run, the seconds taken and each action's spread of returns (standard deviation).
        The Python engine's search is ``cardtable.bots.ismcts``."""
        raise CardtableError(
            "search runs in the compiled core: make the game with engine='core' "
            "(the Python engine's search is cardtable.bots.ismcts)"
        )

    def knowledge(self, view: View) -> Knowledge:
        """What the seat whose ``view`` this is knows, as a sampler of full states it could
        not tell from the real one (the determinizer of search, DESIGN.md "Bots").
        :class:`InvalidPositionError` for a view that is not a seat's view of this game."""
        raise NotImplementedError(f"{self.name} has no determinizer yet")

    def check_transition(self, before: State, number: int, after: State) -> None:  # noqa: B027
        """Assert the game's invariants (SPEC's invariant lists) across one action.

        ``cardtable.testing`` calls it after every action of its random games; it raises
        ``AssertionError`` naming the rule broken. The default checks nothing."""

    @staticmethod
    def fresh_seed() -> int:
        """A seed for a game whose caller gave none; recorded, so the game still replays."""
        return secrets.randbits(63)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"cardtable.make({self.name!r}, {opts})"


class Knowledge(Protocol):
    """A seat's knowledge of a game, from its view alone: :meth:`sample` deals everything
    the seat cannot see at random, consistently with all that play has revealed (a void
    shown by not following suit, cards picked up from a pile, a hand put down and who took
    it, the turned and cut cards). ``sample(rng).view(seat)`` is always the view it was
    built from."""

    seat: int

    def sample(self, rng: random.Random) -> State:
        """A full state the seat could not tell from the real one, with its own fresh seed
        for the chance events to come."""
        ...


class State(ABC):
    """A game in progress. Mutable; :meth:`copy` is cheap."""

    game: Game

    # What every state must provide -------------------------------------------------------

    history: list[int]
    """Every action number applied so far, in order (chance is not an action here)."""
    shuffler: Shuffler | None = None
    """Deals the decks and reshuffles drawn from now on in place of the seed, when set on a
    state (the web table's fair deals). Not copied: whoever sets it sets it on each copy."""
    to_move: int | None
    """The seat to act, or ``None`` when the game is over. A plain attribute that every
    state keeps current, because search reads it in its innermost loop."""

    @abstractmethod
    def legal_action_ids(self) -> list[int]:
        """Numbers of the legal actions, ascending. Empty when the game is over."""

    @abstractmethod
    def apply_id(self, number: int) -> None:
        """Apply a legal action by number without checking it (search's fast path)."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know; ``None`` gives the spectator's view."""

    def view_text(self, seat: int | None) -> str:
        """:meth:`view` as compact JSON text (what a table sends a page; the compiled core
        writes it with no dict between)."""
        return json.dumps(self.view(seat), separators=(",", ":"))

    def trick_taken(self, before: State) -> int | None:
        """The seat that took the trick the step from ``before`` (this state one action
        earlier) finished, or None if it finished none; -1 for a trick no one takes. Who
        took a trick is public: every card of it was played face up. None in a game not
        played in tricks."""
        return None

    @abstractmethod
    def facts(self, seat: int) -> tuple[Any, ...]:
        """The facts of ``view(seat)`` as numbers (a game's own named tuple: card sets as
        bitmasks of card indices), from which the research interfaces build observation
        vectors without formatting and parsing card text. Nothing the view does not hold."""

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def stack(self, decks: list[list[int]], reshuffles: list[list[int]]) -> None:
        """Stack chance events (card indices) for the deals and shuffles to come, as a
        record holds them; :class:`InvalidRecordError` for kinds the game has not."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def record(self) -> Record:
        """Options, chance events and every action so far."""

    @abstractmethod
    def chances(self) -> tuple[list[list[int]], list[list[int]]]:
        """The decks and reshuffles of :meth:`record` as card indices (those drawn, then
        those stacked to come), without the record's actions: what a table asks after
        every step, to publish the chance events the step drew."""

    @abstractmethod
    def position(self) -> str:
        """One line of text holding the whole state; see the game's docs page."""

    @abstractmethod
    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        """A copy in which every card ``seat`` cannot see is dealt again at random,
        consistently (same hand sizes, same public cards). ``seat``'s view is unchanged."""

    # Shared behaviour -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def legal_actions(self) -> list[Action]:
        """Legal actions in action-number order."""
        return list(map(self.game.actions.__getitem__, self.legal_action_ids()))

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal actions to the end of the game, unchecked: the
        rollout of search. Every legal action is equally likely at each step.

        A state of the compiled core plays it there (``cardtable.engines``)."""
        self.playout_python(rng)

    def playout_python(self, rng: random.Random) -> None:
        """:meth:`playout` step by step in Python, through :meth:`apply_id`."""
        draw = rng.random
        while self.to_move is not None:
            numbers = self.legal_action_ids()
            self.apply_id(numbers[int(draw() * len(numbers))])

    def playouts(self, count: int, seed: int) -> tuple[npt.NDArray[np.float64], int]:
        """``count`` uniformly random playouts from this state, leaving it as it is: a row of
        returns per playout and the decisions played in all (the compiled core plays them
        in one call; the Python engine one by one, playout ``i`` drawing from
        ``random.Random(seed + i)``)."""
        import numpy as np

        rows: list[tuple[float, ...]] = []
        decisions = 0
        for i in range(count):
            trial = self.copy()
            trial.playout(random.Random(seed + i))
            assert trial.result is not None  # a playout ends the game
            rows.append(trial.result.returns)
            decisions += len(trial.history) - len(self.history)
        returns = np.array(rows, dtype=np.float64).reshape(count, self.game.num_players)
        return returns, decisions

    def is_legal(self, number: int) -> bool:
        """Whether action ``number`` is legal now; games override it with a direct test."""
        return number in self.legal_action_ids()

    def refusal(self, number: int) -> Refusal:
        """Why action ``number``, which :meth:`is_legal` refuses, may not be played now by
        the seat to move: the game's reason code and its details (``cardtable.refusals``).
        Only asked once an action is refused, so legal play never pays for it."""
        return Refusal(NOT_LEGAL, {})

    def apply(self, action: Action | str | int, *, seat: int | None = None) -> Action:
        """Apply a legal action given as an :class:`Action`, its text or its number.

        ``seat``, when given, must be the seat to move. Anything wrong raises a
        specific :class:`ValueError` and leaves the state as it was.
        """
        game = self.game
        number = game.numbers_by_id.get(id(action))
        if number is None:
            number = game.number_of(action)
        mover = self.to_move
        if mover is None:
            raise GameOverError(
                f"the game is over; {game.actions[number]} cannot be played", reason=GAME_OVER
            )
        if seat is not None and seat != mover:
            raise OutOfTurnError(
                f"seat {seat} cannot act now: it is seat {mover}'s turn",
                reason=NOT_YOUR_TURN,
                details={"seat": seat, "to_move": mover},
            )
        if not self.is_legal(number):
            listed = ", ".join(str(game.actions[i]) for i in self.legal_action_ids())
            why = self.refusal(number)
            raise IllegalActionError(
                f"{game.actions[number]} is not legal for seat {mover} now; legal: {listed}",
                reason=why.reason,
                details=why.details,
            )
        self.apply_id(number)
        return game.actions[number]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()}>"
