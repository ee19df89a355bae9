"""OpenSkill ratings (the Plackett-Luce model) from the games' places.

Each finished game updates every entry that played in it, in game-index order, so the
ratings do not depend on the order in which a backend happened to finish the games. An
entry's rank in a game is its seat's place (0 best, ties shared); an entry that held
several seats (fewer bots than seats) ranks by the mean of their places. ``ordinal`` is
``mu - 3·sigma``, a cautious estimate that orders the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from cardtable.arena.match import GameOutcome

__all__ = ["Rating", "rate"]


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate(
    outcomes: Iterable[GameOutcome], entries: Sequence[str], *, tau: float | None = None
) -> dict[str, Rating]:
    """Every entry's rating after the finished games among ``outcomes``. ``tau`` is the
    model's drift, added to each entry's uncertainty at every game (OpenSkill's default
    when ``None``, 25/300): 0 for bots whose strength does not change, so that every game
    counts alike and the uncertainty keeps narrowing."""
    model = PlackettLuce() if tau is None else PlackettLuce(tau=tau)
    ratings = {entry: model.rating(name=entry) for entry in entries}
    for outcome in sorted(outcomes, key=lambda o: o.index):
        if not outcome.ok:
            continue
        places = outcome.entry_places()
        if len(places) < 2:
            continue  # one entry on every seat: nothing to compare
        names = list(places)
        updated = model.rate([[ratings[n]] for n in names], ranks=[places[n] for n in names])
        for name, (rating,) in zip(names, updated, strict=True):
            ratings[name] = rating
    return {entry: Rating(r.mu, r.sigma) for entry, r in ratings.items()}
