"""Notebook 04's claims, measured: our value (and the note with its measured context) for every claim of
Waterman (1968) that the notebook checks, one function per section of the notebook.

Each function takes the data the notebook computed (a study, a Table 5-3 rebuild, a worked example)
and returns ``{claim id: {"ours": value, "note": text}}`` in the order the notebook checks them; the
notebook passes each to :func:`tdbook.results.check`, which takes the printed value, tolerance, kind and
source from ``tdbook/claims/waterman1968.toml``.  A ``setting`` claim's value is the number our code
takes (a knob, a default of the protocol); a ``transcription`` claim's value is recomputed from other
printed numbers.  Nothing here writes results.  The small tables the notebook shows beside its figures
are built here too (:class:`tdbook.results.Table`).
"""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from ... import claims
from ...claims import Estimate, Spread
from ...core import profiles
from ...learners.draw_poker_heuristics import (
    CLASS_NAMES,
    EXPLICIT,
    IMPLICIT,
    VAR_NAMES,
    built_in,
    printed_heuristics,
)
from ...learners.production_rules import RANDOM
from ...results import Table
from .examples import SAMPLE_TITLES, SampleReplay, appendix_i, appendix_j
from .matches import Protocol
from .training import ExplicitSpec
from .waterman_poker import Study, Winnings, random_rule_agreement

NOTEBOOK = "04_waterman_poker"
Measured = dict[str, dict[str, Any]]

#: Table 5-3's rows, in the document's order.
ROWS = ("built-in", "before-training", "manual-training", "automatic-training", "implicit-training")
COUNTS = ("trials", "created", "redundant", "rules")


def claim(cid: str) -> claims.Claim:
    """Claim ``cid`` of notebook 04 as the data file states it."""
    return claims.get(NOTEBOOK, cid)


def _m(ours: Any, note: str | None = None) -> dict[str, Any]:
    return {"ours": ours} if note is None else {"ours": ours, "note": note}


def _printed_number(cid: str) -> float | int:
    """A claim's ``printed`` text as a number (``"38"`` → 38, ``"-6.8%"`` → -6.8)."""
    text = claim(cid).printed
    if text is None:
        raise claims.ClaimError(f"claim {cid!r} of notebook {NOTEBOOK} has no printed value")
    t = text.strip().rstrip("%").strip()
    return int(t) if t.lstrip("+-").isdigit() else float(t)


def printed_table_53() -> dict[str, dict[str, Any]]:
    """Table 5-3 (with Tables 5-1 and 5-2) as printed, per row: trials, created, redundant, rules, pct,
    before, after — read from the claims data, for the figures' dashed lines and the summary table."""
    out: dict[str, dict[str, Any]] = {row: {"pct": _printed_number(f"tab5.3-{row}-winnings")} for row in ROWS}
    out["built-in"]["rules"] = claim("fig5.3-size").paper[0]
    for name in ("manual", "automatic", "implicit"):
        out[f"{name}-training"].update({k: claim(f"tab5.3-{name}-{k}").paper for k in COUNTS})
    for name, table in (("automatic", "tab5.1"), ("implicit", "tab5.2")):
        for when in ("before", "after"):
            out[f"{name}-training"][when] = claim(f"{table}-agreement-{when}").paper
    return out


def spread(cid: str, values: Any, note: str = "", scale: float = 1.0) -> dict[str, Any]:
    """A printed single run judged by our runs: reproduced iff the printed number lies in the central 95 %
    of our per-run outcomes (``values`` × ``scale``, NaN dropped); the note gives its percentile rank."""
    x = np.asarray(values, dtype=float) * scale
    x = x[~np.isnan(x)]
    paper = claim(cid).paper
    return _m(
        Spread.of(x),
        f"{note} Waterman's {paper:g} is at the {Spread.rank(x, paper):.1f}th percentile of our {len(x)} runs "
        f"(mean {x.mean():.3g}); reproduced iff inside their central 95 %".strip(),
    )


def created(cid: str, values: Any, note: str = "") -> dict[str, Any]:
    """Table 5-3's "created" count is the printed redundancies plus the printed rules kept (one sentence):
    recomputed from them (a transcription); our runs' created counts go into the note."""
    name = cid.removeprefix("tab5.3-").removesuffix("-created")
    red, kept = claim(f"tab5.3-{name}-redundant").paper, claim(f"tab5.3-{name}-rules").paper
    x = np.asarray(values, dtype=float)
    s = Spread.of(x)
    return _m(
        red + kept,
        f"{note} printed {red} redundant + {kept} kept; our runs created {s.median:g} rules (median; central 95 % "
        f"{s.lo:g}–{s.hi:g}, {len(x)} runs)".strip(),
    )


