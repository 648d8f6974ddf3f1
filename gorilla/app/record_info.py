"""The record's information as the panel shows it and Ctrl+I edits it: the players' names
and ranks, the event, the place, the date, the result, the komi and the rules.

The panel names a side by the record's name (SGF ``PB``/``PW``, with its rank ``BR``/``WR``)
when the record has one of its own, else by a short name of its player (:func:`short_player`:
``mcts:time=2,threads=2`` -> ``MCTS 2s``); the full spec shows on hover. ``EV``, ``PC`` and the
ranks live in the record's root properties as read (``GameTree.root.extra``); :func:`set_info`
writes them, the names and the date (the result, komi and rules are the record's own:
:meth:`gorilla.app.record.Record.set_record_info`). No pyglet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from gorilla.rules.board import BLACK, WHITE

KINDS = {
    "human": "Human",
    "mcts": "MCTS",
    "net": "Net",
    "alphabeta": "Alpha-beta",
    "montecarlo": "Monte-Carlo",
    "random": "Random",
    "rank": "Rank",
    "scoreloss": "Score loss",
    "policy": "Policy",
    "pvs": "PVS",
    "pvs+vct": "PVS+VCT",
    "threat1": "Threat",
}
STRENGTH = (("time", "s"), ("playouts", "p"), ("visits", "v"))  # the parameter that says how strong
SHORT = 22  # characters of a short name at most


def short_player(label: str) -> str:
    """A player's short name: its kind and its strength ('MCTS 2s', 'Net 200v', 'Rank 15k',
    'Monte-Carlo 10,3'); a GTP engine its program's name; cut to :data:`SHORT` characters."""
    text = label.strip()
    if text.startswith("gtp:"):
        text = text[4:]
    name, sep, rest = text.partition(":")
    kind = KINDS.get(name.lower())
    if kind is None:
        return text if len(text) <= SHORT else text[: SHORT - 1] + "\u2026"
    if not sep:
        return kind
    params = dict(p.split("=", 1) for p in rest.split(",") if "=" in p)
    for key, unit in STRENGTH:
        if key in params:
            return f"{kind} {params[key].rstrip('s')}{unit}"
    bare = [p for p in rest.split(",") if "=" not in p and p]
    return f"{kind} {','.join(bare)}" if bare else kind


def is_made_name(name: str, label: str) -> bool:
    """Whether a PB/PW is one Gorilla wrote for the player itself: Go's ('Human', 'Gorilla
    (mcts)') or a Gomoku seat's label ('human', 'pvs+vct 1s', 'pbrain:pbrain-wine')."""
    n = name.strip()
    if not n or n == "Human" or n.startswith("Gorilla (") or n == label.strip():
        return True
    return n == "human" or n.startswith("pbrain:") or re.fullmatch(r"[a-z0-9+]+ [0-9.]+s", n) is not None


def _unescape(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="replace")
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            i += 1
        out.append(text[i])
        i += 1
    return "".join(out)


def _escape(text: str) -> bytes:
    return text.replace("\\", "\\\\").replace("]", "\\]").encode("utf-8")


NAME_ROWS = ("black", "white", "event")  # what every game's record keeps
GO_ROWS = ("black", "black_rank", "white", "white_rank", "event", "place", "date", "result", "komi", "rules")
ROW_LABELS = {
    "black": "Black",
    "black_rank": "Black's rank",
    "white": "White",
    "white_rank": "White's rank",
    "event": "Event",
    "place": "Place",
    "date": "Date",
    "result": "Result",
    "komi": "Komi",
    "rules": "Rules",
}
EXTRA = {"black_rank": "BR", "white_rank": "WR", "event": "EV", "place": "PC"}  # kept as read
RESULT = re.compile(r"^([BW]\+(\d+(\.\d+)?|R|RESIGN|T|TIME|F|FORFEIT)?|0|DRAW|VOID|\?)$", re.IGNORECASE)


