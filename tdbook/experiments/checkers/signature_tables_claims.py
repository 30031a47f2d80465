"""The measured value of each of notebook 01's claims (``tdbook/claims/samuel1973.toml``), from the data the
protocols of :mod:`tdbook.experiments.checkers.signature_tables`, ``…_master`` and ``…_play`` return: ``{claim id:
{"ours": value, "note": measured context}}`` for :func:`tdbook.results.check`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...claims import Estimate, Spread
from ...learners.checkers_signature import TERM_NAMES
from . import signature_tables_play as play
from .signature_tables import xor_check
from .signature_tables_master import BALANCED, FINEST, NOTE, RULE_NOTE

POLY = "Samuel's polynomial"


def _ci(r: dict, k: str) -> str:
    lo, hi = r[k + "_ci"]
    return f"{r[k]:.3f} [{lo:.3f}, {hi:.3f}]"


def storage_claims(s: dict, layout_levels: tuple[int, ...]) -> dict[str, dict]:
    """The note's arithmetic as :meth:`Arrangement.samuel` makes it (Samuel (1973 note) ¶1–3)."""
    one = lambda xs: xs[0] if len(xs) == 1 else -1  # noqa: E731 — a count that is not one number fails
    used = sorted(set(layout_levels), reverse=True)
    return {
        "input-terms": {"ours": s["inputs"], "note": f"{len(TERM_NAMES)} simple terms: {', '.join(TERM_NAMES)}"},
        "quantization-levels": {"ours": s["input_levels"], "note": f"levels of the 9 × 3 table inputs; the terms "
                                f"quantized to the master games' distinct values use {used}"},
        "first-level-tables": {"ours": [s["first_tables"], one(s["terms_per_first_table"])]},
        "upper-levels": {"ours": [one(s["first_output_levels"]), s["second_tables"], s["third_tables"]],
                         "note": f"second-level tables of {one(s['second_size'])} entries"},
        "first-level-entries": {"ours": one(s["first_size"])},
        "storage-343": {"ours": [s["third_size"], s["joint_inputs"]],
                        "note": f"third-level table over three second-level outputs requantized to "
                        f"{one(s['second_output_levels'])} levels; the literal reading (343 entries for the whole "
                        f"arrangement) does not hold: 9 × 105 + 3 × 125 + 343 = {s['total_entries']:,}"},
    }  # fmt: skip


def counting_claims(streamed: dict, story: dict) -> dict[str, dict]:
    """Sequential counting on the real stream, and the entries that stay empty."""
    f1 = story["final"][1]
    return {
        "sequential-counting": {"ours": bool(streamed["same"]),
                                "note": f"{streamed['rows']:,} position-moves shuffled and read in "
                                f"{streamed['chunks']} chunks of {streamed['chunk']:,}, one pass per level: identical "
                                "counts and thresholds"},
        "empty-first-level-entries": {"ours": f1["empty"] / f1["entries"],
                                      "note": f"{f1['empty']} of {f1['entries']} first-level entries never counted; "
                                      f"second level {story['final'][2]['empty']}/{story['final'][2]['entries']}, "
                                      f"third {story['final'][3]['empty']}/{story['final'][3]['entries']}"},
    }  # fmt: skip


def xor_claims(seed: int = 0) -> dict[str, dict]:
    r = xor_check(400, seed)
    ok = r["table"] > 0.5 and r["linear"] < 0.1
    return {"interactions-in-one-table": {"ours": bool(ok), "note": f"held-out C on an XOR preference: table "
                                          f"{r['table']:.3f}, best linear model {r['linear']:.3f}"}}  # fmt: skip


