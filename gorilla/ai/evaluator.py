"""The move evaluator (Gorilla's ``-eval G T``, the app's ``e`` key, ``gorilla-evaluate``).

``evaluate`` gives every legal move of the side to move (board points only,
own-eye fills included) a win rate and an expected score margin, both from
the mover's point of view, and names the best move. Three engines (the window's ``e``
uses ``net`` where the net plays the board, ``mcts`` elsewhere: :func:`engine_for`):

* ``flat`` (this function's default): Gorilla's flat Monte-Carlo sampling,
  :func:`gorilla.ai.montecarlo.move_values`, G samples of T turns per move
  (T = 0: to the end, area count). Moves are ranked by their mean evaluation,
  as Gorilla's AI ranks them. A budget can only cut it short (``playouts``
  caps the total samples, ``seconds`` the time).
* ``mcts``: a fresh :class:`gorilla.ai.mcts.MCTSAgent` search (default budget:
  G x moves playouts, the flat evaluator's sample count, at least 200). Its
  root candidates carry the tree's win rate and its mean area margin with
  komi from the playouts (MCTS keeps a score sum per node). Only moves the
  search visited get a value; the best move is the most visited one.
* ``net``: the same over the net's PUCT search (:class:`gorilla.ai.puct.agent.NetAgent`,
  default :data:`NET_VISITS` visits): each visited move's win rate and score lead, the
  most visited move the best. Repeatable: the same visits give the same values within a
  symmetry's noise.

``points_lost`` replays the game to the position before a move, evaluates
it and returns how far the move's expected margin falls below the best
move's (never negative). For ``mcts``, a move the search did not visit is
valued by searching the position after it (the opponent's best margin,
negated).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from gorilla.ai.agent import Budget, ProgressFn
from gorilla.ai.montecarlo import MoveValue, move_values
from gorilla.rules.board import BLACK, PASS
from gorilla.rules.game import Game

ENGINES = ("flat", "mcts", "net")
NET_VISITS = 200
MCTS_MIN_PLAYOUTS = 200
MCTS_MAX_NODES = 300_000


@dataclass
class Evaluation:
    """Every evaluated move's value (mover's view) and the best move (PASS if none); a searching
    engine's principal variation of each searched move (the move first; none from ``flat``)."""

    values: dict[int, MoveValue] = field(default_factory=dict)
    best: int = PASS
    engine: str = "flat"
    playouts: int = 0
    pvs: dict[int, list[int]] = field(default_factory=dict)


def _check_engine(engine: str) -> str:
    e = str(engine).strip().lower()
    if e not in ENGINES:
        raise ValueError(f"unknown evaluator engine '{engine}' (known: {', '.join(ENGINES)})")
    return e


def _flat(
    game: Game,
    games: int,
    turns: int,
    budget: Budget | None,
    cancel: threading.Event | None,
    progress: ProgressFn | None,
    seed: int | None,
) -> Evaluation:
    moves = game.legal_moves()
    cap = None
    if budget is not None and (budget.playouts is not None or budget.seconds is not None):
        total = games * len(moves)
        playouts = min(total, budget.playouts) if budget.playouts is not None else None
        cap = Budget(playouts=playouts, seconds=budget.seconds)
    values = move_values(game, games, turns, cancel, progress, seed, budget=cap, moves=moves)
    best = PASS
    top = None
    for p in moves:  # board order: the first of equal means wins, as in the AI
        v = values.get(p)
        if v is not None and (top is None or v.value > top):
            best, top = p, v.value
    return Evaluation(values, best, "flat", sum(v.samples for v in values.values()))


def _mcts(
    game: Game,
    games: int,
    budget: Budget | None,
    cancel: threading.Event | None,
    progress: ProgressFn | None,
    seed: int | None,
) -> Evaluation:
    from gorilla.ai.mcts.agent import MCTSAgent

    n = len(game.legal_moves())
    if budget is None or (budget.playouts is None and budget.seconds is None):
        budget = Budget(playouts=max(MCTS_MIN_PLAYOUTS, games * n))
    return _searched(game, MCTSAgent(seed=seed, max_nodes=MCTS_MAX_NODES, early_stop=False), "mcts",
                     budget, cancel, progress)  # fmt: skip


