"""One rating scale for the levels: ``benchmarks/ratings.py`` plays its round robins with the
real arena (resumable) and rates every game of a game's folders in one pass; the shipped
``cardtable/bots/ratings.json`` rates each level of each game, in the order of strength the
levels are built for, and ``/api/games`` hands it to the lobby."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardtable
from cardtable.bots.base import LEVELS
from cardtable.bots.ratings import level_ratings, rated_players
from scripts_loader import load_script
from server_pieces import serving

ratings_script = load_script("benchmarks/ratings.py")


def test_a_round_robin_is_played_resumed_and_rated_across_its_orders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ratings_script, "RESULTS", tmp_path)
    robin = ratings_script.RoundRobin(
        "kryt-navalivat", 2, (("random", "easy", "medium"), ("random", "medium", "easy")), 2
    )
    ratings_script.play(robin, workers=1)
    lines = [
        (robin.folder(k) / "games.jsonl").read_text().splitlines() for k in range(len(robin.orders))
    ]
    assert [len(found) for found in lines] == [6, 6]  # 2 deals × 3 rotations an order
    # Played again, the finished folders are resumed: nothing is played twice.
    ratings_script.play(robin, workers=1)
    assert [len((robin.folder(k) / "games.jsonl").read_text().splitlines()) for k in range(2)] == [
        6,
        6,
    ]
    played = ratings_script.outcomes(robin)
    assert [g.index for g in played] == list(range(12))
    rated = ratings_script.ratings(robin)
    assert set(rated) == {"random", "easy", "medium"}
    for entry, r in rated.items():
        assert r["low"] < r["mu"] < r["high"], entry
        # With 2 seats and 3 entries every rotation leaves one out: each plays 2 of 3.
        assert r["games"] == 8, entry
    assert list(rated) == sorted(rated, key=lambda e: -rated[e]["mu"])


def test_rate_writes_what_the_lobby_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ratings_script, "RESULTS", tmp_path)
    monkeypatch.setattr(ratings_script, "SHIPPED", tmp_path / "ratings.json")
    robin = ratings_script.RoundRobin("knockout-whist", 3, (("random", "easy", "medium"),), 1)
    monkeypatch.setattr(ratings_script, "ROUND_ROBINS", (robin,))
    # A game rated before whose games are not here keeps its ratings; the one played is new.
    before = {"neuf": {"players": 3, "levels": {"random": {"mu": 15.2}}}}
    (tmp_path / "ratings.json").write_text(json.dumps(before))
    ratings_script.play(robin, workers=1)
    ratings_script.main(["rate", "--write"])
    out = capsys.readouterr().out
    assert "| `easy` |" in out and "knockout-whist, 3 players" in out
    assert "kept as they were: neuf" in out
    written = json.loads((tmp_path / "ratings.json").read_text())
    assert set(written) == {"knockout-whist", "neuf"} and written["neuf"] == before["neuf"]
    assert written["knockout-whist"]["players"] == 3
    assert set(written["knockout-whist"]["levels"]) == {"random", "easy", "medium"}


def test_every_level_of_each_rated_game_is_rated_in_its_order_of_strength() -> None:
    rated_games = [game for game in cardtable.games() if level_ratings(game)]
    assert rated_games, "ratings.json rates no game"
    for game in rated_games:
        rated = level_ratings(game)
        assert set(rated) >= {"random", *LEVELS}, game
        for level, r in rated.items():
            assert r["low"] < r["mu"] < r["high"] and r["games"] > 0, (game, level)
        # The levels are built to be stronger in this order; the round robin must agree
        # where they differ by construction (random, a heuristic, then search).
        assert rated["random"]["mu"] < rated["easy"]["mu"] < rated["hard"]["mu"], game
        assert rated["medium"]["mu"] < rated["hard"]["mu"], game


def test_the_games_api_gives_each_levels_rating(tmp_path: Path) -> None:
    with serving(tmp_path / "tables.db") as client:
        games = {item["name"]: item for item in client.get("/api/games").json()}
    for name, item in games.items():
        shipped = level_ratings(name)
        assert item["ratings"] == shipped
        assert item["ratings_players"] == rated_players(name)
        assert (rated_players(name) is None) == (not shipped)
        # A game the round robin has not rated yet shows its levels without a rating.
        assert set(item["ratings"]) == ({"random", *LEVELS} if shipped else set())
