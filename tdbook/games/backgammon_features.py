"""Hand-made backgammon features beyond the raw encoding (the "expanded" and "contact" inputs of notebook 09).

TD-Gammon 1.0 learned from the raw board alone; "later, modifications were made to subsequent
version[s] to give the network more input as to the progress of the game" (Powell (2000) §5.2).
These are inputs of that kind, in the spirit of the hand-made features of Tesauro's later versions
and of GNU Backgammon (pip count, hit chances, blockades).  The four features of one side, all
computed from that side's view
(``pos`` with its checkers positive, moving from 24 down to 1), each scaled to about [0, 1]:

0. ``pips / 167`` — its pip count (167 at the start; a checker on the bar counts 25);
1. ``shot`` — the share of the 36 rolls on which the opponent can hit at least one of its blots:
   direct shots and combination shots whose intermediate landing points are open, doubles up to four
   steps.  An approximation of the real count: when the opponent has checkers on the bar only the
   bar may hit (entering first is compulsory), and each roll is checked for a hit, not for a legal
   move that hits (a hit the opponent could make is counted even if another move is forced);
2. ``prime / 6`` — its longest run of consecutive made points (two or more checkers), capped at 6;
3. ``escape`` — the share of the 36 rolls on which its rearmost checker can get past the opponent's
   made points in the 12 points in front of it, by open landing points (1 when none are there, or
   when it has no checker left outside its home board).

The ``"contact"`` set adds three more per side, in the spirit of GNU Backgammon's contact inputs
(``I_PIPLOSS``, ``I_BREAK_CONTACT``, ``I_CONTAIN``); these three are not functions of a few raw units, which
is why they are worth giving the net:

4. ``piploss`` — the pips it loses to a hit, averaged over the 36 rolls, over 24: on each roll the most the
   opponent can hit (a blot on point ``p`` sent back costs ``25 − p`` pips), counted with the same shots as 1;
5. ``break / 152`` — the pips its checkers must travel to get past the opponent's rearmost checker
   (152 at the start): how much contact it has left to break;
6. ``contained`` — one minus the smallest share of rolls on which a checker of its own, standing on any of
   its points 15..24, can move the roll's whole distance (landing point open, and not both single-die
   points closed; doubles: two steps) — GNU Backgammon's escape count: how well the opponent's points in
   front of its back area hold it in, wherever it stands.

The ``"positional"`` set (issue 34) adds eleven more per side, written from the published descriptions of the
input features of strong evaluators (GNU Backgammon's contact-net inputs as its documentation names them: double
shots, back checker and anchors, mobility, one-sided moment, entering, timing, back games, free pips) — our own
definitions, not copied code:

7. ``double`` — the share of the 36 rolls on which the opponent can hit two of its blots (non-doubles: each die hits
   a different blot directly, or one checker hits a blot and goes on to the next; doubles: two blots reachable in
   four steps between them, by open points, or one path through both);
8. ``back/25`` — its rearmost checker's point (the bar is 25);
9. ``anchor/24`` — its rearmost point held with two or more (0 when none);
10. ``forward`` — its most advanced point held in the opponent's home board, ``k / 6`` for the opponent's ``k``
    point (its own point ``25 − k``; 0 when none): the higher, the better the anchor;
11. ``mobility`` — Σ over its checkers outside its home board (bar 25) of :func:`jumps` × the pips to its home
    board (``p − 6``), over 3600;
12. ``moment2`` — the one-sided second moment of its checkers about their mean point: the mean of ``(p − A)²``
    over checkers behind the mean ``A``, over 400 (stragglers far behind the rest);
13. ``dance`` — ``(n / 6)²`` for the ``n`` points the opponent holds in its home board: the chance a checker of
    the side on the bar stays out;
14. ``timing/100`` — pips it can play before its home board must give way: the pips of its checkers outside
    home to the home board, plus each spare (third or later) home checker's pips to the 1 point;
15. ``backg`` — with two or more anchors in the opponent's home board (a back game), ``(checkers there − 3) / 4``;
16. ``backg1`` — with exactly one anchor there, its checkers there over 8;
17. ``free/100`` — the pips of its checkers already past the opponent's rearmost checker.

The side's features go beside its 98 raw units.  Because they are computed from that side's view,
the features of the other side are :func:`side_features` of :func:`~tdbook.games.backgammon.flip`
of the position, so the board flip exchanges the two sets exactly — what the symmetric nets need.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .backgammon import NSLOT, flip, pip_counts

FEATURE_NAMES = (
    "pips/167",
    "shot",
    "prime/6",
    "escape",
    "piploss",
    "break/152",
    "contained",
    "double",
    "back/25",
    "anchor/24",
    "forward",
    "mobility",
    "moment2",
    "dance",
    "timing/100",
    "backg",
    "backg1",
    "free/100",
)
N_FEATURES = 4  # the "expanded" set: the first four names
N_CONTACT = 7  # the "contact" set: the first seven
N_POSITIONAL = 18  # the "positional" set: all eighteen
SET_SIZES = (N_FEATURES, N_CONTACT, N_POSITIONAL)


#: Bit ``x + MASK_SHIFT`` of a point mask stands for point ``x`` (0 = the opponent's bar .. 24), so that masks shifted
#: back by a roll's dice (``>> d``, ``d`` ≤ 6) keep the points below 1 they reach.
MASK_SHIFT = 8


@njit(cache=True, inline="always")
def _bit(x) -> int:
    """The point mask of point ``x`` alone."""
    return np.int64(1) << (x + MASK_SHIFT)


@njit(cache=True)
def point_masks(pos) -> tuple:
    """(the mover's blots, its made points, the opponent's checkers that may hit, those of them on a point with two or
    more) as point masks (:data:`MASK_SHIFT`): blots and made points on 1..24; hitters on the opponent's bar only
    while it has a checker there (entering first is compulsory), else on 1..23 (a checker on 24 has nothing ahead)."""
    blots = 0
    made = 0
    src = 0
    src2 = 0
    for x in range(1, 25):
        c = pos[x]
        if c == 1:
            blots |= _bit(x)
        elif c >= 2:
            made |= _bit(x)
    if pos[0] < 0:
        src = _bit(0)
        if pos[0] <= -2:
            src2 = src
    else:
        for x in range(1, 24):
            if pos[x] < 0:
                src |= _bit(x)
                if pos[x] <= -2:
                    src2 |= _bit(x)
    return blots, made, src, src2


@njit(cache=True, inline="always")
def _hit_blots(blots, made, src, d1, d2) -> int:
    """The mask of the mover's blots the opponent can hit with the roll ``d1, d2`` (``d1 ≤ d2``): by one die; by both
    through an open intermediate point; doubles up to four steps through open points."""
    if d1 != d2:
        hit = blots & ((src << d1) | (src << d2))
        open_ = ~made
        return hit | (blots & ((src & ((open_ >> d1) | (open_ >> d2))) << (d1 + d2)))
    hit = 0
    reach = src
    for _ in range(4):
        reach = reach << d1
        hit |= blots & reach
        reach &= ~made
    return hit


@njit(cache=True)
def shot_counts(pos) -> tuple:
    """(rolls of 36 on which the opponent can hit a blot of the mover, Σ over rolls of the most pips it
    loses to that hit: ``25 − p`` for a blot on ``p``, the lowest blot hit) — see the module doc for the shots
    counted.  Point masks (:func:`point_masks`), one word operation per roll and way to hit."""
    blots, made, src, _ = point_masks(pos)
    return _shot_counts(blots, made, src)


@njit(cache=True, inline="always")
def _apart(blots, src) -> bool:
    """No blot can be hit: none, nothing to hit with, or every blot behind every hitter (a race)."""
    return blots == 0 or src == 0 or blots < (src & -src)


@njit(cache=True, inline="always")
def _shot_counts(blots, made, src) -> tuple:
    """:func:`shot_counts` from the point masks."""
    count = 0
    loss = 0
    if _apart(blots, src):
        return 0, 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            hit = _hit_blots(blots, made, src, d1, d2)
            if hit:
                w = 1 if d1 == d2 else 2
                p = 1
                while not hit & _bit(p):
                    p += 1
                count += w
                loss += w * (25 - p)
    return count, loss


@njit(cache=True)
def shot_share(pos) -> float:
    """Share of the 36 rolls on which the opponent can hit one of the mover's blots (see module doc)."""
    return shot_counts(pos)[0] / 36.0