def rule_profile(rs: Any) -> np.ndarray:
    """A rule set's content as one vector: for each subvector variable the share of its action rules (the random rule
    left out) in which the variable is relevant, then for each decision class of its class set the share of rules
    that take it."""
    rules = [r for r in rs.rules if r.decision is not RANDOM]
    classes = IMPLICIT if getattr(rs, "classes", "explicit") == "implicit" else EXPLICIT
    n = max(1, len(rules))
    rel = [sum(r.left[v] is not None for r in rules) / n for v in range(len(VAR_NAMES))]
    dec = [sum(r.decision == c for r in rules) / n for c in classes]
    return np.array(rel + dec, dtype=float)


def content(figure: str, programs: list, cid: str, who: str) -> dict[str, Any]:
    """Fig. 5-7, 5-10 or 5-13 compared with our learned rule sets by content (:func:`rule_profile`): the printed set
    is one our procedure could have learned when its distance (L1) from our sets' mean profile is no larger than the
    central 95 % of our own sets' distances from it; the note gives the variables, decisions and hand cuts side by
    side."""
    if len(programs) < 2:
        raise ValueError(f"{cid}: comparing rule sets by content needs at least two of ours, got {len(programs)}")
    printed = printed_heuristics(figure)
    ours = np.array([rule_profile(p) for p in programs])
    mean = ours.mean(axis=0)
    d_ours = np.abs(ours - mean).sum(axis=1)
    d_printed = float(np.abs(rule_profile(printed) - mean).sum())
    limit = float(np.quantile(d_ours, 0.95))
    nv = len(VAR_NAMES)
    classes = IMPLICIT if printed.classes == "implicit" else EXPLICIT  # type: ignore[attr-defined]
    pp = rule_profile(printed)
    var = ", ".join(f"{v} {pp[i]:.2f}/{mean[i]:.2f}" for i, v in enumerate(VAR_NAMES))
    dec = ", ".join(f"{CLASS_NAMES[c]} {pp[nv + k]:.2f}/{mean[nv + k]:.2f}" for k, c in enumerate(classes))
    cut_txt = ""
    if printed.classes == "explicit":  # type: ignore[attr-defined]
        cuts = [p.cuts.get(0, []) for p in programs]
        same = all(len(c) == len(printed.cuts[0]) for c in cuts)
        med = [float(np.median(c)) for c in np.array(cuts, dtype=float).T] if same else "of varying number"
        cut_txt = f"; hand cuts on D printed {list(printed.cuts[0])}, ours (median) {med}"
    return _m(
        bool(d_printed <= limit),
        f"{who}: share of action rules using each variable, printed/ours (mean of {len(programs)} sets): {var}; "
        f"decisions: {dec}{cut_txt}; distance of the printed set from our mean profile {d_printed:.2f}, our sets' "
        f"{np.median(d_ours):.2f} (median), 95 % of them within {limit:.2f} (the printed set at the "
        f"{Spread.rank(d_ours, d_printed):.0f}th percentile); rules printed {printed.n_rules()}, ours "
        f"{np.median([p.n_rules() for p in programs]):g} (median)",
    )


def _est(e: Estimate, unit: str = "") -> str:
    return f"{e.mean:+.3g} ± {e.stderr:.2g}{unit}"


def _weakest(estimates: dict[str, Estimate], z: float = 1.96) -> tuple[str, Estimate]:
    """Of several differences that should all be positive, the one whose lower confidence limit is lowest."""
    name = min(estimates, key=lambda k: estimates[k].mean - z * estimates[k].stderr)
    return name, estimates[name]


# ============================================================================= ch. 2–4 and App. A, G, I, J


def production_rules(ex: dict[str, Any]) -> Measured:
    """§2.2, Fig. 2-2: the parse of β = (4, 5, 6), the rule that fires, the new β."""
    return {
        "ch2-parse-456": _m(ex["parse"]),
        "ch2-fired-rule": _m(ex["rule"]),
        "ch2-new-beta": _m(str(tuple(ex["beta"]))),
    }


