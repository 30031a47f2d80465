"""Situation codes of a Kenju move for Systems 1 and 2 (Kenju thesis §3.2.3, §3.3.4, App. C): encodings, no learning.

For a vacant point and each of the four directions, the four windows-of-five … five windows holding the point
are examined for each colour: a *line of the player* is a live line of the player's colour through the point
(a window with a player's stone and no opponent's), and likewise for the opponent.  **PM** is the most of the
player's stones in such a line and **PL** how many of them have that many; no such line gives the code
"0.5" (PM = 0, PL = 5: "all five lines have PM = 0").  OM and OL are the opponent's.  The direction code is
``[PL.PM / OL.OM]`` (§3.2.3), the four direction codes sorted numerically "to generalise one orientation to all
rotations and reflections".

- **System 1** (§3.2.3): each field in 3 bits, 12 bits per direction, 48 in all.  Bit order within the direction
  code: ``"PM.PL"`` (the moves field high: App. C writes the sub-codes as M.L, and §4.2.3's biasing needs the
  occupied end high; the default) or ``"PL.PM"`` (the order of §3.2.3's notation); the player's fields before the
  opponent's.  The four codes sorted in descending order, the most occupied direction first.
- **System 2** (§3.3.4): each field in a 4-bit *unary* code (PL 1..5 and PM 0..4 → 0000, 0001, 0011, 0111,
  1111), so that Hamming distance follows numeric distance; 16 bits per direction, 64 in all; bit 0 of the
  pattern is the most significant bit of the first (most occupied) direction code.

:func:`appendix_c` enumerates every arrangement of the eight points around a move on one line, for the
counts App. C states (11 sub-codes, 71 [PL.PM/OL.OM] combinations).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numba import njit

from .kenju import N_CELLS, N_DIRS, STEP, WHITE, Board

FIELD_ORDERS = ("PM.PL", "PL.PM")
UNARY = np.array([0b0000, 0b0001, 0b0011, 0b0111, 0b1111], dtype=np.int64)


@njit(cache=True)
def fields(board: Board, cell: int, colour: int, out: np.ndarray) -> None:
    """``out[d] = (PM, PL, OM, OL)`` of ``cell`` for the player of ``colour``, direction d (an int64[4, 4] array)."""
    s = colour - 1
    o = 1 - s
    for d in range(N_DIRS):
        pm = 0
        pl = 0
        om = 0
        ol = 0
        for k in range(5):
            w = d * N_CELLS + cell - k * STEP[d]
            a = board.count[s, w]
            b = board.count[o, w]
            if a > 0 and b == 0:
                if a > pm:
                    pm = a
                    pl = 1
                elif a == pm:
                    pl += 1
            elif b > 0 and a == 0:
                if b > om:
                    om = b
                    ol = 1
                elif b == om:
                    ol += 1
        out[d, 0] = pm
        out[d, 1] = pl if pm > 0 else 5
        out[d, 2] = om
        out[d, 3] = ol if om > 0 else 5


@njit(cache=True)
def direction_code12(f: np.ndarray, pm_high: bool) -> int:
    """System 1's 12-bit direction code of one row of :func:`fields`."""
    if pm_high:
        return (f[0] << 9) | (f[1] << 6) | (f[2] << 3) | f[3]
    return (f[1] << 9) | (f[0] << 6) | (f[3] << 3) | f[2]


@njit(cache=True)
def code48(board: Board, cell: int, colour: int, pm_high: bool, out: np.ndarray) -> None:
    """System 1's situation code: the four 12-bit direction codes in descending order (int64[4])."""
    f = np.empty((N_DIRS, 4), dtype=np.int64)
    fields(board, cell, colour, f)
    for d in range(N_DIRS):
        out[d] = direction_code12(f[d], pm_high)
    out[:] = -np.sort(-out)


@njit(cache=True)
def code64(board: Board, cell: int, colour: int, out: np.ndarray) -> None:
    """System 2's situation code as 64 bits (uint8, bit 0 first): four unary 16-bit direction codes, descending."""
    f = np.empty((N_DIRS, 4), dtype=np.int64)
    fields(board, cell, colour, f)
    codes = np.empty(N_DIRS, dtype=np.int64)
    for d in range(N_DIRS):
        codes[d] = (UNARY[f[d, 0]] << 12) | (UNARY[f[d, 1] - 1] << 8) | (UNARY[f[d, 2]] << 4) | UNARY[f[d, 3] - 1]
    codes = -np.sort(-codes)
    for d in range(N_DIRS):
        for j in range(16):
            out[16 * d + j] = (codes[d] >> (15 - j)) & 1


