"""Live analysis over GTP: Leela Zero's ``lz-analyze``, GoGui's analyze commands, KGS extensions.

``lz-analyze [color] [interval] [minmoves N] [maxmoves N] [avoid ...] [allow ...]``
    The Leela Zero protocol that Sabaki and Lizzie use: the engine answers ``=``
    and then, every ``interval`` centiseconds until the next command arrives,
    one line with every candidate of the MCTS::

        info move D4 visits 120 winrate 5310 prior 1234 lcb 5102 order 0 pv D4 E5 F3 info move ...

    (win rate, prior and lower confidence bound in 1/10000 for the side to
    move). ``genmove_analyze`` / ``lz-genmove_analyze [color] [interval]``
    stream the same lines while choosing a move, then end with ``play D4``.

``gogui-analyze_commands``
    GoGui's menu of analyze commands; the ``gfx`` ones here answer with GoGui
    graphics (``INFLUENCE``, ``LABEL``, ``COLOR``, ``VAR``, ``TEXT``): the
    control map, the evaluator's move values and the MCTS visit counts.

``kgs-genmove_cleanup``, ``kgs-time_settings``
    What kgsGtp sends: a genmove that does not pass while dead enemy stones
    are still on the board, and time settings with none / absolute /
    byoyomi / canadian.

:mod:`gorilla.gtp.main` registers :data:`COMMANDS` on the engine.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable

from gorilla.ai.agent import Agent, Budget, Candidate, Progress
from gorilla.gtp.args import check_move, game_for, nargs
from gorilla.gtp.protocol import GtpEngine, GtpError, Streaming
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex, to_index
from gorilla.rules.game import Game
from gorilla.rules.position import parse_color

# an analysis goes on until the next command; these only bound its memory and time
ANALYSIS_BUDGET = Budget(playouts=1_000_000_000, seconds=24 * 3600.0)
DEFAULT_INTERVAL = 0.1  # seconds between lz-analyze updates when none is given
POLL = 0.01


# --- the agent that analyses ------------------------------------------------------------


def analysis_agent(engine: GtpEngine) -> Agent:
    """The engine's agent when it can analyse (the MCTS), else an MCTS kept for analysis."""
    if callable(getattr(engine.agent, "analyze", None)):
        return engine.agent
    agent = getattr(engine, "_analysis_agent", None)
    if agent is None:
        try:
            from gorilla.ai.mcts.agent import MCTSAgent
        except ImportError:
            raise GtpError("analysis needs the MCTS, which is not available") from None
        agent = MCTSAgent(threads=1)
        engine._analysis_agent = agent  # type: ignore[attr-defined]
    return agent


# --- lz-analyze lines ---------------------------------------------------------------------------


def _units(x: float) -> int:
    return max(0, min(10000, int(round(10000 * x))))


def lcb(c: Candidate, z: float = 1.96) -> float:
    """A lower confidence bound of a candidate's win rate (normal approximation)."""
    if c.visits <= 0:
        return 0.0
    return max(0.0, c.winrate - z * math.sqrt(max(c.winrate * (1 - c.winrate), 1e-4) / c.visits))


def info_line(candidates: list[Candidate], size: int) -> str:
    """One lz-analyze update: 'info move D4 visits N winrate W prior P lcb L order K pv ...' per candidate."""
    parts = []
    for order, c in enumerate(candidates):
        pv = [p for p in (c.pv or [c.move]) if p != RESIGN] or [c.move]
        parts.append(
            f"info move {format_vertex(c.move, size)} visits {int(c.visits)} winrate {_units(c.winrate)} "
            f"prior {_units(c.prior)} lcb {_units(lcb(c))} order {order} "
            f"pv {' '.join(format_vertex(p, size) for p in pv)}"
        )
    return " ".join(parts)


class _Filter:
    """lz-analyze's candidate filters: avoid/allow lists for a colour, minmoves/maxmoves."""

    def __init__(self) -> None:
        self.avoid: dict[int, set[int]] = {BLACK: set(), WHITE: set()}
        self.allow: dict[int, set[int]] = {}
        self.maxmoves = 0
        self.minmoves = 0

    def apply(self, cands: list[Candidate], color: int) -> list[Candidate]:
        """color's candidates less the avoided ones, only the allowed ones (if any), at most maxmoves."""
        out = [c for c in cands if c.move not in self.avoid[color]]
        if color in self.allow:
            out = [c for c in out if c.move in self.allow[color]]
        if self.maxmoves:
            out = out[: self.maxmoves]
        return out


