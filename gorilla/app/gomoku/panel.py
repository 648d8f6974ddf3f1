"""The text of Gomoku's side panel (:meth:`gorilla.app.table.Table.status_lines`): the players,
the board and rule, the move, the record's comment and the analysis of the move, the clocks, who
is to move (or acts in a Swap2 opening) or the result, the AI's line, the compile."""

from __future__ import annotations

from typing import Any

from gorilla.app.gomoku.reviewer import whole_moves
from gorilla.app.status_text import COMMENT_SHOWN, busy_lines, clock_lines
from gorilla.gomoku import rules as R

COLOR_NAME = {R.BLACK: "Black", R.WHITE: "White"}


def gomoku_status_lines(c: Any) -> list[str]:
    """The panel's lines of the Gomoku controller c (its ``game`` a GomokuView)."""
    view = c.game
    g = view.gomoku
    kind = "  (AI vs AI)" if c.ai_vs_ai else ""
    lines = [f"Black: {c.players[R.BLACK]}  White: {c.players[R.WHITE]}{kind}"]
    lines.append(f"{g.size}x{g.size} Gomoku, {R.RULE_NAMES[g.rule]}")
    last = view.last_move
    lines.append(f"Move {len(g.moves)}" + (f", last {c.kind.point_name(view, last.point)}" if last else ""))
    note = c.comment
    if note:  # the record's comment on this move (the game's, on the empty board)
        lines.append("Comment: " + (note if len(note) <= COMMENT_SHOWN else note[:COMMENT_SHOWN] + "..."))
    review = c.game_review
    analysed = review.note(g, [p for p, _ in g.moves])
    if analysed:  # the analysis (g) of this move
        lines += analysed.split("\n")
    if review.running:
        done, total = review.progress
        lines.append(f"Analysing the game: {done}/{total} positions (g cancels)")
    lines += clock_lines(c)
    if c.over:
        lines.append(f"Game over ({view.end_reason}). Result: {view.result}")
    else:
        lines += _to_move(c, view)
    lines += busy_lines(c)
    if c.message:
        lines.append(c.message)
    return lines


def _to_move(c: Any, view: Any) -> list[str]:
    """Who acts (the Swap2 prompt, or the side to move), the review's word, the AI's line."""
    color = view.to_move
    who = "human" if c.is_human(color) else c.players[color]
    lines = [c.opening.prompt() if c.opening.active() else f"{COLOR_NAME[color]} to move ({who})"]
    if c.reviewing:
        n = len(view.gomoku.moves)
        lines.append(f"Reviewing move {n} of {len(whole_moves(view))}: the AI waits (space: play on)")
    p = c.progress
    if c.thinking and p is not None and p.candidates:
        lines.append("PV " + " ".join(c.kind.point_name(view, m) for m in p.candidates[0].pv[:6]))
    elif c.ai_vs_ai and not c.continuous and not c.thinking:
        lines.append("Click or space: next AI move")
    return lines


__all__ = ["gomoku_status_lines"]
