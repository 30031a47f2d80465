"""Notebook 09's training speed, one core: self-play TD(0) games per second of the symmetric net (a), the
naive net (b), the unconstrained 3-output net (c) and notebook 08's 4-output TD-Gammon net (d), at equal
hidden units.

Games differ in length between nets that learned differently, so moves (plies) per second are printed beside
games per second and the ratio is taken per move.  Each net first learns for ``--warm`` games, then ``--games``
more are timed; the best of ``--repeat`` timings is kept (the least disturbed by other work on the machine).
Issue 19's aim: the symmetric net's training time within 1.3x the unconstrained one's.  ``--inputs expanded``
(or ``contact``) times (a)–(c) with the hand-made inputs of :mod:`tdbook.games.backgammon_features` ((d) has raw
inputs only).  "free+bg" is (c) with the two backgammon outputs, timed beside it for what they cost, and
"free+bg+look" the same net trained with lookahead targets on a share ``--lookahead`` of the contact positions
(issue 34's lever: :func:`tdbook.learners.backgammon_symmetric.lookahead_outputs`).
Run: ``.venv/bin/python benchmarks/bench_symmetric_gammon.py``.
"""

from __future__ import annotations

import argparse
import time

from tdbook.experiments.backgammon.symmetric_gammon_rivals import RIVALS, new_rival, train_chunk
from tdbook.learners.backgammon_symmetric import INPUTS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hidden", type=int, nargs="+", default=[40, 80])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--warm", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--inputs", choices=list(INPUTS), default="raw")
    ap.add_argument("--lookahead", type=float, default=0.1, help="share of contact positions for free+bg+look")
    a = ap.parse_args()
    for h in a.hidden:
        rates = {}
        for r in (*RIVALS, "free+bg", "free+bg+look"):
            if r == "tesauro" and a.inputs != "raw":
                continue
            m = new_rival(r.split("+")[0], h, 0.1, 1, a.inputs, backgammons=r.startswith("free+bg"))
            train_chunk(m, 0.1, 1, 0, a.warm)
            look = a.lookahead if r == "free+bg+look" else 0.0
            best, plies = float("inf"), 0
            for k in range(a.repeat):
                t = time.perf_counter()
                if look:
                    st = m.train(1, a.warm + k * a.games, a.games, 0.1, lookahead=look)
                else:
                    st = train_chunk(m, 0.1, 1, a.warm + k * a.games, a.games)
                dt = time.perf_counter() - t
                if dt < best:
                    best, plies = dt, int(st[:, 1].sum())
            rates[r] = plies / best
            print(f"hidden {h:3d}  {a.inputs:8s} {r:10s} {a.games / best:8.0f} games/s  {rates[r]:9.0f} moves/s")
        ratio = rates["free"] / rates["symmetric"]
        print(f"hidden {h:3d}  {a.inputs:8s} time per training move, symmetric / free: {ratio:.2f} (aim <= 1.3)")
        bg = rates["free"] / rates["free+bg"]
        print(f"hidden {h:3d}  {a.inputs:8s} time per training move, free with backgammon outputs / free: {bg:.2f}")
        look = rates["free+bg"] / rates["free+bg+look"]
        print(f"hidden {h:3d}  {a.inputs:8s} time per training move, lookahead {a.lookahead} / none: {look:.2f}")


if __name__ == "__main__":
    main()
