"""Kryt'-navalivat' rules, unit by unit (SPEC §2, KRYT-1 … KRYT-11, decisions K-1 … K-15).

Seats A, B, C, D are 0 … 3. Constructed states use the ``kryt/1`` notation through
``compose_position`` (``position.py``). Expected facts are restated here from SPEC.md,
not read from the engine: the beat relation and the pick-up counts are written out again
in plain terms, and the draws are recomputed from the stock before each turn.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import cardtable
from cardtable.cards import Card
from cardtable.errors import InvalidOptionError, InvalidRecordError
from cardtable.rules.kryt_navalivat import KrytNavalivat, KrytNavalivatState
from cardtable.rules.kryt_navalivat.beating import (
    NO_SUIT,
    PERMANENT_ANTI,
    beats,
    take_count,
)
from cardtable.rules.kryt_navalivat.state import beaters_for
from cardtable.session import Session
from kryt_navalivat_pieces import (
    FILL,
    GAMES,
    PACK,
    cards,
    compose_position,
    fields,
    hand,
    legal,
    pile,
    position_state,
    random_states,
    stock_cards,
)

A, B, C, D = 0, 1, 2, 3
RANKS = "6 7 8 9 10 J Q K A".split()
SUITS = "CDHS"
MODES = [("turned", t) for t in SUITS] + [("permanent", "D")]


def higher(b: str, t: str) -> bool:
    return RANKS.index(b[:-1]) > RANKS.index(t[:-1])


def plain_beats(b: str, t: str, trump: str, permanent: bool) -> bool:
    """KRYT-3.1 and, in the permanent mode, KRYT-8.2, as the rules say them."""
    if b[-1] == t[-1]:
        return higher(b, t)
    if permanent:
        # A spade is beaten only by a higher spade, a diamond by a higher diamond; on a heart
        # or a club any diamond beats, a spade never.
        return t[-1] in "HC" and b[-1] == "D"
    return t[-1] != trump and b[-1] == trump


def plain_take(pile_size: int, top: str, trump: str) -> int:
    """KRYT-5 and KRYT-8.3: 1 for a non-trump (a spade of the permanent mode too); the top 3
    (or all, when 3 or fewer) for a trump other than the ace; the whole pile for its ace."""
    if top[-1] != trump:
        return 1
    return pile_size if top[:-1] == "A" else min(3, pile_size)


# KRYT-3, KRYT-8.2: the beat relation ---------------------------------------------------------


@pytest.mark.parametrize(("trump_mode", "trump"), MODES)
def test_kryt_navalivat_3_1_and_8_2_beats_agrees_with_the_rule_for_every_pair(
    trump_mode: str, trump: str
) -> None:
    """KRYT-3.1 (each trump suit) and KRYT-8.2 (diamonds trumps, spades anti-trumps): the
    engine's relation and its look-up table agree with the plain rule on all 36 x 36 pairs;
    KRYT-3.2 / KRYT-8.2: the ace of trumps (and AS, permanent) is beaten by nothing."""
    permanent = trump_mode == "permanent"
    t, anti = SUITS.index(trump), PERMANENT_ANTI if permanent else NO_SUIT
    table = beaters_for(t, anti)
    for top in PACK:
        expected = {b for b in PACK if plain_beats(b, top, trump, permanent)}
        got = {b for b in PACK if beats(Card(b).index, Card(top).index, t, anti)}
        assert got == expected, top
        assert {b for b in PACK if table[Card(top).index] >> Card(b).index & 1} == expected
    unbeatable = {t for t in PACK if not any(plain_beats(b, t, trump, permanent) for b in PACK)}
    assert unbeatable == ({"AD", "AS"} if permanent else {f"A{trump}"})


@pytest.mark.parametrize(("trump_mode", "trump"), [("turned", "H"), ("permanent", "D")])
def test_kryt_navalivat_4_2_the_legal_beats_are_the_cards_held_that_beat_the_top(
    trump_mode: str, trump: str
) -> None:
    """KRYT-4.2a, KRYT-10: in RESPOND mode the legal beats are exactly the held cards that
    beat the top card, plus PICK_UP, for every top card (A holds all the rest but one)."""
    permanent = trump_mode == "permanent"
    for top in PACK:
        others = [c for c in PACK if c != top]
        held, kept = others[:-1], others[-1]
        text = compose_position(
            [" ".join(held), kept], pile=top, trumps="permanent" if permanent else trump
        )
        state = position_state(text, trump_mode)
        expected = {f"beat {c}" for c in held if plain_beats(c, top, trump, permanent)}
        assert legal(state) == expected | {"take"}, top


# KRYT-5, KRYT-8.3: pick-up counts -----------------------------------------------------------


@pytest.mark.parametrize(("trump_mode", "trump"), MODES)
def test_kryt_navalivat_5_and_8_3_take_count_for_every_top_card_and_pile_size(
    trump_mode: str, trump: str
) -> None:
    """KRYT-5 / KRYT-8.3 (K-11: AS takes 1 card) for piles of 1 to 8 cards."""
    t = SUITS.index(trump)
    for top in PACK:
        for size in range(1, 9):
            assert take_count(size, Card(top).index, t) == plain_take(size, top, trump), (top, size)


@pytest.mark.parametrize(("top", "size"), [("9C", 1), ("9C", 2), ("9C", 3), ("9C", 4), ("AC", 6)])
def test_kryt_navalivat_5_a_pick_up_moves_the_cards_the_rule_counts(top: str, size: int) -> None:
    """KRYT-5: clubs trumps; a non-ace trump on top takes min(3, pile), the ace all; the cards
    go to the taker's hand, the rest stays in order and the next player faces its top."""
    below = ["6H", "7H", "8H", "9H", "10H"][: size - 1]
    text = compose_position(
        ["6S 7S 8S", "JS QS KS"], pile=" ".join([*below, top]), stock=FILL, faceup="6C"
    )
    state = position_state(text)
    k = plain_take(size, top, "C")
    taken = [*below, top][-k:]
    assert state.would_take() == [Card(c).index for c in taken]
    state.apply("take")
    assert hand(state, A) == {"6S", "7S", "8S", *taken}
    assert pile(state) == below[: size - k]
    assert state.mode == ("respond" if size > k else "lead") and state.to_move == B


