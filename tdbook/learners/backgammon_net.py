"""TD-Gammon's value net for backgammon and its self-play TD(λ) kernel (Powell (2000) ch. 5; §4.6
Eqs 4.14–4.16; §6.4 Eqs 6.11–6.14).

The network is :class:`~tdbook.learners.td_net.TDNet` (one hidden layer, logistic units,
per-output eligibility traces); this module only adds what backgammon needs, all jitted:

- **Encodings** (:data:`ENCODINGS`).  ``"tesauro"``: the thesis's 198 inputs (§5.2: 4 units per
  point per side, bar, borne off, 2 side-to-move units; the truncated-unary coding is
  Tesauro's, see :mod:`tdbook.games.backgammon_encoding`) and outputs for *white*, as in
  TD-Gammon: one sequence of positions per game, both sides' moves, one set of traces.
  ``"relative"``: the same units without the turn units (196), always from the side on roll,
  outputs for that side (as GNU Backgammon does).  Consecutive positions are then valued from
  opposite sides, so the traces change frame at every move (:func:`update_remap_rows`).
- **Outputs**: 1 = P(win) of the frame's owner, or 4 = Tesauro's (win, gammon win, loss,
  gammon loss) of the frame's owner; a backgammon counts as a gammon for the outputs.
  Equity = 2P − 1, or P(win) + P(gammon win) − P(loss) − P(gammon loss).
- **The value of a move** (:func:`score_afterstates`) and the greedy 1-ply choice that self-play
  training follows (:func:`choose_1ply`; §5.2: *"evaluated each available position due to its die
  roll and chose the position that would lead to the greatest probability of victory"*).  A move
  that bears off the last checker is worth the points it wins.  Deeper searches are players
  (:mod:`tdbook.players.backgammon`).
- **Training** (:func:`train_games`): pure self-play, no exploration beyond the dice; game ``g``
  of a run draws its dice from stream ``(seed, g)``, so a run resumed from a checkpoint after
  game ``g`` plays exactly the games an uninterrupted run plays.  Each game: traces start at
  ∇V of the first afterstate; every move applies δ = V(next) − V(current) (in the current
  frame) with the traces, then evaluates the next position with the new weights and adds its
  gradient to the decayed traces (the thesis's and Tesauro's order); the last move's target
  is the outcome.

The jitted kernels take the net as one :class:`NetArrays` and their scratch space as one
:class:`Buffers` (immutable named tuples: numba's form of a small frozen configuration object).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ..core.rng import seed_state
from ..games.backgammon import (
    MAX_AFTER,
    NSLOT,
    OFF,
    WS_SIZE,
    flip,
    gen_afterstates,
    opening_roll,
    roll,
    set_initial,
    win_multiplier,
)
from ..games.backgammon_encoding import MAX_NNZ, N_INPUTS, N_INPUTS_RELATIVE, encode_tesauro
from .td_net import TDNet, add_gradient, fold_output_gradient, forward, mark_rows, update_remap_rows

ENCODINGS: dict[str, int] = {"tesauro": 0, "relative": 1}
MODE_TESAURO = 0
MODE_RELATIVE = 1
OUTPUTS = (1, 4)
N_IN = {"tesauro": N_INPUTS, "relative": N_INPUTS_RELATIVE}
FORMAT = "tdbook.TDGammon/1"

# the 21 distinct rolls and their weights out of 36
ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
ROLL_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ROLLS])


class NetArrays(NamedTuple):
    """What the jitted evaluators read of a net: weights, bias value, activation codes, encoding mode."""

    W1: np.ndarray
    W2: np.ndarray
    bias: float
    hact: int
    oact: int
    mode: int


class Buffers(NamedTuple):
    """Scratch arrays of one evaluator (not shared between players): move scores and order, two
    position buffers, the sparse input, hidden and output values, and a second move list for the
    opponent's replies of a 2-ply search (``out2``, ``mv2``, ``ws2``, ``scores2``)."""

    scores: np.ndarray
    order: np.ndarray
    tmp: np.ndarray
    tmp2: np.ndarray
    idx: np.ndarray
    val: np.ndarray
    h: np.ndarray
    o: np.ndarray
    out2: np.ndarray
    mv2: np.ndarray
    ws2: np.ndarray
    scores2: np.ndarray


class TDRule(NamedTuple):
    """The update rule of one stretch of training: step sizes α (input→hidden) and β
    (hidden→output), trace decay λ, and the derivative mode of :mod:`tdbook.learners.td_net`."""

    alpha: float
    beta: float
    lam: float
    dmode: int


