"""Notebook 01's protocols: Samuel's signature tables trained on the labelled set, against the linear
polynomial, a logistic model and one joint table; the storage arithmetic; the match at equal search; the
speeds; the "teach it" session.  Data in, data out (no plotting).

The labelled set (our stand-in for Samuel's book games) is :mod:`tdbook.experiments.signature_tables_book`.
Splits are by game: the positions of a random ``TEST_SHARE`` of the self-play games are held out, so a test
position never comes from a game seen in training.  A training set of size ``n`` is ``n`` positions drawn
(seeded) from the training games; every learner sees exactly the same positions.

The module is long (about 780 lines) but one thing: notebook 01's protocols, in the notebook's order, all
reading the same split of the labelled set through :class:`Book`, so that a reader of a section finds here
how each of its numbers is measured.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..core import profiles
from ..games.checkers import Checkers, CheckersState, ballots, moves_of
from ..learners.book_learning import (
    agreement,
    agreement_weights,
    alternatives,
    fit_softmax,
    preferred_mask,
    term_agreement,
)
from ..learners.checkers_signature import (
    TERM_NAMES,
    CheckersTables,
    book_terms,
    train_tables,
)
from ..learners.signature_table import (
    Arrangement,
    JointTable,
    SignatureTables,
    imbalance_weights,
)
from ..players import checkers_signature as ps
from .signature_tables_book import load_book, states

PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "POSITIONS": 1500,
        "TEST_SHARE": 0.2,
        "SIZES": [200, 600, 1200],
        "SEEDS": 2,
        "RULE": "a_k",
        "REQUANT": "fixed",
        "PRIOR": 1.0,
        "MODE": "stagewise",
        "SECOND_LEVELS": 7,
        "MATCH_BALLOTS": 4,
        "MATCH_DEPTH": 2,
        "MATCH_MUL": 0.5,
        "MATCH_PLIES": 120,
        "SPEED_ROWS": 200_000,
    },
    "standard": {
        "POSITIONS": 0,
        "TEST_SHARE": 0.2,
        "SIZES": [100, 200, 400, 800, 1600, 3200, 6400, 12000],
        "SEEDS": 10,
        "RULE": "a_k",
        "REQUANT": "fixed",
        "PRIOR": 1.0,
        "MODE": "stagewise",
        "SECOND_LEVELS": 7,
        "MATCH_BALLOTS": 157,
        "MATCH_DEPTH": 4,
        "MATCH_MUL": 0.5,
        "MATCH_PLIES": 150,
        "SPEED_ROWS": 2_000_000,
    },
    "full": {
        "POSITIONS": 0,
        "TEST_SHARE": 0.2,
        "SIZES": [100, 200, 400, 800, 1600, 3200, 6400, 12000],
        "SEEDS": 20,
        "RULE": "a_k",
        "REQUANT": "fixed",
        "PRIOR": 1.0,
        "MODE": "stagewise",
        "SECOND_LEVELS": 7,
        "MATCH_BALLOTS": 157,
        "MATCH_DEPTH": 6,
        "MATCH_MUL": 0.5,
        "MATCH_PLIES": 150,
        "SPEED_ROWS": 5_000_000,
    },
}
METHODS = ("tables", "tables (random assignment)", "Samuel's polynomial", "logistic", "joint table")


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 01's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    if not 0.0 < cfg.TEST_SHARE < 1.0:
        raise ValueError(f"TEST_SHARE must lie in (0, 1), got {cfg.TEST_SHARE!r}")
    if cfg.SEEDS < 1 or cfg.POSITIONS < 0 or not cfg.SIZES or min(cfg.SIZES) < 10:
        raise ValueError("need SEEDS >= 1, POSITIONS >= 0 (0 = all) and SIZES of at least 10 positions each")
    return cfg


# ----------------------------------------------------------------------------- the book set


@dataclass
class Book:
    """A labelled set with every legal move's 27 terms: rows ``X[starts[g]:starts[g+1]]`` are position g's
    moves, row ``pref[g]`` the teacher's; ``game`` the game each position came from."""

    X: np.ndarray
    starts: np.ndarray
    pref: np.ndarray
    game: np.ndarray
    raw: dict = field(repr=False)

    @property
    def n(self) -> int:
        return len(self.game)

    def subset(self, idx: np.ndarray) -> Book:
        idx = np.asarray(idx, dtype=np.int64)
        sizes = np.diff(self.starts)[idx]
        rows = np.concatenate([np.arange(self.starts[i], self.starts[i + 1]) for i in idx]) if idx.size else []
        st = np.zeros(idx.size + 1, dtype=np.int64)
        st[1:] = np.cumsum(sizes)
        pref = st[:-1] + (self.pref[idx] - self.starts[idx])
        raw = {k: v[idx] for k, v in self.raw.items()}
        return Book(self.X[np.asarray(rows, dtype=np.int64)], st, pref, self.game[idx], raw)

    def states(self) -> list[CheckersState]:
        return states(self.raw)


