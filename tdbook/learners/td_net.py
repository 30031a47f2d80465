"""TD(λ) for a one-hidden-layer network with per-output eligibility traces (Powell (2000) §4.6, §6.4; App. B.9).

This is the one implementation shared by the tic-tac-toe nets (notebook 07) and
TD-Gammon (notebook 08).  It follows Sutton & Bonde's scheme as Powell codes it in
``TDSuttonNet.h`` (Codes 6.3–6.4, Eqs 6.11–6.14):

- forward: ``h = f_h(x·W1 + b·W1[bias])``, ``o = f_o(h·W2 + b·W2[bias])`` with a bias unit of value ``b``
  on the input and hidden layers;
- traces, one set per output ``k`` (each output has its own TD error):
  ``eW2[j,k] ← γλ eW2[j,k] + ∂o_k/∂W2[j,k]`` and ``eW1[i,j,k] ← γλ eW1[i,j,k] + ∂o_k/∂W1[i,j]``;
- update: ``W2[j,k] += β δ_k eW2[j,k]`` and ``W1[i,j] += α Σ_k δ_k eW1[i,j,k]``
  (α input→hidden, β hidden→output, as the thesis separates them).

The step order is the thesis's and Tesauro's: the weights move with the traces of
the current state, then the next state is evaluated with the new weights and its
gradient is added to the decayed traces.

Inputs are sparse — an index array and a value array — so a 198-input TD-Gammon
board with ~30 non-zero units costs ~30 rows of ``W1`` in the forward pass and in
the gradient; a dense 20-input tic-tac-toe board just lists its non-zero units.

Activations (``ACTIVATIONS``): ``logistic``; ``thesis`` = (1−e^−x)/(1+e^−x) = tanh(x/2)
(App. B.9 ``output_function``, computed overflow-free); ``tanh``; ``linear``; ``thesis-listing`` = the
same function computed as listed, ``e = exp(−x)``, which gives NaN once an input falls below −709.78.
Derivatives: ``"true"``, or
``"thesis"`` = the listing's ``output_function_prime(y) = 2y(1−y)`` applied to every
non-linear unit (which is wrong for the thesis activation and flips sign for y < 0 —
kept to reproduce v3.0).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ..core.rng import make_state, uniform
from ..core.storage import atomic_write_bytes

ACTIVATIONS: dict[str, int] = {"logistic": 0, "thesis": 1, "tanh": 2, "linear": 3, "thesis-listing": 4}
DERIVATIVES: dict[str, int] = {"true": 0, "thesis": 1}


class Units(NamedTuple):
    """How the units of a net compute, as the jitted kernels read it: the bias unit's value, the
    hidden and output activation codes (:data:`ACTIVATIONS`) and the derivative code (:data:`DERIVATIVES`)."""

    bias: float
    hact: int
    oact: int
    dmode: int


# ----------------------------------------------------------------------------- kernels


@njit(cache=True, inline="always")
def act(x: float, kind: int) -> float:
    """Unit activation (codes of ``ACTIVATIONS``)."""
    if kind == 0:
        if x >= 0.0:
            return 1.0 / (1.0 + math.exp(-x))
        e = math.exp(x)
        return e / (1.0 + e)
    if kind == 1:
        return math.tanh(0.5 * x)  # (1 - e^-x) / (1 + e^-x), overflow-free
    if kind == 2:
        return math.tanh(x)
    if kind == 4:  # App. B.9 output_function as listed: exp(-x) overflows to inf for x < -709.78, giving NaN
        e = math.exp(-x)
        return (1.0 - e) / (1.0 + e)
    return x


@njit(cache=True, inline="always")
def dact(y: float, kind: int, mode: int) -> float:
    """Derivative of the activation, written in terms of the unit's output ``y``."""
    if kind == 3:
        return 1.0
    if mode == 1:
        return 2.0 * y * (1.0 - y)  # App. B.9 output_function_prime, as printed
    if kind == 0:
        return y * (1.0 - y)
    if kind == 1 or kind == 4:
        return 0.5 * (1.0 - y * y)
    return 1.0 - y * y


