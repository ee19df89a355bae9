"""Hints that teach (``cardtable.hints``): the reason a hint gives for its action, on
chosen positions of each game (SPEC §0.4 (1): a state built from a position), each rule
of thumb cited by the rule it rests on; and the whole hint (``advise``) on positions whose
best action is plain, in the game's unit.

Every reason is checked against its locale key, which must exist in English, so a reason
the page could not say fails here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.analysis import MIN_VISITS, Analysis, Appraisal, Budget, decide, search_appraisals
from cardtable.core import View
from cardtable.hints import MARGINS, advice, reason_for
from cardtable.rules.catalog import KNOCKOUT_WHIST
from cardtable.rules.knockout_whist.position import compose_position as kow_position
from cardtable.rules.kryt_navalivat.position import compose_position as kryt_navalivat_position
from cardtable.server import thinking
from cardtable.server.thinking import advise

ENGLISH = json.loads(
    (Path(__file__).resolve().parents[2] / "src/cardtable/web/locales/en.json").read_text()
)


def view_of(game: str, text: str, **options: Any) -> View:
    state = cardtable.make(game, **options).state_from_position(text)
    assert state.to_move is not None
    view: View = state.view(state.to_move)
    return view


def why(game: str, view: View, best: str, values: Mapping[str, float] | None = None) -> Any:
    """The reason's key (without ``hints.why.``) and parameters, checked to be a text."""
    said = reason_for(game, view, best, values or {}).message()
    key = said["key"]
    assert key.startswith("hints.why.")
    assert key.split(".")[-1] in ENGLISH["hints"]["why"], key
    return key.split(".")[-1], said["params"]


def kow(
    players: int,
    hands: list[str],
    *,
    hand: int,
    trump: str = "S",
    dealer: int | None = None,
    **more: Any,
) -> View:
    """A Knockout Whist position, every seat in, the dog's life used; the dealer the last
    seat unless given (KOW-4.1: seat 0 leads)."""
    text = kow_position(
        hands=hands,
        hand=hand,
        dealer=players - 1 if dealer is None else dealer,
        status="A" * players,
        trump=trump,
        dog_used=True,
        **more,
    )
    return view_of("knockout-whist", text, players=players)


# ---------------------------------------------------------------- Knockout Whist


def test_kow_4_3_a_lead_of_the_highest_card_left_wins_the_trick() -> None:
    """KOW-4.3: nobody can follow above the AH once the KH is played, but a seat out of
    hearts may trump it (spades, unseen); the QH is only as good as the AH the seat holds
    too; the 3C is the seat's lowest card."""
    view = kow(2, ["AH,QH,3C", "4D,5D,6D"], hand=4, done="0:KH,1:2H", won=[1, 0])
    assert why("knockout-whist", view, "play AH") == (
        "only_trump_beats",
        {"card": "AH", "suit": "H"},
    )
    assert why("knockout-whist", view, "play QH") == (
        "as_good_as_higher",
        {"card": "QH", "suit": "H"},
    )
    assert why("knockout-whist", view, "play 3C")[0] == "lead_low"


def test_kow_4_3_a_queen_under_ones_own_ace_and_king_is_not_the_highest_left() -> None:
    """KOW-4.3, against the false "the queen of spades is the highest card of its suit
    left" said to a seat holding the ace and king of spades: the queen takes the trick as
    surely as they would (hearts trumps: only a trump can beat it), and is said to be
    only that. The ace is the highest spade still in play."""
    view = kow(3, ["AS,KS,QS,2D", "3C,4C,5C,6C", "7C,8C,9C,10C"], hand=4, trump="H")
    assert view["seat"] == 0 and view["trick"] == []
    assert why("knockout-whist", view, "play QS") == (
        "as_good_as_higher",
        {"card": "QS", "suit": "S"},
    )
    assert why("knockout-whist", view, "play AS")[0] == "only_trump_beats"
    for card in ("QS", "KS", "AS"):
        assert why("knockout-whist", view, f"play {card}")[0] != "highest_left"


def test_neuf_4_3_a_trump_under_ones_own_higher_trumps_is_a_sure_trick() -> None:
    """NEUF-4.3, hearts trumps: seat 0 holds every heart, so the QH leads to a sure trick
    (every card that could beat it is the seat's own), though it is not the highest card
    left; the AH, which no card beats, is."""
    piles = neuf_piles([f"{r}H" for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()])
    view = view_of("neuf", neuf_position(piles))
    assert why("neuf", view, "play QH") == ("sure_win", {"card": "QH", "suit": "H"})
    assert why("neuf", view, "play AH") == ("highest_left", {"card": "AH", "suit": "H"})


