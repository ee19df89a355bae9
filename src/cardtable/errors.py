"""The errors cardtable raises. Every one is a ``ValueError`` and says what was wrong."""

from __future__ import annotations

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
    """A well-formed action that the rules do not allow now. The message lists the legal ones."""


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
