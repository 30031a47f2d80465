"""Tic-tac-toe TD-net training speed (notebook 07), one core: self-play games/s, and the TD(λ) net's
forward + backward (trace) + update steps/s at the TD-Gammon size (198-80-4, ~30 active inputs).

Run: ``.venv/bin/python benchmarks/bench_tictactoe_net.py``.  The issue's target: ≥ 20,000 self-play
games/s for the thesis's 20-8-1 net.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numba

from tdbook.experiments.tictactoe.net_training import Training, train

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_td_net import bench as bench_steps  # noqa: E402  (the shared net's own step benchmark)

CASES = [
    ("v1.0 thesis mode, 20-8-1 (the thesis's net)", dict(version="v1.0", fixes="thesis")),
    ("v3.0 thesis mode, 20-8-1", dict(version="v3.0", fixes="thesis")),
    ("v3.0 all fixes, 18-8-1", dict(version="v3.0", fixes="fixed")),
    (
        "negamax self-play net, 18-80-1 (notebook 07 §7)",
        dict(
            version="v3.0",
            fixes="fixed",
            target="negamax",
            hidden=80,
            activation="tanh",
            init=0.5,
            alpha=0.05,
            beta=0.01,
            epsilon=0.3,
        ),
    ),
]


def games_per_second(kw: dict, games: int, repeats: int = 3) -> float:
    train(Training().but(games=1000, **kw), progress=False)  # compile / load from cache
    best = 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        train(Training().but(games=games, seed=r, **kw), progress=False)
        best = max(best, games / (time.perf_counter() - t0))
    return best


if __name__ == "__main__":
    numba.set_num_threads(1)
    for label, kw in CASES:
        n = 100_000 if kw.get("hidden", 8) <= 8 else 20_000
        print(f"{label}: {games_per_second(kw, n):,.0f} self-play games/s (best of 3 × {n:,})")
    rate = bench_steps(198, 80, 4, 30, 40_000)
    print(f"TD(λ) net 198-80-4, 30 active inputs: {rate:,.0f} forward + backward + update steps/s")
