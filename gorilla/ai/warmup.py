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
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from gorilla.ai.agent import Budget, parse_spec
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game

ProgressFn = Callable[[str, int, int], None]  # (group, groups done, groups in all)
# ("start" | "done", unit, seconds, CPU seconds of the process that compiled it; 0 at the start)
EventFn = Callable[[str, str, float, float], None]


def _play(game: Game, moves: str) -> Game:
    for v in moves.split():
        game.play(parse_vertex(v, game.size))
    return game


def _rules() -> None:
    """Moves, captures, ko, passes, legality with superko, scoring, both counting methods."""
    g = _play(Game.new(5, "chinese"), "C3 C2 D2 A5 B2 A4 C1")
    g.legal_moves(reasonable=True)  # before the passes: a game over has no legal moves to test
    g.legal_moves()
    _play(g, "pass pass").score()
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


def _mcts_with(**settings: float | str | bool) -> None:
    from gorilla.ai.mcts.agent import MCTSAgent

    agent = MCTSAgent(seed=1, max_nodes=20_000, **settings)
    try:
        g = _play(Game.new(9), "E5 C3 G7")
        agent.select_move(g, Budget(playouts=256))
        agent.select_move(g, Budget(playouts=32))  # the tree kept: its compaction
        agent.analyze(_play(g, "C7"), Budget(playouts=128))
    finally:
        agent.close()


def _mcts() -> None:
    """The search as ``mcts`` plays by default: with the shipped move model (when it is there)."""
    _mcts_with()


def _bare_board() -> Game:
    """An empty 9x9 board under simple ko: a part's workload on it compiles none of the rules'
    kernels for placing stones and superko, which the process beside it compiles (the kernels
    are the same whatever the position)."""
    return Game.new(9, "japanese")


def _mcts_model() -> None:
    """The root's expansion with the move model (its features and probabilities), a part of
    the search kernels that another process can compile while this one compiles the playouts."""
    from gorilla.ai.mcts.agent import MCTSAgent

    agent = MCTSAgent(seed=1, max_nodes=20_000)
    try:
        if agent.policy > 0:
            agent.prepare(_bare_board())
    finally:
        agent.close()


def _mcts_playout() -> None:
    """The heavy and light playouts as the search kernels call them (a part of them)."""
    from gorilla.ai.mcts.agent import MCTSAgent

    agent = MCTSAgent(seed=1, max_nodes=1_000)  # one kernel: heavy or light is its argument
    try:
        agent.playout_once(_bare_board())
    finally:
        agent.close()


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


def _ladders() -> None:
    """The search with heavy playouts that read ladders (``mcts:ladders=1``)."""
    _mcts_with(ladders=True)


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


def _net_game() -> Game:
    """A 9x9 game with a capture and a pass: every plane of the net's inputs has work."""
    game = _play(Game.new(9), "C3 D3 C4 D4 E3 D2 C2 D5")
    game.play(-1)
    return game


def _net() -> None:
    """The net's kernels (input features with a capture and passes, the forward pass) on 9x9,
    and the search's choice of a child (a search of a few visits)."""
    from gorilla.ai.puct.agent import NetAgent
    from gorilla.ai.puct.evaluator import NetEvaluator

    NetEvaluator(seed=1).evaluate_games([_net_game(), Game.new(9)])
    agent = NetAgent(visits=4, seed=1)
    try:
        agent.select_move(_net_game())
    finally:
        agent.close()


def _net_colours() -> tuple:
    """(colours of the padded board, width, size) of _net_game's position, as the features read it."""
    from gorilla.rules.board import COLOR

    game = _net_game()
    return game.position.b[COLOR].copy(), game.size + 2, game.size


def _net_ladders() -> None:
    """The ladder features (KataGo's ladder search on a scratch board): the largest of the
    net's kernels, a part that another process compiles while this one does the rest."""
    import numpy as np

    from gorilla.ai.net import features_kernels as fk

    color, w, n = _net_colours()
    marks = np.zeros((2, color.shape[0]), dtype=np.int8)
    fk.ladders(color, w, n, 0, 1, marks[0], marks[1])


