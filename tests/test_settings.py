"""Remembered settings: a JSON file in the config folder; a broken file is ignored with one line."""

from __future__ import annotations

import json

from gorilla.app import settings as S
from gorilla.app.files import default_autosave_path


def test_round_trip_in_the_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GORILLA_CONFIG_DIR", str(tmp_path / "cfg"))
    s = S.Settings()
    assert s.path == str(tmp_path / "cfg" / "settings.json")
    assert s.get("volume") == 0.7 and s.get("move_numbers") == "off" and s.get("coordinates") is True
    s.set("volume", 0.25)
    s.set("new_game", {"size": 9, "white": "mcts"})
    again = S.Settings()
    assert again.get("volume") == 0.25 and again.get("new_game") == {"size": 9, "white": "mcts"}
    assert json.loads((tmp_path / "cfg" / "settings.json").read_text())["volume"] == 0.25


def test_broken_file_is_ignored_with_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GORILLA_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text("{not json")
    s = S.Settings()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "using the defaults" in err
    assert s.get("volume") == 0.7 and s.problem


def test_wrong_types_and_values_fall_back(tmp_path, monkeypatch):
    monkeypatch.setenv("GORILLA_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text(
        json.dumps({"volume": "loud", "muted": True, "move_numbers": "some", "coordinates": 1, "extra": 3})
    )
    s = S.Settings()
    assert s.get("volume") == 0.7 and s.get("muted") is True and s.get("move_numbers") == "off"
    assert s.get("coordinates") is True and s.get("extra") == 3
    (tmp_path / "settings.json").write_text(json.dumps({"volume": 5}))
    assert S.Settings().get("volume") == 1.0


def test_autosave_in_the_user_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("GORILLA_AUTOSAVE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_autosave_path() == str(tmp_path / "data" / "gorilla" / "autosave.sgf")
    monkeypatch.setenv("GORILLA_AUTOSAVE", "~/x.sgf")
    assert default_autosave_path().endswith("/x.sgf") and "~" not in default_autosave_path()
