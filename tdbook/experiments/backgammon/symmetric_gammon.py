"""Notebook 09's protocols: symmetric gammon outputs (Symmetric gammon post (2011)) measured.

- :func:`symmetry_errors` — the flip identities on positions from recorded games and random weights;
- :func:`opening_values` — each net's outputs at the starting position (side on roll, and before the
  opening roll for the symmetric nets) beside gnubg's;
- :func:`rival_curves` — the four rivals trained by self-play at equal budgets with their learning curves against
  pubeval (duplicate dice): read from their shipped record when it was made with the settings asked for (a sample
  trained again), else trained here (:mod:`~tdbook.experiments.backgammon.symmetric_gammon_records`); (d) is notebook
  08's TD-Gammon net through its own trainer;
- :func:`calibration` — P(win), P(gammon win), P(gammon loss) of each net against GNU Backgammon's
  0-ply evaluation on positions from recorded pubeval games, by position class;
- :func:`gammon_rates` — the observed gammon rate of each net's self-play games beside its prediction;
- :func:`speed` — self-play training games per second of each architecture;
- :func:`constraint_claims` — what the constraint costs at a larger budget, (a″) against (c″), from their sidecars;
- :func:`strength_rows` and :func:`ladder_figure` — how strong the best net of the campaign got (its report-seed
  ladder from its sidecar); the campaign itself is notebook 10's
  (:mod:`~tdbook.experiments.backgammon.expert_backgammon`).

The module is long (about 600 lines) but one thing: notebook 09's measurements, in the notebook's order, all
reading the same recorded positions and shipped nets, so that a reader of a section finds here how each of
its numbers is measured.  The shipped nets themselves — their names, labels and the single changes between them —
are :mod:`~tdbook.experiments.backgammon.symmetric_gammon_nets`.

Notebook 09 uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):

- What we found: ``config``
- 1. The derivation, checked: ``symmetric_outputs``, ``symmetry_errors``, ``load_nets``, ``quarter_check``,
  ``opening_values``, ``identity_claims``, ``parameter_claims``
- 2. Gammon calibration against GNU Backgammon: ``shipped_info``, ``calibration``, ``gammon_rates``, ``LABELS``,
  ``RIVALS``, ``calibration_claims``
- 3. What the constraint costs and buys: ``rival_curves``, ``CHECK_HEADER``, ``check_rows``, ``curve_claims``
- 3.1 What the constraint costs: ``constraint_claims``
- 3.2 Speed: ``speed``, ``speed_rows``
- 4. How strong can it get: ``best_shipped``, ``STRENGTH_HEADER``, ``strength_rows``, ``short_label``,
  ``ladder_figure``
- 6. Try it yourself: ``load_shipped``, ``picker_positions``, ``explore``, ``explore_check``
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ...claims import Estimate
from ...core import profiles
from ...core.paths import data_dir
from ...core.profiles import resolve
from ...core.storage import read_sidecar
from ...games import backgammon as bg
from ...learners.backgammon_net import TDGammon
from ...learners.backgammon_symmetric import ARCH_FREE, SymmetricGammon, symmetric_outputs
from . import symmetric_gammon_nets as _nets
from .analysis import game_positions
from .equity_loss import position_class
from .strength import strength as figure  # a sidecar's 1-ply report-seed figure
from .symmetric_gammon_nets import CONSTRAINT_AT_BUDGET, LABELS, RIVAL_NETS, TESAURO_SHIPPED, net_path, short_label
from .symmetric_gammon_records import CHECK_HEADER, Check, check_rivals, check_rows, recorded_rivals, rivals_spec
from .symmetric_gammon_rivals import RIVALS, Curve, final_gap, new_rival, train_chunk, train_rival

# What the notebook calls of the nets' module, under this module's name (one entry module per notebook).
best_shipped = _nets.best_shipped
load_shipped = _nets.load_shipped

__all__ = ["CHECK_HEADER", "check_rows", "position_class", "symmetric_outputs", "train_rival"]

PROFILES: dict[str, dict[str, Any]] = profiles.table(
    standard={
        "HIDDEN": 40,
        "GAMES": 25_000,
        "EVAL_EVERY": 5000,
        "EVAL_PAIRS": 250,
        "SEEDS": 3,
        "ALPHA": 0.1,
        "VERIFY_POINTS": 2,
        "POSITIONS": 4000,
        "RATE_GAMES": 2000,
        "SYM_POSITIONS": 200,
        "SYM_NETS": 10,
        "SPEED_GAMES": 3000,
    },
    quick={
        "VERIFY_POINTS": 1,
        "POSITIONS": 150,
        "RATE_GAMES": 200,
        "SYM_POSITIONS": 30,
        "SYM_NETS": 3,
        "SPEED_GAMES": 300,
    },
    full={
        "GAMES": 100_000,
        "EVAL_EVERY": 10_000,
        "EVAL_PAIRS": 1000,
        "VERIFY_POINTS": 0,
        "POSITIONS": 5000,
        "RATE_GAMES": 5000,
        "SYM_POSITIONS": 1000,
        "SYM_NETS": 20,
        "SPEED_GAMES": 10_000,
    },
)

#: The chapter's findings (:mod:`tdbook.findings`): claim id → what a reader should take away.
FINDINGS: dict[str, str] = {
    "gammon-mae-best": "our aim: net (a) or (c) within 0.03 of gnubg's P(gammon win), mean absolute error",
    "near-certain-a-minus-c": "the symmetric net is weaker on near-certain positions, (a) minus (c) in P(win) error",
    "gammon-rate-a": "net (a) under-predicts gammons: the share of its own self-play games that end in one",
    "gap-a-minus-c": "what the constraint costs at equal budgets, (a) minus (c) against pubeval",
    "expanded-a-minus-c-pubeval": "and at a larger budget with hand-made inputs, (a″) minus (c″) against pubeval",
}
#: The opponents of the best net's ladder ("How strong can it get"), from its sidecar's report-seed figures.
LADDER = ("pubeval", "gnubg-beginner", "gnubg-intermediate", "gnubg-advanced", "gnubg-expert")


def config(profile: str, **overrides: Any):
    """The knobs of ``profile`` with the notebook's non-None overrides (ValueError naming a bad one)."""
    return resolve(profile, PROFILES, **overrides)


