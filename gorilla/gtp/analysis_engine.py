"""KataGo's JSON analysis engine: ``gorilla analysis -model NET -config CFG``.

KataGo's command line (``-model``, ``-config``, ``-override-config K=V,...``,
``-human-model`` (accepted, not used: no human SL net), ``-analysis-threads N``,
``-quit-without-waiting``), so that a client of KataGo's analysis engine (KaTrain: its "KataGo
executable" setting) runs ``gorilla`` itself. The protocol is KataGo's
(``docs/Analysis_Engine.md``): a JSON query a line on stdin, answers a line each on stdout, in
any order. :mod:`gorilla.gtp.analysis_query` reads a query into its positions; each is
searched by the net's PUCT search (:class:`gorilla.ai.puct.search.Search`) with the query's
rules, komi and settings, by priority (highest first, then the earliest), on
``numAnalysisThreads`` threads each searching with ``numSearchThreads``.

An answer has KataGo's fields: ``id``, ``turnNumber``, ``isDuringSearch``, ``moveInfos``
(``move``, ``visits``, ``edgeVisits``, ``winrate``, ``scoreLead``, ``scoreMean`` (the lead, as
KataGo), ``scoreSelfplay``, ``scoreStdev``, ``prior``, ``utility``, ``lcb``, ``utilityLcb``,
``order``, ``pv``, ``pvVisits`` when asked, ``ownership`` with ``includeMovesOwnership``),
``rootInfo`` (``winrate``, ``scoreLead``, ``scoreSelfplay``, ``scoreStdev``, ``utility``,
``visits``, ``currentPlayer``, ``rawWinrate``, ``rawLead``, ``rawScoreSelfplayStdev``),
``ownership`` and ``policy`` (-1 on illegal points) when asked; all from the perspective of
``reportAnalysisWinratesAs``. Actions: ``query_version`` (KataGo's version that this engine
answers as, :data:`KATAGO_VERSION`, and ``gorilla``'s own), ``query_models``, ``clear_cache``,
``terminate`` (by ``terminateId``, optionally ``turnNumbers``) and ``terminate_all``. A line
that is not JSON, or a query KataGo would refuse, is answered with KataGo's error line and
the engine goes on; at the end of input it finishes the queries it holds (unless
``-quit-without-waiting``) and exits.

The thread counts of a config written for a GPU (KaTrain's: 12 x 8) are capped to this
machine's cores, said on stderr.
"""

from __future__ import annotations

import heapq
import itertools
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TextIO

import numpy as np

from gorilla import __version__
from gorilla.ai.puct.evaluator import EvalCache
from gorilla.gtp.analysis_query import Parsed, QueryError, Request, parse_query
from gorilla.gtp.kata_config import ConfigError, EngineConfig, engine_config, parse_overrides, read_config
from gorilla.rules.board import BLACK
from gorilla.rules.coords import format_vertex

KATAGO_VERSION = "1.17.2"  # the KataGo release whose analysis engine this one answers as
PRECISION = 8  # significant digits, as KataGo's roundDynamic


def _r(x: float) -> float:
    """A float as KataGo writes it: 8 significant digits."""
    return float(f"{x:.{PRECISION}g}")


# --- one search and its answers ---------------------------------------------------------------


def _flip(req: Request) -> bool:
    """Whether the answer's values are the other side's than the side to move's."""
    p = req.settings.perspective
    mover = req.game.to_move
    return (p == "BLACK" and mover != BLACK) or (p == "WHITE" and mover == BLACK)


def _ownership_list(own: np.ndarray | None, req: Request) -> list[float]:
    """Per point from A19 row by row, Black +1 turned to the answer's perspective."""
    from gorilla.ai.puct.search import board_points

    size = req.game.size
    if own is None:
        return [0.0] * (size * size)
    p = req.settings.perspective
    sign = -1.0 if p == "WHITE" or (p == "SIDETOMOVE" and req.game.to_move != BLACK) else 1.0
    return [_r(sign * float(v)) for v in own[board_points(size)]]


