"""A table of the web server: its seats, the games played at it, and its numbered events.

This module knows nothing of the network or the database: every change is computed on a
copy of the game state and handed back as a :class:`Change` (the public events, the chance
rows to store). The server commits a change before it installs it with :meth:`Table.commit`
and tells anyone, so an action that could not be stored never happened.

Deals anyone can verify: each deck (and each reshuffle the rules call for) is stored with a
random salt, and its commitment ``sha256(salt + ":" + cards)`` is published when it is
drawn; the cards and salt are revealed when the hand is over (docs/server.md).
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable.bots.base import LEVELS as BOT_LEVELS
from cardtable.core import Game, Record, Result, State, View
from cardtable.errors import CardtableError, IllegalActionError
from cardtable.rules.refusals import GAME_OVER, NOT_YOUR_TURN
from cardtable.server.store import DealRow, SeatRow, StoredGame, StoredTable

__all__ = [
    "BOT",
    "HUMAN",
    "Change",
    "Run",
    "Seat",
    "Table",
    "TableError",
    "commitment",
    "printable_name",
    "token_hash",
]

HUMAN, BOT = "human", "bot"
LEVELS = tuple(BOT_LEVELS)  # easy, medium, hard, expert: the bots' levels
TITLES = {"knockout-whist": "Knockout Whist", "neuf": "Neuf", "kryt-navalivat": "Kryt'-navalivat'"}


class TableError(CardtableError):
    """A request the table refuses; ``code`` is the protocol's error code. A refused action
    also says why in the rules' terms: ``reason``, the game's reason code, and its
    ``details`` (``cardtable.rules.refusals``)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        reason: str | None = None,
        details: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.details = details or {}

    def as_message(self) -> dict[str, Any]:
        """The protocol's ``error`` message (docs/server.md)."""
        sent: dict[str, Any] = {"type": "error", "code": self.code, "message": str(self)}
        if self.reason is not None:
            sent |= {"reason": self.reason, "details": self.details}
        return sent


def commitment(salt: str, cards: list[str]) -> str:
    """The published hash of a deck: hex SHA-256 of the salt, a colon and the cards."""
    return hashlib.sha256(f"{salt}:{' '.join(cards)}".encode()).hexdigest()


