"""SGF FF[4] game records: save a :class:`Game` and load one back (sgfmill underneath).

What is written: FF, GM, CA, AP, SZ, KM, RU, HA with AB/AW and PL for setup
stones, PB/PW, DT, RE, the root comment C, and one node per move with its
comment. Passes are written ``B[tt]`` on boards up to 19x19 and ``B[]`` on
larger ones; a resignation is not a move in SGF, it shows only in RE.

Loading follows the main line and builds the game through :meth:`Game.play`,
so an illegal move is refused. Anything broken or unsupported raises
:class:`SgfError` with one line naming the problem (``SGF: illegal move W[dd]
at move 12 (occupied)``); nothing half-loaded is returned.

The whole record, every variation with its comments (C), names (N), markup
(TR, SQ, CR, MA, LB) and the properties we do not interpret (kept as read),
loads as a :class:`gorilla.rules.gametree.GameTree` (:func:`load_tree`,
:func:`parse_sgf_tree`: every variation is played through the rules, so a bad
move anywhere refuses the file) and saves back (:func:`save_tree`); a game
(:func:`save_sgf`) is written as a one-line tree.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

from sgfmill import sgf, sgf_grammar, sgf_properties

from gorilla import __version__
from gorilla.rules.board import BLACK, MAX_SIZE, MIN_SIZE, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, to_index, to_xy
from gorilla.rules.game import Game, GameInfo
from gorilla.rules.gametree import MARKS, GameTree, Node
from gorilla.rules.position import IllegalMove
from gorilla.rules.rulesets import CHINESE, JAPANESE, LITTLE_GO, TROMP_TAYLOR, Ruleset, get_ruleset


class SgfError(ValueError):
    """A broken or unsupported SGF; str() is one line starting with 'SGF:'.

    Bytes quoted from the file (a bad move, an odd value) show as printable text: other
    characters become '?', and a very long line is cut.
    """

    def __init__(self, message: str) -> None:
        text = "".join(ch if ch.isprintable() else "?" for ch in str(message))
        super().__init__(text if len(text) <= 200 else text[:197] + "...")


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


def _set_up(game: Game, setup: dict[int, int], to_move: int, handicap: int) -> None:
    """The start position of a record: its setup stones (AB/AW) and who moves first; SgfError
    on stones the rules refuse."""
    if setup:
        try:
            game.add_setup(sorted(setup.items()), to_move=to_move)
        except (IllegalMove, ValueError) as e:
            raise SgfError(f"SGF: bad setup stones ({e})") from None
    else:
        game.positions[0].to_move = to_move
    game.handicap = handicap


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
    """The game as an sgfmill game tree (its moves, not its redo list), with the clock when given."""
    line = game.copy()
    line.redo_stack = []
    return tree_to_sgfmill(GameTree.from_game(line), timing)


# the root properties the writer makes itself (everything else a root holds is written back as read)
_ROOT_MADE = frozenset(
    {"FF", "GM", "CA", "AP", "SZ", "KM", "RU", "HA", "PB", "PW", "DT", "RE", "C", "TM", "OT", "PL"}
    | {"AB", "AW", "AE", "B", "W", "N", "LB", *MARKS}
)
_NODE_MADE = frozenset({"B", "W", "C", "N", "LB", "AB", "AW", "AE", "PL", *MARKS})


def _write_root(sg: sgf.Sgf_game, tree: GameTree, timing: Timing | None) -> None:
    start, size = tree.start, tree.start.size
    root = sg.get_root()
    root.set("AP", ("Gorilla", __version__))
    root.set("KM", float(start.komi))
    root.set("RU", start.ruleset.sgf_name or start.ruleset.name)
    if start.handicap:
        root.set("HA", int(start.handicap))
    black = {_sgf_point(p, size) for p, c in start.setup.items() if c == BLACK}
    white = {_sgf_point(p, size) for p, c in start.setup.items() if c == WHITE}
    if black or white:
        root.set_setup_stones(black, white)
    if black or white or start.positions[0].to_move != BLACK:
        root.set("PL", _COLOR_LETTER[start.positions[0].to_move])
    info = tree.info
    if info.black_name:
        root.set("PB", info.black_name)
    if info.white_name:
        root.set("PW", info.white_name)
    if info.date:
        root.set("DT", info.date)
    if tree.result:
        root.set("RE", tree.result)
    if timing is not None:
        root.set("TM", float(timing.main))
        if timing.overtime:
            root.set("OT", timing.overtime)


def _write_node_text(out: sgf.Tree_node, node: Node, size: int, made: frozenset[str]) -> None:
    """A node's comment, name, markup and other properties onto an sgfmill node."""
    for ident, values in node.extra.items():
        if ident not in made and values:
            out.set_raw_list(ident, values)
    if node.comment:
        out.set("C", node.comment)
    if node.name:
        out.set("N", node.name)
    for ident in MARKS:
        points = node.marks.get(ident)
        if points:
            out.set(ident, {_sgf_point(p, size) for p in points})
    if node.labels:
        out.set("LB", [(_sgf_point(p, size), text) for p, text in sorted(node.labels.items())])


