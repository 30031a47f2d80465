"""Backgammon nets whose outputs respect the board flip: symmetric gammon outputs (Symmetric gammon post (2011)).

A sibling of :mod:`tdbook.learners.backgammon_net` (TD-Gammon's net): the same game kernels, the
same sparse input units (:func:`~tdbook.games.backgammon_encoding.encode_tesauro`), the same
weight file (:class:`~tdbook.learners.td_net.TDNet`: ``W1``, ``W2`` and a JSON meta, written
atomically, refused with a message naming the problem when corrupt) and the same self-play
protocol (game ``g`` of a run draws its dice from stream ``(seed, g)``, greedy 1-ply choice,
outcome as the last target).  What differs is the function the weights compute.

Architectures (:data:`ARCHS`), all one hidden layer of logistic units:

- ``"symmetric"`` — net (a) of notebook 09.  The input is the *difference* of the two sides'
  98-unit blocks, ``d = x_me − x_them``, and the side-to-move unit ``s`` (+1 when the frame's
  owner is on roll, −1 when the opponent is, 0 before the opening roll) is the hidden layer's
  bias input, so ``a_j = Σ_i W1[i, j] d_i + W1[98, j] s``: swapping the players (``d → −d``,
  ``s → −s``) negates every hidden pre-activation and maps ``y_j → 1 − y_j``.  With
  ``g_j = y_j − ½ = ½ tanh(a_j / 2)`` (odd in ``a``, so the identities hold to rounding):

  * ``P(win) = σ(Σ_j v1_j y_j)`` with ``v1 = u − mean(u)`` (``u = W2[:M, 0]``): no bias, weights
    summing to zero by parametrisation, so ``σ(Σ_j u_j (g_j − ḡ))``;
  * ``P(gammon win | win) = σ(b2 + Σ_j v2_j y_j)`` (``v2 = W2[:M, 1]``, ``b2 = W2[M, 1]``) and, by the
    tied formula ``v3 = −v2``, ``b3 = b2 + Σ_j v2_j``,
    ``P(gammon loss | loss) = σ(b3 + Σ_j v3_j y_j)``: two trained outputs, exact symmetry.

- ``"naive"`` — net (b), the post's counter-example: the gammon node too has no bias, so the
  flip forces ``Σ_j v2_j = 0`` (same parametrisation as P(win)) and ``P(gl | l) = 1 − P(gw | w)``.
- ``"free"`` — net (c): the 196 side-on-roll units (own block, then the opponent's; no turn unit),
  a hidden bias, and three logistic outputs with biases: P(win), P(gammon win), P(gammon loss)
  of the side on roll.  Nothing ties them.

Input sets (:data:`INPUTS`): ``"raw"`` is the above; ``"expanded"`` adds each side's four hand-made
features (:mod:`tdbook.games.backgammon_features`: pip count, shot share, prime, escapes) and ``"contact"``
seven (those four, then pips lost to a hit, pips to break contact, containment) and ``"positional"`` eighteen
(those seven, then double shots, back checker, anchors, mobility, moment, entering, timing, back games, free
pips: issue 34's set), each computed
from that side's own view, so the flip exchanges the two sets — after the raw units for ``free``
(mover's, then opponent's), as their difference for the symmetric archs (the identities still hold).
The kernels take one integer code: the architecture in the two low bits, the input set in the next two
(:data:`EXPANDED`, :data:`CONTACT`).

Every architecture reports ``(P(win), P(gammon win), P(gammon loss))`` (unconditional; a
backgammon counts as a gammon) of the side on roll; cubeless equity
``E = P(w)(1 + P(gw|w)) − (1 − P(w))(1 + P(gl|l)) = 2 P(w) − 1 + P(gw) − P(gl)``.

The post's equity values a backgammon as a gammon, but a game is scored 3 points for it; a net that cannot tell
the two apart has no reason to save a backgammon once a gammon is lost (against GNU Backgammon, which can,
that is where notebook 09's best nets lost most of their race equity).  A ``free`` net may therefore carry two
more outputs, P(backgammon win) and P(backgammon loss) (``W2`` of :data:`N_OUT_BG` columns;
``new(..., backgammons=True)`` or :meth:`SymmetricGammon.with_backgammons` for a warm start), and then its
equity is ``2 P(w) − 1 + P(gw) − P(gl) + P(bgw) − P(bgl)``.

Training (:func:`train_games`) is TD(0) on those unconditional outputs:
``θ += α Σ_k δ_k ∂p_k/∂θ``, with the next position's outputs carried into the current frame
(``(w, gw, gl) → (1 − w, gl, gw)``, and ``(bgw, bgl) → (bgl, bgw)``) and the gradient taken through the tied
parametrisation (:func:`td_update`; ``tests/test_backgammon_symmetric.py`` checks it against finite differences),
or TD(λ) (issue 51): ``e_k ← λ e_k + ∂p_k/∂θ``, ``θ += α Σ_k δ_k e_k``, one trace per weight and output
(:func:`trace_update`), the outputs of both sides' positions carried into one frame the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from ..core.rng import seed_state, uniform
from ..games.backgammon import (
    MAX_AFTER,
    NSLOT,
    OFF,
    WS_SIZE,
    flip,
    gen_afterstates,
    is_race,
    make_buffers,
    opening_roll,
    roll,
    set_initial,
    win_multiplier,
)
from ..games.backgammon_bearoff import NO_TABLE, combined_cached, is_bearoff
from ..games.backgammon_bearoff import probabilities as bearoff_probabilities
from ..games.backgammon_encoding import MAX_NNZ as MAX_NNZ_RAW
from ..games.backgammon_encoding import encode_tesauro
from ..games.backgammon_features import N_CONTACT, N_FEATURES, N_POSITIONAL, both_sides
from .backgammon_net import ROLL_WEIGHTS, ROLLS
from .td_net import TDNet

ARCHS: dict[str, int] = {"symmetric": 0, "naive": 1, "free": 2}
ARCH_SYMMETRIC, ARCH_NAIVE, ARCH_FREE = 0, 1, 2
INPUTS: dict[str, int] = {"raw": 0, "expanded": 4, "contact": 8, "positional": 12}
EXPANDED, CONTACT, POSITIONAL = 4, 8, 12  # a net's kernel code: the input set in bits 2–3, the architecture below
#: Bit 4 of a kernel code: the hidden units' tanh by :func:`tanh_fast` (rollouts only, issue 51; never training).
FAST = 16
#: Bit 5 of a kernel code: a contact net and a race net stacked in ``W1``, ``W2`` (rows ``[:h]`` and ``[h:]``), each
#: position valued and trained by the net of its class (:func:`phase_block`; issue 51's phase split).
PHASES = 32
#: Bit 6 of a kernel code: the afterstates of one roll valued from a base (:func:`score_afterstates_from_base`, GNU
#: Backgammon's evaluation from a base) — an opt-in rollout mode (issue 51), never training.
FROM_BASE = 64
N_IN = {
    a | b: (196 if a == ARCH_FREE else 98) + (2 if a == ARCH_FREE else 1) * nf
    for b, nf in ((0, 0), (EXPANDED, N_FEATURES), (CONTACT, N_CONTACT), (POSITIONAL, N_POSITIONAL))
    for a in (ARCH_SYMMETRIC, ARCH_NAIVE, ARCH_FREE)
}
MAX_NNZ = MAX_NNZ_RAW + 2 * N_POSITIONAL
N_OUT, N_OUT_BG = 3, 5  # output columns: (w, gw, gl); with backgammon outputs (w, gw, gl, bgw, bgl) — free only
BG_START_SHIFT = math.log(10.0)  # a warm-started backgammon node: its gammon node's bias lowered by this
LOOK_STREAM = 1 << 40  # the lookahead draws of game g: stream (seed, g + LOOK_STREAM), apart from its dice


@njit(cache=True, inline="always")
def n_features(code) -> int:
    """Hand-made features per side of a kernel code's input set: 0 (raw), 4 (expanded), 7 (contact), 18 (positional)."""
    if (code & POSITIONAL) == POSITIONAL:
        return N_POSITIONAL
    if code & CONTACT:
        return N_CONTACT
    if code & EXPANDED:
        return N_FEATURES
    return 0


