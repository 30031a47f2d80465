"""TD-Gammon training speed, one core: self-play TD(λ) games per second (traces included).

Each game: full move generation for every roll, a forward pass of the net on every distinct
afterstate (1-ply greedy choice), and one TD(λ) step per move (weights moved by the traces and
the TD error, the new position's gradient added to the decayed traces).  The net starts from
small random weights, as training does; the rate is measured after ``--warm`` games so the
games have the length of a learning net's (about 55 plies).

Targets (issue 7): 198-40-1 ≥ 250 games/s and 198-80-4 ≥ 100 games/s with λ > 0.  For
reference (same task, measured on this kind of machine by the issue's author): the most-used
PyTorch TD-Gammon trains at 7.9 games/s (40 hidden) and 10.3 games/s (80 hidden).
Run: ``.venv/bin/python benchmarks/bench_td_gammon.py``.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from tdbook.learners.backgammon_net import TDGammon, train_games

CONFIGS = [  # (hidden, outputs, encoding, λ)
    (40, 1, "tesauro", 0.7),
    (80, 4, "tesauro", 0.7),
    (80, 4, "relative", 0.7),
    (80, 4, "relative", 0.0),
]


def rate(hidden: int, outputs: int, encoding: str, lam: float, games: int, warm: int) -> tuple[float, float]:
    m = TDGammon.new(hidden, outputs, encoding, alpha=0.1, lam=lam, seed=1)
    n = m.net
    st = np.zeros((max(games, warm), 2), np.int64)
    args = (m.arrays, n.eW1, n.eW2, m.rule(0.1, 0.1, lam), 7)
    train_games(*args, 0, warm, st)  # compile / load cache, and learn a little
    t = time.perf_counter()
    train_games(*args, warm, games, st)
    dt = time.perf_counter() - t
    return games / dt, float(st[:games, 1].mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--warm", type=int, default=2000)
    a = ap.parse_args()
    numba.set_num_threads(1)
    for hidden, outputs, enc, lam in CONFIGS:
        n_in = 198 if enc == "tesauro" else 196
        r, plies = rate(hidden, outputs, enc, lam, a.games, a.warm)
        print(
            f"TD-Gammon {n_in}-{hidden}-{outputs} ({enc}, λ={lam:g}): {r:,.0f} training games/s "
            f"({plies:.1f} plies/game, {r * plies:,.0f} TD steps/s)"
        )


if __name__ == "__main__":
    main()
