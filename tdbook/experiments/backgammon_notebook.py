"""Notebook 08 (TD-Gammon; Powell (2000) ch. 5, §4.6, §6.4): its profiles, the nets it studies, and the
measured values of its claims (checked by id against ``tdbook/claims/powell2000.toml``).

Each ``*_checks`` function measures and returns :class:`Check` s in the order the notebook checks them;
the notebook passes each to :func:`tdbook.results.check`.  Data in, data out: the figures are in
:mod:`tdbook.plots.backgammon`, the boards and the play widget in :mod:`tdbook.widgets.backgammon`.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import profiles
from ..core.paths import data_dir, output_root
from ..games import backgammon as bg
from ..games.backgammon_encoding import encode_dense
from ..games.base import IllegalMove
from ..learners.backgammon_net import ROLLS, TDGammon
from ..players.backgammon import NetPlayer
from ..players.backgammon_human import HumanVsNet
from ..results import Table
from . import backgammon_analysis as analysis
from .backgammon_match import MatchResult, evaluate, make_opponent, paired_difference, run_match
from .backgammon_shipped import SIZES, Shipped, load_shipped, retrain
from .backgammon_spec import CurvePoint, TrainLog, TrainSpec
from .backgammon_training import Schedule, train

# ----------------------------------------------------------------------------- profiles

#: Profile defaults for notebook 08 (see :func:`config`).  Match sizes are duplicate *pairs*
#: (two games each).  ``RETRAIN`` (full profile) retrains both nets from scratch with the
#: commands recorded in their sidecars instead of loading the shipped weights.
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "RETRAIN": False,
        "DEMO_HIDDEN": 10,
        "DEMO_GAMES": 400,
        "DEMO_EVAL_EVERY": 100,
        "DEMO_EVAL_PAIRS": 20,
        "PUBEVAL_PAIRS": 200,
        "INTERMEDIATE_PAIRS": 8,
        "LADDER_PAIRS": 4,
        "TWO_PLY_PAIRS": 2,
        "WORLDCLASS_PAIRS": 0,
        "CROSSCHECK_POSITIONS": 10,
        "AGREEMENT_POSITIONS": 40,
    },
    "standard": {
        "RETRAIN": False,
        "DEMO_HIDDEN": 40,
        "DEMO_GAMES": 10_000,
        "DEMO_EVAL_EVERY": 2_000,
        "DEMO_EVAL_PAIRS": 200,
        "PUBEVAL_PAIRS": 5_000,
        "INTERMEDIATE_PAIRS": 1_000,
        "LADDER_PAIRS": 2_500,
        "TWO_PLY_PAIRS": 1_000,
        "WORLDCLASS_PAIRS": 40,
        "CROSSCHECK_POSITIONS": 150,
        "AGREEMENT_POSITIONS": 1_000,
    },
    "full": {
        "RETRAIN": True,
        "DEMO_HIDDEN": 40,
        "DEMO_GAMES": 10_000,
        "DEMO_EVAL_EVERY": 2_000,
        "DEMO_EVAL_PAIRS": 200,
        "PUBEVAL_PAIRS": 10_000,
        "INTERMEDIATE_PAIRS": 2_500,
        "LADDER_PAIRS": 2_500,
        "TWO_PLY_PAIRS": 2_500,
        "WORLDCLASS_PAIRS": 500,
        "CROSSCHECK_POSITIONS": 2_000,
        "AGREEMENT_POSITIONS": 5_000,
    },
}


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 08's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    for name, v in cfg.items():
        if name in ("PROFILE", "RETRAIN"):
            continue
        if v < (0 if name in ("TWO_PLY_PAIRS", "LADDER_PAIRS", "WORLDCLASS_PAIRS", "DEMO_GAMES") else 1):
            raise ValueError(f"{name} must be >= 1, got {v!r}")
    return cfg


def nets(cfg: profiles.Config, progress: bool = True) -> dict[int, Shipped]:
    """The 40- and 80-hidden nets: shipped ones, or retrained from scratch when ``cfg.RETRAIN``."""
    out = {}
    for h in SIZES:
        s = load_shipped(h)
        if cfg.RETRAIN:
            s = retrain(s, output_root(cfg.PROFILE) / "td_gammon", progress)
        out[h] = s
    return out


def shipped_table(shipped: dict[int, Shipped]) -> Table:
    """What each net is and how it was made (from its sidecar)."""
    return Table(
        ["net", "file", "games", "wall time", "training command", "code version"],
        [
            [
                n.model.describe(),
                n.path.name,
                f"{n.sidecar['games']:,}",
                f"{n.sidecar['wall_time_s'] / 60:.0f} min",
                n.sidecar["command"],
                n.sidecar["code_version"],
            ]
            for n in shipped.values()
        ],
    )


@dataclass(frozen=True)
class Check:
    """Our measured value of one claim (by id) and the note that says how it was measured."""

    id: str
    ours: Any
    note: str | None = None


# ----------------------------------------------------------------------------- §1 engine and encoding


@dataclass
class Showcase:
    label: str
    position: np.ndarray
    dice: tuple[int, int]
    table: Table


def showcase(model: TDGammon) -> list[Showcase]:
    """gnubg's move lists next to ours (and the net's 1-ply values) for :func:`analysis.showcase_positions`."""
    out = []
    for label, pos, d1, d2 in analysis.showcase_positions():
        table, _ = analysis.side_by_side(pos, d1, d2, model)
        out.append(Showcase(label, pos, (d1, d2), table))
    return out


@dataclass
class EngineChecks:
    checks: list[Check]
    table: Table
    moves_per_roll: float
    moves_per_roll_contact: float


def engine_checks(crosscheck_positions: int, agreement_positions: int, seed: int) -> EngineChecks:
    """§5: the move generator against gnubg on positions from games (all 21 rolls), the number of
    distinct rolls, and the legal moves per roll on positions from pubeval-vs-pubeval games."""
    xc = analysis.crosscheck_sample(crosscheck_positions, seed=seed)
    ok = xc["count_ok"] == xc["checks"] and xc["complete_ok"] == xc["complete"] and xc["cut_ok"] == xc["cut_checks"]
    checks = [
        Check(
            "engine-equals-gnubg",
            bool(ok and not xc["problems"]),
            f"{xc['positions']} positions × 21 rolls = {xc['checks']} checks: move counts equal "
            f"{xc['count_ok']}/{xc['checks']}, complete tuples {xc['complete_ok']}/{xc['complete']}, "
            f"cut bear-off moves matched {xc['cut_ok']}/{xc['cut_checks']} (max score deviation "
            f"{xc['max_score_dev']:.1e})",
        ),
        Check("rolls", int(len(ROLLS))),
    ]
    gp = analysis.game_positions(agreement_positions, seed=seed)[0]
    mpr = analysis.moves_per_roll(gp)
    contact = np.array([not bg.is_race(p) for p in gp])
    mpr_contact = analysis.moves_per_roll(gp[contact]) if contact.any() else float("nan")
    checks.append(
        Check(
            "moves-per-roll",
            mpr,
            f"legal moves (distinct resulting positions) per roll, rolls weighted by their chance, averaged over "
            f"{len(gp)} positions from pubeval-vs-pubeval games ({mpr_contact:.1f} over the {contact.mean():.0%} "
            f"with contact); 'an average of 20' read as 15–25",
        )
    )
    table = Table(
        ["checks", "moves listed", "counts equal", "complete tuples replayed", "cut moves matched"],
        [
            [
                xc["checks"],
                xc["moves"],
                xc["count_ok"],
                f"{xc['complete_ok']}/{xc['complete']}",
                f"{xc['cut_ok']}/{xc['cut_checks']}",
            ]
        ],
    )
    return EngineChecks(checks, table, mpr, mpr_contact)


def opening_units() -> dict[int, float]:
    """The non-zero units of the thesis's 198-unit encoding of the opening position (white on roll)."""
    x = encode_dense(bg.initial_position(), 0, True)
    return {int(i): float(x[i]) for i in np.flatnonzero(x)}


