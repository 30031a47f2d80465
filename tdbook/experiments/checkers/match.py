"""The match protocol of notebooks 02 and 01 (issue 16): every start position — by default the 157 ACF 3-move ballots —
played twice with the colours swapped; a player's score is (wins + draws/2) / games, with its standard error
from the per-ballot pairs (the two games of a ballot share its opening, so the pair is the independent unit).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.parallel import map_tasks
from ...games.checkers import Checkers, CheckersState, ballots
from ...players.checkers import Player, play_games
from ...results import Estimate


@dataclass(frozen=True)
class MatchResult:
    """``a`` against ``b``: per start, ``a``'s points as Black and as White (1 win, ½ draw, 0 loss), and the
    plies and nodes of all games."""

    a: str
    b: str
    as_black: np.ndarray
    as_white: np.ndarray
    plies: int = 0
    nodes: int = 0
    starts: tuple[str, ...] = field(default=(), repr=False)

    @property
    def pairs(self) -> np.ndarray:
        """``a``'s mean points per start (the two games of a ballot)."""
        return (self.as_black + self.as_white) / 2

    @property
    def games(self) -> int:
        return 2 * self.as_black.size

    @property
    def score(self) -> float:
        return float(self.pairs.mean())

    @property
    def stderr(self) -> float:
        p = self.pairs
        return float(p.std(ddof=1) / math.sqrt(p.size)) if p.size > 1 else float("nan")

    @property
    def wdl(self) -> tuple[int, int, int]:
        x = np.concatenate([self.as_black, self.as_white])
        return int((x == 1).sum()), int((x == 0.5).sum()), int((x == 0).sum())

    def estimate(self) -> Estimate:
        """The score as mean ± standard error (n = games) for a claim."""
        return Estimate(self.score, self.stderr, self.games)

    def swapped(self) -> MatchResult:
        """The same match from ``b``'s side."""
        return MatchResult(self.b, self.a, 1 - self.as_white, 1 - self.as_black, self.plies, self.nodes, self.starts)

    def text(self) -> str:
        w, d, lo = self.wdl
        return f"{self.a} v {self.b}: {100 * self.score:.1f}% ± {100 * self.stderr:.1f} (W {w}, D {d}, L {lo})"


def start_positions(n: int | None = None) -> list[tuple[str, CheckersState]]:
    """The first ``n`` of the 157 ballots (all when None)."""
    b = ballots()
    if n is not None and not 1 <= n <= len(b):
        raise ValueError(f"n must be in 1..{len(b)}, got {n!r}")
    return b if n is None else b[:n]


def match(
    a: Player,
    b: Player,
    starts: Sequence[tuple[str, CheckersState]] | None = None,
    *,
    game: Checkers | None = None,
    seed: int = 0,
    progress: bool = False,
    play: Callable[..., Sequence[Any]] = play_games,
) -> MatchResult:
    """``a`` against ``b`` from each start twice, ``a`` Black then White (module docstring).  ``play`` plays one
    game from each start, ``play(black, white, positions, seed=, game=, progress=)`` → records with ``result``
    (for Black), ``plies`` and ``nodes``: :func:`tdbook.players.checkers.play_games` (notebook 02's players) by
    default, :func:`tdbook.experiments.checkers.signature_tables_play.kernel_games` for notebook 01's."""
    st = list(starts) if starts is not None else start_positions()
    if not st:
        raise ValueError("a match needs at least one start position")
    pos = [s for _, s in st]
    first = play(a, b, pos, seed=seed, game=game, progress=progress)
    second = play(b, a, pos, seed=seed + 1, game=game, progress=progress)
    as_black = np.array([(1 + r.result) / 2 for r in first])
    as_white = np.array([(1 - r.result) / 2 for r in second])
    plies = sum(r.plies for r in first + second)
    nodes = sum(r.nodes for r in first + second)
    return MatchResult(a.name, b.name, as_black, as_white, plies, nodes, tuple(n for n, _ in st))


def table(
    players: Mapping[str, Player],
    starts: Sequence[tuple[str, CheckersState]] | None = None,
    *,
    game: Checkers | None = None,
    seed: int = 0,
    progress: bool = True,
) -> dict[tuple[str, str], MatchResult]:
    """Every player against every other (each unordered pair once): ``{(a, b): result for a}``."""
    names = list(players)
    pairs = [(x, y) for i, x in enumerate(names) for y in names[i + 1 :]]
    tasks = [(players[x], players[y], starts, game, seed) for x, y in pairs]
    # independent matches: spread over a Dask cluster when one is active (tdbook.core.parallel), same results
    return dict(zip(pairs, map_tasks(_match_task, tasks, desc="strength table", progress=progress)))


def _match_task(task: tuple) -> MatchResult:
    a, b, starts, game, seed = task
    return match(a, b, starts, game=game, seed=seed)


def score_matrix(results: Mapping[tuple[str, str], MatchResult], names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(score, s.e.) of the row player against the column player (NaN on the diagonal)."""
    n = len(names)
    sc = np.full((n, n), np.nan)
    se = np.full((n, n), np.nan)
    for (a, b), r in results.items():
        i, j = names.index(a), names.index(b)
        sc[i, j], se[i, j] = r.score, r.stderr
        sc[j, i], se[j, i] = 1 - r.score, r.stderr
    return sc, se
