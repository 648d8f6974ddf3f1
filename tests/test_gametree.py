"""The record as a tree: variations made by playing at an old position, switching, promoting,
deleting (and undoing it), comments, set-up stones, through the controller and through SGF
files written by another program (sgfmill here) with variations, comments and markup."""

from __future__ import annotations

import pytest
from helpers import assert_board, v
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sgfmill import sgf as sgfmill

from gorilla.app.go.controller import Controller
from gorilla.app.status_text import status_lines
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree
from gorilla.rules.sgf import SgfError, load_sgf, load_tree, save_tree


def moves_of(game: Game) -> list[str]:
    """The moves of the line on the board as 'B D4', the redo list after a '|'."""
    done = [f"{'BW'[m.color - 1]} {vx(m.point)}" for m in game.moves]
    rest = [f"{'BW'[m.color - 1]} {vx(m.point)}" for m in reversed(game.redo_stack)]
    return [*done, "|", *rest]


def vx(p: int, size: int = 9) -> str:
    from gorilla.rules.coords import format_vertex

    return format_vertex(p, size)


def play(c: Controller, *vertices: str) -> None:
    for vertex in vertices:
        assert c.click(v(vertex)), c.message


# --- through the controller ----------------------------------------------------------------------
def saved_and_loaded(c: Controller, path) -> tuple[str, Controller]:
    """c's game saved to path: the file's text, and another controller (a 19x19 game) that loaded it."""
    c.save(str(path))
    d = Controller(Game.new(19))
    d.load(str(path))
    return path.read_text(), d


def test_playing_at_an_old_position_makes_a_variation_and_keeps_the_rest() -> None:
    c = Controller(Game.new(9))
    play(c, "E5", "C3", "G7", "C7")
    c.go_back(2)
    assert moves_of(c.game) == ["B E5", "W C3", "|", "B G7", "W C7"]
    play(c, "G3")  # a different move at move 3: a new variation, G7 and C7 stay
    assert moves_of(c.game) == ["B E5", "W C3", "B G3", "|"]
    branch = c.tree.path()[2]
    assert [vx(n.point) for n in branch.children] == ["G7", "G3"]
    assert len(c.tree) == 1 + 5
    # the same move as the record's follows the record (no duplicate)
    c.go_back(1)
    play(c, "G7")
    assert moves_of(c.game) == ["B E5", "W C3", "B G7", "|", "W C7"]
    assert len(c.tree) == 6
    assert not any("variations here" in ln for ln in status_lines(c))  # at G7: one continuation
    c.go_back(1)
    assert "2 variations here: B G7 (next), B G3" in status_lines(c)


def test_arrows_home_end_and_ten_moves() -> None:
    c = Controller(Game.new(9))
    for i in range(12):
        play(c, f"{'ABCDEFGHJ'[i % 9]}{1 + i // 9 * 2 + (i % 2) * 4}")
    assert c.game.move_number == 12
    assert c.go_start() and c.game.move_number == 0 and len(c.game.redo_stack) == 12
    assert c.go_forward(10) and c.game.move_number == 10
    assert c.go_forward(10) and c.game.move_number == 12
    assert not c.go_forward() and "end" in c.message
    assert c.go_back(10) and c.game.move_number == 2
    assert c.go_end() and c.game.move_number == 12
    assert c.goto_move(5) and c.game.move_number == 5
    replay = c.game.replay()  # the position is the one the rules give for the line
    assert replay.position == c.game.position


def test_up_down_switch_variations_at_the_nearest_branch() -> None:
    c = Controller(Game.new(9))
    play(c, "E5", "C3", "G7", "C7")
    c.go_back(3)  # after E5
    play(c, "G3", "G7")  # second variation at move 2
    c.go_back(2)
    play(c, "C7")  # third variation at move 2
    assert [vx(n.point) for n in c.tree.path()[1].children] == ["C3", "G3", "C7"]
    assert c.game.move_number == 2 and vx(c.game.moves[-1].point) == "C7"
    assert c.switch_variation(-1)  # up: the previous variation, same move number
    assert moves_of(c.game)[:3] == ["B E5", "W G3", "|"]
    play(c, "D4")  # a variation at move 3 of the second variation
    c.go_back(1)
    c.go_forward(1)
    assert vx(c.game.moves[-1].point) == "D4"
    assert c.switch_variation(-1)  # the nearest branching point is at move 3: G7 instead of D4
    assert moves_of(c.game) == ["B E5", "W G3", "B G7", "|"]
    assert not c.switch_variation(-1) and "No more variations" in c.message
    c.go_back(1)  # at move 2, up goes to the main line and down it as far as it went
    assert c.switch_variation(-1)
    assert moves_of(c.game) == ["B E5", "W C3", "|", "B G7", "W C7"]
    assert c.switch_variation(1)  # down again: the second variation follows its line last seen (G7)
    assert moves_of(c.game) == ["B E5", "W G3", "|", "B G7"]
    assert c.switch_variation(1) and moves_of(c.game) == ["B E5", "W C7", "|"]
    assert "Line: a variation, branching at move 2 (3 of 3)" in status_lines(c)
    assert not c.switch_variation(1)


