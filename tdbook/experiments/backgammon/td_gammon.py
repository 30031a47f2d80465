"""Notebook 08 (TD-Gammon; Powell (2000) ch. 5, §4.6, §6.4): its profiles, the nets it studies, and the
measured values of its claims (checked by id against ``tdbook/claims/powell2000.toml``) for the engine and
the encoding (§5), the learning curves (§5.2), what the net learned (§5.3) and the play widget; the ladder
and Table 5.2 are :mod:`.backgammon_ladder`.

Each ``*_checks`` function measures and returns its claims in the order the notebook checks them, as
:func:`tdbook.results.check_all` takes them (``{claim id: {"ours": …, "note": …}}``, built from :class:`Check` s by
:func:`as_checks`).  Data in, data out: the figures are in
:mod:`tdbook.plots.backgammon`, the boards and the play widget in :mod:`tdbook.widgets.backgammon`.

Notebook 08 uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):

- What we found: ``config``, ``nets``, ``shipped_table``
- 1. The engine and the encoding, checked against GNU Backgammon: ``showcase``, ``engine_checks``,
  ``opening_units``, ``encoding_checks``, ``shape_checks``
- The learning rule, as the code runs it: ``self_play_step``
- 2. Learning curves: ``live_run``, ``learning_curves``, ``curve_checks``
- 5. What the net learned: ``pwin_checks``, ``agreement_checks``
- 6. Play against the net: ``refusal_checks``
- 9. Try it yourself: ``explore``
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core import profiles
from ...core.paths import output_root
from ...games import backgammon as bg
from ...games.backgammon_encoding import encode_dense
from ...games.base import IllegalMove
from ...learners.backgammon_net import ROLLS, TDGammon
from ...learners.td_net import self_play_step as self_play_step  # the rule §1 shows (numpy)
from ...players.backgammon import NetPlayer
from ...players.backgammon_human import HumanVsNet
from ...results import Estimate, Table
from ..common.checks import Check, Checks, as_checks
from . import analysis
from .curves import (
    curve_arrays,
    curve_mean,
    fmt_point,
    lambda_comparison,
    learning_share,
    point_at,
)
from .match import MatchResult, make_opponent, run_match
from .shipped import SIZES, Shipped, load_shipped, retrain
from .spec import TrainLog, TrainSpec
from .strength import StrengthPlan, record
from .training import Schedule, train

NOTEBOOK = "08_td_gammon"

# ----------------------------------------------------------------------------- profiles

#: Profile defaults for notebook 08 (see :func:`config`).  Match sizes are duplicate *pairs*
#: (two games each).  ``RETRAIN`` (full profile) retrains both nets from scratch with the
#: commands recorded in their sidecars instead of loading the shipped weights, and then measures
#: their strength (``PUBEVAL_PAIRS`` against pubeval, ``LADDER_PAIRS`` against each 0-ply gnubg
#: level, ``WORLDCLASS_PAIRS`` against world class, ``TWO_PLY_PAIRS`` at 2-ply); otherwise the
#: strength is the figure in each shipped net's sidecar, and the notebook plays only ``PUBEVAL_PAIRS``
#: for the two nets on the same dice and ``LADDER_PAIRS`` of pubeval against gnubg-expert.
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "RETRAIN": False,
        "DEMO_HIDDEN": 10,
        "DEMO_GAMES": 400,
        "DEMO_EVAL_EVERY": 100,
        "DEMO_EVAL_PAIRS": 20,
        "PUBEVAL_PAIRS": 200,
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
    if cfg.RETRAIN:
        measure_strength(out, cfg, progress)
    return out


def measure_strength(shipped: dict[int, Shipped], cfg: profiles.Config, progress: bool = True) -> None:
    """Write the strength figure of retrained nets into their sidecars (full profile), with the
    profile's match sizes; the 80-hidden net is also measured at 2-ply."""
    for h, s in shipped.items():
        plan = StrengthPlan(
            pubeval_pairs=cfg.PUBEVAL_PAIRS,
            gnubg_pairs=cfg.LADDER_PAIRS,
            worldclass_pairs=cfg.WORLDCLASS_PAIRS,
            two_ply_pairs=cfg.TWO_PLY_PAIRS if h == 80 else 0,
        )
        s.sidecar["strength"] = record(s.path, plan, plan.command([s.path]), progress)


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


