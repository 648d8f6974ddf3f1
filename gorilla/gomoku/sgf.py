"""SGF ``GM[4]`` (Gomoku/Renju) save and load: a small reader and writer of the main line.

sgfmill knows only Go's GM[1], so this module has its own. Points are two letters
``a``.. for x then y from the top-left; ``RU`` holds the rule's name. As Go's records do,
a game on the clock keeps ``TM``/``OT`` at the root and the time left after each move
(``BL``/``WL``, ``OB``/``OW``), and ``RE`` says how the game ended (``W+T``: on time).
A move's comment (``C``) is kept, and a Swap2 game's opening (Gorilla's ``SWAPTWO``: its
phase, or the opener's colour once chosen), so that a game saved in the opening goes on in
it; a match's seeded opening is Gorilla's ``OPENING`` (how many first stones were given to
the players, not chosen by them). A bad file gives a ValueError with one line and no game.
:func:`load_record`, :func:`loads_record` and :func:`peek` also read Piskvork's ``.psq``
records (Gomocup's archives: :mod:`gorilla.gomoku.psq`), told apart by their first line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from gorilla.gomoku import psq
from gorilla.gomoku import rules as R
from gorilla.gomoku.game import SWAP2_DONE, SWAP2_STONES, GomokuGame
from gorilla.rules.sgf import Timing

_PROP = re.compile(r"\s*([A-Za-z]+)((?:\s*\[(?:\\.|[^\]\\])*\])+)", re.S)
_VAL = re.compile(r"\[((?:\\.|[^\]\\])*)\]", re.S)
LETTERS = "abcdefghijklmnopqrstuvwxy"


def escape(text: str) -> str:
    """text as an SGF value (backslashes and ] escaped)."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


_esc = escape


def unescape(text: str) -> str:
    """An SGF text value as written (escapes removed; a soft line break joins)."""
    return re.sub(r"\\(.)", lambda m: "" if m.group(1) == "\n" else m.group(1), text, flags=re.S)


# the root properties dumps makes itself; a record's others are written back as read
MADE = frozenset(
    {"GM", "FF", "CA", "AP", "SZ", "RU", "PB", "PW", "RE", "TM", "OT", "AB", "AW", "B", "W"}
    | {"SWAPTWO", "OPENING"}  # Gorilla's own
)
# a Swap2 game's opening (Gorilla's own root property SWAPTWO: SGF's names have no digits):
# the phase it stands in, or done:COLOUR:N once the colours are chosen (the opener's colour
# and the opening's stones)


def dumps(
    game: GomokuGame,
    black: str = "",
    white: str = "",
    result: str = "",
    comment: str = "",
    date: str = "",
    timing: Timing | None = None,
    extra: dict[str, list[str]] | None = None,
    comments: dict[int, str] | None = None,
    marks: dict[int, dict[str, list[str]]] | None = None,
) -> str:
    """The game as SGF text (GM[4]); result (e.g. ``B+F`` for a forfeit) overrides the game's
    own; with timing, TM/OT at the root and the time left on the moves it lists; extra: other
    root properties, their values as a record held them (escaped), written back; comments: a
    move's comment (``C``) by its number (1: the first move); marks: a move's other properties by
    its number, their values escaped (``{"BM": ["1"]}``: an analysis's grades)."""
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
    given = {"DT"} if date else set()
    given |= {"GC"} if comment else set()
    for prop, values in (extra or {}).items():
        if prop not in MADE and prop not in given and values:
            head += prop + "".join(f"[{v}]" for v in values)
    if game.opening == "swap2":
        head += f"SWAPTWO[{swap2_state(game)}]"
    if game.given > 0:
        head += f"OPENING[{min(game.given, len(game.moves))}]"
    if timing is not None:
        head += f"TM[{timing.main:g}]"
        if timing.overtime:
            head += f"OT[{_esc(timing.overtime)}]"
    nodes = []
    for number, (p, c) in enumerate(game.moves, 1):
        x, y = game.xy(p)
        letter = "B" if c == R.BLACK else "W"
        node = f";{letter}[{LETTERS[x]}{LETTERS[y]}]"
        left = timing.left.get(number) if timing is not None else None
        if left is not None:
            node += f"{letter}L[{left[0]:.1f}]"
            if left[1]:
                node += f"O{letter}[{int(left[1])}]"
        note = (comments or {}).get(number)
        if note:
            node += f"C[{_esc(note)}]"
        for prop, values in (marks or {}).get(number, {}).items():
            if prop not in _NODE_MADE and values:
                node += prop + "".join(f"[{v}]" for v in values)
        nodes.append(node)
    return head + "".join(nodes) + ")\n"


