"""Game review (docs/review.md): each decision of a seat judged by the hints' analysis from
that seat's view at the time, in the game's unit, the worst first.

The blunder is a stacked Knockout Whist deal: two players in hand 4 with the dog's life
spent (KOW-6.1), so a player who takes no trick is out and the other wins (KOW-5.1,
KOW-5.2). Seat 1 leads a diamond; seat 0, void in diamonds, holds the only trump it has,
2S, beside three clubs. Trumping wins the trick (KOW-4.3) and keeps seat 0 in; throwing a
club leaves 2S to fall under seat 1's AS, and seat 0 is knocked out.
"""

from __future__ import annotations

import json
import random
import re

import pytest

import cardtable
from cardtable.analysis import MARGINS, MIN_VISITS, NOISE, Budget
from cardtable.bots import make_bot
from cardtable.core import Record
from cardtable.errors import InvalidRecordError
from cardtable.review import (
    LEVELS,
    LOOKS,
    REVIEW_VERSION,
    THRESHOLDS,
    Review,
    ReviewError,
    budget_of,
    moments,
    review,
    review_views,
    verdict,
)
from cardtable.rules.knockout_whist.position import compose_position

FAST = "analysis:deals=50,iterations=300,seconds=60"  # bounded by deals and iterations alone
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
    # In tricks this hand: trumping takes the trick, every club gives it up; a trump kept
    # may take a later one, so the loss is under a whole trick: 0.78 by 400 deals, a
    # mistake (three quarters of a trick or more).
    assert worst.verdict == "mistake"
    assert worst.loss == pytest.approx(0.78, abs=0.1)
    assert done.unit == "tricks"
    assert worst.loss is not None and THRESHOLDS["tricks"][0] + 0.3 <= worst.loss
    assert worst.noise < worst.loss
    assert (worst.hand, worst.trick) == (4, 1)
    # Every club throw is as bad as the other: the review says so, and prefers only 2S.
    values = {a.action: a.value or 0.0 for a in worst.actions}
    assert None not in (a.value for a in worst.actions)
    assert values["play 2C"] == values["play 3C"] == values["play 4C"] < values["play 2S"]
    assert values["play 2S"] - values["play 2C"] == pytest.approx(worst.loss)
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
        # The best is the highest value, or an action the analysis tied with it (the card
        # kept least): within the unit's margin or two standard errors of its gap.
        top = max(a.value for a in decision.actions if a.value is not None)
        error = next(a.error for a in decision.actions if a.action == decision.best)
        assert top - decision.best_value <= max(MARGINS["tricks"], NOISE * error) + 1e-9
        assert decision.verdict == verdict(decision.loss, done.unit, decision.noise)
        if decision.best == decision.chosen:
            assert (decision.loss, decision.verdict) == (0.0, "fine")
    losses = [d.loss or 0.0 for d in done.worst()]
    assert losses == sorted(losses, reverse=True)
    assert len(done.worst(3)) == 3
    assert Review.from_dict(json.loads(done.to_json())).to_dict() == done.to_dict()


@pytest.mark.parametrize("unit", sorted(THRESHOLDS))
def test_the_thresholds(unit: str) -> None:
    inaccuracy, mistake = THRESHOLDS[unit]
    # A loss the analysis calls a tie (within the unit's margin) is never a fault.
    assert 0 < MARGINS[unit] < inaccuracy < mistake
    assert verdict(0.0, unit) == verdict(inaccuracy - 1e-9, unit) == "fine"
    assert verdict(inaccuracy, unit) == verdict(mistake - 1e-9, unit) == "inaccuracy"
    assert verdict(mistake, unit) == verdict(4 * mistake, unit) == "mistake"
    # Within the analysis's noise no fault is found, however large the loss.
    assert verdict(2 * mistake, unit, noise=2 * mistake) == "fine"
    assert verdict(2 * mistake, unit, noise=mistake) == "mistake"
    assert verdict(None, unit) == "unrated"


def test_the_thresholds_in_each_unit() -> None:
    """A third of a trick and three quarters of one (Knockout Whist's tricks this hand,
    Neuf's tricks over the quota this deal); 5 and 15 points of the chance of not being the
    fool (Kryt'-navalivat'): the same loss is a mistake in tricks and nothing in a chance."""
    assert THRESHOLDS == {"tricks": (0.3, 0.75), "points": (0.3, 0.75), "not_fool": (0.05, 0.15)}
    assert verdict(0.2, "not_fool") == "mistake"
    assert verdict(0.2, "tricks") == verdict(0.2, "points") == "fine"


