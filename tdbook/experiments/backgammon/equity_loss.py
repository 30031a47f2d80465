"""Where a net loses equity against GNU Backgammon: every move it makes in a match, judged by gnubg 0-ply.

A match's points per game say how far behind a net is, not where.  Here the net plays duplicate-dice games against
a gnubg level on a *selection* seed (never a report seed: this is a diagnosis for choosing what to change), and at
each of its moves with a choice gnubg scores every legal afterstate; the move's loss is gnubg's best score minus
the score of the net's choice, in cubeless points.  Losses are summed per position class (contact, race,
bear-off, :func:`position_class` of the position before the move) and
given per game, twice: as the game is scored (a backgammon is 3 points) and as the post's equity scores it
(a backgammon valued as a gammon).  The gap between the two is the equity the net gives away by not telling a
backgammon from a gammon.  gnubg 0-ply is the judge, so a loss is gnubg's opinion, not the truth: where it is
wrong the net may be right.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...claims import Estimate
from ...games.backgammon import OFF, flipped, win_multiplier
from ...games.backgammon_gnubg import context, outcomes
from ...players.backgammon import GnubgPlayer
from ...players.backgammon_symmetric import SymNetPlayer
from .match import run_match, selection_seed
from .symmetric_gammon_nets import BEST, load_shipped

CLASSES = ("contact", "race", "bear-off")
#: The nets notebook 10 diagnoses: (c″, 160, 4.0 M), the same games with the one change of the backgammon outputs,
#: and the best net (the positional run at 7.4 M).
LOSS_NETS = ("symgammon_free160_expanded_4000k", "symgammon_free160_expanded_bg_4000k", BEST)
WITHOUT_BG, WITH_BG = "symgammon_free160_expanded_4000k", "symgammon_free160_expanded_bg_4000k"


def position_class(pos: np.ndarray) -> str:
    """``bear-off`` (no contact, every checker home), ``race`` (no contact), or ``contact``."""
    p = np.asarray(pos, np.int64)
    mine = [i for i in range(1, 25) if p[i] > 0] + ([25] if p[25] > 0 else [])
    theirs = [i for i in range(1, 25) if p[i] < 0] + ([0] if p[0] < 0 else [])
    back_mine = max(mine, default=0)
    back_theirs = min(theirs, default=25)
    if back_mine >= back_theirs:
        return "contact"
    if back_mine <= 6 and back_theirs >= 19:
        return "bear-off"
    return "race"


def judged_scores(after: np.ndarray, ctx=None) -> tuple[np.ndarray, np.ndarray]:
    """gnubg 0-ply's score of each afterstate for the mover — minus the opponent's cubeless equity on roll, or the
    points won when the mover bears off its last checker — as the game is scored, and with a backgammon valued as
    a gammon."""
    full, as_gammon = np.empty(len(after)), np.empty(len(after))
    for j, a in enumerate(after):
        if a[OFF] == 15:
            m = int(win_multiplier(a))
            full[j], as_gammon[j] = m, min(m, 2)
            continue
        w, gw, bgw, gl, bgl = outcomes(flipped(np.asarray(a, np.int8)), ctx)
        as_gammon[j] = -(2.0 * w - 1.0 + gw - gl)
        full[j] = as_gammon[j] - (bgw - bgl)
    return full, as_gammon


class JudgedPlayer:
    """A player whose every choice among two or more afterstates is scored by gnubg 0-ply; the losses are kept
    per position class in ``loss[c] = [decisions, loss as scored, loss with a backgammon as a gammon]``."""

    def __init__(self, player: Any) -> None:
        self.player, self.name = player, player.name
        self.ctx = context(0, 0.0, True)
        self.loss = {c: np.zeros(3) for c in CLASSES}

    def choose(self, pos, d1, d2, after) -> int:
        k = self.player.choose(pos, d1, d2, after)
        if len(after) > 1:
            full, as_gammon = judged_scores(after, self.ctx)
            self.loss[position_class(pos)] += (1.0, full.max() - full[k], as_gammon.max() - as_gammon[k])
        return k


def equity_losses(model, pairs: int, seed: int, level: str = "expert", progress: bool = True) -> dict[str, Any]:
    """The net (1-ply) against gnubg at ``level`` for ``pairs`` duplicate-dice pairs on selection seed ``seed``:
    ``{"games", "ppg", "stderr", "bg_lost", "bg_won", "gammon_lost", "classes": {class: {"decisions", "loss",
    "loss_as_gammon"}}}`` (per game; shares of games for the outcomes)."""
    if not isinstance(pairs, int) or pairs < 1:
        raise ValueError(f"pairs must be a positive int, got {pairs!r}")
    judged = JudgedPlayer(SymNetPlayer(model))
    res = run_match(judged, GnubgPlayer(level), pairs, selection_seed(seed), progress)
    pts, n = res.points.ravel(), res.games
    return {
        "games": n,
        "ppg": res.ppg,
        "stderr": res.stderr,
        "bg_lost": float(np.mean(pts == -3)),
        "bg_won": float(np.mean(pts == 3)),
        "gammon_lost": float(np.mean(pts == -2)),
        "classes": {
            c: {"decisions": v[0] / n, "loss": v[1] / n, "loss_as_gammon": v[2] / n} for c, v in judged.loss.items()
        },
    }


def loss_rows(losses: dict[str, dict[str, Any]], labels: dict[str, str]) -> list[list[str]]:
    """Table rows of :func:`equity_losses` for several nets: net, class, decisions per game, loss per game as
    scored and with a backgammon as a gammon; then each net's total and its backgammons lost."""
    rows = []
    for name, r in losses.items():
        for c in CLASSES:
            v = r["classes"][c]
            rows.append([labels[name], c, f"{v['decisions']:.1f}", f"{v['loss']:.4f}", f"{v['loss_as_gammon']:.4f}"])
        tot = sum(r["classes"][c]["loss"] for c in CLASSES)
        tot_g = sum(r["classes"][c]["loss_as_gammon"] for c in CLASSES)
        rows.append(
            [
                labels[name],
                f"all ({r['ppg']:+.3f} ± {r['stderr']:.3f} ppg; backgammoned in {100 * r['bg_lost']:.1f}% of games)",
                f"{sum(r['classes'][c]['decisions'] for c in CLASSES):.1f}",
                f"{tot:.4f}",
                f"{tot_g:.4f}",
            ]
        )
    return rows


