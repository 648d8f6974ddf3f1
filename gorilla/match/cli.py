"""``gorilla match``: play a series of games between two players, or report on one.

    gorilla match PLAYER_A PLAYER_B [-n GAMES] [--size 9] [--komi 7.5] [--rules chinese]
                  [--handicap H] [--openings K] [--seed S] [--move-timeout SEC] [--jobs J]
                  [--out DIR] [--referee CMD] [--no-alternate] [--sprt ELO0,ELO1[,ALPHA,BETA]]
                  [--cluster [ADDRESS]]
    gorilla match --rules little-go --black-file-agent CMD PLAYER   (or --white-file-agent CMD)
    gorilla match --game gomoku PLAYER_A PLAYER_B [--rules freestyle|standard|renju|caro] [--size 15]
                  [--openings-file FILE|none | --swap2] [--timeout-turn MS] [--timeout-match MS] ...
    gorilla match --resume --out DIR [-n GAMES]
    gorilla match --report DIR

A player is a built-in AI spec (``random``, ``montecarlo:5,5``, ``mcts:playouts=500``,
``mcts:time=2,threads=2``) or an external GTP engine command in quotes
(``"gnugo --mode gtp --level 10"``, ``"python -m gorilla gtp --ai mcts"``),
or a file agent ``"file:CMD"``: a program run once per move in its own scratch
folder with the Little-Go tournament files (it reads ``input.txt``, writes
``output.txt``; the folder and anything it keeps there last for the game).
Player A takes Black in the first game; colours alternate.
``--black-file-agent CMD`` is short for player A = ``file:CMD`` with
``--no-alternate`` (the file agent always plays Black against the one PLAYER
given); ``--white-file-agent CMD`` makes it player B, always White.
The board size defaults to the rules' own for Little-Go (5x5), else 9.

``--sprt ELO0,ELO1[,ALPHA,BETA]`` stops the match (at most ``-n`` games) as soon
as the trinomial SPRT (:mod:`gorilla.match.sprt`) accepts H0 (A - B = ELO0) or
H1 (A - B = ELO1); alpha and beta default to 0.05.
``--game gomoku`` plays five in a row (:mod:`gorilla.match.gomoku_games`): a player is a
built-in Gomoku agent (``random``, ``threat1``, ``pvs``, ``pvs+vct``, ``mcts``) or an
external Gomocup brain ``"pbrain:CMD"``; each opening of the openings file (default the
shipped ``assets/gomoku_openings.txt``, ``none`` for an empty board) is played with both
colours, under the protocol's time controls ``--timeout-turn`` and ``--timeout-match``
(milliseconds, 0 none).
``--cluster [ADDRESS]`` plays the games as Ray tasks (:mod:`gorilla.match.cluster`):
on the cluster at ADDRESS or ``RAY_ADDRESS``, else on a local Ray instance;
``-j`` is then the number of worker actors (default: one per cluster CPU).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

from gorilla.ai.agent import parse_spec
from gorilla.ai.playout import catalog
from gorilla.gomoku.rules import MAX_SIZE, MIN_SIZE, RULE_NAMES, rule_from_name
from gorilla.match.cluster import Cluster, ClusterError
from gorilla.match.gomoku_games import DEFAULT_OPENINGS, load_openings
from gorilla.match.gomoku_players import check_gomoku_spec
from gorilla.match.players import check_spec, is_builtin
from gorilla.match.runner import CONFIG, MatchConfig, run_match
from gorilla.match.sprt import Sprt
from gorilla.rules.handicap import fixed_handicap_points
from gorilla.rules.rulesets import get_ruleset

T = TypeVar("T")


class _UsageError(ValueError):
    """A bad flag or setting: one line and exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse for match, selfplay and tune: a bad flag raises _UsageError (one line, status 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Raise _UsageError(message) instead of printing the usage and exiting."""
        raise _UsageError(message)


def usage_error(program: str, e: Exception) -> int:
    """Say a bad flag or setting in one line on stderr; returns the exit status 2."""
    print(f"{program}: {e}", file=sys.stderr)
    return 2


def run_reporting(
    program: str, announce: str, stopped: str, work: Callable[[], T], done: Callable[[T], object]
) -> int:
    """Say ``announce`` on stderr, run work() and hand its result to done: exit status 0; or,
    after one line on stderr, the status of an unreachable cluster, 130 for Ctrl+C (saying
    ``stopped``: where the finished work is) or 1 for a ValueError."""
    print(announce, file=sys.stderr, flush=True)
    try:
        result = work()
    except ClusterError as e:
        print(f"{program}: {e}", file=sys.stderr)
        return e.status
    except KeyboardInterrupt:
        print(f"{program}: stopped; {stopped}", file=sys.stderr)
        return 130
    except ValueError as e:
        print(f"{program}: {e}", file=sys.stderr)
        return 1
    done(result)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The ``gorilla match`` flags (a bad one raises _UsageError instead of exiting)."""
    p = Parser(
        prog="gorilla match",
        description="Play games between two players (AI specs, GTP engines or file:CMD agents), keep score.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "examples:\n"
            "  gorilla match random montecarlo:5,5 -n 20 --size 9\n"
            '  gorilla match mcts:playouts=2000 "gnugo --mode gtp --level 10" -n 10 -j 2 -o runs/gnugo\n'
            '  gorilla match --rules little-go "file:python my_player.py" alphabeta:time=0.5 -n 20\n'
            '  gorilla match --rules little-go --black-file-agent "python my_player.py" greedy\n'
            "  gorilla match mcts:playouts=800 mcts:playouts=400 -n 2000 --sprt 0,30 --cluster ray://head:10001\n"
            "  gorilla match --game gomoku pvs+vct 'pbrain:python -m gorilla pbrain --agent pvs' -n 20\n"
            "  gorilla match --resume --out runs/gnugo\n"
            "  gorilla match --report runs/gnugo"
        ),
    )
    p.add_argument(
        "players",
        nargs="*",
        metavar="PLAYER",
        help="player A and player B: an AI spec, a GTP engine command, or file:CMD (a file agent)",
    )
    p.add_argument("-n", "--games", type=int, default=None, help="number of games (default 10)")
    p.add_argument("--size", type=int, default=None, help="board size (default 9)")
    p.add_argument("--komi", type=float, default=None, help="komi (default: the rules' komi)")
    p.add_argument("--rules", default=None, help="chinese, japanese, tromp-taylor, little-go")
    p.add_argument("--handicap", type=int, default=None, help="fixed handicap stones for Black")
    p.add_argument("--openings", type=int, default=None, metavar="K", help="K random first moves (seeded)")
    p.add_argument("--seed", type=int, default=None, help="seed for openings and AIs, one per game (0)")
    p.add_argument("--move-timeout", type=float, default=None, metavar="SEC", help="per-move limit (60)")
    p.add_argument("--jobs", "-j", type=int, default=None, help="games played in parallel processes")
    p.add_argument("--out", "-o", default=None, metavar="DIR", help="results folder (default match-A-vs-B)")
    p.add_argument("--referee", default=None, metavar="CMD", help="GTP engine marking dead stones")
    p.add_argument("--max-moves", type=int, default=None, help="count the game after this many moves")
    p.add_argument("--no-alternate", action="store_true", help="player A always takes Black")
    p.add_argument(
        "--black-file-agent",
        metavar="CMD",
        default=None,
        help="a file agent (input.txt -> output.txt per move) that always plays Black, as player A",
    )
    p.add_argument(
        "--white-file-agent",
        metavar="CMD",
        default=None,
        help="a file agent that always plays White, as player B",
    )
    p.add_argument(
        "--sprt",
        metavar="ELO0,ELO1[,ALPHA,BETA]",
        default=None,
        help="stop once the SPRT decides between Elo A-B = ELO0 and = ELO1 (alpha, beta 0.05); -n is the cap",
    )
    p.add_argument(
        "--cluster",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="play on a Ray cluster (ray://host:10001; default RAY_ADDRESS, else a local Ray instance)",
    )
    p.add_argument("--game", choices=("go", "gomoku"), default=None, help="go (default) or gomoku")
    p.add_argument(
        "--openings-file",
        default=None,
        metavar="FILE",
        help="gomoku: openings (dx,dy pairs from the centre), each played with both colours; 'none' for none",
    )
    p.add_argument("--timeout-turn", type=int, default=None, metavar="MS", help="gomoku: ms per move (1000)")
    p.add_argument(
        "--timeout-match", type=int, default=None, metavar="MS", help="gomoku: ms per game (0: none)"
    )
    p.add_argument(
        "--swap2",
        action="store_true",
        help="gomoku: open each game by Swap2 (SWAP2BOARD to brains; the first player alternates)",
    )
    p.add_argument("--resume", action="store_true", help="continue the match in --out, playing missing games")
    p.add_argument("--report", metavar="DIR", default=None, help="write report.md and report.png for DIR")
    catalog.add_options(p, "built-in mcts players")
    return p