def _policy_list(search, req: Request) -> list[float]:
    """The root's raw policy, A19 row by row then pass, -1 where the move is illegal."""
    from gorilla.ai.puct.search import board_points

    ev = search.root.nn
    size = req.game.size
    legal = set(req.game.legal_moves())
    out = [_r(float(ev.policy[p])) if int(p) in legal else -1.0 for p in board_points(size)]
    return [*out, _r(float(ev.pass_prob))]


def move_infos(search, req: Request) -> list[dict]:
    """KataGo's moveInfos: the root's searched moves, the one it would play first (order 0)."""
    info = search.root_info(max_pv=req.pv_len + 1)
    flip = _flip(req)
    p = search.params
    hack = 0.5 / (1.0 + p.static_score + p.dynamic_score)  # KataGo's getHackedLCBForWinrate
    size = req.game.size
    out = []
    for k, move in enumerate(info.moves):
        wr, lead, util, ulcb = info.winrate[k], info.lead[k], info.utility[k], info.utility_lcb[k]
        lcb = wr - (util - ulcb) * hack
        if flip:
            wr, lead, util, ulcb, lcb = 1 - wr, -lead, -util, -ulcb, 1 - lcb
        d = {
            "move": format_vertex(move, size),
            "visits": info.visits[k],
            "edgeVisits": info.visits[k],
            "winrate": _r(wr),
            "scoreMean": _r(lead),
            "scoreLead": _r(lead),
            "scoreSelfplay": _r(lead),
            "scoreStdev": _r(info.stdev[k]),
            "prior": _r(info.prior[k]),
            "utility": _r(util),
            "lcb": _r(lcb),
            "utilityLcb": _r(ulcb),
            "order": k,
            "pv": [format_vertex(m, size) for m in info.pvs[k]],
        }
        if req.pv_visits:
            d["pvVisits"] = list(info.pv_visits[k])
        if req.moves_ownership:
            d["ownership"] = _ownership_list(search.child_ownership(move), req)
        out.append(d)
    return out


def root_info(search, req: Request) -> dict:
    """KataGo's rootInfo: the root's values over the search, and the net's own."""
    wr, lead, util = search.root_value()
    ev = search.root.nn
    raw_wr, raw_lead = ev.winrate, ev.lead
    if _flip(req):
        wr, lead, util, raw_wr, raw_lead = 1 - wr, -lead, -util, 1 - raw_wr, -raw_lead
    return {
        "winrate": _r(wr),
        "scoreLead": _r(lead),
        "scoreSelfplay": _r(lead),
        "scoreStdev": _r(ev.stdev),
        "utility": _r(util),
        "visits": int(search.root.visits),
        "currentPlayer": "B" if req.game.to_move == BLACK else "W",
        "rawWinrate": _r(raw_wr),
        "rawLead": _r(raw_lead),
        "rawScoreSelfplayStdev": _r(ev.stdev),
    }


def answer(search, req: Request, during: bool) -> dict:
    """The whole answer for a request's search so far (KataGo's getAnalysisJson)."""
    if search.root.nn is None:
        return {"id": req.id, "turnNumber": req.turn, "isDuringSearch": False, "noResults": True}
    out: dict = {"id": req.id, "turnNumber": req.turn, "isDuringSearch": during}
    out["moveInfos"] = move_infos(search, req)
    out["rootInfo"] = root_info(search, req)
    if req.policy:
        out["policy"] = _policy_list(search, req)
    if req.ownership:
        out["ownership"] = _ownership_list(search.ownership(), req)
    return out


def make_search(req: Request, net_path: str | None, seed: int, cache=None):  # -> Search
    """A fresh search for the request: its rules, PDA and history cap told the net; the
    engine's cache of evaluations (an EvalCache, or None) shared."""
    from gorilla.ai.puct.evaluator import NetEvaluator, NetInputs
    from gorilla.ai.puct.search import Search

    s = req.settings
    inputs = NetInputs(
        rules=req.rules,  # type: ignore[arg-type]
        pda=s.pda,
        pda_color=req.game.to_move,
        history_from=len(req.game.moves) if s.ignore_pre_root_history else None,
    )
    evaluator = NetEvaluator(net_path, seed=seed, inputs=inputs, symmetry=s.symmetry, cache=cache)
    search = Search(evaluator, s.params, seed=seed)
    if req.avoid:
        search.set_avoid(req.avoid)
    if req.moves_ownership:
        search.track_child_ownership()
    search.set_game(req.game)
    return search


