"""The commands table is the one list of the window's keys and buttons: the window binds it, and
the panel's help, ``gorilla --help``, docs/controls.md and docs/playing.md agree with it."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from test_window import gui, make  # noqa: F401  (fixtures)

from gorilla.app import commands as cmds
from gorilla.app.commands import BUTTONS, BY_NAME, COMMANDS, DOC_ROWS, HUD_ROWS, split_key

ROOT = Path(__file__).resolve().parent.parent


def test_names_are_unique_and_no_key_runs_two_commands():
    assert len(BY_NAME) == len(COMMANDS)
    seen: dict[tuple[frozenset, str], str] = {}
    for c in COMMANDS:
        for k in c.keys:
            mods, name = split_key(k)
            chord = (frozenset(mods), name.lower() if len(name) == 1 else name)
            assert chord not in seen, f"{k} runs both {seen[chord]} and {c.name}"
            seen[chord] = c.name


def test_split_key():
    assert split_key("Ctrl+Shift+Z") == (("Ctrl", "Shift"), "Z")
    assert split_key("+") == ((), "+")
    assert split_key("Num+") == ((), "Num+")
    assert split_key("Alt+n") == (("Alt",), "n")


def test_every_button_is_one_command():
    assert sorted(BUTTONS) == sorted(c.button for c in COMMANDS if c.button)


def test_docs_controls_key_table_is_made_from_the_commands():
    text = (ROOT / "docs" / "controls.md").read_text(encoding="utf-8")
    table = cmds.controls_keys_table()
    assert table in text, "docs/controls.md's key table differs from the commands table:\n" + table
    covered = [n for row in DOC_ROWS for n in row.commands]
    assert sorted(covered) == sorted(c.name for c in COMMANDS if c.keys), "one row per command with keys"
    toolbar = next(line for line in text.splitlines() if line.startswith("| toolbar buttons"))
    assert all(b in toolbar for b in BUTTONS)


def test_playing_key_table_is_the_panels_help():
    text = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    assert cmds.readme_keys_table() in text
    toolbar = text[text.index("The panel's toolbar has") :].split(".")[0]
    assert all(b in toolbar for b in BUTTONS)


def test_gorilla_help_names_the_right_keys():
    from gorilla.launcher.cli import HELP

    assert textwrap.fill(cmds.cli_keys_line(), 84) in HELP
    line = " ".join(HELP[HELP.index("In the window: left click") :].split("\n\n")[0].split())
    for name in cmds.CLI_KEYS:  # each key beside its own command's words
        c = BY_NAME[name]
        assert f"{c.keys[0]} {c.help}" in line


def _mentioned(key: str, text: str) -> bool:
    """Whether a row's text names a key (its base name as a word; arrows as 'arrow keys')."""
    name = split_key(key)[1]
    if name in ("Left", "Right", "Up", "Down") and "arrow keys" in text:
        return True
    words = re.split(r"[\s,/();:]+", text.replace("Num", ""))
    return any(name.lower() in (w.lower(), w.split("+")[-1].lower()) for w in words if w)


def test_the_panels_help_rows_cover_every_command_with_its_own_keys():
    covered = [n for row in HUD_ROWS for n in row.commands]
    assert sorted(covered) == sorted(c.name for c in COMMANDS if c.keys)
    for row in HUD_ROWS:
        for name in row.commands:
            key = BY_NAME[name].keys[0]
            assert _mentioned(key, row.keys + " " + row.text), f"{row.keys!r} does not name {key} ({name})"


def test_a_wrong_key_in_a_help_row_is_caught():
    assert not _mentioned("f", "l / Delete this line as main line")
    assert _mentioned("Alt+Home", "orbit / tilt;  Alt+Home: default view")


@pytest.mark.gui
def test_the_window_binds_every_key_and_runs_every_command(gui):  # noqa: F811
    gw = gui
    from pyglet.window import key

    for c in COMMANDS:
        for k in c.keys:
            mods, name = split_key(k)
            modifiers = (key.MOD_CTRL if "Ctrl" in mods else 0) | (key.MOD_ALT if "Alt" in mods else 0)
            modifiers |= key.MOD_SHIFT if "Shift" in mods else 0
            for symbol in gw.key_symbols(name):
                assert gw.bound_command(symbol, modifiers) == c.name, k
    # a key with Shift or Alt and no command of its own is the plain key; Ctrl never falls through
    assert gw.bound_command(key.C, key.MOD_SHIFT) == "toggle_control"
    assert gw.bound_command(key.LEFT, key.MOD_ALT | key.MOD_SHIFT) == "orbit_left"
    assert gw.bound_command(key.C, key.MOD_CTRL) is None


@pytest.mark.gui
def test_every_command_has_an_action_and_every_button_runs_its_command(make):  # noqa: F811
    h = make()
    assert set(h.w.commands) == set(BY_NAME)
    assert list(h.w.toolbar.actions) == list(BUTTONS)
    h.click(*h.w.toolbar.centre("Pass"))  # the Pass button runs the pass command
    assert h.c.game.move_number == 1 and h.c.game.moves[0].point < 0