def _parse_analyze_args(args: list[str], size: int, default_color: int) -> tuple[int, float, _Filter]:
    """(colour, interval in seconds, filter) from lz-analyze / genmove_analyze arguments."""
    color = default_color
    interval: float | None = None
    flt = _Filter()
    i = 0
    if i < len(args):
        try:
            color = parse_color(args[i])
            i += 1
        except ValueError:
            pass
    while i < len(args):
        word = args[i].lower()
        if word.lstrip("-").isdigit() and interval is None:
            interval = int(word) / 100.0
            i += 1
        elif word in ("interval", "minmoves", "maxmoves") and i + 1 < len(args):
            try:
                value = int(args[i + 1])
            except ValueError:
                raise GtpError(f"invalid {word} '{args[i + 1]}'") from None
            if word == "interval":
                interval = value / 100.0
            elif word == "maxmoves":
                flt.maxmoves = max(0, value)
            else:
                flt.minmoves = max(0, value)
            i += 2
        elif word in ("avoid", "allow") and i + 3 < len(args):
            c = parse_color(args[i + 1])
            pts = {parse_vertex(v, size) for v in args[i + 2].split(",") if v}
            int(args[i + 3])  # until-depth: only the root is filtered here
            if word == "avoid":
                flt.avoid[c] |= pts
            else:
                flt.allow.setdefault(c, set()).update(pts)
            i += 4
        else:
            raise GtpError(f"invalid argument '{args[i]}'")
    return color, DEFAULT_INTERVAL if interval is None else interval, flt


def _stream(
    search: Callable[[threading.Event, Callable[[Progress], None]], object],
    stop: threading.Event,
    write: Callable[[str], None],
    interval: float,
    line: Callable[[Progress], str],
) -> tuple[object, str | None]:
    """Run search(cancel, progress) on a thread, writing line(progress) every interval seconds
    (only when there is something new) until it ends or stop is set; (result, error)."""
    latest: list[Progress | None] = [None]
    box: dict[str, object] = {}
    cancel = threading.Event()

    def on_progress(p: Progress) -> None:
        latest[0] = p

    def target() -> None:
        try:
            box["result"] = search(cancel, on_progress)
        except Exception as e:  # reported in the response, never kills the engine
            box["error"] = f"{type(e).__name__}: {e}"

    worker = threading.Thread(target=target, daemon=True, name="gtp-analysis")
    worker.start()
    sent: Progress | None = None
    next_at = time.monotonic() + interval
    while worker.is_alive():
        if stop.wait(POLL):
            cancel.set()
            break
        now = time.monotonic()
        p = latest[0]
        if interval > 0 and now >= next_at and p is not None and p is not sent:
            text = line(p)
            if text:
                write(text + "\n")
            sent = p
            next_at = now + interval
    worker.join()
    return box.get("result"), box.get("error")  # type: ignore[return-value]


def cmd_lz_analyze(engine: GtpEngine, args: list[str]) -> Streaming:
    """``lz-analyze [color] [interval] [maxmoves N] [avoid|allow ...]``: ``=``, then ``info move ...`` lines.

    One line every interval centiseconds until the next command arrives (see the module
    docstring); none when color has no legal move. 'invalid argument' for a word it does not know.
    """
    color, interval, flt = _parse_analyze_args(args, engine.size, engine.game.to_move)
    view = game_for(engine.game, color)
    agent = analysis_agent(engine)
    size = engine.size

    def line(p: Progress) -> str:
        return info_line(flt.apply(p.candidates, color), size)

    def run(stop: threading.Event, write: Callable[[str], None]) -> str:
        if not view.legal_moves(color):
            stop.wait()  # nothing to analyse: stay silent until the next command
            return ""

        def search(cancel: threading.Event, progress: Callable[[Progress], None]) -> object:
            return agent.analyze(view, ANALYSIS_BUDGET, cancel, progress)  # type: ignore[attr-defined]

        _, error = _stream(search, stop, write, interval, line)
        if error is not None:
            print(f"lz-analyze: {error}", file=sys.stderr, flush=True)  # stdout belongs to GTP
        stop.wait()  # the search may end early (tree full, error); the response ends with the next command
        return ""

    return Streaming(run)