@dataclass
class RecordInfo:
    """The record's information as text, '' where it has none: Black (PB), White (PW), the event
    (EV), the ranks (BR, WR), the place (PC), the date (DT), the result (RE), the komi (KM) and
    the rules (RU). ``rows``: those the record keeps (a Gomoku record: the names and the event)."""

    black: str = ""
    white: str = ""
    event: str = ""
    black_rank: str = ""
    white_rank: str = ""
    place: str = ""
    date: str = ""
    result: str = ""
    komi: str = ""
    rules: str = ""
    rows: tuple[str, ...] = NAME_ROWS

    def name(self, color: int) -> str:
        """PB or PW."""
        return self.black if color == BLACK else self.white

    def rank(self, color: int) -> str:
        """BR or WR."""
        return self.black_rank if color == BLACK else self.white_rank

    def values(self) -> list[str]:
        """The rows' values, in the order of ``rows``."""
        return [getattr(self, r) for r in self.rows]

    def with_values(self, values: list[str]) -> RecordInfo:
        """A copy with the rows' values replaced (in the order of ``rows``), trimmed."""
        return replace(self, **{r: v.strip() for r, v in zip(self.rows, values, strict=True)})


def record_info(tree: Any) -> RecordInfo:
    """What a record holds (a game without a record tree, Gomoku: none)."""
    if tree is None:
        return RecordInfo()
    extra = {
        row: _unescape(tree.root.extra[p][0]) if tree.root.extra.get(p) else "" for row, p in EXTRA.items()
    }
    start = tree.start
    return RecordInfo(
        tree.info.black_name, tree.info.white_name, **extra, date=tree.info.date, result=tree.result or "",
        komi=f"{start.komi:g}", rules=start.ruleset.name, rows=GO_ROWS,
    )  # fmt: skip


def check_info(info: RecordInfo) -> str | None:
    """Why info cannot go into a record (one line: a komi that is no whole or half number, a
    result SGF does not write, rules Gorilla does not know), else None."""
    from gorilla.rules.rulesets import get_ruleset

    if "komi" in info.rows:
        try:
            komi = float(info.komi)
        except ValueError:
            return f"Komi: needs a number, got '{info.komi}'"
        if komi != komi or abs(komi) > 1000 or komi * 2 != int(komi * 2):
            return f"Komi: must be a whole or half number, got '{info.komi}'"
    if info.result and not RESULT.match(info.result):
        return f"Result: '{info.result}' is no SGF result (B+3.5, W+R, B+T, 0, ...)"
    if "rules" in info.rows:
        try:
            get_ruleset(info.rules)
        except ValueError as e:
            return f"Rules: {e}"
    return None


def shown_name(info: RecordInfo | None, color: int, label: str) -> str:
    """How the panel names a side: the record's own name (info: the game's ``names()``, None
    for a game that keeps none) with its rank, else the player's short name; a record's name
    that is an AI's spec (``mcts:playouts=200``, as ``gorilla match`` writes) its short name
    too (``MCTS 200p``)."""
    name = info.name(color) if info is not None else ""
    if is_made_name(name, label):
        return short_player(label)
    if ":" in name and " " not in name.strip() and name.partition(":")[0].lower() in KINDS:  # an AI's spec
        return short_player(name)
    rank = info.rank(color) if info is not None else ""
    return f"{name} {rank}" if rank else name


def set_names(tree: Any, game: Any, black: str, white: str, event: str) -> None:
    """Write PB, PW and EV into the record (and the game's own copy of the names)."""
    set_info(tree, game, RecordInfo(black, white, event))


def set_info(tree: Any, game: Any, info: RecordInfo) -> None:
    """Write the names, ranks, event, place and date of info's rows into the record (and the
    game's own copy of the names and date); an empty one is removed."""
    for target in (tree.info, game.info):
        target.black_name, target.white_name = info.black.strip(), info.white.strip()
        if "date" in info.rows:
            target.date = info.date.strip()
    for row, ident in EXTRA.items():
        if row not in info.rows:
            continue
        text = getattr(info, row).strip()
        if text:
            tree.root.extra[ident] = [_escape(text)]
        else:
            tree.root.extra.pop(ident, None)


__all__ = [
    "BLACK",
    "WHITE",
    "RecordInfo",
    "check_info",
    "record_info",
    "set_info",
    "set_names",
    "short_player",
    "shown_name",
]
