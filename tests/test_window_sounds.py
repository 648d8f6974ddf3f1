"""The window's sounds, clocks in the panel and remembered view settings, in a real window
under Xvfb (pyglet's silent audio driver where there is no device)."""

from __future__ import annotations

import functools
import wave
from pathlib import Path

import pytest
from test_window import Harness, app_window, gui  # noqa: F401  (fixtures)

from gorilla.app.clock import parse_clock
from gorilla.app.settings import Settings
from gorilla.gui import sounds as snd

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def window(app_window):  # noqa: F811
    """Windows on a 9x9 board, 800x600."""
    return functools.partial(app_window, 9, 800, 600)


def test_every_sound_decodes_and_the_generator_rebuilds_them(tmp_path, gui):  # noqa: F811
    import pyglet.media

    folder = snd.sound_dir()
    assert folder is not None
    for name in snd.NAMES:
        path = folder / f"{name}.wav"
        with wave.open(str(path)) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 22050)
            assert 0.05 < w.getnframes() / 22050 < 2.0
        assert pyglet.media.load(str(path), streaming=False).duration > 0.05
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "assets" / "make_sounds.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(tmp_path) == 0
    for name in snd.NAMES:
        assert (tmp_path / f"{name}.wav").read_bytes() == (folder / f"{name}.wav").read_bytes(), name


def test_each_game_event_plays_its_sound(window):
    h = window()
    s = h.w.sounds
    assert s.problem is None  # no audio device here: the silent driver, no error
    import pyglet.media

    assert pyglet.media.get_audio_driver() is not None
    for vertex in ("B1", "A1"):
        h.click_point(vertex)
    h.click_point("A2")  # captures A1
    h.click_point("B1")  # occupied
    h.click(*h.screen_of("E5"), button=h.mouse.RIGHT)  # pass
    names = [n for n, _ in s.log]
    assert names[0] in snd.STONES and names[1] in snd.STONES and names[0] != names[1]
    assert names[2] in snd.STONES and names[3] == "capture"
    assert names[4:] == ["illegal", "pass"]
    assert snd.capture_volume(1) < snd.capture_volume(6) <= 1.0
    h.c.resign()
    h.frame()
    assert s.log[-1][0] == "game_end"


def test_countdown_sounds_and_the_clock_in_the_panel(window):
    t = [1000.0]
    h = window(clock=parse_clock("0+2x5s"), now=lambda: t[0])
    h.click_point("D4")
    h.click_point("E5")  # Black's clock runs from here
    clock = h.w.hud.clocks[1]
    assert clock.visible and clock.text == "5.0 (2)"
    t[0] += 7.5
    h.frame()
    assert clock.text == "2.5 (1)" and tuple(clock.color) == (255, 96, 80, 255)
    # one count per second shown: White's 5 after D4, Black's 5 after E5, Black's 3 now (the last ones)
    assert [n for n, _ in h.w.sounds.log if n.startswith("countdown")] == [
        "countdown",
        "countdown",
        "countdown_last",
    ]
    t[0] += 3
    h.frame()
    assert h.c.game.result == "W+T" and h.w.sounds.log[-1][0] == "game_end"
    assert clock.text == "time"


def test_the_pause_button_stops_both_clocks_between_humans(window):
    t = [1000.0]
    h = window(clock=parse_clock("1m"), now=lambda: t[0])
    h.click_point("D4")
    h.click_point("E5")  # Black's clock runs
    h.click(*h.w.toolbar.centre("Pause"))
    assert h.c.clock.paused and "Paused" in h.c.message
    t[0] += 30
    h.click_point("F6")  # refused while paused; no time passes
    assert h.c.game.move_number == 2 and "paused" in h.c.message
    h.click(*h.w.toolbar.centre("Pause"))
    t[0] += 5
    h.frame()
    assert not h.c.clock.paused and h.w.hud.clocks[1].text == "0:55"


