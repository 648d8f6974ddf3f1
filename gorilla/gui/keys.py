"""The keyboard: the keys of :data:`gorilla.app.commands.COMMANDS` as pyglet symbols, the
chord a key press runs, and what each command does in the window (the keys and the toolbar's
buttons both run these actions).

``Keys`` is a mixin of :class:`gorilla.gui.window.GorillaWindow` (pyglet calls its
``on_key_press``); an open modal input is above it on the handler stack and takes its keys first.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pyglet
from pyglet.window import key

from gorilla.app.commands import COMMANDS, split_key

# the keys of gorilla.app.commands as pyglet symbols (a letter or a digit: its character)
KEY_SYMBOLS: dict[str, tuple[int, ...]] = {
    "Enter": (key.ENTER, key.RETURN),
    "Esc": (key.ESCAPE,),
    "Space": (key.SPACE,),
    "Delete": (key.DELETE,),
    "Left": (key.LEFT,),
    "Right": (key.RIGHT,),
    "Up": (key.UP,),
    "Down": (key.DOWN,),
    "Home": (key.HOME,),
    "End": (key.END,),
    "PageUp": (key.PAGEUP,),
    "PageDown": (key.PAGEDOWN,),
    "Pause": (key.PAUSE,),
    "F1": (key.F1,),
    "F3": (key.F3,),
    "[": (key.BRACKETLEFT,),
    "]": (key.BRACKETRIGHT,),
    "+": (key.PLUS,),
    "=": (key.EQUAL,),
    "-": (key.MINUS,),
    "Num+": (key.NUM_ADD,),
    "Num-": (key.NUM_SUBTRACT,),
}
BUTTON_COMMANDS: dict[str, str] = {cmd.button: cmd.name for cmd in COMMANDS if cmd.button}


def key_symbols(name: str) -> tuple[int, ...]:
    """The pyglet symbols of a key named as in the commands table."""
    if name in KEY_SYMBOLS:
        return KEY_SYMBOLS[name]
    if len(name) != 1 or not name.isalnum():
        raise ValueError(f"no pyglet key for {name!r}")
    return (ord(name.lower()),)  # pyglet numbers a letter or digit key by its lower-case character


def _bindings() -> dict[tuple[bool, bool, bool, int], str]:
    """(Ctrl, Alt, Shift, symbol) -> the command's name, for every key of every command."""
    out: dict[tuple[bool, bool, bool, int], str] = {}
    for command in COMMANDS:
        for chord in command.keys:
            mods, name = split_key(chord)
            for symbol in key_symbols(name):
                out["Ctrl" in mods, "Alt" in mods, "Shift" in mods, symbol] = command.name
    return out


BINDINGS = _bindings()


def bound_command(symbol: int, modifiers: int) -> str | None:
    """The command a key press runs: its own chord, else without Shift, then without Alt
    (Shift+c is c, Alt+Shift+Left is Alt+Left); a Ctrl key only runs a Ctrl command."""
    ctrl = bool(modifiers & (key.MOD_CTRL | key.MOD_COMMAND))
    alt, shift = bool(modifiers & key.MOD_ALT), bool(modifiers & key.MOD_SHIFT)
    for a, s in ((alt, shift), (alt, False), (False, shift), (False, False)):
        name = BINDINGS.get((ctrl, a, s, symbol))
        if name is not None:
            return name
    return None


class Keys:
    """A key press runs its command; ``commands`` (built once by ``_command_actions``) maps a
    command's name to its action."""

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """The keys of :data:`gorilla.app.commands.COMMANDS`, each running its command.

        An open modal input (:mod:`gorilla.gui.modal`: the dialog, the comment box, the path
        field, a confirmation) is above this handler and takes its keys first. Esc closes the
        help, never the window.
        """
        self._dirty = True  # (a modal input open takes the keys before this: gorilla.gui.modal)
        name = bound_command(symbol, modifiers)
        if name is not None:
            self.commands[name]()
            self._dirty = True
        return pyglet.event.EVENT_HANDLED

    def _command_actions(self) -> dict[str, Callable[[], object]]:
        """What each command of :data:`gorilla.app.commands.COMMANDS` does, by name (the
        controller is looked up at each call: a new game may swap it)."""
        cam = self.camera
        step = math.radians(5)

        def c():
            return self.controller

        return {
            "toggle_control": lambda: c().toggle_control(),
            "evaluate": self.evaluate,
            "toggle_thinking": lambda: c().toggle_thinking(),
            "toggle_policy": lambda: c().toggle_policy(),
            "toggle_ownership": lambda: c().toggle_ownership(),
            "undo": lambda: c().undo(),
            "redo": lambda: c().redo(),
            "back": lambda: c().go_back(1),
            "back10": lambda: c().go_back(10),
            "forward": lambda: c().go_forward(1),
            "forward10": lambda: c().go_forward(10),
            "line_start": lambda: c().go_start(),
            "line_end": lambda: c().go_end(),
            "previous_variation": lambda: c().switch_variation(-1),
            "next_variation": lambda: c().switch_variation(1),
            "promote": lambda: c().promote_variation(),
            "delete_branch": lambda: c().delete_branch(),
            "comment": self.edit_comment,
            "setup": lambda: c().toggle_setup(),
            "tree_view": self.toggle_tree,
            "game_info": self.edit_game_info,
            "setup_side": lambda: c().setup_side_to_move(),
            "reset": self.ask_reset,
            "new_game": self.new_game,
            "pause": lambda: c().toggle_pause(),
            "pass": lambda: c().pass_turn(),
            "two_more": lambda: c().two_more(),
            "resign": self.ask_resign,
            "next_move": lambda: c().advance(),
            "continuous": lambda: c().set_continuous(not c().continuous),
            "analyse": lambda: c().toggle_analysis(),
            "next_mistake": lambda: c().next_mistake(1),
            "previous_mistake": lambda: c().next_mistake(-1),
            "mistake_threshold": lambda: c().cycle_mistake_threshold(),
            "mistake_dots": lambda: c().toggle_mistake_dots(),
            "report": self.show_report,
            "move_numbers": self.cycle_move_numbers,
            "coordinates": self.toggle_coordinates,
            "mute": self.toggle_mute,
            "volume_down": lambda: self.change_volume(-0.1),
            "volume_up": lambda: self.change_volume(0.1),
            "save": self.save,
            "load": self.open_prompt,
            "orbit_left": lambda: cam.orbit(step, 0),
            "orbit_right": lambda: cam.orbit(-step, 0),
            "tilt_up": lambda: cam.orbit(0, step),
            "tilt_down": lambda: cam.orbit(0, -step),
            "default_view": cam.reset,
            "zoom_in": lambda: cam.zoom(0.9),
            "zoom_out": lambda: cam.zoom(1 / 0.9),
            "top_view": self.top_view,
            "help": self.toggle_help,
            "close_help": self.close_help,
            "quit": self.close,
        }
