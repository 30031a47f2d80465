"""Benchmark: Kenju games per second and moves per second (Kenju thesis §4.7.1: 7.5 minutes of computing per 10-game
test point; issue 18 target: MAX vs MAX ≥ 2,000 games/s on one core with the full attention-chain search at Fig.
4.23's settings, and System 3 training with the automated teacher at a comparable rate).

Plain script, not a timed test:  .venv/bin/python benchmarks/bench_kenju.py [--games N]
"""

from __future__ import annotations

import argparse
import time

import numba

from tdbook.experiments.kenju.play import match, train
from tdbook.experiments.kenju.ram import system1_run
from tdbook.players.kenju import FIG_4_7, learner, max_player, null_player


def best_of(fn, reps: int = 3) -> tuple[float, int, int]:
    """(seconds, games, moves) of the fastest of ``reps`` runs (after one warm-up that loads the compiled kernels)."""
    fn(small=True)
    best = None
    for _ in range(reps):
        t0 = time.perf_counter()
        games, moves = fn(small=False)
        dt = time.perf_counter() - t0
        if best is None or dt < best[0]:
            best = (dt, games, moves)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per measurement (default 20,000)")
    a = ap.parse_args()
    numba.set_num_threads(1)
    n = a.games
    print(f"Kenju, {n:,} games per measurement (training: {20 * n:,} moves of the learner), 1 thread")

    def max_vs_max(small: bool):
        g = match(max_player(), max_player(), 20 if small else n, seed=1)
        return g.n, int(g.lengths.sum())

    def max_vs_max_fig47(small: bool):
        m = max_player(FIG_4_7)
        g = match(m, m, 20 if small else n, seed=1)
        return g.n, int(g.lengths.sum())

    def train_vs_max(small: bool):
        g = train(learner("W"), max_player(), 200 if small else 20 * n, seed=2)
        return g.n, int(g.lengths.sum())

    def train_both(small: bool):
        g = train(learner("W"), learner("B"), 200 if small else 20 * n, seed=3, record=(True, True))
        return g.n, int(g.lengths.sum())

    def null_vs_null(small: bool):
        g = match(null_player(), null_player(), 20 if small else n, seed=4)
        return g.n, int(g.lengths.sum())

    def system1_vs_max(small: bool):
        r = system1_run(5 if small else max(1, n // 10), seed=5)
        return r.results.size, 0

    jobs = [
        ("MAX vs MAX, Fig. 4.23 search (MAXDEADENDS 5, NODEPATIENCE 4, effect A) — target ≥ 2,000 games/s", max_vs_max),
        ("MAX vs MAX, Fig. 4.7 search (MAXDEADENDS 3, NODEPATIENCE 12, effect B)", max_vs_max_fig47),
        ("System 3 learning vs MAX, MAX teaching (Fig. 4.22/4.23)", train_vs_max),
        ("two System 3 learners against each other (scheme 5)", train_both),
        ("NULL vs NULL (every line tied)", null_vs_null),
        ("System 1 (RAM net) learning vs MAX", system1_vs_max),
    ]
    for name, fn in jobs:
        dt, games, moves = best_of(fn)
        extra = f"   {moves / dt:>11,.0f} moves/s" if moves else ""
        print(f"{name:<100} {games / dt:>9,.0f} games/s{extra}")
    thesis = 10 / (7.5 * 60)
    dt, games, _ = best_of(max_vs_max_fig47)
    print(f"the thesis: {thesis:.3f} games/s (10 test games in 7.5 min); here {games / dt / thesis:,.0f}× that")


if __name__ == "__main__":
    main()
