"""Every fact a hint's reason states is true of the game as it really is (``cardtable.hints``).

A reason is a sentence (``hints.why.<key>``) that states facts: "no card still in play can
beat the queen of spades", "Bot 3 already wins this trick". The rules of thumb give a key
only when the facts it states follow from what the seat can see (``cardtable.hints.facts``);
this test checks each fact against the whole state instead, every hand in view, with card
arithmetic of its own (the rules' beating, KOW-4.3, NEUF-4.3, KRYT-3.1, KRYT-8.2), so that a
slip in the predicates shows as a false sentence.

The positions come from real play: games of each game, at the player counts it allows
(Knockout Whist 2 to 7, KOW-1.1; Neuf 3 and 4, NEUF-1.1 and NEUF-8.4; Kryt'-navalivat' 2 to 6
with both trump modes, KRYT-1.1 and KRYT-8), played by a mix of the ``random``, ``easy`` and
``medium`` bots, seeded throughout. At each position every legal action is asked for its
reason as if it were the best (no values: the reason must stand on the cards alone).

:data:`CLAIMS` says, key by key, what each sentence claims and how it is checked.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.base import Bot
from cardtable.cards import CardSet
from cardtable.core import State, View
from cardtable.hints import reason_for

POSITIONS = 10_000
"""Positions checked per game (each with every legal action)."""

ENGLISH = json.loads(
    (Path(__file__).resolve().parents[2] / "src/cardtable/web/locales/en.json").read_text()
)["hints"]["why"]

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PACK_52 = [r + s for s in "CDHS" for r in RANKS]
PACK_36 = [r + s for s in "CDHS" for r in RANKS[4:]]


def rank(card: str) -> int:
    return RANKS.index(card[:-1])


def suit(card: str) -> str:
    return card[-1]


# ---------------------------------------------------------------- the truth of a position


def held(state: State, seat: int) -> list[str]:
    """``seat``'s hand as the state holds it: every game's facts name it ``hand``, a bitmask
    of card indices."""
    facts: Any = state.facts(seat)
    return list(map(str, CardSet(facts.hand)))


@dataclass
class Truth:
    """What is really so at a position: every seat's hand, read from the state itself (its
    facts, ``State.facts``: each hand as a bitmask of card indices), and the public table
    (the trick or the pile, the cards played, trumps), which every seat sees alike."""

    game: str
    state: State
    seat: int
    table: View
    hands: list[list[str]]
    legal: list[str]

    @classmethod
    def of(cls, game: str, state: State, view: View) -> Truth:
        seat = state.to_move
        assert seat is not None and view["seat"] == seat
        players = state.game.num_players
        hands = [held(state, s) for s in range(players)]
        assert sorted(hands[seat]) == sorted(view["hand"])
        return cls(game, state, seat, view, hands, list(view["legal_actions"]))

    @property
    def own(self) -> list[str]:
        return self.hands[self.seat]

    def after(self, action: str) -> State:
        """The state after ``action``, on a copy."""
        later = self.state.copy()
        later.apply(action)
        return later


# ---------------------------------------------------------------- trick games


@cache
def trick_beaters(card: str, trump: str | None) -> frozenset[str]:
    """Every card of the pack that, played after ``card``, takes the trick from it."""

    def beats(other: str) -> bool:
        if suit(other) == suit(card):
            return rank(other) > rank(card)
        return suit(other) == trump

    return frozenset(c for c in PACK_52 if beats(c))


class Trick:
    """The trick on the table, worked out from the public table and the true hands: who
    takes it so far, who is still to play, what beats what (KOW-4.3, NEUF-4.3)."""

    def __init__(self, truth: Truth) -> None:
        table = truth.table
        self.truth = truth
        trump = table["trump"]
        self.trump = trump if trump in ("C", "D", "H", "S") else None
        self.plays = [(int(s), str(c)) for s, c in table["trick"] if c != "knock"]
        acted = {int(s) for s, _ in table["trick"]}
        self.played = {c for t in table["tricks"] for _, c in t["plays"]}
        self.played |= {c for _, c in self.plays}
        self.played.discard("knock")
        self.led = suit(self.plays[0][1]) if self.plays else None
        # KOW-4.5, NEUF-4.2: every seat holding cards plays (or, a dog, knocks) once a trick.
        self.to_come = [
            s for s, hand in enumerate(truth.hands) if hand and s != truth.seat and s not in acted
        ]
        self.winner: tuple[int, str] | None = None
        for seat, card in self.plays:
            if self.winner is None or self.beats(card, self.winner[1]):
                self.winner = (seat, card)

    def beats(self, card: str, other: str) -> bool:
        if suit(card) == suit(other):
            return rank(card) > rank(other)
        return suit(card) == self.trump

    def cost(self, card: str) -> tuple[bool, int]:
        return suit(card) == self.trump, rank(card)

    def beaters(self, card: str) -> frozenset[str]:
        return trick_beaters(card, self.trump)

    def takes_so_far(self, card: str) -> bool:
        return self.winner is None or self.beats(card, self.winner[1])

    def playable(self) -> list[str]:
        return [a.split()[1] for a in self.truth.legal if a.startswith("play ")]

    def partner(self, seat: int) -> bool:
        neuf4 = self.truth.game == "neuf" and self.truth.table["players"] == 4
        return neuf4 and seat % 2 == self.truth.seat % 2

    def anyone_to_come_holds(self, cards: set[str] | frozenset[str]) -> bool:
        return any(c in cards for s in self.to_come for c in self.truth.hands[s])


def trick_claims(truth: Truth, action: str, key: str, params: dict[str, Any]) -> list[str]:
    """What is false of the reason ``key`` given for ``action`` in a trick game; each branch
    says what the key's sentence claims."""
    trick = Trick(truth)
    verb, _, card = action.partition(" ")
    card = card if verb == "play" else "2C"  # a play's card; the others name none
    own = set(truth.own)
    hands = truth.hands
    played = trick.played
    wrong: list[str] = []

    def need(fact: bool, what: str) -> None:
        if not fact:
            wrong.append(what)

    if verb == "play" and params.get("card") not in (None, card):
        wrong.append(f"names {params.get('card')} for {card}")
    higher = {r + suit(card) for r in RANKS[rank(card) + 1 :]}
    if key in ("highest_left", "sure_win", "only_trump_beats", "as_good_as_higher"):
        # All four: the card takes the trick as it stands and someone still plays after it.
        need(trick.takes_so_far(card), "it does not take the trick so far")
        need(bool(trick.to_come), "nobody plays after it")
    if key == "highest_left":
        # "No card still in play can beat {card}": no hand at all holds a card that beats it.
        need(not any(c in trick.beaters(card) for h in hands for c in h), "a hand holds a beater")
    elif key == "sure_win":
        # "Every card that could beat {card} is in your hand or already played": so nobody
        # else holds one, and the seat holds at least one.
        beaters = trick.beaters(card)
        need(beaters <= own | played, "a beater is neither the seat's nor played")
        need(not trick.anyone_to_come_holds(beaters), "a seat to come holds a beater")
        need(bool(beaters & own), "the seat holds no beater")
    elif key == "only_trump_beats":
        # "Only a trump can take this trick from {card}: it is the highest card of its suit
        # still in play": it is not a trump in a deal with trumps; every higher card of its
        # suit has been played.
        need(trick.trump is not None and suit(card) != trick.trump, "no trump deal or a trump")
        need(higher <= played, "a higher card of its suit is unplayed")
    elif key == "as_good_as_higher":
        # "Only a trump can beat it, so it takes this trick as surely as your higher {suit}
        # would": not a trump in a deal with trumps; every higher card of its suit is the
        # seat's or played, the seat holding one at least; nobody to come holds one.
        need(trick.trump is not None and suit(card) != trick.trump, "no trump deal or a trump")
        need(higher <= own | played, "a higher card of its suit is another's")
        need(bool(higher & own), "the seat holds no higher card of its suit")
        need(not trick.anyone_to_come_holds(higher), "a seat to come holds a higher card")
        need(params.get("suit") == suit(card), "suit named wrongly")
    elif key == "draw_trumps":
        # "Lead a trump: draw out any trumps the others hold before they can trump your
        # other cards": the seat leads a trump, holds a card that is not one, and not every
        # trump is the seat's or played.
        trumps = {c for c in PACK_52 if suit(c) == trick.trump}
        need(trick.winner is None, "not a lead")
        need(suit(card) == trick.trump, "not a trump")
        need(any(suit(c) != trick.trump for c in own), "the seat holds only trumps")
        need(not trumps <= own | played, "every trump is the seat's or played")
    elif key == "lead_low":
        # "Lead low: none of your cards is lower than {card}; keep the higher ones": a lead;
        # no card in the hand costs less (a trump above any other card, then rank); one
        # costs more.
        need(trick.winner is None, "not a lead")
        need(all(trick.cost(c) >= trick.cost(card) for c in own), "a lower card in hand")
        need(any(trick.cost(c) > trick.cost(card) for c in own), "no higher card in hand")
    elif key == "lead_low_suit":
        # "Lead {card}, the lowest of your {suit}: keep the higher ones": a lead; no lower
        # card of its suit in hand; a higher one in hand.
        mine = [c for c in own if suit(c) == suit(card)]
        need(trick.winner is None, "not a lead")
        need(all(rank(c) >= rank(card) for c in mine), "a lower card of its suit in hand")
        need(any(rank(c) > rank(card) for c in mine), "no higher card of its suit in hand")
        need(params.get("suit") == suit(card), "suit named wrongly")
    elif key == "win_cheap":
        # "Win this trick with your lowest card that takes it": nobody plays after the seat;
        # the card beats the card taking the trick; no legal card beats it at less cost.
        assert trick.winner is not None, "win_cheap on a lead"
        top = trick.winner[1]
        need(not trick.to_come, "someone plays after the seat")
        need(trick.beats(card, top), "it does not beat the trick")
        cheaper = [c for c in trick.playable() if trick.beats(c, top)]
        need(all(trick.cost(c) >= trick.cost(card) for c in cheaper), "a cheaper card takes it")
    elif key == "trump_in":
        # "Trump it: you have no {suit} left": a trump, the suit led ({suit}) is not trumps,
        # the seat holds none of it, and the trump takes the trick so far.
        need(suit(card) == trick.trump, "not a trump")
        need(params.get("suit") == trick.led and trick.led != trick.trump, "wrong suit led")
        need(all(suit(c) != trick.led for c in own), "the seat holds the suit led")
        need(trick.takes_so_far(card), "it does not take the trick so far")
    elif key == "try_win":
        # "Go for this trick: {card} takes it for now": it takes the trick as it stands and
        # someone plays after it.
        need(trick.takes_so_far(card), "it does not take the trick so far")
        need(bool(trick.to_come), "nobody plays after it")
    elif key == "keep_trumps":
        # "Keep your trumps for later: throw away a card you need less": the seat follows,
        # holds none of the suit led and holds a trump; the card is not a trump.
        need(trick.winner is not None, "a lead")
        need(all(suit(c) != trick.led for c in own), "the seat holds the suit led")
        need(any(suit(c) == trick.trump for c in own), "the seat holds no trump")
        need(trick.trump is not None and suit(card) != trick.trump, "it is a trump")
        need(params.get("suit") == trick.trump, "suit named wrongly")
    elif key in ("already_wins", "partner_wins", "partner_winning", "cannot_beat", "duck"):
        # All five: "Play low": the seat follows, the card does not take the trick, and no
        # card the seat may play costs less.
        assert trick.winner is not None, f"{key} on a lead"
        seat, top = trick.winner
        need(not trick.beats(card, top), "it takes the trick")
        need(all(trick.cost(c) >= trick.cost(card) for c in trick.playable()), "not low")
        beat = [c for c in trick.playable() if trick.beats(c, top)]
        if key in ("already_wins", "partner_wins", "partner_winning"):
            # "{name} / your partner already wins this trick" (or "is winning it so far"):
            # the seat named takes the trick so far; an opponent or the partner as said.
            need(params.get("seat") == seat, "names the wrong seat")
            need(trick.partner(seat) == (key != "already_wins"), "partner or not, wrongly")
        if key in ("already_wins", "partner_wins"):
            # "already wins": no seat still to play holds a card that beats the card taking
            # the trick.
            need(not trick.anyone_to_come_holds(trick.beaters(top)), "a seat to come beats it")
        if key == "cannot_beat":
            # "You cannot beat the card that is winning this trick": no legal card beats it.
            need(not beat, "a legal card beats it")
        if key == "duck":
            # "Let this trick go: play low and keep your higher cards for later": a legal
            # card that beats the trick stays in hand.
            need(bool(beat), "no legal card beats it")
    elif key == "discard":
        # "Discard {card}: you have no {suit} to follow with": the seat follows, holds none
        # of the suit led ({suit}), and the card does not take the trick.
        assert trick.winner is not None, "discard on a lead"
        need(params.get("suit") == trick.led, "suit named wrongly")
        need(all(suit(c) != trick.led for c in own), "the seat holds the suit led")
        need(not trick.beats(card, trick.winner[1]), "it takes the trick")
    elif key == "trump_suit":
        # "Name {suit} trumps: you hold {count} cards of that suit" (KOW-3.2).
        named = action.split()[1]
        need(params == {"suit": named, "count": sum(suit(c) == named for c in own)}, "count")
    elif key == "knock":
        # "Knock: keep your card for a later trick": a dog holding its one card, before the
        # hand's last trick (KOW-6.3).
        need(truth.table["statuses"][truth.seat] == "dog", "not a dog")
        need(len(own) == 1, "not one card")
        need(len(truth.table["tricks"]) < truth.table["hand_size"] - 1, "the last trick")
    elif key in ("keep_hand", "exchange_hand"):
        # "Keep your hand: you hold {count} trumps, more than an average hand" (13/4 of the 13
        # trumps, NEUF-2.3); "Swap for the spare: ... fewer than an average hand".
        held = sum(suit(c) == trick.trump for c in own)
        need(trick.trump is not None and params == {"count": held}, "count")
        need(held > 13 / 4 if key == "keep_hand" else held < 13 / 4, "not above/below average")
    elif key == "no_rule":
        # "No simple rule explains this move": states no fact of the cards.
        pass
    else:
        wrong.append(f"the test knows no claims of {key!r}")
    return wrong


