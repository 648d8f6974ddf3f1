"""The neural net over GTP: KataGo's ``kata-raw-nn``.

``kata-raw-nn [color] SYMMETRY``
    The net's raw evaluation of the current position (or of it with ``color`` to move)
    for one symmetry (0..7) or ``all`` (the eight one after the other), in KataGo's
    format so that tools can compare the two engines line by line::

        symmetry 0
        whiteWin 0.472570
        whiteLoss 0.527430
        noResult 0.000000
        whiteLead 0.032
        whiteScoreSelfplay 0.497
        whiteScoreSelfplaySq 979.368
        varTimeLeft -1.000
        shorttermWinlossError -1.000
        shorttermScoreError -1.000
        policy
        0.000012 0.000010 ...          (a row per board row from the top; NAN: illegal)
        policyPass 0.000001
        whiteOwnership
        0.0312104 ...

    Values a model version 8 net does not have are -1, as KataGo prints them.

The engine's net is ``gorilla gtp --net FILE`` (default: the shipped one, loaded at the
first use); a file that cannot be read leaves the engine without a net, and the command
answers with the reason.

``kata-set-rules RULES``, ``kata-set-rule KEY VALUE``, ``kgs-rules NAME``, ``kata-get-rules``
    KataGo's rules (:mod:`gorilla.gtp.kata_rules`: its names with its meanings, ``chinese``
    being simple ko; its JSON; its short form), the komi kept. The moves are then played under
    them (simple ko or positional superko, the suicide rule; the game replayed, refused as
    KataGo refuses it if a move becomes illegal) and the net is told exactly them, so
    ``kata-raw-nn`` equals KataGo's after the same commands; the search of the ``net`` agent
    is told them too. ``kata-get-rules`` answers KataGo's JSON (without the komi); before any
    ``kata-set-rules``, the KataGo rules nearest the game's own (``--rules``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from gorilla.gtp.args import arg_color, game_for
from gorilla.gtp.kata_rules import KataRules, RulesError, from_net_rules, parse_rules, update_rule
from gorilla.gtp.protocol import GtpEngine, GtpError, one_line
from gorilla.rules.game import Game
from gorilla.rules.position import IllegalMove


def engine_net(engine: GtpEngine):  # -> gorilla.ai.net.Net
    """The engine's net: the one set by ``--net``, else the shipped one (loaded once)."""
    net = getattr(engine, "net", None)
    if net is not None:
        return net
    error = getattr(engine, "net_error", None)
    if error:
        raise GtpError(f"no net: {error}")
    from gorilla.ai.net import NetError, load_net

    try:
        engine.net = load_net(getattr(engine, "net_path", None))  # type: ignore[attr-defined]
    except NetError as e:
        engine.net_error = one_line(str(e))  # type: ignore[attr-defined]
        raise GtpError(f"no net: {engine.net_error}") from None
    return engine.net  # type: ignore[attr-defined]


def set_net(engine: GtpEngine, path: str | None) -> str | None:
    """Load the net at path for the engine now; returns None, or the one-line reason it could
    not be used (``net_warning``: the engine then goes on with the shipped net; where even that
    fails, ``net_error`` and no net)."""
    from gorilla.ai.net import NetError, load_net_or_shipped

    engine.net_path = path  # type: ignore[attr-defined]
    engine.net = None  # type: ignore[attr-defined]
    engine.net_error = engine.net_warning = None  # type: ignore[attr-defined]
    try:
        engine.net, warning = load_net_or_shipped(path)  # type: ignore[attr-defined]
    except NetError as e:
        engine.net_error = one_line(str(e))  # type: ignore[attr-defined]
        return engine.net_error
    if warning is not None:
        engine.net_path = None  # type: ignore[attr-defined]
        engine.net_warning = one_line(warning)  # type: ignore[attr-defined]
    return engine.net_warning


def raw_nn_text(ev, symmetry: int) -> str:  # ev: gorilla.ai.net.NetEval
    """One symmetry's block of ``kata-raw-nn`` output for an evaluation."""
    w = ev.for_white()
    n = ev.size
    sq = (w.score_mean / (1 - w.no_result) if w.no_result < 1 else 0.0) ** 2 + w.score_stdev**2
    lines = [
        f"symmetry {symmetry}",
        f"whiteWin {w.winrate:.6f}",
        f"whiteLoss {w.loss:.6f}",
        f"noResult {w.no_result:.6f}",
        f"whiteLead {w.score_lead:.3f}",
        f"whiteScoreSelfplay {w.score_mean:.3f}",
        f"whiteScoreSelfplaySq {sq * (1 - w.no_result):.3f}",
        f"varTimeLeft {-1.0:.3f}",
        f"shorttermWinlossError {-1.0:.3f}",
        f"shorttermScoreError {-1.0:.3f}",
        "policy",
    ]
    legal = ev.legal if ev.legal is not None else np.ones(n * n + 1, bool)
    for r in range(n):
        row = ev.policy[r * n : (r + 1) * n]
        ok = legal[r * n : (r + 1) * n]
        lines.append("".join(f"{p:8.6f} " if g else "    NAN " for p, g in zip(row, ok, strict=True)))
    lines.append(f"policyPass {ev.policy[n * n]:8.6f} " if legal[n * n] else "policyPass     NAN ")
    lines.append("whiteOwnership")
    for r in range(n):
        lines.append("".join(f"{o:9.7f} " for o in w.ownership[r * n : (r + 1) * n]))
    return "\n".join(lines)


