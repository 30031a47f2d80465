"""English/American checkers on 32-square bitboards: the jitted rules engine (Powell (2000) §3.1; Samuel 1959 App. A).

**Squares.** Bit ``i`` (0..31) is the standard square ``i + 1`` of the 1–32 numbering (Samuel 1959 Fig. B-1;
the numbering of every checkers book).  Row ``r = i // 4`` counts from Black's back row (squares 1–4) to
White's (29–32); in row ``r`` the four dark squares sit in columns ``2k + 1`` (``r`` even) or ``2k`` (``r`` odd),
``k = i % 4``, columns counted 0..7 from the left of the usual diagram (Black at the top).  Black's double
corner is 1/5, White's 28/32.  Black moves first, towards the higher numbers.

**A position** is four 32-bit words — Black's men, Black's kings, White's men, White's kings (§3.1: "each
player was then assigned two words … standard pieces … kings") — held in kernels as ``int64`` so that
every bit operation stays in one integer type, plus the side to move (0 Black, 1 White).  Kernels work
*mover-relative*: ``(own_men, own_kings, opp_men, opp_kings, black)`` where ``black`` says whether the
mover's men advance towards the higher numbers.

**Moves as shifts.**  A step towards the higher numbers is a left shift by 4 from every square plus a
shift by 5 (even rows) or 3 (odd rows), masked at the board edges (:func:`step`); Samuel's 35-bit layout,
with bit positions 9, 18 and 27 left out, makes these the uniform shifts 4 and 5 of §3.1 (see
:mod:`tdbook.games.checkers` for that numbering).

**Move generation** (:func:`gen_moves`) writes one row per legal move into a move buffer
(:func:`move_buffer`): ``[from, to, captured-mask, path, jumps]`` — squares 0-based; ``path`` packs the
landing squares of a jump sequence 5 bits each (first jump lowest); ``jumps`` is 0 for an ordinary move.  Rules (English
draughts, WCDF): men move and capture diagonally forward only, kings both ways, one square at a time;
a capture is compulsory whenever one exists, and a capturing piece must go on jumping while it can (any
capturing sequence may be chosen, not necessarily the longest); a captured piece leaves the board as it
is jumped (in English checkers a landing square is never a captured piece's square, so the removal
time never matters; the jumping piece's own starting square counts as empty); a man reaching the far
row is crowned and its move ends there.  A side with no legal move has lost.  Two jump sequences that
take the same pieces between the same squares along different paths (a king's closed loop) are two
moves, as in the published perft counts, which do not remove duplicate captures.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..core.rng import randint, seed_state

MASK32 = 0xFFFFFFFF
#: squares in even rows (columns 1, 3, 5, 7) and odd rows (columns 0, 2, 4, 6)
EVEN_ROWS = 0x0F0F0F0F
ODD_ROWS = 0xF0F0F0F0
#: even-row squares not on the right edge; odd-row squares not on the left edge
EVEN_NOT_RIGHT = 0x07070707
ODD_NOT_LEFT = 0xE0E0E0E0
#: the far rows: where Black's men are crowned (29–32) and where White's are (1–4)
#: the starting words (bm, bk, wm, wk): Black's men on 1–12, White's on 21–32
START = (0x00000FFF, 0, 0xFFF00000, 0)
BLACK_CROWN = 0xF0000000
WHITE_CROWN = 0x0000000F
MAX_MOVES = 128  # more than any position has (a full set of kings has at most 4 × 12 = 48 moves)
FROM, TO, CAP, PATH, JUMPS = 0, 1, 2, 3, 4
#: a move buffer is ``int64[BUF_ROWS, BUF_COLS]`` (:func:`move_buffer`): moves in rows ``< MAX_MOVES``, the
#: jump search's explicit stack in the rows after them
BUF_ROWS, BUF_COLS = MAX_MOVES + 16, 6
#: directions: 0 = down-left, 1 = down-right (towards the higher numbers: Black's forward), 2 = up-left,
#: 3 = up-right (White's forward); "left" is the lower column of the diagram
DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT = 0, 1, 2, 3


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64 (LLVM ``ctpop``)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a nonzero int64 (LLVM ``cttz``)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


def _coords(i: int) -> tuple[int, int]:
    r = i // 4
    return r, 2 * (i % 4) + (1 if r % 2 == 0 else 0)


def _square_at(r: int, c: int) -> int:
    if not (0 <= r < 8 and 0 <= c < 8) or (r + c) % 2 == 0:
        return -1
    return 4 * r + c // 2


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    nb = np.full((32, 4), -1, dtype=np.int64)
    for i in range(32):
        r, c = _coords(i)
        for d, (dr, dc) in enumerate(((1, -1), (1, 1), (-1, -1), (-1, 1))):
            nb[i, d] = _square_at(r + dr, c + dc)
    rows = np.array([_coords(i)[0] for i in range(32)], dtype=np.int64)
    cols = np.array([_coords(i)[1] for i in range(32)], dtype=np.int64)
    for a in (nb, rows, cols):
        a.setflags(write=False)
    return nb, rows, cols


#: ``NEIGHBOUR[i, d]``: the square next to ``i`` in direction ``d`` (−1 off the board)
#: ``ROW[i]``, ``COL[i]``: row (0 = squares 1–4) and diagram column of square ``i``
NEIGHBOUR, ROW, COL = _tables()


# ----------------------------------------------------------------------------- steps (bitboard shifts)


@njit(cache=True, inline="always")
def step(x: int, d: int) -> int:
    """The squares one diagonal step from the squares of ``x`` in direction ``d`` (off-board steps vanish)."""
    if d == DOWN_LEFT:
        return (((x & EVEN_ROWS) << 4) | ((x & ODD_NOT_LEFT) << 3)) & MASK32
    if d == DOWN_RIGHT:
        return (((x & EVEN_NOT_RIGHT) << 5) | ((x & ODD_ROWS) << 4)) & MASK32
    if d == UP_LEFT:
        return ((x & EVEN_ROWS) >> 4) | ((x & ODD_NOT_LEFT) >> 5)
    return ((x & EVEN_NOT_RIGHT) >> 3) | ((x & ODD_ROWS) >> 4)


@njit(cache=True, inline="always")
def opposite(d: int) -> int:
    """The direction back: down-left ↔ up-right, down-right ↔ up-left."""
    return 3 - d


@njit(cache=True, inline="always")
def movers_in(d: int, men: int, kings: int, black: bool) -> int:
    """The pieces of one side that may step in direction ``d``: all of them forward, kings only backward."""
    if (d < 2) == black:
        return men | kings
    return kings


@njit(cache=True)
def simple_targets(men: int, kings: int, empty: int, black: bool) -> int:
    """Every empty square some piece of this side could reach by an ordinary (non-capturing) move."""
    t = 0
    for d in range(4):
        t |= step(movers_in(d, men, kings, black), d)
    return t & empty


@njit(cache=True)
def jumpers(own_men: int, own_kings: int, opp: int, empty: int, black: bool) -> int:
    """The mover's pieces that have a capture now (``opp`` = opponent's pieces, ``empty`` = empty squares)."""
    j = 0
    for d in range(4):
        b = opposite(d)
        # a piece on s jumps d when step(s, d) is an opponent and step(step(s, d), d) is empty
        j |= movers_in(d, own_men, own_kings, black) & step(step(empty, b) & opp, b)
    return j


@njit(cache=True)
def has_capture(own_men: int, own_kings: int, opp_men: int, opp_kings: int, black: bool) -> bool:
    """True when the side to move must capture."""
    empty = ~(own_men | own_kings | opp_men | opp_kings) & MASK32
    return jumpers(own_men, own_kings, opp_men | opp_kings, empty, black) != 0


# ----------------------------------------------------------------------------- move generation


def move_buffer(plies: int | None = None) -> np.ndarray:
    """A move buffer for :func:`gen_moves` (``plies`` given: one per ply, shape ``(plies, BUF_ROWS, BUF_COLS)``)."""
    shape = (BUF_ROWS, BUF_COLS) if plies is None else (plies, BUF_ROWS, BUF_COLS)
    return np.zeros(shape, dtype=np.int64)


@njit(cache=True, inline="always")
def _record(out, n, frm, to, cap, path, nj):
    if n >= MAX_MOVES:
        raise ValueError("checkers: more than MAX_MOVES legal moves")
    out[n, FROM] = frm
    out[n, TO] = to
    out[n, CAP] = cap
    out[n, PATH] = path
    out[n, JUMPS] = nj
    return n + 1


@njit(cache=True)
def _jumps_from(out, n, s0, king, black, blocked, opp, stk):
    """Write every complete jump sequence of the piece on ``s0`` from row ``n``; return the new count.

    Depth-first over an explicit stack ``stk`` (rows: square, uncaptured opponents, next direction, any
    jump found, captured, path) — numba's cached code cannot hold recursive functions.  ``blocked`` =
    the mover's other pieces."""
    d0 = 0 if (king or black) else 2
    d1 = 4 if (king or not black) else 2
    crown = BLACK_CROWN if black else WHITE_CROWN
    k = 0
    stk[0, 0] = s0
    stk[0, 1] = opp
    stk[0, 2] = d0
    stk[0, 3] = 0
    stk[0, 4] = 0
    stk[0, 5] = 0
    while k >= 0:
        s = stk[k, 0]
        rem = stk[k, 1]
        pushed = False
        d = stk[k, 2]
        while d < d1:
            o = NEIGHBOUR[s, d]
            d += 1
            if o < 0 or not (rem >> o) & 1:
                continue
            land = NEIGHBOUR[o, d - 1]
            if land < 0 or ((blocked | rem) >> land) & 1:
                continue
            stk[k, 2] = d
            stk[k, 3] = 1
            ncap = stk[k, 4] | (1 << o)
            npath = stk[k, 5] | (land << (5 * k))
            if not king and (crown >> land) & 1:  # crowned: the move ends here
                n = _record(out, n, s0, land, ncap, npath, k + 1)
                continue
            k += 1
            stk[k, 0] = land
            stk[k, 1] = rem & ~(1 << o)
            stk[k, 2] = d0
            stk[k, 3] = 0
            stk[k, 4] = ncap
            stk[k, 5] = npath
            pushed = True
            break
        if pushed:
            continue
        if stk[k, 3] == 0 and k > 0:
            n = _record(out, n, s0, s, stk[k, 4], stk[k, 5], k)
        k -= 1
    return n


