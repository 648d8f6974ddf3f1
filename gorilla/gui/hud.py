"""The heads-up display: a side panel with players, captures, game info, AI status and its
progress bar, evaluation, messages and the result; the key help; a one-line text prompt;
labels projected onto board points (win rates of candidates; their pool:
:class:`gorilla.gui.board_labels.LabelPool`)."""

from __future__ import annotations

import time

import pyglet
from pyglet import shapes
from pyglet.text import Label

from gorilla.app.commands import HUD_ROWS
from gorilla.app.record_info import RecordInfo, shown_name
from gorilla.app.status_text import search_count, status_lines
from gorilla.app.table import Table
from gorilla.gui.board_labels import LabelPool
from gorilla.gui.layout import Layout
from gorilla.gui.overlay import candidate_lines, eval_legend
from gorilla.gui.toolbar import ELLIPSIS, FONT, set_fitted, text_label
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import format_vertex

MONO = ["DejaVu Sans Mono", "Courier New", "Courier"]
PANEL_BG = (22, 25, 29, 255)
TEXT = (226, 228, 232, 255)
DIM = (150, 156, 164, 255)
ACCENT = (88, 166, 255, 255)
WARN = (255, 190, 80, 255)
LOW = (255, 96, 80, 255)  # a clock close to its flag
LOW_SECONDS = 10.0

HELP_BG = (14, 16, 19, 255)  # opaque: nothing shows through the help
HELP_PAD, HELP_GAP = 18, 24  # the help box's margin; between the keys and their texts
HELP = [(row.keys, row.text) for row in HUD_ROWS]  # the panel's help (h), from the commands table


MESSAGE_ROOM = 58  # pixels the game's text leaves for a message where room is short (two lines, gaps)


