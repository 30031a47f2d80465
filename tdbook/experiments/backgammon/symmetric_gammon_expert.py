"""The campaign toward GNU Backgammon's expert at equal search, by self-play only (notebook 10; issue 34), read from
the sidecars of the nets it trained (:mod:`~tdbook.experiments.backgammon.symmetric_gammon_nets`).

- :func:`lever_rows` and :func:`lever_claims` — every single change (:data:`~.symmetric_gammon_nets.LEVERS`: a
  pair of sidecars, the net with the change and its parent) with what it bought against pubeval and against
  gnubg-expert, ± 1 s.e. (the two nets' report-seed ladders); one claim per kind of change (:func:`family_gain`, its
  trials pooled);
- :func:`aim_claims` — the aims, read from the best net's report-seed ladder (chosen on the selection match), and its
  2-ply figure;
- :func:`record_curve` (``python -m tdbook.experiments.backgammon.symmetric_gammon_expert NET --snapshots SNAP …``),
  :func:`run_points`, :func:`run_claims` — learning curves: the copies a lever run kept along the way, its parent
  and the net itself against pubeval and gnubg-expert on the selection seed, written into the shipped net's sidecar,
  or the report-seed ladders of the nets a run passed through; one claim per run, the slope of the weighted
  least-squares line through its points (:func:`wls_slope`).

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
from .symmetric_gammon_nets import AIM_PLAN, FAMILIES, LEVERS, RUNS, Lever, Run, net_path, short_label
from .symmetric_gammon_rivals import vs_pubeval

#: Duplicate pairs per point of a learning curve: the selection match's pubeval pairs and a tenth as many
#: against gnubg-expert (±0.02 ppg: a curve that still rises by a few hundredths shows over several points).
CURVE_PAIRS = {"pubeval": 25_000, "gnubg-expert": 2_500}
#: The module as ``python -m`` names it (``__name__`` is ``"__main__"`` when it runs as a script).
MODULE = "tdbook.experiments.backgammon.symmetric_gammon_expert"


def _gain(side_x: dict, side_y: dict, opp: str) -> Estimate:
    a, b = figure(side_x, opp), figure(side_y, opp)
    return Estimate(a.mean - b.mean, math.hypot(a.stderr, b.stderr), min(a.n, b.n))


def lever_gain(lever: Lever, opp: str) -> Estimate:
    """What ``lever`` bought against ``opp``: the child's report-seed figure minus its parent's, ± the two figures'
    standard errors combined (the two nets play the same dice, so this is if anything too wide)."""
    return _gain(read_sidecar(net_path(lever.child)), read_sidecar(net_path(lever.parent)), opp)


def _games(name: str) -> str:
    return f"{read_sidecar(net_path(name))['games'] / 1e6:.1f} M"


def lever_rows(section: str | None = None) -> list[list[str]]:
    """One row per lever of :data:`LEVERS` (of one section of :data:`~.symmetric_gammon_nets.SECTIONS`, or all), by
    family in the order of :data:`FAMILIES` and within it in the order tried: the lever, its family, the net with the
    change and its parent, the child's games, and the gain against pubeval and against gnubg-expert (± 1 s.e.).  A
    stage of a longer trial is marked."""
    rows = []
    for fam, f in FAMILIES.items():
        if section is not None and f.section != section:
            continue
        for lev in (x for x in LEVERS if x.family == fam):
            cells = [
                f"{g.mean:+.3f} ± {g.stderr:.3f}" for g in (lever_gain(lev, o) for o in ("pubeval", "gnubg-expert"))
            ]
            name = lev.id + ("" if lev.pooled else " (a stage)")
            rows.append([name, fam, short_label(lev.child), short_label(lev.parent), _games(lev.child), *cells])
    return rows


LEVER_HEADER = [
    "lever",
    "kind",
    "net with the change",
    "net without it",
    "games",
    "gain vs pubeval",
    "gain vs gnubg-expert",
]


def pooled(gains: Sequence[Estimate]) -> Estimate:
    """The inverse-variance weighted mean of ``gains`` and its standard error (treating them as independent; ``n`` is
    the sum of their games).  ValueError for none, or a standard error that is not positive."""
    if not gains:
        raise ValueError("pooling needs at least one gain")
    if min(g.stderr for g in gains) <= 0:
        raise ValueError(f"every gain needs a standard error > 0, got {[g.stderr for g in gains]}")
    w = [1.0 / g.stderr**2 for g in gains]
    mean = math.fsum(wi * g.mean for wi, g in zip(w, gains)) / math.fsum(w)
    return Estimate(mean, 1.0 / math.sqrt(math.fsum(w)), sum(g.n for g in gains))


def family_gain(family: str, opp: str = "gnubg-expert") -> Estimate:
    """What a kind of change bought against ``opp``: its levers' gains pooled (:func:`pooled`), a lever that is a stage
    of a longer trial left out.  ValueError naming the families for an unknown one."""
    if family not in FAMILIES:
        raise ValueError(f"unknown kind of change {family!r}; choose from: {', '.join(FAMILIES)}")
    return pooled([lever_gain(x, opp) for x in LEVERS if x.family == family and x.pooled])


def lever_claims(section: str | None = None) -> dict[str, dict[str, Any]]:
    """``{claim id: {"ours": …, "note": …}}``: one claim per kind of change of :data:`FAMILIES` that has one (of one
    section, or all) — its levers' gains against gnubg-expert pooled; the note gives each trial's gain and the pooled
    gain against pubeval."""
    out = {}
    for fam, f in FAMILIES.items():
        if f.claim is None or (section is not None and f.section != section):
            continue
        levers = [x for x in LEVERS if x.family == fam]
        trials = ", ".join(
            f"{x.id} {lever_gain(x, 'gnubg-expert').mean:+.3f}" + ("" if x.pooled else " (a stage, not pooled)")
            for x in levers
        )
        p = family_gain(fam, "pubeval")
        n = sum(x.pooled for x in levers)
        how = f"{n} trials pooled" if n > 1 else "one trial"
        out[f.claim] = {
            "ours": family_gain(fam),
            "note": f"ppg against gnubg-expert, {how} ({trials}); against pubeval {p.mean:+.3f} ± {p.stderr:.3f} "
            "(report-seed ladders in the sidecars)",
        }
    return out


def aim_claims(best: str) -> dict[str, dict[str, Any]]:
    """``{claim id: {"ours": …, "note": …}}``: the aims, read from the best net's report-seed ladder (which must have
    been measured with :data:`~.symmetric_gammon_nets.AIM_PLAN`: a smaller plan is refused, naming the command), and
    its 2-ply figure against gnubg-expert (0-ply)."""
    side = read_sidecar(net_path(best))
    plan = side.get("strength", {}).get("plan", {})
    if any(plan.get(k, 0) < n for k, n in AIM_PLAN.items()):
        raise ValueError(
            f"the aims read {best}.npz, whose ladder plan {plan or 'is missing'} is smaller than AIM_PLAN {AIM_PLAN}; "
            f"run: python -m tdbook.experiments.backgammon.strength data/{best}.npz --pubeval-pairs "
            f"{AIM_PLAN['pubeval_pairs']} --gnubg-pairs {AIM_PLAN['gnubg_pairs']} --worldclass-pairs 0"
        )
    p, g = figure(side, "pubeval"), figure(side, "gnubg-expert")
    g2, p2 = figure(side, "gnubg-expert", plies=2), figure(side, "pubeval", plies=2)
    label = short_label(best)
    return {
        "best-vs-pubeval": {"ours": p, "note": f"{label}: {p.n:,} games (sidecar, report seed)"},
        "best-vs-gnubg-expert": {"ours": g, "note": f"{label}: {g.n:,} games (sidecar, report seed)"},
        "expert-parity": {
            "ours": g,
            "note": f"{label}, our 1-ply against its 0-ply, cubeless: {g.n:,} games (sidecar, report seed)",
        },
        "best-2ply-vs-gnubg-expert": {
            "ours": g2,
            "note": f"{label} at 2-ply against gnubg-expert's 0-ply: {g2.n:,} games (report seed); against pubeval "
            f"at 2-ply {p2.mean:+.3f} ± {p2.stderr:.3f} ({p2.n:,} games)",
        },
    }


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
        ppath = data_dir() / Path(warm["file"]).name
        if not ppath.is_file():
            raise ValueError(
                f"the parent {ppath.name} is not in data/: python -m tdbook restore {ppath.stem} brings it back"
            )
        parent = SymmetricGammon.load(ppath)
        models[int(warm["games"])] = parent.widen(net.inputs) if parent.inputs != net.inputs else parent
    for s in snapshots:
        m = SymmetricGammon.load(s)
        if not same_run(m.info.get("spec"), spec):
            raise ValueError(f"{s}: a snapshot of another run ({m.info.get('spec')}), not of {path}")
        models[int(m.info["games_done"])] = m
    t0 = time.perf_counter()
    points = [_point(models[g], g, pairs, progress) for g in sorted(models)]
    what = (
        "the net, its parent and the snapshots of its run, 1-ply, cubeless, duplicate dice, against pubeval "
        "and gnubg-expert on the selection seed (tdbook.experiments.backgammon.symmetric_gammon_expert)"
    )
    return _write_curve(path, command, what, pairs, t0, points)


def _write_curve(
    path: Path, command: str, what: str, pairs: dict[str, int], t0: float, points: list[dict[str, Any]]
) -> dict[str, Any]:
    """A learning curve's record (its points measured on the selection seed since ``t0``, with the command, the
    pairs and the code version), written into the net's sidecar at ``path`` as ``curve``; returns it."""
    curve = {
        "command": command,
        "what": what,
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


def run_points(run: Run, since: int | None = None) -> dict[str, list[tuple[float, Estimate]]]:
    """The points of ``run``'s learning curve against pubeval and against gnubg-expert, ``{opponent: [(million games,
    ppg ± s.e.)…]}`` in order of games: the report-seed ladders of its nets, or the curves recorded in its sidecars
    (selection seed; from ``since`` games on, the run's own ``since`` by default: the points its claim fits)."""
    since = run.since if since is None else since
    out: dict[str, list[tuple[float, Estimate]]] = {"pubeval": [], "gnubg-expert": []}
    if run.nets:
        for k in run.nets:
            side = read_sidecar(net_path(k))
            for opp in out:
                out[opp].append((side["games"] / 1e6, figure(side, opp)))
        return out
    pts = sorted((p for _, p in _curve_points(run.curve) if p["games"] >= since), key=lambda p: p["games"])
    for opp, field in (("pubeval", "vs_pubeval"), ("gnubg-expert", "vs_gnubg_expert")):
        out[opp] = [
            (p["games"] / 1e6, Estimate(p[field]["ppg"], p[field]["stderr"], int(p[field].get("games", 0))))
            for p in pts
        ]
    return out


def run_slope(run: Run, opp: str = "gnubg-expert") -> Estimate:
    """The slope of ``run``'s learning curve against ``opp`` in ppg per million games (:func:`wls_slope`)."""
    pts = run_points(run)[opp]
    return wls_slope([x for x, _ in pts], [e.mean for _, e in pts], [e.stderr for _, e in pts])


def run_claims() -> dict[str, dict[str, Any]]:
    """``{claim id: {"ours": …, "note": …}}``: one claim per run of :data:`RUNS`, the slope of its learning curve
    against gnubg-expert (ppg per million games); the note gives the points, the slope against pubeval and, for a run
    fitted from ``since`` on, the slope through all its points."""
    out = {}
    for run in RUNS.values():
        pts = run_points(run)["gnubg-expert"]
        p = run_slope(run, "pubeval")
        seeds = "report-seed ladders of its nets" if run.nets else "selection seed, the curves in its sidecars"
        note = (
            f"{run.label}: {len(pts)} points from {pts[0][0]:.1f} M to {pts[-1][0]:.1f} M games ({seeds}), weighted "
            f"least squares; against pubeval {p.mean:+.3f} ± {p.stderr:.3f} per million games"
        )
        if run.since:
            whole = curve_trend(run.curve)["gnubg-expert"]
            note += f"; through all {whole.n} points from the run's start {whole.mean:+.3f} ± {whole.stderr:.3f}"
        out[run.claim] = {"ours": run_slope(run), "note": note}
    return out


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
