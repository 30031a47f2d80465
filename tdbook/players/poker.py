"""Draw-poker players: Waterman's built-in 28-rule program, the random "before training" program, the
trainees of §5.3–5.4, the stand-in opponents, and the jitted match and duplicate-test kernels
(seed 003, Waterman 1968, ch. 5, App. B–K; notebook 04).

**Decisions.**  Explicit training uses 8 decision classes (DROP, CALL, BET LAP/SB/MB/BB/BBS/BBL),
implicit training 4 (DROP, CALL, BET LOW 1–9, BET HIGH 10–20; App. I).  A class becomes an action
with its amount drawn from its range (SB 1–5, MB 3–9, BB 8–14, BBS 10–15, BBL 14–20, App. B II
16–20; LAP = K30 − K31·BO clamped to 1–20).  A CALL with no bet pending is not allowed (App. B I);
a rule that asks for one bets 1 instead (reading notes, ambiguity 5).

**Players** (``kind`` codes in the kernels):

0. *rule programs* — any :class:`~tdbook.learners.production_rules.RuleSet` over the subvector
   β = (H, P, B, BFO, PB, R, OCS): the built-in program (:func:`built_in`, Fig. 5-3 / App. B IV),
   the before-training program (:func:`random_program`) and every trainee.  The random rule
   picks a legal decision class uniformly ("classes") or, as the LISP listing's
   ``(STAR0) (STAR1) (BETO)`` suggests, drop / call / bet uniformly with a bet of 1–20 ("bcd").
1. :func:`experienced` — **the stand-in for the seed's "experienced" human opponent**: a fixed,
   hand-written rule-of-thumb player (jacks-or-better style, written for this notebook before any
   result was seen; see :func:`expert_action` for every threshold).  It is *not* a model of the
   seed's human, whose play cannot be recovered.
2. :func:`equity_player` — a stronger modern baseline: Monte-Carlo win probabilities (pre-draw by
   hand class, post-draw against the opponent's final hands given how many cards he drew), calls
   by pot odds, raises in proportion to its edge.
3. a uniformly random player (drop / call / bet 1–20).

Every player replaces cards with the fixed draw policy :func:`~tdbook.games.draw_poker.draw_mask`.

**Training** (§5.3–5.4): :func:`train_explicit` (automatic training by the built-in program, and
the "manual training" proxy: the same trainer giving inconsistent advice at a stated rate) and
:func:`train_implicit` (axioms + decision matrix, hypothesis formation) run the seed's procedures
on top of :class:`RuleSet`; the play is the jitted engine, the learning plain Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..core.rng import make_state, randint, seed_state, uniform
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
    RCOUNT,
    REPLACE,
    RMAX,
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
from ..learners.production_rules import (
    CAT,
    GT,
    INF,
    LT,
    RANDOM,
    SET,
    LearnParams,
    RuleSet,
    Variable,
    decide_rule,
    deduce,
)

# ----------------------------------------------------------------------------- decision classes

C_DROP, C_CALL, C_LAP, C_SB, C_MB, C_BB, C_BBS, C_BBL, C_LOW, C_HIGH = range(10)
CLASS_NAMES = ("DROP", "CALL", "BET LAP", "BET SB", "BET MB", "BET BB", "BET BBS", "BET BBL", "BET LOW", "BET HIGH")
CLASS_LO = np.array([0, 0, 0, 1, 3, 8, 10, 14, 1, 10], dtype=np.int64)
CLASS_HI = np.array([0, 0, 0, 5, 9, 14, 15, 20, 9, 20], dtype=np.int64)
EXPLICIT = np.array([C_DROP, C_CALL, C_LAP, C_SB, C_MB, C_BB, C_BBS, C_BBL], dtype=np.int64)
IMPLICIT = np.array([C_DROP, C_CALL, C_LOW, C_HIGH], dtype=np.int64)
CLASS_SETS = {"explicit": 0, "implicit": 1}
RANDOM_MODES = {"classes": 0, "bcd": 1}
KIND_RULES, KIND_EXPERT, KIND_EQUITY, KIND_RANDOM = 0, 1, 2, 3
# ip (int parameters of a player): kind, nsym, nrules, hbasis, class set, random mode
IP_LEN = 6

VAR_NAMES = dp.SUBVECTOR_NAMES
H_WORDS = {"H1": "EXCELLENT", "H2": "GOOD", "H3": "FAIR", "H4": "POOR"}
BUILTIN_TO_TRAINEE = {"SW": "H1", "EC": "H1", "GC": "H2", "PC": "H3", "NC": "H4"}


def class_of(name: str) -> int:
    key = " ".join(name.upper().replace("-", " ").split())
    if key in ("LAP", "SB", "MB", "BB", "BBS", "BBL", "LOW", "HIGH"):
        key = "BET " + key
    if key not in CLASS_NAMES:
        raise ValueError(f"unknown decision {name!r}; decisions are {', '.join(CLASS_NAMES)}")
    return CLASS_NAMES.index(key)


def poker_variables(hbasis: str = "D") -> list[Variable]:
    """β = (H, P, B, BFO, PB, R, OCS) as learner variables; H is the exclusive one (§5.2), on
    D = H − OH (``hbasis`` "D", explicit programs) or raw VDHAND ("raw", implicit training)."""
    if hbasis not in ("D", "raw"):
        raise ValueError(f"hbasis must be 'D' or 'raw', got {hbasis!r}")
    return [
        Variable(
            "H" if hbasis == "raw" else "D",
            exclusive=True,
            lo=-INF if hbasis == "D" else 0,
            hi=INF,
            prefix="H",
            word="HAND",
        ),
        Variable("P", lo=0, hi=INF, word="POT"),
        Variable("B", lo=0, hi=20, word="LASTBET"),
        Variable("BFO", lo=-INF, hi=INF, prefix="B0", word="BLUFFS"),
        Variable("PB", lo=0, hi=INF, word="PBRATIO"),
        Variable("R", lo=-1, hi=3, word="ORP"),
        Variable("OCS", lo=-INF, hi=INF, prefix="CS", word="OSTYLE"),
    ]


# ----------------------------------------------------------------------------- the built-in program


#: Fig. 5-3 values (the listing "actually used"); App. B IV / LASH values where they differ.
BUILTIN_VARIANTS = {
    "fig5-3": {"P8": 120, "P9": 17, "P10": 15, "B7": 12, "B8": 11},
    "appB": {"P8": 80, "P9": 15, "P10": 13, "B7": 10, "B8": 9},
}

#: The 28 action rules of App. B IV in Fig. 5-3's order (rule 7 restored from App. B IV 3.g).
BUILTIN_RULES: tuple[tuple[str, str], ...] = (
    ("SW P8 B5", "CALL"),
    ("SW", "BET LAP"),
    ("EC P1 B5", "CALL"),
    ("EC", "BET LAP"),
    ("GC P2 B5 * * OR1", "CALL"),
    ("GC P9 B6 * * OR1", "CALL"),
    ("GC * B5 * * OR2 CS1", "CALL"),
    ("GC P3 B5 * * OR3", "CALL"),
    ("GC * * B01 * OR3", "BET SB"),
    ("GC P4 B5", "CALL"),
    ("GC P9 B7", "CALL"),
    ("GC", "BET MB"),
    ("PC * B5 * PB2 OR4", "CALL"),
    ("PC * B5 * PB2 OR2 CS2", "CALL"),
    ("PC P6 B9 B01 PB3 OR6", "BET BB"),
    ("PC P5 B2 B02", "BET BB"),
    ("PC * B8 * PB4 OR6", "DROP"),
    ("PC * B5", "CALL"),
    ("PC", "BET SB"),
    ("NC * * * * OR4", "DROP"),
    ("NC * * * * OR2 CS3", "DROP"),
    ("NC P10 B9 B01 * OR7", "BET BBS"),
    ("NC P6 B4 B03 * OR6", "BET BBL"),
    ("NC * B5 * PB1", "CALL"),
    ("NC P7 B9", "CALL"),
    ("NC P7 B3", "BET SB"),
    ("NC P6 B3 * * OR6", "BET SB"),
    ("NC", "DROP"),
)


def built_in(variant: str = "fig5-3", kc: np.ndarray = K_VALUES) -> RuleSet:
    """The built-in heuristics: 28 action rules, 41 bf rules (Fig. 5-3 with App. B IV's rule 7).

    Hand categories on D = H − OH: SW (D > K18 ∧ H ≥ K19), EC (D > K18 ∧ H < K19),
    GC (K20 < D ≤ K18), PC (K21 < D ≤ K20), NC (D ≤ K21).  ``variant`` "appB" uses App. B IV's
    values of P8, P9, P10, B7, B8 instead of Fig. 5-3's.
    """
    if variant not in BUILTIN_VARIANTS:
        raise ValueError(f"variant must be one of {list(BUILTIN_VARIANTS)}, got {variant!r}")
    x = BUILTIN_VARIANTS[variant]
    K = lambda k: int(kc[k])  # noqa: E731
    rs = RuleSet(poker_variables("D"), decision_names=dict(enumerate(CLASS_NAMES)))
    k18, k19, k20, k21 = K(18), K(19), K(20), K(21)
    rs.add_symbol(0, CAT, k18 + 1, INF, "SW", lo2=k19, label=f"D > {k18} ∧ H ≥ {k19}")
    rs.add_symbol(0, CAT, k18 + 1, INF, "EC", hi2=k19 - 1, label=f"D > {k18} ∧ H < {k19}")
    rs.add_symbol(0, CAT, k20 + 1, k18, "GC", label=f"{k20} < D ≤ {k18}")
    rs.add_symbol(0, CAT, k21 + 1, k20, "PC", label=f"{k21} < D ≤ {k20}")
    rs.add_symbol(0, CAT, -INF, k21, "NC", label=f"D ≤ {k21}")
    for name, text in [
        ("P1", f"> {K(1)}"),
        ("P2", f"> {K(2)}"),
        ("P3", f"> {K(4)}"),
        ("P4", f"> {K(6)}"),
        ("P5", f"< {K(9)}"),
        ("P6", f"< {K(14)}"),
        ("P7", f"< {K(32)}"),
        ("P8", f"> {x['P8']}"),
        ("P9", f"> {x['P9']}"),
        ("P10", f"< {x['P10']}"),
    ]:
        rs.add_threshold("P", text, name)
    for name, text in [
        ("B1", f"< {K(8)}"),
        ("B2", f"< {K(10)}"),
        ("B3", f"< {K(13)}"),
        ("B4", f"< {K(15)}"),
        ("B5", "> 0"),
        ("B6", "> 7"),
        ("B7", f"> {x['B7']}"),
        ("B8", f"> {x['B8']}"),
    ]:
        rs.add_threshold("B", text, name)
    rs.add_symbol("B", SET, 1, 4, "B9", label="0 < B < 5")
    for name, k in [("B01", 5), ("B02", 11), ("B03", 16)]:
        rs.add_threshold("BFO", f"> {K(k)}", name)
    for name, text in [("PB1", f"> {K(17)}"), ("PB2", "> 1"), ("PB3", "> 3"), ("PB4", "< 2")]:
        rs.add_threshold("PB", text, name)
    for name, lo, hi, lab in [
        ("OR1", 0, 1, "R = 0 ∨ R = 1"),
        ("OR2", 2, 2, "R = 2"),
        ("OR3", -1, -1, "R = -1"),
        ("OR4", 0, 0, "R = 0"),
        ("OR5", 1, 1, "R = 1"),
        ("OR6", 0, 3, "R ≠ -1"),
        ("OR7", 3, 3, "R = 3"),
    ]:
        rs.add_symbol("R", SET, lo, hi, name, label=lab)
    for name, k in [("CS1", 3), ("CS2", 7), ("CS3", 12)]:
        rs.add_threshold("OCS", f"> {K(k)}", name)
    for left, dec in BUILTIN_RULES:
        toks = left.split()
        rs.add_rule(toks + ["*"] * (7 - len(toks)), class_of(dec))
    return rs


def random_program(classes: str = "explicit", params: LearnParams | None = None) -> RuleSet:
    """The before-training program: one rule ``(* * * * * * *) → random``, no bf rules except the
    exclusive hand partition a learner needs to start from — explicit: 4 categories on D = H − OH
    with guessed cuts 0/10/30 (notes, ambiguity 9; training moves them); implicit: 4 categories on
    raw H, H4 < 3, H3 3–19, H2 20–41, H1 ≥ 42 (Fig. 5-13; its reasons name the current category,
    so they never move)."""
    if classes not in CLASS_SETS:
        raise ValueError(f"classes must be 'explicit' or 'implicit', got {classes!r}")
    hb = "D" if classes == "explicit" else "raw"
    rs = RuleSet(poker_variables(hb), params or LearnParams(K=4, KK=0, N=2), dict(enumerate(CLASS_NAMES)))
    cuts = [0, 10, 30] if classes == "explicit" else [3, 20, 42]
    rs.add_partition(0, ["H4", "H3", "H2", "H1"], cuts)
    rs.add_random_rule()
    rs.classes = classes  # type: ignore[attr-defined]
    return rs


# ----------------------------------------------------------------------------- player specs


@dataclass
class Player:
    """What the kernels need to know about one player: int params, symbol and rule tables, float params."""

    name: str
    ip: np.ndarray
    syms: np.ndarray
    rules: np.ndarray
    fp: np.ndarray
    program: RuleSet | None = None


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
    """The stand-in for the seed's experienced human (see :func:`expert_action`)."""
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


# ----------------------------------------------------------------------------- equity tables


@njit(cache=True)
def hand_class(h: np.ndarray) -> int:
    """47 pre-draw classes: no pair (plain, ace-high, 4-flush, open 4-straight), pairs by rank,
    two pair by top pair, trips by rank, straight, flush, full house, quads, straight flush."""
    r = hand_rank(h)
    cat = r >> 20
    top = (r >> 16) & 15
    if cat == 0:
        m = draw_mask(h)
        if m != 0 and (m & (m - 1)) == 0:
            # one discard: a four-flush or an open-ended four-straight
            s0 = -1
            same = 0
            for i in range(5):
                if not (m >> i) & 1:
                    if s0 < 0:
                        s0 = h[i] % 4
                    if h[i] % 4 == s0:
                        same += 1
            return 2 if same == 4 else 3
        return 1 if top == 14 else 0
    if cat == 1:
        return 4 + top - 2
    if cat == 2:
        return 17 + top - 3
    if cat == 3:
        return 29 + top - 2
    return 38 + cat


N_CLASSES = 47


@njit(cache=True)
def _equity_tables(
    n: int, seed: int, pre_num: np.ndarray, pre_den: np.ndarray, post: np.ndarray, post_n: np.ndarray
) -> None:
    rng = seed_state(seed, 0)
    deck = np.zeros(53, dtype=np.int64)
    new_deck(deck)
    d = np.zeros(16, dtype=np.int64)
    st = np.zeros(dp.NST, dtype=np.int64)
    for _ in range(n):
        deal16(deck, rng, d)
        new_round(st, d, 0, 50)
        c0 = hand_class(st[HAND : HAND + 5])
        st[PHASE] = REPLACE
        st[TO_MOVE] = 0
        apply_replace(st, draw_mask(st[HAND : HAND + 5]))
        apply_replace(st, draw_mask(st[HAND + 8 : HAND + 13]))
        r0 = hand_rank(st[HAND : HAND + 5])
        r1 = hand_rank(st[HAND + 8 : HAND + 13])
        pre_den[c0] += 1
        pre_num[c0] += 2 if r0 > r1 else (1 if r0 == r1 else 0)
        k = st[dp.REPL + 1]
        if post_n[k] < post.shape[1]:
            post[k, post_n[k]] = r1
            post_n[k] += 1


_EQ_CACHE: dict = {}


def equity_tables(n: int = 400_000, seed: int = 1968) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(pre, post, post_n)``: pre-draw P(win) by :func:`hand_class` (ties count ½) against a
    random hand, both drawing by the fixed policy; sorted final ranks of a random opponent who
    drew k cards (row k, first ``post_n[k]`` entries).  Monte Carlo with a fixed seed, cached."""
    key = (n, seed)
    if key not in _EQ_CACHE:
        pre_num, pre_den = np.zeros(N_CLASSES, dtype=np.int64), np.zeros(N_CLASSES, dtype=np.int64)
        post, post_n = np.zeros((4, n), dtype=np.int64), np.zeros(4, dtype=np.int64)
        _equity_tables(n, seed, pre_num, pre_den, post, post_n)
        pre = np.where(pre_den > 0, pre_num / np.maximum(2 * pre_den, 1), 0.5)
        for k in range(4):
            post[k, : post_n[k]] = np.sort(post[k, : post_n[k]])
        width = int(post_n.max())
        _EQ_CACHE[key] = (pre, np.ascontiguousarray(post[:, :width]), post_n)
    return _EQ_CACHE[key]


@njit(cache=True)
def post_equity(rank: np.int64, k: int, post: np.ndarray, post_n: np.ndarray) -> float:
    """P(win) of a final hand ``rank`` against an opponent who drew ``k`` cards (ties ½)."""
    n = post_n[k]
    if n == 0:
        return 0.5
    row = post[k, :n]
    lo = np.searchsorted(row, rank, side="left")
    hi = np.searchsorted(row, rank, side="right")
    return (lo + 0.5 * (hi - lo)) / n


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
    ip: np.ndarray,
    syms: np.ndarray,
    rules: np.ndarray,
    fp: np.ndarray,
    st: np.ndarray,
    seat: int,
    book: np.ndarray,
    kc: np.ndarray,
    rng: np.ndarray,
    pre: np.ndarray,
    post: np.ndarray,
    post_n: np.ndarray,
    vals: np.ndarray,
    aux: np.ndarray,
    fv: np.ndarray,
    mask: np.ndarray,
) -> tuple:
    """Any player's move: (kind, amount, class or -1, fired rule or -1, from the random rule?)."""
    k = ip[0]
    if k == KIND_RULES:
        return rule_action(ip, syms, rules, st, seat, book, kc, rng, vals, aux, fv, mask)
    if k == KIND_EXPERT:
        kind, amt = expert_action(st, seat, fp, rng)
    elif k == KIND_EQUITY:
        kind, amt = equity_action(st, seat, fp, rng, pre, post, post_n)
    else:
        kind, amt, _ = random_action(0, 1, st, 11, rng)
    return kind, amt, -1, -1, False


# ----------------------------------------------------------------------------- matches


@njit(cache=True)
def play_round(
    st: np.ndarray,
    book: np.ndarray,
    kc: np.ndarray,
    rng: np.ndarray,
    corr_mode: int,
    ip0,
    syms0,
    rules0,
    fp0,
    ip1,
    syms1,
    rules1,
    fp1,
    pre,
    post,
    post_n,
) -> int:
    """Play the dealt r-o-p in ``st`` to the end (draws by the fixed policy), update the books;
    returns the number of bet decisions made."""
    nmax = max(syms0.shape[0], syms1.shape[0])
    vals, aux, fv = np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64), np.zeros(5)
    mask = np.zeros(nmax, dtype=np.bool_)
    n = 0
    while st[PHASE] != DONE:
        seat = st[TO_MOVE]
        if st[PHASE] == REPLACE:
            apply_replace(st, draw_mask(st[HAND + 8 * seat : HAND + 8 * seat + 5]))
            continue
        if seat == 0:
            kind, amt, _, _, _ = act(
                ip0, syms0, rules0, fp0, st, 0, book, kc, rng, pre, post, post_n, vals, aux, fv, mask
            )
        else:
            kind, amt, _, _, _ = act(
                ip1, syms1, rules1, fp1, st, 1, book, kc, rng, pre, post, post_n, vals, aux, fv, mask
            )
        err = apply_action(st, kind, amt)
        if err != 0:
            raise ValueError("a player produced an illegal action")
        n += 1
    update_books(st, book, corr_mode, kc)
    return n