_LOADED: dict = {}


def load(positions: int = 0, path=None) -> Book:
    """The shipped labelled set (the first ``positions`` of it; 0 = all) with its term rows (kept after the
    first load in this process)."""
    key = (positions, str(path))
    if key not in _LOADED:
        _LOADED[key] = _load(positions, path)
    return _LOADED[key]


def _load(positions: int, path) -> Book:
    raw = load_book(path)
    if positions:
        raw = {k: v[:positions] for k, v in raw.items()}
    X, starts = book_terms(raw["words"], raw["side"], raw["n_moves"])
    pref = starts[:-1] + raw["preferred"].astype(np.int64)
    return Book(X, starts, pref, raw["game"].astype(np.int64), raw)


def split(book: Book, test_share: float, seed: int) -> tuple[Book, Book]:
    """(train, test) by game: a random ``test_share`` of the games is held out (seeded)."""
    games = np.unique(book.game)
    rng = np.random.default_rng([seed, 17])
    test_games = rng.choice(games, max(1, int(round(test_share * games.size))), replace=False)
    te = np.isin(book.game, test_games)
    return book.subset(np.flatnonzero(~te)), book.subset(np.flatnonzero(te))


def book_summary(book: Book, sidecar: dict) -> dict[str, Any]:
    """The labelled set in numbers (for the notebook's table)."""
    raw = book.raw
    return {
        "positions": book.n,
        "games": int(np.unique(book.game).size),
        "moves per position": float(np.diff(book.starts).mean()),
        "endgame share": float(np.mean(raw["depth"] > sidecar["spec"]["depth"])),
        "teacher depth": int(sidecar["spec"]["depth"]),
        "endgame depth": int(sidecar["spec"]["endgame_depth"]),
        "mean teacher nodes": float(raw["nodes"].mean()),
        "wall time (s)": float(sidecar["wall_time_s"]),
        "command": sidecar["command"],
    }


# ----------------------------------------------------------------------------- learners on a book set


@dataclass(frozen=True)
class TableOptions:
    """How the signature tables are trained (see :mod:`tdbook.learners.signature_table`)."""

    rule: str = "plain"
    requant: str = "fixed"
    prior: float = 1.0
    mode: str = "stagewise"
    second_levels: int = 7
    assignment: str = "interaction"

    @classmethod
    def of(cls, cfg, **kw) -> TableOptions:
        base = dict(rule=cfg.RULE, requant=cfg.REQUANT, prior=float(cfg.PRIOR), mode=cfg.MODE,
                    second_levels=cfg.SECOND_LEVELS)  # fmt: skip
        return cls(**{**base, **kw})


def fit_tables(train: Book, opt: TableOptions, seed: int = 0) -> CheckersTables:
    return train_tables(train.X, train.starts, train.pref, assignment=opt.assignment, rule=opt.rule, mode=opt.mode,
                        requant=opt.requant, prior=opt.prior, second_levels=opt.second_levels, seed=seed)  # fmt: skip


def scorers(train: Book, opt: TableOptions, seed: int = 0, methods=METHODS) -> dict[str, Any]:
    """Each method trained on ``train``: a function from term rows to scores (higher = better move); the
    trained tables and joint table under the keys ``"_tables"`` and ``"_joint"``."""
    out: dict[str, Any] = {}
    ct = fit_tables(train, opt, seed)
    out["tables"] = ct.value
    out["_tables"] = ct
    if "joint table" in methods:
        jt = JointTable.fit(ct.tables.arrangement.input_levels, ct.layout.quantize(train.X),
                            preferred_mask(train.starts, train.pref), alternatives(train.starts), opt.rule,
                            opt.prior)  # fmt: skip
        out["joint table"] = lambda X, jt=jt, lay=ct.layout: jt.value(lay.quantize(X))
        out["_joint"] = jt
    if "tables (random assignment)" in methods:
        rnd = fit_tables(train, TableOptions(**{**opt.__dict__, "assignment": "random"}), seed)
        out["tables (random assignment)"] = rnd.value
    if "Samuel's polynomial" in methods:
        w = agreement_weights(train.X, train.starts, train.pref)
        out["Samuel's polynomial"] = lambda X, w=w: X @ w
    if "logistic" in methods:
        w2 = fit_softmax(train.X, train.starts, train.pref)
        out["logistic"] = lambda X, w=w2: X @ w
    return {m: out[m] for m in (*methods, "_tables", "_joint") if m in out}


