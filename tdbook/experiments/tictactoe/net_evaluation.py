"""Measuring a tic-tac-toe net (Powell (2000) §6.6, Tables 6.2–6.3 with the human replaced): greedy play
against the perfect player and the exploiter (exact and sampled), its replies and square order, its
outputs, and its training record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...games.tictactoe import EMPTY, ONGOING, POW3, STATUS, O, X, positions_to_move, to_move
from ...players.tictactoe import (
    MatchResult,
    Player,
    best_response,
    exact_outcomes,
    match,
    optimal_fraction,
    perfect_player,
    policy_candidates,
)
from ...players.tictactoe_net import NetPlayer
from .net_training import NetRun

#: every reachable non-terminal position: X's 2,423 to move, then O's 2,097
ALL_POSITIONS = np.concatenate([positions_to_move(X), positions_to_move(O)])


@dataclass
class Evaluation:
    """A frozen net against the perfect player (counts from the net's point of view)."""

    name: str
    exact: dict[str, tuple[float, float, float]]  # side → (P(net win), P(draw), P(net loss))
    sampled: dict[str, tuple[int, int, int]]  # side → (net wins, draws, net losses) over `games` greedy games
    shape20: tuple[int, int, int]  # (perfect wins, net wins, draws) in 20 games: 10 as X, 10 as O
    optimal: dict[str, float]  # side → share of positions answered with a minimax-optimal move
    games: int  # per side
    exploiter: dict[str, tuple[float, float, float]]  # side → (P(net win), P(draw), P(net loss)), exact, against
    #   the opponent that knows the net's policy and maximises P(win) − P(loss) (players.best_response)

    def exploiter20(self) -> tuple[float, float, float]:
        """(opponent wins, net wins, draws) expected in 20 games against the exploiter, 10 as X and 10 as O."""
        e = [self.exploiter[s] for s in ("X", "O")]
        return 10 * (e[0][2] + e[1][2]), 10 * (e[0][0] + e[1][0]), 10 * (e[0][1] + e[1][1])

    def per20(self) -> tuple[float, float, float]:
        """(perfect wins, net wins, draws) per 20 games over all sampled games, both sides."""
        w = sum(s[0] for s in self.sampled.values())
        d = sum(s[1] for s in self.sampled.values())
        lo = sum(s[2] for s in self.sampled.values())
        n = max(w + d + lo, 1)
        return 20.0 * lo / n, 20.0 * w / n, 20.0 * d / n

    @property
    def losses(self) -> int:
        return sum(s[2] for s in self.sampled.values())

    @property
    def optimal_all(self) -> float:
        """Share over all 4,520 positions (X's 2,423 and O's 2,097)."""
        nx, no = len(positions_to_move(X)), len(positions_to_move(O))
        return (self.optimal["X"] * nx + self.optimal["O"] * no) / (nx + no)


def _net_view(m: MatchResult, side: str) -> tuple[int, int, int]:
    return (m.x_wins, m.draws, m.o_wins) if side == "X" else (m.o_wins, m.draws, m.x_wins)


def evaluate(player: NetPlayer | Player, games: int, seed: int, name: str = "") -> Evaluation:
    """``player`` (played greedily) against the perfect player (random among optimal moves): exact outcome
    probabilities per side, ``games`` sampled games per side, a 20-game sample (10 as X, 10 as O) and the
    share of positions answered optimally."""
    p = player.as_table_player() if isinstance(player, NetPlayer) else player
    p = p.greedy()
    per = perfect_player(seed)
    ex = {"X": exact_outcomes(p, per), "O": exact_outcomes(per, p)}
    exact = {"X": (ex["X"][0], ex["X"][2], ex["X"][1]), "O": (ex["O"][1], ex["O"][2], ex["O"][0])}
    sampled = {
        "X": _net_view(match(p, per, games, seed=seed, stream=1, progress=False), "X"),
        "O": _net_view(match(per, p, games, seed=seed, stream=2, progress=False), "O"),
    }
    a = _net_view(match(p, per, 10, seed=seed, stream=3, progress=False), "X")
    b = _net_view(match(per, p, 10, seed=seed, stream=4, progress=False), "O")
    shape = (a[2] + b[2], a[0] + b[0], a[1] + b[1])
    opt = {"X": optimal_fraction(p, X), "O": optimal_fraction(p, O)}
    return Evaluation(
        name or getattr(player, "name", "net"),
        exact,
        sampled,
        shape,
        opt,
        games,
        {side: best_response(p, side) for side in ("X", "O")},
    )


def centre_replies(player: NetPlayer | Player) -> dict[str, Any]:
    """§6.6's basic rule (Table 6.2 asterisk): as O, answer every non-centre opening with the centre.
    Returns the reply to each of X's 8 non-centre openings and how many are the centre (corners: of 4)."""
    p = player.as_table_player() if isinstance(player, NetPlayer) else player
    p = p.greedy()
    replies = {s: p.distribution(int(X * POW3[s])) for s in range(9) if s != 4}
    centre = {s: float(d[4]) for s, d in replies.items()}
    return dict(
        replies={s: int(np.argmax(d)) for s, d in replies.items()},
        centre=sum(centre.values()),
        corners=sum(centre[s] for s in (0, 2, 6, 8)),
    )


def faced_positions(player: Player, piece: int) -> np.ndarray:
    """Positions with ``piece`` to move that arise when ``player`` plays ``piece`` by its own (greedy) policy
    and the opponent plays anything."""
    out, seen = [], set()
    buf = np.empty(9, dtype=np.int64)
    stack = [0]
    while stack:
        c = stack.pop()
        if c in seen or STATUS[c] != ONGOING:
            continue
        seen.add(c)
        mover = to_move(c)
        if mover == piece:
            out.append(c)
            n = policy_candidates(player.kind, player.table, player.rule, player.draw_value, c, buf)
        else:
            n = int(sum(1 for s in range(9) if (c // 3**s) % 3 == EMPTY))
            buf[:n] = [s for s in range(9) if (c // 3**s) % 3 == EMPTY]
        for s in buf[:n]:
            stack.append(int(c + mover * POW3[int(s)]))
    return np.array(sorted(out), dtype=np.int64)


def fixed_order_share(player: NetPlayer | Player, piece: int) -> tuple[float, list[int]]:
    """§6.6: "it would always choose the same positions (if available) in the same order no matter what the
    opponent had chosen".  Over the positions the player faces (:func:`faced_positions`), the share of its
    moves that one fixed priority order of the squares reproduces (order built greedily), and that order."""
    p = player.as_table_player() if isinstance(player, NetPlayer) else player
    p = p.greedy()
    pos = faced_positions(p, piece)
    dist = np.array([p.distribution(int(c)) for c in pos])  # (n, 9)
    empty = np.array([[(int(c) // 3**s) % 3 == EMPTY for s in range(9)] for c in pos])
    undecided = np.ones(len(pos), dtype=bool)
    order, hit = [], 0.0
    for _ in range(9):
        best, best_gain = None, -1.0
        for q in range(9):
            if q in order:
                continue
            m = undecided & empty[:, q]
            gain = dist[m, q].sum() - 1e-6 * m.sum()
            if gain > best_gain:
                best, best_gain = q, gain
        m = undecided & empty[:, best]
        hit += dist[m, best].sum()
        undecided &= ~empty[:, best]
        order.append(best)
    return float(hit / max(len(pos), 1)), order


def output_stats(player: NetPlayer) -> dict[str, np.ndarray]:
    """Min, mean, max and s.d. of each raw output over every reachable after-state (NaN-aware)."""
    out = player.outputs()
    with np.errstate(invalid="ignore"):
        return dict(
            min=np.nanmin(out, 0) if np.isfinite(out).any() else np.full(out.shape[1], np.nan),
            mean=np.nanmean(out, 0) if np.isfinite(out).any() else np.full(out.shape[1], np.nan),
            max=np.nanmax(out, 0) if np.isfinite(out).any() else np.full(out.shape[1], np.nan),
            sd=np.nanstd(out, 0) if np.isfinite(out).any() else np.full(out.shape[1], np.nan),
            above99=(out > 0.99).mean(0),
            finite=np.isfinite(out).all(1).mean(),
        )


def window_share(run: NetRun, col: int, first: bool, frac: float = 0.1) -> float:
    """% of X wins (0), O wins (1) or draws (2) over the first or last ``frac`` of the run's games."""
    k = max(1, int(round(len(run.log) * frac)))
    if first:
        d = run.log[k - 1]
    else:
        d = run.log[-1] - (run.log[-1 - k] if len(run.log) > k else 0)
    return float(100.0 * d[col] / max(d.sum(), 1))


def check_point(player: NetPlayer) -> dict[str, float]:
    """Exact P(loss) against the perfect player as X and as O, and the share of the 4,520 positions
    answered with a minimax-optimal move."""
    p = player.as_table_player().greedy()
    per = perfect_player()
    return dict(
        loss_x=exact_outcomes(p, per)[1],
        loss_o=exact_outcomes(per, p)[0],
        optimal=optimal_fraction(p, X, ALL_POSITIONS),
    )