def encoding_checks(seed: int) -> tuple[list[Check], str]:
    """The flip property of both encodings on positions from random games; a one-line summary."""
    rel_ok, tes_ok, n_flip = analysis.encoding_flip_property(20, seed=seed)
    check = Check(
        "encoding-flip",
        bool(rel_ok and tes_ok),
        f"encode(flip(p)) = half-swapped encode(p) (side-on-roll encoding) and the thesis "
        f"encoding's board units unchanged by a change of side, on {n_flip} positions",
    )
    summary = f"flip property on {n_flip} positions from random games: side-on-roll encoding {rel_ok}, "
    return [check], summary + f"thesis encoding {tes_ok}"


# ----------------------------------------------------------------------------- §2 learning curves


def demo_training(
    spec: TrainSpec, eval_every: int, eval_pairs: int, progress: bool = True
) -> tuple[TDGammon, TrainLog, float]:
    """A short training run from scratch (no checkpoint) with its learning curve against pubeval
    (seed ``spec.seed + 99``); the wall time in seconds, matches included."""
    t0 = time.perf_counter()
    model, log = train(
        spec.check(),
        Schedule(eval_every=eval_every, eval_pairs=eval_pairs, eval_seed=spec.seed + 99),
        progress=progress,
    )
    return model, log, time.perf_counter() - t0