# KRYT-2: the deal ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("trump_mode", ["turned", "permanent"])
def test_kryt_navalivat_2_3_to_2_5_the_deal_from_a_stacked_deck(
    players: int, trump_mode: str
) -> None:
    """KRYT-2.3 / K-15: three rounds, one card at a time, clockwise from the dealer's left;
    KRYT-2.4 / K-3: the next card is turned and names trumps; KRYT-2.5: the stock is the
    rest, 36 - 3N cards with the turned card. KRYT-8.1: the permanent mode turns nothing,
    so its stock is the 36 - 3N face-down cards (30 for two). KRYT-4: the dealer's left
    leads first."""
    rng = random.Random(players)
    for dealer in range(players):
        deck = PACK[:]
        rng.shuffle(deck)
        game = KrytNavalivat(players=players, dealer=dealer, trump_mode=trump_mode)
        state = game.new_state(seed=3, decks=[deck])
        for seat in range(players):
            dealt = {deck[i] for i in range(3 * players) if (dealer + 1 + i) % players == seat}
            assert len(dealt) == 3 and hand(state, seat) == dealt
        public = state.view(None)
        assert public["stock"] == state.stock_count == 36 - 3 * players
        if trump_mode == "turned":
            turned = deck[3 * players]
            assert public["trump_card"] == turned and public["trump"] == turned[-1]
            assert stock_cards(state) == deck[3 * players + 1 :]
        else:
            assert public["trump_card"] is None and (public["trump"], public["anti_trump"]) == (
                "D",
                "S",
            )
            assert stock_cards(state) == deck[3 * players :]
        assert (state.to_move, state.mode, public["pile"]) == ((dealer + 1) % players, "lead", [])


