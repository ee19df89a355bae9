"""What the code around the rules knows of a game, in one place: its :class:`Descriptor`.

The server, the bots, the hints, the terminal, the arena, the reviews and the environments
play any game; where one game differs from another they ask its descriptor, never its
name. Each game's descriptor is in :mod:`cardtable.rules.catalog`.

A descriptor is light: the modules of the rules it names (the game's class, its refusals,
its view) are written as ``"module:attribute"`` and imported on first use, so that ``import
cardtable`` loads none of them. It names nothing above the rules: the bots, the hints, the
terminal and the tutorials find their own module of a game by its package's name
(:attr:`Descriptor.package`, :mod:`cardtable.parts`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from enum import StrEnum

    from cardtable.core import Game, Result

__all__ = ["Descriptor", "load"]


def load(target: str) -> Any:
    """The module ``"package.module"``, or the attribute ``"package.module:name"`` of it."""
    module, _, attribute = target.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


@dataclass(frozen=True, slots=True)
class Descriptor:
    """One game's facts, for the code that plays every game."""

    name: str
    """The name :func:`cardtable.make` takes, and records, views and the protocol carry."""
    title: str
    """The name people read."""
    game: str
    """The :class:`~cardtable.core.Game` class, ``"module:Class"``."""
    core: str
    """The game's class in the compiled core (``cardtable._core``)."""
    reasons: str
    """The enum of the game's refusal codes (:mod:`cardtable.refusals`), ``"module:Enum"``."""
    stake: Literal["win", "fool"]
    """What a seat plays for, which sets the returns (:class:`cardtable.core.Result`): to
    win (the winner +1, the others -1/(n-1)) or not to be the fool (the fool -1, the others
    +1/(n-1))."""
    partnership: int | None
    """The number of players at which two partners play against two (+1 and -1 a side)."""
    next_dealer: Literal["left", "fool"]
    """Who deals the next game at a table: the player on the dealer's left, or the fool
    (the same dealer after a draw)."""
    variants: tuple[str, ...]
    """The options this game alone has (besides ``players`` and ``dealer``)."""
    sessions: bool
    """Whether the terminal plays it as a session of hands (``--hands``)."""
    solver_model: str | None
    """How the core's exact solver takes the other seats by default (``max-n`` or
    ``paranoid``); ``None``: the game has no solver."""
    max_n_players: int | None
    """The most players the solver's max-n is defined for (more: paranoid); ``None``: any."""
    solves_endgame_only: bool
    """Whether the solver needs the stock empty (the endgame) before it solves."""
    hint_unit: str
    """The unit a hint values actions in."""
    hint_judge: str | None
    """The solver's model that values a hint's actions (PIMC); ``None``: ``hard``'s search
    values them (to the end of the deal where deals are scored alone, ``per_deal``)."""
    hint_given_to_beat: tuple[str, ...]
    """The verbs of the actions that give a card to the next player to beat (a lead and a
    cover, KRYT-4.1, KRYT-4.2 (a)): no card does another's job there (a higher card is
    harder to beat), so a tie among them goes to the analysis's highest value, not to the
    card kept least."""
    arena_metric: Literal["win", "score", "fool"]
    """What a seat's game is measured by when bots are compared: whether it won, its score,
    or whether it was the fool."""
    per_deal: bool
    """Whether its deals are scored on their own (the core's ``Guided::DEAL_HORIZON``): the
    arena can measure it deal by deal (one deal a game), and the hints' analysis values its
    actions by the deal (:mod:`cardtable.analysis`)."""
    view: str
    """The ``TypedDict`` of a seat's view ("module:attr"), the one schema of the view."""

    @property
    def package(self) -> str:
        """The name of the game's rules package (``cardtable.rules.<package>``), which each
        layer above the rules gives its module of the game (:mod:`cardtable.parts`)."""
        return self.game.partition(":")[0].split(".")[2]

    def game_class(self) -> type[Game]:
        cls: type[Game] = load(self.game)
        return cls

    def reason_codes(self) -> type[StrEnum]:
        codes: type[StrEnum] = load(self.reasons)
        return codes

    def return_range(self, players: int) -> tuple[float, float]:
        """The returns of a loss and of a win (zero-sum, +1 to the winners' side)."""
        if self.stake == "fool":  # the fool -1, each of the others +1/(n-1)
            return -1.0, 1.0 / (players - 1)
        if players == self.partnership:  # two partners against two
            return -1.0, 1.0
        return -1.0 / (players - 1), 1.0

    def fool_of(self, result: Result) -> int | None:
        """The seat a finished game left the fool: of a game with a fool, the one seat
        alone in the last place; None after a draw (the last cards went out together) or
        in a game without one."""
        if self.stake != "fool" or len(result.places) < 2 or len(result.places[-1]) != 1:
            return None
        return result.places[-1][0]

    def dealer_after(self, dealer: int, players: int, fool: int | None) -> int:
        """Who deals the next game, after one dealt by ``dealer`` that left ``fool`` the
        fool (``None``: a draw, or a game without one)."""
        if self.next_dealer == "fool":
            return dealer if fool is None else fool
        return (dealer + 1) % players

    def solver_model_for(self, players: int) -> str:
        """The solver's default model with ``players`` players."""
        assert self.solver_model is not None, f"{self.title} has no exact solver"
        if self.max_n_players is not None and players > self.max_n_players:
            return "paranoid"
        return self.solver_model
