"""KataGo's raw net outputs for varied positions: the reference data of ``tests/test_net.py``.

Drives any KataGo binary over GTP (``katago gtp -model NET -config CFG``): for each
position it sends ``boardsize``, ``clear_board``, ``kata-set-rules``, ``komi``, the
handicap stones (``set_free_handicap``), the moves (``play``), then ``kata-raw-nn S``
for one symmetry S (all eight for some positions), and keeps KataGo's numbers.

Two sets of positions (``--source``). ``random`` (the shipped net's reference,
``tests/data/net/katago_raw_nn.json.gz``): games played by Gorilla's own rules engine,
seeded: random reasonable moves with captures preferred (so kos come up), on 7x7 to 19x19
boards; some stop right after a ko capture (a ko ban on the board), some end with one or two passes or have a
pass inside, some start from handicap stones; komi from -10 to 20 in half points; rules
from every ruleset KataGo knows (``chinese``, ``japanese``, ``korean``, ``tromp-taylor``,
``aga``, ``bga``, ``new-zealand``, ``chinese-ogs``, ``chinese-kgs``, ``stone-scoring``),
each played with the Gorilla ruleset that has the same suicide rule and a ko rule at least
as strict, so every move is legal for both.

``real`` (the reference of every other net, ``tests/data/net/katago_raw_nn_NET.json.gz``):
positions from real games. 19x19: TYGEM games between 9-dan players (``--tygem``, the
``kifu-*.zip`` of ``../shared/datasets/tygem/``) cut at a random move; 9x9 to 17x17: games
that Gorilla plays itself, each move drawn from the shipped net's policy (sharpened,
``POLICY_POWER``), cut at a random move; the rules, komi and handicaps varied as above.
For a net with an optimistic policy (model version 12 on) each position is asked with a
policy optimism (``kata-raw-nn S OPT``) of 0, 0.2 (KataGo's root) or 1 (its tree), kept as
``optimism``.

The output is JSON: ``net`` (the file name), ``katago`` (its version), ``rules``
(``kata-get-rules`` for each rules name) and ``positions``, each with ``size``, ``komi``,
``rules`` (KataGo's name), ``gorilla_rules``, ``mode``, ``source`` (real games),
``handicap`` (vertices), ``moves`` (``[colour, vertex]``), ``to_move``, ``optimism`` (nets
with an optimistic policy) and ``evals``: one per symmetry asked, KataGo's ``kata-raw-nn``
numbers as printed (White's view): ``symmetry``, ``white_win``, ``white_loss``,
``no_result``, ``white_lead``, ``white_score``, ``white_score_sq``, ``var_time_left``,
``shortterm_winloss_error``, ``shortterm_score_error``, ``policy`` (row by row from the top,
then pass; in millionths, -1 for an illegal point, where KataGo prints NAN) and
``white_ownership`` (in 1e-7).

    python benchmarks/katago_reference.py --katago PATH --model NET [--config CFG]
        [--source random|real] [--positions 300] [--seed 1] [--all-every 40]
        [-o tests/data/net/katago_raw_nn.json.gz]

Without ``--config`` a minimal GTP config is written to a temporary folder.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import random
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game

# KataGo's rules name -> the Gorilla ruleset that plays the moves (same suicide rule,
# ko at least as strict: KataGo accepts every move Gorilla plays)
KATA_RULES = {
    "chinese": "chinese",
    "japanese": "japanese",
    "korean": "japanese",
    "tromp-taylor": "tromp-taylor",
    "aga": "chinese",
    "bga": "chinese",
    "new-zealand": "tromp-taylor",
    "chinese-ogs": "chinese",
    "chinese-kgs": "chinese",
    "stone-scoring": "chinese",
}
MAIN_RULES = ("chinese", "japanese", "tromp-taylor")

CONFIG = """\
logDir = {log}
logAllGTPCommunication = false
logSearchInfo = false
logToStderr = false
rules = tromp-taylor
numSearchThreads = 1
maxVisits = 1
nnMaxBatchSize = 8
nnCacheSizePowerOfTwo = 12
nnMutexPoolSizePowerOfTwo = 10
playoutDoublingAdvantage = 0.0
dynamicPlayoutDoublingAdvantageCapPerOppLead = 0.0
numEigenThreadsPerModel = 1
"""


class KataGo:
    """A KataGo GTP process."""

    def __init__(self, binary: str, model: str, config: str) -> None:
        self.proc = subprocess.Popen(
            [binary, "gtp", "-model", model, "-config", config],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def send(self, command: str) -> str:
        """The response to command (without '= '); raises RuntimeError on '?'."""
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"KataGo exited during {command!r}")
            line = line.rstrip("\r\n")
            if line == "" and lines:
                break
            if line == "" and not lines:
                continue
            lines.append(line)
        text = "\n".join(lines)
        if text.startswith("?"):
            raise RuntimeError(f"{command!r}: {text}")
        return text[1:].strip()

    def close(self) -> None:
        """Quit and wait."""
        with contextlib.suppress(RuntimeError, OSError):
            self.send("quit")
        self.proc.wait(timeout=30)


def parse_raw_nn(text: str, size: int) -> list[dict]:
    """``kata-raw-nn`` output (one or more symmetries) as dicts of KataGo's numbers."""
    out: list[dict] = []
    lines = text.split("\n")
    i = 0
    keys = {
        "whiteWin": "white_win",
        "whiteLoss": "white_loss",
        "noResult": "no_result",
        "whiteLead": "white_lead",
        "whiteScoreSelfplay": "white_score",
        "whiteScoreSelfplaySq": "white_score_sq",
        "varTimeLeft": "var_time_left",
        "shorttermWinlossError": "shortterm_winloss_error",
        "shorttermScoreError": "shortterm_score_error",
    }
    cur: dict = {}
    while i < len(lines):
        parts = lines[i].split()
        i += 1
        if not parts:
            continue
        key = parts[0]
        if key == "symmetry":
            cur = {"symmetry": int(parts[1])}
            out.append(cur)
        elif key in keys:
            if keys[key]:
                cur[keys[key]] = float(parts[1])
        elif key == "policy":
            pol = []
            for _ in range(size):
                pol += [-1 if v == "NAN" else round(float(v) * 1e6) for v in lines[i].split()]
                i += 1
            cur["policy"] = pol
        elif key == "policyPass":
            cur["policy"].append(-1 if parts[1] == "NAN" else round(float(parts[1]) * 1e6))
        elif key == "whiteOwnership":
            own = []
            for _ in range(size):
                own += [round(float(v) * 1e7) for v in lines[i].split()]
                i += 1
            cur["white_ownership"] = own
        else:
            raise ValueError(f"unexpected kata-raw-nn line {lines[i - 1]!r}")
    for e in out:
        if len(e.get("policy", ())) != size * size + 1 or len(e.get("white_ownership", ())) != size * size:
            raise ValueError("kata-raw-nn output of the wrong size")
    return out


