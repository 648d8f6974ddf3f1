"""Every user action of the window, once: its name, its keys, its toolbar button, its help.

The window binds its keys and its buttons from :data:`COMMANDS` (each name is one entry of
``GorillaWindow``'s command map); the panel's help (:data:`HUD_ROWS`), the key table of
``docs/controls.md`` (:data:`DOC_ROWS`), docs/playing.md's key table and ``gorilla --help``'s key line
are made from it, and ``tests/test_commands.py`` fails on any difference.

A key is written as a person reads it: ``c``, ``Shift+Left``, ``Ctrl+Shift+Z``, ``Alt+Home``,
``Enter``, ``Esc``, ``Space``, ``Delete``, ``PageUp``, ``F1``, ``[``, ``+``, ``Num+``. A key
with Shift or Alt that has no command of its own runs the command of the key without them
(Shift+c is c); with Ctrl it runs only a Ctrl command.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One user action: ``name`` (what the window runs), its keys, its button, a short help."""

    name: str
    keys: tuple[str, ...]
    help: str  # a few words: docs/playing.md's key table and ``gorilla --help``
    button: str | None = None  # the toolbar button's caption


@dataclass(frozen=True)
class HelpRow:
    """One row of a key list: the keys as written there, the text, the commands it covers."""

    keys: str
    text: str
    commands: tuple[str, ...] = ()


COMMANDS: tuple[Command, ...] = (
    Command("toggle_control", ("c",), "control map on/off"),
    Command("evaluate", ("e",), "evaluate every move (heat map)", "Evaluate"),
    Command("toggle_thinking", ("v",), "analysis of the position shown on/off", "Ponder"),
    Command("toggle_policy", ("f",), "the policy heat map on/off"),
    Command("toggle_ownership", ("o",), "ownership overlay on/off"),
    Command("undo", ("u", "Ctrl+Z"), "undo", "Undo"),
    Command("redo", ("Ctrl+Y", "Ctrl+Shift+Z"), "redo"),
    Command("back", ("Left",), "one move back"),
    Command("back10", ("Shift+Left",), "ten moves back"),
    Command("forward", ("Right",), "one move forward"),
    Command("forward10", ("Shift+Right",), "ten moves forward"),
    Command("line_start", ("Home",), "the start of the line"),
    Command("line_end", ("End",), "the end of the line"),
    Command("previous_variation", ("Up",), "the previous variation"),
    Command("next_variation", ("Down",), "the next variation"),
    Command("promote", ("l",), "this line as the main line"),
    Command("delete_branch", ("Delete",), "delete from this move (u: back)"),
    Command("comment", ("Enter",), "the move's comment box"),
    Command("tree_view", ("w",), "the game tree on/off"),
    Command("game_info", ("Ctrl+I",), "the game info: names, ranks, event, result, komi, rules"),
    Command("setup", ("b",), "set-up mode on/off"),
    Command("setup_side", ("x",), "set-up: the side to move"),
    Command("reset", ("r",), "reset: a new game like this one (asks first)"),
    Command("new_game", ("Ctrl+N",), "the new-game dialog", "New"),
    Command("pause", ("Ctrl+P", "Pause"), "pause the clocks", "Pause"),
    Command("pass", ("p",), "pass", "Pass"),
    Command("two_more", ("2",), "Gomoku Swap2: put two more stones"),
    Command("resign", (), "resign (asks first)", "Resign"),
    Command("next_move", ("Space",), "AI vs AI: the next move"),
    Command("continuous", ("a",), "AI vs AI: continuous play on/off"),
    Command("analyse", ("g",), "analyse the game (again: cancel)"),
    Command("next_mistake", ("n",), "the next mistake"),
    Command("previous_mistake", ("Shift+n",), "the previous mistake"),
    Command("mistake_threshold", ("Alt+n",), "the mistake threshold"),
    Command("mistake_dots", ("d",), "points-lost dots on/off"),
    Command("report", ("F3",), "the game report (after g)", "Report"),
    Command("move_numbers", ("i",), "move numbers: off, last 10, all"),
    Command("coordinates", ("k",), "coordinates on/off"),
    Command("mute", ("m",), "sound on/off"),
    Command("volume_down", ("[",), "volume down"),
    Command("volume_up", ("]",), "volume up"),
    Command("save", ("Ctrl+S",), "save the game as SGF", "Save"),
    Command("load", ("Ctrl+O",), "load an SGF", "Load"),
    Command("orbit_left", ("Alt+Left",), "orbit left"),
    Command("orbit_right", ("Alt+Right",), "orbit right"),
    Command("tilt_up", ("Alt+Up",), "tilt up"),
    Command("tilt_down", ("Alt+Down",), "tilt down"),
    Command("default_view", ("Alt+Home",), "the default view"),
    Command("zoom_in", ("+", "=", "Num+", "PageUp"), "zoom in"),
    Command("zoom_out", ("-", "Num-", "PageDown"), "zoom out"),
    Command("top_view", ("t",), "top view (again: the default view)"),
    Command("help", ("h", "F1"), "every key and mouse action"),
    Command("close_help", ("Esc",), "close the help"),
    Command("quit", ("Ctrl+Q",), "quit"),
)

