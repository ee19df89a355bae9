"""``cardtable arena --sprt H0,H1``: the sequential probability ratio test of the first bot's
paired difference to the second, the tables of record's stopping rule (docs/arena.md,
"Stopping early").

Its error rates are checked by simulation against differences drawn at H0 and at H1 (the
shape of a duplicate deal's difference in a win rate: -1, -1/2, 0, +1/2, +1); a real
tournament stops where the test over its own ``games.jsonl`` says, and resumes to the same
stop.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.arena import ArenaConfig, InvalidTournamentError, StoppingRule, run_tournament
from cardtable.arena.config import Sprt
from cardtable.arena.stopping import sprt_bounds, sprt_decision, sprt_llr
from cardtable.cli import app

DIFFERENCES = (-1.0, -0.5, 0.0, 0.5, 1.0)


def deal_differences(mean: float, rng: random.Random) -> list[float]:
    """4,000 deal differences whose mean is ``mean``: the five values of a two-game deal,
    weighted around the middle and tilted (exponentially, the tilt found by bisection) so
    that their mean is the one asked for."""
    base = [0.1, 0.2, 0.4, 0.2, 0.1]

    def tilted(k: float) -> list[float]:
        return [b * math.exp(k * d) for b, d in zip(base, DIFFERENCES, strict=True)]

    low, high = -20.0, 20.0
    for _ in range(60):
        k = (low + high) / 2
        weights = tilted(k)
        drawn = sum(w * d for w, d in zip(weights, DIFFERENCES, strict=True)) / sum(weights)
        low, high = (k, high) if drawn < mean else (low, k)
    return rng.choices(DIFFERENCES, weights=tilted((low + high) / 2), k=4000)


def run_test(test: Sprt, differences: list[float], min_deals: int = 20) -> str | None:
    """The decision the test takes over the deals in order, looking after each from the
    ``min_deals``-th on, as the arena does."""
    for n in range(min_deals, len(differences) + 1):
        decision, _ = sprt_decision(differences[:n], test)
        if decision is not None:
            return decision
    return None


def test_the_ratio_is_the_normal_models_and_the_bounds_walds() -> None:
    test = Sprt(0.0, 0.1, alpha=0.05, beta=0.1)
    low, high = sprt_bounds(test)
    assert low == pytest.approx(math.log(0.1 / 0.95)) and high == pytest.approx(
        math.log(0.9 / 0.05)
    )
    differences = [0.5, -0.5, 0.0, 1.0, 0.5]
    mean = sum(differences) / 5
    variance = sum((d - mean) ** 2 for d in differences) / 4
    expected = 5 * 0.1 * (2 * mean - 0.1) / (2 * variance)
    assert sprt_llr(differences, test) == pytest.approx(expected)
    assert sprt_llr([0.5], test) == 0.0  # no spread to read from one deal
    assert sprt_decision([0.0] * 50, test)[0] == "h0"  # deals all alike: the floor
    assert sprt_decision([1.0, 0.9] * 50, test)[0] == "h1"


@pytest.mark.parametrize(("true", "wrong"), [(0.0, "h1"), (0.1, "h0")])
def test_its_error_rates_hold_when_it_looks_after_every_deal(true: float, wrong: str) -> None:
    """400 tables drawn at H0 (difference 0) and at H1 (+0.1), each looked at after every
    deal: the wrong hypothesis is taken in at most about alpha (beta) of them, 5%, where
    the separation rule's habit of looking often would not hold its 5% (docs/arena.md);
    the right one in nearly every other."""
    test = Sprt(0.0, 0.1)
    rng = random.Random(17)
    decisions = [run_test(test, deal_differences(true, rng)) for _ in range(400)]
    assert decisions.count(wrong) <= 0.075 * 400, decisions.count(wrong)  # 5% and its noise
    assert decisions.count(None) <= 4  # 4,000 deals: it decides long before


def test_a_tournament_stops_where_the_test_over_its_games_says(tmp_path: Path) -> None:
    """``easy`` against ``random``, two players: the test takes H1 (a difference of +0.2
    rather than 0) after the deal at which the ratio over the games on disk first reaches
    its bound; the summary says so, and a resume plays nothing more."""
    test = Sprt(0.0, 0.2)
    rule = StoppingRule(min_deals=5, sprt=test)
    config = ArenaConfig(
        "knockout-whist", ("easy", "random"), games=2000, seed=3, options={"players": 2}, stop=rule
    )
    result = run_tournament(config, out=tmp_path / "t")
    stopping = json.loads((tmp_path / "t" / "summary.json").read_text())["stopping"]
    assert stopping["decision"] == "h1" and stopping["stopped"]
    deals = stopping["met_after_deals"]
    assert result.finished == 2 * deals < 2000
    # The ratio over the games on disk, recomputed: below the bound before, at it after.
    lines = (tmp_path / "t" / "games.jsonl").read_text().splitlines()
    by_deal: dict[int, list[float]] = {}
    for game in map(json.loads, lines):
        if game["deal"] < deals:  # the first bot's win less the second's, a game each half
            seat = game["seats"].index("easy")
            won = float(seat in game["winners"]) - float(1 - seat in game["winners"])
            by_deal.setdefault(game["deal"], []).append(won / 2)
    differences = [sum(by_deal[d]) for d in range(deals)]
    low, high = sprt_bounds(test)
    assert sprt_llr(differences, test) == pytest.approx(stopping["llr"])
    assert stopping["llr"] >= high
    assert all(low < sprt_llr(differences[:n], test) < high for n in range(5, deals))
    again = run_tournament(config, out=tmp_path / "t", resume=True)
    assert again.finished == result.finished


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["--sprt", "0"], "--sprt takes two numbers"),
        (["--sprt", "0,0"], "tells two different differences apart"),
        (["--sprt", "0,0.1", "--alpha", "0.6"], "error rates"),
        (["--sprt", "0,0.1", "--stop-when-separated", "0"], "give one stopping rule"),
        (["--bots", "easy,random,random", "--sprt", "0,0.1"], "give two bots"),
    ],
)
def test_bad_sprt_options_exit_2_before_any_game(
    tmp_path: Path, arguments: list[str], says: str
) -> None:
    bots = [] if "--bots" in arguments else ["--bots", "easy,random"]
    out = tmp_path / "t"
    command = ["arena", "knockout-whist", *bots, "--games", "10", "--out", str(out), *arguments]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.split())
    assert not (out / "games.jsonl").exists()


def test_an_sprt_needs_a_sound_test() -> None:
    with pytest.raises(InvalidTournamentError, match=r"between 0 and 0\.5"):
        Sprt(0.0, 0.1, alpha=0.0).validate()
    assert StoppingRule.from_dict(StoppingRule(sprt=Sprt(0.0, 0.1)).to_dict()).sprt == Sprt(
        0.0, 0.1
    )
