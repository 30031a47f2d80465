"""Notebook 03's protocols, part 3: the search itself (Kenju thesis §4.8.5, Figs 4.19, 4.20, 4.24).

**Fig. 4.24** tabulates, for MAXDEADENDS 5 and NODEPATIENCE 1, 4 and 9, the number of paths tried per search
and how each path ended (node-loop, line-loop, place-loop dead end, or none).  The thesis does not say which
games it counted; it prints the table beside the training schemes' parameters (Fig. 4.23), so the searches
counted here are those of the six training schemes (every searching player: learners and opponents), with
MAX against MAX beside them.  Fig. 3.12 leaves open the order of the tests, what a node-loop is, whether
patience is reached or exceeded, whether a tie is an unsuccessful try and whether patience counts per path or
per search (:mod:`tdbook.players.kenju`); :func:`readings` runs every combination and ranks them by their distance
from the printed **NODEPATIENCE 1** column alone (:data:`CHOSEN_ON`).  The nearest is the notebook's reading — a
value fitted to that column — and the columns for NODEPATIENCE 4 and 9 (:data:`HELD_OUT`), never used in the
choice, test it.  The flow chart read word for word (:data:`LITERAL`) is kept as an option and shown beside.

**Figs 4.19–4.20** (lost) plotted the average time per move against MAXDEADENDS and NODEPATIENCE: "MAXDEADENDS
has the major effect on move search time because most search paths are dead-end paths".  Time here is counted
as work — moves valued per search — so the record is the same on every machine.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import numpy as np
from tqdm.auto import tqdm

from ...players.kenju import (
    NODE_LOOPS,
    ORDERS,
    PATIENCES,
    SCOPES,
    T_MOVE_EVALS,
    T_SEARCHES,
    TIE_TRIES,
    System3,
    cause_shares,
    max_player,
    path_histogram,
)
from ..common.checks import Checks, from_pairs
from .kenju import Measured, run_seed
from .play import match
from .training import SCHEMES, train_scheme

NODEPATIENCES = (1, 4, 9)
#: the column of Fig. 4.24 the reading is chosen on, and the columns that then test it
CHOSEN_ON, HELD_OUT = (1,), (4, 9)
#: Fig. 4.24 as printed: per NODEPATIENCE, searches trying 5, 4, 3, 2, 1 paths (%), and paths ending in a
#: node-loop, line-loop, place-loop or no dead end (%) — kept here only to rank the readings; the claims file
#: holds the values the notebook checks.
FIG_4_24_PATHS = {1: [78.1, 6.6, 5.0, 4.0, 6.3], 4: [82.7, 7.1, 4.6, 4.6, 1.0], 9: [90.1, 4.8, 2.2, 1.4, 1.4]}
FIG_4_24_CAUSES = {1: [67.0, 19.3, 1.0, 12.7], 4: [74.9, 14.4, 2.8, 7.9], 9: [76.8, 16.2, 1.5, 5.4]}
#: the flow chart read word for word: Box 2 → 3 → 4 → 5, a node-loop is a return to the best move to date,
#: patience reached, a tie is unsuccessful, "since the last successful try" over the whole search
LITERAL = {
    "check_order": "flowchart",
    "node_loop": "best",
    "patience": "reaches",
    "tie_try": "unsuccessful",
    "patience_scope": "search",
}
READING_KEYS = ("check_order", "node_loop", "patience", "tie_try", "patience_scope")


def all_readings() -> list[dict[str, str]]:
    return [
        dict(zip(READING_KEYS, combo)) for combo in itertools.product(ORDERS, NODE_LOOPS, PATIENCES, TIE_TRIES, SCOPES)
    ]


def reading_name(r: dict[str, str]) -> str:
    return " · ".join(r[k] for k in READING_KEYS)


@dataclass
class SearchStats:
    """Fig. 4.24's two tables (in %) for one reading, per NODEPATIENCE, and the searches behind them."""

    reading: dict[str, str]
    paths: dict[int, np.ndarray]  # NP → [5, 4, 3, 2, 1 paths] (%)
    causes: dict[int, np.ndarray]  # NP → [node, line, place, none] (%)
    searches: dict[int, int]

    def deviation(self, nodepatiences: tuple[int, ...] = NODEPATIENCES) -> float:
        """Total absolute difference from the printed table (percentage points, both tables) over the columns
        ``nodepatiences`` (all three by default)."""
        return float(
            sum(
                np.abs(self.paths[n] - FIG_4_24_PATHS[n]).sum() + np.abs(self.causes[n] - FIG_4_24_CAUSES[n]).sum()
                for n in nodepatiences
            )
        )

    def choice_key(self) -> tuple[float, float]:
        """How :func:`readings` ranks the readings: the distance from the :data:`CHOSEN_ON` column, then (only to
        break an exact tie) from the whole figure."""
        return (round(self.deviation(CHOSEN_ON), 9), self.deviation())