BY_NAME: dict[str, Command] = {c.name: c for c in COMMANDS}

BUTTONS: tuple[str, ...] = (
    "New", "Pass", "Resign", "Undo", "Evaluate", "Ponder", "Pause", "Save", "Load", "Report",
)  # fmt: skip
"""The toolbar's buttons in their order on the panel (each is one command's ``button``)."""

CLI_KEYS: tuple[str, ...] = ("toggle_control", "evaluate", "toggle_policy", "reset", "undo", "help")
"""The commands ``gorilla --help`` names in its one line about the window."""

# the panel's help (h): one line each, the keys and the text are two labels that must stay row by row
HUD_ROWS: tuple[HelpRow, ...] = (
    HelpRow("Left click", "play a stone (AI vs AI: the next move)"),
    HelpRow("", "after two passes: mark a group dead or alive"),
    HelpRow("Right click", "pass"),
    HelpRow("Drag (left, Ctrl+left, right)", "orbit and tilt the board"),
    HelpRow("Middle drag", "pan"),
    HelpRow("Scroll, + / -", "zoom", ("zoom_in", "zoom_out")),
    HelpRow(
        "Alt+arrow keys",
        "orbit / tilt;  Alt+Home: default view,  t: top view",
        ("orbit_left", "orbit_right", "tilt_up", "tilt_down", "default_view", "top_view"),
    ),
    HelpRow(
        "c / o", "control map (dark Black, light White) / ownership", ("toggle_control", "toggle_ownership")
    ),
    HelpRow("e", "evaluate: the best moves' score leads, best ringed; again: hide", ("evaluate",)),
    HelpRow("v", "the net's analysis here (the AI's search while it thinks)", ("toggle_thinking",)),
    HelpRow("Pointer on a candidate", "its best line as numbered stones (e, v, g)"),
    HelpRow("Pointer on a ghost", "teaching: the net's refutation of the move taken back"),
    HelpRow("f", "move model: moves strong players would choose", ("toggle_policy",)),
    HelpRow("r", "reset: new game (asks first; u: back)", ("reset",)),
    HelpRow("u, Ctrl+Z / Ctrl+Y", "undo / redo (the moves stay in the record)", ("undo", "redo")),
    HelpRow(
        "Left / Right (Shift)",
        "back / forward a move (Shift: ten);  Home / End",
        ("back", "back10", "forward", "forward10", "line_start", "line_end"),
    ),
    HelpRow("Up / Down", "previous / next variation", ("previous_variation", "next_variation")),
    HelpRow(
        "l / Delete", "this line as main line / delete from here (u: undo)", ("promote", "delete_branch")
    ),
    HelpRow("w", "game tree: click a move to go there", ("tree_view",)),
    HelpRow("Ctrl+I", "game info: names, ranks, event, date, result, komi", ("game_info",)),
    HelpRow("Enter", "comment box (Enter, Esc: done;  Shift+Enter: new line)", ("comment",)),
    HelpRow("b / x", "set-up: left click Black, right White / side to move", ("setup", "setup_side")),
    HelpRow("p", "pass (Gomoku Swap2: take or keep Black)", ("pass",)),
    HelpRow("2", "Gomoku Swap2: put two more stones", ("two_more",)),
    HelpRow("space / a", "AI vs AI: next move / continuous play on-off", ("next_move", "continuous")),
    HelpRow("Ctrl+N", "new game: size, rules, handicap, players, engines, clock", ("new_game",)),
    HelpRow("Ctrl+P, Pause", "pause the clocks (two humans)", ("pause",)),
    HelpRow("g / F3", "analyse the game (again: cancel) / report; click graph", ("analyse", "report")),
    HelpRow(
        "n / Shift+n, Alt+n",
        "next / previous mistake; threshold 1..10 points",
        ("next_mistake", "previous_mistake", "mistake_threshold"),
    ),
    HelpRow(
        "d", "points-lost dots in the report's classes (green <0.5 ... red 6+, purple 12+)", ("mistake_dots",)
    ),
    HelpRow("i / k", "move numbers (off, last 10, all) / coordinates", ("move_numbers", "coordinates")),
    HelpRow("m, [ / ]", "sound on-off, volume down / up", ("mute", "volume_down", "volume_up")),
    HelpRow("Ctrl+S", "save SGF: file picker, a time-stamped name typed in", ("save",)),
    HelpRow("Ctrl+O", "load SGF: file picker (folders, SGF files, recent)", ("load",)),
    HelpRow("h, F1", "this help;  Esc closes it", ("help", "close_help")),
    HelpRow("Ctrl+Q", "quit", ("quit",)),
)