def _genmove_with(engine: GtpEngine, color: int, cancel: threading.Event, progress: object) -> int:
    """The agent's move for color like genmove (never an illegal one), with cancel and progress."""
    game = engine.game
    if game.over:
        return PASS
    view = game_for(game, color)
    move = engine.agent.select_move(view, engine.budget, cancel, progress)  # type: ignore[arg-type]
    if move in (PASS, RESIGN) or check_move(game, move, color) is None:
        return move
    legal = view.legal_moves(color, reasonable=True)
    return legal[0] if legal else PASS


def cmd_genmove_analyze(engine: GtpEngine, args: list[str]) -> Streaming:
    """``genmove_analyze [color] [interval] ...``: ``info move ...`` lines, then ``play VERTEX``.

    The lines come while the agent chooses; the move is played. Once the game is over the
    answer is ``play pass``, not played.
    """
    color, interval, flt = _parse_analyze_args(args, engine.size, engine.game.to_move)
    size = engine.size
    return genmove_streaming(
        engine, color, interval, lambda p: info_line(flt.apply(p.candidates, color), size)
    )


def genmove_streaming(
    engine: GtpEngine, color: int, interval: float, line: Callable[[Progress], str], stoppable: bool = True
) -> Streaming:
    """A genmove for color that streams line(progress) every interval seconds, then ``play VERTEX``
    (played on the board); ``stoppable``: the next command cancels the search (its move is played)."""

    def run(stop: threading.Event, write: Callable[[str], None]) -> str:
        def search(cancel: threading.Event, progress: Callable[[Progress], None]) -> object:
            return _genmove_with(engine, color, cancel, progress)

        move, error = _stream(search, stop if stoppable else threading.Event(), write, interval, line)
        if error is not None or not isinstance(move, int):
            return f"play pass\n# error: {error}" if error else "play pass"
        if not engine.game.over:
            engine.game.play(move, color)
        return f"play {format_vertex(move, engine.size)}"

    return Streaming(run)


# --- GoGui ----------------------------------------------------------------------------------------


def cmd_analyze_commands(engine: GtpEngine, args: list[str]) -> str:
    """``gogui-analyze_commands``: GoGui's analyze menu, one ``type/label/command`` per line."""
    nargs(args, 0)
    lines = [
        "gfx/Control map/gorilla-gfx_control_map",
        "gfx/Move values (flat Monte-Carlo)/gorilla-gfx_move_values flat",
        "gfx/Move values (MCTS)/gorilla-gfx_move_values mcts",
        "gfx/MCTS visits/gorilla-gfx_visits",
        "gfx/MCTS principal variation/gorilla-gfx_pv",
    ]
    if "gorilla-control_map" in engine.commands:
        lines.append("dboard/Control map values/gorilla-control_map")
    if "gorilla-evaluate" in engine.commands:
        lines.append("string/Evaluate moves/gorilla-evaluate")
    if "final_status_list" in engine.commands:
        lines.append("plist/Dead stones/final_status_list dead")
    return "\n".join(lines)


def _xy_vertex(row: int, col: int, size: int) -> str:
    """The vertex of grid cell (row from the top, column from the left)."""
    return format_vertex(to_index(col, size - 1 - row, size), size)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, int(round(255 * v)))):02x}" for v in rgb)


def _heat(x: float) -> str:
    """A colour from red (0) through yellow (0.5) to green (1)."""
    x = max(0.0, min(1.0, x))
    return _hex((1.0, 2 * x, 0.0) if x < 0.5 else (2 * (1 - x), 1.0, 0.0))


