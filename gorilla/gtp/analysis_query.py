"""One line of KataGo's JSON analysis protocol read into the positions it asks for.

:func:`parse_query` checks a query's fields in KataGo's order (``cpp/command/analysis.cpp``)
and answers a bad one with KataGo's error (``{"id", "field", "error"}``, :class:`QueryError`);
what it accepts with a remark gives a warning of KataGo's form (``{"id", "field",
"warning"}``): a setting or field Gorilla does not use, rules the net cannot be told exactly.
The result is one :class:`Request` per turn to analyse.

The moves are replayed as KataGo replays them, tolerantly: a ko or superko violation on the
record is played anyway (KataGo also tolerates a multi-stone suicide; Gorilla refuses one
under rules without suicide), either player may move at any time, play goes on after two
passes. Boards are square (KataGo's other shapes are refused) of 2x2 to 19x19.
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass, field, replace

from gorilla.gtp.kata_config import ConfigError, EngineConfig, Settings, apply_settings
from gorilla.gtp.kata_rules import WHB, RulesError, parse_rules
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.position import IllegalMove

MAX_LEN = 19  # KataGo's Board::MAX_LEN as built
PRIORITY_LIMIT = 0x3FFF_FFFF_FFFF_FFFF
MOVES_FORM = 'Must be an array of pairs of the form: ["b" or "w", GTP board vertex]'
RULES_FORM = (
    'Must specify rules string, such as "chinese" or "tromp-taylor", or a JSON object with detailed '
    "rules parameters."
)
AVOID_FORM = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'"
# the fields KataGo expects in a query; any other is warned about (unless the client's own: _kt_...)
EXPECTED = {
    "id", "action", "terminateId", "turnNumbers", "boardXSize", "boardYSize", "initialStones", "moves",
    "initialPlayer", "analyzeTurns", "priorities", "rules", "komi", "whiteHandicapBonus",
    "overrideSettings", "maxVisits", "analysisPVLen", "rootFpuReductionMax", "rootPolicyTemperature",
    "includeMovesOwnership", "includeMovesOwnershipStdev", "includeOwnership", "includeOwnershipStdev",
    "includePolicy", "includePVVisits", "includeNoResultValue", "reportDuringSearchEvery",
    "firstReportDuringSearchAfter", "priority", "allowMoves", "avoidMoves",
}  # fmt: skip
UNUSED_FIELD = (
    "Unexpected or unused field, do you have a typo? (set warnUnusedFields=false in the config to disable "
    "this warning)"
)
NOT_SUPPORTED = (
    "rootPolicyTemperature",
    "includeOwnershipStdev",
    "includeMovesOwnershipStdev",
    "includeNoResultValue",
)


class QueryError(Exception):
    """A field KataGo would refuse: the query is dropped with ``{"id", "field", "error"}``."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


@dataclass
class Request:
    """One position of a query, to be searched (the queue's item)."""

    id: str
    turn: int
    priority: int
    game: Game
    rules: object  # gorilla.ai.net.inputs.NetRules
    settings: Settings
    pv_len: int
    ownership: bool = False
    moves_ownership: bool = False
    policy: bool = False
    pv_visits: bool = False
    report_every: float | None = None
    first_report: float | None = None
    avoid: dict[int, dict[int, int]] = field(default_factory=dict)
    status: str = "queued"  # queued, running, terminated (a terminate before its search began)
    cancel: threading.Event = field(default_factory=threading.Event)


@dataclass
class Parsed:
    """What a query gave: its requests and the warnings to send first."""

    requests: list[Request]
    warnings: list[tuple[str, str]]  # (field, message)


# --- KataGo's field parsers ----------------------------------------------------------------


def _int(q: dict, key: str, low: int, high: int, message: str) -> int:
    v = q[key]
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise QueryError(key, message)
    return v


