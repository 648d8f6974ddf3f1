"""Compiling the numba kernels before they are needed, in groups, with progress.

numba compiles a kernel at its first call (or loads it from the on-disk cache,
see :mod:`gorilla.numba_cache`). A first call inside a timed search would charge
the compile to the move, and compiling holds the interpreter lock, so a window
drawing on another thread of the same process stops too. So every command
compiles what it will use first:

* ``gorilla gtp`` and ``gorilla match`` call :func:`warm` before their first
  timed job, with a progress line on stderr;
* the window runs ``python -m gorilla.ai.warmup GROUP...`` in a child process
  that fills the cache while the window keeps drawing, then loads the compiled
  kernels in-process (:mod:`gorilla.app.compiler`).

A *group* is a small real workload that calls every kernel of one part of the
engine with the argument types it gets in play (5x5 to 19x19 boards give the
same types, so one board size compiles every size). When a group has run, a
marker file ``warm-GROUP`` in the cache folder says so; the folder is per
source version, so the markers go stale exactly when the kernels do.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from gorilla.ai.agent import Budget, parse_spec
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game

ProgressFn = Callable[[str, int, int], None]  # (group, groups done, groups in all)


def _play(game: Game, moves: str) -> Game:
    for v in moves.split():
        game.play(parse_vertex(v, game.size))
    return game


def _rules() -> None:
    """Moves, captures, ko, passes, legality with superko, scoring, both counting methods."""
    g = _play(Game.new(5, "chinese"), "C3 C2 D2 A5 B2 A4 C1 pass pass")
    g.legal_moves(reasonable=True)
    g.legal_moves()
    g.score()
    pos = g.position
    for p in pos.stones(1)[:1]:
        pos.group(p)
        pos.liberties(p)
    _play(Game.new(5, "little-go"), "C3 C4 pass pass").score()
    Game.new(9, "japanese", handicap=2).legal_moves()


def _control() -> None:
    from gorilla.ai.control_map import classic_result, control_map

    g = _play(Game.new(5), "C3 D4 B2")
    control_map(g.position)
    classic_result(g.position, 7.5)


def _flat() -> None:
    from gorilla.ai.evaluator import evaluate
    from gorilla.ai.montecarlo import MonteCarloAgent

    g = _play(Game.new(5), "C3 D4")
    MonteCarloAgent(games=2, turns=3, seed=1).select_move(g)
    MonteCarloAgent(games=1, turns=0, seed=1).select_move(g)
    evaluate(g, "flat", games=2, turns=2, seed=1)


def _mcts_with(**settings: float | str) -> None:
    from gorilla.ai.mcts.agent import MCTSAgent

    agent = MCTSAgent(seed=1, max_nodes=20_000, **settings)
    try:
        g = _play(Game.new(9), "E5 C3 G7")
        agent.select_move(g, Budget(playouts=256))
        agent.analyze(_play(g, "C7"), Budget(playouts=128))
    finally:
        agent.close()


def _mcts() -> None:
    """The search as ``mcts`` plays by default: with the shipped move model (when it is there)."""
    _mcts_with()


def _mcts_plain() -> None:
    """The search without the move model (``mcts:policy=0``)."""
    _mcts_with(policy=0.0)


def _policy() -> None:
    """The move model's probabilities alone (the window's heat map), if it is shipped."""
    from gorilla.ai.policy.model import DEFAULT_MODEL, shipped_model

    if not DEFAULT_MODEL.is_file():
        return
    g = _play(Game.new(9), "E5 C3 G7")
    shipped_model().probabilities(g.position.b, g.position.st, g.to_move)


def _softmax() -> None:
    """The search with softmax playouts (``mcts:playout=softmax``)."""
    _mcts_with(playout="softmax")


def _patterns() -> None:
    from gorilla.ai.mcts.agent import MCTSAgent

    agent = MCTSAgent(seed=1, max_nodes=20_000, patterns="mogo")
    try:
        agent.select_move(_play(Game.new(9), "E5"), Budget(playouts=128))
    finally:
        agent.close()


def _ownership() -> None:
    from gorilla.ai.ownership import dead_stones, ownership, status_lists

    g = _play(Game.new(5), "C3 D4 B2 pass pass")
    dead_stones(g, playouts=8)
    status_lists(g)
    for policy in ("light", "safe"):
        ownership(g.position, playouts=4, policy=policy)


def _alphabeta() -> None:
    from gorilla.ai.alphabeta import AlphaBetaAgent

    AlphaBetaAgent(time=0.05, depth=2).select_move(_play(Game.new(5, "little-go"), "C3"))


def _baselines() -> None:
    from gorilla.ai.agent import make_agent

    g = _play(Game.new(5, "little-go"), "C3 D4")
    for spec in ("greedy:seed=1", "aggressive:seed=1", "minimax"):
        make_agent(spec).select_move(g)


# group -> (workload, rough cold compile seconds on a 2-core machine, for progress bars and
# the "about N s" line: rules to ownership as benchmarks/startup.py measured them, the
# others rounded up)
GROUPS: dict[str, tuple[Callable[[], None], float]] = {
    "rules": (_rules, 4.0),
    "control": (_control, 1.5),
    "flat": (_flat, 3.0),
    "mcts": (_mcts, 25.0),
    "mcts-plain": (_mcts_plain, 12.0),
    "policy": (_policy, 6.0),
    "patterns": (_patterns, 10.0),
    "softmax": (_softmax, 25.0),
    "ownership": (_ownership, 4.5),
    "alphabeta": (_alphabeta, 12.0),
    "baselines": (_baselines, 4.0),
}
# group -> the module that registered it (a package above this floor, see register); the
# child process of gorilla.app.compiler imports it first
PROVIDERS: dict[str, str] = {}


def register(name: str, workload: Callable[[], None], seconds: float) -> None:
    """Add a group of kernels from a package above the AIs (Gomoku's engine): its workload,
    its rough cold compile seconds; ``python -m gorilla.ai.warmup --import MODULE NAME``
    compiles it in a child process."""
    GROUPS[name] = (workload, seconds)
    PROVIDERS[name] = workload.__module__


# what each agent needs besides the rules
AGENT_GROUPS: dict[str, tuple[str, ...]] = {
    "random": (),
    "montecarlo": ("control", "flat"),
    "mcts": ("mcts",),
    "alphabeta": ("alphabeta",),
    "greedy": ("baselines",),
    "aggressive": ("baselines",),
    "minimax": ("baselines", "alphabeta"),
}


def groups_for(specs: Iterable[str], *, extra: Iterable[str] = ()) -> list[str]:
    """The groups the agent specs need (``human`` and external engines need only the rules):
    the rules first, then the agents' groups, then the extra ones, each once."""
    want = set()
    for spec in specs:
        name, _, kwargs = parse_spec(spec)
        if name == "mcts" and kwargs.get("policy", 1) == 0:  # without the move model
            want.add("mcts-plain")
        else:
            want.update(AGENT_GROUPS.get(name, ()))
        if name == "mcts" and kwargs.get("patterns"):
            want.add("patterns")
        if name == "mcts" and kwargs.get("playout") == "softmax":
            want.add("softmax")
    agents = [g for g in GROUPS if g in want and g != "rules"]
    rest = [g for g in GROUPS if g in set(extra) and g not in want and g != "rules"]
    return ["rules", *agents, *rest]


def cache_dir() -> Path | None:
    """The folder numba caches Gorilla's kernels in, or None when there is none."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    return Path(folder) if folder else None


def is_warm(group: str) -> bool:
    """Whether group's kernels are in the on-disk cache (its workload ran with this source)."""
    folder = cache_dir()
    return folder is not None and (folder / f"warm-{group}").exists()


def _mark(group: str) -> None:
    folder = cache_dir()
    if folder is not None:
        with contextlib.suppress(OSError):  # a read-only cache: the group compiles again next time
            (folder / f"warm-{group}").write_text(f"{time.time():.0f}\n")


def weight(groups: Iterable[str]) -> float:
    """The rough cold compile seconds of the groups (for progress bars)."""
    return sum(GROUPS[g][1] for g in groups)


def warm(groups: Iterable[str], progress: ProgressFn | None = None) -> float:
    """Run each group's workload in this process: compiles its kernels, or loads them from the
    cache when they are there. Returns the seconds it took."""
    todo = [g for g in groups if g in GROUPS]
    t0 = time.perf_counter()
    for i, g in enumerate(todo):
        if progress is not None:
            progress(g, i, len(todo))
        GROUPS[g][0]()
        _mark(g)
    if progress is not None:
        progress("", len(todo), len(todo))
    return time.perf_counter() - t0


def stderr_progress(program: str, groups: list[str], stream: TextIO | None = None) -> ProgressFn | None:
    """A progress function that tells stream (stderr), once, that kernels are being compiled
    and when they are ready (None when every group is already in the cache: loading them
    needs no word)."""
    cold = [g for g in groups if not is_warm(g)]
    if not cold:
        return None
    started = time.perf_counter()

    def say(group: str, done: int, total: int) -> None:
        if done == 0:
            secs = weight(cold)
            print(
                f"{program}: compiling the engine ({', '.join(cold)}): about {secs:.0f} s,"
                " once after an install or update",
                file=stream or sys.stderr,
                flush=True,
            )
        elif done == total:
            secs = time.perf_counter() - started
            print(f"{program}: ready ({secs:.0f} s)", file=stream or sys.stderr, flush=True)

    return say


def main(argv: list[str] | None = None) -> int:
    """``python -m gorilla.ai.warmup [--import MODULE]... GROUP...``: compile the groups into
    the on-disk cache, printing ``start GROUP`` and ``done GROUP SECONDS`` lines on stdout as
    it goes; each MODULE is imported first (it registers its groups, see :func:`register`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    while len(args) >= 2 and args[0] == "--import":
        try:
            importlib.import_module(args[1])
        except ImportError as e:
            print(f"gorilla.ai.warmup: cannot import {args[1]}: {e}", file=sys.stderr)
            return 2
        args = args[2:]
    unknown = [g for g in args if g not in GROUPS]
    if unknown or not args:
        print(f"usage: python -m gorilla.ai.warmup GROUP... (groups: {', '.join(GROUPS)})", file=sys.stderr)
        return 2
    for g in args:
        print(f"start {g}", flush=True)
        t0 = time.perf_counter()
        GROUPS[g][0]()
        _mark(g)
        print(f"done {g} {time.perf_counter() - t0:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