@njit(cache=True)
def play_rounds(
    n: int,
    seed: int,
    stream: int,
    kc: np.ndarray,
    corr_mode: int,
    memory: int,
    ip0,
    syms0,
    rules0,
    fp0,
    ip1,
    syms1,
    rules1,
    fp1,
    pre,
    post,
    post_n,
    nets: np.ndarray,
) -> int:
    """``n`` r-o-ps from one continuous deck (first player alternating; the books are reset every
    ``memory`` r-o-ps); ``nets[i, s]`` = seat s's net in r-o-p i.  Returns the number of bet decisions."""
    rng = seed_state(seed, stream)
    deck = np.zeros(53, dtype=np.int64)
    new_deck(deck)
    d = np.zeros(16, dtype=np.int64)
    st = np.zeros(dp.NST, dtype=np.int64)
    book = np.zeros((2, dp.NBOOK), dtype=np.int64)
    total = 0
    for i in range(n):
        if i % memory == 0:
            book[:, :] = 0
        deal16(deck, rng, d)
        new_round(st, d, i % 2, dp.DEFAULT_CAP)
        total += play_round(
            st, book, kc, rng, corr_mode, ip0, syms0, rules0, fp0, ip1, syms1, rules1, fp1, pre, post, post_n
        )
        nets[i, 0] = st[dp.NET]
        nets[i, 1] = st[dp.NET + 1]
    return total