def unary(v: int) -> str:
    return format(int(UNARY[v]), "04b")


def line_fields(line: list[int] | tuple[int, ...]) -> tuple[int, int, int, int]:
    """(PM, PL, OM, OL) of the move "?" at the centre of ``line``, the nine points of one direction (0 vacant,
    1 the player's stone, 2 the opponent's; ``line[4]`` is the vacant move): :func:`fields` for one direction,
    on a list instead of a board (``tests/test_kenju_ram.py`` checks the two agree on played positions)."""
    if len(line) != 9 or line[4] != 0:
        raise ValueError(f"line must be nine points with the vacant move at index 4, got {line!r}")
    out = []
    for mine, theirs in ((1, 2), (2, 1)):
        best, count = 0, 0
        for start in range(5):
            win = line[start : start + 5]
            a, b = win.count(mine), win.count(theirs)
            if a > 0 and b == 0:
                if a > best:
                    best, count = a, 1
                elif a == best:
                    count += 1
        out += [best, count if best else 5]
    return out[0], out[1], out[2], out[3]


def subcode(m: int, lines: int) -> str:
    """A sub-code in App. C's moves.lines notation: "0.5" when no line of the colour holds a stone."""
    return f"{m}.{lines}" if m else "0.5"


def appendix_c() -> dict[str, object]:
    """Every arrangement of the 8 points around a move on a line (vacant / player / opponent), coded by
    :func:`line_fields`: the distinct sub-codes ``M.L`` (moves.lines, as App. C writes them), the
    [player/opponent] combinations that occur, and the values each field takes."""
    sub, combos = set(), set()
    pm, pl = set(), set()
    for arr in itertools.product((0, 1, 2), repeat=8):
        f = line_fields(list(arr[:4]) + [0] + list(arr[4:]))
        codes = (subcode(f[0], f[1]), subcode(f[2], f[3]))
        sub.update(codes)
        combos.add(codes)
        pm.update((f[0], f[2]))
        pl.update((f[1], f[3]))
    return {"subcodes": sorted(sub), "combinations": sorted(combos), "pm_values": sorted(pm), "pl_values": sorted(pl)}


def bits_for(n: int) -> int:
    """Bits a non-redundant code of ``n`` distinct values needs (§3.2.3: "71 ... would require only 7 bits")."""
    if n < 1:
        raise ValueError(f"a code needs at least one value, got {n!r}")
    return max(1, math.ceil(math.log2(n)))


def code_sizes() -> dict[str, int]:
    """§3.2.3's code lengths computed from the enumeration (:func:`appendix_c`) instead of stated:

    - ``field_bits``: bits per field, enough for every value PM (or PL) takes; ``code_bits`` = 4 directions ×
      2 colours × (PM bits + PL bits), System 1's address width;
    - ``combination_bits`` = 4 × the bits of a non-redundant [PL.PM/OL.OM] code ("4x7 = 28 bits");
    - ``full_codes``: the distinct full situation codes — the four direction codes sorted (§3.2.3), and the four
      directions' points are disjoint but for the move, so every multiset of four combinations occurs:
      C(n + 3, 4); ``full_codes_unsorted`` = n⁴ ignores the sorting; ``full_code_bits`` = bits for ``full_codes``.
    """
    a = appendix_c()
    n = len(a["combinations"])
    pm_bits, pl_bits = bits_for(len(a["pm_values"])), bits_for(len(a["pl_values"]))
    full = math.comb(n + N_DIRS - 1, N_DIRS)
    return {
        "combinations": n,
        "pm_bits": pm_bits,
        "pl_bits": pl_bits,
        "code_bits": N_DIRS * 2 * (pm_bits + pl_bits),
        "combination_bits": N_DIRS * bits_for(n),
        "full_codes": full,
        "full_codes_unsorted": n**N_DIRS,
        "full_code_bits": bits_for(full),
    }


def code_text(board: Board, cell: int, colour: int = WHITE) -> str:
    """The code per direction (H, V, P, N) in App. C's moves.lines notation, ``[4.1/0.5]H``: four of the player's
    stones in one line, no opponent's line."""
    f = np.zeros((N_DIRS, 4), dtype=np.int64)
    fields(board, cell, colour, f)
    return " ".join(f"[{r[0]}.{r[1]}/{r[2]}.{r[3]}]{'HVPN'[d]}" for d, r in enumerate(f.tolist()))