def learning_examples(e31: dict[str, Any], sf: dict[str, Any], tr: dict[str, Any]) -> Measured:
    """§3.1's example trial, §3.2's example of rule modification and its three training trials."""
    out = {"ch3.1-parse": _m(e31["parse"]), "ch3.1-listing": _m("; ".join(e31["listing"]))}
    out["ch3.2-example-same-form"] = _m(str(sf["same_form"][:3]), f"rules 1–4: {sf['same_form']}")
    out["ch3.2-example-parse"] = _m(str(sf["parse"]))
    for key in ("fires", "catch_change", "pass_change"):
        out[f"ch3.2-example-{key.replace('_', '-')}"] = _m(sf[key])
    out["ch3.2-K"] = _m(tr["K"], f"K = {tr['K']}, KK = {tr['KK']} in the three training trials")
    for k in range(3):
        out[f"ch3.2-trial{k + 1}-parse"] = _m(tr["parses"][k])
        out[f"ch3.2-trial{k + 1}-listing"] = _m("; ".join(tr["listings"][k]))
    return out


def definition_examples(de: dict[str, Any], hy: dict[str, Any], rd: dict[str, Any]) -> Measured:
    """§3.2's exclusive and overlapping definitions, §3.3's hypothesis formation and redundancy."""
    out = {
        "ch3.2-exclusive-definitions": _m(
            "; ".join(de["exclusive"]),
            "14 is A2, 7 A1, 30 A3, 11 A2 from A1 ≤ 20, A2 21–40, A3 > 40; "
            f"cuts after each trial {de['exclusive_cuts']}",
        ),
        "ch3.2-overlapping-definitions": _m(
            "; ".join(de["overlapping"]), f"8 small, 30 large, 51 large, 28 large with KK = {de['KK']}"
        ),
        "ch3.3-K-N": _m([hy["K"], hy["N"]]),
    }
    for k in range(2):
        out[f"ch3.3-hypothesis{k + 1}-parse"] = _m(hy["parses"][k])
        out[f"ch3.3-hypothesis{k + 1}-listing"] = _m("; ".join(hy["listings"][k]))
    out["ch3.3-redundancy"] = _m("; ".join(rd["after"]))
    return out


def sr_models(sr: dict[str, Any]) -> Measured:
    """Ch. 4 and App. A: the tree of Fig. A-1, Fig. 4-2 derived from it, and the four S-R models."""
    out = {
        "appA-root-ae": _m(str(sr["root_ae"]), f"first test h1, ae = 1 − 0 − 1/7; tree {sr['fig_a1']}"),
        "appA-fig-a1-negative-branch": _m(sr["fig_a1_negative"]),
        "fig4.2-from-fig4.3-tree": _m(str(sr["fig42_derived"])),
        "ch4-simple-connections": _m("; ".join(sr["simple_listing"])),
    }
    paper = claim("ch4-sg-distances").paper
    ours = [d for row in sr["sg_distances"] for d in row]
    rows = [k for k, row in enumerate(sr["sg_distances"], 2) for _ in row]
    off = [(t, p, o) for t, p, o in zip(rows, paper, ours) if abs(p - o) > 0.05]
    out["ch4-sg-distances"] = _m(
        ours,
        "trials 2–7, row by row; cells off by more than half a printed unit: "
        + (", ".join(f"trial {t}: {p:g} printed, {o:.2f} ours" for t, p, o in off) or "none"),
    )
    out["ch4-sg-predictions"] = _m(str(sr["sg_predictions"]))
    out["ch4-induction-predictions"] = _m(
        str(sr["induction_predictions"][:5]),
        f"trials 2–6 (trial 7's column is lost; ours: {sr['induction_predictions'][5]})",
    )
    for t in (4, 5):
        out[f"ch4-induction-tree-trial{t}"] = _m(sr["induction_trees"][t])
    out["ch4-complex-connections"] = _m("; ".join(sr["complex_listing"]))
    out["ch4-complex-18-24-3"] = _m(
        sr["complex_18_h1"],
        f"'18 is small, 24 is large, 3 is small': h1 redefined; now decides {sr['complex_18_decision']} "
        "(random picks replayed from the document)",
    )
    return out


