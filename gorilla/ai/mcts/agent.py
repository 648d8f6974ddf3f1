"""MCTSAgent: UCT with RAVE, priors, heavy playouts, tree reuse, time control and threads.

The tree and the descend-playout-backup loop live in numba kernels
(:mod:`gorilla.ai.mcts.tree`, :mod:`gorilla.ai.playout.heavy`,
:mod:`gorilla.ai.mcts.priors`). This class only orchestrates: it prepares
the root (legal moves under positional superko from the game), keeps the
subtree of the moves played since the last search, starts ``threads``
worker threads that run the nogil kernel in chunks on the shared arrays
(a playout limit is handed out chunk by chunk: ``playouts=N`` runs exactly N
playouts with any number of threads under any load, unless a time budget given
too, a cancel or ``close`` ends it sooner; only a time budget stops early when
the runner-up cannot catch up), watches the clock and the cancel event, reports progress
every ``PROGRESS_EVERY`` seconds, and finally picks the most visited move,
resigns, or passes when passing wins. With the shipped move model
(:mod:`gorilla.ai.policy`) new nodes take its probabilities as priors and open
their children most likely first (``policy=0`` searches without it);
``playout=softmax`` plays softmax playouts over the model's cheap features
(:mod:`gorilla.ai.playout.softmax`) instead of the heavy ones.
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np

from gorilla.ai.agent import Agent, Budget, Candidate, MoveRequest, Progress
from gorilla.ai.mcts import tree as T
from gorilla.ai.mcts.clock import Clock
from gorilla.ai.mcts.priors import prior_weights
from gorilla.ai.playout.pat3 import PAT3
from gorilla.ai.playout.pattern import new_workspace
from gorilla.ai.playout.softmax import new_workspace as softmax_workspace
from gorilla.ai.playout.softmax import settings as softmax_settings
from gorilla.ai.playout.softmax import strengths
from gorilla.ai.policy.features import NGROUPS
from gorilla.ai.policy.model import DEFAULT_MODEL, load_model, shipped_model
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, NROWS, NSLOTS, PASS, RESIGN, WHITE
from gorilla.rules.game import Game

PROGRESS_EVERY = 0.2
POLL = 0.005
DEFAULT_SECONDS = 1.0
# A search stops on time only after this many playouts: fewer mean nothing (a budget eaten
# by compiling, or by a loaded machine, must not play the first candidate unsearched). Only a
# cancel or the playout limit stops it sooner.
MIN_PLAYOUTS = 64
# the move model's weight and widening scale when none is given and the model is shipped:
# virtual wins POLICY * sqrt(probability); 2 + log_1.4(1 + visits / WIDEN) children open.
# Tuned by 9x9 matches against the search without the model
# (benchmarks/RESULTS.md#progressive-widenings-scale-default_widen-20-before-now-5): at
# 1 s a move WIDEN 5 won 202 of 300 (139 of the first 200), 20 won 133 of 200; at 0.5 s 5
# won 64 of 100, 20 won 59 of 100, and 60 won only 17 of 40 against 20: wider is better,
# if only by a few points.
DEFAULT_POLICY = 40.0
DEFAULT_WIDEN = 5.0
# The weight grows with the board: DEFAULT_POLICY up to 9x9, POLICY_19 from 19x19 on, in
# proportion to the side between. On 9x9, 80 against 40 won 21 of 40 (0.5 s a move: no
# difference); on 19x19, 80 against 40 won 24 of 40 (1 s a move): with 361 candidates each
# gets fewer playouts, so the model's word counts for more before they speak.
POLICY_19 = 80.0
PLAYOUTS = ("heavy", "light", "softmax")  # the playout setting's values


def default_policy(size: int) -> float:
    """The move model's default weight on a size x size board (see POLICY_19)."""
    t = min(1.0, max(0.0, (size - 9) / 10))
    return DEFAULT_POLICY + t * (POLICY_19 - DEFAULT_POLICY)


