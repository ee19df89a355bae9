"""Provably fair deals: every deck of a web table derived from a committed server seed and the
players' own seeds (``docs/fairness.md`` is the specification; this module and the page's
``web/fair.js`` are its two implementations).

A hand's deck is a full Fisher–Yates shuffle of the game's pack in card-index order, from
the last position down, whose draws are read off an HMAC-SHA256 stream::

    block(i) = HMAC-SHA256(key = server_seed,
                           msg = "cardtable-deal-2:{table}:{game}:{dealer}:{label}:{seeds}:{i}")

``dealer`` is the game's first dealer (its record's ``dealer`` option), so that a deck
proves who was dealt what, not only the order of the cards; ``label`` is ``hand N`` (hands
counted from 1 in the game) or ``reshuffle N`` (a reshuffle the rules call for, counted from
0), ``seeds`` the players' seeds in seat order joined by commas (empty for a bot's seat or a
seat that gave none). Blocks are read as big-endian 32-bit words; a draw below ``m`` rejects
words at or above the largest multiple of ``m`` below 2**32, so every index is exactly
uniform.

A table's server seeds form hash chains fixed when the table opens: the seed of a game hashes
(SHA-256) to the seed of the game before, so each commitment ``sha256(server_seed)`` is the
previous game's seed, and no seed can be chosen after the table opened.

Games dealt before the dealer was part of the message (construction 1: the message
``cardtable-deal:{table}:{game}:{label}:{seeds}:{i}``) still verify, with the caveat that their
proof covers the decks alone.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import Card
from cardtable.errors import CardtableError

__all__ = [
    "CHAIN_LENGTH",
    "CONSTRUCTION",
    "FairnessError",
    "Verified",
    "bot_seed",
    "chain_seed",
    "check_client_seed",
    "commitment_of",
    "fair_shuffle",
    "verify_record",
]

CHAIN_LENGTH = 1000
"""Games per hash chain; game ``CHAIN_LENGTH + 1`` starts a new chain (docs/fairness.md)."""

CONSTRUCTION = 2
"""The construction new games are dealt by: 2 puts the game's first dealer in every draw's
message; 1 (games dealt before it) did not, so its decks do not prove who was dealt what."""

CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


class FairnessError(CardtableError):
    """A record whose deals do not check out, or fairness data that is malformed."""


def check_client_seed(seed: object) -> str:
    """A player's seed as given: 1-64 characters of ``A-Z a-z 0-9 _ -`` (base64url, so it
    never holds the separators of the HMAC message); ``ValueError`` otherwise."""
    if not isinstance(seed, str) or CLIENT_SEED.fullmatch(seed) is None:
        raise ValueError("a seed is 1-64 characters of A-Z, a-z, 0-9, '_' and '-'")
    return seed


def commitment_of(server_seed: str) -> str:
    """The published commitment of a server seed (hex): SHA-256 of its 32 bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def chain_seed(secret: str, game: int) -> str:
    """The server seed of game ``game`` (from 1) of a table whose secret is ``secret`` (hex).

    Chain ``c`` covers games ``c*L+1 … (c+1)*L``: its top link is
    ``HMAC-SHA256(secret, "cardtable-chain:c")``, each lower link the SHA-256 of the one
    above, and game ``c*L+k`` plays link ``k``, so link 0 (the chain's anchor) commits to all
    of them. The secret itself is never published."""
    if game < 1:
        raise ValueError("games are numbered from 1")
    chain, link = divmod(game - 1, CHAIN_LENGTH)
    value = hmac.new(bytes.fromhex(secret), f"cardtable-chain:{chain}".encode(), "sha256").digest()
    for _ in range(CHAIN_LENGTH - (link + 1)):
        value = hashlib.sha256(value).digest()
    return value.hex()


def bot_seed(secret: str, seq: int) -> int:
    """A bot's random seed at event ``seq`` of a table: fixed (a table replays) but secret,
    so nobody can foresee a bot's choices from the public table id."""
    digest = hmac.new(bytes.fromhex(secret), f"cardtable-bot:{seq}".encode(), "sha256").digest()
    return int.from_bytes(digest[:8], "big")


def _words(key: bytes, prefix: str) -> Iterator[int]:
    block = 0
    while True:
        digest = hmac.new(key, f"{prefix}:{block}".encode(), "sha256").digest()
        for at in range(0, 32, 4):
            yield int.from_bytes(digest[at : at + 4], "big")
        block += 1


def message_prefix(
    table: str, game: int, label: str, seeds: Sequence[str | None], dealer: int | None
) -> str:
    """The HMAC message of a draw without its block counter (docs/fairness.md): of
    construction 2 with the game's first ``dealer``, of construction 1 without (None)."""
    joined = ",".join(s or "" for s in seeds)
    if dealer is None:
        return f"cardtable-deal:{table}:{game}:{label}:{joined}"
    return f"cardtable-deal-2:{table}:{game}:{dealer}:{label}:{joined}"


def fair_shuffle(
    server_seed: str,
    table: str,
    game: int,
    label: str,
    seeds: Sequence[str | None],
    cards: Sequence[int],
    dealer: int | None,
) -> list[int]:
    """``cards`` (card indices) in the order the construction deals them, index 0 first:
    sorted by index, then shuffled by Fisher–Yates from the last position down. ``dealer``
    is the game's first dealer (construction 2), None for construction 1."""
    prefix = message_prefix(table, game, label, seeds, dealer)
    words = _words(bytes.fromhex(server_seed), prefix)
    order = sorted(cards)
    for i in range(len(order) - 1, 0, -1):
        m = i + 1
        limit = 2**32 - 2**32 % m
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % m
        order[i], order[j] = order[j], order[i]
    return order


