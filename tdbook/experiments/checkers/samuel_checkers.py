"""Notebook 02's knobs and the runs behind its sections (Powell (2000) ch. 3: Samuel's checkers program; Samuel 1959):
each function returns data; the figures are in :mod:`tdbook.plots.checkers_search`,
:mod:`tdbook.plots.checkers_learning` and :mod:`tdbook.plots.checkers_ladder`.

The learned players come from the shipped weights ``data/checkers_samuel.npz`` (self-play),
``data/checkers_samuel_book.npz`` (book games) and ``data/checkers_tdleaf.npz``, the ladder and the study of the
learner from ``data/checkers_ladder.npz`` and ``data/checkers_samuel_study.npz``
(:mod:`tdbook.experiments.checkers.ladder`, :mod:`tdbook.experiments.checkers.samuel_study`), each with the
command that made it in its sidecar; the ``full`` profile retrains the weights and runs the ladder and the study
again under ``build/full/`` with those commands (``RETRAIN``).

Notebook 02 uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):

- What we found: ``config``
- 4. Rote learning: ``rote_study``
- 5. Learning by generalization: ``generalization_step``, ``SHIPPED``, ``retrain``, ``learned``, ``TERM_NAMES``,
  ``queue_picture``, ``short_runs``
- 7. One ladder for every checkers player: ``ladder_and_ratings``, ``rating_rows``
- 9. The stabilisers, one change at a time: ``stabiliser_effects``, ``study_rows``
- 10. Play the learned program: ``opponent``
- 13. Try it yourself: ``explore``
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats
from tqdm.auto import tqdm

from ...core import profiles
from ...core.paths import data_dir, output_root
from ...core.storage import read_sidecar
from ...learners.checkers_generalization import SAMUEL_TERMS, SamuelSpec
from ...learners.checkers_generalization import generalization_step as generalization_step  # the rule §5 shows
from ...learners.checkers_polynomial import SAMUEL_42_GAMES, Polynomial
from ...learners.checkers_tdleaf import TDLeafSpec
from ...players.checkers import Player, material_player, samuel_player
from ...players.checkers_search import SearchRules
from ..common.ratings import Ratings
from . import ladder as cl
from . import match as cm
from . import rote
from . import samuel_study as ss
from . import training as tr
from .book_learning import BookGames, BookRun
from .rote import RoteTraining
from .samuel import AlphaBeta, SamuelRun
from .tdleaf import TDLeaf, TDLeafRun

#: The chapter's findings (``tdbook.findings``): claim id → the statement, in the order a reader should meet them.
FINDINGS: dict[str, str] = {
    "alphabeta-exponent": "α-β with plausibility ordering searches about the square root of minimax's nodes",
    "rote-strength-strong-opening-endgame-weak-middle": "rote learning plays a strong opening and endgame and "
    "a weak middle game",
    "rote-plus-generalization": "rote learning and learning by generalization together play better than either alone",
    "erratic-and-none-too-stable": "from then on the learning is erratic and none too stable",
    "instability-unless-updated-each-move": "the polynomial must be adjusted after every move, or the learning "
    "becomes unstable",
    "learned-beats-material": "our aim: the learned polynomial beats a search that counts material alone",
}

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
        "SHORT_GAMES": 6,
        "RATING_REPS": 40,
        "VERIFY_BALLOTS": 1,
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
        "SHORT_GAMES": 200,
        "RATING_REPS": 400,
        "VERIFY_BALLOTS": 3,
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
        "SHORT_GAMES": 1000,
        "RATING_REPS": 1000,
        "VERIFY_BALLOTS": 10,
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
    for name in ("ROTE_BALLOTS", "VERIFY_BALLOTS"):
        if cfg[name] > 157:
            raise ValueError(f"{name} must be at most the 157 ballots, got {cfg[name]}")
    if cfg.RATING_REPS < 10:
        raise ValueError(f"RATING_REPS must be at least 10, got {cfg.RATING_REPS}")
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
    return tr.rerun_argv(command, "python -m tdbook train checkers", out, progress)


def retrain(method: str, progress: bool = True) -> Path:
    """The full profile: rerun the shipped file's command, writing under ``build/full/data``."""
    from .cli import train_main

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


# ----------------------------------------------------------------------------- learning logs


def queue_picture(run: Learned, games: int | None = None) -> np.ndarray:
    """int8[games, 38]: per game (after it) and term, 1 when the term is in the polynomial, 0 in reserve (from the
    log's powers: a term in the polynomial with a zero coefficient counts as in reserve)."""
    p = run.arrays["log_powers"]
    p = p if games is None else p[:games]
    return (p != 0).astype(np.int8)


def book_games_gain(run: Learned, games: int = 1000) -> tuple[float, float, float]:
    """The book-game learner's share of the master's moves found in its first and last ``games`` book games, and
    the difference (its own search at the time; training games)."""
    a, c = run.arrays["log_agreed"], run.arrays["log_choices"]
    first = float(a[:games].sum() / c[:games].sum())
    last = float(a[-games:].sum() / c[-games:].sum())
    return first, last, last - first


