"""SGF FF[4] game records: save a :class:`Game` and load one back (sgfmill underneath).

What is written: FF, GM, CA, AP, SZ, KM, RU, HA with AB/AW and PL for setup
stones, PB/PW, DT, RE, the root comment C, and one node per move with its
comment. Passes are written ``B[tt]`` on boards up to 19x19 and ``B[]`` on
larger ones; a resignation is not a move in SGF, it shows only in RE.

Loading follows the main line and builds the game through :meth:`Game.play`,
so an illegal move is refused. Anything broken or unsupported raises
:class:`SgfError` with one line naming the problem (``SGF: illegal move W[dd]
at move 12 (occupied)``); nothing half-loaded is returned.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

from sgfmill import sgf

from gorilla import __version__
from gorilla.rules.board import BLACK, MAX_SIZE, MIN_SIZE, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, to_index, to_xy
from gorilla.rules.game import Game, GameInfo
from gorilla.rules.position import IllegalMove
from gorilla.rules.rulesets import CHINESE, JAPANESE, LITTLE_GO, TROMP_TAYLOR, Ruleset, get_ruleset


class SgfError(ValueError):
    """A broken or unsupported SGF; str() is one line starting with 'SGF:'."""


# SGF RU values (lower case) and the ruleset that plays and counts the same way.
_RU_MAP: dict[str, Ruleset] = {
    "chinese": CHINESE,
    "cn": CHINESE,
    "japanese": JAPANESE,
    "jp": JAPANESE,
    "korean": JAPANESE,
    "tromp-taylor": TROMP_TAYLOR,
    "tromp taylor": TROMP_TAYLOR,
    "tt": TROMP_TAYLOR,
    "nz": TROMP_TAYLOR,  # New Zealand: area, positional superko, suicide allowed
    "new zealand": TROMP_TAYLOR,
    "little-go": LITTLE_GO,
    "little go": LITTLE_GO,
    "littlego": LITTLE_GO,
}

_COLOR_LETTER = {BLACK: "b", WHITE: "w"}
_LETTER_COLOR = {"b": BLACK, "w": WHITE}


def ruleset_from_sgf(ru: str | None, notes: list[str] | None = None) -> Ruleset:
    """The ruleset for an SGF RU value; unknown or missing → chinese (with a note when unknown)."""
    if ru is None or not ru.strip():
        return CHINESE
    key = ru.strip().lower()
    if key in _RU_MAP:
        return _RU_MAP[key]
    try:
        return get_ruleset(key)
    except ValueError:
        if notes is not None:
            notes.append(f"SGF: unknown rules RU[{ru.strip()}], playing chinese rules")
        return CHINESE


# --- saving ---------------------------------------------------------------------------------------


def _sgf_point(p: int, size: int) -> tuple[int, int] | None:
    """Our flat index as sgfmill's (row, col) with row 0 at the bottom; None for a pass."""
    if p == PASS:
        return None
    x, y = to_xy(p, size)
    return (y, x)


@dataclass
class Timing:
    """The clock in a record: TM (main time, seconds), OT (overtime) and the time left after moves.

    ``left`` maps a move number (1 = the first move) to (seconds, overtime count): BL/WL
    and, when the count is not 0, OB/OW (byo-yomi periods or Canadian moves left).
    """

    main: float = 0.0
    overtime: str = ""
    left: dict[int, tuple[float, int]] = field(default_factory=dict)


def to_sgfmill(game: Game, timing: Timing | None = None) -> sgf.Sgf_game:
    """The game as an sgfmill game tree (main line only), with the clock when timing is given."""
    size = game.size
    sg = sgf.Sgf_game(size)
    root = sg.get_root()
    root.set("AP", ("Gorilla", __version__))
    root.set("KM", float(game.komi))
    root.set("RU", game.ruleset.sgf_name or game.ruleset.name)
    if game.handicap:
        root.set("HA", int(game.handicap))
    black = {_sgf_point(p, size) for p, c in game.setup.items() if c == BLACK}
    white = {_sgf_point(p, size) for p, c in game.setup.items() if c == WHITE}
    if black or white:
        root.set_setup_stones(black, white)
        root.set("PL", _COLOR_LETTER[game.positions[0].to_move])
    info = game.info
    if info.black_name:
        root.set("PB", info.black_name)
    if info.white_name:
        root.set("PW", info.white_name)
    if info.date:
        root.set("DT", info.date)
    result = game.result
    if result:
        root.set("RE", result)
    if info.comment:
        root.set("C", info.comment)
    if timing is not None:
        root.set("TM", float(timing.main))
        if timing.overtime:
            root.set("OT", timing.overtime)
    node = root
    for number, m in enumerate(game.moves, 1):
        if m.point == RESIGN:
            if m.comment:
                node.add_comment_text(m.comment)
            continue
        node = node.new_child()
        node.set_move(_COLOR_LETTER[m.color], _sgf_point(m.point, size))
        if m.comment:
            node.set("C", m.comment)
        left = timing.left.get(number) if timing is not None else None
        if left is not None:
            letter = "B" if m.color == BLACK else "W"
            node.set_raw(f"{letter}L", f"{left[0]:.1f}".encode())
            if left[1]:
                node.set_raw(f"O{letter}", str(int(left[1])).encode())
    return sg


