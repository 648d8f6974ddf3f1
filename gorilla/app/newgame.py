"""The new-game form, headless: its fields, keyboard navigation, validation and the game it makes.

The window's dialog (:mod:`gorilla.gui.newgame_dialog`) only draws a
:class:`NewGameForm` and forwards keys and clicks; everything a test needs to
drive (focus, choices, typed text, the result) lives here. The last choices are
remembered in the settings (``new_game``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gorilla.app.clock import ClockSpecError, TimeControl, parse_clock
from gorilla.match.engines import installed_engines
from gorilla.rules.handicap import fixed_handicap_points, free_handicap_points
from gorilla.rules.rulesets import get_ruleset

GTP_CUSTOM = "gtp-command"
PBRAIN_CUSTOM = "pbrain-command"  # a Gomocup engine for Gomoku, its command typed in the row below
RULES = ("chinese", "japanese", "tromp-taylor", "little-go")
GOMOKU_PREFIX = "gomoku "  # the Rules row also offers Gomoku, one entry per five-rule
GOMOKU_RULES = tuple(GOMOKU_PREFIX + r for r in ("freestyle", "standard", "renju", "caro"))
GOMOKU_PLAYERS = (
    ("Threat heuristic (1 ply)", "threat1"),
    ("PVS (1 s)", "pvs"),
    ("PVS + VCT (1 s)", "pvs+vct"),
    ("PVS + VCT (3 s)", "pvs+vct:3"),
    ("MCTS (1 s)", "mcts"),
)
PLAYER_ROWS = ("black", "black_cmd", "white", "white_cmd")
# the rows each game shows (the placement only with handicap stones, a command row only for the
# engine typed in)
GAME_ROWS = {
    "go": ("size", "rules", "komi", "handicap", "placement", *PLAYER_ROWS, "teach", "clock"),
    "gomoku": ("size", "rules", *PLAYER_ROWS, "opening", "clock"),
}
GAME_ROW_KEYS = ("size", "komi", "handicap", "placement", *PLAYER_ROWS, "teach", "opening")  # kept per game
DEFAULT_SIZE = {"go": 19, "gomoku": 15}
DEFAULT_AI = {"go": "net", "gomoku": "pvs+vct"}  # an AI's seat when the Rules row changes the game
SIZES = {"go": range(2, 26), "gomoku": range(5, 26)}
KOMI_PRESETS = ("7.5", "6.5", "5.5", "0.5", "0")
RANK_PRESETS = ("25k", "20k", "15k", "10k", "5k", "2k", "1d")  # the dialog's rank AIs (rank:Nk)
TEACH_CHOICES = (("off", "off"), ("the human side", "human"), ("Black", "black"), ("White", "white"),
                 ("both", "both"))  # fmt: skip
TEACHING_PRESETS = (  # the opponents that teach (gorilla/ai/teaching_agents.py), weakest first
    ("Score loss 0.1 (200 visits)", "scoreloss:strength=0.1"),
    ("Score loss 0.2 (200 visits)", "scoreloss:strength=0.2"),
    ("Score loss 0.5 (200 visits)", "scoreloss:strength=0.5"),
    ("Score loss 1 (200 visits)", "scoreloss:strength=1"),
    ("Policy sampled (T=1, no search)", "policy:temperature=1"),
    ("Policy (the net's first choice)", "policy"),
)
CLOCK_PRESETS = ("none", "30s+3x10s", "5m+5x30s", "10m+5x30s", "10m+25/5m", "5m+5s", "10m")


def player_choices() -> list[tuple[str, str]]:
    """(label, spec) of every player offered: the net's search first (the default Go AI), the rank
    AIs, the other built-in AIs, the engines installed here, any command."""
    out = [
        ("Human", "human"),
        ("Net, uses the clock", "net"),
        ("Net fast (100 visits)", "net:visits=100"),
        ("Net medium (2 s)", "net:time=2"),
        ("Net strong (8 s)", "net:time=8"),
        *((f"Rank {r} (the net's policy)", f"rank:{r}") for r in RANK_PRESETS),
        *TEACHING_PRESETS,
        ("Random", "random"),
        ("Monte-Carlo (G=10, T=3)", "montecarlo:10,3"),
        ("Monte-Carlo (G=30, T=0)", "montecarlo:30,0"),
        ("MCTS, uses the clock", "mcts"),
        ("MCTS fast (1000 playouts)", "mcts:playouts=1000"),
        ("MCTS medium (2 s)", "mcts:time=2"),
        ("MCTS strong (8 s)", "mcts:time=8"),
        ("Alpha-beta (2 s)", "alphabeta:time=2"),
    ]
    names = {"gnugo": "GNU Go", "pachi": "Pachi", "katago": "KataGo", "leelaz": "Leela Zero"}
    for name in installed_engines():
        out.append((f"{names.get(name, name)} (GTP)", f"gtp:{name}"))
    out.append(("GTP engine (command below)", GTP_CUSTOM))
    return out


def gomoku_player_choices() -> list[tuple[str, str]]:
    """(label, spec) of every Gomoku player offered: a human, the random player, the built-in
    Gomoku AIs, a Gomocup engine's command."""
    return [
        ("Human", "human"),
        ("Random", "random"),
        *GOMOKU_PLAYERS,
        ("Gomocup engine (command below)", PBRAIN_CUSTOM),
    ]