def _net_area() -> None:
    """The area features (Benson's pass-alive areas and big territories), a part of the net."""
    import numpy as np

    from gorilla.ai.net import features_kernels as fk

    color, w, _ = _net_colours()
    m = color.shape[0]
    head, nxt, nst, nlib, own = (np.empty(m, dtype=np.int32) for _ in range(5))
    fk.chains(color, w, head, nxt, nst, nlib)
    fk.area(color, w, head, nxt, nlib, fk.AREA_PLAIN, False, own)


def _net_search() -> None:
    """The net's forward pass (the Winograd transforms of its convolutions) and the search's
    choice of a child: a part of the net."""
    import numpy as np

    from gorilla.ai.puct.evaluator import shared_net
    from gorilla.ai.puct.search import pick_child, recompute_values

    spatial = np.zeros((1, 22, 9, 9), np.float32)
    spatial[:, 0] = 1.0  # on the board
    legal = np.ones((1, 82), bool)
    shared_net().evaluate_inputs(spatial, np.zeros((1, 19), np.float32), [0], legal, np.zeros(1, bool))
    pick_child(np.full(2, 0.5), np.zeros(2), np.zeros(2), 0.0, 0.2, 1.1, 0.0, 0.0)
    two = np.ones(2)
    recompute_values(np.full(2, 0.5), two, two, two, two, two, two, 0.15, 0.25)


def _alphabeta() -> None:
    from gorilla.ai.alphabeta import AlphaBetaAgent

    AlphaBetaAgent(time=0.05, depth=2).select_move(_play(Game.new(5, "little-go"), "C3"))


def _baselines() -> None:
    from gorilla.ai.agent import make_agent

    g = _play(Game.new(5, "little-go"), "C3 D4")
    for spec in ("greedy:seed=1", "aggressive:seed=1", "minimax"):
        make_agent(spec).select_move(g)


# group -> (workload, rough cold compile seconds on an idle 2-core machine once its parts (see
# PARTS) are compiled, for progress bars, the "about N s" line and the split between
# processes: rules to ownership from benchmarks/startup.py's per-group thread CPU seconds,
# scaled to its idle wall-clock total; the others rounded up)
GROUPS: dict[str, tuple[Callable[[], None], float]] = {
    "rules": (_rules, 3.6),
    "control": (_control, 1.5),
    "flat": (_flat, 3.0),
    "mcts-model": (_mcts_model, 15.0),
    "mcts-playout": (_mcts_playout, 9.5),
    "mcts": (_mcts, 5.5),
    "mcts-plain": (_mcts_plain, 6.0),
    "policy": (_policy, 6.0),
    "patterns": (_patterns, 6.0),
    "softmax": (_softmax, 15.0),
    "ladders": (_ladders, 8.0),
    "ownership": (_ownership, 3.4),
    "alphabeta": (_alphabeta, 12.0),
    "baselines": (_baselines, 4.0),
    "net-ladders": (_net_ladders, 12.0),
    "net-area": (_net_area, 4.0),
    "net-search": (_net_search, 3.5),
    "net": (_net, 5.0),
}
# group -> its parts: groups of the kernels its own kernels call, which can be compiled in
# another process at the same time as the rest (numba's cache is per kernel and safe to share
# between processes: the group then loads them). The search kernels call the root's expansion
# (the move model's features) and the playouts, each a large compile of its own.
PARTS: dict[str, tuple[str, ...]] = {
    "mcts": ("mcts-model", "mcts-playout"),
    "mcts-plain": ("mcts-playout",),
    "softmax": ("mcts-model",),
    "patterns": ("mcts-model",),
    "ladders": ("mcts-model",),
    "net": ("net-ladders", "net-area", "net-search"),
}
# processes that compile at once on a cold start (this one and a helper; GORILLA_COMPILE_JOBS=1
# compiles in this process only), and the seconds a helper takes to start (the interpreter,
# numpy, numba)
JOBS = 1 if os.environ.get("GORILLA_COMPILE_JOBS", "").strip() == "1" else min(2, os.cpu_count() or 1)
HELPER_START = 1.5


