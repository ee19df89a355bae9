"""``cardtable replay`` and ``cardtable verify``: a saved game shown again, a web table's
record checked against its commitment."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

import cardtable
from cardtable.cli.common import DATA_ERROR, _console, _fail, _is_session
from cardtable.session import Session
from cardtable.terminal import screen_for
from cardtable.terminal.cards import counted
from cardtable.terminal.session import replay_record, replay_session


def replay(
    file: Annotated[
        Path,
        typer.Argument(help="A record or a session saved by 'cardtable play --record'."),
    ],
    step: Annotated[
        bool | None,
        typer.Option(
            "--step/--no-step",
            help="Wait for Enter between actions (the default when stdin is a terminal).",
        ),
    ] = None,
) -> None:
    """Step through a saved game, showing each action and the table."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}", DATA_ERROR)
    console = _console()
    read_step = sys.stdin.isatty() if step is None else step
    if _is_session(text):
        try:
            session = Session.from_json(text)
        except ValueError as exc:
            _fail(f"{file} is not a playable session: {exc}", DATA_ERROR)
        replay_session(console, session, step=read_step, read_line=console.input)
        return
    try:
        record = cardtable.load_record(text)
        screen_for(record.game)
        replay_record(
            console,
            record,
            step=read_step,
            read_line=console.input,
        )
    except ValueError as exc:
        _fail(f"{file} is not a playable record: {exc}", DATA_ERROR)


def verify(
    file: Annotated[
        Path,
        typer.Argument(
            help="A finished game's record from a web table (its replay, or the record in it)."
        ),
    ],
) -> None:
    """Check a finished web-table game's deals against its commitment and players' seeds."""
    from cardtable.fairness import verify_record

    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}", DATA_ERROR)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        _fail(f"{file} is not JSON (truncated?): {exc}", DATA_ERROR)
    # The table's replay document holds the record under "record".
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        data = data["record"]
    try:
        verified = verify_record(data)
    except ValueError as exc:
        _fail(f"{file} does not verify: {exc}", DATA_ERROR)
    reshuffles = f" and {counted(verified.reshuffles, 'reshuffle')}" if verified.reshuffles else ""
    source = f"the server seed (commitment {verified.commitment[:16]}…)"
    if verified.covers_dealer:
        source += f", the players' seeds and the first dealer (seat {data['options']['dealer']})"
        caveat = ": every card went to the seat the seeds put it"
    else:
        source += " and the players' seeds"
        caveat = (
            "; this game was dealt before the deals named their dealer, so the proof covers "
            "the decks alone, not which seat each hand went to"
        )
    _console().print(
        f"verified: {verified.game}, {counted(verified.decks, 'deck')}{reshuffles} derived "
        f"from {source}{caveat}",
        highlight=False,
    )