def learning_curves(book: Book, cfg, opt: TableOptions | None = None, seed: int = 0, progress: bool = True) -> dict:
    """Held-out agreement (C and top-1) of every method against training-set size, ``cfg.SEEDS`` seeds (each
    seed its own game split and draw of training positions): ``{method: {"C": [sizes × seeds], "top1": …}}``
    plus the joint table's share of held-out moves whose signature was ever seen."""
    opt = opt or TableOptions.of(cfg)
    sizes = list(cfg.SIZES)
    res = {m: {k: np.full((len(sizes), cfg.SEEDS), np.nan) for k in ("C", "top1", "decided")} for m in METHODS}
    seen = np.full((len(sizes), cfg.SEEDS), np.nan)
    n_train = np.zeros((len(sizes), cfg.SEEDS), dtype=np.int64)
    jobs = [(s, i) for s in range(cfg.SEEDS) for i in range(len(sizes))]
    for s, i in tqdm(jobs, desc="learning curves", disable=not progress):
        train_all, test = split(book, cfg.TEST_SHARE, seed + s)
        rng = np.random.default_rng([seed + s, 29])
        n = min(sizes[i], train_all.n)
        train = train_all.subset(np.sort(rng.choice(train_all.n, n, replace=False)))
        n_train[i, s] = n
        fns = scorers(train, opt, seed + s)
        for m in METHODS:
            a = agreement(fns[m](test.X), test.starts, test.pref)
            res[m]["C"][i, s] = a["C"]
            res[m]["top1"][i, s] = a["top1"]
            res[m]["decided"][i, s] = (a["L"] + a["H"]) / (test.starts[-1] - test.n)
        seen[i, s] = float(fns["_joint"].lookup(fns["_tables"].layout.quantize(test.X))[1].mean())
    return {"sizes": sizes, "n_train": n_train, "methods": res, "joint_seen": seen, "options": opt}


def variants(book: Book, cfg, seed: int = 0, progress: bool = True) -> dict:
    """Held-out C of the tables at the largest training size under each imbalance rule × requantization ×
    training mode (the choices the note leaves open), ``cfg.SEEDS`` seeds."""
    base = TableOptions.of(cfg)
    combos = [(r, q, "stagewise") for r in ("plain", "a_k", "d_over_k") for q in ("fixed", "equal")]
    combos += [(r, "fixed", "online") for r in ("plain", "a_k", "d_over_k")]
    out = {c: np.zeros(cfg.SEEDS) for c in combos}
    for s in tqdm(range(cfg.SEEDS), desc="table variants", disable=not progress):
        train_all, test = split(book, cfg.TEST_SHARE, seed + s)
        rng = np.random.default_rng([seed + s, 29])
        train = train_all.subset(np.sort(rng.choice(train_all.n, min(max(cfg.SIZES), train_all.n), replace=False)))
        for r, q, m in combos:
            ct = fit_tables(train, TableOptions(**{**base.__dict__, "rule": r, "requant": q, "mode": m}), seed + s)
            out[(r, q, m)][s] = agreement(ct.value(test.X), test.starts, test.pref)["C"]
    return out


# ----------------------------------------------------------------------------- the note's arithmetic


def storage(second_levels: int = 7) -> dict[str, Any]:
    """The numbers of Samuel (1973 note) Fig. 1 as our :meth:`Arrangement.samuel` makes them."""
    arr = Arrangement.samuel(second_levels=second_levels)
    depth = np.array(arr.depth)
    sizes = np.array(arr.sizes)
    first = np.flatnonzero(depth == 1)
    second = np.flatnonzero(depth == 2)
    third = np.flatnonzero(depth == 3)
    levels_per_table = sorted({tuple(sorted((arr.input_levels[j] for j in arr.tables[t]), reverse=True))
                               for t in first})  # fmt: skip
    implied = [L for L in range(2, 12) if L**3 == 343]
    return {
        "inputs": arr.n_inputs,
        "input_levels": sorted(set(arr.input_levels), reverse=True),
        "first_tables": int(first.size),
        "terms_per_first_table": sorted({len(arr.tables[t]) for t in first}),
        "first_levels_per_table": [list(x) for x in levels_per_table],
        "first_size": sorted(set(sizes[first].tolist())),
        "first_output_levels": sorted({arr.output_levels[t] for t in first}),
        "second_tables": int(second.size),
        "second_size": sorted(set(sizes[second].tolist())),
        "third_tables": int(third.size),
        "third_size": int(sizes[third][0]),
        "total_entries": arr.entries,
        "joint_first_outputs": 105**9,
        "joint_inputs": arr.joint_entries,
        "implied_second_levels": implied,
        "arrangement": arr,
    }


# ----------------------------------------------------------------------------- training as counting