# ----------------------------------------------------------------------------- §1 the identities


def _random_net(arch: str, hidden: int, seed: int, scale: float) -> SymmetricGammon:
    model = SymmetricGammon.new(arch, hidden=hidden, seed=seed)
    rng = np.random.default_rng(seed)
    model.W1[:] = rng.normal(0.0, scale, model.W1.shape)
    model.W2[:] = rng.normal(0.0, scale, model.W2.shape)
    return SymmetricGammon(model.net, arch)


def symmetry_errors(n_positions: int, n_nets: int, seed: int, hidden: int = 20) -> dict[str, dict[str, float]]:
    """Largest violations over ``n_nets`` random-weight nets × ``n_positions`` recorded positions of
    ``P(win)(x) + P(win)(flip x) = 1`` and ``P(gl|l)(x) = P(gw|w)(flip x)``, per architecture (the
    unconstrained net as the control that breaks them), and of the naive net's ``P(gl|l) = 1 − P(gw|w)``."""
    positions, _ = game_positions(n_positions, seed=seed)
    out: dict[str, dict[str, float]] = {}
    for arch in ("symmetric", "naive", "free"):
        e_win = e_gam = e_naive = 0.0
        for k in range(n_nets):
            m = _random_net(arch, hidden, seed + 1000 * k, scale=1.0 + k % 3)
            for pos in positions:
                if arch == "free":
                    p, pf = m.probabilities(pos), m.probabilities(bg.flipped(pos))
                    e_win = max(e_win, abs(p[0] + pf[0] - 1.0))
                    e_gam = max(e_gam, abs(p[2] - pf[1]))  # P(gl)(x) vs P(gw)(flip x), unconditional
                    continue
                z, _ = m.nodes(pos, 1.0)
                zf, _ = m.nodes(bg.flipped(pos), -1.0)
                e_win = max(e_win, abs(z[0] + zf[0] - 1.0))
                e_gam = max(e_gam, abs(z[2] - zf[1]))
                if arch == "naive":
                    e_naive = max(e_naive, abs(z[2] - (1.0 - z[1])))
        out[arch] = {"win": e_win, "gammon": e_gam, "cases": n_nets * len(positions)}
        if arch == "naive":
            out[arch]["naive_tie"] = e_naive
    return out


