"""Draw-poker players (Waterman (1968) ch. 5, App. B–K; notebook 04): rule programs and the stand-in
opponents, their jitted move kernels, and a table that plays an r-o-p one decision at a time.

**Players** (``kind`` codes in the kernels):

0. *rule programs* — any :class:`~tdbook.learners.rule_learning.RuleSet` over the subvector
   β = (H, P, B, BFO, PB, R, OCS) (:mod:`tdbook.learners.draw_poker_heuristics`): the built-in
   program, the before-training program and every trainee.  The random rule picks a legal decision
   class uniformly ("classes") or, as the LISP listing's ``(STAR0) (STAR1) (BETO)`` suggests, drop /
   call / bet uniformly with a bet of 1–20 ("bcd").  A class becomes an action with its amount
   drawn from its range; a CALL with no bet pending is not allowed (App. B I): a rule that asks
   for one bets 1 instead (reading notes, ambiguity 5).
1. :func:`experienced` — **the stand-in for the document's "experienced" human opponent**: a fixed,
   hand-written rule-of-thumb player (jacks-or-better style, written for this notebook before any
   result was seen; see :func:`expert_action` for every threshold).  It is *not* a model of
   Waterman's human, whose play cannot be recovered.
2. :func:`equity_player` — a stronger modern baseline: Monte-Carlo win probabilities
   (:mod:`tdbook.players.draw_poker_equity`), calls by pot odds, raises in proportion to its edge.
3. a uniformly random player (drop / call / bet 1–20).

Every player replaces cards with the fixed draw policy :func:`~tdbook.games.draw_poker.draw_mask`.
:class:`Table` drives one r-o-p from Python decision by decision (the training procedures of
:mod:`tdbook.experiments.draw_poker.training` and the person-trainer session of
:mod:`tdbook.players.draw_poker_human`); whole matches and duplicate tests are jitted in
:mod:`tdbook.experiments.draw_poker.matches`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from ..core.rng import make_state, randint, uniform
from ..games import draw_poker as dp
from ..games.draw_poker import (
    BET,
    BET1,
    CALL,
    DONE,
    DROP,
    HAND,
    IRAISE,
    K_VALUES,
    LASTBET,
    NRAISES,
    PHASE,
    POT,
    REPLACE,
    TO_MOVE,
    apply_action,
    apply_replace,
    deal16,
    draw_mask,
    hand_rank,
    new_deck,
    new_round,
    subvector,
    update_books,
    vdhand,
)
from ..learners.draw_poker_heuristics import (
    C_BB,
    C_BBL,
    C_CALL,
    C_DROP,
    C_HIGH,
    C_LAP,
    C_LOW,
    C_MB,
    C_SB,
    CLASS_HI,
    CLASS_LO,
    CLASS_SETS,
    EXPLICIT,
    IMPLICIT,
)
from ..learners.production_rules_kernels import decide_rule
from ..learners.rule_learning import RuleSet
from .draw_poker_equity import N_CLASSES, equity_tables, hand_class, post_equity

RANDOM_MODES = {"classes": 0, "bcd": 1}
KIND_RULES, KIND_EXPERT, KIND_EQUITY, KIND_RANDOM = 0, 1, 2, 3
# ip (int parameters of a player): kind, nsym, nrules, hbasis, class set, random mode
IP_LEN = 6


# ----------------------------------------------------------------------------- player specs


class PlayerArrays(NamedTuple):
    """One player as the jitted kernels read it: int params (:data:`IP_LEN`), symbol and rule tables, float params."""

    ip: np.ndarray
    syms: np.ndarray
    rules: np.ndarray
    fp: np.ndarray


class Equity(NamedTuple):
    """The equity player's tables (:func:`~tdbook.players.draw_poker_equity.equity_tables`): pre-draw P(win) by hand
    class, a random opponent's sorted final ranks by cards drawn (row k) and the row lengths; stubs when no player
    needs them (:func:`equity_inputs`)."""

    pre: np.ndarray
    post: np.ndarray
    post_n: np.ndarray


class Work(NamedTuple):
    """Scratch space of a rule program's move: the subvector's values, their auxiliaries, its float features and
    the matched-symbol mask."""

    vals: np.ndarray
    aux: np.ndarray
    fv: np.ndarray
    mask: np.ndarray


@dataclass
class Player:
    """What the kernels need to know about one player: int params, symbol and rule tables, float params."""

    name: str
    ip: np.ndarray
    syms: np.ndarray
    rules: np.ndarray
    fp: np.ndarray
    program: RuleSet | None = None

    @property
    def arrays(self) -> PlayerArrays:
        """The player as the kernels take it."""
        return PlayerArrays(self.ip, self.syms, self.rules, self.fp)


def program_player(
    rs: RuleSet, name: str = "program", classes: str | None = None, random_mode: str = "classes"
) -> Player:
    """A rule program as a player (its arrays are a snapshot: rebuild after the rule set changes)."""
    classes = classes or getattr(rs, "classes", "explicit")
    if classes not in CLASS_SETS or random_mode not in RANDOM_MODES:
        raise ValueError(f"classes must be in {list(CLASS_SETS)} and random_mode in {list(RANDOM_MODES)}")
    syms, rules, _ = rs.arrays()
    hb = 0 if rs.variables[0].name == "D" else 1
    ip = np.array(
        [KIND_RULES, rs._arrays[3], len(rs.rules), hb, CLASS_SETS[classes], RANDOM_MODES[random_mode]], dtype=np.int64
    )
    return Player(name, ip, syms, rules, np.zeros(4), rs)


def _scripted(kind: int, name: str, fp: Sequence[float]) -> Player:
    return Player(
        name,
        np.array([kind, 0, 0, 0, 0, 0], dtype=np.int64),
        np.zeros((1, 5), dtype=np.int64),
        np.full((1, 8), -1, dtype=np.int64),
        np.asarray(fp, dtype=np.float64),
    )


def experienced(bluff: float = 0.10) -> Player:
    """The stand-in for Waterman's experienced human opponent (see :func:`expert_action`)."""
    if not 0 <= bluff <= 1:
        raise ValueError(f"bluff must be a probability, got {bluff!r}")
    return _scripted(KIND_EXPERT, "experienced (scripted)", [bluff, 0, 0, 0])


