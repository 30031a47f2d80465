"""Bridge to GNU Backgammon (PyPI ``gnubg``): board conversion and the move-generation cross-check.

gnubg boards are a pair of 25-tuples from the side on roll's view: ``board[1]`` is the
player on roll, ``board[0]`` the opponent, each indexed by that player's own point
number minus one, with index 24 = the bar.  Borne-off checkers are implicit.
``gnubg`` is imported lazily so the engine works without it.

Known quirk of ``find_best_moves`` (gnubg 1.1.0a16): a move tuple stops at the first
checker borne off, so moves that bear off cannot be rebuilt from the tuple.  The
cross-check therefore compares move *counts* for every position, resulting positions
for the complete tuples, and for bear-off moves checks that gnubg's best score is the
0-ply evaluation of one of our afterstates.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from .backgammon import NSLOT, OFF, OPP_BAR, OPP_OFF, apply_hops, flipped, gen_afterstates, make_buffers, n_hops


@lru_cache(maxsize=1)
def gnubg() -> Any:
    """The ``gnubg`` module (imported on first use)."""
    try:
        import gnubg as g
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("the gnubg package is needed: pip install --pre gnubg==1.1.0a16") from e
    return g


def to_gnubg(pos: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """tdbook position (mover's view) → gnubg board ``(opponent, mover)``."""
    p = np.asarray(pos, dtype=np.int64)
    me = [max(int(p[i + 1]), 0) for i in range(24)] + [int(p[25])]
    opp = [max(-int(p[24 - i]), 0) for i in range(24)] + [-int(p[OPP_BAR])]
    return tuple(opp), tuple(me)


def from_gnubg(board) -> np.ndarray:
    """gnubg board ``(opponent, mover)`` → tdbook position (mover's view)."""
    opp, me = board
    p = np.zeros(NSLOT, dtype=np.int8)
    for i in range(24):
        if me[i] and opp[23 - i]:
            raise ValueError(f"both sides have checkers on point {i + 1}")
        p[i + 1] = me[i] - opp[23 - i]
    p[25] = me[24]
    p[OPP_BAR] = -opp[24]
    p[OFF] = 15 - sum(me)
    p[OPP_OFF] = -(15 - sum(opp))
    return p


def context(plies: int = 0, noise: float = 0.0, deterministic: bool = True):
    """A cubeless gnubg evaluation context."""
    g = gnubg()
    return g.eval_context(0, int(plies), int(bool(deterministic)), 1, float(noise))


def gnubg_moves(pos: np.ndarray, d1: int, d2: int, ctx=None) -> list[dict]:
    """gnubg's legal moves (best first) for ``pos`` (mover's view) and roll ``d1, d2``."""
    g = gnubg()
    return g.find_best_moves(to_gnubg(pos), g.cube_info(), ctx if ctx is not None else context(), (int(d1), int(d2)))


def equity(pos: np.ndarray, ctx=None) -> float:
    """gnubg's cubeless equity for the side on roll of ``pos`` (the mover)."""
    g = gnubg()
    return float(g.evaluate(to_gnubg(pos), g.cube_info(), ctx if ctx is not None else context())[5])


def outcomes(pos: np.ndarray, ctx=None) -> np.ndarray:
    """gnubg's (win, gammon win, backgammon win, gammon loss, backgammon loss) for the side on roll of ``pos``
    (cumulative: a gammon figure includes the backgammons); its cubeless equity is
    ``2 win − 1 + gammon win − gammon loss + backgammon win − backgammon loss``."""
    g = gnubg()
    return np.array(g.evaluate(to_gnubg(pos), g.cube_info(), ctx if ctx is not None else context())[:5], float)


def move_score(after: np.ndarray, ctx=None) -> float:
    """gnubg's score of a move that reaches ``after`` (mover's view): minus the opponent's equity.

    A position where the mover has borne off all 15 scores the points won (gnubg gives 1.0
    for a single win; gammons count 2, backgammons 3 — only comparisons matter here)."""
    a = np.asarray(after)
    if a[OFF] == 15:
        from .backgammon import win_multiplier

        return float(win_multiplier(a))
    return -equity(flipped(np.asarray(a, np.int8)), ctx)


# gnubg's move list and its ``evaluate`` do not always agree to the last digit on one
# afterstate: 0.417059 vs 0.417044 (1.5e-5) and, a few times in 210,000 checks, by up to
# 1.06e-3 (while the other moves of that roll agreed to 1e-6).  Cut moves are matched
# one-to-one to the afterstates of ours that continue them, by score, within this tolerance;
# the deviations are returned so callers can report them.
SCORE_TOL = 5e-3


def _reachable(q: np.ndarray, a: np.ndarray) -> bool:
    """Necessary condition for ``a`` to follow from ``q`` by more hops of the mover: checkers only
    move down, so for every point the mover has no more checkers at or above it in ``a``."""
    cq = np.cumsum(np.maximum(q[25:0:-1].astype(np.int64), 0))
    ca = np.cumsum(np.maximum(a[25:0:-1].astype(np.int64), 0))
    return bool(np.all(ca <= cq)) and a[OFF] >= q[OFF]


def _match(options: list[list[int]]) -> dict[int, int]:
    """Maximum bipartite matching (Kuhn): ``{afterstate: move}`` for moves with option lists."""
    owner: dict[int, int] = {}

    def grab(i: int, seen: set[int]) -> bool:
        for j in options[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or grab(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(options)):
        grab(i, set())
    return owner


def _hops_from_tuple(mv: tuple[int, ...]) -> list[tuple[int, int]]:
    return [(mv[2 * k], mv[2 * k + 1]) for k in range(len(mv) // 2)]


def gnubg_choice(pos: np.ndarray, d1: int, d2: int, after: np.ndarray, ctx=None) -> int:
    """Index among our afterstates ``after`` of gnubg's best move with ``ctx`` (e.g. 2-ply); a move
    tuple cut at a bear-off maps to the continuing afterstate gnubg scores best at 0-ply."""
    best = tuple(gnubg_moves(pos, d1, d2, ctx)[0]["move"])
    if len(best) % 2 == 0:
        a = apply_hops(pos, _hops_from_tuple(best)).tobytes()
        for j in range(len(after)):
            if after[j].tobytes() == a:
                return j
        raise ValueError(f"gnubg's move {best} is not among our afterstates")
    q = apply_hops(pos, _hops_from_tuple(best[:-1]) + [(best[-1], 0)])
    cands = [j for j in range(len(after)) if _reachable(q, after[j])]
    if not cands:
        raise ValueError(f"gnubg's move {best} is continued by none of our afterstates")
    return max(cands, key=lambda j: move_score(after[j]))


def crosscheck(pos: np.ndarray, d1: int, d2: int, bufs=None) -> dict:
    """Compare our afterstates with gnubg's legal moves for one position and roll.

    Returns ``{"ours", "gnubg", "count_ok", "complete", "complete_ok", "truncated", "bearoff_ok",
    "score_devs", "problems"}``: ``complete`` counts gnubg moves whose tuple is whole (each must
    replay to one of our afterstates, ``complete_ok``); the ``truncated`` ones (cut at a bear-off)
    are matched one-to-one (a maximum bipartite matching) to the remaining afterstates that
    continue their hops (checkers only move down) and score within ``SCORE_TOL`` (``score_devs``:
    the deviations of the matched pairs);
    ``bearoff_ok`` is None when nothing was cut, else whether every deviation is below
    ``SCORE_TOL``."""
    bufs = bufs if bufs is not None else make_buffers()
    n = gen_afterstates(np.asarray(pos, np.int8), d1, d2, *bufs)
    ours = bufs[0][:n]
    keys = {ours[j].tobytes() for j in range(n)}
    gm = gnubg_moves(pos, d1, d2)
    # gnubg reports "no move" as an empty list; we report one empty move (the position itself)
    n_g = len(gm) if gm else 1
    problems = []
    maxhops = max((int(n_hops(bufs[2], j)) for j in range(n)), default=0)
    complete = 0
    complete_ok = 0
    truncated = []
    matched = set()
    for m in gm:
        mv = tuple(m["move"])
        if len(mv) % 2 == 1:  # cut at a bear-off: (from, 0, ...) loses the 0 and the rest
            truncated.append(m)
            continue
        hops = _hops_from_tuple(mv)
        if len(hops) != maxhops:
            problems.append(f"gnubg move {mv} has {len(hops)} hops, ours have {maxhops}")
        complete += 1
        try:
            a = apply_hops(pos, hops)
        except Exception as e:  # noqa: BLE001 - reported, not raised
            problems.append(f"gnubg move {mv} cannot be replayed: {e}")
            continue
        k = a.tobytes()
        if k in keys:
            complete_ok += 1
            matched.add(k)
        else:
            problems.append(f"gnubg move {mv} reaches a position we do not generate")
    bearoff_ok = None
    devs: list[float] = []
    if truncated:
        # cut moves: match each, best first, to the nearest-scoring afterstate no other move took
        rest = [j for j in range(n) if ours[j].tobytes() not in matched]
        scores = {j: move_score(ours[j]) for j in rest}
        # each cut move may take an afterstate that continues its hops and scores alike; the
        # cut moves must be matched one-to-one (scores can tie, e.g. all -1.0 in lost races)
        options = []
        for m in truncated:
            mv = tuple(m["move"])
            try:
                q = apply_hops(pos, _hops_from_tuple(mv[:-1]) + [(mv[-1], 0)])
            except Exception as e:  # noqa: BLE001 - reported, not raised
                problems.append(f"gnubg bear-off move {mv} cannot be replayed: {e}")
                options.append([])
                continue
            ok = [j for j in rest if _reachable(q, ours[j]) and abs(scores[j] - m["score"]) < SCORE_TOL]
            options.append(sorted(ok, key=lambda j: abs(scores[j] - m["score"])))  # nearest first
        owner = _match(options)
        taken = {i: j for j, i in owner.items()}
        for i, m in enumerate(truncated):
            if i in taken:
                devs.append(abs(scores[taken[i]] - m["score"]))
            else:
                problems.append(
                    f"gnubg bear-off move {tuple(m['move'])} (score {m['score']:.6f}) matches no "
                    f"afterstate of ours that continues it and scores within {SCORE_TOL}"
                )
        bearoff_ok = len(devs) == len(truncated)
    if n != n_g:
        problems.append(f"move count: ours {n}, gnubg {n_g}")
    return {
        "ours": n,
        "gnubg": n_g,
        "count_ok": n == n_g,
        "complete": complete,
        "complete_ok": complete_ok,
        "truncated": len(truncated),
        "bearoff_ok": bearoff_ok,
        "score_devs": devs,
        "problems": problems,
    }


ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def crosscheck_all(positions, progress: bool = True) -> dict:
    """:func:`crosscheck` for every position with all 21 rolls; totals, the cut-move score
    deviations and the failing checks (``problems``: (position, roll, reasons))."""
    from tqdm.auto import tqdm

    bufs = make_buffers()
    st = {
        "positions": len(positions),
        "checks": 0,
        "moves": 0,
        "count_ok": 0,
        "complete": 0,
        "complete_ok": 0,
        "cut_checks": 0,
        "cut_ok": 0,
        "cut_moves": 0,
        "score_devs": [],
        "problems": [],
    }
    for p in tqdm(positions, desc="gnubg cross-check", disable=not progress, unit="position", mininterval=2):
        for d1, d2 in ROLLS:
            r = crosscheck(p, d1, d2, bufs)
            st["checks"] += 1
            st["moves"] += r["ours"]
            st["count_ok"] += r["count_ok"]
            st["complete"] += r["complete"]
            st["complete_ok"] += r["complete_ok"]
            if r["bearoff_ok"] is not None:
                st["cut_checks"] += 1
                st["cut_ok"] += bool(r["bearoff_ok"])
                st["cut_moves"] += r["truncated"]
                st["score_devs"].extend(r["score_devs"])
            if r["problems"]:
                st["problems"].append((np.asarray(p).tolist(), (d1, d2), r["problems"]))
    return st
