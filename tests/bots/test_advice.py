"""The analysis behind hints and its public entry point: ``cardtable.advice.advise`` and
``cardtable hint`` give the table's hint for a state or a seat's view, each value with its
uncertainty (``cardtable.analysis``), from the seat's own view alone (SPEC §0.4 item 4)."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.advice import advise, english
from cardtable.analysis import Budget
from cardtable.bots import make_bot
from cardtable.cli import app
from cardtable.errors import CardtableError, InvalidBudgetError, OutOfTurnError

SMALL = Budget(seconds=30.0, deals=24, iterations=3_000)
"""Bounded by deals and iterations, not the clock: the same advice on a slow machine."""

GAMES = {"knockout-whist": 3, "neuf": 3, "kryt-navalivat": 2}


def a_choice(game: str, seed: int) -> cardtable.State:
    """A state of real play (easy bots) where the seat to move has a choice."""
    state = cardtable.make(game, players=GAMES[game]).new_state(seed=seed)
    bot, rng = make_bot("easy", game), random.Random(seed)
    while len(state.legal_actions()) < 2:
        mover = state.to_move
        assert mover is not None
        state.apply(bot.choose(state.view(mover), state.legal_actions(), rng))
    for _ in range(rng.randrange(12)):  # somewhere into the hand
        mover = state.to_move
        if mover is None:
            break
        state.apply(bot.choose(state.view(mover), state.legal_actions(), rng))
    while state.to_move is not None and len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("game", sorted(GAMES))
def test_advice_on_a_state_is_the_hint_of_the_movers_view(game: str) -> None:
    """A state and its mover's view get the same advice; each rated action has a gap to
    the best and an error, the best ties with itself, and the reason is English text."""
    state = a_choice(game, 7)
    mover = state.to_move
    assert mover is not None
    by_state = advise(state, budget=SMALL, seed=3)
    by_view = advise(state.view(mover), budget=SMALL, seed=3)
    assert by_state.hint == by_view.hint
    assert by_state.best in state.view(mover)["legal_actions"]
    actions = {a["action"]: a for a in by_state.hint["actions"]}
    assert actions[by_state.best]["tie"] and actions[by_state.best]["gap"] == 0
    for a in actions.values():
        if a["value"] is not None:
            assert a["error"] >= 0 and (a["tie"] or a["gap"] < 0)
    said = by_state.said()
    assert said and "{" not in said and said[0].isupper()
    assert json.loads(json.dumps(by_state.to_dict()))["analysis"]["unit"] == by_state.hint["unit"]


def test_advice_is_for_the_seat_to_move_from_its_own_view() -> None:
    state = a_choice("neuf", 3)
    mover = state.to_move
    assert mover is not None
    other = (mover + 1) % 3
    with pytest.raises(OutOfTurnError):
        advise(state, other)
    with pytest.raises(OutOfTurnError):
        advise(state.view(other))
    with pytest.raises(CardtableError, match="a state or a seat's view"):
        advise({"legal_actions": []})


def test_pimc_gives_each_gap_the_error_of_its_paired_deals() -> None:
    """KOW-4.3, spades trumps, two players: the AS, KS and QS take three tricks on every
    deal, so their gaps are exactly 0 with no error; the 2H's gap to them is measured over
    the same deals."""
    from cardtable.rules.knockout_whist.position import compose_position

    text = compose_position(
        hands=["AS,KS,QS,2H", "3S,4D,5D,6D"],
        hand=4,
        dealer=1,
        status="AA",
        trump="S",
        dog_used=True,
    )
    state = cardtable.make("knockout-whist", players=2).state_from_position(text)
    advice = advise(state, budget=SMALL, seed=1)
    analysis = advice.analysis
    assert analysis.method == "pimc" and analysis.samples == SMALL.deals
    spades = ("play AS", "play KS", "play QS")
    assert set(spades) <= set(analysis.ties)
    assert all(analysis.appraisal(a).error == 0 for a in spades)
    assert analysis.best == "play QS"  # the trump kept least of three that do the same
    assert not analysis.tied("play 2H") and (analysis.gap("play 2H") or 0) < 0
    assert analysis.appraisal("play 2H").error > 0  # it loses a trick on some deals only


def test_english_fills_cards_suits_seats_and_plurals() -> None:
    assert english("hints.why.trump_in", {"suit": "H", "card": "2S"}) == (
        "Trump it: you have no hearts left."
    )
    assert "the queen of spades" in english("hints.why.try_win", {"card": "QS"})
    one = english("hints.why.trump_suit", {"suit": "D", "count": 1})
    many = english("hints.why.trump_suit", {"suit": "D", "count": 4})
    assert "1 card of" in one and "4 cards of" in many


def test_the_hint_command_prints_the_hint_of_a_saved_position(tmp_path: Path) -> None:
    """``cardtable hint RECORD --at N``: the position after N actions, its seat to move,
    each action's value and noise, the best and why; ``--json`` the whole advice."""
    game = cardtable.make("kryt-navalivat", players=2)
    state = game.new_state(seed=2)
    bot, rng = make_bot("easy", "kryt-navalivat"), random.Random(2)
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        state.apply(bot.choose(state.view(mover), state.legal_actions(), rng))
    path = tmp_path / "game.json"
    path.write_text(state.record().to_json())
    at = next(
        i
        for i in range(len(state.record().actions))
        if len(
            cardtable.replay(
                replace(state.record(), actions=state.record().actions[:i])
            ).legal_actions()
        )
        > 1
    )
    runner = CliRunner()
    shown = runner.invoke(app, ["hint", str(path), "--at", str(at), "--seconds", "0.2"])
    assert shown.exit_code == 0, shown.output
    assert "Best: " in shown.output and "chance of not being the fool" in shown.output
    data = runner.invoke(app, ["hint", str(path), "--at", str(at), "--seconds", "0.2", "--json"])
    assert data.exit_code == 0, data.output
    advice = json.loads(data.output)
    legal = cardtable.replay(
        replace(state.record(), actions=state.record().actions[:at])
    ).legal_actions()
    assert advice["best"] in [str(a) for a in legal]
    assert advice["analysis"]["method"] == "search"
    over = runner.invoke(app, ["hint", str(path)])
    assert over.exit_code != 0 and "the game is over" in over.output
    far = runner.invoke(app, ["hint", str(path), "--at", "100000"])
    assert far.exit_code != 0 and "the record has" in far.output


