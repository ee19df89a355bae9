"""The exact solver and perfect-information Monte Carlo (PIMC) of the ``expert`` level.

The solver's values are held equal to brute force on thousands of small positions in the
core's own tests (``crates/core/src/knockout_whist/solver.rs``); here, what Python sees:
a value for every legal action, the binding's errors, PIMC reading nothing but the seat's
view (KOW-9), and the levels' wiring.
"""

from __future__ import annotations

import json
import random

import pytest

import cardtable
from cardtable import compiled
from cardtable._core import KnockoutWhist as CoreKnockoutWhist
from cardtable._core import KrytNavalivat as CoreKrytNavalivat
from cardtable.bots import make_bot
from cardtable.bots.advice import HintFollower
from cardtable.bots.base import LEVELS
from cardtable.bots.ismcts import IsmctsBot, SearchResult
from cardtable.bots.pimc import (
    ENDGAME_HORIZONS,
    ENDGAME_NODES,
    MIN_SEARCH_SECONDS,
    CheaterBot,
    PimcBot,
    endgame_choice,
    seconds_beside,
    solve_endgame,
)
from cardtable.core import Game, State
from cardtable.errors import (
    IllegalActionError,
    InvalidBudgetError,
    InvalidPositionError,
    SolverBudgetError,
)
from cardtable.server.thinking import HINT_BUDGET
from test_kryt_navalivat_solver import endgame

KNOCKOUT_WHIST = cardtable.make("knockout-whist", players=3)


def core_twin(game: Game) -> CoreKnockoutWhist:
    twin = compiled.core_game(game, always=True)
    assert isinstance(twin, CoreKnockoutWhist)
    return twin


def decision(seed: int) -> State:
    """A state of a seeded random Knockout Whist game where the seat to move has a choice."""
    rng = random.Random(seed)
    state = KNOCKOUT_WHIST.new_state(seed=seed)
    while True:
        legal = state.legal_action_ids()
        if len(legal) > 1 and rng.random() < 0.2:
            return state
        state.apply_id(rng.choice(legal))
        if state.is_over:
            state = KNOCKOUT_WHIST.new_state(seed=rng.randrange(1 << 30))


@pytest.mark.parametrize("model", ["max-n", "paranoid"])
def test_the_solver_values_every_legal_action(model: str) -> None:
    twin = core_twin(KNOCKOUT_WHIST)
    for seed in range(20):
        state = decision(seed)
        values, nodes = twin.state_from_position(state.position()).solve(model)
        assert [action for action, _ in values] == sorted(state.legal_action_ids())
        assert nodes >= 1
        # A return lies in [-1/(n-1), 1], plus a thousandth a trick (at most 7 tricks).
        assert all(-0.5 <= value <= 1.007 for _, value in values)


def test_the_models_differ_where_the_others_play_for_themselves() -> None:
    # Paranoid takes the others to play against the seat, so it never values an action
    # above what max-n's self-interested others leave it.
    twin = core_twin(KNOCKOUT_WHIST)
    for seed in range(20):
        position = twin.state_from_position(decision(seed).position())
        paranoid = dict(position.solve("paranoid")[0])
        max_n = dict(position.solve("max-n")[0])
        assert all(paranoid[a] <= max_n[a] + 1e-12 for a in paranoid)


def test_the_solver_refuses_a_finished_game_and_an_unknown_model() -> None:
    twin = core_twin(KNOCKOUT_WHIST)
    state = decision(1)
    core_state = twin.state_from_position(state.position())
    with pytest.raises(InvalidBudgetError, match="max-n"):
        core_state.solve("optimistic")
    rng = random.Random(0)
    while not state.is_over:
        state.apply_id(rng.choice(state.legal_action_ids()))
    with pytest.raises(IllegalActionError, match="over"):
        twin.state_from_position(state.position()).solve()


def test_pimc_reads_only_what_the_seat_may_see() -> None:
    # Another deal of the cards the seat cannot see (sampled from its own view) gives the
    # same view, and so the same judgement from the same seed.
    twin = core_twin(KNOCKOUT_WHIST)
    for seed in range(6):
        state = decision(seed)
        seat = state.to_move
        assert seat is not None
        view = json.dumps(state.view(seat))
        [other] = twin.sample_positions(view, 1, seed + 100)
        redealt = KNOCKOUT_WHIST.state_from_position(other)
        assert redealt.view(seat) == state.view(seat)
        assert redealt.position() != state.position() or state.is_over
        first = twin.judge(view, deals=20, seed=seed)
        second = twin.judge(json.dumps(redealt.view(seat)), deals=20, seed=seed)
        assert first[:4] == second[:4]  # the seconds taken aside