FORMAT = "tdbook.SymmetricGammon/1"
RACE_ARRAYS = ("race_W1", "race_W2")  # a pair's race net, stored beside the contact net in one file


@njit(cache=True, inline="always")
def _sigmoid(x: float) -> float:
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


@njit(cache=True, inline="always")
def tanh_fast(x: float) -> float:
    """tanh by a rational function (the odd 13/6 minimax form of Eigen's fast tanh), within 3e-7 of ``math.tanh``
    everywhere (tested) and about two and a half times cheaper on a net's hidden units.  Used for the hidden units
    when a kernel code has the :data:`FAST` bit — rollouts that trade that much of the net's precision for speed
    (issue 51)."""
    x = min(max(x, -7.90531110763549805), 7.90531110763549805)
    x2 = x * x
    p = x2 * -2.76076847742355e-16 + 2.00018790482477e-13
    p = x2 * p + -8.60467152213735e-11
    p = x2 * p + 5.12229709037114e-08
    p = x2 * p + 1.48572235717979e-05
    p = x2 * p + 6.37261928875436e-04
    p = x2 * p + 4.89352455891786e-03
    q = x2 * 1.19825839466702e-06 + 1.18534705686654e-04
    q = x2 * q + 2.26843463243900e-03
    q = x2 * q + 4.89352518554385e-03
    return x * p / q


@njit(cache=True, inline="always")
def phase_block(arch, W1, W2, race):
    """The weights that value a position: with :data:`PHASES` in ``arch``, the race net's (the second half of the
    rows of ``W1`` and of ``W2``) when ``race`` (:func:`~tdbook.games.backgammon.is_race`: no contact left), else the
    contact net's (the first half); without it, ``W1, W2`` themselves.  Views, never copies: an update through them
    trains that net."""
    if arch & PHASES:
        h = W1.shape[0] // 2
        k = W2.shape[0] // 2
        if race:
            return W1[h:], W2[k:]
        return W1[:h], W2[:k]
    return W1, W2


@njit(cache=True)
def encode(arch, pos, idx, val) -> int:
    """Sparse inputs of ``pos`` (side on roll's view): the difference of the blocks (symmetric
    archs: unit ``i`` of the mover minus unit ``i`` of the opponent, one entry per unit, exact
    zeros dropped) or the 196 side-on-roll units (free); with an input set beyond raw in ``arch``,
    each side's :func:`n_features` hand-made features follow
    (free: the mover's at 196.., the opponent's after them; symmetric: their difference at 98..)."""
    kind = arch & 3
    nf = n_features(arch)
    nnz = encode_tesauro(pos, 0, False, idx, val)
    if nf:
        f = np.empty(2 * nf)
        both_sides(pos, f, np.empty(NSLOT, np.int8), nf)
        for k in range(nf):
            idx[nnz] = 196 + k
            val[nnz] = f[k]
            idx[nnz + 1] = 196 + nf + k
            val[nnz + 1] = f[nf + k]
            nnz += 2
    if kind == ARCH_FREE:
        return nnz
    k = 0
    for a in range(nnz):
        i = idx[a]
        v = val[a]
        if i >= 196:  # a feature: the opponent's set subtracts from the mover's
            i = 98 + (i - 196) % nf
            if idx[a] >= 196 + nf:
                v = -v
        elif i >= 98:
            i -= 98
            v = -v
        merged = False
        for b in range(k):  # the same unit on both sides: one entry, the exact difference
            if idx[b] == i:
                val[b] += v
                merged = True
                break
        if not merged:
            idx[k] = i
            val[k] = v
            k += 1
    out = 0
    for a in range(k):  # drop exact zeros, so a symmetric position has no input at all
        if val[a] != 0.0:
            idx[out] = idx[a]
            val[out] = val[a]
            out += 1
    return out


@njit(cache=True, error_model="numpy")
def forward(arch, W1, W2, idx, val, nnz, s, g, z, p) -> None:
    """Evaluate the net; ``s`` is the hidden bias input (the side-to-move unit: +1 side on roll); with the
    :data:`FAST` bit in ``arch`` the hidden units use :func:`tanh_fast`.

    Fills ``g`` (hidden ``y − ½``), ``z`` (node values: P(w), P(gw|w), P(gl|l) for the symmetric
    archs; the unconditional outputs for free) and ``p`` = (P(w), P(gw), P(gl)), then (P(bgw), P(bgl)) for a
    free net with backgammon outputs (``W2`` of 5 columns)."""
    n_in = W1.shape[0] - 1
    m = W1.shape[1]
    for j in range(m):
        g[j] = W1[n_in, j] * s
    for a in range(nnz):
        i = idx[a]
        v = val[a]
        for j in range(m):
            g[j] += W1[i, j] * v
    _squash(arch, W2, g, z, p)


@njit(cache=True, inline="always")
def _squash(arch, W2, g, z, p) -> None:
    """The rest of :func:`forward` from the hidden sums in ``g``: the hidden units' values ``g`` (``y − ½``), the
    nodes ``z`` and the outputs ``p``."""
    m = W2.shape[0] - 1
    if arch & FAST:
        for j in range(m):
            g[j] = 0.5 * tanh_fast(0.5 * g[j])
    else:
        for j in range(m):
            g[j] = 0.5 * math.tanh(0.5 * g[j])
    # Each output's sum below runs over the hidden units in order, as in the plain one-loop-per-output form, so the
    # bits are those of that form; the outputs' sums are interleaved (independent chains) only for speed, in
    # scalars for the three- and five-output nets (kept in registers: about a quarter of the time of the same sums
    # through ``z``, which the compiler must store and reload at each unit as ``z`` might alias ``W2``).
    if (arch & 3) == ARCH_FREE:
        n_out = W2.shape[1]  # N_OUT or N_OUT_BG
        z0, z1, z2 = W2[m, 0], W2[m, 1], W2[m, 2]
        if n_out == N_OUT_BG:
            z3, z4 = W2[m, 3], W2[m, 4]
            for j in range(m):
                h = 0.5 + g[j]
                z0 += W2[j, 0] * h
                z1 += W2[j, 1] * h
                z2 += W2[j, 2] * h
                z3 += W2[j, 3] * h
                z4 += W2[j, 4] * h
            z[3] = z3
            z[4] = z4
        else:
            for j in range(m):
                h = 0.5 + g[j]
                z0 += W2[j, 0] * h
                z1 += W2[j, 1] * h
                z2 += W2[j, 2] * h
        z[0] = z0
        z[1] = z1
        z[2] = z2
        for k in range(n_out):
            z[k] = _sigmoid(z[k])
            p[k] = z[k]
        return
    gbar = 0.0
    for j in range(m):
        gbar += g[j]
    gbar /= m
    r1 = 0.0
    r2 = 0.0
    if (arch & 3) == ARCH_SYMMETRIC:
        c = W2[m, 1]
        for j in range(m):
            r1 += W2[j, 0] * (g[j] - gbar)
            c += 0.5 * W2[j, 1]
            r2 += W2[j, 1] * g[j]
        z[0] = _sigmoid(r1)
        z[1] = _sigmoid(c + r2)
        z[2] = _sigmoid(c - r2)
    else:
        for j in range(m):
            d = g[j] - gbar
            r1 += W2[j, 0] * d
            r2 += W2[j, 1] * d
        z[0] = _sigmoid(r1)
        z[1] = _sigmoid(r2)
        z[2] = _sigmoid(-r2)
    p[0] = z[0]
    p[1] = z[0] * z[1]
    p[2] = (1.0 - z[0]) * z[2]


@njit(cache=True)
def equity(p) -> float:
    """Cubeless equity from (P(w), P(gw), P(gl)): ``2 P(w) − 1 + P(gw) − P(gl)``, a backgammon valued as a
    gammon; with backgammon outputs (P(bgw), P(bgl)) after them, ``+ P(bgw) − P(bgl)``: a backgammon is 3."""
    e = 2.0 * p[0] - 1.0 + p[1] - p[2]
    if p.shape[0] == N_OUT_BG:
        e += p[3] - p[4]
    return e