def test_kryt_navalivat_2_1_without_a_dealer_option_the_seed_picks_one_every_seat_possible() -> (
    None
):
    """KRYT-2.1: anyone may deal the first hand; the seed decides it, reproducibly."""
    game = KrytNavalivat(players=3)
    dealers = {game.new_state(seed=s).dealer for s in range(30)}
    assert dealers == {0, 1, 2}
    assert game.new_state(seed=7).position() == game.new_state(seed=7).position()


# KRYT-4.4, K-1: drawing after the turn --------------------------------------------------------


def expected_draw(before: KrytNavalivatState, size: int) -> list[str]:
    """KRYT-4.4: from the top of the face-down stock while fewer than 3 are held, the
    turned card when nothing else is left."""
    source = stock_cards(before) + ([before.view(None)["trump_card"]] if before.faceup >= 0 else [])
    return source[: max(0, 3 - size)]


@pytest.mark.parametrize(("players", "trump_mode", "seed"), GAMES)
def test_kryt_navalivat_4_4_k_1_draws_after_the_whole_turn_only_the_actor_up_to_three(
    players: int, trump_mode: str, seed: int
) -> None:
    """KRYT-4.4, K-1, KRYT-11.3: no draw between a beat and its cover; at the end of a turn
    only the actor draws, from the top, up to 3 cards and never above, the turned card last
    (KRYT-2.5); a pick-up leaves 4 or more, so draws nothing; the swap draws nothing."""
    states = random_states(players, trump_mode, seed)
    assert states[-1].is_over and states[-1].stock_count == 0
    for before, after in itertools.pairwise(states):
        actor = before.to_move
        assert actor is not None
        action = str(after.game.actions[after.history[-1]])
        verb, _, card = action.partition(" ")
        held = hand(before, actor)
        for seat in range(players):
            if seat != actor:
                assert hand(after, seat) == hand(before, seat), action
        if verb == "swap" or (verb == "beat" and after.mode == "cover"):
            assert after.stock_count == before.stock_count, action
            continue
        if verb == "take":
            taken = before.view(None)["would_take"]
            rest = held | set(taken)
            assert len(rest) >= 4 or not before.stock_count
        else:
            rest = held - {card}
        drawn = expected_draw(before, len(rest))
        assert hand(after, actor) == rest | set(drawn), action
        assert after.stock_count == before.stock_count - len(drawn)
        if before.stock_count:  # KRYT-11.3: 3 at least, unless the stock ran out
            assert len(hand(after, actor)) >= 3 or after.stock_count == 0


# KRYT-7.1, KRYT-4.5: going out and skipping empty seats -------------------------------------


def test_kryt_navalivat_7_1_a_player_out_of_cards_is_skipped() -> None:
    """KRYT-7.1, KRYT-4.5, KRYT-11.6: B has gone out; A leads his last card and goes out
    too; play passes over A and B, who never act again, while C and D play on."""
    text = compose_position(["7H", "", "8S 9S", FILL], turn="lead", trumps="C")
    state = position_state(text)
    assert state.is_out(B) and not state.is_out(A)
    state.apply("lead 7H")
    assert state.is_out(A) and state.view(None)["out"] == [A, B]
    assert (state.to_move, state.mode) == (C, "respond")
    state.apply("take")
    assert (state.to_move, state.mode) == (D, "lead")  # the pile is empty after taking 7H
    state.apply(sorted(legal(state))[0])
    assert state.to_move == C
    assert not state.is_over and state.view(None)["hand_sizes"][:2] == [0, 0]


# KRYT-4.3, K-6: FREE mode ----------------------------------------------------------------------