def test_mute_volume_move_numbers_and_coordinates_are_remembered(window):
    h = window()
    k = h.key
    h.press(k.M)
    assert h.w.sounds.muted and "Sound off" in h.c.message
    h.click_point("D4")
    assert h.w.sounds.log[-1][0] in snd.STONES  # logged, not heard
    h.press(k.BRACKETLEFT)
    assert not h.w.sounds.muted and h.w.sounds.volume == pytest.approx(0.6)
    h.press(k.I)
    h.press(k.I)
    assert h.w.move_numbers == "all"
    labels = [lab for lab in h.w.hud.board_labels if lab.visible]
    assert [lab.text for lab in labels] == ["1"]
    h.press(k.K)
    assert not h.w.renderer.show_coordinates
    again = Settings()
    assert (again.get("volume"), again.get("muted")) == (0.6, False)
    assert (again.get("move_numbers"), again.get("coordinates")) == ("all", False)
    h2 = window(settings=again)
    assert h2.w.move_numbers == "all" and not h2.w.renderer.show_coordinates


def test_no_sound_files_means_silence_not_an_error(monkeypatch, tmp_path):
    monkeypatch.setattr(snd, "SOUND_DIRS", (tmp_path,))
    s = snd.Sounds()
    s.play("stone0")
    assert s.problem and s.log == [("stone0", 0.7)]


def test_toolbar_buttons_with_the_mouse_and_resign_with_a_confirmation(window, tmp_path):
    h = window()
    bar = h.w.toolbar
    names = ["New", "Pass", "Resign", "Undo", "Evaluate", "Ponder", "Pause", "Save", "Load", "Report"]
    assert list(bar.buttons) == names
    h.frame()
    assert all(b.enabled for b in bar.buttons.values())  # Go has every button's command
    h.click(*bar.centre("Report"))  # nothing analysed yet: says so, no dialog
    assert bar.pressed[-1] == "Report" and "No game report yet" in h.c.message and not h.w.modals
    h.click_point("D4")
    h.click(*bar.centre("Pause"))  # no clock in this game: says so, nothing else changes
    assert bar.pressed[-1] == "Pause" and "No clock is running" in h.c.message
    h.click(*bar.centre("Pass"))
    assert h.c.game.moves[-1].point == -1 and h.c.game.to_move == 1
    h.click(*bar.centre("Undo"))
    assert h.c.game.move_number == 1
    h.click(*bar.centre("Save"))  # the file picker, a time-stamped name typed in: Enter saves
    assert h.w.picker is not None
    h.press(h.key.ENTER)
    assert "Saved" in h.c.message and h.w.picker is None
    # the button's face is drawn over the panel where the toolbar says it is
    x, y = bar.centre("Resign")
    img = h.screen()
    assert tuple(img[y + 8, x - bar.button_w // 2 + 3]) == (52, 60, 72)
    # a press that leaves the button before the release does nothing
    h.event("on_mouse_press", x, y, h.mouse.LEFT, 0)
    h.event("on_mouse_release", x, y + 200, h.mouse.LEFT, 0)
    h.frame()
    assert bar.pressed[-1] == "Save"
    h.click(x, y)  # White to move: asks first
    assert not h.c.over and h.w.confirm == "resign" and h.w.modals[-1].question.startswith("Resign as White?")
    h.press(h.key.ESCAPE)
    assert not h.c.over and "cancelled" in h.c.message
    h.click(x, y)
    h.click(x, y)  # confirmed
    assert h.c.over and h.c.game.result == "B+R"
    h.click(*bar.centre("New"))  # the dialog, filled in from the game on the board
    assert h.w.dialog is not None and h.w.dialog.form["size"].value == 9
    h.press(h.key.ENTER)
    assert h.w.dialog is None and h.c.game.move_number == 0 and not h.c.over and h.c.game.size == 9
    h.click_point("E5")
    h.click(*bar.centre("Resign"))
    h.press(h.key.Y)  # White, to move after E5, resigns
    assert h.c.game.result == "B+R" and h.c.game.resigned == 2
