"""Whole-game analysis: every position of a line searched by the net (or the MCTS), points lost
per move, mistakes, blunders and a report per player (the window's ``G``, ``gorilla analyze``).

Each position of the line (before the first move .. after the last) gets one
search within a budget (one agent for the whole line, so the subtree of the
move played is reused): the net's PUCT (:class:`gorilla.ai.puct.agent.NetAgent`,
:func:`net_visits` visits: 256 on 19x19, 768 on 9x9) wherever the net plays, else the classical
:class:`gorilla.ai.mcts.MCTSAgent` (:data:`DEFAULT_PLAYOUTS` playouts).

With the net a position's value is its search's root value (win rate and score lead averaged
over the whole search, as KataGo's ``rootInfo``), Black's view here, and a move's **points
lost** is the fall of the mover's score lead from the position before it to the position
after it (KaTrain's reading of KataGo's analysis), clamped at 0; the engine's own best move
loses 0. One search a position is enough: against KataGo's 400-visit analysis of a 250-move
TYGEM game this agreed within 1.5 points more often than a second search of the position
after the best move did, at 0.64 of the time
(``benchmarks/RESULTS.md#2026-11-27-the-review-one-search-a-position-katrains-points-lost``).

With the classical MCTS a position's value is its most visited move's win rate and expected
margin with komi (the MCTS's mean area margin), and a move's points lost compares two
searches of the same kind: the position after the engine's best move and the position after
the move played (each searched with the same budget, the opponent to move), so the optimism
a search has for the side to move cancels out (comparing the best move's margin in the search
before the move with the played move's would count the winner's curse of the most visited
move as points lost: on a 9x9 GNU Go game at 1000 playouts, 3.9 points a move against 2.7,
and the two seeds agreed less, see
``benchmarks/RESULTS.md#2026-11-22-evening-whole-game-analysis-python-benchmarksreviewpy``).
The position after the best move costs one more search for each move that is not the
engine's; it is kept under its own key, so playing the best move as a variation finds it
analysed. Without it (cancelled), the played move's margin in the search before it is used
when it had :data:`MIN_VISITS` visits.

Thresholds (points lost): a **mistake** from :data:`MISTAKE` points, a
**blunder** from :data:`BLUNDER` points. A move's points lost are kept to one decimal, as
every text shows them, so that a threshold, ``n``, the report and the graph see the number
shown (2.96 is 3.0: a mistake).

Results are keyed by the line's move prefix (the number of moves and a hash
of the size, komi, rules, setup and the moves so far), so they stay right when
the window switches variation: a position analysed once is never analysed
again, and a position of another line shows nothing until analysed.

:class:`gorilla.app.go.reviewer.Review` runs the pass on a worker thread
(:class:`gorilla.app.tasks.Task`) with progress and cancel; the controller polls it. No pyglet
here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from gorilla.ai.agent import Budget
from gorilla.app.go.report import THRESHOLDS
from gorilla.app.status_text import counted
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game

MISTAKE = THRESHOLDS[2]  # points lost from which a move is a mistake (3: the report's classes) ...
BLUNDER = THRESHOLDS[4]  # ... and a blunder (12), so the review, the report and the dots agree
DEFAULT_PLAYOUTS = 1000  # per position, for the classical MCTS
NET_VISITS = 256  # per position on 19x19, for the net's search (the default wherever the net plays)
SMALL_BOARD_FACTOR = 3.0  # at most this many times NET_VISITS on a smaller board
ENGINES = ("net", "mcts")
MIN_VISITS = 30  # visits a played move needs for its own margin to count
MAX_NODES = 400_000
THRESHOLDS = (1.0, 2.0, 3.0, 5.0, 10.0)  # the window's choices for n / Shift+n
TOP_KEPT = 5  # candidates a position keeps in its order (PositionEval.top)

Key = tuple[int, int]  # (moves played, a hash of the start and the moves): see line_keys


@dataclass
class PositionEval:
    """One analysed position: Black's win rate and score lead, the best move and its PV,
    and the searched moves' margins from the mover's side (move -> (margin, visits)).
    ``root``: the values are the search's root averages (the net), not its best move's.
    ``top``: the search's first candidates in its order (the report's top-1 / top-5 match)."""

    winrate: float
    score: float
    best: int
    pv: list[int]
    to_move: int
    margins: dict[int, tuple[float, int]] = field(default_factory=dict)
    playouts: int = 0
    root: bool = False
    final: bool = False  # the game is over here: the values are its result, not a search's
    top: list[int] = field(default_factory=list)


@dataclass
class MoveReview:
    """One analysed move: Black's win rate and score lead before and after it, the engine's
    best move and PV in the position before it, and the points it lost (mover's side, >= 0, to
    one decimal: the number every text shows and every threshold compares)."""

    number: int  # 1 = the first move
    color: int
    move: int
    winrate_before: float
    score_before: float
    winrate_after: float
    score_after: float
    best: int
    pv: list[int]
    points_lost: float

    def comment(self, size: int) -> str:
        """The lines ``gorilla analyze`` writes into the move's SGF comment."""
        pv = " ".join(format_vertex(p, size) for p in self.pv[:8])
        return (
            f"Gorilla: win rate (Black) {100 * self.winrate_before:.1f}% -> {100 * self.winrate_after:.1f}%\n"
            f"Score (Black) {self.score_before:+.1f} -> {self.score_after:+.1f}\n"
            f"Best move {format_vertex(self.best, size)} (PV {pv})\n"
            f"Points lost {self.points_lost:.1f}{_grade(self.points_lost)}"
        )


