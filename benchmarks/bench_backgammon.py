"""Backgammon engine speed, one core: games per second.

- random self-play with full move generation (every distinct afterstate of every roll is
  generated, then one is drawn uniformly) — the engine-only number;
- pubeval vs pubeval (generation + a 122-weight linear score per afterstate);
- gnubg (expert, 0-ply, Python-level) vs pubeval, a few games.

References for the first number (same task, other engines, from their own reports):
OpenSpiel's C++ backgammon driven from Python 472 games/s, gym-backgammon 153 games/s.
Run: ``.venv/bin/python benchmarks/bench_backgammon.py``.
"""

from __future__ import annotations

import time

import numpy as np

from tdbook.experiments.backgammon.match import play_pairs, run_match
from tdbook.games import backgammon as bg
from tdbook.players.backgammon import KIND_PUBEVAL, KIND_RANDOM, GnubgPlayer, PubevalPlayer, load_pubeval_weights


def games_per_s(kind: int, w: np.ndarray, pairs: int) -> tuple[float, float]:
    out = np.zeros((pairs, 2), np.int64)
    plies = np.zeros((pairs, 2), np.int64)
    play_pairs(kind, kind, w, 99, 0, 2, out[:2], plies[:2])  # compile / load cache
    t = time.perf_counter()
    play_pairs(kind, kind, w, 1, 0, pairs, out, plies)
    dt = time.perf_counter() - t
    return 2 * pairs / dt, plies.mean()


def movegen_per_s(n_games: int = 20) -> float:
    from tdbook.experiments.backgammon.match import sample_positions

    P, D = sample_positions(n_games, seed=3)
    b = bg.make_buffers()
    bg.gen_afterstates(P[0], D[0, 0], D[0, 1], *b)
    t = time.perf_counter()
    for _ in range(3):
        for p, (d1, d2) in zip(P, D):
            bg.gen_afterstates(p, d1, d2, *b)
    return 3 * len(P) / (time.perf_counter() - t)


def main() -> None:
    w = load_pubeval_weights()
    g, pl = games_per_s(KIND_RANDOM, w, 2500)
    print(f"random self-play (full move generation): {g:,.0f} games/s ({pl:.1f} plies/game, {g * pl:,.0f} moves/s)")
    g, pl = games_per_s(KIND_PUBEVAL, w, 1000)
    print(f"pubeval vs pubeval:                      {g:,.0f} games/s ({pl:.1f} plies/game)")
    print(f"gen_afterstates called from Python:      {movegen_per_s():,.0f} calls/s")
    try:
        t = time.perf_counter()
        r = run_match(GnubgPlayer("expert"), PubevalPlayer(), 10, seed=0, progress=False)
        print(f"gnubg expert (Python-level) vs pubeval:  {r.games / (time.perf_counter() - t):,.0f} games/s")
    except ImportError as e:
        print(f"gnubg not available: {e}")


if __name__ == "__main__":
    main()
