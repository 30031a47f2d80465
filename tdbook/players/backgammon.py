"""Backgammon players: random, pubeval (Tesauro's public linear evaluator), GNU Backgammon levels, and
TD-Gammon nets choosing 1-ply or with a 2-ply search (Powell (2000) §5.2).

Every player picks one of the distinct afterstates :func:`~tdbook.games.backgammon.gen_afterstates`
lists.  Random and pubeval have jitted choosers (``KIND_RANDOM``, ``KIND_PUBEVAL``) that the
match runner's fast path calls inside one kernel; gnubg players are Python-level.

Pubeval (written from Tesauro's published description; weights in ``data/pubeval_weights.json``):
score = w · x over 122 inputs of the afterstate seen by the mover, with the ``race`` weights when
the position *before* the move has no contact and the ``contact`` weights otherwise; bearing off
the last checker scores best possible.  Ties go to the first afterstate generated.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from ..core.paths import repo_root
from ..core.rng import make_state, randint
from ..games.backgammon import OFF, flip, gen_afterstates, is_race, make_buffers, win_multiplier
from ..learners.backgammon_net import ROLL_WEIGHTS, ROLLS, NetArrays, choose_1ply, on_roll_equity, score_afterstates

KIND_RANDOM = 0
KIND_PUBEVAL = 1
KIND_NET = 2  # a TD-Gammon net choosing 1-ply (tdbook.learners.backgammon_net)
KIND_NET2 = 3  # the same net choosing 2-ply
KIND_SYM = 4  # a symmetric-gammon net of notebook 09 choosing 1-ply (tdbook.players.backgammon_symmetric)

_WEIGHTS_FILE = "data/pubeval_weights.json"


def load_pubeval_weights(path: str | Path | None = None) -> np.ndarray:
    """Pubeval's weights as float64[2, 122] (row 0 contact, row 1 race), checked for shape."""
    p = Path(path) if path is not None else Path(__file__).resolve().parents[2] / _WEIGHTS_FILE
    if not p.is_file():
        p = repo_root() / _WEIGHTS_FILE
    try:
        d = json.loads(p.read_text())
        rows = [d["contact"], d["race"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"cannot read pubeval weights from {p}: {e}") from None
    for name, r in zip(("contact", "race"), rows):
        if not isinstance(r, list) or len(r) != 122:
            raise ValueError(f"pubeval weights in {p}: {name!r} must be a list of 122 numbers")
    try:
        w = np.array(rows, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ValueError(f"pubeval weights in {p} must be numbers: {e}") from None
    if not np.all(np.isfinite(w)):
        raise ValueError(f"pubeval weights in {p} must be finite numbers")
    return w


@njit(cache=True)
def pubeval_score(after, race, w, x) -> float:
    """Pubeval's score of afterstate ``after`` (mover's view); ``race`` refers to the position before.

    Sums only the non-zero inputs of :func:`~tdbook.games.backgammon_encoding.pubeval_inputs`
    (block k reads point 24 − k); ``x`` is unused scratch kept for a stable signature."""
    if after[OFF] == 15:
        return 99999999.0
    r = 1 if race else 0
    s = 0.0
    for k in range(24):
        n = after[24 - k]
        b = 5 * k
        if n == -1:
            s += w[r, b]
        elif n == 1:
            s += w[r, b + 1]
        elif n >= 2:
            s += w[r, b + 2]
            if n == 3:
                s += w[r, b + 3]
            elif n >= 4:
                s += w[r, b + 4] * (n - 3) * 0.5
    s += w[r, 120] * (-after[0] * 0.5)
    s += w[r, 121] * (after[OFF] / 15.0)
    return s


@njit(cache=True)
def pubeval_choose(pos, out_pos, n, w, x) -> int:
    """Index of pubeval's choice among ``out_pos[:n]`` (afterstates of ``pos``)."""
    race = is_race(pos)
    best = 0
    bs = -1e300
    for j in range(n):
        s = pubeval_score(out_pos[j], race, w, x)
        if s > bs:
            bs = s
            best = j
    return best


@njit(cache=True)
def choose(kind, pos, out_pos, n, w, x, rng) -> int:
    """Jitted chooser dispatch: ``KIND_RANDOM`` draws from ``rng``, ``KIND_PUBEVAL`` uses ``w``."""
    if n <= 1:
        return 0
    if kind == KIND_RANDOM:
        return randint(rng, n)
    return pubeval_choose(pos, out_pos, n, w, x)


# ----------------------------------------------------------------------------- Python-level players


class RandomPlayer:
    """Uniform over the distinct afterstates (seeded)."""

    kind = KIND_RANDOM

    def __init__(self, seed: int = 0, stream: int = 1) -> None:
        self.name = "random"
        self.rng = make_state(seed, stream)

    def choose(self, pos, d1, d2, after) -> int:
        return int(randint(self.rng, len(after))) if len(after) > 1 else 0


class PubevalPlayer:
    """Tesauro's pubeval (1993), the standard benchmark opponent."""

    kind = KIND_PUBEVAL

    def __init__(self, weights: np.ndarray | None = None) -> None:
        self.name = "pubeval"
        self.w = load_pubeval_weights() if weights is None else np.asarray(weights, np.float64)
        if self.w.shape != (2, 122):
            raise ValueError(f"pubeval weights must have shape (2, 122), got {self.w.shape}")
        self._x = np.zeros(122)

    def choose(self, pos, d1, d2, after) -> int:
        return int(pubeval_choose(np.asarray(pos, np.int8), after, len(after), self.w, self._x))

    def scores(self, pos: np.ndarray, after: np.ndarray) -> np.ndarray:
        race = bool(is_race(np.asarray(pos, np.int8)))
        return np.array([pubeval_score(a, race, self.w, self._x) for a in after])


GNUBG_LEVELS: dict[str, float] = {
    "beginner": 0.06,
    "intermediate": 0.04,
    "advanced": 0.015,
    "expert": 0.0,
    "worldclass": 0.0,
}
GNUBG_PLIES: dict[str, int] = {"worldclass": 2}  # the other levels are 0-ply


class GnubgPlayer:
    """GNU Backgammon at its graded levels: 0-ply with deterministic evaluation noise (beginner
    0.06, intermediate 0.04, advanced 0.015, expert 0), and world class = 2-ply without noise.

    At 0-ply it picks the afterstate with the highest gnubg move score (minus the opponent's
    equity after the move, noise included).  At 2-ply it plays gnubg's own choice
    (``find_best_moves``, with gnubg's move filters); when that move's tuple is cut at a bear-off
    (a quirk of the bindings) it takes, among our afterstates that continue the cut move, the one
    gnubg scores best at 0-ply."""

    def __init__(self, level: str = "expert", plies: int | None = None) -> None:
        if level not in GNUBG_LEVELS:
            raise ValueError(f"unknown gnubg level {level!r}; choose from: {', '.join(GNUBG_LEVELS)}")
        from ..games.backgammon_gnubg import context

        self.level = level
        self.plies = GNUBG_PLIES.get(level, 0) if plies is None else int(plies)
        self.name = f"gnubg-{level}"
        self.ctx = context(self.plies, GNUBG_LEVELS[level], True)

    def choose(self, pos, d1, d2, after) -> int:
        from ..games.backgammon_gnubg import gnubg_choice, move_score

        if len(after) <= 1:
            return 0
        if self.plies > 0:
            return gnubg_choice(np.asarray(pos, np.int8), d1, d2, after, self.ctx)
        s = [move_score(a, self.ctx) for a in after]
        return int(np.argmax(s))


# ----------------------------------------------------------------------------- TD-Gammon nets: 1-ply and 2-ply


@njit(cache=True)
def value_2ply(net, colour, after, buf) -> float:
    """Expected 1-ply-backed-up value of afterstate ``after`` for its mover (colour ``colour``):
    over the opponent's 21 rolls, the opponent plays its best 1-ply reply (``net``: a
    :class:`~tdbook.learners.backgammon_net.NetArrays`, ``buf`` its :class:`~.Buffers`)."""
    if after[OFF] == 15:
        return float(win_multiplier(after))
    flip(after, buf.tmp)  # the opponent on roll
    total = 0.0
    for r in range(21):
        d1 = ROLLS[r, 0]
        d2 = ROLLS[r, 1]
        n2 = gen_afterstates(buf.tmp, d1, d2, buf.out2, buf.mv2, buf.ws2)
        best = -1e300
        for j in range(n2):
            b = buf.out2[j]
            if b[OFF] == 15:
                v = float(win_multiplier(b))
            else:
                flip(b, buf.tmp2)  # us on roll again
                v = -on_roll_equity(net, buf.tmp2, colour, buf)
            if v > best:
                best = v
        total -= ROLL_WEIGHTS[r] * best
    return total / 36.0


@njit(cache=True)
def best_first(scores, n, keep, order) -> int:
    """Put the indices of the ``keep`` best of ``scores[:n]`` first in ``order``, best first, equals in their
    order (a partial, stable selection sort); return how many (``min(keep, n)``)."""
    for j in range(n):
        order[j] = j
    m = min(keep, n)
    for a in range(m):
        b = a
        for c in range(a + 1, n):
            if scores[order[c]] > scores[order[b]]:
                b = c
        t = order[b]
        for c in range(b, a, -1):
            order[c] = order[c - 1]
        order[a] = t
    return m


@njit(cache=True)
def choose_2ply(net, colour, out_pos, n, keep, buf) -> int:
    """2-ply choice (§5.2's later versions): the ``keep`` best afterstates by 1-ply score, re-valued
    by :func:`value_2ply`; first of equals."""
    if n <= 1:
        return 0
    score_afterstates(net, colour, out_pos, n, buf)
    scores, order = buf.scores, buf.order
    m = best_first(scores, n, keep, order)
    best = order[0]
    bv = -1e300
    for a in range(m):
        j = order[a]
        v = value_2ply(net, colour, out_pos[j], buf)
        if v > bv:
            bv = v
            best = j
    return best


@njit(cache=True)
def choose_net(plies, net, colour, out_pos, n, keep, buf) -> int:
    """A net's choice among ``out_pos[:n]``: 1-ply greedy, or 2-ply over the ``keep`` best."""
    if plies == 1:
        return choose_1ply(net, colour, out_pos, n, buf)
    return choose_2ply(net, colour, out_pos, n, keep, buf)


class NetPlayer:
    """A TD-Gammon net (:class:`~tdbook.learners.backgammon_net.TDGammon`) choosing 1-ply (greedy over
    the afterstates, §5.2) or 2-ply (the ``keep`` best 1-ply candidates re-valued over the opponent's
    21 rolls).  The match runner plays it inside its jitted kernel; ``choose`` is the Python path
    (e.g. against gnubg)."""

    def __init__(self, model, plies: int = 1, keep: int = 8, name: str | None = None) -> None:
        if plies not in (1, 2):
            raise ValueError(f"plies must be 1 or 2, got {plies!r}")
        if not isinstance(keep, (int, np.integer)) or keep < 1:
            raise ValueError(f"keep must be an int >= 1, got {keep!r}")
        self.model, self.plies, self.keep = model, plies, int(keep)
        self.kind = KIND_NET if plies == 1 else KIND_NET2
        self.name = name or f"TD-Gammon {model.hidden}h" + ("" if plies == 1 else " 2-ply")
        self.colour = 0
        self._buf = model.buffers(two_ply=plies == 2)

    @property
    def net(self) -> NetArrays:
        return self.model.arrays

    def seat(self, colour: int) -> None:
        self.colour = int(colour)

    def scores(self, pos: np.ndarray, after: np.ndarray) -> np.ndarray:
        """1-ply value (points, cubeless) of each afterstate for the mover."""
        score_afterstates(self.net, self.colour, after, len(after), self._buf)
        return self._buf.scores[: len(after)].copy()

    def choose(self, pos, d1, d2, after) -> int:
        return int(choose_net(self.plies, self.net, self.colour, after, len(after), self.keep, self._buf))


def scratch() -> tuple:
    """Buffers for a Python-level game loop: (movegen buffers, pubeval x)."""
    return make_buffers(), np.zeros(122)


def afterstates(pos: np.ndarray, d1: int, d2: int, bufs) -> np.ndarray:
    """Distinct afterstates (a view into ``bufs``) of ``pos`` with ``d1, d2``."""
    n = gen_afterstates(pos, d1, d2, *bufs)
    return bufs[0][:n]
