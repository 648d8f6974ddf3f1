"""The GTP 2 commands, GNU Go's referee extensions and Gorilla's own ``gorilla-*`` commands.

Every handler checks all of its arguments before it changes anything, so a
failed command leaves the engine exactly as it was. Error messages are the
GTP 2 standard strings where the specification has one.
"""

from __future__ import annotations

import os

from gorilla import __version__
from gorilla.gtp.args import arg_color, arg_float, arg_int, arg_vertex, check_move, game_for, nargs, vertices
from gorilla.gtp.protocol import GtpEngine, GtpError
from gorilla.rules.board import BLACK, MAX_SIZE, MIN_SIZE, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.handicap import fixed_handicap_points, free_handicap_points
from gorilla.rules.position import IllegalMove
from gorilla.rules.scoring import result_string

MAX_SGF_BYTES = 32 << 20

# --- administrative --------------------------------------------------------------------


def cmd_protocol_version(engine: GtpEngine, args: list[str]) -> str:
    """``protocol_version``: 2."""
    return "2"


def cmd_name(engine: GtpEngine, args: list[str]) -> str:
    """``name``: the engine's name (``--name``, default Gorilla)."""
    return engine.name


def cmd_version(engine: GtpEngine, args: list[str]) -> str:
    """``version``: Gorilla's version, e.g. 0.1.0."""
    return __version__


def cmd_known_command(engine: GtpEngine, args: list[str]) -> str:
    """``known_command NAME``: true if NAME is a registered command, else false."""
    nargs(args, 1)
    return "true" if args[0] in engine.commands else "false"


def cmd_list_commands(engine: GtpEngine, args: list[str]) -> str:
    """``list_commands``: every registered command, one per line, in the order registered."""
    return "\n".join(engine.commands)


def cmd_quit(engine: GtpEngine, args: list[str]) -> str:
    """``quit``: an empty answer; the engine then stops reading input."""
    engine.quit = True
    return ""


# --- setup -------------------------------------------------------------------------------


def cmd_boardsize(engine: GtpEngine, args: list[str]) -> str:
    """``boardsize N``: an empty N x N board, rules and komi kept; 'unacceptable size' outside 2..25."""
    nargs(args, 1)
    n = arg_int(args[0])
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise GtpError("unacceptable size")
    engine.new_game(n)
    return ""


def cmd_clear_board(engine: GtpEngine, args: list[str]) -> str:
    """``clear_board``: an empty board of the same size, rules and komi kept."""
    engine.new_game()
    return ""


def cmd_komi(engine: GtpEngine, args: list[str]) -> str:
    """``komi K``: K (any finite number) becomes the game's komi."""
    nargs(args, 1)
    engine.komi = arg_float(args[0])
    return ""


def _board_empty(game: Game) -> bool:
    return not game.moves and not game.setup and not game.position.stones(BLACK) + game.position.stones(WHITE)


def cmd_fixed_handicap(engine: GtpEngine, args: list[str]) -> str:
    """``fixed_handicap N``: the N black stones placed on GTP's fixed points, as vertices.

    'board not empty'; 'invalid number of stones' where the fixed placement has no N stones
    (2..9 on odd boards from 9x9 up, 2..4 on even boards and 7x7, none below 7x7).
    """
    nargs(args, 1)
    n = arg_int(args[0])
    if not _board_empty(engine.game):
        raise GtpError("board not empty")
    try:
        points = fixed_handicap_points(engine.size, n)
    except ValueError:
        raise GtpError("invalid number of stones") from None
    engine.game.set_handicap(points)
    return vertices(points, engine.size)


def cmd_place_free_handicap(engine: GtpEngine, args: list[str]) -> str:
    """``place_free_handicap N``: the N black stones Gorilla placed, as vertices (the fixed points first).

    'board not empty'; 'invalid number of stones' unless 2 <= N < size * size.
    """
    nargs(args, 1)
    n = arg_int(args[0])
    if not _board_empty(engine.game):
        raise GtpError("board not empty")
    if not 2 <= n <= engine.size * engine.size - 1:
        raise GtpError("invalid number of stones")
    points = free_handicap_points(engine.size, n)
    engine.game.set_handicap(points)
    return vertices(points, engine.size)


