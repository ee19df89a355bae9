"""A tournament's folder: its configuration, and each game's result written as it arrives.

    arena.json          the configuration (:class:`ArenaConfig`), written before any game
    games.jsonl         one JSON object per finished or failed game, appended and flushed
    failures/game-N.json  a failed game's record so far (``cardtable replay`` reads it)
    play-on.json        written by ``--play-on``: the stopping rule no longer stops this
                        tournament (:mod:`cardtable.arena.stopping`)

Nothing is kept only in memory: a tournament stopped at any point (Ctrl-C, a crash, a
failure with ``on_error="stop"``) has every game that finished on disk, and resuming
plays only the others. Only the last line can be incomplete (a write cut short); it is
dropped on resume. A game listed twice (a failed game played again on resume) counts
by its last line.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import IO, Any

from cardtable.arena.config import ArenaConfig, InvalidTournamentError, ResumeMismatchError
from cardtable.arena.match import GameOutcome

__all__ = ["CONFIG_FILE", "FAILURES_DIR", "PLAY_ON_FILE", "RESULTS_FILE", "ResultStore"]

CONFIG_FILE = "arena.json"
RESULTS_FILE = "games.jsonl"
FAILURES_DIR = "failures"
PLAY_ON_FILE = "play-on.json"
PLAY_ON_FORMAT = "cardtable-arena-play-on"


class ResultStore:
    """The results of one tournament in ``folder``; open it with :meth:`create` or
    :meth:`reopen`, then :meth:`append` each outcome."""

    def __init__(self, folder: Path, config: ArenaConfig) -> None:
        self.folder = folder
        self.config = config
        self._file: IO[str] | None = None

    @property
    def results_path(self) -> Path:
        return self.folder / RESULTS_FILE

    @classmethod
    def create(cls, folder: Path, config: ArenaConfig) -> ResultStore:
        """A new tournament's folder; refuses one that already holds a tournament."""
        if (folder / CONFIG_FILE).exists() or (folder / RESULTS_FILE).exists():
            raise InvalidTournamentError(
                f"{folder} already holds an arena's results; resume it with --resume {folder} "
                "or choose another output folder"
            )
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / CONFIG_FILE).write_text(
                json.dumps(config.to_dict(), indent=2) + "\n", encoding="utf-8"
            )
        except OSError as exc:
            raise InvalidTournamentError(f"cannot write to {folder}: {exc}") from exc
        return cls(folder, config)

    @classmethod
    def reopen(cls, folder: Path, config: ArenaConfig) -> ResultStore:
        """An interrupted tournament's folder, checked to hold the same configuration."""
        path = folder / CONFIG_FILE
        try:
            saved = ArenaConfig.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except FileNotFoundError as exc:
            raise ResumeMismatchError(f"nothing to resume: {path} does not exist") from exc
        except (OSError, json.JSONDecodeError) as exc:
            raise ResumeMismatchError(f"cannot read {path}: {exc}") from exc
        differences = config.differences(saved)
        if differences:
            raise ResumeMismatchError(
                f"{folder} holds another tournament ({'; '.join(differences)}, "
                "asked != saved); give the same game, options, bots, games and seed, and the "
                "same --per-deal and stopping rule"
            )
        store = cls(folder, saved)
        store._drop_incomplete_line()
        return store

    @property
    def played_on(self) -> bool:
        """Whether the tournament was told to play on past its stopping rule."""
        return (self.folder / PLAY_ON_FILE).exists()

    def mark_played_on(self, met_after: int | None) -> None:
        """Record that the stopping rule no longer stops this tournament (``--play-on``),
        and after how many deals it had been met (None: not yet)."""
        document = {"format": PLAY_ON_FORMAT, "rule_met_after_deals": met_after}
        (self.folder / PLAY_ON_FILE).write_text(json.dumps(document) + "\n", encoding="utf-8")

    def load(self) -> dict[int, GameOutcome]:
        """The games on disk by index, the last line of each winning."""
        outcomes: dict[int, GameOutcome] = {}
        if not self.results_path.exists():
            return outcomes
        with self.results_path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    outcome = GameOutcome.from_dict(json.loads(line))
                except (json.JSONDecodeError, KeyError, TypeError) as exc:
                    raise ResumeMismatchError(
                        f"{self.results_path} line {number} is not a game result: {exc}"
                    ) from exc
                outcomes[outcome.index] = outcome
        return outcomes

    def append(self, outcome: GameOutcome) -> GameOutcome:
        """Write ``outcome`` (and a failed game's record) to disk now; returns it with the
        record file named in its failure."""
        if outcome.failure is not None:
            outcome = self._save_failure(outcome)
        if self._file is None:
            self._file = self.results_path.open("a", encoding="utf-8")
        self._file.write(json.dumps(outcome.to_dict(), ensure_ascii=False) + "\n")
        self._file.flush()
        return outcome

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def _save_failure(self, outcome: GameOutcome) -> GameOutcome:
        assert outcome.failure is not None
        folder = self.folder / FAILURES_DIR
        folder.mkdir(exist_ok=True)
        name = f"{FAILURES_DIR}/game-{outcome.index:06d}.json"
        failure = dataclasses.replace(outcome.failure, record_file=name)
        # The record itself, so that `cardtable replay` reads the file; the extra keys say
        # who failed and how to rebuild the bots' generators.
        document: dict[str, Any] = dict(outcome.record)
        document["arena"] = {
            "game": outcome.index,
            "deal": outcome.deal,
            "rotation": outcome.rotation,
            "seats": list(outcome.seats),
            "specs": list(outcome.specs),
            "rng_seeds": list(outcome.rng_seeds),
            "failure": failure.to_dict(),
        }
        (self.folder / name).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        return dataclasses.replace(outcome, failure=failure)

    def _drop_incomplete_line(self) -> None:
        """Cut a last line that a stop left half-written."""
        path = self.results_path
        if not path.exists():
            return
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            path.write_bytes(data[: data.rfind(b"\n") + 1])
