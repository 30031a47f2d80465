"""Notebook 01's knobs and its shared protocols: the book sets, the note's storage arithmetic, training as
counting, what one table learned, the XOR check and the counting speed.  Data in, data out (no plotting).

Notebook 01 (Samuel (1973 note)) trains on two teachers: the book moves of the ACF master games
(:mod:`tdbook.experiments.checkers.signature_tables_master`, the main one) and our deep-search labelled set
(:mod:`tdbook.experiments.checkers.signature_tables_book`, the second teacher).  Both are a :class:`Book`: every legal
move's 27 terms, the preferred move of each position and the game it came from.  The matches are
:mod:`tdbook.experiments.checkers.signature_tables_play`; the measured value of each claim is assembled in
:mod:`tdbook.experiments.checkers.signature_tables_claims`; the rerun panel and "teach it" in
:mod:`tdbook.experiments.checkers.signature_tables_panel`.

Notebook 01 uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):

- What we found: ``config``, ``load``, ``split``, ``book_summary``
- 1. The arrangement (Samuel (1973 note) ¶1, Fig. 1; ¶3 advantage 3): ``storage``
- 2. Training is counting (¶2; ¶3 advantage 2): ``count_signatures``, ``counting_story``
- 8. What a table learned: ``table_heatmap``
- 9. Speed: counting the archive: ``speeds``, ``archive_speed``
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core import profiles
from ...games.checkers import CheckersState
from ...learners.book_learning import agreement, alternatives, fit_softmax, preferred_mask
from ...learners.checkers_signature import CheckersTables, book_terms
from ...learners.signature_table import Arrangement, SignatureTables, imbalance_weights
from ...learners.signature_table import count_signatures as count_signatures  # the rule §2 shows (plain Python)
from .signature_tables_book import load_book, states

PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "TRAIN_GAMES": 300,
        "HELD_GAMES": 120,
        "SIZES": [1000, 4000, 0],
        "DRAWS": 2,
        "BOOT": 200,
        "POSITIONS": 1500,
        "TEST_SHARE": 0.2,
        "SHIPPED_MATCHES": False,
        "MATCH_BALLOTS": 3,
        "MATCH_DEPTHS": [2],
        "MATCH_MUL": 0.5,
        "SPEED_ROWS": 200_000,
    },
    "standard": {
        "TRAIN_GAMES": 0,
        "HELD_GAMES": 0,
        "SIZES": [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 0],
        "DRAWS": 5,
        "BOOT": 1000,
        "POSITIONS": 0,
        "TEST_SHARE": 0.2,
        "SHIPPED_MATCHES": True,
        "MATCH_BALLOTS": 157,
        "MATCH_DEPTHS": [3, 4, 5],
        "MATCH_MUL": 0.5,
        "SPEED_ROWS": 2_000_000,
    },
    "full": {
        "TRAIN_GAMES": 0,
        "HELD_GAMES": 0,
        "SIZES": [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 0],
        "DRAWS": 10,
        "BOOT": 2000,
        "POSITIONS": 0,
        "TEST_SHARE": 0.2,
        "SHIPPED_MATCHES": False,
        "MATCH_BALLOTS": 157,
        "MATCH_DEPTHS": [3, 4, 5],
        "MATCH_MUL": 0.5,
        "SPEED_ROWS": 5_000_000,
    },
}


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 01's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    if not 0.0 < cfg.TEST_SHARE < 1.0:
        raise ValueError(f"TEST_SHARE must lie in (0, 1), got {cfg.TEST_SHARE!r}")
    if cfg.DRAWS < 1 or cfg.BOOT < 20 or cfg.POSITIONS < 0 or cfg.TRAIN_GAMES < 0 or cfg.HELD_GAMES < 0:
        raise ValueError("need DRAWS >= 1, BOOT >= 20 and POSITIONS, TRAIN_GAMES, HELD_GAMES >= 0 (0 = all)")
    if (
        not cfg.SIZES
        or any(n != 0 and n < 100 for n in cfg.SIZES)
        or list(cfg.SIZES) != sorted(cfg.SIZES, key=lambda n: n or 2**62)
    ):
        raise ValueError(f"SIZES must rise, each at least 100 positions (0 = the whole archive, last); got {cfg.SIZES}")
    if not cfg.MATCH_DEPTHS or min(cfg.MATCH_DEPTHS) < 1 or cfg.MATCH_BALLOTS < 1:
        raise ValueError("need MATCH_BALLOTS >= 1 and MATCH_DEPTHS of at least one depth >= 1")
    return cfg


#: The chapter's findings (``tdbook.findings``): claim id → the statement, in the order a reader should meet them.
FINDINGS: dict[str, str] = {
    "superior-to-linear": "the signature tables are much superior to the linear polynomial",
    "quantization-loss": "the only loss of accuracy is in the quantization",
    "estimation-gap": "beyond the note: estimating the counts from finite data costs almost nothing",
    "strength-score": "our aim: at equal search, the tables beat Samuel's polynomial in play",
}


# ----------------------------------------------------------------------------- book sets


@dataclass
class Book:
    """A book set with every legal move's 27 terms: rows ``X[starts[g]:starts[g+1]]`` are position g's moves,
    row ``pref[g]`` the preferred one; ``game`` the game each position came from; ``raw`` the positions
    (``words``, ``side``, …) one row per position."""

    X: np.ndarray
    starts: np.ndarray
    pref: np.ndarray
    game: np.ndarray
    raw: dict = field(repr=False)

    @property
    def n(self) -> int:
        return len(self.game)

    def subset(self, idx: np.ndarray) -> Book:
        """The positions ``idx`` (in that order) as a book set of their own."""
        idx = np.asarray(idx, dtype=np.int64)
        sizes = np.diff(self.starts)[idx]
        st = np.zeros(idx.size + 1, dtype=np.int64)
        st[1:] = np.cumsum(sizes)
        rows = np.repeat(self.starts[idx] - st[:-1], sizes) + np.arange(int(st[-1]))
        pref = st[:-1] + (self.pref[idx] - self.starts[idx])
        raw = {k: v[idx] for k, v in self.raw.items()}
        return Book(self.X[rows], st, pref, self.game[idx], raw)

    def states(self) -> list[CheckersState]:
        return states(self.raw)


_LOADED: dict = {}


def load(positions: int = 0, path=None) -> Book:
    """The deep-search labelled set (the first ``positions`` of it; 0 = all) with its term rows (kept after the
    first load in this process)."""
    key = (positions, str(path))
    if key not in _LOADED:
        raw = load_book(path)
        if positions:
            raw = {k: v[:positions] for k, v in raw.items()}
        X, starts = book_terms(raw["words"], raw["side"], raw["n_moves"])
        _LOADED[key] = Book(X, starts, starts[:-1] + raw["preferred"].astype(np.int64),
                            raw["game"].astype(np.int64), raw)  # fmt: skip
    return _LOADED[key]


def split(book: Book, test_share: float, seed: int) -> tuple[Book, Book]:
    """(train, test) of the deep-search set by game: a random ``test_share`` of its games held out (seeded)."""
    games = np.unique(book.game)
    rng = np.random.default_rng([seed, 17])
    test_games = rng.choice(games, max(1, int(round(test_share * games.size))), replace=False)
    te = np.isin(book.game, test_games)
    return book.subset(np.flatnonzero(~te)), book.subset(np.flatnonzero(te))


def book_summary(train: Book, test: Book, deep: Book, sidecar: dict) -> list[list[str]]:
    """Rows (what, masters' book, deep-search set) describing the two teachers' sets."""
    moves = lambda b: f"{np.diff(b.starts).mean():.2f}"  # noqa: E731
    return [
        ["positions (mover has ≥ 2 legal moves)", f"{train.n:,} training + {test.n:,} held out", f"{deep.n:,}"],
        ["games", f"{np.unique(train.game).size:,} training + {np.unique(test.game).size:,} held out",
         f"{np.unique(deep.game).size:,} self-play games"],
        ["legal moves per position", f"{moves(train)} / {moves(test)}", moves(deep)],
        ["preferred move", "the master's move", f"α-β to {sidecar['spec']['depth']} plies "
         f"({sidecar['spec']['endgame_depth']} in the endgame), Samuel's ply rules"],
        ["source", "ACF archive (Joyce 2020), fixed split by game", f"`{sidecar['command']}`"],
    ]  # fmt: skip


# ----------------------------------------------------------------------------- the note's arithmetic


def storage(second_levels: int = 7) -> dict[str, Any]:
    """The numbers of Samuel (1973 note) Fig. 1 as :meth:`Arrangement.samuel` makes them."""
    arr = Arrangement.samuel(second_levels=second_levels)
    depth = np.array(arr.depth)
    sizes = np.array(arr.sizes)
    first = np.flatnonzero(depth == 1)
    second = np.flatnonzero(depth == 2)
    third = np.flatnonzero(depth == 3)
    return {
        "inputs": arr.n_inputs,
        "input_levels": sorted(set(arr.input_levels), reverse=True),
        "first_tables": int(first.size),
        "terms_per_first_table": sorted({len(arr.tables[t]) for t in first}),
        "first_size": sorted(set(sizes[first].tolist())),
        "first_output_levels": sorted({arr.output_levels[t] for t in first}),
        "second_tables": int(second.size),
        "second_size": sorted(set(sizes[second].tolist())),
        "second_output_levels": sorted({arr.output_levels[t] for t in second}),
        "third_tables": int(third.size),
        "third_size": int(sizes[third][0]),
        "total_entries": arr.entries,
        "joint_inputs": arr.joint_entries,
        "arrangement": arr,
    }


# ----------------------------------------------------------------------------- training as counting


def counting_story(train: Book, ct: CheckersTables, checkpoints: int = 12) -> dict:
    """The first-level entries filling up along the training stream (the note's rule), how many entries of
    each level stay empty, and the busiest cells of the first table."""
    arr = ct.tables.arrangement
    Q = ct.layout.quantize(train.X)
    wa, wd = imbalance_weights(preferred_mask(train.starts, train.pref), alternatives(train.starts), "plain")
    st = SignatureTables(arr, ct.tables.prior, thresholds=ct.tables.thresholds.copy())
    depth = np.array(arr.depth)
    offs = st._arrays[3]
    marks = np.unique(np.geomspace(100, train.n, checkpoints).astype(int))
    first = np.flatnonzero(depth == 1)
    size1 = sum(int(offs[t + 1] - offs[t]) for t in first)
    filled, stream, lo = [], [], 0
    for hi in marks:
        rows = slice(train.starts[lo], train.starts[hi])
        st.count(Q[rows], wa[rows], wd[rows], 1, 1)
        lo = hi
        stream.append(int(hi))
        filled.append(sum(int(np.count_nonzero(st.n[offs[t] : offs[t + 1]])) for t in first) / size1)
    final = {}
    for lv in (1, 2, 3):
        ts = np.flatnonzero(depth == lv)
        n = np.concatenate([ct.tables.n[offs[t] : offs[t + 1]] for t in ts])
        final[lv] = {"entries": int(n.size), "empty": int(np.sum(n == 0))}
    A, D = ct.tables.table_counts(0)
    C = ct.tables.table_c(0)
    idx = np.argsort(-(A + D).ravel(), kind="stable")[:6]
    cells = [(np.unravel_index(i, A.shape), float(A.ravel()[i]), float(D.ravel()[i]), float(C.ravel()[i])) for i in idx]
    return {"stream_positions": stream, "filled": filled, "final": final, "cells": cells, "rows": int(len(Q)),
            "positions": train.n, "group0": ct.layout.groups()[0]}  # fmt: skip


def table_heatmap(ct: CheckersTables, t: int = 0) -> dict:
    """First-level table ``t``'s C and A + D over its two largest inputs (summing over the third by counts)."""
    A, D = ct.tables.table_counts(t)
    a2, d2 = A.sum(axis=2), D.sum(axis=2)
    s = a2 + d2 + ct.tables.prior
    C = np.divide(a2 - d2, s, out=np.zeros_like(a2), where=s > 0)
    names = ct.layout.groups()[t]
    thr = [ct.layout.thresholds[3 * t + c] for c in range(3)]
    ta, td = float(A.sum()), float(D.sum())
    base = (ta - td) / (ta + td + ct.tables.prior) if ta + td > 0 else 0.0
    return {"C": C, "n": a2 + d2, "names": names, "thresholds": thr, "base": float(np.clip(base, -0.99, 0.99))}


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
    passes, equal-frequency thresholds from the counts in between), ``first_level_per_s`` = rows of the first
    pass alone (into the 9 first-level tables), ``eval_per_s`` = positions evaluated through all 13 tables."""
    arr = Arrangement.samuel()
    rng = np.random.default_rng(seed)
    X = rng.integers(0, np.array(arr.input_levels), size=(rows, arr.n_inputs)).astype(np.int8)
    pref = rng.random(rows) < 1 / 8
    k = np.full(rows, 7)
    st = SignatureTables.fit(arr, X[:1000], pref[:1000], k[:1000])  # compile
    st.value(X[:1000])
    wa, wd = imbalance_weights(pref, k, "plain")
    out: dict[str, float] = {"rows": rows}
    for name, fn in (
        ("count_per_s", lambda: SignatureTables.fit(arr, X, pref, k)),
        ("first_level_per_s", lambda: SignatureTables(arr)._count(X, wa, wd, 1, 1)),
        ("eval_per_s", lambda: st.value(X)),
    ):
        cpu, wall = _timed(fn)
        out[name] = rows / max(cpu, 1e-9)
        out[name + "_wall"] = rows / max(wall, 1e-9)
    return out


def archive_speed(train: Book, ct: CheckersTables) -> dict[str, float]:
    """Counting the training archive into Samuel's 13 tables: its quantized rows fit from scratch (three
    stagewise passes), per CPU second — positions/s and position-moves/s — and the seconds it took."""
    Q = ct.layout.quantize(train.X)
    m, k = preferred_mask(train.starts, train.pref), alternatives(train.starts)
    arr = ct.tables.arrangement
    SignatureTables.fit(arr, Q[:1000], m[:1000], k[:1000])  # compile
    cpu, wall = _timed(lambda: SignatureTables.fit(arr, Q, m, k))
    cpu_q, _ = _timed(lambda: ct.layout.quantize(train.X))
    return {"positions": train.n, "rows": len(Q), "seconds": cpu, "wall": wall,
            "positions_per_s": train.n / max(cpu, 1e-9), "rows_per_s": len(Q) / max(cpu, 1e-9),
            "with_quantization_per_s": train.n / max(cpu + cpu_q, 1e-9)}  # fmt: skip
