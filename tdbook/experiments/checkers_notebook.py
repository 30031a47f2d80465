"""Notebook 02's knobs and the runs behind its sections (Powell (2000) ch. 3: Samuel's checkers program; Samuel 1959):
each function returns data; the figures are in :mod:`tdbook.plots.checkers_search` and
:mod:`tdbook.plots.checkers_learning`.

The learned players come from the shipped weights ``data/checkers_samuel.npz`` and ``data/checkers_tdleaf.npz``
(each with the command that made it in its sidecar); the ``full`` profile retrains them from scratch under
``build/full/`` with those commands (``RETRAIN``).
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..core import profiles
from ..core.paths import data_dir, output_root
from ..core.storage import read_sidecar
from ..learners.checkers_generalization import SAMUEL_TERMS, SamuelSpec
from ..learners.checkers_polynomial import N_TERMS, SAMUEL_42_GAMES, TERMS, Polynomial
from ..learners.checkers_tdleaf import TDLeafSpec, weights_of
from ..players.checkers import Player, material_player, random_player, samuel_player
from ..players.checkers_search import SearchRules
from . import checkers_match as cm
from . import checkers_rote as rote
from . import checkers_training as tr
from .checkers_rote import RoteTraining
from .checkers_samuel import AlphaBeta, SamuelRun, initial_polynomial
from .checkers_tdleaf import TDLeaf, TDLeafRun

#: the 38 terms of Samuel's list, in the order of the learning logs
TERM_NAMES = SAMUEL_TERMS

#: Profile defaults for notebook 02 (see :func:`config`)
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "PERFT_DEPTH": 7,
        "SHIFT_POSITIONS": 300,
        "NODE_POSITIONS": 4,
        "NODE_DEPTH": 4,
        "DEPTH_POSITIONS": 8,
        "ROTE_GAMES": 60,
        "ROTE_MEASURE_AT": 2_000,
        "ROTE_WINDOW": 20,
        "ROTE_BALLOTS": 8,
        "FIRST_SEEDS": 3,
        "VARIANT_GAMES": 10,
        "VARIANT_BALLOTS": 4,
        "CURVE_POINTS": 2,
        "CURVE_BALLOTS": 4,
        "MATCH_BALLOTS": 5,
        "RETRAIN": False,
    },
    "standard": {
        "PERFT_DEPTH": 10,
        "SHIFT_POSITIONS": 3000,
        "NODE_POSITIONS": 40,
        "NODE_DEPTH": 6,
        "DEPTH_POSITIONS": 80,
        "ROTE_GAMES": 1600,
        "ROTE_MEASURE_AT": 53_000,
        "ROTE_WINDOW": 100,
        "ROTE_BALLOTS": 157,
        "FIRST_SEEDS": 20,
        "VARIANT_GAMES": 400,
        "VARIANT_BALLOTS": 60,
        "CURVE_POINTS": 6,
        "CURVE_BALLOTS": 30,
        "MATCH_BALLOTS": 157,
        "RETRAIN": False,
    },
    "full": {
        "PERFT_DEPTH": 11,
        "SHIFT_POSITIONS": 3000,
        "NODE_POSITIONS": 100,
        "NODE_DEPTH": 7,
        "DEPTH_POSITIONS": 200,
        "ROTE_GAMES": 4000,
        "ROTE_MEASURE_AT": 53_000,
        "ROTE_WINDOW": 200,
        "ROTE_BALLOTS": 157,
        "FIRST_SEEDS": 50,
        "VARIANT_GAMES": 3000,
        "VARIANT_BALLOTS": 157,
        "CURVE_POINTS": 12,
        "CURVE_BALLOTS": 157,
        "MATCH_BALLOTS": 157,
        "RETRAIN": True,
    },
}


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 02's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    for name, v in cfg.items():
        if isinstance(v, int) and not isinstance(v, bool) and v < 1:
            raise ValueError(f"{name} must be >= 1, got {v!r}")
    if not 1 <= cfg.PERFT_DEPTH <= 17:
        raise ValueError(f"PERFT_DEPTH must be in 1..17, got {cfg.PERFT_DEPTH}")
    for name in ("ROTE_BALLOTS", "VARIANT_BALLOTS", "CURVE_BALLOTS", "MATCH_BALLOTS"):
        if cfg[name] > 157:
            raise ValueError(f"{name} must be at most the 157 ballots, got {cfg[name]}")
    return cfg


# ----------------------------------------------------------------------------- §3: Powell's arithmetic

#: §3: "to construct the entire game tree would require 10^40 non-terminal nodes … 3 × 10^9 nodes/sec, it would
#: require 10^21 centuries"
TREE_NODES, NODES_PER_SECOND = 1e40, 3e9
SECONDS_PER_CENTURY = 100 * 365.25 * 86400


def centuries_log10() -> float:
    """log10 of the centuries Powell's numbers give for visiting 10^40 nodes at 3 × 10^9 nodes/s."""
    return math.log10(TREE_NODES / NODES_PER_SECOND / SECONDS_PER_CENTURY)


