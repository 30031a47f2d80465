"""One ladder for every checkers player of the collection (notebooks 01 and 02): a round robin at equal search on
the 3-move ballots, each ballot twice with the colours reversed, rated on one Bradley–Terry (Elo) scale
(:mod:`tdbook.experiments.common.ratings`), and every player's *book agreement* — the share of held-out master
positions of the ACF archive where it plays the master's move at its normal search.

**The roster** (:data:`ROSTER`, one line per player: a description and a factory from the shared
:class:`Context`): random; material α-β under Samuel's ply rules at a minimum of 1, 3 and 5 plies (the
depth scale); and, all at the *equal search* — α-β, plausibility ordering, Samuel's six ply rules (minimum 3)
— Samuel's initial and learned polynomials (self-play, shipped), Samuel's learner trained on book games
(shipped), the rote program (piece advantage with a rote store) and the learned polynomial with a rote store
(rote learning combined with generalization; each store from ``rote_games`` games of its own self-play), TD-Leaf(λ)
(shipped), and the three models trained on book moves of the ACF training games: Samuel's per-term book
polynomial, the logistic (conditional-logit) model and Samuel's signature tables (notebook 01's learners,
called as they are).  The learned part of each book-trained model is scaled to ``men_per_sd`` men per standard
deviation over its training moves and centred on its mean there (notebook 01's convention), added to the same
fixed piece advantage.  Adding
a player is one line of :data:`ROSTER`.

**Matches** (:func:`play`) run through :func:`tdbook.core.parallel.map_tasks` (one task per pairing, seeded by
:func:`~tdbook.core.parallel.task_seed`), so a Dask cluster spreads them over its cores; the draw rule is
40 moves a side without a capture or a man's move.  The round robin is long, so the standard profile reads the
shipped result (``data/checkers_ladder.npz``, the command that made it in its sidecar) and the full profile
plays it again; :func:`verify` replays a few of its games to show the file is what the code plays.

**A newcomer** (:func:`place`): any further player (a learner's snapshot, notebook 01's tables) is rated on
the ladder's scale from matches against some of its players, their ratings held fixed
(:func:`~tdbook.experiments.common.ratings.rate_against`), without replaying the round robin.
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ...core.parallel import map_tasks, task_seed
from ...core.paths import data_dir, repo_root
from ...core.storage import code_version, write_sidecar
from ...games.checkers_book import BookPositions, book_positions, split_games
from ...games.checkers_features import PARAMS
from ...learners.book_learning import agreement_weights, fit_softmax
from ...learners.checkers_polynomial import Polynomial
from ...learners.checkers_signature import CheckersTables, book_terms, train_tables
from ...players.checkers import Player, choices, material_player, random_player, samuel_player
from ...players.checkers_search import SearchRules
from ..common.ratings import Ratings, rate, rate_against
from . import match as cm
from . import training as tr

FILE = "checkers_ladder.npz"
#: the player the scale is anchored on (0 Elo)
ANCHOR = "material α-β"
#: a man, in the search's score units (the piece weight 2**20 per credit, 2 credits a man)
MAN = 2.0**21


# ----------------------------------------------------------------------------- book-trained models


@dataclass
class BookModels:
    """The models trained on book moves of ``positions`` positions of the ACF training games — Samuel's
    per-term book polynomial, the logistic model (both over the 27 terms) and the signature tables — as players'
    parts: each learned part scaled to ``men_per_sd`` men per standard deviation over the training moves and
    centred on its mean there (``shift``, in score units; a model fitted to move choices has no meaningful level,
    and an uncentred one would favour the odd or the even leaves of the ply rules)."""

    book_poly: Polynomial
    logistic: Polynomial
    tables: CheckersTables
    tables_mul: float
    shift: dict[str, float]
    positions: int

    def player(self, name: str) -> Player:
        """``"book polynomial"``, ``"logistic"`` or ``"signature tables"`` as a player at the equal search."""
        if name == "signature tables":
            return Player(name, tables=self.tables, tables_mul=self.tables_mul, shift=self.shift[name])
        poly = {"book polynomial": self.book_poly, "logistic": self.logistic}[name]
        return Player(name, poly=poly, shift=self.shift[name])


def _sample(held_out: bool, n: int, seed: int) -> BookPositions:
    bp = book_positions()
    games = split_games()[int(held_out)]
    p = bp.take(np.isin(bp.game, games))
    if n and n < len(p):
        p = p.take(np.sort(np.random.default_rng([seed, 30 + int(held_out)]).choice(len(p), n, replace=False)))
    return p


def training_sample(n: int, seed: int) -> BookPositions:
    """``n`` book positions (all when 0) drawn by ``seed`` from the training games of the collection's split."""
    return _sample(False, n, seed)


