"""``gorilla selfplay``: N games of one player against itself, as SGF files for training or study.

    gorilla selfplay SPEC [-n GAMES] [--size 9] [--komi K] [--rules chinese] [--openings K]
                     [--seed S] [-j J] [--cluster [ADDRESS]] [--out DIR] [--resume]

A self-play run is a match of SPEC against SPEC (:func:`gorilla.match.runner.run_match`),
so it has what matches have: one seed per game, results.jsonl, ``--resume``,
``-j`` processes and ``--cluster`` on Ray. Each game starts with its own K
random moves (``--openings``, default 4: seeded, off the first line), so the
games differ even between deterministic players. The SGFs land in
``DIR/games/``, the folder to give ``gorilla learn`` beside human games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gorilla.match.cli import (
    Parser,
    _slug,
    _UsageError,
    _validate,
    play,
    resumed_config,
    run_reporting,
    usage_error,
)
from gorilla.match.runner import GAMES_DIR, MatchConfig
from gorilla.rules.rulesets import get_ruleset

DEFAULT_OPENINGS = 4


def build_parser() -> argparse.ArgumentParser:
    """The ``gorilla selfplay`` flags (a bad one raises ValueError)."""
    p = Parser(
        prog="gorilla selfplay",
        description="Self-play games of one player spec, saved as SGF (for gorilla learn).",
        epilog="example: gorilla selfplay mcts:playouts=800 -n 200 --size 9 --cluster -o runs/sp",
    )
    p.add_argument("player", nargs="?", help="an AI spec (mcts:playouts=800) or a GTP engine command")
    p.add_argument("-n", "--games", type=int, default=10, help="number of games (10)")
    p.add_argument("--size", type=int, default=None, help="board size (default 9; 5 for Little-Go)")
    p.add_argument("--komi", type=float, default=None, help="komi (default: the rules' komi)")
    p.add_argument("--rules", default="chinese", help="chinese, japanese, tromp-taylor, little-go")
    p.add_argument("--openings", type=int, default=DEFAULT_OPENINGS, metavar="K", help="random first moves")
    p.add_argument("--seed", type=int, default=0, help="seed: the same seed gives the same games (0)")
    p.add_argument("--move-timeout", type=float, default=60.0, metavar="SEC", help="per-move limit (60)")
    p.add_argument("--max-moves", type=int, default=None, help="count the game after this many moves")
    p.add_argument("--jobs", "-j", type=int, default=None, help="games in parallel (or Ray workers)")
    p.add_argument("--cluster", nargs="?", const="", default=None, metavar="ADDRESS", help="play on Ray")
    p.add_argument("--out", "-o", default=None, metavar="DIR", help="output folder (default selfplay-SPEC)")
    p.add_argument("--resume", action="store_true", help="play the games DIR does not have yet")
    return p


def config_from_args(a: argparse.Namespace) -> MatchConfig:
    """The match behind a self-play run; raises ValueError with a one-line reason."""
    if a.resume:
        cfg = resumed_config(a.out)
        cfg.games = a.games
        if a.jobs is not None:
            cfg.jobs = a.jobs
        if a.cluster is not None:
            cfg.cluster = a.cluster
        return cfg
    if not a.player:
        raise ValueError("give the player to play itself, e.g. 'gorilla selfplay mcts:playouts=400'")
    size = a.size if a.size is not None else min(9, get_ruleset(a.rules).default_size)
    cfg = MatchConfig(
        players=[a.player, a.player],
        games=a.games,
        size=size,
        komi=a.komi,
        rules=a.rules,
        alternate=False,  # one player: every game gets its own opening
        openings=a.openings,
        seed=a.seed,
        move_timeout=a.move_timeout,
        jobs=a.jobs if a.jobs is not None else (0 if a.cluster is not None else 1),
        max_moves=a.max_moves,
        cluster=a.cluster,
    )
    cfg.out = a.out or f"selfplay-{_slug(a.player)}"
    return cfg


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``gorilla selfplay``; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        a = build_parser().parse_args(argv)
        cfg = config_from_args(a)
        _validate(cfg)
    except (ValueError, _UsageError) as e:
        return usage_error("gorilla selfplay", e)
    games = Path(cfg.out) / GAMES_DIR
    return run_reporting(
        "gorilla selfplay",
        f"selfplay: {cfg.players[0]}, {cfg.games} games on {cfg.size}x{cfg.size}, "
        f"{cfg.openings} random opening moves, SGFs in {games}",
        f"games so far are in {cfg.out} (--resume goes on)",
        lambda: play(cfg, resume=a.resume),
        lambda summary: _say_colours(summary, games),
    )


def _say_colours(summary: dict, games: Path) -> None:
    wins, draws = summary["color_wins"], summary["draws"]
    print(
        f"{summary['games']} games: Black won {wins['black']}, White won {wins['white']}, draws {draws}",
        file=sys.stderr,
    )
    print(str(games))


__all__ = ["build_parser", "config_from_args", "main"]
