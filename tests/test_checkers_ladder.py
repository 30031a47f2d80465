"""The checkers ladder (tdbook.experiments.checkers.ladder): signature tables evaluated by the one search kernel
(a tables player with no weight on the tables is material α-β; at one ply it picks the move the tables rate
best), many positions chosen in one kernel call as choose() would, book agreement clustered by game, a small
round robin played, written, read back, replayed and rated, and a newcomer placed on its scale."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from tdbook.experiments.checkers import ladder as cl
from tdbook.games.checkers import Checkers, moves_of
from tdbook.games.checkers_bitboard import credit
from tdbook.games.checkers_book import split_games
from tdbook.learners.checkers_polynomial import Polynomial, piece_advantage
from tdbook.learners.checkers_signature import book_terms
from tdbook.players.checkers import Player, choices, material_player
from tdbook.players.checkers_search import SearchRules


@pytest.fixture(scope="module")
def models():
    return cl.book_models(1500, seed=3)


@pytest.fixture(scope="module")
def held():
    return cl.held_out_sample(60, seed=4)


def test_samples_come_from_their_side_of_the_split(held):
    train, test = split_games()
    t = cl.training_sample(200, seed=1)
    assert len(t) == 200 and np.isin(t.game, train).all() and np.isin(held.game, test).all()
    assert np.all(held.n_legal > 1) and np.array_equal(cl.held_out_sample(60, 4).words, held.words)


def test_a_tables_player_is_material_without_weight_and_the_tables_best_move_at_one_ply(models, held):
    mat = material_player()
    zero = Player("tables × 0", poly=Polynomial(), tables=models.tables, tables_mul=0.0)
    assert np.array_equal(choices(zero, held.words, held.side), choices(mat, held.words, held.side))
    one = Player("tables", poly=Polynomial(), tables=models.tables, tables_mul=models.tables_mul,
                 rules=SearchRules.fixed(1))  # fmt: skip
    got = choices(one, held.words, held.side)
    X, starts = book_terms(held.words, held.side, held.n_legal)
    c = models.tables.value(X)
    for i in range(len(held)):
        s = held.state(i)
        vals = []
        for k, m in enumerate(moves_of(s)):
            t = Checkers(quiet_limit=None).apply(s, m.text)
            mine, theirs = (
                (credit(t.bm, t.bk), credit(t.wm, t.wk)) if s.side == 0 else (credit(t.wm, t.wk), credit(t.bm, t.bk))
            )
            vals.append(piece_advantage(mine, theirs, 2.0**20) + models.tables_mul * c[starts[i] + k])
        assert got[i] == int(np.argmax(vals)), i


def test_the_shift_centres_the_learned_part_and_leaves_one_ply_choices_alone(models, held):
    from tdbook.players.checkers_search import Searcher

    s = held.state(0)
    for p in (models.player("signature tables"), models.player("logistic")):
        assert p.shift != 0
        kw = {"tables": p.tables, "tables_mul": p.tables_mul}
        plain = Searcher(p.poly, SearchRules.fixed(1), **kw)(s.words, s.side)
        centred = Searcher(p.poly, SearchRules.fixed(1), shift=p.shift, **kw)(s.words, s.side)
        # the root's value is its best child's evaluation for the side that moved: shifted by −shift
        assert centred.best == plain.best and centred.value == pytest.approx(plain.value - p.shift)
    assert set(models.shift) == {"book polynomial", "logistic", "signature tables"}


def test_choices_are_the_moves_choose_makes(models, held):
    for p in (cl.ROSTER["signature tables"][1](_Ctx(models)), cl.ROSTER["logistic"][1](_Ctx(models))):
        got = choices(p, held.words[:12], held.side[:12])
        want = [[m.text for m in moves_of(held.state(i))].index(p.choose(held.state(i))) for i in range(12)]
        assert got.tolist() == want


class _Ctx:
    def __init__(self, models):
        self.book = models


def test_book_agreement_of_random_is_one_over_the_moves_and_clustered_by_game(held):
    a = cl.book_agreement(cl.ROSTER["random"][1](None), held)
    assert a.share == pytest.approx(np.mean(1 / held.n_legal)) and a.positions == len(held)
    hit = np.array([1.0, 0, 1, 1, 0, 0])
    g = np.array([5, 5, 7, 7, 9, 9])
    c = cl._clustered(hit, g)
    assert c.share == 0.5 and c.stderr == pytest.approx(math.sqrt(0**2 + 1**2 + 1**2) / 6)  # games: 0, +1, −1


def test_a_small_ladder_plays_writes_reads_replays_and_rates(tmp_path):
    names = ("random", "material α-β (1 ply)", "material α-β")
    spec = cl.LadderSpec(names, ballots=3, agreement_positions=40, rote_games=1)
    r = cl.play(spec, progress=False)
    assert r.as_black.shape == (3, 3) and set(np.unique(r.as_black)) <= {0.0, 0.5, 1.0}
    assert r.match("random", "material α-β").score < 0.2 and r.match("material α-β", "random").score > 0.8
    cl.save(r, tmp_path / "l.npz", "test command")
    back = cl.load(tmp_path / "l.npz")
    assert np.array_equal(back.as_white, r.as_white) and back.agreement == r.agreement and back.spec == spec
    assert cl.verify(back, [("random", "material α-β")], ballots=2)
    back.as_black[back.pairs.index(("random", "material α-β")), 0] = 0.5  # a file that lies is caught
    assert not cl.verify(back, [("random", "material α-β")], ballots=2)
    rt = r.ratings(reps=30)
    assert rt.of("material α-β")[0] == 0 and rt.order()[-1] == "random"
    sc, se = r.score_matrix()
    assert sc.shape == (3, 3) and np.isnan(sc[0, 0])
    p = cl.place(replace(material_player(), name="again"), rt, {"material α-β (1 ply)": cl.ROSTER[
        "material α-β (1 ply)"][1](None)}, ballots=3)  # fmt: skip
    assert math.isfinite(p.elo) and p.stderr >= 0


def test_bad_ladders_are_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="unknown player"):
        cl.LadderSpec(("random", "deep blue"))
    with pytest.raises(ValueError, match="at least two"):
        cl.LadderSpec(("random",))
    with pytest.raises(ValueError, match="ballots"):
        cl.LadderSpec(("random", "material α-β"), ballots=400)
    (tmp_path / "x.npz").write_bytes(b"no")
    with pytest.raises(ValueError, match="not a readable checkers ladder file"):
        cl.load(tmp_path / "x.npz")
    assert set(cl.EQUAL_SEARCH) <= set(cl.ROSTER) and "random" not in cl.EQUAL_SEARCH
    assert cl.main(["--players", "random", "material α-β", "--out", str(tmp_path / "y.txt")]) == 2
    with pytest.raises(SystemExit):  # argparse names the bad option
        cl.main(["--players", "random", "--out", str(tmp_path / "y.npz")])