def _grade(lost: float) -> str:
    if lost >= BLUNDER:
        return " (blunder)"
    if lost >= MISTAKE:
        return " (mistake)"
    return ""


def line_moves(game: Game) -> list[tuple[int, int]]:
    """The current line as (colour, point): the moves on the record, then the redo list's."""
    return [(m.color, m.point) for m in game.moves] + [(m.color, m.point) for m in reversed(game.redo_stack)]


def line_keys(game: Game) -> list[Key]:
    """One key per position of the current line (0 = before the first move)."""
    base = (
        game.size,
        float(game.komi),
        game.ruleset.name,
        tuple(sorted(game.setup.items())),
        game.positions[0].to_move,
    )
    keys: list[Key] = [(0, hash(base))]
    for color, point in line_moves(game):
        keys.append(child_key(keys[-1], color, point))
    return keys


def child_key(key: Key, color: int, point: int) -> Key:
    """The key of the position after colour plays point in the position of key."""
    return key[0] + 1, hash((key[1], color, point))


def _black(value: float, color: int) -> float:
    return value if color == BLACK else -value


def result_margin(result: str | None) -> float | None:
    """Black's margin in an SGF result ('B+20.5' 20.5, 'W+3' -3, '0' or 'Draw' 0); None for
    one without points (a resignation, time, forfeit, unknown)."""
    text = (result or "").strip().upper()
    if text in ("0", "DRAW", "JIGO"):
        return 0.0
    if text[:2] in ("B+", "W+"):
        try:
            margin = float(text[2:])
        except ValueError:
            return None
        return margin if text[0] == "B" else -margin
    return None


def evaluate_position(
    game: Game, agent, budget: Budget, cancel: threading.Event | None, result: str | None = None
) -> PositionEval | None:
    """Search game's position with agent (an MCTSAgent); None if cancelled before any playout.
    A game over here is valued by its result: result (the record's, when it gives points),
    else the count of the board."""
    color = game.to_move
    if game.over:
        if game.resigned:
            winner = game.winner()
            return PositionEval(1.0 if winner == BLACK else 0.0, 0.0, PASS, [], color, final=True)
        margin = result_margin(result)
        margin = float(game.score().margin) if margin is None else margin
        wr = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
        return PositionEval(wr, margin, PASS, [], color, final=True)
    cands = agent.analyze(game, budget, cancel)
    cands = [c for c in cands if c.visits > 0 and c.move != RESIGN]
    if not cands or (cancel is not None and cancel.is_set()):
        return None
    best = cands[0]
    wr, score = best.winrate, best.score
    root = agent.name == "net"  # the net's search: KataGo's root averages
    if root:
        wr, score = agent.root_value()
    margins = {int(c.move): (float(c.score), int(c.visits)) for c in cands}
    return PositionEval(
        wr if color == BLACK else 1.0 - wr, _black(score, color), int(best.move),
        list(best.pv or [best.move]), color, margins, int(agent.last_playouts), root,
        top=[int(c.move) for c in cands[:TOP_KEPT]],
    )  # fmt: skip


