"""The errors cardtable raises. Every one is a ``ValueError`` and says what was wrong."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "CardtableError",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidBudgetError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidScoreError",
    "OutOfTurnError",
    "SolverBudgetError",
    "UnknownGameError",
]


class CardtableError(ValueError):
    """Base of every error about bad input to cardtable."""


class UnknownGameError(CardtableError):
    """No game of that name is registered."""


class InvalidOptionError(CardtableError):
    """An unknown option, or a known option with a value out of range."""


class InvalidCardError(CardtableError):
    """Card text that is not a card (``"11S"``, ``"X"``)."""


class InvalidActionError(CardtableError):
    """Action text that does not name an action of this game (``"jump 7D"``)."""


class IllegalActionError(CardtableError):
    """A well-formed action that the rules do not allow now. The message lists the legal ones.

    ``reason`` is the rules' code for why (the game's refusal enum, ``cardtable.refusals``:
    ``must_follow_suit``, ``cannot_beat``, …) and ``details`` what it is about,
    as JSON-ready text and numbers (cards and suits in notation: ``{"suit": "H"}``), for a
    client to say it in words in its own language. Both are worked out only when an action
    is refused; ``reason`` is ``None`` where no rule was named (a bare action number
    refused by an adapter)."""

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        details: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.details: dict[str, str | int] = dict(details or {})

    def __reduce__(self) -> tuple[object, ...]:
        # Keyword-only fields would be lost by the default pickling (worker processes).
        return _rebuild, (type(self), str(self), self.reason, self.details)


def _rebuild(
    kind: type[IllegalActionError], message: str, reason: str | None, details: dict[str, str | int]
) -> IllegalActionError:
    return kind(message, reason=reason, details=details)


class OutOfTurnError(IllegalActionError):
    """An action sent on behalf of a seat that is not the one to move."""


class GameOverError(IllegalActionError):
    """An action sent after the game has ended."""


class InvalidDeckError(CardtableError):
    """A stacked deck with missing, repeated or unknown cards."""


class InvalidRecordError(CardtableError):
    """A record that is truncated, malformed, of another version or does not replay."""


class InvalidScoreError(CardtableError):
    """Trick counts that cannot score a deal (they do not add up, or the game is over)."""


class InvalidPositionError(CardtableError):
    """Position text that does not describe a consistent state."""


class InvalidBudgetError(CardtableError):
    """Search settings that cannot run: no budget, or one that is not a positive number of
    iterations or seconds; an unknown rollout; no thread."""


class SolverBudgetError(CardtableError):
    """An exact solve that passed the node budget it was given before valuing every
    action: nothing is wrong with the position; it is too big for the budget."""
