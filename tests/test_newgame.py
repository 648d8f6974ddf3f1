"""The new-game form without a window: rows, keys, validation, remembering; Controller.new_game."""

from __future__ import annotations

import pytest
from helpers import v

from gorilla.app.clock import TimeControl
from gorilla.app.go.controller import Controller
from gorilla.app.go.sgf_text import game_from_sgf, game_to_sgf
from gorilla.app.newgame import GTP_CUSTOM, FormError, NewGame, NewGameForm, form_for, player_choices
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game


def test_defaults_and_keyboard_navigation():
    f = NewGameForm()
    assert f.result() == NewGame()
    f.move_focus(-1)
    assert f.focused.key == "clock"  # Up from the first row wraps to the last
    f.cycle(1)
    assert f["clock"].text == "30s+3x10s"
    f.move_focus(1)
    f.cycle(-1)
    assert f["size"].value == 18
    f.move_focus(1)
    f.cycle(1)  # japanese: its komi comes with it
    assert f["rules"].value == "japanese" and f["komi"].text == "6.5"
    f.move_focus(1)
    f.backspace()
    f.type_text("5")
    assert f["komi"].text == "6.5"


def test_player_choices_offer_every_kind():
    specs = [s for _, s in player_choices()]
    for want in ("human", "random", "montecarlo:10,3", "mcts", "mcts:time=2", "alphabeta:time=2", GTP_CUSTOM):
        assert want in specs
    # the net's search is the first AI offered, then the rank AIs, weakest first
    assert specs[1] == "net" and "net:time=2" in specs
    ranks = [s for s in specs if s.startswith("rank:")]
    assert ranks[0] == "rank:25k" and "rank:10k" in ranks and ranks[-1] == "rank:1d"


def test_a_rank_ai_is_chosen_in_the_form_and_needs_the_nets_board():
    f = NewGameForm()
    f.set("size", 9)
    f.set("white", "rank:10k")
    assert f.result().white == "rank:10k"
    f.set("rules", "little-go")
    f.set("size", 5)
    with pytest.raises(FormError, match="^White: rank AIs need the net") as e:
        f.result()
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "key, text, error",
    [
        ("komi", "seven", "Komi: needs a number"),
        ("komi", "7.3", "Komi: must be a whole or half number"),
        ("clock", "5m+0x10s", "Clock: byo-yomi needs"),
    ],
)
def test_bad_rows_are_one_line(key, text, error):
    f = NewGameForm()
    f[key].text = text
    with pytest.raises(FormError) as e:
        f.result()
    assert str(e.value).startswith(error) and "\n" not in str(e.value)


def test_handicap_too_big_and_custom_engine_without_command():
    f = NewGameForm()
    f.set("size", 5)
    f.set("handicap", 9)
    with pytest.raises(FormError, match="^Handicap: "):
        f.result()
    f.set("handicap", 0)
    f.set("white", GTP_CUSTOM)
    with pytest.raises(FormError, match="White: type the engine's command"):
        f.result()
    f["white_cmd"].text = "pachi -t 5"
    assert f.result().white == "gtp:pachi -t 5"


def test_remember_and_restore_skip_stale_values():
    f = NewGameForm()
    f.set("size", 13)
    f.set("white", "mcts:time=8")
    f.set("clock", "10m+25/5m")
    data = f.remember()
    g = NewGameForm({**data, "black": "gtp:nonexistent", "bogus": 1})
    assert g["size"].value == 13 and g["white"].value == "mcts:time=8" and g["clock"].text == "10m+25/5m"
    assert g["black"].value == "human"


