"""Go's panel text (:meth:`gorilla.app.table.Table.status_lines` of Go's controller): the players,
the board, the move, the record around it (set-up mode, the variation, the branches, the
comment), captures, the clocks, the AI's thinking, the result and the count."""

from __future__ import annotations

import time
from typing import Any

from gorilla.app.status_text import COMMENT_SHOWN, busy_lines, clock_lines, search_count
from gorilla.app.table import Table
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.scoring import result_string

COLOR_NAME = {BLACK: "Black", WHITE: "White"}
BRANCHES_SHOWN = 5  # the last branching points of the current line the panel names


class GoPanel(Table):
    """What Go's panel text reads beyond the :class:`Table`: the record's branches, the score,
    the clock, the end the rules do not see."""

    clock: Any
    ended: str | None
    estimating: bool
    reviewing: bool
    current_ai_task: Any

    def branch_summary(self) -> tuple[int, int, int, list[str]]:
        """(move number, line length, variations here, their moves)."""
        ...

    def score(self) -> Any:
        """The count once the game is over (``.breakdown()``, ``.method``), or None."""
        ...

    def recorded_result(self) -> str | None:
        """The record's own result (RE) while it stands at the main line's end, else None."""
        ...


def go_status_lines(c: GoPanel) -> list[str]:
    """Go's panel text: players, board, move, record, captures, clocks, the AI, the result."""
    game = c.game
    lines: list[str] = []
    kind = "AI vs AI" if c.ai_vs_ai else ""
    players = f"Black: {c.players[BLACK]}  White: {c.players[WHITE]}" + (f"  ({kind})" if kind else "")
    lines.append(players)
    lines.append(
        f"{game.size}x{game.size} {game.ruleset.name} rules, komi {game.komi:g}"
        + (f", handicap {game.handicap}" if game.handicap else "")
    )
    lines.extend(_where_and_when(c.names()))
    last = game.last_move
    last_txt = f", last {COLOR_NAME[last.color][0]} {format_vertex(last.point, game.size)}" if last else ""
    lines.append(f"Move {game.move_number}{_line_length(c)}{last_txt}")
    lines.extend(record_lines(c))
    lines.append(f"Captures: Black {game.captures(BLACK)}  White {game.captures(WHITE)}")
    lines.extend(clock_lines(c))
    if c.over:
        lines.extend(_result_lines(c))
    else:
        color = game.to_move
        who = "human" if c.is_human(color) else c.players[color]
        lines.append(f"{COLOR_NAME[color]} to move ({who})")
        if c.thinking:
            lines.append(_thinking_line(c))
        elif c.reviewing and not c.is_human(color):
            lines.append("Reviewing: the AI waits (space: it plays from here)")
        elif c.ai_vs_ai and not c.continuous:
            lines.append("Click or space: next AI move")
    lines.extend(busy_lines(c))
    ev = c.evaluation
    if ev is not None:
        best = ev.evaluation.best
        figure = ev.figure()
        lines.append(f"Evaluator: best {format_vertex(best, game.size)}" + (f" ({figure})" if figure else ""))
        if ev.points_lost is not None and game.last_move is not None:
            lines.append(f"Last move lost {ev.points_lost:.1f} points")
    if c.message:
        lines.append(c.message)
    return lines


def _where_and_when(info: Any) -> list[str]:
    """The record's place and date, where it has them (the event is the panel's first line)."""
    if info is None:
        return []
    parts = [f"Place: {info.place}" if info.place else "", f"Date: {info.date}" if info.date else ""]
    text = "  ".join(p for p in parts if p)
    return [text] if text else []


def _line_length(c: GoPanel) -> str:
    """' of 40' when the line on the board goes on after the current move."""
    number, length, _, _ = c.branch_summary()
    return f" of {length}" if length > number else ""


def record_lines(c: GoPanel) -> list[str]:
    """The record around the current move: set-up mode, the variation, the branches here, the comment."""
    lines: list[str] = []
    if c.editing:
        lines.append("Set-up: left click Black, right click White, click a stone to remove it")
        lines.append(f"x: side to move ({COLOR_NAME[c.game.to_move]}), b: done")
    tree = c.tree
    forks = [
        (node.depth, node.parent.children.index(node) + 1, len(node.parent.children))
        for node in tree.path()[1:]
        if node.parent is not None and len(node.parent.children) > 1
    ]
    if forks:
        where = "main line" if tree.on_main_line() else "a variation"
        shown = ", ".join(f"{d} ({i} of {n})" for d, i, n in forks[-BRANCHES_SHOWN:])
        more = "... " if len(forks) > BRANCHES_SHOWN else ""
        lines.append(f"Line: {where}, branching at move {more}{shown}")
    _, _, count, moves = c.branch_summary()
    if count > 1:
        lines.append(f"{count} variations here: {', '.join(moves[:8])}{' ...' if count > 8 else ''}")
    name = c.tree.current.name.strip()
    if name:
        lines.append(f"Name: {name[:80]}")
    comment = c.comment.strip()
    if comment:
        short = comment if len(comment) <= COMMENT_SHOWN else comment[:COMMENT_SHOWN] + "..."
        lines.append(f"Comment: {short}")
    return lines


def _thinking_line(c: GoPanel) -> str:
    color = c.game.to_move
    p = c.progress
    text = f"{COLOR_NAME[color]} ({c.players[color]}) thinking"
    task = c.current_ai_task
    if task is not None:
        text += f" {time.monotonic() - task.started:.1f}s"
    if p is not None:
        text += f", {100 * p.fraction:.0f}%: best {format_vertex(p.best_move, c.game.size)}"
        text += f", win {100 * p.winrate:.1f}%, {search_count(p.playouts, c.players[color])}"
    return text


def _result_lines(c: GoPanel) -> list[str]:
    game = c.game
    if game.resigned:
        return [f"{COLOR_NAME[game.resigned]} resigned. Result: {game.result}"]
    if c.ended is not None:
        how = {"time": "on time", "forfeit": "by forfeit"}.get(c.ended, "")
        return [f"Game over {how}. Result: {game.result}".replace("  ", " ")]
    lines = [f"Game over ({game.end_reason})"]
    if c.estimating:
        lines.append("Estimating dead stones...")
    sc = c.score()
    recorded = c.recorded_result()
    if recorded is not None and (sc is None or recorded != result_string(sc.margin)):
        lines.append(f"Result: {recorded}, as the record says")
        if game.end_reason == "passes" and sc is not None and sc.method != "stones":
            lines.append("Click a group to mark it dead or alive and count the game")
        return lines
    if sc is not None:
        lines.extend(_keep_komi_together(ln) for ln in sc.breakdown().splitlines())
        if game.end_reason == "passes" and sc.method != "stones":
            lines.append("Click a group to mark it dead or alive")
    return lines


def _keep_komi_together(line: str) -> str:
    """'... + 7.5 komi = 47.5' with no-break spaces, so a narrow panel wraps before the '+'."""
    head, sep, tail = line.rpartition(" + ")
    if not sep or "komi" not in tail:
        return line
    nbsp = "\u00a0"
    return head + " +" + nbsp + tail.replace(" ", nbsp)
