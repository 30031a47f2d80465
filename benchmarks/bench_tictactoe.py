"""Benchmark: tic-tac-toe games per second (Powell (2000) §6.1–6.2; issue 4 target ≥ 500k games/s per core for
TD(λ) table training — 300× the ~1,560 games/s of the Sutton & Barto companion self-play trainer).

Plain script, not a timed test:  .venv/bin/python benchmarks/bench_tictactoe.py [--games N]
"""

from __future__ import annotations

import argparse
import time

import numba

from tdbook.experiments.tictactoe.table_training import Training, train
from tdbook.learners.tictactoe_table import empty_table
from tdbook.players.tictactoe import match, perfect_player, random_player, table_player


def best_of(fn, reps: int = 3) -> float:
    fn(1000)  # compile / load the cache
    t = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn(None)
        t = min(t, time.perf_counter() - t0)
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_500_000, help="games per measurement (default 1.5 M)")
    a = ap.parse_args()
    numba.set_num_threads(1)
    n = a.games
    print(f"tic-tac-toe, {n:,} games per measurement, 1 thread")

    def td_vs_random(k, rule="thesis"):
        g = k or n
        train(
            random_player(),
            table_player(empty_table(), rule, epsilon=0.05),
            (False, True),
            Training(g, chunk=min(500_000, g)),
            progress=False,
        )

    def self_play(k):
        g = k or n
        train(
            table_player(empty_table(), "corrected", epsilon=0.05),
            table_player(empty_table(), "corrected", epsilon=0.05),
            (True, True),
            Training(g, chunk=min(500_000, g)),
            progress=False,
        )

    jobs = [
        ("TD(λ) thesis O learning vs random X (App. B, 3 × 500k chunks)", td_vs_random),
        ("TD(λ) corrected self-play, both tables learning", self_play),
        (
            "random vs random (match, no learning)",
            lambda k: match(random_player(), random_player(), k or n, progress=False),
        ),
        (
            "perfect vs random (match, no learning)",
            lambda k: match(perfect_player(), random_player(), k or n, progress=False),
        ),
    ]
    for name, fn in jobs:
        t = best_of(fn)
        print(f"  {name:62s} {n / t / 1e6:6.2f} M games/s ({n / t / 1560:,.0f}× 1,560 games/s)")


if __name__ == "__main__":
    main()
