"""The Neuf position notation: one line holding a whole state.

Fields are ``key=value`` separated by single spaces, in this order (``docs/neuf.md``)::

    neuf/1 players=3 sequence=HDCS-NT first=2 ledger=5,4,4/3,6,4 phase=play
    exchanges=0:e,1:k,2:k piles=…/…/…/… done=0:AS,1:2S,2:3S trick=0:4H seed=7 chance=3
    [previous=H:…:…] [stacked=…]

``first`` is the first dealer and ``ledger`` the tricks each side took in every completed
deal (``-`` before the first), from which the scores, this deal's number, dealer and trump
follow. ``piles`` are the piles as dealt (each seat's, then, with 3 players, the spare's),
``exchanges`` the decisions so far (``e`` exchange, ``k`` keep); the current hands and
spare follow from them and from ``done`` (this deal's finished tricks, ``/`` between
tricks) and ``trick`` (the one in progress), written ``seat:card`` in playing order.
``previous`` holds the deal before: its trump, its tricks and its final spare (N-5).
Whose turn it is follows from the rest, so it is not written.
"""

from __future__ import annotations

from cardtable.cards import card_text
from cardtable.core import Game
from cardtable.errors import InvalidScoreError
from cardtable.rules.neuf.ledger import TRICKS, TRUMP_SEQUENCES, Ledger
from cardtable.rules.neuf.state import EXCHANGING, OVER, PLAY, SPARE, NeufState, trump_index
from cardtable.rules.notation import Fields, cards_field, is_count, plays_field, tricks_field
from cardtable.rules.tricks import CLOCKWISE, SUIT_MASKS, bits, trick_winner

HEADER = "neuf/1"
FIELDS = (
    "players", "sequence", "first", "ledger", "phase", "exchanges", "piles", "done", "trick",
    "seed", "chance",
)  # fmt: skip
OPTIONAL_FIELDS = ("previous", "stacked")


def format_position(state: NeufState) -> str:
    ledger = state.ledger
    fields = {
        "players": str(state.players),
        "sequence": ledger.trump_sequence,
        "first": str(ledger.first_dealer),
        "ledger": "/".join(",".join(map(str, row.tricks)) for row in ledger.rows) or "-",
        "phase": state.phase,
        "exchanges": ",".join(f"{s}:{'e' if e else 'k'}" for s, e in state.acted_exchange) or "-",
        "piles": "/".join(cards_field(bits(p)) for p in state.piles),
        "done": tricks_field(state.done),
        "trick": plays_field(state.trick),
        "seed": str(state.seed),
        "chance": str(state.decks_drawn),
    }
    text = HEADER + " " + " ".join(f"{k}={v}" for k, v in fields.items())
    if state.previous is not None:
        trump, tricks, spare = state.previous
        name = "NT" if trump < 0 else "CDHS"[trump]
        text += f" previous={name}:{tricks_field(tricks)}:{cards_field(bits(spare))}"
    if state.stacked_decks:
        text += " stacked=" + "/".join(cards_field(d) for d in state.stacked_decks)
    return text