def swap2_state(game: GomokuGame) -> str:
    """A Swap2 game's opening as the record's SWAPTWO value: its phase, or ``done:black:3``
    (the opener plays Black; the opening had 3 stones) once the colours are chosen."""
    if game.swap2_phase != SWAP2_DONE:
        return game.swap2_phase
    return f"done:{'black' if game.first_player_black else 'white'}:{game.swap2_end}"


def _apply_swap2(game: GomokuGame, value: str) -> None:
    """Give game (its stones played) the Swap2 opening that SWAPTWO[value] holds; ValueError
    (one line) when the value does not fit the stones."""
    parts = value.strip().lower().split(":")
    n = len(game.moves)
    phase = parts[0]
    if len(parts) == 1 and n in SWAP2_STONES.get(phase, ()):
        game.opening, game.swap2_phase = "swap2", phase
        return
    if phase == SWAP2_DONE and len(parts) == 3 and parts[1] in ("black", "white") and parts[2] in ("3", "5"):
        end = int(parts[2])
        if end <= n:
            game.opening, game.swap2_phase, game.swap2_end = "swap2", SWAP2_DONE, end
            game.first_player_black = parts[1] == "black"
            return
    raise ValueError(f"bad SGF Swap2 opening SWAPTWO[{value.strip()}] for {n} stones")


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


@dataclass
class Record:
    """A Gomoku record as read: the game, the players' names, the result as written (``RE``:
    ``W+T``, ``B+R``, ...) and the clock (None when the record has no ``TM``)."""

    game: GomokuGame
    black: str = ""
    white: str = ""
    result: str = ""
    timing: Timing | None = None
    loser: tuple[int, str] | None = field(default=None)  # (colour, R/T/F) of a result the board lacks
    extra: dict[str, list[str]] = field(default_factory=dict)  # the root's other properties, escaped
    comments: dict[int, str] = field(default_factory=dict)  # a move's comment (C) by its number
    times_ms: list[int] = field(default_factory=list)  # a Piskvork record's thinking time a move
    marks: dict[int, dict[str, list[str]]] = field(default_factory=dict)  # a move's other properties


def _timing(nodes: list[dict[str, list[str]]]) -> Timing | None:
    """TM/OT and the BL/WL/OB/OW of the moves (unreadable values left out); None without TM."""
    root = nodes[0]
    try:
        main = float(root.get("TM", [""])[0])
    except ValueError:
        return None
    timing = Timing(main, root.get("OT", [""])[0].strip())
    number = 0  # moves as the game numbers them: set-up stones (AB/AW) count as moves
    for node in nodes:
        number += len(node.get("AB", [])) + len(node.get("AW", []))
        for letter in ("B", "W"):
            if letter not in node:
                continue
            number += len(node[letter])
            try:
                seconds = float(node[f"{letter}L"][0])
                count = int(float(node.get(f"O{letter}", ["0"])[0] or 0))
            except (KeyError, ValueError):
                continue
            timing.left[number] = (seconds, count)
    return timing


def _comments(nodes: list[dict[str, list[str]]]) -> dict[int, str]:
    """The comments (C) of the nodes after the root, by the number of the move they follow
    (set-up stones count as moves, as in :func:`_timing`); a node without a move adds its
    comment to the last move's."""
    out: dict[int, str] = {}
    number = 0
    for node in nodes[1:]:
        number += sum(len(node.get(p, [])) for p in ("AB", "AW", "B", "W"))
        text = "\n".join(unescape(v).strip() for v in node.get("C", []) if v.strip())
        if text and number > 0:
            out[number] = f"{out[number]}\n{text}" if number in out else text
    return out


# a move node's properties the writer makes itself (its others are kept as the move's marks)
_NODE_MADE = frozenset({"B", "W", "AB", "AW", "C", "BL", "WL", "OB", "OW"})