def live_run(cfg: profiles.Config, seed: int) -> tuple[TDGammon, TrainLog, float]:
    """§2's short run made live, in the thesis's configuration (§5.2: 198 inputs with the turn units, one
    P(win) output; λ = 0.7, α = 0.1): ``cfg.DEMO_GAMES`` games of ``cfg.DEMO_HIDDEN`` hidden units."""
    spec = TrainSpec(
        hidden=cfg.DEMO_HIDDEN, outputs=1, encoding="tesauro", alpha=0.1, lam=0.7, seed=seed, games=cfg.DEMO_GAMES
    )
    return demo_training(spec, cfg.DEMO_EVAL_EVERY, cfg.DEMO_EVAL_PAIRS)


def curve_arrays(curve: Sequence[CurvePoint]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(games, ppg, stderr) of a learning curve."""
    return (np.array([c.games for c in curve]), np.array([c.ppg for c in curve]), np.array([c.stderr for c in curve]))


def point_at(curve: Sequence[CurvePoint], games: int) -> CurvePoint:
    """The learning-curve point measured at ``games`` training games."""
    for c in curve:
        if c.games == games:
            return c
    raise ValueError(f"the learning curve has no point at {games:,} games")


def fmt_point(curve: Sequence[CurvePoint], games: int) -> str:
    """``"+0.123 ± 0.045"`` for the curve's point at ``games`` (``"—"`` if it has none)."""
    try:
        c = point_at(curve, games)
    except ValueError:
        return "—"
    return f"{c.ppg:+.3f} ± {c.stderr:.3f}"


def curve_mean(curve: Sequence[CurvePoint], lo: int, hi: int) -> tuple[float, float, int]:
    """Mean ppg of the curve's points with ``lo <= games <= hi``, its standard error (from the points'
    own standard errors; they are independent matches) and the number of points."""
    pts = [c for c in curve if lo <= c.games <= hi]
    if not pts:
        raise ValueError(f"no learning-curve point between {lo} and {hi} games")
    se = math.sqrt(sum(c.stderr**2 for c in pts)) / len(pts)
    return float(np.mean([c.ppg for c in pts])), se, len(pts)


def curve_difference(a: Sequence[CurvePoint], b: Sequence[CurvePoint], lo: int, hi: int) -> tuple[float, float]:
    """Mean ppg of curve ``a`` minus that of ``b`` over the points with ``lo <= games <= hi``, and the
    standard error of the difference (the points' own standard errors, treated as independent — a
    conservative choice when both curves were measured on the same dice)."""
    ma, sa, _ = curve_mean(a, lo, hi)
    mb, sb, _ = curve_mean(b, lo, hi)
    return ma - mb, math.hypot(sa, sb)


def learning_share(curve: Sequence[CurvePoint], by: int) -> float:
    """Share of the total gain against pubeval (first point to the mean of the last three) reached
    by ``by`` games: §5.2's "a great deal of learning … after only tens of thousands of games"."""
    g, p, _ = curve_arrays(curve)
    if len(g) < 2:
        raise ValueError("a learning curve needs at least two points")
    final = float(np.mean(p[-3:]))
    upto = p[g <= by]
    return float((upto[-1] - p[0]) / (final - p[0]))


def lambda_comparison() -> tuple[list[CurvePoint], dict]:
    """The recorded learning curve of the λ = 0.7 comparison run (``data/td_gammon_80_lambda07_curve.json``)."""
    p = data_dir() / "td_gammon_80_lambda07_curve.json"
    try:
        d = json.loads(p.read_text())
        return [CurvePoint(**c) for c in d["learning_curve"]], d
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"cannot read the λ comparison curve {p}: {e}") from None