def read_timing(data: bytes | str) -> Timing:
    """TM, OT and BL/WL/OB/OW of a record's main line (missing or unreadable values left out)."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    sg = _parse(raw, "UTF-8" if isinstance(data, str) else None)
    root = sg.get_root()
    timing = Timing()
    with contextlib.suppress(ValueError, KeyError):
        timing.main = float(_text(root, "TM") or 0)
    timing.overtime = _text(root, "OT").strip()
    number = 0
    for node in sg.get_main_sequence():
        letter, _ = node.get_raw_move()
        if letter is None:
            continue
        number += 1
        c = letter.upper()
        with contextlib.suppress(ValueError, KeyError):
            seconds = float(_raw(node, f"{c}L"))
            timing.left[number] = (seconds, int(_raw(node, f"O{c}") or 0))
    return timing


def save_sgf(game: Game, timing: Timing | None = None) -> str:
    """The game as SGF FF[4] text (UTF-8, CA[UTF-8]), with TM/OT/BL/WL when timing is given."""
    return to_sgfmill(game, timing).serialise().decode("utf-8")


def write_sgf(game: Game, path: str | os.PathLike[str]) -> None:
    """Write the game to an SGF file; raises OSError when the file cannot be written."""
    Path(path).write_bytes(save_sgf(game).encode("utf-8"))


# --- loading --------------------------------------------------------------------------------------


def _raw(node: sgf.Tree_node, ident: str) -> str:
    try:
        return node.get_raw(ident).decode("utf-8", "replace")
    except KeyError:
        return ""


def _parse(data: bytes, encoding: str | None = None) -> sgf.Sgf_game:
    try:
        return sgf.Sgf_game.from_bytes(data, override_encoding=encoding)
    except ValueError as e:
        msg = str(e)
        if msg.startswith("size out of range: "):
            raise SgfError(f"SGF: board size {msg.split(': ', 1)[1]} is not supported") from None
        if msg.startswith("bad SZ property: "):
            sz = msg.split(": ", 1)[1].removeprefix("b'").removesuffix("'")
            raise SgfError(f"SGF: board size {sz} is not supported (only square boards)") from None
        if msg.startswith("no codec available"):
            raise SgfError(f"SGF: unknown character set ({msg})") from None
        raise SgfError(f"SGF: parse error: {msg or 'malformed data'}") from None
    except Exception as e:  # sgfmill on truly odd input
        raise SgfError(f"SGF: parse error: {type(e).__name__}: {e}") from None


def _text(node: sgf.Tree_node, ident: str) -> str:
    if not node.has_property(ident):
        return ""
    try:
        return str(node.get(ident))
    except ValueError:
        return _raw(node, ident)


def _root_info(sg: sgf.Sgf_game, notes: list[str] | None) -> tuple[int, Ruleset, float, int]:
    root = sg.get_root()
    if root.has_property("GM") and _raw(root, "GM").strip() != "1":
        raise SgfError(f"SGF: not a Go game (GM[{_raw(root, 'GM')}])")
    size = sg.get_size()
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise SgfError(f"SGF: board size {size} is not supported (only {MIN_SIZE}..{MAX_SIZE})")
    ruleset = ruleset_from_sgf(_text(root, "RU") or None, notes)
    try:
        komi = float(sg.get_komi())
    except ValueError:
        try:  # "6,5" from some servers
            komi = float(_raw(root, "KM").strip().replace(",", "."))
        except ValueError:
            raise SgfError(f"SGF: bad komi KM[{_raw(root, 'KM')}]") from None
    try:
        handicap = sg.get_handicap() or 0
    except ValueError:
        raise SgfError(f"SGF: bad handicap HA[{_raw(root, 'HA')}]") from None
    return size, ruleset, komi, handicap


def _move_text(color: int, raw: str) -> str:
    return f"{'B' if color == BLACK else 'W'}[{raw}]"


def from_sgfmill(sg: sgf.Sgf_game, notes: list[str] | None = None) -> Game:
    """A Game built from an sgfmill game tree's main line (raises SgfError)."""
    size, ruleset, komi, handicap = _root_info(sg, notes)
    root = sg.get_root()
    game = Game(size, ruleset, komi)
    info = GameInfo(
        black_name=_text(root, "PB"),
        white_name=_text(root, "PW"),
        date=_text(root, "DT"),
        comment=_text(root, "C"),
    )
    result = _text(root, "RE").strip()
    try:
        nodes = sg.get_main_sequence()
    except Exception as e:
        raise SgfError(f"SGF: parse error: {e}") from None

    # setup stones: allowed in the nodes before the first move
    setup: dict[int, int] = {}
    first_move_color = 0
    for i, node in enumerate(nodes):
        if node.has_setup_stones():
            if first_move_color:
                raise SgfError(
                    f"SGF: setup stones (AB/AW/AE) after the first move are not supported (node {i})"
                )
            try:
                ab, aw, ae = node.get_setup_stones()
            except ValueError:
                raise SgfError(f"SGF: bad setup stones in node {i}") from None
            for row, col in ab & aw:
                raise SgfError(
                    f"SGF: setup point {format_vertex(to_index(col, row, size), size)} is both AB and AW"
                )
            for color, pts in ((BLACK, ab), (WHITE, aw)):
                for row, col in pts:
                    setup[to_index(col, row, size)] = color
            for row, col in ae:
                setup.pop(to_index(col, row, size), None)
        if not first_move_color:
            letter, _ = node.get_raw_move()
            if letter is not None:
                first_move_color = _LETTER_COLOR[letter]
    pl = _text(root, "PL").strip().lower()[:1]
    if pl in _LETTER_COLOR:
        start_color = _LETTER_COLOR[pl]
    elif first_move_color:
        start_color = first_move_color
    else:
        start_color = WHITE if handicap and setup else BLACK
    if setup:
        try:
            game.add_setup(sorted(setup.items()), to_move=start_color)
        except (IllegalMove, ValueError) as e:
            raise SgfError(f"SGF: bad setup stones ({e})") from None
    else:
        game.positions[0].to_move = start_color
    game.handicap = handicap

    for i, node in enumerate(nodes):
        letter, raw = node.get_raw_move()
        comment = _text(node, "C") if i > 0 else ""
        if letter is None:
            if comment:
                if game.moves:
                    last = game.moves[-1]
                    game.moves[-1] = dataclasses.replace(
                        last, comment=f"{last.comment}\n\n{comment}" if last.comment else comment
                    )
                else:
                    info.comment = f"{info.comment}\n\n{comment}" if info.comment else comment
            continue
        if node.has_property("B") and node.has_property("W"):
            raise SgfError(f"SGF: node {i} has both a black and a white move")
        color = _LETTER_COLOR[letter]
        raw_text = raw.decode("latin-1")
        number = len(game.moves) + 1
        try:
            move = node.get_move()[1]
        except ValueError:
            raise SgfError(f"SGF: bad move {_move_text(color, raw_text)} at move {number}") from None
        point = PASS if move is None else to_index(move[1], move[0], size)
        try:
            game.play(point, color, comment)
        except IllegalMove as e:
            raise SgfError(
                f"SGF: illegal move {_move_text(color, raw_text)} at move {number} ({e})"
            ) from None

    upper = result.upper()
    if upper[:2] in ("B+", "W+") and upper[2:] in ("R", "RESIGN") and not game.over:
        loser = WHITE if upper[0] == "B" else BLACK
        game.play(RESIGN, loser)
    elif result and not (game.over and game.result == result):
        # a result the record does not give by itself (dead stones, time, forfeit): keep it as written
        info.extra_result = result
    game.info = info
    return game


