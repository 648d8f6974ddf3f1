"""The one interface every AI implements, and agent specs like ``mcts:time=2,threads=2``.

Callers ask ``agent.select_move(game, budget=None, cancel=None, progress=None)``
for a move (a point, PASS or RESIGN) for the side to move in game's current
position: within ``budget`` (None: the agent's own default), stopping within
50 ms of ``cancel`` being set (with its best move so far), and calling
``progress`` with snapshots of its thinking, which the desktop app and the GTP
analysis commands draw live. An agent never changes the game it is given.

An agent subclasses :class:`Agent` and implements one method,
``choose(req) -> int``: :meth:`Agent.select_move` hands it its arguments as
one :class:`MoveRequest` whose ``budget`` is never None (``Budget()`` leaves
the limits to the agent, see :attr:`MoveRequest.default_budget`). The other
hooks (new_game, reseed, set_time, time_left, close) have do-nothing or
generic defaults. ``make_agent`` builds an agent from a spec string.
"""

from __future__ import annotations

import importlib
import inspect
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from gorilla.rules.game import Game


@dataclass(frozen=True)
class Budget:
    """How much an agent may think: playouts and/or seconds (None = agent's default)."""

    playouts: int | None = None
    seconds: float | None = None


@dataclass
class Candidate:
    """One move the agent considered, from the side to move's point of view."""

    move: int
    visits: int = 0
    winrate: float = 0.5
    score: float = 0.0  # expected score margin for the side to move
    prior: float = 0.0
    pv: list[int] = field(default_factory=list)
    utility: float | None = None  # the search's value of the move (None: from the win rate alone)
    score_stdev: float = 0.0  # the net's spread of the final score after the move, in points
    pv_visits: list[int] = field(default_factory=list)  # visits of each position along the PV

    def value(self) -> float:
        """The move's utility: the search's, else 2 * winrate - 1."""
        return 2.0 * self.winrate - 1.0 if self.utility is None else self.utility


@dataclass
class Progress:
    """A snapshot of an agent's thinking."""

    best_move: int
    winrate: float
    playouts: int
    fraction: float  # of the budget used, 0..1
    candidates: list[Candidate] = field(default_factory=list)
    elapsed: float = 0.0
    score_lead: float = 0.0  # the root's expected lead for the side to move, in points
    utility: float | None = None  # the root's utility (None: from the win rate alone)
    ownership: np.ndarray | None = None  # per flat point, Black +1 .. White -1 (None: not known)


ProgressFn = Callable[[Progress], None]


@dataclass(frozen=True)
class MoveRequest:
    """One question to an agent: select_move's arguments; a budget of None becomes ``Budget()``."""

    game: Game
    budget: Budget = Budget()  # Budget() (no playouts, no seconds): the agent's own default
    cancel: threading.Event | None = None  # once set, answer within 50 ms
    progress: ProgressFn | None = None  # called with snapshots of the thinking

    def __post_init__(self) -> None:
        if self.budget is None:
            object.__setattr__(self, "budget", Budget())

    @property
    def default_budget(self) -> bool:
        """Whether the caller left the limits to the agent (neither playouts nor seconds)."""
        return self.budget.playouts is None and self.budget.seconds is None


class Agent:
    """Base class of every AI: subclasses implement :meth:`choose` (or, alone, select_move)."""

    name: str = "agent"

    def select_move(
        self,
        game: Game,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
        progress: ProgressFn | None = None,
    ) -> int:
        """A move for the side to move in game: a point, PASS or RESIGN. Never changes game."""
        return self.choose(MoveRequest(game, budget, cancel, progress))

    def choose(self, req: MoveRequest) -> int:
        """The move for ``req.game`` within the request's budget: what each agent implements."""
        raise NotImplementedError(f"{type(self).__name__} implements neither choose nor select_move")

    def new_game(self) -> None:
        """Forget anything kept between moves (search trees, clocks)."""

    def reseed(self, seed: int) -> None:
        """Draw from a new random sequence from now on (a match gives every game its own seed).

        Agents keep their seed in ``seed`` (used per search) and/or a ``random.Random``
        in ``rng``; both are replaced. A deterministic agent has neither and ignores it.
        """
        if hasattr(self, "seed"):
            self.seed = seed
        if hasattr(self, "rng"):
            self.rng = random.Random(seed)

    def set_time(self, main_time: float, byo_yomi_time: float, byo_yomi_stones: int) -> None:
        """GTP time_settings; agents without time management ignore it."""

    def time_left(self, color: int, seconds: float, stones: int) -> None:
        """GTP time_left; agents without time management ignore it."""

    def close(self) -> None:
        """Stop worker threads, if any."""

    def __str__(self) -> str:
        return self.name


# name -> "module:Class"; modules are imported only when the agent is asked for
AGENTS: dict[str, str] = {
    "random": "gorilla.ai.random_agent:RandomAgent",
    "montecarlo": "gorilla.ai.montecarlo:MonteCarloAgent",
    "mcts": "gorilla.ai.mcts.agent:MCTSAgent",
    "net": "gorilla.ai.puct.agent:NetAgent",
    "rank": "gorilla.ai.rank:RankAgent",
    "scoreloss": "gorilla.ai.teaching_agents:ScoreLossAgent",
    "policy": "gorilla.ai.teaching_agents:PolicyAgent",
    "alphabeta": "gorilla.ai.alphabeta:AlphaBetaAgent",
    "greedy": "gorilla.ai.baselines:GreedyAgent",
    "aggressive": "gorilla.ai.baselines:AggressiveAgent",
    "minimax": "gorilla.ai.baselines:MinimaxAgent",
}


def _value(text: str) -> int | float | str | bool:
    t = text.strip()
    if t.lower() in ("true", "yes", "on"):
        return True
    if t.lower() in ("false", "no", "off"):
        return False
    for conv in (int, float):
        try:
            return conv(t)
        except ValueError:
            pass
    return t


def parse_spec(spec: str) -> tuple[str, list, dict]:
    """'montecarlo:5,5' -> ('montecarlo', [5, 5], {}); 'mcts:time=2,threads=2' -> kwargs."""
    name, _, rest = spec.strip().partition(":")
    args: list = []
    kwargs: dict = {}
    for part in filter(None, (s.strip() for s in rest.split(","))):
        if "=" in part:
            k, _, v = part.partition("=")
            kwargs[k.strip().replace("-", "_")] = _value(v)
        else:
            args.append(_value(part))
    return name.strip().lower(), args, kwargs


# Overrides a caller passes to every AI alike (``gorilla gtp --seed``): an AI that has no use
# for one (a deterministic search has no seed) is built without it.
RUN_WIDE = frozenset({"seed"})


def _takes(cls: type, option: str) -> bool:
    params = inspect.signature(cls).parameters
    return option in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def make_agent(spec: str, **overrides: object) -> Agent:
    """Build an agent from a spec; raises ValueError with a one-line reason if it is bad.

    ``overrides`` win over the spec's options; a run-wide one (``seed``) is left out for
    an AI that does not take it."""
    name, args, kwargs = parse_spec(spec)
    if name not in AGENTS:
        raise ValueError(f"unknown AI '{name}' (known: {', '.join(sorted(AGENTS))})")
    module, _, cls_name = AGENTS[name].partition(":")
    cls = getattr(importlib.import_module(module), cls_name)
    kwargs.update(
        {k: v for k, v in overrides.items() if v is not None and (k not in RUN_WIDE or _takes(cls, k))}
    )
    try:
        return cls(*args, **kwargs)
    except TypeError as e:
        raise ValueError(f"bad settings for AI '{name}': {e}") from None