def test_kryt_navalivat_4_3_no_free_mode_with_one_other_player_left() -> None:
    """KRYT-4.3: B is already out; A beats with his last card, leaving only C: no FREE mode,
    the hand is over and C is the fool (KRYT-7.3)."""
    state = position_state(compose_position(["QH", "", "7S 8S"], pile=f"{FILL} JH"))
    state.apply("beat QH")
    assert state.is_over and state.loser == C and state.mode == "over"


def test_kryt_navalivat_4_3_k_6_free_mode_allows_lead_beat_and_cover_or_pick_up() -> None:
    """K-6: in FREE mode the player may lead any card, beat (then cover) or pick up."""
    state = position_state(compose_position(["QH", "KH 7S", "9D 10D"], pile=f"{FILL} JH"))
    state.apply("beat QH")
    assert state.mode == "free" and legal(state) == {"lead KH", "lead 7S", "beat KH", "take"}
    state.apply("beat KH")
    assert (state.to_move, state.mode, legal(state)) == (B, "cover", {"cover 7S"})


def test_kryt_navalivat_4_3_free_mode_only_with_the_stock_empty_and_two_others_holding() -> None:
    """KRYT-4.3: in random play FREE mode comes only after a beat with the last card, with
    the stock empty and at least two other players still holding cards; no swap in it.
    KRYT-7.7: every game ends well within the harness cap."""
    free = 0
    for players, trump_mode, seed in GAMES + [(n, "turned", 100 + n) for n in range(3, 7)]:
        states = random_states(players, trump_mode, seed)
        assert states[-1].is_over
        for before, after in itertools.pairwise(states):
            if after.mode == "free":
                free += 1
                actor = before.to_move
                assert actor is not None and after.is_out(actor)
                assert str(after.game.actions[after.history[-1]]).startswith("beat")
                assert after.stock_count == 0 and len(after.holders()) >= 2
                assert "swap" not in legal(after)
    assert free > 0


# KRYT-7.3, K-7: the draw rule -------------------------------------------------------------


# (why, hands, pile, script, expected result: "draw" or the loser's seat)
DRAW_RULE = [
    ("cover, one card that beats", ["JH 8C", "KC"], "9H", ["beat JH", "cover 8C"], "draw"),
    ("cover, one card that cannot beat", ["JH 8C", "7C"], "9H", ["beat JH", "cover 8C"], B),
    ("cover, L holds two cards", ["JH 8C", "KC AC"], "9H", ["beat JH", "cover 8C"], B),
    ("P out by beating, L could beat", ["QH", "KH"], "JH", ["beat QH"], B),
    ("free lead, one card that beats", ["QH", "7S", "8S"], "JH", ["beat QH", "lead 7S"], "draw"),
    ("free lead, one that cannot beat", ["QH", "7S", "6S"], "JH", ["beat QH", "lead 7S"], C),
    ("free lead, L holds two", ["QH", "7S", "8S 9S"], "JH", ["beat QH", "lead 7S"], C),
    ("free beat-out, L could beat", ["QH", "KH", "AH"], "JH", ["beat QH", "beat KH"], C),
]


@pytest.mark.parametrize(
    ("why", "hands", "top", "script", "expected"), DRAW_RULE, ids=[r[0] for r in DRAW_RULE]
)
def test_kryt_navalivat_7_3_k_7_draw_rule(
    why: str, hands: list[str], top: str, script: list[str], expected: Any
) -> None:
    """KRYT-7.3 / K-7 in each branch: a draw only when P's last card was a lead (a free lead
    included) or a cover, and L holds exactly one card, which beats it; otherwise L loses.
    Trumps diamonds, stock empty; settled at once, with no action from L."""
    state = position_state(compose_position(hands, pile=f"{FILL} {top}", trumps="D"))
    for action in script:
        assert not state.is_over
        state.apply(action)
    assert state.is_over and state.legal_action_ids() == []
    if expected == "draw":
        assert state.drawn and state.loser is None
    else:
        assert not state.drawn and state.loser == expected