@njit(cache=True)
def longest_prime(pos) -> int:
    """Longest run of consecutive points (1..24) the mover holds with two or more checkers."""
    best = 0
    run = 0
    for p in range(1, 25):
        if pos[p] >= 2:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


@njit(cache=True)
def escapes(pos, r) -> int:
    """Rolls of 36 on which a mover's checker on ``r`` (25 = bar) can land past every opponent-made point
    in the 12 points in front of it, through open points (36 when there is none)."""
    low = 0  # the lowest opponent-made point within 12 pips in front of r
    for x in range(r - 1, max(r - 13, 0), -1):
        if pos[x] <= -2:
            low = x
    if low == 0:
        return 36
    count = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            ok = False
            if d1 != d2:
                for a in range(2):
                    first = d1 if a == 0 else d2
                    t1 = r - first
                    if t1 >= 1 and pos[t1] <= -2:
                        continue
                    if t1 < low:
                        ok = True
                        break
                    t2 = r - d1 - d2
                    if t2 < low and (t2 < 1 or pos[t2] > -2):
                        ok = True
                        break
            else:
                t = r
                for _ in range(4):
                    t -= d1
                    if t >= 1 and pos[t] <= -2:
                        break
                    if t < low:
                        ok = True
                        break
            if ok:
                count += 1 if d1 == d2 else 2
    return count


