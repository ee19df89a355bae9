"""Why the rules refuse an action: a reason code and its details, for every game.

Each game lists its codes as a small string enum beside its rules (``refusals.py`` in each
game's package), each code named from the SPEC rule it enforces; a refused
:meth:`cardtable.core.State.apply` carries one in its
:class:`~cardtable.errors.IllegalActionError` (``reason``, ``details``). The codes are part
of the server's protocol (docs/server.md) and each has a sentence in every locale of the web
table and in the terminal, so they only ever grow: a code once published keeps its meaning.

The reason is worked out only once an action has been refused, from the state as it is; a
legal action never pays for it. Its details speak only of the mover's own hand and of what is
public, so an error says nothing its receiver may not see.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["GAME_OVER", "NOT_LEGAL", "NOT_YOUR_TURN", "Refusal"]

# Every game has these two, from its state machine (NEUF-10, KRYT-10, KOW-10): one actor at a
# time, and no action once the game is over.
NOT_YOUR_TURN = "not_your_turn"
GAME_OVER = "game_over"
# A refusal no rule of the game explains: a state whose legality and reasons disagree (the
# conformance suite's deliberately broken engines) still refuses, with this code.
NOT_LEGAL = "not_legal"


class Refusal(NamedTuple):
    """One refusal: the code and what it is about (cards and suits in notation)."""

    reason: str
    details: dict[str, str | int]