def cmd_gfx_control_map(engine: GtpEngine, args: list[str]) -> str:
    """INFLUENCE of every point: GoGui's sign (+ Black, - White), so Gorilla's map negated."""
    nargs(args, 0)
    try:
        from gorilla.ai.control_map import control_map
    except ImportError:
        raise GtpError("control map not available") from None
    grid = control_map(engine.game.position)
    size = engine.size
    values = []
    black = white = 0.0
    for r in range(size):
        for c in range(size):
            v = float(grid[r][c])
            black += max(0.0, -v)
            white += max(0.0, v)
            values.append(f"{_xy_vertex(r, c, size)} {-v:.2f}")
    return f"INFLUENCE {' '.join(values)}\nTEXT Control: Black {black:.1f}, White {white:.1f}"


def cmd_gfx_move_values(engine: GtpEngine, args: list[str]) -> str:
    """``gorilla-gfx_move_values [flat|mcts|net] [G] [T]``: win rate labels and heat colours per move."""
    nargs(args, 0, 3)
    rest = list(args)
    kind = "flat"
    if rest and not rest[0].isdigit():
        kind = rest.pop(0).lower()
        if kind not in ("flat", "mcts", "net"):
            raise GtpError("syntax error")
    try:
        games = int(rest[0]) if rest else 10
        turns = int(rest[1]) if len(rest) > 1 else 3
    except ValueError:
        raise GtpError("syntax error") from None
    if engine.game.over:
        raise GtpError("game is over")
    try:
        from gorilla.ai.evaluator import evaluate
    except ImportError:
        raise GtpError("evaluator not available") from None
    ev = evaluate(engine.game, engine=kind, games=games, turns=turns, budget=engine.budget)
    size = engine.size
    labels, colors = [], {}
    for p, v in ev.values.items():
        if p in (PASS, RESIGN):
            continue
        vert = format_vertex(p, size)
        labels.append(f"{vert} {_units(v.winrate) // 100}")
        colors.setdefault(_heat(v.winrate), []).append(vert)
    out = ["LABEL " + " ".join(labels)] if labels else []
    out += [f"COLOR {col} {' '.join(vs)}" for col, vs in colors.items()]
    best = ev.values.get(ev.best)
    text = f"TEXT best {format_vertex(ev.best, size)}"
    if best is not None:
        text += f" win rate {100 * best.winrate:.1f}% score {best.score:+.1f} ({kind})"
    out.append(text)
    return "\n".join(out)


def _search_candidates(engine: GtpEngine, args: list[str]) -> tuple[list[Candidate], int]:
    nargs(args, 0, 1)
    if engine.game.over:
        raise GtpError("game is over")
    budget = engine.budget or Budget(seconds=1.0)
    if args:
        try:
            budget = Budget(playouts=max(1, int(args[0])))
        except ValueError:
            raise GtpError("syntax error") from None
    agent = analysis_agent(engine)
    color = engine.game.to_move
    cands = agent.analyze(engine.game, budget)  # type: ignore[attr-defined]
    return [c for c in cands if c.visits > 0], color


def cmd_gfx_visits(engine: GtpEngine, args: list[str]) -> str:
    """``gorilla-gfx_visits [playouts]``: MCTS visits as labels and influence, best line as text."""
    cands, color = _search_candidates(engine, args)
    if not cands:
        return "TEXT no candidates"
    size = engine.size
    top = max(c.visits for c in cands)
    sign = 1.0 if color == BLACK else -1.0
    on_board = [c for c in cands if c.move >= 0]
    out = []
    if on_board:
        out.append("LABEL " + " ".join(f"{format_vertex(c.move, size)} {c.visits}" for c in on_board))
        shares = " ".join(f"{format_vertex(c.move, size)} {sign * c.visits / top:.2f}" for c in on_board)
        out.append("INFLUENCE " + shares)
    best = cands[0]
    total = sum(c.visits for c in cands)
    out.append(
        f"TEXT {total} playouts, best {format_vertex(best.move, size)} "
        f"win rate {100 * best.winrate:.1f}% visits {best.visits}"
    )
    return "\n".join(out)


def cmd_gfx_pv(engine: GtpEngine, args: list[str]) -> str:
    """``gorilla-gfx_pv [playouts]``: the MCTS principal variation as a GoGui VAR."""
    cands, color = _search_candidates(engine, args)
    if not cands:
        return "TEXT no candidates"
    best = cands[0]
    size = engine.size
    seq = []
    c = color
    for p in best.pv or [best.move]:
        seq.append(f"{'b' if c == BLACK else 'w'} {format_vertex(p, size)}")
        c = 3 - c
    return f"VAR {' '.join(seq)}\nTEXT win rate {100 * best.winrate:.1f}% after {best.visits} visits"


