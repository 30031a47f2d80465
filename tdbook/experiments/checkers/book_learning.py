"""Samuel's learning by generalization on book games (Powell (2000) §3.3: "playing book games against the
computer"; Samuel 1959's book-game mode): the learner follows master games of the American Checker Federation
archive (:mod:`tdbook.games.checkers_book`, training games only) instead of playing itself.

**One book game** (:func:`book_game`, jitted): at every position of the game the learner searches as it
would in play (α-β, plausibility ordering, Samuel's ply rules, its current polynomial), notes whether its
move is the master's, and then the master's move is played — Samuel's book mode ("at each position it
picks its own move as usual … then plays the book move instead").  The learner plays *both* sides: each
side keeps its own anchor board, and after each search the learning cycle of
:func:`tdbook.experiments.checkers.samuel.learn_cycle` runs against that side's anchor — the same delta,
eq. 3.2 steps, coefficients, tallies and replacements as in self-play, credit-assignment fix included when
the spec asks for it.  There is no Beta, so no adoption and no black marks.

**The run** (:class:`BookGames`, a :class:`~tdbook.experiments.checkers.training.Run`): game ``g`` is the
training game ``perm[g mod n]`` of a seeded permutation of the training games of
:func:`tdbook.games.checkers_book.split_games` (the held-out games are never seen), so a run longer than
the archive goes round it again.  The first polynomial is the seed's, as in self-play.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
from numba import njit

from ...games.checkers_bitboard import BUF_COLS, BUF_ROWS, JUMPS, legal_moves
from ...games.checkers_book import all_positions, split_games
from ...learners.checkers_generalization import N_SAMUEL, P_ACTIVE, P_RECOMPUTE, SamuelSpec, active_need
from ...players.checkers_search import F_PIECE, I_CONSTRUCTION, MAX_PLY, S_BEST, SearchRules, pv_boards, search
from .samuel import C_PLIES, Learner, _leader, _static_for_mover, learn_cycle

C_AGREED, C_CHOICES = 0, 1


@njit(cache=True)
def book_game(rows, alpha, learn, a_spec, ws, scratch, counters, events, agree) -> int:
    """Follow one master game, the learner searching and learning at every position (module docstring).
    ``rows`` int64[n, 9] = the game's positions as :func:`tdbook.games.checkers_book.all_positions` gives them
    (bm, bk, wm, wk, side, ply, legal moves, the master's move, game), in order; ``agree`` int64[2] gets the
    positions with more than one legal move where the learner's move was the master's, and those positions.
    Returns the replacement events written."""
    order, corr, _, _, _, weights = alpha
    ip, _ = learn
    a_ints, a_floats = a_spec
    n_active = ip[P_ACTIVE]
    buf = np.empty((BUF_ROWS, BUF_COLS), dtype=np.int64)
    boards = np.zeros((MAX_PLY + 2, 5), dtype=np.int64)
    root = np.zeros(6, dtype=np.int64)
    last = np.zeros(5, dtype=np.int64)
    prev = np.zeros((2, 5), dtype=np.int64)  # each side's anchor …
    prev_parent = np.zeros((2, 5), dtype=np.int64)  # … and the board before it
    have_prev = np.zeros(2, dtype=np.bool_)
    saved = np.zeros(2)
    u = np.zeros(N_SAMUEL, dtype=np.float64)
    have_last = False
    n_events = 0
    leader = _leader(order, corr, n_active)
    last_jump = 0
    for t in range(rows.shape[0]):
        for c in range(5):
            root[c] = rows[t, c]
        root[5] = last_jump
        s = rows[t, 4]
        v = search(root, a_ints, a_floats, ws)
        if rows[t, 6] > 1:
            agree[C_CHOICES] += 1
            if ws[-1][S_BEST] == rows[t, 7]:
                agree[C_AGREED] += 1
        new_saved = 0.0
        if ip[P_RECOMPUTE] == 0 and have_last:
            new_saved = _static_for_mover(
                root, last, weights, a_floats[F_PIECE], a_ints[I_CONSTRUCTION], active_need(order, n_active), scratch
            )
        moved = True
        if have_prev[s]:
            npv = pv_boards(root, ws, boards)
            n_events, moved, leader = learn_cycle(
                alpha, learn, v, boards[npv], prev[s], prev_parent[s], saved[s], a_spec, scratch, u, events,
                n_events, counters, leader,
            )  # fmt: skip
        if moved:
            saved[s] = new_saved
            if have_last:
                for c in range(5):
                    prev[s, c] = root[c]
                    prev_parent[s, c] = last[c]
                have_prev[s] = True
        for c in range(5):
            last[c] = root[c]
        have_last = True
        legal_moves(root[0], root[1], root[2], root[3], root[4], buf)
        last_jump = 1 if buf[rows[t, 7], JUMPS] > 0 else 0
        counters[C_PLIES] += 1
    return n_events


@lru_cache(maxsize=1)
def training_games() -> tuple[np.ndarray, np.ndarray]:
    """The positions of every game (all positions, forced ones too, one row each as
    :func:`~tdbook.games.checkers_book.all_positions` gives them) and the first row of each game; only the
    training games of the collection's split are ever followed."""
    p = all_positions()
    rows = np.column_stack([p.words, p.side, p.ply, p.n_legal, p.chosen, p.game]).astype(np.int64)
    first = np.searchsorted(p.game, np.arange(int(p.game.max()) + 2))
    return rows, first


@dataclass(frozen=True)
class BookRun:
    """Settings of a book-game run: the learning rule ``learn``, ``seed`` (the first polynomial and the order of
    the training games), the search ``rules`` and the piece weight."""

    learn: SamuelSpec = field(default_factory=SamuelSpec)
    seed: int = 1
    rules: SearchRules = field(default_factory=SearchRules.samuel)
    piece_weight: float = 2.0**20

    def __post_init__(self) -> None:
        if not isinstance(self.seed, (int, np.integer)) or isinstance(self.seed, bool) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {self.seed!r}")

    def settings(self) -> dict[str, Any]:
        d = asdict(self)
        d["rules"] = asdict(self.rules)
        d["games"] = "ACF archive, training games of split_games()"
        return d


class BookGames(Learner):
    """A book-game run in progress (module docstring)."""

    method = "samuel-book"
    LOGS = ("game", "cycles", "updates", "adjustments", "top_changes", "replaced", "plies", "leader", "agreed")
    LOGS += ("choices",)

    def __init__(self, spec: BookRun, games: int) -> None:
        super().__init__(spec, games)
        train, _ = split_games()
        self.train = train
        self.perm = np.random.default_rng([spec.seed, 9377]).permutation(train.size)

    def play(self, g: int) -> None:
        counters = self._start_game(g)
        rows, first = training_games()
        game = int(self.train[self.perm[g % self.train.size]])
        agree = np.zeros(2, dtype=np.int64)
        a = self.alpha
        ne = book_game(
            rows[first[game] : first[game + 1]], a.arrays_tuple, (self.ip, self.fp), self._spec(a.weights),
            self.ws.arrays, self.scratch, counters, self._events, agree,
        )  # fmt: skip
        self._end_game(g, counters, ne)
        L = self.log
        L["game"][g], L["agreed"][g], L["choices"][g] = game, agree[C_AGREED], agree[C_CHOICES]

    def postfix(self) -> dict[str, str]:
        g = self.done
        a, c = self.log["agreed"][max(0, g - 100) : g].sum(), self.log["choices"][max(0, g - 100) : g].sum()
        return {"book moves (last 100)": f"{a / c:.3f}" if c else "—", "lead": self.alpha.top()}