@njit(cache=True)
def duplicate_tests(
    reps: int,
    seed: int,
    stream0: int,
    games: int,
    rounds: int,
    swap_seats: bool,
    kc: np.ndarray,
    corr_mode: int,
    ip0,
    syms0,
    rules0,
    fp0,
    ip1,
    syms1,
    rules1,
    fp1,
    pre,
    post,
    post_n,
    nets1: np.ndarray,
    nets2: np.ndarray,
) -> None:
    """The proficiency test of §5.2 (Fig. 5-4), ``reps`` times.  Series I: the program (player 0) plays
    ``games`` × ``rounds`` r-o-ps against the opponent (player 1), the program opening the odd
    r-o-ps of each game; series II: the same deals with the hands swapped (the program holds what
    the opponent held) and the games in a random order, positions as in series I (as in App. C) or
    swapped too (``swap_seats``).  Books are reset before each series.  ``nets1[t, k]`` is the
    program's net in deal k of series I, ``nets2[t, k]`` the opponent's net on deal k in series II."""
    nd = games * rounds
    deals = np.zeros((nd, 16), dtype=np.int64)
    d = np.zeros(16, dtype=np.int64)
    st = np.zeros(dp.NST, dtype=np.int64)
    book = np.zeros((2, dp.NBOOK), dtype=np.int64)
    deck = np.zeros(53, dtype=np.int64)
    order = np.zeros(games, dtype=np.int64)
    for t in range(reps):
        rng = seed_state(seed, stream0 + t)
        new_deck(deck)
        for k in range(nd):
            deal16(deck, rng, deals[k])
        for i in range(games):
            order[i] = i
        for i in range(games - 1, 0, -1):
            j = randint(rng, i + 1)
            order[i], order[j] = order[j], order[i]
        # series I
        book[:, :] = 0
        for k in range(nd):
            new_round(st, deals[k], (k % rounds) % 2, dp.DEFAULT_CAP)
            play_round(
                st, book, kc, rng, corr_mode, ip0, syms0, rules0, fp0, ip1, syms1, rules1, fp1, pre, post, post_n
            )
            nets1[t, k] = st[dp.NET]
        # series II: hands swapped, games permuted
        book[:, :] = 0
        for g in range(games):
            for rr in range(rounds):
                k = order[g] * rounds + rr
                d[0:8] = deals[k, 8:16]
                d[8:16] = deals[k, 0:8]
                opener = rr % 2
                if swap_seats:
                    opener = 1 - opener
                new_round(st, d, opener, dp.DEFAULT_CAP)
                play_round(
                    st, book, kc, rng, corr_mode, ip0, syms0, rules0, fp0, ip1, syms1, rules1, fp1, pre, post, post_n
                )
                nets2[t, k] = st[dp.NET + 1]