def held_out_sample(n: int, seed: int) -> BookPositions:
    """``n`` book positions (all when 0) drawn by ``seed`` from the held-out games — never trained on."""
    return _sample(True, n, seed)


def _scaled(w: np.ndarray, X: np.ndarray, men_per_sd: float) -> tuple[Polynomial, float]:
    v = X @ w
    sd = float(np.std(v))
    mul = men_per_sd / sd * MAN if sd > 0 else 0.0
    return Polynomial({PARAMS[k]: float(mul * w[k]) for k in np.flatnonzero(w)}), float(mul * np.mean(v))


def book_models(positions: int, seed: int, men_per_sd: float = 0.5) -> BookModels:
    """Train the three book models on ``positions`` training positions (module docstring).  The tables use
    notebook 01's standard options (the A·k imbalance rule, fixed requantization, a prior of 1, stagewise)."""
    t = training_sample(positions, seed)
    X, starts = book_terms(t.words, t.side, t.n_legal)
    pref = starts[:-1] + t.chosen
    ct = train_tables(X, starts, pref, rule="a_k", mode="stagewise", requant="fixed", prior=1.0, second_levels=7,
                      seed=seed)  # fmt: skip
    c = ct.value(X)
    mul = men_per_sd / float(np.std(c)) * MAN if np.std(c) > 0 else 0.0
    book, book_shift = _scaled(agreement_weights(X, starts, pref), X, men_per_sd)
    logistic, logistic_shift = _scaled(fit_softmax(X, starts, pref), X, men_per_sd)
    shift = {"book polynomial": book_shift, "logistic": logistic_shift, "signature tables": float(mul * np.mean(c))}
    return BookModels(book, logistic, ct, mul, shift, len(t))


# ----------------------------------------------------------------------------- the roster


@dataclass(frozen=True)
class LadderSpec:
    """A ladder: the ``players`` (names of :data:`ROSTER`), the first ``ballots`` ballots, the book models'
    training ``book_positions`` (0 = all), the held-out ``agreement_positions`` (0 = all), the rote store's
    self-play ``rote_games``, the ``seed`` and the book models' ``men_per_sd``."""

    players: tuple[str, ...] = ()
    ballots: int = 157
    book_positions: int = 60_000
    agreement_positions: int = 20_000
    rote_games: int = 1600
    seed: int = 1973
    men_per_sd: float = 0.5

    def __post_init__(self) -> None:
        if not self.players:
            object.__setattr__(self, "players", tuple(ROSTER))
        unknown = [p for p in self.players if p not in ROSTER]
        if unknown:
            raise ValueError(f"unknown player(s) {unknown}; the roster: {', '.join(ROSTER)}")
        if len(set(self.players)) != len(self.players) or len(self.players) < 2:
            raise ValueError("a ladder needs at least two different players")
        if not 2 <= self.ballots <= 157:
            raise ValueError(f"ballots must be in 2..157, got {self.ballots!r}")
        for k in ("book_positions", "agreement_positions", "rote_games"):
            if getattr(self, k) < 0:
                raise ValueError(f"{k} must be >= 0, got {getattr(self, k)!r}")

    def settings(self) -> dict[str, Any]:
        return asdict(self) | {"players": list(self.players)}


