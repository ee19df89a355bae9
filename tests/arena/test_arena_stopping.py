"""``cardtable arena``: Neuf played one deal per game (``--per-deal``) and the written
stopping rule (``--stop-when-separated MARGIN --min-deals N``), docs/arena.md.

Real tournaments with cheap bots, no mocks. Expected numbers come from the rules (the
records replayed by the engine, NEUF-5.2's ``-(t - quota)``) and from the report's own
statistics recomputed here from ``games.jsonl``, never from what the tournament says.
"""

from __future__ import annotations

import dataclasses
import json
import math
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.arena import (
    ArenaConfig,
    GameOutcome,
    InvalidTournamentError,
    ResumeMismatchError,
    StoppingRule,
    run_tournament,
    schedule,
)
from cardtable.arena.match import play_game
from cardtable.arena.metrics import deal_gains, deal_result, deal_scored
from cardtable.arena.schedule import entry_names
from cardtable.arena.stats import Interval, estimate
from cardtable.cli import app
from cardtable.rules.neuf.state import NeufState

KOW = "knockout-whist"
KRYT_NAVALIVAT = "kryt-navalivat"


def rows(folder: Path) -> list[dict[str, Any]]:
    """The results file's games by index, without their durations."""
    found = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    for row in found:
        del row["duration"]
    return sorted(found, key=lambda r: r["game"])


def neuf_state(record: dict[str, Any]) -> NeufState:
    state = cardtable.replay(record)
    assert isinstance(state, NeufState)
    return state


def duel(
    game: str, games: int, margin: float, min_deals: int, duplicate: bool = True
) -> ArenaConfig:
    """``easy`` against ``random`` at two players: a lopsided match."""
    rule = StoppingRule(margin=margin, min_deals=min_deals)
    players = {"players": 2}
    return ArenaConfig(game, ("easy", "random"), games, 3, players, duplicate, stop=rule)


def intervals_over(folder: Path, deals: int, binary: bool) -> dict[str, Interval]:
    """Each entry's interval over the whole deals ``0 … deals-1`` in ``games.jsonl``,
    grouped by deal as the report does (stats.estimate)."""
    by_deal: dict[str, dict[int, list[float]]] = {}
    for row in rows(folder):
        if row["deal"] < deals and row["status"] == "ok":
            for entry, value in row["metrics"].items():
                by_deal.setdefault(entry, {}).setdefault(row["deal"], []).append(value)
    return {e: estimate(groups.values(), binary) for e, groups in by_deal.items()}


def apart(first: Interval, other: Interval) -> float:
    assert None not in (first.low, first.high, other.low, other.high)
    assert first.low is not None and first.high is not None
    assert other.low is not None and other.high is not None
    return max(first.low - other.high, other.low - first.high)


# One deal per game (Neuf) ------------------------------------------------------------------