def parse_sgf(data: bytes | str, notes: list[str] | None = None) -> Game:
    """A Game from SGF text or bytes (raises SgfError with one line)."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if not raw.strip():
        raise SgfError("SGF: empty file")
    # text already decoded is read as UTF-8 whatever CA says
    sg = _parse(raw, "UTF-8" if isinstance(data, str) else None)
    return from_sgfmill(sg, notes)


def read_sgf(path: str | os.PathLike[str], notes: list[str] | None = None) -> Game:
    """A Game from an SGF file (raises SgfError with one line, also for unreadable files)."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise SgfError(f"SGF: cannot read '{os.fspath(path)}': {e.strerror or e}") from None
    return parse_sgf(data, notes)


def load_sgf(source: bytes | str | os.PathLike[str], notes: list[str] | None = None) -> Game:
    """A Game from SGF bytes, SGF text (starting with '(' or spanning lines) or a file path.

    Unknown rules fall back to chinese; such remarks go to ``notes`` when given.
    Raises :class:`SgfError` (a ValueError) with one line naming the problem.
    """
    if isinstance(source, bytes | bytearray | memoryview):
        return parse_sgf(bytes(source), notes)
    if isinstance(source, str):
        source = source.removeprefix("\ufeff")
    if isinstance(source, str) and (not source.strip() or source.lstrip().startswith("(") or "\n" in source):
        return parse_sgf(source, notes)
    return read_sgf(source, notes)


__all__ = ["SgfError", "load_sgf", "parse_sgf", "read_sgf", "save_sgf", "write_sgf", "ruleset_from_sgf"]