@pytest.mark.parametrize(
    ("game_name", "players", "unit"),
    [("knockout-whist", 2, "tricks"), ("neuf", 3, "points"), ("kryt-navalivat", 3, "not_fool")],
)
def test_the_json_says_the_unit_and_its_thresholds(game_name: str, players: int, unit: str) -> None:
    """Version 2: values in the game's unit, with the thresholds they were judged by; a
    version 1 review's ``stake`` (returns as a chance of the outcome) is gone."""
    done = Review(game_name, {"players": players}, 0, "expert", 0, [0.0] * players)
    data = done.to_dict()
    assert (data["format"], data["version"], data["unit"]) == ("cardtable-review", 2, unit)
    assert REVIEW_VERSION == 2
    assert data["thresholds"] == dict(zip(("inaccuracy", "mistake"), THRESHOLDS[unit], strict=True))
    assert "stake" not in data
    assert Review.from_dict(json.loads(json.dumps(data))).to_dict() == data


def test_a_review_of_another_version_is_refused() -> None:
    """A version 1 review's values are returns of the whole game by a searching bot: read as
    version 2's tricks or chances they would mean something else."""
    data = review(stacked_blunder(), 0, level=FAST).to_dict()
    old = data | {"version": 1, "stake": {"chance_of": "win", "per_return": 0.5}}
    del old["unit"]
    with pytest.raises(ReviewError, match="a review of version 1; this is version 2"):
        Review.from_dict(old)
    with pytest.raises(ReviewError, match="a review of version None"):
        Review.from_dict({k: v for k, v in data.items() if k != "version"})
    with pytest.raises(ReviewError, match="not a cardtable review"):
        Review.from_dict(data | {"format": "cardtable-record"})


@pytest.mark.parametrize("game_name", ["neuf", "kryt-navalivat"])
def test_reviews_flag_only_beyond_the_noise(game_name: str) -> None:
    """PIMC (Neuf) and the search (Kryt'-navalivat') both sample: a loss within two standard
    errors of the gap is no fault, and an action the search tried too seldom is not rated
    (nor taken as the best)."""
    # Neuf: a game of a few deals with a seat at random (many losses, some within noise).
    neuf = game_name == "neuf"
    record = neuf_against_random(seed=1) if neuf else played_game(game_name, 3, seed=2)
    done = review(record, 0, level="analysis:deals=8,iterations=400,seconds=60")
    assert done.decisions
    assert any(d.verdict != "fine" for d in done.decisions) or not neuf
    for decision in done.decisions:
        chosen = next(a for a in decision.actions if a.action == decision.chosen)
        best = next(a for a in decision.actions if a.action == decision.best)
        if decision.loss is None:
            assert decision.verdict == "unrated" and chosen.value is None
            continue
        assert decision.noise == pytest.approx(NOISE * chosen.error) or decision.loss == 0.0
        if decision.loss <= decision.noise:
            assert decision.verdict == "fine"
        if decision.verdict != "fine":
            assert decision.loss > decision.noise
            assert decision.loss >= THRESHOLDS[done.unit][0]
        if game_name == "kryt-navalivat":
            # Rated: searched enough to trust (in a look, of those pooled), else not
            # rated at all.
            for action in decision.actions:
                if action.value is not None:
                    assert action.visits >= MIN_VISITS, action
                else:
                    assert action.visits < LOOKS * MIN_VISITS, action
            assert best.visits >= MIN_VISITS
            assert all(0.0 <= (a.value or 0.0) <= 1.0 for a in decision.actions)


# A Neuf game from a position at 4 points each (15 deals in the ledger): seat 0 plays at
# random, seats 1 and 2 are ``medium``; a few deals until a score reaches 0 (NEUF-6.1).
NEUF_LEDGER = "/".join(["5,4,4", "4,5,4", "4,4,5"] * 5)
# By the iterations alone (Neuf's analysis is a search): the same on any machine.
NEUF_LEVEL = "analysis:iterations=2000,seconds=60"


def neuf_against_random(seed: int) -> Record:
    game = cardtable.make("neuf", players=3, dealer=0)
    text = game.position_of(game.new_state(seed=seed)).replace("ledger=-", f"ledger={NEUF_LEDGER}")
    state = game.state_from_position(text)
    assert state.view(0)["scores"] == [4, 4, 4]
    bots = [make_bot("random", "neuf"), make_bot("medium", "neuf"), make_bot("medium", "neuf")]
    rng = random.Random(seed)
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        state.apply(bots[mover].choose(state.view(mover), state.legal_actions(), rng))
    return state.record()


