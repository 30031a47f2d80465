"""The heuristics of Waterman's draw-poker programs (Waterman (1968) ch. 5, App. B): the decision
classes, the subvector as learner variables, the built-in heuristics (Fig. 5-3), the
before-training heuristics, and the LISP notation of Figs. 5-3, 5-7, 5-10 and 5-13.

**Decisions.**  Explicit training uses 8 decision classes (DROP, CALL, BET LAP/SB/MB/BB/BBS/BBL),
implicit training 4 (DROP, CALL, BET LOW 1–9, BET HIGH 10–20; App. I).  A class becomes an action
with its amount drawn from its range (SB 1–5, MB 3–9, BB 8–14, BBS 10–15, BBL 14–20, App. B II
16–20; LAP = K30 − K31·BO clamped to 1–20) — see :mod:`tdbook.players.draw_poker`.

Every heuristic set is a :class:`~tdbook.learners.rule_learning.RuleSet` over the subvector
β = (H, P, B, BFO, PB, R, OCS) (:func:`poker_variables`): the built-in program (:func:`built_in`),
the before-training program (:func:`random_program`) and every trainee.
"""

from __future__ import annotations

import numpy as np

from ..games import draw_poker as dp
from ..games.draw_poker import K_VALUES
from .production_rules import CAT, GT, INF, LT, RANDOM, SET, Variable
from .rule_learning import LearnParams, RuleSet

# ----------------------------------------------------------------------------- decision classes

C_DROP, C_CALL, C_LAP, C_SB, C_MB, C_BB, C_BBS, C_BBL, C_LOW, C_HIGH = range(10)
CLASS_NAMES = ("DROP", "CALL", "BET LAP", "BET SB", "BET MB", "BET BB", "BET BBS", "BET BBL", "BET LOW", "BET HIGH")
CLASS_LO = np.array([0, 0, 0, 1, 3, 8, 10, 14, 1, 10], dtype=np.int64)
CLASS_HI = np.array([0, 0, 0, 5, 9, 14, 15, 20, 9, 20], dtype=np.int64)
EXPLICIT = np.array([C_DROP, C_CALL, C_LAP, C_SB, C_MB, C_BB, C_BBS, C_BBL], dtype=np.int64)
IMPLICIT = np.array([C_DROP, C_CALL, C_LOW, C_HIGH], dtype=np.int64)
CLASS_SETS = {"explicit": 0, "implicit": 1}

VAR_NAMES = dp.SUBVECTOR_NAMES


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


# ----------------------------------------------------------------------------- the learned heuristics as printed

