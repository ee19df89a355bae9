"""``cardtable arena``: schedules, determinism, statistics, ratings, resume, failing bots,
reports, the command, and the Ray backend (DESIGN.md "Layers": research surfaces).

Expected numbers come from the definitions (Student's t from printed tables, Wilson's
interval computed by hand, the rules' results replayed from the records), never from the
arena's own output.
"""

from __future__ import annotations

import csv
import json
import math
import random
import shlex
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.arena import (
    ArenaConfig,
    BackendUnavailableError,
    GameOutcome,
    InvalidTournamentError,
    Progress,
    ResumeMismatchError,
    TournamentResult,
    run_tournament,
    schedule,
)
from cardtable.arena.match import play_game
from cardtable.arena.metrics import seat_values
from cardtable.arena.ratings import rate
from cardtable.arena.stats import (
    estimate,
    mean_interval,
    paired_difference,
    t_quantile,
    wilson_interval,
)
from cardtable.bots import UnknownBotError
from cardtable.cli import app
from terminal_io import run_cli

KOW = "knockout-whist"
KRYT_NAVALIVAT = "kryt-navalivat"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def kow(bots: Sequence[str], games: int, seed: int = 5, **kwargs: Any) -> ArenaConfig:
    return ArenaConfig(KOW, tuple(bots), games=games, seed=seed, options={"players": 3}, **kwargs)


def lines(folder: Path) -> list[dict[str, Any]]:
    """The results file's games by index, without the one field that varies: the time."""
    rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    for row in rows:
        del row["duration"]
    return sorted(rows, key=lambda r: r["game"])


# Schedule ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("bots", "players"), [(3, 3), (2, 3), (4, 3), (2, 4)])
def test_every_entry_plays_every_seat_of_every_deal(bots: int, players: int) -> None:
    """Duplicate deals: each deal under every rotation, the same deal seed throughout, and
    over a deal's rotations each entry sits at each seat exactly once (fewer entries than
    seats are cycled, more sit out in turn)."""
    specs = ["random", "easy", "heuristic", "random"][:bots]
    config = ArenaConfig(KOW, tuple(specs), games=4 * bots, seed=9, options={"players": players})
    tasks = schedule(config, players)
    assert len(tasks) == 4 * bots and [t.index for t in tasks] == list(range(len(tasks)))
    entries = {"random", "easy", "heuristic", "random#2"} if bots == 4 else set(specs)
    for deal in range(4):
        games = [t for t in tasks if t.deal == deal]
        assert sorted(t.rotation for t in games) == list(range(bots))
        assert len({t.deal_seed for t in games}) == 1
        for seat in range(players):
            assert sorted(t.seats[seat] for t in games) == sorted(entries)
    assert len({t.deal_seed for t in tasks}) == 4, "each deal has its own cards"
    assert len({s for t in tasks for s in t.rng_seeds}) == len(tasks) * players


def test_games_round_up_to_whole_deals_and_single_deals_rotate() -> None:
    config = kow(["random", "easy", "heuristic"], games=7)
    assert (config.deals, config.total_games) == (3, 9)
    single = kow(["random", "easy", "heuristic"], games=7, duplicate=False)
    tasks = schedule(single, 3)
    assert len(tasks) == 7 and len({t.deal_seed for t in tasks}) == 7
    assert [t.rotation for t in tasks] == [0, 1, 2, 0, 1, 2, 0]


def test_a_game_depends_on_its_task_alone() -> None:
    """Same task, same game: the record replays to the result the outcome reports."""
    task = schedule(kow(["easy", "random", "random"], games=3), 3)[1]
    first, second = play_game(task), play_game(task)
    assert first.record == second.record and first.places == second.places
    state = cardtable.replay(first.record)
    assert state.result is not None and state.result.places == first.places