def test_a_two_player_kryt_navalivat_endgame_is_valued_by_the_exact_solver() -> None:
    """KRYT-9: with two players and the stock empty every card is known, so the actions the
    solver proves are valued exactly (1 a sure escape, 0 sure to be the fool), without
    error; where it proves them all the search is not run, and a proven escape is the best
    (unless a cheaper card escapes as surely)."""
    from cardtable._core import KrytNavalivatState
    from cardtable.bots.pimc import solve_endgame, solved_twin

    game = cardtable.make("kryt-navalivat", players=2)
    twin = solved_twin(game)
    found = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        bot, rng = make_bot("easy", game.name), random.Random(seed)
        while state.to_move is not None:
            view = state.view(state.to_move)
            if view["stock"] == 0 and len(view["legal_actions"]) > 1:
                position = twin.state_from_position(state.position())
                assert isinstance(position, KrytNavalivatState)
                exact = solve_endgame(position, "max-n")
                if exact is not None and all(value != 0 for _, value in exact):
                    analysis = advise(state, budget=SMALL, seed=seed).analysis
                    assert analysis.samples == 0  # no search: everything was proven
                    for number, value in exact:
                        appraisal = analysis.appraisal(str(game.actions[number]))
                        assert appraisal.value == (1.0 if value > 0 else 0.0)
                        assert appraisal.error == 0
                    assert analysis.value(analysis.best) == max(analysis.values.values())
                    found += 1
            state.apply(bot.choose(view, state.legal_actions(), rng))
        if found >= 5:
            break
    assert found >= 5


def test_the_hints_spec_builds_the_follower_who_plays_the_hints_best_at_its_budget() -> None:
    """``hints:…`` is the hint-following player at the budget it names (the rest the
    hint's), playing the analysis's best from its own view; a budget it cannot run is
    refused with the part named."""
    from cardtable.analysis import HINT_BUDGET, analyse
    from cardtable.bots.advice import HintFollower

    follower = make_bot("hints:iterations=3000,deals=24,seconds=30", "neuf")
    assert isinstance(follower, HintFollower) and follower.name.startswith("hints:")
    assert follower.budget == Budget(seconds=30.0, deals=24, iterations=3_000)
    plain = make_bot("hints", "kryt-navalivat")
    assert isinstance(plain, HintFollower) and plain.budget == HINT_BUDGET
    state = a_choice("neuf", 11)
    mover = state.to_move
    assert mover is not None
    view = state.view(mover)
    chosen = follower.choose(view, state.legal_actions(), random.Random(5))
    game = cardtable.make("neuf", players=3)
    seed = random.Random(random.Random(5).getrandbits(64))
    assert str(chosen) == analyse(game, view, budget=follower.budget, rng=seed).best
    for spec, said in [
        ("hints:depth=3", "'depth' is not part of an analysis's budget"),
        ("hints:rounds=0", "rounds must be above 0"),
        ("hints:seconds=inf", "seconds must be finite"),
        ("hints:iterations=many", "iterations='many' is not a number"),
    ]:
        with pytest.raises(InvalidBudgetError, match=re.escape(said)):
            make_bot(spec, "neuf")


def test_rounds_that_disagree_widen_the_error_until_their_actions_tie() -> None:
    """Two independent rounds of the search that each went deep into a different action
    (a third of the chance apart, each the other's way round) make the two a tie, whatever
    their sampling errors claim; rounds that agree leave the gap standing."""
    from cardtable.analysis import _disagreement, decide, search_appraisals

    game = cardtable.make("kryt-navalivat", players=2)
    state = a_choice("kryt-navalivat", 3)
    view = state.view(state.to_move)
    first, second = (game.number_of(a) for a in view["legal_actions"][:2])
    visits = {first: 20_000, second: 20_000}
    totals = {first: 0.45 * 20_000, second: 0.25 * 20_000}
    split = _disagreement([{first: 0.6, second: 0.1}, {first: 0.3, second: 0.4}])
    assert split == pytest.approx({first: 0.0225, second: 0.0225})
    agreed = _disagreement([{first: 0.45, second: 0.25}, {first: 0.45, second: 0.25}])
    for disagreement, tied in ((split, True), (agreed, False), ({}, False)):
        appraisals = search_appraisals(game, view, visits, totals, None, None, disagreement)
        rated = [a for a in appraisals if a.value is not None]
        analysis = decide(game.name, "not_fool", view, rated, 40_000, 0.0, "search")
        assert analysis.top == view["legal_actions"][0]
        assert analysis.tied(view["legal_actions"][1]) is tied


def test_kryt_navalivat_is_searched_in_every_round() -> None:
    """A chance of a good end is searched in both rounds, however clear the first: the
    rounds' disagreement is how the analysis knows what its search has not settled."""
    state = a_choice("kryt-navalivat", 5)
    budget = Budget(seconds=60.0, deals=24, iterations=2_000, rounds=2)
    analysis = advise(state, budget=budget, seed=2).analysis
    assert analysis.method == "search" and analysis.samples == 2 * 2_000