def test_pimc_counts_its_deals_and_chooses_the_best_mean() -> None:
    twin = core_twin(KNOCKOUT_WHIST)
    for seed in range(6):
        state = decision(seed)
        assert state.to_move is not None
        view = json.dumps(state.view(state.to_move))
        for threads in (1, 2):
            action, visits, values, deals, _, _ = twin.judge(
                view, deals=13, seed=seed, threads=threads
            )
            assert deals == 13
            assert sorted(values) == sorted(state.legal_action_ids())
            assert set(visits.values()) == {13}
            best = max(values.values())
            assert action == min(a for a, v in values.items() if v == best)
        again = twin.judge(view, deals=13, seed=seed)
        assert again[:4] == twin.judge(view, deals=13, seed=seed)[:4]


def test_pimc_budgets_are_checked() -> None:
    twin = core_twin(KNOCKOUT_WHIST)
    state = decision(2)
    assert state.to_move is not None
    view = json.dumps(state.view(state.to_move))
    with pytest.raises(InvalidBudgetError, match="budget"):
        twin.judge(view)
    with pytest.raises(InvalidBudgetError, match="deals"):
        twin.judge(view, deals=0)
    with pytest.raises(InvalidBudgetError, match="threads"):
        twin.judge(view, deals=3, threads=0)
    with pytest.raises(InvalidBudgetError, match="model"):
        twin.judge(view, deals=3, model="hopeful")
    with pytest.raises(InvalidBudgetError, match="budget"):
        PimcBot()
    with pytest.raises(InvalidBudgetError, match="model"):
        make_bot("pimc:deals=3,model=hopeful", "knockout-whist")


def test_each_games_expert_is_the_method_that_measured_strongest() -> None:
    hard = make_bot(LEVELS["hard"], "knockout-whist")
    assert isinstance(hard, IsmctsBot)
    # Knockout Whist: hard's search, its rollouts ending with the estimate learnt by
    # self-play, which beat hard where PIMC and exact leaves could not be told from it
    # (benchmarks/strength.sh queue 16's rule).
    kow = make_bot("expert", "knockout-whist")
    assert isinstance(kow, IsmctsBot) and kow.name == "expert" and kow.rollout == "learned"
    assert (kow.iterations, kow.seconds, kow.threads) == (hard.iterations, hard.seconds, 1)
    assert (kow.belief, kow.choice, kow.solve) == (0.0, 0.0, 0)
    # Kryt'-navalivat': PIMC, which searches as hard does, at five times its iterations
    # (benchmarks/strength.sh queue 14's rule), until the stock is empty.
    kryt_navalivat = make_bot("expert", "kryt-navalivat")
    assert (
        isinstance(kryt_navalivat, PimcBot)
        and kryt_navalivat.name == "expert"
        and kryt_navalivat.cards is None
    )
    search = kryt_navalivat.search(cardtable.make("kryt-navalivat"))
    assert isinstance(search, IsmctsBot) and hard.iterations is not None
    assert (search.iterations, search.seconds) == (5 * hard.iterations, hard.seconds)
    assert search.exploration == hard.exploration
    # Neuf: the hints' analysis at the hint's budget (hard's search to the end of the deal),
    # measured as strong as hard, where PIMC over the last tricks measured no stronger.
    neuf = make_bot("expert", "neuf")
    assert isinstance(neuf, HintFollower) and neuf.name == "expert"
    assert neuf.budget == HINT_BUDGET
    with pytest.raises(InvalidBudgetError, match="cards"):
        make_bot("pimc:deals=5,cards=0", "neuf")