def test_kow_4_2_lead_low_only_of_the_seats_lowest_card() -> None:
    """KOW-4.2 (the leader may lead any card), against the false "lead low" said of the
    9D to a seat holding the 2C: the 9D is the lowest of the seat's diamonds, and said to
    be that; the 2C is the seat's lowest card; a lone 9D is neither."""
    view = kow(3, ["9D,JD,2C", "3C,4C,5C", "6C,7C,8C"], hand=5, trump="H")
    assert why("knockout-whist", view, "play 9D") == ("lead_low_suit", {"card": "9D", "suit": "D"})
    assert why("knockout-whist", view, "play 2C")[0] == "lead_low"
    view = kow(3, ["9D,KS,2C", "3C,4C,5C", "6C,7C,8C"], hand=5, trump="H")
    assert why("knockout-whist", view, "play 9D")[0] not in ("lead_low", "lead_low_suit")


def test_kow_4_2_a_seat_that_cannot_beat_the_trick_plays_low() -> None:
    """KOW-4.2: seat 2 must follow hearts; its 4H and 9H are both below seat 1's KH, which
    takes the trick so far, so the 4H is played low. Seat 0 plays after it and may hold the
    AH or trump: seat 1 does not "already win" the trick, seat 2 cannot beat it. The 9H,
    not its lowest, has no rule of thumb."""
    view = kow(3, ["5C,6C,7C", "2S,3S", "4H,9H,2C"], hand=5, dealer=0, trick="1:KH")
    assert why("knockout-whist", view, "play 4H") == ("cannot_beat", {"card": "4H", "suit": "H"})
    assert why("knockout-whist", view, "play 9H")[0] == "no_rule"


def test_kow_4_3_already_wins_only_when_nobody_to_come_can_beat_it() -> None:
    """KOW-4.3, against the false "Bot 3 already wins this trick" while a seat still to
    play may hold the ace: with seat 0 to come, seat 2's low heart under the KH is "you
    cannot beat it" (or, holding the AH, "let it go"); as the trick's last card it is
    "already wins"."""
    view = kow(3, ["5C,6C,7C", "2S,3S", "4H,AH,2C"], hand=5, dealer=0, trick="1:KH")
    assert why("knockout-whist", view, "play 4H") == ("duck", {"card": "4H", "suit": "H"})
    view = kow(3, ["5C,6C", "2S,3S", "4H,9H,2C"], hand=5, won=[0, 0, 0], trick="0:5H,1:KH")
    assert why("knockout-whist", view, "play 4H") == ("already_wins", {"card": "4H", "seat": 1})


def test_kow_4_2_a_seat_out_of_the_suit_keeps_its_trumps_or_trumps_in() -> None:
    """KOW-4.2: out of hearts, seat 2 may throw a club (keeping its trump) or trump in with
    the 5S, which beats the KH (KOW-4.3) without being the highest spade left."""
    view = kow(3, ["5C,6C,7C", "2S,3S", "5S,8C,2C"], hand=5, dealer=0, trick="1:KH")
    assert why("knockout-whist", view, "play 2C") == ("keep_trumps", {"card": "2C", "suit": "S"})
    assert why("knockout-whist", view, "play 5S") == ("trump_in", {"card": "5S", "suit": "H"})


def test_kow_4_3_the_last_card_of_a_trick_wins_it_as_cheaply_as_it_can() -> None:
    """KOW-4.3: seat 2 plays last to 9H and JH; the QH and AH both take the trick, the QH
    the cheaper; the AH is no worse a card, but no rule of thumb says why to spend it."""
    view = kow(3, ["5C,6C", "2S,3S", "QH,AH,2C"], hand=5, won=[0, 0, 0], trick="0:9H,1:JH")
    assert why("knockout-whist", view, "play QH")[0] == "win_cheap"
    assert why("knockout-whist", view, "play AH")[0] == "no_rule"


