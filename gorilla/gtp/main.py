"""``gorilla gtp``: the wiring of the GTP engine (its command sets, flags and entry point).

:func:`make_engine` builds a :class:`~gorilla.gtp.protocol.GtpEngine` and registers
the standard commands (:mod:`gorilla.gtp.commands`) and the analysis commands
(:mod:`gorilla.gtp.analysis`, :mod:`gorilla.gtp.kata_analysis`); :func:`main` serves them on stdin/stdout.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys

from gorilla.ai.agent import Agent, Budget, make_agent, parse_spec
from gorilla.ai.net import NetError
from gorilla.ai.playout import catalog
from gorilla.ai.playout.catalog import PatternError
from gorilla.ai.warmup import groups_for, stderr_progress, warm
from gorilla.gtp import analysis, commands, kata_analysis
from gorilla.gtp import net as net_commands
from gorilla.gtp.protocol import GtpEngine, one_line
from gorilla.rules.coords import check_size
from gorilla.rules.game import Game
from gorilla.rules.rulesets import get_ruleset

# the standard commands; the analysis commands (Leela Zero's, GoGui's, KGS's, KataGo's, the net's)
COMMAND_SETS = (commands.COMMANDS, analysis.COMMANDS | kata_analysis.COMMANDS | net_commands.COMMANDS)


def make_engine(
    game: Game,
    agent: Agent,
    *,
    budget: Budget | None = None,
    name: str = "Gorilla",
    with_analysis: bool = True,
) -> GtpEngine:
    """A GTP engine with the standard commands, and the analysis commands unless with_analysis=False."""
    engine = GtpEngine(game, agent, budget=budget, name=name)
    for table in COMMAND_SETS if with_analysis else COMMAND_SETS[:1]:
        for command, handler in table.items():
            engine.register(command, handler)
    return engine


def build_parser() -> argparse.ArgumentParser:
    """The ``gorilla gtp`` flags."""
    p = _Parser(
        prog="gorilla gtp",
        description="Speak GTP version 2 on stdin/stdout.",
        allow_abbrev=False,
    )
    p.add_argument("--rules", default="chinese", help="chinese, japanese, tromp-taylor or little-go")
    p.add_argument("--size", type=int, default=None, help="board size 2..25 (default: the ruleset's)")
    p.add_argument("--komi", type=float, default=None, help="komi (default: the ruleset's)")
    p.add_argument(
        "--ko",
        choices=("rules", "simple", "superko"),
        default="rules",
        help="ko rule: the ruleset's (default), simple ko, or positional superko",
    )
    p.add_argument(
        "--ai",
        default="net",
        help="net (the default: the neural network's search), mcts, montecarlo, alphabeta or random "
        "(or a spec: net:visits=400, mcts:threads=2)",
    )
    p.add_argument("--games", type=int, default=None, help="montecarlo: sample games per move (G)")
    p.add_argument("--turns", type=int, default=None, help="montecarlo: turns per sample (T; 0 = to the end)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=int, default=None, help="playouts per move")
    budget.add_argument("--time", type=float, default=None, help="seconds per move")
    p.add_argument("--threads", type=int, default=None, help="search threads (net, mcts)")
    p.add_argument("--seed", type=int, default=None, help="random seed")
    p.add_argument("--name", default="Gorilla", help="name reported by the GTP 'name' command")
    p.add_argument(
        "--net", default=None, metavar="FILE", help="a KataGo net (.bin.gz) for kata-raw-nn (default: ours)"
    )
    catalog.add_options(p)
    return p


class _Parser(argparse.ArgumentParser):
    """argparse that raises ValueError instead of printing and exiting on bad flags."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Raise ValueError(message) instead of printing the usage and exiting."""
        raise ValueError(message)


def _fail(parser: argparse.ArgumentParser, message: str) -> int:
    print(f"gorilla gtp: error: {message}", file=sys.stderr)
    parser.print_usage(sys.stderr)
    return 2