def _expand_threshold(size: int) -> int:
    return max(2, size * size // 45)


class MCTSAgent(Agent):
    """A UCT-RAVE Monte-Carlo tree search engine (michi / Pachi / Fuego style)."""

    name = "mcts"

    def __init__(
        self,
        playouts: int | None = None,
        time: float | None = None,
        threads: int = 1,
        heavy: bool = True,
        resign: float = 0.1,
        seed: int | None = None,
        *,
        max_nodes: int = 2_000_000,
        expand: int | None = None,
        rave_equiv: float = 3500.0,
        c_uct: float = 0.0,
        fpu: float = 1.1,
        reuse: bool = True,
        dynkomi: bool = True,
        chunk: int = 64,
        resign_playouts: int = 1000,
        early_stop: bool = True,
        patterns: str | None = None,
        policy: float | None = None,
        widen: float | None = None,
        model: str | None = None,
        playout: str | None = None,
        sm_beta: float = 1.0,
        sm_dist: float = 1.0,
        sm_tactics: float = 0.0,
        score_share: float = 0.0,
        ladders: bool = False,
        **prior_settings: float,
    ) -> None:
        if playouts is not None and playouts <= 0:
            raise ValueError("playouts must be positive")
        if time is not None and time <= 0:
            raise ValueError("time must be positive")
        if not 1 <= int(threads) <= T.MAX_THREADS:
            raise ValueError(f"threads must be 1..{T.MAX_THREADS}")
        if not 0.0 <= resign < 0.5:
            raise ValueError("resign must be in [0, 0.5)")
        self.playouts = playouts
        self.time = time
        self.threads = int(threads)
        if playout not in (None, *PLAYOUTS):
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}")
        self.heavy = bool(heavy) and playout != "light"
        # softmax playouts (gorilla.ai.playout.softmax): the model's gammas at inverse temperature
        # sm_beta, its distance factors to the power sm_dist, the heavy tactics' share sm_tactics
        self.softmax = playout == "softmax"
        self._softmax = _softmax_arrays(model, sm_beta, sm_dist, sm_tactics) if self.softmax else None
        self.resign = float(resign)
        self.seed = seed
        self.max_nodes = int(max_nodes)
        self.expand = expand
        self.rave_equiv = float(rave_equiv)
        self.c_uct = float(c_uct)
        self.fpu = float(fpu)
        self.reuse = bool(reuse)
        self.dynkomi = bool(dynkomi)
        self.chunk = int(chunk)
        self.resign_playouts = int(resign_playouts)
        self.early_stop = bool(early_stop)  # stop once the runner-up cannot catch up in the time left
        # playouts from a GNU Go style pattern database (a shipped name or a file) instead of heavy/light
        self.patterns = patterns
        self._ptables = _pattern_tables(patterns)
        # the move model (gorilla.ai.policy): virtual wins policy * sqrt(p), progressive widening
        # (on by default when the model is shipped; policy=0 searches without it)
        self._policy_by_size = policy is None  # the weight then comes from policy_weight(size)
        if policy is None:
            policy = DEFAULT_POLICY if model or DEFAULT_MODEL.is_file() else 0.0
        if widen is None:
            widen = DEFAULT_WIDEN if policy > 0 else 0.0
        if policy < 0 or widen < 0:
            raise ValueError("policy and widen must be >= 0")
        self.policy = float(policy)
        self.widen = float(widen)
        self._pol = _policy_arrays(model) if self.policy > 0 else _NO_POLICY
        # the score margin's share of a playout's value (tree.P_SCORE_SHARE): prefer bigger wins
        if not 0.0 <= score_share < 1.0:
            raise ValueError("score_share must be in [0, 1)")
        self.score_share = float(score_share)
        # heavy playouts read the ladder of an escape to two liberties (tree.P_LADDERS)
        self.ladders = bool(ladders)
        self.clock = Clock()
        self.prior = prior_weights(prior_settings)  # prior_NAME=V settings replace PRIOR's weights
        self.last_candidates: list[Candidate] = []
        self.last_playouts = 0
        self.last_winrate = 0.5
        self.last_elapsed = 0.0
        self._moves_made = 0
        self._dyn_adjust = 0.0
        self._bufs: list[tuple] = []  # [(fs, mv, kids, vl, flags)], the second one for compaction
        self._cur = 0
        self._src_of: np.ndarray | None = None
        self._key: tuple | None = None
        self._hist: list[tuple[int, int]] = []
        self._root_color = BLACK
        self._scratch: dict[tuple[int, int], tuple] = {}
        self.ctl = np.zeros(T.NCTL, dtype=np.int64)

    def policy_weight(self, size: int) -> float:
        """The move model's weight on a size x size board: the ``policy`` setting, or when
        none was given the default for that size (0 without a model)."""
        if not self._policy_by_size or self.policy == 0:
            return self.policy
        return default_policy(size)

    # --- agent interface ---------------------------------------------------
    def new_game(self) -> None:
        """Forget the tree kept for reuse and the dynamic komi."""
        self._key = None
        self._hist = []
        self._dyn_adjust = 0.0
        self._moves_made = 0

    def set_time(self, main_time: float, byo_yomi_time: float, byo_yomi_stones: int) -> None:
        """GTP time_settings: the clock plans each move's time from now on (see Clock)."""
        self.clock.set_time(main_time, byo_yomi_time, byo_yomi_stones)

    def time_left(self, color: int, seconds: float, stones: int) -> None:
        """GTP time_left: correct the clock."""
        self.clock.time_left(seconds, stones)

    def close(self) -> None:
        """Stop any search and free the tree and the scratch arrays."""
        self.ctl[T.C_STOP] = 1
        self._bufs = []
        self._scratch = {}
        self._key = None

    def choose(self, req: MoveRequest) -> int:
        """The most visited move after a search; PASS when passing wins or nothing is left, or RESIGN."""
        t0 = time.perf_counter()
        move = self._select(req, t0)
        if req.default_budget:
            self.clock.spent(time.perf_counter() - t0)
        self._moves_made += 1
        return move

    def analyze(self, game: Game, *limits, **named) -> list[Candidate]:
        """Search like select_move (same arguments) and return the root candidates, most visited first."""
        self._search(MoveRequest(game, *limits, **named), time.perf_counter())
        return list(self.last_candidates)

    # --- the move decision ---------------------------------------------------
    def _select(self, req: MoveRequest, t0: float) -> int:
        game = req.game
        if game.over:
            return PASS
        color = game.to_move
        legal = game.legal_moves(reasonable=True)
        if not legal:
            return PASS
        last = game.moves[-1].point if game.moves else None
        stones = game.ruleset.scoring == "stones"
        owner = None if stones else _area_owner(game)
        margin = game.score().margin if owner is None else _margin(owner, game.komi)  # Black's, komi in
        ahead = (margin > 0) == (color == BLACK) and margin != 0
        if ahead and last == PASS:
            self.last_candidates = []
            return PASS  # the opponent passed and we win the count as it stands
        best, wr = self._search(req, t0)
        if best is None:
            return PASS
        # settled (every empty region touches one colour only): a move in our own area gains
        # nothing (a stone counts in Little-Go), and when we win the count as it stands and the
        # search agrees (a dead group of ours would show in its playouts), any other move could
        # only lose points
        settled = best != PASS and owner is not None and _settled(owner, game.size)
        if settled and (owner[best] == color or (ahead and wr > 0.5)):
            best = PASS
        if (
            self.resign > 0
            and wr < self.resign
            and self.last_playouts >= self.resign_playouts
            and game.move_number + len(game.setup) >= game.size * game.size // 8
        ):
            return RESIGN
        return best

    def _limits(self, game: Game, budget: Budget) -> tuple[int, float | None, float | None]:
        """(playout limit or 0, target seconds, hard limit seconds)."""
        playouts = budget.playouts or None
        seconds = budget.seconds or None
        if playouts is None and seconds is None:
            playouts, seconds = self.playouts, self.time
        if playouts is None and seconds is None:
            pos = game.position
            plan = self.clock.plan(int(pos.st[K.S_NEMPTY]), game.size * game.size)
            if plan is not None:
                return 0, plan.target, plan.limit
            seconds = DEFAULT_SECONDS
        return int(playouts or 0), seconds, seconds

    def _search(self, req: MoveRequest, t0: float) -> tuple[int | None, float]:
        """Search req.game's position; returns (most visited move or None, its win rate)."""
        game, cancel, progress = req.game, req.cancel, req.progress
        limit, target, hard = self._limits(game, req.budget)
        color = game.to_move
        pos = game.position
        size = game.size
        rb = pos.b.copy()
        rst = pos.st.copy()
        legal = game.legal_moves(reasonable=True)
        params = self._params(game)
        ptable, pcidx = self._ptables
        self._prepare_tree(game, legal, rb, rst, params)
        fs, mv, kids, vl, flags = self._bufs[self._cur]
        ctl = self.ctl
        tree = (fs, mv, kids, vl, flags, ctl)  # the kernels' argument tuples (gorilla.ai.mcts.tree)
        pos = (rb, rst, K.ZOBRIST)
        tables = (params, PAT3, self.prior)
        ctl[T.C_STOP] = 0
        ctl[T.C_DONE : T.C_DONE + T.MAX_THREADS] = 0
        # split the free part of the arrays between the threads
        start, end = int(ctl[T.C_POOL]), len(mv)
        k = self.threads
        step = (end - start) // k
        for t in range(k):
            ctl[T.C_POOL + 2 * t] = start + t * step
            ctl[T.C_POOL + 2 * t + 1] = end if t == k - 1 else start + (t + 1) * step
        seed0 = self.seed if self.seed is not None else int.from_bytes(os.urandom(4), "little")
        seed0 = (seed0 * 1000003 + self._moves_made * 7919 + game.move_number) & 0x7FFFFFFF
        errors: list[BaseException] = []

        if params[T.P_HEAVY] == T.PATTERN_PLAYOUT:
            run_search = T.search_patterns
        elif self.softmax:
            run_search = T.search_softmax
        elif self.ladders and self.heavy:
            run_search = T.search_ladders
        else:
            run_search = T.search_policy if self.policy > 0 else T.search  # each compiles what it uses

        # a playout limit is handed out in chunks under a lock: the threads run exactly `limit`
        # playouts between them however the machine schedules them (smaller chunks near the
        # end, so that no thread waits long for another's last chunk)
        claims = threading.Lock()
        left = [limit]

        def claim() -> int:
            if not limit:
                return self.chunk
            with claims:
                n = min(self.chunk, max(1, left[0] // (2 * k)), left[0])
                left[0] -= n
                return n

        def work(tid: int) -> None:
            try:
                K.seed_rng(seed0 + tid)
                b, st, path, seq, amaf, cand, buf, pws, psc = self._scratch_for(tid, size)
                while ctl[T.C_STOP] == 0:
                    n = claim()
                    if n <= 0:
                        break
                    work = (b, st, path, seq, amaf, cand, buf)
                    ran = run_search(
                        tree, tid, 0, pos, tables, work, n, (ptable, pcidx, pws), (self._pol, psc)
                    )
                    if ran < n:  # stopped
                        break
            except BaseException as e:  # noqa: BLE001 - reported to the caller below
                errors.append(e)

        workers = [threading.Thread(target=work, args=(t,), daemon=True) for t in range(k)]
        for w in workers:
            w.start()
        next_progress = t0 + PROGRESS_EVERY
        next_check = t0 + 0.05
        try:
            while any(w.is_alive() for w in workers):
                now = time.perf_counter()
                el = now - t0
                if cancel is not None and cancel.is_set():
                    break
                if self._done() >= MIN_PLAYOUTS:
                    if hard is not None and el >= hard:
                        break
                    if target is not None and el >= target and not self._unstable(el, hard):
                        break
                if now >= next_check:
                    next_check = now + 0.05
                    if self.early_stop and self._decided(el, target):
                        break
                if progress is not None and now >= next_progress:
                    next_progress = now + PROGRESS_EVERY
                    progress(self._progress(size, limit, target, el))
                if cancel is not None:
                    cancel.wait(POLL)
                else:
                    time.sleep(POLL)
        finally:
            ctl[T.C_STOP] = 1
            for w in workers:
                w.join()
        if errors:
            raise errors[0]
        el = time.perf_counter() - t0
        self.last_elapsed = el
        self.last_playouts = self._done()
        self.last_candidates = self._candidates(size)
        best = self._best()
        if best is None:
            return None, 0.5
        wr = float(fs[T.F_WIN, best] / fs[T.F_VIS, best]) if fs[T.F_VIS, best] > 0 else 0.5
        self.last_winrate = wr
        self._update_dyn_komi(game, color, wr)
        if progress is not None:
            progress(self._progress(size, limit, target, el, final=True))
        return int(mv[best]), wr

    # --- compiling ahead (gorilla.ai.warmup) ----------------------------------------------
    def prepare(self, game: Game) -> None:
        """Prepare the root for game's position without searching it (its children, with the
        move model's priors when it is on): compiles the expansion kernels, which the search
        kernels call, so that another process can compile them ahead of the search."""
        pos = game.position
        self._prepare_tree(
            game, game.legal_moves(reasonable=True), pos.b.copy(), pos.st.copy(), self._params(game)
        )

    def playout_once(self, game: Game) -> int:
        """One playout of the default kind (heavy or light, not reading ladders) from game's position,
        called from Python with the argument types the search kernels give it: compiles the
        playout kernels, which the search kernels then load from numba's cache. Returns the
        playout's length in moves."""
        pos = game.position
        params = self._params(game)
        b, st, _, seq, _, cand, _, _, _ = self._scratch_for(0, game.size)
        K.copy_board(pos.b, pos.st, b, st)
        args = T._default_args(b, st, params, PAT3, cand)
        return int(T._default_playout(b, st, K.ZOBRIST, int(params[T.P_MAXMOVES]), seq, *args))

    def _params(self, game: Game) -> np.ndarray:
        """The search kernels' settings (tree.P_*) for a search of game's position."""
        size = game.size
        color = game.to_move
        params = np.zeros(T.NPARAMS, dtype=np.float64)
        params[T.P_RAVE_EQUIV] = self.rave_equiv
        params[T.P_CUCT] = self.c_uct
        params[T.P_FPU] = self.fpu
        params[T.P_EXPAND] = self.expand or _expand_threshold(size)
        params[T.P_REAL_KOMI] = game.komi
        params[T.P_KOMI] = game.komi + self._dyn_komi(game, color)
        params[T.P_HEAVY] = 1.0 if self.heavy else 0.0
        if self.patterns is not None:
            params[T.P_HEAVY] = T.PATTERN_PLAYOUT
        params[T.P_MAXMOVES] = 3 * size * size
        params[T.P_STONES] = 1.0 if game.ruleset.scoring == "stones" else 0.0
        params[T.P_POLICY] = self.policy_weight(size)
        params[T.P_WIDEN] = self.widen if self.policy > 0 else 0.0
        params[T.P_SCORE_SHARE] = self.score_share
        params[T.P_LADDERS] = 1.0 if self.ladders else 0.0
        cap_left = game.moves_left
        params[T.P_LEFT] = -1.0 if cap_left is None else float(cap_left)
        return params

    # --- tree preparation and reuse ------------------------------------------
    def _alloc(self) -> tuple:
        m = self.max_nodes
        return (
            np.zeros((T.NF, m), dtype=np.float32),
            np.zeros(m, dtype=np.int32),
            np.full(m, T.UNEXPANDED, dtype=np.int64),
            np.zeros(m, dtype=np.int32),
            np.zeros(m, dtype=np.int8),
        )

    def _scratch_for(self, tid: int, size: int) -> tuple:
        key = (tid, size)
        s = self._scratch.get(key)
        if s is None:
            w = size + 2
            cand = np.zeros(64, dtype=np.int64)
            pws = new_workspace() if self.patterns is not None else _NO_WORKSPACE
            if self._softmax is not None:
                pws = (*self._softmax, *softmax_workspace(), cand)
            s = (
                np.zeros((NROWS, w * w), dtype=np.int32),
                np.zeros(NSLOTS, dtype=np.int64),
                np.zeros(1024, dtype=np.int32),
                np.zeros(3 * size * size + 16, dtype=np.int32),
                np.zeros(w * w, dtype=np.int8),
                cand,
                np.zeros(w * w, dtype=np.int64),
                pws,
                _policy_scratch(w),
            )
            self._scratch[key] = s
        return s

    def _prepare_tree(
        self, game: Game, legal: list[int], rb: np.ndarray, rst: np.ndarray, params: np.ndarray
    ) -> None:
        if not self._bufs:
            self._bufs = [self._alloc()]
            self._cur = 0
        key = (
            game.size,
            game.komi,
            game.ruleset.name,
            tuple(sorted(game.setup.items())),
            game.positions[0].hash,
        )
        hist = [(m.color, m.point) for m in game.moves]
        root = self._reusable_root(key, hist) if self.reuse else None
        fs, mv, kids, vl, flags = self._bufs[self._cur]
        if root is None:
            last = game.moves[-1].point if game.moves else PASS
            T.init_root((fs, mv, kids, vl, flags, self.ctl), max(last, PASS))
        else:
            if len(self._bufs) == 1:
                self._bufs.append(self._alloc())
                self._src_of = np.zeros(self.max_nodes, dtype=np.int32)
            other = 1 - self._cur
            used = T.compact(self._bufs[self._cur], root, self._bufs[other], self._src_of)
            self._cur = other
            self.ctl[T.C_POOL] = used
            self.ctl[T.C_POOL + 1] = self.max_nodes
            fs, mv, kids, vl, flags = self._bufs[self._cur]
        self._key = key
        self._hist = hist
        self._root_color = game.to_move
        vl[0] = 0
        k = int(kids[0])
        if k < 0:
            moves = np.array(legal, dtype=np.int64)

            def expand_root() -> bool:
                expand = T.expand_moves if self.policy > 0 else T.expand_moves_plain
                tree = (fs, mv, kids, vl, flags, self.ctl)
                tables = (params, PAT3, self.prior)
                model = (self._pol, self._scratch_for(0, game.size)[-1])
                return expand(tree, 0, 0, rb, rst, K.ZOBRIST, moves, len(moves), tables, model)

            if not expand_root():  # the arrays are full: start again from an empty tree
                T.init_root((fs, mv, kids, vl, flags, self.ctl), int(mv[0]))
                expand_root()
        else:
            # positional superko (and the game's own legality) decides at the root
            ok_moves = set(legal)
            ok_moves.add(PASS)
            first, cnt = k >> T.SHIFT, k & T.MASK
            for j in range(first, first + cnt):
                flags[j] = 0 if int(mv[j]) in ok_moves else 1

    def _reusable_root(self, key: tuple, hist: list[tuple[int, int]]) -> int | None:
        if self._key != key or len(hist) < len(self._hist) or hist[: len(self._hist)] != self._hist:
            return None
        fs, mv, kids, vl, flags = self._bufs[self._cur]
        node = 0
        color = self._root_color
        for c, p in hist[len(self._hist) :]:
            if c != color or p == RESIGN:
                return None
            node = self._child(kids, mv, node, p)
            if node is None:
                return None
            color = 3 - color
        return node

    @staticmethod
    def _child(kids: np.ndarray, mv: np.ndarray, node: int, move: int) -> int | None:
        k = int(kids[node])
        if k < 0:
            return None
        first, cnt = k >> T.SHIFT, k & T.MASK
        hits = np.flatnonzero(mv[first : first + cnt] == move)
        return int(first + hits[0]) if len(hits) else None

    def _root_child(self, move: int) -> int | None:
        fs, mv, kids, vl, flags = self._bufs[self._cur]
        return self._child(kids, mv, 0, move)

    # --- reading the tree -----------------------------------------------------
    def _children(self) -> np.ndarray:
        fs, mv, kids, vl, flags = self._bufs[self._cur]
        k = int(kids[0])
        if k < 0:
            return np.zeros(0, dtype=np.int64)
        first, cnt = k >> T.SHIFT, k & T.MASK
        idx = np.arange(first, first + cnt)
        return idx[flags[idx] == 0]

    def _best(self) -> int | None:
        fs = self._bufs[self._cur][0]
        idx = self._children()
        if len(idx) == 0:
            return None
        vis = fs[T.F_VIS, idx]
        wr = np.where(vis > 0, fs[T.F_WIN, idx] / np.maximum(vis, 1), 0.0)
        order = np.lexsort((-wr, -vis))
        return int(idx[order[0]])

    def _top_two(self) -> tuple[float, float, float, float]:
        """(visits, winrate) of the most visited and the runner-up."""
        fs = self._bufs[self._cur][0]
        idx = self._children()
        if len(idx) < 2:
            return 1e9, 0.5, 0.0, 0.5
        vis = fs[T.F_VIS, idx]
        o = np.argsort(-vis)[:2]
        a, b = idx[o[0]], idx[o[1]]
        wa = fs[T.F_WIN, a] / max(1.0, fs[T.F_VIS, a])
        wb = fs[T.F_WIN, b] / max(1.0, fs[T.F_VIS, b])
        return float(fs[T.F_VIS, a]), float(wa), float(fs[T.F_VIS, b]), float(wb)

    def _done(self) -> int:
        """Playouts of the current search so far, every thread's."""
        return int(self.ctl[T.C_DONE : T.C_DONE + T.MAX_THREADS].sum())

    def _decided(self, el: float, target: float | None) -> bool:
        """Stop early when the runner-up cannot catch the best move in the time left. Only a
        time budget stops early: a playout limit is run in full, so that it means the same
        work on any machine under any load."""
        done = self._done()
        if done < 200 or target is None:
            return False
        rate = done / max(el, 1e-3)
        remaining = rate * max(0.0, target - el)
        va, _, vb, _ = self._top_two()
        return va - vb > remaining * 1.2

    def _unstable(self, el: float, hard: float | None) -> bool:
        """At the target time: keep thinking (up to the hard limit) if the top two disagree."""
        if hard is None or el >= hard:
            return False
        va, wa, vb, wb = self._top_two()
        return vb > 0.5 * va and wb > wa

    def _pv(self, node: int, depth: int = 12) -> list[int]:
        fs, mv, kids, vl, flags = self._bufs[self._cur]
        out = [int(mv[node])]
        while len(out) < depth:
            k = int(kids[node])
            if k < 0:
                break
            first, cnt = k >> T.SHIFT, k & T.MASK
            vis = fs[T.F_VIS, first : first + cnt]
            j = int(np.argmax(vis))
            if vis[j] <= 0:
                break
            node = first + j
            out.append(int(mv[node]))
        return out

    def _candidates(self, size: int, top: int = 0) -> list[Candidate]:
        fs, mv, kids, vl, flags = self._bufs[self._cur]
        idx = self._children()
        vis = fs[T.F_VIS, idx]
        order = np.argsort(-vis, kind="stable")
        out = []
        for i in order:
            j = int(idx[i])
            v = float(fs[T.F_VIS, j])
            if v <= 0:
                continue
            out.append(
                Candidate(
                    move=int(mv[j]),
                    visits=int(v),
                    winrate=float(fs[T.F_WIN, j]) / v,
                    score=float(fs[T.F_SCORE, j]) / v,
                    prior=self._prior_of(fs, j),
                    pv=self._pv(j),
                )
            )
            if top and len(out) >= top:
                break
        return out

    def _prior_of(self, fs: np.ndarray, j: int) -> float:
        """The move model's probability of child j, or without it the win rate of its priors."""
        if self.policy > 0:
            return float(fs[T.F_PROB, j])
        pv = float(fs[T.F_PV, j])
        return float(fs[T.F_PW, j]) / pv if pv > 0 else 0.0

    def _progress(
        self, size: int, limit: int, target: float | None, el: float, final: bool = False
    ) -> Progress:
        cands = self._candidates(size, top=10)
        done = self._done()
        frac = 1.0 if final else 0.0
        if not final:
            if limit:
                frac = max(frac, done / limit)
            if target:
                frac = max(frac, el / target)
        best = cands[0].move if cands else PASS
        wr = cands[0].winrate if cands else 0.5
        return Progress(best, wr, done, min(1.0, frac), cands, el)

    # --- dynamic komi -------------------------------------------------------------
    def _dyn_komi(self, game: Game, color: int) -> float:
        """Extra komi Black must beat in the search (handicap games, Black's side only)."""
        if not self.dynkomi or game.handicap <= 0 or color != BLACK:
            return 0.0
        horizon = 0.5 * game.size * game.size
        linear = 7.0 * game.handicap * max(0.0, 1.0 - game.move_number / horizon)
        return max(0.0, linear + self._dyn_adjust)

    def _update_dyn_komi(self, game: Game, color: int, wr: float) -> None:
        if not self.dynkomi or game.handicap <= 0 or color != BLACK:
            return
        if wr > 0.8:
            self._dyn_adjust += 1.0
        elif wr < 0.55:
            self._dyn_adjust -= 1.0


# --- pattern playouts -----------------------------------------------------------------
# placeholders with the kernel's array types for searches without a pattern database
_NO_TABLE = np.zeros((1, 256), dtype=np.uint32)
_NO_CIDX = np.zeros((2, 1), dtype=np.int32)
_NO_WORKSPACE = np.zeros((1, 1), dtype=np.int64)
for _a in (_NO_TABLE, _NO_CIDX):
    _a.setflags(write=False)


_NO_POLICY = (
    np.full(1 << 20, -1, dtype=np.int32),
    np.zeros(0, dtype=np.int64),
    np.zeros(NGROUPS + 1, dtype=np.int64),
    np.zeros(1, dtype=np.float32),
)


def _policy_arrays(model: str | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(3x3 index, diamond keys, offsets, log-gammas) of the move model (the shipped one by
    default); ModelError (a ValueError) for a bad file."""
    m = load_model(model) if model else shipped_model()
    return m.pidx, m.dkeys, m.offs, m.loggamma


def _softmax_arrays(
    model: str | None, beta: float, dist: float, tactics: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(3x3 index, offsets, gammas, settings) of softmax playouts with the move model (the
    shipped one by default); ModelError (a ValueError) for a bad file."""
    if beta < 0 or dist < 0 or not 0.0 <= tactics <= 1.0:
        raise ValueError("sm_beta and sm_dist must be >= 0, sm_tactics in [0, 1]")
    m = load_model(model) if model else shipped_model()
    return m.pidx, m.offs, strengths(m.loggamma, m.offs, beta, dist), softmax_settings(tactics)


def _policy_scratch(w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-thread buffers of the move model: candidates, their features and probabilities, a
    probability per point."""
    return (
        np.zeros(K.MAX_POINTS + 1, dtype=np.int64),
        np.zeros((K.MAX_POINTS + 1, NGROUPS), dtype=np.int32),
        np.zeros(K.MAX_POINTS + 1, dtype=np.float64),
        np.zeros(w * w, dtype=np.float64),
    )


def _pattern_tables(patterns: str | None) -> tuple[np.ndarray, np.ndarray]:
    """(table, cidx) of a pattern database name or file; PatternError (a ValueError) if bad."""
    if patterns is None:
        return _NO_TABLE, _NO_CIDX
    from gorilla.ai.playout.catalog import resolve

    cp = resolve(str(patterns))
    return cp.table, cp.cidx


def _area_owner(game: Game) -> np.ndarray:
    """Each point's owner by area on the board as it stands (every stone alive; EMPTY for
    dame and for empty regions touching both colours)."""
    pos = game.position
    return K.area_owner(pos.b, pos.st, np.zeros(pos.b.shape[1], dtype=np.int8))


def _margin(owner: np.ndarray, komi: float) -> float:
    """Black's area margin with komi from an area_owner array."""
    return float(np.count_nonzero(owner == BLACK) - np.count_nonzero(owner == WHITE)) - komi


def _settled(owner: np.ndarray, size: int) -> bool:
    """Whether every empty region touches one colour only: no dame, no stones left to capture."""
    inner = owner.reshape(size + 2, size + 2)[1:-1, 1:-1]
    return not bool(np.any(inner == K.EMPTY))


__all__ = ["MCTSAgent"]