def test_per_deal_neuf_plays_the_first_deal_only_and_measures_neuf_5_2(tmp_path: Path) -> None:
    """Three players: every game is one deal (one ledger row, 13 tricks; 3 exchange
    decisions and 39 cards), each seat's value is 4 - its tricks (NEUF-5.2), the result
    ranks the seats by it, and each deal is played under every rotation of the bots."""
    config = ArenaConfig(
        "neuf", ("easy", "random", "heuristic"), games=6, seed=7, options={"players": 3},
        per_deal=True,
    )  # fmt: skip
    result = run_tournament(config, tmp_path)
    assert result.finished == 6 and result.metric.name == "mean score gained per deal"
    assert not result.metric.higher_is_better
    games = rows(tmp_path)  # as saved on disk, the records read back from JSON
    for row in games:
        state = neuf_state(row["record"])
        assert len(state.ledger.rows) == 1 and state.result is None, "one deal, game not over"
        (deal,) = state.ledger.rows
        assert sum(deal.tricks) == 13 and len(state.history) == row["actions"] == 3 + 39
        assert row["seat_metrics"] == [4 - t for t in deal.tricks]
        least = min(row["seat_metrics"])
        assert row["winners"] == [s for s in range(3) if row["seat_metrics"][s] == least]
        assert [row["seat_metrics"][group[0]] for group in row["places"]] == sorted(
            set(row["seat_metrics"])
        )
        assert math.fsum(row["returns"]) == pytest.approx(0.0)
        for entry in entry_names(config.bots):
            seats = [s for s in range(3) if row["seats"][s] == entry]
            assert row["metrics"][entry] == pytest.approx(
                sum(4 - deal.tricks[s] for s in seats) / len(seats)
            )
    for deal_number in (0, 1):  # duplicate deals: the same cards under each rotation
        deal_games = [r for r in games if r["deal"] == deal_number]
        assert sorted(r["rotation"] for r in deal_games) == [0, 1, 2]
        assert len({r["deal_seed"] for r in deal_games}) == 1
        assert len({json.dumps(r["record"]["decks"][0]) for r in deal_games}) == 1
        assert len({r["record"]["options"]["dealer"] for r in deal_games}) == 1
        for seat in range(3):
            assert sorted(r["seats"][seat] for r in deal_games) == ["easy", "heuristic", "random"]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["metric"]["name"] == "mean score gained per deal"
    assert summary["config"]["per_deal"] is True and summary["stopping"] is None


def test_a_per_deal_game_is_the_first_deal_of_the_whole_game() -> None:
    """The same task played whole: its first ledger row is the per-deal game's deal."""
    config = ArenaConfig(
        "neuf", ("easy", "random", "random"), games=3, seed=2, options={"players": 3},
        per_deal=True,
    )  # fmt: skip
    for task in schedule(config, 3):
        one = play_game(task)
        whole = play_game(dataclasses.replace(task, per_deal=False))
        assert one.ok and whole.ok
        first = neuf_state(whole.record).ledger.rows[0]
        assert neuf_state(one.record).ledger.rows == [first]
        assert list(one.seat_metrics) == [4 - t for t in first.tricks]


def test_per_deal_four_players_measures_the_teams_change(tmp_path: Path) -> None:
    """NEUF-8.4: a team's change is 6 - its tricks, both partners alike; one team wins."""
    config = ArenaConfig(
        "neuf", ("easy", "random"), games=4, seed=5, options={"players": 4}, per_deal=True
    )
    run_tournament(config, tmp_path, reports=False)
    for row in rows(tmp_path):
        (deal,) = neuf_state(row["record"]).ledger.rows
        assert len(deal.tricks) == 2 and sum(deal.tricks) == 13
        gains = [6 - deal.tricks[seat % 2] for seat in range(4)]
        assert row["seat_metrics"] == gains
        assert len(row["winners"]) == 2 and row["winners"][1] - row["winners"][0] == 2
        assert sorted(row["returns"]) == [-1.0, -1.0, 1.0, 1.0]


def test_the_house_rule_ending_the_first_deal_gives_the_reported_scores() -> None:
    """NEUF-8.3 / N-7: seat 1 holds every heart (trumps in deal 1, NEUF-2.1), everyone
    keeps, and it takes all 13 tricks: it wins on the last, the hand unscored (no ledger
    row). Its gain is 9 - 13 + 4 = -9 and the others' 0, as the game reports them."""
    game = cardtable.make("neuf", players=3, dealer=0, tie_avoidance=True)
    hearts = [f"{rank}H" for rank in "23456789TJQKA"]
    rest = [f"{rank}{suit}" for suit in "CDS" for rank in "23456789TJQKA"]
    # NEUF-2.3 with dealer 0: card i goes to [seat 1, seat 2, seat 0, spare][i mod 4].
    deck = [card for i in range(13) for card in (hearts[i], *rest[3 * i : 3 * i + 3])]
    state = game.new_state(seed=1, decks=[deck])
    while not deal_scored(state):
        legal = state.legal_actions()
        keep = [a for a in legal if str(a).upper() == "KEEP"]
        state.apply((keep or legal)[0])
    assert isinstance(state, NeufState) and state.ledger.rows == []
    assert deal_gains(state) == [0.0, -9.0, 0.0]
    result = deal_result(state)
    assert result.winners == (1,) and result.places == ((1,), (0, 2))
    assert state.result is not None and result.returns == state.result.returns