@njit(cache=True)
def escape_share(pos) -> float:
    """Share of the 36 rolls on which the mover's rearmost checker (bar = 25) can land past every
    opponent-made point in the 12 points in front of it, through open points (see module doc)."""
    r = 0
    for i in range(25, 0, -1):
        if pos[i] > 0:
            r = i
            break
    if r <= 6:
        return 1.0
    return escapes(pos, r) / 36.0


@njit(cache=True)
def break_contact(pos) -> int:
    """Pips the mover's checkers must travel to get past the opponent's rearmost checker (its bar = 0)."""
    q = -1
    for i in range(0, 25):
        if pos[i] < 0:
            q = i
            break
    if q < 0:
        return 0
    total = 0
    for p in range(q + 1, 26):
        if pos[p] > 0:
            total += pos[p] * (p - q)
    return total


@njit(cache=True)
def jumps(pos, r) -> int:
    """Rolls of 36 whose whole distance ``d1 + d2`` a mover's checker on ``r`` can travel: the landing
    point is not opponent-made and not both single-die points are (doubles: the two-step point);
    GNU Backgammon's ``Escapes`` count."""
    count = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            t = r - d1 - d2
            if t >= 1 and pos[t] <= -2:
                continue
            if r - d1 >= 1 and pos[r - d1] <= -2 and r - d2 >= 1 and pos[r - d2] <= -2:
                continue
            count += 1 if d1 == d2 else 2
    return count


def _jumps_table() -> np.ndarray:
    """:func:`jumps` of a checker on ``r`` as a function of which of the 12 points in front of it, ``r − 12 .. r − 1``
    (bit ``k``: point ``r − 12 + k``), the opponent holds — all it depends on; points below 1 are never held."""
    b = np.arange(1 << 12)

    def held(steps: int) -> np.ndarray:  # the point `steps` in front of r
        return (b >> (12 - steps)) & 1 == 1

    count = np.zeros(1 << 12, np.int64)
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            blocked = held(d1 + d2) | (held(d1) & held(d2))
            count += np.where(blocked, 0, 1 if d1 == d2 else 2)
    return count