@njit(cache=True, inline="always")
def _means(g, W2) -> tuple[float, float, float]:
    """The means over the hidden units of ``g`` and of ``W2``'s first two columns (the tied parametrisation's)."""
    m = g.shape[0]
    gbar = 0.0
    ubar = 0.0
    vbar = 0.0
    for j in range(m):
        gbar += g[j]
        ubar += W2[j, 0]
        vbar += W2[j, 1]
    return gbar / m, ubar / m, vbar / m


@njit(cache=True)
def td_update(arch, W1, W2, idx, val, nnz, s, g, z, delta, alpha) -> None:
    """``θ += α Σ_k δ_k ∂p_k/∂θ`` at the point last evaluated by :func:`forward` (``g``, ``z``), with
    ``p = (P(w), P(gw), P(gl)[, P(bgw), P(bgl)])``; every derivative is taken before any weight moves."""
    n_in = W1.shape[0] - 1
    m = W1.shape[1]
    gy = np.zeros(m)  # Σ_k δ_k ∂p_k/∂y_j
    if (arch & 3) == ARCH_FREE:
        n_out = W2.shape[1]
        e = np.empty(n_out)
        for k in range(n_out):
            e[k] = delta[k] * z[k] * (1.0 - z[k])
        for j in range(m):
            for k in range(n_out):
                gy[j] += e[k] * W2[j, k]
        for k in range(n_out):
            for j in range(m):
                W2[j, k] += alpha * e[k] * (0.5 + g[j])
            W2[m, k] += alpha * e[k]
    else:
        z1, z2, z3 = z[0], z[1], z[2]
        gbar, ubar, vbar = _means(g, W2)
        # p0 = z1, p1 = z1 z2, p2 = (1 − z1) z3
        e1 = (delta[0] + delta[1] * z2 - delta[2] * z3) * z1 * (1.0 - z1)
        e2 = delta[1] * z1 * z2 * (1.0 - z2)
        if (arch & 3) == ARCH_SYMMETRIC:
            e3 = delta[2] * (1.0 - z1) * z3 * (1.0 - z3)
            for j in range(m):
                gy[j] = e1 * (W2[j, 0] - ubar) + (e2 - e3) * W2[j, 1]
            for j in range(m):
                W2[j, 0] += alpha * e1 * (g[j] - gbar)
                W2[j, 1] += alpha * (e2 * (0.5 + g[j]) + e3 * (0.5 - g[j]))
            W2[m, 1] += alpha * (e2 + e3)
        else:
            e23 = e2 - delta[2] * (1.0 - z1) * z2 * (1.0 - z2)  # z3 = 1 − z2
            for j in range(m):
                gy[j] = e1 * (W2[j, 0] - ubar) + e23 * (W2[j, 1] - vbar)
            for j in range(m):
                W2[j, 0] += alpha * e1 * (g[j] - gbar)
                W2[j, 1] += alpha * e23 * (g[j] - gbar)
    for j in range(m):
        gy[j] *= 0.25 - g[j] * g[j]  # dy/da = y (1 − y)
    for a in range(nnz):
        i = idx[a]
        v = alpha * val[a]
        for j in range(m):
            W1[i, j] += v * gy[j]
    for j in range(m):
        W1[n_in, j] += alpha * s * gy[j]


@njit(cache=True)
def output_gradients(arch, W2, g, z, gy, g2) -> None:
    """Each output's own gradient at the point last evaluated by :func:`forward` (``g``, ``z``): ``gy[k, j]`` =
    ∂p_k/∂a_j (hidden unit ``j``'s pre-activation; ∂p_k/∂W1[i, j] = x_i gy[k, j]) and ``g2[k]`` = ∂p_k/∂W2, through
    the tied parametrisation of the symmetric archs — :func:`td_update`'s derivatives one output at a time, for
    the eligibility traces of :func:`trace_update`."""
    m = g.shape[0]
    n_out = gy.shape[0]
    g2[:] = 0.0
    if (arch & 3) == ARCH_FREE:
        for k in range(n_out):
            e = z[k] * (1.0 - z[k])
            for j in range(m):
                gy[k, j] = e * W2[j, k]
                g2[k, j, k] = e * (0.5 + g[j])
            g2[k, m, k] = e
    else:
        z1, z2, z3 = z[0], z[1], z[2]
        gbar, ubar, vbar = _means(g, W2)
        for k in range(n_out):  # p0 = z1, p1 = z1 z2, p2 = (1 − z1) z3
            d0 = 1.0 if k == 0 else 0.0
            d1 = 1.0 if k == 1 else 0.0
            d2 = 1.0 if k == 2 else 0.0
            e1 = (d0 + d1 * z2 - d2 * z3) * z1 * (1.0 - z1)
            e2 = d1 * z1 * z2 * (1.0 - z2)
            if (arch & 3) == ARCH_SYMMETRIC:
                e3 = d2 * (1.0 - z1) * z3 * (1.0 - z3)
                for j in range(m):
                    gy[k, j] = e1 * (W2[j, 0] - ubar) + (e2 - e3) * W2[j, 1]
                    g2[k, j, 0] = e1 * (g[j] - gbar)
                    g2[k, j, 1] = e2 * (0.5 + g[j]) + e3 * (0.5 - g[j])
                g2[k, m, 1] = e2 + e3
            else:
                e23 = e2 - d2 * (1.0 - z1) * z2 * (1.0 - z2)
                for j in range(m):
                    gy[k, j] = e1 * (W2[j, 0] - ubar) + e23 * (W2[j, 1] - vbar)
                    g2[k, j, 0] = e1 * (g[j] - gbar)
                    g2[k, j, 1] = e23 * (g[j] - gbar)
    for k in range(n_out):
        for j in range(m):
            gy[k, j] *= 0.25 - g[j] * g[j]  # dy/da = y (1 − y)


#: The outputs of a position in the other side's frame: (w, gw, gl, bgw, bgl) → (1 − w, gl, gw, bgl, bgw).
FRAME_SWAP = np.array([0, 2, 1, 4, 3], np.int64)


@njit(cache=True)
def trace_update(arch, W1, W2, idx, val, nnz, s, g, z, delta, alpha, lam, other, tr, gy, g2) -> None:
    """TD(λ)'s step at the point last evaluated by :func:`forward`: every eligibility trace decays by ``lam`` and
    gains its output's gradient, then ``θ += α Σ_k δ_k e_k`` (Sutton 1988; Tesauro 1992: one trace per weight and
    output).  The traces are kept in the frame of the game's colour 0: with ``other`` (the position's side on roll
    is colour 1) an output and its δ enter as the colour-0 output they are — P(win) as 1 − P(win), a gammon won as
    a gammon lost (:data:`FRAME_SWAP`) — so the outputs of the positions of both sides add up in one trace.
    ``tr`` = (``E1`` (outputs, inputs + 1, hidden), ``E2`` (outputs, hidden + 1, columns), ``rows`` (the ``W1`` rows
    with a trace, in order), ``seen`` (a flag per row), ``count`` (one element: how many rows)), zeroed between
    games by :func:`clear_traces`; ``gy``, ``g2`` scratch of :func:`output_gradients`.  Every derivative is taken
    before any weight moves."""
    E1, E2, rows, seen, count = tr
    n_in = W1.shape[0] - 1
    m = W1.shape[1]
    n_out = E1.shape[0]
    output_gradients(arch, W2, g, z, gy, g2)
    d = np.empty(n_out)  # δ in colour 0's frame
    sign = np.ones(n_out)
    perm = np.arange(n_out)
    if other:
        for k in range(n_out):
            perm[k] = FRAME_SWAP[k]
        sign[0] = -1.0
    for k in range(n_out):
        d[perm[k]] = sign[k] * delta[k]
    for a in range(count[0]):  # the traces decay, and move the weights by what they held
        i = rows[a]
        w = W1[i]
        for k in range(n_out):
            e = E1[k, i]
            c = alpha * d[k]
            for j in range(m):
                e[j] *= lam
                w[j] += c * e[j]
    for a in range(nnz + 1):  # this position's gradient joins them: its inputs' rows, then the bias row (input s)
        if a < nnz:
            i = idx[a]
            x = val[a]
        else:
            i = n_in
            x = s
        if not seen[i]:
            seen[i] = True
            rows[count[0]] = i
            count[0] += 1
        for j in range(m):
            acc = 0.0
            for k in range(n_out):
                gk = sign[k] * x * gy[k, j]
                E1[perm[k], i, j] += gk
                acc += d[perm[k]] * gk
            W1[i, j] += alpha * acc
    for k in range(n_out):
        for r in range(W2.shape[0]):
            for c in range(W2.shape[1]):
                E2[perm[k], r, c] = lam * E2[perm[k], r, c] + sign[k] * g2[k, r, c]
    for r in range(W2.shape[0]):
        for c in range(W2.shape[1]):
            acc = 0.0
            for k in range(n_out):
                acc += d[k] * E2[k, r, c]
            W2[r, c] += alpha * acc


