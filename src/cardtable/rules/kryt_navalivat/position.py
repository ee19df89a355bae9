"""The Kryt'-navalivat' position notation: one line holding a whole hand, like FEN for chess.

Fields are ``key=value`` separated by single spaces, in this order
(``docs/kryt-navalivat.md``)::

    kryt/1 players=3 trumps=C dealer=2 hands=9S,10D,QS/6H,7H,8H/KC,9H,10H known=-/-/-
    pile=7D faceup=8C stock=7H,8H,9H turn=respond to_move=1 result=- seed=0

``trumps`` is the trump suit, or ``permanent`` for KRYT-8 (diamonds trumps, spades
anti-trumps). ``hands`` and ``known`` (the cards each seat is publicly known to hold:
picked up from the pile, or the turned card it took) are per seat, ``/`` between seats.
``pile`` is bottom first; ``stock`` the face-down cards, top first; ``faceup`` the turned
trump card while it lies under the stock (``-`` once drawn, and always in the permanent
mode). ``turn`` is the turn mode (``lead``, ``respond``, ``cover``, ``free`` or ``over``),
``to_move`` the seat to act (``-`` once over) and ``result`` ``-``, ``draw`` or
``loser:<seat>``. The cards of ``hands``, ``pile``, ``faceup`` and ``stock`` are the
36-card pack, each once.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import Card, card_text
from cardtable.core import Game
from cardtable.rules.kryt_navalivat.beating import (
    NO_SUIT,
    PACK_36,
    PERMANENT_ANTI,
    PERMANENT_TRUMP,
)
from cardtable.rules.kryt_navalivat.state import (
    COVERING,
    FREE,
    HAND_SIZE,
    LEADING,
    MODES,
    OVER,
    KrytNavalivatState,
    beaters_for,
)
from cardtable.rules.notation import Fields, cards_field
from cardtable.rules.tricks import BIT, CLOCKWISE, bits

HEADER = "kryt/1"
FIELDS = (
    "players", "trumps", "dealer", "hands", "known", "pile", "faceup", "stock", "turn",
    "to_move", "result", "seed",
)  # fmt: skip


def format_position(state: KrytNavalivatState) -> str:
    permanent = state.game.options["trump_mode"] == "permanent"
    if state.mode != OVER:
        result = "-"
    else:
        result = "draw" if state.loser is None else f"loser:{state.loser}"
    fields = {
        "players": str(state.players),
        "trumps": "permanent" if permanent else "CDHS"[state.trump],
        "dealer": str(state.dealer),
        "hands": "/".join(cards_field(bits(h)) for h in state.hands),
        "known": "/".join(cards_field(bits(k)) for k in state.known),
        "pile": cards_field(state.pile),
        "faceup": card_text(state.faceup) if state.faceup >= 0 else "-",
        "stock": cards_field(state.stock[::-1]),
        "turn": state.mode,
        "to_move": "-" if state.to_move is None else str(state.to_move),
        "result": result,
        "seed": str(state.seed),
    }
    return HEADER + " " + " ".join(f"{k}={v}" for k, v in fields.items())


def parse_position(game: Game, text: str) -> KrytNavalivatState:
    r = Fields(text, HEADER, "kryt-navalivat", FIELDS, ())
    n = r.number("players", 2, 6)
    if n != game.num_players:
        raise r.fail("players", f"this game has {game.num_players} players")
    permanent = game.options["trump_mode"] == "permanent"
    state = KrytNavalivatState.__new__(KrytNavalivatState)
    state.game = game
    state.players = n
    state.clockwise = CLOCKWISE[n]
    if permanent:
        if r["trumps"] != "permanent":
            raise r.fail("trumps", "this game plays permanent trumps (KRYT-8)")
        state.trump, state.anti = PERMANENT_TRUMP, PERMANENT_ANTI
    else:
        if r["trumps"] not in ("C", "D", "H", "S"):
            raise r.fail("trumps", "expected the trump suit: C, D, H or S")
        state.trump, state.anti = "CDHS".index(r["trumps"]), NO_SUIT
    state.beaters = beaters_for(state.trump, state.anti)
    state.dealer = r.number("dealer", 0, n - 1)

    state.hands = _masks(r, "hands", n)
    state.known = _masks(r, "known", n)
    for seat, (hand, known) in enumerate(zip(state.hands, state.known, strict=True)):
        if known & ~hand:
            raise r.fail("known", f"seat {seat} is said to hold cards it has not")
    state.pile = r.cards("pile")
    state.stock = r.cards("stock")[::-1]
    faceup = r.cards("faceup")
    if len(faceup) > 1:
        raise r.fail("faceup", "one turned card at most")
    state.faceup = faceup[0] if faceup else -1
    if state.faceup >= 0 and (permanent or state.faceup // 13 != state.trump):
        raise r.fail(
            "faceup", "the turned card names trumps; the permanent mode turns none (KRYT-8.1)"
        )
    if not permanent and state.stock and state.faceup < 0:
        raise r.fail(
            "faceup", "the turned card lies under the stock until it is drawn last (KRYT-2.5)"
        )
    cards = [c for h in state.hands for c in bits(h)] + state.pile + state.stock + faceup
    if sorted(cards) != list(PACK_36):
        raise r.fail("hands", "hands, pile, stock and turned card hold the 36-card pack once each")

    if r["turn"] not in MODES:
        raise r.fail("turn", f"expected one of {', '.join(MODES)}")
    state.mode = r["turn"]
    _check_turn(state, r)
    state.seed = r.number("seed", -(2**63), 2**63)
    state.deck = None
    state.history = []
    state.start = text
    return state


def _masks(r: Fields, key: str, n: int) -> list[int]:
    parts = r[key].split("/")
    if len(parts) != n:
        raise r.fail(key, f"expected {n} card lists separated by /")
    masks = []
    for part in parts:
        mask = 0
        for card in r.cards(key, part):
            if mask & BIT[card]:
                raise r.fail(key, f"{card_text(card)} is listed twice")
            mask |= BIT[card]
        masks.append(mask)
    return masks


def _check_turn(state: KrytNavalivatState, r: Fields) -> None:
    """The turn, the mover and the result agree with the cards (KRYT-4, KRYT-7, KRYT-10)."""
    stock_left = bool(state.stock) or state.faceup >= 0
    sizes = [h.bit_count() for h in state.hands]
    holders = [s for s in range(state.players) if sizes[s]]
    mode = state.mode
    if stock_left:
        for seat, size in enumerate(sizes):
            least = HAND_SIZE - 1 if mode == COVERING and r["to_move"] == str(seat) else HAND_SIZE
            if size < least:
                raise r.fail(
                    "hands", f"seat {seat} holds {size} cards while the stock lasts (KRYT-11.3)"
                )
    if mode == OVER:
        state.to_move = None
        if r["to_move"] != "-":
            raise r.fail("to_move", "nobody moves once the hand is over")
        if stock_left or len(holders) != 1:
            raise r.fail("turn", "a hand ends with the stock empty and one player holding cards")
        last = holders[0]
        if r["result"] == "draw":
            top = state.pile[-1] if state.pile else -1
            if sizes[last] != 1 or top < 0 or not state.beaters[top] & state.hands[last]:
                raise r.fail("result", "a draw leaves one card, which beats the top (KRYT-7.3)")
            state.loser, state.drawn = None, True
        elif r["result"] == f"loser:{last}":
            state.loser, state.drawn = last, False
        else:
            raise r.fail("result", f"expected draw or loser:{last}")
        return
    if r["result"] != "-":
        raise r.fail("result", "the hand is not over")
    state.loser, state.drawn = None, False
    mover = r.number("to_move", 0, state.players - 1)
    state.to_move = mover
    if not sizes[mover]:
        raise r.fail("to_move", f"seat {mover} holds no cards (KRYT-11.6)")
    if not stock_left and len(holders) < 2:
        raise r.fail("turn", "with the stock empty and one player holding cards, it is over")
    if (mode == LEADING) != (not state.pile):
        raise r.fail("turn", "a lead is made on an empty pile, every other turn on a pile")
    if mode == FREE and stock_left:
        raise r.fail("turn", "the free card of KRYT-4.3 comes only once the stock is empty")


FILL = "…"
"""In :func:`compose_position`, the place for every card no other piece names."""


def compose_position(
    hands: Sequence[str],
    *,
    pile: str = "",
    stock: str = "",
    faceup: str = "",
    trumps: str = "C",
    turn: str = "respond",
    to_move: int | None = 0,
    dealer: int | None = None,
    known: Sequence[str] = (),
    result: str = "-",
    seed: int = 1,
) -> str:
    """``kryt/1`` position text from readable pieces, for tests and bug reports.

    ``hands`` holds one card list per seat (``"7D 10S"``, ``""`` for none); ``pile`` is
    bottom first, ``stock`` the face-down stock top first, ``faceup`` the turned card
    (``""`` for none) and ``trumps`` a suit letter or ``permanent``. One piece may hold
    :data:`FILL` (``…``): the cards of the pack no piece names go there, in pack order, so
    that a scenario need only name the cards it is about. ``dealer`` defaults to the seat
    on the mover's right. Nothing is checked here; :func:`parse_position` does that.

    >>> text = compose_position(["7H 8H 9H", "…"], stock="9C 10C", faceup="6C", turn="lead")
    >>> text.split()[4][:35], text.split()[7:9]
    ('hands=7H,8H,9H/7C,8C,JC,QC,KC,AC,6D', ['faceup=6C', 'stock=9C,10C'])
    """

    def cards(text: str) -> list[str]:
        return [c if c == FILL else str(Card.parse(c)) for c in text.replace(",", " ").split()]

    pieces = [cards(h) for h in hands] + [cards(pile), cards(stock)]
    used = {c for piece in pieces for c in piece} | set(cards(faceup))
    rest = [c for c in map(card_text, PACK_36) if c not in used]
    filled = [[c for item in piece for c in (rest if item == FILL else [item])] for piece in pieces]
    *held, pile_cards, stock_cards = filled
    players = len(hands)
    if dealer is None:
        dealer = ((to_move or 0) - 1) % players
    known_text = [",".join(cards(k)) or "-" for k in known] or ["-"] * players
    return " ".join(
        [
            f"{HEADER} players={players} trumps={trumps} dealer={dealer}",
            "hands=" + "/".join(",".join(h) or "-" for h in held),
            "known=" + "/".join(known_text),
            "pile=" + (",".join(pile_cards) or "-"),
            "faceup=" + (",".join(cards(faceup)) or "-"),
            "stock=" + (",".join(stock_cards) or "-"),
            f"turn={turn} to_move={'-' if to_move is None else to_move}",
            f"result={result} seed={seed}",
        ]
    )