def quarter_check(models: dict[str, SymmetricGammon], n_random: int, seed: int) -> dict[str, Any]:
    """P(gammon win) before the opening roll (side-to-move unit 0): for ``n_random`` random-weight naive
    nets and for the given (trained) nets.  The naive net's value is ¼ whatever its weights."""
    naive = [
        float(_random_net("naive", 20, seed + k, 1.0 + k % 4).nodes(bg.initial_position(), 0.0)[1][1])
        for k in range(n_random)
    ]
    trained = {a: float(m.nodes(bg.initial_position(), 0.0)[1][1]) for a, m in models.items()}
    return {"random_naive": naive, "trained": trained}


def free_parameters(model: SymmetricGammon, positions: np.ndarray) -> dict[str, int]:
    """Free parameters of the P(win) node and of the gammon node (§13–§14), counted on a net as the rank of the
    Jacobian of each node's logit over ``positions`` with respect to every stored weight of that node's column of
    ``W2`` (its hidden-unit weights and its bias slot): the number of directions in which the node's weights can
    move the node's value.  The logits are linear in those weights, so central differences are exact to rounding;
    positions where a node saturates (logit beyond ±20) are left out."""
    w2 = model.W2
    out = {}
    for name, k in (("win", 0), ("gammon", 1)):
        base = np.array([model.nodes(p)[0][k] for p in positions])
        keep = (base > 2e-9) & (base < 1 - 2e-9)
        rows = []
        for i in range(w2.shape[0]):
            logit = []
            for h in (0.5, -0.5):
                old = w2[i, k]
                w2[i, k] = old + h
                z = np.array([model.nodes(p)[0][k] for p in positions[keep]])
                w2[i, k] = old
                logit.append(np.log(z) - np.log1p(-z))
            rows.append(logit[0] - logit[1])
        jac = np.array(rows).T
        out[name] = int(np.linalg.matrix_rank(jac, tol=1e-6 * np.abs(jac).max()))
    return out


def trained_outputs(model: SymmetricGammon) -> int:
    """Output nodes a net trains: the columns of ``W2`` with a weight that is not exactly zero (§15–§16: the
    symmetric nets' third node is computed from the second node's weights, and its column stays zero)."""
    return int(np.count_nonzero(np.any(model.W2 != 0.0, axis=0)))


def parameter_claims(nets: dict[str, Any], n_positions: int, seed: int) -> dict:
    """``{claim id: {"ours": …, "note": …}}`` for §13–§16: the free parameters of the nodes of the shipped net (a),
    counted (:func:`free_parameters`) minus its hidden units M, and the output nodes it trains."""
    positions, _ = game_positions(n_positions, seed=seed)
    a, b = nets["symmetric"], nets["naive"]
    fa, fb = free_parameters(a, positions), free_parameters(b, positions)
    m = a.hidden
    return {
        "free-params-win": {
            "ours": fa["win"] - m,
            "note": f"net (a), M = {m}: rank {fa['win']} over {len(positions)} positions; "
            f"net (b)'s P(win) node: {fb['win']}",
        },
        "free-params-gammon": {
            "ours": fa["gammon"] - m,
            "note": f"net (a), M = {m}: rank {fa['gammon']}; the naive net (b)'s unbiased gammon node has "
            f"{fb['gammon']} = M − 1, the post's counter-example",
        },
        "two-output-nodes": {
            "ours": trained_outputs(a),
            "note": f"net (a); (b) {trained_outputs(b)}, the unconstrained (c) {trained_outputs(nets['free'])}, "
            "notebook 08's TD-Gammon net 4",
        },
    }


