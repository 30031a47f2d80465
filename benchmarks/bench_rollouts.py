"""Rollout speed (notebook 09 §4.5, issue 51): our nets' play-outs beside GNU Backgammon's own 0-ply rollouts, on the
same contact positions and the same number of play-outs per position.

Rows, one core each (CPU time of this process, so other work on the machine does not count; the best of
``--repeat``):

- ``ours, to the end``: the net greedy at 1-ply for both sides, each play-out to the end
  (:func:`tdbook.experiments.backgammon.rollout_consistency.rollout_results`, notebook 09's diagnosis);
- ``ours, bear-off stop``: the same, stopping at the first bear-off position at the exact one-sided table's value
  (:mod:`tdbook.experiments.backgammon.rollout_targets`), as gnubg's cubeless rollouts stop at its one-sided
  database;
- ``ours, truncated k`` (the rollout-training loop's targets) and with the luck of every ply taken out, each also with
  the hidden units' fast tanh (``RolloutSpec.fast``), and fast with each roll's afterstates valued from a base
  (``RolloutSpec.from_base``: only the inputs a move changes summed again, as gnubg evaluates; the benchmark prints
  how many inputs that is on its positions);
- ``gnubg 0-ply``: the ``rollout`` command of the gnubg Python module (its chequer play at 0-ply, cubeless,
  quasi-random dice, one thread, no variance reduction, no truncation but its one-sided bear-off database — its
  defaults for a cubeless rollout), with ``--gnubg-vr`` also with its lookahead variance reduction, and truncated
  after as many plies as ours (its 0-ply evaluation there).  The gnubg module does not hand a rollout's result back
  to Python (the ``rollout`` command prints it to a user interface this build lacks), so only its time is compared;
  that it played the play-outs asked is seen in its time growing with ``--trials``.  Each timed gnubg call starts
  from an empty evaluation cache: gnubg keeps its evaluations between commands, and a call on the dice of the call
  before it (every row here uses the same seeds) reuses them — the truncated row measured straight after the full one
  ran three times as fast (5,765 play-outs/s against 1,888 with the cache emptied).  Within a call the cache is
  gnubg's own speed, as it is in its rollouts.

Beside them, the rollout loop's other targets: ``ours, 2-ply search`` (``--search-keep`` moves of each roll
re-valued one ply deeper, :mod:`tdbook.experiments.backgammon.search_targets`), plain and fast, in positions per
core-hour (a search has no play-outs).

A last line gives our from-base rows over gnubg's of the same run (truncated; to the end, our bear-off stop against
its database stop): the machine's speed varies between runs, the ratio within one run is the comparison (issue
51's goal: at least 1).

``--workers 2`` adds the truncated setting over a Dask LocalCluster of that many one-thread workers (wall time,
play-outs/s in all and per worker; meaningful only on an otherwise quiet machine).  Each row prints play-outs/s per
core and positions rolled out per core-hour.  Run: ``.venv/bin/python benchmarks/bench_rollouts.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable, Iterator

import numpy as np

from tdbook.core.parallel import local_cluster
from tdbook.experiments.backgammon import rollout_consistency as rc
from tdbook.experiments.backgammon.rollout_targets import RolloutSpec, rollout_targets
from tdbook.experiments.backgammon.search_targets import SearchSpec, search_targets
from tdbook.experiments.backgammon.symmetric_gammon import best_shipped, load_shipped
from tdbook.games.backgammon import NSLOT, flip, gen_afterstates, make_buffers
from tdbook.learners.backgammon_net import ROLLS
from tdbook.learners.backgammon_symmetric import MAX_NNZ, SymmetricGammon, encode
from tdbook.players.backgammon_symmetric import sym_net


def best_cpu(fn: Callable[[int], object], repeat: int) -> float:
    """The least CPU time (s) of ``repeat`` calls ``fn(k)`` after one warm-up call (compilation, caches)."""
    fn(-1)
    best = float("inf")
    for k in range(repeat):
        t = time.process_time()
        fn(k)
        best = min(best, time.process_time() - t)
    return best


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Send the C library's stdout (gnubg prints a board for every position it is given) to /dev/null."""
    fd = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        yield
    finally:
        os.dup2(fd, 1)
        os.close(fd)
        os.close(null)


#: gnubg's evaluation cache, in entries (a power of two), emptied before each timed call.
GNUBG_CACHE = 1 << 19


