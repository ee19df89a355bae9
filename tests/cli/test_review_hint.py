"""What the table's hint would have said of a decision the review finds at fault
(docs/review.md, "The hint's word on a fault"): a decision judged an inaccuracy or a mistake
carries the hint's best action at the hint's budget and whether the chosen one was that (or
tied with it); every other decision carries neither. A fault the hint agreed with stands
only where the review's own analysis finds the loss beyond its noise."""

from __future__ import annotations

import functools
import json
import random
from dataclasses import replace
from typing import Any

import cardtable
from cardtable.analysis import MARGINS, NOISE, Analysis, Appraisal, Budget, analyse, decide
from cardtable.core import Record
from cardtable.review import (
    FLAGGED,
    LEVELS,
    REVIEW_VERSION,
    Review,
    budget_of,
    decision_of,
    decision_seed,
    judge,
    moments,
    review,
    review_views,
    with_hint,
)
from cardtable.server.thinking import HINT_BUDGET
from test_review import FAST, played_game

GAME = cardtable.make("knockout-whist", players=2)
VIEW: dict[str, Any] = {"seat": 0, "trump": "S", "hand_number": 2, "tricks": []}


def analysis(values: dict[str, tuple[float | None, float]]) -> Analysis:
    """The analysis of VIEW's position that ``values`` (action: value, error) make, in
    tricks."""
    appraisals = [Appraisal(a, value, error, 40) for a, (value, error) in values.items()]
    return decide(GAME.name, "tricks", VIEW, appraisals, 40, 0.1, "pimc")


# The review's look: 3D a trick below AS (well beyond its noise); 2C, a plain card as good
# as the trump AS (within the margin), is the best.
REVIEWED = analysis({"play AS": (2.0, 0.0), "play 2C": (1.95, 0.02), "play 3D": (1.0, 0.05)})


def test_a_fault_the_hint_agrees_with_carries_the_hint_and_says_so() -> None:
    fault = decision_of(REVIEWED, VIEW, "play 3D", 7, GAME)
    assert (fault.verdict, fault.best, fault.hint, fault.hint_agrees) == (
        "mistake",
        "play 2C",
        None,
        None,
    )
    # The hint's look found 3D the best: it would have suggested the move played.
    best = analysis({"play AS": (1.2, 0.05), "play 3D": (1.6, 0.0), "play 2C": (0.5, 0.05)})
    said = with_hint(fault, best)
    assert (said.hint, said.hint_agrees) == ("play 3D", True)
    # ... or found 3D as good as its best (within its noise), 2C preferred among them.
    tie = analysis({"play 2C": (1.8, 0.0), "play 3D": (1.5, 0.2), "play AS": (0.5, 0.05)})
    assert tie.best == "play 2C" and tie.tied("play 3D")
    tied = with_hint(fault, tie)
    assert (tied.hint, tied.hint_agrees) == ("play 2C", True)
    # A hint that would have suggested another move: no agreement to tell.
    other = analysis({"play AS": (2.0, 0.0), "play 3D": (1.1, 0.05), "play 2C": (0.5, 0.05)})
    apart = with_hint(fault, other)
    assert (apart.hint, apart.hint_agrees) == ("play AS", False)
    # A hint that rated nothing suggests its first action, and agrees with no other.
    unrated = analysis({"play AS": (None, 0.0), "play 3D": (None, 0.0), "play 2C": (None, 0.0)})
    assert (with_hint(fault, unrated).hint, with_hint(fault, unrated).hint_agrees) == (
        "play AS",
        False,
    )
    # Nothing else of the verdict changes.
    for found in (said, tied, apart):
        assert replace(found, hint=None, hint_agrees=None) == fault


def test_a_decision_found_fine_carries_no_hint() -> None:
    """Tied with the best at the review's budget, or short of it only within the review's
    noise: fine, whatever the hint says, and not asked about."""
    hinted = analysis({"play AS": (2.0, 0.0), "play 2C": (1.9, 0.01), "play 3D": (1.0, 0.05)})
    tied = decision_of(REVIEWED, VIEW, "play AS", 3, GAME)
    assert (tied.verdict, tied.loss) == ("fine", 0.0)
    assert with_hint(tied, hinted) == tied and tied.hint is None and tied.hint_agrees is None
    # 3D is not tied with AS (0.95 below it, beyond two standard errors of 0.45), but the
    # best is 2C (a plain card as good as the trump), from which 3D's loss is 0.85: within
    # the noise of 0.9, so no fault is found.
    noisy = analysis({"play AS": (2.0, 0.0), "play 2C": (1.9, 0.01), "play 3D": (1.05, 0.45)})
    assert not noisy.tied("play 3D") and noisy.best == "play 2C"
    within = decision_of(noisy, VIEW, "play 3D", 3, GAME)
    assert within.loss is not None and within.loss <= within.noise == NOISE * 0.45
    assert within.verdict == "fine"
    assert with_hint(within, hinted) == within
    # The same loss beyond a smaller noise is a fault, and then the hint is asked.
    clear = analysis({"play AS": (2.0, 0.0), "play 2C": (1.9, 0.01), "play 3D": (1.05, 0.1)})
    flagged = decision_of(clear, VIEW, "play 3D", 3, GAME)
    assert flagged.verdict == "mistake" and flagged.loss is not None
    assert flagged.loss > flagged.noise and flagged.loss > MARGINS["tricks"]
    assert with_hint(flagged, hinted).hint == "play 2C"