# ----------------------------------------------------------------------------- shipped weights


SHIPPED = {"samuel": "checkers_samuel.npz", "samuel-book": "checkers_samuel_book.npz", "tdleaf": "checkers_tdleaf.npz"}


def weights_path(method: str, profile: str) -> Path:
    """The weights of ``method``: the shipped file, or under ``build/full`` when the full profile retrains."""
    if method not in SHIPPED:
        raise ValueError(f"method must be one of {list(SHIPPED)}, got {method!r}")
    if profile == "full":
        return output_root("full") / "data" / SHIPPED[method]
    return data_dir() / SHIPPED[method]


def shipped_command(method: str) -> str:
    """The command in the shipped file's sidecar."""
    return read_sidecar(data_dir() / SHIPPED[method])["command"]


def retrain_argv(command: str, out: Path, progress: bool = True) -> list[str]:
    """The options of a ``python -m tdbook train checkers …`` command with its ``--out`` (and ``--force``)
    replaced by ``out``."""
    head = ["python", "-m", "tdbook", "train", "checkers"]
    words = shlex.split(command)
    if words[:5] != head:
        raise ValueError(f"not a 'python -m tdbook train checkers' command: {command!r}")
    argv = words[5:]
    if "--out" in argv:
        argv = argv[: argv.index("--out")] + argv[argv.index("--out") + 2 :]
    argv = [a for a in argv if a not in ("--force", "--no-progress")] + ["--out", str(out)]
    return argv + ([] if progress else ["--no-progress"])


def retrain(method: str, progress: bool = True) -> Path:
    """The full profile: rerun the shipped file's command, writing under ``build/full/data``."""
    from .checkers_cli import train_main

    out = weights_path(method, "full")
    if train_main(retrain_argv(shipped_command(method), out, progress)) != 0:
        raise RuntimeError(f"retraining {method} failed")
    return out


#: Samuel (1959): the first series was 28 games
FIRST_SERIES = 28


def tally_at_removal(events: np.ndarray) -> int:
    """The tally every replaced term had when it left (−1 if they differ or there was no replacement)."""
    u = np.unique(events[:, 4]) if events.size else np.zeros(0)
    return int(u[0]) if u.size == 1 else -1


@dataclass
class Learned:
    """A learned polynomial with its file's meta and training log."""

    method: str
    path: Path
    poly: Polynomial
    meta: dict[str, Any]
    arrays: dict[str, np.ndarray] = field(repr=False)

    @property
    def command(self) -> str:
        return str(self.meta.get("command", ""))

    def samuel_run(self) -> SamuelRun:
        return samuel_run_of(self.meta["settings"])

    def active(self) -> list[str]:
        """Samuel: the terms in Alpha's final polynomial."""
        n = self.meta["settings"]["learn"]["n_active"]
        return [SAMUEL_TERMS[t] for t in self.arrays["alpha_order"][:n]]

    def reserve(self) -> list[str]:
        """Samuel: the final reserve queue, head first."""
        n = self.meta["settings"]["learn"]["n_active"]
        return [SAMUEL_TERMS[t] for t in self.arrays["alpha_order"][n:]]

    def record(self, games: int = FIRST_SERIES) -> list[int]:
        """Samuel: Alpha's wins, losses and draws in the first ``games`` games (Samuel's first series: 28)."""
        r = self.arrays["log_result"][:games]
        return [int((r > 0).sum()), int((r < 0).sum()), int((r == 0).sum())]

    def tally_at_removal(self) -> int:
        """Samuel: the tally every replaced term had when it left (−1 if they differ or none left)."""
        t = np.flatnonzero(self.arrays["log_removal_tallies"])
        return int(t[0]) if t.size == 1 else -1

    @property
    def replacements(self) -> int:
        return int(self.arrays["log_removal_tallies"].sum())


