"""Why an action is refused (``cardtable.refusals``): for every reason code of every
game, a position built by hand where one illegal action yields exactly that code, with the
details that name what it is about, and nothing changes. Each case cites the SPEC rule the
code enforces. The web table says each code in words in all its languages
(``web/locales/*.json``, ``refusal.<code>``), from the details' names only.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.cards import DECK_52
from cardtable.core import State
from cardtable.engines import reference
from cardtable.errors import GameOverError, IllegalActionError, OutOfTurnError
from cardtable.rules.catalog import DESCRIPTORS
from cardtable.rules.knockout_whist.position import compose_position as kow_position
from cardtable.rules.kryt_navalivat.position import compose_position as kryt_navalivat_position
from cardtable.server.tutorial import LESSON_REASONS

LOCALES = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "web" / "locales"
LANGS = sorted(p.stem for p in LOCALES.glob("*.json"))
PLACEHOLDER = re.compile(r"\{(\w+)\}")


# ---------------------------------------------------------------- positions


def neuf_state(hands: list[str], *, players: int = 3) -> State:
    """A Neuf deal with the given hands (13 cards each; with 3 players the spare gets the
    rest), dealt by the last seat so that seat 0 decides first (NEUF-2.3, NEUF-3.1)."""
    held = [h.split() for h in hands]
    rest = [str(c) for c in DECK_52 if not any(str(c) in h for h in held)]
    piles = [*held, rest] if players == 3 else held
    assert all(len(p) == 13 for p in piles), [len(p) for p in piles]
    # NEUF-2.3: card i goes to R[i mod 4], R = [dealer+1, dealer+2, dealer, SPARE]; NEUF-8.4
    # deals the four seats from the dealer's left.
    order = [0, 1, 2, 3]
    deck = [piles[order[i % 4]][i // 4] for i in range(52)]
    game = cardtable.make("neuf", players=players, dealer=players - 1)
    return game.new_state(seed=1, decks=[deck])


NEUF_HANDS = [
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 3D",
]
# Seat 1 holds a heart, so it must follow when seat 0 leads hearts.
NEUF_FOLLOW = [
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2D",
    "AH 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2C",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 3D",
]


def neuf_playing(hands: list[str]) -> State:
    state = neuf_state(hands)
    for seat in (0, 1, 2):
        state.apply("keep", seat=seat)
    return state


def kow_dogs_on_lead() -> State:
    """Hand 2 of 4, dealer 3, hearts trumps; seats 0 and 1 are dogs (KOW-6.2), so dog 0 is
    first to lead (KOW-4.1)."""
    text = kow_position(
        hands=["9C", "2D", "5C 6C 7C 8C 9D 10D", "2C 3C 4C AD KD QD"],
        hand=2,
        dealer=3,
        status="DDAA",
        trump="H",
        dog_used=True,
        chooser=2,
    )
    return cardtable.make("knockout-whist", players=4).state_from_position(text)


def kow_choosing() -> State:
    """Hand 2 of 3, dealt; seat 0 took most tricks in hand 1 and names trumps (KOW-3.2)."""
    text = kow_position(
        hands=["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "2S 3S 4S 5S 6S 7S"],
        hand=2,
        dealer=2,
        status="AAA",
        phase="trump",
        chooser=0,
    )
    return cardtable.make("knockout-whist", players=3).state_from_position(text)


def kow_last_trick_dog() -> State:
    """Hand 7: one card each, one trick, so a dog on lead is on the last trick (W-3)."""
    text = kow_position(
        hands=["9C", "2D"], hand=7, dealer=1, status="DA", trump="H", dog_used=True, chooser=1
    )
    return cardtable.make("knockout-whist", players=2).state_from_position(text)


def kryt_navalivat(text: str, trump_mode: str = "turned") -> State:
    players = int(text.split()[1].removeprefix("players="))
    game = cardtable.make("kryt-navalivat", players=players, trump_mode=trump_mode)
    return game.state_from_position(text)


def kryt_navalivat_responding() -> State:
    """Seat 0 answers 10H, clubs trumps, holding 9H (too low), QH, 6C (the six of trumps)."""
    return kryt_navalivat(
        kryt_navalivat_position(["9H QH 6C", "…"], pile="10H", faceup="KC", stock="7S 8S")
    )


def kryt_navalivat_covering() -> State:
    """Seat 0 has beaten 10H with QH and must cover it (KRYT-4.2a)."""
    state = kryt_navalivat_responding()
    state.apply("beat QH", seat=0)
    return state


def kryt_navalivat_leading() -> State:
    return kryt_navalivat(
        kryt_navalivat_position(["9H QH 6C", "…"], faceup="KC", stock="7S 8S", turn="lead")
    )


def over(name: str, **options: Any) -> State:
    state = cardtable.make(name, **options).new_state(seed=3)
    state.playout(random.Random(3))
    return state


def refusing_all(state: State) -> State:
    """``state`` in an engine whose legality refuses what its rules allow: its refusal names
    no rule, and says so. (The Python engine's state: the protocol's own check of legality
    is what this breaks.)"""
    state = reference(state).copy()

    class RefusesAll(type(state)):  # type: ignore[misc]
        __slots__ = ()

        def is_legal(self, number: int) -> bool:
            return False

    state.__class__ = RefusesAll
    return state


# (game, code, the position, the action, the seat it is sent for, the details expected)
Case = tuple[str, str, Callable[[], State], str, int | None, dict[str, Any]]
CASES: list[Case] = [
    # NEUF-10: one actor at a time; GAME_OVER has no action.
    ("neuf", "not_your_turn", lambda: neuf_state(NEUF_HANDS), "keep", 2, {"seat": 2, "to_move": 0}),
    ("neuf", "game_over", lambda: over("neuf"), "keep", None, {}),
    # NEUF-3.1 / NEUF-10: every seat decides on the exchange before any card is played.
    ("neuf", "must_decide_exchange", lambda: neuf_state(NEUF_HANDS), "play 2H", 0, {"card": "2H"}),
    # NEUF-3.1: exactly one chance each, over once the play starts.
    ("neuf", "exchange_is_over", lambda: neuf_playing(NEUF_HANDS), "exchange", 0, {}),
    # NEUF-8.4: the partnership game has no spare and no exchange.
    (
        "neuf",
        "no_exchange_in_partnership",
        lambda: neuf_state([*NEUF_HANDS, "4D 5D 6D 7D 8D 9D 10D JD QD KD AD AC AS"], players=4),
        "exchange",
        0,
        {},
    ),
    # NEUF-4.2: one's own cards only.
    ("neuf", "not_in_hand", lambda: neuf_playing(NEUF_HANDS), "play 2C", 0, {"card": "2C"}),
    # NEUF-4.2: seat 1 holds AH when hearts are led.
    (
        "neuf",
        "must_follow_suit",
        lambda: _after(neuf_playing(NEUF_FOLLOW), "play 2H"),
        "play 3C",
        1,
        {"card": "3C", "suit": "H"},
    ),
    (
        "neuf",
        "not_legal",
        lambda: refusing_all(neuf_playing(NEUF_HANDS)),
        "play 2H",
        0,
        {"card": "2H"},
    ),
    # KOW-10: one actor at a time; GAME_OVER has no action.
    (
        "knockout-whist",
        "not_your_turn",
        kow_dogs_on_lead,
        "knock",
        2,
        {"seat": 2, "to_move": 0},
    ),
    ("knockout-whist", "game_over", lambda: over("knockout-whist", players=3), "knock", None, {}),
    # KOW-3.2 / KOW-3.3: the chooser names trumps before anyone plays.
    ("knockout-whist", "must_choose_trumps", kow_choosing, "play 2C", 0, {}),
    # KOW-3.2: trumps are named once a hand.
    ("knockout-whist", "trumps_already_set", kow_dogs_on_lead, "trump S", 0, {"trump": "H"}),
    # KOW-6.4: after the dogs knock, the ACTIVE seat 2 must lead.
    (
        "knockout-whist",
        "only_a_dog_knocks",
        lambda: _after(kow_dogs_on_lead(), "knock", "knock"),
        "knock",
        2,
        {},
    ),
    # KOW-10 / W-3: a dog plays its card on the last trick.
    ("knockout-whist", "no_knock_on_the_last_trick", kow_last_trick_dog, "knock", 0, {}),
    # KOW-4.2: one's own cards only.
    (
        "knockout-whist",
        "not_in_hand",
        lambda: _after(kow_dogs_on_lead(), "knock", "knock"),
        "play 2C",
        2,
        {"card": "2C"},
    ),
    # KOW-4.2: seat 3 holds clubs when 5C is led.
    (
        "knockout-whist",
        "must_follow_suit",
        lambda: _after(kow_dogs_on_lead(), "knock", "knock", "play 5C"),
        "play AD",
        3,
        {"card": "AD", "suit": "C"},
    ),
    # A refusal that no rule explains: the engine, not the player, is wrong.
    (
        "knockout-whist",
        "not_legal",
        lambda: refusing_all(kow_dogs_on_lead()),
        "play 9C",
        0,
        {"card": "9C"},
    ),
    # KRYT-10: one actor at a time; GAME_OVER has no action.
    (
        "kryt-navalivat",
        "not_your_turn",
        kryt_navalivat_responding,
        "take",
        1,
        {"seat": 1, "to_move": 0},
    ),
    ("kryt-navalivat", "game_over", lambda: over("kryt-navalivat"), "take", None, {}),
    (
        "kryt-navalivat",
        "not_legal",
        lambda: refusing_all(kryt_navalivat_responding()),
        "swap",
        0,
        {},
    ),
    # KRYT-4.1 / KRYT-4.2: cards come from one's hand.
    ("kryt-navalivat", "not_in_hand", kryt_navalivat_responding, "beat AH", 0, {"card": "AH"}),
    # KRYT-4.1: on an empty pile the only play is a lead.
    ("kryt-navalivat", "must_lead", kryt_navalivat_leading, "beat QH", 0, {"card": "QH"}),
    ("kryt-navalivat", "nothing_to_pick_up", kryt_navalivat_leading, "take", 0, {}),
    # KRYT-4.2: a card on the pile is beaten or picked up, never led upon.
    (
        "kryt-navalivat",
        "must_beat_or_pick_up",
        kryt_navalivat_responding,
        "lead QH",
        0,
        {"card": "QH", "top": "10H"},
    ),
    # KRYT-3.1: a higher heart or any trump beats 10H; 9H is lower.
    (
        "kryt-navalivat",
        "cannot_beat",
        kryt_navalivat_responding,
        "beat 9H",
        0,
        {"card": "9H", "top": "10H", "trump": "C"},
    ),
    # KRYT-4.2a / KRYT-4.6: the cover comes at once, from the same player.
    (
        "kryt-navalivat",
        "must_cover",
        kryt_navalivat_covering,
        "lead 9H",
        0,
        {"card": "9H", "top": "QH"},
    ),
    # KRYT-4.4 / KRYT-4.6: no pick-up (and no draw) between a beat and its cover.
    (
        "kryt-navalivat",
        "no_pick_up_between_beat_and_cover",
        kryt_navalivat_covering,
        "take",
        0,
        {"top": "QH"},
    ),
    # KRYT-4.2a: a cover goes only on one's own beat.
    (
        "kryt-navalivat",
        "cover_only_on_ones_beat",
        kryt_navalivat_responding,
        "cover 9H",
        0,
        {"card": "9H", "top": "10H"},
    ),
    # KRYT-8.1: the permanent mode turns no card, so there is nothing to swap for.
    (
        "kryt-navalivat",
        "no_swap_with_permanent_trumps",
        lambda: kryt_navalivat(
            kryt_navalivat_position(["9H QH 6D", "…"], pile="10H", trumps="permanent"), "permanent"
        ),
        "swap",
        0,
        {},
    ),
    # KRYT-6.2: the turned card has been drawn (the stock is empty).
    (
        "kryt-navalivat",
        "no_swap_trump_card_drawn",
        lambda: kryt_navalivat(kryt_navalivat_position(["9H QH 6C", "…"], pile="10H")),
        "swap",
        0,
        {},
    ),
    # KRYT-6.2: the turned card is the six itself.
    (
        "kryt-navalivat",
        "no_swap_six_turned",
        lambda: kryt_navalivat(
            kryt_navalivat_position(["9H QH 7C", "…"], pile="10H", faceup="6C", stock="7S")
        ),
        "swap",
        0,
        {"six": "6C"},
    ),
    # KRYT-6.1: only the six of trumps' holder swaps.
    (
        "kryt-navalivat",
        "no_swap_without_six",
        lambda: kryt_navalivat(
            kryt_navalivat_position(["9H QH 7C", "…"], pile="10H", faceup="KC", stock="7S")
        ),
        "swap",
        0,
        {"six": "6C"},
    ),
]


def _after(state: State, *actions: str) -> State:
    for action in actions:
        state.apply(action)
    return state


def _ids(case: Case) -> str:
    return f"{case[0]}:{case[1]}"


# ---------------------------------------------------------------- the rules


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_each_refusal_names_its_reason_and_changes_nothing(case: Case) -> None:
    """SPEC §0.4 (2): an illegal action is refused and the state is unchanged; the refusal
    carries the code of the rule it breaks and the cards or suits concerned."""
    name, code, build, action, seat, details = case
    state = build()
    assert state.game.name == name
    before = state.position()
    kind = {"not_your_turn": OutOfTurnError, "game_over": GameOverError}.get(
        code, IllegalActionError
    )
    with pytest.raises(kind) as refused:
        state.apply(action, seat=seat)
    assert type(refused.value) is kind
    assert (refused.value.reason, refused.value.details) == (code, details)
    assert refused.value.reason in set(DESCRIPTORS[name].reason_codes())
    assert state.position() == before


@pytest.mark.parametrize("name", sorted(DESCRIPTORS))
def test_every_code_of_every_game_has_a_case_here(name: str) -> None:
    """Each code a game can give is shown above in a position of that game."""
    shown = {code for game, code, *_ in CASES if game == name}
    assert shown == {str(code) for code in DESCRIPTORS[name].reason_codes()}


def test_a_refusal_survives_pickling() -> None:
    """Errors cross to the bots' worker processes and back with their reason."""
    import pickle

    with pytest.raises(IllegalActionError) as refused:
        kryt_navalivat_responding().apply("beat 9H")
    again = pickle.loads(pickle.dumps(refused.value))
    assert (type(again), str(again), again.reason, again.details) == (
        IllegalActionError,
        str(refused.value),
        "cannot_beat",
        {"card": "9H", "top": "10H", "trump": "C"},
    )