# GROUPS' seconds are those of a reference machine on which three runs of _pace_work took
# PACE_SECONDS of wall clock, idle: 2 cores at about half the speed of the AMD EPYC of
# benchmarks/RESULTS.md#2026-11-27-the-first-start-on-an-idle-machine, where they take 0.020 s and
# the net's compile 8.8 s for an announced 18 s. The "about N s" line scales the seconds by how
# long the same work takes here and now.
PACE_SECONDS = 0.042


def _pace_work() -> int:
    """A few milliseconds of the interpreter's work (dicts, strings), as a compile does."""
    d: dict[int, int] = {}
    for i in range(60_000):
        k = (i * 7919) % 1013
        d[k] = d.get(k, 0) + len(str(k))
    return len(d)


def pace() -> float:
    """How many times the reference machine's seconds this one takes now: the median of three
    short timed runs of the same work (a busy machine stretches them as it stretches a compile),
    between 0.25 and 8."""
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        _pace_work()
        runs.append(time.perf_counter() - t0)
    return min(8.0, max(0.25, 3 * sorted(runs)[1] / PACE_SECONDS))


def default_jobs() -> int:
    """JOBS when a core is free for the helper, else 1: with the load average at or above the
    cores less one half, the helper would only add its start and the kernels both processes
    compile (measured on a busy 2-core machine: 96 s against 80 s to the first move)."""
    if JOBS < 2:
        return 1
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average on this platform
        return JOBS
    return JOBS if load < (os.cpu_count() or 1) - 0.5 else 1


# group -> the module that registered it (a package above this floor, see register); the
# child process of gorilla.app.compiler imports it first
PROVIDERS: dict[str, str] = {}


def register(name: str, workload: Callable[[], None], seconds: float, parts: Iterable[str] = ()) -> None:
    """Add a group of kernels from a package above the AIs (Gomoku's engine): its workload,
    its rough cold compile seconds (once its parts are compiled) and its parts (groups
    registered before it, see PARTS); ``python -m gorilla.ai.warmup --import MODULE NAME``
    compiles it in a child process."""
    missing = [p for p in parts if p not in GROUPS]
    if missing:
        raise ValueError(f"register {name!r}: its parts {missing} are not registered groups")
    GROUPS[name] = (workload, seconds)
    PROVIDERS[name] = workload.__module__
    if parts:
        PARTS[name] = tuple(parts)


def import_args(units: Iterable[str]) -> list[str]:
    """``--import MODULE`` for each module that registered one of the units (see
    :func:`register`): what ``python -m gorilla.ai.warmup`` needs to know them."""
    providers = dict.fromkeys(PROVIDERS[u] for u in units if u in PROVIDERS)
    return [arg for module in providers for arg in ("--import", module)]