class Context:
    """What the roster's factories share, built on first use: the shipped learned runs, the book models and the
    rote store trained with the learned polynomial."""

    def __init__(self, spec: LadderSpec, profile: str = "standard", progress: bool = True) -> None:
        self.spec, self.profile, self.progress = spec, profile, progress
        self._stores: dict[str, Any] = {}

    def learned(self, method: str):
        from .samuel_checkers import learned

        return learned(method, self.profile)

    @cached_property
    def book(self) -> BookModels:
        return book_models(self.spec.book_positions, self.spec.seed, self.spec.men_per_sd)

    def rote_store(self, which: str):
        """The rote store of ``rote_games`` self-play games of the rote program (``"material"``: piece advantage
        alone, as in notebook 02 §4) or of the learned polynomial (``"learned"``)."""
        if which not in self._stores:
            from .rote import RoteRun, train

            poly = Polynomial() if which == "material" else self.learned("samuel").poly
            run = RoteRun(seed=self.spec.seed, poly=poly)
            self._stores[which] = train(run, max(1, self.spec.rote_games), progress=self.progress).store
        return self._stores[which]


def _initial(c: Context) -> Player:
    from .samuel import initial_polynomial

    return samuel_player(initial_polynomial(c.learned("samuel").samuel_run()), name="Samuel (initial)")


def _rote(c: Context) -> Player:
    return Player("Samuel (learned) + rote", poly=c.learned("samuel").poly, store=c.rote_store("learned"))


def _rote_material(c: Context) -> Player:
    return Player("rote program", poly=Polynomial(), store=c.rote_store("material"))


def _book(name: str) -> Callable[[Context], Player]:
    return lambda c: c.book.player(name)


def _shipped(method: str) -> Callable[[Context], Player]:
    return lambda c: samuel_player(c.learned(method).poly, name=method)


def _material(min_ply: int) -> Callable[[Context], Player]:
    name = ANCHOR if min_ply == 3 else f"material α-β ({min_ply} ply)"
    return lambda c: material_player(SearchRules.samuel(min_ply=min_ply, second_ply=min_ply + 1), name=name)


#: every checkers player: name → (what it is, factory); the equal search is Samuel's ply rules at a minimum of 3
ROSTER: dict[str, tuple[str, Callable[[Context], Player]]] = {
    "random": ("uniformly random legal moves", lambda c: random_player()),
    "material α-β (1 ply)": ("piece advantage only, the ply rules from a minimum of 1 ply", _material(1)),
    ANCHOR: ("piece advantage only, Samuel's ply rules (minimum 3 plies): the anchor, 0 Elo", _material(3)),
    "material α-β (5 ply)": ("piece advantage only, the ply rules from a minimum of 5 plies", _material(5)),
    "Samuel (initial)": ("the shipped self-play run's first polynomial: 16 seeded terms, equal weights", _initial),
    "Samuel (learned)": ("Alpha after the shipped 3,000 self-play games", _shipped("samuel")),
    "Samuel (book games)": ("Alpha after following the ACF training games (shipped)", _shipped("samuel-book")),
    "rote program": ("piece advantage with a rote store of its own self-play (rote learning alone)", _rote_material),
    "Samuel (learned) + rote": ("the learned polynomial with a rote store of its own self-play", _rote),
    "TD-Leaf (learned)": ("TD-Leaf(λ) on Samuel's terms after 3,000 self-play games (shipped)", _shipped("tdleaf")),
    "book polynomial": ("Samuel's per-term book counts C_k as weights, ACF training moves", _book("book polynomial")),
    "logistic": ("conditional-logit model on the 27 terms, ACF training moves", _book("logistic")),
    "signature tables": ("Samuel's 27 → 9 → 3 → 1 tables, ACF training moves", _book("signature tables")),
}
#: the players at the equal search (everyone but the random mover and the depth scale)
EQUAL_SEARCH = tuple(n for n in ROSTER if n != "random" and "ply)" not in n)