@pytest.mark.parametrize(("game", "players"), [(KOW, 3), (KRYT_NAVALIVAT, 2)])
def test_per_deal_is_refused_for_other_games(tmp_path: Path, game: str, players: int) -> None:
    config = ArenaConfig(game, ("easy", "random"), 2, 1, {"players": players}, per_deal=True)
    with pytest.raises(InvalidTournamentError, match="--per-deal is for Neuf only"):
        run_tournament(config, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    args = ["arena", game, "--players", str(players), "--bots", "easy,random", "--per-deal"]
    done = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "cli")])
    assert done.exit_code == 2 and "--per-deal is for Neuf only" in done.output
    assert not (tmp_path / "cli").exists()


# The stopping rule -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "margin", "min_deals", "duplicate"),
    [(KOW, 0.3, 5, True), (KRYT_NAVALIVAT, 0.2, 10, True), (KOW, 0.3, 10, False)],
    ids=[KOW, KRYT_NAVALIVAT, f"{KOW}-no-duplicate"],
)
def test_a_lopsided_match_stops_at_the_first_whole_deal_that_separates(
    tmp_path: Path, game: str, margin: float, min_deals: int, duplicate: bool
) -> None:
    """Checked after each whole deal (a game without duplicate deals) from the minimum on,
    the rule stops at the first whole deal whose intervals are the margin apart."""
    config = duel(game, games=200, margin=margin, min_deals=min_deals, duplicate=duplicate)
    per_deal = 2 if duplicate else 1
    result = run_tournament(config, tmp_path)
    assert result.rule is not None and result.stopped_by_rule and result.rule.met is not None
    deals = result.rule.met.deals
    assert min_deals <= deals and result.finished == per_deal * deals < 200
    assert not result.complete and not result.stopped
    assert {o.deal for o in result.outcomes} == set(range(deals))
    # The report's statistics over those deals, recomputed: separated by the margin now,
    # and not at the deal before (once the minimum was reached).
    binary = result.metric.binary
    now = intervals_over(tmp_path, deals, binary)
    assert apart(now["easy"], now["random"]) >= margin
    if deals > min_deals:
        before = intervals_over(tmp_path, deals - 1, binary)
        assert apart(before["easy"], before["random"]) < margin
    summary = json.loads((tmp_path / "summary.json").read_text())
    stopping = summary["stopping"]
    assert stopping["stopped"] is True and stopping["played_on"] is False
    assert (stopping["margin"], stopping["min_deals"]) == (margin, min_deals)
    assert stopping["met_after_deals"] == stopping["whole_deals"] == deals
    assert stopping["first"] == "easy" and "optional stopping" in stopping["note"]
    assert f"after {deals} deals" in stopping["text"]
    assert summary["finished"] == per_deal * deals and summary["config"]["stop"] == {
        "margin": margin,
        "min_deals": min_deals,
    }
    for standing in summary["standings"]:
        shown = now[standing["entry"]]
        assert (standing["low"], standing["high"]) == pytest.approx((shown.low, shown.high))


def test_an_unreachable_margin_plays_every_game(tmp_path: Path) -> None:
    """A rate's intervals cannot lie 1.5 apart: the rule never fires, all 12 are played."""
    result = run_tournament(duel(KOW, games=12, margin=1.5, min_deals=2), tmp_path)
    assert result.complete and result.finished == 12
    assert result.rule is not None and result.rule.met is None and not result.stopped_by_rule
    stopping = json.loads((tmp_path / "summary.json").read_text())["stopping"]
    assert stopping["stopped"] is False and stopping["met_after_deals"] is None
    assert "was not met" in stopping["text"]