@njit(cache=True)
def make_buffers(n_hidden, n_out, two_ply) -> Buffers:
    """An evaluator's :class:`Buffers` (the 2-ply reply buffers only when ``two_ply``)."""
    big = MAX_AFTER if two_ply else 1
    return Buffers(
        np.zeros(MAX_AFTER),
        np.zeros(MAX_AFTER, np.int64),
        np.zeros(NSLOT, np.int8),
        np.zeros(NSLOT, np.int8),
        np.zeros(MAX_NNZ, np.int64),
        np.zeros(MAX_NNZ),
        np.zeros(n_hidden),
        np.zeros(n_out),
        np.zeros((big, NSLOT), np.int8),
        np.full((big, 8), -1, np.int8),
        np.zeros(WS_SIZE if two_ply else 1, np.int64),
        np.zeros(big),
    )


# ----------------------------------------------------------------------------- evaluation kernels


@njit(cache=True)
def encode(pos, colour, mode, idx, val) -> int:
    """Sparse net inputs of ``pos`` (side on roll's view; ``colour`` = that side's colour)."""
    if mode == MODE_RELATIVE:
        return encode_tesauro(pos, 0, False, idx, val)
    return encode_tesauro(pos, colour, True, idx, val)


@njit(cache=True)
def frame_equity(o) -> float:
    """Cubeless equity of the frame's owner from the outputs ``o`` (1 or 4 of them)."""
    if o.shape[0] == 1:
        return 2.0 * o[0] - 1.0
    return o[0] + o[1] - o[2] - o[3]


@njit(cache=True)
def on_roll_equity(net, pos, colour, buf) -> float:
    """Equity of the side on roll in ``pos`` (its view, ``colour`` its colour); fills ``buf.h``, ``buf.o``."""
    nnz = encode(pos, colour, net.mode, buf.idx, buf.val)
    forward(net.W1, net.W2, buf.idx, buf.val, nnz, net.bias, net.hact, net.oact, buf.h, buf.o)
    e = frame_equity(buf.o)
    if net.mode == MODE_TESAURO and colour == 1:
        return -e
    return e


@njit(cache=True)
def score_afterstates(net, colour, out_pos, n, buf) -> None:
    """1-ply value of each afterstate ``out_pos[:n]`` for the mover (colour ``colour``) into
    ``buf.scores``: the points won if it bears off the last checker, else minus the opponent's
    equity on roll."""
    for j in range(n):
        a = out_pos[j]
        if a[OFF] == 15:
            buf.scores[j] = win_multiplier(a)
        else:
            flip(a, buf.tmp)
            buf.scores[j] = -on_roll_equity(net, buf.tmp, 1 - colour, buf)


@njit(cache=True)
def choose_1ply(net, colour, out_pos, n, buf) -> int:
    """Index of the greedy 1-ply choice among ``out_pos[:n]`` (first of equals)."""
    if n <= 1:
        return 0
    score_afterstates(net, colour, out_pos, n, buf)
    best = 0
    for j in range(1, n):
        if buf.scores[j] > buf.scores[best]:
            best = j
    return best


# ----------------------------------------------------------------------------- training kernel


@njit(cache=True)
def _frame_map(mode, n_out, lam):
    """(perm, decay) taking traces/values from one position's frame to the next one's."""
    perm = np.arange(n_out)
    decay = lam
    if mode == MODE_RELATIVE:
        if n_out == 4:
            perm[0] = 2
            perm[1] = 3
            perm[2] = 0
            perm[3] = 1
        else:
            decay = -lam  # P(win) → 1 − P(win): the gradient changes sign
    return perm, decay


@njit(cache=True)
def _outcome(mode, n_out, colour, m, out):
    """Target outputs, in the frame of the position where ``colour`` is on roll, when ``colour``
    wins ``m`` points with its move."""
    g = 1.0 if m >= 2 else 0.0
    white_frame_loser = mode == MODE_TESAURO and colour == 1
    if n_out == 1:
        out[0] = 0.0 if white_frame_loser else 1.0
    elif white_frame_loser:
        out[0], out[1], out[2], out[3] = 0.0, 0.0, 1.0, g
    else:
        out[0], out[1], out[2], out[3] = 1.0, g, 0.0, 0.0