def players_of(spec: LadderSpec, ctx: Context | None = None) -> dict[str, Player]:
    """The spec's players, built from :data:`ROSTER`."""
    c = ctx if ctx is not None else Context(spec)
    return {n: replace(ROSTER[n][1](c), name=n) for n in spec.players}


# ----------------------------------------------------------------------------- book agreement


@dataclass(frozen=True)
class Agreement:
    """A player's book agreement: master's moves found (``agreed``) of ``positions``, the share and its standard
    error clustered by game (positions of one game are not independent)."""

    agreed: float
    positions: int
    share: float
    stderr: float


def _clustered(hit: np.ndarray, games: np.ndarray) -> Agreement:
    n = hit.size
    share = float(hit.mean())
    _, g = np.unique(games, return_inverse=True)
    resid = np.bincount(g, weights=hit - share)
    se = float(math.sqrt(np.sum(resid**2)) / n) if n else float("nan")
    return Agreement(float(hit.sum()), int(n), share, se)


def book_agreement(player: Player, positions: BookPositions, seed: int = 0, progress: bool = False) -> Agreement:
    """The share of ``positions`` where ``player`` plays the master's move at its normal search (a random
    mover: its expected share, 1 / legal moves)."""
    if player.kind == "random":
        return _clustered(1.0 / positions.n_legal, positions.game)
    moves = choices(player, positions.words, positions.side, seed=seed, progress=progress)
    return _clustered((moves == positions.chosen).astype(np.float64), positions.game)


# ----------------------------------------------------------------------------- the round robin


@dataclass
class LadderResult:
    """A played ladder: per pairing ``(a, b)`` and ballot, ``a``'s points as Black and as White; each player's
    book agreement; the spec; the meta of the file it was read from (command, code version) when shipped."""

    spec: LadderSpec
    pairs: list[tuple[str, str]]
    as_black: np.ndarray
    as_white: np.ndarray
    plies: np.ndarray
    agreement: dict[str, Agreement]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return self.spec.players

    def match(self, a: str, b: str) -> cm.MatchResult:
        """The match of ``a`` against ``b``, from ``a``'s side."""
        for k, (x, y) in enumerate(self.pairs):
            if (x, y) in ((a, b), (b, a)):
                r = cm.MatchResult(x, y, self.as_black[k], self.as_white[k], int(self.plies[k]))
                return r if x == a else r.swapped()
        raise ValueError(f"no match between {a!r} and {b!r} in the ladder")

    def ratings(self, reps: int = 400, seed: int = 0) -> Ratings:
        """Bradley–Terry ratings (Elo, :data:`ANCHOR` = 0) with bootstrap intervals over the ballots."""
        return rate(self.names, self.pairs, self.as_black + self.as_white, ANCHOR, reps=reps, seed=seed)

    def score_matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """(score, s.e.) of the row player against the column player."""
        return cm.score_matrix({p: self.match(*p) for p in self.pairs}, list(self.names))


def _pair_task(task: tuple) -> tuple[np.ndarray, np.ndarray, int]:
    a, b, starts, seed = task
    r = cm.match(a, b, starts, seed=seed)
    return r.as_black, r.as_white, r.plies


def _agreement_task(task: tuple) -> Agreement:
    player, positions, seed = task
    return book_agreement(player, positions, seed)