#: :func:`jumps` by the pattern of held points in front (:func:`_jumps_table`; equal to it on every board, tested).
JUMPS = _jumps_table()


@njit(cache=True)
def held_mask(pos) -> int:
    """The points 1..24 the opponent holds with two or more, bit ``x + 11`` for point ``x``: shifted right by
    ``r − 1`` its low 12 bits are :data:`JUMPS`'s index for a checker on ``r``."""
    m = 0
    for x in range(1, 25):
        if pos[x] <= -2:
            m |= np.int64(1) << (x + 11)
    return m


@njit(cache=True)
def contained(pos) -> float:
    """One minus the smallest :func:`jumps` share of a mover's checker standing on any of its points 15..24."""
    held = held_mask(pos)
    worst = 36
    for r in range(15, 25):
        e = JUMPS[(held >> (r - 1)) & 0xFFF]
        if e < worst:
            worst = e
    return 1.0 - worst / 36.0


@njit(cache=True)
def double_shots(pos) -> int:
    """Rolls of 36 on which the opponent can hit two of the mover's blots (see the module doc; the same
    sources as :func:`shot_counts`: only the bar while the opponent has a checker there), by point masks
    (:func:`point_masks`): a few word operations per roll, a loop only over the blots one die can hit."""
    blots, made, src, src2 = point_masks(pos)
    return _double_shots(blots, made, src, src2)


@njit(cache=True, inline="always")
def _double_shots(blots, made, src, src2) -> int:
    """:func:`double_shots` from the point masks."""
    if blots & (blots - 1) == 0 or _apart(blots, src):  # fewer than two blots, or none can be hit
        return 0
    count = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            two = False
            if d1 != d2:
                hit1 = (src << d1) & blots  # the blots a checker hits with d1, and with d2
                hit2 = (src << d2) & blots
                # one checker hits and goes on to the next blot with the other die
                if (hit1 << d2) & blots or (hit2 << d1) & blots:
                    two = True
                else:
                    # or each die hits a different blot, by two different checkers: for a blot p hit with d1
                    # (from p - d1), a hitter with d2 of another blot than p, on another point than p - d1 or
                    # with two checkers there
                    behind2 = hit2 >> d2  # the hitters with d2
                    rest = hit1
                    while rest:
                        t = rest & -rest  # the blot p
                        rest ^= t
                        x1 = t >> d1  # its hitter with d1
                        other = behind2 & ~(t >> d2)
                        if other & ~x1 or (other & x1 and src2 & x1):
                            two = True
                            break
            else:
                n1 = n2 = n3 = 0  # blots whose nearest hitter is 1, 2, 3 steps of d1 behind
                rest = blots
                while rest:
                    t = rest & -rest  # a blot
                    rest ^= t
                    passed = False  # walk back in steps of d1 over points open to the opponent
                    for k in range(1, 5):
                        x = t >> (k * d1)
                        if x < _bit(0):  # before the opponent's bar
                            break
                        if src & x:
                            n1 += k == 1
                            n2 += k == 2
                            n3 += k == 3
                            if passed:  # one path through both: a blot lies between the hitter and this one
                                two = True
                            break
                        if x == _bit(0) or made & x:
                            break
                        if blots & x:
                            passed = True
                    if two:
                        break
                # or two blots hit from k and l steps behind, k + l <= 4
                if n1 >= 2 or n2 >= 2 or (n1 and (n2 or n3)):
                    two = True
            if two:
                count += 1 if d1 == d2 else 2
    return count