# --- KGS --------------------------------------------------------------------------------------------


def _liberties_of_groups(game: Game, stones: list[int]) -> list[int]:
    """Empty points next to the given stones, fewest-liberty groups first."""
    pos = game.position
    w = game.size + 2
    seen: set[int] = set()
    groups = []
    for s in stones:
        if s in seen or pos.color_at(s) not in (BLACK, WHITE):
            continue
        g = pos.group(s)
        seen.update(g)
        libs = sorted({q for p in g for q in (p - 1, p + 1, p - w, p + w) if pos.color_at(q) == 0})
        groups.append(libs)
    groups.sort(key=len)
    return [p for libs in groups for p in libs]


def cmd_kgs_genmove_cleanup(engine: GtpEngine, args: list[str]) -> str:
    """Like genmove, but never resign and do not pass while dead enemy stones are on the board."""
    nargs(args, 1)
    color = parse_color(args[0])
    game = engine.game
    if game.over and game.end_reason != "passes":
        raise GtpError("game is over")
    view = game_for(game, color)
    move = _genmove_with(engine, color, threading.Event(), None)
    if move in (PASS, RESIGN):
        move = PASS
        from gorilla.ai.ownership import estimate_dead

        enemy = [p for p in estimate_dead(view) if view.position.color_at(p) == 3 - color]
        for p in _liberties_of_groups(view, enemy):
            if view.check(p, color) is None:
                move = p
                break
    if move != PASS or not game.over:
        if game.over:
            game.reopen()
        game.play(move, color)
    return format_vertex(move, engine.size)


def cmd_kgs_time_settings(engine: GtpEngine, args: list[str]) -> str:
    """``kgs-time_settings none | absolute M | byoyomi M T P | canadian M T S`` → GTP time_settings."""
    if not args:
        raise GtpError("syntax error")
    kind = args[0].lower()
    want = {"none": 1, "absolute": 2, "byoyomi": 4, "canadian": 4}
    if kind not in want:
        raise GtpError(f"unknown time system '{args[0]}'")
    nargs(args, want[kind])
    try:
        nums = [float(a) for a in args[1:]]
    except ValueError:
        raise GtpError("syntax error") from None
    if any(x < 0 for x in nums) or (kind in ("byoyomi", "canadian") and not nums[2].is_integer()):
        raise GtpError("syntax error")
    if kind == "none":
        gtp = ["0", "1", "0"]  # GTP: byo-yomi time without stones means no time limit
    elif kind == "absolute":
        gtp = [f"{nums[0]:g}", "0", "0"]
    elif kind == "byoyomi":
        # Japanese byo-yomi: P periods of T seconds, one move each; the engine plans with one period
        gtp = [f"{nums[0]:g}", f"{nums[1]:g}", "1" if nums[2] > 0 else "0"]
    else:
        gtp = [f"{nums[0]:g}", f"{nums[1]:g}", f"{int(nums[2])}"]
    engine.kgs_time_settings = (kind, *nums)  # type: ignore[attr-defined]
    handler = engine.commands.get("time_settings")
    if handler is None:
        engine.agent.set_time(float(gtp[0]), float(gtp[1]), int(gtp[2]))
        return ""
    return handler(engine, gtp)  # type: ignore[return-value]


COMMANDS = {
    "lz-analyze": cmd_lz_analyze,
    "genmove_analyze": cmd_genmove_analyze,
    "lz-genmove_analyze": cmd_genmove_analyze,
    "gogui-analyze_commands": cmd_analyze_commands,
    "gorilla-gfx_control_map": cmd_gfx_control_map,
    "gorilla-gfx_move_values": cmd_gfx_move_values,
    "gorilla-gfx_visits": cmd_gfx_visits,
    "gorilla-gfx_pv": cmd_gfx_pv,
    "kgs-genmove_cleanup": cmd_kgs_genmove_cleanup,
    "kgs-time_settings": cmd_kgs_time_settings,
}
