"""The learning curve of issue 51's rollout-training loop, by iteration, written into the loop net's sidecar (so
notebook 10 reads it): its parent (iteration 0), the copies it kept after each iteration (``train
symmetric-gammon-rollouts --snapshots``) and the net itself, each against pubeval and gnubg-expert on the selection
seed, measured as the campaign's learning curves are (:data:`~.symmetric_gammon_expert.CURVE_PAIRS`), under the
sidecar key ``curve`` (a TD run's curve, by games, is :func:`~.symmetric_gammon_expert.record_curve`'s; the rollout
diagnosis of a shipped net, ``python -m tdbook.experiments.backgammon.symmetric_gammon_records rollouts``).

``python -m tdbook.experiments.backgammon.signal_measures curve NET --snapshots SNAP …``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...core.paths import data_dir
from ...core.storage import read_sidecar
from ...learners.backgammon_symmetric import SymmetricGammon
from .symmetric_gammon_expert import CURVE_PAIRS, _point, _write_curve

MODULE = "tdbook.experiments.backgammon.signal_measures"


def record_loop_curve(
    net_path: str | Path, snapshots: Sequence[str | Path], command: str, pairs: dict[str, int] | None = None,
    progress: bool = True,
) -> dict[str, Any]:  # fmt: skip
    """Measure a rollout-loop net, its parent (the ``--warm-start`` file, else the shipped net of its name) and the
    ``snapshots`` of its loop (``…_it<k>.snap.npz``: the net after iteration ``k``) against pubeval and
    gnubg-expert on the selection seed; write the points, by iteration, into the net's sidecar as ``curve``.
    ValueError naming a snapshot that is not of this loop (another parent)."""
    path = Path(net_path)
    side = read_sidecar(path)
    run = side["spec"]
    pairs = dict(CURVE_PAIRS if pairs is None else pairs)
    models = {int(side["iterations"]): SymmetricGammon.load(path)}
    warm = run["warm_start"]
    parent = Path(warm["file"])
    models[0] = SymmetricGammon.load(parent if parent.is_file() else data_dir() / parent.name)
    for s in snapshots:
        m = SymmetricGammon.load(s)
        stem = Path(s).name.removesuffix(".snap.npz")
        if m.info.get("run") != run or "_it" not in stem:
            raise ValueError(f"{s}: not a snapshot of this loop ({m.info.get('run')}), not of {path}")
        models[int(stem.rpartition("_it")[2])] = m
    t0 = time.perf_counter()
    points = []
    for it in sorted(models):
        pt = _point(models[it], int(warm["games"]), pairs, progress)
        points.append({"iteration": it} | pt)
    what = (
        "the loop's parent (iteration 0), its copies after each iteration and the net, 1-ply, cubeless, duplicate "
        f"dice, against pubeval and gnubg-expert on the selection seed (python -m {MODULE} curve)"
    )
    return _write_curve(path, command, what, pairs, t0, points)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("curve", help="a rollout loop's learning curve by iteration")
    c.add_argument("net", metavar="NET")
    c.add_argument("--snapshots", nargs="*", default=[], metavar="SNAP")
    c.add_argument("--pubeval-pairs", type=int, default=CURVE_PAIRS["pubeval"])
    c.add_argument("--gnubg-pairs", type=int, default=CURVE_PAIRS["gnubg-expert"])
    c.add_argument("--no-progress", action="store_true")
    a = ap.parse_args(argv)
    cmd = f"python -m {MODULE} " + shlex.join(argv)
    try:
        read_sidecar(a.net)
        pairs = {"pubeval": a.pubeval_pairs, "gnubg-expert": a.gnubg_pairs}
        if min(pairs.values()) < 1:
            raise ValueError(f"pairs must be >= 1, got {pairs}")
        for pt in record_loop_curve(a.net, a.snapshots, cmd, pairs, progress=not a.no_progress)["points"]:
            p, q = pt["vs_pubeval"], pt["vs_gnubg_expert"]
            print(f"iteration {pt['iteration']}: pubeval {p['ppg']:+.4f} ± {p['stderr']:.4f}, gnubg-expert "
                  f"{q['ppg']:+.4f} ± {q['stderr']:.4f}")  # fmt: skip
    except ValueError as e:
        print(f"signal_measures: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