def _slug(spec: str) -> str:
    if spec.strip().startswith("file:"):  # a file agent: name it after its script
        words = spec.strip()[5:].split()
        spec = "file-" + (words[-1] if words else "agent").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    word = spec.split()[0].rsplit("/", 1)[-1] if spec.split() else "player"
    return "".join(ch if ch.isalnum() else "-" for ch in word.split(":")[0]).strip("-") or "player"


def resumed_config(out: str | None) -> MatchConfig:
    """The match saved in the folder out, for --resume (its out set to out); raises _UsageError
    with a one-line reason."""
    if not out:
        raise _UsageError("--resume needs --out DIR")
    path = Path(out) / CONFIG
    if not path.exists():
        raise _UsageError(f"nothing to resume: {path} not found")
    try:
        cfg = MatchConfig.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError) as e:
        raise _UsageError(f"cannot read {path}: {e}") from None
    cfg.out = out
    return cfg


def _config_from_args(a: argparse.Namespace) -> MatchConfig:
    if a.resume:
        cfg = resumed_config(a.out)
        if a.players and a.players != cfg.players:
            a_, b_ = cfg.players
            raise _UsageError(f"--resume: {Path(a.out) / CONFIG} is a match between {a_!r} and {b_!r}")
        for name in ("games", "jobs", "move_timeout", "cluster"):
            v = getattr(a, name)
            if v is not None:
                setattr(cfg, name, v)
        if a.sprt is not None:
            cfg.sprt = _sprt(a.sprt)
        return cfg
    gomoku = a.game == "gomoku"
    players = _players_from_args(a) if gomoku else _with_patterns(_players_from_args(a), a)
    cfg = MatchConfig(players=players, game=a.game or "go")
    if gomoku:
        cfg.size, cfg.rules = 15, "freestyle"
        cfg.openings_file = str(DEFAULT_OPENINGS)
        if a.openings_file is not None:
            cfg.openings_file = None if a.openings_file.strip().lower() == "none" else a.openings_file
        if a.swap2:
            if a.openings_file is not None:
                raise _UsageError("--swap2 opens every game itself: leave out --openings-file")
            cfg.swap2, cfg.openings_file = True, None
    elif a.openings_file is not None or a.timeout_turn is not None or a.timeout_match is not None or a.swap2:
        raise _UsageError(
            "--openings-file, --timeout-turn, --timeout-match and --swap2 are for --game gomoku"
        )
    for name in ("games", "size", "komi", "rules", "handicap", "openings", "seed", "move_timeout", "jobs"):
        v = getattr(a, name)
        if v is not None:
            setattr(cfg, name, v)
    for name in ("timeout_turn", "timeout_match"):
        v = getattr(a, name)
        if v is not None:
            setattr(cfg, name, v)
    if a.size is None and not gomoku:  # Little-Go is 5x5 by definition; other rules default to 9x9 matches
        try:
            cfg.size = min(cfg.size, get_ruleset(cfg.rules).default_size)
        except ValueError as e:
            raise _UsageError(str(e)) from None
    cfg.referee = a.referee
    cfg.max_moves = a.max_moves
    cfg.sprt = _sprt(a.sprt) if a.sprt is not None else None
    cfg.cluster = a.cluster
    if cfg.cluster is not None and a.jobs is None:
        cfg.jobs = 0  # one worker per cluster CPU
    cfg.alternate = not a.no_alternate and not (a.black_file_agent or a.white_file_agent)
    cfg.out = a.out or f"match-{_slug(cfg.players[0])}-vs-{_slug(cfg.players[1])}"
    return cfg