def test_pimc_iterations_bound_the_search_beside_it_and_nothing_else() -> None:
    """``iterations`` sets the budget of hard's search (the strength tables' smaller budget
    for both bots); the deals and seconds of PIMC stay as given."""
    kryt_navalivat = cardtable.make("kryt-navalivat")
    bot = make_bot("pimc:deals=100,seconds=0.9,model=paranoid,iterations=10000", "kryt-navalivat")
    assert isinstance(bot, PimcBot) and (bot.deals, bot.seconds) == (100, 0.9)
    search = bot.search(kryt_navalivat)
    assert isinstance(search, IsmctsBot) and (search.iterations, search.seconds) == (10000, 0.9)
    state = kryt_navalivat.new_state(seed=5)
    seat = state.to_move
    assert seat is not None
    found = search.analyse(kryt_navalivat, state.view(seat), random.Random(5), stop_early=False)
    assert found.iterations == 10000
    for bad in ("0", "-3", "many"):
        with pytest.raises(InvalidBudgetError, match="iterations"):
            make_bot(f"pimc:deals=5,iterations={bad}", "kryt-navalivat")
    # A spec without a budget gets its bot's own: deals for PIMC, play's for the cheater.
    plain = make_bot("pimc:model=paranoid", "kryt-navalivat")
    assert isinstance(plain, PimcBot) and (plain.deals, plain.iterations) == (100, None)
    cheater = make_bot("cheater", "kryt-navalivat")
    assert isinstance(cheater, CheaterBot) and cheater.iterations is None


def test_pimc_from_its_cards_searches_early_in_a_deal_and_solves_its_last_tricks() -> None:
    """NEUF-5: with ``cards=24`` the deal's first decisions go to hard's search, its last 8
    tricks to PIMC (every deal values every action)."""
    neuf = cardtable.make("neuf", players=3)
    bot = make_bot("pimc:deals=100,seconds=0.9,model=paranoid,cards=24", "neuf")
    assert isinstance(bot, PimcBot)
    rng = random.Random(3)
    state = neuf.new_state(seed=3)
    seen = {"search": 0, "pimc": 0}
    while not state.is_over and state.view(None)["deal_number"] == 1:
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        legal = state.legal_actions()
        action = bot.choose(view, legal, rng)
        if len(legal) > 1:
            assert bot.last is not None
            if bot.solves(neuf, view):
                assert view["phase"] == "play" and sum(view["hand_sizes"]) <= 24
                assert set(bot.last.visits.values()) == {bot.last.iterations}  # a visit a deal
                seen["pimc"] += 1
            else:
                assert bot.last.iterations > 100  # the search's iterations, not deals
                seen["search"] += 1
        state.apply(action)
    assert seen["search"] > 0 and seen["pimc"] > 0


def plays_a_whole_game(game: str, seed: int, specs: tuple[str, ...]) -> None:
    """One game of the arena's (which hands a cheater the whole state) ends without a
    failure."""
    from cardtable.arena.match import play_game
    from cardtable.arena.schedule import GameTask

    task = GameTask(
        index=0,
        deal=0,
        rotation=0,
        deal_seed=seed,
        game=game,
        options={"players": len(specs)},
        seats=specs,
        specs=specs,
        rng_seeds=tuple("abcd"[: len(specs)]),
    )
    outcome = play_game(task)
    assert outcome.status == "ok" and outcome.failure is None


def kryt_navalivat_endgames(count: int) -> list[State]:
    """2-player Kryt'-navalivat' endgames (``test_kryt_navalivat_solver.endgame``: the stock
    empty, at most 18 cards in the hands) with a choice to make."""
    found: list[State] = []
    seed = 0
    while len(found) < count:
        state = endgame(seed, cards=18)
        seed += 1
        if len(state.legal_actions()) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("spec", ["expert", "cheater"])
def test_kryt_navalivat_expert_and_cheater_play_proven_wins_and_avoid_proven_losses(
    spec: str,
) -> None:
    """KRYT-9: with the stock empty both hands are known to both of 2 players, so the
    expert's endgame is the exact solver's within its horizon (the cheater's too, who sees
    the true state), checked against the solver on the true state: a proven win when there
    is one, never a proven loss while another action is not one."""

    kryt_navalivat = cardtable.make("kryt-navalivat", players=2)
    twin = compiled.core_game(kryt_navalivat, always=True)
    assert isinstance(twin, CoreKrytNavalivat)
    bot = make_bot(spec, "kryt-navalivat")
    assert isinstance(bot, PimcBot | CheaterBot)
    tested = 0
    for number, state in enumerate(kryt_navalivat_endgames(12)):
        seat = state.to_move
        assert seat is not None
        values = dict(twin.state_from_position(state.position()).solve()[0])
        rng = random.Random(number)
        if isinstance(bot, CheaterBot):
            action = bot.choose_seeing(state, state.legal_actions(), rng)
        else:
            action = bot.choose(state.view(seat), state.legal_actions(), rng)
        chosen = kryt_navalivat.action_to_int(action)
        best = max(values.values())
        if best > 0:
            assert values[chosen] == best
            tested += 1
        elif min(values.values()) < 0 and 0 in values.values():
            assert values[chosen] == 0
            tested += 1
    assert tested > 0  # the endgames put at least one of the rules to the test