# ---------------------------------------------------------------- Kryt'-navalivat'


def kryt_claims(truth: Truth, action: str, key: str, params: dict[str, Any]) -> list[str]:
    """What is false of the reason ``key`` given for ``action`` in Kryt'-navalivat'."""
    table = truth.table
    trump: str = table["trump"]
    anti: str | None = table["anti_trump"]
    own = truth.own
    pile: list[str] = list(table["pile"])
    top = pile[-1] if pile else None
    verb, _, card = action.partition(" ")
    wrong: list[str] = []

    def need(fact: bool, what: str) -> None:
        if not fact:
            wrong.append(what)

    def beats(b: str, t: str) -> bool:  # KRYT-3.1, and KRYT-8.2 with anti-trumps
        if suit(b) == suit(t):
            return rank(b) > rank(t)
        if anti is not None and suit(t) == anti:
            return False
        return suit(b) == trump and suit(t) != trump

    def cost(c: str) -> tuple[bool, int]:
        return suit(c) == trump, rank(c)

    def beaters(c: str) -> list[str]:
        return [b for b in PACK_36 if beats(b, c)]

    def taken() -> int:  # KRYT-5, KRYT-8.3
        assert top is not None
        if suit(top) != trump:
            return 1
        if rank(top) == rank("A" + trump):
            return len(pile)
        return min(3, len(pile))

    hand_beats = [c for c in own if top is not None and beats(c, top)]
    if card and params.get("card") not in (None, card) and verb != "take":
        wrong.append(f"names {params.get('card')} for {card}")
    if key == "swap_six":
        # "Swap: the turned card, {card}, is a higher trump than your six" (KRYT-6.1).
        turned = table["trump_card"]
        need(params.get("card") == turned, "names another card")
        need(turned is not None and suit(turned) == trump and rank(turned) > rank("6C"), "six")
    elif key == "take_no_beat":
        # "Pick up: none of your cards beats the top card."
        need(top is not None and not hand_beats, "a card beats the top card")
    elif key == "take_keep_trump":
        # "Pick up: beating would cost you a trump": a card beats the top card, and every
        # one that does is a trump; {card} the lowest of them.
        need(bool(hand_beats) and all(suit(c) == trump for c in hand_beats), "a plain beats")
        need(params.get("card") == min(hand_beats or ["?"], key=cost), "names another card")
    elif key == "take_few":
        # "Pick up: it is only {count} cards": the pick-up takes {count}, at most two, cards
        # into the hand (KRYT-5, KRYT-8.3).
        grown = len(truth.after(action).view(truth.seat)["hand"]) - len(own)
        need(params.get("count") == taken() == grown and grown <= 2, f"takes {grown}")
    elif key == "go_out":
        # "Go out: {card} is your last card": the seat holds it alone, the stock is empty,
        # and after it the seat holds nothing (KRYT-7.1).
        need(own == [card] and table["stock"] == 0, "not the last card")
        need(not truth.after(action).view(truth.seat)["hand"], "the seat still holds cards")
    elif key in ("beat_lowest", "beat_keeps_lower"):
        # "Beat with {card}: your lowest card that beats": it beats the top card and no card
        # in hand that beats it costs less (a trump above any other card, then rank).
        # "Beat with {card}: you keep a lower card that beats": another, cheaper one beats.
        need(card in hand_beats, "it does not beat the top card")
        cheaper = [c for c in hand_beats if cost(c) < cost(card)]
        need(not cheaper if key == "beat_lowest" else bool(cheaper), "lowest or not, wrongly")
    elif key == "unbeatable":
        # "Nothing can beat {card}: the next player will have to pick up": no card of the
        # pack beats it, and after it the next player may only pick up (or swap first).
        need(not beaters(card), "a card beats it")
        later = truth.after(action)
        need(later.to_move is not None, "the game ends")
        if later.to_move is not None:
            options = {a.split()[0] for a in later.view(later.to_move)["legal_actions"]}
            need(options <= {"take", "swap"}, f"the next player may {sorted(options)}")
    elif key in ("cover_trump", "lead_trump"):
        # "Only a higher trump beats it": a trump that some card beats, every such card a
        # higher trump.
        found = beaters(card)
        need(suit(card) == trump and bool(found), "not a beatable trump")
        need(all(suit(b) == trump and rank(b) > rank(card) for b in found), "a plain beats it")
    elif key == "anti_trump":
        # "Not even a trump beats {card}: only a higher card of its suit does" (KRYT-8.2).
        found = beaters(card)
        need(bool(found), "nothing beats it")
        need(all(suit(b) == suit(card) and rank(b) > rank(card) for b in found), "another beats")
        need(suit(card) != trump, "it is a trump")
    elif key in ("cover_low", "lead_lowest"):
        # "None of your cards is lower, and the higher ones stay in hand to beat with": no
        # card in hand costs less, and one costs more.
        need(all(cost(c) >= cost(card) for c in own), "a lower card in hand")
        need(any(cost(c) > cost(card) for c in own), "no higher card in hand")
    elif key == "not_a_trump":
        # "Keep your trumps for later: {card} is not a trump": and the seat holds a trump.
        need(suit(card) != trump and any(suit(c) == trump for c in own), "trump")
    elif key == "harder_to_beat":
        # "Fewer cards can beat {card} than can beat your lower ones": the seat holds a
        # cheaper card, and each is beaten by more cards of the pack than this one.
        lower = [c for c in own if cost(c) < cost(card)]
        count = len(beaters(card))
        need(bool(lower) and all(len(beaters(c)) > count for c in lower), "not harder")
    elif key == "no_rule":
        pass
    else:
        wrong.append(f"the test knows no claims of {key!r}")
    return wrong


