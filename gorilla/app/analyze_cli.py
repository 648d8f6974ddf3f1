"""``gorilla analyze GAME.sgf [-o OUT.sgf] [--engine E] [--time S | --playouts N] [--png G.png]``.

The window's whole-game analysis (:mod:`gorilla.app.go.review`) without a window:
the main line of GAME.sgf is analysed position by position (by the net's search
wherever the net plays, else by the classical MCTS; ``--engine`` chooses) with a progress bar
on stderr; OUT.sgf (default ``GAME-analyzed.sgf``) is the input tree with
every main-line move annotated (comment lines: win rate, score, best move and
PV, points lost; ``BM[2]`` on a blunder, ``BM[1]`` on a mistake, ``DO`` on an
inaccuracy), every analysed position's values as other programs read them (``SBKV``, Black's
win rate in percent, ``SBKS``, Black's score lead, and Gorilla's ``GOTOP`` and ``GOPV``:
:mod:`gorilla.app.go.review_file`) and the report in the root comment (the game report of
:mod:`gorilla.app.go.report`, per player and phase, then the biggest mistakes; it replaces a
report the comment holds); every other node and
variation is written back as read. The report goes to stdout; ``--png`` draws
the graph (Black's win rate and score lead over the move number, mistakes
marked). A Gomoku record (SGF ``GM[4]`` or Piskvork's ``.psq``) is analysed by the
Gomoku AI's search (:mod:`gorilla.app.gomoku.analysis`: ``--time`` seconds a position, 1 by
default) and written as a Gomoku SGF, its moves' comments giving the win rates, the best
move and its line, and the win rate lost; the graph is Black's win rate. A bad or
unsupported file: one line on stderr and exit status 1.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from gorilla.ai.agent import Budget
from gorilla.app.files import write_atomic
from gorilla.app.go import report as game_report
from gorilla.app.go import review, review_file
from gorilla.match.cli import Parser, _UsageError
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.gametree import GameTree
from gorilla.rules.sgf import SgfError, load_tree, save_tree

PROG = "gorilla analyze"
INACCURACY = 1.0  # points lost from which a move gets DO (doubtful)
BAR = 30


def _parser() -> Parser:
    p = Parser(
        prog=PROG,
        description="Analyse every move of an SGF game's main line with the net (or the MCTS); a Gomoku"
        " record (SGF GM[4] or .psq) with the Gomoku AI's search.",
    )
    p.add_argument("game", help="the SGF file to analyse")
    p.add_argument("-o", "--output", help="the annotated SGF (default: GAME-analyzed.sgf)")
    lim = p.add_mutually_exclusive_group()
    lim.add_argument("--time", type=float, metavar="S", help="seconds per position")
    lim.add_argument(
        "--playouts",
        type=int,
        metavar="N",
        help=f"visits per position with the net (default {review.NET_VISITS} on 19x19,"
        f" {review.net_visits(13)} on 13x13, {review.net_visits(9)} on 9x9), "
        f"playouts with the MCTS (default {review.DEFAULT_PLAYOUTS})",
    )
    p.add_argument(
        "--engine",
        choices=review.ENGINES,
        default=None,
        help="net (default where the net plays: up to 19x19) or mcts (the classical search)",
    )
    p.add_argument("--threads", type=int, default=1, metavar="K", help="search threads (default 1)")
    p.add_argument("--png", metavar="GRAPH.png", help="also draw the win-rate and score graph as a PNG")
    p.add_argument("--seed", type=int, default=None, help="random seed of the search")
    return p


def _bar(done: int, total: int, started: float) -> None:
    fill = BAR * done // max(1, total)
    secs = time.perf_counter() - started
    sys.stderr.write(f"\r{PROG}: [{'#' * fill}{'.' * (BAR - fill)}] {done}/{total} positions {secs:.1f} s")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def marker(lost: float) -> tuple[str, bytes] | None:
    """The SGF move annotation for points lost: BM[2], BM[1], DO[] or None."""
    if lost >= review.BLUNDER:
        return "BM", b"2"
    if lost >= review.MISTAKE:
        return "BM", b"1"
    if lost >= INACCURACY:
        return "DO", b""
    return None


def annotate(tree: GameTree, revs: list[review.MoveReview], report: str) -> None:
    """Write the reviews into the main line's move nodes of tree and the report into its root."""
    size = tree.start.size
    nodes = tree.main_line()
    for r in revs:
        if r.number - 1 >= len(nodes):
            break
        node = nodes[r.number - 1]
        text = r.comment(size)
        node.comment = f"{node.comment}\n\n{text}" if node.comment else text
        mark = marker(r.points_lost)
        if mark is not None:
            node.extra[mark[0]] = [mark[1]]
    tree.root.comment = game_report.with_report(tree.root.comment, report)


