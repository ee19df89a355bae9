"""Deals anyone can verify: the chances a game at a table draws, published as it draws them.

Each deck (and each reshuffle the rules call for) is stored with a random salt, and its
commitment ``sha256(salt + ":" + cards)`` is published when it is drawn; the cards and salt
are revealed when the hand is over (docs/server.md). Each deck is also derived from the
game's committed server seed and the players' own seeds, and the server seed is revealed
when the game is over (docs/fairness.md).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from cardtable.cards import card_text
from cardtable.chance import Shuffler
from cardtable.core import Result, State
from cardtable.fairness import commitment_of, fair_shuffle
from cardtable.server.store import DealRow

__all__ = ["Chance", "Drawing", "commitment", "fair_block", "publish", "published", "shuffler"]

Seeds = Callable[[], list[str | None]]  # the players' seeds in seat order, as they are now


def commitment(salt: str, cards: list[str]) -> str:
    """The published hash of a deck: hex SHA-256 of the salt, a colon and the cards."""
    return hashlib.sha256(f"{salt}:{' '.join(cards)}".encode()).hexdigest()


@dataclass(slots=True)
class Chance:
    """A deck or a reshuffle drawn in a game, with its salt; ``revealed`` once published."""

    number: int
    kind: str
    hand: int
    cards: list[str]
    salt: str
    revealed: bool = False
    seeds: list[str | None] | None = None  # the players' seeds it was derived from, if fair

    @property
    def commitment(self) -> str:
        return commitment(self.salt, self.cards)

    @property
    def reshuffle(self) -> int | None:
        """A reshuffle's number among the game's reshuffles, from 0 as its record numbers
        them (``fair.reshuffles``, the label ``reshuffle N``); None for a hand's deck.
        ``number`` counts every chance of the game, and the chances before a reshuffle are
        its game's reshuffles before it and the decks of hands 1 to ``hand`` (``publish``
        draws a step's decks first)."""
        return None if self.kind == "deck" else self.number - self.hand

    def published(self, game: int) -> dict[str, Any]:
        item: dict[str, Any] = {"game": game, "hand": self.hand, "commitment": self.commitment}
        if self.reshuffle is not None:
            item["reshuffle"] = self.reshuffle
        if self.seeds is not None:
            item["seeds"] = self.seeds
        return item


class Drawing(Protocol):
    """A game that draws chances (a table's ``Run``): its number, its live state, the
    chances drawn so far, and the server seed its decks are derived from (None: a game
    from before fair deals) and the construction that derives them (docs/fairness.md)."""

    @property
    def number(self) -> int: ...

    @property
    def state(self) -> State: ...

    @property
    def chances(self) -> list[Chance]: ...

    @property
    def server_seed(self) -> str | None: ...

    @property
    def construction(self) -> int: ...


def shuffler(
    table_id: str, number: int, server_seed: str, seeds: Seeds, dealer: int | None
) -> Shuffler:
    """Game ``number``'s decks, derived from its server seed, its first ``dealer`` (None: a
    game of construction 1, which did not name it) and the players' seeds as they are when
    each deck is drawn."""

    def shuffle(label: str, cards: list[int]) -> list[int]:
        return fair_shuffle(server_seed, table_id, number, label, seeds(), cards, dealer)

    return shuffle


def publish(
    table_id: str, run: Drawing, events: list[dict[str, Any]], seeds: Seeds
) -> list[DealRow]:
    """Publish what the last step drew and finished: reveals of the hand that ended,
    commitments of the decks and reshuffles drawn, and the result of a finished game."""
    # The chances alone, not the whole record: a record's actions grow with the game.
    decks, reshuffles = run.state.chances()
    hand = _count(run, "deck")
    drawn = [("deck", list(map(card_text, deck))) for deck in decks[hand:]]
    drawn += [("reshuffle", list(map(card_text, r))) for r in reshuffles[_count(run, "re") :]]
    rows: list[DealRow] = []
    if any(kind == "deck" for kind, _ in drawn) or run.state.is_over:
        _reveal(run, events)
    for kind, cards in drawn:
        if kind == "deck":
            hand += 1
        chance = Chance(len(run.chances), kind, hand, list(cards), secrets.token_hex(16))
        if run.server_seed is not None:
            chance.seeds = seeds()
        run.chances.append(chance)
        events.append({"kind": "deal", **chance.published(run.number)})
        rows.append(
            DealRow(
                table_id=table_id,
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
        over = {"kind": "over", "game": run.number, "result": published(result)}
        # The game's end as a watcher sees it (who went out when, the final scores), so
        # that a log rebuilt from the events tells it as a page watching it live told it.
        over["final"] = run.state.view(None)
        if run.server_seed is not None:
            over["server_seed"] = run.server_seed  # the game is over: nothing left hidden
        events.append(over)
    return rows


def _count(run: Drawing, kind: str) -> int:
    return sum(1 for c in run.chances if (c.kind == "deck") == (kind == "deck"))


def _reveal(run: Drawing, events: list[dict[str, Any]]) -> None:
    for index, chance in enumerate(run.chances):
        if not chance.revealed:
            # A copy: the live run's chances change only when the change is committed.
            run.chances[index] = shown = Chance(
                chance.number,
                chance.kind,
                chance.hand,
                chance.cards,
                chance.salt,
                True,
                chance.seeds,
            )
            events.append(
                {
                    "kind": "reveal",
                    **shown.published(run.number),
                    "deck": shown.cards,
                    "salt": shown.salt,
                }
            )


def fair_block(table_id: str, run: Drawing) -> dict[str, Any]:
    """What ``cardtable verify`` needs of a finished game (docs/record.md, ``fair``)."""
    assert run.server_seed is not None and run.state.is_over
    decks = [c for c in run.chances if c.kind == "deck"]
    reshuffles = [c for c in run.chances if c.kind != "deck"]
    return {
        "table": table_id,
        "game": run.number,
        "commitment": commitment_of(run.server_seed),
        "server_seed": run.server_seed,
        **({"construction": run.construction} if run.construction != 1 else {}),
        "decks": [{"hand": c.hand, "seeds": c.seeds} for c in decks],
        "reshuffles": [
            {"number": n, "hand": c.hand, "seeds": c.seeds} for n, c in enumerate(reshuffles)
        ],
    }


def published(result: Result) -> dict[str, Any]:
    """A game's result as the table publishes it (JSON)."""
    return {
        "winners": list(result.winners),
        "places": [list(place) for place in result.places],
        "returns": list(result.returns),
        "summary": result.summary,
    }
