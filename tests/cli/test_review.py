"""Game review (docs/review.md): each decision of a seat judged by search from that seat's
view at the time, the worst first.

The blunder is a stacked Knockout Whist deal: two players in hand 4 with the dog's life
spent (KOW-6.1), so a player who takes no trick is out and the other wins (KOW-5.1,
KOW-5.2). Seat 1 leads a diamond; seat 0, void in diamonds, holds the only trump it has,
2S, beside three clubs. Trumping wins the trick (KOW-4.3) and keeps seat 0 in; throwing a
club leaves 2S to fall under seat 1's AS, and seat 0 is knocked out.
"""

from __future__ import annotations

import json
import random

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.core import Record
from cardtable.errors import InvalidBudgetError, InvalidRecordError
from cardtable.review import (
    INACCURACY,
    MISTAKE,
    Review,
    ReviewError,
    chance_per_return,
    moments,
    review,
    review_views,
    verdict,
)
from cardtable.rules.knockout_whist.position import compose_position

FAST = "pimc:deals=8"  # PIMC over 8 deals a decision: a whole game in well under a second
GAME = "knockout-whist"


def stacked_blunder(last_card: str = "QS") -> Record:
    """Hand 4 of a two-player game from a stacked deal; seat 1 holds ``last_card`` beside
    5D AS KS and plays it last. Seat 0 throws 2C on the diamond lead instead of trumping."""
    text = compose_position(
        hands=["2S 2C 3C 4C", f"5D AS KS {last_card}"],
        hand=4,
        dealer=0,
        trump="S",
        dog_used=True,
        chooser=1,
    )
    state = cardtable.make(GAME, players=2).state_from_position(text)
    for action in ["play 5D", "play 2C", "play AS", "play 2S", "play KS", "play 3C"]:
        state.apply(action)
    state.apply(f"play {last_card}")
    state.apply("play 4C")
    assert state.is_over
    return state.record()


def played_game(game_name: str, players: int, seed: int, level: str = "easy") -> Record:
    game = cardtable.make(game_name, players=players, dealer=0)
    state = game.new_state(seed=seed)
    bot = make_bot(level, game_name)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(bot.choose(state.view(state.to_move), state.legal_actions(), rng))
    return state.record()


def test_the_throw_away_of_the_winning_trump_is_the_worst_decision() -> None:
    record = stacked_blunder()
    done = review(record, 0, level=FAST)
    worst = done.worst(1)[0]
    assert (worst.index, worst.chosen, worst.best) == (1, "play 2C", "play 2S")
    assert worst.verdict == "mistake"
    assert worst.loss is not None and worst.loss >= MISTAKE
    assert (worst.hand, worst.trick) == (4, 1)
    # Every club throw is as bad as the other: the review says so, and prefers only 2S.
    values = {a.action: a.value or 0.0 for a in worst.actions}
    assert None not in (a.value for a in worst.actions)
    assert values["play 2C"] == values["play 3C"] == values["play 4C"] < values["play 2S"]
    # The other choice (which club to throw under KS) changes nothing.
    others = [d for d in done.decisions if d is not worst]
    assert others and all(d.verdict == "fine" and d.loss == 0.0 for d in others)
    assert done.returns == [-1.0, 1.0]


def test_a_review_on_a_view_only_copy_matches() -> None:
    """The hidden cards differ (seat 1's last card, and so the undealt remainder), every
    view of seat 0 at its decisions is the same: so is the review."""
    record, copy = stacked_blunder("QS"), stacked_blunder("3D")
    assert record.start != copy.start
    _, turns = moments(record, 0)
    _, copied = moments(copy, 0)
    assert [s.view(0) for _, s, _ in turns] == [s.view(0) for _, s, _ in copied]
    assert [s.view(1) for _, s, _ in turns] != [s.view(1) for _, s, _ in copied]
    assert review(record, 0, level=FAST).to_dict() == review(copy, 0, level=FAST).to_dict()


def test_a_review_is_its_views_alone() -> None:
    """A review made from the seat's views, serialized and read back with nothing else,
    is the review of the record."""
    record = played_game(GAME, 3, seed=4)
    done = review(record, 1, level=FAST, rng_seed=9)
    _, turns = moments(record, 1)
    text = json.dumps([[i, s.view(1), chosen] for i, s, chosen in turns])
    views = [(i, view, chosen) for i, view, chosen in json.loads(text)]
    again = review_views(GAME, record.options, 1, views, done.returns, level=FAST, rng_seed=9)
    assert again.to_dict() == done.to_dict()


