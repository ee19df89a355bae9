"""Fair-deal games played through the server's own table code, and what each page saw of them.

A game here is a real ``cardtable.server.table.Table`` with a secret, played to its end by
random legal moves, with pages that join it (each human seat's, giving its own seed, and a
spectator's), some at the start and some part-way, as browsers do. Each page's stream is the
messages the hub would send it (``Table.snapshot`` and ``Table.event_texts``), and the
game's record is the one its replay serves, with its ``fair`` block. The page's fairness
check (``web/fairwatch.js``) reads the streams, ``cardtable verify`` reads the record.

The moves that make the checks hard are forced in a counted share of the games: in
Kryt'-navalivat' a seat holding the six of trumps swaps it (KRYT-6.1), and in seven-player
Knockout Whist every seat takes one trick of the first hand and a late page's seed is chosen
so that the tie's cut runs the remainder out and reshuffles the cut cards (KOW-5.3).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardtable.cards import Card
from cardtable.engines import reference
from cardtable.errors import CardtableError
from cardtable.fairness import fair_shuffle, verify_record
from cardtable.server.table import Table

__all__ = [
    "TAMPERS",
    "VARIANTS",
    "FairGame",
    "Page",
    "judged",
    "judged_forged",
    "page_verdicts",
    "passed",
    "play_fair_game",
    "play_scheduled",
    "refused",
    "scheduled",
    "tampered",
]

# Every variant of every game: (game, options), players included.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    *[("knockout-whist", {"players": n}) for n in range(2, 8)],
    *[
        (
            "neuf",
            {
                "players": 3,
                "trump_sequence": seq,
                "dealer_exchanges_first": first,
                "tie_avoidance": tie,
            },
        )
        for seq, first, tie in [
            ("HDCS-NT", False, False),
            ("SHDC-NT", True, False),
            ("HDSC-NT", False, True),
            ("HCDS-NT", True, True),
            ("HDCS", False, False),
        ]
    ],
    ("neuf", {"players": 4}),
    ("neuf", {"players": 4, "trump_sequence": "SHDC-NT"}),
    *[("kryt-navalivat", {"players": n, "trump_mode": "turned"}) for n in range(2, 7)],
    *[("kryt-navalivat", {"players": n, "trump_mode": "permanent"}) for n in range(2, 7)],
]

# A Kryt'-navalivat' game past this many actions is cut short (KRYT-7.7) and not used.
MAX_ACTIONS = 3000


@dataclass
class Page:
    """One browser page at the table: a seat's (with its seed) or a spectator's. Its
    messages are kept as the JSON text the hub sends; ``stream`` reads them."""

    seat: int | None
    seed: str | None
    join_at: int  # the number of actions played when it joins
    texts: list[str] = field(default_factory=list)
    joined: bool = False
    _stream: list[dict[str, Any]] | None = None

    @property
    def stream(self) -> list[dict[str, Any]]:
        if self._stream is None:
            self._stream = [json.loads(text) for text in self.texts]
        return self._stream


@dataclass
class FairGame:
    name: str
    options: dict[str, Any]
    table: str
    record: dict[str, Any]
    pages: list[Page]
    swapped: bool  # a six of trumps was swapped in (KRYT-6.1)
    reshuffles: int  # cut cards reshuffled (KOW-5.3)
    actions: int


def _seed(rng: random.Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    return "".join(rng.choice(alphabet) for _ in range(22))


def play_fair_game(
    name: str,
    options: dict[str, Any],
    rng: random.Random,
    *,
    swap: bool = False,
    reshuffle: bool = False,
    late: bool = False,
    knock: bool = False,
) -> FairGame | None:
    """One game at a fair table, played to its end; None if it ran past ``MAX_ACTIONS``.
    ``swap``: a seat that may swap the six of trumps does. ``reshuffle`` (seven-player
    Knockout Whist): the first hand is played so that every seat takes a trick, and a page
    joining in it brings a seed whose second deck makes the tie's cut reshuffle. ``late``:
    the spectator's page opens once the game is over. ``knock``: a dog that may knock
    (KOW-6.3) does."""
    players = int(options["players"])
    kinds = ["human"] + [rng.choice(["human", "bot"]) for _ in range(players - 1)]
    rng.shuffle(kinds)
    seats = [
        {"kind": kind, "name": f"P{i}"} if kind == "human" else {"kind": "bot", "level": "easy"}
        for i, kind in enumerate(kinds)
    ]
    rules = {k: v for k, v in options.items() if k != "players"}
    table, _tokens, change = Table.open(name, rules, seats)
    table.commit(change)
    pages = [
        Page(seat, _seed(rng), rng.choice([0, 0, rng.randrange(1, 60)]))
        for seat, kind in enumerate(kinds)
        if kind == "human"
    ]
    pages.append(Page(None, None, 10**9 if late else rng.choice([0, rng.randrange(1, 80)])))
    planned: list[str] = []
    chooser = pages[0]
    if reshuffle:
        # The page that will choose its seed joins before the first hand's last trick.
        chooser = next(p for p in pages if p.seat is not None)
        chooser.join_at = 10**9

    def join(page: Page) -> None:
        if page.seat is not None and page.seed is not None:
            given = table.seed_change(page.seat, page.seed)
            if given is not None:
                table.commit(given)
                deliver(given.events)
        page.texts.append(json.dumps(table.snapshot(page.seat, list(table.held_since(0) or []))))
        page.joined = True

    def deliver(events: list[dict[str, Any]]) -> None:
        for page in pages:
            if page.joined:
                page.texts.extend(table.event_texts(events, page.seat))

    actions = 0
    swapped = False
    while not table.state.is_over:
        for page in pages:
            if not page.joined and page.join_at <= actions:
                join(page)
        if actions >= MAX_ACTIONS:
            return None
        state = table.state
        legal = [str(a) for a in state.legal_actions()]
        if reshuffle and actions == 0 and _in_first_hand(table):
            planned = _one_trick_each(state, rng) or []
        if planned:
            if len(planned) == 1 and not chooser.joined:
                # Before the hand's last play deals the next: the seed that makes it reshuffle.
                chooser.seed = _reshuffling_seed(table, chooser.seat, rng)
                join(chooser)
            action = planned.pop(0)
        elif swap and "swap" in legal:
            action = "swap"
        elif knock and "knock" in legal:
            action = "knock"
        else:
            action = rng.choice(legal)
        swapped = swapped or action == "swap"
        mover = state.to_move
        assert mover is not None
        change = table.act(mover, action, "human")
        table.commit(change)
        deliver(change.events)
        actions += 1
    for page in pages:
        if not page.joined:
            join(page)  # opened once the game is over
    record = table.replay(1)["record"]
    return FairGame(
        name,
        options,
        table.id,
        record,
        pages,
        swapped,
        len(record["reshuffles"]),
        actions,
    )


# Forcing a reshuffle of the cut cards (KOW-5.3) -------------------------------------------


def _in_first_hand(table: Table) -> bool:
    view = table.state.view(None)
    return bool(view["hand_number"] == 1 and view["players"] == 7 and view["phase"] == "play")


def _one_trick_each(state: Any, rng: random.Random, attempts: int = 300) -> list[str] | None:
    """The first hand's plays, each trick won by a seat with no trick yet, so that all seven
    tie with one trick each; None if no attempt finds them. Each attempt plays trick by trick,
    searching each trick's plays in a random order for one a seat without a trick wins."""
    # The search reads the game's fields after every trial play: on the reference engine
    # that is a read, on the run-time engine a rebuild from the core's position.
    for _ in range(attempts):
        node: Any = reference(state).copy()
        plays: list[str] = []
        while node.hand_no == 1:
            trick = _trick_to_a_newcomer(node, rng)
            if trick is None:
                break
            for action in trick:
                node.apply(action)
            plays += trick
        else:
            return plays
    return None


