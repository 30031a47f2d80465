"""Notebook 04's worked examples exactly as Waterman (1968) prints them (ch. 2–4, App. A, G, I, J): each example
is rebuilt, run, and its measured claims are judged against the claims data without running the notebook."""

from __future__ import annotations

import ast

import numpy as np

from tdbook import claims
from tdbook.experiments.draw_poker import claims as dpc
from tdbook.experiments.draw_poker import examples as ex
from tdbook.learners.draw_poker_heuristics import built_in

NB = "04_waterman_poker"


def printed(cid: str):
    return claims.get(NB, cid).paper


def verdicts(measured: dict) -> dict[str, str]:
    return {cid: claims.verdict(claims.get(NB, cid), m["ours"]) for cid, m in measured.items()}


#: The verdict of a claim that agrees, by kind: only a ``paper`` claim is "reproduced".
AGREES = {k: vs[0] for k, vs in claims.KIND_VERDICTS.items()}


def all_agree(measured: dict) -> bool:
    """Every measured claim agrees with the document in the sense of its kind."""
    return all(v == AGREES[claims.get(NB, cid).kind] for cid, v in verdicts(measured).items())


def test_fig_2_2_parse_and_drop_through():
    e = ex.parse_example()
    assert e["parse"] == "((A2), (B1, B2), (C))"
    assert e["rule"] == 3 and e["beta"] == (4, 5, 2)
    assert all_agree(dpc.production_rules(e))


def test_section_3_1_and_3_2_examples():
    e31, sf, tr = ex.example_31(), ex.same_form_example(), ex.training_example()
    assert "; ".join(e31["listing"]) == printed("ch3.1-listing")
    assert e31["decision"] == "(a+6, *, *)"
    assert sf["same_form"] == [False, False, True, False] and (sf["catch_change"], sf["pass_change"]) == (2, 3)
    for k in range(3):
        assert "; ".join(tr["listings"][k]) == printed(f"ch3.2-trial{k + 1}-listing")
    assert tr["reports"][0].inserted and not tr["reports"][1].inserted and not tr["reports"][2].inserted
    m = dpc.learning_examples(e31, sf, tr)
    assert all_agree(m)
    # the definition changes restate the printed predicates; the K the trials run with is the document's
    kinds = {cid: claims.get(NB, cid).kind for cid in m}
    assert kinds["ch3.2-example-catch-change"] == kinds["ch3.2-example-pass-change"] == "transcription"
    assert kinds["ch3.2-K"] == "setting" and m["ch3.2-K"]["ours"] == 3
    # with KK >= 2, trial 3 would enlarge B2 instead of creating B3 (the document's two examples need different KK)
    assert "; ".join(ex.training_example(KK=2)["listings"][2]) != printed("ch3.2-trial3-listing")


def test_definitions_hypotheses_and_redundancy():
    de, hy, rd = ex.definition_examples(), ex.hypothesis_example(), ex.redundancy_example()
    assert all_agree(dpc.definition_examples(de, hy, rd))
    assert claims.get(NB, "ch3.2-overlapping-definitions").kind == "fitted"  # KK = 2 chosen to match it
    overlapping = printed("ch3.2-overlapping-definitions")
    assert "; ".join(ex.definition_examples(KK=1)["overlapping"]) != overlapping  # needs KK >= 2
    k12 = ex.hypothesis_example(K=12)["listings"][-1]  # K = 12 would replace C2 instead
    assert "; ".join(k12) != printed("ch3.3-hypothesis2-listing")
    assert [r.split(":")[0] for r in rd["removed"]] == ["subordinate", "superordinate"]


def test_sr_models():
    sr = ex.sr_models()
    assert str(sr["root_ae"]) == "6/7"
    assert sr["fig42_derived"] == [(a, rel) for _, a, rel in ex.FIG42]
    m = dpc.sr_models(sr)
    v = verdicts(m)
    # the Stimulus Generalization table: trial 6's hand arithmetic is off by up to 0.08 in three cells
    assert v.pop("ch4-sg-distances") == "not-as-specified"
    paper, ours = np.array(printed("ch4-sg-distances")), np.array(m["ch4-sg-distances"]["ours"])
    off = np.flatnonzero(np.abs(paper - ours) > 0.05)
    assert list(off) == [10, 12, 14] and np.abs(paper - ours).max() < 0.1  # trial 6: 27.6, 38.4, 13.1
    assert v.pop("ch4-simple-connections") == "transcription"  # the replayed guesses are all wrong
    assert set(v.values()) == {"as-specified"}  # the document's worked illustrations: specification checks
    assert sr["complex_18_decision"] == "A3"