@njit(cache=True)
def clear_traces(tr) -> None:
    """Zero the traces of :func:`trace_update` (a game starts): only the rows that hold one are touched."""
    E1, E2, rows, seen, count = tr
    for a in range(count[0]):
        i = rows[a]
        E1[:, i, :] = 0.0
        seen[i] = False
    count[0] = 0
    E2[:] = 0.0


@njit(cache=True)
def new_traces(W1, W2, lam):
    """The traces of :func:`trace_update` for a net of ``W1``, ``W2`` (empty when ``lam`` is 0: TD(0) keeps none)."""
    n_out = W2.shape[1] if lam > 0.0 else 0
    rows = W1.shape[0] if lam > 0.0 else 0
    return (
        np.zeros((n_out, rows, W1.shape[1])),
        np.zeros((n_out, W2.shape[0] if lam > 0.0 else 0, W2.shape[1])),
        np.zeros(rows, np.int64),
        np.zeros(rows, np.bool_),
        np.zeros(1, np.int64),
    )


@njit(cache=True)
def evaluate(arch, W1, W2, bo, pos, idx, val, g, z, p) -> int:
    """Outputs ``p`` of ``pos`` (side on roll's view): from the bear-off table ``bo``
    (:func:`tdbook.games.backgammon_bearoff.combined`) when it has rows and ``pos`` is a bear-off position —
    then ``-1`` is returned and ``idx, val, g, z`` are untouched — else from the net, returning the number of
    its sparse inputs (``idx, val``; ``g``, ``z`` hold the hidden values and nodes for :func:`td_update`).  A
    :data:`PHASES` net values it by the net of its class (:func:`phase_block`)."""
    if bo.shape[0] and is_bearoff(pos):
        bearoff_probabilities(bo, pos, p)
        return -1
    nnz = encode(arch, pos, idx, val)
    W1b, W2b = phase_block(arch, W1, W2, (arch & PHASES) != 0 and is_race(pos))
    forward(arch, W1b, W2b, idx, val, nnz, 1.0, g, z, p)
    return nnz


@njit(cache=True)
def score_afterstates(arch, W1, W2, bo, out_pos, n, scores, tmp, idx, val, g, z, p) -> None:
    """1-ply value of each afterstate for the mover: the points won if it bears off the last
    checker, else minus the opponent's cubeless equity on roll (:func:`evaluate`: the net, or the bear-off
    table ``bo`` where it applies)."""
    for k in range(n):
        a = out_pos[k]
        if a[OFF] == 15:
            scores[k] = win_multiplier(a)
        else:
            flip(a, tmp)
            evaluate(arch, W1, W2, bo, tmp, idx, val, g, z, p)
            scores[k] = -equity(p)


@njit(cache=True, inline="always")
def first_best(scores, n) -> int:
    """Index of the highest of ``scores[:n]`` (the first of equals)."""
    best = 0
    for k in range(1, n):
        if scores[k] > scores[best]:
            best = k
    return best


@njit(cache=True)
def choose_1ply(arch, W1, W2, bo, out_pos, n, scores, tmp, idx, val, g, z, p) -> int:
    """Index of the greedy 1-ply choice among ``out_pos[:n]`` (first of equals)."""
    if n <= 1:
        return 0
    score_afterstates(arch, W1, W2, bo, out_pos, n, scores, tmp, idx, val, g, z, p)
    return first_best(scores, n)


@njit(cache=True, error_model="numpy")
def score_afterstates_from_base(arch, W1, W2, bo, out_pos, n, scores, tmp, idx, val, g, z, p, x, mark, h, bidx, state):
    """:func:`score_afterstates` with each afterstate's hidden sums carried over from the one valued before it (GNU
    Backgammon's evaluation from a base): the afterstates of one roll differ only in the inputs their moves change —
    on the best net's self-play contact positions 16 of its 65 inputs on average against the afterstate before
    (``benchmarks/bench_rollouts.py``) — so only those rows of ``W1`` are added, times the change of their input.
    The first afterstate of a call, and one valued by the other net of a :data:`PHASES` pair, is summed in full.
    The same additions in another order, so the scores differ from :func:`score_afterstates`' in the last bits
    (within 1e-12, tested): an opt-in rollout mode (:data:`FROM_BASE`), never training.

    Scratch kept between calls: ``x`` the dense inputs of the last afterstate summed (length of ``W1``'s input rows),
    ``mark`` as long (ints), ``h`` its hidden sums, ``bidx`` its sparse input indices, ``state`` = (their count, the
    net block summed (-1: none yet), the last mark stamp)."""
    state[1] = -1
    for k in range(n):
        a = out_pos[k]
        if a[OFF] == 15:
            scores[k] = win_multiplier(a)
            continue
        flip(a, tmp)
        if bo.shape[0] and is_bearoff(tmp):
            bearoff_probabilities(bo, tmp, p)
            scores[k] = -equity(p)
            continue
        nnz = encode(arch, tmp, idx, val)
        race = (arch & PHASES) != 0 and is_race(tmp)
        W1b, W2b = phase_block(arch, W1, W2, race)
        n_in = W1b.shape[0] - 1
        m = W1b.shape[1]
        bn = state[0]
        if state[1] != (1 if race else 0):  # in full, as forward sums (the side-to-move unit +1)
            for c in range(bn):
                x[bidx[c]] = 0.0
            for j in range(m):
                h[j] = W1b[n_in, j]
            for c in range(nnz):
                i = idx[c]
                v = val[c]
                for j in range(m):
                    h[j] += W1b[i, j] * v
                x[i] = v
            state[1] = 1 if race else 0
        else:
            stamp = state[2] + 1
            state[2] = stamp
            for c in range(nnz):  # inputs of this afterstate: add the change from the last one
                i = idx[c]
                v = val[c]
                mark[i] = stamp
                d = v - x[i]
                if d != 0.0:
                    for j in range(m):
                        h[j] += W1b[i, j] * d
                    x[i] = v
            for c in range(bn):  # inputs of the last one that this one lacks: take them out
                i = bidx[c]
                if mark[i] != stamp:
                    d = x[i]
                    if d != 0.0:
                        for j in range(m):
                            h[j] -= W1b[i, j] * d
                    x[i] = 0.0
        for c in range(nnz):
            bidx[c] = idx[c]
        state[0] = nnz
        for j in range(m):
            g[j] = h[j]
        _squash(arch, W2b, g, z, p)
        scores[k] = -equity(p)


@njit(cache=True)
def lookahead_outputs(arch, W1, W2, bo, pos, out2, mv2, ws2, scores2, tmp2, idx, val, g, z, p, q) -> None:
    """``q`` ← the outputs of ``pos`` (its side on roll's view) one ply deeper than the net: the mean over the 21
    rolls (weighted 1/36 or 2/36) of the outputs after that side's greedy 1-ply move — the net's outputs of the
    opponent on roll carried into this side's frame, or the result when the move bears off the last checker.
    The lookahead targets of :func:`train_games` (issue 34).  Writes only the buffers it is given."""
    n_out = q.shape[0]
    q[:] = 0.0
    for r in range(21):
        n2 = gen_afterstates(pos, ROLLS[r, 0], ROLLS[r, 1], out2, mv2, ws2)
        best = choose_1ply(arch, W1, W2, bo, out2, n2, scores2, tmp2, idx, val, g, z, p)
        a = out2[best]
        w = ROLL_WEIGHTS[r] / 36.0
        if a[OFF] == 15:
            mult = win_multiplier(a)
            q[0] += w
            if mult >= 2:
                q[1] += w
            if n_out == N_OUT_BG and mult == 3:
                q[3] += w
        else:
            flip(a, tmp2)
            evaluate(arch, W1, W2, bo, tmp2, idx, val, g, z, p)
            q[0] += w * (1.0 - p[0])
            q[1] += w * p[2]
            q[2] += w * p[1]
            if n_out == N_OUT_BG:
                q[3] += w * p[4]
                q[4] += w * p[3]