def cmd_set_free_handicap(engine: GtpEngine, args: list[str]) -> str:
    """``set_free_handicap V...``: an empty answer, black stones placed on the given vertices.

    'board not empty'; 'bad vertex list' for a malformed, pass or repeated vertex;
    'invalid number of stones' unless 2 <= count < size * size.
    """
    if not _board_empty(engine.game):
        raise GtpError("board not empty")
    points = []
    for a in args:
        try:
            p = parse_vertex(a, engine.size)
        except ValueError:
            raise GtpError("bad vertex list") from None
        if p in (PASS, RESIGN) or p in points:
            raise GtpError("bad vertex list")
        points.append(p)
    if not 2 <= len(points) <= engine.size * engine.size - 1:
        raise GtpError("invalid number of stones")
    engine.game.set_handicap(points)
    return ""


# --- play ------------------------------------------------------------------------------------


def cmd_play(engine: GtpEngine, args: list[str]) -> str:
    """``play COLOR VERTEX``: the move played (also after two passes or a resignation); 'illegal move'."""
    nargs(args, 2)
    color = arg_color(args[0])
    point = arg_vertex(args[1], engine.size)
    if check_move(engine.game, point, color) is not None:
        raise GtpError("illegal move")
    engine.game.reopen()
    try:
        engine.game.play(point, color)
    except IllegalMove:  # cannot happen after check_move; keep the state anyway
        raise GtpError("illegal move") from None
    return ""


def select_move(engine: GtpEngine, color: int) -> int:
    """The agent's move for color (pass once the game is over); never an illegal one."""
    game = engine.game
    if game.over:
        return PASS
    view = game_for(game, color)
    move = engine.agent.select_move(view, engine.budget)
    if move in (PASS, RESIGN) or check_move(game, move, color) is None:
        return move
    # a broken agent must not make the engine play an illegal move
    legal = view.legal_moves(color, reasonable=True)
    return legal[0] if legal else PASS


def cmd_genmove(engine: GtpEngine, args: list[str]) -> str:
    """``genmove COLOR``: the agent's move for COLOR (vertex, pass or resign), played.

    Once the game is over (two passes, resignation, move cap): pass, not played.
    """
    nargs(args, 1)
    color = arg_color(args[0])
    move = select_move(engine, color)
    if not engine.game.over:
        engine.game.play(move, color)
    return format_vertex(move, engine.size)


def cmd_reg_genmove(engine: GtpEngine, args: list[str]) -> str:
    """``reg_genmove COLOR``: the move genmove would answer, not played."""
    nargs(args, 1)
    color = arg_color(args[0])
    return format_vertex(select_move(engine, color), engine.size)


def cmd_undo(engine: GtpEngine, args: list[str]) -> str:
    """``undo``: the last move taken back; 'cannot undo' when the record has no move."""
    if not engine.game.undo():
        raise GtpError("cannot undo")
    engine.game.redo_stack.clear()
    return ""


# --- information ----------------------------------------------------------------------------


def cmd_showboard(engine: GtpEngine, args: list[str]) -> str:
    """``showboard``: an empty line, the board diagram, then the rules, komi, move, side to move, captures."""
    game = engine.game
    turn = "Black" if game.to_move == BLACK else "White"
    extra = [
        f"Rules: {game.ruleset.name}, komi {game.komi:g}, move {game.move_number}, {turn} to move",
        f"Black has captured {game.captures(BLACK)} stones, White has captured {game.captures(WHITE)} stones",
    ]
    return "\n" + str(game.position) + "\n" + "\n".join(extra)


def cmd_final_score(engine: GtpEngine, args: list[str]) -> str:
    """``final_score``: the result with the estimated dead stones (the net's where it plays the
    board, else the playouts') removed, e.g. B+3.5.

    0 for a draw, W+R or B+R after a resignation; 'cannot score' when counting fails.
    """
    from gorilla.ai.ownership import estimate_dead

    game = engine.game
    if game.resigned:
        return game.result or ""
    try:
        dead = estimate_dead(game)
        return result_string(game.score(dead).margin)
    except Exception:
        raise GtpError("cannot score") from None