def poker_program(bi: Any, msgs: dict[int, str], aj: list[dict[str, Any]]) -> Measured:
    """§5.2 Fig. 5-3 (the built-in program's size), App. G (the trainer's messages), App. J (the replayed
    r-o-ps of implicit training) and App. I (the worked deduction)."""
    out = {"fig5.3-size": _m([bi.n_rules(), sum(s is not None for s in bi.symbols)])}
    for k, m in msgs.items():
        out[f"appG-trainer-rule{k}"] = _m(m)
    for k, r in enumerate(aj, 1):
        out[f"appJ-rop{k}-subvectors"] = _m(str(r["vectors"]))
        out[f"appJ-rop{k}-deduced"] = _m(str(r["deduced"]))
    out["appJ-scores"] = _m([r["score"] for r in aj])
    out["appI-worked-deduction"] = _m(str(appendix_i()))
    protocol = Protocol()
    out["§5.2-proficiency-test"] = _m(
        [protocol.games, protocol.rounds], "games × r-o-ps of series I; series II replays the same deals, hands swapped"
    )
    return out


# ============================================================================= ch. 5: play, training, Table 5-3


def head_to_head(h2h: dict[str, Any], cfg: profiles.Config) -> Measured:
    """Who beats whom (beyond): the duplicate difference of every pair of the four players."""
    names = h2h["names"]
    i_b, i_e = names.index("built-in copy"), names.index("experienced (scripted)")
    out = {"beyond-builtin-vs-standin-chips": _m(float(h2h["mean"][i_b, i_e]))}
    for i, row in enumerate(names):
        out[f"beyond-h2h-{row.split()[0]}"] = _m(
            [round(float(x), 3) for x in h2h["mean"][i]],
            f"{row} vs {names}: duplicate chips per r-o-p, {cfg.H2H_REPS} tests of 25 deals (seats swapped) per pair; "
            f"95 % half-widths {[round(float(x), 2) for x in h2h['half'][i]]}",
        )
    out["beyond-h2h-antisymmetry"] = _m(
        h2h["antisymmetry"],
        "largest |M[i,j] + M[j,i]| (0 for a perfectly antisymmetric matrix; largest 95 % half-width "
        f"{h2h['half'].max():.2f})",
    )
    return out


def head_to_head_table(h2h: dict[str, Any]) -> Table:
    names = h2h["names"]
    return Table(
        ["program \\ opponent"] + names,
        [
            [r] + [f"{h2h['mean'][i, j]:+.2f} ± {h2h['half'][i, j]:.2f}" if i != j else "–" for j in range(len(names))]
            for i, r in enumerate(names)
        ],
    )


def automatic_training(auto: Study, cfg: profiles.Config) -> Measured:
    """§5.3: Table 5-1's agreement and Table 5-3's automatic-training row, judged by our runs' spread."""
    out = {
        "§5.3-agreement-50-situations": _m(cfg.AGREE_N, "situations per agreement test (AGREE_N)"),
        "§5.5-stop-one-clean-game": _m(
            [cfg.CLEAN_GAMES, ExplicitSpec().rounds], "games in a row without a trial (CLEAN_GAMES); r-o-ps per game"
        ),
        "tab5.1-agreement-before": spread("tab5.1-agreement-before", auto.before, "50 situations;", 100),
        "tab5.1-agreement-after": spread("tab5.1-agreement-after", auto.after, "50 situations;", 100),
    }
    trainer_rules = built_in(cfg.BUILTIN).n_rules()
    for key in COUNTS:
        note = f"'9 less than the trainer' ({trainer_rules} rules);" if key == "rules" else ""
        f = created if key == "created" else spread
        out[f"tab5.3-automatic-{key}"] = f(f"tab5.3-automatic-{key}", getattr(auto, key), note)
    out["fig5.10-content"] = content("fig5-10", auto.programs, "fig5.10-content", "automatic training")
    out["beyond-automatic-agreement-long"] = _m(
        auto.stat("after_long")[0], f"agreement on {cfg.AGREE_LONG} situations per program"
    )
    return out


