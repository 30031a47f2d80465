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


@njit(cache=True, inline="always")
def _blocked(pos, x) -> bool:
    """Point ``x`` (1..24) is closed to the opponent (the side holds it with two or more)."""
    return pos[x] >= 2


@njit(cache=True)
def _hits(pos, q, p, d1, d2) -> bool:
    """Can an opponent checker on ``q`` (0 = its bar) reach the blot on ``p > q`` with roll ``d1, d2``?"""
    dist = p - q
    if d1 != d2:
        if dist == d1 or dist == d2:  # a direct shot lands on the blot itself
            return True
        if dist == d1 + d2:
            return (not _blocked(pos, q + d1)) or (not _blocked(pos, q + d2))
        return False
    for k in range(1, 5):
        if dist == k * d1:
            for i in range(1, k):
                if _blocked(pos, q + i * d1):
                    return False
            return True
    return False


@njit(cache=True)
def shot_counts(pos) -> tuple:
    """(rolls of 36 on which the opponent can hit a blot of the mover, Σ over rolls of the most pips it
    loses to that hit: ``25 − p`` for a blot on ``p``) — see the module doc for the shots counted."""
    nb = 0
    blots = np.empty(24, np.int64)
    for p in range(1, 25):  # ascending: the first blot hit on a roll is the costliest
        if pos[p] == 1:
            blots[nb] = p
            nb += 1
    if nb == 0:
        return 0, 0
    ns = 0
    srcs = np.empty(25, np.int64)
    if pos[0] < 0:  # the opponent must enter first: only its bar checkers can hit
        srcs[0] = 0
        ns = 1
    else:
        for q in range(1, 24):
            if pos[q] < 0:
                srcs[ns] = q
                ns += 1
    count = 0
    loss = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            w = 1 if d1 == d2 else 2
            for b in range(nb):
                p = blots[b]
                hit = False
                for a in range(ns):
                    q = srcs[a]
                    if p > q and _hits(pos, q, p, d1, d2):
                        hit = True
                        break
                if hit:
                    count += w
                    loss += w * (25 - p)
                    break
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


@njit(cache=True)
def contained(pos) -> float:
    """One minus the smallest :func:`jumps` share of a mover's checker standing on any of its points 15..24."""
    worst = 36
    for r in range(15, 25):
        e = jumps(pos, r)
        if e < worst:
            worst = e
    return 1.0 - worst / 36.0


@njit(cache=True, inline="always")
def _source(pos, q) -> int:
    """Opponent checkers on ``q`` that may hit (only the bar's while the opponent has a checker there)."""
    if pos[0] < 0:
        return -pos[0] if q == 0 else 0
    if 1 <= q <= 23 and pos[q] < 0:
        return -pos[q]
    return 0


@njit(cache=True)
def double_shots(pos) -> int:
    """Rolls of 36 on which the opponent can hit two of the mover's blots (see the module doc; the same
    sources as :func:`shot_counts`: only the bar while the opponent has a checker there)."""
    nb = 0
    blots = np.empty(24, np.int64)
    for p in range(1, 25):
        if pos[p] == 1:
            blots[nb] = p
            nb += 1
    if nb < 2:
        return 0
    count = 0
    kmin = np.zeros(24, np.int64)
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            two = False
            if d1 != d2:
                for b in range(nb):
                    p = blots[b]
                    h1 = _source(pos, p - d1)
                    h2 = _source(pos, p - d2)
                    # one checker hits and goes on to the next blot with the other die
                    if (h1 and p + d2 <= 24 and pos[p + d2] == 1) or (h2 and p + d1 <= 24 and pos[p + d1] == 1):
                        two = True
                        break
                    if not h1:
                        continue
                    for c in range(nb):  # or each die hits a different blot, by two different checkers
                        q = blots[c] - d2
                        if c != b and _source(pos, q) and (q != p - d1 or h1 >= 2):
                            two = True
                            break
                    if two:
                        break
            else:
                for c in range(nb):  # walk back from each blot in steps of d1 over points open to the opponent
                    kmin[c] = 0
                    passed = False
                    for k in range(1, 5):
                        x = blots[c] - k * d1
                        if x < 0:
                            break
                        if _source(pos, x):
                            kmin[c] = k
                            if passed:  # one path through both: a blot lies between the source and this one
                                two = True
                            break
                        if x == 0 or pos[x] >= 2:
                            break
                        if pos[x] == 1:
                            passed = True
                    if two:
                        break
                for b in range(nb):
                    if two:
                        break
                    if kmin[b] == 0:
                        continue
                    for c in range(b + 1, nb):
                        if kmin[c] and kmin[b] + kmin[c] <= 4:
                            two = True
                            break
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
            mobility += c * jumps(pos, p) * (p - 6)
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
        count, loss = shot_counts(pos)
        out[base + 1] = count / 36.0
        out[base + 4] = loss / (36.0 * 24.0)
        out[base + 5] = break_contact(pos) / 152.0
        out[base + 6] = contained(pos)
        if nf > N_CONTACT:
            out[base + 7] = double_shots(pos) / 36.0
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
