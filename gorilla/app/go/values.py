"""How Go values every move for ``e`` (:class:`gorilla.app.kind.Valuer`): the evaluator of
:mod:`gorilla.ai.evaluator` (the net's search by default, the MCTS where the net does not play,
Gorilla's flat Monte-Carlo with ``-eval G T``), and the points the last move lost."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from gorilla.app.kind import Job
from gorilla.app.move_values import EvaluationView
from gorilla.rules.board import PASS
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game

DEFAULT_EVAL_GAMES = 10
DEFAULT_EVAL_TURNS = 3


class GoValuer:
    """The evaluator's settings: its engine (``net``, ``mcts``, ``flat``), the flat evaluator's
    random games a move (G) and their moves (T)."""

    def __init__(self, engine: str | None = None, games: int | None = None, turns: int | None = None) -> None:
        self.eval_games = DEFAULT_EVAL_GAMES if games is None else int(games)
        self.eval_turns = DEFAULT_EVAL_TURNS if turns is None else int(turns)
        self.eval_enabled = games is not None or turns is not None
        # the net evaluates unless named otherwise; the flat evaluator's numbers (G, T) pick it
        self.eval_engine = engine or ("flat" if self.eval_enabled else "net")

    def groups(self, game: Game) -> tuple[str, ...]:
        """The kernel groups the evaluator runs on for game (the MCTS's where the net does not play)."""
        from gorilla.ai.evaluator import ENGINE_GROUPS, engine_for

        return ENGINE_GROUPS[engine_for(game, self.eval_engine)[0]]

    def job(self, game: Game, progress: Callable[[Any], None]) -> tuple[Job, str]:
        """Every move of game (a copy) valued, and the points its last move lost."""
        from gorilla.ai import evaluator

        snap = game.copy()
        engine, why = evaluator.engine_for(game, self.eval_engine)  # the MCTS where the net does not play
        games, turns = self.eval_games, self.eval_turns

        def run(cancel: threading.Event) -> EvaluationView:
            ev = evaluator.evaluate(
                snap, engine=engine, games=games, turns=turns, cancel=cancel, progress=progress
            )
            lost = None
            n = snap.move_number
            if n and snap.moves[-1].point >= 0 and not cancel.is_set():
                try:
                    lost = float(
                        evaluator.points_lost(snap, n, engine=engine, games=games, turns=turns, cancel=cancel)
                    )
                except Exception:
                    lost = None
            return EvaluationView(ev, lost, n, games=games, turns=turns)

        label = f"{engine}, G={games}, T={turns}" if engine == "flat" else engine
        return run, why or f"Evaluating ({label})"

    def done(self, view: EvaluationView, game: Game) -> str:
        """The best move named."""
        best = getattr(view.evaluation, "best", PASS)
        return f"Best move: {format_vertex(best, game.size)}"


__all__ = ["DEFAULT_EVAL_GAMES", "DEFAULT_EVAL_TURNS", "GoValuer"]