@njit(cache=True)
def gen_captures(own_men: int, own_kings: int, opp_men: int, opp_kings: int, black: bool, out: np.ndarray) -> int:
    """Write every capturing move of the mover into ``out`` (a :func:`move_buffer`); return how many (0 if none)."""
    own = own_men | own_kings
    opp = opp_men | opp_kings
    empty = ~(own | opp) & MASK32
    j = jumpers(own_men, own_kings, opp, empty, black)
    if j == 0:
        return 0
    stk = out[MAX_MOVES:]
    n = 0
    while j:
        s = lowest_bit(j)
        j &= j - 1
        n = _jumps_from(out, n, s, (own_kings >> s) & 1 == 1, black, own & ~(1 << s), opp, stk)
    return n


@njit(cache=True)
def gen_simple(own_men: int, own_kings: int, opp_men: int, opp_kings: int, black: bool, out: np.ndarray) -> int:
    """Write every ordinary (non-capturing) move into ``out`` (ignoring compulsory capture); return how many."""
    empty = ~(own_men | own_kings | opp_men | opp_kings) & MASK32
    n = 0
    for d in range(4):
        t = step(movers_in(d, own_men, own_kings, black), d) & empty
        while t:
            to = lowest_bit(t)
            t &= t - 1
            out[n, FROM] = NEIGHBOUR[to, opposite(d)]
            out[n, TO] = to
            out[n, CAP] = 0
            out[n, PATH] = 0
            out[n, JUMPS] = 0
            n += 1
    return n


