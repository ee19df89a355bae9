"""Smoke tests for ``benchmarks/engine.py``: tiny sizes, no timing asserted.

They check that the benchmark plays the games it claims (complete games, ended as
KOW-5.2 / KOW-7, NEUF-6 and KRYT-7.2 say), counts exactly the player decisions it applied, and
computes its ratios, each game against its own OpenSpiel baseline, as documented. Speed
is the benchmark's business, not the tests'.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import cardtable
from scripts_loader import load_script

engine = load_script("benchmarks/engine.py")

try:
    import pyspiel  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - open-spiel is an optional extra
    pyspiel = None

needs_pyspiel = pytest.mark.skipif(pyspiel is None, reason="open-spiel is not installed")


def chance_nodes_of_a_random_game(game: Any, seed: int) -> int:
    """Play ``game`` (pyspiel) to the end at random, asserting that every chance node gives
    its outcomes equal probability (the driver samples them with ``rng.choice``); returns
    how many chance nodes there were."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            probabilities = [p for _, p in state.chance_outcomes()]
            assert max(probabilities) - min(probabilities) < 1e-12
            seen += 1
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return seen


def chance_in_history(played: Any) -> int:
    """The chance events in a finished OpenSpiel game's own history, asserting that the
    driver counted the same chance events and the rest as decisions."""
    history = played.state.full_history()
    chance = sum(1 for step in history if step.player == pyspiel.PlayerId.CHANCE)
    assert played.chance == chance and played.decisions == len(history) - chance
    return chance


SEEDS = (0, 1)


def _count_decisions_unchecked(players: int, seed: int) -> tuple[int, str]:
    """An independent random game with the benchmark's seeding: decisions and final position."""
    game = cardtable.make("knockout-whist", players=players, dealer=0)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    count = 0
    while state.to_move is not None:
        state.apply_id(rng.choice(state.legal_action_ids()))
        count += 1
    return count, state.position()


@pytest.mark.parametrize("players", [3, 5, 7])
@pytest.mark.parametrize("path", ["checked", "unchecked"])
def test_kow7_benchmark_games_end_with_one_winner_and_count_every_decision(
    players: int, path: str
) -> None:
    """KOW-5.2 / KOW-7: each benchmark game is played to its end, one winner left; the
    decisions counted equal those recorded and those of an independent replay of the seed."""
    play = engine.play_checked if path == "checked" else engine.play_unchecked
    game = engine.knockout_whist(players)
    for seed in SEEDS:
        played = play(game, seed)
        state = played.state
        assert state.is_over and state.to_move is None
        result = state.result
        assert result is not None and len(result.winners) == 1
        record = state.record()
        assert played.decisions == len(record.actions) > 0
        assert played.chance == 0
        expected, position = _count_decisions_unchecked(players, seed)
        assert played.decisions == expected
        # Same seed, same choices: both paths must play the very same game.
        assert state.position() == position
        assert cardtable.replay(record).position() == position


def _playout_length(players: int, seed: int) -> int:
    """Decisions of an independent playout with the benchmark's seeding, from the record."""
    state = cardtable.make("knockout-whist", players=players, dealer=0).new_state(seed=seed)
    state.playout(random.Random(seed))
    return len(state.record().actions)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_kow7_playout_path_plays_whole_games_and_counts_every_decision(players: int) -> None:
    """KOW-5.2 / KOW-7: a playout ends the game with one winner; its decisions are the
    recorded actions, and the record replays, every action checked, to the same state."""
    game = engine.knockout_whist(players)
    for seed in SEEDS:
        played = engine.play_playout(game, seed)
        state = played.state
        assert state.is_over and state.result is not None
        assert played.decisions == _playout_length(players, seed) > 0
        assert cardtable.replay(state.record()).position() == state.position()


