"""``python -m cardtable`` runs the ``cardtable`` command."""

from cardtable.cli import app

app(prog_name="cardtable")
