"""Waterman's training procedures for draw poker (Waterman (1968) §5.3–5.5): reproducible seeded runs, the
structure of what they learn, bad input refused, and notebook 04's training studies and claims measured
without the notebook."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook import claims
from tdbook.experiments.draw_poker import claims as dpc
from tdbook.experiments.draw_poker import waterman_poker as poker
from tdbook.experiments.draw_poker.training import (
    AgreementSpec,
    Bookkeeping,
    ExplicitSpec,
    ImplicitSpec,
    agreement_explicit,
    agreement_implicit,
    train_explicit,
    train_implicit,
)
from tdbook.learners.draw_poker_heuristics import built_in, random_program
from tdbook.learners.production_rules import RANDOM
from tdbook.learners.rule_learning import RuleSet
from tdbook.players.draw_poker import equity_player, program_player


def _dump(rs: RuleSet) -> list[str]:
    return rs.listing()


def test_same_seed_gives_identical_learned_rule_lists():
    a, b = train_explicit(11), train_explicit(11)
    assert _dump(a.program) == _dump(b.program) and a.trials == b.trials
    c, d = train_implicit(12), train_implicit(12)
    assert _dump(c.program) == _dump(d.program) and c.trials == d.trials
    noisy = ExplicitSpec(noise=0.2)
    m, n = train_explicit(13, spec=noisy), train_explicit(13, spec=noisy)
    assert _dump(m.program) == _dump(n.program)
    assert _dump(train_explicit(14).program) != _dump(a.program)


def test_trained_programs_keep_the_documents_structure():
    run = train_explicit(3)
    assert run.converged and run.trials >= 1 and run.rules == run.program.n_rules()
    assert run.program.rules[-1].decision is RANDOM
    imp = train_implicit(4)
    assert imp.converged and imp.coverage >= 0.95
    assert all(r.left[0] is not None for r in imp.program.rules if r.decision is not RANDOM)  # every rule keeps H


def test_implicit_training_counts_games_begun():
    run = train_implicit(4)
    assert run.games == -(-run.rops // 5)  # a game is 5 r-o-ps; one cut short by convergence still counts


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: Bookkeeping(corr_mode=2), "corr_mode"),
        (lambda: Bookkeeping(corr_mode=True), "corr_mode"),
        (lambda: Bookkeeping(memory=0), "memory"),
        (lambda: ExplicitSpec(noise=1.0), "noise"),
        (lambda: ImplicitSpec(coverage=0.0), "coverage"),
        (lambda: ImplicitSpec(notprev="me"), "notprev"),
        (lambda: AgreementSpec(corr_mode="appJ"), "corr_mode"),
        (lambda: train_explicit(-1), "seed"),
        (lambda: train_implicit(1.5), "seed"),
    ],
)
def test_bad_training_specs_and_seeds_are_refused(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_the_trainer_agrees_with_itself_and_not_with_the_random_rule():
    own = agreement_explicit(built_in(), seed=5, n=60)
    assert (own.agreement, own.coverage, own.n) == (1.0, 1.0, 60)
    rnd = agreement_explicit(random_program(), seed=5, n=60)
    assert rnd.agreement < 0.5 and rnd.coverage == 0.0


def test_head_to_head_is_antisymmetric_up_to_noise():
    """Every ordered pair plays the same deals as its mirror, hands and seats swapped, so row i vs column j
    is minus row j vs column i within the noise (the players' own random choices, the book order)."""
    cfg = poker.config("quick")
    players = {"eq": equity_player(bluff=0.0), "built-in": program_player(built_in(), "built-in")}
    h = poker.head_to_head(players, cfg, 3, 200, progress=False)
    m, half = h["mean"], h["half"]
    assert m[0, 1] > 0 > m[1, 0] and m[0, 0] == m[1, 1] == 0
    assert abs(m[0, 1] + m[1, 0]) == pytest.approx(h["antisymmetry"]) and h["antisymmetry"] <= half[0, 1] + half[1, 0]
    with pytest.raises(ValueError):
        poker.head_to_head(players, cfg, 3, 0)


def test_studies_feed_every_claim_of_their_sections():
    """A tiny study of each procedure gives a measured value for every claim of its notebook section, each
    an id of the claims data whose verdict can be computed (the notebook's checks, without the notebook)."""
    cfg = poker.config("quick", AGREE_LONG=60, TESTS=8, TEST_PROGRAMS=2)
    auto = poker.explicit_study(cfg, 1, 3, progress=False)
    imp = poker.implicit_study(cfg, 2, 3, progress=False)
    man = poker.explicit_study(cfg, 3, 3, noise=0.15, name="manual", progress=False)
    t53 = poker.table_53(cfg, 4, auto, man, imp, progress=False)
    measured = {
        **dpc.automatic_training(auto, cfg),
        **dpc.implicit_training(imp, auto, cfg),
        **dpc.manual_training(man, cfg),
        **dpc.procedures(man, auto, imp),
        **dpc.table_53(t53),
    }
    for cid, m in measured.items():
        c = claims.get(dpc.NOTEBOOK, cid)
        assert claims.verdict(c, m["ours"]) in claims.VERDICTS, cid
    assert set(t53) == set(dpc.ROWS)
    printed = dpc.printed_table_53()
    assert printed["automatic-training"]["trials"] == 29 and printed["manual-training"]["pct"] == -6.8
    assert np.isfinite([w.stat()[0] for w in t53.values()]).all()


def test_cluster_robust_estimates_and_paired_differences():
    rng = np.random.default_rng(0)
    x = rng.normal(size=400)
    e = poker.cluster_estimate(x)
    assert e.n == 400 and e.stderr == pytest.approx(x.std(ddof=1) / np.sqrt(400))
    # ten clusters sharing a large common effect each: the clustered error is far larger than the iid one
    shifted = x + np.repeat(rng.normal(scale=3.0, size=10), 40)
    labels = np.repeat(np.arange(10), 40)
    assert poker.cluster_estimate(shifted, labels).stderr > 3 * poker.cluster_estimate(shifted).stderr
    with pytest.raises(ValueError, match="two clusters"):
        poker.cluster_estimate(x, np.zeros(400))
    with pytest.raises(ValueError, match="shape"):
        poker.cluster_estimate(x, np.zeros(3))
    cfg = poker.config("quick", TESTS=12)
    one = [program_player(built_in(), "built-in")]
    a = poker.winnings(one, equity_player(), cfg, 5, "a", progress=False)
    b = poker.winnings(one * 3, equity_player(), cfg, 5, "b", progress=False)
    assert b.clusters is not None and a.clusters is None
    d = a.difference(b)  # the same program on the same deals: only the players' own randomness differs
    assert d.n == 12 and abs(d.mean) <= 4 * d.stderr + 1e-9
    c = poker.winnings(one, equity_player(), poker.config("quick", TESTS=8), 5, "c", progress=False)
    with pytest.raises(ValueError, match="same deals"):
        a.difference(c)


def test_implicit_agreement_test_counts_the_learned_rules_decisions():
    run = train_implicit(4)
    test = agreement_implicit(run.program, seed=9, n=80)
    assert test.n == 80 and 0.0 <= test.agreement <= 1.0 and 0.5 < test.coverage <= 1.0
    assert agreement_implicit(random_program("implicit"), seed=9, n=40).coverage == 0.0