def tree_to_sgfmill(tree: GameTree, timing: Timing | None = None) -> sgf.Sgf_game:
    """The whole record as an sgfmill game tree: every variation, comment, name and mark.

    With timing, BL/WL (and OB/OW) go on the moves of the current line. A resignation is
    no node in SGF: it shows in RE (its comment joins the move before it).
    """
    size = tree.start.size
    sg = sgf.Sgf_game(size)
    _write_root(sg, tree, timing)
    _write_node_text(sg.get_root(), tree.root, size, _ROOT_MADE)
    on_line = {id(n): i for i, n in enumerate(tree.path()[1:], 1)} if timing is not None else {}
    stack: list[tuple[Node, sgf.Tree_node]] = [(c, sg.get_root()) for c in reversed(tree.root.children)]
    while stack:
        node, parent = stack.pop()
        if node.point == RESIGN:
            if node.comment:
                parent.add_comment_text(node.comment)
            continue
        out = parent.new_child()
        out.set_move(_COLOR_LETTER[node.color], _sgf_point(node.point, size))
        _write_node_text(out, node, size, _NODE_MADE)
        number = on_line.get(id(node))
        left = timing.left.get(number) if timing is not None and number is not None else None
        if left is not None:
            letter = "B" if node.color == BLACK else "W"
            out.set_raw(f"{letter}L", f"{left[0]:.1f}".encode())
            if left[1]:
                out.set_raw(f"O{letter}", str(int(left[1])).encode())
        stack.extend((c, out) for c in reversed(node.children))
    return sg


def save_tree(tree: GameTree, timing: Timing | None = None) -> str:
    """The whole record (variations, comments, markup) as SGF FF[4] text."""
    return tree_to_sgfmill(tree, timing).serialise().decode("utf-8")


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
    """The move as the file has it, for a message: a long value (a damaged file's move that runs
    into the next nodes) cut to its start."""
    return f"{'B' if color == BLACK else 'W'}[{raw if len(raw) <= 24 else raw[:21] + '...'}]"


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
    _set_up(game, setup, start_color, handicap)

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


def _setup_of(node: sgf.Tree_node, size: int, where: str) -> tuple[dict[int, int], set[int]]:
    """A node's AB/AW as point -> colour and its AE points (raises SgfError)."""
    try:
        ab, aw, ae = node.get_setup_stones()
    except ValueError:
        raise SgfError(f"SGF: bad setup stones in {where}") from None
    for row, col in ab & aw:
        raise SgfError(f"SGF: setup point {format_vertex(to_index(col, row, size), size)} is both AB and AW")
    stones = {
        to_index(col, row, size): color for color, pts in ((BLACK, ab), (WHITE, aw)) for row, col in pts
    }
    return stones, {to_index(col, row, size) for row, col in ae}