def samuel_run_of(d: dict[str, Any]) -> SamuelRun:
    """The :class:`SamuelRun` of a file's settings (a setting the file predates takes its default)."""
    kw = {k: v for k, v in d.items() if k in SamuelRun.__dataclass_fields__ and k not in ("learn", "rules")}
    return SamuelRun(SamuelSpec(**d["learn"]), rules=SearchRules(**d["rules"]), **kw)


def learned(method: str, profile: str = "standard") -> Learned:
    """The learned polynomial of ``method`` (shipped, or retrained in the full profile)."""
    path = weights_path(method, profile)
    poly, meta = tr.load_polynomial(path)
    _, arrays = tr.read(path)
    if meta.get("method") != method:
        raise ValueError(f"{path} holds a {meta.get('method')!r} run, not {method!r}")
    return Learned(method, path, poly, meta, arrays)


def players(samuel: Learned, tdleaf: Learned) -> dict[str, Player]:
    """The strength table's players, all at Samuel's ply rules with plausibility ordering: random, material α-β,
    Samuel (initial weights), Samuel (learned), TD-Leaf (learned)."""
    return {
        "random": random_player(),
        "material α-β": material_player(),
        "Samuel (initial)": samuel_player(initial_polynomial(samuel.samuel_run()), name="Samuel (initial)"),
        "Samuel (learned)": samuel_player(samuel.poly, name="Samuel (learned)"),
        "TD-Leaf (learned)": samuel_player(tdleaf.poly, name="TD-Leaf (learned)"),
    }


# ----------------------------------------------------------------------------- learning logs


def powers_to_weights(powers: np.ndarray, piece_weight: float = 2.0**20) -> Polynomial:
    """The polynomial of one row of a Samuel run's log (sign · (power + 1) per term of SAMUEL_TERMS)."""
    w = {}
    for t, p in enumerate(np.asarray(powers, dtype=np.int64)):
        if p:
            w[SAMUEL_TERMS[t]] = float(np.sign(p)) * 2.0 ** (abs(int(p)) - 1)
    return Polynomial(w, piece_weight)


def theta_to_weights(theta: np.ndarray, unit: float, piece_weight: float = 2.0**20) -> Polynomial:
    """The polynomial of a TD-Leaf θ."""
    w = np.zeros(N_TERMS)
    weights_of(np.asarray(theta, dtype=np.float64), unit, w)
    return Polynomial({TERMS[k]: float(w[k]) for k in np.flatnonzero(w)}, piece_weight)


def polynomial_at(run: Learned, game: int) -> Polynomial:
    """The run's polynomial after ``game`` games (0: the first polynomial)."""
    if run.method == "samuel":
        if game == 0:
            return initial_polynomial(run.samuel_run())
        return powers_to_weights(run.arrays["log_powers"][game - 1], run.poly.piece_weight)
    if game == 0:
        return Polynomial({}, run.poly.piece_weight)
    unit = run.meta["settings"]["learn"]["unit"]
    return theta_to_weights(run.arrays["log_theta"][game - 1], unit, run.poly.piece_weight)


def learning_curve(
    run: Learned, points: int, ballots: int, opponent: Player | None = None, progress: bool = True
) -> dict[str, np.ndarray]:
    """Strength against ``opponent`` (material α-β) of the run's polynomial at ``points`` + 1 game counts evenly
    spaced from 0 to the end: games, score, s.e."""
    games = int(run.meta["games"])
    at = np.unique(np.linspace(0, games, points + 1).round().astype(int))
    opp = opponent if opponent is not None else material_player()
    starts = cm.start_positions(ballots)
    sc, se = [], []
    for g in tqdm(at, desc=f"{run.method} learning curve", disable=not progress):
        r = cm.match(samuel_player(polynomial_at(run, int(g)), name=f"{run.method}@{g}"), opp, starts)
        sc.append(r.score)
        se.append(r.stderr)
    return {"games": at, "score": np.array(sc), "stderr": np.array(se)}


def queue_picture(run: Learned, games: int | None = None) -> np.ndarray:
    """int8[games, 38]: per game (after it) and term, 1 when the term is in the polynomial, 0 in reserve (from the
    log's powers: a term in the polynomial with a zero coefficient counts as in reserve)."""
    p = run.arrays["log_powers"]
    p = p if games is None else p[:games]
    return (p != 0).astype(np.int8)