@pytest.mark.parametrize("core", ["rust", "python"])
@pytest.mark.parametrize(
    ("name", "players"),
    [(KOW, 3), ("neuf", 3), (KRYT_NAVALIVAT, 2)],
    ids=[KOW, "neuf", KRYT_NAVALIVAT],
)
def test_random_bots_games_play_in_either_engine_and_replay(
    name: str, players: int, core: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random bots alone: the game is one playout (in the compiled core when it is in use),
    as reproducible as any, and its record replays to the result the outcome reports."""
    monkeypatch.setenv("CARDTABLE_CORE", core)
    config = ArenaConfig(name, ("random",) * players, games=2, seed=4, options={"players": players})
    for task in schedule(config, players):
        first, second = play_game(task), play_game(task)
        assert first.status == "ok" and first.record == second.record
        state = cardtable.replay(first.record)
        assert state.result is not None and state.result.places == first.places
        assert first.actions == len(state.history) > 0


# Statistics --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("df", "printed"), [(1, 12.706), (2, 4.303), (4, 2.776), (9, 2.262), (29, 2.045)]
)
def test_t_quantiles_match_the_printed_table(df: int, printed: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(printed, abs=5e-4)


def test_t_interval_by_hand() -> None:
    """[1, 0, 1, 1, 0]: mean 0.6, s² = 1.2/4 = 0.3, half-width t(4) · √(0.3/5)."""
    interval = mean_interval([1, 0, 1, 1, 0])
    half = 2.7764451 * math.sqrt(0.3 / 5)
    assert interval.mean == pytest.approx(0.6)
    assert (interval.low, interval.high) == pytest.approx((0.6 - half, 0.6 + half))
    assert mean_interval([4.0]).low is None, "one value gives no interval"


def test_wilson_interval_by_hand() -> None:
    """6 of 10 → (0.3127, 0.8318); 0 of 10 → (0, z²/(n+z²) = 0.2775)."""
    six = wilson_interval(6, 10)
    assert (six.low, six.high) == pytest.approx((0.3127, 0.8318), abs=1e-4)
    none = wilson_interval(0, 10)
    assert (none.low, none.high) == pytest.approx((0.0, 1.96**2 / (10 + 1.96**2)), abs=1e-4)


def test_duplicate_estimate_averages_each_deal_first() -> None:
    """Scores by deal [[3, 5], [7, 9], [4, 4]]: deal means 4, 8, 4; s² = 16/3 / 2."""
    interval = estimate([[3, 5], [7, 9], [4, 4]], binary=False)
    half = 4.3026527 * math.sqrt((16 / 3) / 3)
    assert interval.n == 3 and interval.method == "student-t"
    assert (interval.low, interval.high) == pytest.approx((16 / 3 - half, 16 / 3 + half))
    # Single-game deals of a 0/1 metric are independent trials: Wilson.
    single = estimate([[1], [0], [1], [1], [0], [1], [0], [1], [1], [0]], binary=True)
    assert single.method == "wilson" and single.low == pytest.approx(0.3127, abs=1e-4)
    # A rate of 0 in every deal still gets an interval: Wilson's over the 6 games.
    zero = estimate([[0, 0, 0], [0, 0, 0]], binary=True)
    assert zero.method == "wilson"
    assert (zero.low, zero.high) == pytest.approx((0.0, 1.96**2 / (6 + 1.96**2)), abs=1e-3)
    # Otherwise a rate's t interval is cut to [0, 1]: deal means 1/3, 2/3 → ±t(1)·(1/6).
    spread = estimate([[1, 0, 0], [1, 1, 0]], binary=True)
    assert spread.method == "student-t" and (spread.low, spread.high) == (0.0, 1.0)
    narrow = estimate([[1, 0, 0], [1, 1, 0]] * 20, binary=True)
    half = t_quantile(0.975, 39) * math.sqrt((40 / 39) * (1 / 6) ** 2 / 40)
    assert (narrow.low, narrow.high) == pytest.approx((0.5 - half, 0.5 + half))


def test_a_paired_difference_is_taken_deal_by_deal() -> None:
    """First's deal means 4, 8, 4 and other's 3, 8, 2 (deal 3 played by first alone):
    differences 1, 0, 2; mean 1, s² = 1, half-width t(0.975, 2)·√(1/3). The deals' luck
    (4, 8, 4) cancels: first's own interval is wider than the difference's."""
    first = {0: [3.0, 5.0], 1: [7.0, 9.0], 2: [4.0, 4.0], 3: [1.0]}
    other = {0: [3.0], 1: [8.0, 8.0], 2: [2.0, 2.0]}
    found = paired_difference(first, other)
    assert found is not None and found.n == 3
    assert found.mean == pytest.approx(1.0)
    half = t_quantile(0.975, 2) * math.sqrt(1.0 / 3)
    assert (found.low, found.high) == pytest.approx((1.0 - half, 1.0 + half))
    own = estimate(first.values(), binary=False)
    assert own.low is not None and own.high is not None
    assert found.low is not None and found.high is not None
    assert found.high - found.low < own.high - own.low
    assert paired_difference(first, {}) is None


def test_seat_values_follow_each_games_result() -> None:
    """KOW: the winner 1; Kryt'-navalivat': the fool 1, a draw nobody; Neuf 4 players: the
    team's score (NEUF-8.4), the same for both partners."""
    rng = random.Random(3)
    for name, players in ((KOW, 3), (KRYT_NAVALIVAT, 3), ("neuf", 4)):
        state = cardtable.make(name, players=players).new_state(seed=11)
        state.playout(rng)
        result = state.result
        assert result is not None
        values = seat_values(state)
        if name == KOW:
            assert values == [float(s in result.winners) for s in range(3)]
        elif name == KRYT_NAVALIVAT:
            fools = [s for s in range(3) if result.winners and s not in result.winners]
            assert values == [float(s in fools) for s in range(3)]
        else:
            scores = state.view(None)["scores"]
            assert values == [scores[0], scores[1], scores[0], scores[1]]
            assert min(scores) == scores[result.winners[0] % 2]


# Ratings -----------------------------------------------------------------------------------


def outcome(index: int, seats: tuple[str, ...], places: tuple[tuple[int, ...], ...]) -> GameOutcome:
    return GameOutcome(
        index=index,
        deal=index,
        rotation=0,
        deal_seed=index,
        seats=seats,
        specs=seats,
        rng_seeds=(),
        status="ok",
        winners=places[0],
        places=places,
        returns=(),
        summary="",
        seat_metrics=tuple(0.0 for _ in seats),
        actions=0,
        duration=0.0,
        record={},
    )


def test_a_bot_that_always_wins_is_rated_highest_whatever_the_order() -> None:
    rng = random.Random(1)
    games = []
    for i in range(30):
        others = ["b", "c"]
        rng.shuffle(others)
        seats = ("champ", *others)
        games.append(outcome(i, seats, ((0,), (1,), (2,)) if i % 2 else ((0,), (1, 2))))
    ratings = rate(games, ["champ", "b", "c"])
    assert max(ratings, key=lambda e: ratings[e].ordinal) == "champ"
    assert ratings["champ"].mu > max(ratings["b"].mu, ratings["c"].mu)
    shuffled = games[:]
    rng.shuffle(shuffled)
    assert rate(shuffled, ["champ", "b", "c"]) == ratings, "rated in game order"


def test_an_entry_on_several_seats_ranks_by_their_mean_place() -> None:
    game = outcome(0, ("a", "b", "a"), ((0,), (1,), (2,)))
    assert game.entry_places() == {"a": 1.0, "b": 1.0}
    assert game.metrics() == {"a": 0.0, "b": 0.0}


# Runs, determinism, resume -----------------------------------------------------------------


def test_same_seed_same_results_in_process_or_in_two_workers(tmp_path: Path) -> None:
    config = kow(["easy", "random"], games=6)
    one = run_tournament(config, tmp_path / "one", reports=False)
    two = run_tournament(config, tmp_path / "two", workers=2, reports=False)
    assert one.finished == two.finished == 6
    assert lines(tmp_path / "one") == lines(tmp_path / "two")
    assert one.standings == two.standings
    run_tournament(kow(["easy", "random"], games=6, seed=6), tmp_path / "3", reports=False)
    assert lines(tmp_path / "3") != lines(tmp_path / "one"), "the seed changes the deals"


class StopAfter:
    """A progress hook that presses Ctrl-C after ``n`` games (passing each game on to
    ``inner`` first, when given)."""

    def __init__(self, n: int, inner: Progress | None = None) -> None:
        self.n = n
        self.inner = inner
        self.seen = 0

    def start(self, total: int, done: int) -> None:
        self.total, self.done = total, done
        if self.inner is not None:
            self.inner.start(total, done)

    def advance(self, outcome: GameOutcome) -> None:
        if self.inner is not None:
            self.inner.advance(outcome)
        self.seen += 1
        if self.seen == self.n:
            raise KeyboardInterrupt


def test_an_interrupted_tournament_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    config = kow(["easy", "random", "random"], games=9)
    whole = run_tournament(config, tmp_path / "whole", reports=False)
    part = tmp_path / "part"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, part, progress=StopAfter(4), reports=False)
    assert len(lines(part)) == 4, "every finished game is on disk at the interruption"
    with (part / "games.jsonl").open("a") as results:
        results.write('{"game": 7, "deal"')  # a write cut short by the stop
    hook = StopAfter(0)
    resumed = run_tournament(config, part, resume=True, progress=hook)
    assert (hook.total, hook.done, hook.seen) == (9, 4, 5), "only the missing games are played"
    assert lines(part) == lines(tmp_path / "whole")
    assert resumed.standings == whole.standings and resumed.complete


