"""Two-player five-card draw as Waterman (1968) plays it (Waterman (1968) App. B I, §5.2; notebook 04).

Rules of a *round of play* (r-o-p), App. B Part I:

1. **Deal.** Each player gets 5 cards (plus 3 reserve cards used if he replaces) and antes 1:
   the pot starts at 2.
2. **Betting interval 1.** Players alternate; each bets, calls or drops.  A *bet* is the
   *raise* over what the opponent last put in, an integer 1–20.  A *call* matches (a bet of 0)
   and ends the interval; a call is **not allowed until a bet has been made in the current
   interval**, so the first to act bets or drops.  A *drop* ends the r-o-p.
3. **Replace.** Each player discards 0–3 cards and receives his reserve cards in order.  The
   player who opened interval 1 replaces first.
4. **Betting interval 2**, opened by the same player, same rules.
5. **Showdown.** The higher standard hand takes the pot (no wild cards); equal hands split.

A *game* is a number of r-o-ps (5 in every transcript, ``(REFEREE 5)``); the first player
alternates from r-o-p to r-o-p; one deck is dealt continuously and reshuffled when used up.

The seed states no limit on raises; our engine has a cap (``cap`` raises per interval, default
50, far above anything in App. C–K) so that two programs that both keep raising terminate.

Money (checked against App. C and App. J): ``POT`` counts *matched* money only.  Calling or
re-raising a pending bet adds ``2 × LASTBET`` (LASH: ``POT ← POT+(2×LASTBET)``).  The winner's
net gain is what the loser put in: ``POT/2`` at a showdown, and after a drop the dropper's
contribution, again ``POT/2`` (an unmatched raise goes back).  So every r-o-p is zero-sum.

Cards are ints 0..51: ``rank = c // 4 + 2`` (2..14, ace high), ``suit = c % 4`` (C, D, H, S).
:func:`hand_rank` is the standard ranking (category, then kickers) used at the showdown;
:func:`vdhand` maps it to Waterman's VDHAND scale (1 "one-of-a-kind" … 600,000 royal flush) as
the reading notes recommend (§1.3, ambiguity 1): no pair 1 (ace-high 2), pair of rank r r+6,
two pair 20 + higher pair, trips r+46, straight 100 + high, flush 200 + high, full house
400 + trips rank, quads 2000·r, straight flush 100,000 + high, royal flush 600,000 — anchored on
App. J's pair of 4s = 10, pair of 7s = 13, three 6s = 52 and A-high = 2.

The draw (card replacement) is not a learned decision in the seed; :func:`draw_mask` is the
fixed policy seen in the transcripts (pair → 3 cards, trips → 2, two pair → 1, pat hands → 0,
4-card straight or flush → 1, no pair → keep the two highest).

Every kernel is ``@njit(cache=True)``; the :class:`DrawPoker` façade raises
:class:`~tdbook.games.base.IllegalMove` (a ``ValueError``) naming the problem and never
mutates the state it was given.

The module stays one piece (about 780 lines) because it is one thing: every kernel, the
bookkeeping of App. B III and the façade read and write the same flat state array whose layout
is defined at its top; splitting them would spread that layout over several files.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ..core.rng import make_state, randint
from .base import IllegalMove

# ----------------------------------------------------------------------------- layout

ANTE = 1
MIN_BET, MAX_BET = 1, 20
MAX_REPLACE = 3
DEFAULT_CAP = 50

DROP, CALL, BET = 0, 1, 2  # action kinds
BET1, REPLACE, BET2, DONE = 0, 1, 2, 3  # phases

# round-state slots (int64 array of length NST)
POT, LASTBET, TO_MOVE, OPENER, PHASE, NRAISES = 0, 1, 2, 3, 4, 5
REPL = 6  # 6, 7: cards replaced by seat 0 / 1 (-1 until replaced)
NET = 8  # 8, 9: net result of seat 0 / 1 when the r-o-p is over
END = 10  # 0 showdown, 1 seat 0 dropped, 2 seat 1 dropped, -1 not over
CAP = 11
HAND = 12  # seat s: cards HAND+8s .. HAND+8s+4, reserve HAND+8s+5 .. +7
RCOUNT = 28  # 28, 29: raises made this r-o-p by seat 0 / 1
RSUM = 30  # 30, 31: sum of those raises
RMAX = 32  # 32, 33: largest raise this r-o-p
RMAXPRE = 34  # 34, 35: largest raise before the draw (0 if none)
NRES = 36  # 36, 37: reserve cards used by seat 0 / 1
IRAISE = 38  # 38, 39: raises by seat 0 / 1 in the current betting interval
NST = 40

# bookkeeping about the opponent, one row per observer (long-term memory, App. B II 11–15)
OBLUFFS, OCORREL, OD = 0, 1, 2
NBOOK = 4

#: K1..K32 of App. B Part V (index k holds Kk; index 0 unused).
K_VALUES = np.array(
    [0.0, 40, 22, 1, 9, 5, 30, 1, 6, 23, 7, 10, 1, 1, 21, 4, 20, 4, 27, 376, 10, 0, 6, 0.05, 1, 2, 1, 2, 8, 1, 5, 1, 8],
    dtype=np.float64,
)

SUITS = "CDHS"
_STD_RANKS = "23456789TJQKA"
CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)


# ----------------------------------------------------------------------------- cards


def card(text: str) -> int:
    """A card from the document's notation (``"H14"``, ``"D11"``, ``"S8"``) or the usual one (``"Ah"``, ``"Td"``)."""
    t = text.strip().upper()
    m = re.fullmatch(r"([CDHS])(1[0-4]|[2-9])", t)
    if m:
        return (int(m.group(2)) - 2) * 4 + SUITS.index(m.group(1))
    m = re.fullmatch(r"([2-9TJQKA])([CDHS])", t)
    if m:
        return _STD_RANKS.index(m.group(1)) * 4 + SUITS.index(m.group(2))
    raise ValueError(f"not a card: {text!r} (use Waterman's 'H14', 'D11', 'S8' or 'Ah', 'Td')")


