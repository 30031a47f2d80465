"""Notebook 01 on master games (tdbook.experiments.checkers.signature_tables_master): the book sets keep the
collection's one split, training draws are nested and exact, the per-game sums give back Samuel's C and the top-1
share, the bootstrap is seeded and paired, the overtaking size is the first of a lasting lead, and the note's output
rule is calibrated on held-out master moves while the balanced rule is not."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.experiments.checkers import signature_tables_master as sm
from tdbook.games.checkers_book import split_games
from tdbook.learners.book_learning import agreement


@pytest.fixture(scope="module")
def books():
    return sm.master(60, 20)


def test_the_book_keeps_the_fixed_split(books):
    train, test = books
    tr, te = split_games()
    assert set(np.unique(train.game)) == set(tr[:60]) and set(np.unique(test.game)) == set(te[:20])
    assert np.all(np.diff(train.starts) >= 2) and np.all(train.pref < train.starts[1:])
    assert train.states()[0].side in (0, 1)


def test_draws_are_nested_whole_games_cut_at_n(books):
    train, _ = books
    a, b = sm.draw(train, 300, 7), sm.draw(train, 900, 7)
    assert a.n == 300 and b.n == 900 and sm.draw(train, 0, 7) is train
    key = lambda bk: {tuple(r) for r in np.c_[bk.game, bk.raw["ply"]]}  # noqa: E731
    assert key(a) <= key(b)  # a larger size adds games
    assert not np.array_equal(sm.draw(train, 300, 8).game, a.game)
    with pytest.raises(ValueError, match="training size"):
        sm.draw(train, -1, 0)


def test_game_sums_give_back_c_and_top1(books):
    train, test = books
    models = sm.fit_models(train, 0)
    sc = models.scorers()["logistic"](test.X)
    parts = sm.game_parts(sc, test)
    whole = sm.stats(parts)
    ref = agreement(sc, test.starts, test.pref)
    assert whole["C"][0] == pytest.approx(ref["C"]) and whole["top1"][0] == pytest.approx(ref["top1"])
    w = sm.boot_weights(len(parts), 50, 1)
    assert np.array_equal(w, sm.boot_weights(len(parts), 50, 1)) and np.all(w.sum(axis=1) == len(parts))
    cmp = sm.compare({"tables": parts, "same": parts}, 50, 1, "tables")
    assert np.all(cmp["same"]["C_diff_reps"] == 0)  # paired: a model against itself differs by nothing
    with pytest.raises(ValueError, match="replicates"):
        sm.boot_weights(10, 5, 0)


def test_overtake_is_the_start_of_a_lasting_lead():
    sizes = [1, 2, 3, 4]
    assert sm.overtake_size({"lo": [-1, 0.1, -0.1, 0.2]}, sizes) == 4
    assert sm.overtake_size({"lo": [-1, 0.1, 0.1, 0.2]}, sizes) == 2
    assert sm.overtake_size({"lo": [0.1, 0.1, 0.1, -0.2]}, sizes) is None


def test_learning_curves_shape_and_bands(books):
    train, test = books
    lc = sm.learning_curves(train, test, [500, 0], 2, 40, 0, progress=False)
    assert lc["sizes"] == [500, train.n] and lc["draws"] == [2, 1]
    for r in lc["methods"].values():
        for k in ("C", "top1"):
            assert all(lo <= hi for lo, hi in zip(r[k]["lo"], r[k]["hi"]))
    assert lc["full_models"] is not None and 0 <= sm.joint_seen(lc["full_models"], test) <= 1


def test_the_note_rule_is_calibrated_on_unseen_moves(books):
    train, test = books
    note = sm.train_tables(train.X, train.starts, train.pref)
    balanced = sm.train_tables(train.X, train.starts, train.pref, rule="a_k", requant="fixed", prior=1.0)
    assert sm.calibration(note, train)["error"] < 1e-12  # in sample: exact
    assert sm.calibration(balanced, test)["error"] > 0.2
    assert sm.streamed_same(train, note, chunk=777)["same"]