def play(spec: LadderSpec, profile: str = "standard", progress: bool = True) -> LadderResult:
    """Play the ladder of ``spec`` (module docstring): every pairing over its ballots, every player's book
    agreement; the tasks go through :func:`~tdbook.core.parallel.map_tasks`."""
    ctx = Context(spec, profile, progress)
    roster = players_of(spec, ctx)
    names = list(spec.players)
    starts = cm.start_positions(spec.ballots)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    tasks = [(roster[a], roster[b], starts, task_seed(spec.seed, k)) for k, (a, b) in enumerate(pairs)]
    games = map_tasks(_pair_task, tasks, desc="ladder matches", progress=progress)
    held = held_out_sample(spec.agreement_positions, spec.seed)
    agree = map_tasks(_agreement_task, [(roster[n], held, task_seed(spec.seed + 1, k)) for k, n in enumerate(names)],
                      desc="book agreement", progress=progress)  # fmt: skip
    return LadderResult(
        spec,
        pairs,
        np.array([g[0] for g in games]),
        np.array([g[1] for g in games]),
        np.array([g[2] for g in games], dtype=np.int64),
        dict(zip(names, agree)),
    )


def verify(result: LadderResult, pairs: Sequence[tuple[str, str]], ballots: int = 3, profile: str = "standard") -> bool:
    """Replay the first ``ballots`` ballots of ``pairs`` of a (shipped) ladder: True when every game ends as
    the file says."""
    spec = LadderSpec(
        tuple(dict.fromkeys(p for ab in pairs for p in ab)), ballots=max(2, ballots), seed=result.spec.seed
    )
    ctx = Context(result.spec, profile, progress=False)
    roster = players_of(spec, ctx)
    starts = cm.start_positions(ballots)
    for a, b in pairs:
        k = result.pairs.index((a, b))
        r = cm.match(roster[a], roster[b], starts, seed=task_seed(result.spec.seed, k))
        if not (np.array_equal(r.as_black, result.as_black[k, :ballots]) and
                np.array_equal(r.as_white, result.as_white[k, :ballots])):  # fmt: skip
            return False
    return True


# ----------------------------------------------------------------------------- a newcomer


@dataclass(frozen=True)
class Placement:
    """A newcomer's rating on the ladder's scale (Elo, sandwich standard error) and its matches."""

    elo: float
    stderr: float
    matches: dict[str, cm.MatchResult]


def place(
    player: Player,
    ratings: Ratings,
    opponents: dict[str, Player],
    ballots: int = 157,
    seed: int = 0,
) -> Placement:
    """Rate ``player`` on the ladder's scale from its matches against ``opponents`` (ladder players, their
    ratings in ``ratings`` held fixed) over the first ``ballots`` ballots."""
    starts = cm.start_positions(ballots)
    ms = {n: cm.match(player, o, starts, seed=seed) for n, o in opponents.items()}
    return placement(ratings, {n: m.pairs * 2 for n, m in ms.items()}, ms)


def placement(ratings: Ratings, unit_points: dict[str, np.ndarray], matches: dict | None = None) -> Placement:
    """The :class:`Placement` of a newcomer's units against ladder players (points per ballot pair)."""
    elo, se = rate_against({n: ratings.of(n)[0] for n in unit_points}, unit_points)
    return Placement(elo, se, matches or {})


# ----------------------------------------------------------------------------- files and the command


def save(result: LadderResult, path: Path, command: str) -> None:
    """The ladder as a checkers archive (:func:`~tdbook.experiments.checkers.training.write`) and its sidecar."""
    meta = {"method": "ladder", "settings": result.spec.settings(), "pairs": [list(p) for p in result.pairs],
            "command": command, "code_version": code_version(),
            "agreement": {n: asdict(a) for n, a in result.agreement.items()}}  # fmt: skip
    tr.write(path, meta, {"as_black": result.as_black, "as_white": result.as_white, "plies": result.plies})
    r = result.ratings(reps=200)
    write_sidecar(path, {
        "command": command, "code_version": meta["code_version"], "settings": meta["settings"],
        "ratings_elo": {n: [round(x, 1) for x in r.of(n)] for n in r.order()},
        "book_agreement": {n: round(a.share, 4) for n, a in result.agreement.items()},
    })  # fmt: skip


