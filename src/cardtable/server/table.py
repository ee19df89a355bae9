"""A table of the web server: its seats, the games played at it, and its numbered events.

This module knows nothing of the network or the database: every change is computed on a
copy of the game state and handed back as a :class:`Change` (the public events, the chance
rows to store). The server commits a change before it installs it with :meth:`Table.commit`
and tells anyone, so an action that could not be stored never happened.

Deals anyone can verify: each deck a game draws is committed to when it is drawn and
revealed when its hand is over (``deals.py``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

import cardtable
from cardtable.bots.base import LEVELS as BOT_LEVELS
from cardtable.cards import card_text
from cardtable.core import Game, Record, State, View
from cardtable.errors import CardtableError, IllegalActionError
from cardtable.fairness import CONSTRUCTION, chain_seed, check_client_seed, commitment_of
from cardtable.refusals import GAME_OVER, NOT_YOUR_TURN
from cardtable.rules.catalog import descriptor
from cardtable.server.deals import Chance, fair_block, publish, published, shuffler
from cardtable.server.store import DealRow, NewTable, SeatRow, StoredGame, StoredTable

__all__ = [
    "BOT",
    "HUMAN",
    "LEVELS",
    "NAME_LENGTH",
    "Change",
    "Run",
    "Seat",
    "Table",
    "TableError",
    "invite_link",
    "printable_name",
    "seat_token",
    "token_hash",
]

HUMAN, BOT = "human", "bot"
LEVELS = tuple(BOT_LEVELS)  # easy, medium, hard, expert: the bots' levels
NAME_LENGTH = 40  # characters of a seat's name, at most
OPEN_WAIT = 600  # seconds an open seat may wait before a bot takes it, at most


class TableError(CardtableError):
    """A request the table refuses; ``code`` is the protocol's error code. A refused action
    also says why in the rules' terms: ``reason``, the game's reason code, and its
    ``details`` (``cardtable.refusals``)."""

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


def compact(value: Any) -> str:
    """``value`` as the JSON text a page is sent: no spaces, as the engine writes views."""
    return json.dumps(value, separators=(",", ":"))


def seat_token() -> str:
    """A new seat token: the secret a seat's invitation carries."""
    return secrets.token_urlsafe(16)


def invite_link(table_id: str, seat: int, token: str) -> str:
    """A seat's invitation: the table page, the seat and its token in the fragment (which
    never reaches a server's log)."""
    return f"/t/{table_id}#seat={seat}&token={token}"


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
    # The seed the player's page gave with its last join (public: every deal names the
    # seeds it was derived from), or None: a bot's seat, or a player who gave none.
    seed: str | None = None
    # An open seat's deadline (seconds since the epoch): a bot of ``level`` takes it then if
    # nobody has (lobby.py); None: it waits for a taker for ever.
    open_until: float | None = None
    # The server's own bookkeeping, not stored: how many sockets hold the seat, when the
    # last one left (None: none has joined since the server started), and whether a bot
    # is playing for the seat meanwhile.
    connections: int = 0
    left_at: float | None = None
    stand_in: bool = False

    @property
    def open(self) -> bool:
        """A human seat the table's creator left for anyone to take (``lobby.py``): it has
        no token until it is taken."""
        return self.kind == HUMAN and self.token_hash is None

    def take(self, digest: str, name: str) -> None:
        """Seat the player who took this open seat: its token's hash, and their name."""
        self.token_hash, self.name, self.open_until = digest, name, None

    def fill(self) -> None:
        """Give this open seat, untaken in time, to a bot of its level."""
        assert self.level is not None
        self.kind, self.name, self.open_until = BOT, f"{self.level} bot", None

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
            "open": self.open,
            "open_until": self.open_until,
        }