def choices_for(kind: str) -> list[tuple[str, str]]:
    """The players a game ('go' or 'gomoku') offers."""
    return gomoku_player_choices() if kind == "gomoku" else player_choices()


def is_gomoku(rules: str) -> bool:
    """Whether a Rules row value is one of Gomoku's five-rules ('gomoku renju')."""
    return rules.startswith(GOMOKU_PREFIX)


@dataclass
class Field:
    """One row: a choice among ``choices`` (label, value), or typed text when ``editable``."""

    key: str
    label: str
    choices: list[tuple[str, Any]]
    index: int = 0
    editable: bool = False
    text: str = ""

    @property
    def value(self) -> Any:
        """The typed text of an editable field, else the chosen value."""
        return self.text if self.editable else self.choices[self.index][1]

    @property
    def shown(self) -> str:
        """What the row shows."""
        return self.text if self.editable else self.choices[self.index][0]

    def cycle(self, step: int) -> None:
        """The next (+1) or previous (-1) choice; an editable field takes the choice as its text."""
        if not self.choices:
            return
        self.index = (self.index + step) % len(self.choices)
        if self.editable:
            self.text = str(self.choices[self.index][1])

    def select(self, value: Any) -> bool:
        """Choose value (or type it, when editable); False when it is not one of the choices."""
        for i, (_, v) in enumerate(self.choices):
            if v == value:
                self.index = i
                if self.editable:
                    self.text = str(v)
                return True
        if self.editable:
            self.text = str(value)
            return True
        return False


@dataclass
class NewGame:
    """What the form makes: everything a new game needs."""

    size: int = 19
    rules: str = "chinese"
    komi: float = 7.5
    handicap: int = 0
    placement: str = "fixed"
    black: str = "human"
    white: str = "human"
    clock: TimeControl = field(default_factory=TimeControl)
    opening: str = "free"  # Gomoku: "swap2" opens by Swap2 (the Black row's player opens)
    teach: str = "off"  # the teaching game: off, human (the human sides), black, white, both

    @property
    def game(self) -> str:
        """'gomoku' for a Gomoku rule, else 'go'."""
        return "gomoku" if is_gomoku(self.rules) else "go"

    def handicap_points(self) -> list[int]:
        """The handicap stones (fixed or free placement), [] for none."""
        if not self.handicap:
            return []
        place = fixed_handicap_points if self.placement == "fixed" else free_handicap_points
        return place(self.size, self.handicap)


class FormError(ValueError):
    """A choice that cannot make a game; the message is one line naming the field."""


def _check_rank_players(ng: NewGame) -> None:
    """A rank, score-loss or policy AI needs the net: FormError (one line) on a board it does not play."""
    for colour, spec in (("Black", ng.black), ("White", ng.white)):
        kind = spec.partition(":")[0]
        if kind in ("rank", "scoreloss", "policy"):
            from gorilla.ai.puct.evaluator import supports
            from gorilla.rules.game import Game

            if not supports(Game.new(ng.size, ng.rules, ng.komi)):
                raise FormError(f"{colour}: {kind} AIs need the net, which plays 7x7..19x19 (not Little-Go)")


