"""The game report dialog (F3, the Report button): :mod:`gorilla.app.go.report`'s figures of the
line on the board as a table, Black on the left, White on the right, each figure beside a bar
(accuracy of 100, mean points lost of 5, the top-1 and top-5 match of all moves), then the moves
in each class of points lost as a bar chart in the classes' colours (a bar: that share of the
player's moves). The figures are those of the analysis when it opened.

Keys: 1-4 (or Tab, Left/Right) choose the phase (the whole game, opening, middle game,
endgame: the tabs along its top, a click on one chooses it too); Esc, Enter or F3 close it.
Opaque and modal: nothing under it takes a click or a key while it is open.
"""

from __future__ import annotations

import pyglet
from pyglet import shapes
from pyglet.window import key

from gorilla.app.go.report import (
    CLASS_COLORS,
    CLASS_NAMES,
    PHASE_NAMES,
    GameReport,
    Stats,
    class_labels,
    phases,
)
from gorilla.gui.modal import ENTER, HANDLED, Host, Modal
from gorilla.gui.newgame_dialog import ACCENT, DIM, TEXT
from gorilla.gui.toolbar import BAR, centre_box, text_label
from gorilla.rules.board import BLACK, WHITE

WIDTH, HEIGHT = 450, 420
ROW = 22  # a table row's height
BAR_MAX = 90  # a full bar's length in pixels
B_NUMBER, B_BAR, MIDDLE, W_BAR, W_NUMBER = 58, 154, 225, 296, 392  # columns, from the box's left edge
OPAQUE = (18, 21, 25, 255)  # the box: nothing of the board shows through
STAT_BAR = (70, 110, 170, 255)
TAB_W = 105
NAME_CHARS = 24  # a player's heading at most
TABS = ("Whole game", "Opening", "Middle game", "Endgame")
STATS = (  # (label, the figure, the value of a full bar, the text's format)
    ("moves", lambda s: s.moves, None, "{:d}"),
    ("accuracy", lambda s: s.accuracy, 100.0, "{:.1f}"),
    ("mean points lost", lambda s: s.mean_lost, 5.0, "{:.2f}"),
    ("top-1 match", lambda s: s.top1, 1.0, "{:.0%}"),
    ("top-5 match", lambda s: s.top5, 1.0, "{:.0%}"),
)