@njit(cache=True)
def train_games(arch, W1, W2, bo, alpha, seed, first_game, n_games, stats, look=0.0, lam=0.0) -> None:
    """Self-play TD(λ) games ``first_game .. first_game + n_games − 1`` (dice stream ``(seed, g)``);
    ``stats[i] = (points won by colour 0, plies)``.  With a bear-off table ``bo`` (rows), bear-off positions are
    valued by it, as choices and as the targets of the positions before them, and the net is not trained on
    them.  See the module docstring.

    ``look`` > 0 (issue 34's lookahead lever): a contact position (:func:`~tdbook.games.backgammon.is_race` false)
    is trained, with probability ``look``, toward the next position's outputs one ply deeper
    (:func:`lookahead_outputs`: the mean over the next mover's 21 rolls of its greedy replies) instead of the net's
    outputs of the next position itself.  The draws come from their own stream ``(seed, g + LOOK_STREAM)``, so the
    dice are the same with or without the lever; ``look`` = 0 draws nothing and is the plain TD(0) of before.

    ``lam`` > 0 (issue 51): TD(λ), one eligibility trace per weight and output (:func:`trace_update`), cleared at
    each game's start; a position valued by the bear-off table ends a game's training as the result does (its
    value, exact, is the last target).  ``lam`` = 0 keeps no trace and takes :func:`td_update`, the TD(0) of
    before, bit for bit.

    A :data:`PHASES` net (issue 51's phase split): each position is valued, chosen by and trained in the net of its
    class (:func:`phase_block`), the contact net's last contact position toward the race net's value of the race
    that follows, as GNU Backgammon's nets hand over; TD(0) only (its traces are not split)."""
    m = W1.shape[1]
    n_out = W2.shape[1]
    out_pos = np.zeros((MAX_AFTER, NSLOT), np.int8)
    out_mv = np.full((MAX_AFTER, 8), -1, np.int8)
    ws = np.zeros(WS_SIZE, np.int64)
    scores = np.zeros(MAX_AFTER)
    tmp = np.zeros(NSLOT, np.int8)
    pos = np.zeros(NSLOT, np.int8)
    idx = np.zeros(MAX_NNZ, np.int64)
    val = np.zeros(MAX_NNZ)
    idx_c = np.zeros(MAX_NNZ, np.int64)
    val_c = np.zeros(MAX_NNZ)
    g, z, p = np.zeros(m), np.zeros(n_out), np.zeros(n_out)
    g_c, z_c, p_c = np.zeros(m), np.zeros(n_out), np.zeros(n_out)
    delta = np.zeros(n_out)
    tmp2 = np.zeros(NSLOT, np.int8)  # the lookahead's own scratch (it reuses the move buffers, free by then)
    idx2 = np.zeros(MAX_NNZ, np.int64)
    val2 = np.zeros(MAX_NNZ)
    g2, z2, p2, q = np.zeros(m), np.zeros(n_out), np.zeros(n_out), np.zeros(n_out)
    tr = new_traces(W1, W2, lam)
    gy, gw2 = np.zeros((n_out, m)), np.zeros((n_out, W2.shape[0], W2.shape[1]))
    for gi in range(n_games):
        if lam > 0.0:
            clear_traces(tr)
        rng = seed_state(seed, first_game + gi)
        lrng = seed_state(seed, first_game + gi + LOOK_STREAM)
        set_initial(pos)
        colour, d1, d2 = opening_roll(rng)
        started = False
        nnz_c = 0
        race_c = False
        plies = 0
        while True:
            n = gen_afterstates(pos, d1, d2, out_pos, out_mv, ws)
            best = choose_1ply(arch, W1, W2, bo, out_pos, n, scores, tmp, idx, val, g, z, p)
            plies += 1
            a = out_pos[best]
            if a[OFF] == 15:
                mult = win_multiplier(a)
                if started and nnz_c >= 0:  # the current position is the mover's: it wins
                    delta[0] = 1.0 - p_c[0]
                    delta[1] = (1.0 if mult >= 2 else 0.0) - p_c[1]
                    delta[2] = 0.0 - p_c[2]
                    if n_out == N_OUT_BG:
                        delta[3] = (1.0 if mult == 3 else 0.0) - p_c[3]
                        delta[4] = 0.0 - p_c[4]
                    if lam > 0.0:
                        trace_update(
                            arch, W1, W2, idx_c, val_c, nnz_c, 1.0, g_c, z_c, delta, alpha, lam, colour, tr, gy, gw2
                        )
                    else:
                        W1b, W2b = phase_block(arch, W1, W2, race_c)
                        td_update(arch, W1b, W2b, idx_c, val_c, nnz_c, 1.0, g_c, z_c, delta, alpha)
                stats[gi, 0] = mult if colour == 0 else -mult
                stats[gi, 1] = plies
                break
            flip(a, tmp)  # the next position, from the next mover's view
            nnz = evaluate(arch, W1, W2, bo, tmp, idx, val, g, z, p)
            if started and nnz_c >= 0:  # next position's outputs in the current frame: (1 − w, gl, gw[, bgl, bgw])
                t = p
                if look > 0.0 and nnz >= 0 and not is_race(pos) and uniform(lrng) < look:
                    lookahead_outputs(
                        arch, W1, W2, bo, tmp, out_pos, out_mv, ws, scores, tmp2, idx2, val2, g2, z2, p2, q
                    )
                    t = q
                delta[0] = (1.0 - t[0]) - p_c[0]
                delta[1] = t[2] - p_c[1]
                delta[2] = t[1] - p_c[2]
                if n_out == N_OUT_BG:
                    delta[3] = t[4] - p_c[3]
                    delta[4] = t[3] - p_c[4]
                if lam > 0.0:
                    trace_update(
                        arch, W1, W2, idx_c, val_c, nnz_c, 1.0, g_c, z_c, delta, alpha, lam, colour, tr, gy, gw2
                    )
                else:
                    W1b, W2b = phase_block(arch, W1, W2, race_c)
                    td_update(arch, W1b, W2b, idx_c, val_c, nnz_c, 1.0, g_c, z_c, delta, alpha)
                if nnz >= 0:
                    W1b, W2b = phase_block(arch, W1, W2, (arch & PHASES) != 0 and is_race(tmp))
                    forward(arch, W1b, W2b, idx, val, nnz, 1.0, g, z, p)
            started = True
            nnz_c = nnz
            race_c = (arch & PHASES) != 0 and is_race(tmp)
            if nnz >= 0:
                idx_c[:nnz] = idx[:nnz]
                val_c[:nnz] = val[:nnz]
                g_c[:] = g
                z_c[:] = z
            p_c[:] = p
            pos[:] = tmp
            colour = 1 - colour
            d1, d2 = roll(rng)


@njit(cache=True)
def fit_outputs(arch, W1, W2, bo, positions, targets, order, alpha, sq) -> None:
    """Supervised steps toward given outputs (issue 51's rollout targets): for each ``i`` of ``order`` in turn,
    ``θ += α Σ_k (t_k − p_k) ∂p_k/∂θ`` at ``positions[i]`` (side on roll's view) toward ``targets[i]``
    (:func:`td_update`: a gradient step on ½ Σ_k (t_k − p_k)²).  A position the bear-off table ``bo`` values is
    skipped (the net is not trained on them).  ``sq[a]`` ← (equity of the target − the net's, before its step)²,
    0 for a skipped position."""
    m = W1.shape[1]
    n_out = W2.shape[1]
    idx = np.zeros(MAX_NNZ, np.int64)
    val = np.zeros(MAX_NNZ)
    g, z, p = np.zeros(m), np.zeros(n_out), np.zeros(n_out)
    delta = np.zeros(n_out)
    for a in range(order.shape[0]):
        i = order[a]
        nnz = evaluate(arch, W1, W2, bo, positions[i], idx, val, g, z, p)
        if nnz < 0:
            sq[a] = 0.0
            continue
        for k in range(n_out):
            delta[k] = targets[i, k] - p[k]
        d = equity(targets[i]) - equity(p)
        sq[a] = d * d
        W1b, W2b = phase_block(arch, W1, W2, (arch & PHASES) != 0 and is_race(positions[i]))
        td_update(arch, W1b, W2b, idx, val, nnz, 1.0, g, z, delta, alpha)