_NO_EQ = (np.full(N_CLASSES, 0.5), np.zeros((4, 1), dtype=np.int64), np.zeros(4, dtype=np.int64))


def _eq(*players: Player) -> tuple:
    """The equity tables if one of ``players`` needs them (computing them takes a second), else stubs."""
    if any(p.ip[0] == KIND_EQUITY for p in players):
        return equity_tables()
    return _NO_EQ


def match(
    p0: Player,
    p1: Player,
    rounds: int,
    seed: int = 0,
    stream: int = 0,
    corr_mode: int = 0,
    memory: int = 25,
    kc: np.ndarray = K_VALUES,
) -> tuple[np.ndarray, int]:
    """Both seats' nets in each of ``rounds`` r-o-ps (shape ``(rounds, 2)``: column 0 is ``p0`` in seat 0,
    column 1 is ``p1``), and the number of bet decisions."""
    if rounds < 1 or memory < 1:
        raise ValueError(f"rounds and memory must be >= 1, got {rounds}, {memory}")
    seed, stream, corr_mode = dp.check_seed(seed), dp.check_seed(stream, "stream"), dp.check_corr_mode(corr_mode)
    nets = np.zeros((rounds, 2), dtype=np.int64)
    pre, post, post_n = _eq(p0, p1)
    n = play_rounds(
        rounds,
        seed,
        stream,
        kc,
        corr_mode,
        memory,
        p0.ip,
        p0.syms,
        p0.rules,
        p0.fp,
        p1.ip,
        p1.syms,
        p1.rules,
        p1.fp,
        pre,
        post,
        post_n,
        nets,
    )
    return nets, n


@dataclass
class Proficiency:
    """Duplicate proficiency tests (§5.2): per test the percentage difference in winnings and the net
    duplicate difference, and their summaries."""

    program: str
    opponent: str
    nets1: np.ndarray  # program's nets, series I
    nets2: np.ndarray  # opponent's nets on the same deals, series II

    @property
    def gross_pct(self) -> np.ndarray:
        """100·(G_prog − G_opp)/max(G_prog, G_opp) with G = sum of the r-o-ps won (notes, ambiguity 12)."""
        g1 = np.clip(self.nets1, 0, None).sum(1).astype(float)
        g2 = np.clip(self.nets2, 0, None).sum(1).astype(float)
        den = np.maximum(np.maximum(g1, g2), 1.0)
        return 100.0 * (g1 - g2) / den

    @property
    def net_pct(self) -> np.ndarray:
        """100·(N_prog − N_opp)/max(|N_prog|, |N_opp|) with N = net winnings of the series."""
        n1 = self.nets1.sum(1).astype(float)
        n2 = self.nets2.sum(1).astype(float)
        den = np.maximum(np.maximum(np.abs(n1), np.abs(n2)), 1.0)
        return 100.0 * (n1 - n2) / den

    @property
    def chips_per_rop(self) -> np.ndarray:
        """Duplicate difference (program's series-I winnings − opponent's series-II winnings) per r-o-p."""
        return (self.nets1.sum(1) - self.nets2.sum(1)) / self.nets1.shape[1]

    def summary(self, what: str = "gross_pct") -> tuple[float, float, float]:
        """(mean, 95 % half-width of the mean, s.d. of one test)."""
        x = getattr(self, what)
        sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
        return float(x.mean()), 1.96 * sd / np.sqrt(max(len(x), 1)), sd


def proficiency(
    program: Player,
    opponent: Player,
    reps: int,
    seed: int = 0,
    stream0: int = 0,
    games: int = 5,
    rounds: int = 5,
    swap_seats: bool = False,
    corr_mode: int = 0,
    kc: np.ndarray = K_VALUES,
) -> Proficiency:
    """``reps`` duplicate proficiency tests of ``program`` against ``opponent`` (§5.2, Fig. 5-4)."""
    if reps < 1 or games < 1 or rounds < 1:
        raise ValueError("reps, games and rounds must be >= 1")
    seed, stream0, corr_mode = dp.check_seed(seed), dp.check_seed(stream0, "stream0"), dp.check_corr_mode(corr_mode)
    nd = games * rounds
    n1, n2 = np.zeros((reps, nd), dtype=np.int64), np.zeros((reps, nd), dtype=np.int64)
    pre, post, post_n = _eq(program, opponent)
    duplicate_tests(
        reps,
        seed,
        stream0,
        games,
        rounds,
        swap_seats,
        kc,
        corr_mode,
        program.ip,
        program.syms,
        program.rules,
        program.fp,
        opponent.ip,
        opponent.syms,
        opponent.rules,
        opponent.fp,
        pre,
        post,
        post_n,
        n1,
        n2,
    )
    return Proficiency(program.name, opponent.name, n1, n2)


# ----------------------------------------------------------------------------- the program trainer


def _set_reason(sym, var: str) -> tuple:
    """A set-valued symbol of the trainer as a reason: (reason, message words)."""
    lo, hi = sym.lo, sym.hi
    if var == "R" and (lo, hi) == (0, 3):
        return ("set", lo, hi, "R ≠ -1"), "(NOT EQUAL TO -1.)"
    if var == "B" and (lo, hi) == (1, 4):
        return ("set", lo, hi, "0 < B < 5"), "(LESS THAN 5. AND NOT EQUAL TO 0.)"
    if lo == hi:
        return ("set", lo, hi, f"{var} = {lo}"), f"(EQUAL TO {lo}.)"
    vals = list(range(lo, hi + 1))
    return (
        ("set", lo, hi, " ∨ ".join(f"{var} = {x}" for x in vals)),
        "(EQUAL TO " + " OR ".join(f"{x}." for x in vals) + ")",
    )


@dataclass
class Advice:
    """Training information: the decision class, the reasons per variable index, and the message."""

    cls: int
    reasons: dict
    message: str


def trainer_advice(trainer: RuleSet, rule: int, cls: int | None = None) -> Advice:
    """The program trainer's training information (App. G), derived from its rule that fired: the
    relevant variables are that rule's non-``*`` positions; H is given as the trainee's category
    (SW/EC → H1 "EXCELLENT", GC → H2 "GOOD", PC → H3 "FAIR", NC → H4 "POOR"); a ``>`` symbol
    means "large", ``<`` "small", and a set (ORP, B9) is given as its predicate.  ``cls``
    overrides the decision (the inconsistent trainer of the manual-training proxy)."""
    R = trainer.rules[rule]
    cls = R.decision if cls is None else cls
    reasons, words = {}, []
    for p, sid in enumerate(R.left):
        if sid is None:
            continue
        s = trainer.symbols[sid]
        V = trainer.variables[p]
        if p == 0:
            cat = BUILTIN_TO_TRAINEE[s.name]
            reasons[p] = ("category", cat)
            words.append(f"THE HAND IS {H_WORDS[cat]}")
        elif s.kind == GT:
            reasons[p] = "large"
            words.append(f"THE {V.word} IS LARGE")
        elif s.kind == LT:
            reasons[p] = "small"
            words.append(f"THE {V.word} IS SMALL")
        else:
            reasons[p], w = _set_reason(s, V.name)
            words.append(f"THE {V.word} IS {w}")
    return Advice(int(cls), reasons, f"({CLASS_NAMES[cls]} BECAUSE {' '.join(words)})")