def gnubg_rollouts(positions: np.ndarray, trials: int, vr: bool, truncate: int = 0) -> Callable[[int], None]:
    """A function that rolls each position out ``trials`` times by gnubg's ``rollout`` command at 0-ply, seed ``k``,
    to the end or (``truncate`` > 0) for that many plies, then its 0-ply evaluation; the board gnubg has is checked
    against ours (the side on roll of ours is gnubg's player on roll)."""
    from tdbook.games.backgammon_gnubg import gnubg, to_gnubg

    g = gnubg()
    ids = [g.gnubgid(to_gnubg(p), g.cubeinfo(), g.posinfo(1, 0, 0, 1, (0, 0))) for p in positions]
    setup = [
        "set sound enable off",
        "set player 0 human",
        "set player 1 human",
        "new game",
        "set threads 1",
        f"set rollout trials {trials}",
        "set rollout cubeful off",
        f"set rollout varredn {'on' if vr else 'off'}",
        "set rollout quasirandom on",
        "set rollout chequerplay plies 0",
        "set rollout chequerplay cubeful off",
        "set rollout late enable off",
        f"set rollout truncation enable {'on' if truncate else 'off'}",
        *(
            [
                f"set rollout truncation plies {truncate}",
                "set rollout truncation chequerplay plies 0",
                "set rollout truncation cubedecision plies 0",
            ]
            if truncate
            else []
        ),
    ]
    with quiet_stdout():
        for c in setup:
            g.command(c)

    def run(k: int) -> None:
        with quiet_stdout():
            # empty gnubg's evaluation cache (resizing it does; setting the size it has does not), so that a call
            # gains from its own evaluations only
            g.command("set cache 1")
            g.command(f"set cache {GNUBG_CACHE}")
            g.command(f"set rollout seed {k + 2}")
            for gid, p in zip(ids, positions):
                g.setgnubgid(gid)
                if tuple(map(tuple, g.board())) != to_gnubg(p):
                    raise RuntimeError(f"gnubg holds another board than ours for {gid}")
                g.command("rollout")

    return run


def changed_inputs(model: SymmetricGammon, positions: np.ndarray) -> tuple[float, float]:
    """(mean inputs of an afterstate, mean inputs changed from the afterstate generated before it) over the 21 rolls'
    afterstates of ``positions`` — what a rollout from a base sums again."""
    out, mv, ws = make_buffers()
    tmp = np.zeros(NSLOT, np.int8)
    idx, val = np.zeros(MAX_NNZ, np.int64), np.zeros(MAX_NNZ)
    n_in = model.net.n_in  # a pair: its contact net's, the race net's the same
    total = changed = count = 0
    for p in positions:
        for r in range(21):
            last = None
            for k in range(gen_afterstates(p, ROLLS[r, 0], ROLLS[r, 1], out, mv, ws)):
                flip(out[k], tmp)
                n = encode(model.code, tmp, idx, val)
                x = np.zeros(n_in)
                x[idx[:n]] = val[:n]
                total += n
                changed += n if last is None else np.count_nonzero(x != last)
                count += 1
                last = x
    return total / count, changed / count


def line(what: str, playouts: int, positions: int, seconds: float, cores: int = 1) -> float:
    """Print a row; return its play-outs/s per core."""
    per_core = playouts / seconds / cores
    print(f"  {what:44s} {per_core:8.0f} play-outs/s per core  {positions / seconds / cores * 3600:10,.0f} positions "
          f"per core-hour")  # fmt: skip
    return per_core