def implicit_training(imp: Study, auto: Study, cfg: profiles.Config) -> Measured:
    """§5.4: Table 5-2's agreement, Table 5-3's implicit-training row, the stopping rule (95 % in §5.4, "9 %"
    in §5.5) and how often the learned rules decide in fresh play, and the agreement compared with
    automatic training's."""
    out = {
        "tab5.2-agreement-before": spread("tab5.2-agreement-before", imp.before, "50 post-draw situations;", 100),
        "tab5.2-agreement-after": spread("tab5.2-agreement-after", imp.after, "50 post-draw situations;", 100),
    }
    for key in COUNTS:
        f = created if key == "created" else spread
        out[f"tab5.3-implicit-{key}"] = f(f"tab5.3-implicit-{key}", getattr(imp, key))
    out["fig5.13-content"] = content("fig5-13", imp.programs, "fig5.13-content", "implicit training")
    out["§5.4-implicit-coverage"] = _m(
        round(100 * cfg.COVERAGE, 6),
        f"learning stops when learned rules (not the random rule) decided COVERAGE = {cfg.COVERAGE:.0%} of the last "
        f"WINDOW = {cfg.WINDOW} post-draw decisions",
    )
    fresh = np.asarray(imp.coverage, dtype=float) * 100
    fresh = fresh[~np.isnan(fresh)]
    out["beyond-implicit-coverage-fresh"] = _m(
        Spread.of(fresh),
        f"post-draw decisions caught by a learned rule in a fresh {cfg.AGREE_LONG}-situation test after learning: "
        f"mean {fresh.mean():.1f} %, median {np.median(fresh):.1f} % over {len(fresh)} runs (learning stopped at "
        f"{cfg.COVERAGE:.0%} of its last {cfg.WINDOW} decisions)",
    )
    out["§5.5-implicit-stop-9pct"] = _m(
        claim("§5.4-implicit-coverage").paper, "§5.4's printed stopping point for the same 57 trials"
    )
    before = [claim("tab5.1-agreement-before").paper, claim("tab5.2-agreement-before").paper]
    out["tab5.3-agreement-column"] = _m(
        before,
        "Tables 5-1 and 5-2's agreement before training (automatic, implicit), as printed; their agreement after "
        f"training ({claim('tab5.1-agreement-after').paper} %, {claim('tab5.2-agreement-after').paper} %), which "
        "§5.5's 'last two columns … before and after training' also promises, is not in the column as our copy "
        "prints it",
    )
    d = auto.difference(imp, "after_long", 100)
    out["§5.4-implicit-agreement-below-explicit"] = _m(
        d,
        f"agreement after training on {cfg.AGREE_LONG} situations, automatic minus implicit, percentage points: "
        f"{_est(d)} (s.e.); automatic {auto.stat('after_long')[0]:.1%}, implicit {imp.stat('after_long')[0]:.1%}",
    )
    return out


def manual_training(man: Study, cfg: profiles.Config) -> Measured:
    """§5.3's manual training (Table 5-3's manual-training row) judged by the proxy's runs."""
    proxy = (
        f"the manual-training proxy (the built-in trainer advocating another decision at rate {cfg.NOISE:g}), "
        "not Waterman's human trainer;"
    )
    out = {}
    for key in COUNTS:
        cid = f"tab5.3-manual-{key}"
        if key == "created":
            out[cid] = created(cid, man.created, proxy)
            continue
        x = np.asarray(getattr(man, key), dtype=float)
        x = x[~np.isnan(x)]
        s, p = Spread.of(x), claim(cid).paper
        out[cid] = _m(
            s,
            f"{proxy} its runs spread over {s.lo:g}–{s.hi:g} (central 95 % of {len(x)}; median {s.median:g}); "
            f"Waterman's {p:g} is at the {Spread.rank(x, p):.1f}th percentile: a band no plausible count could miss",
        )
    out["fig5.7-content"] = content("fig5-7", man.programs, "fig5.7-content", proxy.rstrip(";"))
    return out


def noise_table(nz: dict[float, Study]) -> Table:
    return Table(
        ["noise", "trials", "created", "redundant", "kept", "agreement after"],
        [
            [f"{r:g}"] + [f"{s.stat(k)[0]:.1f}" for k in COUNTS] + [f"{s.stat('after_long')[0]:.2f}"]
            for r, s in nz.items()
        ],
    )