# ----------------------------------------------------------------------------- the model


def symmetric_outputs(
    W1: np.ndarray, W2: np.ndarray, mover: np.ndarray, opponent: np.ndarray, on_roll: float = 1.0
) -> tuple[float, float, float]:
    """Net (a)'s forward pass in plain numpy (Symmetric gammon post (2011)): what :func:`forward` runs jitted for
    the ``"symmetric"`` architecture (``tests/test_backgammon_symmetric.py`` checks they agree, to rounding: the
    kernel sums in another order and writes y − ½ as ½ tanh(a/2)).

    ``mover`` and ``opponent`` are the two sides' input units; ``on_roll`` the side-to-move unit (+1 when the
    frame's owner is on roll, −1 when the opponent is).  Swapping the players — ``mover`` ↔ ``opponent``,
    ``on_roll`` → −``on_roll`` — negates every hidden unit's input, so each y becomes 1 − y, and then P(win) becomes
    1 − P(win) and the two gammon outputs change places: the flip holds by construction, not by training.
    Returns (P(win), P(gammon win), P(gammon loss))."""

    def sigmoid(x: Any) -> Any:
        return 0.5 * (1.0 + np.tanh(0.5 * x))

    difference = mover - opponent  # each side's units enter with opposite signs
    y = sigmoid(difference @ W1[:-1] + on_roll * W1[-1])  # the side-to-move unit is the hidden layer's bias input
    u, v, b = W2[:-1, 0], W2[:-1, 1], W2[-1, 1]
    p_win = sigmoid((u - u.mean()) @ y)  # no bias, weights summing to zero: y → 1 − y gives 1 − P(win)
    gammon_if_win = sigmoid(b + v @ y)
    gammon_if_loss = sigmoid(b + v.sum() - v @ y)  # the tied node: the same as gammon_if_win with y → 1 − y
    return float(p_win), float(p_win * gammon_if_win), float((1.0 - p_win) * gammon_if_loss)


def kernel_code(arch: str, inputs: str = "raw") -> int:
    """The kernels' integer code of an architecture of :data:`ARCHS` on an input set of :data:`INPUTS`
    (ValueError naming a bad one)."""
    if arch not in ARCHS:
        raise ValueError(f"unknown architecture {arch!r}; choose from: {', '.join(ARCHS)}")
    if inputs not in INPUTS:
        raise ValueError(f"unknown input set {inputs!r}; choose from: {', '.join(INPUTS)}")
    return ARCHS[arch] | INPUTS[inputs]


def _copy(net: TDNet) -> TDNet:
    """A TDNet with ``net``'s settings and a copy of its weights."""
    m = net.meta()
    out = TDNet(
        m["n_in"], m["n_hidden"], m["n_out"], hidden=m["hidden"], output=m["output"], derivative=m["derivative"],
        alpha=m["alpha"], beta=m["beta"], gamma=m["gamma"], lam=m["lam"], init=m["init"], bias=m["bias"],
        seed=m["seed"],
    )  # fmt: skip
    out.W1[:] = net.W1
    out.W2[:] = net.W2
    return out


def _stacked(net: TDNet, race: TDNet) -> tuple[np.ndarray, np.ndarray]:
    """The (W1, W2) of a :data:`PHASES` pair: the contact net's rows over the race net's, the two nets' weights made
    views of them (so the kernels train both through one array each); a pair stacked already keeps its arrays."""
    if race.W1.shape != net.W1.shape or race.W2.shape != net.W2.shape:
        raise ValueError(
            f"a race net must have the contact net's shape: W1 {net.W1.shape} and W2 {net.W2.shape}, "
            f"got {race.W1.shape} and {race.W2.shape}"
        )
    out = []
    for a, b in ((net.W1, race.W1), (net.W2, race.W2)):
        base = a.base
        if base is not None and b.base is base and base.shape[0] == 2 * a.shape[0] and a is not b:
            out.append(base)  # stacked already (a view of the same pair): the same arrays
        else:
            out.append(np.ascontiguousarray(np.concatenate([a, b])))
    W1, W2 = out
    h, k = net.W1.shape[0], net.W2.shape[0]
    net.W1, race.W1, net.W2, race.W2 = W1[:h], W1[h:], W2[:k], W2[k:]
    return W1, W2


