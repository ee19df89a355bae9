"""Ratings, a player's history and the leaderboards (docs/server.md, "Players").

A finished game rates the people and bots who played it, in the very transaction that
stores its ``over`` event (:func:`rate_finished`, the store's ``finished`` hook): a game is
rated once or, if its end is not stored, not at all, however often a write is retried and
whichever server process stores it. The model is OpenSkill's Plackett-Luce, as the arena
rates bots (``cardtable.arena.ratings``): each seat ranks by its place in the game, ties
shared. A player is rated by their own row. A bot plays at its level's rating as the round
robin of the levels measured it over thousands of games (``cardtable.bots.ratings``, the
lobby's scale), and is not moved by the few games it plays here: the levels are the fixed
marks on one scale with the people, so that "you ≈ hard" means something. A guest (a seat
no player claimed) plays as a newcomer whose rating is kept nowhere. A player on two seats of
one table ranks by the mean of their places. A game rates only if at least one of its seats
is a player's: bots among themselves and guests are not the ladder's business.

A player's history is read from what every seat may see once a game is over: the tables'
public rows, the seats' names and the games' ``over`` events (results, and whether the deals
were committed to, so that the page's fairness check can prove them). Nothing a seat held
hidden during play is read.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, desc, func, insert, select, update
from sqlalchemy.orm import Session

from cardtable.bots.base import LEVELS
from cardtable.bots.ratings import level_ratings
from cardtable.server.players import PlayerRow, RatingRow
from cardtable.server.store import EventRow, SeatRow, Store, TableRow

__all__ = [
    "HISTORY",
    "LEADERS",
    "Standing",
    "history",
    "leaderboard",
    "levels",
    "nearest_level",
    "rate_finished",
    "ratings_of",
    "unfinished",
]

HISTORY = 100  # the most finished games a player's page lists, newest first
LEADERS = 100  # the most players a leaderboard lists
BOT = "bot:"

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Standing:
    """A rating as a page shows it: ``ordinal`` (mu - 3 sigma) orders a leaderboard, a
    cautious estimate that a newcomer's wide uncertainty keeps low."""

    who: str
    game: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def describe(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 3),
            "games": self.games,
        }


def rate_finished(connection: Connection, table_id: str, overs: Sequence[dict[str, Any]]) -> None:
    """Rate the games whose ``over`` events are being stored at ``table_id``, in the
    transaction of ``connection`` (which stores them)."""
    seats = connection.execute(
        select(SeatRow.seat, SeatRow.kind, SeatRow.level, SeatRow.player_id)
        .where(SeatRow.table_id == table_id)
        .order_by(SeatRow.seat)
    ).all()
    if not any(player_id for *_, player_id in seats):
        return
    game = connection.scalar(select(TableRow.game).where(TableRow.id == table_id))
    whos: list[str | None] = [
        player_id or (BOT + level if kind == "bot" and level else None)
        for _, kind, level, player_id in seats
    ]
    for over in overs:
        _rate(connection, str(game), whos, over["result"]["places"])


def _rate(
    connection: Connection, game: str, whos: list[str | None], places: list[list[int]]
) -> None:
    place_of = {seat: place for place, tied in enumerate(places) for seat in tied}
    # Entries: each player or bot level once (its seats' mean place), each guest apart.
    entries: dict[str, list[int]] = {}
    for seat, who in enumerate(whos):
        entries.setdefault(who or f"guest:{seat}", []).append(place_of[seat])
    if len(entries) < 2:
        return
    kept = sorted(who for who in entries if not who.startswith(("guest:", BOT)))
    read = select(RatingRow).where(RatingRow.game == game, RatingRow.who.in_(kept))
    if connection.dialect.name == "postgresql":
        # Two processes rating two games of one player at once: the second waits for the
        # first's commit and rates from its result (rows locked in one order: no deadlock).
        read = read.order_by(RatingRow.who).with_for_update()
    stored = {row.who: row for row in connection.execute(read)}
    names = list(entries)
    marks = level_ratings(game)
    before = []
    for who in names:
        level = marks.get(who.removeprefix(BOT)) if who.startswith(BOT) else None
        if who in stored:
            before.append(_MODEL.rating(mu=stored[who].mu, sigma=stored[who].sigma))
        elif level is not None:
            before.append(_MODEL.rating(mu=level["mu"], sigma=level["sigma"]))
        else:
            before.append(_MODEL.rating())  # a newcomer, or a level not measured yet
    ranks = [sum(entries[who]) / len(entries[who]) for who in names]
    after = _MODEL.rate([[rating] for rating in before], ranks=ranks)
    now = time.time()
    for who, (rating,) in zip(names, after, strict=True):
        if who.startswith(("guest:", BOT)):
            continue
        if who in stored:
            connection.execute(
                update(RatingRow)
                .where(RatingRow.who == who, RatingRow.game == game)
                .values(mu=rating.mu, sigma=rating.sigma, games=stored[who].games + 1, updated=now)
            )
        else:
            connection.execute(
                insert(RatingRow).values(
                    who=who, game=game, mu=rating.mu, sigma=rating.sigma, games=1, updated=now
                )
            )


def ratings_of(store: Store, who: str) -> list[Standing]:
    """``who``'s rating in each game they have played, by game."""
    with Session(store.engine) as session:
        rows = session.scalars(
            select(RatingRow).where(RatingRow.who == who).order_by(RatingRow.game)
        )
        return [_standing(row) for row in rows]