@njit(cache=True)
def gen_moves(own_men: int, own_kings: int, opp_men: int, opp_kings: int, black: bool, out: np.ndarray) -> int:
    """Write every legal move into ``out`` (captures when any exists, else ordinary moves); return how many."""
    n = gen_captures(own_men, own_kings, opp_men, opp_kings, black, out)
    if n:
        return n
    return gen_simple(own_men, own_kings, opp_men, opp_kings, black, out)


@njit(cache=True)
def count_moves(own_men: int, own_kings: int, opp_men: int, opp_kings: int, black: bool, buf: np.ndarray) -> int:
    """How many legal moves (ordinary moves counted by popcount; ``buf`` is scratch for captures)."""
    n = gen_captures(own_men, own_kings, opp_men, opp_kings, black, buf)
    if n:
        return n
    empty = ~(own_men | own_kings | opp_men | opp_kings) & MASK32
    for d in range(4):
        n += popcount(step(movers_in(d, own_men, own_kings, black), d) & empty)
    return n


@njit(cache=True)
def make_move(own_men: int, own_kings: int, opp_men: int, opp_kings: int, black: bool, frm: int, to: int, cap: int):
    """The four words after the mover plays ``frm → to`` capturing ``cap`` (still mover-relative, not swapped).

    A man landing on the far row is crowned."""
    fb = 1 << frm
    tb = 1 << to
    if own_kings & fb:
        own_kings = (own_kings & ~fb) | tb
    else:
        crown = BLACK_CROWN if black else WHITE_CROWN
        own_men &= ~fb
        if crown & tb:
            own_kings |= tb
        else:
            own_men |= tb
    nc = ~cap
    return own_men, own_kings, opp_men & nc, opp_kings & nc


