"""Notebook 02 §2–3: searching the space (Powell (2000) §3.2) — the minimax and α-β example of Figs 3.2–3.4,
α-β node counts with and without plausibility ordering on real positions, and Samuel's six ply rules.

**Figs 3.2–3.4.**  The OCR text keeps the example's numbers but not the figures: Player 1 has three moves;
"the best score (which minimized his opponent's move) achieved by [piece 1, forward left] was six",
"piece 1, forward right … returned a result of eight", and for "piece 2, forward right, the best score is two,
worse than eight; therefore, this branch may be pruned".  :data:`FIG_3_3` holds exactly that: a branch whose
minimum the text prints is that one reply; the pruned branch's first reply scores 2 and its other replies
(``None``) are not printed — α-β must never read them, which :func:`alpha_beta_tree` checks.

**Node counts.**  Fixed-depth α-β (the engine's search) with and without plausibility ordering against plain
minimax, whose node count is the full tree, Σ_{k ≤ d} perft(k).  The effective branching factor of a method is
(N(d) / N(d − 2))^{1/2}; perfectly ordered α-β grows by the square root of minimax's (§3.2: O(B^{d/2}) instead
of O(B^d)), so the ratio of the logarithms is ½ at best.

**Ply rules.**  :func:`ply_rule_probes` finds the break points of the rules by asking the search, at every
ply, whether it stops on boards built for each rule: a quiet board (no jump, no exchange), one reached by a
jump, one with a jump pending, one where an exchange can be offered, and one with a jump pending while a side
is ahead by more than two kings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from tqdm.auto import tqdm

from ...games.checkers import Checkers, CheckersState, ballots, parse_fen
from ...games.checkers_bitboard import perft
from ...learners.checkers_polynomial import SAMUEL_42_GAMES, Polynomial
from ...players.checkers import material_player, play_games, samuel_player
from ...players.checkers_search import MAX_PLY, Searcher, SearchRules, stops_at

#: Figs 3.2–3.4 as the text gives them: Player 1's moves and Player 2's replies' scores (None: not printed)
FIG_3_3: tuple[tuple[str, tuple[float | None, ...]], ...] = (
    ("piece 1 forward left", (6,)),
    ("piece 1 forward right", (8,)),
    ("piece 2 forward right", (2, None)),
)


@dataclass(frozen=True)
class TreeSearch:
    """A two-ply search of :data:`FIG_3_3`: the chosen move, the root value, each move's backed-up value
    (an upper bound where the branch was cut off), the leaves read and the branches cut off (and after how
    many replies)."""

    chosen: str
    value: float
    backed_up: tuple[float, ...]
    leaves_read: int
    leaves: int
    cut: tuple[tuple[str, int], ...]


def alpha_beta_tree(tree=FIG_3_3, pruning: bool = True) -> TreeSearch:
    """Player 1 maximizes over its moves the minimum of Player 2's replies, left to right; with ``pruning`` a
    branch is abandoned as soon as one reply scores no better than the best move found so far (α-β).  Reading
    an unprinted (None) reply raises ValueError: plain minimax cannot run on the example, α-β can."""
    alpha = -math.inf
    best = None
    backed = []
    read = 0
    cut = []
    for name, replies in tree:
        low = math.inf
        for k, v in enumerate(replies):
            if v is None:
                raise ValueError(f"the score of reply {k + 1} to {name!r} is not printed; only α-β can skip it")
            read += 1
            low = min(low, v)
            if pruning and low <= alpha:
                if k + 1 < len(replies):
                    cut.append((name, k + 1))
                break
        backed.append(low)
        if low > alpha:
            alpha, best = low, name
    return TreeSearch(best, alpha, tuple(backed), read, sum(len(r) for _, r in tree), tuple(cut))


# ----------------------------------------------------------------------------- node counts


def sample_positions(n: int, every: int = 6, seed: int = 0) -> list[CheckersState]:
    """``n`` positions from games of Samuel's 42-game polynomial against material α-β from the ballots (every
    ``every``-th ply from the 6th, boards with a legal move), spread over the ballots by a seeded choice."""
    bal = [s for _, s in ballots()]
    rng = np.random.default_rng(seed)
    idx = rng.choice(len(bal), size=min(len(bal), max(1, n // 4)), replace=False)
    recs = play_games(samuel_player(SAMUEL_42_GAMES), material_player(), [bal[i] for i in idx])
    g = Checkers(quiet_limit=None)
    out = []
    for i, rec in zip(idx, recs):
        s = bal[i]
        for k, mv in enumerate(rec.moves):
            if k >= 6 and k % every == 0 and g.legal_moves(s):
                out.append(s)
            s = g.apply(s, mv)
    pick = rng.choice(len(out), size=min(n, len(out)), replace=False)
    return [out[i] for i in sorted(pick)]


@dataclass(frozen=True)
class NodeCounts:
    """Nodes searched at fixed depths 1..D summed over the positions: minimax (the full tree), α-β without and
    with plausibility ordering; ``evals`` = static evaluations of α-β with ordering (leaves and ordered
    children)."""

    depths: tuple[int, ...]
    minimax: np.ndarray
    alpha_beta: np.ndarray
    ordered: np.ndarray
    ordered_evals: np.ndarray
    positions: int

    def ebf(self, which: str) -> np.ndarray:
        """Effective branching factor (N(d)/N(d−2))^½ for d = 3..D."""
        n = {"minimax": self.minimax, "alpha-beta": self.alpha_beta, "ordered": self.ordered}[which]
        return np.sqrt(n[2:] / n[:-2])

    def exponent_ratio(self, which: str = "ordered") -> float:
        """log EBF of α-β over log EBF of minimax at the deepest depth (½ for perfectly ordered α-β)."""
        return float(np.log(self.ebf(which)[-1]) / np.log(self.ebf("minimax")[-1]))


def node_counts(
    positions: Sequence[CheckersState], depth: int, poly: Polynomial | None = None, progress: bool = True
) -> NodeCounts:
    """Fixed-depth node counts for d = 1..``depth`` (module docstring), with Samuel's 42-game polynomial unless
    ``poly`` is given."""
    if not 3 <= depth < MAX_PLY:
        raise ValueError(f"depth must be in 3..{MAX_PLY - 1}, got {depth!r}")
    poly = poly if poly is not None else Polynomial(SAMUEL_42_GAMES)
    plain, ordered = Searcher(poly, ordering=False), Searcher(poly, ordering=True)
    ds = tuple(range(1, depth + 1))
    mm, ab, od, ev = (np.zeros(depth, dtype=np.int64) for _ in range(4))
    for s in tqdm(positions, desc="node counts", disable=not progress):
        levels = [1] + [int(perft(*s.words, s.side, k)) for k in ds]
        for j, d in enumerate(ds):
            mm[j] += sum(levels[: d + 1])
            r0 = plain(s.words, s.side, rules=SearchRules.fixed(d))
            r1 = ordered(s.words, s.side, rules=SearchRules.fixed(d))
            ab[j] += r0.nodes
            od[j] += r1.nodes
            ev[j] += r1.evals
    return NodeCounts(ds, mm, ab, od, ev, len(positions))


@dataclass(frozen=True)
class DepthStudy:
    """Leaf plies (histogram, summed over positions) and nodes per search under Samuel's rules and at fixed
    depths."""

    samuel_leaves: np.ndarray
    samuel_nodes: np.ndarray
    fixed: dict[int, np.ndarray]
    fixed_nodes: dict[int, np.ndarray]

    def mean_leaf_ply(self) -> float:
        h = self.samuel_leaves
        return float((np.arange(h.size) * h).sum() / h.sum())

    def share_beyond(self, ply: int) -> float:
        """Fraction of the leaves under Samuel's rules deeper than ``ply``."""
        h = self.samuel_leaves
        return float(h[ply + 1 :].sum() / h.sum())