# ---------------------------------------------------------------- the words


def locale(lang: str) -> dict[str, Any]:
    words: dict[str, Any] = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    return words


def test_the_locales_are_the_four_languages() -> None:
    assert LANGS == ["en", "fa", "fr", "ru"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_a_sentence_in_every_locale(lang: str) -> None:
    """The page says every refusal in the reader's language: no code falls back to the
    server's English message; nor does a tutorial's refusal of a move that is not the
    lesson's (``docs/tutorials.md``)."""
    sentences = locale(lang)["refusal"]
    every = {str(code) for d in DESCRIPTORS.values() for code in d.reason_codes()} | set(
        LESSON_REASONS
    )
    assert sorted(every - set(sentences)) == []
    assert sorted(set(sentences) - every) == []
    assert all(isinstance(text, str) and text.strip() for text in sentences.values())


@pytest.mark.parametrize("case", CASES, ids=_ids)
@pytest.mark.parametrize("lang", LANGS)
def test_each_sentence_fills_its_blanks_from_the_details(lang: str, case: Case) -> None:
    """A sentence names only what the refusal's details hold, or the reader would see
    ``{card}`` instead of a card."""
    code, details = case[1], case[5]
    text = locale(lang)["refusal"][code]
    assert set(PLACEHOLDER.findall(text)) <= set(details), text
