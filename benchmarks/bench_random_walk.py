"""Benchmark: random-walk episodes per second (Powell (2000) §4.3; issue 3 target ≥ 7 M episodes/s per core
for TD(0) at 5 states; a pure-Python loop manages ~73,000).

Plain script, not a timed test:  .venv/bin/python benchmarks/bench_random_walk.py [--threads N]
"""

from __future__ import annotations

import argparse
import time

import numba

from tdbook.learners.random_walk import Learner, run_many


def rate(method: str, trace: str, lam: float, runs: int, episodes: int, start: str, reps: int = 3) -> float:
    learner = Learner(method, 0.1, lam, trace, start)
    run_many(learner, runs=2, episodes=10, record="rms")  # compile / load cache
    best = float("inf")
    for rep in range(reps):
        t = time.perf_counter()
        run_many(learner, runs=runs, episodes=episodes, seed=rep, record="rms")
        best = min(best, time.perf_counter() - t)
    return runs * episodes / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1, help="numba threads (default 1: per-core rate)")
    ap.add_argument("--episodes", type=int, default=2_000_000, help="episodes per configuration")
    a = ap.parse_args()
    numba.set_num_threads(a.threads)
    runs = 100
    eps = max(1, a.episodes // runs)
    print(f"random walk, 5 states, {runs} runs x {eps} episodes, {a.threads} thread(s), RMS recorded per episode")
    for method, trace, lam, start in [
        ("td0", "standard", 0.0, "C"),
        ("td0", "standard", 0.0, "D"),
        ("mc", "standard", 0.0, "C"),
        ("tdlambda", "standard", 0.5, "C"),
        ("tdlambda", "thesis", 0.5, "D"),
        ("tdlambda", "replacing", 0.5, "C"),
    ]:
        r = rate(method, trace, lam, runs, eps, start)
        name = method if method != "tdlambda" else f"td(λ=0.5) {trace}"
        print(f"  {name:24s} start {start}: {r / 1e6:7.2f} M episodes/s ({r / a.threads / 1e6:.2f} M per core)")


if __name__ == "__main__":
    main()