# docs/controls.md's key table: the text of each row; its key cell is made from the commands' keys
DOC_ROWS: tuple[HelpRow, ...] = (
    HelpRow(
        "",
        "control map overlay on/off: Black's points darken the wood, White's lighten it",
        ("toggle_control",),
    ),
    HelpRow(
        "",
        "evaluate every legal move in the background; a heat map (green good, red bad), the best move "
        "ringed, the six best numbered with their own values on one scale: each move's score lead in "
        "points for the side to move (Gomoku: its win rate in %), the other moves small dots in the same "
        "colours; the panel's legend says so, and how many points the last move lost. Again: hide the "
        "labels (and show them again), no new evaluation",
        ("evaluate",),
    ),
    HelpRow(
        "",
        "the analysis of the position shown on/off (also the toolbar's Ponder): whenever no AI is to move"
        " (your turn, a record stepped through, the game over) the net thinks on the position on the "
        "board and draws its top moves, each a disc with its score against the best (the best ringed, "
        "with its lead) and its visits, small and faint under 5% of the best's visits, renewed four times"
        " a second; it stops when the board changes and goes on from its tree when a position comes back"
        " ([teaching.md](teaching.md)). While an AI searches: its candidates as discs (size by visits, "
        "colour by win rate), the best ringed, and its top moves with principal variations in the panel;"
        " the pointer on a candidate (here, after `e` with a searching engine, or on the review's ringed"
        " best move) draws its line as numbered translucent stones",
        ("toggle_thinking",),
    ),
    HelpRow(
        "",
        "undo (against an AI: back to your turn, the AI's reply is taken back too); the moves stay in the"
        " record. Right after Delete: the deleted branch comes back",
        ("undo",),
    ),
    HelpRow(
        "",
        "one move back / forward along the current line (Shift: ten moves); the AI waits while you "
        "review, until a move is played or space is pressed",
        ("back", "forward", "back10", "forward10"),
    ),
    HelpRow("", "the start / the end of the current line", ("line_start", "line_end")),
    HelpRow(
        "",
        "the previous / next variation at the nearest branching point above (the line below follows that "
        "variation as far as it goes)",
        ("previous_variation", "next_variation"),
    ),
    HelpRow(
        "",
        "the game tree on/off, below the board: every move a node (black or white), each variation a "
        "row of its own, the current move ringed; a click on a node shows that move, the scroll wheel "
        "scrolls it, it follows the current move. On the board, letters (A, B, ...) mark the next moves "
        "of the variations that branch here",
        ("tree_view",),
    ),
    HelpRow(
        "",
        "the game info: Black's and White's names and ranks, the event, the place, the date, the result,"
        " the komi and the rules (SGF `PB`, `BR`, `PW`, `WR`, `EV`, `PC`, `DT`, `RE`, `KM`, `RU`; Gomoku's:"
        " the names and the event), Tab between the rows, Left/Right on the rules, Enter keeps them (a"
        " typed result is the record's; a new komi or rule set plays the record again under it and the"
        " count follows; a wrong row is one line in the dialog), Esc cancels; a click on a player's name"
        " in the panel opens it too",
        ("game_info",),
    ),
    HelpRow("", "make the current line the main line", ("promote",)),
    HelpRow("", "delete the current move and everything after it (`u` puts it back)", ("delete_branch",)),
    HelpRow(
        "",
        "the comment box of the current move: keys type into it, Backspace deletes, Shift+Enter starts a "
        "new line, Enter or Esc leaves keeping the text (saved as SGF `C`)",
        ("comment",),
    ),
    HelpRow(
        "",
        "set-up mode on/off: left click a black stone, right click a white one, a click on a stone takes "
        "it off; saved as `AB`/`AW`/`PL`. On a record with moves it starts a new record from the position"
        " on the board; until `b` again, `u` brings the old record back",
        ("setup",),
    ),
    HelpRow("", "in set-up mode: the side to move", ("setup_side",)),
    HelpRow(
        "",
        "the policy heat map on/off (the net's policy; the move model's on boards the net does not play):"
        " every move a strong player would consider here, as discs (size and colour by probability), the"
        " five likeliest labelled in percent",
        ("toggle_policy",),
    ),
    HelpRow("", "redo", ("redo",)),
    HelpRow(
        "",
        "reset: a new game with the same size, rules, komi, handicap and players; a game with moves"
        " asks first (r again or y: yes), and u right after brings it back (the record's names stay"
        " with it)",
        ("reset",),
    ),
    HelpRow("", "the new-game dialog (below)", ("new_game",)),
    HelpRow(
        "",
        "pause the clocks, and go on (only between two humans); moves wait while paused",
        ("pause",),
    ),
    HelpRow(
        "",
        "move numbers on the stones: off, the last 10, all (remembered); the last move's in red",
        ("move_numbers",),
    ),
    HelpRow(
        "",
        "analyse every move of the current line in the background (the net's search, 256 visits a position"
        " on 19x19, 547 on 13x13, 768 on 9x9; where the net does not play, 1000 MCTS playouts); again:"
        " cancel. The panel's graph shows Black's win rate (blue) and score lead (orange) over the move "
        "number (win rate 0-100% on the left, the score lead's ticks on the right, the move numbers along "
        "the bottom, a legend above), moves that lost the threshold or more marked red, the current move as"
        " a white line with dots on the curves; a "
        "click on the graph shows that move. Above it: the current move's points lost, win rate, score "
        "and the engine's best line. In Gomoku: every move searched by the AI's search (1 s a position), "
        "the graph of Black's win rate (the moves that lost the threshold marked, 10% at first; blunders "
        "from 20%), each move's win rates,"
        " best move and line and win rate lost shown in the panel at that move and saved with the record "
        "(Ctrl+S), as `gorilla analyze` writes them",
        ("analyse",),
    ),
    HelpRow(
        "",
        "the next / previous analysed move that lost the threshold or more (3 points at first; in Gomoku:"
        " 10% of win rate at first, a mistake)",
        ("next_mistake", "previous_mistake"),
    ),
    HelpRow(
        "",
        "the mistake threshold: 1, 2, 3, 5, 10 points lost (Gomoku: 5, 10, 20% of win rate: inaccuracy,"
        " mistake, blunder); the graph marks the moves that lost it",
        ("mistake_threshold",),
    ),
    HelpRow(
        "",
        "dots on the analysed stones, coloured by the points their move lost: green under 1, yellow under"
        " 3, orange under 10, red 10 or more (on once an analysis starts), and the better move for the"
        " move shown ringed (the best of the position before it, as KaTrain marks it); in Gomoku by the"
        " win rate lost: green under 5%, yellow, orange from 10%, red from 20%, the best move in the"
        " position shown ringed",
        ("mistake_dots",),
    ),
    HelpRow(
        "",
        "the game report of the line on the board (after `g`, or of a loaded record's values): per player,"
        " for the whole game and by phase (keys 1-4 or the tabs), the accuracy, the mean points lost, how"
        " often the move was the engine's first choice and within its first five, and the moves in each"
        " class of points lost as a bar chart; Esc closes it. See [the review](review.md)",
        ("report",),
    ),
    HelpRow(
        "",
        "ownership overlay on/off: a square on every point, black or white by who owns it at the end (the"
        " net's ownership over a short search; playouts on boards the net does not play), bigger when surer"
        " (on stones only when they look dead)",
        ("toggle_ownership",),
    ),
    HelpRow("", "coordinates along the board's edges on/off (remembered)", ("coordinates",)),
    HelpRow("", "sound on/off (remembered)", ("mute",)),
    HelpRow("", "volume down / up by 10% (remembered)", ("volume_down", "volume_up")),
    HelpRow(
        "",
        "pass; in a Gomoku game with a Swap2 opening (the new-game form's Opening row), the player who"
        " chooses passes to take Black after the first three stones, or to keep it after five (the Pass"
        " button is lit only then)",
        ("pass",),
    ),
    HelpRow(
        "",
        "Gomoku Swap2, after the first three stones: the player who chooses puts two more (White, Black),"
        " and the opener chooses; a click instead plays White's stone (the chooser takes White)",
        ("two_more",),
    ),
    HelpRow("", "AI vs AI: the next move", ("next_move",)),
    HelpRow("", "AI vs AI: continuous play on/off (move after move without clicks)", ("continuous",)),
    HelpRow(
        "",
        "save the game as SGF: the file picker opens in the last folder a file was opened or saved in"
        " (remembered; at first the current folder) with a time-stamped "
        "name typed in (`gorilla-YYYYMMDD-HHMMSS.sgf`); Enter saves, or type another name (`.sgf` is "
        "added), pick a folder or a file; an existing file is replaced after a second Enter. The panel "
        "says where. A Gomoku game saved to a name ending in `.psq` is written as Piskvork's record "
        "(Gomocup's archives)",
        ("save",),
    ),
    HelpRow(
        "",
        "load an SGF: the file picker: the recent files first, then `..`, the folders and the `.sgf` files"
        " (and Piskvork's `.psq` Gomoku records)"
        " of the last folder used (at first the current folder), sorted, the latest record selected."
        " Up/Down (Page Up/Down, Home/End) choose, Enter opens a folder or loads the file, Backspace goes"
        " up a folder, a typed folder (`games/`, `~/`) lists at once, a typed name or path and Enter goes"
        " there; a click selects, a double click (or Open) loads, the wheel scrolls; Esc "
        "cancels. A bad path is one line in the picker and nothing changes. A record of the other game "
        "(Gomoku's `GM[4]` during a Go game, or Go's during a Gomoku game) starts a game of its kind "
        "between two humans with it. Keys typed into it are not commands",
        ("load",),
    ),
    HelpRow(
        "",
        "orbit (left/right) and tilt (up/down) by 5 degrees",
        ("orbit_left", "orbit_right", "tilt_up", "tilt_down"),
    ),
    HelpRow("", "zoom in", ("zoom_in",)),
    HelpRow("", "zoom out", ("zoom_out",)),
    HelpRow("", "the default view", ("default_view",)),
    HelpRow("", "top view (straight down); again: the default view", ("top_view",)),
    HelpRow("", "the list of keys and mouse actions; Esc or a click closes it", ("help",)),
    HelpRow("", "close the help (Esc never closes the window)", ("close_help",)),
    HelpRow("", "quit (the game is autosaved; a running search is cancelled)", ("quit",)),
)


