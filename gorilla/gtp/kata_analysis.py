"""KataGo's analysis commands: ``kata-analyze`` and ``kata-genmove_analyze``.

``kata-analyze [color] [interval] [KEY VALUE ...]`` answers ``=`` and then, every
interval centiseconds until the next command, one line::

    info move D4 visits 120 utility 0.12 winrate 0.531 scoreMean 1.2 scoreStdev 0 scoreLead 1.2
    scoreSelfplay 1.2 prior 0.12 lcb 0.51 utilityLcb 0.08 order 0 pv D4 E5 info move ...
    rootInfo visits 300 winrate 0.53 scoreLead 1.1 ... ownership 0.9 0.8 ...

(KataGo's ``docs/GTP_Extensions.md``): win rates, priors and lcb as floats in [0, 1],
scores in points, all for the side to move. Besides lz-analyze's keys (``interval``,
``minmoves``, ``maxmoves``, ``avoid``, ``allow``) it takes ``ownership true``
(size*size values after the infos, row-major from the top-left point A19 to the
bottom-right, +1 the side to move's), ``rootInfo true``, ``pvVisits true``;
KataGo's other boolean keys are accepted and ignored. ``kata-genmove_analyze``
streams the same lines while choosing a move and ends with ``play VERTEX``.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

import numpy as np

from gorilla.ai.agent import Candidate, Progress
from gorilla.gtp.analysis import (
    ANALYSIS_BUDGET,
    _parse_analyze_args,
    _stream,
    analysis_agent,
    genmove_streaming,
    lcb,
)
from gorilla.gtp.args import game_for
from gorilla.gtp.protocol import GtpEngine, GtpError, Streaming
from gorilla.rules.board import BLACK, RESIGN
from gorilla.rules.coords import format_vertex

# KataGo's boolean keys: the ones written here, and the ones accepted without effect
FLAGS = ("ownership", "rootInfo", "pvVisits")
IGNORED = ("ownershipStdev", "movesOwnership", "movesOwnershipStdev", "pvEdgeVisits", "noResultValue")


def _num(x: float) -> str:
    """A float as KataGo writes it: up to six significant digits."""
    return f"{x:.6g}"


def parse_kata_args(args: list[str], size: int, to_move: int):
    """(colour, interval in seconds, filter, {flag: bool}) from kata-analyze's arguments."""
    flags = dict.fromkeys(FLAGS, False)
    rest: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        if word in FLAGS or word in IGNORED:
            if i + 1 >= len(args) or args[i + 1].lower() not in ("true", "false"):
                raise GtpError(f"{word} needs true or false")
            if word in FLAGS:
                flags[word] = args[i + 1].lower() == "true"
            i += 2
            continue
        rest.append(word)
        i += 1
    color, interval, flt = _parse_analyze_args(rest, size, to_move)
    return color, interval, flt, flags


def kata_info(c: Candidate, order: int, size: int, pv_visits: bool) -> str:
    """One candidate's ``info move ...`` block."""
    pv = [p for p in (c.pv or [c.move]) if p != RESIGN] or [c.move]
    utility = c.value()
    text = (
        f"info move {format_vertex(c.move, size)} visits {int(c.visits)} utility {_num(utility)} "
        f"winrate {_num(c.winrate)} scoreMean {_num(c.score)} scoreStdev {_num(c.score_stdev)} "
        f"scoreLead {_num(c.score)} scoreSelfplay {_num(c.score)} prior {_num(c.prior)} "
        f"lcb {_num(lcb(c))} utilityLcb {_num(utility - (c.winrate - lcb(c)) * 2)} order {order} "
        f"pv {' '.join(format_vertex(p, size) for p in pv)}"
    )
    if pv_visits:
        visits = list(c.pv_visits or [])[: len(pv)]
        visits += [0] * (len(pv) - len(visits))
        text += " pvVisits " + " ".join(str(int(v)) for v in visits)
    return text


def ownership_text(ownership: np.ndarray | None, size: int, color: int) -> str:
    """``ownership v...``: size*size values from A19 row by row, the side to move's view (0: unknown)."""
    w = size + 2
    if ownership is None:
        values = [0.0] * (size * size)
    else:
        sign = 1.0 if color == BLACK else -1.0
        values = [sign * float(ownership[(r + 1) * w + c + 1]) for r in range(size) for c in range(size)]
    return "ownership " + " ".join(_num(round(v, 6)) for v in values)


def kata_line(p: Progress, cands: list[Candidate], size: int, color: int, flags: dict[str, bool]) -> str:
    """A whole kata-analyze update."""
    parts = [kata_info(c, k, size, flags["pvVisits"]) for k, c in enumerate(cands)]
    if flags["rootInfo"]:
        root_utility = 2.0 * p.winrate - 1.0 if p.utility is None else p.utility
        parts.append(
            f"rootInfo visits {int(p.playouts)} utility {_num(root_utility)} winrate {_num(p.winrate)} "
            f"scoreMean {_num(p.score_lead)} scoreStdev 0 scoreLead {_num(p.score_lead)} "
            f"scoreSelfplay {_num(p.score_lead)}"
        )
    if flags["ownership"]:
        parts.append(ownership_text(p.ownership, size, color))
    return " ".join(parts)


def cmd_kata_analyze(engine: GtpEngine, args: list[str]) -> Streaming:
    """``kata-analyze [color] [interval] [KEY VALUE ...]``: ``=``, then a line per interval (module doc)."""
    color, interval, flt, flags = parse_kata_args(args, engine.size, engine.game.to_move)
    view = game_for(engine.game, color)
    agent = analysis_agent(engine)
    size = engine.size

    def line(p: Progress) -> str:
        return kata_line(p, flt.apply(p.candidates, color), size, color, flags)

    def run(stop: threading.Event, write: Callable[[str], None]) -> str:
        if not view.legal_moves(color):
            stop.wait()
            return ""

        def search(cancel: threading.Event, progress: Callable[[Progress], None]) -> object:
            return agent.analyze(view, ANALYSIS_BUDGET, cancel, progress)  # type: ignore[attr-defined]

        _, error = _stream(search, stop, write, interval, line)
        if error is not None:
            print(f"kata-analyze: {error}", file=sys.stderr, flush=True)
        stop.wait()
        return ""

    return Streaming(run)


def cmd_kata_genmove_analyze(engine: GtpEngine, args: list[str]) -> Streaming:
    """``kata-genmove_analyze [color] [interval] [KEY VALUE ...]``: kata-analyze lines, then ``play V``."""
    color, interval, flt, flags = parse_kata_args(args, engine.size, engine.game.to_move)
    size = engine.size

    def line(p: Progress) -> str:
        return kata_line(p, flt.apply(p.candidates, color), size, color, flags)

    return genmove_streaming(engine, color, interval, line, stoppable=False)  # KataGo's: runs to its end


COMMANDS = {
    "kata-analyze": cmd_kata_analyze,
    "kata-genmove_analyze": cmd_kata_genmove_analyze,
}