def test_promote_to_main_line_and_delete_with_undo() -> None:
    c = Controller(Game.new(9))
    play(c, "E5", "C3", "G7")
    c.go_back(2)
    play(c, "G3", "C7")
    assert not c.tree.on_main_line()
    assert c.promote_variation()
    assert c.tree.on_main_line()
    assert [vx(n.point) for n in c.tree.main_line()] == ["E5", "G3", "C7"]
    assert "Line: main line, branching at move 2 (1 of 2)" in status_lines(c)
    assert [vx(n.point) for n in c.tree.root.children[0].children] == ["G3", "C3"]
    assert not c.promote_variation() and "main line already" in c.message
    # delete G3 (and C7 after it): the board goes back to E5, the other variation is the line
    c.go_back(1)
    assert c.delete_branch()
    assert moves_of(c.game) == ["B E5", "|", "W C3", "B G7"]
    assert len(c.tree) == 4
    assert c.undo()  # puts the branch back
    assert len(c.tree) == 6
    assert moves_of(c.game) == ["B E5", "W G3", "|", "B C7"]
    # once something else happens, undo is a plain undo again
    assert c.delete_branch()
    play(c, "D4")
    assert c.undo() and len(c.tree) == 5
    assert c.go_start() and c.game.move_number == 0
    assert not c.delete_branch() and "Nothing to delete" in c.message


def test_the_ai_waits_while_reviewing(monkeypatch) -> None:
    c = Controller(Game.new(9), "human", "random")
    play(c, "E5")
    assert c.wait(30) and c.game.move_number == 2
    c.go_back(1)  # White (the AI) to move: it does not play while the record is reviewed
    c.poll()
    assert not c.thinking and c.game.move_number == 1
    assert "Reviewing: the AI waits (space: it plays from here)" in status_lines(c)
    c.advance()  # space: the AI plays from here
    assert c.wait(30) and c.game.move_number == 2 and not c.reviewing
    c.go_back(1)
    c.go_back(1)
    play(c, "D4")  # a move goes on: the AI answers again
    assert c.wait(30) and c.game.move_number == 2
    assert len(c.tree.root.children) == 2


def test_comments_edit_save_and_load(tmp_path) -> None:
    c = Controller(Game.new(9))
    c.set_comment("the start")
    play(c, "E5", "C3")
    c.set_comment("a [bracketed] reply\nsecond line")
    c.go_back(1)
    assert c.comment == ""
    c.set_comment("centre")
    assert "Comment: centre" in status_lines(c)
    text, d = saved_and_loaded(c, tmp_path / "c.sgf")
    assert "C[the start]" in text and "C[centre]" in text and "a [bracketed\\] reply" in text
    assert d.comment == "a [bracketed] reply\nsecond line"
    d.go_start()
    assert d.comment == "the start" and d.game.info.comment == "the start"
    assert load_sgf(text).moves[0].comment == "centre"


def test_undo_redo_walk_the_line_and_keep_the_tree() -> None:
    c = Controller(Game.new(9))
    play(c, "E5", "C3")
    assert c.undo() and c.game.move_number == 1
    play(c, "G3")
    assert c.undo() and c.undo() and c.game.move_number == 0
    assert c.redo() and c.redo()
    assert moves_of(c.game) == ["B E5", "W G3", "|"]  # redo follows the line last played
    assert len(c.tree) == 4