def counting_story(book: Book, cfg, seed: int = 0, checkpoints: int = 12) -> dict:
    """A/D filling up over the training stream (stagewise first-level tables, then the rest): the share of
    non-empty entries per level after each chunk of the stream, the C and counts of a few cells at the end,
    and how many entries stay empty."""
    train, _ = split(book, cfg.TEST_SHARE, seed)
    opt = TableOptions.of(cfg)
    ct = fit_tables(train, opt, seed)
    arr = ct.tables.arrangement
    Q = ct.layout.quantize(train.X)
    wa, wd = imbalance_weights(preferred_mask(train.starts, train.pref), alternatives(train.starts), opt.rule)
    st = SignatureTables(arr, opt.prior, thresholds=ct.tables.thresholds.copy())
    depth = np.array(arr.depth)
    offs = st._arrays[3]
    marks = np.unique(np.linspace(0, train.n, checkpoints + 1).astype(int))
    first = np.flatnonzero(depth == 1)
    filled, stream = [], []
    for lo, hi in zip(marks[:-1], marks[1:]):
        rows = slice(train.starts[lo], train.starts[hi])
        st.count(Q[rows], wa[rows], wd[rows], 1, 1)
        stream.append(int(hi))
        occ = sum(int(np.count_nonzero(st.a[offs[t] : offs[t + 1]] + st.d[offs[t] : offs[t + 1]])) for t in first)
        filled.append(occ / sum(int(offs[t + 1] - offs[t]) for t in first))
    # the level-2 and level-3 filling of the finished tables (the final state)
    final = {}
    for lv in (1, 2, 3):
        ts = np.flatnonzero(depth == lv)
        a = np.concatenate([ct.tables.a[offs[t] : offs[t + 1]] for t in ts])
        d = np.concatenate([ct.tables.d[offs[t] : offs[t + 1]] for t in ts])
        final[lv] = {"entries": int(a.size), "empty": int(np.sum(a + d == 0))}
    A, D = ct.tables.table_counts(0)
    C = ct.tables.table_c(0)
    idx = np.argsort(-(A + D).ravel())[:6]
    cells = [(np.unravel_index(i, A.shape), float(A.ravel()[i]), float(D.ravel()[i]), float(C.ravel()[i])) for i in idx]
    return {"stream_positions": stream, "filled": filled, "final": final, "cells": cells, "tables": ct,
            "rows": int(len(Q)), "positions": train.n, "group0": ct.layout.groups()[0]}  # fmt: skip


def table_heatmap(ct: CheckersTables, t: int = 0) -> dict:
    """First-level table ``t``'s C and A + D over its two largest inputs (summing over the third by counts)."""
    A, D = ct.tables.table_counts(t)
    a2, d2 = A.sum(axis=2), D.sum(axis=2)
    s = a2 + d2 + ct.tables.prior
    C = np.divide(a2 - d2, s, out=np.zeros_like(a2), where=s > 0)
    names = ct.layout.groups()[t]
    slots = [ct.layout.slot_term[3 * t + c] for c in range(3)]
    thr = [ct.layout.thresholds[3 * t + c] for c in range(3)]
    return {"C": C, "n": a2 + d2, "names": names, "slots": slots, "thresholds": thr, "C3": ct.tables.table_c(t),
            "n3": A + D}  # fmt: skip


# ----------------------------------------------------------------------------- the XOR check


def xor_book(n_positions: int = 400, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A synthetic book set with a pure interaction: every position offers the four moves (x1, x2) ∈ {0,1}²
    (plus a noise input) and the preferred move is one of the two with x1 XOR x2 = 1."""
    rng = np.random.default_rng([seed, 5])
    combos = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    X = np.zeros((4 * n_positions, 3), dtype=np.int64)
    pref = np.zeros(n_positions, dtype=np.int64)
    for g in range(n_positions):
        X[4 * g : 4 * g + 4, :2] = combos[rng.permutation(4)]
        X[4 * g : 4 * g + 4, 2] = rng.integers(0, 3, 4)
        ones = np.flatnonzero(X[4 * g : 4 * g + 4, 0] ^ X[4 * g : 4 * g + 4, 1])
        pref[g] = 4 * g + ones[rng.integers(2)]
    starts = np.arange(0, 4 * n_positions + 1, 4, dtype=np.int64)
    return X, starts, pref


def xor_check(n_positions: int = 400, seed: int = 0) -> dict[str, float]:
    """Agreement on a held-out XOR book of a 2-level table arrangement and of the best linear model."""
    X, st, pr = xor_book(n_positions, seed)
    Xt, stt, prt = xor_book(n_positions, seed + 1)
    arr = Arrangement((2, 2, 3), ((0, 1), (3, 2)), (3, 1))
    tab = SignatureTables.fit(arr, X, preferred_mask(st, pr), alternatives(st), requant="fixed")
    w = fit_softmax(X.astype(float), st, pr)
    return {"table": agreement(tab.value(Xt), stt, prt)["C"], "linear": agreement(Xt @ w, stt, prt)["C"]}


# ----------------------------------------------------------------------------- speed


def _timed(fn) -> tuple[float, float]:
    """(CPU seconds of this process, wall seconds) of ``fn()`` — one thread: a core's rate even on a busy machine."""
    c0, w0 = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c0, time.perf_counter() - w0


def speeds(rows: int = 2_000_000, seed: int = 0) -> dict[str, float]:
    """Speeds of Samuel's arrangement on random input levels, per CPU second (and per wall second, ``*_wall``):
    ``count_per_s`` = position-move rows of a whole stagewise fit (every row counted into all 13 tables: three
    passes, the requantization in between), ``first_level_per_s`` = rows of the first pass alone (into the 9
    first-level tables), ``eval_per_s`` = positions evaluated through all 13 tables."""
    arr = Arrangement.samuel()
    rng = np.random.default_rng(seed)
    X = rng.integers(0, np.array(arr.input_levels), size=(rows, arr.n_inputs)).astype(np.int8)
    pref = rng.random(rows) < 1 / 8
    k = np.full(rows, 7)
    st = SignatureTables.fit(arr, X[:1000], pref[:1000], k[:1000], requant="fixed")  # compile
    st.value(X[:1000])
    wa, wd = imbalance_weights(pref, k, "plain")
    out: dict[str, float] = {"rows": rows}
    for name, fn in (
        ("count_per_s", lambda: SignatureTables.fit(arr, X, pref, k, requant="fixed")),
        ("first_level_per_s", lambda: SignatureTables(arr, 1.0)._count(X, wa, wd, 1, 1)),
        ("eval_per_s", lambda: st.value(X)),
    ):
        cpu, wall = _timed(fn)
        out[name] = rows / max(cpu, 1e-9)
        out[name + "_wall"] = rows / max(wall, 1e-9)
    return out


def search_speeds(book: Book, ct: CheckersTables, w: np.ndarray, depth: int = 4, positions: int = 40) -> dict:
    """Nodes per second of the equal-search kernel with the tables and with the polynomial."""
    out = {}
    sts = book.states()[:positions]
    for name, player in (
        ("tables", TablePlayer.tables(ct, 1.0, depth)),
        ("polynomial", TablePlayer.poly(w, 1.0, depth)),
    ):
        player.choose(sts[0])
        t0 = time.perf_counter()
        nodes = 0
        for s in sts:
            player.choose(s)
            nodes += int(player.ws.stats[0])
        out[name] = nodes / (time.perf_counter() - t0)
    return out


# ----------------------------------------------------------------------------- playing strength


_DUMMY_TABS = (np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
               np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1))  # fmt: skip