# Verifying a record -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verified:
    """What ``verify_record`` checked: the game and how many decks and reshuffles, and
    whether the proof covers the first dealer too (construction 2), so who was dealt what."""

    game: str
    decks: int
    reshuffles: int
    commitment: str
    covers_dealer: bool


def _field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise FairnessError(f"{where} field {key!r} is missing or not a {kind.__name__}")
    return value


def _seeds(item: dict[str, Any], players: int, where: str) -> list[str | None]:
    seeds = item.get("seeds")
    if not isinstance(seeds, list) or len(seeds) != players:
        raise FairnessError(f"{where}: 'seeds' is a list with one entry per seat ({players})")
    for seed in seeds:
        if seed is not None:
            try:
                check_client_seed(seed)
            except ValueError as exc:
                raise FairnessError(f"{where}: {exc}") from None
    return seeds


def verify_record(data: object) -> Verified:
    """Check a game record's ``fair`` block (docs/record.md): the server seed matches the
    commitment, every recorded deck and reshuffle is the one the construction derives (of
    construction 2: from the record's first dealer too), and the record replays with them
    (so every card dealt, turned, cut or drawn came from them, to the seats they went to).
    :class:`FairnessError` (or ``InvalidRecordError``) names the first thing wrong."""
    import cardtable
    from cardtable.core import Record

    record = Record.from_dict(data)
    assert isinstance(data, dict)
    fair = data.get("fair")
    if not isinstance(fair, dict):
        raise FairnessError("the record has no 'fair' block: it is not from a fair-deal table")
    table = _field(fair, "table", str, "fair")
    game_no = _field(fair, "game", int, "fair")
    commitment = _field(fair, "commitment", str, "fair")
    server_seed = fair.get("server_seed")
    if server_seed is None:
        raise FairnessError("the server seed is not revealed yet: a game is verified once over")
    if not isinstance(server_seed, str) or _HEX64.fullmatch(server_seed) is None:
        raise FairnessError("fair field 'server_seed' is not 64 hex digits")
    if commitment_of(server_seed) != commitment:
        raise FairnessError(
            f"the server seed does not match the commitment: sha256 is "
            f"{commitment_of(server_seed)[:16]}…, committed {commitment[:16]}…"
        )
    construction = fair.get("construction", 1)
    if construction not in (1, 2) or isinstance(construction, bool):
        raise FairnessError(f"fair field 'construction' is 1 or 2, not {construction!r}")
    game = cardtable.make(record.game, **record.options)
    players = game.num_players
    # Construction 2 derives every deck from the first dealer too: a record whose dealer was
    # changed (every card then another seat's) derives other decks and fails below.
    dealer = None
    if construction == 2:
        dealer = record.options.get("dealer")
        if type(dealer) is not int:
            raise FairnessError("the record names no first dealer ('dealer' option)")
    deals = _field(fair, "decks", list, "fair")
    reshuffles = _field(fair, "reshuffles", list, "fair")
    if len(deals) != len(record.decks) or len(reshuffles) != len(record.reshuffles):
        raise FairnessError(
            f"the fair block lists {len(deals)} decks and {len(reshuffles)} reshuffles; "
            f"the record has {len(record.decks)} and {len(record.reshuffles)}"
        )
    for number, (item, deck) in enumerate(zip(deals, record.decks, strict=True)):
        where = f"deck of hand {number + 1}"
        if not isinstance(item, dict) or item.get("hand") != number + 1:
            raise FairnessError(f'{where}: its entry must say "hand": {number + 1}')
        seeds = _seeds(item, players, where)
        label = f"hand {number + 1}"
        derived = fair_shuffle(server_seed, table, game_no, label, seeds, game.pack, dealer)
        _same(where, derived, deck)
    for number, (item, order) in enumerate(zip(reshuffles, record.reshuffles, strict=True)):
        where = f"reshuffle {number}"
        if not isinstance(item, dict) or item.get("number") != number:
            raise FairnessError(f'{where}: its entry must say "number": {number}')
        seeds = _seeds(item, players, where)
        try:
            cards = [Card.parse(c).index for c in order]
        except ValueError as exc:
            raise FairnessError(f"{where}: {exc}") from None
        label = f"reshuffle {number}"
        derived = fair_shuffle(server_seed, table, game_no, label, seeds, cards, dealer)
        _same(where, derived, order)
    # The replay checks that each reshuffle holds exactly the cut cards set aside, and that
    # every card dealt, turned, cut and drawn is the one these decks put there.
    cardtable.replay(record)
    return Verified(
        record.game, len(record.decks), len(record.reshuffles), commitment, dealer is not None
    )


def _same(where: str, derived: list[int], recorded: list[str]) -> None:
    try:
        indices = [Card.parse(c).index for c in recorded]
    except ValueError as exc:
        raise FairnessError(f"{where}: {exc}") from None
    if indices != derived:
        at = next(
            (i for i, (a, b) in enumerate(zip(indices, derived, strict=False)) if a != b),
            min(len(indices), len(derived)),
        )
        shown = str(Card.from_index(derived[at])) if at < len(derived) else "nothing"
        found = recorded[at] if at < len(recorded) else "nothing"
        raise FairnessError(
            f"{where} is not the derived one: position {at} holds {found}, the seeds put "
            f"{shown} there"
        )