# ----------------------------------------------------------------------------- Samuel's first games


@dataclass(frozen=True)
class FirstGames:
    """The first ``games`` games of Samuel runs from several seeds: per seed the changes of the leading term and
    Alpha's losses (and wins, draws)."""

    seeds: tuple[int, ...]
    top_changes: np.ndarray
    losses: np.ndarray
    wins: np.ndarray
    draws: np.ndarray


def first_games(spec: SamuelRun, seeds: int, games: int = 7, first_seed: int = 1, progress: bool = True) -> FirstGames:
    """Samuel's first series in its first ``games`` games (Powell 2000 §3.3: "α changed the top of its
    parameter list 14 times and lost 4 of 7"), once per seed ``first_seed``, ``first_seed + 1``, …"""
    tc, lo, wi, dr = [], [], [], []
    ss = tuple(range(first_seed, first_seed + seeds))
    for s in tqdm(ss, desc=f"first {games} games", disable=not progress):
        r = AlphaBeta(_with_seed(spec, s), games)
        tr.run(r, games, progress=False)
        res = r.log["result"]
        tc.append(int(r.log["top_changes"].sum()))
        lo.append(int((res < 0).sum()))
        wi.append(int((res > 0).sum()))
        dr.append(int((res == 0).sum()))
    return FirstGames(ss, np.array(tc), np.array(lo), np.array(wi), np.array(dr))


def _with_seed(spec: SamuelRun, seed: int) -> SamuelRun:
    from dataclasses import replace

    return replace(spec, seed=seed)


# ----------------------------------------------------------------------------- variants


