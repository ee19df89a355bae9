"""Passkeys (WebAuthn): a player signs in on a new device without a password
(docs/server.md, "Players"), through the ``webauthn`` package's two ceremonies.

- **Adding a passkey**, on a device that already speaks as the player (its key):
  :func:`registration_options`, the browser's ``navigator.credentials.create``, then
  :func:`register`, which keeps the credential's id and public key.
- **Signing in**, on any device: :func:`sign_in_options`, the browser's
  ``navigator.credentials.get`` (the passkey is discoverable: the player picks it, nobody
  types a name), then :func:`sign_in`, which checks the signature against the stored public
  key and gives this device a key of its own (``players.add_key``).

Each ceremony's challenge is random, single-use and short-lived, and kept (as its hash) in
the database, so that the second request may reach another server process than the first.
The relying party is the page's own site: its ``Origin`` (which ``origins.py`` has already
checked is the server's or one the operator allows) gives the expected origin, and its host
the RP ID. WebAuthn has no RP ID for an IP address: a server reached as ``127.0.0.1`` is
told to be reached by name (``localhost``, or its domain) for passkeys.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import (
    InvalidAuthenticationResponse,
    InvalidCBORData,
    InvalidJSONStructure,
    InvalidRegistrationResponse,
)
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from cardtable.server.players import (
    ChallengeRow,
    PasskeyRow,
    Player,
    PlayerRow,
    add_key,
)
from cardtable.server.store import WAIT, Store

__all__ = [
    "CHALLENGE_LIFE",
    "PasskeyError",
    "Site",
    "register",
    "registration_options",
    "sign_in",
    "sign_in_options",
    "site_of",
]

CHALLENGE_LIFE = 300.0  # seconds a ceremony may take, from its options to its answer
RP_NAME = "cardtable"
REGISTER = "register"
SIGN_IN = "sign-in"
# What the webauthn package raises of an answer that proves nothing (or is not one).
_REFUSED = (
    InvalidAuthenticationResponse,
    InvalidRegistrationResponse,
    InvalidJSONStructure,
    InvalidCBORData,
    ValueError,
    KeyError,
    TypeError,
)


class PasskeyError(Exception):
    """A ceremony refused: ``code`` for the API, the message in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Site:
    """The relying party a page speaks for: its origin and RP ID (the origin's host)."""

    origin: str
    rp_id: str


def site_of(origin: str | None) -> Site:
    """The relying party of a page whose ``Origin`` header is ``origin``."""
    if not origin:
        raise PasskeyError(
            "no_origin", "a passkey is a browser page's: the request names no Origin"
        )
    host = urlsplit(origin).hostname or ""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return Site(origin, host)
    raise PasskeyError(
        "passkeys_need_a_name",
        f"passkeys need the server reached by its name, not the address {host}"
        " (for this machine: localhost)",
    )


def registration_options(store: Store, site: Site, player: Player, wait: float = WAIT) -> str:
    """The options (JSON) of a new passkey for ``player``; its challenge kept."""
    with Session(store.engine) as session:
        held = list(session.scalars(select(PasskeyRow.id).where(PasskeyRow.player_id == player.id)))
    options = generate_registration_options(
        rp_id=site.rp_id,
        rp_name=RP_NAME,
        user_id=player.id.encode(),
        user_name=player.name,
        user_display_name=player.name,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(cid)) for cid in held
        ],
    )
    _keep(store, options.challenge, REGISTER, player.id, wait)
    return options_to_json(options)


def register(
    store: Store, site: Site, player: Player, credential: object, wait: float = WAIT
) -> str:
    """Keep the passkey a browser made from :func:`registration_options`: its id."""
    challenge = _challenge_of(credential)
    _spend(store, challenge, REGISTER, player.id, wait)
    try:
        verified = verify_registration_response(
            credential=_plain(credential),
            expected_challenge=challenge,
            expected_rp_id=site.rp_id,
            expected_origin=site.origin,
        )
    except _REFUSED as exc:
        raise PasskeyError("bad_passkey", f"the passkey was not made as asked: {exc}") from None
    credential_id = bytes_to_base64url(verified.credential_id)
    with store.writing(wait) as session:
        session.execute(
            insert(PasskeyRow).values(
                id=credential_id,
                player_id=player.id,
                public_key=bytes_to_base64url(verified.credential_public_key),
                sign_count=verified.sign_count,
                created=time.time(),
            )
        )
    return credential_id