def equity_player(
    raise_pre: float = 0.62, raise_post: float = 0.70, open_at: float = 0.35, bluff: float = 0.05
) -> Player:
    """The equity-threshold baseline (see :func:`equity_action`)."""
    for n, v in (("raise_pre", raise_pre), ("raise_post", raise_post), ("open_at", open_at), ("bluff", bluff)):
        if not 0 <= v <= 1:
            raise ValueError(f"{n} must be in [0, 1], got {v!r}")
    return _scripted(KIND_EQUITY, "equity threshold", [raise_pre, raise_post, open_at, bluff])


def random_player() -> Player:
    return _scripted(KIND_RANDOM, "uniform random", [0, 0, 0, 0])


# ----------------------------------------------------------------------------- actions


@njit(cache=True)
def _bet_or_call(st: np.ndarray, amount: int) -> tuple:
    """A bet, or a call when this engine's raise cap is reached."""
    if st[NRAISES] >= st[dp.CAP]:
        return CALL, 0
    return BET, max(1, min(20, amount))


@njit(cache=True)
def _call(st: np.ndarray) -> tuple:
    """Call, or bet 1 when no bet is pending (a call is not allowed then)."""
    if st[LASTBET] > 0:
        return CALL, 0
    return _bet_or_call(st, 1)


@njit(cache=True)
def class_action(cls: int, st: np.ndarray, lap: int, rng: np.ndarray) -> tuple:
    """(kind, amount) of a decision class."""
    if cls == C_DROP:
        return DROP, 0
    if cls == C_CALL:
        return _call(st)
    if cls == C_LAP:
        return _bet_or_call(st, lap)
    lo, hi = CLASS_LO[cls], CLASS_HI[cls]
    return _bet_or_call(st, lo + randint(rng, hi - lo + 1))


