"""Notebook 02 §1: the board as Samuel stored it (Powell (2000) §3.1) — the bit words of a position, moves as
shifts in two numberings, and perft next to the published counts.

§3.1: each side has a word of its men and a word of its kings, plus one word of the occupied squares ("these
five words sufficiently describe the state-space"); "to move forward and to the right, 4 right bit shifts …
forward and left, 5".  The shifts are uniform only in Samuel's own layout (IBM 704 bit positions 1–35 with
9, 18 and 27 unused; Samuel 1959 App. A): on 32 consecutive squares a forward step is a shift by 4, or by 3 or
5 depending on the row.  :func:`shift_sets` measures both on every move of positions from random games.
"""

from __future__ import annotations

import numpy as np

from ...games.checkers import Checkers, CheckersState, moves_of, samuel_bit, samuel_word, squares
from ...games.checkers_bitboard import perft, random_positions

#: Aart Bik, "perft for 8x8 checkers" (TalkChess / Computer Chess Club forum, 8 May 2009): perft(d) of English
#: checkers from the initial position, d = 1..17 (duplicate captures kept, as by our generator)
BIK_PERFT = (
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388623673, 1766623630,
    7978439499, 36263167175, 165629569428, 758818810990,
)  # fmt: skip


def words(state: CheckersState | None = None) -> list[dict[str, object]]:
    """The five words of a position (§3.1) — each side's men and kings, and the occupied squares — as 32-bit
    hex, as Samuel's 35-bit word (bit ``samuel_bit(s)`` for square ``s``) in hex, and the squares they hold."""
    s = state if state is not None else Checkers().initial_state()
    rows = [
        ("Black men", s.bm),
        ("Black kings", s.bk),
        ("White men", s.wm),
        ("White kings", s.wk),
        ("occupied", s.bm | s.bk | s.wm | s.wk),
    ]
    return [
        {"word": n, "32-bit": f"{w:#010x}", "Samuel 35-bit": f"{samuel_word(w):#011x}", "squares": squares(w)}
        for n, w in rows
    ]


def shift_sets(positions: int = 2000, seed: int = 0) -> dict[str, object]:
    """The shift amounts (bit distance between the from and to squares) of every ordinary move in
    ``positions`` boards of seeded random games, in the consecutive 32-square numbering and in Samuel's 35-bit
    layout; and whether every 35-bit shift turns the moved piece's word into its word after the move."""
    out = np.zeros((positions, 5), dtype=np.int64)
    random_positions(seed, positions, 80, out)
    s32: set[int] = set()
    s35: set[int] = set()
    moves = 0
    exact = True
    for row in out:
        st = CheckersState(*(int(x) for x in row))
        for m in moves_of(st):
            if m.captured:
                continue
            d32 = abs(m.to - m.frm)
            d35 = abs(samuel_bit(m.to) - samuel_bit(m.frm))
            s32.add(d32)
            s35.add(d35)
            lo, hi = sorted((m.frm, m.to))
            exact &= samuel_word(1 << (hi - 1)) == samuel_word(1 << (lo - 1)) << d35
            moves += 1
    return {"32-square": sorted(s32), "Samuel 35-bit": sorted(s35), "moves": moves, "35-bit shifts exact": exact}


def start() -> CheckersState:
    """The start position."""
    return Checkers().initial_state()


def highest_samuel_bit() -> int:
    """The highest bit position Samuel's layout uses (it must fit the IBM 704's 36-bit word)."""
    return max(samuel_bit(s) for s in range(1, 33))


def one_bit_per_square(word_bits: int = 36) -> bool:
    """§3.1: every playable square is one bit of one word: the engine's 32 squares map to distinct bit positions
    of Samuel's layout, all within a ``word_bits``-bit word."""
    bits = [samuel_bit(s) for s in range(1, 33)]
    empty = CheckersState(0, 0, 0, 0)
    return len(set(bits)) == len(squares(0xFFFFFFFF)) == 32 and max(bits) <= word_bits and not moves_of(empty)


def perft_table(depth: int) -> list[dict[str, int | bool]]:
    """Perft from the start position, d = 1..``depth`` (≤ 17), next to Bik's published counts."""
    if not 1 <= depth <= len(BIK_PERFT):
        raise ValueError(f"depth must be in 1..{len(BIK_PERFT)}, got {depth!r}")
    s = Checkers().initial_state()
    out = []
    for d in range(1, depth + 1):
        n = int(perft(*s.words, s.side, d))
        out.append({"depth": d, "ours": n, "published": BIK_PERFT[d - 1], "equal": n == BIK_PERFT[d - 1]})
    return out