def cmd_kata_raw_nn(engine: GtpEngine, args: list[str]) -> str:
    """``kata-raw-nn [color] SYMMETRY``: the net's raw outputs in KataGo's format."""
    game = engine.game
    if args and args[0].lower() in ("b", "w", "black", "white"):
        game = game_for(game, arg_color(args[0]))
        args = args[1:]
    if len(args) != 1:
        raise GtpError("expected a symmetry 'all' or index [0-7]")
    s = args[0].lower()
    if s == "all":
        symmetries = list(range(8))
    elif s.isdigit() and 0 <= int(s) <= 7:
        symmetries = [int(s)]
    else:
        raise GtpError(f"expected a symmetry 'all' or index [0-7] but got '{args[0]}'")
    net = engine_net(engine)
    evals = net.evaluate([game] * len(symmetries), symmetry=symmetries, rules=net_rules(engine))
    # KataGo ends each block with an empty line, then drops double newlines from the answer
    return "\n".join(raw_nn_text(ev, sym) for ev, sym in zip(evals, symmetries, strict=True))


# --- KataGo's rules ------------------------------------------------------------------------


def current_rules(engine: GtpEngine) -> KataRules:
    """The engine's KataGo rules (komi: the game's): those set, else the game's nearest."""
    from gorilla.ai.net.inputs import NetRules

    komi = float(engine.game.komi)
    rules = getattr(engine, "kata_rules", None)
    if rules is not None:
        return replace(rules, komi=komi)
    return from_net_rules(NetRules.from_game(engine.game), komi)


def net_rules(engine: GtpEngine):  # -> gorilla.ai.net.inputs.NetRules | None
    """What the net is told: the KataGo rules set (the game's komi), None before any."""
    rules = getattr(engine, "kata_rules", None)
    return None if rules is None else rules.net_rules()[0]


def _replayed(game: Game, rules: KataRules) -> Game:
    """The game's record played again under rules' ruleset (GtpError if a move becomes illegal)."""
    g = Game(game.size, rules.ruleset(), game.komi, game.info, game.handicap)
    try:
        if game.setup:
            g.add_setup(game.setup.items(), game.positions[0].to_move)
        for m in game.moves:
            g.reopen()
            g.play(m.point, m.color, m.comment)
    except (IllegalMove, ValueError):
        raise GtpError(
            "Could not make the rules change, some earlier moves in the game would now become illegal."
        ) from None
    return g


def set_rules(engine: GtpEngine, rules: KataRules) -> None:
    """Play on under rules (KataGo's setRulesNotIncludingKomi): refused if the net cannot be
    told them or a move on the record becomes illegal; the agent told them."""
    told, warning = rules.net_rules()
    if warning is not None:
        raise GtpError(f"Rules {rules.json_text()} are not supported by this neural net version")
    engine.game = _replayed(engine.game, rules)
    engine.kata_rules = rules  # type: ignore[attr-defined]
    tell = getattr(engine.agent, "set_net_rules", None)
    if callable(tell):
        tell(told)


def cmd_kata_get_rules(engine: GtpEngine, args: list[str]) -> str:
    """``kata-get-rules``: KataGo's JSON of the rules, without the komi."""
    if args:
        raise GtpError(f"Expected no arguments for kata-get-rules but got '{' '.join(args)}'")
    return current_rules(engine).json_text()


def cmd_kata_set_rules(engine: GtpEngine, args: list[str]) -> str:
    """``kata-set-rules RULES``: a name, KataGo's JSON or its short form; the komi kept."""
    rest = " ".join(args)
    try:
        rules = parse_rules(rest, allow_komi=False)
    except RulesError as e:
        raise GtpError(f"Unknown rules '{rest}', {e}") from None
    set_rules(engine, rules)
    return ""


def cmd_kata_set_rule(engine: GtpEngine, args: list[str]) -> str:
    """``kata-set-rule KEY VALUE``: one field (``ko``, ``scoring``, ``tax``, ``suicide``,
    ``hasButton``, ``whiteHandicapBonus``, ``friendlyPassOk``) changed."""
    if len(args) != 2:
        raise GtpError(f"Expected two arguments for kata-set-rule but got '{' '.join(args)}'")
    try:
        rules = update_rule(current_rules(engine), args[0], args[1])
    except RulesError as e:
        raise GtpError(str(e)) from None
    set_rules(engine, rules)
    return ""


KGS_RULES = {"chinese": "chinese-kgs", "aga": "aga", "new_zealand": "new-zealand", "japanese": "japanese"}


def cmd_kgs_rules(engine: GtpEngine, args: list[str]) -> str:
    """``kgs-rules chinese|aga|japanese|new_zealand``: as kata-set-rules (KGS's chinese: superko)."""
    if not args:
        raise GtpError("Expected one argument kgs-rules")
    name = args[0].strip().lower()
    if name not in KGS_RULES:
        raise GtpError(f"Unknown rules '{name}'")
    set_rules(engine, parse_rules(KGS_RULES[name], allow_komi=False))
    return ""


COMMANDS = {
    "kata-raw-nn": cmd_kata_raw_nn,
    "kata-get-rules": cmd_kata_get_rules,
    "kata-set-rules": cmd_kata_set_rules,
    "kata-set-rule": cmd_kata_set_rule,
    "kgs-rules": cmd_kgs_rules,
}
