"""Samuel's board parameters (1959 App. C): the ratings his polynomial's terms are made of, computed in one
jitted pass from the bitboards.

Every parameter rates a board from the point of view of its **passive** side — the side that has just
moved, not on move — against the **active** side (the side to move).  :func:`parameters` turns the board so
that the passive side plays "Black" (its men move towards the higher numbers, its back row is 1–4; a board
whose passive side is White is colour-flipped, ``s → 33 − s``) and :func:`ratings` computes all
:data:`N_PARAMS` values at once into a float64 array.  The square lists are Appendix C's, for Black, in the
standard numbering, except CENT/CNTR/KCENT whose printed list "11, 12, 15, 16, 20, 21, 24, 25" is Samuel's
internal numbering (bits 9, 18, 27 skipped) and is the centre {10, 11, 14, 15, 18, 19, 22, 23} here; the
CRAMP squares for White printed "19 or 20" are 19 or 24 by the colour symmetry (the squares for Black are
9 or 14).  Turning the board makes every parameter symmetric under the colour flip by construction.

How a parameter becomes a polynomial term (the difference of the two sides' ratings, §1.3 of the notes and
App. C "method of computing terms") is the learner's business: :mod:`tdbook.learners.checkers_polynomial`.

The definitions, with our reading where the text is open (``P`` passive, ``A`` active; "piece" = man or
king; neighbours are the up-to-4 diagonally adjacent squares; "moves" of ``A`` are its ordinary,
non-capturing moves; material credit = 2 per man + 3 per king):

=======  ===========================================================================================
ADV      +1 per ``P`` man on rows 5–6 (squares 17–24), −1 per ``P`` man on rows 3–4 (9–16), rows counted
         from ``P``'s back row.
APEX     −1 when no kings are on the board, 7 or 26 holds an ``A`` man and neither holds a ``P`` man.
BACK     +1 when ``A`` has no king and ``P`` pieces hold both bridge squares 1 and 3.
CENT     +1 per ``P`` man on the centre {10, 11, 14, 15, 18, 19, 22, 23}.
CNTR     +1 per centre square holding an ``A`` piece or to which an ``A`` piece can move.
CORN     +1 when ``A``'s credit is ≤ 6, ``P`` is ahead in credit, and ``A`` can move onto one of the
         double-corner squares {1, 5, 28, 32}.
CRAMP    +2 when ``P`` holds 13 and 9 or 14, while ``A`` holds all of 17, 21, 22 and 25.
DENY     +1 per square counted in MOB that is denied to ``A``: every ``A`` move onto it lets ``P`` capture
         the piece there with a capture after which ``A`` has no capture (no exchange).
DIA      +1 per ``P`` piece on the double-corner diagonals {1, 6, 10, 15, 19, 24, 28} ∪ {5, 9, 14, 18, 23,
         27, 32}.
DIAV     +3/2 per ``P`` piece on those diagonals, +1 one diagonal removed ({2, 7, 11, 16, 20} ∪ {13, 17,
         22, 26, 31}), +1/2 two removed ({3, 8, 12} ∪ {21, 25, 30}).
DYKE     +1 per three diagonally consecutive squares all holding ``P`` pieces (overlapping strings each
         count: four in a row are two dykes).
EXCH     +1 per square onto which ``A`` can move a piece so as to force an exchange: after that move ``P``
         has a capture (so must capture) and after every capture ``P`` could make, ``A`` can capture.
EXPOS    +1 per ``P`` piece flanked along one of its two diagonals by two empty squares (so it could be
         jumped along that diagonal).
FORK     +1 per pair of ``P`` pieces side by side in one row (two columns apart) with the square between
         them on ``A``'s side empty and both squares beyond them on the far side empty: an ``A`` man
         arriving there would threaten to jump either piece.  When ``A`` has a king the mirrored
         configuration (fork square on ``P``'s side) counts too.
GAP      +1 per empty square that separates two ``P`` pieces along a diagonal, or separates a ``P`` piece
         from the edge of the board (the square is on the edge, next to the piece, in line with it).
GUARD    +1 when ``A`` has no king and ``P`` holds the bridge (1, 3) or the triangle of Oreo (2, 3, 7).
HOLE     +1 per empty square with at least three ``P`` pieces among its neighbours.
KCENT    +1 per ``P`` king on the centre squares.
MOB      +1 per square to which ``A`` can move a piece (ordinary moves, whether or not a jump is pending).
MOBIL    MOB − DENY.
MOVE     +1 when both sides have equal credit, the total credit is below 24, and the number of pieces of
         both sides in the "move system" — the files headed by ``P``'s back-row squares, {1–4, 9–12,
         17–20, 25–28} — is odd.
NODE     +1 per ``P`` piece with at least three empty neighbours.
OREO     +1 when ``P`` has no king and ``P`` pieces hold 2, 3 and 7 (the triangle of Oreo).
POLE     +1 per ``P`` man all of whose neighbours are empty.
RECAP    = EXCH (Samuel added the duplicate to test the effect of the random times at which terms enter
         and leave the polynomial).
THRET    +1 per square onto which ``A`` can move a piece that, standing there, could then jump a ``P``
         piece.
MOMENT   Σ over ``P`` pieces of ((c − r)² − 1)/8, with r, c the row and column of the piece: the second
         moment about the diagonal axis through the double corners (0 on the double-corner files, 1 one
         removed, 3 two removed, 6 three removed).  Samuel mentions this term ("discovered more or less by
         accident") but Appendix C does not define it; this is our reading, making the 27th simple term.
=======  ===========================================================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .checkers_bitboard import (
    BUF_COLS,
    BUF_ROWS,
    CAP,
    COL,
    DOWN_LEFT,
    DOWN_RIGHT,
    FROM,
    MASK32,
    ROW,
    TO,
    UP_LEFT,
    UP_RIGHT,
    credit,
    gen_captures,
    gen_simple,
    has_capture,
    jumpers,
    lowest_bit,
    make_move,
    popcount,
    reverse32,
    simple_targets,
    step,
)

PARAMS = (
    "ADV",
    "APEX",
    "BACK",
    "CENT",
    "CNTR",
    "CORN",
    "CRAMP",
    "DENY",
    "DIA",
    "DIAV",
    "DYKE",
    "EXCH",
    "EXPOS",
    "FORK",
    "GAP",
    "GUARD",
    "HOLE",
    "KCENT",
    "MOB",
    "MOBIL",
    "MOVE",
    "NODE",
    "OREO",
    "POLE",
    "RECAP",
    "THRET",
    "MOMENT",
)
N_PARAMS = len(PARAMS)
(
    ADV,
    APEX,
    BACK,
    CENT,
    CNTR,
    CORN,
    CRAMP,
    DENY,
    DIA,
    DIAV,
    DYKE,
    EXCH,
    EXPOS,
    FORK,
    GAP,
    GUARD,
    HOLE,
    KCENT,
    MOB,
    MOBIL,
    MOVE,
    NODE,
    OREO,
    POLE,
    RECAP,
    THRET,
    MOMENT,
) = range(N_PARAMS)


def _w(*sqs: int) -> int:
    return sum(1 << (s - 1) for s in sqs)


ROWS_5_6 = _w(*range(17, 25))
ROWS_3_4 = _w(*range(9, 17))
CENTRE = _w(10, 11, 14, 15, 18, 19, 22, 23)
DOUBLE_CORNERS = _w(1, 5, 28, 32)
DIAGONALS = _w(1, 6, 10, 15, 19, 24, 28, 5, 9, 14, 18, 23, 27, 32)
ONE_REMOVED = _w(2, 7, 11, 16, 20, 13, 17, 22, 26, 31)
TWO_REMOVED = _w(3, 8, 12, 21, 25, 30)
BRIDGE = _w(1, 3)
OREO_SQ = _w(2, 3, 7)
APEX_SQ = _w(7, 26)
MOVE_SYSTEM = _w(1, 2, 3, 4, 9, 10, 11, 12, 17, 18, 19, 20, 25, 26, 27, 28)
CRAMP_P, CRAMP_P2, CRAMP_A = _w(13), _w(9, 14), _w(17, 21, 22, 25)
ALL = MASK32
#: ``MOMENT_WEIGHT[i]`` = ((c − r)² − 1)/8 for square ``i`` (0-based)
MOMENT_WEIGHT = ((COL - ROW) ** 2 - 1) // 8
MOMENT_WEIGHT.setflags(write=False)


def scratch() -> np.ndarray:
    """The scratch move buffers :func:`ratings` needs (two move buffers)."""
    return np.zeros((2, BUF_ROWS, BUF_COLS), dtype=np.int64)


@njit(cache=True, inline="always")
def _at_least_3(a: int, b: int, c: int, d: int) -> int:
    return (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)


@njit(cache=True)
def _active_moves(pm: int, pk: int, am: int, ak: int, buf: np.ndarray):
    """Squares (bit masks) reached by ``A``'s ordinary moves: all, safely (not DENY), forcing an exchange
    (EXCH), threatening (THRET)."""
    moves = buf[0]
    caps = buf[1]
    n = gen_simple(am, ak, pm, pk, False, moves)
    dest = 0
    safe = 0
    exch = 0
    thret = 0
    for i in range(n):
        frm = moves[i, FROM]
        to = moves[i, TO]
        tb = 1 << to
        dest |= tb
        am2, ak2, pm2, pk2 = make_move(am, ak, pm, pk, False, frm, to, 0)
        p_all = pm | pk
        occ2 = am2 | ak2 | p_all
        empty2 = ~occ2 & ALL
        # THRET: the moved piece, standing on `to`, could jump a P piece next
        if ak2 & tb:
            if jumpers(0, tb, p_all, empty2, False):
                thret |= tb
        elif jumpers(tb, 0, p_all, empty2, False):
            thret |= tb
        # what P may capture now
        if jumpers(pm, pk, am2 | ak2, empty2, True) == 0:
            safe |= tb
            continue
        nc = gen_captures(pm, pk, am2, ak2, True, caps)
        punished = False
        all_recaptured = True
        for j in range(nc):
            pm3, pk3, am3, ak3 = make_move(pm, pk, am2, ak2, True, caps[j, FROM], caps[j, TO], caps[j, CAP])
            recapture = has_capture(am3, ak3, pm3, pk3, False)
            if not recapture:
                all_recaptured = False
                if caps[j, CAP] & tb:
                    punished = True
        if not punished:
            safe |= tb
        if all_recaptured:
            exch |= tb
    return dest, safe, exch, thret


#: the parameters that need ``A``'s moves tried one by one (the slow part): DENY, MOBIL, EXCH, RECAP, THRET
TRIAL_PARAMS = (1 << DENY) | (1 << MOBIL) | (1 << EXCH) | (1 << RECAP) | (1 << THRET)
ALL_PARAMS = (1 << N_PARAMS) - 1


@njit(cache=True)
def ratings(pm: int, pk: int, am: int, ak: int, out: np.ndarray, buf: np.ndarray, need: int = ALL_PARAMS) -> None:
    """All :data:`N_PARAMS` parameters into ``out`` for a board turned so that the passive side ``P``
    (men ``pm``, kings ``pk``) plays Black and the active side ``A`` (``am``, ``ak``) plays White.

    ``need`` (bit ``k`` for parameter ``k``): when it holds none of :data:`TRIAL_PARAMS`, ``A``'s moves are
    not tried and DENY, MOBIL, EXCH, RECAP, THRET are left 0 (the other parameters are always computed)."""
    p = pm | pk
    a = am | ak
    occ = p | a
    empty = ~occ & ALL
    cp = credit(pm, pk)
    ca = credit(am, ak)
    if need & TRIAL_PARAMS:
        dest, safe, exch, thret = _active_moves(pm, pk, am, ak, buf)
    else:
        dest = simple_targets(am, ak, empty, False)
        safe, exch, thret = dest, 0, 0

    out[ADV] = popcount(pm & ROWS_5_6) - popcount(pm & ROWS_3_4)
    out[APEX] = -1.0 if (pk | ak) == 0 and (am & APEX_SQ) != 0 and (pm & APEX_SQ) == 0 else 0.0
    out[BACK] = 1.0 if ak == 0 and (p & BRIDGE) == BRIDGE else 0.0
    out[CENT] = popcount(pm & CENTRE)
    out[CNTR] = popcount(CENTRE & (a | dest))
    out[CORN] = 1.0 if ca <= 6 and cp > ca and (dest & DOUBLE_CORNERS) != 0 else 0.0
    cramp = (p & CRAMP_P) != 0 and (p & CRAMP_P2) != 0 and (a & CRAMP_A) == CRAMP_A
    out[CRAMP] = 2.0 if cramp else 0.0
    deny = popcount(dest & ~safe)
    out[DENY] = deny
    out[DIA] = popcount(p & DIAGONALS)
    out[DIAV] = 1.5 * popcount(p & DIAGONALS) + popcount(p & ONE_REMOVED) + 0.5 * popcount(p & TWO_REMOVED)
    dyke = 0
    for d in (DOWN_LEFT, DOWN_RIGHT):
        s1 = step(p, d)
        dyke += popcount(p & s1 & step(s1, d))
    out[DYKE] = dyke
    out[EXCH] = popcount(exch)
    # EXPOS: empty neighbours on both sides along one diagonal (down-left/up-right or down-right/up-left)
    e0 = step(empty, UP_RIGHT)  # squares whose down-left neighbour is empty
    e1 = step(empty, UP_LEFT)  # … down-right …
    e2 = step(empty, DOWN_RIGHT)  # … up-left …
    e3 = step(empty, DOWN_LEFT)  # … up-right …
    out[EXPOS] = popcount(p & ((e0 & e3) | (e1 & e2)))
    # FORK: fork square below a side-by-side pair (A men come up), landings beyond the pair above
    land_ul = step(step(empty, DOWN_RIGHT), DOWN_RIGHT)  # squares whose up-left-up-left square is empty
    land_ur = step(step(empty, DOWN_LEFT), DOWN_LEFT)
    fork = step(p, DOWN_RIGHT) & step(p, DOWN_LEFT) & empty & land_ul & land_ur
    if ak != 0:
        land_dl = step(step(empty, UP_RIGHT), UP_RIGHT)
        land_dr = step(step(empty, UP_LEFT), UP_LEFT)
        fork_k = step(p, UP_RIGHT) & step(p, UP_LEFT) & empty & land_dl & land_dr
        out[FORK] = popcount(fork) + popcount(fork_k)
    else:
        out[FORK] = popcount(fork)
    # GAP: an empty square between two P pieces on a diagonal, or between a P piece and the edge
    between = empty & ((step(p, DOWN_LEFT) & step(p, UP_RIGHT)) | (step(p, DOWN_RIGHT) & step(p, UP_LEFT)))
    edge = 0
    for d in range(4):
        has_next = step(ALL, 3 - d)  # squares with a neighbour in direction d
        edge |= step(p, d) & empty & ~has_next
    out[GAP] = popcount(between | edge)
    out[GUARD] = 1.0 if ak == 0 and ((p & BRIDGE) == BRIDGE or (p & OREO_SQ) == OREO_SQ) else 0.0
    # neighbours that are P pieces, one set per direction (squares whose d-neighbour is a P piece)
    n0 = step(p, UP_RIGHT)
    n1 = step(p, UP_LEFT)
    n2 = step(p, DOWN_RIGHT)
    n3 = step(p, DOWN_LEFT)
    out[HOLE] = popcount(empty & _at_least_3(n0, n1, n2, n3))
    out[KCENT] = popcount(pk & CENTRE)
    mob = popcount(dest)
    out[MOB] = mob
    out[MOBIL] = mob - deny if need & TRIAL_PARAMS else 0.0
    odd_system = popcount(occ & MOVE_SYSTEM) % 2 == 1
    out[MOVE] = 1.0 if cp == ca and cp + ca < 24 and odd_system else 0.0
    out[NODE] = popcount(p & _at_least_3(e0, e1, e2, e3))
    out[OREO] = 1.0 if pk == 0 and (p & OREO_SQ) == OREO_SQ else 0.0
    # POLE: every neighbour on the board is empty (no neighbour in a direction counts as empty)
    free = ALL
    for d in range(4):
        has_next = step(ALL, 3 - d)
        free &= step(empty, 3 - d) | ~has_next
    out[POLE] = popcount(pm & free)
    out[RECAP] = out[EXCH]
    out[THRET] = popcount(thret)
    mom = 0
    x = p
    while x:
        mom += MOMENT_WEIGHT[lowest_bit(x)]
        x &= x - 1
    out[MOMENT] = mom


@njit(cache=True)
def parameters(
    bm: int, bk: int, wm: int, wk: int, passive: int, out: np.ndarray, buf: np.ndarray, need: int = ALL_PARAMS
) -> None:
    """All parameters of a board (absolute words) rated for ``passive`` (0 Black, 1 White) against the other
    side, into ``out`` (float64[N_PARAMS]); ``buf`` from :func:`scratch`; ``need`` as for :func:`ratings`."""
    if passive == 0:
        ratings(bm, bk, wm, wk, out, buf, need)
    else:
        ratings(reverse32(wm), reverse32(wk), reverse32(bm), reverse32(bk), out, buf, need)


@njit(cache=True)
def exchange_offered(bm: int, bk: int, wm: int, wk: int, side: int, buf: np.ndarray) -> bool:
    """True when the side to move (``side``) has an ordinary move that forces an exchange — after it the
    opponent must capture and every capture can be answered by a capture (the EXCH test, made for the side to
    move): the "exchange of pieces is possible" condition of Samuel's ply rules (Powell (2000) §3.2 rule 2c)."""
    if side == 1:  # the mover is White: the opponent (Black) is the passive side as it stands
        _, _, exch, _ = _active_moves(bm, bk, wm, wk, buf)
    else:
        _, _, exch, _ = _active_moves(reverse32(wm), reverse32(wk), reverse32(bm), reverse32(bk), buf)
    return exch != 0