def test_set_up_mode_places_and_removes_stones_and_chooses_the_side(tmp_path) -> None:
    c = Controller(Game.new(9))
    assert c.toggle_setup()
    for vertex in ("C3", "D4"):
        assert c.setup_click(v(vertex), BLACK)
    assert c.click(v("E5"))  # a left click in set-up mode is a black stone too
    assert c.setup_click(v("F6"), WHITE)
    assert c.setup_click(v("D4"), WHITE)  # a click on a stone takes it off
    assert c.setup_side_to_move(WHITE)
    assert c.toggle_setup() and not c.editing
    assert_board(
        c.game,
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . O . . .
        . . . . X . . . .
        . . . . . . . . .
        . . X . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """,
    )
    assert c.game.to_move == WHITE
    play(c, "G7")  # White plays first from the set-up position
    text, d = saved_and_loaded(c, tmp_path / "setup.sgf")
    assert "AB[cg][ee]" in text and "AW[fd]" in text and "PL[W]" in text
    assert d.game.setup == c.game.setup and d.game.moves == c.game.moves
    d.go_start()
    assert d.game.to_move == WHITE
    # on a record with moves, the set-up starts a new record from the position on the board ...
    d.go_end()
    assert d.toggle_setup() and "a new record" in d.message
    assert len(d.tree) == 1 and d.game.setup == {**c.game.setup, v("G7"): WHITE}
    assert d.game.to_move == BLACK
    d.setup_click(v("A1"), BLACK)
    assert v("A1") in d.game.setup
    assert d.undo()  # ... and undo, while it lasts, brings the old record back
    assert not d.editing and d.game.moves == c.game.moves and len(d.tree) == 2
    assert d.toggle_setup() and d.toggle_setup()  # leaving the set-up mode keeps the new record
    assert not d.undo() and len(d.tree) == 1


def test_set_up_refuses_a_stone_without_liberties() -> None:
    c = Controller(Game.new(9))
    c.toggle_setup()
    for vertex in ("A2", "B1"):
        c.setup_click(v(vertex), BLACK)
    setup = dict(c.game.setup)
    assert not c.setup_click(v("A1"), WHITE)
    assert c.message.startswith("Not there") and c.game.setup == setup


def test_gtp_and_the_terminal_follow_the_main_line() -> None:
    text = "(;SZ[9];B[ee](;W[cc];B[gg])(;W[gc]))"
    assert [vx(m.point) for m in load_sgf(text).moves] == ["E5", "C7", "G3"]
    tree = load_tree(text)
    assert [vx(m.point) for m in tree.main_line_game().moves] == ["E5", "C7", "G3"]
    assert tree.line_game().moves == tree.main_line_game().moves


# --- through SGF files written by another program ------------------------------------------------
def sgfmill_file() -> bytes:
    """A record as another program writes it: variations, comments, names, markup, set-up stones."""
    g = sgfmill.Sgf_game(9)
    root = g.get_root()
    root.set("C", "Problem: Black to live")
    root.set("GN", "test game")
    root.set_setup_stones({(0, 0)}, {(8, 8)})
    root.set("PL", "b")
    a = root.new_child()
    a.set_move("b", (4, 4))
    a.set("C", "the centre")
    a.set("N", "tengen")
    a.set("TR", {(2, 2), (6, 6)})
    a.set("LB", [((2, 6), "a"), ((6, 2), "b")])
    b1 = a.new_child()
    b1.set_move("w", (2, 2))
    b1.set("SQ", {(3, 3)})
    b1.set("CR", {(4, 4)})
    b1.set("MA", {(5, 5)})
    c1 = b1.new_child()
    c1.set_move("b", (6, 6))
    b2 = a.new_child()
    b2.set_move("w", (6, 2))
    b2.set("C", "the side variation")
    b2.set_raw("XX", b"kept as read")
    b3 = a.new_child()
    b3.set_move("w", None)
    return g.serialise()


def test_a_file_from_another_program_loads_with_every_variation_comment_and_mark() -> None:
    tree = load_tree(sgfmill_file())
    assert len(tree) == 1 + 1 + 3 + 1
    assert tree.root.comment == "Problem: Black to live"
    assert tree.start.setup == {v("A1"): BLACK, v("J9"): WHITE}
    first = tree.root.children[0]
    assert (first.color, vx(first.point), first.comment, first.name) == (BLACK, "E5", "the centre", "tengen")
    assert first.marks["TR"] == {v("C3"), v("G7")}
    assert first.labels == {v("G3"): "a", v("C7"): "b"}
    w = first.children
    assert [vx(n.point) for n in w] == ["C3", "C7", "pass"] and w[2].point == PASS
    assert (w[0].marks["SQ"], w[0].marks["CR"], w[0].marks["MA"]) == ({v("D4")}, {v("E5")}, {v("F6")})
    assert w[1].comment == "the side variation" and w[1].extra["XX"] == [b"kept as read"]
    assert [vx(m.point) for m in tree.line_game().moves] == ["E5", "C3", "G7"]


def test_round_trip_of_a_tree_changes_nothing_we_understand() -> None:
    tree = load_tree(sgfmill_file())
    text = save_tree(tree)
    again = load_tree(text)
    assert save_tree(again) == text
    # and sgfmill reads every node back, the properties it was given included
    g = sgfmill.Sgf_game.from_string(text)
    nodes = []
    stack = [g.get_root()]
    while stack:
        n = stack.pop()
        nodes.append(n)
        stack.extend(n)
    assert len(nodes) == 6
    theirs = sgfmill.Sgf_game.from_bytes(sgfmill_file())
    ours_root, their_root = g.get_root(), theirs.get_root()
    for ident in ("C", "GN", "AB", "AW", "PL"):
        assert ours_root.get(ident) == their_root.get(ident), ident
    for a, b in zip(g.get_main_sequence(), theirs.get_main_sequence(), strict=True):
        assert a.get_move() == b.get_move()
        for ident in ("C", "N", "TR", "SQ", "CR", "MA", "LB"):
            assert a.has_property(ident) == b.has_property(ident), ident
            if a.has_property(ident):
                got, want = a.get(ident), b.get(ident)
                assert (sorted(got) if isinstance(got, list) else got) == (
                    sorted(want) if isinstance(want, list) else want
                ), ident


def test_controller_loads_saves_and_navigates_a_file_with_variations(tmp_path) -> None:
    path = tmp_path / "their.sgf"
    path.write_bytes(sgfmill_file())
    c = Controller(Game.new(19), autosave=str(tmp_path / "auto.sgf"))
    c.load(str(path))
    assert c.message.startswith("Loaded") and c.game.move_number == 3
    c.go_back(2)
    assert "3 variations here: W C3 (next), W C7, W pass" in status_lines(c)
    c.go_forward(1)
    assert c.switch_variation(1) and vx(c.game.moves[-1].point) == "C7"
    assert "Comment: the side variation" in status_lines(c)
    c.go_back(1)
    assert "Name: tengen" in status_lines(c)
    c.go_forward(1)
    assert "Line: a variation, branching at move 2 (2 of 3)" in status_lines(c)
    out = tmp_path / "out.sgf"
    c.save(str(out))
    assert load_tree(out.read_bytes()).root.children[0].children[1].extra["XX"] == [b"kept as read"]
    assert len(load_tree(out.read_bytes())) == 6


def test_a_broken_variation_refuses_the_file_and_the_game_stays(tmp_path) -> None:
    c = Controller(Game.new(9))
    play(c, "E5")
    path = tmp_path / "bad.sgf"
    path.write_text("(;SZ[9];B[ee](;W[cc])(;W[ee]))")  # the second variation plays on a stone
    before = (c.game.moves, len(c.tree))
    c.load(str(path))
    assert c.message == "Cannot load " + str(path) + ": SGF: illegal move W[ee] at move 2 (occupied)"
    assert (c.game.moves, len(c.tree)) == before
    with pytest.raises(SgfError, match="after the first move"):
        load_tree("(;SZ[9];B[ee];AB[aa];W[cc])")


def test_tree_from_a_game_keeps_its_redo_list() -> None:
    g = Game.new(9)
    for vertex in ("E5", "C3", "G7"):
        g.play(v(vertex))
    g.undo()
    tree = GameTree.from_game(g)
    assert tree.current.depth == 2 and [vx(n.point) for n in tree.continuation()] == ["G7"]
    assert tree.line_game().redo_stack == g.redo_stack


def test_the_recorded_result_follows_the_main_line(tmp_path) -> None:
    path = tmp_path / "auto.sgf"
    c = Controller(Game.new(9), autosave=str(path))
    play(c, "E5", "C3")
    assert c.resign()  # Black resigns: W+R on the main line
    c.flush_autosave()
    assert "RE[W+R]" in path.read_text()
    c.go_back(2)
    play(c, "G3")  # a new line, a variation: the autosave keeps the tree's order and its RE
    c.flush_autosave()
    text = path.read_text()
    assert "RE[W+R]" in text and "GORILLALINE[2:1]" in text  # the line on show, for --resume
    tree = load_tree(text)
    assert [vx(n.point) for n in tree.main_line()] == ["E5", "C3", "resign"]  # RE[W+R], read back
    # the resigned line stays the main line (SGF has no node for a resignation, only its RE)
    assert [vx(n.point) for n in tree.root.children[0].children] == ["C3", "G3"]
    c.go_to_node(c.tree.root.children[0].children[0].children[0])  # back to the resigned line's end
    assert c.over and c.result == "W+R"
    assert c.promote_variation() is False  # C3 is still the main line in the controller's tree


def test_the_app_started_with_load_has_every_variation(tmp_path) -> None:
    from gorilla.launcher.cli import build_controller, parse_args

    path = tmp_path / "v.sgf"
    path.write_text("(;SZ[9];B[ee](;W[cc]C[main];B[gg])(;W[gc]C[side]))")
    c = build_controller(parse_args(["--load", str(path), "--no-autosave"]))
    try:
        assert [vx(m.point) for m in c.game.moves] == ["E5", "C7", "G3"]
        assert [vx(n.point) for n in c.tree.root.children[0].children] == ["C7", "G7"]
        c.go_back(1)  # at C7, whose sibling is G7
        assert c.switch_variation(1) and c.comment == "side"
    finally:
        c.close()


# --- random sequences of record actions keep the game and the tree together -------------------------
ACTIONS = ("play", "play", "play", "pass", "back", "forward", "up", "down", "promote", "delete", "undo")
ACTIONS += ("redo", "home", "end")
MOVING_AROUND = ("back", "forward", "up", "down", "home", "end", "undo", "redo", "promote")


def check_record(c: Controller) -> None:
    """The game on the board is the tree's current line: moves, redo list and position."""
    tree = c.tree
    path = tree.path()[1:]
    assert [(m.color, m.point) for m in c.game.moves] == [(n.color, n.point) for n in path]
    assert [(m.color, m.point) for m in reversed(c.game.redo_stack)] == [
        (n.color, n.point) for n in tree.continuation()
    ]
    assert c.game.replay().position == c.game.position
    for node in tree.nodes():
        assert all(child.parent is node for child in node.children)
        assert len({(ch.color, ch.point) for ch in node.children}) == len(node.children)  # no duplicates


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 80)), min_size=1, max_size=60))
@example([("play", 0), ("delete", 0), ("back", 0), ("undo", 0)])  # from CI: back at the start changes nothing
def test_random_record_actions_keep_the_game_and_the_tree_together(actions) -> None:
    c = Controller(Game.new(5))
    nodes_before = 1
    pending = None  # (current node, tree size) just after a delete: an undo from there restores it
    for action, n in actions:
        restores = action == "undo" and pending is not None
        if action == "play":
            legal = c.game.legal_moves()
            if legal and not c.game.over:
                c.click(legal[n % len(legal)])
        elif action == "pass":
            if not c.game.over:
                c.pass_turn()
        elif action == "back":
            c.go_back(1 + n % 3)
        elif action == "forward":
            c.go_forward(1 + n % 3)
        elif action == "up":
            c.switch_variation(-1)
        elif action == "down":
            c.switch_variation(1)
        elif action == "promote":
            c.promote_variation()
        elif action == "delete":
            before = len(c.tree)
            if c.delete_branch():
                assert len(c.tree) < before
                pending = (c.tree.current, len(c.tree))
                if n % 2:
                    assert c.undo() and len(c.tree) == before
                    pending = None
        elif action == "undo":
            c.undo()
        elif action == "redo":
            c.redo()
        elif action == "home":
            c.go_start()
        elif action == "end":
            c.go_end()
        check_record(c)
        # undo after a delete, with nothing changed since (a move back at the start changes
        # nothing), puts the branch back; any other moving around keeps every node
        if action in MOVING_AROUND and not restores:
            assert len(c.tree) == nodes_before  # moving around never adds nor drops a node
        moved = pending is not None and (c.tree.current is not pending[0] or len(c.tree) != pending[1])
        if moved and action != "delete":
            pending = None
        nodes_before = len(c.tree)
    # what the controller holds saves and loads back the same tree
    again = load_tree(save_tree(c.tree))
    shape = [(n.color, n.point, len(n.children)) for n in c.tree.nodes()]
    assert [(n.color, n.point, len(n.children)) for n in again.nodes()] == shape
    c.close()


def test_a_latin_1_file_keeps_its_text_through_a_round_trip() -> None:
    tree = load_tree(b"(;SZ[9]XX[caf\xe9]LB[ee:\xe9t\xe9];B[ee]C[\xe0 la])")  # no CA: ISO-8859-1
    assert tree.root.labels == {v("E5"): "\u00e9t\u00e9"} and tree.root.children[0].comment == "\u00e0 la"
    text = save_tree(tree)  # written as UTF-8, the property we do not know transcoded too
    assert "XX[caf\u00e9]" in text and "CA[UTF-8]" in text
    assert load_tree(text.encode()).root.extra == tree.root.extra