# ----------------------------------------------------------------------------- §2 calibration against gnubg


def probabilities(model, pos: np.ndarray) -> np.ndarray:
    """(P(win), P(gammon win), P(gammon loss)) of the side on roll for either kind of net (gammons
    include backgammons)."""
    if isinstance(model, TDGammon):
        o = model.outputs_of(pos, 0)
        return np.array([0.5 * (o[0] + 1.0 - o[2]), o[1], o[3]])
    return model.probabilities(pos)[:3]


def gnubg_probabilities(positions: np.ndarray) -> np.ndarray:
    """gnubg 0-ply (win, gammon win, gammon loss) of the side on roll of each position (its gammon
    figures include backgammons, as ours do)."""
    from ...games.backgammon_gnubg import context, gnubg, to_gnubg

    g = gnubg()
    ctx, cube = context(), g.cube_info()
    out = np.empty((len(positions), 3))
    for i, pos in enumerate(positions):
        e = g.evaluate(to_gnubg(pos), cube, ctx)
        out[i] = (e[0], e[1], e[3])
    return out


def load_nets(hidden_tesauro_file: str = TESAURO_SHIPPED) -> dict[str, Any]:
    """The shipped nets of (a)–(c) and notebook 08's 80-hidden TD-Gammon net as (d)."""
    nets: dict[str, Any] = {r: SymmetricGammon.load(net_path(n)) for r, n in RIVAL_NETS.items()}
    nets["tesauro"] = TDGammon.load(data_dir() / hidden_tesauro_file)
    return nets


def table_files() -> list[tuple[str, Path]]:
    """(label, weights file) of the nets §1 and §2 measure: the post's nets (a)–(c) and notebook 08's net as (d)."""
    post = [(LABELS[r], net_path(n)) for r, n in RIVAL_NETS.items()]
    return post + [(LABELS["tesauro"], data_dir() / TESAURO_SHIPPED)]


def shipped_info() -> list[list[str]]:
    """One row per net of :func:`table_files`: rival, net, games, wall time, the command that made it."""
    rows = []
    for label, f in table_files():
        side = read_sidecar(f)
        rows.append([label, side.get("net", ""), f"{side['games']:,}", f"{side['wall_time_s']:.0f} s", side["command"]])
    return rows


def calibration(nets: dict[str, Any], n_positions: int, seed: int, progress: bool = True) -> dict[str, Any]:
    """Each net's three probabilities against gnubg's on ``n_positions`` positions from recorded
    pubeval-vs-pubeval games: mean absolute errors overall and by position class (near-certain =
    gnubg's P(win) below 0.05 or above 0.95), and the raw pairs for a reliability diagram."""
    positions, _ = game_positions(n_positions, seed=seed)
    ref = gnubg_probabilities(positions)
    classes = np.array([position_class(p) for p in positions])
    near = (ref[:, 0] < 0.05) | (ref[:, 0] > 0.95)
    pred = {}
    for name, m in tqdm(nets.items(), desc="nets vs gnubg", disable=not progress, leave=False):
        pred[name] = np.array([probabilities(m, p) for p in positions])
    mae = {n: [float(np.mean(np.abs(pr[:, k] - ref[:, k]))) for k in range(3)] for n, pr in pred.items()}
    groups = {c: classes == c for c in ("contact", "race", "bear-off")}
    groups["near-certain"] = near
    by_class = {
        n: {
            c: (float(np.mean(np.abs(pr[mask, 0] - ref[mask, 0]))) if mask.any() else float("nan"))
            for c, mask in groups.items()
        }
        for n, pr in pred.items()
    }
    counts = {c: int(mask.sum()) for c, mask in groups.items()}
    return {"positions": len(positions), "ref": ref, "pred": pred, "mae": mae, "by_class": by_class, "counts": counts}


