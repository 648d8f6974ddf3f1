"""The players' and the event's names as the panel shows them, and their editing.

The panel names a side by the record's name (SGF ``PB``/``PW``) when the record has one of its
own, else by a short name of its player (:func:`short_player`: ``mcts:time=2,threads=2`` ->
``MCTS 2s``); the full spec shows on hover. ``EV`` (the event) lives in the record's root
properties as read (``GameTree.root.extra``); :func:`set_names` writes all three. No pyglet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
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


@dataclass
class RecordInfo:
    """The record's names: Black (PB), White (PW), the event (EV); '' where it has none."""

    black: str = ""
    white: str = ""
    event: str = ""

    def name(self, color: int) -> str:
        """PB or PW."""
        return self.black if color == BLACK else self.white


def record_info(tree: Any) -> RecordInfo:
    """The names a record holds (a game without a record tree, Gomoku: none)."""
    if tree is None:
        return RecordInfo()
    ev = tree.root.extra.get("EV")
    return RecordInfo(tree.info.black_name, tree.info.white_name, _unescape(ev[0]) if ev else "")


def shown_name(info: RecordInfo | None, color: int, label: str) -> str:
    """How the panel names a side: the record's own name (info: the game's ``names()``, None
    for a game that keeps none), else the player's short name."""
    name = info.name(color) if info is not None else ""
    return short_player(label) if is_made_name(name, label) else name


def set_names(tree: Any, game: Any, black: str, white: str, event: str) -> None:
    """Write PB, PW and EV into the record (and the game's own copy of the names)."""
    for info in (tree.info, game.info):
        info.black_name, info.white_name = black.strip(), white.strip()
    if event.strip():
        tree.root.extra["EV"] = [_escape(event.strip())]
    else:
        tree.root.extra.pop("EV", None)


__all__ = ["BLACK", "WHITE", "RecordInfo", "record_info", "set_names", "short_player", "shown_name"]