def search_stats(
    reading: dict[str, str], runs: int, seed: int, source: str = "schemes", moves: int = 200, games: int = 100
) -> SearchStats:
    """Fig. 4.24 under ``reading``: the searches of ``runs`` runs of the six schemes (``source="schemes"``) or of
    ``games`` MAX vs MAX games (``"max"``), MAXDEADENDS 5."""
    paths, causes, searches = {}, {}, {}
    for npat in NODEPATIENCES:
        cfg = replace(System3(maxdeadends=5, nodepatience=npat), **reading)
        tot = 0
        if source == "schemes":
            for r in range(runs):
                wa = None
                for s in SCHEMES:
                    run = train_scheme(s, moves, run_seed(seed, f"fig4.24-scheme{s}", r), wa, search=cfg)
                    if s == 1:
                        wa = run.white[min(139, moves - 1)].copy()
                    tot = tot + run.games.stats.sum(0) + run.games.wstats.sum(0)
        elif source == "max":
            g = match(max_player(cfg), max_player(cfg), games, seed=run_seed(seed, "fig4.24-max"))
            tot = g.stats.sum(0)
        else:
            raise ValueError(f"source must be 'schemes' or 'max', got {source!r}")
        paths[npat] = 100 * path_histogram(tot, 5)[::-1]
        causes[npat] = 100 * cause_shares(tot)
        searches[npat] = int(tot[T_SEARCHES])
    return SearchStats(reading, paths, causes, searches)


def readings(which: str, runs: int, seed: int, source: str = "schemes", progress: bool = True) -> list[SearchStats]:
    """Fig. 4.24 under every reading (``which="all"``) or under the default and the literal one (``"closest"``),
    nearest the printed NODEPATIENCE 1 column first (:meth:`SearchStats.choice_key`)."""
    if which == "all":
        todo = all_readings()
    elif which == "closest":
        default = {k: getattr(System3(), k) for k in READING_KEYS}
        todo = [default] + ([LITERAL] if LITERAL != default else [])
    else:
        raise ValueError(f"which must be 'all' or 'closest', got {which!r}")
    out = [
        search_stats(r, runs, seed, source)
        for r in tqdm(todo, desc=f"Fig. 4.24 readings ({source})", disable=not progress, leave=False)
    ]
    return sorted(out, key=SearchStats.choice_key)


def reading_rows(found: list[SearchStats], top: int = 10) -> tuple[list[str], list[list[str]]]:
    """The notebook's table of readings (in :func:`readings`' order, the first ``top`` and the literal one):
    distance from the column each was chosen on, from the held-out columns and from the whole figure."""
    rows = [r for i, r in enumerate(found) if i < top or r.reading == LITERAL]
    header = [
        "reading (order · node-loop · patience · tie · scope)",
        "NP 1: chosen on (points)",
        "NP 4 and 9: held out (points)",
        "whole figure (points)",
    ]
    return header, [
        [
            reading_name(r.reading) + (" — the flow chart word for word" if r.reading == LITERAL else ""),
            f"{r.deviation(CHOSEN_ON):.1f}",
            f"{r.deviation(HELD_OUT):.1f}",
            f"{r.deviation():.1f}",
        ]
        for r in rows
    ]


# ----------------------------------------------------------------------------- Figs 4.19–4.20


@dataclass
class Work:
    """Moves valued per search (the time of a move, counted) against MAXDEADENDS and against NODEPATIENCE."""

    values: list[int]
    by_maxdeadends: np.ndarray  # NODEPATIENCE at Fig. 4.23's 4
    by_nodepatience: np.ndarray  # MAXDEADENDS at Fig. 4.23's 5

    def effect(self) -> tuple[float, float]:
        """How much each parameter changes the work over its range: (MAXDEADENDS, NODEPATIENCE), as max / min."""
        return (
            float(self.by_maxdeadends.max() / self.by_maxdeadends.min()),
            float(self.by_nodepatience.max() / self.by_nodepatience.min()),
        )