class TablePlayer:
    """A searching player of :mod:`tdbook.players.checkers_signature`: the tables or a linear polynomial as the
    learned part of the evaluation, ``mul`` men per unit of it, α-β to ``depth`` plies plus captures."""

    def __init__(self, name: str, kind: int, w, mul: float, depth: int, ct: CheckersTables | None = None):
        if depth < 1 or depth >= ps.MAX_PLY:
            raise ValueError(f"depth must be in 1..{ps.MAX_PLY - 1}, got {depth!r}")
        self.name, self.kind, self.mul, self.depth = name, kind, float(mul), int(depth)
        self.w = np.asarray(w, dtype=np.float64)
        if ct is None:
            st = np.zeros(1, dtype=np.int64)
            self.karr = (st, np.zeros((1, 1)), np.zeros(1, dtype=np.int64), _DUMMY_TABS)
        else:
            self.karr = ct.kernel_arrays()
        self.ws = ps.Workspace()

    @classmethod
    def tables(cls, ct: CheckersTables, mul: float, depth: int) -> TablePlayer:
        return cls("signature tables", ps.TABLES, np.zeros(len(TERM_NAMES)), mul, depth, ct)

    @classmethod
    def poly(cls, w: np.ndarray, mul: float, depth: int, name: str = "Samuel's polynomial") -> TablePlayer:
        return cls(name, ps.POLY, w, mul, depth)

    def choose_index(self, s: CheckersState) -> int:
        root = np.array([*s.words, s.side], dtype=np.int64)
        st, thr, n, tabs = self.karr
        ps.search(root, self.depth, ps.MAX_PLY - 1, self.kind, self.w, self.mul, st, thr, n, tabs, self.ws.arrays)
        return int(self.ws.stats[1])

    def choose(self, s: CheckersState) -> str:
        moves = moves_of(s)
        if not moves:
            raise ValueError(f"{self.name}: no legal move in {s!r}")
        return moves[self.choose_index(s)].text


def learned_scale(f, X: np.ndarray) -> float:
    """Standard deviation of a learned part over term rows (to put two evaluators on one footing)."""
    sd = float(np.std(f(X)))
    return sd if sd > 0 else 1.0