def test_kryt_navalivat_7_3_a_lead_of_the_last_card_leaves_l_the_fool() -> None:
    """KRYT-7.3, lead branch: A leads his last card on an empty pile; B, the only player
    left, is the fool. (A plain lead happens on an empty pile, so with the stock empty L
    holds the other 35 cards: the one-card draw cannot arise from it, only from a free lead
    or a cover.)"""
    state = position_state(compose_position(["6C", FILL], turn="lead"))
    state.apply("lead 6C")
    assert state.is_over and state.loser == B and len(hand(state, B)) == 35


# Results ----------------------------------------------------------------------------------------


def test_kryt_navalivat_7_2_result_of_a_loss_with_three_players() -> None:
    """KRYT-7.2, SPEC §0.4 (5): the fool alone in last place; the others win together and
    the returns sum to zero."""
    state = position_state(compose_position(["QH", "7S", "6S"], pile=f"{FILL} JH", trumps="D"))
    state.apply("beat QH")
    state.apply("lead 7S")
    result = state.result
    assert result is not None
    assert result.winners == (A, B) and result.places == ((A, B), (C,))
    assert result.returns == (0.5, 0.5, -1.0) and result.summary


def test_kryt_navalivat_7_3_result_of_a_draw_shares_one_place() -> None:
    """KRYT-7.3: a draw has no winner and no fool: one shared place, zero returns."""
    state = position_state(compose_position(["QH", "7S", "8S"], pile=f"{FILL} JH", trumps="D"))
    state.apply("beat QH")
    state.apply("lead 7S")
    result = state.result
    assert result is not None
    assert (result.winners, result.places, result.returns) == ((), ((A, B, C),), (0.0,) * 3)
    assert state.view(None)["draw"] is True and state.view(None)["loser"] is None


def test_kryt_navalivat_result_is_none_while_the_hand_goes_on() -> None:
    state = KrytNavalivat(players=2).new_state(seed=1)
    assert state.result is None and not state.is_over


# Sessions: KRYT-2.1, KRYT-7.5, K-8 --------------------------------------------------------


def find_draw(state: KrytNavalivatState, depth: int) -> list[int] | None:
    """Actions from ``state`` to a drawn end within ``depth`` actions, if there are any."""
    if state.is_over:
        return [] if state.drawn else None
    if depth == 0:
        return None
    for number in state.legal_action_ids():
        after = state.copy()
        after.apply_id(number)
        line = find_draw(after, depth - 1)
        if line is not None:
            return [number, *line]
    return None


def play_to_a_draw(state: KrytNavalivatState) -> None:
    """Play ``state`` to a draw: random play, then a short search once few cards are held."""
    for attempt in range(200):
        rng = random.Random(attempt)
        trial = state.copy()
        while not trial.is_over:
            if trial.stock_count == 0 and sum(trial.view(None)["hand_sizes"]) <= 5:
                line = find_draw(trial, 6)
                if line is not None:
                    for number in trial.history[len(state.history) :] + line:
                        state.apply(number)
                    assert state.drawn
                    return
            trial.apply_id(rng.choice(trial.legal_action_ids()))
    raise AssertionError("no drawn line found")


def play_to_a_loss(state: KrytNavalivatState, seed: int) -> None:
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_action_ids()))
    assert state.loser is not None


def test_kryt_navalivat_2_1_k_8_session_the_fool_deals_next_and_after_a_draw_the_same_dealer() -> (
    None
):
    """KRYT-2.1: the fool deals the next hand; KRYT-7.5 / K-8: after a draw the dealer of
    the drawn hand deals again; the tally counts each seat's losses and the draws."""
    session: Session[KrytNavalivatState] = Session(
        cardtable.make("kryt-navalivat", players=2, dealer=A), seed=11
    )
    assert session.state.dealer == A and session.tally == {"hands": 0, "losses": [0, 0], "draws": 0}
    play_to_a_loss(session.state, 1)
    fool = session.state.loser
    assert fool is not None
    assert session.next_dealer == fool
    second = session.next_hand()
    assert second.dealer == fool and second.to_move == 1 - fool
    losses = [0, 0]
    losses[fool] += 1
    assert session.tally == {"hands": 1, "losses": losses, "draws": 0}
    play_to_a_draw(second)
    assert session.tally == {"hands": 2, "losses": losses, "draws": 1}
    third = session.next_hand()
    assert third.dealer == fool  # the drawn hand's dealer: the previous loser
    assert session.tally == {"hands": 2, "losses": losses, "draws": 1}
    with pytest.raises(InvalidRecordError):
        session.next_hand()  # the third hand is still being played