def depth_study(
    positions: Sequence[CheckersState],
    fixed: Sequence[int] = (3, 4),
    poly: Polynomial | None = None,
    progress: bool = True,
) -> DepthStudy:
    """Samuel's ply rules against fixed depths on the same positions (plausibility ordering on)."""
    poly = poly if poly is not None else Polynomial(SAMUEL_42_GAMES)
    sr = Searcher(poly, SearchRules.samuel(), ordering=True)
    hist = np.zeros(MAX_PLY + 1, dtype=np.int64)
    nodes = []
    fx = {d: np.zeros(MAX_PLY + 1, dtype=np.int64) for d in fixed}
    fx_nodes: dict[int, list[int]] = {d: [] for d in fixed}
    for s in tqdm(positions, desc="ply rules", disable=not progress):
        r = sr(s.words, s.side)
        hist += r.leaf_plies
        nodes.append(r.nodes)
        for d in fixed:
            rf = sr(s.words, s.side, rules=SearchRules.fixed(d))
            fx[d] += rf.leaf_plies
            fx_nodes[d].append(rf.nodes)
    return DepthStudy(hist, np.array(nodes), fx, {d: np.array(v) for d, v in fx_nodes.items()})


# ----------------------------------------------------------------------------- ply rules


#: boards for the probes (FEN, reached by a jump): Black to move unless the FEN says otherwise
PROBES = {
    "quiet": ("B:W30:B1", False),  # no jump, no exchange within reach
    "after a jump": ("B:W30:B1", True),  # the same board, reached by a jump
    "jump pending": ("B:W18:B14", False),  # Black must jump 14x23
    "exchange offered": ("W:W22,26,30:B14", False),  # White can force an exchange: 22-18, 14x23, 26x19
}