def rule_claims(cal: dict, cal_balanced: dict, variants: dict) -> dict[str, dict]:
    """The note's output rule on unseen moves, and our earlier balanced rule beside it."""
    rows = variants["rows"]
    bal, note = rows[BALANCED], rows[RULE_NOTE]
    return {
        "output-rule": {"ours": cal["error"], "note": f"mean |share − (1 + C)/2| over the final table's "
                        f"{cal['n'].size} entries, weighted by {int(cal['n'].sum()):,} held-out moves (the master "
                        f"plays {cal['base_rate']:.1%} of them); with A += k and a pseudo-count: "
                        f"{cal_balanced['error']:.3f}"},
        "agreement-tables-balanced": {"ours": Spread.of(bal["C_reps"]),
                                      "note": f"C {_ci(bal, 'C')}, top-1 {_ci(bal, 'top1')}; it ranks "
                                      f"{bal['decided']:.0%} of the alternatives (a tie with the master's move counts "
                                      f"in neither L nor H), the note's rule {note['decided']:.0%} (C {note['C']:.3f}, "
                                      f"top-1 {note['top1']:.3f})"},
    }  # fmt: skip


def agreement_claims(lc: dict, full: dict[str, dict], seen: float, train_n: int) -> dict[str, dict]:
    """Held-out agreement at the whole training archive (``full``: :func:`…master.compare` against the
    tables, with the controls) and where the curves cross."""
    n = f"{train_n:,} training positions; 95 % bootstrap over held-out games"

    def sp(reps: np.ndarray, point: float, what: str) -> dict:
        return {"ours": Spread.of(reps), "note": f"{what}: {point:+.3f}; {n}"}

    t, poly, logit = full["tables"], full[POLY], full["logistic"]
    best = max((POLY, "logistic"), key=lambda m: full[m]["C"])
    rnd, joint = full["tables (random assignment)"], full["joint table"]
    # compare() gives model − tables; the claims are tables − model
    out = {
        "agreement-tables": {"ours": Spread.of(t["C_reps"]), "note": f"C {_ci(t, 'C')}; {n}"},
        "agreement-polynomial": {"ours": Spread.of(poly["C_reps"]), "note": f"C {_ci(poly, 'C')}; {n}"},
        "agreement-logistic": {"ours": Spread.of(logit["C_reps"]), "note": f"C {_ci(logit, 'C')}; {n}"},
        "top1-tables": {"ours": Spread.of(t["top1_reps"]), "note": f"top-1 {_ci(t, 'top1')}; {n}"},
        "top1-polynomial": {"ours": Spread.of(poly["top1_reps"]), "note": f"top-1 {_ci(poly, 'top1')}; {n}"},
        "top1-logistic": {"ours": Spread.of(logit["top1_reps"]), "note": f"top-1 {_ci(logit, 'top1')}; {n}"},
        "superior-to-linear": sp(-full[best]["C_diff_reps"], -full[best]["C_diff"],
                                 f"tables' C minus the best linear model's ({best})"),
        "tables-minus-polynomial": sp(-poly["C_diff_reps"], -poly["C_diff"], "tables' C minus Samuel's polynomial's"),
        "agreement-random-assignment": {"ours": Spread.of(rnd["C_reps"]),
                                        "note": f"C {_ci(rnd, 'C')} with the terms grouped at random (ours "
                                        f"{t['C']:.3f}); {n}"},
        "agreement-joint-table": {"ours": Spread.of(joint["C_reps"]),
                                  "note": f"C {_ci(joint, 'C')} over the alternatives it ranks at all (unseen "
                                  f"signatures tie at C = 0); {n}"},
        "joint-seen-share": {"ours": seen, "note": "held-out moves whose 27-term signature the joint table met in "
                             f"training ({train_n:,} positions)"},
    }  # fmt: skip
    ot = lc["overtake"]
    text = {m: (f"from {v:,} positions" if v else "never") for m, v in ot.items()}
    out["overtake-size"] = {"ours": ot["logistic"] if ot["logistic"] else "never",
                            "note": f"the tables lead the logistic model (95 % interval of the difference above 0 "
                            f"there and at every larger size): {text['logistic']}; Samuel's polynomial: "
                            f"{text[POLY]}; sizes {lc['sizes'][0]:,}–"
                            f"{lc['sizes'][-1]:,}"}  # fmt: skip
    return out