class Hud:
    """All 2D drawing; ``update(controller, ...)`` refreshes text, ``draw(show_help)`` draws."""

    def __init__(self, window: pyglet.window.Window, layout: Layout) -> None:
        self.window = window
        self.panel_width = layout.panel_w
        self.batch = pyglet.graphics.Batch()
        self.help_batch = pyglet.graphics.Batch()
        self.prompt_batch = pyglet.graphics.Batch()
        self.labels = LabelPool()  # the labels over the board, drawn under the panel
        self._prompt_on = False  # the one-line prompt shows
        bg = pyglet.graphics.Group(order=0)
        mid = pyglet.graphics.Group(order=1)
        fg = pyglet.graphics.Group(order=2)
        self.panel = shapes.Rectangle(0, 0, self.panel_width, 10, color=PANEL_BG, batch=self.batch, group=bg)
        self.edge = shapes.Rectangle(0, 0, 1, 10, color=(55, 60, 68, 255), batch=self.batch, group=bg)
        self.title = Label(
            "Gorilla", font_name=FONT, font_size=20, weight="bold", color=TEXT, batch=self.batch, group=fg
        )
        self.subtitle = Label("", font_name=FONT, font_size=10, color=DIM, batch=self.batch, group=fg)
        self.turn_box = shapes.Rectangle(0, 0, 10, 34, color=(44, 52, 64, 255), batch=self.batch, group=bg)
        self.rows = {}
        self.clocks: dict[int, Label] = {}
        for c in (BLACK, WHITE):
            fill = (18, 18, 20, 255) if c == BLACK else (236, 234, 226, 255)
            ring = shapes.Circle(0, 0, 11, color=(120, 120, 120, 255), batch=self.batch, group=mid)
            stone = shapes.Circle(0, 0, 10, color=fill, batch=self.batch, group=fg)
            name = text_label(self.batch, fg, 12, TEXT, weight="bold", anchor_y="center")
            caps = text_label(self.batch, fg, 11, DIM, anchor_x="right", anchor_y="center")
            self.rows[c] = (ring, stone, name, caps)
            self.clocks[c] = text_label(
                self.batch, fg, 12, TEXT, font=MONO, anchor_x="right", anchor_y="center", weight="bold"
            )
        text_w = layout.text_width
        self.info = text_label(self.batch, fg, 11, TEXT, text_w)
        self.legend = text_label(self.batch, fg, 9, DIM, text_w)
        self.bar_bg = shapes.Rectangle(0, 0, 10, 8, color=(50, 56, 64, 255), batch=self.batch, group=mid)
        self.bar = shapes.Rectangle(0, 0, 0, 8, color=ACCENT, batch=self.batch, group=fg)
        self.ai_text = text_label(self.batch, fg, 10, DIM, text_w)
        self.cands = text_label(self.batch, fg, 9, DIM, text_w + 8, font=MONO)
        self.message = text_label(self.batch, fg, 11, WARN, text_w, weight="bold")
        self.footer = text_label(self.batch, fg, 9, DIM, text="h: all keys   c: control map   e: evaluate")
        # help
        self.help_bg = shapes.Rectangle(0, 0, 10, 10, color=HELP_BG, batch=self.help_batch, group=bg)
        # the keys and their texts: two columns that never wrap (a font that fits the window)
        self.help_keys = text_label(
            self.help_batch, fg, 11, ACCENT, 4000, "\n".join(k for k, _ in HELP), weight="bold"
        )
        self.help_text = text_label(self.help_batch, fg, 11, TEXT, 4000, "\n".join(t for _, t in HELP))
        self.help_title = text_label(
            self.help_batch, fg, 15, TEXT, text="Gorilla - keys and mouse", weight="bold"
        )
        # prompt
        self.prompt_bg = shapes.Rectangle(
            0, 0, 10, 34, color=(14, 16, 19, 255), batch=self.prompt_batch, group=bg
        )
        self.prompt = Label(
            "", font_name=MONO, font_size=12, color=TEXT, anchor_y="center", batch=self.prompt_batch, group=fg
        )
        # the tooltip: a player's full spec while the pointer is over the name
        self.tip_batch = pyglet.graphics.Batch()
        self.tip_bg = shapes.Rectangle(0, 0, 10, 22, color=(14, 16, 19, 240), batch=self.tip_batch, group=bg)
        self.tip = text_label(self.tip_batch, fg, 10, TEXT, anchor_y="center")
        self.pointer: tuple[float, float] | None = None  # the mouse in the window, for the tooltip
        self._tip_on = False
        self._text_cache: dict[str, object] = {}
        self._text_bottom = 0
        self.layout(layout)

    @property
    def board_labels(self) -> list[Label]:
        """The labels over the board (shown and hidden ones)."""
        return self.labels.labels

    # --- layout ----------------------------------------------------------------------------
    def layout(self, layout: Layout) -> None:
        """Place the panel, the help and the prompt for the window's layout."""
        width, height = layout.width, layout.height
        pw = self.panel_width = layout.panel_w
        x0 = layout.panel_x
        self._text_bottom = layout.text_bottom
        self._text_cache.clear()  # a name elided for a narrower panel is measured again
        for label in (self.info, self.legend, self.ai_text, self.message):
            label.width = layout.text_width
        self.cands.width = layout.text_width + 8
        self.panel.position = (x0, 0)
        self.panel.width, self.panel.height = pw, height
        self.edge.position = (x0, 0)
        self.edge.height = height
        pad = 16
        self.title.position = (x0 + pad, height - 38, 0)
        self.subtitle.position = (x0 + pad + 104, height - 36, 0)
        y = height - 76
        for c in (BLACK, WHITE):
            ring, stone, name, caps = self.rows[c]
            ring.position = stone.position = (x0 + pad + 12, y)
            name.position = (x0 + pad + 32, y, 0)
            caps.position = (width - pad, y, 0)
            self.clocks[c].position = (width - pad, y, 0)
            y -= 38
        self._row_y = {BLACK: height - 76, WHITE: height - 114}
        self.turn_box.width = pw - 2 * pad + 12
        self.info.position = (x0 + pad, height - 142, 0)
        self._x0, self._pad, self._height, self._width = x0, pad, height, width
        self.footer.position = (x0 + pad, 12, 0)
        self._layout_help(width, height, x0)
        self.prompt_bg.position = (10, 10)
        self.prompt_bg.width = max(100, x0 - 20)
        self.prompt.position = (22, 27, 0)

    def _help_size(self, width: int, height: int) -> tuple[int, int, int]:
        """The help's font (the largest of 11 to 7 points that fits the window, else 7), its
        margin, and so its box's width and height."""
        for size in (11, 10, 9, 8, 7):
            self.help_keys.font_size = self.help_text.font_size = size
            self.help_title.font_size = size + 4
            pad = HELP_PAD if size >= 9 else HELP_PAD // 2  # a small window: narrower margins
            hw = 2 * pad + self.help_keys.content_width + HELP_GAP + self.help_text.content_width
            hh = 2 * pad + self.help_title.content_height + pad // 2 + self.help_keys.content_height
            if hw <= width - 12 and hh <= height - 8:
                break
        return pad, round(hw), round(hh)

    def _layout_help(self, width: int, height: int, view_width: int) -> None:
        """The help box: centred on the board's view where it fits there, else on the window."""
        pad, hw, hh = self._help_size(width, height)
        hx = (view_width - hw) // 2 if view_width >= hw + 20 else (width - hw) // 2
        hx, hy = max(4, hx), max(4, (height - hh) // 2)
        self.help_bg.position = (hx, hy)
        self.help_bg.width, self.help_bg.height = hw, hh
        top = hy + hh - pad
        self.help_title.anchor_y = "top"
        self.help_title.position = (hx + pad, top, 0)
        rows = top - self.help_title.content_height - pad // 2
        self.help_keys.position = (hx + pad, rows, 0)
        self.help_text.position = (hx + pad + self.help_keys.content_width + HELP_GAP, rows, 0)

    def help_box(self) -> tuple[float, float, float, float]:
        """The help box's (x, y, width, height) in window pixels."""
        b = self.help_bg
        return b.x, b.y, b.width, b.height

    def _set(self, label: Label, text: str) -> None:
        """Set label's text (a wrapped label's words fitted to its width) when it changed."""
        key = str(id(label))
        if self._text_cache.get(key) != text:
            self._text_cache[key] = text
            if label.multiline:
                set_fitted(label, text)
            else:
                label.text = text

    def _clip(self, label: Label, bottom: float) -> None:
        """Cut a wrapped label's last words (an ellipsis for them) where it would run below
        bottom: into the graph's text or the toolbar."""
        if label.y - label.content_height >= bottom or not label.text:
            return
        words = label.text.split(" ")
        lo, hi = 0, len(words)  # the most words kept that fit
        while lo < hi:
            mid = (lo + hi + 1) // 2
            label.text = " ".join(words[:mid]) + ELLIPSIS
            lo, hi = (mid, hi) if label.y - label.content_height >= bottom else (lo, mid - 1)
        label.text = " ".join(words[:lo]) + ELLIPSIS if lo else ""

    def _name_room(self, caps: Label) -> float:
        """Pixels a player row's name may take: from its start to the captures count, less a gap."""
        return (
            self.panel_width
            - 2 * self._pad
            - 32
            - (self._width - self._pad - caps.x)
            - caps.content_width
            - 14
        )

    def _set_elided(self, label: Label, head: str, tail: str, room: float) -> None:
        """label = head + tail, the tail cut short with an ellipsis when it would not fit in room."""
        self._set(label, head + tail)
        if label.content_width <= room:
            return
        lo, hi = 0, len(tail)  # the longest prefix of tail that fits with the ellipsis
        while lo < hi:
            mid = (lo + hi + 1) // 2
            label.text = head + tail[:mid] + "\u2026"
            lo, hi = (mid, hi) if label.content_width <= room else (lo, mid - 1)
        text = head + tail[:lo].rstrip(",:=") + "\u2026"
        self._text_cache[str(id(label))] = head + tail  # the full text is what the cache compares
        label.text = text

    # --- content ---------------------------------------------------------------------------
    def update(self, controller: Table, notice: str = "", text_bottom: float | None = None) -> None:
        """Refresh the panel from the controller; notice (a GUI-side problem) shows with its
        message; text_bottom: where the panel's text must end (the graph's top; else the layout's)."""
        if text_bottom is not None:
            self._text_bottom = text_bottom
        game = controller.game
        views = controller.clock_views()
        self._update_players(controller, views)
        to_move = controller.acting  # the side to move; in a Swap2 opening, the player who acts
        self.turn_box.visible = not controller.over
        self.turn_box.position = (self._x0 + self._pad - 6, self._row_y[to_move] - 17)
        ai_vs = " - AI vs AI" if controller.ai_vs_ai else ""
        self._set(self.subtitle, f"{game.size}x{game.size}{ai_vs}")

        msg, y = self._update_info(controller, views, notice)
        y = self._update_ai(controller, y)
        cand = ""
        p = controller.progress
        if controller.show_thinking and p is not None and p.candidates:
            rows = candidate_lines(p.candidates, game.size, letters=controller.column_letters)
            cand = "move   win   visits  pv\n" + "\n".join(rows)
        elif controller.show_thinking and (view := controller.ponder_view()) is not None and view.candidates:
            rows = candidate_lines(view.candidates, game.size, letters=controller.column_letters)
            head = f"Analysis (v): {view.visits} visits, {view.rate:.0f}/s"
            cand = head + "\nmove   win   visits  pv\n" + "\n".join(rows)
        elif controller.show_thinking:
            cand = "Live view on (v): the AI's search; in Go the net's analysis when no AI is to move"
        self.cands.position = (self._x0 + self._pad, y, 0)
        self._set(self.cands, cand)
        if cand:
            y -= self.cands.content_height + 10
        y = self._update_message(msg, y)
        self._update_legend(controller, y)  # last: a key to the board, cut where room ends

    def _update_message(self, msg: str, y: float) -> float:
        """The message below y, smaller and then cut where it would run below the text's
        bottom; the height below it."""
        self.message.position = (self._x0 + self._pad, y - 4, 0)
        key = (msg, round(y), self._text_bottom)
        if self._text_cache.get("message") != key:  # set, then cut to the room it has
            self._text_cache["message"] = key
            for size in (11, 10, 9):  # smaller before it is cut
                self.message.font_size = size
                self._text_cache.pop(str(id(self.message)), None)
                self._set(self.message, msg)
                if self.message.y - self.message.content_height >= self._text_bottom:
                    break
            self._clip(self.message, self._text_bottom)
        return y - 4 - self.message.content_height - 10 if self.message.text else y

    def _update_players(self, controller: Table, views) -> None:
        """Each side's name, and its clock or its captures."""
        game = controller.game
        players = controller.players
        names = controller.names()
        for c in (BLACK, WHITE):
            _, _, name, caps = self.rows[c]
            who = players.get(c, "human")
            clock = self.clocks[c]
            if views is None:
                clock.visible = False
                shown = controller.shows_captures  # Gomoku captures nothing
                caps.visible = shown
                self._set(caps, f"captures {game.captures(c)}" if shown else "")
                caps.x = self._width - self._pad
            else:
                v = views[c]
                clock.visible = True
                self._set(clock, v.text())
                low = v.flagged or v.to_lose <= LOW_SECONDS or (v.overtime and v.seconds <= LOW_SECONDS)
                color = LOW if low else TEXT
                if tuple(clock.color) != color:
                    clock.color = color
                # the clock takes the captures' place; they go into the text below
                caps.visible = False
                self._set(caps, "")
                caps.x = self._width - self._pad - clock.content_width
            self._set_elided(name, "", shown_name(names, c, who), self._name_room(caps))
        self._update_tip(controller)

    def name_row_at(self, x: float, y: float) -> int | None:
        """The colour whose player row is under window pixel (x, y), or None."""
        if x < self._x0:
            return None
        return next((c for c, ry in self._row_y.items() if abs(y - ry) <= 16), None)

    def _update_tip(self, controller: Table) -> None:
        """The full player spec, and the record's name, of the row under the pointer."""
        color = None if self.pointer is None else self.name_row_at(*self.pointer)
        self._tip_on = color is not None
        if color is None:
            return
        side = "Black" if color == BLACK else "White"
        who = controller.players.get(color, "human")
        info = controller.names()
        name = info.name(color) if info is not None else ""
        text = f"{side}: {who}" + (f"  (record: {name})" if name and name != who else "")
        if info is not None:
            text += "   click: edit the names"
        self._set(self.tip, text)
        w = self.tip.content_width + 16
        x = max(4, self._x0 - w - 6)
        y = self._row_y[color]
        self.tip_bg.position = (x, y - 11)
        self.tip_bg.width = w
        self.tip.position = (x + 8, y, 0)

    def _update_info(self, controller: Table, views, notice: str) -> tuple[str, float]:
        """The game's text below the players; (the message, the height below the text)."""
        lines = status_lines(controller)
        if lines and lines[0].startswith("Black:") and "White:" in lines[0]:
            lines = lines[1:]
        drop = ("Captures:", "Clock:") if views is None else ("Clock:",)
        lines = [ln for ln in lines if not ln.startswith(drop)]
        msg = controller.message or ""
        if msg and msg in lines:
            lines.remove(msg)
        if notice:
            msg = f"{msg}\n{notice}" if msg else notice
        thinking_line = None
        for ln in lines:
            if " thinking" in ln and ("(" in ln):
                thinking_line = ln
        if thinking_line is not None:
            lines.remove(thinking_line)
        event = (controller.names() or RecordInfo()).event
        if event:
            lines.insert(0, f"Event: {event}")
        self._fit_info("\n".join(lines), MESSAGE_ROOM if msg else 0)
        y = self._height - 142 - self.info.content_height - 14
        return msg, y

    def _fit_info(self, text: str, reserve: int) -> None:
        """The game's text, smaller and then cut where it would run into the graph's text or the
        toolbar, leaving reserve pixels above them (for the message: a small window)."""
        bottom = self._text_bottom + reserve
        key = (text, self._height, bottom)
        if self._text_cache.get("info") == key:
            return
        self._text_cache["info"] = key
        lines = text.split("\n")
        for size in (11, 10, 9):
            self.info.font_size = size
            if self._info_fits(lines, bottom):
                return
        # still too long: the record's date and event go first, then lines from the end
        lines = [ln for ln in lines if not ln.startswith(("Date:", "Event:"))]
        while len(lines) > 1 and not self._info_fits(lines, bottom):
            lines = lines[:-2] + [lines[-2] + ELLIPSIS]

    def _info_fits(self, lines: list[str], bottom: float) -> bool:
        """Set the game's text to lines; whether it ends above bottom."""
        self._text_cache.pop(str(id(self.info)), None)
        self._set(self.info, "\n".join(lines))
        return self.info.y - self.info.content_height >= bottom

    def _update_legend(self, controller: Table, y: float) -> None:
        """The key to the evaluation's labels on the board while they show, below y, cut where
        it would run below the text's bottom."""
        ev = controller.evaluation
        text = ""
        if controller.show_eval and ev is not None:
            e = ev.evaluation
            text = eval_legend(
                e.values,
                e.best,
                controller.game.size,
                ev.unit,
                controller.column_letters,
                ev.figure(),
                ev.numbers(),
            )
        self.legend.position = (self._x0 + self._pad, y, 0)
        key = (text, round(y), self._text_bottom)
        if self._text_cache.get("legend") != key:
            self._text_cache["legend"] = key
            self._text_cache.pop(str(id(self.legend)), None)
            self._set(self.legend, text)
            self._clip(self.legend, self._text_bottom)

    def _update_ai(self, controller: Table, y: float) -> float:
        """The AI's (or the compile's, or the evaluator's) progress bar and line; the height below."""
        game = controller.game
        to_move = controller.acting
        players = controller.players
        # AI status: progress bar, best move, win rate
        thinking = bool(controller.thinking or controller.evaluating)
        compiler = controller.compiler
        compiling = compiler is not None and compiler.compiling and not thinking
        self.bar_bg.visible = self.bar.visible = thinking or compiling
        ai = ""
        if thinking or compiling:
            p = controller.progress if controller.thinking else controller.eval_progress
            frac = float(p.fraction or 0.0) if p is not None else None
            if compiling:
                frac = max(0.01, compiler.fraction)
            bw = self.panel_width - 2 * self._pad
            self.bar_bg.position = (self._x0 + self._pad, y - 8)
            self.bar_bg.width = bw
            if frac is None or frac <= 0:
                # no progress reported yet: a sliding block shows the program is alive
                phase = (time.monotonic() * 0.8) % 1.0
                self.bar.position = (self._x0 + self._pad + phase * bw * 0.75, y - 8)
                self.bar.width = bw * 0.25
            else:
                self.bar.position = (self._x0 + self._pad, y - 8)
                self.bar.width = bw * min(1.0, frac)
            if controller.thinking:
                c = "Black" if to_move == BLACK else "White"
                ai = f"{c} ({players.get(to_move, 'AI')}) thinking"
                if p is not None and p.best_move is not None:
                    ai += (
                        f"\nbest {format_vertex(p.best_move, game.size, controller.column_letters)}"
                        f"   win {100 * p.winrate:.1f}%"
                        f"   {search_count(p.playouts, players.get(to_move, ''))}   {p.elapsed:.1f}s"
                    )
            elif compiling:
                # Go takes moves while it compiles; the stand-in for a Gomoku game takes none
                ai = (
                    "Compiling the engine; you can play meanwhile"
                    if controller.gomoku_wait is None
                    else "Compiling the Gomoku engine: the game starts when its rules are ready"
                )
            else:
                ai = "Evaluating moves..."
            y -= 20
        self.ai_text.position = (self._x0 + self._pad, y, 0)
        self._set(self.ai_text, ai)
        if ai:
            y -= self.ai_text.content_height + 10
        return y

    def set_prompt(self, text: str | None) -> None:
        """Show the one-line prompt with text, or hide it (None)."""
        self._prompt_on = text is not None
        if text is not None:
            self._set(self.prompt, text)

    def draw(self) -> None:
        """Draw the board labels, the panel, the prompt and the tooltip when shown."""
        self.labels.draw()
        self.batch.draw()
        if self._prompt_on:
            self.prompt_batch.draw()
        if self._tip_on:
            self.tip_batch.draw()

    def draw_help(self) -> None:
        """Draw the key help, over everything else of the window (the toolbar, the graph)."""
        self.help_batch.draw()