def _marks(nodes: list[dict[str, list[str]]]) -> dict[int, dict[str, list[str]]]:
    """The other properties of the nodes after the root (annotations such as BM, DO, TE or LB;
    values escaped, as read) by the number of the move they follow; set-up stones count as
    moves, as in :func:`_timing`."""
    out: dict[int, dict[str, list[str]]] = {}
    number = 0
    for node in nodes[1:]:
        number += sum(len(node.get(p, [])) for p in ("AB", "AW", "B", "W"))
        if number > 0:
            for k, vals in node.items():
                if k not in _NODE_MADE:
                    out.setdefault(number, {}).setdefault(k, []).extend(vals)
    return out


def _given(value: str, stones: int) -> int:
    """The given opening's stones that OPENING[value] holds; ValueError (one line) when it
    is no count of the record's first stones."""
    v = value.strip()
    if v.isdigit() and int(v) <= stones:
        return int(v)
    raise ValueError(f"bad SGF opening OPENING[{v}] for {stones} stones")


def loads_record(text: str) -> Record:
    """A record from SGF text (GM[4]), or a Piskvork record (``.psq``): the game with its
    names, result, clock and comments; ValueError with one line if it is neither."""
    if psq.looks_like(text):
        held = psq.parse(text)
        record = Record(psq.game_of(held), held.black, held.white)
        record.times_ms = [ms for _, _, ms in held.moves]
        return record
    nodes = _nodes(text)
    game = _game(nodes)
    root = nodes[0]
    if root.get("SWAPTWO"):
        _apply_swap2(game, root["SWAPTWO"][0])
    if root.get("OPENING"):
        game.given = _given(root["OPENING"][0], len(game.moves))
    result = root.get("RE", [""])[0].strip()
    names = (unescape(root.get("PB", [""])[0]).strip(), unescape(root.get("PW", [""])[0]).strip())
    record = Record(game, *names, result, _timing(nodes))
    record.extra = {k: v for k, v in root.items() if k not in MADE}
    record.comments = _comments(nodes)
    record.marks = _marks(nodes)
    m = re.fullmatch(r"([BW])\+([RTF])\w*", result, re.I)
    if m and game.result is None:  # resigned, on time, forfeit: the board alone does not say so
        record.loser = (R.WHITE if m.group(1).upper() == "B" else R.BLACK, m.group(2).upper())
    return record


def loads(text: str) -> GomokuGame:
    """A game from SGF text (GM[4]) or a Piskvork record; ValueError with one line if it is
    neither."""
    return loads_record(text).game


def _game(nodes: list[dict[str, list[str]]]) -> GomokuGame:
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


@dataclass(frozen=True)
class Peek:
    """What a record's root says of its game, read without playing a move: ``gomoku``
    (``GM[4]``, or a Piskvork record), its size (``SZ``, None when not given) and five-rule
    (``RU``; freestyle when not given or unknown, and for a Piskvork record)."""

    gomoku: bool
    size: int | None
    rule: str


def peek(path: str) -> Peek | None:
    """The root of the SGF file at path (its first 4 KB), or None when it cannot be read (the
    load says why)."""
    try:
        with open(os.path.expanduser(path), encoding="utf-8", errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return None
    head_psq = psq.HEADER.match(head)
    if head_psq is not None:
        return Peek(True, int(head_psq.group(1)), "freestyle")
    gm = re.search(r"GM\s*\[\s*(\d+)\s*\]", head)
    sz = re.search(r"SZ\s*\[\s*(\d+)", head)
    ru = re.search(r"RU\s*\[([^\]]*)\]", head)
    rule = ru.group(1).strip().lower() if ru else ""
    return Peek(
        gm is not None and gm.group(1) == "4",
        int(sz.group(1)) if sz else None,
        rule if rule in R.RULE_NAMES else "freestyle",
    )


def save(
    game: GomokuGame,
    path: str,
    black: str = "",
    white: str = "",
    result: str = "",
    timing: Timing | None = None,
) -> None:
    """Write game to path as SGF (GM[4]) (result and timing as :func:`dumps` takes them)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(game, black, white, result=result, timing=timing))


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {path}: {e}") from None


def load(path: str) -> GomokuGame:
    """A game from an SGF (or Piskvork) file; ValueError (one line) if unreadable or invalid."""
    return loads(_read(path))


def load_record(path: str) -> Record:
    """A record (game, names, result, clock, comments) from an SGF file or a Piskvork record
    (``.psq``); ValueError (one line) if unreadable or invalid."""
    return loads_record(_read(path))