def _trick_to_a_newcomer(node: Any, rng: random.Random, budget: int = 3000) -> list[str] | None:
    before = list(node.tricks_won)
    nodes = 0

    def search(at: Any, path: list[str]) -> list[str] | None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return None
        options = [str(a) for a in at.legal_actions()]
        rng.shuffle(options)
        for action in options:
            child = at.copy()
            child.apply(action)
            if child.hand_no != 1:
                # The hand's last trick: the next hand is dealt, and the tie is complete.
                won = child.view(None)["previous_hand"]["tricks_won"]
                if all(w == 1 for w in won):
                    return [*path, action]
                continue
            if child.tricks_won != before:
                taker = next(s for s, w in enumerate(child.tricks_won) if w != before[s])
                if before[taker] == 0:
                    return [*path, action]
                continue
            found = search(child, [*path, action])
            if found is not None:
                return found
        return None

    return search(node, [])


def _reshuffling_seed(table: Table, seat: int | None, rng: random.Random) -> str:
    """A seed for ``seat`` whose second deck, if all seven tie in the first hand, leaves too
    few cards in the remainder for the cut (KOW-5.3): the cut cards are then reshuffled."""
    assert seat is not None
    run = table.run
    assert run.server_seed is not None
    dealer = (run.state.view(None)["dealer"] + 1) % 7
    cutters_order = sorted(range(7), key=lambda s: (s - dealer - 1) % 7)
    pack = list(range(52))
    for _ in range(20000):
        candidate = _seed(rng)
        seeds = table.client_seeds()
        seeds[seat] = candidate
        deck = fair_shuffle(
            run.server_seed, table.id, run.number, "hand 2", seeds, pack, run.dealer
        )
        stock = deck[42:]
        cutters = cutters_order
        while True:
            if len(stock) < len(cutters):
                return candidate
            round_ = [(s, stock.pop(0)) for s in cutters]
            best = max(card % 13 for _, card in round_)
            cutters = [s for s, card in round_ if card % 13 == best]
            if len(cutters) == 1:
                break
    return _seed(rng)


