"""Notebook 01 on master play: Samuel's signature tables, his book-learned polynomial and the logistic model
trained on *book moves* — the positions of the 9,377 ACF master games (:mod:`tdbook.games.checkers_book`),
the master's move counted against the moves he did not play (Samuel (1973 note) ¶2, the A and D counts) —
and measured on the held-out games.  Data in, data out (no plotting).

**The split** is the collection's one split by game (:func:`tdbook.games.checkers_book.split_games`: 7,502
training games, 1,875 held out); nothing here re-splits it.  A *training size* ``n`` is the positions of
the first games of a seeded random order of the training games, cut at ``n`` positions (so the sets are
nested: a larger size adds games); ``n = 0`` is the whole training archive.

**Intervals** are bootstrap intervals over *held-out games* (a game's positions are not independent): each
of ``boot`` replicates draws the held-out games with replacement and recomputes C = (L − H)/(L + H) and the
top-1 share from the games' sums; a difference between two models uses the same replicates (paired).  Below
the whole archive, each size has ``draws`` seeded draws of training games and replicate ``b`` uses draw
``b mod draws``, so the interval covers which games were trained on as well as which were held out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ...games.checkers_book import book_positions, split_games
from ...learners.book_learning import (
    agreement,
    agreement_by_position,
    agreement_weights,
    alternatives,
    fit_softmax,
    preferred_mask,
)
from ...learners.checkers_signature import CheckersTables, book_terms, train_tables
from ...learners.signature_table import JointTable, SignatureTables
from .signature_tables import Book

#: the models of the learning curves; the first three are the comparison the notebook is about
MODELS = ("tables", "Samuel's polynomial", "logistic", "tables (random assignment)", "joint table")
LINEAR = ("Samuel's polynomial", "logistic")


# ----------------------------------------------------------------------------- the master book


@lru_cache(maxsize=2)
def master(train_games: int = 0, held_games: int = 0) -> tuple[Book, Book]:
    """(training, held-out) book sets of the ACF archive with every legal move's 27 terms: all games of each
    side of the fixed split, or the first ``train_games`` / ``held_games`` of them (a small run)."""
    tr, te = split_games()
    if train_games:
        tr = tr[:train_games]
    if held_games:
        te = te[:held_games]
    return _book(tr), _book(te)


def _book(games: np.ndarray) -> Book:
    p = book_positions()
    p = p.take(np.isin(p.game, games))
    X, starts = book_terms(p.words, p.side, p.n_legal)
    raw = {"words": p.words, "side": p.side, "ply": p.ply, "n_moves": p.n_legal, "preferred": p.chosen}
    return Book(X, starts, starts[:-1] + p.chosen, p.game.astype(np.int64), raw)


def draw(train: Book, n: int, seed: int) -> Book:
    """The first ``n`` positions of the training games in a seeded random order (all for ``n`` = 0 or more
    than there are)."""
    if n < 0:
        raise ValueError(f"a training size is a number of positions >= 0 (0 = all), got {n!r}")
    if n == 0 or n >= train.n:
        return train
    games, inv = np.unique(train.game, return_inverse=True)
    rank = np.random.default_rng([seed, 1967]).permutation(games.size)[inv]
    idx = np.lexsort((np.arange(train.n), rank))[:n]
    return train.subset(np.sort(idx))


# ----------------------------------------------------------------------------- models and scores


@dataclass(frozen=True)
class Models:
    """The three models of the comparison (and the controls) trained on one book set."""

    tables: CheckersTables
    polynomial: np.ndarray
    logistic: np.ndarray
    random_tables: CheckersTables | None = None
    joint: JointTable | None = None

    def scorers(self) -> dict[str, Callable[[np.ndarray], np.ndarray]]:
        out: dict[str, Callable[[np.ndarray], np.ndarray]] = {
            "tables": self.tables.value,
            "Samuel's polynomial": lambda X: X @ self.polynomial,
            "logistic": lambda X: X @ self.logistic,
        }
        if self.random_tables is not None:
            out["tables (random assignment)"] = self.random_tables.value
        if self.joint is not None:
            out["joint table"] = lambda X: self.joint.value(self.tables.layout.quantize(X))
        return out


def fit_models(train: Book, seed: int = 0, controls: bool = False, **table_options: Any) -> Models:
    """The tables (the note's rule unless ``table_options`` say otherwise), Samuel's polynomial and the
    logistic model on ``train``; with ``controls`` also the randomly grouped tables and one joint table."""
    ct = train_tables(train.X, train.starts, train.pref, seed=seed, **table_options)
    poly = agreement_weights(train.X, train.starts, train.pref)
    logit = fit_softmax(train.X, train.starts, train.pref)
    rnd = joint = None
    if controls:
        rnd = train_tables(train.X, train.starts, train.pref, seed=seed, **{**table_options, "assignment": "random"})
        joint = JointTable.fit(ct.tables.arrangement.input_levels, ct.layout.quantize(train.X),
                               preferred_mask(train.starts, train.pref), alternatives(train.starts))  # fmt: skip
    return Models(ct, poly, logit, rnd, joint)


def game_parts(scores: np.ndarray, test: Book) -> np.ndarray:
    """float64[held-out games, 4]: each game's L, H, top-1 credit and positions under ``scores``."""
    parts = agreement_by_position(scores, test.starts, test.pref)
    _, g = np.unique(test.game, return_inverse=True)
    out = np.zeros((int(g.max()) + 1 if g.size else 0, 4))
    for j in range(3):
        out[:, j] = np.bincount(g, weights=parts[:, j], minlength=out.shape[0])
    out[:, 3] = np.bincount(g, minlength=out.shape[0])
    return out


def boot_weights(n_games: int, boot: int, seed: int) -> np.ndarray:
    """float64[boot, n_games]: how often each held-out game is drawn in each bootstrap replicate."""
    if boot < 20:
        raise ValueError(f"a bootstrap interval needs at least 20 replicates, got {boot!r}")
    rng = np.random.default_rng([seed, 1973])
    return rng.multinomial(n_games, np.full(n_games, 1.0 / n_games), size=boot).astype(np.float64)


def stats(parts: np.ndarray, w: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """C, top-1 share and share of alternatives ranked (not tied with the master's move) from games' sums,
    for the whole held-out set (``w`` None) or each bootstrap replicate (rows of ``w``)."""
    s = parts.sum(axis=0)[None, :] if w is None else w @ parts
    lo, hi, top, npos = s[:, 0], s[:, 1], s[:, 2], s[:, 3]
    c = np.divide(lo - hi, lo + hi, out=np.zeros_like(lo), where=lo + hi > 0)
    return {"C": c, "top1": top / np.maximum(npos, 1)}


def interval(x: np.ndarray) -> tuple[float, float]:
    """The central 95 % of bootstrap replicates."""
    lo, hi = np.quantile(x, [0.025, 0.975])
    return float(lo), float(hi)


# ----------------------------------------------------------------------------- learning curves


def learning_curves(
    train: Book, test: Book, sizes: list[int], draws: int, boot: int, seed: int = 0, progress: bool = True,
    full: Models | None = None,
) -> dict:  # fmt: skip
    """Held-out C and top-1 of every model in :data:`MODELS` against training size (module docstring):
    ``{"sizes", "methods": {m: {metric: {"point", "lo", "hi"}}}, "diff": {linear model: {metric: …}},
    "parts", "draws", "full_models"}`` — ``diff`` is the tables minus each linear model, paired; ``full``: the
    models already trained on the whole archive with ``seed`` and controls (:func:`fit_models`), reused."""
    if draws < 1:
        raise ValueError(f"draws must be >= 1, got {draws!r}")
    real = [min(n, train.n) if n else train.n for n in sizes]
    nd = [1 if n >= train.n else draws for n in real]
    jobs = [(i, d) for i in range(len(real)) for d in range(nd[i])]
    parts: dict[tuple[int, int], dict[str, np.ndarray]] = {}
    decided: dict[tuple[int, int], dict[str, float]] = {}
    full_models = None
    for i, d in tqdm(jobs, desc="learning curves", disable=not progress):
        tr = draw(train, real[i], seed + 1000 * d)
        use = full is not None and real[i] == train.n and full.joint is not None
        models = full if use else fit_models(tr, seed + d, controls=True)
        if real[i] == train.n:
            full_models = models
        parts[i, d], decided[i, d] = {}, {}
        for m, f in models.scorers().items():
            sc = f(test.X)
            parts[i, d][m] = game_parts(sc, test)
            a = agreement(sc, test.starts, test.pref)
            decided[i, d][m] = (a["L"] + a["H"]) / (test.starts[-1] - test.n)
    w = boot_weights(len(parts[0, 0]["tables"]), boot, seed)
    out: dict[str, Any] = {"sizes": real, "draws": nd, "boot": boot, "parts": parts, "methods": {}, "diff": {}}
    for m in MODELS:
        out["methods"][m] = _curve(parts, real, nd, w, lambda p, ww, m=m: stats(p[m], ww))
        out["methods"][m]["decided"] = [float(np.mean([decided[i, d][m] for d in range(nd[i])]))
                                        for i in range(len(real))]  # fmt: skip
    for lin in LINEAR:
        out["diff"][lin] = _curve(parts, real, nd, w, lambda p, ww, lin=lin: _diff(p["tables"], p[lin], ww))
    out["overtake"] = {lin: overtake_size(out["diff"][lin]["C"], real) for lin in LINEAR}
    out["full_models"] = full_models
    return out


def _diff(a: np.ndarray, b: np.ndarray, w: np.ndarray | None) -> dict[str, np.ndarray]:
    sa, sb = stats(a, w), stats(b, w)
    return {k: sa[k] - sb[k] for k in sa}


def _curve(parts, sizes, nd, w, fn) -> dict[str, dict[str, list[float]]]:
    """Point (mean over draws of the whole-set value) and 95 % interval (replicate b on draw b mod draws)."""
    res: dict[str, dict[str, list[float]]] = {k: {"point": [], "lo": [], "hi": []} for k in ("C", "top1")}
    for i in range(len(sizes)):
        whole = [fn(parts[i, d], None) for d in range(nd[i])]
        reps = {k: np.empty(w.shape[0]) for k in res}
        for d in range(nd[i]):
            rows = np.arange(d, w.shape[0], nd[i])
            r = fn(parts[i, d], w[rows])
            for k in res:
                reps[k][rows] = r[k]
        for k in res:
            res[k]["point"].append(float(np.mean([x[k][0] for x in whole])))
            lo, hi = interval(reps[k])
            res[k]["lo"].append(lo)
            res[k]["hi"].append(hi)
    return res


def whole_archive(lc: dict, boot: int, seed: int) -> dict[str, dict[str, Any]]:
    """:func:`compare` of every model of the learning curves at the whole training archive, against the tables."""
    return compare(lc["parts"][len(lc["sizes"]) - 1, 0], boot, seed, "tables")


def joint_seen(models: Models, test: Book) -> float:
    """Share of held-out moves whose quantized 27-term signature the joint table met in training."""
    if models.joint is None:
        raise ValueError("the models were trained without the controls (controls=True gives the joint table)")
    return float(models.joint.lookup(models.tables.layout.quantize(test.X))[1].mean())


def overtake_size(diff: dict[str, list[float]], sizes: list[int]) -> int | None:
    """The smallest training size from which the tables lead (the difference's interval above 0 at it and
    every larger size), or None when they never do."""
    first = None
    for n, lo in zip(sizes, diff["lo"]):
        if lo > 0:
            first = n if first is None else first
        else:
            first = None
    return first


# ----------------------------------------------------------------------------- one model pair on the whole set


def compare(parts: dict[str, np.ndarray], boot: int, seed: int, base: str) -> dict[str, dict[str, Any]]:
    """Each model's held-out C and top-1 (point, 95 % interval) and its difference from ``base`` (paired)."""
    w = boot_weights(len(parts[base]), boot, seed)
    out = {}
    for m, p in parts.items():
        r: dict[str, Any] = {}
        reps = stats(p, w)
        for k, v in stats(p).items():
            r[k] = float(v[0])
            r[k + "_reps"] = reps[k]
            r[k + "_ci"] = interval(reps[k])
            r[k + "_diff"] = float(v[0] - stats(parts[base])[k][0])
            r[k + "_diff_ci"] = interval(_diff(p, parts[base], w)[k])
            r[k + "_diff_reps"] = _diff(p, parts[base], w)[k]
        out[m] = r
    return out


# ----------------------------------------------------------------------------- the note's open choices


#: quantizations of the same 27 terms in the same arrangement with the same grouping: (input levels of the three
#: slots of a first-level table, 0 = every distinct value), first- and second-level output levels
QUANTIZATIONS: dict[str, dict[str, Any]] = {
    "3·3·3 → 3 → 3": {"classes": (3, 3, 3), "first_levels": 3, "second_levels": 3},
    "7·5·3 → 5 → 7 (the note)": {},
    "7·5·3 → 15 → 15": {"first_levels": 15, "second_levels": 15},
    "15·15·15 → 5 → 7": {"classes": (15, 15, 15)},
    "15·15·15 → 15 → 15": {"classes": (15, 15, 15), "first_levels": 15, "second_levels": 15},
    "unquantized → 15 → 15": {"classes": (0, 0, 0), "first_levels": 15, "second_levels": 15},
}
NOTE = "7·5·3 → 5 → 7 (the note)"
FINEST = "unquantized → 15 → 15"

#: the counting rules the note leaves open (Samuel (1973 note) ¶2 says only "A is incremented … D is incremented")
RULE_NOTE = "plain, equal-frequency, stagewise (the note)"
BALANCED = "A += k, equal-width, prior 1"
VARIANTS: dict[str, dict[str, Any]] = {
    RULE_NOTE: {},
    "plain, equal-width, stagewise": {"requant": "fixed"},
    "plain, equal-width, online": {"requant": "fixed", "mode": "online"},
    "A += k, equal-frequency": {"rule": "a_k"},
    BALANCED: {"rule": "a_k", "requant": "fixed", "prior": 1.0},
    "D += 1/k, equal-frequency": {"rule": "d_over_k"},
    "plain, prior 1": {"prior": 1.0},
}


def table_sweep(
    train: Book, test: Book, options: dict[str, dict[str, Any]], base: str, boot: int, seed: int = 0,
    progress: bool = True,
) -> dict[str, Any]:  # fmt: skip
    """The tables trained on ``train`` under each of ``options`` (name → :func:`train_tables` keywords), scored
    on ``test``: :func:`compare` against ``options[base]``, the entries each arrangement has and the share of
    alternatives it ranks (not tied with the master's move)."""
    parts, entries, decided, tables = {}, {}, {}, {}
    for name, kw in tqdm(options.items(), desc="table variants", disable=not progress):
        ct = train_tables(train.X, train.starts, train.pref, seed=seed, **kw)
        sc = ct.value(test.X)
        parts[name] = game_parts(sc, test)
        a = agreement(sc, test.starts, test.pref)
        decided[name] = (a["L"] + a["H"]) / (test.starts[-1] - test.n)
        entries[name] = ct.tables.arrangement.entries
        tables[name] = ct
    out = compare(parts, boot, seed, base)
    for name in out:
        out[name]["entries"] = entries[name]
        out[name]["decided"] = decided[name]
    return {"rows": out, "tables": tables, "base": base}


# ----------------------------------------------------------------------------- the printed rule, tested


def calibration(ct: CheckersTables, test: Book) -> dict[str, Any]:
    """What C = (A − D)/(A + D) of the final table says about unseen moves: per final-table entry, the
    held-out moves reaching it and the share of them the master played, against (1 + C)/2 — the share the
    training counts imply (C is the mean of +1 for a preferred vector and −1 for another)."""
    e = ct.tables.root_entries(ct.layout.quantize(test.X))
    pref = preferred_mask(test.starts, test.pref).astype(np.float64)
    size = ct.tables.arrangement.sizes[-1]
    n = np.bincount(e, minlength=size).astype(np.float64)
    hit = np.bincount(e, weights=pref, minlength=size)
    c = ct.tables.table_c(ct.tables.arrangement.n_tables - 1).ravel()
    used = n > 0
    share = np.divide(hit, n, out=np.zeros_like(n), where=used)
    implied = (1 + c) / 2
    err = float(np.sum(n[used] * np.abs(share[used] - implied[used])) / n[used].sum())
    return {"n": n[used], "share": share[used], "implied": implied[used], "error": err,
            "base_rate": float(pref.mean())}  # fmt: skip


def train_test_gap(ct: CheckersTables, train: Book, test: Book) -> dict[str, float]:
    """The tables' C on their own training positions and on the held-out ones."""
    return {"train": agreement(ct.value(train.X), train.starts, train.pref)["C"],
            "held-out": agreement(ct.value(test.X), test.starts, test.pref)["C"]}  # fmt: skip


def streamed_same(train: Book, ct: CheckersTables, chunk: int = 50_000, seed: int = 0) -> dict[str, Any]:
    """Samuel (1973 note) ¶3 advantage 2: the tables counted from the training stream in shuffled chunks,
    never holding the stream whole (:meth:`SignatureTables.fit_stream`), against the tables fit on it at once."""
    Q = ct.layout.quantize(train.X)
    m, k = preferred_mask(train.starts, train.pref), alternatives(train.starts)
    order = np.random.default_rng([seed, 3]).permutation(len(Q))

    def stream():
        for lo in range(0, len(order), chunk):
            rows = np.sort(order[lo : lo + chunk])  # a chunk in any order: sorted only to read it faster
            yield Q[rows], m[rows], k[rows]

    st = SignatureTables.fit_stream(ct.tables.arrangement, stream)
    return {"same": st.to_bytes() == ct.tables.to_bytes(), "rows": len(Q), "chunks": -(-len(Q) // chunk),
            "chunk": chunk}  # fmt: skip


# ----------------------------------------------------------------------------- two teachers


def teachers(
    master_train: Book, master_test: Book, deep_train: Book, deep_test: Book, boot: int, seed: int = 0,
    progress: bool = True,
) -> dict[str, Any]:  # fmt: skip
    """The masters' moves and our deep search as teachers: the three models trained on the deep search's
    training positions and on as many master positions, each scored on both held-out sets."""
    n = deep_train.n
    sets = {"masters": draw(master_train, n, seed), "deep search": deep_train}
    tests = {"masters": master_test, "deep search": deep_test}
    out: dict[str, Any] = {"positions": n, "rows": {}}
    for teacher, tr in tqdm(sets.items(), desc="two teachers", disable=not progress):
        models = fit_models(tr, seed)
        for test_name, te in tests.items():
            parts = {m: game_parts(f(te.X), te) for m, f in models.scorers().items()}
            out["rows"][teacher, test_name] = compare(parts, boot, seed, "tables")
    return out
