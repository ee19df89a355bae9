"""ISMCTS (``cardtable.bots.ismcts``) and the bot specs that build it (DESIGN.md "Bots").

The search is checked for what it promises: it reads a seat's view only, spends exactly
its iteration budget, is a function of the view and its generator, finds the move that
wins at once where there is one, and plays well above random; bad budgets and specs are
refused with specific errors.
"""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.ismcts import InvalidBudgetError, IsmctsBot, guided_rollout, search
from cardtable.bots.random_bot import RandomBot
from cardtable.core import State
from cardtable.errors import CardtableError, InvalidPositionError
from cardtable.rules.kryt_navalivat.position import FILL, compose_position

GAMES = [("knockout-whist", 3), ("neuf", 3), ("kryt-navalivat", 3)]


def midgame(name: str, players: int, seed: int, steps: int) -> State:
    """A state a few random actions into a seeded game, with a choice to make."""
    state = cardtable.make(name, players=players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply_id(rng.choice(state.legal_action_ids()))
    while not state.is_over and len(state.legal_action_ids()) < 2:
        state.apply_id(state.legal_action_ids()[0])
    assert not state.is_over
    return state


# Budgets and specs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("iterations", "seconds"),
    [(None, None), (0, None), (-5, None), (2.5, None), (True, None), (None, 0), (None, -1.0),
     (None, float("nan")), (None, float("inf")), (10, 0.0)],
)  # fmt: skip
def test_a_budget_must_be_positive(iterations: object, seconds: object) -> None:
    """A budget of zero or less is bad input: a specific ValueError, nothing run."""
    state = midgame("kryt-navalivat", 3, 1, 5)
    seat = state.to_move
    assert seat is not None
    knowledge = state.game.knowledge(state.view(seat))
    with pytest.raises(InvalidBudgetError) as caught:
        search(knowledge, random.Random(0), iterations=iterations, seconds=seconds)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError)
    with pytest.raises(InvalidBudgetError):
        IsmctsBot(iterations=iterations, seconds=seconds)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "error", "words"),
    [
        ("ismcts:iterations=0", InvalidBudgetError, "positive"),
        ("ismcts:iterations=many", InvalidBudgetError, "must be a int"),
        ("ismcts:depth=3", cardtable.bots.UnknownBotError, "not one of iterations"),
        ("ismcts:rollout=clever", InvalidBudgetError, "guided', 'learned', 'deal' or 'random"),
        ("ismcts:rollout=learned,engine=python", InvalidBudgetError, "goes with the core"),
        ("ismcts:rollout=deal,engine=python", InvalidBudgetError, "deal rollout goes with"),
        ("ismcts:belief=1", InvalidBudgetError, "belief must be at least 0 and below 1"),
        ("ismcts:choice=-2", InvalidBudgetError, "choice must be 0 or more"),
        ("ismcts:deals=0", InvalidBudgetError, "deals must be a whole number, 1 or more"),
        ("ismcts:choice=1,engine=python", InvalidBudgetError, "go with the core's search"),
        ("ismcts:engine=gpu", InvalidBudgetError, "core' or 'python"),
        ("ismcts:threads=0", InvalidBudgetError, "threads must be a whole number, 1 or more"),
        ("ismcts:threads=two", InvalidBudgetError, "threads must be a int"),
        ("hard:iterations=5", cardtable.bots.UnknownBotError, "takes no parameters"),
        ("no_such_module.bots:Bot", cardtable.bots.UnknownBotError, "cannot import"),
        ("cardtable.bots:NoSuchBot", cardtable.bots.UnknownBotError, "has no class"),
    ],
)
def test_bad_specs_are_refused(spec: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        make_bot(spec, "neuf")


def test_a_learned_rollout_needs_a_game_with_a_learned_evaluation() -> None:
    with pytest.raises(InvalidBudgetError, match="no learned estimate for 'kryt-navalivat'"):
        make_bot("ismcts:rollout=learned", "kryt-navalivat")
    bot = make_bot("ismcts:rollout=learned", "neuf")
    assert isinstance(bot, IsmctsBot) and bot.rollout == "learned"


def test_specs_build_search_bots_and_own_classes() -> None:
    """``ismcts:k=v`` sets the search; ``module:Class`` builds a user's bot."""
    spec = "ismcts:iterations=50,exploration=1.5,rollout=random,engine=python,threads=2"
    bot = make_bot(spec, "neuf")
    assert isinstance(bot, IsmctsBot)
    assert (bot.iterations, bot.seconds, bot.exploration, bot.rollout) == (50, None, 1.5, "random")
    assert (bot.engine, bot.threads, bot.name) == ("python", 2, spec)
    own = make_bot("cardtable.bots.random_bot:RandomBot", "neuf")
    assert isinstance(own, RandomBot)


# The search -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_search_spends_its_iterations_and_repeats_itself(name: str, players: int) -> None:
    """An iteration budget is spent exactly; the same view and generator seed give the same
    statistics; every root child is a legal action and the visits add up."""
    state = midgame(name, players, 3, 7)
    seat = state.to_move
    assert seat is not None
    runs = []
    for _ in range(2):
        knowledge = state.game.knowledge(state.view(seat))
        runs.append(search(knowledge, random.Random(11), iterations=120, stop_early=False))
    first, second = runs
    assert first.iterations == 120
    assert first.visits == second.visits and first.action == second.action
    legal = set(state.legal_action_ids())
    assert set(first.visits) <= legal and first.action in legal
    assert sum(first.visits.values()) == 120
    assert first.visits[first.action] == max(first.visits.values())


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_search_stops_once_its_choice_is_settled(name: str, players: int) -> None:
    """Stopping early never changes the choice: from the same generator, the search that
    stops once no remaining iteration could overtake the leader picks what the whole
    budget picks, in fewer iterations where the leader pulled away."""
    stopped = 0
    for seed in range(12):
        state = midgame(name, players, seed, 3 + seed)
        knowledge = state.game.knowledge(state.view(state.to_move))
        whole = search(knowledge, random.Random(seed), iterations=400, stop_early=False)
        early = search(knowledge, random.Random(seed), iterations=400)
        assert early.action == whole.action
        assert early.iterations <= whole.iterations == 400
        if early.iterations < 400:
            stopped += 1
            lead = [*sorted(early.visits.values(), reverse=True), 0, 0]
            assert lead[0] - lead[1] > 400 - early.iterations
    assert stopped > 0


def test_search_only_on_the_seats_own_turn() -> None:
    state = midgame("neuf", 3, 2, 4)
    other = (state.to_move + 1) % 3 if state.to_move is not None else 0
    knowledge = state.game.knowledge(state.view(other))
    with pytest.raises(CardtableError, match="its own turn"):
        search(knowledge, random.Random(0), iterations=10)


def test_search_refuses_a_spectator_view() -> None:
    state = midgame("knockout-whist", 3, 2, 4)
    with pytest.raises(InvalidPositionError):
        state.game.knowledge(state.view(None))


def test_search_finds_the_winning_beat_and_cover() -> None:
    """KRYT-EX-9: A (QH AD) faces JH and B holds 7C 8C 9S, trumps diamonds. Beating with one
    card and covering with the other takes A out, and B, who can beat neither QH nor AD
    and holds three cards, is the fool at once (KRYT-7.3); a pick-up only gives B time."""
    text = compose_position(["QH AD", "7C 8C 9S"], pile=f"{FILL} JH", trumps="D")
    state = cardtable.make("kryt-navalivat", players=2).state_from_position(text)
    bot = make_bot("ismcts:iterations=300", "kryt-navalivat")
    rng = random.Random(5)
    while state.to_move == 0:
        state.apply(bot.choose(state.view(0), state.legal_actions(), rng))
    assert state.result is not None and state.result.places[-1] == (1,)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_guided_rollouts_return_zero_sum_estimates(name: str, players: int) -> None:
    """Each game's rollout plays a determinized state on, to the end of the game or (the
    games of many hands) of the current hand, and returns one zero-sum number per seat:
    the result's returns when the game ended, an estimate otherwise."""
    state = midgame(name, players, 4, 3)
    seat = state.to_move
    assert seat is not None
    rollout = guided_rollout(name)
    knowledge = state.game.knowledge(state.view(seat))
    rng = random.Random(2)
    for _ in range(5):
        sample = knowledge.sample(rng)
        returns = rollout(sample, rng)
        assert len(returns) == players and abs(sum(returns)) < 1e-9
        if sample.is_over:
            assert sample.result is not None and tuple(returns) == sample.result.returns
        else:
            assert all(-1.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_search_plays_far_better_than_random(name: str, players: int) -> None:
    """A small search at one seat against random players takes more than its fair share:
    its mean return (zero-sum, fair share 0) is clearly positive."""
    games = 6
    total = 0.0
    for seed in range(games):
        seat = seed % players
        bots = [RandomBot() for _ in range(players)]
        searcher = make_bot("ismcts:iterations=60", name)
        state = cardtable.make(name, players=players).new_state(seed=100 + seed)
        rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            bot = searcher if mover == seat else bots[mover]
            state.apply(bot.choose(state.view(mover), state.legal_actions(), rngs[mover]))
        assert state.result is not None
        total += state.result.returns[seat]
    assert total / games > 0.2, total / games