@njit(cache=True)
def train_games(net, eW1, eW2, rule, seed, first_game, n_games, stats) -> None:
    """Self-play TD(λ) games ``first_game .. first_game + n_games − 1`` (dice stream ``(seed, g)``)
    of the net ``net`` (:class:`NetArrays`) under the update rule ``rule`` (:class:`TDRule`).

    Updates ``net.W1``/``net.W2`` in place (``eW1`` holds the input→hidden traces, ``eW2`` is
    scratch for the output gradient; the hidden→output traces are kept in full here, see
    :func:`~tdbook.learners.td_net.update_remap_rows`).
    ``stats[i] = (points won by colour 0, plies)`` of each game.  See the module docstring."""
    W1, W2, bias, hact, oact, mode = net
    alpha, beta, lam, dmode = rule
    n_out = W2.shape[1]
    n_in = W1.shape[0] - 1
    n_hid = W1.shape[1]
    perm, decay = _frame_map(mode, n_out, lam)
    out_pos = np.zeros((MAX_AFTER, NSLOT), np.int8)
    out_mv = np.full((MAX_AFTER, 8), -1, np.int8)
    ws = np.zeros(WS_SIZE, np.int64)
    buf = make_buffers(n_hid, n_out, False)
    idx, val, h, tmp = buf.idx, buf.val, buf.h, buf.tmp
    o_cur = np.zeros(n_out)
    o_best = np.zeros(n_out)
    delta = np.zeros(n_out)
    target = np.zeros(n_out)
    pos = np.zeros(NSLOT, np.int8)
    rows = np.zeros(n_in, np.int64)
    mark = np.zeros(n_in + 1, np.int8)
    tW2 = np.zeros((n_hid + 1, n_out, n_out))
    n_rows = 0
    eW1[:] = 0.0
    eW2[:] = 0.0
    for g in range(n_games):
        rng = seed_state(seed, first_game + g)
        set_initial(pos)
        colour, d1, d2 = opening_roll(rng)
        started = False
        plies = 0
        while True:
            n = gen_afterstates(pos, d1, d2, out_pos, out_mv, ws)
            best = choose_1ply(net, colour, out_pos, n, buf)
            plies += 1
            a = out_pos[best]
            if a[OFF] == 15:
                m = win_multiplier(a)
                if started:
                    _outcome(mode, n_out, colour, m, target)
                    for k in range(n_out):
                        delta[k] = target[k] - o_cur[k]
                    n_rows = update_remap_rows(W1, W2, eW1, tW2, delta, alpha, beta, decay, perm, rows, n_rows, mark)
                stats[g, 0] = m if colour == 0 else -m
                stats[g, 1] = plies
                break
            flip(a, tmp)  # the next position, from the next mover's view
            nnz = encode(tmp, 1 - colour, mode, idx, val)
            forward(W1, W2, idx, val, nnz, bias, hact, oact, h, o_best)  # its value before the update
            if not started:
                for r in range(n_rows):
                    eW1[rows[r]] = 0.0
                    mark[rows[r]] = 0
                n_rows = 0
                eW1[n_in] = 0.0
                tW2[:] = 0.0
                started = True
            else:
                if mode == MODE_RELATIVE:
                    if n_out == 1:
                        delta[0] = (1.0 - o_best[0]) - o_cur[0]
                    else:
                        for k in range(n_out):
                            delta[k] = o_best[perm[k]] - o_cur[k]
                else:
                    for k in range(n_out):
                        delta[k] = o_best[k] - o_cur[k]
                n_rows = update_remap_rows(W1, W2, eW1, tW2, delta, alpha, beta, decay, perm, rows, n_rows, mark)
            forward(W1, W2, idx, val, nnz, bias, hact, oact, h, o_cur)
            add_gradient(W2, idx, val, nnz, bias, hact, oact, dmode, h, o_cur, eW1, eW2)
            fold_output_gradient(eW2, tW2)
            n_rows = mark_rows(idx, nnz, rows, n_rows, mark)
            pos[:] = tmp
            colour = 1 - colour
            d1, d2 = roll(rng)
    # leave the traces zero for the next call
    for r in range(n_rows):
        eW1[rows[r]] = 0.0
    eW1[n_in] = 0.0
    eW2[:] = 0.0


# ----------------------------------------------------------------------------- the model


