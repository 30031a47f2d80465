"""Benchmark: checkers perft nodes per second, searched self-play games per second at Samuel's ply rules, and the
ladder's book agreement in held-out master positions searched per second, for a polynomial and for the signature
tables (Powell (2000) §3.1–3.3; issue 16 targets ≥ 20 M perft nodes/s on one core and ≥ 10 self-play games/s).

Rates are per second of this process's CPU time (one thread: the rate of one core even on a busy machine),
with the wall-clock rate beside it.  For orientation the issue measured pydraughts' perft at ≈ 1,600 nodes/s.

Plain script, not a timed test:  .venv/bin/python benchmarks/bench_checkers.py [--depth D] [--games N]
"""

from __future__ import annotations

import argparse
import time

import numba

from tdbook.experiments.checkers.ladder import book_models, held_out_sample
from tdbook.games.checkers import ballots
from tdbook.games.checkers_bitboard import START, perft
from tdbook.learners.checkers_polynomial import SAMUEL_42_GAMES
from tdbook.players.checkers import choices, material_player, play_games, samuel_player


def timed(fn):
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - w0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=11, help="perft depth from the start (default 11: 85,242,128 nodes)")
    ap.add_argument("--games", type=int, default=40, help="self-play games per pairing (3-move ballots)")
    ap.add_argument("--positions", type=int, default=2000, help="held-out master positions for book agreement")
    a = ap.parse_args()
    numba.set_num_threads(1)
    perft(*START, 0, 3)  # compile / load the cache
    print(f"checkers perft from the start, depth {a.depth} (leaf moves counted, not played), 1 thread")
    n, cpu, wall = timed(lambda: perft(*START, 0, a.depth))
    print(f"  perft({a.depth}) = {n:,}: {n / cpu / 1e6:6.1f} M nodes/s CPU  ({n / wall / 1e6:.1f} M/s wall)")

    starts = [s for _, s in ballots()][: a.games]
    pairings = [
        ("material α-β self-play", material_player(), material_player()),
        ("Samuel 42-game polynomial self-play", samuel_player(SAMUEL_42_GAMES), samuel_player(SAMUEL_42_GAMES)),
    ]
    print(f"searched self-play at Samuel's ply rules (plausibility ordering), {len(starts)} ballots, 80-ply rule")
    for name, b, w in pairings:
        play_games(b, w, starts[:1])  # compile / load the cache
        recs, cpu, wall = timed(lambda b=b, w=w: play_games(b, w, starts))
        plies = sum(r.plies for r in recs)
        nodes = sum(r.nodes for r in recs)
        print(
            f"  {name:38s} {len(recs) / cpu:6.1f} games/s CPU ({len(recs) / wall:.1f} wall); "
            f"{plies / len(recs):.0f} plies/game, {nodes / plies:,.0f} nodes/move, {nodes / cpu / 1e6:.2f} M nodes/s"
        )

    held = held_out_sample(a.positions, seed=1)
    models = book_models(5000, seed=1)
    print(f"book agreement on {len(held):,} held-out master positions (the tables trained on 5,000 positions)")
    tables = models.player("signature tables")
    for name, p in (("Samuel 42-game polynomial", samuel_player(SAMUEL_42_GAMES)), ("signature tables", tables)):
        choices(p, held.words[:5], held.side[:5])  # compile / load the cache
        moves, cpu, wall = timed(lambda p=p: choices(p, held.words, held.side))
        print(f"  {name:38s} {len(held) / cpu:8,.0f} positions/s CPU ({len(held) / wall:,.0f} wall); "
              f"master's move {100 * (moves == held.chosen).mean():.1f} %")  # fmt: skip


if __name__ == "__main__":
    main()
