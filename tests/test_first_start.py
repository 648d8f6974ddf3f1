"""The first start: kernels compile before the first timed job, and no move is played unsearched."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from gorilla.ai import warmup
from gorilla.ai.agent import Budget
from gorilla.ai.mcts.agent import MIN_PLAYOUTS, MCTSAgent
from gorilla.rules.coords import parse_vertex, to_xy
from gorilla.rules.game import Game


def line_of(vertex: str, size: int) -> int:
    """1 for an edge point, 2 for the second line, ... (the smaller distance to an edge)."""
    x, y = to_xy(parse_vertex(vertex, size), size)
    return 1 + min(x, y, size - 1 - x, size - 1 - y)


def test_a_search_whose_budget_is_spent_at_once_still_searches() -> None:
    agent = MCTSAgent(seed=3)
    try:
        game = Game.new(9)
        agent.select_move(game, Budget(playouts=MIN_PLAYOUTS))  # compiled
        move = agent.select_move(game, Budget(seconds=1e-6))
        assert agent.last_playouts >= MIN_PLAYOUTS
        assert move >= 0 and sum(c.visits for c in agent.last_candidates) >= MIN_PLAYOUTS - 1
    finally:
        agent.close()


def test_a_cancelled_search_stops_without_the_minimum() -> None:
    import threading

    agent = MCTSAgent(seed=3)
    cancel = threading.Event()
    cancel.set()
    try:
        t = time.perf_counter()
        agent.select_move(Game.new(9), Budget(seconds=5.0), cancel=cancel)
        assert time.perf_counter() - t < 2.0
    finally:
        agent.close()


@pytest.mark.parametrize(
    ("specs", "extra", "expected"),
    [
        (["human", "human"], (), ["rules"]),
        (["mcts:time=2", "human"], (), ["rules", "mcts"]),
        (
            ["mcts:patterns=mogo", "montecarlo:5,5"],
            ("ownership",),
            ["rules", "control", "flat", "mcts", "patterns", "ownership"],
        ),
        (["alphabeta"], (), ["rules", "alphabeta"]),
        (["mcts:policy=0,time=1"], (), ["rules", "mcts-plain"]),  # without the move model
        (["mcts:policy=20", "mcts:policy=0"], (), ["rules", "mcts", "mcts-plain"]),
        (["gtp:gnugo --mode gtp"], (), ["rules"]),
        (["mcts:ladders=1"], (), ["rules", "mcts", "ladders"]),  # their own search kernel
    ],
)
def test_each_player_compiles_what_it_uses(
    specs: list[str], extra: tuple[str, ...], expected: list[str]
) -> None:
    assert warmup.groups_for(specs, extra=extra) == expected


def test_the_warm_up_child_fills_the_cache_and_marks_each_group(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-m", "gorilla.ai.warmup", "rules", "control"],
        env=env, capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    lines = out.stdout.split()
    assert out.stdout.splitlines()[0] == "start rules" and "done" in lines and "control" in lines
    assert (tmp_path / "warm-rules").exists() and (tmp_path / "warm-control").exists()
    assert list(tmp_path.rglob("*.nbi")), "numba wrote no cache index"
    bad = subprocess.run(
        [sys.executable, "-m", "gorilla.ai.warmup", "nonesuch"], env=env, capture_output=True, text=True
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    unknown = subprocess.run(
        [sys.executable, "-m", "gorilla.ai.warmup", "--import", "gorilla.nonesuch", "rules"],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert unknown.returncode == 2 and "cannot import gorilla.nonesuch" in unknown.stderr
    assert len(unknown.stderr.strip().splitlines()) == 1


def test_a_package_above_registers_its_group_and_the_compiler_child_imports_it(tmp_path: Path) -> None:
    import gorilla.gomoku.agents  # noqa: F401 - registers "gomoku"
    from gorilla.app.compiler import Compiler

    assert warmup.PROVIDERS["gomoku"] == "gorilla.gomoku.agents" and "gomoku" in warmup.GROUPS
    # the child's command line names the module that registered the group: a stand-in
    # interpreter records the command line it was given
    record = tmp_path / "argv.txt"
    fake = tmp_path / "python"
    fake.write_text(f'#!/bin/sh\necho "$@" > {record}\n')
    fake.chmod(0o755)
    c = Compiler(["gomoku"], python=str(fake), start=False)
    c.cold = ["gomoku"]
    proc = c._start_child()
    assert proc is not None
    c._follow_child(proc)
    expected = ["-m", "gorilla.ai.warmup", "--import", "gorilla.gomoku.agents", "gomoku"]
    assert record.read_text().split() == expected


def test_the_compile_names_the_units_still_running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the child and its helper compile two units at once; the one that ends leaves the status
    from gorilla.app.compiler import Compiler

    monkeypatch.setattr(warmup, "is_warm", lambda group: False)
    fake = tmp_path / "python"
    lines = ["start rules", "start gomoku-basic", "done gomoku-basic 1 1"]
    fake.write_text("#!/bin/sh\n" + "".join(f"echo '{ln}'\n" for ln in lines) + "exec sleep 30\n")
    fake.chmod(0o755)
    import gorilla.gomoku.agents  # noqa: F401 - registers the Gomoku groups

    c = Compiler(["gomoku-basic"], python=str(fake), start=False)
    monkeypatch.setattr(c, "_load", lambda group: c._ready.add(group))  # nothing to load here
    c.start()
    try:
        end = time.monotonic() + 20
        while not c.ready("gomoku-basic"):
            assert time.monotonic() < end
            time.sleep(0.02)
        assert c.status().startswith("Compiling the engine (rules): ") and 0 < c.fraction < 1
    finally:
        c.close()


def _genmove(cache: Path, size: int) -> tuple[str, float, str]:
    """A fresh ``gorilla gtp --ai mcts --time 1`` on the cache folder:
    (its first genmove, the seconds that took, its stderr)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gorilla", "gtp", "--ai", "mcts", "--time", "1", "--size", str(size)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert proc.stdin and proc.stdout
    proc.stdin.write("1 name\n")
    proc.stdin.flush()
    assert proc.stdout.readline().startswith("=1")  # answered once it is ready (compiled)
    proc.stdout.readline()
    t = time.perf_counter()
    proc.stdin.write("2 genmove b\n")
    proc.stdin.flush()
    answer = proc.stdout.readline()
    took = time.perf_counter() - t
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    _, err = proc.communicate(timeout=60)
    assert answer.startswith("=2 "), answer
    return answer.split()[1], took, err


