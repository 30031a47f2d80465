"""Backgammon: a move-exact jitted engine and a plain Python façade (Powell (2000) ch. 5; notebook 08).

Position representation — Tesauro's ``pubeval`` layout, always from the view of one
player ("the mover", normally the side on roll), as a ``numpy.int8[28]``:

- ``pos[1..24]``: points 1..24 numbered from the mover's side; the mover's checkers are
  **positive** and travel from 24 down to 1, the opponent's are **negative** and travel
  from 1 up to 24.  Points 1..6 are the mover's home board, 19..24 the opponent's.
- ``pos[25]``: the mover's checkers on the bar (``>= 0``; the bar is "point 25", where the
  mover's checkers re-enter from);
- ``pos[0]``: the opponent's checkers on the bar, **negative** (their "point 0");
- ``pos[26]``: the mover's checkers borne off (``>= 0``);
- ``pos[27]``: the opponent's checkers borne off, **negative**.

With this layout, swapping sides (:func:`flip`) is "reverse slots 0..25, swap 26/27,
negate everything": ``flip(p)[i] = -p[25 - i]`` for ``i <= 25``, ``flip(p)[26] = -p[27]``,
``flip(p)[27] = -p[26]``.

Move generation (:func:`gen_afterstates`) returns the set of **distinct** positions
reachable with a roll (the *afterstates*, still from the mover's view), each with one
sequence of single-die checker hops that reaches it (``from, to`` pairs: 25 = bar,
0 = off).  The rules are the full ones and follow GNU Backgammon's ``GenerateMoves``
exactly: checkers on the bar enter first; as many dice as possible are used, and among
those the sequences using the most pips (so when only one die of a non-double can be
played, the larger one); doubles are four moves; a checker bears off with the exact
number or, when no checker is on a higher point, with a larger die; the game ends when
the last checker is off (a bear-off that ends the game with dice unplayed counts only the
dice it used, as in gnubg).  When no checker can move the only afterstate is the position
itself (an empty move).

Every kernel is ``@njit(cache=True)`` on plain arrays; dice come from the seeded
:mod:`tdbook.core.rng` streams.

The module is long (about 730 lines) but one thing: the rules, on the one position layout above; the
kernels, move notation and the contract's façade all read and write that layout, and splitting them would
spread it over several files.  The input encodings live in :mod:`tdbook.games.backgammon_encoding`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core.rng import make_state, randint
from .base import IllegalMove

NSLOT = 28
BAR = 25  # the mover's bar slot (hops start here)
OPP_BAR = 0  # the opponent's bar slot (negative count)
OFF = 26  # the mover's borne-off slot
OPP_OFF = 27  # the opponent's borne-off slot (negative count)
MAX_AFTER = 4096  # capacity for distinct afterstates of one roll (the known maximum is far below)
_TAB = 16384  # open-addressing table for de-duplication (power of two, > 2 * MAX_AFTER)

# Zobrist keys: one 64-bit word per (slot, count + 16); a fixed seed keeps them identical
# across runs (they only speed up de-duplication: equal keys are confirmed slot by slot).
_ZOB = np.random.default_rng(20260707).integers(-(2**62), 2**62, size=(NSLOT, 33), dtype=np.int64)


@njit(cache=True)
def set_initial(p: np.ndarray) -> None:
    """Write the starting position into ``p`` (the same from either side's view: it is symmetric); the one
    place it is typed out, for the kernels that start games and for :func:`initial_position`."""
    p[:] = 0
    p[24], p[13], p[8], p[6] = 2, 5, 3, 5
    p[1], p[12], p[17], p[19] = -2, -5, -3, -5


def initial_position() -> np.ndarray:
    """The starting position from either side's view (it is symmetric)."""
    p = np.zeros(NSLOT, dtype=np.int8)
    set_initial(p)
    return p


# ----------------------------------------------------------------------------- kernels


@njit(cache=True)
def flip(pos: np.ndarray, out: np.ndarray) -> None:
    """Write ``pos`` seen from the other side into ``out`` (must not alias ``pos``)."""
    for i in range(26):
        out[i] = -pos[25 - i]
    out[26] = -pos[27]
    out[27] = -pos[26]


@njit(cache=True)
def flipped(pos: np.ndarray) -> np.ndarray:
    """A new array holding ``pos`` seen from the other side."""
    out = np.empty(NSLOT, dtype=np.int8)
    flip(pos, out)
    return out


@njit(cache=True)
def pip_counts(pos: np.ndarray) -> tuple:
    """(mover's pips, opponent's pips); a checker on the bar counts 25."""
    a = 0
    b = 0
    for i in range(26):
        v = pos[i]
        if v > 0:
            a += v * i
        elif v < 0:
            b -= v * (25 - i)
    return a, b


@njit(cache=True)
def is_race(pos: np.ndarray) -> bool:
    """True when no contact is left: every mover checker is below every opposing checker."""
    hi = 0
    for i in range(25, 0, -1):
        if pos[i] > 0:
            hi = i
            break
    lo = 26
    for i in range(0, 25):
        if pos[i] < 0:
            lo = i
            break
    return hi < lo


@njit(cache=True)
def win_multiplier(pos: np.ndarray) -> int:
    """Points the mover wins if it has borne off all 15: 1 single, 2 gammon, 3 backgammon; 0 if not over."""
    if pos[OFF] < 15:
        return 0
    if pos[OPP_OFF] < 0:
        return 1
    if pos[OPP_BAR] < 0:
        return 3
    for i in range(1, 7):
        if pos[i] < 0:
            return 3
    return 2


# workspace layout (int64): counters, per-level stacks of the move walk, the working position,
# then the keys / hop counts / hash slots of the kept afterstates and the hash table itself
_W_N, _W_BEST, _W_OVER = 0, 1, 2
_W_CUR, _W_HI, _W_MOVED, _W_SRC, _W_DST = 8, 16, 24, 32, 40
_W_HIT, _W_PIPS, _W_PATH, _W_DICE, _W_KEY = 48, 56, 64, 72, 80
_W_POS = 128
_W_KEYS = 256
_W_NH = _W_KEYS + MAX_AFTER
_W_SLOT = _W_NH + MAX_AFTER
_W_TAB = _W_SLOT + MAX_AFTER
WS_SIZE = _W_TAB + _TAB


@njit(cache=True)
def gen_afterstates(pos, d1, d2, out_pos, out_mv, ws):
    """All distinct afterstates of ``pos`` (mover's view) with dice ``d1, d2``; returns their number ``n``.

    Fills ``out_pos[:n]`` (int8 positions, mover's view, *not* flipped) and ``out_mv[:n]``
    (one hop sequence reaching each: ``from, to`` pairs, -1 padded); :func:`n_hops` gives
    each sequence's length.  Buffers come from :func:`make_buffers` (reuse them).

    One call-free function over one int64 workspace ``ws``: a depth-first walk over
    single-die hops with an explicit stack (at most 4 levels).  Doubles are walked with
    non-increasing source points, which reaches every afterstate once per multiset of hops;
    non-doubles are walked once per die order, the second walk skipping the hop pairs that
    merely mirror a pair of the first.  A leaf (all dice used, no hop possible, or
    the last checker off) is kept when it uses the most dice, then the most pips (gnubg's
    rule), and is new (Zobrist key, confirmed slot by slot).
    """
    mask = _TAB - 1
    key = np.int64(0)
    for i in range(NSLOT):
        v = np.int64(pos[i])
        ws[_W_POS + i] = v
        key ^= _ZOB[i, v + 16]
    ws[_W_N] = 0
    ws[_W_BEST] = -1
    ws[_W_OVER] = 0
    for i in range(8):
        ws[_W_PATH + i] = -1
    nd = 4 if d1 == d2 else 2
    for order in range(1 if d1 == d2 else 2):
        if order == 0:
            ws[_W_DICE] = d1
            ws[_W_DICE + 1] = d2
        else:
            ws[_W_DICE] = d2
            ws[_W_DICE + 1] = d1
        ws[_W_DICE + 2] = d1
        ws[_W_DICE + 3] = d1
        level = 0
        ws[_W_KEY] = key
        ws[_W_PIPS] = 0
        h = 0
        for i in range(25, 0, -1):
            if ws[_W_POS + i] > 0:
                h = i
                break
        ws[_W_HI] = h
        ws[_W_CUR] = h
        ws[_W_MOVED] = 0
        hi0 = h
        bar0 = ws[_W_POS + BAR]
        while level >= 0:
            leaf = level == nd or ws[_W_POS + OFF] == 15
            found = False
            s = 0
            t = 0
            d = 0
            if not leaf:
                d = ws[_W_DICE + level]
                top = ws[_W_HI + level]
                s = ws[_W_CUR + level]
                bar = ws[_W_POS + BAR] > 0
                mirror = order == 1 and level == 1  # second hop of the second die order
                while s >= 1:
                    if ws[_W_POS + s] > 0:
                        if bar and s != BAR:
                            s = 0
                            break
                        t = s - d
                        ok = False
                        if t >= 1:
                            ok = ws[_W_POS + t] >= -1
                        elif top <= 6 and (t == 0 or s == top):
                            ok = True
                        if ok:
                            # Skip a hop whose mirror (this hop first, with the other die, then the
                            # first hop) was legal in the first die order: it reaches an afterstate
                            # already walked.  A hop continuing the first checker (s == its target),
                            # a first hop that entered the last checker from the bar, or a bear-off
                            # the original position did not allow are not mirrored and are walked.
                            if (
                                mirror
                                and s != ws[_W_DST]
                                and not (bar0 == 1 and s != BAR)
                                and (t >= 1 or (hi0 <= 6 and (t == 0 or s == hi0)))
                            ):
                                ws[_W_MOVED + level] = 1
                            else:
                                found = True
                                break
                    s -= 1
                if not found and ws[_W_MOVED + level] == 0:
                    leaf = True
            if leaf:
                # ---- offer the leaf
                score = level * 64 + ws[_W_PIPS + level]
                keep = True
                if score > ws[_W_BEST]:
                    for j in range(ws[_W_N]):  # a better class of move: forget what was kept
                        ws[_W_TAB + ws[_W_SLOT + j]] = 0
                    ws[_W_N] = 0
                    ws[_W_BEST] = score
                elif score < ws[_W_BEST]:
                    keep = False
                if keep:
                    lk = ws[_W_KEY + level]
                    hh = lk & mask
                    while ws[_W_TAB + hh] != 0:
                        j = ws[_W_TAB + hh] - 1
                        if ws[_W_KEYS + j] == lk:
                            same = True
                            for i in range(NSLOT):
                                if out_pos[j, i] != ws[_W_POS + i]:
                                    same = False
                                    break
                            if same:
                                keep = False
                                break
                        hh = (hh + 1) & mask
                    if keep:
                        n = ws[_W_N]
                        if n >= MAX_AFTER:
                            ws[_W_OVER] = 1
                        else:
                            for i in range(NSLOT):
                                out_pos[n, i] = ws[_W_POS + i]
                            for i in range(8):
                                out_mv[n, i] = ws[_W_PATH + i]
                            ws[_W_NH + n] = level
                            ws[_W_KEYS + n] = lk
                            ws[_W_TAB + hh] = n + 1
                            ws[_W_SLOT + n] = hh
                            ws[_W_N] = n + 1
            if leaf or not found:
                # ---- back up one level and take back the hop made there
                level -= 1
                if level >= 0:
                    s0 = ws[_W_SRC + level]
                    t0 = ws[_W_DST + level]
                    if t0 >= 1:
                        ws[_W_POS + t0] -= 1
                        if ws[_W_HIT + level] != 0:
                            ws[_W_POS + t0] = -1
                            ws[_W_POS + OPP_BAR] += 1
                    else:
                        ws[_W_POS + OFF] -= 1
                    ws[_W_POS + s0] += 1
                    ws[_W_PATH + 2 * level] = -1
                    ws[_W_PATH + 2 * level + 1] = -1
                continue
            # ---- make the hop s -> t (t <= 0: bear off) and descend
            ws[_W_CUR + level] = s - 1
            ws[_W_MOVED + level] = 1
            k = ws[_W_KEY + level]
            v = ws[_W_POS + s]
            k ^= _ZOB[s, v + 16] ^ _ZOB[s, v + 15]
            ws[_W_POS + s] = v - 1
            hit = 0
            if t >= 1:
                w = ws[_W_POS + t]
                if w == -1:
                    hit = 1
                    b = ws[_W_POS + OPP_BAR]
                    k ^= _ZOB[OPP_BAR, b + 16] ^ _ZOB[OPP_BAR, b + 15]
                    ws[_W_POS + OPP_BAR] = b - 1
                    k ^= _ZOB[t, 15] ^ _ZOB[t, 16]
                    w = 0
                k ^= _ZOB[t, w + 16] ^ _ZOB[t, w + 17]
                ws[_W_POS + t] = w + 1
            else:
                t = 0
                o = ws[_W_POS + OFF]
                k ^= _ZOB[OFF, o + 16] ^ _ZOB[OFF, o + 17]
                ws[_W_POS + OFF] = o + 1
            ws[_W_SRC + level] = s
            ws[_W_DST + level] = t
            ws[_W_HIT + level] = hit
            ws[_W_PATH + 2 * level] = s
            ws[_W_PATH + 2 * level + 1] = t
            level += 1
            ws[_W_KEY + level] = k
            ws[_W_PIPS + level] = ws[_W_PIPS + level - 1] + d
            ws[_W_MOVED + level] = 0
            if level < nd:
                h = 0
                for i in range(25, 0, -1):
                    if ws[_W_POS + i] > 0:
                        h = i
                        break
                ws[_W_HI + level] = h
                ws[_W_CUR + level] = h if (nd == 2 or h < s) else s
    n = ws[_W_N]
    for j in range(n):
        ws[_W_TAB + ws[_W_SLOT + j]] = 0
    return n


@njit(cache=True)
def n_hops(ws, j):
    """Number of hops in the sequence stored for afterstate ``j`` by the last :func:`gen_afterstates`."""
    return ws[_W_NH + j]


def make_buffers() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(out_pos, out_mv, ws)`` for :func:`gen_afterstates` (reuse them; not thread-safe)."""
    return (np.zeros((MAX_AFTER, NSLOT), np.int8), np.full((MAX_AFTER, 8), -1, np.int8), np.zeros(WS_SIZE, np.int64))


def hop_lists(bufs, n: int) -> list[list[tuple[int, int]]]:
    """The hop sequences of the last :func:`gen_afterstates` call on ``bufs`` (Python lists)."""
    mv, ws = bufs[1], bufs[2]
    return [[(int(mv[j, 2 * k]), int(mv[j, 2 * k + 1])) for k in range(int(ws[_W_NH + j]))] for j in range(n)]


@njit(cache=True)
def roll(rng: np.ndarray) -> tuple:
    """Two dice from the seeded stream ``rng``."""
    return randint(rng, 6) + 1, randint(rng, 6) + 1


@njit(cache=True)
def opening_roll(rng: np.ndarray) -> tuple:
    """The opening: each side rolls one die until they differ; the higher die moves first with both.

    Returns ``(first, d1, d2)`` with ``first`` = 0 when player 0's die is higher."""
    while True:
        a = randint(rng, 6) + 1
        b = randint(rng, 6) + 1
        if a != b:
            return (0 if a > b else 1), a, b


# ----------------------------------------------------------------------------- checker hops (Python level)


def apply_hops(pos: np.ndarray, hops: Sequence[tuple[int, int]]) -> np.ndarray:
    """Apply ``(from, to)`` hops (25 = bar, 0 = off) to a copy of ``pos`` without rule checks
    beyond "there is a checker to move and the landing point is not blocked"."""
    p = np.array(pos, dtype=np.int8, copy=True)
    for s, t in hops:
        if not (1 <= s <= 25) or p[s] <= 0:
            raise IllegalMove(f"no checker of yours on {_pt(s)}")
        if t >= 1:
            if p[t] < -1:
                raise IllegalMove(f"point {t} is blocked by the opponent")
            p[s] -= 1
            if p[t] == -1:
                p[t] = 0
                p[OPP_BAR] -= 1
            p[t] += 1
        else:
            p[s] -= 1
            p[OFF] += 1
    return p


def _pt(s: int) -> str:
    return "the bar" if s == 25 else ("off" if s <= 0 else f"point {s}")


def _name(s: int) -> str:
    return "bar" if s == 25 else ("off" if s <= 0 else str(s))


def move_string(pos: np.ndarray, hops: Sequence[tuple[int, int]]) -> str:
    """Standard notation for a hop sequence from ``pos``: ``13/10*/8 6/5(2)``; ``bar``/``off``;
    ``*`` marks a hit; a checker's consecutive hops are chained.  The empty move is ``""``."""
    p = np.array(pos, dtype=np.int8, copy=True)
    chains: list[list[tuple[int, bool]]] = []  # each: [(point, hit_here), ...]
    for s, t in hops:
        hit = t >= 1 and p[t] == -1
        p[:] = apply_hops(p, [(s, t)])
        for c in chains:  # continue a chain that ended on s (a checker moving on)
            if c[-1][0] == s:
                c.append((t, hit))
                break
        else:
            chains.append([(s, False), (t, hit)])
    toks = []
    for c in chains:
        parts = [_name(c[0][0])]
        for k, (pt, hit) in enumerate(c[1:], start=1):
            last = k == len(c) - 1
            if last or hit:
                parts.append(_name(pt) + ("*" if hit else ""))
        toks.append("/".join(parts))
    toks.sort(key=lambda x: (-_tok_key(x)[0], x))
    out: list[str] = []
    i = 0
    while i < len(toks):
        j = i
        while j < len(toks) and toks[j] == toks[i]:
            j += 1
        out.append(toks[i] + (f"({j - i})" if j - i > 1 else ""))
        i = j
    return " ".join(out)


def _tok_key(tok: str) -> tuple[int]:
    first = tok.split("/")[0]
    return (25 if first == "bar" else int(first),)


_TOKEN = re.compile(r"^(bar|\d{1,2})((?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$")


def parse_move(text: str) -> list[tuple[list[int], list[bool]]]:
    """Parse notation like ``8/5 6/5``, ``bar/22*``, ``6/off``, ``13/10*/8``, ``8/5(2)``.

    Returns one ``(points, hit_marks)`` chain per checker (25 = bar, 0 = off); raises
    :class:`IllegalMove` naming the malformed part."""
    if not isinstance(text, str):
        raise IllegalMove(f"a move must be a string like '8/5 6/5', got {type(text).__name__}")
    chains = []
    for tok in text.replace(",", " ").lower().split():
        m = _TOKEN.match(tok)
        if not m:
            raise IllegalMove(f"cannot read {tok!r}: write moves like '8/5 6/5', 'bar/22', '6/off', '13/7*'")
        pts = [25 if m.group(1) == "bar" else int(m.group(1))]
        hits = [False]
        for part in m.group(2).split("/")[1:]:
            star = part.endswith("*")
            part = part.rstrip("*")
            if part == "bar":
                raise IllegalMove(f"{tok!r}: a checker cannot move to the bar")
            pts.append(0 if part == "off" else int(part))
            hits.append(star)
        for a in pts:
            if a > 25 or (a == 25 and pts.index(a) != 0):
                raise IllegalMove(f"{tok!r}: points run from 1 to 24 (plus 'bar' and 'off')")
        for a, b in zip(pts, pts[1:]):
            if b >= a:
                raise IllegalMove(f"{tok!r}: checkers move from higher to lower points ({_name(a)} to {_name(b)})")
            if a == 0:
                raise IllegalMove(f"{tok!r}: a checker borne off cannot move again")
        rep = int(m.group(3)) if m.group(3) else 1
        if not 1 <= rep <= 4:
            raise IllegalMove(f"{tok!r}: a repeat count must be 1..4")
        chains.extend([(pts, hits)] * rep)
    return chains


# ----------------------------------------------------------------------------- façade


@dataclass(frozen=True)
class BGState:
    """A backgammon state: ``board`` (int8[28] bytes, from ``player``'s view — the side on roll),
    the ``dice`` that side rolled, and the dice stream ``rng`` (a uint64) for the rolls to come."""

    board: bytes
    player: int
    dice: tuple[int, int]
    rng: int

    @property
    def position(self) -> np.ndarray:
        return np.frombuffer(self.board, dtype=np.int8).copy()

    def __repr__(self) -> str:
        a, b = pip_counts(self.position)
        return f"BGState(player={self.player}, dice={self.dice}, pips={a}-{b})"


class Backgammon:
    """The :class:`~tdbook.games.base.Game` façade: moves are notation strings (``"8/5 6/5"``).

    ``seed``/``stream`` pick the dice stream of :func:`initial_state`.  ``encode`` gives
    Tesauro's 198 inputs (dense) with the side on roll's colour; see
    :mod:`tdbook.games.backgammon_encoding` for the sparse writer the learners use.
    """

    name = "backgammon"
    n_players = 2
    result_range = (-3.0, 3.0)
    encoding_shape = (198,)

    def __init__(self, seed: int = 0, stream: int = 0) -> None:
        self.seed, self.stream = seed, stream
        make_state(seed, stream)  # validates
        self._bufs = make_buffers()

    # -- state
    def initial_state(self, seed: int | None = None) -> BGState:
        rng = make_state(self.seed if seed is None else seed, self.stream)
        first, a, b = opening_roll(rng)
        return BGState(initial_position().tobytes(), int(first), (int(a), int(b)), int(rng[0]))

    def state_from(
        self, position: np.ndarray, player: int = 0, dice: tuple[int, int] = (3, 1), rng: int = 0
    ) -> BGState:
        """A state from a position (side on roll's view), checked for 15 checkers per side."""
        p = np.asarray(position)
        if not np.issubdtype(p.dtype, np.integer):
            if not (np.issubdtype(p.dtype, np.floating) and np.all(p == np.round(p))):
                raise ValueError(f"a position holds whole checker counts, got {p.dtype} values")
        check_position(p)
        if player not in (0, 1) or isinstance(player, bool):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        try:
            d1, d2 = dice
        except (TypeError, ValueError):
            raise ValueError(f"dice must be a pair of integers in 1..6, got {dice!r}") from None
        if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) and 1 <= d <= 6 for d in (d1, d2)):
            raise ValueError(f"dice must be a pair of integers in 1..6, got {dice!r}")
        if not isinstance(rng, (int, np.integer)) or not 0 <= rng < 2**64:
            raise ValueError(f"rng must be an integer state in [0, 2**64), got {rng!r}")
        return BGState(p.astype(np.int8).tobytes(), int(player), (int(d1), int(d2)), int(rng))

    def to_move(self, state: BGState) -> int:
        return state.player

    # -- moves
    def afterstates(self, state: BGState) -> tuple[np.ndarray, list[list[tuple[int, int]]]]:
        """Distinct afterstates (mover's view, not flipped) and one hop list reaching each."""
        if self.is_terminal(state):
            return np.zeros((0, NSLOT), np.int8), []
        b = self._bufs
        n = gen_afterstates(state.position, state.dice[0], state.dice[1], *b)
        if b[2][_W_OVER]:
            raise RuntimeError(f"more than {MAX_AFTER} afterstates: the move buffer overflowed")
        return b[0][:n].copy(), hop_lists(b, n)

    def legal_moves(self, state: BGState) -> list[str]:
        pos = state.position
        after, hops = self.afterstates(state)
        return [move_string(pos, h) for h in hops]

    def apply(self, state: BGState, move) -> BGState:
        """Play ``move`` (notation string, or a list of ``(from, to)`` hops); the dice for the next
        side come from the state's stream.  Raises :class:`IllegalMove` with the reason."""
        from .base import naming

        if self.is_terminal(state):
            raise IllegalMove(f"the game is over: no move {move!r}", move)
        try:
            after = self.resolve(state, move)
        except IllegalMove as e:
            raise naming(move, e) from None
        return self.next_state(state, after)

    def next_state(self, state: BGState, after: np.ndarray) -> BGState:
        """The state after the mover reached afterstate ``after`` (flipped to the next side, new dice)."""
        rng = np.array([state.rng], dtype=np.uint64)
        d1, d2 = roll(rng)
        return BGState(flipped(np.asarray(after, np.int8)).tobytes(), 1 - state.player, (int(d1), int(d2)), int(rng[0]))

    def resolve(self, state: BGState, move) -> np.ndarray:
        """The afterstate a move denotes, or :class:`IllegalMove` with the reason."""
        pos = state.position
        after, hops = self.afterstates(state)
        d1, d2 = state.dice
        roll_s = f"{d1}-{d2}"
        if isinstance(move, str):
            chains = parse_move(move)
        else:
            try:
                chains = [([int(s), int(t)], [False, False]) for s, t in move]
            except (TypeError, ValueError):
                raise IllegalMove(
                    f"a move is a string like '8/5 6/5' or a list of (from, to) pairs, got {move!r}"
                ) from None
            for s, t in (c[0] for c in chains):
                if not (1 <= s <= 25 and 0 <= t < s):
                    raise IllegalMove(f"hop {s}/{t} is not a move from a point to a lower one")
        # the mover's target distribution, the hits the move certainly makes, and (kept for the
        # error message only) the first rule it visibly breaks
        mine = np.maximum(pos.astype(np.int64), 0)
        must_hit: set[int] = set()
        reasons: list[str] = []
        nbar = int(pos[BAR])
        entered = 0
        pips_used = []
        for pts, marks in chains:
            if pts[0] == 25:
                entered += 1
            for a, b2, star in zip(pts, pts[1:], marks[1:]):
                if b2 >= 1 and pos[b2] <= -2:
                    reasons.append(f"point {b2} is blocked by the opponent ({-int(pos[b2])} checkers)")
                if star and not (b2 >= 1 and pos[b2] == -1):
                    raise IllegalMove(f"there is no opposing blot to hit on {_pt(b2)}")
                if b2 >= 1 and pos[b2] == -1:
                    must_hit.add(b2)
                pips_used.append(a - b2)
            mine[pts[0]] -= 1
            mine[OFF if pts[-1] == 0 else pts[-1]] += 1
        short = [s for s in range(1, 26) if mine[s] < 0]
        if short:
            raise IllegalMove(f"not enough checkers of yours on {_pt(short[0])} for {move!r}")
        slots = list(range(1, 27))
        same = np.all(np.maximum(after[:, slots].astype(np.int64), 0) == mine[slots], axis=1)
        blots = [s for s in range(1, 25) if pos[s] == -1]
        cands = []
        for j in np.flatnonzero(same):
            hits = {s for s in blots if after[j, s] >= 0}
            if must_hit <= hits:
                cands.append((int(j), hits))
        if len(cands) == 1:
            return after[cands[0][0]].copy()
        if len(cands) > 1:
            exact = [c for c in cands if c[1] == must_hit]
            if len(exact) == 1:
                return after[exact[0][0]].copy()
            raise IllegalMove(
                f"{move!r} is ambiguous with {roll_s}: mark the hits with '*' "
                f"(e.g. {move_string(pos, hops[cands[0][0]])!r})"
            )
        # not legal: say why
        if reasons:
            raise IllegalMove(reasons[0])
        if nbar > 0 and entered < min(nbar, 4 if d1 == d2 else 2) and any(p[0] != 25 for p, _ in chains):
            raise IllegalMove(f"you have {nbar} checker(s) on the bar: enter before moving other checkers")
        if any(p[-1] == 0 for p, _ in chains):
            outside = [s for s in range(7, 26) if mine[s] > 0]
            if outside:
                raise IllegalMove(
                    f"cannot bear off while checkers are outside the home board (e.g. on {_pt(outside[0])})"
                )
        cap = 4 * d1 if d1 == d2 else d1 + d2
        if sum(pips_used) > cap:
            raise IllegalMove(f"{move!r} moves {sum(pips_used)} pips but the roll {roll_s} gives at most {cap}")
        most = max((len(h) for h in hops), default=0)
        if most == 0:
            raise IllegalMove(f"no checker can move with {roll_s}: the only legal move is the empty move ''")
        if d1 != d2 and most == 1 and len(pips_used) == 1 and pips_used[0] < max(d1, d2):
            if any(h[0][0] - h[0][1] == max(d1, d2) or h[0][1] == 0 for h in hops):
                raise IllegalMove(
                    f"only one die can be played with {roll_s}: it must be the larger ({max(d1, d2)}) when possible"
                )
        if len(pips_used) < most and sum(pips_used) < cap:
            raise IllegalMove(
                f"{move!r} does not use all the dice: with {roll_s} you must play "
                f"{'both dice' if most == 2 else f'{most} moves'} when possible "
                f"(e.g. {move_string(pos, hops[0])!r})"
            )
        raise IllegalMove(
            f"{move!r} is not a legal move with {roll_s} (legal moves include {move_string(pos, hops[0])!r})"
        )

    # -- end of game
    def is_terminal(self, state: BGState) -> bool:
        b = np.frombuffer(state.board, dtype=np.int8)
        return bool(b[OPP_OFF] == -15 or b[OFF] == 15)

    def result(self, state: BGState) -> float:
        """Points won by player 0 (±1 single, ±2 gammon, ±3 backgammon); ValueError while the game runs."""
        b = state.position
        if b[OPP_OFF] == -15:  # the side that just moved (not on roll) has won
            m = win_multiplier(flipped(b))
            winner = 1 - state.player
        elif b[OFF] == 15:
            m = win_multiplier(b)
            winner = state.player
        else:
            from .base import not_terminal

            raise not_terminal(self, state)
        return float(m if winner == 0 else -m)

    def key(self, state: BGState) -> tuple[bytes, int, tuple[int, int]]:
        """(board, side on roll, dice): the decision; the stream for later dice is left out."""
        return (state.board, state.player, state.dice)

    def encode(self, state: BGState) -> np.ndarray:
        """Tesauro's 198 inputs (dense), with the side on roll's colour units."""
        from .backgammon_encoding import encode_dense

        return encode_dense(state.position, state.player, True)