# --- positions ------------------------------------------------------------------------------


def _komi(rng: random.Random) -> float:
    r = rng.random()
    if r < 0.35:
        return rng.choice([7.5, 6.5, 7.0, 5.5, 0.5, 0.0])
    return rng.randrange(-20, 41) / 2  # -10 .. 20 in half points


def random_game(
    rng: random.Random, size: int, rules: str, komi: float, handicap: int, length: int, mode: str
):
    """A Gorilla game: random reasonable moves, captures preferred; returns (game, moves)."""
    game = Game.new(size, rules, komi, handicap=handicap)
    moves: list[tuple[int, int]] = []
    capture_bias = rng.choice([0.3, 0.7, 0.95])
    pass_at = rng.randrange(length) if mode == "pass-inside" and length > 0 else -1
    for k in range(length):
        if game.over:
            break
        color = game.to_move
        if k == pass_at:
            point = PASS
        else:
            legal = [p for p in game.legal_moves(reasonable=True) if game.is_legal(p)]
            if not legal:
                point = PASS
            else:
                caps = [p for p in legal if _captures(game, p)] if rng.random() < capture_bias else []
                point = rng.choice(caps or legal)
        if point == PASS:
            game.pass_move()
        else:
            game.play(point)
        moves.append((color, point))
        if mode == "ko" and game.position.ko:
            break
    if mode in ("pass1", "pass2") and not game.over:
        for _ in range(1 if mode == "pass1" else 2):
            if game.over:
                break
            moves.append((game.to_move, PASS))
            game.pass_move()
    return game, moves