def split_key(key: str) -> tuple[tuple[str, ...], str]:
    """``"Ctrl+Shift+Z"`` -> ``(("Ctrl", "Shift"), "Z")``; ``"+"`` and ``"Num+"`` are keys of their own."""
    if key == "+" or key.startswith("Num"):
        return (), key
    if key.endswith("++"):
        return tuple(key[:-2].split("+")), "+"
    *mods, name = key.split("+")
    return tuple(mods), name


def key_text(key: str, markdown: bool = False) -> str:
    """A key as the docs write it: ``Shift+`n```, ``keypad `+```, ``Page Up``, ``space``."""
    mods, name = split_key(key)
    names = {"Num+": "keypad +", "Num-": "keypad -", "PageUp": "Page Up", "PageDown": "Page Down"}
    words = names.get(name, "space" if name == "Space" else name).split(" ")
    if markdown and len(words[-1]) == 1 and "Ctrl" not in mods:
        words[-1] = f"`{words[-1]}`"
    return "+".join([*mods, " ".join(words)])


def row_keys(row: HelpRow, markdown: bool = True) -> str:
    """A row's key cell: the keys of each command joined by "or", the commands by " / "."""
    return " / ".join(" or ".join(key_text(k, markdown) for k in BY_NAME[n].keys) for n in row.commands)


def markdown_table(rows: list[tuple[str, str]], head: tuple[str, str] = ("key", "what it does")) -> str:
    """A two-column markdown table."""
    lines = [f"| {head[0]} | {head[1]} |", "| --- | --- |"]
    lines += [f"| {k} | {t} |" for k, t in rows]
    return "\n".join(lines)


def controls_keys_table() -> str:
    """docs/controls.md's table of keys, made from :data:`DOC_ROWS` and the commands' keys."""
    return markdown_table([(row_keys(r), r.text) for r in DOC_ROWS])


def readme_keys_table() -> str:
    """docs/playing.md's table of keys: the panel's help (h), row by row."""
    return markdown_table([(r.keys, r.text) for r in HUD_ROWS if r.keys], ("keys", "what they do"))


def cli_keys_line() -> str:
    """``gorilla --help``'s sentence about the window's keys, from :data:`CLI_KEYS`."""
    keys = ", ".join(f"{BY_NAME[n].keys[0]} {BY_NAME[n].help}" for n in CLI_KEYS)
    return f"In the window: left click plays (AI vs AI: next move), right click passes, {keys}."
