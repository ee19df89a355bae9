"""Terminal play: Rich drawings of a view and narration of the actions, one module per game.

Everything drawn here comes from views (``state.view(seat)``), so the terminal shows a
player exactly what the rules let that seat know (DESIGN.md, "Views").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich.console import RenderableType

from cardtable.core import Action, View
from cardtable.errors import UnknownGameError
from cardtable.parts import has_part, part
from cardtable.rules.catalog import DESCRIPTORS

__all__ = ["GameScreen", "screen_for"]


class GameScreen(Protocol):
    """How one game looks and reads in the terminal.

    ``names`` gives each seat's label (``"seat 0 (you)"``); text returned as ``str`` is
    Rich markup.
    """

    def table(self, view: View, names: Sequence[str]) -> RenderableType:
        """The table as ``view`` shows it: public facts and, for a seat, its own hand."""
        ...

    def action_text(self, action: Action) -> str:
        """An action for a menu, with the card in colour (``play 7♦``)."""
        ...

    def opening(self, view: View, names: Sequence[str]) -> list[str]:
        """Lines announcing the hand that ``view`` has just begun."""
        ...

    def narrate(
        self, before: View, seat: int, action: Action, after: View, names: Sequence[str]
    ) -> list[str]:
        """Lines telling what ``seat``'s ``action`` did, from the public facts around it."""
        ...

    def result(self, view: View, names: Sequence[str]) -> list[str]:
        """Lines giving the winner and the order players went out."""
        ...

    def shorthand(self, text: str) -> str | None:
        """The full action text a short entry stands for (``"7d"`` -> ``"play 7d"``).

        A bare card that names exactly one legal action is read as that action before
        this is asked (:func:`cardtable.terminal.session.read_entry`). A screen may also
        have ``explain(text, view) -> str | None``: why an entry cannot be played now, and
        ``commands``: ``(form, meaning)`` pairs, its actions as ``help`` explains them.
        """
        ...

    def milestone(self, before: View, after: View) -> bool:
        """Whether the step from ``before`` to ``after`` closed a trick or began a hand."""
        ...


def screen_for(game_name: str) -> GameScreen:
    """The terminal screen for a game; :class:`UnknownGameError` if it has none."""
    if game_name not in DESCRIPTORS or not has_part("terminal", game_name):
        raise UnknownGameError(f"there is no terminal table for {game_name!r} yet")
    screen: GameScreen = part("terminal", game_name).SCREEN()  # loaded when it is played
    return screen