def test_the_reviews_look_at_expert_is_the_tables_hint() -> None:
    """A review at ``expert`` looks at a fault twice with the hint's own budget: its first
    look is the hint, and the fault is found by twice the hint's budget."""
    assert LEVELS["expert"] == HINT_BUDGET


@functools.cache
def random_kryt() -> Record:
    """A game of Kryt'-navalivat' between two seats playing at random (hundreds of
    decisions, many at fault)."""
    return played_game("kryt-navalivat", 2, seed=5, level="random")


def test_each_fault_of_a_game_carries_the_hints_word_and_nothing_else_does() -> None:
    """A seat playing at random in Kryt'-navalivat', judged at a level bounded by iterations:
    every inaccuracy and mistake carries the hint's best, as the hint's analysis of that view
    alone from the decision's own seed gives it; no other decision carries any."""
    record = random_kryt()
    _, turns = moments(record, 0)
    turns = turns[:80]
    game = cardtable.make(record.game, **record.options)
    views = {index: state.view(0) for index, state, _ in turns}
    budget = budget_of(FAST)
    flagged = 0
    for index, _state, chosen in turns:
        decision = judge(
            game, views[index], chosen, index, budget, random.Random(decision_seed(3, index))
        )
        if decision.verdict not in FLAGGED:
            assert decision.hint is None and decision.hint_agrees is None, decision
            continue
        flagged += 1
        assert decision.hint in views[index]["legal_actions"]
        # The hint's own seed: drawn from the decision's, beside the review's looks.
        seeded = random.Random(random.Random(decision_seed(3, index)).getrandbits(64))
        hinted = analyse(game, views[index], budget=budget, rng=seeded)
        assert with_hint(replace(decision, hint=None, hint_agrees=None), hinted) == decision
    assert flagged


def test_a_whole_review_gives_each_decision_the_verdict_it_has_on_its_own() -> None:
    """The review glances at its decisions side by side, then looks twice at those not
    surely fine: each decision's verdict, and the progress it reports, are those of
    judging it alone from its own seed."""
    record = random_kryt()
    _, turns = moments(record, 0)
    turns = turns[:80]
    game = cardtable.make(record.game, **record.options)
    seen = [(index, state.view(0), chosen) for index, state, chosen in turns]
    told: list[tuple[int, int]] = []
    whole = review_views(
        record.game,
        dict(record.options),
        0,
        seen,
        [0.0, 0.0],
        level=FAST,
        rng_seed=3,
        progress=lambda done, total: told.append((done, total)),
    )
    alone = [
        judge(game, view, chosen, index, budget_of(FAST), random.Random(decision_seed(3, index)))
        for index, view, chosen in seen
    ]
    assert whole.decisions == alone
    assert told == [(done, len(seen)) for done in range(len(seen) + 1)]
    assert {d.verdict for d in alone} & set(FLAGGED) and "fine" in {d.verdict for d in alone}


def test_each_glance_settles_decisions_the_one_before_it_could_not() -> None:
    """The glances go from the smallest share of a look's budget up: in a game of
    Kryt'-navalivat' each settles some decision the one before it left open (a surely fine
    one), and some decisions are left for the looks."""
    from cardtable.review import GLANCES, _glance

    record = random_kryt()
    game = cardtable.make(record.game, **record.options)
    _, turns = moments(record, 0)
    # Bounded by iterations alone: a first glance of 200, a second of 600.
    budget = budget_of("analysis:iterations=3000,seconds=60")
    settled_at = []
    for index, state, chosen in turns[:80]:
        rng = random.Random(decision_seed(3, index))
        stage = next(
            (
                at
                for at, share in enumerate(GLANCES)
                if _glance(game, state.view(0), chosen, index, budget, rng, share) is not None
            ),
            len(GLANCES),
        )
        settled_at.append(stage)
    assert tuple(sorted(GLANCES)) == GLANCES and len(GLANCES) >= 2
    assert set(settled_at) == set(range(len(GLANCES) + 1)), settled_at