@pytest.mark.slow
def test_cold_start_gtp_plays_a_searched_move_on_9x9_then_19x19(tmp_path: Path) -> None:
    move, took, err = _genmove(tmp_path, 9)
    assert "compiling the engine" in err and "ready" in err
    assert 3 <= line_of(move, 9) <= 5, move
    # a searched move in about its second: compiling the search (tens of seconds) did not land in
    # it; the margin is for a busy machine
    assert took < 1.0 + 10.0, f"the first genmove took {took:.1f} s with --time 1"
    move, took, err = _genmove(tmp_path, 19)  # the cache was filled on 9x9 only
    assert "compiling" not in err
    # a searched move, not the unsearched first candidate (A19) of a search whose budget went
    # into compiling: with the move model's priors, an opening move on the 3rd-5th line
    assert 3 <= line_of(move, 19) <= 5, move
    assert took < 1.0 + 10.0, f"the first 19x19 genmove took {took:.1f} s with --time 1"


FAKE_GROUPS = """
import os

from gorilla.ai import warmup


def _unit(name):
    def run():
        if name in os.environ.get("FAKE_WARMUP_FAIL_IN_HELPER", "").split() and (
            os.getpid() != int(os.environ["FAKE_WARMUP_PARENT"])
        ):
            os._exit(3)  # the helper dies on this unit
        with open(os.environ["FAKE_WARMUP_LOG"], "a") as f:
            f.write(f"{name} {os.getpid()}\\n")

    run.__module__ = __name__
    return run


for name, secs in (("fake-a", 5.0), ("fake-b", 4.0), ("fake-big", 1.0)):
    warmup.register(name, _unit(name), secs)
warmup.PARTS["fake-big"] = ("fake-a", "fake-b")
"""