def ply_rule_probes(rules: SearchRules | None = None, max_ply: int = 24) -> dict[str, list[bool]]:
    """For each probe board, whether the search stops at plies 1..``max_ply``."""
    r = rules if rules is not None else SearchRules.samuel()
    out = {}
    for name, (f, jumped) in PROBES.items():
        s = parse_fen(f)
        out[name] = [stops_at(s.words, s.side, p, jumped, r) for p in range(1, max_ply + 1)]
    return out


def lead_board(kings: int) -> CheckersState:
    """Black to move, a jump pending (14x23), Black ``kings`` kings ahead (kings on 1, 2, 3, 4: 3 credits each)."""
    if not 0 <= kings <= 4:
        raise ValueError(f"kings must be in 0..4, got {kings!r}")
    return parse_fen("B:W18:B14" + "".join(f",K{q}" for q in range(1, kings + 1)))


def break_points(probes: dict[str, list[bool]], rules: SearchRules | None = None) -> dict[str, int]:
    """The rules' numbers read off the probes: the first ply where a quiet board stops (rule 1, the minimum),
    where a board reached by a jump stops (rules 2–3), where an offered exchange stops (rules 2c, 3, 4), where
    a pending jump stops regardless (rule 6); and, from boards with a jump pending and Black 0–4 kings
    ahead, the first ply where a 4-king lead stops the jump (rule 5) and the largest lead (in kings) that
    does not stop it there."""
    r = rules if rules is not None else SearchRules.samuel()

    def first(name: str) -> int:
        return next(p for p, stop in enumerate(probes[name], start=1) if stop)

    def stops(kings: int, ply: int) -> bool:
        b = lead_board(kings)
        return stops_at(b.words, b.side, ply, False, r)

    ahead = next(p for p in range(1, MAX_PLY) if stops(4, p))
    return {
        "minimum": first("quiet"),
        "after a jump": first("after a jump"),
        "exchange": first("exchange offered"),
        "ahead": ahead,
        "hard": first("jump pending"),
        "lead that does not stop": max(k for k in range(5) if not stops(k, ahead)),
    }
