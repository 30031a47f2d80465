"""The TD(λ) networks of Powell (2000) §6.5–6.6 on tic-tac-toe: their inputs, outputs and rewards (the value
function) and App. B.8's ``learn`` step, with each of the listing's defects switchable to its fix.

**Versions** (:data:`VERSIONS`; 8 hidden units each, §6.5):

=======  =======  ================================  ================================  ===========================
version  outputs  activation (hidden and output)    rewards win / draw / loss         move score
=======  =======  ================================  ================================  ===========================
v1.0     1        logistic (Eq. 6.2)                1 / 0.5 / 0                       ``out[0]`` = P(win)
v1.1     1        logistic                          1 / 0 / −1                        ``out[0]``
v2.0     2        logistic                          (1,0) / (0,1) / (0,0)             ``max(out[0], out[1])``
v2.1     2        logistic                          (1,−1) / (−1,1) / (−1,−1)         ``max(out[0], out[1])``
v3.0     1        thesis (1−e^−x)/(1+e^−x) (6.15)   1 / 0 / −1                        ``out[0]``
=======  =======  ================================  ================================  ===========================

v3.0 also uses the listing's derivative ``2y(1−y)`` (Eq. 6.16, App. B.9 ``output_function_prime``) on
every unit; v1/v2 are not listed and use the logistic's own ``y(1−y)`` (Eq. 6.3).  v2's score is the
listing's ``max(out[0], out[1])`` (App. B.8 ``move``); v2.1's draw reward for the win unit is the
text's −1 (the listing's hybrid reward block writes 0, :data:`V21_LISTING_DRAW`).

**Encodings** (:data:`ENCODINGS`) of an *after-state* (the board right after a move) for the player
who just made it — App. B.8 ``board_vector(board, plyr.piece())``:

- ``"thesis"`` (20 inputs): unit ``2s`` = X on square ``s``, ``2s+1`` = O on ``s``, unit 18 = "X's
  turn", 19 = "O's turn" — the turn unit marks the player who *just moved*, i.e. whose probability
  of victory the output estimates;
- ``"mover"`` (18 inputs, a fix): unit ``2s`` = the mover's piece on ``s``, ``2s+1`` = the opponent's;
  the same board seen by the other side is the colour-swapped input, so the net need not "invert"
  its estimate when only a turn unit changes (the difficulty the thesis names at the end of §6.6);
- ``"signed"`` (10 inputs): §6.6's first v3.0 input, +1 X / −1 O / 0 blank per square and a turn unit
  +1 X / −1 O.

**The learning step** (:func:`net_learn`, App. B.8 ``learn`` after every own move): ``δ = r + γ·V(next)
− myCurrent``, weights move by the traces (``W1 += α δ e1``, ``W2 += β δ e2``), the next state is evaluated
again with the new weights and its gradient added to the decayed traces
(:func:`tdbook.learners.td_net.td_step`).  The thesis's defects, each switchable to its fix
(:data:`FIXES`; ``"fixed"`` = all of them):

- ``separate_traces`` — each player's TD chain has its own traces (self-play still shares the weights);
- ``terminal_reward`` — the terminal target is the reward alone (``V(terminal) = 0``), not ``r + γ·V(final)``;
- ``true_derivative`` — the activation's own derivative (for v3.0's ``tanh(x/2)``: ``(1−y²)/2``);
- ``mover_encoding`` — the 18-input board seen from the player who moved (no turn units);
- ``immediate_win`` — a move that ends the game is scored by its reward when choosing;
- ``first_move_start`` — no zero-input reset: a player's episode starts at its first after-state.

The game loops that call the learning step (self-play, against a table or random player, the negamax
target) are protocols: :mod:`tdbook.experiments.tictactoe.net_training`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ..games.tictactoe import DRAW, EMPTY, N_O, N_X, ONGOING, REACHABLE, STATUS, O, X
from .td_net import ACTIVATIONS, TDNet, Units, forward, start_episode, td_step

ENCODINGS: dict[str, int] = {"thesis": 0, "mover": 1, "signed": 2}
N_INPUTS: dict[str, int] = {"thesis": 20, "mover": 18, "signed": 10}
SCORES: dict[str, int] = {"first": 0, "max": 1}
#: rows of a reward array: the outcome for the player who learns
WIN, DRAW_ROW, LOSS = 0, 1, 2


@dataclass(frozen=True)
class Version:
    """One of the thesis's TDNN versions (§6.5–6.6)."""

    name: str
    n_out: int
    activation: str  # hidden and output units (td_net.ACTIVATIONS)
    derivative: str  # td_net.DERIVATIVES: "thesis" = App. B.9's 2y(1−y)
    rewards: tuple[tuple[float, ...], ...]  # (win, draw, loss), one value per output
    score: str  # "first" or "max"
    note: str = ""

    def reward_array(self) -> np.ndarray:
        return np.array(self.rewards, dtype=np.float64)