def bench_net(name: str, a: argparse.Namespace) -> None:
    """The rows of one shipped net (module docstring)."""
    n = a.positions * a.trials
    model = load_shipped(name)
    net = sym_net(model)
    positions = rc.contact_positions(model, a.positions, seed=1)
    print(f"{name}: {a.positions} contact positions of its own self-play × {a.trials} play-outs, one core")
    nnz, changed = changed_inputs(model, positions)
    print(f"  (the afterstates of a roll: {nnz:.1f} inputs each, {changed:.1f} of them changed from the afterstate "
          f"before — the rows summed from a base)")  # fmt: skip
    res = np.zeros(a.trials, np.int64)

    def full(k: int) -> None:
        for i, p in enumerate(positions):
            rc.rollout_results(net, p, 1 + max(k, 0), i * a.trials, res, 3)

    rate = {}  # play-outs/s per core by row
    rate["ours, to the end"] = line("ours, to the end", n, a.positions, best_cpu(full, a.repeat))
    for what, spec in (
        ("ours, bear-off stop", RolloutSpec(a.trials, 0, 0, True)),
        ("ours, bear-off stop, fast tanh", RolloutSpec(a.trials, 0, 0, True, True)),
        (f"ours, truncated {a.truncate}", RolloutSpec(a.trials, a.truncate, 0, True)),
        (f"ours, truncated {a.truncate}, fast tanh", RolloutSpec(a.trials, a.truncate, 0, True, True)),
        (f"ours, truncated {a.truncate}, luck out of every ply", RolloutSpec(a.trials, a.truncate, a.truncate)),
        ("ours, bear-off stop, fast, from base", RolloutSpec(a.trials, 0, 0, True, True, True)),
        (f"ours, truncated {a.truncate}, fast, from base", RolloutSpec(a.trials, a.truncate, 0, True, True, True)),
        (f"ours, truncated {a.truncate}, luck out, fast", RolloutSpec(a.trials, a.truncate, a.truncate, True, True)),
        (
            f"ours, truncated {a.truncate}, luck out, fast, from base",
            RolloutSpec(a.trials, a.truncate, a.truncate, True, True, True),
        ),
    ):
        out: dict = {}

        def ours(k: int, spec: RolloutSpec = spec, out: dict = out) -> None:
            out.update(rollout_targets(model, positions, spec, seed=max(k, 0), progress=False))

        rate[what] = line(what, n, a.positions, best_cpu(ours, a.repeat))
        print(f"    (standard error of a position's equity: {np.sqrt(np.mean(out['se'] ** 2)):.3f}; "
              f"{np.mean(out['plies']):.1f} plies a play-out)")  # fmt: skip
    for search_spec in (SearchSpec(a.search_keep), SearchSpec(a.search_keep, True)):
        what = f"ours, 2-ply search, keep {a.search_keep}{', fast' if search_spec.fast else ''}"

        def search(k: int, spec: SearchSpec = search_spec) -> None:
            search_targets(model, positions[: a.search_positions], spec, progress=False)

        per_pos = best_cpu(search, a.repeat) / a.search_positions
        print(f"  {what:44s} {per_pos * 1e3:8.1f} ms a position      {3600 / per_pos:10,.0f} positions per core-hour")
    if not a.no_gnubg:
        for vr in (False, True) if a.gnubg_vr else (False,):
            run = gnubg_rollouts(positions, a.trials, vr)
            what = f"gnubg 0-ply{', variance reduction' if vr else ''}"
            rate[what] = line(what, n, a.positions, best_cpu(run, a.repeat))
        run = gnubg_rollouts(positions, a.trials, False, a.truncate)
        cut = f"gnubg 0-ply, truncated {a.truncate}"
        rate[cut] = line(cut, n, a.positions, best_cpu(run, a.repeat))
        # the machine's speed varies between runs; the ratio within one run is the comparison (issue 51's goal: >= 1)
        ours = f"ours, truncated {a.truncate}, fast"
        print(f"  ours / gnubg, this run: truncated {a.truncate}, fast, from base "
              f"{rate[ours + ', from base'] / rate[cut]:.2f} (fast: {rate[ours + ' tanh'] / rate[cut]:.2f}); "
              f"bear-off stop, fast, from base / gnubg to the end "
              f"{rate['ours, bear-off stop, fast, from base'] / rate['gnubg 0-ply']:.2f}")  # fmt: skip
    if a.workers:
        spec = RolloutSpec(a.trials, a.truncate, 0, True)
        with local_cluster(a.workers):
            rollout_targets(model, positions[:2], spec, seed=0, chunk=1, progress=False)  # compile there
            t = time.perf_counter()
            rollout_targets(model, positions, spec, seed=1, chunk=max(1, a.positions // (4 * a.workers)),
                            progress=False)  # fmt: skip
            wall = time.perf_counter() - t
        line(f"ours, truncated {a.truncate}, {a.workers} Dask workers (wall)", n, a.positions, wall, a.workers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nets", nargs="+", default=[best_shipped()])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--trials", type=int, default=72, help="play-outs per position (a multiple of 36 stratifies)")
    ap.add_argument("--truncate", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-gnubg", action="store_true")
    ap.add_argument("--gnubg-vr", action="store_true", help="also gnubg with its variance reduction (slow)")
    ap.add_argument("--search-keep", type=int, default=SearchSpec.keep, help="moves re-valued by the 2-ply rows")
    ap.add_argument("--search-positions", type=int, default=10, help="positions of the 2-ply rows (the first ones)")
    ap.add_argument("--workers", type=int, default=0, help="also the truncated setting on this many Dask workers")
    a = ap.parse_args()
    for name in a.nets:
        bench_net(name, a)


if __name__ == "__main__":
    main()