def cmd_final_status_list(engine: GtpEngine, args: list[str]) -> str:
    """``final_status_list alive|dead|seki``: the stones of that status (the net's ownership where
    it plays the board, else the playouts'), as vertices."""
    from gorilla.ai.ownership import STATUSES, status_lists

    nargs(args, 1)
    status = args[0].lower()
    if status not in STATUSES:
        raise GtpError("syntax error")
    return vertices(status_lists(engine.game)[status], engine.size)


def cmd_is_legal(engine: GtpEngine, args: list[str]) -> str:
    """``is_legal COLOR VERTEX``: 1 if COLOR may play VERTEX now (as ``play`` would accept it), else 0."""
    nargs(args, 2)
    color = arg_color(args[0])
    point = arg_vertex(args[1], engine.size)
    return "1" if check_move(engine.game, point, color) is None else "0"


def cmd_all_legal(engine: GtpEngine, args: list[str]) -> str:
    """``all_legal COLOR``: every point COLOR may play now, as vertices (pass is not listed)."""
    nargs(args, 1)
    color = arg_color(args[0])
    return vertices(sorted(engine.game.reopened().legal_moves(color)), engine.size)


def cmd_list_stones(engine: GtpEngine, args: list[str]) -> str:
    """``list_stones COLOR``: the points holding COLOR's stones, as vertices."""
    nargs(args, 1)
    color = arg_color(args[0])
    return vertices(engine.game.position.stones(color), engine.size)


def cmd_captures(engine: GtpEngine, args: list[str]) -> str:
    """``captures COLOR``: how many stones COLOR has captured."""
    nargs(args, 1)
    return str(engine.game.captures(arg_color(args[0])))


# --- files ----------------------------------------------------------------------------------


def _with_ruleset(game: Game, engine: GtpEngine) -> Game:
    """The loaded game under the engine's ruleset when it replays legally under it."""
    if game.ruleset == engine.ruleset:
        return game
    g = Game(game.size, engine.ruleset, game.komi, game.info, game.handicap)
    try:
        if game.setup:
            g.add_setup(game.setup.items(), game.positions[0].to_move)
        for m in game.moves:
            g.play(m.point, m.color, m.comment)
    except (IllegalMove, ValueError):
        return game
    return g


def cmd_loadsgf(engine: GtpEngine, args: list[str]) -> str:
    """``loadsgf FILE [N]``: the file's main line loaded, up to just before move N (N >= 1).

    The game keeps the engine's rules when its moves are legal under them, else takes the
    file's. 'cannot load file' for a missing, non-regular, over-large (32 MiB) or broken file.
    """
    from gorilla.rules.sgf import read_sgf

    nargs(args, 1, 2)
    upto = arg_int(args[1]) if len(args) == 2 else None
    if upto is not None and upto < 1:
        raise GtpError("syntax error")
    try:
        # only regular files of sane size (not /dev/zero, not our own stdin)
        if not os.path.isfile(args[0]) or os.path.getsize(args[0]) > MAX_SGF_BYTES:
            raise GtpError("cannot load file")
        game = read_sgf(args[0])
    except (ValueError, OSError):
        raise GtpError("cannot load file") from None
    game = _with_ruleset(game, engine)
    if upto is not None:
        game.goto(upto - 1)
    game.redo_stack.clear()
    engine.game = game
    engine.agent.new_game()
    return ""


def cmd_printsgf(engine: GtpEngine, args: list[str]) -> str:
    """``printsgf [FILE]``: the game as SGF, or an empty answer once written to FILE; 'cannot save file'."""
    from gorilla.rules.sgf import save_sgf

    nargs(args, 0, 1)
    text = save_sgf(engine.game)
    if args:
        try:
            with open(args[0], "w", encoding="utf-8") as f:
                f.write(text)
        except OSError:
            raise GtpError("cannot save file") from None
        return ""
    return text


# --- time ----------------------------------------------------------------------------------------