def move_review(
    number: int,
    color: int,
    point: int,
    before: PositionEval,
    after: PositionEval,
    after_best: PositionEval | None = None,
) -> MoveReview:
    """Move ``number`` (colour, point) between two analysed positions; after_best: the position
    after the engine's best move instead (see the module docstring)."""
    best_margin = before.margins.get(before.best, (_black(before.score, color), 0))[0]
    if point == before.best:
        lost = 0.0
    elif after.final:  # the count at the end reads the dead stones its own way: no loss of the move
        own = before.margins.get(point)
        lost = max(0.0, best_margin - own[0]) if own is not None and own[1] >= MIN_VISITS else 0.0
    elif before.root and after.root:  # the net: the fall of the mover's root lead (KaTrain)
        lost = max(0.0, _black(before.score, color) - _black(after.score, color))
    elif after_best is not None:
        lost = max(0.0, _black(after_best.score, color) - _black(after.score, color))
    else:
        own = before.margins.get(point)
        mine = own[0] if own is not None and own[1] >= MIN_VISITS else _black(after.score, color)
        lost = max(0.0, best_margin - mine)
    return MoveReview(
        number, color, point, before.winrate, before.score, after.winrate, after.score,
        before.best, before.pv, round(lost, 1),
    )  # fmt: skip


def engine_for(game: Game, engine: str | None = None) -> str:
    """The engine that analyses game: ``engine`` if given, else the net where it plays (boards up
    to 19x19, not Little-Go's stones count), else the classical MCTS."""
    if engine is not None:
        if engine not in ENGINES:
            raise ValueError(f"unknown analysis engine '{engine}' (known: {', '.join(ENGINES)})")
        return engine
    from gorilla.ai.puct.evaluator import supports

    return "net" if supports(game) else "mcts"


def net_visits(size: int) -> int:
    """The net's visits a position on a size x size board: NET_VISITS on 19x19 and more on a
    smaller board, as many as its positions cost in the same time (a net evaluation costs about
    its board's area), at most SMALL_BOARD_FACTOR times: 547 on 13x13, 768 on 9x9. On 9x9 the
    review at 256 visits missed the refutations of a decided game that KataGo's 400 find
    (benchmarks/RESULTS.md#2026-12-02-the-game-report-against-katagos-with-the-reviews-visits-by-board-size-session-41)."""
    return round(NET_VISITS * min(SMALL_BOARD_FACTOR, max(1.0, 361 / (size * size))))


def default_budget(engine: str, size: int = 19) -> Budget:
    """The search per position on a size x size board when none is given: the net's
    :func:`net_visits` visits, or the MCTS's DEFAULT_PLAYOUTS playouts."""
    return Budget(playouts=net_visits(size) if engine == "net" else DEFAULT_PLAYOUTS)


def make_agent(threads: int = 1, seed: int | None = None, engine: str = "mcts"):
    """The analysis search: the net's PUCT (never resigning), or an MCTSAgent without dynamic
    komi or early stops."""
    if engine == "net":
        from gorilla.ai.puct.agent import NetAgent

        return NetAgent(threads=threads, seed=seed, resign=0.0)
    from gorilla.ai.mcts.agent import MCTSAgent

    return MCTSAgent(threads=threads, seed=seed, max_nodes=MAX_NODES, early_stop=False, dynkomi=False)


def analyse_line(
    game: Game,
    budget: Budget | None = None,
    *,
    threads: int = 1,
    seed: int | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[int, int], None] | None = None,
    cache: dict[Key, PositionEval] | None = None,
    engine: str | None = None,
    result: str | None = None,
) -> list[MoveReview]:
    """Analyse every position of game's current line (record + redo list); the reviews of its
    moves in order (fewer when cancelled). ``cache`` (key -> PositionEval) is read and filled;
    ``engine``: ``net`` or ``mcts`` (None: :func:`engine_for`); ``result``: the record's result
    at the line's end, its final position's value when the game ends there (default: the
    game's own recorded result when it stands at the line's end)."""
    engine = engine_for(game, engine)
    budget = budget or default_budget(engine, game.size)
    if result is None and not game.redo_stack:
        result = game.info.extra_result or None
    cache = {} if cache is None else cache
    keys = line_keys(game)
    moves = line_moves(game)
    g = game.at(0)  # the whole line on its redo list
    agent = side = None
    try:
        for k, key in enumerate(keys):
            if progress is not None:
                progress(k, len(keys))
            if cancel is not None and cancel.is_set():
                break
            if key not in cache:
                if agent is None:
                    agent = make_agent(threads, seed, engine)
                ev = evaluate_position(g, agent, budget, cancel, result if k == len(moves) else None)
                if ev is None:
                    break
                cache[key] = ev
            if k < len(moves) and not g.over:
                best = cache[key].best
                other = child_key(key, moves[k][0], best)
                second = not cache[key].root  # the MCTS: the position after its best move too
                if (
                    second
                    and best != moves[k][1]
                    and best != RESIGN
                    and other not in cache
                    and g.is_legal(best)
                ):
                    if side is None:  # its own agent: the main one keeps its tree for the line
                        side = make_agent(threads, None if seed is None else seed + 1, engine)
                    g2 = g.copy()
                    g2.play(best)
                    ev2 = evaluate_position(g2, side, budget, cancel)
                    if ev2 is None:
                        break
                    cache[other] = ev2
            if k < len(moves):
                try:
                    if moves[k][1] == RESIGN or not g.redo():
                        break
                except ValueError:  # an illegal move on the line (IllegalMove is one)
                    break
        if progress is not None and not (cancel is not None and cancel.is_set()):
            progress(len(keys), len(keys))
    finally:
        for a in (agent, side):
            if a is not None:
                a.close()
    return reviews(game, cache)


