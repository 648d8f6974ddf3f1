"""The ``net`` agent: a PUCT search over the neural network (``net:visits=400``, ``net:time=1``).

Settings (agent spec ``net:KEY=VALUE,...``):

- ``visits=N``: visits per move (counted at the root, the reused ones included);
- ``time=S``: seconds per move (without either, the clock's plan, else ``visits=DEFAULT_VISITS``);
- ``threads=K``: search threads sharing the tree (the net runs outside the tree's lock);
- ``batch=B``: leaves evaluated together (default 4, the fastest on one core);
- ``net=FILE``: another KataGo net of a supported version (default: the shipped one);
- ``resign=R``: resign when the win rate stays below R for two moves (0 never; default 0.03);
- ``c_puct``, ``c_puct_log``, ``c_puct_base``, ``fpu``, ``root_fpu``, ``static_score``,
  ``dynamic_score``: the search's constants (:class:`gorilla.ai.puct.search.SearchParams`);
- KataGo 1.17.2's refinements, each a SearchParams field (0 turns it off; ``lcb=5``,
  ``value_weight=0.25`` and ``noise_prune=0.15`` are on by default, the others measured no gain
  at equal visits: ``benchmarks/RESULTS.md#2026-11-27-the-nets-search-with-katagos-backup``):
  ``value_weight`` and ``noise_prune`` (a node's value recomputed from its children's as KataGo
  does: children below the mean weighted down by their chance of being better, over-visited
  worse children pruned of weight), ``subtree_bias`` (a node's own utility corrected by the
  search error of nodes in the same local context),
  ``fpu_pow`` (an unvisited child's urgency starts from the node's mean utility blended toward
  its own net utility by the visited prior mass to this power), ``stdev_scale`` with
  ``stdev_prior``, ``stdev_prior_weight`` (exploration scaled by the node's utility spread),
  ``lcb`` with ``lcb_min_prop`` (the move chosen by lower confidence bound, in standard
  deviations, among moves with that share of the top visits), ``static_scale``,
  ``dynamic_scale`` (the score terms' scales in board sides; 0: ``score_scale``, default half
  a side) and ``centre_zero`` (the dynamic term's centre pulled toward 0 by this share);
- ``pda=X``: KataGo's playout doubling advantage, -3..3, told to the net (this player's nodes
  X, the opponent's -X: positive plays as if out-reading the opponent, negative safe), for moves
  and analysis; ``pda=auto`` (the default): in a handicap game (or one whose komi favours a
  side) the moves played take KataGo's dynamic PDA (:mod:`gorilla.ai.puct.pda`), so the side
  giving stones plays to win from behind, analysis none; White giving stones then resigns
  only as KataGo's engine does (late, and far behind schedule);
- ``seed``: the random symmetry of each evaluation;
- ``ponder=1``: after choosing a move, search on in the background, on the position after it,
  until the next request (at most ``PONDER_VISITS`` in the tree), so the reply's subtree is
  ready (KataGo's ``ponderingEnabled``; off by default: it takes the opponent's CPU time).

The tree is kept between moves: the next search starts from the subtree of the moves played.
Where the net does not play (boards beyond 7..19, Little-Go's stones count) the classical
MCTS (:class:`gorilla.ai.mcts.agent.MCTSAgent`) plays instead, said once on stderr.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import fields, replace

import numpy as np

from gorilla.ai.agent import Agent, Candidate, MoveRequest, Progress
from gorilla.ai.mcts.clock import Clock
from gorilla.ai.puct.evaluator import NetEvaluator, supports
from gorilla.ai.puct.pda import DynamicPda, may_resign, parse_pda
from gorilla.ai.puct.search import Search, SearchParams
from gorilla.rules import board as K
from gorilla.rules.board import PASS, RESIGN
from gorilla.rules.game import Game

DEFAULT_VISITS = 200
PONDER_VISITS = 4000  # the tree's visits where pondering stops (memory: about 20 kB a node on 19x19)
PROGRESS_EVERY = 0.1  # seconds between progress snapshots


class NetAgent(Agent):
    """PUCT over the net's policy, win rate and score (see the module docstring)."""

    name = "net"

    def __init__(
        self,
        visits: int | None = None,
        time: float | None = None,
        threads: int = 1,
        batch: int = 4,
        net: str | None = None,
        resign: float = 0.03,
        seed: int | None = None,
        ponder: float = 0,
        pda: float | str | None = None,
        **constants: float,
    ) -> None:
        if visits is not None and visits <= 0:
            raise ValueError("visits must be positive")
        if time is not None and time <= 0:
            raise ValueError("time must be positive")
        if not 1 <= int(threads) <= 16:
            raise ValueError("threads must be 1..16")
        known = {f.name for f in fields(SearchParams)}
        unknown = sorted(set(constants) - known)
        if unknown:
            raise ValueError(
                f"unknown setting {unknown[0]!r} (known: visits, time, threads, batch, net, ...)"
            )
        self.visits = visits
        self.time = time
        self.threads = int(threads)
        self.params = SearchParams(batch=max(1, int(batch)), **{k: float(v) for k, v in constants.items()})
        self.resign = float(resign)
        self.seed = seed
        self.evaluator = NetEvaluator(net, seed=seed)  # NetError: one line, from the net's loader
        self.clock = Clock()
        self.search = Search(self.evaluator, self.params, seed=seed)
        self.last_visits = 0
        self.last_candidates: list[Candidate] = []
        self._low = 0  # consecutive moves with a win rate below ``resign``
        self._fallback: Agent | None = None  # the MCTS, for boards the net does not play
        self.ponder = bool(ponder)
        self._ponder: tuple[threading.Thread, threading.Event, list[int]] | None = None
        self._own: np.ndarray | None = None  # the last search's ownership and root value
        self._value = (0.5, 0.0)
        self.pda = parse_pda(pda)  # None: the dynamic PDA of a handicap game for its moves
        self.dynamic_pda = DynamicPda()

    def fallback(self, game: Game) -> Agent:
        """The classical MCTS for a board the net does not play (made, and announced, once)."""
        if self._fallback is None:
            from gorilla.ai.mcts.agent import MCTSAgent

            why = f"{game.size}x{game.size}" if game.ruleset.scoring != "stones" else "Little-Go's count"
            print(f"net: {why} is beyond the net (7x7..19x19): the classical MCTS plays", file=sys.stderr)
            self._fallback = MCTSAgent(
                threads=self.threads, time=self.time, playouts=self.visits, seed=self.seed
            )
        return self._fallback

    # --- agent interface ------------------------------------------------------------------
    def new_game(self) -> None:
        """Forget the tree and the resignation count."""
        self.stop_pondering()
        self.search = Search(self.evaluator, self.params, seed=self.seed)
        self._low = 0
        self.dynamic_pda.reset()
        if self._fallback is not None:
            self._fallback.new_game()

    def set_net_rules(self, rules) -> None:  # rules: gorilla.ai.net.inputs.NetRules | None
        """Tell the net these KataGo rules from now on (None: each game's own); the tree goes."""
        self.evaluator.inputs = replace(self.evaluator.inputs, rules=rules)
        self.new_game()

    def close(self) -> None:
        """Stop pondering, and the fallback MCTS's workers if it ever played."""
        self.stop_pondering()
        if self._fallback is not None:
            self._fallback.close()

    def reseed(self, seed: int) -> None:
        """New random symmetries from now on."""
        self.seed = seed
        self.evaluator.reseed(seed)

    def set_time(self, main_time: float, byo_yomi_time: float, byo_yomi_stones: int) -> None:
        """GTP time_settings: each move's time is planned by the clock from now on."""
        self.clock.set_time(main_time, byo_yomi_time, byo_yomi_stones)

    def time_left(self, color: int, seconds: float, stones: int) -> None:
        """GTP time_left: correct the clock."""
        self.clock.time_left(seconds, stones)

    def choose(self, req: MoveRequest) -> int:
        """The search's choice (:meth:`Search.best_move`); RESIGN when the game is lost beyond doubt."""
        t0 = time.perf_counter()
        game = req.game
        if game.over:
            return PASS
        if not supports(game):
            return self.fallback(game).choose(req)
        auto = self.pda is None
        self._use_pda(self.dynamic_pda.for_move(game, game.to_move) if auto else self.pda, game.to_move)
        self._search(req)
        if auto:
            self.dynamic_pda.record(game, game.to_move, self._value[0])
        info = self.search.root_info()
        if req.default_budget:
            self.clock.spent(time.perf_counter() - t0)
        if not info.moves:  # no child visited (a slow net, a short budget): the policy's choice
            return self._policy_move()
        wr = info.winrate[0]
        self._low = self._low + 1 if wr < self.resign else 0
        late = game.move_number >= game.size * game.size // 8
        if self.resign > 0 and self._low >= 2 and late and may_resign(game, game.to_move, self._value[1]):
            return RESIGN
        best = self.search.best_move()
        move = info.moves[0] if best is None else best
        if self.ponder:
            self._start_pondering(game, move)
        return move

    def _policy_move(self) -> int:
        """The root's likeliest move by the net's policy (PASS when the root was not evaluated)."""
        r = self.search.root
        if not r.expanded or r.moves is None or len(r.moves) == 0:
            return PASS
        return int(r.moves[int(np.argmax(r.prior))])

    def _use_pda(self, pda: float, color: int) -> None:
        """Tell the net ``color``'s PDA (its opponent's is the negative); a change starts a new
        tree, whose evaluations were made under the old one (KataGo clears its search too)."""
        inputs = self.evaluator.inputs
        if inputs.pda == pda == 0 or (inputs.pda, inputs.pda_color) == (pda, color):
            return
        self.stop_pondering()
        self.evaluator.inputs = replace(inputs, pda=float(pda), pda_color=color)
        self.search = Search(self.evaluator, self.params, seed=self.seed)

    # --- pondering ------------------------------------------------------------------------
    def _start_pondering(self, game: Game, move: int) -> None:
        after = game.copy()
        after.redo_stack = []
        after.play(move)
        if after.over:
            return
        stop = threading.Event()
        search = self.search
        added = [0]  # the visits the pondering adds

        def run() -> None:
            search.set_game(after)
            if search.root.visits < PONDER_VISITS:
                added[0] = search.run(visits=PONDER_VISITS, cancel=stop, threads=self.threads)

        thread = threading.Thread(target=run, name="net-ponder", daemon=True)
        self._ponder = (thread, stop, added)
        thread.start()

    def stop_pondering(self) -> int:
        """Stop the background search (within one batch); the visits it added (0: none ran)."""
        if self._ponder is None:
            return 0
        thread, stop, added = self._ponder
        stop.set()
        thread.join()
        self._ponder = None
        return added[0]

    def analyze(self, game: Game, *limits, **named) -> list[Candidate]:
        """Search like select_move (same arguments) and return the root's candidates, most visited first."""
        if not supports(game):
            return self.fallback(game).analyze(game, *limits, **named)  # type: ignore[attr-defined]
        self._use_pda(self.pda or 0.0, game.to_move)  # the dynamic PDA is for moves only (KataGo)
        self._search(MoveRequest(game, *limits, **named))
        return list(self.last_candidates)

    @property
    def last_playouts(self) -> int:
        """The last search's visits (the name the MCTS uses for its playouts)."""
        return self.last_visits

    def ownership(self) -> np.ndarray | None:
        """The last search's ownership per flat point, Black +1 .. White -1 (None before a search)."""
        return self._own

    def root_value(self) -> tuple[float, float]:
        """(win rate, score lead) for the side to move of the last search."""
        return self._value

    # --- the search -----------------------------------------------------------------------
    def _limits(self, game: Game, req: MoveRequest) -> tuple[int | None, float | None]:
        b = req.budget
        visits, seconds = b.playouts or None, b.seconds or None
        if visits is None and seconds is None:
            visits, seconds = self.visits, self.time
        if visits is None and seconds is None:
            plan = self.clock.plan(int(game.position.st[K.S_NEMPTY]), game.size * game.size)
            if plan is not None:
                return None, plan.target
            visits = DEFAULT_VISITS
        return visits, seconds

    def _search(self, req: MoveRequest) -> None:
        game = req.game
        visits, seconds = self._limits(game, req)
        self.stop_pondering()
        search = self.search
        search.set_game(game)
        t0 = time.perf_counter()
        last = [t0]
        lock = threading.Lock()

        def on_round() -> None:
            if req.progress is None:
                return
            now = time.perf_counter()
            with lock:
                if now - last[0] < PROGRESS_EVERY:
                    return
                last[0] = now
            req.progress(self._progress(visits, seconds, now - t0))

        search.run(visits=visits, seconds=seconds, cancel=req.cancel, threads=self.threads, on_round=on_round)
        self.last_visits = search.root.visits
        self.last_candidates = self._candidates()
        self._own = search.ownership()
        wr, lead, _ = search.root_value()
        self._value = (wr, lead)
        if req.progress is not None:
            req.progress(self._progress(visits, seconds, time.perf_counter() - t0, final=True))

    def _candidates(self) -> list[Candidate]:
        info = self.search.root_info()
        return [
            Candidate(
                move=info.moves[k],
                visits=info.visits[k],
                winrate=info.winrate[k],
                score=info.lead[k],
                prior=info.prior[k],
                pv=info.pvs[k],
                utility=info.utility[k],
                score_stdev=info.stdev[k],
                pv_visits=info.pv_visits[k],
            )
            for k in range(len(info.moves))
        ]

    def _progress(
        self, visits: int | None, seconds: float | None, elapsed: float, final: bool = False
    ) -> Progress:
        cands = self._candidates()
        n = self.search.root.visits
        frac = 1.0 if final else 0.0
        if not final:
            if visits:
                frac = min(1.0, n / visits)
            if seconds:
                frac = max(frac, min(1.0, elapsed / seconds))
        best = cands[0] if cands else None
        wr, lead, utility = self.search.root_value()
        return Progress(
            best_move=best.move if best else PASS,
            winrate=wr,
            playouts=n,
            fraction=frac,
            candidates=cands,
            elapsed=elapsed,
            score_lead=lead,
            utility=utility,
            ownership=self.search.ownership(),
        )