@njit(cache=True)
def positional(pos, out, base: int) -> None:
    """Features 8..17 of the module doc (all but the double shots) of the mover of ``pos`` into
    ``out[base : base + 10]``."""
    back = 0
    for p in range(25, 0, -1):
        if pos[p] > 0:
            back = p
            break
    anchor = 0
    for p in range(24, 0, -1):
        if pos[p] >= 2:
            anchor = p
            break
    forward = 0.0
    anchors = 0
    there = 0
    for p in range(24, 18, -1):
        if pos[p] >= 2:
            forward = (25 - p) / 6.0
            anchors += 1
        if pos[p] > 0:
            there += pos[p]
    held = held_mask(pos)
    mobility = 0
    timing = 0
    n = 0
    total = 0
    for p in range(1, 26):
        c = max(int(pos[p]), 0)
        if c == 0:
            continue
        n += c
        total += c * p
        if p > 6:
            mobility += c * JUMPS[(held >> (p - 1)) & 0xFFF] * (p - 6)  # jumps(pos, p)
            timing += c * (p - 6)
        elif c > 2:
            timing += (c - 2) * (p - 1)
    moment = 0.0
    if n:
        mean = total / n
        behind = 0
        for p in range(1, 26):
            c = max(int(pos[p]), 0)
            if c and p > mean:
                moment += c * (p - mean) ** 2
                behind += c
        if behind:
            moment /= behind
    closed = 0
    for p in range(19, 25):
        if pos[p] <= -2:
            closed += 1
    q = 25  # the opponent's rearmost checker (its bar is 0)
    for i in range(0, 25):
        if pos[i] < 0:
            q = i
            break
    free = 0
    for p in range(1, q):
        if pos[p] > 0:
            free += pos[p] * p
    out[base] = back / 25.0
    out[base + 1] = anchor / 24.0
    out[base + 2] = forward
    out[base + 3] = mobility / 3600.0
    out[base + 4] = moment / 400.0
    out[base + 5] = (closed / 6.0) ** 2
    out[base + 6] = timing / 100.0
    out[base + 7] = (there - 3) / 4.0 if anchors >= 2 else 0.0
    out[base + 8] = there / 8.0 if anchors == 1 else 0.0
    out[base + 9] = free / 100.0


@njit(cache=True)
def side_features(pos, out, base: int, nf: int = N_FEATURES) -> None:
    """The first ``nf`` (one of :data:`SET_SIZES`) features of the mover of ``pos`` into ``out[base : base + nf]``."""
    out[base] = pip_counts(pos)[0] / 167.0
    if nf > N_FEATURES:
        blots, made, src, src2 = point_masks(pos)
        count, loss = _shot_counts(blots, made, src)
        out[base + 1] = count / 36.0
        out[base + 4] = loss / (36.0 * 24.0)
        out[base + 5] = break_contact(pos) / 152.0
        out[base + 6] = contained(pos)
        if nf > N_CONTACT:
            out[base + 7] = _double_shots(blots, made, src, src2) / 36.0
            positional(pos, out, base + 8)
    else:
        out[base + 1] = shot_share(pos)
    out[base + 2] = min(longest_prime(pos), 6) / 6.0
    out[base + 3] = escape_share(pos)


@njit(cache=True)
def both_sides(pos, out, tmp, nf: int = N_FEATURES) -> None:
    """Mover's first ``nf`` features into ``out[:nf]``, the opponent's (from its own view) into
    ``out[nf : 2 nf]``; ``tmp`` is an int8 scratch of :data:`~tdbook.games.backgammon.NSLOT` slots."""
    side_features(pos, out, 0, nf)
    flip(pos, tmp)
    side_features(tmp, out, nf, nf)


def features(pos: np.ndarray, nf: int = N_FEATURES) -> np.ndarray:
    """The ``2 nf`` features (mover's ``nf``, then the opponent's) of ``pos`` (the mover's view), float64;
    ``nf`` is :data:`N_FEATURES` (the expanded set), :data:`N_CONTACT` (contact) or :data:`N_POSITIONAL`."""
    if nf not in SET_SIZES:
        raise ValueError(
            f"nf must be {N_FEATURES} (expanded), {N_CONTACT} (contact) or {N_POSITIONAL} (positional), got {nf}"
        )
    out = np.zeros(2 * nf)
    both_sides(np.asarray(pos, np.int8), out, np.zeros(NSLOT, np.int8), nf)
    return out