def play_match(a: TablePlayer, b: TablePlayer, n_ballots: int, max_plies: int, progress: bool = True) -> dict:
    """Each of the first ``n_ballots`` 3-move ballots twice, colours swapped: ``a``'s score (win 1, draw ½)
    per game, ± s.e. over ballot pairs; games end by the rules, the 80-ply quiet rule, or at ``max_plies``
    judged by piece credit (Samuel's 70-move cutoff, lengthened)."""
    g = Checkers(quiet_limit=80, move_limit=max_plies, adjudicate="material")
    starts = [s for _, s in ballots()][:n_ballots]
    pair_scores, results, lengths = [], [], []
    for s0 in tqdm(starts, desc=f"{a.name} v {b.name}", disable=not progress):
        pair = []
        for a_colour in (0, 1):
            s = s0
            while not g.is_terminal(s):
                mover = a if s.side == a_colour else b
                s = g.apply(s, mover.choose(s))
            r = g.result(s)  # Black's payoff
            score_a = (r if a_colour == 0 else -r) * 0.5 + 0.5
            pair.append(score_a)
            results.append(score_a)
            lengths.append(s.ply - 3)
        pair_scores.append(np.mean(pair))
    ps_ = np.array(pair_scores)
    res = np.array(results)
    return {
        "score": float(ps_.mean()),
        "stderr": float(ps_.std(ddof=1) / np.sqrt(ps_.size)) if ps_.size > 1 else float("nan"),
        "games": int(res.size),
        "wins": int(np.sum(res == 1.0)),
        "draws": int(np.sum(res == 0.5)),
        "losses": int(np.sum(res == 0.0)),
        "mean_plies": float(np.mean(lengths)),
    }


OPPONENTS = {
    "samuel": "Samuel's polynomial, book-learned (per-term agreement weights) on the same training set",
    "logistic": "the logistic model's polynomial (conditional logit fit by gradient descent) on the same training set",
}


def strength(book: Book, cfg, seed: int = 0, opponent: str = "samuel", progress: bool = True) -> dict:
    """Tables vs a linear polynomial over the same 27 terms (``opponent``: Samuel's book-learned weights or the
    logistic model's), both trained on all training positions of split ``seed``, at equal search (depth
    ``MATCH_DEPTH`` plus captures), learned parts scaled to ``MATCH_MUL`` men per standard deviation over the
    training moves."""
    if opponent not in OPPONENTS:
        raise ValueError(f"opponent must be one of {list(OPPONENTS)}, got {opponent!r}")
    train, _ = split(book, cfg.TEST_SHARE, seed)
    ct = fit_tables(train, TableOptions.of(cfg), seed)
    if opponent == "samuel":
        w = agreement_weights(train.X, train.starts, train.pref)
    else:
        w = fit_softmax(train.X, train.starts, train.pref)
    mt = cfg.MATCH_MUL / learned_scale(ct.value, train.X)
    mp = cfg.MATCH_MUL / learned_scale(lambda X: X @ w, train.X)
    a = TablePlayer.tables(ct, mt, cfg.MATCH_DEPTH)
    b = TablePlayer.poly(w, mp, cfg.MATCH_DEPTH, name=opponent)
    res = play_match(a, b, cfg.MATCH_BALLOTS, cfg.MATCH_PLIES, progress)
    res.update({"opponent": OPPONENTS[opponent], "depth": cfg.MATCH_DEPTH, "mul": cfg.MATCH_MUL, "tables": ct,
                "weights": w})  # fmt: skip
    return res


# ----------------------------------------------------------------------------- the widget's reruns


def explore(
    assignment: str = "interaction",
    rule: str = "plain",
    requant: str = "fixed",
    mode: str = "stagewise",
    prior: float = 1.0,
    second_levels: int = 7,
    train_positions: int = 2000,
    seed: int = 0,
) -> dict:
    """Train the tables and the comparators on ``train_positions`` positions and score them on the held-out
    games (the panel's rerun)."""
    book = load()
    train_all, test = split(book, 0.2, seed)
    if not 10 <= train_positions <= train_all.n:
        raise ValueError(f"train_positions must lie in 10..{train_all.n}, got {train_positions}")
    rng = np.random.default_rng([seed, 29])
    train = train_all.subset(np.sort(rng.choice(train_all.n, train_positions, replace=False)))
    opt = TableOptions(rule, requant, float(prior), mode, int(second_levels), assignment)
    fns = scorers(train, opt, seed)
    scores = {m: agreement(fns[m](test.X), test.starts, test.pref) for m in METHODS}
    ct = fns["_tables"]
    return {"scores": scores, "tables": ct, "heat": table_heatmap(ct, 0), "options": opt, "n": train.n}


# ----------------------------------------------------------------------------- teach it