def token_hash(token: str) -> str:
    """The stored SHA-256 of a seat's token. Any text has one: a lone surrogate (which JSON's
    ``\\ud800`` escape can carry but UTF-8 cannot) is hashed as is, and matches no seat."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def printable_name(name: str) -> bool:
    """Whether a seat's name can be stored and shown: no control characters (NUL, which
    PostgreSQL cannot store in text, among them) and no lone surrogates (not UTF-8). Format
    characters stay allowed: Persian names need the zero-width non-joiner."""
    return not any(unicodedata.category(c) in ("Cc", "Cs") for c in name)


@dataclass(slots=True)
class Seat:
    seat: int
    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = None
    # The server's own bookkeeping, not stored: how many sockets hold the seat, when the
    # last one left (None: none has joined since the server started), and whether a bot
    # is playing for the seat meanwhile.
    connections: int = 0
    left_at: float | None = None
    stand_in: bool = False

    @property
    def awaited(self) -> bool:
        """A human seat whose invited player has not taken it: no stand-in plays for it
        unless someone at the table asks for one (docs/server.md, ``stand_in``)."""
        return (
            self.kind == HUMAN
            and self.connections == 0
            and self.left_at is None
            and not self.stand_in
        )

    def describe(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "connected": self.kind == BOT or self.connections > 0,
            "stand_in": self.stand_in,
            "awaited": self.awaited,
        }


@dataclass(slots=True)
class Chance:
    """A deck or a reshuffle drawn in a game, with its salt; ``revealed`` once published."""

    number: int
    kind: str
    hand: int
    cards: list[str]
    salt: str
    revealed: bool = False

    @property
    def commitment(self) -> str:
        return commitment(self.salt, self.cards)

    def published(self, game: int) -> dict[str, Any]:
        item: dict[str, Any] = {"game": game, "hand": self.hand, "commitment": self.commitment}
        if self.kind != "deck":
            item["reshuffle"] = self.number
        return item


@dataclass(slots=True)
class Run:
    """One game at the table: its number (from 1), first dealer and live state."""

    number: int
    dealer: int
    state: State
    chances: list[Chance] = field(default_factory=list)


@dataclass(slots=True)
class Change:
    """What an accepted request adds to the table: events (public, numbered) and the chance
    rows to store with them. ``run`` is the game as it will be once committed."""

    events: list[dict[str, Any]]
    deals: list[DealRow]
    run: Run
    new_game: bool = False


class Table:
    """A table: seats, its current game and that game's events.

    Only the current game lives in memory: a finished game leaves behind its line in the
    tally (the description's ``results``), and its events and record stay in the database,
    which serves its replay and a client that asks for events before the current game's. So
    a table's memory does not grow with the games played at it."""

    # Whether the table's events are committed to the database (a tutorial's are not:
    # ``cardtable.server.tutorial``).
    stored = True

    def __init__(
        self, table_id: str, game_name: str, options: dict[str, Any], seats: list[Seat]
    ) -> None:
        self.id = table_id
        self.game_name = game_name
        self.options = options
        self.seats = seats
        self.first = 0  # the events numbered up to this one are in the database only
        self.events: list[dict[str, Any]] = []  # the rest: the current game's
        self.tally: list[dict[str, Any]] = []  # the results of the games before the current
        self.current: Run | None = None
        self.acted: set[int] = set()  # seats with an action on record
        self.created = 0.0

    # Building -------------------------------------------------------------------------------

    @staticmethod
    def check_request(
        game_name: object, options: object, seats: object
    ) -> tuple[str, dict[str, Any], list[Seat]]:
        """Read a request to open a table; :class:`TableError` says what is wrong."""
        if not isinstance(game_name, str) or game_name not in cardtable.GAMES:
            raise TableError(
                "unknown_game",
                f"unknown game {game_name!r}; choose one of {', '.join(cardtable.games())}",
            )
        if not isinstance(options, dict) or "dealer" in options:
            raise TableError("bad_options", "options are an object of the game's rules")
        if not isinstance(seats, list) or not seats:
            raise TableError("bad_seats", "seats are a list with one entry per player")
        try:
            game = cardtable.make(game_name, **{**options, "players": len(seats)})
        except (ValueError, TypeError) as exc:
            raise TableError("bad_options", str(exc)) from exc
        chosen: list[Seat] = []
        for number, item in enumerate(seats):
            if not isinstance(item, dict) or item.get("kind") not in (HUMAN, BOT):
                raise TableError("bad_seats", f"seat {number}: kind is 'human' or 'bot'")
            name = item.get("name")
            if name is not None and (not isinstance(name, str) or len(name) > 40):
                raise TableError("bad_seats", f"seat {number}: a name is text of 40 or fewer")
            if name is not None and not printable_name(name):
                raise TableError("bad_seats", f"seat {number}: a name holds no control characters")
            if item["kind"] == BOT:
                level = item.get("level", "medium")
                if level not in LEVELS:
                    raise TableError(
                        "bad_seats", f"seat {number}: level is one of {', '.join(LEVELS)}"
                    )
                chosen.append(Seat(number, BOT, name or f"{level} bot", level))
            else:
                chosen.append(Seat(number, HUMAN, (name or "").strip() or f"Player {number + 1}"))
        if all(seat.kind == BOT for seat in chosen):
            raise TableError("bad_seats", "a table needs at least one human seat")
        return game_name, game.rules, chosen

    @classmethod
    def open(
        cls, game_name: object, options: object, seats: object
    ) -> tuple[Table, dict[int, str], Change]:
        """A new table, the token of each human seat, and its first change (the first game
        and its deal) to commit."""
        name, rules, chosen = cls.check_request(game_name, options, seats)
        tokens: dict[int, str] = {}
        for seat in chosen:
            if seat.kind == HUMAN:
                tokens[seat.seat] = secrets.token_urlsafe(16)
                seat.token_hash = token_hash(tokens[seat.seat])
        table = cls(secrets.token_urlsafe(9), name, rules, chosen)
        first_dealer = secrets.randbelow(len(chosen))
        return table, tokens, table._start(first_dealer)

    @classmethod
    def restore(cls, stored: StoredTable) -> Table:
        """Rebuild a table from its stored events and chance rows: the current game is
        replayed, checking each of its actions; the earlier ones leave their results."""
        seats = [
            Seat(row.seat, row.kind, row.name, row.level, row.token_hash) for row in stored.seats
        ]
        table = cls(stored.id, stored.game, stored.options, seats)
        table.created = stored.created
        starts = [i for i, item in enumerate(stored.events) if item["kind"] == "game"]
        if not starts:
            raise TableError("unavailable", "the table's record has no game")
        for number, item in enumerate(stored.events, 1):
            if item["seq"] != number:
                raise TableError("unavailable", f"event {number} is numbered {item['seq']}")
            if item["kind"] == "action":
                table.acted.add(int(item["seat"]))
            elif item["kind"] == "over" and number <= starts[-1]:
                table.tally.append({"game": item["game"], **item["result"]})
        table.first = starts[-1]
        table.events = stored.events[starts[-1] :]
        opening = table.events[0]
        number, dealer = int(opening["game"]), int(opening["dealer"])
        drawn = [
            Chance(row.number, row.kind, row.hand, row.cards.split(), row.salt)
            for row in stored.deals
            if row.game == number
        ]
        table.current = Run(number, dealer, table._replayed(number, dealer, table.events, drawn))
        table.current.chances = drawn
        return table

    def _replayed(
        self, number: int, dealer: int, events: list[dict[str, Any]], drawn: list[Chance]
    ) -> State:
        """Game ``number``'s state after its stored events (marking its revealed chances)."""
        actions = []
        for item in events:
            if item.get("game") != number:
                raise TableError("unavailable", f"event {item['seq']} is not of game {number}")
            if item["kind"] == "action":
                actions.append(item["action"])
            elif item["kind"] == "reveal":
                for chance in drawn:
                    if chance.commitment == item["commitment"]:
                        chance.revealed = True
        record = Record(
            game=self.game_name,
            options={**self.options, "dealer": dealer},
            seed=secrets.randbits(62),  # only deals after the stored ones read it
            actions=actions,
            decks=[c.cards for c in drawn if c.kind == "deck"],
            reshuffles=[c.cards for c in drawn if c.kind != "deck"],
        )
        return self.game_of(dealer).replay(record)

    def stored_seats(self) -> list[SeatRow]:
        return [
            SeatRow(
                table_id=self.id,
                seat=s.seat,
                kind=s.kind,
                name=s.name,
                level=s.level,
                token_hash=s.token_hash,
            )
            for s in self.seats
        ]

    def game_of(self, dealer: int) -> Game:
        return cardtable.make(self.game_name, **self.options, dealer=dealer)

    # What the table shows -------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.first + len(self.events)

    @property
    def games(self) -> int:
        """The games begun at the table; the current one is the last."""
        return 0 if self.current is None else self.current.number

    @property
    def run(self) -> Run:
        assert self.current is not None, "a table has a game from its opening on"
        return self.current

    @property
    def state(self) -> State:
        return self.run.state

    def describe(self) -> dict[str, Any]:
        """The table's public description (docs/server.md)."""
        return {
            "table": self.id,
            "game": self.game_name,
            "title": TITLES.get(self.game_name, self.game_name),
            "options": self.options,
            "seats": [seat.describe() for seat in self.seats],
            "games": self.games,
            "results": self.results(),
            "seq": self.seq,
            "created": self.created,
        }

    def results(self) -> list[dict[str, Any]]:
        """The finished games at the table, in order: the session's tally (a Kryt'-navalivat'
        session counts its fools, the other games their winners)."""
        result = self.run.state.result
        if result is None:
            return list(self.tally)
        return [*self.tally, {"game": self.run.number, **_published(result)}]

    def view(self, seat: int | None) -> View:
        return self.state.view(seat)

    def deals(self) -> list[dict[str, Any]]:
        """The current game's commitments, with the cards and salt of those revealed."""
        shown = []
        for chance in self.run.chances:
            item = chance.published(self.run.number)
            item["deck"] = chance.cards if chance.revealed else None
            item["salt"] = chance.salt if chance.revealed else None
            shown.append(item)
        return shown

    def scripted_move(self, seat: int) -> str | None:
        """The move a script plays for a bot's seat (a tutorial's), else None: it thinks."""
        return None

    def notes(self, seat: int | None) -> list[dict[str, Any]]:
        """Messages for one seat alone, sent after its snapshot and after each change
        (a tutorial's lesson)."""
        return []

    def seat_of_token(self, token: str) -> Seat | None:
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat
        return None

    # Changes --------------------------------------------------------------------------------

    def act(self, seat: int, text: str, by: str, seq: int | None = None) -> Change:
        """Seat ``seat`` plays ``text``; a :class:`TableError` (nothing changed) if it may not."""
        if seq is not None and seq != self.seq:
            raise TableError(
                "stale", f"the table has moved on (event {self.seq}, not {seq}); look again"
            )
        run = self.run
        if run.state.is_over:
            raise TableError("game_over", "this game is over; start the next one", reason=GAME_OVER)
        mover = run.state.to_move
        assert mover is not None  # a game not over has a seat to move
        if mover != seat:
            raise TableError(
                "not_your_turn",
                f"it is seat {mover}'s turn, not seat {seat}'s",
                reason=NOT_YOUR_TURN,
                details={"seat": seat, "to_move": mover},
            )
        state = run.state.copy()
        try:
            action = state.apply(text, seat=seat)
        except IllegalActionError as exc:
            # The seat to move was checked above, so this is the rules refusing the action.
            raise TableError("illegal", str(exc), reason=exc.reason, details=exc.details) from exc
        except CardtableError as exc:
            raise TableError("invalid_action", str(exc)) from exc
        events = [
            {"kind": "action", "game": run.number, "seat": seat, "action": str(action), "by": by}
        ]
        after = Run(run.number, run.dealer, state, [*run.chances])
        deals = self._chance_events(after, events)
        return Change(self._numbered(events), deals, after)

    def next_game(self) -> Change:
        if not self.state.is_over:
            raise TableError("not_over", "the game is still being played")
        return self._start(self._next_dealer())

    def _next_dealer(self) -> int:
        # A Kryt'-navalivat' fool deals the next hand, the same dealer after a draw (K-8);
        # elsewhere the deal passes to the left.
        state = self.state
        if self.game_name == "kryt-navalivat":
            loser = getattr(state, "loser", None)
            return self.run.dealer if loser is None else int(loser)
        return (self.run.dealer + 1) % len(self.seats)

    def _start(self, dealer: int) -> Change:
        number = self.games + 1
        state = self.game_of(dealer).new_state(seed=secrets.randbits(62))
        run = Run(number, dealer, state)
        events: list[dict[str, Any]] = [{"kind": "game", "game": number, "dealer": dealer}]
        deals = self._chance_events(run, events)
        return Change(self._numbered(events), deals, run, new_game=True)

    def _chance_events(self, run: Run, events: list[dict[str, Any]]) -> list[DealRow]:
        """Publish what the last step drew and finished: reveals of the hand that ended,
        commitments of the decks and reshuffles drawn, and the result of a finished game."""
        record = run.state.record()
        drawn = [("deck", cards) for cards in record.decks[self._count(run, "deck") :]]
        drawn += [("reshuffle", cards) for cards in record.reshuffles[self._count(run, "re") :]]
        hand = self._count(run, "deck")
        rows: list[DealRow] = []
        if any(kind == "deck" for kind, _ in drawn) or run.state.is_over:
            self._reveal(run, events)
        for kind, cards in drawn:
            if kind == "deck":
                hand += 1
            chance = Chance(len(run.chances), kind, hand, list(cards), secrets.token_hex(16))
            run.chances.append(chance)
            events.append({"kind": "deal", **chance.published(run.number)})
            rows.append(
                DealRow(
                    table_id=self.id,
                    game=run.number,
                    number=chance.number,
                    kind=kind,
                    hand=hand,
                    cards=" ".join(cards),
                    salt=chance.salt,
                )
            )
        result = run.state.result
        if result is not None:
            events.append({"kind": "over", "game": run.number, "result": _published(result)})
        return rows

    @staticmethod
    def _count(run: Run, kind: str) -> int:
        return sum(1 for c in run.chances if (c.kind == "deck") == (kind == "deck"))

    @staticmethod
    def _reveal(run: Run, events: list[dict[str, Any]]) -> None:
        for index, chance in enumerate(run.chances):
            if not chance.revealed:
                # A copy: the live run's chances change only when the change is committed.
                run.chances[index] = shown = Chance(
                    chance.number, chance.kind, chance.hand, chance.cards, chance.salt, True
                )
                events.append(
                    {
                        "kind": "reveal",
                        **shown.published(run.number),
                        "deck": shown.cards,
                        "salt": shown.salt,
                    }
                )

    def _numbered(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"seq": self.seq + i + 1, **item} for i, item in enumerate(events)]

    def commit(self, change: Change) -> None:
        """Install a change the database has stored."""
        if change.new_game and self.current is not None:
            # The finished game leaves memory: its result joins the tally, its events and
            # record stay in the database only.
            self.tally = self.results()
            self.first = self.seq
            self.events = []
        self.current = change.run
        self.events.extend(change.events)
        self.acted.update(e["seat"] for e in change.events if e["kind"] == "action")

    def held_since(self, since: int) -> list[dict[str, Any]] | None:
        """The events after ``since`` if memory holds them all; None if some are in the
        database only (see :meth:`events_since` of the hub)."""
        if since < self.first:
            return None
        return self.events[since - self.first :]

    # Replays ---------------------------------------------------------------------------------

    def replay(self, number: int) -> dict[str, Any]:
        """The current game step by step, once it is over (earlier games: :meth:`replay_stored`)."""
        if number != self.games:
            raise TableError("no_game", f"game {number} is not the table's current game")
        if not self.run.state.is_over:
            raise TableError("not_over", "a game is replayed once it is over")
        return self._replay(number, self.run.dealer, self.run.state.record())

    @classmethod
    def replay_stored(cls, stored: StoredGame) -> dict[str, Any]:
        """A finished game of the database step by step: every action with the spectator's
        view after it and every hand shown (nothing is secret once the game is over)."""
        if not 1 <= stored.number <= stored.games:
            raise TableError("no_game", f"this table has played games 1-{stored.games}")
        table = cls(stored.id, stored.game, stored.options, [])
        opening = stored.events[0]
        dealer = int(opening["dealer"])
        drawn = [
            Chance(row.number, row.kind, row.hand, row.cards.split(), row.salt)
            for row in stored.deals
        ]
        state = table._replayed(stored.number, dealer, stored.events, drawn)
        if not state.is_over:
            raise TableError("not_over", "a game is replayed once it is over")
        return table._replay(stored.number, dealer, state.record())

    def _replay(self, number: int, dealer: int, record: Record) -> dict[str, Any]:
        game = self.game_of(dealer)
        state = game.replay(
            Record(record.game, record.options, record.seed, [], record.decks, record.reshuffles)
        )
        frames = [self._frame(state, None, None)]
        for text in record.actions:
            seat = state.to_move
            state.apply(text)
            frames.append(self._frame(state, seat, text))
        return {"game": number, "record": record.to_dict(), "frames": frames}

    @staticmethod
    def _frame(state: State, seat: int | None, action: str | None) -> dict[str, Any]:
        hands = [state.view(s).get("hand", []) for s in range(state.game.num_players)]
        return {"seat": seat, "action": action, "view": {**state.view(None), "hands": hands}}


def _published(result: Result) -> dict[str, Any]:
    """A game's result as the table publishes it (JSON)."""
    return {
        "winners": list(result.winners),
        "places": [list(place) for place in result.places],
        "returns": list(result.returns),
        "summary": result.summary,
    }
