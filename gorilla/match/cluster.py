"""A match's games on a Ray cluster: ``gorilla match ... --cluster [ADDRESS]``.

Ray (the optional extra ``gorilla[cluster]``) is imported only here and only
when a command asks for a cluster, so the desktop install never needs it.

:class:`Cluster` connects for the length of a command: to ``ADDRESS``
(``ray://host:10001`` through Ray Client, or ``host:6379`` from a node of the
cluster), else to ``RAY_ADDRESS``, else to a local Ray instance it starts and
stops again. Its :meth:`Cluster.games` is a game source for
:func:`gorilla.match.runner.run_match`: one Ray actor per worker slot
(:class:`GameWorker`) builds the two players once, compiles or loads their
kernels once and, for GTP engines, keeps the engine process running between
games; the driver hands each free actor the next game number. A game depends
only on the match seed and its number, so the games are the ones ``-j`` or a
single process would play. Actors return the result record and the SGF text;
the driver writes both, so the results folder lives on the driver's machine.

A worker (or its node) that dies loses only the game it was playing: the
driver sees the actor's death, starts a new actor, and the game is played
again from the start; a game that kills :data:`MAX_ATTEMPTS` workers stops
the match with a clear error rather than looping.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket
import sys
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TextIO

from gorilla.ai.warmup import groups_for, warm
from gorilla.match.players import is_builtin
from gorilla.match.runner import MatchConfig, build_players, close_players, play_to_text, save_game

INSTALL_HINT = "--cluster needs the cluster extra: pip install 'gorilla[cluster]'"
MAX_ATTEMPTS = 3  # workers one game may lose before the match gives up
CONNECT_TIMEOUT = 5.0  # seconds to reach the cluster's port before saying it is unreachable


class ClusterError(Exception):
    """A cluster problem worth one line; ``status`` is the exit status (2: no Ray, 1: the cluster)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def import_ray() -> ModuleType:
    """The ray module, or ClusterError with the install hint (exit status 2)."""
    try:
        import ray
    except ImportError:
        raise ClusterError(INSTALL_HINT, status=2) from None
    return ray


def _host_port(address: str) -> tuple[str, int] | None:
    """(host, port) of a 'ray://host:port' or 'host:port' address; None for 'auto' and the like."""
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit():
        return None
    return host.strip("[]") or "127.0.0.1", int(port)


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """ClusterError unless something listens at address's host and port (checked in seconds, not minutes)."""
    hp = _host_port(address)
    if hp is None:
        return
    try:
        with socket.create_connection(hp, timeout=timeout):
            pass
    except OSError as e:
        why = e.strerror or type(e).__name__
        raise ClusterError(f"cannot reach the Ray cluster at {address}: {why}") from None


class GameWorker:
    """One worker slot on the cluster (a Ray actor): the two players, warm, for many games."""

    def __init__(self, config_json: dict) -> None:
        self.config = MatchConfig.from_json(config_json)
        if self.config.game == "go":  # Gomoku players compile their kernels at their first game
            warm(groups_for([s for s in self.config.players if is_builtin(s)], extra=("ownership",)))
        self.players = build_players(self.config)

    def pid(self) -> int:
        """The worker's process id (tests kill it)."""
        return os.getpid()

    def play(self, index: int) -> tuple[dict, str]:
        """Play game index; its result record and SGF text."""
        return play_to_text(self.config, index, self.players)

    def close(self) -> None:
        """Close the players (GTP engines quit)."""
        close_players(self.players)