def procedures(man: Study, auto: Study, imp: Study) -> Measured:
    """§5.5's comparisons of the three procedures (trials, redundancies, action rules), each a difference
    of means with its standard error.  Where the document compares with "explicit training", the automatic
    procedure is the one judged: our manual-training proxy's counts are set by its rate of inconsistent advice
    (the noise sweep moves its trials from 15 to 134), so a comparison with it would be decided by that rate; its
    difference is in the note."""
    out = {}
    d, dm = imp.difference(auto, "trials"), imp.difference(man, "trials")
    out["§5.5-implicit-more-trials"] = _m(
        d,
        f"implicit minus automatic training trials: {_est(d)} (s.e.); minus the manual-training proxy's: {_est(dm)}; "
        f"means: implicit {imp.stat('trials')[0]:.1f}, automatic {auto.stat('trials')[0]:.1f}, "
        f"manual proxy {man.stat('trials')[0]:.1f}",
    )
    red = {"automatic": man.difference(auto, "redundant"), "implicit": man.difference(imp, "redundant")}
    name, d = _weakest(red)
    out["§5.5-manual-more-redundancies"] = _m(
        d,
        f"manual-training proxy minus {name} training redundancies (the weaker comparison): {_est(d)} (s.e.); means: "
        f"manual proxy {man.stat('redundant')[0]:.2f}, automatic {auto.stat('redundant')[0]:.2f}, implicit "
        f"{imp.stat('redundant')[0]:.2f}",
    )
    d, dm = auto.difference(imp, "rules"), man.difference(imp, "rules")
    out["§5.5-implicit-fewer-rules"] = _m(
        d,
        f"automatic minus implicit action rules kept: {_est(d)} (s.e.); the manual-training proxy's minus implicit: "
        f"{_est(dm)}; means: "
        f"implicit {imp.stat('rules')[0]:.1f}, automatic {auto.stat('rules')[0]:.1f}, manual proxy "
        f"{man.stat('rules')[0]:.1f}",
    )
    return out


def table_53(t53: dict[str, Winnings]) -> Measured:
    """§5.5 Table 5-3's winnings column and what the document reads off it.

    Each printed percentage is *one* 25-deal duplicate test, whose spread over our tests covers most of
    −100…+100, so the printed magnitude cannot be checked.  What the document's words read from each row
    are checked instead, on our mean over many tests: "roughly the same", "slightly", "almost" as within
    13 points of even (the widest gap the document so describes), ahead or behind as it says; the
    orderings it draws (training improves the program; implicit training less than explicit; the
    built-in program above the manual-training one; the trainee almost as good as its trainer), each a
    paired difference of means on the same deals with its standard error; and §5.5's conclusion that
    either procedure gives a program of roughly the opponent's level (the trained program farthest from
    even judged)."""
    out: Measured = {}
    for name, w in t53.items():
        e = w.estimate()
        printed = claim(f"tab5.3-{name}-winnings").printed
        pct = _printed_number(f"tab5.3-{name}-winnings")
        proxy = " (the manual-training proxy)" if name == "manual-training" else ""
        cl = f", clustered by {len(w.tests)} programs" if w.clusters is not None else ""
        out[f"tab5.3-{name}-winnings"] = _m(
            e,
            f"% difference in winnings{proxy}: our mean over {e.n} tests of 25 deals {_est(e, ' %')} (s.e.{cl}); "
            f"Waterman's {printed} is one such test, at the {Spread.rank(w.values(), pct):.0f}th percentile of ours",
        )
        out[f"beyond-{name}-chips-per-rop"] = _m(
            w.stat("chips_per_rop")[0], f"duplicate difference ± {w.stat('chips_per_rop')[1]:.2f}"
        )
        out[f"beyond-{name}-net-pct"] = _m(w.stat("net_pct")[0])
    before = t53["before-training"]
    gains = {n: t53[n].difference(before) for n in ("manual-training", "automatic-training", "implicit-training")}
    name, d = _weakest(gains)
    chips = {n: t53[n].difference(before, "chips_per_rop") for n in gains}
    out["§5.5-training-improves"] = _m(
        d,
        f"% difference in winnings after minus before training, paired on the same deals; the weakest gain ({name}): "
        f"{_est(d)} (s.e.); all: "
        + ", ".join(f"{n} {_est(g)}" for n, g in gains.items())
        + "; in chips per r-o-p: "
        + ", ".join(f"{n} {_est(g)}" for n, g in chips.items()),
    )
    implicit = t53["implicit-training"]
    gaps = {n: t53[n].difference(implicit) for n in ("manual-training", "automatic-training")}
    name, d = _weakest(gaps)
    out["§5.5-implicit-below-explicit"] = _m(
        d,
        f"explicit minus implicit training's % difference in winnings, paired; the weaker ({name}): {_est(d)} (s.e.); "
        "all: " + ", ".join(f"{n} {_est(g)}" for n, g in gaps.items()),
    )
    d = t53["built-in"].difference(t53["manual-training"])
    out["§5.3-builtin-above-manual"] = _m(
        d, f"built-in minus manual-training proxy, % difference in winnings, paired: {_est(d)} (s.e.)"
    )
    d = t53["built-in"].difference(t53["automatic-training"])
    out["§5.3-trainee-almost-as-good-as-trainer"] = _m(
        d,
        f"built-in (the trainer) minus automatic training (its trainee), % difference in winnings, paired: {_est(d)} "
        "(s.e.)",
    )
    trained = {n: t53[n].estimate() for n in ("manual-training", "automatic-training", "implicit-training")}
    name = max(trained, key=lambda n: abs(trained[n].mean))
    out["§5.5-roughly-human-level"] = _m(
        trained[name],
        f"% difference in winnings against the stand-in of the trained program farthest from even ({name}): "
        f"{_est(trained[name], ' %')} (s.e.); all: " + ", ".join(f"{n} {_est(e, ' %')}" for n, e in trained.items()),
    )
    return out


