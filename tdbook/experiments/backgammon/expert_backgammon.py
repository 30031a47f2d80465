"""Notebook 10's protocols: how close does TD self-play on two cores get to GNU Backgammon's expert?  The campaign
beyond the Symmetric gammon post (2011), measured and read from its record.

Every net of the campaign has a sidecar in ``data/`` (:data:`~.symmetric_gammon_nets.TRAINED`) holding its command,
its parent, its selection match and its report-seed ladder; the design is data too — the single changes
(:data:`~.symmetric_gammon_nets.LEVERS`), their kinds (:data:`~.symmetric_gammon_nets.FAMILIES`) and the runs whose
learning curves are fitted (:data:`~.symmetric_gammon_nets.RUNS`).  This module turns them into the notebook's
tables, figures and claims, and runs the three diagnoses:

- the protocol: :func:`net_rows` (every net's matches), :func:`best_net` (chosen on the selection match),
  :func:`sample_checks` (samples of the long matches replayed, :mod:`~.symmetric_gammon_records`);
- the results: :func:`aim_claims`, :func:`lever_rows` / :func:`lever_claims` / :func:`lever_figure`,
  :func:`run_claims` / :func:`curve_figure` (:mod:`~.symmetric_gammon_expert`);
- the diagnoses: :func:`losses` (every move judged by gnubg, :mod:`~.equity_loss`), :func:`lookahead` (a target one
  ply deeper, :mod:`~.lookahead_targets`), :func:`rollouts` (each net against its own play-outs,
  :mod:`~.rollout_consistency`: read from the record in the nets' sidecars when made with the settings asked for,
  a sample played out again);
- :func:`historical_rows` — the shipped nets made from uncommitted code, and the commit they were made on;
- the panel: :func:`remeasure` of a net the chapters read, on fresh selection-seed dice.

Notebook 10 uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):

- What we found: ``config``
- 2. The protocol: ``best_net``, ``NET_HEADER``, ``net_rows``, ``sample_checks``, ``CHECK_HEADER``, ``check_rows``
- 3. How close it got: ``aim_claims``
- 4. What the inputs and outputs bought: ``LEVER_HEADER``, ``lever_rows``, ``lever_claims``
- 5. What games, width, step size and averaging did not: ``lever_figure``
- 6. The learning curve and its slope: ``curve_figure``, ``CURVE_HEADER``, ``curve_rows``, ``run_claims``
- 7. Where the equity goes: ``losses``, ``short_label``, ``LOSS_HEADER``, ``loss_rows``, ``loss_claims``
- 8. What a deeper target would teach: ``lookahead``, ``LOOKAHEAD_HEADER``, ``lookahead_rows``, ``lookahead_claims``
- 9. How far a net is from its own play: ``rollouts``, ``rollout_figure``, ``ROLLOUT_HEADER``, ``rollout_rows``,
  ``rollout_claims``
- 11. The nets kept, and their record: ``HISTORICAL_HEADER``, ``historical_rows``
- 13. Try it yourself: ``remeasure``, ``panel_nets``, ``OPPONENTS``, ``remeasure_check``
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core import profiles
from ...core.profiles import resolve
from ...core.storage import read_sidecar
from . import equity_loss as _loss
from . import lookahead_targets as _look
from . import remeasure as _remeasure
from . import rollout_consistency as _roll
from . import symmetric_gammon_expert as _expert
from . import symmetric_gammon_nets as _nets
from . import symmetric_gammon_records as _records
from .strength import strength_text
from .symmetric_gammon_nets import (
    BEST,
    FAMILIES,
    LABELS,
    LEVERS,
    NETS,
    RUNS,
    TRAINED,
    best_shipped,
    load_shipped,
    net_path,
    net_spec,
)
from .symmetric_gammon_records import Check, check_curve_point, check_rollouts, check_trainer_match, recorded_rollouts

# What the notebook calls of the campaign's other modules, under this module's name (one entry module per notebook).
aim_claims = _expert.aim_claims
lever_claims = _expert.lever_claims
lever_rows = _expert.lever_rows
LEVER_HEADER = _expert.LEVER_HEADER
run_claims = _expert.run_claims
check_rows = _records.check_rows
CHECK_HEADER = _records.CHECK_HEADER
short_label = _nets.short_label

#: The chapter's findings (:mod:`tdbook.findings`): claim id → what a reader should take away, the miss first.
FINDINGS: dict[str, str] = {
    "expert-parity": "our aim: the best net level with gnubg-expert at equal search",
    "best-2ply-vs-gnubg-expert": "given two plies to gnubg-expert's none, the best net against it",
    "lever-backgammon-outputs": "what the backgammon outputs bought against gnubg-expert",
    "backgammoned-without-bg-outputs": "backgammons happen so rarely that they can be ignored",
    "curve-slope-positional": "the positional run's learning curve since 6 M games, per million games",
    "rollout-gap-best": "how far the best net is from its own play-outs in contact positions",
}

PROFILES: dict[str, dict[str, Any]] = profiles.table(
    standard={
        "LOSS_PAIRS": 500,
        "LOOK_POSITIONS": 2000,
        "ROLL_POSITIONS": 120,
        "ROLL_TRIALS": 192,
        "ROLL_CHECK": 3,
        "MATCH_CHECKS": 5,
        "CURVE_CHECK": True,
    },
    quick={
        "LOSS_PAIRS": 10,
        "LOOK_POSITIONS": 80,
        "ROLL_CHECK": 1,
        "MATCH_CHECKS": 1,
        "CURVE_CHECK": False,
    },
    full={
        "LOSS_PAIRS": 2000,
        "LOOK_POSITIONS": 5000,
        "ROLL_POSITIONS": 400,
        "ROLL_TRIALS": 288,
        "ROLL_CHECK": 0,
        "MATCH_CHECKS": len(NETS),
    },
)
#: The order in which the shipped nets' trainer matches are replayed (``MATCH_CHECKS`` of them): the best net, the
#: last net of the positional run, the diagnosed nets, then the post's nets.
MATCH_ORDER = (
    BEST,
    "symgammon_free160_positional_bg_8600k",
    "symgammon_free160_expanded_bg_4000k",
    "symgammon_free160_expanded_4000k",
    "symgammon_free80_expanded_800k",
    *(n for n in NETS if n.endswith("40_raw_150k")),
)
#: The net whose learning-curve point against gnubg-expert the standard profile replays.
CURVE_NET = "symgammon_free160_positional_bg_8600k"


def config(profile: str, **overrides: Any):
    """The knobs of ``profile`` with the notebook's non-None overrides (ValueError naming a bad one)."""
    return resolve(profile, PROFILES, **overrides)


