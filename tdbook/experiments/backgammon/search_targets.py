"""The net's own 2-ply search as a training target (issue 51: targets from stronger play than its 1-ply).

The rollout loop's targets (:mod:`.rollout_targets`) are the net's own 1-ply play, and after two iterations they
stopped teaching it (notebook 10 §10: the gap to its rollouts fell, then flattened, and no strength came).  Played at
2 plies the same net is about 0.1 ppg stronger against gnubg-expert than at 1 ply (notebook 10 §3), so its 2-ply
value of a position is a target from stronger play, still its own (self-play only: gnubg never enters).

The **2-ply value** of a position (side on roll's view, before its roll) is the mean over the 21 rolls (weighted
1/36 or 2/36) of the outputs after the side's 2-ply move, which is the move :func:`~tdbook.players.backgammon_symmetric.
choose_2ply` plays: the ``keep`` best afterstates by 1-ply score, each re-valued one ply deeper — the mean over the
opponent's 21 rolls of the outputs after its greedy 1-ply reply
(:func:`~tdbook.learners.backgammon_symmetric.lookahead_outputs`, carried back into the mover's frame) — and the
best of them by cubeless equity (first of equals).  A move that bears off the last checker is worth its result
exactly; a bear-off position of a net with the exact one-sided table at play is worth the table's probabilities.
The value is a vector of all the net's outputs, so a net is fitted to all of them at once, as to its rollouts; it
is deterministic (no dice), so its targets have no noise.

Cost: about ``21 · (20 + keep · 21 · 21)`` evaluations a position (75,000 at ``keep`` 8), a little more than the
rollout loop's twelve 10-ply play-outs with their luck taken out; ``benchmarks/bench_rollouts.py`` prints the
positions per core-hour.  :func:`search_targets` is the façade: positions in chunks through
:func:`tdbook.core.parallel.map_tasks` (both cores under a Dask client), the same bytes with any number of workers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numba import njit

from ...core.parallel import map_tasks
from ...games.backgammon import MAX_AFTER, NSLOT, OFF, WS_SIZE, flip, gen_afterstates
from ...games.backgammon_bearoff import NO_TABLE, combined_cached, is_bearoff
from ...games.backgammon_bearoff import probabilities as bearoff_probabilities
from ...learners.backgammon_net import ROLL_WEIGHTS, ROLLS
from ...learners.backgammon_symmetric import (
    FAST,
    MAX_NNZ,
    SymmetricGammon,
    equity,
    lookahead_outputs,
    score_afterstates,
)
from ...players.backgammon import best_first
from ...players.backgammon_symmetric import sym_net
from .rollout_targets import carry_outputs, check_positions, result_outputs


@dataclass(frozen=True)
class SearchSpec:
    """How a position's 2-ply value is searched: the ``keep`` best moves of each roll by 1-ply score re-valued one
    ply deeper; with ``fast`` the hidden units use :func:`~tdbook.learners.backgammon_symmetric.tanh_fast` (within
    3e-7 of tanh)."""

    keep: int = 8
    fast: bool = False

    def check(self) -> SearchSpec:
        if not isinstance(self.keep, (int, np.integer)) or isinstance(self.keep, bool) or self.keep < 1:
            raise ValueError(f"keep must be an int >= 1, got {self.keep!r}")
        if not isinstance(self.fast, bool):
            raise ValueError(f"fast must be True or False, got {self.fast!r}")
        return self

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@njit(cache=True)
def search_outputs(arch, W1, W2, bo, pos, keep, q) -> None:
    """``q`` ← the 2-ply value of ``pos`` (side on roll's view, before its roll; module docstring) by the net
    ``arch, W1, W2`` with the bear-off table ``bo`` (empty: none): a vector of its outputs."""
    n_out = q.shape[0]
    q[:] = 0.0
    if bo.shape[0] and is_bearoff(pos):
        bearoff_probabilities(bo, pos, q)
        return
    out = np.zeros((MAX_AFTER, NSLOT), np.int8)
    mv = np.full((MAX_AFTER, 8), -1, np.int8)
    ws = np.zeros(WS_SIZE, np.int64)
    out2 = np.zeros((MAX_AFTER, NSLOT), np.int8)
    mv2 = np.full((MAX_AFTER, 8), -1, np.int8)
    ws2 = np.zeros(WS_SIZE, np.int64)
    scores, scores2 = np.zeros(MAX_AFTER), np.zeros(MAX_AFTER)
    order = np.zeros(MAX_AFTER, np.int64)
    tmp, tmp2 = np.zeros(NSLOT, np.int8), np.zeros(NSLOT, np.int8)
    idx, val = np.zeros(MAX_NNZ, np.int64), np.zeros(MAX_NNZ)
    g, z, p = np.zeros(W1.shape[1]), np.zeros(n_out), np.zeros(n_out)
    deeper, vec, best = np.zeros(n_out), np.zeros(n_out), np.zeros(n_out)
    for r in range(21):
        n = gen_afterstates(pos, ROLLS[r, 0], ROLLS[r, 1], out, mv, ws)
        if n > 1:
            score_afterstates(arch, W1, W2, bo, out, n, scores, tmp, idx, val, g, z, p)
            m = best_first(scores, n, keep, order)
        else:
            m = 1
            order[0] = 0
        bv = -1e300
        for c in range(m):
            a = out[order[c]]
            if a[OFF] == 15:
                result_outputs(a, vec)
            else:
                flip(a, tmp)  # the opponent on roll: its value one ply deeper, carried into the mover's frame
                lookahead_outputs(arch, W1, W2, bo, tmp, out2, mv2, ws2, scores2, tmp2, idx, val, g, z, p, deeper)
                carry_outputs(deeper, vec)
            e = equity(vec)
            if e > bv:
                bv = e
                best[:] = vec
        w = ROLL_WEIGHTS[r] / 36.0
        for k in range(n_out):
            q[k] += w * best[k]


def _chunk(task: tuple) -> np.ndarray:
    """One task of :func:`search_targets`: the 2-ply values of its positions."""
    code, W1, W2, bearoff, positions, keep = task
    bo = combined_cached() if bearoff else NO_TABLE  # made once in each worker, not shipped
    out = np.zeros((len(positions), W2.shape[1]))
    for i, pos in enumerate(positions):
        search_outputs(int(code), W1, W2, bo, pos, keep, out[i])
    return out


def search_targets(
    model: SymmetricGammon, positions: np.ndarray, spec: SearchSpec, chunk: int = 16, progress: bool = True
) -> dict[str, np.ndarray]:
    """The 2-ply value (module docstring) of each of ``positions`` (``(n, 28)`` int8, side on roll's view) by
    ``model``, in chunks of ``chunk`` positions through :func:`~tdbook.core.parallel.map_tasks`: ``{"targets": (n,
    outputs), "se": zeros (a search has no noise), "plies": 2 each}`` — the shape of
    :func:`~.rollout_targets.rollout_targets`' answer.  ValueError for a bad spec or chunk, positions that are not
    boards in play."""
    spec.check()
    positions = check_positions(positions)
    if not isinstance(chunk, (int, np.integer)) or isinstance(chunk, bool) or chunk < 1:
        raise ValueError(f"chunk must be an int >= 1, got {chunk!r}")
    net = sym_net(model)
    code = net.arch | (FAST if spec.fast else 0)
    tasks = [(code, net.W1, net.W2, model.bearoff, positions[s : s + chunk], int(spec.keep))
             for s in range(0, len(positions), chunk)]  # fmt: skip
    parts = map_tasks(_chunk, tasks, desc="2-ply searches", progress=progress)
    targets = np.concatenate(parts) if parts else np.zeros((0, model.outputs))
    return {"targets": targets, "se": np.zeros(len(targets)), "plies": np.full(len(targets), 2.0)}