def learning_curves(
    shipped: dict[int, Shipped], demo: TDGammon, demo_log: TrainLog
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The curves of §2's figure: each shipped net, the λ = 0.7 comparison run, the live run."""
    curves = {f"{h} hidden (shipped, λ={n.spec.lam:g})": curve_arrays(n.curve) for h, n in shipped.items()}
    lam07, info = lambda_comparison()
    curves[f"80 hidden, λ={info['spec']['lam']:g} (comparison run, stopped at {info['games']:,})"] = curve_arrays(lam07)
    curves[f"live: {demo.describe()}, λ=0.7"] = curve_arrays(demo_log.curve)
    return curves


def curve_checks(shipped: dict[int, Shipped]) -> tuple[list[Check], Table]:
    """§5.2's "a great deal of learning after only tens of thousands of games", and λ = 0 against
    λ = 0.7 at equal training; the table of each net's curve at round game counts."""
    share = {h: learning_share(n.curve, 50_000) for h, n in shipped.items()}
    at50 = {h: point_at(n.curve, 50_000) for h, n in shipped.items()}
    much = Check(
        "much-learning-in-tens-of-thousands",
        bool(all(c.ppg - 1.96 * c.stderr > 0 for c in at50.values())),
        "after 50,000 self-play games each net already beats pubeval (the field's yardstick) at 95% "
        "confidence: "
        + ", ".join(f"{h} hidden {c.ppg:+.3f} ± {c.stderr:.3f}" for h, c in at50.items())
        + "; share of the whole gain (0 games → mean of the last three points) by then: "
        + ", ".join(f"{h} hidden {s:.0%}" for h, s in share.items()),
    )
    lo, hi = 100_000, 200_000  # both runs at α = 0.1 up to 200,000 games
    lam07, info = lambda_comparison()
    m0, s0, k0 = curve_mean(shipped[80].curve, lo, hi)
    m7, s7, k7 = curve_mean(lam07, lo, hi)
    lam = Check(
        "beyond-lambda0-vs-lambda07",
        m0 - m7,
        f"80 hidden, same seed and α: mean ppg vs pubeval over the curve points at "
        f"{lo:,}–{hi:,} games, λ={shipped[80].spec.lam:g} {m0:+.3f} ± {s0:.3f} minus "
        f"λ={info['spec']['lam']:g} {m7:+.3f} ± {s7:.3f} ({k0} and {k7} points)",
    )
    table = Table(
        ["net", "ppg vs pubeval at 0 games", "at 10,000", "at 50,000", "at the end", "share of the gain by 50,000"],
        [
            [f"{h} hidden"]
            + [fmt_point(n.curve, g) for g in (0, 10_000, 50_000, n.curve[-1].games)]
            + [f"{share[h]:.0%}"]
            for h, n in shipped.items()
        ],
    )
    return [much, lam], table


# ----------------------------------------------------------------------------- §3 the ladder


def ladder_matches(shipped: dict[int, Shipped], cfg: profiles.Config, seed: int) -> dict[tuple[Any, str], MatchResult]:
    """Every match of §3: each net at 1-ply against pubeval and the gnubg levels (the 80-hidden net
    also against world class), the 80-hidden net at 2-ply, and pubeval against gnubg-expert."""
    match: dict[tuple[Any, str], MatchResult] = {}
    for h, n in shipped.items():
        plan = [
            ("pubeval", cfg.PUBEVAL_PAIRS),
            ("gnubg-beginner", cfg.LADDER_PAIRS),
            ("gnubg-intermediate", cfg.INTERMEDIATE_PAIRS),
            ("gnubg-advanced", cfg.LADDER_PAIRS),
            ("gnubg-expert", cfg.LADDER_PAIRS),
        ]
        if h == 80:
            plan.append(("gnubg-worldclass", cfg.WORLDCLASS_PAIRS))
        for opp, pairs in plan:
            if pairs:
                match[(h, opp)] = evaluate(n.model, pairs, seed=seed, opponent=opp, progress=True)
    if cfg.TWO_PLY_PAIRS:
        for opp in ("pubeval", "gnubg-expert"):
            r = evaluate(shipped[80].model, cfg.TWO_PLY_PAIRS, seed=seed, opponent=opp, plies=2, progress=True)
            match[("80 2-ply", opp)] = r
    if cfg.LADDER_PAIRS:  # calibration of the ladder: pubeval against gnubg-expert
        match[("pubeval", "gnubg-expert")] = run_match(
            make_opponent("pubeval"), make_opponent("gnubg-expert"), cfg.LADDER_PAIRS, seed=seed
        )
    return match


def _player(key: Any) -> str:
    return key if isinstance(key, str) else f"{key} hidden"


def ladder_table(match: dict[tuple[Any, str], MatchResult]) -> Table:
    return Table(
        ["net", "opponent", "points per game", "wins", "gammons+bg", "games"],
        [
            [
                _player(h),
                opp,
                f"{r.ppg:+.3f} ± {r.stderr:.3f}",
                f"{r.win_pct:.1f}%",
                f"{r.gammon_pct + r.backgammon_pct:.1f}%",
                f"{r.games:,}",
            ]
            for (h, opp), r in match.items()
        ],
    )


def ladder_by_player(match: dict[tuple[Any, str], MatchResult]) -> dict[str, dict[str, dict]]:
    """``{player: {opponent: result dict}}`` for the ladder figure."""
    out: dict[str, dict[str, dict]] = {}
    for (h, opp), r in match.items():
        out.setdefault(_player(h), {})[opp] = r.to_dict()
    return out


def ladder_checks(shipped: dict[int, Shipped], match: dict[tuple[Any, str], MatchResult]) -> tuple[list[Check], str]:
    """The ladder's claims: the 80-hidden net against pubeval and gnubg-intermediate, every other
    match, the expert aim at 1- and 2-ply, the calibration, and more hidden units at equal training
    and as shipped; a one-line summary of the 80 − 40 comparison."""
    checks = []
    r80 = match[(80, "pubeval")]
    checks.append(
        Check(
            "net80-vs-pubeval",
            r80.ppg,
            f"80 hidden, 1-ply, ±{r80.stderr:.3f} s.e. over {r80.games:,} duplicate games, {r80.win_pct:.1f}% wins; "
            "target: at least the public replication's +0.351 ppg (62.9% wins, 10,000 games)",
        )
    )
    ri = match[(80, "gnubg-intermediate")]
    checks.append(
        Check(
            "net80-beats-gnubg-intermediate",
            bool(ri.ppg - 1.96 * ri.stderr > 0),
            f"{ri.ppg:+.3f} ± {ri.stderr:.3f} ppg over {ri.games:,} games: ppg > 0 at 95% confidence? "
            "gnubg 0-ply with noise 0.04 stands in for an intermediate human",
        )
    )
    for h in shipped:
        for opp in (
            "gnubg-beginner",
            "gnubg-advanced",
            "gnubg-expert",
            "gnubg-worldclass",
            "pubeval",
            "gnubg-intermediate",
        ):
            if (h, opp) in match and not (h == 80 and opp in ("pubeval", "gnubg-intermediate")):
                r = match[(h, opp)]
                checks.append(
                    Check(
                        f"net{h}-vs-{opp}",
                        r.ppg,
                        f"±{r.stderr:.3f} s.e., {r.win_pct:.1f}% wins, {r.games:,} games, 1-ply",
                    )
                )
    for opp in ("pubeval", "gnubg-expert"):
        if ("80 2-ply", opp) in match:
            r = match[("80 2-ply", opp)]
            checks.append(
                Check(f"net80-2ply-vs-{opp}", r.ppg, f"±{r.stderr:.3f} s.e., {r.win_pct:.1f}% wins, {r.games:,} games")
            )
    for key, how in (((80, "gnubg-expert"), "1-ply"), (("80 2-ply", "gnubg-expert"), "2-ply")):
        if key in match:
            r = match[key]
            checks.append(
                Check(
                    f"net80-{how}-beats-minus-0.25-vs-gnubg-expert",
                    bool(r.ppg - 1.96 * r.stderr > -0.25),
                    f"80 hidden, {how}: {r.ppg:+.3f} ± {r.stderr:.3f} ppg over {r.games:,} games against "
                    f"gnubg-expert; better than −0.25 at 95% confidence "
                    f"(interval {r.ppg - 1.96 * r.stderr:+.3f} to {r.ppg + 1.96 * r.stderr:+.3f})?",
                )
            )
    if ("pubeval", "gnubg-expert") in match:
        r = match[("pubeval", "gnubg-expert")]
        checks.append(
            Check(
                "calibration-pubeval-vs-gnubg-expert",
                r.ppg,
                f"±{r.stderr:.3f} s.e. over {r.games:,} games: checks that our gnubg levels and match "
                "runner agree with the issue's orientation numbers",
            )
        )
    same = min(n.curve[-1].games for n in shipped.values())  # compare at equal training
    lo_eq = same - 100_000
    d_eq, se_eq = curve_difference(shipped[80].curve, shipped[40].curve, lo_eq, same)
    checks.append(
        Check(
            "more-hidden-units-better",
            bool(d_eq - 1.96 * se_eq > 0),
            f"80 − 40 hidden at equal training: mean ppg against pubeval over the learning-curve points at "
            f"{lo_eq:,}–{same:,} games, {d_eq:+.3f} ± {se_eq:.3f} (significantly positive at 95%?)",
        )
    )
    d, dse = paired_difference(match[(80, "pubeval")], match[(40, "pubeval")])
    checks.append(
        Check(
            "shipped-80-minus-40-vs-pubeval",
            d,
            f"the shipped nets as they are ({shipped[80].sidecar['games']:,} and "
            f"{shipped[40].sidecar['games']:,} games), same dice: {d:+.3f} ± {dse:.3f} ppg",
        )
    )
    summary = (
        f"80 − 40 hidden vs pubeval at equal training ({lo_eq:,}–{same:,} games): {d_eq:+.3f} ± {se_eq:.3f}; "
        f"shipped nets on the same dice: {d:+.3f} ± {dse:.3f} points per game"
    )
    return checks, summary


# ----------------------------------------------------------------------------- §4 Table 5.2


#: Table 5.2 as printed (Powell (2000) §5.2 p. 45): version, training games, opponents, points, games, ppg.
TABLE_5_2 = [
    ("TD 1.0", 300_000, "Robertie, Davis, Magriel", -13, 51, -0.25),
    ("TD 2.0", 800_000, "Goulding, Woolsey, Snellings, Russell, Sylvester", -7, 38, -0.18),
    ("TD 2.1", 1_500_000, "Robertie", -1, 40, -0.02),
]


def table52_paper() -> Table:
    return Table(
        ["version", "training games", "opponents", "result as printed", "ppg printed", "ppg recomputed"],
        [
            [
                v,
                f"{g:,}",
                o,
                f"lost by {-pts} point{'s' if -pts != 1 else ''} in {n} games",
                f"{ppg:+.2f}",
                f"{pts / n:+.3f}",
            ]
            for v, g, o, pts, n, ppg in TABLE_5_2
        ],
        caption="Table 5.2 (004 §5.2 p. 45): TD-Gammon against humans",
    )


def table52_ours(shipped: dict[int, Shipped], match: dict[tuple[Any, str], MatchResult]) -> Table:
    """Our games-vs-result table: each net's learning-curve points at round game counts (pubeval,
    recorded by its training run) and the ladder of the finished nets."""
    rows: list[list[str]] = []
    for h, s in shipped.items():
        g, p, se = curve_arrays(s.curve)
        for target in (10_000, 30_000, 100_000, 300_000, g.max() if len(g) else 0):
            k = np.flatnonzero(g == target)
            if len(k) and not any(r[0] == f"{h}" and r[1] == f"{target:,}" for r in rows):
                rows.append([f"{h}", f"{target:,}", f"{p[k[0]]:+.3f} ± {se[k[0]]:.3f}", "", ""])
        if rows and rows[-1][0] == f"{h}":
            for col, name in ((3, "gnubg-intermediate"), (4, "gnubg-expert")):
                if (h, name) in match:
                    r = match[(h, name)]
                    rows[-1][col] = f"{r.ppg:+.3f} ± {r.stderr:.3f}"
    return Table(
        [
            "hidden units",
            "training games",
            "ppg vs pubeval (training curve)",
            "ppg vs gnubg-intermediate",
            "ppg vs gnubg-expert",
        ],
        rows,
        caption="Ours: cubeless points per game, duplicate dice",
    )


def table52_checks(shipped: dict[int, Shipped], match: dict[tuple[Any, str], MatchResult]) -> list[Check]:
    """TD 1.0 against top humans (−0.25 ppg) set against our 80-hidden net against gnubg-expert."""
    e80 = match[(80, "gnubg-expert")]
    return [
        Check(
            "table5.2-td1.0",
            e80.ppg,
            f"our 80-hidden net ({shipped[80].sidecar['games']:,} games) vs gnubg-expert: {e80.ppg:+.3f} ± "
            f"{e80.stderr:.3f} over {e80.games:,} cubeless games; humans → gnubg-expert, cube → cubeless",
        )
    ]


# ----------------------------------------------------------------------------- §5 what the net learned


def pwin_checks(shipped: dict[int, Shipped]) -> tuple[list[Check], Table]:
    """Each net's P(win) on the hand-made positions next to gnubg's; the 80-hidden net's sure win and loss."""
    tab, pw = analysis.pwin_table({f"{h} hidden": n.model for h, n in shipped.items()}, analysis.handmade_positions())
    sure_win = min(v["80 hidden"] for k, v in pw.items() if k.startswith("sure win"))
    sure_loss = max(v["80 hidden"] for k, v in pw.items() if k.startswith("sure loss"))
    return [Check("pwin-sure-win", sure_win), Check("pwin-sure-loss", sure_loss)], tab


def agreement_checks(ag: analysis.Agreement) -> tuple[list[Check], Table]:
    """§5.3: the absolute error of the net's P(win) (gnubg as the reference), whether the error common
    to a roll's moves cancels in the move choice, and how often the net picks gnubg's move."""
    checks = [
        Check(
            "absolute-error-tenth",
            ag.mean_abs_error,
            f"mean |P(win) − gnubg P(win)| over {len(ag.p_ours)} positions from games (80 hidden); "
            f"'often around a tenth' read as 0.05–0.15; mean bias {ag.mean_bias:+.3f}",
        ),
        Check(
            "error-cancels-in-move-choice",
            bool(ag.rel_err.mean() < ag.abs_err.mean()),
            f"mean |net − gnubg| move value (equity) {ag.abs_err.mean():.3f}, after removing each roll's "
            f"common error {ag.rel_err.mean():.3f}, over {len(ag.abs_err)} rolls",
        ),
        Check(
            "move-agreement-gnubg",
            float(ag.same_move.mean()),
            f"share of rolls where the 80-hidden net's 1-ply move is gnubg's best; mean equity given up "
            f"{ag.loss.mean():.4f} per move (gnubg's judgement); Spearman ρ of move values {np.mean(ag.rank_corr):.2f}",
        ),
    ]
    table = Table(
        ["measure", "value"],
        [
            ["mean |P(win) error|", f"{ag.mean_abs_error:.3f}"],
            ["mean bias", f"{ag.mean_bias:+.3f}"],
            ["move value error (equity)", f"{ag.abs_err.mean():.3f}"],
            ["… common error removed", f"{ag.rel_err.mean():.3f}"],
            ["same move as gnubg", f"{ag.same_move.mean():.1%}"],
            ["equity given up per move", f"{ag.loss.mean():.4f}"],
        ],
    )
    return checks, table


# ----------------------------------------------------------------------------- §6 play against the net


def refusal_checks(
    model: TDGammon, seed: int, attempts: Sequence[str] = ("13/3", "8/5 6/x", "25/20")
) -> tuple[list[Check], list[str]]:
    """A scripted game against the net: bad moves typed by the person are refused with a reason and
    leave the position unchanged; the lines a reader would see."""
    g = HumanVsNet(NetPlayer(model), seed=seed)
    lines = [g.message]
    before = g.state
    refused = 0
    for attempt in attempts:
        try:
            g.submit(attempt)
        except IllegalMove as e:
            refused += 1
            lines.append(f"{attempt!r} refused: {e}")
    check = Check(
        "widget-refuses-illegal",
        bool(refused == len(attempts) and g.state == before),
        f"{refused} of {len(attempts)} bad moves refused with a reason; position unchanged: {g.state == before}",
    )
    return [check], lines


# ----------------------------------------------------------------------------- §8 widget panel


@dataclass
class Explore:
    log: TrainLog
    match: MatchResult
    label: str


def explore(
    hidden: int = 20,
    alpha: float = 0.1,
    lam: float = 0.7,
    games: int = 2000,
    opponent: str = "pubeval",
    pairs: int = 200,
    outputs: int = 4,
    encoding: str = "relative",
    seed: int = 1,
) -> Explore:
    """The panel's run: train a fresh net for ``games`` self-play games (learning curve against
    pubeval every ``games``/5), then a duplicate-dice match of ``pairs`` pairs against ``opponent``."""
    spec = TrainSpec(
        hidden=int(hidden),
        outputs=int(outputs),
        encoding=encoding,
        alpha=float(alpha),
        lam=float(lam),
        seed=int(seed),
        games=int(games),
    )
    model, log, _ = demo_training(spec, max(1, int(games) // 5), min(int(pairs), 200))
    r = run_match(NetPlayer(model), make_opponent(opponent), int(pairs), seed=int(seed) + 1)
    return Explore(log, r, f"{model.describe()}, α={alpha:g}, λ={lam:g}, {games:,} games")