# ----------------------------------------------------------------------------- the protocol


def best_net() -> str:
    """The best net by the protocol: the best selection match of every trained net (its sidecar).  ValueError when it
    is not :data:`~.symmetric_gammon_nets.BEST`, whose weights the chapters ship and read."""
    best = best_shipped()
    if best != BEST:
        raise ValueError(
            f"the best selection match is now {best}'s, not {BEST}'s: set BEST in symmetric_gammon_nets.py to it and "
            "ship its weights (add it to NETS)"
        )
    return best


def net_rows() -> list[list[str]]:
    """One row per net of :data:`~.symmetric_gammon_nets.TRAINED` past the post's own, in the order made: its short
    name, hidden units, inputs, outputs, games, its selection match (pubeval, selection seed) and its report-seed
    ladder against pubeval and gnubg-expert (sidecars), and whether its weights are shipped."""
    rows = []
    for n in TRAINED:
        side = read_sidecar(net_path(n))
        sp, sel = net_spec(side), side.get("selection", {}).get("vs_pubeval")
        if sp["hidden"] == 40:
            continue
        rows.append(
            [
                short_label(n),
                str(sp["hidden"]),
                sp.get("inputs", "raw"),
                "5" if sp.get("backgammons") else "3",
                f"{side['games'] / 1e6:.1f} M",
                f"{sel['ppg']:+.3f} ± {sel['stderr']:.3f}" if sel else "—",
                strength_text(side, "pubeval"),
                strength_text(side, "gnubg-expert"),
                "shipped" if n in NETS else "sidecar",
            ]
        )
    return rows