def work_per_move(values: list[int], games: int, seed: int) -> Work:
    """MAX vs MAX games (Fig. 4.23's search, the notebook's reading) sweeping each parameter over ``values``."""

    def work(cfg: System3) -> float:
        g = match(max_player(cfg), max_player(cfg), games, seed=run_seed(seed, "fig4.19"))
        st = g.stats.sum(0)
        return float(st[T_MOVE_EVALS] / max(1, st[T_SEARCHES]))

    by_md = np.array([work(System3(maxdeadends=v)) for v in tqdm(values, desc="Fig. 4.19", leave=False)])
    by_np = np.array([work(System3(nodepatience=v)) for v in tqdm(values, desc="Fig. 4.20", leave=False)])
    return Work(list(values), by_md, by_np)


__all__ = [
    "CHOSEN_ON",
    "HELD_OUT",
    "LITERAL",
    "NODEPATIENCES",
    "SearchStats",
    "readings",
    "search_stats",
    "work_per_move",
]

_ = PATIENCES  # the readings' choices are those of tdbook.players.kenju


def _shares(st: SearchStats, n: int) -> str:
    return f"paths {np.round(st.paths[n], 1).tolist()}, causes {np.round(st.causes[n], 1).tolist()}"


def claims_deadends(best: SearchStats, others: list[SearchStats]) -> Checks:
    """Fig. 4.24 under ``best``, the reading chosen on the NODEPATIENCE 1 column: that column is what it was
    fitted to, NODEPATIENCE 4 and 9 test it; the choice and the literal flow chart beside."""
    out: Measured = {}
    for n in NODEPATIENCES:
        role = "fitted: the reading was chosen on this column" if n in CHOSEN_ON else "held out of the choice"
        out[f"fig4.24-np{n}-paths"] = (
            [round(float(v), 3) for v in best.paths[n]],
            f"searches trying 5, 4, 3, 2, 1 paths (%), {best.searches[n]:,} searches; {role}",
        )
        out[f"fig4.24-np{n}-causes"] = (
            [round(float(v), 3) for v in best.causes[n]],
            f"paths ending in a node-loop, line-loop, place-loop, no dead end (%); {role}",
        )
    every = [best, *others]
    overall = min(every, key=SearchStats.deviation)
    held = best.deviation(HELD_OUT)
    out["fig4.24-closest-reading"] = (
        reading_name(best.reading),
        f"the nearest of {len(every)} readings to the NODEPATIENCE 1 column ({best.deviation(CHOSEN_ON):.1f} points "
        f"over both tables; held-out columns 4 and 9: {held:.1f})"
        + (
            f"; the nearest to the whole figure, {reading_name(overall.reading)} (chosen on all three columns, "
            f"a fit to them), is off by {overall.deviation(CHOSEN_ON):.1f} and {overall.deviation(HELD_OUT):.1f}"
            if overall is not best
            else ""
        ),
    )
    lit = [o for o in every if o.reading == LITERAL]
    if lit:
        L = lit[0]
        out["fig4.24-literal"] = (
            [round(float(L.paths[n][0]), 1) for n in NODEPATIENCES],
            f"the flow chart word for word ({reading_name(LITERAL)}): 5-path searches at NODEPATIENCE 1, 4, 9 (%); "
            + "; ".join(f"NP {n}: {_shares(L, n)}" for n in NODEPATIENCES)
            + f"; {L.deviation(CHOSEN_ON):.1f} points from the NODEPATIENCE 1 column, {L.deviation(HELD_OUT):.1f} "
            "from 4 and 9",
        )
    return from_pairs(out)


def claims_work(w: Work) -> Checks:
    md, npat = w.effect()
    measured: Measured = {
        "fig4.19-maxdeadends-dominates": (
            bool(md > npat),
            f"moves valued per search rise {md:.2f}× over MAXDEADENDS {w.values[0]}–{w.values[-1]} and {npat:.2f}× "
            "over NODEPATIENCE",
        ),
    }
    return from_pairs(measured)