# ---------------------------------------------------------------- play


TABLES: dict[str, list[dict[str, Any]]] = {
    "knockout-whist": [{"players": n} for n in range(2, 8)],
    "neuf": [{"players": 3}, {"players": 4}],
    "kryt-navalivat": [
        {"players": n, "trump_mode": mode} for mode in ("turned", "permanent") for n in range(2, 7)
    ],
}
"""Each game at every player count it allows (and Kryt'-navalivat' in both trump modes)."""

LEVELS = ("random", "easy", "medium")
WEIGHTS = (5, 4, 1)
"""The bots at the seats, drawn seat by seat: mostly the quick ones."""

TAKEN = {"knockout-whist": 1.0, "neuf": 0.5, "kryt-navalivat": 0.3}
"""The share of a game's positions checked: long games give fewer each, so that more games
(more tables, more deals) make up the positions."""


@dataclass
class Survey:
    positions: int = 0
    reasons: int = 0
    games: int = 0
    false: list[str] | None = None
    keys: Counter[str] | None = None


def survey(game: str, claims: Callable[[Truth, str, str, dict[str, Any]], list[str]]) -> Survey:
    """Play seeded games until :data:`POSITIONS` positions are checked; every false claim
    found, with the position it was found in."""
    bots: dict[str, Bot] = {level: make_bot(level, game) for level in LEVELS}
    found = Survey(false=[], keys=Counter())
    assert found.false is not None and found.keys is not None
    rng = random.Random(f"hint facts {game}")
    tables = TABLES[game]
    while found.positions < POSITIONS:
        options = tables[found.games % len(tables)]
        state = cardtable.make(game, **options).new_state(seed=rng.getrandbits(32))
        levels = rng.choices(LEVELS, WEIGHTS, k=state.game.num_players)
        found.games += 1
        while state.to_move is not None and found.positions < POSITIONS:
            seat = state.to_move
            view = state.view(seat)
            legal = view["legal_actions"]
            if len(legal) > 1 and rng.random() < TAKEN[game]:
                found.positions += 1
                truth = Truth.of(game, state, view)
                for action in legal:
                    said = reason_for(game, view, action, {}).message()
                    key = said["key"].removeprefix("hints.why.")
                    found.reasons += 1
                    found.keys[key] += 1
                    wrong = [] if key in ENGLISH else [f"no English text for {key}"]
                    wrong += claims(truth, action, key, said["params"])
                    if wrong:
                        found.false.append(
                            f"{key} {said['params']} for {action!r} ({'; '.join(wrong)}) at "
                            f"{state.position()}"
                        )
            choice = bots[levels[seat]].choose(view, state.legal_actions(), rng)
            state.apply(choice)
    return found