def _captures(game: Game, p: int) -> bool:
    pos = game.position.copy()
    return pos.play(p) > 0


def make_positions(n: int, seed: int) -> list[dict]:
    """n position specs, varied as the module says."""
    rng = random.Random(seed)
    specs = []
    sizes = [19] * 10 + [13] * 8 + [9] * 9 + [7, 11, 15, 17]
    modes = ["plain"] * 5 + ["ko"] * 2 + ["pass1", "pass2", "pass-inside"]
    for i in range(n):
        size = rng.choice(sizes)
        kata_rules = rng.choice(MAIN_RULES) if i % 3 else rng.choice(list(KATA_RULES))
        rules = KATA_RULES[kata_rules]
        mode = rng.choice(modes)
        komi = _komi(rng)
        handicap = 0
        if size >= 9 and rng.random() < 0.12:
            handicap = rng.randint(2, 9 if size >= 13 and size % 2 else 4)
        area = size * size
        length = rng.choice([0, 1, 2, 3]) if rng.random() < 0.08 else rng.randrange(4, int(area * 0.9))
        if mode == "ko":
            length = area * 3  # stops at the first ko
        game, moves = random_game(rng, size, rules, komi, handicap, length, mode)
        if mode == "ko" and not game.position.ko:
            mode = "plain"
        setup = sorted(p for p, c in game.setup.items() if c == BLACK)
        specs.append(
            {
                "size": size,
                "komi": komi,
                "rules": kata_rules,
                "gorilla_rules": rules,
                "mode": mode,
                "handicap": [format_vertex(p, size) for p in setup],
                "moves": [["B" if c == BLACK else "W", format_vertex(p, size)] for c, p in moves],
                "to_move": "B" if game.to_move == BLACK else "W",
                "symmetries": list(range(8)) if i % 40 == 7 else [rng.randrange(8)],
            }
        )
        assert game.to_move in (BLACK, WHITE)
    return specs


# --- positions from real games ------------------------------------------------------------


def _shared(*parts: str) -> Path:
    """``shared/...`` beside the checkout or above it (the project's shared folder)."""
    here = Path(__file__).resolve()
    for d in here.parents:
        if (d / "shared" / Path(*parts)).exists():
            return d / "shared" / Path(*parts)
    return here.parents[2] / "shared" / Path(*parts)


TYGEM = _shared("datasets", "tygem")
SELFPLAY_SIZES = [9] * 6 + [13] * 5 + [11, 15, 17]
POLICY_POWER = 2.0  # the shipped net's policy squared (then renormalised): stronger, still varied
OPTIMISMS = (0.0, 0.0, 0.2, 1.0)


def tygem_games(folder: Path) -> list[tuple[str, list[str]]]:
    """(id, SGF moves) of every game in the folder's ``kifu-*.zip``."""
    games = []
    for z in sorted(folder.glob("kifu-*.zip")):
        with zipfile.ZipFile(z) as f:
            for name in f.namelist():
                for line in f.read(name).decode("ascii", "replace").splitlines():
                    gid, _, rec = line.partition("\t")
                    moves = [m[2:4] for m in rec.split(";") if len(m) >= 5 and m[0] in "BW"]
                    if len(moves) >= 30:
                        games.append((gid, moves))
    return games