def _node_text(
    node: sgf.Tree_node, presenter: sgf_properties.Presenter, made: frozenset[str], into: Node
) -> None:
    """Comment, name, markup and the other properties of an sgfmill node, added to ``into``.

    Markup with a point off the board, or a label without its text, is left out (nothing to
    draw); the rest is kept.
    """
    size, encoding = presenter.size, presenter.encoding
    comment = _text(node, "C")
    if comment:
        into.comment = f"{into.comment}\n\n{comment}" if into.comment else comment
    name = _text(node, "N")
    if name and not into.name:
        into.name = name
    for ident in MARKS:
        if node.has_property(ident):
            for raw in node.get_raw_list(ident):
                with contextlib.suppress(ValueError):
                    for row, col in sgf_properties.interpret_point_list([raw], presenter):
                        into.marks.setdefault(ident, set()).add(to_index(col, row, size))
    if node.has_property("LB"):
        for raw in node.get_raw_list("LB"):
            with contextlib.suppress(ValueError, TypeError):  # TypeError: sgfmill's for a label without ':'
                for (row, col), text in sgf_properties.interpret_LB_list([raw], presenter):
                    into.labels[to_index(col, row, size)] = text
    for ident in node.properties():
        values = [v.decode(encoding, "replace").encode("utf-8") for v in node.get_raw_list(ident)]
        if (
            ident not in made
            and sgf_grammar.is_valid_property_identifier(ident)
            and values
            and all(sgf_grammar.is_valid_property_value(v) for v in values)
        ):
            into.extra[ident] = values  # written back as read (an odd name, FF[3]'s "CoPyright", is not)


def tree_from_sgfmill(sg: sgf.Sgf_game, notes: list[str] | None = None) -> GameTree:
    """The whole record as a :class:`GameTree`: every variation is played through the rules.

    Set-up stones (AB/AW/AE, PL) are read from the root and the move-less nodes before the
    first move; set-up anywhere else, an illegal move or a broken value in any variation
    refuses the file with one line (:class:`SgfError`). A node without a move later on
    joins the move before it (its comment and markup). The current node is the main line's end.
    """
    size, ruleset, komi, handicap = _root_info(sg, notes)
    sroot = sg.get_root()
    info = GameInfo(black_name=_text(sroot, "PB"), white_name=_text(sroot, "PW"), date=_text(sroot, "DT"))
    result = _text(sroot, "RE").strip()
    root = Node()
    _node_text(sroot, sg.presenter, _ROOT_MADE, root)

    # the leading move-less nodes: set-up stones and root text
    setup: dict[int, int] = {}
    lead = sroot
    while True:
        if lead.has_setup_stones():
            stones, empty = _setup_of(lead, size, "the start position")
            setup.update(stones)
            for p in empty:
                setup.pop(p, None)
        if lead is not sroot:
            _node_text(lead, sg.presenter, _NODE_MADE, root)
        if lead.get_raw_move()[0] is not None or len(lead) != 1 or lead[0].get_raw_move()[0] is not None:
            break
        lead = lead[0]
    start = Game(size, ruleset, komi)
    pl = _text(sroot, "PL").strip().lower()[:1]
    first = _first_move_color(lead)
    color = _LETTER_COLOR.get(pl) or first or (WHITE if handicap and setup else BLACK)
    _set_up(start, setup, color, handicap)
    info.comment = root.comment
    start.info = info

    game = start.copy()
    # (sgfmill node, the tree node its moves hang from, moves before it); the lead's own move first
    todo: list[tuple[sgf.Tree_node, Node, int]] = []
    if lead.get_raw_move()[0] is not None:
        todo.append((lead, root, 0))
    else:
        todo.extend((c, root, 0) for c in reversed(list(lead)))
    while todo:
        snode, parent, before = todo.pop()
        while len(game.moves) > before:
            game.undo()
        game.redo_stack.clear()
        node = _play_node(snode, game, parent, sg.presenter)
        todo.extend((c, node, len(game.moves)) for c in reversed(list(snode)))

    upper = result.upper()
    if upper[:2] in ("B+", "W+") and upper[2:] in ("R", "RESIGN"):
        end = root
        while end.children:
            end = end.children[0]
        if end.point != RESIGN:
            line = start.copy()
            for n in GameTree(start, root).path(end)[1:]:
                line.play(n.point, n.color)
            if not line.over:
                end.add(Node(WHITE if upper[0] == "B" else BLACK, RESIGN))
    tree = GameTree(start, root, result or None)
    end = root
    while end.children:
        end = end.children[0]
    tree.current = end
    return tree


