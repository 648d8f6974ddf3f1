"""The app's command line: Gorilla's original flags plus modern long options.

Gorilla's flags work as written (``gorilla`` in place of ``./go``)::

    gorilla                                   human vs human in the 3D window
    gorilla -ai_random                        human (Black) vs the random AI (White)
    gorilla -ai_monte_carlo G T               human vs flat Monte-Carlo (G games of T turns per move)
    gorilla -ai_vs_ai -ai_random -ai_monte_carlo 5 5     AI vs AI, the first AI plays Black
    gorilla -no_gui -ai_vs_ai -ai_random -ai_monte_carlo 5 5   the same in the terminal
    gorilla -eval 10 3                        the move evaluator (e) with G=10, T=3

Long options: ``--size --komi --rules --handicap --black/--white SPEC --clock SPEC --load FILE
--resume --threads --autosave PATH --no-autosave --no-gui --continuous --seed``. A player SPEC
is ``human``, ``random``, ``montecarlo:G,T``, ``mcts`` or ``mcts:SECONDS`` (or any agent spec
such as ``mcts:time=2,threads=2``), or ``gtp:COMMAND`` for an external GTP engine.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

from gorilla.ai.playout import catalog
from gorilla.ai.warmup import stderr_progress, warm
from gorilla.app.clock import NO_CLOCK, ClockSpecError, TimeControl, parse_clock
from gorilla.app.commands import cli_keys_line
from gorilla.app.compiler import Compiler
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game
from gorilla.rules.handicap import fixed_handicap_points
from gorilla.rules.rulesets import get_ruleset

PROG = "gorilla"

USAGE = """\
usage: gorilla [-no_gui] [-ai_vs_ai] [-ai_random | -ai_monte_carlo G T]... [-eval G T]
               [--size N] [--komi K] [--rules chinese|japanese|tromp-taylor|little-go]
               [--handicap N] [--black SPEC] [--white SPEC] [--clock SPEC]
               [--load FILE.sgf | --resume]
               [--threads N] [--autosave PATH | --no-autosave] [--no-gui] [--continuous]
               [--seed N] [--eval-engine net|flat|mcts] [--teach [black|white|both]]
               [--mc-patterns NAME | --mc-load-patterns FILE] [--mc-list-patterns] [-h]
       gorilla --game gomoku [--rule freestyle|standard|renju|caro] [--size 15]
               [--black SPEC] [--white SPEC] [--swap2] [--load FILE.sgf] [--continuous]"""

HELP = (
    USAGE
    + """

Gorilla's flags:
  -no_gui               play in the terminal instead of the 3D window
  -ai_vs_ai             AI vs AI: the next two AIs play Black and White (in that order)
  -ai_random            the random AI (legal moves that do not fill its own eyes)
  -ai_monte_carlo G T   flat Monte-Carlo: G sample games of T turns per candidate move
                        (T = 0: play each sample game to the end and count)
  -eval G T             the move evaluator (key e) with G sample games of T turns

