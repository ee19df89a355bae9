"""The Knockout Whist position notation: one line holding a whole state.

Fields are ``key=value`` separated by single spaces, always in this order
(``docs/knockout-whist.md`` has a worked example)::

    kow/1 players=5 hand=3 dealer=2 phase=play trump=C turned=- dog=used
    status=AAAAA out=- won=1,0,0,0,0 cuts=- chooser=3
    hands=-/2D/5C,3H,6H,KS,AS/… stock=… done=3:AH,4:JH,0:JC,1:x,2:6H trick=2:AS
    seed=17 chance=3,0 [previous=…] [stacked=…]

``status`` has one letter a seat (``A`` active, ``D`` dog, ``O`` out); ``out`` lists
``seat@hand`` in the order players went out; ``hands`` are the seats' cards separated
by ``/``; ``stock`` is the undealt remainder, top first; ``cuts`` the cut rounds
(``seat:card``, rounds separated by ``/``); ``done`` this hand's finished tricks and
``trick`` the one in progress, as ``seat:card`` in playing order with ``x`` for a
knock; ``seed`` and ``chance`` (decks and reshuffles drawn so far) fix future deals;
``previous`` (from hand 2 on) holds the hand before's trump and tricks, ``H:`` then tricks
as in ``done``; ``stacked`` lists decks stacked for later hands, when there are any.
``-`` is empty.
Whose turn it is follows from the rest, so it is not written.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import Card, card_text, parse_cards
from cardtable.core import Game
from cardtable.rules.knockout_whist.state import (
    ACTIVE,
    DOG,
    HANDS,
    KNOCKED,
    OUT,
    OVER,
    PLAY,
    TRUMP,
    KnockoutWhistState,
)
from cardtable.rules.notation import Fields, cards_field, is_count, plays_field, tricks_field
from cardtable.rules.tricks import CLOCKWISE, bits, trick_winner

HEADER = "kow/1"
FIELDS = (
    "players", "hand", "dealer", "phase", "trump", "turned", "dog", "status", "out", "won",
    "cuts", "chooser", "hands", "stock", "done", "trick", "seed", "chance",
)  # fmt: skip
OPTIONAL_FIELDS = ("previous", "stacked")
_STATUS_LETTERS = "ADO"


def format_position(state: KnockoutWhistState) -> str:
    fields = {
        "players": str(state.players),
        "hand": str(state.hand_no),
        "dealer": str(state.dealer),
        "phase": state.phase,
        "trump": "-" if state.trump is None else "CDHS"[state.trump],
        "turned": "-" if state.turned is None else card_text(state.turned),
        "dog": "used" if state.dog_used else "unused",
        "status": "".join(_STATUS_LETTERS[s] for s in state.status),
        "out": ",".join(f"{s}@{h}" for s, h in state.eliminated) or "-",
        "won": ",".join(map(str, state.tricks_won)),
        "cuts": tricks_field(state.cuts),
        "chooser": "-" if state.chooser is None else str(state.chooser),
        "hands": "/".join(cards_field(bits(h)) for h in state.hands),
        "stock": cards_field(state.stock),
        "done": tricks_field(state.done),
        "trick": plays_field(state.trick),
        "seed": str(state.seed),
        "chance": f"{state.decks_drawn},{state.reshuffles_drawn}",
    }
    text = HEADER + " " + " ".join(f"{k}={v}" for k, v in fields.items())
    if state.previous is not None:
        trump, tricks = state.previous
        text += f" previous={'CDHS'[trump]}:{tricks_field(tricks)}"
    if state.stacked_decks:
        text += " stacked=" + "/".join(cards_field(d) for d in state.stacked_decks)
    return text


def compose_position(
    *,
    hands: Sequence[str],
    hand: int,
    dealer: int,
    status: str | None = None,
    phase: str = PLAY,
    trump: str | None = None,
    turned: str | None = None,
    dog_used: bool = False,
    out: str = "-",
    won: Sequence[int] | None = None,
    cuts: str = "-",
    chooser: int | None = None,
    done: str = "-",
    trick: str = "-",
    seed: int = 1,
    stacked: Sequence[str] = (),
) -> str:
    """Position text from readable pieces, for tests, bug reports and puzzles.

    ``hands`` holds one string of cards per seat (``"AH 7D"`` or ``"AH,7D"``; ``""`` or
    ``"-"`` for none); ``cuts``, ``done`` and ``trick`` are written as in the notation
    (``"0:AH,1:x"``). The undealt remainder is every other card of the pack, in index
    order; ``chance`` counts ``hand`` decks drawn. Nothing is checked here:
    :func:`parse_position` does that.

    >>> import cardtable
    >>> text = compose_position(hands=["AH 2C", "KH 3C"], hand=6, dealer=1, trump="C")
    >>> state = cardtable.make("knockout-whist", players=2).state_from_position(text)
    >>> state.to_move, [str(a) for a in state.legal_actions()]
    (0, ['play 2C', 'play AH'])
    """
    players = len(hands)
    held = [parse_cards("" if h == "-" else h) for h in hands]
    used = {c.index for group in held for c in group}
    used |= {c for text in (cuts, done, trick) for c in _cards_played(text)}
    if turned is not None:
        used.add(Card.parse(turned).index)
    stock = [c for c in range(52) if c not in used]
    fields = {
        "players": str(players),
        "hand": str(hand),
        "dealer": str(dealer),
        "phase": phase,
        "trump": trump or "-",
        "turned": turned or "-",
        "dog": "used" if dog_used else "unused",
        "status": status or "A" * players,
        "out": out,
        "won": ",".join(map(str, won or [0] * players)),
        "cuts": cuts,
        "chooser": "-" if chooser is None else str(chooser),
        "hands": "/".join(cards_field([c.index for c in group]) for group in held),
        "stock": cards_field(stock),
        "done": done,
        "trick": trick,
        "seed": str(seed),
        "chance": f"{hand},0",
    }
    text = HEADER + " " + " ".join(f"{k}={v}" for k, v in fields.items())
    if stacked:
        text += " stacked=" + "/".join(
            cards_field([c.index for c in parse_cards(d)]) for d in stacked
        )
    return text


def _cards_played(text: str) -> list[int]:
    """Cards named in ``seat:card`` lists (tricks, cuts), knocks left out."""
    items = [item for part in text.split("/") for item in part.split(",") if item != "-"]
    return [Card.parse(card).index for _, card in (i.split(":") for i in items) if card != "x"]


def parse_position(game: Game, text: str) -> KnockoutWhistState:
    r = Fields(text, HEADER, "knockout-whist", FIELDS, OPTIONAL_FIELDS)
    n = r.number("players", 2, 7)
    if n != game.num_players:
        raise r.fail("players", f"this game has {game.num_players} players")

    state = KnockoutWhistState.__new__(KnockoutWhistState)
    state.game = game
    state.players = n
    state.clockwise = CLOCKWISE[n]
    state.hand_no = r.number("hand", 1, HANDS)
    state.dealer = r.number("dealer", 0, n - 1)
    if r["phase"] not in (TRUMP, PLAY, OVER):
        raise r.fail("phase", "expected trump, play or over")
    state.phase = r["phase"]
    if r["trump"] not in ("-", "C", "D", "H", "S"):
        raise r.fail("trump", "expected C, D, H, S or -")
    state.trump = None if r["trump"] == "-" else "CDHS".index(r["trump"])
    turned = r.cards("turned")
    state.turned = turned[0] if turned else None
    if r["dog"] not in ("used", "unused"):
        raise r.fail("dog", "expected used or unused")
    state.dog_used = r["dog"] == "used"
    status_text = r["status"]
    if len(status_text) != n or set(status_text) - set(_STATUS_LETTERS):
        raise r.fail("status", f"expected {n} letters from A, D, O")
    state.status = [_STATUS_LETTERS.index(ch) for ch in status_text]
    state.eliminated = []
    if r["out"] != "-":
        for item in r["out"].split(","):
            seat, _, hand = item.partition("@")
            if not (is_count(seat) and is_count(hand)) or int(seat) >= n:
                raise r.fail("out", f"{item!r} is not seat@hand")
            state.eliminated.append((int(seat), int(hand)))
    won = r["won"].split(",")
    if len(won) != n or not all(map(is_count, won)):
        raise r.fail("won", f"expected {n} trick counts")
    state.tricks_won = [int(w) for w in won]
    state.cuts = r.tricks("cuts", n, knocks=True)
    state.chooser = r.optional_number("chooser", 0, n - 1)
    hand_texts = r["hands"].split("/")
    if len(hand_texts) != n:
        raise r.fail("hands", f"expected {n} hands separated by /")
    state.hands = []
    for seat_text in hand_texts:
        mask = 0
        for c in r.cards("hands", seat_text):
            mask |= 1 << c
        state.hands.append(mask)
    state.stock = r.cards("stock")
    state.done = r.tricks("done", n, knocks=True)
    state.trick = r.plays("trick", r["trick"], n, knocks=True)
    state.seed = r.number("seed", -(2**63), 2**63)
    chance = r["chance"].split(",")
    if len(chance) != 2 or not all(map(is_count, chance)):
        raise r.fail("chance", "expected decks,reshuffles")
    state.decks_drawn, state.reshuffles_drawn = int(chance[0]), int(chance[1])
    stacked = r.get("stacked")
    state.stacked_decks = [r.cards("stacked", d) for d in stacked.split("/")] if stacked else []
    state.stacked_reshuffles = []
    state.previous = None
    if "previous" in r:
        suit, _, tricks = r["previous"].partition(":")
        if suit not in ("C", "D", "H", "S") or state.hand_no == 1:
            raise r.fail("previous", "expected <trump>:<tricks>, and only after hand 1")
        rounds = [] if tricks == "-" else tricks.split("/")
        state.previous = (
            "CDHS".index(suit),
            [r.plays("previous", t, n, knocks=True) for t in rounds],
        )
    state.used_decks = []
    state.used_reshuffles = []
    state.history = []
    state.start = text
    state.first_dealer = None
    state.dealt_in = [
        state.status[s] != OUT or (s, state.hand_no) in state.eliminated for s in range(n)
    ]
    played = [c for t in state.done for _, c in t if c != KNOCKED]
    played += [c for _, c in state.trick if c != KNOCKED]
    state.led_suit = next((c // 13 for _, c in state.trick if c != KNOCKED), -1)
    state.acted = 0
    for s, _ in state.trick:
        state.acted |= 1 << s
    if (
        state.hand_no == 1
        and state.phase != OVER
        and (state.turned is None or state.trump != state.turned // 13)
    ):
        raise r.fail("trump", "hand 1's trump is the suit of the turned card (KOW-3.1)")
    if sorted(s for s, _ in state.eliminated) != [s for s in range(n) if state.status[s] == OUT]:
        raise r.fail("out", "must list each seat whose status is O, once")
    for t in [*state.done, state.trick]:
        for s, c in t:
            if c == KNOCKED and state.status[s] != DOG and state.phase == PLAY:
                raise r.fail("trick", f"seat {s} knocks but is not a dog (KOW-6.3)")
    _check_cards(r, state, played)
    _check_counts(r, state)
    state.to_move = _derive_turn(r, state)
    return state


def _check_cards(r: Fields, state: KnockoutWhistState, played: list[int]) -> None:
    """Every card once among hands, stock, played and turned; the cut cards fill the rest."""
    held = [c for h in state.hands for c in bits(h)]
    placed = held + state.stock + played + ([state.turned] if state.turned is not None else [])
    if len(set(placed)) != len(placed):
        raise r.fail("hands", "a card appears twice among hands, stock, tricks and turned card")
    cut = {c for rnd in state.cuts for _, c in rnd}
    if set(placed) | cut != set(range(52)):
        missing = sorted(set(range(52)) - set(placed) - cut)
        raise r.fail("stock", "cards are missing: " + " ".join(card_text(c) for c in missing))


def _check_counts(r: Fields, state: KnockoutWhistState) -> None:
    size = HANDS + 1 - state.hand_no
    if sum(state.tricks_won) != len(state.done):
        raise r.fail(
            "won", f"trick counts add up to {sum(state.tricks_won)}, not {len(state.done)}"
        )
    if len(state.done) >= size and state.phase != OVER:
        raise r.fail("done", f"hand {state.hand_no} has only {size} tricks")
    if state.phase == TRUMP and (
        state.hand_no == 1 or state.trump is not None or state.chooser is None
    ):
        raise r.fail("phase", "trumps are chosen only in hands 2-7, by a chooser, once")
    if state.phase == PLAY and state.trump is None:
        raise r.fail("trump", "play needs a trump suit")
    for s in range(state.players):
        cards = state.hands[s].bit_count()
        played = sum(
            1 for t in [*state.done, state.trick] for seat, c in t if seat == s and c != KNOCKED
        )
        status = state.status[s]
        expected = {ACTIVE: size, DOG: 1, OUT: 0}[status]
        if status == OUT and state.dealt_in[s]:
            expected = size
        if state.phase != OVER and cards + played != expected:
            raise r.fail(
                "hands",
                f"seat {s} holds {cards} cards and played {played}; expected {expected} in all",
            )


def _derive_turn(r: Fields, state: KnockoutWhistState) -> int | None:
    if state.phase == OVER:
        if sum(1 for s in state.status if s != OUT) != 1:
            raise r.fail("status", "a finished game has exactly one player left")
        return None
    if state.phase == TRUMP:
        return state.chooser
    if state.trick:
        nxt = state._next_to_act(state.trick[-1][0])
        if nxt is None:
            raise r.fail("trick", "every player has acted; the trick should have been taken")
        return nxt
    if not state.done:
        return state._first_leader()
    assert state.trump is not None
    winner = trick_winner(state.done[-1], state.trump)
    if state.hands[winner]:
        return winner
    nxt = state._next_to_act(winner)
    if nxt is None:
        raise r.fail("hands", "nobody holds cards to lead the next trick")
    return nxt