VERSIONS: dict[str, Version] = {
    "v1.0": Version(
        "v1.0",
        1,
        "logistic",
        "true",
        ((1.0,), (0.5,), (0.0,)),
        "first",
        "Tesauro-style P(win); rewards loss 0, draw 0.5, win 1 (§6.5)",
    ),
    "v1.1": Version(
        "v1.1", 1, "logistic", "true", ((1.0,), (0.0,), (-1.0,)), "first", "as v1.0 with rewards −1 / 0 / 1 (§6.6)"
    ),
    "v2.0": Version(
        "v2.0",
        2,
        "logistic",
        "true",
        ((1.0, 0.0), (0.0, 1.0), (0.0, 0.0)),
        "max",
        "outputs P(win), P(draw); loss rewards both 0 (§6.5)",
    ),
    "v2.1": Version(
        "v2.1",
        2,
        "logistic",
        "true",
        ((1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)),
        "max",
        "as v2.0 with −1 for the outcome that did not happen (§6.6)",
    ),
    "v3.0": Version(
        "v3.0",
        1,
        "thesis",
        "thesis",
        ((1.0,), (0.0,), (-1.0,)),
        "first",
        "expected reward in (−1, 1), Eq. 6.15 activation, Eq. 6.16 / App. B.9 derivative 2y(1−y)",
    ),
}
#: App. B.8's reward block gives the win unit 0 in a draw (the text §6.6 says −1)
V21_LISTING_DRAW = (0.0, 1.0)


def check_version(version: str) -> Version:
    if version not in VERSIONS:
        raise ValueError(f"unknown TDNN version {version!r}; choose from: {', '.join(VERSIONS)}")
    return VERSIONS[version]


def check_encoding(encoding: str) -> int:
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose from: {', '.join(ENCODINGS)}")
    return ENCODINGS[encoding]


# ----------------------------------------------------------------------------- kernels


@njit(cache=True)
def encode_after(code: int, mover: int, enc: int, idx: np.ndarray, val: np.ndarray) -> int:
    """Sparse input of position ``code`` seen by ``mover`` (X or O) — App. B.8 ``board_vector``.
    Writes ``idx[:n]``, ``val[:n]`` and returns ``n``."""
    n = 0
    c = code
    for s in range(9):
        p = c % 3
        c //= 3
        if p != EMPTY:
            if enc == 0:
                idx[n] = 2 * s if p == X else 2 * s + 1
                val[n] = 1.0
            elif enc == 1:
                idx[n] = 2 * s if p == mover else 2 * s + 1
                val[n] = 1.0
            else:
                idx[n] = s
                val[n] = 1.0 if p == X else -1.0
            n += 1
    if enc == 0:
        idx[n] = 18 if mover == X else 19
        val[n] = 1.0
        n += 1
    elif enc == 2:
        idx[n] = 9
        val[n] = 1.0 if mover == X else -1.0
        n += 1
    return n