def reviews(game: Game, cache: dict[Key, PositionEval]) -> list[MoveReview]:
    """The reviews of the current line's moves whose positions before and after are analysed."""
    keys = line_keys(game)
    out = []
    for i, (color, point) in enumerate(line_moves(game)):
        before, after = cache.get(keys[i]), cache.get(keys[i + 1])
        if before is None or after is None or point == RESIGN:
            continue
        out.append(
            move_review(i + 1, color, point, before, after, cache.get(child_key(keys[i], color, before.best)))
        )
    return out


# --- the report -------------------------------------------------------------------------------
@dataclass
class PlayerReport:
    """One player's summary: moves analysed, average points lost, mistakes, blunders, the worst."""

    color: int
    moves: int
    average_lost: float
    mistakes: int
    blunders: int
    worst: list[MoveReview]


def report(revs: list[MoveReview]) -> dict[int, PlayerReport]:
    """Per player (BLACK, WHITE): a :class:`PlayerReport` of the reviewed moves (passes left out)."""
    out = {}
    for color in (BLACK, WHITE):
        mine = [r for r in revs if r.color == color and r.move != PASS]
        lost = [r.points_lost for r in mine]
        out[color] = PlayerReport(
            color,
            len(mine),
            sum(lost) / len(lost) if lost else 0.0,
            sum(1 for x in lost if MISTAKE <= x < BLUNDER),
            sum(1 for x in lost if x >= BLUNDER),
            sorted(mine, key=lambda r: (-r.points_lost, r.number))[:3],
        )
    return out


def report_text(revs: list[MoveReview], size: int, names: dict[int, str] | None = None) -> str:
    """The report as text lines (thresholds stated)."""
    lines = [f"Analysis: mistake = {MISTAKE:g}+ points lost, blunder = {BLUNDER:g}+ points lost"]
    for color, r in report(revs).items():
        who = "Black" if color == BLACK else "White"
        if names and names.get(color):
            who += f" ({names[color]})"
        worst = ", ".join(
            f"move {m.number} {format_vertex(m.move, size)} -{m.points_lost:.1f}"
            f" (best {format_vertex(m.best, size)})"
            for m in r.worst
            if m.points_lost >= 0.05
        )
        lines.append(
            f"{who}: {counted(r.moves, 'move')}, average {r.average_lost:.2f} points lost, "
            f"{counted(r.mistakes, 'mistake')}, {counted(r.blunders, 'blunder')}; biggest: {worst or 'none'}"
        )
    return "\n".join(lines)


def report_summary(revs: list[MoveReview]) -> str:
    """The report in two short lines for the window's panel (move numbers of the three biggest)."""
    lines = []
    for color, r in report(revs).items():
        worst = ", ".join(f"{m.number} (-{m.points_lost:.1f})" for m in r.worst if m.points_lost > 0)
        lines.append(
            f"{'Black' if color == BLACK else 'White'}: {r.average_lost:.1f} lost a move, "
            f"{counted(r.mistakes, 'mistake')}, {counted(r.blunders, 'blunder')}; worst {worst or 'none'}"
        )
    return "\n".join(lines)


def next_mistake(revs: list[MoveReview], current: int, threshold: float, step: int) -> int | None:
    """The move number of the next (step=1) or previous (step=-1) move after/before move
    ``current`` (the number of moves on the board) that lost ``threshold`` points or more."""
    hits = [r.number for r in revs if r.points_lost >= threshold]
    if step > 0:
        later = [n for n in hits if n > current]
        return min(later) if later else None
    earlier = [n for n in hits if n < current]
    return max(earlier) if earlier else None