def test_kow_3_2_the_chooser_names_trumps_with_its_cards_counted() -> None:
    """KOW-3.2: the chooser names trumps after seeing the new hand; the reason counts the
    cards of the suit named."""
    text = kow_position(
        hands=["AS,KS,9S,3H,2C,4D", "2D,3D,5D,6D,7D,8D"],
        hand=2,
        dealer=1,
        status="AA",
        phase="trump",
        dog_used=True,
        chooser=0,
    )
    view = view_of("knockout-whist", text, players=2)
    assert "trump S" in view["legal_actions"]
    assert why("knockout-whist", view, "trump S") == ("trump_suit", {"suit": "S", "count": 3})
    assert why("knockout-whist", view, "trump C") == ("trump_suit", {"suit": "C", "count": 1})


def test_kow_6_3_a_dogs_knock_keeps_its_card() -> None:
    """KOW-6.3: a dog may knock, keeping its one card for a later trick."""
    text = kow_position(
        hands=["3C", "5H,6H,7H", "8C,9C,10C"],
        hand=5,
        dealer=2,
        status="DAA",
        trump="S",
        dog_used=True,
    )
    view = view_of("knockout-whist", text, players=3)
    assert view["legal_actions"] == ["play 3C", "knock"]
    assert why("knockout-whist", view, "knock") == ("knock", {})


# ---------------------------------------------------------------- Neuf

NEUF_PACK = [f"{r}{s}" for s in "CDHS" for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()]


def neuf_position(
    piles: list[list[str]], *, phase: str = "play", done: str = "-", trick: str = "-"
) -> str:
    """Deal 1 (trump H, NEUF-2.1) of a 3-player game with first dealer 2: seat 0 decides
    first (NEUF-3.1); in play, everyone kept."""
    exchanges = "-" if phase == "exchange" else "0:k,1:k,2:k"
    return (
        f"neuf/1 players=3 sequence=HDCS-NT first=2 ledger=- phase={phase} "
        f"exchanges={exchanges} piles={'/'.join(','.join(p) for p in piles)} "
        f"done={done} trick={trick} seed=1 chance=1"
    )


def neuf_piles(*named: list[str]) -> list[list[str]]:
    """Four piles of 13: those named, filled up from the rest of the pack in order."""
    rest = [c for c in NEUF_PACK if all(c not in p for p in named)]
    piles = []
    for pile in [*named, *([[]] * (4 - len(named)))]:
        take = 13 - len(pile)
        piles.append([*pile, *rest[:take]])
        rest = rest[take:]
    return piles


def test_neuf_3_2_the_exchange_is_said_by_the_trumps_the_hand_holds() -> None:
    """NEUF-3.2: a blind exchange of the whole hand for the spare, or keeping it, said by
    the hand's trumps (hearts in deal 1) against an average pile's 13/4; never by the
    value it restates. Seat 0's thirteen clubs hold no trump; with five hearts, more than
    an average hand."""
    view = view_of("neuf", neuf_position(neuf_piles(), phase="exchange"))
    assert view["legal_actions"] == ["exchange", "keep"]
    assert why("neuf", view, "exchange") == ("exchange_hand", {"count": 0})
    assert why("neuf", view, "keep") == ("no_rule", {})
    hearts = ["2H", "5H", "9H", "QH", "AH", *[f"{r}C" for r in "2 3 4 5 6 7 8".split()]]
    view = view_of("neuf", neuf_position(neuf_piles(hearts), phase="exchange"))
    assert why("neuf", view, "keep") == ("keep_hand", {"count": 5})
    assert why("neuf", view, "exchange") == ("no_rule", {})