@njit(cache=True)
def forward(W1, W2, idx, val, nnz, bias, hact, oact, h, o):
    """Evaluate the net on the sparse input ``(idx[:nnz], val[:nnz])``; fills ``h`` and ``o``."""
    n_in = W1.shape[0] - 1
    n_hid = W1.shape[1]
    n_out = W2.shape[1]
    for j in range(n_hid):
        h[j] = W1[n_in, j] * bias
    for a in range(nnz):
        i = idx[a]
        v = val[a]
        for j in range(n_hid):
            h[j] += W1[i, j] * v
    for j in range(n_hid):
        h[j] = act(h[j], hact)
    for k in range(n_out):
        s = W2[n_hid, k] * bias
        for j in range(n_hid):
            s += W2[j, k] * h[j]
        o[k] = act(s, oact)


@njit(cache=True)
def add_gradient(W2, idx, val, nnz, bias, hact, oact, dmode, h, o, eW1, eW2):
    """``e += ∂o/∂w`` at the point last evaluated by :func:`forward` (per output ``k``)."""
    n_in = eW1.shape[0] - 1
    n_hid = eW1.shape[1]
    n_out = eW1.shape[2]
    c = np.empty((n_hid, n_out))
    for k in range(n_out):
        gk = dact(o[k], oact, dmode)
        for j in range(n_hid):
            eW2[j, k] += gk * h[j]
            c[j, k] = gk * W2[j, k] * dact(h[j], hact, dmode)
        eW2[n_hid, k] += gk * bias
    for a in range(nnz):
        i = idx[a]
        v = val[a]
        for j in range(n_hid):
            for k in range(n_out):
                eW1[i, j, k] += c[j, k] * v
    for j in range(n_hid):
        for k in range(n_out):
            eW1[n_in, j, k] += c[j, k] * bias


@njit(cache=True)
def update_and_decay(W1, W2, eW1, eW2, delta, alpha, beta, decay):
    """``W += step · δ · e`` (α for W1, β for W2), then ``e ← decay · e`` in the same pass."""
    n_rows, n_hid, n_out = eW1.shape
    for j in range(n_hid + 1):
        for k in range(n_out):
            W2[j, k] += beta * delta[k] * eW2[j, k]
            eW2[j, k] *= decay
    for i in range(n_rows):
        for j in range(n_hid):
            s = 0.0
            for k in range(n_out):
                s += delta[k] * eW1[i, j, k]
                eW1[i, j, k] *= decay
            W1[i, j] += alpha * s


@njit(cache=True)
def td_step(W1, W2, eW1, eW2, delta, idx, val, nnz, alpha, beta, decay, units, h, o):
    """One TD(λ) step: move the weights by the current traces and TD errors ``delta``, then
    evaluate the next state ``(idx, val)`` with the new weights and add its gradient to the
    decayed traces (``units``: a :class:`Units`).  Leaves the next state's hidden/output values in ``h``/``o``."""
    update_and_decay(W1, W2, eW1, eW2, delta, alpha, beta, decay)
    forward(W1, W2, idx, val, nnz, units.bias, units.hact, units.oact, h, o)
    add_gradient(W2, idx, val, nnz, units.bias, units.hact, units.oact, units.dmode, h, o, eW1, eW2)


@njit(cache=True)
def start_episode(W1, W2, eW1, eW2, idx, val, nnz, units, h, o):
    """Zero the traces, evaluate the first state and put its gradient in the traces (``units``: a :class:`Units`)."""
    eW1[:] = 0.0
    eW2[:] = 0.0
    forward(W1, W2, idx, val, nnz, units.bias, units.hact, units.oact, h, o)
    add_gradient(W2, idx, val, nnz, units.bias, units.hact, units.oact, units.dmode, h, o, eW1, eW2)


@njit(cache=True, inline="always")
def _remap_decay(e, perm, decay) -> None:
    """``e[k] ← decay · e[perm[k]]`` in place for an involution ``perm``."""
    for k in range(e.shape[0]):
        pk = perm[k]
        if pk > k:
            a = e[k]
            e[k] = decay * e[pk]
            e[pk] = decay * a
        elif pk == k:
            e[k] *= decay


