"""Samuel's learning by generalization as a self-play protocol (Powell (2000) §3.3; Samuel 1959): Alpha, which
changes its polynomial after each of its moves (:mod:`tdbook.learners.checkers_generalization`), plays Beta,
which keeps its polynomial for the whole game.

**One game** (:func:`alpha_beta_game`, jitted): from a 3-move ballot, Alpha and Beta search with α-β,
plausibility ordering and Samuel's ply rules.  At each move of Alpha the backed-up score of the board
(for Alpha) is compared with the polynomial's score of Alpha's previous board, recomputed with the current
coefficients (or, with ``recompute_initial=False``, the score saved when that move was chosen): the learning
cycle of the generalization module (eq. 3.2 steps, coefficients, tallies, replacements).  "The piece
advantage contributed" means the piece credit difference changed between the previous board and the leaf of
the principal variation.  Games end at Samuel's cutoff (``move_limit`` = 70 plies, judged on the final
position by piece credit; notes fn. 19) or earlier by the ordinary rules.

**Between games** (:class:`AlphaBeta`): if Alpha won (or was ahead at the cutoff) Beta takes Alpha's
polynomial (``adopt="win"``, the first series; ``"majority"``: only after Alpha has won two of the last
three games since the last adoption, the second series); otherwise Alpha gets a black mark, and at three
marks its leading term's coefficient is set to zero (Samuel: "on the wrong track"; Powell 2000 §4.5: the
larger weights reset to zero).  Marks are cleared when Beta adopts and after the reset.  Game ``g`` starts
from ballot ``perm[g mod 157]`` of a seeded permutation, Alpha playing Black in even games.

Our readings and the numbers the papers leave open are named options of :class:`SamuelRun` and
:class:`~tdbook.learners.checkers_generalization.SamuelSpec`; the defaults follow Powell (2000) where it and
the reading notes disagree.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ...games.checkers import ballots
from ...games.checkers_bitboard import BUF_COLS, BUF_ROWS, credit
from ...games.checkers_features import N_PARAMS, scratch
from ...learners.checkers_generalization import (
    F_SURE_SCORE,
    N_SAMUEL,
    P_ACTIVE,
    P_CARRY,
    P_PMAX,
    P_RECOMPUTE,
    P_UPDATE_EVERY,
    SAMUEL_TERMS,
    TERM_INDEX,
    SamuelSpec,
    SamuelState,
    active_need,
    coefficients,
    correlate,
    minimum,
    tally_and_replace,
    weight_need,
)
from ...learners.checkers_polynomial import N_TERMS, TERMS, Polynomial, natural_params, score
from ...players.checkers import advance, game_end, move_of
from ...players.checkers_search import (
    F_PIECE,
    I_CONSTRUCTION,
    I_NEED,
    MAX_PLY,
    S_BEST,
    SearchRules,
    Workspace,
    pv_boards,
    search,
    search_spec,
)

#: ``counters`` of one game: Alpha's cycles, cycles that changed C, term adjustments, changes of the leading
#: term, replacements, plies played
C_CYCLES, C_UPDATES, C_ADJUST, C_TOP, C_REPLACED, C_PLIES = range(6)
N_COUNTERS = 6
MAX_EVENTS = 256


@njit(cache=True)
def _leader(order: np.ndarray, corr: np.ndarray, n_active: int) -> int:
    best = order[0]
    for j in range(1, n_active):
        if abs(corr[order[j]]) > abs(corr[best]):
            best = order[j]
    return best


@njit(cache=True)
def _static_for_mover(board, parent, weights, pw, construction, need, scratch) -> float:
    """The polynomial's score of ``board`` for its side to move (``parent`` = the board before, for Samuel's
    construction); the terms land in ``scratch[3]``."""
    pparams, params, other, terms, buf = scratch
    if construction == 0:
        natural_params(parent[0], parent[1], parent[2], parent[3], parent[4], pparams, buf, need)
    s = score(
        board[0], board[1], board[2], board[3], board[4], pparams, weights, pw, construction, need, params, other,
        terms, buf,
    )  # fmt: skip
    return -s


@njit(cache=True)
def learn_cycle(alpha, learn, v, leaf, anchor, anchor_parent, saved, a_spec, scratch, u, events, n_events, counters,
                leader):  # fmt: skip
    """One learning cycle after a search of the learner (module docstring of
    :mod:`tdbook.learners.checkers_generalization`): ``v`` = the backed-up score of the current board for the
    learner, ``leaf`` = the board at the end of its principal variation, ``anchor`` / ``anchor_parent`` = the
    board delta is taken against (the learner's previous board, or an earlier one under the credit-assignment
    fix) and the board before it, ``saved`` = the anchor's score when its move was chosen.  Updates the
    learner's arrays and its search spec ``a_spec`` in place, appends replacement events, counts into
    ``counters``.  Returns (events written, whether the anchor moves to the current board, the leading term)."""
    order, corr, used, tally, adjusted, weights = alpha
    ip, fp = learn
    a_ints, a_floats = a_spec
    n_active = ip[P_ACTIVE]
    need = active_need(order, n_active)
    s_now = _static_for_mover(anchor, anchor_parent, weights, a_floats[F_PIECE], a_ints[I_CONSTRUCTION], need, scratch)
    terms = scratch[3]
    for t in range(N_SAMUEL):
        u[t] = -terms[TERM_INDEX[t]]  # the terms are credited to the side that had just moved
    initial = s_now if ip[P_RECOMPUTE] == 1 else saved
    delta = v - initial
    d_prev = credit(anchor[0], anchor[1]) - credit(anchor[2], anchor[3])
    d_leaf = credit(leaf[0], leaf[1]) - credit(leaf[2], leaf[3])
    sure = abs(v) >= fp[F_SURE_SCORE]
    m = minimum(order, weights, n_active)
    changed = correlate(alpha, ip, fp, u, delta, initial, d_prev != d_leaf, sure, m)
    counters[C_CYCLES] += 1
    if changed:
        counters[C_UPDATES] += 1
        counters[C_ADJUST] += changed
    if counters[C_CYCLES] % ip[P_UPDATE_EVERY] == 0:
        coefficients(order, corr, n_active, ip[P_PMAX], weights)
    before = n_events
    n_events = tally_and_replace(alpha, ip, m, events, n_events)
    for e in range(before, min(n_events, events.shape[0])):
        weights[TERM_INDEX[events[e, 1]]] = 0.0  # the term that left the polynomial
    counters[C_REPLACED] += n_events - before
    for k in range(N_TERMS):
        a_floats[k] = weights[k]
    a_ints[I_NEED] = weight_need(weights)
    lead = _leader(order, corr, n_active)
    if lead != leader:
        counters[C_TOP] += 1
    moved = ip[P_CARRY] == 0 or (delta != 0.0 and abs(delta) >= m)
    return n_events, moved, lead


@njit(cache=True)
def alpha_beta_game(start, alpha_side, limits, alpha, learn, a_spec, b_spec, ws, scratch, counters, events):
    """One game of Alpha (colour ``alpha_side``) against Beta from ``start`` (int64[7]: bm, bk, wm, wk, side,
    quiet, ply) under ``limits`` (quiet limit, move limit, adjudicate), Alpha learning after each of its moves
    (module docstring).  ``alpha`` = (order, corr, used, tally, adjusted, weights) and ``a_spec`` = Alpha's
    search spec are updated in place.  Returns (result for Black, replacement events written)."""
    order, corr, _, _, _, weights = alpha
    ip, _ = learn
    a_ints, a_floats = a_spec
    b_ints, b_floats = b_spec
    n_active = ip[P_ACTIVE]
    construction = a_ints[I_CONSTRUCTION]
    pw = a_floats[F_PIECE]
    buf = np.empty((BUF_ROWS, BUF_COLS), dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    boards = np.zeros((MAX_PLY + 2, 5), dtype=np.int64)
    root = np.zeros(6, dtype=np.int64)
    last = np.zeros(5, dtype=np.int64)  # the board before the current one
    prev = np.zeros(5, dtype=np.int64)  # Alpha's anchor board (its previous board) …
    prev_parent = np.zeros(5, dtype=np.int64)  # … and the board before it
    u = np.zeros(N_SAMUEL, dtype=np.float64)
    have_last = False
    have_prev = False
    saved = 0.0
    n_events = 0
    leader = _leader(order, corr, n_active)
    bm, bk, wm, wk, side, quiet, ply = start[0], start[1], start[2], start[3], start[4], start[5], start[6]
    last_jump = 0
    while True:
        n, over, res = game_end(bm, bk, wm, wk, side, quiet, ply, limits[0], limits[1], limits[2], buf)
        if over:
            return res, n_events
        root[0], root[1], root[2], root[3], root[4], root[5] = bm, bk, wm, wk, side, last_jump
        if side == alpha_side:
            v = search(root, a_ints, a_floats, ws)
            i = ws[-1][S_BEST]
            new_saved = 0.0
            if ip[P_RECOMPUTE] == 0 and have_last:  # the score of this board by the polynomial that chose the move
                new_saved = _static_for_mover(
                    root, last, weights, pw, construction, active_need(order, n_active), scratch
                )
            moved = True
            if have_prev:
                npv = pv_boards(root, ws, boards)
                n_events, moved, leader = learn_cycle(
                    alpha, learn, v, boards[npv], prev, prev_parent, saved, a_spec, scratch, u, events, n_events,
                    counters, leader,
                )  # fmt: skip
            if moved:
                saved = new_saved
                if have_last:
                    for c in range(5):
                        prev[c] = root[c]
                        prev_parent[c] = last[c]
                    have_prev = True
        else:
            i, _ = move_of(b_ints, b_floats, root, rng, buf, ws)
        for c in range(5):
            last[c] = root[c]
        have_last = True
        bm, bk, wm, wk, side, quiet, ply, last_jump = advance(bm, bk, wm, wk, side, quiet, ply, buf[i])
        counters[C_PLIES] += 1


# ----------------------------------------------------------------------------- the run


@dataclass(frozen=True)
class SamuelRun:
    """Settings of an Alpha/Beta run (what decides its weights, besides the number of games): the learning
    rule ``learn``, ``seed`` (the first polynomial's term order and the ballot order), Beta's ``adopt`` rule
    (``"win"`` or ``"majority"``), the ``black_marks`` limit, the search ``rules`` (a
    :class:`~tdbook.players.checkers_search.SearchRules`), the game cutoff ``move_limit`` (plies, judged by
    material), the draw rule ``quiet_limit`` and ``reset``: whether ``black_marks`` marks zero Alpha's leading
    term (Powell (2000) §4.5's "kick-start"; False: marks never reset anything)."""

    learn: SamuelSpec = field(default_factory=SamuelSpec)
    seed: int = 1
    adopt: str = "win"
    black_marks: int = 3
    rules: SearchRules = field(default_factory=SearchRules.samuel)
    move_limit: int = 70
    quiet_limit: int = 80
    piece_weight: float = 2.0**20
    reset: bool = True

    def __post_init__(self) -> None:
        if self.adopt not in ("win", "majority"):
            raise ValueError(f"adopt must be 'win' or 'majority', got {self.adopt!r}")
        for name in ("black_marks", "move_limit", "quiet_limit"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if not isinstance(self.seed, (int, np.integer)) or isinstance(self.seed, bool) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {self.seed!r}")

    @classmethod
    def series(cls, n: int, **kw: Any) -> SamuelRun:
        """Samuel's first or second series (the second: selective updates, tally limit 32, the credit-assignment
        fix, Beta adopts after a majority of wins)."""
        learn_kw = {k: kw.pop(k) for k in list(kw) if k in SamuelSpec.__dataclass_fields__}
        return cls(SamuelSpec.series(n, **learn_kw), **({"adopt": "majority"} if n == 2 else {}) | kw)

    def settings(self) -> dict[str, Any]:
        d = asdict(self)
        d["rules"] = asdict(self.rules)
        return d


class Learner:
    """What Samuel's learner keeps, whatever plays its games (self-play here, book games in
    :mod:`tdbook.experiments.checkers.book_learning`): Alpha's state, the per-game logs (``LOGS`` of the
    subclass), Alpha's signed powers after each game and the term-replacement events — the parts of the
    :class:`~tdbook.experiments.checkers.training.Run` protocol the two share."""

    method = ""
    LOGS: tuple[str, ...] = ()
    #: arrays a subclass adds to a checkpoint beside Alpha's state and the logs
    EXTRA: tuple[str, ...] = ()

    def __init__(self, spec, games: int) -> None:
        self.spec = spec
        self.alpha = SamuelState.initial(spec.learn, spec.seed)
        self.ip, self.fp = spec.learn.arrays()
        self.ws = Workspace()
        self.scratch = (np.zeros(N_PARAMS), np.zeros(N_PARAMS), np.zeros(N_PARAMS), np.zeros(N_TERMS), scratch())
        self.done = 0
        self.log = {k: np.zeros(games, dtype=np.int64) for k in self.LOGS}
        self.powers = np.zeros((games, N_SAMUEL), dtype=np.int8)  # sign · (power + 1); 0 = out of the polynomial
        self.events = np.zeros((0, 5), dtype=np.int64)  # game, slot, term out, term in, its tally
        self._events = np.zeros((MAX_EVENTS, 4), dtype=np.int64)

    def settings(self) -> dict[str, Any]:
        return self.spec.settings()

    def _spec(self, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        poly = Polynomial({TERMS[k]: float(weights[k]) for k in np.flatnonzero(weights)}, self.spec.piece_weight)
        return search_spec(poly, self.spec.rules, True)

    def _start_game(self, g: int) -> np.ndarray:
        """Grow the logs for game ``g``; a fresh counters array."""
        if g >= self.log[self.LOGS[0]].shape[0]:
            self._grow(g + 1)
        return np.zeros(N_COUNTERS, dtype=np.int64)

    def _end_game(self, g: int, counters: np.ndarray, n_events: int) -> None:
        """Keep game ``g``'s replacement events, the counters every learner logs, the leader and the powers."""
        ne = min(n_events, MAX_EVENTS)
        if ne:
            ev = np.zeros((ne, 5), dtype=np.int64)
            ev[:, 0] = g
            ev[:, 1:5] = self._events[:ne]
            self.events = np.concatenate([self.events, ev])
        a = self.alpha
        a.refresh()
        L = self.log
        for k, c in (("cycles", C_CYCLES), ("updates", C_UPDATES), ("adjustments", C_ADJUST)):
            L[k][g] = counters[c]
        L["top_changes"][g], L["replaced"][g], L["plies"][g] = counters[C_TOP], counters[C_REPLACED], counters[C_PLIES]
        L["leader"][g] = SAMUEL_TERMS.index(a.top())
        self.powers[g] = signed_powers(a)
        self.done = g + 1

    def _grow(self, n: int) -> None:
        for k in self.LOGS:
            self.log[k] = np.concatenate([self.log[k], np.zeros(n - self.log[k].shape[0], dtype=np.int64)])
        self.powers = np.concatenate([self.powers, np.zeros((n - self.powers.shape[0], N_SAMUEL), np.int8)])

    def _extra_arrays(self) -> dict[str, np.ndarray]:
        return {}

    def _restore_extra(self, data: dict[str, np.ndarray]) -> None:
        pass

    def arrays(self) -> dict[str, np.ndarray]:
        out = self.alpha.arrays("alpha_") | self._extra_arrays()
        out |= {f"log_{k}": v for k, v in self.log.items()} | {"log_powers": self.powers, "log_events": self.events}
        return out

    def restore(self, data: dict[str, np.ndarray], games: int) -> None:
        self.alpha = SamuelState.from_arrays(self.spec.learn, data, "alpha_")
        self._restore_extra(data)
        n = max(games, self.log[self.LOGS[0]].shape[0])
        for k in self.LOGS:
            a = data[f"log_{k}"]
            if a.shape[0] < games:
                raise ValueError(f"log_{k} has {a.shape[0]} rows for {games} games")
            self.log[k] = np.zeros(n, dtype=np.int64)
            self.log[k][:games] = a[:games]
        self.powers = np.zeros((n, N_SAMUEL), np.int8)
        self.powers[:games] = data["log_powers"][:games]
        ev = data["log_events"]
        self.events = ev[ev[:, 0] < games] if ev.size else np.zeros((0, 5), dtype=np.int64)
        self.done = games

    def polynomial(self, which: str = "alpha") -> Polynomial:
        """Alpha's (the learned) polynomial."""
        w = self.alpha.weights
        return Polynomial({TERMS[k]: float(w[k]) for k in np.flatnonzero(w)}, self.spec.piece_weight)


class AlphaBeta(Learner):
    """An Alpha/Beta training run in progress (a :class:`~tdbook.experiments.checkers.training.Run`)."""

    method = "samuel"
    LOGS = ("result", "alpha_black", "ballot", "cycles", "updates", "adjustments", "top_changes", "replaced")
    LOGS += ("plies", "adopted", "zeroed", "marks", "leader")

    def __init__(self, spec: SamuelRun, games: int) -> None:
        super().__init__(spec, games)
        self.beta = self.alpha.weights.copy()
        self.marks = 0
        self.window: list[int] = []
        self.perm = np.random.default_rng([spec.seed, 157]).permutation(len(_BALLOTS))

    def play(self, g: int) -> None:
        counters = self._start_game(g)
        _, s = _BALLOTS[self.perm[g % len(_BALLOTS)]]
        alpha_side = g % 2  # Alpha plays Black in even games
        start = np.array([*s.words, s.side, s.quiet, s.ply], dtype=np.int64)
        limits = np.array([self.spec.quiet_limit, self.spec.move_limit, 1], dtype=np.int64)
        a = self.alpha
        res, ne = alpha_beta_game(
            start, alpha_side, limits, a.arrays_tuple,
            (self.ip, self.fp), self._spec(a.weights), self._spec(self.beta), self.ws.arrays, self.scratch, counters,
            self._events,
        )  # fmt: skip
        self._end_game(g, counters, ne)
        r = int(res if alpha_side == 0 else -res)
        adopted = zeroed = 0
        if self.spec.adopt == "win":
            adopted = int(r > 0)
        else:
            self.window = (self.window + [r])[-3:]
            adopted = int(sum(x > 0 for x in self.window) >= 2)
        if adopted:
            self.beta = a.weights.copy()
            self.marks = 0
            self.window = []
        else:
            self.marks += 1
            if self.spec.reset and self.marks >= self.spec.black_marks:
                a.zero_leader()
                zeroed = 1
                self.marks = 0
                self.powers[g] = signed_powers(a)
                self.log["leader"][g] = SAMUEL_TERMS.index(a.top())
        L = self.log
        L["result"][g], L["alpha_black"][g], L["ballot"][g] = r, int(alpha_side == 0), self.perm[g % len(_BALLOTS)]
        L["adopted"][g], L["zeroed"][g], L["marks"][g] = adopted, zeroed, self.marks

    def _extra_arrays(self) -> dict[str, np.ndarray]:
        return {"beta_weights": self.beta, "marks": np.array(self.marks), "window": np.array(self.window, np.int64)}

    def _restore_extra(self, data: dict[str, np.ndarray]) -> None:
        self.beta = np.array(data["beta_weights"], dtype=np.float64)
        if self.beta.shape != (N_TERMS,):
            raise ValueError(f"beta_weights has shape {self.beta.shape}")
        self.marks = int(data["marks"])
        self.window = [int(x) for x in data["window"]]

    def postfix(self) -> dict[str, str]:
        g = self.done
        res = self.log["result"][max(0, g - 100) : g]
        return {
            "α W-L-D (last 100)": f"{(res > 0).sum()}-{(res < 0).sum()}-{(res == 0).sum()}",
            "lead": self.alpha.top(),
        }

    def polynomial(self, which: str = "alpha") -> Polynomial:
        """Alpha's (the learned) or Beta's polynomial."""
        w = self.alpha.weights if which == "alpha" else self.beta
        return Polynomial({TERMS[k]: float(w[k]) for k in np.flatnonzero(w)}, self.spec.piece_weight)


_BALLOTS = ballots()


def signed_powers(state: SamuelState) -> np.ndarray:
    """int8[38]: sign(coefficient) · (power of 2 + 1) per term, 0 for a term out of the polynomial or at 0."""
    out = np.zeros(N_SAMUEL, dtype=np.int8)
    for t in range(N_SAMUEL):
        w = state.weights[TERM_INDEX[t]]
        if w != 0.0:
            out[t] = int(np.sign(w)) * (int(round(np.log2(abs(w)))) + 1)
    return out


def initial_polynomial(spec: SamuelRun) -> Polynomial:
    """The first polynomial of a run (Samuel (initial weights)): the seeded 16 terms, equal coefficients."""
    st = SamuelState.initial(spec.learn, spec.seed)
    return Polynomial(st.polynomial_weights(), spec.piece_weight)
