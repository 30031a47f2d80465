"""The line evaluation element of Systems 3 and 4 (Kenju thesis §3.4.3, §4.6, §4.10, Fig. 4.14): a 32-word RAM.

**Line evaluation** (§3.4.3.1, Fig. 3.10).  A single word-organised RAM with five address inputs: the
pattern of a line — a stone 1, a vacant cell 0, **and the candidate move "?" a 1** ("the net thus
evaluates the line as it would appear after the move") — addresses a word holding the line's value.
Patterns are colour-blind: one table values the player's lines (attack) and the opponent's (blocking).
Cell 0 of a line is the most significant bit, so Fig. 4.14's ``XX-X-`` is address 26
(:func:`tdbook.games.kenju.pattern_string`).

**Move evaluation heuristic** (§3.4.3.3, §4.8.4).  Over the live lines through a vacant cell (both
colours, at most 20): if the best line's value is at least OUTSTANDING the move is worth 20 × that value
(more than any sum of 20 lines), otherwise the sum of the line values at least MEDIOCRE.  The extreme
settings: A (0, 0) and C (∞, 0) give 20 × the best line, B (0, ∞) the sum of all lines, D (∞, ∞) zero;
the *percentage* setting puts MEDIOCRE at 47 % and OUTSTANDING at 100 % of the table's current largest
value (§4.8.4.1, Fig. 4.18).  :class:`Evaluation` holds a setting; :func:`thresholds` resolves it
against a table.

**The teacher and learning** (§4.6).  The learner starts at all zeros.  When two lines compare equal in
Box 6 of the search and LEARNING is on, it asks the teacher which is better; the answer 1, 2 or 0
("equal") raises the preferred pattern's word by one (only that pattern, not its mirror image); two
identical or mirror-image patterns are answered "equal" by the program itself.  The automated teacher
of every experiment is the fully trained element MAX of Fig. 4.14 (Figs 4.6d, 4.22d): the answer is the
sign of ``MAX[a] − MAX[b]`` (:func:`teacher_answer`).  System 4 (§3.5, §4.10) asks about two equally
valued *moves* instead, and raises every pattern through the preferred move that is absent from the
lines through the other (:func:`system4_reward`).

**What the rule can reach.**  A pattern climbs only when it ties with a pattern the teacher ranks lower,
so by induction ``L[p] ≤ rank(p)``, the dense rank of ``p``'s MAX value among the patterns that can be
compared at all (:func:`learnable_limit`); with MAX as the teacher that also gives ``L ≤ MAX``.  A live line
holds a stone and the "?" adds one, so patterns of fewer than two X never reach Box 6
(:data:`REACHABLE`): the reachable part of MAX sums to 297 (not Fig. 4.11's 306), and the rank bound to 193.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..games.kenju import N_CELLS, N_DIRS, STEP, Board

N_PATTERNS = 32
#: the multiplier of an outstanding line (the most lines that can cross at a move, §3.4.3.2)
MAX_LINES_AT_A_MOVE = 20

#: Fig. 4.14, the fully trained line evaluation element "MAX", by address (the figure's right-hand column)
MAX = np.array(
    [0, 1, 2, 8, 3, 6, 9, 14, 2, 5, 7, 12, 9, 13, 15, 18, 1, 4, 5, 11, 6, 10, 13, 17, 8, 11, 12, 16, 14, 17, 18, 19],
    dtype=np.int64,
)
MAX.setflags(write=False)
#: Fig. 4.14's left-hand column as printed: (pattern, address, value), best first; a pattern is the five cells
#: of a line, X a stone of the line's owner and - a vacant cell (the thesis's notation)
FIG_4_14_ROWS: tuple[tuple[str, int, int], ...] = (
    ("XXXXX", 31, 19),
    ("XXXX-", 30, 18),
    ("-XXXX", 15, 18),
    ("XXX-X", 29, 17),
    ("X-XXX", 23, 17),
    ("XX-XX", 27, 16),
    ("-XXX-", 14, 15),
    ("XXX--", 28, 14),
    ("--XXX", 7, 14),
    ("X-XX-", 22, 13),
    ("-XX-X", 13, 13),
    ("XX-X-", 26, 12),
    ("-X-XX", 11, 12),
    ("XX--X", 25, 11),
    ("X--XX", 19, 11),
    ("X-X-X", 21, 10),
    ("-XX--", 12, 9),
    ("--XX-", 6, 9),
    ("XX---", 24, 8),
    ("---XX", 3, 8),
    ("-X-X-", 10, 7),
    ("X-X--", 20, 6),
    ("--X-X", 5, 6),
    ("X--X-", 18, 5),
    ("-X--X", 9, 5),
    ("X---X", 17, 4),
    ("--X--", 4, 3),
    ("-X---", 8, 2),
    ("---X-", 2, 2),
    ("X----", 16, 1),
    ("----X", 1, 1),
    ("-----", 0, 0),
)


@njit(cache=True)
def mirror(p: int) -> int:
    """The pattern read from the other end (bit reversal of the five cells)."""
    q = 0
    for k in range(5):
        if (p >> k) & 1:
            q |= 1 << (4 - k)
    return q


@njit(cache=True)
def n_stones(p: int) -> int:
    n = 0
    for k in range(5):
        n += (p >> k) & 1
    return n


def _reachable() -> np.ndarray:
    return np.array([n_stones(p) >= 2 for p in range(N_PATTERNS)], dtype=bool)


#: patterns that can be met in play: a live line's stones and the "?" (at least two X)
REACHABLE = _reachable()
REACHABLE.setflags(write=False)


def mirror_classes() -> list[tuple[int, ...]]:
    """The 20 classes of patterns equal up to reading direction, in address order of their least member."""
    seen, out = set(), []
    for p in range(N_PATTERNS):
        if p not in seen:
            cls = tuple(sorted({p, int(mirror(p))}))
            seen.update(cls)
            out.append(cls)
    return out


def is_mirror_symmetric(table: np.ndarray) -> bool:
    return all(table[p] == table[int(mirror(p))] for p in range(N_PATTERNS))


def dense_ranks(values: np.ndarray, among: np.ndarray | None = None) -> np.ndarray:
    """Each value's dense rank (0 for the least) among the values of the patterns in ``among`` (all by default)."""
    among = np.ones(N_PATTERNS, dtype=bool) if among is None else among
    levels = np.unique(values[among])
    return np.searchsorted(levels, values).astype(np.int64)


