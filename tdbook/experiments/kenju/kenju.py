"""Notebook 03's protocols, part 1: knobs, the MAX table (Fig. 4.14), the evaluation maps (Figs 4.16–4.18) and the
attacking / defending modes (Figs 4.13, 4.15) of the Kenju thesis.

Every function returns data; figures are in :mod:`tdbook.plots.kenju`.  Seeds: run ``r`` of experiment
``label`` uses :func:`run_seed` ``(SEED, label, r)``, a stable hash, so adding an experiment never changes
another one's numbers.  The learning schemes and performance graphs are in
:mod:`tdbook.experiments.kenju.training`, the search statistics in :mod:`tdbook.experiments.kenju.search`,
Systems 1 and 2 in :mod:`tdbook.experiments.kenju.ram`.

Notebook 03 uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):

- What we found: ``config``
- 1. The game and its line-list (§2.1–2.2): ``example_position``
- 2. The fully trained line evaluation element MAX (Fig. 4.14): ``claims_fig_4_14``
- 3. The move evaluation heuristic on one position (Figs 4.16–4.18): ``grid_text``, ``claims_value_maps``
- 4. Attacking and defending (Fig. 4.13) and CONFIDENCE (Fig. 4.15): ``all_modes``, ``dynamic_modes``, ``run_seed``,
  ``claims_modes``, ``confidence_trace``
- 5. Learning the line table (Figs 4.8–4.11, 4.21–4.23): ``best_line_learning``, ``fig_4_14``
- 8. Systems 1, 2 and 4: ``discriminate_and_teach``
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ...claims import Estimate
from ...claims import table as claims_table
from ...core import profiles
from ...games.kenju import (
    BLACK_WINS,
    DRAW,
    MAX_PLACES,
    N_CELLS,
    WHITE,
    WHITE_WINS,
    board_text,
    cell_of,
    line_pattern,
    lines_through,
    new_board,
    place,
    useful_moves,
    x_of,
    y_of,
)
from ...learners.kenju_line_table import (
    EFFECTS,
    FIG_4_14_ROWS,
    MAX,
    N_PATTERNS,
    REACHABLE,
    dense_ranks,
    is_mirror_symmetric,
    learnable_limit,
    mirror,
    mirror_classes,
    move_value,
    thresholds,
)
from ...learners.kenju_line_table import best_line_learning as best_line_learning  # the rule §5 shows
from ...learners.ram_net import discriminate_and_teach as discriminate_and_teach  # the net §8 shows
from ...players.kenju import Player, System3, max_player
from ..common.checks import Checks, from_pairs
from .play import R_ATT, R_CONF, R_DEF, R_INTEREST, R_SIDE, Games, board_for, match, run

#: Profile defaults for notebook 03 (see :func:`config`)
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "MODE_GAMES": 200,
        "SCHEME_RUNS": 6,
        "TRAIN_MOVES": 200,
        "WA_MOVES": 140,
        "LONG_MOVES": 1000,
        "LONG_RUNS": 2,
        "PERF_REPLICATES": 4,
        "PERF_TEST_GAMES": 10,
        "POWERED_TEST_GAMES": 40,
        "POWERED_REPLICATES": 2,
        "FIG45_TESTS": 16,
        "FIG45_REPEATS": 20,
        "FIG45_POWERED_GAMES": 2000,
        "SEARCH_GAMES": 30,
        "SEARCH_READINGS": "closest",
        "TIME_GAMES": 20,
        "SWEEP": [1, 3, 5, 7, 9],
        "SYS1_GAMES": 60,
        "SYS1_RUNS": 2,
        "SYS2_GAMES": 20,
        "SYS2_RUNS": 2,
        "SYS4_RUNS": 4,
    },
    "standard": {
        "MODE_GAMES": 2000,
        "SCHEME_RUNS": 100,
        "TRAIN_MOVES": 200,
        "WA_MOVES": 140,
        "LONG_MOVES": 5000,
        "LONG_RUNS": 20,
        "PERF_REPLICATES": 100,
        "PERF_TEST_GAMES": 10,
        "POWERED_TEST_GAMES": 400,
        "POWERED_REPLICATES": 10,
        "FIG45_TESTS": 16,
        "FIG45_REPEATS": 500,
        "FIG45_POWERED_GAMES": 20000,
        "SEARCH_GAMES": 300,
        "SEARCH_READINGS": "all",
        "TIME_GAMES": 200,
        "SWEEP": [1, 2, 3, 4, 5, 6, 7, 8, 9],
        "SYS1_GAMES": 600,
        "SYS1_RUNS": 10,
        "SYS2_GAMES": 200,
        "SYS2_RUNS": 5,
        "SYS4_RUNS": 100,
    },
    "full": {
        "MODE_GAMES": 10000,
        "SCHEME_RUNS": 400,
        "TRAIN_MOVES": 200,
        "WA_MOVES": 140,
        "LONG_MOVES": 20000,
        "LONG_RUNS": 50,
        "PERF_REPLICATES": 400,
        "PERF_TEST_GAMES": 10,
        "POWERED_TEST_GAMES": 1000,
        "POWERED_REPLICATES": 50,
        "FIG45_TESTS": 16,
        "FIG45_REPEATS": 2000,
        "FIG45_POWERED_GAMES": 100000,
        "SEARCH_GAMES": 1000,
        "SEARCH_READINGS": "all",
        "TIME_GAMES": 1000,
        "SWEEP": [1, 2, 3, 4, 5, 6, 7, 8, 9],
        "SYS1_GAMES": 2000,
        "SYS1_RUNS": 20,
        "SYS2_GAMES": 600,
        "SYS2_RUNS": 20,
        "SYS4_RUNS": 400,
    },
}


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 03's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    for name, v in cfg.items():
        if isinstance(v, int) and not isinstance(v, bool) and v < 1:
            raise ValueError(f"{name} must be >= 1, got {v!r}")
    if cfg.WA_MOVES > cfg.TRAIN_MOVES:
        raise ValueError(f"WA_MOVES ({cfg.WA_MOVES}) must be at most TRAIN_MOVES ({cfg.TRAIN_MOVES})")
    if cfg.SEARCH_READINGS not in ("closest", "all"):
        raise ValueError(f"SEARCH_READINGS must be 'closest' or 'all', got {cfg.SEARCH_READINGS!r}")
    if not cfg.SWEEP or any(not isinstance(v, int) or v < 1 for v in cfg.SWEEP):
        raise ValueError(f"SWEEP must be a list of ints >= 1, got {cfg.SWEEP!r}")
    if cfg.SCHEME_RUNS < 2 or cfg.PERF_REPLICATES < 2:
        raise ValueError("SCHEME_RUNS and PERF_REPLICATES must be >= 2 (spreads need two runs)")
    return cfg


def run_seed(seed: int, label: str, replicate: int = 0) -> int:
    """The seed of replicate ``replicate`` of experiment ``label`` (stable across code changes elsewhere)."""
    return (int(seed) * 1_000_003 + zlib.crc32(label.encode()) * 101 + replicate) % (1 << 62)


def estimate(x: Any) -> tuple[float, float, int]:
    """(mean, standard error, n) of a sample."""
    a = np.asarray(x, dtype=float).ravel()
    se = float(a.std(ddof=1) / np.sqrt(a.size)) if a.size > 1 else 0.0
    return float(a.mean()), se, int(a.size)


#: The chapter's findings (``tdbook.findings``): claim id → the statement, in the order a reader should meet them.
FINDINGS: dict[str, str] = {
    "fig4.11-asymptote": "learning from the teacher, the line tables climb towards the fully trained table's total",
    "fig4.13a-defending-no-win": "with both players defending, each blocks the other and neither forms a winning line",
    "fig4.24-np4-paths": "the search's dead-end statistics: how many paths it tries per move (node patience 4)",
    "appC-combinations": "only the 71 line-code combinations of Appendix C can occur",
    "sys2-saturation-relieved": "detraining first relieves the saturation of System 2's RAM net",
    "sys4-faster": "System 4, asking about moves instead of lines, learns faster than System 3",
}


# ----------------------------------------------------------------------------- §1 the game


def example_position(seed: int, stones: int = 14) -> dict[str, Any]:
    """The position after ``stones`` moves of a MAX vs MAX game (Fig. 4.23's search): its moves, line-list (as
    ``(x0, y0, direction, colour, pattern)``), place-table size and the thesis-style text board."""
    from ...games.kenju import line_list, reset

    m = max_player()
    g = run(m, m, games=1, seed=run_seed(seed, "example"), keep_moves=1)
    n = min(stones, int(g.lengths[0]))
    b = new_board()
    reset(b)
    for c in g.moves[0][:n].tolist():
        place(b, c)
    moves = [(int(x_of(c)), int(y_of(c))) for c in g.moves[0][:n].tolist()]
    lines = line_list(b)
    return {
        "moves": moves,
        "lines": lines,
        "white_lines": sum(c == WHITE for _, _, _, c, _ in lines),
        "places": int(b.meta[4]),
        "text": board_text(moves, numbers=True),
    }


# ----------------------------------------------------------------------------- §2 Fig. 4.14


def fig_4_14() -> dict[str, Any]:
    """The MAX table as the code uses it, and its properties."""
    classes = mirror_classes()
    values = MAX.copy()
    levels = sorted(set(values.tolist()))
    one_class_per_level = all(len({c for c in classes if values[c[0]] == v}) == 1 for v in levels)
    limit = learnable_limit()
    return {
        "values": values.tolist(),
        "by_pattern": [int(values[a]) for _, a, _ in FIG_4_14_ROWS],
        "printed_by_pattern": [v for _, _, v in FIG_4_14_ROWS],
        "patterns": [p for p, _, _ in FIG_4_14_ROWS],
        "total": int(values.sum()),
        "symmetric": bool(is_mirror_symmetric(values)),
        "n_classes": len(classes),
        "dense": bool(levels == list(range(len(classes))) and one_class_per_level),
        "ties_are_mirror_pairs": all(
            values[p] != values[q] or q in (p, int(mirror(p))) for p in range(N_PATTERNS) for q in range(N_PATTERNS)
        ),
        "reachable": REACHABLE.copy(),
        "reachable_total": int(values[REACHABLE].sum()),
        "unreachable": [p for p in range(N_PATTERNS) if not REACHABLE[p]],
        "limit": limit,
        "limit_total": int(limit.sum()),
        "ranks_reachable": dense_ranks(values, REACHABLE),
    }


def reachable_in_play(seed: int, games: int = 300) -> np.ndarray:
    """Which patterns Box 6 ever evaluates in play (every pattern of every live line through a vacant point, over
    ``games`` MAX vs MAX games): the enumeration behind "only 297 is reachable"."""
    m = max_player()
    g = match(m, m, games, seed=seed, keep_moves=games)
    b = new_board()
    buf = np.zeros(MAX_PLACES, dtype=np.int32)
    lines = np.zeros(20, dtype=np.int32)
    seen = np.zeros(N_PATTERNS, dtype=bool)
    from ...games.kenju import reset

    for row, n in zip(g.moves, g.lengths):
        reset(b)
        for c in row[:n].tolist():
            k = useful_moves(b, buf)
            for cell in buf[:k].tolist():
                for w in lines[: lines_through(b, cell, lines)].tolist():
                    seen[line_pattern(b, w, cell)] = True
            place(b, c)
    return seen


# ----------------------------------------------------------------------------- §3 Figs 4.16–4.18

#: the position of Figs 4.16–4.18, decoded from the three value grids (White has an open four on the diagonal)
POSITION_4_16 = {
    "white": [(-2, -2), (-1, -1), (0, 0), (1, 1), (-1, 0), (1, 2)],
    "black": [(-2, 2), (-2, 1), (-2, -1), (0, -2), (2, -2), (3, -1)],
}
#: the moves marked in the figures: a open three, b two crossing threes, c completes five (§4.8.4.1)
MARKED = {"a": (1, 3), "b": (1, 0), "c": (-3, -3)}
FIGURES = {"fig4_16": "A", "fig4_17": "B", "fig4_18": "percentage"}
GRID_X = range(-6, 8)
GRID_Y = range(6, -7, -1)


def position_board():
    """A board holding the position of Figs 4.16–4.18 (White to move)."""
    b = board_for(20)
    from ...games.kenju import reset

    reset(b)
    for w, bl in zip(POSITION_4_16["white"], POSITION_4_16["black"]):
        place(b, cell_of(*w))
        place(b, cell_of(*bl))
    return b


def evaluation_grid(effect: str, table: np.ndarray = MAX) -> dict[tuple[int, int], int]:
    """Every candidate point (vacant, on a live line) of the position valued under ``effect`` (A–D, percentage)."""
    if effect not in EFFECTS:
        raise ValueError(f"effect must be one of {', '.join(EFFECTS)}, got {effect!r}")
    b = position_board()
    med, out = thresholds(table, EFFECTS[effect])
    buf = np.zeros(MAX_PLACES, dtype=np.int32)
    n = useful_moves(b, buf)
    return {(int(x_of(c)), int(y_of(c))): int(move_value(b, table, int(c), med, out)) for c in buf[:n].tolist()}


def printed_rows(effect: str) -> dict[int, list[int]]:
    """Our grid as the thesis prints it: per row, the tokens left to right (a stone -1 for W, -2 for B); the
    percentage figure leaves points valued 0 blank."""
    g = evaluation_grid(effect)
    white, black = set(POSITION_4_16["white"]), set(POSITION_4_16["black"])
    rows = {}
    for y in GRID_Y:
        toks = []
        for x in GRID_X:
            if (x, y) in white:
                toks.append(-1)
            elif (x, y) in black:
                toks.append(-2)
            elif (x, y) in g and not (effect == "percentage" and g[(x, y)] == 0):
                toks.append(g[(x, y)])
        rows[y] = toks
    return rows


def transcribed_rows(figure: str) -> dict[int, tuple[int, int]]:
    """For each row of a transcribed figure: (first, last) 1-based rows of its table (the claims' selections)."""
    _, rows = claims_table("kenju", figure)
    out: dict[int, tuple[int, int]] = {}
    for i, (y, _, _) in enumerate(rows.tolist(), 1):
        lo, _ = out.get(int(y), (i, i))
        out[int(y)] = (lo, i)
    return out


def marked_moves() -> dict[str, dict[str, int]]:
    """The values of a, b, c and the best value on the board, per effect."""
    out = {}
    for effect in FIGURES.values():
        g = evaluation_grid(effect)
        out[effect] = {k: g[p] for k, p in MARKED.items()} | {"best": max(g.values()), "argbest": max(g, key=g.get)}
    return out


def grid_text(effect: str) -> str:
    """The value map as text (Fig. 4.16's layout: '.' for a point that is not a candidate)."""
    g = evaluation_grid(effect)
    white, black = set(POSITION_4_16["white"]), set(POSITION_4_16["black"])
    lines = []
    for y in GRID_Y:
        cells = []
        for x in GRID_X:
            p = (x, y)
            cells.append("W" if p in white else "B" if p in black else str(g[p]) if p in g else ".")
        lines.append(f"{y:>3} " + "".join(c.rjust(5) for c in cells))
    lines.append("    " + "".join(str(x).rjust(5) for x in GRID_X))
    return "\n".join(lines)


# ----------------------------------------------------------------------------- §4 Fig. 4.13, Fig. 4.15

MODE_PAIRS = {
    "a": ("defending", "defending"),
    "b": ("attacking", "attacking"),
    "c": ("attacking", "defending"),
    "d": ("defending", "attacking"),
    "n": ("neither", "neither"),  # not in the thesis: the modes ignored, every line searched (the baseline)
}


@dataclass
class ModeResult:
    """MAX vs MAX games with fixed modes (Fig. 4.13 a–d): results, and how each side's moves used the lines."""

    label: str
    modes: tuple[str, str]
    games: Games
    build: tuple[float, float]  # share of each side's moves that extend one of its own live lines
    block: tuple[float, float]  # share that land on a live line of the opponent's
    longest: np.ndarray  # per game and side: the most stones of the side in one live line at the end

    @property
    def counts(self) -> dict[str, int]:
        return self.games.counts()


def move_roles(games: Games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each side: share of its moves that extend its own live lines, share that block the opponent's lines,
    and per game the most stones of its colour in one live line at the end (games × 2)."""
    b = new_board()
    from ...games.kenju import line_colour, reset

    build = np.zeros(2)
    block = np.zeros(2)
    count = np.zeros(2)
    longest = np.zeros((len(games.lengths), 2))
    lines = np.zeros(20, dtype=np.int32)
    for gi, (row, n) in enumerate(zip(games.moves, games.lengths)):
        reset(b)
        for i, c in enumerate(row[:n].tolist()):
            s = i % 2
            if i > 0:
                own = WHITE if s == 0 else 3 - WHITE
                k = lines_through(b, c, lines)
                cols = [int(line_colour(b, int(w))) for w in lines[:k]]
                build[s] += own in cols
                block[s] += any(col != own for col in cols)
                count[s] += 1
            place(b, c)
        for s in range(2):
            best = 0
            for i in range(int(b.meta[0])):
                w = int(b.lines[i])
                if int(line_colour(b, w)) == s + 1:
                    best = max(best, int(b.count[s, w]))
            longest[gi, s] = best
    return build / np.maximum(count, 1), block / np.maximum(count, 1), longest


def mode_games(label: str, games: int, seed: int, player: Player | None = None, cap: int = 20) -> ModeResult:
    """Fig. 4.13 (a)–(d): MAX vs MAX with fixed DEFENDING / ATTACKING; (e) dynamic modes with ``player``; (n), not
    in the thesis, MAX vs MAX with both modes off (every line searched): what (a)–(d) would give if the modes did
    nothing."""
    base = player or max_player()
    if label == "e":
        modes = ("dynamic", "dynamic")
    elif label in MODE_PAIRS:
        modes = MODE_PAIRS[label]
    else:
        raise ValueError(f"label must be one of a, b, c, d, e, n, got {label!r}")
    w, bl = base.with_(modes=modes[0]), base.with_(modes=modes[1])
    g = match(w, bl, games, seed=run_seed(seed, f"fig4.13{label}"), keep_moves=games, cap=cap)
    build, block, longest = move_roles(g)
    return ModeResult(label, modes, g, tuple(build), tuple(block), longest)


def all_modes(games: int, seed: int, wa140: Player, cap: int = 20) -> dict[str, ModeResult]:
    out = {}
    for label in tqdm(["a", "b", "c", "d", "e", "n"], desc="Fig. 4.13 modes", leave=False):
        out[label] = mode_games(label, games, seed, player=wa140 if label == "e" else None, cap=cap)
    return out


@dataclass
class Trace:
    """One game's moves with each mover's CONFIDENCE, INTEREST and modes before the move (Fig. 4.15)."""

    moves: list[tuple[int, int]]
    side: np.ndarray
    confidence: np.ndarray
    interest: np.ndarray
    defending: np.ndarray
    attacking: np.ndarray
    result: int

    def text(self) -> str:
        return board_text(self.moves, numbers=True)


def confidence_trace(player: Player, seed: int) -> Trace:
    """A game of ``player`` against itself with dynamic modes (Fig. 4.13(e) is WA.140 vs WA.140) and its trace."""
    from ...core.rng import make_state
    from ...games.kenju import MAX_STONES, n_moves
    from ...players.kenju import N_STATE, N_STATS
    from .play import N_TRACE, History, Sides, _arrays, play_game

    b = board_for(20)
    p = player.with_(learning=False, modes="dynamic")
    tables, pars = _arrays((p, p))
    states = np.zeros((2, N_STATE))
    trace = np.zeros((MAX_STONES, N_TRACE))
    z2 = np.zeros((2, N_PATTERNS), dtype=np.int64)
    players = Sides(tables, pars, states, np.zeros((2, N_STATS), dtype=np.int64))
    nobody = Sides(z2, np.zeros((2, pars.shape[1])), np.zeros((2, N_STATE)), np.zeros((2, N_STATS), dtype=np.int64))
    unrecorded = History(
        np.zeros(2, dtype=np.bool_), np.zeros((2, 1, N_PATTERNS), dtype=np.int64), np.zeros(2, np.int64)
    )
    st = play_game(
        b, players, np.zeros(2, dtype=np.bool_), nobody, MAX.copy(), make_state(run_seed(seed, "fig4.15")), unrecorded,
        trace, np.empty(MAX_PLACES, dtype=np.int32), np.zeros(N_CELLS, dtype=np.int8),
    )  # fmt: skip
    n = int(n_moves(b))
    moves = [(int(x_of(c)), int(y_of(c))) for c in b.moves[:n].tolist()]
    t = trace[:n]
    return Trace(
        moves, t[:, R_SIDE].astype(int), t[:, R_CONF], t[:, R_INTEREST], t[:, R_DEF] > 0, t[:, R_ATT] > 0, int(st)
    )


def dynamic_modes(player: Player, games: int, seed: int) -> dict[str, Any]:
    """Dynamic DEFENDING/ATTACKING over ``games`` games of ``player`` against itself: the share of games showing
    both defending-only and attacking-only moves, and the shares of moves in each mode."""
    flags = np.zeros(games, dtype=bool)
    counts = np.zeros(4)  # defending only, attacking only, both, neither
    for g in range(games):
        t = confidence_trace(player, seed + 7919 * g)
        d, a = t.defending[1:], t.attacking[1:]
        flags[g] = bool(np.any(d & ~a) and np.any(a & ~d))
        counts += [np.sum(d & ~a), np.sum(a & ~d), np.sum(d & a), np.sum(~d & ~a)]
    return {
        "flags": flags,
        "defending": counts[0] / counts.sum(),
        "attacking": counts[1] / counts.sum(),
        "both_on": counts[2] / counts.sum(),
        "neither": counts[3] / counts.sum(),
    }


RESULT_NAMES = {WHITE_WINS: "White", BLACK_WINS: "Black", DRAW: "draw"}
DEFAULT_SYSTEM3 = System3()


# ----------------------------------------------------------------------------- the claims' measured values

Measured = dict[str, tuple[Any, str]]


def share_estimate(flags: Any) -> Estimate:
    """A proportion with its binomial standard error."""
    x = np.asarray(flags, dtype=float).ravel()
    p = float(x.mean())
    return Estimate(p, float(np.sqrt(max(p * (1 - p), 0.25 / x.size) / x.size)), int(x.size))


def difference(a: Any, b: Any) -> Estimate:
    """mean(a) − mean(b) with the standard error of a difference of independent means."""
    ma, sa, na = estimate(a)
    mb, sb, nb = estimate(b)
    return Estimate(ma - mb, float(np.hypot(sa, sb)), na + nb)


def claims_fig_4_14(seed: int, games: int) -> Checks:
    f = fig_4_14()
    seen = reachable_in_play(run_seed(seed, "reachable"), games)
    measured: Measured = {
        "fig4.14-values": (f["values"], "the table the code teaches with, by address"),
        "fig4.14-by-pattern": (f["by_pattern"], "the by-address column read in the order of the by-pattern column"),
        "fig4.14-total": (f["total"], "sum of the 32 values"),
        "fig4.14-mirror-symmetric": (f["symmetric"], "MAX[p] = MAX[mirror p] for all 32 patterns"),
        "fig4.14-dense-ranks": (
            f["dense"] and f["ties_are_mirror_pairs"],
            f"{f['n_classes']} mirror classes, values 0–{max(f['values'])}, every tie a mirror pair",
        ),
        "fig4.11-asymptote": (
            f["limit_total"],
            f"the most the rule can reach with MAX teaching: a pattern climbs only over an equal one it beats, so "
            f"L ≤ its dense rank among the {int(REACHABLE.sum())} patterns met in play; MAX's total {f['total']}",
        ),
        "reachable-total": (
            f["reachable_total"],
            f"MAX summed over the patterns with ≥ 2 X (patterns {f['unreachable']} have fewer: a live line holds a "
            "stone and the '?' adds one)",
        ),
        "reachable-seen-in-play": (
            int(seen.sum()),
            f"patterns Box 6 met over {games} MAX vs MAX games, all among the {int(REACHABLE.sum())} reachable: "
            f"{bool(np.all(~seen | REACHABLE))}",
        ),
    }
    return from_pairs(measured)


def grid_comparison(figure: str, effect: str | None = None) -> tuple[list[float], str]:
    """Our grid under ``effect`` (the figure's own by default) as the printed tokens of ``figure``, row by row (a
    row of another length is cut or padded with NaN, so it differs instead of failing), and a note: tokens
    compared, the largest absolute difference and the rows that differ."""
    _, printed = claims_table("kenju", figure)
    ours_rows = printed_rows(effect or FIGURES[figure])
    flat: list[float] = []
    worst, bad = 0.0, []
    for y, (lo, hi) in transcribed_rows(figure).items():
        want = printed[lo - 1 : hi, 2].tolist()
        got: list[float] = list(ours_rows[y][: len(want)]) + [float("nan")] * (len(want) - len(ours_rows[y]))
        diff = [abs(a - b) for a, b in zip(got, want)]
        if len(ours_rows[y]) != len(want) or not all(d <= 0 for d in diff):
            bad.append(f"y = {y:+d}" + ("" if len(ours_rows[y]) == len(want) else f" ({len(ours_rows[y])} tokens)"))
        worst = max([worst, *[d for d in diff if not math.isnan(d)]])
        flat += got
    note = (
        f"{len(flat)} printed tokens (values, W −1, B −2) row by row; largest absolute difference {worst:g}; rows "
        f"that differ: {', '.join(bad) if bad else 'none'}"
    )
    return flat, note


def claims_value_maps() -> Checks:
    out: Measured = {f"{fig.replace('_', '.')}-grid": grid_comparison(fig) for fig in FIGURES}
    m = marked_moves()
    a, b_, p = m["A"], m["B"], m["percentage"]
    out["fig4.16-c-best"] = (a["c"] == a["best"], f"c = {a['c']}, best {a['best']} (also at (2, 2))")
    out["fig4.16-b-no-more-than-a"] = (a["b"] <= a["a"], f"a = {a['a']}, b = {a['b']}")
    out["fig4.17-b-above-a-c-not-best"] = (
        b_["b"] > b_["a"] and b_["c"] < b_["best"],
        f"a = {b_['a']}, b = {b_['b']}, c = {b_['c']}, best {b_['best']} at {b_['argbest']}",
    )
    out["fig4.18-c-best-and-b-above-a"] = (
        p["c"] == p["best"] and p["b"] > p["a"],
        f"a = {p['a']}, b = {p['b']}, c = {p['c']}, best {p['best']}",
    )
    return from_pairs(out)


def claims_modes(modes: dict[str, ModeResult], dynamic: dict[str, float], games: int) -> Checks:
    r = {k: v.games.results for k, v in modes.items()}
    la, lc, ld = modes["a"].longest, modes["c"].longest, modes["d"].longest
    rn = r["n"]
    base = (
        f"with the modes off (every line searched) {np.mean(rn == DRAW):.0%} stop at the cap and White wins "
        f"{np.mean(rn == WHITE_WINS):.0%}"
    )
    measured: Measured = {
        "fig4.13a-defending-no-win": (
            share_estimate(r["a"] == DRAW),
            f"share of {games} MAX vs MAX games, both DEFENDING, stopped at the cap without five (longest lines "
            f"{la.mean(0).round(2).tolist()}); {base}",
        ),
        "fig4.13b-attacking-first-wins": (
            share_estimate(r["b"] == WHITE_WINS),
            f"share of White wins, both ATTACKING ({int(np.sum(r['b'] == BLACK_WINS))} Black wins, "
            f"{int(np.sum(r['b'] == DRAW))} at the cap); {base}"
            + (
                ": White's majority is the first move's advantage, not the mode's"
                if np.mean(rn == WHITE_WINS) > 0.5
                else ""
            ),
        ),
        "fig4.13cd-attacker-builds": (
            difference(np.concatenate([lc[:, 0], ld[:, 1]]), np.concatenate([lc[:, 1], ld[:, 0]])),
            f"most stones in one live line at the end, the ATTACKING side − the DEFENDING side over (c) and (d): "
            f"(c) {float(np.mean(lc[:, 0] - lc[:, 1])):+.2f}, (d) {float(np.mean(ld[:, 1] - ld[:, 0])):+.2f}; "
            f"block shares (c) {np.round(modes['c'].block, 2).tolist()}, (d) {np.round(modes['d'].block, 2).tolist()}",
        ),
        "fig4.13e-both-kinds": (
            share_estimate(dynamic["flags"]),
            f"share of WA.140 vs WA.140 games with moves DEFENDING alone and ATTACKING alone; moves: defending "
            f"{dynamic['defending']:.2f}, attacking {dynamic['attacking']:.2f}, both {dynamic['both_on']:.2f}",
        ),
    }
    return from_pairs(measured)