NET_HEADER = [
    "net",
    "hidden",
    "inputs",
    "outputs",
    "games",
    "selection match (vs pubeval)",
    "vs pubeval (report)",
    "vs gnubg-expert (report)",
    "weights",
]


def sample_checks(cfg: Any) -> list[Check]:
    """Samples of the long matches the sidecars state, replayed: the trainer's own match against pubeval of the first
    ``cfg.MATCH_CHECKS`` nets of :data:`MATCH_ORDER`, and with ``cfg.CURVE_CHECK`` the learning-curve point of
    :data:`CURVE_NET` against gnubg-expert (:mod:`~.symmetric_gammon_records`; a sample that is not its record's
    raises)."""
    checks = [check_trainer_match(n) for n in MATCH_ORDER[: cfg.MATCH_CHECKS]]
    if cfg.CURVE_CHECK:
        checks.append(check_curve_point(CURVE_NET, "gnubg-expert"))
    return checks


# ----------------------------------------------------------------------------- the results: levers and curves


def lever_figure() -> list[dict[str, Any]]:
    """One entry per lever for the figure: ``{"lever", "family", "section", "gain", "stderr", "pooled"}``, the gain
    against gnubg-expert, in the order of the lever table."""
    out = []
    for fam, f in FAMILIES.items():
        for lev in (x for x in LEVERS if x.family == fam):
            g = _expert.lever_gain(lev, "gnubg-expert")
            out.append(
                {
                    "lever": lev.id,
                    "family": fam,
                    "section": f.section,
                    "gain": g.mean,
                    "stderr": g.stderr,
                    "pooled": lev.pooled,
                }
            )
    return out


def curve_figure(opp: str = "gnubg-expert") -> dict[str, dict[str, Any]]:
    """``{run label: {"games", "ppg", "stderr", "seeds", "fitted_from"}}``: every point of each run of
    :data:`~.symmetric_gammon_nets.RUNS` against ``opp`` (million games; ``seeds`` says which seed set its points are
    on; its claim fits the points from ``fitted_from`` million games on)."""
    out = {}
    for run in RUNS.values():
        pts = _expert.run_points(run, since=0)[opp]
        out[run.label] = {
            "games": [x for x, _ in pts],
            "ppg": [e.mean for _, e in pts],
            "stderr": [e.stderr for _, e in pts],
            "seeds": "report" if run.nets else "selection",
            "fitted_from": run.since / 1e6,
        }
    return out


def curve_rows() -> list[list[str]]:
    """One row per point of each run: the run, games, ppg against pubeval and against gnubg-expert, the seed set."""
    rows = []
    for run in RUNS.values():
        pts = _expert.run_points(run, since=0)
        for (x, p), (_, g) in zip(pts["pubeval"], pts["gnubg-expert"]):
            seeds = "report" if run.nets else "selection"
            rows.append(
                [run.label, f"{x:.2f} M", f"{p.mean:+.3f} ± {p.stderr:.3f}", f"{g.mean:+.3f} ± {g.stderr:.3f}", seeds]
            )
    return rows


CURVE_HEADER = ["run", "games", "vs pubeval", "vs gnubg-expert", "seeds"]


# ----------------------------------------------------------------------------- the diagnoses


def losses(cfg: Any, seed: int, progress: bool = True) -> dict[str, dict[str, Any]]:
    """Each net of :data:`~.equity_loss.LOSS_NETS` against gnubg-expert for ``cfg.LOSS_PAIRS`` pairs (selection seed
    ``seed``), every move judged by gnubg 0-ply (:func:`~.equity_loss.equity_losses`), all on the same dice."""
    return _loss.shipped_losses(cfg.LOSS_PAIRS, seed, progress=progress)


def loss_rows(res: dict[str, dict[str, Any]]) -> list[list[str]]:
    return _loss.loss_rows(res, {k: short_label(k) for k in res})


LOSS_HEADER = ["net", "position class", "moves per game", "equity lost per game", "… a backgammon as a gammon"]