def table_53_summary(t53: dict[str, Winnings], auto: Study, man: Study, imp: Study) -> Table:
    """Table 5-3 rebuilt: the document's value / our mean per row and column."""
    printed = printed_table_53()
    studies = {"manual-training": man, "automatic-training": auto, "implicit-training": imp}
    ours_rules = {"built-in": "28", "before-training": "1"}
    rows = []
    for name, w in t53.items():
        st = studies.get(name)

        def cnt(k: str, st: Study | None = st) -> str:
            return f"{st.stat(k)[0]:.1f}" if st is not None else "–"

        agree = (
            f"{st.stat('before')[0]:.0%} → {st.stat('after')[0]:.0%}"
            if name in ("automatic-training", "implicit-training")
            else "–"
        )
        p = printed[name]
        t = Spread.of(w.values())
        rows.append(
            [
                name + (" (proxy)" if name == "manual-training" else ""),
                f"{p.get('trials', '–')} / {cnt('trials')}",
                f"{p.get('redundant', '–')} / {cnt('redundant')}",
                f"{p.get('rules', '–')} / {ours_rules.get(name, cnt('rules'))}",
                f"{p['pct']:+g} / {w.stat()[0]:+.1f} [{t.lo:+.0f}, {t.hi:+.0f}]",
                f"{p.get('before', '–')}→{p.get('after', '–')} / {agree}",
            ]
        )
    return Table(
        [
            "heuristics",
            "trials (Waterman / ours)",
            "redundancies",
            "action rules",
            "% winnings (Waterman / ours [central 95 %])",
            "agreement",
        ],
        rows,
        caption="Table 5-3: Waterman's value / our mean",
    )


# ============================================================================= the unstated constants, readings, beyond


def sweeps(sw_auto: dict[str, dict[Any, Study]], sw_imp: dict[str, dict[Any, Study]]) -> Measured:
    """The sensitivity studies (beyond): mean trials per value of each unstated constant."""
    out = {}
    for proc, sw in (("automatic", sw_auto), ("implicit", sw_imp)):
        for knob, studies in sw.items():
            out[f"beyond-sweep-{proc}-{knob}"] = _m(
                [round(s.stat("trials")[0], 2) for s in studies.values()],
                f"mean trials for {knob} = {list(studies)}; kept rules "
                f"{[round(s.stat('rules')[0], 1) for s in studies.values()]}; agreement "
                f"{[round(s.stat('after_long')[0], 3) for s in studies.values()]}",
            )
    return out


def sweep_table(sw_auto: dict[str, dict[Any, Study]], sw_imp: dict[str, dict[Any, Study]]) -> Table:
    return Table(
        ["procedure", "knob", "value", "trials", "kept rules", "agreement after"],
        [
            [
                proc,
                knob,
                str(v),
                f"{s.stat('trials')[0]:.1f}",
                f"{s.stat('rules')[0]:.1f}",
                f"{s.stat('after_long')[0]:.2f}",
            ]
            for proc, sw in (("automatic", sw_auto), ("implicit", sw_imp))
            for knob, st_ in sw.items()
            for v, s in st_.items()
        ],
    )


