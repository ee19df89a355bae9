"""Reviews of finished games at the web table: "Review my game" (docs/server.md, "Game
reviews"; docs/review.md).

A seated player asks for the review of one of the table's finished games. The seat's
decisions are found by replaying the game on the event loop (cheap); each is judged from
the seat's view alone in the hint workers, one after another, the seat hearing of the
progress after each. The finished review is stored with the table (``reviews`` rows) and
sent again, at once, whenever the seat asks for it after that, restarts included.

A review goes to its own seat alone, and only once the game is over: until then the
seat's decisions, and the better ones, are nobody else's business, and after it the
review still says which cards the seat's opponents might have held.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import random
import time
import weakref
from dataclasses import asdict
from functools import partial
from typing import Any, ClassVar

from sqlalchemy import Float, ForeignKey, Integer, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column

import cardtable
from cardtable.core import View
from cardtable.review import (
    REVIEW_VERSION,
    Decision,
    Review,
    ReviewError,
    budget_of,
    decision_seed,
    judge,
    moments,
)
from cardtable.server.commits import UNAVAILABLE, UnavailableError
from cardtable.server.hub import Hub
from cardtable.server.logs import bounded
from cardtable.server.seats import seated
from cardtable.server.sockets import Connection
from cardtable.server.store import WAIT, Base, Store, StoredDataError
from cardtable.server.table import Run, Table, TableError

__all__ = [
    "REVIEW_LEVEL",
    "ReviewRow",
    "Reviewer",
    "check_review_level",
    "judge_turn",
    "review_level",
]

log = logging.getLogger("cardtable.server")

REVIEW_LEVEL = "expert"
"""The analysis's budget for a table's games, unless ``CARDTABLE_REVIEW_LEVEL`` names
another (``cardtable.review.budget_of``: ``analysis:deals=8,iterations=300`` for quick
tests)."""


def review_level() -> str:
    return os.environ.get("CARDTABLE_REVIEW_LEVEL") or REVIEW_LEVEL


def check_review_level() -> None:
    """``ValueError`` naming ``CARDTABLE_REVIEW_LEVEL`` when it names no review budget."""
    try:
        budget_of(review_level())
    except ReviewError as exc:
        raise ValueError(f"CARDTABLE_REVIEW_LEVEL: {exc}") from None


class ReviewRow(Base):
    """One seat's review of one game of a table (``Review.to_dict()`` as JSON)."""

    __tablename__ = "reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    level: Mapped[str] = mapped_column(String(64))
    data: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)


def save_review(
    store: Store, table_id: str, game: int, seat: int, done: dict[str, Any], wait: float = WAIT
) -> None:
    """Store a seat's review (again: the one stored before is replaced). ``wait``: as
    :meth:`Store.writing`'s."""
    with store.writing(wait) as session:
        session.merge(
            ReviewRow(
                table_id=table_id,
                game=game,
                seat=seat,
                level=str(done["level"]),
                data=json.dumps(done),
                created=time.time(),
            )
        )


def load_review(store: Store, table_id: str, game: int, seat: int) -> dict[str, Any] | None:
    with Session(store.engine) as session:
        data = session.scalars(
            select(ReviewRow.data).where(
                ReviewRow.table_id == table_id, ReviewRow.game == game, ReviewRow.seat == seat
            )
        ).first()
    if data is None:
        return None
    where = f"review of game {game}, seat {seat}"
    try:
        loaded = json.loads(data)
    except json.JSONDecodeError as exc:
        raise StoredDataError(f"{where}: not JSON ({exc.msg}, at character {exc.pos})") from None
    if not isinstance(loaded, dict):
        raise StoredDataError(f"{where}: not a JSON object")
    return loaded