def parse_position(game: Game, text: str) -> NeufState:
    r = Fields(text, HEADER, "neuf", FIELDS, OPTIONAL_FIELDS)
    n = r.number("players", 3, 4)
    if n != game.num_players:
        raise r.fail("players", f"this game has {game.num_players} players")
    if r["sequence"] != game.options["trump_sequence"]:
        raise r.fail("sequence", f"this game plays {game.options['trump_sequence']}")
    assert r["sequence"] in TRUMP_SEQUENCES
    state = NeufState.__new__(NeufState)
    state.game = game
    state.players = n
    state.clockwise = CLOCKWISE[n]
    state.ledger = Ledger(n, r.number("first", 0, n - 1), r["sequence"])
    if r["ledger"] != "-":
        for row in r["ledger"].split("/"):
            counts = row.split(",")
            if not all(map(is_count, counts)):
                raise r.fail("ledger", f"{row!r} is not trick counts")
            try:
                state.ledger.record([int(c) for c in counts])
            except InvalidScoreError as exc:
                raise r.fail("ledger", str(exc)) from exc
    if r["phase"] not in (EXCHANGING, PLAY, OVER):
        raise r.fail("phase", "expected exchange, play or over")
    state.phase = r["phase"]
    state.trump = trump_index(state.trump_name)

    piles = r["piles"].split("/")
    if len(piles) != 4:
        raise r.fail("piles", "expected four piles separated by /")
    state.piles = []
    for pile in piles:
        cards = r.cards("piles", pile)
        if len(cards) != 13:
            raise r.fail("piles", "every pile holds 13 cards")
        state.piles.append(sum(1 << c for c in cards))
    if len({c for p in state.piles for c in bits(p)}) != 52:
        raise r.fail("piles", "the piles must hold each card of the pack once")

    state.acted_exchange = []
    order = state.exchange_order
    if r["exchanges"] != "-":
        for k, item in enumerate(r["exchanges"].split(",")):
            seat, _, choice = item.partition(":")
            if k >= len(order) or seat != str(order[k]) or choice not in ("e", "k"):
                raise r.fail("exchanges", f"the order is {list(order)}")
            state.acted_exchange.append((int(seat), choice == "e"))
    hands = state.piles[:n]
    spare = state.piles[SPARE] if n == 3 else 0
    for s, exchanged in state.acted_exchange:
        if exchanged:
            hands[s], spare = spare, hands[s]

    state.done = r.tricks("done", n)
    state.trick = r.plays("trick", r["trick"], n)
    state.tricks_won = [0] * n
    for trick in state.done:
        if len(trick) != n:
            raise r.fail("done", f"a finished trick has {n} cards")
    _replay_tricks(state, hands, r)
    state.hands = hands
    state.spare = spare
    state.led_suit = state.trick[0][1] // 13 if state.trick else -1
    state.seed = r.number("seed", -(2**63), 2**63)
    state.decks_drawn = r.number("chance", 0, 10**6)
    state.stacked_decks = (
        [r.cards("stacked", d) for d in r["stacked"].split("/")] if "stacked" in r else []
    )
    state.used_decks = []
    state.history = []
    state.start = text
    state.previous = None
    if "previous" in r:
        parts = r["previous"].split(":", 1)
        trump_text, _, rest = r["previous"].partition(":")
        tricks_text, _, spare_text = rest.rpartition(":")
        if trump_text not in ("C", "D", "H", "S", "NT") or len(parts) < 2:
            raise r.fail("previous", "expected <trump>:<tricks>:<spare>")
        previous_spare = sum(1 << c for c in r.cards("previous", spare_text))
        state.previous = (
            -1 if trump_text == "NT" else "CDHS".index(trump_text),
            r.tricks("previous", n, tricks_text),
            previous_spare,
        )
    state.to_move = _derive_turn(state, r)
    return state


def _replay_tricks(state: NeufState, hands: list[int], r: Fields) -> None:
    """Play ``done`` then ``trick`` from the hands after the exchange, as the rules allow
    them: the dealer's left leads first and each winner next (NEUF-4.1, 4.4), clockwise,
    every card held and following suit when it can (NEUF-4.2). Takes the played cards out of
    ``hands`` and counts the tricks won."""
    n = state.players
    leader = (state.dealer + 1) % n
    tricks = [("done", t) for t in state.done] + [("trick", state.trick)]
    for number, (key, trick) in enumerate(tricks):
        if trick and trick[0][0] != leader:
            raise r.fail(key, f"seat {leader} leads this trick, not {trick[0][0]}")
        led = trick[0][1] // 13 if trick else -1
        for k, (seat, card) in enumerate(trick):
            if seat != (leader + k) % n:
                raise r.fail(key, "the cards of a trick go clockwise")
            hand = hands[seat]
            if not hand >> card & 1:
                raise r.fail(key, f"seat {seat} does not hold {card_text(card)}")
            if card // 13 != led and hand & SUIT_MASKS[led]:
                raise r.fail(key, f"seat {seat} revokes with {card_text(card)}")
            hands[seat] = hand ^ 1 << card
        if key == "done":
            leader = trick_winner(trick, state.trump)
            state.tricks_won[leader] += 1
            crossed = state.game.options["tie_avoidance"] and state._crosses(leader)
            if crossed and (number != len(state.done) - 1 or state.phase != OVER):
                # NEUF-8.3: a crossing ends the game at once; nothing follows it.
                raise r.fail(key, f"seat {leader} had already won (NEUF-8.3)")


def _derive_turn(state: NeufState, r: Fields) -> int | None:
    n = state.players
    if state.phase == OVER:
        return None
    if state.ledger.is_over:
        raise r.fail("phase", "the ledger has a winner: the game is over")
    order = state.exchange_order
    if state.phase == EXCHANGING:
        if state.done or state.trick or len(state.acted_exchange) >= len(order):
            raise r.fail("phase", "the exchange comes before any trick")
        return order[len(state.acted_exchange)]
    if len(state.acted_exchange) != len(order):
        raise r.fail("exchanges", "every player decides before the play")
    if len(state.done) >= TRICKS:
        raise r.fail("done", "a deal has 13 tricks")
    if state.trick:
        if len(state.trick) >= n:
            raise r.fail("trick", "a full trick should have been taken")
        return state.clockwise[state.trick[-1][0]][0]
    if not state.done:
        return (state.dealer + 1) % n
    return trick_winner(state.done[-1], state.trump)