def test_two_workers_stop_after_the_same_deal_with_the_same_numbers(tmp_path: Path) -> None:
    """Games finish out of order with two workers; whole deals are counted in order, so
    the stop and the standings are those of one worker, the games in flight cancelled."""
    config = duel(KOW, games=400, margin=0.3, min_deals=5)
    one = run_tournament(config, tmp_path / "one", reports=False)
    two = run_tournament(config, tmp_path / "two", workers=2, reports=False)
    assert one.rule is not None and two.rule is not None and two.rule.met is not None
    assert one.rule.met == two.rule.met and two.stopped_by_rule
    assert one.standings == two.standings and one.finished == two.finished
    on_disk = rows(tmp_path / "two")
    assert len(on_disk) < 400, "the rest was not played"
    assert two.rule.left_out == sum(r["deal"] >= two.rule.met.deals for r in on_disk)


# Resume ------------------------------------------------------------------------------------


class CtrlC:
    """A progress hook that presses Ctrl-C after ``n`` games; counts what it sees."""

    def __init__(self, n: int | None) -> None:
        self.n, self.seen, self.done = n, 0, -1

    def start(self, total: int, done: int) -> None:
        self.done = done

    def advance(self, outcome: GameOutcome) -> None:
        self.seen += 1
        if self.seen == self.n:
            raise KeyboardInterrupt


def test_the_configuration_round_trips_and_old_files_read_as_before() -> None:
    config = ArenaConfig(
        "neuf", ("easy", "random"), 10, 4, {"players": 3}, per_deal=True,
        stop=StoppingRule(margin=0.25, min_deals=7),
    ).resolved()  # fmt: skip
    saved = config.to_dict()
    assert saved["version"] == 2 and saved["stop"] == {"margin": 0.25, "min_deals": 7}
    assert ArenaConfig.from_dict(json.loads(json.dumps(saved))) == config
    plain = ArenaConfig(KOW, ("easy", "random"), 4, 1, {"players": 2}).resolved()
    assert plain.to_dict()["version"] == 1
    old = {k: v for k, v in plain.to_dict().items() if k not in ("per_deal", "stop")}
    assert ArenaConfig.from_dict(old) == plain, "a file from before reads as no per-deal, no rule"
    assert plain.differences(config.resolved()) != []
    assert dataclasses.replace(config, stop=None).differences(config) == [
        "stop: None != {'margin': 0.25, 'min_deals': 7}"
    ]


def test_an_interrupted_rule_tournament_resumes_to_the_same_stop(tmp_path: Path) -> None:
    config = duel(KOW, games=100, margin=0.3, min_deals=5)
    whole = run_tournament(config, tmp_path / "whole", reports=False)
    part = tmp_path / "part"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, part, progress=CtrlC(7), reports=False)
    with pytest.raises(ResumeMismatchError, match="stop:"):
        run_tournament(duel(KOW, games=100, margin=0.2, min_deals=5), part, resume=True)
    with pytest.raises(ResumeMismatchError, match="stop:"):
        run_tournament(dataclasses.replace(config, stop=None), part, resume=True)
    saved = ArenaConfig.from_dict(json.loads((part / "arena.json").read_text()))
    assert saved.stop == config.stop
    resumed = run_tournament(config, part, resume=True)
    assert resumed.rule == whole.rule and resumed.standings == whole.standings
    assert rows(part) == rows(tmp_path / "whole")
    # A stopped tournament, resumed, plays nothing and reports the same stop.
    hook = CtrlC(None)
    again = run_tournament(config, part, resume=True, progress=hook)
    assert hook.seen == 0 and again.stopped_by_rule and again.standings == whole.standings
    # --play-on plays the rest, and the folder remembers it.
    with pytest.raises(InvalidTournamentError, match="--resume"):
        run_tournament(config, tmp_path / "new", play_on=True)
    on = run_tournament(config, part, resume=True, play_on=True)
    assert on.complete and on.rule is not None and on.rule.played_on and not on.stopped_by_rule
    assert whole.rule is not None and on.rule.met == whole.rule.met
    later = run_tournament(config, part, resume=True, play=False)
    assert later.complete and later.finished == 100 and not later.stopped_by_rule
    stopping = json.loads((part / "summary.json").read_text())["stopping"]
    assert stopping["played_on"] is True and stopping["stopped"] is False