def _float(q: dict, key: str, low: float, high: float, message: str) -> float:
    v = q[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not low <= v <= high:
        raise QueryError(key, message)
    return float(v)


def _flag(q: dict, key: str) -> bool:
    if not isinstance(q[key], bool):
        raise QueryError(key, "Must be a boolean")
    return q[key]


def _player(value: object, key: str) -> int:
    if isinstance(value, str) and value.strip().lower() in ("b", "black"):
        return BLACK
    if isinstance(value, str) and value.strip().lower() in ("w", "white"):
        return WHITE
    raise QueryError(key, 'Must be "b" or "w"')


def parse_location(text: str, size: int) -> int | None:
    """A GTP vertex, ``pass`` or KataGo's ``(x,y)`` (x from the left, y from the top) as a flat
    point; None for anything else."""
    t = text.strip()
    if t.startswith("(") and t.endswith(")"):
        try:
            x, y = (int(v) for v in t[1:-1].split(","))
        except ValueError:
            return None
        return (y + 1) * (size + 2) + x + 1 if 0 <= x < size and 0 <= y < size else None
    try:
        p = parse_vertex(t, size)
    except ValueError:
        return None
    return None if p == RESIGN else p


def _moves(q: dict, key: str, size: int, allow_pass: bool) -> list[tuple[int, int]]:
    """[colour, point] pairs of a moves-like field."""
    if not isinstance(q[key], list):
        raise QueryError(key, MOVES_FORM)
    out = []
    for elt in q[key]:
        if not isinstance(elt, list) or len(elt) != 2 or not all(isinstance(x, str) for x in elt):
            raise QueryError(key, MOVES_FORM)
        try:
            color = _player(elt[0], key)
        except QueryError:
            raise QueryError(key, f"Could not parse player: {elt[0]}") from None
        p = parse_location(elt[1], size)
        if p is None or (p == PASS and not allow_pass):
            raise QueryError(key, f"Could not parse board location: {elt[1]}")
        out.append((color, p))
    return out


def _locations(value: object, key: str, size: int) -> list[int]:
    if not isinstance(value, list):
        raise QueryError(key, "Must be an array of GTP board vertices")
    out = []
    for elt in value:
        if not isinstance(elt, str):
            raise QueryError(key, "Must be an array of GTP board vertices")
        p = parse_location(elt, size)
        if p is None:
            raise QueryError(key, f"Could not parse board location: {elt}")
        out.append(p)
    return out


# --- the query's parts -----------------------------------------------------------------------


def _size(q: dict) -> int:
    message = f"Must provide an integer from 2 to {MAX_LEN}"
    for key in ("boardXSize", "boardYSize"):
        if key not in q:
            raise QueryError(key, message)
    x = _int(q, "boardXSize", 2, MAX_LEN, message)
    y = _int(q, "boardYSize", 2, MAX_LEN, message)
    if x != y:
        raise QueryError("boardYSize", f"Gorilla analyses square boards only: boardXSize {x}, boardYSize {y}")
    return x


def _turns(q: dict, n_moves: int) -> list[int]:
    if "analyzeTurns" not in q:
        return [n_moves]
    turns = q["analyzeTurns"]
    if not isinstance(turns, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in turns):
        raise QueryError("analyzeTurns", "Must specify an array of integers indicating turns to analyze")
    for t in turns:
        if not 0 <= t <= n_moves:
            raise QueryError("analyzeTurns", f"Invalid turn number: {t}")
    return sorted(set(turns))


def _priorities(q: dict, turns: list[int]) -> dict[int, int] | None:
    if "priorities" not in q:
        return None
    values = q["priorities"]
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise QueryError("priorities", "Must specify an array of integers indicating priorities")
    if "analyzeTurns" not in q:
        raise QueryError("priorities", "Can only specify when also specifying analyzeTurns")
    if len(values) != len(q["analyzeTurns"]):
        raise QueryError("priorities", "Must be of matching length to analyzeTurns")
    for v in values:
        if not -PRIORITY_LIMIT <= v <= PRIORITY_LIMIT:
            raise QueryError("priorities", f"Invalid priority: {v}")
    return dict(zip(q["analyzeTurns"], values, strict=True))


def _rules(q: dict):  # -> KataRules
    value = q.get("rules")
    if isinstance(value, dict):
        text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    elif isinstance(value, str):
        text = value
    else:
        raise QueryError("rules", RULES_FORM)
    try:
        rules = parse_rules(text)
    except RulesError:
        raise QueryError("rules", f"Could not parse rules: {text}") from None
    if "komi" in q:
        msg = "Must be a integer or half-integer from -400.0 to 400.0"
        komi = _float(q, "komi", -400.0, 400.0, msg)
        if komi * 2 != int(komi * 2):
            raise QueryError("komi", msg)
        rules = replace(rules, komi=komi)
    if "whiteHandicapBonus" in q:
        whb = q["whiteHandicapBonus"]
        if not isinstance(whb, str):
            raise QueryError("whiteHandicapBonus", "Must be a string")
        if whb not in WHB:
            raise QueryError(
                "whiteHandicapBonus",
                f"Rules::parseWhiteHandicapBonusRule: Invalid whiteHandicapBonus rule: {whb}",
            )
        rules = replace(rules, whb=whb)
    return rules


def _settings(q: dict, cfg: EngineConfig, warnings: list) -> Settings:
    s = cfg.settings
    if "overrideSettings" in q:
        over = q["overrideSettings"]
        if not isinstance(over, dict):
            raise QueryError("overrideSettings", "Must be an object")
        pairs = {k: v if isinstance(v, str) else json.dumps(v) for k, v in over.items()}
        try:
            s, unused = apply_settings(s, pairs)
        except ConfigError as e:
            raise QueryError("overrideSettings", f"Could not set settings: {e}") from None
        if unused:
            warnings.append(("overrideSettings", "Unknown config params: " + ",".join(unused)))
    if "maxVisits" in q:
        s = replace(s, max_visits=_int(q, "maxVisits", 1, 1 << 50, "Must be an integer from 1 to 2^50"))
    if "rootFpuReductionMax" in q:
        fpu = _float(q, "rootFpuReductionMax", 0.0, 2.0, "Must be a number from 0.0 to 2.0")
        s = replace(s, params=replace(s.params, root_fpu=fpu))
    if "rootPolicyTemperature" in q:
        _float(q, "rootPolicyTemperature", 0.01, 100.0, "Must be a number from 0.01 to 100.0")
    return s


def _avoid(q: dict, size: int) -> dict[int, dict[int, int]]:
    """avoidMoves / allowMoves as colour -> {move: depth it is avoided until} (KataGo's
    avoidMoveUntilByLoc; allowMoves: every other move, pass included, avoided)."""
    has_allow, has_avoid = "allowMoves" in q, "avoidMoves" in q
    if not (has_allow or has_avoid):
        return {}
    if has_allow and has_avoid:
        raise QueryError("allowMoves", "Cannot specify both allowMoves and avoidMoves")
    key = "allowMoves" if has_allow else "avoidMoves"
    entries = q[key]
    if not isinstance(entries, list):
        raise QueryError(key, AVOID_FORM)
    if has_allow and len(entries) > 2:
        raise QueryError(key, "Currently allowMoves only allows at most one entry per player")
    out: dict[int, dict[int, int]] = {}
    everything = [PASS] + [(r + 1) * (size + 2) + c + 1 for r in range(size) for c in range(size)]
    for entry in entries:
        if not isinstance(entry, dict) or not {"moves", "untilDepth", "player"} <= entry.keys():
            raise QueryError(key, AVOID_FORM)
        color = _player(entry["player"], "player")
        points = _locations(entry["moves"], "moves", size)
        depth = _int(entry, "untilDepth", 1, 1_000_000_000, "Must be a positive integer")
        table = out.setdefault(color, {})
        if has_allow:
            if table:
                raise QueryError(key, "Cannot specify allowMoves more than once for the same player")
            table.update({p: depth for p in everything if p not in set(points)})
        else:
            table.update(dict.fromkeys(points, depth))
    return out


# the include* flags in KataGo's order -> the Request field (None: accepted, not used)
FLAGS = {
    "includeMovesOwnership": "moves_ownership",
    "includeMovesOwnershipStdev": None,
    "includeOwnership": "ownership",
    "includeOwnershipStdev": None,
    "includePolicy": "policy",
    "includePVVisits": "pv_visits",
    "includeNoResultValue": None,
}


def _flags(q: dict) -> dict[str, object]:
    """The include* flags and the reports during the search, as Request fields."""
    out: dict[str, object] = {}
    for key, name in FLAGS.items():
        if key in q:
            value = _flag(q, key)
            if name is not None:
                out[name] = value
    msg = "Must be number of seconds from 0.001 to 1000000.0"
    if "reportDuringSearchEvery" in q:
        every = _float(q, "reportDuringSearchEvery", 0.001, 1e6, msg)
        out["report_every"] = out["first_report"] = every
    if "firstReportDuringSearchAfter" in q:
        out["first_report"] = _float(q, "firstReportDuringSearchAfter", 0.001, 1e6, msg)
    return out


def _priority(q: dict) -> int:
    if "priority" not in q:
        return 0
    if "priorities" in q:
        raise QueryError("priority", "Cannot specify both priority and priorities")
    return _int(q, "priority", -PRIORITY_LIMIT, PRIORITY_LIMIT, "Must be a number between -2^62 and 2^62")


# --- the positions -----------------------------------------------------------------------------


def _initial_player(q: dict, moves: list[tuple[int, int]], stones: list[tuple[int, int]]) -> int:
    if "initialPlayer" in q:
        return _player(q["initialPlayer"], "initialPlayer")
    if moves:
        return moves[0][0]
    blacks = sum(1 for c, _ in stones if c == BLACK)
    return WHITE if blacks >= 2 and blacks == len(stones) else BLACK  # KataGo's handicap stones


def _play_tolerant(game: Game, color: int, point: int) -> None:
    """Play a move of the record as KataGo's makeBoardMoveTolerant: after the end, against ko."""
    if game.over:
        game.reopen()
    if point != PASS and game.position.check(point, color) == "ko":
        pos = game.positions[-1].copy()
        pos.st[K.S_KO] = 0
        game.positions[-1] = pos
    game.play(point, color)


def replay(
    size: int, rules, komi: float, stones, moves, first: int, turns: list[int]
) -> dict[int, Game]:  # rules: KataRules
    """The games after each turn asked for (QueryError for an illegal move or stone)."""
    ruleset = rules.ruleset()
    game = Game(size, replace(ruleset, superko=False), komi)
    try:
        game.add_setup([(p, c) for c, p in stones], to_move=first)
    except ValueError as e:
        raise QueryError("initialStones", str(e)) from None
    wanted = set(turns)
    out: dict[int, Game] = {}
    for t in range(len(moves) + 1):
        if t in wanted:
            g = game.copy()
            g.redo_stack = []
            g.ruleset = ruleset
            out[t] = g.reopened()
        if t == len(moves):
            break
        color, point = moves[t]
        try:
            _play_tolerant(game, color, point)
        except IllegalMove:
            raise QueryError("moves", f"Illegal move {t}: {format_vertex(point, size)}") from None
    return out


def parse_query(q: dict, qid: str, cfg: EngineConfig) -> Parsed:
    """The requests of an analysis query (no action); QueryError for a field KataGo refuses."""
    warnings: list[tuple[str, str]] = []
    size = _size(q)
    stones = _moves(q, "initialStones", size, False) if "initialStones" in q else []
    if "moves" not in q:
        raise QueryError("moves", "Must specify an array of [player,location] pairs")
    moves = _moves(q, "moves", size, True)
    first = _initial_player(q, moves, stones)
    turns = _turns(q, len(moves))
    priorities = _priorities(q, turns)
    rules = _rules(q)
    settings = _settings(q, cfg, warnings)
    pv_len = (
        _int(q, "analysisPVLen", 1, 1000, "Must be an integer from 1 to 1000")
        if "analysisPVLen" in q
        else cfg.pv_len
    )
    flags = _flags(q)
    priority = _priority(q)
    avoid = _avoid(q, size)
    net_rules, warning = rules.net_rules()
    if warning is not None:
        warnings.append(("rules", warning))
    for key in NOT_SUPPORTED:
        if key in q:
            warnings.append((key, f"Not supported by Gorilla, ignored: {key}"))
    if cfg.warn_unused_fields:
        for key in q:
            if key not in EXPECTED and not key.startswith("_kt_"):
                warnings.append((key, UNUSED_FIELD))
    games = replay(size, rules, rules.komi, stones, moves, first, turns)
    requests = [
        Request(
            qid,
            t,
            priorities[t] if priorities else priority,
            games[t],
            net_rules,
            settings,
            pv_len,
            avoid=avoid,
            **flags,  # type: ignore[arg-type]
        )
        for t in turns
    ]
    return Parsed(requests, warnings)
