"""``python -m cardtable.cli`` runs the ``cardtable`` command."""

from cardtable.cli import app

app(prog_name="cardtable")