def test_kryt_navalivat_cheater_searches_the_true_state_while_the_stock_lasts() -> None:
    """KRYT-4: with cards in the stock the cheater is hard's search on the true state, the
    stock's order in view (``search_seeing``): two deals its seat cannot tell apart (the
    same view) get searches of their own; it plays a whole game in the arena."""
    kryt_navalivat = cardtable.make("kryt-navalivat", players=2)
    twin = compiled.core_game(kryt_navalivat, always=True)
    assert isinstance(twin, CoreKrytNavalivat)
    cheater = make_bot("cheater:iterations=3000", "kryt-navalivat")
    assert isinstance(cheater, CheaterBot) and cheater.iterations == 3000
    told_apart = 0
    for seed in range(4):
        state = kryt_navalivat.new_state(seed=seed)
        while len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        seat = state.to_move
        assert seat is not None and state.view(seat)["stock"] > 0
        view = json.dumps(state.view(seat))
        deals = [
            kryt_navalivat.state_from_position(p) for p in twin.sample_positions(view, 2, seed)
        ]
        found = []
        for deal in deals:
            action = cheater.choose_seeing(deal, deal.legal_actions(), random.Random(1))
            assert action in deal.legal_actions() and cheater.last is not None
            assert cheater.last.iterations <= 3000
            found.append(cheater.last.values)
        told_apart += found[0] != found[1]
        assert all(deal.view(seat) == state.view(seat) for deal in deals)
    assert told_apart >= 3
    plays_a_whole_game("kryt-navalivat", 4, ("cheater:iterations=200", "ismcts:iterations=200"))
    with pytest.raises(InvalidBudgetError, match="iterations"):
        make_bot("cheater:iterations=0", "kryt-navalivat")
    with pytest.raises(InvalidBudgetError, match="rollout"):
        twin.search_seeing(state.position(), iterations=10, rollout="smart")
    with pytest.raises(InvalidPositionError):
        twin.search_seeing("not a position", iterations=10)


def test_the_search_beside_an_endgame_takes_what_the_solves_left_of_the_time() -> None:
    """With a time budget, hard's search beside the solves gets what they left of it, so
    that a decision keeps within the budget, but never more than its own nor less than
    MIN_SEARCH_SECONDS."""
    assert seconds_beside(0.9, 0.25, 0.9) == pytest.approx(0.65)
    assert seconds_beside(0.9, 0.01, 0.3) == 0.3
    assert seconds_beside(0.9, 0.01, None) == pytest.approx(0.89)
    assert seconds_beside(0.9, 0.95, 0.9) == MIN_SEARCH_SECONDS


def test_an_endgame_too_big_for_the_longest_horizon_keeps_what_a_shorter_one_proves() -> None:
    """KRYT-9: solve_endgame deepens the horizon while the node budget lasts; an endgame
    within budget gets the solver's own answer (horizon 10), and one past it the answer of
    the longest horizon that fitted, exact as far as it goes."""
    kryt_navalivat = cardtable.make("kryt-navalivat", players=2)
    twin = compiled.core_game(kryt_navalivat, always=True)
    assert isinstance(twin, CoreKrytNavalivat)
    whole = cut = 0
    for state in kryt_navalivat_endgames(120):
        core = twin.state_from_position(state.position())
        found = solve_endgame(core, "max-n")
        try:
            assert found == core.solve("max-n", nodes=ENDGAME_NODES)[0]
            whole += 1
        except SolverBudgetError:
            # A shorter horizon's answer, proving at least what the shortest proves.
            assert found is not None
            shorter = [core.solve("max-n", horizon=h)[0] for h in ENDGAME_HORIZONS[:-1]]
            assert found in shorter
            proven = [sum(v != 0 for _, v in values) for values in (found, shorter[0])]
            assert proven[0] >= proven[1]
            cut += 1
    assert whole > 0 and cut > 0  # both kinds were met


def searched(action: int, visits: dict[int, int]) -> SearchResult:
    values = {number: number / 10 for number in visits}
    return SearchResult(action, visits, values, sum(visits.values()), 0.0)