@njit(cache=True, inline="always")
def score_of(o: np.ndarray, score: int) -> float:
    """The number the move rule maximises: ``out[0]`` or ``max(out[0], out[1])`` (v2)."""
    if score == 1:
        return max(o[0], o[1])
    return o[0]


@njit(cache=True)
def after_score(W1, W2, bias, hact, oact, enc, score, immediate, rewards, after, mover, idx, val, h, o) -> float:
    """Score of after-state ``after`` for ``mover``: the net's, or (``immediate``) the reward's when it
    ends the game."""
    if immediate and STATUS[after] != ONGOING:
        row = DRAW_ROW if STATUS[after] == DRAW else WIN
        return score_of(rewards[row], score)
    nnz = encode_after(after, mover, enc, idx, val)
    forward(W1, W2, idx, val, nnz, bias, hact, oact, h, o)
    return score_of(o, score)


@njit(cache=True)
def score_table(W1, W2, bias, hact, oact, enc, score, immediate, rewards, codes) -> np.ndarray:
    """The move score of every after-state in ``codes`` for the side that just moved (N_CODES array, 0 elsewhere)."""
    out = np.zeros(STATUS.shape[0])
    raw = output_table(W1, W2, bias, hact, oact, enc, codes)
    for i in range(codes.shape[0]):
        a = codes[i]
        if immediate and STATUS[a] != ONGOING:
            out[a] = score_of(rewards[DRAW_ROW if STATUS[a] == DRAW else WIN], score)
        else:
            out[a] = score_of(raw[i], score)
    return out


@njit(cache=True)
def output_table(W1, W2, bias, hact, oact, enc, codes) -> np.ndarray:
    """Raw outputs ``(len(codes), n_out)`` of the net on the after-states ``codes`` (for the side that moved)."""
    out = np.empty((codes.shape[0], W2.shape[1]))
    idx = np.empty(10, dtype=np.int64)
    val = np.empty(10)
    h = np.empty(W1.shape[1])
    o = np.empty(W2.shape[1])
    for i in range(codes.shape[0]):
        a = codes[i]
        mover = X if N_X[a] > N_O[a] else O
        nnz = encode_after(a, mover, enc, idx, val)
        forward(W1, W2, idx, val, nnz, bias, hact, oact, h, o)
        out[i] = o
    return out


#: every reachable position with at least one piece — an after-state of exactly one side
AFTER_STATES = np.flatnonzero(REACHABLE & ((N_X.astype(np.int64) + N_O) > 0)).astype(np.int64)


# ----------------------------------------------------------------------------- the thesis's defects and their fixes


SEPARATE_TRACES, TERMINAL_REWARD, IMMEDIATE_WIN, FIRST_MOVE_START = 1, 2, 4, 8
#: every thesis defect that can be fixed; two of them are not kernel flags but a derivative and an encoding
FIXES: tuple[str, ...] = (
    "separate_traces",
    "terminal_reward",
    "true_derivative",
    "mover_encoding",
    "immediate_win",
    "first_move_start",
)
_FLAG = {
    "separate_traces": SEPARATE_TRACES,
    "terminal_reward": TERMINAL_REWARD,
    "immediate_win": IMMEDIATE_WIN,
    "first_move_start": FIRST_MOVE_START,
}


def check_fixes(fixes: str | Iterable[str]) -> tuple[str, ...]:
    """``"thesis"`` (none), ``"fixed"`` (all) or a list of names from :data:`FIXES`, as a sorted tuple."""
    if isinstance(fixes, str):
        if fixes == "thesis":
            return ()
        if fixes == "fixed":
            return FIXES
        fixes = [fixes]
    out = []
    for f in fixes:
        if f not in FIXES:
            raise ValueError(f"unknown fix {f!r}; choose from: {', '.join(FIXES)} (or 'thesis' / 'fixed')")
        out.append(f)
    return tuple(f for f in FIXES if f in out)