@njit(cache=True)
def update_remap_rows(W1, W2, eW1, tW2, delta, alpha, beta, decay, perm, rows, n_rows, mark):
    """:func:`update_and_decay` for traces whose outputs change frame between steps, visiting only
    the input rows whose traces can be non-zero.

    - The traces decay *and are remapped across outputs*: ``e'[…, k] = decay · e[…, perm[k]]``.
      Self-play valued from the side on roll needs it: the next state is valued from the other
      side, so output k of the new frame is output ``perm[k]`` of the old one (win ↔ loss); a
      single P(win) output maps to 1 − P, i.e. ``perm = [0]`` and a negative ``decay``.
      ``perm`` must be an involution (it swaps pairs of outputs), as every change of side is.
    - Once outputs are remapped, output k's trace reaches into other columns of ``W2`` than k,
      so the hidden→output traces are kept in full: ``tW2[j, c, k]`` = trace of output k with
      respect to ``W2[j, c]`` (shape ``(n_hidden+1, n_out, n_out)``; :func:`add_gradient` fills
      its diagonal, see :func:`fold_output_gradient`).  ``W2[j, c] += β Σ_k δ_k tW2[j, c, k]``;
      ``W1[i, j] += α Σ_k δ_k eW1[i, j, k]`` as in :func:`update_and_decay`.
    - Only ``rows[:n_rows]`` of ``W1``/``eW1`` (plus the bias row) are visited: the caller lists
      there every input unit whose trace it has touched (:func:`mark_rows`); every other row
      has a zero trace, so skipping it changes nothing.  With ``decay == 0`` all traces become
      zero and the list is emptied.  Returns the new ``n_rows``.
    """
    n_in = W1.shape[0] - 1
    n_hid = W1.shape[1]
    n_out = W2.shape[1]
    for j in range(n_hid + 1):
        for c in range(n_out):
            s = 0.0
            for k in range(n_out):
                s += delta[k] * tW2[j, c, k]
            W2[j, c] += beta * s
            _remap_decay(tW2[j, c], perm, decay)
    for r in range(n_rows + 1):
        i = rows[r] if r < n_rows else n_in
        if n_out == 1:
            d0 = delta[0]
            for j in range(n_hid):
                e = eW1[i, j, 0]
                W1[i, j] += alpha * (d0 * e)
                eW1[i, j, 0] = decay * e
        else:
            for j in range(n_hid):
                s = 0.0
                for k in range(n_out):
                    s += delta[k] * eW1[i, j, k]
                W1[i, j] += alpha * s
                _remap_decay(eW1[i, j], perm, decay)
    if decay == 0.0:
        for r in range(n_rows):
            mark[rows[r]] = 0
        return 0
    return n_rows


@njit(cache=True)
def fold_output_gradient(g2, tW2) -> None:
    """Move the hidden→output gradient ``g2[j, k]`` (what :func:`add_gradient` writes into a zeroed
    ``eW2``) onto the diagonal of the full traces ``tW2[j, k, k]``, and zero ``g2``."""
    for j in range(g2.shape[0]):
        for k in range(g2.shape[1]):
            tW2[j, k, k] += g2[j, k]
            g2[j, k] = 0.0


@njit(cache=True)
def mark_rows(idx, nnz, rows, n_rows, mark) -> int:
    """Add the input units ``idx[:nnz]`` to the list ``rows[:n_rows]`` of rows with live traces
    (``mark`` flags membership); returns the new ``n_rows``."""
    for a in range(nnz):
        i = idx[a]
        if mark[i] == 0:
            mark[i] = 1
            rows[n_rows] = i
            n_rows += 1
    return n_rows


@njit(cache=True)
def _init_weights(state, W, scale):
    for i in range(W.shape[0]):
        for j in range(W.shape[1]):
            W[i, j] = (2.0 * uniform(state) - 1.0) * scale


# ----------------------------------------------------------------------------- the rule in plain Python
# The references the chapters show (notebooks 07 and 08): the kernels above, written as the thesis writes the rule.
# tests/test_td_net.py holds them equal to the kernels on random nets, inputs and traces (to rounding: numpy sums a
# dot product in another order than the kernels' loops).