@pytest.fixture
def fake_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Groups whose workloads only log (name, pid): fake-big has the parts fake-a and fake-b;
    registered here and, through --import, in the helper process. Returns the log file."""
    (tmp_path / "fake_warmup_groups.py").write_text(FAKE_GROUPS)
    for table in ("GROUPS", "PROVIDERS", "PARTS"):
        monkeypatch.setattr(warmup, table, dict(getattr(warmup, table)))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("FAKE_WARMUP_LOG", str(tmp_path / "log.txt"))
    monkeypatch.setenv("FAKE_WARMUP_PARENT", str(os.getpid()))
    (tmp_path / "cache").mkdir()
    sys.modules.pop("fake_warmup_groups", None)
    import fake_warmup_groups  # noqa: F401 - registers the groups

    return tmp_path / "log.txt"


def test_a_cold_group_is_split_between_this_process_and_a_helper(fake_groups: Path) -> None:
    cold = warmup.units(["fake-big"])
    assert cold == ["fake-a", "fake-b", "fake-big"]  # the parts first
    mine, theirs, secs = warmup.plan(cold, jobs=2)
    # the split that ends soonest: fake-a here (5 s) while the helper starts and compiles
    # fake-b, then fake-big here once both parts are in the cache
    assert (mine, theirs) == (["fake-a", "fake-big"], ["fake-b"])
    assert secs == pytest.approx(max(5.0, warmup.HELPER_START + 4.0) + 1.0)
    assert warmup.plan(cold, jobs=1) == (cold, [], 10.0)
    events: list[tuple[str, str]] = []
    warmup.warm(["fake-big"], jobs=2, events=lambda word, unit, s, c: events.append((word, unit)))
    log = [line.split() for line in fake_groups.read_text().splitlines()]
    me = str(os.getpid())
    assert [u for u, _ in log if _ == me] == ["fake-a", "fake-big"]
    assert [u for u, pid in log if pid != me] == ["fake-b"]  # in the helper
    assert [u for u, _ in log].index("fake-b") < [u for u, _ in log].index("fake-big")
    for u in cold:  # every unit reported once, and marked in the cache
        assert events.count(("start", u)) == events.count(("done", u)) == 1
        assert warmup.is_warm(u)
    # warm now: nothing to split, nothing compiled, the group only loaded here
    assert warmup.units(["fake-big"]) == ["fake-big"] and warmup.estimate(["fake-big"]) == 0.0


def test_what_a_dead_helper_left_is_compiled_here(fake_groups: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_WARMUP_FAIL_IN_HELPER", "fake-b")
    warmup.warm(["fake-big"], jobs=2)
    log = [line.split() for line in fake_groups.read_text().splitlines()]
    assert [u for u, _ in log] == ["fake-a", "fake-b", "fake-big"]
    assert {pid for _, pid in log} == {str(os.getpid())}
    assert all(warmup.is_warm(u) for u in ("fake-a", "fake-b", "fake-big"))


def test_the_default_search_compiles_in_two_parts_and_the_rest() -> None:
    # the search kernels' large callees compile as parts, each loadable by itself
    assert warmup.PARTS["mcts"] == ("mcts-model", "mcts-playout")
    mine, theirs, secs = warmup.plan(["rules", "mcts-model", "mcts-playout", "mcts", "ownership"], jobs=2)
    assert theirs and "mcts" in mine and mine.index("mcts") == len(mine) - 1 and "rules" in mine
    assert sorted(mine + theirs) == sorted(["rules", "mcts-model", "mcts-playout", "mcts", "ownership"])
    serial = sum(warmup.GROUPS[u][1] for u in mine + theirs)
    assert secs < 0.75 * serial


def test_gomokus_engine_compiles_the_pvs_here_and_the_rest_in_a_helper() -> None:
    import gorilla.gomoku.agents  # noqa: F401 - registers "gomoku" and its parts

    parts = ("gomoku-basic", "gomoku-pvs", "gomoku-threats", "gomoku-mcts")
    assert warmup.PARTS["gomoku"] == parts
    assert all(warmup.PROVIDERS[u] == "gorilla.gomoku.agents" for u in (*parts, "gomoku"))
    # the threat solvers call the PVS's solver: they follow it in this process
    assert warmup.PARTS["gomoku-threats"] == ("gomoku-pvs",)
    mine, theirs, secs = warmup.plan([*parts, "gomoku"], jobs=2)
    assert mine == ["gomoku-pvs", "gomoku-threats", "gomoku"] and sorted(theirs) == [
        "gomoku-basic",
        "gomoku-mcts",
    ]
    assert secs < sum(warmup.GROUPS[u][1] for u in (*parts, "gomoku"))
    assert warmup.plan([*parts, "gomoku"], jobs=1)[1] == []


def test_each_gomoku_agent_compiles_only_what_it_calls() -> None:
    from gorilla.gomoku.agents import AGENTS, engine_groups

    assert engine_groups(["random"]) == engine_groups(["threat1"]) == ["gomoku-basic"]
    assert engine_groups(["pbrain:pbrain-wine"]) == ["gomoku-basic"]  # the rules it is checked by
    assert engine_groups(["pvs:w_three=120"]) == ["gomoku-basic", "gomoku-pvs"]
    assert engine_groups(["vct", "mcts"]) == ["gomoku-basic", "gomoku-pvs", "gomoku-threats", "gomoku-mcts"]
    assert engine_groups(None) == engine_groups(["no-such-agent"]) == ["gomoku"]
    assert all(set(engine_groups([a])) <= set(warmup.PARTS["gomoku"]) for a in AGENTS)


# the head of a child's script: after ``ready()`` (the warm-up under test) it lists the kernels
# numba compiles (its compile events; loading one from the cache fires none) while it plays
_LISTENING = r"""
import sys
from numba.core import event