def test_kow7_play_all_sums_the_decisions_of_its_games() -> None:
    """KOW-7: ``play_all`` reports the total decisions of the complete games it played."""
    case = engine.Case("cardtable", "checked", 3, engine.knockout_whist(3), engine.play_checked)
    seconds, decisions, chance = engine.play_all(case, SEEDS)
    assert seconds > 0
    assert decisions == sum(_count_decisions_unchecked(3, s)[0] for s in SEEDS)
    assert chance == 0


@needs_pyspiel
@pytest.mark.parametrize("players", [3, 5])
def test_oh_hell_chance_nodes_are_uniform_so_the_driver_may_sample_with_choice(
    players: int,
) -> None:
    """The driver draws chance outcomes with ``rng.choice``; that is fair only because every
    chance node of oh_hell gives its outcomes equal probability."""
    game = engine.load_open_spiel(players)
    assert game is not None
    assert chance_nodes_of_a_random_game(game, 3) > 0


@needs_pyspiel
@pytest.mark.parametrize("players", [3, 5])
def test_oh_hell_driver_plays_complete_games_and_counts_decisions_apart_from_chance(
    players: int,
) -> None:
    """The OpenSpiel side of the comparison: complete oh_hell games, with decisions and
    chance events matching OpenSpiel's own history of the game."""
    game = engine.load_open_spiel(players)
    assert game is not None
    for seed in SEEDS:
        played = engine.play_open_spiel(game, seed)
        assert played.state.is_terminal()
        assert chance_in_history(played) > 0
        # Every player bids once, then plays one card to each of the fixed 7 tricks.
        assert played.decisions == players + players * engine.OPENSPIEL_TRICKS


@needs_pyspiel
def test_measure_returns_positive_counts_for_every_path_with_open_spiel() -> None:
    """KOW-7: tiny ``measure`` run; both our paths and OpenSpiel measured, counts exact."""
    results = engine.measure(
        games=2,
        runs=2,
        players=(3,),
        open_spiel_players=(3,),
        neuf_players=(),
        kryt_navalivat_players=(),
    )
    by_path = {(m.engine, m.path): m for m in results}
    assert set(by_path) == {
        ("cardtable", "checked"),
        ("cardtable", "unchecked"),
        ("cardtable", "playout"),
        ("cardtable", "reference"),
        ("open_spiel", "python loop"),
    }
    ours = sum(_count_decisions_unchecked(3, s)[0] for s in SEEDS)
    for m in results:
        assert m.games == 2 and len(m.seconds) == 2
        assert all(s > 0 for s in m.seconds)
        assert m.us_per_action > 0 and m.games_per_second > 0
    assert by_path["cardtable", "checked"].decisions == ours
    assert by_path["cardtable", "unchecked"].decisions == ours
    assert by_path["cardtable", "playout"].decisions == sum(_playout_length(3, s) for s in SEEDS)
    assert by_path["open_spiel", "python loop"].decisions == 2 * (3 + 3 * 7)
    found = engine.ratios(results)
    kow = engine.KNOCKOUT_WHIST
    assert set(found) == {
        (kow, "checked", 3),
        (kow, "unchecked", 3),
        (kow, "playout", 3),
        (kow, "reference", 3),
    }
    assert found[kow, "checked", 3].target == engine.CHECKED_TARGET
    assert found[kow, "playout", 3].target is None
    assert found[kow, "unchecked", 3].target is None and found[kow, "unchecked", 3].met is None
    assert all(len(r.per_run) == 2 and r.median > 0 for r in found.values())


def test_ratio_is_ours_over_open_spiel_per_decision_paired_by_run() -> None:
    """The documented ratio: (our seconds / our decisions) / (theirs / their decisions),
    run by run, then the median; below 1 means faster than OpenSpiel."""
    ours = engine.Measurement("cardtable", "checked", 5, 10, 100, 0, [2.0, 3.0, 1.0])
    theirs = engine.Measurement(
        "open_spiel", "python loop", 5, 10, 400, 380, [4.0, 4.0, 4.0], "oh_hell(7)"
    )
    found = engine.ratios([ours, theirs])
    ratio = found[engine.KNOCKOUT_WHIST, "checked", 5]
    # 0.02 s against 0.01 s per decision in run one, and so on.
    assert ratio.per_run == pytest.approx((2.0, 3.0, 1.0))
    assert ratio.median == pytest.approx(2.0)
    assert not ratio.met
    assert "NOT met" in engine.verdicts(found)[0]
    assert ours.us_per_action == pytest.approx(2.0 / 100 * 1e6)
    assert ours.games_per_second == pytest.approx(10 / 2.0)