def loss_claims(res: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return _loss.loss_claims(res)


def lookahead(best: str, cfg: Any, seed: int) -> dict[str, Any]:
    """The best net's value, its value one ply deeper and gnubg 2-ply's on ``cfg.LOOK_POSITIONS`` positions from
    pubeval games (:func:`~.lookahead_targets.lookahead_accuracy`)."""
    return _look.lookahead_accuracy(load_shipped(best), cfg.LOOK_POSITIONS, seed=seed)


LOOKAHEAD_HEADER = _look.LOOKAHEAD_HEADER


def lookahead_rows(acc: dict[str, Any]) -> list[list[str]]:
    return _look.lookahead_rows(acc)


def lookahead_claims(acc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return _look.lookahead_claims(acc)


@dataclass(frozen=True)
class Rollouts:
    """The rollout diagnosis of each net (``{net: result}``, weakest first, the best last), where it comes from (the
    record's command, or "measured in this run") and the samples played out again."""

    results: dict[str, dict[str, Any]]
    source: str
    checks: tuple[Check, ...] = ()


def rollouts(best: str, cfg: Any, seed: int, progress: bool = True) -> Rollouts:
    """Each net of :data:`~.rollout_consistency.CONSISTENCY_NETS` and the best net against its own play-outs:
    ``cfg.ROLL_POSITIONS`` contact positions from its own self-play, ``cfg.ROLL_TRIALS`` play-outs each.  From the
    record in the nets' sidecars when made with these settings (``cfg.ROLL_CHECK`` positions of each net played out
    again), else measured here."""
    names = [*(n for n in _roll.CONSISTENCY_NETS if n != best), best]
    found = recorded_rollouts(names, cfg.ROLL_POSITIONS, cfg.ROLL_TRIALS, seed)
    if found is None:
        res = _roll.shipped_consistency(best, cfg.ROLL_POSITIONS, cfg.ROLL_TRIALS, seed, progress=progress)
        return Rollouts(res, "measured in this run")
    checks = [c for n in names for c in check_rollouts(found, n, cfg.ROLL_POSITIONS, seed, cfg.ROLL_CHECK)]
    cmd = {r["command"] for r in found.values()}
    return Rollouts(
        found, "the records in the nets' sidecars, made by " + "; ".join(f"`{c}`" for c in sorted(cmd)), tuple(checks)
    )


ROLLOUT_HEADER = _roll.CONSISTENCY_HEADER


def rollout_rows(r: Rollouts) -> list[list[str]]:
    return _roll.consistency_rows(r.results)


def rollout_claims(r: Rollouts) -> dict[str, dict[str, Any]]:
    return _roll.consistency_claims(r.results)


def rollout_figure(r: Rollouts) -> dict[str, dict[str, np.ndarray]]:
    """``{net label: {"net", "rollout", "rollout_se"}}`` for the figure: each position's equity and its rollout."""
    return {
        short_label(n): {k: np.asarray(v[k]) for k in ("net", "rollout", "rollout_se")} for n, v in r.results.items()
    }


# ----------------------------------------------------------------------------- the record of the shipped nets


def historical_rows() -> list[list[str]]:
    """The shipped nets (:data:`~.symmetric_gammon_nets.NETS`) whose sidecar says they were made from uncommitted
    code (``+dirty``): each is historical — kept as made, not retrained — with the commit its code was on top of and
    the command that made it."""
    rows = []
    for n in NETS:
        side = read_sidecar(net_path(n))
        v = str(side.get("code_version", ""))
        if "+dirty" not in v:
            continue
        m = re.search(r"git ([0-9a-f]+)\+dirty", v)
        rows.append([n, LABELS.get(n, n), m.group(1) if m else v, side["command"]])
    return rows


HISTORICAL_HEADER = ["net", "label", "made on top of commit", "command"]


# ----------------------------------------------------------------------------- the panel


def panel_nets() -> list[tuple[str, str]]:
    """(label, name) of every net whose weights the chapters read: the nets the re-measure panel offers."""
    return list(_remeasure.shipped_nets().items())


remeasure = _remeasure.remeasure
remeasure_check = _remeasure.remeasure_check
OPPONENTS = _remeasure.OPPONENTS
