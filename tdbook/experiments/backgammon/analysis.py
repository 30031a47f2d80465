"""What notebook 08 checks about the engine and learns about a trained net (Powell (2000) ch. 5):
move generation and the encoding against GNU Backgammon and their own properties (§5, §5.2), and the
net's judgement against gnubg's — its P(win) on hand-made and real positions and its move choice
(§5.3's lessons).  Data in, data out; the figures are in :mod:`tdbook.plots.backgammon`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import spearmanr
from tqdm.auto import tqdm

from ...games import backgammon as bg
from ...games.backgammon_encoding import encode_dense, swap_sides
from ...games.backgammon_gnubg import context, crosscheck, crosscheck_all, gnubg, gnubg_moves, move_score, to_gnubg
from ...learners.backgammon_net import ROLL_WEIGHTS, ROLLS, TDGammon
from ...players.backgammon import KIND_PUBEVAL, NetPlayer, load_pubeval_weights
from ...results import Table
from .match import positions_from_games, sample_positions

# ----------------------------------------------------------------------------- §5 the engine and the encoding


def showcase_positions() -> list[tuple[str, np.ndarray, int, int]]:
    """A few positions for the side-by-side move lists: (label, position, d1, d2)."""
    bar = np.zeros(28, np.int8)  # one of mine on the bar; they hold their 4-, 5- and 6-points
    for k, v in {24: 2, 13: 5, 8: 3, 6: 4}.items():
        bar[k] = v
    for k, v in {1: 2, 12: 5, 17: 3, 19: 3, 20: 2}.items():
        bar[k] = -v
    bar[bg.BAR] = 1
    bear = np.zeros(28, np.int8)  # bearing off: 6-5 takes two checkers off (gnubg cuts the tuple)
    for k, v in {6: 2, 5: 1, 3: 2, 1: 1}.items():
        bear[k] = v
    for k, v in {20: 3, 21: 4, 24: 2}.items():
        bear[k] = -v
    bear[bg.OFF], bear[bg.OPP_OFF] = 9, -6
    for p in (bar, bear):
        bg.check_position(p)
    return [
        ("opening, 3-1", bg.initial_position(), 3, 1),
        ("a checker on the bar, 6-4", bar, 6, 4),
        ("bearing off, 6-5", bear, 6, 5),
    ]


def side_by_side(pos: np.ndarray, d1: int, d2: int, model: TDGammon | None = None) -> tuple[Any, dict]:
    """gnubg's legal moves (best first, its 0-ply score) next to ours (notation, and the net's
    1-ply value if ``model``), matched afterstate by afterstate; plus the cross-check summary."""
    g = bg.Backgammon()
    s = g.state_from(pos, 0, (d1, d2))
    after, hops = g.afterstates(s)
    ours = {after[j].tobytes(): j for j in range(len(after))}
    net = NetPlayer(model) if model is not None else None
    vals = net.scores(pos, after) if net is not None else None
    rows = []
    for i, m in enumerate(gnubg_moves(pos, d1, d2)):
        mv = tuple(m["move"])
        if len(mv) % 2 == 0:
            j = ours.get(bg.apply_hops(pos, [(mv[2 * k], mv[2 * k + 1]) for k in range(len(mv) // 2)]).tobytes())
        else:  # cut at a bear-off: the afterstate whose gnubg score is the reported one
            sc = [abs(move_score(after[j]) - m["score"]) for j in range(len(after))]
            j = int(np.argmin(sc))
        ours_txt = bg.move_string(pos, hops[j]) if j is not None else "— not generated —"
        row = [
            str(i + 1),
            " ".join(str(x) for x in mv) + (" (cut)" if len(mv) % 2 else ""),
            f"{m['score']:+.3f}",
            ours_txt,
        ]
        if vals is not None:
            row.append(f"{vals[j]:+.3f}" if j is not None else "")
        rows.append(row)
    check = crosscheck(pos, d1, d2)
    head = ["#", "gnubg move (from, to, …)", "gnubg score", "tdbook move"] + (
        ["net 1-ply value"] if vals is not None else []
    )
    cap = (
        f"{len(after)} distinct afterstates (ours) vs {check['gnubg']} moves (gnubg): "
        f"{'equal' if check['count_ok'] and not check['problems'] else 'DIFFERENT'}"
    )
    return Table(head, rows, caption=cap), check


def crosscheck_sample(n_positions: int, seed: int = 7, progress: bool = True) -> dict:
    """Move generation against gnubg on ``n_positions`` positions from real games, all 21 rolls each
    (the full check of ``benchmarks/crosscheck_backgammon_gnubg.py`` at a chosen size)."""
    st = crosscheck_all(positions_from_games(n_positions, seed), progress)
    st["max_score_dev"] = max(st["score_devs"], default=0.0)
    return st


def game_positions(n_positions: int, seed: int = 5, every: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """``n_positions`` positions (side on roll's view) and their rolls from pubeval-vs-pubeval games,
    every ``every``-th ply: realistic positions for averages and comparisons."""
    w = load_pubeval_weights()
    games = max(2, n_positions // 15)
    while True:
        P, D = sample_positions(games, seed=seed, kind0=KIND_PUBEVAL, kind1=KIND_PUBEVAL, w=w, every=every)
        if len(P) >= n_positions:
            return P[:n_positions], D[:n_positions]
        games *= 2


def encoding_flip_property(n_positions: int, seed: int) -> tuple[bool, bool, int]:
    """The encoding seen from the other side (§5.2, 198 units), on positions from random games:
    (side-on-roll encoding: ``encode(flip(p))`` is ``encode(p)`` with its two 98-unit halves swapped;
    thesis encoding: the same physical board with the other side on roll changes only the turn units;
    number of positions)."""
    positions, _ = sample_positions(n_positions, seed=seed, every=2)
    rel = all(
        np.array_equal(encode_dense(bg.flipped(p), 0, False), swap_sides(encode_dense(p, 0, False))) for p in positions
    )
    tes = all(
        np.array_equal(encode_dense(bg.flipped(p), 1, True), np.r_[encode_dense(p, 0, True)[:196], 0, 1])
        for p in positions
    )
    return rel, tes, len(positions)


def moves_per_roll(positions: np.ndarray) -> float:
    """Mean number of legal moves (distinct afterstates) per roll, rolls weighted by their chance
    (1/36 doubles, 2/36 others), over ``positions``."""
    bufs = bg.make_buffers()
    tot = 0.0
    for p in positions:
        for (d1, d2), w in zip(ROLLS, ROLL_WEIGHTS):
            tot += w / 36.0 * bg.gen_afterstates(p, int(d1), int(d2), *bufs)
    return tot / len(positions)


def branching(positions: np.ndarray) -> np.ndarray:
    """Per position, the successors of one ply: the legal moves (distinct afterstates) summed over the 21 rolls —
    the branching ratio a search meets before the roll is known (Powell (2000) §5: 21 rolls × about 20 moves)."""
    bufs = bg.make_buffers()
    return np.array(
        [sum(bg.gen_afterstates(p, int(d1), int(d2), *bufs) for d1, d2 in ROLLS) for p in positions], dtype=float
    )


def handmade_positions() -> list[tuple[str, np.ndarray]]:
    """Hand-made positions (side on roll's view) with an obvious verdict, for the net's P(win)."""
    mk = bg.make_position

    return [
        ("opening position (on roll)", bg.initial_position()),
        ("sure win: last 2 checkers on my 1-point, they have 15 at home", mk({1: 2}, {19: 5, 20: 5, 21: 5})),
        ("sure loss: they bear off their last checker next", mk({23: 5, 13: 5, 8: 5}, {24: 1})),
        ("race, 40 pips ahead", mk({6: 4, 5: 4, 4: 4, 3: 3}, {19: 3, 18: 4, 17: 4, 16: 4})),
        ("race, 40 pips behind", mk({9: 4, 8: 4, 7: 4, 6: 3}, {24: 3, 23: 4, 22: 4, 21: 3})),
        (
            "on the bar against a closed board",
            mk({13: 6, 8: 4, 6: 4}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3}, my_bar=1),
        ),
        (
            "they are on the bar against my closed board",
            mk({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, {12: 6, 17: 4, 19: 4}, their_bar=1),
        ),
    ]


def pwin_table(models: dict[str, TDGammon], positions: Sequence[tuple[str, np.ndarray]]) -> tuple[Any, dict]:
    """Each net's P(win) for the side on roll next to gnubg's (0-ply) on the hand-made positions."""
    g = gnubg()
    rows, data = [], {}
    for label, p in positions:
        gp = float(g.evaluate(to_gnubg(p), g.cube_info(), context())[0])
        ours = {k: m.p_win(p) for k, m in models.items()}
        data[label] = {"gnubg": gp, **ours}
        rows.append([label] + [f"{ours[k]:.3f}" for k in models] + [f"{gp:.3f}"])
    return Table(["position (side on roll)"] + [f"{k} P(win)" for k in models] + ["gnubg P(win)"], rows), data


@dataclass
class Agreement:
    """The net against gnubg (0-ply) on positions from games: P(win) per position, and the 1-ply move choice."""

    p_ours: np.ndarray
    p_gnubg: np.ndarray
    same_move: np.ndarray  # our 1-ply choice is gnubg's best (by gnubg's own score)
    loss: np.ndarray  # gnubg's equity of its best move minus of ours (≥ 0)
    rank_corr: np.ndarray  # Spearman correlation of our and gnubg's move scores, per roll with ≥ 3 moves
    abs_err: np.ndarray  # per roll: mean |our move score − gnubg's| (equity)
    rel_err: np.ndarray  # the same after removing each roll's mean (the error common to all its moves)
    roll_errors: list[np.ndarray]  # per roll: our move score − gnubg's for each of its moves (not bear-off wins)

    @property
    def mean_abs_error(self) -> float:
        return float(np.mean(np.abs(self.p_ours - self.p_gnubg)))

    @property
    def mean_bias(self) -> float:
        return float(np.mean(self.p_ours - self.p_gnubg))


def agreement(model: TDGammon, n_positions: int, seed: int = 5, progress: bool = True) -> Agreement:
    """Positions (and their rolls) from pubeval-vs-pubeval games, every 3rd ply: the net's P(win)
    for the side on roll vs gnubg's, and its 1-ply move vs gnubg's best move (Tesauro's §5.3
    lesson: absolute errors of about 0.1 that "cancel out in move-making decisions")."""
    g = gnubg()
    P, D = game_positions(n_positions, seed)
    me = NetPlayer(model)
    bufs = bg.make_buffers()
    po, pg, same, loss, rc, ae, re_, errs = [], [], [], [], [], [], [], []
    ctx = context()
    for p, (d1, d2) in tqdm(list(zip(P, D)), desc="net vs gnubg", disable=not progress, unit="position"):
        po.append(model.p_win(p))
        pg.append(float(g.evaluate(to_gnubg(p), g.cube_info(), ctx)[0]))
        n = bg.gen_afterstates(p, d1, d2, *bufs)
        if n < 2:
            continue
        after = bufs[0][:n]
        s_ours = me.scores(p, after)
        s_g = np.array([move_score(a, ctx) for a in after])
        k = int(np.argmax(s_ours))
        loss.append(float(s_g.max() - s_g[k]))
        same.append(bool(s_g[k] >= s_g.max() - 1e-9))
        live = np.array([a[bg.OFF] < 15 for a in after])  # bear-off wins score exactly in both
        if live.sum() >= 2:
            d = s_ours[live] - s_g[live]
            errs.append(d)
            ae.append(float(np.mean(np.abs(d))))
            re_.append(float(np.mean(np.abs(d - d.mean()))))
        if n >= 3 and np.ptp(s_ours) > 0 and np.ptp(s_g) > 0:
            rc.append(float(spearmanr(s_ours, s_g).statistic))
    return Agreement(
        np.array(po), np.array(pg), np.array(same), np.array(loss), np.array(rc), np.array(ae), np.array(re_), errs
    )


def common_error_shuffles(errors: Sequence[np.ndarray], shuffles: int = 200, seed: int = 0) -> np.ndarray:
    """What removing each roll's mean error would leave if the errors had nothing in common within a
    roll: the errors of all rolls shuffled across rolls (roll sizes kept), ``shuffles`` times; for each,
    the mean over rolls of mean |d − mean d|.  §5.3's "every calculation has a similar error" holds
    when the real errors leave much less than these."""
    sizes = np.array([len(d) for d in errors])
    if len(sizes) == 0 or np.any(sizes < 2):
        raise ValueError("every roll needs at least two move errors")
    pool = np.concatenate(errors)
    cuts = np.cumsum(sizes)[:-1]
    rng = np.random.default_rng(seed)
    out = np.empty(shuffles)
    for k in range(shuffles):
        parts = np.split(rng.permutation(pool), cuts)
        out[k] = np.mean([np.mean(np.abs(d - d.mean())) for d in parts])
    return out