def _sgf_vertex(m: str, size: int) -> int:
    from gorilla.rules.coords import parse_vertex

    if m in ("", "tt"):
        return PASS
    col, row = ord(m[0]) - 97, ord(m[1]) - 97
    return parse_vertex("ABCDEFGHJKLMNOPQRST"[col] + str(size - row), size)


def _spec(game: Game, moves, size, komi, kata_rules, source, rng, all_every, i, optimism) -> dict:
    setup = sorted(p for p, c in game.setup.items() if c == BLACK)
    spec = {
        "size": size,
        "komi": komi,
        "rules": kata_rules,
        "gorilla_rules": KATA_RULES[kata_rules],
        "mode": "real",
        "source": source,
        "handicap": [format_vertex(p, size) for p in setup],
        "moves": [["B" if c == BLACK else "W", format_vertex(p, size)] for c, p in moves],
        "to_move": "B" if game.to_move == BLACK else "W",
        "symmetries": list(range(8)) if all_every and i % all_every == all_every // 2 else [rng.randrange(8)],
    }
    if optimism:
        spec["optimism"] = rng.choice(OPTIMISMS)
    return spec


def tygem_positions(n: int, rng: random.Random, folder: Path, all_every: int, optimism: bool) -> list[dict]:
    """n 19x19 positions: TYGEM games cut at a random move (komi and rules varied a little)."""
    games = tygem_games(folder)
    if not games:
        raise SystemExit(f"no TYGEM games in {folder} (--tygem)")
    specs: list[dict] = []
    while len(specs) < n:
        gid, rec = rng.choice(games)
        cut = rng.randrange(0, min(len(rec), 300))
        kata_rules = "japanese" if rng.random() < 0.3 else rng.choice(MAIN_RULES + ("korean", "aga"))
        komi = 6.5 if rng.random() < 0.7 else _komi(rng)
        game = Game.new(19, KATA_RULES[kata_rules], komi)
        moves = []
        for m in rec[:cut]:
            p = _sgf_vertex(m, 19)
            if p != PASS and not game.is_legal(p):
                break
            moves.append((game.to_move, p))
            game.pass_move() if p == PASS else game.play(p)
        specs.append(
            _spec(game, moves, 19, komi, kata_rules, f"tygem:{gid}", rng, all_every, len(specs), optimism)
        )
    return specs


def selfplay_positions(n: int, rng: random.Random, all_every: int, optimism: bool, offset: int) -> list[dict]:
    """n positions of 9x9 to 17x17 games that the shipped net plays (moves drawn from its
    sharpened policy), each cut at a random move."""
    import numpy as np

    from gorilla.ai.net import load_net, point_of

    net = load_net()
    plan = []
    for _ in range(n):
        size = rng.choice(SELFPLAY_SIZES)
        kata_rules = rng.choice(MAIN_RULES) if rng.random() < 0.7 else rng.choice(list(KATA_RULES))
        komi = _komi(rng)
        handicap = rng.randint(2, 4) if size >= 9 and rng.random() < 0.1 else 0
        cut = rng.randrange(0, int(size * size * 0.9))
        game = Game.new(size, KATA_RULES[kata_rules], komi, handicap=handicap)
        plan.append([size, kata_rules, komi, cut, game, []])
    np_rng = np.random.default_rng(rng.randrange(2**32))
    while True:
        live = [p for p in plan if len(p[5]) < p[3] and not p[4].over]
        if not live:
            break
        evals = net.evaluate([p[4] for p in live], symmetry="random")
        for p, ev in zip(live, evals, strict=True):
            pol = ev.policy.astype(np.float64) ** POLICY_POWER
            idx = int(np_rng.choice(pol.size, p=pol / pol.sum()))
            point = point_of(idx, p[0])
            p[5].append((p[4].to_move, point))
            p[4].pass_move() if point == PASS else p[4].play(point)
    return [
        _spec(g, moves, size, komi, kr, "selfplay", rng, all_every, offset + i, optimism)
        for i, (size, kr, komi, _, g, moves) in enumerate(plan)
    ]