@njit(cache=True)
def class_of_action(kind: int, amount: int, cset: int) -> int:
    """The decision class an action falls in (explicit: bets are reported as SB…BBL by range; implicit:
    LOW / HIGH)."""
    if kind == DROP:
        return C_DROP
    if kind == CALL:
        return C_CALL
    if cset == 1:
        return C_LOW if amount <= 9 else C_HIGH
    if amount <= 5:
        return C_SB
    if amount <= 9:
        return C_MB
    if amount <= 14:
        return C_BB
    return C_BBL


@njit(cache=True)
def random_action(cset: int, mode: int, st: np.ndarray, lap: int, rng: np.ndarray) -> tuple:
    """The random rule: (kind, amount, class)."""
    pending = st[LASTBET] > 0
    if mode == 1:  # drop / call / bet 1-20
        k = randint(rng, 3 if pending else 2)
        if k == 0:
            return DROP, 0, C_DROP
        if k == 1 and pending:
            return CALL, 0, C_CALL
        kind, amt = _bet_or_call(st, 1 + randint(rng, 20))
        return kind, amt, class_of_action(kind, amt, cset)
    classes = EXPLICIT if cset == 0 else IMPLICIT
    n = classes.shape[0] - (0 if pending else 1)
    j = randint(rng, n)
    cls = classes[j]
    if not pending and cls >= C_CALL:  # skip CALL when no bet is pending
        cls = classes[j + 1]
    kind, amt = class_action(cls, st, lap, rng)
    return kind, amt, cls


@njit(cache=True)
def rule_action(
    ip: np.ndarray,
    syms: np.ndarray,
    rules: np.ndarray,
    st: np.ndarray,
    seat: int,
    book: np.ndarray,
    kc: np.ndarray,
    rng: np.ndarray,
    vals: np.ndarray,
    aux: np.ndarray,
    fv: np.ndarray,
    mask: np.ndarray,
) -> tuple:
    """A rule program's move: (kind, amount, class, fired rule, random?)."""
    subvector(st, seat, book, kc, ip[3], vals, aux, fv)
    r = decide_rule(syms, ip[1], rules, ip[2], vals, aux, mask)
    lap = int(fv[4])
    cls = rules[r, rules.shape[1] - 1] if r >= 0 else -1
    if cls < 0:
        kind, amt, cls = random_action(ip[4], ip[5], st, lap, rng)
        return kind, amt, cls, r, True
    kind, amt = class_action(cls, st, lap, rng)
    return kind, amt, cls, r, False


@njit(cache=True)
def _open_call_drop(st: np.ndarray, rng: np.ndarray, lo: int, n: int, call_upto: int, odds: int) -> tuple:
    """First to act: bet ``lo``..``lo+n-1``; facing a bet B: call if B ≤ ``call_upto`` or P ≥ ``odds``·B, else drop."""
    b = st[LASTBET]
    if b == 0:
        return _bet_or_call(st, lo + randint(rng, n))
    if b <= call_upto or st[POT] >= odds * b:
        return CALL, 0
    return DROP, 0


