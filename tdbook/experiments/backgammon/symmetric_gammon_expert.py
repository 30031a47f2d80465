"""Notebook 09's "beyond" section, issue 34: toward GNU Backgammon's expert at equal search, by self-play only.

- :func:`recipe_rows` — every one-change lever of the strength section
  (:data:`~tdbook.experiments.backgammon.symmetric_gammon.CHANGES`), in the order tried, with what it bought against
  pubeval and against gnubg-expert, ± 1 s.e. (the report-seed ladders in the sidecars);
- :func:`expert_claims` — issue 34's aim (the best net, chosen on the selection match, at ≥ 0.00 ppg against
  gnubg-expert at equal search: our 1-ply against its 0-ply, one-sided at 95 %) and the best net's 2-ply figure;
- :func:`record_curve`, :func:`curve_rows` and :func:`curve_trend` — learning curves: the copies a lever run kept
  along the way (``train symmetric-gammon --snapshot-every``), its parent and the net itself against pubeval and
  gnubg-expert on the selection seed, written into the shipped net's sidecar (``python -m
  tdbook.experiments.backgammon.symmetric_gammon_expert NET --snapshots SNAP …``), so the notebook reads them, and
  the straight line through a run's points (weighted least squares) that says whether it is still climbing.

Training uses no gnubg evaluation, rollout or database: gnubg is only the judge of these matches.
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...claims import Estimate
from ...core.paths import data_dir
from ...core.storage import add_to_sidecar, code_version, read_sidecar
from ...learners.backgammon_symmetric import SymmetricGammon
from ...players.backgammon_symmetric import SymNetPlayer
from .match import SELECTION_SEED, make_opponent, run_match, selection_seed
from .strength import strength as figure
from .symmetric_gammon_cli import same_run
from .symmetric_gammon_nets import CHANGES, net_path, short_label
from .symmetric_gammon_rivals import vs_pubeval

#: Duplicate pairs per point of a learning curve: the selection match's pubeval pairs and a tenth as many
#: against gnubg-expert (±0.02 ppg: a curve that still rises by a few hundredths shows over several points).
CURVE_PAIRS = {"pubeval": 25_000, "gnubg-expert": 2_500}
#: The nets whose sidecars hold the positional run's learning curve, in order: to 6.0 M games, on to 7.0 M, and from
#: 7.6 M on to 8.6 M (the stretch from 7.0 M to 7.6 M was not recorded: its nets have only their ladders).
POSITIONAL_RUN = (
    "symgammon_free160_positional_bg_6000k",
    "symgammon_free160_positional_bg_7000k",
    "symgammon_free160_positional_bg_8600k",
)
#: The module as ``python -m`` names it (``__name__`` is ``"__main__"`` when it runs as a script).
MODULE = "tdbook.experiments.backgammon.symmetric_gammon_expert"


def _gain(side_x: dict, side_y: dict, opp: str) -> Estimate:
    a, b = figure(side_x, opp), figure(side_y, opp)
    return Estimate(a.mean - b.mean, math.hypot(a.stderr, b.stderr), min(a.n, b.n))


def recipe_rows() -> list[list[str]]:
    """One row per lever of :data:`CHANGES`: the change, the net with it and the net without it, and the gain
    against pubeval and against gnubg-expert (ppg ± 1 s.e., the two nets' report-seed figures)."""
    rows = []
    for cid, x, y in CHANGES:
        sx, sy = read_sidecar(net_path(x)), read_sidecar(net_path(y))
        cells = []
        for opp in ("pubeval", "gnubg-expert"):
            g = _gain(sx, sy, opp)
            cells.append(f"{g.mean:+.3f} ± {g.stderr:.3f}")
        rows.append([cid, short_label(x), short_label(y), *cells])
    return rows


RECIPE_HEADER = ["lever", "net with the change", "net without it", "gain vs pubeval", "gain vs gnubg-expert"]


def expert_claims(best: str) -> dict[str, dict[str, Any]]:
    """``{claim id: {"ours": …, "note": …}}``: issue 34's aim, read from the best net's report-seed ladder, and its
    2-ply figure against gnubg-expert (0-ply) when the sidecar has one."""
    side = read_sidecar(net_path(best))
    g = figure(side, "gnubg-expert")
    out = {
        "expert-parity": {
            "ours": g,
            "note": f"{short_label(best)}, our 1-ply against its 0-ply, cubeless: {g.n:,} games (sidecar, report seed)",
        }
    }
    g2 = figure(side, "gnubg-expert", plies=2)
    p2 = figure(side, "pubeval", plies=2)
    out["best-2ply-vs-gnubg-expert"] = {
        "ours": g2,
        "note": f"{short_label(best)} at 2-ply against gnubg-expert's 0-ply: {g2.n:,} games (report seed); "
        f"against pubeval at 2-ply {p2.mean:+.3f} ± {p2.stderr:.3f} ({p2.n:,} games)",
    }
    return out


def _point(model: SymmetricGammon, games: int, pairs: dict[str, int], progress: bool) -> dict[str, Any]:
    p = vs_pubeval(model, pairs["pubeval"], seed=SELECTION_SEED, progress=progress)
    g = run_match(
        SymNetPlayer(model),
        make_opponent("gnubg-expert"),
        pairs["gnubg-expert"],
        seed=selection_seed(SELECTION_SEED),
        progress=progress,
    )
    keep = ("games", "ppg", "stderr", "win_pct", "gammon_pct", "backgammon_pct")
    return {
        "games": int(games),
        "vs_pubeval": {k: v for k, v in p.to_dict().items() if k in keep},
        "vs_gnubg_expert": {k: v for k, v in g.to_dict().items() if k in keep},
    }


def record_curve(
    net_path: str | Path,
    snapshots: Sequence[str | Path],
    command: str,
    pairs: dict[str, int] | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Measure the net at ``net_path``, its parent (the ``--warm-start`` file in its spec) and the ``snapshots`` its
    run kept, each against pubeval and gnubg-expert on the selection seed, and write the points, in order of games,
    into the net's sidecar as ``curve`` (all else kept).  ValueError naming a snapshot of another run."""
    path = Path(net_path)
    side = read_sidecar(path)
    net = SymmetricGammon.load(path)
    spec = side["spec"]
    pairs = dict(CURVE_PAIRS if pairs is None else pairs)
    models = {int(side["games"]): net}
    warm = spec.get("warm_start")
    if warm:
        parent = SymmetricGammon.load(data_dir() / Path(warm["file"]).name)
        models[int(warm["games"])] = parent.widen(net.inputs) if parent.inputs != net.inputs else parent
    for s in snapshots:
        m = SymmetricGammon.load(s)
        if not same_run(m.info.get("spec"), spec):
            raise ValueError(f"{s}: a snapshot of another run ({m.info.get('spec')}), not of {path}")
        models[int(m.info["games_done"])] = m
    t0 = time.perf_counter()
    points = [_point(models[g], g, pairs, progress) for g in sorted(models)]
    curve = {
        "command": command,
        "what": "the net, its parent and the snapshots of its run, 1-ply, cubeless, duplicate dice, against pubeval "
        "and gnubg-expert on the selection seed (tdbook.experiments.backgammon.symmetric_gammon_expert)",
        "seed": SELECTION_SEED,
        "pairs": pairs,
        "code_version": code_version(),
        "wall_time_s": round(time.perf_counter() - t0, 1),
        "points": points,
    }
    add_to_sidecar(path, "curve", curve)
    return curve


def _curve_points(keys: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
    """(net, point) for the points of the learning curves in the sidecars of the nets ``keys``, in their order; a
    point an earlier curve already has (the run's parent: the same net on the same dice, measured alike) is kept
    once.  ValueError naming a net without a curve and the command that records it."""
    out, seen = [], set()
    for k in keys:
        curve = read_sidecar(net_path(k)).get("curve")
        if not curve:
            raise ValueError(f"{k}.npz has no learning curve; run python -m {MODULE} data/{k}.npz --snapshots …")
        for pt in curve["points"]:
            if int(pt["games"]) not in seen:
                seen.add(int(pt["games"]))
                out.append((k, pt))
    return out


def curve_rows(keys: Sequence[str]) -> list[list[str]]:
    """Rows (net, games, vs pubeval, vs gnubg-expert) of the learning curves in the sidecars of the nets ``keys``
    (:func:`_curve_points`)."""
    rows = []
    for k, pt in _curve_points(keys):
        p, g = pt["vs_pubeval"], pt["vs_gnubg_expert"]
        rows.append(
            [
                short_label(k),
                f"{pt['games'] / 1e6:.2f} M",
                f"{p['ppg']:+.3f} ± {p['stderr']:.3f}",
                f"{g['ppg']:+.3f} ± {g['stderr']:.3f}",
            ]
        )
    return rows


CURVE_HEADER = ["run", "games", "vs pubeval (selection seed)", "vs gnubg-expert (selection seed)"]


def wls_slope(x: Sequence[float], y: Sequence[float], stderr: Sequence[float]) -> Estimate:
    """The slope of the straight line through the points ``(x, y)`` fitted by weighted least squares (weights
    ``1 / stderr²``), with its standard error; ``n`` is the number of points.  ValueError for fewer than two
    distinct ``x`` or a standard error that is not positive."""
    if len(x) != len(y) or len(y) != len(stderr):
        raise ValueError(f"x, y and stderr differ in length: {len(x)}, {len(y)}, {len(stderr)}")
    if len(set(x)) < 2:
        raise ValueError(f"a slope needs points at two or more x, got {list(x)}")
    if min(stderr) <= 0:
        raise ValueError(f"every point needs a standard error > 0, got {list(stderr)}")
    # numpy weights the residuals by w = 1/σ; "unscaled" keeps the covariance from the σ given, not from the scatter
    w = 1.0 / np.asarray(stderr, float)
    coef, cov = np.polyfit(np.asarray(x, float), np.asarray(y, float), 1, w=w, cov="unscaled")
    return Estimate(float(coef[0]), float(math.sqrt(cov[0, 0])), len(x))


def curve_trend(keys: Sequence[str], since: int = 0) -> dict[str, Estimate]:
    """The slope, in points per game per million games, of the learning curves of the nets ``keys`` (their points
    from ``since`` games on) against pubeval and against gnubg-expert: :func:`wls_slope` with each point's standard
    error.  The points share their dice, so the slope's error is if anything overstated."""
    pts = sorted((p for _, p in _curve_points(keys) if p["games"] >= since), key=lambda p: p["games"])
    x = [p["games"] / 1e6 for p in pts]
    return {
        opp: wls_slope(x, [p[field]["ppg"] for p in pts], [p[field]["stderr"] for p in pts])
        for opp, field in (("pubeval", "vs_pubeval"), ("gnubg-expert", "vs_gnubg_expert"))
    }


#: The claim id's tag of each opponent of :func:`curve_trend`.
TREND_CLAIMS = (("pubeval", "pubeval"), ("expert", "gnubg-expert"))


def trend_claims(keys: Sequence[str], since: int = 0, tag: str = "") -> dict[str, dict[str, Any]]:
    """``{claim id: {"ours": …, "note": …}}``: the slope of the learning curves of the nets ``keys`` from ``since``
    games on (:func:`curve_trend`) against pubeval and against gnubg-expert, in ppg per million games; the ids are
    ``curve-slope{tag}-pubeval`` and ``curve-slope{tag}-expert``."""
    pts = [p["games"] for _, p in _curve_points(keys) if p["games"] >= since]
    span = f"{len(pts)} points from {min(pts) / 1e6:.1f} M to {max(pts) / 1e6:.1f} M games"
    trend = curve_trend(keys, since)
    note = f"ppg per million games, weighted least squares through the {span} (selection seed)"
    return {f"curve-slope{tag}-{t}": {"ours": trend[opp], "note": note} for t, opp in TREND_CLAIMS}


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=f"python -m {MODULE}",
        description="Record the learning curve of an issue-34 net (its parent, its run's snapshots and itself against "
        "pubeval and gnubg-expert on the selection seed) into its sidecar.",
    )
    ap.add_argument("net", metavar="NET", help="the shipped weights file (.npz) with a sidecar")
    ap.add_argument("--snapshots", nargs="*", default=[], metavar="SNAP", help="snapshot files of its run")
    ap.add_argument("--pubeval-pairs", type=int, default=CURVE_PAIRS["pubeval"], help="pairs against pubeval")
    ap.add_argument("--gnubg-pairs", type=int, default=CURVE_PAIRS["gnubg-expert"], help="pairs against gnubg-expert")
    ap.add_argument("--no-progress", action="store_true", help="no progress bars")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    a = _parser().parse_args(argv)
    pairs = {"pubeval": a.pubeval_pairs, "gnubg-expert": a.gnubg_pairs}
    try:
        if min(pairs.values()) < 1:
            raise ValueError(f"pairs must be >= 1, got {pairs}")
        read_sidecar(a.net)
        for s in a.snapshots:
            if not Path(s).is_file():
                raise ValueError(f"{s}: no such snapshot")
    except ValueError as e:
        print(f"backgammon_symmetric_expert: error: {e}", file=sys.stderr)
        return 2
    cmd = f"python -m {MODULE} " + shlex.join(argv)
    try:
        curve = record_curve(a.net, a.snapshots, cmd, pairs, progress=not a.no_progress)
    except ValueError as e:
        print(f"backgammon_symmetric_expert: error: {e}", file=sys.stderr)
        return 2
    for pt in curve["points"]:
        p, g = pt["vs_pubeval"], pt["vs_gnubg_expert"]
        print(f"{pt['games']:,} games: pubeval {p['ppg']:+.4f} ± {p['stderr']:.4f}, gnubg-expert {g['ppg']:+.4f} ± "
              f"{g['stderr']:.4f}")  # fmt: skip
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
