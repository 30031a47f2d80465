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

import numpy as np

from tdbook.experiments.backgammon.match import positions_from_games
from tdbook.games.backgammon_gnubg import crosscheck_all


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    P = positions_from_games(a.positions, a.seed)
    t = time.time()
    st = crosscheck_all(P)
    dt = time.time() - t
    print(f"positions {len(P)} x 21 rolls = {st['checks']} checks in {dt:.0f} s")
    print(f"move counts equal: {st['count_ok']}/{st['checks']} (moves listed: {st['moves']})")
    print(f"complete gnubg tuples replayed to one of our afterstates: {st['complete_ok']}/{st['complete']}")
    d = np.array(st["score_devs"]) if st["score_devs"] else np.zeros(1)
    print(
        f"checks with bear-off-cut tuples: {st['cut_checks']} ({st['cut_moves']} cut moves); "
        f"all cut moves matched one-to-one to continuing afterstates, score within 5e-3: "
        f"{st['cut_ok']}/{st['cut_checks']}"
    )
    print(f"cut-move score deviations: <1e-6 {np.mean(d < 1e-6):.4%}, <1e-5 {np.mean(d < 1e-5):.4%}, max {d.max():.2e}")
    print(f"mismatching checks: {len(st['problems'])}")
    for p in st["problems"][:20]:
        print("  ", p)
    return 1 if st["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