def mode_name(fixes: tuple[str, ...]) -> str:
    return "thesis" if not fixes else "fixed" if set(fixes) == set(FIXES) else "+".join(fixes)


def flags_of(fixes: tuple[str, ...]) -> int:
    """The kernel flags of the fixes that are flags (the derivative and the encoding are not)."""
    return sum(_FLAG[f] for f in fixes if f in _FLAG)


class LearningNet(NamedTuple):
    """What the jitted learning kernels read of a net that learns: weights ``W1``/``W2``, traces
    ``eW1``/``eW2`` (one set per side, shape ``(2, …)``; side 0's serves both without
    ``separate_traces``), step sizes α (input→hidden) and β (hidden→output), γ, λ, the units
    (:class:`~tdbook.learners.td_net.Units`), the encoding code, the reward array ``(3, n_out)`` and
    the fix flags (:func:`flags_of`)."""

    W1: np.ndarray
    W2: np.ndarray
    eW1: np.ndarray
    eW2: np.ndarray
    alpha: float
    beta: float
    gamma: float
    lam: float
    units: Units
    enc: int
    rewards: np.ndarray
    flags: int


class Scratch(NamedTuple):
    """Scratch arrays of the learning step: the sparse input (``idx``, ``val``), hidden and output values,
    the next state's value ``vn``, the TD errors ``delta``, and ``acc`` = (steps, Σ new output, negative δ)
    accumulated for the log."""

    idx: np.ndarray
    val: np.ndarray
    h: np.ndarray
    o: np.ndarray
    vn: np.ndarray
    delta: np.ndarray
    acc: np.ndarray


@njit(cache=True)
def net_learn(p, code, piece, row, has, cur, net, sc) -> None:
    """App. B.8 ``learn`` for side ``p`` that reached ``code`` (``row`` = WIN/DRAW_ROW/LOSS when the game
    is over, −1 otherwise) with the :class:`LearningNet` ``net``; ``sc.acc`` (:class:`Scratch`)
    accumulates (steps, Σ new output, negative δ) for the log."""
    W1, W2, u, idx, val, h, o = net.W1, net.W2, net.units, sc.idx, sc.val, sc.h, sc.o
    vn, delta, acc = sc.vn, sc.delta, sc.acc
    t = 0 if (net.flags & SEPARATE_TRACES) == 0 else p
    nnz = encode_after(code, piece, net.enc, idx, val)
    n_out = W2.shape[1]
    if not has[p]:  # first_move_start: the episode begins at the first after-state, no update
        start_episode(W1, W2, net.eW1[t], net.eW2[t], idx, val, nnz, u, h, o)
        for k in range(n_out):
            cur[p, k] = o[k]
        has[p] = True
        return
    if row >= 0 and (net.flags & TERMINAL_REWARD) != 0:
        for k in range(n_out):
            vn[k] = 0.0
    else:
        forward(W1, W2, idx, val, nnz, u.bias, u.hact, u.oact, h, o)
        for k in range(n_out):
            vn[k] = o[k]
    for k in range(n_out):
        r = net.rewards[row, k] if row >= 0 else 0.0
        delta[k] = r + net.gamma * vn[k] - cur[p, k]
    td_step(W1, W2, net.eW1[t], net.eW2[t], delta, idx, val, nnz, net.alpha, net.beta, net.gamma * net.lam, u, h, o)
    for k in range(n_out):
        cur[p, k] = o[k]
    acc[0] += 1.0
    acc[1] += o[0]
    if delta[0] < 0.0:
        acc[2] += 1.0


@njit(cache=True)
def max_abs(W1, W2) -> float:
    """The largest |weight|, or NaN when some weight is NaN."""
    m = 0.0
    for W in (W1, W2):
        for i in range(W.shape[0]):
            for j in range(W.shape[1]):
                a = abs(W[i, j])
                if a != a:
                    return a
                if a > m:
                    m = a
    return m


