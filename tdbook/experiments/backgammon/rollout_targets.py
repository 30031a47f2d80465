"""Rollouts of a net's own play as training targets: truncated, variance-reduced, on every core (issue 51).

A *rollout* of a position (side on roll's view, before its roll) plays it out ``trials`` times, the net greedy at
1-ply for both sides, and averages the results — the net's own value of its own play, which self-play TD(0) only
approaches one ply at a time (notebook 09 §4.5: the best net is 0.07 ppg off its rollouts in a typical contact
position).  These make one affordable on two cores (Tesauro & Galperin 1997 ran theirs on a parallel machine):

- **Truncation** (``truncate`` = k): a play-out stops after k plies and takes the net's outputs of the position it
  reached (a k-step target of the net's own play); 0 plays to the end.  With ``bearoff_stop`` a play-out also stops
  at the first bear-off position and takes the exact one-sided bear-off table's probabilities
  (:mod:`~tdbook.games.backgammon_bearoff`), as GNU Backgammon's cubeless rollouts stop at its one-sided database.
- **Stratified dice** (variance reduction by duplicate dice): play-out ``t`` of a position starts with the roll
  ``perm₀[t mod 36]`` and answers it with ``perm₁[(t + ⌊t/36⌋) mod 36]`` (two random orders of the 36 rolls drawn
  per position), so every 36 play-outs see each first roll once and each second roll once; later rolls come from
  the play-out's own stream.  Play-out ``t`` of position ``i`` draws from streams that depend only on ``(seed, i,
  t)``, so the same position rolled out by two nets (an iteration and the next, or a net and the diagnosis) meets
  the same dice: their difference is a paired one.
- **Fast hidden units** (``fast``): the play-outs' evaluations take each hidden unit's tanh by a rational function
  within 3e-7 of it (:func:`~tdbook.learners.backgammon_symmetric.tanh_fast`), as GNU Backgammon takes its sigmoid
  from a table; truncated play-outs about two-fifths cheaper (``benchmarks/bench_rollouts.py``: the rational
  function's loop vectorizes, tanh's library call does not).
- **Evaluation from a base** (``from_base``, opt-in): the afterstates of a roll differ only in the inputs their
  move changes (16 of the best net's 65 on its own positions, ``benchmarks/bench_rollouts.py``), so each one's hidden
  sums are carried over from the afterstate valued before it and only those rows added, as GNU Backgammon
  evaluates (:func:`~tdbook.learners.backgammon_symmetric.score_afterstates_from_base`); scores within 1e-12 of the
  plain sums, not the same bits, so not the default.  Truncated fast play-outs about a fifth cheaper again.
- **Luck adjustment** (``vr_plies`` = v, the variance reduction of the net's own evaluation): at each of the first
  v plies the luck of the roll — the outputs after the net's move for the roll it got, minus their mean over the
  21 rolls (the position one ply deeper, :func:`~tdbook.learners.backgammon_symmetric.lookahead_outputs`) — is
  subtracted from the play-out's result.  Its mean is zero under the net's own play, so the estimate stays
  unbiased; the cost is 21 move choices per adjusted ply, those of the root made once per position and shared by its
  play-outs (the same bits as making them in each).

Every estimate is the vector of the net's outputs (P(win), P(gammon win), P(gammon loss)[, P(backgammon win),
P(backgammon loss)]) of the rolled-out position's side on roll — results as outcome indicators, the values of the
other side's positions carried into its frame (``(w, gw, gl, bgw, bgl) → (1 − w, gl, gw, bgl, bgw)``) — so a net
is fitted to all its outputs at once.  The dice of a play-out are put in the order of
:data:`~tdbook.learners.backgammon_net.ROLLS` (low die first) before the move is chosen, the same order the luck
adjustment's 21 rolls use, so the adjusted and the plain play-outs play the same moves.

:func:`rollout_targets` is the façade: positions in chunks through :func:`tdbook.core.parallel.map_tasks` (both
cores under a Dask client), the same bytes with any number of workers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numba import njit

from ...core.parallel import map_tasks
from ...core.rng import randint, seed_state
from ...games.backgammon import NSLOT, OFF, OPP_OFF, flip, gen_afterstates, roll, win_multiplier
from ...games.backgammon_bearoff import NO_TABLE, combined_cached, is_bearoff
from ...games.backgammon_bearoff import probabilities as bearoff_probabilities
from ...learners.backgammon_net import ROLL_WEIGHTS, ROLLS
from ...learners.backgammon_symmetric import FAST, FROM_BASE, N_OUT_BG, SymmetricGammon, equity, evaluate
from ...players.backgammon_symmetric import SymNet, choose_sym_1ply, sym_buffers, sym_net
from .match import new_board


@dataclass(frozen=True)
class RolloutSpec:
    """How a position is rolled out: ``trials`` play-outs, each ``truncate`` plies long (0: to the end), the luck of
    the first ``vr_plies`` rolls taken out, stopping at a bear-off position with ``bearoff_stop``; with ``fast`` the
    net's hidden units use :func:`~tdbook.learners.backgammon_symmetric.tanh_fast` (within 3e-7 of tanh) in the
    play-outs and at their ends; with ``from_base`` the afterstates of each roll are valued from a base
    (:func:`~tdbook.learners.backgammon_symmetric.score_afterstates_from_base`: their scores within 1e-12 of the
    plain sums')."""

    trials: int = 36
    truncate: int = 10
    vr_plies: int = 0
    bearoff_stop: bool = True
    fast: bool = False
    from_base: bool = False

    def check(self) -> RolloutSpec:
        for name, low in (("trials", 2), ("truncate", 0), ("vr_plies", 0)):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < low:
                raise ValueError(f"{name} must be an int >= {low}, got {v!r}")
        for name in ("bearoff_stop", "fast", "from_base"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        return self

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@njit(cache=True)
def _shuffled36(rng, perm) -> None:
    """``perm`` ← a random order of the 36 rolls (Fisher–Yates on ``rng``)."""
    for i in range(36):
        perm[i] = i
    for i in range(35, 0, -1):
        j = randint(rng, i + 1)
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t


@njit(cache=True)
def _roll_index(d1, d2) -> int:
    """The index in :data:`ROLLS` (low die first) of the roll ``d1, d2``."""
    lo, hi = min(d1, d2), max(d1, d2)
    return (lo - 1) * (14 - lo) // 2 + (hi - lo)


@njit(cache=True)
def result_outputs(a, o) -> None:
    """``o`` ← the result, for the side that moved, of its afterstate ``a`` that bears off its last checker: a win,
    a gammon win and a backgammon win as outcome indicators."""
    m = win_multiplier(a)
    o[:] = 0.0
    o[0] = 1.0
    o[1] = 1.0 if m >= 2 else 0.0
    if o.shape[0] == N_OUT_BG:
        o[3] = 1.0 if m == 3 else 0.0


@njit(cache=True)
def _mover_outputs(net, a, tmp, s, o) -> None:
    """``o`` ← the outputs, for the side that moved, of its afterstate ``a``: the result when it bears off the last
    checker, else the net's outputs of the opponent on roll carried into the mover's frame."""
    if a[OFF] == 15:
        result_outputs(a, o)
        return
    flip(a, tmp)
    evaluate(net.arch, net.W1, net.W2, net.bo, tmp, s.idx, s.val, s.g, s.z, s.p)
    carry_outputs(s.p, o)


@njit(cache=True)
def carry_outputs(p, o) -> None:
    """``o`` ← the outputs ``p`` of one side carried into the other side's frame."""
    o[0] = 1.0 - p[0]
    o[1] = p[2]
    o[2] = p[1]
    if p.shape[0] == N_OUT_BG:
        o[3] = p[4]
        o[4] = p[3]


@njit(cache=True)
def _add_rooted(acc, v, odd, sign, tmp) -> None:
    """``acc += sign · v`` with ``v`` in the frame of the side on roll at an ``odd`` or even ply from the root,
    carried into the root's frame first when odd."""
    if odd:
        carry_outputs(v, tmp)
        for k in range(acc.shape[0]):
            acc[k] += sign * tmp[k]
    else:
        for k in range(acc.shape[0]):
            acc[k] += sign * v[k]


@njit(cache=True)
def _luck_choices(net, pos, out_pos, out_mv, ws, b, tmp, s, o, q, act, chosen) -> None:
    """The luck adjustment's look one ply deeper from ``pos`` (side on roll): for each of the 21 rolls of
    :data:`ROLLS` the net's 1-ply choice ``chosen[r]`` and its outputs for the mover ``act[r]``
    (:func:`_mover_outputs`), and ``q`` their mean over the 36 rolls."""
    n_out = q.shape[0]
    q[:] = 0.0
    for r in range(21):
        n = gen_afterstates(pos, ROLLS[r, 0], ROLLS[r, 1], out_pos, out_mv, ws)
        k = choose_sym_1ply(net, out_pos, n, b)
        _mover_outputs(net, out_pos[k], tmp, s, o)
        w = ROLL_WEIGHTS[r] / 36.0
        for c in range(n_out):
            q[c] += w * o[c]
        act[r] = o
        chosen[r] = out_pos[k]


@njit(cache=True)
def rollout_position(net, stop_bo, pos0, seed, index, trials, truncate, vr_plies, est, plies) -> None:
    """Play ``pos0`` (side on roll's view, before its roll) out ``trials`` times by the :class:`SymNet` ``net``
    greedy at 1-ply for both sides (see the module docstring): ``est[t]`` the outputs estimated by play-out ``t`` in
    the root's frame, ``plies[t]`` its length.  ``index`` is the position's number in the run: its dice are streams
    ``(seed, index · (trials + 1) + t)`` and, for the two orders of the first rolls, ``… + trials``.  ``stop_bo``:
    the bear-off table a play-out stops at (empty: none; a bear-off ``pos0`` is then its table value, every play-out
    of length 0); ``truncate`` 0 plays to the end."""
    n_out = est.shape[1]
    out_pos, out_mv, ws, _, pos, tmp = new_board()
    b = sym_buffers(net)
    s = b.s
    chosen = np.zeros(NSLOT, np.int8)
    o, q, act, scratch = np.zeros(n_out), np.zeros(n_out), np.zeros(n_out), np.zeros(n_out)
    base = index * (trials + 1)
    first = seed_state(seed, base + trials)
    perm0, perm1 = np.zeros(36, np.int64), np.zeros(36, np.int64)
    _shuffled36(first, perm0)
    _shuffled36(first, perm1)
    if stop_bo.shape[0] and is_bearoff(pos0):  # the table's value is the rollout's, exactly
        bearoff_probabilities(stop_bo, pos0, o)
        for t in range(trials):
            est[t] = o
            plies[t] = 0
        return
    # The luck adjustment's 21 choices at the root are the same in every play-out: made once (the same bits).
    root_q = np.zeros(n_out)
    root_act = np.zeros((21, n_out))
    root_chosen = np.zeros((21, NSLOT), np.int8)
    ply_act, ply_chosen = np.zeros((21, n_out)), np.zeros((21, NSLOT), np.int8)
    if vr_plies > 0:
        _luck_choices(net, pos0, out_pos, out_mv, ws, b, tmp, s, o, root_q, root_act, root_chosen)
    for t in range(trials):
        dice = seed_state(seed, base + t)
        pos[:] = pos0
        e = est[t]
        e[:] = 0.0
        ply = 0
        while True:
            if ply == 0:
                r = perm0[t % 36]
                d1, d2 = r // 6 + 1, r % 6 + 1
            elif ply == 1:
                r = perm1[(t + t // 36) % 36]
                d1, d2 = r // 6 + 1, r % 6 + 1
            else:
                d1, d2 = roll(dice)
            ri = _roll_index(d1, d2)
            odd = ply % 2 == 1
            if ply < vr_plies:  # the 21 rolls' choices: their mean, and the one the dice gave
                if ply == 0:
                    q[:] = root_q
                    act[:] = root_act[ri]
                    chosen[:] = root_chosen[ri]
                else:
                    _luck_choices(net, pos, out_pos, out_mv, ws, b, tmp, s, o, q, ply_act, ply_chosen)
                    act[:] = ply_act[ri]
                    chosen[:] = ply_chosen[ri]
                _add_rooted(e, act, odd, -1.0, scratch)  # the luck: what the roll gave, minus its mean
                _add_rooted(e, q, odd, 1.0, scratch)
            else:
                n = gen_afterstates(pos, ROLLS[ri, 0], ROLLS[ri, 1], out_pos, out_mv, ws)
                chosen[:] = out_pos[choose_sym_1ply(net, out_pos, n, b)]
            ply += 1
            if chosen[OFF] == 15:
                _mover_outputs(net, chosen, tmp, s, o)
                _add_rooted(e, o, odd, 1.0, scratch)
                break
            flip(chosen, pos)  # the next side on roll, at ply `ply` from the root
            odd = ply % 2 == 1
            if stop_bo.shape[0] and is_bearoff(pos):
                bearoff_probabilities(stop_bo, pos, o)
                _add_rooted(e, o, odd, 1.0, scratch)
                break
            if ply == truncate:
                evaluate(net.arch, net.W1, net.W2, net.bo, pos, s.idx, s.val, s.g, s.z, s.p)
                _add_rooted(e, s.p, odd, 1.0, scratch)
                break
        plies[t] = ply


def _chunk(task: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One task of :func:`rollout_targets`: (mean outputs, standard error of the equity, mean plies) of its
    positions."""
    code, W1, W2, bearoff, stop, positions, seed, first, spec = task
    net = SymNet(int(code), W1, W2, combined_cached() if bearoff else NO_TABLE)
    stop = combined_cached() if stop else NO_TABLE  # the tables are made once in each worker, not shipped
    n_out = W2.shape[1]
    trials, truncate, vr_plies = spec
    est = np.zeros((trials, n_out))
    plies = np.zeros(trials, np.int64)
    mean = np.zeros((len(positions), n_out))
    se = np.zeros(len(positions))
    mean_plies = np.zeros(len(positions))
    for i, pos in enumerate(positions):
        rollout_position(net, stop, pos, seed, first + i, trials, truncate, vr_plies, est, plies)
        mean[i] = est.mean(axis=0)
        eq = np.array([equity(x) for x in est])
        se[i] = eq.std(ddof=1) / np.sqrt(trials)
        mean_plies[i] = plies.mean()
    return mean, se, mean_plies


def check_positions(positions: Any) -> np.ndarray:
    """``positions`` as an ``(n, 28)`` int8 array of boards in play (side on roll's view: 15 checkers a side, on the
    points, the bar or off, none of them all off); ValueError naming the first that is not."""
    p = np.asarray(positions)
    if p.ndim != 2 or p.shape[1] != NSLOT or p.dtype != np.int8:
        raise ValueError(f"positions must be an (n, {NSLOT}) int8 array of boards, got {p.dtype} {p.shape}")
    board = p[:, :26].astype(np.int64)
    mine = np.where(board > 0, board, 0).sum(axis=1) + p[:, OFF]
    theirs = np.where(board < 0, -board, 0).sum(axis=1) - p[:, OPP_OFF]
    bad = np.flatnonzero((mine != 15) | (theirs != 15) | (p[:, OFF] >= 15) | (p[:, OPP_OFF] <= -15))
    if len(bad):
        i = int(bad[0])
        raise ValueError(f"position {i} is not a board in play (15 checkers a side, neither side all off): "
                         f"{p[i].tolist()}")  # fmt: skip
    return p


def rollout_targets(
    model: SymmetricGammon,
    positions: np.ndarray,
    spec: RolloutSpec,
    seed: int,
    first: int = 0,
    chunk: int = 64,
    progress: bool = True,
) -> dict[str, np.ndarray]:
    """Roll out each of ``positions`` (``(n, 28)`` int8, side on roll's view) by ``model`` as ``spec`` says (module
    docstring), position ``i`` numbered ``first + i`` for its dice; in chunks of ``chunk`` positions through
    :func:`~tdbook.core.parallel.map_tasks`.  ``{"targets": (n, outputs) mean estimates, "se": the standard error of
    each position's equity estimate, "plies": mean play-out length}``.  ValueError for a bad spec, positions that
    are not boards in play (:func:`check_positions`)."""
    spec.check()
    positions = check_positions(positions)
    if not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise ValueError(f"chunk must be an int >= 1, got {chunk!r}")
    net = sym_net(model)
    code = net.arch | (FAST if spec.fast else 0) | (FROM_BASE if spec.from_base else 0)
    tasks = [
        (code, net.W1, net.W2, model.bearoff, spec.bearoff_stop, positions[s : s + chunk], int(seed), int(first) + s,
         (spec.trials, spec.truncate, spec.vr_plies))
        for s in range(0, len(positions), chunk)
    ]  # fmt: skip
    parts = map_tasks(_chunk, tasks, desc="rollouts", progress=progress)
    n_out = model.outputs
    if not parts:
        return {"targets": np.zeros((0, n_out)), "se": np.zeros(0), "plies": np.zeros(0)}
    return {
        "targets": np.concatenate([p[0] for p in parts]),
        "se": np.concatenate([p[1] for p in parts]),
        "plies": np.concatenate([p[2] for p in parts]),
    }