# Tampering ------------------------------------------------------------------------------------
#
# Each kind changes one thing a dishonest server could send, in every page's stream and, where
# the record holds it, in the record: the page must then say the deals do not check out, and
# ``cardtable verify`` must refuse the record. A kind that does not apply to a game (no
# reshuffle, no draw) returns None.


def _messages(game: FairGame) -> list[dict[str, Any]]:
    return [m for page in game.pages for m in page.stream]


def _events(message: dict[str, Any]) -> list[dict[str, Any]]:
    if message["type"] == "snapshot":
        return [m.get("event", m) for m in message["missed"]]
    return [message["event"]]


def _other_card(card: str, avoid: set[str], pack: list[str]) -> str:
    return next(c for c in pack if c != card and c not in avoid)


def _pack(game: FairGame) -> list[str]:
    low = 6 if game.name == "kryt-navalivat" else 2
    return [str(Card.from_index(s * 13 + r - 2)) for s in range(4) for r in range(low, 15)]


def _forge_fair_field(game: FairGame, field: str, event: str, forged: str) -> bool:
    """``field`` of the game's fair facts forged: in the record's ``fair`` block, in the
    ``event`` events that carry it, and in every snapshot's ``fair`` that holds it."""
    game.record["fair"][field] = forged
    for message in _messages(game):
        for ev in _events(message):
            if ev.get("kind") == event:
                ev[field] = forged
        if message["type"] == "snapshot" and message.get("fair") and message["fair"][field]:
            message["fair"][field] = forged
    return True


def _tamper_server_seed(game: FairGame) -> bool:
    return _forge_fair_field(game, "server_seed", "over", "0" * 64)


def _tamper_commitment(game: FairGame) -> bool:
    return _forge_fair_field(game, "commitment", "game", "f" * 64)


def _tamper_deck(game: FairGame) -> bool:
    """The last hand's deck, as revealed and as recorded, with its first two cards swapped:
    a server that dealt from another deck than the derived one."""
    hand = len(game.record["decks"])
    deck = game.record["decks"][hand - 1]
    deck[0], deck[1] = deck[1], deck[0]
    for message in _messages(game):
        for ev in _events(message):
            if ev.get("kind") == "reveal" and ev["hand"] == hand and "reshuffle" not in ev:
                ev["deck"][0], ev["deck"][1] = ev["deck"][1], ev["deck"][0]
        for item in message.get("deals") or []:
            if item["hand"] == hand and item.get("deck") and "reshuffle" not in item:
                item["deck"][0], item["deck"][1] = item["deck"][1], item["deck"][0]
    return True


def _tamper_client_seed(game: FairGame) -> bool:
    """The seeds the first deck claims to be derived from, in its deal and in the record."""
    game.record["fair"]["decks"][0]["seeds"][0] = "forged"
    for message in _messages(game):
        for ev in _events(message):
            if ev.get("kind") == "deal" and ev["hand"] == 1 and "reshuffle" not in ev:
                ev["seeds"][0] = "forged"
    return True


def _tamper_reshuffle(game: FairGame) -> bool:
    """The first reshuffle of cut cards holds a card that was never cut (an ace swapped in
    for one of them), in its reveal and in the record."""
    if not game.record["reshuffles"]:
        return False
    order = game.record["reshuffles"][0]
    pack = _pack(game)
    forged = _other_card(order[0], set(order), pack)
    original = order[0]
    order[0] = forged
    for message in _messages(game):
        for ev in _events(message):
            if (
                ev.get("kind") == "reveal"
                and ev.get("reshuffle") is not None
                and ev["deck"][0] == original
            ):
                ev["deck"][0] = forged
    return True


def _views(game: FairGame) -> list[dict[str, Any]]:
    return [m["view"] for page in game.pages for m in page.stream if m.get("view")]