def run_search(req: Request, search, threads: int, report: Callable[[dict], None]) -> None:
    """Search until the request's limits or its cancel; reports during it when asked."""
    every, first = req.report_every, req.first_report
    t0 = time.perf_counter()
    due = [t0 + first if first is not None else float("inf")]
    gate = threading.Lock()

    def on_round() -> None:
        now = time.perf_counter()
        if now < due[0] or not gate.acquire(blocking=False):
            return
        try:
            if now >= due[0]:
                due[0] = now + (every if every is not None else float("inf"))
                report(answer(search, req, during=True))
        finally:
            gate.release()

    s = req.settings
    search.run(visits=s.max_visits, seconds=s.max_time, cancel=req.cancel, threads=threads, on_round=on_round)


# --- the engine -----------------------------------------------------------------------------


class AnalysisEngine:
    """The queue of requests, the analysis threads and the output (module docstring)."""

    def __init__(self, cfg: EngineConfig, out: TextIO, net_path: str | None = None, threads: int = 1) -> None:
        self.cfg = cfg
        self.out = out
        self.net_path = net_path
        self.threads = threads
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._heap: list[tuple[int, int, Request]] = []
        self._seq = itertools.count()
        self._open: list[Request] = []
        self._closing = False
        self._seeds = np.random.default_rng(cfg.seed)
        self._workers: list[threading.Thread] = []
        self.gone = False  # the output's reader went away
        self.cache = EvalCache(cfg.cache_size)

    # --- output ---
    def write(self, obj: dict) -> None:
        """One answer line, whole, flushed; once the client is gone (a broken pipe) every search
        stops and nothing more is written."""
        line = json.dumps(obj, separators=(",", ":"))
        with self._write_lock:
            if self.gone:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):  # the reader closed its end
                self.gone = True
        if self.gone:
            with self._cond:
                for req in self._open:
                    req.cancel.set()

    def error(self, message: str, qid: str | None = None, field: str | None = None) -> None:
        """KataGo's error line: ``{"error"}`` or ``{"id", "field", "error"}``."""
        self.write({"error": message} if qid is None else {"id": qid, "field": field, "error": message})

    # --- the threads ---
    def start(self, n: int) -> None:
        """Start n analysis threads."""
        for k in range(n):
            t = threading.Thread(target=self._work, name=f"analysis-{k}", daemon=True)
            t.start()
            self._workers.append(t)

    def finish(self, wait: bool = True) -> None:
        """No more requests: the threads end once the queue is empty (or at once, not waiting)."""
        with self._cond:
            self._closing = True
            if not wait:
                for _, _, req in self._heap:
                    req.status = "terminated"
                self._heap.clear()
                for req in self._open:
                    req.cancel.set()
            self._cond.notify_all()
        for t in self._workers:
            t.join()

    def _next(self) -> Request | None:
        with self._cond:
            while True:
                while self._heap:
                    _, _, req = heapq.heappop(self._heap)
                    if req.status == "queued":
                        req.status = "running"
                        return req
                if self._closing:
                    return None
                self._cond.wait()

    def _work(self) -> None:
        while (req := self._next()) is not None:
            try:
                self._analyse(req)
            except Exception as e:  # a bug must not take the engine down: the client gets an error
                self.error(f"internal error: {type(e).__name__}: {e}", req.id, "id")
                print(f"gorilla analysis: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
            finally:
                with self._cond:
                    if req in self._open:
                        self._open.remove(req)

    def _analyse(self, req: Request) -> None:
        seed = int(self._seeds.integers(1 << 31))
        search = make_search(req, self.net_path, seed, self.cache)
        run_search(req, search, max(1, min(req.settings.threads, self.threads)), self.write)
        self.write(answer(search, req, during=False))

    # --- requests ---
    def submit(self, parsed: Parsed) -> None:
        """Queue a query's requests by priority (highest first, then the earliest)."""
        with self._cond:
            for req in parsed.requests:
                heapq.heappush(self._heap, (-req.priority, next(self._seq), req))
                self._open.append(req)
            self._cond.notify_all()

    def terminate(self, qid: str | None, turns: list[int] | None) -> None:
        """Stop the open requests of an id (None: all), optionally of these turns only."""
        with self._cond:
            for req in list(self._open):
                if (qid is None or req.id == qid) and (turns is None or req.turn in turns):
                    if req.status == "queued":
                        req.status = "terminated"
                        self._open.remove(req)
                        self.write(
                            {"id": req.id, "turnNumber": req.turn, "isDuringSearch": False, "noResults": True}
                        )
                    else:
                        req.cancel.set()

    # --- one line of input ---
    def handle(self, line: str) -> None:
        """Answer one input line (module docstring)."""
        line = line.strip()
        if not line:
            return
        try:
            q = json.loads(line)
        except ValueError as e:
            self.error(f"{e} - could not parse input line as json request: {line}")
            return
        if not isinstance(q, dict):
            self.error(f"Request line was valid json but was not an object, ignoring: {json.dumps(q)}")
            return
        if not isinstance(q.get("id"), str):
            self.error('Request must have a string "id" field')
            return
        if isinstance(q.get("action"), str):
            self._action(q)
            return
        try:
            parsed = parse_query(q, q["id"], self.cfg)
        except QueryError as e:
            self.error(e.message, q["id"], e.field)
            return
        for field, message in parsed.warnings:
            self.write({"id": q["id"], "field": field, "warning": message})
        self.submit(parsed)

    def _action(self, q: dict) -> None:
        action = q["action"]
        qid = q["id"]
        turns = q.get("turnNumbers")
        if turns is not None and (
            not isinstance(turns, list)
            or not all(isinstance(t, int) and not isinstance(t, bool) for t in turns)
        ):
            self.error(
                "If provided, must be an array of integers indicating turns to terminate", qid, "turnNumbers"
            )
            return
        if action == "query_version":
            self.write({**q, "version": KATAGO_VERSION, "git_hash": "<omitted>", "gorilla": __version__})
        elif action == "query_models":
            self.write({**q, "models": [self._model()]})
        elif action == "clear_cache":
            self.cache.clear()
            self.write(q)
        elif action == "terminate":
            if not isinstance(q.get("terminateId"), str):
                self.error(
                    'Requests for a terminate action must have a string "terminateId" field',
                    qid,
                    "terminateId",
                )
                return
            self.terminate(q["terminateId"], turns)
            self.write(q)
        elif action == "terminate_all":
            self.terminate(None, turns)
            self.write(q)
        else:
            self.error(
                "'action' field must be 'query_version' or 'query_models' or 'clear_cache' or 'terminate' or "
                "'terminate_all'"
            )

    def _model(self) -> dict:
        from gorilla.ai.puct.evaluator import shared_net

        net = shared_net(self.net_path)
        name = os.path.basename(str(net.path)) if net.path is not None else net.name
        version = net.model.version
        return {"name": name, "internalName": net.name, "maxBatchSize": 64, "usesHumanSLProfile": False,
                "version": version, "usingFP16": "false"}  # fmt: skip

    def serve(self, lines) -> None:
        """Answer every line of input (an iterable of str)."""
        for line in lines:
            self.handle(line)


# --- the command line -------------------------------------------------------------------------

USAGE = (
    "usage: gorilla analysis -model NET -config CFG [-override-config K=V,...] [-human-model NET] "
    "[-analysis-threads N] [-quit-without-waiting]"
)
VALUE_FLAGS = ("model", "config", "override-config", "human-model", "analysis-threads")


def parse_args(argv: list[str]) -> dict[str, str]:
    """KataGo's flags (one dash or two) as a dict; ValueError with a one-line reason."""
    out: dict[str, str] = {}
    i = 0
    while i < len(argv):
        flag = argv[i].lstrip("-")
        if not argv[i].startswith("-") or flag not in (*VALUE_FLAGS, "quit-without-waiting"):
            raise ValueError(f"unknown argument '{argv[i]}'")
        if flag == "quit-without-waiting":
            out[flag] = "1"
            i += 1
            continue
        if i + 1 >= len(argv):
            raise ValueError(f"-{flag} needs a value")
        if flag == "override-config" and flag in out:
            out[flag] += "," + argv[i + 1]
        else:
            out[flag] = argv[i + 1]
        i += 2
    if "model" not in out:
        raise ValueError("-model NET is required")
    return out


def load_config(args: dict[str, str]) -> EngineConfig:
    """The config file (if any) with the overrides, as the engine's config (ConfigError if bad)."""
    pairs = read_config(args["config"]) if "config" in args else {}
    pairs.update(parse_overrides(args.get("override-config", "")))
    if "analysis-threads" in args:
        if "numAnalysisThreads" in pairs:
            raise ConfigError(
                "numAnalysisThreads is in the config: -analysis-threads is redundant and disallowed"
            )
        pairs["numAnalysisThreads"] = args["analysis-threads"]
    return engine_config(pairs)


def capped_threads(cfg: EngineConfig, cores: int) -> tuple[int, int]:
    """(analysis threads, search threads per analysis) for this machine: the config's, capped
    so that together they do not exceed the cores (a GPU's config asks for far more)."""
    analysis = max(1, min(cfg.analysis_threads, cores))
    search = max(1, min(cfg.settings.threads, cores // analysis))
    return analysis, search


def _say(text: str) -> None:
    print(f"gorilla analysis: {text}", file=sys.stderr, flush=True)


def _prepare(args: dict[str, str]) -> tuple[EngineConfig, int, int]:
    """The config, the net loaded and the kernels compiled; what is ignored said once."""
    from gorilla.ai.puct.evaluator import shared_net
    from gorilla.ai.warmup import groups_for, stderr_progress, warm

    cfg = load_config(args)
    if cfg.ignored:
        _say("config keys not used by Gorilla (ignored): " + ", ".join(cfg.ignored))
    if "human-model" in args:
        _say("-human-model: Gorilla has no human SL model; no humanPolicy in the answers")
    analysis, search = capped_threads(cfg, os.cpu_count() or 1)
    if (analysis, search) != (cfg.analysis_threads, cfg.settings.threads):
        _say(
            f"numAnalysisThreads {cfg.analysis_threads} -> {analysis}, numSearchThreads "
            f"{cfg.settings.threads} -> {search} ({os.cpu_count()} cores)"
        )
    net = shared_net(args["model"])  # NetError: one line, the caller says it
    _say(f"net {net.name} ({args['model']})")
    groups = groups_for(["net"])
    warm(groups, stderr_progress("gorilla analysis", groups))
    cfg = replace(cfg, settings=replace(cfg.settings, threads=search))
    return cfg, analysis, search


def main(argv: list[str] | None = None) -> int:
    """``gorilla analysis ...``: KataGo's analysis engine on stdin/stdout; the exit status."""
    from gorilla.ai.net import NetError

    try:
        args = parse_args(list(sys.argv[1:] if argv is None else argv))
        cfg, analysis, search = _prepare(args)
    except (ValueError, ConfigError, NetError) as e:
        _say(f"error: {' '.join(str(e).split())}")
        print(USAGE, file=sys.stderr)
        return 2
    engine = AnalysisEngine(cfg, sys.stdout, args["model"], threads=search)
    engine.start(analysis)
    _say("Started, ready to begin handling requests")
    try:
        engine.serve(sys.stdin)
    except KeyboardInterrupt:
        engine.finish(wait=False)
        return 130
    engine.finish(wait="quit-without-waiting" not in args)
    return 0