def engine_from_args(argv: list[str]) -> GtpEngine:
    """A GtpEngine from ``gorilla gtp`` flags; raises ValueError with a one-line reason."""
    parser = build_parser()
    ns = parser.parse_args(argv)
    ruleset = get_ruleset(ns.rules)
    if ns.ko != "rules":
        ruleset = dataclasses.replace(ruleset, superko=ns.ko == "superko")
    size = ns.size or ruleset.default_size
    check_size(size)
    for flag, value in (("--games", ns.games), ("--playouts", ns.playouts), ("--threads", ns.threads)):
        if value is not None and value < 1:
            raise ValueError(f"{flag} must be at least 1")
    if ns.turns is not None and ns.turns < 0:
        raise ValueError("--turns must be 0 or more")
    if ns.time is not None and not ns.time > 0:
        raise ValueError("--time must be positive")
    name = parse_spec(ns.ai)[0]
    overrides: dict[str, object] = {"seed": ns.seed}
    if ns.games is not None or ns.turns is not None:
        if name != "montecarlo":
            raise ValueError("--games/--turns apply to --ai montecarlo only")
        overrides.update(games=ns.games, turns=ns.turns)
    if ns.threads is not None:
        if name not in ("mcts", "net"):
            raise ValueError("--threads applies to --ai net and mcts only")
        overrides["threads"] = ns.threads
    if name == "net" and ns.net is not None:
        overrides["net"] = ns.net
    (spec,) = catalog.apply_options([ns.ai], ns.mc_patterns, ns.mc_load_patterns)
    try:
        agent = make_agent(spec, **overrides)
    except NetError as e:
        if "net" in overrides:  # --net's file cannot be read: the shipped net plays (main says why)
            del overrides["net"]
            agent = make_agent(spec, **overrides)
        else:  # not even the shipped net: play on without one, and say so
            print(f"gorilla gtp: warning: {one_line(str(e))}; the classical MCTS plays", file=sys.stderr)
            spec = "mcts"
            agent = make_agent(spec, seed=ns.seed, threads=ns.threads or 1)
    game = Game(size, ruleset, ns.komi)
    budget = Budget(ns.playouts, ns.time) if (ns.playouts or ns.time) else None
    engine = make_engine(game, agent, budget=budget, name=ns.name)
    engine.agent_spec = spec
    if ns.net is not None:
        net_commands.set_net(engine, ns.net)  # a bad file: the engine goes on with the shipped net
    return engine


def first_groups(spec: str) -> list[str]:
    """The kernel groups ``gorilla gtp`` compiles (or loads) before its first command: the AI's,
    and for a classical AI the playouts' dead-stone estimate (its analysis and final_score use
    them). The net's AIs leave that estimate to be compiled when first asked for: it is not in
    their moves, and the first move after an install waits for every group here."""
    name = parse_spec(spec)[0]
    return groups_for([spec], extra=() if name in ("net", "rank", "scoreloss", "policy") else ("ownership",))


def main(argv: list[str] | None = None) -> int:
    """``gorilla gtp [flags]``: serve GTP on stdin/stdout; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if "--mc-list-patterns" in args:
        print(catalog.list_text())
        return 0
    try:
        engine = engine_from_args(args)
    except SystemExit as e:  # --help
        return int(e.code or 0)
    except ValueError as e:
        if isinstance(e, PatternError):  # a bad database: its one line says it all
            print(f"gorilla gtp: error: {one_line(str(e))}", file=sys.stderr)
            return 2
        return _fail(parser, one_line(str(e)))
    if getattr(engine, "net_warning", None):
        print(f"gorilla gtp: warning: {engine.net_warning}", file=sys.stderr)
    elif getattr(engine, "net_error", None):
        print(f"gorilla gtp: warning: no net: {engine.net_error}", file=sys.stderr)
    # compile (or load) the kernels before the first command: a GTP front end waits for a
    # slow start, but a first genmove must not pay for compiling
    groups = first_groups(engine.agent_spec)
    warm(groups, stderr_progress("gorilla gtp", groups))
    try:
        code = engine.run(sys.stdin.buffer, sys.stdout.buffer)
    except KeyboardInterrupt:
        code = 130
    finally:
        engine.agent.close()
    if engine.reader is not None and engine.reader.is_alive():
        # after ``quit`` the input thread may still wait in stdin's readline; an interpreter
        # shutting down around it aborts ("could not acquire lock for <stdin>"), so leave now
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