# what each agent needs besides the rules
AGENT_GROUPS: dict[str, tuple[str, ...]] = {
    "random": (),
    "montecarlo": ("control", "flat"),
    "mcts": ("mcts",),
    "net": ("net",),
    "rank": ("net",),
    "scoreloss": ("net",),
    "policy": ("net",),
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
        if name == "mcts" and kwargs.get("ladders"):
            want.add("ladders")
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


def units(groups: Iterable[str]) -> list[str]:
    """The groups, each after those of its parts that are not in the cache (each unit once)."""
    out: list[str] = []
    for g in groups:
        if g not in GROUPS:
            continue
        if not is_warm(g):
            out += [p for p in PARTS.get(g, ()) if p not in out and not is_warm(p)]
        if g not in out:
            out.append(g)
    return out


def weight(groups: Iterable[str]) -> float:
    """The rough cold compile seconds of the groups and their cold parts, one after another
    (for progress bars: the Compiler's child reports each part as it reports a group)."""
    return sum(GROUPS[u][1] for u in units(groups))


def plan(cold: list[str], jobs: int = JOBS) -> tuple[list[str], list[str], float]:
    """Split cold units (see :func:`units`) between this process and a helper process:
    (this process's units in order, the helper's in order, the estimated seconds until both
    are done). The rules and every group whose parts are in the list stay here (the latter
    after their parts); the rest goes where it finishes soonest (every split tried: a few
    units), the parts a group here waits for first in the helper."""
    w = {u: GROUPS[u][1] for u in cold}
    serial = (list(cold), [], sum(w.values()))
    if jobs < 2 or len(cold) < 2:
        return serial
    after = [u for u in cold if any(p in cold for p in PARTS.get(u, ()))]
    needed = {p for u in after for p in PARTS[u]}
    pinned = [u for u in cold if u == "rules"]
    free = [u for u in cold if u not in after and u not in pinned][:12]
    best = serial
    for mask in range(1, 1 << len(free)):
        theirs = [u for i, u in enumerate(free) if mask >> i & 1]
        mine = pinned + sorted((u for u in free if u not in theirs), key=w.__getitem__)
        theirs.sort(key=lambda u: (u not in needed, -w[u] if u in needed else w[u]))
        ready: dict[str, float] = {}
        t = 0.0
        for u in mine:
            t += w[u]
            ready[u] = t
        h = HELPER_START
        for u in theirs:
            h += w[u]
            ready[u] = h
        for u in after:
            t = max([t] + [ready[p] for p in PARTS[u] if p in ready]) + w[u]
        span = max(t, h)
        if span < best[2] - 1e-9:
            best = (mine + after, theirs, span)
    return best


class _Helper:
    """A child process (``python -m gorilla.ai.warmup --jobs 1 UNIT...``) that compiles units
    into the shared cache; a thread here follows its ``start``/``done`` lines."""

    def __init__(self, todo: list[str], events: EventFn | None) -> None:
        self.units = list(todo)
        self._done = {u: threading.Event() for u in todo}
        self._exited = threading.Event()
        self._events = events
        imports = import_args(todo)
        # its stdin is a pipe this process never writes: when this process ends, however it
        # ends, the helper reads the end of it and stops too (--exit-with-parent)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gorilla.ai.warmup", "--jobs", "1", "--exit-with-parent", *imports, *todo],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        threading.Thread(target=self._follow, daemon=True, name="gorilla-warmup-helper").start()

    def _follow(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                word, _, rest = line.strip().partition(" ")
                unit, *secs = rest.split()
                if unit not in self._done:
                    continue
                if word == "done":
                    self._done[unit].set()
                if word in ("start", "done") and self._events is not None:
                    wall, cpu = ([float(x) for x in secs] + [0.0, 0.0])[:2]
                    self._events(word, unit, wall, cpu)
        finally:
            self._exited.set()

    def wait(self, unit: str) -> bool:
        """Block until the helper has compiled unit; False when it is not the helper's or the
        helper ended without it (this process then compiles it)."""
        ev = self._done.get(unit)
        if ev is None:
            return False
        while not ev.is_set() and not self._exited.is_set():
            ev.wait(0.05)
        return ev.is_set()

    def close(self) -> None:
        """Stop the helper if it still runs (this process no longer waits for it)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self.proc.stdin is not None:
            self.proc.stdin.close()


def warm(
    groups: Iterable[str],
    progress: ProgressFn | None = None,
    *,
    jobs: int | None = None,
    events: EventFn | None = None,
    load: bool = True,
) -> float:
    """Make the groups' kernels ready in this process: compiles them, or loads them from the
    cache when they are there. Returns the seconds it took.

    On a cold cache the work is split (:func:`plan`) with a helper process (``jobs`` 2, the
    default on two cores or more): the helper compiles its share into the cache while this
    process compiles the rest; this process then loads what the helper compiled (unless
    load is False: filling the cache is all ``python -m gorilla.ai.warmup`` does). progress is
    called as each of this process's units starts (``(unit, done, total)``, then ``("",
    total, total)``); events with ``("start" | "done", unit, seconds, CPU seconds)`` for
    every unit either process compiles and every group this process loads from the cache."""
    todo = [g for g in dict.fromkeys(groups) if g in GROUPS]
    t0 = time.perf_counter()
    cold = [u for u in units(todo) if not is_warm(u)]
    n_jobs = default_jobs() if jobs is None else jobs
    mine, theirs, _ = plan(cold, n_jobs) if cache_dir() is not None else (cold, [], 0.0)
    helper: _Helper | None = None
    if theirs:
        try:
            helper = _Helper(theirs, events)
        except OSError:  # no child process: all of it here
            mine = units(todo)
    # this process: its own units, then the groups it only loads (warm, or the helper's)
    seq = mine + [g for g in todo if g not in mine]
    helper_units = set(helper.units) if helper is not None else set()

    def run(u: str, i: int, quiet: bool) -> None:
        if progress is not None:
            progress(u, i, len(seq))
        if events is not None and not quiet:
            events("start", u, 0.0, 0.0)
        t, c = time.perf_counter(), time.process_time()
        GROUPS[u][0]()
        _mark(u)
        if events is not None and not quiet:
            events("done", u, time.perf_counter() - t, time.process_time() - c)

    try:
        for i, u in enumerate(seq):
            if helper is not None:
                for p in PARTS.get(u, ()):  # a part the helper could not compile: here, first
                    if p in helper_units and not helper.wait(p):
                        run(p, i, False)
            by_helper = helper is not None and helper.wait(u)
            if by_helper and not load:
                continue
            run(u, i, by_helper)
    finally:
        if helper is not None:
            helper.close()
    if progress is not None:
        progress("", len(seq), len(seq))
    return time.perf_counter() - t0


def estimate(groups: Iterable[str], jobs: int | None = None) -> float:
    """The rough seconds :func:`warm` takes to compile the groups' cold kernels (0 when warm)."""
    cold = [u for u in units(groups) if not is_warm(u)]
    return plan(cold, default_jobs() if jobs is None else jobs)[2] if cold else 0.0


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
            n_jobs = default_jobs()
            secs = estimate(cold, n_jobs) * pace()
            cold_units = [u for u in units(cold) if not is_warm(u)]
            helper = plan(cold_units, n_jobs)[1] if cache_dir() is not None else []
            how = f" in 2 processes (one compiles {', '.join(helper)})" if helper else ""
            print(
                f"{program}: compiling the engine ({', '.join(cold)}){how}: about {secs:.0f} s,"
                " once after an install or update",
                file=stream or sys.stderr,
                flush=True,
            )
        elif done == total:
            secs = time.perf_counter() - started
            print(f"{program}: ready ({secs:.0f} s)", file=stream or sys.stderr, flush=True)

    return say