def test_a_decision_is_looked_at_until_its_verdict_is_clear_or_the_looks_run_out() -> None:
    """A decision no glance settled is looked at once (the hint's look), and that look
    alone settles it only where it finds the chosen action surely fine or at fault beyond
    its noise; after two or more looks pooled, another is made only while the chosen
    action falls short of the best by an inaccuracy or more but within the noise, up to
    LOOKS. In a game of Kryt'-navalivat' decisions stop after one look, after two, and
    after more."""
    from cardtable.review import LOOKS, _surely_at_fault, _surely_fine, unclear

    record = random_kryt()
    game = cardtable.make(record.game, **record.options)
    _, turns = moments(record, 0)
    iterations, rounds = 300, 2  # bounded by iterations alone: every look searches as long
    budget = budget_of(f"analysis:iterations={iterations},rounds={rounds},seconds=60")
    looks_of = []
    for index, state, chosen in turns[:80]:
        view = state.view(0)
        if view["stock"] == 0:
            continue  # the exact endgame: proven actions take no visits
        decision = judge(game, view, chosen, index, budget, random.Random(decision_seed(3, index)))
        visits = sum(a.visits for a in decision.actions)
        if visits < iterations * rounds:
            continue  # settled by a glance
        looks = visits // (iterations * rounds)
        assert visits == looks * iterations * rounds and 1 <= looks <= LOOKS, (index, visits)
        seen = decide(
            game.name,
            "not_fool",
            view,
            [Appraisal(a.action, a.value, a.error, a.visits) for a in decision.actions],
            visits,
            0.0,
            "search",
        )
        if looks == 1:
            assert _surely_fine(seen, game, chosen) or _surely_at_fault(seen, game, chosen)
        elif looks < LOOKS:
            assert not unclear(seen, game, chosen), index
        looks_of.append(looks)
    assert {1, 2} <= set(looks_of) and max(looks_of) > 2, looks_of


def test_a_move_the_hint_suggested_found_at_fault_by_a_longer_look_says_so() -> None:
    """Looks of 200 iterations of the search (bounded by iterations, so each depends on its
    seed alone): the move the hint's look suggests, played, is in some positions found at
    fault by the review's looks pooled (the hint's and others), and then carries the
    hint's word, that it was the hint's best."""
    record = random_kryt()
    game = cardtable.make(record.game, **record.options)
    _, turns = moments(record, 0)
    short = Budget(iterations=200, rounds=1, seconds=60.0)
    found = []
    for index, state, _ in turns[:80]:
        view = state.view(0)
        seed = decision_seed(0, index)
        # What the hint would suggest: its look from the seed judge() gives it.
        hinted = analyse(
            game, view, budget=short, rng=random.Random(random.Random(seed).getrandbits(64))
        )
        decision = judge(game, view, hinted.best, index, short, random.Random(seed))
        if decision.verdict in FLAGGED:
            assert (decision.hint, decision.hint_agrees) == (hinted.best, True)
            assert decision.best != hinted.best
            assert decision.loss is not None and decision.loss > decision.noise
            found.append(decision)
        else:
            assert decision.hint is None and decision.hint_agrees is None
    assert found, "no move the hint suggested that the longer look finds at fault"


def test_a_review_of_a_game_carries_the_hints_word_in_its_json() -> None:
    done = review(random_kryt(), 0, level=FAST, rng_seed=3)
    data = json.loads(done.to_json())
    flagged = [d for d in data["decisions"] if d["verdict"] in FLAGGED]
    assert flagged and all(isinstance(d["hint_agrees"], bool) for d in flagged)
    assert all(d["hint"] is None for d in data["decisions"] if d["verdict"] not in FLAGGED)
    assert Review.from_dict(data).to_dict() == done.to_dict()


def test_a_stored_review_without_the_hints_word_still_loads() -> None:
    """A version 2 review stored before decisions carried the hint's word: read with none
    (the page then says nothing of the hint), written again with it empty."""
    data = {
        "format": "cardtable-review",
        "version": REVIEW_VERSION,
        "game": "knockout-whist",
        "options": {"players": 2},
        "seat": 0,
        "level": "expert",
        "rng_seed": 0,
        "returns": [-1.0, 1.0],
        "decisions": [
            {
                "index": 1,
                "hand": 4,
                "trick": 1,
                "actions": [
                    {"action": "play 2C", "value": 0.7, "visits": 200, "error": 0.03},
                    {"action": "play 2S", "value": 1.45, "visits": 200, "error": 0.0},
                ],
                "chosen": "play 2C",
                "best": "play 2S",
                "loss": 0.75,
                "noise": 0.06,
                "verdict": "mistake",
            }
        ],
    }
    done = Review.from_dict(json.loads(json.dumps(data)))
    (decision,) = done.decisions
    assert (decision.verdict, decision.hint, decision.hint_agrees) == ("mistake", None, None)
    again = done.to_dict()
    assert again["decisions"][0]["hint"] is None and again["decisions"][0]["hint_agrees"] is None
    assert Review.from_dict(again).to_dict() == again