def test_every_decision_of_the_seat_in_game_order() -> None:
    record = played_game(GAME, 3, seed=11)
    done = review(record, 2, level=FAST)
    state = cardtable.make(GAME, **record.options).new_state(seed=record.seed, decks=record.decks)
    expected = []
    for index, text in enumerate(record.actions):
        if state.to_move == 2 and len(state.legal_action_ids()) > 1:
            expected.append((index, text, sorted(str(a) for a in state.legal_actions())))
        state.apply(text)
    got = [(d.index, d.chosen, sorted(a.action for a in d.actions)) for d in done.decisions]
    assert got == expected
    for decision in done.decisions:
        assert decision.loss is not None
        assert decision.best_value is not None and decision.chosen_value is not None
        assert decision.loss == pytest.approx(decision.best_value - decision.chosen_value)
        assert decision.best_value == max(a.value for a in decision.actions if a.value is not None)
        assert decision.verdict == verdict(decision.loss)
    losses = [d.loss or 0.0 for d in done.worst()]
    assert losses == sorted(losses, reverse=True)
    assert len(done.worst(3)) == 3
    assert Review.from_dict(json.loads(done.to_json())).to_dict() == done.to_dict()


def test_the_thresholds() -> None:
    assert verdict(0.0) == verdict(INACCURACY - 1e-9) == "fine"
    assert verdict(INACCURACY) == verdict(MISTAKE - 1e-9) == "inaccuracy"
    assert verdict(MISTAKE) == verdict(2.0) == "mistake"
    # Within the search's noise no fault is found, however large the loss.
    assert verdict(0.5, noise=0.6) == "fine"
    assert verdict(None) == "unrated"


@pytest.mark.parametrize(
    ("game_name", "players", "chance_of", "per_return", "lowest"),
    [
        ("knockout-whist", 2, "win", 0.5, -1.0),
        ("knockout-whist", 5, "win", 0.8, -0.25),
        ("neuf", 3, "win", 2 / 3, -0.5),
        ("neuf", 4, "win", 0.5, -1.0),
        ("kryt-navalivat", 3, "fool", 2 / 3, -1.0),
    ],
)
def test_a_loss_is_said_as_a_chance_of_the_games_outcome(
    game_name: str, players: int, chance_of: str, per_return: float, lowest: float
) -> None:
    """A value is an expected return, between a loss's and a win's (being the fool's and
    not, in Kryt'-navalivat'): a loss of 0.15 at two players of Knockout Whist is 7.5% of the
    chance to win, at five 12%. The review says so (``stake``), for the page to say "about
    8% more likely to win" rather than a bare "costs 0.15"."""
    assert chance_per_return(game_name, players) == pytest.approx(per_return)
    done = Review(game_name, {"players": players}, 0, "expert", 0, [0.0] * players)
    stake = done.to_dict()["stake"]
    assert stake == {
        "chance_of": chance_of,
        "per_return": pytest.approx(per_return),
        "lowest_return": pytest.approx(lowest),
    }
    assert MISTAKE * chance_per_return("knockout-whist", 2) == pytest.approx(0.075)
    assert MISTAKE * chance_per_return("knockout-whist", 5) == pytest.approx(0.12)


def test_a_stored_review_without_its_stake_gets_it_read_again() -> None:
    """A review stored before ``stake`` was written gets it when read and written again (the
    server does so before sending a stored review)."""
    done = review(stacked_blunder(), 0, level=FAST).to_dict()
    del done["stake"]
    again = Review.from_dict(done).to_dict()
    assert again["stake"]["chance_of"] == "win"
    assert again["stake"]["per_return"] == pytest.approx(0.5)


@pytest.mark.parametrize("game_name", ["neuf", "kryt-navalivat"])
def test_ismcts_reviews_flag_only_beyond_the_noise(game_name: str) -> None:
    record = played_game(game_name, 3, seed=2)
    done = review(record, 0, level="ismcts:iterations=400")
    assert done.decisions
    for decision in done.decisions:
        assert decision.noise > 0 or decision.best == decision.chosen
        if decision.loss is not None and decision.loss <= decision.noise:
            assert decision.verdict == "fine"
        chosen = next(a for a in decision.actions if a.action == decision.chosen)
        best = next(a for a in decision.actions if a.action == decision.best)
        # The best is an action searched enough to trust, or the chosen one.
        assert best.visits >= 30 or best is chosen


def test_refusals() -> None:
    record = stacked_blunder()
    with pytest.raises(ReviewError, match="seat 2 is not at this game: seats are 0-1"):
        review(record, 2, level=FAST)
    unfinished = Record(
        record.game, record.options, record.seed, record.actions[:3], [], [], record.start
    )
    with pytest.raises(ReviewError, match="not over after its 3 actions"):
        review(unfinished, 0, level=FAST)
    with pytest.raises(ReviewError, match="does not search"):
        review(record, 0, level="easy")
    with pytest.raises(InvalidBudgetError):
        review(record, 0, level="pimc:deals=0")
    broken = Record(record.game, record.options, record.seed, ["play AH"], [], [], record.start)
    with pytest.raises(InvalidRecordError, match="action 0"):
        review(broken, 0, level=FAST)
