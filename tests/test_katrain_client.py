"""KaTrain 1.20.0's own engine client against ``gorilla analysis``: its ``KataGoEngine``, headless,
with the ``gorilla`` command as its "KataGo executable", KaTrain's own ``analysis_config.cfg``
and the shipped net, asked for analyses as KaTrain's play and analysis modes ask, and what
KaTrain reads back checked through KaTrain's own game nodes.

Skipped where KaTrain cannot be imported (``pip install katrain==1.20.0``; with ``CI`` set, as
``.ci/run`` sets it, a missing KaTrain fails instead) or the ``gorilla`` command is not on the
PATH.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

# kivy (which KaTrain imports) reads these when first imported: no argument parsing, no console
# log, its home in a scratch folder rather than ~/.kivy
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="gorilla-kivy-"))

try:
    import katrain.core.engine as kt_engine
except ImportError:
    if os.environ.get("CI"):  # .ci/run installs it: missing there is a failure, as GNU Go's is
        raise
    pytest.skip(
        "KaTrain is not installed here (pip install katrain==1.20.0; CI installs it)", allow_module_level=True
    )
from katrain.core.base_katrain import KaTrainBase  # noqa: E402
from katrain.core.constants import OUTPUT_ERROR, OUTPUT_INFO  # noqa: E402
from katrain.core.game import Game, KaTrainSGF  # noqa: E402
from katrain.core.utils import find_package_resource  # noqa: E402
from pysgf import Move  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NET = ROOT / "assets" / "net" / "g170-b6c96-s175395328-d26788732.bin.gz"
GORILLA = shutil.which("gorilla")
pytestmark = pytest.mark.skipif(GORILLA is None, reason="the gorilla command is not on the PATH")
VISITS = 40  # KaTrain's max_visits for these tests (its default is 500)


class HeadlessKaTrain(KaTrainBase):
    """KaTrain without its window: its settings, its log (errors kept), its popups recorded."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.popups: list[tuple] = []
        super().__init__(force_package_config=True, debug_level=0)
        self.controls = SimpleNamespace(
            move_tree=SimpleNamespace(redraw=lambda: None), set_status=lambda *a, **k: None
        )
        self.pondering = False

    def log(self, message, level=OUTPUT_INFO):
        if level == OUTPUT_ERROR:
            self.errors.append(str(message))

    def __call__(self, *args, **kwargs):  # KaTrain's messages to its window: the recovery popup
        self.popups.append(args)

    def update_state(self, *args, **kwargs):
        pass


def engine_settings(katrain: HeadlessKaTrain, model: Path = NET) -> dict:
    """KaTrain's engine settings with gorilla as the executable (its General & Engine page)."""
    cfg = dict(katrain.config("engine"))
    cfg.update(katago=GORILLA, model=str(model), max_visits=VISITS, fast_visits=25, backend="local")
    cfg["config"] = find_package_resource("katrain/KataGo/analysis_config.cfg")
    return cfg


@pytest.fixture(scope="module")
def katrain():
    return HeadlessKaTrain()


@pytest.fixture(scope="module")
def engine(katrain):
    engine = kt_engine.KataGoEngine(katrain, engine_settings(katrain))
    assert engine.command[:2] == [GORILLA, "analysis"] and "-model" in engine.command
    yield engine
    engine.shutdown(finish=False)


def wait(pred, timeout: float = 300.0, what: str = "") -> None:
    t0 = time.time()
    while not pred():
        if time.time() - t0 > timeout:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_play_mode_analyses_every_move(katrain, engine) -> None:
    game = Game(katrain, engine)  # a new game as KaTrain's settings have it: 19x19, Japanese rules
    assert game.board_size == (19, 19)
    for gtp, player in (("Q16", "B"), ("D4", "W")):
        game.play(Move.from_gtp(gtp, player=player))  # KaTrain asks for the new position's analysis
    node = game.current_node
    wait(lambda: node.analysis_complete and node.parent.analysis_complete, what="the analyses")
    assert node.root_visits >= VISITS and node.parent.root_visits >= VISITS
    cands = node.candidate_moves
    assert cands and cands[0]["order"] == 0
    for c in cands:
        assert {"move", "visits", "winrate", "scoreLead", "pointsLost", "prior", "pv"} <= set(c)
        assert 0 <= c["winrate"] <= 1 and c["pv"][0] == c["move"]
    assert 0.2 < node.winrate < 0.8 and abs(node.score) < 10  # an even opening, Black's view
    assert isinstance(node.points_lost, float)  # White's D4 judged from the two analyses
    own, pol = node.ownership, node.policy
    assert len(own) == 361 and len(pol) == 362
    assert own[3 * 19 + 15] > 0.5 and own[15 * 19 + 3] < -0.5  # Q16 Black's, D4 White's (Black's view)
    assert pol[3 * 19 + 15] == -1 and abs(sum(p for p in pol if p > 0) - 1) < 1e-3
    wait(engine.is_idle, what="the empty board's analysis too")
    assert engine.check_alive() and game.root.analysis_complete
    assert not katrain.errors and not katrain.popups