def cards(text: str | Sequence[str]) -> np.ndarray:
    """Several cards, e.g. ``cards("H6 D6 H14 D9 D5")``; duplicates are refused."""
    toks = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    out = np.array([card(t) for t in toks], dtype=np.int64)
    if len(set(out.tolist())) != len(out):
        raise ValueError(f"duplicate card in {text!r}")
    return out


def card_name(c: int, style: str = "seed") -> str:
    """``"H14"`` (Waterman's style) or ``"Ah"`` (standard style)."""
    c = int(c)
    if not 0 <= c < 52:
        raise ValueError(f"card index must be 0..51, got {c}")
    r, s = c // 4 + 2, SUITS[c % 4]
    return f"{s}{r}" if style == "seed" else f"{_STD_RANKS[r - 2]}{s.lower()}"


def hand_text(cs: Sequence[int], style: str = "seed") -> str:
    return " ".join(card_name(c, style) for c in cs)


# ----------------------------------------------------------------------------- hand ranking


@njit(cache=True)
def hand_rank(h: np.ndarray) -> np.int64:
    """Standard five-card rank of ``h`` (5 card ints): ``category << 20 | five 4-bit tie-break ranks``.

    Categories 0 high card … 8 straight flush (royal = ace-high straight flush); A-2-3-4-5 is a
    straight with high card 5.  A higher value is a better hand; equal values tie.
    """
    cnt = np.zeros(15, dtype=np.int64)
    flush = True
    s0 = h[0] % 4
    for i in range(5):
        cnt[h[i] // 4 + 2] += 1
        if h[i] % 4 != s0:
            flush = False
    # straight?
    high = 0
    distinct = 0
    for r in range(2, 15):
        if cnt[r] > 0:
            distinct += 1
    if distinct == 5:
        for top in range(14, 5, -1):
            ok = True
            for r in range(top - 4, top + 1):
                if cnt[r] == 0:
                    ok = False
                    break
            if ok:
                high = top
                break
        if high == 0 and cnt[14] == 1 and cnt[2] == 1 and cnt[3] == 1 and cnt[4] == 1 and cnt[5] == 1:
            high = 5
    # groups ordered by (count desc, rank desc)
    ranks = np.zeros(5, dtype=np.int64)
    k = 0
    for c in range(4, 0, -1):
        for r in range(14, 1, -1):
            if cnt[r] == c:
                for _ in range(c):
                    ranks[k] = r
                    k += 1
    c1 = cnt[ranks[0]]
    c2 = cnt[ranks[c1]] if c1 < 5 else 0
    if high > 0 and flush:
        cat = 8
    elif c1 == 4:
        cat = 7
    elif c1 == 3 and c2 == 2:
        cat = 6
    elif flush:
        cat = 5
    elif high > 0:
        cat = 4
    elif c1 == 3:
        cat = 3
    elif c1 == 2 and c2 == 2:
        cat = 2
    elif c1 == 2:
        cat = 1
    else:
        cat = 0
    if cat == 4 or cat == 8:
        return np.int64(cat << 20 | high << 16)
    v = np.int64(cat)
    for i in range(5):
        v = (v << 4) | ranks[i]
    return v


@njit(cache=True)
def vdhand_of_rank(rank: np.int64) -> np.int64:
    """Waterman's VDHAND for a :func:`hand_rank` value (mapping in the module docstring)."""
    cat = rank >> 20
    top = (rank >> 16) & 15
    if cat == 0:
        return np.int64(2) if top == 14 else np.int64(1)
    if cat == 1:
        return top + 6
    if cat == 2:
        return top + 20
    if cat == 3:
        return top + 46
    if cat == 4:
        return top + 100
    if cat == 5:
        return top + 200
    if cat == 6:
        return top + 400
    if cat == 7:
        return top * 2000
    if top == 14:
        return np.int64(600000)
    return top + 100000


@njit(cache=True)
def vdhand(h: np.ndarray) -> np.int64:
    """VDHAND of the 5 cards ``h``."""
    return vdhand_of_rank(hand_rank(h))


@njit(cache=True)
def draw_mask(h: np.ndarray) -> int:
    """Bit mask (bit i = discard card i) of the fixed draw policy; at most 3 bits set."""
    rank = hand_rank(h)
    cat = rank >> 20
    if cat >= 4:  # straight, flush, full house, quads, straight flush: stand pat
        return 0
    cnt = np.zeros(15, dtype=np.int64)
    for i in range(5):
        cnt[h[i] // 4 + 2] += 1
    if cat >= 1:  # pair, two pair, trips: discard every card that is not part of a group
        m = 0
        for i in range(5):
            if cnt[h[i] // 4 + 2] == 1:
                m |= 1 << i
        return m
    # no pair: four to a flush?
    sc = np.zeros(4, dtype=np.int64)
    for i in range(5):
        sc[h[i] % 4] += 1
    for s in range(4):
        if sc[s] == 4:
            for i in range(5):
                if h[i] % 4 != s:
                    return 1 << i
    # four consecutive ranks, open at both ends (e.g. C8 C6 D5 H4 D3: discard C8)
    for lo in range(2, 11):
        if cnt[lo] and cnt[lo + 1] and cnt[lo + 2] and cnt[lo + 3]:
            for i in range(5):
                r = h[i] // 4 + 2
                if r < lo or r > lo + 3:
                    return 1 << i
    # keep the two highest cards (ranks are distinct here)
    m = 0
    for i in range(5):
        above = 0
        for j in range(5):
            if h[j] // 4 > h[i] // 4:
                above += 1
        if above >= 2:
            m |= 1 << i
    return m


# ----------------------------------------------------------------------------- deck


@njit(cache=True)
def new_deck(deck: np.ndarray) -> None:
    """``deck[0:52]`` = cards, ``deck[52]`` = next position (52 = used up)."""
    for i in range(52):
        deck[i] = i
    deck[52] = 52


@njit(cache=True)
def shuffle(deck: np.ndarray, rng: np.ndarray) -> None:
    for i in range(51, 0, -1):
        j = randint(rng, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    deck[52] = 0


@njit(cache=True)
def deal16(deck: np.ndarray, rng: np.ndarray, out: np.ndarray) -> bool:
    """Deal one r-o-p (5 + 3 reserve cards per seat: ``out[0:8]`` seat 0, ``out[8:16]`` seat 1) from the
    continuous deck; reshuffle first when fewer than 16 cards are left.  Returns True if it shuffled."""
    shuffled = False
    if deck[52] + 16 > 52:
        shuffle(deck, rng)
        shuffled = True
    p = deck[52]
    for i in range(16):
        out[i] = deck[p + i]
    deck[52] = p + 16
    return shuffled


# ----------------------------------------------------------------------------- one round of play


@njit(cache=True)
def new_round(st: np.ndarray, deal: np.ndarray, opener: int, cap: int) -> None:
    """Start an r-o-p: antes in (POT = 2), ``deal[0:8]`` to seat 0, ``deal[8:16]`` to seat 1."""
    for i in range(NST):
        st[i] = 0
    st[POT] = 2 * ANTE
    st[TO_MOVE] = opener
    st[OPENER] = opener
    st[PHASE] = BET1
    st[REPL] = -1
    st[REPL + 1] = -1
    st[END] = -1
    st[CAP] = cap
    for i in range(16):
        st[HAND + i] = deal[i]


@njit(cache=True)
def check_action(st: np.ndarray, kind: int, amount: int) -> int:
    """0 if the betting action is legal now, else an error code (see :data:`ERRORS`)."""
    if st[PHASE] == DONE:
        return 1
    if st[PHASE] == REPLACE:
        return 2
    if kind == DROP:
        return 0
    if kind == CALL:
        return 0 if st[LASTBET] > 0 else 3
    if kind == BET:
        if amount < MIN_BET or amount > MAX_BET:
            return 4
        if st[NRAISES] >= st[CAP]:
            return 5
        return 0
    return 6


@njit(cache=True)
def _finish_drop(st: np.ndarray, seat: int) -> None:
    half = st[POT] // 2
    st[NET + seat] = -half
    st[NET + 1 - seat] = half
    st[END] = 1 + seat
    st[PHASE] = DONE


@njit(cache=True)
def showdown(st: np.ndarray) -> None:
    r0 = hand_rank(st[HAND : HAND + 5])
    r1 = hand_rank(st[HAND + 8 : HAND + 13])
    half = st[POT] // 2
    if r0 > r1:
        st[NET], st[NET + 1] = half, -half
    elif r1 > r0:
        st[NET], st[NET + 1] = -half, half
    else:
        st[NET], st[NET + 1] = 0, 0
    st[END] = 0
    st[PHASE] = DONE


@njit(cache=True)
def apply_action(st: np.ndarray, kind: int, amount: int) -> int:
    """Apply a betting action of the player to move; returns the :func:`check_action` code (0 = done)."""
    err = check_action(st, kind, amount)
    if err != 0:
        return err
    seat = st[TO_MOVE]
    if kind == DROP:
        _finish_drop(st, seat)
        return 0
    st[POT] += 2 * st[LASTBET]
    if kind == CALL:
        st[LASTBET] = 0
        if st[PHASE] == BET1:
            st[PHASE] = REPLACE
            st[TO_MOVE] = st[OPENER]
        else:
            showdown(st)
        return 0
    st[LASTBET] = amount
    st[NRAISES] += 1
    st[RCOUNT + seat] += 1
    st[IRAISE + seat] += 1
    st[RSUM + seat] += amount
    if amount > st[RMAX + seat]:
        st[RMAX + seat] = amount
    if st[PHASE] == BET1 and amount > st[RMAXPRE + seat]:
        st[RMAXPRE + seat] = amount
    st[TO_MOVE] = 1 - seat
    return 0


@njit(cache=True)
def apply_replace(st: np.ndarray, mask: int) -> int:
    """The player to replace discards the cards of bit ``mask`` and draws his reserve cards in order.
    Returns 0, or 2 (not the replace phase) / 7 (more than 3 cards or a bad mask)."""
    if st[PHASE] != REPLACE:
        return 2
    if mask < 0 or mask > 31:
        return 7
    n = 0
    for i in range(5):
        if (mask >> i) & 1:
            n += 1
    if n > MAX_REPLACE:
        return 7
    seat = st[TO_MOVE]
    base = HAND + 8 * seat
    used = 0
    for i in range(5):
        if (mask >> i) & 1:
            st[base + i] = st[base + 5 + used]
            used += 1
    st[REPL + seat] = n
    st[NRES + seat] = used
    if seat == st[OPENER]:
        st[TO_MOVE] = 1 - seat
    else:
        st[PHASE] = BET2
        st[TO_MOVE] = st[OPENER]
        st[NRAISES] = 0
        st[LASTBET] = 0
        st[IRAISE] = 0
        st[IRAISE + 1] = 0
    return 0


@njit(cache=True)
def orp(st: np.ndarray, seat: int) -> int:
    """ORP for ``seat``: cards the opponent replaced, -1 before he has replaced."""
    return int(st[REPL + 1 - seat])


@njit(cache=True)
def update_books(st: np.ndarray, book: np.ndarray, corr_mode: int, kc: np.ndarray) -> None:
    """Long-term bookkeeping at the end of an r-o-p, for both observers (row s = what seat s knows of
    its opponent).  OD += 1 when the opponent drops.  At a showdown: OBLUFFS += 1 when the opponent
    raised high (≥ 10, App. I's "high bet") and shows a hand below 10 (a "bad" hand); OCORREL
    moves by ±1 — ``corr_mode`` 0 (default, reproduces App. J's OSTYLE 0, 0, −1, −1): only when
    the opponent raised before the draw, +1 if (largest pre-draw raise ≥ 10) equals (hand ≥ 10),
    else −1; ``corr_mode`` 1 (the reading notes' proposal): the same test on the largest raise of
    the whole r-o-p, at every showdown."""
    end = st[END]
    for s in range(2):
        o = 1 - s
        if end == 1 + o:
            book[s, OD] += 1
        elif end == 0:
            v = vdhand(st[HAND + 8 * o : HAND + 8 * o + 5])
            if st[RMAX + o] >= 10 and v < 10:
                book[s, OBLUFFS] += 1
            raise_ = st[RMAXPRE + o] if corr_mode == 0 else st[RMAX + o]
            if corr_mode == 1 or raise_ > 0:
                if (raise_ >= 10) == (v >= 10):
                    book[s, OCORREL] += 1
                else:
                    book[s, OCORREL] -= 1


@njit(cache=True)
def round_half_away(x: float) -> int:
    return int(np.floor(x + 0.5)) if x >= 0 else -int(np.floor(-x + 0.5))


@njit(cache=True)
def function_variables(st: np.ndarray, seat: int, book: np.ndarray, kc: np.ndarray, out: np.ndarray) -> None:
    """The ff rules of App. B IV (11–15) for ``seat``: ``out = [OH, OB, CS, BO, LAP]`` with
    OH = K22 − K23·OAVGBET·OTBET·OB, OB = K24·OBLUFFS − K25·CS, CS = K26·OCORREL + K27·OD,
    BO = K28·CS − K29·OH, LAP = K30 − K31·BO.  OAVGBET / OTBET are the opponent's raises in this
    r-o-p (mean, count).  CS and BO are rounded to integers (App. J prints them as integers),
    LAP is clamped to the legal bets 1–20."""
    o = 1 - seat
    otbet = st[RCOUNT + o]
    oavg = st[RSUM + o] / otbet if otbet > 0 else 0.0
    cs = kc[26] * book[seat, OCORREL] + kc[27] * book[seat, OD]
    ob = kc[24] * book[seat, OBLUFFS] - kc[25] * cs
    oh = kc[22] - kc[23] * oavg * otbet * ob
    bo = round_half_away(kc[28] * cs - kc[29] * oh)
    lap = round_half_away(kc[30] - kc[31] * bo)
    out[0] = oh
    out[1] = ob
    out[2] = round_half_away(cs)
    out[3] = bo
    out[4] = min(max(lap, MIN_BET), MAX_BET)


@njit(cache=True)
def subvector(
    st: np.ndarray,
    seat: int,
    book: np.ndarray,
    kc: np.ndarray,
    hbasis: int,
    vals: np.ndarray,
    aux: np.ndarray,
    fv: np.ndarray,
) -> None:
    """β = (H, P, B, BFO, PB, R, OCS) of ``seat`` (§5.2).  ``vals[0]`` is VDHAND − OH (rounded) when
    ``hbasis`` = 0 (the built-in and explicit trainees define their hand categories on H − OH) or
    raw VDHAND when 1 (implicit training, Fig. 5-13); ``aux[0]`` is always raw VDHAND (the
    built-in's SW needs H ≥ K19).  POTBET = POT // LASTBET, or POT when no bet is pending (App. J)."""
    function_variables(st, seat, book, kc, fv)
    h = vdhand(st[HAND + 8 * seat : HAND + 8 * seat + 5])
    p = st[POT]
    b = st[LASTBET]
    vals[0] = h - round_half_away(fv[0]) if hbasis == 0 else h
    vals[1] = p
    vals[2] = b
    vals[3] = fv[3]
    vals[4] = p // b if b > 0 else p
    vals[5] = orp(st, seat)
    vals[6] = fv[2]
    for i in range(7):
        aux[i] = vals[i]
    aux[0] = h


ERRORS: dict[int, str] = {
    1: "the round of play is over",
    2: "it is not a betting interval (cards are being replaced)",
    3: "a call is not allowed until a bet has been made in the current betting interval (no bet is pending)",
    4: f"a bet must be an integer from {MIN_BET} to {MAX_BET}",
    5: "the raise cap of this engine is reached for this interval: call or drop",
    6: "unknown action kind",
    7: f"replace 0 to {MAX_REPLACE} of your 5 cards",
}

# ----------------------------------------------------------------------------- façade

SUBVECTOR_NAMES = ("H", "P", "B", "BFO", "PB", "R", "OCS")


@dataclass
class PokerState:
    """A game of ``rounds`` r-o-ps: the current round array, the continuous deck, both observers'
    long-term books, running scores and the number of r-o-ps played."""

    st: np.ndarray
    deck: np.ndarray
    book: np.ndarray
    scores: np.ndarray
    rop: int
    rounds: int
    rng: np.ndarray
    history: list = field(default_factory=list)

    def copy(self) -> PokerState:
        return PokerState(
            self.st.copy(),
            self.deck.copy(),
            self.book.copy(),
            self.scores.copy(),
            self.rop,
            self.rounds,
            self.rng.copy(),
            list(self.history),
        )

    def hand(self, seat: int) -> np.ndarray:
        return self.st[HAND + 8 * seat : HAND + 8 * seat + 5].copy()

    def __repr__(self) -> str:
        ph = ("bet 1", "replace", "bet 2", "done")[int(self.st[PHASE])]
        return (
            f"PokerState(r-o-p {self.rop + 1}/{self.rounds}, {ph}, pot {int(self.st[POT])}, "
            f"lastbet {int(self.st[LASTBET])}, to move {int(self.st[TO_MOVE])}, scores {self.scores.tolist()})"
        )


Move = tuple  # ("drop",), ("call",), ("bet", n), ("replace", mask)


def check_corr_mode(corr_mode: Any) -> int:
    """``corr_mode`` as an int; ValueError unless it is 0 (App. J reading) or 1 (notes' reading)."""
    if (
        isinstance(corr_mode, (bool, np.bool_))
        or not isinstance(corr_mode, (int, np.integer))
        or corr_mode not in (0, 1)
    ):
        raise ValueError(f"corr_mode must be 0 (App. J reading) or 1 (notes' reading), got {corr_mode!r}")
    return int(corr_mode)


def check_seed(seed: Any, name: str = "seed") -> int:
    """``seed`` as an int; ValueError unless it is a non-negative int."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"{name} must be a non-negative int, got {seed!r}")
    return int(seed)


def check_deals(deals: Any, rounds: int) -> np.ndarray:
    """``deals`` as a (rounds, 16) int array; ValueError unless every row is 16 distinct cards 0..51."""
    try:
        d = np.asarray(deals)
    except (TypeError, ValueError):
        raise ValueError("deals must be an array of card ints") from None
    if d.shape != (rounds, 16):
        raise ValueError(f"deals must have shape ({rounds}, 16), got {d.shape}")
    if d.dtype.kind not in "iu":
        raise ValueError(f"deals must be integer card codes, got dtype {d.dtype}")
    d = d.astype(np.int64)
    for k, row in enumerate(d):
        if row.min() < 0 or row.max() > 51:
            raise ValueError(f"deal {k} has a card outside 0..51: {row.tolist()}")
        if len(set(row.tolist())) != 16:
            raise ValueError(f"deal {k} must be 16 distinct cards, got {row.tolist()}")
    return d


class DrawPoker:
    """The :class:`~tdbook.games.base.Game` façade: a game of ``rounds`` r-o-ps from a seeded deck.

    Moves are tuples ``("drop",)``, ``("call",)``, ``("bet", n)`` and, when cards are replaced,
    ``("replace", mask)`` (bit i = discard card i of the 5).  When an r-o-p ends, the next is
    dealt from the same deck (the other seat opens) until ``rounds`` have been played.
    ``result`` is seat 0's total score; ``encode`` is the mover's subvector β.
    """

    name = "draw_poker"
    n_players = 2
    encoding_shape = (7,)

    def __init__(
        self, rounds: int = 5, seed: int = 0, stream: int = 0, cap: int = DEFAULT_CAP, corr_mode: int = 0
    ) -> None:
        if not isinstance(rounds, int) or rounds < 1:
            raise ValueError(f"rounds must be a positive int, got {rounds!r}")
        if not isinstance(cap, int) or cap < 1:
            raise ValueError(f"cap (raises per interval) must be a positive int, got {cap!r}")
        corr_mode = check_corr_mode(corr_mode)
        seed, stream = check_seed(seed), check_seed(stream, "stream")
        self.rounds, self.seed, self.stream, self.cap, self.corr_mode = rounds, seed, stream, cap, corr_mode
        most = rounds * (ANTE + 2 * cap * MAX_BET)  # the most one seat can put in over the game
        self.result_range = (-float(most), float(most))

    def initial_state(self, deals: np.ndarray | None = None) -> PokerState:
        """A fresh game.  ``deals`` (rounds × 16 card ints) fixes the cards, else the seeded deck deals."""
        fixed = None if deals is None else check_deals(deals, self.rounds)  # every row, before anything is dealt
        deck = np.zeros(53, dtype=np.int64)
        new_deck(deck)
        rng = make_state(self.seed, self.stream)
        s = PokerState(
            np.zeros(NST, dtype=np.int64),
            deck,
            np.zeros((2, NBOOK), dtype=np.int64),
            np.zeros(2, dtype=np.int64),
            0,
            self.rounds,
            rng,
        )
        s.history = [] if fixed is None else [fixed]
        self._deal(s)
        return s

    def _deal(self, s: PokerState) -> None:
        d = np.zeros(16, dtype=np.int64)
        if s.history and isinstance(s.history[0], np.ndarray):
            d[:] = s.history[0][s.rop]  # checked by initial_state
        else:
            deal16(s.deck, s.rng, d)
        new_round(s.st, d, s.rop % 2, self.cap)

    def to_move(self, state: PokerState) -> int:
        return int(state.st[TO_MOVE])

    def legal_moves(self, state: PokerState) -> list[Move]:
        if self.is_terminal(state):
            return []
        st = state.st
        if st[PHASE] == REPLACE:
            return [("replace", m) for m in range(32) if bin(m).count("1") <= MAX_REPLACE]
        moves: list[Move] = [("drop",)]
        if st[LASTBET] > 0:
            moves.append(("call",))
        if st[NRAISES] < st[CAP]:
            moves += [("bet", n) for n in range(MIN_BET, MAX_BET + 1)]
        return moves

    @staticmethod
    def _parse(move: Hashable) -> tuple[str, int]:
        if isinstance(move, str):
            text = move
            parts = move.strip().lower().split()
            try:
                move = tuple([parts[0]] + [int(p) for p in parts[1:]]) if parts else ()
            except ValueError:
                raise IllegalMove(
                    f"malformed move {text!r}: the amount must be a whole number (e.g. 'bet 5', 'replace 3')"
                ) from None
        if not isinstance(move, tuple) or not move or move[0] not in ("drop", "call", "bet", "replace"):
            raise IllegalMove(f"a move is ('drop',), ('call',), ('bet', n) or ('replace', mask); got {move!r}")
        if move[0] in ("drop", "call"):
            if len(move) != 1:
                raise IllegalMove(f"{move[0]} takes no amount, got {move!r}")
            return move[0], 0
        if len(move) != 2 or isinstance(move[1], bool) or not isinstance(move[1], (int, np.integer)):
            raise IllegalMove(f"{move[0]} needs one integer, got {move!r}")
        return move[0], int(move[1])

    def apply(self, state: PokerState, move: Hashable) -> PokerState:
        from .base import naming

        if self.is_terminal(state):
            raise IllegalMove(f"the game is over: no move {move!r}", move)
        try:
            kind, n = self._parse(move)
        except IllegalMove as e:
            raise naming(move, e) from None
        s = state.copy()
        if kind == "replace":
            err = apply_replace(s.st, n)
        else:
            err = apply_action(s.st, {"drop": DROP, "call": CALL, "bet": BET}[kind], n)
        if err:
            raise IllegalMove(f"illegal move {move!r}: {ERRORS[err]}", move)
        if s.st[PHASE] == DONE:
            update_books(s.st, s.book, self.corr_mode, K_VALUES)
            s.scores += s.st[NET : NET + 2]
            s.rop += 1
            if s.rop < self.rounds:
                self._deal(s)
        return s

    def is_terminal(self, state: PokerState) -> bool:
        return state.rop >= state.rounds

    def result(self, state: PokerState) -> float:
        """Seat 0's total winnings (chips) over the game's r-o-ps; ValueError before the last ends."""
        if not self.is_terminal(state):
            from .base import not_terminal

            raise not_terminal(self, state)
        return float(state.scores[0])

    def key(self, state: PokerState) -> bytes:
        """The round array, both books, the scores and the r-o-p count (the undealt deck is left out)."""
        return state.st.tobytes() + state.book.tobytes() + state.scores.tobytes() + np.int64(state.rop).tobytes()

    def encode(self, state: PokerState, hbasis: int = 0) -> np.ndarray:
        """β = (H, P, B, BFO, PB, R, OCS) of the player to move (H − OH when ``hbasis`` = 0), as floats."""
        vals, aux, fv = np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64), np.zeros(5)
        subvector(state.st, int(state.st[TO_MOVE]), state.book, K_VALUES, hbasis, vals, aux, fv)
        return vals.astype(np.float64)
