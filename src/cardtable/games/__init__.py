"""One package per game. Register a new game in :data:`cardtable.GAMES`."""