class SymmetricGammon:
    """A net of :data:`ARCHS` over TD-Gammon's input units; weights kept in a :class:`TDNet`
    (``W1`` (n_in+1, hidden), ``W2`` (hidden+1, 3)), saved and loaded through it.

    With ``race`` (issue 51's phase split) it is a pair: ``net`` values contact positions and ``race`` (a net of the
    same shape) race positions, each trained on its own class (:data:`PHASES`); :attr:`W1` and :attr:`W2` are then
    the two stacked, what the kernels take.  :meth:`split` makes one from a single net.

    ``SymmetricGammon.new("symmetric", hidden=40, alpha=0.1, seed=1)``."""

    def __init__(
        self,
        net: TDNet,
        arch: str,
        info: dict[str, Any] | None = None,
        inputs: str = "raw",
        bearoff: bool = False,
        race: TDNet | None = None,
    ) -> None:
        code = kernel_code(arch, inputs)
        outs = (N_OUT, N_OUT_BG) if ARCHS[arch] == ARCH_FREE else (N_OUT,)
        if net.n_in != N_IN[code] or net.n_out not in outs:
            raise ValueError(
                f"a {arch!r} net on {inputs} inputs has {N_IN[code]} inputs and "
                f"{' or '.join(map(str, outs))} output columns, this one has {net.n_in} and {net.n_out}"
            )
        self.net, self.arch, self.inputs, self.code, self.kind = net, arch, inputs, code, ARCHS[arch]
        self.info: dict[str, Any] = dict(info or {})
        self.bearoff = bool(bearoff)
        self.race = race
        self._stack: tuple[np.ndarray, np.ndarray] | None = None
        if race is not None:
            self._stack = _stacked(net, race)
            self.code |= PHASES
        for n in (net,) if race is None else (net, race):
            if self.kind != ARCH_FREE:  # unused slots stay exactly zero: P(win) has no bias, column 2 is not trained
                n.W2[-1, 0] = 0.0
                n.W2[:, 2] = 0.0
                if self.kind == ARCH_NAIVE:
                    n.W2[-1, 1] = 0.0

    @classmethod
    def new(
        cls,
        arch: str = "symmetric",
        hidden: int = 40,
        *,
        alpha: float = 0.1,
        init: float = 0.1,
        seed: int = 0,
        inputs: str = "raw",
        backgammons: bool = False,
        bearoff: bool = False,
    ) -> SymmetricGammon:
        """A fresh net; ``inputs="expanded"`` adds :mod:`~tdbook.games.backgammon_features` per side;
        ``backgammons`` adds the two backgammon outputs (``"free"`` only); ``bearoff`` values bear-off positions
        by the exact one-sided table (:mod:`~tdbook.games.backgammon_bearoff`) instead of the net."""
        if backgammons and arch != "free":
            raise ValueError(f"backgammon outputs are for the 'free' architecture only, not {arch!r}")
        n_out = N_OUT_BG if backgammons else N_OUT
        net = TDNet(N_IN[kernel_code(arch, inputs)], hidden, n_out, alpha=alpha, lam=0.0, init=init, seed=seed)
        return cls(net, arch, inputs=inputs, bearoff=bearoff)

    def widen(self, inputs: str) -> SymmetricGammon:
        """This net on an input set whose hand-made features extend its own (raw → expanded → contact → positional): the
        weights of the inputs it has are kept, the new inputs' weights start at zero, so the widened net
        computes exactly what this one does until it trains on (a warm start; notebook 09's (c‴))."""
        self._single("widen()")
        code = kernel_code(self.arch, inputs)
        old_nf, nf = n_features(self.code), n_features(code)
        if nf < old_nf:
            raise ValueError(f"cannot widen a net on {self.inputs} inputs to the smaller {inputs} set")
        sides, n_raw = (2, 196) if self.kind == ARCH_FREE else (1, 98)
        net = TDNet(N_IN[code], self.hidden, self.outputs, alpha=self.net.alpha, lam=0.0, init=0.0, seed=0)
        net.W1[:] = 0.0
        net.W1[:n_raw] = self.W1[:n_raw]
        for side in range(sides):
            net.W1[n_raw + side * nf : n_raw + side * nf + old_nf] = self.W1[
                n_raw + side * old_nf : n_raw + (side + 1) * old_nf
            ]
        net.W1[-1] = self.W1[-1]
        net.W2[:] = self.W2
        return SymmetricGammon(net, self.arch, dict(self.info), inputs=inputs, bearoff=self.bearoff)

    def with_hidden(self, hidden: int, init: float = 0.05, seed: int = 0) -> SymmetricGammon:
        """This net with ``hidden`` hidden units (issue 51's wider net, a warm start): the units it has keep their
        weights; each new unit's input weights are drawn uniformly from ±``init`` (by ``seed``) and its output
        weights start at zero, so the wider net computes exactly what this one does until it trains on.
        ValueError for fewer units than it has, a bad ``init``, a race and contact pair, or a net other than
        ``"free"`` (the symmetric nets' centred output weights would move)."""
        self._single("with_hidden()")
        if self.kind != ARCH_FREE:
            raise ValueError(f"with_hidden() is for the 'free' architecture only, not {self.arch!r}")
        if isinstance(hidden, bool) or not isinstance(hidden, (int, np.integer)) or hidden < self.hidden:
            raise ValueError(f"hidden must be an int >= this net's {self.hidden} units, got {hidden!r}")
        if not (isinstance(init, (int, float)) and math.isfinite(init) and init >= 0):
            raise ValueError(f"init must be a number >= 0, got {init!r}")
        h = self.hidden
        net = TDNet(self.net.n_in, int(hidden), self.outputs, alpha=self.net.alpha, lam=0.0, init=0.0, seed=0)
        net.W1[:, :h] = self.W1
        net.W1[:, h:] = np.random.default_rng(seed).uniform(-init, init, (net.W1.shape[0], int(hidden) - h))
        net.W2[:] = 0.0
        net.W2[:h] = self.W2[:h]
        net.W2[-1] = self.W2[-1]  # the output biases
        return SymmetricGammon(net, self.arch, dict(self.info), inputs=self.inputs, bearoff=self.bearoff)

    def with_backgammons(self) -> SymmetricGammon:
        """This free net with two backgammon outputs added (a warm start): the other weights are kept and each
        backgammon node starts as a copy of its gammon node with the bias lowered by :data:`BG_START_SHIFT`, so
        a backgammon starts about a tenth as likely as a gammon where gammons are rare, and learns from there."""
        self._single("with_backgammons()")
        if self.kind != ARCH_FREE:
            raise ValueError(f"backgammon outputs are for the 'free' architecture only, not {self.arch!r}")
        if self.outputs == N_OUT_BG:
            raise ValueError("this net has backgammon outputs already")
        net = TDNet(self.net.n_in, self.hidden, N_OUT_BG, alpha=self.net.alpha, lam=0.0, init=0.0, seed=0)
        net.W1[:] = self.W1
        net.W2[:, :N_OUT] = self.W2
        net.W2[:, 3:5] = self.W2[:, 1:3]
        net.W2[-1, 3:5] -= BG_START_SHIFT
        return SymmetricGammon(net, self.arch, dict(self.info), inputs=self.inputs, bearoff=self.bearoff)

    def with_bearoff(self) -> SymmetricGammon:
        """This net (the same weights, not a copy) valuing bear-off positions by the exact one-sided table
        (:mod:`~tdbook.games.backgammon_bearoff`): in its choices, its probabilities and, trained on, as the
        targets of the positions before a bear-off (it is not trained on bear-off positions themselves)."""
        return SymmetricGammon(self.net, self.arch, dict(self.info), inputs=self.inputs, bearoff=True, race=self.race)

    def split(self) -> SymmetricGammon:
        """A race net and a contact net, both copies of this net to start (issue 51's phase split: each then trains on
        positions of its own class, and play picks the net by the position's class, as GNU Backgammon's contact and
        race nets); a pair already is returned as it is."""
        if self.race is not None:
            return self
        contact, race = _copy(self.net), _copy(self.net)
        return SymmetricGammon(contact, self.arch, dict(self.info), self.inputs, self.bearoff, race=race)

    def phase(self, which: str) -> SymmetricGammon:
        """One net of a pair as a net of its own (``"contact"`` or ``"race"``; its weights, not a copy) — to play it
        everywhere, or to look at one phase alone.  ValueError for a single net or another name."""
        if self.race is None:
            raise ValueError("phase(): this is a single net, not a race and contact pair")
        if which not in ("contact", "race"):
            raise ValueError(f"phase(): which must be 'contact' or 'race', got {which!r}")
        net = self.net if which == "contact" else self.race
        return SymmetricGammon(net, self.arch, dict(self.info), inputs=self.inputs, bearoff=self.bearoff)

    def _single(self, what: str) -> None:
        if self.race is not None:
            raise ValueError(f"{what} is for a single net, not a race and contact pair (take .phase(...) first)")

    @classmethod
    def averaged(cls, nets: Sequence[SymmetricGammon]) -> SymmetricGammon:
        """The net whose weights are the mean of ``nets``' weights, element by element: iterate averaging
        (Polyak and Juditsky 1992; "stochastic weight averaging", Izmailov et al. 2018) over one run's snapshots,
        which smooths the wandering of weights trained at a constant step size (issue 34).  The nets must share
        arch, inputs, hidden units, outputs and bear-off table; the result's ``info`` is the last net's.
        ValueError naming the first mismatch."""
        if not nets:
            raise ValueError("averaged() needs at least one net")
        for n in nets:
            n._single("averaged()")
        first = nets[0]
        for i, n in enumerate(nets[1:], 1):
            for what, theirs, ours in (
                ("arch", n.arch, first.arch),
                ("inputs", n.inputs, first.inputs),
                ("hidden units", n.hidden, first.hidden),
                ("outputs", n.outputs, first.outputs),
                ("bear-off table", n.bearoff, first.bearoff),
            ):
                if theirs != ours:
                    raise ValueError(f"averaged(): net {i}'s {what} is {theirs!r}, net 0's is {ours!r}")
        net = TDNet(first.net.n_in, first.hidden, first.outputs, alpha=first.net.alpha, lam=0.0, init=0.0, seed=0)
        net.W1[:] = np.mean([n.W1 for n in nets], axis=0)
        net.W2[:] = np.mean([n.W2 for n in nets], axis=0)
        return cls(net, first.arch, dict(nets[-1].info), inputs=first.inputs, bearoff=first.bearoff)

    @property
    def table(self) -> np.ndarray:
        """The bear-off table the kernels take: :func:`~tdbook.games.backgammon_bearoff.combined` with
        :attr:`bearoff`, else the empty table (the net everywhere)."""
        return combined_cached() if self.bearoff else NO_TABLE

    @property
    def outputs(self) -> int:
        """Output columns: 3, or 5 with the backgammon outputs."""
        return self.net.n_out

    @property
    def hidden(self) -> int:
        return self.net.n_hidden

    @property
    def W1(self) -> np.ndarray:
        """The kernels' input→hidden weights: the net's, or a pair's two stacked (contact rows first)."""
        return self.net.W1 if self._stack is None else self._stack[0]

    @property
    def W2(self) -> np.ndarray:
        """The kernels' hidden→output weights: the net's, or a pair's two stacked (contact rows first)."""
        return self.net.W2 if self._stack is None else self._stack[1]

    @property
    def phases(self) -> bool:
        """A race and contact pair (issue 51's phase split)."""
        return self.race is not None

    def describe(self) -> str:
        plus = [] if self.inputs == "raw" else [f"{self.inputs} inputs"]
        if self.outputs == N_OUT_BG:
            plus.append("backgammon outputs")
        if self.bearoff:
            plus.append("bear-off table")
        if self.race is not None:
            plus.append("race and contact nets")
        tail = f" ({', '.join(plus)})" if plus else ""
        return f"{self.arch} {self.net.n_in}-{self.hidden}-{self.outputs if self.kind == ARCH_FREE else 2}{tail}"

    def scratch(self) -> tuple[np.ndarray, ...]:
        n = self.outputs
        return np.zeros(MAX_NNZ, np.int64), np.zeros(MAX_NNZ), np.zeros(self.hidden), np.zeros(n), np.zeros(n)

    def nodes(self, pos: np.ndarray, side: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """(node values z, unconditional p) of ``pos`` (the view of its side on roll) with side-to-move
        unit ``side`` (+1: that side on roll; −1: the other side; 0: nobody, before the opening roll —
        meaningful only for the symmetric archs)."""
        idx, val, g, z, p = self.scratch()
        pos = np.asarray(pos, np.int8)
        nnz = encode(self.code, pos, idx, val)
        W1, W2 = phase_block(self.code, self.W1, self.W2, self.race is not None and bool(is_race(pos)))
        forward(self.code, W1, W2, idx, val, nnz, float(side), g, z, p)
        return z, p

    def probabilities(self, pos: np.ndarray) -> np.ndarray:
        """(P(win), P(gammon win), P(gammon loss)) of the side on roll of ``pos`` (its view), then
        (P(backgammon win), P(backgammon loss)) for a net with backgammon outputs; from the bear-off table in a
        bear-off position when the net has one (:attr:`bearoff`)."""
        idx, val, g, z, p = self.scratch()
        evaluate(self.code, self.W1, self.W2, self.table, np.asarray(pos, np.int8), idx, val, g, z, p)
        return p

    def equity(self, pos: np.ndarray) -> float:
        return float(equity(self.probabilities(pos)))

    def lookahead(self, pos: np.ndarray) -> np.ndarray:
        """The outputs of ``pos`` (its side on roll's view) one ply deeper: the mean over the 21 rolls of the outputs
        after that side's greedy 1-ply move (:func:`lookahead_outputs`, the targets of ``train(lookahead=…)``)."""
        pos = np.asarray(pos, np.int8)
        out, mv, ws = make_buffers()
        idx, val, g, z, p = self.scratch()
        q = np.zeros(self.outputs)
        lookahead_outputs(
            self.code, self.W1, self.W2, self.table, pos, out, mv, ws, np.zeros(MAX_AFTER), np.zeros(NSLOT, np.int8),
            idx, val, g, z, p, q,
        )  # fmt: skip
        return q

    def train(
        self,
        seed: int,
        first_game: int,
        n_games: int,
        alpha: float | None = None,
        lookahead: float = 0.0,
        lam: float = 0.0,
    ) -> np.ndarray:
        """Self-play TD(λ) games ``first_game …`` (:func:`train_games`; ``lookahead``: the share of contact positions
        trained toward the next position one ply deeper; ``lam``: λ of the eligibility traces, 0 the plain TD(0));
        their (points for colour 0, plies).
        Raises ValueError for a ``lookahead`` or ``lam`` outside [0, 1], or if the weights stop being finite."""
        look = float(lookahead)
        if not 0.0 <= look <= 1.0:
            raise ValueError(f"lookahead must be a share in [0, 1], got {lookahead!r}")
        lam_ = float(lam)
        if not 0.0 <= lam_ <= 1.0:
            raise ValueError(f"lambda must be in [0, 1], got {lam!r}")
        if lam_ > 0.0 and self.race is not None:
            raise ValueError("TD(λ) is not built for a race and contact pair (its traces are not split); use lam=0")
        stats = np.zeros((n_games, 2), np.int64)
        a = self.net.alpha if alpha is None else float(alpha)
        train_games(
            self.code, self.W1, self.W2, self.table, a, int(seed), int(first_game), int(n_games), stats, look, lam_
        )
        self.check_finite()
        return stats

    def fit(self, positions: np.ndarray, targets: np.ndarray, order: np.ndarray, alpha: float) -> np.ndarray:
        """Supervised steps toward ``targets`` (``(n, outputs)``) at ``positions`` (``(n, 28)`` int8, side on roll's
        view), in the order of the indices ``order`` (:func:`fit_outputs`); the squared equity error before each step.
        ValueError for arrays that do not fit, an index out of range, a step size that is not a number > 0, or
        weights that stop being finite."""
        positions = np.asarray(positions)
        targets = np.asarray(targets, np.float64)
        order = np.asarray(order, np.int64)
        if positions.ndim != 2 or positions.shape[1] != NSLOT or positions.dtype != np.int8:
            raise ValueError(f"positions must be an (n, {NSLOT}) int8 array, got {positions.dtype} {positions.shape}")
        if targets.shape != (len(positions), self.outputs) or not np.isfinite(targets).all():
            raise ValueError(f"targets must be ({len(positions)}, {self.outputs}) finite outputs, got {targets.shape}")
        if order.ndim != 1 or (len(order) and (order.min() < 0 or order.max() >= len(positions))):
            raise ValueError(f"order must be indices of the {len(positions)} positions")
        if not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and alpha > 0):
            raise ValueError(f"alpha must be a number > 0, got {alpha!r}")
        sq = np.zeros(len(order))
        fit_outputs(self.code, self.W1, self.W2, self.table, positions, targets, order, float(alpha), sq)
        self.check_finite()
        return sq

    def check_finite(self) -> None:
        """ValueError if a weight (of either net of a pair) is not finite: training diverged."""
        self.net.check_finite()
        if self.race is not None:
            self.race.check_finite()

    def save(self, path: str | Path, aux: dict[str, np.ndarray] | None = None, **info: Any) -> Path:
        """Write the weights, their settings and ``info`` (atomically, :meth:`TDNet.save`), with ``aux``'s named
        arrays beside them in the one file (a training loop's checkpoint); a pair's race net goes beside the contact
        net as the arrays ``race_W1``, ``race_W2``."""
        self.info.update(info)
        extra: dict[str, Any] = {"bearoff": True} if self.bearoff else {}
        aux = dict(aux or {})
        if self.race is not None:
            if set(aux) & set(RACE_ARRAYS):
                raise ValueError(f"save(): {', '.join(RACE_ARRAYS)} are the race net's array names, not free for aux")
            aux |= {RACE_ARRAYS[0]: self.race.W1, RACE_ARRAYS[1]: self.race.W2}
            extra["phases"] = True
        return self.net.save(
            path, aux=aux, symmetric_gammon=FORMAT, arch=self.arch, inputs=self.inputs, info=self.info, **extra
        )

    @classmethod
    def load(cls, path: str | Path) -> SymmetricGammon:
        """Read a net written by :meth:`save`; ValueError naming the file and the problem otherwise."""
        net = TDNet.load(path)
        extra = getattr(net, "extra", {})
        if extra.get("symmetric_gammon") != FORMAT:
            raise ValueError(
                f"{path}: not a symmetric-gammon weights file (format {extra.get('symmetric_gammon')!r}, "
                f"expected {FORMAT!r})"
            )
        race = None
        if extra.get("phases"):
            missing = [k for k in RACE_ARRAYS if k not in net.aux]
            if missing:
                raise ValueError(f"{path}: a race and contact pair without its race net's {', '.join(missing)}")
            race = _copy(net)
            W1, W2 = net.aux.pop(RACE_ARRAYS[0]), net.aux.pop(RACE_ARRAYS[1])
            if W1.shape != net.W1.shape or W2.shape != net.W2.shape:
                raise ValueError(f"{path}: the race net's weights {W1.shape}/{W2.shape} do not fit the contact net's "
                                 f"{net.W1.shape}/{net.W2.shape}")  # fmt: skip
            race.W1[:] = W1
            race.W2[:] = W2
        try:
            return cls(
                net,
                extra.get("arch"),
                extra.get("info") or {},
                inputs=extra.get("inputs", "raw"),
                bearoff=bool(extra.get("bearoff", False)),
                race=race,
            )
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