def check(game: str, claims: Callable[[Truth, str, str, dict[str, Any]], list[str]]) -> Survey:
    started = time.perf_counter()
    found = survey(game, claims)
    assert found.false is not None and found.keys is not None
    print(
        f"{game}: {found.positions} positions, {found.reasons} reasons, {found.games} games, "
        f"{time.perf_counter() - started:.1f} s; keys {dict(found.keys.most_common())}"
    )
    assert found.positions >= POSITIONS
    assert not found.false, f"{len(found.false)} false reasons; the first:\n" + "\n".join(
        found.false[:10]
    )
    return found


def test_knockout_whist_reasons_state_only_true_facts() -> None:
    """KOW-4.2, KOW-4.3 (the trick), KOW-3.2 (naming trumps), KOW-6.3 (a dog's knock)."""
    found = check("knockout-whist", trick_claims)
    assert found.keys is not None
    seen = set(found.keys)
    assert {"highest_left", "already_wins", "cannot_beat", "lead_low_suit", "knock"} <= seen


def test_neuf_reasons_state_only_true_facts() -> None:
    """NEUF-4.2, NEUF-4.3 (the trick), NEUF-3.2 (the exchange), NEUF-8.4 (partners)."""
    found = check("neuf", trick_claims)
    assert found.keys is not None
    seen = set(found.keys)
    assert {"sure_win", "partner_wins", "partner_winning", "keep_hand", "exchange_hand"} <= seen