@pytest.mark.parametrize("engine", ["core", "python"])
def test_kryt_navalivat_session_plays_every_hand_on_its_first_games_engine(engine: str) -> None:
    """A session's hands are games of its first game's class: the compiled core by default,
    the reference when asked, loaded back on the engine asked for; both deal and play the
    same hands, the fool dealing the next (KRYT-2.1)."""
    from cardtable.engines import engine_of

    game = cardtable.make("kryt-navalivat", engine=engine, players=3, dealer=C)
    session: Session[KrytNavalivatState] = Session(game, seed=4)
    reference = cardtable.make("kryt-navalivat", engine="python", players=3, dealer=C)
    twin: Session[KrytNavalivatState] = Session(reference, seed=4)
    for seed in range(3):
        for played in (session, twin):
            play_to_a_loss(played.state, seed)
        assert session.fool == twin.fool == session.state.loser
        assert session.next_dealer == twin.next_dealer
        session.next_hand()
        twin.next_hand()
    assert [engine_of(h.game) for h in session.hands] == [engine] * 4
    assert [h.position() for h in session.hands] == [h.position() for h in twin.hands]
    assert session.dealers == [h.dealer for h in twin.hands]
    loaded = Session.from_json(session.to_json(), engine=engine)
    assert [engine_of(h.game) for h in loaded.hands] == [engine] * 4
    assert loaded.tally == twin.tally


def test_a_session_of_a_game_not_played_in_sessions_is_refused() -> None:
    with pytest.raises(InvalidOptionError, match="not played as a session of hands"):
        Session(cardtable.make("neuf"), seed=1)


def played_session() -> Session[KrytNavalivatState]:
    session: Session[KrytNavalivatState] = Session(
        cardtable.make("kryt-navalivat", players=3, trump_mode="turned", dealer=C), seed=4
    )
    for seed in range(3):
        play_to_a_loss(session.state, seed)
        session.next_hand()
    for _ in range(5):
        session.state.apply(session.state.legal_action_ids()[0])
    return session


def test_kryt_navalivat_session_json_round_trip_replays_the_same_positions() -> None:
    """A saved session (``cardtable-session``) loads back to the same hands, positions,
    tally and next dealer; the unfinished last hand goes on the same way."""
    session = played_session()
    loaded: Session[KrytNavalivatState] = Session.from_json(session.to_json())
    assert [h.position() for h in loaded.hands] == [h.position() for h in session.hands]
    assert [h.dealer for h in loaded.hands] == [h.dealer for h in session.hands]
    assert loaded.tally == session.tally and loaded.losses == session.losses
    assert json.loads(loaded.to_json()) == json.loads(session.to_json())
    number = session.state.legal_action_ids()[-1]
    session.state.apply(number)
    loaded.state.apply(number)
    assert loaded.state.position() == session.state.position()