def test_a_neuf_review_finds_the_random_players_faults() -> None:
    """Neuf's review in tricks over the quota (NEUF-5.2): a seat playing at random is found
    at fault often, a ``medium`` seat of the same game seldom (a review at the returns of
    the whole game found nearly every random card "fine")."""
    record = neuf_against_random(seed=3)
    randomly = review(record, 0, level=NEUF_LEVEL)
    searched = review(record, 1, level=NEUF_LEVEL)
    assert randomly.unit == "points"

    def faults(done: Review) -> int:
        return done.counts()["inaccuracy"] + done.counts()["mistake"]

    assert len(randomly.decisions) >= 40 and len(searched.decisions) >= 40
    assert faults(randomly) >= 10 and randomly.counts()["mistake"] >= 3
    assert faults(randomly) / len(randomly.decisions) >= 0.15
    rate = faults(searched) / len(searched.decisions)
    assert rate * 3 <= faults(randomly) / len(randomly.decisions), (
        searched.counts(),
        randomly.counts(),
    )


def test_a_level_names_the_analysis_budget() -> None:
    assert budget_of("expert") == LEVELS["expert"] == Budget()  # the hint's own
    assert budget_of("quick") == LEVELS["quick"] == Budget(seconds=0.2, deals=100, rounds=2)
    expert = LEVELS["expert"]
    assert budget_of("analysis:deals=8,iterations=300") == Budget(
        seconds=expert.seconds, deals=8, rounds=expert.rounds, iterations=300
    )
    assert budget_of("analysis:iterations=60,deals=4,seconds=1.5,rounds=1") == Budget(
        seconds=1.5, deals=4, rounds=1, iterations=60
    )


@pytest.mark.parametrize(
    ("level", "words"),
    [
        ("easy", "a review's level is expert, quick or analysis:deals=…,iterations=…,seconds=…,"),
        ("pimc:deals=8", "…,rounds=…; not 'pimc:deals=8'"),
        ("ismcts:iterations=60", "; not 'ismcts:iterations=60'"),
        ("analysis", "; not 'analysis'"),
        ("analysis:", "; not 'analysis:'"),
        (
            "analysis:depth=3",
            "'depth' is not part of an analysis's budget: seconds, deals, rounds,",
        ),
        ("analysis:deals=8,", "'' is not part of an analysis's budget"),
        ("analysis:deals=many", "deals='many' is not a number"),
        ("analysis:rounds=1.5", "rounds='1.5' is not a number"),
        ("analysis:deals=0", "deals must be above 0, not 0"),
        ("analysis:seconds=-1", "seconds must be above 0, not -1"),
        ("analysis:seconds=nan", "seconds must be above 0, not nan"),
        ("analysis:seconds=inf", "seconds must be finite, not inf"),
    ],
)
def test_a_level_that_names_no_budget_is_refused(level: str, words: str) -> None:
    with pytest.raises(ReviewError, match=re.escape(words)):
        budget_of(level)
    # Before the record is looked at: an unfinished game's review is refused for its level.
    record = stacked_blunder()
    unfinished = Record(record.game, record.options, record.seed, [], [], [], record.start)
    with pytest.raises(ReviewError, match=re.escape(words)):
        review(unfinished, 0, level=level)


def test_refusals() -> None:
    record = stacked_blunder()
    with pytest.raises(ReviewError, match="seat 2 is not at this game: seats are 0-1"):
        review(record, 2, level=FAST)
    unfinished = Record(
        record.game, record.options, record.seed, record.actions[:3], [], [], record.start
    )
    with pytest.raises(ReviewError, match="not over after its 3 actions"):
        review(unfinished, 0, level=FAST)
    with pytest.raises(ReviewError, match="a review's level is"):
        review(record, 0, level="easy")
    broken = Record(record.game, record.options, record.seed, ["play AH"], [], [], record.start)
    with pytest.raises(InvalidRecordError, match="action 0"):
        review(broken, 0, level=FAST)


def test_a_decision_before_the_first_trick_has_no_trick() -> None:
    """Neuf's exchange (NEUF-3.4) and Knockout Whist's choice of trumps (KOW-2) come before
    the hand's first trick is led: the review places them in their hand alone."""
    from cardtable.review import _where

    seen: dict[tuple[str, str], tuple[int | None, int | None]] = {}
    for game_name in ("neuf", "knockout-whist"):
        game = cardtable.make(game_name, players=3)
        state = game.new_state(seed=4)
        bot, rng = make_bot("easy", game_name), random.Random(4)
        while not state.is_over and len(seen) < 4:
            view = state.view(state.to_move)
            seen.setdefault((game_name, str(view["phase"])), _where(view))
            state.apply(bot.choose(view, state.legal_actions(), rng))
    assert seen[("neuf", "exchange")] == (1, None)
    assert seen[("neuf", "play")] == (1, 1)
    assert seen[("knockout-whist", "play")] == (1, 1)
    hand, trick = seen[("knockout-whist", "trump")]
    assert hand is not None and hand >= 2 and trick is None
