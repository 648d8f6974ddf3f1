"""SGF ``GM[4]`` (Gomoku/Renju) save and load: a small reader and writer of the main line.

sgfmill knows only Go's GM[1], so this module has its own. Points are two letters
``a``.. for x then y from the top-left; ``RU`` holds the rule's name. A bad file gives
a ValueError with one line and no game.
"""

from __future__ import annotations

import re

from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame

_PROP = re.compile(r"\s*([A-Za-z]+)((?:\s*\[(?:\\.|[^\]\\])*\])+)", re.S)
_VAL = re.compile(r"\[((?:\\.|[^\]\\])*)\]", re.S)
LETTERS = "abcdefghijklmnopqrstuvwxy"


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def dumps(
    game: GomokuGame, black: str = "", white: str = "", result: str = "", comment: str = "", date: str = ""
) -> str:
    """The game as SGF text (GM[4]); result (e.g. ``B+F`` for a forfeit) overrides the game's own."""
    head = f"(;GM[4]FF[4]CA[UTF-8]AP[Gorilla]SZ[{game.size}]RU[{R.RULE_NAMES[game.rule]}]"
    if black:
        head += f"PB[{_esc(black)}]"
    if white:
        head += f"PW[{_esc(white)}]"
    if date:
        head += f"DT[{_esc(date)}]"
    if result or game.result is not None:
        head += f"RE[{_esc(result or game.result.sgf())}]"
    if comment:
        head += f"GC[{_esc(comment)}]"
    nodes = []
    for p, c in game.moves:
        x, y = game.xy(p)
        nodes.append(f";{'B' if c == R.BLACK else 'W'}[{LETTERS[x]}{LETTERS[y]}]")
    return head + "".join(nodes) + ")\n"


def _nodes(text: str) -> list[dict[str, list[str]]]:
    """The nodes of the main line (the first variation at every branch)."""
    start = text.find("(")
    if start < 0 or not text[start + 1 :].lstrip().startswith(";"):
        raise ValueError("not an SGF file: no '(;' at the start")
    nodes: list[dict[str, list[str]]] = []
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == ";":
            node: dict[str, list[str]] = {}
            i += 1
            while True:
                m = _PROP.match(text, i)
                if not m:
                    break
                node.setdefault(m.group(1).upper(), []).extend(_VAL.findall(m.group(2)))
                i = m.end()
            nodes.append(node)
            continue
        if ch == ")":
            return nodes  # the first close ends the main line (later variations are alternatives)
        if ch == "[":
            raise ValueError(f"SGF syntax error at character {i}: a value outside a property")
        i += 1
    raise ValueError("SGF file ends before the game tree is closed")


def loads(text: str) -> GomokuGame:
    """A game from SGF text (GM[4]); ValueError with one line if it is not a valid Gomoku SGF."""
    nodes = _nodes(text)
    if not nodes:
        raise ValueError("SGF file has no nodes")
    root = nodes[0]
    gm = root.get("GM", ["1"])[0].strip()
    if gm != "4":
        raise ValueError(f"not a Gomoku SGF file: GM[{gm}] (Gomoku is GM[4])")
    try:
        size = int(root.get("SZ", ["15"])[0].split(":")[0])
    except ValueError:
        raise ValueError(f"bad SGF size SZ[{root['SZ'][0]}]") from None
    rule_name = root.get("RU", ["freestyle"])[0]
    try:
        rule = R.rule_from_name(rule_name)
    except ValueError:
        rule = R.FREESTYLE
    game = GomokuGame(size, rule)
    for k, node in enumerate(nodes):
        for prop, colour in (("AB", R.BLACK), ("AW", R.WHITE), ("B", R.BLACK), ("W", R.WHITE)):
            for v in node.get(prop, []):
                v = v.strip().lower()
                if len(v) != 2 or v[0] not in LETTERS[:size] or v[1] not in LETTERS[:size]:
                    raise ValueError(f"bad SGF point {prop}[{v}] in node {k}")
                try:
                    game.play_xy(LETTERS.index(v[0]), LETTERS.index(v[1]), colour)
                except ValueError as e:
                    raise ValueError(f"illegal SGF move {prop}[{v}] in node {k}: {e}") from None
    return game


def save(game: GomokuGame, path: str, black: str = "", white: str = "") -> None:
    """Write game to path as SGF (GM[4])."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(game, black, white))


def load(path: str) -> GomokuGame:
    """A game from an SGF file; ValueError (one line) if unreadable or invalid."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {path}: {e}") from None
    return loads(text)