def levels(game: str) -> list[Standing]:
    """The bots' levels' ratings in ``game`` (the round robin's), strongest first."""
    marks = [
        Standing(BOT + level, game, rating["mu"], rating["sigma"], rating["games"])
        for level, rating in level_ratings(game).items()
    ]
    return sorted(marks, key=lambda s: -s.ordinal)


def leaderboard(store: Store, game: str, limit: int = LEADERS) -> list[dict[str, Any]]:
    """The players of ``game`` by rating (its ordinal), best first, with the bots' levels
    among them where they stand: each ``rank`` (players only), ``player`` (or ``level``),
    ``name`` and the rating."""
    ordinal = RatingRow.mu - 3 * RatingRow.sigma
    with Session(store.engine) as session:
        rows = session.execute(
            select(RatingRow, PlayerRow.name)
            .join(PlayerRow, PlayerRow.id == RatingRow.who)
            .where(RatingRow.game == game)
            .order_by(desc(ordinal), RatingRow.who)
            .limit(limit)
        ).all()
    players = [
        {"rank": rank, "player": row.who, "name": name, **_standing(row).describe()}
        for rank, (row, name) in enumerate(rows, 1)
    ]
    bots = [{"level": s.who.removeprefix(BOT), **s.describe()} for s in levels(game)]
    return sorted(players + bots, key=lambda entry: -entry["ordinal"])


def nearest_level(standing: Standing, bots: Sequence[Standing]) -> str | None:
    """The table's bots' level whose rating is nearest ``standing``'s (by mu), if any is
    rated (random play, which marks the scale's bottom, is no level one plays at)."""
    seated = [s for s in bots if s.who.removeprefix(BOT) in LEVELS]
    if not seated:
        return None
    return min(seated, key=lambda s: abs(s.mu - standing.mu)).who.removeprefix(BOT)


def history(store: Store, player_id: str, limit: int = HISTORY) -> list[dict[str, Any]]:
    """The player's finished games, newest first: each game's table, number, game, options,
    when it ended, every seat as all see it (its name, whether a bot and at what level),
    the player's seat and place, the result, and whether its deals were committed to."""
    with Session(store.engine) as session:
        mine = _held(session, player_id)
        if not mine:
            return []
        overs = session.execute(
            select(EventRow.table_id, EventRow.data, EventRow.created)
            .where(EventRow.table_id.in_(list(mine)), EventRow.kind == "over")
            .order_by(desc(EventRow.created), EventRow.table_id, desc(EventRow.seq))
            .limit(limit)
        ).all()
        ids = sorted({table_id for table_id, _, _ in overs})
        tables = {
            row.id: row for row in session.scalars(select(TableRow).where(TableRow.id.in_(ids)))
        }
        seats = _seats_of(session, ids)
    games = []
    for table_id, data, created in overs:
        over = json.loads(data)
        result = over["result"]
        seat = mine[table_id]
        place = next(i for i, tied in enumerate(result["places"]) if seat in tied)
        table = tables[table_id]
        games.append(
            {
                "table": table_id,
                "number": over["game"],
                "game": table.game,
                "options": json.loads(table.options),
                "ended": created,
                "seats": seats[table_id],
                "seat": seat,
                "place": place,
                "tied": len(result["places"][place]) > 1,
                "won": seat in result["winners"],
                "summary": result["summary"],
                "fair": "server_seed" in over,
            }
        )
    return games


def unfinished(store: Store, player_id: str, limit: int = HISTORY) -> list[dict[str, Any]]:
    """The tables where the player's seat is and whose game is not over (the last event
    is no game's end), the latest moved first: each table, game, seat, the seats as all
    see them, and when it last moved. Quarantined tables are left out (they serve nobody)."""
    with Session(store.engine) as session:
        mine = _held(session, player_id)
        if not mine:
            return []
        last = (
            select(EventRow.table_id, func.max(EventRow.seq).label("seq"))
            .where(EventRow.table_id.in_(list(mine)))
            .group_by(EventRow.table_id)
            .subquery()
        )
        rows = session.execute(
            select(EventRow.table_id, EventRow.created, TableRow.game)
            .join(last, (last.c.table_id == EventRow.table_id) & (last.c.seq == EventRow.seq))
            .join(TableRow, TableRow.id == EventRow.table_id)
            .where(EventRow.kind != "over", TableRow.quarantined.is_(None))
            .order_by(desc(EventRow.created))
            .limit(limit)
        ).all()
        ids = [table_id for table_id, _, _ in rows]
        seats = _seats_of(session, ids)
    return [
        {
            "table": table_id,
            "game": game,
            "seat": mine[table_id],
            "seats": seats[table_id],
            "moved": moved,
        }
        for table_id, moved, game in rows
    ]


def _held(session: Session, player_id: str) -> dict[str, int]:
    """The player's seat at each table they sat at."""
    rows = session.execute(
        select(SeatRow.table_id, SeatRow.seat).where(SeatRow.player_id == player_id)
    )
    return {table_id: int(seat) for table_id, seat in rows}


def _seats_of(session: Session, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each table's seats as every seat sees them: names, bots' levels, players."""
    seats: dict[str, list[dict[str, Any]]] = {table_id: [] for table_id in ids}
    for row in session.scalars(
        select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
    ):
        seats[row.table_id].append(
            {
                "seat": row.seat,
                "kind": row.kind,
                "name": row.name,
                "level": row.level,
                "player": row.player_id,
            }
        )
    return seats


def _standing(row: RatingRow) -> Standing:
    return Standing(row.who, row.game, row.mu, row.sigma, row.games)