def graph_png(revs: list[review.MoveReview], path: str, width: int = 900, height: int = 420) -> None:
    """Black's win rate (blue, 0..100%) and score lead (orange, symmetric scale) over the move
    number, moves that lost MISTAKE points or more marked red, as a PNG."""
    marks = [(r.number, r.points_lost >= review.BLUNDER) for r in revs if r.points_lost >= review.MISTAKE]
    _graph(revs, marks, path, width, height, scores=True)


def _graph(
    revs: list, marks: list[tuple[int, bool]], path: str, width: int, height: int, scores: bool
) -> None:
    """The graph of revs (number, winrate_before/after and, with scores, score_before/after):
    marks are (move number, blunder) drawn as red lines."""
    from gorilla.match.plot import Canvas

    c = Canvas(width, height)
    left, right, top, bottom = 60, width - 20, 30, height - 40
    c.rect(left, top, right, bottom, (248, 248, 248))
    n = max(1, max((r.number for r in revs), default=1))
    span = 1.0
    if scores:
        span = max(1.0, max((abs(x) for r in revs for x in (r.score_before, r.score_after)), default=1.0))

    def px(k: float) -> float:
        return left + (right - left) * k / n

    def py(frac: float) -> float:  # 0 bottom .. 1 top
        return bottom - (bottom - top) * frac

    c.hline(left, right, int(py(0.5)), (160, 160, 160), dashed=True)
    wr = [(px(0), py(revs[0].winrate_before))] if revs else []
    sc = [(px(0), py(0.5 + 0.5 * revs[0].score_before / span))] if revs and scores else []
    for r in revs:
        wr.append((px(r.number), py(r.winrate_after)))
        if scores:
            sc.append((px(r.number), py(0.5 + 0.5 * r.score_after / span)))
    if len(sc) > 1:
        c.polyline(sc, (230, 140, 30))
    if len(wr) > 1:
        c.polyline(wr, (40, 100, 220))
    for number, blunder in marks:
        c.vline(int(px(number)), top, bottom, (220, 60, 50) if blunder else (240, 170, 160))
    title = f"WIN RATE (BLUE) AND SCORE (ORANGE, +-{span:.0f}) FOR BLACK" if scores else "WIN RATE FOR BLACK"
    c.text(left, 8, title, (40, 40, 40))
    c.text(left - 40, top, "100%", (40, 40, 40))
    c.text(left - 30, bottom - 14, "0%", (40, 40, 40))
    c.text(left, bottom + 12, "MOVE 0", (40, 40, 40))
    label = f"{n}"
    c.text(right - c.text_width(label), bottom + 12, label, (40, 40, 40))
    c.save(path)