@njit(cache=True)
def play(bm: int, bk: int, wm: int, wk: int, side: int, move: np.ndarray):
    """The absolute position ``(bm, bk, wm, wk)`` after the side to move (``side``) plays ``move`` (a buffer row)."""
    if side == 0:
        bm, bk, wm, wk = make_move(bm, bk, wm, wk, True, move[FROM], move[TO], move[CAP])
    else:
        wm, wk, bm, bk = make_move(wm, wk, bm, bk, False, move[FROM], move[TO], move[CAP])
    return bm, bk, wm, wk


@njit(cache=True)
def legal_moves(bm: int, bk: int, wm: int, wk: int, side: int, out: np.ndarray) -> int:
    """Every legal move of the side to move in an absolute position, into ``out``; returns how many."""
    if side == 0:
        return gen_moves(bm, bk, wm, wk, True, out)
    return gen_moves(wm, wk, bm, bk, False, out)


@njit(cache=True)
def is_quiet_move(bm: int, bk: int, wm: int, wk: int, side: int, move: np.ndarray) -> bool:
    """True for a king's non-capturing move (the moves the 40-moves-per-side draw rule counts)."""
    kings = bk if side == 0 else wk
    return move[JUMPS] == 0 and (kings >> move[FROM]) & 1 == 1


# ----------------------------------------------------------------------------- perft


@njit(cache=True)
def perft(bm: int, bk: int, wm: int, wk: int, side: int, depth: int) -> int:
    """The number of move sequences of length ``depth`` from a position (leaf positions counted with
    multiplicity; the last ply is counted, not played: "bulk counting").  Iterative (explicit stack)."""
    if depth <= 0:
        return 1
    bufs = np.empty((depth + 1, BUF_ROWS, BUF_COLS), dtype=np.int64)
    pos = np.empty((depth + 1, 4), dtype=np.int64)  # mover-relative words at each ply
    nmv = np.zeros(depth + 1, dtype=np.int64)
    nxt = np.zeros(depth + 1, dtype=np.int64)
    if side == 0:
        pos[0, 0], pos[0, 1], pos[0, 2], pos[0, 3] = bm, bk, wm, wk
    else:
        pos[0, 0], pos[0, 1], pos[0, 2], pos[0, 3] = wm, wk, bm, bk
    black0 = side == 0
    if depth == 1:
        return count_moves(pos[0, 0], pos[0, 1], pos[0, 2], pos[0, 3], black0, bufs[0])
    total = 0
    nmv[0] = gen_moves(pos[0, 0], pos[0, 1], pos[0, 2], pos[0, 3], black0, bufs[0])
    nxt[0] = 0
    p = 0
    while p >= 0:
        if nxt[p] >= nmv[p]:
            p -= 1
            continue
        i = nxt[p]
        nxt[p] = i + 1
        black = (p % 2 == 0) == black0
        mv = bufs[p, i]
        m, k, om, ok = make_move(pos[p, 0], pos[p, 1], pos[p, 2], pos[p, 3], black, mv[FROM], mv[TO], mv[CAP])
        if p + 2 == depth:  # the child is at depth − 1: count its moves
            total += count_moves(om, ok, m, k, not black, bufs[p + 1])
            continue
        p += 1
        pos[p, 0], pos[p, 1], pos[p, 2], pos[p, 3] = om, ok, m, k
        nmv[p] = gen_moves(om, ok, m, k, not black, bufs[p])
        nxt[p] = 0
    return total


