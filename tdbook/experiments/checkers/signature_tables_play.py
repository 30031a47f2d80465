"""Notebook 01's matches: the signature tables, Samuel's book-learned polynomial and the logistic model, all
trained on the whole ACF training archive, play each other at equal search — and the files that ship them.

**Players** (:class:`TablePlayer`, :mod:`tdbook.players.checkers_signature`): one α-β kernel to ``depth``
plies, then on while a capture is pending; each evaluation is Samuel's fixed piece advantage (in men) plus the
model's learned part centred on its mean over the training moves and scaled to ``mul`` men per standard deviation
there — the players differ in the learned part alone.

**Matches** (the protocol of :mod:`tdbook.experiments.checkers.match`, whose :class:`MatchResult` holds each
depth's games): every 3-move ballot played twice, colours swapped, at each search depth of ``depths`` (both
players at the same depth in every game), under :class:`~tdbook.games.checkers.Checkers`' default rules; each
match is :func:`~tdbook.experiments.checkers.match.match` playing its games with :func:`kernel_games`.  A
ballot's games are correlated, so the pooled score's standard error is over ballots: the unit is a ballot's
mean over its ``2 × len(depths)`` games.  The matches are independent tasks spread over the cores by
:func:`tdbook.core.parallel.map_tasks`; every player is deterministic, so the results are the same bytes on
any number of workers.

**Shipped files.**  The matches take minutes, longer than notebook 01's standard run may, so
``python -m tdbook.experiments.checkers.signature_tables_play`` trains the three models on the whole training archive
(exactly as the notebook does), writes them to ``data/signature_tables_acf.npz`` and the games to
``data/signature_tables_matches.npz``, each with a ``.json`` sidecar holding the exact command
(:func:`tdbook.core.storage.write_sidecar`).  The notebook retrains the models, checks that they are the
shipped ones (:func:`models_differ`: the tables and their counts exactly, the fitted weights to a relative
:data:`FIT_RTOL`, so another processor's rounding passes and another fit does not), and reads the games, which the
matches' sidecar ties to the models' file by its SHA-256; its ``full`` profile plays them again.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import hashlib
import io
import shlex
import sys
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from tqdm.auto import tqdm

from ...core.parallel import local_cluster, map_tasks
from ...core.paths import data_dir
from ...core.storage import atomic_write_bytes, code_version, read_sidecar, write_sidecar
from ...games.checkers import Checkers, CheckersState, moves_of
from ...learners.checkers_signature import TERM_NAMES, CheckersTables, Layout
from ...learners.signature_table import Arrangement, SignatureTables
from ...players import checkers_signature as ps
from ...results import Estimate
from .match import MatchResult, match, start_positions
from .signature_tables import Book
from .signature_tables_master import Models, fit_models, master

MODELS_FILE = "signature_tables_acf.npz"
MATCHES_FILE = "signature_tables_matches.npz"
NAMES = ("tables", "Samuel's polynomial", "logistic")
PAIRS = (("tables", "Samuel's polynomial"), ("tables", "logistic"), ("Samuel's polynomial", "logistic"))
_DUMMY_TABS = (np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
               np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1))  # fmt: skip


class TablePlayer:
    """A searching player: the tables (``ct``) or a linear polynomial (``w``) as the learned part of the
    evaluation, ``mul`` men per unit of it above ``shift``, α-β to ``depth`` plies plus captures."""

    def __init__(self, name: str, mul: float, depth: int, w=None, ct: CheckersTables | None = None, shift: float = 0.0):
        if depth < 1 or depth >= ps.MAX_PLY:
            raise ValueError(f"depth must be in 1..{ps.MAX_PLY - 1}, got {depth!r}")
        if (w is None) == (ct is None):
            raise ValueError("a player's learned part is either the tables or a polynomial's weights")
        self.name, self.mul, self.depth, self.shift = name, float(mul), int(depth), float(shift)
        self.kind = ps.TABLES if ct is not None else ps.POLY
        self.w = np.zeros(len(TERM_NAMES)) if w is None else np.asarray(w, dtype=np.float64)
        if ct is None:
            self.karr = (np.zeros(1, dtype=np.int64), np.zeros((1, 1)), np.zeros(1, dtype=np.int64), _DUMMY_TABS)
        else:
            self.karr = ct.kernel_arrays()
        self.ws = ps.Workspace()

    def spec(self) -> ps.Player:
        """The player as :func:`tdbook.players.checkers_signature.search` takes it (after the depth)."""
        st, thr, n, tabs = self.karr
        return ps.Player(self.kind, self.w, self.mul, self.shift, st, thr, n, tabs)

    def at_depth(self, depth: int) -> TablePlayer:
        """The same player searching ``depth`` plies (the evaluation's arrays shared, a workspace of its own)."""
        if depth < 1 or depth >= ps.MAX_PLY:
            raise ValueError(f"depth must be in 1..{ps.MAX_PLY - 1}, got {depth!r}")
        p = copy.copy(self)
        p.depth, p.ws = int(depth), ps.Workspace()
        return p

    def choose_index(self, s: CheckersState) -> int:
        root = np.array([*s.words, s.side], dtype=np.int64)
        ps.search(root, self.depth, ps.MAX_PLY - 1, *self.spec(), self.ws.arrays)
        return int(self.ws.stats[1])

    def choose(self, s: CheckersState) -> str:
        moves = moves_of(s)
        if not moves:
            raise ValueError(f"{self.name}: no legal move in {s!r}")
        return moves[self.choose_index(s)].text


def learned_scale(f, X: np.ndarray) -> tuple[float, float]:
    """Mean and standard deviation of a learned part over term rows (to put evaluators on one footing)."""
    v = f(X)
    sd = float(np.std(v))
    return float(np.mean(v)), (sd if sd > 0 else 1.0)


def players(models: Models, train: Book, mul: float, depth: int) -> dict[str, TablePlayer]:
    """The three models as players at equal search, each learned part centred on its mean over the training
    moves and scaled to ``mul`` men per standard deviation there."""
    sc = models.scorers()
    out = {}
    for name in NAMES:
        mean, sd = learned_scale(sc[name], train.X)
        kw = (
            {"ct": models.tables}
            if name == "tables"
            else {"w": models.polynomial if name == NAMES[1] else models.logistic}
        )
        out[name] = TablePlayer(name, mul / sd, depth, shift=mean, **kw)
    return out


# ----------------------------------------------------------------------------- matches


class KernelGame(NamedTuple):
    """A game of :func:`kernel_games`: the result for Black, the plies played and the nodes searched."""

    result: float
    plies: int
    nodes: int


def kernel_games(
    black: TablePlayer,
    white: TablePlayer,
    starts: Sequence[CheckersState],
    seed: int = 0,
    game: Checkers | None = None,
    progress: bool = False,
) -> list[KernelGame]:
    """One game from each start, ``black`` as Black, both searching their common depth, each game one call of
    :func:`tdbook.players.checkers_signature.play_game` under the draw rules of ``game`` (default
    :class:`Checkers()`) — how :func:`~tdbook.experiments.checkers.match.match` plays these players.  The
    players have no randomness: ``seed`` is taken (as :func:`tdbook.players.checkers.play_games` takes it) and
    not used."""
    if black.depth != white.depth:
        raise ValueError(f"both players search one depth in a kernel game, got {black.depth} and {white.depth}")
    g = game if game is not None else Checkers()
    quiet = g.quiet_limit if g.quiet_limit is not None else 2**62
    limit = g.move_limit if g.move_limit is not None else 0
    adjudicate = int(g.adjudicate == "material")
    b, w = black.spec(), white.spec()
    out = []
    for s in tqdm(starts, desc=f"{black.name} v {white.name}", disable=not progress):
        start = np.array([*s.words, s.side, s.quiet, s.ply], dtype=np.int64)
        res, plies, nodes = ps.play_game(start, black.depth, quiet, limit, adjudicate, ps.Workspace().arrays, b, w)
        out.append(KernelGame(float(res), int(plies), int(nodes)))
    return out


def _match_task(task: tuple) -> MatchResult:
    """One match: ``(player a, player b, starts)`` at the players' depth."""
    a, b, st = task
    return match(a, b, st, play=kernel_games)


def round_robin(
    pl: dict[str, TablePlayer], pairs: Sequence[tuple[str, str]], ballots: int, depths: Sequence[int],
    progress: bool = True,
) -> dict[tuple[str, str], dict[int, MatchResult]]:  # fmt: skip
    """Every pair of ``pairs`` on the first ``ballots`` ballots, both colours, at every depth of ``depths``:
    ``{(a, b): {depth: MatchResult for a}}`` (the players' ``depth`` is overridden by each depth in turn)."""
    st = start_positions(ballots)
    keys = [(a, b, int(d)) for a, b in pairs for d in depths]
    tasks = [(pl[a].at_depth(d), pl[b].at_depth(d), st) for a, b, d in keys]
    res = map_tasks(_match_task, tasks, desc="signature-table matches", progress=progress)
    out: dict[tuple[str, str], dict[int, MatchResult]] = {}
    for (a, b, d), r in zip(keys, res):
        out.setdefault((a, b), {})[d] = dataclasses.replace(r, a=a, b=b)  # named by the keys of ``pl``
    return out


def pooled(by_depth: dict[int, MatchResult]) -> dict[str, Any]:
    """A match over several depths as one score: mean ± s.e. over ballots (a ballot's games at every depth and
    colour are one unit), wins/draws/losses and games."""
    per_ballot = np.mean([r.pairs for r in by_depth.values()], axis=0)
    w = sum(r.wdl[0] for r in by_depth.values())
    d = sum(r.wdl[1] for r in by_depth.values())
    lo = sum(r.wdl[2] for r in by_depth.values())
    se = float(per_ballot.std(ddof=1) / np.sqrt(per_ballot.size)) if per_ballot.size > 1 else float("nan")
    return {"score": float(per_ballot.mean()), "stderr": se, "games": int(w + d + lo), "wins": int(w),
            "draws": int(d), "losses": int(lo), "ballots": int(per_ballot.size), "depths": sorted(by_depth),
            "by_depth": {k: (v.score, v.stderr) for k, v in sorted(by_depth.items())}}  # fmt: skip


def estimate(p: dict[str, Any]) -> Estimate:
    return Estimate(p["score"], p["stderr"], p["ballots"])


# ----------------------------------------------------------------------------- shipped models


def models_bytes(models: Models, meta: dict[str, Any]) -> bytes:
    """The three models as one ``.npz`` (the tables' layout, counts and thresholds; both weight vectors)."""
    ct = models.tables
    lay, st = ct.layout, ct.tables
    width = max(1, max(len(t) for t in lay.thresholds))
    thr = np.full((len(lay.slot_term), width), np.nan)
    for s, t in enumerate(lay.thresholds):
        thr[s, : len(t)] = t
    arrays = {
        "slot_term": np.array(lay.slot_term, dtype=np.int64),
        "slot_thresholds": thr,
        "classes": np.array(lay.classes, dtype=np.int64),
        "input_levels": np.array(st.arrangement.input_levels, dtype=np.int64),
        "output_levels": np.array(st.arrangement.output_levels, dtype=np.int64),
        "a": st.a, "d": st.d, "n": st.n, "table_thresholds": st.thresholds, "prior": np.array(st.prior),
        "polynomial": models.polynomial, "logistic": models.logistic,
        "mul": np.array([meta[k][0] for k in NAMES]),
        "shift": np.array([meta[k][1] for k in NAMES]),
    }  # fmt: skip
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def load_models(path: Path | None = None) -> tuple[Models, dict[str, tuple[float, float]]]:
    """The shipped models and each player's ``(mul, shift)`` (men per unit of its learned part, and its mean);
    ValueError naming what is wrong with a file that is not such a set."""
    path = Path(path) if path is not None else data_dir() / MODELS_FILE
    try:
        z = np.load(path)
        slot_term = tuple(int(v) for v in z["slot_term"])
        thr = tuple(tuple(float(v) for v in row if np.isfinite(v)) for row in z["slot_thresholds"])
        lay = Layout(slot_term, thr, "interaction", tuple(int(v) for v in z["classes"]))
        ol = [int(v) for v in z["output_levels"]]
        arr = Arrangement.samuel(ol[0], ol[9], tuple(int(v) for v in z["input_levels"]))
        st = SignatureTables(arr, float(z["prior"]), z["a"], z["d"], z["table_thresholds"], z["n"])
        models = Models(CheckersTables(lay, st), z["polynomial"], z["logistic"])
        mul = {k: (float(m), float(h)) for k, m, h in zip(NAMES, z["mul"], z["shift"])}
    except (OSError, KeyError, ValueError, IndexError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path} is not a set of notebook 01's models: {e}") from None
    if len(slot_term) != 27 or models.polynomial.shape != (27,) or models.logistic.shape != (27,):
        raise ValueError(f"{path} is not a set of notebook 01's models: it needs 27 slots and 27 weights")
    return models, mul


#: How far a fitted weight or threshold may lie from the shipped one and still be the same fit, relative to the
#: largest magnitude of its array: 10⁻⁹.  Another processor's BLAS and LAPACK kernels round the logistic model's
#: Newton steps differently, by up to 3·10⁻¹⁴ of its largest weight (seen between two x86-64 machines, and here
#: with ``OPENBLAS_CORETYPE=Nehalem``); a different fit (other data, seed or code) moves them by far more.
FIT_RTOL = 1e-9


def _close(name: str, shipped: np.ndarray, fresh: np.ndarray) -> str | None:
    a, b = np.asarray(shipped, dtype=np.float64), np.asarray(fresh, dtype=np.float64)
    if a.shape != b.shape:
        return f"{name} has shape {a.shape} shipped, {b.shape} here"
    fin = np.isfinite(a)
    if not np.array_equal(fin, np.isfinite(b)) or not np.array_equal(a[~fin], b[~fin]):
        return f"{name} has infinite or missing values in other places"
    gap = float(np.max(np.abs(a[fin] - b[fin]), initial=0.0))
    scale = float(np.max(np.abs(a[fin]), initial=0.0))
    if gap > FIT_RTOL * scale:
        return f"{name} differs by up to {gap:.3g} (tolerance {FIT_RTOL:g} × {scale:.3g})"
    return None


def models_differ(shipped: Models, fresh: Models) -> str | None:
    """Why ``fresh`` are not the ``shipped`` models (None when they are the same fit): the tables' layout (terms of
    the slots, the level classes), arrangement, prior and A, D and N counts exactly (settings and integer counts);
    the slots' and tables' thresholds, Samuel's polynomial and the logistic model's weights within :data:`FIT_RTOL`
    — never the floats' last bits, which another processor rounds differently."""
    lay, fl = shipped.tables.layout, fresh.tables.layout
    if (lay.slot_term, lay.assignment, lay.classes) != (fl.slot_term, fl.assignment, fl.classes):
        return "the tables' layout (which term feeds which slot) differs"
    st, ft = shipped.tables.tables, fresh.tables.tables
    if st.arrangement != ft.arrangement or st.prior != ft.prior:
        return "the tables' arrangement or prior differs"
    for k in ("a", "d", "n"):
        if not np.array_equal(getattr(st, k), getattr(ft, k)):
            diff = int(np.count_nonzero(getattr(st, k) != getattr(ft, k)))
            return f"the tables' {k.upper()} counts differ in {diff} entries"
    checks = [
        ("the slots' thresholds", lay.arrays[1], fl.arrays[1]),
        ("the tables' thresholds", st.thresholds, ft.thresholds),
        ("Samuel's polynomial", shipped.polynomial, fresh.polynomial),
        ("the logistic model", shipped.logistic, fresh.logistic),
    ]
    return next((why for why in (_close(*c) for c in checks) if why), None)


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes: what ties the shipped games to the shipped models' file."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def matches_bytes(rr: dict[tuple[str, str], dict[int, MatchResult]]) -> bytes:
    arrays = {}
    for (a, b), by_depth in rr.items():
        for d, r in by_depth.items():
            key = f"{NAMES.index(a)}{NAMES.index(b)}_{d}"
            arrays[f"black_{key}"] = r.as_black
            arrays[f"white_{key}"] = r.as_white
            arrays[f"work_{key}"] = np.array([r.plies, r.nodes], dtype=np.int64)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def load_matches(path: Path | None = None) -> tuple[dict[tuple[str, str], dict[int, MatchResult]], dict]:
    """The shipped games as ``{(a, b): {depth: MatchResult}}`` and their sidecar."""
    path = Path(path) if path is not None else data_dir() / MATCHES_FILE
    side = read_sidecar(path)
    try:
        z = np.load(path)
        out: dict[tuple[str, str], dict[int, MatchResult]] = {}
        names = tuple(n for n, _ in start_positions(int(side["ballots"])))
        for k in z.files:
            if not k.startswith("black_"):
                continue
            key = k[len("black_") :]
            pair, d = key.split("_")
            a, b = NAMES[int(pair[0])], NAMES[int(pair[1])]
            plies, nodes = (int(v) for v in z[f"work_{key}"])
            out.setdefault((a, b), {})[int(d)] = MatchResult(a, b, z[k], z[f"white_{key}"], plies, nodes, names)
    except (OSError, KeyError, ValueError, IndexError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path} is not notebook 01's match file: {e}") from None
    return out, side


def matches(
    models: Models, train: Book, seed: int, *, shipped: bool, ballots: int, depths: Sequence[int], mul: float,
    progress: bool = True,
) -> tuple[dict[tuple[str, str], dict[int, MatchResult]], str]:  # fmt: skip
    """Notebook 01's round robin of the three models: read from the shipped file (``shipped``; ValueError unless
    the shipped models are ``models`` by :func:`models_differ`) or played now.  Returns the games and their source."""
    if shipped:
        path = data_dir() / MODELS_FILE
        side = read_sidecar(path)
        why = f"its seed is {side.get('seed')}, not {seed}" if side.get("seed") != seed else None
        why = why or models_differ(load_models(path)[0], models)
        if why:
            raise ValueError(
                f"the shipped {MODELS_FILE} are not the models trained here: {why}. Rerun `{side.get('command')}` "
                "or play the matches now (SHIPPED_MATCHES=False)"
            )
        rr, mside = load_matches()
        if mside.get("models_sha256") != file_sha256(path):
            raise ValueError(f"the shipped {MATCHES_FILE} were played by other models: rerun `{mside.get('command')}`")
        return rr, (f"games shipped in data/{MATCHES_FILE}, played by `{mside['command']}` with the models of "
                    f"data/{MODELS_FILE} — the ones trained above: the same tables and counts, the same weights to "
                    f"a relative {FIT_RTOL:g}")  # fmt: skip
    pl = players(models, train, mul, depths[0])
    rr = round_robin(pl, PAIRS, ballots, depths, progress)
    return rr, f"played now: {ballots} ballots × 2 colours × depths {list(depths)}"


# ----------------------------------------------------------------------------- the recorded command


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tdbook.experiments.checkers.signature_tables_play",
        description="Train the signature tables, Samuel's polynomial and the logistic model on the whole ACF "
        "training archive and play them against each other at equal search on the 3-move ballots (notebook 01).",
    )
    ap.add_argument("--seed", type=int, default=1973, help="notebook 01's seed (the tables' random control only)")
    ap.add_argument("--ballots", type=int, default=157, help="ballots (each played twice per depth)")
    ap.add_argument("--depths", type=int, nargs="+", default=[4, 5, 6], help="search depths (plies)")
    ap.add_argument("--mul", type=float, default=0.5, help="men per standard deviation of each learned part")
    ap.add_argument("--workers", type=int, default=1, help="Dask workers (processes) for the games")
    ap.add_argument("--out-dir", default=None, help="directory of the two files (default: the shipped data/)")
    ap.add_argument("--force", action="store_true", help="allow overwriting the shipped files in data/")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    a = parser().parse_args(argv)
    out = Path(a.out_dir) if a.out_dir else data_dir()
    files = [out / MODELS_FILE, out / MATCHES_FILE]
    if out.resolve() == data_dir().resolve() and any(f.exists() for f in files) and not a.force:
        print(f"refusing to overwrite the shipped {files[0].name} / {files[1].name} in data/ without --force")
        return 2
    t0 = time.time()
    train, _ = master()
    models = fit_models(train, a.seed)
    pl = players(models, train, a.mul, a.depths[0])
    mul = {k: (p.mul, p.shift) for k, p in pl.items()}
    command = "python -m tdbook.experiments.checkers.signature_tables_play " + shlex.join(argv)
    atomic_write_bytes(files[0], models_bytes(models, mul))
    write_sidecar(files[0], {"command": command, "code_version": code_version(), "seed": a.seed,
                             "positions": train.n,
                             "mul_men_per_sd": a.mul})  # fmt: skip
    with local_cluster(a.workers):
        rr = round_robin(pl, PAIRS, a.ballots, a.depths)
    atomic_write_bytes(files[1], matches_bytes(rr))
    write_sidecar(files[1], {"command": command, "code_version": code_version(), "ballots": a.ballots,
                             "depths": list(a.depths), "models_sha256": file_sha256(files[0]),
                             "wall_time_s": round(time.time() - t0, 1)})  # fmt: skip
    for (x, y), by_depth in rr.items():
        p = pooled(by_depth)
        print(f"{x} v {y}: {100 * p['score']:.1f}% ± {100 * p['stderr']:.1f} over {p['games']} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