def run_gomoku(args, src: Path) -> int:
    """A Gomoku record analysed by the Gomoku AI's search (see the module docstring); the
    exit status."""
    from gorilla.app.gomoku import analysis as ga
    from gorilla.gomoku import sgf as gsgf
    from gorilla.gomoku.agents import ready_engine

    try:
        record = gsgf.load_record(str(src))
    except ValueError as e:
        print(f"{PROG}: {args.game}: {e}", file=sys.stderr)
        return 1
    if args.playouts is not None or args.engine is not None or args.threads != 1:
        raise _UsageError("a Gomoku record is analysed by its pvs+vct search: --time S only")
    seconds = args.time or ga.SECONDS
    game = record.game
    out = args.output or str(src.with_name(src.stem + "-analyzed.sgf"))
    print(f"{PROG}: loading the Gomoku engine...", file=sys.stderr, flush=True)
    ready_engine(["pvs+vct"])
    started = time.perf_counter()
    revs = ga.analyse(game, seconds, progress=lambda d, t: _bar(d, t, started))
    names = {BLACK: record.black, WHITE: record.white}
    report = ga.report_text(revs, game, names, seconds)
    notes, marks = ga.annotate(record.comments, record.marks, ga.comments(revs, game), ga.grades(revs))
    extra = dict(record.extra)
    root = "\n\n".join(v for v in (*extra.get("C", []), gsgf.escape(report)) if v)
    extra["C"] = [root]
    text = gsgf.dumps(
        game, record.black, record.white, result=record.result, timing=record.timing, extra=extra,
        comments=notes, marks=marks,
    )  # fmt: skip
    lines = [(r.number, r.grade == "blunder") for r in revs if r.grade in ("mistake", "blunder")]
    return _write(args, out, text, report, lambda png: _graph(revs, lines, png, 900, 420, scores=False))


def _write(args, out: str, text: str, report: str, draw: Callable[[str], None]) -> int:
    """Write the annotated record (and with --png the graph: draw(path)), print the report and
    where they went; the exit status."""
    try:
        write_atomic(out, text)
        if args.png:
            draw(args.png)
    except OSError as e:
        print(f"{PROG}: cannot write: {e.strerror or e}", file=sys.stderr)
        return 1
    print(report)
    print(f"Wrote {out}" + (f" and {args.png}" if args.png else ""))
    return 0


def run(args) -> int:
    """Analyse, annotate, write; the exit status."""
    src = Path(args.game)
    from gorilla.gomoku.sgf import peek

    head = peek(str(src))
    if head is not None and head.gomoku:
        if args.time is not None and args.time <= 0:
            raise _UsageError("--playouts and --time must be positive")
        return run_gomoku(args, src)
    try:
        data = src.read_bytes()
    except OSError as e:
        print(f"{PROG}: cannot read '{args.game}': {e.strerror or e}", file=sys.stderr)
        return 1
    try:
        tree = load_tree(data)  # the window's load path: one line for anything broken
        game = tree.main_line_game()
    except (SgfError, ValueError) as e:
        print(f"{PROG}: {args.game}: {e}", file=sys.stderr)
        return 1
    if args.playouts is not None and args.playouts <= 0 or args.time is not None and args.time <= 0:
        raise _UsageError("--playouts and --time must be positive")
    if not 1 <= args.threads <= 16:
        raise _UsageError("--threads must be 1..16")
    engine = review.engine_for(game, args.engine)
    if args.time:
        budget = Budget(seconds=args.time)
    else:
        budget = Budget(playouts=args.playouts) if args.playouts else review.default_budget(engine, game.size)
    out = args.output or str(src.with_name(src.stem + "-analyzed.sgf"))

    from gorilla.ai.warmup import groups_for, stderr_progress, warm

    groups = groups_for([engine])
    warm(groups, stderr_progress(PROG, groups))
    started = time.perf_counter()
    cache: dict = {}
    revs = review.analyse_line(
        game,
        budget,
        threads=args.threads,
        seed=args.seed,
        progress=lambda d, t: _bar(d, t, started),
        cache=cache,
        engine=engine,
    )
    names = {BLACK: game.info.black_name, WHITE: game.info.white_name}
    table = game_report.game_report(revs, [cache.get(k) for k in review.line_keys(game)], game.size)
    report = game_report.report_table(table, names) + "\n" + review.report_text(revs, game.size, names)
    annotate(tree, revs, report)
    review_file.write_values(tree, cache)
    try:
        sgf_text = save_tree(tree)
    except (UnicodeError, ValueError) as e:
        print(f"{PROG}: {args.game}: text not valid in its charset ({e})", file=sys.stderr)
        return 1
    return _write(args, out, sgf_text, report, lambda png: graph_png(revs, png))


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``gorilla analyze``; returns the exit status."""
    try:
        args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
        return run(args)
    except _UsageError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: stopped; nothing written", file=sys.stderr)
        return 130