def test_controller_new_game_with_free_handicap_players_and_clock():
    c = Controller(Game.new(19))
    ng = NewGame(9, "japanese", 0.5, 3, "free", "human", "random:seed=2", TimeControl("absolute", 60))
    assert c.new_game(ng)
    assert c.handicap_to_place == 3 and not c.game.setup and c.game.to_move == BLACK
    assert "place 3 handicap stones" in c.message
    picks = [v("C3", 9), v("G7", 9), v("E5", 9)]
    assert c.click(picks[0])
    assert not c.click(picks[0]) and "empty points" in c.message  # no stone on a stone
    assert c.handicap_to_place == 2 and c.game.to_move == BLACK and c.game.move_number == 0
    for p in picks[1:]:
        assert c.click(p)
    g = c.game
    assert g.size == 9 and g.ruleset.name == "japanese" and g.komi == 0.5 and g.handicap == 3
    assert set(g.setup) == set(picks) and all(col == BLACK for col in g.setup.values())
    assert g.to_move == WHITE and c.players[WHITE] == "random" and c.clock_views()[BLACK].seconds == 60
    assert g.info.white_name == "Gorilla (random)"
    c.wait(10)
    assert g.move_number == 1  # White (the AI) answered the handicap
    text = game_to_sgf(g)
    assert "HA[3]" in text and set(game_from_sgf(text).setup) == set(picks)
    c.reset()
    assert set(c.game.setup) == set(picks)  # a reset keeps the free placement
    bad = NewGame(9, black="nonsense-ai")
    assert not c.new_game(bad) and "Cannot start that game" in c.message
    assert c.players[WHITE] == "random" and c.game.size == 9
    c.close()


def test_an_ai_black_places_its_free_handicap_itself():
    c = Controller(Game.new(19))
    ng = NewGame(9, "chinese", 0.5, 4, "free", "random:seed=3", "human")
    assert c.new_game(ng)
    assert c.handicap_to_place == 0 and set(c.game.setup) == set(ng.handicap_points())
    assert c.game.handicap == 4 and c.game.to_move == WHITE
    c.close()


def test_the_rows_and_choices_follow_the_game_and_come_back_with_it():
    f = NewGameForm()
    go_rows = ["size", "rules", "komi", "handicap", "black", "white", "teach", "clock"]
    assert [x.key for x in f.fields] == go_rows
    f.set("size", 9)
    f.set("komi", "2.5")
    f.set("handicap", 3)
    f.set("white", "net:visits=100")
    assert "placement" in [x.key for x in f.fields]
    f.set("rules", "gomoku freestyle")  # not 9x9 with komi 2.5 and handicap rows
    assert [x.key for x in f.fields] == ["size", "rules", "black", "white", "opening", "clock"]
    ng = f.result()
    assert (ng.size, ng.komi, ng.handicap, ng.white) == (15, 0.0, 0, "pvs+vct")  # Gomoku's own AI
    f.set("rules", "chinese")  # back: Go's rows as they were (the rule set's komi)
    ng = f.result()
    assert (ng.size, ng.komi, ng.handicap, ng.white) == (9, 7.5, 3, "net:visits=100")
    f.set("white", GTP_CUSTOM)
    assert f.shows("white_cmd") and not f.shows("black_cmd")


def test_an_error_goes_once_its_row_is_fixed():
    f = NewGameForm()
    f.set("white", GTP_CUSTOM)
    with pytest.raises(FormError) as e:
        f.result()
    f.error = str(e.value)
    f.focus = [x.key for x in f.fields].index("white_cmd")
    f.type_text("gnugo --mode gtp")
    assert f.error == ""
    f.focus = [x.key for x in f.fields].index("komi")
    f.type_text("x")
    f.error = "Komi: needs a number, got '7.5x'"
    f.backspace()  # the komi is right again
    assert f.error == ""


def test_the_form_opens_on_the_game_on_the_board_and_its_last_choices():
    go = {"size": 13, "rules": "japanese", "white": "net"}
    gomoku = {"size": 19, "rules": "gomoku renju", "white": "pvs"}
    remembered = {"new_game": go, "new_game_gomoku": gomoku}
    f = form_for("gomoku", {"size": 15, "rules": "gomoku freestyle", "black": "human"}, remembered)
    assert (f["rules"].value, f["size"].value, f["white"].value) == ("gomoku renju", 19, "pvs")
    f.set("rules", "chinese")  # Go's last choices wait for the Rules row
    assert (f["size"].value, f["white"].value) == (13, "net")
    f = form_for("go", {"size": 9, "rules": "chinese"}, {"new_game": gomoku})  # an old settings file
    assert (f["rules"].value, f["size"].value) == ("chinese", 9)