def acceptable(kind: int, amount: int, cls: int, lap: int) -> bool:
    """Does the move (kind, amount) carry out decision class ``cls``?  The trainer judges moves, as in
    App. G ("I BET 4. OK?" is accepted when its own rule says BET SB)."""
    if cls == C_DROP:
        return kind == DROP
    if cls == C_CALL:
        return kind == CALL
    if kind != BET:
        return False
    if cls == C_LAP:
        return amount == lap
    return bool(CLASS_LO[cls] <= amount <= CLASS_HI[cls])


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
        pre, post, post_n = _eq(p)
        return act(
            p.ip,
            p.syms,
            p.rules,
            p.fp,
            self.st,
            seat,
            self.book,
            self.kc,
            self.rng,
            pre,
            post,
            post_n,
            self.vals,
            self.aux,
            self.fv,
            mask,
        )

    def apply(self, kind: int, amount: int) -> None:
        err = apply_action(self.st, kind, amount)
        if err:
            raise ValueError(dp.ERRORS[err])
        if self.st[PHASE] == DONE:
            update_books(self.st, self.book, self.corr_mode, self.kc)

    @property
    def done(self) -> bool:
        return bool(self.st[PHASE] == DONE)


@dataclass
class TrainingRun:
    """The outcome of one training run (§5.3 / §5.4)."""

    program: RuleSet
    trials: int
    created: int
    redundant: int
    rules: int
    games: int
    rops: int
    converged: bool
    reports: list = field(default_factory=list)
    removed: list = field(default_factory=list)
    coverage: float = float("nan")


def train_explicit(
    seed: int,
    opponent: Player | None = None,
    params: LearnParams | None = None,
    noise: float = 0.0,
    max_games: int = 200,
    rounds: int = 5,
    corr_mode: int = 0,
    trainer: RuleSet | None = None,
    keep_reports: bool = False,
    clean_games: int = 1,
    memory: int = 25,
) -> TrainingRun:
    """Explicit training by the program trainer (§5.3): the trainee (random rule only) plays
    ``rounds``-r-o-p games against ``opponent``; after each of its bet decisions the trainer judges
    the move; an unacceptable one (a move from the random rule always is) is a training trial with
    the trainer's advice (:func:`trainer_advice`), after which the trainee decides again and plays.
    Training stops after the first game without a trial (``clean_games`` in a row; or ``max_games``);
    the long-term books are reset every ``memory`` r-o-ps (a session).  With ``noise`` > 0 the
    trainer, at each judgement, instead advocates a different legal class drawn uniformly with
    probability ``noise`` (same reasons): the inconsistent "manual" trainer.  Redundant rules and
    unreferenced bf rules are removed after training."""
    if not 0 <= noise < 1:
        raise ValueError(f"noise must be in [0, 1), got {noise!r}")
    seed, corr_mode = dp.check_seed(seed), dp.check_corr_mode(corr_mode)
    opponent = opponent or experienced()
    trainer = trainer or built_in()
    tp = program_player(trainer, "trainer")
    prog = random_program("explicit", params or LearnParams(K=4, KK=0, N=2))
    table = Table(seed, 0, corr_mode, memory=memory)
    noise_rng = np.random.default_rng([seed, 77])
    trials = created = 0
    reports = []
    games = streak = 0
    converged = False
    while games < max_games:
        games += 1
        clean = True
        for _ in range(rounds):
            table.new_round()
            while not table.done:
                seat = int(table.st[TO_MOVE])
                if table.st[PHASE] == REPLACE:
                    table.replace_all()
                    continue
                if seat == 1:
                    k, a, *_ = table.move(opponent, 1)
                    table.apply(k, a)
                    continue
                pl = program_player(prog)
                kind, amt, cls, r, rnd = table.move(pl, 0)
                vals, aux, lap = table.beta(0, 0)
                _, _, tcls, trule, _ = table.move(tp, 0)
                if noise > 0 and noise_rng.random() < noise:
                    legal = [c for c in EXPLICIT if c != tcls and (c != C_CALL or table.st[LASTBET] > 0)]
                    tcls = int(noise_rng.choice(legal))
                if rnd or not acceptable(kind, amt, tcls, lap):
                    clean = False
                    trials += 1
                    adv = trainer_advice(trainer, trule, tcls)
                    rep = prog.train(vals, adv.cls, adv.reasons, aux)
                    created += rep.inserted
                    if keep_reports:
                        reports.append((adv.message, rep))
                    kind, amt, *_ = table.move(program_player(prog), 0)
                table.apply(kind, amt)
        streak = streak + 1 if clean else 0
        if streak >= clean_games:
            converged = True
            break
    removed = prog.remove_redundancies()
    return TrainingRun(
        prog, trials, created, len(removed), prog.n_rules(), games, table.rop, converged, reports, removed
    )


# ----------------------------------------------------------------------------- implicit training


#: Fig. 5-12, the decision matrix: per class, the reason of each overlapping variable (P, B, BFO, PB,
#: OCS) when the program's hand is good / not good; H is its current category, R its current value.
DECISION_MATRIX = {
    C_DROP: {"P": "large", "B": "large", "BFO": "small", "PB": "small", "OCS": "large"},
    C_CALL: {"P": "large", "B": "large", "BFO": "small", "PB": "large", "OCS": "large"},
    C_LOW: {"P": "small", "B": "small", "BFO": ("large", "small"), "PB": "large", "OCS": "large"},
    C_HIGH: {
        "P": "small",
        "B": ("large", "small"),
        "BFO": ("small", "large"),
        "PB": ("small", "large"),
        "OCS": ("small", "large"),
    },
}
ACTION_CLASS = {"drop": C_DROP, "call": C_CALL, "bet low": C_LOW, "bet high": C_HIGH}
GOOD_HAND = 10  # goodhand(x) ⇔ VDHAND ≥ 10 (a pair of 4s or better; notes, ambiguity 10)
POT_LARGE = 30  # pot(large) ⇔ POT ≥ K6
HIGH_BET = 10  # a high bet is 10–20 (App. I)


def matrix_reasons(program: RuleSet, vals: np.ndarray, cls: int) -> dict:
    """All seven variables with the decision matrix's reasons for ``cls`` (§5.4, Fig. 5-12)."""
    good = vals[0] >= GOOD_HAND
    row = DECISION_MATRIX[cls]
    cats = program.categories[0]
    cat = next(program.symbols[c].name for c in cats if program.symbols[c].lo <= vals[0] <= program.symbols[c].hi)
    out: dict = {0: ("category", cat), 5: ("set", int(vals[5]), int(vals[5]), f"R = {int(vals[5])}")}
    for name, idx in (("P", 1), ("B", 2), ("BFO", 3), ("PB", 4), ("OCS", 6)):
        r = row[name]
        out[idx] = r if isinstance(r, str) else r[0 if good else 1]
    return out


@dataclass
class Context:
    """What the deduction needs about one of the program's bet decisions."""

    vals: np.ndarray
    aux: np.ndarray
    cls: int  # the decision the rules asked for (DROP even when a CALL was played instead)
    random: bool
    post: bool
    opp_raises_before: int
    opp_max_before: int
    own_max_before: int
    opp_responded_raise: bool = False


def prime(ctx: Context, own_rank: int, opp_rank: int, opp_value: int, notprev: str = "opp") -> set[str]:
    """The predicates of App. I set from one decision and the shown hands (notes, ambiguity 10):
    good/bad hands at VDHAND 10, pot(large) at POT ≥ 30, lastbetopp(bet high) at LASTBET ≥ 10,
    didbet(opp) if a bet was pending or the opponent raised in response, onlycalled(opp) if he has
    not raised in this r-o-p, notprevoppaction(bet high) if he has not bet high in it (``notprev``
    "you": if *you* have not — App. I Part II's wording)."""
    you, pot, lastbet = int(ctx.aux[0]), int(ctx.vals[1]), int(ctx.vals[2])
    f = set()
    if own_rank > opp_rank:
        f.add("higher(yourhand,opphand)")
    if opp_rank > own_rank:
        f.add("higher(opphand,yourhand)")
    if you >= GOOD_HAND:
        f.add("goodhand(you)")
    if opp_value >= GOOD_HAND:
        f |= {"goodhand(opp)", "good(opphand)"}
    else:
        f.add("bad(opphand)")
    if lastbet > 0 or ctx.opp_responded_raise:
        f.add("didbet(opp)")
    if ctx.opp_raises_before == 0:
        f.add("onlycalled(opp)")
    f.add("pot(large)" if pot >= POT_LARGE else "not-pot(large)")
    if lastbet >= HIGH_BET:
        f.add("lastbetopp(bet high)")
    prev = ctx.opp_max_before if notprev == "opp" else ctx.own_max_before
    if prev < HIGH_BET:
        f.add("notprevoppaction(bet high)")
    return f


