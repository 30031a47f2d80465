"""Samuel's rote learning as a protocol (Powell (2000) §3.3: "storing the best move found every time the … α-β
search is employed"; the store itself is :mod:`tdbook.learners.checkers_rote`).

**Training** (:func:`train`): the rote program — α-β with plausibility ordering and Samuel's ply rules on the
piece advantage alone, so that all it knows beyond material α-β is in its store — plays itself from the 3-move
ballots (game ``g`` from ballot ``perm[g mod 157]`` of a seeded permutation).  At every move the program looks
its board up (a *root hit* when it is stored already), searches with the store read at the frontier and
refreshed on reuse, and stores the board with the backed-up score and its ply (the search's principal
variation length plus the ply of a stored board at its end).  Every ``merge_every`` plies the store is merged
(aged, expunged, culled).  Per game the kernel counts, by phase of the board — opening (20 or more pieces on
the board), middle game (11–19), endgame (10 or fewer) — the boards met, the root hits and the frontier hits.

**Matches** use the store frozen (read, not refreshed): the rote program against material α-β at equal search
from the ballots (:func:`tdbook.experiments.checkers.match.match`), and from middle-game and endgame start
positions taken from games between two other players (:func:`phase_starts`), so that the store has not seen
them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ...games.checkers import Checkers, CheckersState, ballots, moves_of
from ...games.checkers_bitboard import BUF_COLS, BUF_ROWS, popcount
from ...learners.checkers_polynomial import Polynomial
from ...learners.checkers_rote import PLY, RoteSpec, RoteStore, lookup, merge, store
from ...players.checkers import MAX_GAME, Player, advance, game_end, play_games
from ...players.checkers_search import (
    F_BONUS,
    I_REFRESH,
    MAX_PLY,
    S_BEST,
    S_ROTE_HITS,
    SearchRules,
    Workspace,
    pv_boards,
    search,
    search_spec,
)

PHASES = ("opening", "middle game", "endgame")
#: per phase: boards met, root hits, frontier hits, searches
P_BOARDS, P_ROOT_HITS, P_LEAF_HITS = range(3)


@njit(cache=True, inline="always")
def phase_of(bm: int, bk: int, wm: int, wk: int) -> int:
    """0 opening (≥ 20 pieces), 1 middle game (11–19), 2 endgame (≤ 10)."""
    n = popcount(bm | bk | wm | wk)
    if n >= 20:
        return 0
    if n >= 11:
        return 1
    return 2


@njit(cache=True)
def rote_game(start, limits, spec, ws, store_args, merge_state, phases):
    """One self-play game of the rote program from ``start`` (int64[7]); ``limits`` = (quiet limit, move
    limit, adjudicate); ``spec`` = (ints, floats) of the search (reading and refreshing the workspace's store);
    ``store_args`` = int64[(age0, max_age, merge_every, limit)]; ``merge_state`` = int64[(plies since the
    last merge, merges, expunged, culled)] carried from game to game; ``phases`` int64[3, 3] gets the counts
    (module docstring).  Returns (result for Black, plies, new entries; −1 entries when the store is full)."""
    ints, floats = spec
    rtab, rscores = ws[-3], ws[-2]
    age0, max_age, merge_every, limit = store_args[0], store_args[1], store_args[2], store_args[3]
    refresh = ints[I_REFRESH]
    bonus = floats[F_BONUS]
    buf = np.empty((BUF_ROWS, BUF_COLS), dtype=np.int64)
    boards = np.zeros((MAX_PLY + 2, 5), dtype=np.int64)
    root = np.zeros(6, dtype=np.int64)
    bm, bk, wm, wk, side, quiet, ply = start[0], start[1], start[2], start[3], start[4], start[5], start[6]
    last_jump = 0
    k = 0
    new = 0
    while True:
        n, over, res = game_end(bm, bk, wm, wk, side, quiet, ply, limits[0], limits[1], limits[2], buf)
        if over:
            return res, k, new
        root[0], root[1], root[2], root[3], root[4], root[5] = bm, bk, wm, wk, side, last_jump
        ph = phase_of(bm, bk, wm, wk)
        phases[ph, P_BOARDS] += 1
        if lookup(rtab, bm, bk, wm, wk, side) >= 0:
            phases[ph, P_ROOT_HITS] += 1
        v = search(root, ints, floats, ws)
        i = ws[-1][S_BEST]
        phases[ph, P_LEAF_HITS] += ws[-1][S_ROTE_HITS]
        npv = pv_boards(root, ws, boards)
        depth = npv
        if npv > 0:
            leaf = boards[npv]
            hit = lookup(rtab, leaf[0], leaf[1], leaf[2], leaf[3], leaf[4])
            if hit >= 0:
                depth += rtab[hit, PLY]
        r = store(rtab, rscores, bm, bk, wm, wk, side, v, depth, age0, refresh, bonus)
        if r < 0:
            return res, k, -1
        new += r
        k += 1
        merge_state[0] += 1
        if merge_state[0] >= merge_every:
            e, c = merge(rtab, rscores, max_age, limit)
            merge_state[0] = 0
            merge_state[1] += 1
            merge_state[2] += e
            merge_state[3] += c
        bm, bk, wm, wk, side, quiet, ply, last_jump = advance(bm, bk, wm, wk, side, quiet, ply, buf[i])


@dataclass(frozen=True)
class RoteRun:
    """Settings of a rote-learning run: the store's ``rote`` spec, ``seed`` (ballot order), the program's
    ``poly`` (piece advantage alone by default), search ``rules`` and the draw rule ``quiet_limit``."""

    rote: RoteSpec = field(default_factory=RoteSpec)
    seed: int = 1
    poly: Polynomial = field(default_factory=Polynomial)
    rules: SearchRules = field(default_factory=SearchRules.samuel)
    quiet_limit: int = 80

    def settings(self) -> dict[str, Any]:
        return {"rote": asdict(self.rote), "seed": self.seed, "weights": dict(self.poly.weights)} | {
            "rules": asdict(self.rules),
            "quiet_limit": self.quiet_limit,
        }


@dataclass
class RoteTraining:
    """A rote-learning run: the store, and per game its size after the game, the plies, the result for Black
    and the phase counts (int64[games, 3 phases, 3 counts]); merges, expunged and culled entries in all."""

    run: RoteRun
    store: RoteStore
    size: np.ndarray
    plies: np.ndarray
    result: np.ndarray
    phases: np.ndarray
    merges: int = 0
    expunged: int = 0
    culled: int = 0

    @property
    def games(self) -> int:
        return self.size.shape[0]

    def games_to(self, positions: int) -> int | None:
        """Games played when the store first held ``positions`` boards (None: never)."""
        hit = np.flatnonzero(self.size >= positions)
        return int(hit[0]) + 1 if hit.size else None

    def hit_rates(self, first: int, last: int) -> dict[str, dict[str, float]]:
        """Per phase over games ``first..last−1``: boards met, root hit rate, frontier hits per board."""
        p = self.phases[first:last].sum(axis=0)
        out = {}
        for k, name in enumerate(PHASES):
            b = int(p[k, P_BOARDS])
            out[name] = {
                "boards": b,
                "root": p[k, P_ROOT_HITS] / b if b else float("nan"),
                "frontier": p[k, P_LEAF_HITS] / b if b else float("nan"),
            }
        return out


def train(run: RoteRun, games: int, *, progress: bool = True, store: RoteStore | None = None) -> RoteTraining:
    """Rote learning by self-play for ``games`` games (module docstring), from an empty store or ``store``."""
    if not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    st = store if store is not None else RoteStore(run.rote)
    ballot = ballots()
    perm = np.random.default_rng([run.seed, 157]).permutation(len(ballot))
    ints, floats = search_spec(run.poly, run.rules, True, rote=run.rote, rote_mode=2)
    ws = Workspace()
    sp = run.rote
    store_args = np.array([sp.age0, sp.max_age, sp.merge_every, sp.limit], dtype=np.int64)
    limits = np.array([run.quiet_limit, 0, 0], dtype=np.int64)
    mstate = np.zeros(4, dtype=np.int64)
    size = np.zeros(games, dtype=np.int64)
    plies = np.zeros(games, dtype=np.int64)
    result = np.zeros(games, dtype=np.int64)
    phases = np.zeros((games, 3, 3), dtype=np.int64)
    bar = tqdm(range(games), desc="rote learning", unit="game", disable=not progress)
    for g in bar:
        st.reserve(MAX_GAME)
        ws.use_store(st)
        s = ballot[perm[g % len(ballot)]][1]
        start = np.array([*s.words, s.side, s.quiet, s.ply], dtype=np.int64)
        res, k, new = rote_game(start, limits, (ints, floats), ws.arrays, store_args, mstate, phases[g])
        if new < 0:  # cannot happen after reserve(); kept as a guard
            raise RuntimeError("rote store full during a game")
        size[g], plies[g], result[g] = len(st), k, int(res)
        if g % 20 == 0:
            bar.set_postfix({"stored": f"{size[g]:,}"}, refresh=False)
    return RoteTraining(run, st, size, plies, result, phases, int(mstate[1]), int(mstate[2]), int(mstate[3]))


def rote_player(training: RoteTraining, name: str = "rote") -> Player:
    """The rote program with its store (read at the frontier, frozen)."""
    r = training.run
    return Player(name, "search", r.poly, r.rules, True, store=training.store)


def phase_starts(
    a: Player, b: Player, n: int | None = None, *, max_pieces: tuple[int, int] = (19, 10)
) -> dict[str, list[tuple[str, CheckersState]]]:
    """Start positions for the game phases: the ballots (opening), and from the game ``a`` (Black) v ``b`` played
    from each ballot, the first board with at most ``max_pieces[0]`` pieces (middle game) and at most
    ``max_pieces[1]`` (endgame), named after the ballot and the ply."""
    bal = ballots()[:n] if n is not None else ballots()
    recs = play_games(a, b, [s for _, s in bal])
    g = Checkers(quiet_limit=None)
    out: dict[str, list[tuple[str, CheckersState]]] = {"opening": list(bal), "middle game": [], "endgame": []}
    for (name, s), rec in zip(bal, recs):
        want = list(zip(("middle game", "endgame"), max_pieces))
        t = s
        for mv in rec.moves:
            t = g.apply(t, mv)
            while want and sum(bin(w).count("1") for w in t.words) <= want[0][1]:
                if moves_of(t):
                    out[want[0][0]].append((f"{name[:3]} ply {t.ply}", t._replace(quiet=0)))
                want.pop(0)
            if not want:
                break
    return out
