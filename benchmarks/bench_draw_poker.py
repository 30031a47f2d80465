"""Benchmark: rounds of play per second between two rule programs (Waterman (1968) §5.2; issue 6 target ≥ 50,000
r-o-ps/s on one core), plus hand ranking (hands/s) and duplicate proficiency tests (tests/s).

Plain script, not a timed test:  .venv/bin/python benchmarks/bench_draw_poker.py [--threads N] [--rounds R]
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from tdbook.experiments.draw_poker.matches import match, proficiency
from tdbook.experiments.draw_poker.training import train_explicit, train_implicit
from tdbook.games import draw_poker as dp
from tdbook.learners.draw_poker_heuristics import built_in
from tdbook.players.draw_poker import equity_player, experienced, program_player


def best_of(fn, reps: int = 3) -> float:
    fn()  # compile / load the cache
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1, help="numba threads (default 1: per-core rate)")
    ap.add_argument("--rounds", type=int, default=200_000, help="r-o-ps per match")
    a = ap.parse_args()
    numba.set_num_threads(a.threads)
    builtin = program_player(built_in(), "built-in")
    trainee = program_player(train_explicit(1).program, "automatic trainee")
    implicit = program_player(train_implicit(1).program, "implicit trainee", classes="implicit")
    print(f"draw poker, {a.rounds} r-o-ps per match, {a.threads} thread(s)")
    for p0, p1 in [
        (builtin, builtin),
        (builtin, trainee),
        (trainee, implicit),
        (builtin, experienced()),
        (builtin, equity_player()),
    ]:
        decisions = [0]

        def run() -> None:
            _, decisions[0] = match(p0, p1, a.rounds, seed=7)  # noqa: B023 - called in this iteration

        t = best_of(run)
        print(
            f"  {p0.name:18s} vs {p1.name:22s}: {a.rounds / t:10,.0f} r-o-ps/s "
            f"({decisions[0] / t:10,.0f} bet decisions/s)"
        )
    hands = np.argsort(np.random.default_rng(0).random((200_000, 52)), axis=1)[:, :5].astype(np.int64)

    @numba.njit(cache=True)
    def rank_all(h: np.ndarray) -> int:
        s = 0
        for i in range(h.shape[0]):
            s += dp.vdhand(h[i])
        return s

    t = best_of(lambda: rank_all(hands))
    print(f"  hand ranking + VDHAND: {hands.shape[0] / t:,.0f} hands/s")
    reps = 2000
    t = best_of(lambda: proficiency(builtin, experienced(), reps, seed=3), reps=2)
    print(f"  duplicate proficiency tests (2 × 25 r-o-ps): {reps / t:,.0f} tests/s")


if __name__ == "__main__":
    main()