def _searched(
    game: Game,
    agent,
    engine: str,
    budget: Budget,
    cancel: threading.Event | None,
    progress: ProgressFn | None,
) -> Evaluation:
    """The values of the root candidates of agent's search (closed after it), the most visited best."""
    try:
        cands = agent.analyze(game, budget, cancel, progress)
    finally:
        agent.close()
    komi = float(game.komi or 0.0)
    adjust = komi if game.to_move == BLACK else -komi
    values: dict[int, MoveValue] = {}
    pvs: dict[int, list[int]] = {}
    best = PASS
    for c in cands:  # most visited first
        if c.move < 0 or c.visits <= 0:
            continue
        values[c.move] = MoveValue(c.move, c.score + adjust, c.winrate, c.score, c.visits)
        pvs[c.move] = [int(m) for m in (c.pv or [c.move])]
        if best == PASS:
            best = c.move
    return Evaluation(values, best, engine, sum(v.samples for v in values.values()), pvs)


def _net(
    game: Game,
    budget: Budget | None,
    cancel: threading.Event | None,
    progress: ProgressFn | None,
    seed: int | None,
) -> Evaluation:
    from gorilla.ai.puct.agent import NetAgent

    if budget is None or (budget.playouts is None and budget.seconds is None):
        budget = Budget(playouts=NET_VISITS)
    return _searched(game, NetAgent(seed=seed, resign=0.0), "net", budget, cancel, progress)


# the kernel groups (gorilla.ai.warmup) each engine needs besides the rules
ENGINE_GROUPS: dict[str, tuple[str, ...]] = {"flat": ("control", "flat"), "mcts": ("mcts",), "net": ("net",)}


def engine_for(game: Game, engine: str) -> tuple[str, str]:
    """(the engine that evaluates game, a line saying why when it is not ``engine``): ``net``
    gives way to ``mcts`` on a board the net does not play (beyond 7x7..19x19, Little-Go)."""
    kind = _check_engine(engine)
    if kind == "net":
        from gorilla.ai.puct.evaluator import supports

        if not supports(game):
            return (
                "mcts",
                f"The net does not play {game.size}x{game.size} {game.ruleset.name}: the MCTS evaluates",
            )
    return kind, ""


def evaluate(
    game: Game,
    engine: str = "flat",
    games: int = 10,
    turns: int = 3,
    budget: Budget | None = None,
    cancel: threading.Event | None = None,
    progress: ProgressFn | None = None,
    seed: int | None = None,
) -> Evaluation:
    """Values of the legal moves of the side to move in game (see the module docstring)."""
    kind = _check_engine(engine)
    if game.over or not game.legal_moves():
        return Evaluation(engine=kind)
    if kind == "flat":
        return _flat(game, games, turns, budget, cancel, progress, seed)
    if kind == "net":
        return _net(game, budget, cancel, progress, seed)
    return _mcts(game, games, budget, cancel, progress, seed)


def points_lost(
    game: Game,
    move_number: int,
    engine: str = "flat",
    games: int = 10,
    turns: int = 3,
    cancel: threading.Event | None = None,
    budget: Budget | None = None,
    seed: int | None = None,
) -> float:
    """How many points move ``move_number`` (1 = the first move) lost against the best
    move of the position before it, by the engine's expected margins; 0 or more."""
    kind = _check_engine(engine)
    if not 1 <= move_number <= game.move_number:
        raise ValueError(f"no move {move_number} (the game has {game.move_number})")
    played = game.moves[move_number - 1].point
    if played < 0:
        raise ValueError(f"move {move_number} is not a board move")
    before = game.at(move_number - 1)
    ev = evaluate(before, kind, games, turns, budget, cancel, None, seed)
    if ev.best not in ev.values:
        raise ValueError("evaluation cancelled")
    best = ev.values[ev.best].score
    mine = ev.values.get(played)
    if mine is not None and (kind == "flat" or mine.samples >= 10):
        score = mine.score
    elif kind == "flat":
        raise ValueError("evaluation cancelled")
    else:
        after = game.at(move_number)
        if after.over:
            margin = after.score().margin
            score = margin if before.to_move == BLACK else -margin
        else:
            ev2 = evaluate(after, kind, games, turns, budget, cancel, None, seed)
            if ev2.best not in ev2.values:
                raise ValueError("evaluation cancelled")
            score = -ev2.values[ev2.best].score
    return max(0.0, best - score)


__all__ = ["Evaluation", "MoveValue", "evaluate", "engine_for", "points_lost", "ENGINES", "ENGINE_GROUPS"]