Options:
  --size N              board size (default: the rules' size, 19)
  --komi K              komi (default: the rules' komi)
  --rules NAME          chinese (default), japanese, tromp-taylor, little-go
  --handicap N          fixed handicap stones for Black (2..9)
  --black SPEC          who plays Black (a player, below; default human)
  --white SPEC          who plays White (a player, below; default human)
  --clock SPEC          a time control (below; default none)
  --load FILE.sgf       start from a saved game (all its variations, at its main line's end)
  --resume              continue the autosaved game
  --threads N           search threads for the MCTS (default 1)
  --autosave PATH       autosave file (default $GORILLA_AUTOSAVE or autosave.sgf in
                        the user data folder, ~/.local/share/gorilla on Linux)
  --no-autosave         do not autosave
  --no-gui              same as -no_gui
  --continuous          AI vs AI: play on without clicks (the terminal always does)
  --seed N              seed for the random and Monte-Carlo AIs (reproducible games)
  --teach [SIDE]        a teaching game: the net judges each move of the human side
                        (black, white or both humans; default the human side), and a
                        move that loses 3 points or more is taken back once (window and
                        terminal; the thresholds are in the settings, docs/teaching.md)
  --eval-engine E       the evaluator's engine (e): net (the default; the MCTS where the
                        net does not play the board), flat (Gorilla's G, T; the default
                        with -eval G T) or mcts
  --mc-patterns NAME    mcts players: playouts from a shipped pattern database
  --mc-load-patterns FILE  mcts players: playouts from a GNU Go Monte-Carlo pattern file
  --mc-list-patterns    list the shipped pattern databases
  -h, --help            show this help

Gomoku (five in a row, --game gomoku; in the window only):
  --rule NAME           freestyle (five or more wins; default), standard (exactly five),
                        renju (Black's double-three, double-four and overline are
                        forbidden) or caro (exactly five, not blocked at both ends)
  --size N              board size, 5..25 (default 15)
  --black/--white SPEC  human, random, threat1, pvs, pvs+vct or mcts, optionally
                        with seconds a move: pvs+vct:2 (default 1 s); or a Gomocup
                        engine, pbrain:COMMAND (e.g. "pbrain:gorilla pbrain"): an
                        illegal move, a crash or a time-out forfeits (B+F / W+F)
  --clock SPEC          the clocks, as Go's (below): an AI thinks its seconds a move or
                        what its clock affords; a fallen flag loses (W+T / B+T)
  --swap2               open by Swap2: --black's player puts three stones, --white's
                        plays White, passes (p) to take Black or puts two more (2), and
                        then --black's chooses; each player's clock runs while it acts
  --load FILE.sgf       play on from a Gomoku record (SGF GM[4]: its rule, result and
                        clock, or Piskvork's FILE.psq as Gomocup archives games); such a
                        record opens Gomoku without --game gomoku
  --resume              continue the autosaved Gomoku game (--autosave's file; by default
                        autosave-gomoku.sgf beside Go's autosave.sgf)
  In the window: c the threat map (where a stone makes a four or a three: dark for
  Black, light for White), v the search's candidates and principal variation,
  e the search's values of the ten best candidates.

Players (--black / --white SPEC):
  human                 you, with the mouse (or typing moves in the terminal)
  random                uniform among reasonable moves
  montecarlo:G,T        flat Monte-Carlo, G games of T turns per candidate (time=S: S seconds)
  net                   the PUCT search over the neural net (options: visits=N, time=S,
                        threads=K, batch=B, net=FILE, resign=R; e.g. net:visits=400)
  rank:10k              plays like a player of that rank (30k..9d), the net's policy sampled
  scoreloss:strength=S  a search candidate drawn with weight exp(-S * points lost) (200 visits)
  policy, policy:temperature=T   the net's first choice, or drawn from its policy, no search
  mcts, mcts:SECONDS    UCT-RAVE tree search with the learned move model (options:
                        playouts=N, time=S, threads=K, resign=F, patterns=NAME,
                        policy=W (0: without the model), widen=S, model=FILE,
                        playout=heavy|light|softmax; e.g. mcts:time=2,threads=2)
  alphabeta             negamax with PVS and iterative deepening (best on small boards)
  greedy, aggressive, minimax   the Little-Go baselines
  gtp:COMMAND           an external GTP engine: gtp:gnugo, gtp:pachi, gtp:katago,
                        gtp:leelaz (found on PATH or in /usr/games) or any command
                        line, e.g. "gtp:gnugo --mode gtp --level 5"

Clocks (--clock SPEC; a time is 90, 90s, 10m, 1m30s, 1h or 1:30, a bare number is seconds):
  none                  no clock (the default)
  10m                   absolute: 10 minutes each, then the flag falls
  10m+5x30s             Japanese byo-yomi: 10 minutes, then 5 periods of 30 seconds
  10m+25/5m             Canadian: 10 minutes, then 25 moves in every 5 minutes
  5m+10s                Fischer: 5 minutes, plus 10 seconds after each move
  The clocks start with the first move; a fallen flag loses the game (W+T / B+T).
  AIs plan their moves from their time left; GTP engines get time_settings and time_left.

With a single AI (-ai_random / -ai_monte_carlo G T) the human plays Black.
"""
    + textwrap.fill(cli_keys_line(), 84)
    + """

Other commands (each has its own --help):
  gorilla gtp [--ai SPEC ...]      a GTP engine on stdin/stdout (GoGui, Sabaki, Lizzie, twogtp)
  gorilla match A B [-n N ...]     play a match between players or GTP engines, with SGFs and a report
  gorilla little-go-agent          one move of a Little-Go tournament (input.txt -> output.txt)
  gorilla selfplay SPEC [-n N ...] self-play games of one player as SGFs (--cluster: on Ray)
  gorilla tune SPEC --param ...    tune an AI's numeric settings by SPSA self-play matches
  gorilla analyze GAME.sgf [-o OUT] analyse every move of a game: annotated SGF, report, --png graph
  gorilla pbrain                   a Gomoku engine speaking the Gomocup (pbrain) protocol on stdin/stdout
  gorilla learn FILE... -o MODEL   fit a move-pattern model on game records (kifu lines, SGF)
  gorilla predict FILE...          how well a move model predicts the moves of games

The first start after an install or update compiles the engine (about a minute on
two cores): the window opens at once and shows the progress; gtp and match compile
before their first command or game and say so on stderr."""
)


class UsageError(Exception):
    """A bad flag or value: one line, then the usage, exit status 2."""


class PatternOptionError(UsageError):
    """A bad --mc-patterns / --mc-load-patterns: just the one line, exit status 2."""


@dataclass
class AppOptions:
    """The parsed command line."""

    black: str = "human"
    white: str = "human"
    gui: bool = True
    size: int | None = None
    komi: float | None = None
    rules: str = "chinese"
    handicap: int = 0
    load: str | None = None
    resume: bool = False
    threads: int = 1
    autosave: str | None = None
    eval_games: int | None = None
    eval_turns: int | None = None
    eval_engine: str = "net"
    continuous: bool = False
    seed: int | None = None
    ai_vs_ai: bool = False
    gorilla_ais: list[str] = field(default_factory=list)
    clock: TimeControl = NO_CLOCK
    game: str = "go"  # or "gomoku"
    rule: str = "freestyle"  # Gomoku's five-rule
    opening: str = "free"  # Gomoku: "swap2" opens by Swap2
    teach: str = "off"  # the teaching game's sides (gorilla.app.go.teaching.SIDES)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """Raise UsageError(message) instead of printing the usage and exiting."""
        raise UsageError(message)


def _parser() -> _Parser:
    p = _Parser(prog=PROG, add_help=False, allow_abbrev=False)
    p.add_argument("-h", "--help", action="store_true")
    p.add_argument("--size", type=_int_in(2, 25, "--size"))
    p.add_argument("--komi", type=_komi)
    p.add_argument("--rules")
    p.add_argument("--handicap", type=_int_in(0, 9, "--handicap"), default=0)
    p.add_argument("--black")
    p.add_argument("--white")
    p.add_argument("--clock")
    p.add_argument("--load")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--threads", type=_int_in(1, 64, "--threads"), default=1)
    p.add_argument("--autosave")
    p.add_argument("--no-autosave", action="store_true")
    p.add_argument("--no-gui", action="store_true")
    p.add_argument("--continuous", action="store_true")
    p.add_argument("--seed", type=_int_in(0, 2**63 - 1, "--seed"))
    p.add_argument("--eval-engine", choices=["net", "flat", "mcts"], default=None)
    p.add_argument("--game", choices=["go", "gomoku"])  # default: the --load record's game, else go
    p.add_argument("--rule")
    p.add_argument("--swap2", action="store_true")
    p.add_argument("--teach", nargs="?", const="human", choices=["black", "white", "both", "human", "off"])
    catalog.add_options(p, "mcts players")
    return p


def _int_in(lo: int, hi: int, flag: str):
    def conv(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"needs an integer, got '{text}'") from None
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"must be between {lo} and {hi}, got {v}")
        return v

    conv.__name__ = flag
    return conv


def _komi(text: str) -> float:
    try:
        k = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"needs a number, got '{text}'") from None
    if k != k or abs(k) > 1000 or (k * 2) != int(k * 2):
        raise argparse.ArgumentTypeError(f"must be a whole or half number, got '{text}'")
    return k


def _gorilla_int(args: list[str], i: int, flag: str, what: str, lo: int) -> int:
    if i >= len(args):
        raise UsageError(f"{flag} needs two integers G T ({what}); missing a value")
    text = args[i]
    try:
        v = int(text)
    except ValueError:
        raise UsageError(f"{flag} needs two integers G T ({what}), got '{text}'") from None
    if v < lo:
        raise UsageError(f"{flag}: values must be at least {lo}, got {v}")
    return v


def player_spec(text: str, flag: str = "--black") -> str:
    """Normalise a player spec: human, random, montecarlo:G,T, mcts, mcts:SECONDS -> an agent spec."""
    t = text.strip()
    name, sep, rest = t.partition(":")
    key = name.strip().lower().replace("_", "").replace("-", "")
    if key == "gtp":
        if not rest.strip():
            raise UsageError(f"{flag}: gtp: needs an engine command, e.g. gtp:gnugo")
        try:
            shlex.split(rest)
        except ValueError as e:
            raise UsageError(f"{flag}: cannot read the engine command '{rest}': {e}") from None
        return f"gtp:{rest.strip()}"
    if key in ("human", "h", "person"):
        if rest:
            raise UsageError(f"{flag}: 'human' takes no settings, got '{text}'")
        return "human"
    if key in ("montecarlo", "mc"):
        if not rest:
            return "montecarlo"
        parts = [s.strip() for s in rest.split(",")]
        if len(parts) == 2 and all(s.lstrip("-").isdigit() for s in parts):
            g, turns = int(parts[0]), int(parts[1])
            if g < 1 or turns < 0:
                raise UsageError(f"{flag}: montecarlo needs G >= 1 and T >= 0, got '{text}'")
            return f"montecarlo:{g},{turns}"
        if any("=" not in s for s in parts):
            raise UsageError(f"{flag}: expected montecarlo:G,T (two integers), got '{text}'")
        return f"montecarlo:{rest}"
    if key == "mcts" and rest and "=" not in rest:
        try:
            seconds = float(rest)
        except ValueError:
            raise UsageError(f"{flag}: expected mcts:SECONDS, got '{text}'") from None
        if not 0 < seconds <= 3600:
            raise UsageError(f"{flag}: mcts seconds must be in (0, 3600], got '{rest}'")
        return f"mcts:time={seconds:g}"
    if not key:
        raise UsageError(f"{flag}: empty player")
    return f"{key}{sep}{rest}"


def parse_args(argv: Sequence[str]) -> AppOptions:
    """Parse the app's command line; raises UsageError with one line for anything wrong."""
    args = list(argv)
    opts = AppOptions()
    rest: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-no_gui":
            opts.gui = False
        elif a == "-ai_vs_ai":
            opts.ai_vs_ai = True
        elif a == "-ai_random":
            opts.gorilla_ais.append("random")
        elif a == "-ai_monte_carlo":
            g = _gorilla_int(args, i + 1, a, "sample games, turns per game", 1)
            t = _gorilla_int(args, i + 2, a, "sample games, turns per game", 0)
            opts.gorilla_ais.append(f"montecarlo:{g},{t}")
            i += 2
        elif a == "-eval":
            opts.eval_games = _gorilla_int(args, i + 1, a, "sample games, turns per game", 1)
            opts.eval_turns = _gorilla_int(args, i + 2, a, "sample games, turns per game", 0)
            i += 2
        elif a.startswith("-") and not a.startswith("--") and len(a) > 2 and not _is_number(a):
            raise UsageError(f"unknown flag '{a}'")
        else:
            rest.append(a)
        i += 1
    ns = _parser().parse_args(rest)
    if ns.game is None:  # a Gomoku record (SGF GM[4]) opens Gomoku without --game gomoku
        ns.game = "gomoku" if ns.load and _is_gomoku_record(ns.load) else "go"
    if ns.help:
        raise _Help()
    if ns.mc_list_patterns:
        raise _ListPatterns()
    ais = opts.gorilla_ais
    if opts.ai_vs_ai:
        if len(ais) != 2:
            raise UsageError(f"-ai_vs_ai needs two AIs (e.g. -ai_random -ai_monte_carlo 5 5), got {len(ais)}")
        opts.black, opts.white = ais
    elif len(ais) == 1:
        opts.white = ais[0]  # the human plays Black, as in Gorilla
    elif len(ais) > 1:
        raise UsageError("two AIs given without -ai_vs_ai (use -ai_vs_ai AI1 AI2)")
    if ns.black is not None:
        opts.black = player_spec(ns.black, "--black")
    if ns.white is not None:
        opts.white = player_spec(ns.white, "--white")
    _apply_patterns(opts, ns.mc_patterns, ns.mc_load_patterns)
    if ns.clock is not None:
        try:
            opts.clock = parse_clock(ns.clock)
        except ClockSpecError as e:
            raise UsageError(f"--clock: {e}") from None
    if ns.no_gui:
        opts.gui = False
    if ns.load and ns.resume:
        raise UsageError("--load and --resume cannot be used together")
    if ns.autosave is not None and ns.no_autosave:
        raise UsageError("--autosave and --no-autosave cannot be used together")
    opts.game = ns.game
    if ns.game == "gomoku":
        return _gomoku_options(opts, ns)
    if ns.rule is not None:
        raise UsageError("--rule is Gomoku's five-rule (with --game gomoku); Go takes --rules")
    opts.teach = _teach_option(ns.teach, opts)
    if ns.swap2:
        raise UsageError("--swap2 is a Gomoku opening (with --game gomoku)")
    if ns.rules is not None:
        try:
            opts.rules = get_ruleset(ns.rules).name
        except ValueError as e:
            raise UsageError(f"--rules: {e}") from None
    opts.size, opts.komi, opts.handicap = ns.size, ns.komi, ns.handicap
    size = opts.size or get_ruleset(opts.rules).default_size
    if opts.handicap == 1:
        raise UsageError("--handicap: one stone is not a handicap (use 2..9, or 0 for none)")
    if opts.handicap:
        try:
            fixed_handicap_points(size, opts.handicap)
        except ValueError as e:
            raise UsageError(f"--handicap: {e}") from None
    opts.load, opts.resume, opts.threads = ns.load, ns.resume, ns.threads
    opts.continuous, opts.seed = ns.continuous, ns.seed
    # the net evaluates unless named otherwise; -eval G T (the flat evaluator's numbers) picks flat
    opts.eval_engine = ns.eval_engine or ("flat" if opts.eval_games is not None else "net")
    if ns.no_autosave:
        opts.autosave = None
    else:
        from gorilla.app.files import default_autosave_path

        opts.autosave = os.path.expanduser(ns.autosave) if ns.autosave else default_autosave_path()
    return opts


def _teach_option(teach: str | None, opts: AppOptions) -> str:
    """--teach checked: the side it names is a human's (none named: the human sides)."""
    if teach is None or teach == "off":
        return "off"
    human = {"black": opts.black == "human", "white": opts.white == "human"}
    if teach == "human" and not any(human.values()):
        raise UsageError("--teach: no human plays (the teaching game judges a human's moves)")
    for side in ("black", "white"):
        if teach in (side, "both") and not human[side]:
            raise UsageError(f"--teach {teach}: {side.capitalize()} is not played by a human")
    return teach


def _gomoku_options(opts: AppOptions, ns: argparse.Namespace) -> AppOptions:
    """The options of a Gomoku game: the rule, the size, the players, a file, continuous play."""
    from gorilla.gomoku.rules import MAX_SIZE, MIN_SIZE, RULE_NAMES, rule_from_name

    if ns.teach is not None:
        raise UsageError("--teach is Go's teaching game (not Gomoku's)")

    if not opts.gui:
        raise UsageError("Gomoku plays in the window (gorilla pbrain plays it on stdin/stdout)")
    if ns.handicap or ns.komi is not None:
        raise UsageError("--handicap and --komi are Go's, not Gomoku's")
    opts.load, opts.resume, opts.continuous = ns.load, ns.resume, ns.continuous
    if ns.no_autosave:
        opts.autosave = None
    elif ns.autosave:
        opts.autosave = os.path.expanduser(ns.autosave)
    else:  # beside Go's: a Gomoku game never overwrites the Go game that --resume continues
        from gorilla.app.files import default_autosave_path, gomoku_autosave_path

        opts.autosave = gomoku_autosave_path(default_autosave_path())
    if opts.resume and not opts.autosave:
        raise UsageError("--resume needs an autosave file (not --no-autosave)")
    if opts.resume:
        opts.load = opts.autosave
    record_rule, record_size = _record_root(opts.load) if opts.load else ("freestyle", 15)
    try:
        opts.rule = RULE_NAMES[rule_from_name(ns.rule or ns.rules or record_rule)]
    except ValueError as e:
        raise UsageError(f"--rule: {e}") from None
    opts.size = ns.size or record_size
    if not MIN_SIZE <= opts.size <= MAX_SIZE:
        raise UsageError(f"--size: a Gomoku board is {MIN_SIZE}..{MAX_SIZE}, got {opts.size}")
    if ns.swap2 and opts.load:
        raise UsageError("--swap2 opens a new game; a loaded record has its stones already")
    opts.opening = "swap2" if ns.swap2 else "free"
    return opts


def _is_gomoku_record(path: str) -> bool:
    """Whether the file at path is a record of Gomoku (an SGF root with GM[4], or Piskvork's)."""
    from gorilla.gomoku.sgf import peek

    root = peek(path)
    return root is not None and root.gomoku


def _record_root(path: str) -> tuple[str, int]:
    """The five-rule and size a Gomoku record's root gives (freestyle and 15 when it gives
    none): what the window shows while its engine compiles."""
    from gorilla.gomoku.sgf import peek

    root = peek(path)
    return ("freestyle", 15) if root is None else (root.rule, root.size or 15)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class _Help(Exception):
    pass


class _ListPatterns(Exception):
    pass


def _apply_patterns(opts: AppOptions, name: str | None, file: str | None) -> None:
    """--mc-patterns / --mc-load-patterns: the mcts players get patterns=... (unless they name one)."""
    if name is None and file is None:
        return
    try:
        opts.black, opts.white = catalog.apply_options([opts.black, opts.white], name, file)
    except catalog.PatternError as e:
        raise PatternOptionError(str(e)) from None


def _with_seed(spec: str, seed: int | None, color: int) -> str:
    """Add seed=... to an AI spec that has none (Black and White get different seeds)."""
    if seed is None or spec == "human" or spec.startswith("gtp:") or "seed=" in spec:
        return spec
    s = seed * 2 + (0 if color == BLACK else 1)
    name, sep, rest = spec.partition(":")
    return f"{name}:{rest},seed={s}" if rest else f"{name}:seed={s}"


def build_controller(opts: AppOptions):
    """The controller (and its game) the options describe.

    Raises UsageError for options that cannot make a game or a player, LoadError when the
    --load or --resume file cannot be read or is not a valid SGF.
    """
    from gorilla.app.go.controller import Controller
    from gorilla.app.go.sgf_text import tree_from_sgf

    if opts.game == "gomoku":
        return _gomoku_controller(opts)
    tree = None
    if opts.load or opts.resume:
        path = opts.load or opts.autosave
        if not path:
            raise UsageError("--resume needs an autosave file (not --no-autosave)")
        try:
            with open(os.path.expanduser(path), encoding="utf-8", errors="replace") as f:
                text = f.read()
            warm(["rules"])  # reading a record plays its moves (seconds to compile on a first start)
            tree = tree_from_sgf(text)
            game = tree.line_game()
        except FileNotFoundError:
            raise LoadError(f"cannot load {path}: no such file") from None
        except OSError as e:
            raise LoadError(f"cannot load {path}: {e.strerror or e}") from None
        except ValueError as e:
            raise LoadError(
                f"cannot load {path}: {str(e).splitlines()[0] if str(e) else 'broken SGF'}"
            ) from None
    else:
        try:
            game = Game.new(opts.size, opts.rules, opts.komi, opts.handicap)
        except ValueError as e:
            raise UsageError(str(e)) from None
    black = _with_seed(opts.black, opts.seed, BLACK)
    white = _with_seed(opts.white, opts.seed, WHITE)
    try:
        return Controller(
            game,
            black,
            white,
            eval_games=opts.eval_games,
            eval_turns=opts.eval_turns,
            eval_engine=opts.eval_engine,
            autosave=opts.autosave,
            threads=opts.threads,
            continuous=opts.continuous or not opts.gui,
            clock=opts.clock,
            tree=tree,
            teach=opts.teach,
            teaching=_teaching_settings(),
        )
    except ImportError as e:
        raise UsageError(f"that AI is not available in this installation ({e.name or e})") from None
    except ValueError as e:
        raise UsageError(str(e).splitlines()[0]) from None


def _teaching_settings():
    """The teaching game's settings from the settings file (a bad one: one line, the defaults)."""
    from gorilla.app.go.teaching import TeachSettings
    from gorilla.app.settings import Settings

    teaching, problem = TeachSettings.from_dict(Settings().get("teaching"))
    if problem:
        print(f"{PROG}: {problem}", file=sys.stderr)
    return teaching


def _gomoku_controller(opts: AppOptions):
    """The Gomoku controller the options describe. When the engine is not compiled yet, a
    stand-in (an empty board) while it compiles in a child process: the window opens at once
    and starts the game when its rules are ready (its AIs' parts may go on compiling: the
    game's first AI move waits for them)."""
    from gorilla.app.game_kinds import GomokuLoading, GomokuStart, gomoku_compiler
    from gorilla.app.gomoku.controller import gomoku_controller
    from gorilla.app.gomoku.players import parse_player
    from gorilla.gomoku import sgf

    try:
        parse_player(opts.black), parse_player(opts.white)  # a bad player says so before compiling
    except ValueError as e:
        raise UsageError(str(e)) from None
    if opts.load and not os.path.isfile(os.path.expanduser(opts.load)):
        raise LoadError(f"cannot load {opts.load}: no such file")
    compiler = gomoku_compiler([opts.black, opts.white])
    if compiler is not None:
        start = GomokuStart(
            size=opts.size or 15,
            rules="gomoku " + opts.rule,
            black=opts.black,
            white=opts.white,
            clock=opts.clock,
            continuous=opts.continuous,
            load=os.path.expanduser(opts.load) if opts.load else None,
            opening=opts.opening,
            autosave=opts.autosave,
        )
        return GomokuLoading(start, compiler)
    print(f"{PROG}: loading the Gomoku engine...", file=sys.stderr, flush=True)
    try:
        c = gomoku_controller(
            opts.size or 15,
            opts.rule,
            opts.black,
            opts.white,
            continuous=opts.continuous,
            clock=opts.clock,
            opening=opts.opening,
            autosave=opts.autosave,
        )
    except ValueError as e:
        raise UsageError(str(e).splitlines()[0]) from None
    if opts.load:
        try:
            record = sgf.load_record(os.path.expanduser(opts.load))
        except ValueError as e:
            c.close()
            raise LoadError(f"cannot load {opts.load}: {e}") from None
        c.load_record(record, opts.load)
    return c


class LoadError(Exception):
    """A file given on the command line cannot be read: one line, exit status 1."""


def _display_problem() -> str | None:
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "no display available (DISPLAY is not set)"
    return None


def run_gui(controller) -> int:
    """Run the 3D window until it closes; returns 0, or 1 with one line on stderr when it cannot open."""
    problem = _display_problem()
    if problem is None:
        try:
            from gorilla.gui.window import run_window
        except ImportError as e:
            name = getattr(e, "name", None) or ""
            if name.startswith("gorilla"):
                problem = "the 3D window is not available in this installation"
            else:
                problem = f"cannot start the 3D window ({e})"
        else:
            try:
                run_window(controller)
                return 0
            except Exception as e:  # pyglet's NoSuchDisplayException, no OpenGL 3.3, ...
                kind = type(e).__name__
                if "Display" in kind or "Context" in kind or "Config" in kind or "GL" in kind:
                    problem = f"cannot open the 3D window: {str(e).splitlines()[0] if str(e) else kind}"
                else:
                    raise
    print(f"{PROG}: error: {problem}; try -no_gui to play in the terminal", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app (window or terminal); returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        opts = parse_args(args)
        controller = build_controller(opts)
    except _Help:
        print(HELP)
        return 0
    except _ListPatterns:
        from gorilla.ai.playout.catalog import list_text

        print(list_text())
        return 0
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        if not isinstance(e, PatternOptionError):
            print(USAGE, file=sys.stderr)
        return 2
    except LoadError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    try:
        if opts.game == "gomoku":
            return run_gui(controller)
        groups = controller.groups_needed()
        if opts.gui:
            # the window starts it after its first frame (groups_needed names the analysis's engine)
            controller.compiler = Compiler(groups, start=False)
            return run_gui(controller)
        from gorilla.app.go.terminal import run_terminal

        groups = controller.groups_needed(heat_map=False)
        warm(groups, stderr_progress(PROG, groups))
        return run_terminal(controller)
    finally:
        controller.close()


__all__ = ["AppOptions", "UsageError", "main", "parse_args", "player_spec", "USAGE", "BLACK", "WHITE"]
