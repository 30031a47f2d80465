"""Samuel's rote learning (Powell (2000) §3.3; Samuel 1959 "rote learning"): a store of board positions met in play,
each with the score a look-ahead backed up for it and the ply that score represents.

**The store** is an open-addressing hash table in two numpy arrays (so the jitted search can read it):
``table`` int64[capacity, 6] — key 1, key 2, in use, ply, age, uses — and ``scores`` float64[capacity].
Boards are stored **standardized** (Samuel 1959: "a White-to-move board is colour-reversed", and all-king
boards reflected about the diagonals, "saving up to 4×"): a board with White to move is colour-flipped
(``s → 33 − s``, colours exchanged) so that every stored board has Black to move; a board with kings only is
stored as the least of its four images under the symmetries that keep the dark squares and do not care which
way a man moves (identity, the half turn, and the reflections about the two long diagonals).  A score is the
backed-up value **for the side to move** on the stored board, so one store serves both colours.

**Ply and direction sense** (§3.3: "each calculated score was weighted based upon the ply-value required to
achieve the score … if the machine is losing, it will take the path that maximizes the number of moves, and if
winning … fewest moves"): an entry's ``ply`` is the look-ahead depth behind its score — the depth of the
search that backed it up, plus the ply of a stored board found at the end of its principal variation (a hit
at ply 3 on a score backed up 3 plies is worth 6 plies, Samuel 1959).  When the search meets a stored board at
its frontier it uses the score shrunk by ``discount`` per ply of the entry, ``score · (1 − discount)^ply``:
a score that needs more plies counts for less, so among equal scores the program prefers the quick win and
the slow loss.

**Reuse** (``refresh``; the readings differ — the document wins, the notes' reading is kept):

- ``REFRESH_VALUE`` (Powell 2000 §3.3, the default): "every time the same move was encountered, it was
  'rewarded' by increasing its value slightly to encourage further exploration" — each reuse raises the stored
  score by ``bonus`` (for the side to move on the stored board; a board met again becomes slightly less
  attractive to move into, which is what pushes play towards new lines);
- ``REFRESH_AGE`` (the reading notes of Samuel 1959): each reference halves the entry's age ("refreshing").

**Ageing and forgetting** (the notes of Samuel 1959): a new entry gets age ``age0``; at each memory merge
(every ``merge_every`` plies of play) every entry ages by 1, an entry whose age exceeds ``max_age`` is
expunged, and when more than ``limit`` entries remain, those with the lowest ply are culled.  Samuel's tape
records and their ordering (by piece count, piece advantage, kings, the "move", first moments) only served
his tape drives: a hash table keyed on the standardized board replaces them (notes §7 item 13).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..games.checkers_bitboard import COL, ROW, lowest_bit, reverse32

#: ``table`` columns
K1, K2, USED, PLY, AGE, USES = range(6)
T_COLS = 6
REFRESH_VALUE, REFRESH_AGE = 0, 1
REFRESHES = ("value", "age")


def _transpose_tables() -> np.ndarray:
    """Square permutations (0-based) for the reflections about the two long diagonals."""
    out = np.zeros((2, 32), dtype=np.int64)
    sq = {(int(ROW[i]), int(COL[i])): i for i in range(32)}
    for i in range(32):
        r, c = int(ROW[i]), int(COL[i])
        out[0, i] = sq[(c, r)]
        out[1, i] = sq[(7 - c, 7 - r)]
    out.setflags(write=False)
    return out


#: ``REFLECT[0]``: about the diagonal through squares 4 and 29; ``REFLECT[1]``: about the diagonal 1–32
REFLECT = _transpose_tables()


@njit(cache=True)
def _permute(w: int, perm: np.ndarray) -> int:
    out = 0
    while w:
        i = lowest_bit(w)
        w &= w - 1
        out |= 1 << perm[i]
    return out


@njit(cache=True, inline="always")
def _key(bm: int, bk: int, wm: int, wk: int) -> tuple[int, int]:
    return bm | (bk << 32), wm | (wk << 32)


@njit(cache=True)
def standard_key(bm: int, bk: int, wm: int, wk: int, side: int) -> tuple[int, int]:
    """The store key of a board: colour-flipped to Black to move; a kings-only board as the least of its four
    symmetric images (see the module docstring)."""
    if side == 1:
        bm, bk, wm, wk = reverse32(wm), reverse32(wk), reverse32(bm), reverse32(bk)
    k1, k2 = _key(bm, bk, wm, wk)
    if bm == 0 and wm == 0:
        for t in range(3):
            if t == 0:
                a, b = reverse32(bk), reverse32(wk)
            else:
                a, b = _permute(bk, REFLECT[t - 1]), _permute(wk, REFLECT[t - 1])
            j1, j2 = _key(0, a, 0, b)
            if j1 < k1 or (j1 == k1 and j2 < k2):
                k1, k2 = j1, j2
    return k1, k2


@njit(cache=True, inline="always")
def _hash(k1: int, k2: int) -> int:
    z = (k1 * 0x9E3779B97F4A7C15) ^ (k2 + 0x632BE59BD9B4E019 + (k1 << 6) + (k1 >> 2))
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    return z ^ (z >> 31)


@njit(cache=True)
def find(table: np.ndarray, k1: int, k2: int) -> int:
    """The slot holding key ``(k1, k2)``, or −1."""
    cap = table.shape[0]
    if cap == 0:
        return -1
    i = _hash(k1, k2) & (cap - 1)
    for _ in range(cap):
        if table[i, USED] == 0:
            return -1
        if table[i, K1] == k1 and table[i, K2] == k2:
            return i
        i = (i + 1) & (cap - 1)
    return -1


@njit(cache=True)
def _slot_for(table: np.ndarray, k1: int, k2: int) -> int:
    """The slot of the key, or the empty slot where it would go (−1 when the table is full)."""
    cap = table.shape[0]
    i = _hash(k1, k2) & (cap - 1)
    for _ in range(cap):
        if table[i, USED] == 0 or (table[i, K1] == k1 and table[i, K2] == k2):
            return i
        i = (i + 1) & (cap - 1)
    return -1


@njit(cache=True)
def lookup(table: np.ndarray, bm: int, bk: int, wm: int, wk: int, side: int) -> int:
    """The slot of a board (any side to move), or −1."""
    k1, k2 = standard_key(bm, bk, wm, wk, side)
    return find(table, k1, k2)


@njit(cache=True)
def use_score(table: np.ndarray, scores: np.ndarray, slot: int, discount: float) -> float:
    """The score of a stored board for the side to move, shrunk by ``discount`` per ply of the entry."""
    return scores[slot] * (1.0 - discount) ** table[slot, PLY]


@njit(cache=True)
def touch(table: np.ndarray, scores: np.ndarray, slot: int, refresh: int, bonus: float) -> None:
    """One reuse of an entry: count it, then raise its score by ``bonus`` (Powell) or halve its age (notes)."""
    table[slot, USES] += 1
    if refresh == REFRESH_VALUE:
        scores[slot] += bonus
    else:
        table[slot, AGE] //= 2


@njit(cache=True)
def store(
    table: np.ndarray,
    scores: np.ndarray,
    bm: int,
    bk: int,
    wm: int,
    wk: int,
    side: int,
    score: float,
    ply: int,
    age0: int,
    refresh: int,
    bonus: float,
) -> int:
    """Save a board's backed-up ``score`` (for the side to move) and its ``ply``; a board already stored gets
    the new score and ply and counts as a reuse (:func:`touch`).  Returns 1 for a new entry, 0 for an update,
    −1 when the table is full (the caller grows it: :meth:`RoteStore.reserve`)."""
    k1, k2 = standard_key(bm, bk, wm, wk, side)
    i = _slot_for(table, k1, k2)
    if i < 0:
        return -1
    if table[i, USED] == 1:
        scores[i] = score
        table[i, PLY] = ply
        touch(table, scores, i, refresh, bonus)
        return 0
    table[i, K1] = k1
    table[i, K2] = k2
    table[i, USED] = 1
    table[i, PLY] = ply
    table[i, AGE] = age0
    table[i, USES] = 0
    scores[i] = score
    return 1


@njit(cache=True)
def _reinsert(table: np.ndarray, scores: np.ndarray, rows: np.ndarray, vals: np.ndarray) -> None:
    table[:] = 0
    scores[:] = 0.0
    for r in range(rows.shape[0]):
        i = _slot_for(table, rows[r, K1], rows[r, K2])
        table[i] = rows[r]
        scores[i] = vals[r]


@njit(cache=True)
def merge(table: np.ndarray, scores: np.ndarray, max_age: int, limit: int) -> tuple[int, int]:
    """A memory merge: every entry ages by 1; entries older than ``max_age`` are expunged; if more than
    ``limit`` remain, the lowest-ply ones are culled (ties: the oldest first).  Returns (expunged, culled)."""
    live = 0
    expunged = 0
    for i in range(table.shape[0]):
        if table[i, USED] == 1:
            table[i, AGE] += 1
            if table[i, AGE] > max_age:
                expunged += 1
            else:
                live += 1
    if expunged == 0 and live <= limit:
        return 0, 0
    rows = np.zeros((live, T_COLS), dtype=np.int64)
    vals = np.zeros(live, dtype=np.float64)
    k = 0
    for i in range(table.shape[0]):
        if table[i, USED] == 1 and table[i, AGE] <= max_age:
            rows[k] = table[i]
            vals[k] = scores[i]
            k += 1
    culled = 0
    if live > limit:
        # keep the `limit` entries of highest ply (then youngest)
        order = np.argsort(rows[:, PLY] * (1 << 32) - rows[:, AGE], kind="mergesort")
        culled = live - limit
        keep = order[culled:]
        rows = rows[keep]
        vals = vals[keep]
    _reinsert(table, scores, rows, vals)
    return expunged, culled


@njit(cache=True)
def count(table: np.ndarray) -> int:
    """Entries in use."""
    n = 0
    for i in range(table.shape[0]):
        n += table[i, USED]
    return n


# ----------------------------------------------------------------------------- Python front end


@dataclass(frozen=True)
class RoteSpec:
    """How the store learns and forgets (module docstring): ``discount`` per ply, reuse ``refresh``
    (``"value"`` = Powell's reading, ``"age"`` = the notes'), ``bonus`` (score units; one man = 2**21 with the
    default piece weight), ``age0``, ``max_age``, ``merge_every`` (plies of play between merges) and ``limit``
    (entries kept at a merge; the lowest-ply are culled beyond it)."""

    discount: float = 1.0 / 64
    refresh: str = "value"
    bonus: float = 2.0**10
    age0: int = 16
    max_age: int = 16384
    merge_every: int = 20
    limit: int = 2**22

    def __post_init__(self) -> None:
        if not 0.0 <= self.discount < 1.0:
            raise ValueError(f"discount must lie in [0, 1), got {self.discount!r}")
        if self.refresh not in REFRESHES:
            raise ValueError(f"refresh must be one of {REFRESHES}, got {self.refresh!r}")
        if not np.isfinite(self.bonus) or self.bonus < 0:
            raise ValueError(f"bonus must be a finite number >= 0, got {self.bonus!r}")
        for name in ("age0", "max_age", "merge_every", "limit"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < (0 if name == "age0" else 1):
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if self.age0 > self.max_age:
            raise ValueError(f"age0 ({self.age0}) must not exceed max_age ({self.max_age})")

    @property
    def refresh_code(self) -> int:
        return REFRESHES.index(self.refresh)


class RoteStore:
    """A rote-learning store: the two arrays the kernels read, grown (rehashed) as it fills."""

    def __init__(self, spec: RoteSpec | None = None, capacity: int = 1 << 12) -> None:
        if capacity < 1 or capacity & (capacity - 1):
            raise ValueError(f"capacity must be a power of two, got {capacity!r}")
        self.spec = spec if spec is not None else RoteSpec()
        self.table = np.zeros((capacity, T_COLS), dtype=np.int64)
        self.scores = np.zeros(capacity, dtype=np.float64)

    def __len__(self) -> int:
        return int(count(self.table))

    @property
    def capacity(self) -> int:
        return self.table.shape[0]

    def reserve(self, extra: int) -> None:
        """Grow the table so that ``extra`` more entries keep the load at most one half."""
        need = len(self) + extra
        cap = self.capacity
        while need * 2 > cap:
            cap *= 2
        if cap == self.capacity:
            return
        live = self.table[:, USED] == 1
        rows, vals = self.table[live].copy(), self.scores[live].copy()
        self.table = np.zeros((cap, T_COLS), dtype=np.int64)
        self.scores = np.zeros(cap, dtype=np.float64)
        _reinsert(self.table, self.scores, rows, vals)

    def get(self, words, side: int) -> tuple[float, int] | None:
        """(stored score for the side to move, ply) of a board, or None (no reuse is counted)."""
        i = int(lookup(self.table, *(int(w) for w in words), int(side)))
        if i < 0:
            return None
        return float(self.scores[i]), int(self.table[i, PLY])

    def put(self, words, side: int, score: float, ply: int) -> bool:
        """Store a board (see :func:`store`); True when it is new."""
        self.reserve(1)
        s = self.spec
        r = store(
            self.table, self.scores, *(int(w) for w in words), int(side), float(score), int(ply), s.age0,
            s.refresh_code, s.bonus,
        )  # fmt: skip
        return r == 1

    def merge(self) -> tuple[int, int]:
        """A memory merge (ageing, expunging, culling): (expunged, culled)."""
        e, c = merge(self.table, self.scores, self.spec.max_age, self.spec.limit)
        return int(e), int(c)

    def entries(self) -> dict[str, np.ndarray]:
        """The live entries' keys, scores, plies, ages and uses (copies)."""
        live = self.table[:, USED] == 1
        t = self.table[live]
        return {
            "k1": t[:, K1].copy(),
            "k2": t[:, K2].copy(),
            "score": self.scores[live].copy(),
            "ply": t[:, PLY].copy(),
            "age": t[:, AGE].copy(),
            "uses": t[:, USES].copy(),
        }

    def copy(self) -> RoteStore:
        out = RoteStore(self.spec, self.capacity)
        out.table[:] = self.table
        out.scores[:] = self.scores
        return out

    def arrays(self) -> dict[str, np.ndarray]:
        """The store as arrays for a ``.npz`` (with :meth:`from_arrays`)."""
        return {"rote_table": self.table, "rote_scores": self.scores}

    @classmethod
    def from_arrays(cls, spec: RoteSpec, table: np.ndarray, scores: np.ndarray) -> RoteStore:
        cap = table.shape[0]
        if table.ndim != 2 or table.shape[1] != T_COLS or scores.shape != (cap,) or cap & (cap - 1):
            raise ValueError(f"not a rote store: table {table.shape}, scores {scores.shape}")
        out = cls(spec, cap)
        out.table[:] = table
        out.scores[:] = scores
        return out