def load(path: Path | None = None) -> LadderResult:
    """A ladder written by :func:`save` (default: the shipped one); ValueError naming the file otherwise."""
    p = Path(path) if path is not None else data_dir() / FILE
    meta, arrays = tr.read(p, "checkers ladder file")
    if meta.get("method") != "ladder":
        raise ValueError(f"{p} is not a checkers ladder file")
    s = meta["settings"]
    spec = LadderSpec(**{**s, "players": tuple(s["players"])})
    pairs = [tuple(x) for x in meta["pairs"]]
    ag = {n: Agreement(**a) for n, a in meta["agreement"].items()}
    out = LadderResult(spec, pairs, arrays["as_black"], arrays["as_white"], arrays["plies"], ag, meta)
    if out.as_black.shape != (len(pairs), spec.ballots):
        raise ValueError(f"{p}: as_black has shape {out.as_black.shape}, not {len(pairs)} pairs × {spec.ballots}")
    return out


def ladder(profile: str = "standard", progress: bool = True) -> LadderResult:
    """Notebook 02's ladder: the shipped result, or (full profile) the shipped command played again under
    ``build/full/data``."""
    if profile != "full":
        return load()
    return load(tr.rerun_shipped(FILE, "python -m tdbook.experiments.checkers.ladder", main, progress))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook.experiments.checkers.ladder …``: play the ladder and write it with its sidecar."""
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(
        prog="python -m tdbook.experiments.checkers.ladder", description=__doc__.split("\n")[0]
    )
    d = LadderSpec()
    ap.add_argument(
        "--players", nargs="+", default=None, help=f"players of the roster (default all: {', '.join(ROSTER)})"
    )
    ap.add_argument("--ballots", type=int, default=d.ballots, help="ballots, each played twice (max 157)")
    ap.add_argument(
        "--book-positions", type=int, default=d.book_positions, help="training positions of the book models"
    )
    ap.add_argument("--agreement-positions", type=int, default=d.agreement_positions, help="held-out positions")
    ap.add_argument("--rote-games", type=int, default=d.rote_games, help="self-play games of the rote store")
    ap.add_argument("--seed", type=int, default=d.seed, help="seed (book samples, the random mover)")
    tr.add_file_options(ap, FILE)
    a = ap.parse_args(argv)
    try:
        spec = LadderSpec(tuple(a.players or ()), a.ballots, a.book_positions, a.agreement_positions, a.rote_games,
                          a.seed)  # fmt: skip
    except ValueError as e:
        ap.error(str(e))
    out = tr.output_file(a.out, repo_root() / "build" / "checkers" / FILE, a.force, "checkers ladder")
    if out is None:
        return 2
    command = "python -m tdbook.experiments.checkers.ladder " + shlex.join(argv)
    with _cluster(a.workers):
        result = play(spec, a.profile, progress=not a.no_progress)
    save(result, out, command)
    r = result.ratings(reps=200)
    for n in r.order():
        e, lo, hi = r.of(n)
        print(f"{n:28s} {e:8.1f}  [{lo:8.1f}, {hi:8.1f}]  book {result.agreement[n].share:.3f}")
    print(f"wrote {out} and its sidecar")
    return 0


class _cluster:
    """A Dask LocalCluster of ``workers`` processes for the ladder's tasks (none for 1 worker)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers!r}")
        self.workers, self.client, self.cluster = workers, None, None

    def __enter__(self) -> _cluster:
        if self.workers > 1:
            from distributed import Client, LocalCluster

            self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                        dashboard_address=None)  # fmt: skip
            self.client = Client(self.cluster)
        return self

    def __exit__(self, *exc) -> None:
        if self.client is not None:
            self.client.close()
            self.cluster.close()


if __name__ == "__main__":
    raise SystemExit(main())
