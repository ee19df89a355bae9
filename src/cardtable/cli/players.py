"""``cardtable forget-player``: an operator removes what the server stores of a player
(docs/hosting.md, "What is stored about a player")."""

from __future__ import annotations

from typing import Annotated

import typer

from cardtable.cli.common import DATA_ERROR, _fail

__all__ = ["forget_player"]


def forget_player(
    player: Annotated[
        str, typer.Argument(help="The player's id (the end of their page's address).")
    ],
    database: Annotated[
        str | None,
        typer.Option(
            help="The server's database, as `cardtable serve --database` names it; default: "
            "CARDTABLE_DATABASE_URL, else the SQLite file in your data directory."
        ),
    ] = None,
) -> None:
    """Remove a player's name, device keys, passkeys and ratings; their games stay, as guests'."""
    from cardtable.cli.serve import _check_database
    from cardtable.server.app import default_database_url
    from cardtable.server.players import remove_player
    from cardtable.server.store import Store

    url = database or default_database_url()
    shown = _check_database(url)
    store = Store(url)
    try:
        if not remove_player(store, player):
            _fail(f"{shown} has no player {player!r}", DATA_ERROR)
    finally:
        store.engine.dispose()
    typer.echo(f"removed player {player} from {shown}")