class TDGammon:
    """A TD-Gammon net: a :class:`TDNet` plus its encoding (``"tesauro"`` or ``"relative"``).

    ``TDGammon.new(hidden=80, outputs=4, encoding="relative", alpha=0.1, lam=0.7, seed=1)``
    builds one with small random weights (uniform ±``init``); :meth:`load` reads one saved by
    :meth:`save` (a ``.npz`` written atomically by the TD net) and refuses a corrupt file, a
    foreign format or shapes that do not fit the encoding, naming the problem."""

    def __init__(self, net: TDNet, encoding: str, info: dict[str, Any] | None = None) -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose from: {', '.join(ENCODINGS)}")
        if net.n_in != N_IN[encoding]:
            raise ValueError(f"a {encoding!r} net has {N_IN[encoding]} inputs, this one has {net.n_in}")
        if net.n_out not in OUTPUTS:
            raise ValueError(f"a TD-Gammon net has 1 or 4 outputs, this one has {net.n_out}")
        self.net, self.encoding = net, encoding
        self.mode = ENCODINGS[encoding]
        self.info: dict[str, Any] = dict(info or {})

    @classmethod
    def new(
        cls,
        hidden: int = 40,
        outputs: int = 1,
        encoding: str = "relative",
        *,
        alpha: float = 0.1,
        beta: float | None = None,
        lam: float = 0.7,
        init: float = 0.1,
        seed: int = 0,
    ) -> TDGammon:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose from: {', '.join(ENCODINGS)}")
        if outputs not in OUTPUTS:
            raise ValueError(f"outputs must be 1 (P(win)) or 4 (win, gammon win, loss, gammon loss), got {outputs!r}")
        net = TDNet(
            N_IN[encoding],
            hidden,
            outputs,
            hidden="logistic",
            output="logistic",
            alpha=alpha,
            beta=beta,
            lam=lam,
            init=init,
            seed=seed,
        )
        return cls(net, encoding)

    # -- shape
    @property
    def hidden(self) -> int:
        return self.net.n_hidden

    @property
    def outputs(self) -> int:
        return self.net.n_out

    @property
    def arrays(self) -> NetArrays:
        """The net as the jitted evaluators read it (:class:`NetArrays`; the weights are shared, not copied)."""
        n = self.net
        return NetArrays(n.W1, n.W2, n.bias, n.hact, n.oact, self.mode)

    def buffers(self, two_ply: bool = False) -> Buffers:
        """Fresh scratch :class:`Buffers` for an evaluator of this net."""
        return make_buffers(self.hidden, self.outputs, bool(two_ply))

    def describe(self) -> str:
        return f"{self.net.n_in}-{self.hidden}-{self.outputs} ({self.encoding})"

    # -- evaluation (Python level)
    def outputs_of(self, pos: np.ndarray, colour: int = 0) -> np.ndarray:
        """Net outputs for ``pos`` (side on roll's view, ``colour`` its colour), in the net's frame."""
        s = self.buffers()
        nnz = encode(np.asarray(pos, np.int8), int(colour), self.mode, s.idx, s.val)
        forward(self.net.W1, self.net.W2, s.idx, s.val, nnz, self.net.bias, self.net.hact, self.net.oact, s.h, s.o)
        return s.o.copy()

    def p_win(self, pos: np.ndarray, colour: int = 0) -> float:
        """P(the side on roll wins) for ``pos`` (its view)."""
        o = self.outputs_of(pos, colour)
        p = o[0] if self.outputs == 1 else 0.5 * (o[0] + 1.0 - o[2])
        if self.mode == MODE_TESAURO and colour == 1:
            p = 1.0 - p
        return float(p)

    def equity(self, pos: np.ndarray, colour: int = 0) -> float:
        """Cubeless equity of the side on roll for ``pos`` (its view)."""
        return float(on_roll_equity(self.arrays, np.asarray(pos, np.int8), int(colour), self.buffers()))

    # -- training
    def train(self, rule: TDRule, seed: int, first_game: int, n_games: int) -> np.ndarray:
        """Play self-play games ``first_game …`` under ``rule`` (:func:`train_games`); their
        ``(points for colour 0, plies)``.  Raises ValueError if the weights stop being finite."""
        stats = np.zeros((n_games, 2), np.int64)
        train_games(self.arrays, self.net.eW1, self.net.eW2, rule, seed, first_game, n_games, stats)
        self.net.check_finite()
        return stats

    def rule(self, alpha: float, beta: float, lam: float) -> TDRule:
        """A :class:`TDRule` with this net's derivative mode."""
        return TDRule(float(alpha), float(beta), float(lam), self.net.dmode)

    # -- persistence
    def save(self, path: str | Path, aux: dict[str, np.ndarray] | None = None, **info: Any) -> Path:
        """Write weights, hyper-parameters, encoding, ``info`` (JSON-able) and ``aux`` (named float
        arrays, e.g. a checkpoint's running sum of weights) atomically, in one file."""
        self.info.update(info)
        return self.net.save(path, aux=aux, td_gammon=FORMAT, encoding=self.encoding, info=self.info)

    @property
    def aux(self) -> dict[str, np.ndarray]:
        """The auxiliary arrays read with the weights (empty for a plain net)."""
        return self.net.aux

    @classmethod
    def load(cls, path: str | Path, *, hidden: int | None = None, outputs: int | None = None) -> TDGammon:
        """Read a net written by :meth:`save`; ValueError naming the file and what was expected if it
        is corrupt, not a TD-Gammon net, or of a shape other than asked (``hidden``, ``outputs``)."""
        expect = {}
        if hidden is not None:
            expect["n_hidden"] = hidden
        if outputs is not None:
            expect["n_out"] = outputs
        net = TDNet.load(path, expect=expect)
        extra = getattr(net, "extra", {})
        if extra.get("td_gammon") != FORMAT:
            raise ValueError(
                f"{path}: not a TD-Gammon weights file (format {extra.get('td_gammon')!r}, expected {FORMAT!r})"
            )
        enc = extra.get("encoding")
        try:
            return cls(net, enc, extra.get("info") or {})
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
