"""The number each game gives each seat, by game: what the arena averages per bot.

- Knockout Whist: 1 for the winner, 0 otherwise (the win rate).
- Neuf: the seat's side's final score (lower is better; a team's two seats share it).
- Neuf, one deal per game (``per_deal``): the score the seat's side gained in that deal,
  ``-(t - quota)`` for ``t`` tricks (NEUF-5.2: 4 - t for three players; NEUF-8.4: 6 - t
  for a team of two, both partners alike). Lower is better.
- Kryt'-navalivat': 1 for the fool, 0 otherwise, a draw counting 0 (the loss rate).

A game without a descriptor is measured by its result's winners, like Knockout Whist.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.core import Result, State
from cardtable.rules.catalog import DESCRIPTORS
from cardtable.rules.neuf.ledger import START_SCORE
from cardtable.rules.neuf.state import NeufState

__all__ = [
    "PER_DEAL",
    "Metric",
    "deal_gains",
    "deal_result",
    "deal_scored",
    "metric_for",
    "seat_values",
]


@dataclass(frozen=True, slots=True)
class Metric:
    """A per-game number: ``name`` for tables, ``key`` for files, whether more is better,
    and whether it is a proportion (every value 0 or 1)."""

    name: str
    key: str
    higher_is_better: bool
    binary: bool


WIN_RATE = Metric("win rate", "win", higher_is_better=True, binary=True)
METRICS = {
    metric.key: metric
    for metric in (
        WIN_RATE,
        Metric("mean final score", "score", higher_is_better=False, binary=False),
        Metric("loss rate", "fool", higher_is_better=False, binary=True),
    )
}
"""The metrics by key: a game's descriptor names its own (``arena_metric``)."""
PER_DEAL = Metric("mean score gained per deal", "gain", higher_is_better=False, binary=False)
"""Neuf played one deal per game: the score a seat's side gains in the deal."""


def metric_for(game: str, per_deal: bool = False) -> Metric:
    known = DESCRIPTORS.get(game)
    return PER_DEAL if per_deal else WIN_RATE if known is None else METRICS[known.arena_metric]


def seat_values(state: State, per_deal: bool = False) -> list[float]:
    """The metric of each seat in a finished game, or (``per_deal``) in a Neuf game whose
    first deal is over."""
    if per_deal:
        return deal_gains(state)
    result = state.result
    if result is None:
        raise ValueError("the game is not over")
    players = state.game.num_players
    key = metric_for(state.game.name).key
    if key == "score":
        scores = state.view(None)["scores"]  # per side: three players, or two teams
        sides = len(scores)
        return [float(scores[seat % sides]) for seat in range(players)]
    if key == "fool":
        losers = {seat for seat in range(players) if seat not in result.winners}
        # A draw has no winners and no loser: nobody is the fool.
        fools = losers if result.winners else set()
        return [1.0 if seat in fools else 0.0 for seat in range(players)]
    return [1.0 if seat in result.winners else 0.0 for seat in range(players)]


# One deal of Neuf ------------------------------------------------------------------------------


def _neuf(state: State) -> NeufState:
    if not isinstance(state, NeufState):
        raise ValueError(f"only Neuf is measured deal by deal, not {state.game.name}")
    return state


def deal_scored(state: State) -> bool:
    """Whether a Neuf game's first deal is over: scored in the ledger (NEUF-5.2, a row on
    the score sheet), or the game ended within it (NEUF-8.3's house rule can end it on the
    last trick, unscored). The state then already holds the next deal's cards, dealt the
    moment the first was scored (NEUF-7)."""
    neuf = _neuf(state)
    return neuf.to_move is None or bool(neuf.ledger.rows)


def deal_gains(state: State) -> list[float]:
    """Each seat's side's score change over the first deal (NEUF-5.2: ``-(t - 4)``, or
    ``-(t - 6)`` for a team in the four-player game, NEUF-8.4; partners alike): the
    scores after the deal less the start (NEUF-5.1). When NEUF-8.3's house rule ends the
    game on the deal's last trick, the hand is abandoned: the winner's score falls by its
    surplus and the others' stay (decision N-7), as in the game's reported scores."""
    neuf = _neuf(state)
    if not deal_scored(neuf) or len(neuf.ledger.rows) > 1:
        raise ValueError("the state is not at the end of its first deal")
    scores = neuf.view(None)["scores"]  # per side: three players, or two teams
    sides = len(scores)
    return [float(scores[seat % sides] - START_SCORE) for seat in range(neuf.players)]


def deal_result(state: State) -> Result:
    """How a game of one deal ended, from what each side gained in it (lower is better):

    - ``places``: the seats by their side's gain, least first, equal gains sharing a place
      (a team's two seats always together);
    - ``winners``: the seats whose side gained least (two players can share it; in the
      four-player game 13 tricks cannot split evenly, so one team wins);
    - ``returns``: zero-sum like the whole game's (NEUF-6): 1 to each winner and
      ``-w/(n-w)`` to each of the other ``n-w`` seats;
    - ``summary``: the gains and the tricks."""
    neuf = _neuf(state)
    gains = deal_gains(neuf)
    n = neuf.players
    levels = sorted(set(gains))
    places = tuple(tuple(s for s in range(n) if gains[s] == level) for level in levels)
    winners = places[0]
    if len(winners) == n:  # everyone alike (13 tricks make it impossible): nothing moves
        returns = (0.0,) * n
    else:
        share = -len(winners) / (n - len(winners))
        returns = tuple(1.0 if s in winners else share for s in range(n))
    rows = neuf.ledger.rows
    tricks = rows[0].tricks if rows else neuf.ledger.side_tricks(neuf.tricks_won)
    sides = len(tricks)
    team = "team " if n == 4 else ""
    shown = ", ".join(f"{int(gains[side]):+d}" for side in range(sides))
    who = " and ".join(f"seat {s}" for s in winners)
    summary = (
        f"first deal: {team}tricks {', '.join(map(str, tricks))}, {team}score gained {shown}"
        f"; {who} {'gain' if len(winners) > 1 else 'gains'} least"
    )
    return Result(winners=winners, places=places, returns=returns, summary=summary)
