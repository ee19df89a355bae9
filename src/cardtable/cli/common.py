"""What the ``cardtable`` command's parts share: the command class whose help shows no type
for a flag, the exit statuses, the console and the one-line failure."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup

import cardtable
from cardtable.core import Record
from cardtable.session import SESSION_FORMAT

if TYPE_CHECKING:
    from typer._click.core import Context, Parameter


USAGE_ERROR = 2  # the exit status Click gives to bad usage; bad options and names use it too
DATA_ERROR = 1
INTERRUPTED = 130  # the shell's status for a program stopped by Ctrl-C

GAME_HELP = "The game: " + ", ".join(sorted(cardtable.GAMES)) + "."


def _untyped_flags(params: list[Parameter]) -> list[Parameter]:
    """Flags take no value, so the help shows no type for them (Typer's rich help would
    write ``<bool>`` beside ``--help`` and every flag)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Context) -> list[Parameter]:
        return _untyped_flags(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Context) -> list[Parameter]:
        return _untyped_flags(super().get_params(ctx))


def _console() -> Console:
    # Piped output (tests, logs) gets plain text: no colour or cursor codes.
    plain = not sys.stdout.isatty()
    return Console(highlight=False, emoji=False, no_color=plain)


def _fail(message: str, status: int) -> NoReturn:
    Console(stderr=True, highlight=False, emoji=False, soft_wrap=True).print(
        f"cardtable: {message}", markup=False
    )
    raise typer.Exit(status)


def _one_record(file: Path, purpose: str) -> Record:
    """The one game's record saved in ``file``, or the command fails with a data error
    saying why (unreadable, a session of hands: ``purpose`` says what to give instead, not
    a record)."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}", DATA_ERROR)
    if _is_session(text):
        _fail(f"{file} is a session of hands; {purpose}", DATA_ERROR)
    try:
        return cardtable.load_record(text)
    except ValueError as exc:
        _fail(f"{file} is not a record: {exc}", DATA_ERROR)


def _is_session(text: str) -> bool:
    """Whether ``text`` is a saved session (several hands) rather than one game's record."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("format") == SESSION_FORMAT