compiled = []

class Listener(event.Listener):
    def on_start(self, ev):
        compiled.append(str(ev.data["dispatcher"].py_func.__qualname__))

    def on_end(self, ev):
        pass

def ready(warm, *args):
    warm(*args)
    event.register("numba:compile", Listener())

spec = sys.argv[1]
"""


def compiled_while_playing(script: str, agent: str) -> list[str]:
    """The kernels the child script compiled after its warm-up, playing agent."""
    out = subprocess.run(
        [sys.executable, "-c", _LISTENING + script, agent],
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    ).stdout
    return out.splitlines()[-1].split()[1:]


_AGENT_PLAYS = r"""
from gorilla.gomoku import agents as A, rules as R
from gorilla.gomoku.game import GomokuGame

ready(A.ready_engine, [spec])
agent = A.make_agent(spec, 1)
for rule in (R.FREESTYLE, R.RENJU):
    g = GomokuGame(15, rule)
    agent.new_game()
    # Black's open three on the first line of play: White must answer it
    for x, y in ((7, 7), (8, 8), (7, 6), (9, 9), (7, 5)):
        g.play_xy(x, y)
    for _ in range(6):  # a fast agent may win within them: the game ends there
        if g.over:
            break
        g.play(agent.select(g, 0.05).move)