def shipped_losses(pairs: int, seed: int, progress: bool = True) -> dict[str, dict[str, Any]]:
    """:func:`equity_losses` of each net of :data:`LOSS_NETS`, all on the same dice."""
    return {r: equity_losses(load_shipped(r), pairs, seed, progress=progress) for r in LOSS_NETS}


def loss_claims(losses: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The diagnosis as claims: race equity lost per game, and the share of games lost by a backgammon, without and
    with the backgammon outputs (the same games' dice)."""
    out = {}
    for net, tag in ((WITHOUT_BG, "without"), (WITH_BG, "with")):
        r = losses[net]
        n, share = r["games"], r["bg_lost"]
        out[f"race-loss-{tag}-bg-outputs"] = {
            "ours": round(r["classes"]["race"]["loss"], 6),
            "note": f"{n:,} games; {r['classes']['race']['decisions']:.1f} race moves per game; "
            f"{r['classes']['race']['loss_as_gammon']:.4f} with a backgammon valued as a gammon",
        }
        out[f"backgammoned-{tag}-bg-outputs"] = {
            "ours": Estimate(share, math.sqrt(share * (1 - share) / n), n),
            "note": f"{n:,} games, duplicate dice, selection seed; {r['ppg']:+.3f} ± {r['stderr']:.3f} ppg",
        }
    return out
