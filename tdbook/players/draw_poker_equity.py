"""The equity player's tables (Waterman (1968) §5.5, beyond: a modern baseline opponent): 47 pre-draw
hand classes and their Monte-Carlo win probabilities against a random hand, and the distribution of
a random opponent's final hands given how many cards he drew.  Used by
:func:`tdbook.players.draw_poker.equity_action`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.rng import seed_state
from ..games import draw_poker as dp
from ..games.draw_poker import (
    HAND,
    PHASE,
    REPLACE,
    TO_MOVE,
    apply_replace,
    deal16,
    draw_mask,
    hand_rank,
    new_deck,
    new_round,
)


@njit(cache=True)
def hand_class(h: np.ndarray) -> int:
    """47 pre-draw classes: no pair (plain, ace-high, 4-flush, open 4-straight), pairs by rank,
    two pair by top pair, trips by rank, straight, flush, full house, quads, straight flush."""
    r = hand_rank(h)
    cat = r >> 20
    top = (r >> 16) & 15
    if cat == 0:
        m = draw_mask(h)
        if m != 0 and (m & (m - 1)) == 0:
            # one discard: a four-flush or an open-ended four-straight
            s0 = -1
            same = 0
            for i in range(5):
                if not (m >> i) & 1:
                    if s0 < 0:
                        s0 = h[i] % 4
                    if h[i] % 4 == s0:
                        same += 1
            return 2 if same == 4 else 3
        return 1 if top == 14 else 0
    if cat == 1:
        return 4 + top - 2
    if cat == 2:
        return 17 + top - 3
    if cat == 3:
        return 29 + top - 2
    return 38 + cat


N_CLASSES = 47


@njit(cache=True)
def _equity_tables(
    n: int, seed: int, pre_num: np.ndarray, pre_den: np.ndarray, post: np.ndarray, post_n: np.ndarray
) -> None:
    rng = seed_state(seed, 0)
    deck = np.zeros(53, dtype=np.int64)
    new_deck(deck)
    d = np.zeros(16, dtype=np.int64)
    st = np.zeros(dp.NST, dtype=np.int64)
    for _ in range(n):
        deal16(deck, rng, d)
        new_round(st, d, 0, 50)
        c0 = hand_class(st[HAND : HAND + 5])
        st[PHASE] = REPLACE
        st[TO_MOVE] = 0
        apply_replace(st, draw_mask(st[HAND : HAND + 5]))
        apply_replace(st, draw_mask(st[HAND + 8 : HAND + 13]))
        r0 = hand_rank(st[HAND : HAND + 5])
        r1 = hand_rank(st[HAND + 8 : HAND + 13])
        pre_den[c0] += 1
        pre_num[c0] += 2 if r0 > r1 else (1 if r0 == r1 else 0)
        k = st[dp.REPL + 1]
        if post_n[k] < post.shape[1]:
            post[k, post_n[k]] = r1
            post_n[k] += 1


_EQ_CACHE: dict = {}


def equity_tables(n: int = 400_000, seed: int = 1968) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(pre, post, post_n)``: pre-draw P(win) by :func:`hand_class` (ties count ½) against a
    random hand, both drawing by the fixed policy; sorted final ranks of a random opponent who
    drew k cards (row k, first ``post_n[k]`` entries).  Monte Carlo with a fixed seed, cached."""
    key = (n, seed)
    if key not in _EQ_CACHE:
        pre_num, pre_den = np.zeros(N_CLASSES, dtype=np.int64), np.zeros(N_CLASSES, dtype=np.int64)
        post, post_n = np.zeros((4, n), dtype=np.int64), np.zeros(4, dtype=np.int64)
        _equity_tables(n, seed, pre_num, pre_den, post, post_n)
        pre = np.where(pre_den > 0, pre_num / np.maximum(2 * pre_den, 1), 0.5)
        for k in range(4):
            post[k, : post_n[k]] = np.sort(post[k, : post_n[k]])
        width = int(post_n.max())
        _EQ_CACHE[key] = (pre, np.ascontiguousarray(post[:, :width]), post_n)
    return _EQ_CACHE[key]


@njit(cache=True)
def post_equity(rank: np.int64, k: int, post: np.ndarray, post_n: np.ndarray) -> float:
    """P(win) of a final hand ``rank`` against an opponent who drew ``k`` cards (ties ½)."""
    n = post_n[k]
    if n == 0:
        return 0.5
    row = post[k, :n]
    lo = np.searchsorted(row, rank, side="left")
    hi = np.searchsorted(row, rank, side="right")
    return (lo + 0.5 * (hi - lo)) / n
