"""Issue 51's opt-in rollout mode: afterstates valued from a base (GNU Backgammon's evaluation from a base).

:func:`score_afterstates_from_base` carries each afterstate's hidden sums over from the afterstate valued before it,
adding only the rows of the inputs that changed.  Pinned here: its scores equal :func:`score_afterstates`' to 1e-12
for every roll of hundreds of positions, for free, symmetric and naive nets, a race and contact pair and a net
with the bear-off table, with the same scratch carried across positions and nets; the greedy choice through
:func:`choose_sym_1ply` is the plain one; rollouts with ``from_base`` are the plain rollouts (the same play-outs,
targets to 1e-9) and the same seed gives the same bytes.  The kernels' NumPy error model (no zero-division checks,
so the hidden units' loops vectorize) does not change what the plain evaluations compute — their divisors are never
zero — and the shipped records' samples measured again (``tests/test_backgammon_records.py``) still agree with
their records."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.experiments.backgammon.match import sample_positions
from tdbook.experiments.backgammon.rollout_targets import RolloutSpec, rollout_targets
from tdbook.games import backgammon as bg
from tdbook.learners import backgammon_symmetric as sym
from tdbook.learners.backgammon_net import ROLLS
from tdbook.learners.backgammon_symmetric import SymmetricGammon
from tdbook.players.backgammon_symmetric import choose_sym_1ply, sym_buffers, sym_net


def _net(kind: str, seed: int = 2) -> SymmetricGammon:
    if kind == "free-positional":
        m = SymmetricGammon.new("free", 16, inputs="positional", backgammons=True, seed=seed)
    elif kind == "pair-bearoff":
        m = SymmetricGammon.new("free", 16, inputs="contact", seed=seed).with_bearoff().split()
    else:
        m = SymmetricGammon.new(kind, 12, inputs="expanded", seed=seed)
    m.train(1, 0, 20, 0.1)  # weights off their start (a pair's two nets apart), so every input row counts
    return m


NETS = {k: _net(k) for k in ("free-positional", "symmetric", "naive", "pair-bearoff")}


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    ps, _ = sample_positions(16, seed=5, every=3)
    return ps


def _scores(m: SymmetricGammon, net, b, pos: np.ndarray, fast: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """(plain scores, scores from a base) of each of the 21 rolls' afterstates of ``pos``."""
    out, mv, ws = bg.make_buffers()
    arch = net.arch | (sym.FAST if fast else 0)
    s, e = b.s, b.base
    res = []
    for r in range(21):
        n = bg.gen_afterstates(pos, ROLLS[r, 0], ROLLS[r, 1], out, mv, ws)
        plain, based = np.zeros(n), np.zeros(n)
        sym.score_afterstates(arch, net.W1, net.W2, net.bo, out, n, plain, b.tmp, s.idx, s.val, s.g, s.z, s.p)
        sym.score_afterstates_from_base(arch, net.W1, net.W2, net.bo, out, n, based, b.tmp, s.idx, s.val, s.g, s.z,
                                        s.p, e.x, e.mark, e.h, e.bidx, e.state)  # fmt: skip
        res.append((plain, based))
    return res


@pytest.mark.parametrize("kind", list(NETS))
def test_scores_from_a_base_are_the_plain_scores(positions, kind):
    m = NETS[kind]
    net = sym_net(m)
    b = sym_buffers(net)  # one scratch for every position: what a base keeps between calls must not leak
    worst, seen = 0.0, 0
    for i, p in enumerate(positions):
        for plain, based in _scores(m, net, b, p, fast=i % 2 == 1):
            worst = max(worst, float(np.max(np.abs(plain - based))))
            seen += len(plain)
    assert seen > 10_000 and worst < 1e-12


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(list(NETS)))
def test_the_choice_from_a_base_is_the_plain_choice(seed, kind):
    m = NETS[kind]
    net = sym_net(m)
    based = net._replace(arch=net.arch | sym.FROM_BASE)
    b, b2 = sym_buffers(net), sym_buffers(based)
    ps, _ = sample_positions(1, seed=seed, every=3)
    out, mv, ws = bg.make_buffers()
    for p in ps:
        for r in range(21):
            n = bg.gen_afterstates(p, ROLLS[r, 0], ROLLS[r, 1], out, mv, ws)
            k = choose_sym_1ply(net, out, n, b)
            s = b.scores[:n].copy() if n > 1 else np.zeros(1)
            k2 = choose_sym_1ply(based, out, n, b2)
            top = np.sort(s)[-2:] if n > 1 else np.array([0.0, 1.0])
            if top[1] - top[0] > 1e-9:  # no near-tie: the two must agree
                assert k == k2


def test_rollouts_from_a_base_are_the_plain_rollouts(positions):
    m = NETS["free-positional"]
    contact = np.array([p for p in positions if not bg.is_race(p)])[:12]
    for fast in (False, True):
        plain = rollout_targets(m, contact, RolloutSpec(6, 6, 2, True, fast), seed=3, progress=False)
        based = rollout_targets(m, contact, RolloutSpec(6, 6, 2, True, fast, True), seed=3, progress=False)
        again = rollout_targets(m, contact, RolloutSpec(6, 6, 2, True, fast, True), seed=3, progress=False)
        assert all(np.array_equal(based[k], again[k]) for k in based)
        assert np.array_equal(based["plies"], plain["plies"])  # the same play-outs
        assert np.max(np.abs(based["targets"] - plain["targets"])) < 1e-9
    with pytest.raises(ValueError, match="from_base must be True or False"):
        RolloutSpec(from_base="yes").check()
