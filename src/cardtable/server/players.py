"""Players the server knows (docs/server.md, "Players"): a name and an identity, without a
password.

A player is made with a name and gets a **key**, a random secret their browser keeps (its
"device key"); the database keeps only the key's SHA-256, as it keeps a seat's token. A
request speaks as the player with ``Authorization: Bearer <key>``, never in its address, so
no key is in a URL, a log line or a proxy's access log. A player may hold several keys,
one per device: a passkey (``passkeys.py``) signs them in on a new device, which gets a key
of its own. Nothing of a player is needed to play: a guest plays by invite link as always.

A seat is a player's once the holder of both the seat's token and the player's key says so
(:func:`claim_seat`): tables remember who sat where, and a finished game counts in its
players' history and ratings (``ladder.py``). A player rejoins a game they left half-way
from any device they are known on: their seat gets a new token for it (:func:`move_seat`).
An operator removes a player with :func:`remove_player` (``cardtable forget-player``): the
player's row, keys, passkeys and ratings go, and their seats become guests' seats again.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import Float, ForeignKey, Integer, String, Text, delete, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardtable.server.store import WAIT, Base, SeatRow, Store

__all__ = [
    "KEY_BYTES",
    "ChallengeRow",
    "PasskeyRow",
    "Player",
    "PlayerKeyRow",
    "PlayerRow",
    "RatingRow",
    "add_key",
    "bearer_key",
    "claim_seat",
    "key_digest",
    "move_seat",
    "new_player",
    "player",
    "player_of_key",
    "remove_player",
    "rename",
]

KEY_BYTES = 32  # a device key's randomness: as much as a passkey's credential


class PlayerRow(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)


class PlayerKeyRow(Base):
    """A device's key, as its SHA-256 (hex)."""

    __tablename__ = "player_keys"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[float] = mapped_column(Float)


class PasskeyRow(Base):
    """A WebAuthn credential: its id and public key (base64url), and the authenticator's
    signature counter as last seen (a clone's counter falls behind)."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(512), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    public_key: Mapped[str] = mapped_column(Text)
    sign_count: Mapped[int] = mapped_column(Integer)
    created: Mapped[float] = mapped_column(Float)


class ChallengeRow(Base):
    """A passkey ceremony's challenge under way, as its SHA-256: in the database, so that
    the process answering the ceremony's second request need not be the one that began it.
    ``player_id``: the player adding a passkey (None to sign in)."""

    __tablename__ = "challenges"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    expires: Mapped[float] = mapped_column(Float, index=True)


class RatingRow(Base):
    """A rating of one game (OpenSkill's Plackett-Luce, ``ladder.py``): of a player (``who``
    their id) or of a bot's level (``who`` ``bot:<level>``), on one scale."""

    __tablename__ = "ratings"

    who: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    created: float


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def bearer_key(authorization: str | None) -> str | None:
    """The key an ``Authorization`` header carries (``Bearer <key>``), or None."""
    if not authorization:
        return None
    scheme, _, key = authorization.partition(" ")
    key = key.strip()
    return key if scheme.lower() == "bearer" and key else None


def new_player(store: Store, name: str, wait: float = WAIT) -> tuple[Player, str]:
    """Make a player named ``name``: the player and the key of this device (the only time
    it is seen: the database keeps its hash)."""
    made = Player(secrets.token_hex(8), name, time.time())
    with store.writing(wait) as session:
        session.add(PlayerRow(id=made.id, name=made.name, created=made.created))
        session.flush()
        key = _add_key(session, made.id)
    return made, key


def add_key(store: Store, player_id: str, wait: float = WAIT) -> str:
    """A new device's key for the player."""
    with store.writing(wait) as session:
        return _add_key(session, player_id)


def _add_key(session: Session, player_id: str) -> str:
    key = secrets.token_urlsafe(KEY_BYTES)
    session.add(PlayerKeyRow(digest=key_digest(key), player_id=player_id, created=time.time()))
    return key


def player_of_key(store: Store, key: str | None) -> Player | None:
    """The player whose device holds ``key``, or None (no key, or one nobody holds)."""
    if key is None:
        return None
    with Session(store.engine) as session:
        row = session.execute(
            select(PlayerRow)
            .join(PlayerKeyRow, PlayerKeyRow.player_id == PlayerRow.id)
            .where(PlayerKeyRow.digest == key_digest(key))
        ).scalar_one_or_none()
        return None if row is None else Player(row.id, row.name, row.created)


def player(store: Store, player_id: str) -> Player | None:
    with Session(store.engine) as session:
        row = session.get(PlayerRow, player_id)
        return None if row is None else Player(row.id, row.name, row.created)


def rename(store: Store, player_id: str, name: str, wait: float = WAIT) -> None:
    with store.writing(wait) as session:
        session.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(name=name))


def claim_seat(
    store: Store, table_id: str, seat: int, token_digest: str, player_id: str, wait: float = WAIT
) -> str | None:
    """Make the seat whose token hashes to ``token_digest`` the player's, unless another
    player's already: the seat's player after the write (``player_id`` if it was claimed
    now or before), or None if no seat of the table has that number and token."""
    with store.writing(wait) as session:
        where = (
            SeatRow.table_id == table_id,
            SeatRow.seat == seat,
            SeatRow.token_hash == token_digest,
        )
        session.execute(
            update(SeatRow).where(*where, SeatRow.player_id.is_(None)).values(player_id=player_id)
        )
        return session.scalar(select(SeatRow.player_id).where(*where))


def move_seat(
    store: Store, table_id: str, seat: int, player_id: str, token_digest: str, wait: float = WAIT
) -> bool:
    """Give the player's seat a new token (whose hash is ``token_digest``), for the device
    the player rejoins it from: whether the seat is the player's. The seat's old link holds
    it no more (a seat is held by one window at a time anyway: docs/server.md)."""
    with store.writing(wait) as session:
        moved = session.execute(
            update(SeatRow)
            .where(
                SeatRow.table_id == table_id,
                SeatRow.seat == seat,
                SeatRow.player_id == player_id,
            )
            .values(token_hash=token_digest)
        )
        return bool(getattr(moved, "rowcount", 0) == 1)


def remove_player(store: Store, player_id: str, wait: float = WAIT) -> bool:
    """Remove everything stored of a player (their seats stay, as guests' seats): whether
    there was such a player."""
    with store.writing(wait) as session:
        session.execute(
            update(SeatRow).where(SeatRow.player_id == player_id).values(player_id=None)
        )
        for row in (PlayerKeyRow, PasskeyRow):
            session.execute(delete(row).where(row.player_id == player_id))
        session.execute(delete(ChallengeRow).where(ChallengeRow.player_id == player_id))
        session.execute(delete(RatingRow).where(RatingRow.who == player_id))
        removed = session.execute(delete(PlayerRow).where(PlayerRow.id == player_id))
        return bool(getattr(removed, "rowcount", 0) == 1)