@njit(cache=True)
def divide(bm: int, bk: int, wm: int, wk: int, side: int, depth: int, out_counts: np.ndarray, moves: np.ndarray) -> int:
    """Perft split by the first move: the moves into ``moves`` and ``perft(depth − 1)`` after each into
    ``out_counts``; returns the number of moves."""
    n = legal_moves(bm, bk, wm, wk, side, moves)
    for i in range(n):
        b0, b1, w0, w1 = play(bm, bk, wm, wk, side, moves[i])
        out_counts[i] = perft(b0, b1, w0, w1, 1 - side, depth - 1)
    return n


# ----------------------------------------------------------------------------- symmetry


@njit(cache=True)
def reverse32(x: int) -> int:
    """Bit ``i`` → bit ``31 − i``: the board turned half a turn (square ``s`` → ``33 − s``)."""
    x = ((x >> 1) & 0x55555555) | ((x & 0x55555555) << 1)
    x = ((x >> 2) & 0x33333333) | ((x & 0x33333333) << 2)
    x = ((x >> 4) & 0x0F0F0F0F) | ((x & 0x0F0F0F0F) << 4)
    x = ((x >> 8) & 0x00FF00FF) | ((x & 0x00FF00FF) << 8)
    x = ((x >> 16) & 0x0000FFFF) | ((x & 0x0000FFFF) << 16)
    return x & MASK32


@njit(cache=True)
def colour_flip(bm: int, bk: int, wm: int, wk: int):
    """The colour-reversed position (Samuel 1959 §1.1: ``s → 33 − s`` with the colours exchanged):
    Black's pieces become White's on the turned board and vice versa.  The side to move flips too."""
    return reverse32(wm), reverse32(wk), reverse32(bm), reverse32(bk)


# ----------------------------------------------------------------------------- material


@njit(cache=True, inline="always")
def credit(men: int, kings: int) -> int:
    """Samuel's material credit of one side: 2 per man, 3 per king (1959 App. C, MOVE and CORN)."""
    return 2 * popcount(men) + 3 * popcount(kings)


# ----------------------------------------------------------------------------- random play


@njit(cache=True)
def random_positions(seed: int, n: int, quiet_limit: int, out: np.ndarray) -> int:
    """Fill ``out[:n]`` (int64[n, 5]: bm, bk, wm, wk, side) with every position, in order, of seeded games of
    uniformly random legal moves from the start (a game ends when the mover has no move or after
    ``quiet_limit`` plies without a capture or man move); returns how many games were started."""
    rng = seed_state(seed, 0)
    buf = np.empty((BUF_ROWS, BUF_COLS), dtype=np.int64)
    k = 0
    games = 0
    while k < n:
        games += 1
        bm, bk, wm, wk, side, quiet = 0x00000FFF, 0, 0xFFF00000, 0, 0, 0
        while k < n and quiet < quiet_limit:
            nm = legal_moves(bm, bk, wm, wk, side, buf)
            if nm == 0:
                break
            out[k, 0], out[k, 1], out[k, 2], out[k, 3], out[k, 4] = bm, bk, wm, wk, side
            k += 1
            i = randint(rng, nm)
            quiet = quiet + 1 if is_quiet_move(bm, bk, wm, wk, side, buf[i]) else 0
            bm, bk, wm, wk = play(bm, bk, wm, wk, side, buf[i])
            side = 1 - side
    return games