@dataclass
class ShortRun:
    """A short self-play run with one reading changed, for the counts the study does not keep."""

    name: str
    run: AlphaBeta

    @property
    def replacements_per_move(self) -> float:
        c = self.run.log["cycles"].sum()
        return float(self.run.log["replaced"].sum() / c) if c else float("nan")

    @property
    def tally_at_removal(self) -> int:
        return tally_at_removal(self.run.events)


def short_runs(games: int, seed: int = 1, progress: bool = True) -> dict[str, ShortRun]:
    """``games`` self-play games of the notes' tally reading (the lowest C collects the tally; Samuel 1959) and of
    the second series (whose tally limit is 32), from ``seed``."""
    out = {}
    for name, spec in tqdm({"notes' tally (lowest C)": SamuelRun(seed=seed, learn=SamuelSpec(tally="lowest")),
                            "second series": SamuelRun.series(2, seed=seed)}.items(), desc="short runs",
                           disable=not progress):  # fmt: skip
        r = AlphaBeta(spec, games)
        tr.run(r, games, progress=False)
        out[name] = ShortRun(name, r)
    return out


# ----------------------------------------------------------------------------- the ladder and the study


def ladder_and_ratings(profile: str, reps: int, progress: bool = True) -> tuple[cl.LadderResult, Ratings]:
    """The ladder (shipped, or played again in the full profile) and its ratings with ``reps`` bootstrap draws."""
    lad = cl.ladder(profile, progress)
    return lad, lad.ratings(reps=reps)


def rating_rows(lad: cl.LadderResult, r: Ratings) -> list[list[str]]:
    """The ladder's table: player, Elo [95 %], book agreement ± s.e., what it is."""
    rows = []
    for n in r.order():
        e, lo, hi = r.of(n)
        a = lad.agreement[n]
        rows.append([n, f"{e:+.0f}", f"[{lo:+.0f}, {hi:+.0f}]", f"{100 * a.share:.1f} ± {100 * a.stderr:.1f}",
                     cl.ROSTER[n][0]])  # fmt: skip
    return rows


def agreement_rank_correlation(lad: cl.LadderResult, r: Ratings) -> float:
    """Spearman's rank correlation of book agreement with rating over the players at the equal search."""
    names = [n for n in cl.EQUAL_SEARCH if n in lad.names]
    return float(stats.spearmanr([lad.agreement[n].share for n in names], [r.of(n)[0] for n in names])[0])


def stabiliser_effects(st: ss.Study) -> dict[str, dict[str, tuple[float, float, float]]]:
    """Each stabiliser's effect (the second series minus the same runs without it, seed by seed): the Elo it
    adds after the runs, the volatility it removes and the replacements of terms per move it removes, each a mean
    with its 95 % interval."""
    out = {}
    for name, ablation in ss.STABILISERS.items():
        e, elo_lo, elo_hi = st.effect(ablation, "elo")
        out[name] = {"elo": (-e, -elo_hi, -elo_lo)}
        for measure in ("volatility", "replacements"):
            out[name][measure] = st.effect(ablation, measure)
    return out


#: the ladder's players a reader can play without building anything (shipped weights)
SHIPPED_PLAYERS = ("TD-Leaf (learned)", "Samuel (learned)", "Samuel (book games)")


def opponent(r: Ratings, profile: str = "standard") -> tuple[str, Player]:
    """The highest-rated of the ladder's players with shipped weights, to play against in the notebook."""
    name = next(n for n in r.order() if n in SHIPPED_PLAYERS)
    spec = cl.LadderSpec((name, cl.ANCHOR))
    return name, cl.players_of(spec, cl.Context(spec, profile))[name]


def _interval(x: tuple[float, float, float], fmt: str = "+.0f") -> str:
    return f"{x[0]:{fmt}} [{x[1]:{fmt}}, {x[2]:{fmt}}]"


def study_rows(st: ss.Study) -> list[list[str]]:
    """The study's table: per configuration its Elo after the runs, gain over the first polynomial, volatility,
    replacements per move and leader changes per game (means over seeds, 95 % intervals)."""
    rows = []
    for c in st.spec.configs:
        sm = st.summary(c)
        rows.append([c, _interval(sm["elo"]), _interval(sm["gain"]), _interval(sm["volatility"], ".0f"),
                     f"{sm['replacements per move'][0]:.3f}", f"{sm['leader changes per game'][0]:.1f}"])  # fmt: skip
    return rows


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
    """A short learning run for the notebook's panel: Samuel's Alpha/Beta (with the tally rule and series),
    Samuel's learner following ``games`` ACF training games (``"samuel-book"``) or TD-Leaf(λ); returns the run."""
    if not isinstance(games, int) or not 1 <= games <= 2000:
        raise ValueError(f"games must be an int in 1..2000, got {games!r}")
    if method == "samuel":
        r: AlphaBeta | BookGames | TDLeaf = AlphaBeta(SamuelRun.series(series, seed=seed, tally=tally), games)
    elif method == "samuel-book":
        r = BookGames(BookRun(SamuelSpec.series(series, tally=tally), seed=seed), games)
    elif method == "tdleaf":
        r = TDLeaf(TDLeafRun(TDLeafSpec(), seed=seed), games)
    else:
        raise ValueError(f"method must be 'samuel', 'samuel-book' or 'tdleaf', got {method!r}")
    tr.run(r, games, desc=f"{method}: {games} games")
    return r