@dataclass(slots=True)
class Run:
    """One game at the table: its number (from 1), first dealer and live state, and the
    server seed its decks are derived from (None: a game from before fair deals)."""

    number: int
    dealer: int
    state: State
    chances: list[Chance] = field(default_factory=list)
    server_seed: str | None = None
    construction: int = CONSTRUCTION  # 1: a game dealt before the decks named the dealer


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
        self,
        table_id: str,
        game_name: str,
        options: dict[str, Any],
        seats: list[Seat],
        secret: str | None = None,
    ) -> None:
        self.id = table_id
        self.game_name = game_name
        self.options = options
        self.seats = seats
        # The table's secret (hex, server-side only): its server seeds' hash chains and its
        # bots' randomness come from it (docs/fairness.md). None: a table from before, or a
        # tutorial table (its first game's decks are the script's).
        self.secret = secret
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
        game_name, options = Table.check_game(game_name, options)
        if not isinstance(seats, list) or not seats:
            raise TableError("bad_seats", "seats are a list with one entry per player")
        # The seats say how many play; an option that says otherwise (true, which Python
        # would count as 1, among them) is refused rather than overruled.
        players = options.get("players", len(seats))
        if type(players) is not int or players != len(seats):
            raise TableError(
                "bad_options",
                f"players, if given, is the number of seats ({len(seats)}), not {players!r:.40}",
            )
        game = Table.make_game(game_name, {**options, "players": len(seats)})
        chosen: list[Seat] = []
        for number, item in enumerate(seats):
            if not isinstance(item, dict) or item.get("kind") not in (HUMAN, BOT):
                raise TableError("bad_seats", f"seat {number}: kind is 'human' or 'bot'")
            name = Table.check_name(item.get("name"), f"seat {number}: ", "bad_seats")
            listed = item.get("open", False)
            if type(listed) is not bool or (listed and item["kind"] != HUMAN):
                raise TableError("bad_seats", f"seat {number}: open is true or false, for a human")
            if listed:
                if name is not None:
                    raise TableError("bad_seats", f"seat {number}: an open seat's taker names it")
                # No name and no token: nobody holds it yet (every other human seat is named).
                level, until = Table.check_wait(item, number)
                chosen.append(Seat(number, HUMAN, "", level, open_until=until))
            elif item["kind"] == BOT:
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

    @staticmethod
    def check_wait(item: dict[str, Any], number: int) -> tuple[str | None, float | None]:
        """An open seat's ``wait`` (seconds, at most :data:`OPEN_WAIT`) and the ``level`` of
        the bot that takes it then: (level, deadline); none given, it waits for ever."""
        wait: object = item.get("wait")
        level: object = item.get("level")
        if wait is None and level is None:
            return None, None
        if (
            not isinstance(wait, int | float)
            or isinstance(wait, bool)
            or not 1 <= wait <= OPEN_WAIT
        ):
            raise TableError("bad_seats", f"seat {number}: wait is 1 to {OPEN_WAIT} seconds")
        if not isinstance(level, str) or level not in LEVELS:
            raise TableError("bad_seats", f"seat {number}: level is one of {', '.join(LEVELS)}")
        return level, time.time() + wait

    @staticmethod
    def check_name(name: object, where: str, code: str) -> str | None:
        """A seat's name as given (None: none given); :class:`TableError` ``code`` if it is
        not text of :data:`NAME_LENGTH` or fewer printable characters."""
        if name is not None and (not isinstance(name, str) or len(name) > NAME_LENGTH):
            raise TableError(code, f"{where}a name is text of {NAME_LENGTH} or fewer")
        if name is not None and not printable_name(name):
            raise TableError(code, f"{where}a name holds no control characters")
        return name

    @staticmethod
    def check_game(game_name: object, options: object) -> tuple[str, dict[str, Any]]:
        """A table's game and its options as an object of the game's rules (no ``dealer``),
        as a request to open one gives them, or as a stored table holds them; a
        :class:`TableError` (``unknown_game``, ``bad_options``) says what is wrong."""
        if not isinstance(game_name, str) or game_name not in cardtable.GAMES:
            raise TableError(
                "unknown_game",
                f"unknown game {game_name!r}; choose one of {', '.join(cardtable.games())}",
            )
        if not isinstance(options, dict) or "dealer" in options:
            raise TableError("bad_options", "options are an object of the game's rules")
        return game_name, options

    @staticmethod
    def make_game(game_name: str, options: dict[str, Any]) -> Game:
        """The game played by these rules: each option one the game has, of its type;
        :class:`TableError` ``bad_options`` names the one that is not."""
        try:
            return cardtable.make(game_name, **options)
        except (ValueError, TypeError) as exc:
            raise TableError("bad_options", str(exc)) from exc

    @classmethod
    def open(
        cls, game_name: object, options: object, seats: object
    ) -> tuple[Table, dict[int, str], Change]:
        """A new table, the token of each human seat, and its first change (the first game
        and its deal) to commit."""
        name, rules, chosen = cls.check_request(game_name, options, seats)
        tokens: dict[int, str] = {}
        for seat in chosen:
            if seat.kind == HUMAN and seat.name:  # an open seat's token is its taker's
                tokens[seat.seat] = seat_token()
                seat.token_hash = token_hash(tokens[seat.seat])
        table = cls(secrets.token_urlsafe(9), name, rules, chosen, secrets.token_hex(32))
        first_dealer = secrets.randbelow(len(chosen))
        return table, tokens, table._start(first_dealer)

    @classmethod
    def restore(cls, stored: StoredTable) -> Table:
        """Rebuild a table from its stored events and chance rows: the current game is
        replayed, checking each of its actions; the earlier ones leave their results."""
        seats = [
            Seat(row.seat, row.kind, row.name, row.level, row.token_hash, open_until=row.open_until)
            for row in stored.seats
        ]
        table = cls(stored.id, stored.game, stored.options, seats, stored.secret)
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
            elif item["kind"] == "seed":
                # A seed counts from when it was given, whichever game it came in: the next
                # deck is derived from the seeds as they are now (docs/fairness.md).
                table.seats[int(item["seat"])].seed = str(item["seed"])
        table.first = starts[-1]
        table.events = stored.events[starts[-1] :]
        number = int(table.events[0]["game"])
        drawn = [
            Chance(row.number, row.kind, row.hand, row.cards.split(), row.salt)
            for row in stored.deals
            if row.game == number
        ]
        table.current = table._rerun(table.events, drawn)
        return table

    def _rerun(self, events: list[dict[str, Any]], drawn: list[Chance]) -> Run:
        """The game whose stored events are ``events`` (its ``game`` event first), as those
        events left it: its state, its chances (which are revealed, which seeds each deck
        was derived from) and, for a fair game, its server seed and the source of its next
        decks."""
        opening = events[0]
        number, dealer = int(opening["game"]), int(opening["dealer"])
        actions = []
        for item in events:
            if item["kind"] == "seed":
                continue  # a seat's seed, of the table rather than of a game
            if item.get("game") != number:
                raise TableError("unavailable", f"event {item['seq']} is not of game {number}")
            if item["kind"] == "action":
                actions.append(item["action"])
            elif item["kind"] in ("reveal", "deal"):
                for chance in drawn:
                    if chance.commitment == item["commitment"]:
                        chance.revealed = chance.revealed or item["kind"] == "reveal"
                        chance.seeds = item.get("seeds", chance.seeds)
        record = Record(
            game=self.game_name,
            options={**self.options, "dealer": dealer},
            seed=secrets.randbits(62),  # only deals after the stored ones read it
            actions=actions,
            decks=[c.cards for c in drawn if c.kind == "deck"],
            reshuffles=[c.cards for c in drawn if c.kind != "deck"],
        )
        run = Run(number, dealer, self.game_of(dealer).replay(record), drawn)
        if "commitment" in opening:
            if self.secret is None:
                raise TableError(
                    "unavailable", f"game {number} is fair but the table has no secret"
                )
            run.server_seed = chain_seed(self.secret, number)
            if commitment_of(run.server_seed) != opening["commitment"]:
                # Another secret than the one committed to: no deck it derives is the one
                # the players were promised.
                raise TableError(
                    "unavailable", f"game {number}'s commitment is not the table secret's"
                )
            # A game opened before the dealer was part of the construction goes on under the
            # construction it was dealt by, so that all its decks verify alike.
            run.construction = int(opening.get("construction", 1))
            by = dealer if run.construction == CONSTRUCTION else None
            run.state.shuffler = shuffler(self.id, number, run.server_seed, self.client_seeds, by)
        return run

    def creation(self, change: Change) -> NewTable:
        """What the store keeps of this new table and its opening ``change``."""
        return NewTable(
            self.id,
            self.game_name,
            self.options,
            self.stored_seats(),
            change.events,
            change.deals,
            self.secret,
        )

    def stored_seats(self) -> list[SeatRow]:
        return [
            SeatRow(
                table_id=self.id,
                seat=s.seat,
                kind=s.kind,
                name=s.name,
                level=s.level,
                token_hash=s.token_hash,
                open_until=s.open_until,
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
    def played_seq(self) -> int:
        """The number of the first event of the last change to a game: its ``action`` or
        ``game`` event, which the change's ``reveal``, ``deal`` and ``over`` events follow.
        Every event of one change is sent with the view after the whole change, so a page
        that has read any of them shows the table as it is now (a ``seed`` event since
        changes no game)."""
        for item in reversed(self.events):
            if item["kind"] in ("action", "game"):
                return int(item["seq"])
        return 0

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
            "title": descriptor(self.game_name).title,
            "options": self.options,
            "seats": [seat.describe() for seat in self.seats],
            "games": self.games,
            "results": self.results(),
            "seq": self.seq,
            "created": self.created,
        }

    def client_seeds(self) -> list[str | None]:
        """The players' seeds in seat order, as the next deal would use them."""
        return [seat.seed if seat.kind == HUMAN else None for seat in self.seats]

    def fairness(self) -> dict[str, Any] | None:
        """The current game's commitment, the construction and first dealer its decks are
        derived by, and its server seed once it is over."""
        run = self.run
        if run.server_seed is None:
            return None
        over = run.state.is_over
        return {
            "game": run.number,
            "commitment": commitment_of(run.server_seed),
            "construction": run.construction,
            "dealer": run.dealer,
            "server_seed": run.server_seed if over else None,
        }

    def results(self) -> list[dict[str, Any]]:
        """The finished games at the table, in order: the session's tally (a Kryt'-navalivat'
        session counts its fools, the other games their winners)."""
        result = self.run.state.result
        if result is None:
            return list(self.tally)
        return [*self.tally, {"game": self.run.number, **published(result)}]

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

    def event_texts(
        self, events: list[dict[str, Any]], seat: int | None, described: str | None = None
    ) -> list[str]:
        """What a page at ``seat`` (None: a spectator) is sent for a change's events, as
        JSON text: each event with the seat's view after the whole change and the table
        (docs/server.md, ``event``). The view is written once, by the engine, and the
        table's description (``described``, the same for every seat) may be given."""
        view = self.state.view_text(seat)
        if described is None:
            described = compact(self.describe())
        return [
            f'{{"type":"event","seq":{item["seq"]:d},"event":{compact(item)},'
            f'"view":{view},"table":{described}}}'
            for item in events
        ]

    def snapshot(self, seat: int | None, missed: list[dict[str, Any]]) -> dict[str, Any]:
        """What a page at ``seat`` is sent when it joins (docs/server.md, ``snapshot``):
        ``missed``, the events after the one it last saw, then everything as it is now."""
        return {
            "type": "snapshot",
            "seat": seat,
            "seq": self.seq,
            "table": self.describe(),
            "game": self.games,
            "view": self.view(seat),
            "missed": missed,
            "deals": self.deals(),
            "fair": self.fairness(),
        }

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
        # A click sent at any event of the last change was made on the table as it is (each
        # of them came with the view after the whole change), and a seed event since changes
        # nothing it was based on: such an action stands.
        if seq is not None and not self.played_seq <= seq <= self.seq:
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
        state.shuffler = run.state.shuffler
        try:
            action = state.apply(text, seat=seat)
        except IllegalActionError as exc:
            # The seat to move was checked above, so this is the rules refusing the action.
            raise TableError("illegal", str(exc), reason=exc.reason, details=exc.details) from exc
        except CardtableError as exc:
            raise TableError("invalid_action", str(exc)) from exc
        event = {
            "kind": "action",
            "game": run.number,
            "seat": seat,
            "action": str(action),
            "by": by,
        }
        # The trick it completed, if any, and who took it: a page rebuilding its log from the
        # events alone needs it for the tricks its view no longer holds (earlier hands).
        won = state.trick_taken(run.state)
        if won is not None:
            event["won"] = won
        events: list[dict[str, Any]] = [event]
        after = replace(run, state=state, chances=[*run.chances])
        deals = publish(self.id, after, events, self.client_seeds)
        return Change(self._numbered(events), deals, after)

    def next_game(self) -> Change:
        if not self.state.is_over:
            raise TableError("not_over", "the game is still being played")
        return self._start(self._next_dealer())

    def _next_dealer(self) -> int:
        # The game's descriptor says: a Kryt'-navalivat' fool deals the next hand, the same
        # dealer after a draw (K-8); elsewhere the deal passes to the left.
        rules, result = descriptor(self.game_name), self.state.result
        fool = None if result is None else rules.fool_of(result)
        return rules.dealer_after(self.run.dealer, len(self.seats), fool)

    @staticmethod
    def check_seed(seed: object) -> str:
        try:
            return check_client_seed(seed)
        except ValueError as exc:
            raise TableError("malformed", str(exc)) from None

    def seed_change(self, seat: int, seed: object) -> Change | None:
        """Seat ``seat``'s player gives the seed of its page: a public ``seed`` event, which
        counts from the next deal on; None if it is the seed the seat already has, or if the
        table deals nothing from seeds."""
        self.check_seed(seed)
        if self.secret is None:
            # No deck of this table is derived from seeds (a tutorial's are the script's):
            # the seed is checked, and there is nothing to record.
            return None
        if self.seats[seat].kind != HUMAN or self.seats[seat].seed == seed:
            return None
        events = [{"kind": "seed", "seat": seat, "seed": seed}]
        return Change(self._numbered(events), [], self.run)

    def _start(self, dealer: int) -> Change:
        number = self.games + 1
        game = self.game_of(dealer)
        events: list[dict[str, Any]] = [{"kind": "game", "game": number, "dealer": dealer}]
        if self.secret is None:
            state = game.new_state(seed=secrets.randbits(62))
            run = Run(number, dealer, state)
        else:
            # The first hand is dealt as the state is made: its deck is stacked.
            server_seed = chain_seed(self.secret, number)
            shuffle = shuffler(self.id, number, server_seed, self.client_seeds, dealer)
            first = [card_text(c) for c in shuffle("hand 1", list(game.pack))]
            state = game.new_state(seed=secrets.randbits(62), decks=[first])
            state.shuffler = shuffle
            run = Run(number, dealer, state, server_seed=server_seed)
            events[0]["commitment"] = commitment_of(server_seed)
            events[0]["construction"] = CONSTRUCTION
        deals = publish(self.id, run, events, self.client_seeds)
        return Change(self._numbered(events), deals, run, new_game=True)

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
        for item in change.events:
            if item["kind"] == "seed":
                self.seats[item["seat"]].seed = item["seed"]

    def held_since(self, since: int) -> list[dict[str, Any]] | None:
        """The events after ``since`` if memory holds them all; None if some are in the
        database only (see ``Loader.events_since``, ``loading.py``)."""
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
        return self._replay(self.run)

    def finished_run(self, number: int) -> Run:
        """Game ``number`` held in memory (the current one), once it is over (earlier
        games: :meth:`run_stored`)."""
        if number != self.games:
            raise TableError("no_game", f"game {number} is not the table's current game")
        if not self.run.state.is_over:
            raise TableError("not_over", "a game is reviewed once it is over")
        return self.run

    @classmethod
    def run_stored(cls, stored: StoredGame) -> tuple[Table, Run]:
        """A finished game of the database, played again from its events and deals."""
        if not 1 <= stored.number <= stored.games:
            raise TableError("no_game", f"this table has played games 1-{stored.games}")
        table = cls(stored.id, stored.game, stored.options, [], stored.secret)
        drawn = [
            Chance(row.number, row.kind, row.hand, row.cards.split(), row.salt)
            for row in stored.deals
        ]
        run = table._rerun(stored.events, drawn)
        if not run.state.is_over:
            raise TableError("not_over", "a game is replayed once it is over")
        return table, run

    @classmethod
    def replay_stored(cls, stored: StoredGame) -> dict[str, Any]:
        """A finished game of the database step by step: every action with the spectator's
        view after it and every hand shown (nothing is secret once the game is over)."""
        table, run = cls.run_stored(stored)
        return table._replay(run)

    def _replay(self, run: Run) -> dict[str, Any]:
        """A finished game step by step, with its ``fair`` block if it was dealt fairly."""
        record = run.state.record()
        game = self.game_of(run.dealer)
        state = game.replay(
            Record(record.game, record.options, record.seed, [], record.decks, record.reshuffles)
        )
        frames = [self._frame(state, None, None)]
        for text in record.actions:
            seat = state.to_move
            state.apply(text)
            frames.append(self._frame(state, seat, text))
        document = record.to_dict()
        if run.server_seed is not None:
            document["fair"] = fair_block(self.id, run)
        return {"game": run.number, "record": document, "frames": frames}

    @staticmethod
    def _frame(state: State, seat: int | None, action: str | None) -> dict[str, Any]:
        hands = [state.view(s).get("hand", []) for s in range(state.game.num_players)]
        return {"seat": seat, "action": action, "view": {**state.view(None), "hands": hands}}