def test_the_poker_program_app_g_i_and_j():
    bi = built_in()
    aj = ex.appendix_j()
    m = dpc.poker_program(bi, ex.trainer_messages(), aj)
    assert all_agree(m)
    kinds = {cid: claims.get(NB, cid).kind for cid in m}
    assert {k for c, k in kinds.items() if c.startswith("appJ-rop")} == {"fitted"}
    assert kinds["appJ-scores"] == "paper" and kinds["appI-worked-deduction"] == "specification"
    assert m["fig5.3-size"]["ours"] == [28, 41] and m["§5.2-proficiency-test"]["ours"] == [5, 5]
    assert ex.appendix_i() == ["bet high"]
    assert [r["score"] for r in aj] == [16, -10, -22, -16]


def test_app_j_is_not_reproduced_by_the_notes_ocorrel_rule():
    notes = ex.appendix_j(corr_mode=1)
    paper = [ast.literal_eval(printed(f"appJ-rop{k}-subvectors")) for k in range(1, 5)]
    assert any(r["vectors"] != p for r, p in zip(notes, paper))


def test_the_sample_games_replay_every_printed_score_and_compare_every_decision():
    """App. C, E, F, H, K (the held-out test of App. J's readings): every r-o-p replayed whole matches its printed
    score change; the decisions compared are the program's (the random rule's, App. F's, are not)."""
    games = ex.sample_games()
    assert sorted(games) == ["C", "E", "F", "H", "K"] and sum(len(g) for g in games.values()) == 50
    for a in games:
        r = ex.replay_sample(a, games)
        c = r.counts()
        assert c["scores"] >= 7 and c["scores matched"] == c["scores"], (a, r.mismatches())
        if a == "F":
            assert c["decisions"] == 0 and c["random"] > 0
        else:
            assert c["decisions"] >= 20 and 0 < c["decisions matched"] <= c["decisions"]
        assert 0 <= r.share() <= 1
    m = dpc.sample_games({a: ex.replay_sample(a, games) for a in games})
    assert {claims.get(NB, cid).kind for cid in m} == {"paper"}
    assert verdicts(m)["appF-sample-games"] == "reproduced"


def test_a_sample_game_that_breaks_the_rules_is_refused_by_name():
    import dataclasses

    import pytest

    g = ex.sample_games()
    bad = [dataclasses.replace(r, actions=(("H", "bet1"),) + r.actions) if (r.series, r.rop) == (1, 1) else r
           for r in g["C"]]  # fmt: skip
    with pytest.raises(ValueError, match="out of turn"):
        ex.replay_sample("C", {"C": bad})
    with pytest.raises(ValueError, match="no sample games"):
        ex.replay_sample("Z", g)


def test_the_printed_learned_heuristics_have_table_5_3s_rule_counts_and_their_content_profile():
    from tdbook.learners.draw_poker_heuristics import printed_heuristics

    counts = {f: printed_heuristics(f).n_rules() for f in ("fig5-7", "fig5-10", "fig5-13")}
    # Table 5-3: 26 (Fig. 5-7's 25 and its random rule), 19, 14
    assert counts == {"fig5-7": printed("tab5.3-manual-rules") - 1, "fig5-10": printed("tab5.3-automatic-rules"),
                      "fig5-13": printed("tab5.3-implicit-rules")}  # fmt: skip
    p = dpc.rule_profile(printed_heuristics("fig5-13"))
    assert p.shape == (7 + 4,) and p[0] == 1.0 and abs(p[7:].sum() - 1.0) < 1e-12  # H in every rule; decisions sum to 1
    same = [printed_heuristics("fig5-10")] * 3
    assert dpc.content("fig5-10", same, "fig5.10-content", "test")["ours"] is True