def _teach(teach: str, ng: NewGame) -> str:
    """The Teaching row's choice, checked: Go only, and a named side must be a human's."""
    if teach == "off":
        return teach
    if ng.game != "go":
        raise FormError("Teaching (Go): Gomoku has no teaching game (choose off)")
    humans = {"black": ng.black == "human", "white": ng.white == "human"}
    if teach == "human" and not any(humans.values()):
        raise FormError("Teaching (Go): no human plays (choose off, or a human player)")
    for side in ("black", "white"):
        if teach in (side, "both") and not humans[side]:
            raise FormError(f"Teaching (Go): {side.capitalize()} is not played by a human")
    return teach


class NewGameForm:
    """The dialog's rows and focus; ``result()`` checks them and makes a :class:`NewGame`.

    The rows and their choices follow the game the Rules row names (``kind``): Go shows its
    komi and handicap rows and its players, Gomoku its players and opening; the handicap
    placement shows with handicap stones, an engine's command row with a typed-in engine.
    When the Rules row changes the game, the rows of the game left are kept (and come back
    with it) and the other game's come back as last seen (``other``: its remembered rows),
    else its defaults. ``fields`` are the rows shown; ``focus`` indexes them.
    """

    def __init__(self, remembered: dict | None = None, other: dict | None = None) -> None:
        self.all_fields = [
            Field("size", "Board size", [(f"{n}x{n}", n) for n in SIZES["go"]], index=17),
            Field("rules", "Rules", [(r, r) for r in RULES + GOMOKU_RULES]),
            Field("komi", "Komi", [(k, k) for k in KOMI_PRESETS], editable=True, text="7.5"),
            Field("handicap", "Handicap", [("none", 0)] + [(str(n), n) for n in range(2, 10)]),
            Field("placement", "Handicap placement", [("fixed", "fixed"), ("free", "free")]),
            Field("black", "Black", player_choices()),
            Field("black_cmd", "Black engine command", [], editable=True),
            Field("white", "White", player_choices()),
            Field("white_cmd", "White engine command", [], editable=True),
            Field("teach", "Teaching", list(TEACH_CHOICES)),
            Field("opening", "Opening", [("free", "free"), ("swap2: Black's player opens", "swap2")]),
            Field("clock", "Clock", [(c, c) for c in CLOCK_PRESETS], editable=True, text="none"),
        ]
        self.focus_key = "size"
        self.error = ""
        self.typed = ""  # digits typed on the size row, chosen when the row is left or the form sent
        self.kept: dict[str, dict] = {}  # the rows of the game not chosen, by game
        if remembered:
            self.restore(remembered)
        if other:
            self.kept[self._kind_of(other)] = self._game_rows(other)

    # --- the rows shown --------------------------------------------------------------------------
    @property
    def kind(self) -> str:
        """'gomoku' for a Gomoku rule, else 'go': the game the rows are for."""
        return "gomoku" if is_gomoku(self["rules"].value) else "go"

    @property
    def fields(self) -> list[Field]:
        """The rows shown for the game chosen (see the class docstring)."""
        return [f for f in self.all_fields if self.shows(f.key)]

    def shows(self, key: str) -> bool:
        """Whether the row key applies to the game and the choices made."""
        if key not in GAME_ROWS[self.kind]:
            return False
        if key == "placement":
            return bool(self["handicap"].value)
        if key.endswith("_cmd"):
            return self[key[: -len("_cmd")]].value in (GTP_CUSTOM, PBRAIN_CUSTOM)
        return True

    @property
    def focus(self) -> int:
        """The focused row's place among the rows shown."""
        keys = [f.key for f in self.fields]
        return keys.index(self.focus_key) if self.focus_key in keys else 0

    @focus.setter
    def focus(self, i: int) -> None:
        self.focus_key = self.fields[i].key

    def __getitem__(self, key: str) -> Field:
        for f in self.all_fields:
            if f.key == key:
                return f
        raise KeyError(key)

    @property
    def focused(self) -> Field:
        """The row the keys act on."""
        return self.fields[self.focus]

    def move_focus(self, step: int) -> None:
        """Up (-1) / Down (+1), wrapping; Tab and Shift+Tab do the same (a typed size is chosen)."""
        self.commit_typed()
        shown = self.fields
        self.focus_key = shown[(self.focus + step) % len(shown)].key

    def commit_typed(self) -> bool:
        """Choose the board size typed on the size row; False (and the row's error) when it is
        not one of the sizes offered."""
        if not self.typed:
            return True
        n, self.typed = int(self.typed), ""
        if self["size"].select(n):
            self.error = ""
            return True
        sizes = [v for _, v in self["size"].choices]
        self.error = f"Board size: {min(sizes)} to {max(sizes)}, got {n}"
        return False

    def row_text(self, i: int) -> str:
        """What shown row i shows: its value, the digits being typed on the size row, a cursor
        on a focused text row."""
        f = self.fields[i]
        if i == self.focus and f.key == "size" and self.typed:
            return self.typed + "_"
        return f.shown + ("_" if f.editable and i == self.focus else "")

    # --- changing the rows -----------------------------------------------------------------------
    def cycle(self, step: int) -> None:
        """Left (-1) / Right (+1) on the focused row; a new rule set brings its komi, a rule of
        the other game its rows."""
        f = self.focused
        if f.key == "size":
            self.typed = ""
        kind = self.kind
        f.cycle(step)
        if f.key == "rules":
            self._rules_changed(kind)
        self.recheck()

    def type_text(self, text: str) -> None:
        """Typed characters go into the focused editable row; digits on the size row type a size."""
        f = self.focused
        if f.key == "size":
            self.typed = (self.typed + "".join(ch for ch in text if ch.isdigit()))[-2:].lstrip("0")
        elif f.editable:
            f.text += "".join(ch for ch in text if ch.isprintable() and ch not in "\r\n")
        self.recheck()

    def backspace(self) -> None:
        """Delete the last character of the focused editable row."""
        f = self.focused
        if f.key == "size":
            self.typed = self.typed[:-1]
        elif f.editable:
            f.text = f.text[:-1]
        self.recheck()

    def set(self, key: str, value: Any) -> None:
        """Choose or type value in the row key (tests and remembered settings)."""
        kind = self.kind
        if not self[key].select(value):
            raise FormError(f"{self[key].label}: no choice '{value}'")
        if key == "rules":
            self._rules_changed(kind)
        self.recheck()

    def recheck(self) -> None:
        """While an error shows: check the rows again, the error goes once they are right (or
        names the row still wrong). A size being typed waits for its row to be left."""
        if not self.error or self.typed:
            return
        try:
            self.result()
        except FormError as e:
            self.error = str(e)
        else:
            self.error = ""

    def _rules_changed(self, was: str) -> None:
        """The Rules row changed: a Go rule set brings its komi; another game brings its rows."""
        kind = self.kind
        if kind != was:
            self.kept[was] = self._game_rows(self.remember())
            self._offer(kind)
            for key, value in self.kept.get(kind, self._defaults(kind, self.kept[was])).items():
                self[key].select(value)
        if kind == "go":
            self["komi"].text = f"{get_ruleset(self['rules'].value).komi:g}"

    def _offer(self, kind: str) -> None:
        """The sizes and the players the game offers (a choice not offered goes to the first)."""
        size = self["size"]
        value = size.value
        size.choices = [(f"{n}x{n}", n) for n in SIZES[kind]]
        size.index = 0
        size.select(value)
        for key in ("black", "white"):
            f = self[key]
            value = f.value
            f.choices, f.index = choices_for(kind), 0
            f.select(value)

    @staticmethod
    def _defaults(kind: str, left: dict) -> dict:
        """A game's rows the first time the form shows it: its usual size, the humans of the
        game left, its default AI for the AIs."""
        out: dict[str, Any] = {"size": DEFAULT_SIZE[kind], "handicap": 0, "placement": "fixed"}
        out["opening"], out["teach"] = "free", "off"
        for key in ("black", "white"):
            out[key] = "human" if left.get(key) == "human" else DEFAULT_AI[kind]
        return out

    @staticmethod
    def _kind_of(data: dict) -> str:
        return "gomoku" if is_gomoku(str(data.get("rules", ""))) else "go"

    @staticmethod
    def _game_rows(data: dict) -> dict:
        """The rows of data that belong to its game (not the Rules row, nor the clock)."""
        return {k: data[k] for k in GAME_ROW_KEYS if k in data}

    # --- the game --------------------------------------------------------------------------------
    def _player(self, color: str) -> str:
        spec = self[color].value
        if spec not in (GTP_CUSTOM, PBRAIN_CUSTOM):
            return spec
        cmd = self[f"{color}_cmd"].text.strip()
        if not cmd:
            who = color.capitalize()
            raise FormError(f"{who}: type the engine's command line in '{who} engine command'")
        prefix = "gtp:" if spec == GTP_CUSTOM else "pbrain:"
        return cmd if cmd.startswith(prefix) else prefix + cmd

    def _komi(self) -> float:
        if self.kind == "gomoku":
            return 0.0
        try:
            komi = float(self["komi"].text)
        except ValueError:
            raise FormError(f"Komi: needs a number, got '{self['komi'].text}'") from None
        if komi != komi or abs(komi) > 1000 or komi * 2 != int(komi * 2):
            raise FormError(f"Komi: must be a whole or half number, got '{self['komi'].text}'")
        return komi

    def result(self) -> NewGame:
        """The new game the rows shown describe; raises FormError (one line) for a bad row."""
        if not self.commit_typed():
            raise FormError(self.error)
        size = self["size"].value
        go = self.kind == "go"
        handicap = self["handicap"].value if go else 0
        ng = NewGame(size, self["rules"].value, self._komi(), handicap, self["placement"].value)
        if handicap:
            try:
                ng.handicap_points()
            except ValueError as e:
                raise FormError(f"Handicap: {e}") from None
        ng.black, ng.white = self._player("black"), self._player("white")
        gomoku_specs = {v for _, v in GOMOKU_PLAYERS} | {"random", "human"}
        for colour, spec in (("Black", ng.black), ("White", ng.white)):
            pbrain = spec.startswith("pbrain:")
            if not go and spec not in gomoku_specs and not pbrain:
                raise FormError(
                    f"{colour}: {spec} plays Go, not Gomoku (choose a human, a Gomoku AI or a Gomocup engine)"
                )
            if go and (pbrain or spec in gomoku_specs - {"random", "human"} and spec != "mcts"):
                raise FormError(f"{colour}: {spec} plays Gomoku, not Go")
        if go:
            _check_rank_players(ng)
        ng.teach = _teach(self["teach"].value, ng) if go else "off"
        try:
            ng.clock = parse_clock(self["clock"].text)
        except ClockSpecError as e:
            raise FormError(f"Clock: {e}") from None
        ng.opening = "free" if go else self["opening"].value
        if not go and size < 5:
            raise FormError(f"Board size: Gomoku needs 5x5 or more, got {size}x{size}")
        return ng

    # --- remembering -----------------------------------------------------------------------------
    def remember(self) -> dict:
        """The rows as a JSON-able dict for the settings."""
        return {f.key: f.value for f in self.all_fields}

    def restore(self, data: dict) -> None:
        """Take remembered values back (the Rules row first: it decides the other rows'
        choices); unknown or stale ones are skipped."""
        if "rules" in data and self["rules"].select(data["rules"]):
            self._offer(self.kind)
        for f in self.all_fields:
            if f.key in data and f.key != "rules":
                f.select(data[f.key])


SETTINGS_KEY = {"go": "new_game", "gomoku": "new_game_gomoku"}  # where each game's last rows are kept


def form_for(kind: str, choices: dict, remembered: dict[str, Any]) -> NewGameForm:
    """The form Ctrl+N opens over a game of kind ('go' or 'gomoku'): that game's last choices
    (remembered: settings key -> rows, :data:`SETTINGS_KEY`) when there are some, else the
    game's own (choices); the other game's last choices wait for the Rules row."""
    other = "gomoku" if kind == "go" else "go"
    mine = remembered.get(SETTINGS_KEY[kind]) or {}
    if not mine or NewGameForm._kind_of(mine) != kind:
        mine = choices
    theirs = remembered.get(SETTINGS_KEY[other]) or {}
    return NewGameForm(mine, theirs if theirs and NewGameForm._kind_of(theirs) == other else None)