def opening_values(nets: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Each net's (P(win), P(gammon win), P(gammon loss)) for the side on roll at the starting position
    (before its roll), gnubg's, and for the symmetric nets the values with nobody on roll."""
    start = bg.initial_position()
    out = {"gnubg": dict(zip(("win", "gw", "gl"), gnubg_probabilities(start[None])[0].tolist()))}
    for name, m in nets.items():
        p = probabilities(m, start)
        out[name] = {"win": float(p[0]), "gw": float(p[1]), "gl": float(p[2])}
        if isinstance(m, SymmetricGammon) and m.kind != ARCH_FREE:
            q = m.nodes(start, 0.0)[1]
            out[name].update({"win_preroll": float(q[0]), "gw_preroll": float(q[1])})
    return out


def gammon_rates(nets: dict[str, Any], games: int, seed: int) -> dict[str, dict[str, float]]:
    """Each net in self-play (its greedy 1-ply choice, no learning: step 0) for ``games`` games: the
    observed share of games ending in a gammon or backgammon (± s.e.) beside the net's own prediction
    at the start (P(gammon win) + P(gammon loss) of the side on roll)."""
    out = {}
    start = bg.initial_position()
    for name, m in nets.items():
        w1 = m.net.W1.copy()
        st = train_chunk(m, 0.0, seed, 0, games)
        if not np.array_equal(w1, m.net.W1):
            raise RuntimeError("self-play with step 0 moved the weights")
        g = np.abs(st[:, 0]) >= 2
        rate = float(g.mean())
        p = probabilities(m, start)
        out[name] = {
            "observed": rate,
            "stderr": float(math.sqrt(rate * (1 - rate) / len(g))),
            "predicted": float(p[1] + p[2]),
            "games": int(games),
        }
    return out


def speed(hidden: int, games: int, seed: int = 1) -> dict[str, dict[str, float]]:
    """Self-play training speed of each rival: ``games`` games after ``games`` warm-up games (compilation,
    and long enough learning for games of a learning net's length).  Games/s depends on how long the
    games are, which differs between rivals that have learned differently, so moves (plies) per second —
    the cost of one training step with its 1-ply search — is reported beside it."""
    out = {}
    for rival in RIVALS:
        m = new_rival(rival, hidden, 0.1, seed)
        train_chunk(m, 0.1, seed, 0, games)
        t = time.perf_counter()
        st = train_chunk(m, 0.1, seed, games, games)
        dt = time.perf_counter() - t
        out[rival] = {"games_s": games / dt, "plies_s": float(st[:, 1].sum()) / dt}
    return out


# ----------------------------------------------------------------------------- §3 the rivals' curves


@dataclass(frozen=True)
class RivalCurves:
    """The rivals' learning curves (seed by seed, rival by rival), where they come from (the record's command, or
    "trained in this run") and the samples of the record trained again."""

    curves: list[Curve]
    source: str
    checks: tuple[Check, ...] = ()

    def as_dicts(self) -> list[dict[str, Any]]:
        return [c.as_dict() for c in self.curves]


def rival_curves(cfg: Any, seed: int, progress: bool = True) -> RivalCurves:
    """Every rival trained at equal budgets for ``cfg.SEEDS`` seeds from ``seed`` (``cfg.HIDDEN`` hidden units,
    ``cfg.GAMES`` games, step ``cfg.ALPHA``, a point every ``cfg.EVAL_EVERY`` games of ``cfg.EVAL_PAIRS`` pairs): from
    the shipped record when it was made with exactly these settings, its first ``cfg.VERIFY_POINTS`` points of
    rival (a) trained again and compared (:func:`~.symmetric_gammon_records.check_rivals`); else trained here."""
    spec = rivals_spec(cfg.HIDDEN, cfg.GAMES, cfg.ALPHA, seed, cfg.SEEDS, cfg.EVAL_EVERY, cfg.EVAL_PAIRS)
    found = recorded_rivals(spec)
    if found is None:
        curves = [
            train_rival(
                r, cfg.HIDDEN, cfg.GAMES, cfg.ALPHA, seed + s, cfg.EVAL_EVERY, cfg.EVAL_PAIRS, progress=progress
            )[1]
            for s in range(cfg.SEEDS)
            for r in RIVALS
        ]
        return RivalCurves(curves, "trained in this run")
    curves, record = found
    checks = check_rivals(curves, spec, "symmetric", cfg.VERIFY_POINTS) if cfg.VERIFY_POINTS else []
    return RivalCurves(curves, f"the shipped record of `{record['command']}` ({record['code_version']})", tuple(checks))


# ----------------------------------------------------------------------------- §4 the panel and the picker


def five_numbers(model, pos: np.ndarray) -> list[float]:
    """P(win), P(gammon win | win), P(gammon loss | loss), P(gammon win), P(gammon loss) and the cubeless
    equity of the side on roll (gnubg: pass ``None`` as ``model``)."""
    p = gnubg_probabilities(np.asarray(pos)[None])[0] if model is None else probabilities(model, pos)
    w, gw, gl = (float(x) for x in p)
    return [w, gw / w if w > 0 else float("nan"), gl / (1 - w) if w < 1 else float("nan"), gw, gl, 2 * w - 1 + gw - gl]


def position_rows(nets: dict[str, Any], pos: np.ndarray) -> list[list[str]]:
    """Table rows: each net's :func:`five_numbers` for ``pos`` and gnubg's."""
    rows = [["gnubg 0-ply"] + [f"{x:.3f}" for x in five_numbers(None, pos)]]
    for name, m in nets.items():
        rows.append([short_label(name)] + [f"{x:.3f}" for x in five_numbers(m, pos)])
    return rows


POSITION_HEADER = ["net", "P(win)", "P(gw | w)", "P(gl | l)", "P(gw)", "P(gl)", "equity"]


def explore(
    rival: str = "symmetric",
    hidden: int = 20,
    games: int = 2000,
    seed: int = 1,
    eval_pairs: int = 100,
    inputs: str = "raw",
    backgammons: bool = False,
):
    """Train one rival for ``games`` games (evaluating 4 times) and report its curve and opening numbers."""
    if rival not in RIVALS:
        raise ValueError(f"unknown rival {rival!r}; choose from: {', '.join(RIVALS)}")
    if games < 4 or games % 4:
        raise ValueError(f"games must be a positive multiple of 4, got {games}")
    model, curve = train_rival(
        rival,
        int(hidden),
        int(games),
        0.1,
        int(seed),
        games // 4,
        int(eval_pairs),
        inputs=inputs,
        backgammons=bool(backgammons),
    )
    start = bg.initial_position()
    label = (
        LABELS[rival]
        + ("" if inputs == "raw" else f", {inputs} inputs")
        + (", backgammon outputs" if backgammons else "")
    )
    return {"curve": curve.as_dict(), "opening": probabilities(model, start).tolist(), "label": label}


def explore_check(rival: str = "symmetric", inputs: str = "raw", backgammons: bool = False, **_: Any) -> str | None:
    """Why the panel's combination of settings cannot run (None when it can), said before Run: the checks of
    :func:`new_rival`, as one sentence that names what to change."""
    if rival == "tesauro" and (inputs != "raw" or backgammons):
        return (
            "(d) is notebook 08's net: raw inputs and its four outputs only — set inputs to raw and untick backgammons"
        )
    if backgammons and rival != "free":
        return "backgammon outputs are for (c), the free net, only — pick rival 'free' or untick backgammons"
    return None


# ----------------------------------------------------------------------------- the claims' measured values


def identity_claims(errs: dict[str, dict[str, float]], quarter: dict[str, Any], opening: dict[str, Any]) -> dict:
    """``{claim id: {"ours": …, "note": …}}`` for §1's identities, the ¼ and gnubg's opening gammons."""
    worst_quarter = max(
        [abs(q - 0.25) for q in quarter["random_naive"]] + [abs(quarter["trained"]["naive"] - 0.25)], default=0.0
    )
    quarter_value = 0.25 + worst_quarter if worst_quarter else quarter["trained"]["naive"]
    cases = errs["symmetric"]["cases"] + errs["naive"]["cases"]
    g = opening["gnubg"]
    return {
        "opening-pwin-half": {
            "ours": g["win"],
            "note": "gnubg 0-ply, the side on roll at the start (before its roll); nobody on roll, the symmetric "
            "nets give exactly ½ (the ¼ above rests on it)",
        },
        "flip-pwin": {
            "ours": max(errs["symmetric"]["win"], errs["naive"]["win"]),
            "note": f"{cases} net × position cases; the unconstrained net (c) breaks it by {errs['free']['win']:.2f}",
        },
        "flip-gammon-tied": {
            "ours": max(errs["symmetric"]["gammon"], errs["naive"]["gammon"]),
            "note": f"{cases} cases; (c) breaks it by {errs['free']['gammon']:.2f}",
        },
        "naive-complement": {"ours": errs["naive"]["naive_tie"], "note": f"{errs['naive']['cases']} cases"},
        "naive-quarter": {
            "ours": quarter_value,
            "note": f"{len(quarter['random_naive'])} random naive nets and the trained one; largest |P − ¼| "
            f"{worst_quarter:.1e}; net (a) trained: {quarter['trained']['symmetric']:.3f}",
        },
        "quarter-much-too-high": {
            "ours": 0.5 * (g["gw"] + g["gl"]),
            "note": f"gnubg at the start: side on roll P(gw) {g['gw']:.3f}, its opponent {g['gl']:.3f}",
        },
    }


def calibration_claims(cal: dict[str, Any], opening: dict[str, Any], rates: dict[str, Any]) -> dict:
    """``{claim id: {"ours": …, "note": …}}`` for §2: the gammon MAEs, near-certain errors, opening, rates."""
    mae = cal["mae"]
    best = min(("symmetric", "free"), key=lambda n: mae[n][1])
    near = cal["by_class"]
    r = rates["symmetric"]
    return {
        "gammon-mae-all": {
            "ours": [mae[n][1] for n in RIVALS],
            "note": f"{cal['positions']} positions; P(gl) MAEs {[round(mae[n][2], 4) for n in RIVALS]}",
        },
        "gammon-mae-best": {
            "ours": mae[best][1],
            "note": f"the better of (a) and (c) is {LABELS[best]}; {cal['positions']} positions",
        },
        "near-certain-a-minus-c": {
            "ours": near["symmetric"]["near-certain"] - near["free"]["near-certain"],
            "note": f"{cal['counts']['near-certain']} near-certain positions: "
            f"(a) {near['symmetric']['near-certain']:.4f}, (c) {near['free']['near-certain']:.4f}",
        },
        "opening-pwin-a": {
            "ours": opening["symmetric"]["win"],
            "note": f"gnubg {opening['gnubg']['win']:.4f}; (c) {opening['free']['win']:.4f}; "
            f"before the opening roll (a) gives exactly {opening['symmetric']['win_preroll']}",
        },
        "gammon-rate-a": {
            "ours": Estimate(r["observed"], r["stderr"], r["games"]),
            "note": f"its own prediction at the start {r['predicted']:.3f}; gnubg's "
            f"{opening['gnubg']['gw'] + opening['gnubg']['gl']:.3f}",
        },
    }


def curve_claims(curves: list[Curve]) -> dict:
    """``{"gap-a-minus-c": …}``: the final ppg against pubeval of (a) minus (c), mean over seeds (§3)."""
    gap, se, n = final_gap(curves, "symmetric", "free")
    return {
        "gap-a-minus-c": {
            "ours": Estimate(gap, se, n),
            "note": f"after {curves[0].games[-1]:,} games, mean of {n} seeds; "
            f"(a) − (b): {final_gap(curves, 'symmetric', 'naive')[0]:+.3f}, "
            f"(a) − (d): {final_gap(curves, 'symmetric', 'tesauro')[0]:+.3f}",
        },
    }


def constraint_claims() -> dict:
    """``{claim id: {"ours": …, "note": …}}``: what the constraint costs at a larger budget — (a″), the symmetric net
    with (c″)'s inputs and budget, minus (c″), against pubeval and gnubg-expert (their sidecars' report-seed
    ladders)."""
    a, c = CONSTRAINT_AT_BUDGET
    sa, sc = read_sidecar(net_path(a)), read_sidecar(net_path(c))
    out = {}
    for opp, tag in (("pubeval", "pubeval"), ("gnubg-expert", "expert")):
        x, y = figure(sa, opp), figure(sc, opp)
        out[f"expanded-a-minus-c-{tag}"] = {
            "ours": Estimate(x.mean - y.mean, math.hypot(x.stderr, y.stderr), min(x.n, y.n)),
            "note": f"{short_label(a)} {x.mean:+.3f} minus {short_label(c)} {y.mean:+.3f}, ppg against {opp} "
            "(sidecars, report seed)",
        }
    return out


def _ladder_of(side: dict) -> dict[str, dict[str, float]]:
    out = {}
    for opp in LADDER:
        try:
            e = figure(side, opp)
        except ValueError:
            continue
        out[opp] = {"ppg": e.mean, "stderr": e.stderr, "games": e.n}
    return out


def ladder_figure(best: str) -> dict[str, dict[str, dict[str, float]]]:
    """``{net: {opponent: {ppg, stderr, games}}}`` for the figure of "How strong can it get": the post's
    unconstrained net (c), notebook 08's 80-hidden TD-Gammon net (d) and the best net, each by its sidecar's report-seed
    ladder at 1-ply, and the best net at 2-ply."""
    best_side = read_sidecar(net_path(best))
    out = {
        LABELS["free"]: _ladder_of(read_sidecar(net_path(RIVAL_NETS["free"]))),
        LABELS["tesauro"]: _ladder_of(read_sidecar(data_dir() / TESAURO_SHIPPED)),
        f"{short_label(best)} (the best net)": _ladder_of(best_side),
    }
    two = {}
    for opp in LADDER:
        try:
            e = figure(best_side, opp, plies=2)
        except ValueError:
            continue
        two[opp] = {"ppg": e.mean, "stderr": e.stderr, "games": e.n}
    if two:
        out[f"{short_label(best)} at 2-ply"] = two
    return out


def strength_rows(best: str) -> list[list[str]]:
    """The best net's ladder from its sidecar: one row per opponent, ppg ± s.e. at 1-ply (equal search against gnubg's
    0-ply) and at 2-ply where measured, with the games."""
    side = read_sidecar(net_path(best))
    rows = []
    for opp in LADDER:
        e = figure(side, opp)
        try:
            e2 = figure(side, opp, plies=2)
            two = f"{e2.mean:+.3f} ± {e2.stderr:.3f} ({e2.n:,} games)"
        except ValueError:
            two = "—"
        rows.append([opp, f"{e.mean:+.3f} ± {e.stderr:.3f}", f"{e.n:,}", two])
    return rows


STRENGTH_HEADER = ["opponent", "1-ply, ppg ± s.e.", "games", "2-ply"]


def picker_positions(n: int, seed: int) -> np.ndarray:
    """``n`` positions for the picker: the start, then positions from recorded pubeval games."""
    positions, _ = game_positions(4 * n, seed=seed)
    pick = positions[:: max(1, len(positions) // max(1, n - 1))][: n - 1]
    return np.concatenate([bg.initial_position()[None], pick])


def speed_rows(speeds: dict[str, dict[str, float]]) -> list[list[str]]:
    """Table rows of :func:`speed`, with the time per training move relative to the unconstrained net (c)."""
    base = speeds["free"]["plies_s"]
    return [
        [LABELS[r], f"{v['games_s']:.0f}", f"{v['plies_s']:,.0f}", f"{base / v['plies_s']:.2f}"]
        for r, v in speeds.items()
    ]