def learnable_limit(teacher: np.ndarray = MAX) -> np.ndarray:
    """The most each pattern can reach under the thesis's rule with ``teacher`` (its dense rank among the
    reachable patterns; 0 for the unreachable ones)."""
    r = dense_ranks(teacher, REACHABLE)
    return np.where(REACHABLE, r, 0).astype(np.int64)


def ranking_violations(table: np.ndarray, teacher: np.ndarray = MAX) -> int:
    """Pairs of reachable patterns that ``table`` orders strictly against the teacher's order."""
    idx = np.flatnonzero(REACHABLE)
    t = table[idx]
    m = teacher[idx]
    return int(np.sum((t[:, None] > t[None, :]) & (m[:, None] < m[None, :])))


# ----------------------------------------------------------------------------- the heuristic


@dataclass(frozen=True)
class Evaluation:
    """A MEDIOCRE / OUTSTANDING setting (§4.8.4): absolute thresholds, or percentages of the table's largest value."""

    mediocre: float = 0.0
    outstanding: float = 0.0
    percentage: bool = False

    def __post_init__(self) -> None:
        for name in ("mediocre", "outstanding"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not v >= 0:
                raise ValueError(f"{name} must be a number >= 0 (math.inf for the extreme setting), got {v!r}")

    @property
    def name(self) -> str:
        for k, e in EFFECTS.items():
            if e == self:
                return k
        if self.percentage:
            return f"{self.mediocre:g}% / {self.outstanding:g}%"
        return f"MEDIOCRE {self.mediocre:g}, OUTSTANDING {self.outstanding:g}"


INF = float(10**9)  # "∞: any value greater than the highest line value possible" (§4.8.4)
#: the extreme settings of §4.8.4 and the percentage setting of §4.8.4.1 / Fig. 4.18
EFFECTS: dict[str, Evaluation] = {
    "A": Evaluation(0.0, 0.0),
    "B": Evaluation(0.0, INF),
    "C": Evaluation(INF, 0.0),
    "D": Evaluation(INF, INF),
    "percentage": Evaluation(47.0, 100.0, percentage=True),
}


@njit(cache=True)
def resolve_thresholds(table: np.ndarray, mediocre: float, outstanding: float, percentage: bool) -> tuple:
    """(MEDIOCRE, OUTSTANDING) as absolute line values for ``table``."""
    if percentage:
        top = float(table.max())
        return mediocre / 100.0 * top, outstanding / 100.0 * top
    return mediocre, outstanding


def thresholds(table: np.ndarray, ev: Evaluation) -> tuple[float, float]:
    return resolve_thresholds(np.asarray(table, dtype=np.int64), ev.mediocre, ev.outstanding, ev.percentage)


@njit(cache=True)
def move_value(board: Board, table: np.ndarray, cell: int, mediocre: float, outstanding: float) -> int:
    """The value of playing ``cell`` (§3.4.3.2–3.4.3.3): its live lines of both colours, each valued by ``table``
    with ``cell`` as "?", combined by the heuristic; -1 when no live line crosses ``cell``."""
    n = 0
    best = -1
    total = 0
    for d in range(N_DIRS):
        for k in range(5):
            w = d * N_CELLS + cell - k * STEP[d]
            if (board.count[0, w] > 0) != (board.count[1, w] > 0):
                v = table[board.pattern[w] | (1 << (4 - k))]
                n += 1
                if v > best:
                    best = v
                if v >= mediocre:
                    total += v
    if n == 0:
        return -1
    if best >= outstanding:
        return MAX_LINES_AT_A_MOVE * best
    return total


@njit(cache=True)
def move_patterns(board: Board, cell: int, out: np.ndarray) -> int:
    """The patterns (with ``cell`` as "?") of the live lines through ``cell``; returns how many."""
    n = 0
    for d in range(N_DIRS):
        for k in range(5):
            w = d * N_CELLS + cell - k * STEP[d]
            if (board.count[0, w] > 0) != (board.count[1, w] > 0):
                out[n] = board.pattern[w] | (1 << (4 - k))
                n += 1
    return n


# ----------------------------------------------------------------------------- teaching


@njit(cache=True)
def teacher_answer(teacher: np.ndarray, a: int, b: int) -> int:
    """The automated teacher's answer to "which line is better, 1 (``a``) or 2 (``b``)?": 1, 2 or 0 (equal)."""
    if teacher[a] > teacher[b]:
        return 1
    if teacher[b] > teacher[a]:
        return 2
    return 0


@njit(cache=True)
def same_or_mirror(a: int, b: int) -> bool:
    """Two patterns the program answers "equal" itself, without asking (§4.6)."""
    return a == b or a == mirror(b)


@njit(cache=True)
def system4_reward(table: np.ndarray, preferred: np.ndarray, n_pref: int, other: np.ndarray, n_other: int) -> int:
    """§4.10.2: raise by one every distinct pattern among ``preferred[:n_pref]`` that is absent from
    ``other[:n_other]``; return how many words were raised."""
    seen = np.zeros(N_PATTERNS, dtype=np.bool_)
    for i in range(n_other):
        seen[other[i]] = True
    raised = 0
    for i in range(n_pref):
        p = preferred[i]
        if not seen[p]:
            seen[p] = True
            table[p] += 1
            raised += 1
    return raised


def best_line_learning(table: np.ndarray, patterns: list[int], teacher: np.ndarray) -> int:
    """Box 6 of the search with LEARNING on, in plain Python (Kenju thesis §3.4.3, §4.6): of the candidate lines
    through a move — each given by its pattern, the move counted as a stone — the one the line table values highest;
    when two compare equal, the teacher says which is better and that pattern's word rises by one.  Returns the index
    of the chosen line; ``table`` learns in place.  What the search's :func:`best_line_intersecting` runs jitted with
    the automated teacher (``tests/test_kenju_system3.py`` checks they agree)."""
    best = None
    for i, pattern in enumerate(patterns):
        if best is None or table[pattern] > table[patterns[best]]:
            best = i
        elif table[pattern] == table[patterns[best]]:
            held = patterns[best]
            if held == pattern or held == mirror(pattern):
                continue  # the program answers "equal" itself
            if teacher[held] > teacher[pattern]:  # the teacher prefers the line held: it rises, and stays best
                table[held] += 1
            elif teacher[pattern] > teacher[held]:  # the new line: it rises, and becomes best
                table[pattern] += 1
                best = i
    return -1 if best is None else best


def check_table(table: object, name: str = "table") -> np.ndarray:
    """A line table as a fresh int64[32] array of values >= 0, or ValueError naming the problem."""
    try:
        t = np.array(table, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be 32 integers >= 0, got {table!r}") from None
    if t.shape != (N_PATTERNS,) or np.any(t < 0):
        raise ValueError(f"{name} must be 32 integers >= 0 (one per line pattern), got shape {t.shape}")
    if not np.array_equal(t, np.asarray(table, dtype=float)):
        raise ValueError(f"{name} must hold integers, got {table!r}")
    return t
