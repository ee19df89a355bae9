"""The rules layer: one package per game, pure (no I/O, no global randomness).

Register a new game in :data:`cardtable.GAMES`. The folder is ``rules`` rather than
``games`` so that it never shadows the :func:`cardtable.games` function.
"""