def deduced_classes(ctx: Context, own_rank: int, opp_rank: int, opp_value: int, notprev: str = "opp") -> list[int]:
    """The decision classes that maximize the score (App. I); nothing deducible → CALL (BET LOW when
    no bet is pending, since a call is not allowed then)."""
    acts, _ = deduce(
        prime(ctx, own_rank, opp_rank, opp_value, notprev), default=("call",) if ctx.vals[2] > 0 else ("bet low",)
    )
    return [ACTION_CLASS[a] for a in acts]


def _play_implicit_round(
    table: Table, prog: RuleSet, opponent: Player, learning: bool, out: list, random_mode: str = "classes"
) -> None:
    """One r-o-p of the implicit learner (seat 0) against ``opponent``; appends a :class:`Context` per
    program decision.  While ``learning``, a DROP is not made: a CALL (or a bet of 1) replaces it."""
    pl = program_player(prog, classes="implicit", random_mode=random_mode)
    st = table.st
    last = None
    while not table.done:
        seat = int(st[TO_MOVE])
        if st[PHASE] == REPLACE:
            table.replace_all()
            continue
        if seat == 1:
            k, a, *_ = table.move(opponent, 1)
            if last is not None and k == BET:
                last.opp_responded_raise = True
            last = None
            table.apply(k, a)
            continue
        ctx_vals, ctx_aux, _ = table.beta(0, 1)
        c = Context(
            ctx_vals, ctx_aux, 0, False, st[PHASE] != BET1, int(st[RCOUNT + 1]), int(st[RMAX + 1]), int(st[RMAX])
        )
        kind, amt, cls, r, rnd = table.move(pl, 0)
        c.cls, c.random = int(cls), bool(rnd)
        if learning and kind == DROP:
            kind, amt = (CALL, 0) if st[LASTBET] > 0 else (BET, 1)
        out.append(c)
        last = c
        table.apply(kind, amt)


def train_implicit(
    seed: int,
    opponent: Player | None = None,
    params: LearnParams | None = None,
    coverage: float = 0.95,
    window: int = 40,
    max_rops: int = 3000,
    notprev: str = "opp",
    corr_mode: int = 0,
    keep_reports: bool = False,
    memory: int = 25,
) -> TrainingRun:
    """Implicit training (§5.4, App. I–J): the program (random rule, hand partition on raw H, no other
    bf rules) plays the opponent; after an r-o-p that ends in a call, each decision it made after
    the draw is judged by deduction from the axioms with the opponent's shown hand; when the rules'
    decision is not among the deduced ones, or came from the random rule, a learning trial is run
    with one of them (drawn at random), every variable relevant and the decision matrix's reasons
    (revised procedure, hypothesis formation).  DROP decisions are replaced by CALL during learning.
    Learning stops when, over the last ``window`` post-draw decisions (the ones learning looks at),
    the learned rules (not the random rule) decided at least ``coverage`` of the time (the seed: 95 %)."""
    if not 0 < coverage <= 1 or window < 1:
        raise ValueError("coverage must be in (0, 1] and window >= 1")
    if notprev not in ("opp", "you"):
        raise ValueError(f"notprev must be 'opp' or 'you', got {notprev!r}")
    seed, corr_mode = dp.check_seed(seed), dp.check_corr_mode(corr_mode)
    opponent = opponent or experienced()
    prog = random_program("implicit", params or LearnParams(K=4, KK=0, N=2))
    table = Table(seed, 0, corr_mode, memory=memory)
    pick = np.random.default_rng([seed, 91])
    trials = created = 0
    reports = []
    recent: list[bool] = []
    converged = False
    rops = 0
    while rops < max_rops:
        rops += 1
        table.new_round()
        games = (rops + 4) // 5  # games of 5 r-o-ps begun (the last one may be cut short by convergence)
        ctxs: list[Context] = []
        _play_implicit_round(table, prog, opponent, True, ctxs)
        recent += [not c.random for c in ctxs if c.post]  # coverage of the decisions learning looks at
        recent = recent[-window:]
        if table.st[dp.END] == 0:  # ended by a call: the opponent's hand is shown
            opp = table.st[HAND + 8 : HAND + 13]
            own = table.st[HAND : HAND + 5]
            orank, rank_opp, vopp = int(hand_rank(own)), int(hand_rank(opp)), int(vdhand(opp))
            for c in ctxs:
                if not c.post:
                    continue
                ok = deduced_classes(c, orank, rank_opp, vopp, notprev)
                now = prog.decide(c.vals, c.aux)  # step 1 with the rules as they are now
                if now is not RANDOM and now in ok:
                    continue
                cls = int(ok[int(pick.integers(len(ok)))])
                trials += 1
                rep = prog.train(c.vals, cls, matrix_reasons(prog, c.vals, cls), c.aux, hypothesized=True)
                created += rep.inserted
                if keep_reports:
                    reports.append(([CLASS_NAMES[k] for k in ok], CLASS_NAMES[cls], c, rep))
        if len(recent) >= window and np.mean(recent) >= coverage:
            converged = True
            break
    removed = prog.remove_redundancies()
    return TrainingRun(
        prog,
        trials,
        created,
        len(removed),
        prog.n_rules(),
        games,
        rops,
        converged,
        reports,
        removed,
        float(np.mean(recent)) if recent else float("nan"),
    )


# ----------------------------------------------------------------------------- agreement tests


def agreement_explicit(
    prog: RuleSet,
    seed: int,
    n: int = 50,
    opponent: Player | None = None,
    trainer: RuleSet | None = None,
    random_mode: str = "classes",
    corr_mode: int = 0,
) -> float:
    """Table 5-1: the fraction of ``n`` consecutive decisions of ``prog`` (playing ``opponent`` from
    random hands) that its trainer accepts."""
    opponent = opponent or experienced()
    tp = program_player(trainer or built_in(), "trainer")
    pl = program_player(prog, random_mode=random_mode)
    table = Table(seed, 1, corr_mode)
    agree = total = 0
    while total < n:
        table.new_round()
        while not table.done and total < n:
            if table.st[PHASE] == REPLACE:
                table.replace_all()
                continue
            seat = int(table.st[TO_MOVE])
            if seat == 1:
                k, a, *_ = table.move(opponent, 1)
                table.apply(k, a)
                continue
            kind, amt, *_ = table.move(pl, 0)
            _, _, lap = table.beta(0, 0)
            _, _, tcls, _, _ = table.move(tp, 0)
            agree += acceptable(kind, amt, tcls, lap)
            total += 1
            table.apply(kind, amt)
    return agree / n


def agreement_implicit(
    prog: RuleSet,
    seed: int,
    n: int = 50,
    opponent: Player | None = None,
    random_mode: str = "classes",
    notprev: str = "opp",
    corr_mode: int = 0,
) -> float:
    """Table 5-2: the fraction of ``n`` consecutive post-draw decisions of ``prog`` whose class is among
    those deduced from the axioms (the opponent's hand known to the referee)."""
    opponent = opponent or experienced()
    table = Table(seed, 1, corr_mode)
    agree = total = 0
    st = table.st
    while total < n and table.rop < 200 * n:  # a program that always drops before the draw never gets there
        table.new_round()
        ctxs: list[Context] = []
        _play_implicit_round(table, prog, opponent, False, ctxs, random_mode)
        ctxs = [c for c in ctxs if c.post]
        own = st[HAND : HAND + 5]
        opp = st[HAND + 8 : HAND + 13]
        for c in ctxs:
            if total >= n:
                break
            ok = deduced_classes(c, int(hand_rank(own)), int(hand_rank(opp)), int(vdhand(opp)), notprev)
            agree += c.cls in ok
            total += 1
    return agree / total if total else float("nan")