def _first_move_color(node: sgf.Tree_node) -> int:
    """The colour of the first move on the main sequence from node."""
    while True:
        letter = node.get_raw_move()[0]
        if letter is not None:
            return _LETTER_COLOR[letter]
        if not len(node):
            return 0
        node = node[0]


def _play_node(snode: sgf.Tree_node, game: Game, parent: Node, presenter: sgf_properties.Presenter) -> Node:
    """One sgfmill node played on game below parent: its move node, or parent for a move-less node."""
    size = presenter.size
    number = len(game.moves) + 1
    if snode.has_setup_stones():
        raise SgfError(f"SGF: setup stones (AB/AW/AE) after the first move are not supported (move {number})")
    letter, raw = snode.get_raw_move()
    if letter is None:
        _node_text(snode, presenter, _NODE_MADE, parent)
        return parent
    if snode.has_property("B") and snode.has_property("W"):
        raise SgfError(f"SGF: a node at move {number} has both a black and a white move")
    color = _LETTER_COLOR[letter]
    raw_text = raw.decode("latin-1")
    try:
        move = snode.get_move()[1]
    except ValueError:
        raise SgfError(f"SGF: bad move {_move_text(color, raw_text)} at move {number}") from None
    point = PASS if move is None else to_index(move[1], move[0], size)
    existing = parent.child_for(color, point)
    try:
        game.play(point, color)
    except IllegalMove as e:
        raise SgfError(f"SGF: illegal move {_move_text(color, raw_text)} at move {number} ({e})") from None
    node = existing or parent.add(Node(color, point))
    _node_text(snode, presenter, _NODE_MADE, node)
    return node


def parse_sgf_tree(data: bytes | str, notes: list[str] | None = None) -> GameTree:
    """The whole record from SGF text or bytes (raises SgfError with one line)."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if not raw.strip():
        raise SgfError("SGF: empty file")
    try:
        return tree_from_sgfmill(_parse(raw, "UTF-8" if isinstance(data, str) else None), notes)
    except SgfError:
        raise
    except RecursionError:
        raise SgfError("SGF: the tree is nested too deeply") from None
    except (ValueError, KeyError, IndexError, TypeError, UnicodeError) as e:  # sgfmill on odd values
        raise SgfError(f"SGF: bad value ({type(e).__name__}: {str(e)[:80]})") from None


def load_tree(source: bytes | str | os.PathLike[str], notes: list[str] | None = None) -> GameTree:
    """The whole record from SGF bytes, text or a file path (what the window and ``gorilla analyze`` read).

    Raises :class:`SgfError` (a ValueError) with one line; nothing half-loaded is returned.
    """
    if isinstance(source, bytes | bytearray | memoryview):
        return parse_sgf_tree(bytes(source), notes)
    if isinstance(source, str):
        source = source.removeprefix("\ufeff")
        if not source.strip() or source.lstrip().startswith("(") or "\n" in source:
            return parse_sgf_tree(source, notes)
    try:
        data = Path(source).read_bytes()
    except OSError as e:
        raise SgfError(f"SGF: cannot read '{os.fspath(source)}': {e.strerror or e}") from None
    return parse_sgf_tree(data, notes)


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


__all__ = [
    "SgfError",
    "load_sgf",
    "load_tree",
    "parse_sgf",
    "parse_sgf_tree",
    "read_sgf",
    "save_sgf",
    "save_tree",
    "write_sgf",
    "ruleset_from_sgf",
]