def quantization_claims(q: dict, gap: dict) -> dict[str, dict]:
    """Undoing the quantization, and the other possible loss (counts estimated from finite data)."""
    rows = q["rows"]
    f = rows[FINEST]
    return {
        "quantization-loss": {"ours": Spread.of(f["C_diff_reps"]),
                              "note": f"C {f['C']:.3f} unquantized → 15 → 15 ({f['entries']:,} entries) against "
                              f"{rows[NOTE]['C']:.3f} for the note's 7·5·3 → 5 → 7 ({rows[NOTE]['entries']:,}): "
                              f"{f['C_diff']:+.3f}, 95 % paired bootstrap [{f['C_diff_ci'][0]:+.3f}, "
                              f"{f['C_diff_ci'][1]:+.3f}]; top-1 {f['top1_diff']:+.3f}"},
        "estimation-gap": {"ours": gap["train"] - gap["held-out"],
                           "note": f"the note's tables' C on their own training positions {gap['train']:.3f}, on the "
                           f"held-out games {gap['held-out']:.3f}"},
    }  # fmt: skip


def teacher_claims(tc: dict) -> dict[str, dict]:
    """Trained on the deep search minus trained on as many master positions, scored on held-out master moves
    (the same bootstrap replicates of the held-out games for both: paired)."""
    out = {}
    for cid, m in (("teacher-tables", "tables"), ("teacher-logistic", "logistic")):
        deep = tc["rows"]["deep search", "masters"][m]
        mast = tc["rows"]["masters", "masters"][m]
        out[cid] = {"ours": Spread.of(deep["C_reps"] - mast["C_reps"]),
                    "note": f"held-out master C of the {m} trained on {tc['positions']:,} deep-search positions "
                    f"{_ci(deep, 'C')} against {_ci(mast, 'C')} trained on as many master positions"}  # fmt: skip
    return out


def strength_claims(rr: dict, source: str) -> dict[str, dict]:
    """The three matches, each pooled over its depths (mean ± s.e. over ballots)."""
    out = {}
    for cid, pair in (
        ("strength-score", ("tables", "Samuel's polynomial")),
        ("strength-vs-logistic", ("tables", "logistic")),
        ("strength-polynomial-vs-logistic", ("Samuel's polynomial", "logistic")),
    ):
        p = play.pooled(rr[pair])
        by = "; ".join(f"depth {d}: {s:.3f} ± {e:.3f}" for d, (s, e) in p["by_depth"].items())
        ours: Any = play.estimate(p) if cid == "strength-score" else Estimate(p["score"], p["stderr"], p["ballots"])
        out[cid] = {"ours": ours, "note": f"{p['wins']} wins, {p['draws']} draws, {p['losses']} losses in {p['games']} "
                    f"games on {p['ballots']} ballots ({by}); {source}"}  # fmt: skip
    return out


def speed_table(sp: dict, arch: dict) -> list[list[str]]:
    """Rows (what, measured) of the speed measurements — shown, not recorded: timings differ from run to run and
    the results file must not."""
    return [
        ["counting the whole training archive into all 13 tables (positions/s, CPU)",
         f"{arch['positions_per_s']:,.0f} ({arch['positions']:,} positions, {arch['rows']:,} moves in "
         f"{arch['seconds']:.2f} s; with quantizing the terms {arch['with_quantization_per_s']:,.0f}/s)"],
        ["count training, stagewise fit of all 13 tables, random rows (rows/s, CPU; wall)",
         f"{sp['count_per_s']:,.0f}; {sp['count_per_s_wall']:,.0f}"],
        ["first-level pass alone (rows/s, CPU; wall)",
         f"{sp['first_level_per_s']:,.0f}; {sp['first_level_per_s_wall']:,.0f}"],
        ["evaluation through all 13 tables (positions/s, CPU; wall)",
         f"{sp['eval_per_s']:,.0f}; {sp['eval_per_s_wall']:,.0f}"],
    ]  # fmt: skip