def test_resume_checks_the_configuration_and_a_new_run_keeps_old_results(tmp_path: Path) -> None:
    config = kow(["easy", "random"], games=2)
    run_tournament(config, tmp_path, reports=False)
    with pytest.raises(ResumeMismatchError, match="seed: 6 != 5"):
        run_tournament(kow(["easy", "random"], games=2, seed=6), tmp_path, resume=True)
    with pytest.raises(InvalidTournamentError, match="already holds"):
        run_tournament(config, tmp_path)
    with pytest.raises(ResumeMismatchError, match="nothing to resume"):
        run_tournament(config, tmp_path / "empty", resume=True)
    assert len(lines(tmp_path)) == 2


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"games": 0}, InvalidTournamentError),
        ({"games": -4}, InvalidTournamentError),
        ({"bots": ()}, InvalidTournamentError),
        ({"bots": ("easy", "nonsense")}, UnknownBotError),
        ({"bots": ("easy", "ismcts:iterations=0")}, cardtable.CardtableError),
    ],
)
def test_bad_tournaments_are_refused_before_any_game(
    tmp_path: Path, change: dict[str, Any], error: type[Exception]
) -> None:
    fields: dict[str, Any] = {"game": KOW, "bots": ("easy", "random"), "games": 2, "seed": 1}
    fields |= change
    with pytest.raises(error):
        run_tournament(ArenaConfig(**fields), tmp_path / "out")
    with pytest.raises(InvalidTournamentError, match="workers"):
        run_tournament(kow(["easy"], games=1), tmp_path / "out", workers=0)
    with pytest.raises(BackendUnavailableError, match="unknown backend"):
        run_tournament(kow(["easy"], games=1), tmp_path / "out", backend="cloud")
    assert not (tmp_path / "out").exists()


