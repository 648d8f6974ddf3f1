"""The Go controller's overlays as a part that owns its state: the control map (``c``), the
ownership estimate (``o``) and the policy heat map (``f``), whether each shows, each computed for
the position on the board when first asked and kept until the game changes (the workers'
generation).

Where the net plays the board (:func:`gorilla.ai.puct.evaluator.supports`) the ownership is the
root's over a short search of the net (:func:`gorilla.ai.puct.estimate.ownership_grid`) and the
heat map the net's policy; elsewhere the playouts' ownership and the move model's policy."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gorilla.app.feed import Feed
from gorilla.rules.game import Game

OWNERSHIP_PLAYOUTS = 200  # playouts behind the ownership overlay (o)


class Overlays:
    """The three maps of one position, cached by the game's generation (see the module docstring).

    ``ready(group)`` says whether a kernel group can run now; while it compiles a map is empty.
    ``board()`` is the game on the board and its generation.
    """

    def __init__(
        self, ready: Callable[[str], bool], feed: Feed, board: Callable[[], tuple[Game, int]]
    ) -> None:
        self.ready = ready
        self.feed = feed
        self.board = board
        self.show_ownership = False
        self.show_policy = False
        self._control: tuple[int, np.ndarray] | None = None
        self._ownership: tuple[int, np.ndarray] | None = None
        self._policy: tuple[int, dict[int, float]] | None = None

    def toggle_ownership(self) -> None:
        """Show or hide the ownership estimate overlay (``o``)."""
        self.show_ownership = not self.show_ownership
        self.feed.touch()

    def toggle_policy(self) -> None:
        """Show or hide the move model's heat map (``f``): the moves strong players would consider."""
        self.show_policy = not self.show_policy
        self.feed.touch()

    def control_map(self) -> np.ndarray:
        """The control map of the position on the board (-1 Black .. +1 White, row 0 on top)."""
        game, gen = self.board()
        if self._control is not None and self._control[0] == gen:
            return self._control[1]
        if not self.ready("control"):
            return np.zeros((game.size, game.size), dtype=np.float32)
        from gorilla.ai.control_map import control_map

        cm = np.asarray(control_map(game.position), dtype=np.float32)
        self._control = (gen, cm)
        return cm

    def ownership_map(self) -> np.ndarray:
        """Who owns each point at the end, by the net or playouts (-1 Black .. +1 White, row 0 on top)."""
        game, gen = self.board()
        if self._ownership is not None and self._ownership[0] == gen:
            return self._ownership[1]
        from gorilla.ai.puct.evaluator import supports

        net = supports(game)
        if not self.ready("net" if net else "ownership"):
            return np.zeros((game.size, game.size), dtype=np.float32)
        if net:
            from gorilla.ai.puct.estimate import ownership_grid

            own = np.asarray(ownership_grid(game), dtype=np.float32)
        else:
            from gorilla.ai.ownership import ownership

            own = np.asarray(ownership(game, playouts=OWNERSHIP_PLAYOUTS, seed=gen), dtype=np.float32)
        self._ownership = (gen, own)
        return own

    def policy_map(self) -> dict[int, float]:
        """The net's (or, where it does not play, the move model's) probability of each legal move
        of the side to move (PASS left out); empty while its kernels compile, or without a usable
        move model (the map then hides, and the panel says why)."""
        game, gen = self.board()
        if self._policy is not None and self._policy[0] == gen:
            return self._policy[1]
        from gorilla.ai.puct.evaluator import supports

        net = supports(game)
        if not self.ready("net" if net else "policy"):
            return {}
        if net:
            from gorilla.ai.puct.estimate import policy_map

            out = policy_map(game)
            self._policy = (gen, out)
            return out
        from gorilla.ai.policy.model import ModelError, shipped_model

        pos = game.position
        try:
            moves, probs = shipped_model().probabilities(pos.b, pos.st, game.to_move)
        except ModelError as e:
            self.show_policy = False
            self.feed.say(str(e))
            return {}
        out = {int(m): float(p) for m, p in zip(moves, probs, strict=True) if m >= 0}
        self._policy = (gen, out)
        return out