class _Row:
    """One row of the table: its middle label, each player's number and bar."""

    def __init__(self, batch, groups, label: str, color: tuple[int, int, int, int]) -> None:
        _, mid, fg = groups
        self.x = self.y = 0
        self.shares = {BLACK: 0.0, WHITE: 0.0}
        self.label = text_label(batch, fg, 10, TEXT, text=label, anchor_x="center", anchor_y="center")
        self.numbers = {
            c: text_label(batch, fg, 10, TEXT, anchor_x=a, anchor_y="center")
            for c, a in ((BLACK, "right"), (WHITE, "left"))
        }
        self.bars = {
            c: shapes.Rectangle(0, 0, 1, ROW - 8, color=color, batch=batch, group=mid) for c in self.shares
        }

    def place(self, x: int, y: int) -> None:
        """The row's centre line at y, the box's left edge at x."""
        self.x, self.y = x, y
        self.label.position = (x + MIDDLE, y, 0)
        self.numbers[BLACK].position = (x + B_NUMBER, y, 0)
        self.numbers[WHITE].position = (x + W_NUMBER, y, 0)
        self._bars()

    def show(self, values: dict[int, tuple[str, float]]) -> None:
        """Each player's number as text and bar as a share of a full one (0..1)."""
        for color, (text, share) in values.items():
            if self.numbers[color].text != text:
                self.numbers[color].text = text
            self.shares[color] = max(0.0, min(1.0, share))
        self._bars()

    def _bars(self) -> None:
        for color, share in self.shares.items():
            length = round(BAR_MAX * share)
            bar = self.bars[color]
            bar.width = max(1, length)
            bar.visible = length > 0
            left = B_BAR - length if color == BLACK else W_BAR
            bar.position = (self.x + left, self.y - (ROW - 8) // 2)


class ReportDialog(Modal):
    """The report's table and chart over the board (see the module docstring)."""

    def __init__(self, window: Host, report: GameReport, names: tuple[str, str]) -> None:
        super().__init__(window)
        self.report = report
        self.phase = 0  # index into PHASE_NAMES
        self.batch = pyglet.graphics.Batch()
        groups = tuple(pyglet.graphics.Group(order=i) for i in range(3))
        bg, mid, fg = groups
        self.box = shapes.Rectangle(0, 0, WIDTH, HEIGHT, color=OPAQUE, batch=self.batch, group=bg)
        self.tab_bar = shapes.Rectangle(0, 0, TAB_W - 6, ROW, color=BAR, batch=self.batch, group=mid)
        self.title = text_label(self.batch, fg, 15, TEXT, text="Game report", weight="bold")
        self.tabs = [
            text_label(self.batch, fg, 10, TEXT, text=t, anchor_x="center", anchor_y="center") for t in TABS
        ]
        self.names = [
            text_label(
                self.batch,
                fg,
                10,
                TEXT,
                text=_short(n, who),
                anchor_x="center",
                anchor_y="center",
                weight="bold",
            )
            for n, who in zip(names, ("Black", "White"), strict=True)
        ]
        self.stats = [_Row(self.batch, groups, label, STAT_BAR) for label, *_ in STATS]
        self.chart_head = text_label(
            self.batch, fg, 10, DIM, text="moves by points lost", anchor_x="center", anchor_y="center"
        )
        labels = class_labels(report.thresholds)
        self.classes = [
            _Row(self.batch, groups, f"{lab}  {name}", (*rgb, 255))
            for lab, name, rgb in zip(labels, CLASS_NAMES, CLASS_COLORS, strict=False)
        ]
        self.footer = text_label(self.batch, fg, 9, DIM)
        self.hint = text_label(self.batch, fg, 9, ACCENT, text="1-4, Tab: phase    Esc, Enter, F3: close")
        self.x = self.y = 0
        self.refresh()

    # --- layout and content ----------------------------------------------------------------------
    def tab_y(self) -> int:
        """The tabs' centre line."""
        return self.y + HEIGHT - 58

    def layout(self, view_width: int, height: int) -> None:
        """Centre the dialog in the board view."""
        self.x, self.y = centre_box(self.box, view_width, height)
        x, top = self.x, self.y + HEIGHT
        self.title.position = (x + 16, top - 30, 0)
        for i, tab in enumerate(self.tabs):
            tab.position = (x + 14 + TAB_W * i + TAB_W // 2, self.tab_y(), 0)
        self.names[0].position = (x + (B_NUMBER + B_BAR) // 2, top - 86, 0)
        self.names[1].position = (x + (W_BAR + W_NUMBER) // 2, top - 86, 0)
        for i, row in enumerate(self.stats):
            row.place(x, top - 112 - ROW * i)
        self.chart_head.position = (x + MIDDLE, top - 112 - ROW * len(STATS) - 4, 0)
        for j, row in enumerate(self.classes):
            row.place(x, top - 112 - ROW * (len(STATS) + 1) - 8 - ROW * j)
        self.footer.position = (x + 16, self.y + 34, 0)
        self.hint.position = (x + 16, self.y + 12, 0)
        self.refresh()

    def stats_of(self, color: int) -> Stats:
        """One player's figures in the phase shown."""
        return self.report.stats(color, PHASE_NAMES[self.phase])

    def refresh(self) -> None:
        """The rows' numbers and bars for the phase shown, the tab under it, the footer."""
        mine = {c: self.stats_of(c) for c in (BLACK, WHITE)}
        for (_, figure, full, fmt), row in zip(STATS, self.stats, strict=True):
            row.show({c: _figure(figure(s), full, fmt) for c, s in mine.items()})
        for k, row in enumerate(self.classes):
            row.show(
                {c: (str(s.classes[k]), s.classes[k] / s.moves if s.moves else 0.0) for c, s in mine.items()}
            )
        self.tab_bar.position = (self.x + 17 + TAB_W * self.phase, self.tab_y() - ROW // 2)
        span = "" if self.phase == 0 else _span(self.report.size, self.phase)
        self.footer.text = "accuracy = 100 x 0.75^mean points lost" + span

    # --- input ----------------------------------------------------------------------------------
    def choose(self, phase: int) -> None:
        """Show another phase (0: the whole game)."""
        self.phase = phase % len(PHASE_NAMES)
        self.refresh()
        self.window.invalidate()

    def prompt_line(self) -> str | None:
        """No one-line prompt: the dialog shows itself."""
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """1-4, Tab, Left/Right: the phase; Esc, Enter, F3: close."""
        if symbol in ENTER or symbol in (key.ESCAPE, key.F3):
            self.close()
        elif key._1 <= symbol <= key._4:
            self.choose(symbol - key._1)
        elif symbol == key.LEFT or (symbol == key.TAB and modifiers & key.MOD_SHIFT):
            self.choose(self.phase - 1)
        elif symbol in (key.RIGHT, key.TAB):
            self.choose(self.phase + 1)
        return HANDLED

    def on_text(self, text: str) -> bool:
        """Typed text stops here."""
        return HANDLED

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """A click on a tab chooses its phase; every click stops here."""
        if abs(y - self.tab_y()) <= ROW // 2:
            i = (x - self.x - 14) // TAB_W
            if 0 <= i < len(TABS):
                self.choose(i)
        return HANDLED

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """Stops here (no move under the dialog)."""
        return HANDLED

    def draw(self) -> None:
        """The box, the table, the chart."""
        self.batch.draw()


def _short(name: str, who: str, most: int = NAME_CHARS) -> str:
    """'Black' or 'Black: name', cut to most characters."""
    text = f"{who}: {name}" if name else who
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def _figure(value, full: float | None, fmt: str) -> tuple[str, float]:
    if value is None:
        return "-", 0.0
    return fmt.format(value), (0.0 if full is None else float(value) / full)


def _span(size: int, phase: int) -> str:
    name, first, last = phases(size)[phase - 1]
    return f";  {name}: moves {first}-{'' if last is None else last}"