class TeachSession:
    """ "Teach it": a person plays the book.  Positions from the held-out games are shown one at a time; the
    move the person prefers gets A += 1 and every other legal move D += 1 in every table (Samuel (1973
    note): "Count A is incremented when the current input vector represents a prefered move"), on top of
    tables trained on ``train_positions`` positions of the labelled set.  :meth:`teach` returns what changed."""

    def __init__(self, train_positions: int = 500, seed: int = 0) -> None:
        book = load()
        train_all, self.test = split(book, 0.2, seed)
        rng = np.random.default_rng([seed, 29])
        train = train_all.subset(np.sort(rng.choice(train_all.n, min(train_positions, train_all.n), replace=False)))
        self.ct = fit_tables(train, TableOptions(), seed)
        self.states = self.test.states()
        self.i = 0
        self.taught = 0

    @property
    def state(self) -> CheckersState:
        return self.states[self.i]

    def moves(self) -> list[str]:
        return [m.text for m in moves_of(self.state)]

    def ranking(self) -> list[tuple[str, float]]:
        """The legal moves with the tables' figure of merit, best first."""
        rows = self.test.X[self.test.starts[self.i] : self.test.starts[self.i + 1]]
        v = self.ct.value(rows)
        return sorted(zip(self.moves(), v.tolist()), key=lambda t: -t[1])

    def teacher_move(self) -> str:
        return self.moves()[int(self.test.pref[self.i] - self.test.starts[self.i])]

    def teach(self, move: str) -> dict:
        """Count ``move`` as preferred here; returns the first-level cells of the chosen move before/after."""
        moves = self.moves()
        if move not in moves:
            raise ValueError(f"{move!r} is not a legal move here; legal moves: {', '.join(moves)}")
        rows = self.test.X[self.test.starts[self.i] : self.test.starts[self.i + 1]]
        Q = self.ct.layout.quantize(rows)
        pref = np.array([m == move for m in moves])
        wa, wd = imbalance_weights(pref, np.full(len(moves), len(moves) - 1), "plain")
        st = self.ct.tables
        outs_before = st.outputs(Q[pref])[0]
        before = self._cells(Q[pref][0])
        st.count(Q, wa, wd)
        after = self._cells(Q[pref][0])
        self.taught += 1
        return {"move": move, "before": before, "after": after, "root_before": float(outs_before[-1]),
                "root_after": float(st.outputs(Q[pref])[0][-1])}  # fmt: skip

    def _cells(self, q: np.ndarray) -> list[tuple[str, float, float, float]]:
        st = self.ct.tables
        out = []
        for t, names in enumerate(self.ct.layout.groups()):
            A, D = st.table_counts(t)
            C = st.table_c(t)
            cell = tuple(int(q[3 * t + c]) for c in range(3))
            out.append(("/".join(names), float(A[cell]), float(D[cell]), float(C[cell])))
        return out

    def next(self) -> None:
        self.i = (self.i + 1) % len(self.states)


def term_table(book: Book) -> list[tuple[str, float]]:
    """Each term's own agreement coefficient on the whole set (Samuel's per-term book statistic)."""
    c = term_agreement(book.X, book.starts, book.pref)
    return list(zip(TERM_NAMES, c.tolist()))


# ----------------------------------------------------------------------------- the claims' measured values


def storage_claims(s: dict) -> dict[str, dict]:
    """The note's arithmetic (Samuel (1973 note) ¶1–3) as our arrangement makes it."""
    one = s["implied_second_levels"]
    return {
        "input-terms": {"ours": s["inputs"], "note": f"{len(TERM_NAMES)} simple terms: {', '.join(TERM_NAMES)}"},
        "quantization-levels": {"ours": s["input_levels"], "note": "levels of the 9 × 3 table inputs"},
        "first-level-tables": {"ours": s["first_tables"]},
        "terms-per-table": {"ours": s["terms_per_first_table"][0] if len(s["terms_per_first_table"]) == 1 else -1},
        "first-level-entries": {"ours": s["first_size"][0] if len(s["first_size"]) == 1 else -1,
                                "note": f"each first-level table over levels {s['first_levels_per_table']}"},
        "first-output-levels": {"ours": s["first_output_levels"][0]},
        "second-level-tables": {"ours": s["second_tables"]},
        "third-level-tables": {"ours": s["third_tables"]},
        "second-level-entries": {"ours": s["second_size"][0]},
        "storage-343-top-table": {"ours": s["third_size"],
                                  "note": "third-level table over three second-level outputs requantized to 7 levels"},
        "implied-second-levels": {"ours": one[0] if len(one) == 1 else -1, "note": f"L with L³ = 343: {one}"},
        "storage-343-all-tables": {"ours": s["total_entries"],
                                   "note": "9 × 105 + 3 × 125 + 343: the literal reading of '343 entries' fails"},
        "joint-entries": {"ours": s["joint_inputs"],
                          "note": f"∏ of the 27 input levels = (7·5·3)^9 = {s['joint_inputs']:.4e}"},
    }  # fmt: skip