def check_position(p: np.ndarray) -> None:
    """Raise ``ValueError`` naming the problem unless ``p`` is a valid int[28] position."""
    if p.shape != (NSLOT,):
        raise ValueError(f"a position is an int array of shape (28,), got shape {p.shape}")
    p = p.astype(np.int64)
    if p[25] < 0 or p[26] < 0 or p[0] > 0 or p[27] > 0:
        raise ValueError("slots 25/26 (mover's bar/off) must be >= 0 and slots 0/27 (opponent's) <= 0")
    mine = int(p[p > 0].sum())
    theirs = int(-p[p < 0].sum())
    if mine != 15 or theirs != 15:
        raise ValueError(f"each side needs 15 checkers, got {mine} (mover) and {theirs} (opponent)")


def make_position(mine: dict[int, int], theirs: dict[int, int], my_bar: int = 0, their_bar: int = 0) -> np.ndarray:
    """The position (the mover's view) with ``mine`` checkers and ``theirs`` (``{point: count}``, counts
    positive, points 1–24 numbered from the mover's side) and on the bars, every other checker borne off;
    ``ValueError`` (:func:`check_position`) when a side has more than 15."""
    p = np.zeros(NSLOT, np.int8)
    for k, v in mine.items():
        p[k] = v
    for k, v in theirs.items():
        p[k] = -v
    p[BAR], p[OPP_BAR] = my_bar, -their_bar
    p[OFF] = 15 - sum(mine.values()) - my_bar
    p[OPP_OFF] = -(15 - sum(theirs.values()) - their_bar)
    check_position(p)
    return p
