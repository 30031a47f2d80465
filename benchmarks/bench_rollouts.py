"""Notebook 09 §4.5's rollout speed, one core: play-outs per second of a shipped net playing contact positions from
its own self-play to the end against itself, greedy at 1-ply
(:func:`tdbook.experiments.backgammon.rollout_consistency.rollout_results`).  The best of ``--repeat`` timings is
kept (the least disturbed by other work on the machine).
Run: ``.venv/bin/python benchmarks/bench_rollouts.py``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tdbook.experiments.backgammon import rollout_consistency as rc
from tdbook.experiments.backgammon.symmetric_gammon import best_shipped, load_shipped
from tdbook.players.backgammon_symmetric import sym_net


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nets", nargs="+", default=[*rc.CONSISTENCY_NETS, best_shipped()])
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    for name in a.nets:
        model = load_shipped(name)
        net = sym_net(model)
        positions = rc.contact_positions(model, a.positions, seed=1)
        res = np.zeros(a.trials, np.int64)
        rc.rollout_results(net, positions[0], 0, 0, res[:2], 3)  # compile / load cache
        best = float("inf")
        for k in range(a.repeat):
            t = time.perf_counter()
            for i, p in enumerate(positions):
                rc.rollout_results(net, p, 1 + k, i * a.trials, res, 3)
            best = min(best, time.perf_counter() - t)
        n = a.positions * a.trials
        print(f"{name:48s} {n / best:8.0f} play-outs/s  ({n:,} play-outs from {a.positions} contact positions)")


if __name__ == "__main__":
    main()