#: The chapter's findings (``tdbook.findings``): claim id → the statement, in the order a reader should meet them.
FINDINGS: dict[str, str] = {
    "much-learning-in-tens-of-thousands": "a great deal of learning takes place in the first tens of thousands "
    "of games of self-play",
    "more-hidden-units-better": "more hidden units give better results",
    "net80-beats-gnubg-intermediate": "the net, choosing at one ply, plays at a high intermediate level",
    "net80-1-ply-beats-minus-0.25-vs-gnubg-expert": "our aim: at one ply, lose less than a quarter of a point a game "
    "to GNU Backgammon's expert",
    "absolute-error-tenth": "the net's estimates of winning are off by about a tenth",
    "error-cancels-in-move-choice": "the net's error is common to a roll's moves and cancels out in choosing one",
}


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
    checks: Checks
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
    br = Estimate.of(analysis.branching(gp))
    checks.append(
        Check(
            "branching-ratio-400",
            br,
            f"successors of one ply, the legal moves summed over the 21 rolls, mean over the same {len(gp)} positions "
            f"(s.e. across positions); {mpr:.1f} moves per roll weighted by chance, 21 × 20 = 420 printed",
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
    return EngineChecks(as_checks(checks), table, mpr, mpr_contact)


def opening_units() -> dict[int, float]:
    """The non-zero units of the thesis's 198-unit encoding of the opening position (white on roll)."""
    x = encode_dense(bg.initial_position(), 0, True)
    return {int(i): float(x[i]) for i in np.flatnonzero(x)}


def shape_checks(shipped: dict[int, Shipped]) -> Checks:
    """§5.2's network shape as our code takes it (a setting): the thesis encoding's units and the shipped
    nets' hidden units."""
    units = int(encode_dense(bg.initial_position(), 0, True).size)
    hidden = sorted(int(s.hidden) for s in shipped.values())
    return as_checks(
        [
            Check(
                "network-shape",
                [units, *hidden],
                f"thesis encoding {units} units (the live run's); shipped nets: "
                + ", ".join(s.model.describe() for s in shipped.values()),
            )
        ]
    )


def encoding_checks(seed: int) -> tuple[Checks, str]:
    """The flip property of both encodings on positions from random games; a one-line summary."""
    rel_ok, tes_ok, n_flip = analysis.encoding_flip_property(20, seed=seed)
    check = Check(
        "encoding-flip",
        bool(rel_ok and tes_ok),
        f"encode(flip(p)) = half-swapped encode(p) (side-on-roll encoding) and the thesis "
        f"encoding's board units unchanged by a change of side, on {n_flip} positions",
    )
    summary = f"flip property on {n_flip} positions from random games: side-on-roll encoding {rel_ok}, "
    return as_checks([check]), summary + f"thesis encoding {tes_ok}"


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


def learning_curves(
    shipped: dict[int, Shipped], demo: TDGammon, demo_log: TrainLog
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The curves of §2's figure: each shipped net, the λ = 0.7 comparison run, the live run."""
    curves = {f"{h} hidden (shipped, λ={n.spec.lam:g})": curve_arrays(n.curve) for h, n in shipped.items()}
    lam07, info = lambda_comparison()
    curves[f"80 hidden, λ={info['spec']['lam']:g} (comparison run, stopped at {info['games']:,})"] = curve_arrays(lam07)
    curves[f"live: {demo.describe()}, λ=0.7"] = curve_arrays(demo_log.curve)
    return curves


def curve_checks(shipped: dict[int, Shipped]) -> tuple[Checks, Table]:
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
    return as_checks([much, lam]), table


# ----------------------------------------------------------------------------- §5 what the net learned


def pwin_checks(shipped: dict[int, Shipped]) -> tuple[Checks, Table]:
    """Each net's P(win) on the hand-made positions next to gnubg's; the 80-hidden net's sure win and loss."""
    tab, pw = analysis.pwin_table({f"{h} hidden": n.model for h, n in shipped.items()}, analysis.handmade_positions())
    sure_win = min(v["80 hidden"] for k, v in pw.items() if k.startswith("sure win"))
    sure_loss = max(v["80 hidden"] for k, v in pw.items() if k.startswith("sure loss"))
    return as_checks([Check("pwin-sure-win", sure_win), Check("pwin-sure-loss", sure_loss)]), tab


def agreement_checks(ag: analysis.Agreement, seed: int, shuffles: int = 200) -> tuple[Checks, Table]:
    """§5.3: the absolute error of the net's P(win) (gnubg as the reference); whether the error is
    common to a roll's moves, so that it cancels in the move choice — the error left after removing each
    roll's mean, against what it leaves when the same errors are shuffled across rolls (nothing in common
    within a roll); and how often the net picks gnubg's move."""
    null = analysis.common_error_shuffles(ag.roll_errors, shuffles, seed)
    rel, lo = float(ag.rel_err.mean()), float(np.quantile(null, 0.025))
    checks = [
        Check(
            "absolute-error-tenth",
            ag.mean_abs_error,
            f"mean |P(win) − gnubg P(win)| over {len(ag.p_ours)} positions from games (80 hidden); "
            f"'often around a tenth' read as 0.05–0.15; mean bias {ag.mean_bias:+.3f}",
        ),
        Check(
            "error-cancels-in-move-choice",
            bool(rel < lo),
            f"mean |net − gnubg| move value (equity) {ag.abs_err.mean():.3f} over {len(ag.abs_err)} rolls; after "
            f"removing each roll's common error {rel:.3f}, where the same errors shuffled across rolls leave "
            f"{null.mean():.3f} (95% of {shuffles} shuffles above {lo:.3f}): is the error common to a roll's moves?",
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
    return as_checks(checks), table


# ----------------------------------------------------------------------------- §6 play against the net


def refusal_checks(
    model: TDGammon, seed: int, attempts: Sequence[str] = ("13/3", "8/5 6/x", "25/20")
) -> tuple[Checks, list[str]]:
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
    return as_checks([check]), lines


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
    pubeval every ``games``/5), then a duplicate-dice match of ``pairs`` pairs against ``opponent`` (an unknown
    opponent is refused before any training)."""
    rival = make_opponent(opponent)
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
    r = run_match(NetPlayer(model), rival, int(pairs), seed=int(seed) + 1)
    return Explore(log, r, f"{model.describe()}, α={alpha:g}, λ={lam:g}, {games:,} games")
