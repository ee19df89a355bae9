"""One rating scale for the bots' levels: a round robin of ``random``, ``easy``, ``medium``,
``hard`` and ``expert`` in each game (and the trained agent of ``examples/`` in Knockout
Whist, the game it plays), rated with OpenSkill (Plackett-Luce) over all its games.

    .venv/bin/python benchmarks/ratings.py play            # resumable: run it again
    .venv/bin/python benchmarks/ratings.py play --game neuf --deals 10
    .venv/bin/python benchmarks/ratings.py rate            # the table; --write ships it

``play`` runs arena tournaments (``cardtable.arena.run_tournament``) of duplicate deals into
``benchmarks/results/ratings/<game>-<players>-<k>/`` (seed 2, both cores), each picking up
where it stopped: an interrupted run loses at most the games under way. With more entries than
seats the arena seats them in rotations (``schedule.lineup``): with 3 seats, the rotations
of one order put every pair of the five levels at a table together; with 2 seats one order
meets only neighbours, so Kryt'-navalivat' plays two orders whose neighbours between them
are every pair.

``rate`` reads every finished game of a game's folders, rates the entries in one pass (the
folders in order, each in its games' order), and prints each level's rating ``mu`` with
its 95% interval (``mu ± 1.96·sigma``). ``--write`` writes them to
``src/cardtable/bots/ratings.json``, which the lobby shows beside each level.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cardtable.arena import ArenaConfig, run_tournament
from cardtable.arena.match import GameOutcome
from cardtable.arena.ratings import rate
from cardtable.arena.store import CONFIG_FILE, ResultStore

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "ratings"
SHIPPED = ROOT / "src" / "cardtable" / "bots" / "ratings.json"
LEVELS = ("random", "easy", "medium", "hard", "expert")
AGENT = "examples.knockout_whist_agent:Agent"


@dataclass(frozen=True)
class RoundRobin:
    """One game's round robin: the arena runs (one order of entries each) it is made of."""

    game: str
    players: int
    orders: tuple[tuple[str, ...], ...]
    deals: int
    """Duplicate deals an order, each played under every rotation."""
    per_deal: bool = False

    def folder(self, k: int) -> Path:
        return RESULTS / f"{self.game}-{self.players}-{k}"

    def config(self, k: int, deals: int) -> ArenaConfig:
        """Order ``k``'s tournament: ``deals`` duplicate deals, every one under every
        rotation."""
        order = self.orders[k]
        return ArenaConfig(
            self.game,
            order,
            games=deals * len(order),
            seed=2,
            options={"players": self.players},
            per_deal=self.per_deal,
        )


ROUND_ROBINS = (
    # A game takes a second or two: 2,400 games in about 8 minutes on two cores.
    RoundRobin("knockout-whist", 3, ((*LEVELS, AGENT),), 400),
    # One deal a game, scored by the points it gains (NEUF-5.2).
    RoundRobin("neuf", 3, (LEVELS,), 400, per_deal=True),
    # Two searchers at play's budgets pass the pile for minutes a game, and `expert` thinks
    # 0.4 s a decision for hundreds of decisions (docs/bots.md): a deal's five games take
    # 5 to 15 minutes of a core, so an order plays 6 deals, 30 games, about an hour on two
    # cores; each rating's interval is wide.
    RoundRobin(
        "kryt-navalivat",
        2,
        (LEVELS, ("random", "medium", "expert", "easy", "hard")),
        6,
    ),
)


def play(robin: RoundRobin, workers: int, deals: int | None = None) -> None:
    """Plays (or finishes) the round robin's deals (or ``deals``) in each of its orders."""
    for k in range(len(robin.orders)):
        folder = robin.folder(k)
        config = robin.config(k, robin.deals if deals is None else deals)
        again = (folder / CONFIG_FILE).exists()
        print(f"{'resuming' if again else 'playing'} {folder}", flush=True)
        result = run_tournament(config, folder, workers=workers, resume=again)
        print(f"  {len(result.outcomes)} of {result.scheduled} games played", flush=True)


def outcomes(robin: RoundRobin) -> list[GameOutcome]:
    """Every game of the round robin's folders on disk, numbered in one sequence."""
    found: list[GameOutcome] = []
    for k in range(len(robin.orders)):
        saved = robin.folder(k) / CONFIG_FILE
        if not saved.exists():
            continue
        config = ArenaConfig.from_dict(json.loads(saved.read_text(encoding="utf-8")))
        # Read only: reopening would also cut a line the arena may be writing.
        held = ResultStore(saved.parent, config).load()
        offset = len(found)
        games = [held[index] for index in sorted(held)]
        found += [dataclasses.replace(g, index=offset + i) for i, g in enumerate(games)]
    return found


def ratings(robin: RoundRobin) -> dict[str, dict[str, float | int]]:
    """Each entry's rating, its interval and the games it played."""
    played = outcomes(robin)
    entries = list(dict.fromkeys(e for order in robin.orders for e in order))
    # A bot's strength does not change between games: no drift (tau 0), so every game
    # counts alike and the interval keeps narrowing with the games.
    rated = rate(played, entries, tau=0.0)
    counts = {e: sum(1 for g in played if g.ok and e in g.seats) for e in entries}
    return {
        entry: {
            "mu": round(r.mu, 2),
            "sigma": round(r.sigma, 2),
            "low": round(r.mu - 1.96 * r.sigma, 2),
            "high": round(r.mu + 1.96 * r.sigma, 2),
            "games": counts[entry],
        }
        for entry, r in sorted(rated.items(), key=lambda item: -item[1].mu)
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play the round robins (resumable)")
    playing.add_argument("--game", choices=[r.game for r in ROUND_ROBINS])
    playing.add_argument("--deals", type=int, help="duplicate deals an order (the game's own)")
    playing.add_argument("--workers", type=int, default=2)
    rating = commands.add_parser("rate", help="rate what has been played")
    rating.add_argument("--write", action="store_true", help=f"write {SHIPPED.name}")
    args = parser.parse_args(argv)
    chosen = [r for r in ROUND_ROBINS if args.command == "rate" or args.game in (None, r.game)]
    if args.command == "play":
        # The trained agent is a bot spec from the repository's root (examples/).
        sys.path.insert(0, str(ROOT))
        for robin in chosen:
            play(robin, args.workers, args.deals)
        return
    table: dict[str, dict[str, dict[str, float | int]]] = {}
    for robin in chosen:
        rated = ratings(robin)
        if not any(r["games"] for r in rated.values()):
            continue
        table[robin.game] = rated
        print(f"\n{robin.game}, {robin.players} players")
        print("| bot | rating (mu) [95% interval] | games |\n|---|---|---:|")
        for entry, r in rated.items():
            print(f"| `{entry}` | {r['mu']:.1f} [{r['low']:.1f}, {r['high']:.1f}] | {r['games']} |")
    if args.write:
        players = {robin.game: robin.players for robin in chosen}
        # A game whose games are not on this machine (they stay where they were played)
        # keeps the ratings written before: rating nothing is no reason to lose them.
        shipped = json.loads(SHIPPED.read_text(encoding="utf-8")) if SHIPPED.exists() else {}
        for game, rated in table.items():
            levels = {level: r for level, r in rated.items() if level in LEVELS}
            shipped[game] = {"players": players[game], "levels": levels}
        kept = sorted(set(shipped) - set(table))
        SHIPPED.write_text(json.dumps(shipped, indent=2, sort_keys=True) + "\n")
        note = f" (kept as they were: {', '.join(kept)})" if kept else ""
        print(f"\nwritten: {SHIPPED}{note}")


if __name__ == "__main__":
    main()