def real_positions(n: int, seed: int, folder: Path, all_every: int, optimism: bool) -> list[dict]:
    """n positions: 40% TYGEM 19x19, the rest the shipped net's own games on smaller boards."""
    rng = random.Random(seed)
    n19 = round(n * 0.4)
    specs = tygem_positions(n19, rng, folder, all_every, optimism)
    return specs + selfplay_positions(n - n19, rng, all_every, optimism, n19)


def evaluate(kata: KataGo, spec: dict) -> list[dict]:
    """KataGo's kata-raw-nn for the spec's position and symmetries."""
    size = spec["size"]
    kata.send(f"boardsize {size}")
    kata.send("clear_board")
    kata.send(f"kata-set-rules {spec['rules']}")
    kata.send(f"komi {spec['komi']}")
    if spec["handicap"]:
        kata.send("set_free_handicap " + " ".join(spec["handicap"]))
    for color, vertex in spec["moves"]:
        kata.send(f"play {color} {vertex}")
    evals = []
    opt = f" {spec['optimism']}" if "optimism" in spec else ""
    for s in spec["symmetries"]:
        evals += parse_raw_nn(kata.send(f"kata-raw-nn {s}{opt}"), size)
    return evals


def main(argv: list[str] | None = None) -> int:
    """Write the reference data; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--katago", required=True, help="a KataGo binary")
    ap.add_argument("--model", required=True, help="the net (.bin.gz)")
    ap.add_argument("--config", help="a GTP config (default: a minimal one)")
    ap.add_argument("--source", choices=("random", "real"), default="random")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--all-every", type=int, default=40, help="every Nth position at all 8 symmetries (0: none)"
    )
    ap.add_argument("--tygem", type=Path, default=TYGEM, help="the TYGEM kifu zips (--source real)")
    ap.add_argument(
        "-o", "--output", default=None, help="default: tests/data/net/katago_raw_nn[_NET].json.gz"
    )
    ns = ap.parse_args(argv)
    if ns.output is None:
        stem = Path(ns.model).name.removesuffix(".gz").removesuffix(".bin")
        suffix = "" if ns.source == "random" else f"_{stem}"
        ns.output = f"tests/data/net/katago_raw_nn{suffix}.json.gz"
    tmp = tempfile.TemporaryDirectory()
    config = ns.config
    if config is None:
        config = str(Path(tmp.name) / "gtp.cfg")
        Path(config).write_text(CONFIG.format(log=Path(tmp.name) / "logs"))
    if ns.source == "random":
        specs = make_positions(ns.positions, ns.seed)
    else:
        from gorilla.ai.net.model import load_model

        optimism = load_model(ns.model).policy.channels >= 2
        specs = real_positions(ns.positions, ns.seed, ns.tygem, ns.all_every, optimism)
    kata = KataGo(ns.katago, ns.model, config)
    t0 = time.time()
    rules_table = {}
    try:
        for name in KATA_RULES:
            kata.send(f"kata-set-rules {name}")
            rules_table[name] = json.loads(kata.send("kata-get-rules"))
        positions = []
        for i, spec in enumerate(specs):
            try:
                spec["evals"] = evaluate(kata, spec)
            except RuntimeError as e:
                print(f"position {i} skipped: {e}", file=sys.stderr)
                continue
            positions.append(spec)
            if (i + 1) % 25 == 0:
                print(f"{i + 1} positions, {time.time() - t0:.0f} s", file=sys.stderr)
        version = kata.send("version")
    finally:
        kata.close()
    data = {
        "net": Path(ns.model).name,
        "katago": version,
        "seed": ns.seed,
        "rules": rules_table,
        "positions": positions,
    }
    out = Path(ns.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt", compresslevel=9) as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"{len(positions)} positions -> {out} ({out.stat().st_size} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
