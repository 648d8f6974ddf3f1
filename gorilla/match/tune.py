"""``gorilla tune``: SPSA self-play tuning of an agent spec's numeric settings.

    gorilla tune SPEC --param NAME=START:MIN:MAX [--param ...] [--iterations 20] [--games 8]
                 [--size 9] [--openings 2] [--seed S] [--a 0.1] [--c 0.1] [-j J] [--cluster [ADDRESS]]
                 [--out DIR]

Every iteration of :func:`gorilla.match.spsa.spsa` is a small match (``--games``,
colours alternating, seeded random openings) between SPEC with the plus- and
the minus-perturbed settings, played with :func:`gorilla.match.runner.run_match`
(locally, with ``-j``, or on the Ray cluster, which stays connected for the
whole run). For the MCTS the tunable settings are its spec keys, e.g.
``rave_equiv``, ``c_uct``, ``fpu``, ``expand``; any numeric spec key of any
built-in agent can be tuned. With ``--game gomoku`` the spec is a Gomoku agent and its
settings are the threat weights (``pvs:w_three=...``, :func:`gorilla.gomoku.agents.parse_agent_spec`):
the self-play tuning of the threat weights, from the shipped openings at ``--timeout-turn``.

It writes into DIR: ``tune.csv`` (per iteration: the gains a_k and c_k, the
settings played, theta+'s score and measured Elo gain over theta-, and the
settings after the update), ``tune.png`` (the settings over their ranges, and
the measured gains), ``final.txt`` (the tuned agent spec, printed on stdout
too), and each iteration's match under ``matches/``.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import sys
from pathlib import Path
from typing import TextIO

from gorilla.ai.agent import parse_spec
from gorilla.gomoku.rules import RULE_NAMES, rule_from_name
from gorilla.match.cli import Parser, run_reporting, usage_error
from gorilla.match.cluster import Cluster
from gorilla.match.gomoku_games import DEFAULT_OPENINGS
from gorilla.match.gomoku_players import check_gomoku_spec, is_pbrain
from gorilla.match.players import check_spec, is_builtin
from gorilla.match.plot import Canvas
from gorilla.match.runner import MatchConfig, run_match
from gorilla.match.spsa import Iteration, Param, SpsaSettings, spsa
from gorilla.rules.rulesets import get_ruleset

TUNE_CSV = "tune.csv"
TUNE_PNG = "tune.png"
FINAL = "final.txt"
COLORS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14), (23, 190, 207)]


def format_value(value: float, integer: bool) -> str:
    """A setting as a spec writes it: an integer without a point, else 6 significant digits."""
    return str(int(round(value))) if integer else f"{value:.6g}"


def with_settings(spec: str, values: dict[str, float], params: list[Param]) -> str:
    """spec with the settings in values put in (replacing the spec's own)."""
    name, args, kwargs = parse_spec(spec)
    integer = {p.name: p.integer for p in params}
    for k, v in values.items():
        kwargs[k] = format_value(v, integer.get(k, False))
    parts = [str(a) for a in args] + [f"{k}={v}" for k, v in kwargs.items()]
    return f"{name}:{','.join(parts)}" if parts else name


def write_csv(path: Path, params: list[Param], rows: list[Iteration]) -> None:
    """tune.csv: one row per iteration (see the module docstring)."""
    names = [p.name for p in params]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(
            ["iteration", "a_k", "c_k"]
            + [f"{n}_plus" for n in names]
            + [f"{n}_minus" for n in names]
            + ["score_plus", "elo_plus_minus"]
            + names
        )
        for it in rows:
            w.writerow(
                [it.k + 1, f"{it.a_k:.6g}", f"{it.c_k:.6g}"]
                + [f"{it.plus[n]:.6g}" for n in names]
                + [f"{it.minus[n]:.6g}" for n in names]
                + [f"{it.score:.4f}", f"{it.elo:.1f}"]
                + [f"{it.values[n]:.6g}" for n in names]
            )


def plot_trajectory(params: list[Param], rows: list[Iteration], title: str = "") -> Canvas:
    """Two panels: each setting over its range (0 = MIN, 1 = MAX) by iteration; theta+'s measured gain."""
    w, h = 900, 600
    cv = Canvas(w, h)
    left, right = 90, w - 30
    panels = [(60, 330), (390, 560)]
    n = max(1, len(rows))

    def x_of(i: float) -> float:
        return left + (right - left) * (i / n)

    if title:
        cv.text(left, 14, title[:60], (90, 90, 90), scale=2)
    top, bot = panels[0]
    for p in (0.0, 0.5, 1.0):
        y = int(bot - (bot - top) * p)
        cv.hline(left, right, y, (225, 225, 225))
        cv.text(left - 12 - cv.text_width(f"{p:g}"), y - 7, f"{p:g}", (90, 90, 90))
    for j, p in enumerate(params):
        color = COLORS[j % len(COLORS)]
        pts = [(x_of(0), bot - (bot - top) * p.to_unit(p.start))]
        pts += [(x_of(it.k + 1), bot - (bot - top) * p.to_unit(it.values[p.name])) for it in rows]
        cv.polyline(pts, color)
        cv.text(left + 10 + 200 * (j % 4), top - 24 + 0 * j, p.name[:16], color)
    top, bot = panels[1]

    def y_elo(e: float) -> float:
        return bot - (bot - top) * (e + 800) / 1600

    for e in (-800, 0, 800):
        cv.hline(left, right, int(y_elo(e)), (225, 225, 225) if e else (90, 90, 90), dashed=e == 0)
        label = f"{e:+d}" if e else "0"
        cv.text(left - 12 - cv.text_width(label), int(y_elo(e)) - 7, label, (90, 90, 90))
    cv.text(left, top - 24, "ELO PLUS - MINUS", (90, 90, 90))
    for it in rows:
        x, y = int(x_of(it.k + 1)), int(y_elo(it.elo))
        cv.rect(x - 2, y - 2, x + 2, y + 2, (214, 39, 40))
    for t, b in panels:
        cv.vline(left, t, b, (90, 90, 90))
        cv.hline(left, right, b, (90, 90, 90))
    for i in sorted({0, n // 2, n}):
        cv.text(int(x_of(i)) - cv.text_width(str(i)) // 2, panels[1][1] + 8, str(i), (90, 90, 90))
    cv.text((left + right) // 2 - cv.text_width("ITERATIONS") // 2, h - 18, "ITERATIONS", (90, 90, 90))
    return cv


def tune(
    spec: str,
    params: list[Param],
    settings: SpsaSettings,
    base: MatchConfig,
    log: TextIO | None = None,
) -> str:
    """Run SPSA on spec's params with base's match settings; write tune.csv, tune.png, final.txt
    into base.out and return the tuned spec. With base.cluster the games run on Ray."""
    log = sys.stderr if log is None else log
    out = Path(base.out)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[Iteration] = []
    names = [p.name for p in params]

    def show(it: Iteration) -> None:
        rows.append(it)
        write_csv(out / TUNE_CSV, params, rows)
        now = ", ".join(
            f"{n}={format_value(it.values[n], p.integer)}" for n, p in zip(names, params, strict=True)
        )
        print(
            f"iteration {it.k + 1}/{settings.iterations}: plus scored {100 * it.score:.0f}% "
            f"({it.elo:+.0f} Elo) -> {now}",
            file=log,
            flush=True,
        )

    ray = Cluster(base.cluster, num_cpus=base.jobs or None) if base.cluster is not None else None
    with ray if ray is not None else contextlib.nullcontext() as c:  # one connection for every iteration
        source = c.games if c is not None else None

        def objective(plus: dict[str, float], minus: dict[str, float], k: int) -> float:
            cfg = MatchConfig.from_json(base.to_json())
            cfg.players = [with_settings(spec, plus, params), with_settings(spec, minus, params)]
            cfg.seed = base.seed * 100_003 + k  # every iteration its own games
            cfg.out = str(out / "matches" / f"iter-{k + 1:04d}")
            summary = run_match(cfg, log=io.StringIO(), games=source)
            return (summary["wins"]["A"] + 0.5 * summary["draws"]) / max(1, summary["games"])

        rows_all = spsa(params, objective, settings, on_iteration=show)
    final_values = rows_all[-1].values if rows_all else {p.name: p.start for p in params}
    final = with_settings(spec, final_values, params)
    (out / FINAL).write_text(final + "\n", encoding="utf-8")
    plot_trajectory(params, rows, f"SPSA {parse_spec(spec)[0]}").save(out / TUNE_PNG)
    return final


def build_parser() -> argparse.ArgumentParser:
    """The ``gorilla tune`` flags (a bad one raises ValueError)."""
    p = Parser(
        prog="gorilla tune",
        description="Tune an AI's numeric settings by SPSA: small matches of +/- perturbed settings.",
        epilog=(
            "example: gorilla tune mcts:playouts=400 --param rave_equiv=3500:500:20000 "
            "--param fpu=1.1:0.6:1.5 --iterations 50 --games 16 --cluster -o runs/tune"
        ),
    )
    p.add_argument("spec", nargs="?", help="a built-in AI spec, e.g. mcts:playouts=400")
    p.add_argument(
        "--param", action="append", default=[], metavar="NAME=START:MIN:MAX", help="a setting to tune"
    )
    p.add_argument("--iterations", type=int, default=20, help="SPSA iterations (20)")
    p.add_argument("--games", "-n", type=int, default=8, help="games per iteration, even (8)")
    p.add_argument("--game", choices=("go", "gomoku"), default="go", help="go (default) or gomoku")
    p.add_argument("--size", type=int, default=None, help="board size (9; Gomoku 15)")
    p.add_argument("--komi", type=float, default=None, help="komi (default: the rules' komi)")
    p.add_argument("--rules", default=None, help="rules (chinese; Gomoku freestyle)")
    p.add_argument("--timeout-turn", type=int, default=300, metavar="MS", help="gomoku: ms a move (300)")
    p.add_argument("--openings", type=int, default=2, metavar="K", help="random first moves per pair (2)")
    p.add_argument("--seed", type=int, default=0, help="seed of the perturbations and the games (0)")
    p.add_argument("--a", type=float, default=0.1, help="SPSA step size, as a fraction of each range (0.1)")
    p.add_argument(
        "--c", type=float, default=0.1, help="SPSA perturbation, as a fraction of each range (0.1)"
    )
    p.add_argument("--move-timeout", type=float, default=60.0, metavar="SEC", help="per-move limit (60)")
    p.add_argument("--jobs", "-j", type=int, default=None, help="games in parallel (or Ray workers)")
    p.add_argument("--cluster", nargs="?", const="", default=None, metavar="ADDRESS", help="play on Ray")
    p.add_argument("--out", "-o", default=None, metavar="DIR", help="output folder (default tune-AI)")
    return p


def _checked(a: argparse.Namespace) -> tuple[list[Param], SpsaSettings, MatchConfig]:
    if not a.spec:
        raise ValueError(
            "give the AI spec to tune, e.g. 'gorilla tune mcts:playouts=400 --param fpu=1.1:0.6:1.5'"
        )
    gomoku = a.game == "gomoku"
    check = check_gomoku_spec if gomoku else check_spec
    builtin = (check_gomoku_spec(a.spec) is None and not is_pbrain(a.spec)) if gomoku else is_builtin(a.spec)
    if not builtin:
        raise ValueError(f"'{a.spec}' is not a built-in AI spec (only those have settings to tune)")
    if not a.param:
        raise ValueError("give at least one --param NAME=START:MIN:MAX")
    params = [Param.parse(t) for t in a.param]
    if len({p.name for p in params}) != len(params):
        raise ValueError("each --param once")
    for p in params:
        for v in (p.start, p.lo, p.hi):
            why = check(with_settings(a.spec, {p.name: v}, params))
            if why:
                raise ValueError(why)
    if a.iterations < 1 or a.games < 2 or a.games % 2:
        raise ValueError("--iterations must be at least 1 and --games even and at least 2")
    if not 0 < a.c <= 0.5 or a.a <= 0:
        raise ValueError("--c must be in (0, 0.5] and --a positive")
    size = a.size or (15 if gomoku else 9)
    if not (5 if gomoku else 2) <= size <= 25:
        raise ValueError(f"board size {size} is outside {5 if gomoku else 2}..25")
    if a.jobs is not None and a.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    rules = (
        RULE_NAMES[rule_from_name(a.rules or "freestyle")]
        if gomoku
        else get_ruleset(a.rules or "chinese").name
    )
    base = MatchConfig(
        players=[a.spec, a.spec],
        games=a.games,
        size=size,
        komi=a.komi,
        rules=rules,
        openings=a.openings,
        seed=a.seed,
        move_timeout=a.move_timeout,
        jobs=a.jobs if a.jobs is not None else (0 if a.cluster is not None else 1),
        cluster=a.cluster,
        out=a.out or f"tune-{parse_spec(a.spec)[0]}",
    )
    if gomoku:  # the openings file's openings, each with both colours, at the protocol's time limit
        base.game, base.openings, base.openings_file = "gomoku", 0, str(DEFAULT_OPENINGS)
        base.timeout_turn = a.timeout_turn
    return params, SpsaSettings(iterations=a.iterations, a=a.a, c=a.c, seed=a.seed), base


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``gorilla tune``; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        a = build_parser().parse_args(argv)
        params, settings, base = _checked(a)
    except ValueError as e:
        return usage_error("gorilla tune", e)
    return run_reporting(
        "gorilla tune",
        f"tune: {a.spec}, {', '.join(p.name for p in params)}: {settings.iterations} iterations of "
        f"{base.games} games on {base.size}x{base.size}, results in {base.out}",
        f"the iterations so far are in {Path(base.out) / TUNE_CSV}",
        lambda: tune(a.spec, params, settings, base),
        print,
    )


__all__ = ["build_parser", "format_value", "main", "plot_trajectory", "tune", "with_settings", "write_csv"]