def test_neuf_4_3_the_highest_heart_left_and_a_low_follow() -> None:
    """NEUF-4.3 with hearts trumps: seat 0 leads the AH, the highest trump there is; seat
    1 then follows (NEUF-4.2) with its lowest heart, which cannot beat it."""
    piles = neuf_piles(
        ["AH", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
        ["2H", "3H", "AC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD"],
    )
    view = view_of("neuf", neuf_position(piles))
    assert why("neuf", view, "play AH") == ("highest_left", {"card": "AH", "suit": "H"})
    view = view_of("neuf", neuf_position(piles, trick="0:AH"))
    assert why("neuf", view, "play 2H") == ("already_wins", {"card": "2H", "seat": 0})


def test_neuf_8_4_a_partners_trick_is_as_good_as_ones_own() -> None:
    """NEUF-8.4: seats 0 and 2 are partners. Seat 0 led the AC and seat 1 followed; seat 2,
    following clubs (NEUF-4.2) with its lowest, leaves the trick to its partner, who takes
    it so far (seat 3, still to play, may trump it: hearts); seat 3 plays low under seat
    0's trick too, the trick's last card, but seat 0 is its opponent. With seat 1 taking
    the trick, seat 3's partner, and nobody after seat 3, the partner already wins it."""
    piles = neuf_piles(
        ["AC", *[f"{r}D" for r in "2 3 4 5 6 7 8 9 10 J Q K".split()]],
        ["2C", *[f"{r}S" for r in "2 3 4 5 6 7 8 9 10 J Q K".split()]],
        ["3C", "4C", "AD", "AS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"],
    )

    def position(piles: list[list[str]], trick: str) -> View:
        text = (
            "neuf/1 players=4 sequence=HDCS-NT first=3 ledger=- phase=play exchanges=- "
            f"piles={'/'.join(','.join(p) for p in piles)} done=- trick={trick} seed=1 chance=1"
        )
        return view_of("neuf", text, players=4)

    view = position(piles, "0:AC,1:2C")
    assert view["seat"] == 2
    assert why("neuf", view, "play 3C") == ("partner_winning", {"card": "3C", "seat": 0})
    view = position(piles, "0:AC,1:2C,2:3C")
    assert view["seat"] == 3
    lowest = view["legal_actions"][0]
    assert why("neuf", view, lowest)[0] == "already_wins"
    view = position([piles[1], piles[0], *piles[2:]], "0:2C,1:AC,2:3C")
    assert view["seat"] == 3
    assert why("neuf", view, lowest) == ("partner_wins", {"card": lowest[5:], "seat": 1})


# ---------------------------------------------------------------- Kryt'-navalivat'


def kryt_navalivat(hands: list[str], **more: Any) -> View:
    return view_of("kryt-navalivat", kryt_navalivat_position(hands, **more), players=len(hands))


def test_kryt_navalivat_3_1_beat_with_the_lowest_card_that_beats() -> None:
    """KRYT-3.1: on the 8H (clubs trumps) the 10H, the AH and the 7C all beat; the 10H is
    the lowest of them, and a trump costs more than any heart. A higher beat says what
    it keeps: a lower card that beats."""
    view = kryt_navalivat(["10H AH 7C 6D", "…"], pile="8H", faceup="9C", stock="QS KS")
    assert "beat 10H" in view["legal_actions"] and "beat 7C" in view["legal_actions"]
    assert why("kryt-navalivat", view, "beat 10H") == ("beat_lowest", {"card": "10H"})
    assert why("kryt-navalivat", view, "beat 7C") == ("beat_keeps_lower", {"card": "7C"})
    assert why("kryt-navalivat", view, "beat AH") == ("beat_keeps_lower", {"card": "AH"})


def test_kryt_navalivat_8_2_an_anti_trump_is_beaten_by_its_own_suit_alone() -> None:
    """KRYT-8.2 (diamonds trumps, spades anti-trumps): only a higher spade beats the 9S,
    and nothing beats the AS; the lowest card that beats the 8S is the 9S (the 10S keeps
    it), never a heart or a diamond, which do not beat it at all."""
    text = kryt_navalivat_position(
        ["9S AS 7H 10S", "…"], pile="8S", stock="QC KC", trumps="permanent"
    )
    view = view_of("kryt-navalivat", text, players=2, trump_mode="permanent")
    assert why("kryt-navalivat", view, "beat 9S") == ("beat_lowest", {"card": "9S"})
    assert why("kryt-navalivat", view, "beat 10S") == ("beat_keeps_lower", {"card": "10S"})
    assert "beat 7H" not in view["legal_actions"]
    text = kryt_navalivat_position(
        ["9S AS 7H", "…"], stock="QC KC", trumps="permanent", turn="lead"
    )
    view = view_of("kryt-navalivat", text, players=2, trump_mode="permanent")
    assert why("kryt-navalivat", view, "lead 9S") == ("anti_trump", {"card": "9S"})
    assert why("kryt-navalivat", view, "lead AS") == ("unbeatable", {"card": "AS"})


def test_kryt_navalivat_5_a_pick_up_that_saves_a_trump_or_takes_one_card() -> None:
    """KRYT-3.1, KRYT-5: only trumps beat the KH, so picking it up keeps them; a non-trump
    top card is picked up alone (one card)."""
    view = kryt_navalivat(["7C 8C 6D", "…"], pile="9S KH", faceup="9C", stock="QS KS")
    assert why("kryt-navalivat", view, "take") == ("take_keep_trump", {"card": "7C"})
    view = kryt_navalivat(["AH 8C 6D", "…"], pile="9S KH", faceup="9C", stock="QS KS")
    assert why("kryt-navalivat", view, "take") == ("take_few", {"count": 1})


def test_kryt_navalivat_6_1_swap_the_six_for_the_turned_card() -> None:
    """KRYT-6.1: the holder of the six of trumps may swap it for the turned card."""
    view = kryt_navalivat(["6C 8H 9D", "…"], pile="", faceup="QC", stock="QS KS", turn="lead")
    assert "swap" in view["legal_actions"]
    assert why("kryt-navalivat", view, "swap") == ("swap_six", {"card": "QC"})


def test_kryt_navalivat_4_2_cover_with_a_trump_or_the_lowest_card_and_lead_low() -> None:
    """KRYT-4.2 (a): after a beat, any card covers; KRYT-4.1: any card leads."""
    view = kryt_navalivat(
        ["8H 9C 7D", "…"], pile="6S 10S", faceup="6C", stock="QS KS", turn="cover"
    )
    assert why("kryt-navalivat", view, "cover 9C") == ("cover_trump", {"card": "9C"})
    assert why("kryt-navalivat", view, "cover 7D") == ("cover_low", {"card": "7D"})
    view = kryt_navalivat(["8H 9C 7D", "…"], faceup="6C", stock="QS KS", turn="lead")
    assert why("kryt-navalivat", view, "lead 7D") == ("lead_lowest", {"card": "7D"})
    assert why("kryt-navalivat", view, "lead 9C") == ("lead_trump", {"card": "9C"})


# ---------------------------------------------------------------- the whole hint


def analysis_of(view: View, values: list[float], errors: list[float] | None = None) -> Analysis:
    """An analysis of ``view`` with the given values (and gap errors) for its legal actions."""
    legal = view["legal_actions"]
    appraisals = [
        Appraisal(a, v, e, 40)
        for a, v, e in zip(legal, values, errors or [0.0] * len(legal), strict=True)
    ]
    return decide("knockout-whist", "tricks", view, appraisals, 40, 0.1, "pimc")


def test_the_best_action_is_the_highest_value_and_close_values_say_any() -> None:
    """The best is the highest value; every gap is to it; all values within the unit's
    margin read "any move"."""
    view = kow(2, ["AH,QH,3C", "4D,5D,6D"], hand=4, done="0:KH,1:2H", won=[1, 0])
    legal = view["legal_actions"]
    hint = advice(view, analysis_of(view, [1.0, 1.4, 2.5]))
    assert hint["best"] == legal[2] and hint["unit"] == "tricks"
    assert [a["gap"] for a in hint["actions"]] == [-1.5, -1.1, 0.0]
    assert [a["tie"] for a in hint["actions"]] == [False, False, True]
    close = advice(view, analysis_of(view, [2.0 + 0.05 * i for i in range(len(legal))]))
    assert close["reason"]["key"] == "hints.why.any"
    assert MARGINS["tricks"] < 0.5 < 1.5


def test_a_tie_goes_to_the_card_kept_least_and_noise_is_no_gap() -> None:
    """Cards whose values lie within their noise of the highest are a tie, and the hint
    names the one a good player keeps least: a plain card before a trump, a low card before
    a high one (spades trumps, KOW-4.3). Tied through noise alone, the moves are a close
    call, never "any move"."""
    view = kow(2, ["2S,AS,3C,KC", "4D,5D,6D,7D"], hand=4)
    assert view["legal_actions"] == ["play 3C", "play KC", "play 2S", "play AS"]
    # The ace of trumps is highest, the two of trumps within the margin of it: the two.
    hint = advice(view, analysis_of(view, [1.0, 1.0, 2.45, 2.5]))
    assert hint["best"] == "play 2S"
    assert [a["tie"] for a in hint["actions"]] == [False, False, True, True]
    # The king of clubs 0.6 below the ace, but within two standard errors of it: a tie,
    # and the plain king goes before either trump.
    noisy = advice(view, analysis_of(view, [1.0, 1.9, 2.45, 2.5], [0.1, 0.4, 0.1, 0.0]))
    assert noisy["best"] == "play KC"
    assert [a["tie"] for a in noisy["actions"]] == [False, True, True, True]
    unsure = advice(view, analysis_of(view, [1.0, 1.9, 2.45, 2.5], [0.8, 0.4, 0.1, 0.0]))
    assert all(a["tie"] for a in unsure["actions"])
    assert unsure["reason"]["key"] == "hints.why.close"


def test_a_tie_among_cards_given_to_be_beaten_goes_to_the_highest_value() -> None:
    """KRYT-4.2 (a), KRYT-4.1: a cover or a lead gives the next player a card to beat, and a
    higher one is harder to beat, so no card does another's job: a tie among covers or
    leads goes to the highest value, where a tie among beats goes to the lowest card that
    beats (KRYT-3.1). Where every action does about as well, the card kept least."""
    cover = kryt_navalivat(
        ["8H 9C 7D KD", "…"], pile="6S 10S", faceup="6C", stock="QS KS", turn="cover"
    )
    values = {"cover 7D": 0.50, "cover KD": 0.52, "cover 8H": 0.4, "cover 9C": 0.3}
    assert sorted(cover["legal_actions"]) == sorted(values)
    tied = decide(
        "kryt-navalivat",
        "not_fool",
        cover,
        [Appraisal(a, values[a], 0.0, 400) for a in cover["legal_actions"]],
        1600,
        0.1,
        "search",
    )
    assert set(tied.ties) == {"cover 7D", "cover KD"} and tied.best == tied.top == "cover KD"
    lead = kryt_navalivat(["8H 9C 7D KD", "…"], faceup="6C", stock="QS KS", turn="lead")
    legal = lead["legal_actions"]
    assert len(legal) == 4

    def leads(step: float, error: float) -> Analysis:
        appraisals = [Appraisal(a, 0.5 + step * i, error, 400) for i, a in enumerate(legal)]
        return decide("kryt-navalivat", "not_fool", lead, appraisals, 1600, 0.1, "search")

    # Tied by their noise (0.02 apart, errors of 0.05): the highest value.
    led = leads(0.02, 0.05)
    assert len(led.ties) == 4 and led.best == led.top == legal[-1]
    # Every lead within the margin of every other: nothing is told, the card kept least.
    alike = leads(0.005, 0.0)
    assert len(alike.ties) == 4 and alike.best == "lead 7D" != alike.top
    beat = kryt_navalivat(["10H AH 7C", "…"], pile="8H", faceup="9C", stock="QS KS 6H")
    beats = [a for a in beat["legal_actions"] if a.startswith("beat")]
    assert sorted(beats) == ["beat 10H", "beat 7C", "beat AH"]  # clubs trumps
    kept = decide(
        "kryt-navalivat",
        "not_fool",
        beat,
        [Appraisal(a, 0.5 if a == "beat AH" else 0.49, 0.0, 400) for a in beat["legal_actions"]],
        1600,
        0.1,
        "search",
    )
    assert kept.top == "beat AH" and kept.best == "beat 10H"


def test_an_action_searched_too_little_is_not_rated() -> None:
    """KRYT-7.2's chance from the search: an action visited fewer than MIN_VISITS times
    has no value and no gap, and cannot be the best."""
    game = cardtable.make("kryt-navalivat", players=2)
    view = kryt_navalivat(["10H AH 7C", "…"], pile="8H", faceup="9C", stock="QS KS 6H")
    legal = view["legal_actions"]
    visits = {game.number_of(a): MIN_VISITS + i for i, a in enumerate(legal)}
    visits[game.number_of(legal[0])] = MIN_VISITS - 1
    totals = {n: 0.5 * count for n, count in visits.items()}
    totals[game.number_of(legal[0])] = float(MIN_VISITS - 1)  # every visit a win: noise
    appraisals = search_appraisals(game, view, visits, totals)
    assert appraisals[0].value is None and all(a.value == 0.5 for a in appraisals[1:])
    hint = advice(view, decide(game.name, "not_fool", view, appraisals, 100, 0.1, "search"))
    assert hint["best"] != legal[0]
    assert hint["actions"][0]["value"] is None and hint["actions"][0]["gap"] is None


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget the deals (Knockout Whist's sampling) and the iterations (the others'
    search) bound, not the clock: the same hint on a slow machine, and no search left to
    run to its 30 s."""
    budget = Budget(deals=40, seconds=30.0, iterations=4000)
    monkeypatch.setattr(thinking, "HINT_BUDGET", budget)


@pytest.mark.usefixtures("small_budget")
def test_kow_the_hint_counts_the_tricks_the_top_trumps_take() -> None:
    """KOW-4.3, spades trumps: the AS, KS and QS take three tricks whatever the other hand
    holds, and leading one of them first gives up nothing; the 2H led first can only lose
    the trick. The hint names a spade, worth its sure tricks at least, and the 2H behind."""
    view = kow(2, ["AS,KS,QS,2H", "3S,4D,5D,6D"], hand=4)
    hint = advise("knockout-whist", view, seed=1)
    assert hint["unit"] == KNOCKOUT_WHIST.hint_unit == "tricks"
    # The three sure tricks tie: the hint leads the one it keeps least.
    assert hint["best"] == "play QS"
    values = {a["action"]: a["value"] for a in hint["actions"]}
    gaps = {a["action"]: a["gap"] for a in hint["actions"]}
    for spade in ("play QS", "play KS", "play AS"):
        assert 3.0 <= values[spade] <= 4.0
    assert gaps[hint["best"]] == 0.0 and gaps["play 2H"] < 0
    # The QS is not the highest spade left, but every card that beats it is the seat's.
    assert hint["reason"]["key"] == "hints.why.sure_win"
    assert all(a["visits"] == 40 for a in hint["actions"])  # every deal values every card
    assert all(a["error"] >= 0 for a in hint["actions"])


@pytest.mark.usefixtures("small_budget")
def test_neuf_the_hint_counts_points_over_the_quota() -> None:
    """NEUF-5.2: the unit is tricks over the quota this deal. Seat 0 holds every heart
    (trumps) and leads: the AH takes a trick for sure, whatever the deal."""
    piles = neuf_piles(
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    )
    view = view_of("neuf", neuf_position(piles))
    hint = advise("neuf", view, seed=1)
    assert hint["unit"] == "points"
    best = next(a for a in hint["actions"] if a["action"] == hint["best"])
    # Thirteen trumps take thirteen tricks: nine over the quota of four.
    assert best["value"] == 9.0 and best["gap"] == 0.0
    assert hint["reason"]["key"] == "hints.why.any"  # every heart is as good


def test_kryt_navalivat_the_hint_is_the_chance_of_not_being_the_fool() -> None:
    """KRYT-7.2: the unit is the search's chance of not being the fool, 0 to 1."""
    view = kryt_navalivat(["10H AH 7C", "…"], pile="8H", faceup="9C", stock="QS KS 6H")
    hint = advise("kryt-navalivat", view, seed=1)
    assert hint["unit"] == "not_fool"
    rated = [action for action in hint["actions"] if action["value"] is not None]
    assert rated, hint
    for action in rated:
        assert action["value"] == round(action["chance"], 3)
        assert 0.0 <= action["value"] <= 1.0 and action["gap"] <= 0.0
    # An action searched too seldom (a busy machine's clock) is not rated: no chance either.
    assert all(a["chance"] is None for a in hint["actions"] if a["value"] is None)
    assert hint["best"] in view["legal_actions"]


def test_a_forced_move_is_named_and_not_valued() -> None:
    view = kow(3, ["5C,6C,7C", "2S,3S", "4H,2C,3C"], hand=5, dealer=0, trick="1:KH")
    assert view["legal_actions"] == ["play 4H"]
    hint = advise("knockout-whist", view, seed=1)
    assert hint["best"] == "play 4H" and hint["reason"] == {"key": "hints.why.forced", "params": {}}
    assert hint["actions"] == [
        {
            "action": "play 4H",
            "chance": None,
            "visits": 0,
            "value": None,
            "gap": None,
            "error": None,
            "tie": False,
        }
    ]


def test_english_reasons_leave_a_cards_article_to_its_name() -> None:
    """An English card's name brings its article ("the ace of spades", ``card_name``):
    "your {card}" would read "your the ace of spades"."""
    assert ENGLISH["card_name"].startswith("the ")
    for text in ENGLISH["hints"]["why"].values():
        for form in text.values() if isinstance(text, dict) else [text]:
            assert "your {card}" not in form and "the {card}" not in form, form