def _sprt(text: str) -> list[float]:
    try:
        return Sprt.parse(text).as_list()
    except ValueError as e:
        raise _UsageError(str(e)) from None


def _players_from_args(a: argparse.Namespace) -> list[str]:
    """[A, B] from the positional players and --black-file-agent / --white-file-agent."""
    fixed = {"black": a.black_file_agent, "white": a.white_file_agent}
    for colour, cmd in fixed.items():
        if cmd is not None and not cmd.strip():
            raise _UsageError(f"--{colour}-file-agent needs a command")
    want = 2 - sum(cmd is not None for cmd in fixed.values())
    if len(a.players) != want:
        if want == 2:
            raise _UsageError(f"give two players (got {len(a.players)}), e.g. 'gorilla match random mcts'")
        raise _UsageError(f"with a --*-file-agent give {want} other player{'s' * (want != 1)}")
    rest = list(a.players)
    black = f"file:{fixed['black'].strip()}" if fixed["black"] else rest.pop(0)
    white = f"file:{fixed['white'].strip()}" if fixed["white"] else rest.pop(0)
    return [black, white]


def _with_patterns(players: list[str], a: argparse.Namespace) -> list[str]:
    """--mc-patterns / --mc-load-patterns: built-in mcts players get patterns=... (unless they have one)."""
    try:
        return catalog.apply_options(
            players, a.mc_patterns, a.mc_load_patterns, lambda s: is_builtin(s) and parse_spec(s)[0] == "mcts"
        )
    except catalog.PatternError as e:
        raise _UsageError(str(e)) from None