print("compiled:", *compiled)
"""


@pytest.mark.parametrize("agent", ["random", "threat1", "pvs", "pvs+vct", "mcts"])
def test_a_gomoku_agents_moves_compile_nothing_once_its_groups_are_ready(agent: str) -> None:
    # after ready_engine([agent]) no kernel compiles during the agent's (timed) moves
    assert compiled_while_playing(_AGENT_PLAYS, agent) == []


_HUMANS_PLAY = r"""
from gorilla.app.gomoku.players import builtin_agents
from gorilla.app.gomoku.controller import GomokuController
from gorilla.app.gomoku.values import evaluate_moves
from gorilla.gomoku import agents as A, rules as R
from gorilla.gomoku.game import GomokuGame

ready(A.ready_engine, builtin_agents([spec, spec]))
for rule in (R.FREESTYLE, R.RENJU):
    c = GomokuController(GomokuGame(15, rule), spec, spec)
    for x, y in ((7, 7), (8, 8), (7, 6), (9, 9), (7, 5), (6, 6), (7, 4)):
        evaluate_moves(c.gomoku)  # the e key's values
        c.gomoku.play_xy(x, y)
print("compiled:", *compiled)
"""


def test_a_game_between_humans_compiles_nothing_once_the_rules_are_ready() -> None:
    # the window readies only the rules for two humans: their moves and the e key's values
    # (the static evaluation) compile nothing more
    assert compiled_while_playing(_HUMANS_PLAY, "human") == []


def test_the_window_compiles_only_the_gomoku_players_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    from gorilla.app import game_kinds
    from gorilla.app.compiler import Compiler

    asked: list[list[str]] = []

    def groups_of(groups, **kw):  # what the compiler covers (not Go's rules), not started
        asked.append(list(groups))
        return Compiler(groups, start=False, **kw).groups

    monkeypatch.setattr(game_kinds, "Compiler", groups_of)
    monkeypatch.setattr(warmup, "is_warm", lambda group: False)
    assert game_kinds.gomoku_compiler(["human", "human"]) == ["gomoku-basic"]
    threats = ["gomoku-basic", "gomoku-pvs", "gomoku-threats"]
    assert game_kinds.gomoku_compiler(["human", "pvs+vct:2"]) == threats
    assert game_kinds.gomoku_compiler(["mcts", "pbrain:no-such-brain"]) == ["gomoku-basic", "gomoku-mcts"]
    assert game_kinds.gomoku_compiler(["threat1", "nobody:1"]) == ["gomoku-basic"]  # the game says why
    monkeypatch.setattr(warmup, "is_warm", lambda group: group != "gomoku-mcts")
    assert game_kinds.gomoku_compiler(["human", "pvs"]) is None  # in the cache: nothing to wait for
    assert game_kinds.gomoku_compiler(["mcts", "human"]) == ["gomoku-basic", "gomoku-mcts"]
    assert len(asked) == 5


def test_a_group_with_parts_that_are_not_registered_is_refused() -> None:
    before = dict(warmup.GROUPS)
    with pytest.raises(ValueError, match="not registered"):
        warmup.register("test-group", lambda: None, 1.0, parts=("rules", "no-such-part"))
    assert before == warmup.GROUPS and "test-group" not in warmup.PARTS


def test_no_helper_without_a_free_core(monkeypatch: pytest.MonkeyPatch) -> None:
    # on a busy machine a helper only adds its own start and the kernels both processes compile
    monkeypatch.setattr(warmup, "JOBS", 2)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.3, 0.3, 0.3))
    assert warmup.default_jobs() == 2
    monkeypatch.setattr(os, "getloadavg", lambda: (1.6, 1.0, 1.0))
    assert warmup.default_jobs() == 1
    monkeypatch.setattr(warmup, "JOBS", 1)  # GORILLA_COMPILE_JOBS=1 or one core
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert warmup.default_jobs() == 1


def test_the_announced_seconds_follow_the_machines_pace(
    fake_groups: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the "about N s" line scales the table's seconds by how long a short timed work takes here
    # and now: a machine (or a moment) twice as slow announces twice the seconds
    lines: list[str] = []

    class Stream:
        def write(self, text: str) -> None:
            lines.append(text)

        def flush(self) -> None:
            pass

    # on a clock that only the pace work moves: the pace is the work's, not the machine's load
    now = [0.0]
    monkeypatch.setattr(warmup, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(warmup, "default_jobs", lambda: 1)  # and the plan not the load average's

    def runs_of(*seconds: float) -> None:
        left = [s * warmup.PACE_SECONDS for s in seconds]
        monkeypatch.setattr(warmup, "_pace_work", lambda: now.__setitem__(0, now[0] + left.pop(0)))

    def announced(seconds_per_run: float) -> float:
        runs_of(*[seconds_per_run / warmup.PACE_SECONDS] * 3)
        lines.clear()
        say = warmup.stderr_progress("gorilla test", ["fake-big"], Stream())  # type: ignore[arg-type]
        assert say is not None
        say("fake-big", 0, 3)
        return float("".join(lines).split("about ")[1].split(" s")[0])

    slow = announced(2 * warmup.PACE_SECONDS / 3)
    fast = announced(warmup.PACE_SECONDS / 3)
    assert slow == pytest.approx(2 * fast, abs=1)  # whole seconds
    assert fast == pytest.approx(warmup.estimate(["fake-big"]), abs=0.5)  # the reference pace
    # pace(): three times the median run's seconds over PACE_SECONDS (the pace work is a third of
    # the reference's), between 0.25 and 8
    for runs, want in (([1 / 2] * 3, 1.5), ([1 / 3, 5, 1 / 4], 1.0), ([0.01] * 3, 0.25), ([3] * 3, 8.0)):
        runs_of(*runs)
        assert warmup.pace() == pytest.approx(want), runs


def test_the_nets_parts_compile_the_kernels_as_play_calls_them() -> None:
    """The net's parts (compiled in a helper process on a cold start) call its kernels with the
    types play uses: a part with other types would compile a second specialization, and the
    net group would compile the kernel again after all. One specialization per kernel, after
    the parts, the group, and encoding and searching real games on two board sizes."""
    import numba

    from gorilla.ai.net import features_kernels, winograd
    from gorilla.ai.net.inputs import encode
    from gorilla.ai.puct import search
    from gorilla.gtp.main import first_groups

    assert warmup.PARTS["net"] == ("net-ladders", "net-area", "net-search")
    assert first_groups("net") == ["rules", "net"] and "ownership" in first_groups("mcts")
    for unit in (*warmup.PARTS["net"], "net"):
        warmup.GROUPS[unit][0]()
    for size, moves in ((9, "E5 C3 pass"), (13, "D4 K10 C3 C4 B4 D3 D2 E3 pass")):
        game = Game.new(size)
        for v in moves.split():
            game.play(parse_vertex(v, size))
        encode(game)
    several = {
        f"{module.__name__}.{name}": len(fn.signatures)
        for module in (features_kernels, winograd, search)
        for name, fn in vars(module).items()
        if isinstance(fn, numba.core.registry.CPUDispatcher) and len(fn.signatures) > 1
    }
    assert several == {}


_GO_AGENT_PLAYS = r"""
from gorilla.ai import warmup
from gorilla.ai.agent import Budget, make_agent
from gorilla.rules.game import Game

ready(warmup.warm, warmup.groups_for([spec]))
agent = make_agent(spec)
try:
    for size in (9, 19):
        g = Game.new(size)
        for _ in range(4):
            g.play(agent.select_move(g, Budget(playouts=64, seconds=0.3)))
        g.score()
finally:
    getattr(agent, "close", lambda: None)()
print("compiled:", *sorted(set(compiled)))
"""


@pytest.mark.parametrize("agent", ["random", "montecarlo", "mcts", "net", "alphabeta", "minimax"])
def test_a_go_agents_moves_compile_nothing_once_its_groups_are_ready(agent: str) -> None:
    # what gtp and match compile before the first timed move covers every kernel of the moves
    assert compiled_while_playing(_GO_AGENT_PLAYS, agent) == []