# The command -------------------------------------------------------------------------------


def test_the_command_stops_says_so_and_its_resume_command_plays_nothing_more(
    tmp_path: Path,
) -> None:
    out = tmp_path / "t"
    args = ["arena", KRYT_NAVALIVAT, "--players", "2", "--bots", "easy,random", "--games", "60"]
    rule = ["--stop-when-separated", "0.2", "--min-deals", "10"]
    done = CliRunner().invoke(app, [*args, *rule, "--seed", "3", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "Stopped early by the stopping rule" in done.output
    assert "at least 0.2 from every other's" in done.output and "once 10 are done" in done.output
    assert "optional stopping" in done.output
    command = done.output.split("all the same: ", 1)[1].split("\n", 1)[0].strip()
    words = shlex.split(command)
    assert words[-1] == "--play-on" and "--stop-when-separated" in words
    assert words[words.index("--min-deals") + 1] == "10"
    stopping = json.loads((out / "summary.json").read_text())["stopping"]
    before = (out / "games.jsonl").read_text()
    again = CliRunner().invoke(app, words[1:-1])  # the resume, without --play-on
    assert again.exit_code == 0 and "Stopped early" in again.output
    assert (out / "games.jsonl").read_text() == before
    assert json.loads((out / "summary.json").read_text())["stopping"] == stopping
    on = CliRunner().invoke(app, words[1:])
    assert on.exit_code == 0 and "60 of 60 games finished" in on.output
    assert "played on past it (--play-on)" in on.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--stop-when-separated", "-0.1"], "margin (--stop-when-separated) must be a number 0"),
        (["--stop-when-separated", "nan"], "margin (--stop-when-separated) must be a number 0"),
        (["--stop-when-separated", "inf"], "margin (--stop-when-separated) must be a number 0"),
        (["--stop-when-separated", "wide"], "Invalid value"),
        (["--stop-when-separated", "0.1", "--min-deals", "0"], "(--min-deals) must be 1 or more"),
        (["--stop-when-separated", "0.1", "--min-deals", "-3"], "(--min-deals) must be 1"),
        (["--min-deals", "10"], "--min-deals goes with --stop-when-separated"),
        (["--play-on"], "--play-on plays on a stopped tournament"),
    ],
)
def test_bad_stopping_options_exit_2_before_any_game(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "never"
    base = ["arena", KOW, "--players", "2", "--bots", "easy,random", "--games", "4"]
    done = CliRunner().invoke(app, [*base, *args, "--out", str(out)])
    assert done.exit_code == 2 and message in done.output
    assert not out.exists()


def test_a_stopping_rule_needs_two_bots_and_play_on_a_rule(tmp_path: Path) -> None:
    lone = ArenaConfig(KOW, ("easy",), 4, 1, {"players": 2}, stop=StoppingRule(0.1, 5))
    with pytest.raises(InvalidTournamentError, match="at least two bots"):
        run_tournament(lone, tmp_path / "lone")
    plain = ArenaConfig(KOW, ("easy", "random"), 2, 1, {"players": 2})
    run_tournament(plain, tmp_path / "plain", reports=False)
    with pytest.raises(InvalidTournamentError, match="has none"):
        run_tournament(plain, tmp_path / "plain", resume=True, play_on=True)
    assert not (tmp_path / "lone").exists()