def test_the_endgame_choice_combines_proofs_with_the_search() -> None:
    search = searched(2, {1: 10, 2: 50, 3: 40})
    # A proven win is played whatever the search preferred; open actions keep its values.
    assert endgame_choice({1: [1.0], 2: [0.0], 3: [0.0]}, search) == (1, {1: 1.0, 2: 0.2, 3: 0.3})
    # Nothing proven: the search's choice stands.
    assert endgame_choice({1: [0.0], 2: [0.0], 3: [0.0]}, search)[0] == 2
    # The search's choice is proven lost: the most visited open action instead.
    assert endgame_choice({1: [0.0], 2: [-1.0], 3: [0.0]}, search)[0] == 3
    # Every action lost: the search's choice.
    assert endgame_choice({1: [-1.0], 2: [-1.0], 3: [-1.0]}, search)[0] == 2
    # A value that differs between deals is no proof.
    assert endgame_choice({1: [0.5, 0.0], 2: [-1.0, 0.0], 3: [0.0, 0.0]}, search)[0] == 2


def test_a_pimc_bot_plays_a_whole_game_legally() -> None:
    bots = [make_bot("pimc:deals=8", "knockout-whist"), make_bot("easy", "knockout-whist")]
    rng = random.Random(5)
    state = KNOCKOUT_WHIST.new_state(seed=5)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        bot = bots[0 if seat == 0 else 1]
        action = bot.choose(state.view(seat), state.legal_actions(), rng)
        state.apply(action)
    assert state.result is not None


def test_inference_weighs_deals_by_the_plays_they_explain() -> None:
    # With belief, a deal's weight is the likelihood of the others' plays (KOW-4.2 leaves
    # them free among the legal cards); the weighted means still value every legal action
    # within the returns' range, and a belief of 1 or more is refused.
    twin = core_twin(KNOCKOUT_WHIST)
    differs = 0
    for seed in range(12):
        state = decision(seed)
        assert state.to_move is not None
        view = json.dumps(state.view(state.to_move))
        plain = twin.judge(view, deals=30, seed=seed)
        inferred = twin.judge(view, deals=30, seed=seed, belief=0.6)
        assert sorted(inferred[2]) == sorted(plain[2])
        assert all(-0.5 <= value <= 1.007 for value in inferred[2].values())
        differs += plain[2] != inferred[2]
    assert differs > 0, "the weights changed no mean: inference did nothing"
    with pytest.raises(InvalidBudgetError, match="belief"):
        twin.judge(view, deals=3, belief=1.0)
    with pytest.raises(InvalidBudgetError, match="belief"):
        make_bot("pimc:deals=3,belief=-0.1", "knockout-whist")


def test_the_cheater_plays_the_solvers_best_on_the_true_deal_in_the_arena_alone() -> None:
    cheater = make_bot("cheater", "knockout-whist")
    assert isinstance(cheater, CheaterBot)
    twin = core_twin(KNOCKOUT_WHIST)
    for seed in range(6):
        state = decision(seed)
        values, _ = twin.state_from_position(state.position()).solve("max-n")
        best = max(value for _, value in values)
        chosen = cheater.choose_seeing(state, state.legal_actions(), random.Random(0))
        assert dict(values)[KNOCKOUT_WHIST.action_to_int(chosen)] == best
        seat = state.to_move
        assert seat is not None
        with pytest.raises(InvalidBudgetError, match="arena"):
            cheater.choose(state.view(seat), state.legal_actions(), random.Random(0))
    plays_a_whole_game("knockout-whist", 3, ("cheater", "hard", "easy"))


def test_search_can_solve_the_hand_instead_of_rolling_it_out() -> None:
    # ``solve``: once at most that many cards are left, a sampled hand is solved exactly
    # (max-n) in place of the guided rollout; every action still gets visits and a value.
    twin = core_twin(KNOCKOUT_WHIST)
    differs = 0
    for seed in range(8):
        state = decision(seed)
        assert state.to_move is not None
        view = json.dumps(state.view(state.to_move))
        solved = twin.search(view, iterations=300, seed=seed, stop_early=False, solve=52)
        rolled = twin.search(view, iterations=300, seed=seed, stop_early=False)
        assert solved[0] in state.legal_action_ids() and solved[3] == 300
        assert set(solved[1]) == set(state.legal_action_ids())
        differs += solved[2] != rolled[2]
    assert differs > 0, "solving the hand changed no value"
    with pytest.raises(InvalidBudgetError, match="solve"):
        make_bot("ismcts:iterations=10,solve=-1", "knockout-whist")
    with pytest.raises(InvalidBudgetError, match="solve"):
        make_bot("ismcts:iterations=10,solve=9,rollout=random", "knockout-whist")