def _tamper_dealt(game: FairGame) -> bool:
    """A seat shown, at its deal, a card the derived deck did not give it; the record's deck
    for that hand swaps the same two cards (so its replay deals it the same)."""
    for page in game.pages:
        if page.seat is None:
            continue
        for message in page.stream:
            ev = message.get("event") or {}
            view = message.get("view") or {}
            if ev.get("kind") == "deal" and "reshuffle" not in ev and view.get("hand"):
                mine = view["hand"][0]
                hand = int(ev["hand"])
                deck = game.record["decks"][hand - 1]
                others = [c for c in deck if c not in view["hand"]]
                other = others[len(others) // 2]
                # Neuf's view also lists the hands held this deal, the dealt one first.
                for cards in [view["hand"], *(view.get("held") or [])[:1]]:
                    if mine in cards:
                        cards[cards.index(mine)] = other
                i, j = deck.index(mine), deck.index(other)
                deck[i], deck[j] = deck[j], deck[i]
                return True
    return False


def _tamper_turned(game: FairGame) -> bool:
    """The first hand's turned card, as every view shows it and as the record's deck holds it."""
    key = "turned" if game.name == "knockout-whist" else "trump_card"
    views = [v for v in _views(game) if v.get(key)]
    if not views:
        return False
    shown = views[0][key]
    deck = game.record["decks"][0]
    hidden = [c for c in deck[-5:] if c != shown]
    forged = hidden[0]
    for view in views:
        if view[key] == shown:
            view[key] = forged
    i, j = deck.index(shown), deck.index(forged)
    deck[i], deck[j] = deck[j], deck[i]
    return True


def _tamper_cut(game: FairGame) -> bool:
    """A cut card that is not the remainder's, in every view of that hand and in the record."""
    for view in _views(game):
        if view.get("cuts"):
            hand = int(view["hand_number"])
            card = view["cuts"][0][0][1]
            deck = game.record["decks"][hand - 1]
            forged = deck[-1] if deck[-1] != card else deck[-2]
            for other in _views(game):
                if other.get("hand_number") == hand and other.get("cuts"):
                    for round_ in other["cuts"]:
                        for pair in round_:
                            if pair[1] == card:
                                pair[1] = forged
            i, j = deck.index(card), deck.index(forged)
            deck[i], deck[j] = deck[j], deck[i]
            return True
    return False


def _tamper_drawn(game: FairGame) -> bool:
    """Kryt'-navalivat': a card a seat drew from the stock is another one, from that view on,
    and the record's deck swaps the two."""
    for page in game.pages:
        if page.seat is None:
            continue
        before: dict[str, Any] | None = None
        for index, message in enumerate(page.stream):
            view = message.get("view")
            ev = message.get("event") or {}
            if (
                view
                and before
                and ev.get("kind") == "action"
                and ev.get("seat") == page.seat
                and isinstance(before.get("stock"), int)
                and view["stock"] < before["stock"]
            ):
                had = set(before["hand"]) | set(before["pile"])
                drawn = [c for c in view["hand"] if c not in had]
                if drawn:
                    card = drawn[0]
                    deck = game.record["decks"][0]
                    forged = next(
                        c for c in deck[: 3 * int(view["players"])] if c not in view["hand"]
                    )
                    for later in page.stream[index:]:
                        hand = (later.get("view") or {}).get("hand")
                        if hand and card in hand and later["view"]["game"] == view["game"]:
                            hand[hand.index(card)] = forged
                    i, j = deck.index(card), deck.index(forged)
                    deck[i], deck[j] = deck[j], deck[i]
                    return True
            before = view or before
    return False


TAMPERS: dict[str, Callable[[FairGame], bool]] = {
    "server seed": _tamper_server_seed,
    "commitment": _tamper_commitment,
    "deck": _tamper_deck,
    "client seed": _tamper_client_seed,
    "reshuffle": _tamper_reshuffle,
    "dealt card": _tamper_dealt,
    "turned card": _tamper_turned,
    "cut card": _tamper_cut,
    "drawn card": _tamper_drawn,
}


def tampered(game: FairGame, kind: str) -> FairGame | None:
    """A copy of ``game`` with one kind of field forged, or None if the game has no such field."""
    forged = copy.deepcopy(game)
    if not TAMPERS[kind](forged):
        return None
    for page in forged.pages:
        page.texts = [json.dumps(m, separators=(",", ":")) for m in page.stream]
    return forged


# The page's check, run in Chromium ------------------------------------------------------------

# Each page's messages go through a FairWatch of web/fairwatch.js, as the table page feeds its own
# (table_connection.js).
WATCH = """
async (games) => {
  const { FairWatch } = await import("/static/fairwatch.js");
  return JSON.parse(games).map((game) => game.pages.map((page) => {
    const watch = new FairWatch({ table: game.table, seed: page.seed });
    try {
      for (const text of page.texts) {
        const message = JSON.parse(text);
        if (message.type === "snapshot") watch.snapshot(message); else watch.event(message);
      }
    } catch (error) {
      return { status: "error", problems: [String(error && error.stack || error)] };
    }
    const entry = watch.games.get(1);
    const decks = [...watch.decks.values()];
    return {
      status: entry ? entry.status : "none",
      problems: entry ? entry.problems : [],
      seen: entry ? entry.checked.seen : 0,
      decks: decks.length,
      decks_bad: decks.filter((d) => d.status === "bad").length,
      decks_pending: decks.filter((d) => d.status === "pending").length,
    };
  }));
}
"""


def page_verdicts(browser_page: Any, games: list[FairGame]) -> list[list[dict[str, Any]]]:
    """What the page's own check says of each page of each game: its status ("ok", "bad",
    "pending" or "error"), the problems it found and how many of its deck checks failed."""
    payload = json.dumps(
        [
            {"table": g.table, "pages": [{"seed": p.seed, "texts": p.texts} for p in g.pages]}
            for g in games
        ]
    )
    verdicts: list[list[dict[str, Any]]] = browser_page.evaluate(WATCH, payload)
    return verdicts


def refused(verdict: dict[str, Any]) -> bool:
    """A page's verdict says the deals do not check out."""
    return bool(verdict["status"] == "bad" or verdict["decks_bad"])


def passed(verdict: dict[str, Any]) -> bool:
    """A page's verdict says every deal checks out, with nothing left unchecked."""
    return bool(
        verdict["status"] == "ok" and not verdict["decks_bad"] and not verdict["decks_pending"]
    )


# The property ---------------------------------------------------------------------------------


def scheduled(number: int, seed: int) -> tuple[str, dict[str, Any], random.Random, bool, bool]:
    """Game ``number`` of a run: its variant (every variant in turn), its random moves, and
    whether it forces a swap (every other round of the turned-trump Kryt'-navalivat' games)
    or a reshuffle (every seven-player Knockout Whist game)."""
    name, options = VARIANTS[number % len(VARIANTS)]
    rng = random.Random(seed * 1_000_003 + number)
    swap = name == "kryt-navalivat" and options["trump_mode"] == "turned"
    swap = swap and (number // len(VARIANTS)) % 2 == 0
    reshuffle = name == "knockout-whist" and options["players"] == 7
    return name, options, rng, swap, reshuffle


def play_scheduled(number: int, seed: int, tries: int = 8) -> FairGame | None:
    """Game ``number`` of a run, played again (a new table, new moves) until what it forces
    happened: a forced swap needs a seat dealt or drawing the six while the turned card is
    under the stock, a forced reshuffle a first hand that can be shared out one trick each."""
    name, options, rng, swap, reshuffle = scheduled(number, seed)
    game = None
    for _ in range(tries):
        game = play_fair_game(name, options, rng, swap=swap, reshuffle=reshuffle)
        if game is not None and (game.swapped or not swap) and (game.reshuffles or not reshuffle):
            break
    return game


def judged(game: FairGame, verdicts: list[dict[str, Any]]) -> list[str]:
    """What is wrong with an honest game's checks: the record refused, or a page that does not
    call its deals fair (a wrong alarm, an error, or a check left undone)."""
    wrong = []
    try:
        verify_record(game.record)
    except CardtableError as exc:
        wrong.append(f"cardtable verify refused an honest game: {exc}")
    for page, verdict in zip(game.pages, verdicts, strict=True):
        if not passed(verdict):
            wrong.append(f"page of seat {page.seat} (joined at {page.join_at}): {verdict}")
    return wrong


def judged_forged(
    honest: FairGame, forged: FairGame, kind: str, verdicts: list[dict[str, Any]]
) -> list[str]:
    """What is wrong with the checks of a forged copy: the record accepted, a page shown a
    forged message that calls the deals fair, or a page shown nothing forged that does not."""
    wrong = []
    try:
        verify_record(forged.record)
        wrong.append(f"{kind}: cardtable verify accepted the forged record")
    except CardtableError:
        pass
    for before, page, verdict in zip(honest.pages, forged.pages, verdicts, strict=True):
        shown = before.stream != page.stream  # what it was sent, however it was encoded
        if shown and not refused(verdict):
            wrong.append(f"{kind}: page of seat {page.seat} shown it called it fair: {verdict}")
        if not shown and not passed(verdict):
            wrong.append(f"{kind}: page of seat {page.seat} shown nothing forged: {verdict}")
    return wrong