# ----------------------------------------------------------------------------- notation


def lisp(rs: RuleSet) -> str:
    """A rule set in the LISP-like notation of Figs. 5-3, 5-7, 5-10, 5-13."""
    names = {
        C_DROP: "DROP",
        C_CALL: "CALL",
        C_LAP: "LAP",
        C_SB: "SB",
        C_MB: "MB",
        C_BB: "BB",
        C_BBS: "BBS",
        C_BBL: "BBL",
        C_LOW: "SSS",
        C_HIGH: "BBB",
    }
    lines = []
    for r in rs.rules:
        left = " ".join("*" if s is None else rs.symbols[s].name for s in r.left)
        right = "RANDOM" if r.decision is RANDOM else names[r.decision]
        lines.append(f"(({left}) {right})")
    bf = []
    hname = "(DIFFERENCE H OH)" if rs.variables[0].name == "D" else "H"
    for sid in rs.symbol_order():
        s = rs.symbols[sid]
        V = rs.variables[s.var].name if s.var else hname
        if s.kind == GT:
            bf.append(f"({s.name} GREATERP {V} {s.lo - 1})")
        elif s.kind == LT:
            bf.append(f"({s.name} LESSP {V} {s.hi + 1})")
        elif s.kind == CAT:
            lo = None if s.lo <= -INF // 2 else s.lo
            hi = None if s.hi >= INF // 2 else s.hi + 1
            if s.lo2 > -INF or s.hi2 < INF:
                bf.append(f"({s.name} {rs.predicate(sid)})")
            elif lo is None:
                bf.append(f"({s.name} LESSP {V} {hi})")
            elif hi is None:
                bf.append(f"({s.name} NOT (LESSP {V} {lo}))")
            else:
                bf.append(f"({s.name} AND (NOT (LESSP {V} {lo})) (LESSP {V} {hi}))")
        else:
            Vn = rs.variables[s.var].name
            if s.lo == s.hi:
                bf.append(f"({s.name} EQUAL {Vn} {s.lo})")
            elif (s.lo, s.hi) == (0, 3) and Vn == "R":
                bf.append(f"({s.name} NOT (EQUAL R -1))")
            elif s.lo == 1 and s.hi == 4 and Vn == "B":
                bf.append(f"({s.name} AND (LESSP B 5) (NOT (EQUAL B 0)))")
            else:
                bf.append(f"({s.name} OR " + " ".join(f"(EQ {Vn} {x})" for x in range(s.lo, s.hi + 1)) + ")")
    return "(" + "\n ".join(lines) + ")\n(" + "\n ".join(bf) + ")"


# ----------------------------------------------------------------------------- manual training by a person


ADVICE_WORDS = {
    "HAND": 0,
    "POT": 1,
    "LASTBET": 2,
    "BLUFFS": 3,
    "BLUFFO": 3,
    "PBRATIO": 4,
    "POTBET": 4,
    "ORP": 5,
    "OSTYLE": 6,
}
HAND_WORDS = {"EXCELLENT": "H1", "GOOD": "H2", "FAIR": "H3", "POOR": "H4"}


def parse_advice(text: str) -> tuple[int, dict]:
    """Read advice as the trainer typed it in App. D, e.g. ``"BET SB BECAUSE YOUR HAND IS FAIR, AND THE POT IS
    SMALL"`` or ``"CALL BECAUSE ... AND ORP IS (EQUAL TO -1)"``.  Returns (class, reasons by variable index);
    ValueError naming what is wrong (unknown decision, unknown variable, a reason that does not fit)."""
    t = " ".join(text.strip().strip("()").upper().replace(",", " ").split())
    if " BECAUSE " not in f" {t} ":
        raise ValueError("advice reads '<DECISION> BECAUSE <variable> IS <reason>, AND ...'")
    head, _, tail = t.partition(" BECAUSE ")
    cls = class_of(head)
    reasons: dict = {}
    for clause in re.split(r"\bAND\b", tail):
        words = clause.split()
        if not words:
            continue
        if words[0] in ("YOUR", "THE"):
            words = words[1:]
        if len(words) < 3 or words[1] != "IS":
            raise ValueError(f"cannot read the reason {clause.strip()!r}: say '<variable> IS <reason>'")
        var, why = words[0], " ".join(words[2:])
        if var not in ADVICE_WORDS:
            raise ValueError(f"unknown variable {var!r} in the advice; variables are {', '.join(sorted(ADVICE_WORDS))}")
        v = ADVICE_WORDS[var]
        if v in reasons:
            raise ValueError(f"{var} is given two reasons")
        if v == 0:
            if why not in HAND_WORDS:
                raise ValueError(f"the hand is {', '.join(HAND_WORDS)}, not {why!r}")
            reasons[0] = ("category", HAND_WORDS[why])
        elif v == 5:
            m = re.fullmatch(r"\(?(NOT )?EQUAL TO (-?\d+)\.?\)?", why)
            if not m:
                raise ValueError(f"ORP is '(EQUAL TO n)' or '(NOT EQUAL TO -1)', not {why!r}")
            n = int(m.group(2))
            if m.group(1):
                if n != -1:
                    raise ValueError("only '(NOT EQUAL TO -1)' is understood for ORP")
                reasons[5] = ("set", 0, 3, "R ≠ -1")
            else:
                if not -1 <= n <= 3:
                    raise ValueError(f"ORP is -1 (not yet replaced) to 3, not {n}")
                reasons[5] = ("set", n, n, f"R = {n}")
        elif why in ("LARGE", "SMALL"):
            reasons[v] = why.lower()
        else:
            raise ValueError(f"{var} is LARGE or SMALL, not {why!r}")
    if not reasons:
        raise ValueError("give at least one reason")
    return cls, reasons