def test_kryt_navalivat_reasons_state_only_true_facts() -> None:
    """KRYT-3.1, KRYT-8.2 (beating), KRYT-4 (lead, beat, cover), KRYT-5 (pick-up), KRYT-6.1
    (the six of trumps), KRYT-7.1 (going out)."""
    found = check("kryt-navalivat", kryt_claims)
    assert found.keys is not None
    seen = set(found.keys)
    assert {"beat_lowest", "beat_keeps_lower", "unbeatable", "anti_trump", "go_out"} <= seen


# ---------------------------------------------------------------- the keys themselves


def test_every_english_reason_is_one_a_rule_can_give() -> None:
    """The texts under ``hints.why`` are exactly the reasons given: the rules of thumb's
    keys, the few a game gives outside them, and those the whole hint gives (a forced
    move, any move, a close call between them all); no text is left over unused."""
    from cardtable.hints import kryt_navalivat, tricks

    trick_rules = [*tricks.LEAD, *tricks.TAKE, *tricks.YIELD]
    pile_rules = [*kryt_navalivat.TAKE, *kryt_navalivat.BEAT, *kryt_navalivat.COVER]
    pile_rules += [*kryt_navalivat.LEAD, kryt_navalivat.SWAP]
    given = {rule.key for rule in trick_rules} | {rule.key for rule in pile_rules}
    given |= {"trump_suit", "knock", "keep_hand", "exchange_hand", "close_call", "no_rule"}
    assert set(ENGLISH) - {"forced", "any", "close"} == given


def test_a_card_no_rule_explains_is_a_close_call_only_where_the_values_say_so() -> None:
    """KOW-4.2: seat 2's 9H under the KH, not its lowest heart, has no rule of thumb; it is
    a close call where the 4H is valued within the margin of it, else no rule."""
    from cardtable.rules.knockout_whist.position import compose_position

    text = compose_position(
        hands=["5C,6C,7C", "2S,3S", "4H,9H,2C"],
        hand=5,
        dealer=0,
        status="AAA",
        trump="S",
        dog_used=True,
        trick="1:KH",
    )
    state = cardtable.make("knockout-whist", players=3).state_from_position(text)
    view = state.view(2)
    close = reason_for("knockout-whist", view, "play 9H", {"play 9H": 1.1, "play 4H": 1.0})
    apart = reason_for("knockout-whist", view, "play 9H", {"play 9H": 1.6, "play 4H": 1.0})
    assert (close.key, apart.key) == ("close_call", "no_rule")