def activation(kind: int, derivative: int = 0) -> tuple[Any, Any]:
    """Unit ``kind`` (a code of :data:`ACTIVATIONS`) as a numpy function of its net input, and its derivative as a
    function of its output (``derivative`` 1: the listing's ``2y(1 − y)``): :func:`act` and :func:`dact` in numpy."""
    f = {
        0: lambda x: 0.5 * (1.0 + np.tanh(0.5 * x)),  # logistic
        1: lambda x: np.tanh(0.5 * x),  # the thesis's (1 − e^−x)/(1 + e^−x)
        2: np.tanh,
        3: lambda x: x,
        4: lambda x: (1.0 - np.exp(-x)) / (1.0 + np.exp(-x)),
    }[kind]
    if kind == 3:
        return f, lambda y: np.ones_like(y)
    if derivative == 1:
        return f, lambda y: 2.0 * y * (1.0 - y)
    return f, {0: lambda y: y * (1.0 - y), 1: lambda y: 0.5 * (1.0 - y * y), 4: lambda y: 0.5 * (1.0 - y * y)}.get(
        kind, lambda y: 1.0 - y * y
    )


def value_and_gradient(W1: np.ndarray, W2: np.ndarray, x: np.ndarray, units: Units) -> tuple[np.ndarray, ...]:
    """The net's hidden units ``h`` and outputs ``o`` for the input ``x``, and the gradient of every output with
    respect to every weight: ``g1[i, j, k] = ∂o_k/∂W1[i, j]``, ``g2[j, k] = ∂o_k/∂W2[j, k]`` (Powell (2000) §6.3,
    Eqs 6.1–6.10: back-propagation, one output at a time).  The last row of W1 and W2 is the bias unit's."""
    f_hidden, f_hidden_prime = activation(units.hact, units.dmode)
    f_out, f_out_prime = activation(units.oact, units.dmode)
    x1 = np.append(x, units.bias)  # the inputs and the bias unit
    h = f_hidden(x1 @ W1)
    h1 = np.append(h, units.bias)
    o = f_out(h1 @ W2)
    g2 = np.outer(h1, f_out_prime(o))
    back = W2[:-1] * f_out_prime(o) * f_hidden_prime(h)[:, None]  # ∂o_k/∂(net input of hidden unit j)
    g1 = x1[:, None, None] * back[None, :, :]
    return h, o, g1, g2


def td_lambda_step(W1, W2, e1, e2, td_errors, x_next, alpha, beta, decay, units: Units) -> tuple[np.ndarray, ...]:
    """One TD(λ) step of a net with one trace per weight and output (Powell (2000) §6.4, Eqs 6.11–6.14; the rule
    :func:`td_step` runs jitted): every weight moves by step size × TD error × eligibility trace — ``β δ_k e2[j, k]``
    for hidden→output weights, ``α Σ_k δ_k e1[i, j, k]`` for input→hidden —, the traces fade by ``decay`` (γλ), the
    next state is valued with the new weights, and its gradient joins the traces.  Returns its ``h``, ``o``."""
    W2 += beta * td_errors * e2
    W1 += alpha * (e1 @ td_errors)
    e1 *= decay
    e2 *= decay
    h, o, g1, g2 = value_and_gradient(W1, W2, x_next, units)
    e1 += g1
    e2 += g2
    return h, o


def self_play_step(W1, W2, e1, e2, td_errors, x_next, alpha, beta, decay, swap, units: Units) -> tuple[np.ndarray, ...]:
    """:func:`td_lambda_step` when consecutive positions are valued from opposite sides (TD-Gammon's self-play from
    the side on roll; the rule the training kernel runs with :func:`update_remap_rows`): output ``k`` of the next
    position is output ``swap[k]`` of this one (win ↔ loss), so a trace changes output as it fades, and a
    hidden→output trace is kept for every output: ``e2[j, c, k]`` is output k's trace of ``W2[j, c]``."""
    W2 += beta * (e2 @ td_errors)
    W1 += alpha * (e1 @ td_errors)
    e1[:] = decay * e1[:, :, swap]
    e2[:] = decay * e2[:, :, swap]
    h, o, g1, g2 = value_and_gradient(W1, W2, x_next, units)
    e1 += g1
    e2 += g2[:, :, None] * np.eye(len(o))  # an output's gradient is in its own column of W2
    return h, o