def _pos_int(name: str, v: Any) -> int:
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
        raise ValueError(f"{name} must be a positive int, got {v!r}")
    return int(v)


def _unit(name: str, v: Any, lo_open: bool = False, hi: float = 1.0) -> float:
    if (
        isinstance(v, bool)
        or not isinstance(v, (int, float, np.integer, np.floating))
        or not math.isfinite(v)
        or v < 0
        or v > hi
        or (lo_open and v == 0)
    ):
        raise ValueError(f"{name} must be a number in {'(' if lo_open else '['}0, {hi:g}], got {v!r}")
    return float(v)


@dataclass(frozen=True)
class NetDesign:
    """One TDNN: its ``version`` (outputs, rewards, activation, move score), the ``fixes`` applied (a name
    from :data:`FIXES`, a tuple of them, ``"thesis"`` for none or ``"fixed"`` for all) and its
    hyper-parameters.  ``None`` means the thesis's: 8 hidden units, α = 0.05 input→hidden, β = 0.1
    hidden→output, γ = 1, λ = 0.5, weights U[−0.1, 0.1], the version's activation, and the encoding the
    fixes imply (``mover`` with ``mover_encoding``, else ``thesis``); ``output`` overrides the output
    units' activation only.  Built only from valid names (ValueError naming the bad one)."""

    version: str = "v1.0"
    fixes: str | tuple[str, ...] = "thesis"
    hidden: int | None = None
    alpha: float | None = None
    beta: float | None = None
    gamma: float | None = None
    lam: float | None = None
    init: float | None = None
    activation: str | None = None
    output: str | None = None
    encoding: str | None = None

    def __post_init__(self) -> None:
        check_version(self.version)
        object.__setattr__(self, "fixes", check_fixes(self.fixes))
        check_encoding(self.encoding_name)
        for a in (self.activation, self.output):
            if a is not None and a not in ACTIVATIONS:
                raise ValueError(f"unknown activation {a!r}; choose from: {', '.join(ACTIVATIONS)}")

    @property
    def encoding_name(self) -> str:
        return self.encoding or ("mover" if "mover_encoding" in self.fixes else "thesis")

    @property
    def mode(self) -> str:
        return mode_name(self.fixes)

    def hyper_parameters(self) -> dict[str, Any]:
        """The hyper-parameters this design sets (the ``None`` ones left out)."""
        keys = ("hidden", "alpha", "beta", "gamma", "lam", "init", "activation", "output")
        return {k: getattr(self, k) for k in keys if getattr(self, k) is not None}


def _default(value: Any, default: Any) -> Any:
    return default if value is None else value


def new_net(design: NetDesign = NetDesign(), seed: int = 0) -> TDNet:
    """A fresh net of ``design`` (shape from its version and encoding; the thesis init U[−0.1, 0.1]),
    its weights drawn from stream 0 of ``seed``."""
    if not isinstance(design, NetDesign):
        raise ValueError(f"design must be a NetDesign, got {type(design).__name__}")
    v = check_version(design.version)
    fx = design.fixes
    enc = design.encoding_name
    act = design.activation or v.activation
    out = design.output or act
    deriv = "true" if "true_derivative" in fx else v.derivative
    return TDNet(
        N_INPUTS[enc],
        _pos_int("hidden", _default(design.hidden, 8)),
        v.n_out,
        hidden=act,
        output=out,
        derivative=deriv,
        alpha=_unit("alpha", _default(design.alpha, 0.05), True, 10.0),
        beta=_unit("beta", _default(design.beta, 0.1), True, 10.0),
        gamma=_unit("gamma", _default(design.gamma, 1.0)),
        lam=_unit("lam", _default(design.lam, 0.5)),
        init=_unit("init", _default(design.init, 0.1), hi=10.0),
        seed=seed,
    )