def sign_in_options(store: Store, site: Site, wait: float = WAIT) -> str:
    """The options (JSON) to sign in with any passkey of this site; the challenge kept."""
    options = generate_authentication_options(
        rp_id=site.rp_id, user_verification=UserVerificationRequirement.PREFERRED
    )
    _keep(store, options.challenge, SIGN_IN, None, wait)
    return options_to_json(options)


def sign_in(store: Store, site: Site, credential: object, wait: float = WAIT) -> tuple[Player, str]:
    """The player a browser's answer to :func:`sign_in_options` proves, and a new key for
    this device."""
    challenge = _challenge_of(credential)
    _spend(store, challenge, SIGN_IN, None, wait)
    plain = _plain(credential)
    with Session(store.engine) as session:
        row = session.get(PasskeyRow, str(plain.get("id", "")))
        if row is None:
            raise PasskeyError("unknown_passkey", "no player of this server has that passkey")
        owner = session.get(PlayerRow, row.player_id)
        assert owner is not None  # a passkey goes with its player (players.remove_player)
        found = Player(owner.id, owner.name, owner.created)
        public_key, count = base64url_to_bytes(row.public_key), row.sign_count
    try:
        verified = verify_authentication_response(
            credential=plain,
            expected_challenge=challenge,
            expected_rp_id=site.rp_id,
            expected_origin=site.origin,
            credential_public_key=public_key,
            credential_current_sign_count=count,
        )
    except _REFUSED as exc:
        raise PasskeyError(
            "bad_passkey", f"the passkey's answer does not prove it: {exc}"
        ) from None
    with store.writing(wait) as session:
        session.execute(
            update(PasskeyRow)
            .where(PasskeyRow.id == str(plain["id"]))
            .values(sign_count=verified.new_sign_count)
        )
    return found, add_key(store, found.id, wait)


def _plain(credential: object) -> dict[str, Any]:
    if not isinstance(credential, dict):
        raise PasskeyError("malformed", "credential is the browser's answer, a JSON object")
    return credential


def _challenge_of(credential: object) -> bytes:
    """The challenge a browser's answer signed (its client data's), to find its ceremony."""
    try:
        client_data = _plain(credential)["response"]["clientDataJSON"]
        return base64url_to_bytes(str(json.loads(base64url_to_bytes(client_data))["challenge"]))
    except PasskeyError:
        raise
    except (*_REFUSED, AttributeError, json.JSONDecodeError) as exc:
        raise PasskeyError(
            "malformed", f"credential has no readable client data: {exc!r}"
        ) from None


def _digest(challenge: bytes) -> str:
    return hashlib.sha256(challenge).hexdigest()


def _keep(store: Store, challenge: bytes, purpose: str, player_id: str | None, wait: float) -> None:
    now = time.time()
    with store.writing(wait) as session:
        session.execute(delete(ChallengeRow).where(ChallengeRow.expires < now))
        session.add(
            ChallengeRow(
                digest=_digest(challenge),
                purpose=purpose,
                player_id=player_id,
                expires=now + CHALLENGE_LIFE,
            )
        )


def _spend(
    store: Store, challenge: bytes, purpose: str, player_id: str | None, wait: float
) -> None:
    """Use up the ceremony's challenge, once: refused if it is unknown, spent, expired, of
    the other ceremony, or another player's."""
    with store.writing(wait) as session:
        spent = session.execute(
            delete(ChallengeRow).where(
                ChallengeRow.digest == _digest(challenge),
                ChallengeRow.purpose == purpose,
                ChallengeRow.expires >= time.time(),
                ChallengeRow.player_id.is_(None)
                if player_id is None
                else ChallengeRow.player_id == player_id,
            )
        )
        if getattr(spent, "rowcount", 0) != 1:
            raise PasskeyError(
                "bad_challenge", "this passkey's challenge is unknown, used or expired: try again"
            )