def checked_review(done: dict[str, Any], game_name: str, seat: int) -> dict[str, Any]:
    """A stored review of this version as it is sent (read and written again, so that one
    stored before a field was added gets it); :class:`StoredDataError` naming what does
    not fit, for one this server did not write (damaged, or of another game or seat)."""
    try:
        read = Review.from_dict(done)
    except (ReviewError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StoredDataError(f"review of seat {seat}: {type(exc).__name__}: {exc}") from None
    if read.game != game_name or read.seat != seat:
        raise StoredDataError(f"review of seat {seat}: of {read.game}, seat {read.seat}")
    return read.to_dict()


def judge_turn(
    game_name: str,
    options: dict[str, Any],
    level: str,
    view: View,
    chosen: str,
    index: int,
    seed: int,
) -> dict[str, Any]:
    """One decision of a review, judged from the seat's ``view`` alone (a worker's task)."""
    game = cardtable.make(game_name, **options)
    return asdict(judge(game, view, chosen, index, budget_of(level), random.Random(seed)))


class Reviewer:
    """The reviews of one hub's tables: those under way, and the asking for them."""

    _of: ClassVar[weakref.WeakKeyDictionary[Hub, Reviewer]] = weakref.WeakKeyDictionary()

    def __init__(self, hub: Hub, level: str) -> None:
        self.hub = hub
        self.level = level
        # (table, seat) -> (game, decisions judged, decisions in all) of its review under way.
        self.running: dict[tuple[str, int], tuple[int, int, int]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        # Reviews of tables that are not stored (tutorials): kept here while the server runs.
        self.kept: dict[tuple[str, int, int], dict[str, Any]] = {}
        # Reviews made that the database would not take in time: stored when asked again,
        # rather than made again (a review searches for long).
        self.unstored: dict[tuple[str, int, int], dict[str, Any]] = {}

    @classmethod
    def of(cls, hub: Hub) -> Reviewer:
        """The hub's reviewer, made on first use."""
        reviewer = cls._of.get(hub)
        if reviewer is None:
            reviewer = cls._of[hub] = cls(hub, review_level())
        return reviewer

    async def ask(self, connection: Connection, game: int) -> None:
        """The seat's review of game ``game``: sent at once if made before, else begun (the
        answer is its first ``review_progress``) or, if under way, its progress so far."""
        seat = seated(connection)
        table = connection.table
        if not 1 <= game <= table.games:
            raise TableError("no_game", f"this table has played games 1-{table.games}")
        run = await self.hub.finished_run(table, game)
        made = self.unstored.get((table.id, game, seat))
        if made is not None:
            if await self._store(table, game, seat, made):
                connection.send({"type": "review", "game": game, "review": made})
            else:
                connection.send(_unstored(game))
            return
        try:
            done = await self._stored(table, game, seat)
            if done is not None and done.get("version") != REVIEW_VERSION:
                done = None  # judged by an earlier version's search, in its units: made again
            if done is not None:
                again = checked_review(done, table.game_name, seat)
                connection.send({"type": "review", "game": game, "review": again})
                return
        except StoredDataError as exc:
            # Checked as a table's rows are: one this server did not write is made again
            # (and stored in its place), never sent.
            log.warning(
                "stored review set aside; made again",
                extra={"table": table.id, "game": game, "seat": seat, "reason": bounded(str(exc))},
            )
        under_way = self.running.get((table.id, seat))
        if under_way is not None:
            if under_way[0] != game:
                raise TableError(
                    "review_busy", f"this seat's review of game {under_way[0]} is under way"
                )
            connection.send(_progress(*under_way))
            return
        _end, turns = moments(run.state.record(), seat)
        self.running[(table.id, seat)] = (game, 0, len(turns))
        connection.send(_progress(game, 0, len(turns)))
        views = [(index, state.view(seat), chosen) for index, state, chosen in turns]
        task = asyncio.get_running_loop().create_task(self._review(table, run, game, seat, views))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _stored(self, table: Table, game: int, seat: int) -> dict[str, Any] | None:
        if not table.stored:
            return self.kept.get((table.id, game, seat))
        return await asyncio.to_thread(load_review, self.hub.store, table.id, game, seat)

    async def _review(
        self, table: Table, run: Run, game: int, seat: int, views: list[tuple[int, View, str]]
    ) -> None:
        result = run.state.result
        assert result is not None  # ask() checked the game is over
        options = run.state.game.options
        seed = _seed(table.id, game, seat)
        loop = asyncio.get_running_loop()
        key = (table.id, seat)
        try:
            decisions = []
            for count, (index, view, chosen) in enumerate(views, 1):
                decisions.append(
                    await loop.run_in_executor(
                        self.hub.hint_executor,
                        judge_turn,
                        table.game_name,
                        options,
                        self.level,
                        view,
                        chosen,
                        index,
                        decision_seed(seed, index),
                    )
                )
                self.running[key] = (game, count, len(views))
                if count < len(views):
                    self._tell(table, seat, _progress(game, count, len(views)))
            made = Review(
                table.game_name,
                options,
                seat,
                self.level,
                seed,
                list(result.returns),
                [Decision.from_dict(d) for d in decisions],
            ).to_dict()
            log.info("game reviewed", extra={"table": table.id, "seat": seat, "game": game})
            if await self._store(table, game, seat, made):
                self._tell(table, seat, {"type": "review", "game": game, "review": made})
            else:
                self._tell(table, seat, _unstored(game))
        except Exception:
            log.exception("review failed", extra={"table": table.id, "seat": seat})
            self._tell(table, seat, _failed(game, "server_error", "failed"))
        finally:
            self.running.pop(key, None)

    async def _store(self, table: Table, game: int, seat: int, made: dict[str, Any]) -> bool:
        """Keep a review made: stored with its table, retried as a move's commit is (a
        tutorial's in memory). Whether it was kept; one the database would not take in time
        is kept in memory until the seat asks again (:meth:`ask`)."""
        key = (table.id, game, seat)
        if not table.stored:
            self.kept[key] = made
            return True
        try:
            await self.hub.writer.patiently(
                partial(save_review, self.hub.store, table.id, game, seat, made),
                self.hub.writer.aside,
            )
        except UnavailableError:  # the writer logged it: no traceback for a busy database
            self.unstored[key] = made
            log.warning(
                "review not stored; kept until asked again",
                extra={"table": table.id, "seat": seat, "game": game},
            )
            return False
        self.unstored.pop(key, None)
        return True

    def _tell(self, table: Table, seat: int, message: dict[str, Any]) -> None:
        """Send to the seat's own connections alone: a review is nobody else's."""
        for connection in self.hub.connections.get(table.id, ()):
            if connection.joined and connection.seat == seat:
                connection.send(message)


def _failed(game: int, code: str, why: str) -> dict[str, Any]:
    """The seat's review of ``game`` is not coming: it may ask for it again."""
    return {
        "type": "review_failed",
        "game": game,
        "code": code,
        "message": f"the review of game {game} {why}; ask again",
    }


def _unstored(game: int) -> dict[str, Any]:
    return _failed(game, UNAVAILABLE, "is made, but the database is busy and did not store it")


def _progress(game: int, done: int, total: int) -> dict[str, Any]:
    return {"type": "review_progress", "game": game, "done": done, "total": total}


def _seed(table_id: str, game: int, seat: int) -> int:
    """A review's seed, fixed by the table, the game and the seat: asked again, the same."""
    digest = hashlib.sha256(f"{table_id}:review:{game}:{seat}".encode()).digest()
    return int.from_bytes(digest[:6], "big")