#: The learned heuristics as printed (Figs 5-7, 5-10, 5-13), read from the OCR of the LISP listings: the hand
#: categories' cuts on the exclusive variable, the other bf rules in the listing's order (name, variable, predicate),
#: and the action rules in order (left part over β = (H, P, B, BFO, PB, R, OCS), decision).  Readings of garbled
#: tokens, made from the listings alone (before any sample game was replayed): Fig. 5-7 prints two right parts on
#: each line, the first of which is read (as the reading notes do: its DROP and catch-all rules come out right);
#: a lone ``B`` there and ``B8`` in Figs 5-7 and 5-10 are read BB, ``MH`` MB, ``0 * 0`` / ``0 * H`` / ``N * 0`` /
#: ``0 * N`` (the drop rules' right parts) DROP, ``(INCP) 0`` and ``(INCP) H`` CALL; Fig. 5-7's rule 4
#: ``(H4 P1 R7 B02 …)`` is read (H4 P1 B7 B02), its ``(R4 EQUAL H 0)`` and ``(R1 EQUAL H -1)`` as R = 0 and R = −1;
#: Fig. 5-13's ``B034`` in rule 3 is the listing's ``B039``.
PRINTED_HEURISTICS: dict[str, dict] = {
    "fig5-7": {
        "classes": "explicit",
        "cuts": (0, 12, 34),
        "bf": (
            ("P1", "P", "< 3"), ("P2", "P", "> 17"), ("P3", "P", "> 1"), ("P4", "P", "< 13"), ("P6", "P", "< 33"),
            ("P8", "P", "> 41"), ("P9", "P", "> 143"), ("P10", "P", "> 75"), ("P12", "P", "> 15"),
            ("P13", "P", "< 23"), ("P14", "P", "< 7"),
            ("B9", "B", "> 0"), ("B8", "B", "1..3"), ("B1", "B", "> 4"), ("B2", "B", "< 1"), ("B3", "B", "> 3"),
            ("B4", "B", "> 1"), ("B5", "B", "< 2"), ("B7", "B", "< 3"),
            ("B02", "BFO", "> 17"), ("B03", "BFO", "> 0"), ("B04", "BFO", "< -5"),
            ("PB4", "PB", "< 4"),
            ("R4", "R", "= 0"), ("R1", "R", "= -1"),
        ),
        "rules": (
            ("H3 * B3", "BB"), ("H3 P1", "SB"), ("H3 * B2", "SB"), ("H4 P1 B7 B02", "BB"), ("H4 * B2", "SB"),
            ("H4 P1 B8", "BB"), ("H4 * * * PB4", "DROP"), ("H4 P1 B4", "BB"), ("H4 P1 * * * R1", "SB"),
            ("H2 * * B03 * R1", "SB"), ("H2 P1 * B04", "BB"), ("H2 P1 B2", "SB"), ("H2 P8 B4", "BB"),
            ("H2 P2 B1", "BB"), ("H2", "MB"), ("H3 P4 B5", "MB"), ("H4 * * * * R4", "DROP"), ("H1 P4", "SB"),
            ("H1 P13", "MB"), ("H1 P6", "LAP"), ("H1 P9 B4", "BB"), ("H1 P10 B3", "BB"), ("H1", "LAP"),
            ("H3 P12 B9", "BB"), ("H3", "SB"),
        ),
    },
    "fig5-10": {
        "classes": "explicit",
        "cuts": (0, 13, 34),
        "bf": (
            ("P1", "P", "< 11"), ("P2", "P", "< 3"), ("P3", "P", "> 63"), ("P4", "P", "> 43"), ("P5", "P", "> 47"),
            ("P6", "P", "< 5"), ("P7", "P", "< 15"), ("P8", "P", "> 13"),
            ("B4", "B", "1..4"), ("B1", "B", "> 2"), ("B2", "B", "< 1"), ("B3", "B", "> 13"), ("B6", "B", "> 1"),
            ("B7", "B", "> 0"), ("B8", "B", "< 3"), ("B10", "B", "< 4"),
            ("B01", "BFO", "> 21"), ("B03", "BFO", "> 10"), ("B04", "BFO", "> 27"), ("B05", "BFO", "> 46"),
            ("PB1", "PB", "< 2"), ("PB2", "PB", "> 3"), ("PB3", "PB", "> 11"),
            ("R3", "R", "0..1"), ("R2", "R", "0..3"), ("R1", "R", "= -1"),
        ),
        "rules": (
            ("H3 * B3 * PB1 R2", "DROP"), ("H3 P1 B8 B04", "BB"), ("H3 P6 B4 B03 PB2 R2", "BB"),
            ("H3 P6 B10 B05", "BB"), ("H3 * B7", "CALL"), ("H3", "SB"), ("H2 * * B01 * R1", "SB"),
            ("H2 P4 B1 * * R3", "CALL"), ("H2 P5 B1", "CALL"), ("H2 * * B03 * R1", "SB"), ("H2 P8 B6 * * R1", "CALL"),
            ("H2", "MB"), ("H1 P3 B3", "CALL"), ("H1", "LAP"), ("H4 P2 B2", "SB"), ("H4 P6 B4", "CALL"),
            ("H4 P7 B2 * * R2", "SB"), ("H4 * B7 * PB3", "CALL"), ("H4", "DROP"),
        ),
    },
    "fig5-13": {
        "classes": "implicit",
        "cuts": (3, 20, 42),
        "bf": (
            ("P12", "P", "< 27"), ("P14", "P", "> 5"), ("P15", "P", "< 21"), ("P20", "P", "< 61"),
            ("P22", "P", "< 31"), ("P27", "P", "< 33"), ("P32", "P", "< 23"),
            ("B3", "B", "> 4"), ("B4", "B", "> 1"), ("B5", "B", "< 4"), ("B8", "B", "> 7"), ("B12", "B", "> 0"),
            ("B19", "B", "< 14"), ("B22", "B", "< 6"),
            ("B02", "BFO", "< -5"), ("B014", "BFO", "< 6"), ("B039", "BFO", "> -52"),
            ("PB4", "PB", "< 17"), ("PB5", "PB", "> 1"), ("PB7", "PB", "< 41"), ("PB17", "PB", "< 21"),
            ("PB27", "PB", "> 6"),
            ("R1", "R", "= 3"),
            ("CS1", "OCS", "> -1"), ("CS2", "OCS", "> -2"), ("CS5", "OCS", "> -1"), ("CS6", "OCS", "< 1"),
            ("CS7", "OCS", "< 3"), ("CS12", "OCS", "> -6"),
        ),
        "rules": (
            ("H1 * * * PB5 * CS5", "LOW"), ("H3 * B3 * * * CS2", "CALL"), ("H4 P32 B5 B039 PB27 * CS12", "HIGH"),
            ("H4 P14 B12", "DROP"), ("H3 P27 B22 * PB5", "LOW"), ("H2 * B19 * PB5 * CS2", "LOW"),
            ("H4 * B22", "LOW"), ("H3 * B12 B02 PB7 * CS1", "DROP"), ("H2 * B8 * PB5 * CS1", "CALL"),
            ("H1 P22 B4 B02 PB4 * CS6", "HIGH"), ("H1 * B3 * * * CS2", "CALL"), ("H2 P15 * B014 * R1 CS7", "HIGH"),
            ("H3 P12 * * * R1", "HIGH"), ("H2 P20 B4 * PB17", "HIGH"),
        ),
    },
}  # fmt: skip


def printed_heuristics(figure: str) -> RuleSet:
    """The learned heuristics of Fig. 5-7 (manual training), 5-10 (automatic) or 5-13 (implicit) as printed
    (:data:`PRINTED_HEURISTICS`), with the random rule at the bottom; hand categories on D = H − OH for the
    explicit programs, on raw VDHAND for the implicit one."""
    if figure not in PRINTED_HEURISTICS:
        raise ValueError(f"figure must be one of {list(PRINTED_HEURISTICS)}, got {figure!r}")
    f = PRINTED_HEURISTICS[figure]
    classes = f["classes"]
    rs = RuleSet(poker_variables("D" if classes == "explicit" else "raw"), decision_names=dict(enumerate(CLASS_NAMES)))
    rs.add_partition(0, ["H4", "H3", "H2", "H1"], list(f["cuts"]))
    for name, var, text in f["bf"]:
        if ".." in text:
            lo, hi = (int(x) for x in text.split(".."))
            rs.add_symbol(var, SET, lo, hi, name, label=f"{lo} ≤ {var} ≤ {hi}")
        else:
            rs.add_threshold(var, text, name)
    for left, dec in f["rules"]:
        toks = left.split()
        rs.add_rule(toks + ["*"] * (7 - len(toks)), class_of(dec))
    rs.add_random_rule()
    rs.classes = classes  # type: ignore[attr-defined]
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