@dataclass
class Variant:
    """A short Samuel run with one option changed, and its measures."""

    name: str
    run: AlphaBeta
    games: int
    vs_material: cm.MatchResult | None = None

    @property
    def replacements_per_move(self) -> float:
        c = self.run.log["cycles"][: self.games].sum()
        return float(self.run.log["replaced"][: self.games].sum() / c) if c else float("nan")

    @property
    def volatility(self) -> float:
        """Mean change of the coefficient vector from game to game over the second half of the run: the
        summed |Δ (sign · power)| of the 38 terms (a term entering or leaving counts its power)."""
        d = self._changes()
        return float(d.mean()) if d.size else float("nan")

    def _changes(self) -> np.ndarray:
        p = self.run.powers[: self.games].astype(np.int64)
        return np.abs(np.diff(p[self.games // 2 :], axis=0)).sum(axis=1)

    @property
    def volatility_stderr(self) -> float:
        """Standard error of :attr:`volatility` (games taken as independent)."""
        d = self._changes()
        return float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else float("nan")

    def more_volatile_than(self, other: Variant, z: float = 1.96) -> tuple[bool, float]:
        """Whether this run's coefficients change more from game to game than ``other``'s by more than ``z``
        combined standard errors; and the difference in standard errors."""
        se = math.hypot(self.volatility_stderr, other.volatility_stderr)
        k = (self.volatility - other.volatility) / se if se > 0 else float("nan")
        return bool(k > z), float(k)

    @property
    def leader_changes_per_game(self) -> float:
        return float(self.run.log["top_changes"][: self.games].mean())


def variants(
    games: int,
    ballots: int,
    seed: int = 1,
    options: dict[str, dict[str, Any]] | None = None,
    progress: bool = True,
) -> list[Variant]:
    """Samuel runs of ``games`` games differing in one option each (module docstring of
    :mod:`tdbook.learners.checkers_generalization`), each then matched against material α-β over ``ballots``
    ballots.  Default options: Powell's readings (series 1), the notes' tally, the second series, the
    coefficients recomputed every 8 moves, the saved (not recomputed) initial score."""
    opts = options or VARIANTS
    out = []
    starts = cm.start_positions(ballots)
    mat = material_player()
    for name, kw in tqdm(opts.items(), desc="Samuel variants", disable=not progress):
        series = kw.get("series", 1)
        spec = SamuelRun.series(series, seed=seed, **{k: v for k, v in kw.items() if k != "series"})
        r = AlphaBeta(spec, games)
        tr.run(r, games, progress=False)
        v = Variant(name, r, games)
        v.vs_material = cm.match(samuel_player(r.polynomial(), name=name), mat, starts)
        out.append(v)
    return out


VARIANTS: dict[str, dict[str, Any]] = {
    "Powell's readings (series 1)": {},
    "notes' tally (lowest C)": {"tally": "lowest"},
    "second series (Powell)": {"series": 2},
    "second series, notes' negative delta": {"series": 2, "negative": "all"},
    "coefficients every 8 moves": {"update_every": 8},
    "saved initial score": {"recompute_initial": False},
}


# ----------------------------------------------------------------------------- rote learning


@dataclass
class RoteStudy:
    """A rote-learning run and its measures: the game at which the store first held ``measure_at`` boards
    (``at``; the last game if never), the frontier and root hit rates by phase over the ``window`` games from
    there, and the rote program (store frozen) against material α-β from the opening (the ballots), the middle
    game and the endgame."""

    training: RoteTraining
    measure_at: int
    at: int
    window: int
    rates: dict[str, dict[str, float]]
    matches: dict[str, cm.MatchResult]

    @property
    def reached(self) -> bool:
        return self.training.games_to(self.measure_at) is not None

    def strong_opening_and_endgame(self) -> bool:
        """Powell (2000) §3.3's profile: the store finds more at the frontier in the opening and the endgame than
        in the middle game."""
        f = {k: v["frontier"] for k, v in self.rates.items()}
        return bool(f["middle game"] < f["opening"] and f["middle game"] < f["endgame"])

    def middle_game_catches_up(self) -> tuple[float, int]:
        """Powell (2000) §3.3's "over one million positions would have to be stored in order for the machine to
        have a strong middle game", read as: the store size by which the middle game's frontier hits per search
        (over ``window`` games) first reach the opening's at the measuring point.  Returns (boards stored, game);
        (NaN, −1) when the run ends first."""
        t, w = self.training, self.window
        target = self.rates["opening"]["frontier"]
        boards = np.convolve(t.phases[:, 1, 0], np.ones(w), "valid")
        hits = np.convolve(t.phases[:, 1, 2], np.ones(w), "valid")
        for g in range(self.at, boards.size):
            if boards[g] and hits[g] / boards[g] >= target:
                return float(t.size[g + w - 1]), g + w
        return float("nan"), -1

    def strong_opening_and_endgame_play(self) -> bool:
        """The same profile in the matches: the rote program scores less from the middle game than from the
        opening and from the endgame."""
        s = {k: m.score for k, m in self.matches.items()}
        return bool(s["middle game"] < s["opening"] and s["middle game"] < s["endgame"])


def rote_study(
    games: int, measure_at: int, window: int, ballots: int, seed: int = 1, progress: bool = True
) -> RoteStudy:
    """Rote learning for ``games`` self-play games and its measures (:class:`RoteStudy`)."""
    t = rote.train(rote.RoteRun(seed=seed), games, progress=progress)
    reached = t.games_to(measure_at)
    at = reached if reached is not None else t.games
    rates = t.hit_rates(at, min(t.games, at + window)) if at < t.games else t.hit_rates(max(0, at - window), at)
    me = rote.rote_player(t)
    starts = rote.phase_starts(samuel_player(SAMUEL_42_GAMES), material_player(), ballots)
    mat = material_player()
    matches = {k: cm.match(me, mat, v) for k, v in tqdm(starts.items(), desc="rote matches", disable=not progress)}
    return RoteStudy(t, measure_at, at, window, rates, matches)


# ----------------------------------------------------------------------------- the widget panel


def explore(method: str = "samuel", games: int = 30, tally: str = "threshold", series: int = 1, seed: int = 1):
    """A short learning run for the notebook's panel: Samuel's Alpha/Beta (with the tally rule and series) or
    TD-Leaf(λ); returns the run."""
    if not isinstance(games, int) or not 1 <= games <= 2000:
        raise ValueError(f"games must be an int in 1..2000, got {games!r}")
    if method == "samuel":
        r: AlphaBeta | TDLeaf = AlphaBeta(SamuelRun.series(series, seed=seed, tally=tally), games)
    elif method == "tdleaf":
        r = TDLeaf(TDLeafRun(TDLeafSpec(), seed=seed), games)
    else:
        raise ValueError(f"method must be 'samuel' or 'tdleaf', got {method!r}")
    tr.run(r, games, desc=f"{method}: {games} games")
    return r