def _tampered() -> list[tuple[str, str]]:
    good = json.loads(played_session().to_json())

    def changed(**patch: Any) -> str:
        return json.dumps(good | patch)

    hands = good["hands"]
    wrong_dealer = [hands[0], {**hands[1], "options": {**hands[1]["options"], "dealer": 9}}]
    unfinished = [{**hands[0], "actions": hands[0]["actions"][:3]}, hands[1]]
    illegal = [{**hands[0], "actions": ["take", *hands[0]["actions"]]}]
    from_position = [{**hands[0], "start": "kryt/1 players=3"}]
    return [
        ("not JSON", "{"),
        ("truncated", json.dumps(good)[:-40]),
        ("not an object", "[]"),
        ("other format", changed(format="cardtable-record")),
        ("other version", changed(version=2)),
        ("other game", changed(game="neuf")),
        ("options not an object", changed(options=[])),
        ("no hands", changed(hands=[])),
        ("seed missing", changed(seed=None)),
        ("bad option", changed(options={"players": 9, "trump_mode": "turned"})),
        ("hand dealt by the wrong seat", changed(hands=wrong_dealer)),
        ("hand unfinished before the next", changed(hands=unfinished)),
        ("an action that does not replay", changed(hands=illegal)),
        ("hand from a position", changed(hands=from_position)),
        ("hand not a record", changed(hands=[{"format": "x"}])),
    ]


@pytest.mark.parametrize(("why", "text"), _tampered(), ids=[w for w, _ in _tampered()])
def test_kryt_navalivat_session_bad_files_are_refused(why: str, text: str) -> None:
    """A session file that is not JSON, not a session, of another version or game, or whose
    hands do not replay or were not dealt by the right seat: InvalidRecordError."""
    with pytest.raises(InvalidRecordError):
        Session.from_json(text)


# KRYT-9, K-10: views --------------------------------------------------------------------------


def cards_in(value: Any) -> set[str]:
    """Every card text anywhere in a view."""
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    if isinstance(value, str) and value not in ("C", "D", "H", "S"):
        try:
            return {str(Card.parse(value))}
        except ValueError:
            return set()
    return set()


def test_kryt_navalivat_9_views_show_the_whole_pile_what_a_take_would_move_and_known_cards() -> (
    None
):
    """KRYT-9 / K-10 on KRYT-EX-1's deal: every view holds the whole pile in order and the
    cards a pick-up would take; cards picked up are known to all, until played."""
    game = KrytNavalivat(players=3, dealer=C)
    deck = "7D KD 9C 9S 10S 8S 10D 6H KC 8C QS 7H 8H 9H 10H 7C JH QH KH AH".split()
    state = game.new_state(seed=1, decks=[deck + [c for c in PACK if c not in deck]])
    for action in ("lead 7D", "beat KD", "cover 10S", "beat 9C", "cover 8S", "beat 9S"):
        state.apply(action)
    state.apply("cover 10D")
    for seat in (None, A, B, C):
        view = state.view(seat)
        assert view["pile"] == cards("7D KD 10S 9C 8S 9S 10D")
        assert view["would_take"] == ["10D"]
    state.apply("take")  # B takes 10D
    state.apply("take")  # C takes 9S
    for seat in (None, A, B, C):
        assert state.view(seat)["known"] == [[], ["10D"], ["9S"]]
    state.apply("beat QS")
    state.apply("cover 7C")
    assert state.view(None)["would_take"] == ["8S", "QS", "7C"]
    state.apply("take")
    assert set(state.view(A)["known"][B]) == {"10D", "8S", "QS", "7C"}
    state.apply("beat KC")
    state.apply("cover 9S")  # a known card played is no longer known to be held
    assert state.view(A)["known"][C] == []


def test_kryt_navalivat_9_drawn_cards_and_the_stock_order_never_show_to_others() -> None:
    """KRYT-9: after A's lead on KRYT-EX-1's deal, A drew QS: only A's view shows it; no
    view but the holder's shows a card of a hand that is not known, and no view shows a
    face-down stock card; the spectator sees no hand at all."""
    game = KrytNavalivat(players=3, dealer=C)
    deck = "7D KD 9C 9S 10S 8S 10D 6H KC 8C QS 7H 8H".split()
    state = game.new_state(seed=1, decks=[deck + [c for c in PACK if c not in deck]])
    state.apply("lead 7D")
    assert "QS" in state.view(A)["hand"]
    for seat in (B, C, None):
        assert "QS" not in cards_in(state.view(seat))
    stock = set(stock_cards(state))
    assert {"7H", "8H"} <= stock
    for seat in (A, B, C):
        others = {c for s in (A, B, C) if s != seat for c in hand(state, s)}
        seen = cards_in(state.view(seat))
        assert not seen & stock and not seen & others
    spectator = state.view(None)
    assert "hand" not in spectator and "legal_actions" not in spectator
    assert not cards_in(spectator) & (stock | hand(state, A) | hand(state, B) | hand(state, C))