class ManualSession:
    """Manual training by a person (§5.3, App. D): the reader plays the opponent (seat 1) and, whenever
    the program (seat 0) proposes a move, accepts it or gives the decision and the reasons; the
    program learns at once and plays its corrected move.  Advice that cannot apply (a CALL when no
    bet is pending, a reason that names an unknown variable or does not hold for the current
    values) is refused with the reason and changes nothing."""

    def __init__(self, seed: int = 0, params: LearnParams | None = None) -> None:
        self.prog = random_program("explicit", params or LearnParams(K=4, KK=0, N=2))
        self.table = Table(seed, 2)
        self.trials = 0
        self.log: list[str] = []
        self.proposal: tuple | None = None
        self.table.new_round()
        self._advance()

    # ---- state
    @property
    def st(self) -> np.ndarray:
        return self.table.st

    def hand(self, seat: int) -> str:
        return dp.hand_text(self.st[HAND + 8 * seat : HAND + 8 * seat + 5])

    def waiting_for(self) -> str:
        """'judge' (the program proposed a move), 'move' (the reader bets), 'replace' (the reader discards)."""
        if self.proposal is not None:
            return "judge"
        if self.st[PHASE] == REPLACE:
            return "replace"
        return "move"

    def _advance(self) -> None:
        """Let the program act until the reader has to do something."""
        while True:
            if self.table.done:
                net = int(self.st[dp.NET])
                self.log.append(f"r-o-p {self.table.rop}: program {'+' if net >= 0 else ''}{net}")
                self.table.new_round()
                continue
            seat = int(self.st[TO_MOVE])
            if seat == 1:
                return
            if self.st[PHASE] == REPLACE:
                m = int(draw_mask(self.st[HAND : HAND + 5]))
                apply_replace(self.st, m)
                self.log.append(f"I REPLACE {bin(m).count('1')}. CARDS")
                continue
            kind, amt, cls, rule, rnd = self.table.move(program_player(self.prog), 0)
            self.proposal = (int(kind), int(amt), int(rule), bool(rnd))
            return

    def proposal_text(self) -> str:
        if self.proposal is None:
            return ""
        kind, amt, rule, rnd = self.proposal
        what = {DROP: "I DROP", CALL: "I CALL", BET: f"I BET {amt}."}[kind]
        return f"(CSNUMBER {rule + 1}.) ({self.hand(0)}) {what} OK?"

    # ---- the reader as trainer
    def accept(self) -> None:
        if self.proposal is None:
            raise ValueError("the program has not proposed a move")
        kind, amt, _, _ = self.proposal
        self.proposal = None
        self.table.apply(kind, amt)
        self._advance()

    def advise(self, advice: str | tuple[int, dict]) -> str:
        """Train the program (a training trial) and play its corrected move; returns the trial's summary."""
        if self.proposal is None:
            raise ValueError("the program has not proposed a move")
        if isinstance(advice, str):
            cls, reasons = parse_advice(advice)
        else:
            if not isinstance(advice, tuple) or len(advice) != 2 or not isinstance(advice[1], dict):
                raise ValueError(f"advice is text or a (class, reasons dict) pair, got {advice!r}")
            cls, reasons = advice
        if isinstance(cls, (bool, np.bool_)) or not isinstance(cls, (int, np.integer)) or int(cls) not in EXPLICIT:
            raise ValueError(
                f"the advised class must be one of {[CLASS_NAMES[c] for c in EXPLICIT]} "
                f"(0..{len(EXPLICIT) - 1}), got {cls!r}"
            )
        cls = int(cls)
        if not reasons:
            raise ValueError("advice needs at least one reason")
        if cls == C_CALL and self.st[LASTBET] == 0:
            raise ValueError("a CALL is not allowed: no bet is pending (LASTBET = 0); advise a bet or DROP")
        vals, aux, _ = self.table.beta(0, 0)
        for v, why in reasons.items():
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= v < 7:
                raise ValueError(f"unknown variable index {v!r} (0..6 for {', '.join(VAR_NAMES)})")
            self.prog.check_reason(int(v), why)  # the reason's form, before anything is read from it
            if isinstance(why, tuple) and why[0] == "set" and not why[1] <= vals[v] <= why[2]:
                raise ValueError(f"{why[3]} does not hold now ({VAR_NAMES[v]} = {vals[v]})")
        trial = self.prog.copy()
        rep = trial.train(vals, cls, reasons, aux)  # ValueError (e.g. not a category) leaves the program unchanged
        self.prog = trial
        self.trials += 1
        self.log.append(f"trial {self.trials}: {CLASS_NAMES[cls]} — {'; '.join(rep.steps)}")
        self.proposal = None
        kind, amt, *_ = self.table.move(program_player(self.prog), 0)
        self.table.apply(kind, amt)
        self._advance()
        return rep.steps[-1] if rep.steps else ""

    # ---- the reader as opponent
    def play(self, move: str) -> None:
        """The reader's bet decision: 'drop', 'call' or 'bet n'."""
        if self.waiting_for() != "move":
            raise ValueError(f"not your move: waiting for {self.waiting_for()}")
        parts = move.strip().lower().split()
        if not parts or parts[0] not in ("drop", "call", "bet") or (parts[0] == "bet") != (len(parts) == 2):
            raise ValueError("say 'drop', 'call' or 'bet n'")
        try:
            amt = int(parts[1]) if len(parts) == 2 else 0
        except ValueError:
            raise ValueError(f"a bet is a whole number, not {parts[1]!r}") from None
        kind = {"drop": DROP, "call": CALL, "bet": BET}[parts[0]]
        err = dp.check_action(self.st, kind, amt)
        if err:
            raise ValueError(dp.ERRORS[err])
        self.table.apply(kind, amt)
        self._advance()

    def replace(self, discard: str | Sequence[int] = ()) -> None:
        """The reader's replacement: cards to discard (names like 'H5 D9' or positions 0–4)."""
        if self.waiting_for() != "replace":
            raise ValueError(f"not your replacement: waiting for {self.waiting_for()}")
        hand = self.st[HAND + 8 : HAND + 13]
        if isinstance(discard, str):
            want = set(dp.cards(discard).tolist()) if discard.strip() else set()
            if not want <= set(hand.tolist()):
                raise ValueError(f"you can only discard cards you hold ({dp.hand_text(hand)})")
            mask = sum(1 << i for i, c in enumerate(hand) if int(c) in want)
        else:
            idx = list(discard)
            if any(
                isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) or not 0 <= i <= 4 for i in idx
            ):
                raise ValueError(f"card positions must be ints 0..4, got {idx!r}")
            if len(set(int(i) for i in idx)) != len(idx):
                raise ValueError(f"card positions must be distinct, got {idx!r}")
            mask = 0
            for i in idx:
                mask |= 1 << int(i)
        err = apply_replace(self.st, mask)
        if err:
            raise ValueError(dp.ERRORS[err])
        self._advance()


def manual_training_widget(seed: int = 0):
    """An ipywidgets front end to :class:`ManualSession` (the notebook's "train it yourself" cell)."""
    import ipywidgets as W

    s = ManualSession(seed)
    status, rules, msg = W.HTML(), W.HTML(), W.HTML()
    ok = W.Button(description="OK (accept)", button_style="success")
    dec = W.Dropdown(options=[n for n in CLASS_NAMES[:8]], description="decision")
    why = {
        n: W.Dropdown(options=["(irrelevant)"] + opts, description=n, style={"description_width": "60px"})
        for n, opts in [
            ("HAND", list(HAND_WORDS)),
            ("POT", ["LARGE", "SMALL"]),
            ("LASTBET", ["LARGE", "SMALL"]),
            ("BLUFFS", ["LARGE", "SMALL"]),
            ("PBRATIO", ["LARGE", "SMALL"]),
            (
                "ORP",
                ["(EQUAL TO -1)", "(NOT EQUAL TO -1)", "(EQUAL TO 0)", "(EQUAL TO 1)", "(EQUAL TO 2)", "(EQUAL TO 3)"],
            ),
            ("OSTYLE", ["LARGE", "SMALL"]),
        ]
    }
    train = W.Button(description="Train", button_style="warning")
    text = W.Text(
        placeholder="or type: BET SB BECAUSE YOUR HAND IS FAIR, AND THE POT IS SMALL", layout=W.Layout(width="95%")
    )
    mv = W.Text(placeholder="your move: drop / call / bet n", description="you")
    go = W.Button(description="Play")
    disc = W.Text(placeholder="cards to discard, e.g. H5 D9 (empty: stand pat)", description="discard")
    rep = W.Button(description="Replace")

    def refresh() -> None:
        st = s.st
        status.value = (
            f"<b>pot</b> {int(st[POT])} · <b>last bet</b> {int(st[LASTBET])} · r-o-p {s.table.rop} · "
            f"trials {s.trials}<br><b>your hand</b> {s.hand(1)} · <b>program's hand</b> {s.hand(0)}<br>"
            f"<b>{s.proposal_text() or ('your move' if s.waiting_for() == 'move' else 'discard')}</b>"
            f"<br><small>{'<br>'.join(s.log[-4:])}</small>"
        )
        rules.value = "<pre>" + lisp(s.prog).replace("<", "&lt;") + "</pre>"

    def guarded(fn):
        def run(_b=None):
            try:
                fn()
                msg.value = ""
            except ValueError as e:
                msg.value = f"<span style='color:#b00'>refused: {e}</span>"
            refresh()

        return run

    def advice():
        if text.value.strip():
            s.advise(text.value)
            text.value = ""
            return
        parts = [f"{n} IS {w.value}" for n, w in why.items() if w.value != "(irrelevant)"]
        s.advise(f"{dec.value} BECAUSE " + " AND ".join(parts))

    ok.on_click(guarded(s.accept))
    train.on_click(guarded(advice))
    go.on_click(guarded(lambda: s.play(mv.value)))
    rep.on_click(guarded(lambda: s.replace(disc.value)))
    refresh()
    box = W.VBox(
        [
            status,
            msg,
            W.HBox([ok, dec, train]),
            W.GridBox(list(why.values()), layout=W.Layout(grid_template_columns="repeat(4, 1fr)")),
            text,
            W.HBox([mv, go]),
            W.HBox([disc, rep]),
            rules,
        ]
    )
    box.session = s
    return box