def readings(cfg: profiles.Config, seed: int) -> Measured:
    """Readings that change printed numbers: the random rule as drop/call/bet 1–20 (Table 5-1 'before'),
    and the reading notes' OCORREL update (App. J's subvectors)."""
    bcd = random_rule_agreement(cfg, seed, cfg.READING_RUNS, "bcd").mean()
    before = claim("tab5.1-agreement-before").paper
    out = {
        "beyond-reading-random-bcd-before": _m(
            100 * bcd,
            f"Table 5-1 'before' (Waterman: {before:g}) if the random rule picks drop/call/bet 1–20 (LISP "
            f"(STAR0)(STAR1)(BETO)); mean of {cfg.READING_RUNS} runs",
        )
    }
    aj_notes = appendix_j(1, cfg.NOTPREV)
    printed = [ast.literal_eval(claim(f"appJ-rop{k}-subvectors").paper) for k in range(1, len(aj_notes) + 1)]
    out["beyond-reading-ocorrel-notes-appJ"] = _m(
        sum(v == p for r, pv in zip(aj_notes, printed) for v, p in zip(r["vectors"], pv)),
        f"App. J subvectors (of 5) reproduced with the notes' OCORREL rule: {[r['vectors'] for r in aj_notes]}",
    )
    return out


def vs_equity(t53_eq: dict[str, Winnings]) -> Measured:
    """The same programs against the equity-threshold player (beyond)."""
    return {
        f"beyond-vs-equity-{name}": _m(
            w.stat()[0],
            f"% difference in winnings vs the equity player; chips per r-o-p {w.stat('chips_per_rop')[0]:+.2f}",
        )
        for name, w in t53_eq.items()
    }


def equity_table(t53: dict[str, Winnings], t53_eq: dict[str, Winnings]) -> Table:
    return Table(
        ["heuristics", "vs stand-in (%)", "vs equity player (%)", "vs equity (chips / r-o-p)"],
        [
            [n, f"{t53[n].stat()[0]:+.1f}", f"{t53_eq[n].stat()[0]:+.1f}", f"{t53_eq[n].stat('chips_per_rop')[0]:+.2f}"]
            for n in t53
        ],
    )


# ============================================================================= App. C, E, F, H, K: the sample games


def sample_games(replays: dict[str, SampleReplay]) -> Measured:
    """One claim per appendix: the share of its printed bet decisions and score changes our replay matches (the
    random rule's decisions, App. F's, are not compared), with the counts in the note."""
    out = {}
    for a, r in replays.items():
        c = r.counts()
        lost = sum("lines lost" in n for n in r.notes)
        out[f"app{a}-sample-games"] = _m(
            round(r.share(), 6),
            f"{SAMPLE_TITLES[a]}: bet decisions matched {c['decisions matched']} of {c['decisions']}"
            + (f" ({c['random']} taken by the random rule, not compared)" if c["random"] else "")
            + f", score changes {c['scores matched']} of {c['scores']}; {lost} r-o-ps cut short where our copy lost "
            "lines; the books start empty at each series (which game of the five-game series is printed is not "
            "said); the mismatches are listed below",
        )
    return out


def sample_games_table(replays: dict[str, SampleReplay]) -> Table:
    """Per appendix: the heuristics, decisions and score changes compared and matched."""
    rows = []
    for a, r in replays.items():
        c = r.counts()
        rows.append([f"App. {a}", SAMPLE_TITLES[a], f"{c['decisions matched']} / {c['decisions']}", str(c["random"]),
                     f"{c['scores matched']} / {c['scores']}", f"{r.share():.0%}"])  # fmt: skip
    return Table(
        ["appendix", "program", "decisions matched", "random rule", "score changes matched", "share matched"],
        rows,
        caption="Waterman's sample games replayed with the printed heuristics",
    )


def sample_mismatches(replays: dict[str, SampleReplay]) -> Table:
    """Every decision and score change of the sample games that our replay does not match, and the replay's notes."""
    rows = [[f"App. {a}", *m] for a, r in replays.items() for m in r.mismatches()]
    rows += [[f"App. {a}", n.split(": ", 1)[0], "note", n.split(": ", 1)[1], ""] for a, r in replays.items()
             for n in r.notes]  # fmt: skip
    return Table(["appendix", "where", "what", "printed", "our heuristics"], rows)
