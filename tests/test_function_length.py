"""No function in gorilla/app/ runs over 80 lines (the controller's once did): the same check as
gorilla/gui/'s (tests/test_gui_functions.py), over the app's modules."""

from __future__ import annotations

from pathlib import Path

from test_gui_functions import MAX_LINES, long_functions

APP = Path(__file__).resolve().parent.parent / "gorilla" / "app"


def test_no_app_function_is_over_80_lines() -> None:
    assert MAX_LINES == 80
    assert long_functions(APP) == []
