"""Full move-generation cross-check of tdbook's backgammon engine against GNU Backgammon.

Positions come from recorded games — half random play, half pubeval play — sampled every
few plies; every position is checked with all 21 rolls (see
:func:`tdbook.games.backgammon_gnubg.crosscheck`: move counts for every position and roll,
resulting positions for gnubg's complete move tuples, and gnubg's best score against our
afterstates when a tuple was cut at a bear-off).

Run: ``.venv/bin/python benchmarks/crosscheck_backgammon_gnubg.py --positions 2000``
(exit status 1 on any mismatch).  The normal test suite runs a small sample of this.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

import numpy as np
from tqdm.auto import tqdm

from tdbook.experiments.backgammon_match import sample_positions
from tdbook.games.backgammon import make_buffers
from tdbook.games.backgammon_gnubg import crosscheck
from tdbook.players.backgammon import KIND_PUBEVAL, KIND_RANDOM, load_pubeval_weights

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def positions(n: int, seed: int) -> np.ndarray:
    """About ``n`` distinct positions: n/2 from random-play games, n/2 from pubeval-play games."""
    w = load_pubeval_weights()
    out = []
    for kind, s in ((KIND_RANDOM, seed), (KIND_PUBEVAL, seed + 1)):
        games = max(4, n // 60)
        while True:
            p, _ = sample_positions(games, seed=s, kind0=kind, kind1=kind, w=w, every=3)
            p = np.unique(p, axis=0)
            if len(p) >= (n + 1) // 2:
                break
            games *= 2
        rng = np.random.default_rng(s)
        out.append(p[rng.permutation(len(p))[: (n + 1) // 2]])
    return np.concatenate(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    P = positions(a.positions, a.seed)
    bufs = make_buffers()
    stats: Counter = Counter()
    problems = []
    devs: list[float] = []
    t = time.time()
    for i in tqdm(range(len(P)), desc="positions", mininterval=5):
        for d1, d2 in ROLLS:
            r = crosscheck(P[i], d1, d2, bufs)
            stats["checks"] += 1
            stats["moves"] += r["ours"]
            stats["count_ok"] += r["count_ok"]
            stats["complete_tuples"] += r["complete"]
            stats["complete_ok"] += r["complete_ok"]
            if r["bearoff_ok"] is not None:
                stats["truncated_checks"] += 1
                stats["truncated_ok"] += bool(r["bearoff_ok"])
                stats["truncated_moves"] += r["truncated"]
                devs.extend(r["score_devs"])
            if r["problems"]:
                problems.append((P[i].tolist(), (d1, d2), r["problems"]))
    dt = time.time() - t
    print(f"positions {len(P)} x 21 rolls = {stats['checks']} checks in {dt:.0f} s")
    print(f"move counts equal: {stats['count_ok']}/{stats['checks']} (moves listed: {stats['moves']})")
    print(f"complete gnubg tuples replayed to one of our afterstates: "
          f"{stats['complete_ok']}/{stats['complete_tuples']}")
    d = np.array(devs) if devs else np.zeros(1)
    print(f"checks with bear-off-cut tuples: {stats['truncated_checks']} ({stats['truncated_moves']} cut moves); "
          f"all cut moves matched one-to-one to continuing afterstates, score within 5e-3: "
          f"{stats['truncated_ok']}/{stats['truncated_checks']}")
    print(f"cut-move score deviations: <1e-6 {np.mean(d < 1e-6):.4%}, <1e-5 {np.mean(d < 1e-5):.4%}, "
          f"max {d.max():.2e}")
    print(f"mismatching checks: {len(problems)}")
    for p in problems[:20]:
        print("  ", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