def _validate_gomoku(cfg: MatchConfig) -> None:
    """The Gomoku settings: rule, size, time controls, openings file and players."""
    if cfg.timeout_turn < 0 or cfg.timeout_match < 0:
        raise _UsageError("--timeout-turn and --timeout-match must be 0 or more")
    try:
        cfg.rules = RULE_NAMES[rule_from_name(cfg.rules)]
        if not MIN_SIZE <= cfg.size <= MAX_SIZE:
            raise ValueError(f"board size {cfg.size} is outside {MIN_SIZE}..{MAX_SIZE}")
        if cfg.openings_file:
            load_openings(cfg.openings_file)
    except ValueError as e:
        raise _UsageError(str(e)) from None
    for spec in cfg.players:
        why = check_gomoku_spec(spec)
        if why:
            raise _UsageError(why)


def _validate(cfg: MatchConfig) -> None:
    if cfg.games < 1:
        raise _UsageError("--games must be at least 1")
    if cfg.jobs < (0 if cfg.cluster is not None else 1):
        raise _UsageError("--jobs must be at least 1")
    if cfg.move_timeout is not None and cfg.move_timeout <= 0:
        raise _UsageError("--move-timeout must be positive")
    if cfg.openings < 0:
        raise _UsageError("--openings must be 0 or more")
    if cfg.game == "gomoku":
        _validate_gomoku(cfg)
        return
    try:
        rs = get_ruleset(cfg.rules)
        if not 2 <= cfg.size <= 25:
            raise ValueError(f"board size {cfg.size} is outside 2..25")
        if cfg.handicap:
            fixed_handicap_points(cfg.size, cfg.handicap)
    except ValueError as e:
        raise _UsageError(str(e)) from None
    cfg.rules = rs.name
    for spec in [*cfg.players, *([cfg.referee] if cfg.referee else [])]:
        why = check_spec(spec)
        if why:
            raise _UsageError(why)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``gorilla match``; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        a = build_parser().parse_args(argv)
        if a.mc_list_patterns:
            print(catalog.list_text())
            return 0
        if a.report:
            from gorilla.match.report import write_report

            try:
                paths = write_report(a.report)
            except (OSError, ValueError) as e:
                print(f"gorilla match: {e}", file=sys.stderr)
                return 1
            for p in paths:
                print(p)
            return 0
        cfg = _config_from_args(a)
        _validate(cfg)
    except _UsageError as e:
        return usage_error("gorilla match", e)
    a_, b_ = cfg.players
    return run_reporting(
        "gorilla match",
        f"match: A = {a_}, B = {b_}, {cfg.games} games on {cfg.size}x{cfg.size}, results in {cfg.out}",
        f"finished games are in {cfg.out} (--resume goes on)",
        lambda: play(cfg, resume=a.resume),
        lambda summary: _say_summary(summary, Path(cfg.out) / "summary.json"),
    )


def _say_summary(summary: dict, path: Path) -> None:
    print(_final_line(summary), file=sys.stderr)
    print(str(path))


def play(cfg: MatchConfig, resume: bool = False, log: TextIO | None = None) -> dict:
    """run_match for cfg: on the Ray cluster with cfg.cluster set, else in local processes.

    Raises ClusterError (one line, with its exit status) for a missing Ray or an unreachable cluster.
    """
    if cfg.cluster is None:
        return run_match(cfg, resume=resume, log=log)
    with Cluster(cfg.cluster, num_cpus=cfg.jobs or None) as c:
        return run_match(cfg, resume=resume, log=log, games=c.games)


def _final_line(s: dict) -> str:
    if not s["games"]:
        return "no games played"
    lo, hi = s["win_rate_A_95"]
    elo = s["elo_A_minus_B"]
    elo_lo, elo_hi = s["elo_A_minus_B_95"]

    def fmt(x: float | None, inf: str) -> str:
        return inf if x is None else f"{x + 0.0:+.0f}"

    point_inf = "-inf" if s["win_rate_A"] == 0 else "+inf"
    line = (
        f"A won {s['wins']['A']}, B won {s['wins']['B']}, draws {s['draws']} of {s['games']}: "
        f"A win rate {100 * s['win_rate_A']:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f}%), "
        f"Elo A-B {fmt(elo, point_inf)} ({fmt(elo_lo, '-inf')} .. {fmt(elo_hi, '+inf')}), "
        f"{len(s['forfeits'])} forfeits"
    )
    if s.get("sprt"):
        from gorilla.match.sprt import sprt_text

        t = s["sprt"]
        verdict = f" after {t['decided_at']} games" if t["decision"] else " (undecided)"
        line += f"; SPRT {sprt_text(t)}{verdict}"
    return line


if __name__ == "__main__":
    raise SystemExit(main())