@njit(cache=True)
def expert_action(st: np.ndarray, seat: int, fp: np.ndarray, rng: np.ndarray) -> tuple:
    """The scripted "experienced" stand-in.  V = VDHAND of its current hand, B = pending bet, P = pot,
    r = cards the opponent drew, n = its own raises in this interval; bets are uniform in the ranges
    given.  Before the draw: trips+ raise 8–14 (≤ 3 times, then call); two pair raise 4–8 (≤ 2);
    pair of J+ open 3–6, re-raise 2–4 once over a bet ≤ 3, call ≤ 10, call bigger bets only if
    P ≥ 2B; small pair open 1–2, call if B ≤ 4 or P ≥ 4B; no pair: open 1 with a 4-flush, an open
    straight draw or ace-high, bluff 5–10 with probability ``bluff``, else drop; call a bet ≤ 3
    with a draw, ≤ 1 with ace-high.  After the draw: straight+ raise 10–20 (≤ 3); trips raise
    6–12 (≤ 2) but only call a bet ≥ 10 from a pat (r = 0) opponent; two pair open 3–6, raise 3–6
    once when r = 3, call B ≤ 8 or P ≥ 3B; pair of J+ open 1–3, call B ≤ 5 or P ≥ 4B; small pair
    open 1, call B ≤ 2 or P ≥ 6B; nothing: bluff 10–15 with probability 1.5·``bluff`` when r = 3,
    else drop.  Returns (kind, amount)."""
    h = st[HAND + 8 * seat : HAND + 8 * seat + 5]
    v = vdhand(h)
    b = st[LASTBET]
    mine = st[IRAISE + seat]
    bluff = fp[0]
    if st[PHASE] == BET1:
        if v >= 48:
            return _bet_or_call(st, 8 + randint(rng, 7)) if mine < 3 else _call(st)
        if v >= 22:
            return _bet_or_call(st, 4 + randint(rng, 5)) if mine < 2 else _call(st)
        if v >= 17:
            if 0 < b <= 3 and mine == 0:
                return _bet_or_call(st, 2 + randint(rng, 3))
            return _open_call_drop(st, rng, 3, 4, 10, 2)
        if v >= 8:
            return _open_call_drop(st, rng, 1, 2, 4, 4)
        m = draw_mask(h)
        draw = m != 0 and (m & (m - 1)) == 0
        if b == 0:
            if draw or v == 2:
                return _bet_or_call(st, 1)
            if uniform(rng) < bluff:
                return _bet_or_call(st, 5 + randint(rng, 6))
            return DROP, 0
        if (draw and b <= 3) or (v == 2 and b <= 1):
            return CALL, 0
        return DROP, 0
    r = dp.orp(st, seat)
    if v >= 100:
        return _bet_or_call(st, 10 + randint(rng, 11)) if mine < 3 else _call(st)
    if v >= 48:
        if b >= 10 and r == 0:
            return CALL, 0
        return _bet_or_call(st, 6 + randint(rng, 7)) if mine < 2 else _call(st)
    if v >= 22:
        if b > 0 and r == 3 and mine == 0:
            return _bet_or_call(st, 3 + randint(rng, 4))
        return _open_call_drop(st, rng, 3, 4, 8, 3)
    if v >= 17:
        return _open_call_drop(st, rng, 1, 3, 5, 4)
    if v >= 8:
        return _open_call_drop(st, rng, 1, 1, 2, 6)
    if b == 0 and r == 3 and uniform(rng) < 1.5 * bluff:
        return _bet_or_call(st, 10 + randint(rng, 6))
    return DROP, 0


@njit(cache=True)
def equity_action(
    st: np.ndarray, seat: int, fp: np.ndarray, rng: np.ndarray, pre: np.ndarray, post: np.ndarray, post_n: np.ndarray
) -> tuple:
    """Equity-threshold play.  e = pre-draw P(win) of its hand class, or post-draw P(win) of its final
    hand against the opponent's final hands given his draw count.  Raise round(40·(e − ½)) (1–20)
    when e ≥ ``raise_pre``/``raise_post`` and it has raised < 2 times in the interval; facing a bet
    B call iff e ≥ B / (P + 2B) (the pot odds), else drop; first to act bet 1 iff e ≥ ``open_at``,
    after the draw bluff 10–15 with probability ``bluff`` when the opponent drew 3, else drop."""
    h = st[HAND + 8 * seat : HAND + 8 * seat + 5]
    b = st[LASTBET]
    p = st[POT]
    mine = st[IRAISE + seat]
    if st[PHASE] == BET1:
        e = pre[hand_class(h)]
        t = fp[0]
    else:
        e = post_equity(hand_rank(h), dp.orp(st, seat), post, post_n)
        t = fp[1]
    if e >= t and mine < 2:
        return _bet_or_call(st, int(np.floor(40.0 * (e - 0.5) + 0.5)))
    if b > 0:
        if e >= b / (p + 2.0 * b):
            return CALL, 0
        return DROP, 0
    if e >= fp[2]:
        return _bet_or_call(st, 1)
    if st[PHASE] != BET1 and dp.orp(st, seat) == 3 and uniform(rng) < fp[3]:
        return _bet_or_call(st, 10 + randint(rng, 6))
    return DROP, 0


