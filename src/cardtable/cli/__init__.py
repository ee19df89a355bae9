"""The ``cardtable`` command: play a game in the terminal against bots, or replay a record.

    cardtable play knockout-whist --players 4 --seed 7 --record game.json
    cardtable play neuf --trump-sequence SHDC-NT --tie-avoidance
    cardtable play kryt-navalivat --players 3 --trump-mode permanent --record session.json
    cardtable replay game.json --step
    cardtable verify replay.json
    cardtable arena knockout-whist --players 3 --bots hard,easy,random --games 2000 --workers 2
    cardtable arena neuf --bots hard,easy --games 2000 --per-deal --stop-when-separated 0.5
    cardtable review game.json --seat 0 --json review.json --chart review.png

Kryt'-navalivat' is played as a session of hands (the fool deals the next); its record
is the session file, which ``replay`` shows hand by hand.

Bad input (an unknown game, an option out of range, a truncated record) ends with a
one-line explanation on stderr and a non-zero exit status, never a traceback.

The commands are one module each (play, records: replay and verify, serve, arena, review),
with what they share in ``common``; this module puts them together into the one Typer app.
"""

from __future__ import annotations

import typer

from cardtable.cli import arena, hint, play, players, records, review, serve
from cardtable.cli.arena import split_bot_specs as split_bot_specs
from cardtable.cli.common import _Command, _Group
from cardtable.cli.serve import STOP_SECONDS as STOP_SECONDS

__all__ = ["app"]

app = typer.Typer(
    cls=_Group,
    help="Play Neuf, Kryt'-navalivat' and Knockout Whist: against bots in the terminal "
    "(play), or with friends and bots at the web table (serve); replay a saved game "
    "(replay), judge a seat's decisions in a finished game (review), ask for the hint at a "
    "position of a saved game (hint), rank bots against each other (arena), or remove what the "
    "web table stores of a player (forget-player).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


# In the order the help lists them.
app.command(cls=_Command)(play.play)
app.command(cls=_Command)(records.replay)
app.command(cls=_Command)(records.verify)
app.command(cls=_Command)(serve.serve)
app.command(cls=_Command, help=arena.ARENA_HELP)(arena.arena)
app.command(cls=_Command, name="review")(review.review_command)
app.command(cls=_Command, name="hint")(hint.hint_command)
app.command(cls=_Command, name="forget-player")(players.forget_player)