@pytest.mark.parametrize(("players", "trump_mode", "seed"), GAMES[::2])
def test_kryt_navalivat_9_changing_what_a_seat_cannot_know_leaves_its_view_alone(
    players: int, trump_mode: str, seed: int
) -> None:
    """SPEC §0.4 (4), KRYT-11.9: swap an unknown card of another seat with a face-down stock
    card (or with another seat's unknown card) in the position; the observer's view is the
    same, and the owner's view changes."""
    rng = random.Random(seed)
    swapped = 0
    for state in random_states(players, trump_mode, seed)[::7]:
        if state.is_over:
            continue
        f = fields(state)
        hands = [h.split(",") if h != "-" else [] for h in f["hands"].split("/")]
        known = [set(k.split(",")) if k != "-" else set() for k in f["known"].split("/")]
        observer = rng.randrange(players)
        owners = [s for s in range(players) if s != observer and set(hands[s]) - known[s]]
        if not owners:
            continue
        owner = rng.choice(owners)
        mine = rng.choice(sorted(set(hands[owner]) - known[owner]))
        stock = stock_cards(state)
        other = [c for s in owners if s != owner for c in hands[s] if c not in known[s]]
        theirs = rng.choice(stock or other or [mine])
        # Card texts are upper case and no one is part of another, so a text swap is exact.
        text = state.position().replace(mine, "@").replace(theirs, mine).replace("@", theirs)
        changed = state.game.state_from_position(text)
        assert changed.view(observer) == state.view(observer)
        if theirs != mine:
            swapped += 1
            assert changed.view(owner) != state.view(owner)
    assert swapped > 0


# Records ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "trump_mode", "seed"), GAMES[1::2])
def test_kryt_navalivat_record_replays_to_the_same_positions(
    players: int, trump_mode: str, seed: int
) -> None:
    """SPEC §0.4 (3): ``record()`` as JSON, read by ``cardtable.replay``, rebuilds the same
    state after every action checked; a record from a constructed position replays too."""
    states = random_states(players, trump_mode, seed, cap=150)
    for state in [*states[:: max(1, len(states) // 6)], states[-1]]:
        again = cardtable.replay(state.record().to_json())
        assert again.position() == state.position()
        assert again.record() == state.record()
    middle = states[len(states) // 2]
    start = middle.game.state_from_position(middle.position())
    rng = random.Random(seed)
    for _ in range(10):
        if start.is_over:
            break
        start.apply(rng.choice(start.legal_action_ids()))
    record = start.record()
    assert record.start == middle.position()
    assert cardtable.replay(record.to_json()).position() == start.position()


def test_kryt_navalivat_4_6_k_1_nothing_to_pick_up_between_a_beat_and_its_cover() -> None:
    """KRYT-4.6, K-1: between the beating card and its cover only a cover is legal, so the
    view's ``would_take`` is empty then, and shows the pick-up again once the cover is on."""
    state = position_state(
        compose_position(["7H 8H 6S", FILL], pile="7D", stock="9C 10C JC", faceup="10S", trumps="S")
    )
    assert state.view(None)["would_take"] == ["7D"]
    state.apply("beat 6S")
    assert legal(state) == {"cover 7H", "cover 8H"}
    assert state.view(None)["would_take"] == []
    state.apply("cover 8H")
    assert state.view(None)["would_take"] == ["8H"]