@njit(cache=True)
def act(
    p: PlayerArrays,
    st: np.ndarray,
    seat: int,
    book: np.ndarray,
    kc: np.ndarray,
    rng: np.ndarray,
    eq: Equity,
    work: Work,
) -> tuple:
    """Any player's move: (kind, amount, class or -1, fired rule or -1, from the random rule?)."""
    k = p.ip[0]
    if k == KIND_RULES:
        return rule_action(
            p.ip, p.syms, p.rules, st, seat, book, kc, rng, work.vals, work.aux, work.fv, work.mask
        )  # fmt: skip
    if k == KIND_EXPERT:
        kind, amt = expert_action(st, seat, p.fp, rng)
    elif k == KIND_EQUITY:
        kind, amt = equity_action(st, seat, p.fp, rng, eq.pre, eq.post, eq.post_n)
    else:
        kind, amt, _ = random_action(0, 1, st, 11, rng)
    return kind, amt, -1, -1, False


# ----------------------------------------------------------------------------- inputs of the kernels

_NO_EQ = Equity(np.full(N_CLASSES, 0.5), np.zeros((4, 1), dtype=np.int64), np.zeros(4, dtype=np.int64))


def equity_inputs(*players: Player) -> Equity:
    """The equity tables if one of ``players`` needs them (computing them takes a second), else stubs."""
    if any(p.ip[0] == KIND_EQUITY for p in players):
        return Equity(*equity_tables())
    return _NO_EQ


# ----------------------------------------------------------------------------- step-by-step play for training


class Table:
    """A round of play driven from Python, one decision at a time (for the training procedures and the
    widget): the jitted engine on arrays, a continuous deck, both books."""

    def __init__(self, seed: int, stream: int, corr_mode: int = 0, kc: np.ndarray = K_VALUES, memory: int = 25) -> None:
        if memory < 1:
            raise ValueError(f"memory (r-o-ps before the books are reset) must be >= 1, got {memory!r}")
        seed, corr_mode = dp.check_seed(seed), dp.check_corr_mode(corr_mode)
        self.memory = memory
        self.rng = make_state(seed, stream)
        self.deck = np.zeros(53, dtype=np.int64)
        new_deck(self.deck)
        self.st = np.zeros(dp.NST, dtype=np.int64)
        self.book = np.zeros((2, dp.NBOOK), dtype=np.int64)
        self.kc, self.corr_mode = kc, corr_mode
        self.rop = 0
        self.vals, self.aux, self.fv = np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64), np.zeros(5)
        self.deal = np.zeros(16, dtype=np.int64)

    def new_round(self) -> None:
        if self.rop % self.memory == 0:
            self.book[:, :] = 0  # a new session: long-term memory starts empty
        deal16(self.deck, self.rng, self.deal)
        new_round(self.st, self.deal, self.rop % 2, dp.DEFAULT_CAP)
        self.rop += 1

    def replace_all(self) -> None:
        while self.st[PHASE] == REPLACE:
            seat = int(self.st[TO_MOVE])
            apply_replace(self.st, draw_mask(self.st[HAND + 8 * seat : HAND + 8 * seat + 5]))

    def beta(self, seat: int, hbasis: int) -> tuple[np.ndarray, np.ndarray, int]:
        subvector(self.st, seat, self.book, self.kc, hbasis, self.vals, self.aux, self.fv)
        return self.vals.copy(), self.aux.copy(), int(self.fv[4])

    def move(self, p: Player, seat: int) -> tuple:
        mask = np.zeros(max(1, p.syms.shape[0]), dtype=np.bool_)
        work = Work(self.vals, self.aux, self.fv, mask)
        return act(p.arrays, self.st, seat, self.book, self.kc, self.rng, equity_inputs(p), work)

    def apply(self, kind: int, amount: int) -> None:
        err = apply_action(self.st, kind, amount)
        if err:
            raise ValueError(dp.ERRORS[err])
        if self.st[PHASE] == DONE:
            update_books(self.st, self.book, self.corr_mode, self.kc)

    @property
    def done(self) -> bool:
        return bool(self.st[PHASE] == DONE)
