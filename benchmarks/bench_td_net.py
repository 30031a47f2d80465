"""TD(λ) net speed: forward + backward (trace) + update steps per second, one core.

Sizes: 20-8-1 (tic-tac-toe, notebook 07) and 198-80-4 with ~30 active inputs (TD-Gammon,
notebook 08). Run: ``.venv/bin/python benchmarks/bench_td_net.py``.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from tdbook.learners.td_net import TDNet, Units, start_episode, td_step


@njit(cache=True)
def _loop(W1, W2, eW1, eW2, idx, val, nnz, steps, alpha, beta, decay, units, h, o):
    delta = np.empty(W2.shape[1])
    n_states = idx.shape[0]
    start_episode(W1, W2, eW1, eW2, idx[0], val[0], nnz[0], units, h, o)
    for t in range(steps):
        s = (t + 1) % n_states
        for k in range(delta.shape[0]):
            delta[k] = 0.001 * (o[k] - 0.5)
        td_step(W1, W2, eW1, eW2, delta, idx[s], val[s], nnz[s], alpha, beta, decay, units, h, o)


def bench(n_in: int, n_hidden: int, n_out: int, active: int, steps: int) -> float:
    rng = np.random.default_rng(0)
    net = TDNet(n_in, n_hidden, n_out, alpha=0.01, lam=0.7, seed=1)
    states = 256
    idx = np.zeros((states, active), np.int64)
    val = np.ones((states, active))
    for s in range(states):
        idx[s] = np.sort(rng.choice(n_in, active, replace=False))
    nnz = np.full(states, active, np.int64)
    args = (net.W1, net.W2, net.eW1, net.eW2, idx, val, nnz)
    hyper = (net.alpha, net.beta, net.decay, Units(1.0, net.hact, net.oact, 0), net.h, net.o)
    _loop(*args, 10, *hyper)  # compile / load from cache
    t0 = time.perf_counter()
    _loop(*args, steps, *hyper)
    return steps / (time.perf_counter() - t0)


if __name__ == "__main__":
    for n_in, n_hidden, n_out, active, steps in (
        (20, 8, 1, 9, 2_000_000),
        (198, 40, 1, 30, 100_000),
        (198, 80, 4, 30, 40_000),
    ):
        rate = bench(n_in, n_hidden, n_out, active, steps)
        print(
            f"TD(λ) net {n_in}-{n_hidden}-{n_out}, {active} active inputs: {rate:,.0f} steps/s "
            f"(forward + trace + update)"
        )