def cmd_time_settings(engine: GtpEngine, args: list[str]) -> str:
    """``time_settings MAIN BYO_YOMI STONES``: the settings (seconds, seconds, stones) given to the agent.

    'syntax error' for a negative value.
    """
    nargs(args, 3)
    main, byo = arg_float(args[0]), arg_float(args[1])
    stones = arg_int(args[2])
    if main < 0 or byo < 0 or stones < 0:
        raise GtpError("syntax error")
    engine.time_settings = (main, byo, stones)
    engine.agent.set_time(main, byo, stones)
    return ""


def cmd_time_left(engine: GtpEngine, args: list[str]) -> str:
    """``time_left COLOR SECONDS STONES``: the agent told COLOR's time left; 'syntax error' if negative."""
    nargs(args, 3)
    color = arg_color(args[0])
    seconds = arg_float(args[1])
    stones = arg_int(args[2])
    if seconds < 0 or stones < 0:
        raise GtpError("syntax error")
    engine.agent.time_left(color, seconds, stones)
    return ""


# --- Gorilla's extensions --------------------------------------------------------------------


def cmd_control_map(engine: GtpEngine, args: list[str]) -> str:
    """Rows of control values, top row first: -1 fully Black, +1 fully White."""
    from gorilla.ai.control_map import control_map

    nargs(args, 0)
    grid = control_map(engine.game.position)
    return "\n" + "\n".join(" ".join(f"{float(v):5.2f}" for v in row) for row in grid)


def cmd_classic_score(engine: GtpEngine, args: list[str]) -> str:
    """The 2013 Gorilla's count of the board from its control map ("gorilla-classic"), e.g. B+3.25."""
    from gorilla.ai.control_map import classic_result

    nargs(args, 0)
    return classic_result(engine.game.position, engine.game.komi)


def cmd_evaluate(engine: GtpEngine, args: list[str]) -> str:
    """``gorilla-evaluate [flat|mcts|net] [G] [T]``: 'best V', then 'V winrate score' per move, best first."""
    from gorilla.ai.evaluator import ENGINES, evaluate

    nargs(args, 0, 3)
    kind = "flat"
    rest = list(args)
    if rest and not rest[0].isdigit():
        kind = rest.pop(0).lower()
        if kind not in ENGINES:
            raise GtpError("syntax error")
    games = arg_int(rest[0]) if rest else 10
    turns = arg_int(rest[1]) if len(rest) > 1 else 3
    if games < 1 or turns < 0:
        raise GtpError("syntax error")
    if engine.game.over:
        raise GtpError("game is over")
    ev = evaluate(engine.game, engine=kind, games=games, turns=turns, budget=engine.budget)
    size = engine.size
    rows = sorted(ev.values.items(), key=lambda kv: (-kv[1].winrate, -kv[1].score, kv[0]))
    lines = [f"best {format_vertex(ev.best, size)}"]
    lines += [f"{format_vertex(p, size)} {v.winrate:.3f} {v.score:.1f}" for p, v in rows]
    return "\n".join(lines)


COMMANDS = {
    "protocol_version": cmd_protocol_version,
    "name": cmd_name,
    "version": cmd_version,
    "known_command": cmd_known_command,
    "list_commands": cmd_list_commands,
    "quit": cmd_quit,
    "boardsize": cmd_boardsize,
    "clear_board": cmd_clear_board,
    "komi": cmd_komi,
    "fixed_handicap": cmd_fixed_handicap,
    "place_free_handicap": cmd_place_free_handicap,
    "set_free_handicap": cmd_set_free_handicap,
    "play": cmd_play,
    "genmove": cmd_genmove,
    "reg_genmove": cmd_reg_genmove,
    "undo": cmd_undo,
    "showboard": cmd_showboard,
    "final_score": cmd_final_score,
    "final_status_list": cmd_final_status_list,
    "loadsgf": cmd_loadsgf,
    "printsgf": cmd_printsgf,
    "time_settings": cmd_time_settings,
    "time_left": cmd_time_left,
    "is_legal": cmd_is_legal,
    "all_legal": cmd_all_legal,
    "list_stones": cmd_list_stones,
    "captures": cmd_captures,
    "gorilla-control_map": cmd_control_map,
    "gorilla-evaluate": cmd_evaluate,
    "gorilla-classic_score": cmd_classic_score,
}