def test_ratios_skip_player_counts_that_open_spiel_did_not_play() -> None:
    """Only matching player counts are compared (7-player Knockout Whist has no partner)."""
    ours = engine.Measurement("cardtable", "unchecked", 7, 2, 50, 0, [1.0])
    theirs = engine.Measurement("open_spiel", "python loop", 5, 2, 80, 76, [1.0], "oh_hell(7)")
    assert engine.ratios([ours, theirs]) == {}


def test_measure_rejects_empty_sizes() -> None:
    """A benchmark of no games has no per-action cost; it must say so, not divide by zero."""
    with pytest.raises(ValueError, match="at least 1"):
        engine.measure(games=0, runs=1)


def test_main_writes_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """KOW-7: the command line end to end at tiny size, table printed and JSON written."""
    out = tmp_path / "bench.json"
    assert engine.main(["--games", "1", "--runs", "1", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "us/action" in printed and "Target" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["runs"] == 1
    measured = {(m["engine"], m["path"], m["players"]) for m in data["measurements"]}
    for n in engine.NEUF_PLAYERS:
        assert ("cardtable", "playout", n) in measured
    games = {(m["game"], m["path"], m["players"]) for m in data["measurements"]}
    for n in engine.KRYT_NAVALIVAT_PLAYERS:
        for path in ("checked", "unchecked", "playout", "reference"):
            assert (engine.KRYT_NAVALIVAT, path, n) in games
    for n in engine.OUR_PLAYERS:
        assert ("cardtable", "checked", n) in measured
        assert ("cardtable", "unchecked", n) in measured
        assert ("cardtable", "playout", n) in measured
    assert all(m["decisions"] > 0 for m in data["measurements"])
    assert data["open_spiel_measured"] is (pyspiel is not None)
    if pyspiel is not None:
        assert "ours / OpenSpiel" in printed
        paths = ("checked", "unchecked", "playout", "reference")
        assert {(r["game"], r["path"], r["players"]) for r in data["ratios"]} == {
            (engine.KNOCKOUT_WHIST, p, n) for p in paths for n in engine.OPENSPIEL_PLAYERS
        } | {(engine.NEUF, p, n) for p in paths for n in engine.NEUF_PLAYERS} | {
            (engine.KRYT_NAVALIVAT, p, n) for p in paths for n in engine.KRYT_NAVALIVAT_PLAYERS
        }
        baselines = {(r["game"], r["players"]): r["baseline"] for r in data["ratios"]}
        assert baselines[engine.NEUF, 3] == "oh_hell(13)"
        assert baselines[engine.NEUF, 4] == "hearts"
        assert all(
            baselines[engine.KRYT_NAVALIVAT, n] == "crazy_eights"
            for n in engine.KRYT_NAVALIVAT_PLAYERS
        )


def test_without_pyspiel_the_report_says_open_spiel_was_not_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without open-spiel the benchmark still measures our engine and says what it skipped."""
    monkeypatch.setattr(engine, "load_open_spiel", lambda players: None)
    monkeypatch.setattr(engine, "load_open_spiel_for_neuf", lambda players: None)
    monkeypatch.setattr(engine, "load_open_spiel_for_kryt_navalivat", lambda players: None)
    results = engine.measure(
        games=1, runs=1, players=(3,), neuf_players=(3,), kryt_navalivat_players=(2,)
    )
    assert {m.engine for m in results} == {"cardtable"}
    text = engine.render(results, runs=1)
    assert "OpenSpiel was not measured" in text
    assert engine.ratios(results) == {}


@pytest.mark.parametrize("path", ["checked", "unchecked", "playout"])
def test_instruction_count_workload_plays_the_engine_benchmark_games(path: str) -> None:
    """``instructions.py`` counts the decisions of the very games ``engine.py`` times."""
    instructions = load_script("benchmarks/instructions.py")
    expected = (
        sum(_playout_length(3, s) for s in SEEDS)
        if path == "playout"
        else sum(_count_decisions_unchecked(3, s)[0] for s in SEEDS)
    )
    assert instructions.workload(path, 3, len(SEEDS)) == expected


# Neuf -----------------------------------------------------------------------------------------


def _neuf_unchecked(players: int, seed: int) -> tuple[int, str]:
    """An independent random Neuf game with the benchmark's seeding and first dealer."""
    state = cardtable.make("neuf", players=players, dealer=0).new_state(seed=seed)
    rng = random.Random(seed)
    count = 0
    while state.to_move is not None:
        state.apply_id(rng.choice(state.legal_action_ids()))
        count += 1
    return count, state.position()


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("path", ["checked", "unchecked", "playout"])
def test_neuf6_benchmark_games_end_with_a_winner_and_count_every_decision(
    players: int, path: str
) -> None:
    """NEUF-6 / NEUF-11.8: each Neuf benchmark game is played to its end (a winner, at most
    25 or 17 deals); the decisions counted are the recorded actions, the record replays to
    the same state, and the step paths play the same game as an independent loop."""
    play = {
        "checked": engine.play_checked,
        "unchecked": engine.play_unchecked,
        "playout": engine.play_playout,
    }[path]
    game = engine.neuf(players)
    for seed in SEEDS:
        played = play(game, seed)
        state = played.state
        assert state.is_over and state.to_move is None
        result = state.result
        assert result is not None and 1 <= len(result.winners) <= 2
        assert len(state.view(None)["ledger"]) <= (25 if players == 3 else 17)
        record = state.record()
        assert played.decisions == len(record.actions) > 0 and played.chance == 0
        assert cardtable.replay(record).position() == state.position()
        if path != "playout":
            assert (played.decisions, state.position()) == _neuf_unchecked(players, seed)


@needs_pyspiel
def test_neuf_baselines_are_oh_hell_with_13_tricks_and_hearts() -> None:
    """3-player Neuf is set beside oh_hell with 13 tricks (one bid and 13 cards each: 42
    decisions); 4-player Neuf beside hearts, which is 4-player only: 52 cards played, plus
    3 cards passed by each player (12 decisions) unless the deal's pass direction is none.
    Every chance node of both is uniform, so ``rng.choice`` samples them fairly."""
    oh_hell = engine.load_open_spiel_for_neuf(3)
    hearts = engine.load_open_spiel_for_neuf(4)
    assert oh_hell is not None and hearts is not None
    assert oh_hell.get_parameters()["num_tricks_fixed"] == 13
    assert hearts.num_players() == 4 and str(hearts).startswith("hearts")
    assert engine.baseline_name(engine.NEUF, 3) == "oh_hell(13)"
    assert engine.baseline_name(engine.NEUF, 4) == "hearts"
    hearts_counts = set()
    for seed in range(6):
        assert engine.play_open_spiel(oh_hell, seed).decisions == 3 + 3 * 13
        played = engine.play_open_spiel(hearts, seed)
        assert played.state.is_terminal()
        chance_in_history(played)
        hearts_counts.add(played.decisions)
    assert hearts_counts <= {52, 64} and 64 in hearts_counts
    for game in (oh_hell, hearts):
        chance_nodes_of_a_random_game(game, 1)


def test_neuf_ratios_use_their_own_baseline_not_knockout_whists() -> None:
    """Neuf at 3 players is divided by oh_hell(13), even when oh_hell(7) was also measured
    at 3 players for Knockout Whist; Neuf at 4 by hearts. Neuf has no target."""
    neuf3 = engine.Measurement("cardtable", "checked", 3, 1, 100, 0, [1.0], engine.NEUF)
    neuf4 = engine.Measurement("cardtable", "playout", 4, 1, 100, 0, [3.0], engine.NEUF)
    kow3 = engine.Measurement("cardtable", "checked", 3, 1, 100, 0, [1.0])
    oh7 = engine.Measurement("open_spiel", "python loop", 3, 1, 100, 0, [4.0], "oh_hell(7)")
    oh13 = engine.Measurement("open_spiel", "python loop", 3, 1, 100, 0, [2.0], "oh_hell(13)")
    hearts = engine.Measurement("open_spiel", "python loop", 4, 1, 50, 0, [1.0], "hearts")
    found = engine.ratios([neuf3, neuf4, kow3, oh7, oh13, hearts])
    assert set(found) == {
        (engine.NEUF, "checked", 3),
        (engine.NEUF, "playout", 4),
        (engine.KNOCKOUT_WHIST, "checked", 3),
    }
    assert found[engine.NEUF, "checked", 3].median == pytest.approx(0.5)
    assert found[engine.NEUF, "checked", 3].baseline == "oh_hell(13)"
    assert found[engine.KNOCKOUT_WHIST, "checked", 3].median == pytest.approx(0.25)
    # (3 s / 100) / (1 s / 50) = 1.5
    assert found[engine.NEUF, "playout", 4].median == pytest.approx(1.5)
    assert found[engine.NEUF, "playout", 4].target is None
    assert found[engine.KNOCKOUT_WHIST, "checked", 3].target == engine.CHECKED_TARGET
    lines = engine.verdicts(found)
    assert any(line.startswith("neuf playout path, 4 players: 1.50x hearts") for line in lines)


@needs_pyspiel
def test_measure_with_neuf_measures_each_baseline() -> None:
    """A tiny Neuf-only ``measure``: our four paths at 3 and 4 players, oh_hell(13) at 3
    and hearts at 4, with the decisions of the very games the loops play."""
    results = engine.measure(
        games=1,
        runs=1,
        players=(),
        open_spiel_players=(),
        neuf_players=(3, 4),
        kryt_navalivat_players=(),
    )
    got = {(m.engine, m.game, m.path, m.players) for m in results}
    assert got == {
        ("cardtable", engine.NEUF, p, n)
        for p in ("checked", "unchecked", "playout", "reference")
        for n in (3, 4)
    } | {
        ("open_spiel", "oh_hell(13)", "python loop", 3),
        ("open_spiel", "hearts", "python loop", 4),
    }
    for m in results:
        if m.engine == "cardtable" and m.path == "unchecked":
            assert m.decisions == _neuf_unchecked(m.players, 0)[0]
    assert len(engine.ratios(results)) == 8


# Kryt'-navalivat' -----------------------------------------------------------------------------


def _kryt_navalivat_unchecked(players: int, seed: int) -> tuple[int, str]:
    """An independent random Kryt'-navalivat' hand with the benchmark's seeding and dealer."""
    state = cardtable.make("kryt-navalivat", players=players, dealer=0).new_state(seed=seed)
    rng = random.Random(seed)
    count = 0
    while state.to_move is not None:
        state.apply_id(rng.choice(state.legal_action_ids()))
        count += 1
    return count, state.position()


@pytest.mark.parametrize("players", engine.KRYT_NAVALIVAT_PLAYERS)
@pytest.mark.parametrize("path", ["checked", "unchecked", "playout"])
def test_kryt_navalivat_7_benchmark_games_end_with_a_fool_or_a_draw_and_count_every_decision(
    players: int, path: str
) -> None:
    """KRYT-7.2 / KRYT-7.3 / KRYT-11.8: each benchmark hand is played to its end (the stock
    empty, one seat the fool or a draw); the decisions counted are the recorded actions,
    the record replays to the same state, and the step paths play the same hand as an
    independent loop."""
    play = {
        "checked": engine.play_checked,
        "unchecked": engine.play_unchecked,
        "playout": engine.play_playout,
    }[path]
    game = engine.kryt_navalivat(players)
    for seed in SEEDS:
        played = play(game, seed)
        state = played.state
        assert state.is_over and state.to_move is None
        result = state.result
        assert result is not None
        view = state.view(None)
        assert view["stock"] == 0 and sum(1 for size in view["hand_sizes"] if size) == 1
        if view["draw"]:
            assert result.winners == () and view["loser"] is None
        else:
            assert len(result.winners) == players - 1 and view["loser"] not in result.winners
        record = state.record()
        assert played.decisions == len(record.actions) > 0 and played.chance == 0
        assert cardtable.replay(record).position() == state.position()
        if path != "playout":
            assert (played.decisions, state.position()) == _kryt_navalivat_unchecked(players, seed)


@needs_pyspiel
@pytest.mark.parametrize("players", engine.KRYT_NAVALIVAT_PLAYERS)
def test_crazy_eights_baseline_plays_complete_games_with_uniform_chance(players: int) -> None:
    """Kryt'-navalivat' is set beside crazy_eights at the same player count: complete games,
    decisions and chance events as in OpenSpiel's own history, and every chance node
    uniform, so ``rng.choice`` samples them fairly."""
    game = engine.load_open_spiel_for_kryt_navalivat(players)
    assert game is not None and game.num_players() == players
    assert str(game).startswith("crazy_eights")
    assert engine.baseline_name(engine.KRYT_NAVALIVAT, players) == "crazy_eights"
    for seed in SEEDS:
        played = engine.play_open_spiel(game, seed)
        assert played.state.is_terminal()
        assert chance_in_history(played) > 0 and played.decisions > 0
    chance_nodes_of_a_random_game(game, 1)


def test_kryt_navalivat_ratios_use_crazy_eights_and_the_checked_path_has_the_target() -> None:
    """Kryt'-navalivat' is divided by crazy_eights at its own player count only; its checked
    path is held to the public loop's target as every game's is."""
    ours = engine.Measurement("cardtable", "checked", 2, 1, 200, 0, [2.0], engine.KRYT_NAVALIVAT)
    other = engine.Measurement("cardtable", "playout", 3, 1, 100, 0, [1.0], engine.KRYT_NAVALIVAT)
    eights = engine.Measurement("open_spiel", "python loop", 2, 1, 50, 30, [1.0], "crazy_eights")
    oh7 = engine.Measurement("open_spiel", "python loop", 3, 1, 100, 0, [4.0], "oh_hell(7)")
    found = engine.ratios([ours, other, eights, oh7])
    assert set(found) == {(engine.KRYT_NAVALIVAT, "checked", 2)}
    # (2 s / 200) / (1 s / 50) = 0.5
    assert found[engine.KRYT_NAVALIVAT, "checked", 2].median == pytest.approx(0.5)
    assert found[engine.KRYT_NAVALIVAT, "checked", 2].target == engine.CHECKED_TARGET
    assert engine.verdicts(found) == [
        "kryt-navalivat checked path, 2 players: 0.50x crazy_eights (runs 0.50-0.50x); "
        "target <= 0.30x NOT met"
    ]


@needs_pyspiel
def test_measure_with_kryt_navalivat_measures_crazy_eights_beside_it() -> None:
    """A tiny ``measure`` of Kryt'-navalivat' alone: our four paths and crazy_eights at 2
    players."""
    results = engine.measure(
        games=1,
        runs=1,
        players=(),
        open_spiel_players=(),
        neuf_players=(),
        kryt_navalivat_players=(2,),
    )
    got = {(m.engine, m.game, m.path, m.players) for m in results}
    assert got == {
        ("cardtable", engine.KRYT_NAVALIVAT, p, 2)
        for p in ("checked", "unchecked", "playout", "reference")
    } | {("open_spiel", "crazy_eights", "python loop", 2)}
    unchecked = next(m for m in results if m.path == "unchecked")
    assert unchecked.decisions == _kryt_navalivat_unchecked(2, 0)[0]
    assert len(engine.ratios(results)) == 4