def sparse(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(indices, values, count) of the non-zero entries of a dense input vector."""
    x = np.asarray(x, dtype=np.float64).ravel()
    idx = np.flatnonzero(x).astype(np.int64)
    return idx, x[idx].copy(), len(idx)


#: What :meth:`TDNet.load` expects, for messages about files that are not one.
WEIGHTS_FILE = "a tdbook weights file (an .npz archive with the arrays W1, W2 and a JSON meta, as TDNet.save writes)"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


def _read_weights_file(path: Path) -> tuple[np.ndarray, np.ndarray, Any, dict[str, np.ndarray]]:
    """(W1, W2, parsed meta, aux arrays) of a weights file; ValueError naming the file and what was
    expected when it is missing, not an ``.npz`` archive, damaged, or another program's ``.npz``."""
    unreadable = f"{path} is not a readable tdbook weights file: expected {WEIGHTS_FILE}, but"
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except FileNotFoundError:
        raise ValueError(f"no weights file at {path}") from None
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
    if head not in _ZIP_MAGIC:
        raise ValueError(f"{unreadable} it is not a zip archive")
    problem, arrays = "", {}
    try:
        with np.load(path, allow_pickle=False) as z:
            names = list(z.files)
            missing = [k for k in ("W1", "W2", "meta") if k not in names]
            if missing:
                problem = f"it holds {', '.join(names) or 'no arrays'} (no {', '.join(missing)})"
            for k in names if not problem else ():
                try:
                    arrays[k] = z[k]
                except ValueError as e:
                    if "pickle" not in str(e):
                        raise
                    problem = f"its array {k!r} holds Python objects"  # numpy would need pickle to read it
                    break
    except Exception as e:  # zip or array damage: truncated, bad CRC, bad header, …
        problem = f"the archive is damaged ({type(e).__name__}: {e})"
    if problem:
        raise ValueError(f"{unreadable} {problem}")
    try:
        meta = json.loads(str(arrays["meta"]))
    except ValueError as e:
        raise ValueError(f"{path} is not a readable tdbook weights file: its meta is not JSON ({e})") from None
    aux = {k[4:]: v for k, v in arrays.items() if k.startswith("aux_")}
    return arrays["W1"], arrays["W2"], meta, aux


# ----------------------------------------------------------------------------- façade


def _code(table: dict[str, int], name: str, what: str) -> int:
    if name not in table:
        raise ValueError(f"unknown {what} {name!r}; choose from: {', '.join(table)}")
    return table[name]


class TDNet:
    """A one-hidden-layer TD(λ) network with per-output traces (see module docstring).

    ``alpha``: input→hidden step size; ``beta``: hidden→output step size (defaults to
    ``alpha``); ``init``: weights uniform in [−init, init] (thesis: 0.1); ``bias``: value of
    the bias units (thesis: 1.0).  Arrays are public so jitted game loops can use the
    kernels of this module directly: ``W1`` (n_in+1, n_hidden), ``W2`` (n_hidden+1, n_out),
    ``eW1`` (n_in+1, n_hidden, n_out), ``eW2`` (n_hidden+1, n_out).
    """

    def __init__(
        self,
        n_in: int,
        n_hidden: int,
        n_out: int = 1,
        *,
        hidden: str = "logistic",
        output: str = "logistic",
        derivative: str = "true",
        alpha: float = 0.1,
        beta: float | None = None,
        gamma: float = 1.0,
        lam: float = 0.0,
        init: float = 0.1,
        bias: float = 1.0,
        seed: int = 0,
    ) -> None:
        for name, v in (("n_in", n_in), ("n_hidden", n_hidden), ("n_out", n_out)):
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be an int >= 1, got {v!r}")
        self.hact = _code(ACTIVATIONS, hidden, "hidden activation")
        self.oact = _code(ACTIVATIONS, output, "output activation")
        self.dmode = _code(DERIVATIVES, derivative, "derivative")
        self.hidden, self.output, self.derivative = hidden, output, derivative
        beta = alpha if beta is None else beta
        for name, v in (("alpha", alpha), ("beta", beta)):
            if not (isinstance(v, (int, float)) and v > 0 and math.isfinite(v)):
                raise ValueError(f"{name} must be a number > 0, got {v!r}")
        if not (0.0 <= gamma <= 1.0):
            raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
        if not (0.0 <= lam <= 1.0):
            raise ValueError(f"lam (λ) must be in [0, 1], got {lam!r}")
        if not (init >= 0 and math.isfinite(init)):
            raise ValueError(f"init must be a number >= 0, got {init!r}")
        self.alpha, self.beta, self.gamma, self.lam = float(alpha), float(beta), float(gamma), float(lam)
        self.init, self.bias, self.seed = float(init), float(bias), int(seed)
        self.W1 = np.empty((n_in + 1, n_hidden))
        self.W2 = np.empty((n_hidden + 1, n_out))
        st = make_state(seed, 0)
        _init_weights(st, self.W1, self.init)
        _init_weights(st, self.W2, self.init)
        self.eW1 = np.zeros((n_in + 1, n_hidden, n_out))
        self.eW2 = np.zeros((n_hidden + 1, n_out))
        self.h = np.zeros(n_hidden)
        self.o = np.zeros(n_out)
        self.aux: dict[str, np.ndarray] = {}  # named arrays read from / written with the weights file

    # -- shape
    @property
    def n_in(self) -> int:
        return self.W1.shape[0] - 1

    @property
    def n_hidden(self) -> int:
        return self.W1.shape[1]

    @property
    def n_out(self) -> int:
        return self.W2.shape[1]

    @property
    def decay(self) -> float:
        return self.gamma * self.lam

    @property
    def units(self) -> Units:
        """The bias value and activation/derivative codes, as the kernels take them."""
        return Units(self.bias, self.hact, self.oact, self.dmode)

    def _input(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
        x = np.asarray(x, dtype=np.float64)
        if x.shape != (self.n_in,):
            raise ValueError(f"input has shape {x.shape}, the net expects ({self.n_in},)")
        return sparse(x)

    # -- evaluation and learning
    def value(self, x: np.ndarray) -> np.ndarray:
        """Outputs for the dense input ``x`` (does not touch the traces)."""
        idx, val, nnz = self._input(x)
        h, o = np.empty(self.n_hidden), np.empty(self.n_out)
        forward(self.W1, self.W2, idx, val, nnz, self.bias, self.hact, self.oact, h, o)
        return o

    def start(self, x: np.ndarray) -> np.ndarray:
        """Begin an episode at state ``x``: zero traces, load ∇V(x). Returns V(x)."""
        idx, val, nnz = self._input(x)
        start_episode(self.W1, self.W2, self.eW1, self.eW2, idx, val, nnz, self.units, self.h, self.o)
        return self.o.copy()

    def step(self, delta: np.ndarray | float, x_next: np.ndarray) -> np.ndarray:
        """Apply TD errors ``delta`` (one per output) with the current traces, then move to
        ``x_next``. Returns V(x_next) under the new weights."""
        d = np.atleast_1d(np.asarray(delta, dtype=np.float64))
        if d.shape != (self.n_out,):
            raise ValueError(f"delta has shape {d.shape}, the net has {self.n_out} outputs")
        if not np.all(np.isfinite(d)):
            raise ValueError(f"TD error is not finite: {d}")
        idx, val, nnz = self._input(x_next)
        saved = [a.copy() for a in (self.W1, self.W2, self.eW1, self.eW2, self.h, self.o)]
        td_step(
            self.W1,
            self.W2,
            self.eW1,
            self.eW2,
            d,
            idx,
            val,
            nnz,
            self.alpha,
            self.beta,
            self.decay,
            self.units,
            self.h,
            self.o,
        )
        try:
            self.check_finite()
        except ValueError:  # a diverging step is refused whole: weights and traces as before it
            for a, b in zip((self.W1, self.W2, self.eW1, self.eW2, self.h, self.o), saved):
                a[:] = b
            raise
        return self.o.copy()

    def check_finite(self) -> None:
        """Raise ValueError if any weight is NaN or infinite (training diverged)."""
        for name in ("W1", "W2"):
            w = getattr(self, name)
            if not np.all(np.isfinite(w)):
                bad = int(np.size(w) - np.count_nonzero(np.isfinite(w)))
                raise ValueError(f"weights {name} contain {bad} non-finite values: training diverged")

    # -- persistence
    def meta(self) -> dict[str, Any]:
        return {
            "format": "tdbook.TDNet/1",
            "n_in": self.n_in,
            "n_hidden": self.n_hidden,
            "n_out": self.n_out,
            "hidden": self.hidden,
            "output": self.output,
            "derivative": self.derivative,
            "alpha": self.alpha,
            "beta": self.beta,
            "gamma": self.gamma,
            "lam": self.lam,
            "init": self.init,
            "bias": self.bias,
            "seed": self.seed,
        }

    def save(self, path: str | Path, aux: dict[str, np.ndarray] | None = None, **extra: Any) -> Path:
        """Write weights + hyper-parameters (+ ``extra`` JSON-able metadata, + ``aux`` named float
        arrays, e.g. a trainer's running sums) to ``.npz``, atomically: one file, so a checkpoint
        and its auxiliary arrays can never disagree."""
        import io

        path = Path(path)
        buf = io.BytesIO()
        meta = json.dumps({**self.meta(), **extra}, sort_keys=True)
        arrays = {f"aux_{k}": np.asarray(v, np.float64) for k, v in (aux or {}).items()}
        np.savez(buf, W1=self.W1, W2=self.W2, meta=np.array(meta), **arrays)
        atomic_write_bytes(path, buf.getvalue())
        return path

    @classmethod
    def load(cls, path: str | Path, *, expect: dict[str, Any] | None = None) -> TDNet:
        """Read a net written by :meth:`save`; ValueError naming the problem if the file is
        corrupt, of the wrong shape (``expect`` may pin n_in/n_hidden/n_out) or holds NaNs."""
        path = Path(path)
        W1, W2, meta, aux = _read_weights_file(path)
        if not isinstance(meta, dict):
            raise ValueError(f"{path}: metadata is a {type(meta).__name__}, not a JSON object")
        if meta.get("format") != "tdbook.TDNet/1":
            raise ValueError(f"{path}: unknown weights format {meta.get('format')!r}")
        missing = [
            k
            for k in (
                "n_in",
                "n_hidden",
                "n_out",
                "hidden",
                "output",
                "derivative",
                "alpha",
                "beta",
                "gamma",
                "lam",
                "init",
                "bias",
                "seed",
            )
            if k not in meta
        ]
        if missing:
            raise ValueError(f"{path}: metadata lacks {', '.join(missing)}")
        for k in ("n_in", "n_hidden", "n_out"):
            if not isinstance(meta[k], int) or isinstance(meta[k], bool) or meta[k] < 1:
                raise ValueError(f"{path}: {k} is {meta[k]!r}, expected a positive integer")
        for name, w in (("W1", W1), ("W2", W2)):
            if w.ndim != 2 or not np.issubdtype(w.dtype, np.floating):
                raise ValueError(f"{path}: {name} is a {w.ndim}-d {w.dtype} array, expected 2-d floats")
        n_in, n_hid, n_out = meta["n_in"], meta["n_hidden"], meta["n_out"]
        if W1.shape != (n_in + 1, n_hid) or W2.shape != (n_hid + 1, n_out):
            raise ValueError(
                f"{path}: weight shapes {W1.shape}/{W2.shape} do not match {n_in}-{n_hid}-{n_out} recorded in the file"
            )
        for key, want in (expect or {}).items():
            if meta.get(key) != want:
                raise ValueError(f"{path}: {key} is {meta.get(key)!r}, expected {want!r}")
        try:
            net = cls(
                n_in,
                n_hid,
                n_out,
                hidden=meta["hidden"],
                output=meta["output"],
                derivative=meta["derivative"],
                alpha=meta["alpha"],
                beta=meta["beta"],
                gamma=meta["gamma"],
                lam=meta["lam"],
                init=meta["init"],
                bias=meta["bias"],
                seed=meta["seed"],
            )
        except (TypeError, ValueError) as e:
            raise ValueError(f"{path}: bad hyper-parameters in the metadata ({e})") from None
        net.W1[:] = W1
        net.W2[:] = W2
        try:
            net.check_finite()
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
        for k, v in aux.items():
            if not np.issubdtype(v.dtype, np.floating) or not np.all(np.isfinite(v)):
                raise ValueError(f"{path}: auxiliary array {k!r} is not an array of finite floats")
        net.extra = {k: v for k, v in meta.items() if k not in net.meta()}
        net.aux = aux
        return net