def counting_claims(book: Book, cfg, story: dict, seed: int = 0) -> dict[str, dict]:
    """Sequential counting on the real stream (a shuffled copy gives the same tables) and the empty entries."""
    train, _ = split(book, cfg.TEST_SHARE, seed)
    opt = TableOptions.of(cfg)
    ct = story["tables"]
    lay = ct.layout
    Q = lay.quantize(train.X)
    m, k = preferred_mask(train.starts, train.pref), alternatives(train.starts)
    perm = np.random.default_rng([seed, 3]).permutation(len(Q))
    kw = dict(rule=opt.rule, mode="stagewise", requant=opt.requant, prior=opt.prior)
    a = SignatureTables.fit(ct.tables.arrangement, Q, m, k, **kw)
    b = SignatureTables.fit(ct.tables.arrangement, Q[perm], m[perm], k[perm], **kw)
    same = (
        a.to_bytes() == b.to_bytes()
        if opt.rule != "d_over_k"
        else bool(np.allclose(a.a, b.a) and np.allclose(a.d, b.d))
    )
    f1 = story["final"][1]
    return {
        "sequential-counting": {"ours": bool(same), "note": f"{len(Q):,} position-move rows of {train.n:,} positions, "
                                f"shuffled (rule {opt.rule}): identical counts"},
        "empty-first-level-entries": {"ours": f1["empty"] / f1["entries"],
                                      "note": f"{f1['empty']} of {f1['entries']} first-level entries never counted; "
                                      f"second level {story['final'][2]['empty']}/{story['final'][2]['entries']}, "
                                      f"third {story['final'][3]['empty']}/{story['final'][3]['entries']}"},
    }  # fmt: skip


def xor_claims(seed: int = 0) -> dict[str, dict]:
    r = xor_check(400, seed)
    ok = r["table"] > 0.5 and r["linear"] < 0.1
    return {"interactions-in-one-table": {"ours": bool(ok), "note": f"held-out C on an XOR preference: table "
                                          f"{r['table']:.3f}, best linear model {r['linear']:.3f}"}}  # fmt: skip


def agreement_claims(lc: dict) -> dict[str, dict]:
    """Held-out agreement at the largest training size (spread over seeds) and the paired differences."""
    from ..claims import Spread

    meth = lc["methods"]
    n = int(np.median(lc["n_train"][-1]))
    last = {m: meth[m]["C"][-1] for m in meth}
    top = {m: meth[m]["top1"][-1] for m in meth}

    def sp(x, what):
        s = Spread.of(x)
        return {"ours": s, "note": f"{what}; {n:,} training positions, {len(x)} seeds (median, central 95 %)"}

    out = {
        "agreement-tables": sp(last["tables"], "held-out C of the signature tables"),
        "agreement-polynomial": sp(last["Samuel's polynomial"], "held-out C of Samuel's book-learned polynomial"),
        "agreement-logistic": sp(last["logistic"], "held-out C of the logistic (conditional-logit) model"),
        "agreement-random-assignment": sp(last["tables (random assignment)"], "held-out C, randomly grouped terms"),
        "agreement-joint-table": sp(
            last["joint table"],
            f"held-out C of one joint table, over the {np.median(meth['joint table']['decided'][-1]):.1%} of "
            "alternatives it ranks at all (unseen signatures tie at C = 0)",
        ),
        "top1-tables": sp(top["tables"], "teacher's move ranked first by the tables"),
        "top1-polynomial": sp(top["Samuel's polynomial"], "teacher's move ranked first by the polynomial"),
        "interaction-gain": sp(last["tables"] - last["logistic"], "tables' C minus the logistic model's, paired"),
        "assignment-gain": sp(last["tables"] - last["tables (random assignment)"], "interaction-grouped minus random"),
        "joint-seen-share": sp(lc["joint_seen"][-1], "held-out moves whose signature the joint table met"),
        "superior-to-polynomial": sp(
            last["tables"] - last["Samuel's polynomial"], "tables' C minus Samuel's polynomial's, paired by seed"
        ),
    }
    return out


def strength_claims(res: dict, claim: str = "strength-score") -> dict[str, dict]:
    from ..claims import Estimate

    return {claim: {"ours": Estimate(res["score"], res["stderr"], res["games"] // 2),
                               "note": f"{res['wins']} wins, {res['draws']} draws, {res['losses']} losses in "
                               f"{res['games']} games (depth {res['depth']} + captures; {res['mul']} men per s.d. "
                               f"of each learned part) against {res['opponent']}"}}  # fmt: skip


def speed_table(sp: dict, search_sp: dict) -> list[list[str]]:
    """Rows (what, measured, issue 17's target) of the speed measurements — shown, not recorded: timings differ
    from run to run and the results file must not."""
    ratio = search_sp["polynomial"] / search_sp["tables"]
    return [
        ["count training, stagewise fit of all 13 tables (rows/s, CPU; wall)",
         f"{sp['count_per_s']:,.0f}; {sp['count_per_s_wall']:,.0f}", "≥ 5,000,000"],
        ["count training, first-level pass (rows/s, CPU; wall)",
         f"{sp['first_level_per_s']:,.0f}; {sp['first_level_per_s_wall']:,.0f}", "≥ 5,000,000"],
        ["evaluation through all 13 tables (positions/s, CPU; wall)",
         f"{sp['eval_per_s']:,.0f}; {sp['eval_per_s_wall']:,.0f}", "≥ 2,000,000"],
        ["search nodes/s with the tables; with the polynomial (CPU)",
         f"{search_sp['tables']:,.0f}; {search_sp['polynomial']:,.0f}", ""],
        ["time per node, tables ÷ polynomial", f"{ratio:.2f}", "≤ 2"],
    ]  # fmt: skip
