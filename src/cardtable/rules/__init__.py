"""The rules layer: one package per game, pure (no I/O, no global randomness).

Each game is known by its descriptor in :mod:`cardtable.rules.catalog`. The folder is
``rules`` rather than ``games`` so that it never shadows the :func:`cardtable.games`
function.
"""