def test_the_ray_backend_without_ray_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(BackendUnavailableError, match=r"pip install 'cardtable\[ray\]'"):
        run_tournament(kow(["easy"], games=1), tmp_path, backend="ray")


# Faulty bots -------------------------------------------------------------------------------

FAULTY = """
from cardtable.core import Action


class Raiser:
    name = "raiser"

    def __init__(self):
        self.calls = 0

    def choose(self, view, legal, rng):
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("out of ideas")
        return legal[0]


class Illegal:
    name = "illegal"

    def choose(self, view, legal, rng):
        return Action("bogus")
"""


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A package of bots that fail, importable as ``arena_faulty.bots:Class``."""
    root = tmp_path_factory.mktemp("bots")
    (root / "arena_faulty").mkdir()
    (root / "arena_faulty" / "__init__.py").write_text("")
    (root / "arena_faulty" / "bots.py").write_text(textwrap.dedent(FAULTY))
    return root


@pytest.mark.parametrize(
    ("spec", "kind"),
    [("arena_faulty.bots:Raiser", "raised"), ("arena_faulty.bots:Illegal", "illegal")],
)
def test_a_failing_bot_is_reported_with_its_seat_spec_and_record(
    tmp_path: Path, faulty: Path, monkeypatch: pytest.MonkeyPatch, spec: str, kind: str
) -> None:
    monkeypatch.syspath_prepend(str(faulty))
    config = kow(["random", spec], games=4)
    result = run_tournament(config, tmp_path, workers=2)
    assert len(result.failures) == 4 and result.finished == 0 and not result.stopped
    for failed in result.failures:
        failure = failed.failure
        assert failure is not None and failure.kind == kind
        assert failure.spec == spec and failed.seats[failure.seat or 0] == spec
        assert ("out of ideas" if kind == "raised" else "bogus") in failure.error
        # The saved file is the record so far: it replays to the failing bot's turn.
        saved = (tmp_path / str(failure.record_file)).read_text()
        state = cardtable.replay(saved)
        assert state.to_move == failure.seat and len(state.history) == failed.actions
        assert json.loads(saved)["arena"]["specs"] == list(failed.specs)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["failed"] == 4 and {f["spec"] for f in summary["failures"]} == {spec}


def test_on_error_stop_ends_at_the_first_failure_with_finished_games_kept(
    tmp_path: Path, faulty: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(faulty))
    # Two seats, three entries: rotation 0 (easy, random) finishes, rotations 1 and 2 seat
    # Raiser, which fails on its third decision.
    config = ArenaConfig(
        KOW, ("easy", "random", "arena_faulty.bots:Raiser"), games=6, seed=2, options={"players": 2}
    )
    going = run_tournament(config, tmp_path / "continue", on_error="continue", reports=False)
    first_failure = min(o.index for o in going.failures)
    assert going.finished == 2 and len(going.outcomes) == 6 and first_failure == 1
    stopped = run_tournament(config, tmp_path / "stop", on_error="stop", reports=False)
    assert stopped.stopped and [o.index for o in stopped.outcomes] == list(range(first_failure + 1))
    assert lines(tmp_path / "stop") == lines(tmp_path / "continue")[: first_failure + 1]


# Reports -----------------------------------------------------------------------------------


def test_reports_parse_and_agree_with_the_games(tmp_path: Path) -> None:
    result: TournamentResult = run_tournament(kow(["easy", "random", "random"], games=6), tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["scheduled"] == summary["finished"] == 6
    assert [s["entry"] for s in summary["standings"]] == [s.entry for s in result.standings]
    wins: dict[str, float] = {}
    for row in lines(tmp_path):  # win rate per entry from the rules' winners
        for seat, entry in enumerate(row["seats"]):
            wins[entry] = wins.get(entry, 0) + (seat in row["winners"])
    for standing in summary["standings"]:
        assert standing["mean"] == pytest.approx(wins[standing["entry"]] / 6)
        assert standing["low"] <= standing["mean"] <= standing["high"]
    with (tmp_path / "standings.csv").open() as file:
        rows = list(csv.DictReader(file))
    assert {r["entry"] for r in rows} == {"easy", "random", "random#2"}
    assert {"mean", "low", "high", "mu", "sigma", "ordinal"} <= set(rows[0])
    with (tmp_path / "games.csv").open() as file:
        games = list(csv.reader(file))
    assert games[0][:5] == ["game", "deal", "rotation", "deal_seed", "status"]
    assert len(games) == 7 and all(row[4] == "ok" for row in games[1:])
    # The first bot against each other, deal by deal, from the games themselves.
    by_deal: dict[str, dict[int, list[float]]] = {}
    for row in lines(tmp_path):
        for entry, value in row["metrics"].items():
            by_deal.setdefault(entry, {}).setdefault(row["deal"], []).append(value)
    assert [(d["entry"], d["other"]) for d in summary["differences"]] == [
        ("easy", "random"),
        ("easy", "random#2"),
    ]
    for difference in summary["differences"]:
        deals = by_deal["easy"]
        diffs = [
            sum(deals[d]) / len(deals[d]) - sum(v) / len(v)
            for d, v in by_deal[difference["other"]].items()
        ]
        assert difference["mean"] == pytest.approx(sum(diffs) / len(diffs))
        assert difference["deals"] == len(diffs)
    assert (tmp_path / "ratings.png").read_bytes()[:8] == PNG_SIGNATURE


# The command -------------------------------------------------------------------------------


def test_the_command_prints_rates_with_intervals(tmp_path: Path) -> None:
    out = tmp_path / "kryt-navalivat"
    done = run_cli(
        "arena", KRYT_NAVALIVAT, "--players", "3", "--bots", "heuristic,random,random",
        "--games", "6", "--seed", "1", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "loss rate" in done.stdout and "6 of 6 games" in done.stdout
    summary = json.loads((out / "summary.json").read_text())
    for standing in summary["standings"]:
        shown = f"{standing['mean']:.3f} [{standing['low']:.3f}, {standing['high']:.3f}]"
        row = next(line for line in done.stdout.splitlines() if f" {standing['entry']} " in line)
        assert shown in row and f"{standing['mu']:.2f}" in row
    assert "Student-t" in done.stdout and str(out) in done.stdout
    assert "Paired by deal (loss rate" in done.stdout and "heuristic − random#2" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "easy,wizard"], "unknown bot 'wizard'"),
        (["--bots", "easy", "--games", "0"], "games must be 1 or more"),
        (["--bots", "easy", "--games", "-5"], "games must be 1 or more"),
        (["--bots", "easy", "--workers", "0"], "workers must be 1 or more"),
        (["--bots", "ismcts:iterations=0"], "iterations must be a positive"),
        (["--bots", "easy", "--on-error", "shrug"], "on_error must be one of"),
        (["--bots", "easy", "-o", "players"], "KEY=VALUE"),
        (["--bots", "easy", "--max-actions", "0"], "cap on a game's actions must be 1 or more"),
    ],
)
def test_bad_input_exits_2_before_any_game(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "never"
    done = CliRunner().invoke(app, ["arena", KOW, *args, "--out", str(out)])
    assert done.exit_code == 2 and message in done.output
    assert not out.exists()


@pytest.mark.parametrize("bots", ["easy,random", "random,random"])
def test_a_game_past_the_cap_is_stopped_and_scored_a_draw(tmp_path: Path, bots: str) -> None:
    """KRYT-7.7, K-14: Kryt'-navalivat' has no move limit, so the arena caps a game and
    reports the games it stopped. No game of two players ends within 10 actions (the
    stock's 30 cards must be drawn first), so every game here is capped, random bots' too
    (their games are played out in one call, and played again action by action when that
    passes the cap)."""
    out = tmp_path / "t"
    args = [
        "arena",
        KRYT_NAVALIVAT,
        "--players",
        "2",
        "--bots",
        bots,
        "--games",
        "4",
        "--seed",
        "3",
    ]
    done = CliRunner().invoke(app, [*args, "--max-actions", "10", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "4 of 4 games finished" in done.output
    assert "4 games had no result after 10 actions and were scored draws" in done.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["capped"] == [0, 1, 2, 3] and summary["failed"] == 0
    assert summary["config"]["max_actions"] == 10
    for game in lines(out):
        assert game["status"] == "capped" and game["actions"] == 10
        assert game["returns"] == [0.0, 0.0] and game["seat_metrics"] == [0.0, 0.0]
        assert game["places"] == [[0, 1]] and "KRYT-7.7" in game["summary"]
        state = cardtable.replay(game["record"])
        assert len(state.history) == 10 and state.result is None
    # The cap is part of the tournament: resuming without it is refused.
    refused = CliRunner().invoke(app, [*args, "--resume", str(out)])
    assert refused.exit_code == 2 and "max_actions: 10000 != 10" in refused.output


def test_ctrl_c_says_how_to_resume_and_that_command_finishes_the_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtable.arena import tournament

    real = tournament.run_tournament
    out = tmp_path / "t"

    def interrupted(config: ArenaConfig, folder: Path, **kwargs: Any) -> TournamentResult:
        kwargs["progress"] = StopAfter(2, kwargs["progress"])
        return real(config, folder, **kwargs)

    monkeypatch.setattr("cardtable.arena.run_tournament", interrupted)
    args = ["arena", KOW, "--players", "3", "--bots", "easy,random", "--games", "4"]
    done = CliRunner().invoke(app, [*args, "--seed", "3", "--out", str(out)])
    assert done.exit_code == 130 and "2 of 4 games are saved" in done.output
    command = done.output.split("Resume with: ", 1)[1].strip()
    monkeypatch.setattr("cardtable.arena.run_tournament", real)
    again = CliRunner().invoke(app, shlex.split(command)[1:])
    assert again.exit_code == 0 and "4 of 4 games finished" in again.output
    fresh = tmp_path / "fresh"
    assert CliRunner().invoke(app, [*args, "--seed", "3", "--out", str(fresh)]).exit_code == 0
    assert lines(out) == lines(fresh)


def test_report_only_reports_the_whole_deals_a_folder_holds_and_plays_none(
    tmp_path: Path,
) -> None:
    """``--resume F --report-only``: the standings of an unfinished tournament so far, over
    its whole deals (each bot in each seat), its reports written, not one game played;
    without ``--resume`` it is refused."""
    out = tmp_path / "t"
    args = ["arena", KOW, "--players", "3", "--bots", "easy,random", "--games", "6"]
    assert CliRunner().invoke(app, [*args, "--seed", "4", "--out", str(out)]).exit_code == 0
    # 3 deals of 2 rotations: keep deal 0 whole and half of deal 1.
    kept = (out / "games.jsonl").read_text().splitlines(keepends=True)[:3]
    assert [json.loads(line)["deal"] for line in kept] == [0, 0, 1]
    (out / "games.jsonl").write_text("".join(kept))
    (out / "summary.json").unlink()
    done = CliRunner().invoke(app, [*args, "--resume", str(out), "--report-only"])
    assert done.exit_code == 0, done.output
    assert "3 of 6 games already played" in done.output
    assert "2 of 6 games finished" in done.output and "Unfinished. Resume with:" in done.output
    assert (out / "games.jsonl").read_text() == "".join(kept)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["finished"] == 2 and summary["scheduled"] == 6
    assert {row["games"] for row in summary["standings"]} == {2}
    refused = CliRunner().invoke(app, [*args, "--report-only", "--out", str(tmp_path / "n")])
    assert refused.exit_code == 2 and "--report-only" in refused.output


# Ray ---------------------------------------------------------------------------------------


def test_ray_with_two_workers_gives_the_local_results(tmp_path: Path) -> None:
    """One test: a local Ray takes seconds to start."""
    config = kow(["easy", "random", "random"], games=6, seed=8)
    local = run_tournament(config, tmp_path / "local", reports=False)
    on_ray = run_tournament(config, tmp_path / "ray", backend="ray", workers=2, reports=False)
    assert on_ray.finished == 6
    assert lines(tmp_path / "ray") == lines(tmp_path / "local")
    assert on_ray.standings == local.standings


def test_bot_specs_with_parameters_split_from_the_bots_list() -> None:
    """``--bots`` separates bots with commas, and a spec's own parameters too: a piece
    ``key=value`` belongs to the spec before it."""
    from cardtable.cli import split_bot_specs

    assert split_bot_specs("ismcts:iterations=500,rollout=random,easy, random") == (
        "ismcts:iterations=500,rollout=random",
        "easy",
        "random",
    )
    assert split_bot_specs("hard,,easy") == ("hard", "easy")
    assert split_bot_specs("mybots.strong:Bot,ismcts:seconds=0.5") == (
        "mybots.strong:Bot",
        "ismcts:seconds=0.5",
    )