def _exit_at_eof() -> None:
    """Wait for the end of stdin (the parent closed it, or died), then end this process."""
    with contextlib.suppress(OSError, ValueError):
        sys.stdin.buffer.read()
    os._exit(1)


def main(argv: list[str] | None = None) -> int:
    """``python -m gorilla.ai.warmup [--jobs N] [--import MODULE]... GROUP...``: compile the
    groups into the on-disk cache, printing ``start UNIT`` and ``done UNIT SECONDS CPU`` lines on
    stdout as it goes (a unit is a group or a part of one, see PARTS; with ``--jobs 2``, the
    default on two cores or more, a helper process compiles some of them at the same time,
    and its lines come here too); each MODULE is imported first (it registers its groups,
    see :func:`register`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    jobs = default_jobs()
    while args and args[0] == "--exit-with-parent" or len(args) >= 2 and args[0] in ("--import", "--jobs"):
        if args[0] == "--exit-with-parent":  # a helper of warm(): ends when its parent does
            threading.Thread(target=_exit_at_eof, daemon=True).start()
            args = args[1:]
            continue
        if args[0] == "--jobs":
            if not args[1].isdigit() or int(args[1]) < 1:
                print(f"gorilla.ai.warmup: --jobs wants a count, not {args[1]!r}", file=sys.stderr)
                return 2
            jobs = int(args[1])
        else:
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
    lock = threading.Lock()

    def say(word: str, unit: str, secs: float, cpu: float) -> None:
        with lock:
            print(f"start {unit}" if word == "start" else f"done {unit} {secs:.2f} {cpu:.2f}", flush=True)

    warm(args, jobs=jobs, events=say, load=False)
    return 0


if __name__ == "__main__":
    # run the imported module's main, not this __main__ copy's: the modules named by --import
    # register their groups in gorilla.ai.warmup (a copy run as __main__ would not know them)
    from gorilla.ai import warmup as _warmup

    raise SystemExit(_warmup.main())