def test_fast_game_analysis_of_a_loaded_game(katrain, engine) -> None:
    root = KaTrainSGF.parse_file(str(ROOT / "benchmarks" / "data" / "review-9x9.sgf"))
    t0 = time.time()
    game = Game(katrain, engine, move_tree=root, analyze_fast=True)  # every node, 25 visits
    nodes = game.root.nodes_in_tree
    wait(lambda: all(n.analysis_complete for n in nodes), what="the game's analysis")
    print(f"fast analysis of {len(nodes)} positions: {time.time() - t0:.1f} s")
    assert len(nodes) > 20
    assert all(n.root_visits >= 25 for n in nodes)
    losses = [n.points_lost for n in nodes[1:]]
    assert all(isinstance(x, float) for x in losses)
    assert not katrain.errors and not katrain.popups


def test_extra_alternative_and_region_queries(katrain, engine) -> None:
    game = Game(katrain, engine)
    node = game.current_node
    wait(lambda: node.analysis_complete, what="the root's analysis")
    first = set(node.analysis["moves"])
    got: list[dict] = []
    # "alternative": the moves already analysed are avoided for one ply
    engine.request_analysis(
        node, lambda a, partial: got.append(a) if not partial else None, find_alternatives=True
    )
    wait(lambda: got, what="the alternatives")
    assert not {m["move"] for m in got[0]["moveInfos"]} & first
    # a region of interest: only moves in columns A-E, rows 1-5 (KaTrain's x, y from the bottom-left)
    got.clear()
    engine.request_analysis(
        node, lambda a, partial: got.append(a) if not partial else None, region_of_interest=[0, 4, 0, 4]
    )
    wait(lambda: got, what="the region's analysis")
    inside = [Move.from_gtp(m["move"]).coords for m in got[0]["moveInfos"] if m["move"] != "pass"]
    assert inside and all(x <= 4 and y <= 4 for x, y in inside)
    # a move refined by itself (sweep, equalize): the move appended, the position after it searched
    node.analyze(engine, visits=25, refine_move=Move.from_gtp("K10", player="B"), time_limit=False)
    wait(lambda: node.analysis["moves"].get("K10", {}).get("visits", 0) >= 25, what="K10's refinement")
    assert not katrain.errors and not katrain.popups


def test_pondering_then_stopping(katrain, engine) -> None:
    game = Game(katrain, engine)
    node = game.current_node
    partial: list[int] = []
    final: list[dict] = []

    def callback(a: dict, is_partial: bool) -> None:
        (partial.append(a["rootInfo"]["visits"]) if is_partial else final.append(a))

    engine.request_analysis(node, callback, ponder=True)  # _kt_continuous: 10M visits, reports each 0.25 s
    wait(lambda: len(partial) >= 2, what="reports while pondering")
    engine.stop_pondering()  # KaTrain's terminate, keeping the last answer
    wait(lambda: final, what="the last answer after the terminate")
    assert final[0]["rootInfo"]["visits"] >= partial[-1] and final[0]["rootInfo"]["visits"] < 10_000_000
    wait(lambda: engine.is_idle(), what="no query left")


def test_katrain_sees_a_dead_engine(katrain, tmp_path: Path) -> None:
    """A net gorilla cannot read: gorilla says why on stderr and exits with status 2, which
    KaTrain reports as a dead engine (not its "deliberate exit" status 1)."""
    bad = tmp_path / "broken.bin.gz"
    bad.write_bytes(b"not a net")
    before = len(katrain.errors)
    dead = kt_engine.KataGoEngine(katrain, engine_settings(katrain, bad))
    wait(lambda: not dead.check_alive() and len(katrain.errors) > before, 120, "KaTrain to notice")
    assert "status 2" in katrain.errors[-1]
    dead.shutdown(finish=False)
    del katrain.errors[before:]
    katrain.popups.clear()