class Cluster:
    """Ray for the length of a command; a context manager (see the module docstring)."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None, log: TextIO | None = None):
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.num_cpus = num_cpus
        self.log = log
        self.started = False
        self.ray: ModuleType | None = None

    def __enter__(self) -> Cluster:
        ray = self.ray = import_ray()
        if ray.is_initialized():  # a caller (a test, gorilla tune) holds the connection
            return self
        kwargs: dict = {"log_to_driver": False, "logging_level": "ERROR"}
        if self.address:
            check_reachable(self.address)
        else:
            kwargs.update(num_cpus=self.num_cpus, include_dashboard=False)
        try:
            ray.init(address=self.address, **kwargs)
        except Exception as e:  # Ray raises many kinds (ConnectionError, RuntimeError, grpc errors)
            first = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
            where = f"the Ray cluster at {self.address}" if self.address else "a local Ray instance"
            raise ClusterError(f"cannot connect to {where}: {first}") from None
        self.started = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self.started and self.ray is not None:
            self.ray.shutdown()
            self.started = False

    def cpus(self) -> int:
        """The cluster's CPUs (at least 1)."""
        assert self.ray is not None, "use Cluster as a context manager"
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def games(self, config: MatchConfig, todo: list[int], stop: Callable[[], bool]) -> Iterator[dict]:
        """A game source for run_match: games todo on config.jobs actors (0: one per cluster CPU)."""
        ray = self.ray
        assert ray is not None, "use Cluster as a context manager"
        log = sys.stderr if self.log is None else self.log
        slots = min(config.jobs if config.jobs > 0 else self.cpus(), len(todo))
        # two threads: pid() answers while a game is played (the driver gives an actor one game at a time)
        remote = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0, max_concurrency=2)(GameWorker)
        run = uuid.uuid4().hex[:8]
        serial = itertools.count()
        lost_errors = _lost_worker_errors(ray)
        queue = deque(todo)
        attempts: Counter[int] = Counter()
        running: dict = {}  # ObjectRef -> (actor, game index)
        actors: list = []

        def new_actor() -> object:
            actor = remote.options(name=f"gorilla-worker-{run}-{next(serial)}").remote(config.to_json())
            actors.append(actor)
            return actor

        def next_game(actor: object) -> None:
            if queue and not stop():
                i = queue.popleft()
                running[actor.play.remote(i)] = (actor, i)  # type: ignore[attr-defined]

        try:
            for _ in range(slots):
                next_game(new_actor())
            while running:
                ready, _ = ray.wait(list(running), num_returns=1)
                actor, i = running.pop(ready[0])
                try:
                    record, sgf_text = ray.get(ready[0])
                except lost_errors as e:
                    attempts[i] += 1
                    first = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
                    if attempts[i] >= MAX_ATTEMPTS:
                        why = f"game {i + 1} lost {attempts[i]} workers; giving up: {first}"
                        raise ClusterError(why) from None
                    print(f"cluster: a worker died in game {i + 1}; it is played again", file=log, flush=True)
                    actors.remove(actor)
                    with contextlib.suppress(Exception):
                        ray.kill(actor)
                    queue.appendleft(i)
                    next_game(new_actor())
                    continue
                yield save_game(config, i, record, sgf_text)
                next_game(actor)  # after the driver has counted this game: the SPRT may have stopped
        finally:
            _close_actors(ray, actors)


def _lost_worker_errors(ray: ModuleType) -> tuple[type[BaseException], ...]:
    """The exceptions that mean a worker or its node died (not that the game itself failed)."""
    ex = ray.exceptions
    names = ("RayActorError", "WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OwnerDiedError")
    return tuple(getattr(ex, n) for n in names if hasattr(ex, n))


def _close_actors(ray: ModuleType, actors: list) -> None:
    """Ask every actor to close its players (engines quit), then end it."""
    closing = []
    for a in actors:
        with contextlib.suppress(Exception):
            closing.append(a.close.remote())
    with contextlib.suppress(Exception):
        ray.wait(closing, num_returns=len(closing), timeout=10)
    for a in actors:
        with contextlib.suppress(Exception):
            ray.kill(a)


__all__ = ["INSTALL_HINT", "Cluster", "ClusterError", "GameWorker", "check_reachable", "import_ray"]
