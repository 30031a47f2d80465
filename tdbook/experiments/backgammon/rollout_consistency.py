"""Does a net agree with its own rollouts?  (notebook 10 §9, issue 34: the diagnosis before rollout targets.)

Self-play TD moves a position's value toward the net's own value of the position its play reaches next; were it
at its fixed point, the value of a position would be the mean result of the games the net plays out from it.  A
*rollout* measures that mean: the net plays the position out against itself, greedy at 1-ply, ``trials`` times on
fresh dice, cubeless, scored as the game is (a gammon 2, a backgammon 3; 2 for a net without backgammon outputs,
which values a backgammon as a gammon).  What is left between the net's equity and its own rollouts is what TD has
not yet taught it about its own play — the error rollout targets (training toward the net's own play-outs, rollouts
of a net against itself as Tesauro & Galperin (1997) ran them) would remove.  It is not the whole distance to a
stronger player: a net at one with its own play-outs values positions as its own play turns them out, not as best
play would.

Positions come from the net's own 1-ply self-play (the distribution it is trained on) or from pubeval games, every
``every``-th ply, distinct, contact only (:func:`~tdbook.experiments.backgammon.equity_loss.position_class`: in
a race a net's value is close to exact already).  Rollout noise is removed: the *gap* is the root of the mean over
the positions of (rollout − net)² minus the rollout's own variance, so it estimates the same thing whatever ``trials``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ...claims import Estimate
from ...core.rng import seed_state
from ...core.storage import read_sidecar
from ...games.backgammon import (
    NSLOT,
    OFF,
    flip,
    gen_afterstates,
    make_buffers,
    opening_roll,
    roll,
    set_initial,
)
from ...learners.backgammon_symmetric import N_OUT_BG, SymmetricGammon
from ...players.backgammon_symmetric import choose_sym_1ply, sym_buffers, sym_net
from .analysis import game_positions
from .equity_loss import position_class
from .match import new_board, play_on, sym_seat
from .strength import strength as figure
from .symmetric_gammon_nets import load_shipped, net_path, short_label

#: The nets notebook 10 diagnoses, weakest first; the best net (chosen on the selection match) is added last.
CONSISTENCY_NETS = ("symgammon_free80_expanded_800k", "symgammon_free160_expanded_bg_4000k")
SOURCES = ("self", "pubeval")
#: Rollout dice streams start here, apart from the self-play games' streams (0, 1, 2, … of the same seed).
_ROLLOUT_STREAMS = 1 << 40


@njit(cache=True)
def selfplay_positions(net, n_games, seed, every, rec, out_pos, out_mv, ws) -> int:
    """Record into ``rec`` every ``every``-th position (side on roll's view, before its roll) of ``n_games`` games
    the :class:`~tdbook.players.backgammon_symmetric.SymNet` ``net`` plays against itself greedy at 1-ply, game
    ``g`` on the dice of ``(seed, g)``; returns how many (at most ``len(rec)``: the record stops there)."""
    b = sym_buffers(net)
    pos = np.zeros(NSLOT, np.int8)
    m = 0
    for g in range(n_games):
        dice = seed_state(seed, g)
        set_initial(pos)
        _, d1, d2 = opening_roll(dice)
        for ply in range(10_000):
            if ply % every == every - 1:
                if m == rec.shape[0]:
                    return m
                rec[m] = pos
                m += 1
            n = gen_afterstates(pos, d1, d2, out_pos, out_mv, ws)
            k = choose_sym_1ply(net, out_pos, n, b)
            if out_pos[k, OFF] == 15:
                break
            flip(out_pos[k], pos)
            d1, d2 = roll(dice)
    return m


@njit(cache=True)
def rollout_results(net, pos0, seed, first, res, cap) -> None:
    """Play ``pos0`` (side on roll's view, before its roll) out ``len(res)`` times, the net greedy at 1-ply for both
    sides (:func:`~tdbook.experiments.backgammon.match.play_on`), play-out ``t`` on the dice of ``(seed, first + t)``;
    ``res[t]`` the points the side on roll of ``pos0`` won (negative: lost), a backgammon counted ``min(3, cap)``."""
    board = new_board()
    dice = seed_state(seed, first)
    seat = sym_seat(net, dice)
    no_pubeval = np.zeros((2, 122))
    for t in range(res.shape[0]):
        dice = seed_state(seed, first + t)
        board.pos[:] = pos0
        d1, d2 = roll(dice)
        r, _ = play_on(seat, seat, no_pubeval, dice, board, 0, d1, d2)
        res[t] = min(r, cap) if r >= 0 else -min(-r, cap)


def contact_positions(model: SymmetricGammon, n_positions: int, seed: int, source: str = "self", every: int = 3):
    """``n_positions`` distinct contact positions (side on roll's view), every ``every``-th ply of the net's own
    1-ply self-play (``source="self"``) or of pubeval games (``"pubeval"``), drawn at random by ``seed`` from as
    many games as it takes; ``(n, 28)`` int8.  ValueError for ``n_positions`` < 1 or an unknown ``source``."""
    if not isinstance(n_positions, (int, np.integer)) or n_positions < 1:
        raise ValueError(f"n_positions must be an int >= 1, got {n_positions!r}")
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, got {source!r}")
    net = sym_net(model)
    out_pos, out_mv, ws = make_buffers()
    games = max(4, n_positions // 4)
    while True:
        if source == "self":
            rec = np.zeros((games * 60 // every + 100, NSLOT), np.int8)
            rec = rec[: selfplay_positions(net, games, seed, every, rec, out_pos, out_mv, ws)]
        else:
            rec, _ = game_positions(games * 20 // every, seed=seed, every=every)
        distinct = np.unique(rec, axis=0)
        contact = distinct[[position_class(p) == "contact" for p in distinct]]
        if len(contact) >= n_positions:
            break
        games *= 2
    rng = np.random.default_rng(seed)
    return contact[np.sort(rng.permutation(len(contact))[:n_positions])]


def rollout_consistency(
    model: SymmetricGammon, n_positions: int, trials: int, seed: int, source: str = "self", progress: bool = True
) -> dict[str, Any]:
    """The net's cubeless equity of ``n_positions`` contact positions (:func:`contact_positions`) and the mean and
    standard error of ``trials`` play-outs of each by the net itself (:func:`rollout_results`):
    ``{"net", "rollout", "rollout_se", "positions", "trials", "source"}``.  ValueError for ``n_positions`` < 1,
    ``trials`` < 2 or an unknown ``source``."""
    if not isinstance(trials, (int, np.integer)) or trials < 2:
        raise ValueError(f"trials must be an int >= 2 (a rollout's noise needs two play-outs), got {trials!r}")
    positions = contact_positions(model, n_positions, seed, source)
    net = sym_net(model)
    cap = 3 if model.outputs == N_OUT_BG else 2
    res = np.zeros(int(trials), np.int64)
    mean, se = np.empty(len(positions)), np.empty(len(positions))
    for i, p in enumerate(tqdm(positions, desc="rollouts", unit="position", disable=not progress)):
        rollout_results(net, p, seed, _ROLLOUT_STREAMS + i * int(trials), res, cap)
        e = Estimate.of(res)
        mean[i], se[i] = e.mean, e.stderr
    return {
        "net": np.array([model.equity(p) for p in positions]),
        "rollout": mean,
        "rollout_se": se,
        "positions": positions,
        "trials": int(trials),
        "source": source,
    }


def consistency_gap(res: dict[str, Any]) -> Estimate:
    """The root of the mean over the positions of (rollout − net)² − rollout variance: the net's RMS error against
    its own play-outs with their noise taken out, ppg, ± 1 s.e. (delta method; when the mean is not above zero the
    gap is 0 and its s.e. the root of the mean's s.e.)."""
    sq = Estimate.of((res["rollout"] - res["net"]) ** 2 - res["rollout_se"] ** 2)
    if sq.mean <= 0:
        return Estimate(0.0, math.sqrt(sq.stderr), sq.n)
    g = math.sqrt(sq.mean)
    return Estimate(g, sq.stderr / (2 * g), sq.n)


def consistency_bias(res: dict[str, Any]) -> Estimate:
    """Mean over the positions of rollout − net (positive: the net undervalues its positions), ppg ± 1 s.e."""
    return Estimate.of(res["rollout"] - res["net"])


def shipped_consistency(
    best: str,
    n_positions: int,
    trials: int,
    seed: int,
    nets: Sequence[str] = CONSISTENCY_NETS,
    source: str = "self",
    progress: bool = True,
) -> dict[str, dict[str, Any]]:
    """:func:`rollout_consistency` of each shipped net of ``nets`` and then of ``best``, in that order, on the same
    seed: ``{net name: result}``."""
    names = [*[n for n in nets if n != best], best]
    return {
        n: rollout_consistency(load_shipped(n), n_positions, trials, seed, source, progress=progress) for n in names
    }


CONSISTENCY_HEADER = [
    "net",
    "vs gnubg-expert (report seed)",
    "positions × play-outs",
    "rollout − net, mean",
    "RMS(rollout − net)",
    "rollout noise, RMS",
    "gap (noise removed)",
]


def consistency_rows(results: dict[str, dict[str, Any]]) -> list[list[str]]:
    """One row per net of :func:`shipped_consistency`: its stated strength against gnubg-expert (sidecar, report
    seed), the positions and play-outs, the mean and RMS of rollout − net, the rollouts' RMS standard error and the
    gap of :func:`consistency_gap` (ppg)."""
    rows = []
    for name, res in results.items():
        g = figure(read_sidecar(net_path(name)), "gnubg-expert")
        bias, gap = consistency_bias(res), consistency_gap(res)
        d = res["rollout"] - res["net"]
        rows.append(
            [
                short_label(name),
                f"{g.mean:+.3f} ± {g.stderr:.3f}",
                f"{len(d):,} × {res['trials']:,}",
                f"{bias.mean:+.3f} ± {bias.stderr:.3f}",
                f"{np.sqrt(np.mean(d**2)):.3f}",
                f"{np.sqrt(np.mean(res['rollout_se'] ** 2)):.3f}",
                f"{gap.mean:.3f} ± {gap.stderr:.3f}",
            ]
        )
    return rows


def consistency_claims(results: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``{"rollout-gap-best": …, "rollout-gap-drop": …}``: the gap of the last net of ``results`` (the best), and
    the gap of the first (the weakest) minus it, ppg."""
    names = list(results)
    first, last = names[0], names[-1]
    g0, g1 = consistency_gap(results[first]), consistency_gap(results[last])
    res = results[last]
    src = "its own 1-ply self-play" if res["source"] == "self" else "pubeval games"
    note = f"ppg, {g1.n:,} contact positions from {src}, {res['trials']:,} play-outs each, rollout noise removed"
    return {
        "rollout-gap-best": {"ours": g1, "note": f"{short_label(last)}: {note}"},
        "rollout-gap-drop": {
            "ours": Estimate(g0.mean - g1.mean, math.hypot(g0.stderr, g1.stderr), min(g0.n, g1.n)),
            "note": f"{short_label(first)} minus {short_label(last)}, each on {note.split(', ', 1)[1]}",
        },
    }
