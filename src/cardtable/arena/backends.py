"""Where the games run: in this process, in a pool of local processes, or on Ray.

A backend takes the tasks and yields their outcomes as they finish, in any order; the
games themselves are pure functions of their tasks, so the order changes nothing but the
order of lines in the results file. Closing the iterator (a stop, Ctrl-C) cancels the
games not started yet.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from cardtable.arena.config import BackendUnavailableError, InvalidTournamentError
from cardtable.arena.match import GameOutcome, play_game
from cardtable.arena.schedule import GameTask

__all__ = ["BACKENDS", "check_backend", "outcomes"]

BACKENDS = ("local", "ray")
RAY_MISSING = "the ray backend needs Ray: pip install 'cardtable[ray]'"


def outcomes(
    tasks: Sequence[GameTask], backend: str = "local", workers: int = 1, address: str | None = None
) -> Generator[GameOutcome]:
    """The outcome of every task, as each finishes."""
    check_backend(backend, workers)
    if backend == "ray":
        return _ray(_import_ray(), tasks, workers, address)
    return _local(tasks, workers)


def check_backend(backend: str, workers: int) -> None:
    """Refuse an unknown backend, one not installed, or fewer than one worker."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidTournamentError(f"the number of workers must be 1 or more, not {workers}")
    if backend not in BACKENDS:
        raise BackendUnavailableError(
            f"unknown backend {backend!r}; choose {' or '.join(BACKENDS)}"
        )
    if backend == "ray":
        _import_ray()


def _local(tasks: Sequence[GameTask], workers: int) -> Generator[GameOutcome]:
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_game(task)
        return
    # Fresh interpreters rather than forks: a fork copies whatever threads and locks the
    # parent holds (the progress bar's, a user bot's), and spawn behaves alike everywhere.
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_interrupts)
    # A bounded number of games in flight keeps a stop prompt and memory flat.
    window = workers * 4
    pending: set[Future[GameOutcome]] = set()
    queue = iter(tasks)
    finished = False
    try:
        while True:
            for task in queue:
                pending.add(pool.submit(play_game, task))
                if len(pending) >= window:
                    break
            if not pending:
                finished = True
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: f.result().index):
                yield future.result()
    finally:
        if not finished:
            # Stopped early (Ctrl-C, a failure with on_error="stop"): the games still running
            # would only be thrown away, and a searching bot's game can take minutes, so
            # the workers are ended rather than waited for. The pool has no public way.
            processes = getattr(pool, "_processes", None) or {}
            for process in list(processes.values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and says how to resume."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ray(
    ray: Any, tasks: Sequence[GameTask], workers: int, address: str | None
) -> Generator[GameOutcome]:
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, logging_level="warning", log_to_driver=False)
        else:
            # Workers look for user bot modules where this process does.
            path = os.pathsep.join(p for p in sys.path if p)
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                logging_level="warning",
                log_to_driver=False,
                runtime_env={"env_vars": {"PYTHONPATH": path}},
            )
    remote: Any = ray.remote(num_cpus=1, max_retries=0)(play_game)
    window = workers * 4
    queue = iter(tasks)
    pending: list[Any] = []
    try:
        while True:
            for task in queue:
                pending.append(remote.remote(task))
                if len(pending) >= window:
                    break
            if not pending:
                return
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started_here:
            ray.shutdown()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise BackendUnavailableError(RAY_MISSING) from exc
    return ray
